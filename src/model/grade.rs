//! School grades (年级) on one scale from kindergarten to senior school, and the grade
//! scale a rulebook chooses (六三制 or 五四制), which decides what 初一 means.
//!
//! Owns the grade numbers (小班 −2, 中班 −1, 大班 0, 一年级 1 … 高三 12), their names and
//! the parse of one cell or rulebook value. Dongguan 十.1 names 幼儿园 children among those
//! who may enter, so kindergarten classes are grades like any other.

use crate::i18n::Text;
use serde::{Deserialize, Serialize};

/// Lowest grade number (幼儿园小班).
pub const MIN_GRADE: i8 = -2;
/// Highest grade number (高三).
pub const MAX_GRADE: i8 = 12;

/// How school years are counted from 一年级: 六三制 (6 years of primary, 初一 = 7) or 五四制
/// (5 years of primary, 初一 = 6, 初四 = 9). 高一 is 10 in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum GradeScale {
    /// 小学六年、初中三年 (most provinces).
    #[default]
    #[serde(rename = "6-3-3")]
    SixThreeThree,
    /// 小学五年、初中四年 (Shanghai and parts of Shandong, Heilongjiang …).
    #[serde(rename = "5-4-3")]
    FiveFourThree,
}

impl GradeScale {
    /// Years of primary school.
    fn primary_years(self) -> i8 {
        match self {
            GradeScale::SixThreeThree => 6,
            GradeScale::FiveFourThree => 5,
        }
    }

    /// The accepted forms, for messages, in Chinese and English.
    fn forms(self) -> (&'static str, &'static str) {
        match self {
            GradeScale::SixThreeThree => (
                "小班、中班、大班（幼儿园）、一年级 … 六年级、初一 … 初三、高一 … 高三 或 1–12",
                "小班, 中班, 大班 (kindergarten), 一年级 … 六年级, 初一 … 初三, 高一 … 高三 or 1–12",
            ),
            GradeScale::FiveFourThree => (
                "小班、中班、大班（幼儿园）、一年级 … 五年级、初一 … 初四（五四制）、高一 … 高三 或 1–12",
                "小班, 中班, 大班 (kindergarten), 一年级 … 五年级, 初一 … 初四 (五四制), 高一 … 高三 or 1–12",
            ),
        }
    }

    /// The names of grades `from` ..= 12 on this scale as a registration sheet writes them:
    /// `小班`, `中班`, `大班`, `一年级` … `六年级`, `初一` … `初三`, `高一` … `高三` (六三制).
    pub fn names(self, from: i8) -> Vec<(i8, String)> {
        const WORDS: [&str; 6] = ["一", "二", "三", "四", "五", "六"];
        let primary = self.primary_years();
        (from.max(MIN_GRADE)..=MAX_GRADE)
            .filter_map(|g| {
                let word = |n: i8| usize::try_from(n - 1).ok().and_then(|i| WORDS.get(i));
                let name = match g {
                    ..=0 => grade_label(g),
                    g if g <= primary => format!("{}年级", word(g)?),
                    g if g <= 9 => format!("初{}", word(g - primary)?),
                    g => format!("高{}", word(g - 9)?),
                };
                Some((g, name))
            })
            .collect()
    }

    /// A grade as a cell or a rulebook writes it: `3`, `3年级`, `三年级`, `小学三年级`,
    /// `初一`/`初中一年级`/`七年级`, `高三`, `Grade 3`, `大班`/`幼儿园大班`/`学前班`, `中班`,
    /// `小班`. Full-width digits are read as digits.
    pub fn parse(self, s: &str) -> Result<i8, Text> {
        let err = || {
            let mut t = Text::new(
                format!("年级 `{s}` 不是学校年级；请写 {}", self.forms().0),
                format!(
                    "grade `{s}` is not a school grade; write one of {}",
                    self.forms().1
                ),
            );
            if s.trim() == "幼儿园" {
                t.zh.push_str("（幼儿园请写明 大班、中班 或 小班）");
                t.en.push_str(" (for 幼儿园 write the class: 大班, 中班 or 小班)");
            }
            t
        };
        let compact: String = s
            .chars()
            .filter_map(|c| match c {
                '\u{FF10}'..='\u{FF5A}' => char::from_u32(c as u32 - 0xFEE0),
                c if c.is_whitespace() || c == '\u{3000}' => None,
                c => Some(c),
            })
            .flat_map(char::to_lowercase)
            .collect();
        let class = |c: &str| match c {
            "大班" | "学前班" => Some(0),
            "中班" => Some(-1),
            "小班" => Some(-2),
            _ => None,
        };
        let kindergarten = class(&compact)
            .or_else(|| compact.strip_prefix("幼儿园").and_then(class))
            .or(match compact.as_str() {
                "幼大" => Some(0),
                "幼中" => Some(-1),
                "幼小" => Some(-2),
                _ => None,
            });
        if let Some(g) = kindergarten {
            return Ok(g);
        }
        let compact = compact.strip_prefix("grade").unwrap_or(&compact);
        let primary = self.primary_years();
        let (offset, years, rest) = if let Some(r) = compact.strip_prefix("小学") {
            (0, primary, r)
        } else if let Some(r) = compact
            .strip_prefix("初中")
            .or_else(|| compact.strip_prefix('初'))
        {
            (primary, 9 - primary, r)
        } else if let Some(r) = compact
            .strip_prefix("高中")
            .or_else(|| compact.strip_prefix('高'))
        {
            (9, 3, r)
        } else {
            (0, MAX_GRADE, compact)
        };
        let rest = rest
            .strip_suffix("年级")
            .or_else(|| rest.strip_suffix('年'))
            .or_else(|| rest.strip_suffix('级'))
            .unwrap_or(rest);
        let n = number_word(rest).ok_or_else(err)?;
        if n == 0 || n > years {
            return Err(err());
        }
        Ok(offset + n)
    }
}

/// The value of a Chinese numeral from 一 to 十二, or of decimal digits.
fn number_word(s: &str) -> Option<i8> {
    if !s.is_empty() && s.len() <= 2 && s.chars().all(|c| c.is_ascii_digit()) {
        return s.parse().ok();
    }
    const WORDS: [&str; 12] = [
        "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
    ];
    WORDS
        .iter()
        .position(|w| *w == s)
        .and_then(|i| i8::try_from(i + 1).ok())
}

/// A grade for sheets and messages: `大班`, `中班`, `小班` for kindergarten, the number
/// (`3`, `7`) for school years, as the registration sheet's 年级 column counts them.
pub fn grade_label(grade: i8) -> String {
    match grade {
        0 => "大班".into(),
        -1 => "中班".into(),
        -2 => "小班".into(),
        g => g.to_string(),
    }
}

/// A grade in words for limits: `幼儿园大班`, `一年级`, `十二年级`.
pub fn grade_words(grade: i8) -> String {
    const WORDS: [&str; 12] = [
        "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
    ];
    match grade {
        0 => "幼儿园大班".into(),
        -1 => "幼儿园中班".into(),
        -2 => "幼儿园小班".into(),
        g => usize::try_from(g - 1)
            .ok()
            .and_then(|i| WORDS.get(i))
            .map_or_else(|| g.to_string(), |w| format!("{w}年级")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grade_table() {
        let six = GradeScale::SixThreeThree;
        for (s, want) in [
            ("3", Some(3)),
            ("12", Some(12)),
            ("三年级", Some(3)),
            ("3年级", Some(3)),
            ("３年级", Some(3)),
            ("小学三年级", Some(3)),
            ("一年级", Some(1)),
            ("六年级", Some(6)),
            ("七年级", Some(7)),
            ("初一", Some(7)),
            ("初二", Some(8)),
            ("初三", Some(9)),
            ("初中一年级", Some(7)),
            ("高一", Some(10)),
            ("高三", Some(12)),
            ("高中二年级", Some(11)),
            ("Grade 3", Some(3)),
            ("大班", Some(0)),
            ("幼儿园大班", Some(0)),
            ("幼儿园 中班", Some(-1)),
            ("小班", Some(-2)),
            ("幼小", Some(-2)),
            ("学前班", Some(0)),
            ("0", None),
            ("13", None),
            ("初四", None),
            ("大一", None),
            ("幼儿园", None),
            ("大", None),
            ("", None),
        ] {
            assert_eq!(six.parse(s).ok(), want, "{s:?}");
        }
        let five = GradeScale::FiveFourThree;
        for (s, want) in [
            ("初一", Some(6)),
            ("初四", Some(9)),
            ("五年级", Some(5)),
            ("小学六年级", None),
            ("高一", Some(10)),
            ("大班", Some(0)),
        ] {
            assert_eq!(five.parse(s).ok(), want, "{s:?}");
        }
    }

    #[test]
    fn names_parse_back() {
        for scale in [GradeScale::SixThreeThree, GradeScale::FiveFourThree] {
            let names = scale.names(MIN_GRADE);
            assert_eq!(names.len(), 15);
            for (g, name) in names {
                assert_eq!(scale.parse(&name).ok(), Some(g), "{name}");
            }
        }
        let six: Vec<String> = GradeScale::SixThreeThree
            .names(1)
            .into_iter()
            .map(|(_, n)| n)
            .collect();
        assert_eq!(six[5..8], ["六年级", "初一", "初二"]);
    }

    #[test]
    fn kindergarten_needs_its_class() {
        let e = GradeScale::SixThreeThree.parse("幼儿园").unwrap_err();
        assert!(e.zh.contains("大班、中班 或 小班"), "{}", e.zh);
    }

    #[test]
    fn labels() {
        assert_eq!(grade_label(0), "大班");
        assert_eq!(grade_label(-2), "小班");
        assert_eq!(grade_label(4), "4");
        assert_eq!(grade_words(1), "一年级");
        assert_eq!(grade_words(-1), "幼儿园中班");
        assert_eq!(grade_words(12), "十二年级");
    }
}
