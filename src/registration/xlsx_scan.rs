//! A pass over the XML parts of a zip workbook (.xlsx, .xlsm, .ods) before the workbook
//! library opens it, counting what the library would hold in memory at once for each
//! part: shared strings (and the count it reserves room for), worksheets, merged regions,
//! cell formats, fonts, relationships, defined names. A count a part declares is checked
//! against the limit, never used.
//!
//! Owns these counts, and the row and cell numbers of each worksheet ([`check_positions`]):
//! the library keeps them in 32 bits and wraps a larger one round onto a row of the
//! table, so a number past Excel's last row or column, or a row given twice, is refused
//! here first. The cells are counted as they are read (`grid.rs`), and an .ods sheet's
//! repeated rows and columns by `ods_scan.rs`.

use super::limits::{
    At, Found, Limit, MAX_COLUMNS, MAX_ENTRIES, MAX_MERGED, MAX_ROWS, MAX_SHARED_STRINGS,
    MAX_SHEETS, given_twice, off_the_sheet,
};
use crate::i18n::Text;
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use std::collections::BTreeSet;
use std::io::{BufReader, Cursor, Read};

/// The most a kind of element may occur in one part, and the limit it counts against.
fn cap(local: &str) -> Option<(u64, Limit)> {
    Some(match local {
        "si" => (MAX_SHARED_STRINGS, Limit::SharedStrings),
        "sheet" => (MAX_SHEETS as u64, Limit::Sheets),
        "mergeCell" => (MAX_MERGED, Limit::Merged),
        // What calamine keeps one entry of each for, from styles, relationships, the
        // workbook and an .ods's automatic styles.
        "xf" | "numFmt" | "font" | "fill" | "border" | "dxf" | "cellStyle" | "Relationship"
        | "definedName" | "style" | "named-range" | "named-expression" | "table" | "tablePart" => {
            (MAX_ENTRIES, Limit::Entries)
        }
        _ => return None,
    })
}

/// Checks every XML part of the zip workbook `bytes`, and returns whether any part holds
/// a merged region (if none does, no sheet is read a second time for them). A part that
/// is not well-formed XML is counted up to the fault (the library stops there too, with
/// its own error).
pub fn scan(bytes: &[u8]) -> Result<bool, Text> {
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        return Ok(false);
    };
    let mut merged = false;
    for i in 0..archive.len() {
        let Ok(part) = archive.by_index(i) else {
            continue;
        };
        let Ok(name) = part.name().map(std::borrow::Cow::into_owned) else {
            continue;
        };
        let lower = name.to_ascii_lowercase();
        if !(lower.ends_with(".xml") || lower.ends_with(".rels")) {
            continue;
        }
        merged |= scan_part(&name, BufReader::new(part))?;
    }
    Ok(merged)
}

/// Checks one part; whether it holds a merged region.
fn scan_part(name: &str, part: impl std::io::BufRead) -> Result<bool, Text> {
    let mut xml = Reader::from_reader(part);
    let config = xml.config_mut();
    config.check_end_names = false;
    config.check_comments = false;
    let mut counts: Vec<(String, u64)> = Vec::new();
    let mut buf = Vec::with_capacity(1024);
    loop {
        buf.clear();
        let start = match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e) | Event::Empty(e)) => e,
            Ok(Event::Eof) | Err(_) => {
                return Ok(counts.iter().any(|(k, n)| k == "mergeCell" && *n > 0));
            }
            Ok(_) => continue,
        };
        let local = start.local_name();
        let local = local.as_ref();
        if local == "sst" {
            check_declared_strings(name, &start)?;
        }
        let Some((max, limit)) = cap(local) else {
            continue;
        };
        let n = match counts.iter_mut().find(|(k, _)| k == local) {
            Some((_, n)) => n,
            None => {
                counts.push((local.to_string(), 0));
                &mut counts.last_mut().expect("just pushed").1
            }
        };
        *n += 1;
        if *n > max {
            return Err(super::limits::beyond(
                limit,
                At::Part(name, local),
                Found::MoreThan,
            ));
        }
    }
}

/// calamine reserves room for the `uniqueCount` of `<sst>` before reading a string.
fn check_declared_strings(name: &str, sst: &BytesStart<'_>) -> Result<(), Text> {
    for attr in sst.attributes().flatten() {
        if attr.key.local_name().as_ref() != "uniqueCount" {
            continue;
        }
        let declared = attr.value.trim().parse::<u64>();
        if let Ok(declared) = declared
            && declared > MAX_SHARED_STRINGS
        {
            return Err(super::limits::beyond(
                Limit::SharedStrings,
                At::Part(name, "sst"),
                Found::Declared(declared),
            ));
        }
    }
    Ok(())
}

/// Calls `f` with every element of the zip part `part` (streamed; nothing if the part is
/// missing or until its XML breaks).
fn each_element(bytes: &[u8], part: &str, mut f: impl FnMut(&BytesStart<'_>)) {
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        return;
    };
    let Ok(file) = archive.by_name(part) else {
        return;
    };
    let mut xml = Reader::from_reader(BufReader::new(file));
    xml.config_mut().check_end_names = false;
    let mut buf = Vec::with_capacity(1024);
    loop {
        buf.clear();
        match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e) | Event::Empty(e)) => f(&e),
            Ok(Event::Eof) | Err(_) => return,
            Ok(_) => {}
        }
    }
}

fn attribute(e: &BytesStart<'_>, local: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == local)
        .map(|a| a.value.into_owned())
}

/// The worksheets a workbook lists, in order: each sheet's name and the zip part it is
/// read from (`None` when the relationships do not tell it).
pub fn listed_sheets(bytes: &[u8]) -> Vec<(String, Option<String>)> {
    let mut workbook = "xl/workbook.xml".to_string();
    each_element(bytes, "_rels/.rels", |e| {
        if e.local_name().as_ref() == "Relationship"
            && attribute(e, "Type").is_some_and(|t| t.ends_with("/officeDocument"))
            && let Some(target) = attribute(e, "Target")
        {
            workbook = target.trim_start_matches('/').to_string();
        }
    });
    let folder = workbook
        .rfind('/')
        .map_or("", |i| &workbook[..=i])
        .to_string();
    let file = workbook[folder.len()..].to_string();
    let mut targets: Vec<(String, String)> = Vec::new();
    each_element(bytes, &format!("{folder}_rels/{file}.rels"), |e| {
        if e.local_name().as_ref() == "Relationship"
            && let (Some(id), Some(target)) = (attribute(e, "Id"), attribute(e, "Target"))
            && targets.len() < 100_000
        {
            targets.push((id, target));
        }
    });
    let mut sheets = Vec::new();
    each_element(bytes, &workbook, |e| {
        if e.local_name().as_ref() != "sheet" || sheets.len() > MAX_SHEETS {
            return;
        }
        let target = attribute(e, "id")
            .and_then(|id| targets.iter().find(|(i, _)| *i == id))
            .map(|(_, t)| match t.strip_prefix('/') {
                Some(absolute) => absolute.to_string(),
                None => format!("{folder}{t}"),
            });
        sheets.push((attribute(e, "name").unwrap_or_default(), target));
    });
    sheets
}

/// The bytes of worksheet XML the library will read for the sheets a workbook lists: each
/// listed sheet counts its part's unpacked size, as often as it is listed (the library
/// reads a part once for its cells and once more for its merged regions, per listing);
/// a sheet whose part cannot be told counts as the largest part.
pub fn listed_sheet_bytes(bytes: &[u8]) -> u64 {
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        return 0;
    };
    let mut sizes: Vec<(String, u64)> = Vec::with_capacity(archive.len());
    for i in 0..archive.len() {
        if let Ok(part) = archive.by_index_raw(i)
            && let Ok(name) = part.name()
        {
            sizes.push((name.replace('\\', "/").to_ascii_lowercase(), part.size()));
        }
    }
    let largest = sizes.iter().map(|(_, s)| *s).max().unwrap_or(0);
    let size_of = |path: &str| {
        let path = path.replace('\\', "/").to_ascii_lowercase();
        sizes
            .iter()
            .find(|(name, _)| *name == path)
            .map_or(largest, |(_, s)| *s)
    };
    let mut total = 0u64;
    for (_, target) in listed_sheets(bytes) {
        let size = target.map_or(largest, |t| size_of(&t));
        total = total.saturating_add(size);
    }
    total
}

/// A row number or cell reference as the library reads it (column letters, then the
/// row's digits): the 1-based (row, column), column 0 when there are no letters; `Ok(None)`
/// when it is no reference at all (the library refuses it itself). Past Excel's last row
/// or column is an error, counted without wrapping however many digits it has.
fn position(sheet: &str, cell: bool, written: &[u8]) -> Result<Option<(u64, u64)>, Text> {
    let letters = written
        .iter()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    let digits = &written[letters..];
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Ok(None);
    }
    let off = || off_the_sheet(sheet, cell, &String::from_utf8_lossy(written));
    let mut col = 0u64;
    for &b in &written[..letters] {
        col = col * 26 + u64::from(b.to_ascii_uppercase() - b'A') + 1;
        if col > MAX_COLUMNS {
            return Err(off());
        }
    }
    let mut row = 0u64;
    for &b in digits {
        row = row * 10 + u64::from(b - b'0');
        if row > MAX_ROWS {
            return Err(off());
        }
    }
    Ok((row > 0).then_some((row, col)))
}

/// Checks the row and cell numbers of worksheet `sheet` (its XML in `part`) as the
/// library's cell reader will number them: a row element's `r` sets the row, each row's
/// end moves to the next, a cell's `r` sets its place and the next cell follows it. Every
/// place must be within Excel's sheet, and no row element may come twice; two cells at
/// one place are found when the cells are laid out (`grid.rs`). Returns the rows Excel
/// hides (`hidden="1"`: hidden by hand or by a filter), as it numbers them: a set, since
/// the row elements may come in any order (`r` numbers them).
pub fn check_positions(sheet: &str, part: impl std::io::BufRead) -> Result<BTreeSet<usize>, Text> {
    let mut xml = Reader::from_reader(part);
    let config = xml.config_mut();
    config.check_end_names = false;
    config.check_comments = false;
    // One bit per row of the sheet: 128 KB.
    let mut seen = vec![0u64; (MAX_ROWS as usize).div_ceil(64)];
    let (mut in_data, mut in_cell) = (false, false);
    // 0-based, as the library counts.
    let (mut row, mut col) = (0u64, 0u64);
    let mut buf = Vec::with_capacity(1024);
    let mut hidden = BTreeSet::new();
    loop {
        buf.clear();
        let (start, e) = match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => (true, e),
            Ok(Event::Empty(e)) => (false, e),
            Ok(Event::End(e)) => {
                match e.local_name().into_inner() {
                    "row" if in_data && !in_cell => (row, col) = (row + 1, 0),
                    "c" => in_cell = false,
                    "sheetData" => return Ok(hidden),
                    _ => {}
                }
                continue;
            }
            Ok(Event::Eof) | Err(_) => return Ok(hidden),
            Ok(_) => continue,
        };
        let r = || {
            e.attributes()
                .flatten()
                .find(|a| a.key.into_inner() == "r")
                .map(|a| a.value.into_owned())
        };
        match e.local_name().into_inner() {
            "sheetData" => in_data = start,
            "row" if in_data && !in_cell => {
                let at = match r() {
                    Some(r) => position(sheet, false, r.as_bytes())?.map(|(r, _)| r - 1),
                    None => Some(row),
                };
                // An empty `<row/>` is skipped by the library.
                if !start {
                    continue;
                }
                let Some(at) = at else { continue };
                row = at;
                if row >= MAX_ROWS {
                    return Err(off_the_sheet(sheet, false, &(row + 1).to_string()));
                }
                let (word, bit) = ((row / 64) as usize, 1u64 << (row % 64));
                if seen[word] & bit != 0 {
                    let n = super::limits::grouped(row + 1);
                    return Err(given_twice(
                        sheet,
                        &format!("第 {n} 行"),
                        &format!("row {n}"),
                    ));
                }
                seen[word] |= bit;
                if e.attributes().flatten().any(|a| {
                    a.key.local_name().into_inner() == "hidden" && matches!(&*a.value, "1" | "true")
                }) {
                    hidden.insert(row as usize + 1);
                }
            }
            "c" if in_data && !in_cell => {
                let at = match r() {
                    Some(r) => position(sheet, true, r.as_bytes())?,
                    None => Some((row + 1, col + 1)),
                };
                // An empty `<c/>` holds nothing and is skipped by the library.
                if !start {
                    continue;
                }
                in_cell = true;
                if let Some((r, c)) = at {
                    if r > MAX_ROWS || c > MAX_COLUMNS {
                        let written = format!(
                            "{}{r}",
                            super::xlsx::column_letters(c.saturating_sub(1) as usize)
                        );
                        return Err(off_the_sheet(sheet, true, &written));
                    }
                    if c > 0 {
                        col = c - 1;
                    }
                }
                col += 1;
            }
            _ => {}
        }
    }
}

/// Checks the row and cell numbers of every worksheet an .xlsx lists
/// ([`check_positions`]), each part once. Returns the rows each sheet hides, by the
/// sheet's name (sheets that hide none left out).
pub fn check_listed_positions(bytes: &[u8]) -> Result<super::ods_scan::HiddenRows, Text> {
    let mut hidden = super::ods_scan::HiddenRows::new();
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        return Ok(hidden);
    };
    let mut done: Vec<String> = Vec::new();
    for (name, target) in listed_sheets(bytes) {
        let Some(target) = target else { continue };
        if done.contains(&target) {
            continue;
        }
        if let Ok(part) = archive.by_name(&target) {
            let rows = check_positions(&name, BufReader::new(part))?;
            if !rows.is_empty() {
                hidden.insert(name, rows);
            }
        }
        done.push(target);
    }
    Ok(hidden)
}

/// Reads at most `max` bytes of a zip part (for small parts such as `mimetype`).
pub fn read_small(bytes: &[u8], part: &str, max: u64) -> Option<Vec<u8>> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).ok()?;
    let file = archive.by_name(part).ok()?;
    let mut out = Vec::new();
    file.take(max).read_to_end(&mut out).ok()?;
    Some(out)
}

/// The most worksheet XML an .xlsx may give the library to read, all listed sheets
/// together (see [`listed_sheet_bytes`]): a 100,000-player sheet is under 100 MB.
pub const MAX_SHEET_XML_BYTES: u64 = 512 * 1024 * 1024;

/// Refuses an .xlsx whose listed sheets come to more XML than [`MAX_SHEET_XML_BYTES`].
pub fn check_listed_sheets(bytes: &[u8]) -> Result<(), Text> {
    let total = listed_sheet_bytes(bytes);
    if total <= MAX_SHEET_XML_BYTES {
        return Ok(());
    }
    let (mb, max) = (total / (1024 * 1024), MAX_SHEET_XML_BYTES / (1024 * 1024));
    Err(Text::new(
        format!(
            "工作簿列出的工作表共有 {mb} MB 的 XML 要读（同一工作表列出几次算几次），超过上限 {max} MB，未读取；请删去多余的工作表，或用 Excel 另存为 .xlsx 后重试"
        ),
        format!(
            "the sheets the workbook lists come to {mb} MB of XML to read (a sheet listed twice counts twice), more than the limit of {max} MB, so it was not read; delete the sheets that are not needed, or save it from Excel as .xlsx, and try again"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(xml: &str) -> Result<bool, Text> {
        scan_part("xl/sharedStrings.xml", xml.as_bytes())
    }

    #[test]
    fn declared_and_counted_entries_are_bounded() {
        assert!(part(r#"<sst count="3" uniqueCount="2"><si><t>a</t></si><si/></sst>"#).is_ok());
        let e = part(r#"<sst uniqueCount="4294967295"><si><t>a</t></si></sst>"#).unwrap_err();
        assert!(
            e.en.contains("declares 4,294,967,295 shared strings"),
            "{}",
            e.en
        );
        assert!(e.en.contains("xl/sharedStrings.xml"), "{}", e.en);
        let many = format!(
            "<styleSheet><cellXfs>{}</cellXfs></styleSheet>",
            "<xf/>".repeat(100_001)
        );
        let e = part(&many).unwrap_err();
        assert!(
            e.en.contains("(`xf`)") && e.en.contains("100,000"),
            "{}",
            e.en
        );
        let sheets = format!(
            "<workbook><sheets>{}</sheets></workbook>",
            "<x:sheet/>".repeat(65)
        );
        assert!(part(&sheets).unwrap_err().en.contains("worksheets"));
        // Broken XML: counted up to the fault.
        assert!(part("<sst><si><t>a</t></si><<<").is_ok());
        assert_eq!(
            part(r#"<worksheet><mergeCells><mergeCell ref="A1:A2"/></mergeCells></worksheet>"#),
            Ok(true)
        );
        assert_eq!(part("<worksheet><sheetData/></worksheet>"), Ok(false));
    }

    fn positions(rows: &str) -> Result<(), Text> {
        let xml = format!("<worksheet><sheetData>{rows}</sheetData></worksheet>");
        check_positions("报名表", xml.as_bytes()).map(|_| ())
    }

    /// The rows Excel hides (by hand or by a filter) are found, as Excel numbers them.
    #[test]
    fn hidden_rows_are_found() {
        let xml = r#"<worksheet><sheetData><row r="1"><c><v>1</v></c></row><row r="3" hidden="1"><c><v>2</v></c></row><row hidden="true"><c><v>3</v></c></row><row r="9" hidden="0"><c><v>4</v></c></row></sheetData></worksheet>"#;
        assert_eq!(
            check_positions("报名表", xml.as_bytes()),
            Ok(BTreeSet::from([3, 4]))
        );
    }

    #[test]
    fn row_and_cell_numbers_past_excel_are_refused_never_wrapped() {
        let sound = r#"<row r="1"><c r="A1"><v>1</v></c><c><v>2</v></c></row><row><c><v>3</v></c></row><row r="1048576"><c r="XFD1048576"><v>4</v></c></row>"#;
        assert_eq!(positions(sound), Ok(()));
        // Old code: 2^32 + 2 and 2^64 + 2 wrapped round to row 2, over a player's row.
        for (rows, shown) in [
            (
                r#"<row r="2"/><row r="4294967298"><c><v>1</v></c></row>"#,
                "row number `4,294,967,298`",
            ),
            (
                r#"<row r="18446744073709551618"><c><v>1</v></c></row>"#,
                "row number `184467…`",
            ),
            (
                r#"<row><c r="A4294967298"><v>1</v></c></row>"#,
                "cell `A4,294,967,298`",
            ),
            (
                r#"<row r="1048577"><c><v>1</v></c></row>"#,
                "row number `1,048,577`",
            ),
            (
                r#"<row r="2"><c r="FXSHRXX2"><v>1</v></c></row>"#,
                "cell `FXSHRXX2`",
            ),
            (
                r#"<row r="2"><c r="XFE2"><v>1</v></c></row>"#,
                "cell `XFE2`",
            ),
        ] {
            let e = positions(rows).unwrap_err();
            assert!(
                e.en.contains("sheet `报名表`") && e.en.contains(shown),
                "{shown}: {}",
                e.en
            );
            assert!(e.en.contains("1,048,576 rows"), "{}", e.en);
        }
        // Counted, not written: the row after 1,048,576 and the cell after XFD.
        let e = positions(r#"<row r="1048576"></row><row><c><v>1</v></c></row>"#).unwrap_err();
        assert!(e.en.contains("`1,048,577`"), "{}", e.en);
        let e =
            positions(r#"<row r="1"><c r="XFD1"><v>1</v></c><c><v>2</v></c></row>"#).unwrap_err();
        assert!(e.en.contains("cell `XFE1`"), "{}", e.en);
    }

    #[test]
    fn a_row_given_twice_is_refused_naming_it() {
        let e = positions(r#"<row r="1"><c><v>1</v></c></row><row r="2"><c><v>1</v></c></row><row r="2"><c><v>2</v></c></row>"#).unwrap_err();
        assert!(
            e.en.contains("sheet `报名表`: row 2 is given twice"),
            "{}",
            e.en
        );
        assert!(e.zh.contains("第 2 行出现了两次"), "{}", e.zh);
        // Numbered by counting: the row after row 1 is row 2.
        let e = positions(r#"<row r="1"></row><row></row><row r="2"></row>"#).unwrap_err();
        assert!(e.en.contains("row 2 is given twice"), "{}", e.en);
        // Rows out of order are read as numbered.
        assert_eq!(positions(r#"<row r="3"></row><row r="2"></row>"#), Ok(()));
    }
}
