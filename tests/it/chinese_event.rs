//! No English in a Chinese event (issue 43, item 12; item 4's `group cancel --force`): what
//! an arbiter running a Chinese event reads, from `init` to `pair --all` after the last
//! round, is Chinese (a rulebook key may stand in brackets), and the Chinese spellings an
//! arbiter types are accepted where the English ones are.

use std::path::Path;
use std::process::Command;

use crate::common::{self, BIN, Out, p, small_event};

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
