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
    /// The line number in the file of each of `entries` (blank lines are skipped).
    pub lines: Vec<usize>,
    /// The line number of an incomplete last line (a write cut short by a crash), which
    /// was skipped. Reconciling the interrupted change (on opening the event, or by the
    /// next change) cuts it off when it was qiwang's own interrupted write.
    pub torn_line: Option<usize>,
    /// Whether that incomplete last line is a whole entry lacking only its final newline
    /// (an editor that saved `audit.log` without one): no write was cut short, and adding
    /// the newline mends it.
    pub unterminated: bool,
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
    parse_lines(path, bytes, |line| serde_json::from_str::<AuditEntry>(line))
}

/// [`parse`], keeping of each line's `details` only the keys in [`BRIEF_KEYS`]: what
/// wording a line and undo/redo need. A `result --from` line of a large event lists
/// every result it recorded (50,000 on 100,000 players); the store itself and `log`'s
/// table never read them, and holding them for every round took a gigabyte.
pub(crate) fn parse_brief(path: &Path, bytes: &[u8]) -> Result<AuditTrail, StoreError> {
    parse_lines(path, bytes, |line| {
        serde_json::from_str::<BriefEntry>(line).map(AuditEntry::from)
    })
}

/// The keys of `details` a brief trail keeps: the action `log`, `undo` and `redo` word,
/// and the numbers of an undo or redo.
pub const BRIEF_KEYS: [&str; 5] = ["action", "undoes", "redoes", "reapplies", "restored"];

fn parse_lines(
    path: &Path,
    bytes: &[u8],
    read: impl Fn(&str) -> Result<AuditEntry, serde_json::Error>,
) -> Result<AuditTrail, StoreError> {
    let text = String::from_utf8_lossy(bytes);
    let mut entries = Vec::new();
    let mut numbers = Vec::new();
    let mut torn_line = None;
    let mut unterminated = false;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (index, raw) in lines.iter().enumerate() {
        let number = index + 1;
        let complete = raw.ends_with('\n');
        let line = raw.trim_end_matches(['\n', '\r']);
        if !complete && index + 1 == lines.len() {
            torn_line = Some(number);
            unterminated = !line.trim().is_empty() && read(line).is_ok();
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let entry: AuditEntry = read(line).map_err(|e| StoreError::Damaged {
            path: path.to_path_buf(),
            detail: crate::i18n::Text::new(
                format!("第 {number} 行不是操作记录：{e}"),
                format!("line {number} is not an audit entry: {e}"),
            ),
            // Deleting the line alone would leave its change without a line, and undo
            // would revert it together with the change before (`unlogged.rs` then refuses
            // the numbering's gap with the way back).
            recovery: crate::i18n::Text::new(
                format!(
                    "若有 audit.log 的备份，请用备份中的第 {number} 行替换它（或按备份修正）；不要只删除这一行：它记录的修改会失去记录，撤销时会连同前一步一起撤掉。没有备份时，删除它后运行 `qiwang log`，它会给出回到这一步之前的状态并重做之后修改的方法；操作记录无法读取时 qiwang 不修改赛事"
                ),
                format!(
                    "if a backup of audit.log holds line {number}, put it back from there (or fix the line by hand after it); do not just delete the line: the change it records would be left without a line, and undo would revert it together with the one before. Without a backup, delete it and run `qiwang log`, which then gives the way back to the state before that change and the changes to make again; qiwang will not change the event while its audit log is unreadable"
                ),
            ),
        })?;
        entries.push(entry);
        numbers.push(number);
    }
    Ok(AuditTrail {
        entries,
        lines: numbers,
        torn_line,
        unterminated,
        interrupted: None,
    })
}

/// Reads and parses `audit.log`; a missing file is an empty trail.
pub(crate) fn read(path: &Path) -> Result<(Vec<u8>, AuditTrail), StoreError> {
    let bytes = fsio::read_optional(path)?.unwrap_or_default();
    let trail = parse(path, &bytes)?;
    Ok((bytes, trail))
}

/// [`read`] with [`parse_brief`].
pub(crate) fn read_brief(path: &Path) -> Result<(Vec<u8>, AuditTrail), StoreError> {
    let bytes = fsio::read_optional(path)?.unwrap_or_default();
    let trail = parse_brief(path, &bytes)?;
    Ok((bytes, trail))
}

/// An audit line read with its `details` cut to [`BRIEF_KEYS`] (the other fields as in
/// [`AuditEntry`]).
#[derive(Deserialize)]
struct BriefEntry {
    seq: u64,
    time: DateTime<Utc>,
    user: String,
    command: Vec<String>,
    kind: EntryKind,
    summary: String,
    #[serde(default)]
    details: BriefDetails,
    #[serde(default)]
    snapshot: Option<String>,
    #[serde(default)]
    undoes: Option<u64>,
    #[serde(default)]
    redoes: Option<u64>,
    #[serde(default)]
    recovered: bool,
}

impl From<BriefEntry> for AuditEntry {
    fn from(b: BriefEntry) -> AuditEntry {
        AuditEntry {
            seq: b.seq,
            time: b.time,
            user: b.user,
            command: b.command,
            kind: b.kind,
            summary: b.summary,
            details: b.details.0,
            snapshot: b.snapshot,
            undoes: b.undoes,
            redoes: b.redoes,
            recovered: b.recovered,
        }
    }
}

/// `details` with only the keys of [`BRIEF_KEYS`] when it is an object (the others are
/// skipped without being built); any other value as it is.
#[derive(Default)]
struct BriefDetails(serde_json::Value);

impl<'de> Deserialize<'de> for BriefDetails {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = BriefDetails;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the details of an audit line")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<BriefDetails, A::Error> {
                let mut kept = serde_json::Map::new();
                while let Some(key) = map.next_key::<String>()? {
                    if BRIEF_KEYS.contains(&key.as_str()) {
                        kept.insert(key, map.next_value()?);
                    } else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                    }
                }
                Ok(BriefDetails(serde_json::Value::Object(kept)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<BriefDetails, A::Error> {
                serde_json::Value::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))
                    .map(BriefDetails)
            }
            fn visit_unit<E>(self) -> Result<BriefDetails, E> {
                Ok(BriefDetails(serde_json::Value::Null))
            }
            fn visit_none<E>(self) -> Result<BriefDetails, E> {
                Ok(BriefDetails(serde_json::Value::Null))
            }
            fn visit_bool<E>(self, v: bool) -> Result<BriefDetails, E> {
                Ok(BriefDetails(v.into()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<BriefDetails, E> {
                Ok(BriefDetails(v.into()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<BriefDetails, E> {
                Ok(BriefDetails(v.into()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<BriefDetails, E> {
                Ok(BriefDetails(v.into()))
            }
            fn visit_str<E>(self, v: &str) -> Result<BriefDetails, E> {
                Ok(BriefDetails(v.into()))
            }
        }
        d.deserialize_any(Visit)
    }
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
        assert!(text.contains("put it back from there"), "{text}");
        assert!(text.contains("do not just delete the line"), "{text}");
    }

    #[test]
    fn a_brief_trail_keeps_only_the_details_wording_needs() {
        let mut big = entry(2);
        big.details = serde_json::json!({
            "action": {"kind": "results", "groups": []},
            "groups": [{"entries": [{"table": 1}, {"table": 2}]}],
            "round": 3,
        });
        let mut undo = entry(3);
        undo.kind = EntryKind::Undo;
        undo.undoes = Some(2);
        undo.details = serde_json::json!({"undoes": 2, "restored": "000002-result.json"});
        let mut odd = entry(4);
        odd.details = serde_json::json!([1, "x", null, 2.5, true]);
        let mut bytes = big.to_line();
        bytes.extend(undo.to_line());
        bytes.extend(odd.to_line());
        let full = parse(Path::new("a"), &bytes).unwrap();
        assert_eq!(full.entries, vec![big.clone(), undo.clone(), odd.clone()]);
        let brief = parse_brief(Path::new("a"), &bytes).unwrap();
        big.details = serde_json::json!({"action": {"kind": "results", "groups": []}});
        assert_eq!(brief.entries, vec![big, undo, odd]);
        // Damage is reported alike.
        let err = parse_brief(Path::new("a"), b"{\"seq\":1}\n").unwrap_err();
        assert!(
            err.to_string().contains("line 1 is not an audit entry"),
            "{err}"
        );
    }

    #[test]
    fn empty_log_is_an_empty_trail() {
        let trail = parse(Path::new("a"), b"").unwrap();
        assert!(trail.entries.is_empty());
        assert_eq!(trail.torn_line, None);
        assert_eq!(complete_len(b""), 0);
    }
}
