//! The crosstable (成绩交叉表): per player and round, the opponent's number, the colour,
//! the result and the points, with players in standings order.

use super::values::{Slot, slots};
use super::{Standings, compute_standings};
use crate::model::{Colour, Event, GroupId, Player, PlayerId, Points};
use crate::rulebook::Rulebook;
use crate::scoring;
use serde::{Deserialize, Serialize};

/// One player's cell for one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum CrosstableCell {
    /// A game paired this round, played, forfeited or still without a result.
    Game {
        /// The round of the cell.
        round: u32,
        /// The table the game was played at, to find its score sheet.
        table: u32,
        /// The opponent's registration id (printed when they have no pairing number).
        opponent: PlayerId,
        /// The opponent's pairing number (序号), if drawn.
        opponent_number: Option<u32>,
        /// The colour this player had: the 后走局数 and colour tiebreaks count it
        /// (docs/rules.md §3.4, §5.3).
        colour: Colour,
        /// From this player's side: `1` win, `=` draw, `0` loss, `+` forfeit win, `-`
        /// forfeit loss (also both sides of a double forfeit); `None` while pending.
        result: Option<char>,
        /// The game points this player scored, by `[scoring]` for their colour
        /// (docs/rules.md §1.1, §1.3); `None` while pending.
        points: Option<Points>,
    },
    /// 轮空.
    Bye {
        /// The round of the bye.
        round: u32,
        /// The bye's points, `scoring.bye` (a win by default, docs/rules.md §1.2).
        points: Points,
    },
    /// Not paired this round (late entry, withdrawn).
    NotPaired {
        /// The round the player sat out.
        round: u32,
    },
}

impl CrosstableCell {
    /// Compact text such as `12r1`, `3b=`, `5r+`, `bye`, or `-` when not paired; the
    /// opponent's id stands in when they have no number.
    pub fn text(&self) -> String {
        match self {
            CrosstableCell::Game {
                opponent,
                opponent_number,
                colour,
                result,
                ..
            } => {
                let who = opponent_number.unwrap_or(opponent.0);
                let c = match colour {
                    Colour::Red => 'r',
                    Colour::Black => 'b',
                };
                let r = result.map(String::from).unwrap_or_default();
                format!("{who}{c}{r}")
            }
            CrosstableCell::Bye { .. } => "bye".to_string(),
            CrosstableCell::NotPaired { .. } => "-".to_string(),
        }
    }
}

/// One player's line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrosstableRow {
    /// The player's registration id.
    pub player: PlayerId,
    /// The pairing number (序号) other rows' cells refer to; `None` before the draw.
    pub number: Option<u32>,
    /// The player's name as registered.
    pub name: String,
    /// The place in the standings; `None` for a player who takes none (docs/rules.md §7.3).
    pub rank: Option<u32>,
    /// Whether the place is shared (printed `3=`, docs/rules.md §5.5).
    pub shared: bool,
    /// Points after the crosstable's round, penalties deducted (积分).
    pub score: Points,
    /// One cell per round `1..=after_round`.
    pub cells: Vec<CrosstableCell>,
}

/// A pool's crosstable after a round; rows in standings order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crosstable {
    /// The pool the crosstable is of.
    pub group: GroupId,
    /// The last round shown; the rows' cells cover rounds 1 to this.
    pub after_round: u32,
    /// One row per player of the pool, in standings order.
    pub rows: Vec<CrosstableRow>,
}

/// The crosstable of a pool after `after_round` (default as in [`compute_standings`]).
pub fn crosstable(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    after_round: Option<u32>,
) -> Crosstable {
    crosstable_of(
        event,
        rules,
        &compute_standings(event, rules, group, after_round),
    )
}

/// The crosstable of the pool `standings` ranks, after their round (a caller that also
/// prints the standings computes them once).
pub fn crosstable_of(event: &Event, rules: &Rulebook, standings: &Standings) -> Crosstable {
    let group = &standings.group;
    let n = standings.after_round;
    // Only the slots: the tiebreak values a whole `PoolData` would compute again are in
    // the standings already.
    let players: Vec<&Player> = event.players_in(group).collect();
    // A round robin's annulled games show as not played (docs/rules.md §14.4).
    let ranked = super::ranked_event(event, rules, group);
    let slots = slots(&ranked, &players, group, n);
    let rows = standings
        .rows
        .iter()
        .map(|s| {
            let player = event.player(s.player);
            let cells = slots
                .get(&s.player)
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(k, slot)| cell(event, rules, k as u32 + 1, *slot))
                .collect();
            CrosstableRow {
                player: s.player,
                number: player.and_then(|p| p.number),
                name: player.map(|p| p.name.clone()).unwrap_or_default(),
                rank: s.rank,
                shared: s.shared,
                score: s.score,
                cells,
            }
        })
        .collect();
    Crosstable {
        group: group.clone(),
        after_round: n,
        rows,
    }
}

fn cell(event: &Event, rules: &Rulebook, round: u32, slot: Slot) -> CrosstableCell {
    match slot {
        Slot::NotPaired => CrosstableCell::NotPaired { round },
        Slot::Bye => CrosstableCell::Bye {
            round,
            points: rules.scoring.bye,
        },
        Slot::Game {
            opponent,
            colour,
            table,
            result,
        } => CrosstableCell::Game {
            round,
            table,
            opponent,
            opponent_number: event.player(opponent).and_then(|p| p.number),
            colour,
            result: result.map(|r| {
                let played = r.outcome.is_played();
                match (r.outcome.winner(), played) {
                    (Some(w), true) if w == colour => '1',
                    (Some(_), true) => '0',
                    (None, true) => '=',
                    (Some(w), false) if w == colour => '+',
                    (_, false) => '-',
                }
            }),
            points: result.map(|r| scoring::game_points(&r, colour, &rules.scoring)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_text() {
        let game = |number, colour, result| CrosstableCell::Game {
            round: 1,
            table: 1,
            opponent: PlayerId(40),
            opponent_number: number,
            colour,
            result,
            points: None,
        };
        let cases = [
            (game(Some(12), Colour::Red, Some('1')), "12r1"),
            (game(Some(3), Colour::Black, Some('=')), "3b="),
            (game(None, Colour::Black, Some('-')), "40b-"),
            (game(Some(5), Colour::Red, None), "5r"),
            (
                CrosstableCell::Bye {
                    round: 2,
                    points: Points(2),
                },
                "bye",
            ),
            (CrosstableCell::NotPaired { round: 3 }, "-"),
        ];
        for (cell, want) in cases {
            assert_eq!(cell.text(), want);
        }
    }
}
