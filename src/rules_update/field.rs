//! What a new rulebook (`rules update`) says about the players already registered and the
//! rounds already paired (docs/rules.md §13).
//!
//! Owns deciding, case by case, whether a change contradicts the registered field (then
//! `rules update` is refused with what it contradicts) or is one the regulation provides
//! for (then it is accepted with a note). Must not change the event: the caller applies
//! the update only when [`contradictions`] is empty.

use crate::i18n::Text;
use crate::model::{Event, GroupId, Player};
use crate::privacy::mask_numbers_in;
use crate::registration::{PoolNow, eligibility, group_sizes, pool_now};
use crate::rulebook::bounds::DEFAULT_MAX_PLAYERS;
use crate::rulebook::{GroupRule, Rulebook};
use std::collections::BTreeMap;

/// Players named one by one in a refusal before the rest are counted.
const NAMED: usize = 10;

/// The group a player registered under (a section, else the pool).
fn named_group(player: &Player) -> &GroupId {
    player.section.as_ref().unwrap_or(&player.group)
}

/// What the new rulebook contradicts about the registered players, one line each; empty
/// when it fits them. Each case is refused because the players are already in the event
/// and a rulebook cannot take back a registration:
///
/// - `event.max_players` (or the default maximum, when the key is left out) below the
///   number registered;
/// - a group removed while players are registered in it;
/// - before any round is paired, a group moved to another pool (`pairs_with`) while its
///   players are registered in the old one (once rounds are paired,
///   `played_round_changes` refuses any `pairs_with` change). The pool a group pairs in is
///   the rulebook's followed through the event's merges (`group merge`): a merged group's
///   players were moved by the merge, which a rulebook that keeps the group where it was
///   does not contradict;
/// - an eligibility condition that registered players met under the current rulebook and
///   no longer meet.
pub(super) fn contradictions(event: &Event, old: &Rulebook, new: &Rulebook) -> Vec<Text> {
    let mut out = Vec::new();
    let registered = event.players.len();
    let max = new.max_players();
    if registered > max as usize {
        out.push(if new.event.max_players.is_some() {
            Text::new(
                format!(
                    "`event.max_players` 为 `{max}`，少于已报名的 `{registered}` 名棋手；请设为至少 `{registered}`"
                ),
                format!(
                    "`event.max_players` is `{max}`, below the `{registered}` players registered; set it to at least `{registered}`"
                ),
            )
        } else {
            Text::new(
                format!(
                    "新规程没有 `event.max_players`，默认上限 `{DEFAULT_MAX_PLAYERS}` 少于已报名的 `{registered}` 名棋手；请写上 `max_players = {registered}` 或更大"
                ),
                format!(
                    "the new rulebook leaves `event.max_players` out, and the default maximum `{DEFAULT_MAX_PLAYERS}` is below the `{registered}` players registered; write `max_players = {registered}` or more"
                ),
            )
        });
    }
    let mut removed: BTreeMap<&GroupId, usize> = BTreeMap::new();
    let mut moved: BTreeMap<(&GroupId, GroupId, &GroupId), usize> = BTreeMap::new();
    let mut ineligible: Vec<Text> = Vec::new();
    let mut ineligible_count = 0usize;
    let unpaired = event.groups.values().all(|g| g.rounds.is_empty());
    for player in &event.players {
        let named = named_group(player);
        let Some(rule) = new.group(named) else {
            *removed.entry(named).or_default() += 1;
            continue;
        };
        // Where the group pairs now: the merges recorded moved its players on from the
        // rulebook's pool (a cancelled pool keeps them where they were).
        let pool = match pool_now(event, new.pool_of(rule)) {
            PoolNow::Pairs(pool) | PoolNow::Cancelled(pool) => pool,
        };
        if unpaired && pool != player.group {
            *moved.entry((named, pool, &player.group)).or_default() += 1;
            continue;
        }
        let problems = eligibility::check(player, rule, new);
        let Some(first) = problems.first() else {
            continue;
        };
        let met_before = old
            .group(named)
            .is_some_and(|g: &GroupRule| eligibility::check(player, g, old).is_empty());
        if !met_before {
            continue;
        }
        ineligible_count += 1;
        if ineligible.len() < NAMED {
            let (name, id) = (&player.name, player.id);
            let (zh, en) = (mask_numbers_in(&first.zh), mask_numbers_in(&first.en));
            ineligible.push(Text::new(
                format!("棋手 `{name}`（{id}）不再符合组别 `{named}` 的新条件：{zh}"),
                format!(
                    "player `{name}` ({id}) no longer meets the new conditions of group `{named}`: {en}"
                ),
            ));
        }
    }
    for (group, n) in removed {
        out.push(Text::new(
            format!("组别 `{group}` 被删除，而有 {n} 名棋手报名该组"),
            format!(
                "group `{group}` is removed, but {} registered in it",
                crate::i18n::plural(n, "player is", "players are")
            ),
        ));
    }
    for ((group, pool, now), n) in moved {
        out.push(Text::new(
            format!("组别 `{group}` 将在 `{pool}` 中编排，而它的 {n} 名棋手登记在 `{now}`；请先改正这些棋手的组别（`qiwang player edit`）"),
            format!(
                "group `{group}` would be paired in `{pool}`, but its {n} registered players are in `{now}`; correct their group first (`qiwang player edit`)"
            ),
        ));
    }
    out.extend(ineligible);
    if ineligible_count > NAMED {
        let more = ineligible_count - NAMED;
        out.push(Text::new(
            format!("另有 {more} 名棋手不再符合新条件"),
            format!(
                "and {} more no longer meet the new conditions",
                crate::i18n::plural(more, "player", "players")
            ),
        ));
    }
    out
}

/// What the new rulebook changes that the event accepts, one note each: a rule of pairing
/// changes from each pool's next round on (the rounds paired stay checked by the rules
/// they were paired under), and a pool below its new `min_size` is left for `qiwang
/// group` to merge or cancel (Dongguan 九) before its round 1.
pub(super) fn notes(event: &Event, old: &Rulebook, new: &Rulebook) -> Vec<Text> {
    let mut out = Vec::new();
    let pairing_changes = old.pairing != new.pairing || old.colours != new.colours;
    for (pool, state) in &event.groups {
        let Some(last) = state.rounds.iter().map(|r| r.number).max() else {
            continue;
        };
        let next = last + 1;
        if pairing_changes {
            out.push(Text::new(
                format!("组别 `{pool}` 从第 {next} 轮起按新的编排与先后手规则编排；第 1–{last} 轮仍按编排时的规则核查"),
                format!(
                    "group `{pool}` is paired under the new pairing and colour rules from round {next}; rounds 1–{last} stay checked under the rules they were paired under"
                ),
            ));
        }
    }
    let short_before: Vec<GroupId> = group_sizes(old, &event.players)
        .into_iter()
        .filter(crate::registration::GroupSize::is_short)
        .map(|s| s.group)
        .collect();
    for size in group_sizes(new, &event.players) {
        let paired = event
            .group(&size.group)
            .is_some_and(|g| !g.rounds.is_empty() || g.cancelled || g.merged_into.is_some());
        if !size.is_short() || paired || short_before.contains(&size.group) {
            continue;
        }
        let (group, n, min) = (&size.group, size.count, size.minimum());
        out.push(Text::new(
            format!("组别 `{group}` 只有 {n} 名棋手，少于新的 `min_size` `{min}`：在 `qiwang group` 合并或取消它之前，`qiwang pair` 不会编排它的第 1 轮"),
            format!(
                "group `{group}` has {n} players, fewer than its new `min_size` `{min}`: `qiwang pair` refuses its round 1 until `qiwang group` merges or cancels it"
            ),
        ));
    }
    out
}
