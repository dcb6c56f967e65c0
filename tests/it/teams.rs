//! Team competitions (团体赛, docs/rules.md §17) through the library: random team events
//! against an independent recomputation of 场分, 局分, the tiebreaks and the board
//! results; team Swiss rounds against the exhaustive oracle and the dense solver; colours
//! board by board over whole events; bad input refused with the event untouched.

use super::pairing_invariants::Oracle;
use qiwang::model::{
    Event, GameResult, GroupId, Outcome, Player, PlayerId, Points, TeamId, TeamMatch,
};
use qiwang::pairing::{self, Solver, Verdict};
use qiwang::rulebook::Rulebook;
use qiwang::teams::{self, MatchEntry, TeamError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// A team rulebook of `rounds` rounds with `section` appended to `[team_competition]`.
pub(crate) fn team_rules(rounds: u32, boards: u32, extra: &str) -> Rulebook {
    let text = format!(
        "[event]\nname = \"团体赛\"\nrounds = {rounds}\n[[groups]]\nid = \"open\"\n\
         [team_competition]\nboards = {boards}\nreserves = 1\n{extra}"
    );
    Rulebook::from_toml(&text, "team.toml").unwrap()
}

/// An event of `teams` teams of `boards` main players, every `reserve_every`-th team with
/// a reserve (0: none).
pub(crate) fn team_event(teams: u32, boards: u32, reserve_every: u32) -> Event {
    let mut e = Event::new(String::new());
    let pool = GroupId::new("open");
    let mut id = 0;
    for t in 1..=teams {
        let reserves = u32::from(reserve_every > 0 && t % reserve_every == 0);
        for b in 1..=boards + reserves {
            id += 1;
            let mut p = Player::new(PlayerId(id), format!("队{t}棋手{b}"), pool.clone());
            p.unit = format!("第{t}队");
            let cell = if b > boards {
                "替补".to_string()
            } else {
                b.to_string()
            };
            p.extra.insert("台次".into(), cell);
            e.players.push(p);
        }
    }
    e
}

fn random_outcome(rng: &mut ChaCha8Rng) -> Outcome {
    match rng.gen_range(0..20) {
        0..=6 => Outcome::RedWin,
        7..=12 => Outcome::Draw,
        13..=17 => Outcome::BlackWin,
        18 => Outcome::BlackForfeit,
        _ => Outcome::RedForfeit,
    }
}

/// Plays every round of the event with random board results (and tiebreak games where
/// the rulebook has them), pairing each round as `pair` does.
pub(crate) fn play(e: &mut Event, rules: &Rulebook, seed: u64) -> u32 {
    let pool = GroupId::new("open");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut played = 0;
    loop {
        let plan = match teams::pair_team_round(e, rules, &pool, seed, None) {
            Ok(p) => p,
            Err(TeamError::AllRoundsPlayed { .. }) => break,
            Err(other) => panic!("seed {seed}: {other}"),
        };
        plan.apply(e, &pool, seed);
        played += 1;
        let entries: Vec<MatchEntry> = plan
            .round
            .matches
            .iter()
            .map(|m| MatchEntry {
                table: m.table,
                tiebreak: false,
                absent: None,
                results: m
                    .boards
                    .iter()
                    .map(|_| GameResult::new(random_outcome(&mut rng)))
                    .collect(),
            })
            .collect();
        teams::record_team_results(e, rules, &pool, None, &entries).unwrap();
        let team = rules.team_competition.as_ref().unwrap();
        let round = e.team_pools[&pool].rounds.last().unwrap().clone();
        for m in &round.matches {
            if teams::needs_tiebreak(m, team) {
                let mut results: Vec<GameResult> = m
                    .boards
                    .iter()
                    .map(|_| {
                        GameResult::new(if rng.gen_bool(0.6) {
                            Outcome::Draw
                        } else {
                            Outcome::RedWin
                        })
                    })
                    .collect();
                // Play stops at the first game one side wins (docs/rules.md §17.4).
                if let Some(i) = results.iter().position(|r| r.outcome == Outcome::RedWin) {
                    results.truncate(i + 1);
                }
                let tb = MatchEntry {
                    table: m.table,
                    tiebreak: true,
                    absent: None,
                    results,
                };
                teams::record_team_results(e, rules, &pool, None, &[tb]).unwrap();
            }
        }
    }
    played
}

/// 局分 of (first, second) written from the rule, not the library: the team with 先 red on
/// odd boards, 2/1/0 from each board's red side.
fn gp(m: &TeamMatch, win: i32, draw: i32) -> (i32, i32) {
    let (mut a, mut b) = (0, 0);
    for g in &m.boards {
        let o = g.result.unwrap().outcome;
        let (red, black) = match o {
            Outcome::RedWin | Outcome::BlackForfeit => (win, 0),
            Outcome::BlackWin | Outcome::RedForfeit => (0, win),
            Outcome::Draw => (draw, draw),
            Outcome::DoubleForfeit => (0, 0),
        };
        if g.board % 2 == 1 {
            a += red;
            b += black;
        } else {
            a += black;
            b += red;
        }
    }
    (a, b)
}

/// The independent recomputation of the standings: (场分, 局分, 对手场分, board points)
/// per team, and the ranking order they give under 局分, 对手场分, 台次分.
fn recompute(e: &Event, boards: usize) -> BTreeMap<u32, (i32, i32, i32, Vec<i32>)> {
    let pool = &e.team_pools[&GroupId::new("open")];
    let mut mp: BTreeMap<u32, i32> = BTreeMap::new();
    let mut gps: BTreeMap<u32, i32> = BTreeMap::new();
    let mut per_board: BTreeMap<u32, Vec<i32>> = BTreeMap::new();
    let mut opps: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let teams: Vec<u32> = {
        let mut v: Vec<u32> = e
            .players
            .iter()
            .map(|p| p.unit.clone())
            .collect::<Vec<_>>()
            .iter()
            .map(|u| {
                u.trim_start_matches('第')
                    .trim_end_matches('队')
                    .parse()
                    .unwrap()
            })
            .collect();
        v.dedup();
        v
    };
    for &t in &teams {
        mp.insert(t, 0);
        gps.insert(t, 0);
        per_board.insert(t, vec![0; boards]);
    }
    for r in &pool.rounds {
        if let Some(b) = r.bye {
            *mp.get_mut(&b.0).unwrap() += 2;
            *gps.get_mut(&b.0).unwrap() += 2 * boards as i32;
        }
        for m in &r.matches {
            let (a, b) = gp(m, 2, 1);
            let (f, s) = (m.first.0, m.second.0);
            *gps.get_mut(&f).unwrap() += a;
            *gps.get_mut(&s).unwrap() += b;
            for g in &m.boards {
                let o = g.result.unwrap().outcome;
                let (red, black) = match o {
                    Outcome::RedWin | Outcome::BlackForfeit => (2, 0),
                    Outcome::BlackWin | Outcome::RedForfeit => (0, 2),
                    Outcome::Draw => (1, 1),
                    Outcome::DoubleForfeit => (0, 0),
                };
                let (fp, sp) = if g.board % 2 == 1 {
                    (red, black)
                } else {
                    (black, red)
                };
                per_board.get_mut(&f).unwrap()[g.board as usize - 1] += fp;
                per_board.get_mut(&s).unwrap()[g.board as usize - 1] += sp;
            }
            let all_gone = |first: bool| {
                m.boards.iter().all(|g| {
                    let o = g.result.unwrap().outcome;
                    let red_is_first = g.board % 2 == 1;
                    let red_team_absent = matches!(o, Outcome::RedForfeit | Outcome::DoubleForfeit);
                    let black_team_absent =
                        matches!(o, Outcome::BlackForfeit | Outcome::DoubleForfeit);
                    if first == red_is_first {
                        red_team_absent
                    } else {
                        black_team_absent
                    }
                })
            };
            let (fm, sm) = match (all_gone(true), all_gone(false)) {
                (true, true) => (0, 0),
                (true, false) => (0, 2),
                (false, true) => (2, 0),
                _ if a > b => (2, 0),
                _ if a < b => (0, 2),
                _ => (1, 1),
            };
            *mp.get_mut(&f).unwrap() += fm;
            *mp.get_mut(&s).unwrap() += sm;
            opps.entry(f).or_default().push(s);
            opps.entry(s).or_default().push(f);
        }
    }
    teams
        .iter()
        .map(|t| {
            let opp: i32 = opps.get(t).map_or(0, |v| v.iter().map(|o| mp[o]).sum());
            (*t, (mp[t], gps[t], opp, per_board[t].clone()))
        })
        .collect()
}

/// docs/rules.md §17.4–§17.5: on 300 random team events (Swiss and round robin, 3–5 boards,
/// odd and even fields, forfeits included) the standings equal the recomputation: every
/// team's 场分, 局分, 对手场分 and board points, the order they give, shared places only
/// where everything is equal; and every board's individual results.
#[test]
fn team_standings_and_board_results_equal_a_recomputation() {
    let mut checked = 0;
    for seed in 0..300u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = rng.gen_range(2..=13);
        let boards = rng.gen_range(3..=5);
        let rr = seed % 3 == 0;
        let extra = if rr {
            "format = \"round_robin\"\ntiebreaks = [\"局分\", \"对手场分\", \"台次分\"]\n"
        } else {
            "tiebreaks = [\"局分\", \"对手场分\", \"台次分\"]\n"
        };
        let rules = team_rules(rng.gen_range(1..=7), boards, extra);
        let mut e = team_event(n, boards, 3);
        play(&mut e, &rules, seed);
        let want = recompute(&e, boards as usize);
        let pool = GroupId::new("open");
        let st = teams::team_standings(&e, &rules, &pool, None).unwrap();
        assert_eq!(st.rows.len(), n as usize);
        for row in &st.rows {
            let (mp, gp, opp, bp) = &want[&row.team.0];
            assert_eq!(row.match_points.0, *mp, "seed {seed} team {}", row.team);
            assert_eq!(row.game_points.0, *gp, "seed {seed} team {}", row.team);
            assert_eq!(
                row.opp_match_points.0, *opp,
                "seed {seed} team {}",
                row.team
            );
            let got: Vec<i32> = row.board_points.iter().map(|p| p.0).collect();
            assert_eq!(&got, bp, "seed {seed} team {}", row.team);
        }
        let key = |t: &TeamId| {
            let (mp, gp, opp, bp) = &want[&t.0];
            (*mp, *gp, *opp, bp.clone())
        };
        for w in st.rows.windows(2) {
            let (a, b) = (key(&w[0].team), key(&w[1].team));
            assert!(a >= b, "seed {seed}: {:?} before {:?}", w[0], w[1]);
            assert_eq!(a == b, w[0].rank == w[1].rank, "seed {seed}: {w:?}");
        }
        // Board results: each player's games and points on each board.
        let mut lines: BTreeMap<(u32, u32), (u32, i32)> = BTreeMap::new();
        for r in &e.team_pools[&pool].rounds {
            for m in &r.matches {
                for g in &m.boards {
                    let o = g.result.unwrap().outcome;
                    let (red, black) = match o {
                        Outcome::RedWin | Outcome::BlackForfeit => (2, 0),
                        Outcome::BlackWin | Outcome::RedForfeit => (0, 2),
                        Outcome::Draw => (1, 1),
                        Outcome::DoubleForfeit => (0, 0),
                    };
                    for (p, pts) in [(g.red, red), (g.black, black)] {
                        let l = lines.entry((g.board, p.0)).or_default();
                        l.0 += 1;
                        l.1 += pts;
                    }
                }
            }
        }
        let stats = teams::board_stats(&e, &rules, &pool, None).unwrap();
        assert_eq!(stats.len(), lines.len(), "seed {seed}");
        for l in &stats {
            assert_eq!(
                lines[&(l.board, l.player.0)],
                (l.games, l.points.0),
                "seed {seed}"
            );
        }
        // Board prizes: the best percentage of the board among players with enough games.
        let min = rules
            .team_competition
            .as_ref()
            .unwrap()
            .board_prize_games(teams::rounds_of(&e, &rules, &pool));
        for prize in teams::board_prizes(&e, &rules, &pool, None).unwrap() {
            assert!(prize.games >= min);
            for other in stats
                .iter()
                .filter(|l| l.board == prize.board && l.games >= min)
            {
                assert!(
                    i64::from(prize.points.0) * i64::from(other.games)
                        >= i64::from(other.points.0) * i64::from(prize.games),
                    "seed {seed}: {prize:?} beaten by {other:?}"
                );
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 300);
}

/// docs/rules.md §17.2 with 1999 §13.3 (S5): in every match of every round of whole events,
/// the team the engine gives 先 is red on odd boards and black on even ones, and the team
/// colours keep the §3.2 limits (no third 先 or 后 in a row, difference under 3) — a
/// pairing that swapped two teams' colours, or filled a board the wrong way round, fails.
#[test]
fn board_colours_follow_the_team_with_first_move_over_whole_events() {
    let pool = GroupId::new("open");
    for seed in 0..60u64 {
        let rules = team_rules(5, 4, "");
        let mut e = team_event(8 + (seed % 5) as u32, 4, 2);
        play(&mut e, &rules, seed);
        let st = &e.team_pools[&pool];
        let team_of = |p: PlayerId| e.player(p).unwrap().unit.clone();
        let name = |t: TeamId| format!("第{}队", t.0);
        let mut history: BTreeMap<TeamId, Vec<bool>> = BTreeMap::new();
        for r in &st.rounds {
            let shadow = teams::shadow_round(st, r, rules.team_competition.as_ref().unwrap());
            for m in &r.matches {
                // The shadow round the engine paired: the team with 先 is red there.
                assert!(shadow.pairings.iter().any(|p| matches!(p,
                    qiwang::model::Pairing::Game { red, black, .. }
                        if *red == teams::as_player(m.first) && *black == teams::as_player(m.second))));
                for g in &m.boards {
                    let (red, black) = (team_of(g.red), team_of(g.black));
                    if g.board % 2 == 1 {
                        assert_eq!((red, black), (name(m.first), name(m.second)), "seed {seed}");
                    } else {
                        assert_eq!((red, black), (name(m.second), name(m.first)), "seed {seed}");
                    }
                }
                history.entry(m.first).or_default().push(true);
                history.entry(m.second).or_default().push(false);
            }
        }
        // Teams whose colour limit a round had to relax (docs/rules.md §2.5) are exempt.
        let relaxed: Vec<u32> = st
            .relaxed
            .iter()
            .filter(|x| x.rule == qiwang::model::Relax::Colour)
            .flat_map(|x| x.players.iter().map(|p| p.0))
            .collect();
        for (t, h) in history.iter().filter(|(t, _)| !relaxed.contains(&t.0)) {
            // The final round may give a third colour in a row (docs/rules.md §3.2).
            let before_last = &h[..h.len() - 1];
            for w in before_last.windows(3) {
                assert!(
                    !(w[0] == w[1] && w[1] == w[2]),
                    "seed {seed} team {t}: {h:?}"
                );
            }
            let diff: i32 = h.iter().map(|&f| if f { 1 } else { -1 }).sum();
            assert!(diff.abs() <= 2, "seed {seed} team {t}: {h:?}");
        }
        let (violations, boards) = teams::check_team_pool(&e, &rules, &pool).unwrap();
        assert!(violations.is_empty() && boards.is_empty(), "seed {seed}");
    }
}

/// Team Swiss rounds are the engine's optimum (docs/rules.md §2.6): on small events every
/// round equals the exhaustive oracle's best pairing of the shadow event (teams as players),
/// and on larger ones the priced solver's round costs what the dense solver's does and
/// `check --optimal` proves it.
#[test]
fn team_swiss_rounds_are_optimal() {
    let pool = GroupId::new("open");
    let mut compared = 0;
    for seed in 0..120u64 {
        let n = 5 + (seed % 8) as u32;
        let rules = team_rules(5, 3, "");
        let mut e = team_event(n, 3, 0);
        play(&mut e, &rules, seed);
        let team = rules.team_competition.as_ref().unwrap();
        let srules = teams::shadow_rules(&rules, team);
        let shadow = teams::shadow_event(&e, &rules, &pool).unwrap();
        let rounds = e.team_pools[&pool].rounds.len() as u32;
        for r in 2..=rounds {
            let mut before = shadow.clone();
            before
                .groups
                .get_mut(&pool)
                .unwrap()
                .rounds
                .retain(|x| x.number < r);
            let oracle = Oracle::new(&before, &srules, &pool, r);
            let stored = shadow.groups[&pool].round(r).unwrap();
            match oracle.best() {
                Some(best) => {
                    assert_eq!(oracle.round_cost(stored), best, "seed {seed} round {r}");
                    compared += 1;
                }
                // No strict pairing: the round relaxed a rule (docs/rules.md §2.5), and
                // `check --optimal` below re-solves it under the relaxed rules.
                None => assert!(
                    e.team_pools[&pool].relaxed.iter().any(|x| x.round == r),
                    "seed {seed} round {r}: strict oracle finds none, round relaxed nothing"
                ),
            }
            let v = teams::prove_team_round(&e, &rules, &pool, r).unwrap();
            assert_eq!(v, Verdict::Optimal, "seed {seed} round {r}");
        }
    }
    assert!(compared > 300, "{compared}");
    // Larger fields: priced against dense on the shadow event, round by round.
    for seed in 0..6u64 {
        let rules = team_rules(9, 4, "");
        let mut e = team_event(40 + seed as u32 * 7, 4, 3);
        play(&mut e, &rules, seed);
        let team = rules.team_competition.as_ref().unwrap();
        let srules = teams::shadow_rules(&rules, team);
        let shadow = teams::shadow_event(&e, &rules, &pool).unwrap();
        for r in 2..=9 {
            let mut before = shadow.clone();
            before
                .groups
                .get_mut(&pool)
                .unwrap()
                .rounds
                .retain(|x| x.number < r);
            let priced =
                pairing::pair_next_round_with(&before, &srules, &pool, seed, Solver::Priced)
                    .unwrap();
            super::pairing_invariants::assert_priced_equals_dense(
                &before,
                &srules,
                &pool,
                r,
                &priced,
                &format!("teams seed {seed}"),
            );
            assert_eq!(
                teams::prove_team_round(&e, &rules, &pool, r).unwrap(),
                Verdict::Optimal,
                "seed {seed} round {r}"
            );
        }
    }
}

/// A match of round 1 corrected after later rounds were paired (docs/rules.md §2.6):
/// `check --optimal` proves each later round against the match outcomes as they stood
/// when it was paired, as it does an individual pool's, however often it is corrected.
#[test]
fn team_rounds_paired_before_a_correction_are_proved_against_the_outcomes_they_were_paired_with() {
    let pool = GroupId::new("open");
    let mut corrected = 0;
    for seed in 0..40u64 {
        let rules = team_rules(4, 3, "");
        let mut e = team_event(8, 3, 0);
        play(&mut e, &rules, seed);
        let rounds = e.team_pools[&pool].rounds.len() as u32;
        // Match 1 turned round: the team with 先 (red on the odd boards) wins every board
        // where it did not win the match, else loses every one.
        let shadow = teams::shadow_event(&e, &rules, &pool).unwrap();
        let was = match shadow.groups[&pool].round(1).unwrap().game_at(1) {
            Some(qiwang::model::Pairing::Game { result, .. }) => result.unwrap().outcome,
            other => panic!("seed {seed}: {other:?}"),
        };
        let first_wins = was != Outcome::RedWin;
        let results = (1..=3)
            .map(|b| {
                GameResult::new(if (b % 2 == 1) == first_wins {
                    Outcome::RedWin
                } else {
                    Outcome::BlackWin
                })
            })
            .collect();
        let entry = MatchEntry {
            table: 1,
            tiebreak: false,
            absent: None,
            results,
        };
        teams::record_team_results(&mut e, &rules, &pool, Some(1), &[entry]).unwrap();
        assert!(!e.team_pools[&pool].replaced.is_empty(), "seed {seed}");
        assert_eq!(
            pairing::corrected_since(&teams::shadow_event(&e, &rules, &pool).unwrap(), &pool, 2),
            vec![1],
            "seed {seed}"
        );
        for r in 2..=rounds {
            let v = teams::prove_team_round(&e, &rules, &pool, r).unwrap();
            assert_eq!(v, Verdict::Optimal, "seed {seed} round {r}");
        }
        // Without what was replaced the proofs would use the corrected outcomes.
        let mut forgot = e.clone();
        forgot.team_pools.get_mut(&pool).unwrap().replaced.clear();
        if (2..=rounds).any(|r| {
            teams::prove_team_round(&forgot, &rules, &pool, r).unwrap() != Verdict::Optimal
        }) {
            corrected += 1;
        }
    }
    assert!(corrected > 0, "no correction changed any proof");
}

/// A double round robin of 10 teams × 3 boards with tiebreak games (the national women's
/// league, issue 46): every pair of teams meets twice with 先 reversed, every level match
/// is decided in tiebreak games kept apart from the main boards, and 局分 counts the main
/// boards only.
#[test]
fn womens_league_double_round_robin_with_tiebreak_games() {
    let pool = GroupId::new("open");
    let rules = team_rules(
        18,
        3,
        "format = \"round_robin\"\ncycles = 2\nmin_women = 3\n\
         [team_competition.tiebreak_games]\ndecider = \"armageddon\"\nwin = 2\nloss = 1\n",
    );
    let mut e = team_event(10, 3, 0);
    for p in &mut e.players {
        p.gender = Some(qiwang::model::Gender::Female);
    }
    assert_eq!(play(&mut e, &rules, 7), 18);
    let st = &e.team_pools[&pool];
    let mut met: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut tiebreaks = 0;
    for r in &st.rounds {
        assert_eq!(r.matches.len(), 5);
        for m in &r.matches {
            *met.entry((m.first.0, m.second.0)).or_default() += 1;
            let team = rules.team_competition.as_ref().unwrap();
            let o = teams::match_outcome(st, r.number, m, team).unwrap();
            if !m.tiebreak.is_empty() {
                tiebreaks += 1;
                assert!(matches!(o, teams::MatchOutcome::TiebreakWin(_)));
                // The tiebreak boards reverse the main boards' colours.
                for (tb, main) in m.tiebreak.iter().zip(&m.boards) {
                    assert_eq!((tb.red, tb.black), (main.black, main.red));
                }
            }
            assert_ne!(
                o,
                teams::MatchOutcome::Drawn,
                "a league match always has a winner"
            );
        }
    }
    // Each ordered pair once: the second cycle reverses 先.
    assert_eq!(met.len(), 90);
    assert!(met.values().all(|&c| c == 1));
    assert!(tiebreaks > 0);
    let want = recompute(&e, 3);
    let standings = teams::team_standings(&e, &rules, &pool, None).unwrap();
    for row in &standings.rows {
        assert_eq!(
            row.game_points.0, want[&row.team.0].1,
            "局分 from the main boards only"
        );
    }
}

fn snapshot(e: &Event) -> String {
    serde_json::to_string(e).unwrap()
}

/// Bad input is refused and leaves the event as it was: a line-up with a player of no
/// team or of another team, a match with a board result missing, a results file whose
/// players do not match the boards, tiebreak games for a match that is not level.
#[test]
fn bad_team_input_is_refused_with_the_event_untouched() {
    let pool = GroupId::new("open");
    let rules = team_rules(5, 4, "");
    let mut e = team_event(6, 4, 2);
    let plan = teams::pair_team_round(&e, &rules, &pool, 1, None).unwrap();
    plan.apply(&mut e, &pool, 1);
    let before = snapshot(&e);
    // A player of another team, and a name nobody registered.
    let r = teams::change_lineup(
        &mut e,
        &rules,
        &pool,
        1,
        "第2队",
        &[("队2棋手1".into(), "队1棋手1".into())],
    );
    assert!(matches!(r, Err(TeamError::NotInTeam { .. })), "{r:?}");
    let r = teams::change_lineup(
        &mut e,
        &rules,
        &pool,
        1,
        "第2队",
        &[("队2棋手1".into(), "无名氏".into())],
    );
    assert!(matches!(r, Err(TeamError::NotInTeam { .. })), "{r:?}");
    assert_eq!(snapshot(&e), before);
    // Three results for four boards (after a first match that was fine: all or nothing).
    let args: Vec<String> = "1 红胜 和 和 黑胜 2 红胜 和 黑胜"
        .split(' ')
        .map(String::from)
        .collect();
    let entries = teams::parse_team_result_args(&args).unwrap();
    let r = teams::record_team_results(&mut e, &rules, &pool, None, &entries);
    assert!(
        matches!(
            r,
            Err(TeamError::BoardCount {
                given: 3,
                boards: 4,
                ..
            })
        ),
        "{r:?}"
    );
    assert_eq!(snapshot(&e), before);
    // An unreadable token names its match and board.
    let args: Vec<String> = "1 红胜 和 赢 黑胜".split(' ').map(String::from).collect();
    let r = teams::parse_team_result_args(&args);
    assert!(
        matches!(
            &r,
            Err(TeamError::BadToken {
                at: teams::Where::Board { table: 1, board: 3 },
                ..
            })
        ),
        "{r:?}"
    );
    // Tiebreak games for a match that is not level.
    let args: Vec<String> = "1 红胜 红胜 红胜 红胜"
        .split(' ')
        .map(String::from)
        .collect();
    let mut e2 = e.clone();
    teams::record_team_results(
        &mut e2,
        &rules,
        &pool,
        None,
        &teams::parse_team_result_args(&args).unwrap(),
    )
    .unwrap();
    let tb = MatchEntry {
        table: 1,
        tiebreak: true,
        absent: None,
        results: vec![GameResult::new(Outcome::Draw)],
    };
    let r = teams::record_team_results(&mut e2, &rules, &pool, None, &[tb]);
    assert!(
        matches!(r, Err(TeamError::NoTiebreak { table: 1 })),
        "{r:?}"
    );
    // A results file whose red player is not the board's.
    let m = &e.team_pools[&pool].rounds[0].matches[0];
    let name = |p: PlayerId| e.player(p).unwrap().name.clone();
    let good = |b: usize| {
        format!(
            "1,{},{},{},红胜",
            b + 1,
            name(m.boards[b].red),
            name(m.boards[b].black)
        )
    };
    let mut text = String::from("场次,台次,红方,黑方,结果\n");
    for b in 0..4 {
        text.push_str(&good(b));
        text.push('\n');
    }
    assert_eq!(
        teams::read_team_results_file(&text, &e, &rules, &pool, 1)
            .unwrap()
            .len(),
        1
    );
    let swapped = text.replacen(&name(m.boards[1].red), "张冠李戴", 1);
    let r = teams::read_team_results_file(&swapped, &e, &rules, &pool, 1);
    assert!(
        matches!(r, Err(TeamError::FileMismatch { line: 3, .. })),
        "{r:?}"
    );
    // A match given in part in a file.
    let part: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
    let r = teams::read_team_results_file(&part, &e, &rules, &pool, 1);
    assert!(
        matches!(r, Err(TeamError::BoardCount { given: 3, .. })),
        "{r:?}"
    );
    assert_eq!(snapshot(&e), before);
    // A reserve in for board 2: the others keep their boards.
    let t2 = &e.team_pools[&pool].rounds[0]
        .matches
        .iter()
        .find(|m| m.first == TeamId(2) || m.second == TeamId(2))
        .unwrap()
        .clone();
    let (_, _, lineup) = teams::change_lineup(
        &mut e,
        &rules,
        &pool,
        1,
        "第2队",
        &[("队2棋手2".into(), "队2棋手5".into())],
    )
    .unwrap();
    let names: Vec<String> = lineup
        .iter()
        .map(|&p| e.player(p).unwrap().name.clone())
        .collect();
    assert_eq!(names, ["队2棋手1", "队2棋手5", "队2棋手3", "队2棋手4"]);
    let after = e.team_pools[&pool].rounds[0]
        .matches
        .iter()
        .find(|m| m.table == t2.table)
        .unwrap();
    assert_eq!(after.boards.len(), 4);
    assert_ne!(after.boards[1], t2.boards[1]);
    assert_eq!(after.boards[0], t2.boards[0]);
}

/// A team of the wrong size, board orders with a gap, too many reserves and too few
/// women are refused at their rows, and nothing is imported.
#[test]
fn team_registration_checks_refuse_by_cell() {
    let rules = team_rules(5, 3, "min_women = 1\n");
    let sheet = "姓名,性别,队名,台次\n\
                 甲一,女,甲队,1\n甲二,男,甲队,2\n甲三,男,甲队,3\n\
                 乙一,女,乙队,1\n乙二,男,乙队,3\n乙三,男,乙队,4\n\
                 丙一,男,丙队,1\n丙二,男,丙队,2\n丙三,男,丙队,3\n\
                 丁一,女,丁队,1\n丁二,男,丁队,2\n";
    let e = qiwang::registration::read_registrations(
        sheet.as_bytes(),
        "teams.csv",
        &Default::default(),
        &rules,
        &[],
        PlayerId(1),
    )
    .unwrap_err();
    let found = |line: usize, words: &str| {
        e.errors
            .iter()
            .any(|x| x.line == line && x.message.en.contains(words))
    };
    assert!(found(7, "no board 2"), "{:?}", e.errors);
    assert!(found(10, "team `丙队` has 0 women"), "{:?}", e.errors);
    assert!(
        found(12, "team `丁队` has 2 main players"),
        "{:?}",
        e.errors
    );
    let good = "姓名,性别,队名,台次\n甲一,女,甲队,1\n甲二,男,甲队,2\n甲三,男,甲队,3\n甲四,男,甲队,替补\n\
                乙一,女,乙队,1\n乙二,男,乙队,2\n乙三,男,乙队,3\n";
    let players = qiwang::registration::read_registrations(
        good.as_bytes(),
        "teams.csv",
        &Default::default(),
        &rules,
        &[],
        PlayerId(1),
    )
    .unwrap();
    let teams = qiwang::registration::team_sheet::teams_in(&players, &GroupId::new("open"));
    assert_eq!(teams.len(), 2);
    assert!(teams[0].members[3].reserve);
    let _ = Points(0);
}

/// The bundled 团体赛 end to end through the binary: the 40-team workbook imports into
/// rules/team-swiss.toml; each round's slips CSV, filled in, goes back through `result
/// --from`; a slip row naming the wrong player and a match given with a board missing are
/// refused with the event's files unchanged; after 7 rounds `check --optimal` proves every
/// round, and standings, crosstable, board results and the prize sheet render in JSON.
#[test]
fn team_swiss_example_runs_end_to_end_through_the_binary() {
    use super::common::{event_with, p, root, run, snapshot};
    let (_tmp, ev) = event_with(
        &root("rules/team-swiss.toml"),
        Some(&root("examples/team-swiss/registrations.xlsx")),
    );
    let dir = ev.parent().unwrap().to_path_buf();
    let q = |args: &[&str]| {
        let mut all = vec!["--event", "ev"];
        all.extend_from_slice(args);
        run(&dir, &all)
    };
    let mut rng = ChaCha8Rng::seed_from_u64(46);
    for round in 1..=7 {
        if round == 2 {
            // A seed names the round-1 draw only, in a team event too.
            q(&["pair", "--seed", "3"]).fails(2, &["`--seed` 只用于第 1 轮抽签"]);
        }
        q(&["pair", "--seed", "3"][..if round == 1 { 3 } else { 1 }]).ok();
        let slips = q(&["round", "--sheet", "slips", "--format", "csv"]).ok();
        let text = slips.trim_start_matches('\u{feff}');
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        assert_eq!(lines.len(), 1 + 20 * 4, "one row per board");
        assert!(lines[0].contains("结果"));
        for l in lines.iter_mut().skip(1) {
            let token = ["红胜", "和", "黑胜"][rng.gen_range(0..3)];
            // The 结果 column is the next to last (签字 last).
            let mut cells: Vec<String> = l.split(',').map(String::from).collect();
            let n = cells.len();
            cells[n - 2] = token.to_string();
            *l = cells.join(",");
        }
        let file = dir.join(format!("r{round}.csv"));
        if round == 2 {
            let before = snapshot(&ev);
            let mut bad = lines.clone();
            // Line 6's red player (the 红方 column) is not the board's.
            let red = bad[5].split(',').nth(4).unwrap().to_string();
            bad[5] = bad[5].replace(&red, "张冠李戴");
            std::fs::write(&file, bad.join("\n")).unwrap();
            q(&["result", "--from", p(&file)]).fails(3, &["第 6 行"]);
            q(&["result", "1", "红胜", "和", "黑胜"]).fails(3, &["4 台"]);
            assert_eq!(snapshot(&ev), before, "refusals change nothing");
        }
        std::fs::write(&file, lines.join("\n")).unwrap();
        q(&["result", "--from", p(&file)]).ok();
    }
    let out = q(&["check", "--optimal"]).ok();
    assert_eq!(out.matches("最优").count(), 6, "{out}");
    let st = q(&["standings", "--format", "json"]).json();
    assert_eq!(st["standings"].as_array().unwrap().len(), 40);
    q(&["crosstable", "--format", "json"]).json();
    let boards = q(&["boards", "--format", "json"]).json();
    assert!(boards["boards"].as_array().unwrap().len() >= 160);
    let prizes = q(&["prizes", "--format", "json"]).json();
    assert!(!prizes["board_prizes"].as_array().unwrap().is_empty());
    // Undo takes back the last results, redo restores them.
    let before = q(&["standings", "--format", "csv"]).ok();
    q(&["undo"]).ok();
    assert_ne!(q(&["standings", "--format", "csv"]).ok(), before);
    q(&["redo"]).ok();
    assert_eq!(q(&["standings", "--format", "csv"]).ok(), before);
}

/// docs/rules.md §17.5 on a hand-made event: A and B tie on 场分 and 局分, A beat B, B did
/// better on board 1. The CXA order (局分, 直胜, …) puts A first; 局分 then 台次分 puts B
/// first; 局分 alone leaves them sharing first place.
#[test]
fn direct_encounter_and_board_order_decide_as_listed() {
    use Outcome::{BlackWin, Draw, RedWin};
    let pool = GroupId::new("open");
    let mut e = team_event(4, 2, 0);
    let lineup = |t: u32| vec![PlayerId(2 * t - 1), PlayerId(2 * t)];
    let m = |table: u32, first: u32, second: u32, results: [Outcome; 2]| {
        let mut boards = teams::fill_boards(&lineup(first), &lineup(second));
        for (b, o) in boards.iter_mut().zip(results) {
            b.result = Some(GameResult::new(o));
        }
        TeamMatch {
            table,
            first: TeamId(first),
            second: TeamId(second),
            boards,
            tiebreak: Vec::new(),
        }
    };
    let rounds = vec![
        (
            1,
            vec![m(1, 1, 2, [Draw, BlackWin]), m(2, 3, 4, [RedWin, Draw])],
        ),
        (
            2,
            vec![m(1, 1, 3, [Draw, RedWin]), m(2, 2, 4, [RedWin, BlackWin])],
        ),
        (
            3,
            vec![m(1, 1, 4, [RedWin, BlackWin]), m(2, 2, 3, [RedWin, Draw])],
        ),
    ];
    let state = e.team_pools.entry(pool.clone()).or_default();
    for (number, matches) in rounds {
        state.rounds.push(qiwang::model::TeamRound {
            number,
            matches,
            bye: None,
        });
    }
    let order = |tiebreaks: &str| {
        let rules = team_rules(3, 2, &format!("tiebreaks = [{tiebreaks}]\n"));
        let st = teams::team_standings(&e, &rules, &pool, None).unwrap();
        st.rows
            .iter()
            .map(|r| format!("{}{}", r.name, if r.shared { "=" } else { "" }))
            .collect::<Vec<_>>()
    };
    let rules = team_rules(3, 2, "");
    let st = teams::team_standings(&e, &rules, &pool, None).unwrap();
    let points: Vec<(i32, i32)> = st
        .rows
        .iter()
        .map(|r| (r.match_points.0, r.game_points.0))
        .collect();
    assert_eq!(points, [(4, 8), (4, 8), (4, 7), (0, 1)]);
    assert_eq!(st.rows[0].board_points, [Points(4), Points(4)]);
    assert_eq!(st.rows[1].board_points, [Points(5), Points(3)]);
    assert_eq!(
        order("\"局分\", \"直胜\", \"对手场分\", \"台次分\""),
        ["第1队", "第2队", "第3队", "第4队"]
    );
    assert_eq!(
        order("\"局分\", \"台次分\""),
        ["第2队", "第1队", "第3队", "第4队"]
    );
    assert_eq!(order("\"局分\""), ["第1队=", "第2队=", "第3队", "第4队"]);
}

/// A whole team absent (docs/rules.md §17.3): `先走队弃权` forfeits each board with the colour
/// that team has there, the match is a forfeit loss, and the engine's record of it is a
/// forfeit by red (the team with 先).
#[test]
fn a_whole_team_absent_forfeits_the_match() {
    let pool = GroupId::new("open");
    let rules = team_rules(3, 4, "");
    let mut e = team_event(4, 4, 0);
    teams::pair_team_round(&e, &rules, &pool, 9, None)
        .unwrap()
        .apply(&mut e, &pool, 9);
    let args: Vec<String> = "1 先走队弃权 2 和 和 和 和"
        .split(' ')
        .map(String::from)
        .collect();
    let entries = teams::parse_team_result_args(&args).unwrap();
    teams::record_team_results(&mut e, &rules, &pool, None, &entries).unwrap();
    let st = &e.team_pools[&pool];
    let m = &st.rounds[0].matches[0];
    let outcomes: Vec<Outcome> = m.boards.iter().map(|b| b.result.unwrap().outcome).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::RedForfeit,
            Outcome::BlackForfeit,
            Outcome::RedForfeit,
            Outcome::BlackForfeit
        ]
    );
    let team = rules.team_competition.as_ref().unwrap();
    let o = teams::match_outcome(st, 1, m, team).unwrap();
    assert_eq!(o, teams::MatchOutcome::ForfeitWin(m.second));
    assert_eq!(teams::engine_outcome(o, m), Outcome::RedForfeit);
    let standings = teams::team_standings(&e, &rules, &pool, None).unwrap();
    let row = |t: TeamId| standings.rows.iter().find(|r| r.team == t).unwrap().clone();
    assert_eq!(
        (row(m.second).match_points.0, row(m.second).game_points.0),
        (2, 8)
    );
    assert_eq!(
        (row(m.first).match_points.0, row(m.first).game_points.0),
        (0, 0)
    );
}

/// Board rules (docs/rules.md §17.1): board 2 for a woman, board 3 for players of 14 or
/// under on the first day. The import refuses a player registered on a board they may not
/// play, at their row; a line-up change bringing such a player onto the board is refused.
#[test]
fn board_rules_are_checked_at_import_and_at_line_up_changes() {
    let text = "[event]\nname = \"少儿团体赛\"\nrounds = 3\nstart_date = 2026-07-01\n\
                [[groups]]\nid = \"open\"\n[team_competition]\nboards = 3\nreserves = 1\n\
                [[team_competition.board_rules]]\nboard = 2\ngender = \"女\"\n\
                [[team_competition.board_rules]]\nboard = 3\nmax_age = 14\n";
    let rules = Rulebook::from_toml(text, "r.toml").unwrap();
    let shown = rules.to_effective_toml();
    assert_eq!(
        Rulebook::from_toml(&shown, "show.toml").unwrap(),
        rules,
        "{shown}"
    );
    let read = |sheet: &str| {
        qiwang::registration::read_registrations(
            sheet.as_bytes(),
            "t.csv",
            &Default::default(),
            &rules,
            &[],
            PlayerId(1),
        )
    };
    let bad = "姓名,性别,队名,台次,出生日期\n\
               甲一,男,甲队,1,2010-01-01\n甲二,男,甲队,2,2010-01-01\n甲三,女,甲队,3,2011-06-30\n\
               乙一,男,乙队,1,2010-01-01\n乙二,女,乙队,2,2012-01-01\n乙三,男,乙队,3,2013-01-01\n";
    let e = read(bad).unwrap_err();
    let lines: Vec<(usize, Option<String>)> = e
        .errors
        .iter()
        .map(|x| (x.line, x.column.clone()))
        .collect();
    assert_eq!(
        lines,
        [(3, Some("性别".into())), (4, Some("出生日期".into()))],
        "{:?}",
        e.errors
    );
    let good = "姓名,性别,队名,台次,出生日期\n\
                甲一,男,甲队,1,2010-01-01\n甲二,女,甲队,2,2010-01-01\n甲三,女,甲队,3,2012-06-30\n\
                甲四,男,甲队,替补,2000-01-01\n\
                乙一,男,乙队,1,2010-01-01\n乙二,女,乙队,2,2012-01-01\n乙三,男,乙队,3,2013-01-01\n";
    let players = read(good).unwrap();
    let mut e = Event::new(String::new());
    e.players = players;
    let pool = GroupId::new("open");
    teams::pair_team_round(&e, &rules, &pool, 1, None)
        .unwrap()
        .apply(&mut e, &pool, 1);
    let before = snapshot(&e);
    for (out, why) in [
        ("甲二", "board 2 is for a woman"),
        ("甲三", "aged 14 or under"),
    ] {
        let r = teams::change_lineup(
            &mut e,
            &rules,
            &pool,
            1,
            "甲队",
            &[(out.into(), "甲四".into())],
        );
        match r {
            Err(err @ TeamError::BoardRule { .. }) => {
                assert!(err.to_string().contains(why), "{err}");
            }
            other => panic!("{out}: {other:?}"),
        }
    }
    assert_eq!(snapshot(&e), before);
    teams::change_lineup(
        &mut e,
        &rules,
        &pool,
        1,
        "甲队",
        &[("甲一".into(), "甲四".into())],
    )
    .unwrap();
}

/// A team's line-up for a new round is its first `boards` players able to play, in
/// registered order (docs/rules.md §17.3): with board 2 withdrawn, the others move up a
/// board in their order and the reserve plays board 4.
#[test]
fn a_withdrawn_player_is_replaced_by_the_reserve_in_registered_order() {
    let pool = GroupId::new("open");
    let rules = team_rules(3, 4, "");
    let mut e = team_event(4, 4, 2);
    let out = e.players.iter().find(|p| p.name == "队2棋手2").unwrap().id;
    e.player_mut(out).unwrap().status = qiwang::model::PlayerStatus::Withdrawn {
        from_round: 1,
        cause: qiwang::model::WithdrawalCause::Manual { note: None },
    };
    let plan = teams::pair_team_round(&e, &rules, &pool, 4, None).unwrap();
    let m = plan
        .round
        .matches
        .iter()
        .find(|m| m.first == TeamId(2) || m.second == TeamId(2))
        .unwrap();
    let of_team: Vec<String> = m
        .boards
        .iter()
        .map(|b| {
            let red_team = teams::team_at(m, b.board, qiwang::model::Colour::Red);
            let p = if red_team == TeamId(2) {
                b.red
            } else {
                b.black
            };
            e.player(p).unwrap().name.clone()
        })
        .collect();
    assert_eq!(of_team, ["队2棋手1", "队2棋手3", "队2棋手4", "队2棋手5"]);
}

/// The seed policy a team pool is paired with is individual pairing's (docs/rules.md
/// §2.2), from the one `pairing::seed_turn`: a seed given only before the first round,
/// else the one recorded, else a new draw.
#[test]
fn a_team_pools_seed_follows_the_individual_seed_policy() {
    use pairing::{PoolSeed, TurnError, seed_turn};
    let mut draws = 0;
    let mut draw = || {
        draws += 1;
        99
    };
    // (rounds played, recorded, given) → the seed chosen, or the refusal.
    let table = [
        (
            false,
            None,
            None,
            Ok(PoolSeed {
                seed: 99,
                drawn: true,
            }),
        ),
        (
            false,
            None,
            Some(3),
            Ok(PoolSeed {
                seed: 3,
                drawn: false,
            }),
        ),
        (
            false,
            Some(7),
            Some(3),
            Ok(PoolSeed {
                seed: 3,
                drawn: false,
            }),
        ),
        (
            false,
            Some(7),
            None,
            Ok(PoolSeed {
                seed: 7,
                drawn: false,
            }),
        ),
        (
            true,
            Some(7),
            None,
            Ok(PoolSeed {
                seed: 7,
                drawn: false,
            }),
        ),
        (true, Some(7), Some(3), Err(TurnError::SeedAfterFirstRound)),
    ];
    for (played, recorded, given, want) in table {
        assert_eq!(
            seed_turn(played, recorded, given, &mut draw),
            want,
            "played {played}, recorded {recorded:?}, given {given:?}"
        );
    }
    assert_eq!(
        draws, 1,
        "a seed is drawn only when none is given or recorded"
    );
}

/// `unpair` in a team event drops the newest round of matches while no board of it has a
/// result, logged as every change is, and is refused (exit 3, nothing changed) before
/// round 1 and once a board has a result, saying so (not "round 1 is not paired" or "its
/// line-up can no longer change").
#[test]
fn a_team_round_is_unpaired_only_while_it_has_no_result() {
    use super::common::{event_with, root, run, snapshot};
    let (_tmp, ev) = event_with(
        &root("rules/team-swiss.toml"),
        Some(&root("examples/team-swiss/registrations.xlsx")),
    );
    let dir = ev.parent().unwrap().to_path_buf();
    let q = |args: &[&str]| {
        let mut all = vec!["--event", "ev"];
        all.extend_from_slice(args);
        run(&dir, &all)
    };
    let before = snapshot(&ev);
    q(&["unpair"]).fails(3, &["还没有可撤销的轮次"]);
    assert_eq!(snapshot(&ev), before, "a refused unpair changes nothing");
    q(&["pair", "--seed", "3"]).ok();
    assert_eq!(q(&["unpair"]).ok(), "已撤销第1轮编排\n");
    q(&["round"]).fails(3, &[]);
    let log = q(&["log"]).ok();
    assert!(log.contains("unpair"), "{log}");
    q(&["pair", "--seed", "3"]).ok();
    q(&["result", "1", "红胜", "和", "黑胜", "和"]).ok();
    let paired = snapshot(&ev);
    q(&["unpair"]).fails(
        3,
        &["第 1 轮第 1 场已有成绩：请用 `qiwang result` 更正，或用 `qiwang undo` 逐步撤销"],
    );
    q(&["--lang", "en", "unpair"]).fails(3, &["match 1 of round 1 already has results"]);
    assert_eq!(snapshot(&ev), paired, "a refused unpair changes nothing");
}

/// In a team event a round past the competition's rounds (7 in rules/team-swiss.toml),
/// or round 0, is refused naming them in every command that takes one, where standings,
/// crosstable and board results used to show "after round 20" (and a round not paired
/// yet is refused as not paired, not shown as "after round 3"); and `check --optimal
/// --round N` of a round not paired is refused, where it used to prove nothing and pass.
#[test]
fn a_team_round_past_the_competition_names_its_rounds() {
    use super::common::{event_with, root, run};
    let (_tmp, ev) = event_with(
        &root("rules/team-swiss.toml"),
        Some(&root("examples/team-swiss/registrations.xlsx")),
    );
    let dir = ev.parent().unwrap().to_path_buf();
    let q = |args: &[&str]| {
        let mut all = vec!["--event", "ev"];
        all.extend_from_slice(args);
        run(&dir, &all)
    };
    q(&["pair", "--seed", "3"]).ok();
    for args in [
        &["standings", "--round", "20"][..],
        &["crosstable", "--round", "20"],
        &["boards", "--round", "20"],
        &["round", "20"],
        &["result", "--round", "20", "1", "红胜", "和", "黑胜", "和"],
        &["check", "--optimal", "--round", "20"],
    ] {
        q(args).fails(3, &["没有第 20 轮：本赛事共 7 轮"]);
        let mut en = vec!["--lang", "en"];
        en.extend_from_slice(args);
        q(&en).fails(3, &["there is no round 20: the event has 7 rounds"]);
    }
    q(&["standings", "--round", "0"]).fails(3, &["没有第 0 轮：轮次从 1 开始"]);
    // Inside the schedule but not paired: not "after round 3" either.
    for read in ["standings", "crosstable", "boards"] {
        q(&[read, "--round", "3"]).fails(3, &["第 3 轮尚未编排"]);
    }
    q(&["check", "--optimal", "--round", "2"]).fails(3, &["第 2 轮尚未编排"]);
    // A round that is there is still checked (round 1: a draw, nothing to prove).
    let one = q(&["check", "--optimal", "--round", "1"]).ok();
    assert!(one.contains("第 1 轮"), "{one}");
}
