//! An [`Action`] worded in Chinese or English, groups, prize lists and players named as
//! [`Names`] has them (by id in the English summary `audit.log` keeps).

use super::{Action, GroupResults};
use crate::i18n::plural;
use crate::model::{Event, GroupId, PlayerId};
use crate::pairing::relax_rule_label;
use crate::results::correction_text;
use crate::rulebook::{Lang, Rulebook};

/// How many corrections and warnings a results line words before it counts the rest: a
/// whole round re-entered from a corrected file must not make a megabyte-long line.
const NOTES_SHOWN: usize = 10;

/// How groups, prize lists and players are named in a wording: Chinese names them as the
/// regulation and the sheets do, English by id (the audit log's own wording).
pub struct Names<'a> {
    /// The language of the wording.
    pub lang: Lang,
    /// The rulebook naming groups and prize lists, if any (else they are named by id).
    pub rules: Option<&'a Rulebook>,
    /// The event naming players, if any (else they are named by id).
    pub event: Option<&'a Event>,
}

impl<'a> Names<'a> {
    /// Ids, as the English summary in `audit.log` has them.
    pub fn ids() -> Names<'static> {
        Names {
            lang: Lang::En,
            rules: None,
            event: None,
        }
    }

    /// Names from the event's rulebook and players, in `lang`.
    pub fn of(lang: Lang, rules: &'a Rulebook, event: &'a Event) -> Names<'a> {
        Names {
            lang,
            rules: Some(rules),
            event: Some(event),
        }
    }

    fn group(&self, id: &GroupId) -> String {
        match self.rules.and_then(|r| r.group(id)) {
            Some(g) => g.name.clone(),
            None => id.to_string(),
        }
    }

    fn list(&self, id: &str) -> String {
        self.rules
            .and_then(|r| r.prizes.lists.iter().find(|l| l.id == id))
            .map_or_else(|| id.to_string(), |l| l.name.clone())
    }

    fn player(&self, id: PlayerId) -> String {
        match self.event {
            Some(event) => event.player_label(id),
            None => id.to_string(),
        }
    }

    /// A player whose name the action recorded: `12 `张三`` in English, 张三（12）in Chinese.
    fn recorded(&self, id: PlayerId, name: &str) -> String {
        match self.lang {
            Lang::Zh => format!("{name}（编号 {id}）"),
            Lang::En => format!("{id} `{name}`"),
        }
    }
}

impl Action {
    /// The action worded in `names.lang`.
    pub fn text(&self, names: &Names) -> String {
        let zh = names.lang == Lang::Zh;
        let g = |id: &GroupId| names.group(id);
        match self {
            Action::Imported { players, files } => match zh {
                true => format!("导入 {players} 名棋手（{}）", files.join("、")),
                false => format!(
                    "imported {} from {}",
                    plural(players, "player", "players"),
                    files.join(", ")
                ),
            },
            Action::GroupMerged { from, into, moved } => match zh {
                true => format!("将{}并入{}：转入 {moved} 名棋手", g(from), g(into)),
                false => format!(
                    "merged group {} into {}: {} moved",
                    g(from),
                    g(into),
                    plural(moved, "player", "players")
                ),
            },
            Action::GroupCancelled { group, withdrawn } => match zh {
                true => format!("取消{}：{withdrawn} 名棋手退赛", g(group)),
                false => format!(
                    "cancelled group {}: {} withdrawn",
                    g(group),
                    plural(withdrawn, "player", "players")
                ),
            },
            Action::Paired { rounds, refused } => {
                let each: Vec<String> = rounds
                    .iter()
                    .map(|r| {
                        let games = r.games.map_or(String::new(), |n| match zh {
                            true => format!("：{n} 局"),
                            false => format!(": {}", plural(n, "game", "games")),
                        });
                        let seed = r.seed.map_or(String::new(), |s| match zh {
                            true => format!("（种子 {s}）"),
                            false => format!(" (seed {s})"),
                        });
                        let relax = r.relax.as_deref().map_or(String::new(), |list| {
                            let names: Vec<&str> = list
                                .iter()
                                .map(|x| relax_rule_label(*x, names.lang))
                                .collect();
                            match zh {
                                true => format!("（--relax：本轮可放宽{}）", names.join("、")),
                                false => {
                                    format!(" (--relax: this round may relax {})", names.join(", "))
                                }
                            }
                        });
                        match zh {
                            true => {
                                format!("{}第{}轮{games}{seed}{relax}", g(&r.group), r.round)
                            }
                            false => {
                                format!("round {} of {}{games}{seed}{relax}", r.round, g(&r.group))
                            }
                        }
                    })
                    .collect();
                let refused: String = refused
                    .iter()
                    .map(|r| {
                        let seed = r.seed.map_or(String::new(), |s| match zh {
                            true => format!("，记录抽签种子 {s}"),
                            false => format!(", draw seed {s} recorded"),
                        });
                        match zh {
                            true => format!("；{}第{}轮无合规编排{seed}", g(&r.group), r.round),
                            false => format!(
                                "; round {} of {} refused (no legal pairing{seed})",
                                r.round,
                                g(&r.group)
                            ),
                        }
                    })
                    .collect();
                match zh {
                    true => format!("编排{}{refused}", each.join("；")),
                    false => format!("paired {}{refused}", each.join(", ")),
                }
            }
            Action::SeedsRecorded { seeds } => {
                let each = seeds
                    .iter()
                    .map(|(p, s)| format!("{} {s}", g(p)))
                    .collect::<Vec<_>>();
                match zh {
                    true => format!("记录第1轮抽签种子：{}", each.join("、")),
                    false => format!("recorded the round-1 draw seeds: {}", each.join(", ")),
                }
            }
            Action::Unpaired { group, round } => match zh {
                true => format!("撤销{}第{round}轮编排", g(group)),
                false => format!("dropped round {round} of {}", g(group)),
            },
            Action::RoundEdited {
                group,
                round,
                forced,
            } => {
                let player = |id| names.player(id);
                let past: Vec<String> =
                    forced.iter().map(|v| v.text(names.lang, &player)).collect();
                match (zh, past.is_empty()) {
                    (true, true) => format!("手工修改{}第{round}轮编排", g(group)),
                    (true, false) => format!(
                        "手工修改{}第{round}轮编排，强行违反：{}",
                        g(group),
                        past.join("；")
                    ),
                    (false, true) => format!("edited round {round} of {} by hand", g(group)),
                    (false, false) => format!(
                        "edited round {round} of {} by hand, FORCED past: {}",
                        g(group),
                        past.join("; ")
                    ),
                }
            }
            Action::Results { groups } => results_text(groups, names),
            Action::PlayerAdded {
                player,
                name,
                group,
                from_round,
                late,
            } => match zh {
                true => format!(
                    "添加棋手 {}：{}，自第{from_round}轮起{}",
                    names.recorded(*player, name),
                    g(group),
                    if *late { "（逾期报名）" } else { "" }
                ),
                false => format!(
                    "added player {player} `{name}` to {} from round {from_round}{}",
                    g(group),
                    if *late { " (late entry)" } else { "" }
                ),
            },
            Action::PlayerEdited { player, name } => match zh {
                true => format!("修改棋手 {}", names.recorded(*player, name)),
                false => format!("edited player {player} `{name}`"),
            },
            Action::PlayerWithdrawn {
                player,
                name,
                from_round,
            } => match zh {
                true => format!(
                    "棋手 {} 退赛，自第{from_round}轮起不再编排",
                    names.recorded(*player, name)
                ),
                false => format!("withdrew player {player} `{name}` from round {from_round}"),
            },
            Action::PlayerReinstated {
                player,
                name,
                from_round,
            } => match zh {
                true => format!(
                    "棋手 {} 恢复参赛，自第{from_round}轮起重新编排",
                    names.recorded(*player, name)
                ),
                false => format!("reinstated player {player} `{name}` from round {from_round}"),
            },
            Action::PlayerDisqualified {
                player,
                name,
                from_round,
                reason,
            } => match zh {
                true => format!(
                    "取消棋手 {} 的比赛资格，自第{from_round}轮起：{reason}",
                    names.recorded(*player, name)
                ),
                false => format!(
                    "disqualified player {player} `{name}` from round {from_round}: {reason}"
                ),
            },
            Action::DisqualificationLifted { player, name } => match zh {
                true => format!("撤销对棋手 {} 的取消资格", names.recorded(*player, name)),
                false => format!("lifted the disqualification of player {player} `{name}`"),
            },
            Action::Warning {
                player,
                name,
                after_round,
                reason,
            } => {
                let when = match (zh, *after_round) {
                    (true, 0) => "开赛前".to_string(),
                    (true, n) => format!("第{n}轮后"),
                    (false, 0) => "before round 1".to_string(),
                    (false, n) => format!("after round {n}"),
                };
                match zh {
                    true => format!(
                        "{when}警告棋手 {}（不扣分）：{reason}",
                        names.recorded(*player, name)
                    ),
                    false => format!(
                        "warning to player {player} `{name}` {when} (no points deducted): {reason}"
                    ),
                }
            }
            Action::Penalty {
                player,
                name,
                points,
                after_round,
                reason,
            } => {
                // A penalty given before round 1 is complete counts from the start.
                let when = match (zh, *after_round) {
                    (true, 0) => "开赛前".to_string(),
                    (true, n) => format!("第{n}轮后"),
                    (false, 0) => "before round 1".to_string(),
                    (false, n) => format!("after round {n}"),
                };
                match zh {
                    true => format!(
                        "{when}罚棋手 {} {points} 分：{reason}",
                        names.recorded(*player, name)
                    ),
                    false => format!(
                        "penalty of {} to player {player} `{name}` {when}: {reason}",
                        plural(points, "point", "points")
                    ),
                }
            }
            Action::Playoff { group, order } => {
                let order = order_text(order, names);
                match zh {
                    true => format!("记录{}附加赛名次：{order}", g(group)),
                    false => format!("recorded playoff in {}: {order}", g(group)),
                }
            }
            Action::ListPlayoff { list, group, order } => {
                let order = order_text(order, names);
                match zh {
                    true => format!(
                        "记录奖项名单“{}”（{}）附加赛名次：{order}",
                        names.list(list),
                        g(group)
                    ),
                    false => format!(
                        "recorded playoff of list {} in {}: {order}",
                        names.list(list),
                        g(group)
                    ),
                }
            }
            Action::RulesUpdated {
                file,
                changed_lines,
            } => match zh {
                true => format!("用 {file} 更新赛事规程：{changed_lines} 行改变"),
                false => {
                    format!(
                        "replaced the rulebook from {file}: {}",
                        plural(changed_lines, "changed line", "changed lines")
                    )
                }
            },
        }
    }
}

fn order_text(order: &[PlayerId], names: &Names) -> String {
    order
        .iter()
        .map(|p| names.player(*p))
        .collect::<Vec<_>>()
        .join(" > ")
}

/// `recorded 10 results in adult round 3: …` / `记录 10 个结果（成人组第3轮）：…`.
fn results_text(groups: &[GroupResults], names: &Names) -> String {
    let lang = names.lang;
    let count: usize = groups.iter().map(|g| g.count).sum();
    let rounds = |g: &GroupResults| {
        g.rounds
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let where_: Vec<String> = groups
        .iter()
        .map(|g| match lang {
            Lang::Zh => format!("{}第{}轮", names.group(&g.group), rounds(g)),
            Lang::En => format!("{} round {}", names.group(&g.group), rounds(g)),
        })
        .collect();
    let player = |id| names.player(id);
    // Only the notes shown are worded: a 50,000-result line counts the rest.
    let total: usize = groups
        .iter()
        .map(|g| g.corrections.len() + g.warnings.len())
        .sum();
    let mut notes: Vec<String> = groups
        .iter()
        .flat_map(|g| {
            g.corrections
                .iter()
                .map(move |c| correction_text(c.round, c.table, c.old.as_ref(), &c.new, lang))
                .chain(g.warnings.iter().map(|w| w.text(lang, &player)))
        })
        .take(NOTES_SHOWN)
        .collect();
    if total > NOTES_SHOWN {
        let more = total - NOTES_SHOWN;
        notes.push(match lang {
            Lang::Zh => format!("另有 {more} 条更正或提示"),
            Lang::En => plural(
                more,
                "more correction or warning",
                "more corrections or warnings",
            ),
        });
    }
    let notes = match (notes.is_empty(), lang) {
        (true, _) => String::new(),
        (false, Lang::Zh) => format!("：{}", notes.join("；")),
        (false, Lang::En) => format!(": {}", notes.join("; ")),
    };
    match lang {
        Lang::Zh => format!("记录 {count} 个结果（{}）{notes}", where_.join("；")),
        Lang::En => format!(
            "recorded {} in {}{notes}",
            plural(count, "result", "results"),
            where_.join("; ")
        ),
    }
}
