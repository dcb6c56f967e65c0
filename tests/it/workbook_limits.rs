//! Workbooks that crashed `import` or exhausted memory (issue 42 §2), each built here byte
//! by byte (an .xlsx or .ods as a zip of hand-written XML, an .xls as BIFF8 records in a
//! hand-built compound file), and imported by the real binary with `--dry-run` under a
//! 1 GB address-space limit and a 20 s clock: each must be refused with exit code 3 and
//! a message naming the sheet or part and the limit, never a panic (101), an abort or a
//! kill. Beside them, the sound workbooks of the same shapes import.

use crate::common::{BIN, init, root};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `ulimit -v` for each run, in KiB: an allocation past it fails the run.
const ADDRESS_SPACE_KIB: u64 = 1024 * 1024;
const TIME_LIMIT: Duration = Duration::from_secs(20);

/// What a bounded run of the binary did.
struct Run {
    code: Option<i32>,
    stderr: String,
    elapsed: Duration,
}

/// `qiwang import --dry-run FILE` on a new CXA 2011 event, bounded in memory and time.
/// With `QIWANG_KEEP_WORKBOOKS=DIR` set, each input is also written to DIR, to measure
/// or report by hand.
fn import(name: &str, bytes: &[u8]) -> Run {
    if let Some(keep) = std::env::var_os("QIWANG_KEEP_WORKBOOKS") {
        std::fs::write(Path::new(&keep).join(name), bytes).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let event = dir.path().join("ev");
    init(&event, &root("rules/cxa-2011.toml"));
    let file = dir.path().join(name);
    std::fs::write(&file, bytes).unwrap();
    bounded(&event, &file)
}

fn bounded(event: &Path, file: &Path) -> Run {
    let script = format!(
        "ulimit -v {ADDRESS_SPACE_KIB}; exec \"$0\" --lang en --event \"$1\" import --dry-run \"$2\""
    );
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(BIN)
        .arg(event)
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{}: still running after {TIME_LIMIT:?}", file.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        stderr: reader.join().unwrap(),
        elapsed: started.elapsed(),
    }
}

/// Asserts the import was refused as invalid input, naming each of `wants`.
fn refused(name: &str, bytes: &[u8], wants: &[&str]) {
    let run = import(name, bytes);
    println!(
        "{name} ({} bytes): {:?} in {:?}",
        bytes.len(),
        run.code,
        run.elapsed
    );
    assert_eq!(run.code, Some(3), "{name}: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
    for want in wants {
        assert!(
            run.stderr.contains(want),
            "{name}: no `{want}` in {}",
            run.stderr
        );
    }
}

fn imported(name: &str, bytes: &[u8], players: usize) {
    let run = import(name, bytes);
    assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
    let _ = players;
}

// ------------------------------------------------------------------ zip workbooks

use crate::common::zipped as zip;

const MAIN: &str = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
const DOC: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// An .xlsx of one sheet `报名表` whose `<sheetData>` is `rows`, with `shared` as
/// `xl/sharedStrings.xml` if given.
fn xlsx(dimension: &str, rows: &str, shared: Option<&str>) -> Vec<u8> {
    xlsx_listing(dimension, rows, shared, 1)
}

/// [`xlsx`] with the workbook listing its one sheet part `listings` times.
fn xlsx_listing(dimension: &str, rows: &str, shared: Option<&str>, listings: usize) -> Vec<u8> {
    let types = r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>"#;
    let package = format!(
        r#"<Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
    );
    let sheets: String = (0..listings)
        .map(|i| {
            let name = if i == 0 {
                "报名表".to_string()
            } else {
                format!("副本{i}")
            };
            format!(r#"<sheet name="{name}" sheetId="{}" r:id="rId1"/>"#, i + 1)
        })
        .collect();
    let workbook =
        format!(r#"<workbook xmlns="{MAIN}" xmlns:r="{DOC}"><sheets>{sheets}</sheets></workbook>"#);
    let workbook_rels = format!(
        r#"<Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#
    );
    let sheet = format!(
        r#"<worksheet xmlns="{MAIN}"><dimension ref="{dimension}"/><sheetData>{rows}</sheetData></worksheet>"#
    );
    let mut parts: Vec<(&str, &[u8])> = vec![
        ("[Content_Types].xml", types.as_bytes()),
        ("_rels/.rels", package.as_bytes()),
        ("xl/workbook.xml", workbook.as_bytes()),
        ("xl/_rels/workbook.xml.rels", workbook_rels.as_bytes()),
        ("xl/worksheets/sheet1.xml", sheet.as_bytes()),
    ];
    if let Some(shared) = shared {
        parts.push(("xl/sharedStrings.xml", shared.as_bytes()));
    }
    zip(&parts)
}

/// An inline-string cell.
fn c(at: &str, text: &str) -> String {
    format!(r#"<c r="{at}" t="inlineStr"><is><t>{text}</t></is></c>"#)
}

/// The header and three players of a registration table, rows 1–4, as .xlsx rows.
fn table_rows() -> String {
    let mut rows = format!(
        r#"<row r="1">{}{}{}</row>"#,
        c("A1", "姓名"),
        c("B1", "性别"),
        c("C1", "单位")
    );
    for (i, name) in ["张一", "李二", "王三"].iter().enumerate() {
        let r = i + 2;
        rows += &format!(
            r#"<row r="{r}">{}{}{}</row>"#,
            c(&format!("A{r}"), name),
            c(&format!("B{r}"), "男"),
            c(&format!("C{r}"), "婺城区棋协")
        );
    }
    rows
}

#[test]
fn an_xlsx_with_a_row_and_column_past_any_number_is_refused_not_a_panic() {
    // Old code: "capacity overflow", exit 101.
    let rows = format!(
        r#"{}<row r="4294967295">{}</row>"#,
        table_rows(),
        c("ZZZZZZZZ99999999999", "x")
    );
    refused("overflow.xlsx", &xlsx("A1", &rows, None), &["报名表"]);
}

#[test]
fn a_far_cell_costs_nothing() {
    // What `ws['XFD1048576'] = 'x'` writes (openpyxl) below a table: the old reader laid
    // the sheet out from A1 to XFD1048576, 512 GB.
    let rows = format!(
        r#"{}<row r="1048576">{}</row>"#,
        table_rows(),
        c("XFD1048576", "x")
    );
    let run = import("far.xlsx", &xlsx("A1:XFD1048576", &rows, None));
    assert_ne!(run.code, Some(101), "{}", run.stderr);
    assert!(
        matches!(run.code, Some(0 | 3)),
        "{:?}: {}",
        run.code,
        run.stderr
    );
    assert!(
        run.stderr.is_empty() || run.stderr.contains("1048576"),
        "{}",
        run.stderr
    );
    // A note far right of a player's row: that row alone reaches column XFD.
    let note = table_rows().replacen("</row>", &format!("{}</row>", c("XFD3", "备注")), 3);
    let run = import("far-note.xlsx", &xlsx("A1:XFD4", &note, None));
    assert!(
        matches!(run.code, Some(0 | 3)),
        "{:?}: {}",
        run.code,
        run.stderr
    );
    // The lone cell of openpyxl's example: no table, refused as such, in no time.
    let lone = format!(r#"<row r="1048576">{}</row>"#, c("XFD1048576", "x"));
    refused(
        "lone.xlsx",
        &xlsx("A1:XFD1048576", &lone, None),
        &["lone.xlsx"],
    );
}

#[test]
fn a_declared_shared_string_count_is_never_reserved() {
    // Old code: 103 GB reserved for 4,294,967,295 strings.
    let shared = format!(
        r#"<sst xmlns="{MAIN}" count="4294967295" uniqueCount="4294967295"><si><t>张一</t></si></sst>"#
    );
    let rows = r#"<row r="1"><c r="A1" t="s"><v>0</v></c></row>"#;
    refused(
        "sst.xlsx",
        &xlsx("A1", rows, Some(&shared)),
        &[
            "xl/sharedStrings.xml",
            "4,294,967,295 shared strings",
            "2,000,000",
        ],
    );
}

#[test]
fn a_shared_string_used_by_many_cells_counts_its_text_for_each() {
    let long = "棋".repeat(30_000);
    let shared = format!(r#"<sst xmlns="{MAIN}" uniqueCount="1"><si><t>{long}</t></si></sst>"#);
    // 20,000 cells of one 90 KB text: 1.8 GB once each cell holds its copy (the old
    // reader ran out of memory).
    let mut rows = String::new();
    for r in 1..=20_000 {
        rows += &format!(r#"<row r="{r}"><c r="A{r}" t="s"><v>0</v></c></row>"#);
    }
    refused(
        "text.xlsx",
        &xlsx("A1", &rows, Some(&shared)),
        &["报名表", "bytes of text"],
    );
}

#[test]
fn one_sheet_part_listed_64_times_is_refused_before_it_is_read_64_times() {
    // 9 MB of empty cells, listed as 64 sheets: the old reader parsed 1.2 GB of XML.
    let rows = format!(
        r#"{}<row r="5">{}</row>"#,
        table_rows(),
        "<c/>".repeat(2_300_000)
    );
    let bytes = xlsx_listing("A1:C5", &rows, None, 64);
    refused("listed.xlsx", &bytes, &["MB of XML", "512 MB"]);
}

#[test]
fn a_sound_xlsx_of_these_shapes_imports() {
    imported("sound.xlsx", &xlsx("A1:C4", &table_rows(), None), 3);
}

// ------------------------------------------------------------------ OpenDocument

fn ods(tables: &str) -> Vec<u8> {
    let content = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body></office:document-content>"#
    );
    let manifest = r#"<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#;
    zip(&[
        (
            "mimetype",
            b"application/vnd.oasis.opendocument.spreadsheet",
        ),
        ("META-INF/manifest.xml", manifest.as_bytes()),
        ("content.xml", content.as_bytes()),
    ])
}

fn ods_cell(text: &str) -> String {
    format!(
        r#"<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>"#
    )
}

/// The table of [`table_rows`] as an .ods sheet, ended the way LibreOffice ends every
/// sheet: empty cells and rows repeated to the sheet's edge.
fn ods_table(name: &str) -> String {
    let mut rows = format!(
        r#"<table:table-row>{}{}{}<table:table-cell table:number-columns-repeated="16381"/></table:table-row>"#,
        ods_cell("姓名"),
        ods_cell("性别"),
        ods_cell("单位")
    );
    for name in ["张一", "李二", "王三"] {
        rows += &format!(
            r#"<table:table-row>{}{}{}<table:table-cell table:number-columns-repeated="16381"/></table:table-row>"#,
            ods_cell(name),
            ods_cell("男"),
            ods_cell("婺城区棋协")
        );
    }
    format!(
        r#"<table:table table:name="{name}">{rows}<table:table-row table:number-rows-repeated="1048572"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>"#
    )
}

#[test]
fn an_ods_of_repeated_rows_is_refused_before_it_is_laid_out() {
    // Old code: 6 sheets of 1,048,575 repeated rows, out of memory.
    let sheet = |i: usize| {
        format!(
            r#"<table:table table:name="表{i}"><table:table-row table:number-rows-repeated="1048575">{}</table:table-row></table:table>"#,
            ods_cell("x")
        )
    };
    let tables: String = (1..=6).map(sheet).collect();
    refused("rows.ods", &ods(&tables), &["sheet `表", "1,000,000 cells"]);
    // Old code: 1.5 GB from one row of a cell repeated 16,384 times, repeated 10,000 times.
    let wide = r#"<table:table table:name="宽"><table:table-row table:number-rows-repeated="10000"><table:table-cell office:value-type="float" office:value="1" table:number-columns-repeated="16384"/></table:table-row></table:table>"#;
    refused(
        "wide.ods",
        &ods(wide),
        &["sheet `宽`", "more than the limit"],
    );
    // A paragraph of 4,294,967,295 spaces.
    let spaces = r#"<table:table table:name="空格"><table:table-row><table:table-cell office:value-type="string"><text:p><text:s text:c="4294967295"/></text:p></table:table-cell></table:table-row></table:table>"#;
    refused(
        "spaces.ods",
        &ods(spaces),
        &["sheet `空格`", "bytes of text"],
    );
}

#[test]
fn a_sound_ods_ending_in_repeated_empty_rows_imports() {
    imported("sound.ods", &ods(&ods_table("报名表")), 3);
}

// ------------------------------------------------------------------ BIFF8 (.xls)

fn record(typ: u16, data: &[u8]) -> Vec<u8> {
    let mut r = typ.to_le_bytes().to_vec();
    r.extend_from_slice(&(data.len() as u16).to_le_bytes());
    r.extend_from_slice(data);
    r
}

fn bof(sheet: bool) -> Vec<u8> {
    let mut d = vec![0x00, 0x06];
    d.extend_from_slice(&(if sheet { 0x0010u16 } else { 0x0005 }).to_le_bytes());
    d.extend_from_slice(&[0; 12]);
    record(0x0809, &d)
}

/// A BIFF8 string: character count, flags (UTF-16), characters.
fn biff_string(s: &str) -> Vec<u8> {
    let units: Vec<u16> = s.encode_utf16().collect();
    let mut d = (units.len() as u16).to_le_bytes().to_vec();
    d.push(1);
    for u in units {
        d.extend_from_slice(&u.to_le_bytes());
    }
    d
}

/// A LABELSST cell.
fn label(row: u16, col: u16, sst: u32) -> Vec<u8> {
    let mut d = row.to_le_bytes().to_vec();
    d.extend_from_slice(&col.to_le_bytes());
    d.extend_from_slice(&[0, 0]);
    d.extend_from_slice(&sst.to_le_bytes());
    record(0x00FD, &d)
}

fn number(row: u16, col: u16, value: f64) -> Vec<u8> {
    let mut d = row.to_le_bytes().to_vec();
    d.extend_from_slice(&col.to_le_bytes());
    d.extend_from_slice(&[0, 0]);
    d.extend_from_slice(&value.to_le_bytes());
    record(0x0203, &d)
}

/// A DIMENSIONS record (BIFF8: 32-bit rows).
fn dimensions(first_row: u32, last_row: u32, first_col: u16, last_col: u16) -> Vec<u8> {
    let mut d = first_row.to_le_bytes().to_vec();
    d.extend_from_slice(&last_row.to_le_bytes());
    d.extend_from_slice(&first_col.to_le_bytes());
    d.extend_from_slice(&last_col.to_le_bytes());
    d.extend_from_slice(&[0, 0]);
    record(0x0200, &d)
}

/// The words of the registration table: header and three players.
const WORDS: [&str; 7] = ["姓名", "性别", "单位", "张一", "李二", "王三", "男"];

fn sst(words: &[&str]) -> Vec<u8> {
    let mut d = (words.len() as u32).to_le_bytes().to_vec();
    d.extend_from_slice(&(words.len() as u32).to_le_bytes());
    for w in words {
        d.extend(biff_string(w));
    }
    record(0x00FC, &d)
}

/// The cells of the registration table (the club in column C is the header word `单位`
/// for brevity).
fn table_cells() -> Vec<u8> {
    let mut cells = Vec::new();
    for col in 0..3 {
        cells.extend(label(0, col, u32::from(col)));
    }
    for row in 1..4u16 {
        cells.extend(label(row, 0, u32::from(row) + 2));
        cells.extend(label(row, 1, 6));
        cells.extend(label(row, 2, 2));
    }
    cells
}

/// A workbook stream: globals (`globals_extra` after the SST), then one sheet `报名表`
/// whose records are `sheet`; `offset` overrides where the BOUNDSHEET says it starts.
fn biff(globals_extra: &[u8], sheet: &[u8], offset: Option<u32>) -> Vec<u8> {
    let boundsheet = |pos: u32| {
        let mut d = pos.to_le_bytes().to_vec();
        d.extend_from_slice(&[0, 0]);
        let name: Vec<u16> = "报名表".encode_utf16().collect();
        d.push(name.len() as u8);
        d.push(1);
        for u in name {
            d.extend_from_slice(&u.to_le_bytes());
        }
        record(0x0085, &d)
    };
    let head = |pos| {
        let mut g = bof(false);
        g.extend(boundsheet(pos));
        g.extend(sst(&WORDS));
        g.extend_from_slice(globals_extra);
        g.extend(record(0x000A, &[]));
        g
    };
    let pos = head(0).len() as u32;
    let mut stream = head(offset.unwrap_or(pos));
    stream.extend(bof(true));
    stream.extend_from_slice(sheet);
    stream.extend(record(0x000A, &[]));
    // Past the small-stream cutoff, so the stream lives in ordinary sectors.
    while stream.len() < 4096 {
        stream.extend(record(0x0000, &[]));
    }
    stream
}

/// An OLE compound file (512-byte sectors) holding `stream` as `Workbook`. `looped`:
/// the stream's last sector leads back to its first and the directory claims 4 GB.
fn cfb(stream: &[u8], looped: bool) -> Vec<u8> {
    const END: u32 = 0xFFFF_FFFE;
    let sectors = stream.len().div_ceil(512);
    assert!(sectors + 2 <= 128, "one FAT sector");
    let mut out = vec![0u8; 512];
    out[..8].copy_from_slice(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1");
    out[24..26].copy_from_slice(&0x3Eu16.to_le_bytes());
    out[26..28].copy_from_slice(&3u16.to_le_bytes());
    out[28..30].copy_from_slice(&0xFFFEu16.to_le_bytes());
    out[30..32].copy_from_slice(&9u16.to_le_bytes());
    out[32..34].copy_from_slice(&6u16.to_le_bytes());
    out[44..48].copy_from_slice(&1u32.to_le_bytes()); // FAT sectors
    out[48..52].copy_from_slice(&1u32.to_le_bytes()); // directory
    out[56..60].copy_from_slice(&4096u32.to_le_bytes());
    out[60..64].copy_from_slice(&END.to_le_bytes()); // no mini FAT
    out[68..72].copy_from_slice(&END.to_le_bytes()); // no DIFAT sectors
    for i in 0..109 {
        let id: u32 = if i == 0 { 0 } else { 0xFFFF_FFFF };
        out[76 + 4 * i..80 + 4 * i].copy_from_slice(&id.to_le_bytes());
    }
    let mut fat = vec![0xFFFF_FFFFu32; 128];
    fat[0] = 0xFFFF_FFFD;
    fat[1] = END;
    for s in 0..sectors {
        fat[2 + s] = if s + 1 < sectors { 3 + s as u32 } else { END };
    }
    if looped {
        fat[1 + sectors] = 2;
    }
    for id in fat {
        out.extend_from_slice(&id.to_le_bytes());
    }
    let entry = |name: &str, typ: u8, start: u32, len: u32| {
        let mut e = vec![0u8; 128];
        let units: Vec<u16> = name.encode_utf16().collect();
        for (i, u) in units.iter().enumerate() {
            e[2 * i..2 * i + 2].copy_from_slice(&u.to_le_bytes());
        }
        e[64..66].copy_from_slice(&((units.len() as u16 + 1) * 2).to_le_bytes());
        e[66] = typ;
        e[68..80].copy_from_slice(&[0xFF; 12]);
        if typ == 5 {
            e[76..80].copy_from_slice(&1u32.to_le_bytes());
        }
        e[116..120].copy_from_slice(&start.to_le_bytes());
        e[120..124].copy_from_slice(&len.to_le_bytes());
        e
    };
    out.extend(entry("Root Entry", 5, END, 0));
    let len = if looped {
        u32::MAX
    } else {
        stream.len() as u32
    };
    out.extend(entry("Workbook", 2, 2, len));
    out.extend(vec![0u8; 256]);
    out.extend_from_slice(stream);
    out.resize(512 * (2 + sectors + 1), 0);
    out
}

fn sound_xls() -> Vec<u8> {
    cfb(&biff(&[], &table_cells(), None), false)
}

#[test]
fn a_sound_xls_of_these_shapes_imports() {
    imported("sound.xls", &sound_xls(), 3);
}

#[test]
fn an_xls_sheet_offset_past_the_stream_is_refused_not_a_panic() {
    // Old code: a panic inside calamine (slice index), exit 101.
    let bytes = cfb(&biff(&[], &table_cells(), Some(0x7FFF_FFFF)), false);
    refused(
        "offset.xls",
        &bytes,
        &["sheet `报名表`", "2,147,483,647", "damaged"],
    );
}

#[test]
fn an_xls_declared_dimension_is_never_reserved() {
    // Old code: room reserved for 4,294,967,295 rows, out of memory.
    let mut sheet = dimensions(0, 0xFFFF_FFFF, 0, 3);
    sheet.extend(table_cells());
    let bytes = cfb(&biff(&[], &sheet, None), false);
    refused(
        "dimensions.xls",
        &bytes,
        &["sheet `报名表`", "declares", "2,000,000"],
    );
}

#[test]
fn an_xls_of_two_far_cells_is_refused_before_it_is_laid_out() {
    // Old code: 1.57 GB for a rectangle from A1 to IV65536 holding two numbers.
    let mut sheet = number(0, 0, 1.0);
    sheet.extend(number(65_535, 255, 2.0));
    let bytes = cfb(&biff(&[], &sheet, None), false);
    refused("far.xls", &bytes, &["sheet `报名表`", "1,000,000 cells"]);
}

#[test]
fn an_xls_whose_stream_loops_is_refused() {
    // A CONTINUE of 8 KB after the SST, in a container whose sector chain leads back to
    // its start and claims 4 GB: the old reader followed it round until memory ran out.
    let cont = record(0x003C, &vec![0u8; 7_998]);
    let bytes = cfb(&biff(&cont, &table_cells(), None), true);
    refused("loop.xls", &bytes, &["damaged", "loops"]);
    // The same CONTINUE in a sound container: read (its 2,666 empty strings are within
    // the limits), and the table imports.
    imported(
        "continue.xls",
        &cfb(&biff(&cont, &table_cells(), None), false),
        3,
    );
}

#[test]
fn a_panic_inside_the_xls_reader_is_an_error() {
    // A MERGEDCELLS record claiming 10 regions and holding none: calamine reads past its
    // end (a panic inside the library), which must reach the user as a refusal.
    let mut sheet = table_cells();
    sheet.extend(record(0x00E5, &10u16.to_le_bytes()));
    let bytes = cfb(&biff(&[], &sheet, None), false);
    refused("merged.xls", &bytes, &["workbook library failed"]);
}

#[test]
fn many_sheets_are_refused_by_count() {
    let mut globals = Vec::new();
    for _ in 0..64 {
        let mut d = 0u32.to_le_bytes().to_vec();
        d.extend_from_slice(&[0, 0, 1, 0, b'x']);
        globals.extend(record(0x0085, &d));
    }
    let bytes = cfb(&biff(&globals, &table_cells(), None), false);
    refused("sheets.xls", &bytes, &["64 worksheets"]);
}

// ------------------------------------------------------------------ wrong rows, places

/// The header of the Jinhua example sheet, and a row of `1` in each of its cells.
const JINHUA_HEADER: [&str; 10] = [
    "序号",
    "姓名",
    "性别",
    "单位",
    "组别",
    "出生日期",
    "身份证号",
    "年级",
    "残疾",
    "电话",
];

#[test]
fn an_ods_of_190000_wrong_rows_is_refused_by_the_maximum_in_a_short_message() {
    // Old code: 908 bytes that take 1.1 GB (one located error per wrong cell, and rows
    // of digits never counted toward the maximum): killed by the address-space limit.
    let header: String = JINHUA_HEADER.iter().map(|h| ods_cell(h)).collect();
    let ones = ods_cell("1").repeat(10);
    let table = format!(
        r#"<table:table table:name="报名表"><table:table-row>{header}</table:table-row><table:table-row table:number-rows-repeated="190000">{ones}</table:table-row></table:table>"#
    );
    let run = import("wrong-rows.ods", &ods(&table));
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    // 1,900,000 cells: refused before the workbook library lays them out (its rectangle
    // took 337 MB), in a short message.
    assert!(run.stderr.contains("1,000,000 cells"), "{}", run.stderr);
    assert!(run.stderr.len() < 4_000, "{} bytes", run.stderr.len());
}

#[test]
fn an_xlsx_of_wrong_rows_shows_the_first_100_errors_and_stops() {
    // Old code: 4 errors a row, 12,000 lines of them.
    let header: String = JINHUA_HEADER
        .iter()
        .enumerate()
        .map(|(i, h)| c(&format!("{}1", (b'A' + i as u8) as char), h))
        .collect();
    let mut rows = format!(r#"<row r="1">{header}</row>"#);
    for r in 2..3_002 {
        let cells: String = (0..10)
            .map(|i| c(&format!("{}{r}", (b'A' + i as u8) as char), "1"))
            .collect();
        rows += &format!(r#"<row r="{r}">{cells}</row>"#);
    }
    let run = import("wrong-rows.xlsx", &xlsx("A1:J3001", &rows, None));
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    let located = run.stderr.lines().filter(|l| l.contains("报名表!")).count();
    assert_eq!(located, 100, "{}", run.stderr);
    assert!(run.stderr.contains("reading stopped at"), "{}", run.stderr);
    assert!(run.stderr.len() < 40_000, "{} bytes", run.stderr.len());
}

/// The header and 于一鸣 in row 2, then `tail` (rows or cells of a second player).
fn two_players(tail: &str) -> Vec<u8> {
    let rows = format!(
        r#"<row r="1">{}{}</row><row r="2">{}{}</row>{tail}"#,
        c("A1", "姓名"),
        c("B1", "性别"),
        c("A2", "于一鸣"),
        c("B2", "男")
    );
    xlsx("A1", &rows, None)
}

/// Two inline cells without a reference, placed by the row they are in.
fn unplaced(name: &str) -> String {
    format!(r#"<c t="inlineStr"><is><t>{name}</t></is></c><c t="inlineStr"><is><t>男</t></is></c>"#)
}

#[test]
fn a_row_number_past_excel_is_refused_never_wrapped_onto_a_player() {
    // Old code: row 4,294,967,298 wrapped to row 2, and 于一鸣 was replaced, exit 0.
    let evil = unplaced("EVIL");
    for (tail, shown) in [
        (
            format!(r#"<row r="4294967298">{evil}</row>"#),
            "`4,294,967,298`",
        ),
        (
            format!(r#"<row r="18446744073709551618">{evil}</row>"#),
            "`184467…`",
        ),
        (
            format!(
                r#"<row>{}{}</row>"#,
                c("A4294967298", "EVIL"),
                c("B4294967298", "男")
            ),
            "`A4,294,967,298`",
        ),
        (
            format!(r#"<row r="3">{}</row>"#, c("FXSHRXX3", "EVIL")),
            "`FXSHRXX3`",
        ),
    ] {
        refused(
            "wrap.xlsx",
            &two_players(&tail),
            &["sheet `报名表`", shown, "1,048,576 rows"],
        );
    }
}

#[test]
fn a_row_or_cell_given_twice_is_refused_naming_it() {
    // Old code: one of the two players was kept, silently.
    let twice = format!(r#"<row r="2">{}</row>"#, unplaced("EVIL"));
    refused(
        "row-twice.xlsx",
        &two_players(&twice),
        &["sheet `报名表`", "row 2 is given twice"],
    );
    let cell = format!(r#"<row r="3">{}{}</row>"#, c("A3", "甲"), c("A3", "乙"));
    refused(
        "cell-twice.xlsx",
        &two_players(&cell),
        &["sheet `报名表`", "cell `A3` is given twice"],
    );
}
