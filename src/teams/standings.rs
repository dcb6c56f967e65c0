//! Team standings (docs/rules.md §17.5): 场分, then the rulebook's tiebreaks in order
//! (局分, 直胜, 对手场分, 台次分, 胜场), a tie left after them shared; the crosstable of
//! match scores; each board's individual results and its prize (最佳台次奖, §17.6).
//! Computed from the stored boards every time (less a round robin's annulled matches,
//! §17.7), never stored.

use super::TeamError;
use super::pair::{check_round_paired, match_outcome, team_rules};
use super::score::{self, MatchOutcome};
use crate::model::{Colour, Event, GroupId, PlayerId, Points, TeamId, TeamPool};
use crate::registration::team_sheet::teams_in;
use crate::rulebook::{Rulebook, TeamMatchRules, TeamMatchTiebreak};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// One team's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRow {
    /// The team.
    pub team: TeamId,
    /// Its name.
    pub name: String,
    /// Its place; tied teams share the place.
    pub rank: u32,
    /// Whether the place is shared (`3=`).
    pub shared: bool,
    /// 场分.
    pub match_points: Points,
    /// 局分 (main boards; tiebreak games too when the rulebook says so).
    pub game_points: Points,
    /// Matches played (byes not counted), won, drawn and lost.
    pub played: u32,
    /// Matches won (on the boards, in tiebreak games, or by forfeit).
    pub wins: u32,
    /// Matches drawn.
    pub draws: u32,
    /// Matches lost.
    pub losses: u32,
    /// 对手场分: the opponents' final 场分.
    pub opp_match_points: Points,
    /// 局分 per board, board 1 first (台次分).
    pub board_points: Vec<Points>,
    /// The team's withdrawal (全队退赛), if it was withdrawn.
    pub withdrawn: Option<crate::model::TeamWithdrawal>,
    /// Whether its matches are annulled for everyone (a round robin's half rule).
    pub annulled: bool,
}

impl TeamRow {
    /// The value of tiebreak `t` as printed.
    pub fn value(&self, t: TeamMatchTiebreak) -> String {
        match t {
            TeamMatchTiebreak::GamePoints => self.game_points.0.to_string(),
            TeamMatchTiebreak::OppMatchPoints => self.opp_match_points.0.to_string(),
            TeamMatchTiebreak::MatchWins => self.wins.to_string(),
            TeamMatchTiebreak::BoardOrder => self
                .board_points
                .iter()
                .map(|p| p.0.to_string())
                .collect::<Vec<_>>()
                .join("/"),
            TeamMatchTiebreak::DirectEncounter => String::new(),
        }
    }
}

/// The standings of a team pool after a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamStandings {
    /// The pool.
    pub pool: GroupId,
    /// The last round counted (0 before any).
    pub after_round: u32,
    /// The tiebreaks, in order.
    pub tiebreaks: Vec<TeamMatchTiebreak>,
    /// The teams in standings order.
    pub rows: Vec<TeamRow>,
}

/// What one team did in one match (for the crosstable and 直胜).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meeting {
    /// The round.
    pub round: u32,
    /// The team.
    pub team: TeamId,
    /// The opponent.
    pub opponent: TeamId,
    /// 局分 of the team and of the opponent (main boards).
    pub score: (Points, Points),
    /// 场分 the team took.
    pub match_points: Points,
    /// The match's outcome.
    pub outcome: MatchOutcome,
    /// Won (`Some(true)`), lost (`Some(false)`, a double forfeit too) or drawn (`None`).
    pub won: Option<bool>,
}

/// Every decided match of rounds 1..=`upto`, once from each side.
pub fn meetings(pool: &TeamPool, rules: &TeamMatchRules, upto: u32) -> Vec<Meeting> {
    let mut out = Vec::new();
    for r in pool.rounds.iter().filter(|r| r.number <= upto) {
        for m in &r.matches {
            let Some(o) = match_outcome(pool, r.number, m, rules) else {
                continue;
            };
            let (a, b) = score::game_points(&m.boards, m, rules);
            for (team, opponent, score) in
                [(m.first, m.second, (a, b)), (m.second, m.first, (b, a))]
            {
                out.push(Meeting {
                    round: r.number,
                    team,
                    opponent,
                    score,
                    match_points: score::match_points(o, m, team, rules),
                    outcome: o,
                    won: match score::winner(o, m) {
                        Some(w) => Some(w == team),
                        None if o == MatchOutcome::Drawn => None,
                        None => Some(false),
                    },
                });
            }
        }
    }
    out
}

/// The last round of `pool` to count: `round`, else the newest complete round.
fn last_round(pool: &TeamPool, rules: &TeamMatchRules, round: Option<u32>) -> u32 {
    round.unwrap_or_else(|| {
        pool.rounds
            .iter()
            .filter(|r| {
                r.matches
                    .iter()
                    .all(|m| match_outcome(pool, r.number, m, rules).is_some())
            })
            .map(|r| r.number)
            .max()
            .unwrap_or(0)
    })
}

/// The standings of team pool `pool` after round `round` (default: the newest complete).
pub fn team_standings(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: Option<u32>,
) -> Result<TeamStandings, TeamError> {
    let team = team_rules(rules)?;
    if let Some(n) = round {
        check_round_paired(event, rules, pool, n)?;
    }
    let teams = teams_in(&event.players, pool);
    let stored = super::ranked_pool(event, rules, pool);
    let annulled = super::annulled_teams(event, rules, pool);
    let upto = last_round(&stored, team, round);
    let boards = team.boards as usize;
    let mut rows: BTreeMap<TeamId, TeamRow> = teams
        .iter()
        .map(|t| {
            (
                t.id,
                TeamRow {
                    team: t.id,
                    name: t.name.clone(),
                    rank: 0,
                    shared: false,
                    match_points: Points(0),
                    game_points: Points(0),
                    played: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    opp_match_points: Points(0),
                    board_points: vec![Points(0); boards],
                    withdrawn: stored.withdrawal(t.id).cloned(),
                    annulled: annulled.contains(&t.id),
                },
            )
        })
        .collect();
    let all = meetings(&stored, team, upto);
    for r in stored.rounds.iter().filter(|r| r.number <= upto) {
        if let Some(row) = r.bye.and_then(|t| rows.get_mut(&t)) {
            row.match_points += team.bye_match_points;
            row.game_points += team.bye_game_points;
        }
        for m in &r.matches {
            if match_outcome(&stored, r.number, m, team).is_none() {
                continue;
            }
            let counted = m.boards.iter().chain(m.tiebreak.iter().filter(|_| {
                team.tiebreak_games
                    .as_ref()
                    .is_some_and(|t| t.game_points_count)
            }));
            for g in counted {
                let Some(res) = g.result else { continue };
                let tiebreak = m.tiebreak.iter().any(|t| std::ptr::eq(t, g));
                for colour in [Colour::Red, Colour::Black] {
                    let t = if tiebreak {
                        score::team_at_tiebreak(m, g.board, colour)
                    } else {
                        score::team_at(m, g.board, colour)
                    };
                    if let Some(row) = rows.get_mut(&t) {
                        let p = score::board_points(res.outcome, colour, team);
                        row.game_points += p;
                        if !tiebreak && let Some(b) = row.board_points.get_mut(g.board as usize - 1)
                        {
                            *b += p;
                        }
                    }
                }
            }
        }
    }
    for x in &all {
        let Some(row) = rows.get_mut(&x.team) else {
            continue;
        };
        row.match_points += x.match_points;
        row.played += 1;
        match x.won {
            Some(true) => row.wins += 1,
            Some(false) => row.losses += 1,
            None => row.draws += 1,
        }
    }
    let finals: BTreeMap<TeamId, Points> = rows.iter().map(|(t, r)| (*t, r.match_points)).collect();
    for x in &all {
        if let Some(row) = rows.get_mut(&x.team) {
            row.opp_match_points += finals.get(&x.opponent).copied().unwrap_or_default();
        }
    }
    let mut ordered: Vec<TeamRow> = rows.into_values().collect();
    rank(&mut ordered, &team.tiebreaks, &all);
    Ok(TeamStandings {
        pool: pool.clone(),
        after_round: upto,
        tiebreaks: team.tiebreaks.clone(),
        rows: ordered,
    })
}

/// Compares two rows on one tiebreak (Less: `a` ahead). 直胜 compares only two teams.
fn compare(
    a: &TeamRow,
    b: &TeamRow,
    t: TeamMatchTiebreak,
    all: &[Meeting],
    pair: bool,
) -> Ordering {
    match t {
        TeamMatchTiebreak::GamePoints => b.game_points.cmp(&a.game_points),
        TeamMatchTiebreak::OppMatchPoints => b.opp_match_points.cmp(&a.opp_match_points),
        TeamMatchTiebreak::MatchWins => b.wins.cmp(&a.wins),
        TeamMatchTiebreak::BoardOrder => b.board_points.cmp(&a.board_points),
        TeamMatchTiebreak::DirectEncounter if pair => {
            let mp = |x: &TeamRow, y: &TeamRow| -> Points {
                all.iter()
                    .filter(|m| m.team == x.team && m.opponent == y.team)
                    .fold(Points(0), |s, m| s + m.match_points)
            };
            mp(b, a).cmp(&mp(a, b))
        }
        TeamMatchTiebreak::DirectEncounter => Ordering::Equal,
    }
}

/// Sorts by 场分, then splits each tie by the tiebreaks in order; what stays tied shares a
/// place (shown in team-id order).
fn rank(rows: &mut [TeamRow], tiebreaks: &[TeamMatchTiebreak], all: &[Meeting]) {
    rows.sort_by(|a, b| {
        b.match_points
            .cmp(&a.match_points)
            .then(a.team.cmp(&b.team))
    });
    // Runs of still-tied rows, split tiebreak by tiebreak.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let mut j = i + 1;
        while j < rows.len() && rows[j].match_points == rows[i].match_points {
            j += 1;
        }
        runs.push((i, j));
        i = j;
    }
    for &t in tiebreaks {
        let mut next = Vec::new();
        for (s, e) in runs {
            if e - s < 2 {
                next.push((s, e));
                continue;
            }
            let pair = e - s == 2;
            rows[s..e].sort_by(|a, b| compare(a, b, t, all, pair).then(a.team.cmp(&b.team)));
            let mut k = s;
            while k < e {
                let mut l = k + 1;
                while l < e && compare(&rows[k], &rows[l], t, all, pair) == Ordering::Equal {
                    l += 1;
                }
                next.push((k, l));
                k = l;
            }
        }
        runs = next;
    }
    for (s, e) in runs {
        for row in &mut rows[s..e] {
            row.rank = s as u32 + 1;
            row.shared = e - s > 1;
        }
    }
}

/// One player's results on one board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardLine {
    /// The board.
    pub board: u32,
    /// The player.
    pub player: PlayerId,
    /// The player's team.
    pub team: TeamId,
    /// Games with a result on this board (forfeits included).
    pub games: u32,
    /// Won, drawn, lost (forfeits as won or lost).
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// 局分 on this board.
    pub points: Points,
    /// Most 局分 the games could give (games × a win's).
    pub possible: Points,
}

impl BoardLine {
    /// The percentage, to one decimal, as printed.
    pub fn percent(&self) -> String {
        if self.possible.0 <= 0 {
            return "-".into();
        }
        let permille = (i64::from(self.points.0) * 1000 + i64::from(self.possible.0) / 2)
            / i64::from(self.possible.0);
        format!("{}.{}%", permille / 10, permille % 10)
    }

    /// Compares the percentages exactly (Less: `self` higher).
    pub fn cmp_percent(&self, other: &BoardLine) -> Ordering {
        let a = i64::from(self.points.0) * i64::from(other.possible.0.max(1));
        let b = i64::from(other.points.0) * i64::from(self.possible.0.max(1));
        b.cmp(&a)
    }
}

/// Every player's results board by board (main boards of rounds up to `round`), board 1
/// first, then by percentage, games, and registration.
pub fn board_stats(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: Option<u32>,
) -> Result<Vec<BoardLine>, TeamError> {
    let team = team_rules(rules)?;
    if let Some(n) = round {
        check_round_paired(event, rules, pool, n)?;
    }
    let stored = super::ranked_pool(event, rules, pool);
    let upto = last_round(&stored, team, round);
    let mut lines: BTreeMap<(u32, PlayerId), BoardLine> = BTreeMap::new();
    for r in stored.rounds.iter().filter(|r| r.number <= upto) {
        for m in &r.matches {
            for g in &m.boards {
                let Some(res) = g.result else { continue };
                for (colour, player) in [(Colour::Red, g.red), (Colour::Black, g.black)] {
                    let l = lines.entry((g.board, player)).or_insert(BoardLine {
                        board: g.board,
                        player,
                        team: score::team_at(m, g.board, colour),
                        games: 0,
                        wins: 0,
                        draws: 0,
                        losses: 0,
                        points: Points(0),
                        possible: Points(0),
                    });
                    l.games += 1;
                    l.points += score::board_points(res.outcome, colour, team);
                    l.possible += team.game_win;
                    match res.outcome {
                        crate::model::Outcome::Draw => l.draws += 1,
                        o if o.winner() == Some(colour) => l.wins += 1,
                        _ => l.losses += 1,
                    }
                }
            }
        }
    }
    let mut out: Vec<BoardLine> = lines.into_values().collect();
    out.sort_by(|a, b| {
        a.board
            .cmp(&b.board)
            .then(a.cmp_percent(b))
            .then(b.games.cmp(&a.games))
            .then(a.player.cmp(&b.player))
    });
    Ok(out)
}

/// The board prizes (最佳台次奖): on each board, the best percentage among players with at
/// least the rulebook's games; equal percentages share the prize.
pub fn board_prizes(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: Option<u32>,
) -> Result<Vec<BoardLine>, TeamError> {
    let team = team_rules(rules)?;
    let min = team.board_prize_games(super::pair::rounds_of(event, rules, pool));
    let stats = board_stats(event, rules, pool, round)?;
    let mut out = Vec::new();
    for board in 1..=team.boards {
        let eligible: Vec<&BoardLine> = stats
            .iter()
            .filter(|l| l.board == board && l.games >= min)
            .collect();
        if let Some(best) = eligible.first() {
            out.extend(
                eligible
                    .iter()
                    .filter(|l| l.cmp_percent(best) == Ordering::Equal)
                    .map(|l| (*l).clone()),
            );
        }
    }
    Ok(out)
}
