//! What one pass of `pair --all` over the pools did, gathered for the sheets, the log and
//! the refusals ([`AllPaired`]).

use super::sheet;
use qiwang::i18n::Localize;
use qiwang::model::{Event, GroupId};
use qiwang::pairing::{self, PairingError, PoolTurn, Turn};
use qiwang::report::{Json, Report};
use qiwang::rulebook::{Lang, Rulebook};

/// What `pair --all` did in one pass over the pools.
pub(super) struct AllPaired {
    pub(super) sheets: Vec<Report>,
    /// Pools not paired, each with why (for the arbiter).
    pub(super) waiting: Vec<String>,
    /// Whether every pool waits for good ([`pairing::WaitReason::is_final`]) and one has
    /// played all its rounds: the event is finished.
    pub(super) finished: bool,
    /// `(pool, round, seed)` of every pool paired, for the log.
    pub(super) paired: Vec<(GroupId, u32, u64)>,
    /// Pools with no legal pairing: why, and a round-1 draw's newly drawn seed.
    pub(super) blocked: Vec<Blocked>,
    /// Every round-1 seed drawn in this pass (not given, not recorded before), paired or
    /// refused.
    pub(super) drawn: Vec<(GroupId, u64)>,
}

/// A pool `pair --all` found no legal pairing for.
pub(super) struct Blocked {
    pub(super) pool: GroupId,
    pub(super) round: u32,
    pub(super) error: PairingError,
    /// The round-1 draw's seed when it was drawn now (not given, not recorded): recorded,
    /// as a refused `pair` records it, so the next `pair` makes the same draw.
    pub(super) drawn: Option<u64>,
}

impl AllPaired {
    /// The sheets and lists of one pass ([`pairing::pair_ready_pools`]) over `after`, the
    /// event with every ready pool paired.
    pub(super) fn new(
        after: &Event,
        rules: &Rulebook,
        turns: Vec<PoolTurn>,
        explain: bool,
        lang: Lang,
        json: Json,
    ) -> AllPaired {
        let mut done = AllPaired {
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
        for PoolTurn { pool, turn, drawn } in turns {
            done.drawn.extend(drawn.map(|s| (pool.clone(), s)));
            match turn {
                Turn::Paired { plan, seed } => {
                    done.paired.push((pool.clone(), plan.round.number, seed));
                    let sheet = sheet(after, rules, &pool, &plan, explain, lang, json);
                    done.sheets.push(sheet);
                }
                Turn::Waiting(why) => done.waiting.push(why.localize(lang)),
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
