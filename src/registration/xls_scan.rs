//! A pass over an .xls (BIFF8 in an OLE compound file) before the workbook library reads
//! it, finding the `Workbook` stream the way the library does and walking its records
//! the way the library does, to count what the library would hold: the sectors each
//! chain of the container visits (a chain that loops never ends), the sheets and where
//! they start, the room a `DIMENSIONS` record reserves, the shared strings, every cell
//! and formula, the rectangle each sheet is laid out in, the merged regions and the text.
//! The same walk finds the rows each sheet hides (its `ROW` records), which the library
//! does not tell: they are read, and named in a warning, as an .xlsx's are.
//!
//! The library reads the whole workbook when it opens it, so nothing can be refused after
//! that: what it would go wrong on is refused here, and anything that makes it stop with
//! an error of its own is left to it. Counts can only come out at or above the library's.

use super::limits::{
    At, Found, Limit, MAX_CELLS, MAX_MERGED, MAX_RECTANGLE_CELLS, MAX_SHARED_STRINGS, MAX_SHEETS,
    MAX_TEXT_BYTES, beyond, damaged, grouped,
};
use crate::i18n::Text;
use std::collections::BTreeSet;

const END_OF_CHAIN: u32 = 0xFFFF_FFFE;
const RESERVED: u32 = 0xFFFF_FFFA;
const DIF_SECTOR: u32 = 0xFFFF_FFFC;

/// Why the scan stopped early.
enum Stop {
    /// The library would stop with an error of its own here: nothing more to count.
    Library,
    /// Refused.
    Refuse(Text),
}

impl From<Text> for Stop {
    fn from(t: Text) -> Stop {
        Stop::Refuse(t)
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u32s(b: &[u8]) -> impl Iterator<Item = u32> + '_ {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// The rows with content each sheet hides, as Excel numbers them from 1, one set per
/// sheet in the workbook's order (its `BOUNDSHEET` records, the order of the library's
/// sheet names); empty where the scan stopped early.
pub type SheetHiddenRows = Vec<BTreeSet<usize>>;

/// Checks the .xls `bytes` against the limits; returns the rows each sheet hides.
pub fn scan(bytes: &[u8]) -> Result<SheetHiddenRows, Text> {
    let stream = match workbook_stream(bytes) {
        Ok(s) => s,
        Err(Stop::Library) => return Ok(Vec::new()),
        Err(Stop::Refuse(t)) => return Err(t),
    };
    match scan_biff(&stream) {
        Ok(hidden) => Ok(hidden),
        Err(Stop::Library) => Ok(Vec::new()),
        Err(Stop::Refuse(t)) => Err(t),
    }
}

/// [`scan`]'s hidden rows by the name the library gives each sheet (`names`, in
/// workbook order), sheets that hide none left out. Nothing when the two lists differ in
/// length (the scan stopped early): the rows are then read with no warning, as before
/// hidden rows were looked for.
pub fn by_name(hidden: SheetHiddenRows, names: Vec<String>) -> super::ods_scan::HiddenRows {
    if hidden.len() != names.len() {
        return Default::default();
    }
    // Two sheets of one name: the library keeps the last one's cells, so its rows.
    let mut named: super::ods_scan::HiddenRows = names.into_iter().zip(hidden).collect();
    named.retain(|_, rows| !rows.is_empty());
    named
}

fn container(en: &str, zh: &str) -> Stop {
    Stop::Refuse(damaged(None, zh, en))
}

/// The sectors of the compound file, as the library numbers them.
struct Container<'a> {
    bytes: &'a [u8],
    size: usize,
    max_id: usize,
    fat: Vec<u32>,
}

impl Container<'_> {
    fn sector(&self, id: u32) -> Result<&[u8], Stop> {
        if id as usize > self.max_id {
            return Err(Stop::Library);
        }
        let start = (id as usize + 1) * self.size;
        let end = start + self.size;
        Ok(&self.bytes[start.min(self.bytes.len())..end.min(self.bytes.len())])
    }

    /// The bytes of the chain from `id`, at most `len` of them; a chain visiting more
    /// sectors than the file has loops, which the library would follow for ever.
    fn chain(&self, mut id: u32, len: usize) -> Result<Vec<u8>, Stop> {
        let mut out = Vec::new();
        let mut visits = 0usize;
        while id != END_OF_CHAIN {
            visits += 1;
            if visits > self.max_id + 1 {
                return Err(container(
                    "a sector chain of the container loops",
                    "容器中的扇区链成环",
                ));
            }
            let sector = self.sector(id)?;
            let take = sector.len().min(len - out.len());
            out.extend_from_slice(&sector[..take]);
            if out.len() >= len {
                break;
            }
            id = *self.fat.get(id as usize).ok_or(Stop::Library)?;
        }
        Ok(out)
    }
}

/// The `Workbook` (or `Book`) stream, found as the library finds it.
fn workbook_stream(bytes: &[u8]) -> Result<Vec<u8>, Stop> {
    if bytes.len() < 512 || !bytes.starts_with(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1") {
        return Err(Stop::Library);
    }
    let version = u16_at(bytes, 26).ok_or(Stop::Library)?;
    let size = match u16_at(bytes, 30) {
        Some(9) => 512,
        Some(12) if bytes.len() >= 4096 => 4096,
        _ => return Err(Stop::Library),
    };
    if u16_at(bytes, 32) != Some(6) {
        return Err(Stop::Library);
    }
    let header = |at| u32_at(bytes, at).ok_or(Stop::Library);
    let (dir_start, mini_fat_start) = (header(48)?, header(60)?);
    let (mini_fat_len, difat_start) = (header(64)? as usize, header(68)?);
    let mut c = Container {
        bytes,
        size,
        max_id: bytes.len() / size,
        fat: Vec::new(),
    };
    let mut difat: Vec<u32> = u32s(&bytes[76..512]).collect();
    let mut id = difat_start;
    let mut visits = 0usize;
    while id < RESERVED {
        visits += 1;
        if visits > c.max_id + 1 {
            return Err(Stop::Library);
        }
        let sector = c.sector(id)?;
        if sector.len() % 4 != 0 {
            return Err(Stop::Library);
        }
        difat.extend(u32s(sector));
        id = difat.pop().ok_or(Stop::Library)?;
    }
    // The library reads every sector the DIFAT lists, as often as it is listed.
    let fat_sectors: Vec<u32> = difat.into_iter().filter(|&id| id < DIF_SECTOR).collect();
    if fat_sectors.len() > c.max_id + 1 {
        return Err(container(
            "its allocation table lists more sectors than the file holds",
            "分配表列出的扇区多于文件所有",
        ));
    }
    let mut fat = Vec::new();
    for id in fat_sectors {
        let sector = c.sector(id)?;
        if sector.len() % 4 != 0 {
            return Err(Stop::Library);
        }
        fat.extend(u32s(sector));
    }
    c.fat = fat;
    let dirs = c.chain(dir_start, usize::MAX)?;
    let entries: Vec<(String, u32, usize)> = dirs
        .chunks_exact(128)
        .map(|d| {
            let units: Vec<u16> = d[..64]
                .chunks_exact(2)
                .map(|u| u16::from_le_bytes([u[0], u[1]]))
                .collect();
            let mut name = String::from_utf16_lossy(&units);
            if let Some(nul) = name.find('\0') {
                name.truncate(nul);
            }
            let start = u32::from_le_bytes([d[116], d[117], d[118], d[119]]);
            let len = if size == 512 {
                u32::from_le_bytes([d[120], d[121], d[122], d[123]]) as usize
            } else {
                usize::try_from(u64::from_le_bytes(d[120..128].try_into().unwrap_or([0; 8])))
                    .unwrap_or(usize::MAX)
            };
            (name, start, len)
        })
        .collect();
    let Some(root) = entries.first() else {
        return Err(Stop::Library);
    };
    if version != 3 && root.1 == END_OF_CHAIN {
        return Err(Stop::Library);
    }
    let (mini_fat, mini_stream) = if mini_fat_len > 0 {
        let stream = c.chain(root.1, root.2)?;
        let fat = c.chain(mini_fat_start, mini_fat_len.saturating_mul(size))?;
        if fat.len() % 4 != 0 {
            return Err(Stop::Library);
        }
        (u32s(&fat).collect::<Vec<u32>>(), stream)
    } else {
        (Vec::new(), Vec::new())
    };
    let find = |want: &str| {
        entries
            .iter()
            .find(|(name, ..)| name.as_bytes().eq_ignore_ascii_case(want.as_bytes()))
    };
    let stream_of = |&(_, start, len): &(String, u32, usize)| -> Result<Vec<u8>, Stop> {
        if len >= 4096 {
            return c.chain(start, len);
        }
        let mut out = Vec::new();
        let mut id = start;
        let mut visits = 0usize;
        while id != END_OF_CHAIN {
            visits += 1;
            let at = id as usize * 64;
            if visits > mini_stream.len() / 64 + 1 || at + 64 > mini_stream.len() {
                return Err(container(
                    "a small stream lies outside the container's mini stream",
                    "小数据流超出了容器的迷你流",
                ));
            }
            let take = 64.min(len - out.len());
            out.extend_from_slice(&mini_stream[at..at + take]);
            if out.len() >= len {
                break;
            }
            id = *mini_fat.get(id as usize).ok_or(Stop::Library)?;
        }
        Ok(out)
    };
    match find("Workbook").map(stream_of) {
        Some(Ok(s)) => Ok(s),
        Some(Err(Stop::Refuse(t))) => Err(Stop::Refuse(t)),
        _ => stream_of(find("Book").ok_or(Stop::Library)?),
    }
}

/// A record and the `CONTINUE` records after it, as the library joins them.
struct Record<'a> {
    typ: u16,
    data: &'a [u8],
    cont: Vec<&'a [u8]>,
}

/// The records of `stream` up to its end; `Err` where the library stops with an error.
fn next_record<'a>(stream: &mut &'a [u8]) -> Option<Result<Record<'a>, Stop>> {
    if stream.len() < 4 {
        return if stream.is_empty() {
            None
        } else {
            Some(Err(Stop::Library))
        };
    }
    let typ = u16::from_le_bytes([stream[0], stream[1]]);
    let len = usize::from(u16::from_le_bytes([stream[2], stream[3]]));
    if stream.len() < len + 4 {
        return Some(Err(Stop::Library));
    }
    let data = &stream[4..len + 4];
    *stream = &stream[len + 4..];
    let mut cont = Vec::new();
    while stream.len() > 4 && u16::from_le_bytes([stream[0], stream[1]]) == 0x003C {
        let len = usize::from(u16::from_le_bytes([stream[2], stream[3]]));
        if stream.len() < len + 4 {
            return Some(Err(Stop::Library));
        }
        cont.push(&stream[4..len + 4]);
        *stream = &stream[len + 4..];
    }
    Some(Ok(Record { typ, data, cont }))
}

/// What the library builds of one workbook, counted.
#[derive(Default)]
struct Tally {
    cells: u64,
    laid_out: u64,
    text: u64,
}

impl Tally {
    fn check(&self, sheet: &str) -> Result<(), Stop> {
        let at = At::Sheet(sheet);
        if self.cells > MAX_CELLS {
            return Err(beyond(Limit::Cells, at, Found::MoreThan).into());
        }
        if self.laid_out > MAX_RECTANGLE_CELLS {
            return Err(beyond(Limit::Rectangle, at, Found::MoreThan).into());
        }
        if self.text > MAX_TEXT_BYTES {
            return Err(beyond(Limit::Text, at, Found::MoreThan).into());
        }
        Ok(())
    }
}

/// The smallest rectangle holding some cells.
#[derive(Default, Clone, Copy)]
struct Bounds(Option<(u32, u32, u32, u32)>);

impl Bounds {
    fn add(&mut self, row: u32, col: u32) {
        self.0 = Some(match self.0 {
            None => (row, row, col, col),
            Some((r0, r1, c0, c1)) => (r0.min(row), r1.max(row), c0.min(col), c1.max(col)),
        });
    }

    fn cells(self) -> u64 {
        self.0.map_or(0, |(r0, r1, c0, c1)| {
            u64::from(r1 - r0 + 1) * u64::from(c1 - c0 + 1)
        })
    }
}

fn scan_biff(stream: &[u8]) -> Result<SheetHiddenRows, Stop> {
    let mut sheets: Vec<(usize, String)> = Vec::new();
    let mut strings: Vec<u64> = Vec::new();
    let mut encrypted = false;
    let mut rest = stream;
    while let Some(record) = next_record(&mut rest) {
        let r = record?;
        match r.typ {
            // FILEPASS: the records after it are encrypted (the library refuses the
            // workbook) or obfuscated, their flags not to be trusted.
            0x002F => encrypted = true,
            0x0085 => {
                let pos = u32_at(r.data, 0).ok_or(Stop::Library)? as usize;
                let name = sheet_name(r.data);
                if sheets.len() == MAX_SHEETS {
                    return Err(beyond(Limit::Sheets, At::Workbook, Found::MoreThan).into());
                }
                if pos > stream.len() {
                    let (at, len) = (grouped(pos as u64), grouped(stream.len() as u64));
                    return Err(Stop::Refuse(damaged(
                        Some(&name),
                        &format!("工作表位置 {at} 超出了工作簿数据流（{len} 字节）"),
                        &format!(
                            "the sheet starts at byte {at}, past the end of the workbook stream ({len} bytes)"
                        ),
                    )));
                }
                sheets.push((pos, name));
            }
            0x00FC => strings = shared_strings(&r)?,
            0x000A => break,
            _ => {}
        }
    }
    let mut tally = Tally::default();
    let mut hidden = Vec::with_capacity(sheets.len());
    for (pos, name) in &sheets {
        let rows = scan_sheet(&stream[*pos..], name, &strings, &mut tally)?;
        hidden.push(if encrypted { BTreeSet::new() } else { rows });
    }
    Ok(hidden)
}

/// One bit per row of a BIFF sheet (rows are numbered by a `u16`): 8 KB.
struct RowBits(Vec<u64>);

impl RowBits {
    fn new() -> RowBits {
        RowBits(vec![0; 1024])
    }

    /// Sets the bit of `row`; whether it was set before.
    fn set(&mut self, row: u16) -> bool {
        let (word, bit) = (usize::from(row / 64), 1u64 << (row % 64));
        let before = self.0[word] & bit != 0;
        self.0[word] |= bit;
        before
    }

    /// The rows set in both, numbered from 1.
    fn both(&self, other: &RowBits) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        for (w, (a, b)) in self.0.iter().zip(&other.0).enumerate() {
            let mut bits = a & b;
            while bits != 0 {
                out.insert(w * 64 + bits.trailing_zeros() as usize + 1);
                bits &= bits - 1;
            }
        }
        out
    }
}

/// The rows a sheet hides, from its `ROW` records (`fDyZero`, bit 0x0020 of the flags at
/// byte 12: hidden by hand or by a filter), and the rows holding a cell. A sheet whose
/// records do not hang together (a first record that is no `BOF`, a `ROW` record not of
/// its 16 bytes, or two for one row) is taken to hide none: its rows are read as they
/// were before hidden rows were looked for.
struct Hidden {
    rows: RowBits,
    seen: RowBits,
    filled: RowBits,
    unsure: bool,
}

impl Hidden {
    fn new() -> Hidden {
        Hidden {
            rows: RowBits::new(),
            seen: RowBits::new(),
            filled: RowBits::new(),
            unsure: false,
        }
    }

    fn row_record(&mut self, d: &[u8]) {
        match (u16_at(d, 0), u16_at(d, 12)) {
            (Some(row), Some(flags)) if d.len() == 16 && !self.seen.set(row) => {
                if flags & 0x0020 != 0 {
                    self.rows.set(row);
                }
            }
            _ => self.unsure = true,
        }
    }

    fn filled(&mut self, row: u32) {
        if let Ok(row) = u16::try_from(row) {
            self.filled.set(row);
        }
    }

    /// The hidden rows that hold a cell, numbered from 1.
    fn with_content(&self) -> BTreeSet<usize> {
        if self.unsure {
            return BTreeSet::new();
        }
        self.rows.both(&self.filled)
    }
}

/// The name of a BOUNDSHEET record, for messages (a BIFF8 short string).
fn sheet_name(data: &[u8]) -> String {
    let Some(&len) = data.get(6) else {
        return String::new();
    };
    let len = usize::from(len);
    match data.get(7) {
        Some(f) if f & 1 == 1 => {
            let units: Vec<u16> = data
                .get(8..)
                .unwrap_or_default()
                .chunks_exact(2)
                .take(len)
                .map(|u| u16::from_le_bytes([u[0], u[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        _ => data
            .get(8..)
            .unwrap_or_default()
            .iter()
            .take(len)
            .map(|&b| char::from(b))
            .collect(),
    }
}

/// The UTF-8 length the library gives each string of the SST, by its reading of it.
fn shared_strings(r: &Record<'_>) -> Result<Vec<u64>, Stop> {
    if r.data.len() < 8 {
        return Err(Stop::Library);
    }
    let mut data = &r.data[8..];
    let mut cont = r.cont.iter();
    let mut out = Vec::new();
    loop {
        if data.is_empty() {
            match cont.next() {
                Some(next) => data = next,
                None => return Ok(out),
            }
        }
        if out.len() as u64 == MAX_SHARED_STRINGS {
            let found = Found::MoreThan;
            return Err(beyond(Limit::SharedStrings, At::Workbook, found).into());
        }
        if data.is_empty() {
            out.push(0);
            continue;
        }
        if data.len() < 3 {
            return Err(Stop::Library);
        }
        let mut chars = usize::from(u16::from_le_bytes([data[0], data[1]]));
        let flags = data[2];
        data = &data[3..];
        let mut runs = 0usize;
        if flags & 0x8 != 0 {
            runs = usize::from(u16_at(data, 0).ok_or(Stop::Library)?) * 4;
            data = &data[2..];
        }
        let mut ext = 0usize;
        if flags & 0x4 != 0 {
            ext = u32_at(data, 0).ok_or(Stop::Library)? as i32 as usize;
            data = &data[4..];
        }
        let mut wide = flags & 1 != 0;
        let mut utf8 = 0u64;
        while chars > 0 {
            let n = if wide { data.len() / 2 } else { data.len() }.min(chars);
            data = &data[if wide { 2 * n } else { n }..];
            chars -= n;
            // Up to three bytes of UTF-8 a unit, twice that where a legacy code page
            // decodes a unit as two replacement characters.
            utf8 += n as u64 * if wide { 6 } else { 4 };
            if chars > 0 {
                let next = cont.next().ok_or(Stop::Library)?;
                let flag = *next.first().ok_or(Stop::Library)?;
                wide = flag & 1 != 0;
                data = &next[1..];
            }
        }
        for mut skip in [runs, ext] {
            while skip > 0 {
                if data.is_empty() {
                    data = cont.next().ok_or(Stop::Library)?;
                }
                let n = skip.min(data.len());
                data = &data[n..];
                skip -= n;
            }
        }
        out.push(utf8);
    }
}

/// Counts one sheet's substream from its BOF to its EOF, as the library reads it;
/// returns the rows with content it hides ([`Hidden`]).
fn scan_sheet(
    mut rest: &[u8],
    name: &str,
    strings: &[u64],
    tally: &mut Tally,
) -> Result<BTreeSet<usize>, Stop> {
    let (mut values, mut formulas) = (Bounds::default(), Bounds::default());
    let mut hidden = Hidden::new();
    let (mut merged, mut depth, mut seen_bof) = (0u64, 0usize, false);
    let mut formula_at = (0u32, 0u32);
    let cell_at = |d: &[u8]| -> Result<(u32, u32), Stop> {
        let row = u16_at(d, 0).ok_or(Stop::Library)?;
        let col = u16_at(d, 2).ok_or(Stop::Library)?;
        Ok((u32::from(row), u32::from(col)))
    };
    while let Some(record) = next_record(&mut rest) {
        let r = record?;
        if depth > 0 {
            match r.typ {
                0x0809 => depth += 1,
                0x000A => depth -= 1,
                _ => {}
            }
            continue;
        }
        let d = r.data;
        hidden.unsure |= !seen_bof && r.typ != 0x0809;
        match r.typ {
            0x0809 if seen_bof => depth += 1,
            0x0809 => seen_bof = true,
            0x000A => break,
            0x0208 => hidden.row_record(d),
            0x0200 => {
                let reserved = dimensions(d)?;
                if reserved > MAX_CELLS {
                    let found = Found::Declared(reserved);
                    return Err(beyond(Limit::Cells, At::Sheet(name), found).into());
                }
            }
            0x0203 | 0x0205 | 0x027E | 0x0204 | 0x00D6 | 0x0207 => {
                let (row, col) = if r.typ == 0x0207 {
                    formula_at
                } else {
                    cell_at(d)?
                };
                values.add(row, col);
                hidden.filled(row);
                tally.cells += 1;
                if matches!(r.typ, 0x0204 | 0x00D6 | 0x0207) {
                    tally.text += d.len() as u64 * 3;
                }
            }
            0x00FD => {
                if d.len() < 10 {
                    return Err(Stop::Library);
                }
                let (row, col) = cell_at(d)?;
                let index = u32_at(d, 6).ok_or(Stop::Library)? as usize;
                if let Some(&len) = strings.get(index) {
                    values.add(row, col);
                    hidden.filled(row);
                    tally.cells += 1;
                    tally.text += len;
                }
            }
            0x00BD => {
                if d.len() < 6 {
                    return Err(Stop::Library);
                }
                let (row, first) = cell_at(d)?;
                let last = u16_at(d, d.len() - 2).ok_or(Stop::Library)?;
                let span = last.wrapping_sub(first as u16).wrapping_add(1);
                if d.len() != 6 + 6 * usize::from(span) {
                    return Err(Stop::Library);
                }
                let n = (d.len() - 6) / 6;
                if n > 0 {
                    hidden.filled(row);
                    values.add(row, first);
                    values.add(row, first + n as u32 - 1);
                }
                tally.cells += n as u64;
            }
            0x00E5 => {
                let count = u16_at(d, 0).ok_or(Stop::Library)?;
                merged += u64::from(count).min((d.len().saturating_sub(2) / 8) as u64);
                if merged > MAX_MERGED {
                    return Err(beyond(Limit::Merged, At::Sheet(name), Found::MoreThan).into());
                }
            }
            0x0006 => {
                if d.len() < 20 {
                    return Err(Stop::Library);
                }
                formula_at = cell_at(d)?;
                hidden.filled(formula_at.0);
                values.add(formula_at.0, formula_at.1);
                formulas.add(formula_at.0, formula_at.1);
                tally.cells += 2;
                // The formula's text: a token can name a sheet or a function.
                tally.text += 64 + (d.len() as u64 - 20) * 16;
            }
            _ => {}
        }
        let laid_out = tally.laid_out + values.cells() + formulas.cells();
        Tally { laid_out, ..*tally }.check(name)?;
    }
    tally.laid_out += values.cells() + formulas.cells();
    tally.check(name)?;
    Ok(hidden.with_content())
}

/// The cells a DIMENSIONS record makes the library reserve room for.
fn dimensions(d: &[u8]) -> Result<u64, Stop> {
    let (rf, rl, mut cf, cl) = match d.len() {
        10 => (
            u32::from(u16_at(d, 0).ok_or(Stop::Library)?),
            u32::from(u16_at(d, 2).ok_or(Stop::Library)?),
            u32::from(u16_at(d, 4).ok_or(Stop::Library)?),
            u32::from(u16_at(d, 6).ok_or(Stop::Library)?),
        ),
        14 | 16 => (
            u32_at(d, 0).ok_or(Stop::Library)?,
            u32_at(d, 4).ok_or(Stop::Library)?,
            u32::from(u16_at(d, 8).ok_or(Stop::Library)?),
            u32::from(u16_at(d, 10).ok_or(Stop::Library)?),
        ),
        _ => return Err(Stop::Library),
    };
    if 0xFF < cf || cl < cf {
        cf = 0;
    }
    let (start, end) = if 1 <= rl && 1 <= cl {
        ((rf, cf), (rl - 1, cl - 1))
    } else {
        ((rf, cf), (rf, cf))
    };
    // As the library computes it (wrapping where it would wrap).
    let rows = u64::from(end.0.wrapping_sub(start.0).wrapping_add(1));
    let cols = u64::from(end.1.wrapping_sub(start.1).wrapping_add(1));
    Ok(rows.saturating_mul(cols))
}

#[cfg(test)]
#[path = "xls_scan_tests.rs"]
mod tests;
