//! The players `result --names RED/BLACK` says sat at each typed table, read before the
//! results are checked against the round (`seats.rs` checks them).
//!
//! Owns pairing each `--names` with its table: one per table, in order, or none.

use super::{ResultEntry, ResultError, Seats};
use crate::i18n::{Localize, bi, display_english, plural};
use crate::rulebook::Lang;

/// `--names` that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypedNamesError {
    /// Not one `--names` per table typed.
    Count {
        /// How many `--names` were given.
        names: usize,
        /// How many tables' results were typed.
        tables: usize,
    },
    /// A `--names` that is no `RED/BLACK` (every one of them).
    Unreadable(ResultError),
}

display_english!(TypedNamesError);

impl Localize for TypedNamesError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            TypedNamesError::Count { names, tables } => bi!(
                lang,
                zh(
                    "给了 {names} 个 `--names`，却录入了 {tables} 台的成绩：每台给一个 --names 红方/黑方，按台号的顺序"
                ),
                en(
                    "{} given for {}: give one --names RED/BLACK per table, in the order of the tables",
                    plural(names, "`--names`", "`--names`"),
                    plural(tables, "table", "tables")
                ),
            ),
            TypedNamesError::Unreadable(e) => e.localize(lang),
        }
    }
}

impl std::error::Error for TypedNamesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TypedNamesError::Count { .. } => None,
            TypedNamesError::Unreadable(e) => e.source(),
        }
    }
}

/// Each typed table with the players its `--names` gives, in order: none when no names
/// were given, else exactly one per entry.
pub fn typed_seats(
    entries: &[ResultEntry],
    names: &[String],
) -> Result<Vec<(u32, Seats)>, TypedNamesError> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    if names.len() != entries.len() {
        return Err(TypedNamesError::Count {
            names: names.len(),
            tables: entries.len(),
        });
    }
    let mut claims = Vec::new();
    let mut errors = Vec::new();
    for (entry, text) in entries.iter().zip(names) {
        match Seats::parse_pair(text) {
            Ok(seats) => claims.push((entry.table, seats)),
            Err(e) => errors.push(e),
        }
    }
    ResultError::collect_all(errors).map_err(TypedNamesError::Unreadable)?;
    Ok(claims)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::facts::assert_localized;
    use crate::results::parse_result_args;

    fn entries(args: &[&str]) -> Vec<ResultEntry> {
        let args: Vec<String> = args.iter().map(ToString::to_string).collect();
        parse_result_args(&args).unwrap()
    }

    #[test]
    fn one_pair_of_names_per_table_in_order_or_none() {
        let typed = entries(&["3", "r", "5", "="]);
        assert!(typed_seats(&typed, &[]).unwrap().is_empty());
        let names = ["闫文/卢林旭".to_string(), "#3/".to_string()];
        let got = typed_seats(&typed, &names).unwrap();
        assert_eq!(got.iter().map(|(t, _)| *t).collect::<Vec<_>>(), [3, 5]);
        assert_eq!(got[0].1, Seats::parse_pair("闫文/卢林旭").unwrap());
        let e = typed_seats(&typed, &names[..1]).unwrap_err();
        assert_eq!(
            e,
            TypedNamesError::Count {
                names: 1,
                tables: 2
            }
        );
        assert_localized(&e);
    }

    #[test]
    fn every_unreadable_pair_is_reported_at_once() {
        let typed = entries(&["3", "r", "5", "="]);
        let names = ["闫文".to_string(), "/".to_string()];
        let e = typed_seats(&typed, &names).unwrap_err();
        let TypedNamesError::Unreadable(inner) = &e else {
            panic!("{e:?}")
        };
        assert!(
            matches!(inner, ResultError::Many(v) if v.len() == 2),
            "{inner:?}"
        );
        assert!(e.to_string().contains("闫文"), "{e}");
        assert_localized(&e);
    }
}
