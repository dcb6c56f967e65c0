//! Pairing benchmark: round 6 of 9 for 100 … 10,000 players, wall time and peak memory.
//!
//! Run with `cargo bench --bench pairing` (optionally followed by `-- 100 1000` to pick
//! sizes). Targets: 1,000 players under 1 s, 10,000 under 10 s, memory under 1 GB.
//! Sizes run smallest first in one process, so each VmHWM is the peak so far.

use qiwang::pairing::simulate::synthetic_mid_event;
use qiwang::pairing::{check_round, pair_next_round};
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

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if args.is_empty() {
        vec![100, 300, 1_000, 3_000, 10_000]
    } else {
        args
    };
    println!("players  setup_s  pair_s  cpu_s  tables  floats  peak_MiB  check");
    for n in sizes {
        let t0 = Instant::now();
        let sim = synthetic_mid_event(n, 5, 9, 2026);
        let setup = t0.elapsed().as_secs_f64();
        let c1 = cpu_seconds();
        let t1 = Instant::now();
        let plan = pair_next_round(&sim.event, &sim.rules, &sim.group, 6)
            .unwrap_or_else(|e| panic!("{n} players: {e}"));
        let secs = t1.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - c1;
        let peak = vm_hwm_kib().map_or(0.0, |k| k as f64 / 1024.0);
        let violations = check_round(&sim.event, &sim.rules, &sim.group, &plan.round).len();
        println!(
            "{n:>7}  {setup:>7.2}  {secs:>6.3}  {cpu:>5.2}  {:>6}  {:>6}  {peak:>8.1}  {}",
            plan.round.pairings.len(),
            plan.explanation.floats.len(),
            if violations == 0 {
                "ok".to_string()
            } else {
                format!("{violations} violations")
            }
        );
    }
}
