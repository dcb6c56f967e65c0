//! `qiwang group sizes`: each group's registered players against its minimum (Dongguan 九:
//! 报名人数不足10人的组别，将取消该组别比赛), with the hint to merge or cancel a short one.
//!
//! Each group's status too: paired on its own, a section of a pool, merged into another
//! pool (the chain of merges followed to its end), or cancelled.
//!
//! Owns the wording and layout only; the counts, what is short and what each group is now
//! are `registration::group_sizes`, `GroupSize::is_undersized` and `GroupSize::now`.

use crate::i18n::bi;
use crate::model::{Event, GroupId};
use crate::registration::{GroupNow, GroupSize, group_sizes as count_groups};
use crate::report::{Json, Report, Section};
use crate::rulebook::{Lang, Rulebook};
use serde::Serialize;

/// The group sizes in both shapes the command prints: plain lines for the table format,
/// and a report (table, JSON) that the other formats render and escape.
#[derive(Debug, Clone)]
pub struct GroupSizes {
    /// One line per group of the rulebook, then the hint when a group is short.
    pub lines: Vec<String>,
    /// The same as a report: one row per group, the hint as footer, and (as `json` asks)
    /// the JSON document, one [`SizeJson`] entry per group.
    pub report: Report,
}

/// One group in the JSON document, its keys in alphabetical order as the value prints.
#[derive(Serialize)]
struct SizeJson<'a> {
    below_minimum: bool,
    group: &'a str,
    /// The pool it was merged into, the chain of merges followed to its end.
    merged_into: Option<&'a str>,
    min_size: Option<u32>,
    name: &'a str,
    /// Where its players are paired now; null for a cancelled group.
    pairs_in: Option<&'a str>,
    players: usize,
    /// `pairs`, `section`, `merged` or `cancelled` ([`GroupNow::key`]).
    status: &'static str,
}

/// Every group of the rulebook, in rulebook order, with its players and minimum; groups
/// below their minimum (and not merged away) are flagged. `json`: whether the report's
/// JSON is made, and how (as standings and crosstable make theirs).
pub fn group_sizes(event: &Event, rules: &Rulebook, lang: Lang, json: Json) -> GroupSizes {
    let hint = lang.pick(
        "人数不足的组别按规程合并或取消：qiwang group merge FROM INTO，或 qiwang group cancel GROUP",
        "groups below their minimum are merged or cancelled: qiwang group merge FROM INTO, or qiwang group cancel GROUP",
    );
    let mut section = Section::new(
        "",
        vec![
            lang.pick("组别", "group").into(),
            "id".into(),
            lang.pick("人数", "players").into(),
            lang.pick("最低人数", "minimum").into(),
            lang.pick("状态", "status").into(),
        ],
    )
    .right(&[2, 3]);
    let mut lines = Vec::new();
    // One count, each group's size with its name and minimum.
    let sizes: Vec<_> = count_groups(rules, &event.players)
        .into_iter()
        .map(|size| {
            let below = size.is_undersized(event);
            let now = size.now(event);
            (size, below, now)
        })
        .collect();
    let any_short = sizes.iter().any(|(_, below, _)| *below);
    for (size, below, now) in &sizes {
        let n = size.count;
        let flag = if *below {
            format!(
                "  ← {} {}",
                lang.pick("不足最低人数", "below the minimum of"),
                size.minimum()
            )
        } else {
            gone(size, now, rules, lang)
        };
        // Chinese names the group as the regulation does (commands take the name too).
        lines.push(bi!(
            lang,
            zh("{}：{n}{flag}", size.name),
            en("{} ({}): {n}{flag}", size.name, size.group)
        ));
        section.push(vec![
            size.name.clone(),
            size.group.to_string(),
            n.to_string(),
            size.min_size.map(|m| m.to_string()).unwrap_or_default(),
            status(now, rules, lang),
        ]);
    }
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        lang.pick("组别人数", "group sizes")
    ));
    report.lang = lang.code().into();
    report.sections.push(section);
    if any_short {
        lines.push(hint.to_string());
        report.footer.push(hint.to_string());
    }
    report.set_json(json, || {
        sizes
            .iter()
            .map(|(size, below, now)| SizeJson {
                below_minimum: *below,
                group: size.group.as_str(),
                merged_into: now.merged_into().map(GroupId::as_str),
                min_size: size.min_size,
                name: &size.name,
                pairs_in: now.pairs_in(&size.group).map(GroupId::as_str),
                players: size.count,
                status: now.key(),
            })
            .collect::<Vec<_>>()
    });
    GroupSizes { lines, report }
}

/// The status column: what the group is now, every group said.
fn status(now: &GroupNow, rules: &Rulebook, lang: Lang) -> String {
    match now {
        GroupNow::Pairs => lang.pick("自行编排", "pairs on its own").to_string(),
        GroupNow::Section { pool } => {
            let pool = rules.group_name(pool);
            bi!(lang, zh("在{pool}中编排"), en("plays in {pool}"))
        }
        GroupNow::Merged { into } => {
            let into = rules.group_name(into);
            bi!(lang, zh("已并入{into}"), en("merged into {into}"))
        }
        GroupNow::Cancelled { merged_into: None } => lang.pick("已取消", "cancelled").to_string(),
        GroupNow::Cancelled {
            merged_into: Some(into),
        } => {
            let into = rules.group_name(into);
            bi!(
                lang,
                zh("已并入{into}，{into}已取消"),
                en("merged into {into}, which was cancelled")
            )
        }
    }
}

/// After a line's count, what became of a group that no longer pairs as the rulebook has
/// it (「（已并入成人组）」); nothing for a pool pairing on its own or a section in its pool.
fn gone(size: &GroupSize, now: &GroupNow, rules: &Rulebook, lang: Lang) -> String {
    match now {
        GroupNow::Pairs => String::new(),
        GroupNow::Section { pool } if size.pool.as_ref() == Some(pool) => String::new(),
        GroupNow::Section { .. } | GroupNow::Merged { .. } | GroupNow::Cancelled { .. } => {
            let status = status(now, rules, lang);
            bi!(lang, zh("（{status}）"), en(" ({status})"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Player, PlayerId};

    /// Two players in a group with a minimum of 10: flagged, with the hint, in the lines, the
    /// report and its JSON alike; at a minimum of 2 nothing is flagged.
    #[test]
    fn a_short_group_is_flagged_in_lines_report_and_json() {
        let mut rules = Rulebook::cxa_2011("t", 5);
        rules.groups[0].min_size = Some(10);
        let pool = rules.groups[0].id.clone();
        let mut event = Event::new(String::new());
        for i in 1..=2 {
            event
                .players
                .push(Player::new(PlayerId(i), format!("p{i}"), pool.clone()));
        }
        let sizes = group_sizes(&event, &rules, Lang::En, Json::Build);
        let name = &rules.groups[0].name;
        assert_eq!(
            sizes.lines[0],
            format!("{name} ({pool}): 2  ← below the minimum of 10")
        );
        assert_eq!(sizes.lines.len(), rules.groups.len() + 1);
        assert!(sizes.lines.last().unwrap().contains("qiwang group merge"));
        assert_eq!(
            sizes.report.footer,
            vec![sizes.lines.last().unwrap().clone()]
        );
        assert_eq!(sizes.report.json[0]["below_minimum"], true);
        assert_eq!(sizes.report.json[0]["players"], 2);
        assert_eq!(sizes.report.sections[0].rows.len(), rules.groups.len());
        let zh = group_sizes(&event, &rules, Lang::Zh, Json::Build);
        assert_eq!(zh.lines[0], format!("{name}：2  ← 不足最低人数 10"));
        // Enough players: nothing flagged, no hint.
        rules.groups[0].min_size = Some(2);
        let ok = group_sizes(&event, &rules, Lang::En, Json::Build);
        assert!(ok.lines.iter().all(|l| !l.contains('←')), "{:?}", ok.lines);
        assert!(ok.report.footer.is_empty());
        assert_eq!(ok.report.json[0]["below_minimum"], false);
    }

    /// The JSON is made as asked, as standings and crosstable make theirs: written as
    /// text for `--format json` (the same document the value prints), left out for the
    /// other formats. It was built as a value whatever the output.
    #[test]
    fn the_json_is_written_built_or_left_out_as_asked() {
        let mut rules = Rulebook::cxa_2011("t", 5);
        rules.groups[0].min_size = Some(10);
        let mut event = Event::new(String::new());
        event
            .players
            .push(Player::new(PlayerId(1), "p1", rules.groups[0].id.clone()));
        let built = group_sizes(&event, &rules, Lang::En, Json::Build).report;
        assert_eq!(built.json_text, None);
        let text = group_sizes(&event, &rules, Lang::En, Json::Text).report;
        assert_eq!(text.json, serde_json::Value::Null);
        assert_eq!(
            text.json_text.as_deref(),
            Some(serde_json::to_string_pretty(&built.json).unwrap().as_str())
        );
        let none = group_sizes(&event, &rules, Lang::En, Json::LeaveOut).report;
        assert_eq!((none.json, none.json_text), (serde_json::Value::Null, None));
        // The table, CSV and HTML formats still have every group's row.
        assert_eq!(none.sections[0].rows.len(), rules.groups.len());
    }
}
