//! CSV for spreadsheets: one header row per section, sections separated by a blank line.
//! Starts with a UTF-8 byte-order mark, so Chinese-locale Excel opens it by double-click
//! ([`safe::encode`](super::safe::encode) writes GBK instead on request). Every cell goes
//! through the one CSV writer, [`safe::write_csv`](super::safe::write_csv), which makes
//! formula-like cells inert.

use super::Report;
use super::safe::write_csv;

pub fn render(report: &Report) -> String {
    let sections = match &report.csv {
        Some(flat) => std::slice::from_ref(flat),
        None => report.sections.as_slice(),
    };
    let mut out = String::from("\u{feff}");
    out.push_str(&write_csv(
        sections
            .iter()
            .map(|s| (s.columns.as_slice(), s.rows.as_slice())),
    ));
    out
}
