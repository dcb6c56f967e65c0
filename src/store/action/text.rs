//! An [`Action`] worded in Chinese or English, groups, prize lists and players named as
//! [`Names`] has them (by id in the English summary `audit.log` keeps).

use super::{Action, GroupResults};
use crate::i18n::bi;
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
        self.rules
            .map_or_else(|| id.to_string(), |r| r.group_name(id))
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
        bi!(self.lang, zh("{name}（编号 {id}）"), en("{id} `{name}`"))
    }
}

impl Action {
    /// The action worded in `names.lang`.
    pub fn text(&self, names: &Names) -> String {
        let g = |id: &GroupId| names.group(id);
        match self {
            Action::Imported { players, files } => bi!(
                names.lang,
                zh("导入 {players} 名棋手（{}）", files.join("、")),
                en(
                    "imported {} from {}",
                    plural(players, "player", "players"),
                    files.join(", ")
                )
            ),
            Action::GroupMerged { from, into, moved } => bi!(
                names.lang,
                zh("将{}并入{}：转入 {moved} 名棋手", g(from), g(into)),
                en(
                    "merged group {} into {}: {} moved",
                    g(from),
                    g(into),
                    plural(moved, "player", "players")
                )
            ),
            Action::GroupCancelled { group, withdrawn } => bi!(
                names.lang,
                zh("取消{}：{withdrawn} 名棋手退赛", g(group)),
                en(
                    "cancelled group {}: {} withdrawn",
                    g(group),
                    plural(withdrawn, "player", "players")
                )
            ),
            Action::Paired { rounds, refused } => {
                let each: Vec<String> = rounds
                    .iter()
                    .map(|r| {
                        // A team competition's round is of matches (场), not games.
                        let team = names.rules.is_some_and(|r| r.team_competition.is_some());
                        let games = r.games.map_or(String::new(), |n| match team {
                            false => bi!(
                                names.lang,
                                zh("：{n} 局"),
                                en(": {}", plural(n, "game", "games"))
                            ),
                            true => bi!(
                                names.lang,
                                zh("：{n} 场"),
                                en(": {}", plural(n, "match", "matches"))
                            ),
                        });
                        let seed = r.seed.map_or(String::new(), |s| {
                            bi!(names.lang, zh("（种子 {s}）"), en(" (seed {s})"))
                        });
                        let relax = r.relax.as_deref().map_or(String::new(), |list| {
                            let rules: Vec<&str> = list
                                .iter()
                                .map(|x| relax_rule_label(*x, names.lang))
                                .collect();
                            bi!(
                                names.lang,
                                zh("（--relax：本轮可放宽{}）", rules.join("、")),
                                en(" (--relax: this round may relax {})", rules.join(", "))
                            )
                        });
                        bi!(
                            names.lang,
                            zh("{}第{}轮{games}{seed}{relax}", g(&r.group), r.round),
                            en("round {} of {}{games}{seed}{relax}", r.round, g(&r.group))
                        )
                    })
                    .collect();
                let refused: String = refused
                    .iter()
                    .map(|r| {
                        let seed = r.seed.map_or(String::new(), |s| {
                            bi!(
                                names.lang,
                                zh("，记录抽签种子 {s}"),
                                en(", draw seed {s} recorded")
                            )
                        });
                        bi!(
                            names.lang,
                            zh("；{}第{}轮无合规编排{seed}", g(&r.group), r.round),
                            en(
                                "; round {} of {} refused (no legal pairing{seed})",
                                r.round,
                                g(&r.group)
                            )
                        )
                    })
                    .collect();
                bi!(
                    names.lang,
                    zh("编排{}{refused}", each.join("；")),
                    en("paired {}{refused}", each.join(", "))
                )
            }
            Action::SeedsRecorded { seeds } => {
                let each = seeds
                    .iter()
                    .map(|(p, s)| format!("{} {s}", g(p)))
                    .collect::<Vec<_>>();
                bi!(
                    names.lang,
                    zh("记录第1轮抽签种子：{}", each.join("、")),
                    en("recorded the round-1 draw seeds: {}", each.join(", "))
                )
            }
            Action::Unpaired { group, round } => bi!(
                names.lang,
                zh("撤销{}第{round}轮编排", g(group)),
                en("dropped round {round} of {}", g(group))
            ),
            Action::RoundEdited {
                group,
                round,
                forced,
            } => {
                let player = |id| names.player(id);
                let past: Vec<String> =
                    forced.iter().map(|v| v.text(names.lang, &player)).collect();
                match past.is_empty() {
                    true => bi!(
                        names.lang,
                        zh("手工修改{}第{round}轮编排", g(group)),
                        en("edited round {round} of {} by hand", g(group))
                    ),
                    false => bi!(
                        names.lang,
                        zh(
                            "手工修改{}第{round}轮编排，强行违反：{}",
                            g(group),
                            past.join("；")
                        ),
                        en(
                            "edited round {round} of {} by hand, FORCED past: {}",
                            g(group),
                            past.join("; ")
                        )
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
            } => bi!(
                names.lang,
                zh(
                    "添加棋手 {}：{}，自第{from_round}轮起{}",
                    names.recorded(*player, name),
                    g(group),
                    if *late { "（逾期报名）" } else { "" }
                ),
                en(
                    "added player {player} `{name}` to {} from round {from_round}{}",
                    g(group),
                    if *late { " (late entry)" } else { "" }
                )
            ),
            Action::PlayerEdited { player, name } => bi!(
                names.lang,
                zh("修改棋手 {}", names.recorded(*player, name)),
                en("edited player {player} `{name}`")
            ),
            Action::PlayerWithdrawn {
                player,
                name,
                from_round,
            } => bi!(
                names.lang,
                zh(
                    "棋手 {} 退赛，自第{from_round}轮起不再编排",
                    names.recorded(*player, name)
                ),
                en("withdrew player {player} `{name}` from round {from_round}")
            ),
            Action::PlayerReinstated {
                player,
                name,
                from_round,
            } => bi!(
                names.lang,
                zh(
                    "棋手 {} 恢复参赛，自第{from_round}轮起重新编排",
                    names.recorded(*player, name)
                ),
                en("reinstated player {player} `{name}` from round {from_round}")
            ),
            Action::PlayerDisqualified {
                player,
                name,
                from_round,
                reason,
            } => bi!(
                names.lang,
                zh(
                    "取消棋手 {} 的比赛资格，自第{from_round}轮起：{reason}",
                    names.recorded(*player, name)
                ),
                en("disqualified player {player} `{name}` from round {from_round}: {reason}")
            ),
            Action::DisqualificationLifted { player, name } => bi!(
                names.lang,
                zh("撤销对棋手 {} 的取消资格", names.recorded(*player, name)),
                en("lifted the disqualification of player {player} `{name}`")
            ),
            Action::Warning {
                player,
                name,
                after_round,
                reason,
            } => {
                let when = when_given(*after_round, names.lang);
                bi!(
                    names.lang,
                    zh(
                        "{when}警告棋手 {}（不扣分）：{reason}",
                        names.recorded(*player, name)
                    ),
                    en("warning to player {player} `{name}` {when} (no points deducted): {reason}")
                )
            }
            Action::Penalty {
                player,
                name,
                points,
                after_round,
                reason,
            } => {
                let when = when_given(*after_round, names.lang);
                bi!(
                    names.lang,
                    zh(
                        "{when}罚棋手 {} {points} 分：{reason}",
                        names.recorded(*player, name)
                    ),
                    en(
                        "penalty of {} to player {player} `{name}` {when}: {reason}",
                        plural(points, "point", "points")
                    )
                )
            }
            Action::Playoff { group, order } => {
                let order = order_text(order, names);
                bi!(
                    names.lang,
                    zh("记录{}附加赛名次：{order}", g(group)),
                    en("recorded playoff in {}: {order}", g(group))
                )
            }
            Action::ListPlayoff { list, group, order } => {
                let order = order_text(order, names);
                bi!(
                    names.lang,
                    zh(
                        "记录奖项名单“{}”（{}）附加赛名次：{order}",
                        names.list(list),
                        g(group)
                    ),
                    en(
                        "recorded playoff of list {} in {}: {order}",
                        names.list(list),
                        g(group)
                    )
                )
            }
            Action::TeamResults {
                group,
                round,
                matches,
                tiebreak,
            } => {
                let list = matches
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ");
                match tiebreak {
                    false => bi!(
                        names.lang,
                        zh("记录{}第{round}轮第 {list} 场各台成绩", g(group)),
                        en(
                            "recorded the boards of match {list}, round {round} of {}",
                            g(group)
                        )
                    ),
                    true => bi!(
                        names.lang,
                        zh("记录{}第{round}轮第 {list} 场加赛成绩", g(group)),
                        en(
                            "recorded the tiebreak games of match {list}, round {round} of {}",
                            g(group)
                        )
                    ),
                }
            }
            Action::LineupChanged {
                group,
                round,
                team,
                swaps,
            } => {
                let each: Vec<String> = swaps
                    .iter()
                    .map(|(out, inn)| {
                        bi!(names.lang, zh("{inn} 替换 {out}"), en("{inn} for {out}"))
                    })
                    .collect();
                bi!(
                    names.lang,
                    zh("{}第{round}轮 {team}换人：{}", g(group), each.join("、")),
                    en(
                        "changed the line-up of {team} in round {round} of {}: {}",
                        g(group),
                        each.join(", ")
                    )
                )
            }
            Action::TeamWithdrawn {
                group,
                team,
                from_round,
            } => bi!(
                names.lang,
                zh("{}{team}全队退赛，自第{from_round}轮起不再编排", g(group)),
                en(
                    "withdrew team {team} of {} from round {from_round}",
                    g(group)
                )
            ),
            Action::TeamReinstated {
                group,
                team,
                from_round,
            } => bi!(
                names.lang,
                zh("{}{team}恢复参赛，自第{from_round}轮起重新编排", g(group)),
                en(
                    "reinstated team {team} of {} from round {from_round}",
                    g(group)
                )
            ),
            Action::RulesUpdated {
                file,
                changed_lines,
            } => bi!(
                names.lang,
                zh("用 {file} 更新赛事规程：{changed_lines} 行改变"),
                en(
                    "replaced the rulebook from {file}: {}",
                    plural(changed_lines, "changed line", "changed lines")
                )
            ),
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
        .map(|g| {
            bi!(
                lang,
                zh("{}第{}轮", names.group(&g.group), rounds(g)),
                en("{} round {}", names.group(&g.group), rounds(g))
            )
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
        notes.push(bi!(
            lang,
            zh("另有 {more} 条更正或提示"),
            en(
                "{}",
                plural(
                    more,
                    "more correction or warning",
                    "more corrections or warnings"
                )
            )
        ));
    }
    let notes = match notes.is_empty() {
        true => String::new(),
        false => bi!(
            lang,
            zh("：{}", notes.join("；")),
            en(": {}", notes.join("; "))
        ),
    };
    bi!(
        lang,
        zh("记录 {count} 个结果（{}）{notes}", where_.join("；")),
        en(
            "recorded {} in {}{notes}",
            plural(count, "result", "results"),
            where_.join("; ")
        )
    )
}

/// When a warning or penalty was given, as its audit line says it: 开赛前 / before round
/// 1, else 第N轮后 / after round N (one given before round 1 is complete counts from the
/// start).
fn when_given(after_round: u32, lang: Lang) -> String {
    match after_round {
        0 => lang.pick("开赛前", "before round 1").to_string(),
        n => bi!(lang, zh("第{n}轮后"), en("after round {n}")),
    }
}
