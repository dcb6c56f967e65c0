//! One hall numbering (docs/rules.md §12 (table numbers), issue 43 item 7): the tables of every pool of
//! a round are numbered on in rulebook order, so no two games of a round share a number,
//! and every sheet and command uses that number; a pool's own hall or first table.

use crate::common::{p, run};
use serde_json::Value;
use std::fs;
use tempfile::TempDir;

/// 公开组 (11 players: tables 1–5 and a bye), 少儿组 (6: tables 6–8), 女子组 in its own
/// hall (4: tables 1–2 there), 老年组 from table 101 (4: 101–102).
const RULES: &str = r#"
[event]
name = "大厅编号测试赛"
rules_edition = "CXA 2011"
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

[[groups]]
id = "old"
name = "老年组"
first_table = 101
"#;

fn event() -> (TempDir, String) {
    let tmp = TempDir::new().unwrap();
    let rules = tmp.path().join("rules.toml");
    fs::write(&rules, RULES).unwrap();
    let mut csv = String::from("姓名,性别,单位,组别\n");
    for (group, n) in [("公开组", 11), ("少儿组", 6), ("女子组", 4), ("老年组", 4)] {
        for i in 0..n {
            csv.push_str(&format!("{group}{i},男,{group}单位{i},{group}\n"));
        }
    }
    let sheet = tmp.path().join("players.csv");
    fs::write(&sheet, csv).unwrap();
    run(tmp.path(), &["init", "ev", "--rules", p(&rules)]).ok();
    run(tmp.path(), &["--event", "ev", "import", p(&sheet)]).ok();
    run(tmp.path(), &["--event", "ev", "pair", "--all"]).ok();
    (tmp, "ev".to_string())
}

/// The table numbers of each pool's newest round, from the state.
fn tables(dir: &std::path::Path, group: &str) -> Vec<u64> {
    let state: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("ev/qiwang.json")).unwrap()).unwrap();
    let rounds = state["groups"][group]["rounds"].as_array().unwrap();
    rounds.last().unwrap()["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["table"].as_u64())
        .collect()
}

#[test]
fn the_pools_of_a_round_are_numbered_on_in_one_hall() {
    let (tmp, ev) = event();
    let dir = tmp.path();
    assert_eq!(tables(dir, "open"), [1, 2, 3, 4, 5]);
    assert_eq!(tables(dir, "kids"), [6, 7, 8]);
    // Its own hall starts at 1; its own first table holds.
    assert_eq!(tables(dir, "girls"), [1, 2]);
    assert_eq!(tables(dir, "old"), [101, 102]);

    // The sheets print the hall number, and the own hall's name.
    let slips = run(
        dir,
        &[
            "--event",
            &ev,
            "round",
            "--group",
            "少儿组",
            "--sheet",
            "slips",
            "--format",
            "html",
        ],
    )
    .ok();
    assert!(
        slips.contains("第6台") && slips.contains("第8台"),
        "{slips}"
    );
    assert!(!slips.contains("第1台"), "{slips}");
    let cards = run(
        dir,
        &[
            "--event",
            &ev,
            "round",
            "--group",
            "女子组",
            "--sheet",
            "cards",
            "--format",
            "html",
        ],
    )
    .ok();
    assert!(cards.contains("二楼 第 1 台"), "{cards}");
    let find = run(
        dir,
        &[
            "--event", &ev, "round", "--sheet", "find", "--format", "csv",
        ],
    )
    .ok();
    assert!(
        find.lines()
            .any(|l| l.contains("少儿组") && l.contains(",7,")),
        "{find}"
    );

    // `result` takes the hall number without `--group`, tables of two pools at once.
    run(dir, &["--event", &ev, "result", "6", "r", "3", "b"]).ok();
    let state = fs::read_to_string(dir.join("ev/qiwang.json")).unwrap();
    let state: Value = serde_json::from_str(&state).unwrap();
    let game = |g: &str, i: usize| state["groups"][g]["rounds"][0]["pairings"][i].clone();
    assert_eq!(game("kids", 0)["table"], 6);
    assert_eq!(
        game("kids", 0)["result"]["outcome"],
        "red_win",
        "{}",
        game("kids", 0)
    );
    assert_eq!(game("open", 2)["table"], 3);
    assert_eq!(game("open", 2)["result"]["outcome"], "black_win");
    // A number two halls share needs `--group`; with it, the pool's own number.
    run(dir, &["--event", &ev, "result", "2", "="]).fails(2, &[]);
    run(
        dir,
        &["--event", &ev, "result", "--group", "老年组", "101", "="],
    )
    .ok();
    // A number in no pool's round is refused, naming the pool's own tables.
    let e = run(
        dir,
        &["--event", &ev, "result", "--group", "少儿组", "1", "="],
    )
    .fails(3, &[]);
    assert!(e.contains('6') && e.contains('8'), "{e}");
}

#[test]
fn pairing_set_uses_the_hall_number() {
    let (tmp, ev) = event();
    let dir = tmp.path();
    let state: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("ev/qiwang.json")).unwrap()).unwrap();
    let kids = state["groups"]["kids"]["rounds"][0]["pairings"].clone();
    let (a, b) = (
        kids[0]["red"].as_u64().unwrap(),
        kids[1]["red"].as_u64().unwrap(),
    );
    // Table 7 is 少儿组's: no `--group` needed; the displaced players stay in 6–8.
    run(
        dir,
        &[
            "--event",
            &ev,
            "pairing",
            "set",
            "7",
            &a.to_string(),
            &b.to_string(),
        ],
    )
    .ok();
    assert_eq!(tables(dir, "kids"), [6, 7, 8]);
    assert_eq!(tables(dir, "open"), [1, 2, 3, 4, 5]);
}

/// A table number no group's round has is refused as such, with the hall's tables (it
/// asked for `--group` as if the number were fine); the event is untouched.
#[test]
fn a_table_no_group_has_is_named_not_blamed_on_the_group() {
    let (tmp, ev) = event();
    let dir = tmp.path();
    let before = crate::common::snapshot(&dir.join(&ev));
    let err = run(dir, &["--event", &ev, "result", "999", "红胜"]).fails(3, &["没有第 999 台"]);
    assert!(err.contains("1–8") && !err.contains("--group"), "{err}");
    run(
        dir,
        &["--event", &ev, "result", "--round", "1", "999", "红胜"],
    )
    .fails(3, &["第 1 轮没有第 999 台"]);
    assert_eq!(before, crate::common::snapshot(&dir.join(&ev)));
    // A withdrawal refused (a game of the round without its result) names the player,
    // not an id. The round's draw is random: take a player who sits at a table.
    let round: Value = run(
        dir,
        &[
            "--event",
            &ev,
            "--format",
            "json",
            "round",
            "--group",
            "公开组",
        ],
    )
    .json();
    let seated = round["pairings"][0]["red"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    run(dir, &["--event", &ev, "player", "withdraw", &seated]).fails(3, &[&seated]);
}
