//! The validated rulebook: what every other module reads.
//!
//! These types are produced only by `Rulebook::from_toml` (parse + validation); nothing
//! downstream sees raw TOML. Each setting cites the rule clause or regulation sentence it
//! comes from; `rules/README.md` documents the TOML keys.
//!
//! This file owns the [`Rulebook`] itself, `[event]` and `[[groups]]` (with marks and
//! eligibility), the lookups every module uses (`find_group`, `pool_of`, `rounds_for`)
//! and the CXA 2011 preset. The settings of play are in [`play`] (`[scoring]`,
//! `[pairing]`, `[colours]`, `[conduct]`), those of the outcome in [`ranking`]
//! (`[ranking]`, `[prizes]`, `[[teams]]`); both are re-exported here.

mod format;
mod play;
mod ranking;
mod team_match;

pub use format::*;
pub use play::*;
pub use ranking::*;
pub use team_match::*;

use crate::i18n::Lang;
use crate::model::{Gender, GradeScale, GroupId};
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
    /// `[team_competition]`: a 团体赛 of teams meeting board against board (docs/rules.md
    /// §17); `None` for an individual event.
    #[serde(default)]
    pub team_competition: Option<TeamMatchRules>,
    /// `[publish]`: the player columns published beyond name, unit, group, gender,
    /// rating and title (none by default).
    #[serde(default)]
    pub publish: super::PublishRules,
    /// Which settings the rulebook file wrote; every other one is qiwang's default.
    #[serde(skip)]
    pub written: WrittenKeys,
    /// `[readings]`: for a setting whose regulation reads two ways, the clause the chosen
    /// reading follows, by the setting's path as `rules show` names it
    /// (`"prizes.multiple" = "东莞 十二.3 …"`); `rules show` prints it beside the setting.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub readings: std::collections::BTreeMap<String, String>,
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
    /// How school years count (六三制 or 五四制): decides what a 年级 cell such as 初一 and
    /// a `min_grade = "初一"` mean. Default 六三制.
    #[serde(default)]
    pub grade_scale: GradeScale,
    /// The registration deadline (报名截止日期), the day itself included: `player add`
    /// after it needs `--late` and is logged as a late entry.
    #[serde(default)]
    pub registration_deadline: Option<NaiveDate>,
    /// Entries are refused once this round has been paired in the player's pool (1: no
    /// entry after round 1; not set: late entries are taken until the last round).
    #[serde(default)]
    pub entries_close_after_round: Option<u32>,
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
    /// Where the pool's games stand in the hall (docs/rules.md §12 (table numbers)): its own hall and
    /// its own first table number; by default the tables of every pool of a round are
    /// numbered on from the pool before it in rulebook order.
    #[serde(default)]
    pub hall: HallPlace,
    /// How the group is played: Swiss (default) or round robin, with its keys.
    #[serde(
        default = "GroupFormat::swiss",
        skip_serializing_if = "GroupFormat::is_default_swiss"
    )]
    pub format: GroupFormat,
}

/// A pool's place in the hall: which hall (room) its tables stand in and the number of its
/// first table, each `None` for the default (the one hall; on from the pool before).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct HallPlace {
    /// The hall's name as the slips and table cards print it (`二楼`); pools in the same
    /// hall are numbered on from each other, each hall from 1.
    pub name: Option<String>,
    /// The pool's first table number in every round (`first_table = 101`); the pools
    /// after it in the same hall are numbered on from its last table.
    pub first_table: Option<u32>,
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
    /// Birth on or after this day (`2009年1月1日以后出生`, the day itself included).
    #[serde(default)]
    pub born_on_or_after: Option<NaiveDate>,
    /// Birth after this day, the day itself excluded.
    #[serde(default)]
    pub born_after: Option<NaiveDate>,
    /// Birth on or before this day (`2008年12月31日以前出生`, the day itself included).
    #[serde(default)]
    pub born_on_or_before: Option<NaiveDate>,
    /// Birth before this day, the day itself excluded.
    #[serde(default)]
    pub born_before: Option<NaiveDate>,
    /// School grade range on the event's grade scale (幼儿园小班 = −2, 大班 = 0, 一年级 =
    /// 1; 初一 = 7 under 六三制; 高一 = 10).
    pub min_grade: Option<i8>,
    /// Highest school grade allowed.
    pub max_grade: Option<i8>,
    /// Must be a student (在读学生): a grade must be given.
    pub student: bool,
    /// Only this gender may enter (女子组).
    pub gender: Option<Gender>,
    /// Must hold a disabled certificate (必须有残疾证).
    pub disabled: bool,
    /// Must be local (持有东莞身份证、社保、居住证).
    pub local: bool,
    /// Titles the player must rank below (未获得国家级运动健将、象棋大师称号 → both; a
    /// title of their rung or above bars the player), canonical names of [`crate::model::Title`].
    /// The old key `no_master_title = true` reads as `["国家级运动健将"]`.
    #[serde(default)]
    pub below_title: Vec<String>,
    /// The highest title allowed (`棋协大师` for 棋协大师及以下).
    #[serde(default)]
    pub max_title: Option<String>,
}

impl Eligibility {
    /// Whether the birth date decides (an age on a day, or a birth-date cutoff).
    pub fn limits_birth(&self) -> bool {
        self.under_age.is_some()
            || self.min_age.is_some()
            || self.born_on_or_after.is_some()
            || self.born_after.is_some()
            || self.born_on_or_before.is_some()
            || self.born_before.is_some()
    }
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

    /// The hall `group`'s tables stand in when the rulebook gives it its own (`hall =
    /// "二楼"`, docs/rules.md §12 (table numbers)); `None`: the main hall.
    pub fn hall_of(&self, group: &GroupId) -> Option<&str> {
        self.group(group).and_then(|g| g.hall.name.as_deref())
    }

    /// The pools of `pool`'s hall, `pool` itself included, in rulebook order (the order the
    /// hall numbers their tables in).
    pub fn pools_in_hall_of<'a>(
        &'a self,
        pool: &GroupId,
    ) -> impl Iterator<Item = &'a GroupRule> + 'a {
        let hall = self.hall_of(pool);
        self.pools().filter(move |g| g.hall.name.as_deref() == hall)
    }

    /// The format of a pool (Swiss for a group not found).
    pub fn format_of(&self, group: &GroupId) -> GroupFormat {
        self.group(group)
            .map_or_else(GroupFormat::swiss, |g| g.format.clone())
    }

    /// Whether a pool is a knockout.
    pub fn is_knockout(&self, group: &GroupId) -> bool {
        self.group(group).is_some_and(|g| g.format.is_knockout())
    }

    /// The last Swiss round of a pool with a final stage, knockout or round robin (its
    /// `rounds`), `None` for a pool without one (docs/rules.md §16.6, §16.7).
    pub fn stage_after(&self, group: &GroupId) -> Option<u32> {
        self.group(group)
            .filter(|g| g.format.final_stage.is_some())
            .map(|_| self.rounds_for(group))
    }

    /// The Swiss rounds before a pool's knockout final stage (`None` without one).
    pub fn knockout_stage_after(&self, group: &GroupId) -> Option<u32> {
        self.stage_after(group)
            .filter(|_| self.round_robin_stage(group).is_none())
    }

    /// The Swiss rounds before a pool's round-robin final stage (`None` without one;
    /// docs/rules.md §16.7).
    pub fn round_robin_stage_after(&self, group: &GroupId) -> Option<u32> {
        self.stage_after(group)
            .filter(|_| self.round_robin_stage(group).is_some())
    }

    /// A pool's final stage after its Swiss rounds (docs/rules.md §16), if it has one.
    pub fn final_stage(&self, group: &GroupId) -> Option<FinalStage> {
        self.group(group).and_then(|g| g.format.final_stage)
    }

    /// A pool's round-robin final stage (docs/rules.md §16.7), if it has one.
    pub fn round_robin_stage(&self, group: &GroupId) -> Option<FinalStage> {
        self.final_stage(group).filter(FinalStage::is_round_robin)
    }

    /// Whether a pool is a round robin.
    pub fn is_round_robin(&self, group: &GroupId) -> bool {
        self.group(group).is_some_and(|g| g.format.is_round_robin())
    }

    /// Rounds scheduled for a Swiss pool (a round robin's follow from its field:
    /// `schedule::rounds_of`).
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

    /// Group `id` as the rulebook names it, or its id when the rulebook does not know it
    /// (a state edited by hand, a rulebook changed since).
    pub fn group_name(&self, id: &GroupId) -> String {
        self.group(id)
            .map_or_else(|| id.to_string(), |g| g.name.clone())
    }
}

impl Rulebook {
    /// The CXA 2011 §14.3.1 preset with one pool `open` (for tests and as a template).
    pub fn cxa_2011(name: &str, rounds: u32) -> Rulebook {
        Rulebook {
            written: WrittenKeys::default(),
            readings: std::collections::BTreeMap::new(),
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
                grade_scale: GradeScale::default(),
                registration_deadline: None,
                entries_close_after_round: None,
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
                hall: Default::default(),
                format: GroupFormat::swiss(),
            }],
            scoring: Scoring::default(),
            pairing: PairingRules::default(),
            colours: ColourRules::default(),
            conduct: Conduct::default(),
            ranking: RankingRules::default(),
            prizes: PrizeRules::default(),
            teams: Vec::new(),
            team_competition: None,
            publish: super::PublishRules::default(),
        }
    }
}
