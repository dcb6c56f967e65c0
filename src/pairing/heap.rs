//! A min-heap holding at most one entry per id, for the blossom solver's dual-step
//! candidates.
//!
//! The solver keeps, for each unlabelled vertex, each S-vertex and each T-blossom, the one
//! value that bounds the next dual step (a best edge's slack, or the blossom's dual). A
//! plain binary heap gets a new entry every time such a value changes and drops the old
//! ones only when they surface: in the bench binary's `--child 100000 3` run (`cargo bench
//! --bench pairing -- 100000 --rounds 3-3`) the first solve popped 12 million entries and
//! `BinaryHeap::pop` was 21% of perf's samples, nearly all of it cache misses. Here
//! setting an id's key moves its one entry instead, so the heap never holds more entries
//! than ids.

/// Entries ordered by `(key, id)`; `aux` rides along (the solver's edge index).
pub(super) struct IdHeap<K> {
    entries: Vec<Entry<K>>,
    /// Each id's place in `entries`, or [`ABSENT`].
    place: Vec<u32>,
}

#[derive(Clone, Copy)]
struct Entry<K> {
    key: K,
    id: u32,
    aux: u32,
}

const ABSENT: u32 = u32::MAX;

impl<K: Ord + Copy> Entry<K> {
    #[inline]
    fn below(&self, other: &Entry<K>) -> bool {
        (self.key, self.id) < (other.key, other.id)
    }
}

impl<K: Ord + Copy> IdHeap<K> {
    /// An empty heap for ids `0..ids` (fewer than `u32::MAX`).
    pub(super) fn new(ids: usize) -> IdHeap<K> {
        assert!(ids < ABSENT as usize, "too many ids for an IdHeap");
        IdHeap {
            entries: Vec::new(),
            place: vec![ABSENT; ids],
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }

    /// Removes every entry (in time proportional to their number).
    pub(super) fn clear(&mut self) {
        for e in &self.entries {
            self.place[e.id as usize] = ABSENT;
        }
        self.entries.clear();
    }

    /// Gives `id` the key `key` (and `aux`), whether or not it had one.
    pub(super) fn set(&mut self, id: usize, key: K, aux: usize) {
        debug_assert!(aux < ABSENT as usize);
        let entry = Entry {
            key,
            id: id as u32,
            aux: aux as u32,
        };
        match self.place[id] {
            ABSENT => {
                self.entries.push(entry);
                self.up(self.entries.len() - 1);
            }
            at => {
                let at = at as usize;
                let lower = entry.below(&self.entries[at]);
                self.entries[at] = entry;
                if lower {
                    self.up(at);
                } else {
                    self.down(at);
                }
            }
        }
    }

    /// The key `id` has, if it has an entry.
    pub(super) fn key(&self, id: usize) -> Option<K> {
        match self.place[id] {
            ABSENT => None,
            at => Some(self.entries[at as usize].key),
        }
    }

    /// The least entry as `(key, id, aux)`.
    pub(super) fn peek(&self) -> Option<(K, usize, usize)> {
        self.entries
            .first()
            .map(|e| (e.key, e.id as usize, e.aux as usize))
    }

    /// Removes the least entry.
    pub(super) fn pop(&mut self) {
        let Some(last) = self.entries.pop() else {
            return;
        };
        if self.entries.is_empty() {
            self.place[last.id as usize] = ABSENT;
            return;
        }
        self.place[self.entries[0].id as usize] = ABSENT;
        self.entries[0] = last;
        self.down(0);
    }

    fn up(&mut self, mut at: usize) {
        let entry = self.entries[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            if !entry.below(&self.entries[parent]) {
                break;
            }
            self.put(at, self.entries[parent]);
            at = parent;
        }
        self.put(at, entry);
    }

    fn down(&mut self, mut at: usize) {
        let entry = self.entries[at];
        let len = self.entries.len();
        loop {
            let left = 2 * at + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && self.entries[right].below(&self.entries[left]) {
                right
            } else {
                left
            };
            if !self.entries[child].below(&entry) {
                break;
            }
            self.put(at, self.entries[child]);
            at = child;
        }
        self.put(at, entry);
    }

    /// Writes `entry` at `at` and notes its place.
    #[inline]
    fn put(&mut self, at: usize, entry: Entry<K>) {
        self.entries[at] = entry;
        self.place[entry.id as usize] = at as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::collections::BTreeMap;

    /// Against a model (each id's latest key): every peek is the least `(key, id)` still
    /// set, with its aux, through random sets, pops and clears.
    #[test]
    fn holds_the_latest_key_of_each_id() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for ids in [1usize, 2, 5, 40] {
            let mut heap: IdHeap<i64> = IdHeap::new(ids);
            let mut model: BTreeMap<usize, (i64, usize)> = BTreeMap::new();
            for _ in 0..5000 {
                match rng.gen_range(0..10) {
                    0..=5 => {
                        let id = rng.gen_range(0..ids);
                        let key = rng.gen_range(-20..20);
                        let aux = rng.gen_range(0..1000);
                        heap.set(id, key, aux);
                        model.insert(id, (key, aux));
                    }
                    6..=8 => {
                        heap.pop();
                        let least = model.iter().map(|(&id, &(k, _))| (k, id)).min();
                        if let Some((_, id)) = least {
                            model.remove(&id);
                        }
                    }
                    _ => {
                        heap.clear();
                        model.clear();
                    }
                }
                let want = model
                    .iter()
                    .map(|(&id, &(k, aux))| (k, id, aux))
                    .min_by_key(|&(k, id, _)| (k, id));
                assert_eq!(heap.peek(), want);
                for id in 0..ids {
                    assert_eq!(heap.key(id), model.get(&id).map(|&(k, _)| k));
                }
                assert_eq!(heap.len(), model.len());
            }
        }
    }
}
