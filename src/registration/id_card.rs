//! The 18-digit citizen identification number of GB 11643-1999 (公民身份号码): six digits
//! of region, eight of birth date, three of sequence (odd = male), one check character.
//!
//! Owns parsing and checking one number; it does not compare it with other columns.

use crate::i18n::{Localize, bi, display_english};
use crate::model::Gender;
use crate::privacy::mask_id_number;
use crate::rulebook::Lang;
use chrono::NaiveDate;
use thiserror::Error;

/// GB 11643-1999 §8.2: weights of the first 17 digits, W_i = 2^(i-1) mod 11.
const WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
/// The check character for each value of the weighted sum mod 11.
const CHECK: [char; 11] = ['1', '0', 'X', '9', '8', '7', '6', '5', '4', '3', '2'];

/// Province-level codes (first two digits of the region), GB/T 2260, plus 81/82/83 of the
/// residence permits of Hong Kong, Macao and Taiwan residents; 9x is the foreigners'
/// permanent residence card.
const PROVINCES: [u32; 35] = [
    11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52,
    53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 83,
];

/// A checked ID number and what it says about its holder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdCard {
    /// The 18 characters, upper-case `X` for a check value of ten.
    pub number: String,
    /// 行政区划代码, six digits.
    pub region: String,
    /// The date of birth the number encodes.
    pub birth_date: NaiveDate,
    /// The gender the number encodes (odd 17th digit: male).
    pub gender: Gender,
}

/// Why a value is not a valid ID number. Messages quote the number masked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IdError {
    /// The number was shortened by a spreadsheet into scientific notation (4.4E+17).
    Scientific {
        /// The value, masked.
        masked: String,
    },
    /// A 15-digit first-generation number where the 18-digit one is needed.
    FirstGeneration {
        /// The value, masked.
        masked: String,
    },
    /// The number does not have 18 characters.
    Length {
        /// The value, masked.
        masked: String,
        /// How many it has.
        len: usize,
    },
    /// A character other than a digit (or a final X).
    NotDigit {
        /// The value, masked.
        masked: String,
        /// The character's position, 1-based.
        position: usize,
        /// The character found.
        found: char,
    },
    /// The first six digits are no Chinese region code.
    Region {
        /// The value, masked.
        masked: String,
        /// The six digits.
        region: String,
    },
    /// Digits 7–14 are not a date.
    BirthDate {
        /// The value, masked.
        masked: String,
        /// The eight digits.
        digits: String,
    },
    /// The last character does not match the checksum of the first 17.
    Checksum {
        /// The value, masked.
        masked: String,
        /// The check character the first 17 digits give.
        expected: char,
        /// The check character written.
        found: char,
    },
}

display_english!(IdError);

impl Localize for IdError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            IdError::Scientific { masked } => bi!(
                lang,
                zh(
                    "身份证号 `{masked}` 是科学计数法：Excel 把它变成了数字；请把该列设为文本格式后重新输入 18 位号码"
                ),
                en(
                    "ID number `{masked}` is in scientific notation: Excel turned it into a number; format the column as text and type the 18 digits again"
                ),
            ),
            IdError::FirstGeneration { masked } => bi!(
                lang,
                zh("身份证号 `{masked}` 只有 15 位（第一代身份证）；请填写 18 位的第二代身份证号"),
                en(
                    "ID number `{masked}` has 15 digits (first-generation card); give the 18-digit second-generation number"
                ),
            ),
            IdError::Length { masked, len } => bi!(
                lang,
                zh("身份证号 `{masked}` 有 {len} 个字符；应为 18 位"),
                en("ID number `{masked}` has {len} characters; it must have 18"),
            ),
            IdError::NotDigit {
                masked,
                position,
                found,
            } => bi!(
                lang,
                zh(
                    "身份证号 `{masked}` 第 {position} 位是 `{found}`；只能是数字，最后一位可以是 `X`"
                ),
                en(
                    "ID number `{masked}` has `{found}` at position {position}; only digits are allowed, and `X` last"
                ),
            ),
            IdError::Region { masked, region } => bi!(
                lang,
                zh("身份证号 `{masked}` 以地区码 `{region}` 开头，这不是中国的地区码"),
                en(
                    "ID number `{masked}` starts with region `{region}`, which is no Chinese region code"
                ),
            ),
            IdError::BirthDate { masked, digits } => bi!(
                lang,
                zh("身份证号 `{masked}` 中的出生日期 `{digits}` 不是有效日期"),
                en("ID number `{masked}` has birth date `{digits}`, which is not a date"),
            ),
            IdError::Checksum {
                masked,
                expected,
                found,
            } => bi!(
                lang,
                zh(
                    "身份证号 `{masked}` 未通过 GB 11643 校验：最后一位应为 `{expected}`，而不是 `{found}`；请检查是否输错"
                ),
                en(
                    "ID number `{masked}` fails the GB 11643 checksum: the last character should be `{expected}`, not `{found}`; check the number for a typing error"
                ),
            ),
        }
    }
}

/// Parses and checks an ID number as typed: spaces and an Excel text-marking apostrophe
/// are dropped, full-width digits and a lower-case `x` accepted.
pub fn parse_id_number(raw: &str) -> Result<IdCard, IdError> {
    let number: String = super::normalise::to_half_width(raw)
        .chars()
        .filter(|c| *c != ' ' && *c != '\'' && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let masked = mask_id_number(&number);
    let chars: Vec<char> = number.chars().collect();
    if number.contains("E+") && number.contains('.') {
        return Err(IdError::Scientific { masked });
    }
    if chars.len() == 15 && chars.iter().all(char::is_ascii_digit) {
        return Err(IdError::FirstGeneration { masked });
    }
    if chars.len() != 18 {
        return Err(IdError::Length {
            masked,
            len: chars.len(),
        });
    }
    let mut digits = [0u32; 17];
    for (i, c) in chars.iter().take(17).enumerate() {
        match c.to_digit(10) {
            Some(d) => digits[i] = d,
            None => {
                return Err(IdError::NotDigit {
                    masked,
                    position: i + 1,
                    found: *c,
                });
            }
        }
    }
    let last = chars[17];
    if !(last.is_ascii_digit() || last == 'X') {
        return Err(IdError::NotDigit {
            masked,
            position: 18,
            found: last,
        });
    }
    let region: String = chars[..6].iter().collect();
    let province = digits[0] * 10 + digits[1];
    if !(PROVINCES.contains(&province) || digits[0] == 9) {
        return Err(IdError::Region { masked, region });
    }
    let date_digits: String = chars[6..14].iter().collect();
    let year = digits[6..10].iter().fold(0, |a, d| a * 10 + d) as i32;
    let month = digits[10] * 10 + digits[11];
    let day = digits[12] * 10 + digits[13];
    let birth_date = match NaiveDate::from_ymd_opt(year, month, day) {
        Some(d) if year >= 1900 => d,
        _ => {
            return Err(IdError::BirthDate {
                masked,
                digits: date_digits,
            });
        }
    };
    let sum: u32 = digits.iter().zip(WEIGHTS).map(|(d, w)| d * w).sum();
    let expected = CHECK[(sum % 11) as usize];
    if expected != last {
        return Err(IdError::Checksum {
            masked,
            expected,
            found: last,
        });
    }
    // GB 11643-1999 §4.3: the sequence code is odd for men, even for women.
    let gender = if digits[16] % 2 == 1 {
        Gender::Male
    } else {
        Gender::Female
    };
    Ok(IdCard {
        number,
        region,
        birth_date,
        gender,
    })
}

/// The check character for the first 17 digits (used by tests and example generators).
pub fn check_character(first17: &str) -> Option<char> {
    let digits: Vec<u32> = first17
        .chars()
        .map(|c| c.to_digit(10))
        .collect::<Option<_>>()?;
    if digits.len() != 17 {
        return None;
    }
    let sum: u32 = digits.iter().zip(WEIGHTS).map(|(d, w)| d * w).sum();
    Some(CHECK[(sum % 11) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_error_has_chinese_with_the_same_values() {
        use crate::i18n::facts::assert_localized;
        let m = || "3307**********0012".to_string();
        let errors = [
            IdError::Scientific { masked: m() },
            IdError::FirstGeneration { masked: m() },
            IdError::Length {
                masked: m(),
                len: 17,
            },
            IdError::NotDigit {
                masked: m(),
                position: 5,
                found: 'a',
            },
            IdError::Region {
                masked: m(),
                region: "000000".into(),
            },
            IdError::BirthDate {
                masked: m(),
                digits: "20081341".into(),
            },
            IdError::Checksum {
                masked: m(),
                expected: 'X',
                found: '3',
            },
        ];
        for e in &errors {
            assert_localized(e);
        }
    }

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn the_standard_example_checks() {
        // GB 11643-1999 appendix example: 11010519491231002X, a woman born 1949-12-31.
        let card = parse_id_number("11010519491231002X").unwrap();
        assert_eq!(card.region, "110105");
        assert_eq!(card.birth_date, date(1949, 12, 31));
        assert_eq!(card.gender, Gender::Female);
        assert_eq!(check_character("11010519491231002"), Some('X'));
    }

    #[test]
    fn valid_numbers_table() {
        let cases = [
            ("11010519491231002x", "11010519491231002X", Gender::Female),
            (
                " 1101 0519 4912 3100 2X",
                "11010519491231002X",
                Gender::Female,
            ),
            ("'11010519491231002X", "11010519491231002X", Gender::Female),
            (
                "１１０１０５１９４９１２３１００２Ｘ",
                "11010519491231002X",
                Gender::Female,
            ),
            ("441900200803120013", "441900200803120013", Gender::Male),
        ];
        for (raw, number, gender) in cases {
            let card = parse_id_number(raw).unwrap_or_else(|e| panic!("{raw}: {e}"));
            assert_eq!(card.number, number);
            assert_eq!(card.gender, gender);
        }
    }

    #[test]
    fn invalid_numbers_table() {
        type Check = fn(&IdError) -> bool;
        let cases: [(&str, Check); 8] = [
            ("3.30702E+17", |e| matches!(e, IdError::Scientific { .. })),
            ("330702800101123", |e| {
                matches!(e, IdError::FirstGeneration { .. })
            }),
            ("3307022008", |e| {
                matches!(e, IdError::Length { len: 10, .. })
            }),
            ("3307022008050112A4", |e| {
                matches!(e, IdError::NotDigit { position: 17, .. })
            }),
            ("33070220080501123Y", |e| {
                matches!(e, IdError::NotDigit { position: 18, .. })
            }),
            ("00070220080501123X", |e| {
                matches!(e, IdError::Region { .. })
            }),
            ("330702200802301234", |e| {
                matches!(e, IdError::BirthDate { .. })
            }),
            ("110105194912310021", |e| {
                matches!(
                    e,
                    IdError::Checksum {
                        expected: 'X',
                        found: '1',
                        ..
                    }
                )
            }),
        ];
        for (raw, check) in cases {
            let err = parse_id_number(raw).unwrap_err();
            assert!(check(&err), "{raw}: unexpected {err:?}");
        }
    }

    #[test]
    fn messages_mask_the_number() {
        let err = parse_id_number("110105194912310021").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("110105********0021"), "{text}");
        assert!(!text.contains("19491231"), "{text}");
    }

    #[test]
    fn generated_numbers_round_trip() {
        for seq in 0..200u32 {
            let first17 = format!("33070220080501{seq:03}");
            let full = format!("{first17}{}", check_character(&first17).unwrap());
            let card = parse_id_number(&full).unwrap();
            assert_eq!(card.birth_date, date(2008, 5, 1));
            let male = (seq % 10) % 2 == 1;
            assert_eq!(card.gender == Gender::Male, male, "{full}");
        }
    }
}
