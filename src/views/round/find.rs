//! The "find your table" list: every player of the round sorted by the pinyin of the
//! name (surnames in their surname reading), with group, table, colour and opponent; two
//! players of one name are told apart by their unit (钱一（甲队）).

use super::parts::{page_with_css, round_title};
use super::{RoundSheets, SheetKind, SheetPage};
use crate::model::{Colour, Event, GroupId, Pairing, Round};
use crate::report::{Report, Section, html_body_markup_with};
use crate::rulebook::{Lang, Rulebook};
use pinyin::ToPinyin;
use serde_json::json;

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

/// A player's unit as the sheets print it (empty for an unknown player).
fn unit_of(event: &Event, id: crate::model::PlayerId) -> String {
    event.player(id).map(|p| p.unit.clone()).unwrap_or_default()
}

/// The notice-board list: every player of the round, sorted by the pinyin of the name,
/// with group, table, colour and opponent (a bye says so). One list for all pools, since
/// players look for their own name, not their group.
pub(super) fn find_list(
    event: &Event,
    rules: &Rulebook,
    rounds: &[(GroupId, &Round)],
    lang: Lang,
) -> RoundSheets {
    struct Entry<'a> {
        key: Vec<String>,
        order: usize,
        name: String,
        unit: String,
        group: String,
        round: u32,
        table: Option<u32>,
        /// The pool whose table the player sits at, for its hall (`None`: a bye).
        seated_in: Option<&'a GroupId>,
        /// The table as the player reads it (`二楼 1` in another hall; empty: a bye).
        label: String,
        colour: Option<Colour>,
        opponent: String,
    }
    let mut entries = Vec::new();
    for (order, (pool, round)) in rounds.iter().enumerate() {
        let group = rules.group_name(pool);
        for p in &round.pairings {
            match p {
                Pairing::Game {
                    table, red, black, ..
                } => {
                    for (me, other, colour) in
                        [(*red, *black, Colour::Red), (*black, *red, Colour::Black)]
                    {
                        let name = crate::views::name_of(event, me);
                        entries.push(Entry {
                            key: pinyin_key(&name),
                            order,
                            name,
                            unit: unit_of(event, me),
                            group: group.clone(),
                            round: round.number,
                            table: Some(*table),
                            seated_in: Some(pool),
                            label: crate::views::table_label(rules, pool, *table),
                            colour: Some(colour),
                            opponent: crate::views::name_of(event, other),
                        });
                    }
                }
                Pairing::Bye { player } => {
                    let name = crate::views::name_of(event, *player);
                    entries.push(Entry {
                        key: pinyin_key(&name),
                        order,
                        name,
                        unit: unit_of(event, *player),
                        group: group.clone(),
                        round: round.number,
                        table: None,
                        seated_in: None,
                        label: String::new(),
                        colour: None,
                        opponent: String::new(),
                    });
                }
            }
        }
    }
    entries.sort_by(|a, b| {
        (&a.key, &a.name, &a.unit, a.order, a.table)
            .cmp(&(&b.key, &b.name, &b.unit, b.order, b.table))
    });
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        SheetKind::Find.title(lang)
    ));
    report.lang = lang.code().into();
    let mut which: Vec<String> = rounds
        .iter()
        .map(|(pool, r)| format!("{} {}", rules.group_name(pool), round_title(lang, r.number)))
        .collect();
    which.dedup();
    report.subtitle.push(which.join(lang.pick("，", ", ")));
    report.subtitle.push(
        lang.pick("按姓名拼音排序", "sorted by the pinyin of the name")
            .into(),
    );
    let mut section = Section::new(
        "",
        crate::views::headings(
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
    // A name the list holds twice (namesakes, in one group or two) gets its unit.
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for entry in &entries {
        *seen.entry(entry.name.as_str()).or_default() += 1;
    }
    let shown_name = |name: &str, unit: &str| match seen.get(name) {
        Some(n) if *n > 1 && !unit.is_empty() => format!("{name}（{unit}）"),
        _ => name.to_string(),
    };
    let mut json_rows = Vec::new();
    for entry in &entries {
        let colour = match entry.colour {
            Some(Colour::Red) => lang.pick("红", "red"),
            Some(Colour::Black) => lang.pick("黑", "black"),
            None => lang.pick("轮空", "bye"),
        };
        section.push(vec![
            shown_name(entry.name.as_str(), entry.unit.as_str()),
            entry.group.clone(),
            entry.label.clone(),
            colour.into(),
            entry.opponent.clone(),
        ]);
        let row = json!({
            "name": entry.name,
            "unit": entry.unit,
            "group": entry.group,
            "round": entry.round,
            "table": entry.table,
            "colour": entry.colour.map(|c| match c { Colour::Red => "red", Colour::Black => "black" }),
            "opponent": if entry.opponent.is_empty() { None } else { Some(&entry.opponent) },
        });
        json_rows.push(match entry.seated_in {
            Some(pool) => crate::views::with_hall(row, rules, pool),
            None => row,
        });
    }
    report.sections.push(section);
    report.json = json!({ "event": rules.event.name, "sheet": "find", "players": json_rows });
    let mut body = html_body_markup_with(&report, &[("class", "find")]);
    body.newline();
    let title = report.title.clone();
    RoundSheets {
        html: SheetPage::Made(page_with_css(lang, &title, &body)),
        reports: vec![report],
        results_file: None,
    }
}
