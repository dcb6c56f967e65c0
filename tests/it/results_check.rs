//! Issue 42 §1: a results file (or a command line) may only record results for the games
//! it names. The slips file's 红方/黑方 must be the players of each row's table in their
//! colours, a file printed for a pairing since re-made is refused by its 编排码, names,
//! 序号 and ID tails are checked, a file naming players but no table is matched by them,
//! and a hand-typed file without names still works by table. Every refusal leaves the
//! event as it was.

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

use crate::common::{BIN, Out, event_with, p, root, run, snapshot};

/// `qiwang --event EV ARGS` (Chinese, as the Jinhua rulebook says).
fn qw(ev: &Path, args: &[&str]) -> Out {
    let mut all = vec!["--event", p(ev)];
    all.extend_from_slice(args);
    run(ev.parent().expect("parent"), &all)
}

/// The Jinhua example with round 1 of 青少年组 paired (seed 7: twelve games).
fn paired() -> (TempDir, PathBuf) {
    let (tmp, ev) = event_with(
        &root("rules/jinhua-2018.toml"),
        Some(&root("examples/jinhua-2018/registrations.csv")),
    );
    qw(&ev, &["pair", "--group", "青少年组", "--seed", "7"]).ok();
    (tmp, ev)
}

/// The slips file of the newest round (`round --sheet slips --format csv`): the header and
/// the rows, cells split (the example's names hold no commas).
fn slips(ev: &Path) -> (String, Vec<Vec<String>>) {
    let csv = qw(ev, &["--format", "csv", "round", "--sheet", "slips"]).ok();
    let mut lines = csv.trim_start_matches('\u{feff}').lines();
    let header = lines.next().expect("a header").to_string();
    let rows = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    (header, rows)
}

/// Writes `header` and `rows` as `name` beside the event; returns its path.
fn write(ev: &Path, name: &str, header: &str, rows: &[Vec<String>]) -> PathBuf {
    let mut text = format!("{header}\n");
    for row in rows {
        text.push_str(&row.join(","));
        text.push('\n');
    }
    let path = ev.parent().unwrap().join(name);
    fs::write(&path, text).unwrap();
    path
}

/// Every row's result set to `outcome`.
fn filled(rows: &[Vec<String>], outcome: &str) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| {
            let mut r = r.clone();
            r[5] = outcome.to_string();
            r
        })
        .collect()
}

/// `result --from FILE`, which must be refused with exit 3 naming `words`, the event
/// untouched. Returns stderr.
fn refused(ev: &Path, file: &Path, words: &[&str]) -> String {
    let before = snapshot(ev);
    let err = qw(ev, &["result", "--from", p(file)]).fails(3, words);
    assert!(
        err.contains("未记录任何成绩") || !err.contains("已记录"),
        "{err}"
    );
    assert_eq!(before, snapshot(ev), "a refused file changed the event");
    err
}

/// Round `round` of 青少年组 as JSON: table → (red name, black name, result token).
fn games(ev: &Path) -> Vec<(u64, String, String, Value)> {
    let json = qw(ev, &["--format", "json", "round", "--group", "青少年组"]).json();
    json["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g.get("table").is_some())
        .map(|g| {
            (
                g["table"].as_u64().unwrap(),
                g["red"]["name"].as_str().unwrap().to_string(),
                g["black"]["name"].as_str().unwrap().to_string(),
                g["result"].clone(),
            )
        })
        .collect()
}

#[test]
fn the_slips_file_carries_names_and_the_pairing_code_on_every_row_and_reads_back() {
    let (_tmp, ev) = paired();
    let (header, rows) = slips(&ev);
    assert_eq!(header, "组别,轮次,台号,红方,黑方,结果,犯规,编排码");
    assert_eq!(rows.len(), 12);
    let code = &rows[0][7];
    assert!(code.starts_with('P') && code.len() == 9, "{code}");
    assert!(rows.iter().all(|r| &r[7] == code));
    // Reprinted, the same code; after results are entered too.
    assert_eq!(slips(&ev).1[0][7], *code);
    let file = write(&ev, "r1.csv", &header, &filled(&rows, "红胜"));
    let out = qw(&ev, &["result", "--from", p(&file)]).ok();
    assert!(out.starts_with("已记录 12 个结果"), "{out}");
    assert_eq!(slips(&ev).1[0][7], *code);
    // English headers read back the same way.
    let en = qw(
        &ev,
        &[
            "--lang", "en", "--format", "csv", "round", "--sheet", "slips",
        ],
    )
    .ok();
    assert!(
        en.starts_with("\u{feff}group,round,table,red,black,result,fouls,pairing\n"),
        "{en}"
    );
}

#[test]
fn a_row_with_another_tables_names_is_refused_with_where_they_play() {
    let (_tmp, ev) = paired();
    let (header, rows) = slips(&ev);
    let mut shifted = filled(&rows, "红胜");
    // Table 11's slip typed on table 12's row.
    shifted[11][3] = rows[10][3].clone();
    shifted[11][4] = rows[10][4].clone();
    let file = write(&ev, "shifted.csv", &header, &shifted);
    let (red11, black11) = (&rows[10][3], &rows[10][4]);
    refused(
        &ev,
        &file,
        &[
            "shifted.csv 第 13 行",
            "第 1 轮第 51 台",
            &format!("写的是 红方 {red11}、黑方 {black11}"),
            &format!("本台是 红方 {}", rows[11][3]),
            &format!("{red11}/{black11} 在第 50 台"),
        ],
    );
    // In English too.
    let err = qw(&ev, &["--lang", "en", "result", "--from", p(&file)]).fails(3, &[]);
    assert!(
        err.contains("shifted.csv line 13: round 1 table 51")
            && err.contains(&format!("{red11}/{black11} play at table 50")),
        "{err}"
    );
}

#[test]
fn a_row_with_red_and_black_swapped_is_refused_not_recorded_the_other_way() {
    let (_tmp, ev) = paired();
    let (header, rows) = slips(&ev);
    let mut swapped = filled(&rows, "红胜");
    swapped[2].swap(3, 4);
    let file = write(&ev, "swapped.csv", &header, &swapped);
    refused(
        &ev,
        &file,
        &["swapped.csv 第 4 行", "第 42 台", "红黑方写反了"],
    );
    // Only one side written, in the other's column: the same.
    let mut one = filled(&rows, "红胜");
    one[2][3] = rows[2][4].clone();
    one[2][4] = String::new();
    let file = write(&ev, "one.csv", &header, &one);
    refused(&ev, &file, &["one.csv 第 4 行", "红黑方写反了"]);
}

#[test]
fn a_row_naming_nobody_of_the_event_or_of_another_group_is_refused() {
    let (_tmp, ev) = paired();
    let (header, rows) = slips(&ev);
    let mut bad = filled(&rows, "和");
    bad[4][4] = "无名氏".into();
    // 于一鸣 plays in 成人组.
    bad[6][3] = "于一鸣".into();
    let file = write(&ev, "nobody.csv", &header, &bad);
    let err = refused(
        &ev,
        &file,
        &[
            "nobody.csv 第 6 行",
            "赛事中没有 无名氏 这名棋手",
            "nobody.csv 第 8 行",
            "于一鸣 是组别 `成人组` 的棋手",
            "2 个问题",
        ],
    );
    assert!(!err.contains("第 7 行"), "{err}");
}

#[test]
fn an_old_file_after_unpair_and_a_new_pair_is_refused_naming_both_pairings() {
    let (_tmp, ev) = paired();
    let (header, rows) = slips(&ev);
    // Round 1 is re-made: a player withdraws before it starts, and it is paired again.
    qw(&ev, &["unpair", "--group", "青少年组"]).ok();
    qw(&ev, &["player", "withdraw", "唐志", "--reason", "生病"]).ok();
    qw(&ev, &["pair", "--group", "青少年组"]).ok();
    let file = write(&ev, "old.csv", &header, &filled(&rows, "红胜"));
    let err = refused(
        &ev,
        &file,
        &["old.csv 第 2–13 行", "重新编排", "--sheet slips"],
    );
    // Both pairings are named.
    let old_code = rows[0][7].clone();
    let new_code = slips(&ev).1[0][7].clone();
    assert_ne!(old_code, new_code);
    assert!(
        err.contains(&format!("`{old_code}`")) && err.contains(&format!("`{new_code}`")),
        "{err}"
    );
    // Without the 编排码 column, the names still refuse it.
    let no_code: Vec<Vec<String>> = filled(&rows, "红胜")
        .into_iter()
        .map(|mut r| {
            r.truncate(7);
            r
        })
        .collect();
    let file = write(
        &ev,
        "old-no-code.csv",
        "组别,轮次,台号,红方,黑方,结果,犯规",
        &no_code,
    );
    refused(&ev, &file, &["old-no-code.csv 第 2 行", "唐志"]);
    // Unpaired and not paired again: the file's round is gone.
    qw(&ev, &["unpair", "--group", "青少年组"]).ok();
    let file = write(&ev, "gone.csv", &header, &filled(&rows, "红胜"));
    refused(
        &ev,
        &file,
        &[
            "gone.csv 第 2–13 行",
            &format!("`{old_code}`"),
            "qiwang unpair",
        ],
    );
}

#[test]
fn a_file_with_names_but_no_table_is_matched_by_the_names() {
    let (_tmp, ev) = paired();
    let (_, rows) = slips(&ev);
    // Rows in reverse order, black wins, no 台号 and no 编排码.
    let by_names: Vec<Vec<String>> = rows
        .iter()
        .rev()
        .map(|r| {
            vec![
                r[0].clone(),
                r[1].clone(),
                r[3].clone(),
                r[4].clone(),
                "黑胜".into(),
            ]
        })
        .collect();
    let mut swapped = by_names.clone();
    swapped[0].swap(2, 3);
    let file = write(&ev, "swapped.csv", "组别,轮次,红方,黑方,结果", &swapped);
    refused(
        &ev,
        &file,
        &["swapped.csv 第 2 行", "红黑方写反了", "第 51 台"],
    );
    let mut unpaired = by_names.clone();
    unpaired[1][3] = rows[0][4].clone();
    let file = write(&ev, "unpaired.csv", "组别,轮次,红方,黑方,结果", &unpaired);
    refused(
        &ev,
        &file,
        &["unpaired.csv 第 3 行", "没有 红方", "在第 40 台执黑方"],
    );
    let file = write(&ev, "names.csv", "组别,轮次,红方,黑方,结果", &by_names);
    qw(&ev, &["result", "--from", p(&file)]).ok();
    for (table, red, black, result) in games(&ev) {
        let row = &rows[table as usize - 40];
        assert_eq!((&red, &black), (&row[3], &row[4]));
        assert_eq!(result, "0-1", "table {table}");
    }
}

#[test]
fn pairing_numbers_and_id_tails_are_checked_in_their_columns() {
    let (_tmp, ev) = paired();
    let json = qw(&ev, &["--format", "json", "round", "--sheet", "slips"]).json();
    let slip =
        |t: usize, side: &str, key: &str| json["slips"][t][side][key].as_str().unwrap().to_string();
    // The example's ID numbers, by name.
    let reg = fs::read_to_string(root("examples/jinhua-2018/registrations.csv")).unwrap();
    let id_of = |name: &str| {
        reg.lines()
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|c| c[1] == name)
            .map(|c| c[6].to_string())
            .unwrap()
    };
    let tail = |name: &str| id_of(name)[14..].to_uppercase();
    let row = |t: usize, red_no: &str, black_no: &str, red_id: &str, black_id: &str| {
        vec![
            "1".to_string(),
            (t + 40).to_string(),
            red_no.to_string(),
            black_no.to_string(),
            red_id.to_string(),
            black_id.to_string(),
            "和".to_string(),
        ]
    };
    let header = "轮次,台号,红方序号,黑方序号,红方证件尾号,黑方证件尾号,结果";
    let (r0, b0) = (slip(0, "red", "name"), slip(0, "black", "name"));
    let b1 = slip(1, "black", "name");
    let good = [
        row(
            0,
            &slip(0, "red", "number"),
            &slip(0, "black", "number"),
            &tail(&r0),
            &tail(&b0),
        ),
        row(1, &slip(1, "red", "number"), "", "", &tail(&b1)),
    ];
    // Table 1's numbers the other way round; table 2's black ID tail is table 3's red's.
    let r2 = slip(2, "red", "name");
    let bad = [
        row(
            0,
            &slip(0, "black", "number"),
            &slip(0, "red", "number"),
            "",
            "",
        ),
        row(1, "", "", "", &tail(&r2)),
        row(2, "x7", "", "", ""),
    ];
    let file = write(&ev, "numbers.csv", header, &bad);
    refused(
        &ev,
        &file,
        &[
            "numbers.csv 第 2 行",
            "红黑方写反了",
            "numbers.csv 第 3 行",
            &format!("是 {r2}("),
            "在第 42 台执红方",
            "numbers.csv 第 4 行：序号 `x7` 不是数字",
        ],
    );
    // A name with its number in brackets, as sheets show players, must fit both.
    let named = [vec![
        "1".to_string(),
        "40".into(),
        format!("{r0}({})", slip(0, "black", "number")),
        b0.clone(),
        "和".into(),
    ]];
    let file = write(&ev, "named.csv", "轮次,台号,红方,黑方,结果", &named);
    refused(&ev, &file, &["named.csv 第 2 行", "赛事中没有"]);
    let file = write(&ev, "good.csv", header, &good);
    let out = qw(&ev, &["result", "--from", p(&file)]).ok();
    assert!(out.starts_with("已记录 2 个结果"), "{out}");
}

#[test]
fn a_hand_typed_file_without_names_still_works_by_table() {
    let (_tmp, ev) = paired();
    let file = ev.parent().unwrap().join("hand.csv");
    fs::write(&file, "轮次,台号,结果\n1,40,红胜\n1,51,和\n").unwrap();
    let out = qw(&ev, &["result", "--from", p(&file)]).ok();
    assert!(out.starts_with("已记录 2 个结果"), "{out}");
    let results: Vec<Value> = games(&ev).into_iter().map(|g| g.3).collect();
    assert_eq!(results[0], "1-0");
    assert_eq!(results[11], "=");
}

#[test]
fn names_typed_on_the_command_line_are_checked_the_same_way() {
    let (_tmp, ev) = paired();
    let (_, rows) = slips(&ev);
    let names = |r: &Vec<String>| format!("{}/{}", r[3], r[4]);
    let before = snapshot(&ev);
    // Table 11's players given for table 12.
    qw(&ev, &["result", "51", "红胜", "--names", &names(&rows[10])])
        .fails(3, &["第 51 台", "在第 50 台"]);
    let swapped = format!("{}/{}", rows[0][4], rows[0][3]);
    qw(&ev, &["result", "40", "红胜", "--names", &swapped]).fails(3, &["红黑方写反了"]);
    qw(&ev, &["result", "40", "红胜", "--names", "无名氏/"]).fails(3, &["赛事中没有 无名氏"]);
    // One `--names` per table, or none.
    qw(
        &ev,
        &[
            "result",
            "40",
            "红胜",
            "41",
            "和",
            "--names",
            &names(&rows[0]),
        ],
    )
    .fails(2, &["--names"]);
    qw(&ev, &["result", "40", "红胜", "--names", "甲乙"]).fails(3, &["RED/BLACK"]);
    assert_eq!(before, snapshot(&ev), "a refused entry changed the event");
    let out = qw(
        &ev,
        &[
            "result",
            "40",
            "红胜",
            "41",
            "和",
            "--names",
            &names(&rows[0]),
            "--names",
            &format!("{}/", rows[1][3]),
        ],
    )
    .ok();
    assert!(out.starts_with("已记录 2 个结果"), "{out}");
}

/// `round --sheet slips --format xlsx`, as bytes.
fn slips_workbook(ev: &Path) -> Vec<u8> {
    let out = Command::new(BIN)
        .args([
            "--event",
            p(ev),
            "--format",
            "xlsx",
            "round",
            "--sheet",
            "slips",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn the_slips_workbook_is_checked_like_the_csv() {
    let (_tmp, ev) = paired();
    let (sheet, cells) = crate::common::first_sheet_cells(&slips_workbook(&ev));
    assert_eq!(sheet, "成绩登记表");
    let header = cells
        .iter()
        .position(|r| r.first().is_some_and(|c| c == "组别"))
        .expect("a header row");
    assert_eq!(cells[header][7], "编排码");
    // The arbiter's copy: results filled in, table 2's names typed on table 1's row.
    let write_book = |shift: bool| {
        let mut wb = rust_xlsxwriter::Workbook::new();
        let ws = wb.add_worksheet();
        for (r, row) in cells.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let mut v = v.clone();
                if r > header && c == 5 {
                    v = "黑胜".into();
                }
                if shift && r == header + 1 && (c == 3 || c == 4) {
                    v = cells[header + 2][c].clone();
                }
                ws.write_string(r as u32, c as u16, &v).unwrap();
            }
        }
        wb.save_to_buffer().unwrap()
    };
    let file = ev.parent().unwrap().join("slips.xlsx");
    fs::write(&file, write_book(true)).unwrap();
    refused(&ev, &file, &["slips.xlsx", "第 40 台", "在第 41 台"]);
    fs::write(&file, write_book(false)).unwrap();
    let out = qw(&ev, &["result", "--from", p(&file)]).ok();
    assert!(out.starts_with("已记录 12 个结果"), "{out}");
    // Only the slips have a workbook.
    qw(&ev, &["--format", "xlsx", "round", "--sheet", "cards"]).fails(2, &["--sheet slips"]);
}

/// A name a spreadsheet would take for a formula is written to the slips with the guard
/// `'` in front (`'=张三`); the slips read back as they were written, the guard dropped.
#[test]
fn slips_with_formula_guarded_names_read_back() {
    let (_tmp, ev) = crate::common::small_event(&["=张三", "+李四", "@王五", "-赵六"]);
    qw(&ev, &["pair", "--seed", "1"]).ok();
    let (header, rows) = slips(&ev);
    assert!(
        rows.iter()
            .any(|r| r[3].starts_with("'=") || r[4].starts_with("'=")),
        "{rows:?}"
    );
    let file = write(&ev, "r1.csv", &header, &filled(&rows, "红胜"));
    let out = qw(&ev, &["result", "--from", p(&file)]).ok();
    assert!(out.contains("已记录 2 个结果"), "{out}");
}

/// Slips read back while games are still on: rows whose result is empty are left out
/// and counted, not a refusal of the file; a file with no result at all says so. A result
/// cell holding fouls (`和/1:0`) or a date Excel made of `1-0` is refused with the fix.
#[test]
fn rows_without_a_result_are_left_for_later_and_mistyped_cells_say_why() {
    let (_tmp, ev) = paired();
    let (header, rows) = slips(&ev);
    let mut half = filled(&rows, "红胜");
    for r in half.iter_mut().skip(8) {
        r[5].clear();
    }
    let file = write(&ev, "half.csv", &header, &half);
    let out = qw(&ev, &["result", "--from", p(&file)]).ok();
    assert!(out.starts_with("已记录 8 个结果"), "{out}");
    assert!(
        out.contains("结果为空的 4 行未录入（第 10–13 行）"),
        "{out}"
    );
    let none = write(&ev, "none.csv", &header, &filled(&rows, ""));
    refused(&ev, &none, &["没有结果", "结果为空的行不录入"]);
    let mut fouls = filled(&rows, "");
    fouls[9][5] = "和/1:0".into();
    let file = write(&ev, "fouls.csv", &header, &fouls);
    refused(&ev, &file, &["犯规次数写在犯规列"]);
    fouls[9][5] = "2026-01-01".into();
    let file = write(&ev, "date.csv", &header, &fouls);
    refused(&ev, &file, &["Excel 把 `1-0` 之类的结果改成了日期"]);
}
