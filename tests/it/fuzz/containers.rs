//! The containers of the workbook targets, taken apart and put back together so a
//! mutation reaches the parser behind them: the parts of a zip (.xlsx, .ods), and the
//! records of an .xls (BIFF8) inside its OLE compound file. Rebuilt archives store their
//! parts uncompressed, so every checksum and declared size matches and the reader gets
//! past the container to the XML or records.

use super::mutate;
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::io::{Cursor, Read, Write};
use zip::write::SimpleFileOptions;

/// The parts of a zip, in order, or `None` if it does not open.
pub fn unzip(bytes: &[u8]) -> Option<Vec<(String, Vec<u8>)>> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).ok()?;
    let mut parts = Vec::with_capacity(archive.len());
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).ok()?;
        let mut data = Vec::new();
        file.read_to_end(&mut data).ok()?;
        parts.push((file.name().ok()?.into_owned(), data));
    }
    Some(parts)
}

/// A zip of `parts`, stored uncompressed.
pub fn zip(parts: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, data) in parts {
        // A name the writer refuses (a second part of one name) is left out.
        if writer.start_file(name, options).is_ok() {
            writer.write_all(data).expect("a part is written");
        }
    }
    writer.finish().expect("the zip closes").into_inner()
}

/// A zip workbook mutated: mostly one part's XML (the sheets and shared strings most
/// often), sometimes a part dropped or repeated, sometimes the archive's own bytes.
pub fn mutate_zip(rng: &mut ChaCha8Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let Some(mut parts) = unzip(input) else {
        return mutate::bytes(rng, input, other);
    };
    if parts.is_empty() || rng.gen_bool(0.08) {
        return mutate::bytes(rng, input, other);
    }
    for _ in 0..rng.gen_range(1..=2) {
        let weights: Vec<usize> = parts
            .iter()
            .map(|(name, _)| {
                if name.contains("sheet")
                    || name.contains("content")
                    || name.contains("sharedStrings")
                {
                    6
                } else {
                    1
                }
            })
            .collect();
        let total: usize = weights.iter().sum();
        let mut pick = rng.gen_range(0..total);
        let mut k = 0;
        while pick >= weights[k] {
            pick -= weights[k];
            k += 1;
        }
        match rng.gen_range(0..20) {
            0 => {
                parts.remove(k);
            }
            1 => {
                // A part under another name: a second sheet, or one the workbook's
                // relationships point at but do not find.
                let (name, data) = parts[k].clone();
                parts.push((name.replacen(".xml", "2.xml", 1), data));
            }
            _ => {
                let other_part = parts.choose(rng).map(|p| p.1.clone()).unwrap_or_default();
                parts[k].1 = mutate::xml(rng, &parts[k].1, &other_part);
            }
        }
        if parts.is_empty() {
            break;
        }
    }
    zip(&parts)
}

// ------------------------------------------------------------------------------- .xls

/// One BIFF record: its type and its data.
pub type Record = (u16, Vec<u8>);

/// A BIFF8 `XLUnicodeString` (two-byte count, flags, UTF-16LE characters).
fn unicode_string(text: &str) -> Vec<u8> {
    let units = mutate::utf16(text, false);
    let count = u16::try_from(units.len() / 2).expect("a short cell");
    let mut out = count.to_le_bytes().to_vec();
    out.push(1);
    out.extend(units);
    out
}

fn bof(kind: u16) -> Record {
    let mut data = 0x0600u16.to_le_bytes().to_vec();
    data.extend(kind.to_le_bytes());
    data.extend([0u8; 12]);
    (0x0809, data)
}

/// The records of an .xls workbook with one worksheet named `sheet` holding `rows`
/// (a ROW record before each row's cells, the third row hidden; text cells as LABEL
/// records, numbers as NUMBER records; one merged region); the BOUNDSHEET offset is
/// filled in by [`workbook_stream`].
pub fn xls_records(sheet: &str, rows: &[Vec<String>]) -> (Vec<Record>, Vec<Record>) {
    let mut name = vec![0u8; 4];
    name.extend([0, 0]);
    let units = mutate::utf16(sheet, false);
    name.push(u8::try_from(units.len() / 2).expect("a short sheet name"));
    name.push(1);
    name.extend(units);
    let globals = vec![
        bof(0x0005),
        (0x0042, 1200u16.to_le_bytes().to_vec()),
        (0x0085, name),
        (0x000A, Vec::new()),
    ];

    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut dims = Vec::new();
    dims.extend(0u32.to_le_bytes());
    dims.extend(u32::try_from(rows.len()).expect("few rows").to_le_bytes());
    dims.extend(0u16.to_le_bytes());
    dims.extend(u16::try_from(width).expect("few columns").to_le_bytes());
    dims.extend(0u16.to_le_bytes());
    let mut cells = vec![bof(0x0010), (0x0200, dims)];
    for (r, row) in rows.iter().enumerate() {
        // A ROW record, the third row's hidden (fDyZero, 0x0020 of the flags at byte 12).
        let mut data = u16::try_from(r).expect("few rows").to_le_bytes().to_vec();
        data.extend([0u8; 10]);
        data.extend(if r == 2 { 0x0120u16 } else { 0x0100 }.to_le_bytes());
        data.extend([0u8; 2]);
        cells.push((0x0208, data));
        for (c, text) in row.iter().enumerate() {
            let mut data = u16::try_from(r).expect("few rows").to_le_bytes().to_vec();
            data.extend(u16::try_from(c).expect("few columns").to_le_bytes());
            data.extend(0u16.to_le_bytes());
            match text.parse::<f64>() {
                Ok(n) if text.len() < 12 => {
                    data.extend(n.to_le_bytes());
                    cells.push((0x0203, data));
                }
                _ => {
                    data.extend(unicode_string(text));
                    cells.push((0x0204, data));
                }
            }
        }
    }
    // MERGEDCELLS: one region, the first two rows of column A.
    let mut merge = 1u16.to_le_bytes().to_vec();
    for v in [1u16, 2, 0, 0] {
        merge.extend(v.to_le_bytes());
    }
    cells.push((0x00E5, merge));
    cells.push((0x000A, Vec::new()));
    (globals, cells)
}

fn put_records(out: &mut Vec<u8>, records: &[Record]) {
    for (kind, data) in records {
        out.extend(kind.to_le_bytes());
        // A record longer than its two-byte length field keeps the low bits, as a
        // damaged file would.
        out.extend((data.len() as u16).to_le_bytes());
        out.extend(data);
    }
}

/// The Workbook stream of the records: the globals, then the sheet, with each
/// BOUNDSHEET record pointing at the sheet's BOF unless it was given another offset.
pub fn workbook_stream(globals: &[Record], sheet: &[Record], keep_offsets: bool) -> Vec<u8> {
    let globals_len: usize = globals.iter().map(|(_, d)| 4 + d.len()).sum();
    let globals: Vec<Record> = globals
        .iter()
        .map(|(kind, data)| {
            let mut data = data.clone();
            if *kind == 0x0085 && !keep_offsets && data.len() >= 4 {
                data[..4]
                    .copy_from_slice(&u32::try_from(globals_len).unwrap_or(u32::MAX).to_le_bytes());
            }
            (*kind, data)
        })
        .collect();
    let mut out = Vec::new();
    put_records(&mut out, &globals);
    put_records(&mut out, sheet);
    out
}

const ENDOFCHAIN: u32 = 0xFFFF_FFFE;
const FREESECT: u32 = 0xFFFF_FFFF;
const FATSECT: u32 = 0xFFFF_FFFD;

/// An OLE compound file (version 3, 512-byte sectors) holding `stream` as `Workbook`.
/// The stream is padded to 4096 bytes so it lives in ordinary sectors (no mini stream),
/// and cut at the most the header's 109 FAT sectors can map.
pub fn compound_file(stream: &[u8]) -> Vec<u8> {
    let mut stream = stream.to_vec();
    stream.truncate(100 * 128 * 512);
    let len = stream.len().max(4096);
    stream.resize(len.div_ceil(512) * 512, 0);
    let sectors = stream.len() / 512;
    // The FAT sectors come first, then the directory, then the stream; one FAT sector
    // maps 128 sectors, its own included.
    let mut fats = 1;
    while fats * 128 < fats + 1 + sectors {
        fats += 1;
    }
    let mut header = Vec::with_capacity(512);
    header.extend(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1");
    header.extend([0u8; 16]);
    header.extend(0x003Eu16.to_le_bytes());
    header.extend(3u16.to_le_bytes());
    header.extend(0xFFFEu16.to_le_bytes());
    header.extend(9u16.to_le_bytes());
    header.extend(6u16.to_le_bytes());
    header.extend([0u8; 10]);
    header.extend(u32::try_from(fats).expect("few FAT sectors").to_le_bytes());
    header.extend(u32::try_from(fats).expect("few FAT sectors").to_le_bytes()); // directory
    header.extend(0u32.to_le_bytes());
    header.extend(4096u32.to_le_bytes()); // mini stream cutoff
    header.extend(ENDOFCHAIN.to_le_bytes()); // no mini FAT
    header.extend(0u32.to_le_bytes());
    header.extend(ENDOFCHAIN.to_le_bytes()); // no DIFAT sectors
    header.extend(0u32.to_le_bytes());
    for i in 0..fats {
        header.extend(u32::try_from(i).expect("few FAT sectors").to_le_bytes());
    }
    while header.len() < 512 {
        header.extend(FREESECT.to_le_bytes());
    }
    let mut fat = vec![FATSECT; fats];
    fat.push(ENDOFCHAIN);
    let first = u32::try_from(fats + 1).expect("few sectors");
    for i in 0..sectors {
        let next = if i + 1 == sectors {
            ENDOFCHAIN
        } else {
            first + u32::try_from(i + 1).expect("few sectors")
        };
        fat.push(next);
    }
    fat.resize(fats * 128, FREESECT);
    let mut out = header;
    out.extend(fat.iter().flat_map(|v| v.to_le_bytes()));
    let mut dir = Vec::with_capacity(512);
    dir.extend(entry("Root Entry", 5, ENDOFCHAIN, 0, 1));
    dir.extend(entry(
        "Workbook",
        2,
        first,
        u32::try_from(len).expect("small"),
        FREESECT,
    ));
    dir.resize(512, 0);
    out.extend(dir);
    out.extend(stream);
    out
}

/// A 128-byte directory entry.
fn entry(name: &str, kind: u8, start: u32, size: u32, child: u32) -> Vec<u8> {
    let mut e = mutate::utf16(name, false);
    e.extend([0, 0]);
    let name_len = u16::try_from(e.len()).expect("short name");
    e.resize(64, 0);
    e.extend(name_len.to_le_bytes());
    e.push(kind);
    e.push(1); // black
    e.extend(FREESECT.to_le_bytes()); // left sibling
    e.extend(FREESECT.to_le_bytes()); // right sibling
    e.extend(child.to_le_bytes());
    e.resize(116, 0);
    e.extend(start.to_le_bytes());
    e.extend(size.to_le_bytes());
    e.extend(0u32.to_le_bytes());
    e
}

/// An .xls mutated at the record level (a field made extreme, a record repeated, dropped
/// or split with CONTINUE records, a record's data mutated, a BOUNDSHEET offset moved),
/// then wrapped in a compound file; sometimes the file's own bytes are mutated instead.
pub fn mutate_xls(
    rng: &mut ChaCha8Rng,
    records: &(Vec<Record>, Vec<Record>),
    other: &[u8],
) -> Vec<u8> {
    let (mut globals, mut sheet) = records.clone();
    let mut keep_offsets = false;
    for _ in 0..rng.gen_range(1..=3) {
        let in_globals = rng.gen_bool(0.3);
        let list = if in_globals { &mut globals } else { &mut sheet };
        if list.is_empty() {
            continue;
        }
        let k = rng.gen_range(0..list.len());
        match rng.gen_range(0..8) {
            0 => {
                let copy = list[k].clone();
                let times = rng.gen_range(1..500);
                for _ in 0..times {
                    list.insert(k, copy.clone());
                }
            }
            1 => {
                list.remove(k);
            }
            2 => {
                // CONTINUE records after this one, carrying part of its data.
                let data = std::mem::take(&mut list[k].1);
                let cut = rng.gen_range(0..=data.len());
                list[k].1 = data[..cut].to_vec();
                list.insert(k + 1, (0x003C, data[cut..].to_vec()));
                for _ in 0..rng.gen_range(0..50) {
                    list.insert(k + 2, (0x003C, vec![rng.r#gen(); rng.gen_range(0..16)]));
                }
            }
            3 => {
                if in_globals && list[k].0 == 0x0085 && list[k].1.len() >= 4 {
                    let offset: u32 = *[0x7FFF_FFFF, 0xFFFF_FFFF, 0, 4096, 8]
                        .choose(rng)
                        .unwrap_or(&0);
                    list[k].1[..4].copy_from_slice(&offset.to_le_bytes());
                    keep_offsets = true;
                }
            }
            4 => {
                list[k].0 = *[
                    0x0200, 0x00FC, 0x00FD, 0x00BD, 0x027E, 0x0006, 0x00E5, 0x0809, 0x0085, 0x003C,
                    0x0042, 0x041E, 0x0018, 0x0017, 0x0208, 0x002F,
                ]
                .choose(rng)
                .unwrap_or(&0);
            }
            _ => {
                let data = list[k].1.clone();
                list[k].1 = mutate::bytes(rng, &data, &[]);
                // Keep the record within its length field.
                list[k].1.truncate(0xFFFF);
            }
        }
    }
    let stream = workbook_stream(&globals, &sheet, keep_offsets);
    let file = compound_file(&stream);
    if rng.gen_bool(0.15) {
        return mutate::bytes(rng, &file, other);
    }
    file
}
