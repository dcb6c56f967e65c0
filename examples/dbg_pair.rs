use qiwang::pairing::simulate::{SimConfig, play_random_event};
use qiwang::pairing::{Solver, pair_next_round_with};
fn main() {
    let seed = 0u64;
    let mut cfg = SimConfig::random(seed, 12);
    cfg.late_entries = cfg.late_entries.min(12 - cfg.players.min(12));
    let sim = play_random_event(&cfg, seed);
    let g = &sim.group;
    let mut e = sim.event.clone();
    e.groups.get_mut(g).unwrap().rounds.retain(|r| r.number < 6);
    let t = qiwang::scoring::totals(&e, &sim.rules.scoring, g, 5);
    eprintln!("{:?}", t);
    for s in [Solver::Dense, Solver::Decomposed] {
        let p = pair_next_round_with(&e, &sim.rules, g, seed, s).unwrap();
        eprintln!(
            "{:?}",
            p.round
                .pairings
                .iter()
                .map(|x| x.players())
                .collect::<Vec<_>>()
        );
    }
}
