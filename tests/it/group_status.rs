//! What each group is after merges and cancellations, as the organiser reads it: `group
//! sizes` says whether a group pairs on its own, plays in a pool as a section, was merged
//! (the chain of merges followed to its end) or cancelled, in every format.

use crate::common::{Run, event_from};
use std::path::PathBuf;
use tempfile::TempDir;

/// 成人组 `a` with its section 本地组 `s`, 青年组 `b`, and three groups with a minimum of 6:
/// 少儿组 `c` (merged into `a` by the rulebook), 女子组 `d` and 老年组 `e`.
const RULES: &str = r#"[event]
name = "状态测试"
language = "zh"
rounds = 3
[[groups]]
id = "a"
name = "成人组"
[[groups]]
id = "s"
name = "本地组"
pairs_with = "a"
[[groups]]
id = "b"
name = "青年组"
[[groups]]
id = "c"
name = "少儿组"
min_size = 6
merge_into = "a"
[[groups]]
id = "d"
name = "女子组"
min_size = 6
[[groups]]
id = "e"
name = "老年组"
min_size = 6
"#;

const SHEET: &str = "姓名,性别,单位,组别\n甲一,男,U1,成人组\n甲二,男,U2,成人组\n本一,男,U3,本地组\n青一,男,U1,青年组\n青二,男,U2,青年组\n乙一,男,U1,少儿组\n乙二,男,U2,少儿组\n女一,女,U1,女子组\n女二,女,U2,女子组\n老一,男,U1,老年组\n";

/// The event after 少儿组 → 成人组 → 青年组 (a chain), 老年组 → 女子组, and 女子组
/// cancelled.
fn merged_and_cancelled() -> (TempDir, PathBuf) {
    let tmp = TempDir::new().unwrap();
    let ev = event_from(tmp.path(), RULES, SHEET);
    Run::on_event(&ev, &["group", "merge", "c", "a"]).check();
    Run::on_event(&ev, &["group", "merge", "a", "b", "--force"]).check();
    Run::on_event(&ev, &["group", "merge", "e", "d", "--force"]).check();
    Run::on_event(&ev, &["group", "cancel", "d"]).check();
    (tmp, ev)
}

/// The table's lines say where a group went, the chain followed to its end; a pool that
/// pairs on its own is a plain count, as before.
#[test]
fn group_sizes_lines_say_what_each_group_is_now() {
    let (_tmp, ev) = merged_and_cancelled();
    Run::on_event(&ev, &["group", "sizes"])
        .stdout_is(
            "成人组：0（已并入青年组）\n本地组：1（在青年组中编排）\n青年组：7\n少儿组：0（已并入青年组）\n女子组：0（已取消）\n老年组：0（已并入女子组，女子组已取消）\n",
        )
        .stderr_empty()
        .check();
    Run::on_event_in("en", &ev, &["group", "sizes"])
        .stdout_has("少儿组 (c): 0 (merged into 青年组)\n")
        .stdout_has("本地组 (s): 1 (plays in 青年组)\n")
        .stdout_has("青年组 (b): 7\n")
        .stdout_has("老年组 (e): 0 (merged into 女子组, which was cancelled)\n")
        .check();
}

/// `--format json` gives each group's status, where it pairs now and the pool it was
/// merged into (the end of the chain).
#[test]
fn group_sizes_json_has_status_pairs_in_and_merged_into() {
    let (_tmp, ev) = merged_and_cancelled();
    let out = Run::on_event(&ev, &["group", "sizes", "--format", "json"])
        .stderr_empty()
        .check()
        .stdout;
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let got: Vec<(String, String, serde_json::Value, serde_json::Value)> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["group"].as_str().unwrap().to_string(),
                g["status"].as_str().unwrap().to_string(),
                g["pairs_in"].clone(),
                g["merged_into"].clone(),
            )
        })
        .collect();
    let row = |g: &str, status: &str, pairs_in: Option<&str>, merged: Option<&str>| {
        (
            g.to_string(),
            status.to_string(),
            serde_json::json!(pairs_in),
            serde_json::json!(merged),
        )
    };
    assert_eq!(
        got,
        vec![
            row("a", "merged", Some("b"), Some("b")),
            row("s", "section", Some("b"), None),
            row("b", "pairs", Some("b"), None),
            row("c", "merged", Some("b"), Some("b")),
            row("d", "cancelled", None, None),
            row("e", "cancelled", None, Some("d")),
        ]
    );
}

/// CSV and HTML carry a status column, every group's row said.
#[test]
fn group_sizes_csv_and_html_have_a_status_column() {
    let (_tmp, ev) = merged_and_cancelled();
    Run::on_event(&ev, &["group", "sizes", "--format", "csv"])
        .stdout_has("组别,id,人数,最低人数,状态\n")
        .stdout_has("成人组,a,0,,已并入青年组\n")
        .stdout_has("本地组,s,1,,在青年组中编排\n")
        .stdout_has("青年组,b,7,,自行编排\n")
        .stdout_has("女子组,d,0,6,已取消\n")
        .check();
    Run::on_event_in("en", &ev, &["group", "sizes", "--format", "csv"])
        .stdout_has("group,id,players,minimum,status\n")
        .stdout_has("青年组,b,7,,pairs on its own\n")
        .stdout_has("少儿组,c,0,6,merged into 青年组\n")
        .check();
    Run::on_event(&ev, &["group", "sizes", "--format", "html"])
        .stdout_has("<th>状态</th>")
        .stdout_has("<td>已并入青年组</td>")
        .stdout_has("<td>自行编排</td>")
        .stdout_has("<td>已并入女子组，女子组已取消</td>")
        .check();
}

/// The count an import prints per pool is the players who will play, as `group sizes`
/// counts them: a cancelled pool's withdrawn players are said apart, not counted, and so
/// is a player withdrawn before round 1. The summary used to count them all.
#[test]
fn the_import_summary_counts_the_players_who_will_play() {
    let tmp = TempDir::new().unwrap();
    let ev = event_from(tmp.path(), RULES, SHEET);
    Run::on_event(&ev, &["group", "cancel", "d"]).check();
    Run::on_event(&ev, &["player", "withdraw", "甲二"]).check();
    let more = tmp.path().join("more.csv");
    std::fs::write(&more, "姓名,性别,单位,组别\n甲三,男,U3,成人组\n").unwrap();
    Run::on_event(&ev, &["import", crate::common::p(&more)])
        .stdout_has("已导入 1 名棋手\n")
        .stdout_has("  成人组：3（另有 1 名棋手已退赛）\n")
        .stdout_has("  青年组：2\n")
        .stdout_has("  女子组：0（已取消，2 名棋手退赛）\n")
        .stdout_lacks("女子组：2")
        .check();
    Run::on_event(&ev, &["group", "sizes"])
        .stdout_has("成人组：3\n")
        .stdout_has("女子组：0（已取消）\n")
        .check();
    let again = tmp.path().join("again.csv");
    std::fs::write(&again, "姓名,性别,单位,组别\n青三,男,U3,青年组\n").unwrap();
    Run::on_event_in("en", &ev, &["import", crate::common::p(&again)])
        .stdout_has("  成人组: 3 (and 1 withdrawn)\n")
        .stdout_has("  青年组: 3\n")
        .stdout_has("  女子组: 0 (cancelled, 2 withdrawn)\n")
        .check();
}

/// An import refused for rows entering a cancelled group (or one merged into a cancelled
/// group) names each row's line, as any refused row is named, with what to do; nothing is
/// imported, by the import or its dry run. It used to name the players alone.
#[test]
fn an_import_refused_for_a_cancelled_group_names_each_row() {
    let (tmp, ev) = merged_and_cancelled();
    let before = crate::common::snapshot(&ev);
    let late = tmp.path().join("late.csv");
    std::fs::write(
        &late,
        "姓名,性别,单位,组别\n丙一,男,U5,成人组\n女四,女,U5,女子组\n老二,男,U6,老年组\n",
    )
    .unwrap();
    let at = |line: u32| format!("late.csv:{line}");
    Run::on_event(&ev, &["import", crate::common::p(&late)])
        .status(3)
        .stdout_empty()
        .stderr_has(&format!(
            "{}：`组别` 列：女子组已取消，不再接受报名：请为女四改报其他组别",
            at(3)
        ))
        .stderr_has(&format!(
            "{}：`组别` 列：老年组已并入女子组，而女子组已取消，不再接受报名：请为老二改报其他组别",
            at(4)
        ))
        .stderr_lacks(&at(2))
        .stderr_has("未导入任何棋手，赛事未改变")
        .check();
    Run::on_event_in("en", &ev, &["import", "--dry-run", crate::common::p(&late)])
        .status(3)
        .stderr_has(&format!(
            "{}: column `组别`: 女子组 has been cancelled and takes no entries: enter 女四 in another group",
            at(3)
        ))
        .stderr_has(&format!(
            "{}: column `组别`: 老年组 was merged into 女子组, which has been cancelled and takes no entries",
            at(4)
        ))
        .stderr_has("nothing was imported.")
        .check();
    assert_eq!(
        before,
        crate::common::snapshot(&ev),
        "a refusal changes nothing"
    );
}
