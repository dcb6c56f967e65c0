//! How many rounds a pool plays and, for a round robin, which Berger-table round each
//! round is (docs/rules.md §14); for a knockout, its bracket ([`bracket`], §16).
//!
//! Owns the link between a pool's players and the schedule `formats::round_robin` makes
//! for numbers 1..=n: who the n players are (their pairing numbers, given before round 1)
//! and what a table round is in players. A Swiss pool's rounds are the rulebook's. Pure:
//! reads the event and the rulebook, never files or a random number.

pub mod bracket;
pub mod stage;

use crate::formats::round_robin::{Board, berger_round, rounds_per_cycle};
use crate::model::{Event, GroupId, PlayerId};
use crate::rulebook::Rulebook;

/// One table of a round-robin round in players: a game (red first) or a bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableBoard {
    /// The players at a table, red (先走) first.
    Game {
        /// The player with red.
        red: PlayerId,
        /// The player with black.
        black: PlayerId,
    },
    /// The player with no opponent this round (odd field).
    Bye(PlayerId),
}

/// The players of a round robin, by pairing number (index 0 is number 1): once round 1 is
/// paired, the players it holds; before it, `None` (their numbers are not given yet).
pub fn round_robin_field(event: &Event, group: &GroupId) -> Option<Vec<PlayerId>> {
    let first = event.group(group)?.round(1)?;
    let mut field: Vec<(u32, PlayerId)> = first
        .pairings
        .iter()
        .flat_map(crate::model::Pairing::players)
        .map(|id| {
            (
                event.player(id).and_then(|p| p.number).unwrap_or(u32::MAX),
                id,
            )
        })
        .collect();
    field.sort_unstable();
    Some(field.into_iter().map(|(_, id)| id).collect())
}

/// The size of a round robin's field: round 1's players once it is paired, else the
/// players who can play round 1.
pub fn round_robin_size(event: &Event, group: &GroupId) -> u32 {
    match round_robin_field(event, group) {
        Some(field) => u32::try_from(field.len()).unwrap_or(u32::MAX),
        None => u32::try_from(event.players_in(group).filter(|p| p.pairable_in(1)).count())
            .unwrap_or(u32::MAX),
    }
}

/// Rounds pool `group` plays: a round robin's cycles times the rounds of one cycle of its
/// field (n − 1 for even n, n for odd), a Swiss pool's `rounds` (and its final stage's).
pub fn rounds_of(event: &Event, rules: &Rulebook, group: &GroupId) -> u32 {
    let format = rules.format_of(group);
    if format.plays_knockout() {
        return bracket::rounds_estimate(event, rules, group);
    }
    if let Some(s) = rules.round_robin_stage(group) {
        return rules
            .rounds_for(group)
            .saturating_add(stage::stage_rounds(event, rules, group, s));
    }
    if format.is_round_robin() {
        rounds_per_cycle(round_robin_size(event, group)).saturating_mul(format.cycles)
    } else {
        rules.rounds_for(group)
    }
}

/// Round `round` of a round robin as the tables print it, the players put in by their
/// numbers (`field[k − 1]` is number k). `None` outside the schedule.
pub fn table_round(field: &[PlayerId], cycles: u32, round: u32) -> Option<Vec<TableBoard>> {
    let n = u32::try_from(field.len()).ok()?;
    let player = |k: u32| field[(k - 1) as usize];
    let boards = berger_round(n, cycles, round)?;
    Some(
        boards
            .into_iter()
            .map(|b| match b {
                Board::Game { red, black } => TableBoard::Game {
                    red: player(red),
                    black: player(black),
                },
                Board::Bye(k) => TableBoard::Bye(player(k)),
            })
            .collect(),
    )
}

/// The Berger-table round `round` is in its cycle (1-based) and the cycle (1-based).
pub fn table_round_number(players: u32, round: u32) -> (u32, u32) {
    let per = rounds_per_cycle(players).max(1);
    let r = round.saturating_sub(1);
    (r % per + 1, r / per + 1)
}
