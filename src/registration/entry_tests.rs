//! Tests of one player entered field by field: the same player and the same located
//! problems as a row of a sheet, a hostile value of every field, late entry and edits.

use super::*;
use crate::i18n::Text;
use crate::i18n::facts::{assert_localized, assert_same};
use crate::model::{GroupState, PlayerStatus, Round};
use crate::registration::tests::{date, group, id, rules};
use crate::registration::{ImportOptions, read_registrations};
use crate::rulebook::{Eligibility, Marks};

/// The test rulebook with a 本地组 inside 成人组 that only local residents may enter.
fn local_rules() -> Rulebook {
    let mut r = rules();
    r.groups.push(group(
        "local",
        "本地组",
        Some("adult"),
        Marks {
            disabled: false,
            local: true,
        },
        Eligibility {
            local: true,
            ..Default::default()
        },
    ));
    r
}

fn entry(name: &str, group: &str) -> PlayerEntry {
    PlayerEntry {
        name: Some(name.to_string()),
        group: Some(group.to_string()),
        ..PlayerEntry::default()
    }
}

/// The problems of a refused entry, as (field, English message).
fn problems(result: Result<Player, EntryError>) -> Vec<(Option<String>, String)> {
    match result {
        Err(EntryError::Invalid(errors)) => {
            let e = EntryError::Invalid(errors.clone());
            assert_localized(&e);
            errors
                .into_iter()
                .map(|e| {
                    assert_same(&e.message.zh, &e.message.en);
                    (e.column, e.message.en)
                })
                .collect()
        }
        other => panic!("not refused as invalid: {other:?}"),
    }
}

#[test]
fn an_entry_becomes_the_player_its_row_would() {
    let card = id("330702", "19800101", 123);
    let typed = PlayerEntry {
        name: Some("张 伟".into()),
        gender: Some("男".into()),
        unit: Some("婺城区棋协".into()),
        group: Some("成人".into()),
        id_number: Some(card.clone()),
        rating: Some("１５００".into()),
        disabled: Some(false),
        phone: Some("100 1234 5678".into()),
        ..PlayerEntry::default()
    };
    let got = player_from_entry(&typed, &rules(), &[], PlayerId(1)).unwrap();
    let sheet = format!(
        "姓名,性别,单位,组别,身份证号,等级分,残疾,电话\n\
         张 伟,男,婺城区棋协,成人,{card},１５００,否,100 1234 5678\n"
    );
    let read = read_registrations(
        sheet.as_bytes(),
        "reg.csv",
        &ImportOptions::default(),
        &rules(),
        &[],
        PlayerId(1),
    )
    .unwrap();
    assert_eq!(got, read[0]);
    assert_eq!(got.name, "张伟");
    assert_eq!(got.birth_date, Some(date(1980, 1, 1)));
    assert_eq!(got.rating, Some(1500));
    assert_eq!(got.phone.as_deref(), Some("10012345678"));
    // The player as registered is the same entry again.
    let again = player_from_entry(&PlayerEntry::of(&got, &rules()), &rules(), &[], PlayerId(1));
    assert_eq!(again.unwrap(), got);
}

/// A long number typed as a name is refused once, as a number shaped like a phone,
/// masked, and not again in full as a name that is not text.
#[test]
fn a_long_number_as_a_name_is_refused_once_and_masked() {
    let said = problems(player_from_entry(
        &entry("923456789", "成人组"),
        &rules(),
        &[],
        PlayerId(1),
    ));
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].1.contains("`923**6789`"), "{said:?}");
    assert!(!said[0].1.contains("923456789"), "{said:?}");
    let err = read_registrations(
        "姓名,组别\n923456789,成人组\n".as_bytes(),
        "reg.csv",
        &ImportOptions::default(),
        &rules(),
        &[],
        PlayerId(1),
    )
    .unwrap_err();
    assert_eq!(err.errors.len(), 1, "{err}");
    assert!(!err.to_string().contains("923456789"), "{err}");
    let said = problems(player_from_entry(
        &entry("12345", "成人组"),
        &rules(),
        &[],
        PlayerId(1),
    ));
    assert!(said[0].1.contains("`12345` is a number"), "{said:?}");
}

/// What counts as a personal number in a name or a unit is one rule
/// (`privacy::mask_public_field`): the last character of a name is no digit of the number
/// after it, so 张三 and 张飞 with the same 8 digits are both accepted, and 9 digits are
/// refused after either.
#[test]
fn a_name_ending_in_a_numeral_is_checked_as_any_other_name() {
    for name in ["张飞 82345678", "张三 82345678", "刘二82345678"] {
        let p = player_from_entry(&entry(name, "成人组"), &rules(), &[], PlayerId(1));
        assert!(p.is_ok(), "{name}: {p:?}");
    }
    for name in ["张飞 823456789", "张三 823456789"] {
        let said = problems(player_from_entry(
            &entry(name, "成人组"),
            &rules(),
            &[],
            PlayerId(1),
        ));
        assert!(said[0].1.contains("823**6789"), "{name}: {said:?}");
    }
    let unit = PlayerEntry {
        unit: Some("一中 13700137000".into()),
        ..entry("甲", "成人组")
    };
    let said = problems(player_from_entry(&unit, &rules(), &[], PlayerId(1)));
    assert!(said[0].1.contains("`一中 137****7000`"), "{said:?}");
    let unit = PlayerEntry {
        unit: Some("三中 82345678".into()),
        ..entry("甲", "成人组")
    };
    assert!(player_from_entry(&unit, &rules(), &[], PlayerId(1)).is_ok());
}

#[test]
fn a_hostile_value_of_each_field_is_refused_and_located_by_its_field() {
    let bad_card = {
        let good = id("330702", "19800101", 123);
        let last = if good.ends_with('0') { '1' } else { '0' };
        format!("{}{last}", &good[..17])
    };
    let cases: Vec<(&str, PlayerEntry, &str)> = vec![
        (
            "name",
            entry(&"张".repeat(3001), "成人组"),
            "3001 characters",
        ),
        (
            "gender",
            PlayerEntry {
                gender: Some("\u{1b}[31mrobot".into()),
                ..entry("甲", "成人组")
            },
            "gender `[31mrobot` is not one of",
        ),
        (
            "unit",
            PlayerEntry {
                unit: Some("棋".repeat(5000)),
                ..entry("甲", "成人组")
            },
            "5000 characters, more than the limit of 4096",
        ),
        (
            "group",
            entry("甲", "=cmd|' /C calc'!A0"),
            "is not in the rulebook",
        ),
        (
            "birth-date",
            PlayerEntry {
                birth_date: Some("2008-02-30".into()),
                ..entry("甲", "成人组")
            },
            "2008-02-30",
        ),
        (
            "id-number",
            PlayerEntry {
                id_number: Some(bad_card.clone()),
                ..entry("甲", "成人组")
            },
            "",
        ),
        (
            "grade",
            PlayerEntry {
                grade: Some("十三".into()),
                ..entry("甲", "成人组")
            },
            "十三",
        ),
        (
            "rating",
            PlayerEntry {
                rating: Some("99999".into()),
                ..entry("甲", "成人组")
            },
            "99999",
        ),
        (
            "disabled",
            PlayerEntry {
                disabled: Some(false),
                ..entry("甲", "残疾人组")
            },
            "contradicts the group 残疾人组",
        ),
        (
            "local",
            PlayerEntry {
                local: Some(false),
                ..entry("甲", "本地组")
            },
            "contradicts the group 本地组",
        ),
        (
            "phone",
            PlayerEntry {
                phone: Some("1".repeat(4097)),
                ..entry("甲", "成人组")
            },
            "4097 characters",
        ),
        // Eligibility is judged on the group registered for, so it is located there.
        (
            "group",
            PlayerEntry {
                title: Some("象棋大师".into()),
                ..entry("甲", "成人组")
            },
            "象棋大师",
        ),
    ];
    for (field, typed, says) in cases {
        let got = problems(player_from_entry(&typed, &local_rules(), &[], PlayerId(1)));
        assert_eq!(got.len(), 1, "{field}: {got:?}");
        let (column, message) = &got[0];
        assert_eq!(column.as_deref(), Some(field), "{message}");
        assert!(message.contains(says), "{field}: {message}");
        assert!(!message.contains(&bad_card[..14]), "unmasked: {message}");
        let shown = EntryError::Invalid(vec![RowError::new(
            1,
            column.clone(),
            None,
            Text::new("错", "wrong"),
        )])
        .localize(Lang::En);
        assert!(
            shown.starts_with(&format!("`--{field}`: wrong\n")),
            "{shown}"
        );
    }
}

#[test]
fn invisible_and_control_characters_are_dropped_from_every_text_field() {
    let typed = PlayerEntry {
        name: Some("张\u{200b}\u{202e}三\u{7}".into()),
        unit: Some("棋\u{feff}协".into()),
        phone: Some("138\u{200d} 1234\u{1b} 5678".into()),
        title: Some("\u{202e}一级棋士".into()),
        ..entry("", "成人组")
    };
    let p = player_from_entry(&typed, &rules(), &[], PlayerId(1)).unwrap();
    assert_eq!(
        (p.name.as_str(), p.unit.as_str()),
        ("张三", "棋协"),
        "{p:?}"
    );
    assert_eq!(p.phone.as_deref(), Some("13812345678"));
    assert_eq!(p.title.as_deref(), Some("一级棋士"));
}

#[test]
fn a_name_that_only_looks_new_is_a_duplicate_of_the_registered_player() {
    let card = id("330702", "19800101", 123);
    let mut registered = Player::new(PlayerId(4), "张三", GroupId::new("adult"));
    registered.unit = "棋协".into();
    registered.id_number = Some(card.clone());
    let same_name = PlayerEntry {
        unit: Some("棋协".into()),
        ..entry("张\u{200b}三", "成人组")
    };
    let got = problems(player_from_entry(
        &same_name,
        &rules(),
        std::slice::from_ref(&registered),
        PlayerId(5),
    ));
    assert_eq!(got[0].0.as_deref(), Some("name"));
    assert!(got[0].1.contains("registered player 4 (`张三`)"), "{got:?}");
    // An entry by hand has no row to delete.
    assert!(
        got[0].1.ends_with("give a name that tells them apart"),
        "{got:?}"
    );
    let same_card = PlayerEntry {
        id_number: Some(card.to_lowercase()),
        ..entry("李四", "成人组")
    };
    let got = problems(player_from_entry(
        &same_card,
        &rules(),
        &[registered],
        PlayerId(5),
    ));
    assert_eq!(got[0].0.as_deref(), Some("id-number"), "{got:?}");
    assert!(!got[0].1.contains(&card[..14]), "unmasked: {got:?}");
}

#[test]
fn the_event_maximum_counts_the_players_registered_before() {
    let mut r = rules();
    r.event.max_players = Some(1);
    let registered = Player::new(PlayerId(1), "甲", GroupId::new("adult"));
    let got = problems(player_from_entry(
        &entry("乙", "成人组"),
        &r,
        &[registered],
        PlayerId(2),
    ));
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, None);
    assert!(got[0].1.contains("at most `1` players"), "{got:?}");
    assert!(player_from_entry(&entry("乙", "成人组"), &r, &[], PlayerId(2)).is_ok());
}

/// An event whose adult pool has one paired round, with one player reinstated in it.
fn paired_event() -> Event {
    let mut event = Event::new(String::new());
    let mut a = Player::new(PlayerId(1), "甲", GroupId::new("adult"));
    a.number = Some(1);
    a.reinstated_from = Some(2);
    a.absences = vec![(1, 2)];
    a.extra.insert("备注".into(), "轮椅".into());
    event.players.push(a);
    event.groups.insert(
        GroupId::new("adult"),
        GroupState {
            rounds: vec![Round {
                number: 1,
                pairings: Vec::new(),
            }],
            ..GroupState::default()
        },
    );
    event
}

#[test]
fn a_late_entry_is_paired_from_the_next_round_of_its_pool() {
    let mut event = paired_event();
    let disabled = PlayerEntry {
        disabled: Some(true),
        ..entry("乙", "残疾人组")
    };
    let added = add_player(&mut event, &rules(), &disabled).unwrap();
    assert_eq!(added.id, PlayerId(2));
    assert_eq!(added.joined_round, 2);
    assert_eq!(added.section, Some(GroupId::new("disabled")));
    let young = PlayerEntry {
        birth_date: Some("2008-01-01".into()),
        ..entry("丙", "青少年组")
    };
    let youth = add_player(&mut event, &rules(), &young).unwrap();
    assert_eq!(youth.joined_round, 1);
    let again = add_player(&mut event, &rules(), &entry("乙", "成人组"));
    assert!(matches!(again, Err(EntryError::Invalid(_))), "{again:?}");
    assert_eq!(event.players.len(), 3);
}

#[test]
fn an_edit_checks_the_whole_player_and_keeps_what_an_entry_cannot_set() {
    let mut event = paired_event();
    let before = event.players[0].clone();
    let changes = PlayerEntry {
        unit: Some("新单位".into()),
        ..PlayerEntry::default()
    };
    let edited = edit_player(&mut event, &rules(), PlayerId(1), &changes)
        .unwrap()
        .clone();
    assert_eq!(edited.unit, "新单位");
    assert_eq!(
        Player {
            unit: String::new(),
            ..edited
        },
        before
    );
    let to_youth = PlayerEntry {
        group: Some("青少年组".into()),
        birth_date: Some("2008-01-01".into()),
        ..PlayerEntry::default()
    };
    let err = edit_player(&mut event, &rules(), PlayerId(1), &to_youth).unwrap_err();
    assert!(matches!(err, EntryError::GroupFixed { .. }), "{err:?}");
    let bad = PlayerEntry {
        rating: Some("-5".into()),
        ..PlayerEntry::default()
    };
    let err = edit_player(&mut event, &rules(), PlayerId(1), &bad).unwrap_err();
    assert!(err.to_string().starts_with("`--rating`: "), "{err}");
    assert!(
        err.to_string()
            .ends_with("nothing was changed: correct the option and run the command again")
    );
    let err = edit_player(&mut event, &rules(), PlayerId(9), &changes).unwrap_err();
    assert_eq!(err, EntryError::NoPlayer(PlayerId(9)));
    assert_eq!(event.players[0].unit, "新单位");
    assert_eq!(event.players[0].status, PlayerStatus::Active);
}

#[test]
fn every_entry_error_has_chinese_with_the_same_values() {
    for e in [
        EntryError::GroupFixed {
            name: "甲".into(),
            group: GroupId::new("adult"),
        },
        EntryError::NoPlayer(PlayerId(9)),
        EntryError::AfterDeadline {
            deadline: chrono::NaiveDate::from_ymd_opt(2021, 9, 10).unwrap(),
            today: chrono::NaiveDate::from_ymd_opt(2021, 9, 12).unwrap(),
            players: Vec::new(),
        },
        EntryError::AfterDeadline {
            deadline: chrono::NaiveDate::from_ymd_opt(2021, 9, 10).unwrap(),
            today: chrono::NaiveDate::from_ymd_opt(2021, 9, 12).unwrap(),
            players: vec!["甲（一中）".into(), "乙".into()],
        },
        EntryError::EntriesClosed {
            group: "公开组".into(),
            round: 2,
        },
        EntryError::FieldFixed {
            name: "乙".into(),
            group: GroupId::new("rr"),
        },
        EntryError::Refused(vec![(
            "丙".into(),
            EntryError::EntriesClosed {
                group: "公开组".into(),
                round: 1,
            },
        )]),
    ] {
        assert_localized(&e);
    }
}
