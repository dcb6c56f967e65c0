//! Standings: scores, every tiebreak, ranking and the crosstable.
//!
//! Pure functions of (event, rulebook, round): computed on demand, never stored, so a
//! corrected result fixes everything downstream. Must not read files or print.

mod crosstable;
mod knockout;
mod rank;
mod round_robin;
mod stage;
mod types;
mod values;

pub use crosstable::{Crosstable, CrosstableCell, CrosstableRow, crosstable, crosstable_of};
pub use knockout::{QualificationDrift, finalists, qualification_drift};
pub use rank::compute_standings;
pub use round_robin::{annulled_players, ranked_event, ranking_rules};
pub use stage::{scores_before, stage_table};
pub use types::*;
pub use values::{DetailedStandings, PlayerTiebreaks, detailed_standings, tiebreak_values};

pub(crate) use rank::{lot, resolve_round};
