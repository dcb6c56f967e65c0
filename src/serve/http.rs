//! Answering requests: the public routes (the site's pages from memory, the find page's
//! search, the hall screen, the poster and its QR code, the live-update stream) and the
//! headers every response carries: a strict Content-Security-Policy (scripts only as
//! files of this server, styles only the page constants by their hashes, nothing from
//! elsewhere, no framing), `X-Content-Type-Options: nosniff`, `Referrer-Policy:
//! no-referrer` and `Cache-Control: no-store`.
//!
//! Every request passes the rate limit of its client address first (`limits.rs`), and
//! `/events` the cap of live connections per address. A handler that panics answers 500
//! (`internal.rs`), with the same headers.
//!
//! A request path is only ever a key into the rendered pages: nothing here opens a file.

use super::Options;
use super::pages::{Pages, Snapshot};
use crate::report::{Markup, PAGE_CSS, html_page_with_head};
use crate::views::public;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use sha2::Digest;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What every handler shares.
pub struct Shared {
    pub(super) pages: Pages,
    /// The event, for the arbiter's writes.
    pub(super) store: crate::store::Store,
    /// The arbiter's sessions and login limits.
    pub(super) gate: super::tokens::Gate,
    /// Served over HTTPS: the session cookie is marked `Secure`.
    pub(super) https: bool,
    csp: HeaderValue,
    poster: Bytes,
    qr: Bytes,
    live: AtomicUsize,
    max_live: usize,
    /// The limits per client address.
    limits: super::limits::Limits,
    /// The server's standard error ([`Options::note`]).
    pub(super) note: fn(&str),
}

/// The poster's style (a constant, allowed by its hash).
const POSTER_CSS: &str = "\n\
body{text-align:center}h1{font-size:2.2em;margin-top:1em}p.big{font-size:1.6em}
img{width:120mm;max-width:90vw;height:auto}p.url{font-size:2em;font-weight:bold;font-family:monospace}
";

impl Shared {
    /// A store error met by a request, as its page shows it (the event's files named
    /// relative to it), noted in full on the server's standard error.
    pub(super) fn problem(
        &self,
        e: &crate::store::StoreError,
        lang: crate::i18n::Lang,
    ) -> super::problem::Problem {
        super::problem::Problem::of(e, self.store.dir(), self.note, lang)
    }

    pub fn new(pages: Pages, store: crate::store::Store, options: &Options, https: bool) -> Shared {
        let qr = Bytes::from(super::svg_qr(&options.public_url));
        let poster = Bytes::from(poster(&pages.current(), &options.public_url));
        Shared {
            pages,
            store,
            gate: super::tokens::Gate::default(),
            https,
            csp: content_security_policy(),
            poster,
            qr,
            live: AtomicUsize::new(0),
            max_live: options.max_live,
            limits: super::limits::Limits::new(options.client_rate, options.client_live),
            note: options.note,
        }
    }
}

/// Every style sheet a page of this server carries, allowed by hash.
pub(super) const STYLES: [&str; 5] = [
    PAGE_CSS,
    public::FIND_CSS,
    public::SCREEN_CSS,
    POSTER_CSS,
    super::arbiter::ARBITER_CSS,
];

/// `default-src 'none'` and only what the pages use: scripts and images from this
/// server, the page styles by hash, requests (`fetch`, live updates) and forms to this
/// server; no `<base>`, no framing.
fn content_security_policy() -> HeaderValue {
    let hashes: Vec<String> = STYLES
        .iter()
        .map(|css| format!("'sha256-{}'", base64(&sha2::Sha256::digest(css.as_bytes()))))
        .collect();
    let policy = format!(
        "default-src 'none'; script-src 'self'; style-src {}; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        hashes.join(" ")
    );
    HeaderValue::from_str(&policy).expect("the policy is ASCII")
}

/// Standard base64 with padding (RFC 4648), for the style hashes.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The routes of the public site (and, merged in, the arbiter's).
pub fn router(shared: Arc<Shared>) -> Router {
    let headers = shared.csp.clone();
    Router::new()
        .route("/", get(index))
        .route("/events", get(events))
        .route("/screen", get(screen))
        .route("/poster.html", get(poster_page))
        .route("/qr.svg", get(qr))
        .route("/find.html", get(find))
        .route("/{*path}", get(page))
        .merge(super::arbiter::routes())
        .layer(axum::middleware::from_fn_with_state(shared.clone(), limit))
        .with_state(shared)
        .layer(axum::middleware::from_fn(super::internal::catch))
        .layer(axum::middleware::map_response(move |response: Response| {
            let csp = headers.clone();
            async move { secure(response, csp) }
        }))
}

/// Answers a client past its request rate with 429 before anything else is done
/// (`limits.rs`).
async fn limit(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    if shared.limits.allow(client.ip()) {
        next.run(request).await
    } else {
        too_many(&shared.pages.current())
    }
}

/// 429 with `Retry-After: 1`, in the pages' language.
fn too_many(snapshot: &Snapshot) -> Response {
    let lang = snapshot.lang;
    let text = lang.pick(
        "请求太频繁，请稍等几秒再试。",
        "Too many requests; wait a few seconds and try again.",
    );
    let mut body = Markup::new();
    body.text_element("p", &[], text);
    let html = html_page_with_head(lang.code(), text, &Markup::new(), &body);
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, HeaderValue::from_static("1"))],
        file("x.html", Bytes::from(html)),
    )
        .into_response()
}

/// The headers every response carries (module docs).
fn secure(mut response: Response, csp: HeaderValue) -> Response {
    let h = response.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, csp);
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// A response of `bytes` with the content type a path's extension names.
fn file(path: &str, bytes: Bytes) -> Response {
    let kind = if path.ends_with(".js") {
        "text/javascript; charset=utf-8"
    } else if path.ends_with(".svg") {
        "image/svg+xml"
    } else {
        "text/html; charset=utf-8"
    };
    ([(header::CONTENT_TYPE, kind)], Body::from(bytes)).into_response()
}

/// An HTML page as a response.
pub(super) fn html(text: String) -> Response {
    file("page.html", Bytes::from(text))
}

/// 404 (or 503 while the event cannot be read), in the pages' language.
fn not_found(snapshot: &Snapshot) -> Response {
    let lang = snapshot.lang;
    let (status, text) = match (&snapshot.problem, snapshot.pages.is_empty()) {
        (Some(problem), true) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{}{problem}",
                lang.pick("暂时无法读取比赛：", "the event cannot be read just now: ")
            ),
        ),
        _ => (
            StatusCode::NOT_FOUND,
            lang.pick("没有这个页面。", "No such page.").to_string(),
        ),
    };
    let mut body = Markup::new();
    body.element("nav", &[], |m| {
        m.text_element(
            "a",
            &[("href", "/index.html")],
            lang.pick("返回首页", "index"),
        );
    });
    body.text_element("p", &[], &text);
    let html = html_page_with_head(lang.code(), &text, &Markup::new(), &body);
    (status, file("x.html", Bytes::from(html))).into_response()
}

async fn index(State(shared): State<Arc<Shared>>) -> Response {
    super::internal::test_panic("index");
    serve_page(&shared, "index.html")
}

async fn page(State(shared): State<Arc<Shared>>, Path(path): Path<String>) -> Response {
    serve_page(&shared, &path)
}

fn serve_page(shared: &Shared, path: &str) -> Response {
    let snapshot = shared.pages.current();
    match snapshot.pages.get(path) {
        Some(bytes) => file(path, bytes.clone()),
        None => not_found(&snapshot),
    }
}

/// `find.html?q=…`: the players the search matches (without a search, the whole list).
async fn find(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let snapshot = shared.pages.current();
    let q = query.get("q").map(|q| q.trim()).filter(|q| !q.is_empty());
    match (q, &snapshot.state) {
        (Some(q), Some(state)) => {
            // At most 100 characters of a search are looked at.
            let q: String = q.chars().take(100).collect();
            let html = public::find_page(&state.1, snapshot.lang, &snapshot.entries, Some(&q));
            file("find.html", Bytes::from(html))
        }
        _ => serve_page(&shared, public::FIND_FILE),
    }
}

/// `screen?n=i`: slide `i` of the hall screen (each moves on to the next by itself).
async fn screen(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let snapshot = shared.pages.current();
    if snapshot.slides.is_empty() {
        return not_found(&snapshot);
    }
    let n = query
        .get("n")
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(0)
        % snapshot.slides.len();
    file("screen.html", snapshot.slides[n].clone())
}

async fn poster_page(State(shared): State<Arc<Shared>>) -> Response {
    file("poster.html", shared.poster.clone())
}

async fn qr(State(shared): State<Arc<Shared>>) -> Response {
    file("qr.svg", shared.qr.clone())
}

/// The printable A4 poster: the event's name, what to do, the QR code and the address.
fn poster(snapshot: &Snapshot, url: &str) -> String {
    let lang = snapshot.lang;
    let name = snapshot
        .state
        .as_ref()
        .map_or_else(String::new, |s| s.1.event.name.clone());
    let mut body = Markup::new();
    body.style(POSTER_CSS).newline();
    body.text_element("h1", &[], &name).newline();
    body.text_element(
        "p",
        &[("class", "big")],
        lang.pick(
            "手机扫码：查找台号、本轮对阵、成绩排名",
            "Scan with your phone: your table, this round's pairings, the standings",
        ),
    )
    .newline();
    body.void_element("img", &[("src", "qr.svg"), ("alt", url)])
        .newline();
    body.text_element("p", &[("class", "url")], url).newline();
    body.text_element(
        "p",
        &[],
        lang.pick(
            "请连接比赛场地的无线网络后访问；无需安装任何应用。",
            "Join the hall's Wi-Fi first; no app is needed.",
        ),
    )
    .newline();
    html_page_with_head(lang.code(), &name, &Markup::new(), &body)
}

/// Counts a live connection while it is open, overall and for its client address.
struct LiveGuard(Arc<Shared>, IpAddr);

impl Drop for LiveGuard {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::Relaxed);
        self.0.limits.close_live(self.1);
    }
}

/// `events`: a server-sent event `change` with the version now, and again on every
/// change. Pages fetch themselves again when it comes (`public.js`).
///
/// A client with its own limit of live connections open gets 429, and past the overall
/// cap everyone gets 503; their pages simply stay as loaded (`EventSource` does not retry
/// after such an answer).
async fn events(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
) -> Response {
    let ip = client.ip();
    if !shared.limits.open_live(ip) {
        return too_many(&shared.pages.current());
    }
    if shared.live.fetch_add(1, Ordering::Relaxed) >= shared.max_live {
        shared.live.fetch_sub(1, Ordering::Relaxed);
        shared.limits.close_live(ip);
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    let guard = LiveGuard(shared.clone(), ip);
    let receiver = shared.pages.subscribe();
    let stream = futures_util::stream::unfold(
        (receiver, true, guard),
        |(mut receiver, first, guard)| async move {
            if !first && receiver.changed().await.is_err() {
                return None;
            }
            let version = receiver.borrow_and_update().version;
            let event = SseEvent::default()
                .event("change")
                .data(version.to_string());
            Some((Ok::<_, Infallible>(event), (receiver, false, guard)))
        },
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_the_standard_alphabet_with_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn the_policy_allows_no_inline_script_and_each_style_by_hash() {
        let csp = content_security_policy();
        let csp = csp.to_str().unwrap();
        assert!(csp.starts_with("default-src 'none'; script-src 'self';"));
        assert!(!csp.contains("unsafe"));
        assert_eq!(csp.matches("'sha256-").count(), STYLES.len());
    }
}
