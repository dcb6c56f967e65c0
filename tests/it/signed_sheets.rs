//! Sheets an arbiter signs (issue 43 item 9): the 总表 with exactly the event's tiebreak
//! columns, the crosstable's colours as 红/黑, the prize sheet with its signature lines,
//! Chinese dates, no money column on an award-only list, the finance office's full ID and
//! phone numbers with `--show-private`, and workbook sheets that say what they hold, their
//! titles merged and centred.

use crate::common::{p, run};
use calamine::{Reader, Xlsx};
use qiwang::registration::id_card;
use std::fs;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

const RULES: &str = r#"
[event]
name = "无为市象棋比赛"
organiser = "无为市体育局"
start_date = 2021-09-18
end_date = 2021-09-19
rules_edition = "CXA 2011"
language = "zh"
rounds = 3

[[groups]]
id = "open"
name = "公开组"

[ranking]
tiebreaks = ["wins", "progressive"]

[[prizes.lists]]
id = "money"
name = "公开组"
group = "open"
places = [{ place = 1, money = 500 }, { place = 2, money = 300 }]

[[prizes.lists]]
id = "cups"
name = "公开组奖杯"
group = "open"
places = [{ from = 1, to = 3, award = "奖杯" }]
"#;

fn id(seq: u32) -> String {
    let first17 = format!("34022519900101{seq:03}");
    format!("{first17}{}", id_card::check_character(&first17).unwrap())
}

/// Six players with ID and phone numbers, round 1 played.
fn event() -> (TempDir, PathBuf) {
    let tmp = TempDir::new().unwrap();
    let rules = tmp.path().join("rules.toml");
    fs::write(&rules, RULES).unwrap();
    let mut csv = String::from("姓名,性别,单位,身份证号,电话\n");
    for (i, name) in ["甲一", "乙二", "丙三", "丁四", "戊五", "己六"]
        .iter()
        .enumerate()
    {
        let i = u32::try_from(i).unwrap();
        csv.push_str(&format!(
            "{name},男,单位{i},{},1390000000{i}\n",
            id(i * 2 + 1)
        ));
    }
    let sheet = tmp.path().join("players.csv");
    fs::write(&sheet, csv).unwrap();
    run(tmp.path(), &["init", "ev", "--rules", p(&rules)]).ok();
    let ev = tmp.path().join("ev");
    let q = |args: &[&str]| run(tmp.path(), &[&["--event", p(&ev)][..], args].concat());
    q(&["import", p(&sheet)]).ok();
    q(&["pair", "--seed", "3"]).ok();
    q(&["result", "1", "r", "2", "=", "3", "b"]).ok();
    (tmp, ev)
}

fn q(ev: &Path, args: &[&str]) -> String {
    run(
        ev.parent().unwrap(),
        &[&["--event", p(ev)][..], args].concat(),
    )
    .ok()
}

#[test]
fn the_wall_chart_shows_the_events_own_tiebreaks_in_its_order() {
    let (_tmp, ev) = event();
    let wall = q(&ev, &["round", "--sheet", "wall"]);
    let header = wall.lines().find(|l| l.contains("积分")).unwrap();
    let at = |w: &str| header.find(w).unwrap_or_else(|| panic!("{w}: {header}"));
    assert!(at("积分") < at("胜局") && at("胜局") < at("累进分") && at("累进分") < at("名次"));
    assert!(!wall.contains("对手分"), "{wall}");
    let json: serde_json::Value =
        serde_json::from_str(&q(&ev, &["--format", "json", "round", "--sheet", "wall"])).unwrap();
    let keys: Vec<&str> = json["rows"][0]["tiebreaks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["wins", "progressive"]);
}

#[test]
fn the_crosstable_writes_colours_as_red_and_black_in_a_chinese_event() {
    let (_tmp, ev) = event();
    let csv = q(&ev, &["--format", "csv", "crosstable"]);
    assert!(csv.contains("红1") && csv.contains("黑0"), "{csv}");
    assert!(!csv.contains("r1") && !csv.contains("b0"), "{csv}");
    let en = q(&ev, &["--lang", "en", "--format", "csv", "crosstable"]);
    assert!(en.contains("r1") && en.contains("b0"), "{en}");
}

#[test]
fn the_prize_sheet_is_signed_dated_in_chinese_and_pays_only_where_money_is_given() {
    let (_tmp, ev) = event();
    let sheet = q(&ev, &["prizes"]);
    assert!(sheet.contains("2021年9月18日至2021年9月19日"), "{sheet}");
    assert!(
        sheet.contains("裁判长（签字）：") && sheet.contains("组委会（盖章）："),
        "{sheet}"
    );
    assert!(sheet.contains("日期：2021年9月19日"), "{sheet}");
    // The award-only list: no money column, no 0元 total.
    let cups = sheet.split("公开组奖杯").nth(1).unwrap();
    let cups = cups.split("奖金总计").next().unwrap();
    assert!(
        cups.contains("奖杯") && !cups.contains("奖金") && !cups.contains("0元"),
        "{cups}"
    );
    // The money list keeps its column and total.
    let money = sheet.split("公开组奖杯").next().unwrap();
    assert!(
        money.contains("奖金(元)") && money.contains("合计 800元"),
        "{money}"
    );
    // Full ID and phone numbers only with `--show-private`.
    let ids: Vec<String> = (0..6).map(|i| id(i * 2 + 1)).collect();
    let plain = q(&ev, &["--format", "csv", "prizes"]);
    assert!(!plain.contains("身份证号") && !ids.iter().any(|i| plain.contains(i.as_str())));
    let private = q(&ev, &["--show-private", "--format", "csv", "prizes"]);
    assert!(
        private.contains("身份证号") && private.contains("电话"),
        "{private}"
    );
    assert!(
        ids.iter().filter(|i| private.contains(i.as_str())).count() >= 2,
        "{private}"
    );
    assert!(private.contains("1390000000"), "{private}");
    let table = q(&ev, &["--show-private", "prizes"]);
    assert!(ids.iter().any(|i| table.contains(i.as_str())), "{table}");
}

#[test]
fn workbook_sheets_say_what_they_hold_under_a_merged_centred_title() {
    let (_tmp, ev) = event();
    let out = Command::new(crate::common::BIN)
        .args(["--event", p(&ev), "--format", "xlsx", "prizes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(out.stdout)).unwrap();
    let names = book.sheet_names();
    assert!(names.iter().any(|n| n == "公开组 获奖名单"), "{names:?}");
    assert!(
        names.iter().any(|n| n == "公开组奖杯 获奖名单"),
        "{names:?}"
    );
    let merged = book.merge_cells_by_sheet_name("公开组 获奖名单").unwrap();
    assert!(
        merged
            .iter()
            .any(|d| d.start == (0, 0) && d.end.0 == 0 && d.end.1 > 0),
        "{merged:?}"
    );
}
