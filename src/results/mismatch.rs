//! [`Mismatch`]: a results row that names players other than the game at its table, or a
//! results file printed for a pairing that no longer exists. Each says what the row says,
//! what the table holds and where the players named really are.
//!
//! Owns only the refusals and their wording; `seats.rs` and `file.rs` decide them.

use crate::i18n::{Localize, bi, display_english, number_ranges, plural};
use crate::model::Colour;
use crate::rulebook::Lang;

/// Both sides of a game as a row writes them, or as the table holds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// 红方.
    pub red: String,
    /// 黑方.
    pub black: String,
}

/// Where a player a row names really is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// At a table of the round, in this colour.
    Table {
        /// The table.
        table: u32,
        /// The colour there.
        colour: Colour,
        /// The player as sheets show them.
        name: String,
    },
    /// Has the round's bye.
    Bye {
        /// The player as sheets show them.
        name: String,
    },
    /// In the row's group but not paired in the round (withdrawn, late entry).
    NotPaired {
        /// The player as sheets show them.
        name: String,
    },
    /// A player of another group.
    OtherGroup {
        /// The player as sheets show them.
        name: String,
        /// That group's name.
        group: String,
    },
    /// Several players fit what the row says (the same name).
    Several {
        /// How many.
        count: usize,
    },
    /// Nobody of the event fits.
    Nobody,
}

/// One side of a row that is not the player at that seat, and where that player is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Whereabouts {
    /// The side as the row writes it.
    pub written: String,
    /// Where the player it describes is.
    pub place: Place,
}

/// What to tell the arbiter about a row whose players are not the table's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// The two players play each other at `table`, red and black the other way round.
    Swapped {
        /// Their table.
        table: u32,
    },
    /// The two players play each other at another table.
    OtherTable {
        /// Their table.
        table: u32,
        /// With the colours the other way round too.
        swapped: bool,
    },
    /// Where each side that does not fit is.
    Sides(Vec<Whereabouts>),
}

/// A results row or file refused because it may be about other games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// A row whose players are not the players at its table, in their colours.
    WrongPlayers {
        /// The group's name.
        group: String,
        /// The round.
        round: u32,
        /// The row's table.
        table: u32,
        /// What the row says.
        written: Seen,
        /// Who plays there.
        holds: Seen,
        /// Where the players named are.
        hint: Hint,
    },
    /// A row naming players but no table, whose players play no game of the round.
    NoGame {
        /// The group's name.
        group: String,
        /// The round.
        round: u32,
        /// What the row says.
        written: Seen,
        /// Where the players named are.
        hint: Hint,
    },
    /// A row naming players but no table that fits several games.
    SeveralGames {
        /// The group's name.
        group: String,
        /// The round.
        round: u32,
        /// What the row says.
        written: Seen,
        /// The games it fits.
        tables: Vec<u32>,
    },
    /// A row without a table that does not name both players.
    NoTable,
    /// A pairing-number cell that is not a number.
    BadNumber {
        /// The cell.
        text: String,
    },
    /// An ID cell that is not the end of an ID number.
    BadIdTail {
        /// The cell.
        text: String,
    },
    /// `result --names` text that is not `RED/BLACK`.
    BadNames {
        /// The text as given.
        text: String,
    },
    /// Rows printed for a pairing of their round that is no longer the round's pairing.
    StalePairing {
        /// The file.
        source_name: String,
        /// The rows' group's name.
        group: String,
        /// The rows' round.
        round: u32,
        /// The pairing code the rows carry.
        written: String,
        /// The round's pairing code now; `None` when the round no longer exists.
        current: Option<String>,
        /// The (group name, round) whose current pairing the code is, when it is one.
        belongs_to: Option<(String, u32)>,
        /// The rows' lines.
        lines: Vec<u32>,
    },
    /// A file naming players or carrying pairing codes read where they cannot be checked.
    Unchecked {
        /// The file.
        source_name: String,
    },
}

display_english!(Mismatch);

impl Localize for Mismatch {
    fn localize(&self, lang: Lang) -> String {
        match self {
            Mismatch::WrongPlayers {
                group,
                round,
                table,
                written,
                holds,
                hint,
            } => {
                let hint = hint_text(hint, written, lang);
                bi!(
                    lang,
                    zh(
                        "组别 `{group}` 第 {round} 轮第 {table} 台：写的是 红方 {}、黑方 {}，本台是 红方 {}、黑方 {}：{hint}",
                        written.red,
                        written.black,
                        holds.red,
                        holds.black
                    ),
                    en(
                        "round {round} table {table} of group `{group}`: given as red {}, black {}, but the table holds red {}, black {}: {hint}",
                        written.red,
                        written.black,
                        holds.red,
                        holds.black
                    ),
                )
            }
            Mismatch::NoGame {
                group,
                round,
                written,
                hint,
            } => {
                let hint = hint_text(hint, written, lang);
                bi!(
                    lang,
                    zh(
                        "组别 `{group}` 第 {round} 轮没有 红方 {} 对 黑方 {} 的对局：{hint}",
                        written.red,
                        written.black
                    ),
                    en(
                        "round {round} of group `{group}` has no game of red {} against black {}: {hint}",
                        written.red,
                        written.black
                    ),
                )
            }
            Mismatch::SeveralGames {
                group,
                round,
                written,
                tables,
            } => {
                let tables = number_ranges(tables, lang);
                bi!(
                    lang,
                    zh(
                        "组别 `{group}` 第 {round} 轮：红方 {}、黑方 {} 与第 {tables} 台都相符：请写明台号",
                        written.red,
                        written.black
                    ),
                    en(
                        "round {round} of group `{group}`: red {}, black {} fits tables {tables}: add the table number (台号)",
                        written.red,
                        written.black
                    ),
                )
            }
            Mismatch::NoTable => bi!(
                lang,
                zh("这一行没有台号，也没有写全双方棋手：请写明台号，或写出红方和黑方的姓名"),
                en(
                    "the row has no table number and does not name both players: give the table (台号), or both red's and black's names"
                ),
            ),
            Mismatch::BadNumber { text } => bi!(
                lang,
                zh("序号 `{text}` 不是数字：请写对阵表上的序号，例如 `12`"),
                en(
                    "pairing number `{text}` is not a number: write the 序号 of the pairing sheet, e.g. `12`"
                ),
            ),
            Mismatch::BadIdTail { text } => bi!(
                lang,
                zh("证件号 `{text}` 不是证件号的尾号：请写最后 4 位或更多，例如 `123X`"),
                en(
                    "ID `{text}` is not the end of an ID number: write its last 4 characters or more, e.g. `123X`"
                ),
            ),
            Mismatch::BadNames { text } => bi!(
                lang,
                zh("`{text}` 没有写出红方和黑方：请写 `RED/BLACK`，例如 `张三/李四`（可只写一方）"),
                en(
                    "`{text}` does not give red and black: write `RED/BLACK`, e.g. `张三/李四` (one side may be left empty)"
                ),
            ),
            Mismatch::StalePairing {
                source_name,
                group,
                round,
                written,
                current,
                belongs_to,
                lines,
            } => stale_text(
                lang,
                source_name,
                group,
                *round,
                written,
                current.as_deref(),
                belongs_to.as_ref(),
                lines,
            ),
            Mismatch::Unchecked { source_name } => bi!(
                lang,
                zh(
                    "{source_name}：文件写有棋手（红方/黑方）或编排码，这里无法与编排核对：请用 `qiwang result --from` 录入"
                ),
                en(
                    "{source_name}: the file names players (红方/黑方) or carries pairing codes (编排码), which this reader cannot check against the pairing: enter it with `qiwang result --from`"
                ),
            ),
        }
    }
}

/// The message of rows printed for a pairing that is gone.
#[allow(clippy::too_many_arguments)]
fn stale_text(
    lang: Lang,
    source_name: &str,
    group: &str,
    round: u32,
    written: &str,
    current: Option<&str>,
    belongs_to: Option<&(String, u32)>,
    lines: &[u32],
) -> String {
    let rows_en = if lines.len() == 1 { "line" } else { "lines" };
    let lines = number_ranges(lines, lang);
    let reprint = format!("qiwang round {round} --group {group} --sheet slips");
    if let Some((other_group, other_round)) = belongs_to {
        // The slips of the round the code is from: the rows' own round may not exist.
        let reprint = format!("qiwang round {other_round} --group {other_group} --sheet slips");
        return bi!(
            lang,
            zh(
                "{source_name} 第 {lines} 行：编排码 `{written}` 属于组别 `{other_group}` 第 {other_round} 轮，而这些行写的是组别 `{group}` 第 {round} 轮：请改正组别和轮次，或用 `{reprint}` 重新打印成绩登记表"
            ),
            en(
                "{source_name} {rows_en} {lines}: pairing code `{written}` is that of round {other_round} of group `{other_group}`, but the rows say round {round} of group `{group}`: correct the rows' group (组别) and round (轮次), or print new slips with `{reprint}`"
            ),
        );
    }
    match current {
        Some(current) => bi!(
            lang,
            zh(
                "{source_name} 第 {lines} 行：是为组别 `{group}` 第 {round} 轮的编排 `{written}` 打印的，但该轮现在的编排是 `{current}`：打印之后这一轮被重新编排或改动过，文件中的台号已是别的对局；未记录任何成绩：请用 `{reprint}` 重新打印成绩登记表，按新表录入"
            ),
            en(
                "{source_name} {rows_en} {lines}: printed for pairing `{written}` of round {round} of group `{group}`, which is now paired as `{current}`: the round was re-paired or edited after the file was printed, so its tables are other games; nothing was recorded: print new slips with `{reprint}` and enter the results on them"
            ),
        ),
        None => bi!(
            lang,
            zh(
                "{source_name} 第 {lines} 行：是为组别 `{group}` 第 {round} 轮的编排 `{written}` 打印的，但这一轮已不存在（打印之后用 `qiwang unpair` 撤销了）：未记录任何成绩；请重新编排，再用 `{reprint}` 打印新的成绩登记表"
            ),
            en(
                "{source_name} {rows_en} {lines}: printed for pairing `{written}` of round {round} of group `{group}`, but that round is no longer paired (it was undone with `qiwang unpair` after the file was printed): nothing was recorded; pair the round again and print new slips with `{reprint}`"
            ),
        ),
    }
}

/// The hint of a row, in `lang`; `written` is what the row says.
fn hint_text(hint: &Hint, written: &Seen, lang: Lang) -> String {
    match hint {
        Hint::Swapped { table } => bi!(
            lang,
            zh(
                "红黑方写反了（二人在第 {table} 台对局）：请按对阵表把两人写回各自的列，并核对结果是否按红方填写（红胜 = 红方胜）"
            ),
            en(
                "red and black are swapped (the two play each other at table {table}): write each player in their own column as the pairing sheet has them, and check that the result is red's (红胜 = red won)"
            ),
        ),
        Hint::OtherTable { table, swapped } => {
            let (red, black) = (&written.red, &written.black);
            let (also_en, also_zh) = if *swapped {
                (
                    ", with red and black the other way round",
                    "，且红黑方写反了",
                )
            } else {
                ("", "")
            };
            bi!(
                lang,
                zh(
                    "{red}/{black} 在第 {table} 台{also_zh}：请把结果写到第 {table} 台那一行，或改正台号"
                ),
                en(
                    "{red}/{black} play at table {table}{also_en}: put this result on table {table}'s row, or correct the table number"
                ),
            )
        }
        Hint::Sides(sides) => {
            let parts: Vec<String> = sides.iter().map(|w| whereabouts_text(w, lang)).collect();
            bi!(
                lang,
                zh("{}；请改正姓名或台号", parts.join("；")),
                en(
                    "{}; correct the names or the table number",
                    parts.join("; ")
                ),
            )
        }
    }
}

fn whereabouts_text(w: &Whereabouts, lang: Lang) -> String {
    let written = &w.written;
    match &w.place {
        Place::Table {
            table,
            colour,
            name,
        } => {
            let (en, zh) = match colour {
                Colour::Red => ("red", "红方"),
                Colour::Black => ("black", "黑方"),
            };
            bi!(
                lang,
                zh("{written} 是 {name}，在第 {table} 台执{zh}"),
                en("{written} is {name}, {en} at table {table}"),
            )
        }
        Place::Bye { name } => bi!(
            lang,
            zh("{written} 是 {name}，本轮轮空"),
            en("{written} is {name}, who has the bye this round"),
        ),
        Place::NotPaired { name } => bi!(
            lang,
            zh("{written} 是 {name}，本轮没有编排"),
            en("{written} is {name}, who is not paired this round"),
        ),
        Place::OtherGroup { name, group } => bi!(
            lang,
            zh("{written} 是组别 `{group}` 的棋手 {name}"),
            en("{written} is {name} of group `{group}`"),
        ),
        Place::Several { count } => bi!(
            lang,
            zh("{written} 与 {count} 名棋手相符：请加上序号，例如 张三(12)"),
            en(
                "{written} fits {}: add the pairing number, e.g. 张三(12)",
                plural(count, "player", "players")
            ),
        ),
        Place::Nobody => bi!(
            lang,
            zh("赛事中没有 {written} 这名棋手"),
            en("no player of the event is {written}"),
        ),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::i18n::facts::assert_localized;

    /// One of each, with every kind of hint and place.
    pub(crate) fn every_variant() -> Vec<Mismatch> {
        let seen = |r: &str, b: &str| Seen {
            red: r.into(),
            black: b.into(),
        };
        let wrong = |hint| Mismatch::WrongPlayers {
            group: "青少年组".into(),
            round: 2,
            table: 12,
            written: seen("闫文", "卢林旭"),
            holds: seen("张三(5)", "李四(9)"),
            hint,
        };
        let places = vec![
            Place::Table {
                table: 11,
                colour: Colour::Red,
                name: "闫文(3)".into(),
            },
            Place::Bye {
                name: "王五(7)".into(),
            },
            Place::NotPaired {
                name: "赵六(8)".into(),
            },
            Place::OtherGroup {
                name: "钱七".into(),
                group: "成人组".into(),
            },
            Place::Several { count: 2 },
            Place::Nobody,
        ];
        let stale =
            |current: Option<&str>, belongs_to: Option<(String, u32)>| Mismatch::StalePairing {
                source_name: "r.csv".into(),
                group: "青少年组".into(),
                round: 2,
                written: "P0000ABCD".into(),
                current: current.map(Into::into),
                belongs_to,
                lines: vec![2, 3, 4, 9],
            };
        let mut all = vec![
            wrong(Hint::Swapped { table: 12 }),
            wrong(Hint::OtherTable {
                table: 11,
                swapped: false,
            }),
            wrong(Hint::OtherTable {
                table: 11,
                swapped: true,
            }),
            Mismatch::NoGame {
                group: "青少年组".into(),
                round: 2,
                written: seen("闫文", "—"),
                hint: Hint::Sides(vec![]),
            },
            Mismatch::SeveralGames {
                group: "青少年组".into(),
                round: 2,
                written: seen("张三", "李四"),
                tables: vec![3, 8],
            },
            Mismatch::NoTable,
            Mismatch::BadNumber { text: "x".into() },
            Mismatch::BadIdTail { text: "12".into() },
            Mismatch::BadNames {
                text: "甲乙".into(),
            },
            stale(Some("P1234ABCD"), None),
            stale(None, None),
            stale(Some("P1234ABCD"), Some(("少儿精英".into(), 1))),
            Mismatch::Unchecked {
                source_name: "r.csv".into(),
            },
        ];
        for place in places {
            all.push(wrong(Hint::Sides(vec![Whereabouts {
                written: "闫文".into(),
                place,
            }])));
        }
        all
    }

    #[test]
    fn every_message_has_chinese_with_the_same_values() {
        for m in every_variant() {
            assert_localized(&m);
        }
    }

    #[test]
    fn a_shifted_row_names_the_table_its_players_are_at() {
        let text = every_variant()[1].localize(Lang::Zh);
        assert!(
            text.contains("写的是 红方 闫文、黑方 卢林旭")
                && text.contains("本台是 红方 张三(5)、黑方 李四(9)")
                && text.contains("闫文/卢林旭 在第 11 台"),
            "{text}"
        );
        let text = every_variant()[0].localize(Lang::Zh);
        assert!(text.contains("红黑方写反了"), "{text}");
    }
}
