//! The round robin's standings sheet: the square 循环赛成绩表 (docs/rules.md §14.5). One
//! row and one column per player in number order, each cell the points the row's player
//! scored against the column's (one per cycle), the diagonal blacked out (■), then the
//! bye round of an odd field, the total and the place.

use super::standings::subtitle;
use crate::i18n::bi;
use crate::model::{Event, PlayerId, Points};
use crate::report::{BLACKED_OUT, Json, Report, Section};
use crate::rulebook::{Lang, Rulebook};
use crate::standings::{Crosstable, CrosstableCell};
use std::collections::BTreeMap;

/// The square sheet of a round-robin pool's crosstable.
pub(super) fn square_report(
    event: &Event,
    rules: &Rulebook,
    table: &Crosstable,
    lang: Lang,
    json: Json,
) -> Report {
    let pool = &table.group;
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        lang.pick("循环赛成绩表", "round-robin table")
    ));
    report.lang = lang.code().into();
    report
        .subtitle
        .push(subtitle(event, rules, pool, table.after_round, lang));
    report.subtitle.push(
        lang.pick(
            "每格为横行棋手对竖列棋手所得的积分（双循环每循环一个），+ 对方弃权、- 弃权，对角线涂黑",
            "each cell: the points the row's player scored against the column's (one per cycle); + forfeit win, - forfeit loss; the diagonal is blacked out",
        )
        .into(),
    );
    if let Some(points) = table
        .rows
        .iter()
        .flat_map(|r| &r.cells)
        .find_map(|c| match c {
            CrosstableCell::Bye { points, .. } => Some(*points),
            _ => None,
        })
    {
        report.subtitle.push(bi!(
            lang,
            zh("轮空：该棋手轮空的轮次，每次得 {points} 分，计入积分"),
            en("bye: the round(s) of the player's bye, {points} points each, in the total")
        ));
    }
    // Rows in number order; a player without a number (never in the table) goes last.
    let mut rows: Vec<&crate::standings::CrosstableRow> = table.rows.iter().collect();
    rows.sort_by_key(|r| (r.number.unwrap_or(u32::MAX), r.player));
    let index: BTreeMap<PlayerId, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.player, i))
        .collect();
    let mut cols = vec![
        lang.pick("序号", "no.").to_string(),
        lang.pick("姓名", "name").into(),
        lang.pick("单位", "unit").into(),
    ];
    cols.extend((1..=rows.len()).map(|k| k.to_string()));
    // An odd field: each player's bye round(s) in a column of their own, as the printed
    // 循环赛成绩表 keep it (the bye's points are in the total).
    let byes: Vec<Vec<(u32, Points)>> = rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .filter_map(|c| match c {
                    CrosstableCell::Bye { round, points } => Some((*round, *points)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let with_byes = byes.iter().any(|b| !b.is_empty());
    if with_byes {
        cols.push(lang.pick("轮空", "bye").into());
    }
    cols.push(lang.pick("积分", "pts").into());
    cols.push(lang.pick("名次", "place").into());
    let numeric: Vec<usize> = std::iter::once(0).chain(3..cols.len()).collect();
    let mut s = Section::new("", cols).right(&numeric);
    for (i, row) in rows.iter().enumerate() {
        let mut against: Vec<Vec<String>> = vec![Vec::new(); rows.len()];
        for cell in &row.cells {
            if let CrosstableCell::Game {
                opponent,
                result: Some(result),
                points,
                ..
            } = cell
                && let Some(&j) = index.get(opponent)
            {
                let text = match result {
                    '+' | '-' => result.to_string(),
                    _ => points.map(|p| p.to_string()).unwrap_or_default(),
                };
                against[j].push(text);
            }
        }
        let mut cells = vec![
            row.number.map(|n| n.to_string()).unwrap_or_default(),
            row.name.clone(),
            event
                .player(row.player)
                .map(|p| p.unit.clone())
                .unwrap_or_default(),
        ];
        cells.extend(against.into_iter().enumerate().map(|(j, texts)| {
            if i == j {
                BLACKED_OUT.to_string()
            } else {
                texts.join(" ")
            }
        }));
        if with_byes {
            let rounds: Vec<String> = byes[i].iter().map(|(r, _)| r.to_string()).collect();
            cells.push(match rounds.is_empty() {
                true => String::new(),
                false => bi!(
                    lang,
                    zh("第{}轮", rounds.join("、")),
                    en("R{}", rounds.join(", R"))
                ),
            });
        }
        cells.push(row.score.to_string());
        cells.push(match row.rank {
            Some(r) if row.shared => format!("{r}="),
            Some(r) => r.to_string(),
            None => String::new(),
        });
        s.push(cells);
    }
    report.sections.push(s);
    if json.wanted() {
        report.json = serde_json::to_value(table).unwrap_or_default();
    }
    report
}
