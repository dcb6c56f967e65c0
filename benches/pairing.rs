//! Pairing benchmark: every round 1–9 of a 9-round event for 1,000 … 100,000 players,
//! wall time, CPU time and peak memory of the pairing itself.
//!
//! Run with `cargo bench --bench pairing` (all sizes: 1,000, 10,000, 30,000, 100,000) or
//! pick sizes and rounds: `cargo bench --bench pairing -- 1000 10000 --rounds 1-3`.
//! Every (size, round) runs in its own child process, so each VmHWM is that round's own
//! peak (state building included). The state before round r is round 1 by the engine
//! and r − 2 rounds paired greedily down the standings with random results
//! (`synthetic_mid_event`), so round 2 sees half the field on one score. Each row is
//! checked (`check ok`: no hard rule broken).

use qiwang::pairing::simulate::synthetic_mid_event;
use qiwang::pairing::{check_round, pair_next_round};
use std::process::Command;
use std::time::Instant;

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
    println!(
        "{n:>7}  {round:>5}  {setup:>7.2}  {secs:>7.3}  {cpu:>6.2}  {:>6}  {:>6}  {peak:>8.1}  {}",
        plan.round.pairings.len(),
        plan.explanation.floats.len(),
        if violations == 0 {
            "ok".to_string()
        } else {
            format!("{violations} violations")
        }
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
    println!("players  round  setup_s   pair_s   cpu_s  tables  floats  peak_MiB  check");
    for n in sizes {
        for r in rounds.clone() {
            let out = Command::new(&me)
                .args(["--child", &n.to_string(), &r.to_string()])
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
