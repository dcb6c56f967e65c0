//! One hall numbering (docs/rules.md §12 (table numbers)): the table numbers a new round's games get,
//! so that no two games of one round in one hall share a number.
//!
//! Owns where a pool's tables start in a round. By default the pools of the rulebook stand
//! in one hall, in rulebook order: 公开组 tables 1–37, 少儿组 38–46. A pool's
//! `first_table` starts it at that number (the pools after it go on from its last table);
//! a pool's `hall` puts it in another hall, numbered from 1 on its own. The number is
//! stored in the game itself when the round is paired, so every sheet, results file,
//! `result` and `pairing set` use it, and a round keeps the numbers it was printed with
//! (rounds paired before this numbering keep 1, 2, 3, … per pool). A new round never takes
//! a number another pool of its hall holds in the same round ([`number`]): the tables
//! reserved for a pool not yet paired are an estimate, and late entries or a merge can
//! make it play more tables than were kept for it. [`clashes`] finds a number held twice,
//! for `check` and for a hand edit. Pure.

use super::Explanation;
use crate::model::{Event, GroupId, Pairing, Round};
use crate::rulebook::Rulebook;
use std::collections::{BTreeMap, BTreeSet};

/// The first table number of `pool` in round `round`: its rulebook `first_table`, else the
/// number after the last table of the pool before it in the same hall (rulebook order).
/// A pool before it whose round is not paired yet is counted at the tables its pairable
/// players will fill (half of them, the bye left out); merged, cancelled and empty pools
/// take no tables.
pub fn first_table(event: &Event, rules: &Rulebook, pool: &GroupId, round: u32) -> u32 {
    let mut next = 1u32;
    for g in rules.pools_in_hall_of(pool) {
        if let Some(first) = g.hall.first_table {
            next = first;
        }
        if &g.id == pool {
            return next;
        }
        let state = event.group(&g.id);
        if state.is_some_and(|s| s.merged_into.is_some() || s.cancelled) {
            continue;
        }
        match state.and_then(|s| s.round(round)) {
            Some(r) => {
                if let Some(last) = r.pairings.iter().filter_map(Pairing::table).max() {
                    next = next.max(last.saturating_add(1));
                }
            }
            None if round > rules.rounds_for(&g.id) => {}
            None => {
                let players = event
                    .players_in(&g.id)
                    .filter(|p| p.pairable_in(round))
                    .count();
                next = next.saturating_add(u32::try_from(players / 2).unwrap_or(u32::MAX));
            }
        }
    }
    next
}

/// The other pools of `pool`'s hall that have round `round` stored, with that round.
fn neighbours<'a>(
    event: &'a Event,
    rules: &'a Rulebook,
    pool: &'a GroupId,
    round: u32,
) -> impl Iterator<Item = (&'a GroupId, &'a Round)> + 'a {
    rules
        .pools_in_hall_of(pool)
        .filter(move |g| &g.id != pool)
        .filter_map(move |g| Some((&g.id, event.group(&g.id)?.round(round)?)))
}

/// The lowest table of a round (`None`: it has no game).
fn lowest(round: &Round) -> Option<u32> {
    round.pairings.iter().filter_map(Pairing::table).min()
}

/// Numbers a round the engine made for `pool` (tables 1, 2, 3, …) where the hall
/// numbering puts it, with the tables its explanation names: from [`first_table`], or, when
/// a table of that range is held in the same round by another pool of the hall (paired
/// while fewer tables were expected before it), from the lowest number on after which the
/// whole range is free. No number of a round is ever given twice in a hall.
pub(super) fn number(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: &mut Round,
    explanation: &mut Explanation,
) {
    let Some(low) = lowest(round) else {
        return;
    };
    let high = round
        .pairings
        .iter()
        .filter_map(Pairing::table)
        .max()
        .unwrap_or(low);
    let span = high - low + 1;
    let taken: BTreeSet<u32> = neighbours(event, rules, pool, round.number)
        .flat_map(|(_, r)| r.pairings.iter().filter_map(Pairing::table))
        .collect();
    let mut first = first_table(event, rules, pool, round.number);
    for &t in taken.range(first..) {
        if t >= first.saturating_add(span) {
            break;
        }
        first = t.saturating_add(1);
    }
    shift(round, explanation, first.saturating_sub(low));
}

/// A table number of a pool's round that another pool of its hall also holds in that
/// round (docs/rules.md §12 (table numbers)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clash {
    /// The number held twice.
    pub table: u32,
    /// The other pool that holds it.
    pub pool: GroupId,
}

/// The other pools of `pool`'s hall whose round of `round`'s number must not share a
/// number with `round`. Two rounds that both start at table 1 are rounds paired before the
/// hall numbering (1, 2, 3, … in every pool), which share numbers by design: they are
/// left out.
fn rivals<'a>(
    event: &'a Event,
    rules: &'a Rulebook,
    pool: &'a GroupId,
    round: &Round,
) -> impl Iterator<Item = (&'a GroupId, &'a Round)> + 'a {
    let from_one = lowest(round) == Some(1);
    neighbours(event, rules, pool, round.number)
        .filter(move |(_, r)| !(from_one && lowest(r) == Some(1)))
}

/// Every table number of `round` (a round of `pool`, stored or proposed) that another pool
/// of its hall holds in its round of the same number, lowest first (rounds paired before
/// the hall numbering, both from table 1, left out).
pub fn clashes(event: &Event, rules: &Rulebook, pool: &GroupId, round: &Round) -> Vec<Clash> {
    let mine: BTreeSet<u32> = round.pairings.iter().filter_map(Pairing::table).collect();
    let mut out: Vec<Clash> = rivals(event, rules, pool, round)
        .flat_map(|(other, r)| {
            r.pairings
                .iter()
                .filter_map(Pairing::table)
                .filter(|t| mine.contains(t))
                .map(|table| Clash {
                    table,
                    pool: other.clone(),
                })
        })
        .collect();
    out.sort_by(|a, b| (a.table, &a.pool).cmp(&(b.table, &b.pool)));
    out
}

/// The table numbers other pools of `pool`'s hall hold in the round of `round`'s number,
/// each with its pool: a hand edit of `round` may give none of them.
pub(super) fn held(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: &Round,
) -> BTreeMap<u32, GroupId> {
    rivals(event, rules, pool, round)
        .flat_map(|(other, r)| {
            r.pairings
                .iter()
                .filter_map(Pairing::table)
                .map(move |t| (t, other.clone()))
        })
        .collect()
}

/// Adds `shift` to every table number of a round the engine made (tables 1, 2, 3, …) and
/// to the tables its explanation names.
fn shift(round: &mut Round, explanation: &mut Explanation, shift: u32) {
    if shift == 0 {
        return;
    }
    for p in &mut round.pairings {
        if let Pairing::Game { table, .. } = p {
            *table = table.saturating_add(shift);
        }
    }
    // Every table the explanation names moves with its game: the colour notes, and a
    // knockout's game per table (`pair --explain` named table 1 for the game at table 3).
    for c in &mut explanation.colours {
        c.table = c.table.saturating_add(shift);
    }
    for (table, _) in explanation.knockout.iter_mut().flat_map(|k| &mut k.games) {
        *table = table.saturating_add(shift);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Player, PlayerId};

    const RULES: &str = r#"
[event]
name = "t"
rounds = 3
[[groups]]
id = "open"
name = "公开组"
[[groups]]
id = "kids"
name = "少儿组"
[[groups]]
id = "girls"
name = "女子组"
hall = "二楼"
[[groups]]
id = "old"
name = "老年组"
first_table = 101
[[groups]]
id = "vets"
name = "元老组"
"#;

    fn event(sizes: &[(&str, u32)]) -> Event {
        let mut e = Event::new(RULES.into());
        let mut id = 0;
        for (group, n) in sizes {
            for _ in 0..*n {
                id += 1;
                e.players.push(Player::new(
                    PlayerId(id),
                    format!("p{id}"),
                    GroupId::new(*group),
                ));
            }
        }
        e
    }

    fn games(first: u32, n: u32) -> Round {
        Round {
            number: 1,
            pairings: (first..first + n)
                .map(|t| Pairing::Game {
                    table: t,
                    red: PlayerId(2 * t),
                    black: PlayerId(2 * t + 1),
                    result: None,
                })
                .collect(),
        }
    }

    #[test]
    fn a_section_sits_at_its_pools_tables() {
        let text = format!(
            "{RULES}[[groups]]\nid = \"local\"\npairs_with = \"open\"\nfirst_table = 5\nhall = \"x\"\n"
        );
        let e = Rulebook::from_toml(&text, "t.toml").unwrap_err();
        let keys: Vec<&str> = e.problems.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys.len(), 2, "{keys:?}");
        assert!(
            keys.iter()
                .all(|k| k.ends_with("first_table") || k.ends_with("hall"))
        );
        // `rules show` writes the keys back, and they read back the same.
        let rules = Rulebook::from_toml(RULES, "t.toml").unwrap();
        let shown = rules.to_effective_toml();
        assert!(shown.contains("first_table = 101") && shown.contains("hall = \"二楼\""));
    }

    #[test]
    fn pools_are_numbered_on_in_rulebook_order_per_hall() {
        let rules = Rulebook::from_toml(RULES, "t.toml").unwrap();
        let mut e = event(&[
            ("open", 75),
            ("kids", 18),
            ("girls", 6),
            ("old", 9),
            ("vets", 4),
        ]);
        let first = |e: &Event, g: &str| first_table(e, &rules, &GroupId::new(g), 1);
        // Before anything is paired: 公开组 37 tables (75 players, one bye), 少儿组 from 38.
        assert_eq!(first(&e, "open"), 1);
        assert_eq!(first(&e, "kids"), 38);
        // Another hall starts at 1; a pool's own first table holds, the next goes on.
        assert_eq!(first(&e, "girls"), 1);
        assert_eq!(first(&e, "old"), 101);
        assert_eq!(first(&e, "vets"), 105);
        // A paired round counts by its own last table (here one more game than estimated).
        e.group_mut(&GroupId::new("open")).rounds.push(games(1, 38));
        assert_eq!(first(&e, "kids"), 39);
        // Rounds paired under the old numbering (every pool from 1) go on after their last.
        e.group_mut(&GroupId::new("open")).rounds = vec![games(1, 5)];
        assert_eq!(first(&e, "kids"), 6);
        // A cancelled pool takes no tables.
        e.group_mut(&GroupId::new("open")).rounds.clear();
        e.group_mut(&GroupId::new("open")).cancelled = true;
        assert_eq!(first(&e, "kids"), 1);
    }

    #[test]
    fn a_round_goes_on_past_the_numbers_another_pool_holds_and_check_sees_a_clash() {
        let rules = Rulebook::from_toml(RULES, "t.toml").unwrap();
        let mut e = event(&[("open", 10), ("kids", 4)]);
        // 少儿组 paired first at 6–7, after the 5 tables kept for 公开组's 10 players;
        // 公开组 then plays 7 tables (late entries): 1–7 would give 6 and 7 twice.
        e.group_mut(&GroupId::new("kids")).rounds.push(games(6, 2));
        let mut open = games(1, 7);
        let mut explanation = Explanation::printed(1, None, None);
        number(
            &e,
            &rules,
            &GroupId::new("open"),
            &mut open,
            &mut explanation,
        );
        let tables: Vec<u32> = open.pairings.iter().filter_map(Pairing::table).collect();
        assert_eq!(tables, (8..=14).collect::<Vec<_>>());
        // A range that fits below the held numbers keeps its first table.
        let mut short = games(1, 5);
        number(
            &e,
            &rules,
            &GroupId::new("open"),
            &mut short,
            &mut explanation,
        );
        assert_eq!(lowest(&short), Some(1));
        // Stored at 1–7, the clash is found on both sides; numbered per pool from 1 on
        // both sides (before the hall numbering), it is not.
        let kids = GroupId::new("kids");
        let found = clashes(&e, &rules, &GroupId::new("open"), &games(1, 7));
        assert_eq!(
            found
                .iter()
                .map(|c| (c.table, c.pool.as_str()))
                .collect::<Vec<_>>(),
            [(6, "kids"), (7, "kids")]
        );
        e.group_mut(&GroupId::new("open")).rounds.push(games(1, 7));
        assert_eq!(clashes(&e, &rules, &kids, &games(6, 2)).len(), 2);
        assert!(clashes(&e, &rules, &kids, &games(1, 2)).is_empty());
    }
}
