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
///
/// Nodes are numbered as a heap (the root 1, leaf `k` at `leaves + k`); the lists of all
/// nodes of one level lie side by side in one array ([`BlockIndex::span`]), since a node
/// `h` levels above the leaves holds exactly the players of its `2^h` leaves. A list per
/// node cost two allocations per node and pass, 600,000 per pricing pass of a
/// 100,000-player round, and their headers a fifth of the index's memory.
pub(super) struct BlockIndex {
    /// Players in the block (the leaves holding one, the first `count` of them).
    count: usize,
    leaves: usize,
    /// Per node, at its span: its players' pairing places, ascending.
    place: Vec<u32>,
    /// Per inner node, at its span: how many of its first `k` players (`k` = 1..=len) are
    /// its left child's (none of its first 0).
    left: Vec<u32>,
}

/// The best values over a [`BlockIndex`] for one set of keys (see
/// [`BlockIndex::maxima`]), at the index's spans.
///
/// The running maxima are kept as `i128` below the block's largest value ([`below`]):
/// a whole field's weights take 384 bits at 100,000 players, and two lists of them per
/// level of every block were a fifth of a pricing pass's peak memory. A difference past
/// `i128` is floored, which only lists more partners (each is weighed exactly).
pub(super) struct Maxima<W> {
    /// Per node: the largest `key − f·place` from each entry to the end, below
    /// `after_top`.
    after: Vec<i128>,
    after_top: W,
    /// Per node: the largest `key + f·place` from the start to each entry, below
    /// `before_top`.
    before: Vec<i128>,
    before_top: W,
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
        let count = players.len();
        let leaves = count.next_power_of_two();
        let levels = leaves.trailing_zeros() as usize + 1;
        let mut place = vec![0u32; count * levels];
        let mut left = vec![0u32; count * (levels - 1)];
        for (k, v) in players.enumerate() {
            place[k] = u32::try_from(v).expect("fewer than 2^32 players");
        }
        let mut tree = BlockIndex {
            count,
            leaves,
            place: Vec::new(),
            left: Vec::new(),
        };
        // Level by level upwards: each node merges its two children's lists.
        for node in (1..leaves).rev() {
            let (at, len) = tree.span(node);
            let (a_at, a_len) = tree.span(2 * node);
            let (b_at, b_len) = tree.span(2 * node + 1);
            let (below, above) = place.split_at_mut(at);
            let (a, b) = (&below[a_at..a_at + a_len], &below[b_at..b_at + b_len]);
            let merged = &mut above[..len];
            let from_left = &mut left[at - count..at - count + len];
            let (mut x, mut y) = (0, 0);
            for k in 0..len {
                if y == b.len() || (x < a.len() && a[x] < b[y]) {
                    merged[k] = a[x];
                    x += 1;
                } else {
                    merged[k] = b[y];
                    y += 1;
                }
                from_left[k] = u32::try_from(x).expect("fewer than 2^32 players");
            }
        }
        tree.place = place;
        tree.left = left;
        tree
    }

    /// Where node `node`'s list starts in the level arrays, and how long it is: level
    /// `h` above the leaves starts at `h · count`, and the node's players are those of
    /// its leaves `from..from + 2^h` that hold one.
    fn span(&self, node: usize) -> (usize, usize) {
        let depth = node.ilog2();
        let height = self.leaves.trailing_zeros() - depth;
        let from = (node - (1 << depth)) << height;
        let lo = from.min(self.count);
        let hi = (from + (1 << height)).min(self.count);
        (height as usize * self.count + lo, hi - lo)
    }

    /// The players of node `node`, ascending by pairing place.
    fn places(&self, node: usize) -> &[u32] {
        let (at, len) = self.span(node);
        &self.place[at..at + len]
    }

    /// How many of inner node `node`'s first `s` players are its left child's.
    fn in_left(&self, node: usize, s: usize) -> usize {
        if s == 0 {
            return 0;
        }
        let at = self.span(node).0 - self.count;
        self.left[at + s - 1] as usize
    }

    /// The maxima for keys `key` (`None`: the player is never listed) and places weighed
    /// by `at`; `never` must lie below every floor [`BlockIndex::passing`] is given.
    pub(super) fn maxima<W: Weight>(
        &self,
        key: impl Fn(usize) -> Option<W>,
        at: impl Fn(usize) -> W,
        never: W,
    ) -> Maxima<W> {
        // The leaves' keys, and the block's largest values the maxima are kept below.
        let mut best = vec![never; 2 * self.leaves];
        let (mut after_top, mut before_top) = (never, never);
        for (k, &v) in self.place[..self.count].iter().enumerate() {
            if let Some(x) = key(v as usize) {
                best[self.leaves + k] = x;
                after_top = after_top.max(x - at(v as usize));
                before_top = before_top.max(x + at(v as usize));
            }
        }
        let mut after = vec![i128::MIN; self.place.len()];
        let mut before = vec![i128::MIN; self.place.len()];
        for node in 1..2 * self.leaves {
            let (from, len) = self.span(node);
            let ps = &self.place[from..from + len];
            let mut most = never;
            for (k, &v) in ps.iter().enumerate().rev() {
                if let Some(x) = key(v as usize) {
                    most = most.max(x - at(v as usize));
                }
                after[from + k] = below(most, after_top, never);
            }
            let mut most = never;
            for (k, &v) in ps.iter().enumerate() {
                if let Some(x) = key(v as usize) {
                    most = most.max(x + at(v as usize));
                }
                before[from + k] = below(most, before_top, never);
            }
        }
        for node in (1..self.leaves).rev() {
            best[node] = best[2 * node].max(best[2 * node + 1]);
        }
        Maxima {
            after,
            after_top,
            before,
            before_top,
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
        let s = self.places(1).partition_point(|&v| (v as usize) < i);
        let floors = (
            floor_below(floors.0, m.after_top),
            floor_below(floors.1, m.before_top),
        );
        let mut stack = vec![(1usize, 0usize, self.leaves, s)];
        while let Some((node, lo, hi, s)) = stack.pop() {
            if hi <= range.start || lo >= range.end {
                continue;
            }
            let (at, len) = self.span(node);
            let later = s < len && m.after[at + s] > floors.0;
            let before = earlier && s > 0 && m.before[at + s - 1] > floors.1;
            if !later && !before {
                continue;
            }
            if node >= self.leaves {
                out.push(node - self.leaves);
                continue;
            }
            let mid = (lo + hi) / 2;
            let in_left = self.in_left(node, s);
            stack.push((2 * node + 1, mid, hi, s - in_left));
            stack.push((2 * node, lo, mid, in_left));
        }
    }
}

/// `x − top` as a [`Maxima`] keeps it (`x` at most `top`): past `i128` it is floored
/// at `i128::MIN + 1`, and `never` (no key) is `i128::MIN`, below every floor.
fn below<W: Weight>(x: W, top: W, never: W) -> i128 {
    if x <= never {
        return i128::MIN;
    }
    (x - top)
        .to_i128()
        .map_or(i128::MIN + 1, |d| d.max(i128::MIN + 1))
}

/// A floor against values kept by [`below`] under `top`: past `i128` it is clamped, so
/// that no stored value passes a floor above every one, and every value but `never`
/// passes a floor below every one.
fn floor_below<W: Weight>(floor: W, top: W) -> i128 {
    let d = floor - top;
    d.to_i128()
        .unwrap_or(if d > W::ZERO { i128::MAX } else { i128::MIN })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::wide::I384;

    /// Keys hundreds of bits apart (a whole field's duals): the maxima's values below the
    /// block's largest are floored past `i128`, so a walk may list more than pass, but
    /// never less, and exactly those where the keys lie close together.
    #[test]
    fn block_walks_with_keys_past_i128_miss_no_passing_partner() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        let wide = |x: i128, high: i128| {
            I384::from_i128(high)
                .scaled(1 << 40)
                .scaled(1 << 60)
                .scaled(1 << 60)
                + I384::from_i128(x)
        };
        for case in 0..200 {
            let n = rng.gen_range(1..=60);
            let players: Vec<usize> = (0..n).filter(|_| rng.gen_bool(0.7)).collect();
            let spread = rng.gen_bool(0.5);
            let keys: Vec<I384> = (0..n)
                .map(|_| {
                    let high = if spread { rng.gen_range(-3..=3) } else { 0 };
                    wide(rng.gen_range(-200..200), high)
                })
                .collect();
            let at = |v: usize| I384::from_i128(3 * v as i128);
            let most = keys.iter().copied().max().expect("a player");
            let never = -most - wide(0, 4) - at(n);
            let tree = BlockIndex::new(players.iter().copied());
            let m = tree.maxima(|v| Some(keys[v]), at, never);
            for _ in 0..20 {
                let i = rng.gen_range(0..n);
                let floor = keys[rng.gen_range(0..n)] - I384::from_i128(rng.gen_range(0..300));
                let floors = (floor - at(i), floor + at(i));
                let mut got = Vec::new();
                tree.passing(&m, 0..players.len(), i, floors, true, &mut got);
                let want: Vec<usize> = (0..players.len())
                    .filter(|&k| {
                        let j = players[k];
                        if j >= i {
                            keys[j] - at(j) > floors.0
                        } else {
                            keys[j] + at(j) > floors.1
                        }
                    })
                    .collect();
                assert!(
                    want.iter().all(|k| got.contains(k)),
                    "case {case}: player {i}: {want:?} not all in {got:?}"
                );
                if !spread {
                    assert_eq!(got, want, "case {case}: player {i}, keys close together");
                }
            }
        }
    }

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
