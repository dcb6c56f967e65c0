//! Where a player entering or returning to a group is paired once groups have been merged
//! or cancelled (docs/rules.md §6 "Group sizes", late entries): an entry for a group merged
//! away goes to the pool its group joined, following a chain of merges to its end, as the
//! players moved at merge time did; an entry into a cancelled group, or the reinstatement
//! of a player whose group was cancelled, is refused. Also finds the players a state left
//! registered in a group that no longer pairs (an older version, a hand edit), for `check`.
//!
//! Owns these decisions only; `player add`/`edit` (`entry.rs`), `import` and `player
//! reinstate` call them, `merge.rs` and `groups.rs` make the merges and cancellations.

use super::{CancelledEntry, GroupError};
use crate::i18n::{Localize, bi};
use crate::model::{Event, GroupId, Player};
use crate::rulebook::{Lang, Rulebook};

/// Where a pool's entries are paired now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolNow {
    /// The pool itself, or the pool it was merged into (a chain followed to its end).
    Pairs(GroupId),
    /// The pool, or a pool of its chain of merges, was cancelled (that one's id).
    Cancelled(GroupId),
}

/// Where players registered in `pool` are paired now: the end of its chain of merges, or
/// the cancelled pool that stops it ([`Event::merge_chain`]). A hand-edited chain
/// that closes in a circle stops where it would come round (`lookup::merged_pool` reports
/// the circle).
pub fn pool_now(event: &Event, pool: &GroupId) -> PoolNow {
    let (chain, _) = event.merge_chain(pool);
    match chain.iter().find(|g| event.is_cancelled(g)) {
        Some(cancelled) => PoolNow::Cancelled(cancelled.clone()),
        None => PoolNow::Pairs(chain.last().cloned().unwrap_or_else(|| pool.clone())),
    }
}

/// Every pool of the rulebook merged away with the pool its entries join now
/// ([`pool_now`]), for the checks that compare an entry with the players of its pool.
pub fn merged_pools(
    event: &Event,
    rules: &Rulebook,
) -> std::collections::BTreeMap<GroupId, GroupId> {
    rules
        .groups
        .iter()
        .filter_map(|g| match pool_now(event, &g.id) {
            PoolNow::Pairs(pool) if pool != g.id => Some((g.id.clone(), pool)),
            _ => None,
        })
        .collect()
}

/// Every pool of the rulebook that takes no entries with the cancelled pool that stops
/// its chain of merges ([`pool_now`]; itself when it was cancelled), for the import,
/// which refuses a row for one at its line.
pub fn cancelled_pools(
    event: &Event,
    rules: &Rulebook,
) -> std::collections::BTreeMap<GroupId, GroupId> {
    rules
        .pools()
        .filter_map(|g| match pool_now(event, &g.id) {
            PoolNow::Cancelled(pool) => Some((g.id.clone(), pool)),
            PoolNow::Pairs(_) => None,
        })
        .collect()
}

/// A late entry placed in the pool its group was merged into, for the line that says so
/// (「少儿组已并入成人组：丙一编入成人组」).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// The player's name.
    pub player: String,
    /// The group entered, as the rulebook names it.
    pub from: String,
    /// The pool the player is paired in, as the rulebook names it.
    pub into: String,
}

impl Localize for Placed {
    fn localize(&self, lang: Lang) -> String {
        let Placed { player, from, into } = self;
        bi!(
            lang,
            zh("{from}已并入{into}：{player}编入{into}"),
            en("{from} was merged into {into}: {player} is entered in {into}")
        )
    }
}

/// The group `player` entered: the section they registered under, else their pool.
fn entered(player: &Player) -> &GroupId {
    player.section.as_ref().unwrap_or(&player.group)
}

/// Puts an entry (a player as read from a sheet or typed, `group` the pool the rulebook
/// pairs their group in) in the pool that group pairs in now: a group merged away sends
/// it, as the merge sent its players, to the end of the chain with the group it entered
/// kept as its section label. Refused, nothing changed, when that chain meets a cancelled
/// group. Returns the line to print when the player was placed elsewhere.
pub fn place_entry(
    event: &Event,
    rules: &Rulebook,
    player: &mut Player,
) -> Result<Option<Placed>, GroupError> {
    match pool_now(event, &player.group) {
        PoolNow::Cancelled(cancelled) => Err(GroupError::EntryCancelled {
            entries: vec![CancelledEntry {
                group: rules.group_name(entered(player)),
                cancelled: rules.group_name(&cancelled),
                players: vec![player.name.clone()],
            }],
        }),
        PoolNow::Pairs(pool) if pool == player.group => Ok(None),
        PoolNow::Pairs(pool) => {
            let from = player.group.clone();
            player.group = pool;
            if player.section.is_none() {
                player.section = Some(from);
            }
            Ok(merged_note(rules, player))
        }
    }
}

/// [`place_entry`] for every player of an import. An import refuses a row for a group
/// that takes no entries as it reads it (`registration/row.rs`, with every other row's
/// problem), so none is left here; the first one would refuse the batch. The round each
/// joins is `admit_batch`'s to set, once the pool is known.
pub fn place_entries(
    event: &Event,
    rules: &Rulebook,
    players: &mut [Player],
) -> Result<Vec<Placed>, GroupError> {
    let mut placed = Vec::new();
    for p in players.iter_mut() {
        placed.extend(place_entry(event, rules, p)?);
    }
    Ok(placed)
}

/// The line for a player paired in another pool than the group they entered pairs in (a
/// merge moved them, or their entry followed it); `None` for everyone else.
pub fn merged_note(rules: &Rulebook, player: &Player) -> Option<Placed> {
    let label = entered(player);
    let own_pool = rules.group(label).map(|g| rules.pool_of(g))?;
    (own_pool != &player.group).then(|| Placed {
        player: player.name.clone(),
        from: rules.group_name(own_pool),
        into: rules.group_name(&player.group),
    })
}

/// `player reinstate`: refused when the player's pool, or a pool of its chain of merges,
/// was cancelled (they would be active in a pool that is never paired).
pub fn check_reinstate(event: &Event, rules: &Rulebook, player: &Player) -> Result<(), GroupError> {
    match pool_now(event, &player.group) {
        PoolNow::Cancelled(cancelled) => Err(GroupError::ReinstateCancelled {
            player: player.name.clone(),
            id: player.id,
            group: rules.group_name(&cancelled),
        }),
        PoolNow::Pairs(_) => Ok(()),
    }
}

/// A player the state leaves out of every pairing: registered in a pool that was merged
/// away or cancelled and not withdrawn (a state an older version or a hand edit made).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stranded {
    /// The player's name.
    pub player: String,
    /// Their registration id, which commands take when names repeat.
    pub id: crate::model::PlayerId,
    /// The pool they are registered in.
    pub pool: GroupId,
    /// It, as the rulebook names it.
    pub group: String,
    /// Where the group went: the pool it was merged into, or `None` when cancelled.
    pub into: Option<String>,
    /// The pool whose check names them ([`pool_now`]): the pool their group was merged
    /// into, at the end of its chain, or the cancelled pool that stops the chain.
    pub now: GroupId,
}

impl Localize for Stranded {
    fn localize(&self, lang: Lang) -> String {
        let Stranded {
            player,
            id,
            group,
            into,
            ..
        } = self;
        match into {
            Some(into) => bi!(
                lang,
                zh(
                    "{player}（{id}）登记在{group}，但{group}已并入{into}，本组不再编排：请用 `qiwang player edit {id} --group {into}` 改组"
                ),
                en(
                    "{player} ({id}) is registered in {group}, which was merged into {into} and is not paired: move them with `qiwang player edit {id} --group {into}`"
                )
            ),
            None => bi!(
                lang,
                zh(
                    "{player}（{id}）登记在已取消的{group}，却未退赛，不会被编排：请用 `qiwang player edit {id} --group GROUP` 改报其他组别，或用 `qiwang player withdraw {id}` 退赛"
                ),
                en(
                    "{player} ({id}) is registered in {group}, which was cancelled, yet is not withdrawn and is never paired: enter them in another group with `qiwang player edit {id} --group GROUP`, or withdraw them with `qiwang player withdraw {id}`"
                )
            ),
        }
    }
}

/// Every player taking part who is registered in a pool that no longer pairs, in
/// registration order.
pub fn stranded_players(event: &Event, rules: &Rulebook) -> Vec<Stranded> {
    event
        .players
        .iter()
        .filter(|p| p.takes_part_from(1))
        .filter_map(|p| {
            let state = event.group(&p.group)?;
            if state.merged_into.is_none() && !state.cancelled {
                return None;
            }
            let (into, now) = match pool_now(event, &p.group) {
                PoolNow::Pairs(pool) => (Some(rules.group_name(&pool)), pool),
                PoolNow::Cancelled(pool) => (None, pool),
            };
            Some(Stranded {
                player: p.name.clone(),
                id: p.id,
                pool: p.group.clone(),
                group: rules.group_name(&p.group),
                into,
                now,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{PlayerId, PlayerStatus, WithdrawalCause};

    /// Pools `a`, `b`, `c` of a CXA rulebook; `c` merged into `b`, `b` into `a` (the
    /// state a chain of merges leaves: every `merged_into` points at the end).
    fn setup() -> (Event, Rulebook) {
        let mut rules = Rulebook::cxa_2011("t", 5);
        let template = rules.groups[0].clone();
        rules.groups = ["a", "b", "c"]
            .iter()
            .map(|id| {
                let mut g = template.clone();
                g.id = GroupId::new(*id);
                g.name = format!("{id}组");
                g.aliases = Vec::new();
                g
            })
            .collect();
        let mut event = Event::new(String::new());
        event.group_mut(&GroupId::new("b")).merged_into = Some(GroupId::new("a"));
        event.group_mut(&GroupId::new("c")).merged_into = Some(GroupId::new("a"));
        (event, rules)
    }

    #[test]
    fn an_entry_follows_the_merges_and_a_cancelled_group_refuses_it() {
        let (mut event, rules) = setup();
        let mut p = Player::new(PlayerId(1), "丙一", GroupId::new("c"));
        let placed = place_entry(&event, &rules, &mut p).unwrap().unwrap();
        assert_eq!(
            (p.group.as_str(), p.section.clone()),
            ("a", Some(GroupId::new("c")))
        );
        assert_eq!(placed.localize(Lang::Zh), "c组已并入a组：丙一编入a组");
        crate::i18n::facts::assert_localized(&placed);
        // A pool that pairs itself: nothing moves.
        let mut q = Player::new(PlayerId(2), "甲", GroupId::new("a"));
        assert_eq!(place_entry(&event, &rules, &mut q), Ok(None));
        assert_eq!(merged_note(&rules, &q), None);
        // The end of the chain cancelled: refused, the player untouched.
        event.group_mut(&GroupId::new("a")).cancelled = true;
        let mut r = Player::new(PlayerId(3), "乙", GroupId::new("b"));
        let err = place_entry(&event, &rules, &mut r).unwrap_err();
        assert_eq!(
            err,
            GroupError::EntryCancelled {
                entries: vec![CancelledEntry {
                    group: "b组".into(),
                    cancelled: "a组".into(),
                    players: vec!["乙".into()],
                }],
            }
        );
        assert_eq!(r.group, GroupId::new("b"));
        assert!(matches!(
            check_reinstate(&event, &rules, &r),
            Err(GroupError::ReinstateCancelled { .. })
        ));
        // A batch: the first entry into a cancelled group refuses it.
        let mut batch = vec![
            Player::new(PlayerId(4), "丁", GroupId::new("c")),
            Player::new(PlayerId(5), "戊", GroupId::new("b")),
        ];
        assert!(matches!(
            place_entries(&event, &rules, &mut batch),
            Err(GroupError::EntryCancelled { .. })
        ));
    }

    #[test]
    fn players_left_in_a_group_that_no_longer_pairs_are_found() {
        let (mut event, rules) = setup();
        event.group_mut(&GroupId::new("d")).cancelled = true;
        let mut rules = rules;
        let mut d = rules.groups[0].clone();
        d.id = GroupId::new("d");
        d.name = "d组".into();
        rules.groups.push(d);
        event.players = vec![
            Player::new(PlayerId(1), "甲", GroupId::new("a")),
            Player::new(PlayerId(2), "乙", GroupId::new("c")),
            Player::new(PlayerId(3), "丙", GroupId::new("d")),
            Player::new(PlayerId(4), "丁", GroupId::new("d")),
        ];
        event.players[3].status = PlayerStatus::Withdrawn {
            from_round: 1,
            cause: WithdrawalCause::GroupCancelled,
        };
        let found = stranded_players(&event, &rules);
        let got: Vec<(&str, Option<&str>)> = found
            .iter()
            .map(|s| (s.player.as_str(), s.into.as_deref()))
            .collect();
        assert_eq!(got, vec![("乙", Some("a组")), ("丙", None)]);
        for s in &found {
            crate::i18n::facts::assert_localized(s);
        }
        assert!(
            found[0]
                .localize(Lang::Zh)
                .contains("qiwang player edit 2 --group a组")
        );
    }
}
