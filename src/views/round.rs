//! The sheets of a round, reprinted at any time (`qiwang round`): the pairing sheet
//! (对阵表), result slips (成绩登记表), table cards (台签), the "find your table" list sorted
//! by pinyin (姓名 → 台号) and the wall chart (总表: crosstable with 积分, 对手分, 名次).
//!
//! Each sheet is a list of [`Report`]s (table, CSV and JSON output, one per pool) plus a
//! printable A4 HTML page. The page is built here because slips and cards are not tables;
//! it is [`Markup`], so every value in it is escaped. Views only format: results, scores,
//! tiebreaks and ranks come from the library.

use super::labels::outcome_label;
use super::standings::CellWords;
use super::{group_name, round_time, signature_line};
use crate::i18n::{Localize, bi, display_english};
use crate::model::{Colour, Event, GroupId, Outcome, Pairing, PlayerId, Points};
use crate::report::{
    Format, Json, Markup, Report, Section, html_body_markup, html_body_markup_with, html_page_of,
};
use crate::rulebook::{Lang, Rulebook};
use crate::standings;
use crate::{model::Round, scoring};
use pinyin::ToPinyin;
use serde_json::json;
use std::collections::BTreeMap;

/// Which sheet of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetKind {
    /// 对阵表, with results once entered.
    Pairings,
    /// 成绩登记表: one slip per table, boxes for the result and both signatures.
    Slips,
    /// 台签: one folding card per table.
    Cards,
    /// Every player of the round by pinyin of the name, with table and colour.
    Find,
    /// 总表: crosstable up to the round with 积分, 对手分 and 名次, by pairing number.
    Wall,
}

impl SheetKind {
    /// Every sheet with the name `qiwang round --sheet` takes.
    pub const ALL: [(&'static str, SheetKind); 5] = [
        ("pairings", SheetKind::Pairings),
        ("slips", SheetKind::Slips),
        ("cards", SheetKind::Cards),
        ("find", SheetKind::Find),
        ("wall", SheetKind::Wall),
    ];

    fn title(self, lang: Lang) -> &'static str {
        match self {
            SheetKind::Pairings => lang.pick("对阵表", "pairings"),
            SheetKind::Slips => lang.pick("成绩登记表", "result slips"),
            SheetKind::Cards => lang.pick("台签", "table cards"),
            SheetKind::Find => lang.pick("查找台号", "find your table"),
            SheetKind::Wall => lang.pick("总表", "wall chart"),
        }
    }
}

/// Why a round's sheets cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// No group has a round yet.
    NothingPaired,
    /// `--round` names a round no group has.
    NoSuchRound {
        /// The round asked for.
        round: u32,
        /// Each group's newest round, for the message.
        newest: String,
    },
}

display_english!(SheetError);

impl Localize for SheetError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            SheetError::NothingPaired => bi!(
                lang,
                en("no group has been paired yet: pair a round with `qiwang pair` first"),
                zh("还没有任何组别编排过：请先用 `qiwang pair` 编排一轮"),
            ),
            SheetError::NoSuchRound { round, newest } => bi!(
                lang,
                en("no group has a round {round}: the newest rounds are {newest}"),
                zh("没有哪个组别有第 {round} 轮：各组最新的轮次为 {newest}"),
            ),
        }
    }
}

/// A round's sheet: one report per pool for table, CSV and JSON, and the A4 page.
#[derive(Debug, Clone)]
pub struct RoundSheets {
    /// One report per pool, for the table, CSV and JSON formats.
    pub reports: Vec<Report>,
    /// The printable A4 page of every pool (slips and cards are not tables), escaped
    /// throughout.
    pub html: String,
    /// One table for every pool, when the sheet has one (the slips: a results file to
    /// fill in and read back with `qiwang result --from`, as CSV or a workbook).
    pub results_file: Option<Report>,
}

impl RoundSheets {
    /// The sheet in `format` (HTML is the printable page).
    pub fn render(&self, format: Format) -> String {
        match (format, &self.results_file) {
            (Format::Html, _) => self.html.clone(),
            (Format::Csv, Some(file)) => file.render(Format::Csv),
            (other, _) => render_all(&self.reports, other),
        }
    }
}

/// Several reports as one output: tables one after the other, CSV sections separated by a
/// blank line, a JSON array (one report's JSON alone), one HTML page.
pub fn render_all(reports: &[Report], format: Format) -> String {
    match (format, reports) {
        (_, [one]) => one.render(format),
        (Format::Json, _) => json_list(reports),
        (Format::Html, _) => {
            let lang = reports.first().map_or("zh-CN", |r| r.lang.as_str());
            let title = reports.first().map_or("", |r| r.title.as_str());
            html_page_of(lang, title, &paged(reports.iter().map(html_body_markup)))
        }
        (_, _) => reports
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let text = r.render(format);
                // One byte-order mark, at the start of the whole output: one in the middle
                // reads as a stray character in the next sheet's first cell.
                match text.strip_prefix('\u{feff}') {
                    Some(rest) if k > 0 => rest.to_string(),
                    _ => text,
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// The reports' JSON as one list, whatever their number (`[]` for none).
pub fn json_list(reports: &[Report]) -> String {
    let all: Vec<&serde_json::Value> = reports.iter().map(|r| &r.json).collect();
    let mut text = serde_json::to_string_pretty(&all).unwrap_or_default();
    text.push('\n');
    text
}

/// Bodies one after the other, each starting a new printed page.
fn paged(bodies: impl IntoIterator<Item = Markup>) -> Markup {
    let mut page = Markup::new();
    for (i, body) in bodies.into_iter().enumerate() {
        if i > 0 {
            page.element("div", &[("class", "page-break")], |_| {})
                .newline();
        }
        page.append(&body);
    }
    page
}

/// The pools a sheet covers and the round of each: `round`, or each pool's newest.
fn rounds_of<'a>(
    event: &'a Event,
    rules: &Rulebook,
    pools: &[GroupId],
    round: Option<u32>,
) -> Result<Vec<(GroupId, &'a Round)>, SheetError> {
    let newest: Vec<(GroupId, &Round)> = pools
        .iter()
        .filter_map(|p| {
            let state = event.group(p).filter(|g| g.merged_into.is_none())?;
            state.last_round().map(|r| (p.clone(), r))
        })
        .collect();
    if newest.is_empty() {
        return Err(SheetError::NothingPaired);
    }
    let Some(n) = round else {
        return Ok(newest);
    };
    let chosen: Vec<(GroupId, &Round)> = pools
        .iter()
        .filter_map(|p| event.group(p)?.round(n).map(|r| (p.clone(), r)))
        .collect();
    if chosen.is_empty() {
        return Err(SheetError::NoSuchRound {
            round: n,
            newest: newest
                .iter()
                .map(|(p, r)| format!("{} {}", group_name(rules, p), r.number))
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    Ok(chosen)
}

/// The sheet `kind` of round `round` (default: each pool's newest) of `pools`. `json`
/// says whether the pairing sheets carry their JSON value (see [`Json`]).
pub fn round_sheets(
    event: &Event,
    rules: &Rulebook,
    pools: &[GroupId],
    round: Option<u32>,
    kind: SheetKind,
    lang: Lang,
    json: Json,
) -> Result<RoundSheets, SheetError> {
    let rounds = rounds_of(event, rules, pools, round)?;
    let sheets = match kind {
        SheetKind::Pairings => {
            let reports: Vec<Report> = rounds
                .iter()
                .map(|(pool, r)| super::pairing_sheet(event, rules, pool, r.number, lang, json))
                .collect();
            let html = render_all(&reports, Format::Html);
            RoundSheets {
                reports,
                html,
                results_file: None,
            }
        }
        SheetKind::Slips => slips(event, rules, &rounds, lang),
        SheetKind::Cards => cards(event, rules, &rounds, lang),
        SheetKind::Find => find_list(event, rules, &rounds, lang),
        SheetKind::Wall => wall(event, rules, &rounds, lang),
    };
    Ok(sheets)
}

fn round_title(lang: Lang, round: u32) -> String {
    match lang {
        Lang::Zh => format!("第{round}轮"),
        Lang::En => format!("round {round}"),
    }
}

/// A player as a sheet shows them.
struct Seat {
    number: String,
    name: String,
    unit: String,
    score: Points,
}

fn seat(event: &Event, totals: &BTreeMap<PlayerId, Points>, id: PlayerId) -> Seat {
    let p = event.player(id);
    Seat {
        number: p.map(super::number_of).unwrap_or_default(),
        name: super::name_of(event, id),
        unit: p.map(|p| p.unit.clone()).unwrap_or_default(),
        score: totals.get(&id).copied().unwrap_or_default(),
    }
}

/// The games of a round with both seats (scores before the round), in table order.
fn games(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: &Round,
) -> Vec<(u32, Seat, Seat, Option<crate::model::GameResult>)> {
    let totals = scoring::totals(event, &rules.scoring, pool, round.number.saturating_sub(1));
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
const SHEET_CSS: &str = "
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

fn page_with_css(lang: Lang, title: &str, body: &Markup) -> String {
    let mut page = Markup::new();
    page.style(SHEET_CSS).newline().append(body);
    html_page_of(lang.code(), title, &page)
}

/// 成绩登记表: one slip per table with both players (number, name, unit, score), boxes for
/// the result and the fouls, and room for both players' and the arbiter's signatures.
fn slips(event: &Event, rules: &Rulebook, rounds: &[(GroupId, &Round)], lang: Lang) -> RoundSheets {
    let mut reports = Vec::new();
    let mut body = Markup::new();
    let event_name = short_event_name(rules);
    let outcomes = Outcome::ALL;
    // The results file: the columns `qiwang result --from` reads. 红方/黑方 are checked
    // against the game at the table, and 编排码, on every row so that sorting, deleting
    // or copying rows between files keeps it, must still be the round's pairing code.
    let mut csv_rows = Section::new(
        "",
        super::headings(
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
        ),
    );
    for (pool, round) in rounds {
        let group = group_name(rules, pool);
        let code = crate::results::pairing_code(pool, round);
        let mut report = titled(rules, pool, round.number, SheetKind::Slips, lang);
        let mut section = Section::new(
            "",
            super::headings(
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
                table.to_string(),
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
            csv_rows.push(vec![
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
            ]);
            json_slips.push(json!({
                "table": table,
                "red": { "number": red.number, "name": red.name, "unit": red.unit, "score": red.score },
                "black": { "number": black.number, "name": black.name, "unit": black.unit, "score": black.score },
                "result": result.map(|r| r.outcome.token()),
            }));
            // The printed slip.
            let when = round_time(rules, round.number)
                .map(|t| format!(" · {t}"))
                .unwrap_or_default();
            let heading = format!(
                "{event_name} · {group} · {} · {}{when}",
                round_title(lang, round.number),
                match lang {
                    Lang::Zh => format!("第{table}台"),
                    Lang::En => format!("table {table}"),
                },
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
        html: page_with_css(lang, &title, &body),
        results_file: Some(results_file),
    }
}

/// The event as a slip or a card names it: the short name, when the rulebook has one.
fn short_event_name(rules: &Rulebook) -> &str {
    rules
        .event
        .short_name
        .as_deref()
        .unwrap_or(&rules.event.name)
}

/// A report titled like the pairing sheet: event — group, then the sheet and round.
fn titled(rules: &Rulebook, pool: &GroupId, round: u32, kind: SheetKind, lang: Lang) -> Report {
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        group_name(rules, pool)
    ));
    report.lang = lang.code().into();
    let mut line = match lang {
        Lang::Zh => format!("{}{}", round_title(lang, round), kind.title(lang)),
        Lang::En => format!("{} {}", round_title(lang, round), kind.title(lang)),
    };
    if let Some(t) = round_time(rules, round) {
        line.push_str(&format!("（{t}）"));
    }
    report.subtitle.push(line);
    report
}

fn page_title(rules: &Rulebook, kind: SheetKind, lang: Lang) -> String {
    format!("{} — {}", rules.event.name, kind.title(lang))
}

/// 台签: a card per table to fold into a tent; the top half is printed upside down so both
/// sides read from the players' chairs.
fn cards(event: &Event, rules: &Rulebook, rounds: &[(GroupId, &Round)], lang: Lang) -> RoundSheets {
    let mut reports = Vec::new();
    let mut body = Markup::new();
    let event_name = short_event_name(rules);
    for (pool, round) in rounds {
        let group = group_name(rules, pool);
        let mut report = titled(rules, pool, round.number, SheetKind::Cards, lang);
        let mut section = Section::new(
            "",
            super::headings(
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
                table.to_string(),
                red.name.clone(),
                red.unit.clone(),
                black.name.clone(),
                black.unit.clone(),
            ]);
            json_cards.push(json!({
                "table": table,
                "red": { "number": red.number, "name": red.name, "unit": red.unit },
                "black": { "number": black.number, "name": black.name, "unit": black.unit },
            }));
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
            let number = match lang {
                Lang::Zh => format!("第 {table} 台"),
                Lang::En => format!("Table {table}"),
            };
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
        html: page_with_css(lang, &title, &body),
        results_file: None,
    }
}

/// The sort key of a name in pinyin order: each character's syllable with its tone
/// number at the end (李 `li3` before 林 `lin2`), characters without pinyin as themselves.
/// A surname with a reading of its own comes first in its usual surname reading (曾 zēng,
/// not céng; 单 shàn, not dān).
pub fn pinyin_key(name: &str) -> Vec<String> {
    name.chars()
        .enumerate()
        .map(|(i, c)| {
            let surname = SURNAME_READINGS
                .iter()
                .find(|(s, _)| i == 0 && *s == c)
                .map(|(_, reading)| reading.to_string());
            surname.unwrap_or_else(|| match c.to_pinyin() {
                Some(p) => p.with_tone_num_end().to_string(),
                None => c.to_lowercase().to_string(),
            })
        })
        .collect()
}

/// Surnames read differently from the character's first reading.
const SURNAME_READINGS: &[(char, &str)] = &[
    ('曾', "zeng1"),
    ('单', "shan4"),
    ('解', "xie4"),
    ('仇', "qiu2"),
    ('朴', "piao2"),
    ('区', "ou1"),
    ('查', "zha1"),
    ('乐', "yue4"),
    ('盖', "ge3"),
    ('缪', "miao4"),
    ('翟', "zhai2"),
    ('覃', "qin2"),
    ('召', "shao4"),
    ('种', "chong2"),
    ('重', "chong2"),
    ('柏', "bai3"),
    ('尉', "yu4"),
    ('黑', "he4"),
    ('万', "wan4"),
    ('沈', "shen3"),
];

/// The notice-board list: every player of the round, sorted by the pinyin of the name,
/// with group, table, colour and opponent (a bye says so). One list for all pools, since
/// players look for their own name, not their group.
fn find_list(
    event: &Event,
    rules: &Rulebook,
    rounds: &[(GroupId, &Round)],
    lang: Lang,
) -> RoundSheets {
    struct Entry {
        key: Vec<String>,
        order: usize,
        name: String,
        group: String,
        round: u32,
        table: Option<u32>,
        colour: Option<Colour>,
        opponent: String,
    }
    let mut entries = Vec::new();
    for (order, (pool, round)) in rounds.iter().enumerate() {
        let group = group_name(rules, pool);
        for p in &round.pairings {
            match p {
                Pairing::Game {
                    table, red, black, ..
                } => {
                    for (me, other, colour) in
                        [(*red, *black, Colour::Red), (*black, *red, Colour::Black)]
                    {
                        let name = super::name_of(event, me);
                        entries.push(Entry {
                            key: pinyin_key(&name),
                            order,
                            name,
                            group: group.clone(),
                            round: round.number,
                            table: Some(*table),
                            colour: Some(colour),
                            opponent: super::name_of(event, other),
                        });
                    }
                }
                Pairing::Bye { player } => {
                    let name = super::name_of(event, *player);
                    entries.push(Entry {
                        key: pinyin_key(&name),
                        order,
                        name,
                        group: group.clone(),
                        round: round.number,
                        table: None,
                        colour: None,
                        opponent: String::new(),
                    });
                }
            }
        }
    }
    entries.sort_by(|a, b| {
        (&a.key, &a.name, a.order, a.table).cmp(&(&b.key, &b.name, b.order, b.table))
    });
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        SheetKind::Find.title(lang)
    ));
    report.lang = lang.code().into();
    let mut which: Vec<String> = rounds
        .iter()
        .map(|(pool, r)| {
            format!(
                "{} {}",
                group_name(rules, pool),
                round_title(lang, r.number)
            )
        })
        .collect();
    which.dedup();
    report.subtitle.push(which.join(lang.pick("，", ", ")));
    report.subtitle.push(
        lang.pick("按姓名拼音排序", "sorted by the pinyin of the name")
            .into(),
    );
    let mut section = Section::new(
        "",
        super::headings(
            lang,
            &[
                ("姓名", "name"),
                ("组别", "group"),
                ("台号", "table"),
                ("执棋", "colour"),
                ("对手", "opponent"),
            ],
        ),
    )
    .right(&[2]);
    let mut json_rows = Vec::new();
    for entry in &entries {
        let colour = match entry.colour {
            Some(Colour::Red) => lang.pick("红", "red"),
            Some(Colour::Black) => lang.pick("黑", "black"),
            None => lang.pick("轮空", "bye"),
        };
        section.push(vec![
            entry.name.clone(),
            entry.group.clone(),
            entry.table.map(|t| t.to_string()).unwrap_or_default(),
            colour.into(),
            entry.opponent.clone(),
        ]);
        json_rows.push(json!({
            "name": entry.name,
            "group": entry.group,
            "round": entry.round,
            "table": entry.table,
            "colour": entry.colour.map(|c| match c { Colour::Red => "red", Colour::Black => "black" }),
            "opponent": if entry.opponent.is_empty() { None } else { Some(&entry.opponent) },
        }));
    }
    report.sections.push(section);
    report.json = json!({ "event": rules.event.name, "sheet": "find", "players": json_rows });
    let mut body = html_body_markup_with(&report, &[("class", "find")]);
    body.newline();
    let title = report.title.clone();
    RoundSheets {
        html: page_with_css(lang, &title, &body),
        reports: vec![report],
        results_file: None,
    }
}

/// 总表: per pool, every player by pairing number with each round's opponent, colour and
/// result, then 积分, 对手分 and 名次 after the round.
fn wall(event: &Event, rules: &Rulebook, rounds: &[(GroupId, &Round)], lang: Lang) -> RoundSheets {
    let mut reports = Vec::new();
    for (pool, round) in rounds {
        let table = standings::crosstable(event, rules, pool, Some(round.number));
        let values = standings::tiebreak_values(event, rules, pool, Some(round.number));
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
        cols.extend(super::standings::round_columns(&table, lang));
        cols.push(lang.pick("积分", "pts").into());
        cols.push(super::labels::tiebreak_label(crate::rulebook::Tiebreak::OppScore, lang).into());
        cols.push(lang.pick("名次", "place").into());
        let numeric: Vec<usize> = (0..cols.len()).filter(|&i| i != 1 && i != 2).collect();
        let mut section = Section::new("", cols).right(&numeric);
        let mut rows: Vec<_> = table.rows.iter().collect();
        rows.sort_by_key(|r| (r.number.is_none(), r.number, r.player));
        let mut json_rows = Vec::new();
        for row in rows {
            let unit = event
                .player(row.player)
                .map(|p| p.unit.clone())
                .unwrap_or_default();
            let opp = values.get(&row.player).map(|v| v.opp_score);
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
                    .map(|c| super::standings::cell_text(c, CellWords::Worded, lang)),
            );
            cells.push(row.score.to_string());
            cells.push(opp.map(|o| o.to_string()).unwrap_or_default());
            cells.push(place);
            section.push(cells);
            json_rows.push(json!({
                "player": row.player,
                "number": row.number,
                "name": row.name,
                "unit": unit,
                "cells": row.cells,
                "score": row.score,
                "opp_score": opp,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sheet_error_has_chinese_with_the_same_values() {
        use crate::i18n::facts::assert_localized;
        assert_localized(&SheetError::NothingPaired);
        assert_localized(&SheetError::NoSuchRound {
            round: 7,
            newest: "`adult` 5, `kids` 4".into(),
        });
    }
}
