//! Sheets laid out with a 序号 column or a two-row header: a sheet with a 序号 column
//! reads its footer and a footer word on a player row as one without does; a page line
//! or note typed in the 序号 column is skipped like the same text under 姓名; head counts
//! given only in parts are named as parts; a two-row header with 联系方式 over 手机 and
//! 电话 is read, not refused.

use crate::common::{p, run};
use crate::import_fixes::import;
use crate::import_fixes::{csv, event};
use rust_xlsxwriter::{Format, Workbook};
use std::fs;
use tempfile::TempDir;

/// `5,审核,,,` (a pre-numbered footer) was imported as the player 审核, and
/// `2,联系人,男,X,成人组` as the player 联系人. With the 序号 set aside, the first is a
/// footer, skipped; the second is refused at its line, as without a 序号 column.
#[test]
fn a_numbered_footer_is_skipped_and_a_numbered_footer_word_row_refused() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let file = csv(
        tmp.path(),
        "f10.csv",
        "序号,姓名,性别,单位,组别\n1,张三,男,甲,成人组\n2,李四,男,乙,成人组\n3,制表人：王五,,,\n4,,,,\n5,审核,,,\n",
    );
    let (code, out) = import(tmp.path(), &file, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 名") || out.contains("2 players"), "{out}");
    assert!(!out.contains("审核 "), "{out}");
    for line in ["f10.csv:4", "f10.csv:6"] {
        assert!(
            out.lines()
                .any(|l| l.contains(line) && (l.contains("表尾") || l.contains("footer"))),
            "{line} is no footer note: {out}"
        );
    }
    for word in ["联系人", "日期", "审核"] {
        let file = csv(
            tmp.path(),
            "f1.csv",
            &format!("序号,姓名,性别,单位,组别\n1,甲,男,X,成人组\n2,{word},男,X,成人组\n"),
        );
        let (code, out) = import(tmp.path(), &file, &[]);
        assert_eq!(code, 3, "{word}: {out}");
        assert!(out.contains("f1.csv:3"), "{word}: {out}");
        assert!(out.contains(word), "{word}: {out}");
    }
}

/// In a workbook: the row `2,制表,,,,` was once read as the player 制表.
#[test]
fn a_numbered_footer_in_a_workbook_is_skipped() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    for (r, row) in [
        ["序号", "姓名", "性别", "单位", "组别"],
        ["1", "张三", "男", "甲", "成人组"],
        ["2", "制表", "", "", ""],
    ]
    .iter()
    .enumerate()
    {
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                ws.write_string(r as u32, c as u16, *v).unwrap();
            }
        }
    }
    let file = tmp.path().join("f.xlsx");
    book.save(&file).unwrap();
    let (code, out) = import(tmp.path(), &file, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 名") || out.contains("1 player"), "{out}");
    assert!(out.contains("表尾") || out.contains("footer"), "{out}");
}

/// `第二页,,,,` and `注：按时报到,,,,` in the 序号 column blocked the import
/// (姓名为空, 序号 … 不是编号); they are skipped with the note the same text in the
/// 姓名 column gets.
#[test]
fn a_page_line_or_note_in_the_number_column_is_skipped() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let file = csv(
        tmp.path(),
        "f9.csv",
        "序号,姓名,性别,单位,组别\n1,张三,男,甲,成人组\n第二页,,,,\n,第二页,,,\n注：按时报到,,,,\n,注：按时报到,,,\n2,李四,男,乙,成人组\n",
    );
    let (code, out) = import(tmp.path(), &file, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 名") || out.contains("2 players"), "{out}");
    // What follows `f9.csv:LINE` on its line.
    let note_at = |line: &str| {
        let at = format!("f9.csv:{line}：");
        out.lines()
            .find_map(|l| l.split_once(&at).map(|(_, rest)| rest.to_string()))
            .unwrap_or_else(|| panic!("no note at line {line}: {out}"))
    };
    assert_eq!(note_at("3"), note_at("4"), "{out}");
    assert_eq!(note_at("5"), note_at("6"), "{out}");
}

/// 联系方式 merged over 手机 and 电话 (a title in row 1, the header in rows 2
/// and 3) was refused, 电话 named twice, at the merged cell G2. 手机 is the phone, 电话
/// an extra column kept with each player, and the note names 电话's own cell, G3.
#[test]
fn a_contact_heading_over_mobile_and_phone_is_read() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name("报名表").unwrap();
    let plain = Format::new();
    ws.write_string(0, 0, "2026年象棋赛报名表").unwrap();
    for (c, h) in [(0u16, "序号"), (1, "姓名"), (2, "性别")] {
        ws.merge_range(1, c, 2, c, h, &plain).unwrap();
    }
    ws.merge_range(1, 3, 1, 4, "参赛信息", &plain).unwrap();
    ws.merge_range(1, 5, 1, 6, "联系方式", &plain).unwrap();
    for (c, h) in [(3u16, "单位"), (4, "组别"), (5, "手机"), (6, "电话")] {
        ws.write_string(2, c, h).unwrap();
    }
    let row = [
        "1",
        "王五",
        "男",
        "某协会",
        "成人组",
        "13800138000",
        "0579-1234567",
    ];
    for (c, v) in row.iter().enumerate() {
        ws.write_string(3, c as u16, *v).unwrap();
    }
    let file = tmp.path().join("x1.xlsx");
    book.save(&file).unwrap();
    let out = run(tmp.path(), &["--event", "ev", "import", p(&file)]);
    assert_eq!(out.code, 0, "{}{}", out.stderr, out.stdout);
    assert!(out.stderr.contains("报名表!G3"), "{}", out.stderr);
    assert!(!out.stderr.contains("G2"), "{}", out.stderr);
    assert!(!out.stderr.contains("不认识"), "{}", out.stderr);
    let state = fs::read_to_string(tmp.path().join("ev/qiwang.json")).unwrap();
    assert!(state.contains("\"phone\":\"13800138000\""), "{state}");
    assert!(state.contains("0579-1234567"), "{state}");
}

/// 男子组共8人 / 女子组共3人 under ten players was said to state 共 8 人, and
/// each line was announced as a footer (填表人、审核 …). The warning names the parts and
/// their sum, 8+3=11, and each line is named a head-count line.
#[test]
fn head_counts_in_parts_are_named_as_parts() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let mut text = String::from("序号,姓名,性别,单位,组别\n");
    for i in 1..=10 {
        text += &format!("{i},棋手{i},男,单位,成人组\n");
    }
    text += "男子组共8人,,,,\n女子组共3人,,,,\n";
    let file = csv(tmp.path(), "f7.csv", &text);
    let (code, out) = import(tmp.path(), &file, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("8+3=11"), "{out}");
    assert!(!out.contains("共 8 人"), "{out}");
    assert!(!out.contains("表尾"), "{out}");
    assert_eq!(out.matches("这一行是人数行").count(), 2, "{out}");
}
