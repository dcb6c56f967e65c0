//! Prizes: prize lists over the standings, the team ranking and the prize sheet (how a
//! merged group's lists follow its players is here; the merge itself is
//! [`crate::registration::groups`]'s).
//!
//! Owns deciding who gets which place of which prize list, how much money each award
//! carries once shared places and players placed in two lists are settled, how units are
//! ranked from their best players, and the totals the finance office checks. Pure
//! functions of (event, rulebook, standings): it must not compute standings itself (that
//! is `crate::standings`), read files, print or use a clock.
//!
//! Money on the prize sheet is counted in **fen** (分, 1/100 of the currency unit) as
//! `u64`, because splitting the money of shared places may not come out in whole yuan.
//! The rulebook's amounts are whole currency units; [`format_fen`] prints fen back as
//! `1200` or `133.33`.

mod list;
mod list_sheet;
mod money;
mod multiple;
mod playoff;
mod pools;
mod sheet;
mod teams;

pub use list::{Exclusion, ListRow, list_standings};
pub use playoff::{
    ListPlayoff, disqualify, find_award_list, find_list, list_for_playoff, record_list_playoff,
    undo_disqualification,
};
pub use pools::{list_pool, prize_list_rows, team_rankings};
pub use sheet::{
    Award, ListSheet, PassedOn, PrizeSheet, SheetNote, TeamAward, TeamSheet, Totals, prize_sheet,
};
pub use teams::{ExcludedUnit, TeamMember, TeamRanking, TeamRow, team_ranking};

use crate::i18n::{Localize, bi, display_english};
use crate::model::PlayerId;
use crate::rulebook::Lang;
use thiserror::Error;

/// Fen (分) per currency unit.
pub const FEN_PER_UNIT: u64 = 100;

/// Errors of the prize area (prize lists, playoffs, disqualifications).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PrizeError {
    /// `--list` names no prize list of the rulebook.
    UnknownList {
        /// The id as given.
        list: String,
        /// The ids of the rulebook's lists, for the message (empty: it has none).
        known: String,
    },
    /// The list has no tie that needs a playoff.
    NoListTie {
        /// The list's id.
        list: String,
    },
    /// The players named are not the tied players of the list.
    ListPlayoffMismatch {
        /// The list's id.
        list: String,
        /// The players given, as the message shows them.
        given: String,
        /// The tied players, as the message shows them.
        tied: String,
    },
    /// No player has the id given.
    UnknownPlayer {
        /// The id given.
        player: PlayerId,
    },
    /// The player is already disqualified.
    AlreadyDisqualified {
        /// The player's id.
        player: PlayerId,
        /// The player's name.
        name: String,
    },
    /// An undo of a disqualification names a player who is not disqualified.
    NotDisqualified {
        /// The player's id.
        player: PlayerId,
        /// The player's name.
        name: String,
    },
    /// A disqualification without a reason.
    EmptyReason,
    /// The round a disqualification starts from is not 1 to the next unpaired round.
    BadRound {
        /// The round given.
        round: u32,
        /// The next round to be paired.
        next: u32,
    },
    /// The player is already paired in the round the disqualification would start from.
    PairedFrom {
        /// The player's id.
        player: PlayerId,
        /// The player's name.
        name: String,
        /// The round given.
        round: u32,
    },
}

display_english!(PrizeError);

impl Localize for PrizeError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            PrizeError::UnknownList { list, known } if known.is_empty() => {
                let list = crate::privacy::typed(list);
                bi!(
                    lang,
                    zh("没有奖项名单 `{list}`：本赛事的规则文件没有设奖项名单（[[prizes.lists]]）"),
                    en(
                        "no prize list `{list}`: the event's rulebook has no prize list ([[prizes.lists]])"
                    ),
                )
            }
            PrizeError::UnknownList { list, known } => {
                let list = crate::privacy::typed(list);
                bi!(
                    lang,
                    zh("没有奖项名单 `{list}`：请用 {known} 之一"),
                    en("no prize list `{list}`: use one of {known}"),
                )
            }
            PrizeError::NoListTie { list } => bi!(
                lang,
                zh(
                    "奖项名单 `{list}` 没有需要加赛的同分（有称号或冠军不并列的名单第一名同分，或资格线上的同分，且各轮已赛完）"
                ),
                en(
                    "prize list `{list}` has no tie that needs a playoff (a tie atop a list with a title or 冠军不并列, or across the qualification line, once every round is played)"
                ),
            ),
            PrizeError::ListPlayoffMismatch { list, given, tied } => bi!(
                lang,
                zh(
                    "加赛名次 {given} 不是奖项名单 `{list}` 的同分棋手 {tied}：请每人列一次，胜者在前"
                ),
                en(
                    "the playoff order {given} is not the tied players {tied} of prize list `{list}`: list each of them exactly once, winner first"
                ),
            ),
            PrizeError::UnknownPlayer { player } => bi!(
                lang,
                zh("没有编号为 {player} 的棋手"),
                en("no player with id {player}"),
            ),
            PrizeError::AlreadyDisqualified { player, name } => bi!(
                lang,
                zh(
                    "棋手 {player} `{name}` 已被取消资格：用 `qiwang player disqualify {player} --undo` 撤销"
                ),
                en(
                    "player {player} `{name}` is already disqualified: `qiwang player disqualify {player} --undo` lifts it"
                ),
            ),
            PrizeError::NotDisqualified { player, name } => bi!(
                lang,
                zh("棋手 {player} `{name}` 没有被取消资格：无需撤销"),
                en("player {player} `{name}` is not disqualified: nothing to undo"),
            ),
            PrizeError::EmptyReason => bi!(
                lang,
                zh(
                    "取消资格须写明原因：请加 `--reason TEXT`（记入操作记录；公开的名单只显示「取消资格」，不显示原因）"
                ),
                en(
                    "a disqualification needs a reason: give `--reason TEXT` (it is logged; public lists say 取消资格, not the reason)"
                ),
            ),
            PrizeError::BadRound { round, next } => bi!(
                lang,
                zh("不能从第 {round} 轮起取消资格：请给 1 到 {next} 之间的轮次"),
                en(
                    "round {round} is not a round the disqualification can start from: give 1 to {next}"
                ),
            ),
            PrizeError::PairedFrom {
                player,
                name,
                round,
            } => bi!(
                lang,
                zh(
                    "棋手 {player} `{name}` 已编排在第 {round} 轮：请先用 `qiwang unpair` 撤销该轮，或用 `--from-round` 给出其后的轮次"
                ),
                en(
                    "player {player} `{name}` is already paired in round {round}: drop that round with `qiwang unpair` first, or give `--from-round` after it"
                ),
            ),
        }
    }
}

/// Prints an amount in fen as currency units: `120000` → `1200`, `13333` → `133.33`.
pub fn format_fen(fen: u64) -> String {
    let units = fen / FEN_PER_UNIT;
    let rest = fen % FEN_PER_UNIT;
    if rest == 0 {
        units.to_string()
    } else {
        format!("{units}.{rest:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::facts::assert_localized;

    #[test]
    fn every_prize_error_has_chinese_with_the_same_values() {
        let errors = [
            PrizeError::UnknownList {
                list: "girls".into(),
                known: "`a` (A)".into(),
            },
            PrizeError::NoListTie {
                list: "girls".into(),
            },
            PrizeError::ListPlayoffMismatch {
                list: "girls".into(),
                given: "[1, 2]".into(),
                tied: "[1, 3]".into(),
            },
            PrizeError::UnknownPlayer {
                player: PlayerId(9),
            },
            PrizeError::AlreadyDisqualified {
                player: PlayerId(9),
                name: "张三".into(),
            },
            PrizeError::NotDisqualified {
                player: PlayerId(9),
                name: "张三".into(),
            },
            PrizeError::EmptyReason,
            PrizeError::BadRound { round: 12, next: 9 },
            PrizeError::PairedFrom {
                player: PlayerId(9),
                name: "张三".into(),
                round: 8,
            },
        ];
        for e in &errors {
            assert_localized(e);
        }
    }

    #[test]
    fn format_fen_prints_whole_units_without_decimals() {
        let cases = [
            (0, "0"),
            (120_000, "1200"),
            (13_333, "133.33"),
            (5, "0.05"),
            (150, "1.50"),
        ];
        for (fen, want) in cases {
            assert_eq!(format_fen(fen), want, "{fen}");
        }
    }
}
