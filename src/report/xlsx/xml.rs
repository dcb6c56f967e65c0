//! One worksheet's XML (`xl/worksheets/sheetN.xml`), written and deflated as it goes: the
//! cells of `<sheetData>` row by row into a small buffer that is handed to the deflater
//! whenever it fills, with no allocation per cell; then the parts that only the finished
//! sheet knows (the used range, the column widths, the frozen pane: they come BEFORE
//! `<sheetData>` in the file) as a stored deflate block put in front of the compressed
//! body. Also the escaping of text for XML, shared with the workbook's other parts.

use super::WorkbookError;
use super::container::Part;
use crate::registration::xlsx::push_column_letters;
use flate2::Compression;
use flate2::write::DeflateEncoder;
use std::io::Write;

/// Excel's last row (0-based): a sheet holds 1,048,576 rows.
pub(super) const MAX_ROW: u32 = 1_048_575;
/// Excel's last column (0-based): a sheet holds 16,384 columns (`XFD`).
pub(super) const MAX_COL: u16 = 16_383;

/// The uncompressed XML gathered before it is deflated: large enough that the deflater
/// works on long runs, small enough to stay in the processor's cache.
const CHUNK: usize = 128 * 1024;

/// How a sheet is laid out for the screen and the printer, known when it is finished.
pub(super) struct Layout {
    /// The width of each column from A, in characters (at most `cells::MAX_WIDTH` and
    /// two; `<col width>` adds Excel's padding).
    pub(super) widths: Vec<usize>,
    /// A table's header row (0-based): the rows down to it stay frozen on screen and
    /// are repeated on every printed page; the sheet is printed one page wide, landscape
    /// when `landscape`. `None`: a notes sheet, printed plainly (A4, portrait).
    pub(super) table: Option<(u32, bool)>,
}

/// A worksheet being written. Cells come in order: rows downward, and within a row
/// columns rightward (what every sheet of a report does).
pub(super) struct SheetXml {
    /// The sheet's name, for errors.
    name: String,
    /// The first sheet of the workbook, shown when it is opened.
    selected: bool,
    /// XML not yet deflated.
    buf: Vec<u8>,
    deflate: DeflateEncoder<Vec<u8>>,
    crc: flate2::Crc,
    /// Bytes of XML deflated so far.
    size: u64,
    /// The open `<row>` (0-based), if any.
    row: Option<u32>,
    /// That row's number as text (1-based), put in each of its cells' references.
    row_text: [u8; 10],
    row_len: usize,
    /// Column letters by column, made as columns are first met.
    letters: Vec<Vec<u8>>,
    /// The used range's last row and column, if any cell was written.
    last: Option<(u32, u16)>,
    /// Merged ranges: a row, its first and last column.
    merges: Vec<(u32, u16, u16)>,
}

impl SheetXml {
    pub(super) fn new(name: &str, selected: bool, level: u32) -> Self {
        let mut sheet = SheetXml {
            name: name.to_string(),
            selected,
            buf: Vec::with_capacity(CHUNK + 4096),
            deflate: DeflateEncoder::new(Vec::new(), Compression::new(level)),
            crc: flate2::Crc::new(),
            size: 0,
            row: None,
            row_text: [0; 10],
            row_len: 0,
            letters: Vec::new(),
            last: None,
            merges: Vec::new(),
        };
        sheet.buf.extend_from_slice(b"<sheetData>");
        sheet
    }

    /// The error of a cell past Excel's last row or column.
    pub(super) fn too_large(&self) -> WorkbookError {
        WorkbookError::TooLarge {
            sheet: self.name.clone(),
        }
    }

    /// Starts the cell at (`row`, `col`) with style `style` (0: none): `<c r="B7" s="5"`,
    /// the row opened first if it is a new one.
    fn open_cell(&mut self, row: u32, col: u16, style: u8) -> Result<(), WorkbookError> {
        if row > MAX_ROW || col > MAX_COL {
            return Err(self.too_large());
        }
        if self.row != Some(row) {
            if self.row.is_some() {
                self.buf.extend_from_slice(b"</row>");
                if self.buf.len() >= CHUNK {
                    self.drain();
                }
            }
            self.row = Some(row);
            self.row_len = write_u32(&mut self.row_text, row + 1);
            self.buf.extend_from_slice(b"<row r=\"");
            self.buf.extend_from_slice(&self.row_text[..self.row_len]);
            self.buf.extend_from_slice(b"\">");
        }
        let c = usize::from(col);
        while self.letters.len() <= c {
            let mut letters = Vec::with_capacity(3);
            push_column_letters(&mut letters, self.letters.len());
            self.letters.push(letters);
        }
        self.buf.extend_from_slice(b"<c r=\"");
        self.buf.extend_from_slice(&self.letters[c]);
        self.buf.extend_from_slice(&self.row_text[..self.row_len]);
        self.buf.push(b'"');
        if style != 0 {
            self.buf.extend_from_slice(b" s=\"");
            push_usize(&mut self.buf, usize::from(style));
            self.buf.push(b'"');
        }
        self.last = Some(match self.last {
            Some((_, last_col)) => (row, last_col.max(col)),
            None => (row, col),
        });
        Ok(())
    }

    /// A cell with a style and no value (a bordered empty cell).
    pub(super) fn blank(&mut self, row: u32, col: u16, style: u8) -> Result<(), WorkbookError> {
        self.open_cell(row, col, style)?;
        self.buf.extend_from_slice(b"/>");
        Ok(())
    }

    /// A string cell, written inline (`t="inlineStr"`): never a formula, whatever it
    /// begins with. An empty one is a blank when it has a style, else nothing (as Excel
    /// keeps no empty string).
    pub(super) fn text(
        &mut self,
        row: u32,
        col: u16,
        text: &str,
        style: u8,
    ) -> Result<(), WorkbookError> {
        if text.is_empty() {
            return match style {
                0 => Ok(()),
                _ => self.blank(row, col, style),
            };
        }
        self.open_cell(row, col, style)?;
        self.buf.extend_from_slice(b" t=\"inlineStr\"><is><t");
        if text.starts_with([' ', '\t', '\n']) || text.ends_with([' ', '\t', '\n']) {
            self.buf.extend_from_slice(b" xml:space=\"preserve\"");
        }
        self.buf.push(b'>');
        escape_text(&mut self.buf, text);
        self.buf.extend_from_slice(b"</t></is></c>");
        Ok(())
    }

    /// A number cell. `number` is the number as the report wrote it, already checked by
    /// `as_number` (digits, a sign, one point: a valid `xsd:double` as it stands), so it
    /// goes into the file unchanged, never through a float's formatting.
    pub(super) fn number(
        &mut self,
        row: u32,
        col: u16,
        number: &str,
        style: u8,
    ) -> Result<(), WorkbookError> {
        self.open_cell(row, col, style)?;
        self.buf.extend_from_slice(b"><v>");
        self.buf.extend_from_slice(number.trim().as_bytes());
        self.buf.extend_from_slice(b"</v></c>");
        Ok(())
    }

    /// A formula cell (`formula` without its `=`) with its value stored beside it: a
    /// viewer that does not recalculate on opening (LibreOffice's default for .xlsx)
    /// shows the value, not 0.
    pub(super) fn formula(
        &mut self,
        row: u32,
        col: u16,
        formula: &str,
        value: f64,
        style: u8,
    ) -> Result<(), WorkbookError> {
        self.open_cell(row, col, style)?;
        self.buf.extend_from_slice(b"><f>");
        escape_markup(&mut self.buf, formula);
        self.buf.extend_from_slice(b"</f><v>");
        // One per table: `format!` is cheap enough here. `+ 0.0` makes a negative zero
        // (the sum of no numbers is -0.0) the zero it stands for, not `-0.00`.
        self.buf
            .extend_from_slice(format!("{:.2}", value + 0.0).as_bytes());
        self.buf.extend_from_slice(b"</v></c>");
        Ok(())
    }

    /// Merges `row`'s columns `first..=last` into one cell (its cells written already).
    pub(super) fn merge(&mut self, row: u32, first: u16, last: u16) {
        self.merges.push((row, first, last));
    }

    /// Deflates the XML gathered so far.
    fn drain(&mut self) {
        self.crc.update(&self.buf);
        self.size += self.buf.len() as u64;
        // Writing into a `Vec` cannot fail.
        let _ = self.deflate.write_all(&self.buf);
        self.buf.clear();
    }

    /// Ends the sheet as laid out by `layout`: the part `xl/worksheets/sheet{n}.xml`.
    pub(super) fn finish(mut self, n: usize, layout: &Layout) -> Result<Part, WorkbookError> {
        if self.row.is_some() {
            self.buf.extend_from_slice(b"</row>");
        }
        self.buf.extend_from_slice(b"</sheetData>");
        if !self.merges.is_empty() {
            self.buf.extend_from_slice(b"<mergeCells count=\"");
            push_usize(&mut self.buf, self.merges.len());
            self.buf.extend_from_slice(b"\">");
            for &(row, first, last) in &std::mem::take(&mut self.merges) {
                self.buf.extend_from_slice(b"<mergeCell ref=\"");
                push_ref(&mut self.buf, row, first);
                self.buf.push(b':');
                push_ref(&mut self.buf, row, last);
                self.buf.extend_from_slice(b"\"/>");
            }
            self.buf.extend_from_slice(b"</mergeCells>");
        }
        self.buf.extend_from_slice(
            br#"<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>"#,
        );
        match layout.table {
            Some((_, landscape)) => {
                self.buf.extend_from_slice(
                    br#"<pageSetup paperSize="9" fitToHeight="0" orientation=""#,
                );
                self.buf
                    .extend_from_slice(if landscape { b"landscape" } else { b"portrait" });
                self.buf.extend_from_slice(b"\"/>");
            }
            None => self
                .buf
                .extend_from_slice(br#"<pageSetup paperSize="9" orientation="portrait"/>"#),
        }
        self.buf.extend_from_slice(b"</worksheet>");
        self.drain();
        let head = self.head(layout);
        // Finishing into a `Vec` cannot fail.
        let body = self.deflate.finish().unwrap_or_default();
        let mut crc = flate2::Crc::new();
        crc.update(&head);
        crc.combine(&self.crc);
        let size = head.len() as u64 + self.size;
        Ok(Part {
            path: format!("xl/worksheets/sheet{n}.xml"),
            sheet: Some(self.name),
            head: stored_blocks(&head),
            data: body,
            crc: crc.sum(),
            size,
        })
    }

    /// What comes before `<sheetData>`: the declaration, `sheetPr` (fit to the page),
    /// the used range, the view (selected, the frozen pane), the column widths.
    fn head(&self, layout: &Layout) -> Vec<u8> {
        let mut out = Vec::with_capacity(1024 + 64 * layout.widths.len());
        out.extend_from_slice(
            br#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">"#,
        );
        if layout.table.is_some() {
            out.extend_from_slice(br#"<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>"#);
        }
        out.extend_from_slice(b"<dimension ref=\"A1");
        if let Some((row, col)) = self.last
            && (row, col) != (0, 0)
        {
            out.push(b':');
            push_ref(&mut out, row, col);
        }
        out.extend_from_slice(b"\"/><sheetViews><sheetView");
        if self.selected {
            out.extend_from_slice(b" tabSelected=\"1\"");
        }
        out.extend_from_slice(b" workbookViewId=\"0\"");
        match layout.table {
            Some((header, _)) => {
                let split = header as usize + 1;
                out.extend_from_slice(b"><pane ySplit=\"");
                push_usize(&mut out, split);
                out.extend_from_slice(b"\" topLeftCell=\"A");
                push_usize(&mut out, split + 1);
                out.extend_from_slice(
                    br#"" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView></sheetViews>"#,
                );
            }
            None => out.extend_from_slice(b"/></sheetViews>"),
        }
        out.extend_from_slice(br#"<sheetFormatPr defaultRowHeight="15"/>"#);
        if !layout.widths.is_empty() {
            out.extend_from_slice(b"<cols>");
            let mut first = 0;
            while first < layout.widths.len() {
                let width = layout.widths[first];
                let mut last = first;
                while layout.widths.get(last + 1) == Some(&width) {
                    last += 1;
                }
                out.extend_from_slice(b"<col min=\"");
                push_usize(&mut out, first + 1);
                out.extend_from_slice(b"\" max=\"");
                push_usize(&mut out, last + 1);
                out.extend_from_slice(b"\" width=\"");
                // Excel's width of `width` characters of 7 pixels plus 5 of padding,
                // in 256ths: `width` and 182/256.
                push_usize(&mut out, width);
                out.extend_from_slice(b".7109375\" customWidth=\"1\"/>");
                first = last + 1;
            }
            out.extend_from_slice(b"</cols>");
        }
        out
    }
}

/// `data` as deflate blocks stored without compression (none of them the last), to be
/// followed by a compressed stream: the head of a sheet, known only at its end, goes in
/// front of its body without compressing the body again.
fn stored_blocks(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 5 * (data.len() / 65_535 + 1));
    for block in data.chunks(65_535) {
        // BFINAL 0, BTYPE 00 (stored), padded to the byte; then LEN and its complement.
        out.push(0);
        let len = u16::try_from(block.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    out
}

/// The reference of the cell at (`row`, `col`), both 0-based, onto `out`: `B7`.
fn push_ref(out: &mut Vec<u8>, row: u32, col: u16) {
    push_column_letters(out, usize::from(col));
    push_usize(out, row as usize + 1);
}

/// The reference of the cell at (`row`, `col`), both 0-based, for a formula: `B7`.
pub(super) fn cell_ref(row: u32, col: usize) -> String {
    let mut out = Vec::with_capacity(10);
    push_column_letters(&mut out, col);
    push_usize(&mut out, row as usize + 1);
    String::from_utf8(out).unwrap_or_default()
}

/// `n`'s decimal digits, at the end of the array from the index given.
fn decimal(mut n: u64) -> ([u8; 20], usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return (digits, at);
        }
    }
}

/// Writes `n` in decimal into `out`, giving the length.
fn write_u32(out: &mut [u8; 10], n: u32) -> usize {
    let (digits, at) = decimal(u64::from(n));
    let digits = &digits[at..];
    out[..digits.len()].copy_from_slice(digits);
    digits.len()
}

/// Writes `n` in decimal onto the end of `out`.
pub(super) fn push_usize(out: &mut Vec<u8>, n: usize) {
    let (digits, at) = decimal(n as u64);
    out.extend_from_slice(&digits[at..]);
}

/// A cell's `text` as XML character data into `out`: `&`, `<` and `>` escaped, and `"`,
/// so that the same text may stand in a double-quoted attribute. Excel reads `_xHHHH_`
/// in a cell's text as an escaped character, so a literal one is written with its
/// underscore escaped (`_x005F_xHHHH_`), as Excel does; the two non-characters U+FFFE
/// and U+FFFF and the control characters other than tab, newline and return (none of
/// which XML 1.0 allows) are written as such escapes (`_xFFFE_`). Control characters
/// never get here from a report (`cells::clean` removed them): this only makes sure
/// nothing invalid reaches the file.
pub(super) fn escape_text(out: &mut Vec<u8>, text: &str) {
    escape(out, text, true);
}

/// Markup that is not a cell's text (a sheet's name, a formula) into `out`: `&`, `<`,
/// `>` and `"` escaped, written as it is otherwise (Excel reads no `_xHHHH_` escapes
/// there), but for the characters XML 1.0 does not allow, which become U+FFFD.
pub(super) fn escape_markup(out: &mut Vec<u8>, text: &str) {
    escape(out, text, false);
}

fn escape(out: &mut Vec<u8>, text: &str, cell: bool) {
    const REPLACEMENT: &[u8] = "\u{fffd}".as_bytes();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (escaped, skip): (&[u8], usize) = match b {
            b'&' => (b"&amp;", 1),
            b'<' => (b"&lt;", 1),
            b'>' => (b"&gt;", 1),
            b'"' => (b"&quot;", 1),
            // The underscore itself stays, written with the rest of the text.
            b'_' if cell && is_excel_escape(&bytes[i..]) => (b"_x005F", 0),
            // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
            0xEF if bytes.get(i + 1) == Some(&0xBF) && bytes.get(i + 2) == Some(&0xBE) => {
                (if cell { b"_xFFFE_" } else { REPLACEMENT }, 3)
            }
            0xEF if bytes.get(i + 1) == Some(&0xBF) && bytes.get(i + 2) == Some(&0xBF) => {
                (if cell { b"_xFFFF_" } else { REPLACEMENT }, 3)
            }
            b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b if b < 0x20 => {
                out.extend_from_slice(&bytes[start..i]);
                if cell {
                    out.extend_from_slice(b"_x00");
                    out.push(HEX[usize::from(b >> 4)]);
                    out.push(HEX[usize::from(b & 15)]);
                    out.push(b'_');
                } else {
                    out.extend_from_slice(REPLACEMENT);
                }
                i += 1;
                start = i;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(escaped);
        if skip == 0 {
            start = i;
            i += 1;
        } else {
            i += skip;
            start = i;
        }
    }
    out.extend_from_slice(&bytes[start..]);
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Whether `rest` begins with `_xHHHH_` (four hex digits), which Excel would read as an
/// escaped character.
fn is_excel_escape(rest: &[u8]) -> bool {
    rest.len() >= 7
        && rest[1] == b'x'
        && rest[2..6].iter().all(u8::is_ascii_hexdigit)
        && rest[6] == b'_'
}
