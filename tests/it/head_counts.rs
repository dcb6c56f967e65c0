//! The head count a registration sheet states, wherever it states it: a title row above
//! the header (报名表（共150人）), count lines under the list (the total among per-part
//! counts), and a workbook whose sheet states the whole workbook's count. Each is compared
//! with the players read, and only a count that matches nothing it can mean is warned
//! about (the import goes ahead either way).

use crate::common::{p, root, run};
use std::fs;
use std::path::Path;
use tempfile::TempDir;

/// A CXA event in `tmp/ev`.
fn event(tmp: &Path) {
    run(
        tmp,
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    )
    .ok();
}

/// Imports `file` into the event: the exit code and everything printed.
fn import(tmp: &Path, file: &Path) -> (i32, String) {
    let out = run(tmp, &["--event", "ev", "import", p(file)]);
    (out.code, out.stderr + &out.stdout)
}

/// Three players, the rows under a header `姓名,性别,单位`.
const THREE: &str = "甲一,男,无为一中\n乙二,女,无为一中\n丙三,男,襄安棋社\n";

/// A count in the title above the header, in the title's brackets or in a row of its
/// own, is compared as a footer's count is: four stated and three read is said, naming
/// the title's line; a title that agrees says nothing.
#[test]
fn a_count_in_a_title_row_above_the_header_is_compared() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let off = tmp.path().join("报名表.csv");
    fs::write(
        &off,
        format!("2026年少儿象棋赛报名表（共4人）,,\n姓名,性别,单位\n{THREE}"),
    )
    .unwrap();
    let (code, notes) = import(tmp.path(), &off);
    assert_eq!(code, 0, "imported all the same: {notes}");
    assert!(
        notes.contains("报名表.csv:1") && notes.contains("表中写明共 4 人，但从表中读到 3 名棋手"),
        "{notes}"
    );

    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let agrees = tmp.path().join("报名表.csv");
    fs::write(
        &agrees,
        format!("2026年少儿象棋赛报名表,,\n共3人,,\n姓名,性别,单位\n{THREE}"),
    )
    .unwrap();
    let (code, notes) = import(tmp.path(), &agrees);
    assert_eq!(code, 0, "{notes}");
    assert!(notes.contains("已导入 3 名棋手"), "{notes}");
    assert!(!notes.contains("写明"), "{notes}");
}

/// A workbook's title row is read as a CSV's is: its count is compared, the warning
/// naming the sheet.
#[test]
fn a_count_in_a_workbooks_title_row_is_compared() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name("报名表").unwrap();
    ws.write_string(0, 0, "2026年少儿象棋赛报名表（共5人）")
        .unwrap();
    for (r, row) in ["姓名,性别,单位"]
        .iter()
        .chain(THREE.lines().collect::<Vec<_>>().iter())
        .enumerate()
    {
        for (c, v) in row.split(',').enumerate() {
            ws.write_string(u32::try_from(r + 1).unwrap(), u16::try_from(c).unwrap(), v)
                .unwrap();
        }
    }
    let file = tmp.path().join("报名表.xlsx");
    fs::write(&file, book.save_to_buffer().unwrap()).unwrap();
    let (code, notes) = import(tmp.path(), &file);
    assert_eq!(code, 0, "{notes}");
    assert!(notes.contains("已导入 3 名棋手"), "{notes}");
    assert!(
        notes.contains("报名表.xlsx:报名表 第 1 行")
            && notes.contains("表中写明共 5 人，但从表中读到 3 名棋手"),
        "{notes}"
    );
}

/// With several count lines, the total is the sheet's count (the largest: a total is never
/// smaller than its parts), not the last line: a part after the total (其中女子组共1人)
/// warned falsely. Parts without their total agree when they add up; a wrong total among
/// parts is said at its own line.
#[test]
fn with_several_count_lines_the_total_is_compared() {
    for (footer, warned) in [
        ("合计：3人,,\n其中女子组共1人,,\n", None),
        ("男子组共2人,,\n女子组共1人,,\n", None),
        (
            "男子组共2人,,\n女子组共1人,,\n共4人,,\n",
            Some("报名表.csv:7"),
        ),
        ("共4人,,\n其中女子组共1人,,\n", Some("报名表.csv:5")),
    ] {
        let tmp = TempDir::new().unwrap();
        event(tmp.path());
        let sheet = tmp.path().join("报名表.csv");
        fs::write(&sheet, format!("姓名,性别,单位\n{THREE}{footer}")).unwrap();
        let (code, notes) = import(tmp.path(), &sheet);
        assert_eq!(code, 0, "{footer}: {notes}");
        assert!(notes.contains("已导入 3 名棋手"), "{footer}: {notes}");
        match warned {
            None => assert!(!notes.contains("写明"), "{footer}: {notes}"),
            Some(at) => {
                assert_eq!(notes.matches("写明").count(), 1, "{footer}: {notes}");
                assert!(
                    notes.contains(at) && notes.contains("表中写明共 4 人，但从表中读到 3 名棋手"),
                    "{footer}: {notes}"
                );
            }
        }
    }
}

/// A workbook of three sheets whose last states the whole workbook's count (共9人 under
/// its three players) is not warned about: the count matches the workbook, not the sheet.
/// A count that matches neither is still said, naming its sheet.
#[test]
fn a_sheet_that_states_the_whole_workbooks_count_is_not_warned_about() {
    let names = [
        ["甲一", "乙二", "丙三"],
        ["丁四", "戊五", "己六"],
        ["庚七", "辛八", "壬九"],
    ];
    for (last, warned) in [("共9人", false), ("共10人", true), ("共3人", false)] {
        let tmp = TempDir::new().unwrap();
        event(tmp.path());
        let mut book = rust_xlsxwriter::Workbook::new();
        for (s, three) in names.iter().enumerate() {
            let ws = book.add_worksheet();
            ws.set_name(format!("第{}组", s + 1)).unwrap();
            for (c, h) in ["姓名", "性别", "单位"].iter().enumerate() {
                ws.write_string(0, u16::try_from(c).unwrap(), *h).unwrap();
            }
            for (r, name) in three.iter().enumerate() {
                let r = u32::try_from(r + 1).unwrap();
                ws.write_string(r, 0, *name).unwrap();
                ws.write_string(r, 1, "男").unwrap();
                ws.write_string(r, 2, "无为一中").unwrap();
            }
            if s == 2 {
                ws.write_string(4, 0, last).unwrap();
            }
        }
        let file = tmp.path().join("报名表.xlsx");
        fs::write(&file, book.save_to_buffer().unwrap()).unwrap();
        let (code, notes) = import(tmp.path(), &file);
        assert_eq!(code, 0, "{last}: {notes}");
        assert!(notes.contains("已导入 9 名棋手"), "{last}: {notes}");
        assert_eq!(notes.contains("写明"), warned, "{last}: {notes}");
        if warned {
            assert!(
                notes.contains("第3组 第 5 行")
                    && notes.contains("表中写明共 10 人，但从表中读到 3 名棋手"),
                "{notes}"
            );
        }
        // The count line is said whatever its count (a footer, or a head-count line).
        assert!(
            notes.contains("表尾") || notes.contains("人数行"),
            "{last}: {notes}"
        );
    }
}

/// A workbook's footer whose count is a number cell under 姓名 (`合计 | 3`) is skipped as
/// the same rows in a CSV file are, its count compared; a number under 姓名 on a row read
/// as a player's is still refused.
#[test]
fn a_workbooks_footer_with_a_number_under_the_name_is_skipped() {
    let book = |player: Option<(&str, f64)>| {
        let mut book = rust_xlsxwriter::Workbook::new();
        let ws = book.add_worksheet();
        ws.set_name("报名表").unwrap();
        for (c, v) in ["序号", "姓名", "性别", "单位"].iter().enumerate() {
            ws.write_string(0, u16::try_from(c).unwrap(), *v).unwrap();
        }
        for (r, row) in THREE.lines().enumerate() {
            let r = u32::try_from(r + 1).unwrap();
            ws.write_number(r, 0, f64::from(r)).unwrap();
            for (c, v) in row.split(',').enumerate() {
                ws.write_string(r, u16::try_from(c + 1).unwrap(), v)
                    .unwrap();
            }
        }
        let mut r = 4;
        if let Some((unit, name)) = player {
            ws.write_number(r, 0, 4.0).unwrap();
            ws.write_number(r, 1, name).unwrap();
            ws.write_string(r, 2, "男").unwrap();
            ws.write_string(r, 3, unit).unwrap();
            r += 1;
        }
        ws.write_string(r, 0, "合计").unwrap();
        ws.write_number(r, 1, 3.0).unwrap();
        book.save_to_buffer().unwrap()
    };
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let file = tmp.path().join("报名表.xlsx");
    fs::write(&file, book(None)).unwrap();
    let (code, notes) = import(tmp.path(), &file);
    assert_eq!(code, 0, "{notes}");
    assert!(notes.contains("已导入 3 名棋手"), "{notes}");
    assert!(notes.contains("这一行是表尾"), "{notes}");
    assert!(
        !notes.contains("姓名须是文字") && !notes.contains("写明"),
        "{notes}"
    );

    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let file = tmp.path().join("报名表.xlsx");
    fs::write(&file, book(Some(("襄安棋社", 12345.0)))).unwrap();
    let (code, notes) = import(tmp.path(), &file);
    assert_ne!(code, 0, "{notes}");
    assert!(
        notes.contains("报名表.xlsx:报名表!B5") && notes.contains("姓名须是文字"),
        "{notes}"
    );
    assert_eq!(notes.matches("姓名须是文字").count(), 1, "{notes}");
}

/// Counts that are totals are one count stated twice, not parts to add up: a title's
/// 共2人 and a footer's 合计：2人 over four players are said, though 2 + 2 = 4.
#[test]
fn totals_stated_twice_are_not_added_up_as_parts() {
    let tmp = TempDir::new().unwrap();
    event(tmp.path());
    let sheet = tmp.path().join("报名表.csv");
    fs::write(
        &sheet,
        format!("报名表（共2人）,,\n姓名,性别,单位\n{THREE}丁四,男,襄安棋社\n合计：2人,,\n"),
    )
    .unwrap();
    let (code, notes) = import(tmp.path(), &sheet);
    assert_eq!(code, 0, "{notes}");
    assert!(notes.contains("已导入 4 名棋手"), "{notes}");
    assert!(
        notes.contains("报名表.csv:1") && notes.contains("表中写明共 2 人，但从表中读到 4 名棋手"),
        "{notes}"
    );
}
