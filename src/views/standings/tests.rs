use super::*;

#[test]
fn decided_by_labels_follow_the_output_language() {
    let cases = [
        (
            DecidedBy::PrevRoundScore { round: 7 },
            "14.3.1 上一轮成绩 (第7轮后积分)",
            "14.3.1 previous round (score after round 7)",
        ),
        (
            DecidedBy::RoundDropped { round: 12 },
            "14.3.2 去除第12轮得分",
            "14.3.2 round 12 score dropped",
        ),
        (
            DecidedBy::PrevRoundRank { round: 3 },
            "前一轮名次 (第3轮)",
            "previous round's rank (round 3)",
        ),
        (DecidedBy::Playoff, "加赛", "playoff"),
        (DecidedBy::Lot, "抽签", "lot"),
        (DecidedBy::Number, "序号", "number"),
    ];
    let rules = Rulebook::cxa_2011("t", 7);
    for (d, zh, en) in cases {
        assert_eq!(decided_by_text(&d, Lang::Zh, &rules), zh, "{d:?}");
        assert_eq!(decided_by_text(&d, Lang::En, &rules), en, "{d:?}");
    }
}

/// An event under another edition of the rules (2020) cites no 2011 clause number.
#[test]
fn remarks_cite_the_events_own_rules_edition_or_nothing() {
    let mut rules = Rulebook::cxa_2011("t", 7);
    rules.event.rules_edition = "CXA 2020".into();
    let d = DecidedBy::PrevRoundScore { round: 7 };
    assert_eq!(
        decided_by_text(&d, Lang::Zh, &rules),
        "上一轮成绩 (第7轮后积分)"
    );
    let d = DecidedBy::RoundDropped { round: 2 };
    assert_eq!(
        decided_by_text(&d, Lang::En, &rules),
        "round 2 score dropped"
    );
}
