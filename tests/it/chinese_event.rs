//! No English in a Chinese event (issue 43, item 12; item 4's `group cancel --force`): what
//! an arbiter running a Chinese event reads, from `init` to `pair --all` after the last
//! round, is Chinese (a rulebook key may stand in brackets), and the Chinese spellings an
//! arbiter types are accepted where the English ones are.

use std::path::Path;
use std::process::Command;

use crate::common::{self, BIN, Out, p, root, small_event};

/// `qiwang ARGS` in `cwd` with no user in the environment (no `$QIWANG_USER`, `$USER`,
/// `$LOGNAME` or `$USERNAME`), as under a service account.
fn run_without_user(cwd: &Path, args: &[&str]) -> Out {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .env_remove("QIWANG_USER")
        .env_remove("USER")
        .env_remove("LOGNAME")
        .env_remove("USERNAME")
        .env_remove("QIWANG_EVENT")
        .env_remove("COLUMNS")
        .output()
        .expect("the qiwang binary runs");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A result corrected, undone and redone: `log`, `undo` and `redo` write the results as
/// the sheets do (红胜, 黑胜/0:1), and a user the environment did not name as 未知.
#[test]
fn log_undo_and_redo_word_results_and_users_in_chinese() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    let run = |args: &[&str]| {
        let mut all = vec!["--event", p(&ev)];
        all.extend_from_slice(args);
        run_without_user(ev.parent().unwrap(), &all)
    };
    run(&["pair", "--seed", "1"]).ok();
    run(&["result", "1", "红胜", "2", "和"]).ok();
    run(&["result", "1", "黑胜/0:1"]).ok();
    let correction = "第 1 轮第 1 台：已将 `红胜` 更正为 `黑胜/0:1`";
    let undo = run(&["undo"]).ok();
    assert!(undo.contains(correction), "{undo}");
    let redo = run(&["redo"]).ok();
    assert!(redo.contains(correction), "{redo}");
    let log = run(&["log"]).ok();
    assert!(log.contains(correction), "{log}");
    assert!(log.contains("┆ 未知 "), "{log}");
    for english in ["unknown", "`1-0`", "`0-1`", "`=`"] {
        for (what, text) in [("undo", &undo), ("redo", &redo), ("log", &log)] {
            assert!(!text.contains(english), "{what} shows `{english}`:\n{text}");
        }
    }
    // English keeps the tokens `result` reads in English, and the marker.
    let en = run(&["--lang", "en", "log"]).ok();
    assert!(en.contains("corrected `1-0` → `0-1/0:1`"), "{en}");
    assert!(en.contains("┆ unknown "), "{en}");
}

/// `group cancel` on a group that is not below a minimum (CXA 2011 sets none) changes
/// nothing and says why; `--force` cancels it.
#[test]
fn cancelling_a_group_not_below_its_minimum_needs_force() {
    let (tmp, ev) = small_event(&["甲", "乙", "丙"]);
    let before = common::snapshot(&ev);
    let err = common::run(tmp.path(), &["--event", p(&ev), "group", "cancel", "open"]).fails(
        3,
        &[
            "公开组",
            "3 名棋手",
            "最低人数",
            "`qiwang group cancel open --force`",
        ],
    );
    assert!(err.starts_with("错误："), "{err}");
    assert_eq!(common::snapshot(&ev), before, "nothing changed");
    let out = common::run(
        tmp.path(),
        &["--event", p(&ev), "group", "cancel", "open", "--force"],
    )
    .ok();
    assert!(out.contains("已取消公开组，3 名棋手退赛"), "{out}");
}

/// `rules show` names the tiebreaks as the regulation does (对手分, 累进分, 直胜), the keys in
/// a comment, and the Chinese names read back; `rules check` writes Chinese punctuation.
#[test]
fn rules_show_and_check_speak_the_regulations_words() {
    let tmp = tempfile::TempDir::new().unwrap();
    let text = std::fs::read_to_string(root("rules/jinhua-2018.toml"))
        .unwrap()
        .replace(
            "tiebreaks = [\"对手分\", \"胜局\", \"犯规\", \"后走局数\"]",
            "tiebreaks = [\"progressive\", \"direct_encounter\", \"wins\"]",
        );
    let rules = tmp.path().join("rules.toml");
    std::fs::write(&rules, text).unwrap();
    let shown = common::run(tmp.path(), &["rules", "show", p(&rules)]).ok();
    assert!(
        shown.contains(
            "tiebreaks = [\"累进分\", \"直胜\", \"胜局\"]  # 键名：progressive、direct_encounter、wins"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("tiebreaks = [\"个人最好名次\", \"抽签\"]"),
        "{shown}"
    );
    // What `rules show` writes is a rulebook that reads back.
    let again = tmp.path().join("shown.toml");
    std::fs::write(&again, &shown).unwrap();
    let reread = common::run(tmp.path(), &["rules", "show", p(&again)]).ok();
    assert_eq!(reread, shown);
    let en = common::run(tmp.path(), &["--lang", "en", "rules", "show", p(&rules)]).ok();
    assert!(
        en.contains("tiebreaks = [\"progressive\", \"direct_encounter\", \"wins\"]\n"),
        "{en}"
    );
    let checked = common::run(tmp.path(), &["rules", "check", p(&rules)]).ok();
    assert!(
        checked.ends_with("规则有效 — 5 个组别，4 个编排组，7 个奖项名单\n"),
        "{checked}"
    );
}

/// `round --sheet` takes the sheets' Chinese names; `player edit --disabled` takes 是/否,
/// and both are listed in the Chinese help and usage errors.
#[test]
fn sheet_names_and_yes_no_are_accepted_in_chinese() {
    let (tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    let run = |args: &[&str]| {
        let mut all = vec!["--event", p(&ev)];
        all.extend_from_slice(args);
        common::run(tmp.path(), &all)
    };
    run(&["pair", "--seed", "1"]).ok();
    for (zh, en) in [
        ("对阵表", "pairings"),
        ("成绩登记表", "slips"),
        ("台签", "cards"),
        ("找座位", "find"),
        ("总表", "wall"),
    ] {
        assert_eq!(
            run(&["round", "--sheet", zh]).ok(),
            run(&["round", "--sheet", en]).ok(),
            "--sheet {zh}"
        );
    }
    let help = run(&["round", "--help"]).ok();
    assert!(
        help.contains("对阵表、成绩登记表、台签、找座位（按拼音排序的找座位表）或总表"),
        "{help}"
    );
    assert!(!help.contains("默认：pairings"), "{help}");
    run(&["round", "--sheet", "座位"]).fails(2, &["可选：对阵表（pairings）、成绩登记表（slips）"]);

    run(&["player", "edit", "甲", "--disabled", "是", "--local", "否"]).ok();
    let players = run(&["--show-private", "players", "--format", "json"]).json();
    let first = &players["players"][0];
    assert_eq!(first["disabled"], true, "{players}");
    run(&["player", "edit", "甲", "--disabled", "否"]).ok();
    let players = run(&["--show-private", "players", "--format", "json"]).json();
    assert_eq!(players["players"][0]["disabled"], false, "{players}");
    let help = run(&["player", "edit", "--help"]).ok();
    assert!(help.contains("是否残疾人选手：是 或 否"), "{help}");
    run(&["player", "edit", "甲", "--disabled", "对"]).fails(2, &["可选：是（true）、否（false）"]);
}

/// English output is English: the `player` help does not open with Chinese, and the
/// standings headers are lowercase like the others.
#[test]
fn english_help_and_headers_are_one_style() {
    let (tmp, ev) = small_event(&["甲", "乙"]);
    let help = common::run(tmp.path(), &["--lang", "en", "player", "--help"]).ok();
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("disqualify"))
        .unwrap_or_else(|| panic!("{help}"));
    assert!(
        line.contains("disqualify  Disqualify a player: not paired"),
        "{line}"
    );
    let csv = common::run(
        tmp.path(),
        &[
            "--event",
            p(&ev),
            "--lang",
            "en",
            "standings",
            "--format",
            "csv",
        ],
    )
    .ok();
    assert!(
        csv.contains("place,no.,name,unit,pts,opp. score,wins,fouls,black games,remarks"),
        "{csv}"
    );
}
