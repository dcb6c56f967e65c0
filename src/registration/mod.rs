//! Registration import: the organiser's Excel workbook (or its CSV export) becomes players.
//!
//! Owns reading registration files (workbook sheets, encoding, delimiter, headers, cell
//! values; several files as one batch), the
//! checks on each row (ID-card checksum and cross-checks, the eligibility of the group
//! named, duplicates). All-or-nothing: every problem is
//! collected with its line and column, and no player is returned unless the whole file
//! is clean. Must not print, nor touch the event state except to add or correct the one
//! player of `player add`/`player edit` (`entry.rs`); the caller stores imported players.
//!
//! The map: `batch.rs` is the entry point ([`read_batch`] for several files,
//! [`read_registrations`] for one; all or nothing); `sheet.rs` reads a CSV file or the
//! worksheets of a workbook and finds the header row (`headers.rs` maps the columns,
//! `xlsx.rs` turns a workbook's bytes into cells ([`crate::input::decode`] a CSV's), within the limits of `limits.rs`,
//! which `xlsx_scan.rs`, `xls_scan.rs` and `ods_scan.rs` measure before the workbook
//! library reads a byte and `grid.rs` keeps while laying the cells out); `row.rs` turns one row into a
//! player (`values.rs` parses the cells, `id_card.rs` checks ID numbers,
//! `eligibility.rs` the group's conditions); `duplicates.rs` refuses a player
//! registered twice; `limit.rs` the event's maximum number of players; `entry.rs` puts
//! one player typed field by field (`player add`, `player edit`) through the same checks;
//! `problems.rs` holds the located errors; `footer.rs` tells the rows under the list that
//! are no players (the footer, a stated head count) and words the count's warning. Around the import:
//! `groups.rs` (with `groups/`) counts, merges, cancels and checks groups, `template.rs` writes
//! an empty registration sheet and `normalise.rs` cleans cells and names. Finding the
//! players and pools a user names is [`crate::lookup`]'s, masking personal data
//! [`crate::privacy`]'s.

mod batch;
mod duplicates;
mod entry;
mod footer;
mod grid;
mod limit;
mod limits;
mod ods_scan;
mod problems;
mod row;
mod sheet;
pub mod team_sheet;
#[cfg(test)]
pub(crate) mod tests;
mod xls_scan;
mod xlsx_scan;

pub mod eligibility;
pub mod groups;
pub mod headers;
pub mod id_card;
pub mod normalise;
pub mod template;
pub mod values;
pub mod xlsx;

pub use batch::{
    BatchOptions, EntryPools, FileRead, ImportOptions, Imported, RegistrationFile, read_batch,
    read_registrations,
};
pub use entry::{
    Admitted, EntryError, PlayerEntry, add_player, add_player_on, admit, admit_batch, edit_player,
    player_from_entry,
};
pub use groups::{
    GroupError, GroupNow, GroupSize, MergeError, MergeReport, Placed, PoolNow, Stranded,
    Undersized, cancel_group, cancelled_pools, check_pool_size, check_reinstate, group_size,
    group_sizes, merge_group, merged_note, merged_pools, place_entries, place_entry, pool_now,
    stranded_players, undersized_groups,
};
pub use id_card::{IdCard, IdError, parse_id_number};
pub use problems::{ImportErrors, MAX_SHOWN, Omitted, Place, RowError, Stop};
pub use row::find_group;
pub use sheet::is_example_mark;
