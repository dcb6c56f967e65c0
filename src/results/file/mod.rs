//! Reading a results file (`result --from`): the CSV (or a workbook's first sheet as
//! CSV) an arbiter fills in, split by group, every row checked against the event before
//! anything is recorded: its round and table, its fouls, and, when the row says who
//! played (红方/黑方 names, 序号, ID tails) or carries the pairing code (编排码) the slips
//! were printed with, that these are the game at that table now.
//!
//! Owns the columns a results file may have and the order of the checks; the token
//! syntax is `parse.rs`'s, the comparison of players `seats.rs`'s.
//!
//! Here: the two entry points and the splitting of rows by group; `columns` holds the
//! headers a results file may have, `rows` reads its rows, `check` checks them against
//! the event (seats, pairing codes, which group a name means).

mod check;
mod columns;
mod hall;
mod rows;
#[cfg(test)]
mod tests;

use super::mismatch::Mismatch;
use super::seats::Roster;
use super::{ResultEntry, ResultError};
use crate::model::{Event, GroupId};
use crate::rulebook::Rulebook;
use check::{RowChecker, Stale, entry_of, pool_named, stale_errors};
use rows::{CsvRows, read_rows};
use std::collections::BTreeMap;

/// Reads a CSV of results with the header `round,table,outcome,fouls` (or
/// `轮次,台号,结果,犯规`; the fouls column is optional and an empty cell means none).
/// `source` names the file in messages. Every bad row is reported with its line number,
/// and a round/table given twice is an error. A file with a 组别 column is refused here
/// (its rows belong to several groups), and so is one that says who played or carries
/// pairing codes (there is no event here to check them against): read those with
/// [`read_results_file`].
pub fn parse_results_csv(text: &str, source: &str) -> Result<Vec<(u32, ResultEntry)>, ResultError> {
    let CsvRows {
        rows,
        mut errors,
        has_group_column,
        names_players,
        ..
    } = read_rows(text, source)?;
    if has_group_column {
        errors.push(ResultError::GroupColumnUnexpected {
            source_name: source.to_string(),
        });
    }
    if names_players {
        errors.push(
            Mismatch::Unchecked {
                source_name: source.to_string(),
            }
            .into(),
        );
    }
    ResultError::collect(errors)?;
    if rows.is_empty() {
        return Err(ResultError::NoRows {
            source_name: source.to_string(),
        });
    }
    Ok(rows.into_iter().map(|r| (r.round, r.entry)).collect())
}

/// The results of one pool read from a results file, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolResults {
    /// The pool the rows name (or the only pool waiting for results, without a column).
    pub group: GroupId,
    /// `(round, entry)` as [`record_results_in_rounds`](super::record_results_in_rounds)
    /// takes them.
    pub entries: Vec<(u32, ResultEntry)>,
    /// The CSV line of each entry.
    pub lines: Vec<u64>,
}

/// What a results file gives: its rows per pool, and the lines left out because their
/// result cell is empty (games not finished when the file was made).
#[derive(Debug)]
pub struct ResultsFile {
    /// The rows per pool, in order of first appearance.
    pub pools: Vec<PoolResults>,
    /// The CSV lines without a result.
    pub blank_lines: Vec<u64>,
}

/// Reads one results file for the whole event (`result --from FILE`) and checks every
/// row against the event, reporting **every** problem of the file at once, each with its
/// CSV line: unreadable cells, unknown groups, rounds or tables that do not exist, fouls
/// that contradict the outcome, a table given twice, players named who are not the
/// table's (or not in their colours), and rows printed for a pairing since re-made.
///
/// A 组别 column (`组别`/`group`) names each row's group by id, regulation name or alias
/// (a section resolves to the pool it plays in, a merged group to the group it was merged
/// into). Without that column every row belongs to `group` if given, else to the event's
/// only pool with rounds. With both, every row must name `group`: the column is never
/// ignored. A 场地 column (`场地`/`hall`) gives the hall of each row's table: a hall some
/// pool stands in (empty or `主赛场` for the main hall), and its group's hall; a row
/// without 组别 is found by its hall and table, a hall's tables being numbered on in one
/// sequence, and a table is given once per hall. A row's 编排码 must be its round's
/// pairing code now; its 红方/黑方 (names, `name(序号)`, 序号 or ID-tail columns) must be the players of its table, each in their
/// colour; a file without a table column finds each row's table by its two players.
/// Nothing is recorded here; the caller records the returned batches in one transaction,
/// so a file is taken whole or not at all.
pub fn read_results_file(
    text: &str,
    source: &str,
    event: &Event,
    rules: &Rulebook,
    group: Option<&GroupId>,
) -> Result<ResultsFile, ResultError> {
    let CsvRows {
        rows,
        blank,
        mut errors,
        has_group_column,
        ..
    } = read_rows(text, source)?;
    let row_error = |line: u64, error: ResultError| ResultError::CsvRow {
        source_name: source.to_string(),
        line,
        error: Box::new(error),
    };
    let mut unknown_halls = Vec::new();
    let rows = hall::read(event, rules, rows, &mut unknown_halls);
    errors.extend(
        unknown_halls
            .into_iter()
            .map(|(line, e)| row_error(line, e)),
    );
    // The pool of each row by its table, when the file has no 组别 column and its tables
    // are numbered across the hall.
    let mut by_table = BTreeMap::new();
    let default_pool = match group {
        Some(g) => Some(g.clone()),
        None if has_group_column => None,
        None => {
            let with_rounds: Vec<&GroupId> = rules
                .pools()
                .map(|g| &g.id)
                .filter(|id| event.group(id).is_some_and(|g| !g.rounds.is_empty()))
                .collect();
            match with_rounds.as_slice() {
                [one] => Some((*one).clone()),
                [] => rules.pools().next().map(|g| g.id.clone()),
                _ => match row_pools(event, rules, &rows) {
                    // One hall numbering (docs/rules.md §12): every row's table names one
                    // table of one pool's round, so the row needs no 组别.
                    Some(Ok(pools)) => {
                        by_table = pools;
                        None
                    }
                    // The hall's numbering but for rows whose table no pool has in their
                    // round: those rows are named, as `qiwang result` names such a table.
                    Some(Err(missing)) => {
                        errors.extend(missing.into_iter().map(|(line, e)| row_error(line, e)));
                        return Err(ResultError::collect(errors).unwrap_err());
                    }
                    None => {
                        errors.push(ResultError::GroupColumnMissing {
                            source_name: source.to_string(),
                            groups: with_rounds
                                .iter()
                                .map(|id| rules.group_name(id))
                                .collect::<Vec<_>>()
                                .join(", "),
                        });
                        return Err(ResultError::collect(errors).unwrap_err());
                    }
                },
            }
        }
    };
    // Rows per pool, in order of first appearance in the file.
    let mut pools: Vec<PoolResults> = Vec::new();
    let mut stale = Stale::new();
    let roster = Roster::new(event);
    let mut checker = RowChecker {
        event,
        rules,
        roster: &roster,
        rounds: BTreeMap::new(),
    };
    for row in rows {
        let pool = match &row.group {
            Some(text) if !text.is_empty() => match pool_named(event, rules, text) {
                Some(pool) => {
                    if let Some(wanted) = group.filter(|g| **g != pool) {
                        errors.push(row_error(
                            row.line,
                            ResultError::GroupNotChosen {
                                text: text.clone(),
                                chosen: rules.group_name(wanted),
                            },
                        ));
                        continue;
                    }
                    pool
                }
                None => {
                    errors.push(row_error(
                        row.line,
                        ResultError::UnknownGroupName {
                            text: text.clone(),
                            known: rules
                                .groups
                                .iter()
                                .map(|g| format!("`{}`", g.name))
                                .collect::<Vec<_>>()
                                .join(", "),
                        },
                    ));
                    continue;
                }
            },
            // An empty cell is already reported.
            Some(_) => continue,
            None => match default_pool.as_ref().or_else(|| by_table.get(&row.line)) {
                Some(pool) => pool.clone(),
                None => continue,
            },
        };
        if let Err(e) = hall::check(rules, &pool, &row) {
            errors.push(row_error(row.line, e));
            continue;
        }
        let Some(table) = checker
            .check(&pool, &row, &mut stale)
            .map_err(|e| errors.push(row_error(row.line, e)))
            .ok()
            .flatten()
        else {
            continue;
        };
        let entry = ResultEntry { table, ..row.entry };
        let batch = match pools.iter().position(|p| p.group == pool) {
            Some(i) => &mut pools[i],
            None => {
                pools.push(PoolResults {
                    group: pool,
                    entries: Vec::new(),
                    lines: Vec::new(),
                });
                pools.last_mut().expect("just pushed")
            }
        };
        batch.entries.push((row.round, entry));
        batch.lines.push(row.line);
    }
    errors.extend(stale_errors(event, rules, source, stale));
    // Check each pool's rows against the event on a scratch copy: the recording functions
    // report one problem per bad entry, in entry order, naming its round and table.
    for batch in &pools {
        let mut scratch = event.clone();
        let Err(e) =
            super::record_results_in_rounds(&mut scratch, rules, &batch.group, &batch.entries)
        else {
            continue;
        };
        let problems = match e {
            ResultError::Many(list) => list,
            one => vec![one],
        };
        let mut next = 0;
        for problem in problems {
            let at = entry_of(&problem, &batch.entries, next);
            match at {
                Some(i) => {
                    errors.push(row_error(batch.lines[i], problem));
                    next = i + 1;
                }
                // A problem of the whole pool (no rounds yet): on its first line.
                None => errors.push(row_error(batch.lines[0], problem)),
            }
        }
    }
    // In file order; rows printed for another pairing at their first line.
    errors.sort_by_key(|e| match e {
        ResultError::CsvRow { line, .. } => *line,
        ResultError::Mismatch(m) => match &**m {
            Mismatch::StalePairing { lines, .. } => lines.first().map_or(0, |l| u64::from(*l)),
            _ => 0,
        },
        _ => 0,
    });
    ResultError::collect(errors)?;
    if pools.is_empty() {
        return Err(ResultError::NoRows {
            source_name: source.to_string(),
        });
    }
    Ok(ResultsFile {
        pools,
        blank_lines: blank,
    })
}

/// The pool of each row by its CSV line, or the rows whose table no pool has, each with
/// its error ([`row_pools`]).
type RowPools = Result<BTreeMap<u64, GroupId>, Vec<(u64, ResultError)>>;

/// The pool of each row (by CSV line) of a file without a 组别 column, read from its
/// table number with [`super::pools_of_tables`] (tables numbered across the hall,
/// docs/rules.md §12), among the pools of the row's hall when its 场地 cell gives one:
/// `Ok` when exactly one pool has a game at every row's table in the row's round; `Err`
/// with each row whose table no pool has in its round ([`ResultError::HallTableMissing`]) when every other row's table is one pool's; `None`
/// when a row has no table or a table several pools share (each pool numbered from 1):
/// then the file must say its group.
fn row_pools(event: &Event, rules: &Rulebook, rows: &[rows::CsvRow]) -> Option<RowPools> {
    let mut pools = BTreeMap::new();
    let mut missing = Vec::new();
    for row in rows {
        let among = rules
            .pools()
            .filter(|g| hall::holds(row, g.hall.name.as_deref()));
        match super::pools_of_tables_among(event, among, Some(row.round), &[row.table?]) {
            Ok(Some(mut pool)) => {
                pools.insert(row.line, pool.pop()?);
            }
            Ok(None) => return None,
            Err(e) => missing.push((row.line, e)),
        }
    }
    Some(if missing.is_empty() {
        Ok(pools)
    } else {
        Err(missing)
    })
}
