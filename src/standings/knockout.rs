//! A knockout pool's standings (docs/rules.md §16.4): places from the bracket, not from
//! points — the champion, the final's loser, the third-place match or a shared third,
//! then each earlier round's losers sharing the places below. The points column is the
//! game points each player scored over the knockout, for information (a final stage's
//! finalists keep their Swiss points).

use super::values::withdrawn_after;
use super::{StandingRow, Standings};
use crate::model::{Event, GroupId, PlayerId, Points};
use crate::rulebook::Rulebook;
use crate::schedule::bracket;
use std::collections::BTreeMap;

/// The finalists of a pool's final stage in seed order: the first `finalists` of the
/// Swiss ranking after round `swiss` who can still play (one withdrawn or disqualified
/// before the final leaves the place to the next: docs/rules.md §16.6). `Err` with the
/// tied players when a tie left after every key straddles the line and no playoff has
/// ordered it.
pub fn finalists(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    swiss: u32,
) -> Result<Vec<PlayerId>, Vec<PlayerId>> {
    let finalists = rules.final_stage(group).map_or(0, |f| f.finalists);
    let n = finalists as usize;
    let st = super::compute_standings(event, rules, group, Some(swiss));
    let can_play = |id: PlayerId| event.player(id).is_some_and(|p| p.pairable_in(swiss + 1));
    let ranked: Vec<&StandingRow> = st
        .rows
        .iter()
        .filter(|r| r.rank.is_some() && can_play(r.player))
        .collect();
    if let (Some(last_in), Some(first_out)) = (ranked.get(n.wrapping_sub(1)), ranked.get(n))
        && last_in.rank == first_out.rank
    {
        return Err(ranked
            .iter()
            .filter(|r| r.rank == last_in.rank)
            .map(|r| r.player)
            .collect());
    }
    Ok(ranked.iter().take(n).map(|r| r.player).collect())
}

/// How the Swiss ranking of a final stage that has begun now differs from its stored
/// finalists (docs/rules.md §16.6): a correction of a Swiss result may move a player
/// across the line, but the finalists stay frozen. `None` before the stage began or when
/// the line still falls where it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QualificationDrift {
    /// The number of finalists (the line).
    pub finalists: u32,
    /// Players the Swiss ranking now puts within the first `finalists` (or tied across
    /// the line) who are not finalists.
    pub now_in: Vec<PlayerId>,
    /// Finalists the Swiss ranking now puts below the line.
    pub now_out: Vec<PlayerId>,
}

/// The [`QualificationDrift`] of `group`, if its final stage has begun and the Swiss
/// ranking after its last Swiss round no longer puts exactly its finalists above the line.
/// A finalist who withdrew after the stage began still counts as ranked where the Swiss
/// puts them.
pub fn qualification_drift(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
) -> Option<QualificationDrift> {
    let swiss = rules.stage_after(group)?;
    if !bracket::stage_started(event, rules, group) {
        return None;
    }
    let stored = &event.group(group)?.stage_seeds;
    let finalists = rules.final_stage(group).map_or(0, |f| f.finalists);
    let n = finalists as usize;
    let st = super::compute_standings(event, rules, group, Some(swiss));
    let counted = |id: PlayerId| {
        stored.contains(&id) || event.player(id).is_some_and(|p| p.pairable_in(swiss + 1))
    };
    let ranked: Vec<&StandingRow> = st
        .rows
        .iter()
        .filter(|r| r.rank.is_some() && counted(r.player))
        .collect();
    // The rank at the line: everyone ranked at it or above would qualify (a tie across
    // the line is named among them; a playoff would decide it).
    let line = ranked.get(n.wrapping_sub(1)).and_then(|r| r.rank)?;
    let above = |r: &StandingRow| r.rank.is_some_and(|k| k <= line);
    let now_in: Vec<PlayerId> = ranked
        .iter()
        .filter(|r| above(r) && !stored.contains(&r.player))
        .map(|r| r.player)
        .collect();
    let now_out: Vec<PlayerId> = ranked
        .iter()
        .filter(|r| !above(r) && stored.contains(&r.player))
        .map(|r| r.player)
        .collect();
    (!now_in.is_empty() || !now_out.is_empty()).then_some(QualificationDrift {
        finalists,
        now_in,
        now_out,
    })
}

/// The standings of a pool with a final stage after round `n`, once the stage has begun:
/// the finalists placed by the bracket, everyone else keeping their Swiss place below
/// them (docs/rules.md §16.6).
pub(super) fn stage_standings(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    swiss: u32,
    n: u32,
) -> Standings {
    let finals = standings(event, rules, group, n);
    let in_final: BTreeMap<PlayerId, ()> = event
        .group(group)
        .map(|g| g.stage_seeds.iter().map(|p| (*p, ())).collect())
        .unwrap_or_default();
    let swiss_st = super::rank::swiss_part(event, rules, group, swiss);
    let rows = finals
        .rows
        .into_iter()
        .filter(|r| in_final.contains_key(&r.player))
        .collect();
    super::stage::finalists_above(swiss_st, rows, finals.open_tables, group, n)
}

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
