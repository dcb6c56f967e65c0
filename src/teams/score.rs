//! What a match's boards add up to (docs/rules.md §17.3–§17.4): each team's 局分, the
//! match's outcome by comparing them (or the tiebreak games, 加赛), each team's 场分, and
//! a whole-match forfeit when one team forfeited every board.

use crate::model::{BoardGame, Colour, Outcome, Points, TeamId, TeamMatch};
use crate::rulebook::{TeamMatchRules, TiebreakDecider};

/// The colour the team with 先 (`first`) has on board `board`: red on odd boards, black on
/// even ones (1999 §13.3, S5: 「团体比赛"先走"的队，其单数台执红棋先走，双数台则执黑棋后走」).
pub fn first_colour(board: u32) -> Colour {
    if board % 2 == 1 {
        Colour::Red
    } else {
        Colour::Black
    }
}

/// 局分 of the side playing `colour` in a board's `outcome`.
pub fn board_points(outcome: Outcome, colour: Colour, rules: &TeamMatchRules) -> Points {
    match outcome {
        Outcome::Draw => rules.game_draw,
        Outcome::DoubleForfeit => rules.game_loss,
        o if o.winner() == Some(colour) => rules.game_win,
        _ => rules.game_loss,
    }
}

/// Which team sat at `colour` of a board of `m`.
pub fn team_at(m: &TeamMatch, board: u32, colour: Colour) -> TeamId {
    if first_colour(board) == colour {
        m.first
    } else {
        m.second
    }
}

/// 局分 of (first, second) over `games`.
pub fn game_points(games: &[BoardGame], m: &TeamMatch, rules: &TeamMatchRules) -> (Points, Points) {
    let (mut a, mut b) = (Points(0), Points(0));
    for g in games {
        let Some(r) = g.result else { continue };
        for colour in [Colour::Red, Colour::Black] {
            let p = board_points(r.outcome, colour, rules);
            if team_at(m, g.board, colour) == m.first {
                a += p;
            } else {
                b += p;
            }
        }
    }
    (a, b)
}

/// How a match ended, seen from the team with 先.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchOutcome {
    /// The team with 先 won on the boards.
    FirstWins,
    /// Level on 局分, no tiebreak games.
    Drawn,
    /// The other team won on the boards.
    SecondWins,
    /// Level on the boards, decided in tiebreak games (加赛): the winner.
    TiebreakWin(TeamId),
    /// One team forfeited every board: the team that came.
    ForfeitWin(TeamId),
    /// Both teams forfeited every board.
    DoubleForfeit,
}

/// A match's outcome once its boards (and, when level, its tiebreak games) are complete;
/// `None` while a board, or a tiebreak game the match still needs, has no result.
/// `lot` decides a level match whose every tiebreak game was drawn under
/// `decider = "lot"` (true: the team with 先).
pub fn outcome(m: &TeamMatch, rules: &TeamMatchRules, lot: bool) -> Option<MatchOutcome> {
    if !m.is_complete() || m.boards.is_empty() {
        return None;
    }
    let forfeited_all = |team: TeamId| {
        m.boards.iter().all(|g| {
            let colour = if team_at(m, g.board, Colour::Red) == team {
                Colour::Red
            } else {
                Colour::Black
            };
            g.result.is_some_and(|r| r.outcome.forfeited_by(colour))
        })
    };
    match (forfeited_all(m.first), forfeited_all(m.second)) {
        (true, true) => return Some(MatchOutcome::DoubleForfeit),
        (true, false) => return Some(MatchOutcome::ForfeitWin(m.second)),
        (false, true) => return Some(MatchOutcome::ForfeitWin(m.first)),
        (false, false) => {}
    }
    let (a, b) = game_points(&m.boards, m, rules);
    if a > b {
        return Some(MatchOutcome::FirstWins);
    }
    if a < b {
        return Some(MatchOutcome::SecondWins);
    }
    let Some(tb) = &rules.tiebreak_games else {
        return Some(MatchOutcome::Drawn);
    };
    tiebreak_winner(m, tb.decider, lot).map(MatchOutcome::TiebreakWin)
}

/// The winner of a level match's tiebreak games: the first board (in board order) that one
/// side won; once every board is drawn, the decider. `None` while the games are not
/// complete up to that board.
fn tiebreak_winner(m: &TeamMatch, decider: TiebreakDecider, lot: bool) -> Option<TeamId> {
    for board in 1..=m.boards.len() as u32 {
        let game = m.tiebreak.iter().find(|g| g.board == board)?;
        let result = game.result?;
        if let Some(colour) = result.outcome.winner() {
            return Some(team_at_tiebreak(m, board, colour));
        }
        if board as usize == m.boards.len() {
            return Some(match decider {
                TiebreakDecider::Armageddon => team_at_tiebreak(m, board, Colour::Black),
                TiebreakDecider::Lot if lot => m.first,
                TiebreakDecider::Lot => m.second,
            });
        }
    }
    None
}

/// Which team sits at `colour` of tiebreak board `board`: the main board's colours
/// reversed.
pub fn team_at_tiebreak(m: &TeamMatch, board: u32, colour: Colour) -> TeamId {
    team_at(m, board, colour.opposite())
}

/// Whether the match needs tiebreak games now: complete, level and not forfeited, under a
/// rulebook that plays them.
pub fn needs_tiebreak(m: &TeamMatch, rules: &TeamMatchRules) -> bool {
    if rules.tiebreak_games.is_none() {
        return false;
    }
    let plain = TeamMatchRules {
        tiebreak_games: None,
        ..rules.clone()
    };
    outcome(m, &plain, true) == Some(MatchOutcome::Drawn)
}

/// The winner of an outcome, if one team won.
pub fn winner(o: MatchOutcome, m: &TeamMatch) -> Option<TeamId> {
    match o {
        MatchOutcome::FirstWins => Some(m.first),
        MatchOutcome::SecondWins => Some(m.second),
        MatchOutcome::TiebreakWin(t) | MatchOutcome::ForfeitWin(t) => Some(t),
        MatchOutcome::Drawn | MatchOutcome::DoubleForfeit => None,
    }
}

/// 场分 of `team` in a match that ended `o`.
pub fn match_points(
    o: MatchOutcome,
    m: &TeamMatch,
    team: TeamId,
    rules: &TeamMatchRules,
) -> Points {
    match o {
        MatchOutcome::Drawn => rules.match_draw,
        MatchOutcome::DoubleForfeit => rules.match_loss,
        MatchOutcome::TiebreakWin(w) => {
            let tb = rules.tiebreak_games.as_ref();
            match (w == team, tb) {
                (true, Some(tb)) => tb.win,
                (false, Some(tb)) => tb.loss,
                (true, None) => rules.match_win,
                (false, None) => rules.match_loss,
            }
        }
        _ if winner(o, m) == Some(team) => rules.match_win,
        _ => rules.match_loss,
    }
}

/// The outcome the Swiss engine records for the match, the team with 先 as red: a win,
/// a draw or a loss on the boards or in tiebreak games, a forfeit when a team forfeited
/// every board.
pub fn engine_outcome(o: MatchOutcome, m: &TeamMatch) -> Outcome {
    match o {
        MatchOutcome::FirstWins => Outcome::RedWin,
        MatchOutcome::SecondWins => Outcome::BlackWin,
        MatchOutcome::Drawn => Outcome::Draw,
        MatchOutcome::TiebreakWin(w) if w == m.first => Outcome::RedWin,
        MatchOutcome::TiebreakWin(_) => Outcome::BlackWin,
        MatchOutcome::ForfeitWin(w) if w == m.first => Outcome::BlackForfeit,
        MatchOutcome::ForfeitWin(_) => Outcome::RedForfeit,
        MatchOutcome::DoubleForfeit => Outcome::DoubleForfeit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GameResult, PlayerId};

    fn m(outcomes: &[Outcome]) -> TeamMatch {
        TeamMatch {
            table: 1,
            first: TeamId(1),
            second: TeamId(2),
            boards: outcomes
                .iter()
                .enumerate()
                .map(|(i, o)| BoardGame {
                    board: i as u32 + 1,
                    red: PlayerId(i as u32 * 2 + 1),
                    black: PlayerId(i as u32 * 2 + 2),
                    result: Some(GameResult::new(*o)),
                })
                .collect(),
            tiebreak: Vec::new(),
        }
    }

    #[test]
    fn boards_add_up_from_each_boards_red_side() {
        use Outcome::*;
        let r = TeamMatchRules::cxa(4);
        // Board 1 first team red wins, board 2 first team black: a red win is the second
        // team's; board 3 draw; board 4 black win is the first team's.
        let x = m(&[RedWin, RedWin, Draw, BlackWin]);
        assert_eq!(game_points(&x.boards, &x, &r), (Points(5), Points(3)));
        assert_eq!(outcome(&x, &r, true), Some(MatchOutcome::FirstWins));
        let level = m(&[RedWin, RedWin, Draw, Draw]);
        assert_eq!(outcome(&level, &r, true), Some(MatchOutcome::Drawn));
        assert_eq!(
            match_points(MatchOutcome::Drawn, &level, TeamId(2), &r),
            Points(1)
        );
        // The first team absent on every board: red forfeits on odd, black on even boards.
        let gone = m(&[RedForfeit, BlackForfeit, RedForfeit, BlackForfeit]);
        assert_eq!(
            outcome(&gone, &r, true),
            Some(MatchOutcome::ForfeitWin(TeamId(2)))
        );
        assert_eq!(
            engine_outcome(MatchOutcome::ForfeitWin(TeamId(2)), &gone),
            RedForfeit
        );
    }

    #[test]
    fn tiebreak_games_go_board_by_board_then_the_decider() {
        use Outcome::*;
        let mut r = TeamMatchRules::cxa(2);
        r.tiebreak_games = Some(crate::rulebook::TiebreakGames {
            decider: TiebreakDecider::Armageddon,
            game_points_count: false,
            win: Points(2),
            loss: Points(1),
        });
        let mut x = m(&[RedWin, RedWin]);
        assert!(needs_tiebreak(&x, &r));
        assert_eq!(outcome(&x, &r, true), None);
        let tb = |board: u32, o: Outcome| BoardGame {
            board,
            red: PlayerId(board * 2),
            black: PlayerId(board * 2 - 1),
            result: Some(GameResult::new(o)),
        };
        x.tiebreak = vec![tb(1, Draw)];
        assert_eq!(outcome(&x, &r, true), None, "board 2 still to play");
        // Board 2 reversed: the first team is red there (black on the main board 2).
        x.tiebreak.push(tb(2, RedWin));
        assert_eq!(
            outcome(&x, &r, true),
            Some(MatchOutcome::TiebreakWin(TeamId(1)))
        );
        assert_eq!(
            match_points(MatchOutcome::TiebreakWin(TeamId(1)), &x, TeamId(2), &r),
            Points(1)
        );
        // Every tiebreak game drawn: the last board's black (the second team) wins.
        x.tiebreak[1] = tb(2, Draw);
        assert_eq!(
            outcome(&x, &r, true),
            Some(MatchOutcome::TiebreakWin(TeamId(2)))
        );
    }
}
