//! One prize list's ranking: a pool's standings filtered (gender, disabled, local,
//! section) and re-placed within the list.
//!
//! Owns the filter and the re-placing; what `qiwang standings --list L` prints. It does
//! not rank (the standings' order and ties are taken as given) and knows nothing about
//! money.

use crate::model::{Event, GroupId, Player, PlayerId};
use crate::rulebook::PrizeFilter;
use crate::standings::{StandingRow, Standings};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A player's line in a prize list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListRow {
    /// Place within the list (1-based); `None` for players who take no place in the
    /// standings (they are listed last, for reference).
    pub place: Option<u32>,
    /// Whether another player of the list holds the same place.
    pub shared: bool,
    /// The player's line in the pool's standings (overall rank, score, tiebreaks).
    pub row: StandingRow,
}

/// The rows of `standings` whose players pass `filter`, placed within the list.
///
/// Places are counted inside the list: a player's place is one more than the number of
/// listed players with a strictly better overall rank, so ties keep their shared place
/// and the places after a tie are skipped as usual (overall 3=, 3=, 5 filtered to one of
/// the 3= and the 5 gives places 1, 2; both 3= give 1=, 1=, 3). Players the standings do
/// not place (`rank: None`) follow with `place: None`.
pub fn list_standings(standings: &Standings, event: &Event, filter: &PrizeFilter) -> Vec<ListRow> {
    place_rows(standings, event, |p| matches(p, filter, None))
}

/// Whether `player` passes `filter` and, when `sections` is given, is registered under
/// one of those section labels (used for the lists of a merged group).
pub(crate) fn matches(player: &Player, filter: &PrizeFilter, sections: Option<&[GroupId]>) -> bool {
    filter.gender.is_none_or(|g| player.gender == Some(g))
        && filter.disabled.is_none_or(|d| player.disabled == d)
        && filter.local.is_none_or(|l| player.local == l)
        && filter
            .section
            .as_ref()
            .is_none_or(|s| player.section.as_ref() == Some(s))
        && sections.is_none_or(|ss| player.section.as_ref().is_some_and(|s| ss.contains(s)))
}

/// The list over the players for which `keep` holds; rows of unknown players are left
/// out (a standings row always names a registered player, so this only guards against a
/// stale standings value).
pub(crate) fn place_rows(
    standings: &Standings,
    event: &Event,
    keep: impl Fn(&Player) -> bool,
) -> Vec<ListRow> {
    let players: BTreeMap<PlayerId, &Player> = event.players.iter().map(|p| (p.id, p)).collect();
    let kept: Vec<&StandingRow> = standings
        .rows
        .iter()
        .filter(|r| players.get(&r.player).is_some_and(|p| keep(p)))
        .collect();
    let mut ranked: Vec<&StandingRow> = kept.iter().copied().filter(|r| r.rank.is_some()).collect();
    // The standings give rows in rank order; a stable sort keeps their order inside a tie.
    ranked.sort_by_key(|r| r.rank);
    let mut out = Vec::with_capacity(kept.len());
    let mut start = 0;
    while start < ranked.len() {
        let tie = ranked[start..]
            .iter()
            .take_while(|r| r.rank == ranked[start].rank)
            .count();
        out.extend(ranked[start..start + tie].iter().map(|r| ListRow {
            place: Some(start as u32 + 1),
            shared: tie > 1,
            row: (*r).clone(),
        }));
        start += tie;
    }
    out.extend(kept.iter().filter(|r| r.rank.is_none()).map(|r| ListRow {
        place: None,
        shared: false,
        row: (*r).clone(),
    }));
    out
}

/// [`place_rows`] for a prize list, leaving out the players in `excluded` (those who
/// kept a higher prize elsewhere under `MultiplePrizes::HigherOnly`).
pub(crate) fn list_rows_excluding(
    standings: &Standings,
    event: &Event,
    filter: &PrizeFilter,
    sections: Option<&[GroupId]>,
    excluded: &BTreeSet<PlayerId>,
) -> Vec<ListRow> {
    place_rows(standings, event, |p| {
        !excluded.contains(&p.id) && matches(p, filter, sections)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Gender, Player, PlayerId, Points};

    fn row(id: u32, rank: Option<u32>) -> StandingRow {
        StandingRow {
            player: PlayerId(id),
            rank,
            shared: false,
            score: Points(0),
            penalty: Points(0),
            tiebreaks: Vec::new(),
            needs_playoff: false,
            decided_by: None,
            withdrawn: false,
        }
    }

    /// Players 1..=6: odd ids male, even female; 2 and 5 disabled; 3 local.
    fn fixture(ranks: &[Option<u32>]) -> (Event, Standings) {
        let mut event = Event::new(String::new());
        let mut rows = Vec::new();
        for (i, rank) in ranks.iter().enumerate() {
            let id = i as u32 + 1;
            let mut p = Player::new(PlayerId(id), format!("p{id}"), GroupId::new("open"));
            p.gender = Some(if id % 2 == 1 {
                Gender::Male
            } else {
                Gender::Female
            });
            p.disabled = id == 2 || id == 5;
            p.local = id == 3;
            event.players.push(p);
            rows.push(row(id, *rank));
        }
        let standings = Standings {
            group: GroupId::new("open"),
            after_round: 7,
            tiebreaks: Vec::new(),
            rows,
        };
        (event, standings)
    }

    /// (player id, place, shared).
    type Placed = (u32, Option<u32>, bool);

    fn places(rows: &[ListRow]) -> Vec<Placed> {
        rows.iter()
            .map(|r| (r.row.player.0, r.place, r.shared))
            .collect()
    }

    #[test]
    fn filtering_re_places_within_the_list() {
        // Overall: 1, 2, 3=, 3=, 5, unranked.
        let (event, st) = fixture(&[Some(1), Some(2), Some(3), Some(3), Some(5), None]);
        let male = PrizeFilter {
            gender: Some(Gender::Male),
            ..PrizeFilter::default()
        };
        let female = PrizeFilter {
            gender: Some(Gender::Female),
            ..PrizeFilter::default()
        };
        let disabled = PrizeFilter {
            disabled: Some(true),
            ..PrizeFilter::default()
        };
        let local = PrizeFilter {
            local: Some(true),
            ..PrizeFilter::default()
        };
        let cases: [(&str, PrizeFilter, Vec<Placed>); 5] = [
            (
                "everyone",
                PrizeFilter::default(),
                vec![
                    (1, Some(1), false),
                    (2, Some(2), false),
                    (3, Some(3), true),
                    (4, Some(3), true),
                    (5, Some(5), false),
                    (6, None, false),
                ],
            ),
            // One of the 3= and the 5 → places 2 and 3 behind player 1.
            (
                "male",
                male,
                vec![
                    (1, Some(1), false),
                    (3, Some(2), false),
                    (5, Some(3), false),
                ],
            ),
            (
                "female",
                female,
                vec![(2, Some(1), false), (4, Some(2), false), (6, None, false)],
            ),
            (
                "disabled",
                disabled,
                vec![(2, Some(1), false), (5, Some(2), false)],
            ),
            ("local", local, vec![(3, Some(1), false)]),
        ];
        for (name, filter, want) in cases {
            assert_eq!(
                places(&list_standings(&st, &event, &filter)),
                want,
                "{name}"
            );
        }
    }

    #[test]
    fn a_tie_inside_the_list_stays_shared_and_skips_the_next_place() {
        // Overall 3=, 3=, 5 with both 3= in the list → 1=, 1=, 3.
        let (event, st) = fixture(&[Some(3), Some(3), Some(5)]);
        let rows = list_standings(&st, &event, &PrizeFilter::default());
        assert_eq!(
            places(&rows),
            vec![(1, Some(1), true), (2, Some(1), true), (3, Some(3), false)]
        );
    }

    #[test]
    fn section_filter_and_extra_sections() {
        let (mut event, st) = fixture(&[Some(1), Some(2), Some(3)]);
        event.players[1].section = Some(GroupId::new("girls"));
        let f = PrizeFilter {
            section: Some(GroupId::new("girls")),
            ..PrizeFilter::default()
        };
        let rows = list_standings(&st, &event, &f);
        assert_eq!(places(&rows), vec![(2, Some(1), false)]);
        let sections = [GroupId::new("girls")];
        let none = BTreeSet::new();
        let rows =
            list_rows_excluding(&st, &event, &PrizeFilter::default(), Some(&sections), &none);
        assert_eq!(places(&rows), vec![(2, Some(1), false)]);
        let excluded: BTreeSet<PlayerId> = [PlayerId(1)].into();
        let rows = list_rows_excluding(&st, &event, &PrizeFilter::default(), None, &excluded);
        assert_eq!(
            places(&rows),
            vec![(2, Some(1), false), (3, Some(2), false)]
        );
    }
}
