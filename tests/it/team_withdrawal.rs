//! A whole team's withdrawal (全队退赛, docs/rules.md §17.7): by hand and by the forfeit
//! rule counting whole matches forfeited, with the cause typed as a player's; the team
//! not paired afterwards in a Swiss or a round robin; played matches kept in a Swiss and
//! under the half rule in a round robin, against a recomputation written from the rule;
//! refusals leaving the event untouched; the command, its marks and `undo`.

use super::teams::{play, team_event, team_rules};
use qiwang::model::{Event, GameResult, GroupId, Outcome, TeamId, TeamWithdrawal, WithdrawalCause};
use qiwang::rulebook::Rulebook;
use qiwang::teams::{self, Absent, MatchEntry, TeamError};
use std::collections::BTreeMap;

fn pool() -> GroupId {
    GroupId::new("open")
}

/// Pairs the next round and records every board drawn, except the matches in `absent`,
/// forfeited as a whole by the side given.
fn play_round(e: &mut Event, rules: &Rulebook, absent: &[TeamId]) {
    let plan = teams::pair_team_round(e, rules, &pool(), 7, None).unwrap();
    plan.apply(e, &pool(), 7);
    let entries: Vec<MatchEntry> = plan
        .round
        .matches
        .iter()
        .filter(|m| m.boards.iter().any(|b| b.result.is_none()))
        .map(|m| {
            let side = absent.iter().find_map(|&t| {
                (t == m.first)
                    .then_some(Absent::First)
                    .or((t == m.second).then_some(Absent::Second))
            });
            MatchEntry {
                table: m.table,
                tiebreak: false,
                absent: side,
                results: match side {
                    Some(_) => Vec::new(),
                    None => vec![GameResult::new(Outcome::Draw); m.boards.len()],
                },
            }
        })
        .collect();
    teams::record_team_results(e, rules, &pool(), None, &entries).unwrap();
}

fn paired_teams(e: &Event, round: u32) -> Vec<TeamId> {
    let r = e.team_pools[&pool()].round(round).unwrap();
    let mut v: Vec<TeamId> = r
        .matches
        .iter()
        .flat_map(|m| [m.first, m.second])
        .chain(r.bye)
        .collect();
    v.sort();
    v
}

/// Withdrawn by hand after round 2 of a Swiss: never paired again, its two matches stay
/// in everyone's standings, and the row carries the arbiter's note. A second withdrawal,
/// one while the team's match is open, and one after the last round are refused with the
/// event untouched.
#[test]
fn a_team_withdrawn_by_hand_is_not_paired_again_and_its_swiss_matches_stay() {
    let rules = team_rules(5, 4, "");
    let mut e = team_event(7, 4, 0);
    play_round(&mut e, &rules, &[]);
    // Round 2 paired, its results not in: the withdrawal waits for them.
    let plan = teams::pair_team_round(&e, &rules, &pool(), 7, None).unwrap();
    plan.apply(&mut e, &pool(), 7);
    let before = serde_json::to_string(&e).unwrap();
    let open = plan.round.matches[0].first;
    let name = format!("第{}队", open.0);
    let r = teams::withdraw_team(&mut e, &rules, &pool(), &name, None);
    assert!(
        matches!(r, Err(TeamError::TeamMatchOpen { round: 2, .. })),
        "{r:?}"
    );
    assert_eq!(serde_json::to_string(&e).unwrap(), before);
    let entries: Vec<MatchEntry> = plan
        .round
        .matches
        .iter()
        .map(|m| MatchEntry {
            table: m.table,
            tiebreak: false,
            absent: None,
            results: vec![GameResult::new(Outcome::RedWin); 4],
        })
        .collect();
    teams::record_team_results(&mut e, &rules, &pool(), None, &entries).unwrap();
    let out = TeamId(3);
    let before_points = teams::team_standings(&e, &rules, &pool(), None).unwrap();
    let (id, _, from) =
        teams::withdraw_team(&mut e, &rules, &pool(), "第3队", Some("全队因故退赛")).unwrap();
    assert_eq!((id, from), (out, 3));
    let snapshot = serde_json::to_string(&e).unwrap();
    let r = teams::withdraw_team(&mut e, &rules, &pool(), "第3队", None);
    assert!(
        matches!(
            r,
            Err(TeamError::TeamAlreadyWithdrawn { from_round: 3, .. })
        ),
        "{r:?}"
    );
    assert_eq!(serde_json::to_string(&e).unwrap(), snapshot);
    for round in 3..=5 {
        play_round(&mut e, &rules, &[]);
        let teams = paired_teams(&e, round);
        assert!(!teams.contains(&out), "round {round}: {teams:?}");
        assert_eq!(teams.len(), 6, "the six others, one with no bye");
    }
    let st = teams::team_standings(&e, &rules, &pool(), None).unwrap();
    let row = st.rows.iter().find(|r| r.team == out).unwrap();
    let was = before_points.rows.iter().find(|r| r.team == out).unwrap();
    assert_eq!((row.match_points, row.played), (was.match_points, 2));
    assert_eq!(
        row.withdrawn,
        Some(TeamWithdrawal {
            team: out,
            from_round: 3,
            cause: WithdrawalCause::Manual {
                note: Some("全队因故退赛".into())
            },
        })
    );
    assert!(!row.annulled, "a Swiss keeps every played match");
    // Its opponents keep the matches against it.
    let meetings = teams::meetings(
        &e.team_pools[&pool()],
        rules.team_competition.as_ref().unwrap(),
        5,
    );
    assert_eq!(meetings.iter().filter(|m| m.opponent == out).count(), 2);
    assert!(
        teams::check_team_pool(&e, &rules, &pool())
            .unwrap()
            .0
            .is_empty()
    );
    let r = teams::withdraw_team(&mut e, &rules, &pool(), "第5队", None);
    assert!(
        matches!(r, Err(TeamError::TeamEventOver { rounds: 5, .. })),
        "{r:?}"
    );
}

/// The rulebook's forfeit rule (`conduct.withdraw_after_forfeits`, 2 in a row by default)
/// counts matches a team forfeited as a whole: two in a row withdraw it with the typed
/// cause; correcting one of them lifts the withdrawal; counted in total (累计) a drawn
/// match between them does not reset the count. A withdrawal by hand is never touched.
#[test]
fn whole_matches_forfeited_withdraw_a_team_by_the_forfeit_rule() {
    let rules = team_rules(6, 3, "");
    let mut e = team_event(6, 3, 0);
    let out = TeamId(4);
    play_round(&mut e, &rules, &[out]);
    assert!(
        e.team_pools[&pool()].withdrawn.is_empty(),
        "one forfeit is not two"
    );
    play_round(&mut e, &rules, &[out]);
    let w = e.team_pools[&pool()].withdrawal(out).cloned();
    assert_eq!(
        w,
        Some(TeamWithdrawal {
            team: out,
            from_round: 3,
            cause: WithdrawalCause::Forfeits {
                rounds: vec![1, 2],
                consecutive: true
            },
        })
    );
    play_round(&mut e, &rules, &[]);
    assert!(!paired_teams(&e, 3).contains(&out));
    // Round 2 corrected to a played match: the rule no longer withdraws the team. (Round 3
    // stays as paired; the team is paired again from round 4.)
    let r2 = e.team_pools[&pool()].round(2).unwrap().clone();
    let m = r2
        .matches
        .iter()
        .find(|m| m.first == out || m.second == out)
        .unwrap();
    let fix = MatchEntry {
        table: m.table,
        tiebreak: false,
        absent: None,
        results: vec![GameResult::new(Outcome::Draw); 3],
    };
    teams::record_team_results(&mut e, &rules, &pool(), Some(2), &[fix]).unwrap();
    assert_eq!(e.team_pools[&pool()].withdrawal(out), None);
    play_round(&mut e, &rules, &[]);
    assert!(paired_teams(&e, 4).contains(&out));

    // 累计: forfeit, draw, forfeit withdraws from round 4.
    let mut total = team_rules(6, 3, "");
    total.conduct.withdraw_consecutive = false;
    let mut e = team_event(6, 3, 0);
    play_round(&mut e, &total, &[out]);
    play_round(&mut e, &total, &[]);
    play_round(&mut e, &total, &[out]);
    let w = e.team_pools[&pool()].withdrawal(out).cloned().unwrap();
    assert_eq!(w.from_round, 4);
    assert_eq!(
        w.cause,
        WithdrawalCause::Forfeits {
            rounds: vec![1, 3],
            consecutive: false
        }
    );
    // A withdrawal by hand replaces the automatic one and stays through corrections.
    let mut by_hand = e.clone();
    let (_, _, from) = teams::withdraw_team(&mut by_hand, &total, &pool(), "第4队", None).unwrap();
    assert_eq!(from, 4);
    teams::apply_team_forfeit_withdrawals(&mut by_hand, &total, &pool());
    assert!(
        !by_hand.team_pools[&pool()]
            .withdrawal(out)
            .unwrap()
            .cause
            .is_automatic()
    );
}

/// 场分 of every team in a round robin, written from the rule: each decided match gives
/// 2/1/0 by comparing 局分 (2/1/0 a board), matches of an annulled team left out.
fn recompute(e: &Event, annulled: &[TeamId]) -> BTreeMap<TeamId, i32> {
    let mut out = BTreeMap::new();
    for r in &e.team_pools[&pool()].rounds {
        for m in &r.matches {
            if annulled.contains(&m.first) || annulled.contains(&m.second) {
                continue;
            }
            let (mut a, mut b) = (0, 0);
            for g in &m.boards {
                let o = g.result.unwrap().outcome;
                let first_red = g.board % 2 == 1;
                let (red, black) = match o {
                    Outcome::Draw => (1, 1),
                    o if o.winner() == Some(qiwang::model::Colour::Red) => (2, 0),
                    o if o.winner() == Some(qiwang::model::Colour::Black) => (0, 2),
                    _ => (0, 0),
                };
                let (f, s) = if first_red {
                    (red, black)
                } else {
                    (black, red)
                };
                a += f;
                b += s;
            }
            let (x, y) = match a.cmp(&b) {
                std::cmp::Ordering::Greater => (2, 0),
                std::cmp::Ordering::Less => (0, 2),
                std::cmp::Ordering::Equal => (1, 1),
            };
            *out.entry(m.first).or_default() += x;
            *out.entry(m.second).or_default() += y;
        }
    }
    out
}

/// A round robin of 6 teams (5 rounds): a team withdrawn after 2 rounds played fewer than
/// half of its matches, so all of them are annulled for everyone; one withdrawn after 3
/// keeps them, and its later matches stand as forfeited by it as a whole. Either way its
/// scheduled matches are still on the table, never re-paired.
#[test]
fn a_round_robin_keeps_its_tables_and_follows_the_half_rule() {
    let rules = team_rules(5, 4, "format = \"round_robin\"");
    for (after, annulled) in [(2, true), (3, false)] {
        let mut e = team_event(6, 4, 0);
        let out = TeamId(2);
        for _ in 0..after {
            play_round(&mut e, &rules, &[]);
        }
        teams::withdraw_team(&mut e, &rules, &pool(), "第2队", None).unwrap();
        for _ in after..5 {
            play_round(&mut e, &rules, &[]);
        }
        let state = &e.team_pools[&pool()];
        assert_eq!(state.rounds.len(), 5);
        for r in &state.rounds {
            let m = r
                .matches
                .iter()
                .find(|m| m.first == out || m.second == out)
                .expect("the table keeps the team's match");
            assert_eq!(
                teams::forfeited_whole(m, out, &rules),
                r.number > after,
                "round {}",
                r.number
            );
        }
        let gone = teams::annulled_teams(&e, &rules, &pool());
        assert_eq!(gone, if annulled { vec![out] } else { vec![] });
        let expect = recompute(&e, &gone);
        let st = teams::team_standings(&e, &rules, &pool(), None).unwrap();
        for row in &st.rows {
            assert_eq!(
                row.match_points.0,
                expect.get(&row.team).copied().unwrap_or(0),
                "after {after}: {}",
                row.name
            );
        }
        let row = st.rows.iter().find(|r| r.team == out).unwrap();
        assert_eq!(row.annulled, annulled);
        assert!(row.withdrawn.is_some());
        // Board results leave the annulled matches out as well.
        let boards = teams::board_stats(&e, &rules, &pool(), None).unwrap();
        assert_eq!(boards.iter().any(|l| l.team == out), !annulled);
    }
}

/// The random events of tests/it/teams.rs with a team withdrawn half way: the others play
/// on without it in every later round, and `check` finds nothing.
#[test]
fn random_swiss_events_pair_around_a_withdrawn_team() {
    for seed in 0..20u64 {
        let rules = team_rules(7, 4, "");
        let mut e = team_event(8 + (seed % 5) as u32, 4, 3);
        let teams_n = 8 + (seed % 5) as u32;
        for _ in 0..3 {
            play_round(&mut e, &rules, &[]);
        }
        let out = TeamId(1 + (seed as u32 % teams_n));
        teams::withdraw_team(&mut e, &rules, &pool(), &format!("第{}队", out.0), None).unwrap();
        play(&mut e, &rules, seed);
        let state = &e.team_pools[&pool()];
        assert_eq!(state.rounds.len(), 7, "seed {seed}");
        for r in 4..=7 {
            assert!(!paired_teams(&e, r).contains(&out), "seed {seed} round {r}");
        }
        let (violations, boards) = teams::check_team_pool(&e, &rules, &pool()).unwrap();
        assert!(violations.is_empty() && boards.is_empty(), "seed {seed}");
    }
}

/// `player withdraw --team` through the binary: the note in the standings' 备注 and the
/// crosstable's name, not in the next round's pairing, and `undo` takes it back.
#[test]
fn the_team_withdrawal_command_marks_the_sheets_and_undoes() {
    use super::common::{Run, event_with, p, root, snapshot};
    let (_tmp, ev) = event_with(
        &root("rules/team-swiss.toml"),
        Some(&root("examples/team-swiss/registrations.xlsx")),
    );
    let dir = ev.parent().unwrap().to_path_buf();
    let on = |args: &[&str]| {
        let mut all = vec!["--event", "ev"];
        all.extend_from_slice(args);
        Run::new(&dir, &all)
    };
    // A success prints nothing on standard error.
    let ok = |args: &[&str]| on(args).stderr_empty().check().stdout;
    ok(&["pair", "--seed", "3"]);
    let slips = ok(&["round", "--sheet", "slips", "--format", "csv"]);
    let lines: Vec<String> = slips
        .trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut cells: Vec<String> = l.split(',').map(String::from).collect();
            let n = cells.len();
            if i > 0 {
                cells[n - 2] = "和".into();
            }
            cells.join(",")
        })
        .collect();
    // 轮次,场次,台次,红方队,红方,黑方队,黑方,结果,签字
    let team = lines[1].split(',').nth(3).unwrap().to_string();
    assert!(!team.is_empty(), "{}", lines[1]);
    let file = dir.join("r1.csv");
    std::fs::write(&file, lines.join("\n")).unwrap();
    ok(&["result", "--from", p(&file)]);
    let before = snapshot(&ev);
    on(&["player", "withdraw", "--team", "无此队"])
        .status(3)
        .stdout_empty()
        .stderr_has("无此队")
        .check();
    assert_eq!(snapshot(&ev), before);
    on(&[
        "player",
        "withdraw",
        "--team",
        &team,
        "--reason",
        "路途受阻",
    ])
    .stdout_has("第2轮起不再编排")
    .stderr_empty()
    .check();
    // The arbiter's note is private.
    let st = on(&["standings"])
        .stdout_lacks("路途受阻")
        .stderr_empty()
        .check()
        .stdout;
    let line = st.lines().find(|l| l.contains(&team)).unwrap();
    assert!(line.contains("第2轮起退赛"), "{line}");
    on(&["crosstable"])
        .stdout_has(&format!("{team}（退赛）"))
        .stderr_empty()
        .check();
    let json = on(&["standings", "--format", "json"])
        .stderr_empty()
        .check()
        .json();
    let row = json["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["team"] == team.as_str())
        .unwrap()
        .clone();
    assert_eq!(row["withdrawn"]["from_round"], 2);
    assert_eq!(row["withdrawn"]["cause"]["kind"], "manual");
    assert_eq!(row["withdrawn"]["cause"].get("note"), None);
    let site = dir.join("site");
    ok(&["export", "--format", "json", "--out", p(&site)]);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("event.json")).unwrap()).unwrap();
    assert_eq!(
        doc["groups"],
        serde_json::json!([]),
        "no individual group in a team event"
    );
    let w = &doc["team_competition"][0]["withdrawn"][0];
    assert_eq!(
        (w["from_round"].as_u64(), w["cause"].get("note")),
        (Some(2), None)
    );
    let private = dir.join("private");
    ok(&[
        "export",
        "--format",
        "json",
        "--show-private",
        "--out",
        p(&private),
    ]);
    let doc = std::fs::read_to_string(private.join("event.json")).unwrap();
    assert!(doc.contains("路途受阻"));
    ok(&["pair"]);
    on(&["round", "--sheet", "pairings"])
        .stdout_lacks(&team)
        .stderr_empty()
        .check();
    on(&["log"]).stdout_has("全队退赛").stderr_empty().check();
    ok(&["undo"]);
    ok(&["undo"]);
    assert_eq!(
        snapshot(&ev).get(std::path::Path::new("qiwang.json")),
        before.get(std::path::Path::new("qiwang.json"))
    );
    on(&["standings"])
        .stdout_lacks("退赛")
        .stderr_empty()
        .check();
}

/// Through the binary (the English session's event): two whole matches forfeited in a row
/// withdraw Cedar with the typed cause (Ash's one forfeit, then a bye, does not), round 3 pairs without it, `check` is clean; a
/// correction lifts the withdrawal and says round 3 was paired without the team, which
/// `check` now reports.
#[test]
fn the_forfeit_rule_withdraws_and_lifts_a_team_through_the_binary() {
    use super::common::{Run, event_with, root};
    let (_tmp, ev) = event_with(
        &root("tests/cmd/event/team-en.in/rules.toml"),
        Some(&root("tests/cmd/event/team-en.in/players.csv")),
    );
    let dir = ev.parent().unwrap().to_path_buf();
    let on = |args: &[&str]| {
        let mut all = vec!["--event", "ev"];
        all.extend_from_slice(args);
        Run::new(&dir, &all)
    };
    // A success prints nothing on standard error.
    let ok = |args: &[&str]| on(args).stderr_empty().check();
    ok(&["pair", "--seed", "5"]);
    // Round 1: Ash and Cedar (second in both matches) absent.
    ok(&["result", "1", "second-absent", "2", "second-absent"]);
    ok(&["pair"]);
    // Round 2: Cedar has 先 in match 2, and is absent again.
    on(&["result", "1", "=", "=", "2", "first-absent"])
        .stdout_has(
            "team Cedar withdrawn (2 consecutive forfeits (rounds 1, 2)): not paired from round 3",
        )
        .stderr_empty()
        .check();
    ok(&["pair"]);
    on(&["round", "--sheet", "pairings", "--format", "csv"])
        .stdout_lacks("Cedar")
        .stderr_empty()
        .check();
    ok(&["check"]);
    on(&["standings"])
        .stdout_has("withdrawn from round 3: 2 consecutive forfeits (rounds 1, 2)")
        .stderr_empty()
        .check();
    on(&["result", "--round", "2", "2", "=", "="])
        .stdout_has("team Cedar is no longer withdrawn")
        .stdout_has("round 3 was paired without it")
        .stderr_empty()
        .check();
    on(&["check"])
        .status(3)
        .stdout_is("round 3: active team `Cedar` has no match and no bye\n")
        .stderr_is("error: 1 violation of the hard pairing rules\n")
        .check();
}

/// `player reinstate --team`: a team withdrawn by the forfeit rule is paired again from the
/// next round, and its earlier forfeits no longer count (the next result does not withdraw
/// it again); a team not withdrawn is refused with the event untouched.
#[test]
fn a_reinstated_team_is_paired_again_and_its_old_forfeits_no_longer_count() {
    let rules = team_rules(6, 3, "");
    let mut e = team_event(6, 3, 0);
    let out = TeamId(4);
    play_round(&mut e, &rules, &[out]);
    play_round(&mut e, &rules, &[out]);
    assert!(e.team_pools[&pool()].withdrawal(out).is_some());
    play_round(&mut e, &rules, &[]);
    assert!(!paired_teams(&e, 3).contains(&out));
    let (_, _, from) = teams::reinstate_team(&mut e, &rules, &pool(), "第4队").unwrap();
    assert_eq!(from, 4);
    play_round(&mut e, &rules, &[]);
    assert!(paired_teams(&e, 4).contains(&out));
    assert_eq!(
        e.team_pools[&pool()].withdrawal(out),
        None,
        "rounds 1–2 no longer count"
    );
    // One more whole forfeit is one, not three.
    play_round(&mut e, &rules, &[out]);
    assert_eq!(e.team_pools[&pool()].withdrawal(out), None);
    let before = serde_json::to_string(&e).unwrap();
    let r = teams::reinstate_team(&mut e, &rules, &pool(), "第4队");
    assert!(
        matches!(r, Err(TeamError::TeamNotWithdrawn { .. })),
        "{r:?}"
    );
    assert_eq!(serde_json::to_string(&e).unwrap(), before);
}
