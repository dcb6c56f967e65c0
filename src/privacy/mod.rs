//! Masking of personal data (docs/architecture.md §7): ID-card and phone numbers are kept
//! in the state but masked wherever they are shown, and free text is masked for what an
//! ID number, a phone number or a birth date can look like in it.
//!
//! Owns only the masking rule; callers decide when the user asked for the full number
//! and which outputs show free text at all (public outputs never do). `numerals.rs`
//! finds the numbers and dates people type into free text; `argv.rs` masks a command
//! line as the audit log keeps it.

mod argv;
pub mod numerals;

pub use argv::masked_argv;

/// How many leading and trailing characters of `n` a mask keeping `head` and `tail`
/// keeps: both when the value is longer than both, else at most its last `tail` and at
/// least one star.
fn kept(n: usize, head: usize, tail: usize) -> (usize, usize) {
    if n > head + tail {
        (head, tail)
    } else {
        (0, tail.min(n.saturating_sub(1)))
    }
}

/// Keeps `head` leading and `tail` trailing characters and stars the rest; a value too
/// short to keep both keeps at most its last `tail` characters and at least one star.
fn mask(value: &str, head: usize, tail: usize) -> String {
    let chars: Vec<char> = value.chars().collect();
    let n = chars.len();
    let (keep_head, keep_tail) = kept(n, head, tail);
    let mut out = String::with_capacity(value.len());
    out.extend(&chars[..keep_head]);
    out.extend(std::iter::repeat_n('*', n - keep_head - keep_tail));
    out.extend(&chars[n - keep_tail..]);
    out
}

/// The characters an ID number keeps at its head and tail: the region (6) and the last
/// 4, or the last 3 of a 15-digit number (issued before 1999: region, a 6-digit birth
/// date, 3 digits), so no digit of the birth date shows.
fn id_kept(id: &str) -> (usize, usize) {
    if id.chars().count() == 15 && id.chars().all(|c| c.is_ascii_digit()) {
        (6, 3)
    } else {
        (6, 4)
    }
}

/// An ID number with its first 6 (region) and last 4 characters kept:
/// `330702200805011234` → `330702********1234`. A 15-digit ID number (issued before
/// 1999: region, a 6-digit birth date, 3 digits) keeps its last 3, so no digit of the
/// birth date shows.
pub fn mask_id_number(id: &str) -> String {
    let (head, tail) = id_kept(id);
    mask(id, head, tail)
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
/// The longest message [`mask_numbers_in`] masks whole; a longer one is cut to it.
const MAX_MESSAGE_CHARS: usize = 2_048;

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

/// What an arbiter's free text or a public field may hide: any number of
/// [`PERSONAL_DIGITS`] or more is masked (as an ID number from 14 digits, else as a phone
/// number), whatever its shape.
fn shape_for_free_text(digits: &str) -> Shape {
    match digits.len() {
        14.. => Shape::Id,
        n if n >= PERSONAL_DIGITS => Shape::Phone,
        _ => Shape::Other,
    }
}

/// What stands in the place of each character of a text being masked: `None` keeps the
/// character, `Some(s)` puts `s` (stars, or nothing) in its place.
type Edits = Vec<Option<&'static str>>;

/// Stars in `edits` the hidden digits of every number in `chars` (in any form, its groups
/// split by what `is_separator` accepts, two numbers side by side each by itself, see
/// [`numerals::numbers_in`]) that `shape` picks: each hidden digit is one star where it
/// stands, and the separators, the kept digits and the text around stay as typed.
fn star_numbers(
    chars: &[char],
    edits: &mut Edits,
    is_separator: fn(char) -> bool,
    shape: fn(&str) -> Shape,
    dates: &[numerals::Date],
) {
    for run in numerals::runs(chars, is_separator) {
        for number in numerals::numbers_in(&run, dates) {
            let (head, tail) = match shape(&number.digits) {
                Shape::Id => id_kept(&number.digits),
                Shape::Phone => (3, 4),
                Shape::Other => continue,
            };
            let n = number.at.len();
            let (keep_head, keep_tail) = kept(n, head, tail);
            for &i in &number.at[keep_head..n - keep_tail] {
                edits[i].get_or_insert("*");
            }
        }
    }
}

/// `chars` with `edits` made.
fn apply(chars: &[char], edits: &Edits) -> String {
    let mut out = String::with_capacity(chars.len());
    for (&c, edit) in chars.iter().zip(edits) {
        match edit {
            Some(s) => out.push_str(s),
            None => out.push(c),
        }
    }
    out
}

/// `text` without its invisible characters, as characters.
fn visible_chars(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| !crate::sanitize::is_invisible(c))
        .collect()
}

/// A message (an error or a warning quoting a cell) with what looks like an ID or phone
/// number masked — typed with any separator, in full width or in Chinese numerals, its
/// hidden digits starred in place (`139.****.5678`) — and every other number left as it
/// is: a 10-digit rating sum or a table count survives. A safety net in case an ID or
/// phone number was typed into the wrong column.
pub fn mask_numbers_in(text: &str) -> String {
    // A message quoting a whole cell or a library's error (the fuzz campaign found one
    // quoting 140 KB of an attribute, which took 21 s to mask) is cut first: no message
    // needs more, and the printed line is cut shorter still. The cut drops the word or
    // number it falls in, so no part of a number is left unmasked at the end.
    let mut chars = visible_chars(text);
    if chars.len() > MAX_MESSAGE_CHARS {
        chars.truncate(MAX_MESSAGE_CHARS);
        while chars
            .last()
            .is_some_and(|&c| c.is_alphanumeric() || numerals::is_separator(c))
        {
            chars.pop();
        }
        chars.push('…');
    }
    let mut edits = vec![None; chars.len()];
    star_numbers(
        &chars,
        &mut edits,
        numerals::is_separator,
        shape_for_messages,
        &[],
    );
    apply(&chars, &edits)
}

/// Free text an arbiter typed (a penalty, withdrawal or disqualification reason, a note),
/// as `log`, `audit.log` and the terminal show it: invisible characters dropped; every
/// written date (see [`numerals::dates`] for the forms and where the line is: a year
/// alone, a round, a table, a score, a time or a rating stays) with its year starred digit
/// for digit and its month and day each as `**`, whatever their length or script
/// (`1990年元月1日` → `****年**月**日`, `Jan 1, 1990` → `** **, ****`), since a birth date
/// beside a masked ID number gives the hidden 8 digits back; and every number of nine
/// digits or more — in ASCII, full width or Chinese numerals, its groups split by spaces,
/// `-`, `.`, `_`, `/`, `／`, commas or brackets, an ID's final `X` included, two numbers
/// side by side each by itself — masked as an ID number (14 digits or more) or a phone
/// number, its hidden digits starred where they stand. Nothing else changes.
pub fn mask_free_text(text: &str) -> String {
    mask_text(text, shape_for_free_text)
}

/// A column a public output shows although the organiser typed it as free text (the
/// 领队 and 教练 of the programme, `views/programme.rs`): [`mask_free_text`]'s dates,
/// and every digit of a number starred where it stands, whatever its length or the
/// marks between its groups (`王领队 8234567` → `王领队 *******`, `钱七 138、0013、8000`
/// → `钱七 ***、****、****`): every Arabic digit (ASCII, full width, circled …), and a
/// Chinese numeral in a run of two or more (`一三七…`), so that the 五 of 王五 stays
/// part of the name. Such a column names a person; whatever number stands in it is a
/// contact, never something to print.
pub fn mask_public_text(text: &str) -> String {
    let chars = visible_chars(text);
    let mut edits: Edits = vec![None; chars.len()];
    star_dates(&mut edits, &numerals::dates(&chars));
    for (edit, digit) in edits.iter_mut().zip(public_digits(&chars)) {
        if digit {
            edit.get_or_insert("*");
        }
    }
    apply(&chars, &edits)
}

/// Which of `chars` (a field every public output shows) are digits of a number: every
/// Arabic digit (ASCII, full width, circled, super- and subscript …) wherever it stands,
/// and a Chinese numeral (〇一二…, 零壹贰…, 十廿) only in a run of two or more, since a
/// lone one is a character of a name (张三, 王五, 刘二) or a unit (一中).
fn public_digits(chars: &[char]) -> Vec<bool> {
    let chinese = |k: usize| {
        chars
            .get(k)
            .is_some_and(|&c| numerals::is_chinese_numeral(c))
    };
    (0..chars.len())
        .map(|k| {
            if chinese(k) {
                (k > 0 && chinese(k - 1)) || chinese(k + 1)
            } else {
                numerals::digit_value(chars[k]).is_some()
            }
        })
        .collect()
}

/// The fewest digits of a personal number (an ID or a phone, its area code or country
/// code included) in a name or a unit, which every public output prints: a number of as
/// many digits or more is refused in a name and masked in a unit; a shorter one
/// (`61001部队`, a local line without its area code) may be a unit's own.
pub const PERSONAL_DIGITS: usize = 9;

/// A field every public output shows (a player's 姓名 and 单位) with each number of
/// [`PERSONAL_DIGITS`] or more in it masked as free text masks it
/// (`甲队（联系13700137000）` → `甲队（联系137****7000）`, an ID number typed into the
/// wrong column → `110101********1233`); its digits counted as [`public_digits`] does,
/// so a lone Chinese numeral ending a name is no digit of the number after it
/// (`张三 82345678` holds 8 digits, as `张飞 82345678` does). Dates and shorter numbers
/// stay (`61001部队`, `2024年3月集训队`), since a unit's name may hold them. The name
/// check and the unit check of `registration/row.rs` refuse or warn when this changes
/// the field; the result changes nothing when masked again.
pub fn mask_public_field(text: &str) -> String {
    let chars = visible_chars(text);
    // A lone Chinese numeral is read as the letter it is in a name, not as a digit.
    let counted: Vec<char> = chars
        .iter()
        .zip(public_digits(&chars))
        .map(
            |(&c, digit)| match !digit && numerals::is_chinese_numeral(c) {
                true => '\u{fffc}',
                false => c,
            },
        )
        .collect();
    let mut edits: Edits = vec![None; chars.len()];
    star_numbers(
        &counted,
        &mut edits,
        numerals::is_separator_or_comma,
        shape_for_free_text,
        &[],
    );
    apply(&chars, &edits)
}

/// What a user typed as a name, a group or a list, as an error message quotes it back:
/// masked as [`personal_number_in`] masks a stored name where it holds an ID or phone
/// number (a phone number typed to find a player is not echoed whole), else as typed.
pub fn typed(text: &str) -> std::borrow::Cow<'_, str> {
    personal_number_in(text).map_or(std::borrow::Cow::Borrowed(text), std::borrow::Cow::Owned)
}

/// A field every public output shows (a player's 姓名 or 单位) as [`mask_public_field`]
/// masks it, when it holds a number of [`PERSONAL_DIGITS`] or more; `None` when it holds
/// none, so that the field is printed as stored (its invisible characters too). A state
/// written by an older qiwang or edited by hand may hold such a field: the views print it
/// masked and `check` names it.
pub fn personal_number_in(text: &str) -> Option<String> {
    // No Chinese numeral stands for more than two digits (十, 廿): a field with fewer
    // numerals than half of PERSONAL_DIGITS holds no such number (almost every name).
    if text.chars().filter(|&c| numerals::is_numeral(c)).count() * 2 < PERSONAL_DIGITS {
        return None;
    }
    let masked = mask_public_field(text);
    (masked != visible_chars(text).into_iter().collect::<String>()).then_some(masked)
}

/// `text` with its invisible characters dropped, every written date starred (see
/// [`mask_free_text`]) and every number `shape` picks masked.
fn mask_text(text: &str, shape: fn(&str) -> Shape) -> String {
    let chars = visible_chars(text);
    let mut edits: Edits = vec![None; chars.len()];
    let dates = numerals::dates(&chars);
    star_dates(&mut edits, &dates);
    star_numbers(
        &chars,
        &mut edits,
        numerals::is_separator_or_comma,
        shape,
        &dates,
    );
    apply(&chars, &edits)
}

/// Stars in `edits` every one of `dates`: its year digit for digit, its month
/// and day as `**` each, whatever their length or script.
fn star_dates(edits: &mut Edits, dates: &[numerals::Date]) {
    for part in dates.iter().flat_map(|d| &d.parts) {
        for (k, edit) in edits[part.start..part.end].iter_mut().enumerate() {
            *edit = Some(match (part.year, k == 0) {
                (true, _) => "*",
                (false, true) => "**",
                (false, false) => "",
            });
        }
    }
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

    /// Found by the fuzz campaign (xlsx case 26413 of seed 43): the workbook library's
    /// error quoted a 140 KB attribute, and masking it took 21 s. A message is cut before
    /// it is masked, never through a number.
    #[test]
    fn an_overlong_message_is_cut_before_it_is_masked_and_never_through_a_number() {
        let long = format!("{}身份证 330102199001011234", "\\0\\*".repeat(50_000));
        let masked = mask_numbers_in(&long);
        assert!(
            masked.chars().count() <= MAX_MESSAGE_CHARS + 1,
            "{}",
            masked.len()
        );
        assert!(masked.ends_with('…'));
        let id_at_cut = format!("{}330102199001011234", "x ".repeat(1_020));
        let masked = mask_numbers_in(&id_at_cut);
        assert!(!masked.contains("3301"), "{masked}");
        assert!(!masked.chars().any(|c| c.is_ascii_digit()), "{masked}");
        let short = "身份证 330102199001011234";
        assert_eq!(mask_numbers_in(short), "身份证 330102********1234");
    }

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
            ("电话 138-1234-5678。", "电话 138-****-5678。"),
            // The birth date is starred first; region and check digits stay, as in an ID mask.
            ("身份证 330702 19900101 123X", "身份证 330702 ******** 123X"),
            (
                "身份证 330702-1990-0101-123X",
                "身份证 330702-****-****-123X",
            ),
            ("电话１３８１２３４５６７８", "电话１３８****５６７８"),
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
        assert_eq!(masked, "电话 138.****.5678 或 一三八****五六七八");
    }

    /// The digits `masked` still shows, as ASCII, in any script.
    fn shown_digits(masked: &str) -> String {
        masked
            .chars()
            .filter_map(|c| numerals::digit_value(c).map(|d| char::from(b'0' + d)))
            .collect()
    }

    /// The forms an independent tester found readable: every one masked, with no digit
    /// of the date (nor a month's name) left, and the text around it as typed.
    #[test]
    fn every_form_of_a_birth_date_is_masked() {
        let cases = [
            // Marks with spaces around them, commas, backslashes.
            ("生日 1990 / 01 / 01", "生日 **** / ** / **"),
            ("生日 1990 - 01 - 01", "生日 **** - ** - **"),
            ("生日 1990,01,01", "生日 ****,**,**"),
            ("生日 1990，01，01", "生日 ****，**，**"),
            ("生日 1990\\01\\01", "生日 ****\\**\\**"),
            ("生日 1990 01 01", "生日 **** ** **"),
            ("生日 1 / 1 / 1990", "生日 ** / ** / ****"),
            // Month names in Chinese, lunar days, two-digit years: the year too.
            ("生日一九九〇年元月一日", "生日****年**月**日"),
            ("生日1990年元月1日", "生日****年**月**日"),
            ("生日1990年正月初一", "生日****年**月**"),
            ("生日一九九〇年腊月廿三", "生日****年**月**"),
            ("生日1990年冬月初十", "生日****年**月**"),
            ("生日1990年元旦", "生日****年**"),
            ("生日九〇年一月一号", "生日**年**月**号"),
            ("生日90年1月1日", "生日**年**月**日"),
            ("1990年1月出生", "****年**月出生"),
            ("生日正月初一", "生日**月**"),
            ("生日十二月三十一号", "生日**月**号"),
            // English month names and abbreviations.
            ("born Jan 1, 1990", "born ** **, ****"),
            ("born 1 January 1990", "born ** ** ****"),
            ("born 1st Jan 1990", "born ** ** ****"),
            ("born the 1st of January, 1990", "born the ** of **, ****"),
            ("born 01-Jan-1990", "born **-**-****"),
            ("born 01-jan-90", "born **-**-**"),
            ("born Sept. 3rd '90", "born **. ** ***"),
            ("born 1990 Dec 31", "born **** ** **"),
            ("born in January 1990", "born in ** ****"),
            // Two-digit years.
            ("生日 90.1.1", "生日 **.**.**"),
            ("生日 90/1/1", "生日 **/**/**"),
            ("生日 1/1/90", "生日 **/**/**"),
            ("生日 ９０．１．１", "生日 **．**．**"),
            // A date after a start number: the number and the spaces stay.
            ("N13 1990 - 01 - 01", "N13 **** - ** - **"),
            ("N13 1990年1月1日", "N13 ****年**月**日"),
        ];
        for (input, want) in cases {
            let masked = mask_free_text(input);
            assert_eq!(masked, want, "input {input:?}");
            let date_digits: String = shown_digits(&masked)
                .chars()
                .filter(|_| !input.starts_with("N13"))
                .collect();
            assert!(date_digits.is_empty(), "{input} → {masked}");
            for name in ["jan", "sep", "dec", "元", "正", "腊", "冬", "初", "旦"] {
                assert!(!masked.to_lowercase().contains(name), "{input} → {masked}");
            }
        }
        assert_eq!(shown_digits(&mask_free_text("N13 1990 - 01 - 01")), "13");
    }

    /// Two numbers next to each other are each masked as themselves, the grouping as
    /// typed, and no hidden digit shows.
    #[test]
    fn numbers_side_by_side_are_each_masked_as_themselves() {
        let cases = [
            (
                "手机 138-1234-5678 / 13812345678",
                "手机 138-****-5678 / 138****5678",
            ),
            ("13812345678,13912345678", "138****5678,139****5678"),
            (
                "电话 138 1234 5678 1990-01-01 139 1234 5678",
                "电话 138 **** 5678 ****-**-** 139 **** 5678",
            ),
            ("N13 13812345678", "N13 138****5678"),
            (
                "电话13812345678 身份证33010219900101123X",
                "电话138****5678 身份证330102********123X",
            ),
            (
                "13812345678 330102 19900101 123X",
                "138****5678 330102 ******** 123X",
            ),
        ];
        for (input, want) in cases {
            let masked = mask_free_text(input);
            assert_eq!(masked, want, "input {input:?}");
            let digits = shown_digits(&masked);
            for hidden in ["1234", "19900101", "0101"] {
                assert!(!digits.contains(hidden), "{input} → {masked}");
            }
        }
    }

    /// A public column typed as free text (the programme's 领队 and 教练) keeps its
    /// names and stars every digit of a number, in any script.
    #[test]
    fn public_text_keeps_names_and_stars_every_digit() {
        let cases = [
            ("王五 13700137000", "王五 ***********"),
            ("王五(手机13700137000)", "王五(手机***********)"),
            ("李教练 110101199003071233", "李教练 ******************"),
            ("李教练 11010519491231002X", "李教练 *****************X"),
            ("赵领队 137-0013-7000", "赵领队 ***-****-****"),
            ("钱 一三七零零一三七零零零", "钱 ***********"),
            ("王领队 8234567", "王领队 *******"),
            ("QQ 12345", "QQ *****"),
            ("李四（二级教练）", "李四（二级教练）"),
            ("王一、张三丰", "王一、张三丰"),
            ("1234", "****"),
            // 、 and | are no separators of a number, yet every digit is starred.
            ("钱七 138、0013、8000", "钱七 ***、****、****"),
            ("王五 138|0013|8000", "王五 ***|****|****"),
            // A name's last character is no digit of the number after it.
            ("王五 1234", "王五 ****"),
            ("刘二 82345678", "刘二 ********"),
            ("张三 ８２３４５６７８", "张三 ********"),
            ("孙八 ⑧②③④⑤", "孙八 *****"),
            ("周九 电话三五七九", "周九 电话****"),
            ("李四 1990年1月1日", "李四 ****年**月**日"),
        ];
        for (input, want) in cases {
            assert_eq!(mask_public_text(input), want, "input {input:?}");
        }
    }

    /// A unit or a name keeps its characters, dates and short numbers; a long number in
    /// it is masked, a lone Chinese numeral of the name is no digit of it, and masking
    /// twice changes nothing.
    #[test]
    fn long_numbers_in_a_public_field_are_masked_and_the_rest_stays() {
        let cases = [
            ("110101199003071233", "110101********1233"),
            ("甲队（联系13700137000）", "甲队（联系137****7000）"),
            ("解放军61001部队", "解放军61001部队"),
            ("2024年3月集训队", "2024年3月集训队"),
            ("婺城区棋协", "婺城区棋协"),
            // 8 digits after a name, whatever its last character.
            ("张飞 82345678", "张飞 82345678"),
            ("张三 82345678", "张三 82345678"),
            ("刘二82345678", "刘二82345678"),
            ("张三 823456789", "张三 823**6789"),
            ("一中 13700137000", "一中 137****7000"),
            ("钱 一三七零零一三七零零零", "钱 一三七****七零零零"),
        ];
        for (input, want) in cases {
            let masked = mask_public_field(input);
            assert_eq!(masked, want, "input {input:?}");
            assert_eq!(mask_public_field(&masked), masked, "input {input:?}");
        }
    }

    /// A field holding a long number is given masked, every other one (a masked number
    /// among them, or one with an invisible character) not at all; the prefilter lets
    /// through a number written with the Chinese tens.
    #[test]
    fn only_a_field_with_a_personal_number_is_given_masked() {
        let cases = [
            ("张三110101199003071234", Some("张三110101********1234")),
            ("13800138000", Some("138****8000")),
            ("钱 一三七零零一三七零零零", Some("钱 一三七****七零零零")),
            ("甲队（联系137****7000）", None),
            ("解放军61001部队", None),
            ("张\u{200b}三", None),
            ("王五", None),
        ];
        for (input, want) in cases {
            assert_eq!(
                personal_number_in(input).as_deref(),
                want,
                "input {input:?}"
            );
        }
        let tens = "廿廿廿廿廿";
        assert_eq!(
            personal_number_in(tens),
            (mask_public_field(tens) != tens).then(|| mask_public_field(tens))
        );
    }

    /// Where the line is: what is not personal stays as typed.
    #[test]
    fn ordinary_numbers_stay_readable() {
        for text in [
            "第3轮 12台 比分2:1 10:30开始 等级分1850",
            "2018年金华象棋公开赛 第3轮",
            "2018年第3轮 扣2分",
            "90年代",
            "round 3, table 12, score 1-0, at 10:30",
            "in 2018, 3 players withdrew",
            "规则 3.1.2",
            "正月十五",
            "初一组",
            "players may 2",
            "1、2、3",
            "rating sum 12345678",
        ] {
            assert_eq!(mask_free_text(text), text);
        }
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
            ("id `3301.0219.8001.0112.32`", "id `3301.02**.****.**12.32`"),
            (
                "id `３３０１０２１９８００１０１１２３２`",
                "id `３３０１０２********１２３２`",
            ),
            ("tel 0579-82345678", "tel 057*-****5678"),
            ("tel +86 138 1234 5678", "tel +86 1** **** 5678"),
            // Two numbers side by side, each masked as itself.
            ("tel 13812345678 13912345678", "tel 138****5678 139****5678"),
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
