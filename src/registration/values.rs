//! Cell values as organisers type them: genders (男/女/M/F), yes/no marks (是/否/√/×),
//! dates (2008-05-01, 2008/5/1, 2008年5月1日) and
//! integers.
//!
//! Owns parsing one value; every function takes an already [`clean`]ed cell and returns a
//! message naming the accepted forms when it cannot parse it.
//!
//! [`clean`]: super::normalise::clean

use crate::i18n::Text;
use crate::model::{Gender, MAX_RATING};
use chrono::NaiveDate;

/// 男/女, M/F, male/female, boy/girl (any case).
pub fn parse_gender(s: &str) -> Result<Gender, Text> {
    match s.to_lowercase().as_str() {
        "男" | "男性" | "男子" | "m" | "male" | "boy" | "man" => Ok(Gender::Male),
        "女" | "女性" | "女子" | "f" | "female" | "girl" | "woman" => Ok(Gender::Female),
        _ => Err(Text::new(
            format!("性别 `{s}` 不是 男/女、M/F、male/female、boy/girl 之一"),
            format!("gender `{s}` is not one of 男/女, M/F, male/female, boy/girl"),
        )),
    }
}

/// What is wrong with a 序号 cell (`row`: cleaned, neither empty nor an example mark),
/// if anything. 序号 is the sheet's own numbering, so any number passes (`12`, `１２`,
/// `十二`, `A1`, `1号`, and a mark such as `A` or `*`); a Chinese word with no numeral
/// (`领队`, `教练`) is no number but most often the role of a team official listed among the players, and is
/// refused rather than ignored.
pub fn row_number_problem(row: &str) -> Option<Text> {
    let numeral = |c: char| c.is_numeric() || "零〇一二两三四五六七八九十百千".contains(c);
    if row.chars().any(numeral) || !row.chars().any(|c| c.is_alphabetic() && !c.is_ascii()) {
        return None;
    }
    Some(Text::new(
        format!(
            "序号 `{row}` 不是编号；若这一行是领队、教练等随队人员，不是棋手，请删去这一行；若是棋手，请在序号列写数字或留空"
        ),
        format!(
            "序号 `{row}` is no number; if the row is a team official (领队, 教练 …), not a player, delete the row; for a player, write a number in the 序号 column or leave it empty"
        ),
    ))
}

/// 是/否, 有/无, Y/N, yes/no, true/false, 1/0, √/✓/✔ and ×/✗/✘; empty is no.
pub fn parse_bool(s: &str) -> Result<bool, Text> {
    match s.to_lowercase().as_str() {
        "" | "否" | "无" | "没有" | "不是" | "n" | "no" | "false" | "0" | "×" | "✗" | "✘" => {
            Ok(false)
        }
        "是" | "有" | "y" | "yes" | "true" | "1" | "√" | "✓" | "✔" => Ok(true),
        _ => Err(Text::new(
            format!("`{s}` 不是 是/否 值；请写 是/否、Y/N、yes/no、1/0 或 √，留空表示否"),
            format!(
                "`{s}` is not a yes/no value; write 是/否, Y/N, yes/no, 1/0 or √, or leave it empty for no"
            ),
        )),
    }
}

/// What a name cell holds instead of text: a workbook's typed cell (`xlsx::not_text`) or
/// a text that Excel would have stored as one ([`name_not_text`]), worded alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotText {
    /// TRUE or FALSE.
    TruthValue,
    /// A number.
    Number,
    /// A date or a time.
    DateOrTime,
}

impl NotText {
    /// The words for it, in Chinese and English (`数字`, `a number`).
    pub fn words(self) -> (&'static str, &'static str) {
        match self {
            NotText::TruthValue => ("逻辑值（TRUE/FALSE）", "a TRUE/FALSE value"),
            NotText::Number => ("数字", "a number"),
            NotText::DateOrTime => ("日期或时间", "a date or time"),
        }
    }

    /// The refusal of a name cell that holds it: a value pasted into the wrong column or
    /// typed where a name belonged, never a name.
    pub fn refusal(self) -> Text {
        let (what_zh, what_en) = self.words();
        Text::new(
            format!(
                "姓名须是文字，而这个单元格是{what_zh}；请在姓名列写棋手的姓名（单元格格式设为“文本”）"
            ),
            format!(
                "a name must be text, and this cell holds {what_en}; write the player's name in the name column (with the cell formatted as text)"
            ),
        )
    }
}

/// What a name, as text (a CSV cell, a workbook cell of text, `player add --name`), is
/// instead of a name ([`NotText`]): what Excel would have stored as a number (`12345`,
/// `1,234.5`, `-3`, `1E+05`), a date or time (`2026-01-05`, `2026/1/5`, `2026年1月5日`,
/// `10:30`) or a TRUE/FALSE value. One rule with a workbook's typed cells
/// (`xlsx::not_text`), so that a sheet saved as CSV is refused where the workbook is.
/// `name`: cleaned (half-width); `None` for a name.
pub fn name_not_text(name: &str) -> Option<NotText> {
    let numeric = |s: &str| {
        s.chars().any(|c| c.is_ascii_digit())
            && s.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '+' | '-' | 'e' | 'E' | '%'))
            && s.trim_end_matches('%')
                .replace(',', "")
                .parse::<f64>()
                .is_ok()
    };
    let time = |s: &str| {
        let parts: Vec<&str> = s.split(':').collect();
        (2..=3).contains(&parts.len())
            && parts
                .iter()
                .all(|p| (1..=2).contains(&p.len()) && p.chars().all(|c| c.is_ascii_digit()))
    };
    if name.eq_ignore_ascii_case("true") || name.eq_ignore_ascii_case("false") {
        Some(NotText::TruthValue)
    } else if numeric(name) {
        Some(NotText::Number)
    } else if parse_date(name).is_ok() || time(name) {
        Some(NotText::DateOrTime)
    } else {
        None
    }
}

/// Excel's day count for 1899-12-30 (its day 0, after its 1900 leap-year bug).
fn excel_epoch() -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(1899, 12, 30)
}

/// A date: `2008-05-01`, `2008/5/1`, `2008.5.1`, `20080501`, `2008年5月1日`, with an
/// Excel time part (`2008/5/1 0:00`) ignored, or an Excel day number (`39569`) that lost
/// its date format.
pub fn parse_date(s: &str) -> Result<NaiveDate, Text> {
    let err = || {
        Text::new(
            format!("日期 `{s}` 不是日期；请写成 2008-05-01、2008/5/1、20080501 或 2008年5月1日"),
            format!(
                "date `{s}` is not a date; write it as 2008-05-01, 2008/5/1, 20080501 or 2008年5月1日"
            ),
        )
    };
    let day_part = s.split(' ').next().unwrap_or("");
    let digits_only = !day_part.is_empty() && day_part.chars().all(|c| c.is_ascii_digit());
    if digits_only && day_part.len() == 8 {
        let (y, md) = day_part.split_at(4);
        let (m, d) = md.split_at(2);
        return ymd(y, m, d).ok_or_else(err);
    }
    if digits_only && day_part.len() == 5 {
        // An Excel serial date, as a date cell exported without its format.
        let days: i64 = day_part.parse().map_err(|_| err())?;
        let date = excel_epoch()
            .and_then(|e| e.checked_add_signed(chrono::TimeDelta::try_days(days)?))
            .ok_or_else(err)?;
        return Ok(date);
    }
    let trimmed = day_part.strip_suffix('日').unwrap_or(day_part);
    let parts: Vec<&str> = trimmed.split(['-', '/', '.', '年', '月']).collect();
    match parts.as_slice() {
        [y, m, d] if y.len() == 4 => ymd(y, m, d).ok_or_else(err),
        _ => Err(err()),
    }
}

/// A birth-date cell: a full date, or only the year and month, as the common Excel column
/// 出生年月 holds (`1981-2`, `1959.05`, `1979年12月`, `198102`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Birth {
    /// A full date.
    Date(NaiveDate),
    /// A year and month only (year, month 1–12).
    YearMonth(i32, u32),
}

impl Birth {
    /// The first and last day the value allows.
    pub fn range(self) -> (NaiveDate, NaiveDate) {
        match self {
            Birth::Date(d) => (d, d),
            Birth::YearMonth(y, m) => {
                let first = NaiveDate::from_ymd_opt(y, m, 1).unwrap_or_default();
                let next = if m == 12 {
                    NaiveDate::from_ymd_opt(y + 1, 1, 1)
                } else {
                    NaiveDate::from_ymd_opt(y, m + 1, 1)
                };
                (first, next.and_then(|n| n.pred_opt()).unwrap_or(first))
            }
        }
    }

    /// Whether `date` is within the value.
    pub fn admits(self, date: NaiveDate) -> bool {
        let (a, b) = self.range();
        a <= date && date <= b
    }
}

/// A birth date or a year and month (see [`Birth`]).
pub fn parse_birth(s: &str) -> Result<Birth, Text> {
    if let Ok(d) = parse_date(s) {
        return Ok(Birth::Date(d));
    }
    let day_part = s.split(' ').next().unwrap_or("");
    let trimmed = day_part.strip_suffix('月').unwrap_or(day_part);
    let parts: Vec<&str> = if trimmed.len() == 6 && trimmed.chars().all(|c| c.is_ascii_digit()) {
        vec![&trimmed[..4], &trimmed[4..]]
    } else {
        trimmed.split(['-', '/', '.', '年']).collect()
    };
    if let [y, m] = parts.as_slice()
        && y.len() == 4
        && let (Ok(year), Ok(month)) = (y.parse::<i32>(), m.parse::<u32>())
        && year >= 1900
        && (1..=12).contains(&month)
        && !m.is_empty()
        && m.len() <= 2
    {
        return Ok(Birth::YearMonth(year, month));
    }
    parse_date(s).map(Birth::Date)
}

fn ymd(y: &str, m: &str, d: &str) -> Option<NaiveDate> {
    let all_digits =
        |t: &str| !t.is_empty() && t.len() <= 4 && t.chars().all(|c| c.is_ascii_digit());
    if !(all_digits(y) && all_digits(m) && all_digits(d)) {
        return None;
    }
    let year: i32 = y.parse().ok()?;
    if year < 1900 {
        return None;
    }
    NaiveDate::from_ymd_opt(year, m.parse().ok()?, d.parse().ok()?)
}

/// An integer rating (等级分); a `.0` Excel left on it is accepted.
pub fn parse_rating(s: &str) -> Result<i32, Text> {
    let whole = s.strip_suffix(".0").unwrap_or(s);
    // Parsed wide, so a long whole number is called out of range rather than not whole.
    let rating: i64 = whole.parse().map_err(|_| {
        Text::new(
            format!("等级分 `{s}` 不是整数"),
            format!("rating `{s}` is not a whole number"),
        )
    })?;
    if !(0..=i64::from(MAX_RATING)).contains(&rating) {
        return Err(Text::new(
            format!("等级分 `{s}` 不在 0 到 {MAX_RATING} 之间：请核对报名表"),
            format!(
                "rating `{s}` is outside 0 to {MAX_RATING}: check the sheet (a rating has at most four digits)"
            ),
        ));
    }
    Ok(rating as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    /// A name that Excel would have stored as a number, a date or time, or TRUE/FALSE is
    /// refused as the workbook's typed cell is; a name with a digit in it is still a name.
    #[test]
    fn a_name_that_is_a_number_date_or_truth_value_is_no_name() {
        for refused in [
            "12345",
            "-3",
            "1,234.5",
            "1E+05",
            "50%",
            "2026-01-05",
            "2026/1/5",
            "2026年1月5日",
            "20260105",
            "10:30",
            "TRUE",
            "false",
        ] {
            assert!(name_not_text(refused).is_some(), "{refused}");
        }
        for name in [
            "张三丰",
            "王1",
            "A组1号",
            "John Smith",
            "e",
            "买买提·艾力",
            "-",
        ] {
            assert!(name_not_text(name).is_none(), "{name}");
        }
    }

    #[test]
    fn gender_table() {
        for (s, want) in [
            ("男", Some(Gender::Male)),
            ("女", Some(Gender::Female)),
            ("M", Some(Gender::Male)),
            ("f", Some(Gender::Female)),
            ("Male", Some(Gender::Male)),
            ("FEMALE", Some(Gender::Female)),
            ("boy", Some(Gender::Male)),
            ("Girl", Some(Gender::Female)),
            ("男性", Some(Gender::Male)),
            ("x", None),
            ("", None),
        ] {
            assert_eq!(parse_gender(s).ok(), want, "{s:?}");
        }
    }

    #[test]
    fn bool_table() {
        for (s, want) in [
            ("是", Some(true)),
            ("否", Some(false)),
            ("有", Some(true)),
            ("无", Some(false)),
            ("Y", Some(true)),
            ("n", Some(false)),
            ("Yes", Some(true)),
            ("no", Some(false)),
            ("TRUE", Some(true)),
            ("false", Some(false)),
            ("1", Some(true)),
            ("0", Some(false)),
            ("√", Some(true)),
            ("✓", Some(true)),
            ("×", Some(false)),
            ("", Some(false)),
            ("也许", None),
            ("2", None),
        ] {
            assert_eq!(parse_bool(s).ok(), want, "{s:?}");
        }
    }

    /// 出生年月 columns hold only the year and month.
    #[test]
    fn birth_month_table() {
        let d = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        for (text, birth) in [
            ("1981-2", Birth::YearMonth(1981, 2)),
            ("1959.05", Birth::YearMonth(1959, 5)),
            ("1979年12月", Birth::YearMonth(1979, 12)),
            ("198102", Birth::YearMonth(1981, 2)),
            ("2008/11", Birth::YearMonth(2008, 11)),
            ("2008-05-01", Birth::Date(d(2008, 5, 1))),
        ] {
            assert_eq!(parse_birth(text), Ok(birth), "{text}");
        }
        for bad in ["1981-13", "1981", "81-2", "1981-2-30", "二〇〇八年"] {
            assert!(parse_birth(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Birth::YearMonth(2008, 2).range(),
            (d(2008, 2, 1), d(2008, 2, 29))
        );
        assert_eq!(
            Birth::YearMonth(2007, 12).range(),
            (d(2007, 12, 1), d(2007, 12, 31))
        );
        assert!(Birth::YearMonth(1981, 2).admits(d(1981, 2, 19)));
        assert!(!Birth::YearMonth(1981, 3).admits(d(1981, 2, 19)));
    }

    #[test]
    fn date_table() {
        for (s, want) in [
            ("2008-05-01", Some(date(2008, 5, 1))),
            ("2008/5/1", Some(date(2008, 5, 1))),
            ("2008.5.1", Some(date(2008, 5, 1))),
            ("20080501", Some(date(2008, 5, 1))),
            ("2008年5月1日", Some(date(2008, 5, 1))),
            ("2008年05月01日", Some(date(2008, 5, 1))),
            ("2008/5/1 0:00", Some(date(2008, 5, 1))),
            ("39569", Some(date(2008, 5, 1))),
            ("2008-02-30", None),
            ("2008-5", None),
            ("08-05-01", None),
            ("1880-01-01", None),
            ("2008--1", None),
            ("abc", None),
            ("", None),
        ] {
            assert_eq!(parse_date(s).ok(), want, "{s:?}");
        }
    }

    #[test]
    fn rating_table() {
        for (s, want) in [
            ("1500", Some(1500)),
            ("-5", None),
            ("0", Some(0)),
            ("9999", Some(9999)),
            ("10000", None),
            ("15000000000", None),
            ("1500.0", Some(1500)),
            ("1500.5", None),
            ("一千", None),
        ] {
            assert_eq!(parse_rating(s).ok(), want, "{s:?}");
        }
        let wide = parse_rating("15000000000").unwrap_err();
        assert!(
            format!("{wide:?}").contains("outside 0 to 9999"),
            "{wide:?}"
        );
    }
}

/// Whether `text` has the shape of a Chinese phone number: an 11-digit mobile number
/// (1…, optionally after +86/86) or a landline with its area code (0 and 9–11 more digits,
/// `0553-1234567`, `(0553)1234567`), an extension (`-123`, `转123`) allowed after it.
pub fn is_phone_number(text: &str) -> bool {
    let main = text.split(['转', '#', 'x', 'X']).next().unwrap_or_default();
    let digits: String = main
        .chars()
        .filter(|c| !matches!(c, '-' | '－' | '(' | ')' | '（' | '）' | '+' | ' '))
        .collect();
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let digits = match digits.strip_prefix("86") {
        Some(rest) if rest.len() == 11 && rest.starts_with('1') => rest.to_string(),
        _ => digits,
    };
    let mobile = digits.len() == 11 && digits.starts_with('1');
    // A landline: area code (3 or 4 digits with the 0) and a 7- or 8-digit number; a
    // trailing extension written with a dash makes it longer.
    let landline = digits.starts_with('0') && (10..=12).contains(&digits.len());
    let with_extension =
        digits.starts_with('0') && main.matches(['-', '－']).count() >= 2 && digits.len() <= 16;
    mobile || landline || with_extension
}

#[cfg(test)]
mod phone_tests {
    use super::is_phone_number;

    #[test]
    fn mobiles_and_landlines_with_area_codes_pass_others_do_not() {
        for ok in [
            "13912345678",
            "+8613912345678",
            "139-1234-5678",
            "0553-1234567",
            "05531234567",
            "(0553)1234567",
            "021-12345678",
            "0553-1234567-801",
            "0553-1234567转801",
        ] {
            assert!(is_phone_number(ok), "{ok}");
        }
        for bad in [
            "1391234567",
            "1234567",
            "23912345678",
            "139123456789",
            "电话",
            "0553",
        ] {
            assert!(!is_phone_number(bad), "{bad}");
        }
    }
}
