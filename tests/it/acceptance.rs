//! Acceptance criteria of issues 4, 5 and 6, proved independently of the library code
//! that computes them.
//!
//! * Issue 4: after the Jinhua and Dongguan demos (every round played), `standings
//!   --format json` shows the seed's tiebreak order, and 积分, 对手分, 累进分, 胜局, 犯规
//!   and 后走局数 recomputed here from the exported games (docs/rules.md §5.3 definitions, the
//!   rulebooks' settings) agree with every player's JSON; ranks follow the values.
//! * Issue 5: the shipped rulebooks' prize money with every place filled (library level,
//!   a whole event paired and played), and `prizes --format csv|html` after the demos
//!   against the amounts, titles and qualifications written in the regulations.
//! * Issue 6: every page of `export --format html` is well-formed enough to print and
//!   escapes a registrant called `<script>alert(1)</script>`.
//!
//! The regulation amounts below are copied from the seed texts, not from the rulebooks.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------
// Running the binary.

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs qiwang and returns stdout; fails the test with stderr on a non-zero exit.
fn qiwang(args: &[&str]) -> String {
    crate::common::run(root(), args).ok()
}

/// A finished demo event and its whole-event JSON export.
struct Demo {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    export: Value,
}

impl Demo {
    fn run(extra: &[&str]) -> Demo {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().join("event");
        let mut args = vec!["demo", dir.to_str().expect("utf-8 path")];
        args.extend_from_slice(extra);
        qiwang(&args);
        let out = tmp.path().join("json");
        // The arbiter's full document: prize lists are recomputed from the players'
        // 残疾/本地 marks and birth dates, which the public one leaves out.
        qiwang(&[
            "--event",
            dir.to_str().expect("utf-8 path"),
            "export",
            "--format",
            "json",
            "--show-private",
            "--out",
            out.to_str().expect("utf-8 path"),
        ]);
        let text = std::fs::read_to_string(out.join("event.json")).expect("event.json");
        let export = serde_json::from_str(&text).expect("event.json is JSON");
        Demo {
            _tmp: tmp,
            dir,
            export,
        }
    }

    fn event_arg(&self) -> &str {
        self.dir.to_str().expect("utf-8 path")
    }

    /// Runs a read command on this event.
    fn read(&self, args: &[&str]) -> String {
        let mut all = vec!["--event", self.event_arg()];
        all.extend_from_slice(args);
        qiwang(&all)
    }
}

fn jinhua() -> &'static Demo {
    static DEMO: OnceLock<Demo> = OnceLock::new();
    DEMO.get_or_init(|| Demo::run(&[]))
}

fn dongguan() -> &'static Demo {
    static DEMO: OnceLock<Demo> = OnceLock::new();
    DEMO.get_or_init(|| {
        let rules = root().join("rules/dongguan-2018.toml");
        let regs = root().join("examples/dongguan-2018/registrations.csv");
        Demo::run(&[
            "--rules",
            rules.to_str().expect("utf-8 path"),
            "--registrations",
            regs.to_str().expect("utf-8 path"),
        ])
    })
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))
}

// ---------------------------------------------------------------------------------------
// Issue 4: tiebreaks recomputed from the exported games.

/// One player's values recomputed from the games (docs/rules.md §5.3).
#[derive(Debug, Default, Clone, PartialEq)]
struct Recomputed {
    round_points: Vec<i64>,
    cumulative: Vec<i64>,
    score: i64,
    /// Points deducted by penalties given up to the round.
    penalty: i64,
    opp_scores: Vec<i64>,
    opp_score: i64,
    progressive: i64,
    wins: i64,
    fouls: i64,
    black_games: i64,
}

/// What one player did in one round, read from the export.
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// `won`: Some(true) win, Some(false) loss, None draw or double forfeit.
    Game {
        opponent: i64,
        black: bool,
        points: i64,
        won: bool,
        fouls: i64,
    },
    Bye,
    NotPaired,
}

/// The rulebooks' shared scoring (CXA 2011 §13.1, §14.4; both seeds): win 2, draw 1,
/// loss 0, bye 2, forfeit win 2, forfeit loss 0, double forfeit 0 each. The 对手分 of a
/// bye is the lowest positive final total (`lowest_positive`); forfeit opponents count;
/// byes and forfeit wins count as 胜局; forfeited games count for 后走局数, except a
/// 双负, which is nobody's black game (issue 10 §7).
fn slots(group: &Value, player: i64, after: usize) -> Vec<Slot> {
    let rounds = group["rounds"].as_array().expect("rounds");
    rounds
        .iter()
        .take(after)
        .map(|round| {
            for p in round["pairings"].as_array().expect("pairings") {
                match text(&p["kind"]) {
                    "bye" if int(&p["player"]) == player => return Slot::Bye,
                    "game" => {
                        let red = int(&p["red"]);
                        let black = int(&p["black"]);
                        if red != player && black != player {
                            continue;
                        }
                        let me_black = black == player;
                        let result = &p["result"];
                        assert!(
                            result.is_object(),
                            "round {} has a game without a result",
                            round["number"]
                        );
                        let outcome = text(&result["outcome"]);
                        // (red points, black points, red won, black won)
                        let (rp, bp, rw, bw) = match outcome {
                            "red_win" | "black_forfeit" => (2, 0, true, false),
                            "black_win" | "red_forfeit" => (0, 2, false, true),
                            "draw" => (1, 1, false, false),
                            "double_forfeit" => (0, 0, false, false),
                            o => panic!("unknown outcome `{o}`"),
                        };
                        let fouls = if me_black {
                            int(&result["black_fouls"])
                        } else {
                            int(&result["red_fouls"])
                        };
                        return Slot::Game {
                            opponent: if me_black { red } else { black },
                            black: me_black && outcome != "double_forfeit",
                            points: if me_black { bp } else { rp },
                            won: if me_black { bw } else { rw },
                            fouls,
                        };
                    }
                    _ => {}
                }
            }
            Slot::NotPaired
        })
        .collect()
}

/// Every pool player's values after round `after`, from that pool's exported games.
fn recompute(export: &Value, group: &Value, after: usize) -> BTreeMap<i64, Recomputed> {
    let pool = text(&group["id"]);
    let players: Vec<i64> = export["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter(|p| text(&p["group"]) == pool)
        .map(|p| int(&p["id"]))
        .collect();
    let slots: BTreeMap<i64, Vec<Slot>> = players
        .iter()
        .map(|&p| (p, slots(group, p, after)))
        .collect();
    // Penalties (Dongguan 十五.9) count from the round they were given after: S_k is the
    // score the standings after round k showed.
    let penalties: Vec<(i64, usize, i64)> = export["penalties"]
        .as_array()
        .expect("penalties")
        .iter()
        .map(|x| {
            (
                int(&x["player"]),
                int(&x["after_round"]) as usize,
                int(&x["points"]),
            )
        })
        .collect();
    let deducted = |p: i64, k: usize| -> i64 {
        penalties
            .iter()
            .filter(|x| x.0 == p && x.1 <= k)
            .map(|x| x.2)
            .sum()
    };
    let mut out: BTreeMap<i64, Recomputed> = BTreeMap::new();
    for (&p, s) in &slots {
        let mut r = Recomputed::default();
        let mut total = 0;
        for (k, slot) in s.iter().enumerate() {
            let pts = match slot {
                Slot::Game { points, .. } => *points,
                Slot::Bye => 2,
                Slot::NotPaired => 0,
            };
            total += pts;
            r.round_points.push(pts);
            r.cumulative.push(total - deducted(p, k + 1));
            match slot {
                Slot::Game {
                    black, won, fouls, ..
                } => {
                    r.wins += i64::from(*won);
                    r.fouls += fouls;
                    r.black_games += i64::from(*black);
                }
                Slot::Bye => r.wins += 1,
                Slot::NotPaired => {}
            }
        }
        r.penalty = deducted(p, after);
        r.score = total - r.penalty;
        // 累进分 from the game points of each round (CXA 2011 §14.3; both shipped
        // rulebooks set `penalty_in_progressive = "none"`): penalties lower 积分 only.
        r.progressive = r
            .round_points
            .iter()
            .scan(0, |run, p| {
                *run += p;
                Some(*run)
            })
            .sum();
        out.insert(p, r);
    }
    // CXA 2011 §14.4: the bye's virtual opponent has the lowest score among players
    // who have points.
    let lowest_positive = out
        .values()
        .map(|r| r.score)
        .filter(|&s| s > 0)
        .min()
        .unwrap_or(0);
    let finals: BTreeMap<i64, i64> = out.iter().map(|(&p, r)| (p, r.score)).collect();
    for (p, r) in &mut out {
        for slot in &slots[p] {
            match slot {
                Slot::Game { opponent, .. } => r.opp_scores.push(finals[opponent]),
                Slot::Bye => r.opp_scores.push(lowest_positive),
                Slot::NotPaired => {}
            }
        }
        r.opp_score = r.opp_scores.iter().sum();
    }
    out
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(int)
        .collect()
}

/// A tiebreak value of `r` by its JSON key, and whether higher is better.
fn key_value(r: &Recomputed, key: &str) -> (i64, bool) {
    match key {
        "opp_score" => (r.opp_score, true),
        "progressive" => (r.progressive, true),
        "wins" => (r.wins, true),
        "fouls" => (r.fouls, false),
        "black_games" => (r.black_games, true),
        k => panic!("tiebreak `{k}` is not in either seed"),
    }
}

/// The full comparison key, better first: score, the tiebreaks, then the fallback.
fn sort_key(r: &Recomputed, tiebreaks: &[&str], fallback: &str) -> Vec<i64> {
    let mut k = vec![-r.score];
    for t in tiebreaks {
        let (v, higher) = key_value(r, t);
        k.push(if higher { -v } else { v });
    }
    match fallback {
        // CXA 2011 §14.3.1 「比较上一轮成绩」: S_{n-1}, then S_{n-2}, …, S_1, higher first.
        "prev_round_cumulative" => {
            let n = r.cumulative.len();
            k.extend(r.cumulative[..n.saturating_sub(1)].iter().rev().map(|s| -s));
        }
        "none" => {}
        f => panic!("fallback `{f}` is not in either seed"),
    }
    k
}

/// Checks one pool's standings after round `after` (as `standings --round` prints them)
/// against the recomputation; returns the number of rows checked.
fn check_pool(
    export: &Value,
    group: &Value,
    cli: &Value,
    after: usize,
    rounds: usize,
    tiebreaks: &[&str],
    fallback: &str,
) -> usize {
    let pool = text(&group["id"]);
    assert_eq!(int(&cli["after_round"]), after as i64, "pool `{pool}`");
    let order: Vec<&str> = cli["tiebreaks"]
        .as_array()
        .expect("tiebreaks")
        .iter()
        .map(text)
        .collect();
    assert_eq!(order, tiebreaks, "pool `{pool}`: the seed's tiebreak order");
    assert_eq!(text(&cli["fallback"]), fallback, "pool `{pool}`");

    let mine = recompute(export, group, after);
    let rows = cli["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), mine.len(), "pool `{pool}`: one row per player");
    let keys: BTreeMap<i64, Vec<i64>> = mine
        .iter()
        .map(|(&p, r)| (p, sort_key(r, tiebreaks, fallback)))
        .collect();
    // A withdrawn player is marked from the round before their first unpaired round.
    let withdrawn: BTreeSet<i64> = export["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter(|p| p["withdrawn"] == true && text(&p["group"]) == pool)
        .map(|p| int(&p["id"]))
        .filter(|&id| {
            let all = slots(group, id, rounds);
            let first_out = all
                .iter()
                .position(|s| matches!(s, Slot::NotPaired))
                .unwrap_or(rounds);
            after >= first_out
        })
        .collect();
    let mut last_rank = 0;
    for row in rows {
        let id = int(&row["player"]);
        let r = &mine[&id];
        let who = format!(
            "pool `{pool}` after round {after}, player {id} ({})",
            text(&row["name"])
        );
        let v = &row["values"];
        assert_eq!(int(&row["score"]), r.score, "{who}: 积分");
        assert_eq!(int(&v["score"]), r.score, "{who}: 积分");
        assert_eq!(ints(&v["round_points"]), r.round_points, "{who}: p_k");
        assert_eq!(ints(&v["cumulative"]), r.cumulative, "{who}: S_k");
        assert_eq!(ints(&v["opp_scores"]), r.opp_scores, "{who}: opponents");
        assert_eq!(int(&v["opp_score"]), r.opp_score, "{who}: 对手分");
        assert_eq!(int(&v["progressive"]), r.progressive, "{who}: 累进分");
        assert_eq!(int(&v["wins"]), r.wins, "{who}: 胜局");
        assert_eq!(int(&v["fouls"]), r.fouls, "{who}: 犯规");
        assert_eq!(int(&v["black_games"]), r.black_games, "{who}: 后走局数");
        assert_eq!(int(&row["penalty"]), r.penalty, "{who}: penalty");
        assert_eq!(int(&v["penalty"]), r.penalty, "{who}: penalty");
        assert_eq!(
            row["withdrawn"].as_bool(),
            Some(withdrawn.contains(&id)),
            "{who}: withdrawn"
        );
        // The printed tiebreak columns, in the seed's order, with the same values.
        let shown: Vec<(&str, i64)> = row["tiebreaks"]
            .as_array()
            .expect("tiebreaks")
            .iter()
            .map(|t| (text(&t["key"]), int(&t["value"])))
            .collect();
        let expected: Vec<(&str, i64)> =
            tiebreaks.iter().map(|&t| (t, key_value(r, t).0)).collect();
        assert_eq!(shown, expected, "{who}: tiebreak columns");

        // Ranks: one more than the players strictly ahead on the whole key; equal keys
        // share the rank. A tie for first needs a playoff once every round is played
        // (冠军不并列, shared until then).
        let rank = int(&row["rank"]);
        let ahead = keys.values().filter(|k| *k < &keys[&id]).count() as i64;
        assert_eq!(rank, ahead + 1, "{who}: rank follows the values");
        let tied = keys.values().filter(|k| *k == &keys[&id]).count();
        assert_eq!(row["shared"].as_bool(), Some(tied > 1), "{who}: shared");
        assert_eq!(
            row["needs_playoff"].as_bool(),
            Some(tied > 1 && rank == 1 && after == rounds),
            "{who}: needs_playoff"
        );
        assert!(rank >= last_rank, "{who}: rows in rank order");
        last_rank = rank;
    }
    rows.len()
}

/// Checks one demo: every pool's standings after every round (the `standings` command,
/// and the export's final standings) against the recomputation.
fn check_standings(demo: &Demo, rounds: usize, tiebreaks: &[&str], fallback: &str) {
    let export = &demo.export;
    let groups = export["groups"].as_array().expect("groups");
    assert!(!groups.is_empty());
    let mut checked_players = 0;
    for group in groups {
        let pool = text(&group["id"]);
        assert_eq!(
            group["rounds"].as_array().map(Vec::len),
            Some(rounds),
            "pool `{pool}`: every round is played"
        );
        let fin: Value =
            serde_json::from_str(&demo.read(&["standings", "--group", pool, "--format", "json"]))
                .expect("standings JSON");
        assert_eq!(
            fin, group["standings"],
            "pool `{pool}`: `standings` and `export` agree"
        );
        checked_players += check_pool(export, group, &fin, rounds, rounds, tiebreaks, fallback);
        for after in 1..rounds {
            let round = after.to_string();
            let cli: Value = serde_json::from_str(&demo.read(&[
                "standings",
                "--group",
                pool,
                "--round",
                &round,
                "--format",
                "json",
            ]))
            .expect("standings JSON");
            check_pool(export, group, &cli, after, rounds, tiebreaks, fallback);
        }
    }
    assert!(checked_players > 100, "both demos have over 100 players");
}

#[test]
fn issue4_jinhua_standings_agree_with_an_independent_recomputation() {
    // 补充规定 二：积分、对手分、胜局、犯规、后走局数；如仍无法区分，比较上一轮成绩。
    check_standings(
        jinhua(),
        9,
        &["opp_score", "wins", "fouls", "black_games"],
        "prev_round_cumulative",
    );
}

#[test]
fn issue4_dongguan_standings_agree_with_an_independent_recomputation() {
    // 十一.3 最终排名依据：积分、对手分、累积分。
    check_standings(dongguan(), 7, &["opp_score", "progressive"], "none");
}

#[test]
fn issue4_recomputation_holds_after_corrections_double_forfeits_and_penalties() {
    // The Jinhua demo, then what arbiters do after the last round: late corrections to
    // forfeits and a 双负 (补充规定 五.3), and point deductions.
    let mut demo = Demo::run(&[]);
    let ev = demo.event_arg().to_string();
    let run = |args: &[&str]| {
        let mut all = vec!["--event", ev.as_str()];
        all.extend_from_slice(args);
        qiwang(&all)
    };
    run(&[
        "result", "--group", "adult", "--round", "9", "--", "2", "双负", "5", "-+", "7", "+-",
    ]);
    // 青少年组 sits after 成人组's 39 tables in the hall (docs/rules.md §12 (table numbers)).
    run(&["result", "--group", "youth", "--round", "4", "40", "双负"]);
    let top = text(&demo.export["groups"][0]["standings"]["rows"][0]["name"]).to_string();
    run(&["penalty", &top, "2", "--reason", "扰乱棋局"]);
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("json");
    run(&[
        "export",
        "--format",
        "json",
        "--show-private",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    demo.export =
        serde_json::from_str(&std::fs::read_to_string(out.join("event.json")).expect("event.json"))
            .expect("JSON");
    assert_eq!(demo.export["penalties"].as_array().map(Vec::len), Some(1));
    let outcomes: Vec<&str> = demo.export["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .flat_map(|g| g["rounds"].as_array().expect("rounds"))
        .flat_map(|r| r["pairings"].as_array().expect("pairings"))
        .filter_map(|p| p["result"]["outcome"].as_str())
        .collect();
    assert_eq!(
        outcomes.iter().filter(|o| **o == "double_forfeit").count(),
        2
    );
    check_standings(
        &demo,
        9,
        &["opp_score", "wins", "fouls", "black_games"],
        "prev_round_cumulative",
    );
}

#[test]
fn issue4_standings_table_prints_the_seed_order() {
    let cases = [
        (
            jinhua(),
            "adult",
            vec!["积分", "对手分", "胜局", "犯规", "后走局数"],
        ),
        (dongguan(), "king", vec!["积分", "对手分", "累进分"]),
    ];
    for (demo, pool, columns) in cases {
        let table = demo.read(&["standings", "--group", pool]);
        let header = table
            .lines()
            .find(|l| l.contains("名次"))
            .expect("a header line");
        let mut at = 0;
        for c in columns {
            let found = header[at..]
                .find(c)
                .unwrap_or_else(|| panic!("`{c}` after column {at} in `{header}`"));
            at += found + c.len();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Issue 5: prize money, from the regulations' own numbers.

/// One prize list as the regulation writes it.
struct RegList {
    /// The rulebook's id of the list (for `standings --list`).
    id: &'static str,
    name: &'static str,
    /// Money of places 1, 2, … in yuan.
    amounts: &'static [u64],
    /// The champion's title (十三.(一) / 十二.3), if the list carries one.
    title: Option<&'static str>,
    /// The award text of places 1, 2, …; empty when the list has none.
    awards: &'static [&'static str],
    qualification: Option<&'static str>,
}

const PROMOTION: &str = "晋升浙江省象棋等级";
/// 十三.(二): places 1–6 of the youth and kids lists are promoted.
const PROMOTED: &[&str] = &[PROMOTION; 6];
/// Dongguan 十五.3 (trophy, medals, certificates) and 十二.1 (段位和等级证书, 广东省棋士证书
/// for the top 8 of every group).
const GD_AWARDS: &[&str] = &[
    "奖杯、证书、段位和等级证书、广东省棋士证书",
    "奖牌、证书、段位和等级证书、广东省棋士证书",
    "奖牌、证书、段位和等级证书、广东省棋士证书",
    "证书、段位和等级证书、广东省棋士证书",
    "证书、段位和等级证书、广东省棋士证书",
    "证书、段位和等级证书、广东省棋士证书",
    "证书、段位和等级证书、广东省棋士证书",
    "证书、段位和等级证书、广东省棋士证书",
];
const FINAL: &str = "晋级2018年广东省第三届“谁是棋王”全民争霸赛总决赛";

/// Jinhua 十三.(三), in the order the rulebook lists them; the team list last.
const JINHUA_LISTS: &[RegList] = &[
    RegList {
        id: "adult",
        name: "成人组",
        amounts: &[3000, 1200, 800, 700, 600, 500, 400, 400, 300, 300, 200, 200],
        title: Some("金华市成人组棋王"),
        awards: &[],
        qualification: None,
    },
    RegList {
        id: "disabled",
        name: "残疾人组",
        amounts: &[500, 300, 200, 100, 100, 100],
        title: Some("金华市残疾人组棋王"),
        awards: &[],
        qualification: None,
    },
    RegList {
        id: "youth",
        name: "青少年组",
        amounts: &[500, 300, 200, 100, 100, 100],
        title: Some("金华市青少年组棋王"),
        awards: PROMOTED,
        qualification: None,
    },
    RegList {
        id: "kids_boys",
        name: "少儿精英组（男子）",
        amounts: &[400, 200, 100, 100, 100, 100],
        title: Some("金华市少儿精英组男子棋王"),
        awards: PROMOTED,
        qualification: None,
    },
    RegList {
        id: "kids_girls",
        name: "少儿精英组（女子）",
        amounts: &[400, 200, 100, 100, 100, 100],
        title: Some("金华市少儿精英组女子棋王"),
        awards: PROMOTED,
        qualification: None,
    },
    RegList {
        id: "kids_b_boys",
        name: "少儿精英乙组（男子）",
        amounts: &[400, 200, 100, 100, 100, 100],
        title: Some("金华市少儿精英乙组男子棋王"),
        awards: &[],
        qualification: None,
    },
    RegList {
        id: "kids_b_girls",
        name: "少儿精英乙组（女子）",
        amounts: &[400, 200, 100, 100, 100, 100],
        title: Some("金华市少儿精英乙组女子棋王"),
        awards: &[],
        qualification: None,
    },
    RegList {
        id: "adult_team",
        name: "成人组团体",
        amounts: &[1800, 1200, 900, 600, 600, 600],
        title: None,
        awards: &[],
        qualification: None,
    },
];

/// Dongguan 十五.3 (the five groups after 本地成人组 pay as 少年棋王组).
const DONGGUAN_LISTS: &[RegList] = &[
    RegList {
        id: "king",
        name: "棋王组",
        amounts: &[1800, 1200, 800, 600, 500, 400, 300, 300],
        title: Some("东莞分站赛棋王"),
        awards: GD_AWARDS,
        qualification: Some(FINAL),
    },
    RegList {
        id: "local",
        name: "本地成人组",
        amounts: &[800, 500, 300, 200, 200, 200, 150, 150, 100, 100, 100, 100],
        title: None,
        awards: &[],
        qualification: None,
    },
    RegList {
        id: "teen_boys",
        name: "少年男子棋王组",
        amounts: &[500, 300, 200, 150, 150, 100, 100, 100],
        title: Some("东莞分站赛少年男子棋王"),
        awards: GD_AWARDS,
        qualification: Some(FINAL),
    },
    RegList {
        id: "teen_girls",
        name: "少年女子棋王组",
        amounts: &[500, 300, 200, 150, 150, 100, 100, 100],
        title: Some("东莞分站赛少年女子棋王"),
        awards: GD_AWARDS,
        qualification: Some(FINAL),
    },
    RegList {
        id: "kids_girls",
        name: "儿童女子棋王组",
        amounts: &[500, 300, 200, 150, 150, 100, 100, 100],
        title: Some("东莞分站赛儿童女子棋王"),
        awards: GD_AWARDS,
        qualification: Some(FINAL),
    },
    RegList {
        id: "kids_a",
        name: "儿童棋王A组",
        amounts: &[500, 300, 200, 150, 150, 100, 100, 100],
        title: Some("东莞分站赛儿童棋王A组棋王"),
        awards: GD_AWARDS,
        qualification: Some(FINAL),
    },
    RegList {
        id: "kids_b",
        name: "儿童棋王B组",
        amounts: &[500, 300, 200, 150, 150, 100, 100, 100],
        title: Some("东莞分站赛儿童棋王B组棋王"),
        awards: GD_AWARDS,
        qualification: Some(FINAL),
    },
];

fn reg_total(lists: &[RegList]) -> u64 {
    lists.iter().map(|l| l.amounts.iter().sum::<u64>()).sum()
}

#[test]
fn issue5_regulation_tables_add_up_to_the_stated_sums() {
    // The sums the issue states, so a typo in the tables above cannot go unnoticed.
    let sum = |lists: &[RegList], name: &str| -> u64 {
        lists
            .iter()
            .find(|l| l.name == name)
            .map(|l| l.amounts.iter().sum())
            .expect("list")
    };
    assert_eq!(reg_total(JINHUA_LISTS), 20_900);
    assert_eq!(sum(JINHUA_LISTS, "成人组"), 8_600);
    assert_eq!(sum(JINHUA_LISTS, "残疾人组"), 1_300);
    assert_eq!(sum(JINHUA_LISTS, "青少年组"), 1_300);
    assert_eq!(sum(JINHUA_LISTS, "成人组团体"), 5_700);
    assert_eq!(reg_total(DONGGUAN_LISTS), 16_800);
    assert_eq!(sum(DONGGUAN_LISTS, "棋王组"), 5_900);
    assert_eq!(sum(DONGGUAN_LISTS, "本地成人组"), 2_900);
    for l in &DONGGUAN_LISTS[2..] {
        assert_eq!(l.amounts.iter().sum::<u64>(), 1_600, "{}", l.name);
    }
}

mod library {
    //! Issue 5 (a): a whole event with every place filled, paired and played through the
    //! library, priced by the shipped rulebooks.

    use super::{DONGGUAN_LISTS, JINHUA_LISTS, RegList, reg_total};
    use qiwang::model::{Event, Gender, GroupId, Player};
    use qiwang::rulebook::Rulebook;

    fn rulebook(file: &str) -> (Rulebook, String) {
        let path = super::root().join("rules").join(file);
        let text = std::fs::read_to_string(&path).expect("shipped rulebook");
        let rules =
            Rulebook::from_toml(&text, &path.display().to_string()).expect("valid rulebook");
        (rules, text)
    }

    struct Entry<'a> {
        group: &'a str,
        section: Option<&'a str>,
        gender: Gender,
        disabled: bool,
        local: bool,
        count: usize,
    }

    fn entry(group: &str, gender: Gender, count: usize) -> Entry<'_> {
        Entry {
            group,
            section: None,
            gender,
            disabled: false,
            local: false,
            count,
        }
    }

    /// Players named after their slot, spread over `units` units (for team prizes).
    fn event(rules_text: String, entries: &[Entry], units: usize) -> Event {
        let mut ev = Event::new(rules_text);
        let mut k = 0;
        for e in entries {
            for i in 0..e.count {
                let id = ev.next_player_id();
                let mut p =
                    Player::new(id, format!("{}{}号", e.group, i + 1), GroupId::new(e.group));
                p.section = e.section.map(GroupId::new);
                p.gender = Some(e.gender);
                p.disabled = e.disabled;
                p.local = e.local;
                p.unit = format!("第{}单位", k % units + 1);
                k += 1;
                ev.players.push(p);
            }
        }
        ev
    }

    /// Pairs and plays every round of every pool, as an arbiter would.
    fn play(ev: &mut Event, rules: &Rulebook, seed: u64) {
        let pools: Vec<GroupId> = rules
            .pools()
            .map(|g| g.id.clone())
            .filter(|g| ev.players_in(g).next().is_some())
            .collect();
        for pool in pools {
            for round in 1..=rules.rounds_for(&pool) {
                let plan = qiwang::pairing::pair_next_round(ev, rules, &pool, seed)
                    .unwrap_or_else(|e| panic!("{pool} round {round}: {e}"));
                for (id, number) in &plan.numbers {
                    ev.player_mut(*id).expect("player").number = Some(*number);
                }
                let state = ev.group_mut(&pool);
                state.seed.get_or_insert(seed);
                state.rounds.push(plan.round);
                let entries = qiwang::simulate::round_results(ev, &pool, round, seed, &[]);
                qiwang::results::record_results(ev, rules, &pool, Some(round), &entries)
                    .unwrap_or_else(|e| panic!("{pool} round {round}: {e}"));
            }
        }
    }

    /// Every list's money (awards paid, held for a playoff, left over from a split)
    /// equals the regulation's, and so does the grand total.
    fn check(ev: &Event, rules: &Rulebook, lists: &[RegList]) {
        let (sheet, _) = qiwang::views::compute_sheet(ev, rules);
        let mut names: Vec<(&str, u64, u64, usize)> = Vec::new();
        for l in &sheet.lists {
            let awarded: u64 = l.awards.iter().map(|a| a.money_fen + a.held_fen).sum();
            let max_place = l.awards.iter().map(|a| a.covers_to).max().unwrap_or(0);
            names.push((
                &l.name,
                awarded + l.totals.undistributed_fen,
                l.totals.budget_fen,
                max_place as usize,
            ));
        }
        for t in &sheet.teams {
            let awarded: u64 = t.awards.iter().map(|a| a.money_fen).sum();
            let max_place = t.awards.iter().map(|a| a.covers_to).max().unwrap_or(0);
            names.push((
                &t.name,
                awarded + t.totals.undistributed_fen + t.totals.held_fen,
                t.totals.budget_fen,
                max_place as usize,
            ));
        }
        assert_eq!(
            names.iter().map(|n| n.0).collect::<Vec<_>>(),
            lists.iter().map(|l| l.name).collect::<Vec<_>>(),
            "every list the regulation names, in order"
        );
        for (reg, (name, money, budget, max_place)) in lists.iter().zip(&names) {
            let want: u64 = reg.amounts.iter().sum::<u64>() * 100;
            assert_eq!(*money, want, "{name}: money of every place");
            assert_eq!(*budget, want, "{name}: budget");
            assert!(
                *max_place >= reg.amounts.len(),
                "{name}: every place filled"
            );
        }
        let t = sheet.totals;
        let want = reg_total(lists) * 100;
        assert_eq!(t.budget_fen, want, "grand budget");
        assert_eq!(
            t.paid_fen + t.held_fen + t.undistributed_fen,
            want,
            "grand total"
        );
    }

    #[test]
    fn jinhua_sheet_with_every_place_filled_totals_20900() {
        let (rules, text) = rulebook("jinhua-2018.toml");
        let disabled = |gender, count| Entry {
            group: "adult",
            section: Some("disabled"),
            gender,
            disabled: true,
            local: false,
            count,
        };
        let entries = [
            entry("adult", Gender::Male, 24),
            entry("adult", Gender::Female, 4),
            disabled(Gender::Male, 5),
            disabled(Gender::Female, 3),
            entry("youth", Gender::Male, 7),
            entry("youth", Gender::Female, 5),
            entry("kids", Gender::Male, 9),
            entry("kids", Gender::Female, 8),
            entry("kids_b", Gender::Male, 8),
            entry("kids_b", Gender::Female, 9),
        ];
        // 36 adults over 8 units: every unit fields at least 3 (成人团体取前三名).
        let mut ev = event(text, &entries, 8);
        play(&mut ev, &rules, 2018);
        check(&ev, &rules, JINHUA_LISTS);
    }

    #[test]
    fn dongguan_sheet_with_every_place_filled_totals_16800() {
        let (rules, text) = rulebook("dongguan-2018.toml");
        let local = |section, gender, count| Entry {
            group: "king",
            section,
            gender,
            disabled: false,
            local: true,
            count,
        };
        let entries = [
            entry("king", Gender::Male, 12),
            entry("king", Gender::Female, 3),
            local(Some("local"), Gender::Male, 10),
            local(Some("local"), Gender::Female, 3),
            local(None, Gender::Male, 2),
            entry("teen_boys", Gender::Male, 11),
            entry("teen_girls", Gender::Female, 10),
            entry("kids_girls", Gender::Female, 10),
            entry("kids_a", Gender::Male, 6),
            entry("kids_a", Gender::Female, 5),
            entry("kids_b", Gender::Male, 7),
            entry("kids_b", Gender::Female, 4),
        ];
        let mut ev = event(text, &entries, 5);
        play(&mut ev, &rules, 922);
        check(&ev, &rules, DONGGUAN_LISTS);
    }
}

/// One row of `prizes --format csv`.
#[derive(Debug)]
struct CsvRow {
    list: String,
    place: u32,
    shared: bool,
    name: String,
    unit: String,
    score: i64,
    amount_fen: u64,
    /// Money held for a playoff (需加赛): the place's money, not yet paid.
    held_fen: u64,
    award: String,
    title: String,
    qualification: String,
}

fn parse_yuan(s: &str) -> u64 {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let whole: u64 = whole
        .parse()
        .unwrap_or_else(|_| panic!("amount `{s}` is not a number"));
    let frac: u64 = match frac.len() {
        0 => 0,
        1 => frac.parse::<u64>().expect("fen") * 10,
        2 => frac.parse().expect("fen"),
        _ => panic!("amount `{s}` has more than two decimals"),
    };
    whole * 100 + frac
}

fn prize_csv(demo: &Demo) -> Vec<CsvRow> {
    // The column keys as the issue names them (English); the event's own language (zh)
    // gives the same columns under Chinese headers.
    let zh = demo.read(&["prizes", "--format", "csv"]);
    // A UTF-8 byte-order mark first, for Chinese-locale Excel (issue 12).
    assert!(
        zh.starts_with(
            "\u{feff}奖项,名次,姓名,单位,积分,奖金,暂缓发放,状态,奖励,称号,资格,领奖签字"
        ),
        "{zh}"
    );
    let csv = demo.read(&["--lang", "en", "prizes", "--format", "csv"]);
    assert_eq!(csv.lines().count(), zh.lines().count());
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers = reader.headers().expect("header").clone();
    assert_eq!(
        headers.iter().collect::<Vec<_>>(),
        [
            "list",
            "place",
            "name",
            "unit",
            "score",
            "amount",
            "held",
            "status",
            "award",
            "title",
            "qualification",
            "signature"
        ]
    );
    let records: Vec<csv::StringRecord> =
        reader.records().map(|r| r.expect("CSV record")).collect();
    // The last row is the totals row: paid and held sums of every award above it.
    let (total, records) = records.split_last().expect("a totals row");
    assert_eq!(&total[0], "Total");
    let paid: u64 = records.iter().map(|r| parse_yuan(&r[5])).sum();
    let held: u64 = records.iter().map(|r| parse_yuan(&r[6])).sum();
    assert_eq!((parse_yuan(&total[5]), parse_yuan(&total[6])), (paid, held));
    records
        .iter()
        .map(|r| {
            let place = &r[1];
            let shared = place.ends_with('=');
            CsvRow {
                list: r[0].to_string(),
                place: place.trim_end_matches('=').parse().expect("place"),
                shared,
                name: r[2].to_string(),
                unit: r[3].to_string(),
                score: r[4].parse().expect("score"),
                amount_fen: parse_yuan(&r[5]),
                held_fen: parse_yuan(&r[6]),
                award: r[8].to_string(),
                title: r[9].to_string(),
                qualification: r[10].to_string(),
            }
        })
        .collect()
}

/// The pool a list ranks and which of its players the list takes, written from the
/// regulation (成绩分开录取: disabled, local, boys and girls ranked within their pool).
fn list_rule(list: &str) -> (&'static str, fn(&Value) -> bool) {
    fn any(_: &Value) -> bool {
        true
    }
    fn male(p: &Value) -> bool {
        p["gender"] == "male"
    }
    fn female(p: &Value) -> bool {
        p["gender"] == "female"
    }
    fn disabled(p: &Value) -> bool {
        p["disabled"] == true
    }
    fn local(p: &Value) -> bool {
        p["local"] == true
    }
    // Dongguan 九: the rulebook merges the under-size 儿童女子棋王组 into 少年女子棋王组;
    // each keeps its own list within the merged pool.
    fn teen_girl(p: &Value) -> bool {
        p["section"] != "kids_girls"
    }
    fn kids_girl(p: &Value) -> bool {
        p["section"] == "kids_girls"
    }
    match list {
        "成人组" | "成人组团体" => ("adult", any),
        "残疾人组" => ("adult", disabled),
        "青少年组" => ("youth", any),
        "少儿精英组（男子）" => ("kids", male),
        "少儿精英组（女子）" => ("kids", female),
        "少儿精英乙组（男子）" => ("kids_b", male),
        "少儿精英乙组（女子）" => ("kids_b", female),
        "棋王组" => ("king", any),
        "本地成人组" => ("king", local),
        "少年男子棋王组" => ("teen_boys", any),
        "少年女子棋王组" => ("teen_girls", teen_girl),
        "儿童女子棋王组" => ("teen_girls", kids_girl),
        "儿童棋王A组" => ("kids_a", any),
        "儿童棋王B组" => ("kids_b", any),
        l => panic!("list `{l}` is not in either regulation"),
    }
}

/// The list's players in the pool's final standings order: (name, unit, pool rank).
fn list_members(export: &Value, list: &str) -> Vec<(String, String, i64)> {
    let (pool, take) = list_rule(list);
    let players: BTreeMap<i64, &Value> = export["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| (int(&p["id"]), p))
        .collect();
    let group = export["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .find(|g| g["id"] == pool)
        .unwrap_or_else(|| panic!("pool `{pool}`"));
    group["standings"]["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| take(players[&int(&r["player"])]))
        .map(|r| {
            (
                text(&r["name"]).to_string(),
                text(&r["unit"]).to_string(),
                int(&r["rank"]),
            )
        })
        .collect()
}

/// Units with at least three adults, with the sum of their three best pool ranks and
/// their best rank (Jinhua: 成人团体取同单位最好的前三名计算成绩; the rulebook's reading
/// is the rank sum, lower first, then the best individual rank).
fn team_values(export: &Value) -> BTreeMap<String, (i64, i64)> {
    let mut units: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for (_, unit, rank) in list_members(export, "成人组团体") {
        units.entry(unit).or_default().push(rank);
    }
    units
        .into_iter()
        .filter(|(_, r)| r.len() >= 3)
        .map(|(u, mut r)| {
            r.sort_unstable();
            (u, (r[..3].iter().sum(), r[0]))
        })
        .collect()
}

/// How many players (or units, for a team list) each list can place, counted from the
/// exported registrations and standings, not from the prize code.
fn eligible(export: &Value, list: &str) -> usize {
    if list == "成人组团体" {
        team_values(export).len()
    } else {
        list_members(export, list).len()
    }
}

/// Who holds each place: list place = 1 + the list's players strictly ahead in the pool.
fn check_places(export: &Value, reg: &RegList, rows: &[&CsvRow]) {
    if reg.name == "成人组团体" {
        let teams = team_values(export);
        for r in rows {
            let (value, best) = teams
                .get(&r.unit)
                .unwrap_or_else(|| panic!("team `{}` has three adults", r.unit));
            assert_eq!(r.score, *value, "{}: rank sum", r.unit);
            assert_eq!(r.name.split('、').count(), 3, "{}: three members", r.unit);
            let ahead = teams.values().filter(|t| **t < (*value, *best)).count();
            let level = teams.values().filter(|t| **t == (*value, *best)).count();
            let place = r.place as usize;
            assert!(
                place > ahead && place <= ahead + level,
                "{}: place {place}, {ahead} teams ahead",
                r.unit
            );
        }
        return;
    }
    let members = list_members(export, reg.name);
    let shown: BTreeSet<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    for (name, _, rank) in &members {
        let place = 1 + members.iter().filter(|m| m.2 < *rank).count();
        let row = rows.iter().find(|r| &r.name == name);
        if place <= reg.amounts.len() {
            let row = row.unwrap_or_else(|| panic!("{}: `{name}` holds place {place}", reg.name));
            assert_eq!(row.place as usize, place, "{}: place of `{name}`", reg.name);
        } else {
            assert!(
                !shown.contains(name.as_str()),
                "{}: `{name}` is below the prizes",
                reg.name
            );
        }
    }
}

/// `standings --list ID`: the list's players in pool order, each with the pool rank and
/// the list place (1 + the list's players strictly ahead).
fn check_list_view(demo: &Demo, reg: &RegList) {
    let view: Value =
        serde_json::from_str(&demo.read(&["standings", "--list", reg.id, "--format", "json"]))
            .expect("list JSON");
    let rows = view["rows"].as_array().expect("rows");
    let members = list_members(&demo.export, reg.name);
    assert_eq!(
        rows.len(),
        members.len(),
        "{}: every eligible player",
        reg.name
    );
    for (row, (name, _, rank)) in rows.iter().zip(&members) {
        assert_eq!(text(&row["name"]), name, "{}: pool order", reg.name);
        assert_eq!(int(&row["overall_rank"]), *rank, "{}: {name}", reg.name);
        let place = 1 + members.iter().filter(|m| m.2 < *rank).count() as i64;
        assert_eq!(int(&row["place"]), place, "{}: place of {name}", reg.name);
    }
}

/// Checks the CSV prize sheet of a demo against the regulation's lists.
fn check_prize_csv(demo: &Demo, lists: &[RegList]) {
    let rows = prize_csv(demo);
    let names: Vec<&str> = rows.iter().fold(Vec::new(), |mut v, r| {
        if v.last() != Some(&r.list.as_str()) {
            v.push(&r.list);
        }
        v
    });
    assert_eq!(
        names,
        lists.iter().map(|l| l.name).collect::<Vec<_>>(),
        "every list the regulation names appears once, in order"
    );
    for reg in lists {
        let list: Vec<&CsvRow> = rows.iter().filter(|r| r.list == reg.name).collect();
        check_places(&demo.export, reg, &list);
        if reg.name != "成人组团体" {
            check_list_view(demo, reg);
        }
        let n = eligible(&demo.export, reg.name);
        let filled = n.min(reg.amounts.len());
        // Group rows by place: k players sharing place p cover p..p+k-1.
        let mut by_place: BTreeMap<u32, Vec<&CsvRow>> = BTreeMap::new();
        for r in &list {
            by_place.entry(r.place).or_default().push(r);
        }
        let mut next = 1;
        for (&place, tied) in &by_place {
            let who = format!("{} place {place}", reg.name);
            assert_eq!(place, next, "{who}: places follow on");
            let k = tied.len() as u32;
            assert_eq!(tied.iter().all(|r| r.shared), k > 1, "{who}: shared mark");
            let covered: u64 = (place..place + k)
                .filter_map(|p| reg.amounts.get(p as usize - 1))
                .sum::<u64>()
                * 100;
            // Paid, or held until a playoff settles a tie that may not be shared.
            let paid: u64 = tied.iter().map(|r| r.amount_fen + r.held_fen).sum();
            assert!(
                paid <= covered && covered - paid < u64::from(k),
                "{who}: {paid} fen paid for places worth {covered} fen"
            );
            for r in tied {
                // A tie for a titled first place is held for a playoff: no title yet.
                let held = r.held_fen > 0;
                let title = if place == 1 && !held { reg.title } else { None };
                assert_eq!(r.title, title.unwrap_or(""), "{who}: title of {}", r.name);
                let award = reg.awards.get(place as usize - 1).copied();
                // Held: only the award texts every covered place shares are shown.
                if !held {
                    assert_eq!(r.award, award.unwrap_or(""), "{who}: award");
                }
                assert_eq!(
                    r.qualification,
                    reg.qualification.unwrap_or(""),
                    "{who}: qualification"
                );
            }
            next = place + k;
        }
        // Exactly the filled places are shown: one row per place up to the smaller of
        // the regulation's places and the eligible players, more only when players tie
        // across the last paid place.
        let last_tied = by_place.values().last().map_or(1, Vec::len);
        let extra = list.len().saturating_sub(filled);
        assert!(
            list.len() >= filled && (extra == 0 || extra < last_tied),
            "{}: {} rows for {n} eligible players and {} places",
            reg.name,
            list.len(),
            reg.amounts.len()
        );
        assert!(
            list.iter().all(|r| r.place as usize <= reg.amounts.len()),
            "{}: no place beyond the regulation's",
            reg.name
        );
    }
}

#[test]
fn issue5_jinhua_prize_csv_lists_every_award_with_the_regulation_amounts() {
    check_prize_csv(jinhua(), JINHUA_LISTS);
}

#[test]
fn issue5_dongguan_prize_csv_lists_every_award_with_the_regulation_amounts() {
    let demo = dongguan();
    check_prize_csv(demo, DONGGUAN_LISTS);
    // 十二.2: the top 8 of every group qualify for the final; 本地成人组 is no group.
    let rows = prize_csv(demo);
    let qualified = rows.iter().filter(|r| r.qualification == FINAL).count();
    let expected: usize = DONGGUAN_LISTS
        .iter()
        .filter(|l| l.qualification.is_some())
        .map(|l| eligible(&demo.export, l.name).min(8))
        .sum();
    assert_eq!(qualified, expected);
}

/// The text between `start` and the next `end`, for every occurrence.
fn between<'a>(s: &'a str, start: &str, end: &str) -> Vec<&'a str> {
    s.split(start)
        .skip(1)
        .map(|part| part.split(end).next().unwrap_or(part))
        .collect()
}

fn check_prize_html(demo: &Demo, lists: &[RegList], dates: (&str, &str)) {
    let html = demo.read(&["prizes", "--format", "html"]);
    let rows = prize_csv(demo);
    assert!(html.starts_with("<!DOCTYPE html>"), "a complete document");
    assert_eq!(html.matches("<html").count(), 1);
    assert!(html.trim_end().ends_with("</html>"));
    let event = text(&demo.export["event"]["name"]);
    assert!(html.contains(&format!("<title>{event}")), "the event title");
    assert!(html.contains(&format!("<h1>{event}")), "the event heading");
    assert!(
        html.contains(dates.0) && html.contains(dates.1),
        "the dates"
    );
    // Print CSS for A4 paper.
    let css = between(&html, "<style>", "</style>").concat();
    assert!(css.contains("@page"), "an @page rule");
    assert!(
        css.replace(' ', "").contains("size:A4"),
        "@page sets size:A4"
    );
    // One section per list, each with a signature column and its total.
    let sections = between(&html, "<section>", "</section>");
    for reg in lists {
        let section = sections
            .iter()
            .find(|s| s.contains(&format!("<h2>{}</h2>", reg.name)))
            .unwrap_or_else(|| panic!("a section for {}", reg.name));
        assert!(
            section.contains("<th>领奖签字</th>"),
            "{}: 领奖签字",
            reg.name
        );
        let paid: u64 = rows
            .iter()
            .filter(|r| r.list == reg.name)
            .map(|r| r.amount_fen)
            .sum();
        let total = between(section, "合计 ", "元");
        assert_eq!(total.len(), 1, "{}: one total", reg.name);
        assert_eq!(parse_yuan(total[0]), paid, "{}: its total", reg.name);
        let signature_cells = section.matches("class=\"sign\"").count();
        let body_rows = section.matches("<tr>").count() - 1;
        assert_eq!(
            signature_cells, body_rows,
            "{}: a cell to sign per row",
            reg.name
        );
    }
    let grand = sections
        .iter()
        .find(|s| s.contains("奖金总计"))
        .expect("a grand total");
    let paid: u64 = rows.iter().map(|r| r.amount_fen).sum();
    let total = between(grand, "合计 ", "元");
    assert_eq!(total.len(), 1);
    assert_eq!(parse_yuan(total[0]), paid, "the grand total");
}

#[test]
fn issue5_prize_html_is_a_printable_document() {
    // A Chinese event's dates in Chinese form (issue 43 item 9).
    check_prize_html(jinhua(), JINHUA_LISTS, ("2018年10月26日", "2018年10月28日"));
    check_prize_html(
        dongguan(),
        DONGGUAN_LISTS,
        ("2018年9月22日", "2018年9月23日"),
    );
}

// ---------------------------------------------------------------------------------------
// Issue 6: the exported HTML site.

/// Checks that the elements a printed page depends on are balanced and properly nested.
fn well_formed(page: &str, html: &str) {
    assert!(
        html.starts_with("<!DOCTYPE html>"),
        "{page}: starts with the doctype"
    );
    assert_eq!(html.matches("<html").count(), 1, "{page}: one <html>");
    assert_eq!(html.matches("</html>").count(), 1, "{page}: one </html>");
    // No script but the site's own file (views::public).
    assert!(
        !crate::common::without_own_script(html)
            .to_ascii_lowercase()
            .contains("<script"),
        "{page}: no <script"
    );
    let tracked = [
        "html", "head", "body", "table", "thead", "tbody", "tr", "td", "th", "section",
    ];
    let mut stack: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest
            .find('>')
            .unwrap_or_else(|| panic!("{page}: unclosed `<`"));
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        let (closing, name) = match tag.strip_prefix('/') {
            Some(t) => (true, t),
            None => (false, tag),
        };
        let name: String = name
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        if !tracked.contains(&name.as_str()) {
            continue;
        }
        if closing {
            let open = stack.pop();
            assert_eq!(
                open.as_deref(),
                Some(name.as_str()),
                "{page}: `</{name}>` closes {open:?}"
            );
        } else {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "{page}: never closed: {stack:?}");
}

#[test]
fn issue6_every_exported_page_is_well_formed_and_escapes_registrants() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // The Jinhua sheet plus a hostile registrant.
    let mut regs = std::fs::read_to_string(root().join("examples/jinhua-2018/registrations.csv"))
        .expect("registrations");
    if !regs.ends_with('\n') {
        regs.push('\n');
    }
    regs.push_str("999,<script>alert(1)</script>,男,<b>单位</b>&amp;,成人组,1970-01-01,,,,\n");
    let csv = tmp.path().join("registrations.csv");
    std::fs::write(&csv, regs).expect("write registrations");
    let dir = tmp.path().join("event");
    let rules = root().join("rules/jinhua-2018.toml");
    let path = |p: &Path| p.to_str().expect("utf-8 path").to_string();
    qiwang(&[
        "demo",
        &path(&dir),
        "--rules",
        &path(&rules),
        "--registrations",
        &path(&csv),
    ]);
    let site = tmp.path().join("site");
    qiwang(&[
        "--event",
        &path(&dir),
        "export",
        "--format",
        "html",
        "--out",
        &path(&site),
    ]);
    let mut pages = Vec::new();
    let mut dirs = vec![site.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("read site") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                pages.push(p);
            }
        }
    }
    pages.sort();
    assert!(pages.len() > 20, "a page per group and round: {pages:?}");
    let mut shown = BTreeSet::new();
    for p in &pages {
        let html = std::fs::read_to_string(p).expect("page");
        let page = p
            .strip_prefix(&site)
            .expect("in site")
            .display()
            .to_string();
        well_formed(&page, &html);
        if html.contains("&lt;script&gt;alert(1)&lt;/script&gt;") {
            shown.insert(page.clone());
        }
        assert!(!html.contains("<b>单位</b>"), "{page}: the unit is escaped");
        // Every relative link leads to a page of the site.
        for href in between(&html, "href=\"", "\"") {
            if href.starts_with("http") || href.starts_with('#') {
                continue;
            }
            let target = p
                .parent()
                .expect("in a folder")
                .join(href.split('#').next().unwrap_or(""));
            assert!(target.exists(), "{page}: broken link `{href}`");
        }
    }
    for page in [
        "adult/players.html",
        "adult/standings.html",
        "adult/crosstable.html",
        "adult/round-1.html",
    ] {
        assert!(
            shown.contains(page),
            "{page} shows the registrant as text; shown on {shown:?}"
        );
    }
}
