//! The arbiter's result entry of `qiwang serve` over loopback with a plain HTTP client:
//! a write without a token or without the CSRF token is refused, a token logs in once,
//! failed logins are limited, a range-limited token enters only its tables, the flow
//! from login to a recorded result lands in the audit log under the token and `undo`
//! takes it back, a second arbiter on the same table must confirm a change, and a server
//! killed during a write leaves the event as safe as a killed `qiwang result`.

use crate::common::{p, run};
use crate::serve::{Response, Served, assert_secure, paired_event, request};
use std::collections::HashMap;
use std::path::Path;
use std::process::Stdio;

/// The tokens `serve --token …` printed, in order.
fn tokens(printed: &str) -> Vec<String> {
    printed
        .lines()
        .filter(|l| l.contains("arbiter token") || l.contains("裁判口令"))
        .filter_map(|l| l.rsplit(['：', ' ']).next())
        .map(|t| t.trim().to_string())
        .collect()
}

/// A logged-in arbiter: the cookie and the CSRF token of the session.
struct Arbiter {
    addr: std::net::SocketAddr,
    cookie: String,
}

impl Arbiter {
    fn login(served: &Served, token: &str) -> Result<Arbiter, Response> {
        let r = request(
            served.addr,
            "POST",
            "/arbiter/login",
            &[("Content-Type", "application/x-www-form-urlencoded")],
            &format!("token={token}"),
        );
        assert_secure(&r, "login");
        if r.status != 303 {
            return Err(r);
        }
        let set = r.header("set-cookie").expect("a session cookie");
        assert!(
            set.contains("HttpOnly") && set.contains("SameSite=Strict"),
            "{set}"
        );
        let cookie = set.split(';').next().unwrap().to_string();
        Ok(Arbiter {
            addr: served.addr,
            cookie,
        })
    }

    fn get(&self, path: &str) -> Response {
        request(self.addr, "GET", path, &[("Cookie", &self.cookie)], "")
    }

    fn post(&self, path: &str, form: &[(&str, &str)]) -> Response {
        let body: Vec<String> = form
            .iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect();
        request(
            self.addr,
            "POST",
            path,
            &[
                ("Cookie", &self.cookie),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            &body.join("&"),
        )
    }
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => char::from(b).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The hidden fields of the first form of a page that posts to `action`.
fn hidden_fields(page: &str, action: &str) -> HashMap<String, String> {
    let form = page
        .split("<form")
        .find(|f| f.contains(&format!("action=\"{action}\"")))
        .unwrap_or_else(|| panic!("no form to {action}:\n{page}"));
    let form = form.split("</form>").next().unwrap();
    form.split("<input")
        .skip(1)
        .filter(|i| i.contains("type=\"hidden\""))
        .filter_map(|i| {
            let attr = |name: &str| {
                i.split(&format!("{name}=\""))
                    .nth(1)
                    .and_then(|v| v.split('"').next())
                    .map(|v| v.replace("&amp;", "&").replace("&quot;", "\""))
            };
            Some((attr("name")?, attr("value")?))
        })
        .collect()
}

/// Posts the table page's form for `result`, then its confirmation: the last response.
fn enter(arbiter: &Arbiter, group: &str, table: u32, result: &str) -> (Response, Response) {
    let (confirm, recorded) = post_entry(arbiter, group, table, result);
    // The table page opened at once shows the result just entered, not the pages from
    // before it (they are rendered again when the state file changes).
    if recorded.body.contains("id=\"recorded\"") {
        let page = arbiter.get(&format!("/arbiter/table?g={group}&t={table}"));
        assert!(
            !page.body.contains("尚未录入结果") && !page.body.contains("No result yet"),
            "{}",
            page.body
        );
    }
    (confirm, recorded)
}

/// [`enter`] without looking at the table page afterwards.
fn post_entry(arbiter: &Arbiter, group: &str, table: u32, result: &str) -> (Response, Response) {
    let page = arbiter.get(&format!("/arbiter/table?g={group}&t={table}"));
    assert_eq!(page.status, 200, "{}", page.body);
    let mut fields = hidden_fields(&page.body, "/arbiter/confirm");
    fields.insert("result".into(), result.into());
    fields.insert("rf".into(), "0".into());
    fields.insert("bf".into(), "0".into());
    let form: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let confirm = arbiter.post("/arbiter/confirm", &form);
    assert_eq!(confirm.status, 200, "{}", confirm.body);
    let fields = hidden_fields(&confirm.body, "/arbiter/record");
    let form: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let recorded = arbiter.post("/arbiter/record", &form);
    assert_secure(&recorded, "record");
    (confirm, recorded)
}

/// The pool id of the event's one group.
fn group(ev: &Path) -> String {
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ev.join("qiwang.json")).unwrap()).unwrap();
    state["groups"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone()
}

/// The result of `table` in round 1 as the state holds it (`None`: not entered).
fn result_of(ev: &Path, table: u64) -> Option<String> {
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ev.join("qiwang.json")).unwrap()).unwrap();
    let (_, g) = state["groups"].as_object().unwrap().iter().next().unwrap();
    g["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["table"].as_u64() == Some(table))
        .and_then(|p| p["result"]["outcome"].as_str().map(String::from))
}

#[test]
fn a_write_without_a_session_or_its_csrf_token_is_refused() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &["--token", "all"]);
    let before = std::fs::read(ev.join("qiwang.json")).unwrap();
    let g = group(&ev);
    let form = format!("g={g}&round=1&t=1&red=1&black=2&seen=-&result=r&csrf=x");
    for path in ["/arbiter/record", "/arbiter/confirm"] {
        let r = request(
            served.addr,
            "POST",
            path,
            &[("Content-Type", "application/x-www-form-urlencoded")],
            &form,
        );
        assert_eq!(r.status, 403, "{path}: {}", r.body);
        assert_secure(&r, path);
    }
    // Logged in, but without the session's CSRF token.
    let token = &tokens(&served.printed)[0];
    let arbiter = Arbiter::login(&served, token).unwrap();
    let r = arbiter.post(
        "/arbiter/record",
        &[
            ("g", &g),
            ("round", "1"),
            ("t", "1"),
            ("seen", "-"),
            ("result", "r"),
            ("csrf", "forged"),
        ],
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(std::fs::read(ev.join("qiwang.json")).unwrap(), before);
    // The token logs in once only.
    assert_eq!(Arbiter::login(&served, token).err().unwrap().status, 401);
}

#[test]
fn failed_logins_are_limited() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &["--token", "all"]);
    for _ in 0..5 {
        assert_eq!(
            Arbiter::login(&served, "WRONG-TOKEN").err().unwrap().status,
            401
        );
    }
    // Now even the right token waits.
    let token = &tokens(&served.printed)[0];
    let refused = Arbiter::login(&served, token).err().unwrap();
    assert_eq!(refused.status, 429, "{}", refused.body);
}

#[test]
fn an_arbiter_records_a_result_that_the_log_names_and_undo_takes_back() {
    let (tmp, ev) = paired_event("<img src=x onerror=alert(1)>");
    let served = Served::start(&ev, &["--token", "all", "--token", "2-2"]);
    let printed = tokens(&served.printed);
    assert_eq!(printed.len(), 2, "{}", served.printed);
    assert!(served.printed.contains("A2"), "{}", served.printed);
    // The token file keeps only hashes.
    let file = std::fs::read_to_string(ev.join("serve-tokens.json")).unwrap();
    assert!(!file.contains(&printed[0]) && !file.contains(&printed[0].replace('-', "")));
    let arbiter = Arbiter::login(&served, &printed[0]).unwrap();
    let home = arbiter.get("/arbiter/");
    assert_eq!(home.status, 200);
    assert!(
        !home.body.contains("<img src=x") && home.body.contains("&lt;img"),
        "{}",
        home.body
    );
    let g = group(&ev);
    let (confirm, recorded) = enter(&arbiter, &g, 1, "r");
    assert!(confirm.body.contains("id=\"confirm\""), "{}", confirm.body);
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    assert!(
        recorded.body.contains("id=\"recorded\""),
        "{}",
        recorded.body
    );
    assert_eq!(result_of(&ev, 1).as_deref(), Some("red_win"));
    let log = run(tmp.path(), &["--event", p(&ev), "--lang", "en", "log"]).ok();
    assert!(log.contains("serve A1"), "{log}");
    run(tmp.path(), &["--event", p(&ev), "undo"]).ok();
    assert_eq!(result_of(&ev, 1), None);
    // The range-limited token enters table 2 and nothing else.
    let judge = Arbiter::login(&served, &printed[1]).unwrap();
    let other = judge.get(&format!("/arbiter/table?g={g}&t=1"));
    assert_eq!(other.status, 403, "{}", other.body);
    let (_, recorded) = enter(&judge, &g, 2, "=");
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    assert_eq!(result_of(&ev, 2).as_deref(), Some("draw"));
    // Revoking the token ends its session.
    run(tmp.path(), &["--event", p(&ev), "serve", "--revoke", "A2"]).ok();
    let after = judge.get(&format!("/arbiter/table?g={g}&t=2"));
    assert!(after.body.contains("id=\"token\""), "{}", after.body);
}

#[test]
fn a_second_arbiter_on_the_same_table_sees_the_first_result_and_must_confirm_a_change() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &["--token", "all", "--token", "all"]);
    let printed = tokens(&served.printed);
    let (first, second) = (
        Arbiter::login(&served, &printed[0]).unwrap(),
        Arbiter::login(&served, &printed[1]).unwrap(),
    );
    let g = group(&ev);
    // Both open the table before either records.
    let page = second.get(&format!("/arbiter/table?g={g}&t=1"));
    let mut fields = hidden_fields(&page.body, "/arbiter/confirm");
    assert_eq!(fields["seen"], "-");
    let (_, recorded) = enter(&first, &g, 1, "r");
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    fields.insert("result".into(), "b".into());
    let form: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let refused = second.post("/arbiter/record", &form);
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.body.contains("id=\"changed\"") && refused.body.contains("红胜"),
        "{}",
        refused.body
    );
    assert_eq!(result_of(&ev, 1).as_deref(), Some("red_win"));
    // Confirming the change records it.
    let change = hidden_fields(&refused.body, "/arbiter/record");
    let form: Vec<(&str, &str)> = change
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let changed = second.post("/arbiter/record", &form);
    assert_eq!(changed.status, 200, "{}", changed.body);
    assert_eq!(result_of(&ev, 1).as_deref(), Some("black_win"));
}

#[test]
fn a_server_killed_during_a_write_leaves_the_event_consistent() {
    let (tmp, ev) = paired_event("赵六");
    let g = group(&ev);
    // Bounded: a few kills at growing delays, each on a fresh server and token.
    for trial in 0..6u64 {
        let served = Served::start(&ev, &["--token", "all"]);
        let token = tokens(&served.printed)[0].clone();
        let arbiter = Arbiter::login(&served, &token).unwrap();
        let page = arbiter.get(&format!("/arbiter/table?g={g}&t=1"));
        let mut fields = hidden_fields(&page.body, "/arbiter/confirm");
        let result = if trial % 2 == 0 { "r" } else { "b" };
        fields.insert("result".into(), result.into());
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect();
        let (addr, cookie) = (arbiter.addr, arbiter.cookie.clone());
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            let body = body.join("&");
            if let Ok(mut s) = std::net::TcpStream::connect(addr) {
                let _ = write!(
                    s,
                    "POST /arbiter/record HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        std::thread::sleep(std::time::Duration::from_millis(trial * 3));
        drop(served);
        writer.join().unwrap();
        // Any result of this trial or the one before, or none: never a torn state.
        let now = result_of(&ev, 1);
        assert!(
            matches!(now.as_deref(), None | Some("red_win" | "black_win")),
            "{now:?}"
        );
        // The next change reconciles, then history/ and audit.log agree with the state.
        run(tmp.path(), &["--event", p(&ev), "result", "2", "="]).ok();
        crate::crash::check_consistent(&ev).unwrap_or_else(|e| panic!("trial {trial}: {e}"));
        // And every round still keeps the pairing rules.
        run(tmp.path(), &["--event", p(&ev), "check"]).ok();
    }
}

#[test]
fn a_token_issued_beside_a_running_server_logs_in_to_it() {
    let (tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &[]);
    let printed = run(
        tmp.path(),
        &[
            "--event",
            p(&ev),
            "serve",
            "--token",
            "1-1",
            "--tokens-only",
        ],
    )
    .ok();
    let token = &tokens(&printed)[0];
    let arbiter = Arbiter::login(&served, token).unwrap();
    let g = group(&ev);
    assert_eq!(
        arbiter.get(&format!("/arbiter/table?g={g}&t=1")).status,
        200
    );
    assert_eq!(
        arbiter.get(&format!("/arbiter/table?g={g}&t=2")).status,
        403
    );
}

/// The undo page's confirmation form as fields to post.
fn undo_form(arbiter: &Arbiter) -> (Response, HashMap<String, String>) {
    let page = arbiter.get("/arbiter/undo");
    assert_eq!(page.status, 200, "{}", page.body);
    let fields = if page.body.contains("action=\"/arbiter/undo\"") {
        hidden_fields(&page.body, "/arbiter/undo")
    } else {
        HashMap::new()
    };
    (page, fields)
}

fn post_fields(arbiter: &Arbiter, path: &str, fields: &HashMap<String, String>) -> Response {
    let form: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    arbiter.post(path, &form)
}

#[test]
fn an_arbiter_undoes_only_the_result_that_token_entered_last() {
    let (tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &["--token", "all", "--token", "2-2"]);
    let printed = tokens(&served.printed);
    let (chief, judge) = (
        Arbiter::login(&served, &printed[0]).unwrap(),
        Arbiter::login(&served, &printed[1]).unwrap(),
    );
    let g = group(&ev);
    let (_, recorded) = enter(&chief, &g, 1, "r");
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    assert!(recorded.body.contains("id=\"undo\""), "{}", recorded.body);
    assert!(chief.get("/arbiter/").body.contains("id=\"undo\""));
    // The confirmation names the game and the result.
    let (page, fields) = undo_form(&chief);
    assert_secure(&page, "undo");
    assert!(
        page.body.contains("id=\"confirm\"")
            && page.body.contains("第1台")
            && page.body.contains("红胜"),
        "{}",
        page.body
    );
    // Another token sees nothing to undo and cannot undo it with the line's number.
    let (other, none) = undo_form(&judge);
    assert!(other.body.contains("id=\"nothing\"") && none.is_empty());
    assert!(!judge.get("/arbiter/").body.contains("id=\"undo\""));
    let judge_csrf = hidden_fields(&judge.get("/arbiter/").body, "/arbiter/logout")["csrf"].clone();
    let mut forged = fields.clone();
    forged.insert("csrf".into(), judge_csrf);
    let refused = post_fields(&judge, "/arbiter/undo", &forged);
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused.body.contains("id=\"nothing\""), "{}", refused.body);
    // Nor without the session's CSRF token.
    let mut no_csrf = fields.clone();
    no_csrf.insert("csrf".into(), "forged".into());
    assert_eq!(post_fields(&chief, "/arbiter/undo", &no_csrf).status, 403);
    assert_eq!(result_of(&ev, 1).as_deref(), Some("red_win"));
    // Confirmed: the library's undo, logged under the token.
    let undone = post_fields(&chief, "/arbiter/undo", &fields);
    assert_eq!(undone.status, 200, "{}", undone.body);
    assert!(undone.body.contains("id=\"undone\""), "{}", undone.body);
    assert_eq!(result_of(&ev, 1), None);
    let log = run(tmp.path(), &["--event", p(&ev), "--lang", "en", "log"]).ok();
    assert!(log.contains("serve undo"), "{log}");
    assert_eq!(log.matches("serve A1").count(), 2, "{log}");
    // A second post of the same confirmation undoes nothing more, and says why.
    let again = post_fields(&chief, "/arbiter/undo", &fields);
    assert_eq!(again.status, 409, "{}", again.body);
    assert!(
        again.body.contains("id=\"stale\"")
            && again.body.contains(&format!("第 {} 条", fields["seq"])),
        "{}",
        again.body
    );
    // Once the CLI changed something after the token's result, the token cannot undo.
    let (_, recorded) = enter(&chief, &g, 1, "b");
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    let (_, fields) = undo_form(&chief);
    run(tmp.path(), &["--event", p(&ev), "result", "2", "="]).ok();
    // The offer follows once the server has seen the change (it reads audit.log when
    // the file changes, not on every page); the undo itself checks under the lock.
    let page = until(&chief, "/arbiter/undo", "id=\"nothing\"");
    assert!(!page.contains("action=\"/arbiter/undo\""), "{page}");
    let stale = post_fields(&chief, "/arbiter/undo", &fields);
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert!(stale.body.contains("id=\"stale\""), "{}", stale.body);
    assert_eq!(result_of(&ev, 1).as_deref(), Some("black_win"));
    // The table judge changes its table's result (once the server has seen the CLI's),
    // then undoes that: the CLI's is back.
    let seen_draw = (0..200).any(|_| {
        let page = judge.get(&format!("/arbiter/table?g={g}&t=2"));
        page.body.contains("已录入：和") || {
            std::thread::sleep(std::time::Duration::from_millis(25));
            false
        }
    });
    assert!(seen_draw, "the server never showed the CLI's result");
    let (_, recorded) = enter(&judge, &g, 2, "b");
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    assert_eq!(result_of(&ev, 2).as_deref(), Some("black_win"));
    let (_, fields) = undo_form(&judge);
    assert_eq!(post_fields(&judge, "/arbiter/undo", &fields).status, 200);
    assert_eq!(result_of(&ev, 2).as_deref(), Some("draw"));
    assert_eq!(result_of(&ev, 1).as_deref(), Some("black_win"));
}

/// `GET path` until its page contains `needle` (the server has seen a change made beside
/// it); the page. Bounded: 200 tries 25 ms apart.
fn until(arbiter: &Arbiter, path: &str, needle: &str) -> String {
    let mut last = String::new();
    for _ in 0..200 {
        last = arbiter.get(path).body;
        if last.contains(needle) {
            return last;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    panic!("{path} never showed {needle}:\n{last}");
}

#[test]
fn an_undo_without_a_valid_or_current_entry_number_says_so() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &["--token", "all"]);
    let arbiter = Arbiter::login(&served, &tokens(&served.printed)[0]).unwrap();
    let g = group(&ev);
    let (_, recorded) = enter(&arbiter, &g, 1, "r");
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    let (_, fields) = undo_form(&arbiter);
    // No number, or not a number: a bad form, not "no such table".
    for seq in ["", "x1"] {
        let mut bad = fields.clone();
        bad.insert("seq".into(), seq.into());
        let r = post_fields(&arbiter, "/arbiter/undo", &bad);
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(
            r.body.contains("id=\"bad-form\"") && !r.body.contains("没有这一台"),
            "{}",
            r.body
        );
    }
    // A number that is not the newest change: not undone, and the page says to look again.
    let newest: u64 = fields["seq"].parse().unwrap();
    for seq in [newest - 1, newest + 1, 999_999] {
        let mut other = fields.clone();
        other.insert("seq".into(), seq.to_string());
        let r = post_fields(&arbiter, "/arbiter/undo", &other);
        assert_eq!(r.status, 409, "{}", r.body);
        assert!(
            r.body.contains("id=\"stale\"") && r.body.contains(&format!("第 {seq} 条")),
            "{}",
            r.body
        );
    }
    assert_eq!(result_of(&ev, 1).as_deref(), Some("red_win"));
}

/// Writes `bytes` over `audit.log` in place, same length, with its modification time
/// put back: a change no stamp of the file shows.
fn rewrite_unseen(ev: &Path, bytes: &[u8]) {
    use std::io::Write;
    let path = ev.join("audit.log");
    let before = std::fs::metadata(&path).unwrap();
    assert_eq!(before.len(), bytes.len() as u64);
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.write_all(bytes).unwrap();
    file.set_modified(before.modified().unwrap()).unwrap();
}

/// A server with a result entered by its arbiter, who is offered its undo: the arbiter,
/// the confirmation's fields, and the server.
fn entered_one(ev: &Path) -> (Arbiter, HashMap<String, String>, Served) {
    entered_one_to(ev, Stdio::inherit())
}

/// [`entered_one`] with the server's standard error going to `stderr`.
fn entered_one_to(ev: &Path, stderr: Stdio) -> (Arbiter, HashMap<String, String>, Served) {
    let served = Served::start_env(ev, &["--token", "all"], &[], stderr);
    let arbiter = Arbiter::login(&served, &tokens(&served.printed)[0]).unwrap();
    let (_, recorded) = enter(&arbiter, &group(ev), 1, "r");
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    let (_, fields) = undo_form(&arbiter);
    assert!(fields.contains_key("seq"), "no undo offered");
    (arbiter, fields, served)
}

#[test]
fn while_rendering_fails_the_undo_offered_still_follows_the_audit_log() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start_env(
        &ev,
        &["--token", "all"],
        &[("QIWANG_TEST_SERVE_PANIC", "render")],
        Stdio::piped(),
    );
    let arbiter = Arbiter::login(&served, &tokens(&served.printed)[0]).unwrap();
    // The pages cannot be made again after the write (the state they show stays the one
    // before), but the answer offers to undo the result just recorded, and so does the
    // undo page: what undo would revert is read from audit.log all the same.
    let (_, recorded) = post_entry(&arbiter, &group(&ev), 1, "r");
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    assert!(
        recorded.body.contains("id=\"recorded\"") && recorded.body.contains("id=\"undo\""),
        "{}",
        recorded.body
    );
    let (page, fields) = undo_form(&arbiter);
    assert!(
        page.body.contains("第1台") && page.body.contains("红胜") && fields.contains_key("seq"),
        "{}",
        page.body
    );
    assert_eq!(result_of(&ev, 1).as_deref(), Some("red_win"));
    let stderr = served.stop();
    assert!(
        stderr.contains("panic asked for by QIWANG_TEST_SERVE_PANIC in render"),
        "{stderr}"
    );
}

#[test]
fn a_page_load_reads_no_audit_log() {
    let (_tmp, ev) = paired_event("赵六");
    let (arbiter, _, _served) = entered_one(&ev);
    // The pages offer undo from what the server read when audit.log last changed: a
    // page load reads no file. Bytes changed behind the file's stamp stay unseen (tried
    // again should the server look in the moment between the write and the time put back).
    let good = std::fs::read(ev.join("audit.log")).unwrap();
    let mut junk = good.clone();
    junk[0] = b'x';
    let unseen = (0..3).any(|_| {
        rewrite_unseen(&ev, &junk);
        let offered = arbiter.get("/arbiter/").body.contains("id=\"undo\"");
        rewrite_unseen(&ev, &good);
        if !offered {
            // Seen after all: show the good log again, as a changed file.
            std::fs::write(ev.join("audit.log"), &good).unwrap();
            until(&arbiter, "/arbiter/", "id=\"undo\"");
        }
        offered
    });
    assert!(unseen, "a page load read audit.log");
}

#[test]
fn a_damaged_audit_log_is_named_on_the_arbiters_pages_and_undo_refuses() {
    let (_tmp, ev) = paired_event("赵六");
    let (arbiter, fields, served) = entered_one_to(&ev, Stdio::piped());
    let good = std::fs::read(ev.join("audit.log")).unwrap();
    // A damaged line: the pages name the file and the line, and offer no undo.
    let mut damaged = good.clone();
    damaged.extend_from_slice(b"not an audit entry\n");
    std::fs::write(ev.join("audit.log"), &damaged).unwrap();
    let lines = damaged.iter().filter(|b| **b == b'\n').count();
    let home = until(&arbiter, "/arbiter/", "id=\"undo-problem\"");
    assert!(
        home.contains("audit.log")
            && home.contains(&format!("第 {lines} 行"))
            && !home.contains("id=\"undo\""),
        "{home}"
    );
    let (page, none) = undo_form(&arbiter);
    assert!(
        page.body.contains("id=\"undo-problem\"")
            && !page.body.contains("id=\"nothing\"")
            && none.is_empty(),
        "{}",
        page.body
    );
    // The confirmation from before is refused with the same reason, nothing written.
    let refused = post_fields(&arbiter, "/arbiter/undo", &fields);
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert!(
        refused.body.contains("id=\"undo-problem\"")
            && refused.body.contains(&format!("第 {lines} 行")),
        "{}",
        refused.body
    );
    assert_eq!(result_of(&ev, 1).as_deref(), Some("red_win"));
    assert_eq!(std::fs::read(ev.join("audit.log")).unwrap(), damaged);
    // The pages name the file relative to the event, never where the event lies on the
    // organiser's disk; the server's window has the full path.
    for page in [&home, &page.body, &refused.body] {
        assert!(
            page.contains("`audit.log`") && !page.contains(p(&ev)),
            "{page}"
        );
    }
    let stderr = served.stop();
    let full = ev.join("audit.log");
    assert!(
        stderr.contains(&format!("`{}` 已损坏", full.display())),
        "{stderr}"
    );
}

/// A foul count that is not a whole number from 0 to 99 is refused with 400 and says so,
/// at confirmation and at recording; nothing is stored (`-1` was stored as no fouls).
#[test]
fn a_bad_foul_count_is_refused_not_read_as_none() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &["--token", "all"]);
    let arbiter = Arbiter::login(&served, &tokens(&served.printed)[0]).unwrap();
    let g = group(&ev);
    let page = arbiter.get(&format!("/arbiter/table?g={g}&t=1"));
    let game = hidden_fields(&page.body, "/arbiter/confirm");
    for (name, value) in [("rf", "-1"), ("bf", "x"), ("rf", "1.5"), ("bf", "100")] {
        for path in ["/arbiter/confirm", "/arbiter/record"] {
            let mut fields = game.clone();
            fields.insert("result".into(), "=".into());
            fields.insert("rf".into(), "0".into());
            fields.insert("bf".into(), String::new());
            fields.insert(name.into(), value.into());
            let r = post_fields(&arbiter, path, &fields);
            assert_eq!(r.status, 400, "{name}={value} to {path}: {}", r.body);
            assert!(
                r.body.contains("id=\"bad-fouls\"") && r.body.contains(&format!("`{value}`")),
                "{}",
                r.body
            );
        }
    }
    // A long value is echoed cut to its first 64 characters.
    let mut fields = game.clone();
    fields.insert("result".into(), "=".into());
    fields.insert("rf".into(), "1".repeat(5000));
    let r = post_fields(&arbiter, "/arbiter/confirm", &fields);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains(&format!("`{}`", "1".repeat(64))) && !r.body.contains(&"1".repeat(65)),
        "{}",
        r.body
    );
    assert_eq!(result_of(&ev, 1), None);
    // The form as the page makes it is still taken.
    let (_, recorded) = enter(&arbiter, &g, 1, "=");
    assert_eq!(recorded.status, 200, "{}", recorded.body);
    assert_eq!(result_of(&ev, 1).as_deref(), Some("draw"));
}

/// A pool in a hall of its own: the arbiter's list and the table page say `二楼 第1台`,
/// since that hall numbers its tables from 1 as the main hall does.
#[test]
fn the_arbiters_pages_name_the_hall_of_a_pool_in_another_hall() {
    let tmp = tempfile::TempDir::new().unwrap();
    let rules =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/cxa-2011.toml"))
            .unwrap();
    let sheet = "name,gender,unit\n张三,男,甲\n李四,男,乙\n王五,男,丙\n赵六,男,丁\n";
    let ev = crate::common::event_from(
        tmp.path(),
        &rules.replacen("[[groups]]", "[[groups]]\nhall = \"二楼\"", 1),
        sheet,
    );
    run(tmp.path(), &["--event", p(&ev), "pair", "--seed", "1"]).ok();
    let served = Served::start(&ev, &["--token", "all"]);
    let token = &tokens(&served.printed)[0];
    let arbiter = Arbiter::login(&served, token).unwrap();
    let home = arbiter.get("/arbiter/");
    assert!(home.body.contains("二楼 第1台"), "{}", home.body);
    let g = group(&ev);
    let table = arbiter.get(&format!("/arbiter/table?g={g}&t=1"));
    assert!(table.body.contains("第1轮 二楼 第1台"), "{}", table.body);
}
