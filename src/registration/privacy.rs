//! Masking of personal data (docs/architecture.md "Data and persistence": ID-card and phone numbers
//! are kept in the state but masked in every printed and exported view).
//!
//! Owns only the masking rule; callers decide when the user asked for the full number.

/// Keeps `head` leading and `tail` trailing characters and stars the rest; a value too
/// short to keep both keeps at most its last `tail` characters and at least one star.
fn mask(value: &str, head: usize, tail: usize) -> String {
    let chars: Vec<char> = value.chars().collect();
    let n = chars.len();
    if n == 0 {
        return String::new();
    }
    let (keep_head, keep_tail) = if n > head + tail {
        (head, tail)
    } else {
        (0, tail.min(n.saturating_sub(1)))
    };
    let mut out = String::with_capacity(value.len());
    out.extend(&chars[..keep_head]);
    out.extend(std::iter::repeat_n('*', n - keep_head - keep_tail));
    out.extend(&chars[n - keep_tail..]);
    out
}

/// An ID number with its first 6 (region) and last 4 characters kept:
/// `330702200805011234` → `330702********1234`.
pub fn mask_id_number(id: &str) -> String {
    mask(id, 6, 4)
}

/// A phone number with its first 3 and last 4 characters kept:
/// `13812345678` → `138****5678`.
pub fn mask_phone(phone: &str) -> String {
    mask(phone, 3, 4)
}

/// `text` with every run of nine digits or more masked: as an ID number when it has 15
/// or more (a trailing `X` included), else as a phone number. A safety net for messages
/// that quote a cell, in case an ID or phone number was typed into the wrong column.
pub fn mask_numbers_in(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i - start == 17 && i < chars.len() && matches!(chars[i], 'X' | 'x') {
            i += 1;
        }
        let run: String = chars[start..i].iter().collect();
        match run.len() {
            0..=8 => out.push_str(&run),
            9..=14 => out.push_str(&mask_phone(&run)),
            _ => out.push_str(&mask_id_number(&run)),
        }
    }
    out
}

/// A digit as typed in free text: ASCII or full-width (`１３８…` from a Chinese input
/// method), as its ASCII value.
fn digit_of(c: char) -> Option<char> {
    match c {
        '0'..='9' => Some(c),
        '\u{ff10}'..='\u{ff19}' => char::from_u32(c as u32 - 0xff10 + u32::from(b'0')),
        _ => None,
    }
}

/// Free text (a penalty or withdrawal reason, a note) with every ID-like or phone-like
/// number masked: a run of nine or more digits — ASCII or full-width, possibly split by
/// single spaces or hyphens (`138-1234-5678`, `330702 19900101 1234`) and ending in `X`
/// for an ID — is masked as [`mask_numbers_in`] does (separators dropped). Shorter
/// numbers (rounds, points, dates) stay.
pub fn mask_free_text(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if digit_of(chars[i]).is_none() {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        // The longest run of digits with single separators between them.
        let start = i;
        let mut digits = String::new();
        let mut end = i;
        let mut j = i;
        while j < chars.len() {
            if let Some(d) = digit_of(chars[j]) {
                digits.push(d);
                j += 1;
                end = j;
            } else if matches!(
                chars[j],
                ' ' | '-' | '\u{3000}' | '(' | ')' | '\u{ff08}' | '\u{ff09}'
            ) && chars.get(j + 1).and_then(|&c| digit_of(c)).is_some()
            {
                j += 1;
            } else {
                break;
            }
        }
        if digits.len() == 17 && chars.get(end).is_some_and(|c| matches!(c, 'X' | 'x')) {
            digits.push(chars[end]);
            end += 1;
        }
        if digits.len() >= 9 {
            out.push_str(&mask_numbers_in(&digits));
        } else {
            out.extend(&chars[start..end]);
        }
        i = end;
    }
    out
}

/// [`mask_free_text`] applied to every string inside a JSON value.
pub fn mask_free_text_json(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(s) => Value::String(mask_free_text(&s)),
        Value::Array(items) => Value::Array(items.into_iter().map(mask_free_text_json).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, mask_free_text_json(v)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phone_with_its_prefix_in_brackets_is_masked() {
        for text in [
            "电话(138)12345678",
            "电话（138）12345678",
            "tel (138)1234-5678",
        ] {
            let masked = mask_free_text(text);
            assert!(!masked.contains("12345678"), "{text} → {masked}");
            assert!(!masked.contains("1234-5678"), "{text} → {masked}");
        }
        assert_eq!(mask_free_text("第(3)轮"), "第(3)轮");
    }

    #[test]
    fn free_text_table() {
        let cases = [
            (
                "电话13812345678 身份证330702199001011234",
                "电话138****5678 身份证330702********1234",
            ),
            ("电话 138-1234-5678。", "电话 138****5678。"),
            ("身份证 330702 19900101 123X", "身份证 330702********123X"),
            ("电话１３８１２３４５６７８", "电话138****5678"),
            ("第3轮 扣2分 2018-10-27", "第3轮 扣2分 2018-10-27"),
            ("round 5, table 12", "round 5, table 12"),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(mask_free_text(input), want, "input {input:?}");
        }
        let v =
            serde_json::json!({"reason": "call 13812345678", "points": 2, "list": ["13812345678"]});
        assert_eq!(
            mask_free_text_json(v),
            serde_json::json!({"reason": "call 138****5678", "points": 2, "list": ["138****5678"]})
        );
    }

    #[test]
    fn numbers_in_text_table() {
        let cases = [
            (
                "date `330702198001011232` is not a date",
                "date `330702********1232` is not a date",
            ),
            ("gender `33070219800101123x`", "gender `330702********123x`"),
            ("call 10012345678 now", "call 100****5678 now"),
            ("born 20080501, rating 1500", "born 20080501, rating 1500"),
            (
                "already masked 330702********1232",
                "already masked 330702********1232",
            ),
            ("张三", "张三"),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(mask_numbers_in(input), want, "input {input:?}");
        }
    }

    #[test]
    fn id_numbers_table() {
        let cases = [
            ("330702200805011234", "330702********1234"),
            ("11010519491231002X", "110105********002X"),
            ("33070220080", "330702*0080"),
            ("1234567890", "******7890"),
            ("12345", "*2345"),
            ("1234", "*234"),
            ("1", "*"),
            ("", ""),
            ("身份证号码很长很长的", "******长很长的"),
        ];
        for (input, want) in cases {
            assert_eq!(mask_id_number(input), want, "input {input:?}");
        }
    }

    #[test]
    fn phones_table() {
        let cases = [
            ("13812345678", "138****5678"),
            ("0579-82345678", "057******5678"),
            ("1234567", "***4567"),
            ("123", "*23"),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(mask_phone(input), want, "input {input:?}");
        }
    }

    #[test]
    fn masked_values_keep_their_length() {
        for s in ["", "1", "12345678901", "330702200805011234", "电话"] {
            assert_eq!(mask_id_number(s).chars().count(), s.chars().count());
            assert_eq!(mask_phone(s).chars().count(), s.chars().count());
        }
    }
}
