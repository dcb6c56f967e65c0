//! Messages of `ResultError` about a results file's shape: its header, its rows, the
//! CSV itself and its group column.

use super::ResultError;
use crate::i18n::{Localize, bi};
use crate::rulebook::Lang;

/// The message of `ResultError::CsvRow`.
pub(super) fn csv_row(lang: Lang, source_name: &str, line: u64, error: &ResultError) -> String {
    let error = error.localize(lang);
    bi!(
        lang,
        zh("{source_name} 第 {line} 行：{error}"),
        en("{source_name} line {line}: {error}"),
    )
}

/// The message of `ResultError::DuplicateRow`.
pub(super) fn duplicate_row(lang: Lang, round: u32, hall: &str, table: u32, first: u64) -> String {
    let hall = if hall.is_empty() {
        String::new()
    } else {
        format!("{hall} ")
    };
    bi!(
        lang,
        zh("第 {round} 轮{hall}第 {table} 台在第 {first} 行已经出现：每台只写一次"),
        en("round {round} {hall}table {table} is also on line {first}: give each table once"),
    )
}

/// A hall as a message names it: its name, or the main hall (the 场地 cell left empty).
fn hall_words(lang: Lang, hall: &str) -> String {
    if hall.is_empty() {
        bi!(
            lang,
            zh("主赛场（场地一栏空着）"),
            en("the main hall (an empty hall cell)")
        )
    } else {
        hall.to_string()
    }
}

/// The message of `ResultError::UnknownHall`.
pub(super) fn unknown_hall(lang: Lang, text: &str, halls: &[String]) -> String {
    let halls = halls
        .iter()
        .map(|h| hall_words(lang, h))
        .collect::<Vec<_>>()
        .join(lang.pick("、", ", "));
    bi!(
        lang,
        zh("场地一栏写的 `{text}` 不是任何组别的场地：本赛事的场地为 {halls}，请写其中之一"),
        en(
            "the hall cell says `{text}`, where no group plays: the halls are {halls}; write one of them"
        ),
    )
}

/// The message of `ResultError::HallNotGroups`.
pub(super) fn hall_not_groups(lang: Lang, hall: &str, group: &str, own: &str) -> String {
    let (hall, own) = (hall_words(lang, hall), hall_words(lang, own));
    bi!(
        lang,
        zh(
            "场地一栏写的是 {hall}，但 {group} 在 {own} 比赛：请改正这一行的场地，或它的组别（组别一栏或 `--group`）"
        ),
        en(
            "the hall cell says {hall}, but {group} plays in {own}: correct the row's hall, or its group (the group column or `--group`)"
        ),
    )
}

/// The message of `ResultError::HeaderUnreadable`.
pub(super) fn header_unreadable(lang: Lang, source_name: &str, detail: &str) -> String {
    bi!(
        lang,
        zh("{source_name}：无法读取表头（{detail}）"),
        en("{source_name}: the header cannot be read ({detail})"),
    )
}

/// The message of `ResultError::NoRows`.
pub(super) fn no_rows(lang: Lang, source_name: &str) -> String {
    bi!(
        lang,
        zh(
            "{source_name}：文件中没有结果：请在表头下添加行，或在结果列填写结果（结果为空的行不录入）"
        ),
        en(
            "{source_name}: no results in the file: add rows under the header, or fill in the result column (rows without a result are left out)"
        ),
    )
}

/// The message of `ResultError::CsvHeader`: the header names that would do, as the file
/// may write them, and whether the two side columns would do instead.
pub(super) fn csv_header(
    lang: Lang,
    source_name: &str,
    column: &str,
    accepted: &[&str],
    or_both_sides: bool,
) -> String {
    let names = accepted.join(", ");
    let sides = match or_both_sides {
        true => lang.pick("（或同时有 红方 和 黑方 两列）", " (or both 红方 and 黑方)"),
        false => "",
    };
    bi!(
        lang,
        zh("{source_name}：表头缺少 `{column}` 列：需要 {names} 之一{sides}"),
        en(
            "{source_name}: column `{column}` is missing from the header: it needs one of {names}{sides}"
        ),
    )
}

/// The message of `ResultError::EmptyGroupCell`.
pub(super) fn empty_group_cell(lang: Lang) -> String {
    bi!(
        lang,
        zh("组别一栏是空的：请写明该行的组别，例如规程中的组别名称"),
        en("the group cell is empty: write the row's group (组别), e.g. its name in the rulebook"),
    )
}

/// The message of `ResultError::GroupColumnUnexpected`.
pub(super) fn group_column_unexpected(lang: Lang, source_name: &str) -> String {
    bi!(
        lang,
        zh("{source_name}：文件有组别列，此处无法使用：请用 `qiwang result --from` 录入"),
        en(
            "{source_name}: the file has a group column (组别) that this reader cannot use: enter it with `qiwang result --from`"
        ),
    )
}

/// The message of `ResultError::GroupColumnMissing`.
pub(super) fn group_column_missing(lang: Lang, source_name: &str, groups: &str) -> String {
    bi!(
        lang,
        zh(
            "{source_name}：有多个组别已经编排（{groups}）：请加一列“组别”写明每行的组别，或用 `--group` 选定一个组别"
        ),
        en(
            "{source_name}: several groups have rounds ({groups}): add a group column (组别) naming each row's group, or choose one group with `--group`"
        ),
    )
}

/// The message of `ResultError::GroupNotChosen`.
pub(super) fn group_not_chosen(lang: Lang, text: &str, chosen: &str) -> String {
    bi!(
        lang,
        zh(
            "组别 `{text}` 不是 `--group` 选定的组别（{chosen}）：去掉 `--group` 可一次录入所有组别，或删去这一行"
        ),
        en(
            "group `{text}` is not the group chosen with `--group` ({chosen}): drop `--group` to enter every group's rows, or remove the row"
        ),
    )
}

/// The message of `ResultError::UnknownGroupName`.
pub(super) fn unknown_group_name(lang: Lang, text: &str, known: &str) -> String {
    bi!(
        lang,
        zh("规程中没有组别 `{text}`：请用 {known} 之一"),
        en("no group `{text}` in the rulebook: use one of {known}"),
    )
}

/// The message of `ResultError::Csv`.
pub(super) fn csv(lang: Lang, source_name: &str, message: &str) -> String {
    bi!(
        lang,
        zh("{source_name}：无法按 CSV 读取（{message}）"),
        en("{source_name}: {message}"),
    )
}
