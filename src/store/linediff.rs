//! A line delta between two byte strings (two versions of `qiwang.json`): which line
//! runs of the older one the newer one copies, and which bytes it adds. The history of a
//! large event stores a change as such a delta instead of a whole snapshot.
//!
//! Finding the delta is a patience diff: the common head and tail are cut off (passing a
//! single changed line where a long common stretch follows it), then lines that occur
//! exactly once on both sides anchor the rest, in order, and the stretches between
//! anchors are treated the same way, a bounded number of levels deep. Any delta
//! is correct by construction of [`apply`] — copies plus added bytes — so how good the
//! alignment is only decides the delta's size, and the caller checks every delta by
//! applying it before it is stored. Pure: no files, no clock.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// How many levels of anchors are looked for inside a stretch between anchors; beyond
/// that a stretch is stored as added bytes. Bounds the work on any pair of inputs.
const MAX_LEVELS: u32 = 24;

/// One step of a delta.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Op {
    /// `len` bytes of the base, from byte `from`.
    Copy(u64, u64),
    /// The next `len` bytes of the delta's added bytes.
    Insert(u64),
}

/// How to build a target from a base: the steps and the bytes they add, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Delta {
    pub ops: Vec<Op>,
    pub added: Vec<u8>,
}

impl Delta {
    /// What the delta takes to store, roughly: the added bytes plus a few per step.
    pub(crate) fn weight(&self) -> usize {
        self.added.len() + 16 * self.ops.len()
    }
}

/// Why a delta could not be applied (a damaged or foreign history file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ApplyError {
    /// A copy reaches past the end of the base.
    CopyOutside { from: u64, len: u64, base: usize },
    /// The steps add more bytes than the delta holds.
    AddedShort,
    /// The steps leave some of the delta's added bytes unused.
    AddedLeft,
    /// The result would be longer than the length recorded for it.
    TooLong { limit: usize },
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::CopyOutside { from, len, base } => write!(
                f,
                "a copy of {len} bytes from byte {from} reaches past the end of its {base}-byte base"
            ),
            ApplyError::AddedShort => f.write_str("it adds more bytes than it holds"),
            ApplyError::AddedLeft => f.write_str("it holds bytes it never adds"),
            ApplyError::TooLong { limit } => {
                write!(f, "it builds more than the {limit} bytes recorded")
            }
        }
    }
}

/// Builds the target of `delta` from `base`, refusing a delta that does not fit the base
/// or would build more than `limit` bytes.
pub(crate) fn apply(delta: &Delta, base: &[u8], limit: usize) -> Result<Vec<u8>, ApplyError> {
    // The limit comes from a file: only a hint, never an allocation of its own.
    let mut out = Vec::with_capacity(limit.min(base.len() + delta.added.len()));
    let mut added = &delta.added[..];
    for op in &delta.ops {
        let piece = match *op {
            Op::Copy(from, len) => usize::try_from(from)
                .ok()
                .zip(usize::try_from(len).ok())
                .and_then(|(from, len)| base.get(from..from.checked_add(len)?))
                .ok_or(ApplyError::CopyOutside {
                    from,
                    len,
                    base: base.len(),
                })?,
            Op::Insert(len) => {
                let len = usize::try_from(len).map_err(|_| ApplyError::AddedShort)?;
                if len > added.len() {
                    return Err(ApplyError::AddedShort);
                }
                let (piece, rest) = added.split_at(len);
                added = rest;
                piece
            }
        };
        if out.len() + piece.len() > limit {
            return Err(ApplyError::TooLong { limit });
        }
        out.extend_from_slice(piece);
    }
    if !added.is_empty() {
        return Err(ApplyError::AddedLeft);
    }
    Ok(out)
}

/// A common stretch after a changed line long enough to take the line for replaced
/// without looking further (see [`delta`]).
const SKIP_AFTER: usize = 64 * 1024;

/// A delta that builds `target` from `base`.
pub(crate) fn delta(base: &[u8], target: &[u8]) -> Delta {
    delta_skipping(base, target, SKIP_AFTER)
}

/// [`delta`], taking a line for replaced in the common head or tail when the next
/// `skip_after` bytes or more agree again in whole lines. A change to a large state moves
/// a few lines and adds or removes one run (`pair` rewrites the change number at the top
/// and adds a round's 50,000 lines at 100,000 players): passing the single changed lines
/// this way leaves only the run to the line-by-line search, instead of the half-million
/// unchanged lines between them (a tenth of a second each way, hashed and sorted).
fn delta_skipping(base: &[u8], target: &[u8], skip_after: usize) -> Delta {
    let mut builder = Builder::default();
    // The common head, in whole lines, found byte by byte without splitting the (possibly
    // very long) unchanged parts into lines.
    let (mut a0, mut b0) = (0, 0);
    let mut same = common_head(base, target);
    loop {
        builder.copy(a0, same);
        (a0, b0) = (a0 + same, b0 + same);
        let (Some(ea), Some(eb)) = (line_end(base, a0), line_end(target, b0)) else {
            break;
        };
        let next = common_head(&base[ea..], &target[eb..]);
        if next < skip_after {
            break;
        }
        builder.insert(&target[b0..eb]);
        (a0, b0, same) = (ea, eb, next);
    }
    // The common tail of what is left, the same way from the end: its copies (from, len)
    // and the target's lines replacing the base's between them, last first.
    let (mut a1, mut b1) = (base.len(), target.len());
    let mut tail: Vec<((usize, usize), std::ops::Range<usize>)> = Vec::new();
    let mut same = common_tail(&base[a0..], &target[b0..]);
    loop {
        let copy = (a1 - same, same);
        (a1, b1) = (a1 - same, b1 - same);
        let next = line_start(base, a0, a1)
            .zip(line_start(target, b0, b1))
            .map(|(sa, sb)| (sa, sb, common_tail(&base[a0..sa], &target[b0..sb])))
            .filter(|&(_, _, next)| next >= skip_after);
        let Some((sa, sb, next)) = next else {
            tail.push((copy, 0..0));
            break;
        };
        tail.push((copy, sb..b1));
        (a1, b1, same) = (sa, sb, next);
    }
    let a = lines(base, a0, a1);
    let b = lines(target, b0, b1);
    let runs = matching_runs(base, &a, target, &b);
    let mut at = 0; // the next line of `b` not yet produced
    for run in runs {
        builder.insert(&target[b_span(&b, at, run.b)]);
        let start = a[run.a].0;
        let end = a[run.a + run.len - 1].1;
        builder.copy(start, end - start);
        at = run.b + run.len;
    }
    builder.insert(&target[b_span(&b, at, b.len())]);
    for ((from, len), replacing) in tail.into_iter().rev() {
        builder.insert(&target[replacing]);
        builder.copy(from, len);
    }
    builder.delta
}

/// The end (just past its newline) of the line of `s` that starts at `at`; `None` at the
/// end of `s` or when that line has no newline.
fn line_end(s: &[u8], at: usize) -> Option<usize> {
    s[at..].iter().position(|&c| c == b'\n').map(|i| at + i + 1)
}

/// The start of the line of `s[from..end]` that ends at `end` (its last line); `None`
/// when that range is empty.
fn line_start(s: &[u8], from: usize, end: usize) -> Option<usize> {
    if end == from {
        return None;
    }
    Some(
        s[from..end - 1]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(from, |i| from + i + 1),
    )
}

/// A delta that builds `base` back from the target `d` builds from it, read off `d`
/// instead of searched for: what `d` copies is copied back, what it leaves out of
/// `base` is added. `None` when `d` copies out of order or reaches past `base` (never
/// for a delta [`delta`] made). An `undo` restores the state its change started from,
/// so its step is the inverse of the link just found; searching again for it was a
/// third of an `undo` at 100,000 players. The caller checks it by applying it, as every
/// delta.
pub(crate) fn invert(d: &Delta, base: &[u8]) -> Option<Delta> {
    let mut builder = Builder::default();
    // The next byte of `base` not yet produced, and the length of the target so far.
    let (mut at_base, mut at_target) = (0usize, 0usize);
    for op in &d.ops {
        match *op {
            Op::Copy(from, len) => {
                let (from, len) = (usize::try_from(from).ok()?, usize::try_from(len).ok()?);
                builder.insert(base.get(at_base..from)?);
                builder.copy(at_target, len);
                at_base = from.checked_add(len)?;
                at_target += len;
            }
            Op::Insert(len) => at_target += usize::try_from(len).ok()?,
        }
    }
    builder.insert(base.get(at_base..)?);
    Some(builder.delta)
}

/// The bytes of lines `from..to` of `b`, which are contiguous.
fn b_span(b: &[(usize, usize)], from: usize, to: usize) -> std::ops::Range<usize> {
    if from >= to {
        return 0..0;
    }
    b[from].0..b[to - 1].1
}

#[derive(Default)]
struct Builder {
    delta: Delta,
}

impl Builder {
    fn copy(&mut self, from: usize, len: usize) {
        if len == 0 {
            return;
        }
        if let Some(Op::Copy(f, l)) = self.delta.ops.last_mut()
            && *f + *l == from as u64
        {
            *l += len as u64;
            return;
        }
        self.delta.ops.push(Op::Copy(from as u64, len as u64));
    }

    fn insert(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.delta.added.extend_from_slice(bytes);
        if let Some(Op::Insert(l)) = self.delta.ops.last_mut() {
            *l += bytes.len() as u64;
            return;
        }
        self.delta.ops.push(Op::Insert(bytes.len() as u64));
    }
}

/// The length of the longest common prefix of `a` and `b` that ends at a line end (or is
/// all of the shorter one when that is a prefix of the other and ends a line there).
fn common_head(a: &[u8], b: &[u8]) -> usize {
    let same = same_from_start(a, b);
    if same == a.len() && same == b.len() {
        return same;
    }
    // Back to just after the last newline inside the common part.
    a[..same]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1)
}

/// The length of the longest common suffix of `a` and `b` that starts at a line start.
fn common_tail(a: &[u8], b: &[u8]) -> usize {
    let same = same_from_end(a, b);
    if same == a.len() && same == b.len() {
        return same;
    }
    // Forward to the first line start inside the common part: a byte just after a newline
    // on both sides (the byte before the common part must be a newline, or absent).
    let starts_line = |s: &[u8], at: usize| at == 0 || s[at - 1] == b'\n';
    (0..=same)
        .rev()
        .find(|&k| starts_line(a, a.len() - k) && starts_line(b, b.len() - k))
        .unwrap_or(0)
}

/// Blocks compared at once by [`same_from_start`] and [`same_from_end`]: whole blocks
/// are compared as slices (a `memcmp`), only the first unequal one byte by byte. Byte by
/// byte, the common head and tail of two 86 MB states were a tenth of an `undo` at
/// 100,000 players.
const BLOCK: usize = 4096;

/// How many bytes `a` and `b` share from their start.
fn same_from_start(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= n && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..n]
        .iter()
        .zip(&b[at..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// How many bytes `a` and `b` share at their end.
fn same_from_end(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (ea, eb) = (a.len(), b.len());
    let mut k = 0;
    while k + BLOCK <= n && a[ea - k - BLOCK..ea - k] == b[eb - k - BLOCK..eb - k] {
        k += BLOCK;
    }
    k + a[..ea - k]
        .iter()
        .rev()
        .zip(b[..eb - k].iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// A fast hash of the lines [`unique_anchors`] counts (the state's own lines, never
/// chosen to collide; std's SipHash was an eighth of an `undo` at 100,000 players). Which
/// hash is used changes no delta: the anchors are sorted before they are used.
#[derive(Default)]
struct LineHasher(u64);

impl Hasher for LineHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let word = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
        }
        for &byte in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(byte)).wrapping_mul(K);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The lines of `s[from..to]` as byte ranges of `s`, each with its newline.
fn lines(s: &[u8], from: usize, to: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = from;
    for (i, &c) in s[from..to].iter().enumerate() {
        if c == b'\n' {
            out.push((start, from + i + 1));
            start = from + i + 1;
        }
    }
    if start < to {
        out.push((start, to));
    }
    out
}

/// A run of equal lines: `len` lines from line `a` of the base and line `b` of the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    a: usize,
    b: usize,
    len: usize,
}

/// Runs of equal lines, in order on both sides and not overlapping.
fn matching_runs(
    base: &[u8],
    a: &[(usize, usize)],
    target: &[u8],
    b: &[(usize, usize)],
) -> Vec<Run> {
    let la = |i: usize| &base[a[i].0..a[i].1];
    let lb = |j: usize| &target[b[j].0..b[j].1];
    let mut runs = Vec::new();
    // (a range, b range, level), worked through in any order: the runs are sorted at the
    // end, and the ranges never overlap.
    let mut todo = vec![(0, a.len(), 0, b.len(), 0u32)];
    while let Some((mut a0, mut a1, mut b0, mut b1, level)) = todo.pop() {
        let mut head = 0;
        while a0 + head < a1 && b0 + head < b1 && la(a0 + head) == lb(b0 + head) {
            head += 1;
        }
        if head > 0 {
            runs.push(Run {
                a: a0,
                b: b0,
                len: head,
            });
            a0 += head;
            b0 += head;
        }
        let mut tail = 0;
        while a1 - tail > a0 && b1 - tail > b0 && la(a1 - tail - 1) == lb(b1 - tail - 1) {
            tail += 1;
        }
        if tail > 0 {
            runs.push(Run {
                a: a1 - tail,
                b: b1 - tail,
                len: tail,
            });
            a1 -= tail;
            b1 -= tail;
        }
        if a0 == a1 || b0 == b1 || level >= MAX_LEVELS {
            continue;
        }
        let anchors = unique_anchors(&la, a0..a1, &lb, b0..b1);
        if anchors.is_empty() {
            continue;
        }
        // Each anchor is a run of one line; the stretches around them are looked at again.
        let (mut pa, mut pb) = (a0, b0);
        for &(i, j) in &anchors {
            todo.push((pa, i, pb, j, level + 1));
            runs.push(Run { a: i, b: j, len: 1 });
            (pa, pb) = (i + 1, j + 1);
        }
        todo.push((pa, a1, pb, b1, level + 1));
    }
    runs.sort_by_key(|r| r.b);
    runs
}

/// Per line: (times in a, its index in a, times in b, its index in b).
type LineCounts<'s> = HashMap<&'s [u8], (u32, usize, u32, usize), BuildHasherDefault<LineHasher>>;

/// Pairs (line of a, line of b) of lines found exactly once in each range, the longest
/// chain of them that is in order on both sides (patience sorting).
fn unique_anchors<'s>(
    la: &impl Fn(usize) -> &'s [u8],
    ra: std::ops::Range<usize>,
    lb: &impl Fn(usize) -> &'s [u8],
    rb: std::ops::Range<usize>,
) -> Vec<(usize, usize)> {
    // line → (times in a, its index in a, times in b, its index in b); made at its size
    // once (growing it by rehashing was two fifths of finding an `undo`'s delta at
    // 100,000 players).
    let mut seen: LineCounts = HashMap::with_capacity_and_hasher(ra.len(), Default::default());
    for i in ra {
        let e = seen.entry(la(i)).or_insert((0, i, 0, 0));
        e.0 = e.0.saturating_add(1);
    }
    for j in rb.clone() {
        if let Some(e) = seen.get_mut(lb(j)) {
            e.2 = e.2.saturating_add(1);
            e.3 = j;
        }
    }
    let mut pairs: Vec<(usize, usize)> = seen
        .into_values()
        .filter(|&(na, _, nb, _)| na == 1 && nb == 1)
        .map(|(_, i, _, j)| (i, j))
        .collect();
    pairs.sort_by_key(|&(_, j)| j);
    longest_increasing(&pairs)
}

/// The longest subsequence of `pairs` (sorted by their second member) whose first members
/// increase too.
fn longest_increasing(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tails[k]: the index in `pairs` of the smallest last element of a chain of length k+1.
    let mut tails: Vec<usize> = Vec::new();
    let mut back: Vec<Option<usize>> = vec![None; pairs.len()];
    for (n, &(i, _)) in pairs.iter().enumerate() {
        let k = tails.partition_point(|&t| pairs[t].0 < i);
        back[n] = k.checked_sub(1).map(|p| tails[p]);
        if k == tails.len() {
            tails.push(n);
        } else {
            tails[k] = n;
        }
    }
    let mut chain = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(n) = at {
        chain.push(pairs[n]);
        at = back[n];
    }
    chain.reverse();
    chain
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(base: &[u8], target: &[u8]) -> Delta {
        let d = delta(base, target);
        assert_eq!(
            apply(&d, base, target.len()).unwrap(),
            target,
            "base {:?} target {:?}",
            String::from_utf8_lossy(base),
            String::from_utf8_lossy(target)
        );
        d
    }

    #[test]
    fn edge_cases_round_trip() {
        let cases: [(&str, &str); 12] = [
            ("", ""),
            ("", "a\n"),
            ("a\n", ""),
            ("a\n", "a\n"),
            ("a", "a\n"),
            ("a\n", "a"),
            ("a\nb\nc\n", "a\nc\n"),
            ("a\nb\nc", "a\nB\nc"),
            ("x\n", "y\n"),
            ("}\n}\n}\n", "}\n}\n"),
            ("ab\ncd\n", "abcd\n"),
            ("a\nb\n", "b\na\n"),
        ];
        for (base, target) in cases {
            round_trip(base.as_bytes(), target.as_bytes());
        }
    }

    #[test]
    fn a_small_edit_in_a_large_text_is_a_small_delta() {
        let base: String = (0..20_000)
            .map(|i| format!("  {{\n    \"id\": {i},\n    \"result\": null\n  }},\n"))
            .collect();
        // One change near the start, one in the middle, one near the end.
        let target = base
            .replacen(
                "\"id\": 17,\n    \"result\": null",
                "\"id\": 17,\n    \"result\": \"1-0\"",
                1,
            )
            .replacen(
                "\"id\": 9000,\n",
                "\"id\": 9000,\n    \"note\": \"late\",\n",
                1,
            )
            .replacen(
                "\"id\": 19990,\n    \"result\": null",
                "\"id\": 19990,\n    \"result\": \"0-1\"",
                1,
            );
        let d = round_trip(base.as_bytes(), target.as_bytes());
        assert!(d.weight() < 400, "{} for {} bytes", d.weight(), base.len());
        assert!(d.ops.len() <= 7, "{:?}", d.ops);
    }

    /// A state after `pair`: its change number rewritten near the top, a round's lines
    /// added, one line near the end changed. Passing the two changed lines in the head
    /// and tail gives the delta the line-by-line search finds, in either direction, and
    /// at the edges of the text too.
    #[test]
    fn changed_lines_passed_in_the_head_and_tail_give_the_searched_delta() {
        let base: String = (0..20_000).map(|i| format!("{{\"id\": {i}}}\n")).collect();
        let round: String = (0..5_000)
            .map(|i| format!("{{\"table\": {i}}}\n"))
            .collect();
        let target = base
            .replacen("{\"id\": 2}\n", "{\"id\": 2, \"change\": 7}\n", 1)
            .replacen(
                "{\"id\": 10000}\n",
                &format!("{round}{{\"id\": 10000}}\n"),
                1,
            )
            .replacen("{\"id\": 19990}\n", "{\"id\": 19990, \"late\": true}\n", 1);
        let edges = base
            .replacen("{\"id\": 0}\n", "{\"id\": 0, \"first\": 1}\n", 1)
            .replacen("{\"id\": 19999}\n", "{\"id\": 19999}", 1);
        for (a, b) in [
            (&base, &target),
            (&target, &base),
            (&base, &edges),
            (&edges, &base),
        ] {
            let (a, b) = (a.as_bytes(), b.as_bytes());
            let passed = delta_skipping(a, b, 1_000);
            assert_eq!(apply(&passed, a, b.len()).unwrap(), b);
            assert_eq!(passed, delta_skipping(a, b, usize::MAX));
            assert!(passed.ops.len() <= 7, "{:?}", passed.ops);
        }
    }

    /// The common head and tail found a block at a time are those found byte by byte,
    /// with the first difference anywhere: before, inside or after a whole block, and
    /// one side a prefix (or suffix) of the other.
    #[test]
    fn common_head_and_tail_match_a_byte_by_byte_count() {
        let naive_head = |a: &[u8], b: &[u8]| a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let naive_tail = |a: &[u8], b: &[u8]| {
            a.iter()
                .rev()
                .zip(b.iter().rev())
                .take_while(|(x, y)| x == y)
                .count()
        };
        let base: Vec<u8> = (0..3 * BLOCK + 77).map(|i| (i * 7 % 251) as u8).collect();
        for at in [
            0,
            1,
            BLOCK - 1,
            BLOCK,
            BLOCK + 1,
            2 * BLOCK + 5,
            base.len() - 1,
        ] {
            let mut other = base.clone();
            other[at] ^= 1;
            assert_eq!(
                same_from_start(&base, &other),
                naive_head(&base, &other),
                "{at}"
            );
            assert_eq!(
                same_from_end(&base, &other),
                naive_tail(&base, &other),
                "{at}"
            );
            for cut in [at, base.len() - at] {
                let (short, tail) = (&base[..cut], &base[base.len() - cut..]);
                assert_eq!(same_from_start(&base, short), cut);
                assert_eq!(same_from_start(short, &base), cut);
                assert_eq!(same_from_end(&base, tail), cut);
                assert_eq!(same_from_end(tail, &base), cut);
            }
        }
        assert_eq!(same_from_start(&base, &base), base.len());
        assert_eq!(same_from_end(&base, &base), base.len());
    }

    /// The inverse of a delta rebuilds its base from its target, for edits anywhere and
    /// for texts with nothing in common.
    #[test]
    fn an_inverted_delta_rebuilds_the_base() {
        let base: String = (0..2_000).map(|i| format!("line {i}\n")).collect();
        let target = base
            .replacen("line 3\n", "line three\n", 1)
            .replacen("line 1500\n", "", 1)
            .replacen("line 1999\n", "line 1999\nextra\n", 1);
        for (a, b) in [
            (base.as_str(), target.as_str()),
            (target.as_str(), base.as_str()),
            ("x\ny\n", "z\n"),
            ("", "a\n"),
            ("a\n", ""),
        ] {
            let d = delta(a.as_bytes(), b.as_bytes());
            let back = invert(&d, a.as_bytes()).expect("in order");
            assert_eq!(apply(&back, b.as_bytes(), a.len()).unwrap(), a.as_bytes());
        }
    }

    #[test]
    fn damaged_deltas_are_refused() {
        let base = b"a\nb\n";
        let good = delta(base, b"a\nc\nb\n");
        assert_eq!(apply(&good, base, 6).unwrap(), b"a\nc\nb\n");
        assert_eq!(apply(&good, base, 5), Err(ApplyError::TooLong { limit: 5 }));
        let outside = Delta {
            ops: vec![Op::Copy(3, 2)],
            added: vec![],
        };
        assert!(matches!(
            apply(&outside, base, 10),
            Err(ApplyError::CopyOutside { .. })
        ));
        let huge = Delta {
            ops: vec![Op::Copy(u64::MAX, 2)],
            added: vec![],
        };
        assert!(matches!(
            apply(&huge, base, 10),
            Err(ApplyError::CopyOutside { .. })
        ));
        // A recorded length no machine could hold is only a limit, not an allocation.
        assert_eq!(apply(&good, base, usize::MAX).unwrap(), b"a\nc\nb\n");
        let short = Delta {
            ops: vec![Op::Insert(3)],
            added: b"ab".to_vec(),
        };
        assert_eq!(apply(&short, base, 10), Err(ApplyError::AddedShort));
        let left = Delta {
            ops: vec![Op::Insert(1)],
            added: b"ab".to_vec(),
        };
        assert_eq!(apply(&left, base, 10), Err(ApplyError::AddedLeft));
    }

    /// Text made of a few repeated JSON-like lines, so that lines repeat as in a state.
    fn text() -> impl Strategy<Value = Vec<u8>> {
        let line = prop_oneof![
            Just("{\n".to_string()),
            Just("},\n".to_string()),
            Just("\"result\": null,\n".to_string()),
            (0u32..40).prop_map(|n| format!("\"id\": {n},\n")),
            "[a-c\u{4e00}]{0,3}\n?",
        ];
        proptest::collection::vec(line, 0..60).prop_map(|v| v.concat().into_bytes())
    }

    /// An edit: a run of the text replaced by other lines.
    fn edited() -> impl Strategy<Value = (Vec<u8>, Vec<u8>)> {
        (text(), text(), any::<prop::sample::Index>(), 0usize..80).prop_map(
            |(base, insert, at, cut)| {
                let at = at.index(base.len() + 1);
                let end = (at + cut).min(base.len());
                let mut target = base[..at].to_vec();
                target.extend_from_slice(&insert);
                target.extend_from_slice(&base[end..]);
                (base, target)
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// The round trip the history relies on: the delta from any state to any other
        /// rebuilds the other byte for byte, whether changed lines are passed in the
        /// head and tail after a long common stretch (as in `delta`) or a short one.
        #[test]
        fn any_delta_rebuilds_its_target(
            base in text(),
            target in text(),
            skip in prop_oneof![Just(SKIP_AFTER), 1usize..8],
        ) {
            let d = delta_skipping(&base, &target, skip);
            prop_assert_eq!(apply(&d, &base, target.len()).unwrap(), target);
        }

        #[test]
        fn an_edit_round_trips_both_ways(
            (base, target) in edited(),
            skip in prop_oneof![Just(SKIP_AFTER), 1usize..8],
        ) {
            let forward = delta_skipping(&base, &target, skip);
            prop_assert_eq!(apply(&forward, &base, target.len()).unwrap(), target.clone());
            let back = delta_skipping(&target, &base, skip);
            prop_assert_eq!(apply(&back, &target, base.len()).unwrap(), base.clone());
            let inverse = invert(&forward, &base).expect("in order");
            prop_assert_eq!(apply(&inverse, &target, base.len()).unwrap(), base);
        }
    }
}
