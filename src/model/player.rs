//! A registered player and their standing in the event.

use super::GroupId;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Event-wide registration id, assigned in import order and never reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u32);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gender {
    Male,
    Female,
}

/// Whether a player is still paired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum PlayerStatus {
    #[default]
    Active,
    /// Not paired from `from_round` on; played games stay (Dongguan: 对手分将保留).
    Withdrawn { from_round: u32, reason: String },
    /// 取消比赛资格 (Jinhua 五.5): not paired from `from_round` on and neither ranked nor
    /// awarded; games already played stay valid for the opponents' 对手分.
    Disqualified { from_round: u32, reason: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    #[serde(default)]
    pub gender: Option<Gender>,
    #[serde(default)]
    pub unit: String,
    /// The pool the player is paired in (a group without `pairs_with`).
    pub group: GroupId,
    /// The group label the player registered under when it differs from the pool,
    /// e.g. 残疾人组 for a disabled player paired in 成人组.
    #[serde(default)]
    pub section: Option<GroupId>,
    #[serde(default)]
    pub birth_date: Option<NaiveDate>,
    /// 18-digit resident ID (private: masked in every view unless asked for).
    #[serde(default)]
    pub id_number: Option<String>,
    /// School grade, 1 = first year of primary school … 12 = last year of senior school.
    #[serde(default)]
    pub grade: Option<u8>,
    #[serde(default)]
    pub rating: Option<i32>,
    /// Title held (称号), e.g. 象棋大师; checked against `no_master_title`.
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub disabled: bool,
    #[serde(default)]
    pub local: bool,
    /// Private: masked in every view unless asked for.
    #[serde(default)]
    pub phone: Option<String>,
    /// Columns of the registration sheet qiwang has no use for, kept verbatim.
    #[serde(default)]
    pub extra: BTreeMap<String, String>,
    /// Pairing number (序号) within the group, drawn before round 1; late entries get
    /// the next free number.
    #[serde(default)]
    pub number: Option<u32>,
    #[serde(default)]
    pub status: PlayerStatus,
    /// Results count but the player takes no place (补充参赛, 计成绩不计名次).
    #[serde(default)]
    pub unranked: bool,
    /// First round the player can be paired in (late entry); 1 for everyone else.
    #[serde(default = "one")]
    pub joined_round: u32,
}

fn one() -> u32 {
    1
}

impl Player {
    pub fn new(id: PlayerId, name: impl Into<String>, group: GroupId) -> Self {
        Player {
            id,
            name: name.into(),
            gender: None,
            unit: String::new(),
            group,
            section: None,
            birth_date: None,
            id_number: None,
            grade: None,
            rating: None,
            title: None,
            disabled: false,
            local: false,
            phone: None,
            extra: BTreeMap::new(),
            number: None,
            status: PlayerStatus::Active,
            unranked: false,
            joined_round: 1,
        }
    }

    /// Whether the player may be paired in `round`.
    pub fn pairable_in(&self, round: u32) -> bool {
        let active = match &self.status {
            PlayerStatus::Active => true,
            PlayerStatus::Withdrawn { from_round, .. }
            | PlayerStatus::Disqualified { from_round, .. } => round < *from_round,
        };
        active && self.joined_round <= round
    }

    pub fn is_withdrawn(&self) -> bool {
        matches!(self.status, PlayerStatus::Withdrawn { .. })
    }

    /// Whether the player was disqualified (取消比赛资格): never ranked or awarded.
    pub fn is_disqualified(&self) -> bool {
        matches!(self.status, PlayerStatus::Disqualified { .. })
    }
}
