//! `qiwang result` has no report to render: `--format json` (or any format but the
//! default table) is refused as a usage error that names the formats it takes, before the
//! event is touched, instead of printing plain text a script would take for JSON.

use crate::common::{Run, small_event, snapshot};

#[test]
fn result_refuses_a_format_it_cannot_print_and_records_nothing() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    Run::on_event(&ev, &["pair", "--seed", "1"]).check();
    let before = snapshot(&ev);
    for format in ["json", "csv", "html"] {
        Run::on_event(&ev, &["--format", format, "result", "1", "1-0"])
            .status(2)
            .stdout_empty()
            .stderr_has("--format table")
            .check();
        Run::on_event(
            &ev,
            &["--lang", "en", "--format", format, "result", "1", "1-0"],
        )
        .status(2)
        .stderr_has("`qiwang result` confirms in plain text only")
        .check();
    }
    assert!(
        snapshot(&ev) == before,
        "a refused result changed the event"
    );
    // The default format records it, and the round's JSON then shows it.
    Run::on_event(&ev, &["result", "1", "1-0"])
        .stdout_has("已记录 1 个结果")
        .check();
    let round = Run::on_event(&ev, &["--format", "json", "round"]).check();
    assert!(
        round.stdout.contains(r#""result": "1-0""#),
        "{}",
        round.stdout
    );
}

/// `penalty`, `warn` and `playoff` confirm in plain text too: another `--format` is
/// refused the same way, naming the command, and nothing is recorded.
#[test]
fn penalty_warn_and_playoff_refuse_a_format_they_cannot_print() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    Run::on_event(&ev, &["pair", "--seed", "1"]).check();
    let before = snapshot(&ev);
    let commands: [&[&str]; 3] = [
        &["penalty", "甲", "1", "--reason", "x"],
        &["warn", "甲", "--reason", "x"],
        &["playoff", "甲", "乙"],
    ];
    for args in commands {
        let mut argv = vec!["--lang", "en", "--format", "json"];
        argv.extend_from_slice(args);
        Run::on_event(&ev, &argv)
            .status(2)
            .stdout_empty()
            .stderr_has(&format!("`qiwang {}` confirms in plain text only", args[0]))
            .check();
    }
    assert!(
        snapshot(&ev) == before,
        "a refused command changed the event"
    );
}

/// Every command that changes the event and only confirms it refuses another `--format`
/// the same way (it printed plain text a script would take for JSON), the event untouched.
#[test]
fn every_confirming_command_refuses_a_format_it_cannot_print() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    let before = snapshot(&ev);
    let commands: [&[&str]; 9] = [
        &["rules", "update", "rules.toml"],
        &["player", "add", "--name", "戊", "--gender", "男"],
        &["player", "withdraw", "甲", "--reason", "x"],
        &["undo"],
        &["redo"],
        &["unpair"],
        &["unlock"],
        &["group", "cancel", "open"],
        &["import", "players.csv"],
    ];
    for args in commands {
        let mut argv = vec!["--lang", "en", "--format", "json"];
        argv.extend_from_slice(args);
        // The command as typed (`rules update`, not the audit log's `rules`).
        let shown = if args[0] == "import" || args.len() == 1 {
            args[0].to_string()
        } else {
            args[..2].join(" ")
        };
        Run::on_event(&ev, &argv)
            .status(2)
            .stdout_empty()
            .stderr_has(&format!("`qiwang {shown}` confirms in plain text only"))
            .check();
    }
    assert!(
        snapshot(&ev) == before,
        "a refused command changed the event"
    );
}

/// Every reading command, given each `--format`, prints it or refuses it (a usage error, or
/// nothing of that kind in the event), never with an internal error (1): a refusal's advice
/// names only options its command has (the debug build the tests run asserts that on every
/// error; `--format xlsx` of `check` advised `round --sheet slips` and failed it).
#[test]
fn every_reading_command_prints_or_refuses_each_format() {
    let (_tmp, ev) = small_event(&["甲", "乙", "丙", "丁"]);
    Run::on_event(&ev, &["pair", "--seed", "1"]).check();
    Run::on_event(&ev, &["result", "1", "r", "2", "="]).check();
    let commands: [&[&str]; 17] = [
        &["check"],
        &["group", "sizes"],
        &["log"],
        &["rules", "show"],
        &["players"],
        &["standings"],
        &["crosstable"],
        &["teams"],
        &["prizes"],
        &["round"],
        &["round", "--sheet", "slips"],
        &["round", "--sheet", "cards"],
        &["round", "--sheet", "find"],
        &["round", "--sheet", "wall"],
        &["certificates"],
        &["programme"],
        &["template"],
    ];
    let dir = ev.parent().unwrap();
    for args in commands {
        for format in ["table", "csv", "json", "html", "xlsx", "trf"] {
            for lang in ["zh", "en"] {
                let mut argv = vec!["--event", crate::common::p(&ev), "--lang", lang];
                argv.extend_from_slice(&["--format", format]);
                argv.extend_from_slice(args);
                let out = crate::common::run(dir, &argv);
                assert!(
                    ![1, 101].contains(&out.code) && !out.stderr.contains("internal error"),
                    "qiwang {}: status {}\n{}",
                    argv.join(" "),
                    out.code,
                    out.stderr
                );
            }
        }
    }
}
