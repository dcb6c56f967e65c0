//! A team competition's stored rounds (团体赛, docs/rules.md §17): each round's matches,
//! every board with its two players and result, the tiebreak boards apart from the main
//! ones, and the line-ups each team fielded. Plain data: `crate::teams` decides.

use super::{GameResult, PlayerId, WithdrawalCause};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A team's id in its pool: 1, 2, 3, … in the order the team's first player registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TeamId(pub u32);

impl fmt::Display for TeamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One board of a match: two players, red first, and the result once recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardGame {
    /// The board, 1-based (台次).
    pub board: u32,
    /// The player with red.
    pub red: PlayerId,
    /// The player with black.
    pub black: PlayerId,
    /// The result, seen from red.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
}

/// One match of a round: the team with 先 (`first`: red on odd boards, black on even ones,
/// 1999 §13.3) against `second`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatch {
    /// The match number in the round (场次), 1-based.
    pub table: u32,
    /// The team with 先.
    pub first: TeamId,
    /// The other team.
    pub second: TeamId,
    /// The main boards, board 1 first.
    pub boards: Vec<BoardGame>,
    /// Tiebreak games (加赛) of a level match: the same board pairs with colours reversed,
    /// board by board; kept apart from the main boards.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tiebreak: Vec<BoardGame>,
}

impl TeamMatch {
    /// Whether every main board has a result.
    pub fn is_complete(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_some())
    }
}

/// One round of a team pool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRound {
    /// 1-based.
    pub number: u32,
    /// The matches, match 1 first.
    pub matches: Vec<TeamMatch>,
    /// The team that sits out (轮空), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<TeamId>,
}

/// The rounds of one pool of teams.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TeamPool {
    /// Pairing numbers (序号) of the teams, given by the round-1 draw.
    #[serde(default)]
    pub numbers: Vec<(TeamId, u32)>,
    /// The seed of the draw and every lot.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Every round paired so far.
    #[serde(default)]
    pub rounds: Vec<TeamRound>,
    /// Hard pairing rules relaxed for want of a legal pairing (docs/rules.md §2.5), with
    /// teams' ids as the players.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relaxed: Vec<super::Relaxation>,
    /// Teams withdrawn as a whole (全队退赛), by hand or by the forfeit rule: not paired
    /// from `from_round` on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawn: Vec<TeamWithdrawal>,
    /// Teams `player reinstate --team` made active again, each with the round from which
    /// its forfeits count again toward the forfeit rule (as a player's `reinstated_from`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reinstated: Vec<(TeamId, u32)>,
    /// The match outcomes (as the shadow event's games) a correction replaced after a
    /// later round was paired, oldest first: `check --optimal` proves a round against the
    /// outcomes as they stood when it was paired (docs/rules.md §2.6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<super::ReplacedResult>,
}

/// A whole team's withdrawal: the cause typed as a player's ([`WithdrawalCause`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamWithdrawal {
    /// The team.
    pub team: TeamId,
    /// The first round the team is not paired in.
    pub from_round: u32,
    /// Why: the arbiter's decision, or whole matches forfeited up to the rulebook's limit.
    pub cause: WithdrawalCause,
}

impl TeamPool {
    /// Round `number`, if paired.
    pub fn round(&self, number: u32) -> Option<&TeamRound> {
        self.rounds.iter().find(|r| r.number == number)
    }

    /// The withdrawal of `team`, if it was withdrawn.
    pub fn withdrawal(&self, team: TeamId) -> Option<&TeamWithdrawal> {
        self.withdrawn.iter().find(|w| w.team == team)
    }

    /// Whether `team` may be paired in `round`.
    pub fn pairable_in(&self, team: TeamId, round: u32) -> bool {
        self.withdrawal(team).is_none_or(|w| round < w.from_round)
    }

    /// The pairing number of `team`.
    pub fn number_of(&self, team: TeamId) -> Option<u32> {
        self.numbers
            .iter()
            .find(|(t, _)| *t == team)
            .map(|(_, n)| *n)
    }
}
