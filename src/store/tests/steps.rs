//! Tests of the history of a large event, kept as steps (`snapshots.rs`): what a change
//! costs, undo and redo through steps, damage, hand edits, old snapshots and crashes.

use super::*;
use crate::model::{Pairing, Player, Round};
use crate::store::snapshots::{MAX_DEPTH, WHOLE_BELOW};

/// An event of 600 players and one round of 300 games: a state of some 150 KB,
/// well above [`WHOLE_BELOW`].
pub(super) fn big_event() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let open = GroupId::new("open");
    let mut event = Event::new(RULES.into());
    for id in 1..=600 {
        let mut p = Player::new(PlayerId(id), format!("棋手{id}"), open.clone());
        p.unit = format!("单位{}", id % 37);
        event.players.push(p);
    }
    let pairings = (0..300)
        .map(|t| Pairing::Game {
            table: t + 1,
            red: PlayerId(2 * t + 1),
            black: PlayerId(2 * t + 2),
            result: None,
        })
        .collect();
    event.group_mut(&open).rounds.push(Round {
        number: 1,
        pairings,
    });
    assert!(state::encode(&event, 0).len() > 2 * WHOLE_BELOW);
    let store = Store::init(&dir.path().join("ev"), RULES, &event, &command("init")).unwrap();
    (dir, store)
}

/// Records the result of table `table` (1-based): one line of the state changes.
pub(super) fn result(store: &Store, table: usize) {
    store
        .transaction(&command("result"), |event| {
            let round = &mut event.group_mut(&GroupId::new("open")).rounds[0];
            if let Pairing::Game { result, .. } = &mut round.pairings[table - 1] {
                *result = Some(crate::model::GameResult::new(crate::model::Outcome::Draw));
            }
            Ok::<_, Infallible>(Change::changed((), "result", serde_json::Value::Null))
        })
        .unwrap();
}

fn penalty(store: &Store, n: usize) {
    store
        .transaction(&command("penalty"), |event| {
            event.penalties.push(Penalty {
                player: PlayerId(1),
                points: Points(1),
                reason: format!("p{n}"),
                after_round: 0,
                paired_round: 0,
            });
            Ok::<_, Infallible>(Change::changed((), "penalty", serde_json::Value::Null))
        })
        .unwrap();
}

fn state_bytes(store: &Store) -> Vec<u8> {
    fs::read(store.state_path()).unwrap()
}

fn history_names(store: &Store) -> Vec<String> {
    state::list_snapshots(&store.history_dir())
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect()
}

fn size(store: &Store, name: &str) -> u64 {
    fs::metadata(store.history_dir().join(name)).unwrap().len()
}

/// Every history file rebuilds the state before its change, and the audit names them.
fn assert_states(store: &Store, before: &[Vec<u8>]) {
    let trail = store.log().unwrap();
    let named: Vec<String> = trail
        .entries
        .iter()
        .filter_map(|e| e.snapshot.clone())
        .collect();
    assert_eq!(history_names(store), named);
    assert_eq!(named.len(), before.len());
    for (name, expected) in named.iter().zip(before) {
        assert!(
            store.read_snapshot(name).unwrap() == *expected,
            "{name} rebuilds another state"
        );
    }
}

/// The issue's measure: a single-table result on a large event costs a few hundred bytes
/// of history, not a snapshot of the event. (Before steps, each one took a whole gzip
/// snapshot: about a tenth of the state.)
#[test]
fn a_single_result_costs_history_in_proportion_to_the_change() {
    let (_tmp, store) = big_event();
    let state_len = state_bytes(&store).len();
    let mut before = Vec::new();
    for table in 1..=40 {
        before.push(state_bytes(&store));
        result(&store, table);
    }
    let names = history_names(&store);
    // A whole snapshot starts the history and follows every MAX_DEPTH steps; every other
    // result costs a step of a few hundred bytes.
    let wholes = names.len().div_ceil(MAX_DEPTH as usize + 1);
    let sizes: Vec<u64> = names.iter().map(|n| size(&store, n)).collect();
    let small = sizes.iter().filter(|&&b| b < 600).count();
    assert_eq!(
        small,
        names.len() - wholes,
        "bytes of history per single result on a {state_len}-byte state: {sizes:?}"
    );
    let steps = names.iter().filter(|n| n.ends_with(".diff.gz")).count();
    assert_eq!(steps, names.len() - wholes, "{names:?}");
    let total: u64 = names.iter().map(|n| size(&store, n)).sum();
    let whole = state::compress(&before[0]).len() as u64;
    assert!(
        total * 4 < whole * names.len() as u64,
        "{total} bytes for {} changes; whole snapshots take {whole} each",
        names.len()
    );
    assert_states(&store, &before);
}

#[test]
fn undo_and_redo_walk_through_steps_exactly() {
    let (_tmp, store) = big_event();
    let mut states = vec![state_bytes(&store)];
    for table in 1..=MAX_DEPTH as usize + 4 {
        result(&store, table);
        states.push(state_bytes(&store));
    }
    // Undo all the way back, each undo restoring the state before its change exactly.
    for expected in states.iter().rev().skip(1) {
        store.undo(&command("undo")).unwrap();
        assert!(state_bytes(&store) == *expected);
    }
    assert!(matches!(
        store.undo(&command("undo")),
        Err(StoreError::NothingToUndo)
    ));
    // Redo all the way forward again.
    for expected in states.iter().skip(1) {
        store.redo(&command("redo")).unwrap();
        assert!(state_bytes(&store) == *expected);
    }
    // The undos and redos are steps too, and every file still rebuilds a valid state.
    let trail = store.log().unwrap();
    let names = history_names(&store);
    for (name, e) in names.iter().zip(&trail.entries[1..]) {
        assert_eq!(e.snapshot.as_deref(), Some(name.as_str()));
    }
    assert!(names.iter().filter(|n| n.ends_with(".diff.gz")).count() > names.len() / 2);
    for name in &names {
        let state = store.read_snapshot(name).unwrap();
        assert!(states.contains(&state), "{name}");
    }
}

/// A damaged step is reported by name and never applied; the states that are not rebuilt
/// through it still undo.
#[test]
fn a_damaged_step_is_detected_and_spoils_only_what_builds_on_it() {
    let (_tmp, store) = big_event();
    let mut before = Vec::new();
    for table in 1..=6 {
        before.push(state_bytes(&store));
        result(&store, table);
    }
    let names = history_names(&store);
    assert!(names[0].ends_with(".json.gz") && names[1].ends_with(".diff.gz"));
    // Change #4's file (the state before #4 is rebuilt from it, and so are the states
    // before #5 … #7) is rewritten with one result changed: a valid gzip file, a valid
    // delta, the wrong bytes.
    let victim = store.history_dir().join(&names[2]);
    let mut raw = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&fs::read(&victim).unwrap()[..]),
        &mut raw,
    )
    .unwrap();
    let text = String::from_utf8(raw).unwrap();
    assert!(text.contains("draw"), "{text}");
    fs::write(
        &victim,
        state::compress(text.replace("draw", "DRAW").as_bytes()),
    )
    .unwrap();
    let current = state_bytes(&store);
    // Undo of #7 rebuilds the state before #7 through #4's step: refused, nothing written.
    let err = store.undo(&command("undo")).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("`{}` is damaged: ", victim.display()))
            && err.contains("does not match the checksum recorded for it"),
        "{err}"
    );
    assert_eq!(state_bytes(&store), current);
    assert_eq!(store.log().unwrap().entries.len(), 7);
    // The states before #2 and #3 do not depend on it.
    assert_eq!(store.read_snapshot(&names[0]).unwrap(), before[0]);
    assert_eq!(store.read_snapshot(&names[1]).unwrap(), before[1]);
    // A step cut short or not a step at all is refused as well.
    fs::write(&victim, &fs::read(&victim).unwrap()[..20]).unwrap();
    let err = store.read_snapshot(&names[4]).unwrap_err().to_string();
    assert!(err.contains("is not a whole gzip file"), "{err}");
    fs::remove_file(&victim).unwrap();
    let err = store.read_snapshot(&names[3]).unwrap_err().to_string();
    assert!(
        err.contains(&format!("`{}`, is missing", victim.display())),
        "{err}"
    );
}

/// Undo and redo never read back from `qiwang.json`: after a hand edit the next change
/// starts a whole snapshot, and undo restores the exact states before the changes.
#[test]
fn a_hand_edit_between_changes_starts_a_whole_snapshot() {
    let (_tmp, store) = big_event();
    result(&store, 1); // #2 whole
    result(&store, 2); // #3 step
    let before_4 = {
        let mut event = store.load().unwrap();
        event.players[10].name = "手改".into();
        let bytes = state::encode(&event, 0);
        fs::write(store.state_path(), &bytes).unwrap();
        bytes
    };
    result(&store, 3); // #4: the chain is broken, so whole
    result(&store, 4); // #5 step
    let names = history_names(&store);
    assert!(names[1].ends_with(".diff.gz"), "{names:?}");
    assert!(names[2].ends_with(".json.gz"), "{names:?}");
    assert!(names[3].ends_with(".diff.gz"), "{names:?}");
    assert_eq!(store.read_snapshot(&names[2]).unwrap(), before_4);
    // Edited again, then undone: the state before #5 comes back, not the edit.
    let edited_again = {
        let mut event = store.load().unwrap();
        event.players[20].name = "又改".into();
        state::encode(&event, 0)
    };
    let before_5 = store.read_snapshot(&names[3]).unwrap();
    fs::write(store.state_path(), &edited_again).unwrap();
    store.undo(&command("undo")).unwrap();
    assert_eq!(state_bytes(&store), before_5);
    // The redo restores what that undo replaced: the edited state, kept whole.
    store.redo(&command("redo")).unwrap();
    assert_eq!(state_bytes(&store), edited_again);
}

/// An event whose history holds snapshots written by an older qiwang (plain `.json` and
/// `.json.gz`): new steps build on them, and undo walks back into them.
#[test]
fn steps_follow_old_snapshots_and_undo_walks_back_into_them() {
    let (_tmp, store) = big_event();
    let s1 = state_bytes(&store);
    result(&store, 1);
    let s2 = state_bytes(&store);
    result(&store, 2);
    // As an older qiwang left them: #2 as plain JSON, #3 as a whole gzip snapshot.
    let names = history_names(&store);
    assert_eq!(
        names,
        vec!["000002-result.json.gz", "000003-result.diff.gz"]
    );
    fs::remove_file(store.history_dir().join(&names[0])).unwrap();
    fs::write(store.history_dir().join("000002-result.json"), &s1).unwrap();
    fs::remove_file(store.history_dir().join(&names[1])).unwrap();
    fs::write(
        store.history_dir().join("000003-result.json.gz"),
        state::compress(&s2),
    )
    .unwrap();
    let audit = fs::read_to_string(store.audit_path()).unwrap();
    fs::write(
        store.audit_path(),
        audit
            .replace("000002-result.json.gz", "000002-result.json")
            .replace("000003-result.diff.gz", "000003-result.json.gz"),
    )
    .unwrap();
    let s3 = state_bytes(&store);
    result(&store, 3); // #4 links to the old #3
    let s4 = state_bytes(&store);
    result(&store, 4); // #5
    let names = history_names(&store);
    assert_eq!(
        &names[2..],
        ["000004-result.diff.gz", "000005-result.diff.gz"]
    );
    for expected in [&s4, &s3, &s2, &s1] {
        store.undo(&command("undo")).unwrap();
        assert!(state_bytes(&store) == *expected);
    }
    for _ in 0..4 {
        store.redo(&command("redo")).unwrap();
    }
    assert_eq!(store.log().unwrap().entries.len(), 13);
    penalty(&store, 1);
    assert_eq!(store.load().unwrap().penalties.len(), 1);
}

/// A step interrupted at each point of the crash protocol recovers to the state before
/// or after, and the history still rebuilds every state.
#[test]
fn a_step_interrupted_at_every_point_recovers() {
    for point in 0..4 {
        let (_tmp, store) = big_event();
        result(&store, 1);
        result(&store, 2);
        let before = state_bytes(&store);
        let mut event = store.load().unwrap();
        if let Pairing::Game { result, .. } =
            &mut event.group_mut(&GroupId::new("open")).rounds[0].pairings[2]
        {
            *result = Some(crate::model::GameResult::new(crate::model::Outcome::RedWin));
        }
        let after = state::encode(&event, 0);
        let snapshots = store.snapshots().unwrap();
        let mut entry = store.next_entry(
            &store.writable_audit(&snapshots).unwrap(),
            &snapshots,
            &command("result"),
            EntryKind::Change,
            "r".into(),
            serde_json::Value::Null,
        );
        let (name, bytes) = store
            .history_file(
                entry.snapshot.as_deref().unwrap(),
                &before,
                &after,
                &snapshots,
            )
            .unwrap();
        assert!(name.ends_with(".diff.gz"), "{name}");
        entry.snapshot = Some(name.clone());
        fsio::write_atomic(&store.journal_path(), &entry.to_line()).unwrap();
        if point >= 1 {
            fsio::write_atomic(&store.history_dir().join(&name), &bytes).unwrap();
        }
        if point >= 2 {
            fsio::write_atomic(&store.state_path(), &after).unwrap();
        }
        if point >= 3 {
            fsio::append_synced(&store.audit_path(), &entry.to_line()).unwrap();
        }
        let expected = match point {
            0 | 1 => Recovery::Discarded { seq: 4 },
            2 => Recovery::Completed { seq: 4 },
            _ => Recovery::AlreadyLogged { seq: 4 },
        };
        assert_eq!(store.recover().unwrap(), Some(expected), "point {point}");
        let landed = point >= 2;
        assert!(
            state_bytes(&store)
                == if landed {
                    after.clone()
                } else {
                    before.clone()
                }
        );
        assert_eq!(history_names(&store).len(), if landed { 3 } else { 2 });
        if landed {
            assert_eq!(store.read_snapshot(&name).unwrap(), before);
            store.undo(&command("undo")).unwrap();
            assert_eq!(state_bytes(&store), before);
        }
    }
}

/// A change, an undo and a redo each list `history/` once, under the lock, and number
/// themselves, check the trail and write their step from that list: on an event with
/// hundreds of files each listing costs.
#[test]
fn a_change_lists_history_once() {
    use crate::store::state::tests::LISTINGS;
    let (_dir, store) = big_event();
    result(&store, 1);
    result(&store, 2);
    let listings = |run: &dyn Fn()| {
        LISTINGS.with(|n| n.set(0));
        run();
        LISTINGS.with(std::cell::Cell::get)
    };
    assert_eq!(listings(&|| result(&store, 3)), 1);
    assert!(snapshot_names(&store).last().unwrap().ends_with(".diff.gz"));
    assert_eq!(listings(&|| drop(store.undo(&command("undo")).unwrap())), 1);
    assert_eq!(listings(&|| drop(store.redo(&command("redo")).unwrap())), 1);
}
