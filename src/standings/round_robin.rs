//! What a round robin changes in the standings (docs/rules.md §14.3–§14.4): the group's
//! own ranking chain (相互间成绩, 胜局, 后胜局, 小分 unless it writes its own), and the
//! withdrawal rule that annuls a withdrawn player's games when fewer than half of their
//! schedule was played (`withdrawn_results`).
//!
//! Owns only the two substitutions: the rulebook a pool is ranked by and the event its
//! games are read from. Every value is then computed by the same code as a Swiss pool's.

use crate::model::{Event, GroupId, Pairing, PlayerId, PlayerStatus};
use crate::rulebook::{Rulebook, WithdrawnResults};
use crate::schedule::round_robin_size;
use std::borrow::Cow;

/// The rulebook pool `group` is ranked by: the rulebook itself, or a copy whose
/// `ranking.tiebreaks` and `ranking.fallback` are the group's (a round robin's defaults,
/// or the keys the group writes).
pub fn ranking_rules<'a>(rules: &'a Rulebook, group: &GroupId) -> Cow<'a, Rulebook> {
    let Some(rule) = rules.group(group) else {
        return Cow::Borrowed(rules);
    };
    let f = &rule.format;
    let tiebreaks = f.tiebreaks_or(&rules.ranking.tiebreaks);
    let fallback = f.fallback_or(rules.ranking.fallback);
    if *tiebreaks == rules.ranking.tiebreaks[..] && fallback == rules.ranking.fallback {
        return Cow::Borrowed(rules);
    }
    let mut own = rules.clone();
    own.ranking.tiebreaks = tiebreaks.into_owned();
    own.ranking.fallback = fallback;
    Cow::Owned(own)
}

/// The players of a round-robin pool whose games are annulled: withdrawn or disqualified
/// players under `withdrawn_results = "annul"`, or under `"half_rule"` (the default)
/// those who played fewer than half of their scheduled games over the board (CXA 1999
/// 裁判细则 §20.3, docs/rules.md §0 S6). Empty for a Swiss pool.
pub fn annulled_players(event: &Event, rules: &Rulebook, group: &GroupId) -> Vec<PlayerId> {
    let Some(rule) = rules.group(group).filter(|g| g.format.is_round_robin()) else {
        return Vec::new();
    };
    let f = &rule.format;
    if f.withdrawn_results == WithdrawnResults::Keep {
        return Vec::new();
    }
    let Some(state) = event.group(group) else {
        return Vec::new();
    };
    let n = round_robin_size(event, group);
    // Every player meets the other n − 1 once per cycle (a bye is no game).
    let scheduled = u64::from(n.saturating_sub(1)) * u64::from(f.cycles);
    event
        .players_in(group)
        .filter(|p| !matches!(p.status, PlayerStatus::Active))
        .filter(|p| {
            f.withdrawn_results == WithdrawnResults::Annul || {
                let played = state
                    .rounds
                    .iter()
                    .flat_map(|r| &r.pairings)
                    .filter(|g| match g {
                        Pairing::Game {
                            result: Some(r), ..
                        } => g.involves(p.id) && r.outcome.is_played(),
                        _ => false,
                    })
                    .count() as u64;
                2 * played < scheduled
            }
        })
        .map(|p| p.id)
        .collect()
}

/// The event as pool `group`'s standings read it: the event itself, or (when a
/// round-robin player's games are annulled) a copy whose rounds of this pool leave out
/// every game and bye of the annulled players, so they count for nobody (docs/rules.md
/// §14.4: as if the player had never entered).
pub fn ranked_event<'a>(event: &'a Event, rules: &Rulebook, group: &GroupId) -> Cow<'a, Event> {
    let annulled = annulled_players(event, rules, group);
    if annulled.is_empty() {
        return Cow::Borrowed(event);
    }
    let mut own = event.clone();
    if let Some(state) = own.groups.get_mut(group) {
        for round in &mut state.rounds {
            round.pairings.retain(|p| match p {
                Pairing::Game { red, black, .. } => {
                    !annulled.contains(red) && !annulled.contains(black)
                }
                // An annulled player is as if never entered: no bye of theirs either.
                Pairing::Bye { player } => !annulled.contains(player),
            });
        }
    }
    Cow::Owned(own)
}
