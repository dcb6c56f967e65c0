//! Registration sheets as organisers send them (issue 43 item 11): a footer row (填表人、
//! 审核、盖章、日期) is skipped with a note, a head count the sheet states (共150人) is
//! compared with the players read, a phone number of no known shape is warned
//! about naming its cell, and a gender taken from the ID number is reported.

use crate::common::{p, root, run};
use qiwang::registration::id_card;
use std::fs;
use tempfile::TempDir;

fn id(birth: &str, seq: u32) -> String {
    let first17 = format!("340225{birth}{seq:03}");
    format!("{first17}{}", id_card::check_character(&first17).unwrap())
}

#[test]
fn a_footer_row_is_skipped_a_bad_phone_and_a_filled_gender_are_reported() {
    let tmp = TempDir::new().unwrap();
    run(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    )
    .ok();
    let csv = format!(
        "姓名,性别,单位,身份证号,电话\n\
         甲一,男,无为一中,{},1391234567\n\
         乙二,,无为一中,{},0553-1234567\n\
         丙三,男,襄安棋社,,13912345678\n\
         填表人：张三,,审核：李四,,日期：2021年9月1日\n",
        id("19900101", 11),
        id("19920202", 21),
    );
    let sheet = tmp.path().join("报名表.csv");
    fs::write(&sheet, csv).unwrap();
    let out = run(tmp.path(), &["--event", "ev", "import", p(&sheet)]);
    let notes = out.stderr.clone() + &out.stdout;
    assert_eq!(out.code, 0, "{notes}");
    assert!(notes.contains("已导入 3 名棋手"), "{notes}");
    // The footer: a note with its line, not a player.
    assert!(
        notes.contains("报名表.csv:5") && notes.contains("表尾"),
        "{notes}"
    );
    // The 10-digit phone, its cell named and the number masked.
    assert!(
        notes.contains("报名表.csv:2")
            && notes.contains("`电话` 列")
            && notes.contains("11 位手机号"),
        "{notes}"
    );
    assert!(!notes.contains("1391234567"), "masked: {notes}");
    // The gender taken from the ID number.
    assert!(
        notes.contains("报名表.csv:3") && notes.contains("按身份证号记为"),
        "{notes}"
    );
    // The landline and the good mobile pass without a word.
    assert_eq!(notes.matches("11 位手机号").count(), 1, "{notes}");
    let players = run(
        tmp.path(),
        &["--event", "ev", "players", "--format", "json"],
    )
    .json();
    let names: Vec<&str> = players["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["甲一", "乙二", "丙三"]);
}

#[test]
fn a_workbooks_warning_names_the_sheet_and_cell() {
    let tmp = TempDir::new().unwrap();
    run(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    )
    .ok();
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name("报名表").unwrap();
    for (c, h) in ["姓名", "性别", "单位", "电话"].iter().enumerate() {
        ws.write_string(0, u16::try_from(c).unwrap(), *h).unwrap();
    }
    for (c, v) in ["甲一", "男", "无为一中", "12345"].iter().enumerate() {
        ws.write_string(1, u16::try_from(c).unwrap(), *v).unwrap();
    }
    ws.write_string(2, 0, "盖章：").unwrap();
    let file = tmp.path().join("报名表.xlsx");
    fs::write(&file, book.save_to_buffer().unwrap()).unwrap();
    let out = run(tmp.path(), &["--event", "ev", "import", p(&file)]);
    let notes = out.stderr.clone() + &out.stdout;
    assert_eq!(out.code, 0, "{notes}");
    assert!(notes.contains("报名表!D2"), "{notes}");
    assert!(
        notes.contains("报名表") && notes.contains("表尾"),
        "{notes}"
    );
}

/// A footer written in the 序号 column (the first column of most sheets) is the footer
/// too, and is said; empty numbered rows of a template stay silent.
#[test]
fn a_footer_in_the_number_column_is_said_not_dropped_silently() {
    let tmp = TempDir::new().unwrap();
    run(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    )
    .ok();
    let csv = "序号,姓名,性别,单位\n１,甲一,男,无为一中\n2,乙二,女,无为一中\n3,,,\n\
               填表人：张老师 电话 13912345678,,,\n合计：2人,,,\n";
    let sheet = tmp.path().join("报名表.csv");
    fs::write(&sheet, csv).unwrap();
    let out = run(tmp.path(), &["--event", "ev", "import", p(&sheet)]);
    let notes = out.stderr.clone() + &out.stdout;
    assert_eq!(out.code, 0, "{notes}");
    assert!(notes.contains("已导入 2 名棋手"), "{notes}");
    assert!(
        notes.contains("报名表.csv:5") && notes.contains("报名表.csv:6"),
        "{notes}"
    );
    assert!(!notes.contains("报名表.csv:4"), "{notes}");
}

/// An empty 单位, one name twice in a group under two units, and two spellings of one unit
/// are said at import (all are imported): the first leaves the player out of every unit's
/// ranking, the second is often one child entered by two schools, the third splits a
/// school's team score.
#[test]
fn an_empty_unit_and_a_name_twice_in_a_group_are_said() {
    let tmp = TempDir::new().unwrap();
    run(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    )
    .ok();
    let csv = "姓名,性别,单位\n甲一,男,\n乙二,女,城南小学\n乙二,女,城北小学\n丙三,男,个人\n\
               丁四,男,城南小学（本部）\n戊五,男,城南小学（本部）\n";
    let sheet = tmp.path().join("报名表.csv");
    fs::write(&sheet, csv).unwrap();
    let out = run(tmp.path(), &["--event", "ev", "import", p(&sheet)]);
    let notes = out.stderr.clone() + &out.stdout;
    assert_eq!(out.code, 0, "{notes}");
    assert!(notes.contains("已导入 6 名棋手"), "{notes}");
    // Two spellings of one school, said once.
    assert!(
        notes.contains("报名表.csv:6")
            && notes.contains("单位 `城南小学(本部)` 与 `城南小学` 写法相近"),
        "{notes}"
    );
    assert_eq!(notes.matches("写法相近").count(), 1, "{notes}");
    assert!(
        notes.contains("报名表.csv:2") && notes.contains("单位为空"),
        "{notes}"
    );
    assert_eq!(notes.matches("单位为空").count(), 1, "{notes}");
    assert!(
        notes.contains("报名表.csv:4") && notes.contains("与第 3 行（`乙二`）同名"),
        "{notes}"
    );
}

/// A sheet's own head count (`共4人`, `合计：2人`) that differs from the players read is
/// said, naming the file and line, the count stated and the players read: a row lost in
/// an Excel export. The import still goes ahead; a count that agrees says nothing more.
#[test]
fn a_stated_head_count_that_differs_from_the_rows_read_is_warned_about() {
    let tmp = TempDir::new().unwrap();
    run(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    )
    .ok();
    let lost = tmp.path().join("报名表.csv");
    fs::write(
        &lost,
        "姓名,性别,单位\n甲一,男,无为一中\n乙二,女,无为一中\n丙三,男,襄安棋社\n共4人,,\n",
    )
    .unwrap();
    let out = run(tmp.path(), &["--event", "ev", "import", p(&lost)]);
    let notes = out.stderr.clone() + &out.stdout;
    assert_eq!(out.code, 0, "imported all the same: {notes}");
    assert!(notes.contains("已导入 3 名棋手"), "{notes}");
    assert!(
        notes.contains("报名表.csv:5") && notes.contains("表中写明共 4 人，但从表中读到 3 名棋手"),
        "{notes}"
    );

    let agrees = tmp.path().join("second.csv");
    fs::write(
        &agrees,
        "姓名,性别,单位\n丁四,男,襄安棋社\n戊五,男,襄安棋社\n合计：2人,,\n",
    )
    .unwrap();
    let out = run(
        tmp.path(),
        &["--lang", "en", "--event", "ev", "import", p(&agrees)],
    );
    let notes = out.stderr.clone() + &out.stdout;
    assert_eq!(out.code, 0, "{notes}");
    assert!(!notes.contains("states"), "{notes}");

    // A batch: the file whose count is off is the one named, in English too.
    let third = tmp.path().join("third.csv");
    fs::write(&third, "姓名,性别,单位\n己六,男,襄安棋社\n合计,2人,\n").unwrap();
    let fourth = tmp.path().join("fourth.csv");
    fs::write(&fourth, "姓名,性别,单位\n庚七,男,襄安棋社\n1 人,,\n").unwrap();
    let out = run(
        tmp.path(),
        &[
            "--lang",
            "en",
            "--event",
            "ev",
            "import",
            p(&third),
            p(&fourth),
        ],
    );
    let notes = out.stderr.clone() + &out.stdout;
    assert_eq!(out.code, 0, "{notes}");
    assert!(
        notes.contains("third.csv:3")
            && notes.contains("the sheet states 2 players but 1 player was read from it"),
        "{notes}"
    );
    assert!(!notes.contains("fourth.csv:3: the sheet states"), "{notes}");
}

/// A unit or name that merely begins with a footer word (日期中学, 联系人俱乐部, 合计队 …)
/// is a player's row, read as one: only the word used as a label (填表人：, 日期 2021…) or
/// alone in its row makes a footer. These rows were once skipped with a note, players lost.
#[test]
fn a_unit_that_begins_with_a_footer_word_is_a_player_not_a_footer() {
    let tmp = TempDir::new().unwrap();
    run(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/jinhua-2018.toml"))],
    )
    .ok();
    let csv = "单位,姓名,性别,组别\n\
               甲,张一,男,成人组\n\
               共青团金华市委,李二,男,成人组\n\
               日期中学,赵四,男,成人组\n\
               联系人俱乐部,钱五,男,成人组\n\
               负责人棋社,孙六,男,成人组\n\
               制表厂工会,周七,男,成人组\n\
               合计队,吴八,男,成人组\n\
               备注：无,,,\n\
               填表人王五\n\
               日期 2021年9月1日,,,\n";
    let sheet = tmp.path().join("报名表.csv");
    fs::write(&sheet, csv).unwrap();
    let out = run(tmp.path(), &["--event", "ev", "import", p(&sheet)]);
    let notes = out.stderr.clone() + &out.stdout;
    assert_eq!(out.code, 0, "{notes}");
    assert!(notes.contains("已导入 7 名棋手"), "{notes}");
    for line in 3..=8 {
        assert!(
            !notes.contains(&format!("报名表.csv:{line}：")),
            "line {line} is a player: {notes}"
        );
    }
    assert_eq!(notes.matches("表尾").count(), 3, "{notes}");
}

/// Head counts written as organisers write them (共十人, 小计：10人, 男8人，女2人，共10人 …)
/// are read as the sheet's count, not refused as a player with no name: the ten players
/// are imported and, the count agreeing, nothing is warned about.
#[test]
fn head_counts_in_words_and_sentences_are_read_as_counts() {
    let base: Vec<String> = fs::read_to_string(root("examples/jinhua-2018/registrations.csv"))
        .unwrap()
        .lines()
        .take(11)
        .map(str::to_string)
        .collect();
    let commas = ",".repeat(base[0].matches(',').count());
    for footer in [
        "共十人",
        "小计：10人",
        "男8人，女2人，共10人",
        "共 10 人（男8女2）",
        "报名人数：10",
    ] {
        let tmp = TempDir::new().unwrap();
        run(
            tmp.path(),
            &["init", "ev", "--rules", p(&root("rules/jinhua-2018.toml"))],
        )
        .ok();
        let sheet = tmp.path().join("报名表.csv");
        fs::write(&sheet, format!("{}\n{footer}{commas}\n", base.join("\n"))).unwrap();
        let out = run(tmp.path(), &["--event", "ev", "import", p(&sheet)]);
        let notes = out.stderr.clone() + &out.stdout;
        assert_eq!(out.code, 0, "{footer}: {notes}");
        assert!(notes.contains("已导入 10 名棋手"), "{footer}: {notes}");
        assert!(!notes.contains("写明"), "{footer}: {notes}");
    }
}
