//! Which players a prize list or team competition ranks: the pool whose standings it
//! uses (the group itself, the pool of a section, or the target of a merge) and the
//! section labels and merged-in players that narrow it.

use super::ListRow;
use super::list::list_rows_excluding;
use super::sheet::prize_sheet;
use super::teams::TeamRanking;
use crate::model::{Event, GroupId, PlayerId};
use crate::registration::groups::section_labels;
use crate::rulebook::{MultiplePrizes, PrizeList, Rulebook};
use crate::standings::Standings;
use std::collections::{BTreeMap, BTreeSet};

/// The pool whose standings rank a prize list or team competition naming `group`: the
/// group itself, the pool of a section, or the target of a merge (see [`prize_sheet`]).
pub fn list_pool(event: &Event, rules: &Rulebook, group: &GroupId) -> GroupId {
    resolve_pool(event, rules, group).0
}

/// A prize list's rows as the prize sheet ranks them (what `qiwang standings --list L`
/// prints): [`list_standings`](super::list_standings) with the list's filter, restricted
/// as well to the section's players when the list names a section or a merged group.
/// `standings` must be those of [`list_pool`] for the list's group.
pub fn prize_list_rows(
    event: &Event,
    rules: &Rulebook,
    standings: &Standings,
    list: &PrizeList,
) -> Vec<super::ListRow> {
    let (_, sections) = resolve_pool(event, rules, &list.group);
    list_rows_excluding(
        standings,
        event,
        rules,
        list,
        sections.as_deref(),
        &merged_in(event, rules, &list.group),
    )
}

/// [`prize_list_rows`] as the prize sheet ranks the list: under
/// `MultiplePrizes::HigherOnly` without the players who keep a higher prize in another
/// list (their places passed down), so a tie that appears after the pass-down is the
/// one a playoff settles.
pub(crate) fn sheet_list_rows(event: &Event, rules: &Rulebook, list: &PrizeList) -> Vec<ListRow> {
    let pool = list_pool(event, rules, &list.group);
    let mut standings = BTreeMap::new();
    for l in &rules.prizes.lists {
        let p = list_pool(event, rules, &l.group);
        standings
            .entry(p.clone())
            .or_insert_with(|| crate::standings::compute_standings(event, rules, &p, None));
    }
    let mut left_out = merged_in(event, rules, &list.group);
    if rules.prizes.multiple == MultiplePrizes::HigherOnly {
        let sheet = prize_sheet(event, rules, &standings, &[]);
        if let Some(s) = sheet.lists.iter().find(|s| s.id == list.id) {
            left_out.extend(s.passed_on.iter().map(|p| p.player));
        }
    }
    let (_, sections) = resolve_pool(event, rules, &list.group);
    match standings.get(&pool) {
        Some(st) => list_rows_excluding(st, event, rules, list, sections.as_deref(), &left_out),
        None => Vec::new(),
    }
}

/// Players merged into `group` from an under-size group: a list of `group` itself ranks
/// only its own players, since the merged players keep their own group's list (Dongguan
/// 九: 儿童女子棋王组 merged into 少年女子棋王组 is still ranked for its own prizes).
pub(crate) fn merged_in(event: &Event, rules: &Rulebook, group: &GroupId) -> BTreeSet<PlayerId> {
    if rules.group(group).is_none_or(|g| g.pairs_with.is_some()) {
        return BTreeSet::new();
    }
    let labels: Vec<GroupId> = event
        .groups
        .iter()
        .filter(|(_, state)| state.merged_into.as_ref() == Some(group))
        .flat_map(|(from, _)| section_labels(rules, from))
        .collect();
    event
        .players
        .iter()
        .filter(|p| &p.group == group && p.section.as_ref().is_some_and(|s| labels.contains(s)))
        .map(|p| p.id)
        .collect()
}

/// Every team competition of the rulebook ranked over the standings of its pool
/// ([`list_pool`]); competitions whose pool has no standings are left out (the sheet
/// notes them as missing).
pub fn team_rankings(
    event: &Event,
    rules: &Rulebook,
    standings: &BTreeMap<GroupId, Standings>,
) -> Vec<TeamRanking> {
    rules
        .teams
        .iter()
        .filter_map(|t| {
            let st = standings.get(&list_pool(event, rules, &t.group))?;
            Some(super::team_ranking(st, event, t))
        })
        .collect()
}

/// The pool a list's group is ranked in, and the section labels its players must be
/// registered under (`None`: no restriction beyond the list's own filter).
pub(crate) fn resolve_pool(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
) -> (GroupId, Option<Vec<GroupId>>) {
    let mut pool = group.clone();
    let mut sections = None;
    if let Some(p) = rules.group(group).and_then(|g| g.pairs_with.clone()) {
        pool = p;
        sections = Some(vec![group.clone()]);
    }
    // Follow merges; bounded so a corrupt state with a merge cycle cannot loop.
    for _ in 0..=event.groups.len() {
        let Some(into) = event.group(&pool).and_then(|g| g.merged_into.clone()) else {
            break;
        };
        if sections.is_none() {
            sections = Some(section_labels(rules, &pool));
        }
        pool = into;
    }
    (pool, sections)
}
