//! Maximum-cardinality matching over an implicit graph (Edmonds' blossom contraction).
//!
//! Owns the "can everybody still be paired?" question: the bye look-ahead, the first
//! legal pairing the exact solve starts from, the checker's second-bye rule and the
//! blocker report. The graph is a predicate, never materialised, so 10,000 players cost
//! no edge list.

const NONE: usize = usize::MAX;

/// A maximum matching of `n` vertices under `adj` (`mate[v] == usize::MAX` when unmatched).
pub fn max_matching(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    max_matching_from(greedy(n, adj), adj)
}

/// The vertices some maximum matching under `adj` leaves unmatched, ascending: the
/// outer vertices of the frustrated trees [`max_matching_from`] drops (each is joined to
/// its tree's unmatched root by an alternating path of even length, so switching the
/// path's pairs leaves it over instead). These are the players who block a pairing,
/// not just those one particular matching happens to leave over.
pub fn left_over(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    let (_, outer) = grow(greedy(n, adj), adj);
    (0..n).filter(|&v| outer[v]).collect()
}

/// A first matching, greedy in vertex order.
fn greedy(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    let mut mate = vec![NONE; n];
    // Greedy start in vertex order: callers list players in pairing order, so this
    // already pairs almost everyone and few augmenting searches remain.
    for v in 0..n {
        if mate[v] != NONE {
            continue;
        }
        for u in v + 1..n {
            if mate[u] == NONE && adj(v, u) {
                mate[v] = u;
                mate[u] = v;
                break;
            }
        }
    }
    mate
}

/// A maximum matching grown from the matching `mate` (every pair in it must be an edge
/// of `adj`): a search for an augmenting path from each unmatched vertex in turn.
///
/// A search that finds none ends in a *frustrated* tree: every edge out of its outer
/// vertices (blossoms included) goes to one of its inner vertices, so no augmenting path
/// can ever pass through it, and its vertices are left out of every later search (the
/// step of Edmonds' cardinality algorithm that deletes a frustrated tree). Without it,
/// a field where most players cannot meet (2,000 players of one unit under team
/// avoidance) grew the same dead tree from every unmatched player again: in the bench
/// binary's `--chain 2000 --teams 1`, 13.7–16.3 s per round, almost all of it here.
fn max_matching_from(mate: Vec<usize>, adj: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    grow(mate, adj).0
}

/// [`max_matching_from`], with the outer vertices of the trees it dropped.
fn grow(mut mate: Vec<usize>, adj: &dyn Fn(usize, usize) -> bool) -> (Vec<usize>, Vec<bool>) {
    let n = mate.len();
    augment_short(&mut mate, adj);
    let mut search = Search {
        n,
        adj,
        p: vec![NONE; n],
        base: (0..n).collect(),
        used: vec![false; n],
        blossom: vec![false; n],
        live: (0..n).collect(),
        dead: vec![false; n],
        outer: vec![false; n],
    };
    for root in 0..n {
        if mate[root] != NONE || search.dead[root] {
            continue;
        }
        let end = search.find_path(root, &mate);
        if end == NONE {
            search.drop_tree();
            continue;
        }
        let mut v = end;
        while v != NONE {
            let pv = search.p[v];
            let ppv = mate[pv];
            mate[v] = pv;
            mate[pv] = v;
            v = ppv;
        }
    }
    (mate, search.outer)
}

/// Free players left by the greedy start that one swap pairs: free `v` and `x`, and a
/// pair `u`–`w` with `v`–`u` and `w`–`x` legal, become `v`–`u` and `w`–`x` (an augmenting
/// path of length three). Tried only while at most [`SHORT_UP_TO`] players are free.
///
/// The greedy start leaves a few players free when they could only meet each other and
/// may not (two players barred from the same colour at the foot of the field). The full
/// search below grows its tree by testing every player against every other, so at
/// 100,000 players those two cost it 5–8 s; this swap pairs them after one pass over the
/// field. The search still runs for whatever remains, so the matching stays maximum.
fn augment_short(mate: &mut [usize], adj: &dyn Fn(usize, usize) -> bool) {
    let mut free: Vec<usize> = (0..mate.len()).filter(|&v| mate[v] == NONE).collect();
    if free.len() > SHORT_UP_TO {
        return;
    }
    let mut k = 0;
    while k < free.len() {
        let v = free[k];
        let found = (0..mate.len()).find_map(|u| {
            let w = mate[u];
            if w == NONE || u == v || !adj(v, u) {
                return None;
            }
            free.iter()
                .position(|&x| x != v && adj(w, x))
                .map(|i| (u, w, i))
        });
        match found {
            Some((u, w, i)) => {
                let x = free[i];
                mate[v] = u;
                mate[u] = v;
                mate[w] = x;
                mate[x] = w;
                free.retain(|&f| f != v && f != x);
            }
            None => k += 1,
        }
    }
}

/// [`augment_short`] is tried while at most this many players are free: its pass costs
/// a test of every free player against every partner of a neighbour.
const SHORT_UP_TO: usize = 16;

struct Search<'a> {
    n: usize,
    adj: &'a dyn Fn(usize, usize) -> bool,
    p: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    /// The vertices later searches may still reach, in order: all but frustrated trees.
    live: Vec<usize>,
    /// The vertices of frustrated trees (not in `live`).
    dead: Vec<bool>,
    /// The outer vertices of frustrated trees.
    outer: Vec<bool>,
}

impl Search<'_> {
    fn lca(&self, mut a: usize, mut b: usize, mate: &[usize]) -> usize {
        let mut seen = vec![false; self.n];
        loop {
            a = self.base[a];
            seen[a] = true;
            if mate[a] == NONE {
                break;
            }
            a = self.p[mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.p[mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize, mate: &[usize]) {
        while self.base[v] != b {
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[mate[v]]] = true;
            self.p[v] = child;
            child = mate[v];
            v = self.p[mate[v]];
        }
    }

    /// Takes the tree of the search that just failed (its outer vertices are `used`, its
    /// inner ones have a parent) out of every later search.
    fn drop_tree(&mut self) {
        for &v in &self.live {
            self.dead[v] = self.used[v] || self.p[v] != NONE;
            self.outer[v] = self.used[v];
        }
        let dead = &self.dead;
        self.live.retain(|&v| !dead[v]);
    }

    fn find_path(&mut self, root: usize, mate: &[usize]) -> usize {
        for &i in &self.live {
            self.used[i] = false;
            self.p[i] = NONE;
            self.base[i] = i;
        }
        self.used[root] = true;
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(v) = queue.pop_front() {
            for k in 0..self.live.len() {
                let to = self.live[k];
                if self.base[v] == self.base[to] || mate[v] == to || !(self.adj)(v, to) {
                    continue;
                }
                if to == root || (mate[to] != NONE && self.p[mate[to]] != NONE) {
                    let cur = self.lca(v, to, mate);
                    self.blossom.iter_mut().for_each(|x| *x = false);
                    self.mark_path(v, cur, to, mate);
                    self.mark_path(to, cur, v, mate);
                    for k in 0..self.live.len() {
                        let i = self.live[k];
                        if self.blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.used[i] {
                                self.used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if self.p[to] == NONE {
                    self.p[to] = v;
                    if mate[to] == NONE {
                        return to;
                    }
                    let t = mate[to];
                    self.used[t] = true;
                    queue.push_back(t);
                }
            }
        }
        NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::blossom::max_weight_matching;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn cardinality_equals_weighted_solver() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..2000 {
            let n = rng.gen_range(1..=14);
            let d = rng.gen_range(0.05..0.9);
            let mut m = std::collections::BTreeSet::new();
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.gen_bool(d) {
                        m.insert((u, v));
                        edges.push((u, v, 1));
                    }
                }
            }
            let linked = |a: usize, b: usize| m.contains(&(a.min(b), a.max(b)));
            let mate = max_matching(n, &linked);
            assert_maximum(&mate, &linked, &edges, case);
        }
    }

    /// A random graph on `n` vertices where each is in a "unit" with chance `in_unit` and
    /// unit members never meet each other: its pairs `(u, v)`, `u < v`.
    struct UnitGraph(std::collections::BTreeSet<(usize, usize)>);

    impl UnitGraph {
        fn random(rng: &mut ChaCha8Rng, n: usize, in_unit: f64) -> UnitGraph {
            let unit: Vec<bool> = (0..n).map(|_| rng.gen_bool(in_unit)).collect();
            let d = rng.gen_range(0.1..0.9);
            let mut m = std::collections::BTreeSet::new();
            for u in 0..n {
                for v in u + 1..n {
                    if !(unit[u] && unit[v]) && rng.gen_bool(d) {
                        m.insert((u, v));
                    }
                }
            }
            UnitGraph(m)
        }

        fn linked(&self, a: usize, b: usize) -> bool {
            self.0.contains(&(a.min(b), a.max(b)))
        }

        /// The pairs as edges of weight 1, those of vertex `without` left out.
        fn edges(&self, without: Option<usize>) -> Vec<(usize, usize, i128)> {
            self.0
                .iter()
                .filter(|&&(u, v)| Some(u) != without && Some(v) != without)
                .map(|&(u, v)| (u, v, 1))
                .collect()
        }
    }

    /// [`left_over`] is exactly the set of vertices some maximum matching leaves over:
    /// `v` is in it when the graph without `v` still has a matching as large.
    #[test]
    fn left_over_is_every_vertex_a_maximum_matching_can_miss() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        for case in 0..600 {
            let n = rng.gen_range(1..=12);
            let g = UnitGraph::random(&mut rng, n, 0.6);
            let size = |without: Option<usize>| maximum_size(n, &g.edges(without));
            let all = size(None);
            let want: Vec<usize> = (0..n).filter(|&v| size(Some(v)) == all).collect();
            assert_eq!(left_over(n, &|a, b| g.linked(a, b)), want, "case {case}");
        }
    }

    /// `mate` is a matching of `linked` (whose pairs are `edges`) as large as the weighted
    /// solver's.
    fn assert_maximum(
        mate: &[usize],
        linked: &dyn Fn(usize, usize) -> bool,
        edges: &[(usize, usize, i128)],
        case: usize,
    ) {
        for v in 0..mate.len() {
            if mate[v] != NONE {
                assert!(linked(v, mate[v]) && mate[mate[v]] == v, "case {case}");
            }
        }
        let got = mate.iter().filter(|&&x| x != NONE).count();
        assert_eq!(got, maximum_size(mate.len(), edges), "case {case}");
    }

    /// Players a maximum matching of `edges` over `n` players pairs, by the weighted
    /// solver (every edge weighing 1).
    fn maximum_size(n: usize, edges: &[(usize, usize, i128)]) -> usize {
        max_weight_matching(n, edges)
            .iter()
            .filter(|x| x.is_some())
            .count()
    }

    /// Graphs where most searches fail and leave frustrated trees behind: a "unit" whose
    /// members may not meet each other (but may meet everyone else, who may not all meet
    /// each other either), grown from an arbitrary matching, not the greedy one. Every
    /// result must be a matching of `adj` as large as the weighted solver's.
    #[test]
    fn frustrated_trees_are_dropped_without_losing_a_pair() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for case in 0..1500 {
            let n = rng.gen_range(2..=24);
            let g = UnitGraph::random(&mut rng, n, 0.7);
            let linked = |a: usize, b: usize| g.linked(a, b);
            let mut start = vec![NONE; n];
            for &(u, v) in &g.0 {
                if start[u] == NONE && start[v] == NONE && rng.gen_bool(0.4) {
                    start[u] = v;
                    start[v] = u;
                }
            }
            let mate = max_matching_from(start, &linked);
            assert_maximum(&mate, &linked, &g.edges(None), case);
        }
    }
}
