//! The JSON of the large model values the views print (a round's pairings, a crosstable
//! row, a player's tiebreak values) with their keys in alphabetical order, written
//! straight to the output: the text [`SortedKeys`](crate::report::SortedKeys) gives,
//! without building a `serde_json::Value` for each of them (100,000 players after 9
//! rounds: about a seventh of `export --format json`).

use crate::model::{GameResult, Outcome, Pairing, PlayerId, Points, Round};
use crate::standings::{CrosstableCell, CrosstableRow, PlayerTiebreaks};
use serde::Serialize;

/// A [`Round`] as its value prints.
pub(crate) struct SortedRound<'a>(pub &'a Round);

impl Serialize for SortedRound<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Fields<I> {
            number: u32,
            pairings: I,
        }
        let round = self.0;
        Fields {
            number: round.number,
            pairings: crate::report::Streamed(|| round.pairings.iter().map(sorted_pairing)),
        }
        .serialize(serializer)
    }
}

/// One pairing of a round, keys in alphabetical order (`kind` among them).
#[derive(Serialize)]
#[serde(untagged)]
enum PairingJson {
    Game {
        black: PlayerId,
        kind: &'static str,
        red: PlayerId,
        result: Option<ResultJson>,
        table: u32,
    },
    Bye {
        kind: &'static str,
        player: PlayerId,
    },
}

#[derive(Serialize)]
struct ResultJson {
    black_fouls: u32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    late: bool,
    outcome: Outcome,
    red_fouls: u32,
}

fn sorted_pairing(pairing: &Pairing) -> PairingJson {
    match *pairing {
        Pairing::Game {
            table,
            red,
            black,
            result,
        } => PairingJson::Game {
            black,
            kind: "game",
            red,
            result: result.map(
                |GameResult {
                     outcome,
                     red_fouls,
                     black_fouls,
                     late,
                 }| ResultJson {
                    black_fouls,
                    late,
                    outcome,
                    red_fouls,
                },
            ),
            table,
        },
        Pairing::Bye { player } => PairingJson::Bye {
            kind: "bye",
            player,
        },
    }
}

/// A [`CrosstableRow`] as its value prints.
pub(crate) struct SortedRow<'a>(pub &'a CrosstableRow);

impl Serialize for SortedRow<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let row = self.0;
        RowJson {
            cells: SortedCells(&row.cells),
            name: &row.name,
            number: row.number,
            player: row.player,
            rank: row.rank,
            score: row.score,
            shared: row.shared,
        }
        .serialize(serializer)
    }
}

#[derive(Serialize)]
struct RowJson<'a> {
    cells: SortedCells<'a>,
    name: &'a str,
    number: Option<u32>,
    player: PlayerId,
    rank: Option<u32>,
    score: Points,
    shared: bool,
}

/// A row's [`CrosstableCell`]s as their values print.
pub(crate) struct SortedCells<'a>(pub &'a [CrosstableCell]);

impl Serialize for SortedCells<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(sorted_cell))
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum CellJson {
    Game {
        colour: crate::model::Colour,
        kind: &'static str,
        opponent: PlayerId,
        opponent_number: Option<u32>,
        points: Option<Points>,
        result: Option<char>,
        round: u32,
        table: u32,
    },
    Bye {
        kind: &'static str,
        points: Points,
        round: u32,
    },
    NotPaired {
        kind: &'static str,
        round: u32,
    },
}

fn sorted_cell(cell: &CrosstableCell) -> CellJson {
    match *cell {
        CrosstableCell::Game {
            round,
            table,
            opponent,
            opponent_number,
            colour,
            result,
            points,
        } => CellJson::Game {
            colour,
            kind: "game",
            opponent,
            opponent_number,
            points,
            result,
            round,
            table,
        },
        CrosstableCell::Bye { round, points } => CellJson::Bye {
            kind: "bye",
            points,
            round,
        },
        CrosstableCell::NotPaired { round } => CellJson::NotPaired {
            kind: "not_paired",
            round,
        },
    }
}

/// A [`PlayerTiebreaks`] as its value prints.
pub(crate) struct SortedTiebreaks<'a>(pub &'a PlayerTiebreaks);

impl Serialize for SortedTiebreaks<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Fields<'a> {
            black_games: u32,
            black_wins: u32,
            cumulative: &'a [Points],
            cut_opp: Points,
            fouls: u32,
            median_opp: Points,
            opp_score: Points,
            opp_scores: &'a [Points],
            penalty: Points,
            player: PlayerId,
            progressive: Points,
            red_wins: u32,
            round_points: &'a [Points],
            score: Points,
            sonneborn_berger: i64,
            wins: u32,
            withdrawn: bool,
        }
        let PlayerTiebreaks {
            player,
            score,
            penalty,
            ref round_points,
            ref cumulative,
            opp_score,
            ref opp_scores,
            progressive,
            wins,
            red_wins,
            black_wins,
            black_games,
            fouls,
            median_opp,
            cut_opp,
            sonneborn_berger,
            withdrawn,
        } = *self.0;
        Fields {
            black_games,
            black_wins,
            cumulative,
            cut_opp,
            fouls,
            median_opp,
            opp_score,
            opp_scores,
            penalty,
            player,
            progressive,
            red_wins,
            round_points,
            score,
            sonneborn_berger,
            wins,
            withdrawn,
        }
        .serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Colour;
    use crate::report::SortedKeys;

    /// The text `SortedKeys` gives `value` (through a `serde_json::Value`), pretty.
    fn through_value<T: Serialize>(value: &T) -> String {
        serde_json::to_string_pretty(&SortedKeys(value)).unwrap()
    }

    #[test]
    fn a_round_prints_as_its_value() {
        let result = |late| GameResult {
            outcome: Outcome::BlackWin,
            red_fouls: 2,
            black_fouls: 1,
            late,
        };
        let game = |table, result| Pairing::Game {
            table,
            red: PlayerId(7),
            black: PlayerId(3),
            result,
        };
        let round = Round {
            number: 4,
            pairings: vec![
                game(1, Some(result(false))),
                game(2, Some(result(true))),
                game(3, None),
                Pairing::Bye {
                    player: PlayerId(9),
                },
            ],
        };
        assert_eq!(
            serde_json::to_string_pretty(&SortedRound(&round)).unwrap(),
            through_value(&round)
        );
    }

    #[test]
    fn a_crosstable_row_prints_as_its_value() {
        let game = |result, points, number| CrosstableCell::Game {
            round: 2,
            table: 5,
            opponent: PlayerId(11),
            opponent_number: number,
            colour: Colour::Black,
            result,
            points,
        };
        let mut row = CrosstableRow {
            player: PlayerId(4),
            number: Some(6),
            name: "张三 \"x\"".into(),
            rank: Some(2),
            shared: true,
            score: Points(3),
            cells: vec![
                game(Some('='), Some(Points(1)), Some(8)),
                game(None, None, None),
                CrosstableCell::Bye {
                    round: 3,
                    points: Points(2),
                },
                CrosstableCell::NotPaired { round: 4 },
            ],
        };
        assert_eq!(
            serde_json::to_string_pretty(&SortedRow(&row)).unwrap(),
            through_value(&row)
        );
        (row.number, row.rank) = (None, None);
        assert_eq!(
            serde_json::to_string(&SortedRow(&row)).unwrap(),
            serde_json::to_string(&SortedKeys(&row)).unwrap()
        );
    }

    #[test]
    fn tiebreak_values_print_as_their_value() {
        let values = PlayerTiebreaks {
            player: PlayerId(1),
            score: Points(5),
            penalty: Points(1),
            round_points: vec![Points(2), Points(0), Points(2)],
            cumulative: vec![Points(2), Points(2), Points(4)],
            opp_score: Points(9),
            opp_scores: vec![Points(3), Points(4), Points(2)],
            progressive: Points(8),
            wins: 2,
            red_wins: 1,
            black_wins: 1,
            black_games: 2,
            fouls: 3,
            median_opp: Points(3),
            cut_opp: Points(7),
            sonneborn_berger: -12,
            withdrawn: true,
        };
        assert_eq!(
            serde_json::to_string_pretty(&SortedTiebreaks(&values)).unwrap(),
            through_value(&values)
        );
    }
}
