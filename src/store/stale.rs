//! Whether `qiwang.json` is the state `audit.log` says is in effect. An older copy of the
//! state put back over the newest (a restore from a backup, a sync tool, a USB stick)
//! while `audit.log` and `history/` stay as they are would otherwise take the next change
//! as if nothing had happened: the change would be logged after lines whose changes the
//! state no longer holds, and `log`, `undo` and the history would describe changes that
//! are not there.
//!
//! So every state qiwang writes records, in its `"change"` field, the audit line of the
//! change whose state it is (`Event::change`): a change writes its own line's number, and
//! an undo or redo restores a snapshot, which carries the number of the change whose
//! state it holds. Replaying the trail gives the number the state must carry
//! ([`history::in_effect`]); a change to a state that carries another is refused with the
//! way back (`undo` and `redo` are not refused: they restore a state the trail describes
//! from `history/`, which is the way back), and `qiwang log` warns in the same words, as
//! does every command that only prints the event ([`Store::stale_for_reading`]). A
//! `redo` of an undo that replaced an older copy is refused, though: it would put that
//! copy back while logging the change as in effect again; the change is made again by
//! hand instead. A file written before qiwang recorded the number carries none and is not
//! judged.
//!
//! The number is read with the state, so the check costs nothing more than replaying the
//! trail a change reads anyway; the state is never hashed. Where the state is written
//! ([`Store::commit`]), the number is spliced into the encoded bytes at its fixed place
//! (the line after `schema_version`), so that a change that leaves the event as it was is
//! still found byte-identical and written not at all.

use super::advice::Recovery;
use super::{AuditEntry, AuditTrail, EntryKind, Store, StoreError, audit, fsio, history};
use crate::i18n::Text;
use crate::sanitize::shell_path;

/// The key of the number's line, as the encoding indents it.
const LINE: &[u8] = b"  \"change\": ";

impl Store {
    /// The refusal of a state that records change `change` when `trail` says the state
    /// of another change is in effect; `None` when they agree, or when either is unknown
    /// (a state written before qiwang recorded the number, a trail without lines). Call
    /// it with a trail that accounts for `history/`, after reconciling a crash.
    pub fn stale(&self, trail: &AuditTrail, change: Option<u64>) -> Option<StoreError> {
        let written = change?;
        let expected = history::in_effect(trail)?;
        if written == expected {
            return None;
        }
        let last = trail.last_seq();
        let state = shell_path(&self.state_path());
        let (detail, why) = if written > last {
            (
                Text::new(
                    format!("它是第 {written} 步写下的，而 audit.log 只记到第 {last} 步"),
                    format!(
                        "it was written by step #{written}, but audit.log ends at step #{last}"
                    ),
                ),
                Text::new(
                    format!(
                        "它来自这个赛事的另一份修改更多的副本（或 audit.log 与 history/ 被换成了旧副本）；qiwang 没有改动它。恢复方法：把这份 qiwang.json 所属副本的 audit.log 与 history/ 一起放回；或者放回本副本的 qiwang.json（第 {expected} 步写下的，`\"change\": {expected}`）"
                    ),
                    format!(
                        "it comes from another copy of the event that has more changes (or audit.log and history/ were replaced by older copies); qiwang left it untouched. To recover, put back the audit.log and history/ of the copy it comes from with it; or put back this copy's qiwang.json (the one written by step #{expected}, `\"change\": {expected}`)"
                    ),
                ),
            )
        } else {
            (
                Text::new(
                    format!(
                        "它是第 {written} 步写下的，而 audit.log 已记到第 {last} 步，所记的当前状态是第 {expected} 步之后的状态：这是被放回的旧副本（来自备份、同步工具或U盘）"
                    ),
                    format!(
                        "it was written by step #{written}, but audit.log has reached step #{last} and describes the state after step #{expected}: it is an older copy put back (from a backup, a sync tool or a USB stick)"
                    ),
                ),
                Text::new(
                    format!(
                        "qiwang 没有改动它。恢复方法：若还有最新的 qiwang.json（第 {expected} 步写下的，`\"change\": {expected}`），把它复制为 `{state}`"
                    ),
                    format!(
                        "qiwang left it untouched. To recover, copy the newest qiwang.json (the one written by step #{expected}, `\"change\": {expected}`) over `{state}` if you still have it"
                    ),
                ),
            )
        };
        // Otherwise the state the trail describes, from history/. After an undo or a
        // redo it is kept whole there (the file that step restored): put back, nothing is
        // lost. After a change it is not (a snapshot holds the state *before* its
        // change): `undo` restores the state before the newest change in effect, which
        // is then redone by hand. (Advising the undo after an undo undid one more change,
        // and a `redo` to get it back is refused, since it would restore the older copy.)
        // The walk to a whole snapshot (which unpacks snapshots to check them) is taken
        // only where it can end at one: after a change with a snapshot it cannot.
        let after_change = trail
            .entries
            .last()
            .is_some_and(|e| e.kind == EntryKind::Change && e.snapshot.is_some());
        let way = (!after_change).then(|| self.recovery_on(trail, None));
        let instead = match (way, history::undo_target(trail)) {
            (Some(whole @ Recovery::Whole(_)), _) => whole.words(),
            (_, Ok(newest)) => self.undo_then_redo(&newest, &Text::new("", "")),
            (Some(other), Err(_)) => other.words(),
            (None, Err(_)) => self.recovery_on(trail, None).words(),
        };
        Some(StoreError::OlderCopy {
            path: self.state_path(),
            detail: Box::new(detail),
            recovery: Box::new(Text::new(
                format!("{}；否则{}", why.zh, instead.zh),
                format!("{}; otherwise {}", why.en, instead.en),
            )),
        })
    }
}

impl Store {
    /// For a command that only reads the event: the refusal [`Store::stale`] gives when
    /// the state read, which records change `change`, is not the one `audit.log` says is
    /// in effect (an older copy put back), so that what it prints can be marked as the
    /// older copy's. Usually only the last line of `audit.log` is read: when it is a change
    /// that wrote this very state, the state is the newest. Otherwise (an undo or redo
    /// last, a torn last line, another number) the whole trail is replayed as a change
    /// would, and nothing is said while the trail does not account for `history/` (a
    /// crash not yet reconciled has its own refusal, which the next change gives). So
    /// after an `undo` or `redo`, until the next change, every reading command reads the
    /// whole trail brief, as `log` does.
    pub fn stale_for_reading(&self, change: Option<u64>) -> Result<Option<StoreError>, StoreError> {
        let Some(written) = change else {
            return Ok(None);
        };
        let audit = self.audit_path();
        let Some((mut line, complete)) = fsio::read_last_line(&audit)? else {
            return Ok(None);
        };
        if complete {
            line.push(b'\n');
            let last = audit::parse_brief(&audit, &line)
                .ok()
                .and_then(|trail| trail.entries.into_iter().next());
            if let Some(last) = last
                && matches!(last.kind, EntryKind::Change | EntryKind::Init)
                && last.seq == written
            {
                return Ok(None);
            }
        }
        let trail = self.log_brief()?;
        if trail.interrupted.is_some() || self.unaccounted(&trail)?.is_some() {
            return Ok(None);
        }
        let Some(refusal) = self.stale(&trail, change) else {
            return Ok(None);
        };
        // Read without the lock, the state and the trail may be of two moments: a change
        // that landed between the two reads (it writes the state, then its line) is not an
        // older copy. The state's number, read again, then differs from the one read with
        // the event; the change itself is checked under the lock as usual.
        let head = fsio::read_head(&self.state_path(), HEAD)?;
        if written_number(&head) != Some(written) {
            return Ok(None);
        }
        Ok(Some(refusal))
    }

    /// The refusal of a `redo` of `undo` (which undid `changed`) when the state that undo
    /// replaced, which the redo would restore, records another change (`restored`): the
    /// undo was run on an older copy put back, so restoring it would bring the older copy
    /// back while the log says `changed` is in effect again. `None` otherwise.
    pub(super) fn stale_undo(
        &self,
        undo: &AuditEntry,
        changed: &AuditEntry,
        restored: Option<u64>,
    ) -> Option<StoreError> {
        let written = restored.filter(|&n| n != changed.seq)?;
        let (u, c) = (undo.seq, changed.seq);
        let commands = self.redo_by_hand(changed);
        Some(StoreError::OlderCopy {
            path: self
                .history_dir()
                .join(undo.snapshot.as_deref().unwrap_or_default()),
            detail: Box::new(Text::new(
                format!(
                    "第 {u} 步的撤销替换的是第 {written} 步写下的旧副本，不是第 {c} 次修改之后的状态，重做会把旧副本放回"
                ),
                format!(
                    "the undo #{u} replaced an older copy written by step #{written}, not the state after change #{c}: a redo would put the older copy back"
                ),
            )),
            recovery: Box::new(Text::new(
                format!("qiwang 没有改动赛事；请手工重做第 {c} 步：{}", commands.zh),
                format!(
                    "qiwang changed nothing; make change #{c} again by hand: {}",
                    commands.en
                ),
            )),
        })
    }
}

/// How many bytes of the state's head hold its `"change"` line (the third line, after `{`
/// and `schema_version`'s).
const HEAD: usize = 256;

/// The number on the `"change"` line of an encoded state's head; `None` without one.
fn written_number(head: &[u8]) -> Option<u64> {
    let (start, end) = around(head);
    let line = head.get(start..end)?.strip_prefix(LINE)?;
    std::str::from_utf8(line)
        .ok()?
        .trim()
        .trim_end_matches(',')
        .parse()
        .ok()
}

/// Sets the `"change"` line of the encoded state `bytes` to `seq` (adding it to a state
/// without one), in place: the bytes are then the encoding of the event with that number.
pub(super) fn number(bytes: &mut Vec<u8>, seq: u64) {
    let (head, tail) = around(bytes);
    let line = format!("  \"change\": {seq},\n");
    bytes.splice(head..tail, line.into_bytes());
}

/// Where the `"change"` line of an encoded state starts and where the rest goes on: it
/// follows the first two lines (`{` and `schema_version`'s); a state without it gives an
/// empty range there.
fn around(bytes: &[u8]) -> (usize, usize) {
    let head = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .map_or(bytes.len(), |(i, _)| i + 1);
    let rest = &bytes[head..];
    let tail = if rest.starts_with(LINE) {
        rest.iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| head + i + 1)
    } else {
        head
    };
    (head, tail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::state;

    #[test]
    fn the_number_is_spliced_where_the_encoding_puts_it() {
        let mut event = state::tests::paired();
        event.change = None;
        let plain = state::encode(&event, 0);
        let mut numbered = plain.clone();
        number(&mut numbered, 7);
        event.change = Some(7);
        assert_eq!(numbered, state::encode(&event, 0));
        number(&mut numbered, 12);
        event.change = Some(12);
        assert_eq!(numbered, state::encode(&event, 0));
        assert!(plain.len() < numbered.len());
        assert_eq!(
            written_number(&numbered[..HEAD.min(numbered.len())]),
            Some(12)
        );
        assert_eq!(written_number(&plain), None);
    }
}
