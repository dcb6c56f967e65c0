//! Reading results as arbiters write them: outcome tokens, fouls and command-line
//! arguments (a results file is `file.rs`'s).
//!
//! Argument syntax: pairs of `TABLE RESULT`, where `RESULT` may carry the game's fouls as
//! `/RED:BLACK`: `1 1-0 2 = 3 b/1:2` enters a red win on table 1, a draw on table 2 and a
//! black win on table 3 with one red and two black fouls. Full-width characters
//! (`３　ｂ／１：２`) are accepted, and letters in any case.

use super::{ResultEntry, ResultError};
use crate::model::Outcome;

/// Folds full-width forms and dash look-alikes to ASCII, lowercases letters and trims.
pub(super) fn normalize(text: &str) -> String {
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
pub(super) fn parse_number(text: &str) -> Option<u32> {
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

    /// The text a correction is worded with (`GameResult::entry_text_in`, either language)
    /// is what `result` reads back as that very result, fouls and lateness included.
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
                for lang in [crate::rulebook::Lang::En, crate::rulebook::Lang::Zh] {
                    let text = result.entry_text_in(lang);
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
}
