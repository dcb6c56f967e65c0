//! Crash recovery: reconciling a change a killed command left half-done (the rules in
//! the module documentation of `store`), removing stale temporaries, and `unlock`.

use super::state::{self, SnapshotFile};
use super::{
    AUDIT_FILE, AuditEntry, JOURNAL_FILE, RULES_FILE, STATE_FILE, Store, StoreError, audit, fsio,
};
use std::fs;
use std::time::Duration;

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
    Completed {
        /// The sequence number of the interrupted change.
        seq: u64,
    },
    /// The new state had not landed; its snapshot was deleted.
    Discarded {
        /// The sequence number of the interrupted change.
        seq: u64,
    },
    /// The change had been logged; only the journal was left to remove.
    AlreadyLogged {
        /// The sequence number of the interrupted change.
        seq: u64,
    },
}

impl Store {
    pub(super) fn settled(self) -> Store {
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
        let mut snapshots = self.clean_temporaries()?;
        self.reconcile(&before, &mut snapshots)
    }

    /// Reconciles a change interrupted by a crash (see the module documentation) and
    /// removes stale temporary files. Every changing command does this first; call it
    /// directly to repair without changing anything.
    pub fn recover(&self) -> Result<Option<Recovery>, StoreError> {
        let _lock = self.lock()?;
        let (before, _) = self.read_state()?;
        let mut snapshots = self.clean_temporaries()?;
        self.reconcile(&before, &mut snapshots)
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
        let mut snapshots = self.clean_temporaries()?;
        let recovery = self.reconcile(&before, &mut snapshots)?;
        let removed = fsio::remove_if_exists(&self.lock_path())?;
        drop(lock);
        Ok(UnlockReport {
            recovery,
            removed_lock_file: removed,
        })
    }

    /// Removes the temporary files a killed write left; the snapshots of `history/`,
    /// from the same listing.
    pub(super) fn clean_temporaries(&self) -> Result<Vec<SnapshotFile>, StoreError> {
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
        let (snapshots, temporaries) = state::list_history(&history)?;
        for tmp in temporaries {
            fsio::remove_if_exists(&tmp)?;
        }
        Ok(snapshots)
    }

    /// The recovery rules of the module documentation. `state` is the current, valid
    /// `qiwang.json`, which this never changes; `snapshots`, the files of `history/`
    /// ([`Store::clean_temporaries`]), loses the snapshot a discarded change left.
    pub(super) fn reconcile(
        &self,
        state: &[u8],
        snapshots: &mut Vec<SnapshotFile>,
    ) -> Result<Option<Recovery>, StoreError> {
        let Some(entry) = self.read_journal()? else {
            return Ok(None);
        };
        let audit_path = self.audit_path();
        let (bytes, trail) = audit::read_brief(&audit_path)?;
        if trail.torn_line.is_some() {
            fsio::truncate_synced(&audit_path, audit::complete_len(&bytes))?;
        }
        let seq = entry.seq;
        let outcome = if trail.contains(seq) {
            Recovery::AlreadyLogged { seq }
        } else {
            fsio::refuse_link(&self.history_dir())?;
            let snapshot = entry.snapshot.as_ref().map(|n| self.history_dir().join(n));
            // Landed unless the file is missing or holds (rebuilt) exactly this state.
            let landed = match &entry.snapshot {
                Some(name) => {
                    let present = fsio::read_optional(&self.history_dir().join(name))?.is_some();
                    present && !self.history_holds(name, state)?
                }
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
                    snapshots.retain(|s| entry.snapshot.as_ref() != Some(&s.name));
                }
                Recovery::Discarded { seq }
            }
        };
        fsio::remove_if_exists(&self.journal_path())?;
        fsio::sync_dir(&self.dir)?;
        Ok(Some(outcome))
    }
}
