//! Maximum-weight matching in general graphs (Edmonds' blossom algorithm, O(n³)).
//!
//! Owns the matching primitive the pairing engine encodes its criteria into: hard
//! constraints are missing edges, the lexicographic criteria are integer weights, so the
//! pool is solved at once and never gets stuck where a pairing exists (docs/rules.md §2.3,
//! §2.6). It follows the primal-dual method of
//! Galil ("Efficient algorithms for finding maximum matching in graphs", 1986) in the
//! edge-list form that J. van Rantwijk's public-domain `mwmatching.py` made standard.
//! Everything is integer (weights are doubled internally so every dual stays whole) and
//! deterministic: the same edge list always gives the same matching.
//!
//! # Files
//!
//! - `matcher.rs`: the solver's state (`Matcher`) and its plain accessors: edges, duals,
//!   pairs, the handles that name each vertex's top-level blossom.
//! - `stage.rs`: Edmonds' primal-dual stages: labelling, the dual-step candidates, the
//!   dual steps.
//! - `blossoms.rs`: making, opening and augmenting through blossoms.
//! - `harvest.rs`: retiring the trees an augmentation joins while the others grow on.
//! - `restart.rs`: [`PerfectMatcher`] and its cold and warm starts.
//! - `snapshot.rs`: a solver's state taken out ([`Snapshot`]) and parts joined into one.
//! - `repair.rs`: new edges added to a solved state ([`PerfectMatcher::add_edges`]), and
//!   the simple reference update the tests compare it with.
//! - `certificate.rs`: the optimum with its duals ([`Optimum`]) and its check;
//!   `ancestors.rs`: the innermost blossom two vertices share, for its reduced costs.
//! - `invariants.rs`: the checks of the invariants below (tests and debug builds).
//! - `stress.rs`, `test_support.rs`: the randomized stress test with the fault's
//!   regression inputs, and the helpers the tests share.
//!
//! # Invariants
//!
//! The solver's state (`Matcher`) keeps these; every start ([`PerfectMatcher::cold`],
//! [`PerfectMatcher::warm`], [`PerfectMatcher::join`], [`PerfectMatcher::add_edges`])
//! establishes 1–6 and every solve keeps them. The unit tests check 1–6 after every start
//! and every solve (`Matcher::assert_invariants`) and 7–11 after every dual step
//! (`Matcher::assert_stage_invariants`).
//!
//! 1. *Pairs.* `mate` is symmetric and every pair is an edge of the graph.
//! 2. *Blossoms.* The live blossoms nest without overlapping. Each holds an odd cycle of
//!    at least three children (vertices or blossoms) joined by the edges
//!    `blossomendps` names, each child's `blossomparent` is that blossom, its base is its
//!    first child's base, its `size` counts its vertices, and `top(v)` is the outermost
//!    blossom (or `v` itself) holding `v`.
//! 3. *Feasible duals.* Every blossom's dual `z ≥ 0`, and every edge's slack counting the
//!    duals of the blossoms holding both its ends (`true_slack`) is `≥ 0`.
//! 4. *Tight structure.* Every pair and every edge of a blossom's cycle has slack 0.
//! 5. *Full blossoms.* A blossom of `2k + 1` vertices holds `k` pairs inside it; its base
//!    is paired outside it or free.
//! 6. *One parity.* Weights are held even and every free vertex's dual has one parity, so
//!    every vertex a stage labels (over tight edges) shares it, an edge between two
//!    S-vertices has an even slack, and the dual step that halves it stays whole.
//!
//! During a stage, after every dual step:
//!
//! 7. *Directions.* `dir[v]` is +1 while `top(v)` is an S-blossom, −1 while a
//!    T-blossom, 0 otherwise, so `y(v)` is `v`'s dual.
//! 8. *Feasible between blossoms.* Every edge between two top-level blossoms has slack
//!    `≥ 0` (invariant 3 for the edges the stage looks at).
//! 9. *Covered edges to the forest.* A vertex outside every S-blossom that carries no
//!    label of its own and has an edge to an S-blossom other than its own holds one of its
//!    least-slack such edges as `bestedge`; at top level that edge is listed in
//!    `to_free` at its slack (its key less `moved`), inside a T-blossom it is listed again
//!    when the blossom expands. A best edge left pointing at a vertex that has left the
//!    forest keeps a key its slack no longer follows, and the step chosen from the keys
//!    overshoots the real best edge: `Matcher::retire` broke this for vertices inside
//!    T-blossoms until it refreshed them too (docs/rules.md §2.6; the
//!    `regression_stale_best_edge_*` tests).
//! 10. *Covered edges between trees.* Every edge between two top-level S-blossoms is
//!     covered by a `between` entry of one of its ends whose key less `moved` is at most
//!     half its slack (see `Matcher::least_between`).
//! 11. *Shrinking T-blossoms.* Every top-level T-blossom is listed in `shrinking` at its
//!     dual (its key less `moved`).

mod ancestors;
mod blossoms;
mod certificate;
mod harvest;
mod invariants;
mod matcher;
mod repair;
mod restart;
mod snapshot;
mod stage;
#[cfg(test)]
mod stress;
#[cfg(test)]
mod test_support;

pub use certificate::Optimum;
pub use restart::PerfectMatcher;
pub use snapshot::{Parts, Snapshot};

use super::wide::Weight;
use matcher::Matcher;
use std::sync::atomic::{AtomicU64, Ordering};

/// "No vertex / no edge / no endpoint".
const NONE: usize = usize::MAX;

/// One entry of a vertex's edge list: the far end's endpoint index and the far vertex,
/// in 32 bits each. The solver reads these lists more than anything else; 64-bit
/// entries made the bench binary's `--child 100000 3` run 47.4 s and 644 MiB, 32-bit
/// ones 43.6 s and 602 MiB (same pairings, measured back to back).
fn packed_end(p: usize, x: usize) -> (u32, u32) {
    (narrow(p), narrow(x))
}

/// An index in 32 bits, for the solver's most-read lists.
fn narrow(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^31 edges and vertices")
}

/// Bits kept free above the largest value before the solver doubles everything: slacks
/// add four values, and blossom duals nest.
const DOUBLING_MARGIN: u32 = 4;

/// Room in `list` for `more` items, growing it by at least an eighth rather than
/// doubling it: the edge lists of a 100,000-player solve hold millions of wide weights,
/// and a doubling when a pricing pass adds a few thousand pairs left up to half of a
/// 270 MB list unused at the solve's peak.
pub(crate) fn reserve_more<T>(list: &mut Vec<T>, more: usize) {
    if list.capacity() - list.len() < more {
        list.reserve_exact(more.max(list.len() / 8));
    }
}

/// Finds a matching of maximum cardinality and, among those, of maximum total weight.
///
/// `edges` are `(u, v, weight)` with `u != v`, vertices numbered `0..vertices`. Returns
/// `mate[v]` (`None` when `v` stays unmatched).
pub fn max_weight_matching(vertices: usize, edges: &[(usize, usize, i128)]) -> Vec<Option<usize>> {
    matching(vertices, edges, true)
}

/// Finds a matching of maximum total weight, whatever its cardinality (edges of
/// negative weight are never worth taking).
pub fn max_weight_matching_any(
    vertices: usize,
    edges: &[(usize, usize, i128)],
) -> Vec<Option<usize>> {
    matching(vertices, edges, false)
}

fn matching(
    vertices: usize,
    edges: &[(usize, usize, i128)],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    if vertices == 0 || edges.is_empty() {
        return vec![None; vertices];
    }
    let mut m = Matcher::new(vertices, edges, |w| w);
    m.max_cardinality = max_cardinality;
    m.solve();
    m.mates()
}

/// Solves [`max_weight_matching_any`] and keeps the duals for pricing and certification.
pub fn max_weight_matching_any_dual<W: Weight>(
    vertices: usize,
    edges: &[(usize, usize, W)],
) -> Optimum<W> {
    if vertices == 0 || edges.is_empty() {
        return Optimum::empty(vertices, false);
    }
    let mut m = Matcher::new(vertices, edges, |w| w);
    m.max_cardinality = false;
    m.solve();
    m.optimum(false)
}

/// Solves in this process whose optimum its own certificate refused, so that the caller
/// solved again from a proven start (see [`note_refused_solve`]).
static REFUSED_SOLVES: AtomicU64 = AtomicU64::new(0);

/// Counts a solve whose optimum its certificate refused: the engine's per-pass safety net
/// calls it before solving that pass again (docs/rules.md §2.6).
pub(super) fn note_refused_solve() {
    REFUSED_SOLVES.fetch_add(1, Ordering::Relaxed);
}

/// How many solves in this process ended at a matching their certificate refused (the
/// target is none): for the pairing benchmark, which runs each round in a process of its
/// own.
pub fn refused_solves() -> u64 {
    REFUSED_SOLVES.load(Ordering::Relaxed)
}

/// A maximum-weight *perfect* matching with its certificate, or `None` when the edges
/// admit no perfect matching (see [`PerfectMatcher::cold`]).
pub fn max_weight_perfect_matching_dual<W: Weight>(
    vertices: usize,
    edges: &[(usize, usize, W)],
) -> Option<Optimum<W>> {
    if vertices == 0 {
        return Some(Optimum::empty(0, true));
    }
    PerfectMatcher::cold(vertices, edges).solve()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::blossom::test_support::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn known_small_cases() {
        type Case = (usize, Vec<(usize, usize, i128)>, (usize, i128));
        let cases: Vec<Case> = vec![
            (2, vec![(0, 1, 1)], (1, 1)),
            (3, vec![(0, 1, 10), (1, 2, 11)], (1, 11)),
            (4, vec![(0, 1, 5), (1, 2, 11), (2, 3, 5)], (2, 10)),
            // A triangle plus a pendant forces a blossom.
            (
                4,
                vec![(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)],
                (2, 15),
            ),
        ];
        for (n, edges, want) in cases {
            let mate = max_weight_matching(n, &edges);
            assert_eq!(score(&mate, &edges), want, "{edges:?}");
        }
    }

    #[test]
    fn matches_brute_force_on_random_graphs() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..3000 {
            let n = rng.gen_range(1..=10);
            let density = rng.gen_range(0.2..1.0);
            let maxw = if case % 3 == 0 { 3 } else { 1000 };
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.gen_bool(density) {
                        edges.push((u, v, i128::from(rng.gen_range(-maxw..=maxw))));
                    }
                }
            }
            let mate = max_weight_matching(n, &edges);
            assert_eq!(
                score(&mate, &edges),
                brute(n, &edges),
                "case {case}: {edges:?}"
            );
            let (card, weight) = brute(n, &edges);
            match max_weight_perfect_matching_dual(n, &edges) {
                Some(opt) => {
                    opt.certify(&edges)
                        .unwrap_or_else(|e| panic!("perfect case {case}: {e}: {edges:?}"));
                    assert_eq!(score(&opt.mate, &edges), (card, weight), "perfect {case}");
                    assert_eq!(2 * card, n);
                }
                None => assert!(2 * card < n, "case {case}: a perfect matching exists"),
            }
            let opt = max_weight_matching_any_dual(n, &edges);
            opt.certify(&edges)
                .unwrap_or_else(|e| panic!("case {case}: {e}: {edges:?}"));
            if edges.iter().filter(|e| e.2 > 0).count() > 16 {
                continue;
            }
            assert_eq!(score(&opt.mate, &edges).1, brute_any(n, &edges));
            let mate = max_weight_matching_any(n, &edges);
            assert_eq!(
                score(&mate, &edges).1,
                brute_any(n, &edges),
                "case {case}: {edges:?}"
            );
        }
    }
}
