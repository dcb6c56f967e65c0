//! `audit.log`: one JSON line per change (time, user, command, what changed), appended and
//! synced after the change itself has landed, never rewritten.

use super::{StoreError, fsio};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What kind of change a line records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// `qiwang init` created the event (always line 1, no snapshot).
    Init,
    /// A command changed the event.
    Change,
    /// `qiwang undo` restored the state before an earlier change.
    Undo,
    /// `qiwang redo` took back an undo: the state that undo replaced is restored.
    Redo,
}

/// One line of `audit.log`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// 1 for `init`, then one more per change; snapshot files carry the same number.
    pub seq: u64,
    /// When the command ran, RFC 3339 in UTC.
    pub time: DateTime<Utc>,
    /// Who ran the command (`$QIWANG_USER`, else the login name).
    pub user: String,
    /// The command line as typed.
    pub command: Vec<String>,
    /// A change, an undo, a redo or the creation of the event.
    pub kind: EntryKind,
    /// What changed, for people.
    pub summary: String,
    /// What changed, for programs (the command decides the shape).
    #[serde(default)]
    pub details: serde_json::Value,
    /// The file in `history/` holding the state before this change; `None` for `init` and
    /// for a change that left the state file byte-identical.
    #[serde(default)]
    pub snapshot: Option<String>,
    /// For an undo: the `seq` of the change it undid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<u64>,
    /// For a redo: the `seq` of the undo it took back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redoes: Option<u64>,
    /// Set when the line was written by crash recovery rather than by the command itself
    /// (the command was killed after its change had landed).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recovered: bool,
}

impl AuditEntry {
    /// The line as written to the file, newline included.
    pub(crate) fn to_line(&self) -> Vec<u8> {
        let mut line = serde_json::to_vec(self).expect("an audit entry always serialises");
        line.push(b'\n');
        line
    }
}

/// The parsed audit trail.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditTrail {
    /// Every complete line, in file order.
    pub entries: Vec<AuditEntry>,
    /// The line number of an incomplete last line (a write cut short by a crash), which
    /// was skipped. Reconciling the interrupted change (on opening the event, or by the
    /// next change) cuts it off when it was qiwang's own interrupted write.
    pub torn_line: Option<usize>,
    /// The `seq` of a change interrupted by a crash and not yet reconciled (opening the
    /// event could not: another command held the lock, or the directory is read-only);
    /// opening the event again, the next
    /// change or [`Store::recover`](super::Store::recover) completes or discards it.
    pub interrupted: Option<u64>,
}

impl AuditTrail {
    /// The highest sequence number used, 0 for an empty trail.
    pub fn last_seq(&self) -> u64 {
        self.entries.iter().map(|e| e.seq).max().unwrap_or(0)
    }

    /// Whether a line with this sequence number exists.
    pub fn contains(&self, seq: u64) -> bool {
        self.entries.iter().any(|e| e.seq == seq)
    }
}

/// Parses `audit.log`. Every line must be a complete entry, except that an unterminated
/// last line (a crash in the middle of an append) is skipped and reported.
pub(crate) fn parse(path: &Path, bytes: &[u8]) -> Result<AuditTrail, StoreError> {
    let text = String::from_utf8_lossy(bytes);
    let mut entries = Vec::new();
    let mut torn_line = None;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (index, raw) in lines.iter().enumerate() {
        let number = index + 1;
        let complete = raw.ends_with('\n');
        let line = raw.trim_end_matches(['\n', '\r']);
        if !complete && index + 1 == lines.len() {
            torn_line = Some(number);
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let entry: AuditEntry = serde_json::from_str(line).map_err(|e| StoreError::Damaged {
            path: path.to_path_buf(),
            detail: crate::i18n::Text::new(
                format!("第 {number} 行不是操作记录：{e}"),
                format!("line {number} is not an audit entry: {e}"),
            ),
            recovery: crate::i18n::Text::new(
                format!("请手工修正或删除第 {number} 行；操作记录无法读取时 qiwang 不修改赛事"),
                format!(
                    "fix or delete line {number} by hand; qiwang will not change the event while its audit log is unreadable"
                ),
            ),
        })?;
        entries.push(entry);
    }
    Ok(AuditTrail {
        entries,
        torn_line,
        interrupted: None,
    })
}

/// Reads and parses `audit.log`; a missing file is an empty trail.
pub(crate) fn read(path: &Path) -> Result<(Vec<u8>, AuditTrail), StoreError> {
    let bytes = fsio::read_optional(path)?.unwrap_or_default();
    let trail = parse(path, &bytes)?;
    Ok((bytes, trail))
}

/// The length of `bytes` up to and including its last newline: what is left after
/// dropping a torn last line.
pub(crate) fn complete_len(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i as u64 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(seq: u64) -> AuditEntry {
        AuditEntry {
            seq,
            time: "2026-11-29T20:00:00Z".parse().unwrap(),
            user: "li".into(),
            command: vec!["qiwang".into(), "result".into(), "3".into(), "1-0".into()],
            kind: EntryKind::Change,
            summary: "table 3: 1-0".into(),
            details: serde_json::json!({"table": 3}),
            snapshot: Some(format!("{seq:06}-result.json")),
            undoes: None,
            redoes: None,
            recovered: false,
        }
    }

    #[test]
    fn line_format_is_stable() {
        let line = String::from_utf8(entry(2).to_line()).unwrap();
        assert_eq!(
            line,
            "{\"seq\":2,\"time\":\"2026-11-29T20:00:00Z\",\"user\":\"li\",\"command\":[\"qiwang\",\"result\",\"3\",\"1-0\"],\"kind\":\"change\",\"summary\":\"table 3: 1-0\",\"details\":{\"table\":3},\"snapshot\":\"000002-result.json\"}\n"
        );
    }

    #[test]
    fn torn_last_line_is_skipped_and_reported() {
        let mut bytes = entry(1).to_line();
        bytes.extend(entry(2).to_line());
        let whole = entry(3).to_line();
        bytes.extend(&whole[..whole.len() / 2]);
        let trail = parse(Path::new("audit.log"), &bytes).unwrap();
        assert_eq!(trail.entries, vec![entry(1), entry(2)]);
        assert_eq!(trail.torn_line, Some(3));
        assert_eq!(trail.last_seq(), 2);
        assert_eq!(complete_len(&bytes), (entry(1).to_line().len() * 2) as u64);
    }

    #[test]
    fn damaged_middle_line_is_refused_with_its_number() {
        let mut bytes = entry(1).to_line();
        bytes.extend(b"{not json}\n");
        bytes.extend(entry(3).to_line());
        let err = parse(Path::new("ev/audit.log"), &bytes).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("`ev/audit.log` is damaged: line 2 is not an audit entry"),
            "{text}"
        );
        assert!(text.contains("fix or delete line 2"), "{text}");
    }

    #[test]
    fn empty_log_is_an_empty_trail() {
        let trail = parse(Path::new("a"), b"").unwrap();
        assert!(trail.entries.is_empty());
        assert_eq!(trail.torn_line, None);
        assert_eq!(complete_len(b""), 0);
    }
}
