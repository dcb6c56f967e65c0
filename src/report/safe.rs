//! The output boundary: every string on its way to a terminal, a spreadsheet, a
//! fixed-format file or the file system passes one of these functions.
//!
//! - [`printable`]: control characters out (ESC sequences, CR, bidi overrides), for the
//!   terminal and every text file.
//! - [`one_line`]: the same plus newlines and tabs, and a length cap, for one field of a
//!   fixed-format file (TRF) or a one-line label.
//! - [`csv_cell`] / [`write_csv`]: spreadsheet cells that cannot start a formula (OWASP
//!   "CSV injection": a leading `'` before `= + - @`, tab or CR), and [`encode`] for the
//!   byte encoding Excel expects.
//! - [`join_under`]: the only way an export turns a relative name into a path: no
//!   absolute component, no `..`, nothing that leaves the output folder.
//!
//! It decides nothing about what is shown; the views have already masked personal data.

use crate::i18n::{Localize, bi, display_english};
use crate::rulebook::Lang;
use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

/// Whether `c` must not reach a terminal or a text file: C0 controls other than newline
/// and tab, DEL, C1 controls (U+0080–U+009F, which some terminals read as ESC `[`), the
/// line and paragraph separators, and the bidirectional overrides and isolates that can
/// make text display in another order than it is stored.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` without the characters a terminal or a text file must not receive (see the
/// module docs); newlines and tabs stay. Borrowed when nothing had to go.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().filter(|&c| !is_unsafe(c)).collect())
}

/// `text` as one line of at most `max_chars` characters: every control character
/// (newline and tab included) becomes a space, the unsafe ones of [`printable`] are
/// dropped, and the rest is cut at `max_chars`.
pub fn one_line(text: &str, max_chars: usize) -> String {
    text.chars()
        .filter_map(|c| match c {
            '\n' | '\t' | '\r' => Some(' '),
            c if is_unsafe(c) => None,
            c => Some(c),
        })
        .take(max_chars)
        .collect()
}

/// Whether a cell is exactly a decimal number (`-3`, `12.5`): such a cell cannot hold a
/// formula, so a leading minus stays and the column stays numeric in a spreadsheet.
fn is_number(cell: &str) -> bool {
    let digits = cell.strip_prefix('-').unwrap_or(cell);
    let (whole, fraction) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

/// One spreadsheet cell made inert: a cell starting with `=`, `+`, `-`, `@`, tab or CR
/// gets a leading `'` (OWASP "CSV injection"), unless it is exactly a decimal number;
/// control characters other than newline and tab are dropped.
pub fn csv_cell(cell: &str) -> Cow<'_, str> {
    let cell = printable(cell);
    let starts_formula = cell
        .chars()
        .next()
        .is_some_and(|c| matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r'));
    if starts_formula && !is_number(&cell) {
        return Cow::Owned(format!("'{cell}"));
    }
    cell
}

/// Tables as CSV text: one header row and its rows per table, tables separated by a
/// blank line, every cell through [`csv_cell`]. The one CSV writer of qiwang's outputs.
pub fn write_csv<'a>(
    tables: impl IntoIterator<Item = (&'a [String], &'a [Vec<String>])>,
) -> String {
    let mut out = Vec::new();
    for (i, (header, rows)) in tables.into_iter().enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        let mut writer = csv::WriterBuilder::new()
            .flexible(true)
            .from_writer(Vec::new());
        // Writing to a Vec cannot fail.
        let _ = writer.write_record(header.iter().map(|c| csv_cell(c).into_owned()));
        for row in rows {
            let _ = writer.write_record(row.iter().map(|c| csv_cell(c).into_owned()));
        }
        if let Ok(bytes) = writer.into_inner() {
            out.extend(bytes);
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The byte encoding of a CSV file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CsvEncoding {
    /// UTF-8 with a byte-order mark: Chinese-locale Excel opens it correctly by
    /// double-click (without the mark it reads the file as GBK and shows mojibake).
    #[default]
    Utf8Bom,
    /// Plain UTF-8, for scripts.
    Utf8,
    /// GBK, for old Excel and WPS versions.
    Gbk,
}

impl CsvEncoding {
    /// From the `--encoding` value (`auto` means the default).
    pub fn from_name(name: &str) -> Option<CsvEncoding> {
        match name.to_ascii_lowercase().as_str() {
            "auto" | "utf-8-bom" | "utf8-bom" => Some(CsvEncoding::Utf8Bom),
            "utf-8" | "utf8" => Some(CsvEncoding::Utf8),
            "gbk" => Some(CsvEncoding::Gbk),
            _ => None,
        }
    }
}

/// A character GBK cannot hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct EncodeError {
    /// The first character of the line that GBK has no code for.
    pub character: char,
    /// The line of the CSV text it is on, 1-based.
    pub line: usize,
}

display_english!(EncodeError, OutsideError);

impl Localize for EncodeError {
    fn localize(&self, lang: Lang) -> String {
        let (character, line) = (self.character, self.line);
        bi!(
            lang,
            en(
                "`{character}` (line {line}) cannot be written in GBK; use the default UTF-8 (without `--encoding gbk`) or change the text"
            ),
            zh(
                "`{character}`（第 {line} 行）无法用 GBK 编码写出；请用默认的 UTF-8（去掉 `--encoding gbk`）或修改该文字"
            ),
        )
    }
}

/// CSV text as the bytes of `encoding`.
pub fn encode(text: &str, encoding: CsvEncoding) -> Result<Vec<u8>, EncodeError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match encoding {
        CsvEncoding::Utf8 => Ok(text.as_bytes().to_vec()),
        CsvEncoding::Utf8Bom => {
            let mut out = "\u{feff}".as_bytes().to_vec();
            out.extend_from_slice(text.as_bytes());
            Ok(out)
        }
        CsvEncoding::Gbk => {
            let mut out = Vec::with_capacity(text.len());
            for (i, line) in text.split_inclusive('\n').enumerate() {
                // GBK has no `½`, which qiwang's own English draw (`½-½`) uses: every `½`
                // is written `0.5` (the draw `0.5-0.5`, which `result` reads back).
                let line = if line.contains('½') {
                    Cow::Owned(line.replace('½', "0.5"))
                } else {
                    Cow::Borrowed(line)
                };
                let (bytes, _, unmappable) = encoding_rs::GBK.encode(&line);
                if unmappable {
                    // Find the first character that does not survive on its own.
                    let character = line
                        .chars()
                        .find(|c| encoding_rs::GBK.encode(&c.to_string()).2)
                        .unwrap_or('?');
                    return Err(EncodeError {
                        character,
                        line: i + 1,
                    });
                }
                out.extend_from_slice(&bytes);
            }
            Ok(out)
        }
    }
}

/// Why a relative output name cannot be placed under the output folder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct OutsideError {
    /// The name as asked for.
    pub name: String,
}

impl Localize for OutsideError {
    fn localize(&self, lang: Lang) -> String {
        let name = &self.name;
        bi!(
            lang,
            en(
                "`{name}` would be written outside the output folder (absolute path, `..` or empty part); this is a bug or a hostile id"
            ),
            zh(
                "`{name}` 会写到输出目录之外（绝对路径、`..` 或空的部分）；这是程序错误或恶意的编号"
            ),
        )
    }
}

/// `out` joined with the relative `name` (`youth/round-3.html`), proven to stay under
/// `out`: every part of `name` must be a plain file or folder name (no root, no drive,
/// no `.`/`..`, no empty part, no backslash, no control character).
pub fn join_under(out: &Path, name: &str) -> Result<PathBuf, OutsideError> {
    let bad = || OutsideError {
        name: one_line(name, 200),
    };
    if name.is_empty() || name.contains('\\') || name.chars().any(char::is_control) {
        return Err(bad());
    }
    let mut path = out.to_path_buf();
    for part in name.split('/') {
        let mut components = Path::new(part).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(c)), None) if c == part => path.push(c),
            _ => return Err(bad()),
        }
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_drops_escapes_and_keeps_text() {
        let cases = [
            ("王小明", "王小明"),
            ("a\u{1b}[31mred\u{1b}[0m", "a[31mred[0m"),
            ("line\r\nnext\ttab", "line\nnext\ttab"),
            ("\u{9b}31m", "31m"),
            ("abc\u{202e}def", "abcdef"),
            ("bell\u{7}", "bell"),
        ];
        for (input, want) in cases {
            assert_eq!(printable(input), want, "input {input:?}");
        }
    }

    #[test]
    fn one_line_flattens_and_cuts() {
        assert_eq!(one_line("a\nb\r\n001 x", 100), "a b  001 x");
        assert_eq!(one_line("王小明王小明", 4), "王小明王");
        assert_eq!(one_line("\u{1b}]0;x\u{7}", 10), "]0;x");
    }

    #[test]
    fn formula_cells_are_neutralised_numbers_are_not() {
        let cases = [
            (
                "=HYPERLINK(\"http://x\",\"y\")",
                "'=HYPERLINK(\"http://x\",\"y\")",
            ),
            ("+1+1", "'+1+1"),
            ("-1+1", "'-1+1"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\r=1", "'=1"),
            ("-3", "-3"),
            ("-12.5", "-12.5"),
            ("12", "12"),
            ("-", "'-"),
            ("-.5", "'-.5"),
            ("张三", "张三"),
            ("", ""),
            ("a=b", "a=b"),
        ];
        for (input, want) in cases {
            assert_eq!(csv_cell(input), want, "input {input:?}");
        }
    }

    /// qiwang's own English draw has a character GBK lacks: it is written as the
    /// `0.5-0.5` that `result` reads, so an English CSV of any event with a draw can be
    /// written in GBK (it always failed).
    #[test]
    fn gbk_writes_the_english_draw_as_decimals() {
        assert_eq!(
            encode("table,result\n1,½-½\n2,1-0\n", CsvEncoding::Gbk).unwrap(),
            b"table,result\n1,0.5-0.5\n2,1-0\n"
        );
        assert_eq!(
            crate::results::parse_outcome("0.5-0.5").unwrap(),
            crate::model::Outcome::Draw
        );
    }

    #[test]
    fn gbk_refuses_what_it_cannot_hold_with_the_line() {
        assert_eq!(
            encode("名次,姓名\n1,王小明\n", CsvEncoding::Gbk).unwrap(),
            encoding_rs::GBK.encode("名次,姓名\n1,王小明\n").0.to_vec()
        );
        let e = encode("a\nb😀\n", CsvEncoding::Gbk).unwrap_err();
        assert_eq!((e.character, e.line), ('😀', 2));
        assert!(
            encode("x", CsvEncoding::Utf8Bom)
                .unwrap()
                .starts_with(&[0xef, 0xbb, 0xbf])
        );
        assert_eq!(encode("\u{feff}x", CsvEncoding::Utf8).unwrap(), b"x");
    }

    #[test]
    fn join_under_refuses_every_way_out() {
        let out = Path::new("/srv/out");
        assert_eq!(
            join_under(out, "youth/round-3.html").unwrap(),
            Path::new("/srv/out/youth/round-3.html")
        );
        for name in [
            "/tmp/x.trf",
            "../x",
            "a/../../x",
            "a//b",
            "./a",
            "",
            "a/",
            "..",
            "a\\..\\b",
            "a\nb",
            "/",
        ] {
            assert!(join_under(out, name).is_err(), "{name:?} was accepted");
        }
    }

    #[test]
    fn every_error_has_chinese() {
        use crate::i18n::facts::assert_localized;
        assert_localized(&EncodeError {
            character: '😀',
            line: 2,
        });
        assert_localized(&OutsideError {
            name: "../x".into(),
        });
    }
}
