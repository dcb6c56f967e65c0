//! CSV for spreadsheets: one header row per section, sections separated by a blank line.
//! Starts with a UTF-8 byte-order mark, so Chinese-locale Excel opens it by double-click
//! ([`safe::encode`](super::safe::encode) writes GBK instead on request). Every cell goes
//! through the one CSV writer, [`safe::write_csv`](super::safe::write_csv), which makes
//! formula-like cells inert.

use super::safe::write_csv;
use super::{Report, Section};

pub fn render(report: &Report) -> String {
    let one;
    let sections = match (&report.csv, &report.csv_merged) {
        (Some(flat), _) => std::slice::from_ref(flat),
        (None, Some(first)) => {
            one = merged(first, &report.sections);
            std::slice::from_ref(&one)
        }
        (None, None) => report.sections.as_slice(),
    };
    let mut out = String::from("\u{feff}");
    out.push_str(&write_csv(
        sections
            .iter()
            .map(|s| (s.columns.as_slice(), s.rows.as_slice())),
    ));
    out
}

/// `sections` as one table ([`Report::csv_merged`]): a first column headed `first` holding
/// each row's section's [`Section::sheet_title`], then every header of the sections in the
/// order first met (a header twice in one section takes two columns), each row's values
/// under their own headers and nothing under another section's.
fn merged(first: &str, sections: &[Section]) -> Section {
    let mut columns = vec![first.to_string()];
    let mut places: Vec<Vec<usize>> = Vec::with_capacity(sections.len());
    for s in sections {
        let mut at: Vec<usize> = Vec::with_capacity(s.columns.len());
        for c in &s.columns {
            let found = (1..columns.len()).find(|&f| columns[f] == *c && !at.contains(&f));
            at.push(found.unwrap_or_else(|| {
                columns.push(c.clone());
                columns.len() - 1
            }));
        }
        places.push(at);
    }
    let mut out = Section::new(String::new(), columns);
    for (s, at) in sections.iter().zip(&places) {
        for row in &s.rows {
            let mut cells = vec![String::new(); out.columns.len()];
            cells[0] = s.sheet_title().to_string();
            for (cell, &i) in row.iter().zip(at) {
                cells[i].clone_from(cell);
            }
            out.rows.push(cells);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sections with other headers (pools ranked by other tiebreaks): one table, the
    /// section's sheet name first, each value under its own header, nothing under another
    /// section's column; a header twice keeps both.
    #[test]
    fn merged_sections_are_one_table_with_the_section_first() {
        let mut adults =
            Section::new("成人组 第9轮后", vec!["名次".into(), "对手分".into()]).sheet("成人组");
        adults.push(vec!["1".into(), "40".into()]);
        let mut kids = Section::new(
            "少儿组 第9轮后",
            vec!["名次".into(), "累进分".into(), "累进分".into()],
        )
        .sheet("少儿组");
        kids.push(vec!["1".into(), "9".into(), "8".into()]);
        let one = merged("组别", &[adults, kids]);
        assert_eq!(one.columns, ["组别", "名次", "对手分", "累进分", "累进分"]);
        assert_eq!(
            one.rows,
            [["成人组", "1", "40", "", ""], ["少儿组", "1", "", "9", "8"]]
        );
    }
}
