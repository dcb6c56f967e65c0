//! Points per game and per round, from the rulebook's scoring (CXA 2011 §13, §14.4).
//!
//! Shared by pairing (score groups) and standings (totals, tiebreaks). Pure: reads the
//! event, never changes it.

use crate::model::{Colour, Event, GameResult, GroupId, Outcome, Pairing, PlayerId, Points};
use crate::rulebook::{Conduct, Rulebook, Scoring};
use std::collections::{BTreeMap, HashMap};

impl Scoring {
    /// The most a player can score in one round: the best of every game outcome, the bye
    /// and a forfeit (the struct taken apart whole, so a new field is counted too).
    pub fn most_in_one_round(&self) -> Points {
        let Scoring {
            red_win,
            red_draw,
            red_loss,
            black_win,
            black_draw,
            black_loss,
            bye,
            forfeit_win,
            forfeit_loss,
            double_forfeit,
        } = *self;
        [
            red_win,
            red_draw,
            red_loss,
            black_win,
            black_draw,
            black_loss,
            bye,
            forfeit_win,
            forfeit_loss,
            double_forfeit,
        ]
        .into_iter()
        .max()
        .unwrap_or(Points(0))
    }
}

/// Points `colour` scores for a game with this result.
///
/// Fouls are already folded into the outcome when the result is entered (a game lost on
/// fouls is stored as a loss), so only the outcome matters here.
pub fn game_points(result: &GameResult, colour: Colour, scoring: &Scoring) -> Points {
    let (win, draw, loss) = match colour {
        Colour::Red => (scoring.red_win, scoring.red_draw, scoring.red_loss),
        Colour::Black => (scoring.black_win, scoring.black_draw, scoring.black_loss),
    };
    match result.outcome {
        Outcome::Draw => draw,
        Outcome::RedWin | Outcome::BlackWin => {
            if result.outcome.winner() == Some(colour) {
                win
            } else {
                loss
            }
        }
        Outcome::RedForfeit | Outcome::BlackForfeit => {
            if result.outcome.winner() == Some(colour) {
                scoring.forfeit_win
            } else {
                scoring.forfeit_loss
            }
        }
        Outcome::DoubleForfeit => scoring.double_forfeit,
    }
}

/// Points a player scored in one pairing, or `None` while the game has no result.
pub fn pairing_points(pairing: &Pairing, player: PlayerId, scoring: &Scoring) -> Option<Points> {
    match pairing {
        Pairing::Bye { player: p } if *p == player => Some(scoring.bye),
        Pairing::Game {
            red,
            black,
            result: Some(result),
            ..
        } => {
            if *red == player {
                Some(game_points(result, Colour::Red, scoring))
            } else if *black == player {
                Some(game_points(result, Colour::Black, scoring))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// For every player of a pool, the points of each of the first `rounds` rounds
/// (`0` for a round the player was not paired in or whose game has no result yet).
/// Penalties are not included (see [`Penalties`]).
pub fn round_points(
    event: &Event,
    scoring: &Scoring,
    group: &GroupId,
    rounds: u32,
) -> BTreeMap<PlayerId, Vec<Points>> {
    let width = rounds as usize;
    // One flat table, a row per player in id order, found through `Rows` (a lookup in
    // the finished map per game was a tenth of `export` at 100,000 players: every round's
    // pairing sheet asks for the scores before it).
    let pool = PoolRows::of(event, group);
    let table = round_points_table(event, scoring, group, &pool, rounds);
    pool.ids
        .into_iter()
        .enumerate()
        .map(|(row, id)| (id, table[row * width..(row + 1) * width].to_vec()))
        .collect()
}

/// A pool's players as rows: their ids sorted, each once, and the row of each id.
pub(crate) struct PoolRows {
    /// The ids, row by row.
    pub(crate) ids: Vec<PlayerId>,
    rows: Rows,
}

impl PoolRows {
    /// The players of pool `group`.
    pub(crate) fn of(event: &Event, group: &GroupId) -> PoolRows {
        let mut ids: Vec<PlayerId> = event.players_in(group).map(|p| p.id).collect();
        ids.sort_unstable();
        ids.dedup();
        let rows = Rows::new(&ids);
        PoolRows { ids, rows }
    }

    /// The row of player `id`, if in the pool.
    pub(crate) fn row(&self, id: PlayerId) -> Option<usize> {
        self.rows.of(id)
    }
}

/// [`round_points`] as one flat table: `rounds` values for each row of `pool`.
pub(crate) fn round_points_table(
    event: &Event,
    scoring: &Scoring,
    group: &GroupId,
    pool: &PoolRows,
    rounds: u32,
) -> Vec<Points> {
    let width = rounds as usize;
    let mut table = vec![Points(0); pool.ids.len() * width];
    if let Some(state) = event.group(group) {
        for round in state.rounds.iter().filter(|r| r.number <= rounds) {
            let k = (round.number - 1) as usize;
            for pairing in &round.pairings {
                for id in pairing.players() {
                    if let Some(points) = pairing_points(pairing, id, scoring)
                        && let Some(row) = pool.row(id)
                    {
                        table[row * width + k] = points;
                    }
                }
            }
        }
    }
    table
}

/// The row of each player id in a sorted list of distinct ids: an array indexed by the id
/// when the ids are about as many as the largest (as the ids an event hands out are),
/// else a binary search.
pub(crate) enum Rows {
    Dense(Vec<u32>),
    Sorted(Vec<PlayerId>),
}

impl Rows {
    pub(crate) fn new(ids: &[PlayerId]) -> Rows {
        let largest = ids.last().map_or(0, |id| id.0 as usize);
        if largest > 4 * ids.len() + 1024 {
            return Rows::Sorted(ids.to_vec());
        }
        let mut rows = vec![u32::MAX; largest + 1];
        for (row, id) in ids.iter().enumerate() {
            // At most 4 × ids.len() + 1024 ids, so the row fits.
            rows[id.0 as usize] = u32::try_from(row).unwrap_or(u32::MAX);
        }
        Rows::Dense(rows)
    }

    pub(crate) fn of(&self, id: PlayerId) -> Option<usize> {
        match self {
            Rows::Dense(rows) => rows
                .get(id.0 as usize)
                .filter(|&&row| row != u32::MAX)
                .map(|&row| row as usize),
            Rows::Sorted(ids) => ids.binary_search(&id).ok(),
        }
    }
}

/// The event's penalties by player. A pool's standings look up every player's penalties
/// once per round: scanning the event's whole list each time made 20,000 penalties on a
/// 100,000-player event cost minutes of CPU.
pub struct Penalties(HashMap<PlayerId, Vec<(u32, Points)>>);

impl Penalties {
    /// Indexes `event`'s penalties.
    pub fn of(event: &Event) -> Penalties {
        let mut by_player: HashMap<PlayerId, Vec<(u32, Points)>> = HashMap::new();
        for p in &event.penalties {
            by_player
                .entry(p.player)
                .or_default()
                .push((p.after_round, p.points));
        }
        Penalties(by_player)
    }

    /// Points deducted from `player` by penalties given up to and including
    /// `after_round`.
    pub fn total(&self, player: PlayerId, after_round: u32) -> Points {
        self.0.get(&player).map_or(Points(0), |given| {
            given
                .iter()
                .filter(|(round, _)| *round <= after_round)
                .map(|(_, points)| *points)
                .sum()
        })
    }
}

/// Each player's total after `rounds` rounds, penalties deducted: the 积分 standings
/// show and pairing groups by (the same number in both, floor included).
pub fn totals(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    rounds: u32,
) -> BTreeMap<PlayerId, Points> {
    totals_of(
        &rules.conduct,
        &Penalties::of(event),
        &round_points(event, &rules.scoring, group, rounds),
        rounds,
    )
}

/// [`totals`] from the pool's [`round_points`] when the caller has them already. With
/// `conduct.penalty_below_zero = false` a penalty takes a total down to 0, no lower.
pub fn totals_of(
    conduct: &Conduct,
    penalties: &Penalties,
    round_points: &BTreeMap<PlayerId, Vec<Points>>,
    rounds: u32,
) -> BTreeMap<PlayerId, Points> {
    round_points
        .iter()
        .map(|(&id, pts)| (id, total(conduct, penalties, id, pts, rounds)))
        .collect()
}

/// Player `id`'s total after round `after` from the points of their rounds up to it
/// (`points`), the penalties given up to then deducted and floored as
/// [`floored`] says: the one sum behind [`totals`] and the pairing history's scores.
pub(crate) fn total(
    conduct: &Conduct,
    penalties: &Penalties,
    id: PlayerId,
    points: &[Points],
    after: u32,
) -> Points {
    let sum: Points = points.iter().copied().sum();
    floored(conduct, sum - penalties.total(id, after))
}

/// A penalised total as the rulebook counts it: below zero only if
/// `conduct.penalty_below_zero` allows it.
pub fn floored(conduct: &Conduct, total: Points) -> Points {
    if conduct.penalty_below_zero {
        total
    } else {
        total.max(Points(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player's penalties count from the round they were given in, and only theirs.
    #[test]
    fn penalties_count_per_player_up_to_the_round() {
        let mut event = Event::new(String::new());
        for (player, points, after_round) in [(1, 1, 0), (2, 5, 1), (1, 2, 2), (1, 4, 3)] {
            event.penalties.push(crate::model::Penalty {
                player: PlayerId(player),
                points: Points(points),
                reason: String::new(),
                after_round,
                paired_round: 0,
            });
        }
        let penalties = Penalties::of(&event);
        let one: Vec<i32> = (0..=4).map(|r| penalties.total(PlayerId(1), r).0).collect();
        assert_eq!(one, [1, 1, 3, 7, 7]);
        assert_eq!(penalties.total(PlayerId(2), 0), Points(0));
        assert_eq!(penalties.total(PlayerId(2), 1), Points(5));
        assert_eq!(penalties.total(PlayerId(3), 9), Points(0));
    }

    /// The flat table gives what a lookup in the map per game gave, for ids an event hands
    /// out (dense) and for ids far apart (searched), every round count from 0 to past the
    /// last round.
    #[test]
    fn round_points_reads_as_a_lookup_per_game() {
        let sim = crate::pairing::testing::synthetic_mid_event(37, 4, 5, 11);
        let (scoring, group) = (&sim.rules.scoring, &sim.group);
        let mut sparse = sim.event.clone();
        let far = |id: PlayerId| PlayerId(id.0 * 1000 + 7);
        for p in &mut sparse.players {
            p.id = far(p.id);
        }
        for round in &mut sparse.group_mut(group).rounds {
            for pairing in &mut round.pairings {
                match pairing {
                    Pairing::Game { red, black, .. } => (*red, *black) = (far(*red), far(*black)),
                    Pairing::Bye { player } => *player = far(*player),
                }
            }
        }
        for event in [&sim.event, &sparse] {
            for rounds in 0..=6 {
                let mut want: BTreeMap<PlayerId, Vec<Points>> = event
                    .players_in(group)
                    .map(|p| (p.id, vec![Points(0); rounds as usize]))
                    .collect();
                for round in &event.group(group).unwrap().rounds {
                    if round.number > rounds {
                        continue;
                    }
                    for pairing in &round.pairings {
                        for id in pairing.players() {
                            if let Some(points) = pairing_points(pairing, id, scoring)
                                && let Some(row) = want.get_mut(&id)
                            {
                                row[(round.number - 1) as usize] = points;
                            }
                        }
                    }
                }
                assert_eq!(
                    round_points(event, scoring, group, rounds),
                    want,
                    "{rounds}"
                );
            }
        }
    }

    #[test]
    fn default_scoring_is_two_one_zero() {
        let s = Scoring::default();
        let cases = [
            (Outcome::RedWin, 2, 0),
            (Outcome::Draw, 1, 1),
            (Outcome::BlackWin, 0, 2),
            (Outcome::BlackForfeit, 2, 0),
            (Outcome::RedForfeit, 0, 2),
            (Outcome::DoubleForfeit, 0, 0),
        ];
        for (outcome, red, black) in cases {
            let r = GameResult::new(outcome);
            assert_eq!(
                game_points(&r, Colour::Red, &s),
                Points(red),
                "{outcome:?} red"
            );
            assert_eq!(
                game_points(&r, Colour::Black, &s),
                Points(black),
                "{outcome:?} black"
            );
        }
    }

    #[test]
    fn colour_dependent_draw_cxa_13_3() {
        // §13.3 example: win 3, loss 0, red draw 1, black draw 2.
        let s = Scoring {
            red_win: Points(3),
            red_draw: Points(1),
            black_win: Points(3),
            black_draw: Points(2),
            ..Scoring::default()
        };
        let r = GameResult::new(Outcome::Draw);
        assert_eq!(game_points(&r, Colour::Red, &s), Points(1));
        assert_eq!(game_points(&r, Colour::Black, &s), Points(2));
    }
}
