//! What a group that never played is given (docs/rules.md §6 "Group sizes", §7.3, §7.5):
//! a cancelled group, and a pool before any result is entered, place nobody — no place in
//! the standings or the published site, no prize, title or certificate, and a cancelled
//! group's money is not counted in the sheet's totals. They used to rank every player 1=
//! and share the list's money and title among players withdrawn before round 1.

use crate::common::{Run, event_from, p, table_rows};
use std::fs;
use std::path::PathBuf;
use tempfile::TempDir;

/// 成人组 `a` (4 players, one round, 300 + 200元) and 女子组 `d` (min 6, nowhere to merge:
/// cancelled in the tests), whose list pays 500元 with the title 女子冠军 and 300元.
const RULES: &str = r#"[event]
name = "取消测试"
language = "zh"
rounds = 1
[[groups]]
id = "a"
name = "成人组"
[[groups]]
id = "d"
name = "女子组"
min_size = 6

[[prizes.lists]]
id = "a"
name = "成人组"
group = "a"
places = [ { place = 1, money = 300, title = "冠军" }, { place = 2, money = 200 } ]

[[prizes.lists]]
id = "d"
name = "女子组"
group = "d"
places = [ { place = 1, money = 500, title = "女子冠军" }, { place = 2, money = 300 } ]
"#;

const SHEET: &str = "姓名,性别,单位,组别\n甲一,男,U1,成人组\n甲二,男,U2,成人组\n甲三,男,U3,成人组\n甲四,男,U4,成人组\n女一,女,U1,女子组\n女二,女,U2,女子组\n";

fn event() -> (TempDir, PathBuf) {
    let tmp = TempDir::new().unwrap();
    let ev = event_from(tmp.path(), RULES, SHEET);
    (tmp, ev)
}

/// The place `standings --group GROUP --format csv` gives the player `name` ("—": none).
fn place_of(ev: &std::path::Path, group: &str, name: &str) -> String {
    let out = Run::on_event(ev, &["standings", "--group", group, "--format", "csv"])
        .check()
        .stdout;
    out.lines()
        .find(|l| l.split(',').nth(2) == Some(name))
        .and_then(|l| l.split(',').next())
        .map(|c| c.trim_start_matches('\u{feff}').to_string())
        .unwrap_or_else(|| panic!("{name} not in the standings:\n{out}"))
}

/// 女子组 cancelled, 成人组's one round played: 女一 and 女二 take no place, no money and no
/// title; the sheet says the group was cancelled and its 800元 are in no total; the site's
/// standings page shows no place; certificates print 成人组's and name 女子组 as cancelled,
/// not as unfinished, and `--list d` refuses saying so.
#[test]
fn a_cancelled_group_places_nobody_and_pays_nothing() {
    let (tmp, ev) = event();
    Run::on_event(&ev, &["group", "cancel", "d"]).check();
    Run::on_event(&ev, &["pair", "--all", "--seed", "1"]).check();
    Run::on_event(&ev, &["result", "--group", "成人组", "1", "r", "2", "d"]).check();

    Run::on_event(&ev, &["standings", "--group", "女子组"])
        .stdout_has("女子组 已取消")
        .stdout_lacks("尚未开赛")
        .check();
    assert_eq!(place_of(&ev, "女子组", "女一"), "—");
    assert_eq!(place_of(&ev, "女子组", "女二"), "—");
    // The CSV has no subtitle: each row says why it has no place; the JSON has a flag.
    Run::on_event(&ev, &["standings", "--group", "女子组", "--format", "csv"])
        .stdout_has("组别已取消")
        .check();
    Run::on_event(&ev, &["standings", "--group", "成人组", "--format", "csv"])
        .stdout_lacks("组别已取消")
        .check();
    // A workbook names each sheet by its group, not by the cancelled group's sentence cut
    // at 31 characters (`女子组 已取消（`qiwang group cancel`）：`).
    for (args, want) in [
        (
            &["standings"][..],
            &["成人组 成绩排名", "女子组 成绩排名"][..],
        ),
        (
            &["standings", "--group", "女子组"][..],
            &["女子组 成绩排名"][..],
        ),
    ] {
        let mut argv = args.to_vec();
        argv.extend(["--format", "xlsx"]);
        let out = crate::common::qiwang_zh(&ev, &argv);
        assert!(out.status.success(), "{args:?}");
        let book =
            calamine::open_workbook_auto_from_rs(std::io::Cursor::new(&out.stdout[..])).unwrap();
        assert_eq!(calamine::Reader::sheet_names(&book), want, "{args:?}");
    }
    for (group, flag) in [("女子组", true), ("成人组", false)] {
        let out = Run::on_event(&ev, &["standings", "--group", group, "--format", "json"])
            .check()
            .stdout;
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["cancelled"], flag, "{group}: {out}");
    }

    let sheet = Run::on_event(&ev, &["prizes"])
        .stdout_has("该组已取消（`qiwang group cancel`）：不评名次，不发奖")
        .stdout_lacks("女子冠军")
        .stdout_lacks("女一")
        .stdout_lacks("成绩未完")
        .check()
        .stdout;
    // 成人组 pays 300 + 200 (or the split of a shared place): 500元 in all, nothing of 女子组's.
    let grand = sheet.split("奖金总计").nth(1).expect("a grand total");
    assert!(grand.contains("合计 500元"), "{sheet}");
    assert!(
        !grand.contains("预算"),
        "no budget beyond the paid money: {sheet}"
    );
    let csv = Run::on_event(&ev, &["prizes", "--format", "csv"])
        .check()
        .stdout;
    assert!(!csv.contains("女一") && !csv.contains("女二"), "{csv}");

    let site = tmp.path().join("site");
    Run::on_event(&ev, &["export", "--out", p(&site)]).check();
    let page = fs::read_to_string(site.join("d/standings.html")).unwrap();
    assert!(page.contains("已取消"), "{page}");
    assert!(!page.contains("data-label=\"名次\">1"), "{page}");

    Run::on_event(&ev, &["certificates"])
        .stdout_has("甲")
        .stderr_has("组别已取消，不评名次，不印奖状：女子组")
        .stderr_lacks("成绩未完")
        .check();
    Run::on_event(&ev, &["certificates", "--list", "d"])
        .status(3)
        .stdout_empty()
        .stderr_has("女子组 所在组别已取消")
        .check();
}

/// A pool with players all withdrawn before round 1 (never paired, never cancelled) and a
/// pool paired with no result yet: nobody is placed and nobody is paid, the sheet says the
/// pool has not started or is in progress.
#[test]
fn a_pool_without_a_result_places_nobody() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "cancel", "d"]).check();
    for name in ["甲一", "甲二", "甲三", "甲四"] {
        Run::on_event(&ev, &["player", "withdraw", name, "--reason", "弃权"]).check();
    }
    let rows = table_rows(
        &Run::on_event(&ev, &["standings", "--group", "成人组"])
            .stdout_has("成人组 尚未开赛")
            .check()
            .stdout,
    );
    assert!(
        !rows
            .iter()
            .any(|r| r.first().is_some_and(|c| c.starts_with('1'))),
        "nobody placed: {rows:?}"
    );
    Run::on_event(&ev, &["prizes"])
        .stdout_has("尚未开赛（共1轮）：暂无名次")
        .stdout_lacks("冠军")
        .stdout_lacks("甲一")
        .check();

    // Paired, no result yet: still nobody placed; the first result places them.
    for name in ["甲一", "甲二", "甲三", "甲四"] {
        Run::on_event(&ev, &["player", "reinstate", name]).check();
    }
    Run::on_event(&ev, &["pair", "--group", "成人组", "--seed", "1"]).check();
    assert_eq!(place_of(&ev, "成人组", "甲一"), "—");
    Run::on_event(&ev, &["prizes"]).stdout_lacks("甲一").check();
    Run::on_event(&ev, &["result", "--group", "成人组", "1", "d"]).check();
    assert_ne!(place_of(&ev, "成人组", "甲一"), "—");
}
