//! Messages of `ResultError` about what was typed: a result token, fouls, a table or a
//! round number that cannot be read, a table without its result, no results at all.

use crate::i18n::bi;
use crate::rulebook::Lang;

/// The message of `ResultError::BadToken`, with a hint for the two ways a spreadsheet
/// cell goes wrong: fouls written into the result (`和/1:0`) and a `1-0` Excel made a date.
pub(super) fn bad_token(lang: Lang, token: &str, at: &str) -> String {
    let mut text = bi!(
        lang,
        zh(
            "结果 `{token}`{}无法识别：请用 `1-0`/`r`/`红胜`、`=`/`d`/`和`、`0-1`/`b`/`黑胜`，弃权用 `+-`/`-+`，双方弃权用 `--`/`双负`",
            at_zh(at)
        ),
        en(
            "result `{token}` is not understood{at}: use `1-0`/`r`/`红胜`, `=`/`d`/`和`, `0-1`/`b`/`黑胜`, `+-`/`-+` for a forfeit or `--`/`双负`"
        ),
    );
    if token.contains(['/', '／']) || token.contains("犯规") {
        text.push_str(lang.pick(
            "；犯规次数写在犯规列（例如 `1:0`），结果列只写结果",
            "; fouls go in the fouls column (e.g. `1:0`), the result column holds the result only",
        ));
    } else if looks_like_a_date(token) {
        text.push_str(lang.pick(
            "；这像是 Excel 把 `1-0` 之类的结果改成了日期：请把结果列设为“文本”格式，或改写为 `红胜`/`和`/`黑胜`",
            "; this looks like a result such as `1-0` that Excel turned into a date: format the result column as text, or write `r`/`=`/`b`",
        ));
    }
    text
}

/// Whether a cell reads like a date a spreadsheet made (`2026-01-01`, `2026/1/1`, `1月1日`).
fn looks_like_a_date(token: &str) -> bool {
    let parts: Vec<&str> = token
        .split(['-', '/', '年', '月', '日'])
        .filter(|p| !p.is_empty())
        .collect();
    (2..=3).contains(&parts.len())
        && parts.iter().all(|p| p.chars().all(|c| c.is_ascii_digit()))
        && (parts[0].len() == 4 || token.contains('月'))
}

/// The message of `ResultError::BadFouls`.
pub(super) fn bad_fouls(lang: Lang, text: &str, at: &str) -> String {
    bi!(
        lang,
        zh(
            "犯规 `{text}`{}无法识别：请写红方:黑方犯规次数，例如 `1:0`",
            at_zh(at)
        ),
        en("fouls `{text}`{at} are not understood: write red:black fouls, e.g. `1:0`"),
    )
}

/// The message of `ResultError::BadTable`.
pub(super) fn bad_table(lang: Lang, text: &str, at: &str) -> String {
    bi!(
        lang,
        zh("台号 `{text}`{}不是台号：请写从 1 起的数字", at_zh(at)),
        en("table `{text}`{at} is not a table number: write a number from 1 up"),
    )
}

/// The message of `ResultError::BadRound`.
pub(super) fn bad_round(lang: Lang, text: &str, at: &str) -> String {
    bi!(
        lang,
        zh("轮次 `{text}`{}不是轮次：请写从 1 起的数字", at_zh(at)),
        en("round `{text}`{at} is not a round number: write a number from 1 up"),
    )
}

/// The message of `ResultError::MissingOutcome`.
pub(super) fn missing_outcome(lang: Lang, table: &str) -> String {
    bi!(
        lang,
        zh("第 {table} 台没有结果：请写在台号之后，例如 `{table} 1-0`"),
        en("table {table} has no result: write it after the table, e.g. `{table} 1-0`"),
    )
}

/// The message of `ResultError::NoEntries`.
pub(super) fn no_entries(lang: Lang) -> String {
    bi!(
        lang,
        zh("没有给出结果：请写 `TABLE RESULT …`（台号 结果 …），例如 `1 1-0 2 = 3 0-1/0:1`"),
        en("no results given: write `TABLE RESULT …`, e.g. `1 1-0 2 = 3 0-1/0:1`"),
    )
}

/// Where a token came from (` (argument 3)`, ` for table 2`), in Chinese.
pub(super) fn at_zh(at: &str) -> String {
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
