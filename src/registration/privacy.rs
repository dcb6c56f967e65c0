//! Masking of personal data (docs/architecture.md §7): ID-card and phone numbers are kept
//! in the state but masked wherever they are shown, and free text is masked for what an
//! ID number, a phone number or a birth date can look like in it.
//!
//! Owns only the masking rule; callers decide when the user asked for the full number
//! and which outputs show free text at all (public outputs never do).

use super::numerals;

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
/// `330702200805011234` → `330702********1234`. A 15-digit ID number (issued before
/// 1999: region, a 6-digit birth date, 3 digits) keeps its last 3, so no digit of the
/// birth date shows.
pub fn mask_id_number(id: &str) -> String {
    let n = id.chars().count();
    if n == 15 && id.chars().all(|c| c.is_ascii_digit()) {
        return mask(id, 6, 3);
    }
    mask(id, 6, 4)
}

/// A phone number with its first 3 and last 4 characters kept:
/// `13812345678` → `138****5678`.
pub fn mask_phone(phone: &str) -> String {
    mask(phone, 3, 4)
}

/// How a number found in text is masked: as an ID number (region and last 4 kept), as a
/// phone number (first 3 and last 4 kept), or left as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Id,
    Phone,
    Other,
}

/// What an ID or phone number looks like, for messages: 14 digits or more (an ID number,
/// or one with a digit too many or too few, `X` included) is an ID number; 11 to 13 digits
/// starting with `1` (a mobile), 10 to 13 starting with `0` (a landline with its area
/// code) or 13 starting with `86` (a mobile with the country code) is a phone number.
/// Anything else — a 10-digit rating sum, a table count, a seed — is not personal.
fn shape_for_messages(digits: &str) -> Shape {
    let n = digits.len();
    match n {
        14.. => Shape::Id,
        11..=13 if digits.starts_with('1') => Shape::Phone,
        10..=13 if digits.starts_with('0') => Shape::Phone,
        13 if digits.starts_with("86") => Shape::Phone,
        _ => Shape::Other,
    }
}

/// What an arbiter's free text may hide: any number of nine digits or more is masked (as
/// an ID number from 14 digits, else as a phone number), whatever its shape.
fn shape_for_free_text(digits: &str) -> Shape {
    match digits.len() {
        14.. => Shape::Id,
        9..=13 => Shape::Phone,
        _ => Shape::Other,
    }
}

/// `chars` with every number (in any form, its groups split by what `is_separator`
/// accepts, see [`super::numerals::runs`]) that `shape`
/// picks replaced by its masked ASCII digits; every other character as it was.
fn mask_runs(chars: &[char], is_separator: fn(char) -> bool, shape: fn(&str) -> Shape) -> String {
    let mut out = String::with_capacity(chars.len());
    let mut at = 0;
    for run in numerals::runs(chars, is_separator) {
        let masked = match shape(&run.digits) {
            Shape::Id => mask_id_number(&run.digits),
            Shape::Phone => mask_phone(&run.digits),
            Shape::Other => continue,
        };
        out.extend(&chars[at..run.start]);
        out.push_str(&masked);
        at = run.end;
    }
    out.extend(&chars[at..]);
    out
}

/// A message (an error or a warning quoting a cell) with what looks like an ID or phone
/// number masked — typed with any separator, in full width or in Chinese numerals — and
/// every other number left as it is: a 10-digit rating sum or a table count survives. A
/// safety net in case an ID or phone number was typed into the wrong column.
pub fn mask_numbers_in(text: &str) -> String {
    let chars: Vec<char> = text
        .chars()
        .filter(|&c| !numerals::is_invisible(c))
        .collect();
    mask_runs(&chars, numerals::is_separator, shape_for_messages)
}

/// Free text an arbiter typed (a penalty, withdrawal or disqualification reason, a note),
/// as `log`, `audit.log` and the terminal show it: invisible characters dropped; every
/// written date (`1990年1月1日`, `一九九〇年一月一日`, `1990-01-01`, `19900101`, `1/1/1990`,
/// `1月1日`) with its digits starred, since a birth date beside a masked ID number gives
/// the hidden 8 digits back; and every number of nine digits or more — in ASCII, full
/// width or Chinese numerals, its groups split by spaces, `-`, `.`, `_`, `/`, `／`, commas or
/// brackets, an ID's final `X` included — masked as an ID number (14 digits or more) or a
/// phone number (separators dropped). Shorter numbers (rounds, points) stay.
pub fn mask_free_text(text: &str) -> String {
    let mut chars: Vec<char> = text
        .chars()
        .filter(|&c| !numerals::is_invisible(c))
        .collect();
    for (start, end) in numerals::dates(&chars) {
        for c in &mut chars[start..end] {
            if numerals::digit_value(*c).is_some() || matches!(*c, '十' | '拾' | '廿' | '卅') {
                *c = '*';
            }
        }
    }
    mask_runs(&chars, numerals::is_separator_or_comma, shape_for_free_text)
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
            // The birth date is starred first; region and check digits stay, as in an ID mask.
            ("身份证 330702 19900101 123X", "身份证 330702 ******** 123X"),
            ("身份证 330702-1990-0101-123X", "身份证 330702********123X"),
            ("电话１３８１２３４５６７８", "电话138****5678"),
            ("第3轮 扣2分", "第3轮 扣2分"),
            ("第3轮 2018-10-27", "第3轮 ****-**-**"),
            ("round 5, table 12", "round 5, table 12"),
            ("already 330702********1234", "already 330702********1234"),
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

    /// Issue 42 §4: every way an ID number can be typed into a reason is masked, and a
    /// birth date written beside the masked number does not give the hidden digits back.
    #[test]
    fn hostile_forms_of_an_id_number_are_masked() {
        let hidden = ["19900101", "1990", "0101"];
        for text in [
            "3301.0219.9001.0112.34",
            "330102_19900101_1234",
            "３３０１０２１９９００１０１１２３４",
            "三三〇一〇二一九九〇〇一〇一一二三四",
            "叁叁零壹零贰壹玖玖零零壹零壹壹贰叁肆",
            "3301／0219／9001／0112／34",
            "3301/0219/9001/0112/34",
            "3301,0219,9001,0112,34",
            "③③⓪①⓪②①⑨⑨⓪⓪①⓪①①②③④",
            "330102 - 1990 0101 - 1234",
            "3301\u{200b}0219\u{200b}9001\u{200b}0112\u{200b}34",
            "330102********1234，生于1990年1月1日",
            "330102********1234，生于一九九〇年一月一日",
            "330102********1234 born 1990-01-01",
            "330102********1234 born 1990.1.1",
            "330102********1234 born 1990_01_01",
            "330102********1234 born 1990／01／01",
            "330102********1234 born 19900101",
            "330102********1234 born 1/1/1990",
            "330102********1234 born １９９０年１月１日",
        ] {
            let masked = mask_free_text(&format!("退赛：{text}。"));
            let digits: String = masked
                .chars()
                .filter_map(|c| numerals::digit_value(c).map(|d| char::from(b'0' + d)))
                .collect();
            for h in hidden {
                assert!(!digits.contains(h), "{text} → {masked}");
            }
        }
        let masked = mask_free_text("电话 138.1234.5678 或 一三八一二三四五六七八");
        assert_eq!(masked, "电话 138****5678 或 138****5678");
    }

    #[test]
    fn numbers_in_text_table() {
        let cases = [
            (
                "date `330702198001011232` is not a date",
                "date `330702********1232` is not a date",
            ),
            ("gender `33070219800101123x`", "gender `330702********123X`"),
            ("call 10012345678 now", "call 100****5678 now"),
            ("born 20080501, rating 1500", "born 20080501, rating 1500"),
            (
                "already masked 330702********1232",
                "already masked 330702********1232",
            ),
            ("id `3301.0219.8001.0112.32`", "id `330102********1232`"),
            (
                "id `３３０１０２１９８００１０１１２３２`",
                "id `330102********1232`",
            ),
            ("tel 0579-82345678", "tel 057*****5678"),
            ("tel +86 138 1234 5678", "tel +861******5678"),
            // Issue 42 §4: not every long digit run is personal.
            (
                "rating sum 1234567890 over 2345678 tables",
                "rating sum 1234567890 over 2345678 tables",
            ),
            ("seed 987654321", "seed 987654321"),
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
            ("330702800501123", "330702******123"),
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
