//! A knockout pool's standings (docs/rules.md §16.4): places from the bracket, not from
//! points — the champion, the final's loser, the third-place match or a shared third,
//! then each earlier round's losers sharing the places below. The points column is the
//! game points each player scored over the knockout, for information.

use super::values::withdrawn_after;
use super::{StandingRow, Standings};
use crate::model::{Event, GroupId, PlayerId, Points};
use crate::rulebook::Rulebook;
use crate::schedule::bracket;
use std::collections::BTreeMap;

/// The standings of knockout pool `group` after round `n` (its rounds up to `n` only).
pub(super) fn standings(event: &Event, rules: &Rulebook, group: &GroupId, n: u32) -> Standings {
    // The bracket as it stood after round n.
    let mut upto;
    let event = match event.group(group) {
        Some(state) if state.rounds.iter().any(|r| r.number > n) => {
            upto = event.clone();
            upto.group_mut(group).rounds.retain(|r| r.number <= n);
            &upto
        }
        _ => event,
    };
    let b = bracket::build(event, rules, group);
    let points = crate::scoring::round_points(event, &rules.scoring, group, n);
    let score = |id: PlayerId| -> Points { points.get(&id).into_iter().flatten().copied().sum() };
    let placed = bracket::places(&b);
    let mut rows: Vec<StandingRow> = placed
        .iter()
        .map(|&(player, place, shared)| StandingRow {
            player,
            rank: Some(place),
            shared,
            score: score(player),
            penalty: Points(0),
            tiebreaks: Vec::new(),
            needs_playoff: false,
            decided_by: None,
            withdrawn: event.player(player).is_some_and(|p| withdrawn_after(p, n)),
        })
        .collect();
    // Players of the pool not in the bracket (registered after the draw): no place.
    let seen: BTreeMap<PlayerId, ()> = rows.iter().map(|r| (r.player, ())).collect();
    for p in event
        .players_in(group)
        .filter(|p| !seen.contains_key(&p.id))
    {
        rows.push(StandingRow {
            player: p.id,
            rank: None,
            shared: false,
            score: score(p.id),
            penalty: Points(0),
            tiebreaks: Vec::new(),
            needs_playoff: false,
            decided_by: None,
            withdrawn: withdrawn_after(p, n),
        });
    }
    Standings {
        group: group.clone(),
        after_round: n,
        open_tables: event.group(group).map_or(0, |g| g.open_games(n)),
        tiebreaks: Vec::new(),
        rows,
    }
}
