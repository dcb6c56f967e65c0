//! What an ID number, a phone number or a date can look like when a person types it into
//! free text: digits in ASCII, full width (`１３８`) or Chinese numerals (`一三八`,
//! `壹叁捌`), split by spaces, hyphens, dots, underscores or slashes (`3301.0219…`,
//! `330102_19900101_1234`, `138／1234／5678`); where one number ends and the next begins
//! when they stand side by side (`138-1234-5678 / 13812345678`); and dates written in
//! any of the usual ways:
//!
//! - Chinese: `1990年1月1日`, `一九九〇年一月一日`, `九〇年一月一号`, `1990年元月1日`
//!   (元/正月, 冬月, 腊月), `1990年正月初一`, `1990年元旦`, `1990年1月`, `1月1日`;
//! - numbers, the year first or last, with any mark (`-`, `.`, `/`, `\`, `_`, a comma or
//!   `、`, in ASCII or full width, up to two spaces around it) or spaces alone:
//!   `1990-01-01`, `1990 / 01 / 01`, `1990,01,01`, `1990\01\01`, `19900101`, `1/1/1990`,
//!   and with a two-digit year `90.1.1`, `90/1/1`, `1/1/90`;
//! - English month names, in full or shortened: `Jan 1, 1990`, `1 January 1990`,
//!   `1st of Jan 1990`, `01-Jan-1990`, `01-Jan-90`, `1990 Jan 1`, `January 1990`, `Jan 1`.
//!
//! Owns only recognising these forms (where they are in the text and which digits they
//! hold); `privacy.rs` decides what is masked and how.

/// The value of a digit in any of the forms people type: ASCII, full width, the Chinese
/// numerals of a written-out number (〇一二三四五六七八九, with ○ and 零) and their
/// financial forms (壹贰叁肆伍陆柒捌玖, traditional 貳參陸), 幺 (one, as a phone number
/// is read aloud), and the look-alikes a keyboard or phone offers: circled (①), super-
/// and subscript (¹, ₁) and mathematical (𝟏) digits.
pub(crate) fn digit_value(c: char) -> Option<u8> {
    let v = match c {
        '0'..='9' => c as u32 - '0' as u32,
        '\u{ff10}'..='\u{ff19}' => c as u32 - 0xff10,
        '\u{2460}'..='\u{2468}' => c as u32 - 0x245f,
        '\u{24ea}' | '\u{2070}' | '\u{2080}' => 0,
        '\u{b9}' => 1,
        '\u{b2}' => 2,
        '\u{b3}' => 3,
        '\u{2074}'..='\u{2079}' => c as u32 - 0x2070,
        '\u{2081}'..='\u{2089}' => c as u32 - 0x2080,
        '\u{1d7ce}'..='\u{1d7ff}' => (c as u32 - 0x1d7ce) % 10,
        '〇' | '○' | '零' => 0,
        '一' | '壹' | '幺' => 1,
        '二' | '贰' | '貳' => 2,
        '三' | '叁' | '參' => 3,
        '四' | '肆' => 4,
        '五' | '伍' => 5,
        '六' | '陆' | '陸' => 6,
        '七' | '柒' => 7,
        '八' | '捌' => 8,
        '九' | '玖' => 9,
        _ => return None,
    };
    Some(v as u8)
}

fn is_digit(c: char) -> bool {
    digit_value(c).is_some()
}

/// The characters a person puts between the groups of a long number: spaces, hyphens
/// and dashes, dots, underscores, slashes and brackets, in ASCII and full width, and the
/// keycap mark of `3️⃣`.
const SEPARATORS: &[char] = &[
    ' ', '\u{3000}', '\u{a0}', '\u{20e3}', '-', '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}',
    '\u{2014}', '\u{2015}', '\u{2212}', '－', '.', '．', '·', '_', '＿', '/', '／', '\\', '＼',
    '(', ')', '（', '）',
];

/// Whether `c` is one of [`SEPARATORS`].
pub(crate) fn is_separator(c: char) -> bool {
    SEPARATORS.contains(&c)
}

/// [`is_separator`], or a comma (`3301,0219,…`). In free text a comma between digits is
/// taken as part of a number; a message lists values with commas (`2008-05-01, 2008/5/1`),
/// so its numbers are split there.
pub(crate) fn is_separator_or_comma(c: char) -> bool {
    is_separator(c) || matches!(c, ',' | '，')
}

/// A number in text: the characters `start..end` hold `digits` (as ASCII, an ID
/// number's final `X` included), the separators between them left out; `at` is where
/// each of the digits stands, so that a mask can star them in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Run {
    pub start: usize,
    pub end: usize,
    pub digits: String,
    pub at: Vec<usize>,
}

impl Run {
    /// The digits `from..to` (indices into `digits`) as a number of their own.
    fn part(&self, from: usize, to: usize) -> Run {
        Run {
            start: self.at[from],
            end: self.at[to - 1] + 1,
            digits: self.digits[from..to].to_string(),
            at: self.at[from..to].to_vec(),
        }
    }

    /// Where the groups of digits begin (indices into `digits`, a separator before each
    /// but the first), and the number of digits last.
    fn group_bounds(&self) -> Vec<usize> {
        let mut out = vec![0];
        out.extend((1..self.at.len()).filter(|&i| self.at[i] > self.at[i - 1] + 1));
        out.push(self.at.len());
        out
    }
}

/// At most this many separators may stand between two groups of one number
/// (`330102 - 1990`).
const MAX_GAP: usize = 3;

/// Every number in `chars`, longest first from each start: digits of any form, with up to
/// [`MAX_GAP`] characters that `is_separator` accepts between groups; after 17 digits or
/// more an `X` (an ID number's check character) belongs to the number.
pub(crate) fn runs(chars: &[char], is_separator: fn(char) -> bool) -> Vec<Run> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !is_digit(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let mut digits = String::new();
        let mut at = Vec::new();
        let mut end = i;
        let mut j = i;
        loop {
            match chars.get(j).copied().and_then(digit_value) {
                Some(d) => {
                    digits.push(char::from(b'0' + d));
                    at.push(j);
                    j += 1;
                    end = j;
                }
                None => {
                    let gap = chars[j..]
                        .iter()
                        .take(MAX_GAP + 1)
                        .take_while(|&&c| is_separator(c))
                        .count();
                    if (1..=MAX_GAP).contains(&gap)
                        && chars.get(j + gap).is_some_and(|&c| is_digit(c))
                    {
                        j += gap;
                    } else {
                        break;
                    }
                }
            }
        }
        if digits.len() >= 17 {
            let gap = chars[end..]
                .iter()
                .take(MAX_GAP)
                .take_while(|&&c| is_separator(c))
                .count();
            if let Some(&x) = chars.get(end + gap)
                && matches!(x, 'X' | 'x' | 'Ｘ' | 'ｘ')
            {
                digits.push('X');
                at.push(end + gap);
                end += gap + 1;
            }
        }
        out.push(Run {
            start,
            end,
            digits,
            at,
        });
        i = end;
    }
    out
}

/// Whether `digits` (a [`Run`]'s) have the length and start of one personal number: an
/// ID number (15 digits, or 17 and a check digit or `X`), a mobile (11 digits from `1`,
/// 13 from `86`) or a landline with its area code (10 to 12 digits from `0`).
pub(crate) fn is_whole_number(digits: &str) -> bool {
    let all_digits = |n: usize| digits.bytes().take(n).all(|b| b.is_ascii_digit());
    match digits.len() {
        18 => all_digits(17),
        15 => all_digits(15),
        11 if digits.starts_with('1') => all_digits(11),
        13 if digits.starts_with("86") => all_digits(13),
        10..=12 if digits.starts_with('0') => all_digits(digits.len()),
        _ => false,
    }
}

/// At most this many digits make a short number (a round, a table, a start number such
/// as `N13`) that may stand at either end of a run holding other numbers.
const SHORT: usize = 3;

/// The most digits one part of a run can hold: an 18-digit ID number, the longest of the
/// whole numbers [`is_whole_number`] takes (a date or a short number holds fewer).
const MAX_PART_DIGITS: usize = 18;

/// The numbers a run holds, each to be masked as itself. A run that is one personal
/// number ([`is_whole_number`]) is one number. Otherwise, when its groups split into parts
/// that are each a personal number, a written date (one of `dates`, starred as a date), or
/// a short number of at most [`SHORT`] digits at either end, the personal numbers are the
/// parts: `138-1234-5678 / 13812345678` is two phones, not a 22-digit ID whose first six
/// digits would show three of the first phone's hidden ones, and in `N13 1990 - 01 - 01`
/// the `13` is a start number and the rest a date. No part holds only some of a date's
/// digits. The fewest parts win. A run that splits
/// no such way is one number, whatever its length; dates and short parts are left out.
pub(crate) fn numbers_in(run: &Run, dates: &[Date]) -> Vec<Run> {
    if is_whole_number(&run.digits) {
        return vec![run.clone()];
    }
    let bounds = run.group_bounds();
    let groups = bounds.len() - 1;
    // best[j]: the fewest parts covering groups 0..j, and the group the last part starts at.
    let mut best: Vec<Option<(usize, usize)>> = vec![None; groups + 1];
    best[0] = Some((0, 0));
    // Whether the run holds a digit of each date, once (not per part).
    let touched: Vec<bool> = dates
        .iter()
        .map(|d| run.at.iter().any(|&k| (d.start..d.end).contains(&k)))
        .collect();
    // No part can be longer than the longest whole number (18 digits, an ID): a date or a
    // short number is shorter still. Only the groups within that reach of `j` are tried,
    // so a long run of short groups costs in proportion to its length, not its square.
    let mut reach = 0;
    for j in 1..=groups {
        while bounds[j] - bounds[reach] > MAX_PART_DIGITS {
            reach += 1;
        }
        for i in reach..j {
            let Some((count, _)) = best[i] else {
                continue;
            };
            let (from, to) = (bounds[i], bounds[j]);
            let digits = &run.digits[from..to];
            let (first, last) = (run.at[from], run.at[to - 1]);
            let dated = dates.iter().any(|d| d.start <= first && last < d.end);
            // A part takes a date whole or leaves it: `138 1234 5678 1990-01-01` is not
            // a 15-digit ID and the rest of the date.
            let cuts_a_date = dates.iter().zip(&touched).any(|(d, &touched)| {
                let inside = |k: usize| (d.start..d.end).contains(&k);
                let holds = run.at[from..to].iter().any(|&k| inside(k));
                let leaves = touched && !(first <= d.start && d.end <= last + 1);
                holds && leaves
            });
            let short = digits.len() <= SHORT && (i == 0 || j == groups);
            if (dated || (!cuts_a_date && (is_whole_number(digits) || short)))
                && best[j].is_none_or(|(c, _)| count + 1 < c)
            {
                best[j] = Some((count + 1, i));
            }
        }
    }
    let mut parts = Vec::new();
    let mut j = groups;
    while j > 0 {
        let Some((_, i)) = best[j] else {
            return vec![run.clone()];
        };
        let (from, to) = (bounds[i], bounds[j]);
        if is_whole_number(&run.digits[from..to]) {
            parts.push(run.part(from, to));
        }
        j = i;
    }
    parts.reverse();
    parts
}

/// A number of one or two digits of any form, or a Chinese number of tens (十, 十二, 二十,
/// 三十一, 廿一): its value and the position after it.
fn small_number(chars: &[char], at: usize) -> Option<(u32, usize)> {
    let d = |k: usize| chars.get(k).copied().and_then(digit_value).map(u32::from);
    let tens = |c: Option<&char>| match c {
        Some('十' | '拾') => Some(10),
        Some('廿') => Some(20),
        Some('卅') => Some(30),
        _ => None,
    };
    match (d(at), tens(chars.get(at))) {
        (Some(a), _) => {
            if let Some(t) = tens(chars.get(at + 1)).filter(|&t| t == 10) {
                let unit = d(at + 2);
                let next = at + 2 + usize::from(unit.is_some());
                return Some((a * t + unit.unwrap_or(0), next));
            }
            match d(at + 1) {
                Some(b) => Some((a * 10 + b, at + 2)),
                None => Some((a, at + 1)),
            }
        }
        (None, Some(t)) => {
            let unit = d(at + 1);
            Some((t + unit.unwrap_or(0), at + 1 + usize::from(unit.is_some())))
        }
        (None, None) => None,
    }
}

/// Exactly `n` digits of any form from `at`: their value.
fn fixed_digits(chars: &[char], at: usize, n: usize) -> Option<u32> {
    let mut v = 0;
    for k in 0..n {
        v = v * 10 + u32::from(digit_value(*chars.get(at + k)?)?);
    }
    Some(v)
}

fn is_year(y: u32) -> bool {
    (1900..=2099).contains(&y)
}

fn is_month_day(m: u32, d: u32) -> bool {
    (1..=12).contains(&m) && (1..=31).contains(&d)
}

/// Whether a number could go on at `k` (a digit or a Chinese ten is there).
fn number_goes_on(chars: &[char], k: usize) -> bool {
    chars.get(k).is_some_and(|&c| is_numeral(c))
}

/// A digit of any form, or a Chinese ten (十, 拾, 廿, 卅).
pub(crate) fn is_numeral(c: char) -> bool {
    is_digit(c) || matches!(c, '十' | '拾' | '廿' | '卅')
}

/// Whether `c` is a Chinese numeral (〇一二…, 零壹贰…, 十廿卅) rather than a digit.
pub(crate) fn is_chinese_numeral(c: char) -> bool {
    matches!(c, '〇' | '○' | '十' | '拾' | '廿' | '卅')
        || (is_digit(c) && ('\u{4e00}'..='\u{9fff}').contains(&c))
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\u{3000}' | '\u{a0}')
}

fn skip_spaces(chars: &[char], mut k: usize) -> usize {
    while chars.get(k).is_some_and(|&c| is_space(c)) {
        k += 1;
    }
    k
}

/// `marker` (after optional spaces) at `k`: the position after it.
fn marker(chars: &[char], k: usize, markers: &[char]) -> Option<usize> {
    let k = skip_spaces(chars, k);
    chars.get(k).filter(|c| markers.contains(c)).map(|_| k + 1)
}

/// A written date: the characters `start..end`, and the parts that tell it (year, month
/// and day), which are starred; the separators and the markers (年, 月, 日) between
/// them are not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Date {
    pub start: usize,
    pub end: usize,
    pub parts: Vec<DatePart>,
}

/// One part of a [`Date`]: the characters `start..end`, and whether they are its year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DatePart {
    pub start: usize,
    pub end: usize,
    pub year: bool,
}

type Span = (usize, usize);

fn year_part((start, end): Span) -> DatePart {
    DatePart {
        start,
        end,
        year: true,
    }
}

fn part((start, end): Span) -> DatePart {
    DatePart {
        start,
        end,
        year: false,
    }
}

/// A date's end and parts.
type Found = (usize, Vec<DatePart>);

const DAY_MARKERS: &[char] = &['日', '号', '號'];

/// A number of one or two digits (or Chinese tens) from `at` that no digit follows: its
/// value and the position after it.
fn number(chars: &[char], at: usize) -> Option<(u32, usize)> {
    small_number(chars, at).filter(|&(_, end)| !number_goes_on(chars, end))
}

/// A year of four digits of any form, 1900 to 2099, that no digit follows.
fn year4(chars: &[char], at: usize) -> Option<Span> {
    let v = fixed_digits(chars, at, 4)?;
    (is_year(v) && !number_goes_on(chars, at + 4)).then_some((at, at + 4))
}

/// A year of two digits of any form (`90`, `九〇`) that no digit follows.
fn year2(chars: &[char], at: usize) -> Option<Span> {
    fixed_digits(chars, at, 2)?;
    (!number_goes_on(chars, at + 2)).then_some((at, at + 2))
}

/// `'90`: an apostrophe and a two-digit year.
fn apostrophe_year(chars: &[char], at: usize) -> Option<Span> {
    if !matches!(chars.get(at), Some('\'' | '\u{2019}')) {
        return None;
    }
    year2(chars, at + 1).map(|(_, end)| (at, end))
}

/// The mark between the parts of a date, as its ASCII form: a hyphen or dash, a dot, a
/// slash, a backslash, an underscore or a comma (`、` included), in ASCII or full width.
fn date_mark(c: char) -> Option<char> {
    Some(match c {
        '-' | '\u{2010}'..='\u{2015}' | '\u{2212}' | '－' => '-',
        '.' | '．' => '.',
        '/' | '／' => '/',
        '\\' | '＼' => '\\',
        '_' | '＿' => '_',
        ',' | '，' | '、' => ',',
        _ => return None,
    })
}

/// At most two spaces from `k`: the position after them.
fn up_to_two_spaces(chars: &[char], k: usize) -> usize {
    k + chars
        .get(k..)
        .unwrap_or_default()
        .iter()
        .take(2)
        .take_while(|&&c| is_space(c))
        .count()
}

/// Between two parts of a date: a [`date_mark`] with up to two spaces either side
/// (`1990 / 01 / 01`), or one or two spaces alone. The mark (a space for spaces alone)
/// and where the next part begins.
fn gap(chars: &[char], k: usize) -> Option<(char, usize)> {
    let a = up_to_two_spaces(chars, k);
    if let Some(mark) = chars.get(a).copied().and_then(date_mark) {
        return Some((mark, up_to_two_spaces(chars, a + 1)));
    }
    (a > k).then_some((' ', a))
}

/// Whether a date with a two-digit year may use `mark` (twice, the same): not a space or
/// a comma, which list numbers far more often than they write dates.
fn short_year_mark(mark: char) -> bool {
    matches!(mark, '-' | '.' | '/' | '\\' | '_')
}

/// A month in Chinese from `at`: a number from 1 to 12, or 元/正 (the first month), 冬
/// (the eleventh) or 腊/臘 (the twelfth), then 月: the month's span and the position
/// after 月.
fn chinese_month(chars: &[char], at: usize) -> Option<(Span, usize)> {
    if matches!(chars.get(at), Some('元' | '正' | '冬' | '腊' | '臘'))
        && chars.get(at + 1) == Some(&'月')
    {
        return Some(((at, at + 1), at + 2));
    }
    let (month, end) = number(chars, at)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    Some(((at, end), marker(chars, end, &['月'])?))
}

/// A day in Chinese from `at`: 初一 to 初十, or a number from 1 to 31, then 日, 号 or 號
/// if written. The day's span, the position after the date, and whether it is surely a
/// day (a marker or 初 written).
fn chinese_day(chars: &[char], at: usize) -> Option<(Span, usize, bool)> {
    let lunar = chars.get(at) == Some(&'初');
    let from = at + usize::from(lunar);
    let (day, end) = number(chars, from)?;
    let top = if lunar { 10 } else { 31 };
    if !(1..=top).contains(&day) {
        return None;
    }
    Some(match marker(chars, end, DAY_MARKERS) {
        Some(after) => ((at, end), after, true),
        None => ((at, end), end, lunar),
    })
}

/// `1990年1月1日`, `九〇年元月一号`, `1990年正月初一`, `1990年元旦`, `1990年1月` (a year and
/// month), or without a year `1月1日`, `腊月初八` (the day marked or 初 written).
fn chinese_date(chars: &[char], at: usize) -> Option<Found> {
    if let Some(y) = year4(chars, at).or_else(|| year2(chars, at))
        && let Some(k) = marker(chars, y.1, &['年'])
    {
        let k = skip_spaces(chars, k);
        if chars.get(k..k + 2) == Some(&['元', '旦'][..]) {
            return Some((k + 2, vec![year_part(y), part((k, k + 2))]));
        }
        if let Some((m, k)) = chinese_month(chars, k) {
            return Some(match chinese_day(chars, skip_spaces(chars, k)) {
                Some((d, end, _)) => (end, vec![year_part(y), part(m), part(d)]),
                None => (k, vec![year_part(y), part(m)]),
            });
        }
    }
    let (m, k) = chinese_month(chars, at)?;
    let (d, end, sure) = chinese_day(chars, skip_spaces(chars, k))?;
    sure.then(|| (end, vec![part(m), part(d)]))
}

/// 19900101: exactly eight digits of any form.
fn compact_date(chars: &[char], at: usize) -> Option<Found> {
    let v = fixed_digits(chars, at, 8)?;
    if number_goes_on(chars, at + 8) || !is_year(v / 10000) || !is_month_day(v / 100 % 100, v % 100)
    {
        return None;
    }
    Some((
        at + 8,
        vec![
            year_part((at, at + 4)),
            part((at + 4, at + 6)),
            part((at + 6, at + 8)),
        ],
    ))
}

/// The English name of a month, in full or shortened to three letters (`Sept` too), in
/// any case, as a word of its own (`may` in lower case is the verb): where it ends.
fn english_month(chars: &[char], at: usize) -> Option<usize> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    if at > 0 && chars[at - 1].is_ascii_alphabetic() {
        return None;
    }
    let len = chars
        .get(at..)?
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    if len < 3 {
        return None;
    }
    let word: String = chars[at..at + len]
        .iter()
        .collect::<String>()
        .to_ascii_lowercase();
    let known = word == "sept"
        || MONTHS
            .iter()
            .any(|m| *m == word || (len == 3 && m.starts_with(&word)));
    let verb = word == "may" && chars[at].is_ascii_lowercase();
    (known && !verb).then_some(at + len)
}

/// `st`, `nd`, `rd` or `th` after a day at `k`: the position after it (`k` without one).
fn ordinal(chars: &[char], k: usize) -> usize {
    let suffix: String = chars
        .iter()
        .skip(k)
        .take(2)
        .collect::<String>()
        .to_ascii_lowercase();
    let word_ends = !chars.get(k + 2).is_some_and(char::is_ascii_alphabetic);
    if matches!(suffix.as_str(), "st" | "nd" | "rd" | "th") && word_ends {
        k + 2
    } else {
        k
    }
}

/// A day from 1 to 31 with its ordinal suffix if written (`1`, `01`, `1st`): its span.
fn english_day(chars: &[char], at: usize) -> Option<Span> {
    let (day, end) = number(chars, at)?;
    (1..=31).contains(&day).then(|| (at, ordinal(chars, end)))
}

/// `of` and a space at `k` (`1st of January`): the position after them.
fn of(chars: &[char], k: usize) -> Option<usize> {
    let word = chars.get(k..k + 2)?;
    if !(word[0].eq_ignore_ascii_case(&'o') && word[1].eq_ignore_ascii_case(&'f')) {
        return None;
    }
    gap(chars, k + 2)
        .filter(|&(mark, _)| mark == ' ')
        .map(|(_, k)| k)
}

/// The year first: `1990-01-01`, `1990 / 1 / 1`, `1990,01,01`, `1990\01\01`, `1990 Jan 1`,
/// and with a two-digit year `90.1.1`, `90/1/1` (the same mark twice, see
/// [`short_year_mark`]).
fn year_first(chars: &[char], at: usize) -> Option<Found> {
    let (y, four) = match year4(chars, at) {
        Some(y) => (y, true),
        None => (year2(chars, at)?, false),
    };
    let (first, k) = gap(chars, y.1)?;
    if four && let Some(month_end) = english_month(chars, k) {
        let (_, k2) = gap(chars, month_end)?;
        let d = english_day(chars, k2)?;
        return Some((d.1, vec![year_part(y), part((k, month_end)), part(d)]));
    }
    let (month, month_end) = number(chars, k)?;
    let (second, k2) = gap(chars, month_end)?;
    let (day, end) = number(chars, k2)?;
    let marks = four || (first == second && short_year_mark(first));
    (marks && is_month_day(month, day)).then(|| {
        (
            end,
            vec![year_part(y), part((k, month_end)), part((k2, end))],
        )
    })
}

/// The day first: `1 January 1990`, `1st of Jan, 1990`, `01-Jan-1990`, `01-Jan-90`,
/// `1 Jan`; day and month in either order before a year: `1/1/1990`, `01.01.1990`, and
/// with a two-digit year `1/1/90` or `1-1-90` (not `1.1.90`, a section number).
fn day_first(chars: &[char], at: usize) -> Option<Found> {
    let (a, a_end) = number(chars, at)?;
    if (1..=31).contains(&a) {
        let day_end = ordinal(chars, a_end);
        if let Some((first, k)) = gap(chars, day_end) {
            let k = of(chars, k).unwrap_or(k);
            if let Some(month_end) = english_month(chars, k) {
                let mut parts = vec![part((at, day_end)), part((k, month_end))];
                let mut end = month_end;
                if let Some((second, k2)) = gap(chars, month_end) {
                    let short = first == second && short_year_mark(first);
                    let y = year4(chars, k2)
                        .or_else(|| year2(chars, k2).filter(|_| short))
                        .or_else(|| apostrophe_year(chars, k2));
                    if let Some(y) = y {
                        parts.push(year_part(y));
                        end = y.1;
                    }
                }
                return Some((end, parts));
            }
        }
    }
    let (first, k) = gap(chars, a_end)?;
    let (b, b_end) = number(chars, k)?;
    let (second, k2) = gap(chars, b_end)?;
    if !(is_month_day(a, b) || is_month_day(b, a)) {
        return None;
    }
    let short = first == second && matches!(first, '/' | '-');
    let y = year4(chars, k2).or_else(|| year2(chars, k2).filter(|_| short))?;
    Some((y.1, vec![part((at, a_end)), part((k, b_end)), year_part(y)]))
}

/// The month first, by name: `Jan 1, 1990`, `January 1st 1990`, `Jan. 1 '90`, `Jan 1`,
/// `January 1990`.
fn month_first(chars: &[char], at: usize) -> Option<Found> {
    let month_end = english_month(chars, at)?;
    let month = part((at, month_end));
    let (_, k) = gap(chars, month_end)?;
    if let Some(y) = year4(chars, k) {
        return Some((y.1, vec![month, year_part(y)]));
    }
    let d = english_day(chars, k)?;
    let mut parts = vec![month, part(d)];
    let mut end = d.1;
    if let Some((_, k2)) = gap(chars, d.1)
        && let Some(y) = year4(chars, k2).or_else(|| apostrophe_year(chars, k2))
    {
        parts.push(year_part(y));
        end = y.1;
    }
    Some((end, parts))
}

/// Whether a date may begin at `i`: a number where none goes on before it in the same
/// script (`统一1990年…` begins at `1990`), a word (an English month), or 元/正/冬/腊 before 月.
fn date_may_start(chars: &[char], i: usize) -> bool {
    let c = chars[i];
    let before = i.checked_sub(1).map(|k| chars[k]);
    if number_goes_on(chars, i) {
        return before
            .is_none_or(|b| !is_numeral(b) || is_chinese_numeral(b) != is_chinese_numeral(c));
    }
    if c.is_ascii_alphabetic() {
        return !before.is_some_and(|b| b.is_ascii_alphabetic());
    }
    matches!(c, '元' | '正' | '冬' | '腊' | '臘') && chars.get(i + 1) == Some(&'月')
}

/// Every written date in `chars`, in any of the forms of the module docs.
///
/// Where the line is: a date needs a day and a month, or a month and a four-digit year
/// (`1990年1月`, `January 1990`); a year alone (`2018年`, `1850`), a month alone (`3月`),
/// a round or table (`第3轮`, `12台`), a score (`2:1`, `1-0`), a time (`10:30`) and
/// a decimal (`1.5`) are not dates. A two-digit year needs 年, a month name, or the
/// same mark twice (`90.1.1`), so a dotted section number of two-digit head
/// (`10.2.1`) reads as a date.
pub(crate) fn dates(chars: &[char]) -> Vec<Date> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let found = if date_may_start(chars, i) {
            compact_date(chars, i)
                .or_else(|| chinese_date(chars, i))
                .or_else(|| year_first(chars, i))
                .or_else(|| day_first(chars, i))
                .or_else(|| month_first(chars, i))
        } else {
            None
        };
        match found {
            Some((end, parts)) => {
                out.push(Date {
                    start: i,
                    end,
                    parts,
                });
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests;
