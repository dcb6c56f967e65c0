//! `qiwang serve` in a real headless Chromium, driven through chromedriver's WebDriver
//! HTTP API with the plain client of `serve.rs`: find-my-table at 390 px without sideways
//! scrolling, a live update reaching an open page after a CLI `result` (no reload), the
//! arbiter's flow from login to a recorded result and its undo, a write refused without a token, and a
//! hostile name that stays inert.
//!
//! They need `chromium` and `chromium-driver` (Debian), so they are `#[ignore]`d in a
//! plain `cargo test`; `.ci/run` installs the browser if missing and runs them with
//! `cargo test --test it browser:: -- --ignored`. Every wait is bounded.

use crate::common::{p, run};
use crate::serve::{Served, paired_event, request};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A chromedriver on a free loopback port and one browser session, both ended on drop.
struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    /// A headless Chromium whose viewport is a 390 × 844 phone.
    fn phone() -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian package chromium-driver) is installed");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let started = Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut browser = Browser {
            driver,
            addr,
            session: String::new(),
        };
        let binary = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
            .into_iter()
            .find(|b| std::path::Path::new(b).exists())
            .unwrap_or("/usr/bin/chromium");
        let created = browser.call(
            "POST",
            "/session",
            json!({"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": binary,
                    "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                             "--disable-dev-shm-usage", "--window-size=390,844"],
                    "mobileEmulation": {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0}}
                }
            }}}),
        );
        browser.session = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"))
            .to_string();
        browser
    }

    /// One WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let text = body.to_string();
        let r = request(
            self.addr,
            method,
            path,
            &[("Content-Type", "application/json")],
            if method == "GET" { "" } else { &text },
        );
        let value: Value = serde_json::from_str(&r.body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}: {}", r.body));
        value["value"].clone()
    }

    fn session_call(&self, method: &str, path: &str, body: Value) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn go(&self, url: &str) {
        self.session_call("POST", "/url", json!({ "url": url }));
    }

    fn eval(&self, script: &str) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    fn element(&self, css: &str) -> String {
        let found = self.session_call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string()
    }

    fn click(&self, css: &str) {
        let e = self.element(css);
        self.session_call("POST", &format!("/element/{e}/click"), json!({}));
    }

    fn type_into(&self, css: &str, text: &str) {
        let e = self.element(css);
        self.session_call(
            "POST",
            &format!("/element/{e}/value"),
            json!({ "text": text }),
        );
    }

    /// Waits (bounded) until `script` returns true; how long it took.
    fn wait_for(&self, script: &str, limit: Duration) -> Duration {
        let started = Instant::now();
        loop {
            if self.eval(script) == json!(true) {
                return started.elapsed();
            }
            assert!(started.elapsed() < limit, "not within {limit:?}: {script}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the page, or any box inside it (a table in an `overflow-x: auto` wrapper),
    /// scrolls sideways on the 390 px screen.
    fn scrolls_sideways(&self) -> bool {
        self.eval(
            // A phone widens its layout viewport to fit wide content: innerWidth grows
            // past the screen's 390 px, so the screen is what is compared with.
            "return Math.max(document.documentElement.scrollWidth, window.innerWidth) > screen.width || \
             [...document.querySelectorAll('body *')].some(e => e.scrollWidth > e.clientWidth + 1 \
             && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))",
        ) == json!(true)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = request(self.addr, "DELETE", &path, &[], "");
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Every link of the served index ending in `suffix`.
fn links(served: &Served, suffix: &str) -> Vec<String> {
    served
        .get("/index.html")
        .body
        .split("href=\"")
        .filter_map(|s| s.split('"').next())
        .filter(|h| h.ends_with(suffix))
        .map(String::from)
        .collect()
}

#[test]
#[ignore = "needs chromium and chromedriver: cargo test --test it browser:: -- --ignored"]
fn find_my_table_on_a_390_px_phone_without_sideways_scrolling() {
    let (_tmp, ev) = paired_event("欧阳长长长长长长长长长长长长长长长长名字");
    let served = Served::start(&ev, &[]);
    let base = format!("http://{}", served.addr);
    let browser = Browser::phone();
    browser.go(&format!("{base}/find.html"));
    assert_eq!(browser.eval("return window.innerWidth"), json!(390));
    assert!(!browser.scrolls_sideways(), "find.html scrolls sideways");
    // The page's styles are applied: the policy allows them by their hashes.
    assert_eq!(
        browser
            .eval("return getComputedStyle(document.querySelector('ul.found li')).borderTopStyle"),
        json!("solid")
    );
    browser.type_into("#q", "zs");
    browser.wait_for(
        "return [...document.querySelectorAll('[data-find]')].filter(e => !e.hidden).length === 1",
        Duration::from_secs(5),
    );
    let shown = browser.eval(
        "return [...document.querySelectorAll('[data-find]')].find(e => !e.hidden).textContent",
    );
    assert!(shown.as_str().unwrap().contains("张三"), "{shown}");
    // Every page of the site, including the wide ones, fits the phone.
    let mut pages = vec!["index.html".to_string()];
    for suffix in [
        "round-1.html",
        "standings.html",
        "crosstable.html",
        "players.html",
    ] {
        pages.extend(links(&served, suffix));
    }
    pages.push("prizes.html".into());
    for page in &pages {
        browser.go(&format!("{base}/{page}"));
        assert!(
            !browser.scrolls_sideways(),
            "{page} scrolls sideways at 390 px"
        );
    }
}

/// Every page the index of `served` links to (and the find page), opened at 390 px: none
/// scrolls sideways.
fn no_page_scrolls_sideways(browser: &Browser, served: &Served) -> usize {
    let base = format!("http://{}", served.addr);
    let mut pages = links(served, ".html");
    pages.push("find.html".into());
    for page in &pages {
        browser.go(&format!("{base}/{page}"));
        assert!(
            !browser.scrolls_sideways(),
            "{page} scrolls sideways at 390 px"
        );
    }
    pages.len()
}

/// The demo's event (six pools, nine rounds, long units, every tiebreak column): not one
/// of its pages scrolls sideways on a phone.
#[test]
#[ignore = "needs chromium and chromedriver: cargo test --test it browser:: -- --ignored"]
fn no_page_of_a_whole_event_scrolls_sideways_at_390_px() {
    let tmp = tempfile::TempDir::new().unwrap();
    run(tmp.path(), &["demo", "ev"]).ok();
    let served = Served::start(&tmp.path().join("ev"), &[]);
    let browser = Browser::phone();
    let pages = no_page_scrolls_sideways(&browser, &served);
    assert!(pages > 40, "only {pages} pages");
}

/// The other bundled events: a round robin beside a Swiss group (the square table), a
/// Swiss group ending in a knockout (the bracket) and a team competition (match sheets,
/// team standings, board results): none of their pages scrolls sideways on a phone.
#[test]
#[ignore = "needs chromium and chromedriver: cargo test --test it browser:: -- --ignored"]
fn no_page_of_a_round_robin_knockout_or_team_event_scrolls_sideways_at_390_px() {
    let browser = Browser::phone();
    for demo in [
        &["--example", "round-robin"][..],
        &["--example", "round-robin-only"],
        &["--example", "swiss-knockout"],
        &["--example", "swiss-round-robin"],
        &["--team"],
    ] {
        let tmp = tempfile::TempDir::new().unwrap();
        let mut args = vec!["demo", "ev"];
        args.extend_from_slice(demo);
        run(tmp.path(), &args).ok();
        let served = Served::start(&tmp.path().join("ev"), &[]);
        let pages = no_page_scrolls_sideways(&browser, &served);
        assert!(pages > 5, "{demo:?}: only {pages} pages");
    }
}

#[test]
#[ignore = "needs chromium and chromedriver: cargo test --test it browser:: -- --ignored"]
fn a_cli_result_reaches_an_open_page_without_a_reload() {
    let (tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &[]);
    let round = links(&served, "round-1.html").remove(0);
    let browser = Browser::phone();
    browser.go(&format!("http://{}/{round}", served.addr));
    // Marked, so a reload (which would forget the mark) is told from a live update.
    browser.eval("window.qiwangMark = 'still here'; return true");
    // Time for the live connection to open and its first answer to be fetched (had it
    // not opened yet, its first event would fetch the page with the result all the same).
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        browser.eval("return document.querySelector('main').textContent.includes('红胜')"),
        json!(false)
    );
    let before = Instant::now();
    run(tmp.path(), &["--event", p(&ev), "result", "1", "r"]).ok();
    let recorded = before.elapsed();
    let shown = browser.wait_for(
        "return document.querySelector('main').textContent.includes('红胜')",
        Duration::from_secs(10),
    );
    assert_eq!(
        browser.eval("return window.qiwangMark"),
        json!("still here")
    );
    eprintln!(
        "live update: shown {shown:?} after the CLI result ended ({recorded:?} for the command)"
    );
}

#[test]
#[ignore = "needs chromium and chromedriver: cargo test --test it browser:: -- --ignored"]
fn an_arbiter_logs_in_and_records_a_result_and_nobody_else_can() {
    let (_tmp, ev) = paired_event("赵六");
    let served = Served::start(&ev, &["--token", "all"]);
    let token = served
        .printed
        .lines()
        .find(|l| l.contains("裁判口令") || l.contains("arbiter token"))
        .and_then(|l| l.rsplit(['：', ' ']).next())
        .unwrap()
        .to_string();
    let base = format!("http://{}", served.addr);
    let browser = Browser::phone();
    // Without a token: the table page asks for a login, and a write is refused.
    browser.go(&format!("{base}/arbiter/"));
    let group = served
        .get("/index.html")
        .body
        .split("href=\"")
        .filter_map(|s| s.split('"').next())
        .find(|h| h.ends_with("/round-1.html"))
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_string();
    browser.go(&format!("{base}/arbiter/table?g={group}&t=1"));
    assert_eq!(browser.eval("return !!document.querySelector('#token') && !document.querySelector('button[name=result]')"), json!(true));
    let status = browser.session_call(
        "POST",
        "/execute/async",
        json!({"script": "const done = arguments[arguments.length - 1]; fetch('/arbiter/record', {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'}, body: 'g=x&t=1&result=r'}).then(r => done(r.status), () => done(0));", "args": []}),
    );
    assert_eq!(status, json!(403));
    // Log in, open table 1, press 红胜, confirm.
    browser.go(&format!("{base}/arbiter/"));
    browser.type_into("#token", &token);
    browser.click("form[action='/arbiter/login'] button");
    browser.wait_for(
        "return location.pathname === '/arbiter/' && !!document.querySelector('ul.tables a')",
        Duration::from_secs(10),
    );
    browser.click("ul.tables a");
    browser.wait_for(
        "return !!document.querySelector('button[value=r]')",
        Duration::from_secs(10),
    );
    let names = browser.eval("return document.querySelector('#red').textContent + '/' + document.querySelector('#black').textContent");
    browser.click("button[value=r]");
    browser.wait_for(
        "return !!document.querySelector('#confirm')",
        Duration::from_secs(10),
    );
    let confirm = browser.eval("return document.querySelector('#confirm').textContent");
    let (red, black) = names.as_str().unwrap().split_once('/').unwrap();
    assert!(
        confirm.as_str().unwrap().contains(red) && confirm.as_str().unwrap().contains(black),
        "{confirm}"
    );
    browser.click("#yes");
    browser.wait_for(
        "return !!document.querySelector('#recorded')",
        Duration::from_secs(10),
    );
    assert_eq!(outcomes(&ev), ["red_win"], "not recorded");
    // Taken back from the tablet: the offer, a confirmation naming the game, the undo.
    browser.click("#undo");
    browser.wait_for(
        "return !!document.querySelector('#confirm') && location.pathname === '/arbiter/undo'",
        Duration::from_secs(10),
    );
    let confirm = browser.eval("return document.querySelector('#confirm').textContent");
    assert!(
        confirm.as_str().unwrap().contains(red) && confirm.as_str().unwrap().contains("红胜"),
        "{confirm}"
    );
    browser.click("#yes");
    browser.wait_for(
        "return !!document.querySelector('#undone')",
        Duration::from_secs(10),
    );
    assert!(outcomes(&ev).is_empty(), "not undone");
}

/// The outcomes of every game the state holds a result for.
fn outcomes(ev: &std::path::Path) -> Vec<String> {
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(ev.join("qiwang.json")).unwrap()).unwrap();
    let groups = state["groups"].as_object().unwrap().values();
    groups
        .flat_map(|g| g["rounds"].as_array().unwrap().iter())
        .flat_map(|r| r["pairings"].as_array().unwrap().iter())
        .filter_map(|p| p["result"]["outcome"].as_str().map(String::from))
        .collect()
}

#[test]
#[ignore = "needs chromium and chromedriver: cargo test --test it browser:: -- --ignored"]
fn a_hostile_name_stays_inert_in_the_browser() {
    let hostile =
        "<img src=x onerror=\"window.qiwangPwned=1\"><script>window.qiwangPwned=2</script>";
    let (_tmp, ev) = paired_event(hostile);
    let served = Served::start(&ev, &["--token", "all"]);
    let base = format!("http://{}", served.addr);
    let browser = Browser::phone();
    let mut pages = links(&served, ".html");
    pages.extend([
        "find.html".into(),
        "find.html?q=%3Cimg".into(),
        "screen".into(),
    ]);
    for page in &pages {
        browser.go(&format!("{base}/{page}"));
        assert_eq!(
            browser.eval("return window.qiwangPwned === undefined"),
            json!(true),
            "{page}"
        );
        assert_eq!(
            browser.eval(
                "return document.querySelectorAll('img[src=x], body script:not([src])').length"
            ),
            json!(0),
            "{page}"
        );
    }
    // The name is on the page, as text.
    browser.go(&format!("{base}/find.html"));
    assert_eq!(
        browser.eval("return document.body.textContent.includes('<img src=x')"),
        json!(true)
    );
}
