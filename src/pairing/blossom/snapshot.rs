//! A solver's state taken out of it ([`Snapshot`]: duals, pairs and blossoms, the
//! blossoms around left-out vertices folded into their vertices) and solved parts
//! joined into one solver over a larger field ([`PerfectMatcher::join`]), every part's
//! solution kept whole and only the edges between parts made feasible.

use super::matcher::Matcher;
use super::{DOUBLING_MARGIN, NONE, PerfectMatcher, narrow};
use crate::pairing::wide::{Weight, widen};

/// A solver's state taken out of it ([`PerfectMatcher::snapshot`]) to start a larger
/// solve with ([`PerfectMatcher::join`]).
#[derive(Debug, PartialEq)]
pub struct Snapshot<W> {
    /// The solver's scale (see [`PerfectMatcher::scale`]).
    pub(super) scale: u64,
    /// Each vertex's dual, and its partner (NONE when unpaired).
    pub(super) y: Vec<W>,
    pub(super) mate: Vec<usize>,
    /// The blossoms, children before parents.
    pub(super) blossoms: Vec<SnapBlossom<W>>,
}

impl<W> Snapshot<W> {
    /// How many vertices it holds.
    pub fn vertices(&self) -> usize {
        self.y.len()
    }
}

impl<W: Weight> Snapshot<W> {
    /// The same state in a wider weight type, every dual carried over exactly: parts
    /// solved in narrow weights can start a solve whose other edges need more bits.
    /// `W`'s values must fit `i128` (the narrow types do).
    pub fn widen<V: Weight>(self) -> Snapshot<V> {
        Snapshot {
            scale: self.scale,
            y: self.y.into_iter().map(widen).collect(),
            mate: self.mate,
            blossoms: self
                .blossoms
                .into_iter()
                .map(|b| SnapBlossom {
                    childs: b.childs,
                    endps: b.endps,
                    base: b.base,
                    z: widen(b.z),
                    top: b.top,
                })
                .collect(),
        }
    }
}

/// Solved parts of a field, each with the number of its first vertex there (see
/// [`PerfectMatcher::join`]).
pub type Parts<W> = Vec<(usize, Snapshot<W>)>;

/// One blossom of a [`Snapshot`].
#[derive(Debug, PartialEq)]
pub(super) struct SnapBlossom<W> {
    /// Its cycle of children from the one holding its base: vertex `v` as `v`, the
    /// snapshot's `i`-th blossom as vertices + `i`.
    pub(super) childs: Vec<usize>,
    /// The edge from each child to the next as (the end the solver's endpoint names, the
    /// other end).
    pub(super) endps: Vec<(usize, usize)>,
    pub(super) base: usize,
    pub(super) z: W,
    /// Not inside another blossom.
    pub(super) top: bool,
}

impl<W: Weight> PerfectMatcher<W> {
    /// The solver's state as it stands, for [`PerfectMatcher::join`]: vertices `0..keep`
    /// with their duals, partners and blossoms. Vertices from `keep` on (a sink added to
    /// make a stretch even) are left out, and so is every blossom holding one: its dual
    /// moves into its vertices (every edge inside it keeps its slack, every edge leaving
    /// it gains), so only the pairs that cross its border lose their tightness and are
    /// undone, with the pairs of the vertices left out. Every other blossom is kept whole.
    pub fn snapshot(&self, keep: usize) -> Snapshot<W> {
        let m = &self.m;
        let n = m.n;
        let mut y: Vec<W> = (0..keep).map(|v| m.y(v)).collect();
        let mut mate: Vec<usize> = (0..keep)
            .map(|v| match m.mate[v] {
                NONE => NONE,
                p => m.endpoint(p),
            })
            .collect();
        for v in keep..n {
            if m.mate[v] != NONE {
                let u = m.endpoint(m.mate[v]);
                if u < keep {
                    mate[u] = NONE;
                }
            }
        }
        // The blossoms holding a vertex left out.
        let mut gone = vec![false; 2 * n];
        for v in keep..n {
            let mut b = m.blossomparent[v];
            while b != NONE && !gone[b] {
                gone[b] = true;
                b = m.blossomparent[b];
            }
        }
        // Every live blossom, children before parents (nesting runs thousands deep: no
        // recursion).
        let mut order = Vec::new();
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for b in n..2 * n {
            if m.blossombase[b] == NONE || m.blossomparent[b] != NONE {
                continue;
            }
            stack.push((b, 0));
            while let Some(&mut (t, ref mut next)) = stack.last_mut() {
                if let Some(&c) = m.blossomchilds[t].get(*next) {
                    *next += 1;
                    if c >= n {
                        stack.push((c, 0));
                    }
                } else {
                    order.push(t);
                    stack.pop();
                }
            }
        }
        // The duals of the blossoms left out move into their vertices, parents first.
        let mut folded = vec![W::ZERO; 2 * n];
        for &b in order.iter().rev() {
            let above = match m.blossomparent[b] {
                NONE => W::ZERO,
                p => folded[p],
            };
            folded[b] = above + if gone[b] { m.dualvar[b] } else { W::ZERO };
            if gone[b] && m.dualvar[b] != W::ZERO {
                let base = m.blossombase[b];
                if base < keep && mate[base] != NONE {
                    let partner = mate[base];
                    mate[partner] = NONE;
                    mate[base] = NONE;
                }
            }
        }
        for (v, y) in y.iter_mut().enumerate() {
            let p = m.blossomparent[v];
            if p != NONE {
                *y = *y + folded[p];
            }
        }
        let mut index = vec![NONE; 2 * n];
        let mut blossoms = Vec::new();
        for &b in &order {
            if gone[b] {
                continue;
            }
            index[b] = keep + blossoms.len();
            let parent = m.blossomparent[b];
            blossoms.push(SnapBlossom {
                childs: m.blossomchilds[b]
                    .iter()
                    .map(|&c| if c < n { c } else { index[c] })
                    .collect(),
                endps: m.blossomendps[b]
                    .iter()
                    .map(|&p| (m.endpoint(p), m.endpoint(p ^ 1)))
                    .collect(),
                base: m.blossombase[b],
                z: m.dualvar[b],
                top: parent == NONE || gone[parent],
            });
        }
        Snapshot {
            scale: self.scale,
            y,
            mate,
            blossoms,
        }
    }

    /// A solver over `vertices` and `edges` that starts from solved parts of it: each
    /// part a [`Snapshot`] whose vertices are numbered from its offset here, solved over
    /// every edge between its own vertices (or stopped early, any state a solve leaves).
    /// Every part keeps its duals, pairs and blossoms; only edges between parts (and
    /// those of vertices in no part, whose duals start at zero) can be priced negative,
    /// and they are made feasible as [`PerfectMatcher::add_edges`] does, undoing as
    /// little as it can. A start from vertex duals alone ([`PerfectMatcher::warm`]) has
    /// to fold every blossom's dual into its vertices, which undoes each blossom's pair
    /// to the outside: in the bench binary's `--child 100000 3`, the whole field's start
    /// from its score groups left 754 players unpaired where the groups had left 4; a
    /// join leaves 16–22 (counted with temporary instrumentation).
    ///
    /// `None` when lifting every part to one scale would leave too few bits of `W`.
    pub fn join(
        vertices: usize,
        edges: &[(usize, usize, W)],
        parts: Parts<W>,
    ) -> Option<PerfectMatcher<W>> {
        let scale = parts.iter().map(|p| p.1.scale).fold(2, u64::max);
        let widest = parts
            .iter()
            .map(|(_, snap)| {
                let up = (scale / snap.scale).trailing_zeros();
                let own = snap
                    .y
                    .iter()
                    .copied()
                    .chain(snap.blossoms.iter().map(|b| b.z));
                own.map(Weight::bits).max().unwrap_or(0) + up
            })
            .chain(
                edges
                    .iter()
                    .map(|e| e.2.bits() + scale.trailing_zeros() + 1),
            )
            .max()
            .unwrap_or(0);
        if widest + 1 + DOUBLING_MARGIN > W::BITS {
            return None;
        }
        let mut m = Matcher::new(vertices, edges, |w| w.scaled(scale));
        m.max_cardinality = true;
        m.harvest = true;
        m.dualvar[..vertices].fill(W::ZERO);
        let mut part_of = vec![NONE; vertices];
        for (which, (offset, snap)) in parts.into_iter().enumerate() {
            let up = scale / snap.scale;
            let count = snap.y.len();
            for (v, &y) in snap.y.iter().enumerate() {
                m.dualvar[offset + v] = y.scaled(up);
                part_of[offset + v] = which;
            }
            for (v, &u) in snap.mate.iter().enumerate() {
                if u != NONE && v < u {
                    let p = m.endpoint_towards(offset + v, offset + u);
                    m.mate[offset + v] = p;
                    m.mate[offset + u] = p ^ 1;
                }
            }
            let mut ids = Vec::with_capacity(snap.blossoms.len());
            for sb in snap.blossoms {
                let b = m
                    .unusedblossoms
                    .pop()
                    .expect("at most n blossoms exist at once");
                let childs: Vec<usize> = sb
                    .childs
                    .iter()
                    .map(|&c| {
                        if c < count {
                            offset + c
                        } else {
                            ids[c - count]
                        }
                    })
                    .collect();
                m.blossomendps[b] = sb
                    .endps
                    .iter()
                    .map(|&(x, other)| m.endpoint_towards(offset + other, offset + x))
                    .collect();
                m.adopt_handle(b, &childs);
                let h = m.handle[b];
                for &c in &childs {
                    m.blossomparent[c] = b;
                }
                m.blossomchilds[b] = childs;
                m.blossombase[b] = offset + sb.base;
                m.dualvar[b] = sb.z.scaled(up);
                if sb.top {
                    m.owner[h] = narrow(b);
                    m.label_vertices(b, h);
                }
                ids.push(b);
            }
        }
        let between: Vec<usize> = (0..m.ew.len())
            .filter(|&k| {
                let (u, v) = (part_of[m.eu(k)], part_of[m.ev(k)]);
                u == NONE || u != v
            })
            .collect();
        let mut joined = PerfectMatcher { m, scale };
        if !joined.make_feasible(between) {
            return None;
        }
        if cfg!(debug_assertions) {
            joined.m.assert_invariants();
        }
        Some(joined)
    }
}

#[cfg(test)]
mod tests {
    use crate::pairing::blossom::test_support::*;
    use crate::pairing::blossom::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Solves of parts of a graph, each over the edges inside it (odd parts with a sink
    /// any vertex may take, some solves stopped early, some given more edges), joined
    /// with their blossoms into a start for the whole graph (checked valid as it is
    /// built): it reaches the cold optimum's weight with a certificate.
    #[test]
    fn joined_parts_reach_the_optimum() {
        let mut rng = ChaCha8Rng::seed_from_u64(47);
        let (mut solved, mut blossoms_kept) = (0, 0);
        for case in 0..4000 {
            let n = 2 * rng.gen_range(2..=9);
            let maxw: i128 = if case % 3 == 0 { 3 } else { 1000 };
            let edges = random_edges(&mut rng, n, 0.5, maxw);
            let Some(cold) = max_weight_perfect_matching_dual(n, &edges) else {
                continue;
            };
            // Cut points; the vertices after the last one are in no part.
            let mut cuts = vec![0];
            while *cuts.last().unwrap() < n && cuts.len() < 4 {
                let at = *cuts.last().unwrap();
                cuts.push(rng.gen_range(at + 1..=n));
            }
            if rng.gen_bool(0.2) {
                cuts.pop();
            }
            let mut parts = Vec::new();
            for w in cuts.windows(2) {
                let (lo, hi) = (w[0], w[1]);
                let size = hi - lo;
                let mut local = edges_within(&edges, lo, hi);
                if size % 2 == 1 {
                    local.extend((0..size).map(|a| (a, size, -maxw)));
                }
                let total = size + size % 2;
                let later = local.split_off(local.len() / 2 * usize::from(rng.gen_bool(0.3)));
                let mut solver = PerfectMatcher::cold(total, &local);
                if !later.is_empty() {
                    solver.solve_partial();
                    assert!(solver.add_edges(&later), "case {case}");
                }
                if rng.gen_bool(0.3) {
                    solver.stop_at_free(2);
                }
                solver.solve_partial();
                let snap = solver.snapshot(size);
                blossoms_kept += snap.blossoms.len();
                parts.push((lo, snap));
            }
            let joined = PerfectMatcher::join(n, &edges, parts)
                .expect("small weights fit")
                .solve()
                .expect("a perfect matching exists");
            joined
                .certify(&edges)
                .unwrap_or_else(|e| panic!("case {case}: {e}: {edges:?}"));
            assert_eq!(
                score(&joined.mate, &edges),
                score(&cold.mate, &edges),
                "case {case}: {edges:?}"
            );
            solved += 1;
        }
        assert!(
            solved > 2000 && blossoms_kept > 500,
            "{solved} {blossoms_kept}"
        );
    }

    /// A join whose weights leave too few bits for the solver's doublings says so
    /// (the engine then starts cold) instead of overflowing.
    #[test]
    fn joins_too_wide_for_the_weight_type_are_refused() {
        let heavy = 1i128 << 121;
        let edges = vec![(0, 1, heavy), (2, 3, heavy), (1, 2, 1)];
        let parts = [(0, 2), (2, 4)]
            .into_iter()
            .map(|(lo, hi)| {
                let mut solver = PerfectMatcher::cold(hi - lo, &edges_within(&edges, lo, hi));
                solver.solve_partial();
                (lo, solver.snapshot(hi - lo))
            })
            .collect();
        assert!(PerfectMatcher::join(4, &edges, parts).is_none());
    }
}
