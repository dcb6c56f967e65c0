//! Registration deadline and closing round (issue 43 item 5): `player add` after the
//! rulebook's `registration_deadline` needs `--late` and is logged as a late entry; once
//! the pool has paired `entries_close_after_round`, entries are refused.

use crate::common::{p, run};
use std::fs;
use tempfile::TempDir;

fn event(extra: &str) -> TempDir {
    let tmp = TempDir::new().unwrap();
    let rules = tmp.path().join("rules.toml");
    fs::write(
        &rules,
        format!(
            "[event]\nname = \"截止测试赛\"\nlanguage = \"zh\"\nrounds = 5\n{extra}\n[[groups]]\nid = \"open\"\nname = \"公开组\"\n"
        ),
    )
    .unwrap();
    let sheet = tmp.path().join("p.csv");
    fs::write(
        &sheet,
        "姓名,性别,单位\n甲,男,一\n乙,男,二\n丙,男,三\n丁,男,四\n",
    )
    .unwrap();
    run(tmp.path(), &["init", "ev", "--rules", p(&rules)]).ok();
    run(tmp.path(), &["--event", "ev", "import", p(&sheet)]).ok();
    tmp
}

fn add(tmp: &TempDir, name: &str, late: bool) -> crate::common::Out {
    let mut args = vec![
        "--event", "ev", "player", "add", "--name", name, "--gender", "男",
    ];
    if late {
        args.push("--late");
    }
    run(tmp.path(), &args)
}

#[test]
fn after_the_deadline_an_entry_needs_late_and_is_logged_as_one() {
    // A deadline long past: today is after it.
    let tmp = event("registration_deadline = 2001-09-10");
    let err = add(&tmp, "戊", false).fails(3, &["2001-09-10", "--late"]);
    assert!(err.contains("报名已于"), "{err}");
    add(&tmp, "戊", true).ok();
    let log = run(tmp.path(), &["--event", "ev", "log"]).ok();
    assert!(log.contains("逾期报名"), "{log}");
    let audit = fs::read_to_string(tmp.path().join("ev/audit.log")).unwrap();
    assert!(
        audit.lines().last().unwrap().contains("\"late\":true"),
        "{audit}"
    );
    // `rules show` names both keys.
    let shown = run(tmp.path(), &["--event", "ev", "rules", "show"]).ok();
    assert!(
        shown.contains("registration_deadline = 2001-09-10"),
        "{shown}"
    );
    // A deadline not reached: no flag needed, nothing marked late.
    let tmp = event("registration_deadline = 2999-01-01");
    add(&tmp, "戊", false).ok();
    let log = run(tmp.path(), &["--event", "ev", "log"]).ok();
    assert!(!log.contains("逾期报名"), "{log}");
}

#[test]
fn entries_are_refused_once_the_closing_round_is_paired() {
    let tmp = event("entries_close_after_round = 1");
    add(&tmp, "戊", false).ok();
    run(tmp.path(), &["--event", "ev", "pair", "--seed", "1"]).ok();
    let err = add(&tmp, "己", true).fails(3, &["第 1 轮"]);
    assert!(err.contains("不再接受报名"), "{err}");
    let players = run(
        tmp.path(),
        &["--event", "ev", "players", "--format", "json"],
    )
    .json();
    assert_eq!(players["players"].as_array().unwrap().len(), 5);
}

/// A pool of one player has nobody to play: round 1 is refused as below the two a game
/// needs (the rulebook setting no `min_size`), naming merge, cancel and `--allow-small`;
/// `group cancel` takes it without `--force`.
#[test]
fn a_pool_of_one_player_is_not_paired_without_allow_small() {
    let (_tmp, ev) = crate::common::small_event(&["独一"]);
    let q = |args: &[&str]| {
        crate::common::run(
            ev.parent().unwrap(),
            &[&["--event", crate::common::p(&ev)][..], args].concat(),
        )
    };
    let before = crate::common::snapshot(&ev);
    q(&["pair"]).fails(3, &["只有 1 名棋手", "--allow-small", "group cancel"]);
    assert_eq!(before, crate::common::snapshot(&ev));
    let sizes = q(&["group", "sizes"]).ok();
    assert!(sizes.contains("不足最低人数 2"), "{sizes}");
    q(&["group", "cancel", "open"]).ok();
}
