//! Whether `audit.log` accounts for `history/`: without a crash journal, every file of
//! `history/` has its line in `audit.log` (the invariant of the crash protocol, `mod.rs`).
//! A trail cut at a line boundary, emptied or replaced by an older copy, or cut inside its
//! last line where no journal says a crash did it, leaves changes in `history/` (and in
//! `qiwang.json`) that no line records: `undo` would restore the snapshot of the last
//! line it knows and so revert every unrecorded change with it. Every change, `undo` and
//! `redo` refuse such a trail with the way back to the state the trail describes, and
//! `qiwang log` prints the same words; nothing is written or guessed.
//!
//! The same check reads the numbering of the lines: each line carries the number after the
//! line before it. A line deleted in the middle (by hand, or as the way out of a damaged
//! line) or repeated breaks it, and undo would replay a trail that lost or doubled a
//! change; the lines before the break are trusted, and the way back is the one above from
//! the last of them. The trail is already read whole before every change (to number the
//! next line), so this costs one pass over its entries in memory and no more reading.

use super::advice::{LISTED, listed, put_back};
use super::{AuditTrail, Store, StoreError, snapshots, state};
use crate::i18n::Text;
use crate::sanitize::shell_path;
use state::SnapshotFile;
use std::path::{Path, PathBuf};

/// The name of the folder, beside `history/`, the advice moves unrecorded files into:
/// one folder in it per incident ([`Store::set_aside`]).
const SET_ASIDE: &str = "history-unlogged";

impl Store {
    /// The refusal of `trail` when it does not account for `history/`: lines numbered
    /// out of turn, files of changes after its last line, or an incomplete last line that
    /// no crash journal explains (with a journal, reconciling cuts it off, and adds the
    /// line of a change that landed: call this after reconciling). `None` when the trail
    /// accounts for every file.
    pub fn unaccounted(&self, trail: &AuditTrail) -> Result<Option<StoreError>, StoreError> {
        self.unaccounted_in(trail, &self.snapshots()?)
    }

    /// [`Store::unaccounted`] with the files of `history/` listed already.
    fn unaccounted_in(
        &self,
        trail: &AuditTrail,
        snapshots: &[SnapshotFile],
    ) -> Result<Option<StoreError>, StoreError> {
        // The numbering of the lines read is checked whatever the journal: a change in
        // flight, or one a crash left, adds a line after them (or half of one, which is
        // not read), and never explains a line missing or repeated among them.
        if let Some(at) = broken(trail) {
            return Ok(Some(self.misnumbered(trail, at, snapshots)));
        }
        // Its file may be in `history/` before its line is in the trail, and a reader
        // without the lock may list the files of later changes of the same command run.
        if trail.interrupted.is_some() {
            return Ok(None);
        }
        if let (Some(line), true) = (trail.torn_line, trail.unterminated) {
            let path = crate::sanitize::shell_path(&self.audit_path());
            return Ok(Some(StoreError::Damaged {
                path: self.audit_path(),
                detail: Text::new(
                    format!(
                        "第 {line} 行是完整的记录，只缺行尾的换行符（多半是用编辑器保存过 audit.log）"
                    ),
                    format!(
                        "line {line} is a whole entry that lacks only its final newline (audit.log was most likely saved by an editor)"
                    ),
                ),
                recovery: Text::new(
                    format!(
                        "在 audit.log 末尾加上换行符（`echo >> {path}`），不要删除这一行；在此之前 qiwang 不修改赛事"
                    ),
                    format!(
                        "add the newline at the end of audit.log (`echo >> {path}`), and do not delete the line; until then qiwang changes nothing"
                    ),
                ),
            }));
        }
        let last = trail.last_seq();
        let unlogged: Vec<SnapshotFile> =
            snapshots.iter().filter(|s| s.seq > last).cloned().collect();
        let torn = trail.torn_line;
        let (zh_torn, en_torn) = torn.map_or((String::new(), String::new()), |line| {
            (
                format!("第 {line} 行不完整，且没有崩溃留下的待完成记录（.pending.json），不是 qiwang 中断的写入"),
                format!(
                    "line {line} is incomplete, and no journal (.pending.json) says a crash cut it, so it is not an interrupted write of qiwang's"
                ),
            )
        });
        let Some(oldest) = unlogged.first() else {
            let Some(line) = torn else {
                return Ok(None);
            };
            // No change is missing a line: the state is the one the trail describes.
            return Ok(Some(StoreError::Damaged {
                path: self.audit_path(),
                detail: Text::new(zh_torn, en_torn),
                recovery: Text::new(
                    format!(
                        "history/ 中没有它记录的修改，请删除不完整的第 {line} 行（audit.log 的最后一行）；在此之前 qiwang 不修改赛事"
                    ),
                    format!(
                        "history/ holds no change of it: delete the incomplete line {line} (the last line of audit.log); until then qiwang changes nothing"
                    ),
                ),
            }));
        };
        let seqs = listed(
            unlogged
                .iter()
                .map(|s| (s.seq.to_string(), format!("#{}", s.seq))),
        );
        let detail = {
            let (zh_sep, en_sep) = if torn.is_some() {
                ("；", "; ")
            } else {
                ("", "")
            };
            let (zh_upto, en_upto) = if last == 0 {
                (
                    "它没有一行完整的记录".to_string(),
                    "it has no whole line".to_string(),
                )
            } else {
                (
                    format!("它只记到第 {last} 步"),
                    format!("it records the changes up to #{last}"),
                )
            };
            Text::new(
                format!(
                    "{zh_torn}{zh_sep}{zh_upto}，history/ 中却还有第 {} 次修改的文件，没有一行记录它们",
                    seqs.zh
                ),
                format!(
                    "{en_torn}{en_sep}{en_upto}, but history/ also holds the files of changes {}, which no line records",
                    seqs.en
                ),
            )
        };
        Ok(Some(StoreError::Damaged {
            path: self.audit_path(),
            detail,
            recovery: self.unlogged_advice(
                trail,
                &unlogged,
                oldest,
                &self.set_aside(last),
                &Text::new(
                    "audit.log 被截断、清空或换成了旧副本",
                    "audit.log was cut, emptied or replaced by an older copy",
                ),
                None,
            ),
        }))
    }

    /// The refusal of a trail whose line `trail.entries[at]` does not carry the number
    /// after the line before it ([`broken`]): the lines before it are kept, the files of
    /// later changes set aside, and the state after the last kept line put back.
    fn misnumbered(&self, trail: &AuditTrail, at: usize, snapshots: &[SnapshotFile]) -> StoreError {
        let kept = AuditTrail {
            entries: trail.entries[..at].to_vec(),
            lines: trail.lines[..at].to_vec(),
            torn_line: None,
            unterminated: false,
            interrupted: None,
        };
        let prev = kept.last_seq();
        let (line, seq) = (trail.lines[at], trail.entries[at].seq);
        let detail = if seq > prev + 1 {
            let (zh_missing, en_missing) = if seq == prev + 2 {
                (format!("第 {} 步", prev + 1), format!("step #{}", prev + 1))
            } else {
                (
                    format!("第 {}–{} 步", prev + 1, seq - 1),
                    format!("steps #{}–#{}", prev + 1, seq - 1),
                )
            };
            Text::new(
                format!(
                    "第 {line} 行记的是第 {seq} 步，而它前面一行记到第 {prev} 步：{zh_missing}没有记录（有一行被删掉了）"
                ),
                format!(
                    "line {line} records step #{seq} right after step #{prev}: no line records {en_missing} (a line was deleted)"
                ),
            )
        } else {
            Text::new(
                format!(
                    "第 {line} 行又记了第 {seq} 步，而它前面一行已记到第 {prev} 步：有一行重复了或顺序被打乱"
                ),
                format!(
                    "line {line} records step #{seq} again after step #{prev}: a line is repeated or out of order"
                ),
            )
        };
        let unlogged: Vec<SnapshotFile> =
            snapshots.iter().filter(|s| s.seq > prev).cloned().collect();
        let keep = if at == 0 { 0 } else { trail.lines[at - 1] };
        let aside = self.set_aside(prev);
        let folder = aside_name(&aside);
        let cut = format!(
            "mkdir -p {aside} && cp -p {audit} {copy} && head -n {keep} {copy} > {audit}",
            aside = shell_path(&aside),
            audit = shell_path(&self.audit_path()),
            copy = shell_path(&aside.join(super::AUDIT_FILE)),
        );
        // A copy of the line before it, with the numbering whole without it: dropping
        // that one line gives back the trail exactly, and nothing is to be redone.
        let copied = at > 0 && trail.entries[at] == trail.entries[at - 1] && {
            let mut rest = trail.clone();
            rest.entries.remove(at);
            rest.lines.remove(at);
            broken(&rest).is_none()
        };
        if copied {
            let drop = format!(
                "mkdir -p {aside} && cp -p {audit} {copy} && sed '{line}d' {copy} > {audit}",
                aside = shell_path(&aside),
                audit = shell_path(&self.audit_path()),
                copy = shell_path(&aside.join(super::AUDIT_FILE)),
            );
            let before = trail.lines[at - 1];
            return StoreError::Damaged {
                path: self.audit_path(),
                detail,
                recovery: Text::new(
                    format!(
                        "第 {line} 行与第 {before} 行完全相同，是重复的一行：请删除第 {line} 行（`{drop}`，原文件留在 {folder} 中），无需重做任何修改；qiwang 没有改动任何文件，在此之前也不修改赛事"
                    ),
                    format!(
                        "line {line} is the same as line {before}, a copy: delete line {line} (`{drop}`, the whole file stays in {folder}) and redo nothing; qiwang changed no file and changes nothing until then"
                    ),
                ),
            };
        }
        let cause = Text::new(
            format!("audit.log 从第 {line} 行起编号不连续（第 {prev} 步之后的行不可信）"),
            format!(
                "the numbering of audit.log breaks at line {line} (its lines after step #{prev} cannot be trusted)"
            ),
        );
        let recovery = match unlogged.first() {
            Some(oldest) => {
                self.unlogged_advice(&kept, &unlogged, oldest, &aside, &cause, Some(&cut))
            }
            None => Text::new(
                format!(
                    "{}，而 history/ 中没有第 {prev} 步之后的修改文件：qiwang.json 就是前 {keep} 行所记的状态。请只保留 audit.log 的前 {keep} 行（`{cut}`，原文件留在 {folder} 中），无需重做任何修改；qiwang 没有改动任何文件，在此之前也不修改赛事",
                    cause.zh
                ),
                format!(
                    "{}, and history/ holds no file of a change after step #{prev}: qiwang.json is the state its first {keep} lines describe. Keep only the first {keep} lines of audit.log (`{cut}`, the whole file stays in {folder}) and redo nothing; qiwang changed no file and changes nothing until then",
                    cause.en
                ),
            ),
        };
        StoreError::Damaged {
            path: self.audit_path(),
            detail,
            recovery,
        }
    }

    /// The way back from changes no line records: put back a full audit.log, or return
    /// to the state the trail describes (the state before the oldest unrecorded change)
    /// with the unrecorded files set aside, and make those changes again.
    fn unlogged_advice(
        &self,
        trail: &AuditTrail,
        unlogged: &[SnapshotFile],
        oldest: &SnapshotFile,
        aside: &Path,
        cause: &Text,
        cut: Option<&str>,
    ) -> Text {
        let folder = aside_name(aside);
        let last = trail.last_seq();
        let (zh_state, en_state) = if last == 0 {
            (
                "`qiwang init` 之后的状态".to_string(),
                "the state after `qiwang init`".to_string(),
            )
        } else {
            (
                format!("第 {last} 步之后的状态"),
                format!("the state after step #{last}"),
            )
        };
        let mv = self.move_aside(unlogged, last, aside);
        // The state before the oldest unrecorded change is the state after the last line
        // (lines between them, if any, changed nothing: they have no file).
        let back = if snapshots::is_step(&oldest.name) || !self.is_whole_good(&oldest.name) {
            // Of a change numbered `last` at most: the later files are the ones this
            // advice sets aside.
            self.recovery_on(trail, Some(last)).words()
        } else {
            let holding = Text::new(zh_state.clone(), en_state.clone());
            put_back(
                &aside.join(&oldest.name),
                &self.state_path(),
                Some(&holding),
            )
        };
        let (zh_torn, en_torn) = match (cut, trail.torn_line) {
            (Some(cut), _) => (
                format!("只保留 audit.log 中可信的前几行（`{cut}`，原文件留在 {folder} 中），"),
                format!(
                    "keep only the lines of audit.log that can be trusted (`{cut}`, the whole file stays in {folder}), "
                ),
            ),
            (None, Some(line)) => (
                format!("删除不完整的第 {line} 行（audit.log 的最后一行），"),
                format!("delete the incomplete line {line} (the last line of audit.log), "),
            ),
            (None, None) => (String::new(), String::new()),
        };
        let names = listed(unlogged.iter().map(|s| {
            let name = format!("#{} {}", s.seq, command_of(&s.name));
            (name.clone(), name)
        }));
        Text::new(
            format!(
                "{}，而 qiwang.json 多半已含这些修改，撤销会把它们一次撤掉；qiwang 没有改动任何文件，在此之前也不修改赛事。若有完整的 audit.log（备份），请把它放回；否则先备份 qiwang.json，再把这些文件移出 history/（`{mv}`），{zh_torn}然后回到{zh_state}：{}，最后重做这些修改（文件名中是其命令）：{}",
                cause.zh, back.zh, names.zh
            ),
            format!(
                "{} while qiwang.json most likely holds those changes, which undo would revert all at once; qiwang changed no file and changes nothing until then. Put the whole audit.log back if you have it (a backup); otherwise back up qiwang.json, move those files out of history/ (`{mv}`), {en_torn}then go back to {en_state}: {}, and make those changes again (their commands are in the file names): {}",
                cause.en, back.en, names.en
            ),
        )
    }

    /// The command that moves the `unlogged` files of `history/` (those of the changes
    /// after step `last`) into the folder `aside`: `mv` naming each, or, for more than
    /// [`LISTED`] of them, a loop that moves every file numbered after `last`, so that
    /// the command stays one short line however many changes the trail lost.
    fn move_aside(&self, unlogged: &[SnapshotFile], last: u64, aside: &Path) -> String {
        let aside = shell_path(aside);
        if unlogged.len() <= LISTED {
            let files: Vec<String> = unlogged
                .iter()
                .map(|s| shell_path(&self.history_dir().join(&s.name)))
                .collect();
            return format!("mkdir -p {aside} && mv {} {aside}", files.join(" "));
        }
        // The number of a file is the digits before its first `-` (`state::snapshot_seq`).
        let history = shell_path(&self.history_dir());
        format!(
            "mkdir -p {aside} && for f in {history}/*; do n=${{f##*/}}; n=${{n%%-*}}; if [ \"$n\" -gt {last} ] 2>/dev/null; then mv \"$f\" {aside}; fi; done"
        )
    }

    /// The folder the advice about an incident whose trusted lines end at step `last` sets
    /// files aside in: `history-unlogged/after-<last>/`, or the first of
    /// `after-<last>-2/`, `-3/` … not there yet, so that the files (and the copy of
    /// `audit.log`) of an earlier incident are never overwritten, even one that ended at
    /// the same step (the changes made again reuse the numbers of the files set aside).
    fn set_aside(&self, last: u64) -> PathBuf {
        let root = self.dir().join(SET_ASIDE);
        let mut dir = root.join(format!("after-{last}"));
        let mut n = 1;
        while std::fs::symlink_metadata(&dir).is_ok() {
            n += 1;
            dir = root.join(format!("after-{last}-{n}"));
        }
        dir
    }

    /// Whether the event's `audit.log`, `history/` and lock are there without its state
    /// file: the remains of an event whose `qiwang.json` was deleted or moved.
    pub(super) fn lost_state(&self) -> bool {
        std::fs::symlink_metadata(self.state_path()).is_err()
            && self.audit_path().is_file()
            && self.snapshots().is_ok_and(|s| !s.is_empty())
    }

    /// The files of `history/`, oldest first, listed for an operation that has not
    /// listed them yet.
    pub(super) fn snapshots(&self) -> Result<Vec<SnapshotFile>, StoreError> {
        state::list_snapshots(&self.history_dir())
    }

    /// The refusal of an event whose `qiwang.json` is missing ([`Store::lost_state`]):
    /// the snapshot to put back and the changes to redo.
    pub(super) fn missing_state(&self) -> StoreError {
        StoreError::Damaged {
            path: self.state_path(),
            detail: Text::new(
                "文件不见了，而 audit.log 和 history/ 还在：这是一个已有的赛事",
                "the file is missing while audit.log and history/ are there: this is an existing event",
            ),
            recovery: self.way_back_hint(&Text::new(
                "qiwang 不会新建它（`qiwang init` 也不会覆盖这个赛事）",
                "qiwang does not create it anew (nor does `qiwang init` overwrite this event)",
            )),
        }
    }

    /// [`Store::unaccounted`] as an error, for a command about to write, with the files
    /// of `history/` listed already.
    pub(super) fn accounted(
        &self,
        trail: &AuditTrail,
        snapshots: &[SnapshotFile],
    ) -> Result<(), StoreError> {
        match self.unaccounted_in(trail, snapshots)? {
            Some(refusal) => Err(refusal),
            None => Ok(()),
        }
    }
}

/// The index of the first line of `trail` that does not carry the number after the line
/// before it (the first line: 1), `None` when the numbering runs unbroken.
fn broken(trail: &AuditTrail) -> Option<usize> {
    let mut prev = 0;
    for (at, entry) in trail.entries.iter().enumerate() {
        if entry.seq != prev + 1 {
            return Some(at);
        }
        prev = entry.seq;
    }
    None
}

/// `history-unlogged/after-N/`, the folder `aside` as the advice names it in words.
fn aside_name(aside: &Path) -> String {
    let name = aside.file_name().unwrap_or_default().to_string_lossy();
    format!("{SET_ASIDE}/{name}/")
}

/// The command word in a history file's name: `000012-player-add.json.gz` → `player-add`.
fn command_of(name: &str) -> &str {
    let stem = name
        .strip_suffix(".json.gz")
        .or_else(|| name.strip_suffix(state::STEP_SUFFIX))
        .or_else(|| name.strip_suffix(".json"))
        .unwrap_or(name);
    stem.split_once('-').map_or(stem, |(_, command)| command)
}
