//! State files written by older versions of qiwang load and are migrated.
//!
//! `tests/fixtures/state-v1/` (state, audit log, rulebook) was written by qiwang with
//! schema version 1 (an
//! event of six players, two rounds): P1 withdrawn by the forfeit rule (`[auto]` reason),
//! P2 by `player withdraw` without a reason (stored as the word `voluntary`), P6 with the
//! reason 身体不适.

use crate::common::{BIN, qiwang_as, succeeded};
use qiwang::model::{PlayerStatus, SCHEMA_VERSION, WithdrawalCause};
use qiwang::store::Store;
use std::fs;
use std::path::Path;

fn fixture_event() -> tempfile::TempDir {
    let tmp = tempfile::TempDir::new().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/state-v1");
    for file in ["qiwang.json", "audit.log", "rules.toml"] {
        fs::copy(from.join(file), tmp.path().join(file)).unwrap();
    }
    // The snapshots of the old event are not kept; new ones go here.
    fs::create_dir(tmp.path().join("history")).unwrap();
    tmp
}

#[test]
fn a_schema_1_state_loads_with_typed_withdrawal_causes() {
    let tmp = fixture_event();
    let event = Store::open(tmp.path()).unwrap().load().unwrap();
    assert_eq!(event.schema_version, SCHEMA_VERSION);
    let status = |name: &str| {
        event
            .players
            .iter()
            .find(|p| p.name == name)
            .unwrap()
            .status
            .clone()
    };
    assert_eq!(
        status("P1"),
        PlayerStatus::Withdrawn {
            from_round: 3,
            cause: WithdrawalCause::Forfeits {
                rounds: vec![1, 2],
                consecutive: true
            }
        }
    );
    assert_eq!(
        status("P2"),
        PlayerStatus::Withdrawn {
            from_round: 3,
            cause: WithdrawalCause::Manual { note: None }
        }
    );
    assert_eq!(
        status("P6"),
        PlayerStatus::Withdrawn {
            from_round: 3,
            cause: WithdrawalCause::Manual {
                note: Some("身体不适".into())
            }
        }
    );
}

#[test]
fn a_migrated_state_is_saved_in_the_current_schema_without_display_text() {
    let tmp = fixture_event();
    let dir = tmp.path();
    // `player reinstate` of the automatic withdrawal, refused by schema-1 qiwang.
    let out = succeeded(
        &["player", "reinstate", "P1"],
        qiwang_as("t", dir, &["player", "reinstate", "P1"]),
    );
    // The fixture has round 3 paired (without the withdrawn players).
    assert!(String::from_utf8_lossy(&out.stdout).contains("paired again from round 4"));
    let text = fs::read_to_string(dir.join("qiwang.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["schema_version"], SCHEMA_VERSION);
    for banned in ["[auto]", "voluntary", "reason\": \"", "连续"] {
        assert!(!text.contains(banned), "`{banned}` in the saved state");
    }
    crate::common::zh(dir, &["players", "--show-private"])
        .stdout_has("自第3轮起退赛：自愿退赛")
        .stdout_has("自第3轮起退赛：身体不适")
        .stderr_empty()
        .check();
    // The arbiter's note is free text: the public list shows the withdrawal only.
    crate::common::zh(dir, &["players"])
        .stdout_has("自第3轮起退赛：自愿退赛")
        .stdout_lacks("身体不适")
        .stderr_empty()
        .check();
}

/// A hand-edited state that merges groups in a circle makes `--group`
/// commands fail with a message, not hang.
#[test]
fn a_merge_cycle_in_a_hand_edited_state_is_reported_not_followed_forever() {
    let tmp = fixture_event();
    let path = tmp.path().join("qiwang.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    json["groups"]["open"]["merged_into"] = "x".into();
    json["groups"]["x"] = serde_json::json!({ "rounds": [], "merged_into": "open" });
    fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let mut child = std::process::Command::new(BIN)
        .args(["--lang", "en", "--event"])
        .arg(tmp.path())
        .args(["standings", "--group", "open"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(30) {
            child.kill().unwrap();
            panic!(
                "`standings --group open` still runs after 30 s: the merge cycle is followed forever"
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    assert_eq!(status.code(), Some(3), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("merges groups in a circle (open → x → open)"),
        "{err}"
    );
}

/// `tests/fixtures/state-indented/` was written by qiwang at 659e257, the last before the
/// record-a-line layout (every field of `qiwang.json` on its own line): 300 players, round
/// 1 played, round 2 paired with two results; `history/` holds four whole snapshots and two
/// steps, all fully indented. Today's qiwang undoes past the pairing of round 2 and redoes
/// it, ending on the event it started from, and its own next change is written a record a
/// line and undone back to that event too.
#[test]
fn an_event_written_fully_indented_undoes_redoes_and_changes() {
    let tmp = tempfile::TempDir::new().unwrap();
    let dir = tmp.path();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/state-indented");
    fs::create_dir(dir.join("history")).unwrap();
    for file in ["qiwang.json", "audit.log", "rules.toml"] {
        fs::copy(from.join(file), dir.join(file)).unwrap();
    }
    for entry in fs::read_dir(from.join("history")).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), dir.join("history").join(entry.file_name())).unwrap();
    }
    let value = || -> serde_json::Value {
        serde_json::from_slice(&fs::read(dir.join("qiwang.json")).unwrap()).unwrap()
    };
    let run = |args: &[&str]| succeeded(args, qiwang_as("t", dir, args));
    let start = value();
    assert!(
        fs::read_to_string(dir.join("qiwang.json"))
            .unwrap()
            .contains("\"players\": [\n    {\n"),
        "the fixture is not in the older layout"
    );
    for _ in 0..3 {
        run(&["undo"]);
    }
    // Before round 2 was paired: round 1 alone, every game with its result.
    let rounds = &value()["groups"]["open"]["rounds"];
    assert_eq!(rounds.as_array().map(Vec::len), Some(1), "{rounds}");
    for _ in 0..3 {
        run(&["redo"]);
    }
    assert_eq!(value(), start);
    run(&["result", "3", "黑胜"]);
    let text = fs::read_to_string(dir.join("qiwang.json")).unwrap();
    assert!(text.contains("\"players\": [\n    {\"id\":1,"), "{text}");
    assert_eq!(
        value()["groups"]["open"]["rounds"][1]["pairings"][2]["result"]["outcome"],
        "black_win"
    );
    run(&["undo"]);
    assert_eq!(value(), start);
    crate::common::zh(dir, &["check"]).stderr_empty().check();
}
