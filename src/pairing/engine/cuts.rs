//! Where a large score group is cut into pieces of about equal length, each solved alone
//! before the group ([`super::pieces`]).
//!
//! Owns the counts a cut is judged by: players no pairing of a stretch can pair (colour
//! bars), extra colour misses of pairing two sides apart, bracket pairs a cut splits. A
//! cut only changes how much work the solves do, never their result, so nothing here
//! weighs or chooses pairs.

use super::candidates::brackets;

/// How many players of a stretch with colour bars `bar` ([`super::field::colour_bars`]) no pairing of
/// the stretch can pair: two players barred from the same colour never meet, so with
/// more players barred from black than those barred from red and the free ones
/// together, the rest stay unpaired (and likewise the other way).
pub(super) fn unpairable(bar: &[usize]) -> usize {
    let mut count = [0usize; 3];
    for &b in bar {
        count[b] += 1;
    }
    unpaired_of(count)
}

/// [`unpairable`] from the counts of players free of bars, barred from black and barred
/// from red.
fn unpaired_of([free, black, red]: [usize; 3]) -> usize {
    black
        .saturating_sub(red + free)
        .max(red.saturating_sub(black + free))
}

/// Where to cut a score group of [`super::field::colour_class`] `classes` and [`super::field::colour_bars`] `bar`
/// into `parts` pieces of about equal length (see [`super::pieces::piecewise_start`]): the cuts, from 0
/// to the group's size. Each cut is looked for within a quarter of a piece of the even
/// cut, where the piece before it can pair everyone, then where pairing the two sides
/// apart costs the fewest extra colour misses ([`Tally::extra_misses`]), then where
/// the fewest bracket pairs are split ([`bracket_crossings`]), then nearest the even cut.
/// A piece that still cannot pair everyone (S15 orders the players with the largest
/// colour imbalance first, so a group can open with thousands barred from one colour)
/// takes in the players after it up to where it can, if that is within twice a piece's
/// length, else as many as it lacks while that helps: it then pairs them where the
/// group's optimum would, with the nearest players who can, and the group's solve has
/// little to undo. (In the bench binary's `--child 100000 3`, two groups' first pieces
/// had left 550 and 622 players unpaired, whom the groups' solves then paired across
/// the cut; cut so, the score groups' solves took 29 s of CPU instead of 39–46 s (two
/// runs), and in `--child 100000 9` 55 s instead of 62 s, measured with temporary
/// instrumentation.)
pub(super) fn piece_cuts(classes: &[usize], bar: &[usize], parts: usize) -> Vec<usize> {
    let size = classes.len();
    let length = size.div_ceil(parts);
    let crossing = bracket_crossings(classes);
    let tally = Tally::new(classes, bar);
    let mut cuts = vec![0];
    let mut a = 0;
    while a < size {
        let target = a + length;
        let mut b = if target >= size {
            size
        } else {
            let from = (a + length * 3 / 4).max(a + 1);
            let to = (a + length * 5 / 4).min(size);
            (from..=to)
                .min_by_key(|&c| {
                    (
                        tally.unpairable(a, c),
                        tally.extra_misses(a, c, size),
                        crossing[c],
                        c.abs_diff(target),
                    )
                })
                .unwrap_or(target)
        };
        if tally.unpairable(a, b) > 0
            && let Some(c) = (b..=(a + 2 * length).min(size)).find(|&c| tally.unpairable(a, c) == 0)
        {
            b = c;
        }
        loop {
            let short = tally.unpairable(a, b);
            let next = (b + short).min(size);
            if short == 0 || next == b || tally.unpairable(a, next) >= short {
                break;
            }
            b = next;
        }
        if size - b < length / 4 {
            b = size;
        }
        cuts.push(b);
        a = b;
    }
    cuts
}

/// Running counts over a score group's players in pairing order, to weigh a cut in O(1):
/// [`super::field::colour_bars`] and due colours (+1 red, −1 black) of the players before each place.
struct Tally {
    bars: Vec<[usize; 3]>,
    /// Due red minus due black, and players without a due colour.
    dues: Vec<(i64, i64)>,
}

impl Tally {
    fn new(classes: &[usize], bar: &[usize]) -> Tally {
        let mut bars = Vec::with_capacity(classes.len() + 1);
        let mut dues = Vec::with_capacity(classes.len() + 1);
        let (mut count, mut due) = ([0usize; 3], (0i64, 0i64));
        bars.push(count);
        dues.push(due);
        for (&c, &b) in classes.iter().zip(bar) {
            count[b] += 1;
            match c {
                0 => due.0 += 1,
                1 => due.0 -= 1,
                _ => due.1 += 1,
            }
            bars.push(count);
            dues.push(due);
        }
        Tally { bars, dues }
    }

    /// [`unpairable`] for players `a..c`.
    fn unpairable(&self, a: usize, c: usize) -> usize {
        let count: [usize; 3] = std::array::from_fn(|k| self.bars[c][k] - self.bars[a][k]);
        unpaired_of(count)
    }

    /// Players `a..c` due one colour beyond those due the other and those due neither: at
    /// least this many of them miss their due colour when they are paired alone.
    fn excess(&self, a: usize, c: usize) -> i64 {
        let (d, f) = (
            self.dues[c].0 - self.dues[a].0,
            self.dues[c].1 - self.dues[a].1,
        );
        (d.abs() - f).max(0)
    }

    /// How many more players, at least, miss their due colour when players `a..c` and
    /// `c..end` are paired apart than when `a..end` are paired together.
    fn extra_misses(&self, a: usize, c: usize, end: usize) -> i64 {
        self.excess(a, c) + self.excess(c, end) - self.excess(a, end)
    }
}

/// For each cut `c` of a score group's players, of [`super::field::colour_class`] `classes` (before
/// player `c`, `0..=len`), how
/// many pairs of the bracket matching of due-red against due-black in pairing order (as
/// [`super::candidates::initial_candidates`] offers them) have one player before it and one after. The
/// group's optimum keeps many of those pairs (it meets the most due colours, then stays
/// nearest the pairing order), and pieces cut across them cannot. (When this was the
/// only key of [`piece_cuts`], in the bench binary's `--child 100000 9`, cutting where
/// the fewest are split took the score groups' solves from 48.3 to 38.7 s; round 3: 32.2
/// and 34.9 s, within the noise. It now breaks ties after pairability and extra misses.)
fn bracket_crossings(classes: &[usize]) -> Vec<u32> {
    let mut change = vec![0i64; classes.len() + 1];
    brackets(classes, |open, i| {
        // Cuts top + 1 ..= i split the pair (top, i).
        let top = open[open.len() - 1];
        change[top + 1] += 1;
        change[i + 1] -= 1;
    });
    let mut out = Vec::with_capacity(classes.len() + 1);
    let mut now = 0i64;
    for d in &change {
        now += d;
        out.push(u32::try_from(now).unwrap_or(u32::MAX));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each cut counts the bracket pairs with one player on each side of it; players due
    /// neither colour and the unmatched surplus of one colour split nothing.
    #[test]
    fn bracket_crossings_count_the_pairs_each_cut_splits() {
        // Due red, red, black, black, none, red, black: brackets (1, 2), (0, 3), (5, 6).
        let classes = [0, 0, 1, 1, 2, 0, 1];
        assert_eq!(bracket_crossings(&classes), vec![0, 1, 2, 1, 0, 0, 1, 0]);
        // More of one colour: the unmatched ones split nothing.
        assert_eq!(bracket_crossings(&[0, 0, 0, 1]), vec![0, 0, 0, 1, 0]);
        assert_eq!(bracket_crossings(&[]), vec![0]);
    }

    /// A score group opening with players barred from one colour beyond what the rest of
    /// its first piece can pair: that piece takes in the free players after them, up to
    /// where it can pair everyone, and the group's other pieces follow.
    #[test]
    fn pieces_take_in_the_players_their_barred_block_needs() {
        // 30 barred players (two barred from red, due black, for each one barred from
        // black, due red), then 30 free ones due red and black in turn.
        let mut classes = Vec::new();
        let mut bar = Vec::new();
        for _ in 0..10 {
            classes.extend([1, 1, 0]);
            bar.extend([2, 2, 1]);
        }
        for k in 0..30 {
            classes.push(k % 2);
            bar.push(0);
        }
        assert_eq!(unpairable(&bar[..30]), 10);
        // Pieces of 20: no cut within a quarter of 20 can pair its first piece; 10 free
        // players after the block can.
        assert_eq!(piece_cuts(&classes, &bar, 3), vec![0, 40, 60]);
        // Without bars the even cuts stand (the due colours balance there).
        let free = vec![0; 60];
        let cuts = piece_cuts(&classes, &free, 3);
        assert_eq!(cuts.len(), 4);
        assert_eq!((cuts[0], cuts[3]), (0, 60));
    }

    /// Cutting where the sides' due colours balance costs no extra miss; elsewhere each
    /// side's excess beyond its players without a due colour does.
    #[test]
    fn extra_misses_count_what_pairing_apart_costs() {
        // 12 due red, 12 due black, 8 due red, 8 due black, then 2 without a due colour.
        let mut classes = vec![0; 12];
        classes.extend([1; 12]);
        classes.extend([0; 8]);
        classes.extend([1; 8]);
        classes.extend([2; 2]);
        let tally = Tally::new(&classes, &vec![0; classes.len()]);
        assert_eq!(tally.extra_misses(0, 24, 42), 0);
        // Left 4 due red over; right 4 due black over, less the 2 without a due colour.
        assert_eq!(tally.extra_misses(0, 20, 42), 4 + 2);
        // The two without a due colour absorb part of the right side's excess.
        assert_eq!(tally.excess(32, 42), 6);
        assert_eq!(tally.extra_misses(0, 36, 42), 4 + 2);
        assert_eq!(tally.unpairable(0, 42), 0);
        // Pieces of 21 are cut where the colours balance, not at the even cut.
        assert_eq!(piece_cuts(&classes, &vec![0; classes.len()], 2)[1], 24);
    }
}
