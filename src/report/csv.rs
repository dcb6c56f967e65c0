//! CSV for spreadsheets: one header row per section, sections separated by a blank line.
//! A UTF-8 BOM is not written; Excel users open it with the data import dialog.

use super::Report;

pub fn render(report: &Report) -> String {
    let mut out = Vec::new();
    let sections = match &report.csv {
        Some(flat) => std::slice::from_ref(flat),
        None => report.sections.as_slice(),
    };
    for (i, section) in sections.iter().enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        let mut writer = csv::WriterBuilder::new()
            .flexible(true)
            .from_writer(Vec::new());
        // Writing to a Vec cannot fail.
        let _ = writer.write_record(&section.columns);
        for row in &section.rows {
            let _ = writer.write_record(row);
        }
        if let Ok(bytes) = writer.into_inner() {
            out.extend(bytes);
        }
    }
    String::from_utf8(out).unwrap_or_default()
}
