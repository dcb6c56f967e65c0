//! Round-robin groups (docs/rules.md §14), end to end:
//!
//! * the Berger tables for 3–20 players, single and double, equal an independent
//!   construction (the circle method, numbered as the published tables print it), with
//!   every pair meeting once per cycle and colours as the tables give them;
//! * the round-robin ranking (相互间成绩 over a mini-table, 胜局, 后胜局, 小分) on hundreds
//!   of random events with ties of 2, 3 and 4 players equals a recomputation written here;
//! * the CLI runs a round-robin group beside a Swiss one (the 无为 regulation), refuses bad
//!   input with the event untouched, checks rounds against the table, applies the
//!   withdrawal rule, takes numbers from the sheet's 序号, and prints the square table.

use crate::common::{init, p, root, zh, zh_ok as ok};
use qiwang::formats::round_robin::{Board, berger_round, rounds_per_cycle};
use qiwang::model::{Colour, Event, GameResult, GroupId, Outcome, Pairing, Player, PlayerId};
use qiwang::rulebook::Rulebook;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The circle method, written independently of `formats::round_robin`: numbers 1..n−1 on
/// a circle with n in the middle. Round 1's host (who meets n) is 1 and each round's host
/// is n/2 places further round the circle; the host's neighbours k places on either side
/// meet, the one after the host taking red, and n takes black in odd rounds, red in even
/// ones. Printed order: n's game first, then k = 1, 2, … — the published tables' order.
fn circle(players: u32, round: u32) -> Vec<(u32, u32)> {
    let n = players + players % 2;
    let m = n - 1;
    let wrap = |k: i64| ((k - 1).rem_euclid(i64::from(m)) + 1) as u32;
    let mut host = 1i64;
    for _ in 1..round {
        host += i64::from(n / 2);
    }
    let host = wrap(host);
    let mut out = vec![if round % 2 == 1 { (host, n) } else { (n, host) }];
    for k in 1..i64::from(n / 2) {
        out.push((wrap(i64::from(host) + k), wrap(i64::from(host) - k)));
    }
    out
}

fn printed(players: u32, cycles: u32, round: u32) -> Vec<(u32, u32)> {
    berger_round(players, cycles, round)
        .unwrap()
        .into_iter()
        .map(|b| match b {
            Board::Game { red, black } => (red, black),
            // The bye is the game against the dummy n + 1; put it back where it stood.
            Board::Bye(p) => (p, players + 1),
        })
        .collect()
}

#[test]
fn berger_tables_equal_the_circle_method_for_3_to_20_players() {
    let mut checked = 0u32;
    for players in 3..=20u32 {
        let per = rounds_per_cycle(players);
        for cycles in [1, 2] {
            let mut met: BTreeMap<(u32, u32), u32> = BTreeMap::new();
            for round in 1..=per * cycles {
                let r = (round - 1) % per + 1;
                let second = round > per;
                let want: Vec<(u32, u32)> = circle(players, r)
                    .into_iter()
                    .map(|(a, b)| if second { (b, a) } else { (a, b) })
                    .collect();
                let mut got = printed(players, cycles, round);
                // A bye was put back as (p, dummy); the circle may hold it as (dummy, p).
                let dummy = players + 1;
                for (g, w) in got.iter_mut().zip(&want) {
                    if players % 2 == 1 && g.1 == dummy && w.0 == dummy {
                        *g = (g.1, g.0);
                    }
                }
                assert_eq!(
                    got, want,
                    "{players} players, {cycles} cycles, round {round}"
                );
                for (a, b) in want {
                    if a <= players && b <= players {
                        *met.entry((a.min(b), a.max(b))).or_default() += 1;
                    }
                }
                checked += 1;
            }
            assert_eq!(met.len() as u32, players * (players - 1) / 2);
            assert!(met.values().all(|&k| k == cycles), "{players}: {met:?}");
        }
    }
    // Published rows (FIDE and CXA print the same tables): 10 players, rounds 1 and 2.
    assert_eq!(
        printed(10, 1, 1),
        vec![(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)]
    );
    assert_eq!(
        printed(10, 1, 2),
        vec![(10, 6), (7, 5), (8, 4), (9, 3), (1, 2)]
    );
    assert_eq!(
        checked,
        (3..=20u32).map(|n| 3 * rounds_per_cycle(n)).sum::<u32>()
    );
}

/// A rulebook with one round-robin pool of `cycles` and every tie shared.
fn rr_rules(cycles: u32) -> String {
    format!(
        r#"
[event]
name = "循环赛"
rounds = 7
[[groups]]
id = "rr"
name = "循环组"
format = "round_robin"
cycles = {cycles}
[ranking]
unresolved = "shared"
shared_from_place = 1
"#
    )
}

/// One random round-robin event after every round, results mostly draws so that ties
/// are frequent; forfeits and 双负 among them.
fn random_event(seed: u64) -> (Event, Rulebook, GroupId) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let players = rng.gen_range(3..=9u32);
    let cycles = if rng.gen_bool(0.25) { 2 } else { 1 };
    let text = rr_rules(cycles);
    let rules = Rulebook::from_toml(&text, "rr.toml").unwrap();
    let group = GroupId::new("rr");
    let mut event = Event::new(text);
    for id in 1..=players {
        event
            .players
            .push(Player::new(PlayerId(id), format!("p{id}"), group.clone()));
    }
    let rounds = rounds_per_cycle(players) * cycles;
    for _ in 0..rounds {
        qiwang::pairing::pair_pool(&mut event, &rules, &group, seed, None).unwrap();
        let round = event.group_mut(&group).rounds.last_mut().unwrap();
        for pairing in &mut round.pairings {
            if let Pairing::Game { result, .. } = pairing {
                let outcome = match rng.gen_range(0..20) {
                    0..=7 => Outcome::Draw,
                    8..=10 => Outcome::RedWin,
                    11..=15 => Outcome::BlackWin,
                    16 => Outcome::RedForfeit,
                    17 => Outcome::BlackForfeit,
                    18 => Outcome::DoubleForfeit,
                    _ => Outcome::Draw,
                };
                *result = Some(GameResult::new(outcome));
            }
        }
    }
    (event, rules, group)
}

/// What each player scored in each game: (opponent, colour, points, won).
type Games = BTreeMap<PlayerId, Vec<(PlayerId, Colour, i64, bool)>>;

fn games_of(event: &Event, group: &GroupId) -> (Games, BTreeMap<PlayerId, i64>) {
    let mut games: Games = BTreeMap::new();
    let mut byes: BTreeMap<PlayerId, i64> = BTreeMap::new();
    for round in &event.group(group).unwrap().rounds {
        for pairing in &round.pairings {
            match pairing {
                Pairing::Game {
                    red,
                    black,
                    result: Some(r),
                    ..
                } => {
                    let (pr, pb) = match r.outcome {
                        Outcome::RedWin | Outcome::BlackForfeit => (2, 0),
                        Outcome::BlackWin | Outcome::RedForfeit => (0, 2),
                        Outcome::Draw => (1, 1),
                        Outcome::DoubleForfeit => (0, 0),
                    };
                    games
                        .entry(*red)
                        .or_default()
                        .push((*black, Colour::Red, pr, pr == 2));
                    games
                        .entry(*black)
                        .or_default()
                        .push((*red, Colour::Black, pb, pb == 2));
                }
                Pairing::Bye { player } => *byes.entry(*player).or_default() += 1,
                Pairing::Game { result: None, .. } => panic!("every game has a result"),
            }
        }
    }
    (games, byes)
}

/// The ranking recomputed: points, then 相互间成绩 over the whole tie, 胜局 (byes count),
/// 后胜局, 小分 (points × the opponent's total); what is still tied shares a place.
/// Returns each player's (place, shared) and the sizes of the ties 相互间成绩 met.
fn recompute(event: &Event, group: &GroupId) -> (BTreeMap<PlayerId, (u32, bool)>, Vec<usize>) {
    let (games, byes) = games_of(event, group);
    let ids: Vec<PlayerId> = event.players_in(group).map(|p| p.id).collect();
    let bye_points = |id: &PlayerId| 2 * byes.get(id).copied().unwrap_or(0);
    let total: BTreeMap<PlayerId, i64> = ids
        .iter()
        .map(|id| {
            let g: i64 = games.get(id).into_iter().flatten().map(|g| g.2).sum();
            (*id, g + bye_points(id))
        })
        .collect();
    let wins = |id: &PlayerId| {
        games.get(id).into_iter().flatten().filter(|g| g.3).count() as i64
            + byes.get(id).copied().unwrap_or(0)
    };
    let black_wins = |id: &PlayerId| {
        games
            .get(id)
            .into_iter()
            .flatten()
            .filter(|g| g.3 && g.1 == Colour::Black)
            .count() as i64
    };
    let sb = |id: &PlayerId| -> i64 {
        games
            .get(id)
            .into_iter()
            .flatten()
            .map(|g| g.2 * total[&g.0])
            .sum()
    };
    let mut sizes = Vec::new();
    // Group by points.
    let mut by_points: BTreeMap<std::cmp::Reverse<i64>, Vec<PlayerId>> = BTreeMap::new();
    for id in &ids {
        by_points
            .entry(std::cmp::Reverse(total[id]))
            .or_default()
            .push(*id);
    }
    let mut classes: Vec<Vec<PlayerId>> = Vec::new();
    for (_, class) in by_points {
        if class.len() >= 2 {
            sizes.push(class.len());
        }
        let set: BTreeSet<PlayerId> = class.iter().copied().collect();
        let mutual = |id: &PlayerId| -> i64 {
            games
                .get(id)
                .into_iter()
                .flatten()
                .filter(|g| set.contains(&g.0))
                .map(|g| g.2)
                .sum()
        };
        let mut keyed: Vec<((i64, i64, i64, i64), PlayerId)> = class
            .iter()
            .map(|id| ((-mutual(id), -wins(id), -black_wins(id), -sb(id)), *id))
            .collect();
        keyed.sort();
        let mut i = 0;
        while i < keyed.len() {
            let j = (i..keyed.len())
                .find(|&j| keyed[j].0 != keyed[i].0)
                .unwrap_or(keyed.len());
            classes.push(keyed[i..j].iter().map(|k| k.1).collect());
            i = j;
        }
    }
    let mut out = BTreeMap::new();
    let mut place = 1;
    for class in classes {
        for id in &class {
            out.insert(*id, (place, class.len() > 1));
        }
        place += class.len() as u32;
    }
    (out, sizes)
}

#[test]
fn round_robin_ranking_equals_a_recomputation_on_random_events() {
    let mut ties: BTreeMap<usize, u32> = BTreeMap::new();
    for seed in 0..400 {
        let (event, rules, group) = random_event(seed);
        let standings = qiwang::standings::compute_standings(&event, &rules, &group, None);
        assert_eq!(
            standings.tiebreaks,
            qiwang::rulebook::GroupFormat::round_robin_tiebreaks()
        );
        let (want, sizes) = recompute(&event, &group);
        for s in sizes {
            *ties.entry(s.min(4)).or_default() += 1;
        }
        for row in &standings.rows {
            let (place, shared) = want[&row.player];
            assert_eq!(
                (row.rank, row.shared),
                (Some(place), shared),
                "seed {seed}, player {}",
                row.player
            );
        }
        // The round robin's schedule is played out: the next pair is refused.
        let err = qiwang::pairing::pair_next_round(&event, &rules, &group, 1).unwrap_err();
        assert!(
            matches!(
                err,
                qiwang::pairing::PairingError::AllRoundsPlayed {
                    round_robin: true,
                    ..
                }
            ),
            "{err:?}"
        );
        // Every stored round is its table.
        assert!(qiwang::pairing::check_group(&event, &rules, &group).is_empty());
    }
    for size in [2, 3, 4] {
        assert!(
            ties.get(&size).copied().unwrap_or(0) >= 20,
            "ties of {size}: {ties:?}"
        );
    }
}

/// The 无为 shape: an 8-player round-robin group beside a Swiss open group.
fn wuwei(dir: &Path, sheet: &str) -> std::path::PathBuf {
    let event = dir.join("ev");
    init(&event, &root("rules/round-robin.toml"));
    let csv = dir.join("reg.csv");
    std::fs::write(&csv, sheet).unwrap();
    ok(&event, &["import", p(&csv)]);
    event
}

const SHEET: &str = "序号,姓名,单位,组别\n\
    1,甲一,A,循环组\n2,乙二,B,循环组\n3,丙三,C,循环组\n4,丁四,D,循环组\n\
    5,戊五,E,循环组\n6,己六,F,循环组\n7,庚七,G,循环组\n8,辛八,H,八人组\n\
    9,张三,X,公开组\n10,李四,Y,公开组\n11,王五,Z,公开组\n12,赵六,W,公开组\n";

#[test]
fn a_round_robin_group_runs_beside_a_swiss_one() {
    let tmp = tempfile::tempdir().unwrap();
    let event = wuwei(tmp.path(), SHEET);
    let out = ok(&event, &["pair", "--all", "--explain"]);
    assert!(out.contains("贝格尔表第 1 轮"), "{out}");
    let json = || std::fs::read(event.join("qiwang.json")).unwrap();
    // Bad input is refused and the event is untouched: table 5 is not in round 1 of the
    // 8-player table, and a result names a group's round that does not exist.
    let before = json();
    zh(&event, &["result", "--group", "rr", "5", "r"])
        .status(3)
        .stdout_empty()
        .stderr_has("错误：")
        .check();
    zh(
        &event,
        &["result", "--group", "rr", "--round", "2", "1", "r"],
    )
    .status(3)
    .stdout_empty()
    .check();
    assert_eq!(json(), before);
    // Results of every kind: fouls, forfeits, 双负, lateness.
    ok(
        &event,
        &[
            "result",
            "--group",
            "rr",
            "1",
            "红胜/0:1",
            "2",
            "-+",
            "3",
            "--",
            "4",
            "黑迟到",
        ],
    );
    // One hall numbering: the round robin's tables come first (1–4), the open's after.
    ok(&event, &["result", "--group", "open", "5", "=", "6", "r"]);
    for _ in 2..=7 {
        ok(&event, &["pair", "--group", "rr"]);
        ok(
            &event,
            &[
                "result", "--group", "rr", "1", "r", "2", "=", "3", "b", "4", "=",
            ],
        );
    }
    zh(&event, &["pair", "--group", "rr"])
        .status(3)
        .stdout_empty()
        .stderr_has("循环赛的全部 7 轮都已编排")
        .check();
    ok(&event, &["check"]);
    let standings = ok(&event, &["standings", "--group", "rr"]);
    assert!(
        standings.contains("相互间成绩") && standings.contains("小分"),
        "{standings}"
    );
    // The square table: every player against every other, the diagonal blacked out.
    let square = ok(&event, &["crosstable", "--group", "rr"]);
    assert!(square.contains("循环赛成绩表"), "{square}");
    assert!(square.contains('■'), "{square}");
    let site = event.parent().unwrap().join("site");
    ok(&event, &["export", "--format", "html", "--out", p(&site)]);
    let page = std::fs::read_to_string(site.join("rr/crosstable.html")).unwrap();
    assert_eq!(
        page.matches("<td class=\"x\" data-label=\"").count(),
        8,
        "the diagonal of 8 players"
    );
    // Undo takes back the last result, redo restores it.
    let done = json();
    ok(&event, &["undo"]);
    assert_ne!(json(), done);
    ok(&event, &["redo"]);
    assert_eq!(json(), done);
    // The prize sheet places both groups.
    let prizes = ok(&event, &["prizes"]);
    assert!(
        prizes.contains("循环组") && prizes.contains("公开组"),
        "{prizes}"
    );
}

#[test]
fn a_hand_edited_round_robin_round_fails_check() {
    let tmp = tempfile::tempdir().unwrap();
    let event = wuwei(tmp.path(), SHEET);
    ok(&event, &["pair", "--group", "rr"]);
    let path = event.join("qiwang.json");
    let mut state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    // Swap red and black at table 1 by hand.
    let game = &mut state["groups"]["rr"]["rounds"][0]["pairings"][0];
    let (red, black) = (game["red"].clone(), game["black"].clone());
    game["red"] = black;
    game["black"] = red;
    std::fs::write(&path, serde_json::to_vec_pretty(&state).unwrap()).unwrap();
    zh(&event, &["check"])
        .status(3)
        .stdout_has("不是贝格尔表第 1 轮的对局")
        .stderr_has("错误：")
        .check();
}

/// Withdrawal (docs/rules.md §14.4): never re-paired, the remaining games forfeited, and
/// the player's results annulled when fewer than half were played.
#[test]
fn a_withdrawal_before_half_the_schedule_annuls_the_results() {
    let tmp = tempfile::tempdir().unwrap();
    let event = wuwei(tmp.path(), SHEET);
    ok(&event, &["pair", "--group", "rr"]);
    ok(
        &event,
        &[
            "result", "--group", "rr", "1", "r", "2", "r", "3", "r", "4", "r",
        ],
    );
    let state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(event.join("qiwang.json")).unwrap()).unwrap();
    // The red player of table 1 won in round 1 and now withdraws.
    let leaver = state["groups"]["rr"]["rounds"][0]["pairings"][0]["red"]
        .as_u64()
        .unwrap();
    let victim = state["groups"]["rr"]["rounds"][0]["pairings"][0]["black"]
        .as_u64()
        .unwrap();
    let name = state["players"][(leaver - 1) as usize]["name"]
        .as_str()
        .unwrap()
        .to_string();
    ok(&event, &["player", "withdraw", &name]);
    ok(&event, &["pair", "--group", "rr"]);
    let state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(event.join("qiwang.json")).unwrap()).unwrap();
    let round2 = &state["groups"]["rr"]["rounds"][1]["pairings"];
    let forfeits: Vec<&serde_json::Value> = round2
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["red"].as_u64() == Some(leaver) || g["black"].as_u64() == Some(leaver))
        .collect();
    assert_eq!(forfeits.len(), 1, "the leaver keeps a table");
    let outcome = forfeits[0]["result"]["outcome"].as_str().unwrap();
    assert!(outcome.ends_with("forfeit"), "{outcome}");
    // One game of seven played: annulled, so the round-1 loser lost nothing.
    let json = ok(&event, &["standings", "--group", "rr", "--format", "json"]);
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = rows["rows"].as_array().unwrap();
    let score = |id: u64| {
        rows.iter()
            .find(|r| r["player"].as_u64() == Some(id))
            .map(|r| r["score"].as_i64().unwrap())
            .unwrap()
    };
    assert_eq!(score(victim), 0);
    assert_eq!(score(leaver), 0);
}

#[test]
fn numbers_from_the_sheet_and_their_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("rules.toml");
    let text = std::fs::read_to_string(root("rules/round-robin.toml"))
        .unwrap()
        .replacen("seeding = \"random_draw\"", "seeding = \"sheet\"", 1);
    assert!(text.contains("seeding = \"sheet\""));
    std::fs::write(&rules, &text).unwrap();
    let event = tmp.path().join("ev");
    init(&event, &rules);
    let csv = tmp.path().join("reg.csv");
    // 序号 3 twice: refused at the second one's cell, nothing imported.
    std::fs::write(
        &csv,
        "序号,姓名,组别\n1,甲一,循环组\n2,乙二,循环组\n3,丙三,循环组\n3,丁四,循环组\n",
    )
    .unwrap();
    let before = std::fs::read(event.join("qiwang.json")).unwrap();
    zh(&event, &["import", p(&csv)])
        .status(3)
        .stdout_empty()
        // The row of the repeat.
        .stderr_has(":5")
        .stderr_has("序号 3 已给了 丙三")
        .check();
    assert_eq!(std::fs::read(event.join("qiwang.json")).unwrap(), before);
    // 序号 1, 2, 3, 5: imported, but `pair` finds 4 missing and 5 too high.
    std::fs::write(
        &csv,
        "序号,姓名,组别\n1,甲一,循环组\n2,乙二,循环组\n3,丙三,循环组\n5,丁四,循环组\n",
    )
    .unwrap();
    ok(&event, &["import", p(&csv)]);
    let before = std::fs::read(event.join("qiwang.json")).unwrap();
    zh(&event, &["pair", "--group", "rr"])
        .status(3)
        .stdout_empty()
        .stderr_has("丁四 的序号 5 超过了参赛人数 4")
        .stderr_has("没有棋手的序号是 4")
        .check();
    assert_eq!(std::fs::read(event.join("qiwang.json")).unwrap(), before);
    // Correct the sheet: the numbers are the sheet's, and round 1 is table round 1.
    let fixed = tmp.path().join("ev2");
    init(&fixed, &rules);
    std::fs::write(
        &csv,
        "序号,姓名,组别\n4,甲一,循环组\n2,乙二,循环组\n3,丙三,循环组\n1,丁四,循环组\n",
    )
    .unwrap();
    ok(&fixed, &["import", p(&csv)]);
    ok(&fixed, &["pair", "--group", "rr"]);
    let state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixed.join("qiwang.json")).unwrap()).unwrap();
    let numbers: BTreeMap<String, u64> = state["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["number"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(numbers["甲一"], 4);
    assert_eq!(numbers["丁四"], 1);
    // Table round 1 of 4 players: 1–4 (丁四 red against 甲一), 2–3.
    let first = &state["groups"]["rr"]["rounds"][0]["pairings"][0];
    assert_eq!(first["red"].as_u64(), Some(4));
    assert_eq!(first["black"].as_u64(), Some(1));
}

/// A round-robin key where it cannot apply is refused, not ignored; a paired round robin
/// keeps its format through `rules update`.
#[test]
fn misplaced_round_robin_keys_are_refused() {
    let base = "[event]\nname = \"t\"\nrounds = 5\n[[groups]]\nid = \"open\"\nname = \"公开组\"\n";
    let cases = [
        ("cycles = 2\n", "groups[0].cycles"),
        (
            "withdrawn_results = \"keep\"\n",
            "groups[0].withdrawn_results",
        ),
        ("format = \"round_robin\"\nrounds = 7\n", "groups[0].rounds"),
        ("format = \"round_robin\"\ncycles = 5\n", "groups[0].cycles"),
        ("format = \"knock\"\n", "groups[0].format"),
        (
            "[[groups]]\nid = \"s\"\nname = \"分组\"\npairs_with = \"open\"\nformat = \"round_robin\"\n",
            "groups[1].format",
        ),
    ];
    for (extra, key) in cases {
        let text = format!("{base}{extra}");
        let err = Rulebook::from_toml(&text, "r.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains(key), "{extra}: {err}");
    }
    let parsed = Rulebook::from_toml(
        &format!("{base}format = \"循环赛\"\ncycles = 2\nseeding = \"sheet\"\n"),
        "r.toml",
    )
    .unwrap();
    assert!(parsed.is_round_robin(&GroupId::new("open")));
    assert_eq!(parsed.format_of(&GroupId::new("open")).cycles, 2);

    let tmp = tempfile::tempdir().unwrap();
    let event = wuwei(tmp.path(), SHEET);
    ok(&event, &["pair", "--group", "rr"]);
    let double = tmp.path().join("double.toml");
    std::fs::copy(root("rules/double-round-robin.toml"), &double).unwrap();
    let before = std::fs::read(event.join("qiwang.json")).unwrap();
    zh(&event, &["rules", "update", p(&double)])
        .status(3)
        .stdout_empty()
        .stderr_has("不能再改变 format、cycles、seeding 或 final_stage")
        .check();
    assert_eq!(std::fs::read(event.join("qiwang.json")).unwrap(), before);
}

/// The table is fixed at round 1: a late entry is refused, by `player add` and by
/// `import` alike (docs/rules.md §14.1).
#[test]
fn a_late_entry_cannot_join_the_table() {
    let tmp = tempfile::tempdir().unwrap();
    let event = wuwei(tmp.path(), SHEET);
    ok(&event, &["pair", "--group", "rr"]);
    ok(
        &event,
        &[
            "result", "--group", "rr", "1", "r", "2", "r", "3", "r", "4", "r",
        ],
    );
    let before = std::fs::read(event.join("qiwang.json")).unwrap();
    zh(
        &event,
        &["player", "add", "--name", "迟到者", "--group", "循环组"],
    )
    .status(3)
    .stdout_empty()
    .stderr_has("不能加入")
    .check();
    assert_eq!(std::fs::read(event.join("qiwang.json")).unwrap(), before);
    let csv = tmp.path().join("late.csv");
    std::fs::write(&csv, "序号,姓名,组别\n1,迟到者,循环组\n").unwrap();
    zh(&event, &["import", p(&csv)])
        .status(3)
        .stdout_empty()
        .stderr_has("`迟到者` 不能加入")
        .stderr_has("未导入任何棋手")
        .check();
    assert_eq!(std::fs::read(event.join("qiwang.json")).unwrap(), before);
    ok(&event, &["pair", "--group", "rr"]);
}
