//! Fixes from the outside tester's report (docs/rules.md §16.6, §14.4, §6, §12): a
//! corrected Swiss result that moves players across a final stage's line is named, a
//! round robin's annulled player keeps no bye, a merged group's prize list, and a results
//! file without 组别 whose hall table numbers name one pool each.

use crate::common::{event_from, numbered_sheet, rules_plus, zh_ok as ok, zh_run as run};
use std::path::Path;

/// `qiwang --lang en …` on `ev`, which must succeed: its stdout.
fn en_ok(ev: &Path, args: &[&str]) -> String {
    let out = crate::common::qiwang_as("arbiter", ev, args);
    assert!(
        out.status.success(),
        "qiwang {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Report 1.6: three Swiss rounds, then the top 4 play a knockout. Red wins every Swiss
/// game: 选手5, 选手7, 选手2 and 选手4 qualify with 4 points. After the semi-final is paired,
/// round 3 is corrected so that 选手4 loses and 选手3 wins: 选手3 is now in the top 4 and
/// 选手4 below it. The finalists stay (frozen), but `result` and `check` name both.
#[test]
fn a_swiss_correction_that_moves_the_line_names_who_crossed_it() {
    let tmp = tempfile::tempdir().unwrap();
    let text = rules_plus("swiss-knockout", "")
        .replace("rounds = 7", "rounds = 3")
        .replace("finalists = 8", "finalists = 4");
    let ev = event_from(
        tmp.path(),
        &text,
        &numbered_sheet("公开组", (1..=8).map(|i| format!("选手{i}"))),
    );
    ok(&ev, &["pair", "--seed", "1"]);
    for round in 1..=3 {
        if round > 1 {
            ok(&ev, &["pair"]);
        }
        ok(&ev, &["result", "1", "r", "2", "r", "3", "r", "4", "r"]);
    }
    ok(&ev, &["pair"]);
    let semi = ok(&ev, &["round", "--format", "csv"]);
    assert!(semi.contains("选手4") && !semi.contains("选手3"), "{semi}");
    // A correction that leaves the line where it was says nothing of it.
    let out = ok(&ev, &["result", "--round", "3", "4", "b"]);
    assert!(!out.contains("出线"), "{out}");
    let out = ok(&ev, &["result", "--round", "3", "4", "r"]);
    assert!(!out.contains("出线"), "{out}");
    // Table 1: 选手4 (red) loses; table 3: 选手3 (black) wins.
    let out = ok(&ev, &["result", "--round", "3", "1", "b", "3", "b"]);
    assert!(
        out.contains("选手3(7) 现在排在前 4 名内")
            && out.contains("决赛棋手 选手4(1) 现在已不在前 4 名内"),
        "{out}"
    );
    assert!(
        out.contains("决赛名单在决赛第一轮编排时已确定，保持不变"),
        "{out}"
    );
    // The bracket is frozen: 选手4 still plays the semi-final, 选手3 does not.
    let now = ok(&ev, &["round", "--format", "csv"]);
    assert!(now.contains("选手4") && !now.contains("选手3"), "{now}");
    let check = ok(&ev, &["check"]);
    assert!(
        check.contains("注意：更正改变了瑞士制阶段的出线名单"),
        "{check}"
    );
    let check = en_ok(&ev, &["check"]);
    assert!(
        check.contains("选手3(7) would now be in the top 4")
            && check.contains("finalist 选手4(1) would no longer be"),
        "{check}"
    );
    let json = en_ok(&ev, &["check", "--format", "json"]);
    assert!(json.contains("\"note\""), "{json}");
    // Correcting back removes the note.
    ok(&ev, &["result", "--round", "3", "1", "r", "3", "r"]);
    let check = ok(&ev, &["check"]);
    assert!(!check.contains("注意"), "{check}");
    let (code, _, _) = run(&ev, &["check"]);
    assert_eq!(code, 0);
}
