//! Result entry for arbiters (`/arbiter/…`): a login by a one-time token (`tokens.rs`),
//! the tables of the current rounds the token may enter, a page per table with both
//! players and their colours and a button per result of the rulebook's tokens (红胜, 和,
//! 黑胜, the forfeits and late arrivals, with fouls), a confirmation naming the players,
//! and then the same library calls as `qiwang result` (`results::parse_result_args`,
//! `results::record_results`, `Action::results_change`) in the same transaction, so the
//! validation, the audit line (its user names the token), `log` and `undo` are the CLI's.
//! `undo.rs` lets a token take back the result it entered last (the library's undo);
//! `game.rs` finds and shows one game.
//!
//! Every write needs the session cookie (`HttpOnly; SameSite=Strict`) and the session's
//! CSRF token in the form. Two people entering one table: the form carries the result the
//! page showed, and a write whose table has another result by then is refused with that
//! result shown, to be confirmed again as a change.

mod game;
mod undo;

use super::http::{Shared, html};
use super::internal;
use super::tokens::{Refused, Session};
use crate::i18n::bi;
use crate::i18n::{Lang, Localize};
use crate::model::{Event, GameResult, GroupId, Pairing, PlayerId};
use crate::report::{Markup, html_page_with_head};
use crate::results::{self, ResultError};
use crate::rulebook::Rulebook;
use crate::store::action::Action;
use crate::store::{CommandInfo, TxError};
use axum::Router;
use axum::extract::{ConnectInfo, Form, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use game::{
    Game, entry_shown, find_game, game_fields, game_title, players, shown, table_href,
    unknown_table,
};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

/// The session cookie's name.
const COOKIE: &str = "qiwang_arbiter";

/// The results an arbiter can enter: the value sent, and the button's label.
const OUTCOMES: [(&str, &str, &str); 8] = [
    ("r", "红胜", "red wins"),
    ("=", "和", "draw"),
    ("b", "黑胜", "black wins"),
    ("+-", "黑方弃权（红胜）", "black forfeits"),
    ("-+", "红方弃权（黑胜）", "red forfeits"),
    ("--", "双方弃权（双负）", "both forfeit"),
    ("黑迟到", "黑方迟到判负", "black late"),
    ("红迟到", "红方迟到判负", "red late"),
];

/// The style of the arbiter's pages: buttons and links big enough for a finger on a
/// tablet (a constant, allowed by its hash).
pub(super) const ARBITER_CSS: &str = "\n\
button{font-size:1.15em;padding:.55em .9em;margin:.25em .2em .25em 0}input{font-size:1.1em;padding:.3em}
input[type=number]{width:3.5em}ul.tables{list-style:none;padding:0}ul.tables li{margin:.35em 0}
ul.tables a{display:block;padding:.5em;border:1px solid #888;border-radius:4px;text-decoration:none}
p.players{font-size:1.3em}#recorded,#confirm{font-size:1.2em;font-weight:bold}
";

/// The arbiter's routes.
pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/arbiter", get(home))
        .route("/arbiter/", get(home))
        .route("/arbiter/login", post(login))
        .route("/arbiter/logout", post(logout))
        .route("/arbiter/table", get(table))
        .route("/arbiter/confirm", post(confirm))
        .route("/arbiter/record", post(record))
        .route("/arbiter/undo", get(undo::ask).post(undo::run))
}

/// A page of the arbiter's area.
fn page(lang: Lang, title: &str, body: Markup) -> Response {
    let mut all = Markup::new();
    all.style(ARBITER_CSS).newline();
    all.element("nav", &[], |m| {
        m.text_element(
            "a",
            &[("href", "/arbiter/")],
            lang.pick("裁判录入", "arbiter"),
        );
        m.text_element(
            "a",
            &[("href", "/index.html")],
            lang.pick("赛事网页", "the event"),
        );
    })
    .newline();
    all.text_element("h1", &[], title).newline();
    all.element("main", &[], |m| {
        m.append(&body);
    });
    html(html_page_with_head(
        lang.code(),
        title,
        &Markup::new(),
        &all,
    ))
}

/// The cookie's session value from the request.
fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.to_string())
}

/// The request's open session, if any. It reads the token file (a revoked token ends its
/// sessions), so on a blocking thread, never on the runtime's; a panic there is the 500
/// answer (`internal.rs`), not "no session".
async fn session(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
) -> Result<Option<(String, Session)>, Box<Response>> {
    let Some(id) = cookie(headers) else {
        return Ok(None);
    };
    let shared = shared.clone();
    internal::blocking(move || {
        internal::test_panic("session");
        let s = shared.gate.session(shared.store.dir(), &id)?;
        Some((id, s))
    })
    .await
}

/// The request's session, or the login page to answer with instead (the pages that show
/// something only to a logged-in arbiter).
async fn session_or_login(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    lang: Lang,
) -> Result<Session, Box<Response>> {
    match session(shared, headers).await? {
        Some((_, s)) => Ok(s),
        None => Err(Box::new(login_response(lang, None))),
    }
}

/// A hidden field of a form.
fn hidden(m: &mut Markup, name: &str, value: &str) {
    m.void_element(
        "input",
        &[("type", "hidden"), ("name", name), ("value", value)],
    );
}

/// The link back to the list of tables.
fn all_tables(m: &mut Markup, lang: Lang) {
    m.text_element(
        "a",
        &[("href", "/arbiter/")],
        lang.pick("全部台次", "All tables"),
    );
}

/// A form's field.
fn field<'a>(form: &'a HashMap<String, String>, name: &str) -> &'a str {
    form.get(name).map_or("", String::as_str)
}

/// A refused write: 403 with the reason.
fn forbidden(lang: Lang, zh: &str, en: &str) -> Response {
    let mut body = Markup::new();
    body.text_element("p", &[("class", "note")], lang.pick(zh, en));
    body.element("p", &[], |m| {
        m.text_element(
            "a",
            &[("href", "/arbiter/")],
            lang.pick("重新登录", "log in again"),
        );
    });
    (
        StatusCode::FORBIDDEN,
        page(lang, lang.pick("不能录入", "Not allowed"), body),
    )
        .into_response()
}

/// A table outside the session's range.
fn not_your_table(lang: Lang) -> Response {
    forbidden(
        lang,
        "这个口令不能录入这一台。",
        "This token may not enter this table.",
    )
}

/// The checks of every write: a session, and its CSRF token in the form.
async fn writer(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    form: &HashMap<String, String>,
) -> Result<Session, Box<Response>> {
    let lang = shared.pages.current().lang;
    let Some((_, s)) = session(shared, headers).await? else {
        return Err(Box::new(forbidden(
            lang,
            "请先用裁判口令登录。",
            "Log in with an arbiter's token first.",
        )));
    };
    let sent = field(form, "csrf");
    if !super::tokens::equal_in_constant_time(sent.as_bytes(), s.csrf.as_bytes()) {
        return Err(Box::new(forbidden(
            lang,
            "表单已失效，请从录入页面重新提交。",
            "The form has expired; send it again from the entry page.",
        )));
    }
    Ok(s)
}

/// The login page, with why the last attempt was refused.
fn login_response(lang: Lang, problem: Option<&str>) -> Response {
    page(
        lang,
        lang.pick("裁判登录", "Arbiter login"),
        login_page(lang, problem),
    )
}

/// The login form.
fn login_page(lang: Lang, problem: Option<&str>) -> Markup {
    let mut body = Markup::new();
    if let Some(p) = problem {
        body.text_element("p", &[("class", "note"), ("id", "problem")], p)
            .newline();
    }
    body.element(
        "form",
        &[("method", "post"), ("action", "/arbiter/login")],
        |m| {
            m.element("label", &[], |m| {
                m.text(lang.pick("裁判口令：", "Arbiter's token: "));
                m.void_element(
                    "input",
                    &[
                        ("name", "token"),
                        ("id", "token"),
                        ("autocomplete", "off"),
                        ("autocapitalize", "characters"),
                        ("required", ""),
                    ],
                );
            });
            m.text(" ");
            m.text_element("button", &[("type", "submit")], lang.pick("登录", "Log in"));
        },
    );
    body
}

async fn home(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let snapshot = shared.pages.current();
    let lang = snapshot.lang;
    let s = match session_or_login(&shared, &headers, lang).await {
        Ok(s) => s,
        Err(login) => return *login,
    };
    let mut body = Markup::new();
    body.text_element(
        "p",
        &[("class", "sub")],
        &format!(
            "{} {}{}",
            lang.pick("口令", "token"),
            s.token,
            match s.tables {
                Some(t) => format!("{}{}–{}", lang.pick("，台号 ", ", tables "), t.from, t.to),
                None => String::new(),
            }
        ),
    );
    if let Some(state) = &snapshot.state {
        let (event, rules) = (&state.0, &state.1);
        for g in crate::lookup::pools_shown(rules, event, crate::lookup::Shown::Players) {
            let Some(round) = event.group(&g.id).and_then(|st| st.rounds.last()) else {
                continue;
            };
            body.text_element(
                "h2",
                &[],
                &format!(
                    "{} {}",
                    g.name,
                    bi!(
                        lang,
                        zh("第{}轮", round.number),
                        en("round {}", round.number)
                    )
                ),
            );
            body.element("ul", &[("class", "tables")], |m| {
                for p in &round.pairings {
                    let Pairing::Game {
                        table,
                        red,
                        black,
                        result,
                    } = p
                    else {
                        continue;
                    };
                    if s.tables.is_some_and(|r| !r.contains(*table)) {
                        continue;
                    }
                    let href = table_href(&g.id, *table);
                    let hall = crate::views::hall_prefix(rules, &g.id);
                    let line = format!(
                        "{} {} — {} {}",
                        bi!(lang, zh("{hall}第{table}台"), en("{hall}table {table}")),
                        crate::views::name_of(event, *red),
                        crate::views::name_of(event, *black),
                        result.map_or_else(
                            || lang.pick("（未录入）", "(no result)").to_string(),
                            |r| format!("[{}]", r.entry_text_in(lang))
                        ),
                    );
                    m.element("li", &[], |m| {
                        m.text_element("a", &[("href", &href)], &line);
                    });
                }
            });
        }
    }
    undo::offer(&mut body, &snapshot, &s, lang);
    body.element(
        "form",
        &[("method", "post"), ("action", "/arbiter/logout")],
        |m| {
            hidden(m, "csrf", &s.csrf);
            m.text_element(
                "button",
                &[("type", "submit")],
                lang.pick("退出", "Log out"),
            );
        },
    );
    page(lang, lang.pick("录入成绩", "Enter results"), body)
}

async fn login(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let lang = shared.pages.current().lang;
    let token: String = field(&form, "token").chars().take(64).collect();
    // The token file is read and written: on a blocking thread.
    let gate = shared.clone();
    let login =
        internal::blocking(move || gate.gate.login(gate.store.dir(), &token, client.ip())).await;
    let login = match login {
        Ok(login) => login,
        Err(failed) => return *failed,
    };
    match login {
        Ok(id) => {
            let mut response = Redirect::to("/arbiter/").into_response();
            let secure = if shared.https { "; Secure" } else { "" };
            let cookie = format!("{COOKIE}={id}; Path=/arbiter; HttpOnly; SameSite=Strict{secure}");
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().insert(header::SET_COOKIE, value);
            }
            response
        }
        Err(Refused::TooMany) => (
            StatusCode::TOO_MANY_REQUESTS,
            login_response(
                lang,
                Some(lang.pick(
                    "错误次数太多，请一分钟后再试。",
                    "Too many failed attempts; try again in a minute.",
                )),
            ),
        )
            .into_response(),
        Err(Refused::Unknown) => (
            StatusCode::UNAUTHORIZED,
            login_response(
                lang,
                Some(lang.pick(
                    "口令不对，或已经用过、已被收回。",
                    "Unknown token, or it was used or revoked.",
                )),
            ),
        )
            .into_response(),
    }
}

async fn logout(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    if let Err(refused) = writer(&shared, &headers, &form).await {
        return *refused;
    }
    if let Some(id) = cookie(&headers) {
        shared.gate.logout(&id);
    }
    let mut response = Redirect::to("/arbiter/").into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static(
            "qiwang_arbiter=; Path=/arbiter; HttpOnly; SameSite=Strict; Max-Age=0",
        ),
    );
    response
}

async fn table(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let snapshot = shared.pages.current();
    let lang = snapshot.lang;
    let s = match session_or_login(&shared, &headers, lang).await {
        Ok(s) => s,
        Err(login) => return *login,
    };
    let t: u32 = field(&query, "t").parse().unwrap_or(0);
    let Some(g) = snapshot
        .state
        .as_ref()
        .and_then(|st| find_game(&st.0, &st.1, field(&query, "g"), None, t))
    else {
        return unknown_table(lang);
    };
    if s.tables.is_some_and(|r| !r.contains(t)) {
        return not_your_table(lang);
    }
    let mut body = Markup::new();
    players(&mut body, lang, &g);
    body.text_element(
        "p",
        &[("id", "current")],
        &match g.result {
            Some(r) => format!(
                "{}{}",
                lang.pick("已录入：", "Entered: "),
                r.entry_text_in(lang)
            ),
            None => lang.pick("尚未录入结果。", "No result yet.").to_string(),
        },
    );
    body.element(
        "form",
        &[("method", "post"), ("action", "/arbiter/confirm")],
        |m| {
            game_fields(m, &s.csrf, &g, &shown(g.result));
            m.element("p", &[], |m| {
                for (name, zh, en) in [
                    ("rf", "红方犯规次数", "red fouls"),
                    ("bf", "黑方犯规次数", "black fouls"),
                ] {
                    m.element("label", &[], |m| {
                        m.text(lang.pick(zh, en));
                        m.text(" ");
                        m.void_element(
                            "input",
                            &[
                                ("name", name),
                                ("type", "number"),
                                ("min", "0"),
                                ("max", &game::MAX_FOULS.to_string()),
                                ("value", "0"),
                            ],
                        );
                    });
                    m.text(" ");
                }
            });
            m.element("p", &[("class", "outcomes")], |m| {
                for (value, zh, en) in OUTCOMES {
                    m.text_element(
                        "button",
                        &[("type", "submit"), ("name", "result"), ("value", value)],
                        lang.pick(zh, en),
                    );
                    m.text(" ");
                }
            });
        },
    );
    page(lang, &game_title(lang, &g), body)
}

/// The result text `result` reads for the form's outcome and the foul counts
/// ([`game::fouls`]) (`r/1:0`), or `None` for an outcome that is not one of the buttons.
fn entry_text(form: &HashMap<String, String>, (rf, bf): (u32, u32)) -> Option<String> {
    let outcome = field(form, "result");
    OUTCOMES.iter().find(|(v, _, _)| *v == outcome)?;
    let late = outcome.contains('迟');
    Some(if rf + bf > 0 && !late {
        format!("{outcome}/{rf}:{bf}")
    } else {
        outcome.to_string()
    })
}

/// What a confirm or record form asks for, checked: the writing session (cookie and
/// CSRF token), the game it names (which that session may enter) and the result text
/// `qiwang result` reads; else the refusal page.
async fn entry(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    form: &HashMap<String, String>,
) -> Result<(Session, Game, String), Box<Response>> {
    let s = writer(shared, headers, form).await?;
    let g = form_game(shared, &s, form)?;
    let lang = shared.pages.current().lang;
    let fouls = game::fouls(form, &g, lang)?;
    let text = entry_text(form, fouls).ok_or_else(|| Box::new(unknown_table(lang)))?;
    Ok((s, g, text))
}

/// The game a form names, from the state as it is now, if the session may enter it.
fn form_game(
    shared: &Shared,
    s: &Session,
    form: &HashMap<String, String>,
) -> Result<Game, Box<Response>> {
    let snapshot = shared.pages.current();
    let lang = snapshot.lang;
    let t: u32 = field(form, "t").parse().unwrap_or(0);
    let round = field(form, "round").parse().ok();
    let game = snapshot
        .state
        .as_ref()
        .and_then(|st| find_game(&st.0, &st.1, field(form, "g"), round, t));
    let Some(g) = game else {
        return Err(Box::new(unknown_table(lang)));
    };
    if s.tables.is_some_and(|r| !r.contains(t)) {
        return Err(Box::new(not_your_table(lang)));
    }
    Ok(g)
}

async fn confirm(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let lang = shared.pages.current().lang;
    let (s, g, text) = match entry(&shared, &headers, &form).await {
        Ok(entry) => entry,
        Err(refused) => return *refused,
    };
    let shown_text = entry_shown(&text, lang);
    let mut body = Markup::new();
    players(&mut body, lang, &g);
    if let Some(r) = g.result {
        body.text_element(
            "p",
            &[("class", "note")],
            &format!(
                "{}{}",
                lang.pick("注意：这一台已录入 ", "Note: this table already has "),
                r.entry_text_in(lang)
            ),
        );
    }
    body.text_element(
        "p",
        &[("id", "confirm")],
        &format!(
            "{}{} — {}：{}",
            lang.pick("确认录入：", "Record: "),
            g.red_name,
            g.black_name,
            shown_text
        ),
    );
    record_form(
        &mut body,
        &s.csrf,
        (&g, field(&form, "seen")),
        &form,
        ("yes", lang.pick("确认", "Confirm")),
    );
    body.element("p", &[], |m| {
        m.text_element(
            "a",
            &[("href", &table_href(&g.group, g.table))],
            lang.pick("返回修改", "Back"),
        );
    });
    page(lang, &game_title(lang, &g), body)
}

/// Why a write through the arbiter's pages was refused inside the transaction.
enum Refusal {
    /// The library refused the result (as `qiwang result` would).
    Result(ResultError),
    /// The table has another result than the page showed: its text now.
    Changed(Option<GameResult>),
    /// The table's players are not the ones shown (the round was paired again).
    Moved,
}

/// The form that records an entry: the game and what the page showed of it, the entry
/// (`result`, `rf`, `bf`) carried from the form before, and its button `(id, label)`.
/// The confirmation and the "changed meanwhile" page post the same form.
fn record_form(
    body: &mut Markup,
    csrf: &str,
    (game, seen): (&Game, &str),
    form: &HashMap<String, String>,
    (id, label): (&str, &str),
) {
    body.element(
        "form",
        &[("method", "post"), ("action", "/arbiter/record")],
        |m| {
            game_fields(m, csrf, game, seen);
            for name in ["result", "rf", "bf"] {
                hidden(m, name, field(form, name));
            }
            m.text_element("button", &[("type", "submit"), ("id", id)], label);
        },
    );
}

/// How long a write's answer waits for the pages to show it.
pub(super) const FRESH_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

async fn record(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let lang = shared.pages.current().lang;
    let (s, g, text) = match entry(&shared, &headers, &form).await {
        Ok(entry) => entry,
        Err(refused) => return *refused,
    };
    let seen = field(&form, "seen").to_string();
    let (red, black) = (
        field(&form, "red").to_string(),
        field(&form, "black").to_string(),
    );
    let store = shared.store.clone();
    let (group, round, table) = (g.group.clone(), g.round, g.table);
    let user = undo::user_of(&s);
    let args = vec![table.to_string(), text.clone()];
    let entered = undo::Entered {
        group: group.to_string(),
        round,
        table,
        text: text.clone(),
    };
    let written = internal::blocking(move || {
        let command = CommandInfo {
            user,
            ..CommandInfo::new("result", entered.command())
        };
        let written = store.transaction(&command, |ev| {
            let rules = Rulebook::from_toml(&ev.rules_toml, "qiwang.json `rules_toml`")
                .map_err(|_| Refusal::Moved)?;
            let now =
                find_game(ev, &rules, group.as_str(), Some(round), table).ok_or(Refusal::Moved)?;
            if now.red.to_string() != red || now.black.to_string() != black {
                return Err(Refusal::Moved);
            }
            if shown(now.result) != seen {
                return Err(Refusal::Changed(now.result));
            }
            let entries = results::parse_result_args(&args).map_err(Refusal::Result)?;
            let report = results::record_results(ev, &rules, &group, Some(round), &entries)
                .map_err(Refusal::Result)?;
            Ok(Action::results_change(&[report], ()))
        });
        (written, super::pages::audit_mark(&store))
    })
    .await;
    let written = match written {
        Ok(written) => written,
        Err(failed) => return *failed,
    };
    let mut body = Markup::new();
    players(&mut body, lang, &g);
    let back = table_href(&g.group, g.table);
    let status = match written {
        (Ok(()), mark) => {
            // The tables list the arbiter opens next shows this result, not the state
            // before it (the pages are rendered again when the state file changes).
            shared.pages.showing(mark, FRESH_WAIT).await;
            body.text_element(
                "p",
                &[("id", "recorded")],
                &format!(
                    "{}{}",
                    lang.pick("已记录：", "Recorded: "),
                    entry_shown(&text, lang)
                ),
            );
            undo::offer(&mut body, &shared.pages.current(), &s, lang);
            StatusCode::OK
        }
        (Err(TxError::Command(Refusal::Changed(now))), _) => {
            // Another arbiter (or the CLI) entered this table since the page was shown.
            let mut changed = g;
            changed.result = now;
            body.text_element(
                "p",
                &[("class", "note"), ("id", "changed")],
                &format!(
                    "{}{}{}{}{}",
                    lang.pick("这一台刚刚已被录入为 ", "This table was just entered as "),
                    now.map_or_else(
                        || lang.pick("（无）", "(none)").to_string(),
                        |r| r.entry_text_in(lang)
                    ),
                    lang.pick("。确认要改为 ", ". Change it to "),
                    entry_shown(&text, lang),
                    lang.pick(" 吗？", "?"),
                ),
            );
            record_form(
                &mut body,
                &s.csrf,
                (&changed, &shown(now)),
                &form,
                ("change", lang.pick("确认更改", "Change it")),
            );
            StatusCode::CONFLICT
        }
        (Err(TxError::Command(Refusal::Moved)), _) => {
            body.text_element(
                "p",
                &[("class", "note")],
                lang.pick(
                    "这一台的对阵已经改变，请返回重新查看。",
                    "This table's players have changed; go back and look again.",
                ),
            );
            StatusCode::CONFLICT
        }
        (Err(TxError::Command(Refusal::Result(e))), _) => {
            body.text_element("p", &[("class", "note")], &e.localize(lang));
            StatusCode::UNPROCESSABLE_ENTITY
        }
        (Err(TxError::Store(e)), _) => {
            let shown = shared.problem(&e, lang).localize(lang);
            body.text_element("p", &[("class", "note")], &shown);
            StatusCode::SERVICE_UNAVAILABLE
        }
    };
    body.element("p", &[], |m| {
        m.text_element(
            "a",
            &[("href", &back)],
            lang.pick("返回这一台", "Back to the table"),
        );
        m.text(" · ");
        all_tables(m, lang);
    });
    (
        status,
        page(lang, lang.pick("录入成绩", "Enter results"), body),
    )
        .into_response()
}

#[cfg(test)]
mod tests;
