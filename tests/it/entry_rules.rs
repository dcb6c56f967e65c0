//! One set of entry rules for every way a player enters a pool (docs/rules.md "Late
//! entries"): `import` into pools already paired and `player edit --group` are held to the
//! closing round, the deadline (`--late`) and the fixed field of a round robin, as
//! `player add` is; a refused import names its rows and changes nothing.

use crate::common::{event_from, rules_plus, snapshot, zh_ok as ok, zh_run as run};
use std::path::Path;

/// The bundled round-robin rulebook (循环组 a round robin, 公开组 a Swiss pool) with
/// `event_keys` added to its `[event]` table; four players in each pool, 循环组 paired.
fn paired_event(dir: &Path, event_keys: &str) -> std::path::PathBuf {
    let rules =
        rules_plus("round-robin", "").replace("[event]\n", &format!("[event]\n{event_keys}\n"));
    let ev = event_from(
        dir,
        &rules,
        "姓名,组别\n甲,循环组\n乙,循环组\n丙,循环组\n丁,循环组\n子,公开组\n丑,公开组\n寅,公开组\n卯,公开组\n",
    );
    ok(&ev, &["pair", "--group", "循环组", "--seed", "1"]);
    ev
}

fn sheet(dir: &Path, rows: &str) -> String {
    let path = dir.join("more.csv");
    std::fs::write(&path, format!("姓名,组别\n{rows}")).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn an_import_or_an_edit_into_a_paired_round_robin_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = paired_event(tmp.path(), "");
    let before = snapshot(&ev);
    let file = sheet(tmp.path(), "辰,公开组\n巳,循环组\n午,循环组\n");
    let (code, _, err) = run(&ev, &["import", &file]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("`巳`") && err.contains("`午`"), "{err}");
    assert!(err.contains("循环赛的轮次表"), "{err}");
    assert!(!err.contains("`辰`"), "{err}");
    assert!(err.contains("未导入任何棋手"), "{err}");
    let (code, _, err) = run(&ev, &["import", "--dry-run", &file]);
    assert_eq!(code, 3, "{err}");
    // `player edit --group` into the paired round robin is refused as an entry is.
    let (code, _, err) = run(&ev, &["player", "edit", "子", "--group", "循环组"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("`子` 不能加入"), "{err}");
    assert_eq!(before, snapshot(&ev));
    // Into the Swiss pool, not yet paired, the import is taken.
    ok(&ev, &["import", &sheet(tmp.path(), "辰,公开组\n")]);
}

#[test]
fn an_import_into_a_pool_past_its_closing_round_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = paired_event(tmp.path(), "entries_close_after_round = 1");
    ok(&ev, &["pair", "--group", "公开组", "--seed", "1"]);
    let before = snapshot(&ev);
    let (code, _, err) = run(
        &ev,
        &["import", "--late", &sheet(tmp.path(), "辰,公开组\n")],
    );
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("`辰`") && err.contains("不再接受报名"),
        "{err}"
    );
    assert_eq!(before, snapshot(&ev));
}

#[test]
fn an_import_into_a_paired_pool_after_the_deadline_needs_late() {
    let tmp = tempfile::tempdir().unwrap();
    // The first sheet, imported before any round, is the registration itself.
    let ev = paired_event(tmp.path(), "registration_deadline = 2001-09-10");
    ok(&ev, &["pair", "--group", "公开组", "--seed", "1"]);
    let before = snapshot(&ev);
    let file = sheet(tmp.path(), "辰,公开组\n");
    let (code, _, err) = run(&ev, &["import", &file]);
    assert_eq!(code, 3, "{err}");
    // The refusal names the rows it is about.
    assert!(
        err.contains("2001-09-10")
            && err.contains("--late")
            && err.contains("逾期报名（所入组已编排）：辰"),
        "{err}"
    );
    assert_eq!(before, snapshot(&ev));
    ok(&ev, &["import", "--late", &file]);
    let audit = std::fs::read_to_string(ev.join("audit.log")).unwrap();
    assert!(
        audit.lines().last().unwrap().contains("\"late\":true"),
        "{audit}"
    );
    let players = ok(&ev, &["players", "--format", "json"]);
    let players: serde_json::Value = serde_json::from_str(&players).unwrap();
    let late = players["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "辰")
        .unwrap();
    assert_eq!(late["joined_round"], 2, "{late}");
}

/// A late entry for 少儿组 after its merge into 成人组 is compared with the players of
/// 成人组, where it is paired: a name there under another unit is said, as for any row.
#[test]
fn a_late_entry_for_a_merged_group_is_compared_in_the_pool_it_joins() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = "[event]\nname = \"合并测试\"\nlanguage = \"zh\"\nrounds = 3\n[[groups]]\nid = \"a\"\nname = \"成人组\"\n[[groups]]\nid = \"c\"\nname = \"少儿组\"\n";
    let ev = event_from(
        tmp.path(),
        rules,
        "姓名,单位,组别\n张三,U1,成人组\n甲二,U2,成人组\n乙一,U1,少儿组\n乙二,U2,少儿组\n",
    );
    ok(&ev, &["group", "merge", "少儿组", "成人组", "--force"]);
    let file = sheet_with_unit(tmp.path(), "张三,U5,少儿组\n");
    let (code, out, err) = run(&ev, &["import", &file]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("少儿组已并入成人组：张三编入成人组"), "{out}");
    assert!(err.contains("`张三` 与已报名棋手 1（`张三`）同名"), "{err}");
}

fn sheet_with_unit(dir: &Path, rows: &str) -> String {
    let path = dir.join("late.csv");
    std::fs::write(&path, format!("姓名,单位,组别\n{rows}")).unwrap();
    path.to_str().unwrap().to_string()
}
