//! 台签: the table cards of a round, one folding card per table.

use super::parts::{games, page_title, page_with_css, round_title, short_event_name, titled};
use super::{RoundSheets, SheetKind, SheetPage};
use crate::i18n::bi;
use crate::model::{Event, GroupId, Round};
use crate::report::{Markup, Section};
use crate::rulebook::{Lang, Rulebook};
use serde_json::json;

/// 台签: a card per table to fold into a tent; the top half is printed upside down so both
/// sides read from the players' chairs.
pub(super) fn cards(
    event: &Event,
    rules: &Rulebook,
    rounds: &[(GroupId, &Round)],
    lang: Lang,
) -> RoundSheets {
    let mut reports = Vec::new();
    let mut body = Markup::new();
    let event_name = short_event_name(rules);
    for (pool, round) in rounds {
        let group = rules.group_name(pool);
        let mut report = titled(rules, pool, round.number, SheetKind::Cards, lang);
        let mut section = Section::new(
            "",
            crate::views::headings(
                lang,
                &[
                    ("台号", "table"),
                    ("红方", "red"),
                    ("单位", "unit"),
                    ("黑方", "black"),
                    ("单位", "unit"),
                ],
            ),
        )
        .right(&[0]);
        let mut json_cards = Vec::new();
        for (table, red, black, _) in games(event, rules, pool, round) {
            section.push(vec![
                crate::views::table_label(rules, pool, table),
                red.name.clone(),
                red.unit.clone(),
                black.name.clone(),
                black.unit.clone(),
            ]);
            json_cards.push(crate::views::with_hall(
                json!({
                    "table": table,
                    "red": { "number": red.number, "name": red.name, "unit": red.unit },
                    "black": { "number": black.number, "name": black.name, "unit": black.unit },
                }),
                rules,
                pool,
            ));
            let mut half = Markup::new();
            half.text_element(
                "div",
                &[("class", "ev")],
                &format!(
                    "{event_name} · {group} · {}",
                    round_title(lang, round.number)
                ),
            )
            .newline();
            let number = bi!(
                lang,
                zh("{}第 {table} 台", crate::views::hall_prefix(rules, pool)),
                en("{}Table {table}", crate::views::hall_prefix(rules, pool))
            );
            half.text_element("div", &[("class", "no")], &number)
                .newline();
            for (side, s) in [
                (lang.pick("红方", "Red"), &red),
                (lang.pick("黑方", "Black"), &black),
            ] {
                half.element("div", &[("class", "who")], |m| {
                    m.text(&format!("{side} {} ", s.name))
                        .text_element("small", &[], &s.unit);
                })
                .newline();
            }
            body.element("div", &[("class", "card")], |m| {
                m.newline();
                for class in ["half flip", "half"] {
                    m.element("div", &[("class", class)], |m| {
                        m.newline().append(&half);
                    })
                    .newline();
                }
            });
            body.newline();
        }
        report.sections.push(section);
        report.json = json!({
            "event": rules.event.name,
            "group": pool,
            "round": round.number,
            "sheet": "cards",
            "cards": json_cards,
        });
        reports.push(report);
    }
    let title = page_title(rules, SheetKind::Cards, lang);
    RoundSheets {
        reports,
        html: SheetPage::Made(page_with_css(lang, &title, &body)),
        results_file: None,
    }
}
