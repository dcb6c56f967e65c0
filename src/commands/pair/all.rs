//! `pair --all` ([`pair_all`]): the next round of every pool that is ready, in one change
//! (one command, one `undo`), or on a dry run only shown. The pools are paired by
//! `pairing::pair_ready_pools`; here is what one pass did, gathered into the sheets, the
//! log's change and the refusals ([`AllPaired`]).

use super::{
    PairError, PairRequest, Refused, mark_dry_run, name_seed, record_seeds, seed_line, set_seeds,
    sheet,
};
use crate::model::{Event, GroupId};
use crate::pairing::{self, PairingError, PoolTurn, Turn, Waiting};
use crate::report::Report;
use crate::rulebook::Rulebook;
use crate::store::action::{Action, RefusedRound};
use crate::store::{Change, CommandInfo, Store};

/// What `pair --all` made.
#[derive(Debug)]
pub enum AllPaired {
    /// The event is finished: every pool waits for good (all rounds played, merged,
    /// cancelled, empty) and one has played all its rounds. Nothing was stored.
    Finished {
        /// Every pool, with why it waits.
        waiting: Vec<Waiting>,
    },
    /// At least one pool was paired or refused.
    Paired(PairedPools),
}

/// The pools `pair --all` paired (stored in one change, or on a dry run only shown),
/// those it left out, and those it found no legal pairing for.
#[derive(Debug)]
pub struct PairedPools {
    /// The sheet of every round paired, in rulebook order (marked as a dry run's).
    pub sheets: Vec<Report>,
    /// The pools not ready, each with why.
    pub waiting: Vec<Waiting>,
    /// The pools with no legal pairing: the command fails with these after the sheets
    /// (a round-1 draw's new seed is recorded, as a refused `pair` records it).
    pub refused: Vec<Refused>,
}

/// `qiwang pair --all`: the next round of every pool that is ready on the event in
/// `store` (read as `event`), each with its seed (`request.seed` for round-1 draws, new
/// ones from `draw`), stored as one change with every refused pool's new round-1 seed,
/// or on a dry run only shown (the new round-1 seeds, paired or refused, are recorded).
/// Nothing is stored when the event is finished; no pool ready and none refused is
/// [`PairError::NothingReady`].
pub fn pair_all(
    store: &Store,
    command: &CommandInfo,
    event: &Event,
    rules: &Rulebook,
    request: &PairRequest,
    draw: &mut dyn FnMut() -> u64,
) -> Result<AllPaired, PairError> {
    // Every ready pool's next round on `ev`: a copy for a dry run, the stored state
    // otherwise; the library decides which pools are ready and pairs them.
    let mut pass = |ev: &mut Event| -> Result<Pass, PairError> {
        let turns = pairing::pair_ready_pools(
            ev,
            rules,
            request.seed,
            draw,
            request.relax.as_deref(),
            request.allow_small,
        )?;
        let done = Pass::new(ev, rules, turns, request);
        if !done.finished && done.sheets.is_empty() && done.blocked.is_empty() {
            return Err(PairError::NothingReady(super::NothingReady {
                waiting: done.waiting,
            }));
        }
        Ok(done)
    };
    let done = if request.dry_run {
        let mut done = pass(&mut event.clone())?;
        if !done.finished {
            dry_run(store, command, event, request, &mut done)?;
        }
        done
    } else {
        store
            .transaction(command, |ev| {
                let done = pass(ev)?;
                Ok::<_, PairError>(stored(ev, done, request))
            })
            .map_err(PairError::from)?
    };
    if done.finished {
        return Ok(AllPaired::Finished {
            waiting: done.waiting,
        });
    }
    let refused = done
        .blocked
        .into_iter()
        .map(|b| Refused {
            error: b.error,
            relax: request.relax.clone(),
            recorded: b.drawn,
        })
        .collect();
    Ok(AllPaired::Paired(PairedPools {
        sheets: done.sheets,
        waiting: done.waiting,
        refused,
    }))
}

/// A dry run's pass `done` over a copy of `event`: its sheets marked as a dry run's, each
/// round-1 draw's seed named on its sheet, and every seed drawn now, paired or refused,
/// recorded (logged), so the next `pair --all` makes the same draws.
fn dry_run(
    store: &Store,
    command: &CommandInfo,
    event: &Event,
    request: &PairRequest,
    done: &mut Pass,
) -> Result<(), PairError> {
    let lang = request.lang;
    for report in &mut done.sheets {
        mark_dry_run(report, lang);
    }
    if !done.drawn.is_empty() {
        record_seeds(store, command, done.drawn.clone(), |seeds| {
            Action::seeds_recorded_change(seeds, ())
        })?;
    }
    for (report, (pool, round, s)) in done.sheets.iter_mut().zip(&done.paired) {
        if *round == 1 {
            let recorded = event.group(pool).and_then(|g| g.seed).is_some();
            let line = seed_line(*s, request.seed.is_some(), recorded);
            // As `pair --dry-run` of one pool gives it: the draw's seed, for scripts.
            name_seed(report, *s, &line, lang);
        }
    }
    Ok(())
}

/// The change a stored pass `done` makes to `ev`: nothing when the event is finished;
/// the refused pools' new round-1 seeds recorded in the same change as the rounds
/// paired (one command, one change, one `undo`), or alone when every ready pool refused.
fn stored(ev: &mut Event, done: Pass, request: &PairRequest) -> Change<Pass> {
    if done.finished {
        return Change::Unchanged(done);
    }
    let seeds: Vec<(GroupId, u64)> = done
        .blocked
        .iter()
        .filter_map(|b| b.drawn.map(|s| (b.pool.clone(), s)))
        .collect();
    if done.sheets.is_empty() {
        // Every ready pool refused: nothing to store but their seeds.
        if seeds.is_empty() {
            return Change::Unchanged(done);
        }
        set_seeds(ev, &seeds);
        return Action::seeds_recorded_change(seeds, done);
    }
    set_seeds(ev, &seeds);
    let refused = done
        .blocked
        .iter()
        .map(|b| RefusedRound {
            group: b.pool.clone(),
            round: b.round,
            seed: b.drawn,
        })
        .collect();
    let paired = done.paired.clone();
    Action::paired_pools_change(ev, &paired, refused, &seeds, request.relax.as_deref(), done)
}

/// What `pair --all` did in one pass over the pools.
struct Pass {
    sheets: Vec<Report>,
    /// Pools not paired, each with why (for the arbiter).
    waiting: Vec<Waiting>,
    /// Whether every pool waits for good ([`pairing::WaitReason::is_final`]) and one has
    /// played all its rounds: the event is finished.
    finished: bool,
    /// `(pool, round, seed)` of every pool paired, for the log.
    paired: Vec<(GroupId, u32, u64)>,
    /// Pools with no legal pairing: why, and a round-1 draw's newly drawn seed.
    blocked: Vec<Blocked>,
    /// Every round-1 seed drawn in this pass (not given, not recorded before), paired or
    /// refused.
    drawn: Vec<(GroupId, u64)>,
}

/// A pool `pair --all` found no legal pairing for.
struct Blocked {
    pool: GroupId,
    round: u32,
    error: PairingError,
    /// The round-1 draw's seed when it was drawn now (not given, not recorded): recorded,
    /// as a refused `pair` records it, so the next `pair` makes the same draw.
    drawn: Option<u64>,
}

impl Pass {
    /// The sheets and lists of one pass ([`pairing::pair_ready_pools`]) over `after`, the
    /// event with every ready pool paired.
    fn new(after: &Event, rules: &Rulebook, turns: Vec<PoolTurn>, request: &PairRequest) -> Pass {
        let mut done = Pass {
            sheets: Vec::new(),
            waiting: Vec::new(),
            finished: turns.iter().all(|t| match &t.turn {
                Turn::Waiting(w) => w.reason.is_final(),
                Turn::Paired { .. } | Turn::Blocked { .. } => false,
            }) && turns.iter().any(|t| {
                matches!(&t.turn, Turn::Waiting(w)
                    if matches!(w.reason, pairing::WaitReason::AllRoundsPlayed { .. }))
            }),
            paired: Vec::new(),
            blocked: Vec::new(),
            drawn: Vec::new(),
        };
        let (lang, json) = (request.lang, request.json);
        for PoolTurn { pool, turn, drawn } in turns {
            done.drawn.extend(drawn.map(|s| (pool.clone(), s)));
            match turn {
                Turn::Paired { plan, seed } => {
                    done.paired.push((pool.clone(), plan.round.number, seed));
                    let sheet = sheet(after, rules, &pool, &plan, request.explain, lang, json);
                    done.sheets.push(sheet);
                }
                Turn::Waiting(why) => done.waiting.push(why),
                Turn::Blocked { round, error } => done.blocked.push(Blocked {
                    pool,
                    round,
                    error,
                    drawn,
                }),
            }
        }
        done
    }
}
