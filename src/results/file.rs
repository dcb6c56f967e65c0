//! Reading a results file (`result --from`): the CSV (or a workbook's first sheet as
//! CSV) an arbiter fills in, split by group, every row checked against the event before
//! anything is recorded: its round and table, its fouls, and, when the row says who
//! played (红方/黑方 names, 序号, ID tails) or carries the pairing code (编排码) the slips
//! were printed with, that these are the game at that table now.
//!
//! Owns the columns a results file may have and the order of the checks; the token
//! syntax is `parse.rs`'s, the comparison of players `seats.rs`'s.

use super::fingerprint::{normalize_code, pairing_code};
use super::mismatch::Mismatch;
use super::parse::{is_late_token, normalize, parse_fouls, parse_number, parse_outcome};
use super::seats::{Roster, RoundAt, SeatClaim, Seats};
use super::{ResultEntry, ResultError};
use crate::model::{Event, GroupId};
use crate::rulebook::Rulebook;
use std::collections::BTreeMap;

const ROUND_HEADERS: &[&str] = &["round", "轮次", "轮", "轮数"];
const TABLE_HEADERS: &[&str] = &["table", "board", "台号", "台次", "台"];
const OUTCOME_HEADERS: &[&str] = &["outcome", "result", "结果", "成绩"];
const FOULS_HEADERS: &[&str] = &["fouls", "foul", "犯规"];
const GROUP_HEADERS: &[&str] = &["group", "组别", "组", "组名", "编排组"];
/// What a 红方/黑方 column says about a side: the name (`红方`, `红方姓名`, `red`, `red
/// player`), the pairing number (`红方序号`, `红方编号`, `red no.`) or the end of the ID
/// number (`红方证件尾号`, `红方身份证号`, `red id`). Checked against the game at the row's
/// table (`seats.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SideColumn {
    Name,
    Number,
    IdTail,
}

/// Reads a normalized header as a side's column: its colour (red first) and kind. Any
/// header that starts with the side (`红`, `黑`, `red`, `black`) and names a player, a
/// number or an ID is taken, so that a spelling not listed still gets checked; the
/// side's unit, score, fouls or signature are not.
fn side_column(header: &str) -> Option<(usize, SideColumn)> {
    let (side, rest) = [
        ("红方", 0),
        ("黑方", 1),
        ("红", 0),
        ("黑", 1),
        ("red", 0),
        ("black", 1),
    ]
    .iter()
    .find_map(|(prefix, side)| header.strip_prefix(prefix).map(|rest| (*side, rest)))?;
    if rest.contains('#') {
        return Some((side, SideColumn::Number));
    }
    let rest = rest.trim_matches(|c: char| c.is_whitespace() || "方:：()（）-_.·".contains(c));
    let kind = if [
        "",
        "姓名",
        "名字",
        "名",
        "棋手",
        "选手",
        "棋手姓名",
        "选手姓名",
        "player",
        "name",
        "player name",
        "players",
    ]
    .contains(&rest)
    {
        SideColumn::Name
    } else if ["序号", "编号", "编排号", "号码"]
        .iter()
        .any(|w| rest.contains(w))
        || ["no", "number", "nr", "num", "pairing number", "pairing no"].contains(&rest)
    {
        SideColumn::Number
    } else if ["证件", "身份证", "尾号"].iter().any(|w| rest.contains(w))
        || ["id", "id tail", "id number", "id no", "id card"].contains(&rest)
    {
        SideColumn::IdTail
    } else {
        return None;
    };
    Some((side, kind))
}

/// The pairing code column every results file qiwang writes carries (`fingerprint.rs`).
pub(crate) const CODE_HEADERS: &[&str] = &["编排码", "pairing", "pairing code"];

/// One readable row of a results CSV.
struct CsvRow {
    line: u64,
    /// The 组别 cell, when the file has that column.
    group: Option<String>,
    round: u32,
    /// The 台号 cell; `None` in a file without that column, whose rows name both players.
    table: Option<u32>,
    /// The result; its `table` is set once the table is known.
    entry: ResultEntry,
    /// Who the row says played.
    seats: Seats,
    /// The 编排码 cell, normalized; empty when the row has none.
    code: String,
}

/// The rows of a results CSV that parse, every problem found (with its line), whether
/// the file has a group column, and whether it says who played or carries pairing codes.
struct CsvRows {
    rows: Vec<CsvRow>,
    errors: Vec<ResultError>,
    has_group_column: bool,
    names_players: bool,
}

/// Reads every row of a results CSV, collecting every problem instead of stopping at the
/// first. A header without a required column returns early (no row can be read). The
/// table column may be left out when both the 红方 and 黑方 columns are there.
fn read_rows(text: &str, source: &str) -> Result<CsvRows, ResultError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| ResultError::HeaderUnreadable {
            source_name: source.to_string(),
            detail: e.to_string(),
        })?;
    let names: Vec<String> = headers.iter().map(normalize).collect();
    let find = |aliases: &[&str]| names.iter().position(|n| aliases.contains(&n.as_str()));
    // [colour][kind] → the first column of that side and kind.
    let mut sides = [[None; 3]; 2];
    for (i, name) in names.iter().enumerate() {
        if let Some((side, kind)) = side_column(name) {
            sides[side][kind as usize].get_or_insert(i);
        }
    }
    let [
        [red_col, red_number_col, red_id_col],
        [black_col, black_number_col, black_id_col],
    ] = sides;
    let code_col = find(CODE_HEADERS);
    let mut errors = Vec::new();
    let mut column = |aliases: &[&str], name: &str, extra: &str| {
        let found = find(aliases);
        if found.is_none() {
            errors.push(ResultError::CsvHeader {
                source_name: source.to_string(),
                column: name.to_string(),
                expected: format!("one of {}{extra}", aliases.join(", ")),
            });
        }
        found
    };
    let round_col = column(ROUND_HEADERS, "round", "");
    // A row that names both players finds its table by them.
    let table_col = if red_col.is_some() && black_col.is_some() {
        find(TABLE_HEADERS)
    } else {
        column(TABLE_HEADERS, "table", " (or both 红方 and 黑方)")
    };
    let outcome_col = column(OUTCOME_HEADERS, "outcome", "");
    let fouls_col = find(FOULS_HEADERS);
    let group_col = find(GROUP_HEADERS);
    let (Some(round_col), Some(outcome_col)) = (round_col, outcome_col) else {
        return Err(ResultError::collect(errors).unwrap_err());
    };
    ResultError::collect(std::mem::take(&mut errors))?;
    let names_players = [
        red_col,
        black_col,
        red_number_col,
        black_number_col,
        red_id_col,
        black_id_col,
        code_col,
    ]
    .iter()
    .any(Option::is_some);

    let mut rows: Vec<CsvRow> = Vec::new();
    // (group cell, round, table) → first line.
    let mut seen: std::collections::BTreeMap<(String, u32, u32), u64> = Default::default();
    let mut lines = crate::registration::decode::LineCounter::new(text);
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                errors.push(ResultError::Csv {
                    source_name: source.to_string(),
                    message: format!("{e}"),
                });
                continue;
            }
        };
        let line = lines.line_of(record.position()) as u64;
        if record.iter().all(str::is_empty) {
            continue;
        }
        let row_error = |error: ResultError| ResultError::CsvRow {
            source_name: source.to_string(),
            line,
            error: Box::new(error),
        };
        let cell = |i: usize| record.get(i).unwrap_or("");
        let opt_cell = |i: Option<usize>| i.map_or("", cell);
        let group = group_col.map(|c| cell(c).to_string());
        if group.as_deref() == Some("") {
            errors.push(row_error(ResultError::EmptyGroupCell));
        }
        let round = parse_number(cell(round_col));
        if round.is_none() {
            let e = ResultError::BadRound {
                text: cell(round_col).to_string(),
                at: String::new(),
            };
            errors.push(row_error(e));
        }
        // Without a table column, or with an empty 台号 cell in a file that names both
        // sides, the table is found from the players, later.
        let by_players = red_col.is_some() && black_col.is_some();
        let table = match table_col {
            Some(c) if by_players && cell(c).is_empty() => Ok(None),
            Some(c) => match parse_number(cell(c)) {
                Some(t) => Ok(Some(t)),
                None => {
                    let e = ResultError::BadTable {
                        text: cell(c).to_string(),
                        at: String::new(),
                    };
                    errors.push(row_error(e));
                    Err(())
                }
            },
            None => Ok(None),
        };
        let outcome = parse_outcome(cell(outcome_col));
        if let Err(e) = &outcome {
            errors.push(row_error(e.clone()));
        }
        let fouls_text = fouls_col.map(cell).unwrap_or("");
        let fouls = if fouls_text.is_empty() {
            Ok((0, 0))
        } else {
            parse_fouls(fouls_text)
        };
        if let Err(e) = &fouls {
            errors.push(row_error(e.clone()));
        }
        let side = |name: Option<usize>, number: Option<usize>, id: Option<usize>| {
            let claim = SeatClaim::from_name_cell(opt_cell(name));
            let claim = SeatClaim::add_number_cell(claim, opt_cell(number))?;
            SeatClaim::add_id_cell(claim, opt_cell(id))
        };
        let red = side(red_col, red_number_col, red_id_col);
        let black = side(black_col, black_number_col, black_id_col);
        for e in [&red, &black].into_iter().filter_map(|s| s.as_ref().err()) {
            errors.push(row_error(e.clone()));
        }
        let (Some(round), Ok(table), Ok(outcome), Ok((red_fouls, black_fouls)), Ok(red), Ok(black)) =
            (round, table, outcome, fouls, red, black)
        else {
            continue;
        };
        if let Some(table) = table {
            let key = (group.clone().unwrap_or_default(), round, table);
            if let Some(first) = seen.insert(key, line) {
                errors.push(row_error(ResultError::DuplicateRow {
                    round,
                    table,
                    first,
                }));
                continue;
            }
        }
        rows.push(CsvRow {
            line,
            group,
            round,
            table,
            entry: ResultEntry {
                table: table.unwrap_or(0),
                outcome,
                red_fouls,
                black_fouls,
                late: is_late_token(cell(outcome_col)),
            },
            seats: Seats { red, black },
            code: normalize_code(opt_cell(code_col)),
        });
    }
    Ok(CsvRows {
        rows,
        errors,
        has_group_column: group_col.is_some(),
        names_players,
    })
}

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
/// ignored. A row's 编排码 must be its round's pairing code now; its 红方/黑方 (names,
/// `name(序号)`, 序号 or ID-tail columns) must be the players of its table, each in their
/// colour; a file without a table column finds each row's table by its two players.
/// Nothing is recorded here; the caller records the returned batches in one transaction,
/// so a file is taken whole or not at all.
pub fn read_results_file(
    text: &str,
    source: &str,
    event: &Event,
    rules: &Rulebook,
    group: Option<&GroupId>,
) -> Result<Vec<PoolResults>, ResultError> {
    let CsvRows {
        rows,
        mut errors,
        has_group_column,
        ..
    } = read_rows(text, source)?;
    let row_error = |line: u64, error: ResultError| ResultError::CsvRow {
        source_name: source.to_string(),
        line,
        error: Box::new(error),
    };
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
                _ => {
                    errors.push(ResultError::GroupColumnMissing {
                        source_name: source.to_string(),
                        groups: with_rounds
                            .iter()
                            .map(|id| group_label(rules, id))
                            .collect::<Vec<_>>()
                            .join(", "),
                    });
                    return Err(ResultError::collect(errors).unwrap_err());
                }
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
                                chosen: group_label(rules, wanted),
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
            None => match &default_pool {
                Some(pool) => pool.clone(),
                None => continue,
            },
        };
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
    Ok(pools)
}

/// Rows whose pairing code is not their round's now: (pool, round, code) → lines.
type Stale = BTreeMap<(GroupId, u32, String), Vec<u64>>;

/// Checks rows against the event: each round's pairing code and seats are worked out
/// once, however many rows name it.
struct RowChecker<'a> {
    event: &'a Event,
    rules: &'a Rulebook,
    roster: &'a Roster<'a>,
    /// (pool, round) → its pairing code and seats; `None` for a round that does not exist.
    rounds: BTreeMap<(GroupId, u32), Option<(String, RoundAt<'a>)>>,
}

impl<'a> RowChecker<'a> {
    fn round(&mut self, pool: &GroupId, number: u32) -> Option<&(String, RoundAt<'a>)> {
        let (event, rules, roster) = (self.event, self.rules, self.roster);
        self.rounds
            .entry((pool.clone(), number))
            .or_insert_with(|| {
                let round = event.group(pool)?.round(number)?;
                let code = pairing_code(pool, round);
                Some((code, RoundAt::new(roster, rules, pool, round)))
            })
            .as_ref()
    }

    /// Checks who a row says played against its game, and finds its table when the file
    /// has none. `Ok(None)` for a row left out and noted in `stale` (printed for another
    /// pairing: its names would only repeat that); the row's table (0 when it has none)
    /// when its round does not exist (recording says so).
    fn check(
        &mut self,
        pool: &GroupId,
        row: &CsvRow,
        stale: &mut Stale,
    ) -> Result<Option<u32>, ResultError> {
        let round = self.round(pool, row.round);
        if !row.code.is_empty() && round.map(|(code, _)| code) != Some(&row.code) {
            stale
                .entry((pool.clone(), row.round, row.code.clone()))
                .or_default()
                .push(row.line);
            return Ok(None);
        }
        let Some((_, at)) = round else {
            return Ok(Some(row.table.unwrap_or(0)));
        };
        let table = match row.table {
            Some(table) => {
                at.check_table(table, &row.seats)?;
                table
            }
            None => at.find_table(&row.seats)?,
        };
        Ok(Some(table))
    }
}

/// One refusal per pairing code that is not its round's now, naming the rows, the code
/// they carry and the round's code now (or that the round is gone), and whose round the
/// code is when it is another's.
fn stale_errors(event: &Event, rules: &Rulebook, source: &str, stale: Stale) -> Vec<ResultError> {
    let current_codes: Vec<(GroupId, u32, String)> = rules
        .pools()
        .filter_map(|g| event.group(&g.id).map(|s| (g.id.clone(), s)))
        .flat_map(|(id, s)| {
            s.rounds
                .iter()
                .map(move |r| (id.clone(), r.number, pairing_code(&id, r)))
        })
        .collect();
    stale
        .into_iter()
        .map(|((pool, round, written), lines)| {
            let current = event
                .group(&pool)
                .and_then(|g| g.round(round))
                .map(|r| pairing_code(&pool, r));
            let belongs_to = current_codes
                .iter()
                .find(|(_, _, code)| *code == written)
                .map(|(g, r, _)| (group_label(rules, g), *r));
            Mismatch::StalePairing {
                source_name: source.to_string(),
                group: group_label(rules, &pool),
                round,
                written,
                current,
                belongs_to,
                lines: lines
                    .iter()
                    .map(|l| u32::try_from(*l).unwrap_or(u32::MAX))
                    .collect(),
            }
            .into()
        })
        .collect()
}

/// The position of the entry a recording problem is about, if it names one: the first
/// match from `from` on (problems come one per entry, in entry order).
fn entry_of(problem: &ResultError, entries: &[(u32, ResultEntry)], from: usize) -> Option<usize> {
    use ResultError as E;
    let (round, table) = match problem {
        E::RoundMissing { round, .. } => (*round, None),
        E::TableMissing { round, table, .. }
        | E::DuplicateTable { round, table }
        | E::FoulsOnForfeit { round, table, .. }
        | E::FoulsOverLimit { round, table, .. }
        | E::FoulsContradictWinner { round, table, .. }
        | E::BothAtFoulLimit { round, table, .. } => (*round, Some(*table)),
        _ => return None,
    };
    let mut matching = entries
        .iter()
        .enumerate()
        .filter(|(_, (r, e))| *r == round && table.is_none_or(|t| e.table == t))
        .map(|(i, _)| i);
    // A table given twice is reported at its second row.
    if matches!(problem, E::DuplicateTable { .. }) {
        matching.next();
    }
    matching.find(|&i| i >= from)
}

/// The pool a group name of a results file means: id, regulation name or alias; a
/// section is paired in another pool, a merged group in the group it joined.
fn pool_named(event: &Event, rules: &Rulebook, text: &str) -> Option<GroupId> {
    let group = rules.find_group(text)?;
    let mut pool = rules.pool_of(group).clone();
    let mut hops = 0;
    while let Some(into) = event.group(&pool).and_then(|g| g.merged_into.clone()) {
        pool = into;
        hops += 1;
        if hops > rules.groups.len() {
            break;
        }
    }
    Some(pool)
}

/// A group as the arbiter knows it: the regulation's name.
fn group_label(rules: &Rulebook, id: &GroupId) -> String {
    rules
        .group(id)
        .map_or_else(|| id.to_string(), |g| g.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Outcome;
    use crate::results::pairing_code;

    #[test]
    fn csv_with_chinese_headers_and_bom() {
        let text = "\u{FEFF}轮次,台号,结果,犯规\n1,1,红胜,\n1,2,=,1:1\n2,1,0-1,0:2\n";
        let rows = parse_results_csv(text, "r.csv").unwrap();
        assert_eq!(
            rows,
            vec![
                (1, ResultEntry::new(1, Outcome::RedWin)),
                (1, ResultEntry::new(2, Outcome::Draw).with_fouls(1, 1)),
                (2, ResultEntry::new(1, Outcome::BlackWin).with_fouls(0, 2)),
            ]
        );
    }

    #[test]
    fn csv_reports_every_bad_row_with_its_line() {
        let text = "round,table,outcome,fouls\n1,1,1-0,\nx,2,=,\n1,3,??,\n1,4,b,1\n1,1,=,\n";
        let err = parse_results_csv(text, "r.csv").unwrap_err();
        let text = err.to_string();
        for needle in [
            "r.csv line 3: round `x`",
            "r.csv line 4: result `??`",
            "r.csv line 5: fouls `1`",
            "r.csv line 6: round 1 table 1 is also on line 2",
        ] {
            assert!(text.contains(needle), "{needle} missing from {text}");
        }
    }

    #[test]
    fn csv_without_a_required_column_names_it() {
        let err = parse_results_csv("round,outcome\n1,r\n", "r.csv").unwrap_err();
        assert!(err.to_string().contains("column `table`"), "{err}");
    }

    /// Jinhua with rounds in `youth` (two games) and `kids` (two games, and round 2 not
    /// yet paired), so every kind of problem can be placed in one file.
    fn two_pools() -> (Event, Rulebook) {
        use crate::model::{Pairing, Player, PlayerId, Round};
        let rules = Rulebook::from_toml(include_str!("../../rules/jinhua-2018.toml"), "j")
            .expect("the shipped rulebook is valid");
        let mut event = Event::new(String::new());
        for (pool, first) in [("youth", 1), ("kids", 11)] {
            let pool = GroupId::new(pool);
            for i in 0..4 {
                let mut p = Player::new(PlayerId(first + i), format!("{pool}{i}"), pool.clone());
                p.number = Some(i + 1);
                event.players.push(p);
            }
            let game = |table, red, black| Pairing::Game {
                table,
                red: PlayerId(red),
                black: PlayerId(black),
                result: None,
            };
            event.group_mut(&pool).rounds.push(Round {
                number: 1,
                pairings: vec![game(1, first, first + 1), game(2, first + 2, first + 3)],
            });
        }
        (event, rules)
    }

    #[test]
    fn one_file_for_every_group_reports_every_problem_with_its_line() {
        let (event, rules) = two_pools();
        let text = "组别,轮次,台号,结果,犯规\n\
                    青少年组,1,1,r,\n\
                    少儿精英,1,9,=,\n\
                    成人组,1,1,r,\n\
                    少年组,1,2,r,\n\
                    kids,2,1,r,\n\
                    青少年组,1,2,r,5:0\n\
                    ,1,2,b,\n\
                    youth,1,1,b,\n\
                    青少年组,x,1,zz,\n";
        let err = read_results_file(text, "r.csv", &event, &rules, None).unwrap_err();
        let ResultError::Many(problems) = &err else {
            panic!("expected every problem, got {err}");
        };
        let lines: Vec<u64> = problems
            .iter()
            .map(|p| match p {
                ResultError::CsvRow { line, .. } => *line,
                other => panic!("no line: {other}"),
            })
            .collect();
        assert_eq!(lines, vec![3, 4, 5, 6, 7, 8, 9, 10, 10], "{err}");
        let text = err.to_string();
        for needle in [
            "r.csv line 3: round 1 of group `kids` has no table 9",
            "r.csv line 4: group `adult` has no rounds yet",
            "r.csv line 5: no group `少年组` in the rulebook",
            "r.csv line 6: group `kids` has no round 2",
            "r.csv line 7: round 1 table 2: red has 5 fouls",
            "r.csv line 8: the group cell is empty",
            "r.csv line 9: round 1 table 1 is given twice",
            "r.csv line 10: round `x`",
            "r.csv line 10: result `zz`",
        ] {
            assert!(text.contains(needle), "{needle} missing from {text}");
        }
    }

    #[test]
    fn a_clean_file_is_split_by_group_name_id_or_alias() {
        let (event, rules) = two_pools();
        let text = "group,round,table,result\nyouth,1,1,r\n少儿精英,1,2,=\n青少年组,1,2,b\n";
        let pools = read_results_file(text, "r.csv", &event, &rules, None).unwrap();
        assert_eq!(pools.len(), 2);
        assert_eq!(pools[0].group, GroupId::new("youth"));
        assert_eq!(pools[0].lines, vec![2, 4]);
        assert_eq!(
            pools[0].entries,
            vec![
                (1, ResultEntry::new(1, Outcome::RedWin)),
                (1, ResultEntry::new(2, Outcome::BlackWin))
            ]
        );
        assert_eq!(pools[1].group, GroupId::new("kids"));
        assert_eq!(
            pools[1].entries,
            vec![(1, ResultEntry::new(2, Outcome::Draw))]
        );
    }

    #[test]
    fn the_group_column_is_never_ignored() {
        let (event, rules) = two_pools();
        let youth = GroupId::new("youth");
        // Without the column, several paired groups cannot be told apart.
        let err = read_results_file("轮次,台号,结果\n1,1,r\n", "r.csv", &event, &rules, None)
            .unwrap_err();
        assert!(err.to_string().contains("add a group column"), "{err}");
        // With `--group`, the file's rows must all be that group's.
        let err = read_results_file(
            "组别,轮次,台号,结果\n青少年组,1,1,r\nkids,1,1,r\n",
            "r.csv",
            &event,
            &rules,
            Some(&youth),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("r.csv line 3: group `kids` is not the group chosen"),
            "{err}"
        );
        // Without the column, `--group` says whose rows they are.
        let pools = read_results_file(
            "轮次,台号,结果\n1,1,r\n",
            "r.csv",
            &event,
            &rules,
            Some(&youth),
        )
        .unwrap();
        assert_eq!(pools[0].group, youth);
        // The one-group reader refuses a file with the column rather than drop it.
        let err = parse_results_csv("组别,轮次,台号,结果\n青少年组,1,1,r\n", "r.csv").unwrap_err();
        assert!(err.to_string().contains("group column"), "{err}");
    }

    #[test]
    fn an_empty_table_cell_is_found_by_the_players_and_every_stale_code_is_named() {
        let (event, rules) = two_pools();
        let text = "组别,轮次,台号,红方,黑方,结果\nyouth,1,,youth2,youth3,r\n";
        let pools = read_results_file(text, "r.csv", &event, &rules, None).unwrap();
        assert_eq!(
            pools[0].entries,
            vec![(1, ResultEntry::new(2, Outcome::RedWin))]
        );
        let code = |pool: &str| {
            let pool = GroupId::new(pool);
            pairing_code(&pool, event.group(&pool).unwrap().round(1).unwrap())
        };
        let (youth, kids) = (code("youth"), code("kids"));
        let text = format!(
            "组别,轮次,台号,结果,编排码\n\
             youth,1,1,r,{youth}\n\
             youth,1,2,r,{kids}\n\
             kids,1,1,r,pdeadbeef\n\
             kids,1,2,r,PDEADBEEF\n\
             kids,2,1,r,P00000000\n"
        );
        let err = read_results_file(&text, "r.csv", &event, &rules, None).unwrap_err();
        let ResultError::Many(problems) = &err else {
            panic!("expected every problem, got {err}");
        };
        assert_eq!(problems.len(), 3, "{err}");
        let text = err.to_string();
        let at = |needle: &str| text.find(needle).unwrap_or(usize::MAX);
        assert!(
            at("line 3") < at("lines 4–5") && at("lines 4–5") < at("line 6"),
            "{text}"
        );
        for needle in [
            format!("r.csv line 3: pairing code `{kids}` is that of round 1 of group `少儿精英组`"),
            format!(
                "r.csv lines 4–5: printed for pairing `PDEADBEEF` of round 1 of group `少儿精英组`, which is now paired as `{kids}`"
            ),
            "r.csv line 6: printed for pairing `P00000000` of round 2 of group `少儿精英组`, but that round is no longer paired"
                .to_string(),
        ] {
            assert!(text.contains(&needle), "{needle} missing from {text}");
        }
    }

    #[test]
    fn side_columns_are_read_in_every_spelling_and_units_are_not_players() {
        use SideColumn::{IdTail, Name, Number};
        let cases = [
            ("红方", Some((0, Name))),
            ("黑方姓名", Some((1, Name))),
            ("红方棋手", Some((0, Name))),
            ("red", Some((0, Name))),
            ("black player", Some((1, Name))),
            ("红", Some((0, Name))),
            ("红方序号", Some((0, Number))),
            ("黑方编号", Some((1, Number))),
            ("red no.", Some((0, Number))),
            ("black #", Some((1, Number))),
            ("红方(序号)", Some((0, Number))),
            ("红方证件尾号", Some((0, IdTail))),
            ("黑方身份证号", Some((1, IdTail))),
            ("red id", Some((0, IdTail))),
            ("红方单位", None),
            ("黑方积分", None),
            ("red pts", None),
            ("红方签字", None),
            ("红胜", None),
            ("结果", None),
        ];
        for (header, want) in cases {
            assert_eq!(side_column(&normalize(header)), want, "{header}");
        }
        // A file spelling its columns its own way is still checked.
        let (event, rules) = two_pools();
        let text = "组别,轮次,台号,Red Player,黑方棋手姓名,结果\nyouth,1,1,youth1,youth0,r\n";
        let err = read_results_file(text, "r.csv", &event, &rules, None).unwrap_err();
        assert!(
            err.to_string().contains("red and black are swapped"),
            "{err}"
        );
    }
}
