//! Ranking a pool: 积分, then the rulebook's tiebreaks in order (CXA 2011 §14.3), then its
//! fallback (docs/rules.md §5.5), then shared places, lot, number or a playoff (docs/rules.md §7).

use super::values::{PoolData, withdrawn_after};
use super::{DecidedBy, PlayerTiebreaks, StandingRow, Standings};
use crate::model::{Event, GroupId, PlayerId};
use crate::rulebook::{Fallback, Rulebook, TieResolution, Tiebreak, UnresolvedFirst};
use crate::scoring::Rows;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::cmp::Reverse;
use std::collections::BTreeMap;

/// The round standings are computed after when none is given: the newest round whose
/// results are all in, else the newest round, else 0.
pub(crate) fn resolve_round(event: &Event, group: &GroupId, after_round: Option<u32>) -> u32 {
    let Some(state) = event.group(group) else {
        return 0;
    };
    let last = state.rounds.iter().map(|r| r.number).max().unwrap_or(0);
    match after_round {
        Some(n) => n.min(last),
        None => state
            .rounds
            .iter()
            .filter(|r| r.is_complete())
            .map(|r| r.number)
            .max()
            .unwrap_or(last),
    }
}

/// The standings of a pool after `after_round` (default: the newest round with every
/// result in, else the newest round; a number beyond the newest round is clamped to it).
///
/// Ranked players are those not marked `unranked` and, when the rulebook says withdrawn
/// players take no place (`conduct.withdrawn_ranked = false`), not withdrawn; the others
/// get `rank: None` and come last, by score. Ties left after every key and the fallback
/// are settled by `ranking.unresolved`, except for places before
/// `ranking.shared_from_place`, which are never shared: there `ranking.unresolved_first`
/// applies (a playoff flag, lot or number), and a recorded [`crate::model::Playoff`] over
/// exactly the tied players orders them when `after_round` is the pool's newest round.
/// `needs_playoff` is only set once the pool's scheduled rounds are all played; before
/// that such a tie shows as a shared place.
///
/// A lot shuffles the tied players (sorted by id) with a `ChaCha8Rng` seeded from the
/// pool's recorded seed (`GroupState::seed`, 0 when none) mixed with the round and the
/// first place the tie covers, so the same state always gives the same order.
///
/// A pool that places nobody (see [`places_nobody`]: cancelled, or no result entered in
/// its rounds up to `after_round`) lists every player with `rank: None`, by score then
/// registration: a place, and so a prize or a title, is never given on no game at all.
pub fn compute_standings(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    after_round: Option<u32>,
) -> Standings {
    let n = resolve_round(event, group, after_round);
    let mut st = ranked_standings(event, rules, group, n);
    if places_nobody(event, group, n) {
        for row in &mut st.rows {
            row.rank = None;
            row.shared = false;
            row.needs_playoff = false;
            row.decided_by = None;
        }
        st.rows.sort_by_key(|r| (Reverse(r.score), r.player));
    }
    st
}

/// Whether the standings of `group` after round `n` place nobody: the pool was cancelled
/// (`qiwang group cancel`: its players were withdrawn before any game), or no game of its
/// rounds up to `n` has a result yet (before round 1, or round 1 paired and nothing
/// entered), so every player stands level on nothing played (docs/rules.md "Group sizes",
/// §7.3).
fn places_nobody(event: &Event, group: &GroupId, n: u32) -> bool {
    event.is_cancelled(group)
        || event
            .group(group)
            .is_none_or(|g| !g.rounds.iter().any(|r| r.number <= n && r.has_results()))
}

/// [`compute_standings`] after round `n` (already resolved), before the check that the
/// pool places anybody.
fn ranked_standings(event: &Event, rules: &Rulebook, group: &GroupId, n: u32) -> Standings {
    // A knockout is placed by its bracket (docs/rules.md §16.4); a final stage's
    // finalists too, once it has begun, the others by the Swiss ranking (§16.6).
    if rules.is_knockout(group) {
        return super::knockout::standings(event, rules, group, n);
    }
    if let Some(swiss) = rules.stage_after(group) {
        if n > swiss && crate::schedule::bracket::stage_started(event, rules, group) {
            if rules.round_robin_stage(group).is_some() {
                return super::stage::stage_standings(event, rules, group, swiss, n);
            }
            return super::knockout::stage_standings(event, rules, group, swiss, n);
        }
        return swiss_part(event, rules, group, n.min(swiss));
    }
    let mut cache = BTreeMap::new();
    // A round robin's own chain and annulled games (docs/rules.md §14.3–§14.4).
    let rules = super::ranking_rules(rules, group);
    let event = super::ranked_event(event, &rules, group);
    rank_pool(&event, &rules, group, n, true, &mut cache)
}

/// The Swiss ranking of a pool with a final stage after round `n` (at most its last
/// Swiss round): the rounds of the stage never count in it.
pub(super) fn swiss_part(event: &Event, rules: &Rulebook, group: &GroupId, n: u32) -> Standings {
    let mut cache = BTreeMap::new();
    // A round robin's own chain and annulled games (docs/rules.md §14.3–§14.4).
    let rules = super::ranking_rules(rules, group);
    let event = super::ranked_event(event, &rules, group);
    rank_pool(&event, &rules, group, n, true, &mut cache)
}

/// The last place of the pool's standings a prize, title or qualification is given for
/// by a list ranking the whole pool (`None` when no such list exists: then every place
/// may matter). A filtered list (girls, 本地) places players by its own order, which the
/// prize sheet settles itself.
fn prized_places(rules: &Rulebook, group: &GroupId) -> Option<u32> {
    let whole = crate::rulebook::PrizeFilter::default();
    rules
        .prizes
        .lists
        .iter()
        .filter(|l| &l.group == group && l.filter == whole)
        .flat_map(|l| l.places.iter().map(|p| p.to))
        .max()
}

/// Previous-round ranks already computed for the S10 fallback, keyed by round.
type RankCache = BTreeMap<u32, BTreeMap<PlayerId, Option<u32>>>;

/// The pool's players by row, in id order: their values, key values and how their tie
/// was settled are vectors indexed by row. The ranking looks every tied player up at each
/// key and each fallback round, and those lookups in maps keyed by id were about a third
/// of ranking 100,000 players.
struct Table<'d> {
    rows: Rows,
    values: Vec<&'d PlayerTiebreaks>,
    /// The rulebook's key values, in its order (直胜 and 相互间成绩 filled in while
    /// ranking).
    tiebreaks: Vec<Vec<Option<i64>>>,
    decided_by: Vec<Option<DecidedBy>>,
}

impl<'d> Table<'d> {
    fn new(data: &'d PoolData, keys: &[Tiebreak]) -> Self {
        let ids: Vec<PlayerId> = data.values.keys().copied().collect();
        let values: Vec<&PlayerTiebreaks> = data.values.values().collect();
        Table {
            rows: Rows::new(&ids),
            tiebreaks: values
                .iter()
                .map(|v| keys.iter().map(|k| static_value(v, *k)).collect())
                .collect(),
            decided_by: vec![None; values.len()],
            values,
        }
    }

    fn at(&self, id: PlayerId) -> usize {
        row_of(&self.rows, id)
    }

    fn value(&self, id: PlayerId) -> &'d PlayerTiebreaks {
        self.values[self.at(id)]
    }

    fn key(&self, id: PlayerId, i: usize) -> Option<i64> {
        self.tiebreaks[self.at(id)][i]
    }

    fn set_key(&mut self, id: PlayerId, i: usize, value: i64) {
        if let Some(row) = self.rows.of(id) {
            self.tiebreaks[row][i] = Some(value);
        }
    }

    fn decide(&mut self, id: PlayerId, how: DecidedBy) {
        let row = self.at(id);
        self.decided_by[row] = Some(how);
    }
}

/// The row of a player of the pool: every pool player has values (as indexing the map
/// of values assumed before).
fn row_of(rows: &Rows, id: PlayerId) -> usize {
    rows.of(id)
        .unwrap_or_else(|| panic!("player {id} is not in the pool's values"))
}

/// Ranks one pool after round `n`. `published` is false when the ranking only serves the
/// previous-round-rank fallback: then unresolved ties are simply shared and playoffs are
/// ignored.
fn rank_pool(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    n: u32,
    published: bool,
    cache: &mut RankCache,
) -> Standings {
    let data = PoolData::new(event, rules, group, n);
    let ranking = &rules.ranking;
    let keys = &ranking.tiebreaks;
    let mut table = Table::new(&data, keys);

    // A disqualified player (取消比赛资格, Jinhua 补充规定 五.5) takes no place at all.
    let is_ranked = |id: PlayerId| {
        data.event.player(id).is_some_and(|p| {
            !p.unranked
                && !p.is_disqualified()
                && (ranking_allows_withdrawn(rules) || !withdrawn_after(p, n))
        })
    };
    let ranked: Vec<PlayerId> = data
        .players
        .iter()
        .map(|p| p.id)
        .filter(|id| is_ranked(*id))
        .collect();

    // 积分, more is better (CXA 2011 §14.3).
    let mut classes = split(vec![ranked], |id| Reverse(table.value(id).score));

    // The rulebook's keys in order (CXA 2011 §14.3.1 / §14.3.2, docs/rules.md §5.3).
    for (i, key) in keys.iter().enumerate() {
        classes = match key {
            Tiebreak::DirectEncounter => classes
                .into_iter()
                .flat_map(|class| direct_encounter(&data, class, i, &mut table))
                .collect(),
            Tiebreak::Mutual => classes
                .into_iter()
                .flat_map(|class| mutual(&data, class, i, &mut table))
                .collect(),
            Tiebreak::Fouls => split(classes, |id| table.key(id, i)),
            _ => split(classes, |id| Reverse(table.key(id, i))),
        };
    }

    // docs/rules.md §5.5 fallbacks.
    match ranking.fallback {
        Fallback::None => {}
        Fallback::PrevRoundCumulative => {
            // CXA 2011 §14.3.1 比较前一轮成绩: S_{n-1}, then S_{n-2}, … higher first.
            for k in (1..n).rev() {
                let label = DecidedBy::PrevRoundScore { round: k };
                let (values, rows) = (&table.values, &table.rows);
                let key = |id| Reverse(values[row_of(rows, id)].cumulative[(k - 1) as usize]);
                classes = split_labelled(classes, rows, &mut table.decided_by, label, key);
            }
        }
        Fallback::DropRoundsFromFirst => {
            // CXA 2011 §14.3.2 去除第一轮得分, 再去除第二轮: with S_n equal, the lower
            // p_1 ranks higher, then the lower p_2, … up to p_{n-1}.
            for k in 1..n {
                let label = DecidedBy::RoundDropped { round: k };
                let (values, rows) = (&table.values, &table.rows);
                let key = |id| values[row_of(rows, id)].round_points[(k - 1) as usize];
                classes = split_labelled(classes, rows, &mut table.decided_by, label, key);
            }
        }
        Fallback::PrevRoundRank => {
            // S10 比较前一轮名次: the rank after round n-1, then n-2, …
            for k in (1..n).rev() {
                if classes.iter().all(|c| c.len() < 2) {
                    break;
                }
                if !cache.contains_key(&k) {
                    let prev = rank_pool(event, rules, group, k, false, cache);
                    let ranks = prev.rows.iter().map(|r| (r.player, r.rank)).collect();
                    cache.insert(k, ranks);
                }
                let ranks = &cache[&k];
                let label = DecidedBy::PrevRoundRank { round: k };
                let key = |id| ranks.get(&id).copied().flatten().unwrap_or(u32::MAX);
                classes = split_labelled(classes, &table.rows, &mut table.decided_by, label, key);
            }
        }
    }

    // Unresolved ties: shared, lot, number, or the champion's playoff (docs/rules.md §7).
    let seed = event.group(group).and_then(|g| g.seed).unwrap_or(0);
    let newest = event
        .group(group)
        .and_then(|g| g.rounds.iter().map(|r| r.number).max())
        .unwrap_or(0);
    // A final stage's rounds come after the Swiss ranking its playoffs settle.
    let newest = rules.stage_after(group).map_or(newest, |s| newest.min(s));
    // The round after which the pool's ranking is final: its last round, or the last
    // Swiss round before a final stage.
    let end = rules
        .stage_after(group)
        .unwrap_or_else(|| crate::schedule::rounds_of(event, rules, group));
    // A lot (录取名次不并列) decides a tie only once the pool's last round is ranked, and
    // only where a prize or qualification depends on it: a tie reaching into the places
    // the pool's own prize lists give (all places when it has none). Interim standings
    // and ties below the prizes show the tie as a tie.
    let last_round = n >= end;
    let prized = prized_places(rules, group);
    let lot_decides = |place: u32| last_round && prized.is_none_or(|last| place <= last);
    let mut rows = Vec::new();
    let mut place = 1u32;
    for class in classes {
        let size = class.len() as u32;
        let mut out = Placing {
            table: &mut table,
            rows: &mut rows,
            place,
        };
        if size == 1 {
            out.ordered(class, None);
        } else if !published {
            out.shared(class, false);
        } else if (place < ranking.shared_from_place && !within_final(rules, group, place, size))
            || crosses_line(rules, group, place, size)
        {
            // 冠军不并列 (Dongguan 十一.3): never shared.
            let playoff = event.playoffs.iter().rev().find(|p| {
                &p.group == group && p.list.is_none() && n == newest && same_set(&p.order, &class)
            });
            match (playoff, ranking.unresolved_first) {
                (Some(playoff), _) => out.ordered(playoff.order.clone(), Some(DecidedBy::Playoff)),
                // A playoff is held after the last round; before it the tie shows shared.
                (None, UnresolvedFirst::Playoff) => out.shared(class, n >= end),
                (None, UnresolvedFirst::Lot) if lot_decides(place) => {
                    out.ordered(lot(class, seed, n, place), Some(DecidedBy::Lot));
                }
                (None, UnresolvedFirst::Lot) => out.shared(class, false),
                (None, UnresolvedFirst::Number) => {
                    let order = by_number(&data, class);
                    out.ordered(order, Some(DecidedBy::Number));
                }
            }
        } else {
            match ranking.unresolved {
                TieResolution::Shared => out.shared(class, false),
                TieResolution::Lot if lot_decides(place) => {
                    out.ordered(lot(class, seed, n, place), Some(DecidedBy::Lot));
                }
                TieResolution::Lot => out.shared(class, false),
                TieResolution::Number => {
                    let order = by_number(&data, class);
                    out.ordered(order, Some(DecidedBy::Number));
                }
            }
        }
        place += size;
    }

    // Players who take no place, by score then registration.
    let mut unranked: Vec<PlayerId> = data
        .players
        .iter()
        .map(|p| p.id)
        .filter(|id| !is_ranked(*id))
        .collect();
    unranked.sort_by_key(|id| (Reverse(table.value(*id).score), *id));
    for id in unranked {
        rows.push(row(&table, id, None, false));
    }

    Standings {
        group: group.clone(),
        after_round: n,
        open_tables: event.group(group).map_or(0, |g| g.open_games(n)),
        tiebreaks: keys.clone(),
        rows,
    }
}

/// Writes the rows of one tie class starting at `place`.
struct Placing<'a, 'd> {
    table: &'a mut Table<'d>,
    rows: &'a mut Vec<StandingRow>,
    place: u32,
}

impl Placing<'_, '_> {
    /// Distinct places in this order; `how` labels the decision, if not a key.
    fn ordered(&mut self, order: Vec<PlayerId>, how: Option<DecidedBy>) {
        for (j, id) in order.into_iter().enumerate() {
            if let Some(how) = how {
                self.table.decide(id, how);
            }
            let r = row(self.table, id, Some(self.place + j as u32), false);
            self.rows.push(r);
        }
    }

    /// One shared place ("3="); `needs_playoff` for an unshareable place.
    fn shared(&mut self, class: Vec<PlayerId>, needs_playoff: bool) {
        for id in class {
            let mut r = row(self.table, id, Some(self.place), true);
            r.needs_playoff = needs_playoff;
            self.rows.push(r);
        }
    }
}

/// Whether a tie lies wholly among a final stage's finalists: the final, not a playoff,
/// decides their places (冠军不并列 is the final's matter; docs/rules.md §16.6).
fn within_final(rules: &Rulebook, group: &GroupId, place: u32, size: u32) -> bool {
    rules
        .final_stage(group)
        .is_some_and(|f| place + size - 1 <= f.finalists)
}

/// Whether a tie covering places `place..place + size` straddles a final stage's line
/// (the last finalist's place inside, the next outside): it may not stay shared
/// (docs/rules.md §16.6).
fn crosses_line(rules: &Rulebook, group: &GroupId, place: u32, size: u32) -> bool {
    rules
        .final_stage(group)
        .is_some_and(|f| place <= f.finalists && place + size - 1 > f.finalists)
}

fn ranking_allows_withdrawn(rules: &Rulebook) -> bool {
    rules.conduct.withdrawn_ranked
}

/// A key's value for a player, independent of who else is tied (直胜 is filled in while
/// ranking).
fn static_value(v: &super::PlayerTiebreaks, key: Tiebreak) -> Option<i64> {
    let value = match key {
        Tiebreak::OppScore => i64::from(v.opp_score.0),
        Tiebreak::Progressive => i64::from(v.progressive.0),
        Tiebreak::Wins => i64::from(v.wins),
        Tiebreak::Fouls => i64::from(v.fouls),
        Tiebreak::BlackGames => i64::from(v.black_games),
        Tiebreak::BlackWins => i64::from(v.black_wins),
        Tiebreak::RedWins => i64::from(v.red_wins),
        Tiebreak::MedianOpp => i64::from(v.median_opp.0),
        Tiebreak::CutOpp => i64::from(v.cut_opp.0),
        Tiebreak::SonnebornBerger => v.sonneborn_berger,
        Tiebreak::DirectEncounter | Tiebreak::Mutual => return None,
    };
    Some(value)
}

/// 相互间成绩 (docs/rules.md §14.3): each tied player's points in the finished games among
/// all the players of the tie (a mini-table, so three or more tied players are compared
/// too); a player alone in a class keeps no value.
fn mutual(
    data: &PoolData,
    class: Vec<PlayerId>,
    key_index: usize,
    table: &mut Table,
) -> Vec<Vec<PlayerId>> {
    if class.len() < 2 {
        return vec![class];
    }
    let points: BTreeMap<PlayerId, i64> = class
        .iter()
        .map(|&a| {
            let sum = class
                .iter()
                .filter(|&&b| b != a)
                .filter_map(|&b| data.direct_points(a, b))
                .map(|p| i64::from(p.0))
                .sum();
            (a, sum)
        })
        .collect();
    for (id, value) in &points {
        table.set_key(*id, key_index, *value);
    }
    split(vec![class], |id| Reverse(points[&id]))
}

/// 直胜: only when exactly two players are tied (S15 「只比较仅有两人同分的情况」); the
/// value is the points each scored against the other.
fn direct_encounter(
    data: &PoolData,
    class: Vec<PlayerId>,
    key_index: usize,
    table: &mut Table,
) -> Vec<Vec<PlayerId>> {
    if class.len() != 2 {
        return vec![class];
    }
    let (a, b) = (class[0], class[1]);
    match (data.direct_points(a, b), data.direct_points(b, a)) {
        (Some(pa), Some(pb)) => {
            table.set_key(a, key_index, i64::from(pa.0));
            table.set_key(b, key_index, i64::from(pb.0));
            if pa == pb {
                vec![class]
            } else if pa > pb {
                vec![vec![a], vec![b]]
            } else {
                vec![vec![b], vec![a]]
            }
        }
        _ => vec![class],
    }
}

/// Splits every class by `key` (ascending; wrap in `Reverse` for "higher is better"),
/// keeping the classes' order; ties stay together in their previous order.
///
/// Each player's key is looked up once, not at every comparison: the keys read the
/// pool's maps, and for 100,000 players the lookups inside the sort were half the time
/// of the standings.
fn split<K: Ord>(classes: Vec<Vec<PlayerId>>, key: impl Fn(PlayerId) -> K) -> Vec<Vec<PlayerId>> {
    let mut out = Vec::new();
    let mut keyed: Vec<(K, PlayerId)> = Vec::new();
    for class in classes {
        if class.len() < 2 {
            out.push(class);
            continue;
        }
        keyed.extend(class.into_iter().map(|id| (key(id), id)));
        // Stable: equal keys keep their previous order.
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        let mut current: Vec<PlayerId> = Vec::new();
        let mut current_key: Option<K> = None;
        for (k, id) in keyed.drain(..) {
            if current_key.as_ref().is_some_and(|c| *c != k) {
                out.push(std::mem::take(&mut current));
            }
            current_key = Some(k);
            current.push(id);
        }
        out.push(current);
    }
    out
}

/// [`split`], labelling the members of every class the key separated.
fn split_labelled<K: Ord>(
    classes: Vec<Vec<PlayerId>>,
    rows: &Rows,
    decided_by: &mut [Option<DecidedBy>],
    label: DecidedBy,
    key: impl Fn(PlayerId) -> K,
) -> Vec<Vec<PlayerId>> {
    let mut out = Vec::new();
    for class in classes {
        if class.len() < 2 {
            out.push(class);
            continue;
        }
        let parts = split(vec![class], &key);
        if parts.len() > 1 {
            for id in parts.iter().flatten() {
                decided_by[row_of(rows, *id)] = Some(label);
            }
        }
        out.extend(parts);
    }
    out
}

fn same_set(order: &[PlayerId], class: &[PlayerId]) -> bool {
    let mut a = order.to_vec();
    let mut b = class.to_vec();
    a.sort();
    b.sort();
    a == b
}

/// A seeded lot (抽签) over the tied players.
pub(crate) fn lot(mut class: Vec<PlayerId>, seed: u64, round: u32, place: u32) -> Vec<PlayerId> {
    class.sort();
    let mixed = seed ^ (u64::from(round) << 32) ^ u64::from(place);
    let mut rng = ChaCha8Rng::seed_from_u64(mixed);
    class.shuffle(&mut rng);
    class
}

/// By pairing number (序号), lower first; players without a number after, by id.
fn by_number(data: &PoolData, mut class: Vec<PlayerId>) -> Vec<PlayerId> {
    class.sort_by_key(|id| {
        let number = data.event.player(*id).and_then(|p| p.number);
        (number.is_none(), number, *id)
    });
    class
}

fn row(table: &Table, id: PlayerId, rank: Option<u32>, shared: bool) -> StandingRow {
    let at = table.at(id);
    let v = table.values[at];
    StandingRow {
        player: id,
        rank,
        shared,
        score: v.score,
        penalty: v.penalty,
        tiebreaks: table.tiebreaks[at].clone(),
        needs_playoff: false,
        decided_by: table.decided_by[at],
        withdrawn: v.withdrawn,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GameResult, Outcome, Pairing, Round};

    fn ids(v: &[u32]) -> Vec<PlayerId> {
        v.iter().copied().map(PlayerId).collect()
    }

    #[test]
    fn split_keeps_class_order_and_groups_equal_keys() {
        let key = |id: PlayerId| Reverse(id.0 % 3);
        let got = split(vec![ids(&[1, 2, 3, 4, 5]), ids(&[6])], key);
        assert_eq!(got, vec![ids(&[2, 5]), ids(&[1, 4]), ids(&[3]), ids(&[6])]);
    }

    #[test]
    fn split_labelled_marks_only_separated_classes() {
        let players = ids(&[1, 2, 3, 5]);
        let rows = Rows::new(&players);
        let mut decided_by = vec![None; players.len()];
        let got = split_labelled(
            vec![ids(&[1, 2]), ids(&[3, 5])],
            &rows,
            &mut decided_by,
            DecidedBy::Lot,
            |id| id.0 % 2,
        );
        assert_eq!(got, vec![ids(&[2]), ids(&[1]), ids(&[3, 5])]);
        let labelled: Vec<PlayerId> = players
            .iter()
            .copied()
            .filter(|id| decided_by[row_of(&rows, *id)] == Some(DecidedBy::Lot))
            .collect();
        assert_eq!(labelled, ids(&[1, 2]));
    }

    #[test]
    fn lot_is_a_reproducible_permutation() {
        let a = lot(ids(&[4, 2, 9, 7]), 11, 3, 1);
        assert_eq!(a, lot(ids(&[9, 7, 4, 2]), 11, 3, 1));
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, ids(&[2, 4, 7, 9]));
    }

    #[test]
    fn default_round_is_the_newest_complete_one() {
        let group = GroupId::new("open");
        let mut event = Event::new(String::new());
        assert_eq!(resolve_round(&event, &group, None), 0);
        let game = |result| Pairing::Game {
            table: 1,
            red: PlayerId(1),
            black: PlayerId(2),
            result,
        };
        let state = event.group_mut(&group);
        state.rounds.push(Round {
            number: 1,
            pairings: vec![game(None)],
        });
        assert_eq!(
            resolve_round(&event, &group, None),
            1,
            "no complete round: the newest"
        );
        let state = event.group_mut(&group);
        state.rounds[0].pairings = vec![game(Some(GameResult::new(Outcome::Draw)))];
        state.rounds.push(Round {
            number: 2,
            pairings: vec![game(None)],
        });
        assert_eq!(resolve_round(&event, &group, None), 1);
        assert_eq!(resolve_round(&event, &group, Some(2)), 2);
        assert_eq!(resolve_round(&event, &group, Some(5)), 2);
    }
}
