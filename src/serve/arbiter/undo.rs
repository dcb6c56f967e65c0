//! Undo from the arbiter's pages: an arbiter who entered a wrong result takes it back
//! from the tablet, with the library's own undo (`Store::undo_if`, the one `qiwang undo`
//! runs), limited to what that token entered.
//!
//! The rule: undo reverts the newest change in effect, as `qiwang undo` does, and a token
//! may run it only when that change is a result the same token entered through these
//! pages (its audit user `serve A1` and its command `qiwang serve result …`). A table
//! judge therefore never undoes another table's result, another token's, or a change
//! made at the CLI; once anything else was changed after the result, the result is
//! corrected by entering the right one (a confirmed change) or by the chief arbiter.
//! The check runs again under the event's lock when the undo is written, for the exact
//! change the confirmation named, so a change slipped in between refuses the undo.

use super::*;
use crate::serve::pages::Snapshot;
use crate::serve::problem::Problem;
use crate::store::{AuditEntry, StoreError};

/// The audit user of a session's writes: the id of the token that opened it.
pub(super) fn user_of(s: &Session) -> String {
    format!("serve {}", s.token)
}

/// A result entered through these pages, as its audit line's command records it
/// (`qiwang serve result --group G --round R TABLE TEXT`).
pub(super) struct Entered {
    pub(super) group: String,
    pub(super) round: u32,
    pub(super) table: u32,
    pub(super) text: String,
}

impl Entered {
    /// The audit line's command for this result, which [`Entered::of`] reads back: the
    /// page that records a result writes it, the undo finds it by it.
    pub(super) fn command(&self) -> Vec<String> {
        [
            "qiwang",
            "serve",
            "result",
            "--group",
            &self.group,
            "--round",
            &self.round.to_string(),
            &self.table.to_string(),
            &self.text,
        ]
        .map(String::from)
        .to_vec()
    }

    fn of(entry: &AuditEntry) -> Option<Entered> {
        match entry.command.as_slice() {
            [_, serve, result, g, group, r, round, table, text]
                if serve == "serve" && result == "result" && g == "--group" && r == "--round" =>
            {
                Some(Entered {
                    group: group.clone(),
                    round: round.parse().ok()?,
                    table: table.parse().ok()?,
                    text: text.clone(),
                })
            }
            _ => None,
        }
    }
}

/// Whether `entry` is a result the token of audit user `user` entered through these
/// pages.
fn is_own(entry: &AuditEntry, user: &str) -> bool {
    entry.user == user && Entered::of(entry).is_some()
}

/// What the session may undo now, from the snapshot's [`NextUndo`] (worked out when
/// `audit.log` changed, not read here): the audit line's number and its wording for
/// people (the game with both names, and the result), `None`, or the store's error for a
/// trail that cannot be read.
///
/// [`NextUndo`]: crate::serve::pages::NextUndo
fn own_undo(
    snapshot: &Snapshot,
    s: &Session,
    lang: Lang,
) -> Result<Option<(u64, String)>, Arc<Problem>> {
    let Some(entry) = snapshot.undo.next.clone()? else {
        return Ok(None);
    };
    if !is_own(&entry, &user_of(s)) {
        return Ok(None);
    }
    let Some(e) = Entered::of(&entry) else {
        return Ok(None);
    };
    let game = snapshot
        .state
        .as_ref()
        .and_then(|st| find_game(&st.0, &st.1, &e.group, Some(e.round), e.table));
    let result = entry_shown(&e.text, lang);
    let what = match game {
        Some(g) => format!(
            "{}：{} — {}，{result}",
            game_title(lang, &g),
            g.red_name,
            g.black_name
        ),
        None => bi!(
            lang,
            zh("第{}轮 第{}台：{result}", e.round, e.table),
            en("round {} table {}: {result}", e.round, e.table)
        ),
    };
    Ok(Some((entry.seq, what)))
}

/// On the arbiter's pages: a link to undo the session's own newest result, when there is
/// one; the store's error when the audit trail cannot be read (undo refuses then).
pub(super) fn offer(m: &mut Markup, snapshot: &Snapshot, s: &Session, lang: Lang) {
    match own_undo(snapshot, s, lang) {
        Ok(Some((_, what))) => {
            m.element("p", &[("class", "undo")], |m| {
                m.text_element(
                    "a",
                    &[("href", "/arbiter/undo"), ("id", "undo")],
                    &format!(
                        "{}{what}",
                        lang.pick("撤销我刚录入的：", "Undo my last entry: ")
                    ),
                );
            });
        }
        Ok(None) => {}
        Err(e) => unreadable(m, &e, lang),
    }
}

/// Why undo cannot run at all: the store's own words for the damaged file (the audit
/// trail, or the state or snapshot an undo would restore), which name it.
fn unreadable(body: &mut Markup, e: &Problem, lang: Lang) {
    body.text_element(
        "p",
        &[("class", "note"), ("id", "undo-problem")],
        &format!(
            "{}{}",
            lang.pick("现在不能撤销：", "Undo is not possible now: "),
            e.localize(lang)
        ),
    );
}

/// Why nothing of this token's can be undone now, for the page.
fn nothing_own(body: &mut Markup, lang: Lang) {
    body.text_element(
        "p",
        &[("class", "note"), ("id", "nothing")],
        lang.pick(
            "没有可以撤销的结果：只能撤销本口令最后录入、且之后没有其他修改的结果。其他台次的结果和电脑上的修改由裁判长处理；录错的结果也可以在该台页面直接改为正确结果。",
            "Nothing to undo: a token undoes only the result it entered last, while no other change came after it. Other tables' results and changes made at the computer are for the chief arbiter; a wrong result can also be changed to the right one on its table's page.",
        ),
    );
}

/// A confirmation whose entry `seq` is not the newest change any more (something was
/// entered or undone after the page was shown), or never was.
fn stale(body: &mut Markup, seq: u64, lang: Lang) {
    body.text_element(
        "p",
        &[("class", "note"), ("id", "stale")],
        &bi!(
            lang,
            zh(
                "没有撤销：第 {seq} 条记录已不是最新的修改（之后又有录入或撤销），或者没有这一条。请重新打开撤销页面，看现在可以撤销什么。"
            ),
            en(
                "Nothing undone: entry #{seq} is no longer the newest change (something was entered or undone after it), or there is no such entry. Open the undo page again to see what can be undone now."
            ),
        ),
    );
}

/// `GET /arbiter/undo`: the confirmation, naming the game and the result to take back.
pub(super) async fn ask(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let snapshot = shared.pages.current();
    let lang = snapshot.lang;
    let s = match session_or_login(&shared, &headers, lang).await {
        Ok(s) => s,
        Err(login) => return *login,
    };
    let mut body = Markup::new();
    match own_undo(&snapshot, &s, lang) {
        Ok(Some((seq, what))) => {
            body.text_element(
                "p",
                &[("id", "confirm")],
                &format!("{}{what}", lang.pick("确认撤销：", "Undo: ")),
            );
            body.element(
                "form",
                &[("method", "post"), ("action", "/arbiter/undo")],
                |m| {
                    hidden(m, "csrf", &s.csrf);
                    hidden(m, "seq", &seq.to_string());
                    m.text_element(
                        "button",
                        &[("type", "submit"), ("id", "yes")],
                        lang.pick("确认撤销", "Undo it"),
                    );
                },
            );
        }
        Ok(None) => nothing_own(&mut body, lang),
        Err(e) => unreadable(&mut body, &e, lang),
    }
    back(&mut body, lang);
    page(lang, lang.pick("撤销录入", "Undo an entry"), body)
}

/// `POST /arbiter/undo`: the undo, if the newest change is still the one confirmed and
/// this token's own.
pub(super) async fn run(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let snapshot = shared.pages.current();
    let lang = snapshot.lang;
    let s = match writer(&shared, &headers, &form).await {
        Ok(s) => s,
        Err(refused) => return *refused,
    };
    let mut body = Markup::new();
    let Ok(seq) = field(&form, "seq").parse::<u64>() else {
        // Not a form this server made: no entry number to check.
        body.text_element(
            "p",
            &[("class", "note"), ("id", "bad-form")],
            lang.pick(
                "没有撤销：这个表单没有有效的记录编号。请从撤销页面确认后再提交。",
                "Nothing undone: this form carries no valid entry number. Confirm on the undo page and send it from there.",
            ),
        );
        back(&mut body, lang);
        return (
            StatusCode::BAD_REQUEST,
            page(lang, lang.pick("撤销录入", "Undo an entry"), body),
        )
            .into_response();
    };
    // Worded before the undo, while the result is still in the state.
    let what = own_undo(&snapshot, &s, lang)
        .ok()
        .flatten()
        .filter(|(now, _)| *now == seq);
    let store = shared.store.clone();
    let user = user_of(&s);
    let command = CommandInfo {
        user: user.clone(),
        ..CommandInfo::new("undo", vec!["qiwang".into(), "serve".into(), "undo".into()])
    };
    let done = super::internal::blocking(move || {
        // The newest change in effect as the undo found it under the lock.
        let mut newest = None;
        let done = store.undo_if(&command, |e| {
            newest = Some(e.seq);
            e.seq == seq && is_own(e, &user)
        });
        (done, newest, super::super::pages::audit_mark(&store))
    })
    .await;
    let done = match done {
        Ok(done) => done,
        Err(failed) => return *failed,
    };
    let status = match done {
        (Ok(Some(report)), _, mark) => {
            shared.pages.showing(mark, super::FRESH_WAIT).await;
            body.text_element(
                "p",
                &[("id", "undone")],
                &format!(
                    "{}{}",
                    lang.pick("已撤销：", "Undone: "),
                    what.map_or_else(|| format!("#{}", report.undone.seq), |(_, w)| w)
                ),
            );
            StatusCode::OK
        }
        // The confirmed entry is the newest, but not this token's result.
        (Ok(None), Some(newest), _) if newest == seq => {
            nothing_own(&mut body, lang);
            StatusCode::CONFLICT
        }
        (Ok(None) | Err(StoreError::NothingToUndo), _, _) => {
            stale(&mut body, seq, lang);
            StatusCode::CONFLICT
        }
        (Err(e @ (StoreError::Damaged { .. } | StoreError::OlderCopy { .. })), _, _) => {
            unreadable(&mut body, &shared.problem(&e, lang), lang);
            StatusCode::SERVICE_UNAVAILABLE
        }
        (Err(e), _, _) => {
            let shown = shared.problem(&e, lang).localize(lang);
            body.text_element("p", &[("class", "note")], &shown);
            StatusCode::SERVICE_UNAVAILABLE
        }
    };
    back(&mut body, lang);
    (
        status,
        page(lang, lang.pick("撤销录入", "Undo an entry"), body),
    )
        .into_response()
}

/// The way back to the tables.
fn back(body: &mut Markup, lang: Lang) {
    body.element("p", &[], |m| all_tables(m, lang));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_result_entered_through_the_pages_reads_as_entered() {
        let line = |user: &str, command: &[&str]| AuditEntry {
            seq: 5,
            time: chrono::Utc::now(),
            user: user.into(),
            command: command.iter().map(|c| (*c).to_string()).collect(),
            kind: crate::store::EntryKind::Change,
            summary: String::new(),
            details: serde_json::Value::Null,
            snapshot: None,
            undoes: None,
            redoes: None,
            recovered: false,
        };
        let served = [
            "qiwang", "serve", "result", "--group", "open", "--round", "3", "7", "红胜",
        ];
        // What the page that records a result writes is what the undo reads back.
        let written = Entered {
            group: "open".into(),
            round: 3,
            table: 7,
            text: "红胜".into(),
        }
        .command();
        assert_eq!(written, served);
        let e = Entered::of(&line("serve A1", &served)).unwrap();
        assert_eq!((e.group.as_str(), e.round, e.table), ("open", 3, 7));
        assert_eq!(e.text, "红胜");
        let s = "serve A1";
        assert!(is_own(&line("serve A1", &served), s));
        assert!(!is_own(&line("serve A2", &served), s));
        // The same user at the CLI, or another command, is not the token's result.
        assert!(!is_own(
            &line("serve A1", &["qiwang", "result", "7", "红胜"]),
            s
        ));
        assert!(!is_own(&line("serve A1", &["qiwang", "serve", "undo"]), s));
    }
}
