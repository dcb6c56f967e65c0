//! Messages of `ResultError` about point penalties and playoffs (加赛).

use crate::i18n::{bi, plural};
use crate::model::GroupId;
use crate::rulebook::Lang;

/// The message of `ResultError::PenaltiesNotAllowed`.
pub(super) fn penalties_not_allowed(lang: Lang) -> String {
    bi!(
        lang,
        zh("本赛事的规程不允许罚分（`conduct.penalties_allowed = false`）"),
        en(
            "this event's rulebook does not allow point penalties (`conduct.penalties_allowed = false`)"
        ),
    )
}

/// The message of `ResultError::PenaltyPointsNeeded`.
pub(super) fn penalty_points_needed(lang: Lang) -> String {
    bi!(
        lang,
        zh(
            "请给出要扣的分数（`qiwang penalty PLAYER POINTS --reason TEXT`）：本规程没有设置 `conduct.disturbance_penalty`"
        ),
        en(
            "give the points to deduct (`qiwang penalty PLAYER POINTS --reason TEXT`): this rulebook sets no `conduct.disturbance_penalty`"
        ),
    )
}

/// The message of `ResultError::PenaltyNotPositive`.
pub(super) fn penalty_not_positive(lang: Lang, points: i32) -> String {
    bi!(
        lang,
        zh("罚分必须是正数（扣除的分数），不能是 `{points}`"),
        en("penalty points must be positive (the points deducted), not `{points}`"),
    )
}

/// The message of `ResultError::PenaltyTooLarge`: the most a player of the group can
/// score in its `rounds`, or in any event. Points the arbiter did not type (the rulebook's
/// default, `from_rulebook`) are named as that setting, with how to give others.
pub(super) fn penalty_too_large(
    lang: Lang,
    points: i32,
    max: i64,
    rounds: Option<u32>,
    from_rulebook: bool,
) -> String {
    let what = if from_rulebook {
        bi!(
            lang,
            zh("本规程的默认罚分 `conduct.disturbance_penalty = {points}`"),
            en("the rulebook's default penalty `conduct.disturbance_penalty = {points}`"),
        )
    } else {
        bi!(lang, zh("罚分 `{points}`"), en("penalty `{points}`"))
    };
    let limit = match rounds {
        Some(n) => bi!(
            lang,
            zh("一次最多扣 {max} 分（该组别棋手 {n} 轮最多能得的分数）"),
            en(
                "one penalty deducts at most {} (the most a player of the group can score in its {})",
                plural(max, "point", "points"),
                plural(n, "round", "rounds")
            ),
        ),
        None => bi!(
            lang,
            zh("一次最多扣 {max} 分（一名棋手整场比赛最多能得的分数）"),
            en(
                "one penalty deducts at most {} (the most a player can score in an event)",
                plural(max, "point", "points")
            ),
        ),
    };
    let give = if from_rulebook {
        bi!(
            lang,
            zh("；请给出要扣的分数（`qiwang penalty PLAYER POINTS --reason TEXT`）"),
            en("; give the points to deduct (`qiwang penalty PLAYER POINTS --reason TEXT`)"),
        )
    } else {
        String::new()
    };
    bi!(
        lang,
        zh("{what} 太大：{limit}{give}"),
        en("{what} is too large: {limit}{give}"),
    )
}

/// The message of `ResultError::PenaltyNeedsReason`. The reason goes to the log, not to
/// any public output (README "What is public"): the standings say 罚分 (penalty).
pub(super) fn penalty_needs_reason(lang: Lang) -> String {
    bi!(
        lang,
        zh("罚分需要写明原因 `--reason TEXT`（记入操作记录；成绩表只显示「罚分」，不显示原因）"),
        en(
            "a penalty needs `--reason TEXT` (it is logged; the standings say \"penalty -N\", not the reason)"
        ),
    )
}

/// The message of `ResultError::WarningNeedsReason`, as for a penalty.
pub(super) fn warning_needs_reason(lang: Lang) -> String {
    bi!(
        lang,
        zh("警告需要写明原因 `--reason TEXT`（记入操作记录；成绩表只显示「警告N次」，不显示原因）"),
        en(
            "a warning needs `--reason TEXT` (it is logged; the standings say \"warned N times\", not the reason)"
        ),
    )
}

/// The message of `ResultError::NoPlayoffNeeded`.
pub(super) fn no_playoff_needed(lang: Lang, group: &GroupId) -> String {
    bi!(
        lang,
        zh("组别 `{group}` 没有需要加赛的同分"),
        en("group `{group}` has no tie that needs a playoff"),
    )
}

/// The message of `ResultError::PlayoffMismatch`.
pub(super) fn playoff_mismatch(lang: Lang, group: &GroupId, given: &str, tied: &str) -> String {
    bi!(
        lang,
        zh(
            "加赛名次 {given} 与组别 `{group}` 的同分棋手 {} 不符：每人列出一次，胜者在前",
            tied.replace(" or ", " 或 ")
        ),
        en(
            "the playoff order {given} is not the tied players {tied} of group `{group}`: list each of them exactly once, winner first"
        ),
    )
}
