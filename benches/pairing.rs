//! Pairing benchmark: every round 1–9 of a 9-round event for 1,000 … 100,000 players,
//! wall time, CPU time and peak memory of the pairing itself.
//!
//! Run with `cargo bench --bench pairing` (all sizes: 1,000, 10,000, 30,000, 100,000) or
//! pick sizes and rounds: `cargo bench --bench pairing -- 1000 10000 --rounds 1-3`;
//! `cargo bench --bench pairing -- --chain 100000` plays one event with every round paired
//! by the engine instead (see `chain`); `--chain 10000 --teams 1` does so with the players
//! spread over that many units (a fifth play as 个人) and team-mates kept apart in every
//! round, so that with one unit no round can keep them apart and every round is relaxed;
//! `--chain 100000 --fold` pairs each score group in fold order (`fold_top_bottom`).
//! Every (size, round) runs in its own child process, so each VmHWM is that round's own
//! peak (state building included). The state before round r is round 1 by the engine
//! and r − 2 rounds paired greedily down the standings with random results
//! (`synthetic_mid_event`), so round 2 sees half the field on one score. Each row is
//! checked (`check ok`: no hard rule broken). `refused` counts the solves whose optimum
//! failed its own certificate and was solved again (`pairing::testing::refused_solves`; the target is
//! none; in `--chain` mode a running total over the event).
//!
//! Side by side: when bbpPairings (built from the public BieremaBoyzProgramming/bbpPairings
//! source with `make`; never part of this repository) is named by `QIWANG_BBP` or found
//! on `PATH` as `bbpPairings` or `bbpPairings.exe`, each child also exports the same state
//! as TRF (`qiwang export --format trf`'s writer, plus `XXR 9` for the event's length and `XXC white1` for round 1's colours) and
//! times `bbpPairings --dutch FILE -p` on it (`--burstein` when the arguments include `burstein`), with its
//! peak memory from `/usr/bin/time`, stopped after `QIWANG_BBP_TIMEOUT` seconds (600).

/// The allocator of the `qiwang` binary, so the figures are those of `qiwang pair`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use qiwang::pairing::testing::{refused_solves, synthetic_mid_event};
use qiwang::pairing::{check_round, pair_next_round};
use qiwang::report::trf::trf;
use qiwang::standings::compute_standings;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The bbpPairings binary to compare with, if any: `QIWANG_BBP`, else `PATH`.
fn bbp_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("QIWANG_BBP") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["bbpPairings", "bbpPairings.exe"].map(|name| dir.join(name)))
        .find(|p| p.is_file())
}

/// bbpPairings on `trf_text`: "wall_s peak_MiB", "timeout" or why it failed.
fn run_bbp(bbp: &Path, system: &str, trf_text: &str, tag: &str) -> String {
    let dir = std::env::temp_dir().join(format!("qiwang-bench-bbp-{}-{tag}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let input = dir.join("in.trf");
    if std::fs::write(&input, format!("{trf_text}XXR 9\nXXC white1\n")).is_err() {
        return "cannot write TRF".into();
    }
    let limit = std::env::var("QIWANG_BBP_TIMEOUT").unwrap_or_else(|_| "600".into());
    let out = Command::new("timeout")
        .arg(&limit)
        .args(["/usr/bin/time", "-f", "%e %M"])
        .arg(bbp)
        .arg(format!("--{system}"))
        .arg(&input)
        .arg("-p")
        .arg(dir.join("out.txt"))
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    let Ok(out) = out else {
        return "cannot run timeout/time".into();
    };
    if out.status.code() == Some(124) {
        return format!("timeout >{limit} s");
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().last().unwrap_or("");
    match last.split_once(' ') {
        Some((wall, kib)) if out.status.success() => {
            let mib = kib.parse::<f64>().map_or(0.0, |k| k / 1024.0);
            format!("{wall:>7}  {mib:>7.1}")
        }
        _ => format!("failed: {}", err.trim().replace('\n', " / ")),
    }
}

fn vm_hwm_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// CPU seconds used by this process so far (user + system), from /proc/self/stat; the
/// machine is shared, so wall time alone overstates the engine's cost under load.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |x| x.1);
    let f: Vec<i64> = rest
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    // `rest` starts at field 3 (state, not numeric, filtered out), so field k is f[k - 4].
    match (f.get(10), f.get(11)) {
        (Some(u), Some(s)) => (u + s) as f64 / 100.0,
        _ => 0.0,
    }
}

/// One (size, round) measurement, printed as a table row.
fn child(n: usize, round: u32) {
    let t0 = Instant::now();
    let sim = synthetic_mid_event(n, round - 1, 9, 2026);
    let setup = t0.elapsed().as_secs_f64();
    let c1 = cpu_seconds();
    let t1 = Instant::now();
    let plan = pair_next_round(&sim.event, &sim.rules, &sim.group, u64::from(round))
        .unwrap_or_else(|e| panic!("{n} players, round {round}: {e}"));
    let secs = t1.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - c1;
    let peak = vm_hwm_kib().map_or(0.0, |k| k as f64 / 1024.0);
    let violations = check_round(&sim.event, &sim.rules, &sim.group, &plan.round).len();
    // The same state, before qiwang's pairing, for bbpPairings.
    let bbp = bbp_binary().map_or_else(String::new, |bbp| {
        let system = if std::env::args().any(|a| a == "burstein") {
            "burstein"
        } else {
            "dutch"
        };
        let standings = compute_standings(&sim.event, &sim.rules, &sim.group, None);
        match trf(&sim.event, &sim.rules, &sim.group, &standings) {
            Ok(text) => run_bbp(&bbp, system, &text, &format!("{n}-{round}")),
            Err(e) => format!("no TRF: {e}"),
        }
    });
    println!(
        "{n:>7}  {round:>5}  {setup:>7.2}  {secs:>7.3}  {cpu:>6.2}  {:>6}  {:>6}  {peak:>8.1}  {:<5}  {:>7}  {bbp}",
        plan.round.pairings.len(),
        plan.explanation.floats.len(),
        if violations == 0 {
            "ok".to_string()
        } else {
            format!("{violations} violations")
        },
        refused_solves()
    );
}

/// `--chain N`: every round of one N-player event paired by the engine itself, each after
/// random results of the last (no withdrawals): the states a real event reaches, where
/// [`child`] builds its states greedily. One process: CPU seconds run from the previous
/// line (recording that round's results is a few hundredths of them) and peak memory is
/// reset after each line (`/proc/self/clear_refs`, Linux; elsewhere the peak so far).
/// Rounds are not checked here. `teams`: spread the players over that many units, with
/// team avoidance in every round. `fold`: fold order within score groups.
fn chain(n: usize, teams: Option<usize>, fold: bool, save: Option<&str>) {
    let cfg = chain_config(n, teams, fold);
    println!(
        "players  round   pair_s   cpu_s  peak_MiB  refused  (--chain: every round paired by the engine)"
    );
    let mut cpu0 = cpu_seconds();
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    qiwang::pairing::testing::play_random_event_watched(
        &cfg,
        2026,
        qiwang::pairing::Solver::Priced,
        &mut |paired| {
            let (r, took) = (paired.round, paired.took);
            if let Some(dir) = save {
                let path = format!("{dir}/{n}-round{r}.json");
                let json = serde_json::to_vec(paired.before).expect("the event as JSON");
                std::fs::write(&path, json).unwrap_or_else(|e| panic!("{path}: {e}"));
            }
            let cpu = cpu_seconds() - cpu0;
            let peak = vm_hwm_kib().map_or(0.0, |k| k as f64 / 1024.0);
            println!(
                "{n:>7}  {r:>5}  {:>7.3}  {cpu:>6.2}  {peak:>8.1}  {:>7}",
                took.as_secs_f64(),
                refused_solves()
            );
            let _ = std::fs::write("/proc/self/clear_refs", "5");
            cpu0 = cpu_seconds();
        },
    );
}

/// The simulated event `--chain` plays (and `--replay` pairs a round of again).
fn chain_config(n: usize, teams: Option<usize>, fold: bool) -> qiwang::pairing::testing::SimConfig {
    let mut cfg = qiwang::pairing::testing::SimConfig::new(n, 9);
    cfg.withdraw_permille = 0;
    if fold {
        cfg.rules.pairing.within_group = qiwang::rulebook::WithinGroup::FoldTopBottom;
    }
    if let Some(t) = teams {
        cfg.teams = t;
        cfg.rules.pairing.team_avoidance = qiwang::rulebook::TeamAvoidance::AllRounds;
    }
    cfg
}

/// `--replay FILE R`: pairs round R again from the event `--chain … --save DIR` wrote
/// just before it (the same rules options as that chain must be given), so one slow
/// round can be measured alone, again and again.
fn replay(path: &str, round: u32, teams: Option<usize>, fold: bool) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let event: qiwang::model::Event = serde_json::from_slice(&bytes).expect("an event");
    let cfg = chain_config(event.players.len(), teams, fold);
    let group = event.groups.keys().next().expect("one group").clone();
    let c0 = cpu_seconds();
    let t0 = Instant::now();
    let plan = qiwang::pairing::pair_next_round_with(
        &event,
        &cfg.rules,
        &group,
        2026 + u64::from(round),
        qiwang::pairing::Solver::Priced,
    )
    .unwrap_or_else(|e| panic!("round {round}: {e}"));
    let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    // A digest of the tables, to compare two builds' pairings of the same state.
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in format!("{:?}", plan.round.pairings).bytes() {
        digest = (digest ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    println!(
        "round {round}: {wall:.3} s, {cpu:.2} CPU-s, {} tables (digest {digest:016x}), peak {:.1} MiB, refused {}",
        plan.round.pairings.len(),
        vm_hwm_kib().map_or(0.0, |k| k as f64 / 1024.0),
        refused_solves()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(pos) = args.iter().position(|a| a == "--chain") {
        let n = args[pos + 1].parse().expect("size");
        let teams = args
            .iter()
            .position(|a| a == "--teams")
            .map(|t| args[t + 1].parse().expect("number of teams"));
        let save = args
            .iter()
            .position(|a| a == "--save")
            .map(|s| args[s + 1].as_str());
        chain(n, teams, args.iter().any(|a| a == "--fold"), save);
        return;
    }
    if let Some(pos) = args.iter().position(|a| a == "--replay") {
        let teams = args
            .iter()
            .position(|a| a == "--teams")
            .map(|t| args[t + 1].parse().expect("number of teams"));
        let r = args[pos + 2].parse().expect("round");
        replay(&args[pos + 1], r, teams, args.iter().any(|a| a == "--fold"));
        return;
    }
    if let Some(pos) = args.iter().position(|a| a == "--child") {
        let n = args[pos + 1].parse().expect("size");
        let r = args[pos + 2].parse().expect("round");
        child(n, r);
        return;
    }
    let mut rounds = 1..=9u32;
    if let Some(pos) = args.iter().position(|a| a == "--rounds")
        && let Some((a, b)) = args.get(pos + 1).and_then(|x| x.split_once('-'))
    {
        rounds = a.parse().unwrap_or(1)..=b.parse().unwrap_or(9);
    }
    let mut sizes: Vec<usize> = args
        .iter()
        .filter(|a| !a.contains('-'))
        .filter_map(|a| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        sizes = vec![1_000, 10_000, 30_000, 100_000];
    }
    let me = std::env::current_exe().expect("bench binary");
    let bbp = match bbp_binary() {
        Some(path) => format!("  bbp_s  bbp_MiB   ({})", path.display()),
        None => String::new(),
    };
    println!(
        "players  round  setup_s   pair_s   cpu_s  tables  floats  peak_MiB  check  refused{bbp}"
    );
    for n in sizes {
        for r in rounds.clone() {
            let out = Command::new(&me)
                .args(["--child", &n.to_string(), &r.to_string()])
                .args(args.iter().filter(|a| *a == "burstein"))
                .output()
                .expect("run the bench child");
            print!("{}", String::from_utf8_lossy(&out.stdout));
            if !out.status.success() {
                println!(
                    "{n:>7}  {r:>5}  failed: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
            }
        }
    }
}
