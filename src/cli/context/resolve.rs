//! The names a user types (groups, players) resolved in the event, and players named
//! back as the arbiter reads them on a sheet.

use crate::cli::error::CliError;
use qiwang::lookup::Shown;
use qiwang::model::{Event, GroupId, Player, PlayerId};
use qiwang::rulebook::Rulebook;

/// Finds the pool a user names (`--group`); see `qiwang::lookup::find_pool`.
pub fn resolve_pool(
    rules: &Rulebook,
    event: &Event,
    name: Option<&str>,
) -> Result<GroupId, CliError> {
    qiwang::lookup::find_pool(rules, event, name).map_err(super::lib_error)
}

/// Finds the pool whose rounds a command is about (`--group`); see
/// `qiwang::lookup::find_paired_pool`.
pub fn resolve_paired_pool(
    rules: &Rulebook,
    event: &Event,
    name: Option<&str>,
) -> Result<GroupId, CliError> {
    qiwang::lookup::find_paired_pool(rules, event, name).map_err(super::lib_error)
}

/// Finds a player the user names; see `qiwang::lookup::find_player`.
pub fn resolve_player<'a>(
    event: &'a Event,
    pool: Option<&GroupId>,
    text: &str,
) -> Result<&'a Player, CliError> {
    qiwang::lookup::find_player(event, pool, text).map_err(super::lib_error)
}

/// The ids of the pools a command shows without `--group`; see
/// `qiwang::lookup::pools_shown`.
pub fn pools_shown(rules: &Rulebook, event: &Event, shown: Shown) -> Vec<GroupId> {
    qiwang::lookup::pools_shown(rules, event, shown)
        .into_iter()
        .map(|g| g.id.clone())
        .collect()
}

/// A player as the arbiter reads them on a sheet: 张三(12), name and pairing number.
pub fn player_label(event: &Event, id: PlayerId) -> String {
    event.player_label(id)
}
