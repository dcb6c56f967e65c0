//! One game as the arbiter's pages show it: finding it by group, round and table, its
//! title, players and hidden fields on a page, and the foul counts its form sends.

use super::*;

/// One game of the event as the arbiter's pages show it.
pub(super) struct Game {
    pub(super) group: GroupId,
    pub(super) group_name: String,
    /// The pool's hall and a space when it has a hall of its own (`二楼 `), else empty.
    pub(super) hall: String,
    pub(super) round: u32,
    pub(super) table: u32,
    pub(super) red: PlayerId,
    pub(super) black: PlayerId,
    pub(super) red_name: String,
    pub(super) black_name: String,
    pub(super) result: Option<GameResult>,
}

/// The game at `table` of pool `group`'s newest round (or round `round`).
pub(super) fn find_game(
    event: &Event,
    rules: &Rulebook,
    group: &str,
    round: Option<u32>,
    table: u32,
) -> Option<Game> {
    let id = GroupId::new(group);
    let state = event.group(&id)?;
    let r = match round {
        Some(n) => state.rounds.iter().find(|r| r.number == n)?,
        None => state.rounds.last()?,
    };
    r.pairings.iter().find_map(|p| match p {
        Pairing::Game {
            table: t,
            red,
            black,
            result,
        } if *t == table => Some(Game {
            group_name: crate::views::group_name(rules, &id),
            hall: crate::views::hall_prefix(rules, &id),
            group: id.clone(),
            round: r.number,
            table,
            red: *red,
            black: *black,
            red_name: crate::views::name_of(event, *red),
            black_name: crate::views::name_of(event, *black),
            result: *result,
        }),
        _ => None,
    })
}

/// What the form says the page showed: the result's text, or `-` for none.
pub(super) fn shown(result: Option<GameResult>) -> String {
    result.map_or_else(|| "-".to_string(), |r| r.entry_text_in(Lang::Zh))
}

/// The heading of a game: round, table, group.
pub(super) fn game_title(lang: Lang, g: &Game) -> String {
    bi!(
        lang,
        zh("{} 第{}轮 {}第{}台", g.group_name, g.round, g.hall, g.table),
        en(
            "{} round {} {}table {}",
            g.group_name,
            g.round,
            g.hall,
            g.table
        )
    )
}

/// Both players with their colours.
pub(super) fn players(m: &mut Markup, lang: Lang, g: &Game) {
    m.element("p", &[("class", "players")], |m| {
        m.text(lang.pick("红方：", "Red: "));
        m.text_element("strong", &[("id", "red")], &g.red_name);
        m.void_element("br", &[]);
        m.text(lang.pick("黑方：", "Black: "));
        m.text_element("strong", &[("id", "black")], &g.black_name);
    });
}

/// The hidden fields naming a game and what the page showed of it.
pub(super) fn game_fields(m: &mut Markup, csrf: &str, g: &Game, seen: &str) {
    for (name, value) in [
        ("csrf", csrf.to_string()),
        ("g", g.group.to_string()),
        ("round", g.round.to_string()),
        ("t", g.table.to_string()),
        ("red", g.red.to_string()),
        ("black", g.black.to_string()),
        ("seen", seen.to_string()),
    ] {
        hidden(m, name, &value);
    }
}

pub(super) fn unknown_table(lang: Lang) -> Response {
    (
        StatusCode::NOT_FOUND,
        page(
            lang,
            lang.pick("没有这一台", "No such table"),
            Markup::new(),
        ),
    )
        .into_response()
}

/// The address of a table's page.
pub(super) fn table_href(group: &GroupId, table: u32) -> String {
    format!("/arbiter/table?g={}&t={table}", encode(group.as_str()))
}

/// Percent-encodes a query value (group ids are plain, but nothing is assumed).
pub(super) fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The result as an arbiter reads it (红胜/1:0 → 红胜 犯规 1:0).
pub(super) fn entry_shown(text: &str, lang: Lang) -> String {
    match results::parse_result_args(&["1".to_string(), text.to_string()]) {
        Ok(entries) => entries.first().map_or_else(
            || text.to_string(),
            |e| {
                let mut r = GameResult::new(e.outcome);
                r.red_fouls = e.red_fouls;
                r.black_fouls = e.black_fouls;
                r.late = e.late;
                r.entry_text_in(lang)
            },
        ),
        Err(_) => text.to_string(),
    }
}

/// The most fouls a side can be entered with (the form's `max`).
pub(super) const MAX_FOULS: u32 = 99;

/// The foul counts of a form (`rf`, `bf`; an empty field is no fouls), or its refusal
/// when one is not a whole number from 0 to [`MAX_FOULS`] (`-1`, `x`, `1.5`): 400 with
/// what is wrong (the value as sent, at most 64 characters of it) and the way back to
/// the game, never a count read as 0.
pub(super) fn fouls(
    form: &HashMap<String, String>,
    g: &Game,
    lang: Lang,
) -> Result<(u32, u32), Box<Response>> {
    let count = |name, zh, en| {
        let value = field(form, name).trim();
        match value.parse::<u32>() {
            _ if value.is_empty() => Ok(0),
            Ok(n) if n <= MAX_FOULS => Ok(n),
            _ => Err((lang.pick(zh, en), value)),
        }
    };
    match (count("rf", "红方", "red"), count("bf", "黑方", "black")) {
        (Ok(rf), Ok(bf)) => Ok((rf, bf)),
        (Err((side, value)), _) | (_, Err((side, value))) => {
            Err(Box::new(bad_fouls(side, value, g, lang)))
        }
    }
}

/// The refusal of a foul count `value` for `side` ([`fouls`]).
fn bad_fouls(side: &str, value: &str, g: &Game, lang: Lang) -> Response {
    let value: String = value.chars().take(64).collect();
    let mut body = Markup::new();
    body.text_element(
        "p",
        &[("class", "note"), ("id", "bad-fouls")],
        &bi!(
            lang,
            zh("没有录入：{side}犯规次数 `{value}` 不是 0 到 {MAX_FOULS} 的整数。请返回修改。"),
            en("Nothing entered: {side}'s foul count `{value}` is not a whole number from 0 to {MAX_FOULS}. Go back and correct it.")
        ),
    );
    body.element("p", &[], |m| {
        m.text_element(
            "a",
            &[("href", &table_href(&g.group, g.table))],
            lang.pick("返回这一台", "Back to the table"),
        );
    });
    (
        StatusCode::BAD_REQUEST,
        page(lang, &game_title(lang, g), body),
    )
        .into_response()
}
