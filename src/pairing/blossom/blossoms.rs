//! Blossoms inside a stage: finding the base of a new odd cycle (`scan_blossom`),
//! shrinking it into a blossom (`add_blossom`), opening one (`expand`, in a stage, at
//! its end or one level outside any stage), and swapping pairs along an augmenting
//! path through nested blossoms (`augment_matching`).

use super::matcher::{Expansion, Matcher};
use super::{NONE, narrow};
use crate::pairing::wide::Weight;

impl<W: Weight> Matcher<W> {
    pub(super) fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.top(v);
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint(self.labelend[b]);
                b = self.top(v);
                v = self.endpoint(self.labelend[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    pub(super) fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = (self.eu(k), self.ev(k));
        let bb = self.top(base);
        let mut bv = self.top(v);
        let mut bw = self.top(w);
        let b = self
            .unusedblossoms
            .pop()
            .expect("at most n blossoms exist at once");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        self.root[b] = self.root[bb];
        self.note_labelled_blossom(b);
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint(self.labelend[bv]);
            bv = self.top(v);
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint(self.labelend[bw]);
            bw = self.top(w);
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::ZERO;
        // T-children become S: their vertices are scanned. b takes its largest child's
        // handle; the other children's vertices are relabelled to it.
        let big = self.adopt_handle(b, &path);
        let h = self.handle[big];
        let mut queue = std::mem::take(&mut self.queue);
        for &c in &path {
            if self.label[c] == 2 {
                let from = queue.items.len();
                self.leaves(c, &mut queue.items);
                for &v in &queue.items[from..] {
                    self.set_dir(v, 1);
                }
            }
            if c != big {
                self.label_vertices(c, h);
            }
        }
        self.owner[h] = narrow(b);
        self.queue = queue;
        // S-children keep their vertices' best edges to other S-blossoms (those now
        // inside b are found stale when they surface in `between`); the T-children's
        // vertices, queued above, list theirs when they are scanned.
    }

    pub(super) fn expand(&mut self, b: usize, how: Expansion) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            self.root[s] = self.root[b];
            // The child that lent b its handle takes it back; the others' vertices are
            // relabelled with their own.
            self.own_handle(s, self.handle[s] != self.handle[b]);
            if s >= self.n && how == Expansion::EndStage && self.dualvar[s] == W::ZERO {
                self.expand(s, how);
            }
        }
        if how == Expansion::InStage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let at = |j: isize| j.rem_euclid(len) as usize;
            let endps = self.blossomendps[b].clone();
            let entrychild = self.top(self.endpoint(self.labelend[b] ^ 1));
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child belongs to the blossom") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let q = self.endpoint(p ^ 1);
                self.label[q] = 0;
                let r = self.endpoint(endps[at(j - endptrick as isize)] ^ endptrick ^ 1);
                self.label[r] = 0;
                self.assign_label(q, 2, p);
                self.allowedge[endps[at(j - endptrick as isize)] / 2] = self.stage;
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = self.stage;
                j += jstep;
            }
            let bv = childs[at(j)];
            let q = self.endpoint(p ^ 1);
            self.label[q] = 2;
            self.label[bv] = 2;
            self.labelend[q] = p;
            self.labelend[bv] = p;
            if bv < self.n {
                self.bestedge[bv] = NONE;
            }
            self.note_labelled_blossom(bv);
            if bv >= self.n {
                self.shrinking.set(bv, self.dualvar[bv] + self.moved, 0);
            }
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let found = self.first_labelled_leaf(bv);
                if found != NONE {
                    let v = found;
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    let end = self.endpoint(mb);
                    self.label[end] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
            // Vertices left unlabelled keep the best edges they had: list them again.
            for &s in &childs {
                if self.label[s] == 0 {
                    for v in self.leaves_of(s) {
                        self.set_dir(v, 0);
                        let k = self.bestedge[v];
                        if k != NONE {
                            self.to_free.set(v, self.slack(k) + self.moved, k);
                        }
                    }
                }
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.handle[b] = NONE;
        self.size[b] = 0;
        self.unusedblossoms.push(b);
    }

    /// Swaps the matched and unmatched edges on the even path from vertex `v` to the base
    /// of blossom `b`, making `v` the base: each blossom from the innermost one holding
    /// `v` out to `b` in turn. Blossoms nest thousands deep in large fields (each new one
    /// wraps the last and two more players), so the chain from `v` up to `b` is walked
    /// once, not once per level.
    pub(super) fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut chain = Vec::new();
        let mut t = v;
        while t != b {
            chain.push(t);
            t = self.blossomparent[t];
        }
        // Blossom `chain[k + 1]` (or `b`) holds `chain[k]`: innermost first.
        for k in 0..chain.len() {
            let outer = chain.get(k + 1).copied().unwrap_or(b);
            self.augment_level(outer, chain[k], v);
        }
    }

    /// One level of [`Matcher::augment_blossom`]: within blossom `b`, whose child `t`
    /// holds `v` (already augmented inside `t`), rotates the cycle to start at `t`.
    pub(super) fn augment_level(&mut self, b: usize, t: usize, v: usize) {
        let len = self.blossomchilds[b].len() as isize;
        let at = |j: isize| j.rem_euclid(len) as usize;
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("child belongs to the blossom");
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            let p = self.blossomendps[b][at(j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p));
            }
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p ^ 1));
            }
            let end = self.endpoint(p);
            self.mate[end] = p ^ 1;
            let end = self.endpoint(p ^ 1);
            self.mate[end] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
        debug_assert_eq!(self.blossombase[b], v);
    }

    pub(super) fn augment_matching(&mut self, k: usize) {
        let (v, w) = (self.eu(k), self.ev(k));
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.top(s);
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint(self.labelend[bs]);
                let bt = self.top(t);
                s = self.endpoint(self.labelend[bt]);
                let j = self.endpoint(self.labelend[bt] ^ 1);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }
}
