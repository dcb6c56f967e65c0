//! `qiwang serve --tls-cert FILE --tls-key FILE` over loopback, with a certificate made in
//! the test (rcgen) for 127.0.0.1: the pages come over TLS with the same headers, the
//! address printed is `https://`, the arbiter's session cookie is `Secure` (and is not
//! without the options), a plain HTTP request to the port is closed without a page (not
//! left hanging), and files that are not a certificate stop the server before it serves,
//! with the reason in Chinese.

use crate::common::{p, qiwang_zh, run};
use crate::serve::{Served, paired_event, request};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// A self-signed certificate for 127.0.0.1 and localhost, written as PEM files; its DER.
fn certificate(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf, Vec<u8>) {
    let made =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".into(), "localhost".into()]).unwrap();
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert, made.cert.pem()).unwrap();
    std::fs::write(&key, made.signing_key.serialize_pem()).unwrap();
    (cert, key, made.cert.der().to_vec())
}

/// One request over TLS, trusting only `der`; the whole response as text.
fn request_tls(addr: SocketAddr, der: &[u8], head: &str) -> String {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(rustls::pki_types::CertificateDer::from(der.to_vec()))
        .unwrap();
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
    let connection = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
    let tcp = TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut tls = rustls::StreamOwned::new(connection, tcp);
    tls.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    // The server closes after the response (`Connection: close`); a TLS peer that just
    // closes the socket is an error here too, after the bytes it sent.
    let _ = tls.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw).into_owned()
}

fn header<'a>(response: &'a str, name: &str) -> Option<&'a str> {
    let head = response.split("\r\n\r\n").next()?;
    head.lines().find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

#[test]
fn with_a_certificate_the_pages_come_over_https() {
    let (tmp, ev) = paired_event("赵六");
    let (cert, key, der) = certificate(tmp.path());
    let served = Served::start(
        &ev,
        &[
            "--tls-cert",
            p(&cert),
            "--tls-key",
            p(&key),
            "--token",
            "all",
        ],
    );
    assert!(
        served.printed.contains("https://127.0.0.1:"),
        "{}",
        served.printed
    );
    let page = request_tls(
        served.addr,
        &der,
        "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    );
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(
        header(&page, "content-security-policy")
            .is_some_and(|c| c.starts_with("default-src 'none'")),
        "{page}"
    );
    // The arbiter's login sets a Secure cookie.
    let body = format!("token={}", token(&served.printed));
    let login = request_tls(
        served.addr,
        &der,
        &format!(
            "POST /arbiter/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(login.starts_with("HTTP/1.1 303"), "{login}");
    let cookie = header(&login, "set-cookie").unwrap_or("");
    assert!(
        cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Strict")
            && cookie.contains("; Secure"),
        "{cookie}"
    );
    // Plain HTTP to the same port gets no page: the server closes the connection (the
    // bytes are not a TLS handshake) within the read timeout, rather than leaving it open.
    let mut plain = TcpStream::connect_timeout(&served.addr, Duration::from_secs(5)).unwrap();
    plain
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        plain,
        "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    let ended = plain.read_to_end(&mut raw);
    assert!(
        !matches!(&ended, Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)),
        "a plain HTTP connection left open: {ended:?}"
    );
    let answer = String::from_utf8_lossy(&raw);
    assert!(
        !answer.contains("HTTP/1.1") && !answer.contains("<html"),
        "an answer over plain HTTP: {answer}"
    );
    // Without the options the same event is served over HTTP, and the arbiter's cookie is
    // not marked Secure (a browser would not send it back over HTTP).
    drop(served);
    let plain = Served::start(&ev, &["--token", "all"]);
    assert!(
        plain.printed.contains("http://127.0.0.1:") && plain.addr.ip().is_loopback(),
        "{}",
        plain.printed
    );
    let login = request(
        plain.addr,
        "POST",
        "/arbiter/login",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        &format!("token={}", token(&plain.printed)),
    );
    assert_eq!(login.status, 303, "{}", login.body);
    let cookie = login.header("set-cookie").unwrap_or("");
    assert!(
        cookie.starts_with("qiwang_arbiter=")
            && cookie.contains("HttpOnly")
            && !cookie.contains("Secure"),
        "{cookie}"
    );
}

/// The arbiter's token `serve --token all` printed.
fn token(printed: &str) -> String {
    printed
        .lines()
        .find(|l| l.contains("裁判口令") || l.contains("arbiter token"))
        .and_then(|l| l.rsplit(['：', ' ']).next())
        .unwrap_or_else(|| panic!("no token printed:\n{printed}"))
        .trim()
        .to_string()
}

#[test]
fn files_that_are_not_a_certificate_stop_the_server_before_it_serves() {
    let (tmp, ev) = paired_event("赵六");
    let (cert, _, _) = certificate(tmp.path());
    let junk = tmp.path().join("junk.pem");
    std::fs::write(&junk, "not a key\n").unwrap();
    let out = qiwang_zh(
        &ev,
        &[
            "serve",
            "--port",
            "0",
            "--tls-cert",
            p(&cert),
            "--tls-key",
            p(&junk),
        ],
    );
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("私钥") && stderr.contains("junk.pem"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("http"));
    // A missing file, and a key without its certificate.
    let missing = tmp.path().join("nope.pem");
    run(
        tmp.path(),
        &[
            "--event",
            p(&ev),
            "--lang",
            "en",
            "serve",
            "--port",
            "0",
            "--tls-cert",
            p(&missing),
            "--tls-key",
            p(&junk),
        ],
    )
    .fails(5, &["nope.pem", "cannot read the certificate file"]);
    run(
        tmp.path(),
        &[
            "--event",
            p(&ev),
            "serve",
            "--port",
            "0",
            "--tls-key",
            p(&junk),
        ],
    )
    .fails(2, &["--tls-cert"]);
}
