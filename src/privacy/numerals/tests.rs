use super::*;

fn found_dates(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    dates(&chars)
        .into_iter()
        .map(|d| chars[d.start..d.end].iter().collect())
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
        let text: String = text
            .chars()
            .filter(|&c| !crate::sanitize::is_invisible(c))
            .collect();
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
        ("90年3月4日", vec!["90年3月4日"]),
        ("1990年1月1", vec!["1990年1月1"]),
        // Marks with spaces around them, commas, backslashes.
        ("生日 1990 / 01 / 01。", vec!["1990 / 01 / 01"]),
        ("1990 - 01 - 01", vec!["1990 - 01 - 01"]),
        ("1990,01,01", vec!["1990,01,01"]),
        ("1990，1，1", vec!["1990，1，1"]),
        ("1990\\01\\01", vec!["1990\\01\\01"]),
        ("1990 01 01", vec!["1990 01 01"]),
        ("1 / 1 / 1990", vec!["1 / 1 / 1990"]),
        // Months and days by name, two-digit years in Chinese.
        ("一九九〇年元月一日", vec!["一九九〇年元月一日"]),
        ("1990年元月1日", vec!["1990年元月1日"]),
        ("1990年正月初一", vec!["1990年正月初一"]),
        ("一九九〇年腊月廿三", vec!["一九九〇年腊月廿三"]),
        ("1990年元旦", vec!["1990年元旦"]),
        ("九〇年一月一号", vec!["九〇年一月一号"]),
        ("1990年1月出生", vec!["1990年1月"]),
        ("正月初一", vec!["正月初一"]),
        ("臘月初八", vec!["臘月初八"]),
        ("元月1日", vec!["元月1日"]),
        ("统一1990年1月1日", vec!["1990年1月1日"]),
        // English month names.
        ("Jan 1, 1990", vec!["Jan 1, 1990"]),
        ("born 1 January 1990.", vec!["1 January 1990"]),
        ("1st Jan 1990", vec!["1st Jan 1990"]),
        ("the 1st of January, 1990", vec!["1st of January, 1990"]),
        ("01-Jan-1990", vec!["01-Jan-1990"]),
        ("01-JAN-90", vec!["01-JAN-90"]),
        ("Sept. 3rd '90", vec!["Sept. 3rd '90"]),
        ("1990 Dec 31", vec!["1990 Dec 31"]),
        ("born in January 1990", vec!["January 1990"]),
        ("on May 3 he", vec!["May 3"]),
        ("Jan 1, 12 players", vec!["Jan 1"]),
        // Two-digit years.
        ("90.1.1", vec!["90.1.1"]),
        ("90/1/1", vec!["90/1/1"]),
        ("1/1/90", vec!["1/1/90"]),
        ("９０．１．１", vec!["９０．１．１"]),
        // A date after a start number.
        ("N13 1990 - 01 - 01", vec!["1990 - 01 - 01"]),
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
        // Where the line is: rounds, tables, scores, times, ratings, a year alone.
        "第3轮",
        "12台",
        "比分2:1",
        "10:30开始",
        "等级分1850",
        "2018年金华象棋公开赛",
        "2018年第3轮",
        "90年代",
        "1、2、3",
        "round 3, table 12",
        "in 2018, 3 players withdrew",
        "规则 3.1.2",
        "规则 2.1.10",
        "1.1.90",
        "90 1 1",
        "90,1,1",
        "正月十五",
        "初一组",
        "Janet 1",
        "players may 2",
        "1990-01",
    ] {
        assert!(
            found_dates(text).is_empty(),
            "{text}: {:?}",
            found_dates(text)
        );
    }
}

fn found_numbers(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let dates = dates(&chars);
    runs(&chars, is_separator_or_comma)
        .iter()
        .flat_map(|r| numbers_in(r, &dates))
        .map(|r| {
            let shown: String = chars[r.start..r.end].iter().collect();
            assert_eq!(r.at.len(), r.digits.len(), "{text}");
            format!("{}={shown}", r.digits)
        })
        .collect()
}

#[test]
fn numbers_side_by_side_are_each_one_number() {
    let cases: [(&str, &[&str]); 10] = [
        (
            "手机 138-1234-5678 / 13812345678",
            &["13812345678=138-1234-5678", "13812345678=13812345678"],
        ),
        (
            "13812345678，13912345678",
            &["13812345678=13812345678", "13912345678=13912345678"],
        ),
        (
            "138 1234 5678 1990-01-01 139 1234 5678",
            &["13812345678=138 1234 5678", "13912345678=139 1234 5678"],
        ),
        (
            "13812345678 11010519491231002 X",
            &[
                "13812345678=13812345678",
                "11010519491231002X=11010519491231002 X",
            ],
        ),
        ("N13 13812345678", &["13812345678=13812345678"]),
        // A start number and a date: nothing personal but the date.
        ("N13 1990 - 01 - 01", &[]),
        // One number, however it is grouped.
        (
            "330102 1990 0101 1234",
            &["330102199001011234=330102 1990 0101 1234"],
        ),
        // An 18-digit ID and a short number after it.
        (
            "11010519491 2310021 5",
            &["110105194912310021=11010519491 2310021"],
        ),
        // No split into a phone and an unmasked rest: the run stays one number.
        (
            "11010519491 23100 215",
            &["1101051949123100215=11010519491 23100 215"],
        ),
        ("0579-82345678", &["057982345678=0579-82345678"]),
    ];
    for (text, want) in cases {
        assert_eq!(found_numbers(text), want, "{text}");
    }
    assert!(is_whole_number("11010519491231002X"));
    assert!(is_whole_number("8613812345678"));
    assert!(!is_whole_number("1101051949123100X2"));
    assert!(!is_whole_number("23812345678"));
}

#[test]
fn invisible_characters() {
    for c in [
        '\u{200b}', '\u{200e}', '\u{202e}', '\u{2066}', '\u{feff}', '\u{ad}', '\u{fe0f}',
    ] {
        assert!(crate::sanitize::is_invisible(c), "{c:?}");
    }
    for c in ['a', '张', ' ', '·', '\u{3000}'] {
        assert!(!crate::sanitize::is_invisible(c), "{c:?}");
    }
}
