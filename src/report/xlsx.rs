//! Excel workbooks for the office: one worksheet per section of a report (a prize list,
//! a group's standings), ready to print.
//!
//! Renders what the view computed, like every renderer: values already masked, nothing
//! decided here but the cell types. Numbers in number columns become numbers, money gets
//! two decimals and a totals row with a `SUM` formula, text stays text (a name beginning
//! with `=` is written as a string, never as a formula). Each sheet has its header row
//! frozen and repeated on every printed page, A4 paper, one page wide, and columns as wide
//! as their CJK text.

use super::{Align, Report, Section};
use rust_xlsxwriter::{Format, FormatAlign, FormatBorder, Formula, Workbook, Worksheet, XlsxError};
use std::borrow::Cow;
use std::collections::BTreeSet;

/// Excel's paper size code for A4.
const A4: u8 = 9;
/// The widest a column is made, in characters (longer text wraps on paper).
const MAX_WIDTH: usize = 48;
/// The deflate level of the workbook's parts. The library's default, 6, spent ~3.5 s of
/// CPU compressing a 100,000-player export; 4 takes ~2.2 s for a file 2% larger (21.4
/// instead of 21.0 MB; level 1 would double it). The parts inside are the same.
const ZIP_LEVEL: u8 = 4;

/// A report as a workbook: a sheet per section with columns (the prize sheet: a sheet per
/// list), plus a sheet for sections that only carry notes (the grand total).
pub fn render(report: &Report) -> Result<Vec<u8>, XlsxError> {
    render_book(&[(report.title.clone(), report)])
}

/// Several reports in one workbook (`export --format xlsx`): each `(name, report)` gives
/// one sheet named `name`, or one sheet per section when the report has several.
pub fn render_book(reports: &[(String, &Report)]) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    book.set_zip_compression_level(ZIP_LEVEL);
    let mut names = BTreeSet::new();
    let mut totals: Vec<(String, f64)> = Vec::new();
    let formats = Formats::new();
    for (name, report) in reports {
        let tables: Vec<&Section> = report
            .sections
            .iter()
            .filter(|s| !s.columns.is_empty())
            .collect();
        let single = tables.len() <= 1;
        for section in &report.sections {
            let sheet_name = if single || section.title.is_empty() {
                unique_name(&mut names, name)
            } else {
                unique_name(&mut names, &section.title)
            };
            let sheet = book.add_worksheet();
            sheet.set_name(&sheet_name)?;
            let heading = if section.title.is_empty() {
                report.title.clone()
            } else {
                format!("{} — {}", report.title, section.title)
            };
            if section.columns.is_empty() {
                write_notes_sheet(sheet, &formats, &heading, report, section, &totals)?;
                continue;
            }
            if let Some((cell, sum)) = write_table(sheet, &formats, &heading, report, section)? {
                totals.push((format!("{}!{cell}", quote_sheet(&sheet_name)), sum));
            }
        }
    }
    if names.is_empty() {
        let sheet = book.add_worksheet();
        sheet.write_string(
            0,
            0,
            clean(&reports.first().map(|r| r.0.clone()).unwrap_or_default()),
        )?;
    }
    book.save_to_buffer()
}

struct Formats {
    title: Format,
    header: Format,
    text: Format,
    number: Format,
    money: Format,
    total_label: Format,
    total_money: Format,
}

impl Formats {
    fn new() -> Self {
        let border = |f: Format| f.set_border(FormatBorder::Thin);
        Formats {
            title: Format::new().set_bold().set_font_size(14),
            header: border(Format::new().set_bold().set_align(FormatAlign::Center)),
            text: border(Format::new()),
            number: border(Format::new()),
            money: border(Format::new().set_num_format("0.00")),
            total_label: border(Format::new().set_bold()),
            total_money: border(Format::new().set_bold().set_num_format("0.00")),
        }
    }
}

/// Whether a column holds money (奖金, 金额, money, amount): two decimals and a total.
fn is_money(header: &str) -> bool {
    let h = header.to_lowercase();
    ["奖金", "金额", "money", "amount", "prize money"]
        .iter()
        .any(|k| h.contains(k))
}

/// A number as a number column holds it: digits with an optional sign and one point, no
/// leading zero (a `007` is a code, not seven), at most 15 digits (what Excel keeps).
fn as_number(text: &str) -> Option<f64> {
    let t = text.trim();
    let digits = t.trim_start_matches('-');
    if digits.is_empty()
        || digits.chars().filter(char::is_ascii_digit).count() > 15
        || !digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        || digits.matches('.').count() > 1
        || digits.starts_with('.')
        || digits.ends_with('.')
        || (digits.len() > 1 && digits.starts_with('0') && !digits.starts_with("0."))
    {
        return None;
    }
    t.parse().ok()
}

/// Control characters (a terminal escape) and the bidirectional overrides that make text
/// show in another order removed (`report::safe::printable`), newlines and tabs made
/// spaces; the text is otherwise kept as written, and always written as a string cell.
/// Borrowed when there is nothing to change (most cells: a number column's cell is only
/// parsed, never copied).
fn clean(text: &str) -> Cow<'_, str> {
    // `printable` leaves only newline and tab of the control characters.
    match crate::report::safe::printable(text) {
        Cow::Borrowed(t) if !t.contains(['\n', '\t']) => Cow::Borrowed(t),
        t => Cow::Owned(t.replace(['\n', '\t'], " ")),
    }
}

/// How wide text shows: CJK and full-width characters take two columns.
fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| {
            if (c as u32) >= 0x1100 && !matches!(c as u32, 0x2010..=0x206F) {
                2
            } else {
                1
            }
        })
        .sum()
}

/// A valid, unique worksheet name: at most 31 characters, none of `[]:*?/\`, not empty.
fn unique_name(taken: &mut BTreeSet<String>, wanted: &str) -> String {
    let base: String = clean(wanted)
        .chars()
        .map(|c| if "[]:*?/\\".contains(c) { '_' } else { c })
        .collect::<String>()
        .trim_matches('\'')
        .trim()
        .chars()
        .take(31)
        .collect();
    let base = if base.is_empty() {
        "Sheet".to_string()
    } else {
        base
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name.to_lowercase()) {
        let suffix = format!(" ({n})");
        let keep = 31 - suffix.chars().count();
        name = format!("{}{suffix}", base.chars().take(keep).collect::<String>());
        n += 1;
    }
    taken.insert(name.to_lowercase());
    name
}

/// `'成人组 排名'` as a formula names a sheet.
fn quote_sheet(name: &str) -> String {
    format!("'{}'", name.replace('\'', "''"))
}

/// The title and subtitle lines; the row after them.
fn write_heading(
    sheet: &mut Worksheet,
    f: &Formats,
    heading: &str,
    report: &Report,
) -> Result<u32, XlsxError> {
    sheet.write_string_with_format(0, 0, clean(heading), &f.title)?;
    let mut row = 1;
    for line in &report.subtitle {
        sheet.write_string(row, 0, clean(line))?;
        row += 1;
    }
    Ok(row + 1)
}

fn page_setup(sheet: &mut Worksheet, header_row: u32, columns: usize) -> Result<(), XlsxError> {
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

/// Writes one table; returns the cell of its money total (`F12`) and the total, if it has
/// one.
fn write_table(
    sheet: &mut Worksheet,
    f: &Formats,
    heading: &str,
    report: &Report,
    section: &Section,
) -> Result<Option<(String, f64)>, XlsxError> {
    let header_row = write_heading(sheet, f, heading, report)?;
    let mut widths: Vec<usize> = section.columns.iter().map(|c| display_width(c)).collect();
    for (c, name) in section.columns.iter().enumerate() {
        sheet.write_string_with_format(header_row, col(c), clean(name), &f.header)?;
    }
    let money: Vec<bool> = section.columns.iter().map(|c| is_money(c)).collect();
    let numeric: Vec<bool> = (0..section.columns.len())
        .map(|c| money[c] || section.align.get(c) == Some(&Align::Right))
        .collect();
    let mut row = header_row;
    for cells in &section.rows {
        row += 1;
        for (c, value) in cells.iter().enumerate() {
            let value = clean(value);
            if let Some(w) = widths.get_mut(c) {
                *w = (*w).max(display_width(&value));
            } else {
                widths.push(display_width(&value));
            }
            match (numeric.get(c), as_number(&value)) {
                (Some(true), Some(n)) if money[c] => {
                    sheet.write_number_with_format(row, col(c), n, &f.money)?;
                }
                (Some(true), Some(n)) => {
                    sheet.write_number_with_format(row, col(c), n, &f.number)?;
                }
                _ => {
                    sheet.write_string_with_format(row, col(c), value, &f.text)?;
                }
            }
        }
    }
    let mut total = None;
    if let Some(m) = money.iter().position(|&m| m)
        && !section.rows.is_empty()
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
        let sum: f64 = section
            .rows
            .iter()
            .filter_map(|r| r.get(m).and_then(|v| as_number(v)))
            .sum();
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
fn write_notes_sheet(
    sheet: &mut Worksheet,
    f: &Formats,
    heading: &str,
    report: &Report,
    section: &Section,
    totals: &[(String, f64)],
) -> Result<(), XlsxError> {
    let mut row = write_heading(sheet, f, heading, report)?;
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

/// Rows of the registration sheet given drop-down lists and text formats.
const TEMPLATE_ROWS: u32 = 1000;

/// The registration workbook of `qiwang template --format xlsx`: the sheet with its
/// header and example row, ID and phone columns formatted as text (so Excel keeps all 18
/// characters), drop-down lists for the columns with allowed values (性别, 组别, 年级 …),
/// the hint of each column shown when a cell is selected, and a second sheet holding the
/// lists (it has no 姓名 column, so the importer skips it).
pub fn template_workbook(
    t: &crate::registration::template::Template,
    lang: crate::rulebook::Lang,
) -> Result<Vec<u8>, XlsxError> {
    use rust_xlsxwriter::DataValidation;
    let mut book = Workbook::new();
    let f = Formats::new();
    let text = Format::new().set_num_format("@");
    let lists_name = lang.pick("可选值", "allowed values");
    {
        let sheet = book.add_worksheet();
        sheet.set_name(clean(&t.sheet_name))?;
        sheet.write_string_with_format(0, 0, clean(&t.title), &f.title)?;
        let header_row = 1;
        let mut list_col = 0u16;
        for (c, column) in t.columns.iter().enumerate() {
            let c16 = col(c);
            let width = display_width(&column.header)
                .max(display_width(&column.example))
                .max(8);
            sheet.set_column_width(c16, (width.min(MAX_WIDTH) + 2) as f64)?;
            if column.text {
                sheet.set_column_format(c16, &text)?;
            }
            sheet.write_string_with_format(header_row, c16, clean(&column.header), &f.header)?;
            if column.text {
                sheet.write_string_with_format(
                    header_row + 1,
                    c16,
                    clean(&column.example),
                    &text,
                )?;
            } else {
                sheet.write_string(header_row + 1, c16, clean(&column.example))?;
            }
            let hint: String = clean(&column.hint).chars().take(250).collect();
            let title: String = clean(&column.header).chars().take(30).collect();
            let mut validation = if column.allowed.is_empty() {
                DataValidation::new().allow_any_value()
            } else {
                let letter = crate::registration::xlsx::column_letters(usize::from(list_col));
                let last = column.allowed.len() + 1;
                list_col += 1;
                DataValidation::new().allow_list_formula(Formula::new(format!(
                    "={}!${letter}$2:${letter}${last}",
                    quote_sheet(lists_name)
                )))
            };
            validation = validation.set_input_title(title)?.set_input_message(hint)?;
            sheet.add_data_validation(
                header_row + 1,
                c16,
                header_row + TEMPLATE_ROWS,
                c16,
                &validation,
            )?;
        }
        page_setup(sheet, header_row, t.columns.len())?;
    }
    let lists = book.add_worksheet();
    lists.set_name(lists_name)?;
    for (c, column) in t
        .columns
        .iter()
        .filter(|c| !c.allowed.is_empty())
        .enumerate()
    {
        let c = col(c);
        lists.write_string_with_format(0, c, clean(&column.header), &f.header)?;
        for (r, value) in column.allowed.iter().enumerate() {
            lists.write_string(u32::try_from(r + 1).unwrap_or(u32::MAX), c, clean(value))?;
        }
        let width = column
            .allowed
            .iter()
            .map(|v| display_width(v))
            .max()
            .unwrap_or(8);
        lists.set_column_width(c, (width.min(MAX_WIDTH) + 2) as f64)?;
    }
    book.save_to_buffer()
}

fn col(c: usize) -> u16 {
    u16::try_from(c).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_only_plain_numbers() {
        for (text, want) in [
            ("12", Some(12.0)),
            ("5.5", Some(5.5)),
            ("-2", Some(-2.0)),
            ("1200.00", Some(1200.0)),
            ("0", Some(0.0)),
            ("0.50", Some(0.5)),
            ("007", None),
            ("1=", None),
            ("330702********1234", None),
            ("3307021966122512", None),
            ("=1+2", None),
            ("", None),
            ("1.2.3", None),
        ] {
            assert_eq!(as_number(text), want, "{text:?}");
        }
    }

    #[test]
    fn sheet_names_are_valid_and_unique() {
        let mut taken = BTreeSet::new();
        assert_eq!(unique_name(&mut taken, "成人组/排名"), "成人组_排名");
        assert_eq!(unique_name(&mut taken, "成人组/排名"), "成人组_排名 (2)");
        assert_eq!(unique_name(&mut taken, ""), "Sheet");
        let long = "长".repeat(40);
        assert_eq!(unique_name(&mut taken, &long).chars().count(), 31);
        assert_eq!(unique_name(&mut taken, &long).chars().count(), 31);
    }

    /// Tester repro 11: a right-to-left override in a name reached the workbook, where
    /// it shows the cell's text reversed.
    #[test]
    fn bidi_overrides_never_reach_a_cell() {
        let mut report = Report::new("赛事\u{202e}名");
        report.subtitle.push("第\u{2066}1轮".into());
        let mut section = Section::new("成\u{202d}绩", vec!["姓\u{202e}名".into()]);
        section.push(vec!["张\u{202e}三\u{200f}\u{2069}".into()]);
        report.sections.push(section);
        let bytes = render_book(&[("排\u{202e}名".into(), &report)]).unwrap();
        let grids = crate::registration::xlsx::read_workbook(&bytes).unwrap();
        let mut cells = 0;
        for grid in &grids {
            for (_, row) in &grid.rows {
                for cell in row {
                    let text = cell.to_string();
                    cells += 1;
                    assert!(
                        !text.chars().any(
                            |c| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
                        ),
                        "{text:?}"
                    );
                }
            }
        }
        assert!(cells >= 4);
        assert!(clean("张\u{202e}三").contains("张三"));
    }

    #[test]
    fn cjk_counts_double() {
        assert_eq!(display_width("成人组"), 6);
        assert_eq!(display_width("abc"), 3);
        assert_eq!(display_width("—"), 1);
    }
}
