//! Filling a workbook: each report's sections become sheets, the large tables written
//! and deflated on threads of their own, two at a time, and kept in order; then the
//! workbook's other parts and the zip around them.

use super::WorkbookError;
use super::cells::{clean, quote_sheet, unique_name};
use super::container::{Part, zip};
use super::parts::{self, Listed, Style};
use super::sheet::{write_notes_sheet, write_table};
use super::xml::{Layout, SheetXml};
use crate::report::{Report, Section};
use std::borrow::Cow;
use std::collections::{BTreeSet, VecDeque};

/// The deflate level of the workbook's parts. For a 100,000-player export after round 9
/// (330 MB of sheet XML; docs/performance.md) level 1 is what keeps the deflating, on
/// two threads, under the time the sheets take to write; the file is some 70 MB, which
/// an organiser's laptop holds as easily as a smaller one.
pub(super) const ZIP_LEVEL: u32 = 1;

/// Cells below which a table's sheet is written in line: a thread costs more than it
/// saves on a small sheet, and an event of a hundred pools has over a thousand of them
/// (threads for each made such an export three times slower).
const THREAD_CELLS: usize = 50_000;

/// Writes the reports as a workbook; gives the file and its number of sheets.
///
/// Each large table's sheet is written and deflated on a thread of its own, two at a
/// time, while the next report is read (for 100,000 players a sheet holds up to a
/// million cells, and the reports may be made on another thread as they are read: see
/// `workbook_reports`); the sheets go into the book in order. A sheet of notes (the
/// grand total) waits for every table before it, whose money totals it adds up.
pub(super) fn fill_book<'r>(
    reports: impl IntoIterator<Item = (String, Cow<'r, Report>)>,
) -> Result<(Vec<u8>, usize), WorkbookError> {
    let mut names = BTreeSet::new();
    let mut totals: Vec<(String, f64)> = Vec::new();
    let mut listed: Vec<Listed> = Vec::new();
    let mut sheets: Vec<Part> = Vec::new();
    let mut first_name = None;
    std::thread::scope(|scope| -> Result<(), WorkbookError> {
        let mut writing = VecDeque::new();
        let mut done = Done {
            listed: &mut listed,
            sheets: &mut sheets,
            totals: &mut totals,
        };
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
                let sheet_name = if single || section.sheet_title().is_empty() {
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
                        Some(what) => {
                            unique_name(&mut names, &format!("{} {what}", section.sheet_title()))
                        }
                        None => unique_name(&mut names, section.sheet_title()),
                    }
                };
                let heading = if section.title.is_empty() {
                    report.title.clone()
                } else {
                    format!("{} — {}", report.title, section.title)
                };
                let n = done.listed.len() + writing.len() + 1;
                let mut sheet = SheetXml::new(&sheet_name, n == 1, ZIP_LEVEL);
                if section.columns.is_empty() {
                    while let Some(pending) = writing.pop_front() {
                        done.take(pending)?;
                    }
                    let layout =
                        write_notes_sheet(&mut sheet, &heading, &report, &section, done.totals)?;
                    done.take(Pending::Done(Box::new(Ok(Written {
                        part: sheet.finish(n, &layout)?,
                        name: sheet_name,
                        print_titles: None,
                        total: None,
                    }))))?;
                    continue;
                }
                if writing.len() >= 2
                    && let Some(pending) = writing.pop_front()
                {
                    done.take(pending)?;
                }
                let cells = section.rows.len() * section.columns.len();
                let report = std::sync::Arc::clone(&report);
                let write = move || -> Result<Written, WorkbookError> {
                    let report: &Report = &report;
                    let rows = section.rows.len();
                    let (layout, total) = match section {
                        Cow::Borrowed(section) => {
                            let cells = section
                                .rows
                                .iter()
                                .map(|r| r.iter().map(|c| Cow::Borrowed(c.as_str())));
                            write_table(&mut sheet, &heading, report, section, cells, rows)?
                        }
                        Cow::Owned(mut section) => {
                            // Each row freed as it is written.
                            let cells = std::mem::take(&mut section.rows)
                                .into_iter()
                                .map(|r| r.into_iter().map(Cow::Owned));
                            write_table(&mut sheet, &heading, report, &section, cells, rows)?
                        }
                    };
                    let total = total
                        .map(|(cell, sum)| (format!("{}!{cell}", quote_sheet(&sheet_name)), sum));
                    Ok(Written {
                        print_titles: layout.table.map(|(header, _)| header),
                        part: sheet.finish(n, &layout)?,
                        name: sheet_name,
                        total,
                    })
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
        while let Some(pending) = writing.pop_front() {
            done.take(pending)?;
        }
        Ok(())
    })?;
    if listed.is_empty() {
        // No section at all: one sheet naming the report, so the file still opens.
        let mut sheet = SheetXml::new("Sheet1", true, ZIP_LEVEL);
        sheet.text(
            0,
            0,
            &clean(&first_name.unwrap_or_default()),
            Style::Plain.id(),
        )?;
        let layout = Layout {
            widths: Vec::new(),
            table: None,
        };
        sheets.push(sheet.finish(1, &layout)?);
        listed.push(Listed {
            name: "Sheet1".to_string(),
            print_titles: None,
        });
    }
    let count = listed.len();
    let titles = parts::print_titles(&listed);
    // The package's own parts, then the sheets (their names and order as `parts` lists
    // them in the content types and the workbook's relations).
    let package: [(&str, Vec<u8>); 7] = [
        ("[Content_Types].xml", parts::content_types(count)),
        ("_rels/.rels", parts::PACKAGE_RELS.as_bytes().to_vec()),
        ("docProps/app.xml", parts::app(&listed, &titles)),
        ("docProps/core.xml", parts::core()),
        ("xl/_rels/workbook.xml.rels", parts::workbook_rels(count)),
        ("xl/workbook.xml", parts::workbook(&listed, &titles)),
        ("xl/styles.xml", parts::STYLES.as_bytes().to_vec()),
    ];
    let mut all: Vec<Part> = package
        .iter()
        .map(|(name, bytes)| Part::deflated(name, bytes, ZIP_LEVEL))
        .collect();
    all.extend(sheets);
    Ok((zip(all)?, count))
}

/// A sheet written and deflated: its part, its name, a table's header row (printed on
/// every page), and the cell of its money total (`'Sheet'!F12`) with the total, if it
/// has one.
struct Written {
    part: Part,
    name: String,
    print_titles: Option<u32>,
    total: Option<(String, f64)>,
}

/// A table's sheet being written on a thread, or written already.
enum Pending<'scope> {
    Thread(std::thread::ScopedJoinHandle<'scope, Result<Written, WorkbookError>>),
    Done(Box<Result<Written, WorkbookError>>),
}

/// The sheets finished, in order.
struct Done<'a> {
    listed: &'a mut Vec<Listed>,
    sheets: &'a mut Vec<Part>,
    totals: &'a mut Vec<(String, f64)>,
}

impl Done<'_> {
    /// Waits for a sheet's thread if it has one and puts the sheet in its place, its
    /// money total into `totals`. A panic on that thread is raised again here.
    fn take(&mut self, pending: Pending<'_>) -> Result<(), WorkbookError> {
        let written = match pending {
            Pending::Thread(handle) => crate::threads::join(handle),
            Pending::Done(result) => *result,
        }?;
        self.listed.push(Listed {
            name: written.name,
            print_titles: written.print_titles,
        });
        self.sheets.push(written.part);
        self.totals.extend(written.total);
        Ok(())
    }
}
