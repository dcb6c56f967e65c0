//! Filling a workbook: each report's sections become sheets, the large tables written on
//! threads of their own, two at a time, and put into the book in order; then the save.

use super::Body;
use super::cells::{clean, quote_sheet, unique_name};
use super::sheet::{Formats, write_notes_sheet, write_table};
use super::temp::streamed_sheet;
use crate::report::{Report, Section};
use rust_xlsxwriter::{Workbook, Worksheet, XlsxError};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};

/// The deflate level of the workbook's parts. The library compresses the parts one after
/// another on one thread, after the sheets are written. For a 100,000-player export after
/// round 9 (390 MB of XML; docs/performance.md) level 1 deflates in about 0.4 s of CPU
/// where level 2 took 0.65 s (a sixth of the export) and the library's default, 6, far
/// more; the file is 73 instead of 54 MB, which an organiser's laptop holds as easily.
/// The parts inside are the same.
const ZIP_LEVEL: u8 = 1;

/// Writes the reports into `book` (new) and saves it; gives the file and its number of
/// sheets.
///
/// Each large table's sheet is written on a thread of its own, two at a time, while the next
/// report is read (for 100,000 players a sheet holds up to a million cells, and the
/// reports may be made on another thread as they are read: see `workbook_reports`); the
/// sheets go into the book in order. A sheet of notes (the grand total) waits for every
/// table before it, whose money totals it adds up. A table of `stream_cells` cells or
/// more is written through a temporary file (`streamed_sheet`).
pub(super) fn fill_book<'r>(
    book: &mut Workbook,
    reports: impl IntoIterator<Item = (String, Cow<'r, Report>)>,
    body: Body,
    stream_cells: usize,
    streamed_cells: &AtomicU64,
) -> Result<(Vec<u8>, usize), XlsxError> {
    book.set_zip_compression_level(ZIP_LEVEL);
    let mut names = BTreeSet::new();
    let mut totals: Vec<(String, f64)> = Vec::new();
    let formats = Formats::new();
    formats.register(book);
    let formats = &formats;
    // The names of the sheets streamed.
    let mut streamed: Vec<String> = Vec::new();
    let mut first_name = None;
    std::thread::scope(|scope| -> Result<(), XlsxError> {
        let mut writing = std::collections::VecDeque::new();
        for (name, mut report) in reports {
            first_name.get_or_insert_with(|| name.clone());
            let single = report
                .sections
                .iter()
                .filter(|s| !s.columns.is_empty())
                .count()
                <= 1;
            let sections: Vec<Cow<'_, Section>> = match &mut report {
                Cow::Borrowed(r) => r.sections.iter().map(Cow::Borrowed).collect(),
                Cow::Owned(r) => std::mem::take(&mut r.sections)
                    .into_iter()
                    .map(Cow::Owned)
                    .collect(),
            };
            // Shared by the threads writing its sections.
            let report = std::sync::Arc::new(report);
            for section in sections {
                let sheet_name = if single || section.title.is_empty() {
                    unique_name(&mut names, &name)
                } else {
                    // Say what the sheet holds: `公开组 获奖名单`, the section and what the
                    // report is (its title after the event's name).
                    let what = report
                        .title
                        .rsplit_once(" — ")
                        .map(|(_, what)| what)
                        .filter(|_| !section.columns.is_empty());
                    match what {
                        Some(what) => unique_name(&mut names, &format!("{} {what}", section.title)),
                        None => unique_name(&mut names, &section.title),
                    }
                };
                let heading = if section.title.is_empty() {
                    report.title.clone()
                } else {
                    format!("{} — {}", report.title, section.title)
                };
                let cells = section.rows.len() * section.columns.len();
                let mut sheet = match streamed_sheet(book, cells, stream_cells, streamed.len()) {
                    Some(sheet) => {
                        streamed.push(sheet_name.clone());
                        streamed_cells.fetch_add(cells as u64, Ordering::Relaxed);
                        sheet
                    }
                    None => Worksheet::new(),
                };
                sheet.set_name(&sheet_name)?;
                if section.columns.is_empty() {
                    while let Some(handle) = writing.pop_front() {
                        finish(handle, book, &mut totals)?;
                    }
                    write_notes_sheet(&mut sheet, formats, &heading, &report, &section, &totals)?;
                    book.push_worksheet(sheet);
                    continue;
                }
                if writing.len() >= 2
                    && let Some(handle) = writing.pop_front()
                {
                    finish(handle, book, &mut totals)?;
                }
                let report = std::sync::Arc::clone(&report);
                let write = move || -> SheetResult {
                    let report: &Report = &report;
                    let total = match section {
                        Cow::Borrowed(section) => {
                            let rows = section
                                .rows
                                .iter()
                                .map(|r| r.iter().map(|c| Cow::Borrowed(c.as_str())));
                            write_table(&mut sheet, formats, &heading, report, section, rows, body)?
                        }
                        Cow::Owned(mut section) => {
                            let rows = std::mem::take(&mut section.rows)
                                .into_iter()
                                .map(|r| r.into_iter().map(Cow::Owned));
                            write_table(
                                &mut sheet, formats, &heading, report, &section, rows, body,
                            )?
                        }
                    };
                    let total = total
                        .map(|(cell, sum)| (format!("{}!{cell}", quote_sheet(&sheet_name)), sum));
                    Ok((sheet, total))
                };
                writing.push_back(if cells < THREAD_CELLS {
                    Pending::Done(Box::new(write()))
                } else {
                    match crate::threads::spawn(scope, write) {
                        Ok(handle) => Pending::Thread(handle),
                        Err(write) => Pending::Done(Box::new(write())),
                    }
                });
            }
        }
        while let Some(handle) = writing.pop_front() {
            finish(handle, book, &mut totals)?;
        }
        Ok(())
    })?;
    if names.is_empty() {
        let sheet = book.add_worksheet();
        sheet.write_string(0, 0, clean(&first_name.unwrap_or_default()))?;
    }
    let bytes = book.save_to_buffer()?;
    // Their temporary files, as large as their XML, go now: not while the caller writes
    // the workbook, perhaps to the same disk (`SavedBook` keeps the book).
    book.worksheets_mut()
        .retain(|sheet| !streamed.contains(&sheet.name()));
    Ok((bytes, names.len().max(1)))
}

/// Cells below which a table's sheet is written in line: a thread costs more than it
/// saves on a small sheet, and an event of a hundred pools has over a thousand of them
/// (threads for each made such an export three times slower).
const THREAD_CELLS: usize = 50_000;

/// A table's sheet being written on a thread, or written already.
enum Pending<'scope> {
    Thread(std::thread::ScopedJoinHandle<'scope, SheetResult>),
    /// Boxed: a worksheet is some 5 KB before its cells.
    Done(Box<SheetResult>),
}

/// A table's sheet as its thread leaves it: the sheet, and the cell of its money total
/// (`'Sheet'!F12`) with the total, if it has one.
type SheetResult = Result<(Worksheet, Option<(String, f64)>), XlsxError>;

/// Waits for a sheet's thread if it has one and puts the sheet into `book`, its money
/// total into `totals`. A panic on that thread is raised again here.
fn finish(
    pending: Pending<'_>,
    book: &mut Workbook,
    totals: &mut Vec<(String, f64)>,
) -> Result<(), XlsxError> {
    let (sheet, total) = match pending {
        Pending::Thread(handle) => crate::threads::join(handle),
        Pending::Done(result) => *result,
    }?;
    book.push_worksheet(sheet);
    totals.extend(total);
    Ok(())
}
