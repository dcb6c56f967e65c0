//! Maximum-weight matching in general graphs (Edmonds' blossom algorithm, O(n³)).
//!
//! Owns the matching primitive the pairing engine encodes its criteria into: hard
//! constraints are missing edges, the lexicographic criteria are integer weights, so the
//! pool is solved at once and never gets stuck where a pairing exists (docs/rules.md §2.3,
//! §2.6). It follows the primal-dual method of
//! Galil ("Efficient algorithms for finding maximum matching in graphs", 1986) in the
//! edge-list form that J. van Rantwijk's public-domain `mwmatching.py` made standard.
//! Everything is integer (weights are doubled internally so every dual stays whole) and
//! deterministic: the same edge list always gives the same matching.
//!
//! # Invariants
//!
//! The solver's state (`Matcher`) keeps these; every start ([`PerfectMatcher::cold`],
//! [`PerfectMatcher::warm`], [`PerfectMatcher::join`], [`PerfectMatcher::add_edges`])
//! establishes 1–6 and every solve keeps them. The unit tests check 1–6 after every start
//! and every solve (`Matcher::assert_invariants`) and 7–11 after every dual step
//! (`Matcher::assert_stage_invariants`).
//!
//! 1. *Pairs.* `mate` is symmetric and every pair is an edge of the graph.
//! 2. *Blossoms.* The live blossoms nest without overlapping. Each holds an odd cycle of
//!    at least three children (vertices or blossoms) joined by the edges
//!    `blossomendps` names, each child's `blossomparent` is that blossom, its base is its
//!    first child's base, its `size` counts its vertices, and `top(v)` is the outermost
//!    blossom (or `v` itself) holding `v`.
//! 3. *Feasible duals.* Every blossom's dual `z ≥ 0`, and every edge's slack counting the
//!    duals of the blossoms holding both its ends (`true_slack`) is `≥ 0`.
//! 4. *Tight structure.* Every pair and every edge of a blossom's cycle has slack 0.
//! 5. *Full blossoms.* A blossom of `2k + 1` vertices holds `k` pairs inside it; its base
//!    is paired outside it or free.
//! 6. *One parity.* Weights are held even and every free vertex's dual has one parity, so
//!    every vertex a stage labels (over tight edges) shares it, an edge between two
//!    S-vertices has an even slack, and the dual step that halves it stays whole.
//!
//! During a stage, after every dual step:
//!
//! 7. *Directions.* `dir[v]` is +1 while `top(v)` is an S-blossom, −1 while a
//!    T-blossom, 0 otherwise, so `y(v)` is `v`'s dual.
//! 8. *Feasible between blossoms.* Every edge between two top-level blossoms has slack
//!    `≥ 0` (invariant 3 for the edges the stage looks at).
//! 9. *Covered edges to the forest.* A vertex outside every S-blossom that carries no
//!    label of its own and has an edge to an S-blossom other than its own holds one of its
//!    least-slack such edges as `bestedge`; at top level that edge is listed in
//!    `to_free` at its slack (its key less `moved`), inside a T-blossom it is listed again
//!    when the blossom expands. A best edge left pointing at a vertex that has left the
//!    forest keeps a key its slack no longer follows, and the step chosen from the keys
//!    overshoots the real best edge: `Matcher::retire` broke this for vertices inside
//!    T-blossoms until it refreshed them too (docs/rules.md §2.6; the
//!    `regression_stale_best_edge_*` tests).
//! 10. *Covered edges between trees.* Every edge between two top-level S-blossoms is
//!     covered by a `between` entry of one of its ends whose key less `moved` is at most
//!     half its slack (see `Matcher::least_between`).
//! 11. *Shrinking T-blossoms.* Every top-level T-blossom is listed in `shrinking` at its
//!     dual (its key less `moved`).

use super::heap::IdHeap;
use super::wide::{Weight, widen};
use std::cmp::Reverse;
use std::sync::atomic::{AtomicU64, Ordering};

/// "No vertex / no edge / no endpoint".
const NONE: usize = usize::MAX;

/// One entry of a vertex's edge list: the far end's endpoint index and the far vertex,
/// in 32 bits each. The solver reads these lists more than anything else; 64-bit
/// entries made the bench binary's `--child 100000 3` run 47.4 s and 644 MiB, 32-bit
/// ones 43.6 s and 602 MiB (same pairings, measured back to back).
fn packed_end(p: usize, x: usize) -> (u32, u32) {
    (narrow(p), narrow(x))
}

/// An index in 32 bits, for the solver's most-read lists.
fn narrow(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^31 edges and vertices")
}

/// A first-in, first-out list of vertices. Read positions are dropped once they are most
/// of the list, so a stage that runs for a whole solve keeps it small. (`VecDeque` pairs
/// the same; its ring buffer made the bench child's `--child 100000 5` 9% slower,
/// 33.9/35.7 -> 37.0/39.2 s CPU, run alternately.)
#[derive(Default)]
struct Fifo {
    items: Vec<usize>,
    head: usize,
}

impl Fifo {
    fn push(&mut self, v: usize) {
        self.items.push(v);
    }

    fn extend(&mut self, vs: impl IntoIterator<Item = usize>) {
        self.items.extend(vs);
    }

    fn pop(&mut self) -> Option<usize> {
        let v = *self.items.get(self.head)?;
        self.head += 1;
        if self.head >= 1 << 16 && self.head * 2 > self.items.len() {
            self.items.drain(..self.head);
            self.head = 0;
        }
        Some(v)
    }

    fn clear(&mut self) {
        self.items.clear();
        self.head = 0;
    }
}

/// Finds a matching of maximum cardinality and, among those, of maximum total weight.
///
/// `edges` are `(u, v, weight)` with `u != v`, vertices numbered `0..vertices`. Returns
/// `mate[v]` (`None` when `v` stays unmatched).
pub fn max_weight_matching(vertices: usize, edges: &[(usize, usize, i128)]) -> Vec<Option<usize>> {
    matching(vertices, edges, true)
}

/// Finds a matching of maximum total weight, whatever its cardinality (edges of
/// negative weight are never worth taking).
pub fn max_weight_matching_any(
    vertices: usize,
    edges: &[(usize, usize, i128)],
) -> Vec<Option<usize>> {
    matching(vertices, edges, false)
}

fn matching(
    vertices: usize,
    edges: &[(usize, usize, i128)],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    if vertices == 0 || edges.is_empty() {
        return vec![None; vertices];
    }
    let mut m = Matcher::new(vertices, edges);
    m.max_cardinality = max_cardinality;
    m.solve();
    m.mates()
}

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
    blossom_z: Vec<W>,
    blossom_parent: Vec<usize>,
    /// Odd-set sizes: matched edges each blossom must hold (`(|B| − 1) / 2`).
    blossom_inner_pairs: Vec<usize>,
    /// The innermost such blossom holding each vertex (index into `blossom_z`), or NONE.
    vertex_blossom: Vec<usize>,
    /// Per blossom: how many kept blossoms hold it (0 at top level), its outermost
    /// ancestor, and its `z` plus every `z` around it, so [`Optimum::slack`] needs no walk
    /// for pairs in different top-level blossoms and no sums for the rest.
    depth: Vec<u32>,
    outermost: Vec<usize>,
    z_through: Vec<W>,
    /// A perfect-matching certificate: vertex duals may be negative, nobody unmatched.
    perfect: bool,
    /// How much the solver scaled the given weights (duals are in scaled units).
    scale: u64,
}

/// Solves [`max_weight_matching_any`] and keeps the duals for pricing and certification.
pub fn max_weight_matching_any_dual<W: Weight>(
    vertices: usize,
    edges: &[(usize, usize, W)],
) -> Optimum<W> {
    if vertices == 0 || edges.is_empty() {
        return Optimum::empty(vertices, false);
    }
    let mut m = Matcher::new(vertices, edges);
    m.max_cardinality = false;
    m.solve();
    m.optimum(false)
}

/// Solves in this process whose optimum its own certificate refused, so that the caller
/// solved again from a proven start (see [`note_refused_solve`]).
static REFUSED_SOLVES: AtomicU64 = AtomicU64::new(0);

/// Counts a solve whose optimum its certificate refused: the engine's per-pass safety net
/// calls it before solving that pass again (docs/rules.md §2.6).
pub(super) fn note_refused_solve() {
    REFUSED_SOLVES.fetch_add(1, Ordering::Relaxed);
}

/// How many solves in this process ended at a matching their certificate refused (the
/// target is none): for the pairing benchmark, which runs each round in a process of its
/// own.
pub fn refused_solves() -> u64 {
    REFUSED_SOLVES.load(Ordering::Relaxed)
}

/// A maximum-weight *perfect* matching with its certificate, or `None` when the edges
/// admit no perfect matching (see [`PerfectMatcher::cold`]).
pub fn max_weight_perfect_matching_dual<W: Weight>(
    vertices: usize,
    edges: &[(usize, usize, W)],
) -> Option<Optimum<W>> {
    if vertices == 0 {
        return Some(Optimum::empty(0, true));
    }
    PerfectMatcher::cold(vertices, edges).solve()
}

/// A maximum-weight perfect matching that can be given more edges after it is solved
/// and solved again from where it stopped: its blossoms, duals and pairs are kept, and
/// only what the new edges unsettle is undone (see [`PerfectMatcher::add_edges`]). This
/// is what pricing needs: each pass adds a few thousand pairs to a field of thousands
/// of nested blossoms, and dissolving them all before each re-solve (as a start from
/// vertex duals must) frees a pair for every blossom.
pub struct PerfectMatcher<W: Weight> {
    m: Matcher<W>,
    /// The factor between given weights and the solver's duals: an edge `(u, v, w)` is
    /// held as `2·scale·w` (see [`Optimum::scale`]); a power of two.
    scale: u64,
}

/// A solver's state taken out of it ([`PerfectMatcher::snapshot`]) to start a larger
/// solve with ([`PerfectMatcher::join`]).
#[derive(Debug, PartialEq)]
pub struct Snapshot<W> {
    /// The solver's scale (see [`PerfectMatcher::scale`]).
    scale: u64,
    /// Each vertex's dual, and its partner (NONE when unpaired).
    y: Vec<W>,
    mate: Vec<usize>,
    /// The blossoms, children before parents.
    blossoms: Vec<SnapBlossom<W>>,
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
struct SnapBlossom<W> {
    /// Its cycle of children from the one holding its base: vertex `v` as `v`, the
    /// snapshot's `i`-th blossom as vertices + `i`.
    childs: Vec<usize>,
    /// The edge from each child to the next as (the end the solver's endpoint names, the
    /// other end).
    endps: Vec<(usize, usize)>,
    base: usize,
    z: W,
    /// Not inside another blossom.
    top: bool,
}

/// Bits kept free above the largest value before the solver doubles everything: slacks
/// add four values, and blossom duals nest.
const DOUBLING_MARGIN: u32 = 4;

impl<W: Weight> PerfectMatcher<W> {
    /// The solver from a greedy jump-start: every vertex's dual at its heaviest edge,
    /// mutual heaviest edges matched, then free vertices' duals lowered to their next
    /// tight edge and matched again, so only the few players the greedy pass cannot
    /// settle cost a blossom search.
    ///
    /// Weights are doubled once more inside (so every starting dual is even, which keeps
    /// the solver's integer duals whole); [`Optimum::slack`] accounts for it.
    pub fn cold(vertices: usize, edges: &[(usize, usize, W)]) -> PerfectMatcher<W> {
        let doubled: Vec<(usize, usize, W)> =
            edges.iter().map(|&(u, v, w)| (u, v, w.double())).collect();
        let mut m = Matcher::new(vertices, &doubled);
        m.max_cardinality = true;
        m.harvest = true;
        m.jump_start();
        m.augment_tight();
        PerfectMatcher { m, scale: 2 }
    }

    /// The solver from a starting point: `duals` in units of 4 (this solve's
    /// [`Optimum::scale`]) and pairs `mates` to keep where they are still tight. Neither
    /// has to be feasible or optimal: an edge the duals price negative raises one end's
    /// dual until it is tight, odd duals are rounded up (every free vertex's dual must
    /// share one parity, see [`Matcher::solve`]), and pairs that are not tight are
    /// dropped. That leaves a feasible dual with a partial matching of tight edges, which
    /// is all the solver needs to start from; only the players left unpaired have to be
    /// settled, not the whole field. The optimum is the same as a cold solve's (both are
    /// certified), ties aside.
    ///
    /// Starts come from an earlier optimum ([`Optimum::warm_duals`]) or from optima of
    /// pieces of the field solved apart.
    pub fn warm(
        vertices: usize,
        edges: &[(usize, usize, W)],
        duals: &[W],
        mates: &[Option<usize>],
    ) -> PerfectMatcher<W> {
        debug_assert!(duals.len() == vertices && mates.len() == vertices);
        let quadrupled: Vec<(usize, usize, W)> = edges
            .iter()
            .map(|&(u, v, w)| (u, v, w.double().double()))
            .collect();
        let mut m = Matcher::new(vertices, &quadrupled);
        m.max_cardinality = true;
        m.harvest = true;
        for (v, &y) in duals.iter().enumerate() {
            // Rounding up only loosens edges.
            m.dualvar[v] = if y.is_odd() { y + W::from_i128(1) } else { y };
        }
        m.repair_duals();
        for (v, mate) in mates.iter().enumerate() {
            let Some(u) = *mate else { continue };
            if u < v || m.mate[v] != NONE || m.mate[u] != NONE {
                continue;
            }
            let tight = m
                .ends(v)
                .find(|&(p, w)| w == u && m.slack(p / 2) == W::ZERO)
                .map(|(p, _)| p);
            if let Some(p) = tight {
                m.mate[v] = p;
                m.mate[u] = p ^ 1;
            }
        }
        m.settle_free(false);
        m.augment_tight();
        PerfectMatcher { m, scale: 4 }
    }

    /// Lets the next solve stop as soon as at most `free` vertices are unpaired: for a
    /// start of a larger solve, where the edges are known to leave at least that many
    /// unpaired (proving that no more can be paired is most of such a solve's work).
    /// The duals stay feasible and every pair tight, as at any point of a solve.
    pub fn stop_at_free(&mut self, free: usize) {
        self.m.enough_free = free;
    }

    /// The count of free vertices [`PerfectMatcher::stop_at_free`] set (0 unless set).
    pub fn stops_at_free(&self) -> usize {
        self.m.enough_free
    }

    /// Solves from the current state: the optimum with its certificate, or `None` when
    /// the edges admit no perfect matching.
    pub fn solve(&mut self) -> Option<Optimum<W>> {
        let opt = self.solve_partial();
        opt.perfect.then_some(opt)
    }

    /// Solves as far as the edges allow: the optimum when they admit a perfect matching,
    /// else a matching of maximum cardinality with feasible duals that keep its pairs
    /// tight — a starting point for a larger solve, not a certificate (its weight need
    /// not be the largest of its size).
    pub fn solve_partial(&mut self) -> Optimum<W> {
        self.m.solve();
        let perfect = !self.m.mate.contains(&NONE);
        let mut opt = self.m.optimum(perfect);
        opt.scale = self.scale;
        opt
    }

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
        let held: Vec<(usize, usize, W)> = edges
            .iter()
            .map(|&(u, v, w)| (u, v, w.scaled(scale)))
            .collect();
        let mut m = Matcher::new(vertices, &held);
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
        #[cfg(debug_assertions)]
        joined.m.assert_invariants();
        Some(joined)
    }

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
        let mut held = Vec::with_capacity(edges.len());
        for &(u, v, w) in edges {
            held.push(self.m.push_edge(u, v, w.scaled(2 * self.scale)));
        }
        self.make_feasible(held)
    }

    /// Makes edges `held` feasible where the current duals price them negative, keeping
    /// the rest of the solution (see [`PerfectMatcher::add_edges`]), and gives every
    /// free vertex's dual one parity. False when that needs more bits than `W` has.
    fn make_feasible(&mut self, held: Vec<usize>) -> bool {
        // Raising an end already free costs no pair, and one raised end settles all its
        // short edges: prefer free ends, then ends with more short edges.
        #[cfg(debug_assertions)]
        let every: Vec<usize> = held
            .iter()
            .copied()
            .filter(|&k| self.m.true_slack(k) < W::ZERO)
            .collect();
        let short = self.m.short_edges(held);
        #[cfg(debug_assertions)]
        assert_eq!(short, every, "the short edges, walked edge by edge");
        let mut count = vec![0u32; self.m.n];
        for &k in &short {
            count[self.m.eu(k)] += 1;
            count[self.m.ev(k)] += 1;
        }
        // A repair only loosens other edges, so no edge found feasible here turns short.
        for k in short {
            if !self.repair(k, &count) {
                return false;
            }
        }
        self.one_parity()
    }

    /// Gives every free vertex's dual one parity (invariant 6; one doubling makes every
    /// value even) and settles the free lone vertices' duals. False when doubling needs
    /// more bits than `W` has.
    fn one_parity(&mut self) -> bool {
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

    /// Makes new edge `k` feasible (see [`PerfectMatcher::add_edges`]).
    fn repair(&mut self, k: usize, count: &[u32]) -> bool {
        let (u, v) = (self.m.eu(k), self.m.ev(k));
        let mut short = W::ZERO - self.m.true_slack(k);
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
                    if !self.double_all() {
                        return false;
                    }
                    short = short.double();
                    continue;
                }
                for leaf in self.m.leaves_of(t) {
                    self.m.dualvar[leaf] = self.m.dualvar[leaf] + d;
                }
                self.m.dualvar[t] = self.m.dualvar[t] - d;
                self.m.unpair(self.m.blossombase[t]);
                if !shared {
                    short = short - d;
                }
            }
            if short > W::ZERO {
                // The blossom's dual is spent (or both ends are in it): open it.
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
    fn add_edges_simply(&mut self, edges: &[(usize, usize, W)]) -> bool {
        let mut held = Vec::with_capacity(edges.len());
        for &(u, v, w) in edges {
            held.push(self.m.push_edge(u, v, w.scaled(2 * self.scale)));
        }
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
    fn double_all(&mut self) -> bool {
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

impl<W: Weight> Matcher<W> {
    /// Greedy dual start for perfect matching (see [`max_weight_perfect_matching_dual`]).
    fn jump_start(&mut self) {
        let n = self.n;
        // ew is 4w: the largest incident ew/2 is even and keeps every edge feasible.
        for v in 0..n {
            let best = self
                .ends(v)
                .map(|(p, _)| self.ew[p / 2].half())
                .max()
                .unwrap_or(W::ZERO);
            self.dualvar[v] = best;
        }
        self.match_tight_free();
        self.settle_free(false);
    }

    /// Pairs each free vertex with its first free neighbour over a tight edge.
    fn match_tight_free(&mut self) {
        for v in 0..self.n {
            if self.mate[v] == NONE {
                self.pair_over_tight(v);
            }
        }
    }

    /// Pairs free vertex `v` with its first free neighbour over a tight edge, if any.
    fn pair_over_tight(&mut self, v: usize) {
        for idx in 0..self.neighbend[v].len() {
            let (p, u) = self.end(v, idx);
            if self.mate[u] == NONE && self.slack(p / 2) == W::ZERO {
                self.mate[v] = p;
                self.mate[u] = p ^ 1;
                return;
            }
        }
    }

    /// Lowers each free lone vertex's dual to the least that keeps its edges feasible
    /// (keeping the parity every free vertex's dual shares, odd or even: see `solve`),
    /// then pairs it over a tight edge with a free neighbour where it can.
    fn settle_free(&mut self, odd: bool) {
        for v in 0..self.n {
            if self.mate[v] != NONE || self.top(v) != v {
                continue;
            }
            let need = self
                .ends(v)
                .map(|(p, u)| self.ew[p / 2] - self.dualvar[u])
                .max();
            if let Some(need) = need {
                self.dualvar[v] = if need.is_odd() == odd {
                    need
                } else {
                    need + W::from_i128(1)
                };
            }
            self.pair_over_tight(v);
        }
    }

    /// Makes every edge's slack non-negative by raising duals (before any vertex is
    /// matched): for each edge still short, the end with more short edges is raised to
    /// make it tight (kept even), so few vertices move.
    fn repair_duals(&mut self) {
        let short: Vec<usize> = (0..self.ew.len())
            .filter(|&k| self.slack(k) < W::ZERO)
            .collect();
        let mut count = vec![0u32; self.n];
        for &k in &short {
            count[self.eu(k)] += 1;
            count[self.ev(k)] += 1;
        }
        for k in short {
            if self.slack(k) >= W::ZERO {
                continue;
            }
            let (u, v) = (self.eu(k), self.ev(k));
            let (up, other) = if count[u] >= count[v] { (u, v) } else { (v, u) };
            let need = self.ew[k] - self.dualvar[other];
            self.dualvar[up] = if need.is_odd() {
                need + W::from_i128(1)
            } else {
                need
            };
        }
    }

    /// After [`Matcher::jump_start`], before any blossom exists: augments the matching
    /// along alternating paths of tight edges from each free vertex (depth first, a
    /// bounded number of vertices per search). The duals do not move and every matched
    /// edge stays tight, so the solver starts from a valid state with fewer free vertices,
    /// and each one it no longer has to settle saves a whole stage over the field.
    fn augment_tight(&mut self) {
        const REACH: usize = 256;
        let n = self.n;
        let mut seen = vec![NONE; n];
        // (outer vertex, index into its neighbours to try next, edge taken to get past it)
        let mut path: Vec<(usize, usize, usize)> = Vec::new();
        for root in 0..n {
            if self.mate[root] != NONE {
                continue;
            }
            seen[root] = root;
            path.clear();
            path.push((root, 0, NONE));
            let mut reached = 0;
            while let Some(&(v, next, _)) = path.last() {
                let Some((p, u)) = (next < self.neighbend[v].len()).then(|| self.end(v, next))
                else {
                    path.pop();
                    continue;
                };
                let top = path.len() - 1;
                path[top].1 += 1;
                if seen[u] == root || self.slack(p / 2) != W::ZERO {
                    continue;
                }
                seen[u] = root;
                if self.mate[u] == NONE {
                    path[top].2 = p;
                    for &(a, _, q) in &path {
                        self.mate[a] = q;
                        let end = self.endpoint(q);
                        self.mate[end] = q ^ 1;
                    }
                    break;
                }
                let x = self.endpoint(self.mate[u]);
                reached += 1;
                if seen[x] == root || reached > REACH {
                    continue;
                }
                seen[x] = root;
                path[top].2 = p;
                path.push((x, 0, NONE));
            }
        }
    }

    fn optimum(&self, perfect: bool) -> Optimum<W> {
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
            perfect,
            scale: 1,
        };
        opt.index_family();
        opt
    }
}

impl<W: Weight> Optimum<W> {
    fn empty(vertices: usize, perfect: bool) -> Optimum<W> {
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
            perfect,
            scale: 1,
        }
    }

    /// Fills `depth`, `outermost` and `z_through` (parents before children, whatever
    /// their indices).
    fn index_family(&mut self) {
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
        self.depth = depth;
        self.outermost = outermost;
        self.z_through = z_through;
    }

    /// The sum of `z` over the blossoms holding both `u` and `v`: that of their innermost
    /// common blossom and every one around it (no lists, as `slack` runs for every priced
    /// pair).
    fn shared_z(&self, u: usize, v: usize) -> W {
        let (mut a, mut b) = (self.vertex_blossom[u], self.vertex_blossom[v]);
        if a == NONE || b == NONE || self.outermost[a] != self.outermost[b] {
            return W::ZERO;
        }
        let up = |b: usize| self.blossom_parent[b];
        while self.depth[a] > self.depth[b] {
            a = up(a);
        }
        while self.depth[b] > self.depth[a] {
            b = up(b);
        }
        while a != b {
            a = up(a);
            b = up(b);
        }
        self.z_through[a]
    }

    /// The blossoms with a non-zero dual as a laminar family, for pricing: each one's
    /// enclosing blossom, the innermost one holding each vertex (indices into the first
    /// list, `None` for none), and each one's `z` in [`Optimum::slack`]'s units (doubled).
    pub(super) fn laminar(&self) -> (Vec<Option<usize>>, Vec<Option<usize>>, Vec<W>) {
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

    fn chain(&self, v: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut b = self.vertex_blossom[v];
        while b != NONE {
            out.push(b);
            b = self.blossom_parent[b];
        }
        out.reverse();
        out
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
        let matched = (0..n).filter(|&v| self.mate[v].is_some()).count() / 2;
        if matched_seen < matched {
            return Err("a matched pair is not among the edges".into());
        }
        // Full blossoms: count matched pairs with both ends inside each blossom.
        let mut inside = vec![0usize; self.blossom_z.len()];
        for v in 0..n {
            if let Some(u) = self.mate[v]
                && u > v
            {
                let (cu, cv) = (self.chain(u), self.chain(v));
                for (a, b) in cu.into_iter().zip(cv) {
                    if a != b {
                        break;
                    }
                    inside[a] += 1;
                }
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

/// How [`Matcher::expand`] opens a blossom.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expansion {
    /// A T-blossom whose dual reached zero during a stage: its children are relabelled.
    InStage,
    /// An S-blossom with a zero dual at the end of a stage: children with a zero dual
    /// are opened too.
    EndStage,
    /// Outside any stage, one level only ([`PerfectMatcher::add_edges`]): the children
    /// stay blossoms whatever their duals.
    OneLevel,
}

struct Matcher<W: Weight> {
    n: usize,
    /// Edge endpoints (32 bits, see [`packed_end`]; endpoint `2k` is `edge_u[k]`, `2k + 1`
    /// is `edge_v[k]`) and doubled weights.
    edge_u: Vec<u32>,
    edge_v: Vec<u32>,
    ew: Vec<W>,
    /// Each vertex's edges as (remote endpoint index, remote vertex).
    neighbend: Vec<Vec<(u32, u32)>>,
    /// `mate[v]` is the remote endpoint index of v's matched edge.
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    /// The top-level blossom holding vertex v is `owner[hand[v]]` ([`Matcher::top`]):
    /// every vertex of a top-level blossom carries that blossom's handle, a vertex of its
    /// largest child. A new blossom takes over its largest child's handle, so only the
    /// vertices of its other children are relabelled; expanding it gives the handle back
    /// to that child and relabels the others. A vertex is relabelled only when the
    /// blossom around it at least doubles (made) or halves (expanded), where writing the
    /// new blossom into every vertex cost O(n) per blossom on the deeply nested blossoms
    /// of large fields.
    hand: Vec<u32>,
    owner: Vec<u32>,
    /// Each blossom's handle (a vertex is its own), and how many vertices it holds.
    handle: Vec<usize>,
    size: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    /// An unlabelled vertex's best edge to an S-vertex (see `to_free`).
    bestedge: Vec<usize>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    /// Edge k is allowed (tight) in this stage when `allowedge[k] == stage`.
    allowedge: Vec<u32>,
    stage: u32,
    /// S-vertices to scan, first in, first out: scanning them in the order they were
    /// labelled grows every tree breadth first. Taking the newest first (depth first) let
    /// trees run along long alternating paths and absorb each other; bench child, CPU s,
    /// back to back: `--child 100000 R` rounds 3/5/9 44-46/37-41/47-49 -> 39/31/36, and
    /// `--child 30000 R` 5.9/5.8/5.5 -> 5.8/5.1/4.7.
    queue: Fifo,
    /// Single edges to scan, (S-vertex, the other end's endpoint index), ahead of `queue`
    /// (see [`Matcher::retire`]).
    edge_queue: Vec<(usize, usize)>,
    max_cardinality: bool,
    /// Perfect matching only: a stage does not end at its first augmentation. The two
    /// trees an augmentation joins are retired ([`Matcher::retire`]) and the other trees
    /// keep their labels, go on scanning and take further dual steps, so they are not
    /// rebuilt from scratch after every augmentation (see [`Matcher::solve`]).
    harvest: bool,
    /// A solve may stop once no more than this many vertices are free (a start for a
    /// larger solve that is known to leave that many unpaired; see
    /// [`PerfectMatcher::stop_at_free`]).
    enough_free: usize,
    /// The root (free vertex) of each labelled top-level blossom's tree.
    root: Vec<usize>,
    /// The vertices each tree (by its root) has labelled this stage, for
    /// [`Matcher::retire`]; a vertex may since have left the tree.
    members: Vec<Vec<usize>>,
    /// Stamps for one [`Matcher::retire`] call: blossoms already reset, vertices queued.
    retired: Vec<u32>,
    requeued: Vec<u32>,
    retires: u32,
    /// How each vertex's dual moves with `moved` (see [`Matcher::y`]): +1 while its
    /// top-level blossom is an S-blossom (its dual goes down), -1 while a T-blossom (up),
    /// 0 otherwise. A dual step then costs nothing per vertex; a vertex's stored value is
    /// rebased whenever its direction changes.
    dir: Vec<i8>,
    /// The candidates for each kind of dual step, as min-heaps keyed by value plus
    /// `moved` at the time they were set, so dual steps need not rekey them, with one
    /// entry per vertex or blossom (setting it again moves it): an entry is checked
    /// against the current state when it reaches the top and dropped if it is stale.
    /// `to_free`: (slack + moved, vertex, edge) of an unlabelled vertex's best edge to an
    /// S-vertex; `between`: (slack / 2 + moved, vertex, edge) of an S-vertex's best edge
    /// to another top-level S-blossom (see [`Matcher::least_between`]); `shrinking`:
    /// (z + moved, blossom) of a top-level T-blossom.
    to_free: IdHeap<W>,
    between: IdHeap<W>,
    shrinking: IdHeap<W>,
    /// The total dual step of this stage so far.
    moved: W,
    /// Non-trivial blossoms labelled at top level this stage (each once;
    /// `blossom_listed[b] == stage`), so a dual step visits them rather than every
    /// blossom; an entry may since have been merged, expanded or retired.
    labelled_blossoms: Vec<usize>,
    blossom_listed: Vec<u32>,
}

impl<W: Weight> Matcher<W> {
    fn mates(&self) -> Vec<Option<usize>> {
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

    fn new(n: usize, edges: &[(usize, usize, W)]) -> Self {
        let nedge = edges.len();
        let mut edge_u = Vec::with_capacity(nedge);
        let mut edge_v = Vec::with_capacity(nedge);
        let mut ew = Vec::with_capacity(nedge);
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(u, v, w)) in edges.iter().enumerate() {
            debug_assert!(u != v && u < n && v < n);
            edge_u.push(narrow(u));
            edge_v.push(narrow(v));
            ew.push(w.double());
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
    fn eu(&self, k: usize) -> usize {
        self.edge_u[k] as usize
    }

    /// Edge `k`'s second end.
    #[inline]
    fn ev(&self, k: usize) -> usize {
        self.edge_v[k] as usize
    }

    /// The vertex at endpoint `p`: edge `p / 2`'s first end when `p` is even.
    #[inline]
    fn endpoint(&self, p: usize) -> usize {
        if p & 1 == 0 {
            self.eu(p / 2)
        } else {
            self.ev(p / 2)
        }
    }

    /// Vertex `v`'s `idx`-th edge as (the far end's endpoint index, the far vertex).
    #[inline]
    fn end(&self, v: usize, idx: usize) -> (usize, usize) {
        let (p, x) = self.neighbend[v][idx];
        (p as usize, x as usize)
    }

    /// Vertex `v`'s edges, as [`Matcher::end`] gives them.
    fn ends(&self, v: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.neighbend[v]
            .iter()
            .map(|&(p, x)| (p as usize, x as usize))
    }

    fn slack(&self, k: usize) -> W {
        self.y(self.eu(k)) + self.y(self.ev(k)) - self.ew[k]
    }

    /// Vertex `v`'s dual: the stored value less `moved` while its blossom is an
    /// S-blossom, plus `moved` while a T-blossom.
    #[inline]
    fn y(&self, v: usize) -> W {
        match self.dir[v] {
            1 => self.dualvar[v] - self.moved,
            -1 => self.dualvar[v] + self.moved,
            _ => self.dualvar[v],
        }
    }

    /// Gives vertex `v` direction `d` (see `dir`), keeping its dual.
    #[inline]
    fn set_dir(&mut self, v: usize, d: i8) {
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
    fn settle_duals(&mut self) {
        for v in 0..self.n {
            self.set_dir(v, 0);
        }
    }

    /// Appends edge `(u, v)` with internal weight `ew`; returns its index.
    fn push_edge(&mut self, u: usize, v: usize, ew: W) -> usize {
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
    fn endpoint_towards(&self, from: usize, to: usize) -> usize {
        self.ends(from)
            .find(|&(_, x)| x == to)
            .map(|(p, _)| p)
            .expect("the solved parts' edges are all given")
    }

    /// Test and debug builds: invariants 1–6 of the module documentation, a state a
    /// solve can start from (and every solve ends in).
    #[cfg(any(test, debug_assertions))]
    fn assert_invariants(&self) {
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

    /// How many blossoms hold vertex `v`.
    fn depth(&self, v: usize) -> usize {
        let (mut b, mut d) = (self.blossomparent[v], 0);
        while b != NONE {
            b = self.blossomparent[b];
            d += 1;
        }
        d
    }

    /// Edge `k`'s slack counting the duals of the blossoms holding both its ends (which
    /// [`Matcher::slack`] leaves out, as the solver only looks at edges between
    /// top-level blossoms). Ends in different top-level blossoms share none; otherwise
    /// the walk goes up from the innermost blossom both ends share, found without
    /// building either chain (blossoms nest thousands deep, and pricing adds a hundred
    /// thousand edges at a time).
    fn true_slack(&self, k: usize) -> W {
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
    fn innermost_shared(&self, u: usize, v: usize, depth: impl Fn(usize) -> usize) -> usize {
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
    fn short_edges(&self, held: Vec<usize>) -> Vec<usize> {
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

    /// Undoes vertex `v`'s pair, if it has one.
    fn unpair(&mut self, v: usize) {
        let p = self.mate[v];
        if p != NONE {
            let end = self.endpoint(p);
            self.mate[end] = NONE;
            self.mate[v] = NONE;
        }
    }

    /// The top-level blossom (or lone vertex) holding vertex `v`.
    #[inline]
    fn top(&self, v: usize) -> usize {
        self.owner[self.hand[v] as usize] as usize
    }

    /// Makes `b` the owner of its handle, relabelling its vertices unless they already
    /// carry it (when `b` was the largest child of the blossom around it).
    fn own_handle(&mut self, b: usize, relabel: bool) {
        let h = self.handle[b];
        self.owner[h] = narrow(b);
        if relabel {
            self.label_vertices(b, h);
        }
    }

    /// Gives new blossom `b` of children `childs` its size and the handle of its largest
    /// child (see `hand`); returns that child.
    fn adopt_handle(&mut self, b: usize, childs: &[usize]) -> usize {
        let big = *childs
            .iter()
            .max_by_key(|&&c| self.size[c])
            .expect("a blossom has children");
        self.handle[b] = self.handle[big];
        self.size[b] = childs.iter().map(|&c| self.size[c]).sum();
        big
    }

    /// Writes handle `h` into every vertex of `b`.
    fn label_vertices(&mut self, b: usize, h: usize) {
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
    fn first_labelled_leaf(&self, b: usize) -> usize {
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

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
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

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
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

    fn add_blossom(&mut self, base: usize, k: usize) {
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

    fn expand(&mut self, b: usize, how: Expansion) {
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
    fn augment_blossom(&mut self, b: usize, v: usize) {
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
    fn augment_level(&mut self, b: usize, t: usize, v: usize) {
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

    fn augment_matching(&mut self, k: usize) {
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

    /// Sets unlabelled vertex `v`'s best edge (to an S-vertex) and lists it for dual steps.
    fn set_best_to_free(&mut self, v: usize, k: usize) {
        self.bestedge[v] = k;
        self.to_free.set(v, self.slack(k) + self.moved, k);
    }

    /// Lists edge `k` as S-vertex `v`'s best edge to another top-level S-blossom, unless
    /// `v` already lists one that becomes tight no later.
    fn offer_between(&mut self, v: usize, k: usize) {
        let kslack = self.slack(k);
        debug_assert!(!kslack.is_odd());
        let key = kslack.half() + self.moved;
        if self.between.key(v).is_none_or(|old| key < old) {
            self.between.set(v, key, k);
        }
    }

    /// The least dual step that makes an unlabelled vertex's best edge tight, with the
    /// vertex (the lowest on ties).
    fn least_to_free(&mut self) -> Option<(W, usize)> {
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
    fn find_best_between(&mut self, v: usize) {
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
    fn find_best_to_free(&mut self, v: usize) {
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
    fn least_between(&mut self) -> Option<(W, usize)> {
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
    fn least_shrinking(&mut self) -> Option<(W, usize)> {
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

    /// The root of the tree holding labelled vertex `v`.
    fn tree_of(&self, v: usize) -> usize {
        self.root[self.top(v)]
    }

    /// Lists non-trivial blossom `b` as labelled at top level this stage.
    fn note_labelled_blossom(&mut self, b: usize) {
        if b >= self.n && self.blossom_listed[b] != self.stage {
            self.blossom_listed[b] = self.stage;
            self.labelled_blossoms.push(b);
        }
    }

    /// One dual step of `delta` for the blossoms: top-level S-blossoms up, T-blossoms
    /// down (vertex duals follow `moved`, see `dir`). Harvesting leaves retired entries in
    /// the list; once they are most of it, it is compacted (their stamps cleared, so a
    /// blossom labelled again is listed again, once).
    fn move_duals(&mut self, delta: W) {
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

    /// Harvesting: takes the two trees just augmented out of the stage, so the other
    /// trees go on growing (and their duals on moving) without a restart. Their vertices
    /// become unlabelled (their S-blossoms with a zero dual expanded, as at the end of a
    /// stage), every allowed-edge stamp on their edges is cleared, and each S-vertex of
    /// another tree next to them is scanned again, which labels them across edges that
    /// are tight and lists the rest for dual steps. An unlabelled vertex whose best edge
    /// led into them finds its best edge again; an S-vertex's best edge into them is
    /// found stale when it surfaces in `between` (see [`Matcher::least_between`]).
    fn retire(&mut self, roots: [usize; 2]) {
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
                    // before it overshoots (invariant 6 at the top of the module).
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

    /// Unit tests: invariants 7–11 of the module documentation, after every dual step of
    /// type `step`.
    #[cfg(test)]
    fn assert_stage_invariants(&self, step: u8) {
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

    /// Queues S-vertex `x` for scanning once per [`Matcher::retire`] call.
    fn requeue(&mut self, x: usize, stamp: u32) {
        if self.requeued[x] != stamp {
            self.requeued[x] = stamp;
            self.queue.push(x);
        }
    }

    /// Looks at edge `(v, w)` from S-vertex `v` (`p` is w's end of it): labels across it
    /// when it is tight (a new T-vertex, a blossom, or an augmentation, after which the two
    /// trees retire), else lists it for a dual step. True when it augmented.
    fn scan_edge(&mut self, v: usize, p: usize, w: usize) -> bool {
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

    /// Edmonds' primal-dual stages from the current state (any feasible duals, tight
    /// matched pairs, valid blossoms). Integer duals stay whole because every free
    /// vertex's dual has one parity: the free vertices are the roots and all move by
    /// the same steps, every other labelled vertex joins a tree over a tight edge (even
    /// weights, so it takes its neighbour's parity), so two S-vertices always share a
    /// parity, an edge between them has an even slack and its step (half of it) is whole.
    /// Starts keep that: cold and warm starts make every free dual even, and
    /// [`PerfectMatcher::add_edges`] doubles every value when freed vertices disagree.
    fn solve(&mut self) {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Best (cardinality, weight) over every matching, by brute force.
    fn brute(n: usize, edges: &[(usize, usize, i128)]) -> (usize, i128) {
        fn go(
            v: usize,
            n: usize,
            used: &mut Vec<bool>,
            adj: &[Vec<(usize, i128)>],
            card: usize,
            w: i128,
            best: &mut (usize, i128),
        ) {
            if v == n {
                if (card, w) > *best {
                    *best = (card, w);
                }
                return;
            }
            if used[v] {
                return go(v + 1, n, used, adj, card, w, best);
            }
            used[v] = true;
            go(v + 1, n, used, adj, card, w, best);
            for &(u, wt) in &adj[v] {
                if !used[u] {
                    used[u] = true;
                    go(v + 1, n, used, adj, card + 1, w + wt, best);
                    used[u] = false;
                }
            }
            used[v] = false;
        }
        let mut adj = vec![Vec::new(); n];
        for &(u, v, w) in edges {
            adj[u].push((v, w));
            adj[v].push((u, w));
        }
        let mut best = (0, 0);
        go(0, n, &mut vec![false; n], &adj, 0, 0, &mut best);
        best
    }

    /// Best weight over every matching, whatever its size.
    fn brute_any(n: usize, edges: &[(usize, usize, i128)]) -> i128 {
        let positive: Vec<_> = edges.iter().copied().filter(|e| e.2 > 0).collect();
        let mut best = 0;
        for mask in 0u32..(1 << positive.len()) {
            let mut used = vec![false; n];
            let mut w = 0;
            let mut ok = true;
            for (k, &(u, v, wt)) in positive.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    if used[u] || used[v] {
                        ok = false;
                        break;
                    }
                    used[u] = true;
                    used[v] = true;
                    w += wt;
                }
            }
            if ok {
                best = best.max(w);
            }
        }
        best
    }

    fn score(mate: &[Option<usize>], edges: &[(usize, usize, i128)]) -> (usize, i128) {
        let mut card = 0;
        let mut w = 0;
        for &(u, v, wt) in edges {
            if mate[u] == Some(v) {
                assert_eq!(mate[v], Some(u));
                card += 1;
                w += wt;
            }
        }
        (card, w)
    }

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

    #[test]
    fn known_small_cases() {
        type Case = (usize, Vec<(usize, usize, i128)>, (usize, i128));
        let cases: Vec<Case> = vec![
            (2, vec![(0, 1, 1)], (1, 1)),
            (3, vec![(0, 1, 10), (1, 2, 11)], (1, 11)),
            (4, vec![(0, 1, 5), (1, 2, 11), (2, 3, 5)], (2, 10)),
            // A triangle plus a pendant forces a blossom.
            (
                4,
                vec![(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)],
                (2, 15),
            ),
        ];
        for (n, edges, want) in cases {
            let mate = max_weight_matching(n, &edges);
            assert_eq!(score(&mate, &edges), want, "{edges:?}");
        }
    }

    #[test]
    fn matches_brute_force_on_random_graphs() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..3000 {
            let n = rng.gen_range(1..=10);
            let density = rng.gen_range(0.2..1.0);
            let maxw = if case % 3 == 0 { 3 } else { 1000 };
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.gen_bool(density) {
                        edges.push((u, v, i128::from(rng.gen_range(-maxw..=maxw))));
                    }
                }
            }
            let mate = max_weight_matching(n, &edges);
            assert_eq!(
                score(&mate, &edges),
                brute(n, &edges),
                "case {case}: {edges:?}"
            );
            let (card, weight) = brute(n, &edges);
            match max_weight_perfect_matching_dual(n, &edges) {
                Some(opt) => {
                    opt.certify(&edges)
                        .unwrap_or_else(|e| panic!("perfect case {case}: {e}: {edges:?}"));
                    assert_eq!(score(&opt.mate, &edges), (card, weight), "perfect {case}");
                    assert_eq!(2 * card, n);
                }
                None => assert!(2 * card < n, "case {case}: a perfect matching exists"),
            }
            let opt = max_weight_matching_any_dual(n, &edges);
            opt.certify(&edges)
                .unwrap_or_else(|e| panic!("case {case}: {e}: {edges:?}"));
            if edges.iter().filter(|e| e.2 > 0).count() > 16 {
                continue;
            }
            assert_eq!(score(&opt.mate, &edges).1, brute_any(n, &edges));
            let mate = max_weight_matching_any(n, &edges);
            assert_eq!(
                score(&mate, &edges).1,
                brute_any(n, &edges),
                "case {case}: {edges:?}"
            );
        }
    }

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

    /// Each pair of `0..n` an edge with probability `p`, weighing from `-maxw` to `maxw`.
    fn random_edges(
        rng: &mut ChaCha8Rng,
        n: usize,
        p: f64,
        maxw: i128,
    ) -> Vec<(usize, usize, i128)> {
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                if rng.gen_bool(p) {
                    edges.push((u, v, rng.gen_range(-maxw..=maxw)));
                }
            }
        }
        edges
    }

    /// The edges between vertices `lo..hi` (each listed lower end first), numbered from `lo`.
    fn edges_within(
        edges: &[(usize, usize, i128)],
        lo: usize,
        hi: usize,
    ) -> Vec<(usize, usize, i128)> {
        edges
            .iter()
            .filter(|e| e.0 >= lo && e.1 < hi)
            .map(|&(u, v, w)| (u - lo, v - lo, w))
            .collect()
    }

    /// Warm starts from anything (an optimum over fewer edges, random duals and pairs)
    /// reach the same optimum weight as a cold solve, with a certificate.
    #[test]
    fn warm_starts_reach_the_optimum() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..3000 {
            let n = 2 * rng.gen_range(1..=6);
            let maxw: i128 = if case % 3 == 0 { 3 } else { 1000 };
            let edges = random_edges(&mut rng, n, 0.6, maxw);
            let Some(cold) = max_weight_perfect_matching_dual(n, &edges) else {
                continue;
            };
            let best = score(&cold.mate, &edges);
            // From the optimum over a subset that still holds the cold matching.
            let subset: Vec<_> = edges
                .iter()
                .copied()
                .filter(|&(u, v, _)| cold.mate[u] == Some(v) || rng.gen_bool(0.5))
                .collect();
            let part = max_weight_perfect_matching_dual(n, &subset).expect("holds a matching");
            let starts = [
                (part.warm_duals(), part.mate.clone()),
                (
                    (0..n).map(|_| rng.gen_range(-4000..4000)).collect(),
                    (0..n)
                        .map(|v| cold.mate[v].filter(|_| rng.gen_bool(0.5)))
                        .collect(),
                ),
            ];
            for (k, (duals, mates)) in starts.iter().enumerate() {
                let warm = PerfectMatcher::warm(n, &edges, duals, mates)
                    .solve()
                    .expect("a perfect matching exists");
                warm.certify(&edges)
                    .unwrap_or_else(|e| panic!("case {case} start {k}: {e}: {edges:?}"));
                assert_eq!(score(&warm.mate, &edges), best, "case {case} start {k}");
            }
        }
    }

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

    /// A piece without a perfect pairing still gives a start: a maximum-cardinality
    /// matching, its pairs tight and every edge's slack not negative; and a warm start
    /// from it, once edges make a perfect matching possible, reaches the cold optimum.
    #[test]
    fn partial_solves_leave_a_maximum_matching_with_feasible_duals() {
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        let (mut imperfect, mut warmed) = (0, 0);
        for case in 0..400 {
            let n = rng.gen_range(2..=10);
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.gen_bool(0.3) {
                        edges.push((u, v, i128::from(rng.gen_range(-50..=50))));
                    }
                }
            }
            let part = PerfectMatcher::cold(n, &edges).solve_partial();
            let pairs = score(&part.mate, &edges).0;
            assert_eq!(pairs, brute(n, &edges).0, "case {case}: {edges:?}");
            if 2 * pairs < n {
                imperfect += 1;
            }
            for &(u, v, w) in &edges {
                let slack = part.slack(u, v, w);
                assert!(slack >= 0, "case {case}: edge {u}-{v} has slack {slack}");
                if part.mate[u] == Some(v) {
                    assert_eq!(slack, 0, "case {case}: pair {u}-{v} is not tight");
                }
            }
            if n % 2 == 1 {
                continue;
            }
            let mut full = edges.clone();
            for u in 0..n {
                for v in u + 1..n {
                    if !edges.iter().any(|&(a, b, _)| (a, b) == (u, v)) && rng.gen_bool(0.5) {
                        full.push((u, v, i128::from(rng.gen_range(-50..=50))));
                    }
                }
            }
            let Some(cold) = max_weight_perfect_matching_dual(n, &full) else {
                continue;
            };
            let warm = PerfectMatcher::warm(n, &full, &part.warm_duals(), &part.mate)
                .solve()
                .expect("a perfect matching exists");
            warm.certify(&full)
                .unwrap_or_else(|e| panic!("case {case}: {e}: {full:?}"));
            assert_eq!(
                score(&warm.mate, &full),
                score(&cold.mate, &full),
                "case {case}"
            );
            if 2 * pairs < n {
                warmed += 1;
            }
        }
        assert!(
            imperfect > 100,
            "only {imperfect} cases lacked a perfect matching"
        );
        assert!(
            warmed > 20,
            "only {warmed} warm starts came from a partial matching"
        );
    }

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

    /// Whether the long campaigns run: `QIWANG_SLOW_TESTS=1` (`.ci/run` sets it).
    fn slow_tests() -> bool {
        std::env::var("QIWANG_SLOW_TESTS").is_ok_and(|v| v == "1")
    }

    /// A field shaped like a pairing's: players in pairing order, each with a score group
    /// (groups in descending order) and a colour due (0, 1 or 2 for none), some pairs
    /// barred, and the pair `(u, v)` weighing minus its packed cost: the squared score
    /// difference on the top level, a shared colour due on the middle one, the squared
    /// distance in pairing order below (levels `shift` and `shift / 2` bits apart).
    struct StressField {
        seed: u64,
        n: usize,
        shift: u32,
        group: Vec<i128>,
        due: Vec<u8>,
        barred: std::collections::BTreeSet<(usize, usize)>,
        /// The first candidate pairs: each `(2k, 2k + 1)` (never barred, so a perfect
        /// pairing always exists) and each player's `near` next legal players.
        near: usize,
    }

    impl StressField {
        /// The field of `seed` (the draws of the outside harness that found the fault,
        /// in the same order, so its seeds name the same fields).
        fn new(seed: u64) -> StressField {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let n: usize = 2 * rng.gen_range(20..120);
            let shift = [20, 60, 90][(seed % 3) as usize];
            let groups: i128 = rng.gen_range(2..8);
            let mut group: Vec<i128> = (0..n).map(|_| rng.gen_range(0..groups)).collect();
            group.sort_unstable_by(|a, b| b.cmp(a));
            let due: Vec<u8> = (0..n).map(|_| rng.gen_range(0..3)).collect();
            let p = rng.gen_range(0.0..0.3);
            let mut barred = std::collections::BTreeSet::new();
            for u in 0..n {
                for v in u + 1..n {
                    if (v != u + 1 || u % 2 == 1) && rng.gen_bool(p) {
                        barred.insert((u, v));
                    }
                }
            }
            let near: usize = rng.gen_range(1..4);
            StressField {
                seed,
                n,
                shift,
                group,
                due,
                barred,
                near,
            }
        }

        fn legal(&self, u: usize, v: usize) -> bool {
            u != v && !self.barred.contains(&(u.min(v), u.max(v)))
        }

        fn weight(&self, u: usize, v: usize) -> i128 {
            let d = self.group[u] - self.group[v];
            let miss = i128::from(self.due[u] == self.due[v] && self.due[u] != 2);
            let order = (u as i128 - v as i128).pow(2);
            -((d * d) << self.shift) - (miss << (self.shift / 2)) - order
        }

        /// The first candidate pairs, lower player first.
        fn candidates(&self) -> Vec<(usize, usize, i128)> {
            let mut seen = std::collections::BTreeSet::new();
            let pairs = (0..self.n / 2)
                .map(|k| (2 * k, 2 * k + 1))
                .chain((0..self.n).flat_map(|u| {
                    (u + 1..self.n)
                        .filter(move |&v| self.legal(u, v))
                        .take(self.near)
                        .map(move |v| (u, v))
                }));
            pairs
                .filter(|&pair| seen.insert(pair))
                .map(|(u, v)| (u, v, self.weight(u, v)))
                .collect()
        }

        /// The legal pairs not in `have` that `opt`'s duals price negative.
        fn improving(
            &self,
            opt: &Optimum<i128>,
            have: &std::collections::BTreeSet<(usize, usize)>,
        ) -> Vec<(usize, usize, i128)> {
            let mut found = Vec::new();
            for u in 0..self.n {
                for v in u + 1..self.n {
                    if self.legal(u, v) && !have.contains(&(u, v)) {
                        let w = self.weight(u, v);
                        if opt.slack(u, v, w) < 0 {
                            found.push((u, v, w));
                        }
                    }
                }
            }
            found
        }

        /// A solver over `edges` started as `start` says (checked valid).
        fn start(&self, start: Start, edges: &[(usize, usize, i128)]) -> PerfectMatcher<i128> {
            let n = self.n;
            let solver = match start {
                Start::Cold => PerfectMatcher::cold(n, edges),
                Start::Warm => {
                    // From the optimum of the pairs `(2k, 2k + 1)` alone.
                    let pairs: Vec<_> = edges
                        .iter()
                        .copied()
                        .filter(|e| e.1 == e.0 + 1 && e.0 % 2 == 0)
                        .collect();
                    let opt = max_weight_perfect_matching_dual(n, &pairs).expect("pairs everyone");
                    PerfectMatcher::warm(n, edges, &opt.warm_duals(), &opt.mate)
                }
                Start::Join => {
                    // Two halves of even size solved apart, blossoms kept.
                    let cut = n / 4 * 2;
                    let parts = [(0, cut), (cut, n)]
                        .into_iter()
                        .map(|(lo, hi)| {
                            let mut part =
                                PerfectMatcher::cold(hi - lo, &edges_within(edges, lo, hi));
                            part.solve().expect("the pairs (2k, 2k + 1) pair everyone");
                            (lo, part.snapshot(hi - lo))
                        })
                        .collect();
                    PerfectMatcher::join(n, edges, parts)
                        .unwrap_or_else(|| PerfectMatcher::cold(n, edges))
                }
            };
            solver.m.assert_invariants();
            solver
        }

        /// Prices to the optimum over every legal pair as the engine does (solve, add
        /// the pairs the duals price negative, solve on), starting as `start` says and
        /// adding as `adding` says, with every invariant checked after every start, every
        /// addition, every solve and every dual step, and every pass certified. The
        /// passes it took, or the first fault found.
        fn price(&self, start: Start, adding: Adding) -> Result<usize, String> {
            let what =
                |pass: usize| format!("seed {} ({start:?}, {adding:?}) pass {pass}", self.seed);
            let n = self.n;
            let mut edges = self.candidates();
            let mut have: std::collections::BTreeSet<_> =
                edges.iter().map(|e| (e.0, e.1)).collect();
            let mut solver = self.start(start, &edges);
            // The simple reference update, run beside the per-edge repair.
            let mut reference = (adding == Adding::Compared).then(|| self.start(start, &edges));
            for pass in 0..500 {
                let opt = solver.solve_partial();
                solver.m.assert_invariants();
                if !opt.perfect() {
                    return Err(format!("{}: not perfect", what(pass)));
                }
                opt.certify(&edges)
                    .map_err(|e| format!("{}: {e}", what(pass)))?;
                if let Some(reference) = &mut reference {
                    let other = reference
                        .solve()
                        .ok_or_else(|| format!("{}: the reference is not perfect", what(pass)))?;
                    reference.m.assert_invariants();
                    other
                        .certify(&edges)
                        .map_err(|e| format!("{}: reference: {e}", what(pass)))?;
                    if score(&other.mate, &edges).1 != score(&opt.mate, &edges).1 {
                        return Err(format!(
                            "{}: the reference's optimum weighs otherwise",
                            what(pass)
                        ));
                    }
                }
                let found = self.improving(&opt, &have);
                if found.is_empty() {
                    return Ok(pass);
                }
                have.extend(found.iter().map(|e| (e.0, e.1)));
                edges.extend_from_slice(&found);
                let kept = match adding {
                    Adding::Batch => solver.add_edges(&found),
                    Adding::OneByOne => found
                        .iter()
                        .all(|e| solver.add_edges(std::slice::from_ref(e))),
                    Adding::Restart => false,
                    Adding::Compared => {
                        let reference = reference.as_mut().expect("compared");
                        if !reference.add_edges_simply(&found) {
                            *reference =
                                PerfectMatcher::warm(n, &edges, &opt.warm_duals(), &opt.mate);
                        }
                        reference.m.assert_invariants();
                        solver.add_edges(&found)
                    }
                };
                if !kept {
                    // Too few bits to double (or a restart by choice): from this optimum.
                    solver = PerfectMatcher::warm(n, &edges, &opt.warm_duals(), &opt.mate);
                }
                solver.m.assert_invariants();
            }
            Err(format!("{}: no optimum after 500 passes", what(500)))
        }
    }

    /// How a stress run starts its solver.
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Start {
        Cold,
        /// [`PerfectMatcher::warm`] from an optimum over fewer edges.
        Warm,
        /// [`PerfectMatcher::join`] of two halves solved apart.
        Join,
    }

    /// How a stress run gives its solver the pairs each pass finds.
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Adding {
        /// All at once ([`PerfectMatcher::add_edges`]), as the engine does.
        Batch,
        /// One `add_edges` call per pair.
        OneByOne,
        /// A warm restart from each pass's optimum instead.
        Restart,
        /// All at once, and to a second solver by the simple reference update
        /// (`add_edges_simply`), whose every optimum must weigh the same.
        Compared,
    }

    /// Every fault found stays an input. The fields of seeds 578, 1509, 3566 and 5950 (as
    /// `StressField::new` draws them) made the warm continuation after `add_edges` end at
    /// a matching its certificate refused, an edge of negative slack after the first
    /// batch; 1509 and 5950 did so added one pair at a time too. `retire` had left a
    /// stale best edge on a vertex inside a T-blossom (invariant 9), which these runs now
    /// check after every dual step. Found by an outside stress harness in seeds 0..8,000.
    fn fault_input(seed: u64, adding: Adding) {
        StressField::new(seed).price(Start::Cold, adding).unwrap();
    }

    #[test]
    fn regression_stale_best_edge_seed_578() {
        fault_input(578, Adding::Batch);
    }

    #[test]
    fn regression_stale_best_edge_seed_1509() {
        fault_input(1509, Adding::Batch);
    }

    #[test]
    fn regression_stale_best_edge_seed_1509_one_by_one() {
        fault_input(1509, Adding::OneByOne);
    }

    #[test]
    fn regression_stale_best_edge_seed_3566() {
        fault_input(3566, Adding::Batch);
    }

    #[test]
    fn regression_stale_best_edge_seed_5950() {
        fault_input(5950, Adding::Batch);
    }

    #[test]
    fn regression_stale_best_edge_seed_5950_one_by_one() {
        fault_input(5950, Adding::OneByOne);
    }

    /// The per-edge repair and the simple reference update reach optima of one weight,
    /// each certified, on fields that found the fault.
    #[test]
    fn repair_and_reference_agree_on_fault_inputs() {
        for seed in [578, 1509] {
            StressField::new(seed)
                .price(Start::Cold, Adding::Compared)
                .unwrap();
        }
    }

    /// Random fields priced to their optimum, every pass certified and every invariant
    /// checked after every step (`StressField::price`): the even seeds as the engine
    /// prices (a cold start, pairs added in batches), the odd ones from a start and
    /// adding pairs in a way drawn at random. Plain `cargo test` runs one seed of each
    /// other way; `QIWANG_SLOW_TESTS=1` (CI) seeds 0..2,000, in two tests so both cores
    /// run them (about ten minutes of CPU in a debug build).
    fn stress(seeds: std::ops::Range<u64>) {
        let starts = [Start::Cold, Start::Warm, Start::Join];
        let addings = [
            Adding::Batch,
            Adding::OneByOne,
            Adding::Restart,
            Adding::Compared,
        ];
        let mut pick = ChaCha8Rng::seed_from_u64(seeds.start);
        let failures: Vec<String> = seeds
            .filter_map(|seed| {
                let way = if seed % 2 == 0 {
                    (Start::Cold, Adding::Batch)
                } else {
                    (starts[pick.gen_range(0..3)], addings[pick.gen_range(0..4)])
                };
                StressField::new(seed).price(way.0, way.1).err()
            })
            .collect();
        assert!(failures.is_empty(), "{failures:#?}");
    }

    #[test]
    fn pricing_stress_keeps_every_invariant() {
        if slow_tests() {
            stress(0..1_000);
        } else {
            // One seed of each other way: the starts and addings sampled.
            let ways = [
                (Start::Warm, Adding::OneByOne),
                (Start::Join, Adding::Restart),
                (Start::Cold, Adding::Compared),
                (Start::Join, Adding::Batch),
            ];
            for (seed, (start, adding)) in (20_000..).zip(ways) {
                StressField::new(seed).price(start, adding).unwrap();
            }
        }
    }

    #[test]
    fn pricing_stress_keeps_every_invariant_more_seeds() {
        if slow_tests() {
            stress(1_000..2_000);
        }
    }
}
