//! Everything that can be wrong with a result, a fouls entry, a CSV of results, a
//! withdrawal or a playoff.

use super::Mismatch;
use crate::i18n::{Localize, bi, display_english, number_ranges, plural};
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
        /// The headers that would do (`one of round, 轮次`).
        expected: String,
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
        /// The player.
        player: PlayerId,
        /// The round the earlier withdrawal starts from.
        from_round: u32,
    },

    /// A withdrawal from a round the player is already paired in.
    PairedAfterWithdrawal {
        /// The player.
        player: PlayerId,
        /// The round the player is paired in.
        round: u32,
    },

    /// A withdrawal while the player's game of a paired round has no result.
    UnplayedGame {
        /// The player.
        player: PlayerId,
        /// The round of the game without a result.
        round: u32,
    },

    /// A withdrawal after the player's group has paired all its rounds.
    EventOver {
        /// The player.
        player: PlayerId,
        /// The group's number of rounds.
        rounds: u32,
    },

    /// `unpair` of a group without rounds.
    NothingToUnpair {
        /// The group.
        group: GroupId,
    },

    /// `unpair` of a round that already has results.
    RoundHasResults {
        /// The group.
        group: GroupId,
        /// The round.
        round: u32,
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
        /// The most a player can score in the event.
        max: i64,
    },

    /// A penalty without `--reason`.
    PenaltyNeedsReason,

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

    /// A reinstatement of a player who has not withdrawn.
    NotWithdrawn {
        /// The player.
        player: PlayerId,
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
    fn localize(&self, lang: Lang) -> String {
        match self {
            ResultError::BadToken { token, at } => bi!(
                lang,
                en(
                    "result `{token}` is not understood{at}: use `1-0`/`r`/`红胜`, `=`/`d`/`和`, `0-1`/`b`/`黑胜`, `+-`/`-+` for a forfeit or `--`/`双负`"
                ),
                zh(
                    "结果 `{token}`{}无法识别：请用 `1-0`/`r`/`红胜`、`=`/`d`/`和`、`0-1`/`b`/`黑胜`，弃权用 `+-`/`-+`，双方弃权用 `--`/`双负`",
                    at_zh(at)
                ),
            ),
            ResultError::BadFouls { text, at } => bi!(
                lang,
                en("fouls `{text}`{at} are not understood: write red:black fouls, e.g. `1:0`"),
                zh(
                    "犯规 `{text}`{}无法识别：请写红方:黑方犯规次数，例如 `1:0`",
                    at_zh(at)
                ),
            ),
            ResultError::BadTable { text, at } => bi!(
                lang,
                en("table `{text}`{at} is not a table number: write a number from 1 up"),
                zh("台号 `{text}`{}不是台号：请写从 1 起的数字", at_zh(at)),
            ),
            ResultError::BadRound { text, at } => bi!(
                lang,
                en("round `{text}`{at} is not a round number: write a number from 1 up"),
                zh("轮次 `{text}`{}不是轮次：请写从 1 起的数字", at_zh(at)),
            ),
            ResultError::MissingOutcome { table } => bi!(
                lang,
                en("table {table} has no result: write it after the table, e.g. `{table} 1-0`"),
                zh("第 {table} 台没有结果：请写在台号之后，例如 `{table} 1-0`"),
            ),
            ResultError::NoEntries => bi!(
                lang,
                en("no results given: write `TABLE RESULT …`, e.g. `1 1-0 2 = 3 0-1/0:1`"),
                zh(
                    "没有给出结果：请写 `TABLE RESULT …`（台号 结果 …），例如 `1 1-0 2 = 3 0-1/0:1`"
                ),
            ),
            ResultError::CsvRow {
                source_name,
                line,
                error,
            } => {
                let error = error.localize(lang);
                bi!(
                    lang,
                    en("{source_name} line {line}: {error}"),
                    zh("{source_name} 第 {line} 行：{error}"),
                )
            }
            ResultError::DuplicateRow {
                round,
                table,
                first,
            } => bi!(
                lang,
                en("round {round} table {table} is also on line {first}: give each table once"),
                zh("第 {round} 轮第 {table} 台在第 {first} 行已经出现：每台只写一次"),
            ),
            ResultError::HeaderUnreadable {
                source_name,
                detail,
            } => bi!(
                lang,
                en("{source_name}: the header cannot be read ({detail})"),
                zh("{source_name}：无法读取表头（{detail}）"),
            ),
            ResultError::NoRows { source_name } => bi!(
                lang,
                en("{source_name}: no results in the file: add rows under the header"),
                zh("{source_name}：文件中没有结果：请在表头下添加行"),
            ),
            ResultError::CsvHeader {
                source_name,
                column,
                expected,
            } => bi!(
                lang,
                en(
                    "{source_name}: column `{column}` is missing from the header: it needs {expected}"
                ),
                zh(
                    "{source_name}：表头缺少 `{column}` 列：需要 {}",
                    one_of_zh(expected)
                ),
            ),
            ResultError::EmptyGroupCell => bi!(
                lang,
                en(
                    "the group cell is empty: write the row's group (组别), e.g. its name in the rulebook"
                ),
                zh("组别一栏是空的：请写明该行的组别，例如规程中的组别名称"),
            ),
            ResultError::GroupColumnUnexpected { source_name } => bi!(
                lang,
                en(
                    "{source_name}: the file has a group column (组别) that this reader cannot use: enter it with `qiwang result --from`"
                ),
                zh("{source_name}：文件有组别列，此处无法使用：请用 `qiwang result --from` 录入"),
            ),
            ResultError::GroupColumnMissing {
                source_name,
                groups,
            } => bi!(
                lang,
                en(
                    "{source_name}: several groups have rounds ({groups}): add a group column (组别) naming each row's group, or choose one group with `--group`"
                ),
                zh(
                    "{source_name}：有多个组别已经编排（{groups}）：请加一列“组别”写明每行的组别，或用 `--group` 选定一个组别"
                ),
            ),
            ResultError::GroupNotChosen { text, chosen } => bi!(
                lang,
                en(
                    "group `{text}` is not the group chosen with `--group` ({chosen}): drop `--group` to enter every group's rows, or remove the row"
                ),
                zh(
                    "组别 `{text}` 不是 `--group` 选定的组别（{chosen}）：去掉 `--group` 可一次录入所有组别，或删去这一行"
                ),
            ),
            ResultError::UnknownGroupName { text, known } => bi!(
                lang,
                en("no group `{text}` in the rulebook: use one of {known}"),
                zh("规程中没有组别 `{text}`：请用 {known} 之一"),
            ),
            ResultError::Csv {
                source_name,
                message,
            } => bi!(
                lang,
                en("{source_name}: {message}"),
                zh("{source_name}：无法按 CSV 读取（{message}）"),
            ),
            ResultError::UnknownGroup { group, known } => bi!(
                lang,
                en("group `{group}` is not a pairing group of the rulebook: use one of {known}"),
                zh("组别 `{group}` 不是规程中的编排组别：请用 {known} 之一"),
            ),
            ResultError::NoRounds { group } => bi!(
                lang,
                en("group `{group}` has no rounds yet: pair round 1 before entering results"),
                zh("组别 `{group}` 还没有轮次：请先编排第 1 轮再录入成绩"),
            ),
            ResultError::RoundMissing { group, round, last } => {
                let rounds = number_ranges(&(1..=*last).collect::<Vec<u32>>(), lang);
                bi!(
                    lang,
                    en("group `{group}` has no round {round}: its rounds are {rounds}"),
                    zh("组别 `{group}` 没有第 {round} 轮：已有的轮次为 {rounds}"),
                )
            }
            ResultError::TableMissing {
                group,
                round,
                table,
                tables,
            } => {
                let listed = number_ranges(tables, lang);
                bi!(
                    lang,
                    en(
                        "round {round} of group `{group}` has no table {table}: its tables are {}",
                        if tables.is_empty() {
                            "none (the round has only a bye)"
                        } else {
                            &listed
                        }
                    ),
                    zh(
                        "组别 `{group}` 第 {round} 轮没有第 {table} 台：已有的台号为 {}",
                        if tables.is_empty() {
                            "无（本轮只有轮空）"
                        } else {
                            &listed
                        }
                    ),
                )
            }
            ResultError::DuplicateTable { round, table } => bi!(
                lang,
                en("round {round} table {table} is given twice: give each table once"),
                zh("第 {round} 轮第 {table} 台给出了两次：每台只写一次"),
            ),
            ResultError::FoulsOnForfeit {
                round,
                table,
                outcome,
                red,
                black,
            } => bi!(
                lang,
                en(
                    "round {round} table {table}: `{}` was not played over the board, so it cannot carry fouls `{red}:{black}`: drop the fouls or enter the real result",
                    outcome.token()
                ),
                zh(
                    "第 {round} 轮第 {table} 台：`{}` 不是对局下出的结果，不能带犯规 `{red}:{black}`：请去掉犯规或录入实际结果",
                    outcome.token()
                ),
            ),
            ResultError::FoulsOverLimit {
                round,
                table,
                side,
                fouls,
                limit,
            } => bi!(
                lang,
                en(
                    "round {round} table {table}: {side} has {fouls} fouls but the game ends at {limit}: enter at most {limit}"
                ),
                zh(
                    "第 {round} 轮第 {table} 台：{}犯规 {fouls} 次，但犯规 {limit} 次即判负：最多录入 {limit} 次",
                    side_zh(side)
                ),
            ),
            ResultError::FoulsContradictWinner {
                round,
                table,
                side,
                limit,
                outcome,
            } => bi!(
                lang,
                en(
                    "round {round} table {table}: {side} reached {} and so lost the game, but `{}` makes {side} the winner: enter the real result",
                    plural(limit, "foul", "fouls"),
                    outcome.token()
                ),
                zh(
                    "第 {round} 轮第 {table} 台：{side}犯规达到 {limit} 次已判负，但 `{}` 判{side}胜：请录入实际结果",
                    outcome.token(),
                    side = side_zh(side)
                ),
            ),
            ResultError::BothAtFoulLimit {
                round,
                table,
                limit,
            } => bi!(
                lang,
                en(
                    "round {round} table {table}: both sides have {}, but the game ends at the first side to reach {limit}: enter the fouls each side had when the game ended",
                    plural(limit, "foul", "fouls")
                ),
                zh(
                    "第 {round} 轮第 {table} 台：双方犯规都是 {limit} 次，但先达到 {limit} 次的一方即判负：请录入对局结束时各方的犯规次数"
                ),
            ),
            ResultError::UnknownPlayer { player } => bi!(
                lang,
                en("player {player} is not registered: check the id with `qiwang players`"),
                zh("棋手 {player} 未报名：请用 `qiwang players` 核对编号"),
            ),
            ResultError::AlreadyWithdrawn { player, from_round } => bi!(
                lang,
                en("player {player} is already withdrawn from round {from_round}"),
                zh("棋手 {player} 已从第 {from_round} 轮起退赛"),
            ),
            ResultError::PairedAfterWithdrawal { player, round } => bi!(
                lang,
                en(
                    "player {player} is already paired in round {round}: withdraw from round {next} or unpair round {round} first",
                    next = round + 1
                ),
                zh(
                    "棋手 {player} 已编入第 {round} 轮：请从第 {next} 轮起退赛，或先撤销第 {round} 轮的编排",
                    next = round + 1
                ),
            ),
            ResultError::UnplayedGame { player, round } => bi!(
                lang,
                en(
                    "player {player} is paired in round {round}, which has no result for their game yet: enter a forfeit (`-+` or `+-`) for that game, or `qiwang unpair` and pair again, then withdraw"
                ),
                zh(
                    "棋手 {player} 已编入第 {round} 轮，而该局还没有成绩：请为该局录入弃权（`-+` 或 `+-`），或用 `qiwang unpair` 撤销后重新编排，然后再退赛"
                ),
            ),
            ResultError::EventOver { player, rounds } => bi!(
                lang,
                en(
                    "player {player}'s group has played all {}: there is no round left to withdraw from (to take the player out of the ranking, use `qiwang player disqualify`)",
                    plural(rounds, "round", "rounds")
                ),
                zh(
                    "棋手 {player} 所在组别的 {rounds} 轮已全部编排：已没有可退出的轮次（如要取消其名次，请用 `qiwang player disqualify`）"
                ),
            ),
            ResultError::NothingToUnpair { group } => bi!(
                lang,
                en("{group} has no round to drop"),
                zh("{group} 没有可撤销的轮次"),
            ),
            ResultError::RoundHasResults { group, round } => bi!(
                lang,
                en(
                    "round {round} of {group} already has results: correct them with `qiwang result`, or `qiwang undo` step by step"
                ),
                zh(
                    "{group} 第 {round} 轮已有成绩：请用 `qiwang result` 更正，或用 `qiwang undo` 逐步撤销"
                ),
            ),
            ResultError::PenaltiesNotAllowed => bi!(
                lang,
                en(
                    "this event's rulebook does not allow point penalties (`conduct.penalties_allowed = false`)"
                ),
                zh("本赛事的规程不允许罚分（`conduct.penalties_allowed = false`）"),
            ),
            ResultError::PenaltyPointsNeeded => bi!(
                lang,
                en(
                    "give the points to deduct (`qiwang penalty PLAYER POINTS --reason TEXT`): this rulebook sets no `conduct.disturbance_penalty`"
                ),
                zh(
                    "请给出要扣的分数（`qiwang penalty PLAYER POINTS --reason TEXT`）：本规程没有设置 `conduct.disturbance_penalty`"
                ),
            ),
            ResultError::PenaltyNotPositive { points } => bi!(
                lang,
                en("penalty points must be positive (the points deducted), not `{points}`"),
                zh("罚分必须是正数（扣除的分数），不能是 `{points}`"),
            ),
            ResultError::PenaltyTooLarge { points, max } => bi!(
                lang,
                en(
                    "penalty `{points}` is too large: one penalty deducts at most {} (the most a player can score in an event)",
                    plural(max, "point", "points")
                ),
                zh("罚分 `{points}` 太大：一次最多扣 {max} 分（一名棋手整场比赛最多能得的分数）"),
            ),
            ResultError::PenaltyNeedsReason => bi!(
                lang,
                en("a penalty needs `--reason TEXT` (it is shown in the standings)"),
                zh("罚分需要 `--reason TEXT`（会显示在成绩表中）"),
            ),
            ResultError::RoundNotPaired {
                group,
                round,
                paired,
            } => bi!(
                lang,
                en(
                    "round `{round}` does not exist in group `{group}`: {} paired so far",
                    plural(paired, "round", "rounds")
                ),
                zh("组别 `{group}` 没有第 `{round}` 轮：目前已编排 {paired} 轮"),
            ),
            ResultError::RoundUnfinished {
                group,
                round,
                tables,
            } => {
                // Round 1 has no earlier standings to point to.
                let done = round.saturating_sub(1);
                let (or_en, or_zh) = match done {
                    0 => (String::new(), String::new()),
                    _ => (
                        format!(", or see the standings after round {done} (`--round {done}`)"),
                        format!("，或查看第 {done} 轮后的名次（`--round {done}`）"),
                    ),
                };
                bi!(
                    lang,
                    en(
                        "round {round} of group `{group}` is not finished ({} no result: {}): enter them first{or_en}",
                        plural(tables.len(), "table has", "tables have"),
                        number_ranges(tables, lang)
                    ),
                    zh(
                        "组别 `{group}` 第 {round} 轮尚未结束（{} 台没有成绩：第 {} 台）：请先录入成绩{or_zh}",
                        tables.len(),
                        number_ranges(tables, lang)
                    ),
                )
            }
            ResultError::NotWithdrawn { player } => bi!(
                lang,
                en("player {player} has not withdrawn: there is nothing to reinstate"),
                zh("棋手 {player} 没有退赛，无需恢复参赛"),
            ),
            ResultError::BadWithdrawalRound { from_round } => bi!(
                lang,
                en("withdrawal round `{from_round}` is not a round number: rounds start at 1"),
                zh("退赛轮次 `{from_round}` 不是轮次：轮次从 1 开始"),
            ),
            ResultError::EmptyReason => bi!(
                lang,
                en("a withdrawal needs a reason: say why, e.g. `--reason 身体不适`"),
                zh("退赛需要写明原因，例如 `--reason 身体不适`"),
            ),
            ResultError::NoPlayoffNeeded { group } => bi!(
                lang,
                en("group `{group}` has no tie that needs a playoff"),
                zh("组别 `{group}` 没有需要加赛的同分"),
            ),
            ResultError::PlayoffMismatch { group, given, tied } => bi!(
                lang,
                en(
                    "the playoff order {given} is not the tied players {tied} of group `{group}`: list each of them exactly once, winner first"
                ),
                zh(
                    "加赛名次 {given} 与组别 `{group}` 的同分棋手 {} 不符：每人列出一次，胜者在前",
                    tied.replace(" or ", " 或 ")
                ),
            ),
            ResultError::Mismatch(m) => m.localize(lang),
            ResultError::Many(errors) => {
                let list = errors
                    .iter()
                    .map(|e| format!("  - {}", e.localize(lang)))
                    .collect::<Vec<_>>()
                    .join("\n");
                bi!(
                    lang,
                    en(
                        "{}, nothing was recorded:\n{list}",
                        plural(errors.len(), "problem", "problems")
                    ),
                    zh("{} 个问题，未记录任何成绩：\n{list}", errors.len()),
                )
            }
        }
    }
}

/// The headers a results file needs (`one of round, 轮次`), in Chinese.
fn one_of_zh(expected: &str) -> String {
    expected
        .strip_prefix("one of ")
        .map_or(expected.to_string(), |rest| format!("{rest} 之一"))
}

/// Where a token came from (` (argument 3)`, ` for table 2`), in Chinese.
fn at_zh(at: &str) -> String {
    if let Some(n) = at
        .strip_prefix(" (argument ")
        .and_then(|r| r.strip_suffix(')'))
    {
        return format!("（第 {n} 个参数）");
    }
    if let Some(n) = at.strip_prefix(" for table ") {
        return format!("（第 {n} 台）");
    }
    at.to_string()
}

/// `red`/`black` as the results module names a side, in Chinese.
fn side_zh(side: &str) -> &'static str {
    match side {
        "red" => "红方",
        _ => "黑方",
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

#[cfg(test)]
mod tests {
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
                expected: "one of round, 轮次".into(),
            },
            ResultError::Csv {
                source_name: "r.csv".into(),
                message: "found record with 3 fields".into(),
            },
            ResultError::EmptyGroupCell,
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
                player: PlayerId(17),
                from_round: 4,
            },
            ResultError::PairedAfterWithdrawal {
                player: PlayerId(17),
                round: 4,
            },
            ResultError::UnplayedGame {
                player: PlayerId(17),
                round: 4,
            },
            ResultError::NotWithdrawn {
                player: PlayerId(17),
            },
            ResultError::EventOver {
                player: PlayerId(17),
                rounds: 9,
            },
            ResultError::NothingToUnpair { group: g() },
            ResultError::RoundHasResults {
                group: g(),
                round: 3,
            },
            ResultError::PenaltiesNotAllowed,
            ResultError::PenaltyPointsNeeded,
            ResultError::PenaltyNotPositive { points: -2 },
            ResultError::PenaltyTooLarge {
                points: 2_147_483_647,
                max: 9_900,
            },
            ResultError::PenaltyNeedsReason,
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
}
