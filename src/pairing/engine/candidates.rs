//! The sparse candidate pairs a solve starts from, and the set of pairs already given to
//! the solver.
//!
//! Owns which legal pairs the first solve sees (neighbours in pairing order, the same
//! place in the other due-colour rows, bracket pairs of due red against due black, fold
//! order's pairs half a group apart, floaters between neighbouring groups). Candidates only
//! speed the solve up: pricing ([`super::price`]) adds whatever they miss, so nothing here
//! may decide the pairing.

use super::field::{Field, colour_class};
use crate::pairing::context::Float;

/// Candidate pairs per player in the first sparse solve: this many legal players after it
/// in pairing order, and this many around its place in each due-colour row.
pub(super) const NEAR: usize = 6;

/// Candidate pairs per player, as [`NEAR`], that the whole field's solve of a large field
/// starts with, added once its score groups are solved ([`super::pieces::piecewise_start`], which
/// keeps to [`NEAR`]: in the bench binary's `--child 100000 9` the groups' solves took
/// 21.9 s with the wider window against 16.3 s). Measured with temporary
/// instrumentation in `--child 100000 3`: with only the groups' pairs, the whole-field
/// solve's pricing found 10,722, 6,904 and 168 improving pairs in three passes and the
/// solve and pricing after the join took 8.6–10.8 s; with these 910,088 pairs added
/// first, 16 and then none, 1.7–2.4 s (listing them took 0.4–0.6 s, adding them 0.13 s).
pub(super) const JOINED_NEAR: usize = 10;

/// First candidate pairs: for each player the next `near` legal players in pairing
/// order, and within each score group the players at about the same place of the other
/// due-colour rows (S15 异行配对 pairs the k-th due-red player with the k-th due-black),
/// and in fold order those about half the group below it in each row and those
/// [`crate::pairing::fold::candidates`] guesses.
pub(super) fn initial_candidates(field: &Field, near: usize, add: &mut dyn FnMut(usize, usize)) {
    let n = field.players.len();
    let fold = field.fold();
    for i in 0..n {
        let mut found = 0;
        for j in i + 1..n.min(i + 1 + 8 * near) {
            if field.legal(i, j) {
                add(i, j);
                found += 1;
                if found == near {
                    break;
                }
            }
        }
    }
    let mut start = 0;
    for &size in &field.group_size {
        let classes: Vec<usize> = field.players[start..start + size]
            .iter()
            .map(colour_class)
            .collect();
        let mut rows: [Vec<usize>; 3] = Default::default();
        for (k, &c) in classes.iter().enumerate() {
            rows[c].push(start + k);
        }
        for a in 0..3 {
            for b in a..3 {
                let (ra, rb) = (&rows[a], &rows[b]);
                for (k, &i) in ra.iter().enumerate() {
                    // Same place in the other row, scaled to its length.
                    let at = if ra.is_empty() {
                        0
                    } else {
                        k * rb.len() / ra.len()
                    };
                    let lo = at.saturating_sub(near);
                    for &j in &rb[lo.min(rb.len())..(at + near + 1).min(rb.len())] {
                        add(i, j);
                    }
                }
            }
        }
        // Due-red against due-black in pairing order, as brackets match: each player meets
        // the nearest unmatched players of the other row before it. With more of one row
        // than the other, the optimum pairs some of them far apart (the order criterion is
        // a matching on a line), which the nearest neighbours above would not offer.
        brackets(&classes, |open, i| {
            for &j in open.iter().rev().take(BRACKETS) {
                add(start + j, start + i);
            }
        });
        // In fold order the pair the order prefers is half the group apart: for each
        // player, the players of every row about half the group below it. (Adding also
        // those at the same place of each row of the bottom half, scaled to the rows'
        // lengths, was slower: 1.26 against 1.15 s for the slowest round of one
        // 10,000-player event, 4.7 against 4.4 s of another.)
        if fold {
            // Measured at commit cffed63 with a temporary release test
            // (`SimConfig::random(9500..=9502)`, fold order, 10,000 players; slowest
            // round): 4.1 → 1.4 s, 1.5 → 0.7 s, 0.58 → 0.51 s; with it, dropping the
            // pivots below was slower (1.4 → 2.3 s, 0.58 → 1.8 s).
            crate::pairing::fold::candidates(&classes, FOLD_NEAR, |a, b| add(start + a, start + b));
            for ra in &rows {
                for rb in &rows {
                    for &i in ra {
                        let at = rb.partition_point(|&j| j < i + size / 2);
                        for &j in &rb[at.saturating_sub(near)..(at + near).min(rb.len())] {
                            if j > i {
                                add(i, j);
                            }
                        }
                    }
                }
            }
        }
        start += size;
    }
    // Floaters between neighbouring score groups: the criterion against floating twice
    // the same way ranks above the order, so the optimum's floater is the lowest player
    // of the higher group who did not float down last round, of a colour that suits, and
    // its partner the highest of the lower group who did not float up. Offer every pair
    // of such players (a few per colour class on each side).
    let mut start = 0;
    for pair in field.group_size.windows(2) {
        let (upper, lower) = (
            start..start + pair[0],
            start + pair[0]..start + pair[0] + pair[1],
        );
        let pick = |range: std::ops::Range<usize>, avoid: Float, from_bottom: bool| {
            let mut taken = [0usize; 3];
            let mut out = Vec::new();
            let order: Vec<usize> = if from_bottom {
                range.rev().collect()
            } else {
                range.collect()
            };
            for i in order {
                let p = &field.players[i];
                let c = colour_class(p);
                if p.last_float != Some(avoid) && taken[c] < near {
                    taken[c] += 1;
                    out.push(i);
                }
            }
            out
        };
        let ups = pick(upper.clone(), Float::Down, true);
        let downs = pick(lower, Float::Up, false);
        for &i in &ups {
            for &j in &downs {
                add(i, j);
            }
        }
        start = upper.end;
    }
}

/// Players of the other row each player meets in the bracket candidates.
const BRACKETS: usize = 3;

/// Black players on either side of each red player's place that fold order's role
/// candidates offer ([`crate::pairing::fold::candidates`]): ±3 held 4,936 of the 4,945 optimal
/// pairs of a 9,891-player score group, ±6 was no faster at 10,000 players.
const FOLD_NEAR: usize = 3;

/// Due-red against due-black in pairing order, as brackets match, over players of
/// [`colour_class`] `classes`: `close(open, i)` for each player `i` who meets the nearest
/// unmatched player of the other due colour before it (`open`'s last; `open` lists every
/// unmatched one, in order) and takes it out. Players without a due colour take no part.
pub(super) fn brackets(classes: &[usize], mut close: impl FnMut(&[usize], usize)) {
    let mut open: Vec<usize> = Vec::new();
    for (i, &c) in classes.iter().enumerate() {
        if c == 2 {
            continue;
        }
        match open.last() {
            Some(&top) if classes[top] != c => {
                close(&open, i);
                open.pop();
            }
            _ => open.push(i),
        }
    }
}

/// The pairs already among the solver's edges, `i < j` packed into one `u64`.
#[derive(Default)]
pub(super) struct PairSet(
    std::collections::HashSet<u64, std::hash::BuildHasherDefault<PairHasher>>,
);

impl PairSet {
    fn key(a: usize, b: usize) -> u64 {
        ((a.min(b) as u64) << 32) | a.max(b) as u64
    }

    /// Adds the pair; false when it was there already.
    pub(super) fn insert(&mut self, a: usize, b: usize) -> bool {
        self.0.insert(Self::key(a, b))
    }

    pub(super) fn contains(&self, a: usize, b: usize) -> bool {
        self.0.contains(&Self::key(a, b))
    }
}

/// A multiplicative hash for packed pair keys: the set is probed for every pair pricing
/// considers, and the keys are not attacker-chosen (player indices of one pool).
#[derive(Default)]
struct PairHasher(u64);

impl std::hash::Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, k: u64) {
        self.0 = (k ^ (k >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 ^= self.0 >> 32;
    }
}
