//! A pool's next round as `pair` and `pair --all` make it: which seed it is paired with,
//! whether the pool is ready for it, and the plan stored on the event.
//!
//! Owns the seed policy (docs/rules.md §2.2: a given seed only for the round-1 draw, a
//! recorded one after it, else a new one) and `pair --all`'s decision per pool (merged,
//! empty, under-size, waiting for results, finished, blocked or paired). Pure: a new seed
//! comes from the caller's `draw`, never from a global RNG or the clock, and nothing here
//! renders a sheet or touches the event directory.

use super::{PairingError, PairingPlan, pair_next_round};
use crate::i18n::{Localize, bi, number_ranges, plural};
use crate::model::{Event, GroupId, Relax};
use crate::registration::{GroupError, check_pool_size};
use crate::rulebook::{Lang, Rulebook};

/// The seed a pool's next round is paired with ([`pool_seed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSeed {
    /// The seed to pair with.
    pub seed: u64,
    /// Drawn now for the pool's round-1 draw (none given, none recorded): it is recorded
    /// even when the draw is refused, so the next `pair` makes the same draw.
    pub drawn: bool,
}

/// The seed of `pool`'s next round: `given` for the round-1 draw (it replaces one a dry
/// run recorded), else the recorded one, else `given`, else a new one from `draw`.
pub fn pool_seed(
    event: &Event,
    pool: &GroupId,
    given: Option<u64>,
    draw: &mut dyn FnMut() -> u64,
) -> PoolSeed {
    let (played, recorded) = seed_history(event, pool);
    seed_of(played, recorded, given, draw)
}

/// Whether `pool` has a round paired, and the seed it recorded.
fn seed_history(event: &Event, pool: &GroupId) -> (bool, Option<u64>) {
    let group = event.group(pool);
    (
        group.is_some_and(|g| !g.rounds.is_empty()),
        group.and_then(|g| g.seed),
    )
}

/// [`pool_seed`]'s choice for a pool that has `played` a round and `recorded` a seed.
fn seed_of(
    played: bool,
    recorded: Option<u64>,
    given: Option<u64>,
    draw: &mut dyn FnMut() -> u64,
) -> PoolSeed {
    let seed = match (given, recorded) {
        (Some(s), _) if !played => s,
        (_, Some(s)) | (Some(s), None) => s,
        (None, None) => draw(),
    };
    PoolSeed {
        seed,
        drawn: given.is_none() && recorded.is_none() && !played,
    }
}

/// Why `pair` refuses a pool's next round before pairing it ([`pool_turn`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnError {
    /// A seed was given for a pool past its round-1 draw: later rounds use the seed
    /// recorded then.
    SeedAfterFirstRound,
    /// The pool may not be paired now: under its minimum size, cancelled or merged.
    Pool(GroupError),
}

crate::i18n::display_english!(TurnError);

impl std::error::Error for TurnError {}

impl Localize for TurnError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            TurnError::SeedAfterFirstRound => lang
                .pick(
                    "`--seed` 只用于第 1 轮抽签；之后各轮使用当时记录的种子",
                    "`--seed` only applies to the round-1 draw; later rounds use the seed recorded then",
                )
                .to_string(),
            TurnError::Pool(e) => e.localize(lang),
        }
    }
}

/// `pool`'s next round as `pair` asks for it, checked before any pairing: a seed `given`
/// only for the round-1 draw, the pool's size and state ([`check_pool_size`]; round 1 of
/// an under-size pool only with `allow_small`). Returns the seed to pair with
/// ([`pool_seed`], a new one from `draw`).
pub fn pool_turn(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    given: Option<u64>,
    allow_small: bool,
    draw: &mut dyn FnMut() -> u64,
) -> Result<PoolSeed, TurnError> {
    let (played, recorded) = seed_history(event, pool);
    check_seed(played, given)?;
    // Dongguan 九: an under-size pool is merged or cancelled, or paired only on request.
    check_pool_size(event, rules, pool, allow_small).map_err(TurnError::Pool)?;
    Ok(seed_of(played, recorded, given, draw))
}

/// A seed may be given only for the round-1 draw (docs/rules.md §2.2).
fn check_seed(played: bool, given: Option<u64>) -> Result<(), TurnError> {
    if given.is_some() && played {
        return Err(TurnError::SeedAfterFirstRound);
    }
    Ok(())
}

/// [`pool_turn`]'s seed check and [`pool_seed`]'s choice for a pool whose rounds are kept
/// outside `Event::groups` (a team competition's `Event::team_pools`): a seed `given`
/// only while no round is `played`, else the `recorded` one, else a new one from `draw`.
pub fn seed_turn(
    played: bool,
    recorded: Option<u64>,
    given: Option<u64>,
    draw: &mut dyn FnMut() -> u64,
) -> Result<PoolSeed, TurnError> {
    check_seed(played, given)?;
    Ok(seed_of(played, recorded, given, draw))
}

/// Pairs the next round of `pool` on `event` with `seed` and stores it: a round-1 seed
/// becomes the pool's (a given one replaces one a dry run recorded), and the `--relax`
/// list given for the round is noted with it. Nothing changes on an error.
pub fn pair_pool(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    seed: u64,
    relax: Option<&[Relax]>,
) -> Result<PairingPlan, PairingError> {
    let plan = pair_next_round(event, rules, pool, seed)?;
    if plan.round.number == 1 {
        event.group_mut(pool).seed = Some(seed);
    }
    plan.apply(event, pool, seed);
    event
        .group_mut(pool)
        .note_relax_given(plan.round.number, relax);
    Ok(plan)
}

/// Why `pair --all` leaves a pool out this time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitReason {
    /// The pool was merged into another (its display name).
    Merged {
        /// The pool it was merged into, as the rulebook names it.
        into: String,
    },
    /// Nobody is registered in the pool.
    NoPlayers,
    /// An under-size pool waits to be merged or cancelled (Dongguan 九).
    TooSmall(GroupError),
    /// The last round still has tables without a result.
    RoundIncomplete {
        /// The unfinished round.
        round: u32,
        /// Its tables without a result.
        missing: Vec<u32>,
    },
    /// Every round the rulebook sets has been paired.
    AllRoundsPlayed {
        /// The rulebook's number of rounds.
        rounds: u32,
    },
    /// Nobody in the pool can play the round.
    NobodyPairable {
        /// The round to pair.
        round: u32,
    },
}

impl WaitReason {
    /// Whether the pool will never be paired again: every round played (with its results,
    /// which are checked first), merged into another, cancelled or empty. When every pool
    /// is so, the event's pairing is finished and `pair --all` has nothing left to do.
    pub fn is_final(&self) -> bool {
        match self {
            WaitReason::AllRoundsPlayed { .. } | WaitReason::Merged { .. } => true,
            WaitReason::NoPlayers => true,
            WaitReason::TooSmall(e) => matches!(e, GroupError::Cancelled { .. }),
            WaitReason::RoundIncomplete { .. } | WaitReason::NobodyPairable { .. } => false,
        }
    }
}

/// A pool `pair --all` leaves out, with why, as the arbiter reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// The pool as the rulebook names it.
    pub group: String,
    /// Why it waits.
    pub reason: WaitReason,
}

impl Localize for Waiting {
    fn localize(&self, lang: Lang) -> String {
        let group = &self.group;
        match &self.reason {
            WaitReason::Merged { into } => {
                bi!(
                    lang,
                    zh("{group}：已并入{into}"),
                    en("{group}: merged into {into}")
                )
            }
            WaitReason::NoPlayers => bi!(lang, zh("{group}：没有棋手"), en("{group}: no players")),
            WaitReason::TooSmall(e) => {
                format!("{group}{}{}", lang.pick("：", ": "), e.localize(lang))
            }
            WaitReason::RoundIncomplete { round, missing } => {
                let tables = number_ranges(missing, lang);
                bi!(
                    lang,
                    zh(
                        "{group}：第{round}轮还有 {} 台没有成绩（第 {tables} 台），请先用 `qiwang result` 录入",
                        missing.len()
                    ),
                    en(
                        "{group}: round {round} still has {} without a result ({tables}); enter them with `qiwang result`",
                        plural(missing.len(), "table", "tables")
                    ),
                )
            }
            WaitReason::AllRoundsPlayed { rounds } => bi!(
                lang,
                zh("{group}：全部 {rounds} 轮已编排"),
                en("{group}: all {rounds} rounds are paired")
            ),
            WaitReason::NobodyPairable { round } => bi!(
                lang,
                zh("{group}：第{round}轮没有可编排的棋手"),
                en("{group}: nobody can be paired in round {round}")
            ),
        }
    }
}

/// What `pair --all` did with one pool.
#[derive(Debug, Clone)]
pub enum Turn {
    /// The round was paired and stored on the event, with this seed.
    Paired {
        /// The round paired.
        plan: Box<PairingPlan>,
        /// The seed it was paired with.
        seed: u64,
    },
    /// The pool is not ready.
    Waiting(Waiting),
    /// No legal pairing exists for the round (the others are still paired).
    Blocked {
        /// The round refused.
        round: u32,
        /// The refusal, with who blocks it.
        error: PairingError,
    },
}

/// One pool of a `pair --all` pass.
#[derive(Debug, Clone)]
pub struct PoolTurn {
    /// The pool.
    pub pool: GroupId,
    /// What happened to it.
    pub turn: Turn,
    /// A round-1 seed drawn now ([`PoolSeed::drawn`]), paired or not: a dry run records
    /// it, and a refused draw keeps it, so the next `pair --all` makes the same draw.
    pub drawn: Option<u64>,
}

/// `pair --all`: pairs the next round of every pool that is ready, in rulebook order, on
/// `event`, each with its [`pool_seed`] (`given` for round-1 draws, new ones from
/// `draw`). A pool merged, empty, under-size (unless `allow_small`), waiting for results,
/// finished or without pairable players is [`Turn::Waiting`]; one without a legal
/// pairing is [`Turn::Blocked`] and the others are still paired. Any other refusal ends
/// the pass with that error.
pub fn pair_ready_pools(
    event: &mut Event,
    rules: &Rulebook,
    given: Option<u64>,
    draw: &mut dyn FnMut() -> u64,
    relax: Option<&[Relax]>,
    allow_small: bool,
) -> Result<Vec<PoolTurn>, PairingError> {
    let name = |id: &GroupId| rules.group_name(id);
    let pools: Vec<GroupId> = rules.pools().map(|g| g.id.clone()).collect();
    let mut turns = Vec::with_capacity(pools.len());
    for pool in pools {
        let waiting = |reason| {
            Turn::Waiting(Waiting {
                group: name(&pool),
                reason,
            })
        };
        let mut drawn = None;
        let turn = if let Some(into) = event.group(&pool).and_then(|g| g.merged_into.clone()) {
            waiting(WaitReason::Merged { into: name(&into) })
        } else if event.players_in(&pool).next().is_none() {
            waiting(WaitReason::NoPlayers)
        } else if let Some(e) = (event.group(&pool).is_none_or(|g| g.rounds.is_empty()))
            .then(|| check_pool_size(event, rules, &pool, allow_small).err())
            .flatten()
        {
            // Dongguan 九: an under-size pool waits to be merged or cancelled.
            waiting(WaitReason::TooSmall(e))
        } else {
            // The seed is fixed here so that a refused round-1 draw can be recorded.
            let chosen = pool_seed(event, &pool, given, draw);
            drawn = chosen.drawn.then_some(chosen.seed);
            match pair_pool(event, rules, &pool, chosen.seed, relax) {
                Ok(plan) => Turn::Paired {
                    plan: Box::new(plan),
                    seed: chosen.seed,
                },
                Err(PairingError::RoundIncomplete { round, missing, .. }) => {
                    waiting(WaitReason::RoundIncomplete { round, missing })
                }
                Err(PairingError::AllRoundsPlayed { rounds, .. }) => {
                    waiting(WaitReason::AllRoundsPlayed { rounds })
                }
                Err(PairingError::KnockoutFinished { .. }) => {
                    let rounds = event.group(&pool).map_or(0, |g| g.rounds.len() as u32);
                    waiting(WaitReason::AllRoundsPlayed { rounds })
                }
                Err(PairingError::NoPlayers { round, .. }) => {
                    waiting(WaitReason::NobodyPairable { round })
                }
                Err(error @ PairingError::NoLegalPairing { round, .. }) => {
                    Turn::Blocked { round, error }
                }
                Err(e) => return Err(e),
            }
        };
        turns.push(PoolTurn { pool, turn, drawn });
    }
    Ok(turns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::facts::assert_localized;
    use crate::model::Pairing;
    use crate::pairing::simulate::synthetic_mid_event;

    /// docs/rules.md §2.2, case by case: a given seed wins only before round 1, a recorded
    /// one after it, and `draw` is asked only when neither exists.
    #[test]
    fn the_seed_comes_from_the_arbiter_the_record_or_a_new_draw() {
        let sim = synthetic_mid_event(10, 1, 5, 4);
        let pool = sim.group.clone();
        let fresh = |event: &Event, given| {
            let mut asked = 0;
            let chosen = pool_seed(event, &pool, given, &mut || {
                asked += 1;
                77
            });
            (chosen, asked)
        };
        let mut before = sim.event.clone();
        before.group_mut(&pool).rounds.clear();
        before.group_mut(&pool).seed = None;
        let mut recorded_before = before.clone();
        recorded_before.group_mut(&pool).seed = Some(5);
        let mut later = sim.event.clone();
        later.group_mut(&pool).seed = Some(9);
        let mut later_unrecorded = sim.event.clone();
        later_unrecorded.group_mut(&pool).seed = None;
        let drawn = |seed| PoolSeed { seed, drawn: true };
        let kept = |seed| PoolSeed { seed, drawn: false };
        let cases = [
            (&before, None, drawn(77), 1),
            (&before, Some(3), kept(3), 0),
            (&recorded_before, None, kept(5), 0),
            (&recorded_before, Some(3), kept(3), 0),
            (&later, Some(3), kept(9), 0),
            (&later, None, kept(9), 0),
            (&later_unrecorded, Some(3), kept(3), 0),
            (&later_unrecorded, None, kept(77), 1),
        ];
        for (k, (event, given, want, asked)) in cases.into_iter().enumerate() {
            assert_eq!(fresh(event, given), (want, asked), "case {k}");
        }
    }

    /// A pool whose round 1 is complete is paired and stored; the same pool with one
    /// table of round 1 still open waits with that table named, and nothing changes.
    #[test]
    fn pair_all_pairs_a_ready_pool_and_names_why_one_waits() {
        let sim = synthetic_mid_event(12, 1, 5, 8);
        let pool = sim.group.clone();
        let mut ready = sim.event.clone();
        let turns =
            pair_ready_pools(&mut ready, &sim.rules, None, &mut || 1, None, false).expect("pairs");
        let [turn] = &turns[..] else {
            panic!("one pool: {turns:?}")
        };
        assert!(matches!(&turn.turn, Turn::Paired { plan, .. } if plan.round.number == 2));
        assert_eq!(turn.drawn, None, "round 1 recorded its seed");
        assert_eq!(ready.group(&pool).unwrap().rounds.len(), 2, "stored");

        let mut open = sim.event.clone();
        let round = open.group_mut(&pool).rounds.last_mut().unwrap();
        let table = round
            .pairings
            .iter_mut()
            .find_map(|p| match p {
                Pairing::Game { table, result, .. } => {
                    *result = None;
                    Some(*table)
                }
                Pairing::Bye { .. } => None,
            })
            .unwrap();
        let before = open.clone();
        let turns =
            pair_ready_pools(&mut open, &sim.rules, None, &mut || 1, None, false).expect("waits");
        let Turn::Waiting(w) = &turns[0].turn else {
            panic!("{:?}", turns[0].turn)
        };
        assert_eq!(
            w.reason,
            WaitReason::RoundIncomplete {
                round: 1,
                missing: vec![table]
            }
        );
        assert_eq!(open, before, "nothing changes");
        assert_localized(w);
    }

    #[test]
    fn every_waiting_reason_has_chinese_with_the_same_values() {
        let reasons = [
            WaitReason::Merged {
                into: "adult".into(),
            },
            WaitReason::NoPlayers,
            WaitReason::RoundIncomplete {
                round: 3,
                missing: vec![2, 14],
            },
            WaitReason::AllRoundsPlayed { rounds: 9 },
            WaitReason::NobodyPairable { round: 4 },
        ];
        for reason in reasons {
            assert_localized(&Waiting {
                group: "youth".into(),
                reason,
            });
        }
    }
}
