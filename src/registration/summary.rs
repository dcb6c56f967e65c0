//! How many players each group (pool or section) has after an import, and which groups
//! fall short of their minimum size (Dongguan 九: 报名人数不足10人的组别，将取消该组别比赛).
//!
//! Owns counting only; whether a short group is cancelled or merged is the organiser's
//! decision, made elsewhere.

use crate::model::{GroupId, Player};
use crate::rulebook::Rulebook;

/// The registrations of one group of the rulebook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupSize {
    pub group: GroupId,
    /// The regulation's name (成人组).
    pub name: String,
    /// For a section, the pool it plays in.
    pub pool: Option<GroupId>,
    /// Players paired in this pool (every section included), or registered under this
    /// section.
    pub count: usize,
    pub min_size: Option<u32>,
}

impl GroupSize {
    /// Whether the group has fewer players than its minimum (an empty group included).
    pub fn is_short(&self) -> bool {
        self.min_size
            .is_some_and(|min| u32::try_from(self.count).unwrap_or(u32::MAX) < min)
    }
}

/// One row per group, in rulebook order.
pub fn group_sizes(rules: &Rulebook, players: &[Player]) -> Vec<GroupSize> {
    rules
        .groups
        .iter()
        .map(|g| {
            let count = match &g.pairs_with {
                None => players.iter().filter(|p| p.group == g.id).count(),
                Some(_) => players
                    .iter()
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
    }
}
