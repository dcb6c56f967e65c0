//! New edges for a solved state ([`PerfectMatcher::add_edges`]): each edge the duals
//! price negative is made feasible where it unsettles least (a blossom's dual moved into
//! its vertices, a blossom opened only when its dual runs out, a lone end raised), so
//! the next solve goes on with the blossoms kept. Also the simple reference update the
//! tests compare it with (`add_edges_simply`), and the doubling that keeps duals whole.

use super::matcher::{Expansion, Matcher};
use super::{DOUBLING_MARGIN, NONE, PerfectMatcher};
use crate::pairing::wide::Weight;
use std::cmp::Reverse;

impl<W: Weight> PerfectMatcher<W> {
    /// Adds edges (none already present) for the next [`PerfectMatcher::solve`]. Each
    /// new edge the current duals price negative is made feasible where it touches the
    /// solution least: the dual of the blossom around one end is moved into its
    /// vertices (the blossom stays, only its pair to the outside is undone), blossoms
    /// are opened only when their dual runs out, and a lone end's dual is raised with
    /// its pair undone. Every other edge keeps or gains slack, every kept pair stays
    /// tight and every blossom stays whole, so the solve goes on from a valid state.
    ///
    /// Returns false, leaving the solver unusable, when keeping the duals whole would
    /// need more bits than `W` has (the state is then to be rebuilt from the last
    /// optimum with [`PerfectMatcher::warm`]).
    pub fn add_edges(&mut self, edges: &[(usize, usize, W)]) -> bool {
        let held = self.push_all(edges);
        self.make_feasible(held)
    }

    /// Appends `edges` at this solve's scale; returns their indices.
    fn push_all(&mut self, edges: &[(usize, usize, W)]) -> Vec<usize> {
        self.m.reserve_edges(edges.len());
        edges
            .iter()
            .map(|&(u, v, w)| self.m.push_edge(u, v, w.scaled(2 * self.scale)))
            .collect()
    }

    /// Makes edges `held` feasible where the current duals price them negative, keeping
    /// the rest of the solution (see [`PerfectMatcher::add_edges`]), and gives every
    /// free vertex's dual one parity. False when that needs more bits than `W` has.
    pub(super) fn make_feasible(&mut self, held: Vec<usize>) -> bool {
        // Raising an end already free costs no pair, and one raised end settles all its
        // short edges: prefer free ends, then ends with more short edges.
        let every: Option<Vec<usize>> = cfg!(debug_assertions).then(|| {
            held.iter()
                .copied()
                .filter(|&k| self.m.true_slack(k) < W::ZERO)
                .collect()
        });
        let short = self.m.short_edges(held);
        if let Some(every) = every {
            assert_eq!(short, every, "the short edges, walked edge by edge");
        }
        let mut count = vec![0u32; self.m.n];
        for &k in &short {
            count[self.m.eu(k)] += 1;
            count[self.m.ev(k)] += 1;
        }
        // A repair only loosens other edges, so no edge found feasible here turns short.
        let mut lent = Lent::new(self.m.n);
        for k in short {
            if !self.repair(k, &count, &mut lent) {
                return false;
            }
        }
        lent.pay(&mut self.m);
        self.one_parity()
    }

    /// Gives every free vertex's dual one parity (invariant 6; one doubling makes every
    /// value even) and settles the free lone vertices' duals. False when doubling needs
    /// more bits than `W` has.
    pub(super) fn one_parity(&mut self) -> bool {
        let m = &self.m;
        let free = || (0..m.n).filter(|&v| m.mate[v] == NONE);
        let parities = (
            free().any(|v| m.dualvar[v].is_odd()),
            free().any(|v| !m.dualvar[v].is_odd()),
        );
        let odd = match parities {
            (true, true) => {
                if !self.double_all() {
                    return false;
                }
                false
            }
            (odd, _) => odd,
        };
        self.m.settle_free(odd);
        true
    }

    /// Makes new edge `k` feasible (see [`PerfectMatcher::add_edges`]). A blossom's dual
    /// moved into its vertices is noted on the blossom in `lent` and paid out to them
    /// all at once at the end ([`Lent::pay`]): blossoms nest thousands deep in fold
    /// order, and adding it to every vertex of every level opened took a fifth of a
    /// 100,000-player round.
    fn repair(&mut self, k: usize, count: &[u32], lent: &mut Lent<W>) -> bool {
        let (u, v) = (self.m.eu(k), self.m.ev(k));
        let owed = lent.owed(&self.m, u) + lent.owed(&self.m, v);
        let mut short = W::ZERO - self.m.true_slack(k) - owed;
        if short <= W::ZERO {
            return true;
        }
        // Raise a free end, else the end with more short edges, else the one nearer the
        // top of its blossoms (fewer to open).
        let m = &self.m;
        let rank = |x: usize| {
            let free = m.mate[m.blossombase[m.top(x)]] == NONE;
            (Reverse(free), Reverse(count[x]), m.depth(x))
        };
        let (x, other) = if rank(u) <= rank(v) { (u, v) } else { (v, u) };
        while short > W::ZERO {
            let t = self.m.top(x);
            if t == x {
                self.m.dualvar[x] = self.m.dualvar[x] + short;
                self.m.unpair(x);
                break;
            }
            // Moving z into the vertices does not help while both ends are inside.
            let shared = self.m.top(other) == t;
            let z = self.m.dualvar[t];
            let d = if shared || z < short { z } else { short };
            if d > W::ZERO {
                if d.is_odd() {
                    if lent.too_wide() || !self.double_all() {
                        return false;
                    }
                    lent.double();
                    short = short.double();
                    continue;
                }
                lent.lend(t, d);
                self.m.dualvar[t] = self.m.dualvar[t] - d;
                self.m.unpair(self.m.blossombase[t]);
                if !shared {
                    short = short - d;
                }
            }
            if short > W::ZERO {
                // The blossom's dual is spent (or both ends are in it): open it, its
                // children owing what it was owed.
                lent.pass_down(&mut self.m, t);
                self.m.expand(t, Expansion::OneLevel);
            }
        }
        true
    }

    /// The simple reference for [`PerfectMatcher::add_edges`], kept for the tests to
    /// compare with it: for each new edge the duals price negative, one end is taken out
    /// of everything — every blossom holding it dissolved (each one's dual moved into its
    /// vertices, its pair to the outside undone, opened one level), its own pair undone
    /// and its dual reset to the least that keeps its edges feasible. It undoes far more
    /// than the per-edge repair (`repair`), which must reach the same optimum.
    #[cfg(test)]
    pub(super) fn add_edges_simply(&mut self, edges: &[(usize, usize, W)]) -> bool {
        let held = self.push_all(edges);
        for k in held {
            if self.m.true_slack(k) >= W::ZERO {
                continue;
            }
            let x = self.m.eu(k);
            while self.m.top(x) != x {
                let t = self.m.top(x);
                let z = self.m.dualvar[t];
                for leaf in self.m.leaves_of(t) {
                    self.m.dualvar[leaf] = self.m.dualvar[leaf] + z;
                }
                self.m.dualvar[t] = W::ZERO;
                self.m.unpair(self.m.blossombase[t]);
                self.m.expand(t, Expansion::OneLevel);
            }
            self.m.unpair(x);
            let need = self
                .m
                .ends(x)
                .map(|(p, u)| self.m.ew[p / 2] - self.m.dualvar[u]);
            self.m.dualvar[x] = need.max().expect("x has edge k");
        }
        self.one_parity()
    }

    /// Doubles every weight and dual (the same solution, all values even), or returns
    /// false when that would leave too few bits of `W`.
    pub(super) fn double_all(&mut self) -> bool {
        let m = &mut self.m;
        let widest =
            m.ew.iter()
                .chain(&m.dualvar)
                .map(|x| x.bits())
                .max()
                .unwrap_or(0);
        if widest + 1 + DOUBLING_MARGIN > W::BITS {
            return false;
        }
        for x in m.ew.iter_mut().chain(m.dualvar.iter_mut()) {
            *x = x.double();
        }
        self.scale *= 2;
        true
    }
}

/// Duals moved from blossoms into their vertices during [`PerfectMatcher::make_feasible`]
/// and not yet added to them: per blossom, what each of its vertices is owed.
struct Lent<W> {
    owed: Vec<W>,
    /// The blossoms with something owed (each once).
    lenders: Vec<usize>,
}

impl<W: Weight> Lent<W> {
    fn new(n: usize) -> Lent<W> {
        Lent {
            owed: vec![W::ZERO; 2 * n],
            lenders: Vec::new(),
        }
    }

    /// Blossom `b`'s vertices are each owed `d` more.
    fn lend(&mut self, b: usize, d: W) {
        if self.owed[b] == W::ZERO {
            self.lenders.push(b);
        }
        self.owed[b] = self.owed[b] + d;
    }

    /// What vertex `v` is owed: the sum over the blossoms holding it.
    fn owed(&self, m: &Matcher<W>, v: usize) -> W {
        let mut sum = W::ZERO;
        if self.lenders.is_empty() {
            return sum;
        }
        let mut b = m.blossomparent[v];
        while b != NONE {
            sum = sum + self.owed[b];
            b = m.blossomparent[b];
        }
        sum
    }

    /// Blossom `b` is about to be opened: its children take over what it owes (a lone
    /// vertex is paid at once).
    fn pass_down(&mut self, m: &mut Matcher<W>, b: usize) {
        let d = std::mem::replace(&mut self.owed[b], W::ZERO);
        if d == W::ZERO {
            return;
        }
        for idx in 0..m.blossomchilds[b].len() {
            let c = m.blossomchilds[b][idx];
            if c < m.n {
                m.dualvar[c] = m.dualvar[c] + d;
            } else {
                self.lend(c, d);
            }
        }
    }

    /// Every weight and dual was doubled: so is what is owed.
    fn double(&mut self) {
        for x in &mut self.owed {
            *x = x.double();
        }
    }

    /// Whether doubling what is owed (which vertices' duals will hold) would leave too
    /// few bits of `W`: the vertices' duals are checked before they are paid.
    fn too_wide(&self) -> bool {
        let total = self
            .lenders
            .iter()
            .fold(W::ZERO, |sum, &b| sum + self.owed[b]);
        total.bits() + 2 + DOUBLING_MARGIN > W::BITS
    }

    /// Pays every vertex what the blossoms around it owe, each vertex once: one walk
    /// down each top-level blossom that holds a lender.
    fn pay(self, m: &mut Matcher<W>) {
        let mut tops: Vec<usize> = Vec::new();
        let mut seen = vec![false; 2 * m.n];
        for &b in &self.lenders {
            if self.owed[b] == W::ZERO {
                continue;
            }
            let mut t = b;
            while m.blossomparent[t] != NONE {
                t = m.blossomparent[t];
            }
            if !std::mem::replace(&mut seen[t], true) {
                tops.push(t);
            }
        }
        let mut stack: Vec<(usize, W)> = Vec::new();
        for t in tops {
            stack.push((t, W::ZERO));
            while let Some((b, above)) = stack.pop() {
                let sum = above + self.owed[b];
                if b < m.n {
                    m.dualvar[b] = m.dualvar[b] + sum;
                } else {
                    stack.extend(m.blossomchilds[b].iter().map(|&c| (c, sum)));
                }
            }
        }
    }
}

impl<W: Weight> Matcher<W> {
    /// Edge `k`'s slack counting the duals of the blossoms holding both its ends (which
    /// [`Matcher::slack`] leaves out, as the solver only looks at edges between
    /// top-level blossoms). Ends in different top-level blossoms share none; otherwise
    /// the walk goes up from the innermost blossom both ends share, found without
    /// building either chain (blossoms nest thousands deep, and pricing adds a hundred
    /// thousand edges at a time).
    pub(super) fn true_slack(&self, k: usize) -> W {
        let (u, v) = (self.eu(k), self.ev(k));
        if self.top(u) != self.top(v) {
            return self.slack(k);
        }
        let mut a = self.innermost_shared(u, v, |x| self.depth(x));
        let mut z = W::ZERO;
        while a != NONE {
            z = z + self.dualvar[a];
            a = self.blossomparent[a];
        }
        self.slack(k) + z.double()
    }

    /// The innermost blossom holding both `u` and `v` (which share a top-level blossom),
    /// found from the blossoms' depths (`depth`, counted from any fixed level) without
    /// building either chain.
    pub(super) fn innermost_shared(
        &self,
        u: usize,
        v: usize,
        depth: impl Fn(usize) -> usize,
    ) -> usize {
        let parent = &self.blossomparent;
        let (mut a, mut b) = (parent[u], parent[v]);
        let (mut da, mut db) = (depth(a), depth(b));
        while da > db {
            a = parent[a];
            da -= 1;
        }
        while db > da {
            b = parent[b];
            db -= 1;
        }
        while a != b {
            a = parent[a];
            b = parent[b];
        }
        a
    }

    /// The edges of `held` the current duals price negative, counting the duals of the
    /// blossoms holding both ends ([`Matcher::true_slack`] of each, from one pass over
    /// the blossoms). Blossom duals are never negative, so an edge its ends' own duals
    /// already cover is feasible without that walk. After a join most added pairs lie
    /// inside deeply nested blossoms: in the bench binary's `--child 100000 3`, adding
    /// 910,088 pairs took 3.1 s when each walked to the top from both ends (twice),
    /// 0.13 s so (measured with temporary instrumentation).
    pub(super) fn short_edges(&self, held: Vec<usize>) -> Vec<usize> {
        let parent = &self.blossomparent;
        // Per node, its depth and the duals of it and every blossom around it: filled
        // top down along each chain, each node once.
        let mut depth = vec![u32::MAX; 2 * self.n];
        let mut held_z = vec![W::ZERO; 2 * self.n];
        let mut chain = Vec::new();
        let mut nested = |x: usize, depth: &mut Vec<u32>, held_z: &mut Vec<W>| {
            let mut b = x;
            while b != NONE && depth[b] == u32::MAX {
                chain.push(b);
                b = parent[b];
            }
            let (mut d, mut z) = if b == NONE {
                (0, W::ZERO)
            } else {
                (depth[b] + 1, held_z[b])
            };
            while let Some(c) = chain.pop() {
                if c >= self.n {
                    z = z + self.dualvar[c];
                }
                depth[c] = d;
                held_z[c] = z;
                d += 1;
            }
        };
        held.into_iter()
            .filter(|&k| {
                let slack = self.slack(k);
                if slack >= W::ZERO {
                    return false;
                }
                let (u, v) = (self.eu(k), self.ev(k));
                if self.top(u) != self.top(v) {
                    return true;
                }
                nested(u, &mut depth, &mut held_z);
                nested(v, &mut depth, &mut held_z);
                let a = self.innermost_shared(u, v, |x| depth[x] as usize);
                slack + held_z[a].double() < W::ZERO
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::blossom::test_support::*;
    use crate::pairing::blossom::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Pricing's loop: solve over some edges, add more, solve again with the blossoms
    /// kept. Every solve is certified over its edges and the last one has the cold
    /// optimum's weight over all of them; the cases must reach every branch of the
    /// repair (a short edge with an end inside a blossom, one inside a blossom holding
    /// both ends, a doubling).
    #[test]
    fn added_edges_keep_the_blossoms_and_reach_the_optimum() {
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let (mut inside, mut shared, mut doubled) = (0, 0, 0);
        for case in 0..1500 {
            let n = 2 * rng.gen_range(2..=16);
            let maxw = [2, 30, 1000][case % 3];
            let density = rng.gen_range(0.3..0.9);
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.gen_bool(density) {
                        edges.push((u, v, i128::from(rng.gen_range(-maxw..=maxw))));
                    }
                }
            }
            let Some(cold) = max_weight_perfect_matching_dual(n, &edges) else {
                continue;
            };
            let best = score(&cold.mate, &edges);
            let (mut have, rest): (Vec<_>, Vec<_>) = edges
                .iter()
                .copied()
                .partition(|&(u, v, _)| cold.mate[u] == Some(v) || rng.gen_bool(0.4));
            let mut solver = if case % 2 == 0 {
                PerfectMatcher::cold(n, &have)
            } else {
                let duals: Vec<i128> = (0..n).map(|_| rng.gen_range(-4000..4000)).collect();
                PerfectMatcher::warm(n, &have, &duals, &vec![None; n])
            };
            let mut opt = solver.solve().expect("holds the cold matching");
            let batches = rng.gen_range(1..=3);
            for batch in rest.chunks(rest.len().div_ceil(batches).max(1)) {
                opt.certify(&have)
                    .unwrap_or_else(|e| panic!("case {case}: {e}"));
                for &(u, v, w) in batch {
                    if opt.slack(u, v, w) < 0 {
                        let (bu, bv) = (opt.vertex_blossom[u], opt.vertex_blossom[v]);
                        inside += usize::from(bu != NONE || bv != NONE);
                        shared += usize::from(
                            bu != NONE && bv != NONE && opt.outermost[bu] == opt.outermost[bv],
                        );
                    }
                }
                assert!(solver.add_edges(batch), "small weights leave bits to spare");
                have.extend_from_slice(batch);
                opt = solver.solve().expect("a perfect matching exists");
            }
            opt.certify(&edges)
                .unwrap_or_else(|e| panic!("case {case}: {e}: {edges:?}"));
            assert_eq!(score(&opt.mate, &edges), best, "case {case}");
            doubled += usize::from(opt.scale() > 4);
        }
        assert!(
            inside > 100 && shared > 20 && doubled > 20,
            "{inside} {shared} {doubled}"
        );
    }

    /// Near the top of `i128` the solver cannot double its values: `add_edges` says so
    /// instead of overflowing, and a warm start from the last optimum finishes the job.
    #[test]
    fn added_edges_that_need_more_bits_ask_for_a_restart() {
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        let big = 1i128 << 117;
        let mut refused = 0;
        for case in 0..300 {
            let n = 2 * rng.gen_range(3..=10);
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.gen_bool(0.7) {
                        let w = big + rng.gen_range(0..big >> 2);
                        edges.push((u, v, -w));
                    }
                }
            }
            let Some(cold) = max_weight_perfect_matching_dual(n, &edges) else {
                continue;
            };
            let (mut have, rest): (Vec<_>, Vec<_>) = edges
                .iter()
                .copied()
                .partition(|&(u, v, _)| cold.mate[u] == Some(v) || rng.gen_bool(0.3));
            let mut solver = PerfectMatcher::warm(n, &have, &vec![0; n], &vec![None; n]);
            let mut opt = solver.solve().expect("holds the cold matching");
            // As pricing does: a refusal leaves the solver unusable, so restart.
            for batch in rest.chunks(3) {
                have.extend_from_slice(batch);
                if !solver.add_edges(batch) {
                    refused += 1;
                    solver = PerfectMatcher::warm(n, &have, &opt.warm_duals(), &opt.mate);
                }
                opt = solver.solve().expect("a perfect matching exists");
                opt.certify(&have)
                    .unwrap_or_else(|e| panic!("case {case}: {e}"));
            }
            assert_eq!(score(&opt.mate, &edges), score(&cold.mate, &edges));
        }
        assert!(refused > 10, "{refused}");
    }
}
