//! One prize list's ranking: a pool's standings filtered (gender, disabled, local,
//! section) and re-placed within the list.
//!
//! Owns the filter and the re-placing; what `qiwang standings --list L` prints. It does
//! not rank (the standings' order and ties are taken as given) and knows nothing about
//! money.

use crate::model::{Event, GroupId, Pairing, Player, PlayerId};
use crate::rulebook::{
    PrizeFilter, PrizeList, QualificationTies, Rulebook, UnresolvedFirst, WithdrawnPrizes,
};
use crate::standings::{self, StandingRow, Standings};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Why a player of a list takes no place in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Exclusion {
    /// 取消比赛资格 (`qiwang player disqualify`): never ranked or awarded.
    Disqualified,
    /// Withdrawn, under `prizes.withdrawn = "unranked"`.
    Withdrawn,
    /// No game played over the board, under `prizes.withdrawn = "unranked_if_no_games"`.
    NoGames,
}

/// A player's line in a prize list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListRow {
    /// Place within the list (1-based); `None` for players who take no place (they are
    /// listed last, for reference).
    pub place: Option<u32>,
    /// Whether another player of the list holds the same place.
    pub shared: bool,
    /// The player's line in the pool's standings (overall rank, score, tiebreaks).
    pub row: StandingRow,
    /// Tied for a place of this list that is never shared (its first place carries a
    /// title, or 冠军不并列) with every round played and no playoff recorded: 需加赛.
    pub needs_playoff: bool,
    /// Tied across the list's qualification line under `qualification_ties = "playoff"`
    /// with no playoff recorded: nobody of the tie qualifies yet.
    pub qualification_playoff: bool,
    /// Set on the players of a tie across the qualification line that `next_tiebreak` or
    /// `lot` settled: whether this player takes one of the remaining qualifying places.
    pub qualifies: Option<bool>,
    /// How this list settled a tie the standings left (playoff, lot, number, 14.3.1).
    pub decided_by: Option<standings::DecidedBy>,
    /// Why the player takes no place in the list, if that is the reason for `place: None`.
    pub excluded: Option<Exclusion>,
}

impl ListRow {
    fn new(place: Option<u32>, shared: bool, row: &StandingRow) -> Self {
        ListRow {
            place,
            shared,
            row: row.clone(),
            needs_playoff: false,
            qualification_playoff: false,
            qualifies: None,
            decided_by: None,
            excluded: None,
        }
    }
}

/// The rows of `standings` whose players pass `filter`, placed within the list.
///
/// Places are counted inside the list: a player's place is one more than the number of
/// listed players with a strictly better overall rank, so ties keep their shared place
/// and the places after a tie are skipped as usual (overall 3=, 3=, 5 filtered to one of
/// the 3= and the 5 gives places 1, 2; both 3= give 1=, 1=, 3). Players the standings do
/// not place (`rank: None`) and disqualified players follow with `place: None`.
pub fn list_standings(standings: &Standings, event: &Event, filter: &PrizeFilter) -> Vec<ListRow> {
    place_rows(
        standings,
        event,
        |p| matches(p, filter, None),
        |p| p.is_disqualified().then_some(Exclusion::Disqualified),
    )
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

/// For each player, why they may not take a place in a prize list of `rules` over
/// `standings` (see `prizes.withdrawn`): disqualified always; withdrawn under `unranked`; under
/// `unranked_if_no_games`, no game played over the board by `standings.after_round` and
/// either withdrawn, or — not withdrawn — absent before their first game: once every
/// round of the pool is played, every round lost by their own forfeit (no bye, no win by
/// the opponent's forfeit). A present player whose games were all byes or opponents'
/// forfeits keeps her place. Nobody while the pool has no result yet.
pub(crate) fn exclusion<'a>(
    event: &'a Event,
    rules: &'a Rulebook,
    standings: &'a Standings,
) -> impl Fn(&Player) -> Option<Exclusion> + 'a {
    // Under `unranked_if_no_games`, every player's games are read once here: reading the
    // pool's rounds again for each player took `qiwang prizes` 24–48 s at 100,000 players.
    let games = (rules.prizes.withdrawn == WithdrawnPrizes::UnrankedIfNoGames)
        .then(|| games_by_player(event, standings))
        .flatten();
    let finished =
        standings.after_round >= crate::schedule::rounds_of(event, rules, &standings.group);
    move |player: &Player| {
        if player.is_disqualified() {
            return Some(Exclusion::Disqualified);
        }
        match rules.prizes.withdrawn {
            WithdrawnPrizes::Ranked => None,
            WithdrawnPrizes::Unranked => player.is_withdrawn().then_some(Exclusion::Withdrawn),
            WithdrawnPrizes::UnrankedIfNoGames => {
                // Nothing was played in the pool yet (or the standings were not computed
                // from its games): nobody can be judged on their games.
                let games = games.as_ref()?;
                let (played, won_unplayed) =
                    games.get(&player.id).copied().unwrap_or((false, false));
                // Withdrawn without a game over the board; or, not withdrawn, absent
                // before their first game: every round lost by their own forfeit once
                // all are played.
                let absent = finished && !won_unplayed;
                (!played && (player.is_withdrawn() || absent)).then_some(Exclusion::NoGames)
            }
        }
    }
}

/// Per player of `standings`' pool, up to its round: whether they played a game over the
/// board, and whether they won a round without playing (a bye, or the opponent's
/// forfeit). `None` when no game of those rounds has a result.
fn games_by_player(
    event: &Event,
    standings: &Standings,
) -> Option<BTreeMap<PlayerId, (bool, bool)>> {
    let n = standings.after_round;
    let rounds: Vec<&crate::model::Round> = event
        .group(&standings.group)
        .map(|g| g.rounds.iter().filter(|r| r.number <= n).collect())
        .unwrap_or_default();
    if !rounds.iter().any(|r| r.has_results()) {
        return None;
    }
    let mut out: BTreeMap<PlayerId, (bool, bool)> = BTreeMap::new();
    for r in rounds {
        for p in &r.pairings {
            match p {
                Pairing::Game {
                    red,
                    black,
                    result: Some(res),
                    ..
                } => {
                    for (id, colour) in [
                        (*red, crate::model::Colour::Red),
                        (*black, crate::model::Colour::Black),
                    ] {
                        let seen = out.entry(id).or_default();
                        seen.0 |= res.outcome.is_played();
                        seen.1 |= !res.outcome.is_played() && !res.outcome.forfeited_by(colour);
                    }
                }
                Pairing::Bye { player } => out.entry(*player).or_default().1 = true,
                Pairing::Game { result: None, .. } => {}
            }
        }
    }
    Some(out)
}

/// The list over the players for which `keep` holds; players for whom `excluded` gives a
/// reason take no place (the places pass down). Rows of unknown players are left out (a
/// standings row always names a registered player, so this only guards against a stale
/// standings value).
pub(crate) fn place_rows(
    standings: &Standings,
    event: &Event,
    keep: impl Fn(&Player) -> bool,
    excluded: impl Fn(&Player) -> Option<Exclusion>,
) -> Vec<ListRow> {
    let players: BTreeMap<PlayerId, &Player> = event.players.iter().map(|p| (p.id, p)).collect();
    let kept: Vec<(&StandingRow, Option<Exclusion>)> = standings
        .rows
        .iter()
        .filter_map(|r| {
            let p = players.get(&r.player).filter(|p| keep(p))?;
            Some((r, excluded(p)))
        })
        .collect();
    let mut ranked: Vec<&StandingRow> = kept
        .iter()
        .filter(|(r, ex)| r.rank.is_some() && ex.is_none())
        .map(|(r, _)| *r)
        .collect();
    // The standings give rows in rank order; a stable sort keeps their order inside a tie.
    ranked.sort_by_key(|r| r.rank);
    let mut out = Vec::with_capacity(kept.len());
    let mut start = 0;
    while start < ranked.len() {
        let tie = ranked[start..]
            .iter()
            .take_while(|r| r.rank == ranked[start].rank)
            .count();
        out.extend(
            ranked[start..start + tie]
                .iter()
                .map(|r| ListRow::new(Some(start as u32 + 1), tie > 1, r)),
        );
        start += tie;
    }
    for (r, ex) in kept
        .iter()
        .filter(|(r, ex)| r.rank.is_none() || ex.is_some())
    {
        let mut row = ListRow::new(None, false, r);
        row.excluded = *ex;
        out.push(row);
    }
    out
}

/// [`place_rows`] for a prize list, leaving out the players in `left_out` (those who
/// kept a higher prize elsewhere under `MultiplePrizes::HigherOnly`, or were merged in
/// from another group), then settling the ties the list may not keep ([`settle_ties`]).
pub(crate) fn list_rows_excluding(
    standings: &Standings,
    event: &Event,
    rules: &Rulebook,
    list: &PrizeList,
    sections: Option<&[GroupId]>,
    left_out: &BTreeSet<PlayerId>,
) -> Vec<ListRow> {
    let mut rows = place_rows(
        standings,
        event,
        |p| !left_out.contains(&p.id) && matches(p, &list.filter, sections),
        exclusion(event, rules, standings),
    );
    settle_ties(&mut rows, event, rules, list, standings);
    rows
}

/// Settles the ties of a list that may not stay shared.
///
/// **First place** (and any place before `ranking.shared_from_place`): a tie at the top
/// of the list is never shared when the list's first place carries a title or the
/// rulebook says 冠军不并列 (`shared_from_place` > 1). A playoff recorded for this list over
/// exactly the tied players orders them (places p, p+1, …). Otherwise
/// `ranking.unresolved_first` applies: `playoff` flags the tied players `needs_playoff`
/// once every round of the pool is played (before that the tie shows shared), `lot`
/// orders them by a seeded lot, `number` by pairing number.
///
/// **Qualification line**: a tie whose covered places are partly with and partly without
/// a qualification is settled by `prizes.qualification_ties`: `all_qualify` leaves it;
/// `next_tiebreak` and `lot` mark which tied players take the remaining qualifying
/// places (`qualifies`), the place and money staying shared; `playoff` marks the tied
/// players `qualification_playoff` until a playoff recorded for this list orders them.
pub(crate) fn settle_ties(
    rows: &mut [ListRow],
    event: &Event,
    rules: &Rulebook,
    list: &PrizeList,
    standings: &Standings,
) {
    let pool = &standings.group;
    let n = standings.after_round;
    let finished = n >= crate::schedule::rounds_of(event, rules, pool);
    let seed = event.group(pool).and_then(|g| g.seed).unwrap_or(0);
    let prize = |q: u32| list.places.iter().find(|p| p.from <= q && q <= p.to);
    let qualifies = |q: u32| prize(q).is_some_and(|p| p.qualification.is_some());
    let ranked = rows.iter().take_while(|r| r.place.is_some()).count();
    let mut i = 0;
    while i < ranked {
        let p = rows[i].place.unwrap_or(0);
        let k = rows[i..ranked]
            .iter()
            .take_while(|r| r.place == Some(p))
            .count();
        let run = i..i + k;
        i += k;
        if k < 2 {
            continue;
        }
        let ids: Vec<PlayerId> = rows[run.clone()].iter().map(|r| r.row.player).collect();
        let last = p + k as u32 - 1;
        let unshareable = p < rules.ranking.shared_from_place
            || (p == 1 && prize(1).is_some_and(|x| x.title.is_some()));
        let straddles = qualifies(p) && !qualifies(last);
        let line_playoff =
            straddles && rules.prizes.qualification_ties == QualificationTies::Playoff;
        if unshareable || line_playoff {
            let recorded = event.playoffs.iter().rev().find(|pl| {
                pl.list.as_deref() == Some(list.id.as_str()) && same_set(&pl.order, &ids)
            });
            if let Some(pl) = recorded.filter(|_| finished) {
                if unshareable {
                    reorder(&mut rows[run], &pl.order, p, standings::DecidedBy::Playoff);
                } else {
                    // A playoff across the qualification line decides only who qualifies:
                    // the place, its money and awards stay shared (like `next_tiebreak`).
                    let slots = (p..=last).filter(|q| qualifies(*q)).count();
                    mark_qualifiers(
                        &mut rows[run],
                        &pl.order,
                        slots,
                        standings::DecidedBy::Playoff,
                    );
                }
                continue;
            }
        }
        if unshareable {
            match rules.ranking.unresolved_first {
                UnresolvedFirst::Playoff => {
                    for r in &mut rows[run.clone()] {
                        r.needs_playoff = finished;
                    }
                }
                UnresolvedFirst::Lot => {
                    let order = standings::lot(ids.clone(), seed, n, p);
                    reorder(&mut rows[run.clone()], &order, p, standings::DecidedBy::Lot);
                    continue;
                }
                UnresolvedFirst::Number => {
                    let order = by_number(event, ids.clone());
                    reorder(
                        &mut rows[run.clone()],
                        &order,
                        p,
                        standings::DecidedBy::Number,
                    );
                    continue;
                }
            }
        }
        if !straddles {
            continue;
        }
        // Qualifying places covered by the tie.
        let slots = (p..=last).filter(|q| qualifies(*q)).count();
        let order = match rules.prizes.qualification_ties {
            QualificationTies::AllQualify => continue,
            QualificationTies::Playoff => {
                for r in &mut rows[run.clone()] {
                    r.qualification_playoff = finished;
                }
                continue;
            }
            QualificationTies::Lot => (
                standings::lot(ids.clone(), seed, n, p),
                standings::DecidedBy::Lot,
            ),
            QualificationTies::NextTiebreak => {
                let values = standings::tiebreak_values(event, rules, pool, Some(n));
                let mut order = by_number(event, ids.clone());
                // CXA 2011 §14.3.1: S_{n-1} higher first, then S_{n-2}, …; then number.
                order.sort_by_key(|id| {
                    let cumulative = values.get(id).map_or(&[][..], |v| &v.cumulative[..]);
                    let before_last = &cumulative[..cumulative.len().saturating_sub(1)];
                    before_last
                        .iter()
                        .rev()
                        .map(|s| std::cmp::Reverse(s.0))
                        .collect::<Vec<_>>()
                });
                (
                    order,
                    standings::DecidedBy::PrevRoundScore {
                        round: n.saturating_sub(1),
                    },
                )
            }
        };
        let (order, how) = order;
        mark_qualifiers(&mut rows[run], &order, slots, how);
    }
}

/// Marks which players of a tie across the qualification line take the `slots`
/// qualifying places: the first `slots` of `order`. Places stay shared.
fn mark_qualifiers(
    rows: &mut [ListRow],
    order: &[PlayerId],
    slots: usize,
    how: standings::DecidedBy,
) {
    for r in rows {
        let pos = order
            .iter()
            .position(|id| *id == r.row.player)
            .unwrap_or(usize::MAX);
        r.qualifies = Some(pos < slots);
        r.decided_by = Some(how);
    }
}

/// Gives the rows of one tie distinct places in `order`, starting at `place`.
fn reorder(rows: &mut [ListRow], order: &[PlayerId], place: u32, how: standings::DecidedBy) {
    rows.sort_by_key(|r| order.iter().position(|id| *id == r.row.player));
    for (j, r) in rows.iter_mut().enumerate() {
        r.place = Some(place + j as u32);
        r.shared = false;
        r.needs_playoff = false;
        r.decided_by = Some(how);
    }
}

fn same_set(order: &[PlayerId], ids: &[PlayerId]) -> bool {
    let a: BTreeSet<PlayerId> = order.iter().copied().collect();
    let b: BTreeSet<PlayerId> = ids.iter().copied().collect();
    a == b && order.len() == ids.len()
}

/// By pairing number (序号), lower first; players without a number after, by id.
fn by_number(event: &Event, mut ids: Vec<PlayerId>) -> Vec<PlayerId> {
    ids.sort_by_key(|id| {
        let number = event.player(*id).and_then(|p| p.number);
        (number.is_none(), number, *id)
    });
    ids
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
            open_tables: 0,
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
        let mut rules = Rulebook::cxa_2011("t", 7);
        rules.prizes.withdrawn = WithdrawnPrizes::Ranked;
        let all = PrizeList {
            id: "open".into(),
            name: "open".into(),
            group: GroupId::new("open"),
            filter: PrizeFilter::default(),
            places: Vec::new(),
            by_gender: None,
        };
        let rows = list_rows_excluding(&st, &event, &rules, &all, Some(&sections), &none);
        assert_eq!(places(&rows), vec![(2, Some(1), false)]);
        let excluded: BTreeSet<PlayerId> = [PlayerId(1)].into();
        let rows = list_rows_excluding(&st, &event, &rules, &all, None, &excluded);
        assert_eq!(
            places(&rows),
            vec![(2, Some(1), false), (3, Some(2), false)]
        );
    }
}
