//! The optimum a solve ends at ([`Optimum`]): the matching with the duals that prove it,
//! the blossoms of non-zero dual as a laminar family for pricing, the reduced cost of any
//! pair ([`Optimum::slack`]), vertex duals for a warm start, and the check of the whole
//! certificate ([`Optimum::certify`]), which the engine runs on every pass.

use super::NONE;
use super::ancestors::Ancestors;
use super::matcher::Matcher;
use crate::pairing::wide::Weight;
use crate::threads::worth_two;

/// Certificates over this many edges check their slacks on two threads
/// ([`Optimum::certify`]). Chosen, not measured: a list this long takes about 7 ms on
/// one thread (0.12 s for the 3.5 million of a 100,000-player round), far more than
/// starting a thread costs.
const CERTIFY_ON_THREADS: usize = 200_000;

/// A maximum-weight matching (any cardinality) with the dual solution that proves it
/// optimal: the linear-programming duals of Edmonds' odd-set formulation.
///
/// All duals are in the solver's doubled units: an edge `(u, v, w)` is *priced out* (no
/// improving use of it exists) when `slack(u, v, w) = y[u] + y[v] + 2·Σ z[B] − 2w ≥ 0`,
/// the sum over the blossoms B that hold both ends. [`Optimum::certify`] checks every
/// condition of the certificate, so a matching that passes is optimal over the edges it
/// was given *and* over any further edges whose slack is not negative.
#[derive(Debug, Clone)]
pub struct Optimum<W: Weight = i128> {
    /// Each vertex's partner in the matching (`None` when unmatched).
    pub mate: Vec<Option<usize>>,
    /// Vertex duals `y[v]` (doubled units).
    pub y: Vec<W>,
    /// Blossoms whose dual is not zero: `z`, and the nearest such blossom holding each
    /// (an index into `blossom_z`, or NONE).
    pub(super) blossom_z: Vec<W>,
    pub(super) blossom_parent: Vec<usize>,
    /// Odd-set sizes: matched edges each blossom must hold (`(|B| − 1) / 2`).
    pub(super) blossom_inner_pairs: Vec<usize>,
    /// The innermost such blossom holding each vertex (index into `blossom_z`), or NONE.
    pub(super) vertex_blossom: Vec<usize>,
    /// Per blossom: how many kept blossoms hold it (0 at top level), its outermost
    /// ancestor, and its `z` plus every `z` around it, so [`Optimum::slack`] needs no walk
    /// for pairs in different top-level blossoms and no sums for the rest.
    pub(super) depth: Vec<u32>,
    pub(super) outermost: Vec<usize>,
    pub(super) z_through: Vec<W>,
    /// The innermost blossom two blossoms share, in constant time (the chains nest
    /// thousands deep in fold order).
    pub(super) ancestors: Ancestors,
    /// A perfect-matching certificate: vertex duals may be negative, nobody unmatched.
    pub(super) perfect: bool,
    /// How much the solver scaled the given weights (duals are in scaled units).
    pub(super) scale: u64,
}

impl<W: Weight> Matcher<W> {
    pub(super) fn optimum(&self, perfect: bool) -> Optimum<W> {
        let m = self;
        let n = m.n;
        // Keep the live blossoms whose dual is not zero, each under its nearest kept
        // ancestor: a zero dual adds nothing to any slack and no condition on its pairs,
        // and dropping those blossoms keeps the chains `slack` walks short.
        let kept = |b: usize| m.blossombase[b] != NONE && m.dualvar[b] != W::ZERO;
        let mut index = vec![NONE; 2 * n];
        let mut blossom_z = Vec::new();
        let mut live = Vec::new();
        for (b, slot) in index.iter_mut().enumerate().skip(n) {
            if kept(b) {
                *slot = blossom_z.len();
                blossom_z.push(m.dualvar[b]);
                live.push(b);
            }
        }
        // The kept blossom nearest above vertex or blossom `x` (its index), or NONE;
        // remembered for the blossoms passed on the way, since blossoms of zero dual can
        // nest thousands deep and a walk per vertex would cost their depth every time.
        let mut above = vec![None; 2 * n];
        let mut path = Vec::new();
        let mut kept_above = |x: usize| {
            let mut b = m.blossomparent[x];
            let found = loop {
                if b == NONE {
                    break NONE;
                }
                if kept(b) {
                    break index[b];
                }
                if let Some(known) = above[b] {
                    break known;
                }
                path.push(b);
                b = m.blossomparent[b];
            };
            for b in path.drain(..) {
                above[b] = Some(found);
            }
            found
        };
        let blossom_parent = live.iter().map(|&b| kept_above(b)).collect();
        let blossom_inner_pairs = live.iter().map(|&b| m.size[b] / 2).collect();
        let vertex_blossom = (0..n).map(&mut kept_above).collect();
        let mut opt = Optimum {
            mate: m.mates(),
            y: m.dualvar[..n].to_vec(),
            blossom_z,
            blossom_parent,
            blossom_inner_pairs,
            vertex_blossom,
            depth: Vec::new(),
            outermost: Vec::new(),
            z_through: Vec::new(),
            ancestors: Ancestors::default(),
            perfect,
            scale: 1,
        };
        opt.index_family();
        opt
    }
}

impl<W: Weight> Optimum<W> {
    pub(super) fn empty(vertices: usize, perfect: bool) -> Optimum<W> {
        Optimum {
            mate: vec![None; vertices],
            y: vec![W::ZERO; vertices],
            blossom_z: Vec::new(),
            blossom_parent: Vec::new(),
            blossom_inner_pairs: Vec::new(),
            vertex_blossom: vec![NONE; vertices],
            depth: Vec::new(),
            outermost: Vec::new(),
            z_through: Vec::new(),
            ancestors: Ancestors::default(),
            perfect,
            scale: 1,
        }
    }

    /// Fills `depth`, `outermost` and `z_through` (parents before children, whatever
    /// their indices).
    pub(super) fn index_family(&mut self) {
        let count = self.blossom_z.len();
        let mut depth = vec![u32::MAX; count];
        let mut outermost = vec![NONE; count];
        let mut z_through = vec![W::ZERO; count];
        let mut path = Vec::new();
        for start in 0..count {
            let mut b = start;
            while b != NONE && depth[b] == u32::MAX {
                path.push(b);
                b = self.blossom_parent[b];
            }
            // `b` is NONE or already indexed; fill the path from the top down.
            while let Some(c) = path.pop() {
                if b == NONE {
                    depth[c] = 0;
                    outermost[c] = c;
                    z_through[c] = self.blossom_z[c];
                } else {
                    depth[c] = depth[b] + 1;
                    outermost[c] = outermost[b];
                    z_through[c] = z_through[b] + self.blossom_z[c];
                }
                b = c;
            }
        }
        self.ancestors = Ancestors::new(&self.blossom_parent, &depth, NONE);
        self.depth = depth;
        self.outermost = outermost;
        self.z_through = z_through;
    }

    /// The sum of `z` over the blossoms holding both `u` and `v`: that of their innermost
    /// common blossom and every one around it (no lists, as `slack` runs for every priced
    /// pair).
    pub(super) fn shared_z(&self, u: usize, v: usize) -> W {
        let (a, b) = (self.vertex_blossom[u], self.vertex_blossom[v]);
        if a == NONE || b == NONE || self.outermost[a] != self.outermost[b] {
            return W::ZERO;
        }
        self.z_through[self.ancestors.common(a, b, &self.depth)]
    }

    /// The blossoms with a non-zero dual as a laminar family, for pricing: each one's
    /// enclosing blossom, the innermost one holding each vertex (indices into the first
    /// list, `None` for none), and each one's `z` in [`Optimum::slack`]'s units (doubled).
    pub(in crate::pairing) fn laminar(&self) -> (Vec<Option<usize>>, Vec<Option<usize>>, Vec<W>) {
        let some = |b: usize| (b != NONE).then_some(b);
        (
            self.blossom_parent.iter().map(|&b| some(b)).collect(),
            self.vertex_blossom.iter().map(|&b| some(b)).collect(),
            self.blossom_z.iter().map(|z| z.double()).collect(),
        )
    }

    /// Vertex duals for a warm start ([`PerfectMatcher::warm`]) in its
    /// units of 4: each vertex's dual plus the duals of every blossom holding it. With the
    /// blossoms gone, these vertex duals alone keep every edge's reduced cost at least as
    /// high, and the pairs no blossom separates stay tight.
    pub fn warm_duals(&self) -> Vec<W> {
        // Scales above 4 (a solver that doubled its values) round up: that only loosens
        // edges, as a warm start allows.
        let to_four = |y: W| match self.scale {
            1 => y.double().double(),
            2 => y.double(),
            4 => y,
            s => {
                let mut neg = -y;
                for _ in 0..(s / 4).trailing_zeros() {
                    neg = neg.half();
                }
                -neg
            }
        };
        let through = |b: usize| {
            if b == NONE {
                W::ZERO
            } else {
                self.z_through[b]
            }
        };
        (0..self.y.len())
            .map(|v| to_four(self.y[v] + through(self.vertex_blossom[v])))
            .collect()
    }

    /// Reduced cost of a (possibly absent) edge `(u, v, w)`: negative means adding the
    /// edge could improve the matching; zero or more means it is priced out.
    pub fn slack(&self, u: usize, v: usize, w: W) -> W {
        self.y[u] + self.y[v] - w.scaled(2 * self.scale) + self.shared_z(u, v).double()
    }

    /// The factor the solver multiplied the given weights by (its duals' units).
    pub fn scale(&self) -> u64 {
        self.scale
    }

    /// Whether every vertex is paired (only then do the duals prove the pairs optimal).
    pub fn perfect(&self) -> bool {
        self.perfect
    }

    /// Checks `edges`' slacks: none negative, every matched one tight. Returns how many
    /// of them are matched.
    fn slacks(&self, edges: &[(usize, usize, W)]) -> Result<usize, String> {
        let mut matched_seen = 0;
        for &(u, v, w) in edges {
            let s = self.slack(u, v, w);
            if s < W::ZERO {
                return Err(format!("edge ({u}, {v}, {w:?}) has negative slack {s:?}"));
            }
            if self.mate[u] == Some(v) {
                if s != W::ZERO {
                    return Err(format!("matched edge ({u}, {v}) is not tight: slack {s:?}"));
                }
                matched_seen += 1;
            }
        }
        Ok(matched_seen)
    }

    /// Checks the optimality certificate against `edges` (the same list the matching was
    /// solved over, or a superset): dual feasibility (`y ≥ 0`, `z ≥ 0`, every edge's slack
    /// ≥ 0) and complementary slackness (matched edges tight, unmatched vertices at zero,
    /// every blossom with a positive dual holding its full `(|B| − 1) / 2` matched pairs).
    /// Together they prove the matching has maximum weight (LP duality, Edmonds 1965).
    pub fn certify(&self, edges: &[(usize, usize, W)]) -> Result<(), String> {
        let n = self.mate.len();
        if let Some(v) = (0..n).find(|&v| !self.perfect && self.y[v] < W::ZERO) {
            return Err(format!("vertex {v} has a negative dual {:?}", self.y[v]));
        }
        if let Some(b) = (0..self.blossom_z.len()).find(|&b| self.blossom_z[b] < W::ZERO) {
            return Err(format!("blossom {b} has a negative dual"));
        }
        for v in 0..n {
            if let Some(u) = self.mate[v]
                && self.mate[u] != Some(v)
            {
                return Err(format!("mate of {v} is {u} but not the reverse"));
            }
            if self.perfect && self.mate[v].is_none() {
                return Err(format!("vertex {v} is unmatched in a perfect matching"));
            }
            if self.mate[v].is_none() && self.y[v] != W::ZERO {
                return Err(format!("unmatched vertex {v} has dual {:?}", self.y[v]));
            }
        }
        // Every edge's slack, the two halves of a long list on two threads (the whole
        // field's 3.5 million edges of round 9 at 100,000 players: 0.115–0.122 s a pass
        // on one thread, 0.064–0.068 s on two); the first half's error is the one
        // reported, as a single pass would.
        let (first, second) = edges.split_at(edges.len() / 2);
        let halves = crate::threads::both_halves(worth_two(edges.len(), CERTIFY_ON_THREADS), |h| {
            vec![self.slacks(if h == 0 { first } else { second })]
        });
        let mut matched_seen = 0;
        for half in halves {
            matched_seen += half?;
        }
        let matched = (0..n).filter(|&v| self.mate[v].is_some()).count() / 2;
        if matched_seen < matched {
            return Err("a matched pair is not among the edges".into());
        }
        // Full blossoms: count matched pairs with both ends inside each blossom. A pair
        // lies inside its ends' innermost common blossom and every one around it: count
        // it there, then add each blossom's count into its parent's, innermost first.
        let mut inside = vec![0usize; self.blossom_z.len()];
        for v in 0..n {
            if let Some(u) = self.mate[v]
                && u > v
            {
                let (a, b) = (self.vertex_blossom[u], self.vertex_blossom[v]);
                if a != NONE && b != NONE && self.outermost[a] == self.outermost[b] {
                    inside[self.ancestors.common(a, b, &self.depth)] += 1;
                }
            }
        }
        let mut deepest_first: Vec<usize> = (0..inside.len()).collect();
        deepest_first.sort_unstable_by_key(|&b| std::cmp::Reverse(self.depth[b]));
        for b in deepest_first {
            let parent = self.blossom_parent[b];
            if parent != NONE {
                inside[parent] += inside[b];
            }
        }
        for (b, &held) in inside.iter().enumerate() {
            if self.blossom_z[b] > W::ZERO && held != self.blossom_inner_pairs[b] {
                return Err(format!(
                    "blossom {b} has a positive dual but {held} of its {} pairs matched",
                    self.blossom_inner_pairs[b]
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::blossom::*;

    #[test]
    fn certificate_rejects_a_missing_edge_that_would_improve() {
        // Solve without the heavy edge (1, 2); pricing it must show a negative slack and
        // the certificate over the full list must fail.
        let part = vec![(0, 1, 5i128), (2, 3, 5)];
        let opt = max_weight_matching_any_dual(4, &part);
        opt.certify(&part).unwrap();
        assert!(opt.slack(1, 2, 20) < 0);
        let mut full = part.clone();
        full.push((1, 2, 20));
        assert!(opt.certify(&full).is_err());
        // A light extra edge is priced out and the certificate still holds.
        assert!(opt.slack(0, 3, 1) >= 0);
        full.pop();
        full.push((0, 3, 1));
        opt.certify(&full).unwrap();
    }

    /// On two threads, the certificate holds or fails as on one, and a list with a bad
    /// edge in each half names the one a single pass meets first.
    #[test]
    fn slacks_checked_on_two_threads_fail_at_the_first_bad_edge() {
        use crate::threads::FORCED;
        FORCED.with(|t| t.set(Some(true)));
        let edges = vec![(0, 1, 5i128), (2, 3, 5), (4, 5, 5), (6, 7, 5)];
        let opt = max_weight_matching_any_dual(8, &edges);
        opt.certify(&edges).unwrap();
        let mut late = edges.clone();
        late.push((5, 6, 40));
        let err = opt.certify(&late).unwrap_err();
        assert!(err.contains("(5, 6, 40)"), "{err}");
        let mut both = late.clone();
        both.insert(0, (1, 2, 30));
        let err = opt.certify(&both).unwrap_err();
        assert!(err.contains("(1, 2, 30)"), "{err}");
        FORCED.with(|t| t.set(Some(false)));
        assert_eq!(opt.certify(&both), Err(err));
        FORCED.with(|t| t.set(None));
    }

    #[test]
    fn certificate_rejects_a_tampered_perfect_matching() {
        // Two heavy pairs (0-1, 2-3) and two light ones (0-2, 1-3): the optimum takes the
        // heavy ones. Each tampering below must be caught by the certificate.
        let edges = vec![(0, 1, 10), (2, 3, 10), (0, 2, 1), (1, 3, 1)];
        let good = max_weight_perfect_matching_dual(4, &edges).unwrap();
        good.certify(&edges).unwrap();
        assert_eq!(good.mate, [Some(1), Some(0), Some(3), Some(2)]);
        type Tamper = fn(&mut Optimum<i128>);
        let cases: [(&str, Tamper); 4] = [
            ("not tight", |o| {
                o.mate = vec![Some(2), Some(3), Some(0), Some(1)];
            }),
            ("not the reverse", |o| o.mate[1] = Some(2)),
            ("unmatched in a perfect matching", |o| {
                o.mate[2] = None;
                o.mate[3] = None;
            }),
            ("negative slack", |o| o.y[0] -= 100),
        ];
        for (want, tamper) in cases {
            let mut bad = good.clone();
            tamper(&mut bad);
            let err = bad.certify(&edges).unwrap_err();
            assert!(err.contains(want), "{want}: {err}");
        }
    }

    #[test]
    fn certificate_counts_the_pairs_inside_nested_blossoms() {
        // A hand-made family: blossom 0 (z = 2) holds blossom 1 (z = 2), which holds
        // vertices 0, 1, 2; blossom 0 also holds 3 and 4; 5, 6, 7 are in no blossom.
        // Blossom 1 (3 vertices) must hold one pair, blossom 0 (5 vertices) two.
        let mut opt = Optimum::<i128>::empty(8, true);
        opt.blossom_z = vec![2, 2];
        opt.blossom_parent = vec![NONE, 0];
        opt.blossom_inner_pairs = vec![2, 1];
        opt.vertex_blossom = vec![1, 1, 1, 0, 0, NONE, NONE, NONE];
        opt.index_family();
        // Every pair as an edge, tight under these duals (all `y` zero), so only the
        // blossom counts can fail.
        let check = |o: &Optimum<i128>, pairs: [(usize, usize); 4]| {
            let mut o = o.clone();
            for (u, v) in pairs {
                o.mate[u] = Some(v);
                o.mate[v] = Some(u);
            }
            let mut edges = Vec::new();
            for u in 0..8 {
                for v in u + 1..8 {
                    edges.push((u, v, o.shared_z(u, v)));
                }
            }
            o.certify(&edges)
        };
        // 0-1 lies in blossom 1 and counts in blossom 0 around it too.
        assert_eq!(check(&opt, [(0, 1), (2, 3), (4, 5), (6, 7)]), Ok(()));
        assert_eq!(check(&opt, [(0, 1), (2, 4), (3, 5), (6, 7)]), Ok(()));
        // Blossom 1 emptied (blossom 0 still holds 1-3 and 2-4).
        let inner = [(0, 5), (1, 3), (2, 4), (6, 7)];
        let err = check(&opt, inner).unwrap_err();
        assert!(err.contains("blossom 1 has a positive dual"), "{err}");
        // Blossom 0 left with 0-1 alone, which only its inner blossom's pair gives it.
        let outer = [(0, 1), (2, 5), (3, 6), (4, 7)];
        let err = check(&opt, outer).unwrap_err();
        assert!(err.contains("blossom 0 has a positive dual"), "{err}");
        // A blossom of zero dual asks nothing.
        let mut inner_free = opt.clone();
        inner_free.blossom_z = vec![2, 0];
        inner_free.index_family();
        assert_eq!(check(&inner_free, inner), Ok(()));
        let mut outer_free = opt.clone();
        outer_free.blossom_z = vec![0, 2];
        outer_free.index_family();
        assert_eq!(check(&outer_free, outer), Ok(()));
    }
}
