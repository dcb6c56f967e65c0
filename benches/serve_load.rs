//! Load benchmark of `qiwang serve` on this machine, over loopback only: a 3,000-player
//! event (six pools of 500, two rounds paired, round 1 played), 2,000 live connections
//! held open (`/events`), and an open-loop load of public page requests at a fixed rate,
//! with latency percentiles measured from each request's scheduled time (so a stalled
//! server cannot hide its queue).
//!
//! Run with `cargo bench --bench serve_load` (defaults: 1,000 requests/s for 10 s, 2,000
//! live connections, 3,000 players) or `cargo bench --bench serve_load -- RATE SECONDS
//! LIVE PLAYERS`. The request mix is what phones in a hall ask for: a find-my-table search
//! (40 %), a pool's current round (30 %), a pool's standings (15 %), the index (10 %), the
//! find page itself (5 %). Bounded: the load stops after SECONDS, every read has a
//! timeout, and the server is ended at the end.
//!
//! The server runs with its default limits per client address (`--client-rate`,
//! `--client-live`), as in a hall, and the load comes as from many phones: each sender
//! connects from its own loopback address (127.1.x.y), at most 5 requests a second each
//! (so RATE / 5 senders, at least 64), and the live connections from 127.2.x.y, five per
//! address. A response other than 200 stops the benchmark, so a run also shows that the
//! limits refuse no ordinary phone's traffic.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_qiwang");
const POOLS: usize = 6;

fn qiwang(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(BIN)
        .args(["--lang", "en"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("qiwang runs");
    assert!(
        out.status.success(),
        "qiwang {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A name of two or three characters, distinct for each `i` below 3,000.
fn name(i: usize) -> String {
    const SURNAMES: &[char] = &[
        '王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡',
    ];
    const GIVEN: &[char] = &[
        '伟', '芳', '娜', '敏', '静', '强', '磊', '军', '洋', '勇', '艳', '杰', '涛', '明', '超',
        '秀', '霞', '平', '刚', '桂',
    ];
    let s = SURNAMES[i % SURNAMES.len()];
    let a = GIVEN[(i / SURNAMES.len()) % GIVEN.len()];
    let b = GIVEN[(i / (SURNAMES.len() * GIVEN.len())) % GIVEN.len()];
    format!("{s}{a}{b}")
}

/// The event: rulebook with [`POOLS`] pools, `players` registrations, round 1 paired and
/// played (red wins on odd tables, draws on even ones), round 2 paired.
fn event(dir: &Path, players: usize) -> std::path::PathBuf {
    let cxa =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/cxa-2011.toml"))
            .unwrap();
    let mut rules = String::new();
    let mut skipping = false;
    for line in cxa.lines() {
        if line == "[[groups]]" {
            skipping = true;
            continue;
        }
        if skipping && line.starts_with('[') {
            skipping = false;
            for g in 1..=POOLS {
                rules.push_str(&format!(
                    "[[groups]]\nid = \"g{g}\"\nname = \"第{g}组\"\n\n"
                ));
            }
        }
        if !skipping {
            rules.push_str(line);
            rules.push('\n');
        }
    }
    std::fs::write(dir.join("rules.toml"), rules).unwrap();
    let mut csv = String::from("姓名,性别,单位,组别\n");
    for i in 0..players {
        csv.push_str(&format!(
            "{},男,第{}俱乐部,g{}\n",
            name(i),
            i % 97,
            1 + i % POOLS
        ));
    }
    std::fs::write(dir.join("players.csv"), csv).unwrap();
    qiwang(dir, &["init", "ev", "--rules", "rules.toml"]);
    qiwang(dir, &["--event", "ev", "import", "players.csv"]);
    for g in 1..=POOLS {
        let group = format!("g{g}");
        qiwang(
            dir,
            &["--event", "ev", "pair", "--group", &group, "--seed", "1"],
        );
        // The hall numbers tables across pools: pool g has the g-th block of them.
        let tables = players / POOLS / 2;
        let first = (g - 1) * tables + 1;
        let mut args = vec![
            "--event".to_string(),
            "ev".into(),
            "result".into(),
            "--group".into(),
            group.clone(),
        ];
        for t in first..first + tables {
            args.push(t.to_string());
            args.push(if t % 2 == 1 { "r" } else { "=" }.into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        qiwang(dir, &args);
        qiwang(dir, &["--event", "ev", "pair", "--group", &group]);
    }
    dir.join("ev")
}

struct Server(Child, SocketAddr);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(ev: &Path) -> Server {
    let mut child = Command::new(BIN)
        .args(["--lang", "en", "--event"])
        .arg(ev)
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let port: u16 = line
        .trim()
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    std::thread::spawn(move || {
        let mut rest = Vec::new();
        let _ = out.read_to_end(&mut rest);
    });
    Server(child, SocketAddr::from(([127, 0, 0, 1], port)))
}

/// One request on a kept-alive connection; the response's length.
fn get(stream: &mut TcpStream, buf: &mut Vec<u8>, path: &str) -> std::io::Result<usize> {
    write!(stream, "GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n")?;
    buf.clear();
    let mut chunk = [0u8; 65536];
    loop {
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            assert!(head.starts_with("http/1.1 200"), "{path}: {head}");
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .expect("a length");
            while buf.len() < end + 4 + length {
                let n = stream.read(&mut chunk)?;
                if n == 0 {
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            return Ok(length);
        }
    }
}

/// A connection from the loopback address `from` (every 127.x address is this
/// machine's on Linux), as if from another device.
fn connect(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    let local = SocketAddr::from((from, 0));
    socket.bind(&local.into()).unwrap();
    socket.connect(&addr.into()).unwrap();
    let s: TcpStream = socket.into();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.set_nodelay(true).unwrap();
    s
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let rate = args.first().copied().unwrap_or(1000);
    let seconds = args.get(1).copied().unwrap_or(10);
    let live = args.get(2).copied().unwrap_or(2000);
    let players = args.get(3).copied().unwrap_or(3000);
    let tmp = std::env::temp_dir().join(format!("qiwang-serve-load-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let started = Instant::now();
    let ev = event(&tmp, players);
    eprintln!(
        "event of {players} players made in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let server = serve(&ev);
    let addr = server.1;
    // The pages of the mix, and their sizes.
    let mut probe = connect([127, 0, 0, 1], addr);
    let mut buf = Vec::new();
    let paths: Vec<(String, u32)> = (1..=POOLS)
        .flat_map(|g| {
            [
                (
                    format!(
                        "/find.html?q={}",
                        ["wl", "zw", "lj", "chen", "12", "ww"][g - 1]
                    ),
                    40,
                ),
                (format!("/g{g}/round-2.html"), 30),
                (format!("/g{g}/standings.html"), 15),
                ("/index.html".to_string(), 10),
                ("/find.html".to_string(), 5),
            ]
        })
        .collect();
    for (path, _) in paths.iter().take(5) {
        let n = get(&mut probe, &mut buf, path).unwrap();
        eprintln!("{path}: {n} bytes");
    }
    // The live connections, held open to the end.
    let mut held = Vec::with_capacity(live);
    for i in 0..live {
        let device = i / 5;
        let mut s = connect([127, 2, (device / 256) as u8, (device % 256) as u8], addr);
        write!(s, "GET /events HTTP/1.1\r\nHost: bench\r\n\r\n").unwrap();
        held.push(s);
    }
    for s in &mut held {
        let mut first = [0u8; 12];
        s.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"HTTP/1.1 200", "a live connection was refused");
    }
    eprintln!("{live} live connections open");
    // The schedule: request i at i / rate seconds, its path by weight.
    let total = rate * seconds;
    let weights: u32 = paths.iter().map(|(_, w)| w).sum();
    let schedule: Vec<String> = (0..total)
        .map(|i| {
            let mut pick = (i as u32).wrapping_mul(2_654_435_761) % weights;
            paths
                .iter()
                .find(|(_, w)| {
                    if pick < *w {
                        true
                    } else {
                        pick -= w;
                        false
                    }
                })
                .map(|(p, _)| p.clone())
                .unwrap()
        })
        .collect();
    let schedule = Arc::new(schedule);
    // Each sender is one device at most 5 requests a second.
    let workers = rate.div_ceil(5).max(64);
    let start = Instant::now() + Duration::from_millis(200);
    let handles: Vec<_> = (0..workers)
        .map(|w| {
            let schedule = schedule.clone();
            std::thread::spawn(move || {
                let mut stream = connect([127, 1, (w / 256) as u8, (w % 256) as u8], addr);
                let mut buf = Vec::new();
                let mut latencies = Vec::new();
                let mut bytes = 0usize;
                for i in (w..schedule.len()).step_by(workers) {
                    let due = start + Duration::from_secs_f64(i as f64 / rate as f64);
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                    bytes += get(&mut stream, &mut buf, &schedule[i]).expect("a response");
                    latencies.push(Instant::now().duration_since(due));
                }
                (latencies, bytes)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut bytes = 0;
    for h in handles {
        let (l, b) = h.join().unwrap();
        latencies.extend(l);
        bytes += b;
    }
    let elapsed = start.elapsed();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    // The live connections are still open.
    let mut still = 0;
    for s in &mut held {
        s.set_nonblocking(true).unwrap();
        let mut b = [0u8; 1];
        if !matches!(s.read(&mut b), Ok(0)) {
            still += 1;
        }
    }
    println!(
        "players {players}, live connections {live} (open at the end: {still}), target {rate} req/s for {seconds} s from {workers} client addresses"
    );
    println!(
        "sent {} requests in {:.2} s = {:.0} req/s, {:.1} MB/s of pages",
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        bytes as f64 / elapsed.as_secs_f64() / 1e6
    );
    println!(
        "latency from the scheduled time: p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        at(0.50).as_secs_f64() * 1e3,
        at(0.90).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3
    );
    drop(held);
    drop(server);
    let _ = std::fs::remove_dir_all(&tmp);
}
