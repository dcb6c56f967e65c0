//! Knockout groups (docs/rules.md §16), end to end through the binary: a bracket seeded
//! from the registration sheet's numbers with byes to the top seeds, matches of two games
//! with rapid and deciding tiebreak games, a third-place match, a withdrawal between
//! rounds, the places, the bracket table and picture, and the refusals that leave the
//! event untouched.

use crate::common::{event_from, numbered_sheet, p, rules_plus, standings_places, zh, zh_ok as ok};
use std::path::{Path, PathBuf};

const RULES: &str = r#"
[event]
name = "淘汰赛"
rounds = 7
[[groups]]
id = "ko"
name = "淘汰组"
format = "knockout"
seeding = "sheet"
games = 2
tiebreak_games = ["快棋", "和棋判黑胜"]
third_place = true
"#;

/// Six players seeded by the sheet: seeds 1 and 2 have byes, 4–5 and 3–6 play.
fn event(dir: &Path) -> PathBuf {
    let names = ["一号", "二号", "三号", "四号", "五号", "六号"];
    event_from(dir, RULES, &numbered_sheet("淘汰组", names))
}

fn json(event: &Path) -> Vec<u8> {
    std::fs::read(event.join("qiwang.json")).unwrap()
}

#[test]
fn a_knockout_with_tiebreak_games_a_third_place_match_and_a_withdrawal() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = event(tmp.path());
    let out = ok(&ev, &["pair", "--explain"]);
    assert!(
        out.contains("首轮轮空直接晋级（种子在前）：一号(1)、二号(2)"),
        "{out}"
    );
    assert!(out.contains("淘汰赛 1/4 决赛"), "{out}");
    // A result for a table the round does not have is refused, the event untouched.
    let before = json(&ev);
    zh(&ev, &["result", "3", "r"])
        .status(3)
        .stdout_empty()
        .check();
    assert_eq!(json(&ev), before);
    // Game 1: 四号 (red) beats 五号; 三号–六号 drawn. Game 2 (colours swapped): 五号 wins
    // back, 六号–三号 drawn: both matches level, rapid games follow.
    ok(&ev, &["result", "1", "r", "2", "="]);
    ok(&ev, &["pair"]);
    ok(&ev, &["result", "1", "r", "2", "="]);
    let out = ok(&ev, &["pair", "--explain"]);
    assert!(out.contains("第 1 台：快棋加赛第 1 局"), "{out}");
    // Rapid game 1: 四号 wins table 1 (red), table 2 drawn.
    ok(&ev, &["result", "1", "r", "2", "="]);
    ok(&ev, &["pair"]);
    // A correction that would decide match 1 on its regular games while its rapid game 2
    // is paired: refused, nothing changes.
    let before = json(&ev);
    zh(&ev, &["result", "--round", "2", "1", "b"])
        .status(3)
        .stdout_empty()
        .stderr_has("将不再是应进行的对局")
        .check();
    assert_eq!(json(&ev), before);
    // Rapid game 2: table 1 drawn (四号 through, 3–1), table 2 drawn (level again).
    ok(&ev, &["result", "1", "=", "2", "="]);
    let out = ok(&ev, &["pair", "--explain"]);
    assert!(out.contains("第 2 台：加赛（和棋判黑胜）"), "{out}");
    // The deciding game is drawn: black goes through.
    let round = ok(&ev, &["round", "--format", "csv"]);
    let black = round
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .nth(8)
        .unwrap()
        .to_string();
    ok(&ev, &["result", "2", "="]);
    // Semi-finals: 一号–四号 and 二号–(the deciding game's black). 二号 withdraws: his
    // games are forfeits and his opponent goes through.
    let out = ok(&ev, &["pair", "--explain"]);
    assert!(out.contains("半决赛"), "{out}");
    ok(&ev, &["result", "1", "r"]);
    // Table 2 has no result yet.
    zh(&ev, &["player", "withdraw", "二号"])
        .status(3)
        .stdout_empty()
        .check();
    ok(&ev, &["result", "2", "="]);
    ok(&ev, &["player", "withdraw", "二号"]);
    let out = ok(&ev, &["pair"]);
    assert!(out.contains("弃权") || out.contains("胜"), "{out}");
    ok(&ev, &["result", "1", "="]);
    // Final (一号 or 四号 against the deciding game's black) and the third-place match,
    // whose games the withdrawn 二号 forfeits as they are paired. A wins the final with
    // red, then with black.
    let out = ok(&ev, &["pair", "--explain"]);
    assert!(out.contains("淘汰赛 决赛"), "{out}");
    ok(&ev, &["result", "1", "r"]);
    ok(&ev, &["pair"]);
    ok(&ev, &["result", "1", "b"]);
    zh(&ev, &["pair"])
        .status(3)
        .stdout_empty()
        .stderr_has("已决出胜负")
        .check();
    ok(&ev, &["check"]);
    let placed = standings_places(&ev);
    let ranks: Vec<&str> = placed.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(ranks, ["1", "2", "3", "4", "5=", "5="], "{placed:?}");
    // The quarter-final losers are 五号 and the deciding game's loser.
    let last_two: Vec<&str> = placed[4..].iter().map(|(_, n)| n.as_str()).collect();
    assert!(last_two.contains(&"五号"), "{placed:?}");
    assert!(
        !last_two.contains(&black.as_str()),
        "{black} went through: {placed:?}"
    );
    // The withdrawn 二号 lost the semi-final by forfeit and then the third-place match.
    assert_eq!(placed[3].1, "二号", "{placed:?}");
    // The bracket as a table, and as an A4 landscape picture in the site.
    let table = ok(&ev, &["crosstable"]);
    assert!(
        table.contains("三四名决赛") && table.contains("轮空"),
        "{table}"
    );
    let site = tmp.path().join("site");
    ok(&ev, &["export", "--format", "html", "--out", p(&site)]);
    let svg = std::fs::read_to_string(site.join("ko/bracket.svg")).unwrap();
    assert!(
        svg.starts_with(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"297mm\" height=\"210mm\""
        )
    );
    assert!(svg.contains("冠军"), "{svg}");
    // Undo and redo walk back through the knockout.
    let done = json(&ev);
    ok(&ev, &["undo"]);
    ok(&ev, &["redo"]);
    assert_eq!(json(&ev), done);
}

#[test]
fn a_hand_edited_knockout_game_fails_check() {
    let tmp = tempfile::tempdir().unwrap();
    let ev = event(tmp.path());
    ok(&ev, &["pair"]);
    ok(&ev, &["result", "1", "r", "2", "r"]);
    ok(&ev, &["pair"]);
    let path = ev.join("qiwang.json");
    let mut state: serde_json::Value = serde_json::from_slice(&json(&ev)).unwrap();
    // Seat seed 1 (who has a bye) at table 1 of round 2.
    let one = state["players"][0]["id"].clone();
    state["groups"]["ko"]["rounds"][1]["pairings"][0]["red"] = one;
    std::fs::write(&path, serde_json::to_vec_pretty(&state).unwrap()).unwrap();
    zh(&ev, &["check"])
        .status(3)
        .stdout_has("不是该场淘汰赛应进行的对局")
        .stderr_has("错误：")
        .check();
}

/// Random knockouts of 2–20 players, any games per match and tiebreak list, with or
/// without a third-place match and a 5–8 play-off, random results (draws, forfeits, 双负
/// included): the pairing always ends, exactly one champion, every other player loses
/// exactly one match of the main bracket, the places are the bracket's (1, 2, then 3 and 4
/// or 3=, 5–8 played off or shared, then shared blocks), and `check` finds nothing.
#[test]
fn random_knockouts_end_with_one_champion_and_the_brackets_places() {
    use qiwang::model::{Event, GameResult, GroupId, Outcome, Pairing, Player, PlayerId};
    use qiwang::rulebook::Rulebook;
    use rand::{Rng, SeedableRng};
    let stage_lists = [
        "[]",
        "[\"lot\"]",
        "[\"rapid\", \"armageddon\"]",
        "[\"rapid\", \"blitz\", \"lot\"]",
    ];
    for seed in 0..300u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let players = rng.gen_range(2..=20u32);
        let games = rng.gen_range(1..=3u32);
        let third = rng.gen_bool(0.5);
        let fifth = rng.gen_bool(0.5);
        let text = format!(
            "[event]\nname = \"k\"\nrounds = 5\n[[groups]]\nid = \"ko\"\nname = \"k\"\nformat = \"knockout\"\ngames = {games}\ntiebreak_games = {}\nthird_place = {third}\nplay_off_5_8 = {fifth}\nfirst_colour = \"{}\"\n",
            stage_lists[rng.gen_range(0..stage_lists.len())],
            if rng.gen_bool(0.5) { "seed" } else { "draw" }
        );
        let rules = Rulebook::from_toml(&text, "k.toml").unwrap();
        let group = GroupId::new("ko");
        let mut event = Event::new(text);
        for id in 1..=players {
            event
                .players
                .push(Player::new(PlayerId(id), format!("p{id}"), group.clone()));
        }
        let mut rounds = 0;
        loop {
            match qiwang::pairing::pair_pool(&mut event, &rules, &group, seed, None) {
                Ok(_) => {}
                Err(qiwang::pairing::PairingError::KnockoutFinished { .. }) => break,
                Err(e) => panic!("seed {seed}: {e}"),
            }
            rounds += 1;
            assert!(rounds < 200, "seed {seed}: no end");
            let round = event.group_mut(&group).rounds.last_mut().unwrap();
            for p in &mut round.pairings {
                if let Pairing::Game { result, .. } = p {
                    let outcome = match rng.gen_range(0..10) {
                        0..=2 => Outcome::RedWin,
                        3..=5 => Outcome::BlackWin,
                        6..=7 => Outcome::Draw,
                        8 => Outcome::RedForfeit,
                        _ => Outcome::DoubleForfeit,
                    };
                    *result = Some(GameResult::new(outcome));
                }
            }
        }
        let b = qiwang::schedule::bracket::build(&event, &rules, &group);
        assert!(b.strays.is_empty(), "seed {seed}");
        let champion = b.champion().expect("a champion");
        // Every player but the champion loses exactly one match of the main bracket.
        let mut losses = std::collections::BTreeMap::new();
        for r in &b.rounds {
            for m in r.matches.iter().filter(|m| m.is_main()) {
                if let Some(l) = m.loser() {
                    *losses.entry(l).or_insert(0) += 1;
                }
            }
        }
        assert_eq!(losses.len() as u32, players - 1, "seed {seed}");
        assert!(losses.values().all(|&n| n == 1) && !losses.contains_key(&champion));
        let st = qiwang::standings::compute_standings(&event, &rules, &group, None);
        let ranks: Vec<u32> = st.rows.iter().map(|r| r.rank.unwrap()).collect();
        assert_eq!(ranks[0], 1);
        assert_eq!(st.rows[0].player, champion);
        assert!(!st.rows[0].shared);
        assert_eq!(ranks[1], 2, "seed {seed}: {ranks:?}");
        if players >= 4 {
            let want: &[u32] = if third { &[3, 4] } else { &[3, 3] };
            assert_eq!(&ranks[2..4], want, "seed {seed}: {ranks:?}");
        }
        // Places 5–8: played off by eight players (5, 6, 7, 8), seven (5, 6, 7: a bye to
        // the best-seeded loser), six (5, 6) and five (5 alone), else shared by the
        // quarter-final losers.
        match (players, fifth) {
            (8, true) => assert_eq!(&ranks[4..8], [5, 6, 7, 8], "seed {seed}: {ranks:?}"),
            (7, true) => assert_eq!(&ranks[4..7], [5, 6, 7], "seed {seed}: {ranks:?}"),
            (5, true) => assert_eq!(&ranks[4..5], [5], "seed {seed}: {ranks:?}"),
            (6, true) => assert_eq!(&ranks[4..6], [5, 6], "seed {seed}: {ranks:?}"),
            (5..=8, false) => assert!(ranks[4..].iter().all(|&r| r == 5), "seed {seed}: {ranks:?}"),
            _ => {}
        }
        // Each later block shares the place after the players above it.
        for (i, &r) in ranks.iter().enumerate() {
            assert!(r as usize <= i + 1, "seed {seed}: {ranks:?}");
        }
        assert!(qiwang::pairing::check_group(&event, &rules, &group).is_empty());
    }
}

/// A Swiss stage whose last qualifying place is tied holds the final until a playoff
/// orders the tie (docs/rules.md §16.6); then its top 4 play the knockout, seeded by that
/// order, and the others keep their Swiss places below the finalists.
#[test]
fn a_tie_across_the_finalists_line_holds_the_final_until_a_playoff() {
    let tmp = tempfile::tempdir().unwrap();
    let text = rules_plus("swiss-knockout", "")
        .replace("rounds = 7", "rounds = 3")
        .replace("finalists = 8", "finalists = 4")
        .replace(
            "preset = \"cxa-14.3.1\"",
            "tiebreaks = []\nfallback = \"none\"",
        )
        .replace("shared_from_place = 2", "shared_from_place = 1");
    let ev = event_from(tmp.path(), &text, &crate::final_round_robin::eight());
    // Three Swiss rounds of draws: all eight tied, across the line after 4th place.
    for _ in 0..3 {
        ok(&ev, &["pair"]);
        ok(&ev, &["result", "1", "=", "2", "=", "3", "=", "4", "="]);
    }
    let before = json(&ev);
    zh(&ev, &["pair"])
        .status(3)
        .stdout_empty()
        .stderr_has("决赛阶段暂不能开始")
        .check();
    assert_eq!(json(&ev), before, "a stage started early changes nothing");
    // The playoff orders all eight: 选手8 first … 选手1 last.
    let order: Vec<String> = (1..=8).rev().map(|i| format!("选手{i}")).collect();
    let mut args = vec!["playoff", "--group", "公开组"];
    args.extend(order.iter().map(String::as_str));
    ok(&ev, &args);
    let out = ok(&ev, &["pair", "--explain"]);
    assert!(out.contains("淘汰赛 半决赛"), "{out}");
    // Seeds 1–4 are 选手8, 7, 6, 5: the semi-finals 1–4 and 2–3.
    let round = ok(&ev, &["round", "--format", "csv"]);
    let names: Vec<&str> = round
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap())
        .collect();
    assert_eq!(names, ["选手8", "选手7"], "{round}");
    // Seeds win both games (red, then black): the final is seed 1 against seed 2.
    ok(&ev, &["result", "1", "r", "2", "r"]);
    ok(&ev, &["pair"]);
    ok(&ev, &["result", "1", "b", "2", "b"]);
    ok(&ev, &["pair"]);
    ok(&ev, &["result", "1", "r", "2", "r"]);
    ok(&ev, &["pair"]);
    ok(&ev, &["result", "1", "b", "2", "b"]);
    ok(&ev, &["check"]);
    let placed = standings_places(&ev);
    let names: Vec<&str> = placed.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        &names[..4],
        ["选手8", "选手7", "选手6", "选手5"],
        "{placed:?}"
    );
    let ranks: Vec<&str> = placed.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(&ranks[..4], ["1", "2", "3", "4"], "{placed:?}");
    // The other four keep the Swiss ranking (the playoff's order) behind the finalists.
    assert_eq!(&ranks[4..], ["5", "6", "7", "8"], "{placed:?}");
    assert_eq!(
        &names[4..],
        ["选手4", "选手3", "选手2", "选手1"],
        "{placed:?}"
    );
    zh(&ev, &["pair"])
        .status(3)
        .stdout_empty()
        .stderr_has("选手8")
        .check();
}

/// A knockout beside a round robin in one hall: the hall numbers the knockout's tables on
/// after the round robin's (its first match at table 3), and its games are still its
/// matches' (found by their players): the next round pairs and `check` finds nothing.
#[test]
fn a_knockout_whose_tables_follow_another_groups_in_the_hall() {
    let rules = r#"
[event]
name = "循环加淘汰"
rounds = 7
[[groups]]
id = "rr"
name = "循环组"
format = "round_robin"
[[groups]]
id = "ko"
name = "淘汰组"
format = "knockout"
seeding = "sheet"
games = 1
tiebreak_games = ["和棋判黑胜"]
"#;
    let mut sheet = String::from("序号,姓名,性别,单位,组别\n");
    for (i, n) in ["甲", "乙", "丙", "丁"].iter().enumerate() {
        sheet.push_str(&format!("{},{n},男,单位{i},循环组\n", i + 1));
    }
    for (i, n) in ["一号", "二号", "三号", "四号", "五号", "六号"]
        .iter()
        .enumerate()
    {
        sheet.push_str(&format!("{},{n},男,单位{i},淘汰组\n", i + 1));
    }
    let tmp = tempfile::tempdir().unwrap();
    let ev = event_from(tmp.path(), rules, &sheet);
    ok(&ev, &["pair", "--group", "rr"]);
    let first = ok(&ev, &["pair", "--group", "ko"]);
    assert!(first.contains("│    3 ┆"), "{first}");
    ok(&ev, &["result", "--group", "rr", "1", "r", "2", "b"]);
    ok(&ev, &["result", "--group", "ko", "3", "r", "4", "b"]);
    ok(&ev, &["pair", "--group", "rr"]);
    // The explanation names the tables the sheet shows (the semifinals at 3 and 4).
    let second = ok(&ev, &["pair", "--group", "ko", "--explain"]);
    assert!(
        second.contains("第 3 台：") && !second.contains("第 1 台："),
        "{second}"
    );
    // So does the bracket: its matches at tables 3 and 4, none at 1.
    let bracket = ok(&ev, &["crosstable", "--group", "ko", "--format", "csv"]);
    let tables: Vec<&str> = bracket
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(1))
        .filter(|t| !t.is_empty())
        .collect();
    assert!(
        tables.contains(&"3") && tables.contains(&"4") && !tables.contains(&"1"),
        "{bracket}"
    );
    zh(&ev, &["check"]).stdout_lacks("淘汰赛应进行").check();
}
