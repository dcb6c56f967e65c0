//! Rulebook problems: every mistake found in one pass, each with its place in the file.

use crate::i18n::{Localize, Text, display_english};
use crate::rulebook::Lang;

/// One mistake in a rulebook, located by line, column and dotted key path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line of the offending key or value.
    pub line: usize,
    /// 1-based column, counted in characters (a Chinese character is one column).
    pub column: usize,
    /// Dotted key path, e.g. `groups[2].eligibility.min_grade`; empty for a TOML syntax
    /// error that is not inside any key.
    pub key: String,
    /// What is wrong and how to fix it, in both languages.
    pub message: Text,
}

/// Every problem found in a rulebook, in file order. Returned by `Rulebook::from_toml`;
/// the CLI prints it and exits with code 3 (invalid input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulebookErrors {
    /// The file name the rulebook came from (used as the prefix of every line).
    pub source: String,
    /// Every problem, in file order.
    pub problems: Vec<Problem>,
}

display_english!(RulebookErrors);

// Written by hand: thiserror would take the `source` field for the error's cause.
impl std::error::Error for RulebookErrors {}

impl Localize for Problem {
    /// The message part, without the place.
    fn localize(&self, lang: Lang) -> String {
        self.message.get(lang).to_string()
    }
}

impl Localize for RulebookErrors {
    /// One `source:line:col: key: message` per line; only the message is translated.
    fn localize(&self, lang: Lang) -> String {
        self.problems
            .iter()
            .map(|p| {
                let key = if p.key.is_empty() {
                    String::new()
                } else {
                    format!("{}: ", p.key)
                };
                format!(
                    "{}:{}:{}: {key}{}",
                    self.source,
                    p.line,
                    p.column,
                    p.localize(lang)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A problem located by byte offset, before line and column are worked out.
#[derive(Debug, Clone)]
pub(super) struct RawProblem {
    pub offset: usize,
    pub key: String,
    pub message: Text,
}

impl RulebookErrors {
    /// Turns byte offsets into line and column and sorts the problems into file order
    /// (stable, so problems at one place keep the order they were found in).
    pub(super) fn from_raw(source: &str, text: &str, mut raw: Vec<RawProblem>) -> Self {
        raw.sort_by_key(|p| p.offset);
        let problems = raw
            .into_iter()
            .map(|p| {
                let (line, column) = line_column(text, p.offset);
                Problem {
                    line,
                    column,
                    key: p.key,
                    message: p.message,
                }
            })
            .collect();
        RulebookErrors {
            source: source.to_string(),
            problems,
        }
    }
}

/// 1-based line and character column of a byte offset (one inside a character counts
/// as that character's; one past the end as the end). Also the certificate template's.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_characters() {
        let text = "a = 1\n名称 = \"x\"\n";
        let cases = [(0, (1, 1)), (4, (1, 5)), (6, (2, 1)), (13, (2, 4))];
        for (offset, want) in cases {
            assert_eq!(line_column(text, offset), want, "offset {offset}");
        }
    }

    #[test]
    fn display_is_one_line_per_problem() {
        let errors = RulebookErrors {
            source: "r.toml".into(),
            problems: vec![
                Problem {
                    line: 2,
                    column: 9,
                    key: "event.rounds".into(),
                    message: Text::new("至少应为 1", "must be at least 1"),
                },
                Problem {
                    line: 1,
                    column: 1,
                    key: String::new(),
                    message: Text::new("表头无效", "invalid table header"),
                },
            ],
        };
        assert_eq!(
            errors.to_string(),
            "r.toml:2:9: event.rounds: must be at least 1\nr.toml:1:1: invalid table header"
        );
        assert_eq!(
            errors.localize(Lang::Zh),
            "r.toml:2:9: event.rounds: 至少应为 1\nr.toml:1:1: 表头无效"
        );
    }
}
