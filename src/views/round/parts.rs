//! What the round sheets share: a player's seat as a sheet shows it, a round's games in
//! table order, titles (round, sheet, event), and the printable page with its CSS.

use super::SheetKind;
use crate::i18n::bi;
use crate::model::Round;
use crate::model::{Event, GroupId, Pairing, PlayerId, Points};
use crate::report::{Markup, Report, html_page_of};
use crate::rulebook::{Lang, Rulebook};
use crate::views::round_time;
use std::collections::BTreeMap;

pub(super) fn round_title(lang: Lang, round: u32) -> String {
    bi!(lang, zh("第{round}轮"), en("round {round}"))
}

/// A player as a sheet shows them.
pub(super) struct Seat {
    pub(super) number: String,
    pub(super) name: String,
    pub(super) unit: String,
    pub(super) score: Points,
}

pub(super) fn seat(event: &Event, totals: &BTreeMap<PlayerId, Points>, id: PlayerId) -> Seat {
    let p = event.player(id);
    Seat {
        number: p.map(crate::views::number_of).unwrap_or_default(),
        name: crate::views::name_of(event, id),
        unit: p.map(|p| p.unit.clone()).unwrap_or_default(),
        score: totals.get(&id).copied().unwrap_or_default(),
    }
}

/// The games of a round with both seats (scores before the round), in table order.
pub(super) fn games(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: &Round,
) -> Vec<(u32, Seat, Seat, Option<crate::model::GameResult>)> {
    let totals = crate::standings::scores_before(event, rules, pool, round.number);
    let mut out: Vec<_> = round
        .pairings
        .iter()
        .filter_map(|p| match p {
            Pairing::Game {
                table,
                red,
                black,
                result,
            } => Some((
                *table,
                seat(event, &totals, *red),
                seat(event, &totals, *black),
                *result,
            )),
            Pairing::Bye { .. } => None,
        })
        .collect();
    out.sort_by_key(|g| g.0);
    out
}

/// Extra print CSS of the slips, cards and lists (the page's own CSS sets A4).
pub(super) const SHEET_CSS: &str = "
.slip{border:1px dashed #555;padding:3mm 4mm;margin:0 0 5mm;break-inside:avoid;page-break-inside:avoid}
.slip h2{font-size:1.05em;margin:0 0 2mm}.slip table{width:100%;margin:0}
.slip td.box{width:12mm}.slip td.sign{width:28mm}
.slip p{margin:2mm 0 0}.slip .boxes span{margin-right:5mm;white-space:nowrap}
.card{border:1px solid #333;height:124mm;margin:0 0 6mm;break-inside:avoid;page-break-inside:avoid;display:flex;flex-direction:column}
.card .half{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center}
.card .flip{transform:rotate(180deg);border-bottom:1px dashed #999}
.card .no{font-size:40pt;font-weight:bold;line-height:1.1}.card .who{font-size:16pt}
.card .ev{font-size:10pt;color:#333}
table.find td,table.find th{padding:.15em .4em}
.page-break{break-after:page;page-break-after:always}
p.sign{margin-top:8mm}
@media print{.slip{font-size:10pt}}
";

pub(super) fn page_with_css(lang: Lang, title: &str, body: &Markup) -> String {
    let mut page = Markup::new();
    page.style(SHEET_CSS).newline().append(body);
    html_page_of(lang.code(), title, &page)
}

/// The event as a slip or a card names it: the short name, when the rulebook has one.
pub(super) fn short_event_name(rules: &Rulebook) -> &str {
    rules
        .event
        .short_name
        .as_deref()
        .unwrap_or(&rules.event.name)
}

/// A report titled like the pairing sheet: event — group, then the sheet and round.
pub(super) fn titled(
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
    kind: SheetKind,
    lang: Lang,
) -> Report {
    let mut report = Report::new(format!("{} — {}", rules.event.name, rules.group_name(pool)));
    report.lang = lang.code().into();
    let mut line = bi!(
        lang,
        zh("{}{}", round_title(lang, round), kind.title(lang)),
        en("{} {}", round_title(lang, round), kind.title(lang))
    );
    if let Some(t) = round_time(rules, round) {
        line.push_str(&format!("（{t}）"));
    }
    report.subtitle.push(line);
    report
}

pub(super) fn page_title(rules: &Rulebook, kind: SheetKind, lang: Lang) -> String {
    format!("{} — {}", rules.event.name, kind.title(lang))
}
