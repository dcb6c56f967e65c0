//! Group-size rules: groups under the rulebook's minimum (Dongguan 九: 报名人数不足10人的
//! 组别，将取消该组别比赛) are reported before round 1, and the organiser can merge a group
//! into another (具体划分新组别视具体情况而定).
//!
//! Owns counting registrations per group and moving a small group's players into
//! another pool. It never pairs, and it refuses to merge once rounds exist.

use super::PrizeError;
use super::pools::section_labels;
use crate::model::{Event, GroupId, PlayerId};
use crate::rulebook::Rulebook;
use serde::Serialize;

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

/// What [`merge_group`] did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MergeReport {
    /// The group merged away.
    pub from: GroupId,
    /// The pool it was merged into.
    pub into: GroupId,
    /// Players moved into the target pool, by id.
    pub moved: Vec<PlayerId>,
    /// Ids of the prize lists that now rank the merged players inside the target pool
    /// (lists whose group is the merged group or one of its sections).
    pub lists: Vec<String>,
    /// Ids of the team competitions that follow the same way.
    pub teams: Vec<String>,
}

/// Groups of the rulebook with a `min_size` that have fewer registered, non-withdrawn
/// players, in rulebook order. Groups already merged into another are left out.
///
/// Counting: `min_size` applies to the group it is written on. For a pool, every player
/// paired in it counts (its sections' players included, since they fill the same
/// pairing); for a section, only the players registered under that section count.
pub fn undersized_groups(event: &Event, rules: &Rulebook) -> Vec<Undersized> {
    // One count for every view of a group's size (`registration::group_sizes`).
    crate::registration::group_sizes(rules, &event.players)
        .into_iter()
        .filter(crate::registration::GroupSize::is_short)
        .filter(|s| {
            event
                .group(&s.group)
                .is_none_or(|g| g.merged_into.is_none())
        })
        .map(|s| Undersized {
            min: s.minimum(),
            name: s.name,
            count: u32::try_from(s.count).unwrap_or(u32::MAX),
            group: s.group,
        })
        .collect()
}

/// Merges pool `from` into pool `into` before round 1 (both named by id, name or alias).
///
/// Every player paired in `from` moves to `into`; a player without a section label gets
/// `section = from` (one who already had a section label keeps it), so the prize lists of
/// `from` and its sections can still pick them out. Moved players lose their pairing
/// number (序号), which is drawn for the merged pool like a late entry's. `from` is marked
/// `merged_into = into`.
///
/// How the prize lists follow: a list or team competition whose group is `from` (or a
/// section of `from`) is evaluated against the `into` pool, restricted to players
/// registered under `from` or its sections (see `prize_sheet`); the lists of `into` rank
/// everyone in the merged pool their filter lets through.
///
/// Refused when either group is unknown, is a section rather than a pool, `from` is
/// `into`, either was already merged, or either pool already has rounds.
pub fn merge_group(
    event: &mut Event,
    rules: &Rulebook,
    from: &GroupId,
    into: &GroupId,
) -> Result<MergeReport, PrizeError> {
    let pool = |name: &GroupId| -> Result<GroupId, PrizeError> {
        let rule = rules
            .find_group(name.as_str())
            .ok_or_else(|| PrizeError::UnknownGroup {
                group: name.to_string(),
            })?;
        if let Some(p) = &rule.pairs_with {
            return Err(PrizeError::NotAPool {
                group: rule.id.clone(),
                pool: p.clone(),
            });
        }
        Ok(rule.id.clone())
    };
    let from = pool(from)?;
    let into = pool(into)?;
    if from == into {
        return Err(PrizeError::SameGroup { group: from });
    }
    for g in [&from, &into] {
        if let Some(state) = event.group(g) {
            if let Some(target) = &state.merged_into {
                return Err(PrizeError::AlreadyMerged {
                    group: g.clone(),
                    into: target.clone(),
                });
            }
            if !state.rounds.is_empty() {
                return Err(PrizeError::Started {
                    group: g.clone(),
                    rounds: state.rounds.len(),
                });
            }
        }
    }

    let mut moved = Vec::new();
    for p in event.players.iter_mut().filter(|p| p.group == from) {
        p.group = into.clone();
        if p.section.is_none() {
            p.section = Some(from.clone());
        }
        p.number = None;
        moved.push(p.id);
    }
    event.group_mut(&from).merged_into = Some(into.clone());

    let labels = section_labels(rules, &from);
    let lists = rules
        .prizes
        .lists
        .iter()
        .filter(|l| labels.contains(&l.group))
        .map(|l| l.id.clone())
        .collect();
    let teams = rules
        .teams
        .iter()
        .filter(|t| labels.contains(&t.group))
        .map(|t| t.id.clone())
        .collect();
    Ok(MergeReport {
        from,
        into,
        moved,
        lists,
        teams,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pairing, Player, PlayerStatus, Round};
    use crate::rulebook::{GroupRule, PrizeFilter, PrizeList};

    fn group(id: &str, name: &str, pairs_with: Option<&str>, min: Option<u32>) -> GroupRule {
        let mut g = Rulebook::cxa_2011("t", 7).groups.remove(0);
        g.id = GroupId::new(id);
        g.name = name.to_string();
        g.pairs_with = pairs_with.map(GroupId::new);
        g.min_size = min;
        g
    }

    /// Pools `open` (min 10) with section `local` (min 3), `girls` (min 10), `kids` (no
    /// minimum).
    fn rules() -> Rulebook {
        let mut r = Rulebook::cxa_2011("东莞", 7);
        r.groups = vec![
            group("open", "棋王组", None, Some(10)),
            group("local", "本地成人组", Some("open"), Some(3)),
            group("girls", "少年女子棋王组", None, Some(10)),
            group("kids", "儿童棋王A组", None, None),
        ];
        r.prizes.lists = vec![PrizeList {
            id: "girls".into(),
            name: "少年女子棋王组".into(),
            group: GroupId::new("girls"),
            filter: PrizeFilter::default(),
            places: Vec::new(),
            by_gender: None,
        }];
        r
    }

    fn event(counts: &[(&str, Option<&str>, u32)]) -> Event {
        let mut e = Event::new(String::new());
        for &(g, section, n) in counts {
            for _ in 0..n {
                let id = e.next_player_id();
                let mut p = Player::new(id, format!("p{}", id.0), GroupId::new(g));
                p.section = section.map(GroupId::new);
                p.number = Some(id.0);
                e.players.push(p);
            }
        }
        e
    }

    #[test]
    fn undersized_counts_pools_with_their_sections_and_sections_alone() {
        let mut e = event(&[
            ("open", None, 8),
            ("open", Some("local"), 2),
            ("girls", None, 9),
        ]);
        let got: Vec<(String, u32, u32)> = undersized_groups(&e, &rules())
            .into_iter()
            .map(|u| (u.group.0, u.count, u.min))
            .collect();
        // open: 8 + 2 = 10 is enough; local 2 < 3; girls 9 < 10; kids has no minimum.
        assert_eq!(got, vec![("local".into(), 2, 3), ("girls".into(), 9, 10)]);
        // A withdrawn player does not count.
        e.players[0].status = PlayerStatus::Withdrawn {
            from_round: 1,
            cause: crate::model::WithdrawalCause::Manual {
                note: Some("sick".into()),
            },
        };
        assert_eq!(undersized_groups(&e, &rules()).len(), 3);
    }

    #[test]
    fn merge_moves_players_keeps_their_label_and_marks_the_group() {
        let mut e = event(&[("kids", None, 12), ("girls", None, 4)]);
        let report = merge_group(
            &mut e,
            &rules(),
            &GroupId::new("少年女子棋王组"),
            &GroupId::new("kids"),
        )
        .expect("merge");
        assert_eq!(report.from, GroupId::new("girls"));
        assert_eq!(report.moved.len(), 4);
        assert_eq!(report.lists, vec!["girls".to_string()]);
        assert_eq!(e.players_in(&GroupId::new("kids")).count(), 16);
        let moved = e.player(report.moved[0]).expect("player");
        assert_eq!(moved.section, Some(GroupId::new("girls")));
        assert_eq!(moved.number, None);
        assert_eq!(
            e.group(&GroupId::new("girls"))
                .and_then(|g| g.merged_into.clone()),
            Some(GroupId::new("kids"))
        );
        // The merged group is no longer reported as under-sized.
        assert!(
            undersized_groups(&e, &rules())
                .iter()
                .all(|u| u.group != GroupId::new("girls"))
        );
        // A second merge of the same group is refused.
        let again = merge_group(
            &mut e,
            &rules(),
            &GroupId::new("girls"),
            &GroupId::new("kids"),
        );
        assert!(matches!(again, Err(PrizeError::AlreadyMerged { .. })));
    }

    type ErrorCheck = fn(&PrizeError) -> bool;

    #[test]
    fn merge_refusals() {
        let bye = |n| Round {
            number: n,
            pairings: vec![Pairing::Bye {
                player: PlayerId(1),
            }],
        };
        let cases: [(&str, &str, &str, ErrorCheck); 5] = [
            ("nosuch", "kids", "unknown", |e| {
                matches!(e, PrizeError::UnknownGroup { .. })
            }),
            ("local", "kids", "section", |e| {
                matches!(e, PrizeError::NotAPool { .. })
            }),
            ("kids", "local", "into section", |e| {
                matches!(e, PrizeError::NotAPool { .. })
            }),
            ("kids", "kids", "same", |e| {
                matches!(e, PrizeError::SameGroup { .. })
            }),
            ("girls", "open", "started", |e| {
                matches!(e, PrizeError::Started { rounds: 1, .. })
            }),
        ];
        for (from, into, name, check) in cases {
            let mut e = event(&[("girls", None, 2), ("open", None, 2)]);
            e.group_mut(&GroupId::new("girls")).rounds.push(bye(1));
            let before = e.clone();
            let err = merge_group(&mut e, &rules(), &GroupId::new(from), &GroupId::new(into))
                .expect_err(name);
            assert!(check(&err), "{name}: {err}");
            assert_eq!(e, before, "{name}: a refused merge changes nothing");
        }
    }
}
