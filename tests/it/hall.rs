//! One hall numbering (docs/rules.md §12 (table numbers), issue 43 item 7): the tables of every pool of
//! a round are numbered on in rulebook order, so no two games of a round share a number,
//! and every sheet and command uses that number; a pool's own hall or first table.

use crate::common::{Run, p, run};
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
    // The confirmation names the hall of a pool in another hall, whose table 1 is not the
    // main hall's.
    let said = run(
        dir,
        &["--event", &ev, "result", "--group", "女子组", "1", "r"],
    )
    .ok();
    assert!(said.contains("女子组 第1轮 二楼 第1台："), "{said}");
    let said = run(
        dir,
        &[
            "--event",
            &ev,
            "--lang",
            "en",
            "result",
            "--group",
            "女子组",
            "1",
            "b",
        ],
    )
    .ok();
    assert!(said.contains("round 1 二楼 table 1: "), "{said}");
    // A number in no pool's round is refused, naming the pool's own tables.
    let e = run(
        dir,
        &["--event", &ev, "result", "--group", "少儿组", "1", "="],
    )
    .fails(3, &[]);
    assert!(e.contains('6') && e.contains('8'), "{e}");
}

/// How many objects in `v` name the hall 二楼.
fn count_halls(v: &Value) -> usize {
    match v {
        Value::Object(m) => {
            usize::from(m.get("hall").is_some_and(|h| h == "二楼"))
                + m.values().map(count_halls).sum::<usize>()
        }
        Value::Array(a) => a.iter().map(count_halls).sum(),
        _ => 0,
    }
}

/// Every table number a player reads of a pool in another hall carries the hall, since
/// that hall is numbered from 1 too: find-my-table (sheet and site), the pairing sheet,
/// the table cards and slips, and the results file (a 场地 column it reads back past).
#[test]
fn the_sheets_a_player_reads_name_the_hall_of_a_pool_in_another_hall() {
    let (tmp, ev) = event();
    let dir = tmp.path();
    let sheet = |group: Option<&str>, kind: &str, format: &str| {
        let mut args = vec!["--event", ev.as_str(), "round"];
        if let Some(g) = group {
            args.extend(["--group", g]);
        }
        args.extend(["--sheet", kind, "--format", format]);
        run(dir, &args).ok()
    };
    for format in ["table", "html", "csv"] {
        let find = sheet(None, "find", format);
        // 女子组's tables 1 and 2 stand in 二楼; 公开组's table 1 stays table 1.
        assert!(
            find.contains("二楼 1") && find.contains("二楼 2"),
            "{format}: {find}"
        );
        assert!(
            find.lines()
                .filter(|l| l.contains("公开组"))
                .all(|l| !l.contains("二楼")),
            "{format}: {find}"
        );
        for kind in ["pairings", "cards", "slips"] {
            let girls = sheet(Some("女子组"), kind, format);
            assert!(girls.contains("二楼"), "{kind} {format}: {girls}");
            let kids = sheet(Some("少儿组"), kind, format);
            assert!(!kids.contains("二楼"), "{kind} {format}: {kids}");
        }
    }
    // In JSON every table of a pool in another hall carries it; one hall's carry none.
    for kind in ["pairings", "cards", "slips", "find"] {
        let girls: Value = serde_json::from_str(&sheet(Some("女子组"), kind, "json")).unwrap();
        let halls = count_halls(&girls);
        assert!(halls >= 2, "{kind}: {girls}");
        let kids: Value = serde_json::from_str(&sheet(Some("少儿组"), kind, "json")).unwrap();
        assert_eq!(count_halls(&kids), 0, "{kind}: {kids}");
    }
    // The pairing sheet and cards print the hall in the table column.
    let pairings = sheet(Some("女子组"), "pairings", "csv");
    assert!(
        pairings
            .lines()
            .nth(1)
            .is_some_and(|l| l.contains("二楼 1")),
        "{pairings}"
    );
    // The results file: 场地 before 台号 on every row (empty in the main hall), and an
    // event whose sheets name no other hall has no such column (the golden files).
    let slips = sheet(None, "slips", "csv");
    let header = slips.lines().next().unwrap().trim_start_matches('\u{FEFF}');
    assert!(header.starts_with("组别,轮次,场地,台号,"), "{slips}");
    assert!(slips.contains("女子组,1,二楼,1,"), "{slips}");
    assert!(slips.contains("公开组,1,,1,"), "{slips}");
    let kids = sheet(Some("少儿组"), "slips", "csv");
    assert!(!kids.contains("场地"), "{kids}");
    // Filled in, it reads back: the table is 女子组's table 1 in 二楼.
    let filled: String = sheet(Some("女子组"), "slips", "csv")
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut cells: Vec<&str> = l.split(',').collect();
            if i > 0 {
                cells[6] = "红胜";
            }
            cells.join(",") + "\n"
        })
        .collect();
    let file = dir.join("girls.csv");
    fs::write(&file, filled).unwrap();
    run(dir, &["--event", &ev, "result", "--from", p(&file)]).ok();
    let state = fs::read_to_string(dir.join("ev/qiwang.json")).unwrap();
    let state: Value = serde_json::from_str(&state).unwrap();
    let games = state["groups"]["girls"]["rounds"][0]["pairings"]
        .as_array()
        .unwrap();
    assert!(games.iter().all(|g| !g["result"].is_null()), "{games:?}");

    // The site (`export`, and `serve` from the same renderer): find-my-table and the round page.
    let out = dir.join("site");
    run(dir, &["--event", &ev, "export", "--out", p(&out)]).ok();
    let find = fs::read_to_string(out.join("find.html")).unwrap();
    assert!(find.contains("台号 二楼 1"), "{find}");
    let round = fs::read_to_string(out.join("girls/round-1.html")).unwrap();
    assert!(round.contains(">二楼 1<"), "{round}");
    let kids = fs::read_to_string(out.join("kids/round-1.html")).unwrap();
    assert!(!kids.contains("二楼"), "{kids}");
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

/// Every game of round `round` of pool `group` (its id) given a draw, by hall number.
fn draw_all(dir: &std::path::Path, group: &str, round: usize) {
    let state: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("ev/qiwang.json")).unwrap()).unwrap();
    let mut args = vec!["--event".to_string(), "ev".into(), "result".into()];
    args.extend(["--group".into(), group.into()]);
    for p in state["groups"][group]["rounds"][round - 1]["pairings"]
        .as_array()
        .unwrap()
    {
        if let Some(t) = p["table"].as_u64() {
            args.extend([t.to_string(), "=".into()]);
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(dir, &args).ok();
}

/// A pool paired after the pool behind it, with late entries that make it play more
/// tables than were kept for it, goes on after the tables that pool holds: 少儿组 plays
/// round 2 at 6–8 while 公开组 still plays; four late entries make 公开组 seven tables,
/// which at 1–7 would give 6 and 7 twice. `check` finds nothing to report.
#[test]
fn a_pool_grown_by_late_entries_takes_no_number_another_pool_holds() {
    let (tmp, ev) = event();
    let dir = tmp.path();
    draw_all(dir, "kids", 1);
    run(dir, &["--event", &ev, "pair", "--group", "少儿组"]).ok();
    assert_eq!(tables(dir, "kids"), [6, 7, 8]);
    for n in 1..=4 {
        let name = format!("迟到{n}");
        run(
            dir,
            &[
                "--event",
                &ev,
                "player",
                "add",
                "--name",
                &name,
                "--gender",
                "男",
                "--unit",
                "迟到队",
                "--group",
                "公开组",
            ],
        )
        .ok();
    }
    draw_all(dir, "open", 1);
    run(dir, &["--event", &ev, "pair", "--group", "公开组"]).ok();
    assert_eq!(tables(dir, "open"), [9, 10, 11, 12, 13, 14, 15]);
    run(dir, &["--event", &ev, "check"]).ok();
}

/// `check` finds a number two pools of one hall hold in the same round (a state written
/// before pairing avoided it), in both pools, and fails counting it once; rounds paired
/// before the hall numbering (every pool from table 1) share numbers by design and pass.
#[test]
fn check_finds_a_number_two_pools_hold_in_one_round() {
    let (tmp, ev) = event();
    let dir = tmp.path();
    let path = dir.join("ev/qiwang.json");
    let good = fs::read_to_string(&path).unwrap();
    let with_kids_at = |first: u64| {
        let mut state: Value = serde_json::from_str(&good).unwrap();
        let games = state["groups"]["kids"]["rounds"][0]["pairings"]
            .as_array_mut()
            .unwrap();
        for (i, g) in games.iter_mut().filter(|g| g["table"].is_u64()).enumerate() {
            g["table"] = Value::from(first + i as u64);
        }
        serde_json::to_string(&state).unwrap()
    };
    fs::write(&path, with_kids_at(5)).unwrap();
    let ev = dir.join(&ev);
    Run::on_event(&ev, &["check"])
        .status(3)
        .stdout_has("公开组: 1 处违规")
        .stdout_has("第 1 轮：第 5 台")
        .stdout_has("也是 `公开组` 本轮的台号")
        .stdout_has("也是 `少儿组` 本轮的台号")
        .stderr_has("有 1 处违反硬性编排规则")
        .check();
    // The one number is one break in the verdict; the advice how to end it is said under
    // the table (and the page), never as a row of the data.
    Run::on_event(&ev, &["--format", "csv", "check"])
        .status(3)
        .stdout_has("第 1 轮：第 5 台")
        .stdout_lacks("提示")
        .stderr_has("有 1 处违反硬性编排规则")
        .check();
    Run::on_event(&ev, &["--format", "json", "check"])
        .status(3)
        .stdout_has("table 5")
        .stdout_lacks("hint")
        .check();
    Run::on_event(&ev, &["--format", "html", "check"])
        .status(3)
        .stdout_has("提示：第 1 轮尚无成绩")
        .check();
    Run::on_event_in("en", &ev, &["check", "--group", "kids"])
        .status(3)
        .stdout_has("round 1: table 5 (")
        .stdout_has("is also a table of `公开组` in this round")
        .stdout_has("hint: round 1 has no result yet: `qiwang unpair --group kids` then")
        .check();
    // The advice, followed, numbers 少儿组 again clear of 公开组's tables.
    Run::on_event(&ev, &["unpair", "--group", "kids"]).check();
    Run::on_event(&ev, &["pair", "--group", "kids"]).check();
    assert_eq!(tables(dir, "kids"), [6, 7, 8]);
    Run::on_event(&ev, &["check"]).check();
    // 公开组 5 tables from 1, 少儿组 3 from 1: numbered per pool, as before the hall numbering.
    fs::write(&path, with_kids_at(1)).unwrap();
    Run::on_event(&ev, &["check"]).check();
}

/// `pairing set` refuses a table another pool of the hall holds in the round, with
/// `--force` too (it breaks no pairing rule a force could accept: two boards would carry
/// one number); the event is untouched. Another hall's number is free.
#[test]
fn pairing_set_refuses_a_number_another_pool_holds() {
    let (tmp, ev) = event();
    let dir = tmp.path();
    let state: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("ev/qiwang.json")).unwrap()).unwrap();
    let open = state["groups"]["open"]["rounds"][0]["pairings"].clone();
    let (a, b) = (
        open[0]["red"].as_u64().unwrap().to_string(),
        open[1]["red"].as_u64().unwrap().to_string(),
    );
    let before = crate::common::snapshot(&dir.join(&ev));
    for force in [false, true] {
        let mut args = vec![
            "--event",
            &ev,
            "pairing",
            "set",
            "7",
            &a,
            &b,
            "--group",
            "公开组",
        ];
        if force {
            args.push("--force");
        }
        run(dir, &args).fails(3, &["第 7 台是 `少儿组` 第 1 轮的台号"]);
    }
    assert_eq!(before, crate::common::snapshot(&dir.join(&ev)));
    // 女子组 plays in 二楼: its table 2 does not hold the main hall's.
    let girls = state["groups"]["girls"]["rounds"][0]["pairings"].clone();
    let (c, d) = (
        girls[0]["red"].as_u64().unwrap().to_string(),
        girls[1]["red"].as_u64().unwrap().to_string(),
    );
    run(
        dir,
        &[
            "--event",
            &ev,
            "pairing",
            "set",
            "1",
            &c,
            &d,
            "--group",
            "女子组",
        ],
    )
    .ok();
    assert_eq!(tables(dir, "girls"), [1, 2]);
    run(dir, &["--event", &ev, "check"]).ok();
}

/// The programme (秩序册) says which hall each group plays in when one has a hall of its
/// own: a 赛场 column (主赛场 for the rest) and `hall` in its JSON.
#[test]
fn the_programme_names_each_groups_hall() {
    let (tmp, ev) = event();
    let dir = tmp.path();
    let table = run(dir, &["--event", ev.as_str(), "programme"]).ok();
    assert!(table.contains("赛场"), "{table}");
    let row = |name: &str| {
        table
            .lines()
            .find(|l| l.contains(name) && (l.contains("二楼") || l.contains("主赛场")))
            .unwrap_or_else(|| panic!("no row of {name}:\n{table}"))
            .to_string()
    };
    assert!(row("女子组").contains("二楼"));
    assert!(row("公开组").contains("主赛场"));
    let json: Value = serde_json::from_str(
        &run(
            dir,
            &["--event", ev.as_str(), "--format", "json", "programme"],
        )
        .ok(),
    )
    .unwrap();
    let groups = json["groups"].as_array().unwrap();
    let hall = |id: &str| groups.iter().find(|g| g["id"] == id).unwrap()["hall"].clone();
    assert_eq!(hall("girls"), "二楼");
    assert_eq!(hall("open"), Value::Null);
}
