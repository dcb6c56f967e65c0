//! Knockout brackets and matches (淘汰赛, docs/rules.md §16): where each seed stands in
//! the bracket, who meets whom in the first round (byes to the top seeds when the field is
//! not a power of two), and how a match of K games with its ordered tiebreak games is
//! decided game by game.
//!
//! Owns the bracket arithmetic and one match's state machine over its game results, as
//! pure functions of numbers: no players, no event, no randomness (a lot's outcome is
//! passed in by the caller, drawn from the group's recorded seed).

/// The most players a bracket is made for: a knockout is for finals, and the bound keeps a
/// hostile count from sizing an allocation.
pub const MAX_PLAYERS: u32 = 1 << 12;

/// The bracket size for `players`: the smallest power of two at least as large (1 for
/// fewer than 2 players or more than [`MAX_PLAYERS`]).
pub fn bracket_size(players: u32) -> u32 {
    if !(2..=MAX_PLAYERS).contains(&players) {
        return 1;
    }
    players.next_power_of_two()
}

/// Bracket rounds for `players`: log2 of the bracket size (3 for 5–8 players).
pub fn bracket_rounds(players: u32) -> u32 {
    bracket_size(players).trailing_zeros()
}

/// The seeds in bracket order for a bracket of `size` (a power of two): 1, 8, 4, 5, 2, 7,
/// 3, 6 for 8, so that the first round is 1–8, 4–5, 2–7, 3–6 and seeds 1 and 2 can meet
/// only in the final. Each step doubles the list, pairing every seed s with size + 1 − s.
pub fn seed_order(size: u32) -> Vec<u32> {
    let mut order = vec![1u32];
    let mut n = 1u32;
    while n < size {
        n *= 2;
        order = order.iter().flat_map(|&s| [s, n + 1 - s]).collect();
    }
    order
}

/// The first round of a bracket of `players` seeds: each match as (higher seed, lower
/// seed), `None` for a bye (the seed's opponent would be above `players`), in bracket
/// order. A bye always falls to a top seed.
pub fn first_round(players: u32) -> Vec<(u32, Option<u32>)> {
    let order = seed_order(bracket_size(players));
    order
        .chunks(2)
        .map(|pair| {
            let (a, b) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
            (a, (b <= players).then_some(b))
        })
        .collect()
}

/// A match's result in one game, from the side of the match's first player (A).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameScore {
    /// A won (over the board or by forfeit).
    AWins,
    /// B won.
    BWins,
    /// A draw: in a deciding game where a draw counts as a black win, the caller has
    /// already turned it into a win for black.
    Draw,
    /// Neither side played (双负): counts as a draw for the match.
    Neither,
}

/// One tiebreak stage of a match, in the rulebook's order (`tiebreak_games`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TiebreakStage {
    /// Two rapid games (快棋), colours alternating; the stage decides when their scores
    /// differ.
    Rapid,
    /// Two blitz games (超快棋), likewise.
    Blitz,
    /// One deciding game where a draw counts as a win for black (和棋判黑胜, CXA 2020
    /// §30, docs/rules.md §0 S7).
    Armageddon,
    /// A lot (抽签) decides, without a game.
    Lot,
}

impl TiebreakStage {
    /// Games the stage plays (0 for a lot).
    pub fn games(self) -> u32 {
        match self {
            TiebreakStage::Rapid | TiebreakStage::Blitz => 2,
            TiebreakStage::Armageddon => 1,
            TiebreakStage::Lot => 0,
        }
    }
}

/// Which game of a match comes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextGame {
    /// Regular game `game` (1-based) of the match's K.
    Regular {
        /// 1..=K.
        game: u32,
    },
    /// Game `game` (1-based) of tiebreak stage `stage` (0-based in the rulebook's list).
    Tiebreak {
        /// Index in `tiebreak_games`.
        stage: usize,
        /// The kind of the stage.
        kind: TiebreakStage,
        /// 1-based within the stage.
        game: u32,
    },
}

/// Where a match stands after its games so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchState {
    /// Another game is due.
    Due(NextGame),
    /// A lot must decide (the stages are exhausted or the next is a lot).
    Lot,
    /// Decided: `true` when A won the match.
    Won {
        /// A won.
        a: bool,
        /// Decided by the tiebreak stage with this index, `None` by the regular games.
        by_stage: Option<usize>,
    },
}

fn points(g: GameScore) -> (u32, u32) {
    match g {
        GameScore::AWins => (2, 0),
        GameScore::BWins => (0, 2),
        GameScore::Draw | GameScore::Neither => (1, 1),
    }
}

/// The state of a match of `games` regular games and the tiebreak `stages` after the
/// `played` game results in order. The regular games decide on their total; if level,
/// each stage in turn decides on its own games' total; a lot (or running out of stages)
/// leaves the match to a lot. Results beyond what the match needs are an error
/// (`Err(index)` of the first game not due).
pub fn match_state(
    games: u32,
    stages: &[TiebreakStage],
    played: &[GameScore],
) -> Result<MatchState, usize> {
    let mut i = 0usize;
    let take = |i: &mut usize, n: u32| -> Option<(u32, u32)> {
        let mut total = (0, 0);
        for _ in 0..n {
            let g = played.get(*i)?;
            let (a, b) = points(*g);
            total = (total.0 + a, total.1 + b);
            *i += 1;
        }
        Some(total)
    };
    // Regular games.
    let k = games.max(1);
    let Some((a, b)) = take(&mut i, k) else {
        return Ok(MatchState::Due(NextGame::Regular {
            game: u32::try_from(i).unwrap_or(u32::MAX) + 1,
        }));
    };
    let done = |i: usize, state: MatchState| {
        if i < played.len() { Err(i) } else { Ok(state) }
    };
    if a != b {
        return done(
            i,
            MatchState::Won {
                a: a > b,
                by_stage: None,
            },
        );
    }
    for (s, &kind) in stages.iter().enumerate() {
        if kind == TiebreakStage::Lot {
            return done(i, MatchState::Lot);
        }
        let start = i;
        let Some((a, b)) = take(&mut i, kind.games()) else {
            let game = u32::try_from(i - start).unwrap_or(u32::MAX) + 1;
            return Ok(MatchState::Due(NextGame::Tiebreak {
                stage: s,
                kind,
                game,
            }));
        };
        if a != b {
            return done(
                i,
                MatchState::Won {
                    a: a > b,
                    by_stage: Some(s),
                },
            );
        }
    }
    done(i, MatchState::Lot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameScore::*;
    use TiebreakStage::*;

    #[test]
    fn seeds_stand_as_the_published_brackets() {
        assert_eq!(seed_order(2), vec![1, 2]);
        assert_eq!(seed_order(4), vec![1, 4, 2, 3]);
        assert_eq!(seed_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(
            seed_order(16),
            vec![1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
        );
        assert_eq!(
            first_round(8),
            vec![(1, Some(8)), (4, Some(5)), (2, Some(7)), (3, Some(6))]
        );
        // Six players: seeds 1 and 2 have byes.
        assert_eq!(
            first_round(6),
            vec![(1, None), (4, Some(5)), (2, None), (3, Some(6))]
        );
        for n in 2..=64u32 {
            let first = first_round(n);
            let byes = first.iter().filter(|(_, b)| b.is_none()).count() as u32;
            assert_eq!(byes, bracket_size(n) - n, "{n}");
            // The byes go to seeds 1..=byes.
            let mut bye_seeds: Vec<u32> = first
                .iter()
                .filter(|(_, b)| b.is_none())
                .map(|(a, _)| *a)
                .collect();
            bye_seeds.sort_unstable();
            assert_eq!(bye_seeds, (1..=byes).collect::<Vec<_>>(), "{n}");
            // Every seed once.
            let mut all: Vec<u32> = first
                .iter()
                .flat_map(|(a, b)| std::iter::once(*a).chain(*b))
                .collect();
            all.sort_unstable();
            assert_eq!(all, (1..=n).collect::<Vec<_>>());
        }
        assert_eq!(bracket_size(1), 1);
        assert_eq!(bracket_size(MAX_PLAYERS + 1), 1);
        assert_eq!(bracket_rounds(8), 3);
        assert_eq!(bracket_rounds(9), 4);
    }

    #[test]
    fn a_match_is_decided_by_its_games_then_its_stages() {
        let stages = [Rapid, Blitz, Armageddon];
        let st = |p: &[GameScore]| match_state(2, &stages, p);
        assert_eq!(st(&[]), Ok(MatchState::Due(NextGame::Regular { game: 1 })));
        assert_eq!(
            st(&[Draw]),
            Ok(MatchState::Due(NextGame::Regular { game: 2 }))
        );
        assert_eq!(
            st(&[AWins, Draw]),
            Ok(MatchState::Won {
                a: true,
                by_stage: None
            })
        );
        // Level: two rapid games.
        assert_eq!(
            st(&[AWins, BWins]),
            Ok(MatchState::Due(NextGame::Tiebreak {
                stage: 0,
                kind: Rapid,
                game: 1
            }))
        );
        assert_eq!(
            st(&[Draw, Draw, Draw, BWins]),
            Ok(MatchState::Won {
                a: false,
                by_stage: Some(0)
            })
        );
        // Rapid level, blitz level, the deciding game decides.
        assert_eq!(
            st(&[Draw, Draw, Draw, Draw, AWins, BWins]),
            Ok(MatchState::Due(NextGame::Tiebreak {
                stage: 2,
                kind: Armageddon,
                game: 1
            }))
        );
        assert_eq!(
            st(&[Draw, Draw, Draw, Draw, AWins, BWins, BWins]),
            Ok(MatchState::Won {
                a: false,
                by_stage: Some(2)
            })
        );
        // A game beyond the decision is not due.
        assert_eq!(st(&[AWins, AWins, Draw]), Err(2));
        // A lot after the regular games.
        assert_eq!(match_state(1, &[Lot], &[Draw]), Ok(MatchState::Lot));
        assert_eq!(match_state(1, &[], &[Neither]), Ok(MatchState::Lot));
    }
}
