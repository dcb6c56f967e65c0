//! Which pool a hall table number belongs to (docs/rules.md §12 (table numbers)): with one hall
//! numbering, `qiwang result 38 r` names 少儿组's first table without `--group`.
//!
//! Owns finding, for typed table numbers, the one pool whose round holds each of them.

use super::ResultError;
use crate::model::{Event, GroupId};
use crate::rulebook::{GroupRule, Rulebook};

/// The pool of each table in `tables`, in order: the one pool (of the rulebook's pools)
/// whose round `round` (each pool's newest without it) has a game at that number.
/// `Ok(None)` when a table is in more than one pool's round (pools in different halls,
/// or rounds paired before the hall numbering, numbered 1, 2, 3, … each): then the
/// caller asks for `--group`. A table in no pool's round is [`ResultError::HallTableMissing`],
/// with the tables there are.
pub fn pools_of_tables(
    event: &Event,
    rules: &Rulebook,
    round: Option<u32>,
    tables: &[u32],
) -> Result<Option<Vec<GroupId>>, ResultError> {
    pools_of_tables_among(event, rules.pools(), round, tables)
}

/// [`pools_of_tables`] among `pools` only: the pools of one hall, for a results file
/// whose 场地 column says which hall a row's table stands in (a hall's tables are numbered
/// on in one sequence, so its table number names one pool's game).
pub(crate) fn pools_of_tables_among<'a>(
    event: &Event,
    pools: impl Iterator<Item = &'a GroupRule>,
    round: Option<u32>,
    tables: &[u32],
) -> Result<Option<Vec<GroupId>>, ResultError> {
    let rounds: Vec<(&GroupId, &crate::model::Round)> = pools
        .filter_map(|g| {
            let state = event.group(&g.id)?;
            let r = match round {
                Some(n) => state.round(n),
                None => state.rounds.iter().max_by_key(|r| r.number),
            }?;
            Some((&g.id, r))
        })
        .collect();
    let mut pools = Vec::with_capacity(tables.len());
    for &t in tables {
        let mut holding = rounds.iter().filter(|(_, r)| r.game_at(t).is_some());
        match (holding.next(), holding.next()) {
            (Some((pool, _)), None) => pools.push((*pool).clone()),
            (Some(_), Some(_)) => return Ok(None),
            (None, _) if rounds.is_empty() => return Ok(None),
            (None, _) => {
                let mut all: Vec<u32> = rounds
                    .iter()
                    .flat_map(|(_, r)| r.pairings.iter().filter_map(crate::model::Pairing::table))
                    .collect();
                all.sort_unstable();
                all.dedup();
                return Err(ResultError::HallTableMissing {
                    round,
                    table: t,
                    tables: all,
                });
            }
        }
    }
    Ok(Some(pools))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pairing, PlayerId, Round};

    fn round(number: u32, tables: std::ops::Range<u32>) -> Round {
        Round {
            number,
            pairings: tables
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
    fn each_table_names_its_one_pool() {
        let rules = Rulebook::from_toml(
            "[event]\nname = \"t\"\nrounds = 3\n[[groups]]\nid = \"open\"\n[[groups]]\nid = \"kids\"\n",
            "t.toml",
        )
        .unwrap();
        let mut e = Event::new(String::new());
        let (open, kids) = (GroupId::new("open"), GroupId::new("kids"));
        e.group_mut(&open).rounds = vec![round(1, 1..38)];
        e.group_mut(&kids).rounds = vec![round(1, 38..47)];
        assert_eq!(
            pools_of_tables(&e, &rules, None, &[38, 2, 46]),
            Ok(Some(vec![kids.clone(), open.clone(), kids.clone()]))
        );
        // A table no pool has: the error lists the hall's tables.
        assert_eq!(
            pools_of_tables(&e, &rules, None, &[47]),
            Err(ResultError::HallTableMissing {
                round: None,
                table: 47,
                tables: (1..47).collect()
            })
        );
        // No pool has a round 2: nothing to tell apart, the caller asks for `--group`.
        assert_eq!(pools_of_tables(&e, &rules, Some(2), &[1]), Ok(None));
        // Rounds numbered per pool (before the hall numbering): table 1 is in both.
        e.group_mut(&kids).rounds = vec![round(1, 1..10)];
        assert_eq!(pools_of_tables(&e, &rules, None, &[1]), Ok(None));
        assert_eq!(
            pools_of_tables(&e, &rules, None, &[20]),
            Ok(Some(vec![open]))
        );
    }
}
