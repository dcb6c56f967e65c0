//! Excel workbooks for the office: one worksheet per section of a report (a prize list,
//! a group's standings), ready to print.
//!
//! Renders what the view computed, like every renderer: values already masked, nothing
//! decided here but the cell types. Numbers in number columns become numbers, money gets
//! two decimals and a totals row with a `SUM` formula, text stays text (a name beginning
//! with `=` is written as a string, never as a formula). Each sheet has its header row
//! frozen and repeated on every printed page, A4 paper, one page wide, and columns as wide
//! as their CJK text.

use super::{Align, Report, Section};
use rust_xlsxwriter::{Format, FormatAlign, FormatBorder, Formula, Workbook, Worksheet, XlsxError};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};

/// Excel's paper size code for A4.
const A4: u8 = 9;
/// The widest a column is made, in characters (longer text wraps on paper).
const MAX_WIDTH: usize = 48;
/// The deflate level of the workbook's parts. The library compresses the parts one after
/// another on one thread, after the sheets are assembled: for a 100,000-player export
/// (175 MB of XML) level 2 saved in ~2.4 s where level 4 took ~3.2-3.5 s and the
/// library's default, 6, more; the file is 27 instead of 20 MB (level 1: 38 MB and no
/// faster). The parts inside are the same.
const ZIP_LEVEL: u8 = 2;

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
enum Body {
    /// A run of a row's cells at a time, after the row's values (`format_row`).
    Runs,
    /// Each cell written with its format: the plain way, which the tests check `Runs`
    /// against.
    #[cfg_attr(not(test), allow(dead_code))]
    PerCell,
}

fn render_book_as<'r>(
    reports: impl IntoIterator<Item = (String, Cow<'r, Report>)>,
    body: Body,
    stream_cells: usize,
) -> Result<Vec<u8>, XlsxError> {
    temp_writes_fail_cleanly(|streamed| {
        fill_book(&mut Workbook::new(), reports, body, stream_cells, streamed)
    })
    .map(|(bytes, _)| bytes)
}

/// Writes the reports into `book` (new) and saves it; gives the file and its number of
/// sheets.
///
/// Each large table's sheet is written on a thread of its own, two at a time, while the next
/// report is read (for 100,000 players a sheet holds up to a million cells, and the
/// reports may be made on another thread as they are read: see `workbook_reports`); the
/// sheets go into the book in order. A sheet of notes (the grand total) waits for every
/// table before it, whose money totals it adds up. A table of `stream_cells` cells or
/// more is written through a temporary file (`streamed_sheet`).
fn fill_book<'r>(
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
                    unique_name(&mut names, &section.title)
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

/// Cells from which a table's sheet is written through a temporary file.
///
/// The library holds every cell of an ordinary sheet until it saves the book, and then
/// the sheet's whole XML: for 100,000 players about 1 GB, whose fresh pages the kernel
/// zeroed in a third of the export's CPU time (`perf record` of `qiwang export --format
/// xlsx` on the 100,000-player event of docs/performance.md), more in some hours than in others. A streamed sheet (the library's "constant memory" mode) writes each row to
/// the file as the next one starts, with its text in the cell instead of in the shared
/// string table, and the save copies the file into the workbook.
const STREAM_CELLS: usize = 50_000;

/// At most this many sheets of a workbook are streamed, each holding a temporary file
/// open until the save: a process may only have so many files open (often 1,024). Past
/// that, sheets are held in memory.
const MAX_STREAMED: usize = 64;

/// A new sheet of `book` written through a temporary file, if a table of `cells` cells
/// should be (`stream_cells`, and fewer than [`MAX_STREAMED`] streamed so far) and the
/// temporary file can be made; `None` for an ordinary sheet. Such a sheet only takes rows
/// in order and formats only the row being written (`format_row`). The file is removed
/// as it is made (`tempfile`), so nothing is left behind, even when the process is killed.
fn streamed_sheet(
    book: &mut Workbook,
    cells: usize,
    stream_cells: usize,
    streamed: usize,
) -> Option<Worksheet> {
    if cells < stream_cells || streamed >= MAX_STREAMED {
        return None;
    }
    // The library makes such a sheet only inside the book: taken out to be written on
    // its own thread, it goes back in order like any other (`finish`).
    book.add_worksheet_with_constant_memory().ok()?;
    book.worksheets_mut().pop()
}

/// Bytes a streamed cell takes in its temporary file, generously: the sheets' XML of a
/// 100,000-player event (about 4 million cells) is 175 MB, 44 bytes a cell.
const TEMP_BYTES_PER_CELL: u64 = 64;

/// Runs `fill`, which counts into its argument the cells of the sheets it streams through
/// temporary files. The workbook library stops (panics) when it cannot write such a file,
/// most often because the disk is full; its panic's text is not read. After any panic the
/// temporary directory is checked instead ([`temp_dir_failure`]): if it cannot take a
/// write, or has less room than the streamed cells need, the export fails with
/// [`XlsxError::TempFileError`] naming the directory and the cause; otherwise the panic
/// was a bug and goes on. The workbook being filled is dropped half made.
fn temp_writes_fail_cleanly<T>(
    fill: impl FnOnce(&AtomicU64) -> Result<T, XlsxError>,
) -> Result<T, XlsxError> {
    temp_writes_fail_cleanly_in(&std::env::temp_dir(), fill)
}

/// [`temp_writes_fail_cleanly`] with the temporary directory the library writes to.
fn temp_writes_fail_cleanly_in<T>(
    dir: &std::path::Path,
    fill: impl FnOnce(&AtomicU64) -> Result<T, XlsxError>,
) -> Result<T, XlsxError> {
    let streamed = AtomicU64::new(0);
    let panic = match crate::panics::contain(|| fill(&streamed)) {
        Ok(result) => return result,
        Err(panic) => panic,
    };
    let needed = streamed
        .load(Ordering::Relaxed)
        .saturating_mul(TEMP_BYTES_PER_CELL);
    match temp_dir_failure(dir, needed) {
        Some(cause) => Err(XlsxError::TempFileError(dir.to_path_buf(), cause)),
        None => std::panic::resume_unwind(Box::new(panic.message)),
    }
}

/// Why `dir` cannot hold temporary files of `needed` bytes, if it cannot: a probe file
/// cannot be written there (read-only, missing, no permission, full), or the file system
/// has less room available than `needed`.
fn temp_dir_failure(dir: &std::path::Path, needed: u64) -> Option<std::io::Error> {
    use std::io::Write;
    let probe = dir.join(format!(".qiwang-probe-{}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|mut file| {
            let written = file
                .write_all(&[0; 64 * 1024])
                .and_then(|()| file.sync_all());
            let _ = std::fs::remove_file(&probe);
            written
        });
    if let Err(e) = written {
        return Some(e);
    }
    let stat = match rustix::fs::statvfs(dir) {
        Ok(stat) => stat,
        Err(e) => return Some(e.into()),
    };
    let available = stat.f_bavail.saturating_mul(stat.f_frsize);
    (available < needed).then(|| {
        std::io::Error::new(
            std::io::ErrorKind::StorageFull,
            format!(
                "{} MB available, about {} MB needed",
                available / 1_000_000,
                needed.div_ceil(1_000_000)
            ),
        )
    })
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

struct Formats {
    title: Format,
    header: Format,
    text: Format,
    number: Format,
    money: Format,
    total_label: Format,
    total_money: Format,
}

impl Formats {
    /// Gives the formats their numbers in `book` in a fixed order: a streamed sheet
    /// numbers a format when it first meets it, and two such sheets written at once
    /// would otherwise number them in the order the threads ran.
    fn register(&self, book: &mut Workbook) {
        for format in [
            &self.title,
            &self.header,
            &self.text,
            &self.number,
            &self.money,
            &self.total_label,
            &self.total_money,
        ] {
            book.register_format(format);
        }
    }

    fn new() -> Self {
        let border = |f: Format| f.set_border(FormatBorder::Thin);
        Formats {
            title: Format::new().set_bold().set_font_size(14),
            header: border(Format::new().set_bold().set_align(FormatAlign::Center)),
            text: border(Format::new()),
            number: border(Format::new()),
            money: border(Format::new().set_num_format("0.00")),
            total_label: border(Format::new().set_bold()),
            total_money: border(Format::new().set_bold().set_num_format("0.00")),
        }
    }
}

/// Whether a column holds money (奖金, 金额, money, amount): two decimals and a total.
fn is_money(header: &str) -> bool {
    let h = header.to_lowercase();
    ["奖金", "金额", "money", "amount", "prize money"]
        .iter()
        .any(|k| h.contains(k))
}

/// A number as a number column holds it: digits with an optional sign and one point, no
/// leading zero (a `007` is a code, not seven), at most 15 digits (what Excel keeps).
fn as_number(text: &str) -> Option<f64> {
    let t = text.trim();
    let digits = t.trim_start_matches('-');
    if digits.is_empty()
        || digits.chars().filter(char::is_ascii_digit).count() > 15
        || !digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        || digits.matches('.').count() > 1
        || digits.starts_with('.')
        || digits.ends_with('.')
        || (digits.len() > 1 && digits.starts_with('0') && !digits.starts_with("0."))
    {
        return None;
    }
    t.parse().ok()
}

/// Control characters (a terminal escape) and the bidirectional overrides that make text
/// show in another order removed (`report::safe::printable`), newlines and tabs made
/// spaces; the text is otherwise kept as written, and always written as a string cell.
/// Borrowed when there is nothing to change (most cells: a number column's cell is only
/// parsed, never copied).
///
/// Text longer than a cell holds ([`CELL_TEXT_MAX`]) is cut, ending in "…": the HTML,
/// CSV and JSON outputs keep it whole.
fn clean(text: &str) -> Cow<'_, str> {
    // `printable` leaves only newline and tab of the control characters.
    let cleaned = match crate::report::safe::printable(text) {
        Cow::Borrowed(t) if !t.contains(['\n', '\t']) => Cow::Borrowed(t),
        t => Cow::Owned(t.replace(['\n', '\t'], " ")),
    };
    // A UTF-8 byte never stands for more than one UTF-16 unit.
    if cleaned.len() <= CELL_TEXT_MAX {
        return cleaned;
    }
    let mut units = 0;
    for (at, c) in cleaned.char_indices() {
        if units + c.len_utf16() > CELL_TEXT_MAX - 1 {
            return Cow::Owned(format!("{}…", &cleaned[..at]));
        }
        units += c.len_utf16();
    }
    cleaned
}

/// Excel's limit on a cell's text, in UTF-16 units (the library refuses longer text).
const CELL_TEXT_MAX: usize = 32_767;

/// How wide text shows: CJK and full-width characters take two columns.
fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| {
            if (c as u32) >= 0x1100 && !matches!(c as u32, 0x2010..=0x206F) {
                2
            } else {
                1
            }
        })
        .sum()
}

/// Excel's limit on a sheet name, in UTF-16 units (what Excel and the library count: a
/// character such as 𠀀 takes two).
const SHEET_NAME_MAX: usize = 31;

/// A valid, unique worksheet name: at most [`SHEET_NAME_MAX`] UTF-16 units, none of
/// `[]:*?/\`, no apostrophe or space at either end, not empty, and not `History`, which
/// Excel keeps for itself.
fn unique_name(taken: &mut BTreeSet<String>, wanted: &str) -> String {
    let replaced: String = clean(wanted)
        .chars()
        .map(|c| if "[]:*?/\\".contains(c) { '_' } else { c })
        .collect();
    // Trimmed again after the cut, which may end the name on a space or an apostrophe.
    let fit = |text: &str, max: usize| trim_name(cut_utf16(trim_name(text), max)).to_string();
    let base = match fit(&replaced, SHEET_NAME_MAX) {
        base if base.is_empty() => "Sheet".to_string(),
        base => base,
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name.to_lowercase()) || name.eq_ignore_ascii_case("history") {
        let suffix = format!(" ({n})");
        name = format!("{}{suffix}", fit(&base, SHEET_NAME_MAX - suffix.len()));
        n += 1;
    }
    taken.insert(name.to_lowercase());
    name
}

/// `text` without spaces and apostrophes at its ends (Excel refuses a sheet name that
/// begins or ends with an apostrophe).
fn trim_name(text: &str) -> &str {
    text.trim_matches(|c: char| c == '\'' || c.is_whitespace())
}

/// The longest start of `text`, in whole characters, of at most `max` UTF-16 units.
fn cut_utf16(text: &str, max: usize) -> &str {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        units += c.len_utf16();
        if units > max {
            return &text[..i];
        }
    }
    text
}

/// `'成人组 排名'` as a formula names a sheet.
fn quote_sheet(name: &str) -> String {
    format!("'{}'", name.replace('\'', "''"))
}

/// The title and subtitle lines; the row after them.
fn write_heading(
    sheet: &mut Worksheet,
    f: &Formats,
    heading: &str,
    report: &Report,
) -> Result<u32, XlsxError> {
    sheet.write_string_with_format(0, 0, clean(heading), &f.title)?;
    let mut row = 1;
    for line in &report.subtitle {
        sheet.write_string(row, 0, clean(line))?;
        row += 1;
    }
    Ok(row + 1)
}

fn page_setup(sheet: &mut Worksheet, header_row: u32, columns: usize) -> Result<(), XlsxError> {
    sheet.set_paper_size(A4);
    if columns > 8 {
        sheet.set_landscape();
    } else {
        sheet.set_portrait();
    }
    sheet.set_print_fit_to_pages(1, 0);
    sheet.set_repeat_rows(header_row, header_row)?;
    sheet.set_freeze_panes(header_row + 1, 0)?;
    Ok(())
}

/// How a table's body cell is formatted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Look {
    Text,
    Number,
    Money,
}

impl Look {
    fn format(self, f: &Formats) -> &Format {
        match self {
            Look::Text => &f.text,
            Look::Number => &f.number,
            Look::Money => &f.money,
        }
    }
}

/// Sets the formats of the body row just written, whose values went in without one:
/// `looks` holds each cell's look and whether it is empty, `any_value` whether the row
/// wrote a value. A run of neighbouring cells with the same look takes one
/// `set_range_format`, one format lookup: writing each cell with its `Format` made the
/// library hash the whole `Format` per cell, about 1.2 s of CPU for the 4 million cells
/// of a 100,000-player export. The row comes out as if each cell had been written with
/// its format: an empty cell becomes a formatted blank, and an empty cell that alone
/// stretches the sheet's used range (in a row without a value, or right of the header's
/// `columns`) is written as a blank, which stretches it, where a range format does not.
/// Only the row just written is touched, as a sheet written through a temporary file
/// requires (see `streamed_sheet`).
fn format_row(
    sheet: &mut Worksheet,
    f: &Formats,
    row: u32,
    looks: &[(Look, bool)],
    columns: usize,
    any_value: bool,
) -> Result<(), XlsxError> {
    for (c, &(look, empty)) in looks.iter().enumerate() {
        if empty && ((c == 0 && !any_value) || c >= columns) {
            sheet.write_blank(row, col(c), look.format(f))?;
        }
    }
    let mut left = 0;
    while left < looks.len() {
        let look = looks[left].0;
        let mut right = left;
        while looks.get(right + 1).is_some_and(|l| l.0 == look) {
            right += 1;
        }
        sheet.set_range_format(row, col(left), row, col(right), look.format(f))?;
        left = right + 1;
    }
    Ok(())
}

/// Writes one table, its body from `rows` (`section.rows` may have been taken out);
/// returns the cell of its money total (`F12`) and the total, if it has one.
fn write_table<'a>(
    sheet: &mut Worksheet,
    f: &Formats,
    heading: &str,
    report: &Report,
    section: &Section,
    rows: impl Iterator<Item = impl Iterator<Item = Cow<'a, str>>>,
    body: Body,
) -> Result<Option<(String, f64)>, XlsxError> {
    let header_row = write_heading(sheet, f, heading, report)?;
    let mut widths: Vec<usize> = section.columns.iter().map(|c| display_width(c)).collect();
    for (c, name) in section.columns.iter().enumerate() {
        sheet.write_string_with_format(header_row, col(c), clean(name), &f.header)?;
    }
    let money: Vec<bool> = section.columns.iter().map(|c| is_money(c)).collect();
    let numeric: Vec<bool> = (0..section.columns.len())
        .map(|c| money[c] || section.align.get(c) == Some(&Align::Right))
        .collect();
    // Number cells share the text cells' format (both only bordered): one look, so a
    // column mixing numbers and text is still one run.
    let number = if f.number == f.text {
        Look::Text
    } else {
        Look::Number
    };
    // The row being written: each cell's look and whether it is empty.
    let mut looks: Vec<(Look, bool)> = Vec::new();
    let money_col = money.iter().position(|&m| m);
    // The money column's values as written in the report, for its total.
    let mut money_values: Vec<f64> = Vec::new();
    let mut has_rows = false;
    let mut row = header_row;
    for cells in rows {
        has_rows = true;
        row += 1;
        looks.clear();
        let mut any_value = false;
        for (c, value) in cells.enumerate() {
            if Some(c) == money_col {
                money_values.extend(as_number(&value));
            }
            let value = match value {
                Cow::Borrowed(v) => clean(v),
                // The report's own text, unless cleaning changed it.
                Cow::Owned(v) => {
                    let cleaned = match clean(&v) {
                        Cow::Owned(cleaned) => Some(cleaned),
                        Cow::Borrowed(_) => None,
                    };
                    Cow::Owned(cleaned.unwrap_or(v))
                }
            };
            if let Some(w) = widths.get_mut(c) {
                *w = (*w).max(display_width(&value));
            } else {
                widths.push(display_width(&value));
            }
            let n = match numeric.get(c) {
                Some(true) => as_number(&value),
                _ => None,
            };
            let look = match n {
                Some(_) if money[c] => Look::Money,
                Some(_) => number,
                None => Look::Text,
            };
            if body == Body::PerCell {
                let format = look.format(f);
                match n {
                    Some(n) => {
                        sheet.write_number_with_format(row, col(c), n, format)?;
                    }
                    None => {
                        sheet.write_string_with_format(row, col(c), value, format)?;
                    }
                }
                continue;
            }
            // The value goes in without a format (an empty one not at all);
            // `format_row` formats the row afterwards.
            let empty = value.is_empty();
            any_value |= !empty;
            match n {
                Some(n) => {
                    sheet.write_number(row, col(c), n)?;
                }
                None if empty => {}
                None => {
                    sheet.write_string(row, col(c), value)?;
                }
            }
            looks.push((look, empty));
        }
        if body == Body::Runs {
            format_row(sheet, f, row, &looks, section.columns.len(), any_value)?;
        }
    }
    let mut total = None;
    if let Some(m) = money_col
        && has_rows
    {
        row += 1;
        let label_col = if m == 0 { 1 } else { 0 };
        let label = if report.lang.starts_with("en") {
            "Total"
        } else {
            "合计"
        };
        sheet.write_string_with_format(row, col(label_col), label, &f.total_label)?;
        let letter = crate::registration::xlsx::column_letters(m);
        let formula = format!("=SUM({letter}{}:{letter}{})", header_row + 2, row);
        let sum: f64 = money_values.iter().sum();
        sheet.write_formula_with_format(
            row,
            col(m),
            Formula::new(formula).set_result(format!("{sum:.2}")),
            &f.total_money,
        )?;
        total = Some((format!("{letter}{}", row + 1), sum));
    }
    row += 1;
    for note in &section.notes {
        row += 1;
        sheet.write_string(row, 0, clean(note))?;
    }
    for (c, w) in widths.iter().enumerate() {
        sheet.set_column_width(col(c), ((*w).min(MAX_WIDTH) + 2) as f64)?;
    }
    page_setup(sheet, header_row, section.columns.len())?;
    Ok(total)
}

/// A section without a table (the grand total): its notes, and the sum of every money
/// total written so far as a formula.
fn write_notes_sheet(
    sheet: &mut Worksheet,
    f: &Formats,
    heading: &str,
    report: &Report,
    section: &Section,
    totals: &[(String, f64)],
) -> Result<(), XlsxError> {
    let mut row = write_heading(sheet, f, heading, report)?;
    if !section.title.is_empty() {
        sheet.write_string_with_format(row, 0, clean(&section.title), &f.total_label)?;
        row += 1;
    }
    for note in &section.notes {
        sheet.write_string(row, 0, clean(note))?;
        row += 1;
    }
    if !totals.is_empty() {
        row += 1;
        let label = if report.lang.starts_with("en") {
            "Total"
        } else {
            "合计"
        };
        sheet.write_string_with_format(row, 0, label, &f.total_label)?;
        // The value is stored with the formula: a viewer that does not recalculate on
        // opening (LibreOffice's default for .xlsx) shows it, not 0.
        let cells: Vec<&str> = totals.iter().map(|(c, _)| c.as_str()).collect();
        let sum: f64 = totals.iter().map(|(_, v)| v).sum();
        sheet.write_formula_with_format(
            row,
            1,
            Formula::new(format!("={}", cells.join("+"))).set_result(format!("{sum:.2}")),
            &f.total_money,
        )?;
    }
    sheet.set_column_width(0, 40)?;
    sheet.set_column_width(1, 16)?;
    sheet.set_paper_size(A4);
    Ok(())
}

/// Rows of the registration sheet given drop-down lists and text formats.
const TEMPLATE_ROWS: u32 = 1000;

/// The registration workbook of `qiwang template --format xlsx`: the sheet with its
/// header and example row, ID and phone columns formatted as text (so Excel keeps all 18
/// characters), drop-down lists for the columns with allowed values (性别, 组别, 年级 …),
/// the hint of each column shown when a cell is selected, and a second sheet holding the
/// lists (it has no 姓名 column, so the importer skips it).
pub fn template_workbook(
    t: &crate::registration::template::Template,
    lang: crate::rulebook::Lang,
) -> Result<Vec<u8>, XlsxError> {
    use rust_xlsxwriter::DataValidation;
    let mut book = Workbook::new();
    let f = Formats::new();
    let text = Format::new().set_num_format("@");
    let lists_name = lang.pick("可选值", "allowed values");
    {
        let sheet = book.add_worksheet();
        sheet.set_name(clean(&t.sheet_name))?;
        sheet.write_string_with_format(0, 0, clean(&t.title), &f.title)?;
        let header_row = 1;
        let mut list_col = 0u16;
        for (c, column) in t.columns.iter().enumerate() {
            let c16 = col(c);
            let width = display_width(&column.header)
                .max(display_width(&column.example))
                .max(8);
            sheet.set_column_width(c16, (width.min(MAX_WIDTH) + 2) as f64)?;
            if column.text {
                sheet.set_column_format(c16, &text)?;
            }
            sheet.write_string_with_format(header_row, c16, clean(&column.header), &f.header)?;
            if column.text {
                sheet.write_string_with_format(
                    header_row + 1,
                    c16,
                    clean(&column.example),
                    &text,
                )?;
            } else {
                sheet.write_string(header_row + 1, c16, clean(&column.example))?;
            }
            let hint: String = clean(&column.hint).chars().take(250).collect();
            let title: String = clean(&column.header).chars().take(30).collect();
            let mut validation = if column.allowed.is_empty() {
                DataValidation::new().allow_any_value()
            } else {
                let letter = crate::registration::xlsx::column_letters(usize::from(list_col));
                let last = column.allowed.len() + 1;
                list_col += 1;
                DataValidation::new().allow_list_formula(Formula::new(format!(
                    "={}!${letter}$2:${letter}${last}",
                    quote_sheet(lists_name)
                )))
            };
            validation = validation.set_input_title(title)?.set_input_message(hint)?;
            sheet.add_data_validation(
                header_row + 1,
                c16,
                header_row + TEMPLATE_ROWS,
                c16,
                &validation,
            )?;
        }
        page_setup(sheet, header_row, t.columns.len())?;
    }
    let lists = book.add_worksheet();
    lists.set_name(lists_name)?;
    for (c, column) in t
        .columns
        .iter()
        .filter(|c| !c.allowed.is_empty())
        .enumerate()
    {
        let c = col(c);
        lists.write_string_with_format(0, c, clean(&column.header), &f.header)?;
        for (r, value) in column.allowed.iter().enumerate() {
            lists.write_string(u32::try_from(r + 1).unwrap_or(u32::MAX), c, clean(value))?;
        }
        let width = column
            .allowed
            .iter()
            .map(|v| display_width(v))
            .max()
            .unwrap_or(8);
        lists.set_column_width(c, (width.min(MAX_WIDTH) + 2) as f64)?;
    }
    book.save_to_buffer()
}

fn col(c: usize) -> u16 {
    u16::try_from(c).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_only_plain_numbers() {
        for (text, want) in [
            ("12", Some(12.0)),
            ("5.5", Some(5.5)),
            ("-2", Some(-2.0)),
            ("1200.00", Some(1200.0)),
            ("0", Some(0.0)),
            ("0.50", Some(0.5)),
            ("007", None),
            ("1=", None),
            ("330702********1234", None),
            ("3307021966122512", None),
            ("=1+2", None),
            ("", None),
            ("1.2.3", None),
        ] {
            assert_eq!(as_number(text), want, "{text:?}");
        }
    }

    #[test]
    fn sheet_names_are_valid_and_unique() {
        let mut taken = BTreeSet::new();
        assert_eq!(unique_name(&mut taken, "成人组/排名"), "成人组_排名");
        assert_eq!(unique_name(&mut taken, "成人组/排名"), "成人组_排名 (2)");
        assert_eq!(unique_name(&mut taken, ""), "Sheet");
        let long = "长".repeat(40);
        assert_eq!(unique_name(&mut taken, &long).chars().count(), 31);
        assert_eq!(unique_name(&mut taken, &long).chars().count(), 31);
        // Names that once failed the whole workbook (an outside tester's group names):
        // characters of two UTF-16 units, apostrophes at an end or at the cut, and the
        // name Excel keeps for itself.
        let hostile = [
            "𠀀".repeat(16),
            "𠀀".repeat(16),
            " 'abc".to_string(),
            format!("{}'bcd", "a".repeat(30)),
            format!("{}'bcd", "a".repeat(30)),
            format!("{} 'x", "𠀀".repeat(14)),
            "'''".to_string(),
            "History".to_string(),
            "HISTORY".to_string(),
            "'history'".to_string(),
            format!("{}'", "b".repeat(27)),
            format!("{}'", "b".repeat(27)),
        ];
        let mut taken = BTreeSet::new();
        for wanted in &hostile {
            let name = unique_name(&mut taken, wanted);
            assert!(name.encode_utf16().count() <= SHEET_NAME_MAX, "{name}");
            assert!(!name.eq_ignore_ascii_case("history"), "{name}");
            let mut sheet = Worksheet::new();
            assert!(sheet.set_name(&name).is_ok(), "{wanted:?} -> {name:?}");
        }
        assert_eq!(taken.len(), hostile.len());
        assert_eq!(unique_name(&mut taken, " 'abc"), "abc (2)");
    }

    /// Tester repro 11: a right-to-left override in a name reached the workbook, where
    /// it shows the cell's text reversed.
    #[test]
    fn bidi_overrides_never_reach_a_cell() {
        let mut report = Report::new("赛事\u{202e}名");
        report.subtitle.push("第\u{2066}1轮".into());
        let mut section = Section::new("成\u{202d}绩", vec!["姓\u{202e}名".into()]);
        section.push(vec!["张\u{202e}三\u{200f}\u{2069}".into()]);
        report.sections.push(section);
        let bytes = render_book(&[("排\u{202e}名".into(), &report)]).unwrap();
        let grids = crate::registration::xlsx::read_workbook(&bytes).unwrap();
        let mut cells = 0;
        for grid in &grids {
            for (_, row) in &grid.rows {
                for cell in row {
                    let text = cell.to_string();
                    cells += 1;
                    assert!(
                        !text.chars().any(
                            |c| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
                        ),
                        "{text:?}"
                    );
                }
            }
        }
        assert!(cells >= 4);
        assert!(clean("张\u{202e}三").contains("张三"));
    }

    /// Every part of the workbook, unzipped, the creation time taken out of
    /// `docProps/core.xml`.
    fn parts(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
        use std::io::Read;
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut parts = Vec::new();
        for i in 0..zip.len() {
            let mut part = zip.by_index(i).unwrap();
            let mut data = Vec::new();
            part.read_to_end(&mut data).unwrap();
            let name = part.name().unwrap().to_string();
            if name == "docProps/core.xml" {
                let text = String::from_utf8(data).unwrap();
                let start = text.find("<dcterms:created").unwrap();
                let end = text.rfind("</dcterms:modified>").unwrap();
                data = format!("{}{}", &text[..start], &text[end..]).into_bytes();
            }
            parts.push((name, data));
        }
        parts
    }

    /// The formats set a run at a time give the same workbook as each cell written with
    /// its own, from borrowed reports and from owned ones: money columns with text among the numbers, empty cells, short and long
    /// rows, empty rows at the end with and without a totals row or notes after them.
    #[test]
    fn formats_by_runs_make_the_same_workbook() {
        let row = |cells: &[&str]| cells.iter().map(ToString::to_string).collect();
        let mut report = Report::new("赛事");
        report.subtitle.push("第1轮".into());
        // Money before text: the formats keep the order their first cells came in.
        let mut first = Section::new("首", vec!["奖金".into(), "姓名".into()]);
        first.push(row(&["100", "张三"]));
        report.sections.push(first);
        let mut prizes = Section::new(
            "奖金",
            vec!["名次".into(), "姓名".into(), "奖金".into(), "备注".into()],
        )
        .right(&[0]);
        for r in [
            row(&["1", "张三", "1200.00", ""]),
            row(&["2", "李四", "—", "x"]),
            row(&["", "", "", ""]),
            row(&["3", "王五"]),
            row(&["4", "赵六", "300", "a", "b", ""]),
            row(&["007", "孙七", "", "", "", "", ""]),
            row(&["", ""]),
        ] {
            prizes.push(r);
        }
        prizes.notes.push(String::new());
        report.sections.push(prizes);
        let mut table =
            Section::new("排名", vec!["名次".into(), "姓名".into(), "分".into()]).right(&[0, 2]);
        for r in [
            row(&["序", "张三", "2"]),
            row(&["2", "李四", "1.5"]),
            row(&["3", "", ""]),
            row(&["", "", "", "", ""]),
            row(&[""]),
        ] {
            table.push(r);
        }
        report.sections.push(table);
        let mut empty = Section::new("空", vec!["a".into(), "奖金".into()]);
        empty.push(row(&["", ""]));
        empty.push(row(&["", "", ""]));
        report.sections.push(empty);
        let mut notes_only = Section::new("合计", Vec::new());
        notes_only.notes.push("共 3 人".into());
        report.sections.push(notes_only);
        let mut other = Report::new("名单");
        let mut players = Section::new("", vec!["编号".into(), "奖金".into()]).right(&[0]);
        players.push(row(&["1", "5"]));
        players.push(row(&["x", ""]));
        other.sections.push(players);
        let book = || {
            vec![
                ("奖".to_string(), Cow::Borrowed(&report)),
                ("名单".to_string(), Cow::Borrowed(&other)),
            ]
        };
        let owned = vec![
            ("奖".to_string(), report.clone()),
            ("名单".to_string(), other.clone()),
        ];
        let same = |got: &[(String, Vec<u8>)], want: &[(String, Vec<u8>)]| {
            assert_eq!(got.len(), want.len());
            for ((name, a), (_, b)) in got.iter().zip(want) {
                assert!(
                    a == b,
                    "{name}:\n{}\n{}",
                    String::from_utf8_lossy(a),
                    String::from_utf8_lossy(b)
                );
            }
        };
        // Every table sheet held in memory, then every one streamed.
        let per_cell = parts(&render_book_as(book(), Body::PerCell, usize::MAX).unwrap());
        same(
            &parts(&render_book_as(book(), Body::Runs, usize::MAX).unwrap()),
            &per_cell,
        );
        same(&parts(&render_book_owned(owned).unwrap().bytes), &per_cell);
        let streamed_per_cell = parts(&render_book_as(book(), Body::PerCell, 0).unwrap());
        let streamed = parts(&render_book_as(book(), Body::Runs, 0).unwrap());
        same(&streamed, &streamed_per_cell);
        // Streamed sheets hold their text in the cells; the values are the same.
        let sheet = |parts: &[(String, Vec<u8>)], n: usize| {
            let name = format!("xl/worksheets/sheet{n}.xml");
            String::from_utf8(parts.iter().find(|p| p.0 == name).unwrap().1.clone()).unwrap()
        };
        assert!(sheet(&streamed, 2).contains("inlineStr"));
        assert!(!sheet(&per_cell, 2).contains("inlineStr"));
        let held = crate::registration::xlsx::read_workbook(
            &render_book_as(book(), Body::Runs, usize::MAX).unwrap(),
        )
        .unwrap();
        let streamed = crate::registration::xlsx::read_workbook(
            &render_book_as(book(), Body::Runs, 0).unwrap(),
        )
        .unwrap();
        assert_eq!(format!("{held:?}"), format!("{streamed:?}"));
    }

    /// Text longer than a cell holds (a rulebook's 40,000-character award) is cut to
    /// the limit, ending in "…", instead of failing the workbook; text at the limit stays.
    #[test]
    fn text_longer_than_a_cell_is_cut() {
        let utf16 = |t: &str| t.encode_utf16().count();
        for long in ["奖".repeat(40_000), "a".repeat(40_000), "𠀀".repeat(20_000)] {
            let cut = clean(&long);
            assert!(utf16(&cut) <= CELL_TEXT_MAX, "{}", utf16(&cut));
            assert!(utf16(&cut) >= CELL_TEXT_MAX - 1, "{}", utf16(&cut));
            assert!(cut.ends_with('…'));
            let mut report = Report::new("t");
            let mut section = Section::new("", vec!["奖项".into()]);
            section.rows.push(vec![long.clone()]);
            report.sections.push(section);
            render(&report).unwrap();
        }
        let fits = "a".repeat(CELL_TEXT_MAX);
        assert_eq!(clean(&fits), fits);
    }

    /// A panic while a workbook is filled (raised on a sheet's thread, as the library
    /// raises it) is reported as a temporary-file error when the temporary directory
    /// cannot take a write or lacks the room the streamed sheets need, and goes on as a
    /// bug otherwise; the panic's text plays no part.
    #[test]
    fn a_panic_is_a_temporary_file_error_only_when_the_directory_fails() {
        let scratch =
            std::env::temp_dir().join(format!("qiwang-xlsx-probe-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).unwrap();
        let on_a_thread = |streamed: &AtomicU64, cells: u64| -> Result<(), XlsxError> {
            streamed.fetch_add(cells, Ordering::Relaxed);
            std::thread::scope(|scope| {
                let handle = scope.spawn(|| -> Result<(), XlsxError> { panic!("any text at all") });
                crate::threads::join(handle)
            })
        };
        // A directory that cannot be written to: its own error is the cause.
        let missing = scratch.join("missing");
        match temp_writes_fail_cleanly_in(&missing, |s| on_a_thread(s, 10)) {
            Err(XlsxError::TempFileError(dir, e)) => {
                assert_eq!(dir, missing);
                assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{e}");
            }
            other => panic!("{other:?}"),
        }
        // Room for less than the streamed cells need: the disk is full.
        match temp_writes_fail_cleanly_in(&scratch, |s| on_a_thread(s, u64::MAX / 2)) {
            Err(XlsxError::TempFileError(_, e)) => {
                assert_eq!(e.kind(), std::io::ErrorKind::StorageFull, "{e}");
                assert!(e.to_string().contains("MB needed"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        // A writable directory with room: the panic is a bug and goes on.
        let bug = std::panic::catch_unwind(|| {
            temp_writes_fail_cleanly_in(&scratch, |s| on_a_thread(s, 10))
        });
        assert!(bug.is_err());
        assert!(temp_dir_failure(&scratch, 0).is_none());
        std::fs::remove_dir_all(&scratch).unwrap();
    }

    #[test]
    fn cjk_counts_double() {
        assert_eq!(display_width("成人组"), 6);
        assert_eq!(display_width("abc"), 3);
        assert_eq!(display_width("—"), 1);
    }
}
