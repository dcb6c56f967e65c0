//! What a change did, in no language: every changing command stores an [`Action`] in its
//! audit line (`details.action`), and `log`, `undo` and `redo` word it in the output
//! language. The line's `summary` is the English wording, written once for people reading
//! `audit.log` itself (the file stays English); lines written before actions existed have
//! only that summary, which is shown as it is.

use qiwang::i18n::plural;
use qiwang::model::{Event, GameResult, GroupId, Outcome, PlayerId, Relax};
use qiwang::pairing::{Violation, relax_rule_label};
use qiwang::results::{ResultWarning, correction_text};
use qiwang::rulebook::{Lang, Rulebook};
use qiwang::store::{AuditEntry, Change, EntryKind};
use serde::{Deserialize, Serialize};

/// One change, with the values its wording needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Action {
    Imported {
        players: usize,
        files: Vec<String>,
    },
    GroupMerged {
        from: GroupId,
        into: GroupId,
        moved: usize,
    },
    GroupCancelled {
        group: GroupId,
        withdrawn: usize,
    },
    Paired {
        rounds: Vec<PairedRound>,
        /// `pair --all`: the pools refused for want of a legal pairing in the same run.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        refused: Vec<RefusedRound>,
    },
    /// `pair --dry-run` of round 1, or a round-1 `pair` refused for want of a legal
    /// pairing, recorded the draw's seed.
    SeedsRecorded {
        seeds: Vec<(GroupId, u64)>,
    },
    Unpaired {
        group: GroupId,
        round: u32,
    },
    RoundEdited {
        group: GroupId,
        round: u32,
        /// The hard rules `--force` stored the round past.
        forced: Vec<Violation>,
    },
    Results {
        groups: Vec<GroupResults>,
    },
    PlayerAdded {
        player: PlayerId,
        name: String,
        group: GroupId,
        from_round: u32,
    },
    PlayerEdited {
        player: PlayerId,
        name: String,
    },
    PlayerWithdrawn {
        player: PlayerId,
        name: String,
        from_round: u32,
    },
    PlayerReinstated {
        player: PlayerId,
        name: String,
        from_round: u32,
    },
    PlayerDisqualified {
        player: PlayerId,
        name: String,
        from_round: u32,
        reason: String,
    },
    DisqualificationLifted {
        player: PlayerId,
        name: String,
    },
    Penalty {
        player: PlayerId,
        name: String,
        points: i32,
        after_round: u32,
        reason: String,
    },
    Playoff {
        group: GroupId,
        order: Vec<PlayerId>,
    },
    ListPlayoff {
        list: String,
        group: GroupId,
        order: Vec<PlayerId>,
    },
    RulesUpdated {
        file: String,
        changed_lines: usize,
    },
}

/// One pool's paired round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedRound {
    pub group: GroupId,
    pub round: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<usize>,
    /// `pair --relax`: the rules this round alone could relax, in place of the rulebook's
    /// `pairing.relax`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relax: Option<Vec<Relax>>,
}

/// A pool's round `pair --all` found no legal pairing for, and the round-1 draw's seed
/// recorded for it then (none when it was recorded before, or given).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefusedRound {
    pub group: GroupId,
    pub round: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// The results recorded in one pool, with what the arbiter should know about them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupResults {
    pub group: GroupId,
    pub rounds: Vec<u32>,
    pub count: usize,
    #[serde(default)]
    pub corrections: Vec<Correction>,
    #[serde(default)]
    pub warnings: Vec<ResultWarning>,
}

/// A result that replaced a different one: the outcome, or only the fouls or lateness.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Correction {
    pub round: u32,
    pub table: u32,
    #[serde(deserialize_with = "old_result")]
    pub old: Option<GameResult>,
    #[serde(deserialize_with = "new_result")]
    pub new: GameResult,
}

/// A result as an audit line holds it: whole, or (lines written before fouls were kept)
/// only its outcome.
#[derive(Deserialize)]
#[serde(untagged)]
enum StoredResult {
    Whole(GameResult),
    Outcome(Outcome),
}

impl From<StoredResult> for GameResult {
    fn from(r: StoredResult) -> GameResult {
        match r {
            StoredResult::Whole(r) => r,
            StoredResult::Outcome(o) => GameResult::new(o),
        }
    }
}

fn old_result<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<GameResult>, D::Error> {
    Ok(Option::<StoredResult>::deserialize(d)?.map(GameResult::from))
}

fn new_result<'de, D: serde::Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
    StoredResult::deserialize(d).map(GameResult::from)
}

/// How many corrections and warnings a results line words before it counts the rest: a
/// whole round re-entered from a corrected file must not make a megabyte-long line.
const NOTES_SHOWN: usize = 10;

impl GroupResults {
    /// What `record_results` reported for one pool.
    pub fn of(report: &qiwang::results::RecordReport) -> GroupResults {
        let rounds: std::collections::BTreeSet<u32> =
            report.results.iter().map(|r| r.round).collect();
        GroupResults {
            group: report.group.clone(),
            rounds: rounds.into_iter().collect(),
            count: report.results.len(),
            corrections: report
                .corrections()
                .map(|r| Correction {
                    round: r.round,
                    table: r.table,
                    old: r.previous,
                    new: r.result,
                })
                .collect(),
            warnings: report.warnings.clone(),
        }
    }
}

/// How groups, prize lists and players are named in a wording: Chinese names them as the
/// regulation and the sheets do, English by id (the audit log's own wording).
pub struct Names<'a> {
    pub lang: Lang,
    pub rules: Option<&'a Rulebook>,
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
            Some(event) => crate::cli::context::player_label(event, id),
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
    /// The action stored in an audit line, if the line has one, its text masked as
    /// `audit.log` is.
    pub fn of(entry: &AuditEntry) -> Option<Action> {
        // New lines are masked when written; a line written before that may hold an ID or
        // phone number in a reason or name, masked here (strings only: seeds stay).
        let action = entry.details.get("action")?.clone();
        serde_json::from_value(qiwang::registration::privacy::mask_free_text_json(action)).ok()
    }

    /// The change `value` made, logged as this action: `details` gets the action, the
    /// summary its English wording.
    pub fn change<T>(self, value: T, details: serde_json::Value) -> Change<T> {
        let summary = self.text(&Names::ids());
        let action = serde_json::to_value(&self).unwrap_or_default();
        let details = match details {
            serde_json::Value::Object(mut map) => {
                map.insert("action".into(), action);
                serde_json::Value::Object(map)
            }
            serde_json::Value::Null => serde_json::json!({ "action": action }),
            other => serde_json::json!({ "action": action, "data": other }),
        };
        Change::changed(value, summary, details)
    }

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
            } => match zh {
                true => format!(
                    "添加棋手 {}：{}，自第{from_round}轮起",
                    names.recorded(*player, name),
                    g(group)
                ),
                false => format!(
                    "added player {player} `{name}` to {} from round {from_round}",
                    g(group)
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

/// What an audit line did, in `names.lang`, players and groups named as `names` has them:
/// the action worded, an undo or redo by the line it took back, `init` as creating the
/// event (in Chinese). A line without an action (written before actions existed) shows
/// its English summary.
pub fn describe(entry: &AuditEntry, entries: &[AuditEntry], names: &Names) -> String {
    describe_at(entry, entries, names, 0)
}

fn describe_at(entry: &AuditEntry, entries: &[AuditEntry], names: &Names, depth: u32) -> String {
    let zh = names.lang == Lang::Zh;
    let find = |seq: Option<u64>| {
        seq.and_then(|s| entries.iter().find(|e| e.seq == s))
            .filter(|_| depth < 8)
    };
    let summary = qiwang::registration::privacy::mask_free_text(&entry.summary);
    match entry.kind {
        EntryKind::Init if zh => {
            let players = entry
                .summary
                .split_whitespace()
                .find_map(|w| w.parse::<usize>().ok());
            match players {
                Some(n) if n > 0 => format!("创建赛事（{n} 名棋手）"),
                _ => "创建赛事".to_string(),
            }
        }
        EntryKind::Change => match Action::of(entry) {
            Some(action) => action.text(names),
            None => summary,
        },
        EntryKind::Undo => match find(entry.undoes) {
            Some(target) => {
                let what = describe_at(target, entries, names, depth + 1);
                match zh {
                    true => format!("撤销第 {} 步：{what}", target.seq),
                    false => format!("undid #{}: {what}", target.seq),
                }
            }
            None => summary,
        },
        EntryKind::Redo => {
            let reapplies = entry
                .details
                .get("reapplies")
                .and_then(serde_json::Value::as_u64);
            match find(reapplies) {
                Some(target) => {
                    let what = describe_at(target, entries, names, depth + 1);
                    match zh {
                        true => format!("重做第 {} 步：{what}", target.seq),
                        false => format!("redid #{}: {what}", target.seq),
                    }
                }
                None => summary,
            }
        }
        EntryKind::Init => summary,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_older_line_unmasked_at_write_is_masked_when_read() {
        // A line from before audit.log masked its details: a reason holding an ID number.
        let line = serde_json::json!({
            "seq": 7,
            "time": "2026-11-20T08:00:00Z",
            "user": "arbiter",
            "command": ["penalty"],
            "kind": "change",
            "summary": "penalty",
            "details": { "action": {
                "kind": "penalty",
                "player": 12,
                "name": "张三",
                "points": 2,
                "after_round": 3,
                "reason": "身份证 330702199001011234 有误"
            }},
        });
        let entry: AuditEntry = serde_json::from_value(line).unwrap();
        let action = Action::of(&entry).expect("the action reads back");
        for text in [action.text(&Names::ids()), action.text(&names_zh())] {
            assert!(!text.contains("330702199001011234"), "{text}");
            assert!(text.contains("有误"), "{text}");
        }
    }

    fn names_zh() -> Names<'static> {
        Names {
            lang: Lang::Zh,
            rules: None,
            event: None,
        }
    }

    #[test]
    fn an_action_reads_back_and_words_both_languages() {
        let action = Action::Results {
            groups: vec![GroupResults {
                group: GroupId("kids_b".into()),
                rounds: vec![3],
                count: 10,
                corrections: vec![Correction {
                    round: 3,
                    table: 2,
                    old: Some(GameResult::new(Outcome::RedWin)),
                    new: GameResult::new(Outcome::Draw),
                }],
                warnings: vec![],
            }],
        };
        let Change::Changed {
            summary, details, ..
        } = action.clone().change((), serde_json::json!({ "round": 3 }))
        else {
            panic!("a change")
        };
        assert_eq!(
            summary,
            "recorded 10 results in kids_b round 3: round 3 table 2: corrected `1-0` → `=`"
        );
        assert_eq!(details["round"], 3);
        let back: Action = serde_json::from_value(details["action"].clone()).unwrap();
        assert_eq!(back, action);
        let zh = Names {
            lang: Lang::Zh,
            rules: None,
            event: None,
        };
        assert_eq!(
            back.text(&zh),
            "记录 10 个结果（kids_b第3轮）：第 3 轮第 2 台：已将 `1-0` 更正为 `=`"
        );
    }

    #[test]
    fn a_correction_names_fouls_and_lateness_and_a_long_list_is_counted() {
        let fouled = GameResult {
            red_fouls: 1,
            ..GameResult::new(Outcome::Draw)
        };
        let late = GameResult {
            late: true,
            ..GameResult::new(Outcome::BlackForfeit)
        };
        let correction = |table, old, new| Correction {
            round: 2,
            table,
            old: Some(old),
            new,
        };
        let mut corrections = vec![
            correction(1, GameResult::new(Outcome::Draw), fouled),
            correction(2, GameResult::new(Outcome::BlackForfeit), late),
        ];
        corrections.extend((3..=30).map(|t| {
            correction(
                t,
                GameResult::new(Outcome::RedWin),
                GameResult::new(Outcome::Draw),
            )
        }));
        let action = Action::Results {
            groups: vec![GroupResults {
                group: GroupId("open".into()),
                rounds: vec![2],
                count: 30,
                corrections,
                warnings: vec![],
            }],
        };
        let en = action.text(&Names::ids());
        assert!(en.contains("table 1: corrected `=` → `=/1:0`"), "{en}");
        assert!(
            en.contains("table 2: corrected `+-` → `black-late`"),
            "{en}"
        );
        assert!(en.contains("table 10: corrected"), "{en}");
        assert!(!en.contains("table 11:"), "{en}");
        assert!(en.ends_with("; 20 more corrections or warnings"), "{en}");
        // A line written when only outcomes were kept still reads.
        let old_line = serde_json::json!({"round": 4, "table": 7, "old": "draw", "new": "red_win"});
        let back: Correction = serde_json::from_value(old_line).unwrap();
        assert_eq!(back.old, Some(GameResult::new(Outcome::Draw)));
        assert_eq!(back.new, GameResult::new(Outcome::RedWin));
        let none: Correction = serde_json::from_value(
            serde_json::json!({"round": 1, "table": 1, "old": null, "new": "draw"}),
        )
        .unwrap();
        assert_eq!(none.old, None);
    }
}
