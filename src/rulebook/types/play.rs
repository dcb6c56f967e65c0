//! The validated settings of play: `[scoring]` (points per result), `[pairing]` (the
//! round-1 draw, pairing within score groups, byes, the relax order), `[colours]` (colour
//! limits) and `[conduct]` (fouls, lateness, forfeits, withdrawals, penalties).

use crate::model::{Points, Relax};
use serde::{Deserialize, Serialize};

/// CXA 2011 §13.1/§13.3: a 6-tuple per colour plus bye and forfeits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scoring {
    /// A win with red.
    pub red_win: Points,
    /// A draw with red.
    pub red_draw: Points,
    /// A loss with red.
    pub red_loss: Points,
    /// A win with black.
    pub black_win: Points,
    /// A draw with black.
    pub black_draw: Points,
    /// A loss with black.
    pub black_loss: Points,
    /// CXA 2011 §14.4: a bye scores as a win.
    pub bye: Points,
    /// The winner's points when the opponent forfeits.
    pub forfeit_win: Points,
    /// The forfeiting player's points.
    pub forfeit_loss: Points,
    /// Each side's points in a double forfeit (双负: 0).
    pub double_forfeit: Points,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            red_win: Points(2),
            red_draw: Points(1),
            red_loss: Points(0),
            black_win: Points(2),
            black_draw: Points(1),
            black_loss: Points(0),
            bye: Points(2),
            forfeit_win: Points(2),
            forfeit_loss: Points(0),
            double_forfeit: Points(0),
        }
    }
}

/// How pairing numbers (序号) are given before round 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Seeding {
    /// 随机抽签 (Jinhua 补充规定: 首轮由电脑随机抽签编排).
    #[default]
    RandomDraw,
    /// Rated players by rating, unrated after them by lot (1999 appendix, S4).
    RatingThenLot,
    /// The registration sheet's 序号 column, as written (checked for gaps and repeats).
    Sheet,
}

/// How round 1 pairs the numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Round1Pairing {
    /// 近号配对 1-2, 3-4, … (colours by `Round1Colour`).
    #[default]
    Adjacent,
    /// 拦腰: 1-(n/2+1), 2-(n/2+2), …
    Halves,
    /// 首尾: 1-n, 2-(n-1), …
    FoldFirstLast,
    /// By lot.
    Random,
}

/// Who takes red in round 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Round1Colour {
    /// 单数台次小号先、双数台次大号先: 1-2, 4-3, 5-6, 8-7 … (Dalian 2025).
    #[default]
    OddBoardLowerRed,
    /// The upper-half player takes red on every board.
    UpperHalfRed,
    /// The lower number takes red on every board.
    AllLowerRed,
    /// The higher number takes red on every board.
    AllHigherRed,
    /// Red is drawn by lot on every board.
    ByLot,
}

/// How players of one score group are paired after round 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum WithinGroup {
    /// S15: due-red row against due-black row, adjacent in order.
    #[default]
    AdjacentColourRows,
    /// Monrad: 1-2, 3-4 in pairing order.
    Adjacent,
    /// FIDE-like top half against bottom half.
    FoldTopBottom,
}

/// Who gets red when two players' colour histories are identical (§3.3 step 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum EqualColourTie {
    /// 单数轮次小号先走，双数轮次大号先走.
    #[default]
    OddRoundLowerRed,
    /// 两号相加之和，奇数小号先走，偶数大号先走.
    NumberSumParity,
}

/// Whether players of the same unit are kept apart (同队回避).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TeamAvoidance {
    /// 同队队员不回避 (Jinhua).
    Off,
    /// Only in round 1.
    #[default]
    Round1Only,
    /// In every round.
    AllRounds,
}

/// Who takes the bye after round 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ByeChoice {
    /// 未曾轮空过的最低分.
    #[default]
    LowestScoreNeverByed,
    /// 最低分中轮空最少的.
    LowestScoreFewestByes,
}

/// Who takes the bye in an odd round 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Round1Bye {
    /// 如参赛棋手逢单，最大号为轮空 (Dalian 2025).
    #[default]
    HighestNumber,
    /// By lot.
    Lot,
}

/// In late rounds, give the higher-scored player of a pair the colour they are due when
/// the scores differ by at least `min_gap` (S15 `housanlun`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LateRoundsPriority {
    /// How many of the last rounds the priority applies to.
    pub last_rounds: u32,
    /// The smallest score difference that gives the higher-scored player priority (equal
    /// scores never do, so 0 acts as 1).
    pub min_gap: Points,
}

/// `[pairing]`: the round-1 draw and the pairing of later rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairingRules {
    /// How pairing numbers are drawn.
    pub seeding: Seeding,
    /// How round 1 pairs the numbers.
    pub round1: Round1Pairing,
    /// Who takes red in round 1.
    pub round1_colour: Round1Colour,
    /// Who takes the bye in an odd round 1.
    pub round1_bye: Round1Bye,
    /// How a score group is paired after round 1.
    pub within_group: WithinGroup,
    /// Who gets red when two colour histories are identical.
    pub equal_colour_tie: EqualColourTie,
    /// Whether players of one unit are kept apart.
    pub team_avoidance: TeamAvoidance,
    /// Who takes the bye after round 1.
    pub bye: ByeChoice,
    /// A pairing that ended in a forfeit still counts as "met" (no rematch).
    pub forfeit_counts_as_met: bool,
    /// Colour priority for the higher-scored player in the last rounds, if the regulation gives it.
    pub late_rounds_priority: Option<LateRoundsPriority>,
    /// The hard rules relaxed, when no pairing meets them all, in this order: the first
    /// is given up first and the last weighs most (docs/rules.md §2.5). Empty = stop.
    pub relax: Vec<Relax>,
}

/// docs/rules.md §2.5: colour limits first, then team avoidance, a rematch last.
pub const DEFAULT_RELAX: [Relax; 3] = [Relax::Colour, Relax::Team, Relax::Rematch];

impl Default for PairingRules {
    fn default() -> Self {
        PairingRules {
            seeding: Seeding::default(),
            round1: Round1Pairing::default(),
            round1_colour: Round1Colour::default(),
            round1_bye: Round1Bye::default(),
            within_group: WithinGroup::default(),
            equal_colour_tie: EqualColourTie::default(),
            team_avoidance: TeamAvoidance::default(),
            bye: ByeChoice::default(),
            forfeit_counts_as_met: true,
            late_rounds_priority: None,
            relax: DEFAULT_RELAX.to_vec(),
        }
    }
}

/// Colour hard limits (§3.2, S15 禁连3先/后, 禁多3先/后) and what counts for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColourRules {
    /// Longest allowed run of one colour (2 = no three in a row); `None` switches it off.
    pub max_streak: Option<u32>,
    /// Largest allowed |reds − blacks| (2 = never reaches ±3); `None` switches it off.
    pub max_diff: Option<u32>,
    /// In the final round a third colour in a row is allowed (S15 `bs_zuiJliansan`).
    pub relax_streak_last_round: bool,
    /// Forfeited games count in colour history and 后走局数 (§3.4).
    pub forfeit_counts: bool,
    /// A bye counts as a game with a colour (§1.2 default: no).
    pub bye_counts: bool,
}

impl Default for ColourRules {
    fn default() -> Self {
        ColourRules {
            max_streak: Some(2),
            max_diff: Some(2),
            relax_streak_last_round: true,
            forfeit_counts: true,
            bye_counts: false,
        }
    }
}

/// What arriving beyond `late_forfeit_minutes` is (`conduct.late_result`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LateResult {
    /// 作弃权: a forfeit, like a no-show (counts for the forfeit-withdrawal rule).
    #[default]
    Forfeit,
    /// 判负: a loss for lateness; not a no-show (不到) for the forfeit-withdrawal rule.
    Loss,
}

/// `[conduct]`: fouls, lateness, forfeits, withdrawals and penalties.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conduct {
    /// Fouls in one game that lose it (Jinhua 3, Dongguan 2).
    pub fouls_to_lose_game: u32,
    /// Minutes late that forfeit the game (Jinhua 10, Dongguan 15; 0 = absent at start).
    pub late_forfeit_minutes: u32,
    /// What arriving that late is, in the regulation's words: a forfeit (Jinhua 补充规定 八
    /// 迟到10分钟作弃权) or a loss (Dongguan 十五.5 迟到15分钟将判负). A late loss is entered
    /// as a forfeit marked late (`红迟到`, `-+late`) and is not a no-show (不到) for the
    /// forfeit-withdrawal rule.
    #[serde(default)]
    pub late_result: LateResult,
    /// Forfeits after which a player is no longer paired; `None` = never.
    pub withdraw_after_forfeits: Option<u32>,
    /// Whether those forfeits must be consecutive (连续) or count in total (累计).
    pub withdraw_consecutive: bool,
    /// Whether withdrawn players still take a place in the standings.
    pub withdrawn_ranked: bool,
    /// Whether games already played against a withdrawn player keep counting for the
    /// opponents' 对手分 (Dongguan: 对手分将保留).
    pub withdrawn_games_kept: bool,
    /// Whether the arbiter may deduct points (`qiwang penalty`).
    pub penalties_allowed: bool,
    /// The deduction for disturbing a game, if the regulation fixes one (Dongguan: 2).
    pub disturbance_penalty: Option<Points>,
    /// Whether a penalty may take 积分 below zero (`false`: a total is never below 0).
    #[serde(default = "yes")]
    pub penalty_below_zero: bool,
    /// Whether an opponent's negative 积分 counts as 0 in 对手分 (and 索伯分).
    #[serde(default)]
    pub negative_opp_score_as_zero: bool,
}

fn yes() -> bool {
    true
}

impl Default for Conduct {
    fn default() -> Self {
        Conduct {
            fouls_to_lose_game: 2,
            late_forfeit_minutes: 15,
            late_result: LateResult::Forfeit,
            withdraw_after_forfeits: Some(2),
            withdraw_consecutive: true,
            withdrawn_ranked: true,
            withdrawn_games_kept: true,
            penalties_allowed: true,
            disturbance_penalty: None,
            penalty_below_zero: true,
            negative_opp_score_as_zero: false,
        }
    }
}
