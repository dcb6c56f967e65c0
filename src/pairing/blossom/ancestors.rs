//! The innermost blossom two vertices share, in constant time: an Euler tour of the
//! optimum's blossom forest with a sparse table of its shallowest entries.
//!
//! [`super::certificate::Optimum::slack`] needs, for every pair it prices, the sum of `z`
//! over the blossoms holding both ends — the `z_through` of their innermost common
//! blossom. Walking up from both ends costs the nesting depth, and in fold order the
//! blossoms nest deep: at 30,000 players the walks were 47% of a round-2 solve (the
//! per-pass certificate and the dual balancing run `slack` over every candidate pair;
//! `perf record` of `cargo bench --bench pairing -- --chain 30000 --fold`). The tour
//! answers the same question with two table reads.

/// The lowest common ancestor of two nodes of a forest given by parent links.
#[derive(Debug, Clone, Default)]
pub(super) struct Ancestors {
    /// Each node's first place in the tour.
    first: Vec<u32>,
    /// `table[k][i]`: the shallowest node of `tour[i .. i + 2^k]` (level 0 is the tour).
    table: Vec<Vec<u32>>,
}

impl Ancestors {
    /// The tour of the forest `parent` (`none` for a root), `depth` each node's depth.
    pub(super) fn new(parent: &[usize], depth: &[u32], none: usize) -> Ancestors {
        let count = parent.len();
        // Children in CSR form, each node's children in index order.
        let mut start = vec![0usize; count + 1];
        for &p in parent {
            if p != none {
                start[p + 1] += 1;
            }
        }
        for i in 0..count {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut children = vec![0u32; start[count]];
        for (c, &p) in parent.iter().enumerate() {
            if p != none {
                children[fill[p]] = c as u32;
                fill[p] += 1;
            }
        }
        let mut first = vec![u32::MAX; count];
        let mut tour: Vec<u32> = Vec::with_capacity(2 * count);
        // Iterative depth-first walk: (node, next child to visit).
        let mut stack: Vec<(u32, usize)> = Vec::new();
        for root in (0..count).filter(|&b| parent[b] == none) {
            stack.push((root as u32, start[root]));
            first[root] = tour.len() as u32;
            tour.push(root as u32);
            while let Some(top) = stack.last_mut() {
                let (node, next) = (top.0 as usize, top.1);
                if next < start[node + 1] {
                    top.1 += 1;
                    let child = children[next];
                    first[child as usize] = tour.len() as u32;
                    tour.push(child);
                    stack.push((child, start[child as usize]));
                } else {
                    stack.pop();
                    if let Some(&(up, _)) = stack.last() {
                        tour.push(up);
                    }
                }
            }
        }
        let shallower = |a: u32, b: u32| {
            if depth[a as usize] <= depth[b as usize] {
                a
            } else {
                b
            }
        };
        let mut table = vec![tour];
        let mut width = 1;
        while 2 * width <= table[0].len() {
            let prev = table.last().expect("level 0 is there");
            let next: Vec<u32> = (0..prev.len() - width)
                .map(|i| shallower(prev[i], prev[i + width]))
                .collect();
            table.push(next);
            width *= 2;
        }
        Ancestors { first, table }
    }

    /// The innermost node holding both `a` and `b`, which must lie in one tree.
    pub(super) fn common(&self, a: usize, b: usize, depth: &[u32]) -> usize {
        let (x, y) = (self.first[a] as usize, self.first[b] as usize);
        let (lo, hi) = (x.min(y), x.max(y));
        let k = (usize::BITS - 1 - (hi - lo + 1).leading_zeros()) as usize;
        let (p, q) = (self.table[k][lo], self.table[k][hi + 1 - (1 << k)]);
        if depth[p as usize] <= depth[q as usize] {
            p as usize
        } else {
            q as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    const NONE: usize = usize::MAX;

    /// The common ancestor by walking up from both ends (the method the tour replaces).
    fn walk(parent: &[usize], depth: &[u32], mut a: usize, mut b: usize) -> Option<usize> {
        while depth[a] > depth[b] {
            a = parent[a];
        }
        while depth[b] > depth[a] {
            b = parent[b];
        }
        while a != b {
            if parent[a] == NONE {
                return None;
            }
            a = parent[a];
            b = parent[b];
        }
        Some(a)
    }

    #[test]
    fn the_tour_finds_the_ancestor_the_walk_finds_in_random_forests() {
        let mut rng = StdRng::seed_from_u64(44);
        for _ in 0..300 {
            let count = rng.gen_range(1..120);
            // Parents of any index (not only lower ones), some chains deep.
            let order: Vec<usize> = {
                let mut o: Vec<usize> = (0..count).collect();
                for i in (1..count).rev() {
                    o.swap(i, rng.gen_range(0..=i));
                }
                o
            };
            let mut parent = vec![NONE; count];
            for (pos, &node) in order.iter().enumerate().skip(1) {
                if rng.gen_range(0..10) > 0 {
                    let back = if rng.gen_bool(0.5) {
                        1
                    } else {
                        rng.gen_range(1..=pos)
                    };
                    parent[node] = order[pos - back];
                }
            }
            let mut depth = vec![0u32; count];
            for &node in &order {
                if parent[node] != NONE {
                    depth[node] = depth[parent[node]] + 1;
                }
            }
            let tour = Ancestors::new(&parent, &depth, NONE);
            for a in 0..count {
                for b in 0..count {
                    if let Some(want) = walk(&parent, &depth, a, b) {
                        assert_eq!(tour.common(a, b, &depth), want, "{parent:?} {a} {b}");
                    }
                }
            }
        }
    }
}
