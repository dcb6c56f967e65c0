//! A Swiss pool's round-robin final stage (前六名单循环, docs/rules.md §16.7): its field
//! (the finalists, numbered 1..N by their Swiss places when the stage began), its rounds,
//! and the pool as the stage's ranking reads it.
//!
//! Owns the stage's view of the pool: which Swiss games it carries (`carried_results`),
//! whose stage games a withdrawal annuls (`withdrawn_results`), and the rulebook it is
//! ranked by (the round-robin chain). Pairing, standings and the square table all read the
//! stage through these functions. Pure: never files, the clock or a random number.

use crate::formats::round_robin::rounds_per_cycle;
use crate::model::{Event, GroupId, Pairing, PlayerId, PlayerStatus};
use crate::rulebook::{
    CarriedResults, Fallback, FinalStage, GroupFormat, Rulebook, WithdrawnResults,
};

/// The finalists of a round-robin stage in number order (index 0 is number 1), once its
/// first round is paired; `None` before.
pub fn stage_field(event: &Event, rules: &Rulebook, group: &GroupId) -> Option<Vec<PlayerId>> {
    if !super::bracket::stage_started(event, rules, group) {
        return None;
    }
    event.group(group).map(|g| g.stage_seeds.clone())
}

/// Rounds the round-robin stage of `group` plays: its cycles times one cycle of its field
/// (the finalists drawn, or `finalists` before the stage began).
pub fn stage_rounds(event: &Event, rules: &Rulebook, group: &GroupId, stage: FinalStage) -> u32 {
    let n = stage_field(event, rules, group).map_or(stage.finalists, |f| {
        u32::try_from(f.len()).unwrap_or(u32::MAX)
    });
    rounds_per_cycle(n).saturating_mul(stage.cycles)
}

/// The finalists whose stage games count for nobody: withdrawn or disqualified finalists
/// under `withdrawn_results = "annul"`, or under `"half_rule"` those who played fewer than
/// half of their scheduled stage games over the board (as in a round-robin group, §14.4).
pub fn annulled_finalists(event: &Event, rules: &Rulebook, group: &GroupId) -> Vec<PlayerId> {
    let (Some(stage), Some(swiss), Some(field)) = (
        rules.round_robin_stage(group),
        rules.stage_after(group),
        stage_field(event, rules, group),
    ) else {
        return Vec::new();
    };
    let rule = rules.format_of(group).withdrawn_results;
    if rule == WithdrawnResults::Keep {
        return Vec::new();
    }
    let Some(state) = event.group(group) else {
        return Vec::new();
    };
    let n = u64::try_from(field.len()).unwrap_or(u64::MAX);
    let scheduled = n.saturating_sub(1) * u64::from(stage.cycles);
    field
        .iter()
        .copied()
        .filter(|id| {
            event
                .player(*id)
                .is_some_and(|p| !matches!(p.status, PlayerStatus::Active))
        })
        .filter(|id| {
            rule == WithdrawnResults::Annul || {
                let played = state
                    .rounds
                    .iter()
                    .filter(|r| r.number > swiss)
                    .flat_map(|r| &r.pairings)
                    .filter(|g| match g {
                        Pairing::Game {
                            result: Some(r), ..
                        } => g.involves(*id) && r.outcome.is_played(),
                        _ => false,
                    })
                    .count() as u64;
                2 * played < scheduled
            }
        })
        .collect()
}

/// The pool as its round-robin stage is ranked (`None` before the stage began): the Swiss
/// rounds keep only the games `carried_results` carries (none, those between two
/// finalists, or all), the stage's rounds keep every game but an annulled finalist's, the
/// finalists carry their stage numbers 1..N and everyone else is unranked. The rulebook
/// ranks it as a Swiss pool of all those rounds by the round-robin chain (相互间成绩, 胜局,
/// 后胜局, 小分; no fallback), so a carried game counts exactly as a game of the final.
pub fn ranking_view(event: &Event, rules: &Rulebook, group: &GroupId) -> Option<(Event, Rulebook)> {
    let stage = rules.round_robin_stage(group)?;
    let swiss = rules.stage_after(group)?;
    let field = stage_field(event, rules, group)?;
    let annulled = annulled_finalists(event, rules, group);
    let finalist = |id: &PlayerId| field.contains(id);
    let mut view = event.clone();
    if let Some(state) = view.groups.get_mut(group) {
        for round in &mut state.rounds {
            let carried = round.number <= swiss;
            round
                .pairings
                .retain(|p| match (carried, stage.carried, p) {
                    (false, _, Pairing::Game { red, black, .. }) => {
                        !annulled.contains(red) && !annulled.contains(black)
                    }
                    // An annulled finalist's stage byes go with the games (§14.4).
                    (false, _, Pairing::Bye { player }) => !annulled.contains(player),
                    (true, CarriedResults::All, _) => true,
                    (true, CarriedResults::None, _)
                    | (true, CarriedResults::Finalists, Pairing::Bye { .. }) => false,
                    (true, CarriedResults::Finalists, Pairing::Game { red, black, .. }) => {
                        finalist(red)
                            && finalist(black)
                            && !annulled.contains(red)
                            && !annulled.contains(black)
                    }
                });
        }
        state.stage_seeds.clear();
    }
    if stage.carried != CarriedResults::All {
        let in_pool: Vec<PlayerId> = event.players_in(group).map(|p| p.id).collect();
        view.penalties
            .retain(|p| p.after_round > swiss || !in_pool.contains(&p.player));
    }
    for p in view.players.iter_mut().filter(|p| &p.group == group) {
        match field.iter().position(|id| *id == p.id) {
            Some(i) => p.number = u32::try_from(i + 1).ok(),
            None => p.unranked = true,
        }
    }
    let mut ranked = rules.clone();
    let rounds = swiss.saturating_add(stage_rounds(event, rules, group, stage));
    if let Some(g) = ranked.groups.iter_mut().find(|g| &g.id == group) {
        g.rounds = Some(rounds);
        g.format = GroupFormat {
            tiebreaks: Some(GroupFormat::round_robin_tiebreaks()),
            fallback: Some(Fallback::None),
            ..GroupFormat::swiss()
        };
    }
    Some((view, ranked))
}
