//! The validated settings of the outcome: `[ranking]` (tiebreaks, the fallback and how a
//! remaining tie is settled), `[prizes]` (lists, filters, places and how shared money is
//! paid) and `[[teams]]` (team competitions over units' best players).

use crate::model::{Gender, GroupId};
use serde::{Deserialize, Serialize};

/// A tiebreak key (docs/rules.md §5.3), applied after 积分 in the rulebook's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    /// 对手分.
    OppScore,
    /// 累进分 / 累积分.
    Progressive,
    /// 胜局.
    Wins,
    /// 犯规 (fewer is better).
    Fouls,
    /// 后走局数.
    BlackGames,
    /// 后走胜局.
    BlackWins,
    /// 先手胜局.
    RedWins,
    /// 直胜 (only when exactly two players are tied).
    DirectEncounter,
    /// 中间分: 对手分 without the highest and lowest opponent.
    MedianOpp,
    /// 扣除对手分: 对手分 without the lowest opponent.
    CutOpp,
    /// 小分 (Sonneborn-Berger; round-robin, 2011 §14.1).
    SonnebornBerger,
    /// 相互间成绩: the points each tied player scored in the games among all the tied
    /// players (a mini-table, so also for three or more; docs/rules.md §14.3).
    Mutual,
}

/// What decides a tie once the tiebreak list is exhausted (docs/rules.md §5.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Fallback {
    /// CXA 2011 §14.3.1: compare S_{n-1}, then S_{n-2}, … (higher first).
    #[default]
    PrevRoundCumulative,
    /// CXA 2011 §14.3.2: drop round 1's points, then round 2's, … (lower p_1 ahead).
    DropRoundsFromFirst,
    /// S10 前一轮名次: the rank after round n-1, then n-2, …
    PrevRoundRank,
    /// No fallback: a tie after the tiebreaks goes straight to `unresolved`.
    None,
}

/// The virtual opponent's score for a bye in 对手分 (CXA 2011 §14.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ByeOppScore {
    /// 有分棋手中的最低得分: the lowest total above zero.
    #[default]
    LowestPositive,
    /// The lowest total of all players, zero included.
    LowestOverall,
    /// Zero.
    Zero,
}

/// How a tie left after every key is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TieResolution {
    /// Shown as a shared place ("3=").
    #[default]
    Shared,
    /// By a seeded lot recorded in the event.
    Lot,
    /// By pairing number, lower first.
    Number,
}

/// How an unresolved tie for first is settled (冠军不并列).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum UnresolvedFirst {
    /// Flagged; `qiwang playoff` records the result.
    #[default]
    Playoff,
    /// By a seeded lot recorded in the event.
    Lot,
    /// By pairing number, lower first.
    Number,
}

/// `[ranking]`: the tiebreaks, their fallback and how a remaining tie is settled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankingRules {
    /// The tiebreaks, in the order they are compared.
    pub tiebreaks: Vec<Tiebreak>,
    /// What is compared when every tiebreak is equal.
    pub fallback: Fallback,
    /// The virtual opponent's score a bye adds to 对手分.
    pub bye_opponent_score: ByeOppScore,
    /// A bye counts in 胜局 (§1.2: 按胜局计分).
    pub bye_counts_as_win: bool,
    /// A forfeit win counts in 胜局.
    pub forfeit_counts_as_win: bool,
    /// The forfeiting opponent counts in 对手分 (§5.4).
    pub forfeit_opponent_in_opp_score: bool,
    /// How ties left after the fallback are settled.
    pub unresolved: TieResolution,
    /// Places before this one are never shared (Dongguan 冠军不并列 → 2).
    pub shared_from_place: u32,
    /// How a tie for first left after every key is settled.
    pub unresolved_first: UnresolvedFirst,
    /// Whether a points penalty enters 累进分 (see [`PenaltyInProgressive`]).
    pub penalty_in_progressive: PenaltyInProgressive,
}

/// Whether a points penalty lowers the running totals 累进分 adds up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PenaltyInProgressive {
    /// 累进分 is Σ S_k over the game points of each round (CXA 2011 §14.3: 累进分 is built
    /// from the points scored in each round); a penalty lowers 积分 only.
    #[default]
    None,
    /// Each S_k has the penalties given by round k deducted, so a penalty given after
    /// round k lowers 累进分 by its points × (n − k).
    FromRound,
}

impl Default for RankingRules {
    fn default() -> Self {
        RankingRules {
            tiebreaks: vec![
                Tiebreak::OppScore,
                Tiebreak::Wins,
                Tiebreak::Fouls,
                Tiebreak::BlackGames,
            ],
            fallback: Fallback::PrevRoundCumulative,
            bye_opponent_score: ByeOppScore::LowestPositive,
            bye_counts_as_win: true,
            forfeit_counts_as_win: true,
            forfeit_opponent_in_opp_score: true,
            unresolved: TieResolution::Shared,
            shared_from_place: 2,
            unresolved_first: UnresolvedFirst::Playoff,
            penalty_in_progressive: PenaltyInProgressive::None,
        }
    }
}

/// How tied players are paid for the places they cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SharedMoney {
    /// Tied players split the money of the places they cover.
    #[default]
    Split,
    /// Each tied player gets the money of the highest place covered.
    EachHigher,
    /// Ties are resolved by the next key: the standings' row order already broke them,
    /// so the tied players take the places they cover one by one in row order.
    NextKey,
}

/// What a player placed in two prize lists receives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MultiplePrizes {
    /// A player placed in two lists takes both.
    #[default]
    TakeAll,
    /// Only the higher-value prize; the place passes down the other list.
    HigherOnly,
}

/// `[prizes]`: the prize lists and how their money is paid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct PrizeRules {
    /// How tied players are paid.
    pub shared_money: SharedMoney,
    /// What a player placed in two lists receives.
    pub multiple: MultiplePrizes,
    /// `[[prizes.lists]]`, in the order the sheet prints them.
    pub lists: Vec<PrizeList>,
    /// Whether withdrawn players and players without a game are ranked for prizes,
    /// certificates and qualification.
    pub withdrawn: WithdrawnPrizes,
    /// How a tie across the last place that carries a qualification is settled.
    pub qualification_ties: QualificationTies,
}

/// Who may take a place in a prize list (and with it money, award, title, qualification).
/// Disqualified players (取消比赛资格) never do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum WithdrawnPrizes {
    /// Withdrawn players keep their place, even without a game.
    Ranked,
    /// A withdrawn player takes no place in a prize list, whatever they played.
    Unranked,
    /// A player who played no game over the board (forfeits and byes are not games)
    /// takes no place; a withdrawn player who played keeps theirs.
    #[default]
    UnrankedIfNoGames,
}

/// A tie across the qualification line: the tied players share a place whose covered
/// places are partly with and partly without the list's qualification (Dongguan: top 8
/// qualify and five share 8th).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum QualificationTies {
    /// Every tied player qualifies (a shared place is the place itself).
    #[default]
    AllQualify,
    /// The remaining qualifying places go by the CXA 2011 §14.3.1 comparison (the score
    /// after round n−1, then n−2, …), then by pairing number.
    NextTiebreak,
    /// The remaining qualifying places go by a seeded lot (抽签).
    Lot,
    /// Nobody of the tie qualifies until a playoff is recorded (`qiwang playoff --list`).
    Playoff,
}

/// Which players of a pool a prize list ranks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct PrizeFilter {
    /// Only players of this gender.
    pub gender: Option<Gender>,
    /// Only players with (or without) the disabled mark.
    pub disabled: Option<bool>,
    /// Only local (or non-local) players.
    pub local: Option<bool>,
    /// Only players registered under this section.
    pub section: Option<GroupId>,
}

/// One place (or a range of places with the same prize).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrizePlace {
    /// The first place of the range, 1-based.
    pub from: u32,
    /// The last place of the range (equal to `from` for one place).
    pub to: u32,
    /// Money per place, in whole currency units.
    pub money: u32,
    /// 奖杯、奖牌、证书 …
    pub award: Option<String>,
    /// e.g. 金华市棋王.
    pub title: Option<String>,
    /// e.g. 晋级广东省总决赛.
    pub qualification: Option<String>,
}

/// One prize list: the places of a pool's standings, possibly filtered, and their prizes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrizeList {
    /// The id `--list` names.
    pub id: String,
    /// The name printed on the sheet.
    pub name: String,
    /// The pool whose standings this list ranks.
    pub group: GroupId,
    /// Which players of the pool the list ranks.
    pub filter: PrizeFilter,
    /// The prizes, place by place.
    pub places: Vec<PrizePlace>,
    /// Set on the two lists a `by_gender = true` entry is ranked as (成绩分开录取): the
    /// half this is and the entry as written, so `rules show` prints it back once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_gender: Option<Box<GenderSplit>>,
}

/// One half of a prize list written once and ranked separately for men and women
/// (`by_gender = true`): each half is an ordinary list with the gender in its filter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenderSplit {
    /// The half: its filter's gender.
    pub gender: Gender,
    /// The entry's `id` as written (the halves are `{id}_male` and `{id}_female`).
    pub id: String,
    /// The entry's `name` as written.
    pub name: String,
    /// The entry's places as written, `{性别}` not yet replaced.
    pub places: Vec<PrizePlace>,
}

impl GenderSplit {
    /// The word for the half: 男子 or 女子, the form Chinese prize lists use.
    pub fn word(gender: Gender) -> &'static str {
        match gender {
            Gender::Male => "男子",
            Gender::Female => "女子",
        }
    }
}

/// What a team's value adds up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TeamMetric {
    /// Sum of the best N members' ranks, lower is better (S10, S14, S15 default).
    #[default]
    RankSum,
    /// Sum of the best N members' points, higher is better.
    PointSum,
}

/// What happens to a unit with fewer ranked players than `best_n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ShortTeam {
    /// The unit is left out of the ranking.
    #[default]
    Exclude,
    /// Each missing member counts as the last rank (number of entrants + 1) or 0 points.
    Pad,
}

/// A key that separates teams with the same value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamTiebreak {
    /// Best individual rank of the counted members, then the next best, …
    BestIndividualRank,
    /// Sum of the counted members' 对手分.
    OppScoreSum,
    /// Sum of the counted members' points.
    PointSum,
    /// A seeded lot.
    Lot,
}

/// 团体: a unit's best N players of a pool (Jinhua: 成人团体取同单位最好的前三名).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TeamCompetition {
    /// The id the team ranking is referred to by.
    pub id: String,
    /// The name printed on the sheet.
    pub name: String,
    /// The pool whose standings rank the units.
    pub group: GroupId,
    /// How many of each unit's best players count.
    pub best_n: u32,
    /// Rank sum or point sum.
    pub metric: TeamMetric,
    /// What happens to a unit with fewer ranked players than `best_n`.
    pub short_team: ShortTeam,
    /// The keys that separate units with the same value, in order.
    pub tiebreaks: Vec<TeamTiebreak>,
    /// The prizes, place by place.
    pub places: Vec<PrizePlace>,
}
