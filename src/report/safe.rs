//! The output boundary: every string on its way to a terminal, a spreadsheet, a
//! fixed-format file or the file system passes one of these functions.
//!
//! - [`printable`], [`one_line`], [`csv_cell`] and [`write_csv`]: the character-level
//!   sanitising, which lives in the leaf module [`crate::sanitize`] (lower layers such as
//!   the rulebook and the registration template use it too) and is re-exported here.
//! - [`encode`]: the byte encoding Excel expects (UTF-8 with a BOM, or GBK).
//! - [`join_under`]: the only way an export turns a relative name into a path: no
//!   absolute component, no `..`, nothing that leaves the output folder.
//!
//! It decides nothing about what is shown; the views have already masked personal data.

use crate::i18n::{Localize, bi, display_english};
use crate::rulebook::Lang;
pub use crate::sanitize::{csv_cell, one_line, printable, write_csv};
use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

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
            zh(
                "`{character}`（第 {line} 行）无法用 GBK 编码写出；请用默认的 UTF-8（去掉 `--encoding gbk`）或修改该文字"
            ),
            en(
                "`{character}` (line {line}) cannot be written in GBK; use the default UTF-8 (without `--encoding gbk`) or change the text"
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
            zh(
                "`{name}` 会写到输出目录之外（绝对路径、`..` 或空的部分）；这是程序错误或恶意的编号"
            ),
            en(
                "`{name}` would be written outside the output folder (absolute path, `..` or empty part); this is a bug or a hostile id"
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
