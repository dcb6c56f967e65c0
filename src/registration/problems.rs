//! The problems an import reports: one [`RowError`] per problem, located by file,
//! worksheet, line and column, and [`ImportErrors`], the first of them for one refused
//! file with a count of the rest.
//!
//! Owns the bound on them (issue 42 §2): [`Problems`] keeps at most [`MAX_SHOWN`] located
//! errors, the first in file order, counts the others by column, and says when a sheet
//! need not be read further because no later row can change what is shown. A sheet whose
//! every row is wrong costs the same memory, and prints the same length, as one of 200.

use super::xlsx;
use crate::i18n::{Localize, Text, bi, display_english, plural};
use crate::rulebook::Lang;
use std::collections::BTreeMap;

/// How many located errors a refused import keeps and prints; the rest are counted.
pub const MAX_SHOWN: usize = 100;

/// How many kinds (columns) the count of the rest names; the others are summed.
const MAX_KINDS: usize = 8;

/// A printed line longer than this many characters is cut (a 4,096-character cell
/// quoted in a message is still found by its place).
const MAX_LINE_CHARS: usize = 600;

/// One problem in a registration file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// 1-based physical line of the file where the row starts.
    pub line: usize,
    /// The column's header as written, when the problem is in one cell.
    pub column: Option<String>,
    /// The offending value as written (ID and phone numbers masked).
    pub value: Option<String>,
    /// What is wrong and how to fix it, in both languages.
    pub message: Text,
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
            (Some(sheet), None) => bi!(
                lang,
                zh("{}:{sheet} 第 {line} 行", self.file),
                en("{}:{sheet} row {line}", self.file)
            ),
        }
    }
}

/// A sheet whose bytes its encoding cannot read is a problem of the line they are on.
impl From<crate::input::decode::Undecodable> for RowError {
    fn from(e: crate::input::decode::Undecodable) -> RowError {
        RowError::new(e.line, None, Some(e.bytes), e.text)
    }
}

impl RowError {
    /// A problem at `line`, said in both languages.
    pub fn new(line: usize, column: Option<String>, value: Option<String>, text: Text) -> Self {
        RowError {
            line,
            column,
            value,
            message: text,
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
        let message = self.localize(lang);
        match &self.column {
            Some(c) => bi!(
                lang,
                zh("{at}：`{c}` 列：{message}"),
                en("{at}: column `{c}`: {message}")
            ),
            None => bi!(lang, zh("{at}：{message}"), en("{at}: {message}")),
        }
    }
}

impl Localize for RowError {
    /// The message without its place (`ImportErrors` adds file, line and column).
    fn localize(&self, lang: Lang) -> String {
        self.message.get(lang).to_string()
    }
}

/// Where reading stopped: the first row not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    /// 1-based line (row) of the file or worksheet.
    pub line: usize,
    /// The file and worksheet, when the errors name them.
    pub place: Option<Place>,
}

/// Problems found beyond those shown, in one column (`None`: the row as a whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Omitted {
    /// The column's header as written.
    pub column: Option<String>,
    /// How many problems.
    pub count: usize,
}

/// The problems found in a registration file; nothing was imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportErrors {
    /// The file as the user named it.
    pub source: String,
    /// The first problems in file order, at most [`MAX_SHOWN`].
    pub errors: Vec<RowError>,
    /// The problems found beyond those, by column, most first.
    pub more: Vec<Omitted>,
    /// Where reading stopped once the problems shown were sure to be the first of the
    /// file; the rows from there on were not checked.
    pub stopped: Option<Box<Stop>>,
}

impl ImportErrors {
    /// Every problem found: those shown and those counted.
    pub fn found(&self) -> usize {
        self.errors.len() + self.more.iter().map(|m| m.count).sum::<usize>()
    }
}

display_english!(ImportErrors);

/// `line` cut to [`MAX_LINE_CHARS`] characters.
fn cut(line: String) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
    }
}

impl Localize for ImportErrors {
    /// The problems shown with their place, one per line, the count of the rest, where
    /// reading stopped, then what to do.
    fn localize(&self, lang: Lang) -> String {
        let mut out = String::new();
        for e in &self.errors {
            out.push_str(&cut(e.located(&self.source, lang)));
            out.push('\n');
        }
        let rest: usize = self.more.iter().map(|m| m.count).sum();
        if rest > 0 {
            let mut kinds: Vec<String> = Vec::new();
            for m in self.more.iter().take(MAX_KINDS) {
                let c = m.count;
                let column = m.column.as_deref().map(cut_name);
                kinds.push(match column {
                    Some(col) => bi!(lang, zh("`{col}` 列 {c} 个"), en("{c} in column `{col}`")),
                    None => bi!(lang, zh("整行 {c} 个"), en("{c} about a whole row")),
                });
            }
            let others: usize = self.more.iter().skip(MAX_KINDS).map(|m| m.count).sum();
            if others > 0 {
                kinds.push(bi!(lang, zh("其他 {others} 个"), en("{others} elsewhere")));
            }
            let kinds = kinds.join(lang.pick("，", ", "));
            out.push_str(&bi!(
                lang,
                zh("……另有 {rest} 个错误未列出（{kinds}）：只列出前 {MAX_SHOWN} 个"),
                en(
                    "… and {} not listed ({kinds}): only the first {MAX_SHOWN} are",
                    plural(rest, "more error", "more errors")
                ),
            ));
            out.push('\n');
        }
        if let Some(stop) = &self.stopped {
            let at = match &stop.place {
                Some(p) => p.show(stop.line, lang),
                None => format!("{}:{}", self.source, stop.line),
            };
            out.push_str(&bi!(
                lang,
                zh("已找到前 {MAX_SHOWN} 个错误，读到 {at} 时停止：该行及其后的行没有检查"),
                en(
                    "reading stopped at {at} once the first {MAX_SHOWN} errors were found; that row and the rows after it were not checked"
                ),
            ));
            out.push('\n');
        }
        let (source, n) = (&self.source, self.found());
        let errors = plural(n, "error", "errors");
        let what = match self.stopped.is_some() {
            false => bi!(
                lang,
                zh("`{source}` 中有 {n} 个错误"),
                en("{errors} in `{source}`")
            ),
            true => bi!(
                lang,
                zh("`{source}` 停止读取之前已有 {n} 个错误"),
                en("{errors} in `{source}` before reading stopped")
            ),
        };
        out.push_str(&bi!(
            lang,
            zh("{what}；未导入任何棋手：请改正后重新导入该文件"),
            en(
                "{what}; nothing was imported: fix {} and import the file again",
                if n == 1 { "it" } else { "them" }
            ),
        ));
        out
    }
}

/// A column's header cut to 40 characters for the count of the rest.
fn cut_name(name: &str) -> String {
    match name.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &name[..at]),
        None => name.to_string(),
    }
}

/// The problems of an import while it is read: the first [`MAX_SHOWN`] in file order
/// (files and worksheets in the order read, then rows), the others counted by column.
#[derive(Debug, Default)]
pub(super) struct Problems {
    /// The part (file or worksheet) being read, counted from 0: errors sort by part, then
    /// line, and keep their order within a line.
    part: usize,
    /// At most `2 × MAX_SHOWN` before [`Problems::compact`] keeps the first `MAX_SHOWN`.
    kept: Vec<(usize, RowError)>,
    /// Problems dropped from `kept`, by column.
    more: BTreeMap<Option<String>, usize>,
    /// Where reading stopped, with its part.
    stopped: Option<(usize, Stop)>,
}

impl Problems {
    /// Whether no problem was found.
    pub(super) fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// A new part (file or worksheet) starts: its errors come after those before it.
    pub(super) fn next_part(&mut self) {
        self.part += 1;
    }

    pub(super) fn push(&mut self, e: RowError) {
        self.kept.push((self.part, e));
        if self.kept.len() >= 2 * MAX_SHOWN {
            self.compact();
        }
    }

    pub(super) fn extend(&mut self, errors: impl IntoIterator<Item = RowError>) {
        for e in errors {
            self.push(e);
        }
    }

    /// Keeps the first [`MAX_SHOWN`] in file order and counts the rest.
    fn compact(&mut self) {
        // Stable: the problems of one row keep the order they were found in.
        self.kept.sort_by_key(|(part, e)| (*part, e.line));
        for (_, e) in self.kept.drain(MAX_SHOWN.min(self.kept.len())..) {
            *self.more.entry(e.column).or_default() += 1;
        }
    }

    /// The problems of the current part not yet placed, for the caller to locate.
    pub(super) fn unplaced(&mut self) -> impl Iterator<Item = &mut RowError> {
        let part = self.part;
        self.kept
            .iter_mut()
            .filter(move |(p, e)| *p == part && e.place.is_none())
            .map(|(_, e)| e)
    }

    /// Whether the problems kept are sure to be the first of the file once row `line` of
    /// the current part is reached: [`MAX_SHOWN`] of them, all before it. Reading may
    /// then stop; [`Problems::stop`] says where.
    pub(super) fn settled(&mut self, line: usize) -> bool {
        if self.kept.len() < MAX_SHOWN {
            return false;
        }
        self.compact();
        self.kept
            .last()
            .is_some_and(|(part, e)| (*part, e.line) < (self.part, line))
    }

    /// Reading stopped at row `line` of the current part (`place`: its file and sheet).
    /// The earliest stop is the one said (the rows of a worksheet are checked after
    /// they are all read, and their check may stop before the reading did).
    pub(super) fn stop(&mut self, line: usize, place: Option<Place>) {
        if self
            .stopped
            .as_ref()
            .is_none_or(|(part, s)| (self.part, line) < (*part, s.line))
        {
            self.stopped = Some((self.part, Stop { line, place }));
        }
    }

    /// Whether reading stopped: the parts after it are not read.
    pub(super) fn stopped(&self) -> bool {
        self.stopped.is_some()
    }

    /// Every problem kept, to mask what they quote.
    pub(super) fn iter_mut(&mut self) -> impl Iterator<Item = &mut RowError> {
        self.kept.iter_mut().map(|(_, e)| e)
    }

    /// The refusal of `source`.
    pub(super) fn into_errors(mut self, source: String) -> ImportErrors {
        self.compact();
        let mut more: Vec<Omitted> = self
            .more
            .into_iter()
            .map(|(column, count)| Omitted { column, count })
            .collect();
        more.sort_by_key(|m| std::cmp::Reverse(m.count));
        ImportErrors {
            source,
            errors: self.kept.into_iter().map(|(_, e)| e).collect(),
            more,
            stopped: self.stopped.map(|(_, s)| Box::new(s)),
        }
    }
}

impl std::error::Error for ImportErrors {}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(line: usize, column: &str) -> RowError {
        RowError::new(
            line,
            Some(column.to_string()),
            None,
            Text::new("错", "wrong"),
        )
    }

    #[test]
    fn the_first_errors_in_file_order_are_kept_and_the_rest_counted_by_column() {
        let mut p = Problems::default();
        // Cell errors of rows 500..1000 first, then errors of rows 2..400 found later
        // (a workbook's cells are read before its rows are checked).
        for line in 500..1000 {
            p.push(error(line, "组别"));
        }
        for line in 2..400 {
            p.push(error(line, "性别"));
            p.push(error(line, "出生日期"));
        }
        assert!(p.kept.len() < 2 * MAX_SHOWN);
        let e = p.into_errors("reg.xlsx".to_string());
        assert_eq!(e.errors.len(), MAX_SHOWN);
        let got: Vec<(usize, &str)> = e
            .errors
            .iter()
            .take(4)
            .map(|e| (e.line, e.column.as_deref().unwrap()))
            .collect();
        assert_eq!(
            got,
            [(2, "性别"), (2, "出生日期"), (3, "性别"), (3, "出生日期")]
        );
        assert_eq!(e.errors[MAX_SHOWN - 1].line, 51);
        let more: Vec<(&str, usize)> = e
            .more
            .iter()
            .map(|m| (m.column.as_deref().unwrap(), m.count))
            .collect();
        assert_eq!(more, [("组别", 500), ("出生日期", 348), ("性别", 348)]);
        assert_eq!(e.found(), 500 + 2 * 398);
        let en = e.localize(Lang::En);
        assert!(en.contains("… and 1196 more errors not listed (500 in column `组别`, 348 in column `出生日期`, 348 in column `性别`)"), "{en}");
        let zh = e.localize(Lang::Zh);
        assert!(
            zh.contains(
                "另有 1196 个错误未列出（`组别` 列 500 个，`出生日期` 列 348 个，`性别` 列 348 个）"
            ),
            "{zh}"
        );
        crate::i18n::facts::assert_same(&zh, &en);
    }

    #[test]
    fn reading_may_stop_only_once_no_later_row_can_be_shown() {
        let mut p = Problems::default();
        for line in 2..=(MAX_SHOWN + 1) {
            assert!(!p.settled(line));
            p.push(error(line, "性别"));
        }
        // The 100th error is on the row being read: a second error of it may follow.
        assert!(!p.settled(MAX_SHOWN + 1));
        assert!(p.settled(MAX_SHOWN + 2));
        // A later part starts after every error kept.
        p.next_part();
        assert!(p.settled(1));
    }
}
