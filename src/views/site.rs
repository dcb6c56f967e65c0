//! The static site for the notice board or a WeChat link, and the whole-event JSON.
//!
//! Pure: returns (relative path, file content) pairs; the caller writes them. Every value
//! goes through the HTML renderer's escaping, and the player list masks ID and phone
//! numbers (the site is public).

use super::prizes::compute_sheet;
use crate::model::Event;
use crate::report::{Report, html_escape, html_page};
use crate::rulebook::{Lang, Rulebook};
use crate::standings::compute_standings;
use serde_json::json;

/// A page with a navigation bar back to the index.
fn page(report: &Report, lang: Lang, depth: usize) -> String {
    let up = "../".repeat(depth);
    let nav = format!(
        "<nav><a href=\"{up}index.html\">{}</a></nav>\n",
        html_escape(lang.pick("返回首页", "index"))
    );
    let body = crate::report::html_body(report);
    html_page(lang.code(), &report.title, &(nav + &body))
}

/// Every page of the site.
pub fn site(event: &Event, rules: &Rulebook, lang: Lang) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut index = String::new();
    index.push_str(&format!("<h1>{}</h1>\n", html_escape(&rules.event.name)));
    if let Some(d) = rules.event.start_date {
        let end = rules
            .event
            .end_date
            .map(|e| format!(" – {e}"))
            .unwrap_or_default();
        index.push_str(&format!(
            "<p class=\"sub\">{}{}</p>\n",
            d,
            html_escape(&end)
        ));
    }
    for line in [&rules.event.venue, &rules.event.organiser]
        .into_iter()
        .flatten()
    {
        index.push_str(&format!("<p class=\"sub\">{}</p>\n", html_escape(line)));
    }
    for g in rules
        .pools()
        .filter(|g| event.players_in(&g.id).next().is_some())
    {
        let dir = g.id.as_str();
        index.push_str(&format!("<h2>{}</h2>\n<ul>\n", html_escape(&g.name)));
        let rounds = event
            .group(&g.id)
            .map(|s| s.rounds.len() as u32)
            .unwrap_or(0);
        for r in 1..=rounds {
            let report = super::pairing_sheet(event, rules, &g.id, r, lang);
            files.push((format!("{dir}/round-{r}.html"), page(&report, lang, 1)));
            let label = match lang {
                Lang::Zh => format!("第{r}轮对阵与成绩"),
                Lang::En => format!("Round {r} pairings and results"),
            };
            index.push_str(&format!(
                "<li><a href=\"{dir}/round-{r}.html\">{}</a></li>\n",
                html_escape(&label)
            ));
        }
        let st = compute_standings(event, rules, &g.id, None);
        files.push((
            format!("{dir}/standings.html"),
            page(&super::standings(event, rules, &st, lang), lang, 1),
        ));
        files.push((
            format!("{dir}/crosstable.html"),
            page(&super::crosstable(event, rules, &g.id, None, lang), lang, 1),
        ));
        files.push((
            format!("{dir}/players.html"),
            page(
                &super::players(event, rules, Some(&g.id), lang, false),
                lang,
                1,
            ),
        ));
        for (file, zh, en) in [
            ("standings.html", "成绩排名", "Standings"),
            ("crosstable.html", "成绩交叉表", "Crosstable"),
            ("players.html", "参赛名单", "Players"),
        ] {
            index.push_str(&format!(
                "<li><a href=\"{dir}/{file}\">{}</a></li>\n",
                html_escape(lang.pick(zh, en))
            ));
        }
        index.push_str("</ul>\n");
    }
    let (_, rankings) = compute_sheet(event, rules);
    if !rankings.is_empty() {
        files.push((
            "teams.html".into(),
            page(&super::teams_report(rules, &rankings, lang), lang, 0),
        ));
        index.push_str(&format!(
            "<p><a href=\"teams.html\">{}</a></p>\n",
            html_escape(lang.pick("团体排名", "Team ranking"))
        ));
    }
    files.push((
        "prizes.html".into(),
        page(&super::prize_sheet(event, rules, lang), lang, 0),
    ));
    index.push_str(&format!(
        "<p><a href=\"prizes.html\">{}</a></p>\n",
        html_escape(lang.pick("获奖名单", "Prize sheet"))
    ));
    files.push((
        "index.html".into(),
        html_page(lang.code(), &rules.event.name, &index),
    ));
    files.sort();
    files
}

/// The whole event as one JSON document: players (personal numbers masked unless
/// `show_private`), rounds and games, standings with every tiebreak value, team ranking
/// and the prize sheet. The schema is documented in the README.
pub fn event_json(event: &Event, rules: &Rulebook, show_private: bool) -> serde_json::Value {
    let lang = rules.event.language;
    let players = super::players(event, rules, None, lang, show_private).json["players"].clone();
    let mut groups = Vec::new();
    for g in rules
        .pools()
        .filter(|g| event.players_in(&g.id).next().is_some())
    {
        let rounds: Vec<_> = event
            .group(&g.id)
            .map(|s| s.rounds.clone())
            .unwrap_or_default();
        let st = compute_standings(event, rules, &g.id, None);
        groups.push(json!({
            "id": g.id,
            "name": g.name,
            "seed": event.group(&g.id).and_then(|s| s.seed),
            "rounds": rounds,
            "standings": super::standings(event, rules, &st, lang).json,
        }));
    }
    let (sheet, teams) = compute_sheet(event, rules);
    json!({
        "schema": "qiwang-event-export/1",
        "event": rules.event,
        "players": players,
        "groups": groups,
        "penalties": event.penalties,
        "playoffs": event.playoffs,
        "teams": teams,
        "prizes": sheet,
    })
}
