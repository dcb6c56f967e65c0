//! What a registration sheet could slip past the import or into a public output: a 姓名
//! in a CSV that is a number, a date or TRUE (refused as the same workbook cell is), an
//! ID or phone number in the 单位 column (warned about and masked, since the unit is
//! printed on every public page) or in a 姓名 (refused), the hidden rows of a workbook
//! (.xlsx, .ods or .xls: said, naming them), and two part counts written in one cell
//! (named as parts, not read as a total).

use crate::common::{Run, p, root, zipped};
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// A CXA event `tmp/ev`.
fn event(tmp: &Path) -> PathBuf {
    Run::new(
        tmp,
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    )
    .check();
    tmp.join("ev")
}

/// `text` written as `tmp/NAME`.
fn sheet(tmp: &Path, name: &str, text: &str) -> PathBuf {
    let file = tmp.join(name);
    fs::write(&file, text).unwrap();
    file
}

/// A 姓名 in a CSV that Excel would have stored as a number, a date or TRUE is refused at
/// its cell, as the workbook's own cell is: players named 12345 or 2026-01-05 never reach
/// a pairing sheet.
#[test]
fn a_csv_name_that_is_a_number_date_or_truth_value_is_refused_as_in_a_workbook() {
    let tmp = TempDir::new().unwrap();
    let ev = event(tmp.path());
    let csv = sheet(
        tmp.path(),
        "numname.csv",
        "姓名,性别,单位\n12345,男,a\n2026-01-05,男,b\n张三丰,男,c\n李四光,男,d\nTRUE,男,e\n",
    );
    Run::on_event(&ev, &["import", "--dry-run", p(&csv)])
        .status(3)
        .stderr_has("numname.csv:2：`姓名` 列：姓名须是文字，而这个单元格是数字")
        .stderr_has("numname.csv:3：`姓名` 列：姓名须是文字，而这个单元格是日期或时间")
        .stderr_has("numname.csv:6：`姓名` 列：姓名须是文字，而这个单元格是逻辑值（TRUE/FALSE）")
        .check();
    Run::on_event(
        &ev,
        &[
            "--lang", "en", "player", "add", "--name", "12345", "--gender", "男",
        ],
    )
    .status(3)
    .stderr_has("`--name`: a name must be text, and `12345` is a number; give the player's name")
    .check();
}

/// Two part counts in one cell (男子组共5人，女子组共3人), in the title or under the list,
/// are named as parts with their sum when the players read differ, never as a total of
/// 3; parts that add up to the players read say nothing.
#[test]
fn two_part_counts_in_one_cell_are_parts_not_a_total() {
    let tmp = TempDir::new().unwrap();
    let ev = event(tmp.path());
    let four = "甲甲,男,a\n乙乙,男,b\n丙丙,男,c\n丁丁,女,d\n";
    let title = sheet(
        tmp.path(),
        "t.csv",
        &format!("男子组共5人，女子组共3人,,\n姓名,性别,单位\n{four}"),
    );
    Run::on_event(&ev, &["import", "--dry-run", p(&title)])
        .stderr_has("5+3=8")
        .stderr_lacks("共 3 人")
        .stderr_lacks("共3人，但")
        .check();
    let footer = sheet(
        tmp.path(),
        "f.csv",
        &format!("姓名,性别,单位\n{four}甲队共3人；乙队共1人,,\n"),
    );
    Run::on_event(&ev, &["import", "--dry-run", p(&footer)])
        .stderr_lacks("写明")
        .check();
}

/// An ID number in the 单位 column (a column slipped) or a phone written beside the unit
/// is said at import and registered masked, so no pairing sheet, standings or page prints
/// it; typed by hand with `player add --unit` it is refused.
#[test]
fn an_id_or_phone_in_the_unit_is_warned_about_and_never_published() {
    let tmp = TempDir::new().unwrap();
    let ev = event(tmp.path());
    let csv = sheet(
        tmp.path(),
        "unit.csv",
        "姓名,性别,单位\n牛一,男,甲队（联系13700137000）\n牛二,男,110101199003071233\n牛三,男,解放军61001部队\n牛四,男,丁\n",
    );
    Run::on_event(&ev, &["import", p(&csv)])
        .stderr_has(
            "unit.csv:2：`单位` 列：单位 `甲队(联系137****7000)` 含有像身份证号或电话号码的数字",
        )
        .stderr_has("unit.csv:3：`单位` 列：单位 `110101********1233`")
        .stderr_lacks("unit.csv:4")
        .check();
    for format in ["table", "csv", "json", "html"] {
        Run::on_event(&ev, &["--format", format, "players", "--show-private"])
            .stdout_lacks("13700137000")
            .stdout_lacks("110101199003071233")
            .stdout_has("110101********1233")
            .stdout_has("61001")
            .check();
    }
    Run::on_event(
        &ev,
        &[
            "--lang",
            "en",
            "player",
            "add",
            "--name",
            "牛五",
            "--gender",
            "男",
            "--unit",
            "13912345678",
        ],
    )
    .status(3)
    .stderr_has("the unit `139****5678` holds a number shaped like an ID or phone number")
    .check();
}

/// A workbook of six players on sheet 报名表, the third and fifth (rows 4 and 6: 藏一 and
/// 藏二) hidden.
fn hidden_rows_book() -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name("报名表").unwrap();
    let rows = [
        "姓名,性别,单位",
        "戊一,男,a",
        "戊二,男,b",
        "藏一,男,c",
        "戊三,男,d",
        "藏二,女,e",
        "戊四,女,f",
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.split(',').enumerate() {
            ws.write_string(u32::try_from(r).unwrap(), u16::try_from(c).unwrap(), v)
                .unwrap();
        }
    }
    ws.set_row_hidden(3).unwrap();
    ws.set_row_hidden(5).unwrap();
    book.save_to_buffer().unwrap()
}

/// The rows of a workbook that Excel hides (organisers hide the entries that dropped out)
/// are read, and said at the first of them with the players' names: the arbiter sees four
/// names in Excel and is told of the fifth.
#[test]
fn a_workbooks_hidden_rows_are_read_and_named() {
    let tmp = TempDir::new().unwrap();
    let ev = event(tmp.path());
    let file = tmp.path().join("vh.xlsx");
    fs::write(&file, hidden_rows_book()).unwrap();
    Run::on_event(&ev, &["import", "--dry-run", p(&file)])
        .stdout_has("6 名棋手")
        .stderr_has("vh.xlsx:报名表 第 4 行：第 4、6 行在工作表中是隐藏的（手工隐藏或被筛选掉），仍作为棋手读入：藏一、藏二")
        .check();
    Run::on_event(&ev, &["--lang", "en", "import", "--dry-run", p(&file)])
        .stderr_has("rows 4, 6 hidden in the sheet (by hand or by a filter) are read as players all the same: 藏一, 藏二")
        .check();
}

/// A sheet's row elements may come in any order, each numbered by its `r` (a program
/// other than Excel wrote it): the hidden rows are named all the same. They were kept in
/// the order found and binary-searched, so with the rows written last to first, row 6
/// (藏二) was read as a player and never named.
#[test]
fn hidden_rows_written_out_of_order_are_all_named() {
    use std::io::Read;
    let tmp = TempDir::new().unwrap();
    let ev = event(tmp.path());
    let bytes = hidden_rows_book();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut parts = Vec::new();
    for i in 0..archive.len() {
        let mut part = archive.by_index(i).unwrap();
        let name = part.name().unwrap().to_string();
        let mut data = Vec::new();
        part.read_to_end(&mut data).unwrap();
        if name == "xl/worksheets/sheet1.xml" {
            // The header row first, then the players' rows last to first.
            let xml = String::from_utf8(data).unwrap();
            let (start, end) = (
                xml.find("<row ").unwrap(),
                xml.find("</sheetData>").unwrap(),
            );
            let mut rows: Vec<String> = xml[start..end]
                .split_inclusive("</row>")
                .map(str::to_string)
                .collect();
            assert_eq!(rows.len(), 7, "{xml}");
            rows[1..].reverse();
            data = format!("{}{}{}", &xml[..start], rows.concat(), &xml[end..]).into_bytes();
        }
        parts.push((name, data));
    }
    let parts: Vec<(&str, &[u8])> = parts.iter().map(|(n, d)| (n.as_str(), &d[..])).collect();
    let file = tmp.path().join("vh.xlsx");
    fs::write(&file, zipped(&parts)).unwrap();
    Run::on_event(&ev, &["import", "--dry-run", p(&file)])
        .stdout_has("6 名棋手")
        .stderr_has("vh.xlsx:报名表 第 4 行：第 4、6 行在工作表中是隐藏的（手工隐藏或被筛选掉），仍作为棋手读入：藏一、藏二")
        .check();
}

/// An .ods (LibreOffice) hides rows too, by hand or by a filter: they are named as an
/// .xlsx's are.
#[test]
fn an_ods_sheets_hidden_rows_are_named() {
    let tmp = TempDir::new().unwrap();
    let ev = event(tmp.path());
    let cell = |t: &str| {
        format!(
            r#"<table:table-cell office:value-type="string"><text:p>{t}</text:p></table:table-cell>"#
        )
    };
    let row = |attrs: &str, cells: [&str; 3]| {
        format!(
            "<table:table-row{attrs}>{}</table:table-row>",
            cells.map(cell).concat()
        )
    };
    let rows = [
        row("", ["姓名", "性别", "单位"]),
        row("", ["戊一", "男", "a"]),
        row(r#" table:visibility="collapse""#, ["藏一", "男", "b"]),
        row("", ["戊二", "男", "c"]),
        row("", ["戊三", "女", "d"]),
    ]
    .concat();
    let content = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="报名表">{rows}</table:table></office:spreadsheet></office:body></office:document-content>"#
    );
    let manifest = r#"<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#;
    let ods = zipped(&[
        (
            "mimetype",
            &b"application/vnd.oasis.opendocument.spreadsheet"[..],
        ),
        ("META-INF/manifest.xml", manifest.as_bytes()),
        ("content.xml", content.as_bytes()),
    ]);
    let file = tmp.path().join("vh.ods");
    fs::write(&file, ods).unwrap();
    Run::on_event(&ev, &["import", "--dry-run", p(&file)])
        .stdout_has("4 名棋手")
        .stderr_has("vh.ods:报名表 第 3 行：这一行在工作表中是隐藏的（手工隐藏或被筛选掉），仍作为棋手读入：藏一")
        .check();
}

/// A legacy .xls (BIFF8: Excel 97–2003, WPS, LibreOffice) hides rows too, in its ROW
/// records: they are named as an .xlsx's are. The workbook is a real one saved by
/// LibreOffice (tests/fixtures/xls/README.md). An .xls's hidden rows were read as players
/// with no word, the arbiter seeing four names in Excel and importing six.
#[test]
fn an_xls_sheets_hidden_rows_are_named() {
    let tmp = TempDir::new().unwrap();
    let ev = event(tmp.path());
    let file = tmp.path().join("vh.xls");
    fs::copy(root("tests/fixtures/xls/hidden-rows.xls"), &file).unwrap();
    Run::on_event(&ev, &["import", "--dry-run", p(&file)])
        .stdout_has("6 名棋手")
        .stderr_has("vh.xls:报名表 第 4 行：第 4、6 行在工作表中是隐藏的（手工隐藏或被筛选掉），仍作为棋手读入：藏一、藏二")
        .check();
    Run::on_event(&ev, &["--lang", "en", "import", "--dry-run", p(&file)])
        .stderr_has("rows 4, 6 hidden in the sheet (by hand or by a filter) are read as players all the same: 藏一, 藏二")
        .check();
}

/// The .xls of hidden rows cut short at every length within its Workbook stream, and
/// each byte of the stream's records set to 0x00, 0xFF or its bits flipped (a ROW
/// record's length, row and flags, a BOUNDSHEET's offset and name among them): each is
/// read or refused, never a panic, and never more than its six players. (The container
/// around the stream is the fuzz target's: `tests/it/fuzz/`.)
#[test]
fn a_cut_or_garbled_xls_of_hidden_rows_never_panics() {
    use qiwang::model::PlayerId;
    use qiwang::registration::{ImportOptions, read_registrations};
    let text = fs::read_to_string(root("rules/cxa-2011.toml")).unwrap();
    let rules = qiwang::rulebook::Rulebook::from_toml(&text, "cxa-2011").unwrap();
    let bytes = fs::read(root("tests/fixtures/xls/hidden-rows.xls")).unwrap();
    let read = |input: &[u8]| {
        let opts = ImportOptions::default();
        read_registrations(input, "vh.xls", &opts, &rules, &[], PlayerId(1))
            .map(|players| players.len())
    };
    assert_eq!(read(&bytes).ok(), Some(6));
    // The stream starts with the workbook's BOF record (BIFF8: 16 bytes of data); its
    // records, the sheet's included, take its first 2 KB.
    let start = bytes
        .windows(6)
        .position(|w| w == [0x09, 0x08, 0x10, 0x00, 0x00, 0x06])
        .unwrap();
    let records = start..(start + 2048).min(bytes.len());
    let at_most_six = |read: Result<usize, _>| {
        if let Ok(players) = read {
            assert!(players <= 6, "{players} players");
        }
    };
    for len in start..bytes.len() {
        at_most_six(read(&bytes[..len]));
    }
    let mut garbled = bytes.clone();
    for at in records {
        for value in [0x00, 0xFF, !bytes[at]] {
            garbled[at] = value;
            at_most_six(read(&garbled));
        }
        garbled[at] = bytes[at];
    }
}

/// A phone or ID number written into the 姓名 (a sign-up form's "name + phone" cell) is
/// refused at its cell by the import, which then imports nothing, and by `player add` and
/// `player edit --name`; the refusal shows the number masked. The name is printed on every
/// public sheet, and is how results and a later import find the player, so a masked name
/// would still be wrong.
#[test]
fn an_id_or_phone_in_a_name_is_refused_at_import_and_by_hand() {
    let tmp = TempDir::new().unwrap();
    let ev = event(tmp.path());
    let csv = sheet(
        tmp.path(),
        "name.csv",
        "姓名,性别,单位\n丁13700137000,男,甲\n牛三,男,丙\n牛四,男,丁\n",
    );
    Run::on_event(&ev, &["import", p(&csv)])
        .status(3)
        .stderr_has("name.csv:2：`姓名` 列：姓名 `丁137****7000` 含有像身份证号或电话号码的数字")
        .stderr_lacks("13700137000")
        .stderr_lacks("name.csv:3")
        .check();
    Run::on_event(&ev, &["players"])
        .stdout_lacks("牛三")
        .check();
    let clean = sheet(
        tmp.path(),
        "clean.csv",
        "姓名,性别,单位\n牛三,男,丙\n牛四,男,丁\n",
    );
    Run::on_event(&ev, &["import", p(&clean)]).check();
    Run::on_event(
        &ev,
        &[
            "player",
            "add",
            "--name",
            "张110101199003071233",
            "--gender",
            "男",
            "--unit",
            "戊",
        ],
    )
    .status(3)
    .stderr_has("姓名 `张110101********1233` 含有像身份证号或电话号码的数字")
    .stderr_lacks("110101199003071233")
    .check();
    Run::on_event(
        &ev,
        &[
            "--lang",
            "en",
            "player",
            "edit",
            "牛四",
            "--name",
            "丁13700137000",
        ],
    )
    .status(3)
    .stderr_has("the name `丁137****7000` holds a number shaped like an ID or phone number")
    .stderr_lacks("13700137000")
    .check();
    for format in ["table", "csv", "json", "html"] {
        Run::on_event(&ev, &["--format", format, "players", "--show-private"])
            .stdout_lacks("1370013")
            .stdout_lacks("1101011990")
            .stdout_has("牛四")
            .check();
    }
}
