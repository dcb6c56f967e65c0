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
