//! Results: reading what arbiters write (outcome tokens, fouls, CSV) and recording it,
//! with the conduct rules that follow from it (a foul limit loses the game; enough
//! forfeits withdraw a player), withdrawals and playoffs.
//!
//! Owns every change to game results, withdrawal status and playoffs. Standings are not
//! stored, so a corrected result fixes everything downstream. Must not read files or
//! print: the CLI passes text in and renders the [`RecordReport`].

mod error;
mod parse;
mod record;
mod rounds;
mod rules_update;

pub use error::ResultError;
pub use parse::{
    PoolResults, is_late_token, parse_fouls, parse_outcome, parse_result_args, parse_results_csv,
    read_results_file,
};
pub use record::{
    RecordReport, RecordedResult, ResultWarning, record_playoff, record_results,
    record_results_in_rounds, reinstate_player, withdraw, withdraw_from_next_round,
    withdraw_player, withdrawal_cause_text,
};
pub use rounds::{add_penalty, check_round_finished, unpair_round};
pub use rules_update::{RulesUpdate, RulesUpdateError, line_diff, update_rulebook};

use crate::model::Outcome;

/// One table's result as entered, before the foul rule is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ResultEntry {
    pub table: u32,
    pub outcome: Outcome,
    pub red_fouls: u32,
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
