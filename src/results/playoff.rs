//! Recording the playoff (加赛) that settles a tie for a place that cannot be shared.

use super::ResultError;
use super::record::check_group;
use crate::model::{Event, GroupId, PlayerId, Playoff};
use crate::rulebook::Rulebook;
use crate::standings::compute_standings;
use std::collections::{BTreeMap, BTreeSet};

/// Records the playoff (加赛) that settled a tie for an unshareable place (冠军不并列):
/// `order` must list exactly the players the standings flag as `needs_playoff` for one
/// place, each once, winner first. Every playoff recorded earlier in the pool over the
/// same players (the pool's own or a prize list's) is replaced; those are returned,
/// oldest first, so the caller reports what it replaced from this one rule.
pub fn record_playoff(
    event: &mut Event,
    rules: &Rulebook,
    group: &GroupId,
    order: Vec<PlayerId>,
) -> Result<Vec<Playoff>, ResultError> {
    check_group(rules, group)?;
    let order_set: BTreeSet<PlayerId> = order.iter().copied().collect();
    // Rank without earlier playoffs over the same players, so a playoff can be re-entered.
    let mut without = event.clone();
    let (replaced, kept): (Vec<Playoff>, Vec<Playoff>) = std::mem::take(&mut without.playoffs)
        .into_iter()
        .partition(|p| {
            &p.group == group && p.order.iter().copied().collect::<BTreeSet<_>>() == order_set
        });
    without.playoffs = kept;
    let standings = compute_standings(&without, rules, group, None);
    let mut tied: BTreeMap<u32, BTreeSet<PlayerId>> = BTreeMap::new();
    for row in standings.rows.iter().filter(|r| r.needs_playoff) {
        if let Some(rank) = row.rank {
            tied.entry(rank).or_default().insert(row.player);
        }
    }
    if tied.is_empty() {
        return Err(ResultError::NoPlayoffNeeded {
            group: group.clone(),
        });
    }
    let matches = order_set.len() == order.len() && tied.values().any(|set| *set == order_set);
    if !matches {
        // Players as the command takes them (丁 #4), not by internal ids.
        let list = |ids: &mut dyn Iterator<Item = PlayerId>| {
            ids.map(|id| without.player_arg(id))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let tied_text = tied
            .values()
            .map(|set| format!("[{}]", list(&mut set.iter().copied())))
            .collect::<Vec<_>>()
            .join(" or ");
        return Err(ResultError::PlayoffMismatch {
            group: group.clone(),
            given: format!("[{}]", list(&mut order.iter().copied())),
            tied: tied_text,
        });
    }
    event.playoffs = without.playoffs;
    event.playoffs.push(Playoff {
        group: group.clone(),
        order,
        note: String::new(),
        list: None,
    });
    Ok(replaced)
}
