//! `qiwang serve`: the event's public site over HTTP for the phones in the hall, a hall
//! screen, and live updates, on the organiser's own machine (docs/serve.md).
//!
//! The pages are the exported site's (`views::site`, `views::public`: one renderer), made
//! in memory whenever `qiwang.json` changes and served from there: no request path ever
//! reaches the file system. The server reads the state as every read command does (the
//! state file is replaced by an atomic rename, so no lock is needed) and never holds the
//! event's lock, so the CLI keeps working beside it and its changes show at once.
//!
//! Here: the options, binding and running; `pages.rs` keeps the rendered pages current,
//! `http.rs` answers requests (routes, the security headers every response carries),
//! `arbiter/` the arbiter's result entry and `tokens.rs` its login tokens and sessions,
//! `limits.rs` the limits per client address, `tls.rs` HTTPS when a certificate is given,
//! `internal.rs` what a panic in a server task answers, `problem.rs` how an event file
//! it cannot read is told of on a page and in the server's window.

mod arbiter;
mod http;
mod internal;
pub mod limits;
mod pages;
mod problem;
pub mod tls;
pub mod tokens;

use crate::i18n::{Lang, Localize, bi, display_english};
use crate::store::Store;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How `qiwang serve` runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Where to listen (127.0.0.1:8080 by default; the hall network with `--lan`).
    pub listen: SocketAddr,
    /// The address people type or scan (`http://192.168.1.20:8080/`), printed, on the
    /// poster and in its QR code.
    pub public_url: String,
    /// The pages' language; `None`: the event rulebook's.
    pub lang: Option<Lang>,
    /// How long a hall-screen slide stays before the next.
    pub screen_seconds: u32,
    /// How often the state file is looked at for a change.
    pub poll: Duration,
    /// At most this many live (server-sent events) connections at once; more are refused
    /// with 503 and their pages simply stay as loaded.
    pub max_live: usize,
    /// Requests a second per client address (bursts of five seconds' worth); 0: no limit.
    pub client_rate: u32,
    /// Live connections per client address; 0: no limit.
    pub client_live: usize,
    /// HTTPS with this certificate and key; `None`: plain HTTP.
    pub tls: Option<tls::TlsFiles>,
    /// Prints a line on the server's standard error (the binary's printer): an event file
    /// the pages cannot read is named there with its full path, on the pages relative to
    /// the event.
    pub note: fn(&str),
}

impl Options {
    /// Defaults for listening at `listen`, announced as `public_url`.
    pub fn new(listen: SocketAddr, public_url: String) -> Options {
        Options {
            listen,
            public_url,
            lang: None,
            screen_seconds: 15,
            poll: Duration::from_millis(100),
            max_live: 10_000,
            client_rate: limits::DEFAULT_RATE,
            client_live: limits::DEFAULT_LIVE,
            tls: None,
            note: |_| {},
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug)]
pub enum ServeError {
    /// The address could not be listened on (in use, not this machine's).
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The server's threads could not be started or the connection loop failed.
    Runtime(
        /// The operating system's error.
        std::io::Error,
    ),
    /// The certificate file of `--tls-cert` or the key file of `--tls-key` could not be
    /// read.
    TlsRead {
        /// Which of the two.
        file: tls::TlsFile,
        /// The file.
        path: std::path::PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// A certificate or key file holds no usable certificate or key.
    TlsInvalid {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong.
        problem: tls::TlsProblem,
    },
}

display_english!(ServeError);

impl std::error::Error for ServeError {}

impl Localize for ServeError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            ServeError::Bind { addr, error } => bi!(
                lang,
                zh("无法在 {addr} 上监听：{error}；请用 `--port N` 换一个端口"),
                en("cannot listen on {addr}: {error}; choose another port with `--port N`"),
            ),
            ServeError::Runtime(error) => bi!(
                lang,
                zh("服务器停止运行：{error}"),
                en("the server stopped: {error}"),
            ),
            ServeError::TlsRead { file, path, error } => {
                let (path, why) = (path.display(), crate::i18n::io_error(error));
                let (zh_file, en_file, option) = match file {
                    tls::TlsFile::Cert => ("证书文件", "certificate file", "--tls-cert"),
                    tls::TlsFile::Key => ("私钥文件", "private key file", "--tls-key"),
                };
                bi!(
                    lang,
                    zh("无法读取{zh_file} `{path}`（`{option}`）：{}", why.zh),
                    en(
                        "cannot read the {en_file} `{path}` (`{option}`): {}",
                        why.en
                    ),
                )
            }
            ServeError::TlsInvalid { path, problem } => {
                let path = path.display();
                match problem {
                    tls::TlsProblem::NoCertificate => bi!(
                        lang,
                        zh("`{path}` 里没有 PEM 格式的证书（-----BEGIN CERTIFICATE-----）"),
                        en("`{path}` holds no PEM certificate (-----BEGIN CERTIFICATE-----)"),
                    ),
                    tls::TlsProblem::NoKey => bi!(
                        lang,
                        zh("`{path}` 里没有 PEM 格式的私钥（-----BEGIN PRIVATE KEY-----）"),
                        en("`{path}` holds no PEM private key (-----BEGIN PRIVATE KEY-----)"),
                    ),
                    tls::TlsProblem::Refused => bi!(
                        lang,
                        zh("私钥 `{path}` 与证书不配，或是不支持的类型"),
                        en(
                            "the key `{path}` does not belong to the certificate, or is of a kind not supported"
                        ),
                    ),
                }
            }
        }
    }
}

/// A server listening, not yet answering: the caller prints where it is, then [`run`]s it.
///
/// [`run`]: Server::run
pub struct Server {
    listener: std::net::TcpListener,
    store: Store,
    options: Options,
    tls: Option<Arc<rustls::ServerConfig>>,
}

impl Server {
    /// Listens at `options.listen` for the event in `store`.
    /// With `options.tls`, the certificate and key are read first.
    pub fn bind(store: Store, options: Options) -> Result<Server, ServeError> {
        let tls = options.tls.as_ref().map(tls::config).transpose()?;
        let addr = options.listen;
        let listener = listen(addr).map_err(|error| ServeError::Bind { addr, error })?;
        Ok(Server {
            listener,
            store,
            options,
            tls,
        })
    }

    /// The same server with other options (the address to announce, once the port is
    /// known); where it listens, and its certificate, stay.
    pub fn with_options(self, options: Options) -> Server {
        Server { options, ..self }
    }

    /// Whether it answers HTTPS (`https://` addresses) rather than HTTP.
    pub fn is_https(&self) -> bool {
        self.tls.is_some()
    }

    /// Where it listens (the port the system chose for `--port 0`).
    pub fn local_addr(&self) -> Result<SocketAddr, ServeError> {
        self.listener.local_addr().map_err(ServeError::Runtime)
    }

    /// Answers requests until the process ends. From here on a panic (a bug) in any of
    /// the server's tasks is reported on standard error as it happens (`internal.rs`).
    pub fn run(self) -> Result<(), ServeError> {
        crate::panics::report_at_once();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .thread_name("qiwang-serve")
            .build()
            .map_err(ServeError::Runtime)?;
        let pages =
            pages::Pages::start(self.store.clone(), &self.options).map_err(ServeError::Runtime)?;
        let https = self.tls.is_some();
        let shared = Arc::new(http::Shared::new(pages, self.store, &self.options, https));
        runtime.block_on(async move {
            let listener =
                tokio::net::TcpListener::from_std(self.listener).map_err(ServeError::Runtime)?;
            let router = http::router(shared);
            match self.tls {
                Some(config) => tls::serve(listener, router, config).await,
                None => {
                    let app = router.into_make_service_with_connect_info::<SocketAddr>();
                    axum::serve(listener, app).await
                }
            }
            .map_err(ServeError::Runtime)
        })
    }
}

/// Connections the system keeps waiting to be accepted: std's listener allows 128, which
/// hundreds of phones reconnecting at one moment (a new round posted) overflow, and the
/// overflow is reset. Linux caps it at `net.core.somaxconn` (4096 by default).
const BACKLOG: i32 = 1024;

/// A non-blocking listener at `addr` with a [`BACKLOG`]-long queue (and, on Unix, address
/// reuse, as std's own listener has).
fn listen(addr: SocketAddr) -> std::io::Result<std::net::TcpListener> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
    #[cfg(unix)]
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(BACKLOG)?;
    socket.set_nonblocking(true)?;
    Ok(socket.into())
}

/// The QR code of `text` for a terminal: two rows of modules per line (▀ ▄ █), dark on
/// light with the quiet zone around it, so a phone scans it off the screen.
pub fn terminal_qr(text: &str) -> String {
    match qrcode::QrCode::new(text.as_bytes()) {
        Ok(code) => code
            .render::<qrcode::render::unicode::Dense1x2>()
            .dark_color(qrcode::render::unicode::Dense1x2::Light)
            .light_color(qrcode::render::unicode::Dense1x2::Dark)
            .quiet_zone(true)
            .build(),
        Err(_) => String::new(),
    }
}

/// The QR code of `text` as an SVG image (the poster's).
pub(crate) fn svg_qr(text: &str) -> String {
    match qrcode::QrCode::new(text.as_bytes()) {
        Ok(code) => code
            .render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(480, 480)
            .quiet_zone(true)
            .build(),
        Err(_) => String::new(),
    }
}

/// The address of this machine on the hall network, as the system would reach the local
/// network from it: the route lookup of an unconnected UDP socket (no packet is sent).
/// `None` when the machine has no network but loopback.
pub fn lan_address() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    // A documentation address (TEST-NET-1, RFC 5737): only the route to it is looked up.
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_serve_error_has_chinese() {
        let addr: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let errors = [
            ServeError::Bind {
                addr,
                error: std::io::ErrorKind::AddrInUse.into(),
            },
            ServeError::Runtime(std::io::ErrorKind::Other.into()),
        ];
        for e in &errors {
            let (zh, en) = (e.localize(Lang::Zh), e.localize(Lang::En));
            assert_ne!(zh, en);
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{zh}"
            );
        }
        assert!(errors[0].to_string().contains("127.0.0.1:8080"));
    }

    #[test]
    fn the_qr_codes_hold_the_address() {
        let terminal = terminal_qr("http://192.168.1.20:8080/");
        assert!(terminal.lines().count() > 10 && terminal.contains('█'));
        let svg = svg_qr("http://192.168.1.20:8080/");
        assert!(svg.starts_with("<?xml") && svg.contains("<svg"));
    }
}
