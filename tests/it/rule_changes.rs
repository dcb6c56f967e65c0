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
