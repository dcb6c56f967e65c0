//! Tests of the store as a whole: init, transactions, undo and redo, snapshots, with the
//! helpers every store test here shares; `crashes` kills a change at each step and breaks
//! the files, `guards` checks locks, permissions and links; `steps` the history of a large event
//! kept as steps; `advice` follows the way back from a damaged state file; `unlogged` an
//! audit trail that lost lines of changes `history/` holds, and a state file deleted.

mod advice;
mod crashes;
mod guards;
mod steps;
mod unlogged;

use super::*;
use crate::model::{GroupId, Penalty, PlayerId, Points};
use std::convert::Infallible;

const RULES: &str = "[event]\nname = \"test\"\n";

fn command(name: &str) -> CommandInfo {
    CommandInfo {
        name: name.into(),
        argv: vec![name.into()],
        user: "li".into(),
        time: "2026-11-29T20:00:00Z".parse().unwrap(),
    }
}

fn new_event() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let event = Event::new(RULES.into());
    let store = Store::init(&dir.path().join("ev"), RULES, &event, &command("init")).unwrap();
    (dir, store)
}

fn penalty(n: usize) -> Penalty {
    Penalty {
        player: PlayerId(1),
        points: Points(2),
        reason: format!("p{n}"),
        after_round: 0,
        paired_round: 0,
    }
}

/// Adds one penalty: the event's "counter" is the number of penalties.
fn add_penalty(store: &Store) -> usize {
    store
        .transaction(&command("penalty"), |event| {
            event.penalties.push(penalty(event.penalties.len() + 1));
            Ok::<_, Infallible>(Change::changed(
                event.penalties.len(),
                "penalty",
                serde_json::json!({ "n": event.penalties.len() }),
            ))
        })
        .unwrap()
}

/// Tries to add a penalty where the test made that fail; the error.
fn failed_penalty(store: &Store) -> TxError<Infallible> {
    store
        .transaction(&command("penalty"), |event| {
            event.penalties.push(penalty(9));
            Ok::<_, Infallible>(Change::changed((), "p", serde_json::Value::Null))
        })
        .unwrap_err()
}

/// A state file's bytes with its `"change"` line set to 0: the event alone, whichever
/// change wrote it (a change redone by hand is logged, and so numbered, anew).
fn unnumbered(bytes: &[u8]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    stale::number(&mut bytes, 0);
    bytes
}

fn count(store: &Store) -> usize {
    store.load().unwrap().penalties.len()
}

fn snapshot_names(store: &Store) -> Vec<String> {
    state::list_snapshots(&store.history_dir())
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect()
}

fn files_of(store: &Store) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for dir in [store.dir().to_path_buf(), store.history_dir()] {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            // The lock file only names the last holder.
            if path.is_file() && !path.ends_with(LOCK_FILE) {
                files.push((path.clone(), fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn init_creates_the_event_directory() {
    let (_tmp, store) = new_event();
    assert_eq!(fs::read_to_string(store.rules_path()).unwrap(), RULES);
    assert!(store.history_dir().is_dir());
    let numbered = Event {
        change: Some(1),
        ..Event::new(RULES.into())
    };
    assert_eq!(store.load().unwrap(), numbered);
    let trail = store.log().unwrap();
    assert_eq!(trail.entries.len(), 1);
    let init = &trail.entries[0];
    assert_eq!((init.seq, init.kind), (1, EntryKind::Init));
    assert_eq!(init.user, "li");
    assert_eq!(init.command, vec!["init"]);
    assert_eq!(init.summary, "created the event with 0 players");
}

#[test]
fn init_refuses_an_existing_event_and_leaves_it_alone() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    let files = files_of(&store);
    let other = Event::new("other".into());
    let err = Store::init(store.dir(), "other", &other, &command("init")).unwrap_err();
    assert!(matches!(err, StoreError::AlreadyExists { .. }), "{err}");
    assert!(
        err.to_string().contains("qiwang.json` already exists"),
        "{err}"
    );
    assert_eq!(files_of(&store), files);
}

#[test]
fn init_refuses_the_history_of_an_event_without_its_state() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    fs::remove_file(store.state_path()).unwrap();
    let err = Store::init(
        store.dir(),
        RULES,
        &Event::new(RULES.into()),
        &command("init"),
    )
    .unwrap_err();
    // Refused as the event it is, with the snapshot that gives its state back.
    assert!(matches!(err, StoreError::Damaged { .. }), "{err}");
    assert!(err.to_string().contains("000002-penalty.json.gz"), "{err}");
}

#[test]
fn init_into_a_non_empty_directory_keeps_other_files() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("players.csv"), "name\n").unwrap();
    Store::init(
        tmp.path(),
        RULES,
        &Event::new(RULES.into()),
        &command("init"),
    )
    .unwrap();
    assert_eq!(
        fs::read_to_string(tmp.path().join("players.csv")).unwrap(),
        "name\n"
    );
}

#[test]
fn open_and_discover_find_the_event() {
    let (tmp, store) = new_event();
    let deep = store.dir().join("a/b");
    fs::create_dir_all(&deep).unwrap();
    let found = Store::discover(&deep).unwrap();
    assert_eq!(found.dir(), store.dir().canonicalize().unwrap());
    Store::open(store.dir()).unwrap();
    let err = Store::open(tmp.path()).unwrap_err();
    assert!(matches!(err, StoreError::NoEventAt { .. }), "{err}");
    let err = Store::discover(tmp.path()).unwrap_err();
    assert!(err.to_string().starts_with("no event found in `"), "{err}");
}

#[test]
fn a_change_writes_snapshot_state_and_audit_line() {
    let (_tmp, store) = new_event();
    let before = fs::read(store.state_path()).unwrap();
    assert_eq!(add_penalty(&store), 1);
    assert_eq!(count(&store), 1);
    assert_eq!(snapshot_names(&store), vec!["000002-penalty.json.gz"]);
    assert_eq!(
        store.read_snapshot("000002-penalty.json.gz").unwrap(),
        before
    );
    let trail = store.log().unwrap();
    let last = trail.entries.last().unwrap();
    assert_eq!(last.seq, 2);
    assert_eq!(last.kind, EntryKind::Change);
    assert_eq!(last.details, serde_json::json!({ "n": 1 }));
    assert_eq!(last.snapshot.as_deref(), Some("000002-penalty.json.gz"));
    assert!(!store.journal_path().exists());
    assert_eq!(trail.interrupted, None);
}

#[test]
fn unchanged_failed_and_identical_changes_write_nothing() {
    let (_tmp, store) = new_event();
    let files = files_of(&store);
    let dry = store.transaction(&command("pair"), |event| {
        event.penalties.push(penalty(1));
        Ok::<_, Infallible>(Change::Unchanged("dry run"))
    });
    assert_eq!(dry.unwrap(), "dry run");
    let failed = store.transaction(&command("pair"), |event| {
        event.penalties.push(penalty(1));
        Err::<Change<()>, _>("no legal pairing")
    });
    assert!(matches!(failed, Err(TxError::Command("no legal pairing"))));
    let same = store.transaction(&command("edit"), |_| {
        Ok::<_, Infallible>(Change::changed((), "nothing", serde_json::Value::Null))
    });
    assert!(same.is_ok());
    // Only the lock file may have appeared, and files_of leaves it out.
    assert_eq!(files_of(&store), files);
}

#[test]
fn undo_walks_back_one_change_at_a_time() {
    let (_tmp, store) = new_event();
    for _ in 0..3 {
        add_penalty(&store);
    }
    let report = store.undo(&command("undo")).unwrap();
    assert_eq!((report.seq, report.undone.seq), (5, 4));
    assert_eq!(report.restored_from, "000004-penalty.json.gz");
    assert_eq!(count(&store), 2);
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 3);
    assert_eq!(count(&store), 1);
    add_penalty(&store); // #7
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 7);
    assert_eq!(count(&store), 1);
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 2);
    assert_eq!(count(&store), 0);
    let err = store.undo(&command("undo")).unwrap_err();
    assert!(matches!(err, StoreError::NothingToUndo), "{err}");
    let trail = store.log().unwrap();
    let undos: Vec<_> = trail.entries.iter().filter_map(|e| e.undoes).collect();
    assert_eq!(undos, vec![4, 3, 7, 2]);
    assert_eq!(trail.entries[4].summary, "undid #4: penalty");
    // Every undo snapshotted the state it replaced, so it can be restored by hand.
    assert_eq!(snapshot_names(&store).len(), trail.entries.len() - 1);
}

#[test]
fn undo_if_reverts_only_a_change_it_allows_and_writes_nothing_else() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    add_penalty(&store);
    assert_eq!(store.next_undo().unwrap().seq, 3);
    let files = files_of(&store);
    let refused = store
        .undo_if(&command("undo"), |e| e.user == "someone else")
        .unwrap();
    assert_eq!(refused, None);
    assert_eq!(count(&store), 2);
    assert_eq!(files_of(&store), files);
    let done = store
        .undo_if(&command("undo"), |e| e.seq == 3 && e.user == "li")
        .unwrap()
        .unwrap();
    assert_eq!(done.undone.seq, 3);
    assert_eq!(count(&store), 1);
    assert_eq!(store.next_undo().unwrap().seq, 2);
}

#[test]
fn undo_of_a_state_restored_by_hand_only_logs() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    fs::write(
        store.state_path(),
        store.read_snapshot("000002-penalty.json.gz").unwrap(),
    )
    .unwrap();
    let report = store.undo(&command("undo")).unwrap();
    assert_eq!(report.undone.seq, 2);
    let last = store.log().unwrap().entries.pop().unwrap();
    assert_eq!((last.kind, last.snapshot), (EntryKind::Undo, None));
    assert_eq!(snapshot_names(&store), vec!["000002-penalty.json.gz"]);
}

#[test]
fn busy_event_is_refused_and_unchanged() {
    let (_tmp, store) = new_event();
    let store = store.with_busy_timeout(Duration::from_millis(50));
    let held = store.lock_within(Duration::ZERO).unwrap();
    let err = failed_penalty(&store);
    assert!(
        matches!(err, TxError::Store(StoreError::Busy { .. })),
        "{err}"
    );
    assert!(err.to_string().starts_with("event is busy"), "{err}");
    assert!(matches!(
        store.undo(&command("undo")),
        Err(StoreError::Busy { .. })
    ));
    drop(held);
    assert_eq!(count(&store), 0);
    add_penalty(&store);
}

#[test]
fn command_info_user_comes_from_the_environment() {
    let info = CommandInfo::new("result", vec!["qiwang".into(), "result".into()]);
    assert!(!info.user.is_empty());
    assert_eq!(info.time.timestamp_subsec_nanos(), 0);
    assert_eq!(info.name, "result");
}

#[test]
fn redo_restores_exactly_what_undo_reverted() {
    let (_tmp, store) = new_event();
    for _ in 0..3 {
        add_penalty(&store); // #2 #3 #4
    }
    let states: Vec<Vec<u8>> = vec![fs::read(store.state_path()).unwrap()];
    assert!(matches!(
        store.redo(&command("redo")),
        Err(StoreError::NothingToRedo)
    ));
    let plan = store.undo_plan().unwrap();
    assert_eq!(plan.undone.seq, 4);
    assert_eq!(plan.restore_from, "000004-penalty.json.gz");
    assert_eq!(plan.effects[0].en, "penalties: 3 → 2");
    assert_eq!(fs::read(store.state_path()).unwrap(), states[0]);
    store.undo(&command("undo")).unwrap(); // #5 undoes #4
    let two = fs::read(store.state_path()).unwrap();
    store.undo(&command("undo")).unwrap(); // #6 undoes #3
    assert_eq!(count(&store), 1);
    let report = store.redo(&command("redo")).unwrap(); // #7 takes back #6
    assert_eq!((report.seq, report.undo.seq, report.redone.seq), (7, 6, 3));
    assert_eq!(fs::read(store.state_path()).unwrap(), two);
    // The redone change is in effect again: undo takes it out once more.
    assert_eq!(store.undo_plan().unwrap().undone.seq, 3);
    store.redo(&command("redo")).unwrap(); // #8 takes back #5
    assert_eq!(fs::read(store.state_path()).unwrap(), states[0]);
    assert!(matches!(
        store.redo(&command("redo")),
        Err(StoreError::NothingToRedo)
    ));
    let last = store.log().unwrap().entries.pop().unwrap();
    assert_eq!(last.kind, EntryKind::Redo);
    assert_eq!(last.redoes, Some(5));
    assert_eq!(last.summary, "redid #4: penalty");
    // Undo walks back through the redone changes as through any other.
    assert_eq!(store.undo(&command("undo")).unwrap().undone.seq, 4);
    assert_eq!(fs::read(store.state_path()).unwrap(), two);
    // A new change ends what can be redone.
    add_penalty(&store);
    assert!(matches!(
        store.redo(&command("redo")),
        Err(StoreError::NothingToRedo)
    ));
    assert_eq!(
        snapshot_names(&store).len(),
        store.log().unwrap().entries.len() - 1
    );
}

/// A new event directory is durable only once its parent is synced.
#[test]
fn init_syncs_the_parent_of_every_directory_it_creates() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("a").join("ev");
    fsio::SYNCED.with(|s| *s.borrow_mut() = Some(Vec::new()));
    Store::init(&dir, RULES, &Event::new(RULES.into()), &command("init")).unwrap();
    let synced = fsio::SYNCED.with(|s| s.borrow_mut().take().unwrap());
    for needed in [tmp.path().to_path_buf(), tmp.path().join("a"), dir.clone()] {
        assert!(
            synced.contains(&needed),
            "{} not synced: {synced:?}",
            needed.display()
        );
    }
}

/// Snapshots are compressed; an old uncompressed one still undoes exactly.
#[test]
fn snapshots_are_compressed_and_old_plain_ones_still_undo() {
    let (_tmp, store) = new_event();
    store
        .transaction(&command("import"), |event| {
            for id in 1..=500 {
                event.players.push(crate::model::Player::new(
                    PlayerId(id),
                    format!("棋手{id}"),
                    GroupId::new("open"),
                ));
            }
            Ok::<_, Infallible>(Change::changed((), "import", serde_json::Value::Null))
        })
        .unwrap();
    let big = fs::read(store.state_path()).unwrap();
    add_penalty(&store); // #3
    let name = "000003-penalty.json.gz";
    let packed = fs::metadata(store.history_dir().join(name)).unwrap().len();
    assert!(
        packed * 5 < big.len() as u64,
        "{packed} bytes for a {}-byte state",
        big.len()
    );
    // The same snapshot as an older qiwang wrote it: plain JSON.
    fs::remove_file(store.history_dir().join(name)).unwrap();
    fs::write(store.history_dir().join("000003-penalty.json"), &big).unwrap();
    let trail = fs::read_to_string(store.audit_path()).unwrap();
    fs::write(
        store.audit_path(),
        trail.replace(name, "000003-penalty.json"),
    )
    .unwrap();
    store.undo(&command("undo")).unwrap();
    assert_eq!(fs::read(store.state_path()).unwrap(), big);
    store.redo(&command("redo")).unwrap();
    assert_eq!(count(&store), 1);
}

/// A change on an event read before it ([`Store::transaction_on`]) runs on that kept
/// event while the state file is unchanged, and on the state as it is under the lock when
/// another command changed it in between: that command's change is never lost. The kept
/// event is marked (a line the file's rulebook text does not hold), so the test tells the kept event
/// from a fresh reading of the same state.
#[test]
fn a_kept_event_is_used_only_while_the_state_is_unchanged() {
    let (_dir, store) = new_event();
    add_penalty(&store);
    let marked = |store: &Store, mark: &str| {
        let mut kept = store.load_kept().unwrap();
        kept.event.rules_toml.push_str(mark);
        kept
    };
    // Whether the change ran on the kept event, and the penalties after it.
    let push = |store: &Store, kept: Kept, mark: &str| {
        store
            .transaction_on(kept, &command("penalty"), |event| {
                event.penalties.push(penalty(event.penalties.len() + 1));
                Ok::<_, Infallible>(Change::changed(
                    (event.rules_toml.contains(mark), event.penalties.len()),
                    "penalty",
                    serde_json::Value::Null,
                ))
            })
            .unwrap()
    };
    // Unchanged in between: the kept event is the one changed.
    let kept = marked(&store, "\n# kept 1\n");
    assert_eq!(kept.event().penalties.len(), 1);
    assert_eq!(push(&store, kept, "# kept 1"), (true, 2));
    // Changed in between (by another command): the state is read afresh, and the change
    // sees that command's penalty.
    let kept = marked(&store, "\n# kept 2\n");
    add_penalty(&store);
    assert_eq!(
        push(&store, kept, "# kept 2"),
        (false, 4),
        "read afresh, not the kept event"
    );
    assert_eq!(store.load().unwrap().penalties.len(), 4);
}
