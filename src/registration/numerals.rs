//! What an ID number, a phone number or a date can look like when a person types it into
//! free text: digits in ASCII, full width (`１３８`) or Chinese numerals (`一三八`,
//! `壹叁捌`), split by spaces, hyphens, dots, underscores or slashes (`3301.0219…`,
//! `330102_19900101_1234`, `138／1234／5678`), and dates written in any of the usual ways
//! (`1990年1月1日`, `一九九〇年一月一日`, `1990-01-01`, `1990/1/1`, `19900101`,
//! `1/1/1990`, `1月1日`).
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

/// Whether `c` is invisible or only steers how text is shown: zero-width characters, the
/// soft hyphen, word joiners and invisible operators, the bidirectional controls, the byte
/// order mark and variation selectors. Typed between the digits of a number or the
/// characters of a name, they change the text without changing what a reader sees.
pub(crate) fn is_invisible(c: char) -> bool {
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

/// A number in text: the characters `start..end` hold `digits` (as ASCII, an ID
/// number's final `X` included), the separators between them left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Run {
    pub start: usize,
    pub end: usize,
    pub digits: String,
}

/// At most this many separators may stand between two groups of one number
/// (`330102 - 1990`).
const MAX_GAP: usize = 3;

/// Every number in `chars`, longest first from each start: digits of any form, with up to
/// [`MAX_GAP`] characters that `is_separator` accepts between groups; after 17 digits an `X` (an ID number's check
/// character) belongs to the number.
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
        let mut end = i;
        let mut j = i;
        loop {
            match chars.get(j).copied().and_then(digit_value) {
                Some(d) => {
                    digits.push(char::from(b'0' + d));
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
        if digits.len() == 17 {
            let gap = chars[end..]
                .iter()
                .take(MAX_GAP)
                .take_while(|&&c| is_separator(c))
                .count();
            if let Some(&x) = chars.get(end + gap)
                && matches!(x, 'X' | 'x' | 'Ｘ' | 'ｘ')
            {
                digits.push('X');
                end += gap + 1;
            }
        }
        out.push(Run { start, end, digits });
        i = end;
    }
    out
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

fn is_date_separator(c: char) -> bool {
    matches!(
        c,
        '-' | '\u{2010}'
            ..='\u{2015}'
                | '\u{2212}'
                | '－'
                | '.'
                | '．'
                | '/'
                | '／'
                | '_'
                | '＿'
                | ' '
                | '\u{3000}'
    )
}

/// Whether a number could go on at `k` (a digit or a Chinese ten is there).
fn number_goes_on(chars: &[char], k: usize) -> bool {
    chars
        .get(k)
        .is_some_and(|&c| is_digit(c) || matches!(c, '十' | '拾' | '廿' | '卅'))
}

fn skip_spaces(chars: &[char], mut k: usize) -> usize {
    while chars.get(k).is_some_and(|&c| c == ' ' || c == '\u{3000}') {
        k += 1;
    }
    k
}

/// `marker` (after optional spaces) at `k`: the position after it.
fn marker(chars: &[char], k: usize, markers: &[char]) -> Option<usize> {
    let k = skip_spaces(chars, k);
    chars.get(k).filter(|c| markers.contains(c)).map(|_| k + 1)
}

/// `月 D 日` after a month at `k` (the day marker optional after a year, required
/// without one): the position after the date.
fn chinese_month_day(chars: &[char], month: u32, k: usize, day_marker: bool) -> Option<usize> {
    let k = marker(chars, k, &['月'])?;
    let (day, k) = small_number(chars, skip_spaces(chars, k))?;
    if !is_month_day(month, day) || number_goes_on(chars, k) {
        return None;
    }
    match marker(chars, k, &['日', '号', '號']) {
        Some(k) => Some(k),
        None if !day_marker => Some(k),
        None => None,
    }
}

/// A date written from `at` (where no number goes on before it): its end.
fn date_at(chars: &[char], at: usize) -> Option<usize> {
    // 19900101: exactly eight digits.
    if let Some(v) = fixed_digits(chars, at, 8)
        && !number_goes_on(chars, at + 8)
        && is_year(v / 10000)
        && is_month_day(v / 100 % 100, v % 100)
    {
        return Some(at + 8);
    }
    if fixed_digits(chars, at, 4).is_some_and(is_year) {
        let k = at + 4;
        // 1990年1月1日
        if let Some(k) = marker(chars, k, &['年'])
            && let Some((month, k)) = small_number(chars, skip_spaces(chars, k))
            && let Some(end) = chinese_month_day(chars, month, k, false)
        {
            return Some(end);
        }
        // 1990-01-01, 1990.1.1, 1990/01/01, 1990_01_01
        if chars.get(k).is_some_and(|&c| is_date_separator(c))
            && let Some((month, k)) = small_number(chars, k + 1)
            && chars.get(k).is_some_and(|&c| is_date_separator(c))
            && let Some((day, k)) = small_number(chars, k + 1)
            && is_month_day(month, day)
            && !number_goes_on(chars, k)
        {
            return Some(k);
        }
    }
    // 1/1/1990, 01.01.1990 (day and month in either order).
    if let Some((a, k)) = small_number(chars, at)
        && chars.get(k).is_some_and(|&c| is_date_separator(c))
        && let Some((b, k)) = small_number(chars, k + 1)
        && chars.get(k).is_some_and(|&c| is_date_separator(c))
        && let Some(year) = fixed_digits(chars, k + 1, 4)
        && is_year(year)
        && !number_goes_on(chars, k + 5)
        && (is_month_day(a, b) || is_month_day(b, a))
    {
        return Some(k + 5);
    }
    // 1月1日, 十二月三十一号
    let (month, k) = small_number(chars, at)?;
    chinese_month_day(chars, month, k, true)
}

/// The character ranges of every written date in `chars` (see the module docs).
pub(crate) fn dates(chars: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = number_goes_on(chars, i) && (i == 0 || !number_goes_on(chars, i - 1));
        match date_at(chars, i).filter(|_| starts) {
            Some(end) => {
                out.push((i, end));
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found_dates(text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        dates(&chars)
            .into_iter()
            .map(|(s, e)| chars[s..e].iter().collect())
            .collect()
    }

    fn found_runs(text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        runs(&chars, is_separator_or_comma)
            .into_iter()
            .map(|r| r.digits)
            .collect()
    }

    #[test]
    fn every_form_of_a_long_number_is_one_run() {
        let id = "330102199001011234";
        for text in [
            "330102199001011234",
            "3301.0219.9001.0112.34",
            "330102_19900101_1234",
            "３３０１０２１９９００１０１１２３４",
            "三三〇一〇二一九九〇〇一〇一一二三四",
            "叁叁零壹零贰壹玖玖零零壹零壹壹贰叁肆",
            "330102 - 19900101 - 1234",
            "3301／0219／9001／0112／34",
            "330102\\19900101\\1234",
            "(330102)19900101-1234",
        ] {
            assert_eq!(found_runs(&format!("号{text}。")), [id], "{text}");
        }
        for text in [
            "3301,0219,9001,0112,34",
            "③③⓪①⓪②①⑨⑨⓪⓪①⓪①①②③④",
            "𝟑𝟑𝟎𝟏𝟎𝟐𝟏𝟗𝟗𝟎𝟎𝟏𝟎𝟏𝟏𝟐𝟑𝟒",
            "3\u{fe0f}\u{20e3}3\u{20e3}0\u{20e3}102199001011234",
        ] {
            let text: String = text.chars().filter(|&c| !is_invisible(c)).collect();
            assert_eq!(found_runs(&text), [id], "{text}");
        }
        assert_eq!(found_runs("11010519491231002x"), ["11010519491231002X"]);
        assert_eq!(found_runs("11010519491231002 X"), ["11010519491231002X"]);
        assert_eq!(found_runs("第3轮 扣2分"), ["3", "2"]);
        assert_eq!(found_runs("1、2、3"), ["1", "2", "3"]);
        let listed: Vec<char> = "2008-05-01, 2008/5/1, 20080501".chars().collect();
        let split: Vec<String> = runs(&listed, is_separator)
            .into_iter()
            .map(|r| r.digits)
            .collect();
        assert_eq!(split, ["20080501", "200851", "20080501"]);
        assert_eq!(found_runs("330702********1234"), ["330702", "1234"]);
    }

    #[test]
    fn dates_in_every_form() {
        let cases = [
            ("生于1990年1月1日。", vec!["1990年1月1日"]),
            ("1990 年 01 月 01 日", vec!["1990 年 01 月 01 日"]),
            ("一九九〇年一月一日", vec!["一九九〇年一月一日"]),
            ("二〇一二年十二月三十一号", vec!["二〇一二年十二月三十一号"]),
            ("２０１２年３月４日", vec!["２０１２年３月４日"]),
            ("2012-03-04", vec!["2012-03-04"]),
            ("2012.3.4", vec!["2012.3.4"]),
            ("2012/03/04", vec!["2012/03/04"]),
            ("2012／03／04", vec!["2012／03／04"]),
            ("2012_03_04", vec!["2012_03_04"]),
            ("生日20120304", vec!["20120304"]),
            ("4/3/2012", vec!["4/3/2012"]),
            ("3月4日", vec!["3月4日"]),
            ("90年3月4日", vec!["3月4日"]),
            ("1990年1月1", vec!["1990年1月1"]),
        ];
        for (text, want) in cases {
            assert_eq!(found_dates(text), want, "{text}");
        }
        for text in [
            "330102199001011234",
            "第3轮 扣2分",
            "12345678",
            "2012-13-04",
            "3月",
            "1-0",
            "20120304567",
            "2012年",
            "1.5",
        ] {
            assert!(
                found_dates(text).is_empty(),
                "{text}: {:?}",
                found_dates(text)
            );
        }
    }

    #[test]
    fn invisible_characters() {
        for c in [
            '\u{200b}', '\u{200e}', '\u{202e}', '\u{2066}', '\u{feff}', '\u{ad}', '\u{fe0f}',
        ] {
            assert!(is_invisible(c), "{c:?}");
        }
        for c in ['a', '张', ' ', '·', '\u{3000}'] {
            assert!(!is_invisible(c), "{c:?}");
        }
    }
}
