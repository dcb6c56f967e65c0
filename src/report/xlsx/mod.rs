//! Excel workbooks for the office: one worksheet per section of a report (a prize list,
//! a group's standings), ready to print.
//!
//! Renders what the view computed, like every renderer: values already masked, nothing
//! decided here but the cell types. Numbers in number columns become numbers, money gets
//! two decimals and a totals row with a `SUM` formula, text stays text (a name beginning
//! with `=` is written as a string, never as a formula). Each sheet has its header row
//! frozen and repeated on every printed page, A4 paper, one page wide, and columns as wide
//! as their CJK text.
//!
//! This module holds the entry points and the workbook as a whole; the parts are:
//! `book` (filling a workbook, a sheet per thread), `temp` (sheets streamed through
//! temporary files, and the temporary directory checked after a panic), `sheet` (the
//! formats and the writing of one table or notes sheet), `cells` (cell text, numbers,
//! widths and sheet names) and `template` (the registration workbook).

mod book;
mod cells;
mod sheet;
mod temp;
mod template;
#[cfg(test)]
mod tests;

pub use template::template_workbook;

use super::Report;
use book::fill_book;
use rust_xlsxwriter::{Workbook, XlsxError};
use std::borrow::Cow;
use temp::{STREAM_CELLS, temp_writes_fail_cleanly};

/// A report as a workbook: a sheet per section with columns (the prize sheet: a sheet per
/// list), plus a sheet for sections that only carry notes (the grand total).
pub fn render(report: &Report) -> Result<Vec<u8>, XlsxError> {
    render_book(&[(report.title.clone(), report)])
}

/// Several reports in one workbook (`export --format xlsx`): each `(name, report)` gives
/// one sheet named `name`, or one sheet per section when the report has several.
pub fn render_book(reports: &[(String, &Report)]) -> Result<Vec<u8>, XlsxError> {
    let reports = reports
        .iter()
        .map(|(name, report)| (name.clone(), Cow::Borrowed(*report)));
    render_book_as(reports, Body::Runs, STREAM_CELLS)
}

/// [`render_book`] taking the reports: each cell's text moves into the workbook instead
/// of being copied, and a table's rows are freed as they are written (for 100,000 players
/// the reports hold some 4 million cells). Gives back the workbook beside its bytes (see
/// [`SavedBook`]).
pub fn render_book_owned(
    reports: impl IntoIterator<Item = (String, Report)>,
) -> Result<SavedBook, XlsxError> {
    let reports = reports
        .into_iter()
        .map(|(name, report)| (name, Cow::Owned(report)));
    let mut workbook = Workbook::new();
    let (bytes, sheets) = temp_writes_fail_cleanly(|streamed| {
        fill_book(&mut workbook, reports, Body::Runs, STREAM_CELLS, streamed)
    })?;
    Ok(SavedBook {
        bytes,
        sheets,
        workbook,
    })
}

/// A workbook [`render_book_owned`] made: the file's bytes, and the workbook they were
/// saved from. Dropping the workbook frees the cells of its sheets held in memory one by
/// one (~0.25 s of CPU for 4 million cells, as when an event of many groups has many
/// sheets below `STREAM_CELLS`, or no temporary file could be made); a process about to
/// exit may leave that to the exit (`std::mem::forget`).
pub struct SavedBook {
    /// The `.xlsx` file.
    pub bytes: Vec<u8>,
    /// Its number of sheets.
    pub sheets: usize,
    /// The workbook, holding every cell written.
    pub workbook: Workbook,
}

/// How a table's body cells get their formats.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Body {
    /// A run of a row's cells at a time, after the row's values (`format_row`).
    Runs,
    /// Each cell written with its format: the plain way, which the tests check `Runs`
    /// against.
    #[cfg_attr(not(test), allow(dead_code))]
    PerCell,
}

pub(super) fn render_book_as<'r>(
    reports: impl IntoIterator<Item = (String, Cow<'r, Report>)>,
    body: Body,
    stream_cells: usize,
) -> Result<Vec<u8>, XlsxError> {
    temp_writes_fail_cleanly(|streamed| {
        fill_book(&mut Workbook::new(), reports, body, stream_cells, streamed)
    })
    .map(|(bytes, _)| bytes)
}
