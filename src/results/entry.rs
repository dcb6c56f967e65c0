//! One table's result as the arbiter entered it, before the foul rule is applied.

use crate::model::Outcome;

/// One table's result as entered, before the foul rule is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ResultEntry {
    /// The table number on the round's pairing sheet, which finds the game.
    pub table: u32,
    /// The outcome as entered; a side at the foul limit may turn it into a loss.
    pub outcome: Outcome,
    /// Red's fouls in the game (0 when none were written), checked against the limit.
    pub red_fouls: u32,
    /// Black's fouls in the game, as for `red_fouls`.
    pub black_fouls: u32,
    /// A forfeit for lateness (`红迟到`, `black-late`), not absence.
    pub late: bool,
}

impl ResultEntry {
    /// A result without fouls.
    pub fn new(table: u32, outcome: Outcome) -> Self {
        ResultEntry {
            table,
            outcome,
            red_fouls: 0,
            black_fouls: 0,
            late: false,
        }
    }

    /// The same result with the game's fouls.
    pub fn with_fouls(self, red_fouls: u32, black_fouls: u32) -> Self {
        ResultEntry {
            red_fouls,
            black_fouls,
            ..self
        }
    }
}
