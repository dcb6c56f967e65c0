//! The files of `history/`: which form a change's file takes, and how the state before a
//! change is read back from them, checked at every step.
//!
//! A change's file has one of two forms:
//!
//! - a **whole snapshot** `NNNNNN-<command>.json.gz`: the state before change `N`, gzip
//!   (`gzip -dc` gives it back; events from before compression hold plain `.json` ones);
//! - a **step** `NNNNNN-<command>.diff.gz`: gzip of one header line (JSON) followed by the
//!   bytes two line deltas add (`linediff`). The header names the previous file `prev` and
//!   records the length and CRC-32 of the states before and after `N`. `step` builds the
//!   state after `N` from the state before it. The state before `N` is the state after
//!   `prev`: when `prev` is a step, its own `step` applied to the state before `prev`;
//!   when `prev` is a whole snapshot, the header's `link` applied to that snapshot.
//!
//! So a change costs its own delta, plus a whole snapshot every [`max_depth`] changes
//! (16, fewer for a state over 64 MB; or when the delta would not be smaller, or the
//! state is small), and rebuilding any state unpacks one whole snapshot and applies at
//! most that many deltas, copying at most about 1 GB. A damaged
//! file spoils at most the states that are rebuilt through it, and is reported, never
//! applied: each rebuilt state is compared with the length and checksum recorded for it.
//!
//! The chain is checked when a step is written too: a state edited by hand since the last
//! change does not match the `after` its predecessor recorded, and gets a whole snapshot.
//! Nothing is read back from `qiwang.json`: undo and redo restore the same states whatever
//! was done to the state file since.

use super::linediff::{self, Delta, Op};
use super::{Store, StoreError, fsio, state};
use crate::i18n::Text;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Read};
use std::path::Path;

/// At most this many steps between two whole snapshots: the work of rebuilding a state,
/// and the number of states one damaged step can spoil.
pub(crate) const MAX_DEPTH: u32 = 16;

/// How many bytes rebuilding a state may copy, about: each delta applied copies the whole
/// state, so a very large state gets fewer steps between whole snapshots.
const REBUILD_BYTES: usize = 1 << 30;

/// The most steps allowed between whole snapshots for a state of `len` bytes: 16, and
/// down to 4 for the largest states (a 100,000-player event after nine rounds is about
/// 90 MB: 12), so that undo never copies much more than [`REBUILD_BYTES`].
pub(crate) fn max_depth(len: usize) -> u32 {
    let fits = REBUILD_BYTES / len.max(1);
    u32::try_from(fits).unwrap_or(u32::MAX).clamp(4, MAX_DEPTH)
}

/// A state smaller than this (about 4 KB compressed) is always snapshotted whole: a step
/// would save next to nothing, and a whole snapshot stands on its own.
pub(crate) const WHOLE_BELOW: usize = 64 * 1024;

/// A step is written only when its deltas take at most this fraction of the state: a
/// larger change is as cheap to keep whole, and a whole snapshot ends the chain.
const STEP_AT_MOST: usize = 4; // 1/4

/// The header line of a step file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    /// The format of the file (1).
    qiwang_step: u32,
    /// The previous file in `history/`, whose "after" is this file's "before".
    prev: String,
    /// Steps since the last whole snapshot, this one included (1 after a whole one).
    depth: u32,
    /// The state before this change.
    before: Sum,
    /// The state after this change.
    after: Sum,
    /// From the whole snapshot `prev` to the state before this change.
    link: Option<Part>,
    /// From the state before this change to the state after it.
    step: Part,
}

/// A delta as stored: its steps and how many bytes it adds (they follow the header).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Part {
    ops: Vec<Op>,
    added: u64,
}

/// A state's length and CRC-32: what a rebuilt state is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Sum {
    len: u64,
    crc32: u32,
}

impl Sum {
    pub(crate) fn of(bytes: &[u8]) -> Sum {
        let mut crc = flate2::Crc::new();
        crc.update(bytes);
        Sum {
            len: bytes.len() as u64,
            crc32: crc.sum(),
        }
    }
}

/// A step file, read.
struct StepFile {
    header: Header,
    link: Option<Delta>,
    step: Delta,
}

/// Whether `name` is a step file (else a whole snapshot).
pub(crate) fn is_step(name: &str) -> bool {
    name.ends_with(state::STEP_SUFFIX)
}

/// The bytes of a step file.
fn encode_step(header: &Header, link: Option<&Delta>, step: &Delta) -> Vec<u8> {
    let mut raw = serde_json::to_vec(header).expect("a step header always serialises");
    raw.push(b'\n');
    if let Some(link) = link {
        raw.extend_from_slice(&link.added);
    }
    raw.extend_from_slice(&step.added);
    state::compress(&raw)
}

/// Reads a step file's bytes back; `None` says what is wrong.
fn decode_step(bytes: &[u8]) -> Result<StepFile, Text> {
    let mut reader = std::io::BufReader::new(flate2::read::GzDecoder::new(bytes));
    let mut line = Vec::new();
    reader.read_until(b'\n', &mut line).map_err(|e| {
        Text::new(
            format!("不是完整的 gzip 文件：{e}"),
            format!("it is not a whole gzip file: {e}"),
        )
    })?;
    let header: Header = serde_json::from_slice(&line).map_err(|e| {
        Text::new(
            format!("第一行不是步骤记录：{e}"),
            format!("its first line is not a step header: {e}"),
        )
    })?;
    if header.qiwang_step != 1 {
        return Err(Text::new(
            format!("格式 `{}` 未知（更新的 qiwang 写的？）", header.qiwang_step),
            format!(
                "its format `{}` is unknown (written by a newer qiwang?)",
                header.qiwang_step
            ),
        ));
    }
    let mut take = |part: &Part| -> Result<Delta, Text> {
        let mut added = Vec::new();
        let want = part.added;
        (&mut reader)
            .take(want)
            .read_to_end(&mut added)
            .map_err(|e| {
                Text::new(
                    format!("不是完整的 gzip 文件：{e}"),
                    format!("it is not a whole gzip file: {e}"),
                )
            })?;
        if added.len() as u64 != want {
            return Err(Text::new("文件提前结束", "it ends early"));
        }
        Ok(Delta {
            ops: part.ops.clone(),
            added,
        })
    };
    let link = header.link.as_ref().map(&mut take).transpose()?;
    let step = take(&header.step)?;
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest).map_err(|e| {
        Text::new(
            format!("不是完整的 gzip 文件：{e}"),
            format!("it is not a whole gzip file: {e}"),
        )
    })?;
    if !rest.is_empty() {
        return Err(Text::new(
            "文件末尾有多余的内容",
            "it has bytes past its end",
        ));
    }
    Ok(StepFile { header, link, step })
}

/// What a damaged history file means for the user.
fn cannot_rebuild() -> Text {
    Text::new(
        "经由它重建的修改前状态无法撤销或重做；请用普通命令更正赛事（`history/` 中其他完整快照仍可用 `gzip -dc` 解压查看）",
        "the changes whose earlier state is rebuilt through it cannot be undone or redone; correct the event with ordinary commands (the whole snapshots in `history/` still unpack with `gzip -dc`)",
    )
}

fn damaged(path: &Path, detail: Text) -> StoreError {
    StoreError::Damaged {
        path: path.to_path_buf(),
        detail,
        recovery: cannot_rebuild(),
    }
}

impl Store {
    /// The file to keep in `history/` for a change from `before` to `after` whose whole
    /// snapshot would be named `whole_name`: its name and bytes. A step when the state is
    /// large, the chain is intact and the deltas are small; a whole snapshot otherwise.
    /// `snapshots` are the files of `history/` now.
    pub(super) fn history_file(
        &self,
        whole_name: &str,
        before: &[u8],
        after: &[u8],
        snapshots: &[state::SnapshotFile],
    ) -> Result<(String, Vec<u8>), StoreError> {
        let whole = || Ok((whole_name.to_string(), state::compress(before)));
        let Some(step_name) = state::step_name_of(whole_name) else {
            return whole();
        };
        if before.len() < WHOLE_BELOW {
            return whole();
        }
        let seq = state::snapshot_seq(whole_name);
        let Some(prev) = snapshots.iter().rev().find(|s| Some(s.seq) < seq).cloned() else {
            return whole();
        };
        let prev_path = self.history_dir().join(&prev.name);
        let budget = before.len() / STEP_AT_MOST;
        let here = Sum::of(before);
        // `prev`'s state, when it is whole (the link's base).
        let mut base = None;
        // The link from a whole `prev`, or the depth after a step `prev`; a chain broken
        // (a hand edit since `prev`, a damaged or foreign file) starts again whole.
        let (depth, link) = if is_step(&prev.name) {
            let Some(bytes) = fsio::read_optional(&prev_path)? else {
                return whole();
            };
            match decode_step(&bytes) {
                Ok(p) if p.header.after == here && p.header.depth < max_depth(before.len()) => {
                    (p.header.depth + 1, None)
                }
                _ => return whole(),
            }
        } else {
            let Some(bytes) = fsio::read_optional(&prev_path)? else {
                return whole();
            };
            let Ok(prev_state) = state::snapshot_state(&prev_path, bytes) else {
                return whole();
            };
            let link = linediff::delta(&prev_state, before);
            if link.weight() > budget
                || linediff::apply(&link, &prev_state, before.len()).as_deref() != Ok(before)
            {
                return whole();
            }
            let sum = Sum::of(&prev_state);
            base = Some(prev_state);
            (1, Some((sum, link)))
        };
        // A change back to `prev`'s state (an undo of the change `prev` was written for):
        // the step is the link inverted.
        let step = match (&link, &base) {
            (Some((_, link)), Some(base)) if base.as_slice() == after => {
                linediff::invert(link, base).unwrap_or_else(|| linediff::delta(before, after))
            }
            _ => linediff::delta(before, after),
        };
        let weight = step.weight() + link.as_ref().map_or(0, |(_, l)| l.weight());
        if weight > budget || linediff::apply(&step, before, after.len()).as_deref() != Ok(after) {
            return whole();
        }
        let part = |d: &Delta| Part {
            ops: d.ops.clone(),
            added: d.added.len() as u64,
        };
        let header = Header {
            qiwang_step: 1,
            prev: prev.name,
            depth,
            before: here,
            after: Sum::of(after),
            link: link.as_ref().map(|(_, l)| part(l)),
            step: part(&step),
        };
        let bytes = encode_step(&header, link.as_ref().map(|(_, l)| l), &step);
        Ok((step_name, bytes))
    }

    /// The exact bytes of the state before the change whose file in `history/` is
    /// `name`, rebuilt and checked when it is a step. A missing file is `None`.
    pub(super) fn history_state(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        fsio::refuse_link(&self.history_dir())?;
        let path = self.history_dir().join(name);
        let Some(bytes) = fsio::read_optional(&path)? else {
            return Ok(None);
        };
        if !is_step(name) {
            return state::snapshot_state(&path, bytes).map(Some);
        }
        // Walk back to the step that links to a whole snapshot; every name read from a
        // header is a file of `history/` with a smaller number, so the walk ends.
        let mut chain = vec![(path.clone(), read_step(&path, &bytes)?)];
        loop {
            let (at, newest) = chain.last().expect("the chain starts with one file");
            if newest.link.is_some() {
                break;
            }
            let prev = self.prev_of(at, &newest.header, true)?;
            let bytes = fsio::read_optional(&prev)?.ok_or_else(|| missing_prev(at, &prev))?;
            let file = read_step(&prev, &bytes)?;
            chain.push((prev, file));
        }
        let (oldest_path, oldest) = chain.last().expect("the chain is not empty");
        let base_path = self.prev_of(oldest_path, &oldest.header, false)?;
        let base = fsio::read_optional(&base_path)?
            .ok_or_else(|| missing_prev(oldest_path, &base_path))?;
        let base = state::snapshot_state(&base_path, base)?;
        let link = oldest.link.as_ref().expect("the walk stops at a link");
        // At most two states are held at once: the one read and the one built from it.
        let mut state = rebuild(oldest_path, link, &base, oldest.header.before)?;
        drop(base);
        // Forward again: each file's step gives the state before the next one.
        for k in (1..chain.len()).rev() {
            let (older_path, older) = &chain[k];
            let (_, newer) = &chain[k - 1];
            state = rebuild(older_path, &older.step, &state, older.header.after)?;
            if older.header.after != newer.header.before {
                return Err(damaged(
                    &chain[k - 1].0,
                    Text::new(
                        "它记录的修改前状态与上一个文件的修改后状态不一致",
                        "the state before it does not match the state after the file before it",
                    ),
                ));
            }
        }
        Ok(Some(state))
    }

    /// The file `header.prev` names, refused unless it is an older file of `history/` of
    /// the form the chain needs there (a step when `step`, else a whole snapshot).
    fn prev_of(
        &self,
        at: &Path,
        header: &Header,
        step: bool,
    ) -> Result<std::path::PathBuf, StoreError> {
        let here = at
            .file_name()
            .and_then(|n| state::snapshot_seq(&n.to_string_lossy()));
        let prev = &header.prev;
        let plain_name = !prev.contains(['/', '\\']) && prev != "." && prev != "..";
        let older = state::snapshot_seq(prev).is_some_and(|p| Some(p) < here);
        if !plain_name || !older || is_step(prev) != step {
            return Err(damaged(
                at,
                Text::new(
                    format!(
                        "它所依据的 `{prev}` 不是 `history/` 中更早的{}",
                        if step { "步骤文件" } else { "完整快照" }
                    ),
                    format!(
                        "the file it builds on, `{prev}`, is not an earlier {} in `history/`",
                        if step { "step" } else { "whole snapshot" }
                    ),
                ),
            ));
        }
        Ok(self.history_dir().join(prev))
    }

    /// Whether the file `name` of `history/` holds exactly `state` as the state before
    /// its change (crash recovery: "the change never landed"). A missing file does not.
    /// A step whose chain cannot be rebuilt is judged by the checksum it recorded.
    pub(super) fn history_holds(&self, name: &str, state: &[u8]) -> Result<bool, StoreError> {
        match self.history_state(name) {
            Ok(held) => Ok(held.as_deref() == Some(state)),
            Err(e) if is_step(name) => {
                let path = self.history_dir().join(name);
                let Some(bytes) = fsio::read_optional(&path)? else {
                    return Ok(false);
                };
                match decode_step(&bytes) {
                    Ok(file) => Ok(file.header.before == Sum::of(state)),
                    Err(_) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }
}

fn read_step(path: &Path, bytes: &[u8]) -> Result<StepFile, StoreError> {
    decode_step(bytes).map_err(|detail| damaged(path, detail))
}

fn missing_prev(at: &Path, prev: &Path) -> StoreError {
    damaged(
        at,
        Text::new(
            format!("它所依据的 `{}` 不见了", prev.display()),
            format!("the file it builds on, `{}`, is missing", prev.display()),
        ),
    )
}

/// `delta` applied to `base`, checked against `expected`; a mismatch is damage in `path`.
fn rebuild(path: &Path, delta: &Delta, base: &[u8], expected: Sum) -> Result<Vec<u8>, StoreError> {
    let limit = usize::try_from(expected.len).unwrap_or(usize::MAX);
    let state = linediff::apply(delta, base, limit).map_err(|e| {
        damaged(
            path,
            Text::new(
                format!("它的差异无法应用：{e}"),
                format!("its delta does not apply: {e}"),
            ),
        )
    })?;
    if Sum::of(&state) != expected {
        return Err(damaged(
            path,
            Text::new(
                "重建出的状态与记录的校验和不符",
                "the state it rebuilds does not match the checksum recorded for it",
            ),
        ));
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_states_get_fewer_steps_between_whole_snapshots() {
        let mb = 1 << 20;
        assert_eq!(max_depth(0), MAX_DEPTH);
        assert_eq!(max_depth(5 * mb), MAX_DEPTH);
        assert_eq!(max_depth(64 * mb), MAX_DEPTH);
        assert_eq!(max_depth(180 * mb), 5);
        assert_eq!(max_depth(4096 * mb), 4);
    }

    #[test]
    fn a_step_file_round_trips_and_its_damage_is_named() {
        let base = b"{\n  \"a\": 1,\n  \"b\": 2\n}\n".to_vec();
        let before = b"{\n  \"a\": 1,\n  \"b\": 3\n}\n".to_vec();
        let after = b"{\n  \"a\": 4,\n  \"b\": 3\n}\n".to_vec();
        let link = linediff::delta(&base, &before);
        let step = linediff::delta(&before, &after);
        let header = Header {
            qiwang_step: 1,
            prev: "000002-x.json.gz".into(),
            depth: 1,
            before: Sum::of(&before),
            after: Sum::of(&after),
            link: Some(Part {
                ops: link.ops.clone(),
                added: link.added.len() as u64,
            }),
            step: Part {
                ops: step.ops.clone(),
                added: step.added.len() as u64,
            },
        };
        let bytes = encode_step(&header, Some(&link), &step);
        let file = decode_step(&bytes).unwrap();
        assert_eq!(file.header, header);
        assert_eq!(file.link.as_ref(), Some(&link));
        assert_eq!(file.step, step);
        // Cut short, or not gzip at all.
        let cut = decode_step(&bytes[..bytes.len() - 9]).err().unwrap();
        assert!(cut.en.contains("not a whole gzip file"), "{}", cut.en);
        let other = decode_step(&state::compress(b"{}\n")).err().unwrap();
        assert!(other.en.contains("not a step header"), "{}", other.en);
        // A wrong checksum is refused, naming the file.
        let path = Path::new("history/000003-x.diff.gz");
        let mut wrong = Sum::of(&after);
        wrong.crc32 ^= 1;
        let err = rebuild(path, &step, &before, wrong)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("`history/000003-x.diff.gz` is damaged: the state it rebuilds does not match the checksum"),
            "{err}"
        );
        assert_eq!(
            rebuild(path, &step, &before, Sum::of(&after)).unwrap(),
            after
        );
    }
}
