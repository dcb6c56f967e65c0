//! Tests of actions: read back from an audit line (masked), worded in both languages.

use super::*;
use crate::rulebook::Lang;

#[test]
fn an_older_line_unmasked_at_write_is_masked_when_read() {
    // A line from before audit.log masked its details: a reason holding an ID number.
    let line = serde_json::json!({
        "seq": 7,
        "time": "2026-11-20T08:00:00Z",
        "user": "arbiter",
        "command": ["penalty"],
        "kind": "change",
        "summary": "penalty",
        "details": { "action": {
            "kind": "penalty",
            "player": 12,
            "name": "张三",
            "points": 2,
            "after_round": 3,
            "reason": "身份证 330702199001011234 有误"
        }},
    });
    let entry: AuditEntry = serde_json::from_value(line).unwrap();
    let action = Action::of(&entry).expect("the action reads back");
    for text in [action.text(&Names::ids()), action.text(&names_zh())] {
        assert!(!text.contains("330702199001011234"), "{text}");
        assert!(text.contains("有误"), "{text}");
    }
}

fn names_zh() -> Names<'static> {
    Names {
        lang: Lang::Zh,
        rules: None,
        event: None,
    }
}

#[test]
fn an_action_reads_back_and_words_both_languages() {
    let action = Action::Results {
        groups: vec![GroupResults {
            group: GroupId("kids_b".into()),
            rounds: vec![3],
            count: 10,
            corrections: vec![Correction {
                round: 3,
                table: 2,
                old: Some(GameResult::new(Outcome::RedWin)),
                new: GameResult::new(Outcome::Draw),
            }],
            warnings: vec![],
        }],
    };
    let Change::Changed {
        summary, details, ..
    } = action.clone().change((), serde_json::json!({ "round": 3 }))
    else {
        panic!("a change")
    };
    assert_eq!(
        summary,
        "recorded 10 results in kids_b round 3: round 3 table 2: corrected `1-0` → `=`"
    );
    assert_eq!(details["round"], 3);
    let back: Action = serde_json::from_value(details["action"].clone()).unwrap();
    assert_eq!(back, action);
    let zh = Names {
        lang: Lang::Zh,
        rules: None,
        event: None,
    };
    assert_eq!(
        back.text(&zh),
        "记录 10 个结果（kids_b第3轮）：第 3 轮第 2 台：已将 `红胜` 更正为 `和`"
    );
}

#[test]
fn a_correction_names_fouls_and_lateness_and_a_long_list_is_counted() {
    let fouled = GameResult {
        red_fouls: 1,
        ..GameResult::new(Outcome::Draw)
    };
    let late = GameResult {
        late: true,
        ..GameResult::new(Outcome::BlackForfeit)
    };
    let correction = |table, old, new| Correction {
        round: 2,
        table,
        old: Some(old),
        new,
    };
    let mut corrections = vec![
        correction(1, GameResult::new(Outcome::Draw), fouled),
        correction(2, GameResult::new(Outcome::BlackForfeit), late),
    ];
    corrections.extend((3..=30).map(|t| {
        correction(
            t,
            GameResult::new(Outcome::RedWin),
            GameResult::new(Outcome::Draw),
        )
    }));
    let action = Action::Results {
        groups: vec![GroupResults {
            group: GroupId("open".into()),
            rounds: vec![2],
            count: 30,
            corrections,
            warnings: vec![],
        }],
    };
    let en = action.text(&Names::ids());
    assert!(en.contains("table 1: corrected `=` → `=/1:0`"), "{en}");
    assert!(
        en.contains("table 2: corrected `+-` → `black-late`"),
        "{en}"
    );
    assert!(en.contains("table 10: corrected"), "{en}");
    assert!(!en.contains("table 11:"), "{en}");
    assert!(en.ends_with("; 20 more corrections or warnings"), "{en}");
    // A line written when only outcomes were kept still reads.
    let old_line = serde_json::json!({"round": 4, "table": 7, "old": "draw", "new": "red_win"});
    let back: Correction = serde_json::from_value(old_line).unwrap();
    assert_eq!(back.old, Some(GameResult::new(Outcome::Draw)));
    assert_eq!(back.new, GameResult::new(Outcome::RedWin));
    let none: Correction = serde_json::from_value(
        serde_json::json!({"round": 1, "table": 1, "old": null, "new": "draw"}),
    )
    .unwrap();
    assert_eq!(none.old, None);
}

#[test]
fn pair_changes_log_each_round_with_its_seed_and_the_seeds_recorded() {
    let event = crate::model::Event::new(String::new());
    let open = GroupId("open".into());
    let girls = GroupId("girls".into());
    let Change::Changed { details, .. } = Action::paired_pools_change(
        &event,
        &[(open.clone(), 1, 7)],
        vec![RefusedRound {
            group: girls.clone(),
            round: 1,
            seed: Some(9),
        }],
        &[(girls.clone(), 9)],
        None,
        (),
    ) else {
        panic!("a change")
    };
    assert_eq!(
        details["groups"],
        serde_json::json!([{ "group": "open", "round": 1, "seed": 7, "pairings": null }])
    );
    assert_eq!(
        details["seeds"],
        serde_json::json!([{ "group": "girls", "seed": 9 }])
    );
    assert_eq!(details["action"]["kind"], "paired");
    assert_eq!(details["action"]["refused"][0]["group"], "girls");
    let Change::Changed { details, .. } =
        Action::paired_round_change(&event, &open, 1, 7, Some(vec![Relax::Team]), ())
    else {
        panic!("a change")
    };
    assert_eq!(details["seed"], 7);
    assert_eq!(details["pairings"], serde_json::json!([]));
    assert_eq!(details["action"]["rounds"][0]["games"], 0);
    assert_eq!(
        details["action"]["rounds"][0]["relax"],
        serde_json::json!(["team"])
    );
    let Change::Changed { details, .. } = Action::seed_recorded_change(&open, 7) else {
        panic!("a change")
    };
    assert_eq!(
        (&details["group"], &details["round"], &details["seed"]),
        (
            &serde_json::json!("open"),
            &serde_json::json!(1),
            &serde_json::json!(7)
        )
    );
    assert_eq!(details["action"]["seeds"], serde_json::json!([["open", 7]]));
}

#[test]
fn the_init_line_is_its_summary_in_english_and_counts_its_players_in_chinese() {
    let init = |summary: &str| -> AuditEntry {
        serde_json::from_value(serde_json::json!({
            "seq": 1,
            "time": "2026-11-20T08:00:00Z",
            "user": "arbiter",
            "command": ["init"],
            "kind": "init",
            "summary": summary,
            "details": { "rules": "rules.toml" },
        }))
        .unwrap()
    };
    let with = init("created the event with 12 players");
    assert_eq!(describe(&with, &[], &names_zh()), "创建赛事（12 名棋手）");
    assert_eq!(
        describe(&with, &[], &Names::ids()),
        "created the event with 12 players"
    );
    let empty = init("created the event with 0 players");
    assert_eq!(describe(&empty, &[], &names_zh()), "创建赛事");
    assert_eq!(
        describe(&empty, &[], &Names::ids()),
        "created the event with 0 players"
    );
}
