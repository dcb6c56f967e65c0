//! Registration import over the bundled example sheets and over hostile input.
//!
//! The rulebooks are the shipped `rules/jinhua-2018.toml` and `rules/dongguan-2018.toml`,
//! so these tests pin the import together with the real eligibility rules.

use chrono::NaiveDate;
use proptest::prelude::*;
use qiwang::model::{Gender, GroupId, Player, PlayerId};
use qiwang::privacy::mask_id_number;
use qiwang::registration::{
    ImportErrors, ImportOptions, eligibility::age_on, group_sizes, id_card::check_character,
    read_registrations,
};
use qiwang::rulebook::Rulebook;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

/// A shipped rulebook, as an organiser would load it.
fn shipped(name: &str) -> Rulebook {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "rules", name].iter().collect();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Rulebook::from_toml(&text, name).unwrap_or_else(|e| panic!("{e}"))
}

/// Jinhua 2018 (S1): 十 竞赛组别, 十一 参赛资格.
fn jinhua() -> Rulebook {
    shipped("jinhua-2018.toml")
}

/// Dongguan 2018 (S2): 九 组别设置, 十 参赛资格.
fn dongguan() -> Rulebook {
    shipped("dongguan-2018.toml")
}

fn example(name: &str) -> Vec<u8> {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "examples",
        name,
        "registrations.csv",
    ]
    .iter()
    .collect();
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `bytes` read as file `source` with the default options into an event that has the
/// `existing` players, numbering the new ones on from theirs.
fn read_after(
    bytes: &[u8],
    source: &str,
    rules: &Rulebook,
    existing: &[Player],
) -> Result<Vec<Player>, ImportErrors> {
    let next = u32::try_from(existing.len()).unwrap() + 1;
    read_registrations(
        bytes,
        source,
        &ImportOptions::default(),
        rules,
        existing,
        PlayerId(next),
    )
}

fn import(bytes: &[u8], rules: &Rulebook) -> Vec<Player> {
    read_after(bytes, "registrations.csv", rules, &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// Players per (pool, section).
fn census(players: &[Player]) -> BTreeMap<(String, Option<String>), usize> {
    let mut counts = BTreeMap::new();
    for p in players {
        let key = (
            p.group.to_string(),
            p.section.as_ref().map(ToString::to_string),
        );
        *counts.entry(key).or_insert(0) += 1;
    }
    counts
}

fn key(pool: &str, section: Option<&str>) -> (String, Option<String>) {
    (pool.to_string(), section.map(str::to_string))
}

#[test]
fn jinhua_example_lands_in_the_right_pools() {
    let rules = jinhua();
    let players = import(&example("jinhua-2018"), &rules);
    assert_eq!(players.len(), 150);
    let want = BTreeMap::from([
        (key("adult", None), 70),
        (key("adult", Some("disabled")), 8),
        (key("youth", None), 24),
        (key("kids", None), 28),
        (key("kids_b", None), 20),
    ]);
    assert_eq!(census(&players), want);
    let ids: Vec<u32> = players.iter().map(|p| p.id.0).collect();
    assert_eq!(ids, (1..=150).collect::<Vec<_>>());
    let reference = date(2018, 10, 26);
    for p in &players {
        let id_number = p.id_number.as_deref().expect("every row has an ID number");
        assert!(
            id_number.len() == 18 && !id_number.ends_with('x'),
            "{id_number}"
        );
        assert!(p.birth_date.is_some() && p.gender.is_some(), "{}", p.name);
        assert!(!p.name.contains(' '), "{}", p.name);
        assert!(
            p.phone.as_deref().is_some_and(|ph| ph.starts_with("100")),
            "{:?}",
            p.phone
        );
        assert_eq!(p.disabled, p.section.is_some(), "{}", p.name);
        let age = age_on(p.birth_date.unwrap(), reference);
        match p.group.as_str() {
            "youth" => assert!(age < 16, "{} is {age}", p.name),
            "kids" => assert!(age < 14, "{} is {age}", p.name),
            "kids_b" => assert!(matches!(p.grade, Some(1 | 2)), "{:?}", p.grade),
            _ => assert!(age >= 18, "{} is {age}", p.name),
        }
    }
    // Both genders in the groups ranked separately by gender.
    for pool in ["kids", "kids_b"] {
        for g in [Gender::Male, Gender::Female] {
            assert!(
                players
                    .iter()
                    .any(|p| p.group.as_str() == pool && p.gender == Some(g)),
                "{pool} {g:?}"
            );
        }
    }
    // Six units can field an adult team of three (成人团体取同单位最好的前三名).
    let mut units: BTreeMap<&str, usize> = BTreeMap::new();
    for p in players.iter().filter(|p| p.group.as_str() == "adult") {
        *units.entry(p.unit.as_str()).or_default() += 1;
    }
    assert!(
        units.values().filter(|&&n| n >= 3).count() >= 6,
        "{units:?}"
    );
}

#[test]
fn dongguan_example_is_gbk_and_lands_in_the_right_pools() {
    let bytes = example("dongguan-2018");
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the Dongguan sheet must be real GBK"
    );
    let rules = dongguan();
    let players = import(&bytes, &rules);
    let want = BTreeMap::from([
        (key("king", None), 34),
        (key("king", Some("local")), 10),
        (key("teen_boys", None), 20),
        (key("teen_girls", None), 12),
        (key("kids_girls", None), 7),
        (key("kids_a", None), 20),
        (key("kids_b", None), 20),
    ]);
    assert_eq!(census(&players), want);
    // Locals: every 本地组 registration, and the six who wrote 本地=是 under 棋王组.
    let section_locals = players.iter().filter(|p| p.section.is_some()).count();
    assert!(
        players
            .iter()
            .filter(|p| p.section.is_some())
            .all(|p| p.local)
    );
    let direct_locals = players
        .iter()
        .filter(|p| p.group.as_str() == "king" && p.section.is_none() && p.local)
        .count();
    assert_eq!((section_locals, direct_locals), (10, 6));
    assert!(
        players
            .iter()
            .filter(|p| p.group.as_str() != "king")
            .all(|p| !p.local)
    );
    for p in &players {
        // No 出生日期 column: birth date and gender come from the ID number.
        let id_number = p.id_number.as_deref().unwrap();
        assert!(id_number.starts_with("441900"), "{id_number}");
        assert!(p.birth_date.is_some() && p.gender.is_some(), "{}", p.name);
        match p.group.as_str() {
            "teen_boys" => assert_eq!(p.gender, Some(Gender::Male)),
            "teen_girls" | "kids_girls" => assert_eq!(p.gender, Some(Gender::Female)),
            _ => {}
        }
    }
    let notes = players
        .iter()
        .filter(|p| p.extra.contains_key("备注"))
        .count();
    assert_eq!(notes, 4);
    // 儿童女子棋王组 is deliberately short of the regulation's ten players.
    let short: Vec<(String, usize)> = group_sizes(&rules, &players)
        .into_iter()
        .filter(qiwang::registration::GroupSize::is_short)
        .map(|g| (g.name, g.count))
        .collect();
    assert_eq!(short, vec![("儿童女子棋王组".to_string(), 7)]);
}

#[test]
fn a_second_file_adds_to_the_event() {
    let rules = jinhua();
    let first = import(&example("jinhua-2018"), &rules);
    let late = format!(
        "姓名,性别,单位,组别,身份证号\n新来者,男,婺城区象棋协会,成人组,{}\n",
        valid_id("330702", "19800101", 123)
    );
    let second = read_after(late.as_bytes(), "late.csv", &rules, &first).unwrap();
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].id, PlayerId(151));
    // Importing the same sheet again is refused row by row: the first 100 rows shown,
    // and reading stopped there (issue 42 review F1: errors are bounded).
    let again =
        read_after(&example("jinhua-2018"), "registrations.csv", &rules, &first).unwrap_err();
    assert_eq!(again.errors.len(), qiwang::registration::MAX_SHOWN);
    assert!(again.stopped.is_some(), "{again}");
    assert!(
        again
            .errors
            .iter()
            .all(|e| e.message.en.contains("registered player"))
    );
}

fn valid_id(region: &str, birth: &str, seq: u32) -> String {
    let first17 = format!("{region}{birth}{seq:03}");
    format!("{first17}{}", check_character(&first17).unwrap())
}

/// The number with a wrong check character.
fn corrupt(id: &str) -> String {
    let wrong = if id.ends_with('0') { '1' } else { '0' };
    format!("{}{wrong}", &id[..17])
}

#[test]
fn five_bad_rows_give_five_located_errors() {
    let rules = dongguan();
    let boy = valid_id("441900", "20050301", 111);
    let text = format!(
        "姓名,性别,单位,组别,身份证号,年级,本地\n\
         好人,男,石龙中学,少年男子棋王组,{},初二,\n\
         错号,男,石龙中学,少年男子棋王组,{},初二,\n\
         女孩,女,石龙中学,少年男子棋王组,{},初二,\n\
         小童,男,石龙镇实验小学,儿童棋王A组,{},二年级,\n\
         外地,男,虎门镇象棋协会,本地组,{},,否\n\
         重复,男,石龙中学,少年男子棋王组,{boy},初二,\n",
        boy,
        corrupt(&valid_id("441900", "20050301", 113)),
        valid_id("441900", "20050301", 112),
        valid_id("441900", "20100301", 115),
        valid_id("441900", "19800301", 117),
    );
    let err = read_after(text.as_bytes(), "bad.csv", &rules, &[]).unwrap_err();
    let located: Vec<(usize, Option<&str>)> = err
        .errors
        .iter()
        .map(|e| (e.line, e.column.as_deref()))
        .collect();
    assert_eq!(
        located,
        vec![
            (3, Some("身份证号")),
            (4, Some("组别")),
            (5, Some("组别")),
            (6, Some("本地")),
            (7, Some("身份证号")),
        ],
        "{err}"
    );
    let shown = err.to_string();
    assert!(
        shown.contains("bad.csv:4: column `组别`: 少年男子棋王组 is for male (男) players only"),
        "{shown}"
    );
    assert!(
        shown.contains("bad.csv:7: column `身份证号`: ID number"),
        "{shown}"
    );
    assert!(
        shown.ends_with(
            "5 errors in `bad.csv`; nothing was imported: fix them and import the file again"
        ),
        "{shown}"
    );
    assert!(!shown.contains(&boy), "the ID number is masked: {shown}");
    assert!(shown.contains(&mask_id_number(&boy)), "{shown}");
}

/// One sheet written three ways must import to the same players.
#[test]
fn utf8_bom_and_gbk_import_alike() {
    let rules = jinhua();
    let text = format!(
        "姓名,性别,单位,组别,身份证号,残疾\n张伟,男,金东区棋类协会,残疾人组,{},是\n",
        valid_id("330703", "19700101", 135)
    );
    let plain = import(text.as_bytes(), &rules);
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(text.as_bytes());
    let (gbk, _, _) = encoding_rs::GBK.encode(&text);
    assert_eq!(import(&bom, &rules), plain);
    assert_eq!(import(&gbk, &rules), plain);
    assert_eq!(plain[0].name, "张伟");
    assert_eq!(plain[0].section, Some(GroupId::new("disabled")));
}

#[test]
fn tab_separated_english_headers() {
    let rules = dongguan();
    let text = format!(
        "No.\tName\tGender\tSchool\tGroup\tID Number\tGrade\tLocal\n\
         1\tChen Jie\tgirl\tShilong Primary\tkids_girls\t{}\tGrade 3\tn\n\
         2\tLi Ming\tboy\tDongguan Chess Club\tlocal\t\t\tyes\n",
        valid_id("441900", "20090901", 222)
    );
    let players = import(text.as_bytes(), &rules);
    assert_eq!(players[0].group, GroupId::new("kids_girls"));
    assert_eq!(players[0].grade, Some(3));
    assert_eq!(players[0].unit, "Shilong Primary");
    assert_eq!(players[1].group, GroupId::new("king"));
    assert_eq!(players[1].section, Some(GroupId::new("local")));
    assert!(players[1].local);
}

/// A sheet-like text built from pieces that often break parsers.
fn sheet_text() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        Just(String::new()),
        Just("\"".to_string()),
        Just("\"a,b\"".to_string()),
        Just("成人组".to_string()),
        Just("残疾人组".to_string()),
        Just("是".to_string()),
        Just("男".to_string()),
        Just("2008-02-30".to_string()),
        Just("330702200805011234".to_string()),
        Just("11010519491231002X".to_string()),
        Just("\u{3000}".to_string()),
        Just("\0".to_string()),
        "[\\PC]{0,12}",
        "[0-9xX]{0,20}",
    ];
    let row = prop::collection::vec(cell, 0..8)
        .prop_map(|cells| cells.join(if cells.len() % 2 == 0 { "," } else { "\t" }));
    (prop::collection::vec(row, 0..12), any::<bool>()).prop_map(|(rows, crlf)| {
        let mut text = String::from("姓名,性别,组别,出生日期,身份证号,残疾,年级\n");
        text.push_str(&rows.join(if crlf { "\r\n" } else { "\n" }));
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let rules = jinhua();
        for encoding in ["auto", "utf-8", "gbk"] {
            let opts = ImportOptions { encoding: encoding.parse().unwrap() };
            let _ = read_registrations(&bytes, "fuzz.csv", &opts, &rules, &[], PlayerId(1));
        }
    }

    #[test]
    fn sheet_like_text_never_panics(text in sheet_text(), huge in any::<bool>()) {
        let rules = dongguan();
        let mut text = text;
        if huge {
            text.push_str(&"长".repeat(100_000));
        }
        let result = read_registrations(
            text.as_bytes(), "fuzz.csv", &ImportOptions::default(), &rules, &[], PlayerId(1),
        );
        if let Err(e) = result {
            prop_assert!(!e.errors.is_empty());
            prop_assert!(e.errors.iter().all(|r| r.line >= 1));
        }
    }
}

/// Dongguan 十四.1 报名总人数暂限300人: a file that would pass the cap is refused whole.
#[test]
fn the_event_cap_refuses_the_whole_file() {
    let mut rules = jinhua();
    rules.event.max_players = Some(151);
    let first = import(&example("jinhua-2018"), &rules);
    let two = format!(
        "姓名,性别,单位,组别,身份证号\n新来者,男,婺城区象棋协会,成人组,{}\n又一位,男,婺城区象棋协会,成人组,{}\n",
        valid_id("330702", "19800101", 123),
        valid_id("330702", "19810101", 125)
    );
    let err = read_after(two.as_bytes(), "late.csv", &rules, &first).unwrap_err();
    assert_eq!(err.errors.len(), 1);
    assert!(
        err.errors[0].message.en.contains("`151` players"),
        "{}",
        err.errors[0].message.en
    );
    assert!(err.errors[0].message.en.contains("remove 1 row"));
    // One more player still fits.
    let one = two.lines().take(2).collect::<Vec<_>>().join("\n");
    let ok = read_after(one.as_bytes(), "late.csv", &rules, &first).unwrap();
    assert_eq!(ok.len(), 1);
}

/// 出生年月 (year and month only), as many Excel sheets have it: checked against the ID
/// card (which gives the day); without a card, refused only when the age limit falls
/// inside that month (Jinhua 青少年组: under 16 on 2018-10-26).
#[test]
fn birth_month_only_is_accepted_unless_the_day_decides() {
    let rules = jinhua();
    let sheet = format!(
        "姓名,性别,单位,组别,出生年月,身份证号\n\
         甲,男,婺城区象棋协会,青少年组,2005-3,\n\
         乙,男,婺城区象棋协会,青少年组,2002-10,\n\
         丙,男,婺城区象棋协会,青少年组,2005-03,{}\n\
         丁,男,婺城区象棋协会,青少年组,2005-04,{}\n",
        valid_id("330702", "20050317", 123),
        valid_id("330702", "20050317", 125),
    );
    let err = read_after(sheet.as_bytes(), "ym.csv", &rules, &[]).unwrap_err();
    let lines: Vec<usize> = err.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![3, 5], "{err}");
    assert!(err.errors[0].message.en.contains("has no day"), "{err}");
    assert!(err.errors[1].message.en.contains("differs"), "{err}");
    let ok = sheet
        .lines()
        .take(2)
        .chain(sheet.lines().skip(3).take(1))
        .collect::<Vec<_>>()
        .join("\n");
    let players = read_after(ok.as_bytes(), "ym.csv", &rules, &[]).unwrap();
    assert_eq!(players[0].birth_date, NaiveDate::from_ymd_opt(2005, 3, 1));
    assert_eq!(players[1].birth_date, NaiveDate::from_ymd_opt(2005, 3, 17));
}

fn import_err(text: &str, rules: &Rulebook) -> Vec<(usize, Option<String>, String)> {
    let err = read_after(text.as_bytes(), "registrations.csv", rules, &[])
        .expect_err("the sheet should be refused");
    err.errors
        .iter()
        .map(|e| (e.line, e.column.clone(), e.message.en.clone()))
        .collect()
}

/// Issue 10 §5: 少儿精英组 has boys' and girls' prize lists, so a row without a gender and
/// without an ID number is refused (line and column named) instead of falling into
/// neither list.
#[test]
fn a_gender_split_group_refuses_a_row_without_gender() {
    let rules = jinhua();
    let text = "姓名,性别,单位,组别,出生日期\n甲,男,一中,少儿精英组,2008-01-01\n乙,,二中,少儿精英组,2008-02-02\n丙,,三中,成人组,1980-01-01\n";
    let errors = import_err(text, &rules);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let (line, column, message) = &errors[0];
    assert_eq!((*line, column.as_deref()), (3, Some("性别")));
    assert!(message.contains("split by gender"), "{message}");
    // An ID number gives the gender.
    let ok = "姓名,性别,单位,组别,身份证号\n乙,,二中,少儿精英组,330702200801010027\n";
    let players = import(ok.as_bytes(), &rules);
    assert_eq!(players[0].gender, Some(Gender::Female));
}

/// Issue 10 §5: 残疾人组 必须有残疾证 (Jinhua 十) and 本地组 (Dongguan 十) read the status from
/// the sheet: an empty cell, or no such column, is refused with its line.
#[test]
fn a_section_that_requires_a_status_reads_it_from_the_sheet() {
    let jinhua = jinhua();
    let text = "姓名,性别,单位,组别,残疾\n甲,男,一中,残疾人组,是\n乙,男,二中,残疾人组,\n";
    let errors = import_err(text, &jinhua);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!((errors[0].0, errors[0].1.as_deref()), (3, Some("残疾")));
    assert!(
        errors[0].2.contains("残疾人组 requires 残疾 to be yes"),
        "{}",
        errors[0].2
    );
    let without_column = "姓名,性别,单位,组别\n乙,男,二中,残疾人组\n";
    let errors = import_err(without_column, &jinhua);
    assert_eq!(
        (errors[0].0, errors[0].1.as_deref()),
        (2, Some("残疾/disabled"))
    );

    let dongguan = dongguan();
    let text = "姓名,性别,单位,组别,身份证号,本地\n甲,男,一中,本地组,441900196609298150,\n";
    let errors = import_err(text, &dongguan);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!((errors[0].0, errors[0].1.as_deref()), (2, Some("本地")));
}

/// Issue 10 §5: an age limit says whether its own age may enter; the shipped Jinhua
/// rulebook reads 16周岁以下 as under 16, and a rulebook that does not say is refused.
#[test]
fn an_age_limit_states_whether_it_includes_its_age() {
    let rules = jinhua();
    let youth = rules.find_group("youth").unwrap();
    assert_eq!(youth.eligibility.age_max_inclusive, Some(false));
    // 16 on 2018-10-26: not in 青少年组.
    let text = "姓名,性别,单位,组别,出生日期\n甲,男,一中,青少年组,2002-10-26\n";
    assert_eq!(import_err(text, &rules).len(), 1);
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "rules", "jinhua-2018.toml"]
        .iter()
        .collect();
    let shipped = std::fs::read_to_string(path).unwrap();
    let unsaid = shipped.replace("age_max_inclusive = false\n", "");
    let err = Rulebook::from_toml(&unsaid, "jinhua.toml")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("under_age `16` does not say whether age 16 itself may enter"),
        "{err}"
    );
    let inclusive = shipped.replace("age_max_inclusive = false\n", "age_max_inclusive = true\n");
    let rules = Rulebook::from_toml(&inclusive, "jinhua.toml").unwrap();
    let players = import(text.as_bytes(), &rules);
    assert_eq!(players.len(), 1);
}
