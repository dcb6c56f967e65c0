//! A group's size against its minimum before round 1 (Dongguan 九: 报名人数不足10人的组别，
//! 将取消该组别比赛): pairing an under-size pool is refused unless the arbiter says so,
//! and a pool with nowhere to merge into can be cancelled.
//!
//! Owns a group's size, merge and cancellation: `sizes.rs` counts the players of each
//! group, `merge.rs` merges a small group into another pool, this file checks a pool's size
//! before pairing, decides where a `merge_into` can still go ([`merge_target`]: a pool
//! with nowhere left to go is cancelled like one with none) and cancels a pool.

mod merge;
mod placement;
mod sizes;

use crate::i18n::{Localize, bi, display_english};
use crate::model::{Event, GroupId, PlayerId, PlayerStatus, WithdrawalCause};
use crate::rulebook::{Lang, Rulebook};
pub(crate) use merge::section_labels;
pub use merge::{MergeError, MergeReport, merge_group};
pub use placement::{
    Placed, PoolNow, Stranded, cancelled_pools, check_reinstate, merged_note, merged_pools,
    place_entries, place_entry, pool_now, stranded_players,
};
pub use sizes::{GroupNow, GroupSize, Undersized, group_size, group_sizes, undersized_groups};
use thiserror::Error;

/// The entries into one group that takes no entries ([`GroupError::EntryCancelled`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CancelledEntry {
    /// The group entered, as the rulebook names it.
    pub group: String,
    /// The cancelled group (the one entered, or the pool it was merged into).
    pub cancelled: String,
    /// The players refused, by name.
    pub players: Vec<String>,
}

impl CancelledEntry {
    /// Why the group takes no entries (「女子组已取消」), as this refusal and an import
    /// row's (`registration/row.rs`) say it.
    pub(crate) fn why(&self, lang: Lang) -> String {
        let CancelledEntry {
            group, cancelled, ..
        } = self;
        if group == cancelled {
            bi!(lang, zh("{group}已取消"), en("{group} has been cancelled"))
        } else {
            bi!(
                lang,
                zh("{group}已并入{cancelled}，而{cancelled}已取消"),
                en("{group} was merged into {cancelled}, which has been cancelled")
            )
        }
    }
}

/// Whether a pool's `merge_into` can still be followed on the event ([`merge_target`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeTarget {
    /// The rulebook names no pool to merge it into.
    None,
    /// It can: into this pool, the one `merge_into` names or, when that one was merged on,
    /// the pool at the end of its chain of merges (where its players went). It has no
    /// round yet.
    Open(GroupId),
    /// It cannot: the pool `merge_into` leads to was cancelled or already has rounds, and
    /// a merge is made before round 1 into a pool that plays.
    Closed {
        /// That pool, as the rulebook names it.
        name: String,
        /// Whether it was cancelled (else it has `rounds`).
        cancelled: bool,
        /// Its rounds paired.
        rounds: usize,
    },
}

impl MergeTarget {
    /// Why the merge cannot be made, as a clause (「成人组已取消」); empty for a target
    /// that can take it.
    fn closed_clause(&self, lang: Lang) -> String {
        match self {
            MergeTarget::Closed {
                name,
                cancelled: true,
                ..
            } => bi!(lang, zh("{name}已取消"), en("{name} has been cancelled")),
            MergeTarget::Closed { name, rounds, .. } => bi!(
                lang,
                zh("{name}已编排 {rounds} 轮"),
                en(
                    "{name} already has {}",
                    crate::i18n::plural(rounds, "round", "rounds")
                )
            ),
            MergeTarget::None | MergeTarget::Open(_) => String::new(),
        }
    }
}

/// Where the rulebook's `merge_into` of `pool` can take it now (docs/rules.md §6): along
/// the target's chain of merges to its end, and nowhere once that pool was cancelled or
/// paired. A chain that comes back to `pool` itself leaves nothing to merge into.
pub fn merge_target(event: &Event, rules: &Rulebook, pool: &GroupId) -> MergeTarget {
    let Some(target) = rules.group(pool).and_then(|g| g.merge_into.as_ref()) else {
        return MergeTarget::None;
    };
    let name = |g: &GroupId| rules.group_name(g);
    match pool_now(event, target) {
        PoolNow::Cancelled(gone) => MergeTarget::Closed {
            name: name(&gone),
            cancelled: true,
            rounds: 0,
        },
        PoolNow::Pairs(now) if &now == pool => MergeTarget::None,
        PoolNow::Pairs(now) => match event.group(&now).map_or(0, |g| g.rounds.len()) {
            0 => MergeTarget::Open(now),
            rounds => MergeTarget::Closed {
                name: name(&now),
                cancelled: false,
                rounds,
            },
        },
    }
}

/// Why a group cannot be paired or cancelled; nothing is changed when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GroupError {
    /// The group has fewer registered players than its `min_size`.
    BelowMinimum {
        /// The group's id.
        group: GroupId,
        /// The regulation's name of the group.
        name: String,
        /// Players registered in it.
        count: usize,
        /// The `min_size` the rulebook sets.
        min: u32,
        /// Where the rulebook's `merge_into` can take it, for the hint.
        merge_into: MergeTarget,
    },

    /// Round 1 of a pool while a group the rulebook merges into it (`merge_into`) is below
    /// its minimum and neither merged nor cancelled yet: once this pool has a round, that
    /// merge can no longer be made (docs/rules.md §6).
    MergePending {
        /// The short group's id.
        group: GroupId,
        /// The short group's name.
        name: String,
        /// Players registered in it.
        count: usize,
        /// Its `min_size`.
        min: u32,
        /// The pool being paired, its id.
        into: GroupId,
        /// The pool being paired, its name.
        into_name: String,
    },

    /// No group of the rulebook has this id, name or alias.
    UnknownGroup {
        /// The name as given.
        group: String,
    },

    /// A section was named where a pool is needed.
    NotAPool {
        /// The section's name.
        name: String,
        /// The pool it is paired in.
        pool: GroupId,
    },

    /// `group cancel` of a group the rulebook merges into a pool that can still take it
    /// (`merge_into`, [`MergeTarget::Open`]): the regulation says merge, not cancel.
    HasMergeTarget {
        /// The group's id.
        group: GroupId,
        /// The regulation's name of the group.
        name: String,
        /// The pool it would be merged into.
        into: GroupId,
    },

    /// The group already has rounds.
    AlreadyPaired {
        /// The group's name.
        name: String,
        /// How many.
        rounds: usize,
    },

    /// The group was merged into another pool.
    Merged {
        /// The group's name.
        name: String,
        /// The pool it was merged into, as the rulebook names it.
        into: String,
    },

    /// An entry (`player add`, `player edit --group`, an import row) into a group that
    /// was cancelled, or merged into one that was: nobody there is ever paired.
    EntryCancelled {
        /// Each group entered that takes no entries, with the players refused there: an
        /// import names every player refused, whichever group they entered.
        entries: Vec<CancelledEntry>,
    },

    /// `player edit --group` moving a registered player into a group that takes no
    /// entries ([`GroupError::EntryCancelled`]'s one entry): the player stays where they
    /// are.
    MoveCancelled {
        /// The group entered, why it takes no entries, and the player refused.
        entry: CancelledEntry,
    },

    /// `player reinstate` of a player whose group was cancelled.
    ReinstateCancelled {
        /// The player's name.
        player: String,
        /// The player's id, for the command that moves them (a name may have namesakes).
        id: crate::model::PlayerId,
        /// The cancelled group, as the rulebook names it.
        group: String,
    },

    /// The group was cancelled.
    Cancelled {
        /// The group's name.
        name: String,
    },

    /// `group cancel` without `--force` on a group that is not below a minimum: the
    /// regulation gives no ground to cancel it (Dongguan 九 cancels only an under-size one).
    NotBelowMinimum {
        /// The group's id.
        group: GroupId,
        /// The regulation's name of the group.
        name: String,
        /// Players registered in it.
        count: usize,
        /// The `min_size` the rulebook sets, if any.
        min: Option<u32>,
    },
}

display_english!(GroupError);

impl Localize for GroupError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            GroupError::BelowMinimum {
                group,
                name,
                count,
                min,
                merge_into: MergeTarget::Open(into),
            } => bi!(
                lang,
                zh(
                    "{name}只有 {count} 名棋手，不足最低人数 {min}：请按规程合并（`qiwang group merge {group} {into}`），或用 `--allow-small` 照常编排"
                ),
                en(
                    "{name} has {}, below its minimum of {min}: merge it as the rulebook says (`qiwang group merge {group} {into}`), or pair it anyway with `--allow-small`",
                    crate::i18n::plural(count, "player", "players")
                ),
            ),
            GroupError::BelowMinimum {
                group,
                name,
                count,
                min,
                merge_into: closed @ MergeTarget::Closed { .. },
            } => {
                let closed = closed.closed_clause(lang);
                bi!(
                    lang,
                    zh(
                        "{name}只有 {count} 名棋手，不足最低人数 {min}；规程规定它并入的{closed}，不能再合并：请取消（`qiwang group cancel {group}`）、另行合并（`qiwang group merge {group} INTO --force`），或用 `--allow-small` 照常编排"
                    ),
                    en(
                        "{name} has {}, below its minimum of {min}, and the pool the rulebook merges it into can no longer take it ({closed}): cancel it (`qiwang group cancel {group}`), merge it elsewhere (`qiwang group merge {group} INTO --force`), or pair it anyway with `--allow-small`",
                        crate::i18n::plural(count, "player", "players")
                    ),
                )
            }
            GroupError::BelowMinimum {
                group,
                name,
                count,
                min,
                merge_into: MergeTarget::None,
            } => bi!(
                lang,
                zh(
                    "{name}只有 {count} 名棋手，不足最低人数 {min}：请合并（`qiwang group merge {group} INTO`）、取消（`qiwang group cancel {group}`），或用 `--allow-small` 照常编排"
                ),
                en(
                    "{name} has {}, below its minimum of {min}: merge it (`qiwang group merge {group} INTO`), cancel it (`qiwang group cancel {group}`), or pair it anyway with `--allow-small`",
                    crate::i18n::plural(count, "player", "players")
                ),
            ),
            GroupError::MergePending {
                group,
                name,
                count,
                min,
                into,
                into_name,
            } => bi!(
                lang,
                zh(
                    "{name}只有 {count} 名棋手，不足最低人数 {min}，按规程并入{into_name}：{into_name}第 1 轮编排之后就不能再合并，请先合并（`qiwang group merge {group} {into}`）或取消{name}，或用 `--allow-small` 照常编排{into_name}"
                ),
                en(
                    "{name} has {}, below its minimum of {min}, and the rulebook merges it into {into_name}: once {into_name} has round 1 it can no longer be merged, so merge it first (`qiwang group merge {group} {into}`), cancel it, or pair {into_name} anyway with `--allow-small`",
                    crate::i18n::plural(count, "player", "players")
                ),
            ),
            GroupError::UnknownGroup { group } => bi!(
                lang,
                zh("规程中没有组别 `{group}`"),
                en("no group `{group}` in the rulebook"),
            ),
            GroupError::NotAPool { name, pool } => bi!(
                lang,
                zh("{name}是组别 `{pool}` 的分组，不单独编排"),
                en(
                    "{name} is a section of group `{pool}`, not a pool: it is not paired on its own"
                ),
            ),
            GroupError::HasMergeTarget { group, name, into } => bi!(
                lang,
                zh(
                    "规程为{name}设置了 `merge_into = \"{into}\"`：请用 `qiwang group merge {group} {into}` 合并"
                ),
                en(
                    "{name} has `merge_into = \"{into}\"` in the rulebook: merge it with `qiwang group merge {group} {into}` instead"
                ),
            ),
            GroupError::AlreadyPaired { name, rounds } => bi!(
                lang,
                zh("{name}已编排 {rounds} 轮：只能在第 1 轮之前取消组别"),
                en(
                    "{name} has already been paired ({}): a group is cancelled before round 1",
                    crate::i18n::plural(rounds, "round", "rounds")
                ),
            ),
            GroupError::Merged { name, into } => bi!(
                lang,
                zh("{name}已并入{into}，不能再取消：其棋手在{into}中编排"),
                en(
                    "{name} was already merged into {into}, so it cannot be cancelled: its players are paired in {into}"
                ),
            ),
            GroupError::MoveCancelled { entry } => {
                let why = entry.why(lang);
                let names = entry.players.join(lang.pick("、", ", "));
                bi!(
                    lang,
                    zh("{why}，不再接受报名：{names} 仍在原组别，未做任何修改；请改报其他组别"),
                    en(
                        "{why} and takes no entries: {names} stays in their group; nothing was changed; choose another group"
                    ),
                )
            }
            GroupError::EntryCancelled { entries } => {
                let each: Vec<String> = entries
                    .iter()
                    .map(|entry| {
                        let names = entry.players.join(lang.pick("、", ", "));
                        let why = entry.why(lang);
                        bi!(
                            lang,
                            zh("{why}，不再接受报名：{names} 未登记"),
                            en("{why} and takes no entries: {names} not registered"),
                        )
                    })
                    .collect();
                let each = each.join(lang.pick("；", "; "));
                bi!(
                    lang,
                    zh("{each}；请为其改报其他组别，未做任何修改"),
                    en("{each}; enter them in another group; nothing was changed"),
                )
            }
            GroupError::ReinstateCancelled { player, id, group } => bi!(
                lang,
                zh(
                    "{player} 所在的{group}已取消，恢复参赛后也不会被编排：请先用 `qiwang player edit {id} --group GROUP` 改报其他组别，再恢复参赛；未做任何修改"
                ),
                en(
                    "{player}'s group {group} has been cancelled, so a reinstated {player} would never be paired: enter them in another group first (`qiwang player edit {id} --group GROUP`), then reinstate; nothing was changed"
                ),
            ),
            GroupError::Cancelled { name } => bi!(
                lang,
                zh("{name}已取消：其棋手已退赛，不再编排"),
                en("{name} has been cancelled: its players are withdrawn and it is not paired"),
            ),
            GroupError::NotBelowMinimum {
                group,
                name,
                count,
                min: Some(min),
            } => bi!(
                lang,
                zh(
                    "{name}有 {count} 名棋手，已达到最低人数 {min}：规程只取消人数不足的组别，未做任何修改；如仍要取消（其棋手全部退赛），请用 `qiwang group cancel {group} --force`"
                ),
                en(
                    "{name} has {}, which meets its minimum of {min}: the regulation cancels only a group below its minimum, so nothing was changed; to cancel it all the same (its players are withdrawn), run `qiwang group cancel {group} --force`",
                    crate::i18n::plural(count, "player", "players")
                ),
            ),
            GroupError::NotBelowMinimum {
                group,
                name,
                count,
                min: None,
            } => bi!(
                lang,
                zh(
                    "{name}有 {count} 名棋手，规程没有为它规定最低人数（`min_size`），未做任何修改；如仍要取消（其棋手全部退赛），请用 `qiwang group cancel {group} --force`"
                ),
                en(
                    "{name} has {} and the rulebook sets no minimum for it (`min_size`), so nothing was changed; to cancel it all the same (its players are withdrawn), run `qiwang group cancel {group} --force`",
                    crate::i18n::plural(count, "player", "players")
                ),
            ),
        }
    }
}

/// Whether round 1 of `pool` may be paired: refused while the pool has fewer players than
/// its `min_size` (counted as `group sizes` counts), or while a short group the rulebook
/// merges into it is neither merged nor cancelled (after round 1 it could not be), unless
/// `allow_small`. Later rounds, a cancelled pool and a merged one are checked too.
pub fn check_pool_size(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    allow_small: bool,
) -> Result<(), GroupError> {
    let Some(rule) = rules.group(pool) else {
        return Err(GroupError::UnknownGroup {
            group: pool.to_string(),
        });
    };
    if let Some(state) = event.group(pool) {
        if state.cancelled {
            return Err(GroupError::Cancelled {
                name: rule.name.clone(),
            });
        }
        if !state.rounds.is_empty() {
            return Ok(());
        }
    }
    if allow_small {
        return Ok(());
    }
    let size = group_size(rules, &event.players, pool);
    if let Some(s) = size.filter(GroupSize::is_short) {
        return Err(GroupError::BelowMinimum {
            group: pool.clone(),
            name: rule.name.clone(),
            count: s.count,
            min: s.minimum(),
            merge_into: merge_target(event, rules, pool),
        });
    }
    // A short group that the rulebook merges into this pool (directly, or into a pool
    // merged into this one) must be merged (or cancelled) before this pool's round 1, or
    // the merge can never be made. A group nobody entered has nothing to merge.
    for short in rules.pools().filter(|g| g.id != *pool) {
        if merge_target(event, rules, &short.id) != MergeTarget::Open(pool.clone()) {
            continue;
        }
        let settled = event
            .group(&short.id)
            .is_some_and(|g| g.cancelled || g.merged_into.is_some() || !g.rounds.is_empty());
        if settled {
            continue;
        }
        if let Some(s) =
            group_size(rules, &event.players, &short.id).filter(|s| s.is_short() && s.count > 0)
        {
            return Err(GroupError::MergePending {
                group: short.id.clone(),
                name: short.name.clone(),
                count: s.count,
                min: s.minimum(),
                into: pool.clone(),
                into_name: rule.name.clone(),
            });
        }
    }
    Ok(())
}

/// `qiwang group cancel G [--force]`: a pool with no `merge_into` it can still follow
/// ([`merge_target`]: none, or one leading to a pool cancelled or already paired) is
/// cancelled before round 1. Its players are withdrawn from round 1 (cause
/// `GroupCancelled`) and the pool is never paired. A pool that is not below its `min_size`
/// (or has none) is cancelled only with `force`. Returns the players, in registration
/// order.
pub fn cancel_group(
    event: &mut Event,
    rules: &Rulebook,
    name: &str,
    force: bool,
) -> Result<Vec<PlayerId>, GroupError> {
    let rule = rules
        .find_group(name)
        .ok_or_else(|| GroupError::UnknownGroup {
            group: name.to_string(),
        })?;
    if let Some(pool) = &rule.pairs_with {
        return Err(GroupError::NotAPool {
            name: rule.name.clone(),
            pool: pool.clone(),
        });
    }
    // Already merged comes first: the rulebook's `merge_into` hint would ask for a merge
    // that is done.
    if let Some(into) = event.group(&rule.id).and_then(|g| g.merged_into.as_ref()) {
        return Err(GroupError::Merged {
            name: rule.name.clone(),
            into: rules.group_name(into),
        });
    }
    // A `merge_into` that can no longer be followed leaves the group to be cancelled, as
    // one with none.
    if let MergeTarget::Open(into) = merge_target(event, rules, &rule.id) {
        return Err(GroupError::HasMergeTarget {
            group: rule.id.clone(),
            name: rule.name.clone(),
            into,
        });
    }
    if let Some(state) = event.group(&rule.id) {
        if state.cancelled {
            return Err(GroupError::Cancelled {
                name: rule.name.clone(),
            });
        }
        if !state.rounds.is_empty() {
            return Err(GroupError::AlreadyPaired {
                name: rule.name.clone(),
                rounds: state.rounds.len(),
            });
        }
    }
    if !force {
        let size = group_size(rules, &event.players, &rule.id);
        if let Some(s) = size.filter(|s| !s.is_short()) {
            return Err(GroupError::NotBelowMinimum {
                group: rule.id.clone(),
                name: rule.name.clone(),
                count: s.count,
                min: s.min_size,
            });
        }
    }
    let mut players = Vec::new();
    for p in event.players.iter_mut().filter(|p| p.group == rule.id) {
        if matches!(p.status, PlayerStatus::Active) {
            p.status = PlayerStatus::Withdrawn {
                from_round: 1,
                cause: WithdrawalCause::GroupCancelled,
            };
        }
        players.push(p.id);
    }
    event.group_mut(&rule.id).cancelled = true;
    Ok(players)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Player, Round};

    fn setup(n: u32, min: u32) -> (Event, Rulebook, GroupId) {
        let mut rules = Rulebook::cxa_2011("t", 5);
        rules.groups[0].min_size = Some(min);
        let pool = rules.groups[0].id.clone();
        let mut event = Event::new(String::new());
        for i in 1..=n {
            event
                .players
                .push(Player::new(PlayerId(i), format!("p{i}"), pool.clone()));
        }
        (event, rules, pool)
    }

    #[test]
    fn an_under_size_pool_is_paired_only_when_allowed() {
        let (event, rules, pool) = setup(5, 10);
        let err = check_pool_size(&event, &rules, &pool, false).unwrap_err();
        assert!(matches!(
            err,
            GroupError::BelowMinimum {
                count: 5,
                min: 10,
                ..
            }
        ));
        assert!(err.to_string().contains("--allow-small"), "{err}");
        assert_eq!(check_pool_size(&event, &rules, &pool, true), Ok(()));
        let (event, rules, pool) = setup(10, 10);
        assert_eq!(check_pool_size(&event, &rules, &pool, false), Ok(()));
    }

    #[test]
    fn cancelling_withdraws_the_players_and_stops_pairing() {
        let (mut event, rules, pool) = setup(3, 10);
        let before = event.clone();
        let mut with_target = rules.clone();
        with_target.groups[0].merge_into = Some(GroupId::new("elsewhere"));
        assert!(matches!(
            cancel_group(&mut event, &with_target, pool.as_str(), false),
            Err(GroupError::HasMergeTarget { .. })
        ));
        assert_eq!(event, before);
        let players = cancel_group(&mut event, &rules, pool.as_str(), false).unwrap();
        assert_eq!(players, vec![PlayerId(1), PlayerId(2), PlayerId(3)]);
        assert!(event.players.iter().all(|p| !p.pairable_in(1)));
        assert!(matches!(
            check_pool_size(&event, &rules, &pool, true),
            Err(GroupError::Cancelled { .. })
        ));
        // A pool already paired is not cancelled.
        let (mut event, rules, pool) = setup(3, 10);
        event.group_mut(&pool).rounds.push(Round {
            number: 1,
            pairings: Vec::new(),
        });
        assert!(matches!(
            cancel_group(&mut event, &rules, pool.as_str(), true),
            Err(GroupError::AlreadyPaired { rounds: 1, .. })
        ));
    }

    #[test]
    fn a_group_at_its_minimum_is_cancelled_only_with_force() {
        let (mut event, rules, pool) = setup(10, 10);
        let before = event.clone();
        let err = cancel_group(&mut event, &rules, pool.as_str(), false).unwrap_err();
        assert_eq!(
            err,
            GroupError::NotBelowMinimum {
                group: pool.clone(),
                name: rules.groups[0].name.clone(),
                count: 10,
                min: Some(10),
            }
        );
        assert!(err.to_string().contains("--force"), "{err}");
        assert!(
            err.localize(Lang::Zh).contains("已达到最低人数 10"),
            "{err}"
        );
        assert_eq!(event, before);
        // No minimum at all: no ground to cancel either.
        let mut no_min = rules.clone();
        no_min.groups[0].min_size = None;
        assert!(matches!(
            cancel_group(&mut event, &no_min, pool.as_str(), false),
            Err(GroupError::NotBelowMinimum { min: None, .. })
        ));
        assert_eq!(event, before);
        assert_eq!(
            cancel_group(&mut event, &rules, pool.as_str(), true)
                .unwrap()
                .len(),
            10
        );
    }

    #[test]
    fn every_message_has_chinese() {
        use crate::i18n::facts::assert_localized;
        let g = GroupId::new("kids");
        let all = [
            GroupError::BelowMinimum {
                group: g.clone(),
                name: "儿童组".into(),
                count: 5,
                min: 10,
                merge_into: MergeTarget::None,
            },
            GroupError::BelowMinimum {
                group: g.clone(),
                name: "儿童组".into(),
                count: 5,
                min: 10,
                merge_into: MergeTarget::Open(GroupId::new("king")),
            },
            GroupError::BelowMinimum {
                group: g.clone(),
                name: "儿童组".into(),
                count: 5,
                min: 10,
                merge_into: MergeTarget::Closed {
                    name: "棋王组".into(),
                    cancelled: true,
                    rounds: 0,
                },
            },
            GroupError::BelowMinimum {
                group: g.clone(),
                name: "儿童组".into(),
                count: 5,
                min: 10,
                merge_into: MergeTarget::Closed {
                    name: "棋王组".into(),
                    cancelled: false,
                    rounds: 2,
                },
            },
            GroupError::UnknownGroup { group: "x".into() },
            GroupError::NotAPool {
                name: "残疾人组".into(),
                pool: GroupId::new("adult"),
            },
            GroupError::HasMergeTarget {
                group: g.clone(),
                name: "儿童组".into(),
                into: GroupId::new("king"),
            },
            GroupError::AlreadyPaired {
                name: "儿童组".into(),
                rounds: 2,
            },
            GroupError::Merged {
                name: "儿童组".into(),
                into: "棋王组".into(),
            },
            GroupError::EntryCancelled {
                entries: vec![CancelledEntry {
                    group: "儿童组".into(),
                    cancelled: "儿童组".into(),
                    players: vec!["甲".into(), "乙".into()],
                }],
            },
            GroupError::EntryCancelled {
                entries: vec![
                    CancelledEntry {
                        group: "儿童组".into(),
                        cancelled: "棋王组".into(),
                        players: vec!["甲".into()],
                    },
                    CancelledEntry {
                        group: "少年组".into(),
                        cancelled: "少年组".into(),
                        players: vec!["乙".into()],
                    },
                ],
            },
            GroupError::MoveCancelled {
                entry: CancelledEntry {
                    group: "儿童组".into(),
                    cancelled: "棋王组".into(),
                    players: vec!["甲".into()],
                },
            },
            GroupError::ReinstateCancelled {
                player: "甲".into(),
                id: crate::model::PlayerId(7),
                group: "儿童组".into(),
            },
            GroupError::Cancelled {
                name: "儿童组".into(),
            },
            GroupError::NotBelowMinimum {
                group: g.clone(),
                name: "儿童组".into(),
                count: 12,
                min: Some(10),
            },
            GroupError::NotBelowMinimum {
                group: g.clone(),
                name: "儿童组".into(),
                count: 12,
                min: None,
            },
        ];
        for e in &all {
            assert_localized(e);
        }
    }
}
