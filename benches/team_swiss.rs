//! Team Swiss benchmark (issue 46, docs/rules.md §17): a 500-team, 9-round team Swiss of
//! 4 boards (every third team with a reserve), every round paired by `teams::pair_team_round`
//! (the individual engine on the shadow event of teams, plus filling the boards), then given
//! seeded random board results. Prints each round's pairing wall time and the total, and
//! checks every round with the engine's checker.
//!
//! Run with `cargo bench --bench team_swiss` (release profile); `-- 1000 12` sets the
//! teams and rounds.

/// The allocator of the `qiwang` binary, so the figures are those of `qiwang pair`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use qiwang::model::{Event, GameResult, GroupId, Outcome, Player, PlayerId};
use qiwang::rulebook::Rulebook;
use qiwang::teams::{self, MatchEntry};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(500);
    let rounds = args.get(1).copied().unwrap_or(9);
    let boards = 4;
    let rules = Rulebook::from_toml(
        &format!(
            "[event]\nname = \"bench\"\nrounds = {rounds}\n[[groups]]\nid = \"open\"\n\
             [team_competition]\nboards = {boards}\nreserves = 1\n"
        ),
        "bench.toml",
    )
    .expect("rulebook");
    let pool = GroupId::new("open");
    let mut e = Event::new(String::new());
    let mut id = 0;
    for t in 1..=n {
        let reserves = u32::from(t % 3 == 0);
        for b in 1..=boards + reserves {
            id += 1;
            let mut p = Player::new(PlayerId(id), format!("T{t}P{b}"), pool.clone());
            p.unit = format!("Team {t}");
            p.extra.insert(
                "台次".into(),
                if b > boards {
                    "替补".into()
                } else {
                    b.to_string()
                },
            );
            e.players.push(p);
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(46);
    let mut total = 0.0;
    let mut worst: f64 = 0.0;
    println!("{n} teams × {boards} boards ({id} players), {rounds} rounds");
    for r in 1..=rounds {
        let start = Instant::now();
        let plan = teams::pair_team_round(&e, &rules, &pool, 46, None).expect("pairing");
        let secs = start.elapsed().as_secs_f64();
        total += secs;
        worst = worst.max(secs);
        plan.apply(&mut e, &pool, 46);
        let (violations, boards_wrong) = teams::check_team_pool(&e, &rules, &pool).expect("check");
        let ok = violations.is_empty() && boards_wrong.is_empty();
        println!(
            "round {r}: {:>4} matches, paired in {:.3} s, check {}",
            plan.round.matches.len(),
            secs,
            if ok { "ok" } else { "FAILED" }
        );
        let entries: Vec<MatchEntry> = plan
            .round
            .matches
            .iter()
            .map(|m| MatchEntry {
                table: m.table,
                tiebreak: false,
                absent: None,
                results: m
                    .boards
                    .iter()
                    .map(|_| {
                        GameResult::new(match rng.gen_range(0..3) {
                            0 => Outcome::RedWin,
                            1 => Outcome::Draw,
                            _ => Outcome::BlackWin,
                        })
                    })
                    .collect(),
            })
            .collect();
        teams::record_team_results(&mut e, &rules, &pool, None, &entries).expect("results");
    }
    println!("total {total:.3} s, slowest round {worst:.3} s");
}
