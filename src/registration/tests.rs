//! Tests of reading registration sheets: headers, rows, groups, duplicates, batches.

use super::*;
use crate::i18n::Localize;
use crate::model::{Gender, GroupId, Player, PlayerId};
use crate::privacy::mask_id_number;
use crate::rulebook::{Eligibility, GroupRule, Lang, Marks, Rulebook};
use chrono::NaiveDate;

pub(super) fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

pub(super) fn group(
    id: &str,
    name: &str,
    pairs_with: Option<&str>,
    marks: Marks,
    e: Eligibility,
) -> GroupRule {
    GroupRule {
        id: GroupId::new(id),
        name: name.to_string(),
        aliases: Vec::new(),
        pairs_with: pairs_with.map(GroupId::new),
        marks,
        rounds: None,
        time_control: None,
        min_size: None,
        merge_into: None,
        eligibility: Eligibility {
            below_title: vec!["国家级运动健将".into(), "象棋大师".into()],
            ..e
        },
        hall: Default::default(),
        format: crate::rulebook::GroupFormat::swiss(),
    }
}

/// A Jinhua-like rulebook: 成人组 with 残疾人组 inside it, 青少年组 under 16.
pub(crate) fn rules() -> Rulebook {
    let mut r = Rulebook::cxa_2011("测试赛", 9);
    r.event.start_date = Some(date(2018, 10, 26));
    r.groups = vec![
        group(
            "adult",
            "成人组",
            None,
            Marks::default(),
            Eligibility::default(),
        ),
        group(
            "disabled",
            "残疾人组",
            Some("adult"),
            Marks {
                disabled: true,
                local: false,
            },
            Eligibility {
                disabled: true,
                ..Default::default()
            },
        ),
        group(
            "youth",
            "青少年组",
            None,
            Marks::default(),
            Eligibility {
                under_age: Some(16),
                age_max_inclusive: Some(false),
                ..Default::default()
            },
        ),
    ];
    r
}

/// A valid ID number for a birth date and a sequence (odd = male).
pub(super) fn id(region: &str, birth: &str, seq: u32) -> String {
    let first17 = format!("{region}{birth}{seq:03}");
    format!("{first17}{}", id_card::check_character(&first17).unwrap())
}

fn read(text: &str) -> Result<Vec<Player>, ImportErrors> {
    read_registrations(
        text.as_bytes(),
        "reg.csv",
        &ImportOptions::default(),
        &rules(),
        &[],
        PlayerId(1),
    )
}

#[test]
fn a_clean_sheet_becomes_players() {
    let text = format!(
        "序号,姓名,性别,单位,组别,出生日期,身份证号,残疾,电话,备注\n\
         1,张 伟,男,婺城区棋协,成人组,1980-01-01,{},否,100 1234 5678,\n\
         2,李秀英,女,金东区棋协,残疾人组,,{},是,,轮椅\n\
         3,王小明,,浦江县象棋协会,青少年,2005年3月4日,{},,,\n",
        id("330702", "19800101", 123),
        id("330703", "19750607", 42),
        id("330726", "20050304", 11),
    );
    let players = read(&text).unwrap();
    assert_eq!(players.len(), 3);
    let [a, b, c] = [&players[0], &players[1], &players[2]];
    assert_eq!(
        (a.id, a.name.as_str(), a.gender),
        (PlayerId(1), "张伟", Some(Gender::Male))
    );
    assert_eq!(a.group, GroupId::new("adult"));
    assert_eq!(a.section, None);
    assert_eq!(a.phone.as_deref(), Some("10012345678"));
    assert!(!a.disabled);
    assert_eq!(b.group, GroupId::new("adult"));
    assert_eq!(b.section, Some(GroupId::new("disabled")));
    assert!(b.disabled);
    // Birth date and gender filled from the ID number.
    assert_eq!(b.birth_date, Some(date(1975, 6, 7)));
    assert_eq!(b.gender, Some(Gender::Female));
    assert_eq!(b.extra.get("备注").map(String::as_str), Some("轮椅"));
    assert_eq!(c.group, GroupId::new("youth"));
    assert_eq!(c.birth_date, Some(date(2005, 3, 4)));
    assert_eq!(c.gender, Some(Gender::Male));
    assert!(a.extra.is_empty(), "序号 is not kept: {:?}", a.extra);
}

#[test]
fn every_row_error_has_chinese_with_the_same_values() {
    use crate::i18n::facts::assert_same;
    let good = id("330702", "19800101", 123);
    let bad_sum = format!("{}0", &good[..17]);
    let text = format!(
        "姓名,性别,组别,出生日期,身份证号,年级,等级分,残疾\n\
         甲,男,成人组,1980-01-01,{good},,,\n\
         乙,男,象棋组,,,,,\n\
         丙,x,成人组,1980-13-01,,二十年级,abc,也许\n\
         丁,女,成人组,1981-01-01,{good},,,\n\
         戊,男,青少年组,1990-01-01,,,,\n\
         己,男,成人组,,{bad_sum},,,\n\
         甲,男,成人组,1980-01-01,,,,\n\
         庚,男,残疾人组,,,,,否\n\
         辛,男\n\
         ,男,,,,,,\n"
    );
    let err = read(&text).unwrap_err();
    assert!(err.errors.len() >= 10, "{err}");
    for e in &err.errors {
        assert_same(&e.message.zh, &e.message.en);
    }
    let zh = err.localize(Lang::Zh);
    let en = err.localize(Lang::En);
    assert_eq!(en, err.to_string());
    assert_eq!(zh.lines().count(), en.lines().count());
    assert!(
        zh.ends_with("未导入任何棋手：请改正后重新导入该文件"),
        "{zh}"
    );
    assert!(zh.starts_with("reg.csv:3："), "{zh}");
}

#[test]
fn five_bad_rows_give_five_located_errors() {
    let good = id("330702", "19800101", 123);
    let text = format!(
        "姓名,性别,组别,出生日期,身份证号\n\
         甲,男,成人组,1980-01-01,{good}\n\
         乙,男,象棋组,,\n\
         丙,男,成人组,1980-13-01,\n\
         丁,女,成人组,1980-01-01,{}\n\
         戊,男,青少年组,1990-01-01,\n\
         ,男,成人组,,\n",
        id("330702", "19800101", 125),
    );
    let err = read(&text).unwrap_err();
    let got: Vec<(usize, Option<&str>)> = err
        .errors
        .iter()
        .map(|e| (e.line, e.column.as_deref()))
        .collect();
    assert_eq!(
        got,
        vec![
            (3, Some("组别")),
            (4, Some("出生日期")),
            (5, Some("性别")),
            (6, Some("组别")),
            (7, Some("姓名")),
        ],
        "{err}"
    );
    assert!(err.errors[0].message.en.contains("`象棋组`"), "{err}");
    assert!(err.errors[1].message.en.contains("`1980-13-01`"), "{err}");
    assert!(err.errors[3].message.en.contains("under 16"), "{err}");
}

#[test]
fn display_lists_every_error_and_a_summary() {
    let text = "姓名,组别\n甲,无此组\n乙,\n";
    let err = read(text).unwrap_err();
    let shown = err.to_string();
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 3, "{shown}");
    assert!(
        lines[0].starts_with("reg.csv:2: column `组别`: group `无此组`"),
        "{shown}"
    );
    assert!(
        lines[1].starts_with("reg.csv:3: column `组别`: the group is empty"),
        "{shown}"
    );
    assert!(lines[1].contains("`成人组` (adult)"), "{shown}");
    assert_eq!(
        lines[2],
        "2 errors in `reg.csv`; nothing was imported: fix them and import the file again"
    );
}

#[test]
fn id_numbers_are_checked_and_cross_checked() {
    let good = id("330702", "19800101", 123);
    let mut bad_checksum = good.clone();
    bad_checksum.pop();
    bad_checksum.push(if good.ends_with('0') { '1' } else { '0' });
    let text = format!(
        "姓名,性别,组别,出生日期,身份证号\n\
         甲,男,成人组,1980-01-02,{good}\n\
         乙,男,成人组,,{bad_checksum}\n"
    );
    let err = read(&text).unwrap_err();
    assert_eq!(err.errors.len(), 2, "{err}");
    assert_eq!(err.errors[0].column.as_deref(), Some("出生日期"));
    // The ID's own date is not quoted (beside the masked ID it spells the number).
    let mismatch = &err.errors[0].message.en;
    assert!(
        mismatch.contains("its digits 7–14") && !mismatch.contains("1980-01-01"),
        "{err}"
    );
    assert_eq!(err.errors[1].column.as_deref(), Some("身份证号"));
    assert!(err.errors[1].message.en.contains("checksum"), "{err}");
    // The full number is never printed.
    assert!(!err.to_string().contains(&bad_checksum), "{err}");
    assert_eq!(err.errors[1].value, Some(mask_id_number(&bad_checksum)));
}

#[test]
fn duplicates_in_the_file_and_against_registered_players() {
    let a = id("330702", "19800101", 123);
    let b = id("330702", "19800101", 125);
    let text = format!(
        "姓名,单位,组别,身份证号\n\
         甲,婺城区棋协,成人组,{a}\n\
         乙,婺城区棋协,成人组,{a}\n\
         甲,婺城区 棋协,成人组,\n\
         丙,金东区棋协,成人组,{b}\n"
    );
    let mut registered = Player::new(PlayerId(7), "丁", GroupId::new("adult"));
    registered.id_number = Some(b.to_lowercase());
    let err = read_registrations(
        text.as_bytes(),
        "reg.csv",
        &ImportOptions::default(),
        &rules(),
        &[registered],
        PlayerId(8),
    )
    .unwrap_err();
    let got: Vec<(usize, Option<&str>)> = err
        .errors
        .iter()
        .map(|e| (e.line, e.column.as_deref()))
        .collect();
    assert_eq!(
        got,
        vec![
            (3, Some("身份证号")),
            (4, Some("姓名")),
            (5, Some("身份证号"))
        ],
        "{err}"
    );
    assert!(err.errors[0].message.en.contains("line 2 (`甲`)"), "{err}");
    assert!(
        err.errors[2]
            .message
            .en
            .contains("registered player 7 (`丁`)"),
        "{err}"
    );
}

#[test]
fn a_header_without_rows_is_an_error() {
    let err = read("姓名,组别\n,\n\n").unwrap_err();
    assert_eq!(err.errors.len(), 1);
    assert_eq!(err.errors[0].line, 1);
    assert!(err.errors[0].message.en.contains("no player rows"), "{err}");
}

#[test]
fn an_id_number_in_the_wrong_column_is_masked() {
    let number = id("330702", "19800101", 123);
    let err = read(&format!("姓名,组别,出生日期\n甲,成人组,{number}\n")).unwrap_err();
    let shown = err.to_string();
    assert!(!shown.contains(&number), "{shown}");
    assert!(shown.contains(&mask_id_number(&number)), "{shown}");
    assert_eq!(err.errors[0].value, Some(mask_id_number(&number)));
}

#[test]
fn ids_continue_from_next_id() {
    let players = read_registrations(
        "姓名,组别\n甲,成人组\n乙,成人组\n".as_bytes(),
        "reg.csv",
        &ImportOptions::default(),
        &rules(),
        &[],
        PlayerId(41),
    )
    .unwrap();
    let ids: Vec<u32> = players.iter().map(|p| p.id.0).collect();
    assert_eq!(ids, vec![41, 42]);
}

#[test]
fn title_rows_blank_rows_and_comma_rows_are_skipped() {
    let text = "2018年金华市象棋棋王赛报名表,,,\n,,,\n序号,姓名,组别,单位\n1,甲,成人组,\n,,,\n\n2,乙,成人组,x\n3,,,\n4,,,\n";
    let players = read(text).unwrap();
    assert_eq!(players.len(), 2);
    assert_eq!(players[1].name, "乙");
}

#[test]
fn quoted_fields_keep_line_numbers() {
    let text = "姓名,组别,备注\n甲,成人组,\"两行,\n备注\"\n乙,无此组,\n";
    let err = read(text).unwrap_err();
    assert_eq!(err.errors.len(), 1);
    assert_eq!(err.errors[0].line, 4, "{err}");
}

#[test]
fn hostile_input_is_reported_not_panicked_on() {
    // An unclosed quote swallows the rest of the file into one field.
    let err = read("姓名,组别\n\"甲,成人组\n乙,成人组\n").unwrap_err();
    assert_eq!(err.errors.len(), 1, "{err}");
    assert_eq!(err.errors[0].line, 2);
    assert!(
        err.errors[0]
            .message
            .en
            .contains("1 fields but the header has 2"),
        "{err}"
    );
    // A file cut in the middle of a character.
    let mut bytes = "姓名,组别\n张三,成人组\n李".as_bytes().to_vec();
    bytes.pop();
    let err = read_registrations(
        &bytes,
        "cut.csv",
        &ImportOptions::default(),
        &rules(),
        &[],
        PlayerId(1),
    )
    .unwrap_err();
    assert_eq!(err.errors[0].line, 3, "{err}");
    // A field of a megabyte is refused with its place (issue 11.12), not kept as a name.
    let long = "长".repeat(400_000);
    let err = read(&format!("姓名,组别\n{long},成人组\n")).unwrap_err();
    assert_eq!(err.errors.len(), 1, "{err}");
    assert_eq!(
        (err.errors[0].line, err.errors[0].column.as_deref()),
        (2, Some("姓名"))
    );
    assert!(
        err.errors[0].message.en.contains("400000 characters"),
        "{err}"
    );
    // A header of 100,000 columns: one message (no time asserted: shared machines).
    let wide = format!("姓名,{}\n甲\n", vec!["x"; 100_000].join(","));
    let err = read(&wide).unwrap_err();
    assert_eq!(err.errors.len(), 1, "{err}");
    assert!(err.errors[0].message.en.contains("100001 columns"), "{err}");
}

#[test]
fn wrong_field_count_is_located() {
    let text = "姓名,组别,单位\n甲,成人组\n乙,成人组,x,y\n丙,成人组,z,,\n";
    let err = read(text).unwrap_err();
    let lines: Vec<usize> = err.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![2, 3], "{err}");
    assert!(
        err.errors[0]
            .message
            .en
            .contains("2 fields but the header has 3"),
        "{err}"
    );
}

#[test]
fn tab_separated_with_english_headers() {
    let text = format!(
        "Name\tGender\tClub\tGroup\tID Number\tDisabled\tTitle\n\
         Li Wei\tM\tJinhua Club\tadult\t{}\tno\t一级棋士\n\
         Wang Fang\tF\tJinhua Club\tdisabled\t\tyes\t\n",
        id("330702", "19800101", 123)
    );
    let players = read(&text).unwrap();
    assert_eq!(players[0].name, "Li Wei");
    assert_eq!(players[0].unit, "Jinhua Club");
    assert_eq!(players[0].title.as_deref(), Some("一级棋士"));
    assert_eq!(players[1].section, Some(GroupId::new("disabled")));
    assert!(players[1].disabled);
}

#[test]
fn group_column_rules() {
    // One pool: the column may be left out.
    let mut single = Rulebook::cxa_2011("x", 7);
    single.event.start_date = Some(date(2018, 1, 1));
    let players = read_registrations(
        "姓名\n甲\n".as_bytes(),
        "reg.csv",
        &ImportOptions::default(),
        &single,
        &[],
        PlayerId(1),
    )
    .unwrap();
    assert_eq!(players[0].group, GroupId::new("open"));
    // Several pools: one error at the header, not one per row.
    let err = read("姓名\n甲\n乙\n").unwrap_err();
    assert_eq!(err.errors.len(), 1, "{err}");
    assert_eq!(err.errors[0].line, 1);
    assert!(
        err.errors[0].message.en.contains("`青少年组` (youth)"),
        "{err}"
    );
}

#[test]
fn marks_and_explicit_flags() {
    let text = "姓名,组别,残疾\n甲,残疾人组,否\n乙,成人组,是\n丙,成人组,也许\n";
    let err = read(text).unwrap_err();
    let got: Vec<(usize, Option<&str>)> = err
        .errors
        .iter()
        .map(|e| (e.line, e.column.as_deref()))
        .collect();
    assert_eq!(got, vec![(2, Some("残疾")), (4, Some("残疾"))], "{err}");
    let players = read("姓名,组别,残疾\n乙,成人组,是\n").unwrap();
    assert!(players[0].disabled);
    assert_eq!(players[0].section, None);
}

#[test]
fn cells_that_say_none_are_empty() {
    let text = "姓名,组别,称号,等级分,身份证号,电话\n甲,成人组,无,-,无,/\n";
    let players = read(text).unwrap();
    let p = &players[0];
    assert_eq!(
        (&p.title, p.rating, &p.id_number, &p.phone),
        (&None, None, &None, &None)
    );
}

#[test]
fn master_titles_are_refused() {
    let err = read("姓名,组别,称号\n甲,成人组,象棋大师\n").unwrap_err();
    assert_eq!(err.errors.len(), 1);
    assert!(err.errors[0].message.en.contains("`象棋大师`"), "{err}");
    // 特级大师 ranks above both titles the regulation names.
    let err = read("姓名,组别,称号\n甲,成人组,特级大师\n").unwrap_err();
    assert!(err.errors[0].message.en.contains("`特级大师`"), "{err}");
}

/// Issue 43 §1: the amateur titles of the 中国象棋协会 ladder are below 国家级运动健将 and
/// 象棋大师, so an event closed to those accepts them; the cell is read as the canonical
/// title, whatever its spelling.
#[test]
fn amateur_titles_enter_an_event_closed_to_masters() {
    let players = read(
        "姓名,组别,称号\n甲,成人组,棋协大师\n乙,成人组,候补棋协大师\n丙,成人组,中国象棋协会 棋协候补大师\n丁,成人组,业余３级棋士\n",
    )
    .unwrap();
    let titles: Vec<_> = players.iter().map(|p| p.title.as_deref()).collect();
    assert_eq!(
        titles,
        [
            Some("棋协大师"),
            Some("棋协候补大师"),
            Some("棋协候补大师"),
            Some("三级棋士")
        ]
    );
}

/// Issue 43 §1–2 on the shipped Dongguan rulebook: 十.3 bars 国家级运动健将（象棋大师）以上
/// only, so a 棋协大师 plays in 棋王组; 十.1 names 幼儿园 children, so a 大班 child enters 棋王组
/// while 儿童棋王B组 (1-3年级) refuses the class with the regulation's grades.
#[test]
fn dongguan_takes_amateur_masters_and_kindergarten_children() {
    let rules = Rulebook::from_toml(
        include_str!("../../rules/dongguan-2018.toml"),
        "dongguan-2018.toml",
    )
    .unwrap();
    let read = |text: &str| {
        read_registrations(
            text.as_bytes(),
            "reg.csv",
            &ImportOptions::default(),
            &rules,
            &[],
            PlayerId(1),
        )
    };
    let players =
        read("姓名,组别,称号,年级\n甲,棋王组,棋协大师,\n乙,棋王组,,幼儿园大班\n").unwrap();
    assert_eq!(players[0].title.as_deref(), Some("棋协大师"));
    assert_eq!(players[1].grade, Some(0));
    let err = read("姓名,组别,年级\n丙,儿童棋王B组,大班\n").unwrap_err();
    assert_eq!(err.errors.len(), 1, "{err}");
    assert!(
        err.errors[0]
            .message
            .zh
            .contains("限1–3 年级，不含幼儿园大班"),
        "{}",
        err.errors[0].message.zh
    );
    let err = read("姓名,组别,称号\n丁,棋王组,国家大师\n").unwrap_err();
    assert!(
        err.errors[0]
            .message
            .zh
            .contains("未获得国家级运动健将称号（及以上）"),
        "{}",
        err.errors[0].message.zh
    );
}

/// Issue 43 §1: a title not on the ladder is a located error that lists the accepted ones.
#[test]
fn an_unknown_title_is_a_located_error() {
    let err = read("姓名,组别,称号\n甲,成人组,省级大师\n").unwrap_err();
    assert_eq!(err.errors.len(), 1);
    let e = &err.errors[0];
    assert_eq!(e.line, 2);
    assert_eq!(e.column.as_deref(), Some("称号"));
    assert!(e.message.en.contains("`省级大师`"), "{err}");
    assert!(
        e.message.zh.contains("棋协大师、一级运动员、地方大师")
            && e.message.en.contains("棋协大师, 一级运动员, 地方大师"),
        "{err}"
    );
}

#[test]
fn nul_and_missing_header_are_reported() {
    let err = read("姓名,组别\n甲\0,成人组\n").unwrap_err();
    assert_eq!(err.errors[0].line, 2);
    assert!(err.errors[0].message.en.contains("NUL"), "{err}");
    let err = read("a,b\n1,2\n").unwrap_err();
    assert_eq!(err.errors.len(), 1);
    assert!(err.errors[0].message.en.contains("姓名/name"), "{err}");
    // A sheet without a header starts with personal data: it is masked.
    let err = read("张三,男,330702198001011232,10012345678\n").unwrap_err();
    let shown = err.to_string();
    assert!(
        shown.contains("`张三,男,330702********1232,100****5678`"),
        "{shown}"
    );
    let err = read("").unwrap_err();
    assert_eq!(err.errors[0].line, 1);
}

#[test]
fn full_width_values_are_normalised() {
    let text = format!(
        "姓名,性别,组别,身份证号,电话\n　张　三　,男,成人组　,{},１００１２３４５６７８\n",
        id("330702", "19800101", 123)
            .chars()
            .map(|c| char::from_u32(c as u32 + 0xFEE0).unwrap())
            .collect::<String>()
    );
    let players = read(&text).unwrap();
    assert_eq!(players[0].name, "张三");
    assert_eq!(players[0].id_number, Some(id("330702", "19800101", 123)));
    assert_eq!(players[0].phone.as_deref(), Some("10012345678"));
}

/// Issue 42 §4: a name with an invisible character in it is the same name, so the
/// duplicate check sees `张\u{200b}三` and `张三` of one unit as one player registered twice.
#[test]
fn an_invisible_character_does_not_make_a_second_player() {
    for hidden in [
        "\u{200b}", "\u{200e}", "\u{202e}", "\u{2060}", "\u{feff}", "\u{ad}",
    ] {
        let text =
            format!("姓名,单位,组别\n张三,婺城区棋协,成人组\n张{hidden}三,婺城区棋协,成人组\n");
        let err = read(&text).unwrap_err();
        assert_eq!(err.errors.len(), 1, "{hidden:?}: {err}");
        assert_eq!(err.errors[0].line, 3, "{err}");
        assert!(
            err.errors[0].message.en.contains("line 2 (`张三`)"),
            "{err}"
        );
    }
    let players = read("姓名,组别\nJose\u{301},成人组\n").unwrap();
    assert_eq!(players[0].name, "José");
}

/// Issue 42 §4: an overlong name is refused at import with its cell, the message quoting
/// only its start.
#[test]
fn an_overlong_name_is_refused_with_its_cell() {
    let long = "张".repeat(3001);
    let err = read(&format!("姓名,组别\n甲,成人组\n{long},成人组\n")).unwrap_err();
    assert_eq!(err.errors.len(), 1, "{err}");
    let e = &err.errors[0];
    assert_eq!((e.line, e.column.as_deref()), (3, Some("姓名")), "{err}");
    assert!(e.message.en.contains("3001 characters"), "{err}");
    assert!(e.message.zh.contains("3001 个字符"), "{err}");
    assert!(err.to_string().chars().count() < 1000, "{err}");
    let fits = "张".repeat(normalise::MAX_NAME_CHARS);
    assert_eq!(
        read(&format!("姓名,组别\n{fits},成人组\n")).unwrap()[0].name,
        fits
    );
}

/// The header of the Jinhua example sheet, then `rows` rows of `1` in every cell: each
/// row wrong in several columns (the tester's sheet of issue 42's review).
fn wrong_rows(rows: usize) -> String {
    let mut text = "序号,姓名,性别,单位,组别,出生日期,身份证号,年级,残疾,电话\n".to_string();
    text.push_str(&"1,1,1,1,1,1,1,1,1,1\n".repeat(rows));
    text
}

#[test]
fn a_sheet_of_wrong_rows_keeps_the_first_errors_and_stops_reading() {
    // Old code: one located error per wrong cell, 8,000 here, and 969 MB for 190,000 rows.
    let err = read(&wrong_rows(2_000)).unwrap_err();
    assert_eq!(err.errors.len(), MAX_SHOWN, "{err}");
    let lines: Vec<usize> = err.errors.iter().map(|e| e.line).collect();
    assert!(lines.is_sorted(), "{lines:?}");
    assert_eq!(lines[0], 2);
    // Reading stopped at the first row after those shown, well before the end.
    let stop = err.stopped.as_ref().expect("stopped");
    assert_eq!(stop.line, lines[MAX_SHOWN - 1] + 1);
    assert!(stop.line < 100, "{stop:?}");
    for lang in [Lang::En, Lang::Zh] {
        let text = err.localize(lang);
        assert_eq!(
            text.lines().count(),
            MAX_SHOWN + 2 + usize::from(!err.more.is_empty())
        );
        assert!(text.len() < 40_000, "{} bytes", text.len());
    }
    let en = err.localize(Lang::En);
    assert!(
        en.contains(&format!("reading stopped at reg.csv:{}", stop.line)),
        "{en}"
    );
    assert!(en.contains("before reading stopped"), "{en}");
    let zh = err.localize(Lang::Zh);
    assert!(
        zh.contains(&format!("读到 reg.csv:{} 时停止", stop.line)),
        "{zh}"
    );
}

#[test]
fn each_line_of_the_refusal_is_short() {
    // Each row names a group of 3,000 characters: the message quoting it is cut, its
    // place still says where it is.
    let long = "组".repeat(3_000);
    let mut text = "姓名,组别\n".to_string();
    for i in 0..300 {
        text.push_str(&format!("张{i},{long}\n"));
    }
    let err = read(&text).unwrap_err();
    assert_eq!(err.errors.len(), MAX_SHOWN, "{err}");
    for lang in [Lang::En, Lang::Zh] {
        let text = err.localize(lang);
        let longest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(longest <= 601, "{longest}");
        assert!(text.len() < 200_000, "{} bytes", text.len());
        assert!(text.contains("reg.csv:101"), "{text}");
    }
}

#[test]
fn wrong_rows_count_toward_the_event_maximum() {
    // Old code: rows of digits were never counted, so 200 wrong rows under a maximum of
    // 50 gave 800 located errors instead of the maximum's refusal.
    let mut rules = rules();
    rules.event.max_players = Some(50);
    let err = read_registrations(
        wrong_rows(200).as_bytes(),
        "reg.csv",
        &ImportOptions::default(),
        &rules,
        &[],
        PlayerId(1),
    )
    .unwrap_err();
    assert_eq!(err.errors.len(), 1, "{err}");
    assert!(
        err.errors[0].message.en.contains("at most `50` players"),
        "{err}"
    );
    // A template's pre-numbered empty rows still do not count.
    let mut text = "序号,姓名,组别\n1,张三,成人组\n".to_string();
    for n in 2..=500 {
        text.push_str(&format!("{n},,\n"));
    }
    let players = read_registrations(
        text.as_bytes(),
        "reg.csv",
        &ImportOptions::default(),
        &rules,
        &[],
        PlayerId(1),
    )
    .unwrap();
    assert_eq!(players.len(), 1);
}

#[test]
fn a_batch_shows_the_first_errors_of_the_first_file_and_stops_there() {
    let bad = wrong_rows(500);
    let good = "姓名,组别\n张三,成人组\n";
    let files = [
        RegistrationFile {
            source: "a.csv".to_string(),
            bytes: bad.as_bytes(),
        },
        RegistrationFile {
            source: "b.csv".to_string(),
            bytes: good.as_bytes(),
        },
    ];
    let err = read_batch(
        &files,
        &BatchOptions::default(),
        &rules(),
        &[],
        &Default::default(),
        PlayerId(1),
    )
    .unwrap_err();
    assert_eq!(err.errors.len(), MAX_SHOWN);
    assert!(
        err.errors
            .iter()
            .all(|e| e.place.as_ref().is_some_and(|p| p.file == "a.csv")),
        "{err}"
    );
    let stop = err.stopped.as_ref().expect("stopped");
    assert_eq!(stop.place.as_ref().map(|p| p.file.as_str()), Some("a.csv"));
}

#[test]
fn a_head_count_row_states_its_number() {
    let row = |cells: &[&str]| -> Vec<String> { cells.iter().map(ToString::to_string).collect() };
    let table: &[(&[&str], Option<usize>)] = &[
        (&["共150人"], Some(150)),
        (&["150 人"], Some(150)),
        (&["合计：150人", "", ""], Some(150)),
        (&["合计:150"], Some(150)),
        (&["共计 150 名"], Some(150)),
        (&["总计１５０人"], Some(150)),
        (&["", "合计", "150人"], Some(150)),
        (&["Total: 150 players"], Some(150)),
        (&["TOTAL: 12 PLAYERS"], Some(12)),
        (&["12 players in total"], Some(12)),
        (&["共十人"], Some(10)),
        (&["一百五十人"], Some(150)),
        (&["两百零三名"], Some(203)),
        // A subtotal is not the list's count (a sheet may give one per unit).
        (&["小计：10人"], None),
        (&["共有10人"], Some(10)),
        (&["以上共10人"], Some(10)),
        (&["共10人。"], Some(10)),
        (&["共 10 人（男8女2）"], Some(10)),
        (&["男8人，女2人，共10人"], Some(10)),
        (&["成人组共10人"], Some(10)),
        (&["报名人数：10"], Some(10)),
        (&["共10人 填表人：张三"], Some(10)),
        // A player's row is never a count, whatever its cells say.
        (&["共11人", "张三", "男", "成人组"], None),
        (&["张三", "共3人", "男"], None),
        (&["1 player"], Some(1)),
        // No label and no unit: a number, not a head count.
        (&["150"], None),
        // A label with something other than a count.
        (&["合计", "3000元"], None),
        (&["共青团"], None),
        (&["填表人：张三"], None),
        (&["张三", "男", "无为一中"], None),
        (&["", "", ""], None),
        // A bound is no count.
        (&["参赛人数：200人以内"], None),
        (&["共10人以上"], None),
    ];
    for (cells, want) in table {
        let footer = footer::footer_of(&row(cells));
        assert_eq!(footer.and_then(|f| f.head_count), *want, "{cells:?}");
    }
}

#[test]
fn a_title_row_states_a_count_in_a_cell_or_its_brackets() {
    let row = |cells: &[&str]| -> Vec<String> { cells.iter().map(ToString::to_string).collect() };
    let table: &[(&[&str], Option<usize>)] = &[
        (&["2026年少儿象棋赛报名表（共150人）"], Some(150)),
        (&["2026年少儿象棋赛报名表 (共150人)", "", ""], Some(150)),
        (&["共150人"], Some(150)),
        (&["2026年少儿象棋赛报名表", "共150人"], Some(150)),
        (&["报名表", "日期：2026年5月1日", "合计：12人"], Some(12)),
        (&["2026年少儿象棋赛报名表"], None),
        (&["2026年少儿象棋赛报名表（第二版）"], None),
        (&["报名表（每队限报5人）"], None),
        (&["报名表（参赛人数200人以内）"], None),
    ];
    for (cells, want) in table {
        assert_eq!(footer::title_head_count(&row(cells)), *want, "{cells:?}");
    }
}

#[test]
fn the_largest_count_stated_is_compared_at_its_first_line() {
    let stated = |counts: &[(usize, usize)]| {
        let mut s = footer::StatedCounts::default();
        for &(line, n) in counts {
            s.push(line, n);
        }
        s
    };
    assert_eq!(stated(&[]).differing(3), None);
    // A title and a footer stating one total: said once, at the title.
    let total = |line, count| Some(footer::StatedCount::Total { line, count });
    assert_eq!(stated(&[(1, 4), (9, 4)]).differing(3), total(1, 4));
    assert_eq!(stated(&[(1, 3), (9, 1)]).differing(3), None);
    // Parts that add up agree; totals that add up are no parts (共2人 and 合计：1人 is
    // no 3); a largest count that is the others' sum is a total.
    let mut parts = footer::StatedCounts::default();
    parts.push_part(7, 2);
    parts.push_part(8, 1);
    assert_eq!(parts.differing(3), None);
    assert_eq!(stated(&[(7, 2), (8, 1)]).differing(3), total(7, 2));
    assert_eq!(stated(&[(7, 2), (8, 2)]).differing(3), total(7, 2));
    assert_eq!(stated(&[(7, 2), (8, 1), (9, 3)]).differing(4), total(9, 3));
    // Parts without their total that add up to another number are named as parts
    // (男子组共8人 / 女子组共3人, 10 read: 8+3=11, never 共 8 人).
    let mut parts = footer::StatedCounts::default();
    parts.push_part(12, 8);
    parts.push_part(13, 3);
    let parts = parts.differing(10);
    assert_eq!(
        parts,
        Some(footer::StatedCount::Parts {
            line: 12,
            parts: vec![8, 3]
        })
    );
    assert_eq!(parts.map(|p| p.count()), Some(11));
    // A part alone (女子组共1人 under 3 players) is no count of the sheet; beside a
    // total, the total is compared.
    let mut lone = footer::StatedCounts::default();
    lone.push_part(7, 1);
    assert_eq!(lone.differing(3), None);
    lone.push(1, 4);
    assert_eq!(lone.differing(3), total(1, 4));
    assert_eq!(lone.differing(4), None);
    // A total that agrees beside parts that do not add up to it (共10人, 男子组共8人,
    // 女子组共3人): the parts are named.
    let mut both = footer::StatedCounts::default();
    both.push(1, 10);
    both.push_part(12, 8);
    both.push_part(13, 3);
    assert_eq!(
        both.differing(10),
        Some(footer::StatedCount::Parts {
            line: 12,
            parts: vec![8, 3]
        })
    );
    let mut agree = footer::StatedCounts::default();
    agree.push(1, 10);
    agree.push_part(12, 7);
    agree.push_part(13, 3);
    assert_eq!(agree.differing(10), None);
}

/// A gender read from the ID number is said at the empty 性别 cell; a sheet with no 性别
/// column has it said at the ID number it was read from, naming no column it lacks.
#[test]
fn a_gender_read_from_the_id_number_is_said_where_it_was_read() {
    let man = id("330702", "19800101", 123);
    let warnings = |text: String| {
        let file = RegistrationFile {
            source: "reg.csv".into(),
            bytes: text.as_bytes(),
        };
        read_batch(
            &[file],
            &BatchOptions::default(),
            &rules(),
            &[],
            &EntryPools::default(),
            PlayerId(1),
        )
        .unwrap()
        .warnings
    };
    let with_column = warnings(format!("姓名,性别,组别,身份证号\n甲,,成人组,{man}\n"));
    assert_eq!(with_column[0].column.as_deref(), Some("性别"));
    assert!(with_column[0].message.en.contains("no gender given"));
    let without = warnings(format!("姓名,组别,身份证号\n甲,成人组,{man}\n"));
    assert_eq!(without[0].column.as_deref(), Some("身份证号"));
    for text in [&without[0].message.zh, &without[0].message.en] {
        assert!(!text.contains("性别/gender"), "{text}");
    }
    assert!(
        without[0]
            .message
            .en
            .contains("the gender was read from the ID number as male"),
        "{:?}",
        without[0].message
    );
}

/// A row whose pool takes no entries ([`BatchOptions::cancelled`]) is refused at its line
/// and group cell, a section's naming the pool it plays in; the other rows are read as
/// usual, their own problems kept.
#[test]
fn a_row_for_a_cancelled_pool_is_refused_at_its_line() {
    let text = "姓名,性别,组别,残疾\n甲,男,成人组,\n乙,男,残疾人组,是\n丙,男,青少年组,\n";
    let file = RegistrationFile {
        source: "reg.csv".to_string(),
        bytes: text.as_bytes(),
    };
    let adult = GroupId::new("adult");
    let pools = EntryPools {
        cancelled: [(adult.clone(), adult)].into(),
        ..EntryPools::default()
    };
    let err = read_batch(
        &[file],
        &BatchOptions::default(),
        &rules(),
        &[],
        &pools,
        PlayerId(1),
    )
    .unwrap_err();
    let got: Vec<(usize, Option<&str>, String)> = err
        .errors
        .iter()
        .map(|e| (e.line, e.column.as_deref(), e.message.zh.clone()))
        .collect();
    assert_eq!(
        got[..2],
        [
            (
                2,
                Some("组别"),
                "成人组已取消，不再接受报名：请为甲改报其他组别".to_string()
            ),
            (
                3,
                Some("组别"),
                "残疾人组在成人组中编排，而成人组已取消，不再接受报名：请为乙改报其他组别"
                    .to_string()
            ),
        ],
        "{err}"
    );
    assert!(got[2..].iter().all(|(line, ..)| *line == 4), "{err}");
    assert!(err.to_string().contains("reg.csv:2: column `组别`: 成人组 has been cancelled and takes no entries: enter 甲 in another group"), "{err}");
}

/// A workbook whose sheets with a header row are all hidden is refused naming each of
/// them and the `--sheet` that reads it, not as a workbook without a header row.
#[test]
fn hidden_headed_sheets_are_named_when_no_visible_sheet_has_a_header() {
    let mut book = rust_xlsxwriter::Workbook::new();
    book.add_worksheet()
        .set_name("说明")
        .unwrap()
        .write_string(0, 0, "填写说明")
        .unwrap();
    for name in ["甲组", "乙 组"] {
        let ws = book.add_worksheet();
        ws.set_name(name).unwrap();
        ws.write_string(0, 0, "姓名").unwrap();
        ws.write_string(0, 1, "组别").unwrap();
        ws.write_string(1, 0, "张三").unwrap();
        ws.write_string(1, 1, "成人组").unwrap();
        ws.set_hidden(true);
    }
    let bytes = book.save_to_buffer().unwrap();
    let file = RegistrationFile {
        source: "h.xlsx".to_string(),
        bytes: &bytes,
    };
    let err = read_batch(
        &[file],
        &BatchOptions::default(),
        &rules(),
        &[],
        &EntryPools::default(),
        PlayerId(1),
    )
    .unwrap_err();
    assert_eq!(err.errors.len(), 1, "{err}");
    let en = &err.errors[0].message.en;
    assert!(
        en.starts_with(
            "the sheets with a header row (a 姓名/name column), `甲组`, `乙 组`, are hidden"
        ),
        "{en}"
    );
    assert!(en.ends_with("--sheet 甲组 or --sheet '乙 组'"), "{en}");
    let zh = &err.errors[0].message.zh;
    assert!(zh.contains("`甲组`、`乙 组` 都是隐藏的"), "{zh}");
}

/// A 领队 or 教练 column is a staff column, not an unknown one: the programme prints it,
/// so the import says so, and `--strict` (which refuses unknown columns) reads it. A
/// column merely mentioning the role (领队电话) is still unknown.
#[test]
fn a_staff_column_is_said_to_be_one_not_unknown() {
    let read = |text: &str, strict: bool| {
        let file = RegistrationFile {
            source: "reg.csv".into(),
            bytes: text.as_bytes(),
        };
        let options = BatchOptions {
            strict,
            ..BatchOptions::default()
        };
        read_batch(
            &[file],
            &options,
            &rules(),
            &[],
            &EntryPools::default(),
            PlayerId(1),
        )
    };
    let batch = read(
        "姓名,组别,领队,领队电话\n甲,成人组,王五,13700137000\n",
        false,
    )
    .unwrap();
    let said = |column: &str| {
        batch
            .warnings
            .iter()
            .filter(|w| w.column.as_deref() == Some(column))
            .map(|w| w.message.en.clone())
            .collect::<Vec<_>>()
    };
    let lead = said("领队");
    assert_eq!(lead.len(), 1, "{lead:?}");
    assert!(
        lead[0].contains("is a staff column (the unit's team leader"),
        "{lead:?}"
    );
    assert!(!lead[0].contains("does not know"), "{lead:?}");
    assert!(said("领队电话")[0].contains("does not know the column `领队电话`"));
    assert_eq!(
        batch.players[0].extra.get("领队").map(String::as_str),
        Some("王五")
    );
    let strict = read("姓名,组别,教练员\n甲,成人组,李四\n", true).unwrap();
    assert!(
        strict.warnings[0]
            .message
            .zh
            .contains("`教练员` 列是教练列")
    );
}
