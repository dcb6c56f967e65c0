//! A panic (a bug) in a task of `qiwang serve`: the organiser sees the short bilingual
//! internal-error report with the panic's message and place on standard error, the
//! visitor a 500 page in both languages (never the login page or "unknown token"), and
//! the server goes on answering. Debug builds panic where `QIWANG_TEST_SERVE_PANIC` says.

use crate::serve::{Served, assert_secure, paired_event, request};
use std::process::Stdio;

/// The report the organiser sees, once per panic, and no Rust panic text.
fn assert_reported(stderr: &str, place: &str, file: &str, times: usize) {
    assert_eq!(
        stderr.matches("内部错误：请把这段输出").count(),
        times,
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("internal error: please report").count(),
        times,
        "{stderr}"
    );
    let message = format!("panic asked for by QIWANG_TEST_SERVE_PANIC in {place} (at {file}:");
    assert_eq!(stderr.matches(&message).count(), times, "{stderr}");
    assert!(!stderr.contains("panicked at"), "{stderr}");
}

/// A 500 answer with the bilingual page and the usual headers.
fn assert_internal(r: &crate::serve::Response, what: &str) {
    assert_eq!(r.status, 500, "{what}: {}", r.body);
    assert_secure(r, what);
    assert!(
        r.body.contains("内部错误") && r.body.contains("internal error"),
        "{what}: {}",
        r.body
    );
    assert!(
        !r.body.contains("QIWANG_TEST_SERVE_PANIC"),
        "{what}: {}",
        r.body
    );
}

#[test]
fn a_panic_reading_a_session_answers_500_and_is_reported() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start_env(
        &ev,
        &[],
        &[("QIWANG_TEST_SERVE_PANIC", "session")],
        Stdio::piped(),
    );
    let cookie = [("Cookie", "qiwang_arbiter=0123456789abcdef")];
    for path in ["/arbiter/", "/arbiter/table?g=a&t=1"] {
        let r = request(served.addr, "GET", path, &cookie, "");
        assert_internal(&r, path);
        assert!(!r.body.contains("token"), "not the login page: {}", r.body);
    }
    // The server goes on: pages that need no session are served.
    assert_eq!(served.get("/index.html").status, 200);
    assert_eq!(
        request(served.addr, "GET", "/arbiter/", &[], "").status,
        200
    );
    let stderr = served.stop();
    assert_reported(&stderr, "session", "src/serve/arbiter/mod.rs", 2);
}

#[test]
fn a_panicking_handler_answers_500_and_is_reported() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start_env(
        &ev,
        &[],
        &[("QIWANG_TEST_SERVE_PANIC", "index")],
        Stdio::piped(),
    );
    assert_internal(&served.get("/"), "/");
    assert_eq!(served.get("/index.html").status, 200);
    let stderr = served.stop();
    assert_reported(&stderr, "index", "src/serve/http.rs", 1);
}
