//! What every command needs: the event, its rulebook, the language and format, and
//! resolving the names a user types (groups, players).
//!
//! | file | holds |
//! |---|---|
//! | `ctx.rs` | [`Ctx`] (global options, output, the audit command line) and [`Loaded`], [`LoadedKept`] |
//! | `lang.rs` | the language of a run before an event is loaded (`--lang`, the rulebook's) |
//! | `resolve.rs` | groups and players the user names; players named as on a sheet |
//! | `files.rs` | reading a text file the user names |
//! | `refusal.rs` | the command line's own refusals ([`Refusal`]), typed by what went wrong |
//! | `errors.rs` | the one map from every error (library or [`Refusal`]) to its exit code |
//! | `xlsx.rs` | `--format xlsx`: writer errors, refusing a terminal |

mod ctx;
mod errors;
mod files;
mod lang;
mod refusal;
mod resolve;
mod xlsx;

pub use ctx::{Ctx, FormatArg, Loaded, LoadedKept};
pub use errors::{lib_error, pair_error, tx_error};
pub use files::{read_input, read_text};
pub use lang::{error_groups, error_lang, lang_flag, read_rulebook_text};
pub use refusal::Refusal;
pub use resolve::{player_label, pools_shown, resolve_paired_pool, resolve_player, resolve_pool};
pub use xlsx::{refuse_xlsx_on_terminal, xlsx_error};
