//! What goes into a cell and a sheet's name: text cleaned of control characters and cut
//! to Excel's limit, plain numbers told from codes, money columns, display widths of CJK
//! text, and valid, unique sheet names (quoted for formulas).

use std::borrow::Cow;
use std::collections::BTreeSet;

/// The widest a column is made, in characters (longer text wraps on paper).
pub(super) const MAX_WIDTH: usize = 48;

/// Whether a column holds money (奖金, 金额, money, amount): two decimals and a total.
pub(super) fn is_money(header: &str) -> bool {
    let h = header.to_lowercase();
    ["奖金", "金额", "money", "amount", "prize money"]
        .iter()
        .any(|k| h.contains(k))
}

/// A number as a number column holds it: digits with an optional sign and one point, no
/// leading zero (a `007` is a code, not seven), at most 15 digits (what Excel keeps).
pub(super) fn as_number(text: &str) -> Option<f64> {
    let t = text.trim();
    let digits = t.trim_start_matches('-');
    if digits.is_empty()
        || digits.chars().filter(char::is_ascii_digit).count() > 15
        || !digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        || digits.matches('.').count() > 1
        || digits.starts_with('.')
        || digits.ends_with('.')
        || (digits.len() > 1 && digits.starts_with('0') && !digits.starts_with("0."))
    {
        return None;
    }
    t.parse().ok()
}

/// Control characters (a terminal escape) and the bidirectional overrides that make text
/// show in another order removed (`report::safe::printable`), newlines and tabs made
/// spaces; the text is otherwise kept as written, and always written as a string cell.
/// Borrowed when there is nothing to change (most cells: a number column's cell is only
/// parsed, never copied).
///
/// Text longer than a cell holds ([`CELL_TEXT_MAX`]) is cut, ending in "…": the HTML,
/// CSV and JSON outputs keep it whole.
pub(super) fn clean(text: &str) -> Cow<'_, str> {
    // `printable` leaves only newline and tab of the control characters.
    let cleaned = match crate::report::safe::printable(text) {
        Cow::Borrowed(t) if !t.contains(['\n', '\t']) => Cow::Borrowed(t),
        t => Cow::Owned(t.replace(['\n', '\t'], " ")),
    };
    // A UTF-8 byte never stands for more than one UTF-16 unit.
    if cleaned.len() <= CELL_TEXT_MAX {
        return cleaned;
    }
    let mut units = 0;
    for (at, c) in cleaned.char_indices() {
        if units + c.len_utf16() > CELL_TEXT_MAX - 1 {
            return Cow::Owned(format!("{}…", &cleaned[..at]));
        }
        units += c.len_utf16();
    }
    cleaned
}

/// Excel's limit on a cell's text, in UTF-16 units (Excel refuses a file with longer text).
pub(super) const CELL_TEXT_MAX: usize = 32_767;

/// How wide text shows: CJK and full-width characters take two columns.
pub(super) fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| {
            if (c as u32) >= 0x1100 && !matches!(c as u32, 0x2010..=0x206F) {
                2
            } else {
                1
            }
        })
        .sum()
}

/// Excel's limit on a sheet name, in UTF-16 units (what Excel counts: a character such
/// as 𠀀 takes two).
pub(super) const SHEET_NAME_MAX: usize = 31;

/// A valid, unique worksheet name: at most [`SHEET_NAME_MAX`] UTF-16 units, none of
/// `[]:*?/\`, no apostrophe or space at either end, not empty, and not `History`, which
/// Excel keeps for itself. The name is decided as the workbook will hold it: the
/// non-characters U+FFFE and U+FFFF (and the control characters `clean` leaves none of),
/// which `xml::escape_markup` would write as U+FFFD, are U+FFFD here already, so that
/// uniqueness is judged on the written name.
pub(super) fn unique_name(taken: &mut BTreeSet<String>, wanted: &str) -> String {
    let replaced: String = clean(wanted)
        .chars()
        .map(|c| match c {
            '[' | ']' | ':' | '*' | '?' | '/' | '\\' => '_',
            '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
            c if c < ' ' => '\u{fffd}',
            c => c,
        })
        .collect();
    // Trimmed again after the cut, which may end the name on a space or an apostrophe.
    let fit = |text: &str, max: usize| trim_name(cut_utf16(trim_name(text), max)).to_string();
    let base = match fit(&replaced, SHEET_NAME_MAX) {
        base if base.is_empty() => "Sheet".to_string(),
        base => base,
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name.to_lowercase()) || name.eq_ignore_ascii_case("history") {
        let suffix = format!(" ({n})");
        name = format!("{}{suffix}", fit(&base, SHEET_NAME_MAX - suffix.len()));
        n += 1;
    }
    taken.insert(name.to_lowercase());
    name
}

/// `text` without spaces and apostrophes at its ends (Excel refuses a sheet name that
/// begins or ends with an apostrophe).
fn trim_name(text: &str) -> &str {
    text.trim_matches(|c: char| c == '\'' || c.is_whitespace())
}

/// The longest start of `text`, in whole characters, of at most `max` UTF-16 units.
fn cut_utf16(text: &str, max: usize) -> &str {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        units += c.len_utf16();
        if units > max {
            return &text[..i];
        }
    }
    text
}

/// `'成人组 排名'` as a formula names a sheet.
pub(super) fn quote_sheet(name: &str) -> String {
    format!("'{}'", name.replace('\'', "''"))
}

pub(super) fn col(c: usize) -> u16 {
    u16::try_from(c).unwrap_or(u16::MAX)
}
