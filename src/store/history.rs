//! Undo and redo: which changes are in effect (replaying the trail), what `undo` and
//! `redo` restore, and what `undo --dry-run` shows. The writing itself goes through the
//! store's commit (see the crash protocol in the module documentation of `store`).

use super::fsio::LockGuard;
use super::state::SnapshotFile;
use super::{AuditEntry, AuditTrail, CommandInfo, EntryKind, Store, StoreError, diff, state};
use crate::i18n::Text;
use crate::model::Event;

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

impl Store {
    /// What `undo` would do now, without doing it: the change it would revert and the
    /// state it would restore.
    pub fn undo_plan(&self) -> Result<UndoPlan, StoreError> {
        let (_, current) = self.read_state()?;
        let trail = self.writable_audit(&self.snapshots()?)?;
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
        self.undo_if(command, |_| true)?
            .ok_or(StoreError::NothingToUndo)
    }

    /// The change `undo` would revert now (read without the lock: it may change before
    /// an undo runs, which [`Store::undo_if`] checks again).
    pub fn next_undo(&self) -> Result<AuditEntry, StoreError> {
        undo_target(&self.writable_audit(&self.snapshots()?)?)
    }

    /// [`Store::undo`], but only when the change it would revert passes `allowed`,
    /// checked under the event's lock so that no other command slips in between; `None`
    /// (and nothing written) when it does not. The arbiter's pages of `qiwang serve`
    /// undo only a result their own token entered.
    pub fn undo_if(
        &self,
        command: &CommandInfo,
        allowed: impl FnOnce(&AuditEntry) -> bool,
    ) -> Result<Option<UndoReport>, StoreError> {
        let lock = self.lock()?;
        let (before, _) = self.read_state()?;
        let snapshots = self.prepare(&before)?;
        let trail = self.writable_audit(&snapshots)?;
        let target = undo_target(&trail)?;
        if !allowed(&target) {
            return Ok(None);
        }
        let (snapshot, restored) = self.restorable_bytes(&target, &target, before.len())?;
        let mut entry = self.next_entry(
            &trail,
            &snapshots,
            command,
            EntryKind::Undo,
            format!("undid #{}: {}", target.seq, target.summary),
            serde_json::json!({ "undoes": target.seq, "restored": snapshot }),
        );
        entry.undoes = Some(target.seq);
        self.write_restored(&lock, &before, &restored, entry.clone(), &snapshots)?;
        Ok(Some(UndoReport {
            seq: entry.seq,
            undone: target,
            restored_from: snapshot,
        }))
    }

    /// Takes back the newest undo that no later change followed: restores exactly the
    /// state that undo replaced (its snapshot). Repeated redos walk forward again; a new
    /// change ends what can be redone. Logged as a `redo` line with its own snapshot.
    pub fn redo(&self, command: &CommandInfo) -> Result<RedoReport, StoreError> {
        let lock = self.lock()?;
        let (before, _) = self.read_state()?;
        let snapshots = self.prepare(&before)?;
        let trail = self.writable_audit(&snapshots)?;
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
        let (snapshot, event) = self.restorable(&undo, &changed)?;
        if let Some(refusal) = self.stale_undo(&undo, &changed, event.change) {
            return Err(refusal);
        }
        let restored = state::encode(&event, before.len());
        drop(event);
        let mut entry = self.next_entry(
            &trail,
            &snapshots,
            command,
            EntryKind::Redo,
            format!("redid #{}: {}", changed.seq, changed.summary),
            serde_json::json!({ "redoes": undo.seq, "reapplies": changed.seq, "restored": snapshot }),
        );
        entry.redoes = Some(undo.seq);
        self.write_restored(&lock, &before, &restored, entry.clone(), &snapshots)?;
        Ok(RedoReport {
            seq: entry.seq,
            undo,
            redone: changed,
            restored_from: snapshot,
        })
    }

    /// [`Store::restorable`] as the bytes to write: the event is encoded and dropped here,
    /// so an undo or redo holds no decoded event while it commits (at 100,000 players
    /// that event and the commit's history file were each hundreds of megabytes).
    /// `like` is the current state's length ([`state::encode`]).
    fn restorable_bytes(
        &self,
        line: &AuditEntry,
        about: &AuditEntry,
        like: usize,
    ) -> Result<(String, Vec<u8>), StoreError> {
        let (snapshot, event) = self.restorable(line, about)?;
        Ok((snapshot, state::encode(&event, like)))
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
        let path = self.history_dir().join(&snapshot);
        let bytes = self
            .history_state(&snapshot)?
            .ok_or_else(|| StoreError::Damaged {
                path: path.clone(),
                detail: Text::new(
                    format!("第 {} 行的快照不见了", line.seq),
                    format!("the snapshot of line #{} is missing", line.seq),
                ),
                recovery: cannot(),
            })?;
        let event = state::decode(&path, &bytes, cannot)?;
        Ok((snapshot, event))
    }

    /// Writes `restored` as an undo or redo line `entry`; a state already restored (by
    /// hand) only gets the line. `snapshots` are the files of `history/`.
    fn write_restored(
        &self,
        lock: &LockGuard,
        before: &[u8],
        restored: &[u8],
        entry: AuditEntry,
        snapshots: &[SnapshotFile],
    ) -> Result<(), StoreError> {
        if restored == before {
            let entry = AuditEntry {
                snapshot: None,
                ..entry
            };
            self.commit_line_only(&entry)
        } else {
            self.commit(lock, before, restored, &entry, snapshots)
        }
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

/// The line whose state `trail` says `qiwang.json` holds: the newest change in effect
/// (an undo restores the state its change started from, a redo the state its undo
/// replaced), or the `init` line while no change is in effect; `None` for a trail
/// without either.
pub(super) fn in_effect(trail: &AuditTrail) -> Option<u64> {
    Stacks::of(trail).done.last().copied().or_else(|| {
        trail
            .entries
            .iter()
            .find(|e| e.kind == EntryKind::Init)
            .map(|e| e.seq)
    })
}

/// The newest change in effect: what `undo` reverts.
pub(super) fn undo_target(trail: &AuditTrail) -> Result<AuditEntry, StoreError> {
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
