//! JSON: the structured value behind the report, pretty-printed.

use super::Report;

pub fn render(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&report.json).unwrap_or_else(|_| "null".into());
    s.push('\n');
    s
}
