//! What guards the event directory: the lock (a deleted lock file, a moved directory,
//! unlocking only a lock without a live holder), owner-only permissions, and links inside
//! the event refused rather than followed.

use super::crashes::{CrashPoint, assert_consistent, crash_after};
use super::*;
use std::io::Write as _;

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

/// The state's text is not held while a change's closure runs but read again after it:
/// a `qiwang.json` that another program wrote meanwhile, in place or by replacing it,
/// refuses the commit, and that program's file is left as it wrote it.
#[test]
fn a_state_file_written_by_another_program_under_the_lock_refuses_the_commit() {
    for in_place in [true, false] {
        let (_tmp, store) = new_event();
        let state = store.state_path();
        let err = store
            .transaction(&command("penalty"), |event| {
                event.penalties.push(penalty(1));
                let mut text = fs::read(&state).unwrap();
                text.push(b'\n');
                if in_place {
                    fs::OpenOptions::new()
                        .write(true)
                        .open(&state)
                        .unwrap()
                        .write_all(&text)
                        .unwrap();
                } else {
                    let other = state.with_extension("other");
                    fs::write(&other, &text).unwrap();
                    fs::rename(&other, &state).unwrap();
                }
                Ok::<_, Infallible>(Change::changed((), "p", serde_json::Value::Null))
            })
            .unwrap_err();
        assert!(
            matches!(&err, TxError::Store(StoreError::LockLost { path }) if *path == state),
            "{err}"
        );
        assert!(
            fs::read(&state).unwrap().ends_with(b"\n\n"),
            "left as written"
        );
        assert_eq!(count(&store), 0);
    }
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
