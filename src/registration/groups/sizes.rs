//! How many players each group (pool or section) has, and which groups fall short of their
//! minimum size (Dongguan 九: 报名人数不足10人的组别，将取消该组别比赛): the one count behind
//! `group sizes`, the import summary and the minimum-size check before round 1.
//!
//! Owns counting, and saying what each group is now ([`GroupNow`]: a pool pairing on its
//! own, a section, merged into another pool, cancelled); whether a short group is
//! cancelled or merged is the organiser's decision (`groups.rs` cancels, `merge.rs` merges).

use crate::model::{Event, GroupId, Player};
use crate::rulebook::{GroupRule, Rulebook};
use serde::Serialize;

/// The registrations of one group of the rulebook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupSize {
    /// The group's id.
    pub group: GroupId,
    /// The regulation's name (成人组).
    pub name: String,
    /// For a section, the pool it plays in.
    pub pool: Option<GroupId>,
    /// Players paired in this pool (every section included), or registered under this
    /// section.
    pub count: usize,
    /// The `min_size` the rulebook sets, if any.
    pub min_size: Option<u32>,
}

impl GroupSize {
    /// Below its minimum and neither merged away nor cancelled: what `pair` refuses round 1
    /// of and `group sizes` flags ([`undersized_groups`]).
    pub fn is_undersized(&self, event: &Event) -> bool {
        self.is_short() && matches!(self.now(event), GroupNow::Pairs | GroupNow::Section { .. })
    }

    /// Whether the group has fewer players than its minimum (an empty group included).
    /// Without `min_size`, a pool of one player is short: nobody is there to play him
    /// (a section of one plays in its pool and is not).
    pub fn is_short(&self) -> bool {
        let count = u32::try_from(self.count).unwrap_or(u32::MAX);
        match self.min_size {
            Some(min) => count < min,
            None => count == 1 && self.pool.is_none(),
        }
    }

    /// The minimum the group is held to: its `min_size`, else the two a game needs.
    pub fn minimum(&self) -> u32 {
        self.min_size.unwrap_or(2)
    }

    /// What the group is now on `event`: where its players are paired, following the
    /// chain of merges to its end ([`super::pool_now`]).
    pub fn now(&self, event: &Event) -> GroupNow {
        use super::PoolNow;
        match &self.pool {
            // A section plays in its pool, wherever that pool now pairs.
            Some(pool) => match super::pool_now(event, pool) {
                PoolNow::Pairs(pool) => GroupNow::Section { pool },
                PoolNow::Cancelled(_) => GroupNow::Cancelled { merged_into: None },
            },
            None => match super::pool_now(event, &self.group) {
                PoolNow::Pairs(pool) if pool == self.group => GroupNow::Pairs,
                PoolNow::Pairs(into) => GroupNow::Merged { into },
                PoolNow::Cancelled(pool) => GroupNow::Cancelled {
                    merged_into: (pool != self.group).then_some(pool),
                },
            },
        }
    }
}

/// What a group of the rulebook is now ([`GroupSize::now`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupNow {
    /// A pool paired on its own.
    Pairs,
    /// A section (残疾人组, 本地组), whose players are paired in `pool`: the pool it plays
    /// in, or the pool that one was merged into.
    Section {
        /// Where the section's players are paired.
        pool: GroupId,
    },
    /// Merged into `into` (the end of its chain of merges), where its players are paired.
    Merged {
        /// The pool its players are paired in.
        into: GroupId,
    },
    /// Cancelled, or merged into a pool that was (`merged_into`): nobody is paired there.
    Cancelled {
        /// The cancelled pool it was merged into, if it was not cancelled itself.
        merged_into: Option<GroupId>,
    },
}

impl GroupNow {
    /// Where the group's players are paired now; `None` when nowhere (cancelled).
    pub fn pairs_in<'a>(&'a self, own: &'a GroupId) -> Option<&'a GroupId> {
        match self {
            GroupNow::Pairs => Some(own),
            GroupNow::Section { pool } | GroupNow::Merged { into: pool } => Some(pool),
            GroupNow::Cancelled { .. } => None,
        }
    }

    /// The pool the group was merged into (the end of the chain), if it was merged.
    pub fn merged_into(&self) -> Option<&GroupId> {
        match self {
            GroupNow::Merged { into } => Some(into),
            GroupNow::Cancelled { merged_into } => merged_into.as_ref(),
            GroupNow::Pairs | GroupNow::Section { .. } => None,
        }
    }

    /// A word for scripts: `pairs`, `section`, `merged` or `cancelled`.
    pub fn key(&self) -> &'static str {
        match self {
            GroupNow::Pairs => "pairs",
            GroupNow::Section { .. } => "section",
            GroupNow::Merged { .. } => "merged",
            GroupNow::Cancelled { .. } => "cancelled",
        }
    }
}

/// One row per group, in rulebook order. This is the one count of a group's players
/// (`group sizes`, the minimum-size check before round 1, the import summary): a player
/// counts unless withdrawn or disqualified from round 1 on; one who played and withdrew
/// later still counts.
pub fn group_sizes(rules: &Rulebook, players: &[Player]) -> Vec<GroupSize> {
    rules.groups.iter().map(|g| size_of(g, players)).collect()
}

/// The [`group_sizes`] row of one group (by id), counting that group alone: what a check
/// on one group (`group merge`, `group cancel`, round 1 of a pool) asks; `None` for a
/// group the rulebook does not have.
pub fn group_size(rules: &Rulebook, players: &[Player], group: &GroupId) -> Option<GroupSize> {
    rules
        .groups
        .iter()
        .find(|g| &g.id == group)
        .map(|g| size_of(g, players))
}

/// The one count behind [`group_sizes`] and [`group_size`].
fn size_of(g: &GroupRule, players: &[Player]) -> GroupSize {
    let counted = players.iter().filter(|p| p.takes_part_from(1));
    let count = match &g.pairs_with {
        None => counted.filter(|p| p.group == g.id).count(),
        Some(_) => counted
            .filter(|p| p.section.as_ref() == Some(&g.id))
            .count(),
    };
    GroupSize {
        group: g.id.clone(),
        name: g.name.clone(),
        pool: g.pairs_with.clone(),
        count,
        min_size: g.min_size,
    }
}

/// A group with fewer registered players than its `min_size`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Undersized {
    /// The group's id.
    pub group: GroupId,
    /// The regulation's name of the group.
    pub name: String,
    /// Players registered in it.
    pub count: u32,
    /// The `min_size` the rulebook sets.
    pub min: u32,
}

/// Groups of the rulebook with a `min_size` that have fewer registered, non-withdrawn
/// players, in rulebook order. Groups already merged into another are left out.
///
/// Counting: `min_size` applies to the group it is written on. For a pool, every player
/// paired in it counts (its sections' players included, since they fill the same
/// pairing); for a section, only the players registered under that section count.
pub fn undersized_groups(event: &Event, rules: &Rulebook) -> Vec<Undersized> {
    // One count for every view of a group's size ([`group_sizes`]).
    group_sizes(rules, &event.players)
        .into_iter()
        .filter(|s| s.is_undersized(event))
        .map(|s| Undersized {
            min: s.minimum(),
            name: s.name,
            count: u32::try_from(s.count).unwrap_or(u32::MAX),
            group: s.group,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PlayerId;
    use crate::rulebook::{Eligibility, GroupRule, Marks};

    fn group(id: &str, pairs_with: Option<&str>, min_size: Option<u32>) -> GroupRule {
        GroupRule {
            id: GroupId::new(id),
            name: format!("{id}组"),
            aliases: Vec::new(),
            pairs_with: pairs_with.map(GroupId::new),
            marks: Marks::default(),
            rounds: None,
            time_control: None,
            min_size,
            merge_into: None,
            eligibility: Eligibility::default(),
            hall: Default::default(),
            format: crate::rulebook::GroupFormat::swiss(),
        }
    }

    #[test]
    fn pools_count_their_sections_and_short_groups_are_flagged() {
        let mut rules = Rulebook::cxa_2011("x", 7);
        rules.groups = vec![
            group("king", None, Some(10)),
            group("local", Some("king"), None),
            group("kids_girls", None, Some(10)),
            group("empty", None, Some(10)),
        ];
        let mut players = Vec::new();
        for i in 0..12 {
            let mut p = Player::new(PlayerId(i), "x", GroupId::new("king"));
            if i < 3 {
                p.section = Some(GroupId::new("local"));
            }
            players.push(p);
        }
        for i in 12..19 {
            players.push(Player::new(PlayerId(i), "y", GroupId::new("kids_girls")));
        }
        let sizes = group_sizes(&rules, &players);
        let got: Vec<(&str, usize, bool)> = sizes
            .iter()
            .map(|s| (s.group.as_str(), s.count, s.is_short()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("king", 12, false),
                ("local", 3, false),
                ("kids_girls", 7, true),
                ("empty", 0, true),
            ]
        );
        assert_eq!(sizes[1].pool, Some(GroupId::new("king")));
        // One group counted alone is its row of the whole table.
        for size in &sizes {
            assert_eq!(
                group_size(&rules, &players, &size.group).as_ref(),
                Some(size)
            );
        }
        assert_eq!(group_size(&rules, &players, &GroupId::new("none")), None);
    }

    #[test]
    fn a_player_withdrawn_before_round_1_counts_nowhere_one_withdrawn_later_everywhere() {
        use crate::model::{PlayerStatus, WithdrawalCause};
        let mut rules = Rulebook::cxa_2011("x", 7);
        rules.groups = vec![
            group("adult", None, Some(3)),
            group("disabled", Some("adult"), Some(2)),
        ];
        let withdrawn = |from_round| PlayerStatus::Withdrawn {
            from_round,
            cause: WithdrawalCause::Manual { note: None },
        };
        let mut players: Vec<Player> = (0..4)
            .map(|i| {
                let mut p = Player::new(PlayerId(i), "x", GroupId::new("adult"));
                p.section = (i < 2).then(|| GroupId::new("disabled"));
                p
            })
            .collect();
        // A section player withdrawn before round 1; a pool player after round 3.
        players[0].status = withdrawn(1);
        players[3].status = withdrawn(4);
        let got: Vec<(usize, bool)> = group_sizes(&rules, &players)
            .iter()
            .map(|s| (s.count, s.is_short()))
            .collect();
        assert_eq!(got, vec![(3, false), (1, true)]);
    }
}
