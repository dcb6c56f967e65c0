//! The validated `[team_competition]` section: a 团体赛 in which teams of N boards meet
//! board against board (docs/rules.md §17). Owns the settings only; `crate::teams` plays
//! them.
//!
//! The default of every key is the CXA rule it comes from: 2/1/0 per board (局分) and 2/1/0
//! per match by comparing game points (场分, CXA 2011 §13.2), the team with 先 red on odd
//! boards and black on even ones (1999 §13.3, S5), ranking by 场分 then 局分, 直胜, 对手场分
//! and the higher boards first.

use crate::model::{Gender, Points};
use serde::{Deserialize, Serialize};

/// How the teams of a team competition meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TeamFormat {
    /// 积分编排制 over 场分 (the Swiss engine of docs/rules.md §2, a team as a player).
    #[default]
    Swiss,
    /// 循环赛 by the Berger tables (docs/rules.md §14), `cycles` times.
    RoundRobin,
}

impl TeamFormat {
    /// The group format it plays as, for the words that name it (`rulebook::system_name`).
    pub fn kind(self) -> super::FormatKind {
        match self {
            TeamFormat::Swiss => super::FormatKind::Swiss,
            TeamFormat::RoundRobin => super::FormatKind::RoundRobin,
        }
    }
}

/// A team tiebreak after 场分 (docs/rules.md §17.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamMatchTiebreak {
    /// 局分: game points of the main boards (higher first).
    GamePoints,
    /// 直胜: the match between the tied teams, only when exactly two are tied.
    DirectEncounter,
    /// 对手场分: the sum of the opponents' final 场分 (a bye adds nothing).
    OppMatchPoints,
    /// 台次分: game points on board 1 over the event, then board 2, … (higher boards first).
    BoardOrder,
    /// 胜场: matches won (on the boards or in tiebreak games).
    MatchWins,
}

/// How a level match is decided once every tiebreak board is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TiebreakDecider {
    /// The last tiebreak game drawn counts as a win for black (和棋黑胜, S7's Armageddon).
    #[default]
    Armageddon,
    /// A seeded lot, reproducible from the pool's seed, the round and the table.
    Lot,
}

/// `[team_competition.tiebreak_games]`: 加赛 for a level match (leagues, 象甲).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiebreakGames {
    /// What decides once every tiebreak board is drawn.
    pub decider: TiebreakDecider,
    /// Whether tiebreak games add to 局分 (default: 局分 from the main boards only).
    pub game_points_count: bool,
    /// 场分 of the team that wins the match in tiebreak games.
    pub win: Points,
    /// 场分 of the team that loses the match in tiebreak games.
    pub loss: Points,
}

/// `[team_competition]`: boards, reserves, points, colours, ranking and board prizes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatchRules {
    /// Boards each team fields in a match (台数).
    pub boards: u32,
    /// The most reserves (替补) a team may register beyond its boards.
    pub reserves: u32,
    /// Swiss or round robin.
    pub format: TeamFormat,
    /// Cycles of a round robin (1 单循环, 2 双循环).
    pub cycles: u32,
    /// 场分 of a match won, drawn and lost (CXA 2011 §13.2: 2/1/0).
    pub match_win: Points,
    /// 场分 of a drawn match.
    pub match_draw: Points,
    /// 场分 of a lost match.
    pub match_loss: Points,
    /// 局分 of a board won, drawn and lost (2/1/0), forfeits as won or lost.
    pub game_win: Points,
    /// 局分 of a drawn board.
    pub game_draw: Points,
    /// 局分 of a lost board.
    pub game_loss: Points,
    /// 场分 of a team bye (a won match, CXA 2011 §14.4 「轮空者的成绩按胜局计分」).
    pub bye_match_points: Points,
    /// 局分 of a team bye (every board won).
    pub bye_game_points: Points,
    /// The tiebreaks after 场分, in order.
    pub tiebreaks: Vec<TeamMatchTiebreak>,
    /// The fewest women a team must register (checked by the import).
    pub min_women: u32,
    /// The fewest games a player needs on a board for its board prize (最佳台次奖).
    pub board_prize_min_games: u32,
    /// Tiebreak games for a level match; `None`: a level match is drawn.
    pub tiebreak_games: Option<TiebreakGames>,
    /// Who may play a given board (a youth board, a women's board).
    pub board_rules: Vec<BoardRule>,
    /// What a whole team's withdrawal does to its matches in a round robin (the individual
    /// round robin's key and rule, docs/rules.md §14.4, §17.7).
    pub withdrawn_results: super::WithdrawnResults,
}

/// `[[team_competition.board_rules]]`: a condition on the player of one board, checked
/// at import for the player registered there and at every line-up change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRule {
    /// The board (台次).
    pub board: u32,
    /// The player's gender, if the board asks for one (女子台).
    pub gender: Option<Gender>,
    /// The oldest the player may be, in full years (周岁) on `event.start_date`.
    pub max_age: Option<u32>,
}

impl TeamMatchRules {
    /// The CXA defaults for `boards` boards.
    pub fn cxa(boards: u32) -> TeamMatchRules {
        TeamMatchRules {
            boards,
            reserves: 1,
            format: TeamFormat::Swiss,
            cycles: 1,
            match_win: Points(2),
            match_draw: Points(1),
            match_loss: Points(0),
            game_win: Points(2),
            game_draw: Points(1),
            game_loss: Points(0),
            bye_match_points: Points(2),
            bye_game_points: Points(2 * boards as i32),
            tiebreaks: DEFAULT_TEAM_MATCH_TIEBREAKS.to_vec(),
            min_women: 0,
            board_prize_min_games: 0,
            tiebreak_games: None,
            board_rules: Vec::new(),
            withdrawn_results: super::WithdrawnResults::HalfRule,
        }
    }

    /// The fewest games for a board prize in an event of `rounds` rounds: the key, else
    /// two thirds of the rounds, rounded up.
    pub fn board_prize_games(&self, rounds: u32) -> u32 {
        if self.board_prize_min_games > 0 {
            self.board_prize_min_games
        } else {
            (2 * rounds).div_ceil(3).max(1)
        }
    }
}

/// The CXA order after 场分: 局分, 直胜, 对手场分, 台次分 (docs/rules.md §17.5).
pub const DEFAULT_TEAM_MATCH_TIEBREAKS: [TeamMatchTiebreak; 4] = [
    TeamMatchTiebreak::GamePoints,
    TeamMatchTiebreak::DirectEncounter,
    TeamMatchTiebreak::OppMatchPoints,
    TeamMatchTiebreak::BoardOrder,
];
