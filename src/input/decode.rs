//! Turning the bytes of an Excel export into text: UTF-8 ("CSV UTF-8", with a BOM),
//! plain UTF-8, GBK (what "CSV" gives on a Chinese Windows) and UTF-16 ("Unicode text"),
//! with a BOM or, where its zero bytes tell it reliably, without one.
//!
//! Owns the encoding decision only; an undecodable byte is reported with its line.

use crate::i18n::Text;
use encoding_rs::{DecoderResult, Encoding as Charset, GBK, UTF_16BE, UTF_16LE};
use std::fmt;
use std::str::FromStr;

/// A byte sequence the chosen encoding cannot read: its line (1-based), the bytes as
/// `0xEF 0xBB`, and what to do, in both languages. Registration reports it as a row
/// problem, a results file as a results-file error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undecodable {
    /// The line the bad bytes are on.
    pub line: usize,
    /// The bad bytes, in hex.
    pub bytes: String,
    /// The message.
    pub text: Text,
}

impl Undecodable {
    fn new(line: usize, bytes: String, text: Text) -> Undecodable {
        Undecodable { line, bytes, text }
    }
}

/// The encoding of a registration file, as the user can name it (`--encoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    /// BOM if there is one, else UTF-16 told by its zero bytes (a file saved without its
    /// byte-order mark), else strict UTF-8, else GBK.
    #[default]
    Auto,
    /// UTF-8 (a byte-order mark, if any, is skipped).
    Utf8,
    /// GBK, decoded as its superset GB 18030.
    Gbk,
}

impl FromStr for Encoding {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Encoding::Auto),
            "utf-8" | "utf8" => Ok(Encoding::Utf8),
            "gbk" | "gb2312" | "gb18030" | "cp936" => Ok(Encoding::Gbk),
            _ => Err(format!(
                "unknown encoding `{s}`; use `auto`, `utf-8` or `gbk`"
            )),
        }
    }
}

/// What a file turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detected {
    /// UTF-8 without a byte-order mark.
    Utf8,
    /// UTF-8 with a byte-order mark (Excel's "CSV UTF-8").
    Utf8Bom,
    /// GBK (read as GB 18030), what Chinese Excel writes as plain "CSV".
    Gbk,
    /// UTF-16, little-endian (Excel's "Unicode text").
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
}

impl fmt::Display for Detected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Detected::Utf8 => "UTF-8",
            Detected::Utf8Bom => "UTF-8 with BOM",
            Detected::Gbk => "GBK",
            Detected::Utf16Le => "UTF-16LE",
            Detected::Utf16Be => "UTF-16BE",
        })
    }
}

/// Decoded text and the encoding it was in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The decoded text, without a byte-order mark.
    pub text: String,
    /// The encoding the bytes turned out to have.
    pub encoding: Detected,
}

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Physical line numbers (1-based) of CSV records, as an editor or Excel shows them.
///
/// With Excel's CRLF line ends a record's position sits on the `\n` left over from the
/// previous `\r\n`, so the csv reader's own line count comes out one short per row:
/// the counter steps over line-end bytes to the record's first character, and counts
/// newlines from where it last stopped (records come in file order), so a 100,000-row
/// sheet costs one pass.
pub struct LineCounter<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    /// A counter over `text`, starting at line 1.
    pub fn new(text: &'a str) -> Self {
        LineCounter {
            bytes: text.as_bytes(),
            at: 0,
            line: 1,
        }
    }

    /// The line where the record at `position` starts (0 without a position).
    pub fn line_of(&mut self, position: Option<&csv::Position>) -> usize {
        let Some(p) = position else { return 0 };
        let mut to = usize::try_from(p.byte())
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        while to < self.bytes.len() && matches!(self.bytes[to], b'\r' | b'\n') {
            to += 1;
        }
        if to < self.at {
            // Out of order (never for one reader): count again from the start.
            self.at = 0;
            self.line = 1;
        }
        self.line += self.bytes[self.at..to]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.at = to;
        self.line
    }
}

/// 1-based line of byte `offset`.
fn line_of(bytes: &[u8], offset: usize) -> usize {
    let end = offset.min(bytes.len());
    bytes[..end].iter().filter(|&&b| b == b'\n').count() + 1
}

/// The bytes at `offset` as `0xEF 0xBB`, for messages.
fn hex_at(bytes: &[u8], offset: usize, len: usize) -> String {
    let end = offset.saturating_add(len.max(1)).min(bytes.len());
    let start = offset.min(end);
    bytes[start..end]
        .iter()
        .map(|b| format!("0x{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn undecodable(bytes: &[u8], offset: usize, len: usize, what: &str) -> Undecodable {
    let hex = hex_at(bytes, offset, len);
    Undecodable::new(
        line_of(bytes, offset),
        hex.clone(),
        Text::new(
            format!(
                "字节 `{hex}` 不是有效的 {what} 编码；请在 Excel 中另存为“CSV UTF-8”，或加 --encoding"
            ),
            format!(
                "byte `{hex}` is not valid {what}; save the sheet from Excel as \"CSV UTF-8\" or pass --encoding"
            ),
        ),
    )
}

/// Strict UTF-8: the text, or the offset and length of the first bad sequence.
fn strict_utf8(bytes: &[u8]) -> Result<String, (usize, usize)> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => Err((e.valid_up_to(), e.error_len().unwrap_or(1))),
    }
}

/// Strict decoding with an encoding_rs charset: the text, or the offset and length of the
/// first malformed sequence.
fn strict(charset: &'static Charset, bytes: &[u8]) -> Result<String, (usize, usize)> {
    let mut decoder = charset.new_decoder_without_bom_handling();
    let capacity = decoder
        .max_utf8_buffer_length_without_replacement(bytes.len())
        .unwrap_or(bytes.len().saturating_mul(3));
    let mut out = String::with_capacity(capacity);
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut out, true);
    match result {
        DecoderResult::InputEmpty => Ok(out),
        DecoderResult::Malformed(bad, after) => {
            let bad = usize::from(bad);
            let start = read.saturating_sub(usize::from(after) + bad);
            Err((start, bad))
        }
        // The buffer was sized for the worst case, so this is unreachable in practice;
        // report it at the place decoding stopped rather than panic.
        DecoderResult::OutputFull => Err((read, 1)),
    }
}

/// Decodes a registration file. `Auto` trusts a BOM, then tries strict UTF-8, then GBK;
/// an explicit choice is honoured (a UTF-8 BOM is skipped under `Utf8`).
pub fn decode(bytes: &[u8], encoding: Encoding) -> Result<Decoded, Undecodable> {
    match encoding {
        Encoding::Utf8 => {
            let (body, offset, detected) = match bytes.strip_prefix(UTF8_BOM) {
                Some(rest) => (rest, UTF8_BOM.len(), Detected::Utf8Bom),
                None => (bytes, 0, Detected::Utf8),
            };
            strict_utf8(body)
                .map(|text| Decoded {
                    text,
                    encoding: detected,
                })
                .map_err(|(at, len)| undecodable(bytes, at + offset, len, "UTF-8"))
        }
        Encoding::Gbk => strict(GBK, bytes)
            .map(|text| Decoded {
                text,
                encoding: Detected::Gbk,
            })
            .map_err(|(at, len)| undecodable(bytes, at, len, "GBK")),
        Encoding::Auto => decode_auto(bytes),
    }
}

fn decode_auto(bytes: &[u8]) -> Result<Decoded, Undecodable> {
    if let Some(rest) = bytes.strip_prefix(UTF8_BOM) {
        return strict_utf8(rest)
            .map(|text| Decoded {
                text,
                encoding: Detected::Utf8Bom,
            })
            .map_err(|(at, len)| undecodable(bytes, at + UTF8_BOM.len(), len, "UTF-8"));
    }
    for (bom, charset, detected) in [
        (&b"\xFF\xFE"[..], UTF_16LE, Detected::Utf16Le),
        (&b"\xFE\xFF"[..], UTF_16BE, Detected::Utf16Be),
    ] {
        if let Some(rest) = bytes.strip_prefix(bom) {
            return strict(charset, rest)
                .map(|text| Decoded {
                    text,
                    encoding: detected,
                })
                // UTF-16 has two bytes per line break; count lines in the decoded prefix
                // instead of raw bytes.
                .map_err(|(at, len)| {
                    let (prefix, _) = charset.decode_without_bom_handling(&rest[..at]);
                    let hex = hex_at(rest, at, len);
                    Undecodable::new(
                        prefix.matches('\n').count() + 1,
                        hex.clone(),
                        Text::new(
                            format!(
                                "字节 `{hex}` 不是有效的 {detected} 编码；请在 Excel 中另存为“CSV UTF-8”"
                            ),
                            format!(
                                "bytes `{hex}` are not valid {detected}; save the sheet from Excel as \"CSV UTF-8\""
                            ),
                        ),
                    )
                });
        }
    }
    if let Some((charset, detected)) = utf16_without_bom(bytes)
        && let Ok(text) = strict(charset, bytes)
    {
        return Ok(Decoded {
            text,
            encoding: detected,
        });
    }
    let (utf8_at, utf8_len) = match strict_utf8(bytes) {
        Ok(text) => {
            return Ok(Decoded {
                text,
                encoding: Detected::Utf8,
            });
        }
        Err(e) => e,
    };
    // GBK text almost never forms valid multi-byte UTF-8 for long: a file that already
    // held a few UTF-8 characters before its bad byte is UTF-8 with a damaged byte (often
    // a truncated last character), not GBK, and decoding it as GBK would only garble it.
    let prefix = std::str::from_utf8(&bytes[..utf8_at]).unwrap_or("");
    if prefix.chars().filter(|c| !c.is_ascii()).count() >= 3 {
        return Err(undecodable(bytes, utf8_at, utf8_len, "UTF-8"));
    }
    // Neither UTF-8 nor GBK, nor UTF-16 told by its zero bytes (`utf16_without_bom`).
    strict(GBK, bytes)
        .map(|text| Decoded {
            text,
            encoding: Detected::Gbk,
        })
        .map_err(|(at, len)| undecodable(bytes, at, len, "UTF-8/GBK/UTF-16"))
}

/// UTF-16 without a byte-order mark, told by its zero bytes: text in UTF-8 or GBK has
/// none, while in UTF-16 every ASCII character (a CSV's commas and line breaks at the
/// least) has a zero byte on the same side of its pair, high byte first (BE) or second
/// (LE). Read when, in the first 4 KiB, at least one pair in sixteen has a zero byte on
/// one side and the other side has at most an eighth as many; else `None`, and the bytes
/// go on to UTF-8 and GBK.
fn utf16_without_bom(bytes: &[u8]) -> Option<(&'static Charset, Detected)> {
    let sample = &bytes[..bytes.len().min(4096) & !1];
    let pairs = sample.len() / 2;
    if pairs < 2 {
        return None;
    }
    let (mut first, mut second) = (0usize, 0usize);
    for pair in sample.chunks_exact(2) {
        first += usize::from(pair[0] == 0);
        second += usize::from(pair[1] == 0);
    }
    let one_sided = |many: usize, few: usize| many * 16 >= pairs && few * 8 <= many;
    if one_sided(second, first) {
        Some((UTF_16LE, Detected::Utf16Le))
    } else if one_sided(first, second) {
        Some((UTF_16BE, Detected::Utf16Be))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gbk(s: &str) -> Vec<u8> {
        let (bytes, _, bad) = GBK.encode(s);
        assert!(!bad);
        bytes.into_owned()
    }

    #[test]
    fn auto_detection_table() {
        let text = "姓名,组别\n张三,成人组\n";
        let mut bom = UTF8_BOM.to_vec();
        bom.extend_from_slice(text.as_bytes());
        let mut utf16 = vec![0xFF, 0xFE];
        for unit in text.encode_utf16() {
            utf16.extend_from_slice(&unit.to_le_bytes());
        }
        let cases = [
            (text.as_bytes().to_vec(), Detected::Utf8),
            (bom, Detected::Utf8Bom),
            (gbk(text), Detected::Gbk),
            (utf16, Detected::Utf16Le),
        ];
        for (bytes, want) in cases {
            let decoded = decode(&bytes, Encoding::Auto).unwrap();
            assert_eq!(decoded.encoding, want);
            assert_eq!(decoded.text, text, "{want}");
        }
    }

    /// UTF-16 without a BOM, LE or BE, Chinese-heavy or ASCII-heavy, is read;
    /// a file it cannot be told from says so in each language, with no English in the
    /// Chinese.
    #[test]
    fn utf16_without_a_bom_is_read() {
        for text in [
            "姓名,性别,单位,组别\r\n王五,男,某协会,成人组\r\n",
            "name,group\nWang Wu,open\n",
        ] {
            let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
            let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
            for (bytes, want) in [(le, Detected::Utf16Le), (be, Detected::Utf16Be)] {
                let decoded = decode(&bytes, Encoding::Auto).unwrap();
                assert_eq!((decoded.encoding, decoded.text.as_str()), (want, text));
            }
        }
        let e = decode(b"\x96\x00\x96", Encoding::Auto).unwrap_err();
        assert!(!e.text.zh.contains(" or "), "{}", e.text.zh);
        assert!(
            e.text.zh.contains("UTF-16") && e.text.en.contains("UTF-16"),
            "{:?}",
            e.text
        );
    }

    #[test]
    fn explicit_choice_is_honoured() {
        let text = "姓名\n张三\n";
        let bytes = gbk(text);
        assert_eq!(decode(&bytes, Encoding::Gbk).unwrap().text, text);
        let err = decode(&bytes, Encoding::Utf8).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.text.en.contains("not valid UTF-8"), "{}", err.text.en);
        let mut bom = UTF8_BOM.to_vec();
        bom.extend_from_slice(text.as_bytes());
        let decoded = decode(&bom, Encoding::Utf8).unwrap();
        assert_eq!(decoded.text, text);
        assert_eq!(decoded.encoding, Detected::Utf8Bom);
    }

    #[test]
    fn undecodable_byte_names_its_line() {
        // 0xFF is invalid in both UTF-8 and GBK.
        let bytes = b"name,group\nzhang,open\nli\xFF,open\n";
        let err = decode(bytes, Encoding::Auto).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.text.en.contains("`0xFF`"), "{}", err.text.en);
        let err = decode(bytes, Encoding::Gbk).unwrap_err();
        assert_eq!(err.line, 3);
    }

    #[test]
    fn truncated_utf8_is_reported_as_utf8() {
        let mut bytes = "姓名\n张三\n".as_bytes().to_vec();
        bytes.extend_from_slice(&"李".as_bytes()[..2]);
        let err = decode(&bytes, Encoding::Auto).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.text.en.contains("UTF-8"), "{}", err.text.en);
    }

    #[test]
    fn encoding_names_parse() {
        let cases = [
            ("auto", Ok(Encoding::Auto)),
            ("UTF-8", Ok(Encoding::Utf8)),
            ("utf8", Ok(Encoding::Utf8)),
            ("gbk", Ok(Encoding::Gbk)),
            ("GB18030", Ok(Encoding::Gbk)),
        ];
        for (name, want) in cases {
            assert_eq!(name.parse::<Encoding>(), want, "{name}");
        }
        assert!(
            "latin1"
                .parse::<Encoding>()
                .unwrap_err()
                .contains("`latin1`")
        );
    }
}

#[cfg(test)]
mod record_line_tests {
    use super::LineCounter;

    /// Excel writes CRLF; a quoted cell may span lines; blank lines count.
    #[test]
    fn lines_are_physical_whatever_the_line_ends() {
        for nl in ["\n", "\r\n"] {
            let text = ["h1,h2", "a,1", "\"b", "c\",2", "", "d,3"].join(nl) + nl;
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(text.as_bytes());
            let mut counter = LineCounter::new(&text);
            let lines: Vec<usize> = reader
                .records()
                .map(|r| counter.line_of(r.unwrap().position()))
                .collect();
            assert_eq!(lines, vec![1, 2, 3, 6], "line ends {nl:?}");
        }
    }
}
