//! A final stage meets what a hall brings between the stages (found by an outside run):
//! a Swiss result corrected after the final began, and a player withdrawn before it.
//! The finalists keep places 1–N and everyone else follows from N+1, in standings and
//! prizes alike; a player who cannot play the final leaves his place to the next.

use crate::common::{init, p, zh_ok as ok};
use std::path::{Path, PathBuf};

const RULES: &str = r#"
[event]
name = "象棋公开赛"
language = "zh"
rounds = 5
[[groups]]
id = "open"
name = "公开组"
final_stage = "STAGE"
finalists = 4
[ranking]
preset = "cxa-14.3.1"
unresolved = "shared"
shared_from_place = 2
[[prizes.lists]]
group = "open"
places = [{ from = 1, to = 12, money = 100 }]
"#;

/// Five Swiss rounds of twelve players with fixed results (red wins on the odd tables of
/// odd rounds and so on), the same whatever the draw.
fn swiss_event(dir: &Path, stage: &str) -> PathBuf {
    let rules = dir.join("r.toml");
    std::fs::write(&rules, RULES.replace("STAGE", stage)).unwrap();
    let ev = dir.join("ev");
    init(&ev, &rules);
    let csv = dir.join("s.csv");
    let mut sheet = "序号,姓名,单位,组别\n".to_string();
    for i in 1..=12 {
        sheet.push_str(&format!("{i},棋手{i},单位{i},公开组\n"));
    }
    std::fs::write(&csv, sheet).unwrap();
    ok(&ev, &["import", p(&csv)]);
    let rounds: [&[&str]; 5] = [
        &[
            "1", "红胜", "2", "红胜", "3", "和", "4", "黑胜", "5", "红胜", "6", "和",
        ],
        &[
            "1", "红胜", "2", "和", "3", "黑胜", "4", "红胜", "5", "和", "6", "黑胜",
        ],
        &[
            "1", "和", "2", "红胜", "3", "红胜", "4", "和", "5", "黑胜", "6", "红胜",
        ],
        &[
            "1", "黑胜", "2", "红胜", "3", "和", "4", "红胜", "5", "黑胜", "6", "和",
        ],
        &[
            "1", "红胜", "2", "黑胜", "3", "和", "4", "和", "5", "红胜", "6", "红胜",
        ],
    ];
    ok(&ev, &["pair", "--seed", "1"]);
    for (i, tokens) in rounds.iter().enumerate() {
        if i > 0 {
            ok(&ev, &["pair"]);
        }
        let mut args = vec!["result"];
        args.extend_from_slice(tokens);
        ok(&ev, &args);
    }
    ev
}

/// The places of the standings, in order.
fn places(ev: &Path) -> Vec<u64> {
    let st: serde_json::Value =
        serde_json::from_str(&ok(ev, &["--format", "json", "standings"])).unwrap();
    st["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["rank"].as_u64())
        .collect()
}

#[test]
fn a_swiss_result_corrected_after_the_final_began_leaves_places_n_plus_one_on() {
    for stage in ["round_robin", "knockout"] {
        let tmp = tempfile::tempdir().unwrap();
        let ev = swiss_event(tmp.path(), stage);
        ok(&ev, &["pair"]);
        // A round-5 result corrected: a finalist falls below the line (and stays one).
        ok(&ev, &["result", "--round", "5", "3", "黑胜"]);
        ok(&ev, &["result", "1", "红胜", "2", "红胜"]);
        let got = places(&ev);
        let after: Vec<u64> = got[4..].to_vec();
        assert!(after.iter().all(|&p| p >= 5), "{stage}: {got:?}");
        assert_eq!(after.first(), Some(&5), "{stage}: {got:?}");
        assert!(got[..4].iter().all(|&p| p <= 4), "{stage}: {got:?}");
    }
}

#[test]
fn a_player_withdrawn_before_the_final_leaves_his_place_to_the_next() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = swiss_event(tmp.path(), "round_robin");
    let st: serde_json::Value =
        serde_json::from_str(&ok(&ev, &["--format", "json", "standings"])).unwrap();
    let name = |i: usize| st["rows"][i]["name"].as_str().unwrap().to_string();
    let (first, fifth) = (name(0), name(4));
    ok(&ev, &["player", "withdraw", &first]);
    let sheet = ok(&ev, &["pair"]);
    assert!(sheet.contains(&fifth) && !sheet.contains(&first), "{sheet}");
}

/// A tie at the finalists' line settled by one playoff, then a tie in the final settled
/// by another: the second replaces nothing and must not say it did; the note goes to the
/// playoff just recorded.
#[test]
fn a_second_playoff_in_the_final_replaces_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("r.toml");
    std::fs::write(
        &rules,
        "[event]\nname = \"t\"\nlanguage = \"zh\"\nrounds = 3\n[[groups]]\nid = \"open\"\n\
         name = \"公开组\"\nfinal_stage = \"round_robin\"\nfinalists = 2\n[ranking]\n\
         preset = \"cxa-14.3.1\"\nunresolved = \"shared\"\nshared_from_place = 2\n",
    )
    .unwrap();
    let ev = tmp.path().join("ev");
    init(&ev, &rules);
    let csv = tmp.path().join("s.csv");
    let mut sheet = "序号,姓名,组别\n".to_string();
    for i in 1..=6 {
        sheet.push_str(&format!("{i},选手{i},公开组\n"));
    }
    std::fs::write(&csv, sheet).unwrap();
    ok(&ev, &["import", p(&csv)]);
    ok(&ev, &["pair", "--seed", "3"]);
    for _ in 0..2 {
        ok(&ev, &["result", "1", "和", "2", "和", "3", "和"]);
        ok(&ev, &["pair"]);
    }
    ok(&ev, &["result", "1", "和", "2", "和", "3", "和"]);
    // All six level: the Swiss line needs a playoff among those the tiebreaks leave tied.
    let st: serde_json::Value =
        serde_json::from_str(&ok(&ev, &["--format", "json", "standings"])).unwrap();
    let tied: Vec<String> = st["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["needs_playoff"] == true)
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    assert!(tied.len() >= 2, "{st}");
    // A wrong order is refused naming the players as the command takes them.
    crate::common::zh(&ev, &["playoff", "--group", "open", &tied[0]])
        .status(3)
        .stdout_empty()
        .stderr_has(&format!("{} #", tied[0]))
        .check();
    let mut args = vec!["playoff", "--group", "open"];
    args.extend(tied.iter().map(String::as_str));
    ok(&ev, &args);
    let sheet = ok(&ev, &["pair"]);
    let finalists: Vec<String> = (1..=6)
        .map(|i| format!("选手{i}"))
        .filter(|n| sheet.contains(n.as_str()))
        .collect();
    assert_eq!(finalists.len(), 2, "{sheet}");
    ok(&ev, &["result", "1", "和"]);
    let said = ok(
        &ev,
        &[
            "playoff",
            "--group",
            "open",
            &finalists[1],
            &finalists[0],
            "--note",
            "快棋",
        ],
    );
    assert!(!said.contains("替换"), "{said}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ev.join("qiwang.json")).unwrap()).unwrap();
    let playoffs = state["playoffs"].as_array().unwrap();
    assert_eq!(playoffs.len(), 2, "{state}");
    assert_eq!(playoffs[1]["note"], "快棋");
}

/// A round of a round-robin final shows the final's points on its sheet (every finalist
/// at 0 before the first under `carried_results = "none"`), not Swiss plus final.
#[test]
fn a_final_rounds_sheet_shows_the_finals_points() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = swiss_event(tmp.path(), "round_robin");
    ok(&ev, &["pair"]);
    let round: serde_json::Value =
        serde_json::from_str(&ok(&ev, &["--format", "json", "round"])).unwrap();
    let scores: Vec<i64> = round["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| [&t["red"]["score"], &t["black"]["score"]])
        .map(|s| s.as_i64().unwrap())
        .collect();
    assert_eq!(scores, [0, 0, 0, 0], "{round}");
}

/// A refused `finalists` is the one problem reported: the stage's `cycles` are not also
/// blamed as if no round-robin stage were written.
#[test]
fn a_refused_final_stage_does_not_blame_its_own_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("r.toml");
    std::fs::write(
        &rules,
        "[event]\nname = \"t\"\nrounds = 5\n[[groups]]\nid = \"open\"\n\
         final_stage = \"round_robin\"\nfinalists = 21\ncycles = 1\n",
    )
    .unwrap();
    crate::common::Run::new(tmp.path(), &["--lang", "zh", "rules", "check", p(&rules)])
        .status(3)
        .stdout_empty()
        .stderr_has("finalists")
        .stderr_lacks("cycles")
        .stderr_has("1 个问题")
        .check();
}

/// A tie wholly among the finalists is the final's to decide: the Swiss standings show it
/// as a tie, not 需加赛, and the final starts without a playoff.
#[test]
fn a_tie_within_the_finalists_needs_no_playoff() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("r.toml");
    std::fs::write(
        &rules,
        "[event]\nname = \"t\"\nlanguage = \"zh\"\nrounds = 1\n[[groups]]\nid = \"open\"\n\
         name = \"公开组\"\nfinal_stage = \"round_robin\"\nfinalists = 2\n[ranking]\n\
         tiebreaks = []\nunresolved_first = \"playoff\"\n",
    )
    .unwrap();
    let ev = tmp.path().join("ev");
    init(&ev, &rules);
    let csv = tmp.path().join("s.csv");
    std::fs::write(
        &csv,
        "序号,姓名,组别\n1,甲,公开组\n2,乙,公开组\n3,丙,公开组\n4,丁,公开组\n",
    )
    .unwrap();
    ok(&ev, &["import", p(&csv)]);
    ok(&ev, &["pair", "--seed", "1"]);
    ok(&ev, &["result", "1", "红胜", "2", "红胜"]);
    let st = ok(&ev, &["standings"]);
    assert!(!st.contains("需加赛"), "{st}");
    ok(&ev, &["pair"]);
}
