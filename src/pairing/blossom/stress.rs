//! The solver's randomized stress test and the fault's regression inputs: fields shaped
//! like a pairing's, priced to their optimum as the engine prices (solve, add the pairs
//! the duals price negative, solve on) from every kind of start and adding pairs in every
//! way, with every pass certified and every invariant checked after every step.

use super::test_support::{edges_within, score, slow_tests};
use super::{Optimum, PerfectMatcher, max_weight_perfect_matching_dual};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A field shaped like a pairing's: players in pairing order, each with a score group
/// (groups in descending order) and a colour due (0, 1 or 2 for none), some pairs
/// barred, and the pair `(u, v)` weighing minus its packed cost: the squared score
/// difference on the top level, a shared colour due on the middle one, the squared
/// distance in pairing order below (levels `shift` and `shift / 2` bits apart).
struct StressField {
    seed: u64,
    n: usize,
    shift: u32,
    group: Vec<i128>,
    due: Vec<u8>,
    barred: std::collections::BTreeSet<(usize, usize)>,
    /// The first candidate pairs: each `(2k, 2k + 1)` (never barred, so a perfect
    /// pairing always exists) and each player's `near` next legal players.
    near: usize,
}

impl StressField {
    /// The field of `seed` (the draws of the outside harness that found the fault,
    /// in the same order, so its seeds name the same fields).
    fn new(seed: u64) -> StressField {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n: usize = 2 * rng.gen_range(20..120);
        let shift = [20, 60, 90][(seed % 3) as usize];
        let groups: i128 = rng.gen_range(2..8);
        let mut group: Vec<i128> = (0..n).map(|_| rng.gen_range(0..groups)).collect();
        group.sort_unstable_by(|a, b| b.cmp(a));
        let due: Vec<u8> = (0..n).map(|_| rng.gen_range(0..3)).collect();
        let p = rng.gen_range(0.0..0.3);
        let mut barred = std::collections::BTreeSet::new();
        for u in 0..n {
            for v in u + 1..n {
                if (v != u + 1 || u % 2 == 1) && rng.gen_bool(p) {
                    barred.insert((u, v));
                }
            }
        }
        let near: usize = rng.gen_range(1..4);
        StressField {
            seed,
            n,
            shift,
            group,
            due,
            barred,
            near,
        }
    }

    fn legal(&self, u: usize, v: usize) -> bool {
        u != v && !self.barred.contains(&(u.min(v), u.max(v)))
    }

    fn weight(&self, u: usize, v: usize) -> i128 {
        let d = self.group[u] - self.group[v];
        let miss = i128::from(self.due[u] == self.due[v] && self.due[u] != 2);
        let order = (u as i128 - v as i128).pow(2);
        -((d * d) << self.shift) - (miss << (self.shift / 2)) - order
    }

    /// The first candidate pairs, lower player first.
    fn candidates(&self) -> Vec<(usize, usize, i128)> {
        let mut seen = std::collections::BTreeSet::new();
        let pairs = (0..self.n / 2)
            .map(|k| (2 * k, 2 * k + 1))
            .chain((0..self.n).flat_map(|u| {
                (u + 1..self.n)
                    .filter(move |&v| self.legal(u, v))
                    .take(self.near)
                    .map(move |v| (u, v))
            }));
        pairs
            .filter(|&pair| seen.insert(pair))
            .map(|(u, v)| (u, v, self.weight(u, v)))
            .collect()
    }

    /// The legal pairs not in `have` that `opt`'s duals price negative.
    fn improving(
        &self,
        opt: &Optimum<i128>,
        have: &std::collections::BTreeSet<(usize, usize)>,
    ) -> Vec<(usize, usize, i128)> {
        let mut found = Vec::new();
        for u in 0..self.n {
            for v in u + 1..self.n {
                if self.legal(u, v) && !have.contains(&(u, v)) {
                    let w = self.weight(u, v);
                    if opt.slack(u, v, w) < 0 {
                        found.push((u, v, w));
                    }
                }
            }
        }
        found
    }

    /// A solver over `edges` started as `start` says (checked valid).
    fn start(&self, start: Start, edges: &[(usize, usize, i128)]) -> PerfectMatcher<i128> {
        let n = self.n;
        let solver = match start {
            Start::Cold => PerfectMatcher::cold(n, edges),
            Start::Warm => {
                // From the optimum of the pairs `(2k, 2k + 1)` alone.
                let pairs: Vec<_> = edges
                    .iter()
                    .copied()
                    .filter(|e| e.1 == e.0 + 1 && e.0 % 2 == 0)
                    .collect();
                let opt = max_weight_perfect_matching_dual(n, &pairs).expect("pairs everyone");
                PerfectMatcher::warm(n, edges, &opt.warm_duals(), &opt.mate)
            }
            Start::Join => {
                // Two halves of even size solved apart, blossoms kept.
                let cut = n / 4 * 2;
                let parts = [(0, cut), (cut, n)]
                    .into_iter()
                    .map(|(lo, hi)| {
                        let mut part = PerfectMatcher::cold(hi - lo, &edges_within(edges, lo, hi));
                        part.solve().expect("the pairs (2k, 2k + 1) pair everyone");
                        (lo, part.snapshot(hi - lo))
                    })
                    .collect();
                PerfectMatcher::join(n, edges, parts)
                    .unwrap_or_else(|| PerfectMatcher::cold(n, edges))
            }
        };
        solver.m.assert_invariants();
        solver
    }

    /// Prices to the optimum over every legal pair as the engine does (solve, add
    /// the pairs the duals price negative, solve on), starting as `start` says and
    /// adding as `adding` says, with every invariant checked after every start, every
    /// addition, every solve and every dual step, and every pass certified. The
    /// passes it took, or the first fault found.
    fn price(&self, start: Start, adding: Adding) -> Result<usize, String> {
        let what = |pass: usize| format!("seed {} ({start:?}, {adding:?}) pass {pass}", self.seed);
        let n = self.n;
        let mut edges = self.candidates();
        let mut have: std::collections::BTreeSet<_> = edges.iter().map(|e| (e.0, e.1)).collect();
        let mut solver = self.start(start, &edges);
        // The simple reference update, run beside the per-edge repair.
        let mut reference = (adding == Adding::Compared).then(|| self.start(start, &edges));
        for pass in 0..500 {
            let opt = solver.solve_partial();
            solver.m.assert_invariants();
            if !opt.perfect() {
                return Err(format!("{}: not perfect", what(pass)));
            }
            opt.certify(&edges)
                .map_err(|e| format!("{}: {e}", what(pass)))?;
            if let Some(reference) = &mut reference {
                let other = reference
                    .solve()
                    .ok_or_else(|| format!("{}: the reference is not perfect", what(pass)))?;
                reference.m.assert_invariants();
                other
                    .certify(&edges)
                    .map_err(|e| format!("{}: reference: {e}", what(pass)))?;
                if score(&other.mate, &edges).1 != score(&opt.mate, &edges).1 {
                    return Err(format!(
                        "{}: the reference's optimum weighs otherwise",
                        what(pass)
                    ));
                }
            }
            let found = self.improving(&opt, &have);
            if found.is_empty() {
                return Ok(pass);
            }
            have.extend(found.iter().map(|e| (e.0, e.1)));
            edges.extend_from_slice(&found);
            let kept = match adding {
                Adding::Batch => solver.add_edges(&found),
                Adding::OneByOne => found
                    .iter()
                    .all(|e| solver.add_edges(std::slice::from_ref(e))),
                Adding::Restart => false,
                Adding::Compared => {
                    let reference = reference.as_mut().expect("compared");
                    if !reference.add_edges_simply(&found) {
                        *reference = PerfectMatcher::warm(n, &edges, &opt.warm_duals(), &opt.mate);
                    }
                    reference.m.assert_invariants();
                    solver.add_edges(&found)
                }
            };
            if !kept {
                // Too few bits to double (or a restart by choice): from this optimum.
                solver = PerfectMatcher::warm(n, &edges, &opt.warm_duals(), &opt.mate);
            }
            solver.m.assert_invariants();
        }
        Err(format!("{}: no optimum after 500 passes", what(500)))
    }
}

/// How a stress run starts its solver.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Start {
    Cold,
    /// [`PerfectMatcher::warm`] from an optimum over fewer edges.
    Warm,
    /// [`PerfectMatcher::join`] of two halves solved apart.
    Join,
}

/// How a stress run gives its solver the pairs each pass finds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Adding {
    /// All at once ([`PerfectMatcher::add_edges`]), as the engine does.
    Batch,
    /// One `add_edges` call per pair.
    OneByOne,
    /// A warm restart from each pass's optimum instead.
    Restart,
    /// All at once, and to a second solver by the simple reference update
    /// (`add_edges_simply`), whose every optimum must weigh the same.
    Compared,
}

/// Every fault found stays an input. The fields of seeds 578, 1509, 3566 and 5950 (as
/// `StressField::new` draws them) made the warm continuation after `add_edges` end at
/// a matching its certificate refused, an edge of negative slack after the first
/// batch; 1509 and 5950 did so added one pair at a time too. `retire` had left a
/// stale best edge on a vertex inside a T-blossom (invariant 9), which these runs now
/// check after every dual step. Found by an outside stress harness in seeds 0..8,000.
fn fault_input(seed: u64, adding: Adding) {
    StressField::new(seed).price(Start::Cold, adding).unwrap();
}

#[test]
fn regression_stale_best_edge_seed_578() {
    fault_input(578, Adding::Batch);
}

#[test]
fn regression_stale_best_edge_seed_1509() {
    fault_input(1509, Adding::Batch);
}

#[test]
fn regression_stale_best_edge_seed_1509_one_by_one() {
    fault_input(1509, Adding::OneByOne);
}

#[test]
fn regression_stale_best_edge_seed_3566() {
    fault_input(3566, Adding::Batch);
}

#[test]
fn regression_stale_best_edge_seed_5950() {
    fault_input(5950, Adding::Batch);
}

#[test]
fn regression_stale_best_edge_seed_5950_one_by_one() {
    fault_input(5950, Adding::OneByOne);
}

/// The per-edge repair and the simple reference update reach optima of one weight,
/// each certified, on fields that found the fault.
#[test]
fn repair_and_reference_agree_on_fault_inputs() {
    for seed in [578, 1509] {
        StressField::new(seed)
            .price(Start::Cold, Adding::Compared)
            .unwrap();
    }
}

/// Random fields priced to their optimum, every pass certified and every invariant
/// checked after every step (`StressField::price`): the even seeds as the engine
/// prices (a cold start, pairs added in batches), the odd ones from a start and
/// adding pairs in a way drawn at random. Plain `cargo test` runs one seed of each
/// other way; `QIWANG_SLOW_TESTS=1 cargo test` seeds 0..2,000, in two tests so both cores
/// run them (about 155 s on the 2-core machine, a debug build): too long for `.ci/run`'s
/// 6-minute budget, so CI leaves them out and they are run by hand before a release.
fn stress(seeds: std::ops::Range<u64>) {
    let starts = [Start::Cold, Start::Warm, Start::Join];
    let addings = [
        Adding::Batch,
        Adding::OneByOne,
        Adding::Restart,
        Adding::Compared,
    ];
    let mut pick = ChaCha8Rng::seed_from_u64(seeds.start);
    let failures: Vec<String> = seeds
        .filter_map(|seed| {
            let way = if seed % 2 == 0 {
                (Start::Cold, Adding::Batch)
            } else {
                (starts[pick.gen_range(0..3)], addings[pick.gen_range(0..4)])
            };
            StressField::new(seed).price(way.0, way.1).err()
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn pricing_stress_keeps_every_invariant() {
    if slow_tests() {
        stress(0..1_000);
    } else {
        // One seed of each other way: the starts and addings sampled.
        let ways = [
            (Start::Warm, Adding::OneByOne),
            (Start::Join, Adding::Restart),
            (Start::Cold, Adding::Compared),
            (Start::Join, Adding::Batch),
        ];
        for (seed, (start, adding)) in (20_000..).zip(ways) {
            StressField::new(seed).price(start, adding).unwrap();
        }
    }
}

#[test]
fn pricing_stress_keeps_every_invariant_more_seeds() {
    if slow_tests() {
        stress(1_000..2_000);
    }
}
