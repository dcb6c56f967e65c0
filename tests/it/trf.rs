//! Issue 6: `qiwang export --format trf` writes FIDE TRF files that FIDE tools can read.
//!
//! When a `bbpPairings` binary is on `PATH` (built from the public source,
//! BieremaBoyzProgramming/bbpPairings, with `make`), every exported pool is also given to
//! the real program (`bbpPairings --dutch FILE -c`), which must read it; without it those
//! checks are skipped and say so. This file also carries its own reader of the FIDE TRF
//! layout, strict where bbpPairings' parser (`src/fileformats/trf.cpp`) is strict:
//!
//! * lines are UTF-8 and columns are counted in characters (bbpPairings decodes each line
//!   to UTF-32 before slicing), so a Chinese name takes as many columns as characters;
//! * `001`: at least 84 characters; start number in columns 5–8, sex 10, name 15–47,
//!   rating 49–52, points 81–84 with one decimal, rank 86–89; from column 92 a block of
//!   10 characters per round: opponent (4 characters, `0000` for none), colour (`w`, `b`
//!   or `-`), result (`1 0 = + - W D L H F U Z`), nothing but spaces after the last block;
//! * `142`: total rounds, at least the rounds played;
//! * `162`: from column 6, every 9 characters, a symbol and a 4-character score
//!   (`W` win, `D` draw, `L` loss, `Z` forfeit loss and zero-point bye, `P`
//!   pairing-allocated bye: what bbpPairings accepts; TRF-2026 spells the absence `A`,
//!   which bbpPairings refuses); only spaces in between;
//! * a player's points equal their results under that point system; played games are
//!   symmetric with opposite colours; start numbers run 1..n without gaps.
//!
//! Every finished pool of both demo events is read and every violation fails the test.

use qiwang::model::{Event, GroupId, Outcome, Pairing, Player, PlayerId, Round};
use qiwang::model::{GameResult, Gender, PlayerStatus};
use qiwang::rulebook::Rulebook;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

// ---------------------------------------------------------------------------------------
// The reader.

/// One round of a player line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cell {
    /// Start number of the opponent; `None` for `0000`.
    opponent: Option<usize>,
    colour: char,
    result: char,
}

#[derive(Debug, Clone)]
struct TrfPlayer {
    start: usize,
    sex: char,
    /// Columns 15–47 exactly as written (33 characters).
    name_field: String,
    rating: Option<u32>,
    /// Points in tenths.
    points: i64,
    rank: Option<u32>,
    rounds: Vec<Cell>,
}

#[derive(Debug, Default)]
struct Trf {
    total_rounds: Option<u32>,
    declared_players: Option<usize>,
    /// Point system in tenths, by symbol.
    point_system: BTreeMap<char, i64>,
    players: Vec<TrfPlayer>,
}

/// Characters `from..to` (0-based, end exclusive) of a line.
fn cols(line: &[char], from: usize, to: usize) -> String {
    line[from..to].iter().collect()
}

/// A TRF score: right-aligned, one decimal (`" 9.5"`), in tenths.
fn score(s: &str) -> Result<i64, String> {
    let t = s.trim_start();
    let (whole, frac) = t
        .split_once('.')
        .ok_or_else(|| format!("score `{s}` has no decimal point"))?;
    if frac.len() != 1 || whole.is_empty() {
        return Err(format!("score `{s}` must have one decimal"));
    }
    let whole: i64 = whole
        .parse()
        .map_err(|_| format!("score `{s}` is not a number"))?;
    let frac: i64 = frac
        .parse()
        .map_err(|_| format!("score `{s}` is not a number"))?;
    Ok(whole * 10 + frac)
}

fn optional_number(s: &str, what: &str) -> Result<Option<u32>, String> {
    let t = s.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse()
        .map(Some)
        .map_err(|_| format!("{what} `{s}` is not a number"))
}

fn read_player(line: &[char]) -> Result<TrfPlayer, String> {
    if line.len() < 84 {
        return Err(format!(
            "001 line has {} characters, fewer than 84",
            line.len()
        ));
    }
    for blank in [3, 8, 13, 47, 52, 56, 68, 79, 84] {
        if line.get(blank).is_some_and(|&c| c != ' ') {
            return Err(format!("column {} must be a space", blank + 1));
        }
    }
    let start = optional_number(&cols(line, 4, 8), "start number")?
        .filter(|&n| n > 0)
        .ok_or("no start number in columns 5-8")? as usize;
    let rating = optional_number(&cols(line, 48, 52), "rating")?;
    let points = score(&cols(line, 80, 84))?;
    let rank = if line.len() >= 89 {
        optional_number(&cols(line, 85, 89), "rank")?
    } else {
        optional_number(&cols(line, 85, line.len()), "rank")?
    };
    let mut rounds = Vec::new();
    let mut at = 91;
    while at + 8 <= line.len() {
        if cols(line, at - 2, at) != "  " {
            return Err(format!("columns {}-{} must be spaces", at - 1, at));
        }
        let opp = cols(line, at, at + 4);
        let opponent = match opp.as_str() {
            "0000" => None,
            o => Some(
                optional_number(o, "opponent")?
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("opponent `{o}`"))? as usize,
            ),
        };
        if line[at + 4] != ' ' || line[at + 6] != ' ' {
            return Err(format!("round block at column {} is misaligned", at + 1));
        }
        let colour = line[at + 5];
        let result = line[at + 7];
        if !"wb-".contains(colour) {
            return Err(format!("colour `{colour}` at column {}", at + 6));
        }
        if !"10=+-WDLHFUZ".contains(result) {
            return Err(format!("result `{result}` at column {}", at + 8));
        }
        match opponent {
            // bbpPairings: no colour without an opponent; only byes and unpaired rounds.
            None if colour != '-' || !"HFUZ".contains(result) => {
                return Err(format!(
                    "`{opp} {colour} {result}`: a round without an opponent has colour `-` and a bye result"
                ));
            }
            Some(o) if o == start => return Err(format!("player {start} plays themself")),
            Some(_) if colour == '-' || "HFUZ".contains(result) => {
                return Err(format!(
                    "`{opp} {colour} {result}`: a game has a colour and a game result"
                ));
            }
            _ => {}
        }
        rounds.push(Cell {
            opponent,
            colour,
            result,
        });
        at += 10;
    }
    // bbpPairings: nothing but spaces after the last whole round block.
    let tail = (at - 2).min(line.len());
    if line[tail..].iter().any(|&c| c != ' ') {
        return Err(format!("stray characters after column {tail}"));
    }
    Ok(TrfPlayer {
        start,
        sex: line[9],
        name_field: cols(line, 14, 47),
        rating,
        points,
        rank,
        rounds,
    })
}

fn read_point_system(line: &[char]) -> Result<BTreeMap<char, i64>, String> {
    let mut out = BTreeMap::new();
    if line.len() < 10 {
        return Err("162 line shorter than 10 characters".into());
    }
    let mut at = 5;
    while at + 5 <= line.len() {
        if at > 5 && line[at - 4..at].iter().any(|&c| c != ' ') {
            return Err(format!("columns {}-{} must be spaces", at - 3, at));
        }
        let symbol = line[at];
        if !"WDLZP".contains(symbol) {
            return Err(format!(
                "point-system symbol `{symbol}` at column {}",
                at + 1
            ));
        }
        if out
            .insert(symbol, score(&cols(line, at + 1, at + 5))?)
            .is_some()
        {
            return Err(format!("symbol `{symbol}` twice"));
        }
        at += 9;
    }
    if line[(at - 4).min(line.len())..].iter().any(|&c| c != ' ') {
        return Err(format!("stray characters after column {}", at - 4));
    }
    Ok(out)
}

/// Reads a TRF file; returns every violation found.
fn read_trf(text: &str) -> Result<Trf, Vec<String>> {
    let mut trf = Trf::default();
    let mut errors = Vec::new();
    for (n, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let line: Vec<char> = raw.chars().collect();
        if line.len() < 3 {
            if !line.iter().all(|c| c.is_whitespace()) {
                errors.push(format!("line {}: `{raw}` is too short", n + 1));
            }
            continue;
        }
        let code = cols(&line, 0, 3);
        let res: Result<(), String> = match code.as_str() {
            "001" => read_player(&line).map(|p| trf.players.push(p)),
            "142" => cols(&line, 3, line.len())
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&r| r > 0)
                .map(|r| trf.total_rounds = Some(r))
                .ok_or_else(|| format!("142 `{raw}` is not a round count")),
            "162" => read_point_system(&line).map(|p| trf.point_system = p),
            "062" => cols(&line, 3, line.len())
                .trim()
                .parse::<usize>()
                .map(|n| trf.declared_players = Some(n))
                .map_err(|_| format!("062 `{raw}` is not a count")),
            c if c.chars().all(|c| c.is_ascii_digit())
                || c.starts_with("XX")
                || c.starts_with("BB") =>
            {
                if line.get(3).is_some_and(|&c| c != ' ') {
                    Err(format!("record `{c}` must be followed by a space"))
                } else {
                    Ok(())
                }
            }
            c => Err(format!("unknown record `{c}`")),
        };
        if let Err(e) = res {
            errors.push(format!("line {}: {e}", n + 1));
        }
    }
    if errors.is_empty() {
        Ok(trf)
    } else {
        Err(errors)
    }
}

/// The points of one result under the `162` point system (bbpPairings' defaults: 1.0,
/// 0.5, 0.0, 0.0, the win's points for a pairing-allocated bye).
fn result_points(ps: &BTreeMap<char, i64>, result: char) -> i64 {
    let get = |s: char, default: i64| ps.get(&s).copied().unwrap_or(default);
    let win = get('W', 10);
    match result {
        '1' | '+' | 'W' | 'F' => win,
        '=' | 'D' | 'H' => get('D', 5),
        '0' | 'L' => get('L', 0),
        '-' | 'Z' => get('Z', 0),
        'U' => get('P', win),
        r => panic!("result `{r}` was accepted by the reader"),
    }
}

/// Checks everything that concerns more than one line; returns every violation.
fn check_consistency(trf: &Trf) -> Vec<String> {
    let mut errors = Vec::new();
    let n = trf.players.len();
    let starts: BTreeSet<usize> = trf.players.iter().map(|p| p.start).collect();
    if starts.len() != n || starts != (1..=n).collect() {
        errors.push(format!(
            "start numbers are not 1..{n} without gaps: {starts:?}"
        ));
    }
    if let Some(d) = trf.declared_players
        && d != n
    {
        errors.push(format!("062 says {d} players, {n} lines"));
    }
    let played = trf
        .players
        .iter()
        .map(|p| p.rounds.len())
        .max()
        .unwrap_or(0);
    match trf.total_rounds {
        None => errors.push("no 142 line (total rounds)".into()),
        Some(r) if (r as usize) < played => {
            errors.push(format!("142 says {r} rounds, {played} are written"));
        }
        Some(_) => {}
    }
    let by_start: BTreeMap<usize, &TrfPlayer> = trf.players.iter().map(|p| (p.start, p)).collect();
    for p in &trf.players {
        if p.rounds.len() != played {
            errors.push(format!(
                "player {}: {} rounds written, others have {played}",
                p.start,
                p.rounds.len()
            ));
        }
        let sum: i64 = p
            .rounds
            .iter()
            .map(|c| result_points(&trf.point_system, c.result))
            .sum();
        if sum != p.points {
            errors.push(format!(
                "player {}: points {} but the results add up to {sum} (tenths)",
                p.start, p.points
            ));
        }
        for (r, cell) in p.rounds.iter().enumerate() {
            let Some(o) = cell.opponent else { continue };
            let Some(opp) = by_start.get(&o) else {
                errors.push(format!("player {} round {}: no player {o}", p.start, r + 1));
                continue;
            };
            let Some(back) = opp.rounds.get(r) else {
                errors.push(format!("player {o} has no round {}", r + 1));
                continue;
            };
            let expected = match cell.result {
                '1' => '0',
                '0' => '1',
                '=' => '=',
                '+' => '-',
                '-' => '+',
                x => x,
            };
            let ok = back.opponent == Some(p.start)
                && back.colour != cell.colour
                && (back.result == expected || (cell.result == '-' && back.result == '-'));
            if !ok {
                errors.push(format!(
                    "round {}: player {} `{:?}` and player {o} `{:?}` disagree",
                    r + 1,
                    p.start,
                    cell,
                    back
                ));
            }
        }
    }
    errors
}

// ---------------------------------------------------------------------------------------
// The demos.

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs qiwang and returns stdout; fails the test with stderr on a non-zero exit.
fn qiwang(args: &[&str]) -> String {
    crate::common::run(root(), args).ok()
}

/// Plays a demo, exports TRF and JSON, and checks every pool's TRF file.
fn check_demo(extra: &[&str], rounds: u32) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let p = |x: &Path| x.to_str().expect("utf-8 path").to_string();
    let dir = tmp.path().join("event");
    let mut args = vec!["demo".to_string(), p(&dir)];
    args.extend(extra.iter().map(ToString::to_string));
    qiwang(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let trf_dir = tmp.path().join("trf");
    let json_dir = tmp.path().join("json");
    for (format, out) in [("trf", &trf_dir), ("json", &json_dir)] {
        qiwang(&[
            "--event",
            &p(&dir),
            "export",
            "--format",
            format,
            "--out",
            &p(out),
        ]);
    }
    let export: Value = serde_json::from_str(
        &std::fs::read_to_string(json_dir.join("event.json")).expect("event.json"),
    )
    .expect("JSON");
    let groups = export["groups"].as_array().expect("groups");
    assert!(!groups.is_empty());
    for group in groups {
        let pool = group["id"].as_str().expect("id");
        let path = trf_dir.join(format!("{pool}.trf"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let text = String::from_utf8(bytes).expect("TRF is UTF-8");
        let trf = read_trf(&text).unwrap_or_else(|e| panic!("{pool}.trf:\n{}", e.join("\n")));
        let errors = check_consistency(&trf);
        assert!(errors.is_empty(), "{pool}.trf:\n{}", errors.join("\n"));
        assert_eq!(trf.total_rounds, Some(rounds), "{pool}: 142");
        assert!(
            trf.players
                .iter()
                .all(|p| p.rounds.len() == rounds as usize),
            "{pool}: every round written"
        );
        // 2/1/0 scoring (CXA 2011 §13.1): win 2.0, draw 1.0, loss 0.0, bye 2.0; the
        // forfeit loss is the default 0.0 and left out (bbpPairings refuses `A`).
        for (s, v) in [('W', 20), ('D', 10), ('L', 0), ('P', 20)] {
            assert_eq!(trf.point_system.get(&s), Some(&v), "{pool}: 162 {s}");
        }
        assert_eq!(trf.point_system.get(&'A'), None, "{pool}: 162 A");
        bbp_reads(&path);
        assert_eq!(
            result_points(&trf.point_system, 'U'),
            20,
            "{pool}: a bye scores as a win"
        );
        // The same players, points and ranks as the standings (names are unique here).
        let rows = group["standings"]["rows"].as_array().expect("rows");
        assert_eq!(rows.len(), trf.players.len(), "{pool}: one line per player");
        let by_name: BTreeMap<&str, &Value> = rows
            .iter()
            .map(|r| (r["name"].as_str().expect("name"), r))
            .collect();
        assert_eq!(by_name.len(), rows.len(), "{pool}: names are unique");
        let mut byes = 0;
        let mut forfeits = 0;
        for p in &trf.players {
            let name = p.name_field.trim_end();
            assert_eq!(p.name_field.chars().count(), 33);
            let row = by_name
                .get(name)
                .unwrap_or_else(|| panic!("{pool}: `{name}` is not in the standings"));
            assert_eq!(
                p.points,
                row["score"].as_i64().expect("score") * 10,
                "{pool}: {name}"
            );
            // A player the standings place keeps that place; one they do not place
            // (disqualified, unranked) still gets a rank, after every placed player.
            let placed = rows.iter().filter(|r| r["rank"].is_i64()).count() as i64;
            match row["rank"].as_i64() {
                Some(rank) => assert_eq!(p.rank.map(i64::from), Some(rank), "{pool}: {name}"),
                None => assert!(
                    p.rank.map(i64::from).is_some_and(|r| r > placed),
                    "{pool}: unplaced {name} ranked {:?}",
                    p.rank
                ),
            }
            assert!("mw ".contains(p.sex), "{pool}: sex of {name}");
            byes += p.rounds.iter().filter(|c| c.result == 'U').count();
            forfeits += p.rounds.iter().filter(|c| "+-".contains(c.result)).count();
        }
        let expected_byes: usize = group["rounds"]
            .as_array()
            .expect("rounds")
            .iter()
            .flat_map(|r| r["pairings"].as_array().expect("pairings"))
            .filter(|x| x["kind"] == "bye")
            .count();
        assert_eq!(byes, expected_byes, "{pool}: every bye written as U");
        if pool == "adult" || pool == "king" {
            assert!(
                forfeits >= 2,
                "{pool}: the demo's forfeit is written as +/-"
            );
        }
    }
}

#[test]
fn jinhua_demo_trf_files_read_cleanly() {
    check_demo(&[], 9);
}

#[test]
fn dongguan_demo_trf_files_read_cleanly() {
    let rules = root().join("rules/dongguan-2018.toml");
    let regs = root().join("examples/dongguan-2018/registrations.csv");
    check_demo(
        &[
            "--rules",
            rules.to_str().expect("utf-8"),
            "--registrations",
            regs.to_str().expect("utf-8"),
        ],
        7,
    );
}

// ---------------------------------------------------------------------------------------
// Column counting with Chinese names, forfeits and byes, on a hand-made event.

fn hand_made() -> (Event, Rulebook) {
    let rules = Rulebook::cxa_2011("测试赛", 3);
    let pool = GroupId::new("open");
    let mut ev = Event::new(String::new());
    let names = [
        ("欧阳", Some(1500), Some(Gender::Male)),
        // 40 characters: cut to the 33 the name field holds.
        (
            "王王王王王王王王王王李李李李李李李李李李张张张张张张张张张张赵赵赵赵赵赵赵赵赵赵",
            None,
            Some(Gender::Female),
        ),
        ("Li Lei", Some(1800), None),
        ("陈", None, Some(Gender::Male)),
        ("司马相如", Some(999), Some(Gender::Male)),
        // A late entry from round 3.
        ("迟到者", None, Some(Gender::Female)),
    ];
    for (i, (name, rating, gender)) in names.iter().enumerate() {
        let mut p = Player::new(PlayerId(i as u32 + 1), *name, pool.clone());
        p.rating = *rating;
        p.gender = *gender;
        p.number = Some(i as u32 + 1);
        ev.players.push(p);
    }
    ev.players[5].joined_round = 3;
    // Player 2 withdraws after round 2.
    ev.players[1].status = PlayerStatus::Withdrawn {
        from_round: 3,
        cause: qiwang::model::WithdrawalCause::Manual {
            note: Some("ill".into()),
        },
    };
    // Each round: (red, black, outcome) on tables 1 and 2, then the bye.
    let rounds = [
        ([(1, 2, Outcome::RedWin), (3, 4, Outcome::Draw)], 5),
        (
            [(5, 1, Outcome::BlackForfeit), (2, 3, Outcome::BlackWin)],
            4,
        ),
        // 补充规定 五.3 双负: a double forfeit.
        ([(1, 3, Outcome::DoubleForfeit), (4, 6, Outcome::RedWin)], 5),
    ];
    let state = ev.group_mut(&pool);
    for (number, (games, bye)) in (1..).zip(rounds) {
        let mut pairings: Vec<Pairing> = (1..)
            .zip(games)
            .map(|(table, (red, black, outcome))| Pairing::Game {
                table,
                red: PlayerId(red),
                black: PlayerId(black),
                result: Some(GameResult::new(outcome)),
            })
            .collect();
        pairings.push(Pairing::Bye {
            player: PlayerId(bye),
        });
        state.rounds.push(Round { number, pairings });
    }
    (ev, rules)
}

#[test]
fn chinese_names_are_padded_in_characters_not_bytes() {
    let (ev, rules) = hand_made();
    let pool = GroupId::new("open");
    let standings = qiwang::standings::compute_standings(&ev, &rules, &pool, None);
    let text = qiwang::report::trf::trf(&ev, &rules, &pool, &standings).expect("TRF");
    let trf = read_trf(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.join("\n")));
    let errors = check_consistency(&trf);
    assert!(errors.is_empty(), "{}\n{text}", errors.join("\n"));

    let player = |start: usize| {
        trf.players
            .iter()
            .find(|p| p.start == start)
            .unwrap_or_else(|| panic!("player {start}"))
    };
    // Exactly 33 characters, however many bytes.
    let ouyang = player(1);
    assert_eq!(ouyang.name_field, format!("欧阳{}", " ".repeat(31)));
    assert_eq!(ouyang.name_field.chars().count(), 33);
    assert_eq!(
        ouyang.name_field.len(),
        6 + 31,
        "bytes differ from characters"
    );
    assert_eq!(ouyang.rating, Some(1500));
    assert_eq!(ouyang.sex, 'm');
    let long = player(2);
    assert_eq!(
        long.name_field,
        "王王王王王王王王王王李李李李李李李李李李张张张张张张张张张张赵赵赵"
    );
    assert_eq!(long.sex, 'w');
    assert_eq!(player(3).name_field.trim_end(), "Li Lei");
    assert_eq!(player(5).rating, Some(999));

    // Every 001 line has its points at characters 81-84, whatever its name.
    for line in text.lines().filter(|l| l.starts_with("001")) {
        let chars: Vec<char> = line.chars().collect();
        assert!(chars.len() >= 84, "`{line}`");
        assert_eq!(chars[84 - 5], ' ', "`{line}`");
        assert!(score(&cols(&chars, 80, 84)).is_ok(), "`{line}`");
    }

    // Red is w, black b; forfeits +/-; the bye U (2 points under 2/1/0).
    let cell = |start: usize, round: usize| player(start).rounds[round];
    let c = |opponent: Option<usize>, colour, result| Cell {
        opponent,
        colour,
        result,
    };
    assert_eq!(cell(1, 0), c(Some(2), 'w', '1'));
    assert_eq!(cell(2, 0), c(Some(1), 'b', '0'));
    assert_eq!(cell(3, 0), c(Some(4), 'w', '='));
    assert_eq!(cell(5, 0), c(None, '-', 'U'));
    assert_eq!(cell(5, 1), c(Some(1), 'w', '+'));
    assert_eq!(cell(1, 1), c(Some(5), 'b', '-'));
    assert_eq!(cell(3, 1), c(Some(2), 'b', '1'));
    // The withdrawn player and the late entry: not paired (zero-point `Z`, no colour).
    assert_eq!(cell(2, 2), c(None, '-', 'Z'));
    assert_eq!(cell(6, 0), c(None, '-', 'Z'));
    assert_eq!(cell(6, 1), c(None, '-', 'Z'));
    assert_eq!(cell(6, 2), c(Some(4), 'b', '0'));
    // Both sides of a double forfeit lose by forfeit.
    assert_eq!(cell(1, 2), c(Some(3), 'w', '-'));
    assert_eq!(cell(3, 2), c(Some(1), 'b', '-'));
    assert_eq!(player(5).points, 60);
    assert_eq!(player(1).points, 20);
    assert_eq!(player(4).points, 50);
    assert_eq!(player(6).points, 0);
    assert_eq!(trf.total_rounds, Some(3));
    assert_eq!(trf.players.len(), 6);
}

/// Every line has a rank (a disqualified player, whom the standings do not place, comes
/// after every placed player), and a rating TRF's four columns cannot hold is refused by
/// player rather than cut to 9999.
#[test]
fn every_player_has_a_rank_and_a_wide_rating_is_refused() {
    let (mut ev, rules) = hand_made();
    let pool = GroupId::new("open");
    ev.players[2].status = PlayerStatus::Disqualified {
        from_round: 3,
        reason: "作弊".into(),
    };
    let standings = qiwang::standings::compute_standings(&ev, &rules, &pool, None);
    let placed = standings.rows.iter().filter(|r| r.rank.is_some()).count() as u32;
    assert!(placed < 6, "the disqualified player takes no place");
    let text = qiwang::report::trf::trf(&ev, &rules, &pool, &standings).expect("TRF");
    let trf = read_trf(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.join("\n")));
    let mut ranks: Vec<u32> = trf
        .players
        .iter()
        .map(|p| p.rank.expect("a rank"))
        .collect();
    let li_lei = trf.players.iter().find(|p| p.start == 3).expect("start 3");
    assert!(li_lei.rank.expect("rank") > placed, "{text}");
    ranks.sort_unstable();
    assert!(ranks.iter().all(|&r| (1..=6).contains(&r)), "{ranks:?}");
    for wide in [10_000, -1] {
        ev.players[0].rating = Some(wide);
        let e = qiwang::report::trf::trf(&ev, &rules, &pool, &standings).expect_err("refused");
        assert!(e.to_string().contains(&format!("`{wide}`")), "{e}");
    }
}

/// A `001` line built column by column (names padded in characters).
fn p001(start: u32, name: &str, points: &str, rank: &str, cells: &[&str]) -> String {
    let mut name: String = name.to_string();
    while name.chars().count() < 33 {
        name.push(' ');
    }
    let mut line = format!(
        "001 {start:>4} m    {name} {:>4} CHN {:>11} {:10} {points:>4} {rank:>4}",
        "", "", ""
    );
    for c in cells {
        line.push_str("  ");
        line.push_str(c);
    }
    line
}

#[test]
fn the_reader_rejects_what_bbppairings_rejects() {
    let file = |lines: &[String]| format!("012 x\n142 1\n{}\n", lines.join("\n"));
    let ok = p001(1, "A", "0.0", "1", &[]);
    assert!(read_trf(&file(std::slice::from_ref(&ok))).is_ok(), "`{ok}`");
    // The name padded to 33 bytes instead of 33 characters shifts every column after it.
    let byte_padded =
        p001(1, "欧阳", "1.0", "1", &[]).replacen(&" ".repeat(31), &" ".repeat(27), 1);
    let cases = [
        ("001    1 m    A".to_string(), "fewer than 84"),
        (byte_padded, "column 80 must be a space"),
        (p001(1, "A", "1", "1", &[]), "decimal"),
        (
            p001(1, "A", "2.0", "1", &["0000 w U"]),
            "a round without an opponent",
        ),
        (
            p001(1, "A", "0.0", "1", &["0002 - 1"]),
            "a game has a colour",
        ),
        (p001(1, "A", "0.0", "1", &["0001 w 1"]), "themself"),
        (p001(1, "A", "2.0", "1", &["0000 - U"]) + " x", "stray"),
        (p001(1, "A", "2.0", "1", &["0000 - X"]), "result `X`"),
    ];
    for (input, message) in &cases {
        let errors = read_trf(&file(std::slice::from_ref(input))).expect_err(input);
        assert!(
            errors.iter().any(|e| e.contains(message)),
            "`{input}`: {errors:?}"
        );
    }
    // Points that do not match the results.
    let trf = read_trf(&file(&[p001(1, "A", "1.0", "1", &["0000 - Z"])])).expect("reads");
    assert!(check_consistency(&trf).iter().any(|e| e.contains("add up")));
    // A one-sided game: both claim white.
    let trf = read_trf(&file(&[
        p001(1, "A", "1.0", "1", &["0002 w 1"]),
        p001(2, "B", "0.0", "2", &["0001 w 0"]),
    ]))
    .expect("reads");
    assert!(
        check_consistency(&trf)
            .iter()
            .any(|e| e.contains("disagree"))
    );
    // A gap in the start numbers.
    let trf = read_trf(&file(&[p001(2, "B", "0.0", "1", &[])])).expect("reads");
    assert!(check_consistency(&trf).iter().any(|e| e.contains("gaps")));
    // More rounds written than 142 announces.
    let trf = read_trf(&file(&[p001(
        1,
        "A",
        "2.0",
        "1",
        &["0000 - U", "0000 - U"],
    )]))
    .expect("reads");
    assert!(
        check_consistency(&trf)
            .iter()
            .any(|e| e.contains("142 says"))
    );
    // The 162 line of a 2/1/0 event; symbols start at column 6.
    let trf = read_trf("162  W 2.0    D 1.0    L 0.0    Z 0.0    P 2.0\n").expect("reads");
    assert_eq!(
        trf.point_system,
        BTreeMap::from([('W', 20), ('D', 10), ('L', 0), ('Z', 0), ('P', 20)])
    );
    // bbpPairings v6 refuses the TRF-2026 `A` ("Invalid line").
    assert!(read_trf("162  W 2.0    D 1.0    L 0.0    A 0.0    P 2.0\n").is_err());
    assert!(read_trf("162 W 2.0\n").is_err());
    assert!(read_trf("162  W 2.0  D 1.0\n").is_err());
}

// ---------------------------------------------------------------------------------------
// The real bbpPairings, and the findings of issues 11 and 15.

/// The `bbpPairings` binary on `PATH`, if any.
fn bbp() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| [d.join("bbpPairings"), d.join("bbpPairings.exe")])
        .find(|p| p.is_file())
}

/// bbpPairings reads the file (`-c` checks the stored pairings against its own; only a
/// file it cannot read fails). Skipped, with a note, when bbpPairings is not installed.
fn bbp_reads(path: &Path) {
    let Some(bin) = bbp() else {
        println!(
            "bbpPairings not on PATH: {} not given to it",
            path.display()
        );
        return;
    };
    let out = Command::new(&bin)
        .arg("--dutch")
        .arg(path)
        .arg("-c")
        .output()
        .expect("run bbpPairings");
    assert!(
        out.status.success(),
        "bbpPairings cannot read {}:\n{}{}",
        path.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An event of `n` players in one pool with one complete round.
fn big_pool(n: usize) -> (Event, Rulebook) {
    let rules = Rulebook::cxa_2011("大赛", 5);
    let pool = GroupId::new("open");
    let mut ev = Event::new(String::new());
    for i in 0..n {
        let mut p = Player::new(PlayerId(i as u32 + 1), format!("棋手{i}"), pool.clone());
        p.number = Some(i as u32 + 1);
        ev.players.push(p);
    }
    (ev, rules)
}

/// Issue 15 TRF (2): start numbers above 9999 do not fit TRF's four columns; the export is
/// refused by name instead of written with every later column shifted.
#[test]
fn a_pool_of_10000_players_is_refused_not_shifted() {
    let pool = GroupId::new("open");
    let (ev, rules) = big_pool(9999);
    let standings = qiwang::standings::compute_standings(&ev, &rules, &pool, None);
    let text = qiwang::report::trf::trf(&ev, &rules, &pool, &standings).expect("9999 fit");
    assert!(text.lines().any(|l| l.starts_with("001 9999 ")));
    let (ev, rules) = big_pool(10_000);
    let standings = qiwang::standings::compute_standings(&ev, &rules, &pool, None);
    let e = qiwang::report::trf::trf(&ev, &rules, &pool, &standings).expect_err("10000");
    assert!(e.to_string().contains("9999"), "{e}");
}

/// Issue 11 points 3 and 9: strings in the rulebook cannot forge records (a newline in the
/// event name used to start a `001` line), and birth dates are written as the year only
/// unless private data is asked for.
#[test]
fn header_strings_cannot_forge_records_and_birth_dates_are_years() {
    let (mut ev, mut rules) = hand_made();
    rules.event.name = "赛\n001 9999 m    伪造者\r\n012 x".into();
    rules.event.venue = Some("馆\u{1b}[2J\n162  W 9.9".into());
    rules.event.time_control = "x".repeat(500);
    ev.players[0].birth_date = chrono::NaiveDate::from_ymd_opt(2008, 5, 1);
    let pool = GroupId::new("open");
    let standings = qiwang::standings::compute_standings(&ev, &rules, &pool, None);
    let text = qiwang::report::trf::trf(&ev, &rules, &pool, &standings).expect("TRF");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("001")).count(),
        ev.players_in(&pool).count(),
        "{text}"
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("162")).count(), 1);
    assert!(!text.contains('\u{1b}') && !text.contains('\r'));
    assert!(text.lines().all(|l| l.chars().count() < 200), "{text}");
    assert!(
        text.contains("2008/00/00") && !text.contains("2008/05/01"),
        "{text}"
    );
    let private = qiwang::report::trf::trf_with(&ev, &rules, &pool, &standings, true).expect("TRF");
    assert!(private.contains("2008/05/01"));
    let trf = read_trf(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.join("\n")));
    assert!(check_consistency(&trf).is_empty());
}

/// Issue 15 TRF (3): a player withdrawn before the next round is written as absent for it
/// with TRF-2026's `240 Z` record, which bbpPairings reads: pairing the next round from
/// the file leaves them out.
#[test]
fn a_withdrawn_player_is_absent_for_the_next_round() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let p = |x: &Path| x.to_str().expect("utf-8 path").to_string();
    let dir = tmp.path().join("event");
    let rules = root().join("rules/cxa-2011.toml");
    qiwang(&["init", &p(&dir), "--rules", &p(&rules)]);
    let sheet = tmp.path().join("sheet.csv");
    let mut csv = String::from("姓名,性别,单位\n");
    for i in 1..=10 {
        csv.push_str(&format!("棋手{i},男,单位{}\n", i % 3));
    }
    std::fs::write(&sheet, csv).expect("sheet");
    let ev = p(&dir);
    qiwang(&["--event", &ev, "import", &p(&sheet)]);
    qiwang(&["--event", &ev, "pair", "--seed", "3"]);
    qiwang(&[
        "--event", &ev, "result", "1", "r", "2", "b", "3", "=", "4", "r", "5", "b",
    ]);
    qiwang(&[
        "--event", &ev, "player", "withdraw", "棋手7", "--reason", "生病",
    ]);
    let out = tmp.path().join("trf");
    qiwang(&[
        "--event",
        &ev,
        "export",
        "--format",
        "trf",
        "--out",
        &p(&out),
    ]);
    let path = out.join("open.trf");
    let text = std::fs::read_to_string(&path).expect("open.trf");
    let start = text
        .lines()
        .find(|l| l.contains("棋手7 "))
        .and_then(|l| l[4..8].trim().parse::<usize>().ok())
        .expect("棋手7's start number");
    let absent: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("240 Z 002"))
        .collect();
    assert_eq!(absent, [format!("240 Z 002 {start:>4}")], "{text}");
    read_trf(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.join("\n")));
    bbp_reads(&path);
    if let Some(bin) = bbp() {
        let pairs = tmp.path().join("pairs.txt");
        let run = Command::new(&bin)
            .arg("--dutch")
            .arg(&path)
            .arg("-p")
            .arg(&pairs)
            .output()
            .expect("run bbpPairings");
        assert!(run.status.success(), "{run:?}");
        let paired = std::fs::read_to_string(&pairs).expect("pairs");
        let numbers: Vec<usize> = paired
            .lines()
            .skip(1)
            .flat_map(|l| l.split_whitespace().map(|n| n.parse::<usize>().expect("n")))
            .collect();
        assert!(
            !numbers.contains(&start),
            "bbpPairings paired the withdrawn player: {paired}"
        );
        assert_eq!(numbers.iter().filter(|&&n| n != 0).count(), 9, "{paired}");
    }
}
