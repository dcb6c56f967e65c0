//! The seeded mutator: from one corpus input and one case's random stream, a hostile
//! variant of it. Byte-level changes (flips, truncation, deletion, repetition, splices from
//! another input, huge runs, interesting numbers, tokens every parser trips on) and
//! text-level ones (another encoding, a byte-order mark). The structure-aware changes of a
//! container (a part of a zip, a record of an .xls, a value of a JSON tree) live with
//! their target and call back into [`bytes`] for the part they change.
//!
//! Everything is a function of the `ChaCha8Rng` handed in, so a case replays exactly from
//! its seed and number.

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Numbers that overflow, wrap or mean "everything" in some width.
pub const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "-0",
    "1",
    "65535",
    "65536",
    "1048576",
    "1048577",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "99999999999999999999999999999999",
    "1e308",
    "1e309",
    "-1e309",
    "NaN",
    "inf",
    "0.5",
    "1.0000000000000002",
    "0x7FFFFFFF",
];

/// Short byte strings that trip parsers: separators, quotes, line ends, byte-order marks,
/// invalid UTF-8, a lone GBK lead byte, markup, a formula.
const TOKENS: &[&[u8]] = &[
    b"\0",
    b"\"",
    b"\"\"",
    b"\",\"",
    b"'",
    b"\r",
    b"\n",
    b"\r\n",
    b",",
    b",,,,,,,,",
    b";",
    b"\t",
    b"\xEF\xBB\xBF",
    b"\xFF\xFE",
    b"\xFE\xFF",
    b"\xFF",
    b"\x80",
    b"\xC0\xAF",
    b"\xED\xA0\x80",
    b"\x81",
    b"\x81\x30",
    b"\xF4\x90\x80\x80",
    "组别".as_bytes(),
    "姓名".as_bytes(),
    "身份证号".as_bytes(),
    "\u{3000}".as_bytes(),
    "\u{202E}".as_bytes(),
    "\u{FEFF}".as_bytes(),
    b"=HYPERLINK(\"x\")",
    b"<",
    b">",
    b"&amp;",
    b"&#0;",
    b"&#xFFFFFFFF;",
    b"[[groups]]\n",
    b"[",
    b"]",
    b"{",
    b"}",
    b"= ",
    b"\\u0000",
    b"\\uD800",
    b"9999-99-99",
    b"1900-02-29",
    b"0000-01-01",
];

/// A mutated copy of `input`: one to four changes; `other` is another corpus input to
/// splice from.
pub fn bytes(rng: &mut ChaCha8Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        once(rng, &mut out, other);
    }
    out
}

/// A position in `len` bytes, biased towards the start, where headers and declared sizes
/// live.
fn pos(rng: &mut ChaCha8Rng, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    if rng.gen_bool(0.25) {
        rng.gen_range(0..len.min(64))
    } else {
        rng.gen_range(0..len)
    }
}

fn once(rng: &mut ChaCha8Rng, out: &mut Vec<u8>, other: &[u8]) {
    let len = out.len();
    match rng.gen_range(0..13) {
        0 => {
            if len > 0 {
                let i = pos(rng, len);
                out[i] = rng.r#gen();
            }
        }
        1 => {
            if len > 0 {
                let i = pos(rng, len);
                out[i] ^= 1 << rng.gen_range(0..8);
            }
        }
        2 => out.truncate(pos(rng, len)),
        3 => {
            let i = pos(rng, len);
            let j = (i + rng.gen_range(1..256)).min(len);
            out.drain(i..j);
        }
        4 | 5 => {
            let token = TOKENS.choose(rng).copied().unwrap_or(b"\0");
            let i = pos(rng, len);
            out.splice(i..i, token.iter().copied());
        }
        6 => {
            // A stretch repeated: rows, records or elements many times over.
            if len > 0 {
                let i = pos(rng, len);
                let j = (i + rng.gen_range(1..512)).min(len);
                let chunk = out[i..j].to_vec();
                let times = if rng.gen_bool(0.1) {
                    rng.gen_range(100..4000)
                } else {
                    rng.gen_range(2..20)
                };
                let repeated: Vec<u8> = std::iter::repeat_n(chunk, times).flatten().collect();
                out.splice(j..j, repeated);
            }
        }
        7 => {
            // A huge run of one byte: a very long field, line or name.
            let byte = *b"x\"0\n,\0 a<".choose(rng).unwrap_or(&b'x');
            let n = rng.gen_range(1_000..300_000);
            let i = pos(rng, len);
            out.splice(i..i, std::iter::repeat_n(byte, n));
        }
        8 => {
            if !other.is_empty() {
                let a = rng.gen_range(0..other.len());
                let b = (a + rng.gen_range(1..1024)).min(other.len());
                let i = pos(rng, len);
                out.splice(i..i, other[a..b].iter().copied());
            }
        }
        9 | 10 => replace_number(rng, out),
        11 => {
            // A binary field overwritten with an extreme: a declared length or offset.
            if len >= 4 {
                let i = pos(rng, len - 3);
                let v: u32 = *[0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF, 0, 1]
                    .choose(rng)
                    .unwrap_or(&0);
                let width = *[1usize, 2, 4].choose(rng).unwrap_or(&4);
                out[i..i + width].copy_from_slice(&v.to_le_bytes()[..width]);
            }
        }
        _ => recode(rng, out),
    }
}

/// Replaces a run of ASCII digits (or, with none, a random place) by an extreme number.
fn replace_number(rng: &mut ChaCha8Rng, out: &mut Vec<u8>) {
    let number = NUMBERS.choose(rng).copied().unwrap_or("0").as_bytes();
    let digits: Vec<usize> = out
        .iter()
        .enumerate()
        .filter(|(_, b)| b.is_ascii_digit())
        .map(|(i, _)| i)
        .collect();
    let Some(&start) = digits.choose(rng) else {
        let i = pos(rng, out.len());
        out.splice(i..i, number.iter().copied());
        return;
    };
    let mut from = start;
    while from > 0 && out[from - 1].is_ascii_digit() {
        from -= 1;
    }
    let mut to = start;
    while to < out.len() && out[to].is_ascii_digit() {
        to += 1;
    }
    out.splice(from..to, number.iter().copied());
}

/// The text in another encoding (read as UTF-8, lossily): the ways a spreadsheet program
/// saves "CSV" or "Unicode text".
fn recode(rng: &mut ChaCha8Rng, out: &mut Vec<u8>) {
    let text = String::from_utf8_lossy(out).into_owned();
    *out = match rng.gen_range(0..7) {
        0 => [&b"\xFF\xFE"[..], &utf16(&text, false)].concat(),
        1 => [&b"\xFE\xFF"[..], &utf16(&text, true)].concat(),
        2 => utf16(&text, false),
        3 => encoding_rs::GBK.encode(&text).0.into_owned(),
        4 => encoding_rs::GB18030.encode(&text).0.into_owned(),
        5 => [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat(),
        _ => text
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect(),
    };
}

/// `text` as UTF-16 without a byte-order mark.
pub fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|u| {
            if big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        })
        .collect()
}

/// Markup-aware changes to an XML part: an element repeated many times, deep nesting, an
/// attribute's number made extreme, or byte-level changes.
pub fn xml(rng: &mut ChaCha8Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    match rng.gen_range(0..5) {
        0 => {
            // Repeat one element (from a `<` to the `>` closing it or a later one).
            let starts: Vec<usize> = (0..out.len()).filter(|&i| out[i] == b'<').collect();
            if let Some(&a) = starts.choose(rng) {
                let ends: Vec<usize> = (a..out.len()).filter(|&i| out[i] == b'>').collect();
                if !ends.is_empty() {
                    let b = ends[rng.gen_range(0..ends.len().min(6))] + 1;
                    let chunk = out[a..b].to_vec();
                    let times = rng.gen_range(2..3000);
                    let repeated: Vec<u8> = std::iter::repeat_n(chunk, times).flatten().collect();
                    out.splice(b..b, repeated);
                }
            }
        }
        1 => {
            // Deep nesting just inside the root's first child.
            let depth = rng.gen_range(100..100_000);
            let at = out
                .windows(2)
                .position(|w| w[0] == b'>' && w[1] == b'<')
                .map_or(0, |i| i + 1);
            let open: Vec<u8> = std::iter::repeat_n(&b"<x>"[..], depth)
                .flatten()
                .copied()
                .collect();
            let close: Vec<u8> = std::iter::repeat_n(&b"</x>"[..], depth)
                .flatten()
                .copied()
                .collect();
            out.splice(at..at, open.into_iter().chain(close));
        }
        2 => {
            // An attribute value (between quotes after `=`) made an extreme number or
            // cell reference.
            let quotes: Vec<usize> = out
                .windows(2)
                .enumerate()
                .filter(|(_, w)| w == b"=\"")
                .map(|(i, _)| i + 2)
                .collect();
            if let Some(&a) = quotes.choose(rng)
                && let Some(len) = out[a..].iter().position(|&b| b == b'"')
            {
                let value: &[u8] = match rng.gen_range(0..3) {
                    0 => b"XFD1048576",
                    1 => b"A1:XFD1048576",
                    _ => NUMBERS.choose(rng).copied().unwrap_or("0").as_bytes(),
                };
                out.splice(a..a + len, value.iter().copied());
            }
        }
        _ => out = bytes(rng, &out, other),
    }
    out
}
