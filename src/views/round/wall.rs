//! 总表: the wall chart of a round, a crosstable per pool with 积分, the event's own
//! tiebreak columns in its rulebook's order (no 对手分 where it does not use it) and 名次.

use super::parts::{page_title, page_with_css, titled};
use super::{RoundSheets, SheetKind, paged};
use crate::model::{Event, GroupId, Round};
use crate::report::{Markup, Section, html_body_markup};
use crate::rulebook::{Lang, Rulebook};
use crate::standings;
use crate::views::signature_line;
use crate::views::standings::CellWords;
use serde_json::json;

/// 总表: per pool, every player by pairing number with each round's opponent, colour and
/// result, then 积分, the rulebook's tiebreaks in its order and 名次 after the round.
pub(super) fn wall(
    event: &Event,
    rules: &Rulebook,
    rounds: &[(GroupId, &Round)],
    lang: Lang,
) -> RoundSheets {
    let mut reports = Vec::new();
    for (pool, round) in rounds {
        let st = standings::compute_standings(event, rules, pool, Some(round.number));
        let table = standings::crosstable_of(event, rules, &st);
        let tiebreaks: std::collections::BTreeMap<_, _> = st
            .rows
            .iter()
            .map(|r| (r.player, r.tiebreaks.clone()))
            .collect();
        let mut report = titled(rules, pool, table.after_round, SheetKind::Wall, lang);
        report.subtitle.push(
            lang.pick(
                "格式：对手序号 + 执红/执黑 + 胜/和/负（* 为弃权）",
                "cell: opponent number, colour, result (+/- forfeit)",
            )
            .into(),
        );
        let mut cols = vec![
            lang.pick("序号", "no.").to_string(),
            lang.pick("姓名", "name").into(),
            lang.pick("单位", "unit").into(),
        ];
        cols.extend(crate::views::standings::round_columns(&table, lang));
        cols.push(lang.pick("积分", "pts").into());
        cols.extend(
            st.tiebreaks
                .iter()
                .map(|k| super::super::labels::tiebreak_label(*k, lang).to_string()),
        );
        cols.push(lang.pick("名次", "place").into());
        let numeric: Vec<usize> = (0..cols.len()).filter(|&i| i != 1 && i != 2).collect();
        // On a narrow terminal the unit and the tiebreaks give way first (a note names
        // them); the printed sheet and CSV always carry every column.
        let rounds = table.rows.first().map_or(0, |r| r.cells.len());
        let tiebreak_cols: Vec<usize> = std::iter::once(2)
            .chain((0..st.tiebreaks.len()).map(|i| 3 + rounds + 1 + i))
            .collect();
        let mut section = Section::new("", cols)
            .right(&numeric)
            .optional(&tiebreak_cols);
        let mut rows: Vec<_> = table.rows.iter().collect();
        rows.sort_by_key(|r| (r.number.is_none(), r.number, r.player));
        let mut json_rows = Vec::new();
        for row in rows {
            let unit = event
                .player(row.player)
                .map(|p| p.unit.clone())
                .unwrap_or_default();
            let values = tiebreaks.get(&row.player).cloned().unwrap_or_default();
            let value = |k: crate::rulebook::Tiebreak| {
                st.tiebreaks
                    .iter()
                    .position(|t| *t == k)
                    .and_then(|i| values.get(i).copied().flatten())
            };
            let place = match row.rank {
                Some(r) if row.shared => format!("{r}="),
                Some(r) => r.to_string(),
                None => String::new(),
            };
            let mut cells = vec![
                row.number.map(|n| n.to_string()).unwrap_or_default(),
                row.name.clone(),
                unit.clone(),
            ];
            cells.extend(
                row.cells
                    .iter()
                    .map(|c| crate::views::standings::cell_text(c, CellWords::Worded, lang)),
            );
            cells.push(row.score.to_string());
            cells.extend(
                (0..st.tiebreaks.len())
                    .map(|i| values.get(i).copied().flatten().map(|v| v.to_string()))
                    .map(Option::unwrap_or_default),
            );
            cells.push(place);
            section.push(cells);
            json_rows.push(json!({
                "player": row.player,
                "number": row.number,
                "name": row.name,
                "unit": unit,
                "cells": row.cells,
                "score": row.score,
                "opp_score": value(crate::rulebook::Tiebreak::OppScore),
                "tiebreaks": st
                    .tiebreaks
                    .iter()
                    .zip(&values)
                    .map(|(k, v)| json!({ "key": k, "value": v }))
                    .collect::<Vec<_>>(),
                "rank": row.rank,
                "shared": row.shared,
            }));
        }
        report.sections.push(section);
        report.footer.extend(signature_line(rules, lang));
        report.json = json!({
            "event": rules.event.name,
            "group": pool,
            "after_round": table.after_round,
            "sheet": "wall",
            "rows": json_rows,
        });
        reports.push(report);
    }
    let title = page_title(rules, SheetKind::Wall, lang);
    let mut body = Markup::new();
    body.style("@media print{@page{size:A4 landscape;margin:10mm}body{font-size:9pt}}")
        .newline()
        .append(&paged(reports.iter().map(html_body_markup)));
    let html = page_with_css(lang, &title, &body);
    RoundSheets {
        reports,
        html,
        results_file: None,
    }
}
