//! [`PerfectMatcher`], the solver pricing drives, and where a solve starts: cold (a
//! greedy jump-start of duals and tight pairs) or warm (from given duals and pairs,
//! made feasible), then solved as far as the edges allow. Starting from solved parts
//! is `snapshot.rs`'s and going on after new edges `repair.rs`'s.

use super::matcher::Matcher;
use super::{NONE, Optimum};
use crate::pairing::wide::Weight;

/// A maximum-weight perfect matching that can be given more edges after it is solved
/// and solved again from where it stopped: its blossoms, duals and pairs are kept, and
/// only what the new edges unsettle is undone (see [`PerfectMatcher::add_edges`]). This
/// is what pricing needs: each pass adds a few thousand pairs to a field of thousands
/// of nested blossoms, and dissolving them all before each re-solve (as a start from
/// vertex duals must) frees a pair for every blossom.
pub struct PerfectMatcher<W: Weight> {
    pub(super) m: Matcher<W>,
    /// The factor between given weights and the solver's duals: an edge `(u, v, w)` is
    /// held as `2·scale·w` (see [`Optimum::scale`]); a power of two.
    pub(super) scale: u64,
}

impl<W: Weight> PerfectMatcher<W> {
    /// The solver from a greedy jump-start: every vertex's dual at its heaviest edge,
    /// mutual heaviest edges matched, then free vertices' duals lowered to their next
    /// tight edge and matched again, so only the few players the greedy pass cannot
    /// settle cost a blossom search.
    ///
    /// Weights are doubled once more inside (so every starting dual is even, which keeps
    /// the solver's integer duals whole); [`Optimum::slack`] accounts for it.
    pub fn cold(vertices: usize, edges: &[(usize, usize, W)]) -> PerfectMatcher<W> {
        let mut m = Matcher::new(vertices, edges, W::double);
        m.max_cardinality = true;
        m.harvest = true;
        m.jump_start();
        m.augment_tight();
        PerfectMatcher { m, scale: 2 }
    }

    /// The solver from a starting point: `duals` in units of 4 (this solve's
    /// [`Optimum::scale`]) and pairs `mates` to keep where they are still tight. Neither
    /// has to be feasible or optimal: an edge the duals price negative raises one end's
    /// dual until it is tight, odd duals are rounded up (every free vertex's dual must
    /// share one parity, see [`Matcher::solve`]), and pairs that are not tight are
    /// dropped. That leaves a feasible dual with a partial matching of tight edges, which
    /// is all the solver needs to start from; only the players left unpaired have to be
    /// settled, not the whole field. The optimum is the same as a cold solve's (both are
    /// certified), ties aside.
    ///
    /// Starts come from an earlier optimum ([`Optimum::warm_duals`]) or from optima of
    /// pieces of the field solved apart.
    pub fn warm(
        vertices: usize,
        edges: &[(usize, usize, W)],
        duals: &[W],
        mates: &[Option<usize>],
    ) -> PerfectMatcher<W> {
        debug_assert!(duals.len() == vertices && mates.len() == vertices);
        let mut m = Matcher::new(vertices, edges, |w| w.double().double());
        m.max_cardinality = true;
        m.harvest = true;
        for (v, &y) in duals.iter().enumerate() {
            // Rounding up only loosens edges.
            m.dualvar[v] = if y.is_odd() { y + W::from_i128(1) } else { y };
        }
        m.repair_duals();
        for (v, mate) in mates.iter().enumerate() {
            let Some(u) = *mate else { continue };
            if u < v || m.mate[v] != NONE || m.mate[u] != NONE {
                continue;
            }
            let tight = m
                .ends(v)
                .find(|&(p, w)| w == u && m.slack(p / 2) == W::ZERO)
                .map(|(p, _)| p);
            if let Some(p) = tight {
                m.mate[v] = p;
                m.mate[u] = p ^ 1;
            }
        }
        m.settle_free(false);
        m.augment_tight();
        PerfectMatcher { m, scale: 4 }
    }

    /// Lets the next solve stop as soon as at most `free` vertices are unpaired: for a
    /// start of a larger solve, where the edges are known to leave at least that many
    /// unpaired (proving that no more can be paired is most of such a solve's work).
    /// The duals stay feasible and every pair tight, as at any point of a solve.
    pub fn stop_at_free(&mut self, free: usize) {
        self.m.enough_free = free;
    }

    /// The count of free vertices [`PerfectMatcher::stop_at_free`] set (0 unless set).
    pub fn stops_at_free(&self) -> usize {
        self.m.enough_free
    }

    /// Solves from the current state: the optimum with its certificate, or `None` when
    /// the edges admit no perfect matching.
    pub fn solve(&mut self) -> Option<Optimum<W>> {
        let opt = self.solve_partial();
        opt.perfect.then_some(opt)
    }

    /// Solves as far as the edges allow: the optimum when they admit a perfect matching,
    /// else a matching of maximum cardinality with feasible duals that keep its pairs
    /// tight — a starting point for a larger solve, not a certificate (its weight need
    /// not be the largest of its size).
    pub fn solve_partial(&mut self) -> Optimum<W> {
        self.m.solve();
        let perfect = !self.m.mate.contains(&NONE);
        let mut opt = self.m.optimum(perfect);
        opt.scale = self.scale;
        opt
    }
}

impl<W: Weight> Matcher<W> {
    /// Greedy dual start for perfect matching (see [`max_weight_perfect_matching_dual`]).
    pub(super) fn jump_start(&mut self) {
        let n = self.n;
        // ew is 4w: the largest incident ew/2 is even and keeps every edge feasible.
        for v in 0..n {
            let best = self
                .ends(v)
                .map(|(p, _)| self.ew[p / 2].half())
                .max()
                .unwrap_or(W::ZERO);
            self.dualvar[v] = best;
        }
        self.match_tight_free();
        self.settle_free(false);
    }

    /// Pairs each free vertex with its first free neighbour over a tight edge.
    pub(super) fn match_tight_free(&mut self) {
        for v in 0..self.n {
            if self.mate[v] == NONE {
                self.pair_over_tight(v);
            }
        }
    }

    /// Pairs free vertex `v` with its first free neighbour over a tight edge, if any.
    pub(super) fn pair_over_tight(&mut self, v: usize) {
        for idx in 0..self.neighbend[v].len() {
            let (p, u) = self.end(v, idx);
            if self.mate[u] == NONE && self.slack(p / 2) == W::ZERO {
                self.mate[v] = p;
                self.mate[u] = p ^ 1;
                return;
            }
        }
    }

    /// Lowers each free lone vertex's dual to the least that keeps its edges feasible
    /// (keeping the parity every free vertex's dual shares, odd or even: see `solve`),
    /// then pairs it over a tight edge with a free neighbour where it can.
    pub(super) fn settle_free(&mut self, odd: bool) {
        for v in 0..self.n {
            if self.mate[v] != NONE || self.top(v) != v {
                continue;
            }
            let need = self
                .ends(v)
                .map(|(p, u)| self.ew[p / 2] - self.dualvar[u])
                .max();
            if let Some(need) = need {
                self.dualvar[v] = if need.is_odd() == odd {
                    need
                } else {
                    need + W::from_i128(1)
                };
            }
            self.pair_over_tight(v);
        }
    }

    /// Makes every edge's slack non-negative by raising duals (before any vertex is
    /// matched): for each edge still short, the end with more short edges is raised to
    /// make it tight (kept even), so few vertices move.
    pub(super) fn repair_duals(&mut self) {
        let short: Vec<usize> = (0..self.ew.len())
            .filter(|&k| self.slack(k) < W::ZERO)
            .collect();
        let mut count = vec![0u32; self.n];
        for &k in &short {
            count[self.eu(k)] += 1;
            count[self.ev(k)] += 1;
        }
        for k in short {
            if self.slack(k) >= W::ZERO {
                continue;
            }
            let (u, v) = (self.eu(k), self.ev(k));
            let (up, other) = if count[u] >= count[v] { (u, v) } else { (v, u) };
            let need = self.ew[k] - self.dualvar[other];
            self.dualvar[up] = if need.is_odd() {
                need + W::from_i128(1)
            } else {
                need
            };
        }
    }

    /// After [`Matcher::jump_start`], before any blossom exists: augments the matching
    /// along alternating paths of tight edges from each free vertex (depth first, a
    /// bounded number of vertices per search). The duals do not move and every matched
    /// edge stays tight, so the solver starts from a valid state with fewer free vertices,
    /// and each one it no longer has to settle saves a whole stage over the field.
    pub(super) fn augment_tight(&mut self) {
        const REACH: usize = 256;
        let n = self.n;
        let mut seen = vec![NONE; n];
        // (outer vertex, index into its neighbours to try next, edge taken to get past it)
        let mut path: Vec<(usize, usize, usize)> = Vec::new();
        for root in 0..n {
            if self.mate[root] != NONE {
                continue;
            }
            seen[root] = root;
            path.clear();
            path.push((root, 0, NONE));
            let mut reached = 0;
            while let Some(&(v, next, _)) = path.last() {
                let Some((p, u)) = (next < self.neighbend[v].len()).then(|| self.end(v, next))
                else {
                    path.pop();
                    continue;
                };
                let top = path.len() - 1;
                path[top].1 += 1;
                if seen[u] == root || self.slack(p / 2) != W::ZERO {
                    continue;
                }
                seen[u] = root;
                if self.mate[u] == NONE {
                    path[top].2 = p;
                    for &(a, _, q) in &path {
                        self.mate[a] = q;
                        let end = self.endpoint(q);
                        self.mate[end] = q ^ 1;
                    }
                    break;
                }
                let x = self.endpoint(self.mate[u]);
                reached += 1;
                if seen[x] == root || reached > REACH {
                    continue;
                }
                seen[x] = root;
                path[top].2 = p;
                path.push((x, 0, NONE));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::blossom::test_support::*;
    use crate::pairing::blossom::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Warm starts from anything (an optimum over fewer edges, random duals and pairs)
    /// reach the same optimum weight as a cold solve, with a certificate.
    #[test]
    fn warm_starts_reach_the_optimum() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..3000 {
            let n = 2 * rng.gen_range(1..=6);
            let maxw: i128 = if case % 3 == 0 { 3 } else { 1000 };
            let edges = random_edges(&mut rng, n, 0.6, maxw);
            let Some(cold) = max_weight_perfect_matching_dual(n, &edges) else {
                continue;
            };
            let best = score(&cold.mate, &edges);
            // From the optimum over a subset that still holds the cold matching.
            let subset: Vec<_> = edges
                .iter()
                .copied()
                .filter(|&(u, v, _)| cold.mate[u] == Some(v) || rng.gen_bool(0.5))
                .collect();
            let part = max_weight_perfect_matching_dual(n, &subset).expect("holds a matching");
            let starts = [
                (part.warm_duals(), part.mate.clone()),
                (
                    (0..n).map(|_| rng.gen_range(-4000..4000)).collect(),
                    (0..n)
                        .map(|v| cold.mate[v].filter(|_| rng.gen_bool(0.5)))
                        .collect(),
                ),
            ];
            for (k, (duals, mates)) in starts.iter().enumerate() {
                let warm = PerfectMatcher::warm(n, &edges, duals, mates)
                    .solve()
                    .expect("a perfect matching exists");
                warm.certify(&edges)
                    .unwrap_or_else(|e| panic!("case {case} start {k}: {e}: {edges:?}"));
                assert_eq!(score(&warm.mate, &edges), best, "case {case} start {k}");
            }
        }
    }

    /// A piece without a perfect pairing still gives a start: a maximum-cardinality
    /// matching, its pairs tight and every edge's slack not negative; and a warm start
    /// from it, once edges make a perfect matching possible, reaches the cold optimum.
    #[test]
    fn partial_solves_leave_a_maximum_matching_with_feasible_duals() {
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        let (mut imperfect, mut warmed) = (0, 0);
        for case in 0..400 {
            let n = rng.gen_range(2..=10);
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.gen_bool(0.3) {
                        edges.push((u, v, i128::from(rng.gen_range(-50..=50))));
                    }
                }
            }
            let part = PerfectMatcher::cold(n, &edges).solve_partial();
            let pairs = score(&part.mate, &edges).0;
            assert_eq!(pairs, brute(n, &edges).0, "case {case}: {edges:?}");
            if 2 * pairs < n {
                imperfect += 1;
            }
            for &(u, v, w) in &edges {
                let slack = part.slack(u, v, w);
                assert!(slack >= 0, "case {case}: edge {u}-{v} has slack {slack}");
                if part.mate[u] == Some(v) {
                    assert_eq!(slack, 0, "case {case}: pair {u}-{v} is not tight");
                }
            }
            if n % 2 == 1 {
                continue;
            }
            let mut full = edges.clone();
            for u in 0..n {
                for v in u + 1..n {
                    if !edges.iter().any(|&(a, b, _)| (a, b) == (u, v)) && rng.gen_bool(0.5) {
                        full.push((u, v, i128::from(rng.gen_range(-50..=50))));
                    }
                }
            }
            let Some(cold) = max_weight_perfect_matching_dual(n, &full) else {
                continue;
            };
            let warm = PerfectMatcher::warm(n, &full, &part.warm_duals(), &part.mate)
                .solve()
                .expect("a perfect matching exists");
            warm.certify(&full)
                .unwrap_or_else(|e| panic!("case {case}: {e}: {full:?}"));
            assert_eq!(
                score(&warm.mate, &full),
                score(&cold.mate, &full),
                "case {case}"
            );
            if 2 * pairs < n {
                warmed += 1;
            }
        }
        assert!(
            imperfect > 100,
            "only {imperfect} cases lacked a perfect matching"
        );
        assert!(
            warmed > 20,
            "only {warmed} warm starts came from a partial matching"
        );
    }
}
