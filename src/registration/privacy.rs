//! Masking of personal data (DESIGN.md "Data and persistence": ID-card and phone numbers
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

#[cfg(test)]
mod tests {
    use super::*;

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
