//! No English in a Chinese event (issue 43, item 12; item 4's `group cancel --force`): what
//! an arbiter running a Chinese event reads, from `init` to `pair --all` after the last
//! round, is Chinese (a rulebook key may stand in brackets), and the Chinese spellings an
//! arbiter types are accepted where the English ones are.

use std::path::Path;

use crate::common::{self, Run, p, root, small_event};

/// `qiwang --event EV ARGS` with no user in the environment (no `$QIWANG_USER`, `$USER`,
/// `$LOGNAME` or `$USERNAME`), as under a service account.
fn without_user(ev: &Path, args: &[&str]) -> Run {
    Run::on_event(ev, args)
        .env_remove("QIWANG_USER")
        .env_remove("USER")
        .env_remove("LOGNAME")
        .env_remove("USERNAME")
}

/// What `qiwang ARGS` run in `cwd` prints on standard output, after failing the test
/// unless it succeeded with nothing on standard error.
#[track_caller]
fn printed(cwd: &Path, args: &[&str]) -> String {
    Run::new(cwd, args).stderr_empty().check().stdout
}

/// A result corrected, undone and redone: `log`, `undo` and `redo` write the results as
/// the sheets do (红胜, 黑胜/0:1), and a user the environment did not name as 未知.
#[test]
fn log_undo_and_redo_word_results_and_users_in_chinese() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    let done = |args: &[&str]| without_user(&ev, args).stderr_empty().check();
    done(&["pair", "--seed", "1"]);
    done(&["result", "1", "红胜", "2", "和"]);
    done(&["result", "1", "黑胜/0:1"]);
    let correction = "第 1 轮第 1 台：已将 `红胜` 更正为 `黑胜/0:1`";
    // The results as the sheets write them, the user as 未知: no English token.
    for args in [&["undo"][..], &["redo"], &["log"]] {
        let mut run = without_user(&ev, args)
            .stdout_has(correction)
            .stderr_empty();
        for english in ["unknown", "`1-0`", "`0-1`", "`=`"] {
            run = run.stdout_lacks(english);
        }
        if args == ["log"] {
            run = run.stdout_has("┆ 未知 ");
        }
        run.check();
    }
    // English keeps the tokens `result` reads in English, and the marker.
    without_user(&ev, &["--lang", "en", "log"])
        .stdout_has("corrected `1-0` → `0-1/0:1`")
        .stdout_has("┆ unknown ")
        .stderr_empty()
        .check();
}

/// `group cancel` on a group that is not below a minimum (CXA 2011 sets none) changes
/// nothing and says why; `--force` cancels it.
#[test]
fn cancelling_a_group_not_below_its_minimum_needs_force() {
    let (tmp, ev) = small_event(&["甲", "乙", "丙"]);
    let before = common::snapshot(&ev);
    let err = Run::new(tmp.path(), &["--event", p(&ev), "group", "cancel", "open"])
        .status(3)
        .stdout_empty()
        .stderr_has("公开组")
        .stderr_has("3 名棋手")
        .stderr_has("最低人数")
        .stderr_has("`qiwang group cancel open --force`")
        .check()
        .stderr;
    assert!(err.starts_with("错误："), "{err}");
    assert_eq!(common::snapshot(&ev), before, "nothing changed");
    Run::new(
        tmp.path(),
        &["--event", p(&ev), "group", "cancel", "open", "--force"],
    )
    .stdout_has("已取消公开组，3 名棋手退赛")
    .stderr_empty()
    .check();
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
    let shown = Run::new(tmp.path(), &["rules", "show", p(&rules)])
        .stdout_has("tiebreaks = [\"累进分\", \"直胜\", \"胜局\"]\n")
        .stdout_has("tiebreaks = [\"个人最好名次\", \"抽签\"]")
        .stderr_empty()
        .check()
        .stdout;
    // What `rules show` writes is a rulebook that reads back.
    let again = tmp.path().join("shown.toml");
    std::fs::write(&again, &shown).unwrap();
    Run::new(tmp.path(), &["rules", "show", p(&again)])
        .stdout_is(&shown)
        .stderr_empty()
        .check();
    Run::new(tmp.path(), &["--lang", "en", "rules", "show", p(&rules)])
        .stdout_has("tiebreaks = [\"progressive\", \"direct_encounter\", \"wins\"]\n")
        .stderr_empty()
        .check();
    Run::new(tmp.path(), &["rules", "check", p(&rules)])
        .stdout_is(&format!(
            "{}: 规则有效 — 5 个组别，4 个编排组，7 个奖项名单\n",
            p(&rules)
        ))
        .stderr_empty()
        .check();
}

/// `round --sheet` takes the sheets' Chinese names; `player edit --disabled` takes 是/否,
/// and both are listed in the Chinese help and usage errors.
#[test]
fn sheet_names_and_yes_no_are_accepted_in_chinese() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    let on = |args: &[&str]| Run::on_event(&ev, args);
    let done = |args: &[&str]| on(args).stderr_empty().check();
    done(&["pair", "--seed", "1"]);
    for (zh, en) in [
        ("对阵表", "pairings"),
        ("成绩登记表", "slips"),
        ("台签", "cards"),
        ("找座位", "find"),
        ("总表", "wall"),
    ] {
        let sheet = done(&["round", "--sheet", en]).stdout;
        on(&["round", "--sheet", zh])
            .stdout_is(&sheet)
            .stderr_empty()
            .check();
    }
    on(&["round", "--help"])
        .stdout_has("对阵表、成绩登记表、台签、找座位（按拼音排序的找座位表）或总表")
        .stdout_lacks("默认：pairings")
        .stderr_empty()
        .check();
    on(&["round", "--sheet", "座位"])
        .status(2)
        .stdout_empty()
        .stderr_has("可选：对阵表（pairings）、成绩登记表（slips）")
        .check();

    done(&["player", "edit", "甲", "--disabled", "是", "--local", "否"]);
    let players = done(&["--show-private", "players", "--format", "json"]).json();
    let first = &players["players"][0];
    assert_eq!(first["disabled"], true, "{players}");
    done(&["player", "edit", "甲", "--disabled", "否"]);
    let players = done(&["--show-private", "players", "--format", "json"]).json();
    assert_eq!(players["players"][0]["disabled"], false, "{players}");
    on(&["player", "edit", "--help"])
        .stdout_has("是否残疾人选手：是 或 否")
        .stderr_empty()
        .check();
    on(&["player", "edit", "甲", "--disabled", "对"])
        .status(2)
        .stdout_empty()
        .stderr_has("可选：是（true）、否（false）")
        .check();
}

/// English output is English: the `player` help does not open with Chinese, and the
/// standings headers are lowercase like the others.
#[test]
fn english_help_and_headers_are_one_style() {
    let (tmp, ev) = small_event(&["甲", "乙"]);
    let help = printed(tmp.path(), &["--lang", "en", "player", "--help"]);
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("disqualify"))
        .unwrap_or_else(|| panic!("{help}"));
    assert!(
        line.contains("disqualify  Disqualify a player: not paired"),
        "{line}"
    );
    Run::on_event_in("en", &ev, &["standings", "--format", "csv"])
        .stdout_has("place,no.,name,unit,pts,opp. score,wins,fouls,black games,remarks")
        .stderr_empty()
        .check();
}

/// `init` points at the sheet an organiser has (an .xlsx from `template`), with a full-width
/// colon and no space after it; `template` takes the event's organiser as the example unit;
/// both helps say that `import` reads workbooks.
#[test]
fn init_points_to_the_xlsx_template_of_the_events_own_organiser() {
    let tmp = tempfile::TempDir::new().unwrap();
    Run::new(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/jinhua-2018.toml"))],
    )
    .stdout_has("已创建赛事 ev（2018全国")
    .stdout_has("\n下一步：qiwang --event ev template --out 报名表.xlsx")
    .stdout_has("qiwang --event ev import 报名表.xlsx")
    .stdout_lacks("REGISTRATIONS.csv")
    .stdout_lacks("： ")
    .stderr_empty()
    .check();
    Run::new(tmp.path(), &["--event", "ev", "template"])
        .stdout_has(",浙江省棋类协会,")
        .stderr_empty()
        .check();
    for lang in ["zh", "en"] {
        let help = printed(tmp.path(), &["--lang", lang, "import", "--help"]);
        let about = help.lines().next().unwrap_or_default();
        assert!(
            about.contains(".xlsx、.xls、.ods") || about.contains(".xlsx, .xls, .ods"),
            "{help}"
        );
        let main = printed(tmp.path(), &["--lang", lang, "--help"]);
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
    Run::new(tmp.path(), &["--event", p(&ev), "group", "sizes"])
        .stdout_is("公开组：2\n")
        .stderr_empty()
        .check();
    let csv = tmp.path().join("more.csv");
    std::fs::write(&csv, "name,gender,unit,组别\n丙,男,a,少年组\n").unwrap();
    Run::new(tmp.path(), &["--event", p(&ev), "import", p(&csv)])
        .status(3)
        .stdout_empty()
        .stderr_has("组别 `少年组` 不在规程中；请写 `公开组` 之一")
        .stderr_lacks("(open)")
        .check();
    Run::new(
        tmp.path(),
        &["--lang", "en", "--event", p(&ev), "group", "sizes"],
    )
    .stdout_is("公开组 (open): 2\n")
    .stderr_empty()
    .check();
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
    let on = |args: &[&str]| Run::on_event(&ev, args);
    printed(tmp.path(), &["init", "ev", "--rules", p(&rules)]);
    on(&["import", p(&csv)]).stderr_empty().check();
    on(&["pair", "--all", "--seed", "1"]).stderr_empty().check();
    // Results missing: that is still something to do.
    on(&["pair", "--all"])
        .status(3)
        .stdout_empty()
        .stderr_has("没有成绩")
        .check();
    on(&["result", "1", "和"]).stderr_empty().check();
    let before = common::snapshot(&ev);
    let out = on(&["pair", "--all"])
        .stdout_has("公开组：全部 1 轮已编排")
        .stderr_empty()
        .check()
        .stdout;
    assert!(out.starts_with("比赛已全部结束"), "{out}");
    let en = on(&["--lang", "en", "pair", "--all", "--dry-run"])
        .stderr_empty()
        .check()
        .stdout;
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
        Run::new(
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
        .status(3)
        // The demo names what it starts before it fails.
        .stdout_is(&format!("演示赛事 象棋积分编排制比赛 → {dir}\n"))
        .stderr_has("少年组")
    };
    demo("new").stderr_has("演示未完成，已删除").check();
    assert!(!tmp.path().join("new").exists());
    std::fs::create_dir(tmp.path().join("kept")).unwrap();
    std::fs::write(tmp.path().join("kept/notes.txt"), "mine").unwrap();
    demo("kept").check();
    let left: Vec<_> = std::fs::read_dir(tmp.path().join("kept"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["notes.txt"]);
    // A second try in the same place is not refused as an existing event.
    demo("new").stderr_lacks("已有赛事").check();
}

/// The next steps `init` prints run as printed in a shell, for a directory with a space
/// and a leading `-` (a bare `-K 赛` was read as an option `-K` and a second word).
#[test]
fn the_next_steps_init_prints_run_as_printed() {
    if std::process::Command::new("sh")
        .arg("-c")
        .arg("true")
        .status()
        .is_err()
    {
        return;
    }
    let tmp = tempfile::TempDir::new().unwrap();
    let out = Run::new(
        tmp.path(),
        &[
            "--lang",
            "en",
            "init",
            "--rules",
            p(&root("rules/jinhua-2018.toml")),
            "--",
            "-K 赛",
        ],
    )
    .stdout_has("next: qiwang --event './-K 赛' template --out registrations.xlsx")
    .check()
    .stdout;
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("next: qiwang "))
        .and_then(|l| l.split(" (").next())
        .expect("a next step");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_qiwang"));
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("\"$QIWANG\" {line}"))
        .env("QIWANG", bin)
        .current_dir(tmp.path())
        .status()
        .unwrap();
    assert!(status.success(), "{line}");
    assert!(tmp.path().join("registrations.xlsx").exists());
}
