//! Which of the pairs a pricing pass finds enter the solve ([`super::price`]): far from
//! the optimum millions of pairs improve, and each player's most improving few are kept.
//!
//! Owns the caps per player and the packing of a found pair into one sortable number.
//! It must never drop the most improving pair: every pass adds one while any pair prices
//! in, so the last pass finds none and the optimum is proven.

/// Far from the optimum (a first sparse solve whose duals are poor) millions of pairs can
/// price in: keeps each player's most improving few, as column generation does — in order
/// of slack (then players), a pair is kept while both its players have fewer than
/// `per_player` ([`PER_PLAYER`], or [`FOLD_PER_PLAYER`] in fold order). The most
/// improving pair is always kept, so every pass adds one while any pair prices in, and
/// the last pass finds none. Applied again to a list it already
/// cut plus new pairs, it never drops the most improving pair either.
pub(super) fn select(priced_in: &mut Vec<u128>, n: usize, per_player: usize) {
    priced_in.sort_unstable();
    let mut taken = vec![0usize; n];
    priced_in.retain(|&key| {
        let (x, y) = priced_players(key);
        let keep = taken[x] < per_player && taken[y] < per_player;
        if keep {
            taken[x] += 1;
            taken[y] += 1;
        }
        keep
    });
}

/// A pair that prices in as one number whose order is that of its slack (rounded to
/// `f64`, in [`f64::total_cmp`] order), then of its players `x < y`: [`select`] sorts
/// millions of them (as `(f64, u32, u32)` tuples with a comparator the sort took 7% of
/// the bench binary's `--child 100000 3`).
pub(super) fn priced_key(slack: f64, x: usize, y: usize) -> u128 {
    let bits = slack.to_bits() as i64;
    // `total_cmp` compares these as signed integers, the sign bit flipped into the top
    // place makes them compare alike unsigned.
    let ordered = ((bits ^ (((bits >> 63) as u64) >> 1) as i64) as u64) ^ (1 << 63);
    let player = |v: usize| u128::from(u32::try_from(v).expect("fewer than 2^32 players"));
    (u128::from(ordered) << 64) | (player(x) << 32) | player(y)
}

/// The players of a [`priced_key`].
pub(super) fn priced_players(key: u128) -> (usize, usize) {
    ((key >> 32) as u32 as usize, key as u32 as usize)
}

/// Once a pricing pass has more improving pairs than it keeps (the list was cut: far
/// from the optimum millions of pairs improve and only [`PER_PLAYER`] each are kept), it
/// stops examining a player's pairs once this many times that number of them improve
/// (16 of them outside fold order). A pass that finds none is never cut, so the last pass still examines every pair. Measured with the
/// bench binary's `--child 10000 R` runs (`cargo bench --bench pairing -- 10000`), CPU:
/// round 3 1.52 -> 1.35 s, round 9 1.64 -> 1.55 s, round 5 unchanged (its passes are never
/// cut; capping them too cost it two more passes, +20%).
pub(super) const ENOUGH: usize = 2;

/// How many partners per player of the field a pass whose list was cut skips for having
/// plenty of improving pairs before it ends, with what it found so far. Such a pass is
/// never the last: the next one starts from the better optimum its pairs give. (Until
/// 2026-12-05 the pass rebuilt its maxima without those players and went on; on round 6
/// of the 100,000-player fold-order chain, the bench binary's `--replay`, its first
/// whole-field pass then took 26.7 s and two copies of the maxima per thread, and the
/// round 35.0 CPU-s and 3.0 GB; ending it, 23.4 CPU-s and 2.4 GB.)
pub(super) const ENDS_AFTER: usize = 4;

/// At most this many pairs per player enter the solve from one pricing pass.
pub(super) const PER_PLAYER: usize = 8;

/// [`PER_PLAYER`] in fold order, where a score group's solve takes ten or more passes
/// (its optimum pairs players far from the first candidates). With 24 instead of 8, the
/// slowest round of three 10,000-player events in fold order (`SimConfig::random(9500..=
/// 9502, …)`, a temporary release test) went from 3.7, 1.2 and 4.4 s to 1.5, 0.87 and
/// 4.1 s. In the bench's adjacent-colour-rows event it made no difference to time
/// (`--child 100000 3`: 8.3 against 7.6 s) but took 120 MiB more memory.
pub(super) const FOLD_PER_PLAYER: usize = 24;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priced_keys_sort_by_slack_then_players() {
        let slacks = [
            -3.5e40,
            -2.0,
            -1.0,
            -0.0,
            0.0,
            f64::MIN_POSITIVE,
            1.0,
            7.25e30,
            f64::NEG_INFINITY,
            f64::INFINITY,
        ];
        let mut tuples = Vec::new();
        for (k, &s) in slacks.iter().enumerate() {
            for (x, y) in [(0, 1), (3, 9), (0, u32::MAX as usize - 1), (k, k + 2)] {
                tuples.push((s, x, y));
            }
        }
        let mut keys: Vec<u128> = tuples
            .iter()
            .map(|&(s, x, y)| priced_key(s, x, y))
            .collect();
        keys.sort_unstable();
        tuples.sort_by(|a, b| a.0.total_cmp(&b.0).then((a.1, a.2).cmp(&(b.1, b.2))));
        let back: Vec<(usize, usize)> = keys.iter().map(|&k| priced_players(k)).collect();
        let want: Vec<(usize, usize)> = tuples.iter().map(|&(_, x, y)| (x, y)).collect();
        assert_eq!(back, want);
        assert!(priced_key(-0.0, 5, 6) < priced_key(0.0, 5, 6));
    }
}
