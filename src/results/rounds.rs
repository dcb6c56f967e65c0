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
    let (points, from_rulebook) = match (points, rules.conduct.disturbance_penalty) {
        (Some(p), _) => (p, false),
        (None, Some(p)) => (p.0, true),
        (None, None) => return Err(ResultError::PenaltyPointsNeeded),
    };
    let mut errors = Vec::new();
    if points <= 0 {
        errors.push(ResultError::PenaltyNotPositive { points });
    }
    let (max, rounds) = match event.player(player) {
        Some(p) => penalty_cap(event, rules, &p.group),
        None => (crate::rulebook::bounds::MAX_PENALTY, None),
    };
    if i64::from(points) > max {
        errors.push(ResultError::PenaltyTooLarge {
            points,
            max,
            rounds,
            from_rulebook,
        });
    }
    if reason.trim().is_empty() {
        errors.push(ResultError::PenaltyNeedsReason);
    }
    ResultError::collect(errors)?;
    let p = event
        .player(player)
        .ok_or(ResultError::UnknownPlayer { player })?;
    let state = event.group(&p.group);
    let after_round = state.map_or(0, |g| {
        g.rounds.iter().filter(|r| r.is_complete()).count() as u32
    });
    let penalty = Penalty {
        player,
        points: Points(points),
        reason: reason.to_string(),
        after_round,
        paired_round: state.and_then(|g| g.rounds.last()).map_or(0, |r| r.number),
    };
    event.penalties.push(penalty.clone());
    Ok(penalty)
}

/// The most one penalty may deduct from a player of pool `group`, and the rounds that
/// bound counts: what the player can score in the rounds the rulebook schedules (its
/// rounds times the most one game, forfeit or bye scores), no more than the rulebook's
/// bound, which keeps every total far from overflow (docs/architecture.md §7). Where the
/// rounds are not fixed in advance (a knockout, a team competition) the bound alone, with
/// no rounds.
fn penalty_cap(event: &Event, rules: &Rulebook, group: &GroupId) -> (i64, Option<u32>) {
    let bound = crate::rulebook::bounds::MAX_PENALTY;
    let Some(limit) = crate::schedule::RoundLimit::of(event, rules, group) else {
        return (bound, None);
    };
    let per_round = i64::from(rules.scoring.most_in_one_round().0);
    let most = i64::from(limit.rounds).saturating_mul(per_round);
    match most {
        // A rulebook whose games score nothing leaves nothing to deduct but the bound.
        ..=0 => (bound, None),
        _ if most >= bound => (bound, None),
        _ => (most, Some(limit.rounds)),
    }
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
/// score nothing and the bye would count as already won). A round the rulebook does not
/// schedule says how many rounds it does.
pub fn check_round_finished(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    n: u32,
) -> Result<(), ResultError> {
    if let Some(limit) = crate::schedule::RoundLimit::of(event, rules, pool)
        && limit.excludes(n)
    {
        return Err(ResultError::RoundOutsideSchedule {
            group: pool.clone(),
            round: n,
            limit,
        });
    }
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
    use crate::i18n::Localize;
    use crate::model::{GameResult, Outcome, Pairing, Player, Round};
    use crate::rulebook::Lang;

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
        let rules = Rulebook::cxa_2011("t", 5);
        assert_eq!(check_round_finished(&event, &rules, &pool, 1), Ok(()));
        assert_eq!(
            check_round_finished(&event, &rules, &pool, 2),
            Err(ResultError::RoundUnfinished {
                group: pool.clone(),
                round: 2,
                tables: vec![1],
            })
        );
        assert!(matches!(
            check_round_finished(&event, &rules, &pool, 3),
            Err(ResultError::RoundNotPaired { paired: 2, .. })
        ));
    }

    /// Round 0, and a round past the rulebook's last, are refused naming the rulebook's
    /// rounds rather than the rounds paired so far.
    #[test]
    fn a_round_outside_the_schedule_names_the_rounds_of_the_event() {
        let (event, pool) = event();
        let rules = Rulebook::cxa_2011("t", 5);
        for n in [0, 6, u32::MAX] {
            let err = check_round_finished(&event, &rules, &pool, n).unwrap_err();
            let limit = crate::schedule::RoundLimit {
                rounds: 5,
                event_wide: true,
            };
            assert_eq!(
                err,
                ResultError::RoundOutsideSchedule {
                    group: pool.clone(),
                    round: n,
                    limit,
                }
            );
        }
        let six = check_round_finished(&event, &rules, &pool, 6).unwrap_err();
        assert_eq!(
            six.localize(Lang::Zh),
            "组别 `open` 没有第 6 轮：本赛事共 5 轮"
        );
        assert_eq!(
            six.localize(Lang::En),
            "group `open` has no round 6: the event has 5 rounds"
        );
        let zero = check_round_finished(&event, &rules, &pool, 0).unwrap_err();
        assert_eq!(
            zero.localize(Lang::En),
            "group `open` has no round 0: rounds count from 1"
        );
    }

    /// A rulebook default above a group's cap (`penalty P` with no points) is refused as
    /// the rulebook's default, naming the setting, not as a number the arbiter never typed.
    #[test]
    fn a_default_penalty_above_the_cap_is_refused_as_the_rulebooks() {
        let (mut event, _) = event();
        let mut rules = Rulebook::cxa_2011("t", 5);
        rules.conduct.disturbance_penalty = Some(Points(12));
        let err = add_penalty(&mut event, &rules, PlayerId(1), None, "x").unwrap_err();
        assert_eq!(
            err,
            ResultError::PenaltyTooLarge {
                points: 12,
                max: 10,
                rounds: Some(5),
                from_rulebook: true,
            }
        );
        assert_eq!(
            err.localize(Lang::Zh),
            "本规程的默认罚分 `conduct.disturbance_penalty = 12` 太大：一次最多扣 10 分（该组别棋手 5 轮最多能得的分数）；请给出要扣的分数（`qiwang penalty PLAYER POINTS --reason TEXT`）"
        );
        assert!(add_penalty(&mut event, &rules, PlayerId(1), Some(10), "x").is_ok());
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

    /// A penalty may deduct what a player can score in the rounds of the event (5 rounds
    /// of 2 points: 10), not more; the refusal names that limit and the rounds.
    #[test]
    fn a_penalty_above_what_the_event_scores_is_refused() {
        let (mut event, _) = event();
        let rules = Rulebook::cxa_2011("t", 5);
        assert!(add_penalty(&mut event, &rules, PlayerId(1), Some(10), "x").is_ok());
        let err = add_penalty(&mut event, &rules, PlayerId(1), Some(11), "x").unwrap_err();
        assert_eq!(
            err,
            ResultError::PenaltyTooLarge {
                points: 11,
                max: 10,
                rounds: Some(5),
                from_rulebook: false,
            }
        );
        assert_eq!(
            err.localize(Lang::Zh),
            "罚分 `11` 太大：一次最多扣 10 分（该组别棋手 5 轮最多能得的分数）"
        );
        assert_eq!(
            err.localize(Lang::En),
            "penalty `11` is too large: one penalty deducts at most 10 points (the most a player of the group can score in its 5 rounds)"
        );
        assert_eq!(event.penalties.len(), 1);
    }
}
