//! A Swiss open whose top five then play a round robin (前五名单循环, docs/rules.md §16.7),
//! end to end through the binary: a tie across the finalists' line holds the stage until
//! a playoff orders it, the stage follows the Berger tables with the finalists numbered by
//! their Swiss places, and for each `carried_results` value the places equal a ranking the
//! test computes itself from the games the rounds printed. Refusals leave qiwang.json
//! byte-identical; the crosstable, exports and `check` cover the stage.

use crate::common::{event_from, numbered_sheet, p, rules_plus, standings_places, zh, zh_ok as ok};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const RULES: &str = r#"
[event]
name = "公开赛"
rounds = 3
[[groups]]
id = "open"
name = "公开组"
final_stage = "round_robin"
finalists = 5
carried_results = "CARRIED"
[scoring]
red_win = 2
red_draw = 1
red_loss = 0
black_win = 2
black_draw = 1
black_loss = 0
bye = 2
forfeit_win = 2
forfeit_loss = 0
double_forfeit = 0
[pairing]
seeding = "sheet"
[ranking]
tiebreaks = []
fallback = "none"
unresolved = "shared"
shared_from_place = 1
"#;

/// The Swiss rounds' results, table by table, then the five stage rounds' (two tables
/// each, the bye last).
const SWISS: [&[&str]; 3] = [
    &["1", "r", "2", "r", "3", "r", "4", "="],
    &["1", "r", "2", "r", "3", "r", "4", "="],
    &["1", "r", "2", "r", "3", "r", "4", "="],
];
const FINAL: [&[&str]; 5] = [
    &["1", "r", "2", "r"],
    &["1", "b", "2", "r"],
    &["1", "r", "2", "="],
    &["1", "b", "2", "b"],
    &["1", "r", "2", "r"],
];

/// The eight players of the open group, 选手1 … 选手8 by the sheet.
pub(crate) fn eight() -> String {
    numbered_sheet("公开组", (1..=8).map(|i| format!("选手{i}")))
}

fn json(event: &Path) -> Vec<u8> {
    std::fs::read(event.join("qiwang.json")).unwrap()
}

/// One game as a round's CSV prints it: red, black and red's points (2, 1, 0), or a bye.
#[derive(Debug, Clone)]
enum Game {
    Played {
        round: u32,
        red: String,
        black: String,
        red_points: u32,
    },
    Bye {
        round: u32,
        player: String,
    },
}

/// The games of round `r` as `round --format csv` prints them.
fn games(event: &Path, r: u32) -> Vec<Game> {
    let csv = ok(event, &["round", &r.to_string(), "--format", "csv"]);
    csv.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            match c[5] {
                "轮空" => Game::Bye {
                    round: r,
                    player: c[2].to_string(),
                },
                result => Game::Played {
                    round: r,
                    red: c[2].to_string(),
                    black: c[8].to_string(),
                    red_points: match result {
                        "红胜" | "黑弃权" => 2,
                        "和" => 1,
                        "黑胜" | "红弃权" => 0,
                        other => panic!("unexpected result {other}"),
                    },
                },
            }
        })
        .collect()
}

/// Eight players by the sheet; three Swiss rounds; returns the event.
fn swiss_event(dir: &Path, carried: &str) -> PathBuf {
    let ev = event_from(dir, &RULES.replace("CARRIED", carried), &eight());
    for tokens in SWISS {
        ok(&ev, &["pair"]);
        let mut args = vec!["result"];
        args.extend_from_slice(tokens);
        ok(&ev, &args);
    }
    ev
}

/// The finalists' order the test computes itself: the points of the games `carried`
/// counts (the stage's, plus the Swiss games between finalists or every Swiss game), the
/// stage's byes as wins; ties by the points among the tied (相互间成绩), then wins, then
/// black wins. The script leaves no tie after those.
fn expected(swiss: &[Game], stage: &[Game], finalists: &[String], carried: &str) -> Vec<String> {
    let is_final = |n: &String| finalists.contains(n);
    let counted: Vec<&Game> = stage
        .iter()
        .chain(swiss.iter().filter(|g| match (carried, g) {
            ("all", _) => true,
            ("finalists", Game::Played { red, black, .. }) => is_final(red) && is_final(black),
            _ => false,
        }))
        .collect();
    // (points, wins, black wins) per finalist, and points per ordered pair.
    let mut points: BTreeMap<&String, (u32, u32, u32)> =
        finalists.iter().map(|n| (n, (0, 0, 0))).collect();
    let mut between: BTreeMap<(&String, &String), u32> = BTreeMap::new();
    for g in &counted {
        match g {
            Game::Bye { player, .. } => {
                if let Some(e) = points.get_mut(player) {
                    e.0 += 2;
                }
            }
            Game::Played {
                red,
                black,
                red_points,
                ..
            } => {
                let black_points = 2 - red_points;
                if let Some(e) = points.get_mut(red) {
                    e.0 += red_points;
                    e.1 += u32::from(*red_points == 2);
                }
                if let Some(e) = points.get_mut(black) {
                    e.0 += black_points;
                    e.1 += u32::from(black_points == 2);
                    e.2 += u32::from(black_points == 2);
                }
                *between.entry((red, black)).or_default() += red_points;
                *between.entry((black, red)).or_default() += black_points;
            }
        }
    }
    let mut order: Vec<&String> = finalists.iter().collect();
    let mutual = |p: &String, tied: &[&String]| -> u32 {
        tied.iter()
            .map(|q| between.get(&(p, *q)).copied().unwrap_or(0))
            .sum()
    };
    let key = |p: &String| {
        let tied: Vec<&String> = finalists
            .iter()
            .filter(|q| points[q].0 == points[p].0)
            .collect();
        (
            std::cmp::Reverse(points[p].0),
            std::cmp::Reverse(mutual(p, &tied)),
            std::cmp::Reverse(points[p].1),
            std::cmp::Reverse(points[p].2),
        )
    };
    order.sort_by_key(|p| key(p));
    for w in order.windows(2) {
        assert_ne!(key(w[0]), key(w[1]), "the script leaves {w:?} tied");
    }
    order.into_iter().cloned().collect()
}

/// Each finalist's stage round with the bye, in `finalists` order.
fn bye_rounds(stage: &[Game], finalists: &[String]) -> Vec<u32> {
    finalists
        .iter()
        .map(|f| {
            stage
                .iter()
                .find_map(|g| match g {
                    Game::Bye { round, player } if player == f => Some(*round),
                    _ => None,
                })
                .unwrap_or(0)
        })
        .collect()
}

/// The whole event under one `carried_results` value: the tie across the line, the
/// playoff, the stage, and the places compared with the test's own ranking.
fn run_event(carried: &str) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    let ev = swiss_event(tmp.path(), carried);
    let swiss: Vec<Game> = (1..=3).flat_map(|r| games(&ev, r)).collect();
    // The Swiss standings: the places 5 and 6 must be tied for the line to hold.
    let before_playoff = standings_places(&ev);
    let fifth = &before_playoff[4];
    let sixth = &before_playoff[5];
    assert_eq!(
        fifth.0, sixth.0,
        "the script ties the line: {before_playoff:?}"
    );
    let before = json(&ev);
    zh(&ev, &["pair"])
        .status(3)
        .stdout_empty()
        .stderr_has("决赛阶段暂不能开始")
        .check();
    assert_eq!(json(&ev), before, "a stage started early changes nothing");
    // The standings name the tied place, not 并列第一.
    let standings = ok(&ev, &["standings"]);
    assert!(
        standings.contains(&format!(
            "并列第{}名，需加赛",
            fifth.0.trim_end_matches('=')
        )),
        "{standings}"
    );
    assert!(!standings.contains("并列第一"), "{standings}");
    // The playoff puts the tied players in reverse sheet order.
    let tied: Vec<String> = before_playoff
        .iter()
        .filter(|(place, _)| *place == fifth.0)
        .map(|(_, n)| n.clone())
        .collect();
    let mut playoff: Vec<String> = tied.clone();
    playoff.sort_by_key(|n| std::cmp::Reverse(n[6..].parse::<u32>().unwrap()));
    let mut args = vec!["playoff", "--group", "公开组"];
    args.extend(playoff.iter().map(String::as_str));
    ok(&ev, &args);
    let swiss_order: Vec<String> = standings_places(&ev).into_iter().map(|(_, n)| n).collect();
    let finalists: Vec<String> = swiss_order[..5].to_vec();
    // The stage: five rounds of the 5-player Berger table, numbered by Swiss place.
    let out = ok(&ev, &["pair", "--explain"]);
    assert!(out.contains("贝格尔表第 1 轮（5 人单循环"), "{out}");
    assert!(
        out.contains("决赛阶段：决赛选手按预赛名次编为 1 至 5 号"),
        "{out}"
    );
    let mut stage = Vec::new();
    for (k, tokens) in FINAL.iter().enumerate() {
        if k > 0 {
            ok(&ev, &["pair"]);
        }
        // A table that is not in the round is refused and changes nothing.
        let before = json(&ev);
        zh(&ev, &["result", "3", "r"])
            .status(3)
            .stdout_empty()
            .check();
        assert_eq!(json(&ev), before);
        let mut args = vec!["result"];
        args.extend_from_slice(tokens);
        ok(&ev, &args);
        stage.extend(games(&ev, 4 + k as u32));
    }
    // Berger round 1 of five (six with a dummy 6th): 1 has the bye, 2–5, 3–4.
    let first: Vec<(String, String)> = stage
        .iter()
        .filter_map(|g| match g {
            Game::Played {
                round: 4,
                red,
                black,
                ..
            } => Some((red.clone(), black.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        first,
        [
            (finalists[1].clone(), finalists[4].clone()),
            (finalists[2].clone(), finalists[3].clone())
        ],
        "Berger round 1 by Swiss place"
    );
    // Every finalist met every other once in the stage and had one bye.
    for a in &finalists {
        let byes = stage
            .iter()
            .filter(|g| matches!(g, Game::Bye { player, .. } if player == a))
            .count();
        assert_eq!(byes, 1, "{a}");
        for b in finalists.iter().filter(|b| *b != a) {
            let met = stage
                .iter()
                .filter(|g| matches!(g, Game::Played { red, black, .. } if (red == a && black == b) || (red == b && black == a)))
                .count();
            assert_eq!(met, 1, "{a} v {b}");
        }
    }
    // Every stage round is played: nothing left to pair.
    zh(&ev, &["pair"]).status(3).stdout_empty().check();
    // The carry rule cannot change once the pool is paired: refused, nothing changes.
    let other = match carried {
        "none" => "all",
        _ => "none",
    };
    let changed = tmp.path().join("changed.toml");
    std::fs::write(&changed, RULES.replace("CARRIED", other)).unwrap();
    let before = json(&ev);
    zh(&ev, &["rules", "update", p(&changed)])
        .status(3)
        .stdout_empty()
        .stderr_has("final_stage")
        .check();
    assert_eq!(json(&ev), before);
    ok(&ev, &["check"]);
    let want = expected(&swiss, &stage, &finalists, carried);
    let got = standings_places(&ev);
    let names: Vec<String> = got.iter().map(|(_, n)| n.clone()).collect();
    assert_eq!(names[..5], want[..], "carried_results = {carried}: {got:?}");
    let places: Vec<&str> = got.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(places, ["1", "2", "3", "4", "5", "6", "7", "8"], "{got:?}");
    let standings = ok(&ev, &["standings"]);
    assert!(
        standings.contains("前5名按决赛阶段（单循环）的名次排列，积分列仍为预赛积分"),
        "{standings}"
    );
    // The non-finalists keep their Swiss order (the playoff's) below the finalists.
    assert_eq!(names[5..], swiss_order[5..], "{got:?}");
    // The crosstable: the Swiss rounds, then the finalists' square table.
    let table = ok(&ev, &["crosstable"]);
    assert!(
        table.contains("积分编排制3轮已赛完；决赛阶段单循环第5轮后（共5轮）"),
        "{table}"
    );
    assert!(table.contains("决赛阶段：前5名单循环"), "{table}");
    assert!(table.contains('■'), "{table}");
    let header = table.lines().find(|l| l.contains("第1轮")).unwrap();
    assert!(
        header.contains("第3轮") && !header.contains("第4轮"),
        "the stage's rounds are no Swiss columns: {table}"
    );
    // Exports carry both sheets; the prize sheet places the finalists first.
    let out = tmp.path().join("site");
    ok(&ev, &["export", "--format", "html", "--out", p(&out)]);
    let page = std::fs::read_to_string(out.join("open/crosstable.html")).unwrap();
    assert!(page.contains("决赛阶段：前5名单循环"), "{page}");
    let xlsx = tmp.path().join("x");
    ok(&ev, &["export", "--format", "xlsx", "--out", p(&xlsx)]);
    // An odd final: each finalist's bye round in a column of its own, in every format.
    let byes = bye_rounds(&stage, &finalists);
    let square_rows: Vec<&str> = table
        .lines()
        .filter(|l| finalists.iter().any(|f| l.contains(f.as_str())) && l.contains('■'))
        .collect();
    assert_eq!(square_rows.len(), 5, "{table}");
    for (f, round) in finalists.iter().zip(&byes) {
        let row = square_rows.iter().find(|l| l.contains(f.as_str())).unwrap();
        assert!(row.contains(&format!("第{round}轮")), "{f}: {row}");
    }
    assert!(
        table.contains("轮空：该棋手轮空的轮次，每次得 2 分，计入积分"),
        "{table}"
    );
    assert!(page.contains("第4轮"), "{page}");
    // `serve` serves the same page.
    if carried == "finalists" {
        let served = crate::serve::Served::start(&ev, &[]);
        let live = served.get("/open/crosstable.html");
        assert_eq!(live.status, 200);
        assert!(live.body.contains("决赛阶段：前5名单循环"), "{}", live.body);
    }
    let book = std::fs::read(
        std::fs::read_dir(&xlsx)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "xlsx"))
            .unwrap(),
    )
    .unwrap();
    let mut book = calamine::open_workbook_auto_from_rs(std::io::Cursor::new(&book[..])).unwrap();
    use calamine::Reader;
    let mut found = 0;
    for name in book.sheet_names() {
        let range = book.worksheet_range(&name).unwrap();
        for cell in range.used_cells() {
            let text = cell.2.to_string();
            if byes.iter().any(|r| text == format!("第{r}轮")) {
                found += 1;
            }
        }
    }
    assert!(found >= 5, "the bye rounds in the workbook: {found}");
    want
}

#[test]
fn each_carried_results_value_ranks_the_final_as_computed_independently() {
    let orders: Vec<Vec<String>> = ["none", "finalists", "all"]
        .into_iter()
        .map(run_event)
        .collect();
    // The key matters: the script gives each value its own places.
    assert!(
        orders[0] != orders[1] && orders[1] != orders[2] && orders[0] != orders[2],
        "{orders:?}"
    );
}

/// Bad rulebooks are refused with the key named: a carry key on a knockout stage, an
/// unknown carry value, a stage of too many finalists.
#[test]
fn a_round_robin_stage_rulebook_refuses_bad_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            RULES.replace("\"round_robin\"", "\"knockout\"").replace(
                "carried_results = \"CARRIED\"\n",
                "carried_results = \"all\"\n",
            ),
            "carried_results",
        ),
        (RULES.replace("CARRIED", "half"), "carried_results"),
        (
            RULES
                .replace("CARRIED", "none")
                .replace("finalists = 5", "finalists = 21"),
            "finalists",
        ),
    ];
    for (i, (text, key)) in cases.iter().enumerate() {
        let path = tmp.path().join(format!("bad{i}.toml"));
        std::fs::write(&path, text).unwrap();
        println!("{text}");
        crate::common::Run::new(tmp.path(), &["--lang", "zh", "rules", "check", p(&path)])
            .status(3)
            .stdout_empty()
            .stderr_has(key)
            .check();
    }
    // `rules check` explains the plan and `rules show` lists the keys.
    let path = tmp.path().join("good.toml");
    std::fs::write(&path, RULES.replace("CARRIED", "finalists")).unwrap();
    crate::common::Run::new(tmp.path(), &["--lang", "zh", "rules", "check", p(&path)])
        .stdout_has("前 5 名进入决赛单循环")
        .stdout_has("带入预赛中决赛选手之间的对局成绩")
        .stderr_empty()
        .check();
}

/// A Swiss stage then a knockout: the crosstable's heading counts the Swiss rounds out of
/// the Swiss stage's and the knockout's rounds in its own words, never the knockout's games
/// as Swiss rounds (it once read 第7轮后（共7轮） for a 3-round Swiss and its knockout).
#[test]
fn a_swiss_knockout_crosstable_counts_the_swiss_rounds_and_the_knockout_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let text = rules_plus("swiss-knockout", "")
        .replace("rounds = 7", "rounds = 3")
        .replace("finalists = 8", "finalists = 4")
        .replace("seeding = \"random_draw\"", "seeding = \"sheet\"");
    let ev = event_from(tmp.path(), &text, &eight());
    for _ in 0..3 {
        ok(&ev, &["pair"]);
        ok(&ev, &["result", "1", "r", "2", "r", "3", "r", "4", "r"]);
    }
    let table = ok(&ev, &["crosstable"]);
    assert!(
        table.contains("第3轮后（积分编排制共3轮，之后前4名淘汰赛）"),
        "{table}"
    );
    // Two knockout rounds (semi-final games 1 and 2).
    ok(&ev, &["pair"]);
    ok(&ev, &["result", "1", "r", "2", "r"]);
    ok(&ev, &["pair"]);
    ok(&ev, &["result", "1", "b", "2", "b"]);
    let table = ok(&ev, &["crosstable"]);
    assert!(
        table.contains("积分编排制3轮已赛完；决赛阶段淘汰赛第2轮后"),
        "{table}"
    );
    assert!(!table.contains("第5轮后"), "{table}");
    assert!(
        !table.contains("第5轮"),
        "the knockout's games are no Swiss columns: {table}"
    );
    assert!(table.contains("决赛阶段：前4名淘汰赛"), "{table}");
    let standings = ok(&ev, &["standings"]);
    assert!(
        standings.contains("积分编排制3轮已赛完；决赛阶段淘汰赛第2轮后"),
        "{standings}"
    );
}

/// A finalist who withdraws after one of three stage games (docs/rules.md §16.7 with
/// §14.4's half rule): never re-paired, the remaining games entered as forfeits, and every
/// stage game of theirs annulled, so the square table's totals are the other finalists'
/// games among themselves.
#[test]
fn a_finalist_withdrawn_before_half_the_stage_has_the_stage_games_annulled() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = RULES
        .replace("CARRIED", "none")
        .replace("finalists = 5", "finalists = 4");
    let ev = event_from(tmp.path(), &rules, &eight());
    for _ in 0..3 {
        ok(&ev, &["pair"]);
        ok(&ev, &["result", "1", "r", "2", "b", "3", "r", "4", "b"]);
    }
    let swiss: Vec<String> = standings_places(&ev).into_iter().map(|(_, n)| n).collect();
    ok(&ev, &["pair"]);
    ok(&ev, &["result", "1", "r", "2", "r"]);
    let gone = swiss[0].clone();
    ok(&ev, &["player", "withdraw", &gone]);
    let mut stage = games(&ev, 4);
    for r in 5..=6 {
        ok(&ev, &["pair"]);
        // The withdrawn finalist's game is entered as a forfeit when paired.
        let round = ok(&ev, &["round", "--format", "csv"]);
        assert!(round.contains("弃权"), "{round}");
        let open: Vec<String> = round
            .lines()
            .skip(1)
            .filter(|l| !l.contains(gone.as_str()))
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect();
        assert_eq!(open.len(), 1, "{round}");
        ok(&ev, &["result", &open[0], "b"]);
        stage.extend(games(&ev, r).into_iter().filter(
            |g| !matches!(g, Game::Played { red, black, .. } if *red == gone || *black == gone),
        ));
    }
    ok(&ev, &["check"]);
    let counted: Vec<Game> = stage
        .into_iter()
        .filter(|g| !matches!(g, Game::Played { red, black, .. } if *red == gone || *black == gone))
        .collect();
    let mut points: BTreeMap<String, u32> = BTreeMap::new();
    for g in &counted {
        if let Game::Played {
            red,
            black,
            red_points,
            ..
        } = g
        {
            *points.entry(red.clone()).or_default() += red_points;
            *points.entry(black.clone()).or_default() += 2 - red_points;
        }
    }
    let table = ok(&ev, &["crosstable"]);
    let square: Vec<&str> = table.lines().filter(|l| l.contains('■')).collect();
    assert_eq!(square.len(), 4, "{table}");
    for row in square {
        let cells: Vec<&str> = row.split('┆').map(str::trim).collect();
        let name = cells[1];
        let total: u32 = cells[cells.len() - 2].parse().unwrap();
        let want = points.get(name).copied().unwrap_or(0);
        assert_eq!(total, want, "{name}: {row}");
    }
    // The withdrawn finalist places last of the four, the others by their games.
    let names: Vec<String> = standings_places(&ev).into_iter().map(|(_, n)| n).collect();
    assert_eq!(names[3], gone, "{names:?}");
}

/// A round-robin stage's keys survive `rules show`: the effective TOML reads back to the
/// same rulebook for every carry value and cycle count.
#[test]
fn a_round_robin_stage_round_trips_through_the_effective_rulebook() {
    use qiwang::rulebook::{CarriedResults, FormatKind, Rulebook};
    for (carried, want) in [
        ("none", CarriedResults::None),
        ("finalists", CarriedResults::Finalists),
        ("all", CarriedResults::All),
    ] {
        for cycles in [1, 2] {
            let text = RULES.replace("CARRIED", carried).replace(
                "finalists = 5",
                &format!("finalists = 5\ncycles = {cycles}"),
            );
            let rules = Rulebook::from_toml(&text, "r.toml").unwrap();
            let stage = rules.groups[0].format.final_stage.unwrap();
            assert_eq!(
                (stage.format, stage.cycles, stage.carried, stage.finalists),
                (FormatKind::RoundRobin, cycles, want, 5)
            );
            let effective = rules.to_effective_toml();
            let back = Rulebook::from_toml(&effective, "effective.toml")
                .unwrap_or_else(|e| panic!("{e}\n{effective}"));
            assert_eq!(back, rules, "{carried} {cycles}");
        }
    }
}

/// A finalist penalised in the Swiss stage shows the same 积分 and penalty column in the
/// standings whichever the final stage: the Swiss 积分, and the penalty it has deducted
/// (docs/rules.md §5.3: 积分 is S_n minus recorded penalties; §16.6, §16.7: a finalist keeps
/// the Swiss 积分). The round-robin stage once showed no penalty beside a 积分 it lowered.
#[test]
fn a_finalists_penalty_column_is_the_swiss_one_in_either_final_stage() {
    let shown = |preset: &str, finalists: &str| {
        let tmp = tempfile::tempdir().unwrap();
        let text = rules_plus(preset, "")
            .replace("rounds = 7", "rounds = 3")
            .replace(finalists, "finalists = 4")
            .replace("seeding = \"random_draw\"", "seeding = \"sheet\"");
        let ev = event_from(tmp.path(), &text, &eight());
        for _ in 0..3 {
            ok(&ev, &["pair"]);
            ok(&ev, &["result", "1", "r", "2", "r", "3", "r", "4", "r"]);
        }
        let jia = || -> (i64, i64) {
            let st: serde_json::Value =
                serde_json::from_str(&ok(&ev, &["standings", "--format", "json"])).unwrap();
            let row = st["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["name"] == "选手1")
                .cloned()
                .unwrap();
            (
                row["score"].as_i64().unwrap(),
                row["penalty"].as_i64().unwrap(),
            )
        };
        let (swiss, _) = jia();
        // 选手1 shares the lead and stays a finalist one point lower.
        ok(&ev, &["penalty", "选手1", "1", "--reason", "扰乱赛场"]);
        ok(&ev, &["pair"]);
        ok(&ev, &["result", "1", "r", "2", "r"]);
        let table = ok(&ev, &["standings"]);
        assert!(
            table.contains("决赛阶段"),
            "{preset}: the stage began: {table}"
        );
        assert!(table.contains("罚分 -1"), "{preset}: {table}");
        let shown = jia();
        assert_eq!(
            shown,
            (swiss - 1, 1),
            "{preset}: 积分 and the penalty it deducted"
        );
        shown
    };
    let knockout = shown("swiss-knockout", "finalists = 8");
    let round_robin = shown("swiss-round-robin", "finalists = 6");
    assert_eq!(round_robin, knockout);
}
