//! Warnings and penalties (issue 43 item 4): a warning without a point loss (警告) is
//! recorded and shows on the player's record; whether a penalty may take 积分 below zero,
//! and what a negative 积分 gives an opponent's 对手分, are rulebook keys.

use crate::common::{Run, event_from, rules_plus, small_event};
use serde_json::Value;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// What `qiwang --event EV ARGS` prints on standard output, after failing the test unless
/// it succeeded with nothing on standard error.
#[track_caller]
fn printed(ev: &Path, args: &[&str]) -> String {
    Run::on_event(ev, args).stderr_empty().check().stdout
}

/// [`printed`] read as JSON.
#[track_caller]
fn json_of(ev: &Path, args: &[&str]) -> Value {
    Run::on_event(ev, args).stderr_empty().check().json()
}

/// A refusal of `qiwang --event EV ARGS`: exit status 3 (invalid input), nothing on
/// standard output, `words` on standard error.
#[track_caller]
fn refused(ev: &Path, args: &[&str], words: &str) {
    Run::on_event(ev, args)
        .status(3)
        .stdout_empty()
        .stderr_has(words)
        .check();
}

/// 甲 and 乙, one unit each.
const TWO: &str = "姓名,性别,单位\n甲,男,一\n乙,男,二\n";

/// An event of the CXA rulebook with `conduct` (a `[conduct]` table) added, of `sheet`'s
/// players.
fn conduct_event(conduct: &str, sheet: &str) -> (TempDir, PathBuf) {
    let tmp = TempDir::new().unwrap();
    let ev = event_from(tmp.path(), &rules_plus("cxa-2011", conduct), sheet);
    (tmp, ev)
}

#[test]
fn a_warning_is_recorded_on_the_players_record_without_a_point_loss() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    printed(&ev, &["pair", "--seed", "1"]);
    printed(&ev, &["result", "1", "r", "2", "r"]);
    let before: Value = json_of(&ev, &["--format", "json", "standings"]);
    Run::on_event(&ev, &["warn", "1", "--reason", "对局中讲话"])
        .stdout_has("已警告")
        .stdout_has("不扣分")
        .stderr_empty()
        .check();
    let after: Value = json_of(&ev, &["--format", "json", "standings"]);
    let score = |v: &Value| {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["player"] == 1)
            .map(|r| r["score"].clone())
            .unwrap()
    };
    assert_eq!(score(&before), score(&after), "no points deducted");
    for shown in ["standings", "players"] {
        Run::on_event(&ev, &[shown])
            .stdout_has("警告1次")
            .stderr_empty()
            .check();
    }
    Run::on_event(&ev, &["log"])
        .stdout_has("警告棋手")
        .stdout_has("不扣分")
        .stderr_empty()
        .check();
    refused(&ev, &["warn", "1", "--reason", " "], "--reason");
    refused(&ev, &["warn", "99", "--reason", "x"], "`99`");
    // A rulebook without prize lists says so, instead of an empty choice.
    refused(&ev, &["standings", "--list", "girls"], "没有设奖项名单");
}

/// 甲 loses round 1 and is penalised 2: with `penalty_below_zero = false` 积分 stops at 0,
/// and with `negative_opp_score_as_zero` the opponent's 对手分 takes 0 from a negative.
#[test]
fn whether_a_penalty_goes_below_zero_is_a_key_and_so_is_its_opp_score() {
    let run_with = |conduct: &str| {
        let (tmp, ev) = conduct_event(&format!("[conduct]\n{conduct}"), TWO);
        printed(&ev, &["pair", "--seed", "1"]);
        let round: Value = json_of(&ev, &["--format", "json", "round"]);
        // 甲 loses, whichever colour they have.
        let red_is_jia = round["pairings"][0]["red"]["name"] == "甲";
        printed(&ev, &["result", "1", if red_is_jia { "b" } else { "r" }]);
        printed(&ev, &["penalty", "甲", "2", "--reason", "扰乱赛场"]);
        let st: Value = json_of(&ev, &["--format", "json", "standings"]);
        let row = |name: &str| {
            st["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["name"] == name)
                .cloned()
                .unwrap()
        };
        let opp = |r: &Value| {
            r["tiebreaks"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["key"] == "opp_score")
                .map(|t| t["value"].clone())
                .unwrap()
        };
        let (jia, yi) = (row("甲"), row("乙"));
        let shown = printed(&ev, &["rules", "show"]);
        (jia["score"].clone(), opp(&yi), shown, tmp)
    };
    let (score, opp, shown, _t) = run_with("");
    assert_eq!((score, opp), (Value::from(-2), Value::from(-2)));
    assert!(
        shown.contains("penalty_below_zero = true")
            && shown.contains("negative_opp_score_as_zero = false"),
        "{shown}"
    );
    let (score, _, _, _t) = run_with("penalty_below_zero = false");
    assert_eq!(score, Value::from(0));
    let (score, opp, _, _t) = run_with("negative_opp_score_as_zero = true");
    assert_eq!((score, opp), (Value::from(-2), Value::from(0)));
}

/// Pairing groups by the 积分 standings show: with `penalty_below_zero = false` a loser
/// penalised 2 stays in the 0-point group (no float to pair them), with the default they
/// drop to −2 and must be paired with a player from the group above.
#[test]
fn pairing_groups_by_the_floored_score_standings_show() {
    let explain = |below_zero: bool| {
        let (_tmp, ev) = conduct_event(
            &format!("[conduct]\npenalty_below_zero = {below_zero}"),
            "姓名,性别,单位\n甲,男,一\n乙,男,二\n丙,男,三\n丁,男,四\n戊,男,五\n己,男,六\n",
        );
        printed(&ev, &["pair", "--seed", "1"]);
        let round: Value = json_of(&ev, &["--format", "json", "round"]);
        // Red wins every game; the black player of table 1 is then penalised 2.
        printed(&ev, &["result", "1", "r", "2", "r", "3", "r"]);
        let loser = round["pairings"][0]["black"]["name"]
            .as_str()
            .unwrap()
            .to_owned();
        printed(&ev, &["penalty", &loser, "2", "--reason", "扰乱赛场"]);
        let out = printed(&ev, &["pair", "--explain"]);
        let next: Value = json_of(&ev, &["--format", "json", "round"]);
        let shown = next["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| [&t["red"], &t["black"]])
            .find(|s| s["name"] == loser.as_str())
            .map(|s| s["score"].clone())
            .unwrap();
        (out, shown)
    };
    let (floored, shown) = explain(false);
    assert_eq!(shown, Value::from(0));
    assert!(!floored.contains("-2分"), "{floored}");
    assert_eq!(
        floored.matches("须有一人与近分者编对").count(),
        1,
        "{floored}"
    );
    let (below, shown) = explain(true);
    assert_eq!(shown, Value::from(-2));
    assert!(below.contains("（-2分）"), "{below}");
    assert_eq!(below.matches("须有一人与近分者编对").count(), 2, "{below}");
}

/// A forfeit for lateness reads as the rulebook counts it: 红迟到判负 under
/// `late_result = "loss"` (迟到10分钟判负), 红弃权（迟到） under the default, on the result
/// line and the pairing sheet alike.
#[test]
fn a_late_loss_reads_as_the_rulebook_words_it() {
    for (setting, words) in [
        ("late_result = \"loss\"", "红迟到判负"),
        ("late_result = \"forfeit\"", "红弃权（迟到）"),
    ] {
        let (_tmp, ev) = conduct_event(&format!("[conduct]\n{setting}"), TWO);
        printed(&ev, &["pair", "--seed", "1"]);
        println!("{setting}");
        for args in [&["result", "1", "红迟到"][..], &["round"]] {
            Run::on_event(&ev, args)
                .stdout_has(words)
                .stderr_empty()
                .check();
        }
    }
}
