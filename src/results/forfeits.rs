//! The forfeit-withdrawal rule (`conduct.withdraw_after_forfeits`): a player who forfeits
//! the rulebook's number of games, consecutive or in total, is withdrawn automatically.
//! The withdrawal is a function of the results, so it is re-applied after every change of
//! them (results, corrections, a new rulebook) and made, moved or lifted to match.

use super::recorded::ResultWarning;
use crate::model::{
    Colour, Event, GameResult, GroupId, Pairing, PlayerId, PlayerStatus, Round, WithdrawalCause,
};
use crate::rulebook::{LateResult, Rulebook};

/// Each round's pairings of a group by player, in the group's round order. The forfeit
/// rule looks every player of the pool up in every round, and [`Round::pairing_of`] scans
/// the round, which made re-applying the rule quadratic in the pool's size. As with
/// `pairing_of`, the first pairing involving a player is theirs. Each round is a table by
/// the player's place in the event's list ([`Event::place`]: one probe while nobody was
/// deleted), not a hash map: 100,000 players over nine rounds were 8% of a whole round's
/// `result --from` in hashing alone.
///
/// [`Round::pairing_of`]: crate::model::Round::pairing_of
struct PairingsByPlayer<'a> {
    event: &'a Event,
    /// The group's rounds (none when the group has none yet).
    played: &'a [Round],
    /// `rounds[i][place]` is the pairing in `played[i]` of the player at `place`.
    rounds: Vec<Vec<Option<&'a Pairing>>>,
}

impl<'a> PairingsByPlayer<'a> {
    fn new(event: &'a Event, group: &GroupId) -> Self {
        let played = event.group(group).map_or(&[][..], |g| &g.rounds);
        let rounds = played
            .iter()
            .map(|round| {
                let mut by_place = vec![None; event.players.len()];
                for pairing in &round.pairings {
                    for id in pairing.players() {
                        if let Some(slot) = event.place(id).map(|i| &mut by_place[i])
                            && slot.is_none()
                        {
                            *slot = Some(pairing);
                        }
                    }
                }
                by_place
            })
            .collect();
        PairingsByPlayer {
            event,
            played,
            rounds,
        }
    }

    /// `player`'s pairing in `played[i]`.
    fn at(&self, i: usize, player: PlayerId) -> Option<&'a Pairing> {
        *self.rounds.get(i)?.get(self.event.place(player)?)?
    }

    /// `player`'s pairing in round `number` (the first round so numbered, as
    /// `GroupState::round`).
    fn in_round(&self, number: u32, player: PlayerId) -> Option<&'a Pairing> {
        let i = self.played.iter().position(|r| r.number == number)?;
        self.at(i, player)
    }
}

/// `player`'s result in `pairing` and whether they forfeited it; `None` for a bye or a game
/// still without a result.
fn own_result(pairing: &Pairing, player: PlayerId) -> Option<(&GameResult, bool)> {
    let Pairing::Game {
        red,
        result: Some(result),
        ..
    } = pairing
    else {
        return None;
    };
    let colour = if *red == player {
        Colour::Red
    } else {
        Colour::Black
    };
    Some((result, result.outcome.forfeited_by(colour)))
}

/// The round in which a player reached the forfeit limit, and the forfeited rounds that
/// made it (Dalian/Wuwei 连续2轮弃权; Dongguan 十五.5 累计2轮不到; `docs/rules.md` §6).
/// Forfeits before the round a `player reinstate` lifted an earlier withdrawal from do
/// not count.
fn forfeit_trigger(
    event: &Event,
    pairings: &PairingsByPlayer,
    player: PlayerId,
    rules: &Rulebook,
) -> Option<(u32, Vec<u32>)> {
    let limit = rules.conduct.withdraw_after_forfeits?;
    if limit == 0 {
        return None;
    }
    let counted_from = event
        .player(player)
        .and_then(|p| p.reinstated_from)
        .unwrap_or(1);
    let mut rounds: Vec<_> = (pairings.played.iter().enumerate())
        .filter(|(_, r)| r.number >= counted_from)
        .collect();
    rounds.sort_by_key(|(_, r)| r.number);
    let mut counted: Vec<u32> = Vec::new();
    for (i, round) in rounds {
        let forfeited = match pairings.at(i, player).and_then(|p| own_result(p, player)) {
            // Dongguan 十五.5: 迟到15分钟将判负 is a loss, not one of the 累计2轮不到.
            Some((result, forfeited)) => {
                forfeited && !(result.late && rules.conduct.late_result == LateResult::Loss)
            }
            None => false,
        };
        if forfeited {
            counted.push(round.number);
            if counted.len() as u32 >= limit {
                return Some((round.number, counted));
            }
        } else if rules.conduct.withdraw_consecutive {
            counted.clear();
        }
    }
    None
}

/// The round an automatic withdrawal triggered in `trigger` starts from: the round after
/// it, or, when a correction created the forfeits after later rounds were played, the first
/// later round the player has not already played (a game they did not forfeit, or a bye).
/// Rounds already played stay played; a pairing still without a result stops the search
/// (the arbiter is warned about it). `docs/rules.md` §6 (Withdrawal after forfeits).
fn automatic_from_round(pairings: &PairingsByPlayer, player: PlayerId, trigger: u32) -> u32 {
    let mut round = trigger + 1;
    loop {
        let played = match pairings.in_round(round, player) {
            Some(Pairing::Bye { .. }) => true,
            Some(game) => own_result(game, player).is_some_and(|(_, forfeited)| !forfeited),
            None => false,
        };
        if !played {
            return round;
        }
        round += 1;
    }
}

/// The automatic withdrawal the results call for: from which round, and its cause.
fn automatic_withdrawal(
    event: &Event,
    rules: &Rulebook,
    pairings: &PairingsByPlayer,
    player: PlayerId,
) -> Option<(u32, WithdrawalCause)> {
    let (trigger, rounds) = forfeit_trigger(event, pairings, player, rules)?;
    Some((
        automatic_from_round(pairings, player, trigger),
        WithdrawalCause::Forfeits {
            rounds,
            consecutive: rules.conduct.withdraw_consecutive,
        },
    ))
}

/// Re-applies the forfeit-withdrawal rule to every player of the pool: an automatic
/// withdrawal is a function of the results, so it is made, moved or lifted to match them.
/// Manual withdrawals and disqualifications are never touched. The statuses are worked
/// out first and set after: a player's automatic withdrawal depends on the results and
/// their own reinstatement, never on another player's status.
pub(crate) fn apply_forfeit_withdrawals(
    event: &mut Event,
    rules: &Rulebook,
    group: &GroupId,
) -> Vec<ResultWarning> {
    let pairings = PairingsByPlayer::new(event, group);
    let mut changes = Vec::new();
    let mut warnings = Vec::new();
    for player in event.players_in(group) {
        let id = player.id;
        let current = match &player.status {
            PlayerStatus::Active => None,
            PlayerStatus::Disqualified { .. } => continue,
            PlayerStatus::Withdrawn { cause, .. } if !cause.is_automatic() => continue,
            PlayerStatus::Withdrawn { from_round, cause } => Some((*from_round, cause)),
        };
        match (current, automatic_withdrawal(event, rules, &pairings, id)) {
            (None, None) => {}
            (Some((from_round, _)), None) => {
                changes.push((id, PlayerStatus::Active));
                warnings.push(ResultWarning::WithdrawalLifted {
                    player: id,
                    from_round,
                });
            }
            (old, Some((from_round, cause))) => {
                if old == Some((from_round, &cause)) {
                    continue;
                }
                changes.push((
                    id,
                    PlayerStatus::Withdrawn {
                        from_round,
                        cause: cause.clone(),
                    },
                ));
                warnings.push(ResultWarning::Withdrawn {
                    player: id,
                    from_round,
                    cause,
                });
                let paired_later = pairings.played.iter().enumerate().filter(|(i, r)| {
                    r.number >= from_round
                        && matches!(
                            pairings.at(*i, id),
                            Some(Pairing::Game { result: None, .. })
                        )
                });
                warnings.extend(
                    paired_later.map(|(_, r)| ResultWarning::WithdrawnButPaired {
                        player: id,
                        round: r.number,
                    }),
                );
            }
        }
    }
    for (id, status) in changes {
        if let Some(player) = event.player_mut(id) {
            player.status = status;
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Outcome, Player};

    fn event_with(outcomes: &[Option<Outcome>]) -> (Event, GroupId) {
        let group = GroupId::new("open");
        let mut event = Event::new(String::new());
        for id in 1..=2 {
            event
                .players
                .push(Player::new(PlayerId(id), format!("p{id}"), group.clone()));
        }
        let state = event.group_mut(&group);
        for (k, outcome) in outcomes.iter().enumerate() {
            let pairings = match outcome {
                Some(o) => vec![Pairing::Game {
                    table: 1,
                    red: PlayerId(1),
                    black: PlayerId(2),
                    result: Some(GameResult::new(*o)),
                }],
                None => vec![Pairing::Bye {
                    player: PlayerId(1),
                }],
            };
            state.rounds.push(Round {
                number: k as u32 + 1,
                pairings,
            });
        }
        (event, group)
    }

    #[test]
    fn forfeit_trigger_consecutive_or_total() {
        use Outcome::*;
        // (results of player 1 as red, or a bye; consecutive?; round that withdraws)
        type Case = (&'static [Option<Outcome>], bool, Option<u32>);
        let cases: [Case; 6] = [
            (&[Some(RedForfeit), Some(RedForfeit)], true, Some(2)),
            (
                &[Some(RedForfeit), Some(RedWin), Some(RedForfeit)],
                true,
                None,
            ),
            (
                &[Some(RedForfeit), Some(RedWin), Some(RedForfeit)],
                false,
                Some(3),
            ),
            (&[Some(RedForfeit), None, Some(DoubleForfeit)], true, None),
            (&[Some(DoubleForfeit), Some(DoubleForfeit)], true, Some(2)),
            (&[Some(BlackForfeit), Some(BlackForfeit)], true, None),
        ];
        for (outcomes, consecutive, want) in cases {
            let (event, group) = event_with(outcomes);
            let mut rules = Rulebook::cxa_2011("t", 5);
            rules.conduct.withdraw_consecutive = consecutive;
            let pairings = PairingsByPlayer::new(&event, &group);
            let got = forfeit_trigger(&event, &pairings, PlayerId(1), &rules).map(|(r, _)| r);
            assert_eq!(got, want, "{outcomes:?} consecutive={consecutive}");
        }
        let (event, group) = event_with(&[Some(RedForfeit), Some(RedForfeit)]);
        let mut rules = Rulebook::cxa_2011("t", 5);
        rules.conduct.withdraw_after_forfeits = None;
        let pairings = PairingsByPlayer::new(&event, &group);
        assert_eq!(
            forfeit_trigger(&event, &pairings, PlayerId(1), &rules),
            None
        );
    }

    /// The forfeit rule as it was before [`PairingsByPlayer`]: every lookup scans the
    /// round ([`Round::pairing_of`]) and statuses are set as the players are visited. Kept
    /// only as the oracle of `indexed_forfeit_withdrawals_match_the_scanning_rule`.
    mod scanning {
        use super::super::*;
        use crate::model::GroupState;

        fn trigger(
            event: &Event,
            group: &GroupId,
            player: PlayerId,
            rules: &Rulebook,
        ) -> Option<(u32, Vec<u32>)> {
            let limit = rules.conduct.withdraw_after_forfeits?;
            if limit == 0 {
                return None;
            }
            let counted_from = event
                .player(player)
                .and_then(|p| p.reinstated_from)
                .unwrap_or(1);
            let mut rounds: Vec<_> = (event.group(group)?.rounds.iter())
                .filter(|r| r.number >= counted_from)
                .collect();
            rounds.sort_by_key(|r| r.number);
            let mut counted: Vec<u32> = Vec::new();
            for round in rounds {
                let forfeited = match round.pairing_of(player) {
                    Some(Pairing::Game {
                        red,
                        result: Some(result),
                        ..
                    }) => {
                        let colour = if *red == player {
                            Colour::Red
                        } else {
                            Colour::Black
                        };
                        let late_loss =
                            result.late && rules.conduct.late_result == LateResult::Loss;
                        result.outcome.forfeited_by(colour) && !late_loss
                    }
                    _ => false,
                };
                if forfeited {
                    counted.push(round.number);
                    if counted.len() as u32 >= limit {
                        return Some((round.number, counted));
                    }
                } else if rules.conduct.withdraw_consecutive {
                    counted.clear();
                }
            }
            None
        }

        fn from_round(state: &GroupState, player: PlayerId, trigger: u32) -> u32 {
            let mut round = trigger + 1;
            loop {
                let played = match state.round(round).and_then(|r| r.pairing_of(player)) {
                    Some(Pairing::Bye { .. }) => true,
                    Some(Pairing::Game {
                        red,
                        result: Some(result),
                        ..
                    }) => {
                        let colour = if *red == player {
                            Colour::Red
                        } else {
                            Colour::Black
                        };
                        !result.outcome.forfeited_by(colour)
                    }
                    _ => false,
                };
                if !played {
                    return round;
                }
                round += 1;
            }
        }

        pub fn apply(event: &mut Event, rules: &Rulebook, group: &GroupId) -> Vec<ResultWarning> {
            let ids: Vec<PlayerId> = event.players_in(group).map(|p| p.id).collect();
            let mut warnings = Vec::new();
            for id in ids {
                let wanted = trigger(event, group, id, rules).map(|(t, rounds)| {
                    let state = event.group(group).expect("a trigger needs rounds");
                    let cause = WithdrawalCause::Forfeits {
                        rounds,
                        consecutive: rules.conduct.withdraw_consecutive,
                    };
                    (from_round(state, id, t), cause)
                });
                let player = event.player_mut(id).expect("listed");
                let current = match &player.status {
                    PlayerStatus::Active => None,
                    PlayerStatus::Disqualified { .. } => continue,
                    PlayerStatus::Withdrawn { cause, .. } if !cause.is_automatic() => continue,
                    PlayerStatus::Withdrawn { from_round, cause } => {
                        Some((*from_round, cause.clone()))
                    }
                };
                match (current, wanted) {
                    (None, None) => {}
                    (Some((from_round, _)), None) => {
                        player.status = PlayerStatus::Active;
                        warnings.push(ResultWarning::WithdrawalLifted {
                            player: id,
                            from_round,
                        });
                    }
                    (old, Some((from_round, cause))) => {
                        if old.as_ref() == Some(&(from_round, cause.clone())) {
                            continue;
                        }
                        player.status = PlayerStatus::Withdrawn {
                            from_round,
                            cause: cause.clone(),
                        };
                        warnings.push(ResultWarning::Withdrawn {
                            player: id,
                            from_round,
                            cause,
                        });
                        let paired_later = (event.group(group).into_iter().flat_map(|g| &g.rounds))
                            .filter(|r| {
                                r.number >= from_round
                                    && matches!(
                                        r.pairing_of(id),
                                        Some(Pairing::Game { result: None, .. })
                                    )
                            });
                        warnings.extend(paired_later.map(|r| ResultWarning::WithdrawnButPaired {
                            player: id,
                            round: r.number,
                        }));
                    }
                }
            }
            warnings
        }
    }

    /// A random pool for the forfeit rule: players who sit out rounds, byes, forfeits
    /// (some late), games without a result, rounds stored out of order or twice, stale
    /// automatic withdrawals, manual ones, disqualifications and reinstatements.
    fn random_forfeit_pool(rng: &mut impl rand::Rng) -> (Event, GroupId, Rulebook) {
        use rand::seq::SliceRandom;
        let group = GroupId::new("open");
        let mut event = Event::new(String::new());
        let players = rng.gen_range(1..=10u32);
        let rounds = rng.gen_range(0..=6u32);
        for id in 1..=players {
            let mut p = Player::new(PlayerId(id), format!("p{id}"), group.clone());
            if rng.gen_bool(0.2) {
                p.reinstated_from = Some(rng.gen_range(1..=rounds + 1));
            }
            p.status = match rng.gen_range(0..8) {
                0 => PlayerStatus::Withdrawn {
                    from_round: rng.gen_range(1..=rounds + 2),
                    cause: WithdrawalCause::Forfeits {
                        rounds: vec![rng.gen_range(1..=rounds + 1); rng.gen_range(1..3)],
                        consecutive: rng.gen_bool(0.5),
                    },
                },
                1 => PlayerStatus::Withdrawn {
                    from_round: rng.gen_range(1..=rounds + 2),
                    cause: WithdrawalCause::Manual { note: None },
                },
                2 => PlayerStatus::Disqualified {
                    from_round: 1,
                    reason: String::new(),
                },
                _ => PlayerStatus::Active,
            };
            event.players.push(p);
        }
        let outcomes = [
            Outcome::RedWin,
            Outcome::Draw,
            Outcome::BlackWin,
            Outcome::RedForfeit,
            Outcome::BlackForfeit,
            Outcome::DoubleForfeit,
        ];
        let mut numbers: Vec<u32> = (1..=rounds).collect();
        if rounds > 1 && rng.gen_bool(0.2) {
            numbers.swap(0, 1);
        }
        if rounds > 0 && rng.gen_bool(0.1) {
            numbers.push(rounds);
        }
        for number in numbers {
            let mut ids: Vec<PlayerId> = (1..=players)
                .map(PlayerId)
                .filter(|_| rng.gen_bool(0.9))
                .collect();
            ids.shuffle(rng);
            let mut pairings = Vec::new();
            for (table, pair) in ids.chunks(2).enumerate() {
                pairings.push(match *pair {
                    [red, black] => Pairing::Game {
                        table: table as u32 + 1,
                        red,
                        black,
                        result: rng.gen_bool(0.9).then(|| GameResult {
                            outcome: outcomes[rng.gen_range(0..outcomes.len())],
                            red_fouls: 0,
                            black_fouls: 0,
                            late: rng.gen_bool(0.2),
                        }),
                    },
                    [player] => Pairing::Bye { player },
                    _ => unreachable!("chunks of two"),
                });
            }
            event
                .group_mut(&group)
                .rounds
                .push(Round { number, pairings });
        }
        let mut rules = Rulebook::cxa_2011("t", 9);
        rules.conduct.withdraw_after_forfeits =
            [None, Some(1), Some(2), Some(3)][rng.gen_range(0..4)];
        rules.conduct.withdraw_consecutive = rng.gen_bool(0.5);
        if rng.gen_bool(0.5) {
            rules.conduct.late_result = LateResult::Loss;
        }
        (event, group, rules)
    }

    #[test]
    fn indexed_forfeit_withdrawals_match_the_scanning_rule() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
        let mut withdrawn = 0;
        for case in 0..3000 {
            let (event, group, rules) = random_forfeit_pool(&mut rng);
            let (mut old, mut new) = (event.clone(), event);
            let want = scanning::apply(&mut old, &rules, &group);
            let got = apply_forfeit_withdrawals(&mut new, &rules, &group);
            assert_eq!(got, want, "case {case}: warnings");
            assert_eq!(new, old, "case {case}: statuses");
            withdrawn += want
                .iter()
                .filter(|w| matches!(w, ResultWarning::Withdrawn { .. }))
                .count();
        }
        // The cases reach the rule, not only its early exits.
        assert!(withdrawn > 300, "{withdrawn} withdrawals");
    }
}
