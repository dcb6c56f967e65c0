//! Messages of `ResultError` about groups, rounds and tables that are not there or not
//! ready: an unknown group, a round not yet paired or outside the schedule, a table the round does not have, a
//! round to unpair or finish.

use crate::i18n::{bi, number_ranges, plural};
use crate::model::GroupId;
use crate::rulebook::Lang;
use crate::schedule::RoundLimit;

/// The message of `ResultError::UnknownGroup`.
pub(super) fn unknown_group(lang: Lang, group: &GroupId, known: &str) -> String {
    bi!(
        lang,
        zh("组别 `{group}` 不是规程中的编排组别：请用 {known} 之一"),
        en("group `{group}` is not a pairing group of the rulebook: use one of {known}"),
    )
}

/// The message of `ResultError::NoRounds`.
pub(super) fn no_rounds(lang: Lang, group: &GroupId) -> String {
    bi!(
        lang,
        zh("组别 `{group}` 还没有轮次：请先编排第 1 轮再录入成绩"),
        en("group `{group}` has no rounds yet: pair round 1 before entering results"),
    )
}

/// The message of `ResultError::RoundMissing`.
pub(super) fn round_missing(lang: Lang, group: &GroupId, round: u32, last: u32) -> String {
    let rounds = number_ranges(&(1..=last).collect::<Vec<u32>>(), lang);
    bi!(
        lang,
        zh("组别 `{group}` 没有第 {round} 轮：已有的轮次为 {rounds}"),
        en("group `{group}` has no round {round}: its rounds are {rounds}"),
    )
}

/// The message of `ResultError::RoundOutsideSchedule`.
pub(super) fn round_outside_schedule(
    lang: Lang,
    group: &GroupId,
    round: u32,
    limit: RoundLimit,
) -> String {
    let reason = limit.reason(round, lang);
    bi!(
        lang,
        zh("组别 `{group}` 没有第 {round} 轮：{reason}"),
        en("group `{group}` has no round {round}: {reason}"),
    )
}

/// The message of `ResultError::TableMissing`.
pub(super) fn table_missing(
    lang: Lang,
    group: &GroupId,
    round: u32,
    table: u32,
    tables: &[u32],
) -> String {
    let listed = number_ranges(tables, lang);
    bi!(
        lang,
        zh(
            "组别 `{group}` 第 {round} 轮没有第 {table} 台：已有的台号为 {}",
            if tables.is_empty() {
                "无（本轮只有轮空）"
            } else {
                &listed
            }
        ),
        en(
            "round {round} of group `{group}` has no table {table}: its tables are {}",
            if tables.is_empty() {
                "none (the round has only a bye)"
            } else {
                &listed
            }
        ),
    )
}

/// The message of `ResultError::DuplicateTable`.
pub(super) fn duplicate_table(lang: Lang, round: u32, table: u32) -> String {
    bi!(
        lang,
        zh("第 {round} 轮第 {table} 台给出了两次：每台只写一次"),
        en("round {round} table {table} is given twice: give each table once"),
    )
}

/// The message of `ResultError::HallTableMissing`.
pub(super) fn hall_table_missing(
    lang: Lang,
    round: Option<u32>,
    table: u32,
    tables: &[u32],
) -> String {
    let listed = number_ranges(tables, lang);
    match round {
        Some(round) => bi!(
            lang,
            zh("第 {round} 轮没有第 {table} 台：本轮各组别的台号为 {listed}"),
            en("round {round} has no table {table}: its tables, every group's, are {listed}"),
        ),
        None => bi!(
            lang,
            zh("最新一轮没有第 {table} 台：各组别的台号为 {listed}（别的轮次请用 `--round`）"),
            en(
                "the newest round has no table {table}: every group's tables are {listed} (give `--round` for another round)"
            ),
        ),
    }
}

/// The message of `ResultError::RoundNotPaired`.
pub(super) fn round_not_paired(lang: Lang, group: &GroupId, round: u32, paired: u32) -> String {
    bi!(
        lang,
        zh("组别 `{group}` 没有第 `{round}` 轮：目前已编排 {paired} 轮"),
        en(
            "round `{round}` does not exist in group `{group}`: {} paired so far",
            plural(paired, "round", "rounds")
        ),
    )
}

/// The message of `ResultError::RoundUnfinished`.
pub(super) fn round_unfinished(lang: Lang, group: &GroupId, round: u32, tables: &[u32]) -> String {
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
        zh(
            "组别 `{group}` 第 {round} 轮尚未结束（{} 台没有成绩：第 {} 台）：请先录入成绩{or_zh}",
            tables.len(),
            number_ranges(tables, lang)
        ),
        en(
            "round {round} of group `{group}` is not finished ({} no result: {}): enter them first{or_en}",
            plural(tables.len(), "table has", "tables have"),
            number_ranges(tables, lang)
        ),
    )
}
