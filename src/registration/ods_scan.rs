//! A pass over an OpenDocument spreadsheet's `content.xml` before the workbook library
//! reads it, counting the cells the library would lay out: it repeats a row or a cell as
//! often as `number-rows-repeated` / `number-columns-repeated` say, and lays every sheet
//! out as the rectangle from its first to its last row and column holding something.
//!
//! Counts what the library counts: a run of empty cells costs nothing unless a cell with
//! content follows it in the row, and empty rows cost nothing unless a row with content
//! follows them (LibreOffice ends every sheet with empty rows and columns repeated to the
//! sheet's edge, which is accepted); repeated content counts every repeat. A cell with
//! any child or value is taken as content, which can only count more than the library.

use super::limits::{
    At, Found, Limit, MAX_CELLS, MAX_COLUMNS, MAX_RECTANGLE_CELLS, MAX_ROWS, MAX_SHEETS,
    MAX_TEXT_BYTES, beyond,
};
use crate::i18n::Text;
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Cursor};

/// What one sheet would cost.
#[derive(Debug, Default)]
struct Sheet {
    name: String,
    /// Rows (repeats included, as capped by the library) so far.
    rows: u64,
    /// Rows up to the last row with content, and from the first one.
    first_content_row: Option<u64>,
    last_content_row: u64,
    /// The leftmost and rightmost column holding content.
    col_min: u64,
    col_max: u64,
    /// Cells pushed while reading the rows (before the rectangle is laid out).
    pushed: u64,
    /// The text of the rows up to the last row with content, repeats included, and of
    /// the rows after it.
    text: u64,
    text_after: u64,
    /// The rows with content the sheet hides (`table:visibility` collapse or filter), as
    /// the library numbers them from 1.
    hidden: BTreeSet<usize>,
}

impl Sheet {
    /// The rectangle the library lays out.
    fn laid_out(&self) -> u64 {
        let Some(first) = self.first_content_row else {
            return 0;
        };
        (self.last_content_row - first).saturating_mul(self.col_max + 1 - self.col_min)
    }
}

/// The rows with content each sheet hides, by the sheet's name (sheets that hide none
/// left out).
pub type HiddenRows = std::collections::BTreeMap<String, BTreeSet<usize>>;

/// Checks the `content.xml` of the .ods `bytes` against the limits; returns the rows
/// each sheet hides.
pub fn scan(bytes: &[u8]) -> Result<HiddenRows, Text> {
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        return Ok(HiddenRows::new());
    };
    let Ok(content) = archive.by_name("content.xml") else {
        return Ok(HiddenRows::new());
    };
    scan_content(BufReader::new(content))
}

fn attr(e: &BytesStart<'_>, key: &str, unescape: bool) -> Option<String> {
    let a = e.try_get_attribute(key).ok()??;
    if unescape {
        quick_xml::escape::unescape(&a.value)
            .ok()
            .map(std::borrow::Cow::into_owned)
    } else {
        Some(a.value.into_owned())
    }
}

fn scan_content(content: impl BufRead) -> Result<HiddenRows, Text> {
    let mut xml = Reader::from_reader(content);
    xml.config_mut().check_end_names = false;
    let (mut sheets, mut pushed, mut laid_out) = (0usize, 0u64, 0u64);
    // The library keeps two numbers for every row element, repeated or not.
    let mut row_elements = 0u64;
    // Text is copied twice: into the row as read, and into the rectangle laid out.
    let (mut text_read, mut text_laid_out) = (0u64, 0u64);
    let mut sheet: Option<Sheet> = None;
    let mut hidden = HiddenRows::new();
    let mut buf = Vec::with_capacity(1024);
    loop {
        buf.clear();
        let (e, empty) = match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => (e.into_owned(), false),
            Ok(Event::Empty(e)) => (e.into_owned(), true),
            Ok(Event::End(e)) if e.name().as_ref() == "table:table" => {
                if let Some(mut done) = sheet.take() {
                    if !done.hidden.is_empty() {
                        let rows = std::mem::take(&mut done.hidden);
                        hidden.entry(done.name.clone()).or_insert(rows);
                    }
                    laid_out = laid_out.saturating_add(done.laid_out());
                    text_laid_out = text_laid_out.saturating_add(done.text);
                    if laid_out > MAX_RECTANGLE_CELLS {
                        return Err(beyond(
                            Limit::Rectangle,
                            At::Sheet(&done.name),
                            Found::MoreThan,
                        ));
                    }
                }
                continue;
            }
            // The library reads a sheet until its end tag and never stops at the end of
            // the file (calamine 0.38 `ods::read_table` loops there for ever): a
            // `content.xml` that stops inside a sheet is refused here.
            Ok(Event::Eof) | Err(_) => {
                return sheet.map_or(Ok(hidden), |s| Err(unfinished(&s.name)));
            }
            Ok(_) => continue,
        };
        match e.name().as_ref() {
            "table:table" if !empty => {
                sheets += 1;
                if sheets > MAX_SHEETS {
                    let found = Found::MoreThan;
                    return Err(beyond(Limit::Sheets, At::Workbook, found));
                }
                sheet = Some(Sheet {
                    name: attr(&e, "table:name", true).unwrap_or_default(),
                    col_min: u64::MAX,
                    ..Sheet::default()
                });
            }
            "table:table-row" if sheet.is_some() => {
                let Some(s) = sheet.as_mut() else { continue };
                row_elements += 1;
                if row_elements > MAX_ROWS {
                    return Err(beyond(Limit::Rows, At::Sheet(&s.name), Found::MoreThan));
                }
                let repeats = match attr(&e, "table:number-rows-repeated", true) {
                    Some(v) => match v.parse::<u64>() {
                        Ok(n) => n,
                        Err(_) => return Ok(hidden), // the library stops here
                    },
                    None => 1,
                };
                let repeats = repeats.min(MAX_ROWS.saturating_sub(s.rows));
                let row = s.rows;
                s.rows += repeats;
                if empty {
                    continue;
                }
                let Some(cells) = scan_row(&mut xml) else {
                    // The library stops there with an error of its own.
                    return Ok(hidden);
                };
                s.pushed = s.pushed.saturating_add(cells.pushed);
                pushed = pushed.saturating_add(cells.pushed);
                if pushed > MAX_CELLS {
                    return Err(beyond(Limit::Cells, At::Sheet(&s.name), Found::MoreThan));
                }
                text_read = text_read.saturating_add(cells.text);
                s.text_after = s
                    .text_after
                    .saturating_add(cells.text.saturating_mul(repeats));
                if cells.content.is_some() {
                    s.text = s.text.saturating_add(s.text_after);
                    s.text_after = 0;
                }
                if text_read > MAX_TEXT_BYTES
                    || text_laid_out.saturating_add(s.text) > MAX_TEXT_BYTES
                {
                    return Err(beyond(Limit::Text, At::Sheet(&s.name), Found::MoreThan));
                }
                if cells.content.is_some()
                    && attr(&e, "table:visibility", false)
                        .is_some_and(|v| v == "collapse" || v == "filter")
                {
                    let from = row as usize + 1;
                    s.hidden.extend(from..from + repeats as usize);
                }
                if let Some((first, last)) = cells.content {
                    s.first_content_row.get_or_insert(row);
                    s.last_content_row = row + repeats;
                    s.col_min = s.col_min.min(first);
                    s.col_max = s.col_max.max(last);
                    if s.laid_out().saturating_add(laid_out) > MAX_RECTANGLE_CELLS {
                        return Err(beyond(
                            Limit::Rectangle,
                            At::Sheet(&s.name),
                            Found::MoreThan,
                        ));
                    }
                }
            }
            _ => {}
        }
    }
}

/// A sheet whose XML stops before its end: the file is cut short or damaged.
fn unfinished(sheet: &str) -> Text {
    Text::new(
        format!(
            "工作表 `{sheet}` 没有结束（content.xml 在表格中途中断）：文件不完整或已损坏；请用表格软件打开后重新保存"
        ),
        format!(
            "sheet `{sheet}` never ends (content.xml stops inside it): the file is cut short or damaged; open it in a spreadsheet program and save it again"
        ),
    )
}

/// One row's cells: how many the library pushes, their text, and the row's first and
/// last content column.
struct RowCells {
    pushed: u64,
    text: u64,
    content: Option<(u64, u64)>,
}

/// Reads the cells of a row up to its end; `None` where the library would stop with an
/// error (a bad repeat count, broken XML).
fn scan_row(xml: &mut Reader<impl BufRead>) -> Option<RowCells> {
    let mut row = RowCells {
        pushed: 0,
        text: 0,
        content: None,
    };
    let mut pending_empty = 0u64;
    let mut buf = Vec::with_capacity(256);
    loop {
        buf.clear();
        let (e, empty) = match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => (e.into_owned(), false),
            Ok(Event::Empty(e)) => (e.into_owned(), true),
            Ok(Event::End(e)) if e.name().as_ref() == "table:table-row" => return Some(row),
            Ok(Event::Eof) | Err(_) => return None,
            Ok(_) => continue,
        };
        if !matches!(
            e.name().as_ref(),
            "table:table-cell" | "table:covered-table-cell"
        ) {
            if !empty {
                cell_text(xml)?;
            }
            continue;
        }
        let repeats = match attr(&e, "table:number-columns-repeated", false) {
            Some(v) => v.parse::<u64>().ok()?,
            None => 1,
        };
        let mut value_bytes = 0u64;
        for a in e.attributes().flatten() {
            if matches!(
                a.key.as_ref(),
                "office:value"
                    | "office:string-value"
                    | "office:date-value"
                    | "office:time-value"
                    | "office:boolean-value"
                    | "table:formula"
            ) {
                value_bytes += a.value.len() as u64 + 1;
            }
        }
        let children = if empty { 0 } else { cell_text(xml)? + 1 };
        let room = |pushed: u64| MAX_COLUMNS.saturating_sub(pushed);
        if value_bytes == 0 && children == 0 {
            pending_empty = repeats.min(room(row.pushed));
            continue;
        }
        row.pushed += pending_empty.min(room(row.pushed));
        pending_empty = 0;
        let repeats = repeats.min(room(row.pushed));
        if repeats == 0 {
            continue;
        }
        let first = row.pushed;
        row.pushed += repeats;
        row.text = row
            .text
            .saturating_add(repeats.saturating_mul(value_bytes + children));
        let (lo, _) = row.content.unwrap_or((first, 0));
        row.content = Some((lo, row.pushed - 1));
    }
}

/// Reads a cell's children up to the cell's end, returning the most text they can give
/// the library: their bytes (an entity is never longer than what it stands for), a line
/// per element, and the spaces `<text:s text:c="N"/>` asks for, which the library writes
/// out, all N of them. `None` where the library would stop with an error.
fn cell_text(xml: &mut Reader<impl BufRead>) -> Option<u64> {
    let mut text = 0u64;
    let mut depth = 1u32;
    let mut buf = Vec::with_capacity(256);
    while depth > 0 {
        buf.clear();
        let e = match xml.read_event_into(&mut buf).ok()? {
            Event::Start(e) => {
                depth += 1;
                e
            }
            Event::Empty(e) => e,
            Event::End(_) => {
                depth -= 1;
                continue;
            }
            Event::Eof => return None,
            Event::Text(t) => {
                text = text.saturating_add(t.len() as u64);
                continue;
            }
            Event::CData(t) => {
                text = text.saturating_add(t.len() as u64);
                continue;
            }
            _ => {
                text = text.saturating_add(8);
                continue;
            }
        };
        text = text.saturating_add(1);
        if e.name().as_ref() == "text:s" {
            let spaces = match attr(&e, "text:c", true) {
                Some(v) => v.parse::<u64>().ok()?,
                None => 1,
            };
            text = text.saturating_add(spaces);
        }
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(tables: &str) -> String {
        format!(
            r#"<office:document-content><office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body></office:document-content>"#
        )
    }

    fn check(tables: &str) -> Result<(), Text> {
        scan_content(content(tables).as_bytes()).map(|_| ())
    }

    /// The rows with content a sheet hides, by hand (collapse) or by a filter, are found
    /// as the library numbers them, repeats counted; hidden empty rows are not.
    #[test]
    fn hidden_rows_with_content_are_found() {
        let tables = format!(
            r#"<table:table table:name="表"><table:table-row>{CELL}</table:table-row><table:table-row table:number-rows-repeated="2"><table:table-cell/></table:table-row><table:table-row table:visibility="collapse">{CELL}</table:table-row><table:table-row table:visibility="collapse" table:number-rows-repeated="9"><table:table-cell/></table:table-row><table:table-row table:visibility="filter" table:number-rows-repeated="2">{CELL}</table:table-row></table:table>"#
        );
        let hidden = scan_content(content(&tables).as_bytes()).unwrap();
        assert_eq!(hidden.get("表"), Some(&BTreeSet::from([4, 14, 15])));
    }

    const CELL: &str =
        r#"<table:table-cell office:value-type="string"><text:p>张三</text:p></table:table-cell>"#;

    /// Found by the fuzz campaign (ods cases 14434, 46206 and 57978 of seed 42): a
    /// `content.xml` cut off inside a sheet made the workbook library loop for ever.
    #[test]
    fn a_sheet_cut_off_before_its_end_is_refused() {
        let cut = r#"<office:document-content><office:body><office:spreadsheet><table:table table:name="报名表"><table:table-column table:number-columns-repeated="12"/>"#;
        let e = scan_content(cut.as_bytes()).unwrap_err();
        assert!(e.en.contains("sheet `报名表` never ends"), "{}", e.en);
        let in_row = format!(
            r#"<office:document-content><office:body><office:spreadsheet><table:table table:name="表"><table:table-row>{CELL}</table:table-row>"#
        );
        assert!(scan_content(in_row.as_bytes()).is_err());
        // A whole sheet, and a file ending after it, are read.
        assert!(check(&format!(r#"<table:table table:name="表"><table:table-row>{CELL}</table:table-row></table:table>"#)).is_ok());
    }

    #[test]
    fn empty_repeats_at_the_end_cost_nothing() {
        let sheet = format!(
            r#"<table:table table:name="报名表"><table:table-row>{CELL}<table:table-cell table:number-columns-repeated="16383"/></table:table-row><table:table-row table:number-rows-repeated="1048575"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>"#
        );
        assert!(check(&sheet.repeat(6)).is_ok());
    }

    #[test]
    fn repeated_content_counts_every_repeat() {
        let sheet = format!(
            r#"<table:table table:name="表1"><table:table-row table:number-rows-repeated="900000">{CELL}</table:table-row></table:table>"#
        );
        // One sheet of 900,000 rows of one cell is within the rectangle limit; two are not.
        assert!(check(&sheet).is_ok());
        let e = check(&sheet.repeat(2)).unwrap_err();
        assert!(
            e.en.contains("sheet `表1`") && e.en.contains("cells"),
            "{}",
            e.en
        );
        // Empty rows between rows of content count too, and empty cells before a cell.
        let gap = format!(
            r#"<table:table table:name="间隔"><table:table-row>{CELL}</table:table-row><table:table-row table:number-rows-repeated="1048570"><table:table-cell/></table:table-row><table:table-row><table:table-cell table:number-columns-repeated="16000"/>{CELL}</table:table-row></table:table>"#
        );
        let e = check(&gap).unwrap_err();
        assert!(e.en.contains("sheet `间隔`"), "{}", e.en);
        let wide = r#"<table:table table:name="宽"><table:table-row table:number-rows-repeated="200"><table:table-cell office:value-type="float" office:value="1" table:number-columns-repeated="16384"/></table:table-row></table:table>"#;
        assert!(check(wide).is_err());
    }

    #[test]
    fn text_is_counted_with_its_repeats_and_its_spaces() {
        let spaces = r#"<table:table table:name="空格"><table:table-row><table:table-cell office:value-type="string"><text:p><text:s text:c="4294967295"/></text:p></table:table-cell></table:table-row></table:table>"#;
        let e = check(spaces).unwrap_err();
        assert!(
            e.en.contains("sheet `空格`") && e.en.contains("bytes of text"),
            "{}",
            e.en
        );
        let long = format!(
            r#"<table:table table:name="长"><table:table-row table:number-rows-repeated="100000"><table:table-cell office:value-type="string"><text:p>{}</text:p></table:table-cell></table:table-row></table:table>"#,
            "棋".repeat(1000)
        );
        assert!(check(&long).unwrap_err().en.contains("bytes of text"));
    }

    #[test]
    fn row_elements_are_bounded_repeated_or_not() {
        let rows = "<table:table-row/>".repeat(1_048_577);
        let sheet = format!(r#"<table:table table:name="行">{rows}</table:table>"#);
        let e = check(&sheet).unwrap_err();
        assert!(
            e.en.contains("sheet `行`") && e.en.contains("rows"),
            "{}",
            e.en
        );
    }

    #[test]
    fn sheets_are_bounded() {
        let sheet = r#"<table:table table:name="s"><table:table-row><table:table-cell/></table:table-row></table:table>"#;
        assert!(check(&sheet.repeat(64)).is_ok());
        assert!(
            check(&sheet.repeat(65))
                .unwrap_err()
                .en
                .contains("worksheets")
        );
    }
}
