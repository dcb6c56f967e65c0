//! Per-player tiebreak values (docs/rules.md §5.3–§5.4), computed from the games of one pool
//! after a given round.
//!
//! Conventions (documented here once, cited by the ranker):
//! - `S_k` is the cumulative score after round `k` **with** the penalties given up to
//!   round `k` deducted, i.e. the score the standings after round `k` showed.
//!   The CXA 2011 §14.3.1 fallback compares them; 累进分 sums them only under
//!   `ranking.penalty_in_progressive = "from_round"` (default: the running totals of the
//!   game points, penalties left out).
//! - 对手分 uses every counted opponent's total at `after_round` **after** penalties.
//! - A game without a result yet counts for nothing (no opponent, no colour, no fouls).
//! - A player counts as withdrawn after round `n` when their withdrawal takes effect by
//!   round `n + 1` (they would not be paired in the next round).

use crate::model::{Colour, Event, GameResult, GroupId, Pairing, Player, PlayerId, Points};
use crate::rulebook::{ByeOppScore, PenaltyInProgressive, Rulebook};
use crate::scoring;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Every tiebreak value of one player, whether or not the rulebook uses the key, so
/// reports and independent checks can show and recompute them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerTiebreaks {
    /// The player's registration id.
    pub player: PlayerId,
    /// 积分 `S_n`, penalties deducted.
    pub score: Points,
    /// Points deducted by penalties up to `after_round`.
    pub penalty: Points,
    /// `p_1 … p_n`: points scored in each round, penalties not included.
    pub round_points: Vec<Points>,
    /// `S_1 … S_n`: cumulative score after each round, penalties given by then deducted.
    pub cumulative: Vec<Points>,
    /// 对手分: the sum of `opp_scores`.
    pub opp_score: Points,
    /// The opponents' totals that 对手分 sums, in round order (a bye's virtual opponent
    /// included, CXA 2011 §14.4).
    pub opp_scores: Vec<Points>,
    /// 累进分: Σ S_k, over game points only unless `ranking.penalty_in_progressive` is
    /// `from_round` (then Σ of `cumulative`).
    pub progressive: Points,
    /// 胜局 (forfeit wins and byes per the rulebook).
    pub wins: u32,
    /// 先手胜局.
    pub red_wins: u32,
    /// 后走胜局.
    pub black_wins: u32,
    /// 后走局数 (forfeited games per `colours.forfeit_counts`; byes never).
    pub black_games: u32,
    /// 犯规: fouls over the whole event (fewer is better).
    pub fouls: u32,
    /// 中间分: 对手分 without the highest and the lowest opponent.
    pub median_opp: Points,
    /// 扣除对手分: 对手分 without the lowest opponent.
    pub cut_opp: Points,
    /// 小分 in doubled units: Σ (points scored against an opponent × that opponent's
    /// total). Under 2/1/0 scoring this is twice the textbook value (beaten opponents'
    /// totals plus half the drawn ones'), which orders players identically and stays an
    /// integer.
    pub sonneborn_berger: i64,
    /// Withdrawn by round `after_round + 1`.
    pub withdrawn: bool,
}

/// What a player did in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Game {
        opponent: PlayerId,
        colour: Colour,
        table: u32,
        result: Option<GameResult>,
    },
    Bye,
    NotPaired,
}

/// The games of one pool up to a round, indexed per player.
pub(crate) struct PoolData<'a> {
    pub event: &'a Event,
    pub rules: &'a Rulebook,
    pub after_round: u32,
    /// Pool players in registration order.
    pub players: Vec<&'a Player>,
    /// Per player, one slot per round `1..=after_round`.
    pub slots: BTreeMap<PlayerId, Vec<Slot>>,
    /// Totals at `after_round`, penalties deducted.
    pub totals: BTreeMap<PlayerId, Points>,
    pub values: BTreeMap<PlayerId, PlayerTiebreaks>,
    round_points: BTreeMap<PlayerId, Vec<Points>>,
    penalties: scoring::Penalties,
    /// `totals` again, a row per player in id order found through `rows`: every game's
    /// opponent's total is looked up (900,000 lookups in the map for 100,000 players
    /// after round 9).
    rows: scoring::Rows,
    totals_by_row: Vec<Points>,
}

/// Whether a player's withdrawal has taken effect by round `after_round + 1`.
pub(crate) fn withdrawn_after(player: &Player, after_round: u32) -> bool {
    match &player.status {
        crate::model::PlayerStatus::Active => false,
        crate::model::PlayerStatus::Withdrawn { from_round, .. }
        | crate::model::PlayerStatus::Disqualified { from_round, .. } => {
            *from_round <= after_round + 1
        }
    }
}

/// Per player of the pool (`players`), one slot per round `1..=after_round`: what the
/// crosstable shows and the tiebreaks count.
pub(crate) fn slots(
    event: &Event,
    players: &[&Player],
    group: &GroupId,
    after_round: u32,
) -> BTreeMap<PlayerId, Vec<Slot>> {
    // A row per player in id order, found through `scoring::Rows` (a lookup in the map
    // for both players of every game was a tenth of the standings at 100,000 players).
    let mut ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let rows = scoring::Rows::new(&ids);
    let mut slots: Vec<Vec<Slot>> = vec![vec![Slot::NotPaired; after_round as usize]; ids.len()];
    if let Some(state) = event.group(group) {
        for round in state
            .rounds
            .iter()
            .filter(|r| r.number >= 1 && r.number <= after_round)
        {
            let k = (round.number - 1) as usize;
            for pairing in &round.pairings {
                match pairing {
                    Pairing::Game {
                        table,
                        red,
                        black,
                        result,
                    } => {
                        for (me, opponent, colour) in
                            [(*red, *black, Colour::Red), (*black, *red, Colour::Black)]
                        {
                            if let Some(row) = rows.of(me) {
                                slots[row][k] = Slot::Game {
                                    opponent,
                                    colour,
                                    table: *table,
                                    result: *result,
                                };
                            }
                        }
                    }
                    Pairing::Bye { player } => {
                        if let Some(row) = rows.of(*player) {
                            slots[row][k] = Slot::Bye;
                        }
                    }
                }
            }
        }
    }
    ids.into_iter().zip(slots).collect()
}

impl<'a> PoolData<'a> {
    pub fn new(
        event: &'a Event,
        rules: &'a Rulebook,
        group: &'a GroupId,
        after_round: u32,
    ) -> Self {
        let players: Vec<&Player> = event.players_in(group).collect();
        let slots = slots(event, &players, group, after_round);
        let round_points = scoring::round_points(event, &rules.scoring, group, after_round);
        let penalties = scoring::Penalties::of(event);
        let totals = scoring::totals_of(&rules.conduct, &penalties, &round_points, after_round);
        let ids: Vec<PlayerId> = totals.keys().copied().collect();
        let rows = scoring::Rows::new(&ids);
        let totals_by_row = totals.values().copied().collect();
        let mut data = PoolData {
            event,
            rules,
            after_round,
            players,
            slots,
            totals,
            values: BTreeMap::new(),
            round_points,
            penalties,
            rows,
            totals_by_row,
        };
        // Once per pool, not per player: it is a minimum over every total.
        let bye_opp = data.bye_opponent_score();
        data.values = data
            .players
            .iter()
            .map(|p| (p.id, data.compute(p, bye_opp)))
            .collect();
        data
    }

    pub fn total(&self, id: PlayerId) -> Points {
        self.rows
            .of(id)
            .and_then(|row| self.totals_by_row.get(row))
            .copied()
            .unwrap_or_default()
    }

    /// The virtual opponent's score for a bye (CXA 2011 §14.4: 有分棋手中的最低得分),
    /// over the pool's totals at `after_round`.
    pub fn bye_opponent_score(&self) -> Points {
        match self.rules.ranking.bye_opponent_score {
            ByeOppScore::Zero => Points(0),
            ByeOppScore::LowestOverall => self.totals.values().copied().min().unwrap_or_default(),
            ByeOppScore::LowestPositive => self
                .totals
                .values()
                .copied()
                .filter(|t| t.0 > 0)
                .min()
                .unwrap_or_default(),
        }
    }

    /// Withdrawn (not disqualified: the games of a disqualified player stay valid for
    /// the opponents' 对手分 whatever `withdrawn_games_kept` says, Jinhua 补充规定 五.5).
    fn is_withdrawn(&self, id: PlayerId) -> bool {
        self.event
            .player(id)
            .is_some_and(|p| !p.is_disqualified() && withdrawn_after(p, self.after_round))
    }

    /// Whether a finished game against `opponent` counts in 对手分 (and 小分).
    fn counts_for_opp_score(&self, result: &GameResult, opponent: PlayerId) -> bool {
        // docs/rules.md §5.4: forfeit opponents per `forfeit_opponent_in_opp_score`.
        if !result.outcome.is_played() && !self.rules.ranking.forfeit_opponent_in_opp_score {
            return false;
        }
        // Dongguan 十五.5 「对手分将保留」 unless the rulebook drops them.
        self.rules.conduct.withdrawn_games_kept || !self.is_withdrawn(opponent)
    }

    fn compute(&self, player: &Player, bye_opp: Points) -> PlayerTiebreaks {
        let ranking = &self.rules.ranking;
        let scoring_rules = &self.rules.scoring;
        let n = self.after_round;
        let round_points = self
            .round_points
            .get(&player.id)
            .cloned()
            .unwrap_or_else(|| vec![Points(0); n as usize]);
        let mut cumulative = Vec::with_capacity(n as usize);
        let mut running = Points(0);
        for (k, p) in round_points.iter().enumerate() {
            running += *p;
            let s_k = running - self.penalties.total(player.id, k as u32 + 1);
            cumulative.push(scoring::floored(&self.rules.conduct, s_k));
        }
        let penalty = self.penalties.total(player.id, n);
        let score = self.total(player.id);

        let mut v = PlayerTiebreaks {
            player: player.id,
            score,
            penalty,
            progressive: match ranking.penalty_in_progressive {
                PenaltyInProgressive::FromRound => cumulative.iter().copied().sum(),
                // Σ S_k over game points only (CXA 2011 §14.3): a penalty lowers 积分 alone.
                PenaltyInProgressive::None => round_points
                    .iter()
                    .scan(Points(0), |run, p| {
                        *run += *p;
                        Some(*run)
                    })
                    .sum(),
            },
            round_points,
            cumulative,
            opp_score: Points(0),
            opp_scores: Vec::new(),
            wins: 0,
            red_wins: 0,
            black_wins: 0,
            black_games: 0,
            fouls: 0,
            median_opp: Points(0),
            cut_opp: Points(0),
            sonneborn_berger: 0,
            withdrawn: withdrawn_after(player, n),
        };
        for slot in self.slots.get(&player.id).into_iter().flatten() {
            match *slot {
                Slot::NotPaired => {}
                Slot::Game { result: None, .. } => {}
                Slot::Bye => {
                    v.opp_scores.push(bye_opp);
                    if ranking.bye_counts_as_win {
                        v.wins += 1;
                    }
                }
                Slot::Game {
                    opponent,
                    colour,
                    result: Some(result),
                    ..
                } => {
                    v.fouls += result.fouls(colour);
                    let played = result.outcome.is_played();
                    if colour == Colour::Black
                        && result.outcome.assigns_colours()
                        && (played || self.rules.colours.forfeit_counts)
                    {
                        v.black_games += 1;
                    }
                    if result.outcome.winner() == Some(colour)
                        && (played || ranking.forfeit_counts_as_win)
                    {
                        v.wins += 1;
                        match colour {
                            Colour::Red => v.red_wins += 1,
                            Colour::Black => v.black_wins += 1,
                        }
                    }
                    if self.counts_for_opp_score(&result, opponent) {
                        let opp_total = match self.total(opponent) {
                            t if t < Points(0) && self.rules.conduct.negative_opp_score_as_zero => {
                                Points(0)
                            }
                            t => t,
                        };
                        v.opp_scores.push(opp_total);
                        let mine = scoring::game_points(&result, colour, scoring_rules);
                        v.sonneborn_berger += i64::from(mine.0) * i64::from(opp_total.0);
                    }
                }
            }
        }
        v.opp_score = v.opp_scores.iter().copied().sum();
        let max = v.opp_scores.iter().copied().max().unwrap_or_default();
        let min = v.opp_scores.iter().copied().min().unwrap_or_default();
        v.cut_opp = v.opp_score - min;
        v.median_opp = if v.opp_scores.len() >= 2 {
            v.opp_score - max - min
        } else {
            Points(0)
        };
        v
    }

    /// Points `a` scored against `b` in their finished games, `None` if they never met.
    pub fn direct_points(&self, a: PlayerId, b: PlayerId) -> Option<Points> {
        let mut met = false;
        let mut points = Points(0);
        for slot in self.slots.get(&a).into_iter().flatten() {
            if let Slot::Game {
                opponent,
                colour,
                result: Some(result),
                ..
            } = *slot
                && opponent == b
            {
                met = true;
                points += scoring::game_points(&result, colour, &self.rules.scoring);
            }
        }
        met.then_some(points)
    }
}

/// Every tiebreak value of every player of a pool after `after_round` (default as in
/// [`super::compute_standings`]), keyed by player.
pub fn tiebreak_values(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    after_round: Option<u32>,
) -> BTreeMap<PlayerId, PlayerTiebreaks> {
    let n = super::resolve_round(event, group, after_round);
    let event = super::ranked_event(event, rules, group);
    PoolData::new(&event, rules, group, n).values
}

/// Standings together with every player's tiebreak values, in row order: what a JSON
/// or CSV report prints so every column can be checked independently. (Kept beside
/// [`super::StandingRow`] rather than inside it so the shared row type stays unchanged.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DetailedStandings {
    /// The ranked rows, as [`super::compute_standings`] gives them.
    pub standings: super::Standings,
    /// One entry per row of `standings`, same order.
    pub values: Vec<PlayerTiebreaks>,
}

/// [`super::compute_standings`] plus [`tiebreak_values`] for the same round.
pub fn detailed_standings(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    after_round: Option<u32>,
) -> DetailedStandings {
    let standings = super::compute_standings(event, rules, group, after_round);
    let event = super::ranked_event(event, rules, group);
    let mut values = PoolData::new(&event, rules, group, standings.after_round).values;
    let values = standings
        .rows
        .iter()
        .filter_map(|r| values.remove(&r.player))
        .collect();
    DetailedStandings { standings, values }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Outcome, Round};

    /// Four players, one round: 1–2 red wins with fouls 0:1, 3 has a bye, 4 not paired.
    fn event() -> (Event, GroupId) {
        let group = GroupId::new("open");
        let mut event = Event::new(String::new());
        for id in 1..=4 {
            event
                .players
                .push(Player::new(PlayerId(id), format!("p{id}"), group.clone()));
        }
        event.group_mut(&group).rounds.push(Round {
            number: 1,
            pairings: vec![
                Pairing::Game {
                    table: 1,
                    red: PlayerId(1),
                    black: PlayerId(2),
                    result: Some(GameResult {
                        outcome: Outcome::RedWin,
                        red_fouls: 0,
                        black_fouls: 1,
                        late: false,
                    }),
                },
                Pairing::Bye {
                    player: PlayerId(3),
                },
            ],
        });
        (event, group)
    }

    #[test]
    fn one_round_values() {
        let (event, group) = event();
        let rules = Rulebook::cxa_2011("t", 3);
        let data = PoolData::new(&event, &rules, &group, 1);
        let v = |id| data.values[&PlayerId(id)].clone();
        assert_eq!(
            (v(1).score, v(1).wins, v(1).red_wins, v(1).black_games),
            (Points(2), 1, 1, 0)
        );
        assert_eq!((v(2).fouls, v(2).black_games, v(2).wins), (1, 1, 0));
        // Totals 2, 0, 2, 0: the lowest positive is 2 (CXA 2011 §14.4).
        assert_eq!(data.bye_opponent_score(), Points(2));
        assert_eq!(v(3).opp_scores, vec![Points(2)]);
        assert_eq!(v(4).opp_scores, Vec::<Points>::new());
        assert_eq!(v(1).sonneborn_berger, 0, "beat a player on 0");
        assert_eq!(v(2).sonneborn_berger, 0);
        assert_eq!(
            data.direct_points(PlayerId(1), PlayerId(2)),
            Some(Points(2))
        );
        assert_eq!(
            data.direct_points(PlayerId(2), PlayerId(1)),
            Some(Points(0))
        );
        assert_eq!(data.direct_points(PlayerId(1), PlayerId(3)), None);
    }

    #[test]
    fn forfeits_in_colour_wins_and_opp_score_follow_the_rulebook() {
        let (mut event, group) = event();
        if let Pairing::Game { result, .. } = &mut event.group_mut(&group).rounds[0].pairings[0] {
            *result = Some(GameResult::new(Outcome::BlackForfeit));
        }
        let mut rules = Rulebook::cxa_2011("t", 3);
        let data = PoolData::new(&event, &rules, &group, 1);
        assert_eq!(data.values[&PlayerId(1)].wins, 1);
        assert_eq!(data.values[&PlayerId(2)].black_games, 1);
        assert_eq!(data.values[&PlayerId(1)].opp_scores, vec![Points(0)]);

        rules.ranking.forfeit_counts_as_win = false;
        rules.ranking.forfeit_opponent_in_opp_score = false;
        rules.colours.forfeit_counts = false;
        let data = PoolData::new(&event, &rules, &group, 1);
        assert_eq!(data.values[&PlayerId(1)].wins, 0);
        assert_eq!(data.values[&PlayerId(2)].black_games, 0);
        assert!(data.values[&PlayerId(1)].opp_scores.is_empty());
    }
}
