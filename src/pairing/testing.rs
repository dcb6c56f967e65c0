//! What the integration tests and the pairing benchmark need from the engine's inside,
//! and nothing more: the seeded random-tournament generator and one probe of a single
//! criterion. Compiled with the `testing` cargo feature (and in the crate's own unit
//! tests). The feature is on by default so that `cargo test` and `cargo bench` have it
//! without a flag (Cargo.toml says why not through a dev-dependency on the crate itself);
//! the binary never calls it, and the module is hidden from the library's documentation:
//! it is no API.
//!
//! The engine's modules (`engine`, `blossom`, `wide`, `context`, `simulate`, `feasible`)
//! stay private to the crate; a test that needs more than this reaches it through a
//! function here that says what it is for, not by opening a module.

pub use super::simulate::{
    Paired, SimConfig, SimulatedEvent, play_random_event, play_random_event_watched,
    synthetic_mid_event,
};

pub use super::blossom::refused_solves;

use super::engine::{self, Field, Solver};
use super::{History, pairing_input};
use crate::model::{Event, GroupId, PlayerId};
use crate::rulebook::Rulebook;
use std::collections::BTreeMap;

/// The tables (by player id, in the solver's order) the dense reference solver gives
/// round `next` of `group` when every player's previous float is forgotten, so that
/// criterion (d) of docs/rules.md §2.3 (no float the same way twice) weighs nothing:
/// a test compares it with the real pairing to show that criterion decided the round.
/// `None` when that field has no legal pairing. Players keep the numbers they have.
pub fn pair_forgetting_floats(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    next: u32,
) -> Option<Vec<(PlayerId, PlayerId)>> {
    let history = History::build(event, rules, group, next, &BTreeMap::new());
    let pairable: Vec<_> = event
        .players_in(group)
        .filter(|p| p.pairable_in(next))
        .collect();
    let (mut states, ctx) = pairing_input(&pairable, rules, group, next, &history);
    for state in &mut states {
        state.last_float = None;
    }
    let field = Field::new(ctx, states);
    let m = engine::pair_field(&field, Solver::Dense).ok()?;
    Some(
        m.pairs
            .iter()
            .map(|&(a, b)| (field.players[a].id, field.players[b].id))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With floats forgotten the probe pairs exactly as the engine's dense solver does on
    /// an event where nobody has floated yet (round 2: round 1 paired equal scores only):
    /// forgetting changes nothing there, so the probe adds nothing of its own.
    #[test]
    fn forgetting_floats_changes_nothing_before_anyone_floated() {
        let sim = synthetic_mid_event(12, 1, 5, 3);
        let (event, rules, group) = (&sim.event, &sim.rules, &sim.group);
        let history = History::build(event, rules, group, 2, &BTreeMap::new());
        let floated = history.players.values().any(|p| p.last_float.is_some());
        let probe = pair_forgetting_floats(event, rules, group, 2).expect("pairable");
        let plan = super::super::pair_next_round_with(event, rules, group, 0, Solver::Dense)
            .expect("pairable");
        let games: Vec<(PlayerId, PlayerId)> = plan
            .round
            .pairings
            .iter()
            .filter_map(|p| match p {
                crate::model::Pairing::Game { red, black, .. } => Some((*red, *black)),
                crate::model::Pairing::Bye { .. } => None,
            })
            .collect();
        let same = |a: &(PlayerId, PlayerId)| games.contains(a) || games.contains(&(a.1, a.0));
        assert!(!floated, "round 1 pairs equal scores only: nobody floats");
        assert_eq!(probe.len(), games.len());
        assert!(probe.iter().all(same), "{probe:?} against {games:?}");
    }
}
