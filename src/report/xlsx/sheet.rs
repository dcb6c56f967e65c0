//! One sheet's contents: the shared cell formats, the heading and page setup, a table
//! (its body formatted a run of cells at a time, its money column totalled with a `SUM`
//! formula) and the notes sheet that adds the tables' totals up.

use super::Body;
use super::cells::{MAX_WIDTH, as_number, clean, col, display_width, is_money};
use crate::report::{Align, Report, Section};
use rust_xlsxwriter::{Format, FormatAlign, FormatBorder, Formula, Workbook, Worksheet, XlsxError};
use std::borrow::Cow;

/// Excel's paper size code for A4.
pub(super) const A4: u8 = 9;

pub(super) struct Formats {
    pub(super) title: Format,
    /// A table's title, merged across the table's columns and centred, as a sheet to
    /// print and sign is headed.
    pub(super) title_centred: Format,
    /// A table's subtitle lines, merged and centred the same way.
    pub(super) subtitle_centred: Format,
    pub(super) header: Format,
    pub(super) text: Format,
    pub(super) number: Format,
    pub(super) money: Format,
    pub(super) total_label: Format,
    pub(super) total_money: Format,
    /// A blacked-out cell: a round robin's diagonal (■, docs/rules.md §14.5).
    pub(super) blocked: Format,
}

impl Formats {
    /// Gives the formats their numbers in `book` in a fixed order: a streamed sheet
    /// numbers a format when it first meets it, and two such sheets written at once
    /// would otherwise number them in the order the threads ran.
    pub(super) fn register(&self, book: &mut Workbook) {
        for format in [
            &self.title,
            &self.title_centred,
            &self.subtitle_centred,
            &self.header,
            &self.text,
            &self.number,
            &self.money,
            &self.total_label,
            &self.total_money,
            &self.blocked,
        ] {
            book.register_format(format);
        }
    }

    pub(super) fn new() -> Self {
        let border = |f: Format| f.set_border(FormatBorder::Thin);
        Formats {
            title: Format::new().set_bold().set_font_size(14),
            title_centred: Format::new()
                .set_bold()
                .set_font_size(14)
                .set_align(FormatAlign::Center),
            subtitle_centred: Format::new().set_align(FormatAlign::Center),
            header: border(Format::new().set_bold().set_align(FormatAlign::Center)),
            text: border(Format::new()),
            number: border(Format::new()),
            money: border(Format::new().set_num_format("0.00")),
            total_label: border(Format::new().set_bold()),
            total_money: border(Format::new().set_bold().set_num_format("0.00")),
            blocked: border(
                Format::new()
                    .set_background_color(rust_xlsxwriter::Color::Black)
                    .set_pattern(rust_xlsxwriter::FormatPattern::Solid),
            ),
        }
    }
}

/// The title and subtitle lines; the row after them. Over a table of `width` columns
/// (more than one) each line is merged across the table and centred.
fn write_heading(
    sheet: &mut Worksheet,
    f: &Formats,
    heading: &str,
    report: &Report,
    width: usize,
) -> Result<u32, XlsxError> {
    let last = col(width.saturating_sub(1));
    let mut line = |row: u32, text: &str, plain: &Format, centred: &Format| {
        if last > 0 {
            sheet.merge_range(row, 0, row, last, &clean(text), centred)?;
        } else {
            sheet.write_string_with_format(row, 0, clean(text), plain)?;
        }
        Ok::<(), XlsxError>(())
    };
    line(0, heading, &f.title, &f.title_centred)?;
    let mut row = 1;
    let plain = Format::new();
    for text in &report.subtitle {
        line(row, text, &plain, &f.subtitle_centred)?;
        row += 1;
    }
    Ok(row + 1)
}

pub(super) fn page_setup(
    sheet: &mut Worksheet,
    header_row: u32,
    columns: usize,
) -> Result<(), XlsxError> {
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
    Blocked,
}

impl Look {
    fn format(self, f: &Formats) -> &Format {
        match self {
            Look::Text => &f.text,
            Look::Number => &f.number,
            Look::Money => &f.money,
            Look::Blocked => &f.blocked,
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
pub(super) fn write_table<'a>(
    sheet: &mut Worksheet,
    f: &Formats,
    heading: &str,
    report: &Report,
    section: &Section,
    rows: impl Iterator<Item = impl Iterator<Item = Cow<'a, str>>>,
    body: Body,
) -> Result<Option<(String, f64)>, XlsxError> {
    let header_row = write_heading(sheet, f, heading, report, section.columns.len())?;
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
                None if value == crate::report::BLACKED_OUT => Look::Blocked,
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
pub(super) fn write_notes_sheet(
    sheet: &mut Worksheet,
    f: &Formats,
    heading: &str,
    report: &Report,
    section: &Section,
    totals: &[(String, f64)],
) -> Result<(), XlsxError> {
    let mut row = write_heading(sheet, f, heading, report, 1)?;
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
