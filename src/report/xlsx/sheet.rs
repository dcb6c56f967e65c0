//! One sheet's contents: the heading (merged across a table and centred), a table (its
//! header row, its body with each cell's format, its money column totalled with a `SUM`
//! formula) and the notes sheet that adds the tables' totals up; and how each is laid
//! out for the printer.

use super::WorkbookError;
use super::cells::{MAX_WIDTH, as_number, clean, col, display_width, is_money};
use super::parts::Style;
use super::xml::{Layout, MAX_COL, MAX_ROW, SheetXml, cell_ref};
use crate::report::{Align, Report, Section};
use std::borrow::Cow;

/// The title and subtitle lines; the row after them. Over a table of `width` columns
/// (more than one) each line is merged across the table and centred.
fn write_heading(
    sheet: &mut SheetXml,
    heading: &str,
    report: &Report,
    width: usize,
) -> Result<u32, WorkbookError> {
    let last = col(width.saturating_sub(1));
    let mut line = |row: u32, text: &str, plain: Style, centred: Style| {
        if last > 0 {
            // The text in the first cell, the others blank with the same format.
            sheet.text(row, 0, &clean(text), centred.id())?;
            for c in 1..=last {
                sheet.blank(row, c, centred.id())?;
            }
            sheet.merge(row, 0, last);
        } else {
            sheet.text(row, 0, &clean(text), plain.id())?;
        }
        Ok::<(), WorkbookError>(())
    };
    line(0, heading, Style::Title, Style::TitleCentred)?;
    let mut row = 1;
    for text in &report.subtitle {
        line(row, text, Style::Plain, Style::SubtitleCentred)?;
        row += 1;
    }
    Ok(row + 1)
}

/// The widths of `widths` (characters of text) as the sheet's columns take them: two
/// more, at most [`MAX_WIDTH`] and two.
fn column_widths(widths: &[usize]) -> Vec<usize> {
    widths.iter().map(|w| (*w).min(MAX_WIDTH) + 2).collect()
}

/// Writes one table, its body from `rows` (`section.rows` may have been taken out);
/// returns how the sheet is laid out and the cell of its money total (`F12`) with the
/// total, if it has one.
///
/// Every cell of a body row is written with its format (thin border; money two decimals;
/// ■ black), an empty one as a formatted blank, so that the printed table is ruled.
/// A cell of a number column holding a plain number (`as_number`) is a number; any
/// other is text, whatever it begins with (`=1+2` stays a string).
pub(super) fn write_table<'a>(
    sheet: &mut SheetXml,
    heading: &str,
    report: &Report,
    section: &Section,
    rows: impl Iterator<Item = impl Iterator<Item = Cow<'a, str>>>,
    body_rows: usize,
) -> Result<(Layout, Option<(String, f64)>), WorkbookError> {
    // Refused before any of it is written: the rows the heading (title, subtitles, a
    // blank row), the header, the body, the total, a blank row and the notes take.
    let needed = 2 + report.subtitle.len() + 1 + body_rows + 2 + section.notes.len();
    if needed > MAX_ROW as usize + 1 || section.columns.len() > usize::from(MAX_COL) + 1 {
        return Err(sheet.too_large());
    }
    let header_row = write_heading(sheet, heading, report, section.columns.len())?;
    let mut widths: Vec<usize> = section.columns.iter().map(|c| display_width(c)).collect();
    for (c, name) in section.columns.iter().enumerate() {
        sheet.text(
            header_row,
            col_of(sheet, c)?,
            &clean(name),
            Style::Header.id(),
        )?;
    }
    let money: Vec<bool> = section.columns.iter().map(|c| is_money(c)).collect();
    let numeric: Vec<bool> = (0..section.columns.len())
        .map(|c| money[c] || section.align.get(c) == Some(&Align::Right))
        .collect();
    let money_col = money.iter().position(|&m| m);
    // The money column's values as written in the report, for its total.
    let mut money_values: Vec<f64> = Vec::new();
    let mut has_rows = false;
    let mut row = header_row;
    for cells in rows {
        has_rows = true;
        row += 1;
        for (c, value) in cells.enumerate() {
            let at = col_of(sheet, c)?;
            let value = clean(&value);
            let width = display_width(&value);
            match widths.get_mut(c) {
                Some(w) => *w = (*w).max(width),
                None => widths.push(width),
            }
            // Parsed once: the number written is the one totalled.
            let number = match numeric.get(c) {
                Some(true) => as_number(&value),
                _ => None,
            };
            if Some(c) == money_col {
                money_values.extend(number);
            }
            match number {
                Some(_) if money[c] => sheet.number(row, at, &value, Style::Money.id())?,
                Some(_) => sheet.number(row, at, &value, Style::Text.id())?,
                None if value == crate::report::BLACKED_OUT => {
                    sheet.text(row, at, &value, Style::Blocked.id())?;
                }
                None => sheet.text(row, at, &value, Style::Text.id())?,
            }
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
        let formula = format!(
            "SUM({}:{})",
            cell_ref(header_row + 1, m),
            cell_ref(row - 1, m)
        );
        let sum: f64 = money_values.iter().sum();
        // Cells go in left to right.
        let mut cells = [(label_col, None), (m, Some(&formula))];
        cells.sort_by_key(|(c, _)| *c);
        for (c, formula) in cells {
            match formula {
                Some(f) => sheet.formula(row, col(c), f, sum, Style::TotalMoney.id())?,
                None => sheet.text(row, col(c), label, Style::TotalLabel.id())?,
            }
        }
        total = Some((cell_ref(row, m), sum));
    }
    row += 1;
    for note in &section.notes {
        row += 1;
        sheet.text(row, 0, &clean(note), Style::Plain.id())?;
    }
    let layout = Layout {
        widths: column_widths(&widths),
        table: Some((header_row, section.columns.len() > 8)),
    };
    Ok((layout, total))
}

/// Column `c`, or the sheet's error when it is past Excel's last column.
fn col_of(sheet: &SheetXml, c: usize) -> Result<u16, WorkbookError> {
    u16::try_from(c)
        .ok()
        .filter(|&c| c <= MAX_COL)
        .ok_or_else(|| sheet.too_large())
}

/// Excel's limit on a formula's text, in characters (UTF-16 units).
const FORMULA_MAX: usize = 8_192;

/// A section without a table (the grand total): its notes, and the sum of every money
/// total written so far as a formula (as a number when the formula would pass
/// [`FORMULA_MAX`]).
pub(super) fn write_notes_sheet(
    sheet: &mut SheetXml,
    heading: &str,
    report: &Report,
    section: &Section,
    totals: &[(String, f64)],
) -> Result<Layout, WorkbookError> {
    // Refused before any of it is written, as a table is: the rows the heading (title,
    // subtitles, a blank row), the section's title, the notes and the total (after a
    // blank row) take at most.
    let needed = 2 + report.subtitle.len() + 1 + section.notes.len() + 2;
    if needed > MAX_ROW as usize + 1 {
        return Err(sheet.too_large());
    }
    let mut row = write_heading(sheet, heading, report, 1)?;
    if !section.title.is_empty() {
        sheet.text(row, 0, &clean(&section.title), Style::TotalLabel.id())?;
        row += 1;
    }
    for note in &section.notes {
        sheet.text(row, 0, &clean(note), Style::Plain.id())?;
        row += 1;
    }
    if !totals.is_empty() {
        row += 1;
        let label = if report.lang.starts_with("en") {
            "Total"
        } else {
            "合计"
        };
        sheet.text(row, 0, label, Style::TotalLabel.id())?;
        let cells: Vec<&str> = totals.iter().map(|(c, _)| c.as_str()).collect();
        let sum: f64 = totals.iter().map(|(_, v)| v).sum();
        let formula = cells.join("+");
        if formula.encode_utf16().count() <= FORMULA_MAX {
            sheet.formula(row, 1, &formula, sum, Style::TotalMoney.id())?;
        } else {
            // Hundreds of lists: a formula naming each would not open (Excel refuses the
            // file); the total is written as the number it is.
            let value = format!("{:.2}", sum + 0.0);
            sheet.number(row, 1, &value, Style::TotalMoney.id())?;
        }
    }
    Ok(Layout {
        widths: vec![40, 16],
        table: None,
    })
}
