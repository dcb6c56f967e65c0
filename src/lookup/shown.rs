//! Which pools a command shows when no `--group` is given: the one place that decides
//! it, so that `standings`, `round`, `check`, `export`, `result`, the site and the demo
//! agree on what "every pool" means.
//!
//! Owns only that choice; naming a pool (`--group`) is the parent module's.

use crate::model::Event;
use crate::rulebook::{GroupRule, Rulebook};

/// What a command lists its pools for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// Pools with players (standings, prize lists, the demo, a registration's counts).
    Players,
    /// Pools with at least one paired round (round sheets, `check`, exports).
    Paired,
    /// Paired pools whose newest round still waits for results (`result` without
    /// `--group` takes the one such pool).
    AwaitingResults,
}

/// The pools `shown` asks for, in the rulebook's order. A group merged into another
/// (Dongguan 九) is never shown on its own: its players are in the pool it joined.
pub fn pools_shown<'r>(rules: &'r Rulebook, event: &Event, shown: Shown) -> Vec<&'r GroupRule> {
    rules
        .pools()
        .filter(|g| {
            let state = event.group(&g.id);
            if state.is_some_and(|s| s.merged_into.is_some()) {
                return false;
            }
            let newest = state.and_then(|s| s.last_round());
            match shown {
                Shown::Players => event.players_in(&g.id).next().is_some(),
                Shown::Paired => newest.is_some(),
                Shown::AwaitingResults => newest.is_some_and(|r| !r.is_complete()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GameResult, GroupId, Outcome, Pairing, Player, PlayerId, Round};
    use crate::registration::tests::rules;

    fn ids(pools: Vec<&GroupRule>) -> Vec<&str> {
        pools.into_iter().map(|g| g.id.as_str()).collect()
    }

    #[test]
    fn each_command_sees_the_pools_it_can_show() {
        let rules = rules();
        let mut event = Event::new(String::new());
        assert!(pools_shown(&rules, &event, Shown::Players).is_empty());
        for (i, pool) in [(1, "adult"), (2, "adult"), (3, "youth")] {
            event.players.push(Player::new(
                PlayerId(i),
                format!("p{i}"),
                GroupId::new(pool),
            ));
        }
        assert_eq!(
            ids(pools_shown(&rules, &event, Shown::Players)),
            ["adult", "youth"]
        );
        assert!(pools_shown(&rules, &event, Shown::Paired).is_empty());
        let game = |result: Option<Outcome>| Pairing::Game {
            table: 1,
            red: PlayerId(1),
            black: PlayerId(2),
            result: result.map(GameResult::new),
        };
        event.group_mut(&GroupId::new("adult")).rounds = vec![Round {
            number: 1,
            pairings: vec![game(None)],
        }];
        assert_eq!(ids(pools_shown(&rules, &event, Shown::Paired)), ["adult"]);
        assert_eq!(
            ids(pools_shown(&rules, &event, Shown::AwaitingResults)),
            ["adult"]
        );
        event.group_mut(&GroupId::new("adult")).rounds[0].pairings =
            vec![game(Some(Outcome::Draw))];
        assert!(pools_shown(&rules, &event, Shown::AwaitingResults).is_empty());
        // A group merged into another is shown only as the pool it joined.
        event.group_mut(&GroupId::new("youth")).merged_into = Some(GroupId::new("adult"));
        assert_eq!(ids(pools_shown(&rules, &event, Shown::Players)), ["adult"]);
    }
}
