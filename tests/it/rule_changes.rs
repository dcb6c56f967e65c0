//! Issue 42 §3 and §5: rulebook values that must never hang a command, rules that change
//! during an event (each round judged by the rulebook it was paired under), the
//! registration template's CSV cells, and the event's maximum number of players.

use crate::common::{p, root, run};
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `qiwang ARGS` in `cwd`, killing it after `limit`: a command that loops fails the
/// test instead of hanging the suite. Answers the exit code and stderr.
fn run_bounded(cwd: &Path, args: &[&str], limit: Duration) -> (i32, String) {
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
    run(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    )
    .ok();
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
    run(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    )
    .ok();
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
    run(tmp.path(), &["init", "ev", "--rules", p(&rules)]).ok();
    let four = tmp.path().join("four.csv");
    fs::write(&four, sheet_of(4)).unwrap();
    run(
        tmp.path(),
        &["--lang", "en", "--event", "ev", "import", p(&four)],
    )
    .fails(
        3,
        &["at most `3` players", "`event.max_players`", "remove 1 row"],
    );
    let three = tmp.path().join("three.csv");
    fs::write(&three, sheet_of(3)).unwrap();
    run(
        tmp.path(),
        &["--lang", "en", "--event", "ev", "import", p(&three)],
    )
    .ok();
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
    run(tmp.path(), &add).fails(3, &["at most `3` players", "`event.max_players`"]);

    // Without the key: 100,000 fit, 100,001 do not.
    let tmp = tempfile::TempDir::new().unwrap();
    run(
        tmp.path(),
        &["init", "ev", "--rules", p(&root("rules/cxa-2011.toml"))],
    )
    .ok();
    let over = tmp.path().join("over.csv");
    fs::write(&over, sheet_of(100_001)).unwrap();
    run(
        tmp.path(),
        &["--lang", "en", "--event", "ev", "import", p(&over)],
    )
    .fails(
        3,
        &[
            "at most `100000` players",
            "make `100001`",
            "`max_players = …`",
        ],
    );
}
