//! `qiwang serve` over loopback with a plain HTTP/1.1 client (no browser): the headers
//! every response carries, that no request path reaches the event's files, the find
//! page's search, that a hostile name stays text, that no personal data is served, and
//! that a change the CLI records reaches an open live connection. The arbiter's pages
//! are tested in `serve_arbiter.rs`; the browser tests in `browser.rs`.

use crate::common::{BIN, p, run, small_event};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A `qiwang serve --port 0` on an event, ended when dropped.
pub struct Served {
    child: Child,
    pub addr: SocketAddr,
    /// What it printed before serving (the address, and with `--lan` the QR code).
    pub printed: String,
}

impl Served {
    /// Starts the server on the event `ev` with `extra` arguments after `serve`.
    pub fn start(ev: &Path, extra: &[&str]) -> Served {
        Served::start_env(ev, extra, &[], Stdio::inherit())
    }

    /// [`Served::start`] with `env` set, its standard error going to `stderr`
    /// ([`Served::stop`] reads a piped one).
    pub fn start_env(ev: &Path, extra: &[&str], env: &[(&str, &str)], stderr: Stdio) -> Served {
        // The tests send many requests from one address: without limits per client
        // unless a test sets them (serve_limits.rs).
        let limits: &[&str] = if extra.iter().any(|a| a.starts_with("--client-")) {
            &[]
        } else {
            &["--client-rate", "0", "--client-live", "0"]
        };
        let mut child = Command::new(BIN)
            .args(["--event", p(ev), "serve", "--port", "0"])
            .args(limits)
            .args(extra)
            .env("QIWANG_USER", "server")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("qiwang serve starts");
        let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
        let mut printed = String::new();
        // Everything up to the last line it prints before serving (bounded: a handful).
        for _ in 0..400 {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            printed.push_str(&line);
            if line.contains("Ctrl-C") {
                break;
            }
        }
        // Whatever it prints later is read and dropped, so it never blocks on a pipe.
        std::thread::spawn(move || {
            let mut rest = Vec::new();
            let _ = reader.read_to_end(&mut rest);
        });
        let url = printed
            .lines()
            .find_map(|l| l.split("://").nth(1).filter(|_| l.contains("http")))
            .unwrap_or_else(|| panic!("no address printed:\n{printed}"));
        let host = url.split('/').next().unwrap();
        let port: u16 = host.rsplit(':').next().unwrap().parse().unwrap();
        Served {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            printed,
        }
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Response {
        request(self.addr, "GET", path, &[], "")
    }

    /// Ends the server; what it wrote on a piped standard error.
    pub fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut text = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            let _ = stderr.read_to_string(&mut text);
        }
        text
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response as read off the socket.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One request on a new connection (`Connection: close`), read to its end. `path` is
/// sent as given (`/../x` stays so). Bounded: a 20-second read timeout.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Response {
    let stream = TcpStream::connect(addr).expect("connect to the server");
    request_over(stream, addr, method, path, headers, body)
}

/// [`request`] on a connection already made (from a chosen address, say).
pub fn request_over(
    mut stream: TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Response {
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    parse(&read_response(&mut stream))
}

/// One response off `stream`: the header block, then as many bytes as `Content-Length`
/// says, or chunks up to the last one, or everything up to the end of the connection
/// (a server may keep it open despite `Connection: close`).
fn read_response(stream: &mut TcpStream) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let n = stream.read(&mut buf).expect("a whole response");
        raw.extend_from_slice(&buf[..n]);
        let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
            assert!(n > 0, "the connection closed inside the header");
            continue;
        };
        let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        let body = raw.len() - end - 4;
        let complete = match length {
            Some(length) => body >= length,
            None if head.contains("transfer-encoding: chunked") => raw.ends_with(b"\r\n0\r\n\r\n"),
            None => n == 0,
        };
        if complete || n == 0 {
            return raw;
        }
    }
}

fn parse(raw: &[u8]) -> Response {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").expect("a header block");
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        unchunk(body)
    } else {
        body.to_string()
    };
    Response {
        status,
        headers,
        body,
    }
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n.min(rest.len())]);
        body = rest.get(n + 2..).unwrap_or("");
    }
    out
}

/// An open live-update connection (`GET /events`), read event by event.
pub struct Live {
    reader: BufReader<TcpStream>,
}

impl Live {
    pub fn open(addr: SocketAddr) -> Live {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(stream, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        Live { reader }
    }

    /// The data of the next `change` event (its version), skipping keep-alive comments
    /// and chunk sizes; fails the test after the read timeout.
    pub fn next_change(&mut self) -> u64 {
        let mut named = false;
        for _ in 0..1000 {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).expect("an event in time");
            assert!(n > 0, "the live connection closed");
            let line = line.trim_end();
            if line == "event: change" {
                named = true;
            } else if let (true, Some(data)) = (named, line.strip_prefix("data: ")) {
                return data.parse().unwrap();
            }
        }
        panic!("no change event");
    }
}

/// A paired one-group event of four players (one of them named `hostile`).
pub fn paired_event(hostile: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (tmp, ev) = small_event(&["张三", "李四", "王五", hostile]);
    run(tmp.path(), &["--event", p(&ev), "pair", "--seed", "1"]).ok();
    (tmp, ev)
}

/// The headers every response carries, whatever the route and status.
pub fn assert_secure(r: &Response, what: &str) {
    let csp = r.header("content-security-policy").unwrap_or("");
    assert!(
        csp.starts_with("default-src 'none'; script-src 'self';") && !csp.contains("unsafe"),
        "{what}: {csp}"
    );
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    assert_eq!(
        r.header("x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
    assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{what}");
}

#[test]
fn every_response_is_secured_and_no_path_reaches_the_event_files() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &[]);
    assert!(
        served.printed.contains("http://127.0.0.1:"),
        "{}",
        served.printed
    );
    let state = std::fs::read_to_string(ev.join("qiwang.json")).unwrap();
    for (path, status) in [
        ("/", 200),
        ("/index.html", 200),
        ("/find.html", 200),
        ("/find.html?q=zs", 200),
        ("/screen", 200),
        ("/screen?n=99", 200),
        ("/poster.html", 200),
        ("/qr.svg", 200),
        ("/qiwang.js", 200),
        ("/nothing.html", 404),
        ("/qiwang.json", 404),
        ("/audit.log", 404),
        ("/rules.toml", 404),
        ("/history/", 404),
        ("/../qiwang.json", 404),
        ("/%2e%2e/qiwang.json", 404),
        ("/..%2fqiwang.json", 404),
        ("//etc/passwd", 404),
        ("/open/../../qiwang.json", 404),
    ] {
        let r = served.get(path);
        assert_eq!(r.status, status, "{path}: {}", r.body);
        assert_secure(&r, path);
        assert!(!r.body.contains("rules_toml"), "{path} served the state");
        assert!(!r.body.contains(&state[..200.min(state.len())]), "{path}");
    }
    let js = served.get("/qiwang.js");
    assert!(
        js.header("content-type")
            .unwrap()
            .starts_with("text/javascript")
    );
    // No page carries an inline script: every <script> names its file.
    let index = served.get("/");
    assert!(
        index
            .body
            .contains("<script src=\"qiwang.js\" defer=\"\"></script>"),
        "{}",
        index.body
    );
    assert_eq!(index.body.matches("<script").count(), 1);
    let r = request(served.addr, "POST", "/index.html", &[], "x=1");
    assert_eq!(r.status, 405);
    assert_secure(&r, "POST");
}

#[test]
fn the_served_pages_are_the_exported_site() {
    let (tmp, ev) = paired_event("赵六");
    let out = tmp.path().join("site");
    run(tmp.path(), &["--event", p(&ev), "export", "--out", p(&out)]).ok();
    let served = Served::start(&ev, &[]);
    for file in ["index.html", "find.html", "qiwang.js"] {
        let exported = std::fs::read_to_string(out.join(file)).unwrap();
        assert_eq!(served.get(&format!("/{file}")).body, exported, "{file}");
    }
    let group = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .unwrap();
    let name = group.file_name().unwrap().to_str().unwrap().to_string();
    let exported = std::fs::read_to_string(group.join("round-1.html")).unwrap();
    assert_eq!(served.get(&format!("/{name}/round-1.html")).body, exported);
    // The phone layout: every cell labelled for its card.
    assert!(exported.contains("class=\"stack\"") && exported.contains("data-label="));
}

#[test]
fn the_find_page_answers_a_search_by_name_initials_or_number() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &[]);
    let count = |q: &str| {
        served
            .get(&format!("/find.html?q={q}"))
            .body
            .matches("<li")
            .count()
    };
    assert_eq!(count("zs"), 1);
    assert_eq!(count("%E6%9D%8E%E5%9B%9B"), 1); // 李四
    assert_eq!(count("wangw"), 1);
    assert_eq!(count("1"), 1);
    assert_eq!(count("xyz"), 0);
    assert_eq!(served.get("/find.html").body.matches("<li").count(), 4);
}

#[test]
fn a_hostile_name_is_served_as_text() {
    let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    let (_tmp, ev) = paired_event(hostile);
    let served = Served::start(&ev, &[]);
    let index = served.get("/index.html").body;
    let group = index
        .split("href=\"")
        .filter_map(|s| s.split('"').next())
        .find(|h| h.ends_with("/round-1.html"))
        .unwrap()
        .to_string();
    for path in [
        format!("/{group}"),
        "/find.html".to_string(),
        "/find.html?q=%3Cscript%3E".to_string(),
        "/screen".to_string(),
    ] {
        let body = served.get(&path).body;
        assert!(body.contains("&lt;script&gt;alert(1)"), "{path}: {body}");
        assert!(
            !body.contains("<script>alert") && !body.contains("<img src=x"),
            "{path}"
        );
    }
}

#[test]
fn no_personal_data_is_served() {
    let tmp = tempfile::TempDir::new().unwrap();
    let ev = crate::published::event_with_reasons(tmp.path(), "");
    let served = Served::start(&ev, &[]);
    let index = served.get("/").body;
    let mut paths: Vec<String> = index
        .split("href=\"")
        .filter_map(|s| s.split('"').next())
        .filter(|h| h.ends_with(".html"))
        .map(|h| format!("/{h}"))
        .collect();
    paths.extend(["/find.html".into(), "/screen".into(), "/screen?n=1".into()]);
    assert!(paths.len() > 5, "{paths:?}");
    for path in &paths {
        let body = served.get(path).body;
        assert!(!body.contains(crate::published::SECRET), "{path}");
        for (id, phone, born) in crate::published::registrations() {
            for number in [&id, &phone, &born, &id[id.len() - 4..].to_string()] {
                assert!(!body.contains(number.as_str()), "{path} shows {number}");
            }
        }
    }
}

#[test]
fn a_change_by_the_cli_reaches_an_open_live_connection() {
    let (tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &[]);
    let mut live = Live::open(served.addr);
    let first = live.next_change();
    let before = served.get("/find.html").body;
    run(tmp.path(), &["--event", p(&ev), "result", "1", "r"]).ok();
    let next = live.next_change();
    assert!(next > first, "{first} then {next}");
    // The pages served now show the result (the round sheet has it).
    let index = served.get("/index.html").body;
    let round = index
        .split("href=\"")
        .filter_map(|s| s.split('"').next())
        .find(|h| h.ends_with("/round-1.html"))
        .unwrap()
        .to_string();
    assert!(served.get(&format!("/{round}")).body.contains("红胜"));
    assert_eq!(served.get("/find.html").body, before);
    // The CLI is not kept waiting by the server: it holds no lock.
    run(tmp.path(), &["--event", p(&ev), "result", "2", "="]).ok();
    assert!(live.next_change() > next);
}

#[test]
fn lan_prints_the_address_its_qr_code_and_the_poster() {
    let (_tmp, ev) = paired_event("赵六");
    // Listens on every address; the one announced is given, so the test needs no network.
    let served = Served::start(&ev, &["--lan", "--address", "127.0.0.1"]);
    let url = format!("http://127.0.0.1:{}/", served.addr.port());
    assert!(
        served.printed.contains(&format!("{url}poster.html")),
        "{}",
        served.printed
    );
    assert!(
        served.printed.contains('█') && served.printed.contains('▀'),
        "{}",
        served.printed
    );
    let poster = served.get("/poster.html").body;
    assert!(
        poster.contains(&url) && poster.contains("src=\"qr.svg\""),
        "{poster}"
    );
    let qr = served.get("/qr.svg");
    assert_eq!(qr.header("content-type"), Some("image/svg+xml"));
    assert!(qr.body.contains("<svg"));
}
