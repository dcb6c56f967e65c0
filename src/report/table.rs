//! Terminal tables (comfy-table measures CJK width, so Chinese names stay aligned).

use super::{Align, Report};
use comfy_table::{Cell, CellAlignment, ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};

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
            let mut table = Table::new();
            table
                .load_preset(UTF8_FULL_CONDENSED)
                .set_content_arrangement(ContentArrangement::Disabled)
                .set_header(section.columns.iter().map(Cell::new));
            for row in &section.rows {
                table.add_row(row.iter().enumerate().map(|(i, v)| {
                    let cell = Cell::new(v);
                    match section.align.get(i) {
                        Some(Align::Right) => cell.set_alignment(CellAlignment::Right),
                        _ => cell,
                    }
                }));
            }
            out.push_str(&table.to_string());
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
