//! The validated rulebook: what every other module reads.
//!
//! These types are produced only by `Rulebook::from_toml` (parse + validation); nothing
//! downstream sees raw TOML. Each setting cites the rule clause or regulation sentence it
//! comes from; `rules/README.md` documents the TOML keys.

use crate::i18n::Lang;
use crate::model::{Gender, GroupId, Points, Relax};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// An event's regulation as qiwang applies it: one value per rule, read from `rules.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rulebook {
    /// `[event]`: name, dates, rounds, language and limits.
    pub event: EventInfo,
    /// `[[groups]]`: the 组别, pools and sections, with who may enter.
    pub groups: Vec<GroupRule>,
    /// `[scoring]`: the points of each result.
    pub scoring: Scoring,
    /// `[pairing]`: the round-1 draw and the pairing of later rounds.
    pub pairing: PairingRules,
    /// `[colours]`: how red and black are given.
    pub colours: ColourRules,
    /// `[conduct]`: fouls, lateness, forfeits, withdrawals and penalties.
    pub conduct: Conduct,
    /// `[ranking]`: tiebreaks, their fallback and how a remaining tie is settled.
    pub ranking: RankingRules,
    /// `[prizes]`: prize lists and how money of shared places is paid.
    pub prizes: PrizeRules,
    /// `[[teams]]`: team competitions over units' best players.
    pub teams: Vec<TeamCompetition>,
    /// `[publish]`: the player columns published beyond name, unit, group, gender,
    /// rating and title (none by default).
    #[serde(default)]
    pub publish: super::PublishRules,
    /// Which settings the rulebook file wrote; every other one is qiwang's default.
    #[serde(skip)]
    pub written: WrittenKeys,
}

/// The settings a rulebook file wrote, as dotted paths (`conduct.late_forfeit_minutes`,
/// `groups[2].eligibility.under_age`). A shipped rulebook writes what its regulation
/// states; the rest are defaults that `rules show` marks "default, not in the regulation".
/// `None` for a rulebook not read from a file. Provenance, not a rule: two rulebooks with
/// the same rules are equal whatever they wrote.
#[derive(Debug, Clone, Default)]
pub struct WrittenKeys(pub Option<BTreeSet<String>>);

impl PartialEq for WrittenKeys {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl WrittenKeys {
    /// Whether the setting at `path` is a default the file did not write.
    pub fn is_default(&self, path: &str) -> bool {
        self.0.as_ref().is_some_and(|keys| !keys.contains(path))
    }
}

/// `[event]`: what the event is called, when and where it is played, and its limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventInfo {
    /// The event's full name, printed on every sheet.
    pub name: String,
    /// A shorter name for narrow headers, if the regulation gives one.
    pub short_name: Option<String>,
    /// The organiser (主办单位).
    pub organiser: Option<String>,
    /// The venue (比赛地点).
    pub venue: Option<String>,
    /// The first day of play; also the default date ages are taken on.
    pub start_date: Option<NaiveDate>,
    /// The last day of play.
    pub end_date: Option<NaiveDate>,
    /// e.g. "CXA 2011" (执行《象棋竞赛规则2011》).
    pub rules_edition: String,
    /// The language qiwang prints in unless `--lang` says otherwise.
    pub language: Lang,
    /// Free text, e.g. "25分钟+5秒" (Jinhua 十二.(三)).
    pub time_control: String,
    /// Rounds for every group unless a group says otherwise.
    pub rounds: u32,
    /// Currency label for prize money ("元").
    pub currency: String,
    /// Largest number of registered players (Dongguan 十四.1 报名总人数暂限300人).
    pub max_players: Option<u32>,
    /// When each round is played, free text per round in order (`"10月27日 8:30"`),
    /// printed on that round's sheets (Jinhua 竞赛日程).
    #[serde(default)]
    pub round_times: Vec<String>,
    /// Who signs the printed sheets (`"裁判长"`): a signature line under the pairing
    /// sheet and the wall chart.
    #[serde(default)]
    pub signature: Option<String>,
}

/// A 组别. A group without `pairs_with` is a pairing pool; one with `pairs_with` is a
/// section whose players are paired in another pool but registered (and often ranked)
/// separately: Jinhua's 残疾人组 plays in 成人组, Dongguan's 本地组 in 棋王组.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupRule {
    /// The id commands and the state use (`adult`).
    pub id: GroupId,
    /// The regulation's name (成人组); accepted wherever a group is named.
    pub name: String,
    /// Other labels a registration sheet may use for this group.
    pub aliases: Vec<String>,
    /// The pool this section is paired in; `None` for a pool.
    pub pairs_with: Option<GroupId>,
    /// Flags set on a player who registers under this group (e.g. 残疾人组 → disabled).
    pub marks: Marks,
    /// Overrides `event.rounds`.
    pub rounds: Option<u32>,
    /// Overrides `event.time_control`.
    pub time_control: Option<String>,
    /// Groups with fewer registered players are cancelled or merged (Dongguan 九).
    pub min_size: Option<u32>,
    /// Where an under-size pool's players go (具体划分新组别视具体情况而定); without it
    /// an under-size pool is cancelled.
    pub merge_into: Option<GroupId>,
    /// Who may enter the group.
    pub eligibility: Eligibility,
}

/// Flags set on every player registered under a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Marks {
    /// The player is marked disabled (残疾人组).
    pub disabled: bool,
    /// The player is marked local (本地组).
    pub local: bool,
}

/// Who may enter a group. Every limit is optional.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Eligibility {
    /// The age limit (full years, 周岁) on `age_reference`: "16周岁以下" → 16. Whether a
    /// player of exactly this age may enter is `age_max_inclusive`.
    pub under_age: Option<u32>,
    /// Whether `under_age` itself is allowed: `true` reads 16周岁以下 as "16 or younger"
    /// (legal usage, 以下 includes the number), `false` as "under 16" (sports usage). A
    /// rulebook that sets `under_age` must say which; no default.
    #[serde(default)]
    pub age_max_inclusive: Option<bool>,
    /// Age on `age_reference` must be at least this.
    pub min_age: Option<u32>,
    /// Defaults to the event's start date.
    pub age_reference: Option<NaiveDate>,
    /// School grade range, 1–12 (一年级 = 1; 初一 = 7; 高一 = 10).
    pub min_grade: Option<u8>,
    /// Highest school grade allowed.
    pub max_grade: Option<u8>,
    /// Must be a student (在读学生): a grade must be given.
    pub student: bool,
    /// Only this gender may enter (女子组).
    pub gender: Option<Gender>,
    /// Must hold a disabled certificate (必须有残疾证).
    pub disabled: bool,
    /// Must be local (持有东莞身份证、社保、居住证).
    pub local: bool,
    /// No national master title (未获得国家级运动健将、象棋大师称号).
    pub no_master_title: bool,
}

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
        }
    }
}

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

impl Rulebook {
    /// The most players the event takes: `event.max_players`, else
    /// [`DEFAULT_MAX_PLAYERS`](super::bounds::DEFAULT_MAX_PLAYERS).
    pub fn max_players(&self) -> u32 {
        self.event
            .max_players
            .unwrap_or(super::bounds::DEFAULT_MAX_PLAYERS)
    }

    /// The rule for a group named by id, regulation name or alias.
    pub fn find_group(&self, name: &str) -> Option<&GroupRule> {
        let name = name.trim();
        self.groups.iter().find(|g| {
            g.id.as_str() == name || g.name == name || g.aliases.iter().any(|a| a == name)
        })
    }

    /// The pool a group (or section) is paired in.
    pub fn pool_of<'a>(&'a self, group: &'a GroupRule) -> &'a GroupId {
        group.pairs_with.as_ref().unwrap_or(&group.id)
    }

    /// Groups that are paired on their own.
    pub fn pools(&self) -> impl Iterator<Item = &GroupRule> {
        self.groups.iter().filter(|g| g.pairs_with.is_none())
    }

    /// Rounds scheduled for a pool.
    pub fn rounds_for(&self, group: &GroupId) -> u32 {
        self.groups
            .iter()
            .find(|g| &g.id == group)
            .and_then(|g| g.rounds)
            .unwrap_or(self.event.rounds)
    }

    /// The rule for the group with id `id`.
    pub fn group(&self, id: &GroupId) -> Option<&GroupRule> {
        self.groups.iter().find(|g| &g.id == id)
    }
}

impl Rulebook {
    /// The CXA 2011 §14.3.1 preset with one pool `open` (for tests and as a template).
    pub fn cxa_2011(name: &str, rounds: u32) -> Rulebook {
        Rulebook {
            written: WrittenKeys::default(),
            event: EventInfo {
                name: name.to_string(),
                short_name: None,
                organiser: None,
                venue: None,
                start_date: None,
                end_date: None,
                rules_edition: "CXA 2011".to_string(),
                language: Lang::Zh,
                time_control: String::new(),
                rounds,
                currency: "元".to_string(),
                max_players: None,
                round_times: Vec::new(),
                signature: None,
            },
            groups: vec![GroupRule {
                id: GroupId::new("open"),
                name: "公开组".to_string(),
                aliases: Vec::new(),
                pairs_with: None,
                marks: Marks::default(),
                rounds: None,
                time_control: None,
                min_size: None,
                merge_into: None,
                eligibility: Eligibility::default(),
            }],
            scoring: Scoring::default(),
            pairing: PairingRules::default(),
            colours: ColourRules::default(),
            conduct: Conduct::default(),
            ranking: RankingRules::default(),
            prizes: PrizeRules::default(),
            teams: Vec::new(),
            publish: super::PublishRules::default(),
        }
    }
}
