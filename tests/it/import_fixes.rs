//! Import of sheets as organisers fill them: a player row
//! whose name is a footer word is refused, never dropped, while real footers stay
//! skipped; UTF-16 without a byte-order mark is read; date, note and page lines and a
//! repeated header are skipped with a note that says what they are; a name that is no
//! text, a 序号 of 领队 and `--sheet` on a CSV are refused; a hidden sheet is skipped with
//! a note, and a workbook whose only headed sheet is hidden is refused naming it; a two-row header (大表头) with 联系方式 keeps the phone column.

use crate::common::{p, root, run};
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// A Jinhua event (groups 成人组, 青少年组 …) in `tmp/ev`.
pub(crate) fn event(tmp: &Path) {
    let out = run(
        tmp,
        &["init", "ev", "--rules", p(&root("rules/jinhua-2018.toml"))],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// `import FILE --dry-run` plus `extra`: the exit code and everything printed.
pub(crate) fn import(tmp: &Path, file: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["--event", "ev", "import", p(file), "--dry-run"];
    args.extend_from_slice(extra);
    let out = run(tmp, &args);
    (out.code, out.stderr + &out.stdout)
}

/// Writes `text` to `tmp/name`.
pub(crate) fn csv(tmp: &Path, name: &str, text: &str) -> PathBuf {
    let path = tmp.join(name);
    fs::write(&path, text).unwrap();
    path
}

/// `联系人,男,某协会,成人组` was once skipped as a footer with only a note, a
/// player lost. A row that fills 性别 or 组别 like a player is refused at its line, for
/// each footer word; real footers (a count, 制表 with a date, 负责人, a 联系人 row with a
/// phone and nothing in 性别/组别) are still skipped.
#[test]
fn a_player_row_named_by_a_footer_word_is_refused_not_dropped() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    for word in [
        "审核",
        "制表",
        "联系人",
        "经办人",
        "合计",
        "小计",
        "总计",
        "签章",
        "备注：",
        "日期：",
    ] {
        let file = csv(
            tmp.path(),
            "p.csv",
            &format!("姓名,性别,单位,组别\n{word},男,某协会,成人组\n王五,男,某协会,成人组\n"),
        );
        let (code, said) = import(tmp.path(), &file, &[]);
        assert_eq!(code, 3, "{word}: {said}");
        assert!(
            said.contains("p.csv:2")
                && said.contains(&format!("表尾用语 `{}", word.trim_end_matches('：'))),
            "{word}: {said}"
        );
    }
    // Only the footer word is quoted, never the rest of its cell (a contact's phone).
    let file = csv(
        tmp.path(),
        "p.csv",
        "姓名,性别,单位,组别\n联系人:李四 138****8000,男,某协会,成人组\n王五,男,某协会,成人组\n",
    );
    let (code, said) = import(tmp.path(), &file, &[]);
    assert_eq!(code, 3, "{said}");
    assert!(said.contains("表尾用语 `联系人` 开头"), "{said}");
    assert!(!said.contains("李四") && !said.contains("8000"), "{said}");
    // Only 组别 filled: still a player's row.
    let file = csv(
        tmp.path(),
        "p.csv",
        "姓名,性别,单位,组别\n审核,,,成人组\n王五,男,某协会,成人组\n",
    );
    assert_eq!(import(tmp.path(), &file, &[]).0, 3);

    let footers = csv(
        tmp.path(),
        "f.csv",
        "姓名,性别,单位,组别\n王五,男,某协会,成人组\n合计：1人,,,\n制表：张三 2026-12-01,,,\n负责人：李四,,,\n联系人,,13800138000,\n",
    );
    let (code, said) = import(tmp.path(), &footers, &[]);
    assert_eq!(code, 0, "{said}");
    assert_eq!(said.matches("这一行是表尾").count(), 4, "{said}");
    assert!(said.contains("检查通过（未导入）: 1 名棋手"), "{said}");
}

/// UTF-16 without a byte-order mark (LE and BE) was once refused as `字节 0x96 不是
/// 有效的 UTF-8 or GBK 编码`; it is read.
#[test]
fn utf16_without_a_byte_order_mark_is_read() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let text = "姓名,性别,单位,组别\r\n王五,男,某协会,成人组\r\nZhao Liu,男,Club,成人组\r\n";
    for (name, bytes) in [
        (
            "le.csv",
            text.encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<_>>(),
        ),
        (
            "be.csv",
            text.encode_utf16()
                .flat_map(u16::to_be_bytes)
                .collect::<Vec<_>>(),
        ),
    ] {
        let file = tmp.path().join(name);
        fs::write(&file, bytes).unwrap();
        let (code, said) = import(tmp.path(), &file, &[]);
        assert_eq!(code, 0, "{name}: {said}");
        assert!(said.contains("2 名棋手"), "{name}: {said}");
    }
}

/// A date, 注/说明/领队 or page line was once refused as 组别为空, and a repeated
/// header row as 组别 `组别` 不在规程中. Each is skipped with a note saying what it is,
/// and the players around them are read.
#[test]
fn date_note_page_and_repeated_header_rows_are_skipped_with_what_they_are() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let file = csv(
        tmp.path(),
        "q.csv",
        "姓名,性别,单位,组别\n王五,男,某协会,成人组\n2026年12月5日,,,\n注：请核对,,,\n说明：另行通知,,,\n领队：王五,,,\n第二页,,,\n姓名,性别,单位,组别\n赵六,男,某协会,成人组\n",
    );
    let (code, said) = import(tmp.path(), &file, &[]);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("2 名棋手"), "{said}");
    for (line, what) in [
        (3, "只有一项日期"),
        (4, "只有一项说明"),
        (5, "只有一项说明"),
        (6, "只有一项说明"),
        (7, "只有一项页码"),
        (8, "重复了表头"),
    ] {
        assert!(
            said.contains(&format!("q.csv:{line}：这一行{what}")),
            "{line}: {said}"
        );
    }
    assert!(
        !said.contains("组别为空") && !said.contains("不在规程中"),
        "{said}"
    );
}

/// A name cell that is an Excel date, number or TRUE was once imported as
/// `2020-01-01`, `12345`, `是`; each is refused at its cell. A date alone under the list
/// is a date line, skipped with a note; a number alone is still refused.
#[test]
fn a_name_cell_that_is_no_text_is_refused() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name("报名表").unwrap();
    let date = Format::new().set_num_format("yyyy-mm-dd");
    for (c, h) in ["姓名", "性别", "单位", "组别"].iter().enumerate() {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    for r in 1..=3u32 {
        for (c, v) in ["男", "某协会", "成人组"].iter().enumerate() {
            ws.write_string(r, c as u16 + 1, *v).unwrap();
        }
    }
    let day = ExcelDateTime::from_ymd(2020, 1, 1).unwrap();
    ws.write_datetime_with_format(1, 0, &day, &date).unwrap();
    ws.write_number(2, 0, 12345).unwrap();
    ws.write_boolean(3, 0, true).unwrap();
    ws.write_datetime_with_format(4, 0, &day, &date).unwrap();
    ws.write_number(5, 0, 30).unwrap();
    let file = tmp.path().join("n.xlsx");
    book.save(&file).unwrap();
    let (code, said) = import(tmp.path(), &file, &[]);
    assert_eq!(code, 3, "{said}");
    for (cell, what) in [("A2", "日期或时间"), ("A3", "数字"), ("A4", "逻辑值")] {
        assert!(
            said.contains(&format!(
                "报名表!{cell}：`姓名` 列：姓名须是文字，而这个单元格是{what}"
            )),
            "{cell}: {said}"
        );
    }
    assert!(!said.contains("A5："), "a date line: {said}");
    assert!(
        said.contains("报名表!A6：`姓名` 列：姓名须是文字"),
        "{said}"
    );
}

/// A 序号 of 领队 was once accepted (the team leader imported as a player), and
/// `--sheet` on a CSV was ignored; both are refused. A number or a mark is still a 序号.
#[test]
fn a_leader_in_the_number_column_and_sheet_on_a_csv_are_refused() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let file = csv(
        tmp.path(),
        "n.csv",
        "序号,姓名,性别,单位,组别\n领队,王五,男,某协会,成人组\n",
    );
    let (code, said) = import(tmp.path(), &file, &[]);
    assert_eq!(code, 3, "{said}");
    assert!(
        said.contains("n.csv:2：`序号` 列：序号 `领队` 不是编号"),
        "{said}"
    );
    let fine = csv(
        tmp.path(),
        "ok.csv",
        "序号,姓名,性别,单位,组别\n１,王五,男,某协会,成人组\n十二,赵六,男,某协会,成人组\nA,钱七,男,某协会,成人组\n",
    );
    let (code, said) = import(tmp.path(), &fine, &[]);
    assert_eq!(code, 0, "{said}");

    let (code, said) = import(tmp.path(), &fine, &["--sheet", "foo"]);
    assert_eq!(code, 3, "{said}");
    assert!(
        said.contains("CSV 文件，没有工作表，--sheet `foo` 用不上"),
        "{said}"
    );
}

/// A hidden worksheet was once imported like any other. It is skipped with a note
/// naming it, and read when `--sheet` names it.
#[test]
fn a_hidden_sheet_is_skipped_with_a_note_unless_named() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let mut book = Workbook::new();
    for (name, player, hidden) in [("报名表", "王五", false), ("旧名单 2025", "赵六", true)]
    {
        let ws = book.add_worksheet();
        ws.set_name(name).unwrap();
        for (c, h) in ["姓名", "性别", "单位", "组别"].iter().enumerate() {
            ws.write_string(0, c as u16, *h).unwrap();
        }
        for (c, v) in [player, "男", "某协会", "成人组"].iter().enumerate() {
            ws.write_string(1, c as u16, *v).unwrap();
        }
        if hidden {
            ws.set_hidden(true);
        }
    }
    let file = tmp.path().join("h.xlsx");
    book.save(&file).unwrap();
    let (code, said) = import(tmp.path(), &file, &[]);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("读取工作表：`报名表`（1 名棋手）"), "{said}");
    assert!(
        said.contains("工作表 `旧名单 2025` 是隐藏的，未读取"),
        "{said}"
    );
    // The command it suggests runs as printed: the name with a space is quoted.
    assert!(said.contains("--sheet '旧名单 2025'"), "{said}");
    let (code, said) = import(tmp.path(), &file, &["--sheet", "旧名单 2025"]);
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains("读取工作表：`旧名单 2025`（1 名棋手）"),
        "{said}"
    );
}

/// A workbook whose only sheet with a header row is hidden (the registration list hidden
/// behind an instructions sheet) was refused as having no header row at all. The refusal
/// names the hidden sheet and how to import it, `--sheet` with the name quoted for the
/// shell; that command reads it.
#[test]
fn a_workbook_whose_only_headed_sheet_is_hidden_says_so() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let mut book = Workbook::new();
    let notes = book.add_worksheet();
    notes.set_name("说明").unwrap();
    notes
        .write_string(0, 0, "请在报名表中填写参赛棋手")
        .unwrap();
    let list = book.add_worksheet();
    list.set_name("报名表 2026").unwrap();
    for (c, h) in ["姓名", "性别", "单位", "组别"].iter().enumerate() {
        list.write_string(0, c as u16, *h).unwrap();
    }
    for (c, v) in ["王五", "男", "某协会", "成人组"].iter().enumerate() {
        list.write_string(1, c as u16, *v).unwrap();
    }
    list.set_hidden(true);
    let file = tmp.path().join("hidden.xlsx");
    book.save(&file).unwrap();
    let (code, said) = import(tmp.path(), &file, &[]);
    assert_eq!(code, 3, "{said}");
    assert!(
        said.contains("含 姓名/name 列表头行的工作表 `报名表 2026` 是隐藏的，未读取"),
        "{said}"
    );
    assert!(said.contains("或加 --sheet '报名表 2026'"), "{said}");
    assert!(!said.contains("工作簿中没有一个工作表含有"), "{said}");
    let out = run(
        tmp.path(),
        &[
            "--lang",
            "en",
            "--event",
            "ev",
            "import",
            p(&file),
            "--dry-run",
        ],
    );
    assert!(
        out.stderr.contains(
            "the sheet with a header row (a 姓名/name column), `报名表 2026`, is hidden and was not read"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("pass --sheet '报名表 2026'"),
        "{}",
        out.stderr
    );
    let (code, said) = import(tmp.path(), &file, &["--sheet", "报名表 2026"]);
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains("读取工作表：`报名表 2026`（1 名棋手）"),
        "{said}"
    );
}

/// A two-row header (大表头) once lost the phone column: 联系方式 merged down both
/// rows was an unknown column. It is the 电话 column, and sub-columns under a heading
/// spanning columns (参赛信息 over 单位 and 组别) are read from the second row.
#[test]
fn a_two_row_header_keeps_its_phone_and_sub_columns() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name("报名表").unwrap();
    let plain = Format::new();
    for (c, h) in [(0u16, "序号"), (1, "姓名"), (2, "性别"), (5, "联系方式")] {
        ws.merge_range(0, c, 1, c, h, &plain).unwrap();
    }
    ws.merge_range(0, 3, 0, 4, "参赛信息", &plain).unwrap();
    ws.write_string(1, 3, "单位").unwrap();
    ws.write_string(1, 4, "组别").unwrap();
    for (c, v) in ["1", "王五", "男", "某协会", "成人组", "13800138000"]
        .iter()
        .enumerate()
    {
        ws.write_string(2, c as u16, *v).unwrap();
    }
    let file = tmp.path().join("t.xlsx");
    book.save(&file).unwrap();
    let out = run(tmp.path(), &["--event", "ev", "import", p(&file)]);
    assert_eq!(out.code, 0, "{}{}", out.stderr, out.stdout);
    assert!(!out.stderr.contains("不认识"), "{}", out.stderr);
    let state = fs::read_to_string(tmp.path().join("ev/qiwang.json")).unwrap();
    assert!(state.contains("\"phone\":\"13800138000\""), "{state}");
    assert!(state.contains("\"unit\":\"某协会\""), "{state}");
}
