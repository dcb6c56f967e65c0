//! Results: reading what arbiters write (outcome tokens, fouls, CSV) and recording it,
//! with the conduct rules that follow from it (a foul limit loses the game; enough
//! forfeits withdraw a player), withdrawals and playoffs.
//!
//! Owns every change to game results, withdrawal status and playoffs. Standings are not
//! stored, so a corrected result fixes everything downstream. Must not read files or
//! print: the CLI passes text in and renders the [`RecordReport`].
//!
//! | file | holds |
//! |---|---|
//! | `entry.rs` | [`ResultEntry`], one table's result as entered |
//! | `parse.rs` | reading outcome tokens, fouls and result arguments |
//! | `file/` | reading a results file (`result --from`), every row checked before recording |
//! | `source.rs` | a results file's bytes as text: a workbook's first sheet, or decoded CSV |
//! | `typed.rs` | `result --names`: the players typed for each table |
//! | `tables.rs` | which pool a hall table number belongs to (`result 38 r` without `--group`) |
//! | `seats.rs` | who a row says played (names, 序号, ID tails), checked against its table |
//! | `fingerprint.rs` | the pairing code (编排码) a results file is printed with |
//! | `mismatch.rs` | [`Mismatch`]: a row about other players, a file for a pairing since re-made |
//! | `record.rs` | recording results all or nothing, with the foul rule |
//! | `recorded.rs` | what recording reports: [`RecordedResult`], [`ResultWarning`], [`RecordReport`] |
//! | `forfeits.rs` | the forfeit-withdrawal rule, re-applied after every change of results |
//! | `withdraw.rs` | withdrawing and reinstating a player by hand; wording a withdrawal's cause |
//! | `playoff.rs` | recording the playoff (加赛) that settles a tie for an unshareable place |
//! | `rounds.rs` | round-level decisions: point penalties, finished rounds |
//! | `error/` | [`ResultError`], every refusal of this module, its messages by family |

mod entry;
mod error;
mod file;
mod fingerprint;
mod forfeits;
mod mismatch;
mod parse;
mod playoff;
mod record;
mod recorded;
mod rounds;
mod seats;
mod source;
mod tables;
mod typed;
mod withdraw;

pub use entry::ResultEntry;
pub use error::ResultError;
pub use file::{PoolResults, ResultsFile, parse_results_csv, read_results_file};
pub use fingerprint::pairing_code;
pub(crate) use forfeits::apply_forfeit_withdrawals;
pub use mismatch::{Hint, Mismatch, Place, Seen, Whereabouts};
pub use parse::{is_late_token, parse_fouls, parse_outcome, parse_result_args};
pub use playoff::record_playoff;
pub use record::{record_results, record_results_in_rounds};
pub use recorded::{
    RecordReport, RecordedResult, ResultWarning, correction_text, qualification_text,
};
pub use rounds::{add_penalty, add_warning, check_round_finished};
pub use seats::{SeatClaim, Seats, check_typed_seats};
pub use source::{ResultsText, SourceError, results_text};
pub use tables::pools_of_tables;
pub(crate) use tables::pools_of_tables_among;
pub use typed::{TypedNamesError, typed_seats};
pub use withdraw::{
    reinstate_player, withdraw, withdraw_from_next_round, withdraw_player, withdrawal_cause_text,
};
