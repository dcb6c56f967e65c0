//! Round-robin schedules by the Berger tables (贝格尔编排法, docs/rules.md §14).
//!
//! Players are numbered 1..=n (by draw, rating or the registration sheet: the caller's
//! choice). With an odd n a dummy number n + 1 is added, and whoever meets it has the bye
//! that round. Round r of the tables pairs the numbers whose sum is r + 1 modulo n − 1
//! (numbers taken 1..=n−1), and the number that would pair with itself meets the highest
//! number n. Colours: the highest number takes black in odd rounds and red in even ones;
//! in any other pair red goes to the player whose opponent lies an odd number of steps
//! after it around 1..=n−1. Each further cycle repeats the first with colours reversed
//! (a double round robin, 双循环). Every pair of players meets exactly once per cycle,
//! and each player's colours alternate except at one seam, as in the published tables.

/// One table of a scheduled round: `red` moves first. Numbers are 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Board {
    /// A game: the players with these numbers, red first.
    Game {
        /// The number playing red (先走).
        red: u32,
        /// The number playing black.
        black: u32,
    },
    /// The player with this number has no opponent this round (odd field).
    Bye(u32),
}

/// The largest field a schedule is made for: a round robin is for small groups, and the
/// bound keeps a hostile count from sizing an allocation.
pub const MAX_PLAYERS: u32 = 1 << 16;

/// Rounds in one cycle for `players` players: n − 1 for even n, n for odd n (0 for fields
/// of fewer than 2 or more than [`MAX_PLAYERS`]).
pub fn rounds_per_cycle(players: u32) -> u32 {
    match players {
        0 | 1 => 0,
        n if n > MAX_PLAYERS => 0,
        n => n + n % 2 - 1,
    }
}

/// The boards of round `round` (1-based, counted over every cycle) of a round robin of
/// `players` players, in table order (the highest number's game first, as printed in the
/// tables). `None` when the round is outside the schedule.
pub fn berger_round(players: u32, cycles: u32, round: u32) -> Option<Vec<Board>> {
    let per_cycle = rounds_per_cycle(players);
    if per_cycle == 0 || round == 0 || round > per_cycle.checked_mul(cycles)? {
        return None;
    }
    let cycle = (round - 1) / per_cycle;
    let r = (round - 1) % per_cycle + 1;
    let n = players + players % 2;
    let m = n - 1;
    // The residue 1..=m of k.
    let residue = |k: u32| (k - 1) % m + 1;
    let target = residue(r + 1);
    let mut boards = Vec::with_capacity(n as usize / 2);
    // The number that meets n: 2i ≡ r + 1 (mod m); m is odd, so 2 has the inverse
    // (m + 1) / 2.
    let host = residue(target * m.div_ceil(2));
    let (red, black) = if r % 2 == 1 { (host, n) } else { (n, host) };
    boards.push((red, black));
    // The others, in the published order: the host's successors pair with its
    // predecessors, nearest first.
    for step in 1..n / 2 {
        let a = residue(host + step);
        let b = residue(host + m - step);
        debug_assert_eq!(residue(a + b), target);
        // Red goes to the player whose opponent lies an odd number of steps after it.
        let (red, black) = if (b + m - a) % m % 2 == 1 {
            (a, b)
        } else {
            (b, a)
        };
        boards.push((red, black));
    }
    let reversed = cycle % 2 == 1;
    Some(
        boards
            .into_iter()
            .map(|(red, black)| {
                let (red, black) = if reversed { (black, red) } else { (red, black) };
                if red > players {
                    Board::Bye(black)
                } else if black > players {
                    Board::Bye(red)
                } else {
                    Board::Game { red, black }
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn games(players: u32, cycles: u32, round: u32) -> Vec<(u32, u32)> {
        berger_round(players, cycles, round)
            .unwrap()
            .into_iter()
            .filter_map(|b| match b {
                Board::Game { red, black } => Some((red, black)),
                Board::Bye(_) => None,
            })
            .collect()
    }

    /// The published tables for 4, 6 and 8 players, row by row as printed.
    #[test]
    fn equals_the_published_tables() {
        let published: [(u32, &[&str]); 3] = [
            (4, &["1-4 2-3", "4-3 1-2", "2-4 3-1"]),
            (
                6,
                &[
                    "1-6 2-5 3-4",
                    "6-4 5-3 1-2",
                    "2-6 3-1 4-5",
                    "6-5 1-4 2-3",
                    "3-6 4-2 5-1",
                ],
            ),
            (
                8,
                &[
                    "1-8 2-7 3-6 4-5",
                    "8-5 6-4 7-3 1-2",
                    "2-8 3-1 4-7 5-6",
                    "8-6 7-5 1-4 2-3",
                    "3-8 4-2 5-1 6-7",
                    "8-7 1-6 2-5 3-4",
                    "4-8 5-3 6-2 7-1",
                ],
            ),
        ];
        for (n, rows) in published {
            for (i, row) in rows.iter().enumerate() {
                let got: Vec<String> = games(n, 1, i as u32 + 1)
                    .iter()
                    .map(|(r, b)| format!("{r}-{b}"))
                    .collect();
                assert_eq!(got.join(" "), *row, "{n} players, round {}", i + 1);
            }
        }
    }

    /// An independent construction: round k + 1 is round k with every number below n
    /// moved on by n/2 around 1..=n−1, each pair keeping its orientation, and the highest
    /// number's pair turned round.
    fn by_rotation(n: u32) -> Vec<Vec<(u32, u32)>> {
        let m = n - 1;
        let first: Vec<(u32, u32)> = (1..=n / 2).map(|i| (i, n + 1 - i)).collect();
        let mut rounds = vec![first];
        for _ in 1..m {
            let last = rounds.last().unwrap();
            let shift = |k: u32| if k == n { n } else { (k - 1 + n / 2) % m + 1 };
            let next = last
                .iter()
                .map(|&(r, b)| {
                    let (r, b) = (shift(r), shift(b));
                    if r == n || b == n { (b, r) } else { (r, b) }
                })
                .collect();
            rounds.push(next);
        }
        rounds
    }

    /// 3–20 players, single and double: the tables equal the rotation construction (as
    /// sets of oriented pairs per round), every pair meets exactly once per cycle with the
    /// colours reversed in the second, a bye falls to each player once per cycle of an odd
    /// field, and nobody's colour difference ever exceeds one.
    #[test]
    fn every_pair_meets_once_per_cycle_and_equals_the_rotation() {
        for players in 3..=20u32 {
            let n = players + players % 2;
            let per = rounds_per_cycle(players);
            assert_eq!(per, n - 1);
            let rotation = by_rotation(n);
            let mut met: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
            let mut byes: BTreeMap<u32, u32> = BTreeMap::new();
            let mut balance: BTreeMap<u32, i32> = BTreeMap::new();
            for round in 1..=2 * per {
                let boards = berger_round(players, 2, round).unwrap();
                let mut seen = std::collections::BTreeSet::new();
                for board in &boards {
                    match *board {
                        Board::Game { red, black } => {
                            assert!(seen.insert(red) && seen.insert(black));
                            met.entry((red.min(black), red.max(black)))
                                .or_default()
                                .push(round);
                            *balance.entry(red).or_default() += 1;
                            *balance.entry(black).or_default() -= 1;
                        }
                        Board::Bye(p) => {
                            assert!(seen.insert(p));
                            *byes.entry(p).or_default() += 1;
                        }
                    }
                }
                assert_eq!(
                    seen.len() as u32,
                    players,
                    "{players} players, round {round}"
                );
                if round <= per {
                    let mut want: Vec<(u32, u32)> = rotation[round as usize - 1]
                        .iter()
                        .copied()
                        .filter(|&(r, b)| r <= players && b <= players)
                        .collect();
                    let mut got = games(players, 2, round);
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "{players} players, round {round}");
                } else {
                    let mut first: Vec<(u32, u32)> = games(players, 2, round - per)
                        .iter()
                        .map(|&(r, b)| (b, r))
                        .collect();
                    let mut got = games(players, 2, round);
                    first.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, first, "{players} players, round {round} reverses");
                }
                if round == per || round == 2 * per {
                    for p in 1..=players {
                        assert!(balance.get(&p).copied().unwrap_or(0).abs() <= 1);
                    }
                }
            }
            let pairs = players * (players - 1) / 2;
            assert_eq!(met.len() as u32, pairs, "{players} players");
            for (pair, rounds) in &met {
                assert_eq!(rounds.len(), 2, "{pair:?}");
                assert!(rounds[0] <= per && rounds[1] > per, "{pair:?} {rounds:?}");
            }
            if players % 2 == 1 {
                assert!((1..=players).all(|p| byes.get(&p) == Some(&2)), "{byes:?}");
            } else {
                assert!(byes.is_empty());
            }
        }
    }

    #[test]
    fn rounds_outside_the_schedule_are_none() {
        assert_eq!(berger_round(6, 1, 0), None);
        assert_eq!(berger_round(6, 1, 6), None);
        assert!(berger_round(6, 2, 10).is_some());
        assert_eq!(berger_round(1, 1, 1), None);
        assert_eq!(berger_round(0, 1, 1), None);
        assert_eq!(berger_round(u32::MAX, u32::MAX, 1), None);
        assert_eq!(berger_round(MAX_PLAYERS + 1, 1, 1), None);
        assert_eq!(rounds_per_cycle(MAX_PLAYERS), MAX_PLAYERS - 1);
    }
}
