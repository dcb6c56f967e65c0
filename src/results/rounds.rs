//! Round-level decisions the arbiter's commands need: a point penalty, and which rounds
//! standings may be computed after. (Dropping an unplayed round is `pairing::unpair`.)

use super::ResultError;
use crate::model::{Event, GroupId, Penalty, PlayerId, Points};
use crate::rulebook::Rulebook;

/// `qiwang penalty`: deducts `points` (default: the rulebook's `disturbance_penalty`,
/// Dongguan 十五.9 扣其2个积分) from a player, after the last finished round of their pool.
pub fn add_penalty(
    event: &mut Event,
    rules: &Rulebook,
    player: PlayerId,
    points: Option<i32>,
    reason: &str,
) -> Result<Penalty, ResultError> {
    if !rules.conduct.penalties_allowed {
        return Err(ResultError::PenaltiesNotAllowed);
    }
    let points = match (points, rules.conduct.disturbance_penalty) {
        (Some(p), _) => p,
        (None, Some(p)) => p.0,
        (None, None) => return Err(ResultError::PenaltyPointsNeeded),
    };
    let mut errors = Vec::new();
    if points <= 0 {
        errors.push(ResultError::PenaltyNotPositive { points });
    }
    // A bound keeps every total far from overflow (docs/architecture.md §7).
    let max = crate::rulebook::bounds::MAX_PENALTY;
    if i64::from(points) > max {
        errors.push(ResultError::PenaltyTooLarge { points, max });
    }
    if reason.trim().is_empty() {
        errors.push(ResultError::PenaltyNeedsReason);
    }
    ResultError::collect(errors)?;
    let p = event
        .player(player)
        .ok_or(ResultError::UnknownPlayer { player })?;
    let after_round = event
        .group(&p.group)
        .map(|g| g.rounds.iter().filter(|r| r.is_complete()).count() as u32)
        .unwrap_or(0);
    let penalty = Penalty {
        player,
        points: Points(points),
        reason: reason.to_string(),
        after_round,
    };
    event.penalties.push(penalty.clone());
    Ok(penalty)
}

/// Records a warning without a point loss (警告) against `player`: a reason is required;
/// it goes on the player's record (standings remarks, the player list), nothing is
/// deducted.
pub fn add_warning(
    event: &mut Event,
    player: PlayerId,
    reason: &str,
) -> Result<crate::model::Warning, ResultError> {
    if reason.trim().is_empty() {
        return Err(ResultError::WarningNeedsReason);
    }
    let p = event
        .player(player)
        .ok_or(ResultError::UnknownPlayer { player })?;
    let after_round = event
        .group(&p.group)
        .map(|g| g.rounds.iter().filter(|r| r.is_complete()).count() as u32)
        .unwrap_or(0);
    let warning = crate::model::Warning {
        player,
        reason: reason.to_string(),
        after_round,
    };
    event.warnings.push(warning.clone());
    Ok(warning)
}

/// Whether standings (or a crosstable) may be computed after round `n` of `pool`: the
/// round exists and every game of it has a result (otherwise the missing games would
/// score nothing and the bye would count as already won).
pub fn check_round_finished(event: &Event, pool: &GroupId, n: u32) -> Result<(), ResultError> {
    let paired = event.group(pool).map_or(0, |g| g.rounds.len() as u32);
    if n == 0 || n > paired {
        return Err(ResultError::RoundNotPaired {
            group: pool.clone(),
            round: n,
            paired,
        });
    }
    if let Some(r) = event.group(pool).and_then(|g| g.round(n))
        && !r.is_complete()
    {
        let tables: Vec<u32> = r.open_tables().collect();
        return Err(ResultError::RoundUnfinished {
            group: pool.clone(),
            round: n,
            tables,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GameResult, Outcome, Pairing, Player, Round};

    fn event() -> (Event, GroupId) {
        let pool = GroupId::new("open");
        let mut event = Event::new(String::new());
        for i in 1..=4 {
            let mut p = Player::new(PlayerId(i), format!("p{i}"), pool.clone());
            p.number = Some(i);
            event.players.push(p);
        }
        let game = |table, red, black, result: Option<Outcome>| Pairing::Game {
            table,
            red: PlayerId(red),
            black: PlayerId(black),
            result: result.map(GameResult::new),
        };
        event.group_mut(&pool).rounds = vec![
            Round {
                number: 1,
                pairings: vec![
                    game(1, 1, 2, Some(Outcome::RedWin)),
                    game(2, 3, 4, Some(Outcome::Draw)),
                ],
            },
            Round {
                number: 2,
                pairings: vec![game(1, 1, 3, None), game(2, 2, 4, Some(Outcome::Draw))],
            },
        ];
        (event, pool)
    }

    #[test]
    fn standings_wait_for_every_result_of_the_round() {
        let (event, pool) = event();
        assert_eq!(check_round_finished(&event, &pool, 1), Ok(()));
        assert_eq!(
            check_round_finished(&event, &pool, 2),
            Err(ResultError::RoundUnfinished {
                group: pool.clone(),
                round: 2,
                tables: vec![1],
            })
        );
        assert!(matches!(
            check_round_finished(&event, &pool, 3),
            Err(ResultError::RoundNotPaired { paired: 2, .. })
        ));
    }

    #[test]
    fn penalties_follow_the_rulebook() {
        let (mut event, _) = event();
        let mut rules = Rulebook::cxa_2011("t", 5);
        assert_eq!(
            add_penalty(&mut event, &rules, PlayerId(1), None, "x"),
            Err(ResultError::PenaltyPointsNeeded)
        );
        assert!(matches!(
            add_penalty(&mut event, &rules, PlayerId(1), Some(0), " "),
            Err(ResultError::Many(_))
        ));
        rules.conduct.disturbance_penalty = Some(Points(2));
        let p = add_penalty(&mut event, &rules, PlayerId(1), None, "扰乱棋局").unwrap();
        assert_eq!((p.points, p.after_round), (Points(2), 1));
        rules.conduct.penalties_allowed = false;
        assert_eq!(
            add_penalty(&mut event, &rules, PlayerId(1), Some(1), "x"),
            Err(ResultError::PenaltiesNotAllowed)
        );
        assert_eq!(event.penalties.len(), 1);
    }
}
