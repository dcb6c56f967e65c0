//! The event directory itself: creating it (`init`), finding and opening it, the paths
//! of its files, and reading the state, the audit trail, the journal and the snapshots.
//! Writing goes through the transaction in `mod.rs`.

use super::fsio::{self, LockGuard};
use super::{
    AUDIT_FILE, AuditEntry, AuditTrail, CommandInfo, DEFAULT_BUSY_TIMEOUT, EntryKind, HISTORY_DIR,
    JOURNAL_FILE, LOCK_FILE, RULES_FILE, STATE_FILE, Store, StoreError, audit, state,
};
use crate::i18n::Text;
use crate::model::Event;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

impl Store {
    pub(super) fn at(dir: &Path) -> Store {
        Store {
            dir: dir.to_path_buf(),
            busy_timeout: DEFAULT_BUSY_TIMEOUT,
        }
    }

    /// Creates the event directory (and `dir` itself if missing, owner-only): `rules.toml`
    /// verbatim, `qiwang.json`, `history/` and `audit.log` with the `init` line. The
    /// parent of every directory created is synced, so the new event survives a power
    /// cut. The caller has validated the rulebook. Refuses a directory that already holds
    /// an event; other files in `dir` are left alone.
    pub fn init(
        dir: &Path,
        rules_toml: &str,
        event: &Event,
        command: &CommandInfo,
    ) -> Result<Store, StoreError> {
        fsio::create_private_dir(dir)?;
        let store = Store::at(dir);
        let _lock = store.lock()?;
        let state = store.state_path();
        if fs::symlink_metadata(&state).is_ok() {
            return Err(StoreError::AlreadyExists { path: state });
        }
        // The remains of an event whose qiwang.json is gone are not ours to overwrite;
        // an audit log holding only an `init` line is an interrupted init.
        if store.lost_state() {
            return Err(store.missing_state());
        }
        if !state::list_snapshots(&store.history_dir())?.is_empty() {
            return Err(StoreError::AlreadyExists {
                path: store.history_dir(),
            });
        }
        let (_, trail) = audit::read_brief(&store.audit_path())?;
        if trail.entries.iter().any(|e| e.kind != EntryKind::Init) {
            return Err(StoreError::AlreadyExists {
                path: store.audit_path(),
            });
        }
        fsio::create_private_dir(&store.history_dir())?;
        fsio::write_atomic(&store.rules_path(), rules_toml.as_bytes())?;
        let entry = AuditEntry {
            seq: 1,
            time: command.time,
            user: command.user.clone(),
            command: command.argv.clone(),
            kind: EntryKind::Init,
            summary: format!(
                "created the event with {}",
                crate::i18n::plural(event.players.len(), "player", "players")
            ),
            details: serde_json::json!({ "rules": RULES_FILE }),
            snapshot: None,
            undoes: None,
            redoes: None,
            recovered: false,
        };
        fsio::write_atomic(&store.audit_path(), &entry.to_line())?;
        // qiwang.json last: until it exists there is no event, and init can be rerun.
        let mut bytes = state::encode(event, 0);
        super::stale::number(&mut bytes, entry.seq);
        if let Err(e) = fsio::write_atomic(&state, &bytes) {
            let _ = fs::remove_file(store.audit_path());
            return Err(e);
        }
        Ok(store)
    }

    /// The event in `dir` (`--event DIR`), with a change interrupted by a crash
    /// reconciled first (see [`Store::settle`]). An event whose `qiwang.json` is gone
    /// (its `audit.log` and `history/` left) is refused with the snapshot to put back.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        if dir.join(STATE_FILE).is_file() {
            Ok(Store::at(dir).settled())
        } else if Store::at(dir).lost_state() {
            Err(Store::at(dir).missing_state())
        } else {
            Err(StoreError::NoEventAt {
                dir: dir.to_path_buf(),
            })
        }
    }

    /// The event in `start` or its nearest parent holding `qiwang.json`, as git finds a
    /// repository; settled like [`Store::open`], and refused like it when the nearest
    /// event has lost its `qiwang.json`.
    pub fn discover(start: &Path) -> Result<Store, StoreError> {
        let start = start
            .canonicalize()
            .map_err(|e| StoreError::io("look for an event in", start, e))?;
        let found = start
            .ancestors()
            .map(Store::at)
            .find(|store| store.state_path().is_file() || store.lost_state())
            .ok_or(StoreError::NotAnEvent {
                searched_from: start.clone(),
            })?;
        if found.lost_state() {
            return Err(found.missing_state());
        }
        Ok(found.settled())
    }

    /// The same store, waiting at most `timeout` for another command's lock.
    pub fn with_busy_timeout(mut self, timeout: Duration) -> Store {
        self.busy_timeout = timeout;
        self
    }

    /// The event directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `DIR/qiwang.json`.
    pub fn state_path(&self) -> PathBuf {
        self.dir.join(STATE_FILE)
    }

    /// `DIR/rules.toml`.
    pub fn rules_path(&self) -> PathBuf {
        self.dir.join(RULES_FILE)
    }

    /// `DIR/history`.
    pub fn history_dir(&self) -> PathBuf {
        self.dir.join(HISTORY_DIR)
    }

    /// `DIR/audit.log`.
    pub fn audit_path(&self) -> PathBuf {
        self.dir.join(AUDIT_FILE)
    }

    /// `DIR/.lock`.
    pub fn lock_path(&self) -> PathBuf {
        self.dir.join(LOCK_FILE)
    }

    pub(super) fn journal_path(&self) -> PathBuf {
        self.dir.join(JOURNAL_FILE)
    }

    /// The exact bytes of the state a file in `history/` holds (the state before the
    /// change its audit line records): a whole snapshot unpacked, or a step rebuilt from
    /// the files before it and checked.
    pub fn read_snapshot(&self, name: &str) -> Result<Vec<u8>, StoreError> {
        let path = self.history_dir().join(name);
        self.history_state(name)?
            .ok_or_else(|| StoreError::io("read", &path, std::io::ErrorKind::NotFound.into()))
    }

    /// Refuses `event`, read from this event's `qiwang.json`, as a damaged state when a
    /// player's group is not among `groups` (the ids of its frozen rulebook): the store
    /// reads no rulebook, so whoever validates the rulebook calls this. The refusal is
    /// worded as every other contradiction in the state, with the way back.
    pub fn check_groups<'a>(
        &self,
        event: &Event,
        groups: impl IntoIterator<Item = &'a crate::model::GroupId>,
    ) -> Result<(), StoreError> {
        let problems = state::unknown_groups(event, groups);
        if problems.is_empty() {
            return Ok(());
        }
        Err(StoreError::Damaged {
            path: self.state_path(),
            detail: state::contradiction(&problems),
            recovery: self.recovery_hint(),
        })
    }

    /// Reads and checks the event. Needs no lock: the state file is only ever replaced by
    /// an atomic rename, so a reader sees one complete version.
    pub fn load(&self) -> Result<Event, StoreError> {
        Ok(self.read_state()?.1)
    }

    /// The audit trail, oldest first. Read-only; a torn last line or an interrupted change
    /// is reported in the trail, not repaired (opening the event repairs them).
    pub fn log(&self) -> Result<AuditTrail, StoreError> {
        let (_, mut trail) = audit::read(&self.audit_path())?;
        trail.interrupted = self.read_journal()?.map(|e| e.seq);
        Ok(trail)
    }

    /// [`Store::log`] with each line's `details` cut to the keys in [`super::BRIEF_KEYS`]
    /// (the action, and an undo's or redo's numbers): enough to word every line, without
    /// holding every result a large event's `result --from` lines list.
    pub fn log_brief(&self) -> Result<AuditTrail, StoreError> {
        let (_, mut trail) = audit::read_brief(&self.audit_path())?;
        trail.interrupted = self.read_journal()?.map(|e| e.seq);
        Ok(trail)
    }

    /// The rulebook and the players of the event, without its rounds, penalties or
    /// playoffs (left empty): what naming players and groups needs, read in a fraction of
    /// the time and memory a whole 100,000-player state takes. A state this qiwang would
    /// refuse is refused as [`Store::load`] refuses it.
    pub fn load_roster(&self) -> Result<Event, StoreError> {
        let path = self.state_path();
        // Through the one no-follow read, as every read of the event's files: a linked
        // `qiwang.json` is refused here as by `Store::load`.
        let bytes = fsio::read(&path)?;
        match state::roster(&bytes) {
            Some(event) => Ok(event),
            None => state::decode(&path, &bytes, || self.recovery_hint()),
        }
    }

    pub(super) fn lock(&self) -> Result<LockGuard, StoreError> {
        self.lock_within(self.busy_timeout)
    }

    pub(super) fn lock_within(&self, timeout: Duration) -> Result<LockGuard, StoreError> {
        fsio::refuse_link(&self.history_dir())?;
        fsio::lock_event(&self.dir, &self.lock_path(), timeout)
    }

    pub(super) fn read_state(&self) -> Result<(Vec<u8>, Event), StoreError> {
        let path = self.state_path();
        let bytes = fsio::read(&path)?;
        let event = state::decode(&path, &bytes, || self.recovery_hint())?;
        Ok((bytes, event))
    }

    pub(super) fn read_journal(&self) -> Result<Option<AuditEntry>, StoreError> {
        let path = self.journal_path();
        let Some(bytes) = fsio::read_optional(&path)? else {
            return Ok(None);
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| StoreError::Damaged {
                path: path.clone(),
                detail: Text::new(
                    format!("不是待完成的记录：{e}"),
                    format!("not a pending audit entry: {e}"),
                ),
                recovery: Text::new(
                    "它记录的是一次因崩溃中断的修改；若 qiwang.json 与 history/ 中最新的快照相同，删除该快照和这个文件，否则把这一行手工加到 audit.log 末尾再删除这个文件",
                    "it records a change interrupted by a crash; if qiwang.json equals the newest snapshot in history/, delete that snapshot and this file, otherwise add the line to audit.log by hand and delete this file",
                ),
            })
    }
}
