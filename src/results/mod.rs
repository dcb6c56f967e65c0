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
//! | `parse.rs` | reading outcome tokens, fouls, result arguments and results CSV files |
//! | `record.rs` | recording results all or nothing, with the foul rule |
//! | `recorded.rs` | what recording reports: [`RecordedResult`], [`ResultWarning`], [`RecordReport`] |
//! | `forfeits.rs` | the forfeit-withdrawal rule, re-applied after every change of results |
//! | `withdraw.rs` | withdrawing and reinstating a player by hand; wording a withdrawal's cause |
//! | `playoff.rs` | recording the playoff (加赛) that settles a tie for an unshareable place |
//! | `rounds.rs` | round-level changes: unpairing a round, point penalties, finished rounds |
//! | `rules_update.rs` | replacing the frozen rulebook between rounds |
//! | `rules_field.rs` | what a new rulebook contradicts in the registered field |
//! | `error.rs` | [`ResultError`], every refusal of this module |

mod entry;
mod error;
mod forfeits;
mod parse;
mod playoff;
mod record;
mod recorded;
mod rounds;
mod rules_field;
mod rules_update;
mod withdraw;

pub use entry::ResultEntry;
pub use error::ResultError;
pub use parse::{
    PoolResults, is_late_token, parse_fouls, parse_outcome, parse_result_args, parse_results_csv,
    read_results_file,
};
pub use playoff::record_playoff;
pub use record::{record_results, record_results_in_rounds};
pub use recorded::{RecordReport, RecordedResult, ResultWarning, correction_text};
pub use rounds::{add_penalty, check_round_finished, unpair_round};
pub use rules_update::{RulesUpdate, RulesUpdateError, line_diff, update_rulebook};
pub use withdraw::{
    reinstate_player, withdraw, withdraw_from_next_round, withdraw_player, withdrawal_cause_text,
};
