//! The event directory: loading and saving `qiwang.json`, the exclusive lock, the
//! snapshots in `history/` and the audit trail in `audit.log`.
//!
//! ```text
//! <event>/qiwang.json    the whole state (model::Event)
//! <event>/rules.toml     the rulebook as given at init, verbatim, for people to read
//! <event>/history/       NNNNNN-<command>.json.gz: the state before change NNNNNN, gzip
//!                        (events from before compression also hold plain .json ones),
//!                        or NNNNNN-<command>.diff.gz: a step, the change as a checked
//!                        line delta from which that state is rebuilt (`snapshots.rs`)
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
//! This file holds the transaction and its commit (the steps below); `directory.rs`
//! creates, finds and opens the event and reads its files; `recovery.rs`
//! reconciles what a crash left (and `unlock`), `history.rs` plans and writes undo and
//! redo, `snapshots.rs` decides the form of each file of `history/` and rebuilds the state
//! it holds, `linediff.rs` finds and applies the line deltas of steps, `state.rs` encodes
//! and checks `qiwang.json` and names the snapshots, `audit.rs` reads the audit trail,
//! `unlogged.rs` refuses a trail that lost the lines of changes `history/` holds,
//! `stale.rs` a state that is not the one the trail says is in effect (an older copy),
//! `kept.rs` lets a change reuse the event its command read while the state file is
//! unchanged, `fsio.rs` holds the file primitives and the lock, `diff.rs` words what
//! `undo --dry-run` would change, `advice.rs` the way back from a damaged state file,
//! `error.rs` the errors, and `tests/` tests the store as a whole
//! (`tests/steps.rs` the history of a large event kept as steps).
//!
//! # Crash consistency
//!
//! A change number `N` goes through these steps, each durable (written to a temporary
//! file, synced, renamed, directory synced) before the next starts:
//!
//! 1. `.pending.json` ← the audit line for `N` (the journal), naming the file of step 2;
//! 2. `history/N-<command>.json.gz` ← the exact bytes of `qiwang.json` before the change,
//!    compressed; or, for a large state whose chain is intact, the step
//!    `history/N-<command>.diff.gz` from which those bytes are rebuilt and checked;
//! 3. `qiwang.json` ← the new state (the commit point: one atomic rename), refused if the
//!    event directory was moved or replaced while the lock was held;
//! 4. `audit.log` ← the line for `N` appended and synced;
//! 5. `.pending.json` removed.
//!
//! An undo or redo whose state is already in place (restored by hand) writes no snapshot
//! and no state: only steps 1, 4 and 5.
//!
//! Invariant: without `.pending.json`, every snapshot `N` in `history/` has line `N` in
//! `audit.log` and `qiwang.json` is the state after the last line; it records in
//! `"change"` the line of the change whose state it is (`stale.rs`), which step 3 writes. With it, the next
//! command (under the lock, before anything else) reconciles deterministically, after
//! cutting off a torn last line of `audit.log`: line `N` already logged → the change was
//! complete; snapshot `N` missing, or (unpacked, or rebuilt for a step) equal byte for
//! byte to `qiwang.json` →
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
//! qiwang is refused with a message naming the snapshot to put back and the changes to
//! redo after it that give back the state `audit.log` describes (`advice.rs`), and no
//! command writes anything while it is refused.

pub mod action;
mod advice;
mod audit;
mod diff;
mod directory;
mod error;
mod fsio;

/// Writes a private file beside the event's state (the hall server's token file) as the
/// store writes its own: owner-only, through a new temporary file renamed into place,
/// never through a symbolic link.
pub(crate) fn write_private_file(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    fsio::write_atomic(path, bytes)
}

/// Reads a private file beside the event's state, `None` when it does not exist; a
/// symbolic link is refused, never followed.
pub(crate) fn read_private_file(path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
    fsio::read_optional(path)
}

pub(crate) use fsio::{Stamp, file_stamp};
mod history;
mod kept;
mod linediff;
mod recovery;
mod snapshots;
mod stale;
mod state;
mod unlogged;

pub use audit::{AuditEntry, AuditTrail, BRIEF_KEYS, EntryKind};
pub use error::{StoreError, TxError};
pub use history::{RedoReport, UndoPlan, UndoReport};
pub use kept::Kept;
pub use recovery::{Recovery, UnlockReport};

use crate::i18n::Text;
use crate::model::Event;
use chrono::{DateTime, DurationRound, TimeDelta, Utc};
use fsio::LockGuard;
use state::SnapshotFile;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The audit line this process logged last (0: none yet): see [`logged_by_this_process`].
static LOGGED: AtomicU64 = AtomicU64::new(0);

/// The sequence number of the newest audit line this process has logged, if any: a
/// command whose output then cannot be written says that its change was saved all the
/// same, so that nobody runs a penalty or a warning twice.
pub fn logged_by_this_process() -> Option<u64> {
    Some(LOGGED.load(Ordering::Relaxed)).filter(|&seq| seq > 0)
}

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

    /// `$QIWANG_USER`, else `$USER`, `$LOGNAME` or `$USERNAME`, else [`UNKNOWN_USER`].
    pub fn user_from_env() -> String {
        ["QIWANG_USER", "USER", "LOGNAME", "USERNAME"]
            .iter()
            .filter_map(|key| std::env::var(key).ok())
            .find(|v| !v.trim().is_empty())
            .unwrap_or_else(|| UNKNOWN_USER.to_string())
    }
}

/// The user `audit.log` records when the environment names none (no `$QIWANG_USER`,
/// `$USER`, `$LOGNAME` or `$USERNAME`, as under a service or a bare `env -i`).
pub const UNKNOWN_USER: &str = "unknown";

/// An audit line's user as `log`, `undo` and `redo` show it: the recorded name, or
/// 未知/unknown for [`UNKNOWN_USER`] (the file keeps the one English marker).
pub fn user_label(user: &str, lang: crate::i18n::Lang) -> &str {
    match user {
        UNKNOWN_USER => lang.pick("未知", UNKNOWN_USER),
        user => user,
    }
}

/// What a transaction's closure did to the event.
#[derive(Debug, Clone, PartialEq)]
pub enum Change<T> {
    /// The event changed: write it, snapshot the old one, log the change.
    Changed {
        /// What the closure returns to the command.
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

    /// The same change, its value turned by `f` (for the command to render).
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Change<U> {
        match self {
            Change::Changed {
                value,
                summary,
                details,
            } => Change::Changed {
                value: f(value),
                summary,
                details,
            },
            Change::Unchanged(value) => Change::Unchanged(f(value)),
        }
    }
}

/// One event directory.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
    busy_timeout: Duration,
}

impl Store {
    /// Runs `f` on the event under the exclusive lock and, if it reports a change, saves
    /// the result: snapshot of the old state, atomic replace, audit line. If `f` fails or
    /// reports [`Change::Unchanged`], nothing is written.
    pub fn transaction<T, E>(
        &self,
        command: &CommandInfo,
        f: impl FnOnce(&mut Event) -> Result<Change<T>, E>,
    ) -> Result<T, TxError<E>> {
        self.transaction_kept(None, command, f)
    }

    /// [`Store::transaction`] for a command that read the event before ([`Store::load_kept`]):
    /// while `qiwang.json` still holds exactly the bytes `kept`'s event was read from,
    /// under the lock, `f` runs on that event instead of the same state read and checked
    /// again; otherwise the state is read afresh, as [`Store::transaction`] does.
    pub fn transaction_on<T, E>(
        &self,
        kept: Kept,
        command: &CommandInfo,
        f: impl FnOnce(&mut Event) -> Result<Change<T>, E>,
    ) -> Result<T, TxError<E>> {
        self.transaction_kept(Some(kept), command, f)
    }

    fn transaction_kept<T, E>(
        &self,
        kept: Option<Kept>,
        command: &CommandInfo,
        f: impl FnOnce(&mut Event) -> Result<Change<T>, E>,
    ) -> Result<T, TxError<E>> {
        let lock = self.lock()?;
        let (before, mut event, read) = self.read_state_kept(kept)?;
        let snapshots = self.prepare(&before)?;
        // The state's own record of the change that wrote it, whatever the closure does.
        let written = event.change;
        // The state's text is not held while `f` runs (82 MB at 100,000 players, on top
        // of the pairing engine's peak): it is read again after, and must then be the
        // very file stamped `read` when it was read.
        drop(before);
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
            crate::privacy::mask_free_text(&summary),
            crate::privacy::mask_free_text_json(details),
        );
        event.change = written;
        let before = self.state_again(&read)?;
        let mut after = state::encode(&event, before.len());
        if state::unchanged(&before, &after, &event) {
            return Ok(value);
        }
        drop(event);
        let trail = self.writable_audit(&snapshots)?;
        if let Some(refusal) = self.stale(&trail, written) {
            return Err(refusal.into());
        }
        let entry = self.next_entry(
            &trail,
            &snapshots,
            command,
            EntryKind::Change,
            summary,
            details,
        );
        stale::number(&mut after, entry.seq);
        self.commit(&lock, &before, &after, &entry, &snapshots)?;
        Ok(value)
    }

    /// `qiwang.json` read again under the lock after a change's closure ran; refused as
    /// a lost lock when it is no longer the file stamped `read` before (replaced or
    /// written by another program meanwhile), since the change was made to that one.
    fn state_again(&self, read: &fsio::Stamp) -> Result<Vec<u8>, StoreError> {
        let path = self.state_path();
        let (bytes, now) = fsio::read_stamped(&path)?;
        if now != *read {
            return Err(StoreError::LockLost { path });
        }
        Ok(bytes)
    }

    /// Under the lock, before a change: drop stale temporary files, reconcile a crashed
    /// change, and make an event written by an older qiwang owner-only. The files of
    /// `history/` then, listed once: nothing else changes them while the lock is held,
    /// so the change numbers itself, checks the trail and writes its file from this list.
    fn prepare(&self, before: &[u8]) -> Result<Vec<SnapshotFile>, StoreError> {
        let mut snapshots = self.clean_temporaries()?;
        self.reconcile(before, &mut snapshots)?;
        self.tighten(&snapshots)?;
        Ok(snapshots)
    }

    /// Owner-only permissions on the event directory, `history/` and every file qiwang
    /// wrote there (events created before qiwang did so are tightened on their next
    /// change). The snapshots are only walked when a directory was open to others.
    fn tighten(&self, snapshots: &[SnapshotFile]) -> Result<(), StoreError> {
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
                for s in snapshots {
                    fsio::tighten(&history.join(&s.name), fsio::FILE_MODE)?;
                }
            }
        }
        Ok(())
    }

    /// The audit trail, refused if a new line could not follow it: an incomplete last
    /// line, or files of `history/` (`snapshots`) it has no line for.
    fn writable_audit(&self, snapshots: &[SnapshotFile]) -> Result<AuditTrail, StoreError> {
        // Every change writes its snapshot there: without the folder it would fail half
        // way, with a raw error and a journal left behind.
        let history = self.history_dir();
        if !history.is_dir() {
            let mkdir = format!("mkdir {}", crate::sanitize::shell_path(&history));
            return Err(StoreError::Damaged {
                path: history,
                detail: Text::new(
                    "快照文件夹 history/ 不见了",
                    "the snapshot folder history/ is missing",
                ),
                recovery: Text::new(
                    format!(
                        "请从备份恢复它；或用 `{mkdir}` 新建一个空文件夹后继续（此前的修改就无法再撤销）"
                    ),
                    format!(
                        "restore it from a backup, or create an empty one with `{mkdir}` and go on (the changes before then can no longer be undone)"
                    ),
                ),
            });
        }
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
        let mut trail = audit::parse_brief(&audit_path, &bytes)?;
        // After reconciling, an incomplete last line is not qiwang's own, and a file of
        // history/ without its line is a change the trail lost (`unlogged.rs`). A journal
        // left is a change another command is making (the callers that hold the lock have
        // reconciled it): a reader without the lock (`undo --dry-run`) sees its file before
        // its line, and is not refused for it.
        trail.interrupted = self.read_journal()?.map(|e| e.seq);
        self.accounted(&trail, snapshots)?;
        trail.interrupted = None;
        Ok(trail)
    }

    /// The audit line for the next change after `trail` (from [`Store::writable_audit`])
    /// and the files of `history/`.
    fn next_entry(
        &self,
        trail: &AuditTrail,
        snapshots: &[SnapshotFile],
        command: &CommandInfo,
        kind: EntryKind,
        summary: String,
        details: serde_json::Value,
    ) -> AuditEntry {
        let newest_snapshot = snapshots.last().map_or(0, |s| s.seq);
        let seq = trail.last_seq().max(newest_snapshot) + 1;
        AuditEntry {
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
        }
    }

    /// Steps 1–5 of the module documentation; on failure, rolls back to `before`.
    /// `snapshots` are the files of `history/` ([`Store::prepare`]).
    // The closures below carry a StoreError (with its messages in two languages) beside the
    // rollback state; errors are the cold path, so their size does not matter here.
    #[allow(clippy::result_large_err)]
    fn commit(
        &self,
        lock: &LockGuard,
        before: &[u8],
        after: &[u8],
        entry: &AuditEntry,
        snapshots: &[SnapshotFile],
    ) -> Result<(), StoreError> {
        // The form of the change's history file (a whole snapshot or a step) is settled
        // before the journal names it.
        let whole_name = entry.snapshot.as_deref().expect("a change has a snapshot");
        let (name, kept) = self.history_file(whole_name, before, after, snapshots)?;
        let entry = &AuditEntry {
            snapshot: Some(name),
            ..entry.clone()
        };
        let snapshot = self
            .history_dir()
            .join(entry.snapshot.as_deref().expect("a change has a snapshot"));
        fsio::write_atomic(&self.journal_path(), &entry.to_line())?;
        let audit_path = self.audit_path();
        let written = fsio::write_atomic(&snapshot, &kept)
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
        LOGGED.store(entry.seq, Ordering::Relaxed);
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
        LOGGED.store(entry.seq, Ordering::Relaxed);
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

#[cfg(test)]
mod tests;
