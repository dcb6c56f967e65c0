//! The event's maximum number of players (issue 42 §5): `event.max_players` when the
//! rulebook sets it, else [`DEFAULT_MAX_PLAYERS`](crate::rulebook::bounds::DEFAULT_MAX_PLAYERS).
//!
//! Owns the refusal's wording and the early stop: rows are counted as a sheet streams,
//! and reading stops once the rows alone are sure to exceed the room left, so a sheet of
//! a million rows is refused before a million players are built. Must not decide
//! anything else about a row.

use crate::i18n::{Text, plural};
use crate::rulebook::Rulebook;
use crate::rulebook::bounds::{DEFAULT_MAX_PLAYERS, MAX_PLAYERS};

/// Rows of a sheet that may be no player although they are not blank: title rows above
/// the header (the header is looked for in the first 10), and the template's example row.
const NON_PLAYER_ROWS: usize = 11;

/// Whether a row may be a player, for the early count: valid or not, every row the
/// import reads as a registration counts, and a row of wrong values is a row the
/// organiser meant as a player. Only a row whose one filled cell is a number is left out
/// (a template's pre-numbered empty rows hold only their 序号). Counting too few only
/// delays the stop; the exact count is taken once the rows are read.
pub(super) fn may_be_player(cells: &[String]) -> bool {
    let mut filled = cells.iter().map(|c| c.trim()).filter(|c| !c.is_empty());
    match (filled.next(), filled.next()) {
        (None, _) => false,
        (Some(only), None) => !only.bytes().all(|b| b.is_ascii_digit()),
        (Some(_), Some(_)) => true,
    }
}

/// How many more players the event takes, and what to say when a sheet brings more.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limit {
    /// The maximum in force.
    max: usize,
    /// Whether the rulebook sets it (else it is qiwang's default).
    set: bool,
    /// Players registered before this import.
    registered: usize,
}

impl Limit {
    pub(super) fn of(rules: &Rulebook, registered: usize) -> Limit {
        Limit {
            max: rules.max_players() as usize,
            set: rules.event.max_players.is_some(),
            registered,
        }
    }

    /// Whether `rows` non-blank rows of one sheet, with `read` players already read from
    /// the files before it, must bring more players than the event takes. Holds at once
    /// for a sheet far over the limit; the exact count is [`Limit::exceeded`]'s.
    pub(super) fn rows_exceed(&self, read: usize, rows: usize) -> bool {
        self.registered + read + rows > self.max + NON_PLAYER_ROWS
    }

    /// The refusal once reading stopped at `line` of a sheet, the rows so far being sure
    /// to bring more players than the event takes.
    pub(super) fn stopped(&self, line: usize) -> Text {
        let (max, registered) = (self.max, self.registered);
        let room = max.saturating_sub(registered);
        let (zh, en) = self.raise();
        Text::new(
            format!(
                "本赛事最多 `{max}` 名棋手，已报名 {registered} 名，还能报 {room} 名；而表格到第 {line} 行已超过这个人数，所以没有继续读取：{zh}"
            ),
            format!(
                "the event takes at most `{max}` players and {registered} are registered, so {room} more fit; the sheet has more rows than that by line {line}, where reading stopped: {en}"
            ),
        )
    }

    /// The refusal when `here` players read from the files bring the event over its
    /// maximum, or `None` while they fit.
    pub(super) fn exceeded(&self, here: usize) -> Option<Text> {
        let (max, registered) = (self.max, self.registered);
        let total = registered + here;
        if total <= max {
            return None;
        }
        let over = total - max;
        let (zh, en) = self.or_raise();
        Some(Text::new(
            format!(
                "本赛事最多 `{max}` 名棋手；已报名 {registered} 名，本次 {here} 名，共 `{total}` 名：请删去 {over} 行，或{zh}"
            ),
            format!(
                "the event takes at most `{max}` players; {registered} registered and {here} here make `{total}`: remove {}, or {en}",
                plural(over, "row", "rows")
            ),
        ))
    }

    /// How to raise the limit, as the second choice after "remove N rows, or"
    /// ([`Limit::exceeded`]), in Chinese and English.
    fn or_raise(&self) -> (String, String) {
        if self.set {
            (
                format!(
                    "在规程允许时提高规程的 `event.max_players`（竞赛规程的报名上限，最多 `{MAX_PLAYERS}`）"
                ),
                format!(
                    "raise the rulebook's `event.max_players` (a regulation's cap on entries) if the regulation allows (at most `{MAX_PLAYERS}`)"
                ),
            )
        } else {
            (
                format!(
                    "在规程的 [event] 中写 `max_players = …`，提高 qiwang 的默认上限 `{DEFAULT_MAX_PLAYERS}`（最多 `{MAX_PLAYERS}`）"
                ),
                format!(
                    "write `max_players = …` in the rulebook's [event] to raise qiwang's default maximum `{DEFAULT_MAX_PLAYERS}` (at most `{MAX_PLAYERS}`)"
                ),
            )
        }
    }

    /// What raises the limit, in Chinese and English: a sentence of its own.
    fn raise(&self) -> (String, String) {
        if self.set {
            (
                format!(
                    "规程的 `event.max_players` 限定了这个人数（竞赛规程的报名上限）；如规程允许，请提高它（最多 `{MAX_PLAYERS}`）"
                ),
                format!(
                    "the rulebook's `event.max_players` sets this limit (a regulation's cap on entries); raise it if the regulation allows (at most `{MAX_PLAYERS}`)"
                ),
            )
        } else {
            (
                format!(
                    "`{DEFAULT_MAX_PLAYERS}` 是 qiwang 的默认上限；更大的赛事请在规程的 [event] 中写 `max_players = …`（最多 `{MAX_PLAYERS}`）"
                ),
                format!(
                    "`{DEFAULT_MAX_PLAYERS}` is qiwang's default maximum; for a larger event write `max_players = …` in the rulebook's [event] (at most `{MAX_PLAYERS}`)"
                ),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::facts::assert_same;

    #[test]
    fn every_refusal_has_chinese_with_the_same_values() {
        for set in [false, true] {
            let limit = Limit {
                max: 300,
                set,
                registered: 290,
            };
            let t = limit.exceeded(20).unwrap();
            assert_same(&t.zh, &t.en);
            let t = limit.stopped(400);
            assert_same(&t.zh, &t.en);
            assert!(limit.exceeded(10).is_none());
        }
    }

    /// "remove 1 row, or" goes on with what to do, not with a sentence of its own.
    #[test]
    fn the_second_choice_of_a_refusal_reads_on_from_or() {
        let limit = |set| Limit {
            max: 300,
            set,
            registered: 290,
        };
        let t = limit(false).exceeded(11).unwrap();
        assert!(
            t.zh.ends_with(&format!(
                "请删去 1 行，或在规程的 [event] 中写 `max_players = …`，提高 qiwang 的默认上限 `{DEFAULT_MAX_PLAYERS}`（最多 `{MAX_PLAYERS}`）"
            )),
            "{}",
            t.zh
        );
        assert!(
            t.en.ends_with(&format!(
                "remove 1 row, or write `max_players = …` in the rulebook's [event] to raise qiwang's default maximum `{DEFAULT_MAX_PLAYERS}` (at most `{MAX_PLAYERS}`)"
            )),
            "{}",
            t.en
        );
        let t = limit(true).exceeded(12).unwrap();
        assert!(
            t.zh.contains("请删去 2 行，或在规程允许时提高规程的 `event.max_players`"),
            "{}",
            t.zh
        );
        assert!(
            t.en.contains("remove 2 rows, or raise the rulebook's `event.max_players`"),
            "{}",
            t.en
        );
    }

    #[test]
    fn rows_of_wrong_values_count_and_pre_numbered_rows_do_not() {
        let row = |cells: &[&str]| {
            may_be_player(&cells.iter().map(ToString::to_string).collect::<Vec<_>>())
        };
        // The tester's sheet: every cell `1`, a row the import reads (and refuses).
        assert!(row(&["1"; 10]));
        assert!(row(&["1", "", "1"]));
        assert!(row(&["", "张三", ""]));
        // A template's empty row numbered 17, and blank rows.
        assert!(!row(&["17", "", " "]));
        assert!(!row(&["", " ", ""]));
        assert!(!row(&[]));
    }

    #[test]
    fn rows_exceed_only_beyond_every_row_that_may_be_no_player() {
        let limit = Limit {
            max: 100,
            set: false,
            registered: 40,
        };
        assert!(!limit.rows_exceed(0, 60 + NON_PLAYER_ROWS));
        assert!(limit.rows_exceed(0, 61 + NON_PLAYER_ROWS));
        assert!(limit.rows_exceed(60, 1 + NON_PLAYER_ROWS));
    }
}
