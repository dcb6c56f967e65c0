//! The Swiss pairing engine (积分编排): round 1 by draw or rating, later rounds as one
//! optimisation, the checker for stored or hand-edited rounds, manual edits and taking
//! back an unplayed round (`unpair.rs`).
//!
//! Owns deciding who plays whom, with which colour, and who gets the bye, per docs/rules.md
//! §2–§4; explaining those decisions; and verifying rounds against the hard rules. Pure:
//! reads the event and the rulebook, never files, the clock, a global RNG or the
//! terminal. The same state and seed always give the same pairing.

mod berger;
mod knockout;
// The reference solvers in blossom.rs (`max_weight_matching` and its kin) are kept for
// the tests that compare the engine's solver with them.
#[cfg_attr(not(test), allow(dead_code))]
mod blossom;
mod check;
mod context;
mod edit;
mod engine;
mod error;
mod explain;
mod feasible;
mod fold;
mod hall;
mod heap;
mod optimal;
mod round1;
#[cfg(any(test, feature = "testing"))]
mod simulate;
mod stage;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
mod turn;
mod unpair;
mod vocabulary;
mod wide;

pub use check::{
    Checked, Rule, Violation, check_group, check_group_detailed, check_round, prune_relaxations,
    rules_in_force,
};
pub use context::ColourStep;
pub use edit::{Edit, EditError, Edited, edit_round, set_pairing, swap_players};
pub use engine::{Criteria, Criterion, Solver};
pub use error::{BlockReason, Blocker, PairingError};
pub use explain::{
    ByeNote, ByeReason, ColourNote, Explanation, FloatNote, FloatReason, PassReason, RelaxOrder,
    Round1Note, TableNote, relax_rule_label, relaxation_lines,
};
pub use hall::{Clash, clashes, first_table};
pub use knockout::{KnockoutNote, game_name, round_name};
pub use optimal::{Better, Verdict, corrected_since, prove_round};
pub use turn::{
    PoolSeed, PoolTurn, Turn, TurnError, WaitReason, Waiting, pair_pool, pair_ready_pools,
    pool_seed, pool_turn, seed_turn,
};
pub use unpair::unpair_round;
pub use vocabulary::Vocabulary;

use crate::i18n::{Localize, bi, number_ranges};
use crate::model::{Colour, Event, GroupId, Pairing, Player, PlayerId, Relax, Relaxation, Round};
use crate::rulebook::{Lang, Rulebook, Seeding};
use context::{History, PlayerState, Rules};
use engine::Field;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// A proposed round with the numbers to assign and the reasons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingPlan {
    /// Tables ordered by the higher score, then the lower score, then numbers; bye last.
    pub round: Round,
    /// Pairing numbers to store: the round-1 draw, or late entries' next free numbers.
    pub numbers: Vec<(PlayerId, u32)>,
    /// Why each float, colour and the bye were chosen, as `pair --explain` prints it.
    pub explanation: Explanation,
    /// The hard rules broken for want of a legal pairing, table by table (docs/rules.md
    /// §2.5); stored with the round so `check` accepts them. Empty in a strict round.
    pub relaxed: Vec<Relaxation>,
    /// The finalists of a final stage in seed order, drawn as its first round is paired
    /// (docs/rules.md §16.6); stored with the round.
    pub stage_seeds: Option<Vec<PlayerId>>,
}

impl PairingPlan {
    /// Stores the plan in the event: the pairing numbers, the new round, and `seed` as the
    /// pool's seed if none was recorded yet (so the draw and every lot can be reproduced).
    pub fn apply(&self, event: &mut Event, group: &GroupId, seed: u64) {
        for &(id, number) in &self.numbers {
            if let Some(p) = event.player_mut(id) {
                p.number = Some(number);
            }
        }
        let state = event.group_mut(group);
        state.seed.get_or_insert(seed);
        state.rounds.push(self.round.clone());
        state.forget_relaxations(self.round.number);
        state.relaxed.extend(self.relaxed.iter().cloned());
        if let Some(seeds) = &self.stage_seeds {
            state.stage_seeds.clone_from(seeds);
        }
    }
}

/// Pairs round (last round + 1) of `group` (docs/rules.md §2–§4).
pub fn pair_next_round(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    seed: u64,
) -> Result<PairingPlan, PairingError> {
    pair_next_round_with(event, rules, group, seed, Solver::Priced)
}

/// [`pair_next_round`] with an explicit matching strategy (tests and benchmarks).
pub fn pair_next_round_with(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    seed: u64,
    solver: Solver,
) -> Result<PairingPlan, PairingError> {
    let last = event
        .group(group)
        .and_then(|g| g.rounds.iter().max_by_key(|r| r.number));
    if let Some(r) = last
        && !r.is_complete()
    {
        let mut missing: Vec<u32> = r.open_tables().collect();
        missing.sort_unstable();
        return Err(PairingError::RoundIncomplete {
            group: group.clone(),
            round: r.number,
            missing,
        });
    }
    let next = last.map_or(1, |r| r.number + 1);
    // Every format's tables are numbered on in the hall (docs/rules.md §12).
    let hall_numbers = |mut plan: PairingPlan| {
        hall::number(event, rules, group, &mut plan.round, &mut plan.explanation);
        plan
    };
    if rules.is_knockout(group) || rules.knockout_stage_after(group).is_some_and(|s| next > s) {
        return knockout::pair(event, rules, group, next, seed).map(hall_numbers);
    }
    if rules
        .round_robin_stage_after(group)
        .is_some_and(|s| next > s)
    {
        return stage::pair(event, rules, group, next).map(hall_numbers);
    }
    let total = crate::schedule::rounds_of(event, rules, group);
    if next > total {
        return Err(PairingError::AllRoundsPlayed {
            group: group.clone(),
            rounds: total,
            round_robin: rules.is_round_robin(group),
        });
    }
    if rules.is_round_robin(group) {
        return berger::pair(event, rules, group, next, seed).map(hall_numbers);
    }
    let pairable: Vec<_> = event
        .players_in(group)
        .filter(|p| p.pairable_in(next))
        .collect();
    if pairable.is_empty() {
        return Err(PairingError::NoPlayers {
            group: group.clone(),
            round: next,
        });
    }
    let numbers = assign_numbers(event, rules, group, next, seed)?;
    let history = History::build(event, rules, group, next, &numbers);
    let (states, ctx) = pairing_input(&pairable, rules, group, next, &history);
    let name = |id: PlayerId| {
        event
            .player(id)
            .map_or_else(|| id.to_string(), |p| p.shown_name().into_owned())
    };
    let (round, mut explanation) = if next == 1 {
        round1::pair(&ctx, states, seed, &name).map_err(|blocking| {
            PairingError::NoLegalPairing {
                group: group.clone(),
                round: next,
                blocking,
            }
        })?
    } else {
        let field = Field::new(ctx, states);
        match engine::pair_field(&field, solver) {
            Ok(m) => build_round(&field, &m),
            Err(stuck) if stuck.too_wide => {
                return Err(PairingError::too_wide(&field, group, next));
            }
            Err(stuck) => {
                return Err(PairingError::NoLegalPairing {
                    group: group.clone(),
                    round: next,
                    blocking: blockers(&field, &stuck.unmatched, &name),
                });
            }
        }
    };
    let relaxed = relaxations(&ctx, &history.players, &round);
    explanation.relaxed = relaxed.clone();
    let mut round = round;
    hall::number(event, rules, group, &mut round, &mut explanation);
    if let Some(r1) = explanation.round1.as_mut() {
        r1.seeding = seeding_of(rules, group);
    }
    let mut numbers: Vec<(PlayerId, u32)> = numbers.into_iter().collect();
    numbers.sort_by_key(|(id, n)| (*n, *id));
    Ok(PairingPlan {
        round,
        numbers,
        explanation,
        relaxed,
        stage_seeds: None,
    })
}

/// The breaks of the rulebook's relaxable rules in a round the engine made, table by
/// table, in `pairing.relax` order. A round paired under the strict rules has none (the
/// rules not listed are never broken), so this is empty unless the round needed them.
fn relaxations(
    ctx: &Rules,
    players: &BTreeMap<PlayerId, PlayerState>,
    round: &Round,
) -> Vec<Relaxation> {
    let mut out = Vec::new();
    for p in &round.pairings {
        let Pairing::Game { red, black, .. } = p else {
            continue;
        };
        let (Some(r), Some(b)) = (players.get(red), players.get(black)) else {
            continue;
        };
        for &rule in &ctx.rules.pairing.relax {
            let mut add = |who: Vec<PlayerId>| {
                out.push(Relaxation {
                    round: round.number,
                    rule,
                    players: who,
                });
            };
            match rule {
                Relax::Rematch if r.has_met(b.id) => add(vec![r.id, b.id]),
                Relax::Team if ctx.team_conflict(r, b) => add(vec![r.id, b.id]),
                Relax::Colour => {
                    for (s, c) in [(r, Colour::Red), (b, Colour::Black)] {
                        if ctx.colour_breaks(s, c) > 0 {
                            add(vec![s.id]);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The states of the `pairable` players before round `next` (from `history`), and the
/// rules they are paired under.
fn pairing_input<'a>(
    pairable: &[&Player],
    rules: &'a Rulebook,
    group: &GroupId,
    next: u32,
    history: &History,
) -> (Vec<PlayerState>, Rules<'a>) {
    let states = pairable
        .iter()
        .map(|p| history.players[&p.id].clone())
        .collect();
    let ctx = Rules {
        rules,
        round: next,
        final_round: history.final_round,
        total_rounds: rules.rounds_for(group),
    };
    (states, ctx)
}

/// Numbers for pairable players that have none: the round-1 draw (docs/rules.md §2.2), or the
/// next free numbers for late entries in registration order.
/// How the pool's pairing numbers are given: the group's `seeding`, else the rulebook's.
fn seeding_of(rules: &Rulebook, group: &GroupId) -> Seeding {
    rules
        .group(group)
        .and_then(|g| g.format.seeding)
        .unwrap_or(rules.pairing.seeding)
}

/// Pairing numbers for the players of `group` who have none and can play `round`: in
/// round 1 by the pool's seeding (lot, rating then lot, or the registration sheet's 序号,
/// refused with every gap and repeat named), later the next free numbers.
fn assign_numbers(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    round: u32,
    seed: u64,
) -> Result<BTreeMap<PlayerId, u32>, PairingError> {
    let free = event
        .players_in(group)
        .filter_map(|p| p.number)
        .max()
        .unwrap_or(0)
        .saturating_add(1);
    let mut todo: Vec<_> = event
        .players_in(group)
        .filter(|p| p.number.is_none() && p.pairable_in(round))
        .collect();
    todo.sort_by_key(|p| p.id);
    if round == 1 {
        match seeding_of(rules, group) {
            Seeding::Sheet => return sheet_numbers(event, group, &todo),
            Seeding::RandomDraw => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                todo.shuffle(&mut rng);
            }
            Seeding::RatingThenLot => {
                // 1999 appendix (S4): rated players by rating, the unrated after them by lot.
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                todo.shuffle(&mut rng);
                todo.sort_by_key(|p| std::cmp::Reverse(p.rating.map(|r| (1, r)).unwrap_or((0, 0))));
            }
        }
    }
    Ok(todo
        .into_iter()
        .zip(free..)
        .map(|(p, n)| (p.id, n))
        .collect())
}

/// `seeding = "sheet"`: the registration sheet's 序号 as pairing numbers, which must be
/// exactly 1..=n over the players of round 1 (docs/rules.md §2.2).
fn sheet_numbers(
    event: &Event,
    group: &GroupId,
    todo: &[&Player],
) -> Result<BTreeMap<PlayerId, u32>, PairingError> {
    let n = u32::try_from(todo.len()).unwrap_or(u32::MAX);
    let mut by_number: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for p in todo {
        match p.sheet_number {
            Some(k) => by_number
                .entry(k)
                .or_default()
                .push(p.shown_name().into_owned()),
            None => problems.push(SheetNumberProblem::Missing {
                player: event.player_label(p.id),
            }),
        }
    }
    for (&number, names) in &by_number {
        if names.len() > 1 {
            problems.push(SheetNumberProblem::Repeated {
                number,
                players: names.clone(),
            });
        }
        if number > n {
            problems.push(SheetNumberProblem::TooHigh {
                number,
                player: names[0].clone(),
                players: n,
            });
        }
    }
    let gaps: Vec<u32> = (1..=n).filter(|k| !by_number.contains_key(k)).collect();
    if !gaps.is_empty()
        && problems
            .iter()
            .all(|p| !matches!(p, SheetNumberProblem::Missing { .. }))
    {
        problems.push(SheetNumberProblem::Gaps { numbers: gaps });
    }
    if !problems.is_empty() {
        return Err(PairingError::SheetNumbers {
            group: group.clone(),
            problems,
        });
    }
    Ok(todo
        .iter()
        .filter_map(|p| p.sheet_number.map(|k| (p.id, k)))
        .collect())
}

/// What is wrong with the 序号 column a pool's pairing numbers are taken from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SheetNumberProblem {
    /// The player's 序号 cell was empty or not a whole number.
    Missing {
        /// The player as the sheets name them.
        player: String,
    },
    /// Two or more players have the same 序号.
    Repeated {
        /// The number.
        number: u32,
        /// The players who have it.
        players: Vec<String>,
    },
    /// A 序号 above the number of players.
    TooHigh {
        /// The number.
        number: u32,
        /// The player who has it.
        player: String,
        /// The number of players to number.
        players: u32,
    },
    /// Numbers of 1..=n nobody has.
    Gaps {
        /// The missing numbers.
        numbers: Vec<u32>,
    },
}

impl Localize for SheetNumberProblem {
    fn localize(&self, lang: Lang) -> String {
        match self {
            SheetNumberProblem::Missing { player } => bi!(
                lang,
                zh("{player} 的序号栏不是整数或为空"),
                en("{player} has no whole number in the 序号 column"),
            ),
            SheetNumberProblem::Repeated { number, players } => bi!(
                lang,
                zh("序号 {number} 重复：{}", players.join("、")),
                en("序号 {number} is given to {}", players.join(", ")),
            ),
            SheetNumberProblem::TooHigh {
                number,
                player,
                players,
            } => bi!(
                lang,
                zh("{player} 的序号 {number} 超过了参赛人数 {players}"),
                en("{player}'s 序号 {number} is above the {players} players to number"),
            ),
            SheetNumberProblem::Gaps { numbers } => bi!(
                lang,
                zh("没有棋手的序号是 {}", number_ranges(numbers, lang)),
                en("nobody has 序号 {}", number_ranges(numbers, lang)),
            ),
        }
    }
}

pub(crate) fn blockers(
    field: &Field,
    unmatched: &[usize],
    name: &dyn Fn(PlayerId) -> String,
) -> Vec<Blocker> {
    let r = &field.rules;
    // As the sheets name a player: `张三(12)`, with the pairing number once there is one.
    let label = |p: &PlayerState| match p.number {
        0 => name(p.id),
        n => format!("{}({n})", name(p.id)),
    };
    // The most hemmed-in first: players with the fewest possible opponents are the
    // likeliest cause (three who can only meet the same two).
    let mut out: Vec<(usize, Blocker)> = unmatched
        .iter()
        .map(|&u| {
            let me = &field.players[u];
            let (mut met, mut colour, mut team) = (0, 0, 0);
            let mut candidates = Vec::new();
            let mut labels = Vec::new();
            for (j, other) in field.players.iter().enumerate() {
                if j == u {
                    continue;
                }
                if me.has_met(other.id) {
                    met += 1;
                } else if r.team_conflict(me, other) {
                    team += 1;
                } else if !r.colours_compatible(me, other) {
                    colour += 1;
                } else {
                    candidates.push(other.id);
                    labels.push(label(other));
                }
            }
            let open = candidates.len();
            let reason = if candidates.is_empty() {
                BlockReason::NoOpponent { met, colour, team }
            } else {
                BlockReason::OpponentsTaken {
                    candidates,
                    labels,
                    met,
                    colour,
                    team,
                }
            };
            let blocker = Blocker {
                player: me.id,
                name: label(me),
                reason,
            };
            (open, blocker)
        })
        .collect();
    out.sort_by_key(|(open, _)| *open);
    out.into_iter().map(|(_, b)| b).collect()
}

/// Turns matched indices into a round: colours by §3.3, tables by score (S15 ZLtaicis).
fn build_round(field: &Field, m: &engine::Matched) -> (Round, Explanation) {
    let p = &field.players;
    let mut tables: Vec<(usize, usize, ColourStep)> = m
        .pairs
        .iter()
        .map(|&(a, b)| {
            let (a_red, step) = field.rules.decide_red(&p[a], &p[b]);
            if a_red { (a, b, step) } else { (b, a, step) }
        })
        .collect();
    tables.sort_by_key(|&(r, b, _)| {
        let (hi, lo) = (p[r].score.max(p[b].score), p[r].score.min(p[b].score));
        (
            std::cmp::Reverse(hi),
            std::cmp::Reverse(lo),
            p[r].number.min(p[b].number),
        )
    });
    let mut pairings = Vec::new();
    let mut colours = Vec::new();
    for (t, &(r, b, step)) in tables.iter().enumerate() {
        let table = t as u32 + 1;
        pairings.push(Pairing::Game {
            table,
            red: p[r].id,
            black: p[b].id,
            result: None,
        });
        colours.push(ColourNote {
            table,
            red: p[r].id,
            black: p[b].id,
            step,
        });
    }
    if let Some(b) = m.bye {
        pairings.push(Pairing::Bye { player: p[b].id });
    }
    let explanation = Explanation {
        round: field.rules.round,
        round1: None,
        floats: explain::floats(field, m),
        colours,
        bye: m.bye.map(|b| explain::bye_note(field, m, b)),
        relaxed: Vec::new(),
        table: None,
        knockout: None,
    };
    (
        Round {
            number: field.rules.round,
            pairings,
        },
        explanation,
    )
}

#[cfg(test)]
mod localize_tests {
    use super::*;
    use crate::i18n::facts::assert_localized;

    #[test]
    fn every_pairing_error_has_chinese_with_the_same_values() {
        let g = || GroupId::new("adult");
        let blockers = vec![
            Blocker {
                player: PlayerId(7),
                name: "甲".into(),
                reason: BlockReason::NoOpponent {
                    met: 5,
                    colour: 2,
                    team: 1,
                },
            },
            Blocker {
                player: PlayerId(8),
                name: "乙".into(),
                reason: BlockReason::OpponentsTaken {
                    candidates: vec![PlayerId(9), PlayerId(10)],
                    labels: vec!["丙(9)".into(), "丁(10)".into()],
                    met: 4,
                    colour: 3,
                    team: 0,
                },
            },
        ];
        for b in &blockers {
            assert_localized(b);
        }
        let errors = [
            PairingError::RoundIncomplete {
                group: g(),
                round: 3,
                missing: vec![2, 14],
            },
            PairingError::AllRoundsPlayed {
                group: g(),
                rounds: 9,
                round_robin: false,
            },
            PairingError::AllRoundsPlayed {
                group: g(),
                rounds: 7,
                round_robin: true,
            },
            PairingError::NoPlayers {
                group: g(),
                round: 1,
            },
            PairingError::NoLegalPairing {
                group: g(),
                round: 6,
                blocking: blockers,
            },
            PairingError::PlayerNotInRound {
                player: PlayerId(7),
                round: 2,
            },
            PairingError::SamePlayer {
                player: PlayerId(7),
            },
            PairingError::TableZero,
            PairingError::KnockoutFinished {
                group: g(),
                champion: "张三(1)".into(),
            },
            PairingError::NotInField {
                group: g(),
                players: vec!["王五".into()],
            },
            PairingError::QualificationTie {
                group: g(),
                players: vec!["张三(7)".into(), "李四(9)".into()],
            },
            PairingError::KnockoutStray {
                group: g(),
                round: 4,
                table: 2,
            },
            PairingError::NothingToUnpair { group: g() },
            PairingError::RoundHasResults {
                group: g(),
                round: 3,
            },
            PairingError::SheetNumbers {
                group: g(),
                problems: vec![
                    SheetNumberProblem::Missing {
                        player: "张三".into(),
                    },
                    SheetNumberProblem::Repeated {
                        number: 3,
                        players: vec!["李四".into(), "王五".into()],
                    },
                    SheetNumberProblem::TooHigh {
                        number: 12,
                        player: "赵六".into(),
                        players: 8,
                    },
                    SheetNumberProblem::Gaps {
                        numbers: vec![4, 5, 7],
                    },
                ],
            },
            PairingError::CriteriaTooWide {
                group: g(),
                round: 9,
                players: 100_000,
                score_groups: 41,
            },
        ];
        for e in &errors {
            assert_localized(e);
        }
    }
}
