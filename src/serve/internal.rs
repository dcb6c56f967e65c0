//! A panic in a server task (a request handler, a blocking task it waits for, the thread
//! that keeps the pages current) is a bug: the panic hook has its short bilingual report
//! printed on standard error as it happens (`panics::report_at_once`, set when the server
//! starts), and the request is answered 500 with a short bilingual page, never as an
//! ordinary refusal (a login page, an unknown token). The server goes on answering.

use crate::report::{Markup, html_page_with_head};
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::FutureExt;
use std::future::Future;
use std::panic::AssertUnwindSafe;

/// The page's two lines, Chinese first: the visitor cannot act on the report, which is in
/// the server's window, so they are asked to tell the organiser.
const ZH: &str = "内部错误：服务器出了故障，已在服务器窗口中记录；请告诉组织者。";
const EN: &str =
    "internal error: the server failed and logged it in its window; please tell the organiser.";

/// Why the pages are not current when rendering them again panicked (the pages before
/// stay served; a page that cannot be served says so).
pub(super) const RENDER_FAILED: &str =
    "内部错误：比赛网页没能更新 internal error: the pages could not be made again";

/// 500 with the short bilingual page.
pub(super) fn internal_error() -> Response {
    let mut body = Markup::new();
    body.text_element("p", &[("id", "internal-error")], ZH)
        .newline();
    body.text_element("p", &[], EN).newline();
    let html = html_page_with_head("zh", "内部错误 internal error", &Markup::new(), &body);
    (StatusCode::INTERNAL_SERVER_ERROR, super::http::html(html)).into_response()
}

/// `answer`, or [`internal_error`] when it panics.
pub(super) async fn answered(answer: impl Future<Output = Response>) -> Response {
    AssertUnwindSafe(answer)
        .catch_unwind()
        .await
        .unwrap_or_else(|_| internal_error())
}

/// The layer around every route: a handler that panics answers [`internal_error`].
pub(super) async fn catch(request: Request, next: Next) -> Response {
    answered(next.run(request)).await
}

/// Runs `work` on a blocking thread; its value, or, when it panicked (or the runtime is
/// shutting down and dropped it), the [`internal_error`] answer.
pub(super) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Box<Response>> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| Box::new(internal_error()))
}

/// Debug builds (the tests') can be made to panic in a server task, to test what the
/// organiser and the visitor then see: `QIWANG_TEST_SERVE_PANIC` names the `place`. The
/// panic's location is the caller's.
#[track_caller]
pub(super) fn test_panic(place: &str) {
    if cfg!(debug_assertions) && std::env::var("QIWANG_TEST_SERVE_PANIC").is_ok_and(|p| p == place)
    {
        panic!("panic asked for by QIWANG_TEST_SERVE_PANIC in {place}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
    }

    async fn body_of(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn a_panicking_handler_answers_500_with_both_languages() {
        runtime().block_on(async {
            let ok = answered(async { StatusCode::NO_CONTENT.into_response() }).await;
            assert_eq!(ok.status(), StatusCode::NO_CONTENT);
            let failed = answered(async { panic!("handler broke") }).await;
            assert_eq!(failed.status(), StatusCode::INTERNAL_SERVER_ERROR);
            let page = body_of(failed).await;
            assert!(page.contains(ZH) && page.contains(EN), "{page}");
            assert!(!page.contains("handler broke"), "{page}");
        });
    }

    #[test]
    fn a_panicking_blocking_task_is_the_500_answer_not_a_value() {
        runtime().block_on(async {
            assert_eq!(blocking(|| 5).await.ok(), Some(5));
            let failed = blocking(|| -> Option<u8> { panic!("token file broke") })
                .await
                .unwrap_err();
            assert_eq!(failed.status(), StatusCode::INTERNAL_SERVER_ERROR);
        });
    }
}
