//! Merging a group too small to play on its own into another pool before round 1 (Dongguan
//! 九: 报名人数不足10人的组别，将取消该组别比赛；具体划分新组别视具体情况而定; docs/rules.md §6
//! "Group sizes").
//!
//! Owns moving a small group's players into another pool and saying which prize lists
//! and team competitions follow them. It never pairs, and it refuses to merge once rounds
//! exist. Counting a group's players is `sizes.rs`'s; cancelling a group is `groups.rs`'s.

use super::{MergeTarget, merge_target};
use crate::i18n::{Localize, bi, display_english};
use crate::model::{Event, GroupId, PlayerId};
use crate::rulebook::{Lang, Rulebook};
use serde::Serialize;
use thiserror::Error;

/// Why a group cannot be merged; nothing is changed when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MergeError {
    /// The group is not in the rulebook.
    UnknownGroup {
        /// The name as given.
        group: String,
    },
    /// A section (a group with `pairs_with`) was named where a pool is needed.
    NotAPool {
        /// The section named.
        group: GroupId,
        /// The pool it is paired in.
        pool: GroupId,
    },
    /// Source and target are the same pool.
    SameGroup {
        /// The pool named twice.
        group: GroupId,
    },
    /// The source was merged away before: a group is merged once.
    AlreadyMerged {
        /// The group named, as the rulebook names it.
        name: String,
        /// The pool it was merged into, as the rulebook names it.
        into: String,
    },
    /// The target was itself merged away: its players are paired in `into`.
    TargetMerged {
        /// The target named, as the rulebook names it.
        name: String,
        /// The pool it was merged into, as the rulebook names it.
        into: String,
    },
    /// The source or target was cancelled (`group cancel`): its players were withdrawn.
    /// Refused rather than bringing them back, which would undo a cancellation the players
    /// were told of without saying so.
    Cancelled {
        /// The group cancelled, as the rulebook names it.
        name: String,
    },
    /// The target was cancelled: nobody is paired there. The source, still short, is
    /// cancelled itself or merged elsewhere.
    TargetCancelled {
        /// The target, as the rulebook names it.
        name: String,
        /// The pool named to merge.
        group: GroupId,
    },
    /// The source or target pool already has rounds (merging is for before round 1).
    Started {
        /// The pool that has rounds.
        group: GroupId,
        /// How many.
        rounds: usize,
        /// The pool named to merge, when the one with rounds is the target: it can
        /// still be cancelled or merged elsewhere.
        from: Option<GroupId>,
    },
    /// The source is not below its minimum size (`min_size`): merging it needs `force`.
    NotBelowMinimum {
        /// The pool named to merge.
        group: GroupId,
        /// Its registered players.
        count: usize,
        /// Its minimum, if it has one.
        min: Option<u32>,
    },
    /// The rulebook names another pool for the source (`merge_into`): merging it elsewhere
    /// needs `force`.
    NotItsTarget {
        /// The pool named to merge.
        group: GroupId,
        /// Its `merge_into`.
        target: GroupId,
        /// The pool named as the target.
        into: GroupId,
    },
    /// The rulebook's `merge_into` for the source leads to a pool cancelled or already
    /// paired ([`MergeTarget::Closed`]): merging it into another pool is the organiser's
    /// decision, made with `force`.
    TargetClosed {
        /// The pool named to merge.
        group: GroupId,
        /// The pool named as the target.
        into: GroupId,
        /// Why `merge_into` cannot be followed.
        closed: MergeTarget,
    },
}

display_english!(MergeError);

impl Localize for MergeError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            MergeError::UnknownGroup { group } => bi!(
                lang,
                zh("未知组别 `{group}`：请用规程中组别的编号、名称或别名"),
                en("unknown group `{group}`: name a group of the rulebook by id, name or alias"),
            ),
            MergeError::NotAPool { group, pool } => bi!(
                lang,
                zh("组别 `{group}` 是在 `{pool}` 中编排的分组，不是编排组：请改为合并 `{pool}`"),
                en(
                    "group `{group}` is a section paired in `{pool}`, not a pool: merge pool `{pool}` instead"
                ),
            ),
            MergeError::SameGroup { group } => bi!(
                lang,
                zh("不能把组别 `{group}` 合并到自身：请换一个目标组别"),
                en("cannot merge group `{group}` into itself: name a different target group"),
            ),
            MergeError::AlreadyMerged { name, into } => bi!(
                lang,
                zh("{name}已并入{into}，无需再合并：一个组别只合并一次，未做任何修改"),
                en(
                    "{name} has already been merged into {into}: a group is merged once; nothing was changed"
                ),
            ),
            MergeError::TargetMerged { name, into } => bi!(
                lang,
                zh("{name}已并入{into}，其棋手在{into}中编排：请改为合并到{into}"),
                en(
                    "{name} was merged into {into}, where its players are paired: merge into {into} instead"
                ),
            ),
            MergeError::Cancelled { name } => bi!(
                lang,
                zh(
                    "{name}已取消，其棋手已退赛：不能再合并。若取消有误且是最近一次修改，请用 `qiwang undo` 撤销；否则请逐一用 `qiwang player edit PLAYER --group GROUP` 改组，再用 `qiwang player reinstate PLAYER` 恢复参赛"
                ),
                en(
                    "{name} has been cancelled and its players withdrawn: it cannot be merged. If the cancellation was a mistake and the last change, undo it with `qiwang undo`; otherwise move each player with `qiwang player edit PLAYER --group GROUP`, then `qiwang player reinstate PLAYER`"
                ),
            ),
            MergeError::TargetCancelled { name, group } => bi!(
                lang,
                zh(
                    "{name}已取消，不能再并入。若取消有误且是最近一次修改，请用 `qiwang undo` 撤销；否则请取消组别 `{group}`（`qiwang group cancel {group}`），或另行合并（`qiwang group merge {group} INTO --force`）"
                ),
                en(
                    "{name} has been cancelled: nothing can be merged into it. If the cancellation was a mistake and the last change, undo it with `qiwang undo`; otherwise cancel group `{group}` (`qiwang group cancel {group}`) or merge it elsewhere (`qiwang group merge {group} INTO --force`)"
                ),
            ),
            MergeError::Started {
                group,
                rounds,
                from: None,
            } => bi!(
                lang,
                zh(
                    "组别 `{group}` 已有 {rounds} 轮：只能在第 1 轮之前合并组别（先用 `qiwang unpair` 撤销其轮次）"
                ),
                en(
                    "group `{group}` already has {}: groups can only be merged before round 1 (drop its rounds with `qiwang unpair` first)",
                    crate::i18n::plural(rounds, "round", "rounds")
                ),
            ),
            MergeError::Started {
                group,
                rounds,
                from: Some(from),
            } => bi!(
                lang,
                zh(
                    "组别 `{group}` 已有 {rounds} 轮：只能在第 1 轮之前合并组别。请先用 `qiwang unpair` 撤销其轮次，或取消组别 `{from}`（`qiwang group cancel {from}`），或另行合并（`qiwang group merge {from} INTO --force`）"
                ),
                en(
                    "group `{group}` already has {}: groups can only be merged before round 1. Drop its rounds with `qiwang unpair` first, cancel group `{from}` (`qiwang group cancel {from}`), or merge it elsewhere (`qiwang group merge {from} INTO --force`)",
                    crate::i18n::plural(rounds, "round", "rounds")
                ),
            ),
            MergeError::NotBelowMinimum { group, count, min } => match min {
                Some(min) => bi!(
                    lang,
                    zh(
                        "组别 `{group}` 有 {count} 人，未低于最低人数 {min}：不必合并；确需合并请加 `--force`（记入操作记录）"
                    ),
                    en(
                        "group `{group}` has {count} players, not below its minimum of {min}: it need not be merged; add `--force` to merge it anyway (logged)"
                    ),
                ),
                None => bi!(
                    lang,
                    zh(
                        "组别 `{group}` 在规程中没有最低人数（`min_size`）：不必合并；确需合并请加 `--force`（记入操作记录）"
                    ),
                    en(
                        "group `{group}` has no minimum size (`min_size`) in the rulebook: it need not be merged; add `--force` to merge it anyway (logged)"
                    ),
                ),
            },
            MergeError::NotItsTarget {
                group,
                target,
                into,
            } => bi!(
                lang,
                zh(
                    "规程规定组别 `{group}` 人数不足时并入 `{target}`（`merge_into`），不是 `{into}`：请合并到 `{target}`，确需另并请加 `--force`（记入操作记录）"
                ),
                en(
                    "the rulebook merges group `{group}` into `{target}` (`merge_into`), not `{into}`: merge it into `{target}`, or add `--force` to merge it elsewhere (logged)"
                ),
            ),
            MergeError::TargetClosed {
                group,
                into,
                closed,
            } => {
                let closed = closed.closed_clause(lang);
                bi!(
                    lang,
                    zh(
                        "规程规定组别 `{group}` 人数不足时并入的{closed}，不能再合并；改并入组别 `{into}` 须由组委会决定：请加 `--force`（记入操作记录），或取消该组（`qiwang group cancel {group}`）"
                    ),
                    en(
                        "the pool the rulebook merges group `{group}` into can no longer take it ({closed}); merging it into `{into}` instead is the organisers' decision: add `--force` (logged), or cancel the group (`qiwang group cancel {group}`)"
                    ),
                )
            }
        }
    }
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
/// `into`, either was already merged or cancelled, or either pool already has rounds; and, unless
/// `force`, when `from` is not below its minimum size or the rulebook merges it into
/// another pool (`merge_into`, followed along that pool's merges: [`merge_target`]) or
/// into one that can no longer take it.
pub fn merge_group(
    event: &mut Event,
    rules: &Rulebook,
    from: &GroupId,
    into: &GroupId,
    force: bool,
) -> Result<MergeReport, MergeError> {
    let pool = |name: &GroupId| -> Result<GroupId, MergeError> {
        let rule = rules
            .find_group(name.as_str())
            .ok_or_else(|| MergeError::UnknownGroup {
                group: name.to_string(),
            })?;
        if let Some(p) = &rule.pairs_with {
            return Err(MergeError::NotAPool {
                group: rule.id.clone(),
                pool: p.clone(),
            });
        }
        Ok(rule.id.clone())
    };
    let from = pool(from)?;
    let into = pool(into)?;
    if from == into {
        return Err(MergeError::SameGroup { group: from });
    }
    let name = |g: &GroupId| rules.group_name(g);
    for g in [&from, &into] {
        if let Some(state) = event.group(g) {
            if state.cancelled {
                return Err(if g == &from {
                    MergeError::Cancelled { name: name(g) }
                } else {
                    MergeError::TargetCancelled {
                        name: name(g),
                        group: from.clone(),
                    }
                });
            }
            if let Some(target) = &state.merged_into {
                let (name, into) = (name(g), name(target));
                return Err(if g == &from {
                    MergeError::AlreadyMerged { name, into }
                } else {
                    MergeError::TargetMerged { name, into }
                });
            }
            if !state.rounds.is_empty() {
                // The source's own rounds hold it in its pool; a target's leave the
                // source free to be cancelled or merged elsewhere.
                let source_free =
                    g == &into && event.group(&from).is_none_or(|s| s.rounds.is_empty());
                return Err(MergeError::Started {
                    group: g.clone(),
                    rounds: state.rounds.len(),
                    from: source_free.then(|| from.clone()),
                });
            }
        }
    }
    if !force {
        // The rulebook's target, followed to where its players went: merging there is
        // following the rulebook.
        match merge_target(event, rules, &from) {
            MergeTarget::Open(target) if target != into => {
                return Err(MergeError::NotItsTarget {
                    group: from,
                    target,
                    into,
                });
            }
            closed @ MergeTarget::Closed { .. } => {
                return Err(MergeError::TargetClosed {
                    group: from,
                    into,
                    closed,
                });
            }
            MergeTarget::Open(_) | MergeTarget::None => {}
        }
        // Only the group being merged is counted: its size is what the guard decides on.
        let size = super::group_size(rules, &event.players, &from);
        if let Some(s) = size.filter(|s| !s.is_short()) {
            return Err(MergeError::NotBelowMinimum {
                group: from,
                count: s.count,
                min: s.min_size,
            });
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
    // A group merged into `from` before now lies in `into`, where its players went.
    for state in event.groups.values_mut() {
        if state.merged_into.as_ref() == Some(&from) {
            state.merged_into = Some(into.clone());
        }
    }

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

/// A pool's own label and the labels of its sections.
pub(crate) fn section_labels(rules: &Rulebook, pool: &GroupId) -> Vec<GroupId> {
    std::iter::once(pool.clone())
        .chain(
            rules
                .groups
                .iter()
                .filter(|g| g.pairs_with.as_ref() == Some(pool))
                .map(|g| g.id.clone()),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pairing, Player, PlayerStatus, Round};
    use crate::registration::groups::undersized_groups;
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
            false,
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
            false,
        );
        assert!(matches!(again, Err(MergeError::AlreadyMerged { .. })));
    }

    type ErrorCheck = fn(&MergeError) -> bool;

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
                matches!(e, MergeError::UnknownGroup { .. })
            }),
            ("local", "kids", "section", |e| {
                matches!(e, MergeError::NotAPool { .. })
            }),
            ("kids", "local", "into section", |e| {
                matches!(e, MergeError::NotAPool { .. })
            }),
            ("kids", "kids", "same", |e| {
                matches!(e, MergeError::SameGroup { .. })
            }),
            ("girls", "open", "started", |e| {
                matches!(
                    e,
                    MergeError::Started {
                        rounds: 1,
                        from: None,
                        ..
                    }
                )
            }),
        ];
        for (from, into, name, check) in cases {
            let mut e = event(&[("girls", None, 2), ("open", None, 2)]);
            e.group_mut(&GroupId::new("girls")).rounds.push(bye(1));
            let before = e.clone();
            let err = merge_group(
                &mut e,
                &rules(),
                &GroupId::new(from),
                &GroupId::new(into),
                false,
            )
            .expect_err(name);
            assert!(check(&err), "{name}: {err}");
            assert_eq!(e, before, "{name}: a refused merge changes nothing");
        }
    }

    #[test]
    fn every_message_has_chinese_and_quotes_the_group() {
        use crate::i18n::facts::assert_localized;
        let g = |s: &str| GroupId::new(s);
        let all = [
            MergeError::UnknownGroup {
                group: "kids".into(),
            },
            MergeError::NotAPool {
                group: g("disabled"),
                pool: g("adult"),
            },
            MergeError::SameGroup { group: g("adult") },
            MergeError::AlreadyMerged {
                name: "少儿组".into(),
                into: "成人组".into(),
            },
            MergeError::TargetMerged {
                name: "少儿组".into(),
                into: "成人组".into(),
            },
            MergeError::Cancelled {
                name: "女子组".into(),
            },
            MergeError::TargetCancelled {
                name: "成人组".into(),
                group: g("kids"),
            },
            MergeError::Started {
                group: g("u8"),
                rounds: 2,
                from: None,
            },
            MergeError::Started {
                group: g("u8"),
                rounds: 2,
                from: Some(g("kids")),
            },
            MergeError::TargetClosed {
                group: g("kids"),
                into: g("adult"),
                closed: MergeTarget::Closed {
                    name: "成人组".into(),
                    cancelled: true,
                    rounds: 0,
                },
            },
        ];
        for e in &all {
            assert_localized(e);
        }
        let e = MergeError::Started {
            group: GroupId::new("girls"),
            rounds: 2,
            from: None,
        };
        let msg = e.to_string();
        assert!(
            msg.contains("`girls`") && msg.contains("before round 1"),
            "{msg}"
        );
        let e = MergeError::NotAPool {
            group: GroupId::new("local"),
            pool: GroupId::new("open"),
        };
        assert!(e.to_string().contains("merge pool `open` instead"));
    }

    /// A group that is not below its minimum, or that the rulebook merges elsewhere, is
    /// merged only with `force`; and a group merged into one that is merged on follows its
    /// players there (no `merged_into` left pointing at a pool that is gone).
    #[test]
    fn merge_needs_force_off_the_rulebook_and_follows_a_chain() {
        let mut r = rules();
        r.groups[2].merge_into = Some(GroupId::new("kids"));
        let mut e = event(&[("open", None, 12), ("girls", None, 4), ("kids", None, 6)]);
        let (open, girls, kids) = (
            GroupId::new("open"),
            GroupId::new("girls"),
            GroupId::new("kids"),
        );
        let err = merge_group(&mut e, &r, &open, &kids, false).unwrap_err();
        assert!(
            matches!(
                err,
                MergeError::NotBelowMinimum {
                    count: 12,
                    min: Some(10),
                    ..
                }
            ),
            "{err:?}"
        );
        let err = merge_group(&mut e, &r, &girls, &open, false).unwrap_err();
        assert!(matches!(err, MergeError::NotItsTarget { .. }), "{err:?}");
        assert!(
            e.players.iter().all(|p| p.section.is_none()),
            "nothing moved"
        );
        merge_group(&mut e, &r, &girls, &kids, false).expect("its own target");
        merge_group(&mut e, &r, &kids, &open, true).expect("forced");
        assert_eq!(
            e.group(&girls).and_then(|g| g.merged_into.clone()),
            Some(open.clone())
        );
        assert_eq!(e.players.iter().filter(|p| p.group == open).count(), 22);
    }
}
