//! The 场地 (hall) column of a results file (docs/rules.md §12 (table numbers)): a pool
//! with `hall = "二楼"` numbers its tables from 1 in that hall, so a row's table is a
//! board only with its hall. Each cell is read as a hall some pool stands in (refused
//! otherwise, naming the halls there are), checked against the row's group, and, in a
//! file without 组别, used to find the row's pool among the pools of that hall.

use super::rows::CsvRow;
use crate::model::{Event, GroupId};
use crate::results::ResultError;
use crate::results::parse::normalize;
use crate::rulebook::Rulebook;

/// What a 场地 cell may say for the main hall (after [`normalize`]), besides an empty
/// cell: the slips file writes the main hall's rows empty.
const MAIN_HALL_WORDS: &[&str] = &["主赛场", "主场地", "主会场", "main", "main hall"];

/// The hall a 场地 cell names, for telling rows apart before the event is read: `""` for
/// the main hall (an empty cell or a [`MAIN_HALL_WORDS`] word), the cell [`normalize`]d
/// otherwise, as [`read`] matches it to a pool's hall (`B2` and `ｂ２` are one hall, so one
/// board given in both spellings is given twice).
pub(super) fn key(cell: &str) -> String {
    let cell = normalize(cell);
    if MAIN_HALL_WORDS.contains(&cell.as_str()) {
        String::new()
    } else {
        cell
    }
}

/// The halls the event's pools stand in (merged and cancelled pools left out), the main
/// hall as `""`, in rulebook order, each once.
fn halls(event: &Event, rules: &Rulebook) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for g in rules.pools() {
        let gone = event
            .group(&g.id)
            .is_some_and(|s| s.cancelled || s.merged_into.is_some());
        let hall = g.hall.name.clone().unwrap_or_default();
        if !gone && !out.contains(&hall) {
            out.push(hall);
        }
    }
    out
}

/// Reads the 场地 cell of each row that has one as the hall it names, written back into
/// the row as that hall's name (`""`: the main hall). A hall a pool stands in is taken as
/// the rulebook spells it (full-width letters and case aside); an empty cell or a main-hall
/// word means the main hall. A row naming no hall of the event is left out, its error
/// (with its line) pushed to `errors`.
pub(super) fn read(
    event: &Event,
    rules: &Rulebook,
    rows: Vec<CsvRow>,
    errors: &mut Vec<(u64, ResultError)>,
) -> Vec<CsvRow> {
    let halls = halls(event, rules);
    // Each hall as a cell is compared with it, once for the file, not once per row.
    let spelled: Vec<(String, &String)> = halls.iter().map(|h| (normalize(h), h)).collect();
    rows.into_iter()
        .filter_map(|mut row| {
            let Some(cell) = row.hall.as_deref() else {
                return Some(row);
            };
            let written = normalize(cell);
            // A hall the rulebook names first (one named `main` is that hall), then the
            // main hall for an empty cell or a main-hall word.
            let named = spelled
                .iter()
                .find(|(n, h)| !h.is_empty() && *n == written)
                .or_else(|| {
                    spelled
                        .iter()
                        .find(|(_, h)| h.is_empty() && key(&written).is_empty())
                })
                .map(|&(_, h)| h);
            match named {
                Some(hall) => {
                    row.hall = Some(hall.clone());
                    Some(row)
                }
                None => {
                    errors.push((
                        row.line,
                        ResultError::UnknownHall {
                            text: cell.to_string(),
                            halls: halls.clone(),
                        },
                    ));
                    None
                }
            }
        })
        .collect()
}

/// Whether a row's hall (read by [`read`]; `None`: the file has no 场地 column) is the
/// hall `pool` stands in.
pub(super) fn check(rules: &Rulebook, pool: &GroupId, row: &CsvRow) -> Result<(), ResultError> {
    let Some(written) = &row.hall else {
        return Ok(());
    };
    let own = rules.hall_of(pool).unwrap_or_default();
    if written == own {
        return Ok(());
    }
    Err(ResultError::HallNotGroups {
        hall: written.clone(),
        group: rules.group_name(pool),
        own: own.to_string(),
    })
}

/// Whether a pool stands in a row's hall (every pool when the row names none).
pub(super) fn holds(row: &CsvRow, hall: Option<&str>) -> bool {
    row.hall
        .as_deref()
        .is_none_or(|written| written == hall.unwrap_or_default())
}
