//! Terminal tables (comfy-table measures CJK width, so Chinese names stay aligned).
//!
//! A table fits the terminal: on a terminal its width (or `COLUMNS`, when set) bounds the
//! table and the long text columns (units, reasons, log summaries) wrap inside their
//! cells, while numbers, places and short columns keep their width. Piped output without
//! `COLUMNS` is never wrapped, so scripts see one line per row.

use super::{Align, Report};
use comfy_table::{
    Cell, CellAlignment, ColumnConstraint, ContentArrangement, Table, Width,
    presets::UTF8_FULL_CONDENSED,
};

/// Text columns this wide or narrower (in terminal cells, e.g. a name of four 汉字) never
/// wrap.
const SHORT_TEXT: usize = 8;

/// The width to fit: `COLUMNS` if set to a sensible number, else the terminal's when
/// standard output is one, else none (piped output is not wrapped).
fn width_to_fit() -> Option<u16> {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<u16>().ok())
        .filter(|w| *w >= 40)
        .or_else(|| Table::new().width())
}

/// One section as a terminal table, fitted into `width` if given: columns empty in every
/// row are left out, numbers and codes (ID, phone, dates) keep their content's width with
/// the header wrapping over them, short text keeps its width, and long text (units,
/// reasons, log summaries) wraps inside its cell.
fn section_table(section: &super::Section, width: Option<u16>) -> String {
    let keep: Vec<usize> = (0..section.columns.len())
        .filter(|&i| {
            width.is_none()
                || section
                    .rows
                    .iter()
                    .any(|r| r.get(i).is_some_and(|v| !v.is_empty()))
        })
        .collect();
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_header(keep.iter().map(|&i| Cell::new(&section.columns[i])));
    match width {
        Some(w) => {
            table
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(w);
        }
        None => {
            table.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    for row in &section.rows {
        table.add_row(keep.iter().map(|&i| {
            let cell = Cell::new(row.get(i).map_or("", String::as_str));
            match section.align.get(i) {
                Some(Align::Right) => cell.set_alignment(CellAlignment::Right),
                _ => cell,
            }
        }));
    }
    if let Some(width) = width {
        // Long text wraps down to four 汉字 a line, or two when the table is still too wide.
        let plan: Vec<(bool, usize)> = keep
            .iter()
            .map(|&i| {
                let values = section.rows.iter().filter_map(|r| r.get(i));
                let widest = values.clone().map(|v| display_width(v)).max().unwrap_or(0);
                let header = section.columns.get(i).map_or(0, |h| display_width(h));
                let is_code = values.clone().all(|v| v.is_ascii() && !v.contains(' '));
                let right = section.align.get(i) == Some(&Align::Right);
                let fixed = if right || is_code {
                    Some(widest.max(header.min(4)).max(1))
                } else if widest <= SHORT_TEXT {
                    Some(widest.max(header.min(SHORT_TEXT)))
                } else {
                    None
                };
                (fixed.is_some(), fixed.unwrap_or(0))
            })
            .collect();
        let needed = |lower: usize| -> usize {
            1 + plan
                .iter()
                .map(|(fixed, w)| 3 + if *fixed { *w } else { lower })
                .sum::<usize>()
        };
        let lower = if needed(SHORT_TEXT) <= usize::from(width) {
            SHORT_TEXT
        } else {
            4
        };
        for (column, &i) in table.column_iter_mut().zip(&keep) {
            let values = || section.rows.iter().filter_map(move |r| r.get(i));
            let widest = values().map(|v| display_width(v)).max().unwrap_or(0);
            let header = section.columns.get(i).map_or(0, |h| display_width(h));
            let is_code = values().all(|v| v.is_ascii() && !v.contains(' '));
            let right = section.align.get(i) == Some(&Align::Right);
            // comfy-table's widths include the cell padding (one space each side).
            let cells = |w: usize| Width::Fixed((w + 2) as u16);
            let constraint = if right || is_code {
                // The header (出生年份) may wrap over a narrow column of numbers.
                ColumnConstraint::Absolute(cells(widest.max(header.min(4)).max(1)))
            } else if widest <= SHORT_TEXT {
                ColumnConstraint::Absolute(cells(widest.max(header.min(SHORT_TEXT))))
            } else {
                ColumnConstraint::LowerBoundary(cells(lower))
            };
            column.set_constraint(constraint);
        }
    }
    table.to_string()
}

/// Display width of a cell's widest line: East Asian wide characters (汉字, full-width
/// forms) take two cells. Only decides which columns may wrap; comfy-table measures the
/// table itself.
fn display_width(text: &str) -> usize {
    let wide = |c: char| {
        matches!(c as u32,
            0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD)
    };
    text.lines()
        .map(|l| l.chars().map(|c| if wide(c) { 2 } else { 1 }).sum())
        .max()
        .unwrap_or(0)
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    if !report.title.is_empty() {
        out.push_str(&report.title);
        out.push('\n');
    }
    for line in &report.subtitle {
        out.push_str(line);
        out.push('\n');
    }
    for section in &report.sections {
        out.push('\n');
        if !section.title.is_empty() {
            out.push_str(&section.title);
            out.push('\n');
        }
        if !section.columns.is_empty() {
            out.push_str(&section_table(section, width_to_fit()));
            out.push('\n');
        }
        for note in &section.notes {
            out.push_str(note);
            out.push('\n');
        }
    }
    if !report.footer.is_empty() {
        out.push('\n');
        for line in &report.footer {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}
