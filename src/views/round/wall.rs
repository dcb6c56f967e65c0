//! 总表: the wall chart of a round, a crosstable per pool with 积分, the event's own
//! tiebreak columns in its rulebook's order (no 对手分 where it does not use it) and 名次.

use super::parts::{page_title, page_with_css, titled};
use super::{RoundSheets, SheetKind, SheetPage, paged};
use crate::model::{Event, GroupId, Round};
use crate::report::{Json, Markup, Report, Section, Streamed, html_body_markup};
use crate::rulebook::{Lang, Rulebook};
use crate::standings;
use crate::views::signature_line;
use crate::views::sorted::SortedCells;
use crate::views::standings::{CellWords, KeyValue};

/// 总表: per pool, every player by pairing number with each round's opponent, colour and
/// result, then 积分, the rulebook's tiebreaks in its order and 名次 after the round.
pub(super) fn wall(
    event: &Event,
    rules: &Rulebook,
    rounds: &[(GroupId, &Round)],
    lang: Lang,
    json: Json,
) -> RoundSheets {
    // Several pools' values are printed as one array: built, never written as text.
    let json = if rounds.len() > 1 { json.built() } else { json };
    let mut reports = Vec::new();
    for (pool, round) in rounds {
        let st = standings::compute_standings(event, rules, pool, Some(round.number));
        let table = standings::crosstable_of(event, rules, &st);
        let tiebreaks: std::collections::BTreeMap<_, _> = st
            .rows
            .iter()
            .map(|r| (r.player, r.tiebreaks.as_slice()))
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
        // A row's unit and tiebreak values, for its printed row and its JSON alike.
        let looked_up = |row: &standings::CrosstableRow| {
            (
                event.player(row.player).map_or("", |p| p.unit.as_str()),
                tiebreaks.get(&row.player).copied().unwrap_or_default(),
            )
        };
        // By place in `rows`: the row it answers borrows from the table, not the closure.
        let row_json = |at: usize| {
            let row: &standings::CrosstableRow = rows[at];
            let (unit, values) = looked_up(row);
            let value = |k: crate::rulebook::Tiebreak| {
                st.tiebreaks
                    .iter()
                    .position(|t| *t == k)
                    .and_then(|i| values.get(i).copied().flatten())
            };
            let keys = &st.tiebreaks;
            WallRow {
                cells: SortedCells(&row.cells),
                name: &row.name,
                number: row.number,
                opp_score: value(crate::rulebook::Tiebreak::OppScore),
                player: row.player,
                rank: row.rank,
                score: row.score,
                shared: row.shared,
                tiebreaks: Streamed(move || {
                    keys.iter()
                        .zip(values)
                        .map(|(&key, &value)| KeyValue { key, value })
                }),
                unit,
            }
        };
        for row in json.rows_shown(&rows) {
            let (unit, values) = looked_up(row);
            let place = match row.rank {
                Some(r) if row.shared => format!("{r}="),
                Some(r) => r.to_string(),
                None => String::new(),
            };
            let mut cells = vec![
                row.number.map(|n| n.to_string()).unwrap_or_default(),
                row.name.clone(),
                unit.to_string(),
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
        }
        report.sections.push(section);
        report.footer.extend(signature_line(rules, lang));
        // Keys in alphabetical order, as the `serde_json::Value` the document is when
        // built prints them; as text, written one row at a time.
        report.set_json(json, || WallJson {
            after_round: table.after_round,
            event: &rules.event.name,
            group: pool,
            rows: Streamed(|| (0..rows.len()).map(row_json)),
            sheet: "wall",
        });
        reports.push(report);
    }
    RoundSheets {
        reports,
        html: SheetPage::Wall(page_title(rules, SheetKind::Wall, lang), lang),
        results_file: None,
    }
}

/// The wall chart's A4 landscape page of `reports` (one per pool).
pub(super) fn page(reports: &[Report], title: &str, lang: Lang) -> String {
    let mut body = Markup::new();
    body.style("@media print{@page{size:A4 landscape;margin:10mm}body{font-size:9pt}}")
        .newline()
        .append(&paged(reports.iter().map(html_body_markup)));
    page_with_css(lang, title, &body)
}

/// The wall chart of one pool as JSON text (see [`wall`]).
#[derive(serde::Serialize)]
struct WallJson<'a, R> {
    after_round: u32,
    event: &'a str,
    group: &'a GroupId,
    rows: R,
    sheet: &'static str,
}

/// One row of the wall chart's JSON, keys in alphabetical order (as the value the
/// document is when built prints them), written without a value of its own.
#[derive(serde::Serialize)]
struct WallRow<'a, T> {
    cells: SortedCells<'a>,
    name: &'a str,
    number: Option<u32>,
    opp_score: Option<i64>,
    player: crate::model::PlayerId,
    rank: Option<u32>,
    score: crate::model::Points,
    shared: bool,
    tiebreaks: T,
    unit: &'a str,
}
