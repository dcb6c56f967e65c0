//! Behaviour once wrong, held here (docs/rules.md §16.6, §14.4, §12): a corrected
//! Swiss result that moves players across a final stage's line is named, a round robin's
//! annulled player keeps no bye, and a results file without 组别 whose hall table numbers
//! name one pool each is read. A merged group's prize list (docs/rules.md §6) is tested
//! in `prizes::undersized_group_is_reported_and_its_list_follows_a_merge`.

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

/// Three Swiss rounds, then the top 4 play a knockout. Red wins every Swiss
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

/// 公开组 (6 players: tables 1–3), 少儿组 (4: tables 4–5), 女子组 in its own hall (4:
/// tables 1–2 there), one round paired in each.
const HALL: &str = r#"
[event]
name = "大厅编号"
language = "zh"
rounds = 3

[[groups]]
id = "open"
name = "公开组"

[[groups]]
id = "kids"
name = "少儿组"

[[groups]]
id = "girls"
name = "女子组"
hall = "二楼"
"#;

fn hall_event(dir: &Path) -> std::path::PathBuf {
    let mut sheet = String::from("姓名,组别\n");
    for (group, n) in [("公开组", 6), ("少儿组", 4), ("女子组", 4)] {
        for i in 1..=n {
            sheet.push_str(&format!("{group}{i},{group}\n"));
        }
    }
    let ev = event_from(dir, HALL, &sheet);
    ok(&ev, &["pair", "--all"]);
    ev
}

/// A results file with only 轮次,台号,结果 in an event of several
/// pools is read without 组别 when each row's table number names one table of one pool's
/// round (one hall numbering, docs/rules.md §12), as `qiwang result 4 r` is; a number two
/// pools share (女子组's own hall) still needs the column.
#[test]
fn a_results_file_without_a_group_column_follows_the_hall_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = hall_event(tmp.path());
    let file = tmp.path().join("r.csv");
    std::fs::write(&file, "轮次,台号,结果\n1,3,=\n1,4,b\n1,5,r\n").unwrap();
    let out = ok(&ev, &["result", "--from", file.to_str().unwrap()]);
    assert!(out.contains("公开组") && out.contains("少儿组"), "{out}");
    let state = std::fs::read_to_string(ev.join("qiwang.json")).unwrap();
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    let results = |group: &str| -> Vec<(u64, bool)> {
        state["groups"][group]["rounds"][0]["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| Some((p["table"].as_u64()?, !p["result"].is_null())))
            .collect()
    };
    assert_eq!(results("open"), [(1, false), (2, false), (3, true)]);
    assert_eq!(results("kids"), [(4, true), (5, true)]);
    assert_eq!(results("girls"), [(1, false), (2, false)]);

    // A row whose table no pool has in its round is named as `qiwang result` names it.
    let before = std::fs::read(ev.join("qiwang.json")).unwrap();
    std::fs::write(&file, "轮次,台号,结果\n1,3,r\n1,9,r\n").unwrap();
    let (code, _, err) = run(&ev, &["result", "--from", file.to_str().unwrap()]);
    assert_ne!(code, 0, "{err}");
    assert!(
        err.contains("第 3 行：第 1 轮没有第 9 台") && !err.contains("请加一列“组别”"),
        "{err}"
    );
    assert_eq!(std::fs::read(ev.join("qiwang.json")).unwrap(), before);

    // Tables 1 and 2 are 公开组's and 女子组's (二楼): the file must say which.
    std::fs::write(&file, "轮次,台号,结果\n1,1,r\n1,2,r\n").unwrap();
    let (code, _, err) = run(&ev, &["result", "--from", file.to_str().unwrap()]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("请加一列“组别”"), "{err}");
    assert_eq!(std::fs::read(ev.join("qiwang.json")).unwrap(), before);
}

/// In a round robin of five under `withdrawn_results =
/// "half_rule"`, 戊 has the bye in round 1, beats 乙 in round 2 and withdraws. One game of
/// four is fewer than half: every game of his is annulled, as if he had never entered
/// (docs/rules.md §14.4), so his bye counts for nothing either. He keeps a place
/// (`conduct.withdrawn_ranked`), last with 0, and the round-3 sheet shows the points the
/// standings count.
#[test]
fn an_annulled_round_robin_player_keeps_no_bye_on_the_sheet_or_in_the_standings() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = event_from(
        tmp.path(),
        &rules_plus("round-robin", ""),
        &numbered_sheet("循环组", ["甲", "乙", "丙", "丁", "戊"]),
    );
    let g = ["--group", "循环组"];
    let round = |ev: &Path| ok(ev, &["round", g[0], g[1], "--format", "csv"]);
    ok(&ev, &["pair", g[0], g[1], "--seed", "1"]);
    assert!(round(&ev).contains(",1,戊,,0,轮空,"), "{}", round(&ev));
    ok(&ev, &["result", g[0], g[1], "1", "r", "2", "r"]);
    ok(&ev, &["pair", g[0], g[1]]);
    assert!(round(&ev).contains("2,1,戊,,2,,2,2,乙,"), "{}", round(&ev));
    ok(&ev, &["result", g[0], g[1], "1", "=", "2", "r"]);
    ok(&ev, &["player", "withdraw", "戊"]);
    ok(&ev, &["pair", g[0], g[1]]);
    // His forfeit in round 3: he has 0 before it, not his bye's 2 and the annulled win.
    let sheet = round(&ev);
    assert!(sheet.contains(",0,1,戊,"), "{sheet}");
    let standings = ok(&ev, &["standings", g[0], g[1], "--format", "csv"]);
    let last = standings.lines().last().unwrap();
    assert!(last.starts_with("5,1,戊,,0,"), "{standings}");
}
