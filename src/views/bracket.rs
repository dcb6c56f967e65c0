//! A knockout pool's bracket as a table (one row per match: the bracket round, the
//! players, every game, the score and who goes through) and as a picture, an SVG page of
//! A4 landscape with one column per bracket round (docs/rules.md §16.5).

use super::standings::subtitle;
use crate::formats::knockout::bracket_size;
use crate::model::{Colour, Event, GroupId, Outcome, PlayerId};
use crate::pairing::{game_name, round_name};
use crate::report::{Json, Markup, Report, Section};
use crate::rulebook::{Lang, Rulebook};
use crate::schedule::bracket::{self, Bracket, Match};

/// A player as the bracket names them: `张三(3)`, name and seed.
fn label(event: &Event, id: PlayerId) -> String {
    event.player_label(id)
}

/// One game from A's side: `1` win, `=` draw, `0` loss, `+`/`-` forfeit, blank pending.
fn game_mark(m: &Match, g: &bracket::MatchGame) -> String {
    let Some(outcome) = g.outcome else {
        return String::new();
    };
    let a = if g.red == m.a {
        Colour::Red
    } else {
        Colour::Black
    };
    let played = outcome.is_played();
    match (outcome.winner(), outcome) {
        (Some(w), _) if w == a && played => "1".into(),
        (Some(w), _) if w == a => "+".into(),
        (Some(_), _) if played => "0".into(),
        (Some(_), _) => "-".into(),
        (None, Outcome::DoubleForfeit) => "--".into(),
        (None, _) => "=".into(),
    }
}

/// The bracket of a knockout pool as a table.
pub(super) fn bracket_report(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    after_round: u32,
    lang: Lang,
    json: Json,
) -> Report {
    let b = bracket::build(event, rules, group);
    let mut report = Report::new(format!(
        "{} — {}",
        rules.event.name,
        lang.pick("淘汰赛对阵表", "knockout bracket")
    ));
    report.lang = lang.code().into();
    report
        .subtitle
        .push(subtitle(event, rules, group, after_round, lang));
    report.subtitle.push(
        lang.pick(
            "每局从甲方看：1 胜、= 和、0 负、+ 对方弃权、- 弃权；加赛的和棋判黑胜局按黑胜计",
            "each game from A's side: 1 win, = draw, 0 loss, + forfeit win, - forfeit loss; a deciding game's draw counts as black's win",
        )
        .into(),
    );
    let cols = vec![
        lang.pick("轮次", "round").to_string(),
        lang.pick("台号", "table").into(),
        lang.pick("甲方", "A").into(),
        lang.pick("乙方", "B").into(),
        lang.pick("各局", "games").into(),
        lang.pick("加赛", "tiebreaks").into(),
        lang.pick("晋级", "through").into(),
    ];
    let mut s = Section::new("", cols).right(&[1]);
    for round in &b.rounds {
        let name = round_name(round.players, lang);
        for m in &round.matches {
            let k = rules.format_of(group).knockout.games as usize;
            let marks: Vec<String> = m.games.iter().map(|g| game_mark(m, g)).collect();
            let regular = marks.iter().take(k).cloned().collect::<Vec<_>>().join(" ");
            let tiebreak = m
                .games
                .iter()
                .skip(k)
                .map(|g| format!("{} {}", game_name(g.kind, lang), game_mark(m, g)))
                .collect::<Vec<_>>()
                .join(lang.pick("；", "; "));
            let through = match (m.winner, m.by_lot) {
                (Some(w), true) => {
                    format!("{}{}", label(event, w), lang.pick("（抽签）", " (lot)"))
                }
                (Some(w), false) => label(event, w),
                (None, _) => String::new(),
            };
            let round_label = match (m.place, m.classify) {
                (Some(3), _) => lang.pick("三四名决赛", "third place").to_string(),
                (Some(5), _) => lang.pick("五六名决赛", "fifth place").to_string(),
                (Some(_), _) => lang.pick("七八名决赛", "seventh place").to_string(),
                (None, true) => lang.pick("五至八名排位赛", "places 5–8").to_string(),
                (None, false) => name.clone(),
            };
            s.push(vec![
                round_label,
                // Where its newest game was paired (the hall may have moved it on past
                // another group's tables), else the match's own number.
                match m.games.last().map_or(m.table, |g| g.table) {
                    0 => String::new(),
                    t => t.to_string(),
                },
                label(event, m.a),
                m.b.map_or_else(|| lang.pick("轮空", "bye").to_string(), |p| label(event, p)),
                regular,
                tiebreak,
                through,
            ]);
        }
    }
    report.sections.push(s);
    if json.wanted() {
        report.json = serde_json::json!({
            "group": group,
            "seeds": b.seeds,
            "champion": b.champion(),
            "places": bracket::places(&b)
                .into_iter()
                .map(|(p, place, shared)| serde_json::json!({"player": p, "place": place, "shared": shared}))
                .collect::<Vec<_>>(),
        });
    }
    report
}

/// The bracket as an SVG page, A4 landscape (297 × 210 mm): one column per bracket round,
/// each match a box with both players (the one going through in bold), a line on to the
/// next round. Built with the escaping [`Markup`] builder, so no name can open an element.
pub fn bracket_svg(event: &Event, rules: &Rulebook, group: &GroupId, lang: Lang) -> String {
    let b: Bracket = bracket::build(event, rules, group);
    let n = u32::try_from(b.seeds.len()).unwrap_or(0);
    let columns = bracket_size(n).trailing_zeros().max(1) as usize;
    let (w, h) = (297.0f64, 210.0f64);
    let top = 24.0;
    let col_w = (w - 20.0) / columns as f64;
    let f = |v: f64| format!("{v:.1}");
    let title = format!(
        "{} — {} {}",
        rules.event.name,
        rules
            .group(group)
            .map_or(group.as_str(), |g| g.name.as_str()),
        lang.pick("淘汰赛对阵图", "knockout bracket")
    );
    let mut m = Markup::new();
    m.element(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg"),
            ("width", "297mm"),
            ("height", "210mm"),
            ("viewBox", "0 0 297 210"),
            ("font-family", "sans-serif"),
        ],
        |m| {
            m.newline();
            m.text_element(
                "text",
                &[
                    ("x", "10"),
                    ("y", "12"),
                    ("font-size", "6"),
                    ("font-weight", "bold"),
                ],
                &title,
            )
            .newline();
            for (c, round) in b.rounds.iter().enumerate() {
                let main: Vec<&Match> = round.matches.iter().filter(|m| m.is_main()).collect();
                let slots = f64::from((bracket_size(n) >> (c + 1)).max(1));
                let slot_h = (h - top - 14.0) / slots;
                let x = 10.0 + c as f64 * col_w;
                m.text_element(
                    "text",
                    &[("x", &f(x)), ("y", &f(top - 4.0)), ("font-size", "4")],
                    &round_name(round.players, lang),
                )
                .newline();
                for (i, mt) in main.iter().enumerate() {
                    let y = top + slot_h * i as f64 + slot_h / 2.0 - 5.0;
                    let bw = col_w - 8.0;
                    m.element(
                        "rect",
                        &[
                            ("x", &f(x)),
                            ("y", &f(y)),
                            ("width", &f(bw)),
                            ("height", "10"),
                            ("fill", "none"),
                            ("stroke", "#333"),
                            ("stroke-width", "0.3"),
                        ],
                        |_| {},
                    )
                    .newline();
                    for (j, p) in [Some(mt.a), mt.b].iter().enumerate() {
                        let text = match p {
                            Some(p) => label(event, *p),
                            None => lang.pick("轮空", "bye").to_string(),
                        };
                        let weight = if p.is_some() && mt.winner == *p {
                            "bold"
                        } else {
                            "normal"
                        };
                        m.text_element(
                            "text",
                            &[
                                ("x", &f(x + 1.5)),
                                ("y", &f(y + 4.0 + 4.5 * j as f64)),
                                ("font-size", "3.2"),
                                ("font-weight", weight),
                            ],
                            &text,
                        )
                        .newline();
                    }
                    if c + 1 < columns {
                        let (x2, ym) = (x + bw, y + 5.0);
                        m.element(
                            "line",
                            &[
                                ("x1", &f(x2)),
                                ("y1", &f(ym)),
                                ("x2", &f(x2 + 8.0)),
                                ("y2", &f(ym)),
                                ("stroke", "#333"),
                                ("stroke-width", "0.3"),
                            ],
                            |_| {},
                        )
                        .newline();
                    }
                }
                if let Some(third) = round.matches.iter().find(|m| m.place == Some(3)) {
                    let names: Vec<String> = [Some(third.a), third.b]
                        .iter()
                        .flatten()
                        .map(|p| label(event, *p))
                        .collect();
                    let text = format!(
                        "{}{}{}",
                        lang.pick("三四名决赛", "third place"),
                        lang.pick("：", ": "),
                        names.join(" — ")
                    );
                    m.text_element(
                        "text",
                        &[("x", &f(x)), ("y", &f(h - 16.0)), ("font-size", "3.2")],
                        &text,
                    )
                    .newline();
                }
            }
            if let Some(champion) = b.champion() {
                let text = format!(
                    "{}{}{}",
                    lang.pick("冠军", "champion"),
                    lang.pick("：", ": "),
                    label(event, champion)
                );
                m.text_element(
                    "text",
                    &[
                        ("x", "10"),
                        ("y", &f(h - 6.0)),
                        ("font-size", "4.5"),
                        ("font-weight", "bold"),
                    ],
                    &text,
                )
                .newline();
            }
        },
    );
    m.newline();
    m.into_string()
}
