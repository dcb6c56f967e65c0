//! Every [`ResultError`] has a Chinese message carrying the English one's values.

use super::tokens::at_zh;
use super::*;
use crate::i18n::facts::assert_localized;

fn every_variant() -> Vec<ResultError> {
    let g = || GroupId::new("adult");
    vec![
        ResultError::BadToken {
            token: "x".into(),
            at: " for table 3".into(),
        },
        ResultError::BadFouls {
            text: "1-".into(),
            at: " (argument 4)".into(),
        },
        ResultError::BadTable {
            text: "a".into(),
            at: " (argument 1)".into(),
        },
        ResultError::BadRound {
            text: "0".into(),
            at: String::new(),
        },
        ResultError::MissingOutcome { table: "7".into() },
        ResultError::NoEntries,
        ResultError::CsvRow {
            source_name: "r.csv".into(),
            line: 4,
            error: Box::new(ResultError::DuplicateRow {
                round: 2,
                hall: "二楼".into(),
                table: 5,
                first: 3,
            }),
        },
        ResultError::HeaderUnreadable {
            source_name: "r.csv".into(),
            detail: "bad".into(),
        },
        ResultError::NoRows {
            source_name: "r.csv".into(),
        },
        ResultError::CsvHeader {
            source_name: "r.csv".into(),
            column: "round".into(),
            accepted: &["round", "轮次"],
            or_both_sides: false,
        },
        ResultError::CsvHeader {
            source_name: "r.csv".into(),
            column: "table".into(),
            accepted: &["table", "台号"],
            or_both_sides: true,
        },
        ResultError::Csv {
            source_name: "r.csv".into(),
            message: "found record with 3 fields".into(),
        },
        ResultError::EmptyGroupCell,
        ResultError::UnknownHall {
            text: "三楼".into(),
            halls: vec![String::new(), "二楼".into()],
        },
        ResultError::HallNotGroups {
            hall: "二楼".into(),
            group: "成人组".into(),
            own: String::new(),
        },
        ResultError::GroupColumnUnexpected {
            source_name: "r.csv".into(),
        },
        ResultError::GroupColumnMissing {
            source_name: "r.csv".into(),
            groups: "`adult`, `kids`".into(),
        },
        ResultError::GroupNotChosen {
            text: "kids".into(),
            chosen: "`adult`".into(),
        },
        ResultError::UnknownGroupName {
            text: "teens".into(),
            known: "`adult`、`kids`".into(),
        },
        ResultError::UnknownGroup {
            group: GroupId::new("kids"),
            known: "`adult`".into(),
        },
        ResultError::NoRounds { group: g() },
        ResultError::RoundMissing {
            group: g(),
            round: 8,
            last: 6,
        },
        ResultError::RoundOutsideSchedule {
            group: g(),
            round: 12,
            limit: crate::schedule::RoundLimit {
                rounds: 9,
                event_wide: true,
            },
        },
        ResultError::RoundOutsideSchedule {
            group: g(),
            round: 8,
            limit: crate::schedule::RoundLimit {
                rounds: 7,
                event_wide: false,
            },
        },
        ResultError::TableMissing {
            group: g(),
            round: 2,
            table: 99,
            tables: (1..=40).collect(),
        },
        ResultError::DuplicateTable { round: 2, table: 3 },
        ResultError::FoulsOnForfeit {
            round: 2,
            table: 3,
            outcome: Outcome::RedForfeit,
            red: 1,
            black: 0,
        },
        ResultError::FoulsOverLimit {
            round: 2,
            table: 3,
            side: "red",
            fouls: 4,
            limit: 3,
        },
        ResultError::FoulsContradictWinner {
            round: 2,
            table: 3,
            side: "black",
            limit: 3,
            outcome: Outcome::BlackWin,
        },
        ResultError::BothAtFoulLimit {
            round: 2,
            table: 3,
            limit: 3,
        },
        ResultError::UnknownPlayer {
            player: PlayerId(17),
        },
        ResultError::AlreadyWithdrawn {
            player: "张三(17)".into(),
            from_round: 4,
        },
        ResultError::PairedAfterWithdrawal {
            player: "张三(17)".into(),
            round: 4,
        },
        ResultError::UnplayedGame {
            player: "张三(17)".into(),
            round: 4,
        },
        ResultError::NotWithdrawn {
            player: "张三(17)".into(),
        },
        ResultError::EventOver {
            player: "张三(17)".into(),
            rounds: 9,
        },
        ResultError::HallTableMissing {
            round: Some(3),
            table: 99,
            tables: vec![1, 2, 3],
        },
        ResultError::HallTableMissing {
            round: None,
            table: 99,
            tables: vec![1, 2, 3],
        },
        ResultError::PenaltiesNotAllowed,
        ResultError::PenaltyPointsNeeded,
        ResultError::PenaltyNotPositive { points: -2 },
        ResultError::PenaltyTooLarge {
            points: 2_147_483_647,
            max: 9_900,
            rounds: None,
            from_rulebook: false,
        },
        ResultError::PenaltyTooLarge {
            points: 100,
            max: 18,
            rounds: Some(9),
            from_rulebook: true,
        },
        ResultError::PenaltyNeedsReason,
        ResultError::WarningNeedsReason,
        ResultError::RoundNotPaired {
            group: g(),
            round: 9,
            paired: 4,
        },
        ResultError::RoundUnfinished {
            group: g(),
            round: 4,
            tables: vec![2, 7],
        },
        ResultError::BadWithdrawalRound { from_round: 0 },
        ResultError::EmptyReason,
        ResultError::KnockoutNotDue {
            group: g(),
            round: 5,
            table: 2,
        },
        ResultError::NoPlayoffNeeded { group: g() },
        ResultError::PlayoffMismatch {
            group: g(),
            given: "[1, 2]".into(),
            tied: "[1, 3] or [2, 4]".into(),
        },
        ResultError::Mismatch(Box::new(Mismatch::NoTable)),
        ResultError::Many(vec![
            ResultError::NoEntries,
            ResultError::DuplicateTable { round: 1, table: 2 },
        ]),
    ]
}

#[test]
fn every_message_has_chinese_with_the_same_values() {
    for e in every_variant() {
        assert_localized(&e);
    }
}

#[test]
fn where_a_token_came_from_reads_in_chinese() {
    assert_eq!(at_zh(" (argument 5)"), "（第 5 个参数）");
    assert_eq!(at_zh(" for table 3"), "（第 3 台）");
    assert_eq!(at_zh(""), "");
}
