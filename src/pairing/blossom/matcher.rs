//! The solver's state, `Matcher`: the edge lists, pairs, duals, labels and blossoms of
//! one solve, with the plain accessors every other part reads them through (an edge's
//! ends and slack, a vertex's dual and its top-level blossom, a blossom's vertices).
//! It decides nothing: the stages (`stage.rs`), blossoms (`blossoms.rs`) and starts
//! (`restart.rs`, `snapshot.rs`, `repair.rs`) change it, keeping the invariants the
//! module documentation lists.

use super::{NONE, narrow, packed_end};
use crate::pairing::heap::IdHeap;
use crate::pairing::wide::Weight;

/// A first-in, first-out list of vertices. Read positions are dropped once they are most
/// of the list, so a stage that runs for a whole solve keeps it small. (`VecDeque` pairs
/// the same; its ring buffer made the bench child's `--child 100000 5` 9% slower,
/// 33.9/35.7 -> 37.0/39.2 s CPU, run alternately.)
#[derive(Default)]
pub(super) struct Fifo {
    pub(super) items: Vec<usize>,
    head: usize,
}

impl Fifo {
    pub(super) fn push(&mut self, v: usize) {
        self.items.push(v);
    }

    pub(super) fn extend(&mut self, vs: impl IntoIterator<Item = usize>) {
        self.items.extend(vs);
    }

    pub(super) fn pop(&mut self) -> Option<usize> {
        let v = *self.items.get(self.head)?;
        self.head += 1;
        if self.head >= 1 << 16 && self.head * 2 > self.items.len() {
            self.items.drain(..self.head);
            self.head = 0;
        }
        Some(v)
    }

    pub(super) fn clear(&mut self) {
        self.items.clear();
        self.head = 0;
    }
}

/// How [`Matcher::expand`] opens a blossom.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Expansion {
    /// A T-blossom whose dual reached zero during a stage: its children are relabelled.
    InStage,
    /// An S-blossom with a zero dual at the end of a stage: children with a zero dual
    /// are opened too.
    EndStage,
    /// Outside any stage, one level only ([`PerfectMatcher::add_edges`]): the children
    /// stay blossoms whatever their duals.
    OneLevel,
}

pub(super) struct Matcher<W: Weight> {
    pub(super) n: usize,
    /// Edge endpoints (32 bits, see [`packed_end`]; endpoint `2k` is `edge_u[k]`, `2k + 1`
    /// is `edge_v[k]`) and doubled weights.
    pub(super) edge_u: Vec<u32>,
    pub(super) edge_v: Vec<u32>,
    pub(super) ew: Vec<W>,
    /// Each vertex's edges as (remote endpoint index, remote vertex).
    pub(super) neighbend: Vec<Vec<(u32, u32)>>,
    /// `mate[v]` is the remote endpoint index of v's matched edge.
    pub(super) mate: Vec<usize>,
    pub(super) label: Vec<u8>,
    pub(super) labelend: Vec<usize>,
    /// The top-level blossom holding vertex v is `owner[hand[v]]` ([`Matcher::top`]):
    /// every vertex of a top-level blossom carries that blossom's handle, a vertex of its
    /// largest child. A new blossom takes over its largest child's handle, so only the
    /// vertices of its other children are relabelled; expanding it gives the handle back
    /// to that child and relabels the others. A vertex is relabelled only when the
    /// blossom around it at least doubles (made) or halves (expanded), where writing the
    /// new blossom into every vertex cost O(n) per blossom on the deeply nested blossoms
    /// of large fields.
    pub(super) hand: Vec<u32>,
    pub(super) owner: Vec<u32>,
    /// Each blossom's handle (a vertex is its own), and how many vertices it holds.
    pub(super) handle: Vec<usize>,
    pub(super) size: Vec<usize>,
    pub(super) blossomparent: Vec<usize>,
    pub(super) blossomchilds: Vec<Vec<usize>>,
    pub(super) blossombase: Vec<usize>,
    pub(super) blossomendps: Vec<Vec<usize>>,
    /// An unlabelled vertex's best edge to an S-vertex (see `to_free`).
    pub(super) bestedge: Vec<usize>,
    pub(super) unusedblossoms: Vec<usize>,
    pub(super) dualvar: Vec<W>,
    /// Edge k is allowed (tight) in this stage when `allowedge[k] == stage`.
    pub(super) allowedge: Vec<u32>,
    pub(super) stage: u32,
    /// S-vertices to scan, first in, first out: scanning them in the order they were
    /// labelled grows every tree breadth first. Taking the newest first (depth first) let
    /// trees run along long alternating paths and absorb each other; bench child, CPU s,
    /// back to back: `--child 100000 R` rounds 3/5/9 44-46/37-41/47-49 -> 39/31/36, and
    /// `--child 30000 R` 5.9/5.8/5.5 -> 5.8/5.1/4.7.
    pub(super) queue: Fifo,
    /// Single edges to scan, (S-vertex, the other end's endpoint index), ahead of `queue`
    /// (see [`Matcher::retire`]).
    pub(super) edge_queue: Vec<(usize, usize)>,
    pub(super) max_cardinality: bool,
    /// Perfect matching only: a stage does not end at its first augmentation. The two
    /// trees an augmentation joins are retired ([`Matcher::retire`]) and the other trees
    /// keep their labels, go on scanning and take further dual steps, so they are not
    /// rebuilt from scratch after every augmentation (see [`Matcher::solve`]).
    pub(super) harvest: bool,
    /// A solve may stop once no more than this many vertices are free (a start for a
    /// larger solve that is known to leave that many unpaired; see
    /// [`PerfectMatcher::stop_at_free`]).
    pub(super) enough_free: usize,
    /// The root (free vertex) of each labelled top-level blossom's tree.
    pub(super) root: Vec<usize>,
    /// The vertices each tree (by its root) has labelled this stage, for
    /// [`Matcher::retire`]; a vertex may since have left the tree.
    pub(super) members: Vec<Vec<usize>>,
    /// Stamps for one [`Matcher::retire`] call: blossoms already reset, vertices queued.
    pub(super) retired: Vec<u32>,
    pub(super) requeued: Vec<u32>,
    pub(super) retires: u32,
    /// How each vertex's dual moves with `moved` (see [`Matcher::y`]): +1 while its
    /// top-level blossom is an S-blossom (its dual goes down), -1 while a T-blossom (up),
    /// 0 otherwise. A dual step then costs nothing per vertex; a vertex's stored value is
    /// rebased whenever its direction changes.
    pub(super) dir: Vec<i8>,
    /// The candidates for each kind of dual step, as min-heaps keyed by value plus
    /// `moved` at the time they were set, so dual steps need not rekey them, with one
    /// entry per vertex or blossom (setting it again moves it): an entry is checked
    /// against the current state when it reaches the top and dropped if it is stale.
    /// `to_free`: (slack + moved, vertex, edge) of an unlabelled vertex's best edge to an
    /// S-vertex; `between`: (slack / 2 + moved, vertex, edge) of an S-vertex's best edge
    /// to another top-level S-blossom (see [`Matcher::least_between`]); `shrinking`:
    /// (z + moved, blossom) of a top-level T-blossom.
    pub(super) to_free: IdHeap<W>,
    pub(super) between: IdHeap<W>,
    pub(super) shrinking: IdHeap<W>,
    /// The total dual step of this stage so far.
    pub(super) moved: W,
    /// Non-trivial blossoms labelled at top level this stage (each once;
    /// `blossom_listed[b] == stage`), so a dual step visits them rather than every
    /// blossom; an entry may since have been merged, expanded or retired.
    pub(super) labelled_blossoms: Vec<usize>,
    pub(super) blossom_listed: Vec<u32>,
}

impl<W: Weight> Matcher<W> {
    pub(super) fn mates(&self) -> Vec<Option<usize>> {
        self.mate
            .iter()
            .map(|&p| {
                if p == NONE {
                    None
                } else {
                    Some(self.endpoint(p))
                }
            })
            .collect()
    }

    /// The solver over `edges` with each weight taken as `weigh(w)` (a start's scale),
    /// read straight from the caller's list: a scaled copy of it first cost as much
    /// memory again as the list (222 MB at the join of a 100,000-player round).
    pub(super) fn new(n: usize, edges: &[(usize, usize, W)], weigh: impl Fn(W) -> W) -> Self {
        let nedge = edges.len();
        let mut edge_u = Vec::with_capacity(nedge);
        let mut edge_v = Vec::with_capacity(nedge);
        let mut ew = Vec::with_capacity(nedge);
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(u, v, w)) in edges.iter().enumerate() {
            debug_assert!(u != v && u < n && v < n);
            edge_u.push(narrow(u));
            edge_v.push(narrow(v));
            ew.push(weigh(w).double());
            neighbend[u].push(packed_end(2 * k + 1, v));
            neighbend[v].push(packed_end(2 * k, u));
        }
        let maxweight = ew.iter().copied().max().unwrap_or(W::ZERO).max(W::ZERO);
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(W::ZERO, n));
        let mut blossombase: Vec<usize> = (0..n).collect();
        blossombase.extend(std::iter::repeat_n(NONE, n));
        Matcher {
            n,
            edge_u,
            edge_v,
            ew,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            hand: (0..n).map(narrow).collect(),
            owner: (0..n).map(narrow).collect(),
            handle: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            size: std::iter::repeat_n(1, n)
                .chain(std::iter::repeat_n(0, n))
                .collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase,
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; n],
            unusedblossoms: (n..2 * n).rev().collect(),
            dualvar,
            allowedge: vec![0; nedge],
            stage: 0,
            queue: Fifo::default(),
            edge_queue: Vec::new(),
            max_cardinality: true,
            harvest: false,
            enough_free: 0,
            root: vec![NONE; 2 * n],
            members: vec![Vec::new(); n],
            retired: vec![0; 2 * n],
            requeued: vec![0; n],
            retires: 0,
            dir: vec![0; n],
            to_free: IdHeap::new(n),
            between: IdHeap::new(n),
            shrinking: IdHeap::new(2 * n),
            moved: W::ZERO,
            labelled_blossoms: Vec::new(),
            blossom_listed: vec![0; 2 * n],
        }
    }

    /// Edge `k`'s first end.
    #[inline]
    pub(super) fn eu(&self, k: usize) -> usize {
        self.edge_u[k] as usize
    }

    /// Edge `k`'s second end.
    #[inline]
    pub(super) fn ev(&self, k: usize) -> usize {
        self.edge_v[k] as usize
    }

    /// The vertex at endpoint `p`: edge `p / 2`'s first end when `p` is even.
    #[inline]
    pub(super) fn endpoint(&self, p: usize) -> usize {
        if p & 1 == 0 {
            self.eu(p / 2)
        } else {
            self.ev(p / 2)
        }
    }

    /// Vertex `v`'s `idx`-th edge as (the far end's endpoint index, the far vertex).
    #[inline]
    pub(super) fn end(&self, v: usize, idx: usize) -> (usize, usize) {
        let (p, x) = self.neighbend[v][idx];
        (p as usize, x as usize)
    }

    /// Vertex `v`'s edges, as [`Matcher::end`] gives them.
    pub(super) fn ends(&self, v: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.neighbend[v]
            .iter()
            .map(|&(p, x)| (p as usize, x as usize))
    }

    pub(super) fn slack(&self, k: usize) -> W {
        self.y(self.eu(k)) + self.y(self.ev(k)) - self.ew[k]
    }

    /// Vertex `v`'s dual: the stored value less `moved` while its blossom is an
    /// S-blossom, plus `moved` while a T-blossom.
    #[inline]
    pub(super) fn y(&self, v: usize) -> W {
        match self.dir[v] {
            1 => self.dualvar[v] - self.moved,
            -1 => self.dualvar[v] + self.moved,
            _ => self.dualvar[v],
        }
    }

    /// Gives vertex `v` direction `d` (see `dir`), keeping its dual.
    #[inline]
    pub(super) fn set_dir(&mut self, v: usize, d: i8) {
        if self.dir[v] == d {
            return;
        }
        let y = self.y(v);
        self.dir[v] = d;
        self.dualvar[v] = match d {
            1 => y + self.moved,
            -1 => y - self.moved,
            _ => y,
        };
    }

    /// Every vertex's dual stored as it is (before `moved` restarts, and for the
    /// solver's callers).
    pub(super) fn settle_duals(&mut self) {
        for v in 0..self.n {
            self.set_dir(v, 0);
        }
    }

    /// Room for `more` edges ([`super::reserve_more`]).
    pub(super) fn reserve_edges(&mut self, more: usize) {
        super::reserve_more(&mut self.edge_u, more);
        super::reserve_more(&mut self.edge_v, more);
        super::reserve_more(&mut self.ew, more);
        super::reserve_more(&mut self.allowedge, more);
    }

    /// Appends edge `(u, v)` with internal weight `ew`; returns its index.
    pub(super) fn push_edge(&mut self, u: usize, v: usize, ew: W) -> usize {
        debug_assert!(u != v && u < self.n && v < self.n);
        let k = self.ew.len();
        self.edge_u.push(narrow(u));
        self.edge_v.push(narrow(v));
        self.ew.push(ew);
        self.neighbend[u].push(packed_end(2 * k + 1, v));
        self.neighbend[v].push(packed_end(2 * k, u));
        self.allowedge.push(0);
        k
    }

    /// The endpoint index naming `to` on an edge from `from` to `to`, found in `from`'s
    /// edge list (the callers rebuild a state over edges they know are there).
    pub(super) fn endpoint_towards(&self, from: usize, to: usize) -> usize {
        self.ends(from)
            .find(|&(_, x)| x == to)
            .map(|(p, _)| p)
            .expect("the solved parts' edges are all given")
    }

    /// How many blossoms hold vertex `v`.
    pub(super) fn depth(&self, v: usize) -> usize {
        let (mut b, mut d) = (self.blossomparent[v], 0);
        while b != NONE {
            b = self.blossomparent[b];
            d += 1;
        }
        d
    }

    /// Undoes vertex `v`'s pair, if it has one.
    pub(super) fn unpair(&mut self, v: usize) {
        let p = self.mate[v];
        if p != NONE {
            let end = self.endpoint(p);
            self.mate[end] = NONE;
            self.mate[v] = NONE;
        }
    }

    /// The top-level blossom (or lone vertex) holding vertex `v`.
    #[inline]
    pub(super) fn top(&self, v: usize) -> usize {
        self.owner[self.hand[v] as usize] as usize
    }

    /// Makes `b` the owner of its handle, relabelling its vertices unless they already
    /// carry it (when `b` was the largest child of the blossom around it).
    pub(super) fn own_handle(&mut self, b: usize, relabel: bool) {
        let h = self.handle[b];
        self.owner[h] = narrow(b);
        if relabel {
            self.label_vertices(b, h);
        }
    }

    /// Gives new blossom `b` of children `childs` its size and the handle of its largest
    /// child (see `hand`); returns that child.
    pub(super) fn adopt_handle(&mut self, b: usize, childs: &[usize]) -> usize {
        let big = *childs
            .iter()
            .max_by_key(|&&c| self.size[c])
            .expect("a blossom has children");
        self.handle[b] = self.handle[big];
        self.size[b] = childs.iter().map(|&c| self.size[c]).sum();
        big
    }

    /// Writes handle `h` into every vertex of `b`.
    pub(super) fn label_vertices(&mut self, b: usize, h: usize) {
        if b < self.n {
            self.hand[b] = narrow(h);
        } else {
            for idx in 0..self.blossomchilds[b].len() {
                self.label_vertices(self.blossomchilds[b][idx], h);
            }
        }
    }

    /// The first vertex of `b`, in [`Matcher::leaves`] order, that carries a label of
    /// its own (NONE if none does), without listing the others: the odd children of an
    /// expanding T-blossom are searched this way, often for a vertex near the start.
    pub(super) fn first_labelled_leaf(&self, b: usize) -> usize {
        if b < self.n {
            return if self.label[b] != 0 { b } else { NONE };
        }
        for &t in &self.blossomchilds[b] {
            let found = self.first_labelled_leaf(t);
            if found != NONE {
                return found;
            }
        }
        NONE
    }

    pub(super) fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    pub(super) fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The queue gives vertices back in the order they came, across the compactions of
    /// long stages, and keeps only what is unread.
    #[test]
    fn fifo_keeps_order_and_drops_what_was_read() {
        let mut q = Fifo::default();
        let (mut next_in, mut next_out) = (0usize, 0usize);
        for round in 0..400_000 {
            q.push(next_in);
            next_in += 1;
            if round % 3 != 0 {
                q.extend([next_in, next_in + 1]);
                next_in += 2;
            }
            for _ in 0..2 {
                if let Some(v) = q.pop() {
                    assert_eq!(v, next_out);
                    next_out += 1;
                }
            }
            assert!(q.items.len() - q.head == next_in - next_out);
            assert!(q.items.len() <= 2 * (next_in - next_out) + (1 << 17));
        }
        while let Some(v) = q.pop() {
            assert_eq!(v, next_out);
            next_out += 1;
        }
        assert_eq!(next_out, next_in);
        q.clear();
        assert_eq!(q.pop(), None);
    }
}
