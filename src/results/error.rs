//! Everything that can be wrong with a result, a fouls entry, a CSV of results, a
//! withdrawal or a playoff.

use crate::model::{GroupId, Outcome, PlayerId};
use thiserror::Error;

/// What went wrong entering results; nothing is changed when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResultError {
    #[error(
        "result `{token}` is not understood{at}: use `1-0`/`r`/`红胜`, `=`/`d`/`和`, `0-1`/`b`/`黑胜`, `+-`/`-+` for a forfeit or `--`/`双负`"
    )]
    BadToken { token: String, at: String },

    #[error("fouls `{text}`{at} are not understood: write red:black fouls, e.g. `1:0`")]
    BadFouls { text: String, at: String },

    #[error("table `{text}`{at} is not a table number: write a number from 1 up")]
    BadTable { text: String, at: String },

    #[error("round `{text}`{at} is not a round number: write a number from 1 up")]
    BadRound { text: String, at: String },

    #[error("table {table} has no result: write it after the table, e.g. `{table} 1-0`")]
    MissingOutcome { table: String },

    #[error("no results given: write `TABLE RESULT …`, e.g. `1 1-0 2 = 3 0-1/0:1`")]
    NoEntries,

    #[error("{source_name} line {line}: {message}")]
    CsvRow {
        source_name: String,
        line: u64,
        message: String,
    },

    #[error("{source_name}: column `{column}` is missing from the header: it needs {expected}")]
    CsvHeader {
        source_name: String,
        column: String,
        expected: String,
    },

    #[error("{source_name}: {message}")]
    Csv {
        source_name: String,
        message: String,
    },

    #[error("group `{group}` is not a pairing group of the rulebook: use one of {known}")]
    UnknownGroup { group: GroupId, known: String },

    #[error("group `{group}` has no rounds yet: pair round 1 before entering results")]
    NoRounds { group: GroupId },

    #[error("group `{group}` has no round {round}: its rounds are 1–{last}")]
    RoundMissing {
        group: GroupId,
        round: u32,
        last: u32,
    },

    #[error("round {round} of group `{group}` has no table {table}: its tables are {tables}")]
    TableMissing {
        group: GroupId,
        round: u32,
        table: u32,
        tables: String,
    },

    #[error("round {round} table {table} is given twice: give each table once")]
    DuplicateTable { round: u32, table: u32 },

    #[error(
        "round {round} table {table}: `{outcome}` was not played over the board, so it cannot carry fouls `{red}:{black}`: drop the fouls or enter the real result",
        outcome = .outcome.token()
    )]
    FoulsOnForfeit {
        round: u32,
        table: u32,
        outcome: Outcome,
        red: u32,
        black: u32,
    },

    #[error(
        "round {round} table {table}: {side} has {fouls} fouls but the game ends at {limit}: enter at most {limit}"
    )]
    FoulsOverLimit {
        round: u32,
        table: u32,
        side: &'static str,
        fouls: u32,
        limit: u32,
    },

    #[error(
        "round {round} table {table}: {side} reached {limit} fouls and so lost the game, but `{outcome}` makes {side} the winner: enter the real result",
        outcome = .outcome.token()
    )]
    FoulsContradictWinner {
        round: u32,
        table: u32,
        side: &'static str,
        limit: u32,
        outcome: Outcome,
    },

    #[error(
        "round {round} table {table}: both sides have {limit} fouls, but the game ends at the first side to reach {limit}: enter the fouls each side had when the game ended"
    )]
    BothAtFoulLimit { round: u32, table: u32, limit: u32 },

    #[error("player {player} is not registered: check the id with `qiwang players`")]
    UnknownPlayer { player: PlayerId },

    #[error("player {player} is already withdrawn from round {from_round}")]
    AlreadyWithdrawn { player: PlayerId, from_round: u32 },

    #[error(
        "player {player} is already paired in round {round}: withdraw from round {next} or unpair round {round} first",
        next = .round + 1
    )]
    PairedAfterWithdrawal { player: PlayerId, round: u32 },

    #[error("withdrawal round `{from_round}` is not a round number: rounds start at 1")]
    BadWithdrawalRound { from_round: u32 },

    #[error("a withdrawal needs a reason: say why, e.g. `--reason 身体不适`")]
    EmptyReason,

    #[error("group `{group}` has no tie that needs a playoff")]
    NoPlayoffNeeded { group: GroupId },

    #[error(
        "the playoff order {given} is not the tied players {tied} of group `{group}`: list each of them exactly once, winner first"
    )]
    PlayoffMismatch {
        group: GroupId,
        given: String,
        tied: String,
    },

    #[error("{} problems, nothing was recorded:\n{}", .0.len(), join(.0))]
    Many(Vec<ResultError>),
}

fn join(errors: &[ResultError]) -> String {
    errors
        .iter()
        .map(|e| format!("  - {e}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl ResultError {
    /// One error, or all of them at once.
    pub(crate) fn collect(mut errors: Vec<ResultError>) -> Result<(), ResultError> {
        match errors.len() {
            0 => Ok(()),
            1 => Err(errors.remove(0)),
            _ => Err(ResultError::Many(errors)),
        }
    }
}
