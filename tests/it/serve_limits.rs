//! The limits per client address of `qiwang serve` over loopback: a client looping
//! requests is answered 429 past its burst while another address is served at once, and
//! live connections are capped per address. The second client connects from 127.0.0.2
//! (every 127.x address is this machine's loopback on Linux). Bounded loops only.

use crate::serve::{Response, Served, assert_secure, paired_event, request_over};
use std::io::{BufRead, BufReader, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::Duration;

/// A connection to `addr` from the loopback address `from`.
fn connect_from(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    let local = SocketAddr::new(IpAddr::from(from), 0);
    socket.bind(&local.into()).expect("bind a loopback address");
    socket.connect(&addr.into()).expect("connect to the server");
    socket.into()
}

fn get_from(from: [u8; 4], addr: SocketAddr, path: &str) -> Response {
    request_over(connect_from(from, addr), addr, "GET", path, &[], "")
}

const A: [u8; 4] = [127, 0, 0, 1];
const B: [u8; 4] = [127, 0, 0, 2];

#[test]
fn a_client_looping_requests_is_refused_past_its_burst_and_others_are_served() {
    let (_tmp, ev) = paired_event("赵六");
    // One request a second: a burst of 5, then one a second.
    let served = Served::start(&ev, &["--client-rate", "1", "--client-live", "0"]);
    let addr = served.addr;
    let mut statuses = Vec::new();
    let mut refusal = None;
    // Bounded: 40 requests as fast as the loop goes (all of them would be answered only
    // if the loop took more than 35 seconds).
    for _ in 0..40 {
        let r = get_from(A, addr, "/index.html");
        statuses.push(r.status);
        if r.status == 429 && refusal.is_none() {
            refusal = Some(r);
        }
    }
    let ok = statuses.iter().filter(|&&s| s == 200).count();
    assert!(ok >= 5, "the burst is served: {statuses:?}");
    assert!(
        statuses.iter().all(|&s| s == 200 || s == 429),
        "{statuses:?}"
    );
    let refusal = refusal.unwrap_or_else(|| panic!("never refused: {statuses:?}"));
    assert_eq!(refusal.header("retry-after"), Some("1"));
    assert_secure(&refusal, "429");
    assert!(refusal.body.contains("请求太频繁"), "{}", refusal.body);
    // Another device is served at once, the looping one still refused.
    assert_eq!(get_from(B, addr, "/index.html").status, 200);
    assert_eq!(get_from(B, addr, "/find.html?q=zs").status, 200);
    assert_eq!(get_from(A, addr, "/index.html").status, 429);
}

/// Opens `/events` from `from`: the status line's code, and the connection (kept open).
fn open_live(from: [u8; 4], addr: SocketAddr) -> (u16, BufReader<TcpStream>) {
    let mut stream = connect_from(from, addr);
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(stream, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, reader)
}

#[test]
fn live_connections_are_capped_per_client() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &["--client-rate", "0", "--client-live", "2"]);
    let addr = served.addr;
    let (first, _keep1) = open_live(A, addr);
    let (second, _keep2) = open_live(A, addr);
    assert_eq!((first, second), (200, 200));
    let (third, _) = open_live(A, addr);
    assert_eq!(third, 429, "a third live connection from one client");
    let (other, _keep3) = open_live(B, addr);
    assert_eq!(other, 200, "another client's");
    // Pages are still served to the client at its cap.
    assert_eq!(get_from(A, addr, "/index.html").status, 200);
}
