//! Edmonds' primal-dual stages (`Matcher::solve`): each grows alternating trees from
//! the free vertices over tight edges, labelling S- and T-vertices, and when no tight
//! edge is left takes the least dual step that makes one (from the three candidate
//! heaps: an edge to the forest, an edge between trees, a T-blossom's dual), until an
//! augmentation or the proof that none exists. Making and opening blossoms is
//! `blossoms.rs`'s; retiring finished trees mid-stage is `harvest.rs`'s.

use super::NONE;
use super::matcher::{Expansion, Matcher};
use crate::pairing::wide::Weight;

impl<W: Weight> Matcher<W> {
    /// Edmonds' primal-dual stages from the current state (any feasible duals, tight
    /// matched pairs, valid blossoms). Integer duals stay whole because every free
    /// vertex's dual has one parity: the free vertices are the roots and all move by
    /// the same steps, every other labelled vertex joins a tree over a tight edge (even
    /// weights, so it takes its neighbour's parity), so two S-vertices always share a
    /// parity, an edge between them has an even slack and its step (half of it) is whole.
    /// Starts keep that: cold and warm starts make every free dual even, and
    /// [`PerfectMatcher::add_edges`] doubles every value when freed vertices disagree.
    pub(super) fn solve(&mut self) {
        let n = self.n;
        // Free vertices left; only a solve told to stop early acts on it (`enough_free`).
        let mut free = self.mate.iter().filter(|&&p| p == NONE).count();
        if self.enough_free > 0 && free <= self.enough_free {
            return;
        }
        for _ in 0..n {
            self.settle_duals();
            self.label.iter_mut().for_each(|x| *x = 0);
            self.bestedge.iter_mut().for_each(|x| *x = NONE);
            // A new stamp clears every edge's allowed flag in O(1).
            self.stage += 1;
            self.queue.clear();
            self.edge_queue.clear();
            self.labelled_blossoms.clear();
            self.to_free.clear();
            self.between.clear();
            self.shrinking.clear();
            self.moved = W::ZERO;
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.top(v)] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                loop {
                    // Single edges first: a retired tree's edges from S-vertices of others.
                    let (v, one) = if let Some((x, p)) = self.edge_queue.pop() {
                        (x, Some((p, self.endpoint(p))))
                    } else if let Some(v) = self.queue.pop() {
                        (v, None)
                    } else {
                        break;
                    };
                    if augmented && !self.harvest {
                        break;
                    }
                    // Harvesting: a vertex of a retired tree waits for a new label.
                    if self.label[self.top(v)] != 1 {
                        continue;
                    }
                    let gained = match one {
                        Some((p, w)) => self.scan_edge(v, p, w),
                        None => (0..self.neighbend[v].len()).any(|idx| {
                            let (p, w) = self.end(v, idx);
                            self.scan_edge(v, p, w)
                        }),
                    };
                    if gained {
                        augmented = true;
                        free -= 2;
                        if self.enough_free > 0 && free <= self.enough_free {
                            self.settle_duals();
                            return;
                        }
                    }
                }
                if augmented && !self.harvest {
                    break;
                }
                // Maximum-cardinality mode: no delta of type 1 until nothing else is left.
                let mut deltatype = 0u8;
                let mut delta = W::ZERO;
                if !self.max_cardinality {
                    deltatype = 1;
                    delta = (0..n).map(|v| self.y(v)).min().unwrap_or(W::ZERO);
                }
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                // Each type's least value, the lowest index first on ties (as a scan over
                // every vertex and blossom in index order would choose).
                if let Some((d, v)) = self.least_to_free()
                    && (deltatype == 0 || d < delta)
                {
                    delta = d;
                    deltatype = 2;
                    deltaedge = self.bestedge[v];
                }
                if let Some((d, k)) = self.least_between()
                    && (deltatype == 0 || d < delta)
                {
                    delta = d;
                    deltatype = 3;
                    deltaedge = k;
                }
                if let Some((d, b)) = self.least_shrinking()
                    && (deltatype == 0 || d < delta)
                {
                    delta = d;
                    deltatype = 4;
                    deltablossom = b;
                }
                if deltatype == 0 {
                    deltatype = 1;
                    delta = (0..n)
                        .map(|v| self.y(v))
                        .min()
                        .unwrap_or(W::ZERO)
                        .max(W::ZERO);
                }
                // Most steps only make an edge of zero slack usable: no dual moves.
                if delta != W::ZERO {
                    self.move_duals(delta);
                }
                self.moved = self.moved + delta;
                #[cfg(test)]
                self.assert_stage_invariants(deltatype);
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = self.stage;
                        let (mut i, j) = (self.eu(deltaedge), self.ev(deltaedge));
                        if self.label[self.top(i)] == 0 {
                            i = j;
                        }
                        debug_assert_eq!(self.label[self.top(i)], 1, "an S-vertex");
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = self.stage;
                        self.queue.push(self.eu(deltaedge));
                    }
                    _ => self.expand(deltablossom, Expansion::InStage),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == W::ZERO
                {
                    self.expand(b, Expansion::EndStage);
                }
            }
        }
        self.settle_duals();
    }

    /// Looks at edge `(v, w)` from S-vertex `v` (`p` is w's end of it): labels across it
    /// when it is tight (a new T-vertex, a blossom, or an augmentation, after which the two
    /// trees retire), else lists it for a dual step. True when it augmented.
    pub(super) fn scan_edge(&mut self, v: usize, p: usize, w: usize) -> bool {
        let k = p / 2;
        let top_w = self.top(w);
        if self.top(v) == top_w {
            return false;
        }
        let mut kslack = W::ZERO;
        if self.allowedge[k] != self.stage {
            kslack = self.y(v) + self.y(w) - self.ew[k];
            if kslack <= W::ZERO {
                self.allowedge[k] = self.stage;
            }
        }
        if self.allowedge[k] == self.stage {
            if self.label[top_w] == 0 {
                self.assign_label(w, 2, p ^ 1);
            } else if self.label[top_w] == 1 {
                let base = self.scan_blossom(v, w);
                if base != NONE {
                    self.add_blossom(base, k);
                } else {
                    let roots = [self.tree_of(v), self.tree_of(w)];
                    self.augment_matching(k);
                    if self.harvest {
                        self.retire(roots);
                    }
                    return true;
                }
            } else if self.label[w] == 0 {
                self.label[w] = 2;
                self.labelend[w] = p ^ 1;
            }
        } else if self.label[top_w] == 1 {
            self.offer_between(v, k);
        } else if self.label[w] == 0
            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
        {
            self.set_best_to_free(w, k);
        }
        false
    }

    pub(super) fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.top(w);
        self.root[b] = if p == NONE {
            w
        } else {
            self.root[self.top(self.endpoint(p))]
        };
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.note_labelled_blossom(b);
        self.bestedge[w] = NONE;
        let leaves = if b < self.n {
            vec![b]
        } else {
            self.leaves_of(b)
        };
        let root = self.root[b];
        self.members[root].extend_from_slice(&leaves);
        let d = if t == 1 { 1 } else { -1 };
        for &v in &leaves {
            self.set_dir(v, d);
        }
        if t == 1 {
            self.queue.extend(leaves);
        } else if t == 2 {
            if b >= self.n {
                self.shrinking.set(b, self.dualvar[b] + self.moved, 0);
            }
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint(mb), 1, mb ^ 1);
        }
    }

    /// The root of the tree holding labelled vertex `v`.
    pub(super) fn tree_of(&self, v: usize) -> usize {
        self.root[self.top(v)]
    }

    /// Lists non-trivial blossom `b` as labelled at top level this stage.
    pub(super) fn note_labelled_blossom(&mut self, b: usize) {
        if b >= self.n && self.blossom_listed[b] != self.stage {
            self.blossom_listed[b] = self.stage;
            self.labelled_blossoms.push(b);
        }
    }

    /// One dual step of `delta` for the blossoms: top-level S-blossoms up, T-blossoms
    /// down (vertex duals follow `moved`, see `dir`). Harvesting leaves retired entries in
    /// the list; once they are most of it, it is compacted (their stamps cleared, so a
    /// blossom labelled again is listed again, once).
    pub(super) fn move_duals(&mut self, delta: W) {
        let mut idle = 0;
        for &b in &self.labelled_blossoms {
            let top = self.blossomparent[b] == NONE && self.blossombase[b] != NONE;
            match self.label[b] {
                1 if top => self.dualvar[b] = self.dualvar[b] + delta,
                2 if top => self.dualvar[b] = self.dualvar[b] - delta,
                _ => idle += 1,
            }
        }
        if idle * 2 > self.labelled_blossoms.len() {
            let (label, parent, base) = (&self.label, &self.blossomparent, &self.blossombase);
            let listed = &mut self.blossom_listed;
            self.labelled_blossoms.retain(|&b| {
                let keep = label[b] != 0 && parent[b] == NONE && base[b] != NONE;
                if !keep {
                    listed[b] = 0;
                }
                keep
            });
        }
    }

    /// Sets unlabelled vertex `v`'s best edge (to an S-vertex) and lists it for dual steps.
    pub(super) fn set_best_to_free(&mut self, v: usize, k: usize) {
        self.bestedge[v] = k;
        self.to_free.set(v, self.slack(k) + self.moved, k);
    }

    /// Lists edge `k` as S-vertex `v`'s best edge to another top-level S-blossom, unless
    /// `v` already lists one that becomes tight no later.
    pub(super) fn offer_between(&mut self, v: usize, k: usize) {
        let kslack = self.slack(k);
        debug_assert!(!kslack.is_odd());
        let key = kslack.half() + self.moved;
        if self.between.key(v).is_none_or(|old| key < old) {
            self.between.set(v, key, k);
        }
    }

    /// The least dual step that makes an unlabelled vertex's best edge tight, with the
    /// vertex (the lowest on ties).
    pub(super) fn least_to_free(&mut self) -> Option<(W, usize)> {
        while let Some((key, v, k)) = self.to_free.peek() {
            if self.label[self.top(v)] == 0 && self.bestedge[v] == k {
                let x = if self.eu(k) == v {
                    self.ev(k)
                } else {
                    self.eu(k)
                };
                if self.label[self.top(x)] == 1 && self.slack(k) == key - self.moved {
                    return Some((key - self.moved, v));
                }
                // Harvesting: an end of the edge was retired (or was for a while, so its
                // slack no longer moves with the key): find v's best edge again.
                self.to_free.pop();
                self.find_best_to_free(v);
                continue;
            }
            self.to_free.pop();
        }
        None
    }

    /// S-vertex `v`'s best edge to another top-level S-blossom, from all its edges.
    pub(super) fn find_best_between(&mut self, v: usize) {
        let bv = self.top(v);
        let mut best: Option<(W, usize)> = None;
        for (p, x) in self.ends(v) {
            let bx = self.top(x);
            if bx != bv && self.label[bx] == 1 {
                let kslack = self.slack(p / 2);
                if best.is_none_or(|(s, _)| kslack < s) {
                    best = Some((kslack, p / 2));
                }
            }
        }
        if let Some((kslack, k)) = best {
            self.between.set(v, kslack.half() + self.moved, k);
        }
    }

    /// Unlabelled vertex `v`'s best edge to an S-vertex, from all its edges.
    pub(super) fn find_best_to_free(&mut self, v: usize) {
        self.bestedge[v] = NONE;
        let mut best: Option<(W, usize)> = None;
        for (p, x) in self.ends(v) {
            if self.label[self.top(x)] == 1 && self.top(x) != self.top(v) {
                let kslack = self.slack(p / 2);
                if best.is_none_or(|(b, _)| kslack < b) {
                    best = Some((kslack, p / 2));
                }
            }
        }
        if let Some((_, k)) = best {
            self.set_best_to_free(v, k);
        }
    }

    /// The least dual step that makes an edge between two top-level S-blossoms tight,
    /// with the edge (the lowest vertex's on ties).
    ///
    /// Each S-vertex lists at most one such edge, and every edge between two S-blossoms
    /// is covered by the entry of the end scanned last (its key no later than the edge's)
    /// until that entry surfaces. An entry found stale there — the edge now inside one
    /// blossom (blossoms merged), or an end retired or unlabelled for a while — is
    /// replaced by the vertex's best edge from all its edges, so the covering holds.
    /// Keeping one best edge per blossom instead meant merging the children's lists on
    /// every new blossom: in the bench binary's `--child 30000 5` run one solve went
    /// through 190 million list entries for 101,000 blossom steps (counted with temporary
    /// instrumentation).
    pub(super) fn least_between(&mut self) -> Option<(W, usize)> {
        while let Some((key, v, k)) = self.between.peek() {
            self.between.pop();
            if self.label[self.top(v)] != 1 {
                // v left the forest; it lists again when it is scanned as an S-vertex.
                continue;
            }
            let (bu, bv) = (self.top(self.eu(k)), self.top(self.ev(k)));
            if bu != bv
                && self.label[bu] == 1
                && self.label[bv] == 1
                && self.slack(k).half() == key - self.moved
            {
                self.between.set(v, key, k);
                return Some((key - self.moved, k));
            }
            self.find_best_between(v);
        }
        None
    }

    /// The least dual step that brings a top-level T-blossom's dual to zero, with the
    /// blossom (the lowest on ties).
    pub(super) fn least_shrinking(&mut self) -> Option<(W, usize)> {
        while let Some((key, b, _)) = self.shrinking.peek() {
            if self.blossombase[b] != NONE
                && self.blossomparent[b] == NONE
                && self.label[b] == 2
                && self.dualvar[b] == key - self.moved
            {
                return Some((key - self.moved, b));
            }
            self.shrinking.pop();
        }
        None
    }
}
