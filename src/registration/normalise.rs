//! Cleaning of the text Excel puts in a cell: full-width ASCII (ＡＢＣ１２３), the
//! ideographic space, non-breaking spaces, zero-width and other invisible characters,
//! stray and doubled spaces, and Unicode normalisation (NFC), so that two cells a reader
//! cannot tell apart are the same text.
//!
//! Owns only character-level clean-up; it knows nothing about what a column means.

use unicode_normalization::UnicodeNormalization;

/// The longest name a player may have, in characters. Chinese names have 2–4 characters,
/// names of minorities and foreigners written in Chinese rarely more than 20, Latin names
/// rarely more than 40; 128 leaves room for any real name (and for the hostile-text
/// tests' payloads, which check escaping), while a pasted paragraph — a 3,001-character
/// cell — is a mistake or an attack on every page and sheet the name is printed on.
pub const MAX_NAME_CHARS: usize = 128;

/// Full-width ASCII (U+FF01–U+FF5E) to half-width; every kind of space to a plain space;
/// invisible characters (zero-width, soft hyphen, bidirectional controls, variation
/// selectors, see [`crate::sanitize::is_invisible`]) and control characters (other than
/// tab, which becomes a space) dropped; the rest in Unicode normal form C, so that `张三`
/// typed with a decomposed or compatibility character is the `张三` already registered.
pub fn to_half_width(s: &str) -> String {
    // Most cells are in normal form C already: ASCII and common ideographs alone always
    // are (nothing there composes), and the quick check spares the others the rewrite.
    let plain = |c: char| c.is_ascii() || ('\u{4e00}'..='\u{9fff}').contains(&c);
    let composed: String;
    let s = match s.chars().all(plain)
        || unicode_normalization::is_nfc_quick(s.chars())
            == unicode_normalization::IsNormalized::Yes
    {
        true => s,
        false => {
            composed = s.nfc().collect();
            &composed
        }
    };
    s.chars()
        .filter_map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
            // Ideographic space (全角空格), no-break spaces and the other Unicode spaces.
            '\u{3000}' | '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' => {
                Some(' ')
            }
            '\t' | '\r' | '\n' => Some(' '),
            // Zero-width spaces, a BOM that slipped into a cell, bidi controls.
            c if crate::sanitize::is_invisible(c) => None,
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

/// A cell value as qiwang stores it: half-width, trimmed, inner runs of spaces collapsed.
pub fn clean(s: &str) -> String {
    let half = to_half_width(s);
    let mut out = String::with_capacity(half.len());
    for word in half.split(' ').filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Whether `c` is a CJK ideograph (a character of a Chinese name).
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2FA1F}')
}

/// A person's name: [`clean`], then no space next to a CJK character (`张 三` → `张三`,
/// an Excel habit for two-character names) while Latin names keep one space between
/// words; the separator of minority and foreign names (买买提·艾力) becomes `·`.
pub fn clean_name(s: &str) -> String {
    let cleaned: String = clean(s)
        .chars()
        .map(|c| match c {
            '\u{30FB}' | '\u{2022}' | '\u{2027}' | '\u{FF65}' | '\u{2219}' => '·',
            c => c,
        })
        .collect();
    let chars: Vec<char> = cleaned.chars().collect();
    let mut out = String::with_capacity(cleaned.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let before = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
            let after = chars.get(i + 1).copied();
            let next_to_cjk = before.is_some_and(|b| is_cjk(b) || b == '·')
                || after.is_some_and(|a| is_cjk(a) || a == '·');
            if next_to_cjk {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// A comparison key: [`clean`], lower-cased, without any space. Two names or units with
/// the same key are the same for duplicate checks and group look-up.
pub fn key(s: &str) -> String {
    clean(s)
        .chars()
        .filter(|c| *c != ' ')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A unit's name as a reader takes it, to find two spellings of one unit: [`key`] without
/// brackets and what they hold (（本部）), punctuation, and an administrative word (省, 市,
/// 县, 区) a sheet writes or leaves out at the end of the name (`北京市` meets `北京`).
/// Only there: inside a name the word is part of it (`市一中` is not `县一中`,
/// `区实验小学` not `市实验小学`, `吉林省实验中学` not `吉林市实验中学`), so
/// `海淀区实验小学` and `海淀实验小学` stay apart too.
pub fn unit_key(s: &str) -> String {
    let mut out = String::new();
    let mut depth = 0u32;
    for c in key(s).chars() {
        match c {
            '(' | '[' | '【' | '〔' => depth += 1,
            ')' | ']' | '】' | '〕' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            c if c.is_alphanumeric() => out.push(c),
            _ => {}
        }
    }
    // The suffix of a place name of two characters or more: `区` alone stays `区`.
    if out.chars().count() > 2 && out.ends_with(['省', '市', '县', '区']) {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_spellings_of_one_unit_meet() {
        assert_eq!(unit_key("城南小学"), unit_key("城南小学（本部）"));
        assert_eq!(unit_key("城南小学"), unit_key("城南 小学"));
        assert_ne!(unit_key("城南小学"), unit_key("城北小学"));
    }

    #[test]
    fn only_a_trailing_administrative_word_is_dropped() {
        // (unit, its key): the word goes only where it ends the name.
        let table = [
            ("北京市", "北京"),
            ("海淀区", "海淀"),
            ("安徽省", "安徽"),
            ("和县", "和县"),
            ("市", "市"),
            ("市一中", "市一中"),
            ("县一中", "县一中"),
            ("区实验小学", "区实验小学"),
            ("市实验小学", "市实验小学"),
            ("海淀区实验小学", "海淀区实验小学"),
            ("临江市实验小学（本部）", "临江市实验小学"),
            ("吉林省实验中学", "吉林省实验中学"),
            ("吉林市实验中学", "吉林市实验中学"),
            ("城市学院", "城市学院"),
            ("无为市（体育局）", "无为"),
        ];
        for (unit, want) in table {
            assert_eq!(unit_key(unit), want, "{unit}");
        }
        // So different units keep different keys, and two spellings of one still meet.
        assert_ne!(unit_key("区实验小学"), unit_key("市实验小学"));
        assert_ne!(unit_key("市一中"), unit_key("一中"));
        assert_eq!(unit_key("北京市"), unit_key("北京"));
    }

    #[test]
    fn half_width_table() {
        let cases = [
            ("３３０７０２", "330702"),
            ("ＡＢＣｘ", "ABCx"),
            ("（本地）", "(本地)"),
            ("张\u{3000}三", "张 三"),
            ("a\u{00A0}b", "a b"),
            ("\u{FEFF}姓名", "姓名"),
            ("a\u{200B}b", "ab"),
            ("a\0b", "ab"),
            ("张\u{200E}\u{202E}三\u{FE0F}", "张三"),
            ("a\u{AD}b\u{2066}c\u{2069}", "abc"),
            // Decomposed é, and a CJK compatibility ideograph, are NFC-normalised.
            ("Jose\u{301}", "José"),
            ("\u{F900}", "\u{8C48}"),
            ("成人组", "成人组"),
        ];
        for (input, want) in cases {
            assert_eq!(to_half_width(input), want, "input {input:?}");
        }
    }

    #[test]
    fn clean_table() {
        let cases = [
            ("  金东区  棋协 ", "金东区 棋协"),
            ("\u{3000}成人组\u{3000}", "成人组"),
            ("a\t\tb", "a b"),
            ("", ""),
            ("   ", ""),
            ("１３８　００００", "138 0000"),
        ];
        for (input, want) in cases {
            assert_eq!(clean(input), want, "input {input:?}");
        }
    }

    #[test]
    fn clean_name_table() {
        let cases = [
            ("张 三", "张三"),
            ("张\u{3000}三", "张三"),
            (" 欧阳  小明 ", "欧阳小明"),
            ("Li   Wei", "Li Wei"),
            ("买买提・艾力", "买买提·艾力"),
            ("买买提 · 艾力", "买买提·艾力"),
            ("Ｊｏｈｎ　Ｓｍｉｔｈ", "John Smith"),
            // Issue 42 §4: an invisible character cannot make a second 张三.
            ("张\u{200B}三", "张三"),
            ("张\u{200F}三", "张三"),
            ("\u{2060}张三\u{FEFF}", "张三"),
        ];
        for (input, want) in cases {
            assert_eq!(clean_name(input), want, "input {input:?}");
        }
    }

    #[test]
    fn key_ignores_case_width_and_spaces() {
        assert_eq!(key(" Birth  Date "), "birthdate");
        assert_eq!(key("ＩＤ Number"), "idnumber");
        assert_eq!(key("成人 组"), "成人组");
    }
}
