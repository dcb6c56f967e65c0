//! The phone-first public pages the exported site and `qiwang serve` share: the
//! find-my-table page (by name, pinyin initials or player number), the hall screen's
//! slides, and the script that filters the list and follows live updates.
//!
//! Pure: pages are [`Markup`] (every value escaped) made from the state; the server and
//! `export` call the same functions, so there is one renderer. Only what the public site
//! shows appears: names, groups, tables, colours, opponents (no unit, number of an ID or
//! anything private), and the standard sheets (`pairing_sheet`, `standings`).

use super::name_of;
use super::round::pinyin_key;
use crate::i18n::bi;
use crate::model::{Colour, Event, GroupId, Pairing};
use crate::report::{Json, Markup, Report, Section, html_body_markup_with, html_page_with_head};
use crate::rulebook::{Lang, Rulebook};

/// The script every public page loads (as a file: a strict Content-Security-Policy allows
/// no inline script). Pages work without it.
pub const SCRIPT: &str = include_str!("public.js");

/// The script's file name beside `index.html`.
pub const SCRIPT_FILE: &str = "qiwang.js";

/// The find page's file name beside `index.html`.
pub const FIND_FILE: &str = "find.html";

/// The style of the find page (a constant, allowed by its hash like the page style).
pub const FIND_CSS: &str = "\n\
form.find{margin:.6em 0}form.find input{font-size:1.1em;padding:.35em;width:14em;max-width:60vw}
form.find button{font-size:1.1em;padding:.35em .8em}
ul.found{list-style:none;padding:0;margin:0}
ul.found li{border:1px solid #888;border-radius:4px;margin:.5em 0;padding:.4em .6em;max-width:36em}
ul.found .table{font-size:1.5em;font-weight:bold}ul.found .name{font-size:1.2em;font-weight:bold}
p.letters a{display:inline-block;min-width:1.8em;padding:.2em;text-align:center}
";

/// The style of the hall screen (a constant, allowed by its hash).
pub const SCREEN_CSS: &str = "\n\
body{margin:1vw 2vw;font-size:2vw}h1{font-size:1.1em}h2{font-size:1em}p.sub{font-size:.8em}p.sub+p.sub{display:none}
table{width:100%}th,td{padding:.15em .4em;white-space:normal}nav{display:none}
";

/// One player of the newest round of a pool, as the find page lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindEntry {
    /// Sort key: the pinyin of the name.
    key: Vec<String>,
    name: String,
    number: Option<u32>,
    group: String,
    round: u32,
    /// `None`: a bye.
    table: Option<u32>,
    /// The table as the player reads it (`二楼 1` in another hall, docs/rules.md §12).
    label: String,
    colour: Option<Colour>,
    opponent: String,
    /// What a search matches: the name, its pinyin without tones and initials, the number.
    find: String,
}

impl FindEntry {
    /// Whether the entry matches a search (see [`matches`]).
    pub fn matches(&self, query: &str) -> bool {
        matches(&self.find, query)
    }
}

/// Whether a search matches an entry's search text `find` (`name pinyin initials
/// number`), the rule the script applies in the browser too: the query (lower case,
/// spaces removed) is the player number exactly when it is all digits; otherwise part of
/// the name, or the beginning of the name's pinyin or of its initials.
pub fn matches(find: &str, query: &str) -> bool {
    let q: String = query
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    if q.is_empty() {
        return true;
    }
    let mut parts = find.split(' ');
    let (name, pinyin, initials, number) = (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    );
    if q.bytes().all(|b| b.is_ascii_digit()) {
        return number == q;
    }
    name.to_lowercase().contains(&q) || pinyin.starts_with(&q) || initials.starts_with(&q)
}

/// Every player of each pool's newest round (of pool `only`, if given), in pinyin order
/// of the name.
pub fn find_entries(event: &Event, rules: &Rulebook, only: Option<&GroupId>) -> Vec<FindEntry> {
    let mut entries = Vec::new();
    for g in super::prizes::ranked_pools(event, rules).filter(|g| only.is_none_or(|o| o == &g.id)) {
        let Some(round) = event.group(&g.id).and_then(|s| s.rounds.last()) else {
            continue;
        };
        let group = rules.group_name(&g.id);
        let mut push = |me, other: Option<_>, table, colour| {
            let name = name_of(event, me);
            let key = pinyin_key(&name);
            let number = event.player(me).and_then(|p| p.number);
            let bare: Vec<String> = key
                .iter()
                .map(|s| s.trim_end_matches(|c: char| c.is_ascii_digit()).to_string())
                .collect();
            let initials: String = bare.iter().filter_map(|s| s.chars().next()).collect();
            // The name without spaces, so that the four parts stay apart.
            let compact: String = name.split_whitespace().collect();
            let find = format!(
                "{compact} {} {initials} {}",
                bare.concat(),
                number.map(|n| n.to_string()).unwrap_or_default()
            );
            entries.push(FindEntry {
                key,
                name,
                number,
                group: group.clone(),
                round: round.number,
                table,
                label: table.map_or_else(String::new, |t| super::table_label(rules, &g.id, t)),
                colour,
                opponent: other.map(|o| name_of(event, o)).unwrap_or_default(),
                find,
            });
        };
        for p in &round.pairings {
            match p {
                Pairing::Game {
                    table, red, black, ..
                } => {
                    push(*red, Some(*black), Some(*table), Some(Colour::Red));
                    push(*black, Some(*red), Some(*table), Some(Colour::Black));
                }
                Pairing::Bye { player } => push(*player, None, None, None),
            }
        }
    }
    entries.sort_by(|a, b| (&a.key, &a.name, a.table).cmp(&(&b.key, &b.name, b.table)));
    entries
}

/// The letter a name is listed under (its pinyin's first letter, `#` for anything else).
fn letter(entry: &FindEntry) -> char {
    entry
        .key
        .first()
        .and_then(|s| s.chars().next())
        .filter(char::is_ascii_lowercase)
        .map_or('#', |c| c.to_ascii_uppercase())
}

/// The find-my-table page: a search form, the letters to jump to, and one card per
/// player of the newest rounds; with `query`, only the players it matches (the server
/// answers `find.html?q=…` so; the script filters the same way in the browser).
pub fn find_page(
    rules: &Rulebook,
    lang: Lang,
    entries: &[FindEntry],
    query: Option<&str>,
) -> String {
    let title = format!(
        "{} — {}",
        rules.event.name,
        lang.pick("查找台号", "Find your table")
    );
    let query = query.unwrap_or("").trim();
    let mut body = Markup::new();
    body.style(FIND_CSS).newline();
    body.element("nav", &[], |m| {
        m.text_element(
            "a",
            &[("href", "index.html")],
            lang.pick("返回首页", "index"),
        );
    })
    .newline();
    body.text_element("h1", &[], &title).newline();
    body.element(
        "form",
        &[
            ("class", "find"),
            ("method", "get"),
            ("action", FIND_FILE),
            ("role", "search"),
        ],
        |m| {
            m.void_element(
                "input",
                &[
                    ("type", "search"),
                    ("id", "q"),
                    ("name", "q"),
                    ("value", query),
                    ("autocomplete", "off"),
                    (
                        "placeholder",
                        lang.pick("姓名、拼音首字母或编号", "name, pinyin initials or number"),
                    ),
                    ("aria-label", lang.pick("查找", "search")),
                ],
            );
            m.text(" ");
            m.text_element("button", &[("type", "submit")], lang.pick("查找", "Find"));
        },
    )
    .newline();
    body.element("main", &[], |m| {
        m.newline();
        if entries.is_empty() {
            m.text_element(
                "p",
                &[("class", "note")],
                lang.pick("还没有编排对阵。", "No round has been paired yet."),
            )
            .newline();
            return;
        }
        let shown: Vec<&FindEntry> = entries.iter().filter(|e| e.matches(query)).collect();
        let mut none = vec![("id", "none"), ("class", "note")];
        if !shown.is_empty() {
            none.push(("hidden", ""));
        }
        m.text_element(
            "p",
            &none,
            lang.pick(
                "没有找到；请检查姓名或编号。",
                "Nobody found; check the name or number.",
            ),
        )
        .newline();
        if query.is_empty() {
            let mut letters: Vec<char> = shown.iter().map(|e| letter(e)).collect();
            letters.dedup();
            m.element("p", &[("class", "letters")], |m| {
                for l in &letters {
                    m.text_element("a", &[("href", &format!("#L-{l}"))], &l.to_string());
                }
            })
            .newline();
        }
        m.element("ul", &[("class", "found")], |m| {
            m.newline();
            let mut previous = None;
            for e in &shown {
                let l = letter(e);
                let anchor = format!("L-{l}");
                let mut attributes = vec![("data-find", e.find.as_str())];
                if previous != Some(l) && query.is_empty() {
                    attributes.push(("id", &anchor));
                }
                previous = Some(l);
                m.element("li", &attributes, |m| find_card(m, e, lang))
                    .newline();
            }
        })
        .newline();
    });
    body.newline();
    script_tag(&mut body, "");
    html_page_with_head(lang.code(), &title, &Markup::new(), &body)
}

/// One player's card: name and number, then group and round, table and colour, opponent.
fn find_card(m: &mut Markup, e: &FindEntry, lang: Lang) {
    m.text_element("span", &[("class", "name")], &e.name);
    if let Some(n) = e.number {
        m.text(&format!(" ({}{n})", lang.pick("序号 ", "no. ")));
    }
    m.void_element("br", &[]);
    m.text(&format!(
        "{} {} ",
        e.group,
        bi!(lang, zh("第{}轮", e.round), en("round {}", e.round))
    ));
    match (e.table, e.colour) {
        (Some(_), Some(colour)) => {
            m.text_element(
                "span",
                &[("class", "table")],
                &format!("{}{}", lang.pick("台号 ", "table "), e.label),
            );
            m.text(&format!(
                " {} ",
                match colour {
                    Colour::Red => lang.pick("执红", "red"),
                    Colour::Black => lang.pick("执黑", "black"),
                }
            ));
            m.void_element("br", &[]);
            m.text(&format!(
                "{}{}",
                lang.pick("对手：", "opponent: "),
                e.opponent
            ));
        }
        _ => {
            m.text_element("span", &[("class", "table")], lang.pick("轮空", "bye"));
        }
    }
}

/// `<script src="…qiwang.js" defer>` with `up` (`../` per folder) before the name.
pub fn script_tag(m: &mut Markup, up: &str) {
    m.element(
        "script",
        &[("src", &format!("{up}{SCRIPT_FILE}")), ("defer", "")],
        |_| {},
    )
    .newline();
}

/// How many rows a hall-screen slide shows.
pub const SCREEN_ROWS: usize = 12;

/// How many of each pool's leaders the hall screen shows.
pub const SCREEN_STANDINGS: usize = 24;

/// The hall screen's slides, each a whole page (`screen?n=i`, `i` from 0): each pool's
/// newest round pairing sheet a screenful at a time, then its leading standings. Each
/// slide moves on to the next after `seconds` by itself (a refresh, no script needed),
/// the last back to the first.
pub fn screen_slides(event: &Event, rules: &Rulebook, lang: Lang, seconds: u32) -> Vec<String> {
    let mut parts: Vec<Report> = Vec::new();
    let standings = super::all_standings(event, rules);
    for g in super::prizes::ranked_pools(event, rules) {
        let rounds = event.group(&g.id).map_or(0, |s| s.rounds.len());
        let Ok(round) = u32::try_from(rounds) else {
            continue;
        };
        if round > 0 {
            let sheet = super::pairing_sheet(event, rules, &g.id, round, lang, Json::LeaveOut);
            parts.extend(screenfuls(&sheet, usize::MAX));
        }
        if let Some(st) = standings.get(&g.id) {
            let table = super::standings(event, rules, st, lang, Json::LeaveOut);
            parts.extend(screenfuls(&table, SCREEN_STANDINGS));
        }
    }
    if parts.is_empty() {
        let mut r = Report::new(rules.event.name.clone());
        r.subtitle.push(
            lang.pick("还没有编排对阵。", "No round has been paired yet.")
                .into(),
        );
        parts.push(r);
    }
    let count = parts.len();
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let mut head = Markup::new();
            head.void_element(
                "meta",
                &[
                    ("http-equiv", "refresh"),
                    (
                        "content",
                        &format!("{seconds};url=screen?n={}", (i + 1) % count),
                    ),
                ],
            );
            let mut body = Markup::new();
            body.style(SCREEN_CSS).newline();
            body.element("main", &[], |m| {
                m.append(&html_body_markup_with(part, &[]));
            });
            body.newline();
            script_tag(&mut body, "");
            html_page_with_head(lang.code(), &part.title, &head, &body)
        })
        .collect()
}

/// A report cut into screenfuls of [`SCREEN_ROWS`] rows per section, at most `limit`
/// rows of each; a section without rows (a heading, notes) comes whole.
///
/// Linear in the rows: every screenful copies only its own rows and the report's and
/// section's headings (copying the whole section per screenful made a 100,000-player
/// pairing sheet's 4,167 screenfuls copy 50,000 rows each).
fn screenfuls(report: &Report, limit: usize) -> Vec<Report> {
    let mut out = Vec::new();
    let heading = Report {
        title: report.title.clone(),
        subtitle: report.subtitle.clone(),
        lang: report.lang.clone(),
        ..Report::default()
    };
    for section in &report.sections {
        let rows = &section.rows[..section.rows.len().min(limit)];
        if rows.is_empty() {
            continue;
        }
        let columns = Section {
            title: section.title.clone(),
            columns: section.columns.clone(),
            align: section.align.clone(),
            rows: Vec::new(),
            notes: Vec::new(),
            optional: section.optional.clone(),
            sheet: section.sheet.clone(),
        };
        for (i, chunk) in rows.chunks(SCREEN_ROWS).enumerate() {
            let mut s = columns.clone();
            s.rows = chunk.to_vec();
            if i == 0 && rows.len() == section.rows.len() {
                s.notes.clone_from(&section.notes);
            }
            let mut part = heading.clone();
            part.sections.push(s);
            out.push(part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Player, PlayerId, Round};

    fn event() -> (Event, Rulebook) {
        let rules = Rulebook::cxa_2011("公开赛", 3);
        let group = rules.groups[0].id.clone();
        let mut event = Event::new(String::new());
        for (id, name) in [(1, "张三"), (2, "李四"), (3, "王五"), (4, "<b>赵</b>")] {
            let mut p = Player::new(PlayerId(id), name, group.clone());
            p.number = Some(id);
            event.players.push(p);
        }
        let game = |table, red, black| Pairing::Game {
            table,
            red: PlayerId(red),
            black: PlayerId(black),
            result: None,
        };
        event.group_mut(&group).rounds.push(Round {
            number: 1,
            pairings: vec![game(1, 1, 2), game(2, 3, 4)],
        });
        (event, rules)
    }

    #[test]
    fn a_player_is_found_by_name_initials_pinyin_or_number() {
        let (event, rules) = event();
        let entries = find_entries(&event, &rules, None);
        let found = |q: &str| -> Vec<String> {
            entries
                .iter()
                .filter(|e| e.matches(q))
                .map(|e| e.name.clone())
                .collect()
        };
        assert_eq!(found("张三"), ["张三"]);
        assert_eq!(found("zs"), ["张三"]);
        assert_eq!(found("ZhangS"), ["张三"]);
        assert_eq!(found(" 3 "), ["王五"]);
        assert_eq!(found("33"), Vec::<String>::new());
        assert_eq!(found("").len(), 4);
        // Listed in pinyin order: li, wang, zhang, and the name without pinyin first.
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["<b>赵</b>", "李四", "王五", "张三"]);
    }

    #[test]
    fn the_find_page_filters_and_escapes() {
        let (event, rules) = event();
        let entries = find_entries(&event, &rules, None);
        let all = find_page(&rules, Lang::Zh, &entries, None);
        assert!(!all.contains("<b>"), "{all}");
        assert!(all.contains("&lt;b&gt;赵&lt;/b&gt;"));
        assert!(all.contains("台号 2"));
        assert!(all.contains("src=\"qiwang.js\""));
        let one = find_page(&rules, Lang::Zh, &entries, Some("ls"));
        assert!(one.contains("李四") && !one.contains("王五"), "{one}");
        assert!(one.contains("value=\"ls\""));
        let none = find_page(&rules, Lang::Zh, &entries, Some("\"><script>"));
        assert!(!none.contains("<script>"), "{none}");
        assert!(none.contains("id=\"none\" class=\"note\">"), "{none}");
    }

    #[test]
    fn a_report_is_cut_into_screenfuls_of_its_own_rows() {
        let mut report = Report::new("赛事");
        report.subtitle.push("第 3 轮".into());
        report.footer.push("footer".into());
        report.json = serde_json::json!({"rows": 30});
        let mut section = Section::new("公开组", vec!["台号".into(), "红方".into()]);
        section.rows = (1..=30)
            .map(|i| vec![i.to_string(), format!("p{i}")])
            .collect();
        section.notes.push("note".into());
        report
            .sections
            .push(Section::new("empty", vec!["x".into()]));
        report.sections.push(section);
        let first = |p: &Report| p.sections[0].rows[0][0].clone();
        let all = screenfuls(&report, usize::MAX);
        let sizes: Vec<usize> = all.iter().map(|p| p.sections[0].rows.len()).collect();
        assert_eq!(sizes, [12, 12, 6]);
        assert_eq!(all.iter().map(first).collect::<Vec<_>>(), ["1", "13", "25"]);
        let notes: Vec<usize> = all.iter().map(|p| p.sections[0].notes.len()).collect();
        assert_eq!(
            notes,
            [1, 0, 0],
            "the notes come with the first screenful only"
        );
        for part in &all {
            assert_eq!((part.title.as_str(), part.subtitle.len()), ("赛事", 1));
            assert_eq!(part.sections.len(), 1);
            assert_eq!(part.sections[0].title, "公开组");
            assert_eq!(part.sections[0].columns, ["台号", "红方"]);
            assert!(part.footer.is_empty() && part.json.is_null() && part.csv.is_none());
        }
        // Cut short: no screenful carries the notes of the whole table.
        let leaders = screenfuls(&report, 24);
        let sizes: Vec<usize> = leaders.iter().map(|p| p.sections[0].rows.len()).collect();
        assert_eq!(sizes, [12, 12]);
        assert!(leaders.iter().all(|p| p.sections[0].notes.is_empty()));
    }

    #[test]
    fn the_screen_cycles_through_pairings_then_standings() {
        let (event, rules) = event();
        let slides = screen_slides(&event, &rules, Lang::Zh, 15);
        assert_eq!(slides.len(), 2);
        assert!(slides[0].contains("对阵") && slides[0].contains("url=screen?n=1"));
        assert!(slides[1].contains("url=screen?n=0"));
        let empty = screen_slides(&Event::new(String::new()), &rules, Lang::En, 15);
        assert_eq!(empty.len(), 1);
        assert!(empty[0].contains("No round"));
    }
}
