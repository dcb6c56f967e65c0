//! Excel in and out (issue 13): registration workbooks as organisers make them (title rows,
//! merged cells, numbers and dates as Excel stores them, several sheets), batches of files,
//! `--format xlsx` workbooks read back, the registration template, results from a workbook,
//! and the bundled examples shipped as workbooks.
//!
//! The workbooks are built here with rust_xlsxwriter and read back with calamine: no
//! spreadsheet program is needed.

use crate::common::{BIN, Run, init, qiwang_as, qiwang_zh, succeeded};
use calamine::{Data, Reader, open_workbook_auto_from_rs};
use qiwang::model::{Player, PlayerId};
use qiwang::privacy::mask_id_number;
use qiwang::registration::{
    BatchOptions, ImportErrors, ImportOptions, Imported, RegistrationFile, id_card, read_batch,
    read_registrations,
};
use qiwang::rulebook::{Lang, Rulebook};
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet};
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shipped(name: &str) -> Rulebook {
    let text = std::fs::read_to_string(root().join(format!("rules/{name}.toml"))).unwrap();
    Rulebook::from_toml(&text, name).unwrap()
}

/// A valid ID number (checksum included); an odd sequence is male.
fn id(region: &str, birth: &str, seq: u32) -> String {
    let first17 = format!("{region}{birth}{seq:03}");
    format!("{first17}{}", id_card::check_character(&first17).unwrap())
}

type Fill<'a> = &'a dyn Fn(&mut Worksheet);

/// Whether a cell is the string `s`.
fn is(cell: &Data, s: &str) -> bool {
    matches!(cell, Data::String(x) if x == s)
}

/// A workbook with one sheet per `(name, fill)`.
fn book(sheets: &[(&str, Fill<'_>)]) -> Vec<u8> {
    let mut wb = Workbook::new();
    for (name, fill) in sheets {
        let ws = wb.add_worksheet();
        ws.set_name(*name).unwrap();
        fill(ws);
    }
    wb.save_to_buffer().unwrap()
}

fn row(ws: &mut Worksheet, r: u32, cells: &[&str]) {
    for (c, v) in cells.iter().enumerate() {
        if !v.is_empty() {
            ws.write_string(r, c as u16, *v).unwrap();
        }
    }
}

fn batch(
    files: &[(&str, &[u8])],
    opts: &BatchOptions,
    rules: &Rulebook,
) -> Result<Imported, ImportErrors> {
    let files: Vec<RegistrationFile<'_>> = files
        .iter()
        .map(|(name, bytes)| RegistrationFile {
            source: name.to_string(),
            bytes,
        })
        .collect();
    read_batch(&files, opts, rules, &[], &Default::default(), PlayerId(1))
}

/// The registration workbook of a 各县市区棋协: a title merged across the top, a blank row,
/// the header on row 3, 单位 merged down over three players, numbers typed as numbers,
/// dates as a date cell, an 8-digit number, a text date, an unformatted serial and a year
/// and month typed as a number; a second sheet with other headers; an instructions sheet.
fn county_workbook() -> Vec<u8> {
    let date = Format::new().set_num_format("yyyy-mm-dd");
    let serial_1979_12_25 = (chrono::NaiveDate::from_ymd_opt(1979, 12, 25).unwrap()
        - chrono::NaiveDate::from_ymd_opt(1899, 12, 30).unwrap())
    .num_days() as f64;
    let main = |ws: &mut Worksheet| {
        ws.merge_range(0, 0, 0, 7, "2018年金华市象棋棋王赛报名表", &Format::new())
            .unwrap();
        row(
            ws,
            2,
            &[
                "序号",
                "姓名",
                "性别",
                "单位",
                "组别",
                "出生日期",
                "身份证号",
                "电话",
            ],
        );
        for r in 3..8 {
            ws.write_number(r, 0, f64::from(r - 2)).unwrap();
        }
        ws.merge_range(3, 3, 5, 3, "武义县象棋协会", &Format::new())
            .unwrap();
        row(
            ws,
            3,
            &[
                "",
                "于一鸣 ",
                "男",
                "",
                "成人组",
                "",
                &id("330723", "19661225", 819),
            ],
        );
        ws.write_datetime_with_format(3, 5, ExcelDateTime::from_ymd(1966, 12, 25).unwrap(), &date)
            .unwrap();
        ws.write_number(3, 7, 10097159464.0).unwrap();
        row(
            ws,
            4,
            &[
                "",
                "侯锋",
                "男",
                "",
                "成人组",
                "",
                &id("330702", "19570216", 789),
            ],
        );
        ws.write_number(4, 5, 19570216.0).unwrap();
        row(
            ws,
            5,
            &[
                "",
                "唐志",
                "男",
                "",
                "青少年组",
                "2005年10月26日",
                &id("330702", "20051026", 269),
            ],
        );
        row(
            ws,
            6,
            &[
                "",
                "王芳",
                "女",
                "金东区棋协",
                "成人组",
                "",
                &id("330703", "19801203", 122),
            ],
        );
        ws.write_number(6, 5, 1980.12).unwrap();
        row(ws, 7, &["", "李明", "男", "婺城区棋协", "成人组", "", ""]);
        ws.write_number(7, 5, serial_1979_12_25).unwrap();
    };
    let second = |ws: &mut Worksheet| {
        row(ws, 0, &["姓名", "组别", "所在单位"]);
        row(ws, 1, &["陈静", "成人组", "兰溪市棋协"]);
        row(ws, 2, &["ＺＨＡＮＧ　Ｗｅｉ", "成人组", "兰溪市棋协  "]);
    };
    let notes = |ws: &mut Worksheet| row(ws, 0, &["请用本表报名，截止日期 10 月 20 日"]);
    book(&[("报名表", &main), ("第二批", &second), ("说明", &notes)])
}

#[test]
fn a_county_workbook_imports_with_title_rows_merged_units_and_excel_numbers() {
    let rules = shipped("jinhua-2018");
    let bytes = county_workbook();
    let imported = batch(&[("金华.xlsx", &bytes)], &BatchOptions::default(), &rules)
        .unwrap_or_else(|e| panic!("{e}"));
    let file = &imported.files[0];
    assert_eq!(file.sheets, vec!["报名表", "第二批"]);
    assert_eq!(file.skipped, vec!["说明"]);
    let p = &imported.players;
    let names: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "于一鸣",
            "侯锋",
            "唐志",
            "王芳",
            "李明",
            "陈静",
            "ZHANG Wei"
        ]
    );
    // The merged 单位 belongs to each of the three rows.
    assert!(p[..3].iter().all(|p| p.unit == "武义县象棋协会"), "{p:?}");
    let born: Vec<String> = p[..5]
        .iter()
        .map(|p| p.birth_date.unwrap().to_string())
        .collect();
    assert_eq!(
        born,
        [
            "1966-12-25",
            "1957-02-16",
            "2005-10-26",
            "1980-12-03",
            "1979-12-25"
        ]
    );
    assert_eq!(p[0].phone.as_deref(), Some("10097159464"));
    assert_eq!(p[5].unit, "兰溪市棋协");
    assert_eq!(p[6].unit, "兰溪市棋协");
    let ids: Vec<u32> = p.iter().map(|p| p.id.0).collect();
    assert_eq!(ids, [1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn an_id_number_excel_made_a_number_is_refused_and_errors_name_sheet_and_cell() {
    let rules = shipped("jinhua-2018");
    let good = id("330723", "19661225", 819);
    let damaged: f64 = good[..17].parse::<f64>().unwrap() * 10.0;
    let sheet = |ws: &mut Worksheet| {
        row(ws, 0, &["姓名", "组别", "身份证号"]);
        row(ws, 1, &["于一鸣", "成人组", ""]);
        ws.write_number(1, 2, damaged).unwrap();
        row(ws, 2, &["侯锋", "象棋组", ""]);
        row(ws, 3, &["唐志", "成人组", &good]);
    };
    let bytes = book(&[("报名表", &sheet)]);
    let err = batch(&[("县.xlsx", &bytes)], &BatchOptions::default(), &rules).unwrap_err();
    let en = err.to_string();
    let lines: Vec<&str> = en.lines().collect();
    assert_eq!(lines.len(), 3, "{en}");
    assert!(
        lines[0].starts_with("县.xlsx:报名表!C2: column `身份证号`: "),
        "{en}"
    );
    assert!(lines[0].contains("format the column as text"), "{en}");
    assert!(
        lines[1].starts_with("县.xlsx:报名表!B3: column `组别`: group `象棋组`"),
        "{en}"
    );
    // The damaged number is personal data: masked like any ID number.
    assert!(!en.contains(&good[..14]), "{en}");
    let zh = {
        use qiwang::i18n::Localize;
        err.localize(Lang::Zh)
    };
    assert!(
        zh.contains("县.xlsx:报名表!C2：`身份证号` 列：身份证号被 Excel 存成了数字"),
        "{zh}"
    );
    assert!(zh.contains("“文本”格式"), "{zh}");
}

#[test]
fn a_batch_is_all_or_nothing_and_finds_duplicates_across_files() {
    let rules = shipped("jinhua-2018");
    let same = id("330723", "19661225", 819);
    let a = book(&[("报名表", &|ws: &mut Worksheet| {
        row(ws, 0, &["姓名", "组别", "身份证号"]);
        row(ws, 1, &["于一鸣", "成人组", &same]);
    })]);
    let b = format!(
        "姓名,组别,身份证号\n侯锋,成人组,{}\n于二鸣,成人组,{same}\n",
        id("330702", "19570216", 789)
    );
    let err = batch(
        &[("a.xlsx", &a), ("b.csv", b.as_bytes())],
        &BatchOptions::default(),
        &rules,
    )
    .unwrap_err();
    let shown = err.to_string();
    assert_eq!(err.errors.len(), 1, "{shown}");
    assert!(
        shown.starts_with(&format!(
            "b.csv:3: column `身份证号`: ID number `{}` is already on a.xlsx:报名表 row 2 (`于一鸣`)",
            mask_id_number(&same)
        )),
        "{shown}"
    );
    assert!(
        shown.contains("in `a.xlsx, b.csv`; nothing was imported"),
        "{shown}"
    );
    // Through the command: the event is unchanged, then a clean batch imports at once.
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    let rules_file = root().join("rules/jinhua-2018.toml");
    init(&ev, &rules_file);
    std::fs::write(dir.path().join("a.xlsx"), &a).unwrap();
    std::fs::write(dir.path().join("b.csv"), &b).unwrap();
    let a_path = dir.path().join("a.xlsx").display().to_string();
    let b_path = dir.path().join("b.csv").display().to_string();
    Run::on_event_in("en", &ev, &["import", &a_path, &b_path])
        .status(3)
        .stdout_empty()
        .stderr_has("nothing was imported")
        .check();
    let listed = succeeded(
        &["players"],
        qiwang_as("t", &ev, &["--format", "json", "players"]),
    );
    assert!(!String::from_utf8_lossy(&listed.stdout).contains("于一鸣"));
    let c = format!(
        "姓名,组别,身份证号\n侯锋,成人组,{}\n",
        id("330702", "19570216", 789)
    );
    std::fs::write(dir.path().join("c.csv"), &c).unwrap();
    let c_path = dir.path().join("c.csv").display().to_string();
    Run::on_event_in("en", &ev, &["import", &a_path, &c_path])
        .stdout_has("a.xlsx: read sheets `报名表` (1 player)")
        .stdout_has("imported 2 players")
        // Neither sheet has a gender column: both genders come from the ID numbers.
        // Said at the ID number it was read from, naming no column the sheets lack.
        .stderr_has("a.xlsx:报名表!C2: column `身份证号`: the sheet has no gender column: the gender was read from the ID number")
        .stderr_has("c.csv:2: column `身份证号`: the sheet has no gender column: the gender was read from the ID number")
        .stderr_lacks("性别/gender")
        .check();
}

#[test]
fn unknown_columns_warn_and_strict_refuses_them_and_sheet_picks_one() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    let rules_file = root().join("rules/jinhua-2018.toml");
    init(&ev, &rules_file);
    let csv = dir.path().join("r.csv");
    std::fs::write(
        &csv,
        "姓名,单位名称,组别,推荐人\n甲,婺城区棋协,成人组,王老师\n",
    )
    .unwrap();
    let csv = csv.display().to_string();
    Run::on_event_in("en", &ev, &["import", "--strict", "--dry-run", &csv])
        .status(3)
        .stdout_empty()
        .stderr_has(":1: column `推荐人`: qiwang does not know the column `推荐人` (--strict)")
        // 单位名称 is a 单位 alias.
        .stderr_lacks("单位名称")
        .check();
    Run::on_event_in("en", &ev, &["import", &csv])
        .stdout_has("imported 1 player")
        .stderr_has("warning: ")
        .stderr_has("column `推荐人`")
        .check();
    // --sheet reads one sheet; a missing one lists the sheets there are.
    let wb = dir.path().join("county.xlsx");
    std::fs::write(&wb, county_workbook()).unwrap();
    let wb = wb.display().to_string();
    Run::on_event_in(
        "en",
        &ev,
        &["import", "--dry-run", "--sheet", "第二批", &wb],
    )
    .stdout_has("read sheets `第二批` (2 players)")
    .stderr_empty()
    .check();
    Run::on_event_in("en", &ev, &["import", "--sheet", "第三批", &wb])
        .status(3)
        .stdout_empty()
        .stderr_has("no sheet `第三批`; its sheets are `报名表`, `第二批`, `说明`")
        .check();
}

/// An event of the bundled Jinhua example, registered from its CSV.
fn jinhua_event(dir: &Path) -> PathBuf {
    let ev = dir.join("ev");
    let rules_file = root().join("rules/jinhua-2018.toml");
    init(&ev, &rules_file);
    let csv = root()
        .join("examples/jinhua-2018/registrations.csv")
        .display()
        .to_string();
    succeeded(&["import"], qiwang_as("t", &ev, &["import", &csv]));
    ev
}

fn read_book(bytes: &[u8]) -> calamine::Sheets<Cursor<&[u8]>> {
    open_workbook_auto_from_rs(Cursor::new(bytes)).unwrap()
}

#[test]
fn players_exported_as_a_workbook_import_to_the_same_players() {
    let dir = tempfile::tempdir().unwrap();
    let ev = jinhua_event(dir.path());
    let out = succeeded(
        &["players"],
        qiwang_zh(&ev, &["--format", "xlsx", "--show-private", "players"]),
    );
    let exported = dir.path().join("players.xlsx");
    std::fs::write(&exported, &out.stdout).unwrap();
    let ev2 = dir.path().join("ev2");
    let rules_file = root().join("rules/jinhua-2018.toml");
    init(&ev2, &rules_file);
    succeeded(
        &["import"],
        qiwang_as("t", &ev2, &["import", &exported.display().to_string()]),
    );
    let list = |ev: &Path| {
        let out = succeeded(
            &["players"],
            qiwang_as("t", ev, &["--format", "json", "--show-private", "players"]),
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["players"].clone()
    };
    let (before, after) = (list(&ev), list(&ev2));
    assert_eq!(before.as_array().map(Vec::len), Some(150));
    assert_eq!(before, after);
    // Without --show-private the workbook is the public list: no ID number, even masked.
    let out = succeeded(
        &["players"],
        qiwang_zh(&ev, &["--format", "xlsx", "players"]),
    );
    let mut wb = read_book(&out.stdout);
    let name = wb.sheet_names()[0].clone();
    let range = wb.worksheet_range(&name).unwrap();
    let cells: Vec<String> = range.cells().map(|(_, _, c)| c.to_string()).collect();
    let masked = mask_id_number("33072319661225819X");
    assert!(!cells.contains(&masked), "masked ID {masked} published");
    assert!(
        !cells.iter().any(|c| c.contains("19661225")),
        "an unmasked ID in the workbook"
    );
    assert!(cells.iter().any(|c| c == "姓名"), "the list is there");
}

#[test]
fn a_name_beginning_with_equals_stays_text_in_a_workbook() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    let rules_file = root().join("rules/cxa-2011.toml");
    init(&ev, &rules_file);
    let csv = dir.path().join("r.csv");
    std::fs::write(
        &csv,
        "姓名,单位\n\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",+1\n乙,@SUM(1)\n",
    )
    .unwrap();
    succeeded(
        &["import"],
        qiwang_as("t", &ev, &["import", &csv.display().to_string()]),
    );
    let out = succeeded(
        &["players"],
        qiwang_as("t", &ev, &["--format", "xlsx", "players"]),
    );
    let mut wb = read_book(&out.stdout);
    let name = wb.sheet_names()[0].clone();
    let values = wb.worksheet_range(&name).unwrap();
    let formulas = wb.worksheet_formula(&name).unwrap();
    assert!(
        formulas.cells().all(|(_, _, f)| f.is_empty()),
        "a formula was written"
    );
    let strings: Vec<&Data> = values.cells().map(|(_, _, c)| c).collect();
    assert!(strings.contains(&&Data::String("=HYPERLINK(\"http://x\",\"y\")".into())));
    assert!(strings.contains(&&Data::String("@SUM(1)".into())));
}

/// Every data row of a sheet as its cells, for the sheet's header row named by `first`.
fn table(range: &calamine::Range<Data>, first: &str) -> (Vec<String>, Vec<Vec<Data>>) {
    let rows: Vec<Vec<Data>> = range.rows().map(<[calamine::Data]>::to_vec).collect();
    let at = rows
        .iter()
        .position(|r| r.first().is_some_and(|c| is(c, first)))
        .unwrap_or_else(|| panic!("no header row starting with {first}"));
    let header = rows[at].iter().map(ToString::to_string).collect();
    (header, rows[at + 1..].to_vec())
}

#[test]
fn the_prize_workbook_has_numbers_a_signature_column_and_the_table_totals() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("demo");
    succeeded(
        &["demo"],
        Command::new(BIN)
            .args(["--lang", "zh", "demo"])
            .arg(&ev)
            .output()
            .unwrap(),
    );
    let json = succeeded(
        &["prizes"],
        qiwang_as("t", &ev, &["--format", "json", "prizes"]),
    );
    let sheet: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let paid_fen = sheet["totals"]["paid_fen"].as_i64().unwrap();
    let lists = sheet["lists"].as_array().unwrap().len() + sheet["teams"].as_array().unwrap().len();
    let out = succeeded(&["prizes"], qiwang_zh(&ev, &["--format", "xlsx", "prizes"]));
    let mut wb = read_book(&out.stdout);
    let names = wb.sheet_names();
    assert_eq!(names.len(), lists + 1, "{names:?}");
    let mut total = 0.0;
    for name in &names[..lists] {
        let range = wb.worksheet_range(name).unwrap();
        let formulas = wb.worksheet_formula(name).unwrap();
        let (header, rows) = table(&range, "名次");
        assert_eq!(
            header.last().map(String::as_str),
            Some("领奖签字"),
            "{name}: {header:?}"
        );
        let money = header.iter().position(|h| h.starts_with("奖金")).unwrap();
        let awards: Vec<&Vec<Data>> = rows.iter().take_while(|r| !is(&r[0], "合计")).collect();
        assert!(!awards.is_empty(), "{name}");
        // Places and money are numbers (a playoff still pending holds its money as text).
        assert!(
            awards.iter().any(|r| matches!(r[0], Data::Float(_))),
            "{name}"
        );
        let mut sum = 0.0;
        for r in &awards {
            match &r[money] {
                Data::Float(x) => sum += x,
                Data::String(s) => assert!(s.contains("待加赛"), "{name}: money cell {s:?}"),
                other => panic!("{name}: money cell {other:?}"),
            }
        }
        // The totals row: 合计 and a SUM formula over the money column.
        let total_row = rows.iter().find(|r| is(&r[0], "合计")).expect("totals row");
        assert!(matches!(total_row[money], Data::Float(x) if (x - sum).abs() < 0.005));
        assert!(
            formulas.cells().any(|(_, _, f)| f.starts_with("SUM(")),
            "{name}: no SUM formula"
        );
        total += sum;
    }
    assert_eq!((total * 100.0).round() as i64, paid_fen);
    // The last sheet adds the totals up with a formula whose stored value is the table's
    // grand total (a viewer that does not recalculate shows it, not 0).
    let last = names.last().unwrap();
    let range = wb.worksheet_range(last).unwrap();
    let grand = range
        .rows()
        .find(|r| r.first().is_some_and(|c| is(c, "合计")))
        .expect("grand total row");
    assert!(
        matches!(grand[1], Data::Float(x) if ((x * 100.0).round() as i64) == paid_fen),
        "{grand:?}"
    );
    let formulas = wb.worksheet_formula(last).unwrap();
    assert!(
        formulas
            .cells()
            .any(|(_, _, f)| f.matches('!').count() == lists),
        "{formulas:?}"
    );
}

#[test]
fn the_template_workbook_has_text_id_columns_lists_and_an_example_that_is_not_imported() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("报名表.xlsx");
    let rules_file = root().join("rules/jinhua-2018.toml").display().to_string();
    succeeded(
        &["template"],
        Command::new(BIN)
            .args(["--lang", "zh", "template", "--rules", &rules_file, "--out"])
            .arg(&t)
            .output()
            .unwrap(),
    );
    let bytes = std::fs::read(&t).unwrap();
    let mut wb = read_book(&bytes);
    assert_eq!(wb.sheet_names(), ["报名表", "可选值"]);
    let range = wb.worksheet_range("报名表").unwrap();
    let (header, rows) = table(&range, "序号");
    assert_eq!(
        header,
        [
            "序号",
            "姓名",
            "性别",
            "单位",
            "组别",
            "出生日期",
            "身份证号",
            "年级",
            "残疾",
            "称号",
            "电话"
        ]
    );
    let id_col = header.iter().position(|h| h == "身份证号").unwrap();
    assert!(matches!(&rows[0][id_col], Data::String(s) if s.len() == 18));
    let lists = wb.worksheet_range("可选值").unwrap();
    let (list_header, list_rows) = table(&lists, "性别");
    assert_eq!(list_header, ["性别", "组别", "年级", "残疾"]);
    let groups: Vec<String> = list_rows
        .iter()
        .map(|r| r[1].to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let rules = shipped("jinhua-2018");
    assert_eq!(
        groups,
        rules
            .groups
            .iter()
            .map(|g| g.name.clone())
            .collect::<Vec<_>>()
    );
    // Imported as it is, the template has no players: the example row is skipped.
    let err = batch(&[("t.xlsx", &bytes)], &BatchOptions::default(), &rules).unwrap_err();
    assert!(err.to_string().contains("no player rows"), "{err}");
    // The CSV template is the same sheet.
    let out = succeeded(
        &["template"],
        Command::new(BIN)
            .args(["template", "--rules", &rules_file, "--format", "csv"])
            .output()
            .unwrap(),
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(
        csv.starts_with(
            "\u{FEFF}序号,姓名,性别,单位,组别,出生日期,身份证号,年级,残疾,称号,电话\n示例,"
        ),
        "{csv}"
    );
}

#[test]
fn results_are_read_from_a_workbook_with_its_row_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    let rules_file = root().join("rules/cxa-2011.toml");
    init(&ev, &rules_file);
    let csv = dir.path().join("r.csv");
    std::fs::write(&csv, "姓名\n甲\n乙\n丙\n丁\n").unwrap();
    succeeded(
        &["import"],
        qiwang_as("t", &ev, &["import", &csv.display().to_string()]),
    );
    succeeded(&["pair"], qiwang_as("t", &ev, &["pair", "--seed", "1"]));
    let bad = book(&[("成绩", &|ws: &mut Worksheet| {
        row(ws, 0, &["第1轮成绩登记"]);
        row(ws, 2, &["轮次", "台号", "结果"]);
        ws.write_number(3, 0, 1.0).unwrap();
        ws.write_number(3, 1, 1.0).unwrap();
        row(ws, 3, &["", "", "1-0"]);
        ws.write_number(4, 0, 1.0).unwrap();
        ws.write_number(4, 1, 2.0).unwrap();
        row(ws, 4, &["", "", "赢了"]);
    })]);
    let path = dir.path().join("r.xlsx");
    std::fs::write(&path, &bad).unwrap();
    Run::on_event_in(
        "en",
        &ev,
        &["result", "--from", &path.display().to_string()],
    )
    .status(3)
    .stdout_empty()
    .stderr_has("r.xlsx:成绩")
    .stderr_has("5")
    .stderr_has("赢了")
    .check();
    let good = book(&[("成绩", &|ws: &mut Worksheet| {
        row(ws, 0, &["轮次", "台号", "结果"]);
        for (r, outcome) in [(1u32, "1-0"), (2, "=")] {
            ws.write_number(r, 0, 1.0).unwrap();
            ws.write_number(r, 1, f64::from(r)).unwrap();
            ws.write_string(r, 2, outcome).unwrap();
        }
    })]);
    std::fs::write(&path, &good).unwrap();
    succeeded(
        &["result"],
        qiwang_as("t", &ev, &["result", "--from", &path.display().to_string()]),
    );
    let out = succeeded(
        &["standings"],
        qiwang_as("t", &ev, &["--format", "json", "standings"]),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["after_round"], 1, "{v}");
    // A win (2 + 0) and a draw (1 + 1) under CXA scoring.
    let total: i64 = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_i64().unwrap())
        .sum();
    assert_eq!(total, 4, "{v}");
}

/// The example's registration sheet as an organiser's workbook: a title merged across the
/// top, the header, 序号 and phone numbers as numbers, ISO dates as date cells, the rest
/// as typed (ID numbers as text).
fn example_workbook(csv_text: &str, title: &str) -> Vec<u8> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv_text.as_bytes());
    let records: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    let header = &records[0];
    let col = |name: &str| header.iter().position(|h| h == name);
    let (number, phone, birth) = (
        col("序号"),
        col("电话").or(col("联系电话")),
        col("出生日期"),
    );
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet();
    ws.set_name("报名表").unwrap();
    let date = Format::new().set_num_format("yyyy-mm-dd");
    let text = Format::new().set_num_format("@");
    ws.merge_range(
        0,
        0,
        0,
        (header.len() - 1) as u16,
        title,
        &Format::new().set_bold(),
    )
    .unwrap();
    for (r, cells) in records.iter().enumerate() {
        let r = r as u32 + 1;
        for (c, v) in cells.iter().enumerate() {
            let c16 = c as u16;
            if v.is_empty() {
                continue;
            }
            let digits = v.chars().all(|ch| ch.is_ascii_digit());
            let iso = chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d").ok();
            if r > 1 && (Some(c) == number || Some(c) == phone) && digits {
                ws.write_number(r, c16, v.parse::<f64>().unwrap()).unwrap();
            } else if r > 1
                && Some(c) == birth
                && let Some(d) = iso
            {
                use chrono::Datelike;
                let dt = ExcelDateTime::from_ymd(d.year() as u16, d.month() as u8, d.day() as u8)
                    .unwrap();
                ws.write_datetime_with_format(r, c16, dt, &date).unwrap();
            } else {
                ws.write_string_with_format(r, c16, v, &text).unwrap();
            }
        }
    }
    wb.save_to_buffer().unwrap()
}

/// The bundled examples ship as workbooks too (examples/*/registrations.xlsx), made from
/// the CSV by this test (`QIWANG_BLESS=1` rewrites them), and import to the same players.
#[test]
fn the_bundled_examples_ship_as_workbooks_that_import_like_the_csv() {
    for (name, rules, gbk) in [
        ("jinhua-2018", "jinhua-2018", false),
        ("dongguan-2018", "dongguan-2018", true),
    ] {
        let rules = shipped(rules);
        let dir = root().join("examples").join(name);
        let csv_bytes = std::fs::read(dir.join("registrations.csv")).unwrap();
        let text = if gbk {
            encoding_rs::GBK.decode(&csv_bytes).0.into_owned()
        } else {
            String::from_utf8(csv_bytes.clone()).unwrap()
        };
        let path = dir.join("registrations.xlsx");
        if std::env::var("QIWANG_BLESS").is_ok_and(|v| v == "1") || !path.exists() {
            std::fs::write(&path, example_workbook(&text, &rules.event.name)).unwrap();
        }
        let from_csv = import(&csv_bytes, &rules, "registrations.csv");
        let from_xlsx = import(&std::fs::read(&path).unwrap(), &rules, "registrations.xlsx");
        assert_eq!(from_csv.len(), from_xlsx.len(), "{name}");
        for (a, b) in from_csv.iter().zip(&from_xlsx) {
            assert_eq!(a, b, "{name}");
        }
    }
}

fn import(bytes: &[u8], rules: &Rulebook, source: &str) -> Vec<Player> {
    read_registrations(
        bytes,
        source,
        &ImportOptions::default(),
        rules,
        &[],
        PlayerId(1),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}
