//! The zip container of a workbook, written by hand: each part arrives deflated already
//! (a sheet on the thread that wrote it), so putting the file together is copying the
//! parts behind their local headers and adding the central directory. Plain zip (no
//! zip64): a part or the file past 4 GB, or more than 65,535 parts, is refused
//! ([`WorkbookError::FileTooLarge`]), far beyond what Excel opens.

use super::WorkbookError;
use flate2::Compression;
use flate2::write::DeflateEncoder;
use std::io::Write;

/// A part of the workbook, deflated: its path in the zip, the deflated bytes (`head`
/// then `data`: a sheet's head is made after its body, and is not copied in front of it
/// here but where the zip is put together), the CRC-32 and size of the uncompressed bytes;
/// and the name of the sheet it holds, if it is a sheet (for the error of one too large).
pub(super) struct Part {
    pub(super) path: String,
    pub(super) sheet: Option<String>,
    pub(super) head: Vec<u8>,
    pub(super) data: Vec<u8>,
    pub(super) crc: u32,
    pub(super) size: u64,
}

impl Part {
    /// `bytes` as the part `path`, deflated at `level`.
    pub(super) fn deflated(path: &str, bytes: &[u8], level: u32) -> Part {
        let mut deflate = DeflateEncoder::new(Vec::new(), Compression::new(level));
        // Writing into a `Vec` cannot fail.
        let _ = deflate.write_all(bytes);
        Part {
            path: path.to_string(),
            sheet: None,
            head: Vec::new(),
            data: deflate.finish().unwrap_or_default(),
            crc: {
                let mut crc = flate2::Crc::new();
                crc.update(bytes);
                crc.sum()
            },
            size: bytes.len() as u64,
        }
    }
}

/// The zip's date of every part: 1980-01-01 00:00, the earliest a zip can say (a
/// workbook's parts carry no meaningful time; its creation time is in docProps/core.xml).
const DOS_DATE: u16 = (1 << 5) | 1;
const DOS_TIME: u16 = 0;

/// The zip file of `parts`, in that order. Each part is freed once copied.
pub(super) fn zip(parts: Vec<Part>) -> Result<Vec<u8>, WorkbookError> {
    let too_large = |sheet: &Option<String>| WorkbookError::FileTooLarge {
        sheet: sheet.clone(),
    };
    let count = u16::try_from(parts.len()).map_err(|_| too_large(&None))?;
    let total: u64 = parts
        .iter()
        .map(|p| (30 + p.path.len() + p.head.len() + p.data.len() + 46 + p.path.len()) as u64)
        .sum::<u64>()
        + 22;
    // Refused before the file's memory is asked for: a zip past 4 GB is never written.
    let total = u32::try_from(total).map_err(|_| too_large(&None))?;
    let mut out = Vec::with_capacity(total as usize);
    // Each part's directory entry, made as its data is copied.
    let mut directory = Vec::with_capacity(parts.len() * 80);
    for part in parts {
        let offset = u32::try_from(out.len()).map_err(|_| too_large(&None))?;
        let compressed =
            u32::try_from(part.head.len() + part.data.len()).map_err(|_| too_large(&part.sheet))?;
        let size = u32::try_from(part.size).map_err(|_| too_large(&part.sheet))?;
        let name = u16::try_from(part.path.len()).unwrap_or(u16::MAX);
        // Local file header.
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        out.extend_from_slice(&20u16.to_le_bytes()); // version needed: 2.0, deflate
        out.extend_from_slice(&0u16.to_le_bytes()); // flags
        out.extend_from_slice(&8u16.to_le_bytes()); // deflated
        out.extend_from_slice(&DOS_TIME.to_le_bytes());
        out.extend_from_slice(&DOS_DATE.to_le_bytes());
        out.extend_from_slice(&part.crc.to_le_bytes());
        out.extend_from_slice(&compressed.to_le_bytes());
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&name.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes()); // no extra field
        out.extend_from_slice(part.path.as_bytes());
        out.extend_from_slice(&part.head);
        out.extend_from_slice(&part.data);
        // Central directory entry.
        directory.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        directory.extend_from_slice(&20u16.to_le_bytes()); // made by: 2.0, MS-DOS
        directory.extend_from_slice(&20u16.to_le_bytes());
        directory.extend_from_slice(&0u16.to_le_bytes());
        directory.extend_from_slice(&8u16.to_le_bytes());
        directory.extend_from_slice(&DOS_TIME.to_le_bytes());
        directory.extend_from_slice(&DOS_DATE.to_le_bytes());
        directory.extend_from_slice(&part.crc.to_le_bytes());
        directory.extend_from_slice(&compressed.to_le_bytes());
        directory.extend_from_slice(&size.to_le_bytes());
        directory.extend_from_slice(&name.to_le_bytes());
        directory.extend_from_slice(&[0; 12]); // extra, comment, disk, internal and external attributes
        directory.extend_from_slice(&offset.to_le_bytes());
        directory.extend_from_slice(part.path.as_bytes());
    }
    let directory_at = u32::try_from(out.len()).map_err(|_| too_large(&None))?;
    let directory_len = u32::try_from(directory.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&directory);
    // End of central directory.
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]); // this disk, the directory's disk
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&directory_len.to_le_bytes());
    out.extend_from_slice(&directory_at.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // no comment
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// The container read back by the `zip` crate (which checks each part's CRC-32 as it
    /// reads it to the end): names, order and contents as given, empty and stored-block
    /// parts included.
    #[test]
    fn the_zip_reads_back_with_its_crcs() {
        let big: Vec<u8> = (0..200_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let given: Vec<(&str, Vec<u8>)> = vec![
            ("[Content_Types].xml", b"<Types/>".to_vec()),
            ("empty.xml", Vec::new()),
            ("xl/worksheets/sheet1.xml", big),
        ];
        let parts = given
            .iter()
            .map(|(path, bytes)| Part::deflated(path, bytes, 1))
            .collect();
        let bytes = zip(parts).unwrap();
        let mut archive = ::zip::ZipArchive::new(std::io::Cursor::new(bytes.clone())).unwrap();
        assert_eq!(archive.len(), given.len());
        for (i, (path, want)) in given.iter().enumerate() {
            let mut part = archive.by_index(i).unwrap();
            assert_eq!(part.name().unwrap(), *path);
            let mut got = Vec::new();
            part.read_to_end(&mut got).unwrap();
            assert!(got == *want, "{path}");
        }
        // A part whose CRC does not match its bytes is refused by the reader: the CRCs
        // written are the ones checked.
        let mut bad = bytes;
        let crc_at = 14;
        bad[crc_at] ^= 1;
        let at = bytes_find(&bad, b"PK\x01\x02").unwrap() + 16;
        bad[at] ^= 1;
        let mut archive = ::zip::ZipArchive::new(std::io::Cursor::new(bad)).unwrap();
        let mut part = archive.by_index(0).unwrap();
        let mut got = Vec::new();
        assert!(part.read_to_end(&mut got).is_err());
    }

    fn bytes_find(hay: &[u8], needle: &[u8]) -> Option<usize> {
        hay.windows(needle.len()).position(|w| w == needle)
    }
}
