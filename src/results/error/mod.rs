//! Everything that can be wrong with a result, a fouls entry, a CSV of results, a
//! withdrawal or a playoff.
//!
//! Owns the [`ResultError`] enum, the one list of this module's refusals, and the
//! exhaustive match that words each one; the bilingual messages themselves live by
//! family: `tokens` (result tokens, fouls, table and round numbers as typed), `file` (a
//! results file's shape: header, rows, CSV, group column), `lookup` (groups, rounds and
//! tables that are not there or not ready), `fouls` (the foul rule), `players`
//! (withdrawals and players outside the round) and `penalties` (point penalties and
//! playoffs).

mod file;
mod fouls;
mod lookup;
mod penalties;
mod players;
#[cfg(test)]
mod tests;
mod tokens;

use super::Mismatch;
use crate::i18n::{Localize, bi, display_english, plural};
use crate::model::{GroupId, Outcome, PlayerId};
use crate::rulebook::Lang;
use thiserror::Error;

/// What went wrong entering results; nothing is changed when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResultError {
    /// A result token that is none of the documented spellings.
    BadToken {
        /// The token as given.
        token: String,
        /// Where it came from (` (argument 3)`, ` for table 2`), or empty.
        at: String,
    },

    /// A fouls entry that is not `RED:BLACK`.
    BadFouls {
        /// The fouls as given.
        text: String,
        /// Where they came from, or empty.
        at: String,
    },

    /// A table that is not a number from 1 up.
    BadTable {
        /// The table as given.
        text: String,
        /// Where it came from, or empty.
        at: String,
    },

    /// A round that is not a number from 1 up.
    BadRound {
        /// The round as given.
        text: String,
        /// Where it came from, or empty.
        at: String,
    },

    /// A table number on the command line with no result after it.
    MissingOutcome {
        /// The table as given.
        table: String,
    },

    /// `qiwang result` without any `TABLE RESULT` pair.
    NoEntries,

    /// A problem in one row of a results file.
    CsvRow {
        /// The file as the user named it.
        source_name: String,
        /// The row's line in the file.
        line: u64,
        /// What is wrong with the row.
        error: Box<ResultError>,
    },

    /// A results file that gives one table twice.
    DuplicateRow {
        /// The round of the row.
        round: u32,
        /// The hall of the row's table as its 场地 cell gives it (`""`: the main hall, or no
        /// such column).
        hall: String,
        /// The table of the row.
        table: u32,
        /// The line where the table first appears.
        first: u64,
    },

    /// A results file whose header row cannot be read.
    HeaderUnreadable {
        /// The file as the user named it.
        source_name: String,
        /// The CSV reader's explanation.
        detail: String,
    },

    /// A results file with a header and no rows.
    NoRows {
        /// The file as the user named it.
        source_name: String,
    },

    /// A results file whose header lacks a required column.
    CsvHeader {
        /// The file as the user named it.
        source_name: String,
        /// The missing column.
        column: String,
        /// The header names that would do (`round`, `轮次`, …).
        accepted: &'static [&'static str],
        /// Whether both side columns (红方 and 黑方) would do instead.
        or_both_sides: bool,
    },

    /// A row of a results file with a group column whose group cell is empty.
    EmptyGroupCell,

    /// A group column in a file read where rows cannot name their group.
    GroupColumnUnexpected {
        /// The file as the user named it.
        source_name: String,
    },

    /// A results file without a group column while several groups have rounds.
    GroupColumnMissing {
        /// The file as the user named it.
        source_name: String,
        /// The groups that have rounds, for the message.
        groups: String,
    },

    /// A row of a group other than the one chosen with `--group`.
    GroupNotChosen {
        /// The group cell as written.
        text: String,
        /// The group chosen.
        chosen: String,
    },

    /// A 场地 cell that names no hall a pool of the event stands in.
    UnknownHall {
        /// The cell as written.
        text: String,
        /// The halls there are, in rulebook order (`""`: the main hall).
        halls: Vec<String>,
    },

    /// A 场地 cell that is not the hall of the row's group.
    HallNotGroups {
        /// The hall the row gives (`""`: the main hall).
        hall: String,
        /// The row's group, as the message shows it.
        group: String,
        /// The hall the group stands in (`""`: the main hall).
        own: String,
    },

    /// A group cell that names no group of the rulebook.
    UnknownGroupName {
        /// The group cell as written.
        text: String,
        /// The groups that may be named, for the message.
        known: String,
    },

    /// A results file the CSV reader cannot read.
    Csv {
        /// The file as the user named it.
        source_name: String,
        /// The CSV reader's explanation.
        message: String,
    },

    /// A group that is not one of the rulebook's pairing groups.
    UnknownGroup {
        /// The group named.
        group: GroupId,
        /// The pairing groups, for the message.
        known: String,
    },

    /// Results for a group that has not been paired yet.
    NoRounds {
        /// The group.
        group: GroupId,
    },

    /// A round after the group's last paired round.
    RoundMissing {
        /// The group.
        group: GroupId,
        /// The round given.
        round: u32,
        /// The group's last round.
        last: u32,
    },

    /// A round outside the rounds the rulebook schedules for the group: round 0, or past
    /// its last round (round 20 of a 9-round event).
    RoundOutsideSchedule {
        /// The group.
        group: GroupId,
        /// The round given.
        round: u32,
        /// The rounds the group plays.
        limit: crate::schedule::RoundLimit,
    },

    /// A table the round does not have.
    TableMissing {
        /// The group.
        group: GroupId,
        /// The round.
        round: u32,
        /// The table given.
        table: u32,
        /// The round's tables, for the message.
        tables: Vec<u32>,
    },

    /// A table no pool's round has (results typed without `--group`, one hall numbering).
    HallTableMissing {
        /// The round given, or `None` for each pool's newest.
        round: Option<u32>,
        /// The table given.
        table: u32,
        /// The tables the hall has in that round.
        tables: Vec<u32>,
    },

    /// One table given twice in one entry.
    DuplicateTable {
        /// The round.
        round: u32,
        /// The table given twice.
        table: u32,
    },

    /// Fouls given with a result that was not played over the board.
    FoulsOnForfeit {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The forfeit result.
        outcome: Outcome,
        /// Red's fouls given.
        red: u32,
        /// Black's fouls given.
        black: u32,
    },

    /// More fouls than the rulebook's foul limit, which ends the game.
    FoulsOverLimit {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// `red` or `black`.
        side: &'static str,
        /// The fouls given.
        fouls: u32,
        /// The foul limit.
        limit: u32,
    },

    /// A side at the foul limit (so it lost) given as the winner.
    FoulsContradictWinner {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// `red` or `black`.
        side: &'static str,
        /// The foul limit.
        limit: u32,
        /// The result given.
        outcome: Outcome,
    },

    /// Both sides at the foul limit, which only one can reach.
    BothAtFoulLimit {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The foul limit.
        limit: u32,
    },

    /// A player id no player has.
    UnknownPlayer {
        /// The id given.
        player: PlayerId,
    },

    /// A withdrawal of a player who has already withdrawn.
    AlreadyWithdrawn {
        /// The player as the sheets name them (张三(7)).
        player: String,
        /// The round the earlier withdrawal starts from.
        from_round: u32,
    },

    /// A withdrawal from a round the player is already paired in.
    PairedAfterWithdrawal {
        /// The player as the sheets name them (张三(7)).
        player: String,
        /// The round the player is paired in.
        round: u32,
    },

    /// A withdrawal while the player's game of a paired round has no result.
    UnplayedGame {
        /// The player as the sheets name them (张三(7)).
        player: String,
        /// The round of the game without a result.
        round: u32,
    },

    /// A withdrawal after the player's group has paired all its rounds.
    EventOver {
        /// The player as the sheets name them (张三(7)).
        player: String,
        /// The group's number of rounds.
        rounds: u32,
    },

    /// A penalty where the rulebook allows none.
    PenaltiesNotAllowed,

    /// A penalty without points, and the rulebook sets no default.
    PenaltyPointsNeeded,

    /// Penalty points of zero or less.
    PenaltyNotPositive {
        /// The points given.
        points: i32,
    },

    /// Penalty points above the most a player can score.
    PenaltyTooLarge {
        /// The points given.
        points: i32,
        /// The most one penalty may deduct: what a player of the group can score in the
        /// event.
        max: i64,
        /// The rounds the group plays, when `max` is what a player scores in them (not
        /// the rulebook's bound for every event).
        rounds: Option<u32>,
        /// The points are the rulebook's `conduct.disturbance_penalty` (no points given).
        from_rulebook: bool,
    },

    /// A penalty without `--reason`.
    PenaltyNeedsReason,

    /// A warning (`warn`) without `--reason`.
    WarningNeedsReason,

    /// A round that has not been paired.
    RoundNotPaired {
        /// The group.
        group: GroupId,
        /// The round given.
        round: u32,
        /// How many rounds are paired.
        paired: u32,
    },

    /// Standings of a round whose tables do not all have a result.
    RoundUnfinished {
        /// The group.
        group: GroupId,
        /// The round.
        round: u32,
        /// The tables without a result.
        tables: Vec<u32>,
    },

    /// A knockout result that would leave a later game of its match not due: a result
    /// deciding the match while a tiebreak game was already paired, or one making it
    /// level after its next round was paired otherwise (docs/rules.md §16.3).
    KnockoutNotDue {
        /// The group.
        group: GroupId,
        /// The round of the game the result would leave not due.
        round: u32,
        /// Its table.
        table: u32,
    },

    /// A reinstatement of a player who has not withdrawn.
    NotWithdrawn {
        /// The player as the sheets name them (张三(7)).
        player: String,
    },

    /// A withdrawal from round 0.
    BadWithdrawalRound {
        /// The round given.
        from_round: u32,
    },

    /// A withdrawal without a reason.
    EmptyReason,

    /// A playoff order for a group without a tie that needs one.
    NoPlayoffNeeded {
        /// The group.
        group: GroupId,
    },

    /// A playoff order that is not the tied players.
    PlayoffMismatch {
        /// The group.
        group: GroupId,
        /// The players given, as the message shows them.
        given: String,
        /// The tied players, as the message shows them.
        tied: String,
    },

    /// A row naming players other than its table's, or printed for a pairing since
    /// re-made (see [`Mismatch`]).
    Mismatch(Box<Mismatch>),

    /// Several problems, reported at once.
    Many(Vec<ResultError>),
}

impl From<Mismatch> for ResultError {
    fn from(m: Mismatch) -> Self {
        ResultError::Mismatch(Box::new(m))
    }
}

display_english!(ResultError);

impl Localize for ResultError {
    /// The message with every ID- or phone-shaped number in it masked
    /// ([`crate::privacy::typed`]): a results file's cells and the names typed on the
    /// command line are quoted back, and a name cell may hold a phone number. No number a
    /// message quotes of its own (a line, a table, a round, a pairing code) is that long;
    /// a file name holding nine digits or more is masked too.
    fn localize(&self, lang: Lang) -> String {
        let message = self.message(lang);
        crate::privacy::typed(&message).into_owned()
    }
}

impl ResultError {
    fn message(&self, lang: Lang) -> String {
        match self {
            ResultError::BadToken { token, at } => tokens::bad_token(lang, token, at),
            ResultError::BadFouls { text, at } => tokens::bad_fouls(lang, text, at),
            ResultError::BadTable { text, at } => tokens::bad_table(lang, text, at),
            ResultError::BadRound { text, at } => tokens::bad_round(lang, text, at),
            ResultError::MissingOutcome { table } => tokens::missing_outcome(lang, table),
            ResultError::NoEntries => tokens::no_entries(lang),
            ResultError::CsvRow {
                source_name,
                line,
                error,
            } => file::csv_row(lang, source_name, *line, error),
            ResultError::DuplicateRow {
                round,
                hall,
                table,
                first,
            } => file::duplicate_row(lang, *round, hall, *table, *first),
            ResultError::HeaderUnreadable {
                source_name,
                detail,
            } => file::header_unreadable(lang, source_name, detail),
            ResultError::NoRows { source_name } => file::no_rows(lang, source_name),
            ResultError::CsvHeader {
                source_name,
                column,
                accepted,
                or_both_sides,
            } => file::csv_header(lang, source_name, column, accepted, *or_both_sides),
            ResultError::EmptyGroupCell => file::empty_group_cell(lang),
            ResultError::GroupColumnUnexpected { source_name } => {
                file::group_column_unexpected(lang, source_name)
            }
            ResultError::GroupColumnMissing {
                source_name,
                groups,
            } => file::group_column_missing(lang, source_name, groups),
            ResultError::GroupNotChosen { text, chosen } => {
                file::group_not_chosen(lang, text, chosen)
            }
            ResultError::UnknownHall { text, halls } => file::unknown_hall(lang, text, halls),
            ResultError::HallNotGroups { hall, group, own } => {
                file::hall_not_groups(lang, hall, group, own)
            }
            ResultError::UnknownGroupName { text, known } => {
                file::unknown_group_name(lang, text, known)
            }
            ResultError::Csv {
                source_name,
                message,
            } => file::csv(lang, source_name, message),
            ResultError::UnknownGroup { group, known } => lookup::unknown_group(lang, group, known),
            ResultError::NoRounds { group } => lookup::no_rounds(lang, group),
            ResultError::RoundMissing { group, round, last } => {
                lookup::round_missing(lang, group, *round, *last)
            }
            ResultError::RoundOutsideSchedule {
                group,
                round,
                limit,
            } => lookup::round_outside_schedule(lang, group, *round, *limit),
            ResultError::TableMissing {
                group,
                round,
                table,
                tables,
            } => lookup::table_missing(lang, group, *round, *table, tables),
            ResultError::HallTableMissing {
                round,
                table,
                tables,
            } => lookup::hall_table_missing(lang, *round, *table, tables),
            ResultError::DuplicateTable { round, table } => {
                lookup::duplicate_table(lang, *round, *table)
            }
            ResultError::FoulsOnForfeit {
                round,
                table,
                outcome,
                red,
                black,
            } => fouls::fouls_on_forfeit(lang, *round, *table, *outcome, *red, *black),
            ResultError::FoulsOverLimit {
                round,
                table,
                side,
                fouls,
                limit,
            } => fouls::fouls_over_limit(lang, *round, *table, side, *fouls, *limit),
            ResultError::FoulsContradictWinner {
                round,
                table,
                side,
                limit,
                outcome,
            } => fouls::fouls_contradict_winner(lang, *round, *table, side, *limit, *outcome),
            ResultError::BothAtFoulLimit {
                round,
                table,
                limit,
            } => fouls::both_at_foul_limit(lang, *round, *table, *limit),
            ResultError::UnknownPlayer { player } => players::unknown_player(lang, *player),
            ResultError::AlreadyWithdrawn { player, from_round } => {
                players::already_withdrawn(lang, player, *from_round)
            }
            ResultError::PairedAfterWithdrawal { player, round } => {
                players::paired_after_withdrawal(lang, player, *round)
            }
            ResultError::UnplayedGame { player, round } => {
                players::unplayed_game(lang, player, *round)
            }
            ResultError::EventOver { player, rounds } => players::event_over(lang, player, *rounds),
            ResultError::PenaltiesNotAllowed => penalties::penalties_not_allowed(lang),
            ResultError::PenaltyPointsNeeded => penalties::penalty_points_needed(lang),
            ResultError::PenaltyNotPositive { points } => {
                penalties::penalty_not_positive(lang, *points)
            }
            ResultError::PenaltyTooLarge {
                points,
                max,
                rounds,
                from_rulebook,
            } => penalties::penalty_too_large(lang, *points, *max, *rounds, *from_rulebook),
            ResultError::PenaltyNeedsReason => penalties::penalty_needs_reason(lang),
            ResultError::WarningNeedsReason => penalties::warning_needs_reason(lang),
            ResultError::RoundNotPaired {
                group,
                round,
                paired,
            } => lookup::round_not_paired(lang, group, *round, *paired),
            ResultError::RoundUnfinished {
                group,
                round,
                tables,
            } => lookup::round_unfinished(lang, group, *round, tables),
            ResultError::KnockoutNotDue {
                group,
                round,
                table,
            } => bi!(
                lang,
                zh(
                    "该成绩会改变组别 `{group}` 某场淘汰赛的胜负或战平状态，而其下一局已经编排：第 {round} 轮第 {table} 台将不再是应进行的对局；请先撤回该轮（无成绩时用 `qiwang unpair --group {group}`）"
                ),
                en(
                    "this result would change who is level or who won a knockout match of group `{group}` after its next game was paired: round {round} table {table} would no longer be the game due; take that round back first (`qiwang unpair --group {group}` while it has no results)"
                ),
            ),
            ResultError::NotWithdrawn { player } => players::not_withdrawn(lang, player),
            ResultError::BadWithdrawalRound { from_round } => {
                players::bad_withdrawal_round(lang, *from_round)
            }
            ResultError::EmptyReason => players::empty_reason(lang),
            ResultError::NoPlayoffNeeded { group } => penalties::no_playoff_needed(lang, group),
            ResultError::PlayoffMismatch { group, given, tied } => {
                penalties::playoff_mismatch(lang, group, given, tied)
            }
            ResultError::Mismatch(m) => m.localize(lang),
            ResultError::Many(errors) => {
                let list = errors
                    .iter()
                    .map(|e| format!("  - {}", e.localize(lang)))
                    .collect::<Vec<_>>()
                    .join("\n");
                bi!(
                    lang,
                    zh("{} 个问题，未记录任何成绩：\n{list}", errors.len()),
                    en(
                        "{}, nothing was recorded:\n{list}",
                        plural(errors.len(), "problem", "problems")
                    ),
                )
            }
        }
    }
}

impl ResultError {
    /// [`ResultError::collect`] for callers outside the library: `Ok` when there are none.
    pub fn collect_all(errors: Vec<ResultError>) -> Result<(), ResultError> {
        Self::collect(errors)
    }

    /// One error, or all of them at once.
    pub(crate) fn collect(mut errors: Vec<ResultError>) -> Result<(), ResultError> {
        match errors.len() {
            0 => Ok(()),
            1 => Err(errors.remove(0)),
            _ => Err(ResultError::Many(errors)),
        }
    }
}
