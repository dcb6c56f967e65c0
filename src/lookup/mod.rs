//! Finding the group and the player a user names: a group by id, regulation name or
//! alias (a section resolves to its pool, a merged group to the pool it was merged into);
//! a player by registration id, pairing number (`#5`) or exact name.

use crate::i18n::{Localize, Text, bi, did_you_mean, did_you_mean_text, display_english};
use crate::model::{Event, GroupId, Player, PlayerId};
use crate::privacy::typed;
use crate::rulebook::{GroupRule, Lang, Rulebook};
use thiserror::Error;

mod shown;
pub use shown::{Shown, pools_shown};

/// A name that does not pick out exactly one group or player.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LookupError {
    /// No group of the rulebook has this id, name or alias.
    UnknownGroup {
        /// The name as given.
        name: String,
        /// The groups a user may name (Chinese: regulation names; English: ids and names).
        known: Text,
        /// "did you mean …" (empty when nothing is close).
        hint: Text,
    },

    /// The event has several groups and none was named.
    GroupNeeded {
        /// The groups a user may name.
        known: Text,
    },

    /// A round or its results asked of a pool that was cancelled before round 1 (or of a
    /// group merged into one): it is never paired.
    CancelledPool {
        /// The group named, as the rulebook names it.
        name: String,
        /// The cancelled pool, as the rulebook names it (the same when it was named).
        pool: String,
    },

    /// The group merges of the state form a cycle (a hand-edited state).
    MergeCycle {
        /// The groups of the cycle, for the message.
        cycle: String,
    },

    /// A `#N` reference whose N is not a number.
    BadNumber {
        /// The text as given.
        text: String,
    },

    /// No player has this pairing number.
    NoNumber {
        /// The number given.
        number: u32,
    },

    // Not "add `--group`": `penalty` and `player` have no such option (and `player edit
    // --group` moves the player). The registration id always works.
    /// Players of several groups have this pairing number.
    NumberInSeveralGroups {
        /// The number given.
        number: u32,
        /// Their registration ids, for the message.
        ids: String,
    },

    /// No player has this registration id.
    NoId {
        /// The id given.
        id: u32,
    },

    /// No player has this name.
    NoName {
        /// The name as given.
        name: String,
        /// Names that are close, if any.
        hint: Text,
    },

    /// No player of the pool has this name, but a player of another group has.
    NameInOtherGroup {
        /// The name as given.
        name: String,
        /// The pool searched.
        pool: GroupId,
        /// The groups the players of that name are in.
        groups: Vec<GroupId>,
    },

    /// `pairing swap A B` of two players of different pools: a swap exchanges two players
    /// of one pool's round.
    SwapAcrossPools {
        /// The first player, as the sheets name them (`张三(12)`).
        a: String,
        /// The first player's pool.
        a_pool: GroupId,
        /// The second player, as the sheets name them.
        b: String,
        /// The second player's pool.
        b_pool: GroupId,
    },

    /// Several players have this name.
    SeveralNamed {
        /// The name as given.
        name: String,
        /// How many players have it.
        count: usize,
        /// Their registration ids, for the message.
        ids: String,
    },
}

display_english!(LookupError);

impl Localize for LookupError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            LookupError::UnknownGroup { name, known, hint } => {
                let name = typed(name);
                bi!(
                    lang,
                    zh("规程中没有组别 `{name}`{}\n请用 {} 之一", hint.zh, known.zh),
                    en(
                        "no group `{name}` in the rulebook{}\nuse one of {}",
                        hint.en,
                        known.en
                    ),
                )
            }
            LookupError::GroupNeeded { known } => bi!(
                lang,
                zh("这个赛事有多个组别，请用 `--group` 选择：{}", known.zh),
                en(
                    "this event has several groups; choose one with `--group`: {}",
                    known.en
                ),
            ),
            LookupError::CancelledPool { name, pool } if name == pool => bi!(
                lang,
                zh("{name}已取消，不编排：没有轮次，也没有成绩可录入"),
                en(
                    "{name} has been cancelled and is never paired: it has no rounds and no results"
                ),
            ),
            LookupError::CancelledPool { name, pool } => bi!(
                lang,
                zh("{name}已并入{pool}，而{pool}已取消，不编排：没有轮次，也没有成绩可录入"),
                en(
                    "{name} was merged into {pool}, which has been cancelled and is never paired: it has no rounds and no results"
                ),
            ),
            LookupError::MergeCycle { cycle } => bi!(
                lang,
                zh(
                    "状态文件中的组别合并成环（{cycle}）：赛事被手工改动过；请从 history/ 恢复 qiwang.json"
                ),
                en(
                    "the state merges groups in a circle ({cycle}): the event was edited by hand; restore qiwang.json from history/"
                ),
            ),
            LookupError::BadNumber { text } => {
                let text = typed(text);
                bi!(
                    lang,
                    zh("`{text}` 不是编排号：请写 `#` 加数字，例如 `#5`"),
                    en("`{text}` is not a pairing number: write `#` and a number, e.g. `#5`"),
                )
            }
            LookupError::NoNumber { number } => bi!(
                lang,
                zh("没有编排号为 `{number}` 的棋手"),
                en("no player has pairing number `{number}`"),
            ),
            LookupError::NumberInSeveralGroups { number, ids } => bi!(
                lang,
                zh("编排号 `{number}` 在多个组别中都有：请改用报名编号（{ids}）"),
                en(
                    "pairing number `{number}` exists in several groups: use the registration id ({ids})"
                ),
            ),
            LookupError::NoId { id } => bi!(
                lang,
                zh(
                    "没有报名编号为 `{id}` 的棋手：`qiwang players` 可列出所有棋手（编排号请用 `#N`）"
                ),
                en(
                    "no player with registration id `{id}`: `qiwang players` lists them (use `#N` for a pairing number)"
                ),
            ),
            LookupError::NoName { name, hint } => {
                let name = typed(name);
                bi!(
                    lang,
                    zh(
                        "没有名为 `{name}` 的棋手{}\n`qiwang players` 可列出所有棋手",
                        hint.zh
                    ),
                    en(
                        "no player named `{name}`{}\n`qiwang players` lists them",
                        hint.en
                    ),
                )
            }
            LookupError::NameInOtherGroup { name, pool, groups } => {
                let name = typed(name);
                let groups = |lang: Lang| {
                    groups
                        .iter()
                        .map(|g| bi!(lang, zh("组别 `{g}`"), en("group `{g}`")))
                        .collect::<Vec<_>>()
                        .join(lang.pick("、", ", "))
                };
                bi!(
                    lang,
                    zh(
                        "组别 `{pool}` 中没有名为 `{name}` 的棋手：`{name}` 在{}",
                        groups(Lang::Zh)
                    ),
                    en(
                        "no player named `{name}` in group `{pool}`: `{name}` is in {}",
                        groups(Lang::En)
                    ),
                )
            }
            LookupError::SwapAcrossPools {
                a,
                a_pool,
                b,
                b_pool,
            } => bi!(
                lang,
                zh(
                    "`{a}` 在组别 `{a_pool}`，`{b}` 在组别 `{b_pool}`：只能交换同一组别本轮的两名棋手"
                ),
                en(
                    "`{a}` is in group `{a_pool}` and `{b}` in group `{b_pool}`: a swap exchanges two players of one group's round"
                ),
            ),
            LookupError::SeveralNamed { name, count, ids } => {
                let name = typed(name);
                bi!(
                    lang,
                    zh("有 {count} 名棋手叫 `{name}`：请用报名编号（{ids}）"),
                    en("{count} players are named `{name}`: use the registration id ({ids})"),
                )
            }
        }
    }
}

/// The groups a user may name: in Chinese by their regulation names, in English by id
/// with the name beside it.
fn group_names(rules: &Rulebook) -> Text {
    names_of(&rules.groups.iter().collect::<Vec<_>>())
}

/// [`group_names`] of some groups.
fn names_of(groups: &[&GroupRule]) -> Text {
    let zh: Vec<String> = groups.iter().map(|g| format!("`{}`", g.name)).collect();
    let en: Vec<String> = groups
        .iter()
        .map(|g| format!("`{}` ({})", g.id, g.name))
        .collect();
    Text::new(zh.join("、"), en.join(", "))
}

/// The groups worth choosing with `--group` when one must be named: those paired in a
/// pool that still pairs on its own (a group merged away is its pool's, a cancelled one
/// is never paired); every group when none is left.
fn choosable_group_names(rules: &Rulebook, event: &Event) -> Text {
    let live: Vec<&GroupRule> = rules
        .groups
        .iter()
        .filter(|g| {
            event
                .group(rules.pool_of(g))
                .is_none_or(|s| s.merged_into.is_none() && !s.cancelled)
        })
        .collect();
    match live.is_empty() {
        true => group_names(rules),
        false => names_of(&live),
    }
}

/// The pool `group` plays in now: itself, or the group it was merged into, followed to
/// the end ([`Event::merge_chain`]). A hand-edited state that merges groups in a circle is an
/// error, not a hang.
pub fn merged_pool(event: &Event, group: &GroupId) -> Result<GroupId, LookupError> {
    match event.merge_chain(group) {
        (mut chain, Some(again)) => {
            chain.push(again);
            let cycle = chain
                .iter()
                .map(GroupId::to_string)
                .collect::<Vec<_>>()
                .join(" → ");
            Err(LookupError::MergeCycle { cycle })
        }
        (chain, None) => Ok(chain.last().cloned().unwrap_or_else(|| group.clone())),
    }
}

/// The pool a user names (`--group`): id, regulation name or alias; a section resolves to
/// the pool it is paired in, a merged group to the group it was merged into. Without a
/// name, the only pool (or the only pool with players) is meant.
pub fn find_pool(
    rules: &Rulebook,
    event: &Event,
    name: Option<&str>,
) -> Result<GroupId, LookupError> {
    if let Some(name) = name {
        let group = rules.find_group(name).ok_or_else(|| {
            let spellings = rules.groups.iter().flat_map(|g| {
                [g.id.as_str(), g.name.as_str()]
                    .into_iter()
                    .chain(g.aliases.iter().map(String::as_str))
            });
            LookupError::UnknownGroup {
                name: name.to_string(),
                known: group_names(rules),
                hint: did_you_mean_text(&did_you_mean(name, spellings)),
            }
        })?;
        return merged_pool(event, rules.pool_of(group));
    }
    let pools: Vec<&GroupId> = rules.pools().map(|g| &g.id).collect();
    if let [only] = pools.as_slice() {
        return Ok((*only).clone());
    }
    if let [only] = pools_shown(rules, event, Shown::Players).as_slice() {
        return Ok(only.id.clone());
    }
    Err(LookupError::GroupNeeded {
        known: choosable_group_names(rules, event),
    })
}

/// [`find_pool`] for a command about a pool's rounds (its sheets, its results): a pool
/// named that was cancelled, or that the named group's chain of merges ends in, has none
/// and is refused saying so ([`LookupError::CancelledPool`]), not as a pool not yet
/// paired.
pub fn find_paired_pool(
    rules: &Rulebook,
    event: &Event,
    name: Option<&str>,
) -> Result<GroupId, LookupError> {
    let pool = find_pool(rules, event, name)?;
    let state = event.group(&pool);
    if state.is_some_and(|s| s.cancelled && s.rounds.is_empty()) {
        let name_of = |id: &GroupId| rules.group_name(id);
        let named = name
            .and_then(|n| rules.find_group(n))
            .map_or_else(|| name_of(&pool), |g| g.name.clone());
        return Err(LookupError::CancelledPool {
            name: named,
            pool: name_of(&pool),
        });
    }
    Ok(pool)
}

/// The player a user names: a registration id (`17`), a pairing number in a pool (`#5`,
/// with `pool` when numbers repeat across pools), or an exact name (must be unique).
pub fn find_player<'a>(
    event: &'a Event,
    pool: Option<&GroupId>,
    text: &str,
) -> Result<&'a Player, LookupError> {
    let text = text.trim();
    if let Some(num) = text.strip_prefix('#') {
        let number: u32 = num.parse().map_err(|_| LookupError::BadNumber {
            text: text.to_string(),
        })?;
        let candidates: Vec<&Player> = event
            .players
            .iter()
            .filter(|p| p.number == Some(number) && pool.is_none_or(|g| &p.group == g))
            .collect();
        return match candidates.as_slice() {
            [one] => Ok(one),
            [] => Err(LookupError::NoNumber { number }),
            many => Err(LookupError::NumberInSeveralGroups {
                number,
                ids: many
                    .iter()
                    .map(|p| p.id.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        };
    }
    if let Ok(id) = text.parse::<u32>() {
        return event.player(PlayerId(id)).ok_or(LookupError::NoId { id });
    }
    // Names are stored cleaned (no invisible characters, NFC): `张\u{200b}三` finds 张三.
    let cleaned = crate::registration::normalise::clean_name(text);
    let matches: Vec<&Player> = event
        .players
        .iter()
        .filter(|p| (p.name == text || p.name == cleaned) && pool.is_none_or(|g| &p.group == g))
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => {
            // The name is there, in another pool: saying "no player named" would be wrong.
            let elsewhere = groups_named(event, text, &cleaned);
            if let Some(pool) = pool
                && !elsewhere.is_empty()
            {
                return Err(LookupError::NameInOtherGroup {
                    name: text.to_string(),
                    pool: pool.clone(),
                    groups: elsewhere,
                });
            }
            // Suggested as every output prints a name: masked where it holds a number.
            let names: Vec<std::borrow::Cow<'_, str>> = event
                .players
                .iter()
                .filter(|p| pool.is_none_or(|g| &p.group == g))
                .map(Player::shown_name)
                .collect();
            Err(LookupError::NoName {
                name: text.to_string(),
                hint: did_you_mean_text(&did_you_mean(text, names.iter().map(AsRef::as_ref))),
            })
        }
        many => Err(LookupError::SeveralNamed {
            name: text.to_string(),
            count: many.len(),
            ids: many
                .iter()
                .map(|p| p.id.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

/// The groups of the players named `text` (as typed or `cleaned`), each once.
fn groups_named(event: &Event, text: &str, cleaned: &str) -> Vec<GroupId> {
    let mut groups: Vec<GroupId> = Vec::new();
    for p in &event.players {
        if (p.name == text || p.name == cleaned) && !groups.contains(&p.group) {
            groups.push(p.group.clone());
        }
    }
    groups
}

/// The pool of `pairing swap A B` and its two players, named `a` and `b`: the pool
/// `group` names, or without it the pool both play in when each name picks out exactly
/// one player of the event and they share a pool. Two names that each pick out one player
/// of the event, in different pools, are refused naming both pools
/// ([`LookupError::SwapAcrossPools`]), whether or not `group` names one of them: no group
/// makes that swap.
pub fn swap_pool(
    rules: &Rulebook,
    event: &Event,
    group: Option<&str>,
    a: &str,
    b: &str,
) -> Result<(GroupId, PlayerId, PlayerId), LookupError> {
    // Each name looked up once in the whole event, with the player's pool (`None`: a group
    // the rulebook does not know, which is its own pool but gives no pool to choose).
    let found = |name: &str| {
        let player = find_player(event, None, name).ok()?;
        Some((
            player,
            find_pool(rules, event, Some(player.group.as_str())).ok(),
        ))
    };
    let mut shared = None;
    if let (Some((pa, a_found)), Some((pb, b_found))) = (found(a), found(b)) {
        let a_pool = a_found.clone().unwrap_or_else(|| pa.group.clone());
        let b_pool = b_found.clone().unwrap_or_else(|| pb.group.clone());
        if a_pool != b_pool {
            return Err(LookupError::SwapAcrossPools {
                a: event.player_label(pa.id),
                a_pool,
                b: event.player_label(pb.id),
                b_pool,
            });
        }
        shared = a_found.zip(b_found).map(|(pool, _)| pool);
    }
    let pool = match (group, shared) {
        (None, Some(pool)) => pool,
        _ => find_pool(rules, event, group)?,
    };
    let pa = find_player(event, Some(&pool), a)?.id;
    let pb = find_player(event, Some(&pool), b)?.id;
    Ok((pool, pa, pb))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event() -> (Event, Rulebook) {
        let rules = Rulebook::cxa_2011("t", 5);
        let pool = rules.pools().next().unwrap().id.clone();
        let mut event = Event::new(String::new());
        for (id, name, number) in [(1, "张三", 1), (2, "李四", 2), (3, "张三", 3)] {
            let mut p = Player::new(PlayerId(id), name, pool.clone());
            p.number = Some(number);
            event.players.push(p);
        }
        (event, rules)
    }

    #[test]
    fn players_by_id_number_or_unique_name() {
        let (event, _) = event();
        assert_eq!(find_player(&event, None, "2").unwrap().name, "李四");
        assert_eq!(find_player(&event, None, " #3 ").unwrap().id, PlayerId(3));
        assert_eq!(find_player(&event, None, "李四").unwrap().id, PlayerId(2));
        assert!(matches!(
            find_player(&event, None, "张三"),
            Err(LookupError::SeveralNamed { count: 2, .. })
        ));
        assert!(matches!(
            find_player(&event, None, "#x"),
            Err(LookupError::BadNumber { .. })
        ));
        assert_eq!(
            find_player(&event, None, "9").unwrap_err(),
            LookupError::NoId { id: 9 }
        );
    }

    #[test]
    fn a_name_in_another_group_says_where_it_is_and_two_names_give_their_pool() {
        let (mut event, rules) = event();
        let pool = rules.pools().next().unwrap().id.clone();
        let other = GroupId::new("other");
        event
            .players
            .push(Player::new(PlayerId(4), "王五", other.clone()));
        let err = find_player(&event, Some(&pool), "王五").unwrap_err();
        assert_eq!(
            err,
            LookupError::NameInOtherGroup {
                name: "王五".into(),
                pool: pool.clone(),
                groups: vec![other.clone()],
            }
        );
        assert_eq!(
            err.localize(Lang::Zh),
            format!("组别 `{pool}` 中没有名为 `王五` 的棋手：`王五` 在组别 `other`")
        );
        assert!(matches!(
            find_player(&event, Some(&pool), "赵六"),
            Err(LookupError::NoName { .. })
        ));
    }

    /// A swap of players of two pools is refused naming both pools, with `--group` or
    /// without; two players of one pool give it.
    #[test]
    fn a_swap_across_pools_names_both_pools() {
        let (mut event, rules) = event();
        let pool = rules.pools().next().unwrap().id.clone();
        let other = GroupId::new("other");
        event
            .players
            .push(Player::new(PlayerId(4), "王五", other.clone()));
        let across = LookupError::SwapAcrossPools {
            a: "李四(2)".into(),
            a_pool: pool.clone(),
            b: "王五".into(),
            b_pool: other.clone(),
        };
        for group in [None, Some(pool.as_str()), Some("other")] {
            assert_eq!(
                swap_pool(&rules, &event, group, "李四", "王五"),
                Err(across.clone()),
                "{group:?}"
            );
        }
        assert_eq!(
            across.localize(Lang::En),
            format!(
                "`李四(2)` is in group `{pool}` and `王五` in group `other`: a swap exchanges two players of one group's round"
            )
        );
        assert_eq!(
            across.localize(Lang::Zh),
            format!(
                "`李四(2)` 在组别 `{pool}`，`王五` 在组别 `other`：只能交换同一组别本轮的两名棋手"
            )
        );
        assert_eq!(
            swap_pool(&rules, &event, None, "李四", "#1"),
            Ok((pool.clone(), PlayerId(2), PlayerId(1)))
        );
        // A name of two players is still asked by registration id.
        assert!(matches!(
            swap_pool(&rules, &event, None, "张三", "李四"),
            Err(LookupError::SeveralNamed { .. })
        ));
    }

    #[test]
    fn a_merge_cycle_is_an_error_not_a_hang() {
        let (mut event, _) = event();
        let (a, b) = (GroupId::new("a"), GroupId::new("b"));
        event.group_mut(&a).merged_into = Some(b.clone());
        event.group_mut(&b).merged_into = Some(a.clone());
        let err = merged_pool(&event, &a).unwrap_err();
        assert_eq!(
            err,
            LookupError::MergeCycle {
                cycle: "a → b → a".into()
            }
        );
        event.group_mut(&b).merged_into = None;
        assert_eq!(merged_pool(&event, &a), Ok(b));
    }

    #[test]
    fn every_message_has_chinese() {
        use crate::i18n::facts::assert_localized;
        let all = [
            LookupError::UnknownGroup {
                name: "x".into(),
                known: Text::new("`a` (A)", "`a` (A)"),
                hint: did_you_mean_text(&["y"]),
            },
            LookupError::GroupNeeded {
                known: Text::new("`a` (A)", "`a` (A)"),
            },
            LookupError::MergeCycle {
                cycle: "a → b → a".into(),
            },
            LookupError::BadNumber { text: "#x".into() },
            LookupError::NoNumber { number: 4 },
            LookupError::NumberInSeveralGroups {
                number: 4,
                ids: "1, 3".into(),
            },
            LookupError::NoId { id: 9 },
            LookupError::NoName {
                name: "王五".into(),
                hint: did_you_mean_text(&["王武"]),
            },
            LookupError::SeveralNamed {
                name: "张三".into(),
                count: 2,
                ids: "1, 3".into(),
            },
        ];
        for e in &all {
            assert_localized(e);
        }
    }
}
