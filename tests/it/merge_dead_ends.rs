//! What is left to do with a group after a merge or a cancellation (docs/rules.md §6
//! "Group sizes", §13): a rulebook update after a merge, a short group whose `merge_into`
//! can no longer be followed, `check`'s advice for a player left in a group that no longer
//! pairs, and the messages about merged, cancelled and empty groups. Each test follows
//! the advice qiwang gives to a state `check` accepts, or shows that no advice loops back
//! to a refused command.

use crate::common::{Run, event_from};
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// 成人组 `a` (min 4), 少儿组 `b` (min 4, merged into `a` by the rulebook, with its own
/// prize list), 女子组 `c` (min 4) and 老年组 `d` (min 4).
const RULES: &str = r#"[event]
name = "合并测试"
language = "zh"
rounds = 3
[[groups]]
id = "a"
name = "成人组"
min_size = 4
[[groups]]
id = "b"
name = "少儿组"
min_size = 4
merge_into = "a"
[[groups]]
id = "c"
name = "女子组"
min_size = 4
[[groups]]
id = "d"
name = "老年组"
min_size = 4
[[prizes.lists]]
id = "b"
name = "少儿组"
group = "b"
places = [ { place = 1, money = 100 }, { place = 2, money = 50 } ]
"#;

/// 成人组 6, 少儿组 3 (short), 女子组 2 (short), 老年组 4.
const SHEET: &str = "姓名,性别,单位,组别\n\
甲一,男,U1,成人组\n甲二,男,U2,成人组\n甲三,男,U3,成人组\n甲四,男,U4,成人组\n甲五,男,U5,成人组\n甲六,男,U6,成人组\n\
乙一,男,U1,少儿组\n乙二,男,U2,少儿组\n乙三,男,U3,少儿组\n\
女一,女,U1,女子组\n女二,女,U2,女子组\n\
老一,男,U1,老年组\n老二,男,U2,老年组\n老三,男,U3,老年组\n老四,男,U4,老年组\n";

fn event() -> (TempDir, PathBuf) {
    let tmp = TempDir::new().unwrap();
    let ev = event_from(tmp.path(), RULES, SHEET);
    (tmp, ev)
}

/// `RULES` with `from` replaced by `to`, written beside the event.
fn rules_with(ev: &Path, from: &str, to: &str) -> PathBuf {
    assert!(RULES.contains(from), "{from}");
    let path = ev.parent().unwrap().join("rules-new.toml");
    fs::write(&path, RULES.replace(from, to)).unwrap();
    path
}

/// After `group merge b a` and before round 1 — when a merged group's prize list is
/// adjusted (docs/rules.md §6) — a rulebook that keeps 少儿组's `merge_into` is accepted:
/// the merge moved its players to 成人组, which is no contradiction. It was refused,
/// advising `player edit` to move them, which would have taken them out of 少儿组's list.
#[test]
fn a_rulebook_update_after_a_merge_is_not_taken_for_a_moved_group() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "merge", "b", "a"]).check();
    let new = rules_with(&ev, "money = 100", "money = 120");
    Run::on_event(&ev, &["rules", "update", new.to_str().unwrap()])
        .stdout_has("money = 120")
        .stderr_lacks("player edit")
        .check();
    // The merged players keep their label, so 少儿组's list still ranks them.
    Run::on_event(&ev, &["players", "--format", "json"])
        .stdout_has("\"section\": \"b\"")
        .check();
}

/// `pair --all --dry-run`'s line for a pool, which must hold `has` and lack `lacks`.
fn pair_advice(ev: &Path, has: &str, lacks: &str) {
    Run::on_event(ev, &["pair", "--all", "--dry-run", "--seed", "1"])
        .status(3)
        .stderr_has(has)
        .stderr_lacks(lacks)
        .check();
}

/// 成人组, the pool 少儿组's `merge_into` names, is cancelled: the merge can no longer be
/// made, so the advice names what can be done (cancel 少儿组, merge it elsewhere with
/// `--force`, `--allow-small`) and `group cancel b` is accepted. Every message used to
/// point to `group merge b a`, which is refused, and `group cancel b` (even `--force`)
/// was refused for the `merge_into`.
#[test]
fn a_short_group_whose_target_was_cancelled_can_be_cancelled() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "cancel", "c"]).check();
    Run::on_event(&ev, &["group", "merge", "d", "a", "--force"]).check();
    Run::on_event(&ev, &["group", "cancel", "a", "--force"]).check();
    pair_advice(
        &ev,
        "规程规定它并入的成人组已取消",
        "qiwang group merge b a",
    );
    Run::on_event(&ev, &["group", "merge", "b", "a"])
        .status(3)
        .stderr_has("成人组已取消，不能再并入")
        .stderr_has("qiwang group cancel b")
        .stderr_lacks("player reinstate")
        .check();
    Run::on_event(&ev, &["group", "cancel", "b"])
        .stdout_has("已取消少儿组，3 名棋手退赛")
        .check();
}

/// The same, and 少儿组 merged elsewhere: the rulebook's target is gone, so that is the
/// organisers' decision, made with `--force` (the refusal says so, not "merge into 成人组").
#[test]
fn a_short_group_whose_target_was_cancelled_is_merged_elsewhere_with_force() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "cancel", "a", "--force"]).check();
    Run::on_event(&ev, &["group", "merge", "b", "d"])
        .status(3)
        .stderr_has("规程规定组别 `少儿组` 人数不足时并入的成人组已取消")
        .stderr_has("改并入组别 `老年组`")
        .stderr_has("--force")
        .stderr_lacks("请合并到 `a`")
        .check();
    Run::on_event(&ev, &["group", "merge", "b", "d", "--force"]).check();
    Run::on_event(&ev, &["group", "sizes"])
        .stdout_has("少儿组：0（已并入老年组）")
        .check();
}

/// 成人组 paired with `--allow-small` (the docs' way not to wait for 少儿组): 少儿组 can no
/// longer be merged there, and is cancelled as advised. The advice was the refused merge
/// again, and the cancellation was refused.
#[test]
fn a_short_group_whose_target_was_paired_can_be_cancelled() {
    let (_tmp, ev) = event();
    Run::on_event(
        &ev,
        &["pair", "--group", "成人组", "--allow-small", "--seed", "1"],
    )
    .check();
    Run::on_event(&ev, &["pair", "--all", "--dry-run", "--seed", "1"])
        .stdout_has("规程规定它并入的成人组已编排 1 轮，不能再合并")
        .stdout_has("qiwang group cancel b")
        .stdout_lacks("qiwang group merge b a")
        .check();
    Run::on_event(&ev, &["group", "merge", "b", "a"])
        .status(3)
        .stderr_has("qiwang group cancel b")
        .check();
    Run::on_event(&ev, &["group", "cancel", "b", "--force"])
        .stdout_has("已取消少儿组")
        .check();
}

/// 成人组 merged into 老年组: 少儿组's `merge_into = "a"` now leads to 老年组, where 成人组's
/// players went. Merging it there follows the rulebook (no `--force`), and 老年组 waits for
/// it as 成人组 would have. `group merge b a`'s refusal said "merge into 老年组 instead",
/// which was then refused for want of `--force`.
#[test]
fn merge_into_follows_its_target_along_a_merge() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "merge", "a", "d", "--force"]).check();
    Run::on_event(&ev, &["pair", "--group", "老年组", "--seed", "1"])
        .status(3)
        .stderr_has("按规程并入老年组")
        .stderr_has("`qiwang group merge b d`")
        .check();
    Run::on_event(&ev, &["group", "merge", "b", "a"])
        .status(3)
        .stderr_has("请改为合并到老年组")
        .check();
    Run::on_event(&ev, &["group", "merge", "b", "d"]).check();
    Run::on_event(&ev, &["group", "cancel", "c"]).check();
    Run::on_event(&ev, &["pair", "--all", "--seed", "1"])
        .stdout_has("乙一")
        .check();
}

/// A state (an older version, a hand edit) that leaves 乙一, paired in 成人组, registered in
/// the merged 少儿组, and 老一, paired in 老年组, in the cancelled 女子组: `check` advises
/// `player edit … --group`, and following it leads to a state `check` accepts — the players
/// keep the rounds they played. The edit made them late entries, so `check` then failed
/// for ever ("withdrawn or not yet joined, but paired").
#[test]
fn checks_advice_for_a_stranded_player_keeps_their_rounds() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "merge", "b", "a"]).check();
    Run::on_event(&ev, &["group", "cancel", "c"]).check();
    Run::on_event(&ev, &["pair", "--all", "--seed", "1"]).check();
    let path = ev.join("qiwang.json");
    let mut state: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let mut ids = Vec::new();
    for player in state["players"].as_array_mut().unwrap() {
        let moved = match player["name"].as_str() {
            Some("乙一") => "b",
            Some("老一") => "c",
            _ => continue,
        };
        player["group"] = moved.into();
        player["section"] = serde_json::Value::Null;
        ids.push(player["id"].as_u64().unwrap().to_string());
    }
    fs::write(&path, serde_json::to_string_pretty(&state).unwrap()).unwrap();
    let advice = format!("qiwang player edit {} --group 成人组", ids[0]);
    Run::on_event(&ev, &["check"])
        .status(3)
        .stdout_has(&advice)
        .stdout_has(&format!("qiwang player edit {} --group GROUP", ids[1]))
        .check();
    Run::on_event(&ev, &["player", "edit", &ids[0], "--group", "成人组"]).check();
    Run::on_event(&ev, &["player", "edit", &ids[1], "--group", "老年组"]).check();
    Run::on_event(&ev, &["check"])
        .stdout_has("成人组: 1 轮，未发现违规")
        .stdout_has("老年组: 1 轮，未发现违规")
        .stdout_lacks("尚未加入")
        .check();
}

/// Messages about a cancelled or merged group say so: `round` and `result` of the
/// cancelled 女子组 say it is cancelled (not "no group paired yet" / "pair round 1
/// first"), `--group` is asked for among the pools that still pair (not the merged 少儿组
/// or the cancelled 女子组), and moving a registered player into 女子组 says the player
/// stays where they are (not "not registered").
#[test]
fn messages_say_a_group_is_cancelled_or_merged() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "merge", "b", "a"]).check();
    Run::on_event(&ev, &["group", "cancel", "c"]).check();
    Run::on_event(&ev, &["pair", "--all", "--seed", "1"]).check();
    for args in [
        &["round", "--group", "女子组"][..],
        &["result", "--group", "女子组", "1", "r"][..],
    ] {
        Run::on_event(&ev, args)
            .status(3)
            .stderr_has("女子组已取消，不编排")
            .stderr_lacks("请先")
            .check();
    }
    Run::on_event(&ev, &["crosstable", "--format", "xlsx"])
        .status(2)
        .stderr_has("请用 `--group` 选择：`成人组`、`老年组`")
        .stderr_lacks("少儿组")
        .check();
    Run::on_event(&ev, &["player", "edit", "老一", "--group", "女子组"])
        .status(3)
        .stderr_has("女子组已取消，不再接受报名：老一 仍在原组别")
        .stderr_lacks("未登记")
        .check();
}

/// A group nobody entered holds nothing: 成人组 (4 players, its minimum) is paired
/// although 少儿组, whose `merge_into` names it, is empty. It waited for a merge of 0
/// players.
#[test]
fn an_empty_group_does_not_hold_the_pool_it_merges_into() {
    let tmp = TempDir::new().unwrap();
    let ev = event_from(
        tmp.path(),
        RULES,
        "姓名,性别,单位,组别\n甲一,男,U1,成人组\n甲二,男,U2,成人组\n甲三,男,U3,成人组\n甲四,男,U4,成人组\n",
    );
    Run::on_event(&ev, &["pair", "--all", "--seed", "1"])
        .stdout_has("甲一")
        .stdout_lacks("qiwang group merge b a")
        .check();
}

/// A warning or penalty without a reason is refused saying what the reason is for: the
/// log, not the standings (README "What is public"). A warning was refused as a 罚分 whose
/// reason "is shown in the standings".
#[test]
fn a_reason_is_asked_for_as_the_log_uses_it() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["warn", "甲一", "--reason", ""])
        .status(3)
        .stderr_has("警告需要写明原因")
        .stderr_lacks("罚分需要")
        .stderr_lacks("会显示在成绩表中")
        .check();
    Run::on_event(&ev, &["penalty", "甲一", "1", "--reason", " "])
        .status(3)
        .stderr_has("成绩表只显示「罚分」，不显示原因")
        .check();
}

/// A refusal names a group as the regulation does (成人组), not by its rulebook id.
#[test]
fn a_paired_players_move_names_the_group() {
    let (_tmp, ev) = event();
    Run::on_event(&ev, &["group", "merge", "b", "a"]).check();
    Run::on_event(&ev, &["pair", "--group", "成人组", "--seed", "1"]).check();
    Run::on_event(&ev, &["player", "edit", "甲一", "--group", "老年组"])
        .status(3)
        .stderr_has("`甲一` 已在组别 `成人组` 中编排")
        .check();
}

/// The find-your-table list names two players of one name with their unit, so each finds
/// their own line (they were two identical lines but for the table).
#[test]
fn find_your_table_tells_namesakes_apart_by_unit() {
    let tmp = TempDir::new().unwrap();
    let ev = event_from(
        tmp.path(),
        RULES,
        "姓名,性别,单位,组别\n钱一,男,甲队,老年组\n钱一,男,乙队,老年组\n老三,男,U3,老年组\n老四,男,U4,老年组\n",
    );
    Run::on_event(&ev, &["pair", "--group", "老年组", "--seed", "1"]).check();
    let out = Run::on_event(&ev, &["round", "--sheet", "find", "--format", "csv"]).check();
    let rows: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("钱一"))
        .collect();
    assert_eq!(rows.len(), 2, "{}", out.stdout);
    for unit in ["甲队", "乙队"] {
        let row = format!("钱一（{unit}）,老年组,");
        assert!(rows.iter().any(|r| r.starts_with(&row)), "{}", out.stdout);
    }
}
