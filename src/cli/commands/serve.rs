//! `qiwang serve [--port N] [--lan [--address IP]]`: prints where the event's pages are
//! (with `--lan`, the address's QR code and the poster's address), then serves them until
//! stopped (Ctrl-C).

use crate::cli::context::{Ctx, Loaded, lib_error};
use crate::cli::error::CliError;
use qiwang::serve::{Options, Server, lan_address, terminal_qr};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

pub fn run(ctx: &Ctx, port: u16, lan: bool, address: Option<IpAddr>) -> Result<(), CliError> {
    let Loaded { store, rules, .. } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let listen_ip = if lan {
        IpAddr::V4(Ipv4Addr::UNSPECIFIED)
    } else {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    };
    let mut options = Options::new(SocketAddr::new(listen_ip, port), String::new());
    options.lang = ctx.lang;
    let server = Server::bind(store, options.clone()).map_err(lib_error)?;
    let bound = server.local_addr().map_err(lib_error)?;
    let shown_ip = match (lan, address) {
        (true, Some(ip)) => Some(ip),
        (true, None) => lan_address(),
        (false, _) => Some(IpAddr::V4(Ipv4Addr::LOCALHOST)),
    };
    let url = match shown_ip {
        Some(IpAddr::V6(ip)) => format!("http://[{ip}]:{}/", bound.port()),
        Some(ip) => format!("http://{ip}:{}/", bound.port()),
        None => format!("http://127.0.0.1:{}/", bound.port()),
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
    outln!("{}", lang.pick("按 Ctrl-C 停止。", "Press Ctrl-C to stop."));
    // The options as announced (the poster shows the address).
    let server = server.with_options(options);
    server.run().map_err(lib_error)
}
