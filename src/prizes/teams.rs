//! Team ranking from individual results (团体, 队员总分制; docs/rules.md §8): a unit's best N
//! players of a pool, by rank sum or point sum, with the rulebook's tiebreaks.
//!
//! Owns choosing the counted members, the metric, the tiebreak values, the seeded lot
//! and the rule for units short of N ranked players. It reads the standings as given
//! and never ranks players itself.

use crate::model::{Event, GroupId, Pairing, Player, PlayerId, Points};
use crate::rulebook::{ShortTeam, TeamCompetition, TeamMetric, TeamTiebreak, Tiebreak};
use crate::standings::{StandingRow, Standings};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// A counted member of a unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamMember {
    /// The member.
    pub player: PlayerId,
    /// The member's name.
    pub name: String,
    /// Overall rank in the pool.
    pub rank: u32,
    /// The member's score.
    pub score: Points,
}

/// One unit's line in the team ranking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamRow {
    /// 1-based; units no key separates share a place.
    pub place: u32,
    /// Whether units no key separates share the place.
    pub shared: bool,
    /// The unit's name as registered.
    pub unit: String,
    /// The counted members, best first.
    pub members: Vec<TeamMember>,
    /// Missing members padded under `ShortTeam::Pad` (each counts as rank = ranked
    /// entrants + 1, or 0 points).
    pub padded: u32,
    /// Rank sum (lower is better) or point sum (higher is better), per `metric`.
    pub value: i64,
    /// The competition's tiebreak values in its order: `BestIndividualRank` shows the
    /// best counted rank (the comparison goes on to the second best, …), `Lot` the lot
    /// number (lower first).
    pub tiebreaks: Vec<Option<i64>>,
}

/// A unit left out of the ranking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExcludedUnit {
    /// The unit's name as registered.
    pub unit: String,
    /// Ranked players the unit has in the pool.
    pub ranked: u32,
    /// Ranked players the competition counts (`best_n`).
    pub needed: u32,
    /// Why the unit is left out, for the sheet.
    pub reason: String,
}

/// The team ranking of one [`TeamCompetition`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamRanking {
    /// The competition's id (matches `TeamCompetition::id`).
    pub id: String,
    /// The competition's name as printed.
    pub name: String,
    /// The pool it ranks.
    pub group: GroupId,
    /// The pool whose standings it was ranked from (`group`'s pool when `group` is a
    /// section of it).
    pub pool: GroupId,
    /// The round those standings are after.
    pub after_round: u32,
    /// Rank sum or point sum.
    pub metric: TeamMetric,
    /// How many of each unit's players count.
    pub best_n: u32,
    /// The keys that separate units with the same value, in order.
    pub tiebreaks: Vec<TeamTiebreak>,
    /// Units in place order.
    pub rows: Vec<TeamRow>,
    /// Units short of `best_n` ranked players under `ShortTeam::Exclude`, by unit name.
    pub excluded: Vec<ExcludedUnit>,
}

/// Ranks the units of `standings` per `team`.
///
/// * Members are the unit's players with a place in the standings (`rank: Some`); players
///   without a unit, or entered as 个人/个人赛, belong to no unit. When `team.group` is not
///   the standings' pool (a section, or a group merged into the pool), only players
///   registered under that section count.
/// * The best `best_n` members by rank are counted. `RankSum` adds their ranks (a shared
///   rank counts as the shared place), lower first; `PointSum` adds their scores, higher
///   first (docs/rules.md §8, S10/S14/S15).
/// * Short units: `Exclude` lists them in `excluded`; `Pad` counts each missing member as
///   rank = ranked entrants + 1 (RankSum) or 0 points (PointSum).
/// * Tiebreaks in the competition's order: `BestIndividualRank` compares the best counted
///   rank, then the second best, …; `OppScoreSum` and `PointSum` add the counted members'
///   对手分 / points (higher first; padded members add 0); `Lot` draws a seeded lot.
///   Units still equal share the place.
///
/// 对手分 comes from the standings when its tiebreaks include `OppScore`. Otherwise it is
/// computed here as the sum, over the member's games in rounds up to
/// `standings.after_round`, of each opponent's total in the same standings (penalties
/// deducted, forfeited games included, a bye adds nothing).
///
/// The lot is a permutation of all unit names (sorted) drawn with `ChaCha8Rng` seeded by
/// the pool's recorded seed (0 if none) mixed with the competition id, so it is the same
/// every time the ranking is computed.
pub fn team_ranking(standings: &Standings, event: &Event, team: &TeamCompetition) -> TeamRanking {
    let section_only = team.group != standings.group;
    let ranked_rows: Vec<&StandingRow> =
        standings.rows.iter().filter(|r| r.rank.is_some()).collect();
    let entrants = ranked_rows.len() as u32;
    let players: BTreeMap<PlayerId, &Player> = event.players.iter().map(|p| (p.id, p)).collect();
    // Keyed by the stored unit (`Event::team_unit`: the same teams and lot when an output
    // masks a unit), each with the unit as shown and its ranked members.
    let mut units: BTreeMap<&str, (&str, Vec<&StandingRow>)> = BTreeMap::new();
    for row in &ranked_rows {
        let Some(player) = players.get(&row.player) else {
            continue;
        };
        if section_only && player.section.as_ref() != Some(&team.group) {
            continue;
        }
        let unit = event.team_unit(player).trim();
        if unit.is_empty() || unit == "个人" || unit == "个人赛" {
            continue;
        }
        units
            .entry(unit)
            .or_insert_with(|| (player.unit.trim(), Vec::new()))
            .1
            .push(row);
    }

    let opp_index = standings
        .tiebreaks
        .iter()
        .position(|t| *t == Tiebreak::OppScore);
    let lots = draw_lots(event, standings, team, units.keys().copied());

    let mut excluded = Vec::new();
    let mut candidates: Vec<Candidate> = Vec::new();
    for (key, (shown, mut rows)) in units {
        let unit = shown.to_string();
        rows.sort_by_key(|r| r.rank);
        let ranked = rows.len() as u32;
        if ranked < team.best_n && team.short_team == ShortTeam::Exclude {
            excluded.push(ExcludedUnit {
                unit,
                ranked,
                needed: team.best_n,
                reason: format!(
                    "only {ranked} of the best {} ranked in `{}`",
                    crate::i18n::plural(team.best_n, "player", "players"),
                    standings.group
                ),
            });
            continue;
        }
        rows.truncate(team.best_n as usize);
        let padded = team.best_n - rows.len() as u32;
        let members: Vec<TeamMember> = rows
            .iter()
            .map(|r| TeamMember {
                player: r.player,
                name: players
                    .get(&r.player)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
                rank: r.rank.unwrap_or(entrants + 1),
                score: r.score,
            })
            .collect();
        let mut ranks: Vec<u32> = members.iter().map(|m| m.rank).collect();
        ranks.extend(std::iter::repeat_n(entrants + 1, padded as usize));
        let value = match team.metric {
            TeamMetric::RankSum => ranks.iter().map(|&r| i64::from(r)).sum(),
            TeamMetric::PointSum => members.iter().map(|m| i64::from(m.score.0)).sum(),
        };
        let keys: Vec<Key> = team
            .tiebreaks
            .iter()
            .map(|tb| match tb {
                TeamTiebreak::BestIndividualRank => Key::Ranks(ranks.clone()),
                TeamTiebreak::OppScoreSum => Key::Higher(
                    rows.iter()
                        .map(|r| opp_score(r, opp_index, standings, event))
                        .sum(),
                ),
                TeamTiebreak::PointSum => {
                    Key::Higher(members.iter().map(|m| i64::from(m.score.0)).sum())
                }
                TeamTiebreak::Lot => Key::Lower(lots.get(key).copied().unwrap_or(0)),
            })
            .collect();
        candidates.push(Candidate {
            row: TeamRow {
                place: 0,
                shared: false,
                tiebreaks: keys.iter().map(Key::shown).collect(),
                unit,
                members,
                padded,
                value,
            },
            keys,
        });
    }

    let metric = team.metric;
    let compare = |a: &Candidate, b: &Candidate| -> Ordering {
        let by_metric = match metric {
            TeamMetric::RankSum => a.row.value.cmp(&b.row.value),
            TeamMetric::PointSum => b.row.value.cmp(&a.row.value),
        };
        by_metric.then_with(|| {
            a.keys
                .iter()
                .zip(&b.keys)
                .map(|(x, y)| x.compare(y))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
    };
    // Unit names break nothing: equal units share a place and are listed by name, which
    // the stable sort keeps from the BTreeMap order.
    candidates.sort_by(compare);
    let mut rows: Vec<TeamRow> = Vec::with_capacity(candidates.len());
    for i in 0..candidates.len() {
        let place = if i > 0 && compare(&candidates[i - 1], &candidates[i]).is_eq() {
            rows[i - 1].place
        } else {
            i as u32 + 1
        };
        let shared = (i > 0 && compare(&candidates[i - 1], &candidates[i]).is_eq())
            || (i + 1 < candidates.len() && compare(&candidates[i], &candidates[i + 1]).is_eq());
        let mut row = candidates[i].row.clone();
        row.place = place;
        row.shared = shared;
        rows.push(row);
    }

    TeamRanking {
        id: team.id.clone(),
        name: team.name.clone(),
        group: team.group.clone(),
        pool: standings.group.clone(),
        after_round: standings.after_round,
        metric: team.metric,
        best_n: team.best_n,
        tiebreaks: team.tiebreaks.clone(),
        rows,
        excluded,
    }
}

struct Candidate {
    row: TeamRow,
    keys: Vec<Key>,
}

/// A tiebreak value with its direction.
enum Key {
    /// Counted ranks, best first: compared lexicographically, lower first.
    Ranks(Vec<u32>),
    Higher(i64),
    Lower(i64),
}

impl Key {
    fn compare(&self, other: &Key) -> Ordering {
        match (self, other) {
            (Key::Ranks(a), Key::Ranks(b)) => a.cmp(b),
            (Key::Higher(a), Key::Higher(b)) => b.cmp(a),
            (Key::Lower(a), Key::Lower(b)) => a.cmp(b),
            _ => Ordering::Equal,
        }
    }

    fn shown(&self) -> Option<i64> {
        match self {
            Key::Ranks(r) => r.first().map(|&r| i64::from(r)),
            Key::Higher(v) | Key::Lower(v) => Some(*v),
        }
    }
}

/// A member's 对手分: the standings' value when they carry it, else the sum of the
/// opponents' totals in these standings over the member's games up to `after_round`.
fn opp_score(row: &StandingRow, index: Option<usize>, standings: &Standings, event: &Event) -> i64 {
    if let Some(v) = index.and_then(|i| row.tiebreaks.get(i).copied().flatten()) {
        return v;
    }
    let totals: BTreeMap<PlayerId, Points> =
        standings.rows.iter().map(|r| (r.player, r.score)).collect();
    let Some(state) = event.group(&standings.group) else {
        return 0;
    };
    state
        .rounds
        .iter()
        .filter(|r| r.number <= standings.after_round)
        .filter_map(|r| r.pairing_of(row.player))
        .filter_map(|p| match p {
            Pairing::Game { red, black, .. } => {
                let opp = if *red == row.player { *black } else { *red };
                totals.get(&opp).map(|t| i64::from(t.0))
            }
            Pairing::Bye { .. } => None,
        })
        .sum()
}

/// Lot numbers (1-based, lower first) for every unit, from a seeded shuffle of the
/// sorted stored unit names.
fn draw_lots<'a>(
    event: &Event,
    standings: &Standings,
    team: &TeamCompetition,
    units: impl Iterator<Item = &'a str>,
) -> BTreeMap<&'a str, i64> {
    let base = event
        .group(&standings.group)
        .and_then(|g| g.seed)
        .unwrap_or(0);
    let mut rng = ChaCha8Rng::seed_from_u64(base ^ fnv1a(team.id.as_bytes()));
    let mut names: Vec<&str> = units.collect();
    names.shuffle(&mut rng);
    names
        .into_iter()
        .enumerate()
        .map(|(i, n)| (n, i as i64 + 1))
        .collect()
}

/// FNV-1a: a stable hash (unlike `std`'s, it never changes between builds).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GameResult, Outcome, Player, Round};

    fn st_row(id: u32, rank: u32, score: i32) -> StandingRow {
        StandingRow {
            player: PlayerId(id),
            rank: Some(rank),
            shared: false,
            score: Points(score),
            penalty: Points(0),
            tiebreaks: Vec::new(),
            needs_playoff: false,
            decided_by: None,
            withdrawn: false,
        }
    }

    /// `(id, unit, rank, score)` in rank order.
    fn fixture(rows: &[(u32, &str, u32, i32)]) -> (Event, Standings) {
        let mut event = Event::new(String::new());
        for &(id, unit, _, _) in rows {
            let mut p = Player::new(PlayerId(id), format!("p{id}"), GroupId::new("adult"));
            p.unit = unit.to_string();
            event.players.push(p);
        }
        let standings = Standings {
            group: GroupId::new("adult"),
            after_round: 9,
            open_tables: 0,
            tiebreaks: Vec::new(),
            rows: rows
                .iter()
                .map(|&(id, _, rank, score)| st_row(id, rank, score))
                .collect(),
        };
        (event, standings)
    }

    fn comp(metric: TeamMetric, short: ShortTeam, tiebreaks: Vec<TeamTiebreak>) -> TeamCompetition {
        TeamCompetition {
            id: "team".into(),
            name: "成人团体".into(),
            group: GroupId::new("adult"),
            best_n: 3,
            metric,
            short_team: short,
            tiebreaks,
            places: Vec::new(),
        }
    }

    fn summary(t: &TeamRanking) -> Vec<(String, u32, bool, i64)> {
        t.rows
            .iter()
            .map(|r| (r.unit.clone(), r.place, r.shared, r.value))
            .collect()
    }

    /// Units holding phone numbers (a hand edit of the state) that the outputs mask alike
    /// (`138****8000`) and in another order than they sort stored: the masked event ranks
    /// the same teams, in the same places, with the same lot, as the stored one.
    #[test]
    fn a_masked_unit_ranks_as_the_stored_one() {
        let (event, st) = fixture(&[
            (1, "甲13811118000", 1, 16),
            (2, "甲13800138000", 2, 16),
            (3, "甲13811118000", 3, 13),
            (4, "甲13800138000", 4, 13),
            (5, "甲13811118000", 5, 11),
            (6, "甲13800138000", 6, 11),
            (7, "乙", 7, 9),
            (8, "乙", 8, 8),
            (9, "乙", 9, 7),
        ]);
        let mut masked = event.clone();
        assert!(crate::views::mask_names_and_units(&mut masked));
        assert_eq!(
            masked.players[0].unit, masked.players[1].unit,
            "masked alike"
        );
        // The two 甲 teams tie on points (40): the lot decides.
        let lot = comp(
            TeamMetric::PointSum,
            ShortTeam::Exclude,
            vec![TeamTiebreak::Lot],
        );
        for team in [lot, comp(TeamMetric::RankSum, ShortTeam::Exclude, vec![])] {
            let stored = team_ranking(&st, &event, &team);
            let shown = team_ranking(&st, &masked, &team);
            assert_eq!(shown.rows.len(), 3, "two teams masked alike stay two");
            let places = |t: &TeamRanking| -> Vec<_> {
                t.rows
                    .iter()
                    .map(|r| {
                        let ids: Vec<_> = r.members.iter().map(|m| m.player).collect();
                        (ids, r.place, r.shared, r.value, r.tiebreaks.clone())
                    })
                    .collect()
            };
            assert_eq!(places(&shown), places(&stored));
            assert!(
                shown.rows.iter().all(|r| !r.unit.contains("13800138000")),
                "{:?}",
                summary(&shown)
            );
        }
    }

    #[test]
    fn rank_sum_with_best_individual_rank_tiebreak() {
        // A: 1+6+7 = 14, best 1; B: 2+3+9 = 14, best 2; C: 4+5+8 = 17. D has 2 players.
        let (event, st) = fixture(&[
            (1, "A", 1, 16),
            (2, "B", 2, 14),
            (3, "B", 3, 13),
            (4, "C", 4, 12),
            (5, "C", 5, 11),
            (6, "A", 6, 10),
            (7, "A", 7, 9),
            (8, "C", 8, 8),
            (9, "B", 9, 7),
            (10, "D", 10, 6),
            (11, "D", 11, 5),
            (12, "A", 12, 4),
            (13, "", 13, 3),
        ]);
        let t = team_ranking(
            &st,
            &event,
            &comp(
                TeamMetric::RankSum,
                ShortTeam::Exclude,
                vec![TeamTiebreak::BestIndividualRank],
            ),
        );
        assert_eq!(
            summary(&t),
            vec![
                ("A".into(), 1, false, 14),
                ("B".into(), 2, false, 14),
                ("C".into(), 3, false, 17),
            ]
        );
        assert_eq!(t.rows[0].members.len(), 3, "only the best three count");
        assert_eq!(t.rows[0].tiebreaks, vec![Some(1)]);
        assert_eq!(t.excluded.len(), 1);
        assert_eq!(
            (t.excluded[0].unit.as_str(), t.excluded[0].ranked),
            ("D", 2)
        );

        // Pad: D's missing member counts as rank 14 (13 ranked entrants + 1): 10+11+14 = 35.
        let t = team_ranking(
            &st,
            &event,
            &comp(TeamMetric::RankSum, ShortTeam::Pad, vec![]),
        );
        assert_eq!(
            t.rows.last().map(|r| (r.unit.as_str(), r.value, r.padded)),
            Some(("D", 35, 1))
        );
        assert!(t.excluded.is_empty());
        // Without tiebreaks A and B share first place.
        assert_eq!((t.rows[0].place, t.rows[0].shared), (1, true));
        assert_eq!((t.rows[1].place, t.rows[1].shared), (1, true));
        assert_eq!(t.rows[2].place, 3);
    }

    #[test]
    fn point_sum_higher_first_and_pad_adds_zero() {
        let (event, st) = fixture(&[
            (1, "A", 1, 14),
            (2, "B", 2, 12),
            (3, "B", 3, 12),
            (4, "A", 4, 10),
            (5, "A", 5, 9),
        ]);
        let t = team_ranking(
            &st,
            &event,
            &comp(TeamMetric::PointSum, ShortTeam::Pad, vec![]),
        );
        assert_eq!(
            summary(&t),
            vec![("A".into(), 1, false, 33), ("B".into(), 2, false, 24)]
        );
    }

    #[test]
    fn opp_score_sum_from_games_when_standings_lack_it() {
        // A = {1, 4}, B = {2, 3}, best 2, points equal (2+2 each).
        let (mut event, mut st) = fixture(&[
            (1, "A", 1, 4),
            (2, "B", 1, 4),
            (3, "B", 3, 2),
            (4, "A", 3, 2),
            (5, "X", 5, 6),
        ]);
        // Player 5 is strong (6 points): whoever played 5 has the better 对手分.
        let game = |table, red, black| Pairing::Game {
            table,
            red: PlayerId(red),
            black: PlayerId(black),
            result: Some(GameResult::new(Outcome::Draw)),
        };
        event.group_mut(&GroupId::new("adult")).rounds = vec![Round {
            number: 1,
            pairings: vec![
                game(1, 1, 5),
                game(2, 2, 3),
                Pairing::Bye {
                    player: PlayerId(4),
                },
            ],
        }];
        let mut c = comp(
            TeamMetric::PointSum,
            ShortTeam::Exclude,
            vec![TeamTiebreak::OppScoreSum],
        );
        c.best_n = 2;
        let t = team_ranking(&st, &event, &c);
        // A: 6 (1 met 5) + 0 (4 had a bye) = 6; B: 2 (2 met 3) + 4 (3 met 2) = 6 → shared.
        assert_eq!(t.rows[0].tiebreaks, vec![Some(6)]);
        assert_eq!(t.rows[1].tiebreaks, vec![Some(6)]);
        assert!(t.rows[0].shared && t.rows[1].shared);
        // With the standings' 对手分 column the stored value is used instead.
        st.tiebreaks = vec![Tiebreak::OppScore];
        for (r, v) in st.rows.iter_mut().zip([10, 3, 3, 3, 0]) {
            r.tiebreaks = vec![Some(v)];
        }
        let t = team_ranking(&st, &event, &c);
        assert_eq!(summary(&t)[0], ("A".into(), 1, false, 6));
        assert_eq!(t.rows[0].tiebreaks, vec![Some(13)]);
    }

    #[test]
    fn lot_is_seeded_and_separates_every_unit() {
        let (mut event, st) = fixture(&[(1, "A", 1, 2), (2, "B", 1, 2), (3, "C", 1, 2)]);
        let mut c = comp(
            TeamMetric::RankSum,
            ShortTeam::Exclude,
            vec![TeamTiebreak::Lot],
        );
        c.best_n = 1;
        let first = team_ranking(&st, &event, &c);
        assert_eq!(first, team_ranking(&st, &event, &c), "same seed, same lot");
        let places: Vec<u32> = first.rows.iter().map(|r| r.place).collect();
        assert_eq!(places, vec![1, 2, 3]);
        let lots: Vec<Option<i64>> = first.rows.iter().map(|r| r.tiebreaks[0]).collect();
        assert_eq!(lots, vec![Some(1), Some(2), Some(3)], "rows follow the lot");
        // Different seeds give some other order for at least one seed of a handful.
        let orders: std::collections::BTreeSet<Vec<String>> = (1..8)
            .map(|seed| {
                event.group_mut(&GroupId::new("adult")).seed = Some(seed);
                team_ranking(&st, &event, &c)
                    .rows
                    .iter()
                    .map(|r| r.unit.clone())
                    .collect()
            })
            .collect();
        assert!(orders.len() > 1, "the seed drives the lot");
    }

    #[test]
    fn section_competition_counts_only_that_section() {
        let (mut event, st) = fixture(&[(1, "A", 1, 4), (2, "A", 2, 3), (3, "A", 3, 2)]);
        event.players[0].section = Some(GroupId::new("girls"));
        let mut c = comp(TeamMetric::RankSum, ShortTeam::Pad, vec![]);
        c.group = GroupId::new("girls");
        let t = team_ranking(&st, &event, &c);
        assert_eq!((t.rows[0].members.len(), t.rows[0].padded), (1, 2));
        // Padded ranks: 3 entrants + 1 = 4 each → 1 + 4 + 4.
        assert_eq!(t.rows[0].value, 9);
    }

    #[test]
    fn fnv1a_is_stable() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
