//! A long table on a terminal, fitted into its width and drawn by comfy-table a few
//! thousand rows at a time: comfy-table holds every cell, every line of every cell and
//! every drawn line of the table it draws, which for 100,000 rows was 650 MB and 3 s.
//!
//! The columns' widths are comfy-table's own for the whole table. Its arrangement reads
//! the rows only through maxima over each column's cells (the widest line; the longest
//! piece a cell splits into at a trial width), and a column it is told the width of only
//! through that width. So a small probe table — the header, and for each column whose
//! width is not fixed the distinct values of that column — is arranged exactly as the
//! whole table (the values of one [`shape`] arrange alike, so one of each will do); its
//! widths are read off its top border, and each slice of rows is drawn with every column
//! fixed at them. A test draws random long tables both ways, at random
//! widths, and compares them line for line.

use super::super::Section;
use super::{Col, Squeeze, comfy};
use comfy_table::{ColumnConstraint, Table, Width};
use std::borrow::Cow;
use std::collections::HashSet;

/// comfy-table's drawing of `section`'s rows in `cols`, fitted into `width` at
/// `squeeze`, made `chunk` rows at a time; lines joined by newlines, as comfy-table's
/// `to_string` gives them.
pub(super) fn draw(
    section: &Section,
    cols: &[Col],
    width: u16,
    squeeze: Squeeze,
    chunk: usize,
) -> String {
    let Some(widths) = arranged_widths(section, cols, width, squeeze) else {
        return comfy(section, cols, Some(width), squeeze, &section.rows).to_string();
    };
    // The lines, each written straight into the one text, newlines between them.
    let mut text = String::new();
    let slices: Vec<&[Vec<String>]> = section.rows.chunks(chunk.max(1)).collect();
    for (i, rows) in slices.iter().enumerate() {
        let mut table = comfy(section, cols, Some(width), squeeze, rows.iter());
        fix_widths(&mut table, &widths);
        let drawn: Vec<String> = table.lines().collect();
        // Top border, the header's lines, the line under it, the rows, the bottom border.
        let Some(under_header) = drawn.iter().position(|l| l.starts_with('╞')) else {
            return comfy(section, cols, Some(width), squeeze, &section.rows).to_string();
        };
        let rows_end = drawn.len().saturating_sub(1).max(under_header + 1);
        let from = if i == 0 { 0 } else { under_header + 1 };
        let to = if i + 1 == slices.len() {
            drawn.len()
        } else {
            rows_end
        };
        for line in &drawn[from..to] {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(line);
        }
    }
    text
}

/// Every column of `table` fixed at its width in `widths` (padding included).
fn fix_widths(table: &mut Table, widths: &[u16]) {
    for (column, &w) in table.column_iter_mut().zip(widths) {
        column.set_constraint(ColumnConstraint::Absolute(Width::Fixed(w)));
    }
}

/// What comfy-table's arrangement reads of a cell: each character's display width,
/// bytes and whether it is the space it splits at, and nothing else of the characters
/// of these plain classes (each its own grapheme, its width its own whatever its
/// neighbours): printable ASCII (one cell, one byte) and 汉字 with the full-width forms
/// and CJK punctuation (two cells, three bytes). A value of those, spaces and newlines
/// stands for every value of its shape; any other value (an emoji, a variation selector
/// after `#`, which makes it two cells wide) stands only for itself. Cells of one shape
/// arrange alike, so the probe needs one of each: a column of 100,000 numbers or names
/// has a few dozen shapes.
fn shape(value: &str) -> Cow<'_, str> {
    let class = |c: char| match c {
        '!'..='~' => Some('a'),
        '\u{4e00}'..='\u{9fff}' | '\u{3001}'..='\u{3011}' | '\u{ff01}'..='\u{ff5e}' => Some('王'),
        ' ' | '\n' => Some(c),
        _ => None,
    };
    match value.chars().map(class).collect::<Option<String>>() {
        Some(shape) => Cow::Owned(shape),
        None => Cow::Borrowed(value),
    }
}

/// The width (padding included) comfy-table gives each of `cols` when it arranges all of
/// `section`'s rows into `width` at `squeeze`, from the probe table described in the module
/// docs. `None` if its top border cannot be read as one width per column.
fn arranged_widths(
    section: &Section,
    cols: &[Col],
    width: u16,
    squeeze: Squeeze,
) -> Option<Vec<u16>> {
    let mut probe: Vec<Vec<String>> = Vec::new();
    for col in cols {
        if matches!(col.constraint(squeeze), Some(ColumnConstraint::Absolute(_))) {
            continue;
        }
        let mut seen = HashSet::new();
        for row in &section.rows {
            let value = row.get(col.index).map_or("", String::as_str);
            if !value.is_empty() && seen.insert(shape(value)) {
                let mut cells = vec![String::new(); section.columns.len()];
                cells[col.index] = value.to_string();
                probe.push(cells);
            }
        }
    }
    let table = comfy(section, cols, Some(width), squeeze, &probe);
    let top = table.lines().next()?;
    let inner = top.strip_prefix('┌')?.strip_suffix('┐')?;
    let widths: Vec<u16> = inner
        .split('┬')
        .map(|part| u16::try_from(part.chars().count()).ok())
        .collect::<Option<_>>()?;
    (widths.len() == cols.len()).then_some(widths)
}
