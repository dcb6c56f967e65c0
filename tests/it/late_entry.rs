//! Entries into groups merged away or cancelled (docs/rules.md §6 "Group sizes"): a late entry for a merged group joins the pool its group went to and
//! is paired there, following a chain of merges; an entry into a cancelled group, the
//! reinstatement of one of its players and its merge are refused; `check` and `pair` name
//! a player a state leaves in a group that no longer pairs. Also the merge and cancel
//! wording: a second merge, and cancelling a merged group.

use crate::common::{Run, event_from, p, snapshot};
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// 成人组 `a` (no minimum), 少儿组 `c` (min 6, merged into `a` by the rulebook), 女子组 `d`
/// (min 6, nowhere to merge), and 青年组 `b` for a chain.
const RULES: &str = r#"[event]
name = "合并测试"
language = "zh"
rounds = 3
[[groups]]
id = "a"
name = "成人组"
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
"#;

const SHEET: &str = "姓名,性别,单位,组别\n甲一,男,U1,成人组\n甲二,男,U2,成人组\n甲三,男,U3,成人组\n甲四,男,U4,成人组\n青一,男,U1,青年组\n青二,男,U2,青年组\n乙一,男,U1,少儿组\n乙二,男,U2,少儿组\n女一,女,U1,女子组\n女二,女,U2,女子组\n";

fn event() -> (TempDir, PathBuf) {
    let tmp = TempDir::new().unwrap();
    let ev = event_from(tmp.path(), RULES, SHEET);
    (tmp, ev)
}

fn sheet(dir: &Path, name: &str, rows: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, format!("姓名,性别,单位,组别\n{rows}")).unwrap();
    path
}

fn add(ev: &Path, name: &str, group: &str) -> Run {
    Run::on_event(
        ev,
        &[
            "player", "add", "--name", name, "--gender", "男", "--unit", "U9", "--group", group,
        ],
    )
}

/// `player add` and `import` for 少儿组 after `group merge c a` go to 成人组 with a line
/// saying so, and are paired in round 1 like everyone there.
#[test]
fn an_entry_for_a_merged_group_joins_the_pool_it_went_to_and_is_paired() {
    let (tmp, ev) = event();
    Run::on_event(&ev, &["group", "merge", "c", "a"]).check();
    add(&ev, "丁一", "少儿组")
        .stdout_has("少儿组已并入成人组：丁一编入成人组")
        .check();
    let late = sheet(tmp.path(), "late.csv", "丙一,男,U5,少儿组\n");
    Run::on_event(&ev, &["import", p(&late)])
        .stdout_has("少儿组已并入成人组：丙一编入成人组")
        .stdout_has("成人组：8")
        .check();
    Run::on_event(&ev, &["players", "--group", "成人组"])
        .stdout_has("丙一")
        .stdout_has("丁一")
        .check();
    Run::on_event(&ev, &["pair", "--group", "成人组", "--seed", "1"])
        .stdout_has("丙一")
        .stdout_has("丁一")
        .check();
    Run::on_event(&ev, &["check"])
        .stdout_has("未发现违规")
        .check();
}

/// Correcting a merged player's unit before round 1 keeps them in the pool they were
/// merged into (the edit used to send them back to 少儿组, which is never paired).
#[test]
fn editing_a_merged_player_keeps_them_in_the_merged_pool() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "merge", "c", "a"]).check();
    Run::on_event(&ev, &["player", "edit", "乙一", "--unit", "U8"]).check();
    Run::on_event(&ev, &["pair", "--group", "成人组", "--seed", "1"])
        .stdout_has("乙一")
        .check();
}

/// 少儿组 into 成人组, then 成人组 into 青年组: an entry for either ends in 青年组.
#[test]
fn a_chain_of_merges_is_followed_to_its_end() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "merge", "c", "a"]).check();
    Run::on_event(&ev, &["group", "merge", "a", "b", "--force"]).check();
    add(&ev, "丁一", "少儿组")
        .stdout_has("少儿组已并入青年组：丁一编入青年组")
        .check();
    add(&ev, "戊一", "成人组")
        .stdout_has("成人组已并入青年组：戊一编入青年组")
        .check();
    Run::on_event(&ev, &["pair", "--group", "青年组", "--seed", "1"])
        .stdout_has("丁一")
        .stdout_has("戊一")
        .check();
}

/// After `group cancel d`: an entry into 女子组 (typed or imported) and the reinstatement of
/// one of its players are refused, naming the cancellation and changing nothing; so is
/// merging it. Entered in another group first, she is reinstated and paired.
#[test]
fn a_cancelled_group_takes_no_entry_no_reinstatement_and_no_merge() {
    let (tmp, ev) = event();
    Run::on_event(&ev, &["group", "cancel", "d"]).check();
    let before = snapshot(&ev);
    Run::on_event(
        &ev,
        &[
            "player",
            "add",
            "--name",
            "女三",
            "--gender",
            "女",
            "--unit",
            "U9",
            "--group",
            "女子组",
        ],
    )
    .status(3)
    .stderr_has("女子组已取消，不再接受报名：女三")
    .check();
    let late = sheet(
        tmp.path(),
        "w.csv",
        "女四,女,U5,女子组\n女五,女,U6,女子组\n",
    );
    Run::on_event(&ev, &["import", p(&late)])
        .status(3)
        .stderr_has("w.csv:2：`组别` 列：女子组已取消，不再接受报名：请为女四改报其他组别")
        .stderr_has("w.csv:3：`组别` 列：女子组已取消，不再接受报名：请为女五改报其他组别")
        .stderr_has("未导入任何棋手")
        .check();
    Run::on_event(&ev, &["player", "reinstate", "女一"])
        .status(3)
        .stderr_has("女一 所在的女子组已取消")
        .check();
    Run::on_event(&ev, &["group", "merge", "d", "a", "--force"])
        .status(3)
        .stderr_has("女子组已取消，其棋手已退赛：不能再合并")
        .check();
    Run::on_event(&ev, &["group", "merge", "c", "d", "--force"])
        .status(3)
        .stderr_has("女子组已取消")
        .check();
    assert_eq!(before, snapshot(&ev), "a refusal changes nothing");
    // A typo in a withdrawn player of the cancelled group can still be corrected.
    Run::on_event(&ev, &["player", "edit", "女二", "--unit", "U7"]).check();
    Run::on_event(&ev, &["player", "edit", "女一", "--group", "成人组"]).check();
    Run::on_event(&ev, &["player", "reinstate", "女一"]).check();
    // 少儿组 (short, merged into 成人组 by the rulebook) is merged before 成人组's round 1.
    Run::on_event(&ev, &["group", "merge", "少儿组", "成人组"]).check();
    Run::on_event(&ev, &["pair", "--group", "成人组", "--seed", "1"])
        .stdout_has("女一")
        .check();
}

/// 少儿组 merged into 成人组 and 女子组 cancelled, then the state edited as an older
/// version (or a hand) could leave it: 乙一 (7) back in 少儿组, 女一 (9) active in 女子组.
fn strand(ev: &Path) {
    Run::on_event(ev, &["group", "merge", "c", "a"]).check();
    Run::on_event(ev, &["group", "cancel", "d"]).check();
    let path = ev.join("qiwang.json");
    let mut state: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    for player in state["players"].as_array_mut().unwrap() {
        match player["name"].as_str() {
            Some("乙一") => {
                player["group"] = "c".into();
                player["section"] = serde_json::Value::Null;
            }
            Some("女一") => player["status"] = serde_json::json!({ "status": "active" }),
            _ => {}
        }
    }
    fs::write(&path, serde_json::to_string_pretty(&state).unwrap()).unwrap();
}

/// A state made by an older version (or by hand) that leaves an active player in a group
/// merged away, or in a cancelled one: `check` names them and fails, `pair --all` warns.
#[test]
fn check_and_pair_name_a_player_left_in_a_group_that_no_longer_pairs() {
    let (_tmp, ev) = event();
    strand(&ev);
    Run::on_event(&ev, &["check"])
        .status(3)
        .stdout_has("乙一（7）登记在少儿组，但少儿组已并入成人组")
        .stdout_has("qiwang player edit 7 --group 成人组")
        .stdout_has("女一（9）登记在已取消的女子组")
        .stderr_has("有 2 名棋手登记在不再编排的组别")
        .check();
    Run::on_event(&ev, &["pair", "--all", "--seed", "1"])
        .stderr_has("注意：不会被编排：乙一（7）")
        .stderr_has("注意：不会被编排：女一（9）")
        .check();
}

/// `check --group` covers the players of the pool checked as the arbiter means it: a
/// player stranded in 少儿组, merged into 成人组, is named by the check of 成人组 (it
/// named nobody), and `--group 少儿组` says the group pairs in 成人组 now and checks
/// that; a cancelled group's check names who was left in it, and another pool's nobody.
#[test]
fn check_of_one_group_names_the_players_stranded_in_the_groups_merged_into_it() {
    let (_tmp, ev) = event();
    strand(&ev);
    for named in ["成人组", "a"] {
        Run::on_event(&ev, &["check", "--group", named])
            .status(3)
            .stdout_has("未编排：乙一（7）登记在少儿组，但少儿组已并入成人组")
            .stdout_lacks("女一")
            .stderr_has("有 1 名棋手登记在不再编排的组别")
            .stderr_lacks("注意")
            .check();
    }
    Run::on_event(&ev, &["check", "--group", "少儿组"])
        .status(3)
        .stdout_has("乙一（7）")
        .stderr_has("注意：少儿组已并入成人组，在成人组中编排：检查的是成人组")
        .check();
    Run::on_event_in("en", &ev, &["check", "--group", "c"])
        .status(3)
        .stderr_has("note: 少儿组 was merged into 成人组 and pairs there: checking 成人组")
        .check();
    Run::on_event(&ev, &["check", "--group", "女子组"])
        .status(3)
        .stdout_has("女一（9）登记在已取消的女子组")
        .stdout_lacks("乙一")
        .stderr_has("注意：女子组已取消，不再编排：只列出其中未退赛的棋手")
        .check();
    Run::on_event(&ev, &["check", "--group", "青年组"])
        .stdout_lacks("乙一")
        .stdout_lacks("女一")
        .stderr_empty()
        .check();
}

/// A second merge says it is done, naming groups; cancelling a merged group
/// says it was merged; the minimum's hint fills in the rulebook's `merge_into`; `group
/// sizes` says where a merged group went.
#[test]
fn merge_and_cancel_say_what_was_done_by_name() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["pair", "--all", "--dry-run", "--seed", "1"])
        .stdout_has("qiwang group merge c a")
        .stdout_lacks("qiwang group merge c INTO")
        .check();
    Run::on_event(&ev, &["group", "merge", "c", "a"]).check();
    Run::on_event(&ev, &["group", "merge", "c", "a"])
        .status(3)
        .stderr_has("少儿组已并入成人组，无需再合并")
        .stderr_lacks("请合并到")
        .check();
    Run::on_event(&ev, &["group", "cancel", "c"])
        .status(3)
        .stderr_has("少儿组已并入成人组，不能再取消")
        .stderr_lacks("qiwang group merge c a")
        .check();
    Run::on_event(&ev, &["group", "sizes"])
        .stdout_has("少儿组：0（已并入成人组）")
        .check();
}

/// Players moved into 成人组 after its round 1 — 青一 from 青年组, not yet paired, and 女一
/// of the cancelled 女子组, then reinstated — join it as late entries: paired from round 2,
/// not counted by `check` as players of round 1 left without a table.
#[test]
fn players_moved_into_a_pool_after_round_1_join_it_from_round_2() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "merge", "c", "a"]).check();
    Run::on_event(&ev, &["group", "cancel", "d"]).check();
    Run::on_event(&ev, &["pair", "--group", "成人组", "--seed", "1"]).check();
    Run::on_event(
        &ev,
        &["result", "--group", "成人组", "1", "r", "2", "r", "3", "r"],
    )
    .check();
    Run::on_event(&ev, &["player", "edit", "青一", "--group", "成人组"]).check();
    Run::on_event(&ev, &["player", "edit", "女一", "--group", "成人组"]).check();
    Run::on_event(&ev, &["player", "reinstate", "女一"])
        .stdout_has("自第2轮起")
        .check();
    Run::on_event(&ev, &["check"])
        .stdout_has("未发现违规")
        .check();
    Run::on_event(&ev, &["pair", "--group", "成人组"])
        .stdout_has("青一")
        .stdout_has("女一")
        .check();
}

/// A short group the rulebook merges into a pool holds that pool's round 1 until it is
/// merged or cancelled (docs/rules.md §6): `pair --all` once paired 成人组 and exited 0
/// while 少儿组 waited, and from then on the merge its message advised was refused.
#[test]
fn a_pool_waits_for_the_short_group_the_rulebook_merges_into_it() {
    let (_tmp, ev) = event();
    // Only 成人组 and 少儿组 matter here: 青年组 and 女子组 are settled first.
    Run::on_event(&ev, &["group", "cancel", "女子组"])
        .status(0)
        .check();
    Run::on_event(&ev, &["group", "merge", "青年组", "成人组", "--force"])
        .status(0)
        .check();
    // Neither pool can go: 成人组 waits for 少儿组, which is short; nothing is written.
    let before = snapshot(&ev);
    Run::on_event(&ev, &["pair", "--all", "--seed", "1"])
        .status(3)
        .stdout_empty()
        .stderr_has("少儿组只有 2 名棋手，不足最低人数 6，按规程并入成人组")
        .stderr_has("`qiwang group merge c a`")
        .check();
    Run::on_event(&ev, &["pair", "--group", "成人组", "--seed", "1"])
        .status(3)
        .stdout_empty()
        .stderr_has("成人组第 1 轮编排之后就不能再合并")
        .check();
    assert_eq!(snapshot(&ev), before, "a refused pair writes nothing");
    // Merged as advised, the pool pairs everyone.
    Run::on_event(&ev, &["group", "merge", "少儿组", "成人组"])
        .status(0)
        .check();
    Run::on_event(&ev, &["pair", "--all", "--seed", "1"])
        .status(0)
        .stdout_has("乙一")
        .stdout_has("乙二")
        .check();
}

/// `--allow-small` pairs the pool all the same, as it pairs a short pool.
#[test]
fn allow_small_pairs_a_pool_whose_short_group_is_not_merged() {
    let (_tmp, ev) = event();
    Run::on_event(
        &ev,
        &["pair", "--group", "成人组", "--seed", "1", "--allow-small"],
    )
    .status(0)
    .stdout_has("甲一")
    .check();
}
