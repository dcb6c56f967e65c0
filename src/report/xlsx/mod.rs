//! Excel workbooks for the office: one worksheet per section of a report (a prize list,
//! a group's standings), ready to print.
//!
//! Renders what the view computed, like every renderer: values already masked, nothing
//! decided here but the cell types. Numbers in number columns become numbers, money gets
//! two decimals and a totals row with a `SUM` formula (its value stored with it), text
//! stays text (a name beginning with `=` is written as a string, never as a formula).
//! Each sheet has its header row frozen and repeated on every printed page, A4 paper, one
//! page wide, and columns as wide as their CJK text.
//!
//! The report workbooks are written by qiwang itself (SpreadsheetML, Office Open XML):
//! for 100,000 players they hold some 7 million cells, which a general-purpose library
//! formatted one by one through temporary files and deflated on one thread. Here each
//! sheet's XML goes straight into a buffer that is deflated as it fills, on the sheet's
//! own thread, and the zip is put together from the deflated parts in memory.
//!
//! This module holds the entry points and the writer's error; the parts are: `book`
//! (filling a workbook, a sheet per thread), `sheet` (the heading, a table or notes
//! sheet, and their layout), `xml` (one sheet's XML, written and deflated as it goes;
//! escaping), `parts` (the workbook's other parts and its fixed formats), `container`
//! (the zip), `cells` (cell text, numbers, widths and sheet names) and `template` (the
//! registration workbook, still made with rust_xlsxwriter: a small workbook whose
//! drop-down lists and input hints the library writes well).

mod book;
mod cells;
mod container;
mod parts;
mod sheet;
mod template;
#[cfg(test)]
mod tests;
mod xml;

pub use template::template_workbook;

use super::Report;
use crate::i18n::{Lang, Localize, bi, display_english};
use std::borrow::Cow;

/// Why a workbook could not be made. Said in both languages ([`Localize`]); its
/// `Display` is the English.
#[derive(Debug)]
pub enum WorkbookError {
    /// A sheet would pass Excel's 1,048,576 rows or 16,384 columns.
    TooLarge {
        /// The sheet's name.
        sheet: String,
    },
    /// The file would pass what a zip without its 64-bit extension holds: a sheet or
    /// the file over 4 GB, or more than 65,535 parts.
    FileTooLarge {
        /// The sheet over 4 GB; `None`: the file as a whole.
        sheet: Option<String>,
    },
    /// The registration template's library refused (`template_workbook`).
    Template(rust_xlsxwriter::XlsxError),
}

display_english!(WorkbookError);

impl std::error::Error for WorkbookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WorkbookError::Template(e) => Some(e),
            WorkbookError::TooLarge { .. } | WorkbookError::FileTooLarge { .. } => None,
        }
    }
}

impl From<rust_xlsxwriter::XlsxError> for WorkbookError {
    fn from(e: rust_xlsxwriter::XlsxError) -> Self {
        WorkbookError::Template(e)
    }
}

impl Localize for WorkbookError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            WorkbookError::TooLarge { sheet } => bi!(
                lang,
                zh(
                    "工作表 `{sheet}` 超出了 Excel 的上限（每张工作表最多 1,048,576 行、16,384 列）"
                ),
                en(
                    "sheet `{sheet}` does not fit in an Excel worksheet (at most 1,048,576 rows and 16,384 columns)"
                )
            ),
            WorkbookError::FileTooLarge { sheet: Some(sheet) } => bi!(
                lang,
                zh("工作表 `{sheet}` 超过 4 GB，一个工作簿文件容纳不下"),
                en("sheet `{sheet}` is over 4 GB, more than one workbook file holds")
            ),
            WorkbookError::FileTooLarge { sheet: None } => bi!(
                lang,
                zh("工作簿超过 4 GB 或 65,535 个部件，一个文件容纳不下"),
                en("the workbook is over 4 GB or 65,535 parts, more than one file holds")
            ),
            WorkbookError::Template(e) => bi!(
                lang,
                zh("报名模板生成失败：{e}"),
                en("the registration template could not be made: {e}")
            ),
        }
    }
}

/// A report as a workbook: a sheet per section with columns (the prize sheet: a sheet per
/// list), plus a sheet for sections that only carry notes (the grand total). A one-sheet
/// report's sheet is named by what it holds, its title after the event's name (`参赛名单`),
/// after what its section is of ([`Section::sheet`]: `成人组 成绩排名`, as `export` names
/// it) or else its first subtitle, when the two fit: the whole title, cut to Excel's 31 characters, was the event's name alone.
pub fn render(report: &Report) -> Result<Vec<u8>, WorkbookError> {
    let what = report
        .title
        .rsplit_once(" — ")
        .map_or(report.title.as_str(), |(_, what)| what);
    // What the sheet is of: its section's few words (a group's name), else the subtitle.
    let about = match report.sections.as_slice() {
        [one] if !one.sheet.is_empty() => Some(one.sheet.as_str()),
        _ => report.subtitle.first().map(String::as_str),
    };
    let name = match about {
        Some(about)
            if about.encode_utf16().count() + 1 + what.encode_utf16().count()
                <= cells::SHEET_NAME_MAX =>
        {
            format!("{about} {what}")
        }
        _ => what.to_string(),
    };
    render_book(&[(name, report)])
}

/// Several reports in one workbook (`export --format xlsx`): each `(name, report)` gives
/// one sheet named `name`, or one sheet per section when the report has several.
pub fn render_book(reports: &[(String, &Report)]) -> Result<Vec<u8>, WorkbookError> {
    let reports = reports
        .iter()
        .map(|(name, report)| (name.clone(), Cow::Borrowed(*report)));
    book::fill_book(reports).map(|(bytes, _)| bytes)
}

/// [`render_book`] taking the reports: a table's rows are freed as they are written (for
/// 100,000 players the reports hold some 7 million cells). Gives the number of sheets
/// beside the bytes (see [`SavedBook`]).
pub fn render_book_owned(
    reports: impl IntoIterator<Item = (String, Report)>,
) -> Result<SavedBook, WorkbookError> {
    let reports = reports
        .into_iter()
        .map(|(name, report)| (name, Cow::Owned(report)));
    let (bytes, sheets) = book::fill_book(reports)?;
    Ok(SavedBook { bytes, sheets })
}

/// A workbook [`render_book_owned`] made.
pub struct SavedBook {
    /// The `.xlsx` file.
    pub bytes: Vec<u8>,
    /// Its number of sheets.
    pub sheets: usize,
}
