//! Tests of the store as a whole: init, transactions, undo and redo, crash points,
//! permissions and links.

use super::*;
use crate::model::{GroupId, Penalty, PlayerId, Points};
use std::convert::Infallible;

const RULES: &str = "[event]\nname = \"test\"\n";

fn command(name: &str) -> CommandInfo {
    CommandInfo {
        name: name.into(),
        argv: vec!["qiwang".into(), name.into()],
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
    assert_eq!(store.load().unwrap(), Event::new(RULES.into()));
    let trail = store.log().unwrap();
    assert_eq!(trail.entries.len(), 1);
    let init = &trail.entries[0];
    assert_eq!((init.seq, init.kind), (1, EntryKind::Init));
    assert_eq!(init.user, "li");
    assert_eq!(init.command, vec!["qiwang", "init"]);
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
    assert!(matches!(err, StoreError::AlreadyExists { .. }), "{err}");
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

/// Where a change can be interrupted: after step `k` of the module documentation.
#[derive(Debug, Clone, Copy)]
enum CrashPoint {
    Journal,
    Snapshot,
    Rename,
    TornAuditLine,
    AuditLine,
}

/// Runs the steps of one change (adding a penalty) up to `point`, then stops as a
/// killed process would.
fn crash_after(store: &Store, point: CrashPoint) {
    let before = fs::read(store.state_path()).unwrap();
    let mut event = store.load().unwrap();
    event.penalties.push(penalty(event.penalties.len() + 1));
    let after = state::encode(&event);
    let entry = store
        .next_entry(
            &store.writable_audit().unwrap(),
            &command("penalty"),
            EntryKind::Change,
            "p".into(),
            serde_json::Value::Null,
        )
        .unwrap();
    let snapshot = store.history_dir().join(entry.snapshot.as_ref().unwrap());
    fsio::write_atomic(&store.journal_path(), &entry.to_line()).unwrap();
    // A temporary file half-written at the moment of the crash.
    fs::write(fsio::tmp_path(&snapshot), b"{\"sche").unwrap();
    if matches!(point, CrashPoint::Journal) {
        return;
    }
    fsio::write_atomic(&snapshot, &state::compress(&before)).unwrap();
    fs::write(fsio::tmp_path(&store.state_path()), &after[..10]).unwrap();
    if matches!(point, CrashPoint::Snapshot) {
        return;
    }
    fsio::write_atomic(&store.state_path(), &after).unwrap();
    let line = entry.to_line();
    match point {
        CrashPoint::Rename => {}
        CrashPoint::TornAuditLine => {
            fsio::append_synced(&store.audit_path(), &line[..line.len() / 2]).unwrap();
        }
        _ => fsio::append_synced(&store.audit_path(), &line).unwrap(),
    }
}

/// History and audit agree with the state: consecutive lines, one snapshot per
/// change line, the state is the count of change lines, no leftovers.
fn assert_consistent(store: &Store) {
    let trail = store.log().unwrap();
    assert_eq!(trail.torn_line, None);
    assert_eq!(trail.interrupted, None);
    let seqs: Vec<u64> = trail.entries.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());
    let named: Vec<String> = trail
        .entries
        .iter()
        .filter_map(|e| e.snapshot.clone())
        .collect();
    assert_eq!(snapshot_names(store), named);
    assert_eq!(count(store), trail.entries.len() - 1);
    for file in fs::read_dir(store.dir())
        .unwrap()
        .chain(fs::read_dir(store.history_dir()).unwrap())
    {
        let name = file.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            !name.ends_with(".tmp") && name != JOURNAL_FILE,
            "leftover {name}"
        );
    }
}

#[test]
fn every_crash_point_recovers_to_before_or_after() {
    let cases = [
        (CrashPoint::Journal, 1, Recovery::Discarded { seq: 3 }),
        (CrashPoint::Snapshot, 1, Recovery::Discarded { seq: 3 }),
        (CrashPoint::Rename, 2, Recovery::Completed { seq: 3 }),
        (CrashPoint::TornAuditLine, 2, Recovery::Completed { seq: 3 }),
        (CrashPoint::AuditLine, 2, Recovery::AlreadyLogged { seq: 3 }),
    ];
    for (point, expected_count, expected) in cases {
        let (_tmp, store) = new_event();
        add_penalty(&store);
        crash_after(&store, point);
        // Before recovery the event already loads, as the state before or after.
        assert_eq!(count(&store), expected_count, "{point:?}");
        assert_eq!(store.log().unwrap().interrupted, Some(3), "{point:?}");
        assert_eq!(store.recover().unwrap(), Some(expected), "{point:?}");
        assert_consistent(&store);
        let last = store.log().unwrap().entries.pop().unwrap();
        assert_eq!(
            last.recovered,
            matches!(expected, Recovery::Completed { .. })
        );
        // And the next change carries on from there.
        add_penalty(&store);
        assert_consistent(&store);
        assert_eq!(store.recover().unwrap(), None);
    }
}

#[test]
fn a_failed_audit_append_rolls_the_change_back() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    let files = files_of(&store);
    // The audit log cannot be appended to: the state rename has already happened
    // when this fails, so the rollback must rename the snapshot back.
    let audit = store.audit_path();
    let saved = fs::read(&audit).unwrap();
    fs::remove_file(&audit).unwrap();
    fs::create_dir(&audit).unwrap();
    let err = failed_penalty(&store);
    assert!(
        matches!(err, TxError::Store(StoreError::Io { .. })),
        "{err}"
    );
    fs::remove_dir(&audit).unwrap();
    fs::write(&audit, saved).unwrap();
    assert_eq!(files_of(&store), files);
    assert_consistent(&store);
}

#[test]
fn a_failed_write_leaves_the_event_unchanged() {
    // A directory in the way of a temporary file: of the snapshot (step 2) and of the
    // new state (step 3, after the snapshot was written, which must be taken back).
    let cases = [
        (
            "history/000003-penalty.json.gz.tmp",
            "history/000003-penalty.json.gz.tmp`",
        ),
        ("qiwang.json.tmp", "qiwang.json.tmp`"),
    ];
    for (blocker, expected) in cases {
        let (_tmp, store) = new_event();
        add_penalty(&store);
        let files = files_of(&store);
        let blocker = store.dir().join(blocker);
        fs::create_dir(&blocker).unwrap();
        fs::write(blocker.join("x"), "x").unwrap();
        let text = failed_penalty(&store).to_string();
        assert!(text.starts_with("cannot create `"), "{text}");
        assert!(text.ends_with(expected), "{text}");
        fs::remove_dir_all(&blocker).unwrap();
        assert_eq!(files_of(&store), files);
        assert_consistent(&store);
    }
}

#[test]
fn torn_audit_tail_without_a_journal_blocks_changes_but_not_reading() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    fsio::append_synced(&store.audit_path(), b"{\"seq\":3,").unwrap();
    let trail = store.log().unwrap();
    assert_eq!((trail.entries.len(), trail.torn_line), (2, Some(3)));
    let state = fs::read(store.state_path()).unwrap();
    let err = failed_penalty(&store);
    assert!(err.to_string().contains("line 3 is incomplete"), "{err}");
    assert_eq!(fs::read(store.state_path()).unwrap(), state);
}

#[test]
fn a_missing_audit_log_blocks_changes() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    fs::remove_file(store.audit_path()).unwrap();
    let state = fs::read(store.state_path()).unwrap();
    let err = store.undo(&command("undo")).unwrap_err();
    assert!(
        err.to_string()
            .contains("is damaged: the audit log is missing"),
        "{err}"
    );
    let err = failed_penalty(&store);
    assert!(
        err.to_string()
            .contains("is damaged: the audit log is missing"),
        "{err}"
    );
    assert_eq!(fs::read(store.state_path()).unwrap(), state);
    assert_eq!(snapshot_names(&store), vec!["000002-penalty.json.gz"]);
}

#[test]
fn damaged_state_is_never_written() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    add_penalty(&store);
    fs::write(
        store.state_path(),
        b"{\"schema_version\": 1, \"players\": [",
    )
    .unwrap();
    let damaged = fs::read(store.state_path()).unwrap();
    let err = store.load().unwrap_err();
    let text = err.to_string();
    assert!(text.contains("the file ends early at line 1"), "{text}");
    assert!(text.contains("000003-penalty.json"), "{text}");
    assert!(matches!(
        store.undo(&command("undo")),
        Err(StoreError::Damaged { .. })
    ));
    assert!(matches!(store.recover(), Err(StoreError::Damaged { .. })));
    let tx = store.transaction(&command("penalty"), |_| {
        Ok::<_, Infallible>(Change::changed((), "p", serde_json::Value::Null))
    });
    assert!(matches!(
        tx,
        Err(TxError::Store(StoreError::Damaged { .. }))
    ));
    assert_eq!(fs::read(store.state_path()).unwrap(), damaged);
    assert_eq!(snapshot_names(&store).len(), 2);
}

#[test]
fn command_info_user_comes_from_the_environment() {
    let info = CommandInfo::new("result", vec!["qiwang".into(), "result".into()]);
    assert!(!info.user.is_empty());
    assert_eq!(info.time.timestamp_subsec_nanos(), 0);
    assert_eq!(info.name, "result");
}

/// Deleting `.lock` while a command holds it (the "stale lock" reflex)
/// must not let a second writer in.
#[test]
fn a_deleted_lock_file_does_not_let_a_second_writer_in() {
    let (_tmp, store) = new_event();
    let other = store.clone().with_busy_timeout(Duration::from_millis(50));
    let second = store
        .transaction(&command("penalty"), |event| {
            event.penalties.push(penalty(1));
            fs::remove_file(store.lock_path()).unwrap();
            // Another process (a thread with its own descriptors) tries meanwhile.
            let second = std::thread::scope(|scope| {
                scope
                    .spawn(|| {
                        other.transaction(&command("penalty"), |event| {
                            event.penalties.push(penalty(2));
                            Ok::<_, Infallible>(Change::changed((), "p2", serde_json::Value::Null))
                        })
                    })
                    .join()
                    .unwrap()
            });
            Ok::<_, Infallible>(Change::changed(second, "p1", serde_json::Value::Null))
        })
        .unwrap();
    let err = second.unwrap_err();
    assert!(
        matches!(err, TxError::Store(StoreError::Busy { .. })),
        "{err}"
    );
    let event = store.load().unwrap();
    assert_eq!(event.penalties, vec![penalty(1)]);
    assert_consistent(&store);
    // And undo still works.
    store.undo(&command("undo")).unwrap();
    assert_eq!(count(&store), 0);
}

#[test]
fn a_moved_event_directory_refuses_the_commit() {
    let (tmp, store) = new_event();
    let moved = tmp.path().join("moved");
    let err = store
        .transaction(&command("penalty"), |event| {
            event.penalties.push(penalty(1));
            // The directory is moved away and a copy put in its place.
            fs::rename(store.dir(), &moved).unwrap();
            fs::create_dir(store.dir()).unwrap();
            fs::create_dir(store.history_dir()).unwrap();
            for file in [STATE_FILE, AUDIT_FILE, RULES_FILE] {
                fs::copy(moved.join(file), store.dir().join(file)).unwrap();
            }
            Ok::<_, Infallible>(Change::changed((), "p", serde_json::Value::Null))
        })
        .unwrap_err();
    assert!(
        matches!(err, TxError::Store(StoreError::LockLost { .. })),
        "{err}"
    );
    assert_eq!(count(&store), 0);
    assert_consistent(&store);
}

#[test]
fn unlock_frees_only_a_lock_without_a_live_holder() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    // Held by a live command: refused, naming it.
    let held = store.lock_within(Duration::ZERO).unwrap();
    let err = store.unlock().unwrap_err();
    assert!(matches!(err, StoreError::Busy { .. }), "{err}");
    drop(held);
    // Its holder gone (the lock released), a half-done change is reconciled and the
    // lock file removed.
    crash_after(&store, CrashPoint::Rename);
    let report = store.unlock().unwrap();
    assert_eq!(report.recovery, Some(Recovery::Completed { seq: 3 }));
    assert!(report.removed_lock_file);
    assert!(!store.lock_path().exists());
    assert_consistent(&store);
    add_penalty(&store);
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
}

/// The state holds ID and phone numbers.
#[cfg(unix)]
#[test]
fn every_file_and_directory_is_owner_only() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    let mut checked = 0;
    assert_eq!(mode(store.dir()), 0o700);
    assert_eq!(mode(&store.history_dir()), 0o700);
    for dir in [store.dir().to_path_buf(), store.history_dir()] {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                assert_eq!(mode(&path), 0o600, "{}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked >= 5, "{checked}");
}

#[cfg(unix)]
#[test]
fn an_older_open_event_is_tightened_on_its_next_write() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, store) = new_event();
    add_penalty(&store);
    let open = |path: &Path, m: u32| {
        fs::set_permissions(path, fs::Permissions::from_mode(m)).unwrap();
    };
    open(store.dir(), 0o755);
    open(&store.history_dir(), 0o755);
    open(&store.state_path(), 0o644);
    open(&store.audit_path(), 0o644);
    open(&store.history_dir().join("000002-penalty.json.gz"), 0o644);
    add_penalty(&store);
    for path in [store.dir().to_path_buf(), store.history_dir()] {
        assert_eq!(mode(&path), 0o700, "{}", path.display());
    }
    for path in [
        store.state_path(),
        store.audit_path(),
        store.history_dir().join("000002-penalty.json.gz"),
    ] {
        assert_eq!(mode(&path), 0o600, "{}", path.display());
    }
}

/// Links inside the event are refused, never followed, and temporaries
/// are never removed through one.
#[cfg(unix)]
#[test]
fn links_inside_the_event_are_refused_never_followed() {
    use std::os::unix::fs::symlink;
    // `history` pointing elsewhere, holding a file named like a stale temporary.
    let (tmp, store) = new_event();
    add_penalty(&store);
    let victim = tmp.path().join("victim");
    fs::create_dir(&victim).unwrap();
    fs::write(victim.join("precious.tmp"), "keep").unwrap();
    let real = tmp.path().join("real-history");
    fs::rename(store.history_dir(), &real).unwrap();
    symlink(&victim, store.history_dir()).unwrap();
    let state = fs::read(store.state_path()).unwrap();
    let err = failed_penalty(&store);
    assert!(err.to_string().contains("is a symbolic link"), "{err}");
    assert!(store.undo(&command("undo")).is_err());
    assert!(store.recover().is_err());
    assert_eq!(
        fs::read_to_string(victim.join("precious.tmp")).unwrap(),
        "keep"
    );
    assert_eq!(fs::read_dir(&victim).unwrap().count(), 1);
    assert_eq!(fs::read(store.state_path()).unwrap(), state);
    fs::remove_file(store.history_dir()).unwrap();
    fs::rename(&real, store.history_dir()).unwrap();

    // `.lock` pointing at a file elsewhere: neither created, truncated nor written.
    let target = tmp.path().join("target");
    fs::write(&target, "untouched").unwrap();
    let _ = fs::remove_file(store.lock_path());
    symlink(&target, store.lock_path()).unwrap();
    let err = store.undo(&command("undo")).unwrap_err();
    assert!(err.to_string().contains("is a symbolic link"), "{err}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "untouched");
    fs::remove_file(store.lock_path()).unwrap();

    // A temporary planted as a link: the write refuses it rather than following it.
    let tmp_state = fsio::tmp_path(&store.state_path());
    symlink(&target, &tmp_state).unwrap();
    let snapshot = store.history_dir().join("000009-x.json.gz");
    symlink(&target, fsio::tmp_path(&snapshot)).unwrap();
    let err = fsio::write_atomic(&snapshot, b"new").unwrap_err();
    assert!(err.to_string().contains("is a symbolic link"), "{err}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "untouched");
    // A change first clears stale temporaries — the link itself, not its target.
    fs::remove_file(fsio::tmp_path(&snapshot)).unwrap();
    add_penalty(&store);
    assert!(fs::symlink_metadata(&tmp_state).is_err());
    assert_eq!(fs::read_to_string(&target).unwrap(), "untouched");
    assert_consistent(&store);
}

/// After a kill that landed a change, opening the event logs it before
/// anything reads the trail, so `log` shows it and `undo` reverts only what was seen.
#[test]
fn opening_the_event_logs_a_change_that_landed_before_it_is_read() {
    let (_tmp, store) = new_event();
    add_penalty(&store);
    crash_after(&store, CrashPoint::Rename);
    assert_eq!(store.log().unwrap().interrupted, Some(3));
    let opened = Store::open(store.dir()).unwrap();
    let trail = opened.log().unwrap();
    assert_eq!(trail.interrupted, None);
    let last = trail.entries.last().unwrap();
    assert_eq!((last.seq, last.recovered), (3, true));
    assert_consistent(&store);
    assert_eq!(opened.undo_plan().unwrap().undone.seq, 3);
    // A kill before the commit point: the change is dropped, equally before reading.
    crash_after(&store, CrashPoint::Snapshot);
    let opened = Store::discover(store.dir()).unwrap();
    assert_eq!(opened.log().unwrap().entries.len(), 3);
    assert_consistent(&store);
    // A journal of a command still holding the lock is left to it.
    crash_after(&store, CrashPoint::Rename);
    let held = store.lock_within(Duration::ZERO).unwrap();
    let opened = Store::open(store.dir()).unwrap();
    assert_eq!(opened.log().unwrap().interrupted, Some(4));
    drop(held);
    assert_eq!(
        store.recover().unwrap(),
        Some(Recovery::Completed { seq: 4 })
    );
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
