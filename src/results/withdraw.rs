//! Withdrawing a player by hand and reinstating them, and the wording of a withdrawal's
//! cause. Every function validates first and changes nothing on error.

use super::ResultError;
use crate::i18n::bi;
use crate::model::{Event, Pairing, PlayerId, PlayerStatus, WithdrawalCause};
use crate::rulebook::Lang;

/// A withdrawal's cause in `lang`: the arbiter's note (自愿退赛 / voluntary without one),
/// or the forfeits that reached the rulebook's limit.
pub fn withdrawal_cause_text(cause: &WithdrawalCause, lang: Lang) -> String {
    match cause {
        WithdrawalCause::Manual { note: Some(note) } => note.clone(),
        WithdrawalCause::Manual { note: None } => lang.pick("自愿退赛", "voluntary").to_string(),
        WithdrawalCause::GroupCancelled => lang
            .pick("组别人数不足，已取消", "group cancelled: too few players")
            .to_string(),
        WithdrawalCause::Forfeits {
            rounds,
            consecutive,
        } => {
            let n = rounds.len();
            let list = rounds
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(lang.pick("、", ", "));
            let forfeits = crate::i18n::plural(n, "forfeit", "forfeits");
            match consecutive {
                true => bi!(
                    lang,
                    zh("连续{n}轮弃权（第 {list} 轮）"),
                    en(
                        "{} (rounds {list})",
                        crate::i18n::plural(n, "consecutive forfeit", "consecutive forfeits")
                    )
                ),
                false => bi!(
                    lang,
                    zh("累计{n}轮弃权（第 {list} 轮）"),
                    en("{forfeits} in total (rounds {list})")
                ),
            }
        }
    }
}

/// Withdraws a player from `from_round` on (voluntary withdrawal): they are no longer
/// paired; their played games stay and keep counting for their opponents. `reason` is
/// required. See [`withdraw`] for the checks.
pub fn withdraw_player(
    event: &mut Event,
    player: PlayerId,
    from_round: u32,
    reason: &str,
) -> Result<(), ResultError> {
    if reason.trim().is_empty() {
        let mut errors = vec![ResultError::EmptyReason];
        if let Err(e) = check_withdrawal(event, player, from_round) {
            errors.insert(0, e);
        }
        return ResultError::collect(errors);
    }
    withdraw(event, player, from_round, Some(reason)).map(|_| ())
}

/// `qiwang player withdraw`: the player is not paired from the round after the newest
/// round of their pool. Refused while their game of the newest round has no result (enter
/// a forfeit for it, or unpair the round, first), and once the group's `rounds` are all
/// paired. Returns the round the withdrawal starts.
pub fn withdraw_from_next_round(
    event: &mut Event,
    player: PlayerId,
    rounds: u32,
    note: Option<&str>,
) -> Result<u32, ResultError> {
    let p = event
        .player(player)
        .ok_or(ResultError::UnknownPlayer { player })?;
    let newest = event
        .group(&p.group)
        .and_then(|g| g.rounds.iter().max_by_key(|r| r.number));
    if let Some(round) = newest
        && let Some(Pairing::Game { result: None, .. }) = round.pairing_of(player)
    {
        return Err(ResultError::UnplayedGame {
            player: event.player_label(player),
            round: round.number,
        });
    }
    let from_round = newest.map_or(0, |r| r.number) + 1;
    // After the last round there is nothing left to withdraw from; under
    // `prizes.withdrawn = "unranked"` a withdrawal then would only take away a place.
    if from_round > rounds {
        return Err(ResultError::EventOver {
            player: event.player_label(player),
            rounds,
        });
    }
    withdraw(event, player, from_round, note)
}

/// The checks of a manual withdrawal from `from_round`.
fn check_withdrawal(event: &Event, player: PlayerId, from_round: u32) -> Result<(), ResultError> {
    let p = event
        .player(player)
        .ok_or(ResultError::UnknownPlayer { player })?;
    let mut errors = Vec::new();
    if from_round == 0 {
        errors.push(ResultError::BadWithdrawalRound { from_round });
    }
    match &p.status {
        PlayerStatus::Withdrawn {
            from_round: already,
            cause,
        } if !cause.is_automatic() => errors.push(ResultError::AlreadyWithdrawn {
            player: event.player_label(player),
            from_round: *already,
        }),
        PlayerStatus::Disqualified {
            from_round: already,
            ..
        } => errors.push(ResultError::AlreadyWithdrawn {
            player: event.player_label(player),
            from_round: *already,
        }),
        _ => {}
    }
    if let Some(state) = event.group(&p.group) {
        let paired = state
            .rounds
            .iter()
            .filter(|r| r.number >= from_round && r.pairing_of(player).is_some())
            .map(|r| r.number)
            .max();
        if let Some(round) = paired {
            errors.push(ResultError::PairedAfterWithdrawal {
                player: event.player_label(player),
                round,
            });
        }
    }
    ResultError::collect(errors)
}

/// Withdraws a player by hand from `from_round` on, with the arbiter's note if any.
/// Fails if the player is unknown, already withdrawn by hand or disqualified, or already
/// paired in `from_round` or later. An automatic withdrawal is replaced, from the round it
/// started if that is earlier (the player was not paired since). Returns the round the
/// withdrawal starts.
pub fn withdraw(
    event: &mut Event,
    player: PlayerId,
    from_round: u32,
    note: Option<&str>,
) -> Result<u32, ResultError> {
    let from_round = event
        .player(player)
        .and_then(crate::model::Player::out_from)
        .map_or(from_round, |out| out.min(from_round));
    check_withdrawal(event, player, from_round)?;
    let note = note
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    if let Some(p) = event.player_mut(player) {
        p.status = PlayerStatus::Withdrawn {
            from_round,
            cause: WithdrawalCause::Manual { note },
        };
    }
    Ok(from_round)
}

/// `qiwang player reinstate`: lifts a withdrawal, manual or automatic, from the round after
/// the newest round of the player's pool on. Played games are unchanged; rounds missed
/// meanwhile stay unplayed. Forfeits before that round no longer count toward the forfeit
/// rule, so an automatic withdrawal is not made again from the same forfeits. Returns the
/// round the player is paired again from.
pub fn reinstate_player(event: &mut Event, player: PlayerId) -> Result<u32, ResultError> {
    let p = event
        .player(player)
        .ok_or(ResultError::UnknownPlayer { player })?;
    if !p.is_withdrawn() {
        return Err(ResultError::NotWithdrawn {
            player: event.player_label(player),
        });
    }
    let from_round = event.next_round(&p.group);
    if let Some(p) = event.player_mut(player) {
        p.reactivate(from_round);
        p.reinstated_from = Some(from_round);
    }
    Ok(from_round)
}
