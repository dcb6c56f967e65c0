//! The teams of a team competition (团体赛, docs/rules.md §17.1) as the registration sheet
//! gives them: the team is the 队名/单位 column, the board order the 台次 column and a
//! reserve the 替补 column (or `替补` written as the 台次). Owns reading those cells back
//! from a player, grouping the players of a pool into teams, and the checks an import
//! refuses by cell: a player with no team, a team of the wrong size, too many reserves,
//! board orders with a gap or twice, a player in two teams, too few women.

use super::headers::header_key;
use super::problems::{Place, RowError};
use crate::i18n::Text;
use crate::model::{Gender, GroupId, Player, PlayerId, TeamId};
use crate::rulebook::{Rulebook, TeamMatchRules};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Header spellings (in [`header_key`] form) of the board-order column.
const BOARD_HEADERS: &[&str] = &[
    "台次",
    "台号",
    "出场台次",
    "出场顺序",
    "board",
    "boardorder",
];
/// Header spellings of the reserve column.
const RESERVE_HEADERS: &[&str] = &["替补", "是否替补", "reserve", "substitute", "sub"];

/// Whether a header is one of the team columns (not an unknown column in a team event).
pub fn is_team_column(header: &str) -> bool {
    let key = header_key(header);
    BOARD_HEADERS.contains(&key.as_str()) || RESERVE_HEADERS.contains(&key.as_str())
}

/// A registered player of a team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The player.
    pub player: PlayerId,
    /// The registered board order (台次); `None` when the sheet gave none.
    pub order: Option<u32>,
    /// Registered as a reserve (替补).
    pub reserve: bool,
}

/// A team of a pool, its members in registered order: the main players by 台次, then the
/// reserves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    /// 1, 2, 3, … in the order the team's first player registered.
    pub id: TeamId,
    /// The team's name (its 队名/单位).
    pub name: String,
    /// Every registered player, main players first in board order, then reserves.
    pub members: Vec<Member>,
}

impl Team {
    /// The main players, in board order (the default line-up).
    pub fn main(&self) -> impl Iterator<Item = &Member> {
        self.members.iter().filter(|m| !m.reserve)
    }

    /// Where `player` stands in the registered order (0-based), if a member.
    pub fn position(&self, player: PlayerId) -> Option<usize> {
        self.members.iter().position(|m| m.player == player)
    }
}

fn cell<'a>(p: &'a Player, headers: &[&str]) -> Option<(&'a str, &'a str)> {
    p.extra
        .iter()
        .find(|(k, _)| headers.contains(&header_key(k).as_str()))
        .map(|(k, v)| (k.as_str(), v.trim()))
}

fn is_yes(v: &str) -> bool {
    matches!(
        v.to_lowercase().as_str(),
        "是" | "替补" | "y" | "yes" | "true" | "1" | "√" | "✓" | "x" | "替"
    )
}

/// What a player's team cells say: (board order, reserve), or why they cannot be read.
fn read_cells(p: &Player) -> Result<(Option<u32>, bool), (String, Text)> {
    let reserve_cell = cell(p, RESERVE_HEADERS);
    let mut reserve = reserve_cell.is_some_and(|(_, v)| is_yes(v));
    let mut order = None;
    if let Some((header, v)) = cell(p, BOARD_HEADERS) {
        // `替补`, or in an English sheet `reserve` / `sub`, in place of a board order.
        let english = ["reserve", "sub", "substitute"]
            .iter()
            .any(|w| v.eq_ignore_ascii_case(w));
        let digits: String = match english {
            true => String::new(),
            false => v.trim_start_matches("替补").trim().to_string(),
        };
        if v.starts_with("替补") || english {
            reserve = true;
        }
        if !digits.is_empty() {
            match digits.parse::<u32>() {
                Ok(n) if n >= 1 => order = Some(n),
                _ => {
                    return Err((
                        header.to_string(),
                        Text::new(
                            format!("台次 `{v}` 不是正整数；写 1、2、3 …，替补写 `替补`"),
                            format!(
                                "board order `{v}` is not a positive whole number; write 1, 2, 3 …, and `替补` (or `reserve`) for a reserve"
                            ),
                        ),
                    ));
                }
            }
        }
    }
    Ok((order, reserve))
}

/// A player's 台次 as the sheet gave it (`1`, `替补`), empty when none: what the player
/// list of a team competition shows.
pub fn board_text(p: &Player) -> String {
    match read_cells(p) {
        Ok((_, true)) => "替补".into(),
        Ok((Some(n), false)) => n.to_string(),
        _ => String::new(),
    }
}

/// The teams of pool `pool` among `players`, in the order their first player registered.
/// A player whose cells cannot be read counts as a main player without board order (the
/// import refuses such a sheet; this reads a stored event).
pub fn teams_in(players: &[Player], pool: &GroupId) -> Vec<Team> {
    let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
    let mut teams: Vec<Team> = Vec::new();
    for p in players.iter().filter(|p| &p.group == pool) {
        let (order, reserve) = read_cells(p).unwrap_or((None, false));
        let i = *by_name.entry(p.unit.trim()).or_insert_with(|| {
            teams.push(Team {
                id: TeamId(teams.len() as u32 + 1),
                name: p.unit.trim().to_string(),
                members: Vec::new(),
            });
            teams.len() - 1
        });
        teams[i].members.push(Member {
            player: p.id,
            order,
            reserve,
        });
    }
    for t in &mut teams {
        // Stable: players without an order keep registration order among themselves.
        t.members
            .sort_by_key(|m| (m.reserve, m.order.unwrap_or(u32::MAX)));
    }
    teams
}

/// Where a player's row is in the sheet, for refusing it by cell.
#[derive(Debug, Clone)]
pub(super) struct RowAt {
    /// 1-based row.
    pub line: usize,
    /// The file and worksheet, when messages must name them.
    pub at: Option<Place>,
    /// The headers of the row's sheet, to find a column's letter.
    pub names: Rc<Vec<String>>,
}

/// One refusal: the player, the column (its header as written, `None` for the row) and
/// what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterProblem {
    /// The player whose row is refused.
    pub player: PlayerId,
    /// The column the problem is in.
    pub column: Option<String>,
    /// What is wrong and how to fix it.
    pub text: Text,
}

/// Every problem of the teams of `players` under `team` (docs/rules.md §17.1).
pub fn roster_problems(players: &[Player], rules: &Rulebook) -> Vec<RosterProblem> {
    let Some(team) = &rules.team_competition else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for p in players {
        if p.unit.trim().is_empty() {
            out.push(RosterProblem {
                player: p.id,
                column: Some("队名".into()),
                text: Text::new(
                    "团体赛的每名棋手都须写明所属队（队名/单位 列）",
                    "every player of a team competition needs a team (the 队名/单位 column)",
                ),
            });
        }
        if let Err((column, text)) = read_cells(p) {
            out.push(RosterProblem {
                player: p.id,
                column: Some(column),
                text,
            });
        }
    }
    // A player in two teams: the same name and birth date (or ID) under two team names.
    let mut seen: BTreeMap<(String, String), (&str, PlayerId)> = BTreeMap::new();
    for p in players {
        let who = p
            .id_number
            .clone()
            .or_else(|| p.birth_date.map(|d| d.to_string()));
        let Some(who) = who else { continue };
        match seen.get(&(p.name.clone(), who.clone())) {
            Some((unit, _)) if *unit != p.unit.trim() => out.push(RosterProblem {
                player: p.id,
                column: Some("队名".into()),
                text: Text::new(
                    format!("{} 已在 `{unit}` 队报名；一名棋手只能属于一个队", p.name),
                    format!("{} is already registered with team `{unit}`; a player belongs to one team only", p.name),
                ),
            }),
            _ => {
                seen.insert((p.name.clone(), who), (p.unit.trim(), p.id));
            }
        }
    }
    let pools: Vec<GroupId> = {
        let mut v: Vec<GroupId> = players.iter().map(|p| p.group.clone()).collect();
        v.sort();
        v.dedup();
        v
    };
    for pool in &pools {
        for t in teams_in(players, pool) {
            if t.name.is_empty() {
                continue;
            }
            team_problems(&t, players, team, &mut out);
            board_rule_problems(&t, players, rules, &mut out);
        }
    }
    out
}

fn team_problems(
    t: &Team,
    players: &[Player],
    rules: &TeamMatchRules,
    out: &mut Vec<RosterProblem>,
) {
    let boards = rules.boards as usize;
    let main: Vec<&Member> = t.main().collect();
    let reserves = t.members.len() - main.len();
    let last = t.members.last().map_or(PlayerId(0), |m| m.player);
    let name = &t.name;
    if main.len() != boards {
        out.push(RosterProblem {
            player: main.last().map_or(last, |m| m.player),
            column: Some("队名".into()),
            text: Text::new(
                format!("`{name}` 队有 {} 名主力队员，规程要求每队 {boards} 台（替补另计）", main.len()),
                format!("team `{name}` has {} main players; the rulebook asks for {boards} boards (reserves apart)", main.len()),
            ),
        });
    }
    if reserves as u32 > rules.reserves {
        out.push(RosterProblem {
            player: last,
            column: Some("替补".into()),
            text: Text::new(
                format!(
                    "`{name}` 队有 {reserves} 名替补，规程至多 {} 名",
                    rules.reserves
                ),
                format!(
                    "team `{name}` has {reserves} reserves; the rulebook allows at most {}",
                    rules.reserves
                ),
            ),
        });
    }
    // Board orders: 1..=boards each once among the main players, when the sheet gives them.
    if main.iter().any(|m| m.order.is_some()) {
        let mut taken: BTreeMap<u32, PlayerId> = BTreeMap::new();
        for m in &main {
            match m.order {
                None => out.push(RosterProblem {
                    player: m.player,
                    column: Some("台次".into()),
                    text: Text::new(
                        format!("`{name}` 队其他队员写了台次，此人没有；请写 1 到 {boards}"),
                        format!("the other players of team `{name}` have a board order and this one has none; write 1 to {boards}"),
                    ),
                }),
                Some(n) if taken.contains_key(&n) => out.push(RosterProblem {
                    player: m.player,
                    column: Some("台次".into()),
                    text: Text::new(
                        format!("`{name}` 队的第 {n} 台写了两次"),
                        format!("board {n} of team `{name}` is given twice"),
                    ),
                }),
                Some(n) => {
                    taken.insert(n, m.player);
                }
            }
        }
        let expected = main.len().min(boards) as u32;
        if let Some(gap) = (1..=expected).find(|n| !taken.contains_key(n))
            && let Some((&beyond, &player)) = taken.iter().find(|(n, _)| **n > expected)
        {
            out.push(RosterProblem {
                player,
                column: Some("台次".into()),
                text: Text::new(
                    format!("`{name}` 队的台次缺第 {gap} 台却有第 {beyond} 台；台次须从 1 起连续"),
                    format!("team `{name}` has board {beyond} but no board {gap}; board orders run from 1 without gaps"),
                ),
            });
        }
    }
    if rules.min_women > 0 {
        let women = t
            .members
            .iter()
            .filter(|m| {
                players
                    .iter()
                    .find(|p| p.id == m.player)
                    .is_some_and(|p| p.gender == Some(Gender::Female))
            })
            .count() as u32;
        if women < rules.min_women {
            out.push(RosterProblem {
                player: last,
                column: Some("性别".into()),
                text: Text::new(
                    format!(
                        "`{name}` 队只有 {women} 名女棋手，规程要求至少 {}",
                        rules.min_women
                    ),
                    format!(
                        "team `{name}` has {women} women; the rulebook asks for at least {}",
                        rules.min_women
                    ),
                ),
            });
        }
    }
}

/// Whether `p` may play board `board` under the rulebook's board rules: `Err` with why not.
pub fn board_rule_check(p: &Player, board: u32, rules: &Rulebook) -> Result<(), (String, Text)> {
    let Some(team) = &rules.team_competition else {
        return Ok(());
    };
    let Some(rule) = team.board_rules.iter().find(|r| r.board == board) else {
        return Ok(());
    };
    if let Some(g) = rule.gender
        && p.gender != Some(g)
    {
        let (zh, en) = match g {
            Gender::Female => ("女棋手", "a woman"),
            Gender::Male => ("男棋手", "a man"),
        };
        return Err((
            "性别".into(),
            Text::new(
                format!("第 {board} 台须由{zh}出场，{} 不符", p.name),
                format!("board {board} is for {en}; {} is not", p.name),
            ),
        ));
    }
    if let (Some(max), Some(day)) = (rule.max_age, rules.event.start_date) {
        match p.birth_date {
            None => {
                return Err((
                    "出生日期".into(),
                    Text::new(
                        format!(
                            "第 {board} 台限 {max} 周岁以下，{} 没有出生日期或身份证号",
                            p.name
                        ),
                        format!(
                            "board {board} is for players aged {max} or under; {} has no birth date or ID number",
                            p.name
                        ),
                    ),
                ));
            }
            Some(birth) => {
                let age = super::eligibility::age_on(birth, day);
                if age > max as i32 {
                    return Err((
                        "出生日期".into(),
                        Text::new(
                            format!(
                                "第 {board} 台限 {max} 周岁以下，{} 在 {day} 为 {age} 周岁",
                                p.name
                            ),
                            format!(
                                "board {board} is for players aged {max} or under; {} is {age} on {day}",
                                p.name
                            ),
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The board rules against the players registered on those boards.
fn board_rule_problems(
    t: &Team,
    players: &[Player],
    rules: &Rulebook,
    out: &mut Vec<RosterProblem>,
) {
    for m in t.main() {
        let (Some(board), Some(p)) = (m.order, players.iter().find(|p| p.id == m.player)) else {
            continue;
        };
        if let Err((column, text)) = board_rule_check(p, board, rules) {
            out.push(RosterProblem {
                player: p.id,
                column: Some(column),
                text,
            });
        }
    }
}

/// The refusals of a batch, located at the rows of the new players (`rows`, one per new
/// player in order): problems of players registered before are not this batch's.
pub(super) fn located(
    all: &[Player],
    new: &[Player],
    rows: &[RowAt],
    rules: &Rulebook,
) -> Vec<RowError> {
    let index: BTreeMap<PlayerId, &RowAt> = new.iter().map(|p| p.id).zip(rows).collect();
    let mut out = Vec::new();
    for problem in roster_problems(all, rules) {
        let Some(row) = index.get(&problem.player) else {
            continue;
        };
        let column = problem.column.as_ref().and_then(|c| {
            row.names
                .iter()
                .find(|n| header_key(n) == header_key(c) || is_alias(n, c))
                .cloned()
        });
        let col = column
            .as_ref()
            .and_then(|c| row.names.iter().position(|n| n == c));
        let mut e = RowError::new(row.line, column.or(problem.column), None, problem.text);
        if let Some(at) = &row.at {
            e.place = Some(Box::new(Place {
                col: if at.sheet.is_some() { col } else { None },
                ..at.clone()
            }));
        }
        out.push(e);
    }
    out.sort_by_key(|e| e.line);
    out
}

/// Whether header `written` is the sheet's spelling of the column `wanted` names.
fn is_alias(written: &str, wanted: &str) -> bool {
    use super::headers::{Field, field_of};
    match wanted {
        "队名" => field_of(written) == Some(Field::Unit),
        "性别" => field_of(written) == Some(Field::Gender),
        "出生日期" => matches!(field_of(written), Some(Field::BirthDate | Field::IdNumber)),
        "台次" => BOARD_HEADERS.contains(&header_key(written).as_str()),
        "替补" => RESERVE_HEADERS.contains(&header_key(written).as_str()),
        _ => false,
    }
}
