//! Messages of `ResultError` about players: unknown, withdrawn already or not at all,
//! paired or with a game after their withdrawal, withdrawn past the last round.

use crate::i18n::{bi, plural};
use crate::model::PlayerId;
use crate::rulebook::Lang;

/// The message of `ResultError::UnknownPlayer`.
pub(super) fn unknown_player(lang: Lang, player: PlayerId) -> String {
    bi!(
        lang,
        zh("棋手 {player} 未报名：请用 `qiwang players` 核对编号"),
        en("player {player} is not registered: check the id with `qiwang players`"),
    )
}

/// The message of `ResultError::AlreadyWithdrawn`.
pub(super) fn already_withdrawn(lang: Lang, player: &str, from_round: u32) -> String {
    bi!(
        lang,
        zh("棋手 {player} 已从第 {from_round} 轮起退赛"),
        en("player {player} is already withdrawn from round {from_round}"),
    )
}

/// The message of `ResultError::PairedAfterWithdrawal`.
pub(super) fn paired_after_withdrawal(lang: Lang, player: &str, round: u32) -> String {
    bi!(
        lang,
        zh(
            "棋手 {player} 已编入第 {round} 轮：请从第 {next} 轮起退赛，或先撤销第 {round} 轮的编排",
            next = round + 1
        ),
        en(
            "player {player} is already paired in round {round}: withdraw from round {next} or unpair round {round} first",
            next = round + 1
        ),
    )
}

/// The message of `ResultError::UnplayedGame`.
pub(super) fn unplayed_game(lang: Lang, player: &str, round: u32) -> String {
    bi!(
        lang,
        zh(
            "棋手 {player} 已编入第 {round} 轮，而该局还没有成绩：请为该局录入弃权（`-+` 或 `+-`），或用 `qiwang unpair` 撤销后重新编排，然后再退赛"
        ),
        en(
            "player {player} is paired in round {round}, which has no result for their game yet: enter a forfeit (`-+` or `+-`) for that game, or `qiwang unpair` and pair again, then withdraw"
        ),
    )
}

/// The message of `ResultError::EventOver`.
pub(super) fn event_over(lang: Lang, player: &str, rounds: u32) -> String {
    bi!(
        lang,
        zh(
            "棋手 {player} 所在组别的 {rounds} 轮已全部编排：已没有可退出的轮次（如要取消其名次，请用 `qiwang player disqualify`）"
        ),
        en(
            "player {player}'s group has played all {}: there is no round left to withdraw from (to take the player out of the ranking, use `qiwang player disqualify`)",
            plural(rounds, "round", "rounds")
        ),
    )
}

/// The message of `ResultError::NotWithdrawn`.
pub(super) fn not_withdrawn(lang: Lang, player: &str) -> String {
    bi!(
        lang,
        zh("棋手 {player} 没有退赛，无需恢复参赛"),
        en("player {player} has not withdrawn: there is nothing to reinstate"),
    )
}

/// The message of `ResultError::BadWithdrawalRound`.
pub(super) fn bad_withdrawal_round(lang: Lang, from_round: u32) -> String {
    bi!(
        lang,
        zh("退赛轮次 `{from_round}` 不是轮次：轮次从 1 开始"),
        en("withdrawal round `{from_round}` is not a round number: rounds start at 1"),
    )
}

/// The message of `ResultError::EmptyReason`.
pub(super) fn empty_reason(lang: Lang) -> String {
    bi!(
        lang,
        zh("退赛需要写明原因，例如 `--reason 身体不适`"),
        en("a withdrawal needs a reason: say why, e.g. `--reason 身体不适`"),
    )
}
