//! The 场地 (hall) column of a results file (docs/rules.md §12 (table numbers)): 二楼's
//! table 1 is not the main hall's, so a row's hall is read, checked against its group,
//! used to find its game without 组别, and tables are told apart per hall. Found by an
//! outside tester; each refusal names the file, line and column, and leaves the event as
//! it was.

use crate::common::{BIN, event_from, first_sheet_cells, p, run, snapshot};
use serde_json::Value;
use std::fs;
use std::path::Path;
use tempfile::TempDir;

/// 成人组 in the main hall (4 players: tables 1–2), 少儿组 in 二楼 (4: tables 1–2 there),
/// 老年组 cancelled.
const RULES: &str = r#"
[event]
name = "场地测试赛"
language = "zh"
rounds = 3

[[groups]]
id = "a"
name = "成人组"

[[groups]]
id = "b"
name = "少儿组"
hall = "二楼"

[[groups]]
id = "c"
name = "老年组"
hall = "三楼"
"#;

fn event() -> TempDir {
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path();
    let mut csv = String::from("姓名,组别\n");
    for group in ["成人组", "少儿组"] {
        for i in 1..=4 {
            csv.push_str(&format!("{group}{i},{group}\n"));
        }
    }
    event_from(dir, RULES, &csv);
    run(dir, &["--event", "ev", "group", "cancel", "c", "--force"]).ok();
    run(dir, &["--event", "ev", "pair", "--all"]).ok();
    tmp
}

/// Which tables of round 1 of pool `group` have a result.
fn results(dir: &Path, group: &str) -> Vec<(u64, bool)> {
    let state: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("ev/qiwang.json")).unwrap()).unwrap();
    state["groups"][group]["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| Some((g["table"].as_u64()?, !g["result"].is_null())))
        .collect()
}

/// `result --from r.csv` with `text` (and `extra` arguments), refused with exit 3, its
/// message holding every word; the event untouched.
fn refused(dir: &Path, text: &str, extra: &[&str], words: &[&str]) -> String {
    fs::write(dir.join("r.csv"), text).unwrap();
    let before = snapshot(&dir.join("ev"));
    let mut args = vec!["--event", "ev", "result", "--from", "r.csv"];
    args.extend_from_slice(extra);
    let err = run(dir, &args).fails(3, words);
    assert_eq!(before, snapshot(&dir.join("ev")));
    err
}

/// `result --from r.csv` with `text`, which must be taken; what it printed.
fn taken(dir: &Path, text: &str) -> String {
    fs::write(dir.join("r.csv"), text).unwrap();
    run(dir, &["--event", "ev", "result", "--from", "r.csv"]).ok()
}

/// A row's 场地 must be its group's hall (it was recorded into 成人组's main-hall table).
#[test]
fn a_rows_hall_must_be_its_groups() {
    let tmp = event();
    let dir = tmp.path();
    // 成人组 plays in the main hall: its row cannot be 二楼's table 1.
    refused(
        dir,
        "组别,轮次,场地,台号,结果\n成人组,1,二楼,1,黑胜\n",
        &[],
        &["r.csv 第 2 行", "场地一栏", "二楼", "成人组", "主赛场"],
    );
    // Nor may 少儿组's row say the main hall, written or left empty.
    for cell in ["", "主赛场"] {
        refused(
            dir,
            &format!("组别,轮次,场地,台号,结果\n少儿组,1,{cell},1,黑胜\n"),
            &[],
            &["r.csv 第 2 行", "场地一栏", "少儿组", "在 二楼 比赛"],
        );
    }
}

/// A hall no pool stands in (老年组's 三楼 is cancelled) is refused, naming the halls there
/// are.
#[test]
fn a_hall_no_group_plays_in_is_refused() {
    let tmp = event();
    let dir = tmp.path();
    let err = refused(
        dir,
        "组别,轮次,场地,台号,结果\n少儿组,1,三楼,1,黑胜\n",
        &[],
        &["r.csv 第 2 行", "场地一栏", "`三楼`", "主赛场", "二楼"],
    );
    assert!(!err.contains("三楼，") && !err.contains("、三楼"), "{err}");
    let err = refused(
        dir,
        "group,round,hall,table,result\n少儿组,1,三楼,1,b\n",
        &["--lang", "en"],
        &["r.csv line 2", "hall cell", "`三楼`", "main hall", "二楼"],
    );
    assert!(!err.contains('第'), "{err}");
}

/// `--group 成人组` takes no row of 二楼 (it recorded it into 成人组's table 1); the hall
/// as the group's, in any accepted spelling, is taken.
#[test]
fn a_chosen_group_takes_no_row_of_another_hall() {
    let tmp = event();
    let dir = tmp.path();
    // `--group 成人组` takes no row of 二楼.
    refused(
        dir,
        "轮次,场地,台号,结果\n1,二楼,1,黑胜\n",
        &["--group", "a"],
        &["r.csv 第 2 行", "场地一栏", "二楼", "成人组", "--group"],
    );
    assert_eq!(results(dir, "a"), [(1, false), (2, false)]);
    // The hall as the group's, in any accepted spelling, is taken.
    taken(
        dir,
        "组别,轮次,hall,台号,结果\n成人组,1,main hall,1,黑胜\n少儿组,1,二楼,2,红胜\n",
    );
    assert_eq!(results(dir, "a"), [(1, true), (2, false)]);
    assert_eq!(results(dir, "b"), [(1, false), (2, true)]);
}

/// Without 组别, a row is found by its hall and table, a hall's tables being numbered on
/// in one sequence (the file was refused, asking for a 组别 column).
#[test]
fn without_a_group_column_a_row_is_found_by_its_hall_and_table() {
    let tmp = event();
    let dir = tmp.path();
    let out = taken(dir, "轮次,场地,台号,结果\n1,二楼,1,黑胜\n1,二楼,2,和\n");
    assert!(out.contains("少儿组") && !out.contains("成人组"), "{out}");
    assert_eq!(results(dir, "a"), [(1, false), (2, false)]);
    assert_eq!(results(dir, "b"), [(1, true), (2, true)]);
    // A table the hall does not have in the round is named, as without the column.
    refused(
        dir,
        "轮次,场地,台号,结果\n1,二楼,3,黑胜\n",
        &[],
        &["r.csv 第 2 行", "第 1 轮没有第 3 台"],
    );
}

/// Table 1 of 二楼 and table 1 of the main hall are two boards (the file was refused as
/// giving table 1 twice); a table is given once per hall.
#[test]
fn the_same_number_in_two_halls_is_two_boards() {
    let tmp = event();
    let dir = tmp.path();
    let out = taken(
        dir,
        "轮次,场地,台号,结果\n1,二楼,1,黑胜\n1,,1,红胜\n1,二楼,2,和\n",
    );
    assert!(out.contains("成人组") && out.contains("少儿组"), "{out}");
    assert_eq!(results(dir, "a"), [(1, true), (2, false)]);
    assert_eq!(results(dir, "b"), [(1, true), (2, true)]);
    // Once per hall: 二楼's table 1 twice is refused, naming the hall.
    refused(
        dir,
        "轮次,场地,台号,结果\n1,二楼,1,黑胜\n1,,1,红胜\n1,二楼,1,和\n",
        &[],
        &["r.csv 第 4 行", "第 1 轮二楼 第 1 台在第 2 行已经出现"],
    );
}

/// The slips file qiwang writes for the whole round reads back as it was, in CSV and as a
/// workbook: each row's hall is its group's.
#[test]
fn the_slips_file_with_its_hall_column_reads_back() {
    let tmp = event();
    let dir = tmp.path();
    let slips = run(
        dir,
        &[
            "--event", "ev", "--format", "csv", "round", "--sheet", "slips",
        ],
    )
    .ok();
    let mut lines = slips.trim_start_matches('\u{feff}').lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[2..4], ["场地", "台号"]);
    let outcome = header.iter().position(|h| *h == "结果").unwrap();
    let mut text = header.join(",") + "\n";
    for line in lines {
        let mut cells: Vec<&str> = line.split(',').collect();
        cells[outcome] = "和";
        text.push_str(&(cells.join(",") + "\n"));
    }
    fs::write(dir.join("slips.csv"), &text).unwrap();
    let out = run(dir, &["--event", "ev", "result", "--from", "slips.csv"]).ok();
    assert!(out.contains("4"), "{out}");
    assert_eq!(results(dir, "a"), [(1, true), (2, true)]);
    assert_eq!(results(dir, "b"), [(1, true), (2, true)]);

    // The workbook, in a fresh event.
    let tmp = event();
    let dir = tmp.path();
    let book = std::process::Command::new(BIN)
        .current_dir(dir)
        .args([
            "--event", "ev", "--format", "xlsx", "round", "--sheet", "slips",
        ])
        .output()
        .unwrap();
    assert!(book.status.success());
    let (_, cells) = first_sheet_cells(&book.stdout);
    let head = cells
        .iter()
        .position(|r| r.first().is_some_and(|c| c == "组别"))
        .unwrap();
    assert_eq!(cells[head][2], "场地");
    let outcome = cells[head].iter().position(|h| h == "结果").unwrap();
    let mut out = rust_xlsxwriter::Workbook::new();
    let ws = out.add_worksheet();
    for (r, row) in cells.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            let v = if r > head && c == outcome {
                "红胜"
            } else {
                v
            };
            ws.write_string(r as u32, c as u16, v).unwrap();
        }
    }
    fs::write(dir.join("slips.xlsx"), out.save_to_buffer().unwrap()).unwrap();
    run(
        dir,
        &[
            "--event",
            "ev",
            "result",
            "--from",
            p(&dir.join("slips.xlsx")),
        ],
    )
    .ok();
    assert_eq!(results(dir, "a"), [(1, true), (2, true)]);
    assert_eq!(results(dir, "b"), [(1, true), (2, true)]);
}
