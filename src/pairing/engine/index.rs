//! The search structures a pricing pass walks ([`super::price`]): the optimum's blossoms
//! laid out so each is one run of players ([`Laminar`]), and per block of players a
//! segment tree over their pairing places ([`BlockIndex`]) with the best keys over it
//! ([`Maxima`]).
//!
//! Owns listing exactly the partners that pass a floor, in ascending order. It knows
//! nothing of costs or criteria: the floors come from the pass.

use crate::pairing::blossom::Optimum;
use crate::pairing::wide::Weight;

/// The optimum's blossoms (those with a non-zero dual) as a tree over the players, laid
/// out so that each blossom's players are one run of [`Laminar::order`]. Nodes: vertex
/// `v` is `v`, blossom `b` is `vertices + b`, and the root (no blossom) comes last.
pub(super) struct Laminar<W> {
    /// Every vertex, depth first through the family.
    pub(super) order: Vec<usize>,
    /// Each vertex's place in `order`.
    pub(super) at: Vec<usize>,
    /// Each node's run of `order`.
    pub(super) span: Vec<(usize, usize)>,
    pub(super) children: Vec<Vec<usize>>,
    /// The doubled duals of each node's blossom and every blossom around it (0 at the root).
    pub(super) z_above: Vec<W>,
    vertices: usize,
}

impl<W: Weight> Laminar<W> {
    pub(super) fn new(opt: &Optimum<W>) -> Laminar<W> {
        let (parent, innermost, z) = opt.laminar();
        let vertices = innermost.len();
        let root = vertices + parent.len();
        let mut children = vec![Vec::new(); root + 1];
        for (v, b) in innermost.iter().enumerate() {
            children[b.map_or(root, |b| vertices + b)].push(v);
        }
        for (b, p) in parent.iter().enumerate() {
            children[p.map_or(root, |p| vertices + p)].push(vertices + b);
        }
        let mut order = Vec::with_capacity(vertices);
        let mut span = vec![(0, 0); root + 1];
        let mut z_above = vec![W::ZERO; root + 1];
        // Depth first without recursion (blossoms nest hundreds deep).
        let mut stack = vec![(root, 0usize)];
        span[root].0 = 0;
        while let Some(top) = stack.last_mut() {
            let (node, next) = *top;
            if let Some(&child) = children[node].get(next) {
                top.1 += 1;
                span[child].0 = order.len();
                if child < vertices {
                    order.push(child);
                    span[child].1 = order.len();
                } else {
                    z_above[child] = z_above[node] + z[child - vertices];
                    stack.push((child, 0));
                }
            } else {
                span[node].1 = order.len();
                stack.pop();
            }
        }
        let mut at = vec![0; vertices];
        for (place, &v) in order.iter().enumerate() {
            at[v] = place;
        }
        Laminar {
            order,
            at,
            span,
            children,
            z_above,
            vertices,
        }
    }

    /// The blossoms and the root: the nodes whose children can be paired across.
    pub(super) fn inner_nodes(&self) -> std::ops::Range<usize> {
        self.vertices..self.children.len()
    }

    /// Vertices in a node.
    pub(super) fn size(&self, node: usize) -> usize {
        self.span[node].1 - self.span[node].0
    }
}

/// One block's players (in the family's order) as a segment tree whose every node keeps
/// its players sorted by pairing place; with a [`Maxima`] over it (the best `key −
/// f·place` among a node's players after any place, the best `key + f·place` among those
/// before it), the partners of player `i` in a run of the block that pass `key[j] − f·|j
/// − i| > floor` are listed in time proportional to their number times the tree's
/// depth: `i`'s place among a node's players is searched for at the root only and
/// carried down to each child through `left`, not searched for again (fractional
/// cascading).
pub(super) struct BlockIndex {
    leaves: usize,
    /// Per node: its players' pairing places, ascending.
    place: Vec<Vec<usize>>,
    /// Per inner node: how many of its first `k` players (`k` = 0..=len) are its left
    /// child's.
    left: Vec<Vec<u32>>,
}

/// The best values over a [`BlockIndex`] for one set of keys (see
/// [`BlockIndex::maxima`]).
pub(super) struct Maxima<W> {
    /// Per node: the largest `key − f·place` from each entry to the end.
    after: Vec<Vec<W>>,
    /// Per node: the largest `key + f·place` from the start to each entry.
    before: Vec<Vec<W>>,
    /// The largest key in each node's players, as a tree over the leaves (node 1 the
    /// root, leaf `k` at `leaves + k`): a blossom's best key per block is asked for at
    /// every blossom a pass enters, and a scan of the leaves took over a quarter of a
    /// 100,000-player round in fold order, whose blossoms nest thousands deep.
    key: Vec<W>,
    leaves: usize,
}

impl<W: Weight> Maxima<W> {
    /// The largest key at leaves `from..to`.
    pub(super) fn best_key(&self, from: usize, to: usize) -> Option<W> {
        if from >= to {
            return None;
        }
        let (mut lo, mut hi) = (from + self.leaves, to + self.leaves);
        let mut best = self.key[lo];
        while lo < hi {
            if lo & 1 == 1 {
                best = best.max(self.key[lo]);
                lo += 1;
            }
            if hi & 1 == 1 {
                hi -= 1;
                best = best.max(self.key[hi]);
            }
            lo /= 2;
            hi /= 2;
        }
        Some(best)
    }
}

impl BlockIndex {
    pub(super) fn new(players: impl ExactSizeIterator<Item = usize>) -> BlockIndex {
        let leaves = players.len().next_power_of_two();
        let mut place = vec![Vec::new(); 2 * leaves];
        let mut left = vec![Vec::new(); leaves];
        for (k, v) in players.enumerate() {
            place[leaves + k].push(v);
        }
        for node in (1..leaves).rev() {
            let (a, b) = (&place[2 * node], &place[2 * node + 1]);
            let mut merged = Vec::with_capacity(a.len() + b.len());
            let mut from_left = Vec::with_capacity(a.len() + b.len() + 1);
            from_left.push(0u32);
            let (mut x, mut y) = (0, 0);
            while x < a.len() || y < b.len() {
                if y == b.len() || (x < a.len() && a[x] < b[y]) {
                    merged.push(a[x]);
                    x += 1;
                } else {
                    merged.push(b[y]);
                    y += 1;
                }
                from_left.push(u32::try_from(x).expect("fewer than 2^32 players"));
            }
            place[node] = merged;
            left[node] = from_left;
        }
        BlockIndex {
            leaves,
            place,
            left,
        }
    }

    /// The maxima for keys `key` (`None`: the player is never listed) and places weighed
    /// by `at`; `never` must lie below every floor [`BlockIndex::passing`] is given.
    pub(super) fn maxima<W: Weight>(
        &self,
        key: impl Fn(usize) -> Option<W>,
        at: impl Fn(usize) -> W,
        never: W,
    ) -> Maxima<W> {
        let mut after = vec![Vec::new(); 2 * self.leaves];
        let mut before = vec![Vec::new(); 2 * self.leaves];
        for node in 1..2 * self.leaves {
            let ps = &self.place[node];
            let mut suffix = vec![never; ps.len()];
            let mut best = never;
            for (k, &v) in ps.iter().enumerate().rev() {
                if let Some(x) = key(v) {
                    best = best.max(x - at(v));
                }
                suffix[k] = best;
            }
            let mut prefix = Vec::with_capacity(ps.len());
            let mut best = never;
            for &v in ps {
                if let Some(x) = key(v) {
                    best = best.max(x + at(v));
                }
                prefix.push(best);
            }
            after[node] = suffix;
            before[node] = prefix;
        }
        let mut best = vec![never; 2 * self.leaves];
        for k in 0..self.leaves {
            if let Some(&v) = self.place[self.leaves + k].first() {
                best[self.leaves + k] = key(v).unwrap_or(never);
            }
        }
        for node in (1..self.leaves).rev() {
            best[node] = best[2 * node].max(best[2 * node + 1]);
        }
        Maxima {
            after,
            before,
            key: best,
            leaves: self.leaves,
        }
    }

    /// Appends, ascending, every leaf in `range` whose player `j` passes under `m`:
    /// `key[j] − f·j > floors.0` when `j` comes after `i` in pairing order, `key[j] +
    /// f·j > floors.1` when before (only if `earlier`).
    pub(super) fn passing<W: Weight>(
        &self,
        m: &Maxima<W>,
        range: std::ops::Range<usize>,
        i: usize,
        floors: (W, W),
        earlier: bool,
        out: &mut Vec<usize>,
    ) {
        // Depth first from the root, left child first, skipping nodes outside the range
        // or none of whose players can pass. `s` counts the node's players before i.
        let s = self.place[1].partition_point(|&v| v < i);
        let mut stack = vec![(1usize, 0usize, self.leaves, s)];
        while let Some((node, lo, hi, s)) = stack.pop() {
            if hi <= range.start || lo >= range.end {
                continue;
            }
            let len = self.place[node].len();
            let later = s < len && m.after[node][s] > floors.0;
            let before = earlier && s > 0 && m.before[node][s - 1] > floors.1;
            if !later && !before {
                continue;
            }
            if node >= self.leaves {
                out.push(node - self.leaves);
                continue;
            }
            let mid = (lo + hi) / 2;
            let in_left = self.left[node][s] as usize;
            stack.push((2 * node + 1, mid, hi, s - in_left));
            stack.push((2 * node, lo, mid, in_left));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block's walk lists exactly the leaves a brute-force filter keeps, ascending,
    /// with every player's key and with some players masked out of the maxima.
    #[test]
    fn block_walks_list_exactly_the_passing_partners() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        for case in 0..300 {
            let n = rng.gen_range(1..=70);
            // A block: some players of a field of n, in a shuffled (family) order.
            let mut players: Vec<usize> = (0..n).filter(|_| rng.gen_bool(0.6)).collect();
            for k in (1..players.len()).rev() {
                players.swap(k, rng.gen_range(0..=k));
            }
            let keys: Vec<i64> = (0..n).map(|_| rng.gen_range(-200..200)).collect();
            let masked: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.3)).collect();
            let step = rng.gen_range(0..4i64);
            let at = |v: usize| step * v as i64;
            let never = -keys.iter().copied().max().unwrap_or(0) - at(n) - 1;
            let tree = BlockIndex::new(players.iter().copied());
            let full = tree.maxima(|v| Some(keys[v]), at, never);
            let part = tree.maxima(|v| (!masked[v]).then(|| keys[v]), at, never);
            for _ in 0..20 {
                let i = rng.gen_range(0..n);
                // As in `price`: a cost bound and blossom duals (never negative) less
                // i's key.
                let floor = rng.gen_range(0..250) - keys[i];
                let floors = (floor - at(i), floor + at(i));
                let earlier = rng.gen_bool(0.5);
                let from = rng.gen_range(0..=players.len());
                let to = rng.gen_range(from..=players.len());
                for (m, skip) in [(&full, false), (&part, true)] {
                    let best = (from..to)
                        .map(|k| players[k])
                        .map(|j| if skip && masked[j] { never } else { keys[j] })
                        .max();
                    assert_eq!(
                        m.best_key(from, to),
                        best,
                        "case {case}: best of {from}..{to}"
                    );
                    let mut got = Vec::new();
                    tree.passing(m, from..to, i, floors, earlier, &mut got);
                    let want: Vec<usize> = (from..to)
                        .filter(|&k| {
                            let j = players[k];
                            !(skip && masked[j])
                                && if j >= i {
                                    keys[j] - at(j) > floors.0
                                } else {
                                    earlier && keys[j] + at(j) > floors.1
                                }
                        })
                        .collect();
                    assert_eq!(got, want, "case {case}: player {i}, leaves {from}..{to}");
                }
            }
        }
    }
}
