//! What going from one state to another changes, in words: `undo --dry-run` shows it
//! before anything is reverted. Describes; decides nothing.

use crate::i18n::{Text, number_ranges, plural};
use crate::model::{Event, GroupId, GroupState, Pairing, Player, PlayerId, Round, TeamPool};
use crate::rulebook::Lang;
use std::collections::{BTreeMap, BTreeSet};

/// How many players a line names before it says "and N more".
const NAMED: usize = 5;

/// One line per kind of difference from `from` to `to`, in a fixed order (players,
/// then each group, penalties, warnings, playoffs, team pools and the rulebook); empty
/// exactly when the two are equal. Every field of the state is named here (a field added
/// to the model does not compile until it is worded), and two states that differ in a way
/// no line words (players only reordered) still get a line.
pub(crate) fn differences(from: &Event, to: &Event) -> Vec<Text> {
    let Event {
        schema_version,
        // Which change wrote the state is not a difference in the event.
        change: _,
        rules_toml,
        players,
        groups,
        penalties,
        warnings,
        playoffs,
        earlier_rulebooks,
        team_pools,
        // Never stored: the units an output masked.
        stored_units: _,
    } = from;
    let mut lines = player_lines(players, &to.players);
    let names: BTreeSet<_> = groups.keys().chain(to.groups.keys()).collect();
    for group in names {
        let empty = GroupState::default();
        let a = groups.get(group).unwrap_or(&empty);
        let b = to.groups.get(group).unwrap_or(&empty);
        group_lines(group, a, b, &mut lines);
    }
    for (zh, en, a, b, same) in [
        (
            "罚分",
            "penalties",
            penalties.len(),
            to.penalties.len(),
            *penalties == to.penalties,
        ),
        (
            "警告",
            "warnings",
            warnings.len(),
            to.warnings.len(),
            *warnings == to.warnings,
        ),
        (
            "附加赛",
            "playoffs",
            playoffs.len(),
            to.playoffs.len(),
            *playoffs == to.playoffs,
        ),
    ] {
        if !same {
            lines.push(count_line(zh, en, a, b));
        }
    }
    let pools: BTreeSet<_> = team_pools.keys().chain(to.team_pools.keys()).collect();
    for pool in pools {
        let empty = TeamPool::default();
        let a = team_pools.get(pool).unwrap_or(&empty);
        let b = to.team_pools.get(pool).unwrap_or(&empty);
        team_lines(pool, a, b, &mut lines);
    }
    if *rules_toml != to.rules_toml
        || *schema_version != to.schema_version
        || *earlier_rulebooks != to.earlier_rulebooks
    {
        lines.push(Text::new("规程改变", "the rulebook changes"));
    }
    let others_differ = *players != to.players
        || *groups != to.groups
        || *penalties != to.penalties
        || *warnings != to.warnings
        || *playoffs != to.playoffs
        || *team_pools != to.team_pools;
    if lines.is_empty() && others_differ {
        lines.push(Text::new(
            "状态有其他改变（如棋手的排列顺序）",
            "other parts of the state change (such as the order of the players)",
        ));
    }
    lines
}

/// "penalties: 1 → 2", or "penalties: changed (2 in all)" when only their content changes.
fn count_line(zh: &str, en: &str, a: usize, b: usize) -> Text {
    if a == b {
        Text::new(
            format!("{zh}：有改动（共 {a} 条）"),
            format!("{en}: changed ({a} in all)"),
        )
    } else if zh == "附加赛" {
        Text::new(format!("{zh}：{a} 项 → {b} 项"), format!("{en}: {a} → {b}"))
    } else {
        Text::new(format!("{zh}：{a} 条 → {b} 条"), format!("{en}: {a} → {b}"))
    }
}

/// Players added, removed and changed (status, number, withdrawal, any field).
fn player_lines(from: &[Player], to: &[Player]) -> Vec<Text> {
    let mut lines = Vec::new();
    let before: BTreeMap<PlayerId, &Player> = from.iter().map(|p| (p.id, p)).collect();
    let after: BTreeMap<PlayerId, &Player> = to.iter().map(|p| (p.id, p)).collect();
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
    lines
}

/// The lines of pool `group` going from `a` to `b`.
fn group_lines(group: &GroupId, a: &GroupState, b: &GroupState, lines: &mut Vec<Text>) {
    let GroupState {
        rounds,
        seed,
        merged_into,
        cancelled,
        relaxed,
        relax_given,
        paired_under,
        stage_seeds,
        // A result replaced goes with its correction, which the round's line shows.
        replaced: _,
    } = a;
    if rounds.len() != b.rounds.len() {
        lines.push(Text::new(
            format!("组别 `{group}`：轮次 {} → {}", rounds.len(), b.rounds.len()),
            format!(
                "group `{group}`: rounds {} → {}",
                rounds.len(),
                b.rounds.len()
            ),
        ));
    }
    for (ra, rb) in rounds.iter().zip(&b.rounds) {
        if ra != rb {
            lines.push(round_line(group, ra, rb));
        }
    }
    if *seed != b.seed || *merged_into != b.merged_into || *cancelled != b.cancelled {
        lines.push(Text::new(
            format!("组别 `{group}`：抽签种子、合并或取消改变"),
            format!("group `{group}`: the draw seed, the merge or the cancellation changes"),
        ));
    }
    if *relaxed != b.relaxed
        || *relax_given != b.relax_given
        || *paired_under != b.paired_under
        || *stage_seeds != b.stage_seeds
    {
        lines.push(Text::new(
            format!("组别 `{group}`：所记的放宽规则、编排所用规程或决赛种子改变"),
            format!(
                "group `{group}`: the relaxations, the rulebooks rounds were paired under or the final-stage seeds recorded change"
            ),
        ));
    }
}

/// The line of round `ra` of `group` that differs from `rb`: its pairings, else the
/// results of its tables, else the round as a whole.
fn round_line(group: &GroupId, ra: &Round, rb: &Round) -> Text {
    let n = ra.number;
    let results = |r: &Round| -> BTreeMap<u32, Option<_>> {
        r.pairings
            .iter()
            .filter_map(|p| match p {
                Pairing::Game { table, result, .. } => Some((*table, *result)),
                Pairing::Bye { .. } => None,
            })
            .collect()
    };
    let pairs = |r: &Round| -> Vec<Vec<PlayerId>> {
        r.pairings.iter().map(|p| p.players().collect()).collect()
    };
    if pairs(ra) != pairs(rb) {
        return Text::new(
            format!("组别 `{group}` 第 {n} 轮：对阵改变"),
            format!("group `{group}` round {n}: the pairings change"),
        );
    }
    let (x, y) = (results(ra), results(rb));
    let tables: Vec<u32> = x
        .iter()
        .filter(|(t, r)| y.get(t) != Some(r))
        .map(|(t, _)| *t)
        .chain(y.keys().filter(|t| !x.contains_key(t)).copied())
        .collect();
    if tables.is_empty() {
        return Text::new(
            format!("组别 `{group}` 第 {n} 轮：台号或轮次编号改变"),
            format!("group `{group}` round {n}: the table numbers or the round's number change"),
        );
    }
    Text::new(
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
    )
}

/// The lines of team pool `pool` going from `a` to `b`: its matches (line-ups, board
/// results), its numbers, draw and withdrawals.
fn team_lines(pool: &GroupId, a: &TeamPool, b: &TeamPool, lines: &mut Vec<Text>) {
    let TeamPool {
        numbers,
        seed,
        rounds,
        relaxed,
        withdrawn,
        reinstated,
        // An outcome replaced goes with its correction, which the round's line shows.
        replaced: _,
    } = a;
    if rounds.len() != b.rounds.len() {
        lines.push(Text::new(
            format!(
                "团体组别 `{pool}`：轮次 {} → {}",
                rounds.len(),
                b.rounds.len()
            ),
            format!(
                "team group `{pool}`: rounds {} → {}",
                rounds.len(),
                b.rounds.len()
            ),
        ));
    }
    for (ra, rb) in rounds.iter().zip(&b.rounds) {
        if ra != rb {
            let n = ra.number;
            lines.push(Text::new(
                format!("团体组别 `{pool}` 第 {n} 轮：对阵、出场名单或结果改变"),
                format!("team group `{pool}` round {n}: the matches, line-ups or results change"),
            ));
        }
    }
    if *numbers != b.numbers || *seed != b.seed || *relaxed != b.relaxed {
        lines.push(Text::new(
            format!("团体组别 `{pool}`：队的编号、抽签种子或放宽记录改变"),
            format!(
                "team group `{pool}`: the team numbers, the draw seed or the relaxations change"
            ),
        ));
    }
    if *withdrawn != b.withdrawn || *reinstated != b.reinstated {
        lines.push(Text::new(
            format!("团体组别 `{pool}`：退赛或恢复参赛的队改变"),
            format!("team group `{pool}`: the teams withdrawn or reinstated change"),
        ));
    }
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
            paired_round: 0,
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

    /// Report 3.4: `undo --dry-run` said "the state stays as it is" for an undo that
    /// removed a warning. Every field of the state, changed alone, gets a line.
    #[test]
    fn a_change_to_any_field_of_the_state_gets_a_line() {
        use crate::model::{
            PairedUnder, PlayerStatus, Playoff, Relax, RelaxGiven, Relaxation, Warning,
        };
        let base = event();
        type Edit = fn(&mut Event);
        let edits: Vec<(&str, Edit)> = vec![
            ("a warning", |e| {
                e.warnings.push(Warning {
                    player: PlayerId(1),
                    reason: "phone".into(),
                    after_round: 1,
                });
            }),
            ("a penalty's points", |e| {
                e.penalties.push(Penalty {
                    player: PlayerId(1),
                    points: Points(1),
                    reason: "late".into(),
                    after_round: 1,
                    paired_round: 0,
                });
            }),
            ("a playoff", |e| {
                e.playoffs.push(Playoff {
                    group: GroupId::new("open"),
                    order: vec![PlayerId(2), PlayerId(1)],
                    note: String::new(),
                    list: None,
                });
            }),
            ("a withdrawal", |e| {
                e.players[2].status = PlayerStatus::Disqualified {
                    from_round: 2,
                    reason: "x".into(),
                };
            }),
            ("a pairing number", |e| e.players[0].number = Some(7)),
            ("the players' order", |e| e.players.swap(0, 1)),
            ("the rulebook", |e| e.rules_toml.push('\n')),
            ("an earlier rulebook", |e| {
                e.earlier_rulebooks.push("x".into());
            }),
            ("the draw seed", |e| group(e).seed = Some(3)),
            ("a merge", |e| {
                group(e).merged_into = Some(GroupId::new("a"));
            }),
            ("a cancellation", |e| group(e).cancelled = true),
            ("a relaxation", |e| {
                group(e).relaxed.push(Relaxation {
                    round: 1,
                    rule: Relax::Colour,
                    players: vec![PlayerId(1)],
                });
            }),
            ("the rules given to --relax", |e| {
                group(e).relax_given.push(RelaxGiven {
                    round: 1,
                    rules: vec![Relax::Team],
                });
            }),
            ("a round's rulebook", |e| {
                group(e).paired_under.push(PairedUnder {
                    round: 1,
                    rulebook: 0,
                });
            }),
            ("final-stage seeds", |e| {
                group(e).stage_seeds.push(PlayerId(1));
            }),
            ("a table number", |e| {
                if let Pairing::Game { table, .. } = &mut group(e).rounds[0].pairings[1] {
                    *table = 9;
                }
            }),
            ("a team pool", |e| {
                e.team_pools.entry(GroupId::new("teams")).or_default().seed = Some(1);
            }),
        ];
        for (what, edit) in edits {
            let mut changed = base.clone();
            edit(&mut changed);
            assert_ne!(changed, base, "{what}: the edit changes nothing");
            for (from, to) in [(&base, &changed), (&changed, &base)] {
                let lines = differences(from, to);
                assert!(!lines.is_empty(), "{what}: no line");
                for line in &lines {
                    crate::i18n::facts::assert_same(&line.zh, &line.en);
                }
            }
        }
        let mut warned = base.clone();
        warned.warnings.push(Warning {
            player: PlayerId(1),
            reason: "phone".into(),
            after_round: 1,
        });
        let en: Vec<String> = differences(&warned, &base)
            .into_iter()
            .map(|t| t.en)
            .collect();
        assert_eq!(en, ["warnings: 1 → 0"]);
    }

    fn group(e: &mut Event) -> &mut crate::model::GroupState {
        e.groups.get_mut(&GroupId::new("open")).unwrap()
    }
}
