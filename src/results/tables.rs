//! Which pool a hall table number belongs to (docs/rules.md §12 (table numbers)): with one hall
//! numbering, `qiwang result 38 r` names 少儿组's first table without `--group`.
//!
//! Owns finding, for typed table numbers, the one pool whose round holds each of them.

use crate::model::{Event, GroupId};
use crate::rulebook::Rulebook;

/// The pool of each table in `tables`, in order: the one pool (of the rulebook's pools)
/// whose round `round` (each pool's newest without it) has a game at that number. `None`
/// when some table is in no pool's round or in more than one (pools in different halls,
/// or rounds paired before the hall numbering, numbered 1, 2, 3, … each): then the
/// caller asks for `--group`.
pub fn pools_of_tables(
    event: &Event,
    rules: &Rulebook,
    round: Option<u32>,
    tables: &[u32],
) -> Option<Vec<GroupId>> {
    let rounds: Vec<(&GroupId, &crate::model::Round)> = rules
        .pools()
        .filter_map(|g| {
            let state = event.group(&g.id)?;
            let r = match round {
                Some(n) => state.round(n),
                None => state.rounds.iter().max_by_key(|r| r.number),
            }?;
            Some((&g.id, r))
        })
        .collect();
    tables
        .iter()
        .map(|&t| {
            let mut holding = rounds.iter().filter(|(_, r)| r.game_at(t).is_some());
            match (holding.next(), holding.next()) {
                (Some((pool, _)), None) => Some((*pool).clone()),
                _ => None,
            }
        })
        .collect()
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
            Some(vec![kids.clone(), open.clone(), kids.clone()])
        );
        assert_eq!(pools_of_tables(&e, &rules, None, &[47]), None);
        assert_eq!(pools_of_tables(&e, &rules, Some(2), &[1]), None);
        // Rounds numbered per pool (before the hall numbering): table 1 is in both.
        e.group_mut(&kids).rounds = vec![round(1, 1..10)];
        assert_eq!(pools_of_tables(&e, &rules, None, &[1]), None);
        assert_eq!(pools_of_tables(&e, &rules, None, &[20]), Some(vec![open]));
    }
}
