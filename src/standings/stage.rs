//! The standings of a pool whose round-robin final stage has begun (前六名单循环,
//! docs/rules.md §16.7): the finalists placed by the stage's own ranking (its games and
//! the Swiss games `carried_results` carries, by the round-robin chain), everyone else
//! keeping their Swiss place below them; and the stage's own square table.
//!
//! Owns only the assembly: the stage's pool is `schedule::stage::ranking_view`, ranked by
//! the same code as every other pool.

use super::{Crosstable, StandingRow, Standings, compute_standings, crosstable_of};
use crate::model::{Event, GroupId, PlayerId, Points};
use crate::rulebook::Rulebook;
use crate::schedule::stage::{ranking_view, stage_field};
use std::collections::BTreeMap;

/// The ranking of the round-robin stage of `group` alone after round `n` (the finalists,
/// scores and tiebreaks as the stage counts them), with the view it was computed on;
/// `None` before the stage began.
fn stage_ranking(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    n: u32,
) -> Option<(Event, Rulebook, Standings)> {
    let (view, ranked) = ranking_view(event, rules, group)?;
    let field = stage_field(event, rules, group)?;
    let mut st = compute_standings(&view, &ranked, group, Some(n));
    st.rows.retain(|r| field.contains(&r.player));
    Some((view, ranked, st))
}

/// The 积分 a round's sheet shows for each player before `round` of `pool`: in a round of
/// a round-robin final stage the stage's own points (its games, what `carried_results`
/// carries, annulled games left out), in every other round the pool's totals as its
/// standings count them (a round robin's annulled games and byes left out).
pub fn scores_before(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
) -> BTreeMap<PlayerId, Points> {
    let before = round.saturating_sub(1);
    if rules
        .round_robin_stage_after(pool)
        .is_some_and(|swiss| round > swiss)
        && let Some((_, _, st)) = stage_ranking(event, rules, pool, before)
    {
        return st.rows.iter().map(|r| (r.player, r.score)).collect();
    }
    // A round robin's annulled games and byes count for nobody, as in its standings
    // (docs/rules.md §14.4).
    let event = super::ranked_event(event, rules, pool);
    crate::scoring::totals(&event, rules, pool, before)
}

/// The standings of a pool with a round-robin stage after round `n` (> `swiss`), once the
/// stage has begun: the finalists by the stage's ranking, with their Swiss 积分 (the final
/// decides the place, not the points, as for a knockout stage), then the others by the
/// Swiss ranking.
pub(super) fn stage_standings(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    swiss: u32,
    n: u32,
) -> Standings {
    let swiss_st = super::rank::swiss_part(event, rules, group, swiss);
    let Some((_, _, finals)) = stage_ranking(event, rules, group, n) else {
        return swiss_st;
    };
    let open_tables = finals.open_tables;
    finalists_above(swiss_st, finals.rows, open_tables, group, n)
}

/// A pool's standings once its final stage (knockout or round robin) began: `finals`, the
/// finalists in the order the stage places them, above everyone else in their Swiss order.
/// A finalist keeps the Swiss 积分 and no tiebreak value: the final decides the place, not
/// the points (docs/rules.md §16.6, §16.7). Its penalty column is the Swiss one, the
/// penalties that 积分 has deducted (§5.3: 积分 is S_n minus recorded penalties), in both
/// kinds of stage.
pub(super) fn finalists_above(
    swiss: Standings,
    finals: Vec<StandingRow>,
    open_tables: u32,
    group: &GroupId,
    n: u32,
) -> Standings {
    let width = swiss.tiebreaks.len();
    let swiss_totals: BTreeMap<PlayerId, (Points, Points)> = swiss
        .rows
        .iter()
        .map(|r| (r.player, (r.score, r.penalty)))
        .collect();
    let in_final: BTreeMap<PlayerId, ()> = finals.iter().map(|r| (r.player, ())).collect();
    let taken = u32::try_from(finals.len()).unwrap_or(u32::MAX);
    let mut rows: Vec<StandingRow> = finals
        .into_iter()
        .map(|mut r| {
            r.tiebreaks = vec![None; width];
            (r.score, r.penalty) = swiss_totals
                .get(&r.player)
                .copied()
                .unwrap_or((r.score, r.penalty));
            r
        })
        .collect();
    // The others take the places after the finalists' in their Swiss order, ties kept:
    // a Swiss result corrected after the stage began can leave their Swiss places
    // overlapping the finalists' (a finalist fallen below the line stays a finalist).
    let mut rest: Vec<StandingRow> = swiss
        .rows
        .into_iter()
        .filter(|r| !in_final.contains_key(&r.player))
        .collect();
    let (mut ranked, mut previous) = (0u32, None::<(u32, u32)>);
    for r in &mut rest {
        let Some(swiss_rank) = r.rank else { continue };
        let place = match previous {
            Some((p, place)) if p == swiss_rank => place,
            _ => taken + ranked + 1,
        };
        previous = Some((swiss_rank, place));
        r.rank = Some(place);
        ranked += 1;
    }
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for place in rest.iter().filter_map(|r| r.rank) {
        *count.entry(place).or_default() += 1;
    }
    for r in &mut rest {
        r.shared = r.rank.is_some_and(|p| count[&p] > 1);
    }
    rows.extend(rest);
    Standings {
        group: group.clone(),
        after_round: n,
        open_tables,
        tiebreaks: swiss.tiebreaks,
        rows,
    }
}

/// The round-robin stage of `group` after round `after_round` (default as in
/// [`compute_standings`]) as its own table: its standings (the finalists, with the points
/// and tiebreaks the stage counts, carried games included) and its crosstable, the
/// finalists numbered 1..N; `None` before the stage began.
pub fn stage_table(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    after_round: Option<u32>,
) -> Option<(Standings, Crosstable)> {
    let n = super::rank::resolve_round(event, group, after_round);
    let (view, ranked, st) = stage_ranking(event, rules, group, n)?;
    let table = crosstable_of(&view, &ranked, &st);
    Some((st, table))
}
