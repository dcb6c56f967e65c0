//! What going from one state to another changes, in words: `undo --dry-run` shows it
//! before anything is reverted. Describes; decides nothing.

use crate::i18n::{Text, number_ranges, plural};
use crate::model::{Event, Pairing, Player, PlayerId};
use crate::rulebook::Lang;
use std::collections::{BTreeMap, BTreeSet};

/// How many players a line names before it says "and N more".
const NAMED: usize = 5;

/// One line per kind of difference from `from` to `to`, in a fixed order (players,
/// then each group, then penalties, playoffs and the rulebook); empty when equal.
pub(crate) fn differences(from: &Event, to: &Event) -> Vec<Text> {
    let mut lines = Vec::new();
    let before: BTreeMap<PlayerId, &Player> = from.players.iter().map(|p| (p.id, p)).collect();
    let after: BTreeMap<PlayerId, &Player> = to.players.iter().map(|p| (p.id, p)).collect();
    let added: Vec<&Player> = after
        .iter()
        .filter(|(id, _)| !before.contains_key(id))
        .map(|(_, p)| *p)
        .collect();
    let removed: Vec<&Player> = before
        .iter()
        .filter(|(id, _)| !after.contains_key(id))
        .map(|(_, p)| *p)
        .collect();
    let changed: Vec<&Player> = after
        .iter()
        .filter(|(id, p)| before.get(id).is_some_and(|old| old != *p))
        .map(|(_, p)| *p)
        .collect();
    for (list, zh, en) in [
        (&added, "增加", "added"),
        (&removed, "删除", "removed"),
        (&changed, "修改", "changed"),
    ] {
        if !list.is_empty() {
            let names = named(list);
            lines.push(Text::new(
                format!("棋手：{zh} {} 名（{names}）", list.len()),
                format!("players: {} {en} ({names})", list.len()),
            ));
        }
    }
    let groups: BTreeSet<_> = from.groups.keys().chain(to.groups.keys()).collect();
    for group in groups {
        let empty = Default::default();
        let a = from.groups.get(group).unwrap_or(&empty);
        let b = to.groups.get(group).unwrap_or(&empty);
        if a == b {
            continue;
        }
        if a.rounds.len() != b.rounds.len() {
            lines.push(Text::new(
                format!(
                    "组别 `{group}`：轮次 {} → {}",
                    a.rounds.len(),
                    b.rounds.len()
                ),
                format!(
                    "group `{group}`: rounds {} → {}",
                    a.rounds.len(),
                    b.rounds.len()
                ),
            ));
        }
        for (ra, rb) in a.rounds.iter().zip(&b.rounds) {
            if ra == rb {
                continue;
            }
            let n = ra.number;
            let results = |r: &crate::model::Round| -> BTreeMap<u32, Option<_>> {
                r.pairings
                    .iter()
                    .filter_map(|p| match p {
                        Pairing::Game { table, result, .. } => Some((*table, *result)),
                        Pairing::Bye { .. } => None,
                    })
                    .collect()
            };
            let pairs = |r: &crate::model::Round| -> Vec<Vec<PlayerId>> {
                r.pairings.iter().map(|p| p.players().collect()).collect()
            };
            if pairs(ra) != pairs(rb) {
                lines.push(Text::new(
                    format!("组别 `{group}` 第 {n} 轮：对阵改变"),
                    format!("group `{group}` round {n}: the pairings change"),
                ));
            } else {
                let (x, y) = (results(ra), results(rb));
                let tables: Vec<u32> = x
                    .iter()
                    .filter(|(t, r)| y.get(t) != Some(r))
                    .map(|(t, _)| *t)
                    .collect();
                if !tables.is_empty() {
                    lines.push(Text::new(
                        format!(
                            "组别 `{group}` 第 {n} 轮：{} 台的结果改变（第 {} 台）",
                            tables.len(),
                            number_ranges(&tables, Lang::Zh)
                        ),
                        format!(
                            "group `{group}` round {n}: the results of {} change ({} {})",
                            plural(tables.len(), "table", "tables"),
                            if tables.len() == 1 { "table" } else { "tables" },
                            number_ranges(&tables, Lang::En)
                        ),
                    ));
                }
            }
        }
        if a.seed != b.seed || a.merged_into != b.merged_into {
            lines.push(Text::new(
                format!("组别 `{group}`：抽签种子或合并设置改变"),
                format!("group `{group}`: the draw seed or the merge changes"),
            ));
        }
    }
    if from.penalties != to.penalties {
        lines.push(Text::new(
            format!(
                "罚分：{} 条 → {} 条",
                from.penalties.len(),
                to.penalties.len()
            ),
            format!(
                "penalties: {} → {}",
                from.penalties.len(),
                to.penalties.len()
            ),
        ));
    }
    if from.playoffs != to.playoffs {
        lines.push(Text::new(
            format!(
                "附加赛：{} 项 → {} 项",
                from.playoffs.len(),
                to.playoffs.len()
            ),
            format!("playoffs: {} → {}", from.playoffs.len(), to.playoffs.len()),
        ));
    }
    if from.rules_toml != to.rules_toml || from.schema_version != to.schema_version {
        lines.push(Text::new("规程改变", "the rulebook changes"));
    }
    lines
}

/// `#17 张三, #18 李四, … and 3 more` (ids, names).
fn named(players: &[&Player]) -> String {
    let shown: Vec<String> = players
        .iter()
        .take(NAMED)
        .map(|p| format!("#{} {}", p.id, p.name))
        .collect();
    let mut text = shown.join(", ");
    if players.len() > NAMED {
        text.push_str(&format!(", … +{}", players.len() - NAMED));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GameResult, GroupId, Outcome, Penalty, Points};
    use crate::store::state::tests::paired as event;

    #[test]
    fn each_kind_of_difference_gets_a_line_in_both_languages() {
        let from = event();
        assert!(differences(&from, &from).is_empty());
        let mut to = from.clone();
        to.players
            .push(Player::new(PlayerId(5), "p5", GroupId::new("open")));
        to.players[0].name = "q1".into();
        if let Pairing::Game { result, .. } =
            &mut to.groups.get_mut(&GroupId::new("open")).unwrap().rounds[0].pairings[1]
        {
            *result = Some(GameResult::new(Outcome::Draw));
        }
        to.penalties.push(Penalty {
            player: PlayerId(1),
            points: Points(1),
            reason: "late".into(),
            after_round: 1,
        });
        let lines = differences(&from, &to);
        let en: Vec<&str> = lines.iter().map(|t| t.en.as_str()).collect();
        assert_eq!(
            en,
            vec![
                "players: 1 added (#5 p5)",
                "players: 1 changed (#1 q1)",
                "group `open` round 1: the results of 1 table change (table 2)",
                "penalties: 0 → 1",
            ]
        );
        for line in &lines {
            crate::i18n::facts::assert_same(&line.zh, &line.en);
        }
        let mut unpaired = from.clone();
        unpaired
            .groups
            .get_mut(&GroupId::new("open"))
            .unwrap()
            .rounds
            .clear();
        let en: Vec<String> = differences(&from, &unpaired)
            .into_iter()
            .map(|t| t.en)
            .collect();
        assert_eq!(en, vec!["group `open`: rounds 1 → 0"]);
    }
}
