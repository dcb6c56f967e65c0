//! A results file (`result --from`) as the text its reader takes: a workbook's first
//! sheet with data, as CSV lines numbered like its rows, or a CSV or text export decoded
//! (UTF-8 or GBK, as Excel writes them), with the name its messages give it.
//!
//! Owns only the bytes → text step; the rows are read by `file.rs`. Must not read files:
//! the caller passes the bytes in.

use crate::i18n::{Localize, Text, bi, display_english};
use crate::input::decode::{Encoding, decode};
use crate::registration::xlsx;
use crate::rulebook::Lang;

/// A results file as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultsText {
    /// CSV text, line N being the sheet's row N.
    pub text: String,
    /// How messages name the file: as given, and for a workbook with `:SHEET` after it.
    pub source: String,
}

/// A results file that gives no text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceError {
    /// A workbook with no sheet to read, or one qiwang cannot read.
    Workbook {
        /// The file as the user named it.
        file: String,
        /// What is wrong with it.
        problem: Text,
    },
    /// A text file in no encoding qiwang reads.
    Undecodable {
        /// The file as the user named it.
        file: String,
        /// The first line that does not decode.
        line: usize,
        /// What is wrong with it.
        problem: Text,
    },
}

display_english!(SourceError);

impl Localize for SourceError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            SourceError::Workbook { file, problem } => {
                let problem = problem.get(lang);
                bi!(lang, zh("`{file}`：{problem}"), en("`{file}`: {problem}"))
            }
            SourceError::Undecodable {
                file,
                line,
                problem,
            } => {
                let problem = problem.get(lang);
                bi!(
                    lang,
                    zh("`{file}` 第 {line} 行：{problem}"),
                    en("`{file}` line {line}: {problem}"),
                )
            }
        }
    }
}

impl std::error::Error for SourceError {}

/// The text of results file `file` (named as the user gave it) holding `bytes`.
pub fn results_text(bytes: &[u8], file: &str) -> Result<ResultsText, SourceError> {
    if xlsx::is_workbook(bytes) {
        let (sheet, text) =
            xlsx::first_sheet_as_csv(bytes).map_err(|problem| SourceError::Workbook {
                file: file.to_string(),
                problem,
            })?;
        return Ok(ResultsText {
            text,
            source: format!("{file}:{sheet}"),
        });
    }
    let decoded = decode(bytes, Encoding::Auto).map_err(|e| SourceError::Undecodable {
        file: file.to_string(),
        line: e.line,
        problem: e.text,
    })?;
    Ok(ResultsText {
        text: decoded.text,
        source: file.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::facts::assert_localized;

    #[test]
    fn text_in_utf8_or_gbk_reads_and_keeps_its_name() {
        let utf8 = results_text("台号,结果\n1,红胜\n".as_bytes(), "r.csv").unwrap();
        assert_eq!(utf8.source, "r.csv");
        assert!(utf8.text.contains("红胜"));
        let (gbk, _, _) = encoding_rs::GBK.encode("台号,结果\n1,红胜\n");
        assert_eq!(results_text(&gbk, "r.csv").unwrap().text, utf8.text);
    }

    #[test]
    fn a_broken_workbook_is_refused_by_name_in_both_languages() {
        let mut bytes = b"PK\x03\x04".to_vec();
        bytes.extend([0u8; 64]);
        let e = results_text(&bytes, "r.xlsx").unwrap_err();
        assert!(matches!(e, SourceError::Workbook { .. }), "{e:?}");
        assert!(e.to_string().starts_with("`r.xlsx`: "), "{e}");
        assert_localized(&e);
        let e = SourceError::Undecodable {
            file: "r.csv".into(),
            line: 3,
            problem: Text::new("无法解码", "cannot be decoded"),
        };
        assert_eq!(e.to_string(), "`r.csv` line 3: cannot be decoded");
        assert_localized(&e);
    }
}
