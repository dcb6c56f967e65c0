//! Playoffs of a prize list (a tie atop a girls', 本地 or 残疾人 list, or across a
//! qualification line) and disqualification (取消比赛资格).
//!
//! Owns checking a playoff order against the tie a list flags and recording it, and
//! setting or lifting a player's disqualification. Both change the event only when the
//! whole request is valid.

use super::PrizeError;
use super::pools::{list_pool, sheet_list_rows};
use crate::model::{Event, PlayerId, PlayerStatus, Playoff};
use crate::rulebook::{PrizeList, Rulebook};
use crate::standings::compute_standings;
use serde::Serialize;
use std::collections::BTreeSet;

/// What [`record_list_playoff`] recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListPlayoff {
    /// The list's id.
    pub list: String,
    /// The pool the list ranks.
    pub pool: crate::model::GroupId,
    /// The tied players in their playoff order, winner first.
    pub order: Vec<PlayerId>,
    /// The tie was the pool's own tie for first: recorded for the pool's standings
    /// (which every list of the pool then follows), not for this list alone.
    pub pool_level: bool,
    /// The order of a playoff recorded earlier over the same players, now replaced.
    pub replaced: Option<Vec<PlayerId>>,
}

/// The prize list named by id or name (surrounding spaces ignored: ` 冠军组 ` is
/// `冠军组`).
pub fn find_list<'a>(rules: &'a Rulebook, name: &str) -> Result<&'a PrizeList, PrizeError> {
    let name = name.trim();
    rules
        .prizes
        .lists
        .iter()
        .find(|l| l.id == name || l.name == name)
        .ok_or_else(|| unknown_list(rules, name, false))
}

/// The id of the prize list or team competition (`[[teams]]`) named by id or name,
/// looked up as [`find_list`] looks up a list: what `certificates --list` prints.
pub fn find_award_list<'a>(rules: &'a Rulebook, name: &str) -> Result<&'a str, PrizeError> {
    match find_list(rules, name) {
        Ok(list) => Ok(&list.id),
        Err(_) => {
            let name = name.trim();
            rules
                .teams
                .iter()
                .find(|t| t.id == name || t.name == name)
                .map(|t| t.id.as_str())
                .ok_or_else(|| unknown_list(rules, name, true))
        }
    }
}

/// The error for an unknown list `name`, naming the rulebook's lists (and its team
/// competitions when `with_teams`).
fn unknown_list(rules: &Rulebook, name: &str, with_teams: bool) -> PrizeError {
    let lists = rules.prizes.lists.iter().map(|l| (&l.id, &l.name));
    let teams = rules
        .teams
        .iter()
        .filter(|_| with_teams)
        .map(|t| (&t.id, &t.name));
    PrizeError::UnknownList {
        list: name.to_string(),
        known: lists
            .chain(teams)
            .map(|(id, name)| format!("`{id}` ({name})"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Records the playoff that settled a tie of prize list `list` (by id or name): `order`
/// lists exactly the players the list flags as needing a playoff for one place (需加赛
/// at the top, or at the qualification line), each once, winner first.
///
/// When those players are exactly the pool's own tie for first (the standings flag them
/// `needs_playoff`), the playoff is recorded for the pool (`list: None`) so the
/// standings and every list follow it; otherwise for this list only, and the pool's
/// standings keep the players tied. A playoff recorded earlier for the same list and
/// players is replaced. The event is unchanged on error.
pub fn record_list_playoff(
    event: &mut Event,
    rules: &Rulebook,
    list: &str,
    order: Vec<PlayerId>,
    note: &str,
) -> Result<ListPlayoff, PrizeError> {
    let list = find_list(rules, list)?;
    let pool = list_pool(event, rules, &list.group);
    let order_set: BTreeSet<PlayerId> = order.iter().copied().collect();
    let same = |p: &Playoff| p.order.iter().copied().collect::<BTreeSet<_>>() == order_set;
    let mut without = event.clone();
    let replaced = event
        .playoffs
        .iter()
        .rev()
        .find(|p| {
            p.group == pool
                && same(p)
                && (p.list.is_none() || p.list.as_deref() == Some(list.id.as_str()))
        })
        .map(|p| p.order.clone());
    without.playoffs.retain(|p| {
        !(p.group == pool
            && same(p)
            && (p.list.is_none() || p.list.as_deref() == Some(list.id.as_str())))
    });
    let st = compute_standings(&without, rules, &pool, None);
    let rows = sheet_list_rows(&without, rules, list);
    let mut ties: Vec<BTreeSet<PlayerId>> = Vec::new();
    let mut places: Vec<u32> = rows.iter().filter_map(|r| r.place).collect();
    places.dedup();
    for place in places {
        let run: Vec<_> = rows.iter().filter(|r| r.place == Some(place)).collect();
        if run.len() > 1
            && run.iter().any(|r| {
                r.needs_playoff || r.qualification_playoff || (r.shared && r.row.needs_playoff)
            })
        {
            ties.push(run.iter().map(|r| r.row.player).collect());
        }
    }
    if ties.is_empty() {
        return Err(PrizeError::NoListTie {
            list: list.id.clone(),
        });
    }
    if order_set.len() != order.len() || !ties.contains(&order_set) {
        // Players as the command takes them (丁 #4), not by internal ids.
        let show = |ids: &mut dyn Iterator<Item = PlayerId>| {
            ids.map(|id| event.player_arg(id))
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(PrizeError::ListPlayoffMismatch {
            list: list.id.clone(),
            given: format!("[{}]", show(&mut order.iter().copied())),
            tied: ties
                .iter()
                .map(|t| format!("[{}]", show(&mut t.iter().copied())))
                .collect::<Vec<_>>()
                .join(" / "),
        });
    }
    // The pool's own tie for first (every one of the pool's flagged players).
    let pool_tie: BTreeSet<PlayerId> = st
        .rows
        .iter()
        .filter(|r| r.needs_playoff)
        .map(|r| r.player)
        .collect();
    let pool_level = pool_tie == order_set;
    without.playoffs.push(Playoff {
        group: pool.clone(),
        order: order.clone(),
        note: note.trim().to_string(),
        list: (!pool_level).then(|| list.id.clone()),
    });
    event.playoffs = without.playoffs;
    // Reported only when the order changed (compared with the order given, not with
    // the players' id order).
    let replaced = replaced.filter(|r| *r != order);
    Ok(ListPlayoff {
        list: list.id.clone(),
        pool,
        order,
        pool_level,
        replaced,
    })
}

/// The prize list of `pool` whose tie needing a playoff is exactly the players of
/// `order`, when the pool's own standings have no such tie (so `qiwang playoff P1 P2 …`
/// without `--list` settles a girls' list's tie instead of answering that the pool has
/// none). `None` when the pool's standings flag those players, or no list or more than
/// one list has that tie.
pub fn list_for_playoff(
    event: &Event,
    rules: &Rulebook,
    pool: &crate::model::GroupId,
    order: &[PlayerId],
) -> Option<String> {
    let set: BTreeSet<PlayerId> = order.iter().copied().collect();
    let st = compute_standings(event, rules, pool, None);
    let pool_tie: BTreeSet<PlayerId> = st
        .rows
        .iter()
        .filter(|r| r.needs_playoff)
        .map(|r| r.player)
        .collect();
    if !pool_tie.is_empty() && pool_tie == set {
        return None;
    }
    let mut found = Vec::new();
    for list in rules
        .prizes
        .lists
        .iter()
        .filter(|l| &list_pool(event, rules, &l.group) == pool)
    {
        let rows = sheet_list_rows(event, rules, list);
        let tied: BTreeSet<PlayerId> = rows
            .iter()
            .filter(|r| r.needs_playoff || r.qualification_playoff)
            .filter(|r| set.contains(&r.row.player))
            .map(|r| r.row.player)
            .collect();
        let place = rows
            .iter()
            .find(|r| set.contains(&r.row.player))
            .and_then(|r| r.place);
        let same_place = rows
            .iter()
            .filter(|r| r.place.is_some() && r.place == place)
            .count()
            == set.len();
        if tied == set && same_place {
            found.push(list.id.clone());
        }
    }
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// Disqualifies `player` (取消比赛资格, Jinhua 补充规定 五.5): not paired from `from_round`
/// on (default: the round after the newest round of their pool), never ranked or awarded
/// in any list; their games stay valid for the opponents' 对手分. Returns the round the
/// disqualification takes effect from.
///
/// Refused when the player is unknown, already disqualified, the reason is empty, the
/// round is 0 or beyond the next round, or the player is already paired in a round from
/// `from_round` on (drop that round with `qiwang unpair` or give an earlier round).
pub fn disqualify(
    event: &mut Event,
    player: PlayerId,
    reason: &str,
    from_round: Option<u32>,
) -> Result<u32, PrizeError> {
    let p = event
        .player(player)
        .ok_or(PrizeError::UnknownPlayer { player })?;
    if p.is_disqualified() {
        return Err(PrizeError::AlreadyDisqualified {
            player,
            name: p.shown_name().into_owned(),
        });
    }
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(PrizeError::EmptyReason);
    }
    let rounds = event
        .group(&p.group)
        .map(|g| g.rounds.as_slice())
        .unwrap_or(&[]);
    let newest = rounds.iter().map(|r| r.number).max().unwrap_or(0);
    let from = from_round.unwrap_or(newest + 1);
    if from == 0 || from > newest + 1 {
        return Err(PrizeError::BadRound {
            round: from,
            next: newest + 1,
        });
    }
    // A withdrawn player stays out from the round the withdrawal started.
    let from = p.out_from().map_or(from, |out| out.min(from));
    if let Some(r) = rounds
        .iter()
        .filter(|r| r.number >= from)
        .find(|r| r.pairings.iter().any(|x| x.involves(player)))
    {
        return Err(PrizeError::PairedFrom {
            player,
            name: p.shown_name().into_owned(),
            round: r.number,
        });
    }
    if let Some(p) = event.player_mut(player) {
        p.status = PlayerStatus::Disqualified {
            from_round: from,
            reason: reason.to_string(),
        };
    }
    Ok(from)
}

/// Lifts a disqualification (`qiwang player disqualify P --undo`): the player is active
/// again, paired from the next round and ranked as before. Refused when the player is
/// not disqualified.
pub fn undo_disqualification(event: &mut Event, player: PlayerId) -> Result<(), PrizeError> {
    let p = event
        .player(player)
        .ok_or(PrizeError::UnknownPlayer { player })?;
    if !p.is_disqualified() {
        return Err(PrizeError::NotDisqualified {
            player,
            name: p.shown_name().into_owned(),
        });
    }
    let from = event.next_round(&p.group);
    if let Some(p) = event.player_mut(player) {
        p.reactivate(from);
    }
    Ok(())
}
