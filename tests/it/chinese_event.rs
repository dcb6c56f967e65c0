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

/// `rules show` names the tiebreaks as the regulation does (对手分, 累进分, 直胜), and the
/// Chinese names read back; `rules check` writes Chinese punctuation.
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
        shown.contains("tiebreaks = [\"累进分\", \"直胜\", \"胜局\"]\n"),
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

/// `init` points at the sheet an organiser has (an .xlsx from `template`), with a full-width
/// colon and no space after it; `template` takes the event's organiser as the example unit;
/// both helps say that `import` reads workbooks.
#[test]
fn init_points_to_the_xlsx_template_of_the_events_own_organiser() {
    let tmp = tempfile::TempDir::new().unwrap();
    let out = common::run(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/jinhua-2018.toml"))],
    )
    .ok();
    assert!(out.contains("已创建赛事 ev（2018全国"), "{out}");
    assert!(
        out.contains("\n下一步：qiwang --event ev template --out 报名表.xlsx"),
        "{out}"
    );
    assert!(
        out.contains("qiwang --event ev import 报名表.xlsx"),
        "{out}"
    );
    assert!(
        !out.contains("REGISTRATIONS.csv") && !out.contains("： "),
        "{out}"
    );
    let template = common::run(tmp.path(), &["--event", "ev", "template"]).ok();
    assert!(template.contains(",浙江省棋类协会,"), "{template}");
    for lang in ["zh", "en"] {
        let help = common::run(tmp.path(), &["--lang", lang, "import", "--help"]).ok();
        let about = help.lines().next().unwrap_or_default();
        assert!(
            about.contains(".xlsx、.xls、.ods") || about.contains(".xlsx, .xls, .ods"),
            "{help}"
        );
        let main = common::run(tmp.path(), &["--lang", lang, "--help"]).ok();
        let line = main
            .lines()
            .find(|l| l.trim_start().starts_with("import "))
            .unwrap_or_default();
        assert!(line.contains(".xlsx"), "{line}");
    }
}

/// Group names stand alone in Chinese output: no `(open)` after 公开组.
#[test]
fn chinese_output_names_groups_without_their_ids() {
    let (tmp, ev) = small_event(&["甲", "乙"]);
    let sizes = common::run(tmp.path(), &["--event", p(&ev), "group", "sizes"]).ok();
    assert_eq!(sizes, "公开组：2\n");
    let csv = tmp.path().join("more.csv");
    std::fs::write(&csv, "name,gender,unit,组别\n丙,男,a,少年组\n").unwrap();
    let err = common::run(tmp.path(), &["--event", p(&ev), "import", p(&csv)])
        .fails(3, &["组别 `少年组` 不在规程中；请写 `公开组` 之一"]);
    assert!(!err.contains("(open)"), "{err}");
    let en = common::run(
        tmp.path(),
        &["--lang", "en", "--event", p(&ev), "group", "sizes"],
    )
    .ok();
    assert_eq!(en, "公开组 (open): 2\n");
}

/// `pair --all` after the last round is no input error: it says the event is finished
/// and succeeds, changing nothing.
#[test]
fn pair_all_after_the_last_round_says_the_event_is_finished() {
    let tmp = tempfile::TempDir::new().unwrap();
    let rules = tmp.path().join("rules.toml");
    let text = std::fs::read_to_string(root("rules/cxa-2011.toml"))
        .unwrap()
        .replace("rounds = 7", "rounds = 1");
    std::fs::write(&rules, text).unwrap();
    let csv = tmp.path().join("p.csv");
    std::fs::write(&csv, "name,gender,unit\n甲,男,a\n乙,男,b\n").unwrap();
    let ev = tmp.path().join("ev");
    let run = |args: &[&str]| {
        let mut all = vec!["--event", p(&ev)];
        all.extend_from_slice(args);
        common::run(tmp.path(), &all)
    };
    common::run(tmp.path(), &["init", "ev", "--rules", p(&rules)]).ok();
    run(&["import", p(&csv)]).ok();
    run(&["pair", "--all", "--seed", "1"]).ok();
    // Results missing: that is still something to do.
    run(&["pair", "--all"]).fails(3, &["没有成绩"]);
    run(&["result", "1", "和"]).ok();
    let before = common::snapshot(&ev);
    let out = run(&["pair", "--all"]).ok();
    assert!(out.starts_with("比赛已全部结束"), "{out}");
    assert!(out.contains("公开组：全部 1 轮已编排"), "{out}");
    let en = run(&["--lang", "en", "pair", "--all", "--dry-run"]).ok();
    assert!(en.starts_with("the event is finished"), "{en}");
    assert_eq!(common::snapshot(&ev), before, "nothing stored");
}

/// A demo that fails (here on a registration sheet naming no group of the rulebook)
/// removes what it made: a new directory entirely, else only what it added.
#[test]
fn a_failed_demo_leaves_no_half_made_directory() {
    let tmp = tempfile::TempDir::new().unwrap();
    let csv = tmp.path().join("bad.csv");
    std::fs::write(&csv, "name,gender,unit,组别\n甲,男,a,少年组\n").unwrap();
    let rules = root("rules/cxa-2011.toml");
    let demo = |dir: &str| {
        common::run(
            tmp.path(),
            &[
                "demo",
                dir,
                "--rules",
                p(&rules),
                "--registrations",
                p(&csv),
            ],
        )
    };
    let err = demo("new").fails(3, &["少年组", "演示未完成，已删除"]);
    assert!(!tmp.path().join("new").exists(), "{err}");
    std::fs::create_dir(tmp.path().join("kept")).unwrap();
    std::fs::write(tmp.path().join("kept/notes.txt"), "mine").unwrap();
    demo("kept").fails(3, &["少年组"]);
    let left: Vec<_> = std::fs::read_dir(tmp.path().join("kept"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["notes.txt"]);
    // A second try in the same place is not refused as an existing event.
    let again = demo("new").fails(3, &["少年组"]);
    assert!(!again.contains("已有赛事"), "{again}");
}
