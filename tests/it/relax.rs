//! `pairing.relax` (docs/rules.md §2.5): when no pairing meets every hard rule the event
//! goes on with the fewest breaks, says so, and `check` accepts exactly those breaks.

use crate::common::{Run, event_from, root, rules_plus, small_event, snapshot};
use qiwang::model::{
    Event, GameResult, GroupId, Outcome, Pairing, Player, PlayerId, PlayerStatus, Relax, Round,
    WithdrawalCause,
};
use qiwang::pairing::{
    PairingError, PassReason, Rule, Verdict, check_group, check_group_detailed, pair_next_round,
    prove_round, prune_relaxations, set_pairing,
};
use qiwang::report::Json;

use qiwang::rulebook::{Lang, Round1Bye, Rulebook, TeamAvoidance};
use std::fs;

fn game(table: u32, red: u32, black: u32) -> Pairing {
    Pairing::Game {
        table,
        red: PlayerId(red),
        black: PlayerId(black),
        result: Some(GameResult::new(Outcome::Draw)),
    }
}

fn event_of(n: u32, group: &GroupId) -> Event {
    let mut e = Event::new(String::new());
    for k in 1..=n {
        let mut p = Player::new(PlayerId(k), format!("P{k}"), group.clone());
        p.number = Some(k);
        e.players.push(p);
    }
    e
}

fn tables(round: &Round) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = round
        .pairings
        .iter()
        .filter_map(|p| match p {
            Pairing::Game { red, black, .. } => Some((red.0.min(black.0), red.0.max(black.0))),
            Pairing::Bye { .. } => None,
        })
        .collect();
    out.sort_unstable();
    out
}

fn rules_of(relative: &str) -> Rulebook {
    let text = fs::read_to_string(root(relative)).expect("shipped rulebook");
    Rulebook::from_toml(&text, relative).expect("valid rulebook")
}

/// Dongguan (team avoidance in round 1): a pool of 20 with 11 from one unit. 11 unit-mates
/// need 11 other opponents and there are 9, so exactly one unit pair is unavoidable.
#[test]
fn dongguan_pool_of_20_with_11_from_one_unit_pairs_round1_with_one_unit_pair() {
    let rules = rules_of("rules/dongguan-2018.toml");
    assert_eq!(rules.pairing.team_avoidance, TeamAvoidance::Round1Only);
    let g = GroupId::new("king");
    for seed in 0..12u64 {
        let mut e = event_of(20, &g);
        for (k, p) in e.players.iter_mut().enumerate() {
            p.number = None;
            // Spread the unit over the draw differently for every seed.
            p.unit = if (k as u64 * 7 + seed) % 20 < 11 {
                "东莞棋院".into()
            } else {
                format!("单位{k}")
            };
        }
        let plan = pair_next_round(&e, &rules, &g, seed).unwrap_or_else(|err| panic!("{err}"));
        let unit = |id: PlayerId| e.player(id).unwrap().unit.clone();
        let mates = plan
            .round
            .pairings
            .iter()
            .filter(|p| matches!(p, Pairing::Game { red, black, .. } if unit(*red) == unit(*black)))
            .count();
        assert_eq!(mates, 1, "seed {seed}: exactly one unit pair");
        assert_eq!(plan.round.pairings.len(), 10);
        assert_eq!(plan.relaxed.len(), 1, "seed {seed}");
        assert_eq!(plan.relaxed[0].rule, Relax::Team);
        let lines = plan.explanation.lines(Lang::Zh, &|id| format!("P{}", id.0));
        let [a, b] = plan.relaxed[0].players[..] else {
            panic!("two players")
        };
        let want = format!("放宽同队回避：P{}—P{}", a.0, b.0);
        assert!(lines.iter().any(|l| l.contains(&want)), "{lines:?}");
        let mut after = e.clone();
        plan.apply(&mut after, &g, seed);
        let checked = check_group_detailed(&after, &rules, &g);
        assert!(checked.violations.is_empty(), "{:?}", checked.violations);
        assert_eq!(checked.accepted.len(), 1);
    }
}

/// Round 1 with an odd field and team avoidance: the bye passes over a player whose bye
/// leaves no team-clean pairing (units X W X X W: the highest number's bye leaves three of
/// X among four), as later rounds' byes do; when no bye allows one, over a player whose
/// bye leaves more team-mates to meet than another's (the fewest relaxations), or, under
/// `relax = []`, the round is refused. Both `pairing.round1_bye` modes, many draws and
/// unit mixes.
#[test]
fn round1_bye_passes_over_a_player_whose_bye_leaves_more_team_mates_to_meet() {
    let mut rules = rules_of("rules/dongguan-2018.toml");
    assert_eq!(rules.pairing.team_avoidance, TeamAvoidance::Round1Only);
    let g = GroupId::new("king");
    let (mut moved, mut relaxed) = (0, 0);
    for (strict, lot) in [(true, false), (true, true), (false, false), (false, true)] {
        rules.pairing.relax = if strict {
            Vec::new()
        } else {
            vec![Relax::Colour, Relax::Team, Relax::Rematch]
        };
        rules.pairing.round1_bye = if lot {
            Round1Bye::Lot
        } else {
            Round1Bye::HighestNumber
        };
        for seed in 0..160u64 {
            let n = 3 + 2 * (seed % 5) as u32;
            let mut e = event_of(n, &g);
            for (k, p) in e.players.iter_mut().enumerate() {
                p.number = None;
                // Two or three units, one of them often just over half the field.
                p.unit = ["X", "W", "X", "Y", "X"][(k * 3 + seed as usize / 7) % 5].into();
            }
            // The fewest team-mate tables with `gone` sitting out: the largest unit's
            // players beyond half of those left must meet each other.
            let mates = |gone: PlayerId| {
                let mut count = std::collections::HashMap::new();
                for p in e.players.iter().filter(|p| p.id != gone) {
                    *count.entry(p.unit.clone()).or_insert(0u32) += 1;
                }
                (2 * count.into_values().max().unwrap_or(0)).saturating_sub(n - 1) / 2
            };
            let fewest = e.players.iter().map(|p| mates(p.id)).min().unwrap();
            let plan = match pair_next_round(&e, &rules, &g, seed) {
                Ok(plan) => plan,
                Err(err) => {
                    assert!(strict && fewest > 0, "seed {seed}, lot {lot}: {err}");
                    continue;
                }
            };
            assert!(
                !strict || fewest == 0,
                "seed {seed}: paired a field with no clean pairing"
            );
            let unit = |id: PlayerId| e.player(id).unwrap().unit.clone();
            let tables = plan
                .round
                .pairings
                .iter()
                .filter(
                    |p| matches!(p, Pairing::Game { red, black, .. } if unit(*red) == unit(*black)),
                )
                .count() as u32;
            assert_eq!(tables, fewest, "seed {seed}, lot {lot}: team-mate tables");
            assert_eq!(plan.relaxed.len() as u32, fewest);
            let bye = plan.explanation.bye.as_ref().expect("odd field");
            assert_eq!(mates(bye.player), fewest, "seed {seed}");
            let number = |id: PlayerId| {
                plan.numbers
                    .iter()
                    .find(|(p, _)| *p == id)
                    .expect("drawn")
                    .1
            };
            let why = if fewest == 0 {
                PassReason::WouldBlockPairing
            } else {
                PassReason::MoreTeamMates
            };
            for (id, reason) in &bye.passed_over {
                assert_eq!(*reason, why);
                assert!(mates(*id) > fewest, "seed {seed}: passed over a fewest bye");
            }
            if !lot {
                // The highest number whose bye leaves the fewest team-mate tables, and
                // every higher number passed over.
                let best = e
                    .players
                    .iter()
                    .map(|p| p.id)
                    .filter(|&id| mates(id) == fewest)
                    .max_by_key(|&id| number(id))
                    .unwrap();
                assert_eq!(bye.player, best, "seed {seed}");
                assert_eq!(
                    bye.passed_over.len() as u32,
                    n - number(best),
                    "seed {seed}"
                );
            }
            moved += usize::from(!bye.passed_over.is_empty());
            relaxed += usize::from(fewest > 0 && !bye.passed_over.is_empty());
        }
    }
    assert!(
        moved > 40 && relaxed > 10,
        "the unit mixes must move the bye often, also where team-mates must meet: {moved}, {relaxed}"
    );

    // The reported case: units X W X X W, numbers by the draw.
    let mut e = event_of(5, &g);
    for (p, unit) in e.players.iter_mut().zip(["X", "W", "X", "X", "W"]) {
        p.unit = unit.into();
    }
    rules.pairing.round1_bye = Round1Bye::HighestNumber;
    let plan = pair_next_round(&e, &rules, &g, 14).unwrap_or_else(|err| panic!("{err}"));
    let bye = plan.explanation.bye.as_ref().unwrap();
    assert_eq!(e.player(bye.player).unwrap().unit, "X");
    let lines = plan.explanation.lines(Lang::En, &|id| format!("P{}", id.0));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("the highest number whose bye leaves a legal pairing")),
        "{lines:?}"
    );
}

/// Round 1 of large pools where one unit holds more than half: exactly the fewest
/// team-mate tables (the unit's players beyond half of those seated), whatever the
/// pairing mode, the unit's share and where its players fall in the draw.
#[test]
fn round1_large_pools_with_a_crowding_unit_pair_the_fewest_team_mates() {
    use qiwang::rulebook::Round1Pairing;
    let mut rules = rules_of("rules/dongguan-2018.toml");
    let g = GroupId::new("king");
    let modes = [
        Round1Pairing::Adjacent,
        Round1Pairing::Halves,
        Round1Pairing::FoldFirstLast,
        Round1Pairing::Random,
    ];
    for seed in 0..48u64 {
        rules.pairing.round1 = modes[seed as usize % 4];
        let n = [40u32, 41, 201, 300, 301, 999][seed as usize % 6];
        let share = [51u64, 55, 70, 90, 100][seed as usize % 5];
        let mut e = event_of(n, &g);
        for (k, p) in e.players.iter_mut().enumerate() {
            p.number = None;
            let crowd = (k as u64 * 7919 + seed * 104_729) % 100 < share;
            p.unit = if crowd {
                "多".into()
            } else {
                format!("U{}", k % 7)
            };
        }
        let plan = pair_next_round(&e, &rules, &g, seed).unwrap_or_else(|err| panic!("{err}"));
        let unit = |id: PlayerId| e.player(id).unwrap().unit.clone();
        let bye = plan.explanation.bye.as_ref().map(|b| b.player);
        let mut count = std::collections::HashMap::new();
        for p in e.players.iter().filter(|p| Some(p.id) != bye) {
            *count.entry(p.unit.clone()).or_insert(0u32) += 1;
        }
        let seated = n - n % 2;
        let fewest = (2 * count.into_values().max().unwrap()).saturating_sub(seated) / 2;
        let mates = plan
            .round
            .pairings
            .iter()
            .filter(|p| matches!(p, Pairing::Game { red, black, .. } if unit(*red) == unit(*black)))
            .count() as u32;
        assert_eq!(
            mates, fewest,
            "seed {seed}, {n} players, {share}% of one unit"
        );
        assert_eq!(plan.relaxed.len() as u32, fewest);
    }
}

/// `check --optimal` on round 1: a draw, not an optimisation, but team avoidance holds
/// there too. A round 1 seating team-mates together that its players need not meet (a
/// forced hand edit) is named; one with exactly the unavoidable team-mate tables is not.
#[test]
fn round1_team_mates_beyond_the_unavoidable_fail_check_optimal() {
    let rules = rules_of("rules/dongguan-2018.toml");
    let g = GroupId::new("king");
    // Units A A B C: A–A can be avoided. Units A A A B C: with the bye on an A, A–A can
    // still be avoided. Units A A A A B: one A–A table is unavoidable.
    for (units, fewest) in [
        (&["A", "A", "B", "C"][..], 0),
        (&["A", "A", "A", "B", "C"], 0),
        (&["A", "A", "A", "A", "B"], 1),
    ] {
        let mut e = event_of(units.len() as u32, &g);
        for (p, unit) in e.players.iter_mut().zip(units) {
            p.unit = (*unit).into();
        }
        let plan = pair_next_round(&e, &rules, &g, 3).unwrap_or_else(|err| panic!("{err}"));
        plan.apply(&mut e, &g, 3);
        assert_eq!(
            prove_round(&e, &rules, &g, 1).unwrap(),
            Verdict::Drawn,
            "{units:?}: the engine's own round 1"
        );
        // By hand: P1–P2 (both A) at table 1, the others after them.
        let mut rest: Vec<u32> = (3..=units.len() as u32).collect();
        let bye = (units.len() % 2 == 1).then(|| rest.pop().unwrap());
        let mut pairings = vec![game(1, 1, 2)];
        for (t, pair) in rest.chunks(2).enumerate() {
            pairings.push(game(t as u32 + 2, pair[0], pair[1]));
        }
        if let Some(b) = bye {
            pairings.push(Pairing::Bye {
                player: PlayerId(b),
            });
        }
        for p in &mut pairings {
            if let Pairing::Game { result, .. } = p {
                *result = None;
            }
        }
        let stored = pairings
            .iter()
            .filter(|p| matches!(p, Pairing::Game { red, black, .. } if units[red.0 as usize - 1] == units[black.0 as usize - 1]))
            .count();
        e.group_mut(&g).rounds[0] = Round {
            number: 1,
            pairings,
        };
        e.group_mut(&g).relaxed.clear();
        let verdict = prove_round(&e, &rules, &g, 1).unwrap();
        if stored > fewest {
            assert_eq!(
                verdict,
                Verdict::Round1TeamMates { stored, fewest },
                "{units:?}"
            );
            assert!(verdict.fails());
        } else {
            assert_eq!(verdict, Verdict::Drawn, "{units:?}");
        }
    }
}

/// Five players; P5 withdraws after round 3. Among P1–P4 only P2–P3 have not met, so
/// round 4 needs exactly one rematch: P1–P4 again and P2–P3.
fn must_rematch() -> (Event, Rulebook, GroupId) {
    let g = GroupId::new("open");
    let mut e = event_of(5, &g);
    let rounds = [
        vec![
            game(1, 1, 2),
            game(2, 3, 4),
            Pairing::Bye {
                player: PlayerId(5),
            },
        ],
        vec![
            game(1, 3, 1),
            game(2, 4, 2),
            Pairing::Bye {
                player: PlayerId(5),
            },
        ],
        vec![
            game(1, 1, 4),
            game(2, 2, 5),
            Pairing::Bye {
                player: PlayerId(3),
            },
        ],
    ];
    for (k, pairings) in rounds.into_iter().enumerate() {
        e.group_mut(&g).rounds.push(Round {
            number: k as u32 + 1,
            pairings,
        });
    }
    e.players[4].status = PlayerStatus::Withdrawn {
        from_round: 4,
        cause: WithdrawalCause::Manual { note: None },
    };
    (e, Rulebook::cxa_2011("t", 7), g)
}

#[test]
fn a_small_group_that_must_rematch_pairs_with_exactly_one_rematch_and_says_so() {
    let (e, rules, g) = must_rematch();
    let plan = pair_next_round(&e, &rules, &g, 1).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(tables(&plan.round), vec![(1, 4), (2, 3)]);
    assert_eq!(plan.relaxed.len(), 1, "{:?}", plan.relaxed);
    assert_eq!(plan.relaxed[0].rule, Relax::Rematch);
    let mut who = plan.relaxed[0].players.clone();
    who.sort();
    assert_eq!(who, vec![PlayerId(1), PlayerId(4)]);
    let zh = plan.explanation.lines(Lang::Zh, &|id| format!("P{}", id.0));
    assert!(zh.iter().any(|l| l.contains("放宽不重复对局")), "{zh:?}");
    let en = plan.explanation.lines(Lang::En, &|id| format!("P{}", id.0));
    assert!(
        en.iter().any(|l| l.contains("no-rematch relaxed")),
        "{en:?}"
    );

    // Stored with the round: `check` accepts it and the sheet prints it. (The hand-made
    // history gives P5 a second bye in round 2; only round 4 is the engine's.)
    let mut after = e.clone();
    plan.apply(&mut after, &g, 1);
    let checked = check_group_detailed(&after, &rules, &g);
    assert!(
        checked.violations.iter().all(|v| v.round < 4),
        "{:?}",
        checked.violations
    );
    assert_eq!(checked.accepted.len(), 1);
    let sheet = qiwang::views::pairing_sheet(&after, &rules, &g, 4, Lang::Zh, Json::Build);
    assert!(
        sheet.footer.iter().any(|l| l.contains("放宽不重复对局")),
        "{:?}",
        sheet.footer
    );

    // A hand edit to two rematches: the recorded relaxation no longer fits and both
    // rematches are violations.
    let round = after.group(&g).unwrap().round(4).unwrap().clone();
    let edited = set_pairing(&round, 1, PlayerId(1), PlayerId(2)).unwrap();
    *after.group_mut(&g).rounds.last_mut().unwrap() = edited;
    prune_relaxations(&mut after, &rules, &g, 4);
    assert!(after.group(&g).unwrap().relaxed.is_empty());
    let v: Vec<_> = check_group(&after, &rules, &g)
        .into_iter()
        .filter(|v| v.round == 4)
        .collect();
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(v.iter().all(|v| v.rule == Rule::Rematch), "{v:?}");
}

#[test]
fn relax_empty_stops_as_before() {
    let (e, mut rules, g) = must_rematch();
    rules.pairing.relax.clear();
    let err = pair_next_round(&e, &rules, &g, 1).unwrap_err();
    assert!(
        matches!(err, PairingError::NoLegalPairing { round: 4, .. }),
        "{err}"
    );
    // A rule not in the list stays hard.
    rules.pairing.relax = vec![Relax::Colour, Relax::Team];
    let err = pair_next_round(&e, &rules, &g, 1).unwrap_err();
    assert!(matches!(err, PairingError::NoLegalPairing { .. }), "{err}");
}

/// P1, P2 have had red twice, P3, P4 black twice, and every red–black pair has met: only
/// P1–P2 and P3–P4 are left, each a third colour in a row for one player.
fn must_break_colours() -> (Event, Rulebook, GroupId) {
    let g = GroupId::new("open");
    let mut e = event_of(4, &g);
    e.group_mut(&g).rounds.push(Round {
        number: 1,
        pairings: vec![game(1, 1, 3), game(2, 2, 4)],
    });
    e.group_mut(&g).rounds.push(Round {
        number: 2,
        pairings: vec![game(1, 1, 4), game(2, 2, 3)],
    });
    let mut rules = Rulebook::cxa_2011("t", 7);
    rules.pairing.team_avoidance = TeamAvoidance::AllRounds;
    for (k, unit) in [(0, "甲队"), (2, "甲队"), (1, "乙队"), (3, "乙队")] {
        e.players[k].unit = unit.into();
    }
    (e, rules, g)
}

#[test]
fn when_relaxing_colour_suffices_team_and_rematch_stay_kept() {
    let (e, rules, g) = must_break_colours();
    let plan = pair_next_round(&e, &rules, &g, 1).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(tables(&plan.round), vec![(1, 2), (3, 4)]);
    assert_eq!(plan.relaxed.len(), 2, "{:?}", plan.relaxed);
    assert!(plan.relaxed.iter().all(|r| r.rule == Relax::Colour));
    let mut after = e.clone();
    plan.apply(&mut after, &g, 1);
    // Only round 3 is the engine's (the hand-made history pairs unit-mates).
    let checked = check_group_detailed(&after, &rules, &g);
    assert!(
        checked.violations.iter().all(|v| v.round < 3),
        "{:?}",
        checked.violations
    );
    // A third red in a row is also reds − blacks = 3: two limits each for P1 (or P2)
    // and P4 (or P3), all covered by the two recorded colour relaxations.
    assert_eq!(checked.accepted.len(), 4, "{:?}", checked.accepted);

    // With colours not relaxable the same round needs two rematches instead.
    let mut strict_colours = rules.clone();
    strict_colours.pairing.relax = vec![Relax::Rematch];
    let plan = pair_next_round(&e, &strict_colours, &g, 1).unwrap();
    assert_eq!(plan.relaxed.len(), 2);
    assert!(plan.relaxed.iter().all(|r| r.rule == Relax::Rematch));
    // P1–P3 and P2–P4 are unit-mates and team avoidance is not relaxable: P1–P4, P2–P3.
    assert_eq!(tables(&plan.round), vec![(1, 4), (2, 3)]);
}

#[test]
fn relax_is_validated_and_shown() {
    let base = "[event]\nname = \"t\"\nrounds = 5\n\n[[groups]]\nid = \"open\"\n\n[pairing]\n";
    let bad = format!("{base}relax = [\"colour\", \"rematch\", \"colour\", \"teams\"]\n");
    let err = Rulebook::from_toml(&bad, "r.toml").unwrap_err().to_string();
    assert!(err.contains("pairing.relax[2]"), "{err}");
    assert!(err.contains("listed twice"), "{err}");
    assert!(err.contains("pairing.relax[3]"), "{err}");
    assert!(err.contains("`teams`") && err.contains("`team`"), "{err}");
    let none = Rulebook::from_toml(&format!("{base}relax = []\n"), "r.toml").unwrap();
    assert!(none.pairing.relax.is_empty());
    assert!(
        none.to_effective_toml().contains("relax = []"),
        "rules show prints the empty list"
    );
    let default = Rulebook::from_toml(base, "r.toml").unwrap();
    assert_eq!(
        default.pairing.relax,
        vec![Relax::Colour, Relax::Team, Relax::Rematch]
    );
    assert!(
        default
            .to_effective_toml()
            .contains("relax = [\"colour\", \"team\", \"rematch\"]")
    );
}

/// A rulebook's text: the CXA 2011 preset with `relax` written under `[pairing]`.
fn cxa_with_relax(relax: &str) -> String {
    rules_plus("cxa-2011", "").replacen("[pairing]\n", &format!("[pairing]\nrelax = {relax}\n"), 1)
}

/// What `qiwang ARGS` run in `cwd` prints on standard output, after failing the test
/// unless it succeeded with nothing on standard error.
#[track_caller]
fn printed(cwd: &std::path::Path, args: &[&str]) -> String {
    Run::new(cwd, args).stderr_empty().check().stdout
}

#[test]
fn cli_pairs_a_forced_rematch_prints_it_and_check_accepts_it() {
    let (tmp, ev) = small_event(&["甲", "乙"]);
    let evs = ev.to_str().unwrap();
    printed(tmp.path(), &["--event", evs, "pair", "--seed", "1"]);
    printed(tmp.path(), &["--event", evs, "result", "1", "="]);
    let text = Run::on_event_in("zh", &ev, &["pair", "--explain"])
        .stderr_empty()
        .check()
        .stdout;
    // Once, among the sheet's notes, not again in the explanation under them.
    assert_eq!(text.matches("放宽不重复对局").count(), 1, "{text}");
    assert_eq!(
        text.matches("按放宽顺序（规程的 pairing.relax）放宽")
            .count(),
        1,
        "{text}"
    );
    let (sheet, why) = text.split_once("编排说明：").expect("an explanation");
    assert!(
        sheet.contains("放宽不重复对局") && !why.contains("放宽"),
        "{text}"
    );
    Run::on_event_in("zh", &ev, &["check"])
        .stdout_has("已接受的放宽")
        .stderr_empty()
        .check();
    Run::on_event_in("zh", &ev, &["round", "2"])
        .stdout_has("放宽不重复对局")
        .stderr_empty()
        .check();
}

#[test]
fn cli_relax_empty_still_stops_with_exit_4() {
    let tmp = tempfile::TempDir::new().unwrap();
    let rules = cxa_with_relax("[]");
    let ev = event_from(
        tmp.path(),
        &rules,
        "name,gender,unit\n甲,男,单位1\n乙,男,单位2\n",
    );
    let evs = ev.to_str().unwrap();
    printed(tmp.path(), &["--event", evs, "pair", "--seed", "1"]);
    printed(tmp.path(), &["--event", evs, "result", "1", "="]);
    let before = snapshot(&ev);
    Run::new(tmp.path(), &["--event", evs, "--lang", "en", "pair"])
        .status(4)
        .stdout_empty()
        .stderr_has("no legal pairing exists")
        .stderr_has("already met")
        .check();
    assert_eq!(before, snapshot(&ev));
}

/// `pair --all` with one pool that has no legal pairing (`relax = []`, round 1, three of
/// four players from one unit): the other pools are still paired and stored, the refused
/// pool's freshly drawn seed is recorded as a refused `pair` records it, and the command
/// ends with exit code 4 and the refusal.
#[test]
fn pair_all_pairs_the_other_pools_when_one_has_no_legal_pairing() {
    let tmp = tempfile::TempDir::new().unwrap();
    let rules = cxa_with_relax("[]").replacen(
        "[[groups]]\nid = \"open\"\nname = \"公开组\"\n",
        "[[groups]]\nid = \"open\"\nname = \"公开组\"\n\n[[groups]]\nid = \"girls\"\nname = \"女子组\"\n",
        1,
    );
    assert!(rules.contains("女子组"), "the rulebook has changed shape");
    let csv = "name,gender,unit,group\n甲,男,X,open\n乙,男,X,open\n丙,男,X,open\n丁,男,W,open\n\
               子,女,A,girls\n丑,女,B,girls\n寅,女,C,girls\n卯,女,D,girls\n";
    let ev = event_from(tmp.path(), &rules, csv);
    let evs = ev.to_str().unwrap();
    let state = || -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(ev.join("qiwang.json")).unwrap()).unwrap()
    };
    let pool = |id: &str| {
        state()["groups"]
            .as_object()
            .and_then(|g| g.get(id).cloned())
            .unwrap_or(serde_json::Value::Null)
    };
    // A dry run refuses too, pairs nothing, and records the refused draw's seed.
    let dry_run = Run::new(
        tmp.path(),
        &["--event", evs, "--lang", "en", "pair", "--all", "--dry-run"],
    )
    .status(4)
    .stdout_has("dry run")
    .stderr_has("no legal pairing exists")
    .check();
    let seed = pool("open")["seed"]
        .as_u64()
        .expect("the refused draw's seed is recorded");
    assert!(
        dry_run.stderr.contains(&format!("seed {seed} is recorded")),
        "{}",
        dry_run.stderr
    );
    // JSON is one list of sheets whatever their number: here the one pool paired.
    let out = Run::new(
        tmp.path(),
        &[
            "--event",
            evs,
            "--format",
            "json",
            "pair",
            "--all",
            "--dry-run",
        ],
    )
    .status(4)
    .stderr_has("第 1 轮不存在合规的编排")
    .check();
    let sheets: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(sheets.as_array().map(Vec::len), Some(1), "{sheets}");
    // Each round-1 sheet of a dry run names its draw's seed, as `pair --dry-run` does.
    assert!(sheets[0]["seed"].is_u64(), "{sheets}");
    // The seed was recorded before, so it is not drawn again and not named again.
    Run::new(
        tmp.path(),
        &["--event", evs, "--lang", "en", "pair", "--all"],
    )
    .status(4)
    .stdout_has("女子组")
    .stdout_lacks("公开组")
    .stderr_has("no legal pairing exists")
    .stderr_lacks("is recorded")
    .check();
    assert_eq!(pool("girls")["rounds"].as_array().map(Vec::len), Some(1));
    assert!(pool("open")["rounds"].as_array().is_none_or(Vec::is_empty));
    assert_eq!(pool("open")["seed"].as_u64(), Some(seed));
    // Every ready pool refused: JSON output is still JSON, an empty list of sheets.
    let out = Run::new(
        tmp.path(),
        &["--event", evs, "--format", "json", "pair", "--all"],
    )
    .status(4)
    .stderr_has("第 1 轮不存在合规的编排")
    .check();
    assert_eq!(out.stdout.trim(), "[]");
    // The arbiter lets this round break team avoidance: the recorded draw is made.
    printed(
        tmp.path(),
        &["--event", evs, "pair", "--group", "open", "--relax", "team"],
    );
    assert_eq!(pool("open")["seed"].as_u64(), Some(seed));
    assert_eq!(pool("open")["rounds"].as_array().map(Vec::len), Some(1));

    // Without a dry run first: the rounds paired and the refused draw's seed are one
    // change, so one `undo` takes back the whole command.
    let tmp = tempfile::TempDir::new().unwrap();
    let ev = event_from(tmp.path(), &rules, csv);
    let evs = ev.to_str().unwrap();
    let entries = || {
        fs::read_to_string(ev.join("audit.log"))
            .unwrap()
            .lines()
            .count()
    };
    let before = (entries(), fs::read(ev.join("qiwang.json")).unwrap());
    Run::new(
        tmp.path(),
        &["--event", evs, "--lang", "en", "pair", "--all"],
    )
    .status(4)
    .stdout_has("女子组")
    .stderr_has("no legal pairing exists")
    .check();
    assert_eq!(entries(), before.0 + 1);
    Run::new(tmp.path(), &["--event", evs, "--lang", "en", "log"])
        .stdout_has("round 1 of 公开组 refused (no legal pairing, draw seed")
        .stderr_empty()
        .check();
    printed(tmp.path(), &["--event", evs, "undo"]);
    let state = fs::read(ev.join("qiwang.json")).unwrap();
    assert!(state == before.1, "one undo restores the state");
}

/// A crowded pool refused under `relax = []`: the refusal names a few players and a
/// few possible opponents each, and counts the rest (it once listed every opponent of
/// every blocked player: megabytes for a few thousand players).
#[test]
fn a_refusal_of_a_crowded_pool_stays_readable() {
    let tmp = tempfile::TempDir::new().unwrap();
    let rules = cxa_with_relax("[]");
    let mut csv = String::from("name,gender,unit\n");
    for k in 0..401 {
        let unit = if k % 5 < 3 {
            "多".to_string()
        } else {
            format!("U{k}")
        };
        csv.push_str(&format!("P{k},男,{unit}\n"));
    }
    let ev = event_from(tmp.path(), &rules, &csv);
    let evs = ev.to_str().unwrap();
    let out = Run::new(
        tmp.path(),
        &["--event", evs, "--lang", "en", "pair", "--seed", "1"],
    )
    .status(4)
    .stdout_empty()
    .stderr_has("more players can be left without a table likewise")
    .stderr_has(" more, who are all needed at other tables")
    .check();
    assert!(
        out.stderr.len() < 4000,
        "{} bytes: {}",
        out.stderr.len(),
        out.stderr
    );
    Run::new(tmp.path(), &["--event", evs, "pair", "--seed", "1"])
        .status(4)
        .stdout_empty()
        .stderr_has("名棋手同样可能无法编排")
        .check();
}

/// The relaxations live in the state file: they survive a save and load, and a state
/// without them (every file before schema 3) loads with none.
#[test]
fn relaxations_are_stored_in_the_state_and_older_states_have_none() {
    let (e, rules, g) = must_rematch();
    let plan = pair_next_round(&e, &rules, &g, 1).unwrap();
    let mut after = e.clone();
    plan.apply(&mut after, &g, 1);
    let text = serde_json::to_string(&after).unwrap();
    assert!(text.contains("\"relaxed\""), "{text}");
    let back: Event = serde_json::from_str(&text).unwrap();
    assert_eq!(back, after);
    let before: Event = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
    assert!(!serde_json::to_string(&e).unwrap().contains("relaxed"));
    assert!(before.group(&g).unwrap().relaxed.is_empty());
}

/// A forced hand edit that trades the recorded team-mate table for another keeps the
/// number of team-mate tables, so the criteria cannot tell it from the engine's round:
/// `check --optimal` still fails it, naming the break `check` reports.
#[test]
fn check_optimal_fails_a_round_with_a_break_not_recorded() {
    let tmp = tempfile::TempDir::new().unwrap();
    let rules = cxa_with_relax(r#"["colour", "team", "rematch"]"#);
    let csv = "name,gender,unit\nA1,男,甲\nA2,男,甲\nA3,男,甲\nA4,男,甲\nI1,男,\nI2,男,\n";
    let ev = event_from(tmp.path(), &rules, csv);
    let evs = ev.to_str().unwrap();
    printed(tmp.path(), &["--event", evs, "pair", "--seed", "1"]);
    let json = printed(
        tmp.path(),
        &["--event", evs, "--format", "json", "round", "1"],
    );
    let round: serde_json::Value = serde_json::from_str(&json).expect("the round as JSON");
    let tables: Vec<(String, String)> = round["pairings"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| {
            let name = |side: &str| t[side]["name"].as_str().unwrap_or_default().to_string();
            (name("red"), name("black"))
        })
        .collect();
    // Four of one unit among six: exactly one team-mate table, recorded as relaxed.
    let unit = |name: &str| name.starts_with('A');
    let mates: Vec<&(String, String)> = tables.iter().filter(|(r, b)| unit(r) && unit(b)).collect();
    assert_eq!(mates.len(), 1, "{tables:?}");
    let other = tables
        .iter()
        .flat_map(|(r, b)| [r, b])
        .find(|p| unit(p) && *p != &mates[0].0 && *p != &mates[0].1)
        .expect("a unit player at another table")
        .clone();
    let moved = mates[0].0.clone();
    printed(
        tmp.path(),
        &["--event", evs, "pairing", "swap", &moved, &other, "--force"],
    );
    Run::new(tmp.path(), &["--event", evs, "--lang", "en", "check"])
        .status(3)
        .stdout_has("1 violation")
        .stderr_is("error: 1 violation of the hard pairing rules\n")
        .check();
    Run::new(
        tmp.path(),
        &[
            "--event",
            evs,
            "--lang",
            "en",
            "check",
            "--optimal",
            "--round",
            "1",
        ],
    )
    .status(3)
    .stdout_has("and 1 hard-rule break not recorded as relaxations (see `qiwang check`)")
    .stderr_has("1 round not optimal")
    .check();
}
