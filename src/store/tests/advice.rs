//! Tests of the way back from a damaged `qiwang.json` (`advice.rs`): after every change,
//! undo and redo of a sequence, a copy of the event has its state file cut short, and
//! the advice of the refusal, followed literally, must give back the state byte for byte:
//! whole snapshots (a small event) and steps (a large one).

use super::steps::{big_event, result};
use super::*;
use crate::sanitize::shell_path;

#[derive(Debug, Clone, Copy)]
enum Op {
    /// The change numbered so (a penalty, or a result at that table).
    Change(usize),
    Undo,
    Redo,
}

use Op::{Change as C, Redo as R, Undo as U};

/// Adds penalty `k` (its reason names it).
fn penalty_k(store: &Store, k: usize) {
    store
        .transaction(&command("penalty"), |event| {
            event.penalties.push(penalty(k));
            Ok::<_, Infallible>(Change::changed((), "penalty", serde_json::Value::Null))
        })
        .unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// What the advice says to do after putting the snapshot back.
#[derive(Debug, PartialEq)]
struct Then {
    /// Whether `qiwang undo` runs first.
    undo: bool,
    /// The steps to redo by hand, in order.
    redo: Vec<u64>,
}

/// Does what `hint` says, literally: its `gzip -dc SNAPSHOT > STATE` (done here with
/// flate2, as gzip would); returns what it says to do after that, to the event in `dir`.
fn follow(hint: &Text, dir: &Path) -> Then {
    let en = &hint.en;
    let start = en.find("(`gzip -dc ").expect("a command to unpack") + "(`gzip -dc ".len();
    let command = &en[start..start + en[start..].find('`').unwrap()];
    let (snapshot, state) = command.split_once(" > ").unwrap();
    let packed = fs::read(snapshot).unwrap();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&packed[..]), &mut bytes).unwrap();
    fs::write(state, bytes).unwrap();
    let steps = |list: &str| -> Vec<u64> {
        list.split(", ")
            .map(|s| s.trim_start_matches('#').parse().unwrap())
            .collect()
    };
    if let Some((_, rest)) = en.split_once(" undo` (it undoes step #") {
        // The undo reaches the event broken, by its path.
        let undo = format!("then run `qiwang --event {} undo`", shell_path(dir));
        assert!(en.contains(&undo), "{en}");
        let (_, redo) = rest.split_once("then redo step ").unwrap();
        let one = redo.split(':').next().unwrap();
        assert!(rest.starts_with(&one[1..]), "{en}");
        return Then {
            undo: true,
            redo: steps(one),
        };
    }
    let redo = match en.split_once("then redo steps ") {
        None => {
            assert!(en.ends_with(", and redo nothing"), "{en}");
            Vec::new()
        }
        Some((_, rest)) => steps(rest.split(" in this order").next().unwrap()),
    };
    Then { undo: false, redo }
}

/// Runs `ops` on `store` (`change` makes change k); after each, breaks a copy and
/// follows the advice. Returns the advice given after each op.
fn assert_advice_restores(store: &Store, ops: &[Op], change: fn(&Store, usize)) -> Vec<Text> {
    let mut changes = BTreeMap::new();
    let mut hints = Vec::new();
    for &op in ops {
        match op {
            C(k) => {
                change(store, k);
                changes.insert(store.log().unwrap().last_seq(), k);
            }
            U => {
                store.undo(&command("undo")).unwrap();
            }
            R => {
                store.redo(&command("redo")).unwrap();
            }
        }
        let expected = fs::read(store.state_path()).unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let copy = Store::at(&scratch.path().join("ev"));
        copy_dir(store.dir(), copy.dir());
        fs::write(copy.state_path(), &expected[..expected.len() / 2]).unwrap();
        let hint = match copy.load().unwrap_err() {
            StoreError::Damaged { recovery, .. } => recovery,
            other => panic!("{other}"),
        };
        crate::i18n::facts::assert_same(&hint.zh, &hint.en);
        let then = follow(&hint, copy.dir());
        if then.undo {
            copy.undo(&command("undo")).unwrap();
        }
        for seq in &then.redo {
            change(&copy, changes[seq]);
        }
        // The changes redone by hand are logged anew, so their state carries a new number.
        let restored = fs::read(copy.state_path()).unwrap();
        assert!(
            if then.redo.is_empty() {
                restored == expected
            } else {
                unnumbered(&restored) == unnumbered(&expected)
            },
            "after {op:?}, following the advice gives another state: {hint}"
        );
        hints.push(hint);
    }
    hints
}

use std::collections::BTreeMap;

/// The last line an undo, whose own snapshot is
/// the state *before* it. The advice names the snapshot it restored, with nothing to redo.
#[test]
fn the_advice_gives_back_the_state_after_undos_and_redos_of_whole_snapshots() {
    let (_tmp, store) = new_event();
    let ops = [C(1), C(2), U, U, R, C(3), U, R, C(4)];
    let hints = assert_advice_restores(&store, &ops, penalty_k);
    // After the first undo (line 4, of line 3): the snapshot of line 3, which it restored.
    assert!(
        hints[2].en.contains("000003-penalty.json.gz"),
        "{}",
        hints[2]
    );
    assert!(hints[2].en.ends_with("and redo nothing"), "{}", hints[2]);
    // After a change: the snapshot before it, an undo that records the change as undone,
    // and that change again.
    assert!(
        hints[8]
            .en
            .contains(" undo` (it undoes step #10: restores the state before change #10")
            && hints[8]
                .en
                .contains("then redo step #10: #10 `qiwang --event ")
            && hints[8].en.ends_with("/ev penalty`"),
        "{}",
        hints[8]
    );
}

/// A large event keeps most changes as steps (`.diff.gz`), which are no state by
/// themselves: the advice goes back to a whole snapshot and lists the changes in effect
/// since, the undone ones left out.
#[test]
fn the_advice_gives_back_the_state_of_an_event_kept_as_steps() {
    let (_tmp, store) = big_event();
    let ops = [C(1), C(2), C(3), C(4), C(5), U, U, R, C(6), U, U, R, R];
    let hints = assert_advice_restores(&store, &ops, result);
    let names = state::list_snapshots(&store.history_dir()).unwrap();
    assert!(names.iter().filter(|s| snapshots::is_step(&s.name)).count() > 6);
    // After the undo of line 5 (change 4) as line 12: the whole snapshot before line 2
    // (the first change), then lines 2–4 again; lines 5, 6 and 10 are undone.
    let hint = &hints[10];
    assert!(
        hint.en
            .contains("000002-result.json.gz` (the state after step #1)"),
        "{hint}"
    );
    assert!(
        hint.en.contains(
            "/ev undo` (it undoes step #4: restores the state before change #4 from history/, with steps #2, #3 in it"
        ),
        "{hint}"
    );
}

/// Without an audit trail to read, the advice names the newest whole snapshot this qiwang
/// reads, passing over damaged ones and steps.
#[test]
fn without_an_audit_trail_the_advice_names_the_newest_readable_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path());
    let history = store.history_dir();
    fs::create_dir(&history).unwrap();
    assert!(
        store
            .recovery_hint()
            .en
            .contains("has no readable snapshot")
    );
    let valid = state::encode(&Event::new("[event]\n".into()), 0);
    fs::write(history.join("000002-a.json"), &valid).unwrap();
    fs::write(history.join("000003-b.json"), &valid).unwrap();
    fs::write(history.join("000004-c.json"), b"{").unwrap();
    let hint = store.recovery_hint();
    let state = dir.path().join("qiwang.json");
    let old = history.join("000003-b.json");
    let copy = format!(
        "copy the snapshot `{}` (the state before change #3) over `{}` (`cp {} {}`), then",
        old.display(),
        state.display(),
        old.display(),
        state.display()
    );
    assert!(hint.en.contains(&copy), "{hint}");
    // A compressed one is named with the command that unpacks it.
    fs::write(history.join("000005-d.json.gz"), state::compress(&valid)).unwrap();
    fs::write(history.join("000006-e.json.gz"), &valid[..9]).unwrap();
    let hint = store.recovery_hint();
    let unpack = format!(
        "`gzip -dc {} > {}`",
        history.join("000005-d.json.gz").display(),
        state.display()
    );
    assert!(hint.en.contains(&unpack), "{hint}");
    // A step is no state by itself: never named, even when it unpacks.
    fs::write(history.join("000007-f.diff.gz"), state::compress(&valid)).unwrap();
    assert!(store.recovery_hint().en.contains(&unpack));
}

/// Following the advice after a damaged state leaves the change redone by hand in effect
/// once: the first undo reverts it, and the next undo reverts the change before it, each
/// changing the state (redoing it on the bare snapshot left it twice in effect, and the
/// second undo reported undoing a change it did not revert).
#[test]
fn after_the_advice_each_undo_reverts_one_change() {
    let (_tmp, store) = new_event();
    penalty_k(&store, 1);
    penalty_k(&store, 2);
    let good = fs::read(store.state_path()).unwrap();
    fs::write(store.state_path(), &good[..good.len() / 2]).unwrap();
    let hint = match store.load().unwrap_err() {
        StoreError::Damaged { recovery, .. } => recovery,
        other => panic!("{other}"),
    };
    crate::i18n::facts::assert_same(&hint.zh, &hint.en);
    let then = follow(&hint, store.dir());
    assert_eq!(
        then,
        Then {
            undo: true,
            redo: vec![3]
        }
    );
    store.undo(&command("undo")).unwrap();
    penalty_k(&store, 2);
    assert_eq!(
        unnumbered(&fs::read(store.state_path()).unwrap()),
        unnumbered(&good)
    );
    let undone = store.undo(&command("undo")).unwrap();
    assert_eq!((undone.undone.seq, count(&store)), (5, 1));
    let undone = store.undo(&command("undo")).unwrap();
    assert_eq!((undone.undone.seq, count(&store)), (2, 0));
    assert!(matches!(
        store.undo(&command("undo")),
        Err(StoreError::NothingToUndo)
    ));
}
