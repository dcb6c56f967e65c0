//! Text sanitising: the characters that must not reach a terminal, a one-line field or a
//! spreadsheet cell, and the one CSV writer of qiwang's outputs.
//!
//! - [`printable`]: control characters out (ESC sequences, CR, bidi overrides), for the
//!   terminal and every text file.
//! - [`one_line`]: the same plus newlines and tabs, and a length cap, for one field of a
//!   fixed-format file (TRF), a one-line label, or a value quoted in a message.
//! - [`csv_cell`] / [`write_csv`]: spreadsheet cells that cannot start a formula (OWASP
//!   "CSV injection": a leading `'` before `= + - @`, tab or CR, and before `'`s that
//!   precede such a text), read back exactly by [`csv_cell_unguarded`].
//!
//! A leaf: it imports no other module of the crate, so every layer may use it (the
//! rulebook quotes a bad id with [`one_line`], the registration template is written with
//! [`write_csv`]). `report::safe` re-exports these next to the byte encodings and the
//! output-path check.

use std::borrow::Cow;

/// Whether `c` is invisible or only steers how text is shown: zero-width characters, the
/// soft hyphen, word joiners and invisible operators, the bidirectional controls, the byte
/// order mark and variation selectors. Typed between the digits of a number or the
/// characters of a name, they change the text without changing what a reader sees.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// Whether `c` must not reach a terminal or a text file: C0 controls other than newline
/// and tab, DEL, C1 controls (U+0080–U+009F, which some terminals read as ESC `[`), the
/// line and paragraph separators, and the bidirectional overrides and isolates that can
/// make text display in another order than it is stored.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Whether `text` holds a character [`is_unsafe`] refuses, found a byte at a time (the
/// JSON of 100,000 players is 100–260 MB; decoding every character cost a tenth of
/// printing it): every such character is a byte below 0x20 or 0x7F, or starts with
/// the byte 0xC2 (U+0080–U+009F) or 0xE2 (U+2028–U+2069), which are decoded. Blocks of
/// 64 bytes are first tested for any such byte without stopping at the first (a test the
/// compiler does many bytes at once); only a block that has one is looked at closely.
fn has_unsafe(text: &str) -> bool {
    const BLOCK: usize = 64;
    let bytes = text.as_bytes();
    let suspect =
        |b: u8| (b < 0x20 && b != b'\n' && b != b'\t') | (b == 0x7f) | (b == 0xc2) | (b == 0xe2);
    let closely = |from: usize, to: usize| {
        bytes[from..to].iter().enumerate().any(|(i, &b)| match b {
            b'\n' | b'\t' => false,
            0..=0x1f | 0x7f => true,
            // Lead bytes, so `from + i` is a character boundary.
            0xc2 | 0xe2 => text[from + i..].chars().next().is_some_and(is_unsafe),
            _ => false,
        })
    };
    let whole = bytes.len() - bytes.len() % BLOCK;
    (0..whole).step_by(BLOCK).any(|at| {
        bytes[at..at + BLOCK]
            .iter()
            .fold(false, |any, &b| any | suspect(b))
            && closely(at, at + BLOCK)
    }) || closely(whole, bytes.len())
}

/// `text` without the characters a terminal or a text file must not receive (see the
/// module docs); newlines and tabs stay. Borrowed when nothing had to go.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !has_unsafe(text) {
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

/// Whether `cell` starts a formula in a spreadsheet cell.
fn starts_formula(cell: &str) -> bool {
    cell.chars()
        .next()
        .is_some_and(|c| matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r'))
}

/// Whether a cell's text is written with a leading `'`: it starts a formula (and is not
/// exactly a decimal number), or it is `'`s before such a text. The second keeps the
/// read-back exact: `'=x` itself is written `''=x`, else reading would take its `'` for
/// the guard and give `=x`.
fn needs_guard(cell: &str) -> bool {
    let text = cell.trim_start_matches('\'');
    starts_formula(text) && !is_number(text)
}

/// One spreadsheet cell made inert: a cell starting with `=`, `+`, `-`, `@`, tab or CR
/// gets a leading `'` (OWASP "CSV injection"), unless it is exactly a decimal number, and
/// so does a cell of `'`s before such a text; control characters other than newline and
/// tab are dropped. [`csv_cell_unguarded`] reads every cell back to its text (after
/// [`printable`]).
pub fn csv_cell(cell: &str) -> Cow<'_, str> {
    let cell = printable(cell);
    if needs_guard(&cell) {
        return Cow::Owned(format!("'{cell}"));
    }
    cell
}

/// A cell as written before [`csv_cell`] guarded it: the `'` it put before a cell is
/// dropped, so a file qiwang wrote (the slips) reads back to the names it printed. Any
/// other cell is returned as it is.
pub fn csv_cell_unguarded(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if needs_guard(rest) => rest,
        _ => cell,
    }
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

/// `text` (an argument as typed, a sheet's name) as one word of a POSIX shell command: as
/// it is when it holds only characters no shell reads specially, else in single quotes, so
/// a suggested command runs as printed. A word that starts with `-` stays one: a path is
/// given by [`shell_path`], an option's value by [`shell_option`].
pub fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_alphanumeric() || "/._-+,:@%=".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// `path` as the argument of a command: its text, with `./` before a relative path
/// that starts with `-` (an event directory named `-x`), which the command would read
/// as an option.
pub fn path_argument(path: &std::path::Path) -> String {
    let text = path.display().to_string();
    if text.starts_with('-') {
        format!("./{text}")
    } else {
        text
    }
}

/// `path` as one word of a POSIX shell command ([`path_argument`], [`shell_word`]).
pub fn shell_path(path: &std::path::Path) -> String {
    shell_word(&path_argument(path))
}

/// The long option `option` given `value`, as a POSIX shell command spells it:
/// `--sheet 'a b'`, or `--sheet=-x` for a value that starts with `-`, which the command
/// line would read as an option of its own.
pub fn shell_option(option: &str, value: &str) -> String {
    if value.starts_with('-') {
        shell_word(&format!("{option}={value}"))
    } else {
        format!("{option} {}", shell_word(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spaces and quotes stay inside one word; a word starting with `-` is never read
    /// as an option: a path gets `./`, an option's value is joined to it with `=`.
    #[test]
    fn suggested_words_stay_one_word_and_no_option() {
        use std::path::Path;
        assert_eq!(shell_word("/tmp/赛 it's"), "'/tmp/赛 it'\\''s'");
        assert_eq!(shell_word("ev/qiwang.json"), "ev/qiwang.json");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("-1"), "-1");
        assert_eq!(shell_path(Path::new("-x/qiwang.json")), "./-x/qiwang.json");
        assert_eq!(shell_path(Path::new("-x y")), "'./-x y'");
        assert_eq!(shell_path(Path::new("/srv/-x")), "/srv/-x");
        assert_eq!(shell_path(Path::new("ev")), "ev");
        assert_eq!(shell_option("--sheet", "报名 表"), "--sheet '报名 表'");
        assert_eq!(shell_option("--sheet", "-x"), "--sheet=-x");
        assert_eq!(shell_option("--group", "-a b"), "'--group=-a b'");
    }

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

    /// The byte-wise search finds exactly the characters `is_unsafe` refuses: every
    /// character below U+3000 and the neighbours of the refused ranges, alone and amid text.
    #[test]
    fn the_fast_search_agrees_with_the_character_test() {
        let mut chars: Vec<char> = ('\0'..='\u{3000}').collect();
        chars.extend(['\u{feff}', '\u{fffd}', '王', '\u{1f600}', '\u{e0001}']);
        for c in chars {
            for text in [
                c.to_string(),
                format!("王{c}a"),
                format!("ab—{c}"),
                format!("{c}{c}\u{2014}"),
            ] {
                assert_eq!(
                    has_unsafe(&text),
                    text.chars().any(is_unsafe),
                    "{c:?} in {text:?}"
                );
            }
        }
        // At every place around the first two 64-byte blocks a long text is searched in.
        let near: Vec<char> = ('\0'..='\u{100}').chain('\u{2000}'..='\u{2100}').collect();
        for at in 0..=140 {
            let before = "a棋\n".repeat(at / 5) + &"b".repeat(at % 5);
            for &c in &near {
                let text = format!("{before}{c}{}", "王x\t".repeat(30));
                assert_eq!(
                    has_unsafe(&text),
                    text.chars().any(is_unsafe),
                    "{c:?} at byte {}",
                    before.len()
                );
            }
        }
    }

    /// What `csv_cell` guards reads back unchanged; what it leaves alone stays alone.
    #[test]
    fn a_guarded_cell_reads_back_as_written() {
        for text in [
            "=HYPERLINK(\"http://x\",\"y\")",
            "+86 138",
            "-张三",
            "@王",
            "-12",
            "3.5",
            "张三",
            "'引号",
            "",
        ] {
            assert_eq!(csv_cell_unguarded(&csv_cell(text)), text, "{text:?}");
        }
        assert_eq!(csv_cell_unguarded("'张三"), "'张三");
    }

    /// Texts that begin with the guard itself, or with what it guards: each is written so
    /// that no cell starts a formula, and reads back exactly (through the CSV writer and
    /// reader too).
    #[test]
    fn a_text_that_starts_with_a_quote_reads_back_exactly() {
        let cases = [
            ("'=1+1", "''=1+1"),
            ("''=1+1", "'''=1+1"),
            ("'", "'"),
            ("''", "''"),
            ("'@x", "''@x"),
            ("'-3", "'-3"),
            ("'-x", "''-x"),
            ("'\tx", "''\tx"),
            ("\t=1", "'\t=1"),
            ("\r'=1", "''=1"),
            ("'张三", "'张三"),
        ];
        for (text, written) in cases {
            assert_eq!(csv_cell(text), written, "{text:?}");
            assert_eq!(
                csv_cell_unguarded(&csv_cell(text)),
                printable(text),
                "{text:?}"
            );
            assert_eq!(read_back(text), printable(text), "{text:?}");
        }
    }

    /// `text` written by [`write_csv`] as the one cell of a row, read by the csv crate and
    /// unguarded, as the readers of qiwang's files do.
    fn read_back(text: &str) -> String {
        let header = vec!["h".to_string()];
        let rows = vec![vec![text.to_string()]];
        let csv = write_csv([(header.as_slice(), rows.as_slice())]);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(csv.as_bytes());
        let record = reader.records().next().unwrap().unwrap();
        csv_cell_unguarded(record.get(0).unwrap()).to_string()
    }

    proptest::proptest! {
        /// Every text reads back as written (less the characters [`printable`] drops),
        /// and no written cell starts a formula unless it is a plain number.
        #[test]
        fn every_text_round_trips_and_no_cell_starts_a_formula(
            text in "['=+@\t\r\n\"a1.-]{0,6}|\\PC{0,12}"
        ) {
            let written = csv_cell(&text);
            proptest::prop_assert_eq!(csv_cell_unguarded(&written), printable(&text));
            proptest::prop_assert!(!starts_formula(&written) || is_number(&written));
            proptest::prop_assert_eq!(read_back(&text), printable(&text).into_owned());
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
}
