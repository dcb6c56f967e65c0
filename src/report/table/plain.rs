//! The terminal table of a section with no width to fit (piped output), written straight
//! into the report's text: the same characters comfy-table draws with
//! `UTF8_FULL_CONDENSED` and no content arrangement, without its cell, line and row
//! copies. At 100,000 players those made `round --sheet wall` and `crosstable` on a pipe
//! hold about 400 MB more than their CSV, and take twice their time.
//!
//! comfy-table stays the reference: a test draws random sections both ways and compares
//! them byte for byte, and a cell wider than comfy-table's `u16` widths (which it would
//! cut) goes to comfy-table instead ([`fits`]).

use super::super::{Align, Section};
use unicode_width::UnicodeWidthStr;

/// Whether every cell is narrow enough for comfy-table's column widths (`u16`), so that
/// [`write`] draws what comfy-table would.
pub(super) fn fits(widths: &[usize]) -> bool {
    widths.iter().all(|&w| w + 2 <= usize::from(u16::MAX))
}

/// Each column's content width, as comfy-table measures it: its widest line, header
/// included, at least 1.
pub(super) fn widths(section: &Section) -> Vec<usize> {
    let widest = |text: &str| {
        text.split('\n')
            .map(UnicodeWidthStr::width)
            .max()
            .unwrap_or(0)
    };
    let mut widths: Vec<usize> = section.columns.iter().map(|h| widest(h).max(1)).collect();
    for row in &section.rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(widest(cell));
        }
    }
    widths
}

/// A border line: `left`, each column's width of `fill` (padding included) joined by
/// `cross`, `right`.
fn border(out: &mut String, widths: &[usize], [left, fill, cross, right]: [char; 4]) {
    out.push(left);
    for (i, &w) in widths.iter().enumerate() {
        if i > 0 {
            out.push(cross);
        }
        out.extend(std::iter::repeat_n(fill, w + 2));
    }
    out.push(right);
    out.push('\n');
}

/// One row (the header's cells all left-aligned): as many lines as its tallest cell, a
/// shorter cell blank below its text.
fn row<'a>(
    out: &mut String,
    widths: &[usize],
    align: impl Fn(usize) -> Align,
    cells: impl Fn(usize) -> &'a str,
) {
    let height = (0..widths.len())
        .map(|i| cells(i).split('\n').count())
        .max()
        .unwrap_or(1);
    for line in 0..height {
        out.push('│');
        for (i, &w) in widths.iter().enumerate() {
            if i > 0 {
                out.push('┆');
            }
            let text = cells(i).split('\n').nth(line);
            let room = w - text.map_or(0, UnicodeWidthStr::width);
            let (before, after) = match (text, align(i)) {
                (Some(_), Align::Right) => (room, 0),
                _ => (0, room),
            };
            out.extend(std::iter::repeat_n(' ', 1 + before));
            out.push_str(text.unwrap_or_default());
            out.extend(std::iter::repeat_n(' ', after + 1));
        }
        out.push('│');
        out.push('\n');
    }
}

/// Writes `section`'s table into `out`, every line ended by a newline, with the content
/// widths of [`widths`].
pub(super) fn write(out: &mut String, section: &Section, widths: &[usize]) {
    let align = |i: usize| section.align.get(i).copied().unwrap_or(Align::Left);
    border(out, widths, ['┌', '─', '┬', '┐']);
    row(
        out,
        widths,
        |_| Align::Left,
        |i| section.columns.get(i).map_or("", String::as_str),
    );
    border(out, widths, ['╞', '═', '╪', '╡']);
    for cells in &section.rows {
        row(out, widths, align, |i| {
            cells.get(i).map_or("", String::as_str)
        });
    }
    border(out, widths, ['└', '─', '┴', '┘']);
}
