//! The sheets of a round, reprinted at any time (`qiwang round`): the pairing sheet
//! (对阵表), result slips (成绩登记表), table cards (台签), the "find your table" list sorted
//! by pinyin (姓名 → 台号) and the wall chart (总表: crosstable with 积分, 对手分, 名次).
//!
//! Each sheet is a list of [`Report`]s (table, CSV and JSON output, one per pool) plus a
//! printable A4 HTML page. The page is built here because slips and cards are not tables;
//! it is [`Markup`], so every value in it is escaped. Views only format: results, scores,
//! tiebreaks and ranks come from the library.
//!
//! Here: the sheet kinds, the choice of rounds and the pairing sheet (the pools'
//! pairing reports); `parts` holds what the sheets share (seats, titles, the page's
//! CSS), and `slips`, `cards`, `find` and `wall` one sheet each.

mod cards;
mod find;
mod parts;
mod slips;
mod wall;

pub use find::pinyin_key;

use cards::cards;
use find::find_list;
use slips::slips;
use wall::wall;

use crate::i18n::{Localize, bi, display_english};
use crate::model::{Event, GroupId, Round};
use crate::report::{Format, Json, Markup, Report, html_body_markup, html_page_of};
use crate::rulebook::{Lang, Rulebook};
use crate::schedule::RoundLimit;

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

    pub(super) fn title(self, lang: Lang) -> &'static str {
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
    /// `--round` names a round outside the rounds the rulebook schedules for every pool
    /// asked for (round 0, or past the last).
    OutsideSchedule {
        /// The round asked for.
        round: u32,
        /// The pool as the rulebook names it, when one was asked for.
        group: Option<String>,
        /// The rounds the pools play.
        limit: RoundLimit,
    },
}

display_english!(SheetError);

impl Localize for SheetError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            SheetError::NothingPaired => bi!(
                lang,
                zh("还没有任何组别编排过：请先用 `qiwang pair` 编排一轮"),
                en("no group has been paired yet: pair a round with `qiwang pair` first"),
            ),
            SheetError::NoSuchRound { round, newest } => bi!(
                lang,
                zh("没有哪个组别有第 {round} 轮：各组最新的轮次为 {newest}"),
                en("no group has a round {round}: the newest rounds are {newest}"),
            ),
            SheetError::OutsideSchedule {
                round,
                group,
                limit,
            } => {
                let reason = limit.reason(*round, lang);
                match group {
                    Some(name) => bi!(
                        lang,
                        zh("组别 `{name}` 没有第 {round} 轮：{reason}"),
                        en("group `{name}` has no round {round}: {reason}"),
                    ),
                    None => bi!(
                        lang,
                        zh("没有哪个组别有第 {round} 轮：{reason}"),
                        en("no group has a round {round}: {reason}"),
                    ),
                }
            }
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
    pub html: SheetPage,
    /// One table for every pool, when the sheet has one (the slips: a results file to
    /// fill in and read back with `qiwang result --from`, as CSV or a workbook).
    pub results_file: Option<Report>,
}

/// A round sheet's printable page: made with the sheet, or made from its reports only
/// when the page is what is printed (the wall chart of 100,000 players is a page of over
/// 1 GB of markup in the making, for nothing when the output is a table, CSV or JSON).
#[derive(Debug, Clone)]
pub enum SheetPage {
    /// The page, made.
    Made(String),
    /// The wall chart's page of [`RoundSheets::reports`], with this title, in this
    /// language.
    Wall(String, Lang),
}

impl RoundSheets {
    /// The sheet in `format` (HTML is the printable page).
    pub fn render(&self, format: Format) -> String {
        match (format, &self.results_file) {
            (Format::Html, _) => match &self.html {
                SheetPage::Made(html) => html.clone(),
                SheetPage::Wall(title, lang) => wall::page(&self.reports, title, *lang),
            },
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
pub(super) fn paged(bodies: impl IntoIterator<Item = Markup>) -> Markup {
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
        // A round the rulebook schedules for none of the pools says how many it does: the
        // pool's rounds, or the event's when every pool plays them.
        let limits: Vec<Option<RoundLimit>> = pools
            .iter()
            .map(|p| RoundLimit::of(event, rules, p))
            .collect();
        let one = match limits.as_slice() {
            [Some(limit)] => Some(*limit),
            [Some(first), ..] if first.event_wide && limits.iter().all(|l| *l == Some(*first)) => {
                Some(*first)
            }
            _ => None,
        };
        if let Some(limit) = one.filter(|l| l.excludes(n)) {
            return Err(SheetError::OutsideSchedule {
                round: n,
                group: match pools {
                    [pool] => Some(rules.group_name(pool)),
                    _ => None,
                },
                limit,
            });
        }
        return Err(SheetError::NoSuchRound {
            round: n,
            newest: newest
                .iter()
                .map(|(p, r)| format!("{} {}", rules.group_name(p), r.number))
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
            let html = SheetPage::Made(render_all(&reports, Format::Html));
            RoundSheets {
                reports,
                html,
                results_file: None,
            }
        }
        SheetKind::Slips => slips(event, rules, &rounds, lang),
        SheetKind::Cards => cards(event, rules, &rounds, lang),
        SheetKind::Find => find_list(event, rules, &rounds, lang),
        SheetKind::Wall => wall(event, rules, &rounds, lang, json),
    };
    Ok(sheets)
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
        for group in [Some("成人组".to_string()), None] {
            assert_localized(&SheetError::OutsideSchedule {
                round: 12,
                group,
                limit: RoundLimit {
                    rounds: 9,
                    event_wide: true,
                },
            });
        }
    }
}
