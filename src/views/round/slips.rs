//! 成绩登记表: the result slips of a round, one per table, and the results file they make
//! (read back with `qiwang result --from`).

use super::super::labels::outcome_label;
use super::parts::{games, page_title, page_with_css, round_title, short_event_name, titled};
use super::{RoundSheets, SheetKind, SheetPage};
use crate::i18n::bi;
use crate::model::{Event, GroupId, Outcome, Round};
use crate::report::{Markup, Report, Section};
use crate::rulebook::{Lang, Rulebook};
use crate::views::round_time;
use serde_json::json;

/// 成绩登记表: one slip per table with both players (number, name, unit, score), boxes for
/// the result and the fouls, and room for both players' and the arbiter's signatures.
pub(super) fn slips(
    event: &Event,
    rules: &Rulebook,
    rounds: &[(GroupId, &Round)],
    lang: Lang,
) -> RoundSheets {
    let mut reports = Vec::new();
    let mut body = Markup::new();
    let event_name = short_event_name(rules);
    let outcomes = Outcome::ALL;
    // The results file: the columns `qiwang result --from` reads. 红方/黑方 are checked
    // against the game at the table, and 编排码, on every row so that sorting, deleting
    // or copying rows between files keeps it, must still be the round's pairing code.
    // A pool in another hall (numbered from 1 there) gets the hall in a 场地 column before
    // 台号 (empty in the main hall), which the reader checks against each row's group and
    // tells tables apart by; an event of one hall has none (docs/rules.md §12).
    let halls = rounds.iter().any(|(pool, _)| rules.hall_of(pool).is_some());
    let mut csv_columns = crate::views::headings(
        lang,
        &[
            ("组别", "group"),
            ("轮次", "round"),
            ("台号", "table"),
            ("红方", "red"),
            ("黑方", "black"),
            ("结果", "result"),
            ("犯规", "fouls"),
            ("编排码", "pairing"),
        ],
    );
    if halls {
        csv_columns.insert(2, lang.pick("场地", "hall").into());
    }
    let mut csv_rows = Section::new("", csv_columns);
    for (pool, round) in rounds {
        let group = rules.group_name(pool);
        let code = crate::results::pairing_code(pool, round);
        let mut report = titled(rules, pool, round.number, SheetKind::Slips, lang);
        let mut section = Section::new(
            "",
            crate::views::headings(
                lang,
                &[
                    ("台号", "table"),
                    ("红方序号", "red no."),
                    ("红方", "red"),
                    ("红方单位", "red unit"),
                    ("红方积分", "red pts"),
                    ("黑方序号", "black no."),
                    ("黑方", "black"),
                    ("黑方单位", "black unit"),
                    ("黑方积分", "black pts"),
                    ("结果", "result"),
                    ("红方签字", "red signature"),
                    ("黑方签字", "black signature"),
                ],
            ),
        )
        .right(&[0, 1, 4, 5, 8]);
        let mut json_slips = Vec::new();
        for (table, red, black, result) in games(event, rules, pool, round) {
            let res = result
                .map(|r| outcome_label(r.outcome, lang).to_string())
                .unwrap_or_default();
            section.push(vec![
                crate::views::table_label(rules, pool, table),
                red.number.clone(),
                red.name.clone(),
                red.unit.clone(),
                red.score.to_string(),
                black.number.clone(),
                black.name.clone(),
                black.unit.clone(),
                black.score.to_string(),
                res.clone(),
                String::new(),
                String::new(),
            ]);
            let mut csv_row = vec![
                group.clone(),
                round.number.to_string(),
                table.to_string(),
                red.name.clone(),
                black.name.clone(),
                result
                    .map(|r| outcome_label(r.outcome, Lang::Zh).to_string())
                    .unwrap_or_default(),
                result
                    .filter(|r| r.red_fouls + r.black_fouls > 0)
                    .map(|r| format!("{}:{}", r.red_fouls, r.black_fouls))
                    .unwrap_or_default(),
                code.clone(),
            ];
            if halls {
                let hall = rules.hall_of(pool).unwrap_or_default();
                csv_row.insert(2, hall.into());
            }
            csv_rows.push(csv_row);
            json_slips.push(crate::views::with_hall(
                json!({
                    "table": table,
                    "red": { "number": red.number, "name": red.name, "unit": red.unit, "score": red.score },
                    "black": { "number": black.number, "name": black.name, "unit": black.unit, "score": black.score },
                    "result": result.map(|r| r.outcome.token()),
                }),
                rules,
                pool,
            ));
            // The printed slip.
            let when = round_time(rules, round.number)
                .map(|t| format!(" · {t}"))
                .unwrap_or_default();
            let heading = format!(
                "{event_name} · {group} · {} · {}{when}",
                round_title(lang, round.number),
                bi!(
                    lang,
                    zh("{}第{table}台", crate::views::hall_prefix(rules, pool)),
                    en("{}table {table}", crate::views::hall_prefix(rules, pool))
                ),
            );
            body.element("div", &[("class", "slip")], |m| {
                m.newline().text_element("h2", &[], &heading).newline();
                m.element("table", &[], |m| {
                    m.newline();
                    m.element("thead", &[], |m| {
                        m.element("tr", &[], |m| {
                            m.text_element("th", &[], "");
                            for (zh, en) in [
                                ("序号", "no."),
                                ("姓名", "name"),
                                ("单位", "unit"),
                                ("积分", "pts"),
                                ("犯规", "fouls"),
                                ("签字", "signature"),
                            ] {
                                m.text_element("th", &[], lang.pick(zh, en));
                            }
                        });
                    });
                    m.newline();
                    m.element("tbody", &[], |m| {
                        m.newline();
                        for (side, s, fouls) in [
                            (lang.pick("红方", "red"), &red, result.map(|r| r.red_fouls)),
                            (
                                lang.pick("黑方", "black"),
                                &black,
                                result.map(|r| r.black_fouls),
                            ),
                        ] {
                            let fouls = fouls.filter(|f| *f > 0).map(|f| f.to_string());
                            m.element("tr", &[], |m| {
                                m.text_element("th", &[], side)
                                    .text_element("td", &[("class", "r")], &s.number)
                                    .text_element("td", &[], &s.name)
                                    .text_element("td", &[], &s.unit)
                                    .text_element("td", &[("class", "r")], &s.score.to_string())
                                    .text_element(
                                        "td",
                                        &[("class", "box")],
                                        fouls.as_deref().unwrap_or_default(),
                                    )
                                    .text_element("td", &[("class", "sign")], "");
                            })
                            .newline();
                        }
                    });
                });
                m.newline();
                m.element("p", &[("class", "boxes")], |m| {
                    m.text(lang.pick("结果：", "result: "));
                    for o in outcomes {
                        let mark = if result.is_some_and(|r| r.outcome == o) {
                            "■"
                        } else {
                            "□"
                        };
                        m.text_element("span", &[], &format!("{mark} {}", outcome_label(o, lang)));
                    }
                });
                m.newline().text_element(
                    "p",
                    &[],
                    &format!(
                        "{}________________",
                        lang.pick("裁判员签字：", "arbiter's signature: ")
                    ),
                );
                m.newline();
            });
            body.newline();
        }
        report.sections.push(section);
        report.json = json!({
            "event": rules.event.name,
            "group": pool,
            "round": round.number,
            "sheet": "slips",
            "slips": json_slips,
        });
        reports.push(report);
    }
    let title = page_title(rules, SheetKind::Slips, lang);
    let mut results_file = Report::new(title.clone());
    results_file.lang = lang.code().into();
    results_file.sections.push(csv_rows);
    RoundSheets {
        reports,
        html: SheetPage::Made(page_with_css(lang, &title, &body)),
        results_file: Some(results_file),
    }
}
