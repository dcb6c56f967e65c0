//! The problems an import reports: one [`RowError`] per problem, located by file,
//! worksheet, line and column, and [`ImportErrors`], all of them for one refused file.

use super::xlsx;
use crate::i18n::{Localize, Text, bi, display_english};
use crate::rulebook::Lang;

/// One problem in a registration file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// 1-based physical line of the file where the row starts.
    pub line: usize,
    /// The column's header as written, when the problem is in one cell.
    pub column: Option<String>,
    /// The offending value as written (ID and phone numbers masked).
    pub value: Option<String>,
    /// What is wrong and how to fix it, in English.
    pub message: String,
    /// The same in Chinese.
    pub message_zh: String,
    /// Where the problem is when `line` alone does not say it: the file of a batch, and
    /// in a workbook the sheet and cell (`报名表!C17`, `line` being the row).
    pub place: Option<Box<Place>>,
}

/// The file, worksheet and column of a problem (the row is [`RowError::line`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The file as the user named it.
    pub file: String,
    /// The worksheet, in a workbook.
    pub sheet: Option<String>,
    /// 0-based column in the sheet, when the problem is in one cell.
    pub col: Option<usize>,
}

impl Place {
    /// `reg.csv:17`, `reg.xlsx:报名表!C17`, `reg.xlsx:报名表 row 17` (第 17 行).
    pub fn show(&self, line: usize, lang: Lang) -> String {
        match (&self.sheet, self.col) {
            (None, _) => format!("{}:{line}", self.file),
            (Some(sheet), Some(col)) => {
                format!("{}:{sheet}!{}{line}", self.file, xlsx::column_letters(col))
            }
            (Some(sheet), None) => match lang {
                Lang::Zh => format!("{}:{sheet} 第 {line} 行", self.file),
                Lang::En => format!("{}:{sheet} row {line}", self.file),
            },
        }
    }
}

impl RowError {
    /// A problem at `line`, said in both languages.
    pub fn new(line: usize, column: Option<String>, value: Option<String>, text: Text) -> Self {
        RowError {
            line,
            column,
            value,
            message: text.en,
            message_zh: text.zh,
            place: None,
        }
    }

    /// Where the problem is: `place` when set, else `source:line`.
    pub fn at(&self, source: &str, lang: Lang) -> String {
        match &self.place {
            Some(p) => p.show(self.line, lang),
            None => format!("{source}:{}", self.line),
        }
    }

    /// The problem with its place and column, in one language (`reg.xlsx:报名表!C17: …`).
    pub fn located(&self, source: &str, lang: Lang) -> String {
        let at = self.at(source, lang);
        match (lang, &self.column) {
            (Lang::En, Some(c)) => format!("{at}: column `{c}`: {}", self.message),
            (Lang::En, None) => format!("{at}: {}", self.message),
            (Lang::Zh, Some(c)) => format!("{at}：`{c}` 列：{}", self.message_zh),
            (Lang::Zh, None) => format!("{at}：{}", self.message_zh),
        }
    }
}

impl Localize for RowError {
    /// The message without its place (`ImportErrors` adds file, line and column).
    fn localize(&self, lang: Lang) -> String {
        lang.pick(&self.message_zh, &self.message).to_string()
    }
}

/// Every problem found in a registration file; nothing was imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportErrors {
    /// The file as the user named it.
    pub source: String,
    /// In file order.
    pub errors: Vec<RowError>,
}

display_english!(ImportErrors);

impl Localize for ImportErrors {
    /// Every problem with its place, one per line, then what to do.
    fn localize(&self, lang: Lang) -> String {
        let mut out = String::new();
        for e in &self.errors {
            out.push_str(&e.located(&self.source, lang));
            out.push('\n');
        }
        let (source, n) = (&self.source, self.errors.len());
        out.push_str(&bi!(
            lang,
            en(
                "{} in `{source}`; nothing was imported: fix {} and import the file again",
                crate::i18n::plural(n, "error", "errors"),
                if n == 1 { "it" } else { "them" }
            ),
            zh("`{source}` 中有 {n} 个错误；未导入任何棋手：请改正后重新导入该文件"),
        ));
        out
    }
}

impl std::error::Error for ImportErrors {}
