//! Reading results as arbiters write them: outcome tokens, fouls, command-line
//! arguments and a CSV of results.
//!
//! Argument syntax: pairs of `TABLE RESULT`, where `RESULT` may carry the game's fouls as
//! `/RED:BLACK`: `1 1-0 2 = 3 b/1:2` enters a red win on table 1, a draw on table 2 and a
//! black win on table 3 with one red and two black fouls. Full-width characters
//! (`３　ｂ／１：２`) are accepted, and letters in any case.

use super::{ResultEntry, ResultError};
use crate::model::{Event, GroupId, Outcome};
use crate::rulebook::Rulebook;

/// Folds full-width forms and dash look-alikes to ASCII, lowercases letters and trims.
fn normalize(text: &str) -> String {
    text.trim()
        .chars()
        .map(|c| match c {
            // Full-width ASCII block (！ … ～).
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            _ => c,
        })
        .collect::<String>()
        .trim()
        .to_lowercase()
}

/// Every accepted spelling, after [`normalize`].
const TOKENS: &[(Outcome, &[&str])] = &[
    (
        Outcome::RedWin,
        &[
            "1-0",
            "2-0",
            "3-0",
            "1:0",
            "2:0",
            "r",
            "red",
            "红胜",
            "红方胜",
            "红赢",
            "先胜",
            "黑负",
        ],
    ),
    (
        Outcome::Draw,
        &[
            "=", "1-1", "1:1", "½-½", "0.5-0.5", "d", "draw", "和", "和棋", "和局", "平", "平局",
        ],
    ),
    (
        Outcome::BlackWin,
        &[
            "0-1",
            "0-2",
            "0-3",
            "0:1",
            "0:2",
            "b",
            "black",
            "黑胜",
            "黑方胜",
            "黑赢",
            "后胜",
            "红负",
        ],
    ),
    (
        Outcome::BlackForfeit,
        &["+-", "黑弃权", "黑方弃权", "黑迟到", "black-late"],
    ),
    (
        Outcome::RedForfeit,
        &["-+", "红弃权", "红方弃权", "红迟到", "red-late"],
    ),
    (
        Outcome::DoubleForfeit,
        &["--", "0-0", "双负", "双弃权", "双方弃权"],
    ),
];

/// Reads one outcome token: `1-0`, `2-0`, `红胜`, `r`; `=`, `1-1`, `和`, `d`; `0-1`,
/// `0-2`, `黑胜`, `b`; forfeits `+-` (black absent) and `-+` (red absent); double
/// forfeit `--` / `双负`. Full-width forms and upper-case letters are accepted.
pub fn parse_outcome(token: &str) -> Result<Outcome, ResultError> {
    let t = normalize(token);
    TOKENS
        .iter()
        .find(|(_, spellings)| spellings.contains(&t.as_str()))
        .map(|(outcome, _)| *outcome)
        .ok_or_else(|| ResultError::BadToken {
            token: token.to_string(),
            at: String::new(),
        })
}

/// Whether an outcome token is a forfeit for lateness (迟到) rather than absence:
/// `红迟到`/`黑迟到`, `red-late`/`black-late`.
pub fn is_late_token(token: &str) -> bool {
    let t = normalize(token);
    t.ends_with("迟到") || t.ends_with("-late")
}

/// Reads fouls written `RED:BLACK`, e.g. `1:0` (full-width `１：０` too).
pub fn parse_fouls(text: &str) -> Result<(u32, u32), ResultError> {
    let t = normalize(text);
    let bad = || ResultError::BadFouls {
        text: text.to_string(),
        at: String::new(),
    };
    let (red, black) = t.split_once(':').ok_or_else(bad)?;
    let red = red.trim().parse::<u32>().map_err(|_| bad())?;
    let black = black.trim().parse::<u32>().map_err(|_| bad())?;
    Ok((red, black))
}

/// Reads a positive number (table or round), full-width digits accepted; a trailing
/// 台/号/轮 is ignored.
fn parse_number(text: &str) -> Option<u32> {
    let t = normalize(text);
    let t = t.trim_end_matches(['台', '号', '轮']).trim();
    t.parse::<u32>().ok().filter(|n| *n >= 1)
}

/// Reads `RESULT[/RED:BLACK]` for `table`; `at` names where it came from.
fn parse_result_with_fouls(
    text: &str,
    table: u32,
    at: &str,
) -> Result<ResultEntry, Vec<ResultError>> {
    let (outcome_text, fouls_text) = match text.split_once(['/', '／']) {
        Some((o, f)) => (o, Some(f)),
        None => (text, None),
    };
    let mut errors = Vec::new();
    let outcome = parse_outcome(outcome_text).map_err(|e| with_at(e, at));
    let fouls = match fouls_text {
        Some(f) => parse_fouls(f).map_err(|e| with_at(e, at)),
        None => Ok((0, 0)),
    };
    match (outcome, fouls) {
        (Ok(outcome), Ok((red_fouls, black_fouls))) => Ok(ResultEntry {
            table,
            outcome,
            red_fouls,
            black_fouls,
            late: is_late_token(outcome_text),
        }),
        (o, f) => {
            errors.extend(o.err());
            errors.extend(f.err());
            Err(errors)
        }
    }
}

/// Fills in where a token came from.
fn with_at(error: ResultError, where_: &str) -> ResultError {
    match error {
        ResultError::BadToken { token, .. } => ResultError::BadToken {
            token,
            at: where_.to_string(),
        },
        ResultError::BadFouls { text, .. } => ResultError::BadFouls {
            text,
            at: where_.to_string(),
        },
        other => other,
    }
}

/// Reads `TABLE RESULT[/RED:BLACK] …` command-line arguments, e.g.
/// `["1", "1-0", "2", "=", "3", "b/1:2"]`. Every problem is reported at once.
pub fn parse_result_args(args: &[String]) -> Result<Vec<ResultEntry>, ResultError> {
    if args.is_empty() {
        return Err(ResultError::NoEntries);
    }
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (i, pair) in args.chunks(2).enumerate() {
        let position = i * 2 + 1;
        let Some(table) = parse_number(&pair[0]) else {
            errors.push(ResultError::BadTable {
                text: pair[0].clone(),
                at: format!(" (argument {position})"),
            });
            continue;
        };
        let Some(result) = pair.get(1) else {
            errors.push(ResultError::MissingOutcome {
                table: pair[0].clone(),
            });
            continue;
        };
        match parse_result_with_fouls(result, table, &format!(" for table {table}")) {
            Ok(entry) => entries.push(entry),
            Err(e) => errors.extend(e),
        }
    }
    ResultError::collect(errors)?;
    Ok(entries)
}

const ROUND_HEADERS: &[&str] = &["round", "轮次", "轮", "轮数"];
const TABLE_HEADERS: &[&str] = &["table", "board", "台号", "台次", "台"];
const OUTCOME_HEADERS: &[&str] = &["outcome", "result", "结果", "成绩"];
const FOULS_HEADERS: &[&str] = &["fouls", "foul", "犯规"];
const GROUP_HEADERS: &[&str] = &["group", "组别", "组", "组名", "编排组"];

/// One readable row of a results CSV.
struct CsvRow {
    line: u64,
    /// The 组别 cell, when the file has that column.
    group: Option<String>,
    round: u32,
    entry: ResultEntry,
}

/// The rows of a results CSV that parse, every problem found (with its line), and
/// whether the file has a group column.
struct CsvRows {
    rows: Vec<CsvRow>,
    errors: Vec<ResultError>,
    has_group_column: bool,
}

/// Reads every row of a results CSV, collecting every problem instead of stopping at the
/// first. A header without a required column returns early (no row can be read).
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
    let mut errors = Vec::new();
    let mut column = |aliases: &[&str], name: &str| {
        let found = find(aliases);
        if found.is_none() {
            errors.push(ResultError::CsvHeader {
                source_name: source.to_string(),
                column: name.to_string(),
                expected: format!("one of {}", aliases.join(", ")),
            });
        }
        found
    };
    let round_col = column(ROUND_HEADERS, "round");
    let table_col = column(TABLE_HEADERS, "table");
    let outcome_col = column(OUTCOME_HEADERS, "outcome");
    let fouls_col = find(FOULS_HEADERS);
    let group_col = find(GROUP_HEADERS);
    let (Some(round_col), Some(table_col), Some(outcome_col)) = (round_col, table_col, outcome_col)
    else {
        return Err(ResultError::collect(errors).unwrap_err());
    };

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
        let table = parse_number(cell(table_col));
        if table.is_none() {
            let e = ResultError::BadTable {
                text: cell(table_col).to_string(),
                at: String::new(),
            };
            errors.push(row_error(e));
        }
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
        if let (Some(round), Some(table), Ok(outcome), Ok((red_fouls, black_fouls))) =
            (round, table, outcome, fouls)
        {
            let key = (group.clone().unwrap_or_default(), round, table);
            if let Some(first) = seen.insert(key, line) {
                errors.push(row_error(ResultError::DuplicateRow {
                    round,
                    table,
                    first,
                }));
                continue;
            }
            rows.push(CsvRow {
                line,
                group,
                round,
                entry: ResultEntry {
                    table,
                    outcome,
                    red_fouls,
                    black_fouls,
                    late: is_late_token(cell(outcome_col)),
                },
            });
        }
    }
    Ok(CsvRows {
        rows,
        errors,
        has_group_column: group_col.is_some(),
    })
}

/// Reads a CSV of results with the header `round,table,outcome,fouls` (or
/// `轮次,台号,结果,犯规`; the fouls column is optional and an empty cell means none).
/// `source` names the file in messages. Every bad row is reported with its line number,
/// and a round/table given twice is an error. A file with a 组别 column is refused here
/// (its rows belong to several groups): read it with [`read_results_file`].
pub fn parse_results_csv(text: &str, source: &str) -> Result<Vec<(u32, ResultEntry)>, ResultError> {
    let CsvRows {
        rows,
        mut errors,
        has_group_column,
    } = read_rows(text, source)?;
    if has_group_column {
        errors.push(ResultError::GroupColumnUnexpected {
            source_name: source.to_string(),
        });
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
/// that contradict the outcome, a table given twice.
///
/// A 组别 column (`组别`/`group`) names each row's group by id, regulation name or alias
/// (a section resolves to the pool it plays in, a merged group to the group it was merged
/// into). Without that column every row belongs to `group` if given, else to the event's
/// only pool with rounds. With both, every row must name `group`: the column is never
/// ignored. Nothing is recorded here; the caller records the returned batches in one
/// transaction, so a file is taken whole or not at all.
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
        batch.entries.push((row.round, row.entry));
        batch.lines.push(row.line);
    }
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
    errors.sort_by_key(|e| match e {
        ResultError::CsvRow { line, .. } => *line,
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

    #[test]
    fn every_documented_token_parses() {
        let cases = [
            ("1-0", Outcome::RedWin),
            ("2-0", Outcome::RedWin),
            ("红胜", Outcome::RedWin),
            ("r", Outcome::RedWin),
            ("R", Outcome::RedWin),
            ("１－０", Outcome::RedWin),
            ("1:0", Outcome::RedWin),
            ("０：２", Outcome::BlackWin),
            ("=", Outcome::Draw),
            ("＝", Outcome::Draw),
            ("1-1", Outcome::Draw),
            ("和", Outcome::Draw),
            ("平", Outcome::Draw),
            ("平局", Outcome::Draw),
            ("d", Outcome::Draw),
            ("D", Outcome::Draw),
            ("0-1", Outcome::BlackWin),
            ("0-2", Outcome::BlackWin),
            ("黑胜", Outcome::BlackWin),
            ("b", Outcome::BlackWin),
            ("Ｂ", Outcome::BlackWin),
            ("+-", Outcome::BlackForfeit),
            ("＋－", Outcome::BlackForfeit),
            ("-+", Outcome::RedForfeit),
            ("--", Outcome::DoubleForfeit),
            ("——", Outcome::DoubleForfeit),
            ("双负", Outcome::DoubleForfeit),
            (" 2-0 ", Outcome::RedWin),
        ];
        for (token, want) in cases {
            assert_eq!(parse_outcome(token), Ok(want), "token {token:?}");
        }
    }

    #[test]
    fn unknown_tokens_are_rejected_with_the_token_quoted() {
        for token in ["", "x", "1-2", "2-1", "红", "+"] {
            let err = parse_outcome(token).unwrap_err();
            assert!(err.to_string().contains(&format!("`{token}`")), "{err}");
        }
    }

    /// The text a correction is worded with (`GameResult::entry_text`) is what `result`
    /// reads back as that very result, fouls and lateness included.
    #[test]
    fn a_result_written_as_entered_reads_back_the_same() {
        use crate::model::GameResult;
        for outcome in Outcome::ALL {
            let forfeit = matches!(outcome, Outcome::BlackForfeit | Outcome::RedForfeit);
            let over_board = !forfeit && outcome != Outcome::DoubleForfeit;
            for (red_fouls, black_fouls, late) in
                [(0, 0, false), (1, 0, false), (0, 2, false), (0, 0, true)]
            {
                let fouled = red_fouls + black_fouls > 0;
                if (fouled && !over_board) || (late && !forfeit) {
                    continue;
                }
                let result = GameResult {
                    outcome,
                    red_fouls,
                    black_fouls,
                    late,
                };
                let text = result.entry_text();
                let entries = parse_result_args(&["1".to_string(), text.clone()])
                    .unwrap_or_else(|e| panic!("`{text}`: {e}"));
                let back = entries[0];
                assert_eq!(
                    (back.outcome, back.red_fouls, back.black_fouls, back.late),
                    (outcome, red_fouls, black_fouls, late),
                    "`{text}`"
                );
            }
        }
    }

    #[test]
    fn fouls_syntax() {
        assert_eq!(parse_fouls("1:0"), Ok((1, 0)));
        assert_eq!(parse_fouls("０：２"), Ok((0, 2)));
        for bad in ["1", "1:", ":1", "a:b", "1-0", "-1:0"] {
            assert!(parse_fouls(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn arguments_pair_tables_with_results_and_fouls() {
        let args: Vec<String> = ["1", "r", "2", "=", "３", "0:1/1:2", "4", "双负"]
            .iter()
            .map(ToString::to_string)
            .collect();
        let entries = parse_result_args(&args).unwrap();
        assert_eq!(
            entries,
            vec![
                ResultEntry::new(1, Outcome::RedWin),
                ResultEntry::new(2, Outcome::Draw),
                ResultEntry::new(3, Outcome::BlackWin).with_fouls(1, 2),
                ResultEntry::new(4, Outcome::DoubleForfeit),
            ]
        );
    }

    #[test]
    fn argument_errors_are_all_reported() {
        let args: Vec<String> = ["x", "r", "2", "ZZ", "3", "b/1-2", "4"]
            .iter()
            .map(ToString::to_string)
            .collect();
        let err = parse_result_args(&args).unwrap_err();
        let ResultError::Many(errors) = &err else {
            panic!("expected several problems, got {err}");
        };
        assert_eq!(errors.len(), 4, "{err}");
        let text = err.to_string();
        for needle in [
            "`x`",
            "`ZZ` is not understood for table 2",
            "`1-2`",
            "table 4",
        ] {
            assert!(text.contains(needle), "{needle} missing from {text}");
        }
        assert_eq!(parse_result_args(&[]), Err(ResultError::NoEntries));
    }

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
}
