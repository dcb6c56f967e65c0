//! Issue 42 §3 and §5: rulebook values that must never hang a command, rules that change
//! during an event (each round judged by the rulebook it was paired under), the
//! registration template's CSV cells, and the event's maximum number of players.

use crate::common::{Run, p, root};
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `qiwang ARGS` in `cwd`, killing it after `limit`: a command that loops fails the
/// test instead of hanging the suite. Answers the exit code and stderr.
pub(crate) fn run_bounded(cwd: &Path, args: &[&str], limit: Duration) -> (i32, String) {
    let mut child = Command::new(crate::common::BIN)
        .args(args)
        .current_dir(cwd)
        .env_remove("QIWANG_EVENT")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the qiwang binary runs");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .expect("piped")
                .read_to_string(&mut err)
                .expect("utf-8 stderr");
            return (status.code().unwrap_or(-1), err);
        }
        if start.elapsed() > limit {
            child.kill().expect("kill");
            let _ = child.wait();
            panic!("`qiwang {args:?}` still ran after {limit:?}: it loops");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The CXA rulebook with its group's `id = "open"` line replaced.
fn with_group_id(line: &str) -> String {
    let text = fs::read_to_string(root("rules/cxa-2011.toml")).unwrap();
    assert!(text.contains("id = \"open\""));
    text.replace("id = \"open\"", line)
}

/// Issue 42 §3: `id = ""` or `id = "  "` with a `name` made every command that reports
/// the rulebook's problems in Chinese loop forever (the group-naming pass of the error
/// message searched for the empty id at the same place again and again).
#[test]
fn a_blank_group_id_is_refused_by_every_command_without_hanging() {
    let tmp = tempfile::TempDir::new().unwrap();
    printed(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    );
    let ev = tmp.path().join("ev");
    let limit = Duration::from_secs(20);
    for (i, id) in ["id = \"\"", "id = \"  \"", "id = \"\\t\""]
        .iter()
        .enumerate()
    {
        let rules = tmp.path().join(format!("blank{i}.toml"));
        fs::write(&rules, with_group_id(id)).unwrap();
        let r = p(&rules);
        let commands: [Vec<&str>; 4] = [
            vec!["rules", "check", r],
            vec!["init", "new", "--rules", r],
            vec!["template", "--rules", r],
            vec!["--event", p(&ev), "rules", "update", r],
        ];
        for args in commands {
            for lang in ["zh", "en"] {
                let mut all = vec!["--lang", lang];
                all.extend(&args);
                let (code, err) = run_bounded(tmp.path(), &all, limit);
                assert_eq!(code, 3, "{all:?}: {err}");
                assert!(err.contains("groups[0].id"), "{all:?} names no key: {err}");
                assert!(err.contains(":19:"), "{all:?} names no line: {err}");
            }
        }
        assert!(!tmp.path().join("new").exists(), "{id}: init made an event");
    }
}

/// A registration sheet of `n` players (name, gender, unit), one header row.
fn sheet_of(n: usize) -> String {
    let mut text = String::with_capacity(n * 24);
    text.push_str("姓名,性别,单位\n");
    for i in 0..n {
        text.push_str(&format!("选手{i},男,单位{}\n", i % 97));
    }
    text
}

/// Issue 42 §5: a sheet of 1,000,000 players imported (11.5 s, 1.6 GB) with no limit.
/// Without `event.max_players` the event takes 100,000, and a sheet beyond that is
/// refused while it streams, naming the number and the key that raises it.
#[test]
fn a_million_row_sheet_is_refused_early_with_the_default_maximum() {
    let tmp = tempfile::TempDir::new().unwrap();
    printed(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    );
    let csv = tmp.path().join("million.csv");
    fs::write(&csv, sheet_of(1_000_000)).unwrap();
    let before = crate::common::snapshot(&tmp.path().join("ev"));
    let start = Instant::now();
    let (code, err) = run_bounded(
        tmp.path(),
        &["--lang", "en", "--event", "ev", "import", p(&csv)],
        Duration::from_secs(300),
    );
    let took = start.elapsed();
    assert_eq!(code, 3, "{err}");
    for word in [
        "`100000`",
        "max_players",
        "million.csv:100012",
        "reading stopped",
    ] {
        assert!(err.contains(word), "lacks {word}: {err}");
    }
    assert_eq!(crate::common::snapshot(&tmp.path().join("ev")), before);
    eprintln!("1,000,000-row sheet refused in {took:?}");
}

/// The default maximum is the exact limit: one row over is refused with the count, and
/// a rulebook's `event.max_players` (here set low) is named as what to raise, for an
/// import and for `player add`.
#[test]
fn the_event_maximum_counts_exactly_and_names_its_key() {
    let tmp = tempfile::TempDir::new().unwrap();
    let rules = tmp.path().join("capped.toml");
    let text = fs::read_to_string(root("rules/cxa-2011.toml")).unwrap();
    fs::write(
        &rules,
        text.replace("rounds = 7\n", "rounds = 7\nmax_players = 3\n"),
    )
    .unwrap();
    printed(tmp.path(), &["init", "ev", "--rules", p(&rules)]);
    let four = tmp.path().join("four.csv");
    fs::write(&four, sheet_of(4)).unwrap();
    refused(
        Run::new(
            tmp.path(),
            &["--lang", "en", "--event", "ev", "import", p(&four)],
        ),
        &["at most `3` players", "`event.max_players`", "remove 1 row"],
    );
    let three = tmp.path().join("three.csv");
    fs::write(&three, sheet_of(3)).unwrap();
    printed(
        tmp.path(),
        &["--lang", "en", "--event", "ev", "import", p(&three)],
    );
    let add = [
        "--lang",
        "en",
        "--event",
        "ev",
        "player",
        "add",
        "--name",
        "迟到者",
        "--gender",
        "男",
        "--unit",
        "新单位",
    ];
    refused(
        Run::new(tmp.path(), &add),
        &["at most `3` players", "`event.max_players`"],
    );

    // Without the key: 100,000 fit, 100,001 do not.
    let tmp = tempfile::TempDir::new().unwrap();
    printed(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    );
    let over = tmp.path().join("over.csv");
    fs::write(&over, sheet_of(100_001)).unwrap();
    refused(
        Run::new(
            tmp.path(),
            &["--lang", "en", "--event", "ev", "import", p(&over)],
        ),
        &[
            "at most `100000` players",
            "make `100001`",
            "`max_players = …`",
        ],
    );
}

/// `qiwang --lang en ARGS` in `dir` as a [`Run`].
fn en(dir: &Path, args: &[&str]) -> Run {
    let mut all = vec!["--lang", "en"];
    all.extend(args);
    Run::new(dir, &all)
}

/// What `qiwang ARGS` run in `dir` prints on standard output, after failing the test
/// unless it succeeded with nothing on standard error.
#[track_caller]
fn printed(dir: &Path, args: &[&str]) -> String {
    Run::new(dir, args).stderr_empty().check().stdout
}

/// A refusal of `qiwang ARGS` run in `dir` as invalid input: exit status 3, nothing on
/// standard output, and every word on standard error, which it returns.
#[track_caller]
fn refused(run: Run, words: &[&str]) -> String {
    let mut run = run.status(3).stdout_empty();
    for w in words {
        run = run.stderr_has(w);
    }
    run.check().stderr
}

/// A CXA event `DIR/ev` of `n` players, one unit each, and the CXA rulebook's text.
fn cxa_event(n: usize) -> (tempfile::TempDir, std::path::PathBuf, String) {
    let tmp = tempfile::TempDir::new().unwrap();
    let csv = tmp.path().join("players.csv");
    fs::write(&csv, sheet_of(n)).unwrap();
    printed(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    );
    en(tmp.path(), &["--event", "ev", "import", p(&csv)])
        .stderr_empty()
        .check();
    let ev = tmp.path().join("ev");
    let text = fs::read_to_string(root("rules/cxa-2011.toml")).unwrap();
    (tmp, ev, text)
}

/// `rules update` with `text`, written to `name` beside the event, as a [`Run`].
fn update(ev: &Path, name: &str, text: &str) -> Run {
    let file = ev.parent().unwrap().join(name);
    fs::write(&file, text).unwrap();
    en(
        ev.parent().unwrap(),
        &["--event", p(ev), "rules", "update", p(&file)],
    )
}

/// Issue 42 §3: `rules update` with `max_players = 1` on a 150-player event was
/// accepted. An update that contradicts the registered players is refused with what it
/// contradicts, and leaves the event as it was.
#[test]
fn an_update_that_contradicts_the_registered_players_is_refused() {
    let (_tmp, ev, text) = cxa_event(150);
    let before = crate::common::snapshot(&ev);
    refused(
        update(
            &ev,
            "one.toml",
            &text.replace("rounds = 7\n", "rounds = 7\nmax_players = 1\n"),
        ),
        &[
            "contradicts the players already registered",
            "`event.max_players` is `1`, below the `150` players registered",
        ],
    );
    refused(
        update(
            &ev,
            "renamed.toml",
            &text.replace("id = \"open\"", "id = \"main\""),
        ),
        &["group `open` is removed, but 150 players are registered in it"],
    );
    assert_eq!(crate::common::snapshot(&ev), before);
    // Exactly the field fits.
    let fits = text.replace("rounds = 7\n", "rounds = 7\nmax_players = 150\n");
    update(&ev, "fits.toml", &fits).stderr_empty().check();

    // Jinhua 青少年组 is under 16; under 12 its registered players no longer qualify.
    let tmp = tempfile::TempDir::new().unwrap();
    let jinhua = root("rules/jinhua-2018.toml");
    printed(tmp.path(), &["init", "ev", "--rules", p(&jinhua)]);
    let csv = root("examples/jinhua-2018/registrations.csv");
    en(tmp.path(), &["--event", "ev", "import", p(&csv)])
        .stderr_empty()
        .check();
    let ev = tmp.path().join("ev");
    let before = crate::common::snapshot(&ev);
    let text = fs::read_to_string(&jinhua).unwrap();
    assert!(text.contains("under_age = 16\n"));
    let err = refused(
        update(
            &ev,
            "young.toml",
            &text.replacen("under_age = 16\n", "under_age = 12\n", 1),
        ),
        &["no longer meets the new conditions of group `youth`"],
    );
    assert!(!err.contains("33070"), "an ID number in: {err}");
    assert_eq!(crate::common::snapshot(&ev), before);
}

/// A group left below a new `min_size` before its round 1 is what the regulation
/// provides for (Dongguan 九: merged or cancelled): accepted, with a note saying so.
#[test]
fn a_pool_below_its_new_minimum_is_accepted_with_a_note() {
    let (_tmp, ev, text) = cxa_event(10);
    let out = update(
        &ev,
        "min.toml",
        &text.replace("name = \"公开组\"", "name = \"公开组\"\nmin_size = 12"),
    )
    .stderr_empty()
    .check()
    .stdout;
    assert!(
        out.contains("group `open` has 10 players, fewer than its new `min_size` `12`"),
        "{out}"
    );
}

/// Issue 42 §3: `rules update` with `[colours] max_streak = 1` made `check` fail on the
/// rounds already played. They are judged by the rulebook they were paired under; the
/// next round is paired and judged under the new one.
#[test]
fn a_colour_rule_changes_from_the_next_round_and_check_judges_each_round_by_its_own() {
    let (_tmp, ev, text) = cxa_event(12);
    let dir = ev.parent().unwrap();
    let e = |args: &[&str]| {
        let mut all = vec!["--event", p(&ev)];
        all.extend(args);
        en(dir, &all)
    };
    let draws = [
        "result", "1", "=", "2", "=", "3", "=", "4", "=", "5", "=", "6", "=",
    ];
    let state = || -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(ev.join("qiwang.json")).unwrap()).unwrap()
    };
    e(&["pair", "--seed", "7"]).stderr_empty().check();
    e(&draws).stderr_empty().check();
    e(&["pair"]).stderr_empty().check();
    // Round 2, table 1 with its colours turned: both players keep their round-1 colour,
    // a run of two that `max_streak = 2` allows and `max_streak = 1` does not.
    let game = state()["groups"]["open"]["rounds"][1]["pairings"][0].clone();
    let (table, red, black) = (
        game["table"].to_string(),
        game["red"].to_string(),
        game["black"].to_string(),
    );
    e(&["pairing", "set", &table, &black, &red])
        .stderr_empty()
        .check();
    e(&draws).stderr_empty().check();
    e(&["pair"]).stderr_empty().check();
    e(&draws).stderr_empty().check();
    e(&["pair"]).stderr_empty().check();
    // Rounds 1–4 paired, 1–3 played.
    e(&["check"]).stderr_empty().check();
    // Round 2's turned colours are not optimal.
    let not_optimal = "error: 1 round not optimal, with colours not by the rules, with \
                       hard-rule breaks not recorded, or not comparable\n";
    let optimal = e(&["check", "--optimal"])
        .status(3)
        .stdout_has("round 2: not optimal")
        .stderr_is(not_optimal)
        .check()
        .stdout;
    let strict = text.replace("max_streak = 2", "max_streak = 1");
    assert_ne!(strict, text);
    let out = update(&ev, "strict.toml", &strict)
        .stderr_empty()
        .check()
        .stdout;
    assert!(
        out.contains("group `open` is paired under the new pairing and colour rules from round 5"),
        "{out}"
    );
    e(&["check"]).stderr_empty().check();
    // `check --optimal` re-solves each round under its own rules.
    e(&["check", "--optimal"])
        .status(3)
        .stdout_is(&optimal)
        .stderr_is(not_optimal)
        .check();

    // The state records it: without the record, the same rounds break the new rule (as
    // `check` judged them before).
    let state = state();
    assert_eq!(state["schema_version"], 6);
    assert_eq!(state["earlier_rulebooks"][0], serde_json::json!(text));
    let under = &state["groups"]["open"]["paired_under"];
    assert_eq!(under.as_array().map(Vec::len), Some(4), "{under}");
    let mut forgotten = state.clone();
    forgotten
        .as_object_mut()
        .unwrap()
        .remove("earlier_rulebooks");
    forgotten["groups"]["open"]
        .as_object_mut()
        .unwrap()
        .remove("paired_under");
    let copy = tempfile::TempDir::new().unwrap();
    crate::common::copy_event(&ev, copy.path());
    fs::write(
        copy.path().join("qiwang.json"),
        serde_json::to_string_pretty(&forgotten).unwrap(),
    )
    .unwrap();
    en(dir, &["--event", p(copy.path()), "check"])
        .status(3)
        .stdout_has("round 2: player `选手")
        .stderr_has("of the hard pairing rules")
        .check();

    // Round 4 paired again is paired under the new rules and judged by them.
    e(&["unpair"]).stderr_empty().check();
    e(&["pair", "--relax", "colour"]).stderr_empty().check();
    e(&["check"]).stderr_empty().check();
    let state: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(ev.join("qiwang.json")).unwrap()).unwrap();
    let rounds: Vec<u64> = state["groups"]["open"]["paired_under"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["round"].as_u64().unwrap())
        .collect();
    assert_eq!(rounds, vec![1, 2, 3]);
}

/// The record is validated when the event is loaded: a hand edit pointing a round at a
/// rulebook the state does not keep, or a kept rulebook that no longer validates, is
/// refused with the key, as a damaged `rules_toml` is.
#[test]
fn a_damaged_rulebook_record_is_refused_on_load() {
    let (_tmp, ev, text) = cxa_event(4);
    let dir = ev.parent().unwrap();
    en(dir, &["--event", p(&ev), "pair", "--seed", "1"])
        .stderr_empty()
        .check();
    update(
        &ev,
        "strict.toml",
        &text.replace("max_streak = 2", "max_streak = 3"),
    )
    .stderr_empty()
    .check();
    let good = fs::read_to_string(ev.join("qiwang.json")).unwrap();
    let state: serde_json::Value = serde_json::from_str(&good).unwrap();
    let cases = [
        (
            "/groups/open/paired_under/0/rulebook",
            serde_json::json!(5),
            "`earlier_rulebooks[5]`",
        ),
        (
            "/earlier_rulebooks/0",
            serde_json::json!("[event]\nrounds = 0\n"),
            "`earlier_rulebooks[0]`",
        ),
    ];
    for (pointer, value, word) in cases {
        let mut bad = state.clone();
        *bad.pointer_mut(pointer).unwrap() = value;
        fs::write(ev.join("qiwang.json"), serde_json::to_string(&bad).unwrap()).unwrap();
        refused(
            en(dir, &["--event", p(&ev), "check"]),
            &[word, "does not validate"],
        );
    }
    fs::write(ev.join("qiwang.json"), good).unwrap();
    en(dir, &["--event", p(&ev), "check"])
        .stderr_empty()
        .check();
}

/// A workbook is counted the same way: a sheet far over the maximum stops reading at its
/// row, named by file and sheet; files read before it count towards the total.
#[test]
fn a_workbook_over_the_maximum_stops_at_its_row() {
    use qiwang::model::PlayerId;
    use qiwang::registration::{BatchOptions, RegistrationFile, read_batch};
    let mut rules = qiwang::rulebook::Rulebook::from_toml(
        &fs::read_to_string(root("rules/cxa-2011.toml")).unwrap(),
        "cxa-2011.toml",
    )
    .unwrap();
    rules.event.max_players = Some(20);
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    ws.set_name("报名").unwrap();
    ws.write_row(0, 0, ["姓名", "性别", "单位"]).unwrap();
    for r in 1..=200u32 {
        ws.write_row(r, 0, [format!("棋手{r}"), "男".into(), format!("单位{r}")])
            .unwrap();
    }
    let bytes = wb.save_to_buffer().unwrap();
    let first = sheet_of(15);
    let files = [
        RegistrationFile {
            source: "first.csv".into(),
            bytes: first.as_bytes(),
        },
        RegistrationFile {
            source: "big.xlsx".into(),
            bytes: &bytes,
        },
    ];
    let err = read_batch(
        &files,
        &BatchOptions::default(),
        &rules,
        &[],
        &Default::default(),
        PlayerId(1),
    )
    .unwrap_err();
    assert_eq!(err.errors.len(), 1, "{err}");
    let shown = err.to_string();
    // 15 read from the CSV; the workbook's rows 1–17 (header included) fit the 5 left
    // with the 11 rows that may be no player, row 18 does not.
    assert!(shown.contains("big.xlsx"), "{shown}");
    assert!(shown.contains("报名"), "{shown}");
    assert!(
        shown.contains("by line 18, where reading stopped"),
        "{shown}"
    );
    // Under the limit, the exact count decides.
    rules.event.max_players = Some(215);
    assert_eq!(
        read_batch(
            &files,
            &BatchOptions::default(),
            &rules,
            &[],
            &Default::default(),
            PlayerId(1)
        )
        .unwrap()
        .players
        .len(),
        215
    );
}
