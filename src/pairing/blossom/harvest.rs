//! Harvesting (perfect matching only): after an augmentation, the two trees it joined
//! are taken out of the stage (`Matcher::retire`) while the other trees keep their
//! labels and grow on, so a stage is not rebuilt from scratch after every augmentation.
//! It owns keeping the other trees' candidate lists true to what was retired
//! (invariant 9 of the module documentation: the fault it once broke).

use super::NONE;
use super::matcher::{Expansion, Matcher};
use crate::pairing::wide::Weight;

impl<W: Weight> Matcher<W> {
    /// Harvesting: takes the two trees just augmented out of the stage, so the other
    /// trees go on growing (and their duals on moving) without a restart. Their vertices
    /// become unlabelled (their S-blossoms with a zero dual expanded, as at the end of a
    /// stage), every allowed-edge stamp on their edges is cleared, and each S-vertex of
    /// another tree next to them is scanned again, which labels them across edges that
    /// are tight and lists the rest for dual steps. An unlabelled vertex whose best edge
    /// led into them finds its best edge again; an S-vertex's best edge into them is
    /// found stale when it surfaces in `between` (see [`Matcher::least_between`]).
    pub(super) fn retire(&mut self, roots: [usize; 2]) {
        let n = self.n;
        self.retires += 1;
        let stamp = self.retires;
        let in_trees = |m: &Self, v: usize| {
            let b = m.top(v);
            m.label[b] != 0 && roots.contains(&m.root[b])
        };
        let mut verts: Vec<usize> = Vec::new();
        for r in roots {
            let list = std::mem::take(&mut self.members[r]);
            verts.extend(list.into_iter().filter(|&v| in_trees(self, v)));
        }
        verts.sort_unstable();
        verts.dedup();
        let mut tops: Vec<usize> = verts
            .iter()
            .map(|&v| self.top(v))
            .filter(|&b| b >= n)
            .collect();
        tops.sort_unstable();
        tops.dedup();
        for b in tops {
            if self.blossomparent[b] == NONE
                && self.blossombase[b] != NONE
                && self.label[b] == 1
                && self.dualvar[b] == W::ZERO
            {
                self.expand(b, Expansion::EndStage);
            }
        }
        for &v in &verts {
            self.set_dir(v, 0);
            self.label[v] = 0;
            self.labelend[v] = NONE;
            self.bestedge[v] = NONE;
            let mut b = self.blossomparent[v];
            while b != NONE && self.retired[b] != stamp {
                self.retired[b] = stamp;
                self.label[b] = 0;
                self.labelend[b] = NONE;
                b = self.blossomparent[b];
            }
        }
        for &v in &verts {
            for idx in 0..self.neighbend[v].len() {
                let (p, x) = self.end(v, idx);
                self.allowedge[p / 2] = 0;
                let bx = self.top(x);
                if self.label[bx] != 1 && self.bestedge[x] == p / 2 {
                    // A vertex whose best edge led to an S-vertex retired here: an
                    // unlabelled one, or one inside a T-blossom, which lists that edge
                    // again when the blossom expands (see `expand`). Left stale there, the
                    // edge's entry keeps a key its slack no longer follows, surfaces after
                    // the vertex's real best edge has gone past tight, and the dual step
                    // before it overshoots (invariant 9 at the top of the module).
                    self.find_best_to_free(x);
                }
                if self.label[bx] != 0
                    && self.labelend[x] != NONE
                    && self.endpoint(self.labelend[x]) == v
                {
                    // A vertex inside a T-blossom of another tree, labelled (for when the
                    // blossom expands) across an edge from a vertex retired here: take the
                    // label back and let its S-neighbours offer another.
                    self.label[x] = 0;
                    self.labelend[x] = NONE;
                    for idx2 in 0..self.neighbend[x].len() {
                        let y = self.end(x, idx2).1;
                        if self.label[self.top(y)] == 1 {
                            self.requeue(y, stamp);
                        }
                    }
                }
                if self.label[bx] == 1 {
                    // Only this edge of x changed: x is not scanned again whole.
                    self.edge_queue.push((x, p ^ 1));
                }
            }
        }
    }

    /// Queues S-vertex `x` for scanning once per [`Matcher::retire`] call.
    pub(super) fn requeue(&mut self, x: usize, stamp: u32) {
        if self.requeued[x] != stamp {
            self.requeued[x] = stamp;
            self.queue.push(x);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::pairing::blossom::max_weight_perfect_matching_dual;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Larger fields with many equal weights (as pairing costs have), where harvesting
    /// retires trees while others keep growing: the duals stay feasible after every
    /// step (`assert_feasible`) and the result carries a certificate.
    #[test]
    fn harvesting_keeps_the_duals_feasible_on_tied_weights() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for case in 0..1500 {
            let n = 2 * rng.gen_range(4..=40);
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.gen_bool(0.3) {
                        let w = i128::from(rng.gen_range(-6..=6)) * 4 - ((v - u) % 3) as i128;
                        edges.push((u, v, w));
                    }
                }
            }
            if let Some(opt) = max_weight_perfect_matching_dual(n, &edges) {
                opt.certify(&edges)
                    .unwrap_or_else(|e| panic!("case {case}: {e}: {edges:?}"));
            }
        }
    }
}
