//! The event directory: loading and saving `qiwang.json`, the exclusive lock, the
//! snapshots in `history/` and the audit trail in `audit.log`.
//!
//! ```text
//! <event>/qiwang.json    the whole state (model::Event)
//! <event>/rules.toml     the rulebook as given at init, verbatim, for people to read
//! <event>/history/       NNNNNN-<command>.json.gz: the state before change NNNNNN, gzip
//!                        (events from before compression also hold plain .json ones)
//! <event>/audit.log      one JSON line per change (AuditEntry)
//! <event>/.lock          locked with the directory itself by every command that changes
//!                        the event (deleting the file does not free the lock)
//! <event>/.pending.json  the audit line of a change in progress (exists only mid-change)
//! ```
//!
//! Everything is owner-only on Unix (files 0600, directories 0700): the state holds ID
//! and phone numbers. A symbolic link inside the event (`history`, `.lock`, a temporary
//! file) is refused, never followed.
//!
//! This module owns every byte written into that directory and nothing else: it does not
//! validate rulebooks, print, or decide what a command changes; the command's closure does.
//!
//! # Crash consistency
//!
//! A change number `N` goes through these steps, each durable (written to a temporary
//! file, synced, renamed, directory synced) before the next starts:
//!
//! 1. `.pending.json` ← the audit line for `N` (the journal);
//! 2. `history/N-<command>.json.gz` ← the exact bytes of `qiwang.json` before the change,
//!    compressed;
//! 3. `qiwang.json` ← the new state (the commit point: one atomic rename), refused if the
//!    event directory was moved or replaced while the lock was held;
//! 4. `audit.log` ← the line for `N` appended and synced;
//! 5. `.pending.json` removed.
//!
//! An undo or redo whose state is already in place (restored by hand) writes no snapshot
//! and no state: only steps 1, 4 and 5.
//!
//! Invariant: without `.pending.json`, every snapshot `N` in `history/` has line `N` in
//! `audit.log` and `qiwang.json` is the state after the last line. With it, the next
//! command (under the lock, before anything else) reconciles deterministically, after
//! cutting off a torn last line of `audit.log`: line `N` already logged → the change was
//! complete; snapshot `N` missing, or (unpacked) equal byte for byte to `qiwang.json` →
//! the change never landed, and the snapshot is deleted; otherwise the rename happened,
//! so line `N` is appended from the journal (marked `recovered`). A change that leaves
//! the state byte-identical is not written at all, so "equal to the snapshot" can only
//! mean "before". Opening an event ([`Store::open`], [`Store::discover`]) reconciles
//! before any command reads, when no other command holds the lock, so `log` never trails
//! the state. Either way `qiwang.json` itself is never touched by recovery: after a crash
//! it is the state before or after the command.
//!
//! A failure while writing (disk full, read-only directory) rolls back the same way:
//! the audit line is cut off, the old state is written back if the rename had happened,
//! and the snapshot and the journal are removed, so the event is unchanged.
//!
//! The files of the event are read whole and without the size cap of
//! [`crate::input`]: qiwang wrote them, and they grow with the event (a state of 100,000
//! players is tens of megabytes), so any cap would refuse a real event.
//!
//! # Undo and redo
//!
//! Replaying the trail gives the changes in effect (a change is done, an undo takes one
//! out, a redo puts it back). `undo` restores the snapshot of the newest change in
//! effect; its own line keeps the state it replaced as its snapshot, which `redo`
//! restores exactly, as long as no new change came after the undo.
//!
//! A state file that does not parse, lacks a valid `schema_version`, or comes from a newer
//! qiwang is refused with a message naming the newest readable snapshot, and no command
//! writes anything while it is refused.

mod audit;
mod diff;
mod error;
mod fsio;
mod state;

pub use audit::{AuditEntry, AuditTrail, EntryKind};
pub use error::{StoreError, TxError};

use crate::i18n::Text;
use crate::model::Event;
use chrono::{DateTime, DurationRound, TimeDelta, Utc};
use fsio::LockGuard;
use state::SnapshotFile;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The state file's name.
pub const STATE_FILE: &str = "qiwang.json";
/// The frozen copy of the rulebook.
pub const RULES_FILE: &str = "rules.toml";
/// The snapshot directory.
pub const HISTORY_DIR: &str = "history";
/// The audit trail.
pub const AUDIT_FILE: &str = "audit.log";
/// The lock file.
pub const LOCK_FILE: &str = ".lock";
/// The journal of a change in progress.
pub const JOURNAL_FILE: &str = ".pending.json";
/// How long a command waits for another one to finish before reporting the event busy.
pub const DEFAULT_BUSY_TIMEOUT: Duration = Duration::from_secs(2);

/// Who ran which command, for the audit line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandInfo {
    /// The command's name (`result`, `player add`); names the snapshot file.
    pub name: String,
    /// The full command line as typed, program name included.
    pub argv: Vec<String>,
    /// From `$QIWANG_USER`, else `$USER`, else `unknown`.
    pub user: String,
    /// When the command ran, whole seconds, UTC.
    pub time: DateTime<Utc>,
}

impl CommandInfo {
    /// A command run now by the user named in the environment.
    pub fn new(name: impl Into<String>, argv: Vec<String>) -> Self {
        CommandInfo {
            name: name.into(),
            argv,
            user: Self::user_from_env(),
            time: Utc::now()
                .duration_trunc(TimeDelta::seconds(1))
                .unwrap_or_else(|_| Utc::now()),
        }
    }

    /// `$QIWANG_USER`, else `$USER`, `$LOGNAME` or `$USERNAME`, else `unknown`.
    pub fn user_from_env() -> String {
        ["QIWANG_USER", "USER", "LOGNAME", "USERNAME"]
            .iter()
            .filter_map(|key| std::env::var(key).ok())
            .find(|v| !v.trim().is_empty())
            .unwrap_or_else(|| "unknown".to_string())
    }
}

/// What a transaction's closure did to the event.
#[derive(Debug, Clone, PartialEq)]
pub enum Change<T> {
    /// The event changed: write it, snapshot the old one, log the change.
    Changed {
        value: T,
        /// What changed, for people (shown by `qiwang log`).
        summary: String,
        /// What changed, for programs.
        details: serde_json::Value,
    },
    /// Nothing to write (a dry run, a no-op): no snapshot, no audit line. Any edit the
    /// closure made to the event is discarded.
    Unchanged(T),
}

impl<T> Change<T> {
    /// Shorthand for [`Change::Changed`].
    pub fn changed(value: T, summary: impl Into<String>, details: serde_json::Value) -> Self {
        Change::Changed {
            value,
            summary: summary.into(),
            details,
        }
    }
}

/// What `undo` did.
#[derive(Debug, Clone, PartialEq)]
pub struct UndoReport {
    /// The sequence number of the undo's own audit line.
    pub seq: u64,
    /// The change that was undone.
    pub undone: AuditEntry,
    /// The snapshot in `history/` whose state was restored.
    pub restored_from: String,
}

/// What `undo` would do (`undo --dry-run`).
#[derive(Debug, Clone, PartialEq)]
pub struct UndoPlan {
    /// The change that would be undone.
    pub undone: AuditEntry,
    /// The snapshot in `history/` whose state would be restored.
    pub restore_from: String,
    /// What would change, for people (one line per kind of difference).
    pub effects: Vec<Text>,
    /// A change interrupted by a crash that could not be reconciled yet (another command
    /// holds the lock); the plan may then be out of date.
    pub interrupted: Option<u64>,
}

/// What `redo` did.
#[derive(Debug, Clone, PartialEq)]
pub struct RedoReport {
    /// The sequence number of the redo's own audit line.
    pub seq: u64,
    /// The undo that was taken back.
    pub undo: AuditEntry,
    /// The change that is in effect again.
    pub redone: AuditEntry,
    /// The snapshot in `history/` whose state was restored.
    pub restored_from: String,
}

/// What `unlock` found and did.
#[derive(Debug, Clone, PartialEq)]
pub struct UnlockReport {
    /// The change that holder left half-done, reconciled.
    pub recovery: Option<Recovery>,
    /// Whether a `.lock` file was there to delete.
    pub removed_lock_file: bool,
}

/// How a change interrupted by a crash was reconciled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// The new state had landed; its audit line was written from the journal.
    Completed { seq: u64 },
    /// The new state had not landed; its snapshot was deleted.
    Discarded { seq: u64 },
    /// The change had been logged; only the journal was left to remove.
    AlreadyLogged { seq: u64 },
}

/// One event directory.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
    busy_timeout: Duration,
}

impl Store {
    fn at(dir: &Path) -> Store {
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
        if !state::list_snapshots(&store.history_dir())?.is_empty() {
            return Err(StoreError::AlreadyExists {
                path: store.history_dir(),
            });
        }
        let (_, trail) = audit::read(&store.audit_path())?;
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
            summary: format!("created the event with {} players", event.players.len()),
            details: serde_json::json!({ "rules": RULES_FILE }),
            snapshot: None,
            undoes: None,
            redoes: None,
            recovered: false,
        };
        fsio::write_atomic(&store.audit_path(), &entry.to_line())?;
        // qiwang.json last: until it exists there is no event, and init can be rerun.
        if let Err(e) = fsio::write_atomic(&state, &state::encode(event)) {
            let _ = fs::remove_file(store.audit_path());
            return Err(e);
        }
        Ok(store)
    }

    /// The event in `dir` (`--event DIR`), with a change interrupted by a crash
    /// reconciled first (see [`Store::settle`]).
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        if dir.join(STATE_FILE).is_file() {
            Ok(Store::at(dir).settled())
        } else {
            Err(StoreError::NoEventAt {
                dir: dir.to_path_buf(),
            })
        }
    }

    /// The event in `start` or its nearest parent holding `qiwang.json`, as git finds a
    /// repository; settled like [`Store::open`].
    pub fn discover(start: &Path) -> Result<Store, StoreError> {
        let start = start
            .canonicalize()
            .map_err(|e| StoreError::io("look for an event in", start, e))?;
        start
            .ancestors()
            .find(|dir| dir.join(STATE_FILE).is_file())
            .map(|dir| Store::at(dir).settled())
            .ok_or(StoreError::NotAnEvent {
                searched_from: start.clone(),
            })
    }

    fn settled(self) -> Store {
        // Reading goes on whatever happens: a read-only copy, a busy or damaged event
        // still reads, and `log` reports the interrupted change.
        let _ = self.settle();
        self
    }

    /// Brings the audit trail in line with the state before anything reads it: when a
    /// journal is left by a killed command and no command holds the lock, reconciles it
    /// (see the module documentation), so `log` shows a change that landed and `undo`
    /// never reverts a change nobody saw. A journal of a command still running (the lock
    /// is held) is that command's own business. Costs one `stat` when there is nothing
    /// to do.
    pub fn settle(&self) -> Result<Option<Recovery>, StoreError> {
        if fs::symlink_metadata(self.journal_path()).is_err() {
            return Ok(None);
        }
        let _lock = self.lock_within(Duration::ZERO)?;
        let (before, _) = self.read_state()?;
        self.clean_temporaries()?;
        self.reconcile(&before)
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

    fn journal_path(&self) -> PathBuf {
        self.dir.join(JOURNAL_FILE)
    }

    /// What to tell a user whose `qiwang.json` cannot be used (a hand edit that broke it):
    /// the newest readable snapshot in `history/` and how to go back to it.
    pub fn recovery_hint(&self) -> Text {
        state::recovery_hint(&self.history_dir())
    }

    /// The exact bytes of the state a snapshot in `history/` holds (the state before the
    /// change its audit line records), compressed or not.
    pub fn read_snapshot(&self, name: &str) -> Result<Vec<u8>, StoreError> {
        fsio::refuse_link(&self.history_dir())?;
        let path = self.history_dir().join(name);
        let bytes = fs::read(&path).map_err(|e| StoreError::io("read", &path, e))?;
        state::snapshot_state(&path, bytes)
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

    /// Runs `f` on the event under the exclusive lock and, if it reports a change, saves
    /// the result: snapshot of the old state, atomic replace, audit line. If `f` fails or
    /// reports [`Change::Unchanged`], nothing is written.
    pub fn transaction<T, E>(
        &self,
        command: &CommandInfo,
        f: impl FnOnce(&mut Event) -> Result<Change<T>, E>,
    ) -> Result<T, TxError<E>> {
        let lock = self.lock()?;
        let (before, mut event) = self.read_state()?;
        self.prepare(&before)?;
        let (value, summary, details) = match f(&mut event).map_err(TxError::Command)? {
            Change::Unchanged(value) => return Ok(value),
            Change::Changed {
                value,
                summary,
                details,
            } => (value, summary, details),
        };
        // audit.log is shown to anyone: ID and phone numbers typed into a reason or a
        // note are masked here, where every change's text passes (the state keeps them).
        let (summary, details) = (
            crate::registration::privacy::mask_free_text(&summary),
            crate::registration::privacy::mask_free_text_json(details),
        );
        let after = state::encode(&event);
        if after == before {
            return Ok(value);
        }
        let trail = self.writable_audit()?;
        let entry = self.next_entry(&trail, command, EntryKind::Change, summary, details)?;
        self.commit(&lock, &before, &after, &entry)?;
        Ok(value)
    }

    /// What `undo` would do now, without doing it: the change it would revert and the
    /// state it would restore.
    pub fn undo_plan(&self) -> Result<UndoPlan, StoreError> {
        let (_, current) = self.read_state()?;
        let trail = self.writable_audit()?;
        let target = undo_target(&trail)?;
        let (snapshot, restored) = self.restorable(&target, &target)?;
        Ok(UndoPlan {
            effects: diff::differences(&current, &restored),
            undone: target,
            restore_from: snapshot,
            interrupted: self.read_journal()?.map(|e| e.seq),
        })
    }

    /// Restores the state before the newest change that is in effect (not undone, or
    /// undone and redone), so repeated undos walk back one change at a time. Logged as an
    /// `undo` line with its own snapshot (the state it replaced, which `redo` restores).
    pub fn undo(&self, command: &CommandInfo) -> Result<UndoReport, StoreError> {
        let lock = self.lock()?;
        let (before, _) = self.read_state()?;
        self.prepare(&before)?;
        let trail = self.writable_audit()?;
        let target = undo_target(&trail)?;
        let (snapshot, restored) = self.restorable(&target, &target)?;
        let mut entry = self.next_entry(
            &trail,
            command,
            EntryKind::Undo,
            format!("undid #{}: {}", target.seq, target.summary),
            serde_json::json!({ "undoes": target.seq, "restored": snapshot }),
        )?;
        entry.undoes = Some(target.seq);
        self.write_restored(&lock, &before, &state::encode(&restored), entry.clone())?;
        Ok(UndoReport {
            seq: entry.seq,
            undone: target,
            restored_from: snapshot,
        })
    }

    /// Takes back the newest undo that no later change followed: restores exactly the
    /// state that undo replaced (its snapshot). Repeated redos walk forward again; a new
    /// change ends what can be redone. Logged as a `redo` line with its own snapshot.
    pub fn redo(&self, command: &CommandInfo) -> Result<RedoReport, StoreError> {
        let lock = self.lock()?;
        let (before, _) = self.read_state()?;
        self.prepare(&before)?;
        let trail = self.writable_audit()?;
        let stacks = Stacks::of(&trail);
        let undo_seq = *stacks.redoable.last().ok_or(StoreError::NothingToRedo)?;
        let undo = trail
            .entries
            .iter()
            .find(|e| e.seq == undo_seq)
            .expect("the stacks hold logged lines")
            .clone();
        let changed = trail
            .entries
            .iter()
            .find(|e| Some(e.seq) == undo.undoes)
            .cloned()
            .unwrap_or_else(|| undo.clone());
        let (snapshot, restored) = self.restorable(&undo, &changed)?;
        let mut entry = self.next_entry(
            &trail,
            command,
            EntryKind::Redo,
            format!("redid #{}: {}", changed.seq, changed.summary),
            serde_json::json!({ "redoes": undo.seq, "reapplies": changed.seq, "restored": snapshot }),
        )?;
        entry.redoes = Some(undo.seq);
        self.write_restored(&lock, &before, &state::encode(&restored), entry.clone())?;
        Ok(RedoReport {
            seq: entry.seq,
            undo,
            redone: changed,
            restored_from: snapshot,
        })
    }

    /// The snapshot of `line` and the state it holds (migrated, so that encoding it
    /// restores it in the current file format). `about` is the change a refusal is about.
    fn restorable(
        &self,
        line: &AuditEntry,
        about: &AuditEntry,
    ) -> Result<(String, Event), StoreError> {
        let cannot = || {
            Text::new(
                format!(
                    "第 {} 次修改无法撤销或重做；请用普通命令更正赛事",
                    about.seq
                ),
                format!(
                    "change #{} cannot be undone or redone; correct the event with ordinary commands",
                    about.seq
                ),
            )
        };
        let Some(snapshot) = line.snapshot.clone() else {
            return Err(StoreError::Damaged {
                path: self.audit_path(),
                detail: Text::new(
                    format!("第 {} 行没有记录快照", line.seq),
                    format!("line #{} names no snapshot", line.seq),
                ),
                recovery: cannot(),
            });
        };
        fsio::refuse_link(&self.history_dir())?;
        let path = self.history_dir().join(&snapshot);
        let bytes = fsio::read_optional(&path)?.ok_or_else(|| StoreError::Damaged {
            path: path.clone(),
            detail: Text::new(
                format!("第 {} 行的快照不见了", line.seq),
                format!("the snapshot of line #{} is missing", line.seq),
            ),
            recovery: cannot(),
        })?;
        let bytes = state::snapshot_state(&path, bytes)?;
        let event = state::decode(&path, &bytes, cannot)?;
        Ok((snapshot, event))
    }

    /// Writes `restored` as an undo or redo line `entry`; a state already restored (by
    /// hand) only gets the line.
    fn write_restored(
        &self,
        lock: &LockGuard,
        before: &[u8],
        restored: &[u8],
        entry: AuditEntry,
    ) -> Result<(), StoreError> {
        if restored == before {
            let entry = AuditEntry {
                snapshot: None,
                ..entry
            };
            self.commit_line_only(&entry)
        } else {
            self.commit(lock, before, restored, &entry)
        }
    }

    /// Reconciles a change interrupted by a crash (see the module documentation) and
    /// removes stale temporary files. Every changing command does this first; call it
    /// directly to repair without changing anything.
    pub fn recover(&self) -> Result<Option<Recovery>, StoreError> {
        let _lock = self.lock()?;
        let (before, _) = self.read_state()?;
        self.clean_temporaries()?;
        self.reconcile(&before)
    }

    /// `qiwang unlock`: frees the event of a lock whose holder is gone, and only then.
    ///
    /// The lock is an operating-system lock (`flock`) that is released the moment its
    /// holder ends, however it ends, so taking it proves there is no live holder: then
    /// a change the holder left half-done is reconciled, stale temporaries are removed,
    /// and the `.lock` file (which a "stale lock" reflex would delete) is deleted. If the
    /// lock cannot be taken, a live process holds it; it is never broken.
    pub fn unlock(&self) -> Result<UnlockReport, StoreError> {
        let lock = self.lock_within(Duration::ZERO)?;
        let (before, _) = self.read_state()?;
        self.clean_temporaries()?;
        let recovery = self.reconcile(&before)?;
        let removed = fsio::remove_if_exists(&self.lock_path())?;
        drop(lock);
        Ok(UnlockReport {
            recovery,
            removed_lock_file: removed,
        })
    }

    fn lock(&self) -> Result<LockGuard, StoreError> {
        self.lock_within(self.busy_timeout)
    }

    fn lock_within(&self, timeout: Duration) -> Result<LockGuard, StoreError> {
        fsio::refuse_link(&self.history_dir())?;
        fsio::lock_event(&self.dir, &self.lock_path(), timeout)
    }

    fn read_state(&self) -> Result<(Vec<u8>, Event), StoreError> {
        let path = self.state_path();
        let bytes = fs::read(&path).map_err(|e| StoreError::io("read", &path, e))?;
        let event = state::decode(&path, &bytes, || state::recovery_hint(&self.history_dir()))?;
        Ok((bytes, event))
    }

    fn read_journal(&self) -> Result<Option<AuditEntry>, StoreError> {
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

    /// Under the lock, before a change: drop stale temporary files, reconcile a crashed
    /// change, and make an event written by an older qiwang owner-only.
    fn prepare(&self, before: &[u8]) -> Result<(), StoreError> {
        self.clean_temporaries()?;
        self.reconcile(before)?;
        self.tighten()
    }

    /// Owner-only permissions on the event directory, `history/` and every file qiwang
    /// wrote there (events created before qiwang did so are tightened on their next
    /// change). The snapshots are only walked when a directory was open to others.
    fn tighten(&self) -> Result<(), StoreError> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let loose = |path: &Path| {
                fs::symlink_metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
            };
            let history = self.history_dir();
            let walk = loose(&self.dir) || loose(&history);
            fsio::tighten(&self.dir, fsio::DIR_MODE)?;
            fsio::tighten(&history, fsio::DIR_MODE)?;
            for file in [STATE_FILE, AUDIT_FILE, RULES_FILE, LOCK_FILE] {
                fsio::tighten(&self.dir.join(file), fsio::FILE_MODE)?;
            }
            if walk {
                for s in state::list_snapshots(&history)? {
                    fsio::tighten(&history.join(s.name), fsio::FILE_MODE)?;
                }
            }
        }
        Ok(())
    }

    fn clean_temporaries(&self) -> Result<(), StoreError> {
        // Only files: qiwang never creates a directory with these names, so one in the
        // way is the user's, and the write that needs the name reports it. Removing a
        // name never follows a link; `history` itself is refused if it is one.
        for file in [STATE_FILE, JOURNAL_FILE, AUDIT_FILE, RULES_FILE] {
            let tmp = fsio::tmp_path(&self.dir.join(file));
            let is_dir = fs::symlink_metadata(&tmp).is_ok_and(|m| m.is_dir());
            if !is_dir {
                fsio::remove_if_exists(&tmp)?;
            }
        }
        let history = self.history_dir();
        fsio::refuse_link(&history)?;
        let entries = match fs::read_dir(&history) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(StoreError::io("list", &history, e)),
        };
        for entry in entries {
            let entry = entry.map_err(|e| StoreError::io("list", &history, e))?;
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if !is_dir && entry.file_name().to_string_lossy().ends_with(".tmp") {
                fsio::remove_if_exists(&entry.path())?;
            }
        }
        Ok(())
    }

    /// The recovery rules of the module documentation. `state` is the current, valid
    /// `qiwang.json`, which this never changes.
    fn reconcile(&self, state: &[u8]) -> Result<Option<Recovery>, StoreError> {
        let Some(entry) = self.read_journal()? else {
            return Ok(None);
        };
        let audit_path = self.audit_path();
        let (bytes, trail) = audit::read(&audit_path)?;
        if trail.torn_line.is_some() {
            fsio::truncate_synced(&audit_path, audit::complete_len(&bytes))?;
        }
        let seq = entry.seq;
        let outcome = if trail.contains(seq) {
            Recovery::AlreadyLogged { seq }
        } else {
            fsio::refuse_link(&self.history_dir())?;
            let snapshot = entry.snapshot.as_ref().map(|n| self.history_dir().join(n));
            let landed = match &snapshot {
                Some(path) => match fsio::read_optional(path)? {
                    Some(old) => state::snapshot_state(path, old)? != state,
                    None => false,
                },
                None => false,
            };
            if landed {
                let line = AuditEntry {
                    recovered: true,
                    ..entry
                };
                fsio::append_synced(&audit_path, &line.to_line())?;
                Recovery::Completed { seq }
            } else {
                if let Some(path) = snapshot {
                    fsio::remove_if_exists(&path)?;
                    fsio::sync_dir(&self.history_dir())?;
                }
                Recovery::Discarded { seq }
            }
        };
        fsio::remove_if_exists(&self.journal_path())?;
        fsio::sync_dir(&self.dir)?;
        Ok(Some(outcome))
    }

    /// The audit trail, refused if a new line could not follow it (after reconciling, an
    /// incomplete last line is not qiwang's own).
    fn writable_audit(&self) -> Result<AuditTrail, StoreError> {
        let audit_path = self.audit_path();
        let Some(bytes) = fsio::read_optional(&audit_path)? else {
            return Err(StoreError::Damaged {
                path: audit_path,
                detail: Text::new("操作记录 audit.log 不见了", "the audit log is missing"),
                recovery: Text::new(
                    "请从备份恢复它，或新建一个空的 audit.log 重新开始记录；没有它 qiwang 不记录任何修改",
                    "restore it from a backup, or create an empty audit.log to start a new trail; qiwang records no change without it",
                ),
            });
        };
        let trail = audit::parse(&audit_path, &bytes)?;
        if let Some(line) = trail.torn_line {
            return Err(StoreError::Damaged {
                path: audit_path,
                detail: Text::new(
                    format!("第 {line} 行不完整"),
                    format!("line {line} is incomplete"),
                ),
                recovery: Text::new(
                    format!("请手工删除不完整的第 {line} 行；qiwang 不会在它后面追加"),
                    format!(
                        "delete the incomplete line {line} by hand; qiwang will not append after it"
                    ),
                ),
            });
        }
        Ok(trail)
    }

    /// The audit line for the next change after `trail` (from [`Store::writable_audit`]).
    fn next_entry(
        &self,
        trail: &AuditTrail,
        command: &CommandInfo,
        kind: EntryKind,
        summary: String,
        details: serde_json::Value,
    ) -> Result<AuditEntry, StoreError> {
        let newest_snapshot = state::list_snapshots(&self.history_dir())?
            .last()
            .map_or(0, |s: &SnapshotFile| s.seq);
        let seq = trail.last_seq().max(newest_snapshot) + 1;
        Ok(AuditEntry {
            seq,
            time: command.time,
            user: command.user.clone(),
            command: command.argv.clone(),
            kind,
            summary,
            details,
            snapshot: Some(state::snapshot_name(seq, &command.name)),
            undoes: None,
            redoes: None,
            recovered: false,
        })
    }

    /// Steps 1–5 of the module documentation; on failure, rolls back to `before`.
    // The closures below carry a StoreError (with its messages in two languages) beside the
    // rollback state; errors are the cold path, so their size does not matter here.
    #[allow(clippy::result_large_err)]
    fn commit(
        &self,
        lock: &LockGuard,
        before: &[u8],
        after: &[u8],
        entry: &AuditEntry,
    ) -> Result<(), StoreError> {
        let snapshot = self
            .history_dir()
            .join(entry.snapshot.as_deref().expect("a change has a snapshot"));
        fsio::write_atomic(&self.journal_path(), &entry.to_line())?;
        let audit_path = self.audit_path();
        let written = fsio::write_atomic(&snapshot, &state::compress(before))
            // The commit point: refused if the lock no longer protects the directory.
            .and_then(|()| lock.still_ours())
            .and_then(|()| fsio::write_atomic(&self.state_path(), after))
            .map_err(|e| (e, None));
        let logged = written.and_then(|()| {
            let len = fs::metadata(&audit_path)
                .map_err(|e| (StoreError::io("read", &audit_path, e), None))?
                .len();
            fsio::append_synced(&audit_path, &entry.to_line()).map_err(|e| (e, Some(len)))
        });
        if let Err((error, audit_len)) = logged {
            // If the rollback fails too, the journal stays and the next command reconciles.
            let _ = self.rollback(before, &snapshot, audit_len);
            return Err(error);
        }
        // The change is complete and logged; a journal left behind is harmless.
        let _ =
            fsio::remove_if_exists(&self.journal_path()).and_then(|_| fsio::sync_dir(&self.dir));
        Ok(())
    }

    /// An audit line without a state change (an undo of a state restored by hand).
    fn commit_line_only(&self, entry: &AuditEntry) -> Result<(), StoreError> {
        fsio::write_atomic(&self.journal_path(), &entry.to_line())?;
        let audit_path = self.audit_path();
        let len = fs::metadata(&audit_path)
            .map_err(|e| StoreError::io("read", &audit_path, e))?
            .len();
        if let Err(error) = fsio::append_synced(&audit_path, &entry.to_line()) {
            let _ = fsio::truncate_synced(&audit_path, len)
                .and_then(|()| fsio::remove_if_exists(&self.journal_path()));
            return Err(error);
        }
        let _ =
            fsio::remove_if_exists(&self.journal_path()).and_then(|_| fsio::sync_dir(&self.dir));
        Ok(())
    }

    fn rollback(
        &self,
        before: &[u8],
        snapshot: &Path,
        audit_len: Option<u64>,
    ) -> Result<(), StoreError> {
        if let Some(len) = audit_len {
            fsio::truncate_synced(&self.audit_path(), len)?;
        }
        let state_path = self.state_path();
        let current = fsio::read_optional(&state_path)?;
        if current.as_deref() != Some(before) {
            // The rename had happened: write the old state back. The rename freed the
            // old state's blocks, so this fits where the old state was.
            fsio::write_atomic(&state_path, before)?;
        }
        fsio::remove_if_exists(snapshot)?;
        fsio::sync_dir(&self.history_dir())?;
        fsio::remove_if_exists(&self.journal_path())?;
        fsio::sync_dir(&self.dir)
    }
}

/// Which changes are in effect and which undos can be taken back, from replaying the
/// trail: a change is done; an undo takes its change out and can be redone until the
/// next change; a redo puts the change back.
#[derive(Debug, Default)]
struct Stacks {
    /// Changes in effect, oldest first.
    done: Vec<u64>,
    /// Undos that `redo` can take back, oldest first.
    redoable: Vec<u64>,
}

impl Stacks {
    fn of(trail: &AuditTrail) -> Stacks {
        let mut stacks = Stacks::default();
        let undone_by: std::collections::BTreeMap<u64, u64> = trail
            .entries
            .iter()
            .filter_map(|e| e.undoes.map(|c| (e.seq, c)))
            .collect();
        for e in &trail.entries {
            match e.kind {
                EntryKind::Init => {}
                EntryKind::Change => {
                    stacks.done.push(e.seq);
                    stacks.redoable.clear();
                }
                EntryKind::Undo => {
                    if let Some(c) = e.undoes {
                        stacks.done.retain(|&d| d != c);
                    }
                    stacks.redoable.push(e.seq);
                }
                EntryKind::Redo => {
                    if let Some(u) = e.redoes {
                        stacks.redoable.retain(|&x| x != u);
                        if let Some(&c) = undone_by.get(&u) {
                            stacks.done.push(c);
                        }
                    }
                }
            }
        }
        stacks
    }
}

/// The newest change in effect: what `undo` reverts.
fn undo_target(trail: &AuditTrail) -> Result<AuditEntry, StoreError> {
    let seq = *Stacks::of(trail)
        .done
        .last()
        .ok_or(StoreError::NothingToUndo)?;
    Ok(trail
        .entries
        .iter()
        .find(|e| e.seq == seq)
        .expect("the stacks hold logged lines")
        .clone())
}

#[cfg(test)]
mod tests {
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
                fsio::append_synced(&store.audit_path(), &line[..line.len() / 2]).unwrap()
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
                                Ok::<_, Infallible>(Change::changed(
                                    (),
                                    "p2",
                                    serde_json::Value::Null,
                                ))
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
}
