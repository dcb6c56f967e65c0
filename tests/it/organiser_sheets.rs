//! Registration sheets as organisers send them (issue 43 item 11): a footer row (填表人、
//! 审核、盖章、日期) is skipped with a note, a head count the sheet states (共150人) is
//! compared with the players read, a phone number of no known shape is warned
//! about naming its cell, and a gender taken from the ID number is reported. What an
//! import of such a CSV sheet says, whole and in both languages, is a case file under
//! `tests/cmd/sheets/`; here, a workbook's cell names and the head counts in words.

use crate::common::{Run, p, root};
use std::fs;
use tempfile::TempDir;

/// `qiwang init ev --rules RULES` in `dir`, which must succeed with nothing on stderr.
fn init(dir: &std::path::Path, rules: &str) {
    Run::new(dir, &["init", "ev", "--rules", p(&root(rules))])
        .stderr_empty()
        .check();
}

#[test]
fn a_workbooks_warning_names_the_sheet_and_cell() {
    let tmp = TempDir::new().unwrap();
    init(tmp.path(), "rules/cxa-2011.toml");
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
    Run::new(tmp.path(), &["--event", "ev", "import", p(&file)])
        .stdout_has("已导入 1 名棋手")
        .stderr_has("报名表!D2")
        .stderr_has("表尾")
        .check();
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
        init(tmp.path(), "rules/jinhua-2018.toml");
        let sheet = tmp.path().join("报名表.csv");
        fs::write(&sheet, format!("{}\n{footer}{commas}\n", base.join("\n"))).unwrap();
        println!("{footer}");
        Run::new(tmp.path(), &["--event", "ev", "import", p(&sheet)])
            .stdout_has("已导入 10 名棋手")
            .stdout_lacks("写明")
            .stderr_lacks("写明")
            .check();
    }
}
