//! Messages of `ResultError` about the foul rule: fouls on a forfeit, over the limit,
//! contradicting the winner, both sides at the limit.

use crate::i18n::{bi, plural};
use crate::model::Outcome;
use crate::rulebook::Lang;

/// The message of `ResultError::FoulsOnForfeit`.
pub(super) fn fouls_on_forfeit(
    lang: Lang,
    round: u32,
    table: u32,
    outcome: Outcome,
    red: u32,
    black: u32,
) -> String {
    bi!(
        lang,
        zh(
            "第 {round} 轮第 {table} 台：`{}` 不是对局下出的结果，不能带犯规 `{red}:{black}`：请去掉犯规或录入实际结果",
            outcome.token()
        ),
        en(
            "round {round} table {table}: `{}` was not played over the board, so it cannot carry fouls `{red}:{black}`: drop the fouls or enter the real result",
            outcome.token()
        ),
    )
}

/// The message of `ResultError::FoulsOverLimit`.
pub(super) fn fouls_over_limit(
    lang: Lang,
    round: u32,
    table: u32,
    side: &str,
    fouls: u32,
    limit: u32,
) -> String {
    bi!(
        lang,
        zh(
            "第 {round} 轮第 {table} 台：{}犯规 {fouls} 次，但犯规 {limit} 次即判负：最多录入 {limit} 次",
            side_zh(side)
        ),
        en(
            "round {round} table {table}: {side} has {fouls} fouls but the game ends at {limit}: enter at most {limit}"
        ),
    )
}

/// The message of `ResultError::FoulsContradictWinner`.
pub(super) fn fouls_contradict_winner(
    lang: Lang,
    round: u32,
    table: u32,
    side: &str,
    limit: u32,
    outcome: Outcome,
) -> String {
    bi!(
        lang,
        zh(
            "第 {round} 轮第 {table} 台：{side}犯规达到 {limit} 次已判负，但 `{}` 判{side}胜：请录入实际结果",
            outcome.token(),
            side = side_zh(side)
        ),
        en(
            "round {round} table {table}: {side} reached {} and so lost the game, but `{}` makes {side} the winner: enter the real result",
            plural(limit, "foul", "fouls"),
            outcome.token()
        ),
    )
}

/// The message of `ResultError::BothAtFoulLimit`.
pub(super) fn both_at_foul_limit(lang: Lang, round: u32, table: u32, limit: u32) -> String {
    bi!(
        lang,
        zh(
            "第 {round} 轮第 {table} 台：双方犯规都是 {limit} 次，但先达到 {limit} 次的一方即判负：请录入对局结束时各方的犯规次数"
        ),
        en(
            "round {round} table {table}: both sides have {}, but the game ends at the first side to reach {limit}: enter the fouls each side had when the game ended",
            plural(limit, "foul", "fouls")
        ),
    )
}

/// `red`/`black` as the results module names a side, in Chinese.
fn side_zh(side: &str) -> &'static str {
    match side {
        "red" => "红方",
        _ => "黑方",
    }
}
