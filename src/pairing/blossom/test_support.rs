//! Helpers the solver's tests share: brute-force optima of small graphs, a matching's
//! size and weight, random edge lists, and whether the slow campaigns run.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Best (cardinality, weight) over every matching, by brute force.
pub(super) fn brute(n: usize, edges: &[(usize, usize, i128)]) -> (usize, i128) {
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
pub(super) fn brute_any(n: usize, edges: &[(usize, usize, i128)]) -> i128 {
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

pub(super) fn score(mate: &[Option<usize>], edges: &[(usize, usize, i128)]) -> (usize, i128) {
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

/// Each pair of `0..n` an edge with probability `p`, weighing from `-maxw` to `maxw`.
pub(super) fn random_edges(
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
pub(super) fn edges_within(
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

/// Whether the long campaigns run: `QIWANG_SLOW_TESTS=1`, set by hand before a release
/// (`.ci/run` leaves it unset: the campaigns would pass its 6-minute budget).
pub(super) fn slow_tests() -> bool {
    std::env::var("QIWANG_SLOW_TESTS").is_ok_and(|v| v == "1")
}
