//! Reading a results CSV's rows: each cell parsed, every bad row reported with its line
//! instead of stopping at the first, a header without a required column refused.

use super::columns::{
    CODE_HEADERS, FOULS_HEADERS, GROUP_HEADERS, HALL_HEADERS, OUTCOME_HEADERS, ROUND_HEADERS,
    TABLE_HEADERS, side_column,
};
use crate::results::fingerprint::normalize_code;
use crate::results::parse::{is_late_token, normalize, parse_fouls, parse_number, parse_outcome};
use crate::results::seats::{SeatClaim, Seats};
use crate::results::{ResultEntry, ResultError};

/// One readable row of a results CSV.
pub(super) struct CsvRow {
    pub(super) line: u64,
    /// The 组别 cell, when the file has that column.
    pub(super) group: Option<String>,
    /// The 场地 cell, when the file has that column; once read against the event
    /// (`hall::read`), the hall's name as the rulebook gives it, `""` for the main hall.
    pub(super) hall: Option<String>,
    pub(super) round: u32,
    /// The 台号 cell; `None` in a file without that column, whose rows name both players.
    pub(super) table: Option<u32>,
    /// The result; its `table` is set once the table is known.
    pub(super) entry: ResultEntry,
    /// Who the row says played.
    pub(super) seats: Seats,
    /// The 编排码 cell, normalized; empty when the row has none.
    pub(super) code: String,
}

/// The rows of a results CSV that parse, every problem found (with its line), whether
/// the file has a group column, and whether it says who played or carries pairing codes.
pub(super) struct CsvRows {
    pub(super) rows: Vec<CsvRow>,
    /// Lines whose result and fouls cells are empty: games not finished when the file was
    /// made, left out rather than refused.
    pub(super) blank: Vec<u64>,
    pub(super) errors: Vec<ResultError>,
    pub(super) has_group_column: bool,
    pub(super) names_players: bool,
}

/// Reads every row of a results CSV, collecting every problem instead of stopping at the
/// first. A header without a required column returns early (no row can be read). The
/// table column may be left out when both the 红方 and 黑方 columns are there.
pub(super) fn read_rows(text: &str, source: &str) -> Result<CsvRows, ResultError> {
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
    let mut column = |aliases: &'static [&'static str], name: &str, or_both_sides: bool| {
        let found = find(aliases);
        if found.is_none() {
            errors.push(ResultError::CsvHeader {
                source_name: source.to_string(),
                column: name.to_string(),
                accepted: aliases,
                or_both_sides,
            });
        }
        found
    };
    let round_col = column(ROUND_HEADERS, "round", false);
    // A row that names both players finds its table by them.
    let table_col = if red_col.is_some() && black_col.is_some() {
        find(TABLE_HEADERS)
    } else {
        column(TABLE_HEADERS, "table", true)
    };
    let outcome_col = column(OUTCOME_HEADERS, "outcome", false);
    let fouls_col = find(FOULS_HEADERS);
    let group_col = find(GROUP_HEADERS);
    let hall_col = find(HALL_HEADERS);
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
    let mut blank = Vec::new();
    // (group cell, hall, round, table) → first line: two halls' table 1 are two boards.
    // (A `BTreeMap` keyed so was a third of `result --from` with a whole round of a
    // 100,000-player event: 50,000 rows.)
    let mut seen: std::collections::HashMap<(String, String, u32, u32), u64> = Default::default();
    let mut lines = crate::input::decode::LineCounter::new(text);
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
        // A cell qiwang's own slips guarded against spreadsheet formulas reads back as
        // the text it guarded.
        let cell = |i: usize| crate::sanitize::csv_cell_unguarded(record.get(i).unwrap_or(""));
        let opt_cell = |i: Option<usize>| i.map_or("", cell);
        // A slip without a result yet (the game still on): left for a later file.
        if cell(outcome_col).is_empty() && opt_cell(fouls_col).is_empty() {
            blank.push(line);
            continue;
        }
        let group = group_col.map(|c| cell(c).to_string());
        let hall = hall_col.map(|c| cell(c).to_string());
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
            let hall = super::hall::key(hall.as_deref().unwrap_or_default());
            let key = (
                group.clone().unwrap_or_default(),
                hall.clone(),
                round,
                table,
            );
            if let Some(first) = seen.insert(key, line) {
                errors.push(row_error(ResultError::DuplicateRow {
                    round,
                    hall,
                    table,
                    first,
                }));
                continue;
            }
        }
        rows.push(CsvRow {
            line,
            group,
            hall,
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
        blank,
        errors,
        has_group_column: group_col.is_some(),
        names_players,
    })
}
