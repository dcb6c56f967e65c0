//! `qiwang serve [--port N] [--lan [--address IP]] [--token TABLES]… [--client-rate N]
//! [--client-live N] [--tls-cert FILE --tls-key FILE]`: prints where the
//! event's pages are (with `--lan`, the address's QR code and the poster's address) and
//! the new arbiter tokens, then serves them until stopped (Ctrl-C);
//! `qiwang serve --revoke ID|all` revokes tokens.

use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, Loaded, lib_error};
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::serve::tls::TlsFiles;
use qiwang::serve::tokens::{self, Tables};
use qiwang::serve::{Options, Server, lan_address, limits, terminal_qr};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The options of `qiwang serve` beyond where it listens and the tokens.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeOptions {
    /// Requests a second each device (client address) may make, in bursts of five
    /// seconds' worth; past it the device is answered 429 for a moment (0: no limit).
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_RATE)]
    pub client_rate: u32,
    /// Live-update connections each device may hold open (0: no limit).
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_LIVE)]
    pub client_live: usize,
    /// Serve HTTPS with this certificate (PEM, the chain with the server's first), for
    /// organisers who have one; without it the pages are plain HTTP (docs/serve.md).
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<std::path::PathBuf>,
    /// The certificate's private key (PEM).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<std::path::PathBuf>,
}

/// A token file that could not be written.
fn token_file_error(e: &std::io::Error, dir: &std::path::Path) -> CliError {
    let why = qiwang::i18n::io_error(e);
    let path = tokens::token_path(dir);
    CliError::from(Refusal::CannotWrite(Text::new(
        format!("无法写入口令文件 `{}`：{}", path.display(), why.zh),
        format!(
            "cannot write the token file `{}`: {}",
            path.display(),
            why.en
        ),
    )))
}

pub fn revoke(ctx: &Ctx, id: &str) -> Result<(), CliError> {
    let Loaded { store, rules, .. } = ctx.load_read()?;
    let lang = ctx.lang(&rules);
    let revoked = tokens::revoke(store.dir(), id).map_err(|e| token_file_error(&e, store.dir()))?;
    if revoked.is_empty() {
        return Err(CliError::from(Refusal::NotFound(Text::new(
            format!("没有可收回的口令 `{id}`（用过的口令也可收回；已收回的不再列出）"),
            format!(
                "no token `{id}` to revoke (a used token can be revoked; revoked ones are not listed again)"
            ),
        ))));
    }
    outln!(
        "{}{}",
        lang.pick("已收回口令：", "revoked: "),
        revoked.join(", ")
    );
    Ok(())
}

/// Issues one token per range and prints each once.
fn issue_tokens(
    dir: &std::path::Path,
    ranges: &[Option<Tables>],
    lang: qiwang::i18n::Lang,
) -> Result<(), CliError> {
    for &tables in ranges {
        let (id, token) = tokens::issue(dir, tables).map_err(|e| token_file_error(&e, dir))?;
        let range = match tables {
            Some(t) => format!("{}{}–{}", lang.pick("台号 ", "tables "), t.from, t.to),
            None => lang.pick("全部台次", "every table").to_string(),
        };
        outln!(
            "{} {id}（{range}）：{token}",
            lang.pick("裁判口令", "arbiter token")
        );
    }
    Ok(())
}

pub fn run(
    ctx: &Ctx,
    port: u16,
    lan: bool,
    address: Option<IpAddr>,
    token_tables: &[String],
    only_tokens: bool,
    more: &ServeOptions,
) -> Result<(), CliError> {
    let Loaded { store, rules, .. } = ctx.load_read()?;
    let lang = ctx.lang(&rules);
    let mut ranges = Vec::new();
    for text in token_tables {
        ranges.push(Tables::parse(text).map_err(|bad| {
            CliError::from(Refusal::OptionValue(Text::new(
                format!("`--token {bad}`：请写 `all` 或台号范围，如 `1-20`"),
                format!("`--token {bad}`: give `all` or a range of tables such as `1-20`"),
            )))
        })?);
    }
    let listen_ip = if lan {
        IpAddr::V4(Ipv4Addr::UNSPECIFIED)
    } else {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    };
    if only_tokens {
        // For a server already running: it reads the token file at every login.
        return issue_tokens(store.dir(), &ranges, lang);
    }
    let mut options = Options::new(SocketAddr::new(listen_ip, port), String::new());
    options.lang = ctx.lang;
    options.client_rate = more.client_rate;
    // An event file the pages cannot read is named in full here, relative on the pages.
    options.note = crate::cli::emit_err;
    options.client_live = more.client_live;
    if let (Some(cert), Some(key)) = (&more.tls_cert, &more.tls_key) {
        options.tls = Some(TlsFiles {
            cert: cert.clone(),
            key: key.clone(),
        });
    }
    let store_dir = &store.dir().to_path_buf();
    let server = Server::bind(store.clone(), options.clone()).map_err(lib_error)?;
    let bound = server.local_addr().map_err(lib_error)?;
    let shown_ip = match (lan, address) {
        (true, Some(ip)) => Some(ip),
        (true, None) => lan_address(),
        (false, _) => Some(IpAddr::V4(Ipv4Addr::LOCALHOST)),
    };
    let scheme = if server.is_https() { "https" } else { "http" };
    let url = match shown_ip {
        Some(IpAddr::V6(ip)) => format!("{scheme}://[{ip}]:{}/", bound.port()),
        Some(ip) => format!("{scheme}://{ip}:{}/", bound.port()),
        None => format!("{scheme}://127.0.0.1:{}/", bound.port()),
    };
    options.public_url = url.clone();
    outln!("{}{url}", lang.pick("赛事网页：", "the event's pages: "));
    if lan {
        if shown_ip.is_none() {
            outln!(
                "{}",
                lang.pick(
                    "注意：没有找到本机在网络上的地址；请连接场地网络，或用 `--address IP` 指明",
                    "note: this machine has no address on a network; join the hall network, or give it with `--address IP`",
                )
            );
        }
        outln!("{}", terminal_qr(&url));
        outln!(
            "{}{url}poster.html",
            lang.pick("可打印的 A4 海报：", "printable A4 poster: ")
        );
    } else {
        outln!(
            "{}",
            lang.pick(
                "只有本机可以访问；要让场地里的手机访问，请加上 `--lan`",
                "only this machine can open them; add `--lan` for the phones in the hall",
            )
        );
    }
    outln!("{}{url}screen", lang.pick("大屏幕：", "hall screen: "));
    issue_tokens(store_dir, &ranges, lang)?;
    if !token_tables.is_empty() {
        outln!(
            "{}{url}arbiter/{}",
            lang.pick("裁判录入：", "result entry: "),
            lang.pick(
                "（每个口令只能登录一次；收回：qiwang serve --revoke 编号）",
                " (each token logs in once; revoke: qiwang serve --revoke ID)"
            )
        );
    }
    outln!("{}", lang.pick("按 Ctrl-C 停止。", "Press Ctrl-C to stop."));
    // The options as announced (the poster shows the address).
    let server = server.with_options(options);
    server.run().map_err(lib_error)
}
