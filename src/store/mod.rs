//! The event directory: loading and saving `qiwang.json`, the exclusive lock, the
//! snapshots in `history/` and the audit trail in `audit.log`.
//!
//! ```text
//! <event>/qiwang.json    the whole state (model::Event)
//! <event>/rules.toml     the rulebook as given at init, verbatim, for people to read
//! <event>/history/       NNNNNN-<command>.json: the state before change NNNNNN
//! <event>/audit.log      one JSON line per change (AuditEntry)
//! <event>/.lock          taken exclusively by every command that changes the event
//! <event>/.pending.json  the audit line of a change in progress (exists only mid-change)
//! ```
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
//! 2. `history/N-<command>.json` ← the exact bytes of `qiwang.json` before the change;
//! 3. `qiwang.json` ← the new state (the commit point: one atomic rename);
//! 4. `audit.log` ← the line for `N` appended and synced;
//! 5. `.pending.json` removed.
//!
//! Invariant: without `.pending.json`, every snapshot `N` in `history/` has line `N` in
//! `audit.log` and `qiwang.json` is the state after the last line. With it, the next
//! command (under the lock, before anything else) reconciles deterministically:
//! line `N` already logged → the change was complete; snapshot `N` missing, or equal byte
//! for byte to `qiwang.json` → the change never landed, and the snapshot is deleted;
//! otherwise the rename happened, so line `N` is appended from the journal (marked
//! `recovered`). A change that leaves the state byte-identical is not written at all, so
//! "equal to the snapshot" can only mean "before". Either way `qiwang.json` itself is
//! never touched by recovery: after a crash it is the state before or after the command.
//!
//! A failure while writing (disk full, read-only directory) rolls back the same way:
//! the audit line is cut off, the snapshot is renamed back over `qiwang.json` if the
//! rename had happened, and the journal is removed, so the event is unchanged.
//!
//! A state file that does not parse, lacks a valid `schema_version`, or comes from a newer
//! qiwang is refused with a message naming the newest readable snapshot, and no command
//! writes anything while it is refused.

mod audit;
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
use std::collections::BTreeSet;
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

    /// Creates the event directory (and `dir` itself if missing): `rules.toml` verbatim,
    /// `qiwang.json`, `history/` and `audit.log` with the `init` line. The caller has
    /// validated the rulebook. Refuses a directory that already holds an event; other
    /// files in `dir` are left alone.
    pub fn init(
        dir: &Path,
        rules_toml: &str,
        event: &Event,
        command: &CommandInfo,
    ) -> Result<Store, StoreError> {
        fs::create_dir_all(dir).map_err(|e| StoreError::io("create directory", dir, e))?;
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
        let history = store.history_dir();
        fs::create_dir_all(&history)
            .map_err(|e| StoreError::io("create directory", &history, e))?;
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

    /// The event in `dir` (`--event DIR`).
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        if dir.join(STATE_FILE).is_file() {
            Ok(Store::at(dir))
        } else {
            Err(StoreError::NoEventAt {
                dir: dir.to_path_buf(),
            })
        }
    }

    /// The event in `start` or its nearest parent holding `qiwang.json`, as git finds a
    /// repository.
    pub fn discover(start: &Path) -> Result<Store, StoreError> {
        let start = start
            .canonicalize()
            .map_err(|e| StoreError::io("look for an event in", start, e))?;
        start
            .ancestors()
            .find(|dir| dir.join(STATE_FILE).is_file())
            .map(Store::at)
            .ok_or(StoreError::NotAnEvent {
                searched_from: start.clone(),
            })
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

    fn journal_path(&self) -> PathBuf {
        self.dir.join(JOURNAL_FILE)
    }

    /// What to tell a user whose `qiwang.json` cannot be used (a hand edit that broke it):
    /// the newest readable snapshot in `history/` and how to go back to it.
    pub fn recovery_hint(&self) -> Text {
        state::recovery_hint(&self.history_dir())
    }

    /// Reads and checks the event. Needs no lock: the state file is only ever replaced by
    /// an atomic rename, so a reader sees one complete version.
    pub fn load(&self) -> Result<Event, StoreError> {
        Ok(self.read_state()?.1)
    }

    /// The audit trail, oldest first. Read-only; a torn last line or an interrupted change
    /// is reported in the trail, not repaired.
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
        let _lock = self.lock()?;
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
        let entry = self.next_entry(command, EntryKind::Change, summary, details, None)?;
        self.commit(&before, &after, &entry)?;
        Ok(value)
    }

    /// Restores the state before the newest change that has not been undone yet, so
    /// repeated undos walk back one change at a time (undo lines themselves are never
    /// undone by `undo`; their snapshots in `history/` keep the undone state). Logged as
    /// an `undo` line with its own snapshot.
    pub fn undo(&self, command: &CommandInfo) -> Result<UndoReport, StoreError> {
        let _lock = self.lock()?;
        let (before, _) = self.read_state()?;
        self.prepare(&before)?;
        let trail = self.writable_audit()?;
        let undone: BTreeSet<u64> = trail.entries.iter().filter_map(|e| e.undoes).collect();
        let target = trail
            .entries
            .iter()
            .rev()
            .find(|e| e.kind == EntryKind::Change && !undone.contains(&e.seq))
            .ok_or(StoreError::NothingToUndo)?
            .clone();
        let Some(snapshot) = target.snapshot.clone() else {
            return Err(StoreError::Damaged {
                path: self.audit_path(),
                detail: Text::new(
                    format!("第 {} 次修改没有记录快照", target.seq),
                    format!("change #{} names no snapshot", target.seq),
                ),
                recovery: Text::new(
                    "请用 history/ 中的文件手工恢复状态",
                    "restore the state by hand from a file in history/",
                ),
            });
        };
        let snapshot_path = self.history_dir().join(&snapshot);
        let restored = fsio::read_optional(&snapshot_path)?.ok_or_else(|| StoreError::Damaged {
            path: snapshot_path.clone(),
            detail: Text::new(
                format!("第 {} 次修改的快照不见了", target.seq),
                format!("the snapshot of change #{} is missing", target.seq),
            ),
            recovery: Text::new(
                format!("第 {} 次修改无法撤销；请用普通命令更正赛事", target.seq),
                format!(
                    "change #{} cannot be undone; correct the event with ordinary commands",
                    target.seq
                ),
            ),
        })?;
        // Re-encoded, so a snapshot is restored in the current file format.
        let restored = state::encode(&state::decode(&snapshot_path, &restored, || {
            Text::new(
                format!("第 {} 次修改无法撤销；请用普通命令更正赛事", target.seq),
                format!(
                    "change #{} cannot be undone; correct the event with ordinary commands",
                    target.seq
                ),
            )
        })?);
        let entry = self.next_entry(
            command,
            EntryKind::Undo,
            format!("undid #{}: {}", target.seq, target.summary),
            serde_json::json!({ "undoes": target.seq, "restored": snapshot }),
            Some(target.seq),
        )?;
        if restored == before {
            // Already in that state (restored by hand): only record that it is undone.
            let entry = AuditEntry {
                snapshot: None,
                ..entry
            };
            self.commit_line_only(&entry)?;
        } else {
            self.commit(&before, &restored, &entry)?;
        }
        Ok(UndoReport {
            seq: entry.seq,
            undone: target,
            restored_from: snapshot,
        })
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

    fn lock(&self) -> Result<LockGuard, StoreError> {
        fsio::lock_exclusive(&self.dir.join(LOCK_FILE), self.busy_timeout)
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

    /// Under the lock, before a change: drop stale temporary files and reconcile a
    /// crashed change.
    fn prepare(&self, before: &[u8]) -> Result<(), StoreError> {
        self.clean_temporaries()?;
        self.reconcile(before)?;
        Ok(())
    }

    fn clean_temporaries(&self) -> Result<(), StoreError> {
        // Only files: qiwang never creates a directory with these names, so one in the
        // way is the user's, and the write that needs the name reports it.
        for file in [STATE_FILE, JOURNAL_FILE, AUDIT_FILE, RULES_FILE] {
            let tmp = fsio::tmp_path(&self.dir.join(file));
            if !tmp.is_dir() {
                fsio::remove_if_exists(&tmp)?;
            }
        }
        let history = self.history_dir();
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
            let snapshot = entry.snapshot.as_ref().map(|n| self.history_dir().join(n));
            let landed = match &snapshot {
                Some(path) => match fsio::read_optional(path)? {
                    Some(old) => old != state,
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

    /// The audit line for the next change; refuses an audit log that cannot take one.
    fn next_entry(
        &self,
        command: &CommandInfo,
        kind: EntryKind,
        summary: String,
        details: serde_json::Value,
        undoes: Option<u64>,
    ) -> Result<AuditEntry, StoreError> {
        let trail = self.writable_audit()?;
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
            undoes,
            recovered: false,
        })
    }

    /// Steps 1–5 of the module documentation; on failure, rolls back to `before`.
    // The closures below carry a StoreError (with its messages in two languages) beside the
    // rollback state; errors are the cold path, so their size does not matter here.
    #[allow(clippy::result_large_err)]
    fn commit(&self, before: &[u8], after: &[u8], entry: &AuditEntry) -> Result<(), StoreError> {
        let snapshot = self
            .history_dir()
            .join(entry.snapshot.as_deref().expect("a change has a snapshot"));
        fsio::write_atomic(&self.journal_path(), &entry.to_line())?;
        let audit_path = self.audit_path();
        let written = fsio::write_atomic(&snapshot, before)
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
        if current.as_deref() != Some(before) && snapshot.exists() {
            // The rename had happened: put the old state back with another rename, which
            // needs no free space.
            fs::rename(snapshot, &state_path)
                .map_err(|e| StoreError::io("restore", &state_path, e))?;
            fsio::sync_dir(&self.dir)?;
        } else {
            fsio::remove_if_exists(snapshot)?;
        }
        fsio::sync_dir(&self.history_dir())?;
        fsio::remove_if_exists(&self.journal_path())?;
        fsio::sync_dir(&self.dir)
    }
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
                if path.is_file() {
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
        assert_eq!(snapshot_names(&store), vec!["000002-penalty.json"]);
        assert_eq!(
            fs::read(store.history_dir().join("000002-penalty.json")).unwrap(),
            before
        );
        let trail = store.log().unwrap();
        let last = trail.entries.last().unwrap();
        assert_eq!(last.seq, 2);
        assert_eq!(last.kind, EntryKind::Change);
        assert_eq!(last.details, serde_json::json!({ "n": 1 }));
        assert_eq!(last.snapshot.as_deref(), Some("000002-penalty.json"));
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
        // Only the lock file may have appeared.
        let after: Vec<_> = files_of(&store)
            .into_iter()
            .filter(|(p, _)| !p.ends_with(LOCK_FILE))
            .collect();
        let before: Vec<_> = files
            .into_iter()
            .filter(|(p, _)| !p.ends_with(LOCK_FILE))
            .collect();
        assert_eq!(after, before);
    }

    #[test]
    fn undo_walks_back_one_change_at_a_time() {
        let (_tmp, store) = new_event();
        for _ in 0..3 {
            add_penalty(&store);
        }
        let report = store.undo(&command("undo")).unwrap();
        assert_eq!((report.seq, report.undone.seq), (5, 4));
        assert_eq!(report.restored_from, "000004-penalty.json");
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
        fs::copy(
            store.history_dir().join("000002-penalty.json"),
            store.state_path(),
        )
        .unwrap();
        let report = store.undo(&command("undo")).unwrap();
        assert_eq!(report.undone.seq, 2);
        let last = store.log().unwrap().entries.pop().unwrap();
        assert_eq!((last.kind, last.snapshot), (EntryKind::Undo, None));
        assert_eq!(snapshot_names(&store), vec!["000002-penalty.json"]);
    }

    #[test]
    fn busy_event_is_refused_and_unchanged() {
        let (_tmp, store) = new_event();
        let store = store.with_busy_timeout(Duration::from_millis(50));
        let held = fsio::lock_exclusive(&store.dir().join(LOCK_FILE), Duration::ZERO).unwrap();
        let err = store
            .transaction(&command("penalty"), |event| {
                event.penalties.push(penalty(1));
                Ok::<_, Infallible>(Change::changed((), "p", serde_json::Value::Null))
            })
            .unwrap_err();
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
                &command("penalty"),
                EntryKind::Change,
                "p".into(),
                serde_json::Value::Null,
                None,
            )
            .unwrap();
        let snapshot = store.history_dir().join(entry.snapshot.as_ref().unwrap());
        fsio::write_atomic(&store.journal_path(), &entry.to_line()).unwrap();
        // A temporary file half-written at the moment of the crash.
        fs::write(fsio::tmp_path(&snapshot), b"{\"sche").unwrap();
        if matches!(point, CrashPoint::Journal) {
            return;
        }
        fsio::write_atomic(&snapshot, &before).unwrap();
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
        let err = store
            .transaction(&command("penalty"), |event| {
                event.penalties.push(penalty(9));
                Ok::<_, Infallible>(Change::changed((), "p", serde_json::Value::Null))
            })
            .unwrap_err();
        assert!(
            matches!(err, TxError::Store(StoreError::Io { .. })),
            "{err}"
        );
        fs::remove_dir(&audit).unwrap();
        fs::write(&audit, saved).unwrap();
        let now: Vec<_> = files_of(&store)
            .into_iter()
            .filter(|(p, _)| !p.ends_with(LOCK_FILE))
            .collect();
        let then: Vec<_> = files
            .into_iter()
            .filter(|(p, _)| !p.ends_with(LOCK_FILE))
            .collect();
        assert_eq!(now, then);
        assert_consistent(&store);
    }

    #[test]
    fn a_failed_write_leaves_the_event_unchanged() {
        // A directory in the way of a temporary file: of the snapshot (step 2) and of the
        // new state (step 3, after the snapshot was written, which must be taken back).
        let cases = [
            (
                "history/000003-penalty.json.tmp",
                "history/000003-penalty.json.tmp`",
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
            let err = store.transaction(&command("penalty"), |event| {
                event.penalties.push(penalty(9));
                Ok::<_, Infallible>(Change::changed((), "p", serde_json::Value::Null))
            });
            let text = err.unwrap_err().to_string();
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
        let err = store
            .transaction(&command("penalty"), |event| {
                event.penalties.push(penalty(9));
                Ok::<_, Infallible>(Change::changed((), "p", serde_json::Value::Null))
            })
            .unwrap_err();
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
        let err = store
            .transaction(&command("penalty"), |event| {
                event.penalties.push(penalty(9));
                Ok::<_, Infallible>(Change::changed((), "p", serde_json::Value::Null))
            })
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("is damaged: the audit log is missing"),
            "{err}"
        );
        assert_eq!(fs::read(store.state_path()).unwrap(), state);
        assert_eq!(snapshot_names(&store), vec!["000002-penalty.json"]);
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
        let _ = GroupId::new("unused");
    }
}
