//! The static site for the notice board or a WeChat link, and the whole-event JSON.
//!
//! The site is also what `qiwang serve` serves (one renderer): phone first (each table's
//! rows become cards on a narrow screen), with the find-my-table page and the script of
//! `views::public`.
//!
//! Pure: returns (relative path, file content) pairs; the caller writes them. Every value
//! goes through the HTML renderer's escaping, and the player list shows only what is
//! published (the site is public: see `views::players` and docs/architecture.md §7).

use super::prizes::{all_standings, ranked_pools, sheet_from};
use super::public;
use crate::i18n::bi;
use crate::model::{Event, GroupId};
use crate::report::{
    Deferred, Format, Json, Markup, Report, SortedKeys, Streamed, html_body_markup_stacked_into,
    html_page_of, html_page_of_made, html_stacked_bytes,
};
use crate::rulebook::{Lang, Rulebook};
use crate::standings::Standings;
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};
use std::collections::BTreeMap;

/// One published document: where it goes, the link text on the index, and the report.
struct Doc {
    /// Path without extension, e.g. `youth/round-3`.
    stem: String,
    /// The pool heading it is listed under on the index (`None`: event-wide).
    section: Option<String>,
    label: String,
    report: Report,
}

/// Every document of the event, in index order: per pool the round sheets, standings,
/// crosstable and players (masked); then the team ranking and the prize sheet. `json`
/// says whether the reports carry their JSON value (see [`Json`]). The exports take them
/// as they are made ([`streamed_documents`]).
#[cfg(test)]
fn documents(
    event: &Event,
    rules: &Rulebook,
    only: Option<&GroupId>,
    lang: Lang,
    json: Json,
) -> Vec<Doc> {
    let mut docs = Vec::new();
    each_document(event, rules, only, lang, json, &mut |doc| docs.push(doc));
    docs
}

/// [`documents`] made on a second thread and handed to `consume` as each is ready, so
/// that rendering one overlaps making the next (for 100,000 players each takes a few
/// tenths of a second).
fn streamed_documents<R>(
    event: &Event,
    rules: &Rulebook,
    only: Option<&GroupId>,
    lang: Lang,
    json: Json,
    consume: impl FnOnce(&mut dyn Iterator<Item = Doc>) -> R,
) -> R {
    streamed(
        |each| each_document(event, rules, only, lang, json, each),
        consume,
    )
}

/// Runs `make` on a second thread and `consume` here on what it makes, in order, as it
/// is made: at most two items wait (a document may hold a million cells). A panic in
/// `make` is raised again here once `consume` is done with what came before it. If no
/// thread can be made, everything is made first, then consumed.
fn streamed<T: Send, R>(
    make: impl FnOnce(&mut dyn FnMut(T)) + Send,
    consume: impl FnOnce(&mut dyn Iterator<Item = T>) -> R,
) -> R {
    // Kept here too, so that it can be done in line if no thread can be made.
    let make = std::sync::Mutex::new(Some(make));
    let make = &make;
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::sync_channel(1);
        // `send` moves to the thread: the consumer's items end when the maker is done.
        let maker = crate::threads::spawn(scope, move || {
            let Some(make) = make.lock().ok().and_then(|mut m| m.take()) else {
                return;
            };
            // A consumer that stopped early (on an error) has dropped `receive`: the
            // rest is made and dropped, and the consumer's result is what counts.
            make(&mut |item| {
                let _ = send.send(item);
            });
        });
        let Ok(maker) = maker else {
            let make = make.lock().ok().and_then(|mut m| m.take());
            let mut items = Vec::new();
            make.expect("no thread took it")(&mut |item| items.push(item));
            return consume(&mut items.into_iter());
        };
        let result = consume(&mut receive.iter());
        // Unblocks a maker waiting to hand over an item nobody will take.
        drop(receive);
        crate::threads::join(maker);
        result
    })
}

/// [`documents`], each handed to `each` as it is made.
fn each_document(
    event: &Event,
    rules: &Rulebook,
    only: Option<&GroupId>,
    lang: Lang,
    json: Json,
    each: &mut dyn FnMut(Doc),
) {
    if rules.team_competition.is_some() {
        team_documents(event, rules, only, lang, json, each);
        return;
    }
    std::thread::scope(|scope| {
        // Standings once per pool: they serve the standings pages, the team ranking and
        // the prize sheet. Worked out on another thread while the first pool's round
        // sheets are made (for 100,000 players both take most of a second).
        let standings = Later::spawn(scope, || all_standings(event, rules));
        for g in ranked_pools(event, rules).filter(|g| only.is_none_or(|o| o == &g.id)) {
            let dir = g.id.as_str();
            let rounds = event
                .group(&g.id)
                .map(|s| s.rounds.len() as u32)
                .unwrap_or(0);
            for r in 1..=rounds {
                each(Doc {
                    stem: format!("{dir}/round-{r}"),
                    section: Some(g.name.clone()),
                    label: bi!(
                        lang,
                        zh("第{r}轮对阵与成绩"),
                        en("Round {r} pairings and results")
                    ),
                    report: super::pairing_sheet(event, rules, &g.id, r, lang, json),
                });
            }
            let Some(st) = standings.get().get(&g.id) else {
                continue;
            };
            type Page = fn(&Event, &Rulebook, &Standings, Lang, Json) -> Report;
            let pages: [(&str, &str, Page); 2] = [
                (
                    "standings",
                    lang.pick("成绩排名", "Standings"),
                    super::standings,
                ),
                (
                    "crosstable",
                    lang.pick("成绩交叉表", "Crosstable"),
                    super::standings::crosstable_from,
                ),
            ];
            for (file, label, page) in pages {
                each(Doc {
                    stem: format!("{dir}/{file}"),
                    section: Some(g.name.clone()),
                    label: label.into(),
                    report: page(event, rules, st, lang, json),
                });
            }
            each(Doc {
                stem: format!("{dir}/players"),
                section: Some(g.name.clone()),
                label: lang.pick("参赛名单", "Players").into(),
                report: super::players(event, rules, Some(&g.id), lang, false, json),
            });
        }
        let (sheet, rankings) = sheet_from(event, rules, standings.get());
        if !rankings.is_empty() {
            each(Doc {
                stem: "teams".into(),
                section: None,
                label: lang.pick("团体排名", "Team ranking").into(),
                report: super::teams_report(event, rules, &rankings, lang),
            });
        }
        each(Doc {
            stem: "prizes".into(),
            section: None,
            label: lang.pick("获奖名单", "Prize sheet").into(),
            report: super::prize_sheet_report(&sheet, lang),
        });
    });
}

/// A team competition's documents (docs/rules.md §17): per pool each round's match sheet
/// with every board, the team standings, the team crosstable, the board results and the
/// players; then the team prize sheet with the board prizes.
fn team_documents(
    event: &Event,
    rules: &Rulebook,
    only: Option<&GroupId>,
    lang: Lang,
    json: Json,
    each: &mut dyn FnMut(Doc),
) {
    let pools: Vec<&crate::rulebook::GroupRule> = rules
        .pools()
        .filter(|g| only.is_none_or(|o| o == &g.id))
        .filter(|g| event.players_in(&g.id).next().is_some())
        .collect();
    for g in &pools {
        let dir = g.id.as_str();
        let rounds: Vec<u32> = event
            .team_pools
            .get(&g.id)
            .map(|s| s.rounds.iter().map(|r| r.number).collect())
            .unwrap_or_default();
        for r in rounds {
            if let Ok(report) = super::team_pairing_sheet(event, rules, &g.id, Some(r), lang) {
                each(Doc {
                    stem: format!("{dir}/round-{r}"),
                    section: Some(g.name.clone()),
                    label: bi!(
                        lang,
                        zh("第{r}轮对阵与成绩"),
                        en("Round {r} pairings and results")
                    ),
                    report,
                });
            }
        }
        type Page = fn(
            &Event,
            &Rulebook,
            &GroupId,
            Option<u32>,
            Lang,
        ) -> Result<Report, crate::teams::TeamError>;
        let pages: [(&str, &str, Page); 3] = [
            (
                "standings",
                lang.pick("团体名次", "Team standings"),
                super::team_standings_report,
            ),
            (
                "crosstable",
                lang.pick("团体交叉表", "Team crosstable"),
                super::team_crosstable,
            ),
            (
                "boards",
                lang.pick("台次成绩", "Board results"),
                super::board_results,
            ),
        ];
        for (file, label, page) in pages {
            if let Ok(report) = page(event, rules, &g.id, None, lang) {
                each(Doc {
                    stem: format!("{dir}/{file}"),
                    section: Some(g.name.clone()),
                    label: label.into(),
                    report,
                });
            }
        }
        each(Doc {
            stem: format!("{dir}/players"),
            section: Some(g.name.clone()),
            label: lang.pick("参赛名单", "Players").into(),
            report: super::players(event, rules, Some(&g.id), lang, false, json),
        });
    }
    if let Some(g) = pools.first()
        && let Ok(report) = super::team_prize_sheet(event, rules, &g.id, lang)
    {
        each(Doc {
            stem: "prizes".into(),
            section: None,
            label: lang.pick("获奖名单", "Prize sheet").into(),
            report,
        });
    }
}

/// The static site: an index and one page per document, each with a link back, sorted by
/// name. With `only`, the pages of that pool (and the event-wide team ranking and prize
/// sheet).
pub fn site(
    event: &Event,
    rules: &Rulebook,
    only: Option<&GroupId>,
    lang: Lang,
) -> Vec<(String, String)> {
    let mut files = Vec::new();
    site_each(event, rules, only, lang, |name, page| {
        files.push((name, page));
    });
    files.sort();
    files
}

/// [`site`]'s files (name, content) handed to `emit` one at a time as they are made, the
/// index last but for the find page and its script: `export --format html` writes each
/// away before the next is made.
pub fn site_each(
    event: &Event,
    rules: &Rulebook,
    only: Option<&GroupId>,
    lang: Lang,
    mut emit: impl FnMut(String, String),
) {
    // Pages are HTML: no report's JSON value is read. Each page is rendered while the
    // next document is made; the index lists them all at the end.
    let mut listed: Vec<(Option<String>, String, String)> = Vec::new();
    streamed_documents(event, rules, only, lang, Json::LeaveOut, |docs| {
        for doc in docs {
            let depth = doc.stem.matches('/').count();
            let up = "../".repeat(depth);
            // Made in the page's own buffer: a pairing sheet of 100,000 players is 30 MB,
            // and copying it into the <main> and then into the page was a tenth of
            // `export --format html`.
            let body_bytes = html_stacked_bytes(&doc.report);
            let page = html_page_of_made(lang.code(), &doc.report.title, body_bytes, |body| {
                body.element("nav", &[], |m| {
                    m.text_element(
                        "a",
                        &[("href", &format!("{up}index.html"))],
                        lang.pick("返回首页", "index"),
                    );
                    m.text_element(
                        "a",
                        &[("href", &format!("{up}{}", public::FIND_FILE))],
                        lang.pick("查找台号", "find your table"),
                    );
                })
                .newline();
                // Phone first: each row a card on a narrow screen (see
                // `html_body_markup_stacked`).
                body.element("main", &[], |m| {
                    html_body_markup_stacked_into(m, &doc.report);
                })
                .newline();
                public::script_tag(body, &up);
            });
            let path = format!("{}.html", doc.stem);
            emit(path.clone(), page);
            listed.push((doc.section, path, doc.label));
        }
    });
    // A knockout pool's bracket as a picture (docs/rules.md §16.5), listed with the pool.
    for g in ranked_pools(event, rules).filter(|g| only.is_none_or(|o| o == &g.id)) {
        if rules.format_of(&g.id).plays_knockout() {
            let path = format!("{}/bracket.svg", g.id.as_str());
            emit(path.clone(), super::bracket_svg(event, rules, &g.id, lang));
            let label = lang.pick("淘汰赛对阵图", "Knockout bracket").to_string();
            let at = listed
                .iter()
                .rposition(|(section, _, _)| section.as_deref() == Some(g.name.as_str()))
                .map_or(listed.len(), |i| i + 1);
            listed.insert(at, (Some(g.name.clone()), path, label));
        }
    }
    let mut index = Markup::new();
    index.text_element("h1", &[], &rules.event.name).newline();
    let mut main = Markup::new();
    // First what a player in the hall looks for: the table, then this round's pairings.
    main.element("p", &[("class", "quick")], |m| {
        m.element("a", &[("href", public::FIND_FILE)], |m| {
            m.text_element("strong", &[], lang.pick("查找台号", "Find your table"));
        });
        for (section, path, _) in &listed {
            let newest = listed
                .iter()
                .rfind(|(s, p, _)| s == section && p.contains("/round-"))
                .map(|(_, p, _)| p);
            if newest == Some(path) {
                let label = format!(
                    "{} {}",
                    section.as_deref().unwrap_or(""),
                    lang.pick("本轮对阵", "current round")
                );
                m.text(" · ");
                m.text_element("a", &[("href", path)], label.trim());
            }
        }
    })
    .newline();
    if let Some(d) = rules.event.start_date {
        let end = rules
            .event
            .end_date
            .map(|e| format!(" – {e}"))
            .unwrap_or_default();
        main.text_element("p", &[("class", "sub")], &format!("{d}{end}"))
            .newline();
    }
    for line in [&rules.event.venue, &rules.event.organiser]
        .into_iter()
        .flatten()
    {
        main.text_element("p", &[("class", "sub")], line).newline();
    }
    // One heading (the pool; none for the event-wide pages) and list per run of documents.
    for run in listed.chunk_by(|a, b| a.0 == b.0) {
        if let Some(name) = &run[0].0 {
            main.text_element("h2", &[], name).newline();
        }
        main.element("ul", &[], |m| {
            m.newline();
            for (_, path, label) in run {
                m.element("li", &[], |m| {
                    m.text_element("a", &[("href", path)], label);
                })
                .newline();
            }
        })
        .newline();
    }
    index
        .element("main", &[], |m| {
            m.append(&main);
        })
        .newline();
    public::script_tag(&mut index, "");
    emit(
        "index.html".into(),
        html_page_of(lang.code(), &rules.event.name, &index),
    );
    let entries = public::find_entries(event, rules, only);
    emit(
        public::FIND_FILE.into(),
        public::find_page(rules, lang, &entries, None),
    );
    emit(public::SCRIPT_FILE.into(), public::SCRIPT.into());
}

/// The same documents as the sheets of one workbook (`export --format xlsx`): `(sheet
/// name, report)` in index order, handed to `consume` as they are made (see
/// [`streamed_documents`]); a report of several tables (the prize sheet) becomes one sheet
/// per table when rendered. A workbook never shows [`Report::json`], so `export` passes
/// [`Json::LeaveOut`].
pub fn workbook_reports<R>(
    event: &Event,
    rules: &Rulebook,
    only: Option<&GroupId>,
    lang: Lang,
    json: Json,
    consume: impl FnOnce(&mut dyn Iterator<Item = (String, Report)>) -> R,
) -> R {
    streamed_documents(event, rules, only, lang, json, |docs| {
        consume(&mut docs.map(|doc| {
            let name = match &doc.section {
                Some(group) => format!("{group} {}", doc.label),
                None => doc.label.clone(),
            };
            (name, doc.report)
        }))
    })
}

/// The same documents as CSV files (one per document), for spreadsheets: `encode` turns
/// each file's text into its bytes as the next document is made.
pub fn csv_files<E>(
    event: &Event,
    rules: &Rulebook,
    only: Option<&GroupId>,
    lang: Lang,
    encode: impl Fn(&str, String) -> Result<Vec<u8>, E>,
) -> Result<Vec<(String, Vec<u8>)>, E> {
    // Files are CSV: no report's JSON value is read.
    let mut files = streamed_documents(event, rules, only, lang, Json::LeaveOut, |docs| {
        docs.map(|doc| {
            let name = format!("{}.csv", doc.stem);
            let bytes = encode(&name, doc.report.render(Format::Csv))?;
            Ok((name, bytes))
        })
        .collect::<Result<Vec<_>, E>>()
    })?;
    files.sort();
    Ok(files)
}

/// The whole event as one JSON document: players (the published fields of the player
/// list, see `views::players`; everything with `show_private`), penalties and playoffs
/// (their free text only with `show_private`), rounds and games, standings with every tiebreak value, team ranking
/// and the prize sheet. The schema is documented in docs/reference.md.
///
/// Built as a value: for a large event, [`write_event_json`] writes the same text without
/// holding the whole document in memory.
pub fn event_json(
    event: &Event,
    rules: &Rulebook,
    only: Option<&GroupId>,
    show_private: bool,
) -> serde_json::Value {
    let doc = EventJson {
        event,
        rules,
        only,
        show_private,
        standings: Later::ready(all_standings(event, rules)),
    };
    serde_json::to_value(doc).unwrap_or_default()
}

/// [`event_json`] pretty-printed into `out`, followed by a newline, piece by piece as it
/// is made: the same text as `serde_json::to_string_pretty(&event_json(..))`, without the
/// value (for 100,000 players it took 3 GB and most of the time).
pub fn write_event_json<W: std::io::Write>(
    event: &Event,
    rules: &Rulebook,
    only: Option<&GroupId>,
    show_private: bool,
    mut out: W,
) -> serde_json::Result<()> {
    // The standings are worked out on a second thread while the rounds before them are
    // written (100,000 players: standings ~0.8 s of a 4.3–5.1 s export).
    std::thread::scope(|scope| {
        let doc = EventJson {
            event,
            rules,
            only,
            show_private,
            standings: Later::spawn(scope, || all_standings(event, rules)),
        };
        serde_json::to_writer_pretty(&mut out, &doc)?;
        out.write_all(b"\n").map_err(serde_json::Error::io)
    })
}

/// The whole-event document (see [`event_json`]), serialised as it is written.
struct EventJson<'a, 's> {
    event: &'a Event,
    rules: &'a Rulebook,
    only: Option<&'a GroupId>,
    show_private: bool,
    standings: Later<'s, BTreeMap<GroupId, Standings>>,
}

/// A value worked out on another thread of a [`std::thread::scope`] (or at hand
/// already), waited for where it is first needed. A panic there is raised again here.
struct Later<'s, T> {
    /// The thread still to be joined, if any.
    handle: std::cell::RefCell<Option<std::thread::ScopedJoinHandle<'s, T>>>,
    value: std::cell::OnceCell<T>,
}

impl<'s, T: Send + 's> Later<'s, T> {
    fn ready(value: T) -> Self {
        Later {
            handle: std::cell::RefCell::new(None),
            value: std::cell::OnceCell::from(value),
        }
    }

    /// `work` on a thread of `scope` (done here and now if no thread can be made).
    fn spawn<'e>(
        scope: &'s std::thread::Scope<'s, 'e>,
        work: impl FnOnce() -> T + Send + 's,
    ) -> Self {
        match crate::threads::spawn(scope, work) {
            Ok(handle) => Later {
                handle: std::cell::RefCell::new(Some(handle)),
                value: std::cell::OnceCell::new(),
            },
            Err(work) => Later::ready(work()),
        }
    }

    fn get(&self) -> &T {
        self.value.get_or_init(|| {
            let handle = self.handle.borrow_mut().take();
            crate::threads::join(handle.expect("a value or a thread"))
        })
    }
}

impl Serialize for EventJson<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (event, rules, only, show_private) =
            (self.event, self.rules, self.only, self.show_private);
        let lang = rules.event.language;
        // Keys in alphabetical order, as the `serde_json::Value` this document used to be
        // built as prints them (see `SortedKeys`), here and in every object inside.
        let mut doc = serializer.serialize_struct("EventJson", 9)?;
        doc.serialize_field("event", &SortedKeys(&rules.event))?;
        // A team competition's pools are teams' (under `team_competition` below): it has
        // no individual group to list.
        let individual = rules.team_competition.is_none();
        let groups = Streamed(|| {
            // The pools with standings, picked before their standings are ready.
            ranked_pools(event, rules)
                .filter(|_| individual)
                .filter(|g| only.is_none_or(|o| o == &g.id))
                .map(|g| {
                    let state = event.group(&g.id);
                    let rounds = state.map_or(&[][..], |s| &s.rounds[..]);
                    GroupJson {
                        id: &g.id,
                        name: &g.name,
                        relax_given: SortedKeys(state.map_or(&[][..], |s| &s.relax_given[..])),
                        relaxed: SortedKeys(state.map_or(&[][..], |s| &s.relaxed[..])),
                        rounds: Streamed(move || rounds.iter().map(super::sorted::SortedRound)),
                        seed: event.group(&g.id).and_then(|s| s.seed),
                        // Asked for only once the rounds are written.
                        standings: Deferred(move || {
                            self.standings
                                .get()
                                .get(&g.id)
                                .map(|st| super::standings::standings_json(event, rules, st, lang))
                        }),
                    }
                })
        });
        doc.serialize_field("groups", &groups)?;
        // Free text an arbiter typed (a penalty's reason, a playoff's note) may hold
        // anything: it is left out unless private output was asked for.
        let without = |value: serde_json::Value, key: &str| {
            let mut value = value;
            if let (false, serde_json::Value::Object(map)) = (show_private, &mut value) {
                map.remove(key);
            }
            SortedKeys(value)
        };
        let penalties = Streamed(|| {
            event
                .penalties
                .iter()
                .map(|p| without(serde_json::to_value(p).unwrap_or_default(), "reason"))
        });
        doc.serialize_field("penalties", &penalties)?;
        let players = Streamed(|| {
            event
                .players
                .iter()
                .filter(|p| super::players::in_group(p, only))
                .map(|p| super::players::player_json(rules, p, lang, show_private))
        });
        doc.serialize_field("players", &players)?;
        let playoffs = Streamed(|| {
            event
                .playoffs
                .iter()
                .map(|p| without(serde_json::to_value(p).unwrap_or_default(), "note"))
        });
        doc.serialize_field("playoffs", &playoffs)?;
        let (sheet, teams) = sheet_from(event, rules, self.standings.get());
        doc.serialize_field("prizes", &SortedKeys(&sheet))?;
        doc.serialize_field("schema", "qiwang-event-export/1")?;
        // A team competition (docs/rules.md §17): each pool's rounds, every match with its
        // boards, and the team standings. Absent from an individual event's document.
        if rules.team_competition.is_some() {
            let pools: Vec<serde_json::Value> = rules
                .pools()
                .filter(|g| only.is_none_or(|o| o == &g.id))
                .filter_map(|g| {
                    super::team::team_pool_json(event, rules, &g.id, lang, show_private)
                })
                .collect();
            doc.serialize_field("team_competition", &SortedKeys(pools))?;
        }
        doc.serialize_field("teams", &SortedKeys(&teams))?;
        doc.end()
    }
}

/// One pool of [`EventJson`], fields in alphabetical order.
#[derive(Serialize)]
struct GroupJson<'a, R, S> {
    id: &'a GroupId,
    name: &'a str,
    /// The rounds paired with `pair --relax` and the rules each was given.
    relax_given: SortedKeys<&'a [crate::model::RelaxGiven]>,
    /// Each hard rule relaxed for want of a legal pairing, table by table (docs/rules.md
    /// §2.5).
    relaxed: SortedKeys<&'a [crate::model::Relaxation]>,
    rounds: R,
    seed: Option<u64>,
    standings: S,
}

#[cfg(test)]
mod tests;
