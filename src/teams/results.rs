//! Recording a team round's results board by board (docs/rules.md §17.3): `result 3 红胜
//! 黑胜 和 红胜` gives match 3's boards in order, each seen from that board's red player;
//! `result 3 加赛 和 红胜` its tiebreak games; a results file gives one row per board with a
//! 结果 column (a tiebreak game a row whose 台次 is `加赛N`) and is refused whole when a
//! row does not match the pairing. Line-up
//! changes (a reserve in for a player, on that player's board) are made here too. Every
//! function checks everything before it changes anything.

use super::TeamError;
use super::error::Where;
use super::pair::{missing_round, shadow_round, team_rules};
use super::score;
use crate::model::{
    BoardGame, Event, GameResult, GroupId, Pairing, PlayerId, ReplacedResult, TeamId,
};
use crate::registration::team_sheet::{Team, teams_in};
use crate::results::{is_late_token, parse_fouls, parse_outcome};
use crate::rulebook::Rulebook;

/// The results of one match as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchEntry {
    /// The match (场次).
    pub table: u32,
    /// Tiebreak games (加赛) rather than the main boards.
    pub tiebreak: bool,
    /// A whole team absent (`先走队弃权`, `后走队弃权`): every board forfeited by its
    /// players, in place of `results`.
    pub absent: Option<Absent>,
    /// One result per board, board 1 first.
    pub results: Vec<GameResult>,
}

/// Which team of a match forfeited all its boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Absent {
    /// The team with 先.
    First,
    /// The other team.
    Second,
    /// Both teams.
    Both,
}

impl Absent {
    /// The board results of a match of `boards` boards the team(s) did not come to: each
    /// absent team forfeits with the colour it has on that board.
    pub fn results(self, boards: usize) -> Vec<GameResult> {
        (1..=boards as u32)
            .map(|b| {
                let first_red = score::first_colour(b) == crate::model::Colour::Red;
                let outcome = match (self, first_red) {
                    (Absent::Both, _) => crate::model::Outcome::DoubleForfeit,
                    (Absent::First, true) | (Absent::Second, false) => {
                        crate::model::Outcome::RedForfeit
                    }
                    (Absent::First, false) | (Absent::Second, true) => {
                        crate::model::Outcome::BlackForfeit
                    }
                };
                GameResult::new(outcome)
            })
            .collect()
    }

    /// Reads `先走队弃权`/`后走队弃权`/`两队弃权` (`first-absent`, `second-absent`,
    /// `both-absent`).
    fn parse(token: &str) -> Option<Absent> {
        match token {
            "先走队弃权" | "先队弃权" | "first-absent" => Some(Absent::First),
            "后走队弃权" | "后队弃权" | "second-absent" => Some(Absent::Second),
            "两队弃权" | "双方队弃权" | "both-absent" => Some(Absent::Both),
            _ => None,
        }
    }
}

/// Reads one result token: an outcome (红胜, 和, 黑胜, 红弃权 …), `红迟到`/`黑迟到`, and
/// fouls after a slash (`红胜/0:2`).
pub fn parse_board_token(token: &str, at: Where) -> Result<GameResult, TeamError> {
    let bad = || TeamError::BadToken {
        at,
        token: token.to_string(),
    };
    let (head, fouls) = match token.split_once('/') {
        Some((h, f)) => (h, Some(f)),
        None => (token, None),
    };
    let outcome = parse_outcome(head).map_err(|_| bad())?;
    let mut r = GameResult::new(outcome);
    r.late = is_late_token(head);
    if let Some(f) = fouls {
        let (red, black) = parse_fouls(f).map_err(|_| bad())?;
        r.red_fouls = red;
        r.black_fouls = black;
    }
    Ok(r)
}

/// Reads `result` arguments of a team round: a match number, then (after `加赛`/`tiebreak`
/// for tiebreak games) one token per board, again for each match.
pub fn parse_team_result_args(args: &[String]) -> Result<Vec<MatchEntry>, TeamError> {
    let mut out: Vec<MatchEntry> = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let a = a.trim();
        if let Ok(n) = a.parse::<u32>() {
            out.push(MatchEntry {
                table: n,
                tiebreak: false,
                absent: None,
                results: Vec::new(),
            });
            continue;
        }
        let Some(current) = out.last_mut() else {
            return Err(TeamError::BadToken {
                at: Where::Argument(i + 1),
                token: a.to_string(),
            });
        };
        if matches!(a, "加赛" | "tiebreak" | "tb") && current.results.is_empty() {
            current.tiebreak = true;
            continue;
        }
        if let Some(side) = Absent::parse(a)
            && current.results.is_empty()
            && current.absent.is_none()
            && !current.tiebreak
        {
            current.absent = Some(side);
            continue;
        }
        let at = Where::Board {
            table: current.table,
            board: current.results.len() as u32 + 1,
        };
        current.results.push(parse_board_token(a, at)?);
    }
    Ok(out)
}

/// Records `entries` in round `round` (default: the newest) of `pool`; every entry is
/// checked before any is recorded. Returns the matches changed.
pub fn record_team_results(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: Option<u32>,
    entries: &[MatchEntry],
) -> Result<(u32, Vec<u32>), TeamError> {
    let team = team_rules(rules)?.clone();
    let Some(state) = event.team_pools.get(pool) else {
        return Err(missing_round(event, rules, pool, round.unwrap_or(1)));
    };
    let number = match round {
        Some(n) => n,
        None => state.rounds.last().map_or(1, |r| r.number),
    };
    let Some(stored) = state.round(number).cloned() else {
        return Err(missing_round(event, rules, pool, number));
    };
    // Check everything on a copy of the round, then store it.
    let mut updated = stored.clone();
    let mut changed = Vec::new();
    for e in entries {
        let m = updated
            .matches
            .iter_mut()
            .find(|m| m.table == e.table)
            .ok_or(TeamError::NoMatch {
                round: number,
                table: e.table,
            })?;
        if e.tiebreak {
            // The main boards must be complete and level before tiebreak games count.
            if !score::needs_tiebreak(m, &team) {
                return Err(TeamError::NoTiebreak { table: e.table });
            }
            if e.results.is_empty() || e.results.len() > m.boards.len() {
                return Err(TeamError::BoardCount {
                    table: e.table,
                    given: e.results.len(),
                    boards: m.boards.len(),
                });
            }
            // Play stops at the first tiebreak game one side wins.
            if let Some(i) = e.results.iter().position(|r| r.outcome.winner().is_some())
                && i + 1 < e.results.len()
            {
                return Err(TeamError::TiebreakDecided {
                    table: e.table,
                    board: m.boards.get(i).map_or(i as u32 + 1, |b| b.board),
                });
            }
            // The same board pairs with colours reversed, board 1 first.
            m.tiebreak = m
                .boards
                .iter()
                .zip(&e.results)
                .map(|(b, r)| BoardGame {
                    board: b.board,
                    red: b.black,
                    black: b.red,
                    result: Some(*r),
                })
                .collect();
        } else {
            let expanded;
            let results = match e.absent {
                Some(side) if e.results.is_empty() => {
                    expanded = side.results(m.boards.len());
                    &expanded
                }
                _ => &e.results,
            };
            if results.len() != m.boards.len() {
                return Err(TeamError::BoardCount {
                    table: e.table,
                    given: results.len(),
                    boards: m.boards.len(),
                });
            }
            for (b, r) in m.boards.iter_mut().zip(results) {
                b.result = Some(*r);
            }
            // Main boards changed: tiebreak games stand only while the match is level.
            if !score::needs_tiebreak(m, &team) {
                m.tiebreak.clear();
            }
        }
        changed.push(e.table);
    }
    let state = event.team_pools.get_mut(pool).expect("checked above");
    // The later rounds were paired with the outcomes replaced: they are kept, so that
    // `check --optimal` proves them against them (docs/rules.md §2.6).
    let newest = state.rounds.last().map_or(number, |r| r.number);
    if number < newest {
        let before = shadow_round(state, &stored, &team);
        let after = shadow_round(state, &updated, &team);
        let replaced: Vec<ReplacedResult> = before
            .pairings
            .iter()
            .zip(&after.pairings)
            .filter_map(|(was, now)| match (was, now) {
                (
                    Pairing::Game {
                        table,
                        result: Some(was),
                        ..
                    },
                    Pairing::Game { result: now, .. },
                ) if *now != Some(*was) => Some(ReplacedResult {
                    round: number,
                    table: *table,
                    result: *was,
                    newest,
                }),
                _ => None,
            })
            .collect();
        state.replaced.extend(replaced);
    }
    if let Some(r) = state.rounds.iter_mut().find(|r| r.number == number) {
        *r = updated;
    }
    // Whole matches forfeited may reach (or, corrected, leave) the forfeit rule's limit.
    super::apply_team_forfeit_withdrawals(event, rules, pool);
    Ok((number, changed))
}

/// Finds a team of `pool` by name (or id).
pub fn find_team<'a>(teams: &'a [Team], name: &str) -> Result<&'a Team, TeamError> {
    let name = name.trim();
    teams
        .iter()
        .find(|t| t.name == name || t.id.to_string() == name)
        .ok_or_else(|| TeamError::UnknownTeam {
            name: name.to_string(),
        })
}

/// A member of `team` named `who` (name, or registration id as `#12`).
fn member(event: &Event, team: &Team, who: &str) -> Result<PlayerId, TeamError> {
    let who = who.trim();
    team.members
        .iter()
        .map(|m| m.player)
        .find(|&id| {
            event
                .player(id)
                .is_some_and(|p| p.name == who || format!("#{}", p.id) == who)
        })
        .ok_or_else(|| TeamError::NotInTeam {
            player: who.to_string(),
            team: team.name.clone(),
        })
}

/// Changes the line-up of `team_name` in round `round`: each (out, in) brings a registered
/// player in on the board of one taken out; the others keep their boards (the CXA rule,
/// docs/rules.md §17.3). Refused once the match has a result.
pub fn change_lineup(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
    team_name: &str,
    swaps: &[(String, String)],
) -> Result<(TeamId, u32, Vec<PlayerId>), TeamError> {
    team_rules(rules)?;
    let teams = teams_in(&event.players, pool);
    let team = find_team(&teams, team_name)?.clone();
    let Some(stored) = event.team_pools.get(pool).and_then(|s| s.round(round)) else {
        return Err(missing_round(event, rules, pool, round));
    };
    let m = stored
        .matches
        .iter()
        .find(|m| m.first == team.id || m.second == team.id)
        .ok_or(TeamError::NoMatchForTeam {
            team: team.name.clone(),
            round,
        })?;
    if m.boards.iter().any(|b| b.result.is_some()) {
        return Err(TeamError::MatchHasResults { table: m.table });
    }
    let colour_of = |board: u32| {
        if m.first == team.id {
            score::first_colour(board)
        } else {
            score::first_colour(board).opposite()
        }
    };
    let mut lineup: Vec<PlayerId> = m
        .boards
        .iter()
        .map(|b| match colour_of(b.board) {
            crate::model::Colour::Red => b.red,
            crate::model::Colour::Black => b.black,
        })
        .collect();
    for (out, inn) in swaps {
        let out_id = member(event, &team, out)?;
        let in_id = member(event, &team, inn)?;
        let Some(slot) = lineup.iter().position(|&p| p == out_id) else {
            return Err(TeamError::NotInLineup {
                player: out.clone(),
            });
        };
        if lineup.contains(&in_id) {
            return Err(TeamError::NotInLineup {
                player: inn.clone(),
            });
        }
        if let Some(p) = event.player(in_id)
            && let Err((_, why)) =
                crate::registration::team_sheet::board_rule_check(p, slot as u32 + 1, rules)
        {
            return Err(TeamError::BoardRule { why });
        }
        lineup[slot] = in_id;
    }
    // Who plays, as a whole: `min_women` counts the line-up (docs/rules.md §17.3).
    let min = team_rules(rules)?.min_women;
    let women = lineup
        .iter()
        .filter(|&&p| {
            event
                .player(p)
                .is_some_and(|p| p.gender == Some(crate::model::Gender::Female))
        })
        .count() as u32;
    if women < min {
        return Err(TeamError::TooFewWomen {
            team: team.name.clone(),
            round,
            women,
            min,
        });
    }
    let table = m.table;
    let state = event.team_pools.get_mut(pool).expect("checked above");
    let r = state
        .rounds
        .iter_mut()
        .find(|r| r.number == round)
        .expect("checked above");
    let m = r
        .matches
        .iter_mut()
        .find(|m| m.table == table)
        .expect("checked above");
    let first = m.first == team.id;
    for (b, &p) in m.boards.iter_mut().zip(&lineup) {
        let red = score::first_colour(b.board) == crate::model::Colour::Red;
        if red == first {
            b.red = p;
        } else {
            b.black = p;
        }
    }
    Ok((team.id, table, lineup))
}

/// One row of a team results file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileRow {
    line: usize,
    table: u32,
    board: u32,
    /// A tiebreak game's row (台次 `加赛N`), kept apart from the main boards.
    tiebreak: bool,
    red: String,
    black: String,
    result: String,
}

/// The headers a team results file is read by (a slip sheet's own columns).
const TABLE_HEADERS: &[&str] = &["场次", "match"];
const BOARD_HEADERS: &[&str] = &["台次", "board"];
const RED_HEADERS: &[&str] = &["红方", "red"];
const BLACK_HEADERS: &[&str] = &["黑方", "black"];
const RESULT_HEADERS: &[&str] = &["结果", "result"];

/// The board of a tiebreak game's 台次 cell (`加赛2`, `tiebreak 2`, `tb2`), if it is one.
fn tiebreak_board(cell: &str) -> Option<&str> {
    ["加赛", "tiebreak", "Tiebreak", "tb", "TB"]
        .iter()
        .find_map(|p| cell.strip_prefix(p))
}

/// Reads a team results file (the CSV of `round N --sheet slips`, or a workbook's first
/// sheet as text) against round `round` of `pool`: one row per board, each row's players
/// must be the board's, a row without a 结果 is skipped, and a match given in part is
/// refused (every board of a match or none). A row whose 台次 is `加赛N` is board N's
/// tiebreak game (its players the board's, colours reversed), recorded apart from the
/// main boards and only for a level match, as `result N 加赛 …`. Returns the entries to
/// record, main boards first.
pub fn read_team_results_file(
    text: &str,
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
) -> Result<Vec<MatchEntry>, TeamError> {
    team_rules(rules)?;
    let Some(stored) = event.team_pools.get(pool).and_then(|s| s.round(round)) else {
        return Err(missing_round(event, rules, pool, round));
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut header: Option<Vec<usize>> = None;
    let mut rows = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let line = i + 1;
        let Ok(rec) = rec else { continue };
        let cells: Vec<String> = rec
            .iter()
            .map(|c| {
                crate::sanitize::csv_cell_unguarded(c.trim().trim_start_matches('\u{feff}'))
                    .to_string()
            })
            .collect();
        let Some(cols) = &header else {
            let find = |names: &[&str]| {
                cells
                    .iter()
                    .position(|c| names.iter().any(|n| c.eq_ignore_ascii_case(n)))
            };
            if let (Some(t), Some(b), Some(r), Some(k), Some(x)) = (
                find(TABLE_HEADERS),
                find(BOARD_HEADERS),
                find(RED_HEADERS),
                find(BLACK_HEADERS),
                find(RESULT_HEADERS),
            ) {
                header = Some(vec![t, b, r, k, x]);
            }
            continue;
        };
        let get = |k: usize| cells.get(cols[k]).cloned().unwrap_or_default();
        let (t, b) = (get(0), get(1));
        if t.is_empty() && b.is_empty() {
            continue;
        }
        // `加赛2` (`tiebreak 2`, `tb2`): board 2's tiebreak game.
        let (tiebreak, digits) = match tiebreak_board(&b) {
            Some(rest) => (true, rest),
            None => (false, b.as_str()),
        };
        let (Ok(table), Ok(board)) = (t.parse::<u32>(), digits.trim().parse::<u32>()) else {
            return Err(TeamError::FileMismatch {
                line,
                what: format!("{t} / {b}"),
            });
        };
        rows.push(FileRow {
            line,
            table,
            board,
            tiebreak,
            red: get(2),
            black: get(3),
            result: get(4),
        });
    }
    if header.is_none() {
        return Err(TeamError::MissingColumn {
            column: "场次/台次/红方/黑方/结果".into(),
        });
    }
    let name = |id: PlayerId| {
        event
            .player(id)
            .map_or_else(String::new, |p| p.name.clone())
    };
    let mut entries: Vec<MatchEntry> = Vec::new();
    for row in &rows {
        let m = stored
            .matches
            .iter()
            .find(|m| m.table == row.table)
            .ok_or_else(|| TeamError::FileMismatch {
                line: row.line,
                what: format!("#{}", row.table),
            })?;
        let b = m
            .boards
            .iter()
            .find(|b| b.board == row.board)
            .ok_or_else(|| TeamError::FileMismatch {
                line: row.line,
                what: format!("#{} {}", row.table, row.board),
            })?;
        // A name with its team after it (`张三（红星队）`) or alone.
        let same = |cell: &str, id: PlayerId| {
            let n = name(id);
            cell == n || cell.starts_with(&format!("{n}(")) || cell.starts_with(&format!("{n}（"))
        };
        // A tiebreak game is the board's pair with colours reversed.
        let (red, black) = match row.tiebreak {
            true => (b.black, b.red),
            false => (b.red, b.black),
        };
        if !same(&row.red, red) || !same(&row.black, black) {
            return Err(TeamError::FileMismatch {
                line: row.line,
                what: format!("{} — {}", row.red, row.black),
            });
        }
        if row.result.is_empty() {
            continue;
        }
        let r = parse_board_token(&row.result, Where::Line(row.line))?;
        let key = |e: &MatchEntry| e.table == row.table && e.tiebreak == row.tiebreak;
        match entries.iter_mut().find(|e| key(e)) {
            Some(e) => e.results.push(r),
            None => entries.push(MatchEntry {
                table: row.table,
                tiebreak: row.tiebreak,
                absent: None,
                results: vec![r],
            }),
        }
        // Boards must come in order within a match, tiebreak games too.
        let e = entries.iter().find(|e| key(e)).expect("pushed");
        if e.results.len() as u32 != row.board {
            return Err(TeamError::FileMismatch {
                line: row.line,
                what: format!("#{} {}", row.table, row.board),
            });
        }
    }
    // Tiebreak games are played board by board until one side leads: any number from
    // board 1 on. The main boards of a match come first, so that they are recorded before
    // its tiebreak games are judged.
    entries.sort_by_key(|e| e.tiebreak);
    for e in entries.iter().filter(|e| !e.tiebreak) {
        let boards = stored
            .matches
            .iter()
            .find(|m| m.table == e.table)
            .map_or(0, |m| m.boards.len());
        if e.results.len() != boards {
            return Err(TeamError::BoardCount {
                table: e.table,
                given: e.results.len(),
                boards,
            });
        }
    }
    Ok(entries)
}
