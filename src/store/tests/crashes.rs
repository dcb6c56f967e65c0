//! A change interrupted at each of its steps, failed writes and damaged files: the event
//! always recovers to before or after the change, and damage is never written over.

use super::*;

/// Where a change can be interrupted: after step `k` of the module documentation.
#[derive(Debug, Clone, Copy)]
pub(super) enum CrashPoint {
    Journal,
    Snapshot,
    Rename,
    TornAuditLine,
    AuditLine,
}

/// Runs the steps of one change (adding a penalty) up to `point`, then stops as a
/// killed process would.
pub(super) fn crash_after(store: &Store, point: CrashPoint) {
    let before = fs::read(store.state_path()).unwrap();
    let mut event = store.load().unwrap();
    event.penalties.push(penalty(event.penalties.len() + 1));
    let mut after = state::encode(&event, 0);
    let snapshots = store.snapshots().unwrap();
    let entry = store.next_entry(
        &store.writable_audit(&snapshots).unwrap(),
        &snapshots,
        &command("penalty"),
        EntryKind::Change,
        "p".into(),
        serde_json::Value::Null,
    );
    // The state records the change that wrote it, as the commit writes it.
    stale::number(&mut after, entry.seq);
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
pub(super) fn assert_consistent(store: &Store) {
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
