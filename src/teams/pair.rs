//! Pairing a team round (docs/rules.md §17.2): a team is a player with a colour history.
//!
//! The Swiss is the individual engine itself, run on a *shadow* event whose players are
//! the teams (their 序号 and every earlier match, the team with 先 as red, each match's
//! outcome from its boards) under a shadow rulebook whose points are 场分. So score groups
//! are on 场分, no two teams meet twice, a team's 先/后 follows the colour rules of §3, the
//! bye follows §4.2, and `--explain`, `check` and `check --optimal` are the engine's own.
//! A round robin takes the Berger tables of `formats::round_robin`. The boards of each
//! match are then filled from the line-ups: the team with 先 red on odd boards.

use super::TeamError;
use super::score;
use crate::formats::round_robin::{self, Board};
use crate::model::{
    BoardGame, Event, GameResult, GroupId, GroupState, Pairing, Player, PlayerId, Round, TeamId,
    TeamMatch, TeamPool, TeamRound,
};
use crate::pairing::{self, Explanation, Verdict, Violation};
use crate::registration::team_sheet::{Team, teams_in};
use crate::rulebook::{Rulebook, Scoring, TeamAvoidance, TeamFormat, TeamMatchRules};
use crate::schedule::RoundLimit;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// The team rules of `rules`, or the refusal for an individual event.
pub fn team_rules(rules: &Rulebook) -> Result<&TeamMatchRules, TeamError> {
    rules
        .team_competition
        .as_ref()
        .ok_or(TeamError::NotATeamEvent)
}

/// The player id standing for `team` in the shadow event.
pub fn as_player(team: TeamId) -> PlayerId {
    PlayerId(team.0)
}

/// The team a shadow player stands for.
pub fn as_team(player: PlayerId) -> TeamId {
    TeamId(player.0)
}

/// The lot that decides a level match whose tiebreak games were all drawn under
/// `decider = "lot"`: true when the team with 先 wins. Reproducible from the pool's seed.
pub fn lot_first(pool: &TeamPool, round: u32, table: u32) -> bool {
    let seed = pool.seed.unwrap_or(0) ^ (u64::from(round) << 32) ^ u64::from(table);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut v = [true, false];
    v.shuffle(&mut rng);
    v[0]
}

/// A match's outcome with the pool's lot.
pub fn match_outcome(
    pool: &TeamPool,
    round: u32,
    m: &TeamMatch,
    rules: &TeamMatchRules,
) -> Option<score::MatchOutcome> {
    score::outcome(m, rules, lot_first(pool, round, m.table))
}

/// The rulebook the engine pairs teams under: 场分 as the points, no unit avoidance (a team
/// is its own unit).
pub fn shadow_rules(rules: &Rulebook, team: &TeamMatchRules) -> Rulebook {
    let mut r = rules.clone();
    r.scoring = Scoring {
        red_win: team.match_win,
        red_draw: team.match_draw,
        red_loss: team.match_loss,
        black_win: team.match_win,
        black_draw: team.match_draw,
        black_loss: team.match_loss,
        bye: team.bye_match_points,
        forfeit_win: team.match_win,
        forfeit_loss: team.match_loss,
        double_forfeit: team.match_loss,
    };
    r.pairing.team_avoidance = TeamAvoidance::Off;
    r.team_competition = None;
    r
}

/// The shadow round of a team round: each match a game, the team with 先 red, its result
/// the match's outcome once known.
pub fn shadow_round(pool: &TeamPool, round: &TeamRound, team: &TeamMatchRules) -> Round {
    let mut pairings: Vec<Pairing> = round
        .matches
        .iter()
        .map(|m| Pairing::Game {
            table: m.table,
            red: as_player(m.first),
            black: as_player(m.second),
            result: match_outcome(pool, round.number, m, team)
                .map(|o| GameResult::new(score::engine_outcome(o, m))),
        })
        .collect();
    if let Some(t) = round.bye {
        pairings.push(Pairing::Bye {
            player: as_player(t),
        });
    }
    Round {
        number: round.number,
        pairings,
    }
}

/// The shadow event of pool `pool`: one player per team, numbered as the draw numbered
/// the teams, and every stored round as the engine would have stored it.
pub fn shadow_event(event: &Event, rules: &Rulebook, pool: &GroupId) -> Result<Event, TeamError> {
    let team = team_rules(rules)?;
    let teams = teams_in(&event.players, pool);
    let stored = event.team_pools.get(pool).cloned().unwrap_or_default();
    let mut shadow = Event::new(String::new());
    for t in &teams {
        let mut p = Player::new(as_player(t.id), t.name.clone(), pool.clone());
        p.number = stored.number_of(t.id);
        // A withdrawn team is a withdrawn player: the engine pairs it no more.
        if let Some(w) = stored.withdrawal(t.id) {
            p.status = crate::model::PlayerStatus::Withdrawn {
                from_round: w.from_round,
                cause: w.cause.clone(),
            };
        }
        shadow.players.push(p);
    }
    let rounds = stored
        .rounds
        .iter()
        .map(|r| shadow_round(&stored, r, team))
        .collect();
    shadow.groups.insert(
        pool.clone(),
        GroupState {
            rounds,
            seed: stored.seed,
            relaxed: stored.relaxed.clone(),
            replaced: stored.replaced.clone(),
            ..GroupState::default()
        },
    );
    Ok(shadow)
}

/// A proposed team round: the round with its boards, the teams' numbers, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamPlan {
    /// The round, every match with its boards.
    pub round: TeamRound,
    /// Pairing numbers of the teams after the round (the draw's, in round 1).
    pub numbers: Vec<(TeamId, u32)>,
    /// The engine's reasons (Swiss only), with teams' ids as players.
    pub explanation: Option<Explanation>,
    /// Rules relaxed for want of a legal pairing.
    pub relaxed: Vec<crate::model::Relaxation>,
}

/// The line-up of `team` for a new round: its first `boards` registered players able to
/// play, in registered order (main players by 台次, then reserves), so a reserve who
/// comes in for an absent player leaves the others in their order.
pub fn default_lineup(
    event: &Event,
    team: &Team,
    boards: u32,
    round: u32,
) -> Result<Vec<PlayerId>, TeamError> {
    let able: Vec<PlayerId> = team
        .members
        .iter()
        .filter(|m| event.player(m.player).is_some_and(|p| p.pairable_in(round)))
        .map(|m| m.player)
        .take(boards as usize)
        .collect();
    if able.len() < boards as usize {
        return Err(TeamError::ShortLineup {
            team: team.name.clone(),
            players: able.len(),
            boards,
        });
    }
    Ok(able)
}

/// The boards of a match between `first` (先) and `second` fielding these line-ups.
pub fn fill_boards(first: &[PlayerId], second: &[PlayerId]) -> Vec<BoardGame> {
    first
        .iter()
        .zip(second)
        .enumerate()
        .map(|(i, (&a, &b))| {
            let board = i as u32 + 1;
            let (red, black) = if board % 2 == 1 { (a, b) } else { (b, a) };
            BoardGame {
                board,
                red,
                black,
                result: None,
            }
        })
        .collect()
}

/// The rounds of pool `pool`: a round robin's schedule, else the rulebook's rounds.
pub fn rounds_of(event: &Event, rules: &Rulebook, pool: &GroupId) -> u32 {
    match rules.team_competition.as_ref() {
        Some(t) if t.format == TeamFormat::RoundRobin => {
            let n = teams_in(&event.players, pool).len() as u32;
            round_robin::rounds_per_cycle(n) * t.cycles
        }
        _ => rules.rounds_for(pool),
    }
}

/// The rounds team pool `pool` plays ([`rounds_of`]), as a refusal of a round outside
/// them names them: the event's `rounds` for a team Swiss whose group sets none of its
/// own, else the pool's.
pub fn round_limit(event: &Event, rules: &Rulebook, pool: &GroupId) -> RoundLimit {
    let swiss = rules
        .team_competition
        .as_ref()
        .is_none_or(|t| t.format == TeamFormat::Swiss);
    let own = rules.group(pool).and_then(|g| g.rounds).is_some();
    RoundLimit {
        rounds: rounds_of(event, rules, pool),
        event_wide: swiss && !own,
    }
}

/// Why round `round` of team pool `pool` is not there: outside the rounds the pool plays
/// ([`round_limit`]), or not paired yet.
pub fn missing_round(event: &Event, rules: &Rulebook, pool: &GroupId, round: u32) -> TeamError {
    let limit = round_limit(event, rules, pool);
    match limit.excludes(round) {
        true => TeamError::RoundOutsideSchedule { round, limit },
        false => TeamError::NoRound { round },
    }
}

/// Refuses round `round` of team pool `pool` unless it is paired, saying why
/// ([`missing_round`]: outside the rounds the pool plays, or not paired yet).
pub fn check_round_paired(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
) -> Result<(), TeamError> {
    match event.team_pools.get(pool).and_then(|s| s.round(round)) {
        Some(_) => Ok(()),
        None => Err(missing_round(event, rules, pool, round)),
    }
}

/// Pairs the next round of team pool `pool` with `seed` (used in round 1 and for lots).
pub fn pair_team_round(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    seed: u64,
    relax: Option<&[crate::model::Relax]>,
) -> Result<TeamPlan, TeamError> {
    let team = team_rules(rules)?;
    let teams = teams_in(&event.players, pool);
    if teams.len() < 2 {
        return Err(TeamError::TooFewTeams { teams: teams.len() });
    }
    let stored = event.team_pools.get(pool).cloned().unwrap_or_default();
    if let Some(last) = stored.rounds.last() {
        let open: Vec<u32> = last
            .matches
            .iter()
            .filter(|m| match_outcome(&stored, last.number, m, team).is_none())
            .map(|m| m.table)
            .collect();
        if !open.is_empty() {
            return Err(TeamError::RoundIncomplete {
                round: last.number,
                matches: open,
            });
        }
    }
    let next = stored.rounds.last().map_or(1, |r| r.number + 1);
    let total = rounds_of(event, rules, pool);
    if next > total {
        return Err(TeamError::AllRoundsPlayed { rounds: total });
    }
    let (pairs, bye, numbers, explanation, relaxed) = match team.format {
        TeamFormat::Swiss => {
            let mut shadow = shadow_event(event, rules, pool)?;
            let srules = shadow_rules(rules, team);
            let plan = pairing::pair_pool(&mut shadow, &srules, pool, seed, relax)?;
            let mut pairs = Vec::new();
            let mut bye = None;
            for p in &plan.round.pairings {
                match p {
                    Pairing::Game { red, black, .. } => {
                        pairs.push((as_team(*red), as_team(*black)));
                    }
                    Pairing::Bye { player } => bye = Some(as_team(*player)),
                }
            }
            let numbers = shadow
                .players
                .iter()
                .filter_map(|p| p.number.map(|n| (as_team(p.id), n)))
                .collect();
            (pairs, bye, numbers, Some(plan.explanation), plan.relaxed)
        }
        TeamFormat::RoundRobin => {
            let numbers = if stored.numbers.len() == teams.len() {
                stored.numbers.clone()
            } else {
                let mut order: Vec<TeamId> = teams.iter().map(|t| t.id).collect();
                order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
                order.into_iter().zip(1..).collect()
            };
            let team_of = |n: u32| numbers.iter().find(|(_, k)| *k == n).map(|(t, _)| *t);
            let boards = round_robin::berger_round(teams.len() as u32, team.cycles, next)
                .ok_or(TeamError::AllRoundsPlayed { rounds: total })?;
            let mut pairs = Vec::new();
            let mut bye = None;
            for b in boards {
                match b {
                    Board::Game { red, black } => match (team_of(red), team_of(black)) {
                        (Some(a), Some(b)) => pairs.push((a, b)),
                        (Some(a), None) | (None, Some(a)) => bye = Some(a),
                        (None, None) => {}
                    },
                    Board::Bye(n) => bye = team_of(n),
                }
            }
            // A withdrawn team's bye scores nothing: it has none.
            let bye = bye.filter(|&t| stored.pairable_in(t, next));
            (pairs, bye, numbers, None, Vec::new())
        }
    };
    let mut matches = Vec::with_capacity(pairs.len());
    for (i, (first, second)) in pairs.into_iter().enumerate() {
        let out = |id: TeamId| !stored.pairable_in(id, next);
        let lineup = |id: TeamId| -> Result<Vec<PlayerId>, TeamError> {
            let t = teams
                .iter()
                .find(|t| t.id == id)
                .ok_or(TeamError::TooFewTeams { teams: teams.len() })?;
            if out(id) {
                // A withdrawn team's match of the round robin stands, forfeited by its
                // registered players in order.
                return Ok(t
                    .members
                    .iter()
                    .map(|m| m.player)
                    .take(team.boards as usize)
                    .collect());
            }
            let lineup = default_lineup(event, t, team.boards, next)?;
            Ok(super::meet_min_women(event, rules, t, lineup, next))
        };
        let (a, b) = (lineup(first)?, lineup(second)?);
        let mut boards = fill_boards(&a, &b);
        // A round robin keeps its tables: a withdrawn team forfeits the match as a whole.
        let absent = match (out(first), out(second)) {
            (true, true) => Some(super::Absent::Both),
            (true, false) => Some(super::Absent::First),
            (false, true) => Some(super::Absent::Second),
            (false, false) => None,
        };
        if let Some(side) = absent {
            let results = side.results(boards.len());
            for (b, r) in boards.iter_mut().zip(results) {
                b.result = Some(r);
            }
        }
        matches.push(TeamMatch {
            table: i as u32 + 1,
            first,
            second,
            boards,
            tiebreak: Vec::new(),
        });
    }
    Ok(TeamPlan {
        round: TeamRound {
            number: next,
            matches,
            bye,
        },
        numbers,
        explanation,
        relaxed,
    })
}

impl TeamPlan {
    /// Stores the plan: the round, the numbers, and `seed` as the pool's seed if none was
    /// recorded.
    pub fn apply(&self, event: &mut Event, pool: &GroupId, seed: u64) {
        let state = event.team_pools.entry(pool.clone()).or_default();
        state.seed.get_or_insert(seed);
        state.numbers = self.numbers.clone();
        state.numbers.sort_by_key(|(t, n)| (*n, *t));
        state.rounds.retain(|r| r.number != self.round.number);
        state.rounds.push(self.round.clone());
        state.relaxed.retain(|r| r.round != self.round.number);
        state.relaxed.extend(self.relaxed.iter().cloned());
    }
}

/// Takes back the newest round of `pool` while no board of it has a result.
pub fn unpair_team_round(event: &mut Event, pool: &GroupId) -> Result<u32, TeamError> {
    let state = event
        .team_pools
        .get_mut(pool)
        .ok_or(TeamError::NothingToUnpair)?;
    let last = state.rounds.last().ok_or(TeamError::NothingToUnpair)?;
    if let Some(m) = last
        .matches
        .iter()
        .find(|m| m.boards.iter().any(|b| b.result.is_some()))
    {
        return Err(TeamError::RoundHasResults {
            round: last.number,
            table: m.table,
        });
    }
    let number = last.number;
    state.rounds.pop();
    state.relaxed.retain(|r| r.round != number);
    // Paired again, it takes the outcomes as they stand (docs/rules.md §2.6).
    crate::model::ReplacedResult::forget_from(&mut state.replaced, number);
    Ok(number)
}

/// Every break of a hard pairing rule in the stored team rounds (the engine's checker on
/// the shadow event), and every board whose colours do not follow the team with 先.
pub fn check_team_pool(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
) -> Result<(Vec<Violation>, Vec<String>), TeamError> {
    let team = team_rules(rules)?;
    let shadow = shadow_event(event, rules, pool)?;
    let srules = shadow_rules(rules, team);
    let violations = if team.format == TeamFormat::Swiss {
        pairing::check_group(&shadow, &srules, pool)
    } else {
        Vec::new()
    };
    let mut boards = Vec::new();
    if let Some(state) = event.team_pools.get(pool) {
        let teams = teams_in(&event.players, pool);
        let member = |t: TeamId, p: PlayerId| {
            teams
                .iter()
                .find(|x| x.id == t)
                .is_some_and(|x| x.position(p).is_some())
        };
        for r in &state.rounds {
            for m in &r.matches {
                for b in &m.boards {
                    let (red_team, black_team) = (
                        score::team_at(m, b.board, crate::model::Colour::Red),
                        score::team_at(m, b.board, crate::model::Colour::Black),
                    );
                    if !member(red_team, b.red) || !member(black_team, b.black) {
                        boards.push(format!("{}-{}-{}", r.number, m.table, b.board));
                    }
                }
            }
        }
    }
    Ok((violations, boards))
}

/// `check --optimal` of team round `number`: the engine re-solves it from the rounds
/// before and compares, criterion by criterion (Swiss only; a round robin's schedule is
/// fixed).
pub fn prove_team_round(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    number: u32,
) -> Result<Verdict, TeamError> {
    let team = team_rules(rules)?;
    if team.format != TeamFormat::Swiss {
        return Ok(Verdict::NotComparable);
    }
    let shadow = shadow_event(event, rules, pool)?;
    let srules = shadow_rules(rules, team);
    Ok(pairing::prove_round(&shadow, &srules, pool, number)?)
}
