//! Pairing engine against an independent oracle: round-1 modes, an exhaustive search on
//! small events (optimality on criteria (a)–(c) and legality), the checker over hundreds
//! of generated events, the decomposed solver against the dense one, determinism and the
//! no-legal-pairing report.

use qiwang::model::{
    Colour, Event, GameResult, GroupId, Outcome, Pairing, Player, PlayerId, Points, Relax, Round,
};
use qiwang::pairing::testing::{SimConfig, play_random_event, play_random_event_watched};
use qiwang::pairing::{
    ByeReason, FloatReason, PairingError, PairingPlan, PassReason, Rule, Solver, check_group,
    check_round, pair_next_round, pair_next_round_with,
};
use qiwang::rulebook::{
    ByeChoice, Round1Colour, Round1Pairing, Rulebook, TeamAvoidance, WithinGroup,
};
use qiwang::scoring;
use std::collections::BTreeMap;

// ---------------------------------------------------------------- fixtures

fn event_with(n: usize) -> (Event, Rulebook, GroupId) {
    let g = GroupId::new("open");
    let mut e = Event::new(String::new());
    for k in 1..=n as u32 {
        let mut p = Player::new(PlayerId(k), format!("P{k}"), g.clone());
        p.number = Some(k);
        e.players.push(p);
    }
    (e, Rulebook::cxa_2011("t", 7), g)
}

fn games(round: &Round) -> Vec<(u32, u32)> {
    round
        .pairings
        .iter()
        .filter_map(|p| match p {
            Pairing::Game { red, black, .. } => Some((red.0, black.0)),
            Pairing::Bye { .. } => None,
        })
        .collect()
}

fn bye_of(round: &Round) -> Option<u32> {
    round.pairings.iter().find_map(|p| match p {
        Pairing::Bye { player } => Some(player.0),
        Pairing::Game { .. } => None,
    })
}

// ---------------------------------------------------------------- round 1

/// Mode, colour mode, players, expected (red, black) tables, expected bye.
type Round1Case = (
    Round1Pairing,
    Round1Colour,
    usize,
    Vec<(u32, u32)>,
    Option<u32>,
);

#[test]
fn round1_modes_dalian_adjacent_halves_fold() {
    let cases: Vec<Round1Case> = vec![
        (
            Round1Pairing::Adjacent,
            Round1Colour::OddBoardLowerRed,
            8,
            vec![(1, 2), (4, 3), (5, 6), (8, 7)],
            None,
        ),
        (
            Round1Pairing::Halves,
            Round1Colour::UpperHalfRed,
            8,
            vec![(1, 5), (2, 6), (3, 7), (4, 8)],
            None,
        ),
        (
            Round1Pairing::FoldFirstLast,
            Round1Colour::AllLowerRed,
            8,
            vec![(1, 8), (2, 7), (3, 6), (4, 5)],
            None,
        ),
        (
            Round1Pairing::FoldFirstLast,
            Round1Colour::AllHigherRed,
            6,
            vec![(6, 1), (5, 2), (4, 3)],
            None,
        ),
        // Odd field: the highest number takes the bye (Dalian 2025).
        (
            Round1Pairing::Adjacent,
            Round1Colour::OddBoardLowerRed,
            7,
            vec![(1, 2), (4, 3), (5, 6)],
            Some(7),
        ),
        (
            Round1Pairing::Halves,
            Round1Colour::OddBoardLowerRed,
            9,
            vec![(1, 5), (6, 2), (3, 7), (8, 4)],
            Some(9),
        ),
    ];
    for (mode, colour, n, want, bye) in cases {
        let (e, mut rules, g) = event_with(n);
        rules.pairing.round1 = mode;
        rules.pairing.round1_colour = colour;
        let plan = pair_next_round(&e, &rules, &g, 1).expect("round 1 pairs");
        assert_eq!(games(&plan.round), want, "{mode:?} {colour:?} n={n}");
        assert_eq!(bye_of(&plan.round), bye, "{mode:?} n={n}");
    }
}

#[test]
fn round1_draw_is_recorded_and_reproducible() {
    let (mut e, rules, g) = event_with(10);
    for p in &mut e.players {
        p.number = None;
    }
    let a = pair_next_round(&e, &rules, &g, 42).unwrap();
    let b = pair_next_round(&e, &rules, &g, 42).unwrap();
    let c = pair_next_round(&e, &rules, &g, 43).unwrap();
    assert_eq!(a, b);
    assert_ne!(a.numbers, c.numbers, "another seed draws other numbers");
    let mut nums: Vec<u32> = a.numbers.iter().map(|x| x.1).collect();
    nums.sort_unstable();
    assert_eq!(nums, (1..=10).collect::<Vec<_>>());
}

#[test]
fn round1_team_avoidance_swaps_lower_half() {
    let (mut e, mut rules, g) = event_with(4);
    rules.pairing.team_avoidance = TeamAvoidance::Round1Only;
    e.players[0].unit = "金华队".into();
    e.players[1].unit = "金华队".into();
    let plan = pair_next_round(&e, &rules, &g, 1).unwrap();
    assert!(check_round(&e, &rules, &g, &plan.round).is_empty());
    assert_eq!(games(&plan.round), vec![(1, 4), (3, 2)]);
}

#[test]
fn round1_team_avoidance_reports_an_impossible_field() {
    let (mut e, mut rules, g) = event_with(4);
    rules.pairing.team_avoidance = TeamAvoidance::Round1Only;
    // docs/rules.md §2.5: only with nothing to relax does the engine stop.
    rules.pairing.relax.clear();
    for p in e.players.iter_mut().take(3) {
        p.unit = "东莞队".into();
    }
    let err = pair_next_round(&e, &rules, &g, 1).unwrap_err();
    assert!(
        matches!(err, PairingError::NoLegalPairing { round: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("same team"), "{err}");
}

#[test]
fn rating_seeding_and_late_entry_numbers() {
    let (mut e, mut rules, g) = event_with(5);
    rules.pairing.seeding = qiwang::rulebook::Seeding::RatingThenLot;
    for (p, r) in e
        .players
        .iter_mut()
        .zip([Some(1500), None, Some(2100), Some(1800), None])
    {
        p.number = None;
        p.rating = r;
    }
    e.players[4].joined_round = 2;
    let plan = pair_next_round(&e, &rules, &g, 9).unwrap();
    let by_number: Vec<u32> = plan.numbers.iter().map(|x| x.0.0).collect();
    assert_eq!(
        &by_number[..3],
        &[3, 4, 1],
        "rated players first, by rating"
    );
    assert_eq!(by_number.len(), 4, "the late entry has no number yet");
    let mut e2 = e.clone();
    for (id, n) in &plan.numbers {
        e2.player_mut(*id).unwrap().number = Some(*n);
    }
    let mut r1 = plan.round.clone();
    for p in &mut r1.pairings {
        if let Pairing::Game { result, .. } = p {
            *result = Some(GameResult::new(Outcome::Draw));
        }
    }
    e2.group_mut(&g).rounds.push(r1);
    let plan2 = pair_next_round(&e2, &rules, &g, 9).unwrap();
    assert_eq!(plan2.numbers, vec![(PlayerId(5), 5)]);
    assert!(plan2.round.pairing_of(PlayerId(5)).is_some());
}

// ---------------------------------------------------------------- oracle

/// An independent model of the rules, written from docs/rules.md without the engine's code.
pub(crate) struct Oracle {
    ids: Vec<PlayerId>,
    score: Vec<i32>,
    colours: Vec<Vec<Colour>>,
    met: Vec<Vec<PlayerId>>,
    byes: Vec<u32>,
    /// +1 floated down (or had the bye) in round r − 1, −1 floated up, 0 neither.
    floated: Vec<i32>,
    team: Vec<Option<String>>,
    team_on: bool,
    streak_limit: Option<u32>,
    diff_limit: Option<u32>,
    /// `pairing.bye = "lowest_score_fewest_byes"`: the bye key is (score, byes).
    score_first: bool,
    groups: Vec<i32>,
    /// The rules that may be broken (docs/rules.md §2.5); empty for the strict oracle.
    relax: Vec<Relax>,
}

impl Oracle {
    pub(crate) fn new(e: &Event, rules: &Rulebook, g: &GroupId, r: u32) -> Oracle {
        let totals = scoring::totals(e, rules, g, r - 1);
        let players: Vec<&Player> = e.players_in(g).filter(|p| p.pairable_in(r)).collect();
        let idx: BTreeMap<PlayerId, usize> =
            players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
        let n = players.len();
        let mut o = Oracle {
            ids: players.iter().map(|p| p.id).collect(),
            score: players.iter().map(|p| totals[&p.id].0).collect(),
            colours: vec![Vec::new(); n],
            met: vec![Vec::new(); n],
            byes: vec![0; n],
            floated: vec![0; n],
            team: players
                .iter()
                .map(|p| {
                    let u = p.unit.trim();
                    (!u.is_empty() && u != "个人").then(|| u.to_string())
                })
                .collect(),
            team_on: match rules.pairing.team_avoidance {
                TeamAvoidance::Off => false,
                TeamAvoidance::Round1Only => r == 1,
                TeamAvoidance::AllRounds => true,
            },
            streak_limit: if r >= rules.rounds_for(g) && rules.colours.relax_streak_last_round {
                None
            } else {
                rules.colours.max_streak
            },
            diff_limit: rules.colours.max_diff,
            score_first: rules.pairing.bye == ByeChoice::LowestScoreFewestByes,
            groups: Vec::new(),
            relax: Vec::new(),
        };
        let mut rounds: Vec<&Round> = e.groups[g].rounds.iter().filter(|x| x.number < r).collect();
        rounds.sort_by_key(|x| x.number);
        let before_prev = scoring::totals(e, rules, g, r.saturating_sub(2));
        for round in rounds {
            let prev = round.number + 1 == r;
            for p in &round.pairings {
                match p {
                    Pairing::Bye { player } => {
                        if let Some(&i) = idx.get(player) {
                            if prev {
                                o.floated[i] = 1;
                            }
                            o.byes[i] += 1;
                            if rules.colours.bye_counts {
                                o.colours[i].push(Colour::Red);
                            }
                        }
                    }
                    Pairing::Game {
                        red, black, result, ..
                    } => {
                        let played = result.is_none_or(|x| x.outcome.is_played());
                        for (me, them, c) in
                            [(red, black, Colour::Red), (black, red, Colour::Black)]
                        {
                            if let Some(&i) = idx.get(me) {
                                if prev {
                                    let mine = before_prev.get(me).map_or(0, |x| x.0);
                                    let theirs = before_prev.get(them).map_or(0, |x| x.0);
                                    o.floated[i] = (mine - theirs).signum();
                                }
                                if played || rules.pairing.forfeit_counts_as_met {
                                    o.met[i].push(*them);
                                }
                                if played || rules.colours.forfeit_counts {
                                    o.colours[i].push(c);
                                }
                            }
                        }
                    }
                }
            }
        }
        let mut gs = o.score.clone();
        gs.sort_unstable_by(|a, b| b.cmp(a));
        gs.dedup();
        o.groups = gs;
        o
    }

    fn diff(&self, i: usize) -> i32 {
        self.colours[i]
            .iter()
            .map(|c| if *c == Colour::Red { 1 } else { -1 })
            .sum()
    }

    fn allowed(&self, i: usize, c: Colour) -> bool {
        let h = &self.colours[i];
        let run = 1 + h.iter().rev().take_while(|x| **x == c).count() as u32;
        let d = self.diff(i) + if c == Colour::Red { 1 } else { -1 };
        self.streak_limit.is_none_or(|k| run <= k)
            && self.diff_limit.is_none_or(|k| d.unsigned_abs() <= k)
    }

    fn due(&self, i: usize) -> Option<Colour> {
        match self.diff(i) {
            d if d < 0 => Some(Colour::Red),
            d if d > 0 => Some(Colour::Black),
            _ => self.colours[i].last().map(|c| match c {
                Colour::Red => Colour::Black,
                Colour::Black => Colour::Red,
            }),
        }
    }

    fn misses(&self, red: usize, black: usize) -> u32 {
        u32::from(self.due(red).is_some_and(|d| d != Colour::Red))
            + u32::from(self.due(black).is_some_and(|d| d != Colour::Black))
    }

    /// Legal and the fewest misses over the legal ways round.
    fn pair(&self, a: usize, b: usize) -> Option<u32> {
        if self.met[a].contains(&self.ids[b])
            || (self.team_on && self.team[a].is_some() && self.team[a] == self.team[b])
        {
            return None;
        }
        let mut best = None;
        for (r, k) in [(a, b), (b, a)] {
            if self.allowed(r, Colour::Red) && self.allowed(k, Colour::Black) {
                let m = self.misses(r, k);
                best = Some(best.map_or(m, |x: u32| x.min(m)));
            }
        }
        best
    }

    fn group(&self, i: usize) -> usize {
        self.groups
            .iter()
            .position(|s| *s == self.score[i])
            .unwrap()
    }

    /// (a) bye key, (b) crossings per boundary from the top, squared differences, (c) misses,
    /// (d) repeated floats.
    fn cost(&self, pairs: &[(usize, usize, u32)], bye: Option<usize>) -> Cost {
        let mut cross = vec![0u32; self.groups.len()];
        let mut sq = 0i64;
        let mut miss = 0;
        // The same float as last round: down again (the bye counts as down), or up again.
        let mut repeat = bye.map_or(0, |b| u32::from(self.floated[b] == 1));
        for &(a, b, m) in pairs {
            let way = (self.score[a] - self.score[b]).signum();
            if way != 0 {
                repeat += u32::from(self.floated[a] == way) + u32::from(self.floated[b] == -way);
            }
            let (ga, gb) = (self.group(a), self.group(b));
            for c in cross.iter_mut().take(ga.max(gb)).skip(ga.min(gb)) {
                *c += 1;
            }
            let d = i64::from(self.score[a] - self.score[b]);
            sq += d * d;
            miss += m;
        }
        Cost {
            bye: bye.map(|b| self.bye_key(b)),
            cross,
            sq,
            miss,
            repeat,
        }
    }

    pub(crate) fn best(&self) -> Option<Cost> {
        let n = self.ids.len();
        let mut best: Option<Cost> = None;
        let mut used = vec![false; n];
        let mut pairs = Vec::new();
        let byes: Vec<Option<usize>> = if n % 2 == 1 {
            (0..n).map(Some).collect()
        } else {
            vec![None]
        };
        for bye in byes {
            if let Some(b) = bye {
                used[b] = true;
            }
            self.enumerate(&mut used, &mut pairs, bye, &mut best);
            if let Some(b) = bye {
                used[b] = false;
            }
        }
        best
    }

    fn enumerate(
        &self,
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize, u32)>,
        bye: Option<usize>,
        best: &mut Option<Cost>,
    ) {
        let Some(a) = used.iter().position(|u| !u) else {
            let c = self.cost(pairs, bye);
            if best.as_ref().is_none_or(|b| c < *b) {
                *best = Some(c);
            }
            return;
        };
        used[a] = true;
        for b in a + 1..used.len() {
            if used[b] {
                continue;
            }
            if let Some(m) = self.pair(a, b) {
                used[b] = true;
                pairs.push((a, b, m));
                self.enumerate(used, pairs, bye, best);
                pairs.pop();
                used[b] = false;
            }
        }
        used[a] = false;
    }

    /// The cost of the engine's round, with its actual colours.
    pub(crate) fn round_cost(&self, round: &Round) -> Cost {
        let idx: BTreeMap<PlayerId, usize> =
            self.ids.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let mut pairs = Vec::new();
        let mut bye = None;
        for p in &round.pairings {
            match p {
                Pairing::Game { red, black, .. } => {
                    let (r, b) = (idx[red], idx[black]);
                    pairs.push((r, b, self.misses(r, b)));
                }
                Pairing::Bye { player } => bye = Some(idx[player]),
            }
        }
        self.cost(&pairs, bye)
    }
}

/// Breaks per relaxable rule, indexed colour, team, rematch.
type Breaks = [u32; 3];
/// The bye player's tier key in `pairing.bye`'s order (see `Oracle::bye_key`).
type ByeKey = (i64, i64);
/// Weighed breaks, then the usual criteria.
type Weighed = (Vec<u32>, Cost);

fn slot(r: Relax) -> usize {
    match r {
        Relax::Colour => 0,
        Relax::Team => 1,
        Relax::Rematch => 2,
    }
}

impl Oracle {
    /// Colour limits `i` breaks by taking `c`: the run and the difference, one each.
    fn colour_breaks(&self, i: usize, c: Colour) -> u32 {
        let h = &self.colours[i];
        let run = 1 + h.iter().rev().take_while(|x| **x == c).count() as u32;
        let d = self.diff(i) + if c == Colour::Red { 1 } else { -1 };
        u32::from(self.streak_limit.is_some_and(|k| run > k))
            + u32::from(self.diff_limit.is_some_and(|k| d.unsigned_abs() > k))
    }

    /// The pair's breaks and misses with the colours that break fewest limits, then miss
    /// fewest; `None` when it breaks a rule `relax` does not list.
    fn pair_relaxed(&self, a: usize, b: usize) -> Option<(Breaks, u32)> {
        let rematch = u32::from(self.met[a].contains(&self.ids[b]));
        let team =
            u32::from(self.team_on && self.team[a].is_some() && self.team[a] == self.team[b]);
        let may = |r: Relax| self.relax.contains(&r);
        if (rematch > 0 && !may(Relax::Rematch)) || (team > 0 && !may(Relax::Team)) {
            return None;
        }
        let mut best: Option<(u32, u32)> = None;
        for (r, k) in [(a, b), (b, a)] {
            let c = self.colour_breaks(r, Colour::Red) + self.colour_breaks(k, Colour::Black);
            if c > 0 && !may(Relax::Colour) {
                continue;
            }
            let m = (c, self.misses(r, k));
            best = Some(best.map_or(m, |x| x.min(m)));
        }
        let (colour, miss) = best?;
        Some(([colour, team, rematch], miss))
    }

    /// Breaks as the engine weighs them: the last rule of `relax` first.
    fn weigh(&self, b: Breaks) -> Vec<u32> {
        self.relax.iter().rev().map(|r| b[slot(*r)]).collect()
    }

    /// The bye tier key of player `b` under `pairing.bye` (docs/rules.md §4.2), lower first.
    fn bye_key(&self, b: usize) -> (i64, i64) {
        let (byes, score) = (i64::from(self.byes[b]), i64::from(self.score[b]));
        if self.score_first {
            (score, byes)
        } else {
            (byes, score)
        }
    }

    /// The best relaxed pairing over every perfect matching, the bye from the first tier of
    /// `pairing.bye`'s order that allows one.
    fn best_relaxed(&self) -> Option<(Vec<u32>, Cost)> {
        let n = self.ids.len();
        let byes: Vec<Option<usize>> = if n % 2 == 1 {
            (0..n).map(Some).collect()
        } else {
            vec![None]
        };
        let mut found: Vec<(Option<ByeKey>, Weighed)> = Vec::new();
        for bye in byes {
            let mut used = vec![false; n];
            if let Some(b) = bye {
                used[b] = true;
            }
            let mut best = None;
            self.enumerate_relaxed(&mut used, &mut Vec::new(), bye, &mut best);
            if let Some(c) = best {
                found.push((bye.map(|b| self.bye_key(b)), c));
            }
        }
        let tier = found.iter().map(|f| f.0).min()?;
        found.into_iter().filter(|f| f.0 == tier).map(|f| f.1).min()
    }

    fn enumerate_relaxed(
        &self,
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize, u32, Breaks)>,
        bye: Option<usize>,
        best: &mut Option<(Vec<u32>, Cost)>,
    ) {
        let Some(a) = used.iter().position(|u| !u) else {
            let mut total = [0u32; 3];
            for p in pairs.iter() {
                for (t, b) in total.iter_mut().zip(p.3) {
                    *t += b;
                }
            }
            let plain: Vec<(usize, usize, u32)> = pairs.iter().map(|p| (p.0, p.1, p.2)).collect();
            let c = (self.weigh(total), self.cost(&plain, bye));
            if best.as_ref().is_none_or(|b| c < *b) {
                *best = Some(c);
            }
            return;
        };
        used[a] = true;
        for b in a + 1..used.len() {
            if used[b] {
                continue;
            }
            if let Some((br, m)) = self.pair_relaxed(a, b) {
                used[b] = true;
                pairs.push((a, b, m, br));
                self.enumerate_relaxed(used, pairs, bye, best);
                pairs.pop();
                used[b] = false;
            }
        }
        used[a] = false;
    }

    /// The weighed breaks and cost of the engine's round, with its actual colours.
    fn round_cost_relaxed(&self, round: &Round) -> (Vec<u32>, Cost) {
        let idx: BTreeMap<PlayerId, usize> =
            self.ids.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let mut total = [0u32; 3];
        for p in &round.pairings {
            if let Pairing::Game { red, black, .. } = p {
                let (r, b) = (idx[red], idx[black]);
                total[0] +=
                    self.colour_breaks(r, Colour::Red) + self.colour_breaks(b, Colour::Black);
                total[1] += u32::from(
                    self.team_on && self.team[r].is_some() && self.team[r] == self.team[b],
                );
                total[2] += u32::from(self.met[r].contains(&self.ids[b]));
            }
        }
        (self.weigh(total), self.round_cost(round))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Cost {
    bye: Option<(i64, i64)>,
    cross: Vec<u32>,
    sq: i64,
    miss: u32,
    repeat: u32,
}

fn truncated(e: &Event, g: &GroupId, before: u32) -> Event {
    let mut t = e.clone();
    t.groups
        .get_mut(g)
        .unwrap()
        .rounds
        .retain(|r| r.number < before);
    t
}

#[test]
fn exhaustive_optimum_on_small_events() {
    let mut compared = 0;
    let mut blocked = 0;
    for seed in 0..1500u64 {
        let mut cfg = SimConfig::random(seed, 12);
        cfg.late_entries = cfg.late_entries.min(12 - cfg.players.min(12));
        // The strict engine; relaxed rounds have their own oracle test below.
        cfg.rules.pairing.relax.clear();
        let sim = play_random_event(&cfg, seed);
        let g = &sim.group;
        let played = sim.event.groups[g].rounds.len() as u32;
        let blocked_next = matches!(sim.stopped, Some(PairingError::NoLegalPairing { .. }));
        let upto = if blocked_next { played + 1 } else { played };
        for r in 2..=upto {
            let e = truncated(&sim.event, g, r);
            let oracle = Oracle::new(&e, &sim.rules, g, r);
            let best = oracle.best();
            match pair_next_round(&e, &sim.rules, g, seed) {
                Ok(plan) => {
                    let v = check_round(&e, &sim.rules, g, &plan.round);
                    assert!(v.is_empty(), "seed {seed} round {r}: {v:?}");
                    let got = oracle.round_cost(&plan.round);
                    assert_eq!(Some(got), best, "seed {seed} round {r}");
                    compared += 1;
                }
                Err(PairingError::NoLegalPairing { blocking, .. }) => {
                    assert_eq!(best, None, "seed {seed} round {r}: engine found none");
                    assert!(!blocking.is_empty());
                    blocked += 1;
                }
                Err(other) => panic!("seed {seed} round {r}: {other}"),
            }
        }
    }
    assert!(compared > 3000, "only {compared} round states compared");
    assert!(blocked > 0, "no blocked state was exercised");
}

/// docs/rules.md §2.5: where no pairing meets every hard rule, the engine's round has the
/// fewest breaks (compared last-listed rule first) over every perfect matching, then the
/// usual criteria; where one does, nothing is relaxed. Every ordered `pairing.relax` list.
#[test]
fn relaxed_rounds_have_the_fewest_breaks_by_brute_force() {
    let all = [Relax::Colour, Relax::Team, Relax::Rematch];
    let mut orders: Vec<Vec<Relax>> = Vec::new();
    for a in all {
        orders.push(vec![a]);
        for b in all.into_iter().filter(|&b| b != a) {
            orders.push(vec![a, b]);
            for c in all.into_iter().filter(|&c| c != a && c != b) {
                orders.push(vec![a, b, c]);
            }
        }
    }
    let (mut relaxed, mut strict, mut stopped) = (0, 0, 0);
    for seed in 0..450u64 {
        let mut cfg = SimConfig::random(90_000 + seed, 10);
        cfg.players = 6 + (seed % 5) as usize;
        cfg.late_entries = 0;
        cfg.rules.event.rounds = 7 + (seed % 3) as u32;
        cfg.rules.pairing.relax = orders[seed as usize % orders.len()].clone();
        let sim = play_random_event(&cfg, seed);
        let g = &sim.group;
        let played = sim.event.groups[g].rounds.len() as u32;
        let upto = if sim.stopped.is_some() {
            played + 1
        } else {
            played
        };
        for r in 2..=upto {
            let e = truncated(&sim.event, g, r);
            let mut oracle = Oracle::new(&e, &sim.rules, g, r);
            if oracle.ids.is_empty() {
                continue;
            }
            let best_strict = oracle.best();
            oracle.relax = sim.rules.pairing.relax.clone();
            let best = oracle.best_relaxed();
            match pair_next_round(&e, &sim.rules, g, seed) {
                Ok(plan) => {
                    let mut after = e.clone();
                    plan.apply(&mut after, g, seed);
                    let v = check_round(&after, &sim.rules, g, &plan.round);
                    assert!(v.is_empty(), "seed {seed} round {r}: {v:?}");
                    if let Some(b) = best_strict {
                        assert!(plan.relaxed.is_empty(), "seed {seed} round {r}: relaxed");
                        assert_eq!(oracle.round_cost(&plan.round), b, "seed {seed} round {r}");
                        strict += 1;
                    } else {
                        assert!(!plan.relaxed.is_empty(), "seed {seed} round {r}");
                        let got = oracle.round_cost_relaxed(&plan.round);
                        assert_eq!(Some(got), best, "seed {seed} round {r}");
                        relaxed += 1;
                    }
                }
                Err(PairingError::NoLegalPairing { .. }) => {
                    assert_eq!(best, None, "seed {seed} round {r}: engine found none");
                    stopped += 1;
                }
                Err(other) => panic!("seed {seed} round {r}: {other}"),
            }
        }
    }
    assert!(relaxed > 100, "only {relaxed} relaxed rounds compared");
    assert!(
        strict > 100 && stopped > 0,
        "{strict} strict, {stopped} stopped"
    );
}

// ---------------------------------------------------------------- invariants

#[test]
fn checker_passes_every_round_of_generated_events() {
    let mut events = 0;
    let mut rounds = 0;
    // (withdrawals, late entries, team units, forfeits, double forfeits, draws, byes)
    let mut seen = [0usize; 7];
    for seed in 0..520u64 {
        let max = match seed % 40 {
            0 => 400,
            1..=4 => 120,
            _ => 30,
        };
        let cfg = SimConfig::random(1000 + seed, max);
        let sim = play_random_event(&cfg, seed);
        let v = check_group(&sim.event, &sim.rules, &sim.group);
        assert!(
            v.is_empty(),
            "seed {seed}: {}",
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        );
        events += 1;
        let played = &sim.event.groups[&sim.group].rounds;
        rounds += played.len();
        let ps = &sim.event.players;
        seen[0] += usize::from(ps.iter().any(qiwang::model::Player::is_withdrawn));
        seen[1] += usize::from(ps.iter().any(|p| p.joined_round > 1));
        seen[2] += usize::from(ps.iter().any(|p| p.unit.starts_with('队')));
        let outcomes: Vec<Outcome> = played
            .iter()
            .flat_map(|r| &r.pairings)
            .filter_map(|p| match p {
                Pairing::Game { result, .. } => result.map(|g| g.outcome),
                Pairing::Bye { .. } => None,
            })
            .collect();
        seen[3] += usize::from(
            outcomes
                .iter()
                .any(|o| matches!(o, Outcome::RedForfeit | Outcome::BlackForfeit)),
        );
        seen[4] += usize::from(outcomes.contains(&Outcome::DoubleForfeit));
        seen[5] += usize::from(outcomes.contains(&Outcome::Draw));
        seen[6] += usize::from(played.iter().any(|r| bye_of(r).is_some()));
    }
    assert!(
        events >= 500 && rounds > 2000,
        "{events} events, {rounds} rounds"
    );
    assert!(seen.iter().all(|&n| n >= 20), "incident coverage {seen:?}");
}

/// Round `r` as the priced solver paired it (`priced`, on the state `e` before it) against
/// the dense solver on the same state: both must be legal and cost the same under the
/// oracle's criteria. A round the rulebook's `pairing.relax` had to relax is compared on its
/// breaks first, and checked with its relaxations recorded, as `pair` stores them.
pub(crate) fn assert_priced_equals_dense(
    e: &Event,
    rules: &Rulebook,
    g: &GroupId,
    r: u32,
    priced: &PairingPlan,
    what: &str,
) {
    let mut oracle = Oracle::new(e, rules, g, r);
    oracle.relax = rules.pairing.relax.clone();
    let dense = pair_next_round_with(e, rules, g, 1, Solver::Dense).unwrap();
    for (solver, plan) in [("dense", &dense), ("priced", priced)] {
        let mut after = e.clone();
        plan.apply(&mut after, g, 1);
        let broken = check_round(&after, rules, g, &plan.round);
        assert!(broken.is_empty(), "{what} round {r}, {solver}: {broken:?}");
    }
    assert_eq!(
        oracle.round_cost_relaxed(&priced.round),
        oracle.round_cost_relaxed(&dense.round),
        "{what} round {r}"
    );
}

/// Plays the random event of `cfg` and `seed` with the priced solver and compares each of
/// its rounds after the first with the dense solver on the state it was paired from (one
/// priced solve per round: the event's own). Returns how many of those rounds relaxed a
/// rule.
fn assert_priced_equals_dense_every_round(cfg: &SimConfig, seed: u64) -> usize {
    let what = format!("seed {seed} n={}", cfg.players);
    let mut compared = 0;
    let mut relaxed = 0;
    let sim = play_random_event_watched(cfg, seed, Solver::Priced, &mut |paired| {
        if let (2.., Ok(plan)) = (paired.round, paired.plan) {
            relaxed += usize::from(!plan.relaxed.is_empty());
            let g = paired
                .before
                .groups
                .keys()
                .next()
                .expect("the event's group");
            assert_priced_equals_dense(paired.before, &cfg.rules, g, paired.round, plan, &what);
            compared += 1;
        }
    });
    let played = sim.event.groups[&sim.group].rounds.len();
    assert_eq!(
        compared,
        played.saturating_sub(1),
        "{what}: every round after the first"
    );
    relaxed
}

#[test]
fn priced_equals_dense_on_small_and_mid_size_events() {
    // Every solve also checks its optimality certificate (debug builds).
    let slow = crate::common::slow_tests();
    for seed in 0..if slow { 24u64 } else { 4 } {
        let mut cfg = SimConfig::random(7000 + seed, 10);
        // Two fields above 400 players here; the named ones of 473 and 538 players are the
        // next test's.
        cfg.players = if slow && seed < 2 {
            401 + (seed as usize * 61) % 200
        } else {
            30 + (seed as usize * 37) % if slow { 200 } else { 60 }
        };
        cfg.rules.event.rounds = 7;
        assert_priced_equals_dense_every_round(&cfg, seed);
    }
}

/// Most of the field in one unit under team avoidance in every round: no round after the
/// first can keep team-mates apart, so each is relaxed and priced with team-mates and
/// players barred from the same colour told apart by their blocks (a bound that, if
/// wrong, fails the certificate every debug solve checks over every legal pair). Above
/// 400 players the score groups are solved first in the relaxed weights.
#[test]
fn priced_equals_dense_when_one_unit_outnumbers_the_rest() {
    let slow = crate::common::slow_tests();
    let mut cases = vec![
        (41u64, 60usize, WithinGroup::AdjacentColourRows),
        (42, 75, WithinGroup::FoldTopBottom),
        (43, 90, WithinGroup::Adjacent),
    ];
    if slow {
        cases.push((44, 430, WithinGroup::AdjacentColourRows));
    }
    for (seed, players, within) in cases {
        let mut cfg = SimConfig::new(players, 6);
        cfg.teams = 1;
        cfg.rules.pairing.team_avoidance = TeamAvoidance::AllRounds;
        cfg.rules.pairing.within_group = within;
        let relaxed = assert_priced_equals_dense_every_round(&cfg, seed);
        assert_eq!(
            relaxed, 5,
            "seed {seed}: every round after the first relaxed"
        );
    }
}

/// Fold order (docs/rules.md §2.6): each score group's first candidates come from a guess
/// at its players' colour roles and the shift that pairs them, and fold partners are
/// priced under a tangent of the order term's square. Neither may change the optimum:
/// random events with absences (players due neither colour) and fields big enough that
/// one due colour outnumbers half a group, every round against the dense solver.
#[test]
fn priced_equals_dense_in_fold_order() {
    let slow = crate::common::slow_tests();
    for seed in 0..if slow { 8u64 } else { 2 } {
        let mut cfg = SimConfig::random(9600 + seed, 10);
        cfg.players = 90 + (seed as usize * 53) % 160;
        cfg.rules.pairing.within_group = WithinGroup::FoldTopBottom;
        cfg.rules.event.rounds = 7;
        assert_priced_equals_dense_every_round(&cfg, seed);
    }
}

/// Fields of 401–600 players (where the old score-group-by-score-group solver was a
/// heuristic, issue 15: e.g. 473 players, round 9, 8 colour misses against the dense
/// solver's 6) over nine rounds: the priced solver must cost exactly what the dense one
/// does in every round.
#[test]
fn priced_equals_dense_above_four_hundred_players() {
    if !crate::common::slow_tests() {
        return;
    }
    for (seed, players) in [(24u64, 473usize), (29, 538)] {
        let mut cfg = SimConfig::random(7000 + seed, 10);
        cfg.players = players;
        cfg.rules.event.rounds = 9;
        assert_priced_equals_dense_every_round(&cfg, seed);
    }
}

#[test]
fn same_state_and_seed_give_the_same_round() {
    for seed in 0..20u64 {
        let cfg = SimConfig::random(seed, 60);
        let a = play_random_event(&cfg, seed);
        let b = play_random_event(&cfg, seed);
        assert_eq!(a.event, b.event, "seed {seed}");
    }
}

// ---------------------------------------------------------------- errors and checker

#[test]
fn no_legal_pairing_names_the_blocked_players() {
    // Four players, round 4 after everyone met everyone: nobody can be paired (with
    // nothing to relax, docs/rules.md §2.5).
    let (mut e, mut rules, g) = event_with(4);
    rules.pairing.relax.clear();
    let rr = [[(1, 2), (3, 4)], [(3, 1), (4, 2)], [(1, 4), (2, 3)]];
    for (k, tables) in rr.iter().enumerate() {
        let pairings = tables
            .iter()
            .enumerate()
            .map(|(t, &(r, b))| Pairing::Game {
                table: t as u32 + 1,
                red: PlayerId(r),
                black: PlayerId(b),
                result: Some(GameResult::new(Outcome::Draw)),
            })
            .collect();
        e.group_mut(&g).rounds.push(Round {
            number: k as u32 + 1,
            pairings,
        });
    }
    let err = pair_next_round(&e, &rules, &g, 1).unwrap_err();
    let PairingError::NoLegalPairing {
        blocking, round, ..
    } = &err
    else {
        panic!("{err}");
    };
    assert_eq!(*round, 4);
    assert_eq!(blocking.len(), 4);
    let msg = err.to_string();
    assert!(
        msg.contains("player P1(1) has no legal opponent") && msg.contains("3 already met"),
        "{msg}"
    );
}

#[test]
fn incomplete_round_and_end_of_event_are_refused() {
    let (e0, mut rules, g) = event_with(4);
    let mut e = e0.clone();
    let plan = pair_next_round(&e, &rules, &g, 1).unwrap();
    e.group_mut(&g).rounds.push(plan.round);
    match pair_next_round(&e, &rules, &g, 1) {
        Err(PairingError::RoundIncomplete {
            round: 1, missing, ..
        }) => assert_eq!(missing, vec![1, 2]),
        other => panic!("{other:?}"),
    }
    rules.event.rounds = 1;
    for p in &mut e.group_mut(&g).rounds[0].pairings {
        if let Pairing::Game { result, .. } = p {
            *result = Some(GameResult::new(Outcome::RedWin));
        }
    }
    assert!(matches!(
        pair_next_round(&e, &rules, &g, 1),
        Err(PairingError::AllRoundsPlayed { rounds: 1, .. })
    ));
}

#[test]
fn checker_lists_every_violation() {
    let (mut e, rules, g) = event_with(6);
    let game = |t, r, b| Pairing::Game {
        table: t,
        red: PlayerId(r),
        black: PlayerId(b),
        result: Some(GameResult::new(Outcome::RedWin)),
    };
    e.group_mut(&g).rounds.push(Round {
        number: 1,
        pairings: vec![game(1, 1, 2), game(2, 3, 4), game(3, 5, 6)],
    });
    e.group_mut(&g).rounds.push(Round {
        number: 2,
        pairings: vec![game(1, 1, 3), game(2, 5, 4), game(3, 2, 6)],
    });
    e.players[5].status = qiwang::model::PlayerStatus::Withdrawn {
        from_round: 3,
        cause: qiwang::model::WithdrawalCause::Manual { note: None },
    };
    // Round 3: 1 and 2 rematch; 1 would have three reds; 5 twice; 6 withdrawn; 4 missing;
    // table 1 twice.
    let bad = Round {
        number: 3,
        pairings: vec![
            game(1, 1, 2),
            game(1, 5, 6),
            Pairing::Bye {
                player: PlayerId(5),
            },
        ],
    };
    let v = check_round(&e, &rules, &g, &bad);
    let rules_hit: Vec<&Rule> = v.iter().map(|x| &x.rule).collect();
    for want in [
        Rule::Rematch,
        Rule::Twice,
        Rule::NotPairable,
        Rule::Missing,
        Rule::DuplicateTable { table: 1 },
        Rule::ColourStreak {
            colour: Colour::Red,
            run: 3,
        },
    ] {
        assert!(rules_hit.contains(&&want), "{want:?} not in {v:?}");
    }
    assert!(check_group(&e, &rules, &g).is_empty());
    let _ = Points(0);
}

// ---------------------------------------------------------------- explanation

#[test]
fn explain_names_floats_colours_and_bye() {
    let (mut e, rules, g) = event_with(5);
    let plan = pair_next_round(&e, &rules, &g, 1).unwrap();
    let mut round = plan.round;
    // Round 1 is 1-2 (draw), 4-3 (4 wins), 5 bye: scores 1:1, 2:1, 3:0, 4:2, 5:2.
    for p in &mut round.pairings {
        if let Pairing::Game { red, result, .. } = p {
            *result = Some(GameResult::new(if red.0 == 1 {
                Outcome::Draw
            } else {
                Outcome::RedWin
            }));
        }
    }
    e.group_mut(&g).rounds.push(round);
    let plan = pair_next_round(&e, &rules, &g, 1).unwrap();
    assert!(check_round(&e, &rules, &g, &plan.round).is_empty());
    // 3 (0 points, no bye yet) takes the bye; 1 and 2 have met, so both 2-point players
    // must come down to them: 4-2 and 5-1.
    assert_eq!(bye_of(&plan.round), Some(3));
    let x = &plan.explanation;
    assert_eq!(x.colours.len(), 2);
    assert_eq!(x.floats.len(), 2);
    assert!(
        x.floats
            .iter()
            .all(|f| matches!(f.reason, FloatReason::NeededBelow { .. })),
        "{:?}",
        x.floats
    );
    let names = |id: PlayerId| format!("P{}", id.0);
    let zh = x.lines(qiwang::rulebook::Lang::Zh, &names).join("\n");
    let en = x.lines(qiwang::rulebook::Lang::En, &names).join("\n");
    let bye = bye_of(&plan.round).expect("odd field");
    assert!(
        zh.contains(&format!("P{bye}")) && zh.contains("轮空"),
        "{zh}"
    );
    assert!(en.contains("has the bye"), "{en}");
    assert!(
        en.contains("Table 1:") && zh.contains("第1台"),
        "{en}\n{zh}"
    );
    for f in &x.floats {
        assert!(en.contains(&format!("P{} (", f.player.0)), "{en}");
    }
}

#[test]
fn checker_final_round_relaxation_team_ban_and_second_bye() {
    let game = |t, r, b| Pairing::Game {
        table: t,
        red: PlayerId(r),
        black: PlayerId(b),
        result: Some(GameResult::new(Outcome::RedWin)),
    };
    // Rounds 1-2: player 1 has red twice; 3 and 2 each had a bye; 4 joins in round 3.
    let history = [
        Round {
            number: 1,
            pairings: vec![
                game(1, 1, 2),
                Pairing::Bye {
                    player: PlayerId(3),
                },
            ],
        },
        Round {
            number: 2,
            pairings: vec![
                game(1, 1, 3),
                Pairing::Bye {
                    player: PlayerId(2),
                },
            ],
        },
    ];
    let third = Round {
        number: 3,
        pairings: vec![game(1, 1, 4), game(2, 2, 3)],
    };
    // (rounds in the event, relax in the final round, team ban, want streak, want team)
    let cases = [
        (3, true, TeamAvoidance::Off, false, false),
        (3, false, TeamAvoidance::Off, true, false),
        (5, true, TeamAvoidance::Off, true, false),
        (5, true, TeamAvoidance::AllRounds, true, true),
        (5, true, TeamAvoidance::Round1Only, true, false),
    ];
    for (rounds, relax, team, want_streak, want_team) in cases {
        let (mut e, mut rules, g) = event_with(4);
        e.players[3].joined_round = 3;
        e.players[1].unit = "金华队".into();
        e.players[2].unit = "金华队".into();
        rules.event.rounds = rounds;
        rules.colours.relax_streak_last_round = relax;
        rules.pairing.team_avoidance = team;
        e.group_mut(&g).rounds.extend(history.iter().cloned());
        let v = check_round(&e, &rules, &g, &third);
        let streak = v
            .iter()
            .any(|x| matches!(x.rule, Rule::ColourStreak { run: 3, .. }));
        let team_hit = v.iter().any(|x| matches!(x.rule, Rule::Team { .. }));
        assert_eq!(
            (streak, team_hit),
            (want_streak, want_team),
            "{rounds} {relax} {team:?}: {v:?}"
        );
    }
    // Three players, round 3: 2-1 is a rematch, and 3 gets a second bye.
    let (mut e, rules, g) = event_with(3);
    e.group_mut(&g).rounds.extend(history.iter().cloned());
    let second = Round {
        number: 3,
        pairings: vec![
            game(1, 2, 1),
            Pairing::Bye {
                player: PlayerId(3),
            },
        ],
    };
    let v = check_round(&e, &rules, &g, &second);
    assert!(v.iter().any(|x| x.rule == Rule::Rematch), "{v:?}");
    // 1 has never had a bye and 2-3 have not met: 3's second bye is a violation.
    assert!(
        v.iter().any(|x| x.rule == Rule::SecondBye { byes: 1 }),
        "{v:?}"
    );
}

/// Seven players after three rounds (docs/rules.md §4.2): 7 had the round-1 bye and lost
/// both games since (2 points, the lowest); 3, 4 and 5 are on 3 points with no bye yet.
fn seven_after_three_rounds() -> (Event, Rulebook, GroupId) {
    let game = |t, r, b, o| Pairing::Game {
        table: t,
        red: PlayerId(r),
        black: PlayerId(b),
        result: Some(GameResult::new(o)),
    };
    let bye = |p| Pairing::Bye {
        player: PlayerId(p),
    };
    use Outcome::{BlackWin, Draw, RedWin};
    let rounds = [
        vec![
            game(1, 1, 2, RedWin),
            game(2, 3, 4, RedWin),
            game(3, 5, 6, RedWin),
            bye(7),
        ],
        vec![
            game(1, 7, 1, BlackWin),
            game(2, 2, 3, RedWin),
            game(3, 4, 5, RedWin),
            bye(6),
        ],
        vec![
            game(1, 7, 2, BlackWin),
            game(2, 3, 5, Draw),
            game(3, 4, 6, Draw),
            bye(1),
        ],
    ];
    let (mut e, rules, g) = event_with(7);
    for (k, pairings) in rounds.into_iter().enumerate() {
        e.group_mut(&g).rounds.push(Round {
            number: k as u32 + 1,
            pairings,
        });
    }
    (e, rules, g)
}

#[test]
fn bye_setting_never_byed_against_fewest_byes() {
    // (setting, players who may take the round-4 bye)
    let cases = [
        (
            ByeChoice::LowestScoreNeverByed,
            vec![3, 4, 5],
            ByeReason::LowestScore,
        ),
        // 最低分中轮空最少的: 7 is alone on the lowest score, so takes a second bye before
        // anyone on 3 points takes a first.
        (
            ByeChoice::LowestScoreFewestByes,
            vec![7],
            ByeReason::FewestByesAmongLowest,
        ),
    ];
    let mut rounds = Vec::new();
    for (choice, want, reason) in cases {
        let (e, mut rules, g) = seven_after_three_rounds();
        rules.pairing.bye = choice;
        let plan = pair_next_round(&e, &rules, &g, 1).unwrap();
        let got = bye_of(&plan.round).expect("odd field");
        assert!(want.contains(&got), "{choice:?}: bye to {got}");
        let note = plan.explanation.bye.as_ref().expect("a bye note");
        assert_eq!(note.reason, reason);
        // Mode 0 passes over 7 (lower score, one bye already); in mode 1 nobody scores
        // lower than 7.
        let seven = note
            .passed_over
            .iter()
            .find(|(id, _)| *id == PlayerId(7))
            .map(|(_, why)| why.clone());
        let want_seven = (choice == ByeChoice::LowestScoreNeverByed)
            .then_some(PassReason::AlreadyHadBye { byes: 1 });
        assert_eq!(seven, want_seven, "{choice:?}: {:?}", note.passed_over);
        let v = check_round(&e, &rules, &g, &plan.round);
        assert!(v.is_empty(), "{choice:?}: {v:?}");
        rounds.push(plan.round);
    }
    // 7's second bye breaks the default setting's hard rule, which the checker names.
    let (e, rules, g) = seven_after_three_rounds();
    let v = check_round(&e, &rules, &g, &rounds[1]);
    assert!(
        v.iter().any(|x| x.rule == Rule::SecondBye { byes: 1 }),
        "{v:?}"
    );
}

/// Eight players before round 3 (a state the simulator reached): in round 2 P8 (1 point)
/// floated down to P4 (0) and P3 (0) floated up to P1 (2).
fn eight_before_round_3() -> (Event, Rulebook, GroupId) {
    let game = |t, r, b, o| Pairing::Game {
        table: t,
        red: PlayerId(r),
        black: PlayerId(b),
        result: Some(GameResult::new(o)),
    };
    use Outcome::{BlackWin, Draw, RedWin};
    let rounds = [
        vec![
            game(1, 1, 5, RedWin),
            game(2, 7, 6, BlackWin),
            game(3, 2, 4, RedWin),
            game(4, 8, 3, Draw),
        ],
        vec![
            game(1, 6, 2, BlackWin),
            game(2, 3, 1, BlackWin),
            game(3, 4, 8, RedWin),
            game(4, 5, 7, BlackWin),
        ],
    ];
    let (mut e, rules, g) = event_with(8);
    // Pairing numbers of players 1..8, as the round-1 draw gave them.
    for (p, number) in e.players.iter_mut().zip([1, 5, 7, 6, 2, 3, 4, 8]) {
        p.number = Some(number);
    }
    for (k, pairings) in rounds.into_iter().enumerate() {
        e.group_mut(&g).rounds.push(Round {
            number: k as u32 + 1,
            pairings,
        });
    }
    (e, rules, g)
}

/// Who floats which way in `round`: (player, +1 down / −1 up), from the scores before it.
fn floats_in(e: &Event, rules: &Rulebook, g: &GroupId, round: &Round) -> Vec<(u32, i32)> {
    let before = scoring::totals(e, rules, g, round.number - 1);
    let mut out = Vec::new();
    for (r, b) in games(round) {
        let way = (before[&PlayerId(r)].0 - before[&PlayerId(b)].0).signum();
        if way != 0 {
            out.push((r, way));
            out.push((b, -way));
        }
    }
    out.sort_unstable();
    out
}

#[test]
fn nobody_floats_the_same_way_twice_when_another_pairing_is_as_good() {
    let (e, rules, g) = eight_before_round_3();
    let round2 = e.groups[&g].rounds[1].clone();
    let last = floats_in(&e, &rules, &g, &round2);
    assert!(
        last.contains(&(8, 1)) && last.contains(&(3, -1)),
        "{last:?}"
    );
    let plan = pair_next_round(&e, &rules, &g, 1).unwrap();
    assert!(check_round(&e, &rules, &g, &plan.round).is_empty());
    let now = floats_in(&e, &rules, &g, &plan.round);
    let repeats: Vec<_> = now.iter().filter(|f| last.contains(f)).collect();
    assert!(repeats.is_empty(), "{now:?} repeats {repeats:?}");
    // Without the criterion (every previous float forgotten) the engine floats 8 down and
    // 3 up again: the same scores, differences and colours, only the order decided.
    let ids: Vec<(u32, u32)> = qiwang::pairing::testing::pair_forgetting_floats(&e, &rules, &g, 3)
        .unwrap()
        .iter()
        .map(|&(a, b)| (a.0, b.0))
        .collect();
    let has = |x: u32, y: u32| ids.contains(&(x, y)) || ids.contains(&(y, x));
    assert!(has(8, 5) && has(6, 3), "{ids:?}");
    // Both pairings cost the same on every criterion above the new one.
    let oracle = Oracle::new(&e, &rules, &g, 3);
    let best = oracle.best().unwrap();
    assert_eq!(best.repeat, 0);
    assert_eq!(oracle.round_cost(&plan.round), best);
}
