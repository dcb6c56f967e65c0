//! `qiwang unpair`: taking back a pool's newest round while none of its games has a
//! result, with what was recorded for it (the relaxations of its pairing, the results
//! corrected since it was paired; after round 1 the draw's pairing numbers).
//!
//! Owns only that undoing of a pairing; must not touch results.

use super::PairingError;
use crate::model::{Event, GroupId};

/// `qiwang unpair`: drops the newest round of `pool` while it has no results. Dropping
/// round 1 clears the pool's pairing numbers, so the next `pair` draws again. Returns the
/// round dropped.
pub fn unpair_round(event: &mut Event, pool: &GroupId) -> Result<u32, PairingError> {
    let state = event.group_mut(pool);
    let Some(last) = state.rounds.last() else {
        return Err(PairingError::NothingToUnpair {
            group: pool.clone(),
        });
    };
    if last.has_results() {
        return Err(PairingError::RoundHasResults {
            group: pool.clone(),
            round: last.number,
        });
    }
    let number = last.number;
    state.rounds.pop();
    // The relaxations recorded for the dropped round go with it (docs/rules.md §2.5).
    state.forget_relaxations(number);
    // Paired again, it takes the results as they stand (docs/rules.md §2.6).
    state.forget_replaced(number);
    // A penalty given while it was under way stands before it when it is paired again.
    let players: std::collections::HashSet<_> = event.players_in(pool).map(|p| p.id).collect();
    for p in event
        .penalties
        .iter_mut()
        .filter(|p| p.paired_round >= number && players.contains(&p.player))
    {
        p.paired_round = number - 1;
    }
    if number == 1 {
        for p in event.players.iter_mut().filter(|p| &p.group == pool) {
            p.number = None;
        }
    }
    Ok(number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GameResult, Outcome, Pairing, Player, PlayerId, Round};

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
    fn only_a_round_without_results_is_dropped() {
        let (mut event, pool) = event();
        assert!(matches!(
            unpair_round(&mut event, &pool),
            Err(PairingError::RoundHasResults { round: 2, .. })
        ));
        if let Some(Pairing::Game { result, .. }) =
            event.group_mut(&pool).rounds[1].pairings.get_mut(1)
        {
            *result = None;
        }
        assert_eq!(unpair_round(&mut event, &pool), Ok(2));
        event.group_mut(&pool).rounds[0]
            .pairings
            .iter_mut()
            .for_each(|p| {
                if let Pairing::Game { result, .. } = p {
                    *result = None;
                }
            });
        assert_eq!(unpair_round(&mut event, &pool), Ok(1));
        assert!(event.players.iter().all(|p| p.number.is_none()));
        assert!(matches!(
            unpair_round(&mut event, &pool),
            Err(PairingError::NothingToUnpair { .. })
        ));
    }
}
