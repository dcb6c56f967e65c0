//! A seeded random-tournament generator: players with units and ratings, every round
//! paired by [`pair_next_round`], random results written straight into the [`Event`]
//! (draws, forfeits, double forfeits), withdrawals and late entries.
//!
//! Used by the invariant tests, the benchmark and the demo. Deterministic: the same
//! config and seed always play the same event.

use super::context::{History, Rules};
use super::{PairingError, pair_next_round};
use crate::model::{
    Event, GameResult, GroupId, Outcome, Pairing, Player, PlayerId, PlayerStatus, Round,
};
use crate::rulebook::{
    ByeChoice, EqualColourTie, Round1Bye, Round1Colour, Round1Pairing, Rulebook, Seeding,
    TeamAvoidance, WithinGroup,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// What kind of event to play.
#[derive(Debug, Clone, PartialEq)]
pub struct SimConfig {
    /// Players registered before round 1.
    pub players: usize,
    /// Players who join later (each gets a `joined_round` of 2 or more).
    pub late_entries: usize,
    /// Units to spread players over; 0 = everyone plays as 个人.
    pub teams: usize,
    /// Chance (per cent) that a game is drawn.
    pub draw_percent: u32,
    /// Chance (per cent) that one side forfeits.
    pub forfeit_percent: u32,
    /// Chance (per cent) of a double forfeit (双负).
    pub double_forfeit_percent: u32,
    /// Chance (per mille) that an active player withdraws before each round after the first.
    pub withdraw_permille: u32,
    /// The rulebook; its pool `open` is used and `event.rounds` sets the length.
    pub rules: Rulebook,
}

impl SimConfig {
    /// A plain event under the CXA 2011 preset.
    pub fn new(players: usize, rounds: u32) -> SimConfig {
        SimConfig {
            players,
            late_entries: 0,
            teams: 0,
            draw_percent: 33,
            forfeit_percent: 3,
            double_forfeit_percent: 1,
            withdraw_permille: 10,
            rules: Rulebook::cxa_2011("模拟赛", rounds),
        }
    }

    /// A config with varied size, rules and incidents, drawn from `seed`.
    pub fn random(seed: u64, max_players: usize) -> SimConfig {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let players = rng.gen_range(2..=max_players.max(2));
        let rounds = rng
            .gen_range(1..=9u32)
            .min(players.saturating_sub(1).max(1) as u32 + 1);
        let mut cfg = SimConfig::new(players, rounds);
        cfg.late_entries = if rng.gen_bool(0.3) {
            rng.gen_range(0..=players / 5 + 1)
        } else {
            0
        };
        cfg.teams = if rng.gen_bool(0.5) {
            rng.gen_range(1..=players / 3 + 2)
        } else {
            0
        };
        cfg.draw_percent = rng.gen_range(20..=40);
        cfg.forfeit_percent = rng.gen_range(0..=6);
        cfg.double_forfeit_percent = rng.gen_range(0..=2);
        cfg.withdraw_permille = rng.gen_range(0..=40);
        let p = &mut cfg.rules.pairing;
        p.seeding = *[Seeding::RandomDraw, Seeding::RatingThenLot]
            .choose(&mut rng)
            .unwrap_or(&Seeding::RandomDraw);
        p.round1 = *[
            Round1Pairing::Adjacent,
            Round1Pairing::Halves,
            Round1Pairing::FoldFirstLast,
            Round1Pairing::Random,
        ]
        .choose(&mut rng)
        .unwrap_or(&Round1Pairing::Adjacent);
        p.round1_colour = *[
            Round1Colour::OddBoardLowerRed,
            Round1Colour::UpperHalfRed,
            Round1Colour::AllLowerRed,
            Round1Colour::AllHigherRed,
            Round1Colour::ByLot,
        ]
        .choose(&mut rng)
        .unwrap_or(&Round1Colour::OddBoardLowerRed);
        p.round1_bye = if rng.gen_bool(0.8) {
            Round1Bye::HighestNumber
        } else {
            Round1Bye::Lot
        };
        p.within_group = *[
            WithinGroup::AdjacentColourRows,
            WithinGroup::Adjacent,
            WithinGroup::FoldTopBottom,
        ]
        .choose(&mut rng)
        .unwrap_or(&WithinGroup::AdjacentColourRows);
        p.equal_colour_tie = if rng.gen_bool(0.5) {
            EqualColourTie::OddRoundLowerRed
        } else {
            EqualColourTie::NumberSumParity
        };
        p.team_avoidance = *[
            TeamAvoidance::Off,
            TeamAvoidance::Round1Only,
            TeamAvoidance::AllRounds,
        ]
        .choose(&mut rng)
        .unwrap_or(&TeamAvoidance::Round1Only);
        p.bye = if rng.gen_bool(0.5) {
            ByeChoice::LowestScoreNeverByed
        } else {
            ByeChoice::LowestScoreFewestByes
        };
        p.forfeit_counts_as_met = rng.gen_bool(0.8);
        let c = &mut cfg.rules.colours;
        c.max_streak = if rng.gen_bool(0.9) { Some(2) } else { None };
        c.max_diff = if rng.gen_bool(0.9) { Some(2) } else { None };
        c.relax_streak_last_round = rng.gen_bool(0.7);
        c.forfeit_counts = rng.gen_bool(0.8);
        c.bye_counts = rng.gen_bool(0.1);
        cfg
    }
}

/// A played (or stopped) event.
#[derive(Debug, Clone)]
pub struct SimulatedEvent {
    /// The event as played: players, every paired round and its random results.
    pub event: Event,
    /// The randomised rulebook it was played under, for re-checking every round.
    pub rules: Rulebook,
    /// The one pool the simulation plays (`open`).
    pub group: GroupId,
    /// Why play stopped before the last round (no legal pairing left), if it did.
    pub stopped: Option<PairingError>,
}

fn new_event(cfg: &SimConfig, rng: &mut ChaCha8Rng) -> (Event, GroupId) {
    let group = GroupId::new("open");
    let mut event = Event::new(String::new());
    let rounds = cfg.rules.event.rounds;
    for k in 0..cfg.players + cfg.late_entries {
        let id = PlayerId(k as u32 + 1);
        let mut p = Player::new(id, format!("棋手{}", k + 1), group.clone());
        p.unit = if cfg.teams == 0 || rng.gen_bool(0.2) {
            "个人".to_string()
        } else {
            format!("队{}", rng.gen_range(1..=cfg.teams))
        };
        p.rating = rng.gen_bool(0.7).then(|| rng.gen_range(1200..2600));
        if k >= cfg.players && rounds >= 2 {
            p.joined_round = rng.gen_range(2..=rounds);
        }
        event.players.push(p);
    }
    (event, group)
}

fn random_result(cfg: &SimConfig, rng: &mut ChaCha8Rng) -> GameResult {
    let roll = rng.gen_range(0..100);
    let f = cfg.forfeit_percent;
    let df = cfg.double_forfeit_percent;
    let outcome = if roll < df {
        Outcome::DoubleForfeit
    } else if roll < df + f {
        if rng.gen_bool(0.5) {
            Outcome::RedForfeit
        } else {
            Outcome::BlackForfeit
        }
    } else if roll < df + f + cfg.draw_percent {
        Outcome::Draw
    } else if rng.gen_bool(0.55) {
        Outcome::RedWin
    } else {
        Outcome::BlackWin
    };
    GameResult::new(outcome)
}

fn withdraw_some(cfg: &SimConfig, event: &mut Event, round: u32, rng: &mut ChaCha8Rng) {
    for p in &mut event.players {
        if p.pairable_in(round) && rng.gen_range(0..1000) < cfg.withdraw_permille {
            p.status = PlayerStatus::Withdrawn {
                from_round: round,
                cause: crate::model::WithdrawalCause::Manual { note: None },
            };
        }
    }
}

fn record_results(cfg: &SimConfig, round: &mut Round, rng: &mut ChaCha8Rng) {
    for p in &mut round.pairings {
        if let Pairing::Game { result, .. } = p {
            *result = Some(random_result(cfg, rng));
        }
    }
}

/// Plays a whole event: every round paired by the engine and filled with random results.
pub fn play_random_event(cfg: &SimConfig, seed: u64) -> SimulatedEvent {
    play_random_event_with(cfg, seed, crate::pairing::Solver::Priced)
}

/// [`play_random_event`] with an explicit matching strategy.
pub fn play_random_event_with(
    cfg: &SimConfig,
    seed: u64,
    solver: crate::pairing::Solver,
) -> SimulatedEvent {
    play_random_event_watched(cfg, seed, solver, &mut |_| {})
}

/// One round as [`play_random_event_watched`] paired it.
pub struct Paired<'a> {
    /// The round's number.
    pub round: u32,
    /// How long its pairing took.
    pub took: std::time::Duration,
    /// The event just before the round was paired.
    pub before: &'a Event,
    /// The pairing, or why there is none (the event stops there).
    pub plan: Result<&'a super::PairingPlan, &'a PairingError>,
}

/// [`play_random_event_with`], showing `watch` each round as it is paired: how long it
/// took (benchmarks of the states the engine itself makes) and the state and plan (tests
/// that compare the engine's own rounds with a reference on the very same state).
pub fn play_random_event_watched(
    cfg: &SimConfig,
    seed: u64,
    solver: crate::pairing::Solver,
    watch: &mut dyn FnMut(Paired<'_>),
) -> SimulatedEvent {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut event, group) = new_event(cfg, &mut rng);
    event.group_mut(&group).seed = Some(seed);
    let mut stopped = None;
    for r in 1..=cfg.rules.event.rounds {
        if r > 1 {
            withdraw_some(cfg, &mut event, r, &mut rng);
        }
        let round_seed = seed.wrapping_add(u64::from(r));
        let start = std::time::Instant::now();
        let paired =
            crate::pairing::pair_next_round_with(&event, &cfg.rules, &group, round_seed, solver);
        watch(Paired {
            round: r,
            took: start.elapsed(),
            before: &event,
            plan: paired.as_ref(),
        });
        match paired {
            Ok(mut plan) => {
                record_results(cfg, &mut plan.round, &mut rng);
                plan.apply(&mut event, &group, seed);
            }
            Err(e) => {
                stopped = Some(e);
                break;
            }
        }
    }
    SimulatedEvent {
        event,
        rules: cfg.rules.clone(),
        group,
        stopped,
    }
}

/// A mid-event state built fast for benchmarks: round 1 by the engine, then `played − 1`
/// rounds paired greedily down the standings (legal pairs first), with random results.
/// Round `played + 1` is left for the engine to pair.
pub fn synthetic_mid_event(players: usize, played: u32, rounds: u32, seed: u64) -> SimulatedEvent {
    let mut cfg = SimConfig::new(players, rounds);
    cfg.withdraw_permille = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut event, group) = new_event(&cfg, &mut rng);
    for r in 1..=played {
        let mut round = if r == 1 {
            match pair_next_round(&event, &cfg.rules, &group, seed) {
                Ok(plan) => {
                    for &(id, n) in &plan.numbers {
                        if let Some(p) = event.player_mut(id) {
                            p.number = Some(n);
                        }
                    }
                    plan.round
                }
                Err(e) => {
                    return SimulatedEvent {
                        event,
                        rules: cfg.rules,
                        group,
                        stopped: Some(e),
                    };
                }
            }
        } else {
            greedy_round(&event, &cfg.rules, &group, r)
        };
        record_results(&cfg, &mut round, &mut rng);
        event.group_mut(&group).rounds.push(round);
    }
    SimulatedEvent {
        event,
        rules: cfg.rules,
        group,
        stopped: None,
    }
}

fn greedy_round(event: &Event, rules: &Rulebook, group: &GroupId, r: u32) -> Round {
    let history = History::build(event, rules, group, r, &BTreeMap::new());
    let ctx = Rules {
        rules,
        round: r,
        final_round: history.final_round,
        total_rounds: rules.rounds_for(group),
    };
    let mut order: Vec<_> = history
        .players
        .values()
        .filter(|s| event.player(s.id).is_some_and(|p| p.pairable_in(r)))
        .collect();
    order.sort_by_key(|s| (std::cmp::Reverse(s.score), s.number));
    let mut pairings = Vec::new();
    if order.len() % 2 == 1 {
        let at = order
            .iter()
            .rposition(|s| s.byes == 0)
            .unwrap_or(order.len() - 1);
        pairings.push(Pairing::Bye {
            player: order.remove(at).id,
        });
    }
    let mut used = vec![false; order.len()];
    let mut table = 1;
    for i in 0..order.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let j = (i + 1..order.len())
            .find(|&j| !used[j] && ctx.legal(order[i], order[j]))
            .or_else(|| (i + 1..order.len()).find(|&j| !used[j]));
        if let Some(j) = j {
            used[j] = true;
            let (a_red, _) = ctx.decide_red(order[i], order[j]);
            let (red, black) = if a_red { (i, j) } else { (j, i) };
            pairings.push(Pairing::Game {
                table,
                red: order[red].id,
                black: order[black].id,
                result: None,
            });
            table += 1;
        }
    }
    Round {
        number: r,
        pairings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn withdrawn_and_late_players_follow_their_rounds() {
        let mut cfg = SimConfig::new(30, 7);
        cfg.late_entries = 5;
        cfg.withdraw_permille = 60;
        let sim = play_random_event(&cfg, 3);
        let rounds = &sim.event.groups[&sim.group].rounds;
        assert_eq!(rounds.len(), 7, "{:?}", sim.stopped);
        for r in rounds {
            for p in &sim.event.players {
                assert_eq!(
                    r.pairing_of(p.id).is_some(),
                    p.pairable_in(r.number),
                    "round {} player {}",
                    r.number,
                    p.id
                );
            }
        }
        assert!(
            sim.event
                .players
                .iter()
                .any(crate::model::Player::is_withdrawn)
        );
        assert!(sim.event.players.iter().any(|p| p.joined_round > 1));
        assert!(
            sim.event
                .players
                .iter()
                .all(|p| p.number.is_some() || !p.pairable_in(7))
        );
    }

    #[test]
    fn same_seed_same_event() {
        let cfg = SimConfig::random(5, 40);
        assert_eq!(
            play_random_event(&cfg, 5).event,
            play_random_event(&cfg, 5).event
        );
        let mid = synthetic_mid_event(50, 3, 9, 1);
        assert_eq!(mid.event.groups[&mid.group].rounds.len(), 3);
    }
}
