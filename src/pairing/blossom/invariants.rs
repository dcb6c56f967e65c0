//! The checks of the invariants the module documentation lists: 1–6 on a state a solve
//! starts from or ends in (`Matcher::assert_invariants`: the tests after every start,
//! addition and solve, debug builds after every join), 7–11 after every dual step
//! (`Matcher::assert_stage_invariants`, unit tests only). Test and debug builds only;
//! they decide nothing.

use super::NONE;
use super::matcher::Matcher;
use crate::pairing::wide::Weight;

impl<W: Weight> Matcher<W> {
    /// Test and debug builds: invariants 1–6 of the module documentation, a state a
    /// solve can start from (and every solve ends in).
    pub(super) fn assert_invariants(&self) {
        let n = self.n;
        // 1. Pairs.
        for v in 0..n {
            let p = self.mate[v];
            if p != NONE {
                assert_eq!(self.endpoint(p ^ 1), v, "vertex {v}'s pair is its own edge");
                assert_eq!(
                    self.mate[self.endpoint(p)],
                    p ^ 1,
                    "vertex {v}'s pair agrees"
                );
            }
        }
        // 2. Blossoms: children point at their parent, sizes and bases agree, and every
        // vertex's chain ends at `top`.
        for b in n..2 * n {
            if self.blossombase[b] == NONE {
                continue;
            }
            let childs = &self.blossomchilds[b];
            assert!(
                childs.len() >= 3 && childs.len() % 2 == 1,
                "blossom {b}'s cycle"
            );
            assert_eq!(
                childs.len(),
                self.blossomendps[b].len(),
                "blossom {b}'s edges"
            );
            for &c in childs {
                assert_eq!(self.blossomparent[c], b, "blossom {b}'s child {c}");
            }
            let size: usize = childs.iter().map(|&c| self.size[c]).sum();
            assert_eq!(self.size[b], size, "blossom {b}'s size");
            assert_eq!(
                self.blossombase[b], self.blossombase[childs[0]],
                "blossom {b}'s base"
            );
        }
        let chain_of = |v: usize| {
            let mut chain = vec![v];
            while let Some(&x) = chain.last()
                && self.blossomparent[x] != NONE
            {
                assert!(chain.len() <= 2 * n, "vertex {v}'s blossoms form a cycle");
                chain.push(self.blossomparent[x]);
            }
            chain
        };
        for v in 0..n {
            let outer = *chain_of(v).last().expect("holds v");
            assert_eq!(self.top(v), outer, "vertex {v}'s top-level blossom");
        }
        // 3. Feasible duals.
        for b in n..2 * n {
            if self.blossombase[b] != NONE {
                assert!(self.dualvar[b] >= W::ZERO, "blossom {b}'s dual is negative");
            }
        }
        for k in 0..self.ew.len() {
            let (u, v, slack) = (self.eu(k), self.ev(k), self.true_slack(k));
            assert!(slack >= W::ZERO, "edge {u}-{v} has slack {slack:?}");
        }
        // 4. Tight structure; 5. full blossoms: the cycle's edges alternate from the base,
        // unpaired, paired, …, unpaired, and the base is paired outside or free.
        let paired = |k: usize| self.mate[self.eu(k)] == 2 * k + 1;
        for v in 0..n {
            let p = self.mate[v];
            if p != NONE {
                assert_eq!(
                    self.true_slack(p / 2),
                    W::ZERO,
                    "vertex {v}'s pair is tight"
                );
            }
        }
        for b in n..2 * n {
            if self.blossombase[b] == NONE {
                continue;
            }
            let childs = &self.blossomchilds[b];
            for (i, &p) in self.blossomendps[b].iter().enumerate() {
                let k = p / 2;
                assert_eq!(self.true_slack(k), W::ZERO, "blossom {b}'s cycle is tight");
                let (next, ends) = (childs[(i + 1) % childs.len()], [self.eu(k), self.ev(k)]);
                let inside = |c: usize| ends.map(|x| chain_of(x).contains(&c));
                assert!(
                    inside(childs[i]).iter().any(|&x| x) && inside(next).iter().any(|&x| x),
                    "blossom {b}'s edge {i} joins child {i} to the next"
                );
                assert_eq!(paired(k), i % 2 == 1, "blossom {b}'s edge {i} alternates");
            }
            let base = self.blossombase[b];
            if self.mate[base] != NONE {
                let partner = self.endpoint(self.mate[base]);
                assert!(
                    !chain_of(partner).contains(&b),
                    "blossom {b}'s base pairs outside"
                );
            }
        }
        // 6. One parity.
        assert!(self.ew.iter().all(|w| !w.is_odd()), "weights are held even");
        let mut free = (0..n).filter(|&v| self.mate[v] == NONE);
        if let Some(first) = free.next() {
            let odd = self.dualvar[first].is_odd();
            assert!(
                free.all(|v| self.dualvar[v].is_odd() == odd),
                "every free vertex's dual has one parity"
            );
        }
    }

    /// Unit tests: invariants 7–11 of the module documentation, after every dual step of
    /// type `step`.
    #[cfg(test)]
    pub(super) fn assert_stage_invariants(&self, step: u8) {
        let label_of = |v: usize| self.label[self.top(v)];
        for v in 0..self.n {
            let want = match label_of(v) {
                1 => 1,
                2 => -1,
                _ => 0,
            };
            assert_eq!(
                self.dir[v], want,
                "7, after a step of type {step}: vertex {v}"
            );
        }
        // Per vertex outside the S-blossoms, its least slack to another S-blossom.
        let mut least: Vec<Option<W>> = vec![None; self.n];
        for k in 0..self.ew.len() {
            let (u, v) = (self.eu(k), self.ev(k));
            if self.top(u) == self.top(v) {
                continue;
            }
            let slack = self.slack(k);
            assert!(
                slack >= W::ZERO,
                "8, after a step of type {step}: edge {u}-{v} has slack {slack:?}"
            );
            match (label_of(u) == 1, label_of(v) == 1) {
                (true, true) => {
                    let key = |x: usize| self.between.key(x).map(|key| key - self.moved);
                    let covered = [key(u), key(v)]
                        .into_iter()
                        .flatten()
                        .any(|key| key <= slack.half());
                    assert!(covered, "10, after a step of type {step}: edge {u}-{v}");
                }
                (true, false) => least[v] = Some(least[v].map_or(slack, |s| s.min(slack))),
                (false, true) => least[u] = Some(least[u].map_or(slack, |s| s.min(slack))),
                (false, false) => {}
            }
        }
        for (x, least) in least.into_iter().enumerate() {
            let Some(least) = least else { continue };
            if self.label[x] != 0 {
                continue;
            }
            let what = || format!("9, after a step of type {step}: vertex {x}");
            let k = self.bestedge[x];
            assert!(k != NONE, "{} has no best edge", what());
            let far = if self.eu(k) == x {
                self.ev(k)
            } else {
                self.eu(k)
            };
            assert!(
                label_of(far) == 1,
                "{}'s best edge leaves the forest",
                what()
            );
            assert!(
                self.slack(k) == least,
                "{}'s best edge is not its least",
                what()
            );
            if label_of(x) == 0 {
                let key = self.to_free.key(x).map(|key| key - self.moved);
                assert!(key == Some(least), "{}'s best edge is not listed", what());
            }
        }
        for b in self.n..2 * self.n {
            if self.blossombase[b] != NONE && self.blossomparent[b] == NONE && self.label[b] == 2 {
                let key = self.shrinking.key(b).map(|key| key - self.moved);
                assert_eq!(
                    key,
                    Some(self.dualvar[b]),
                    "11, after a step of type {step}"
                );
            }
        }
    }
}
