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

/// A player's gender, as registered or read from the ID card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gender {
    /// 男.
    Male,
    /// 女.
    Female,
}

/// Whether a player is still paired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case", tag = "status", from = "StoredStatus")]
pub enum PlayerStatus {
    /// Paired as usual.
    #[default]
    Active,
    /// Not paired from `from_round` on; played games stay (Dongguan: 对手分将保留).
    Withdrawn {
        /// The first round the player is not paired in.
        from_round: u32,
        /// Why (the arbiter, the forfeit rule, a cancelled group).
        cause: WithdrawalCause,
    },
    /// 取消比赛资格 (Jinhua 五.5): not paired from `from_round` on and neither ranked nor
    /// awarded; games already played stay valid for the opponents' 对手分.
    Disqualified {
        /// The first round the player is not paired in.
        from_round: u32,
        /// Why, as the arbiter wrote it (shown on the standings and the prize sheet).
        reason: String,
    },
}

/// Why a player is withdrawn. Stored as data, never as display text: the views word it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum WithdrawalCause {
    /// `qiwang player withdraw`: the arbiter's decision, with their note if they gave one
    /// (the views say 自愿退赛 / voluntary without one).
    Manual {
        /// The arbiter's note, if they gave one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// The rulebook's forfeit rule (`conduct.withdraw_after_forfeits`): derived from the
    /// results and recomputed whenever a result changes. `rounds` are the forfeited rounds
    /// that reached the limit; `consecutive` whether the rule counts them in a row (连续)
    /// or in total (累计).
    Forfeits {
        /// The forfeited rounds that reached the limit.
        rounds: Vec<u32>,
        /// Whether the rule counts forfeits in a row (连续) rather than in total (累计).
        consecutive: bool,
    },
    /// `qiwang group cancel`: the player's group was cancelled before round 1.
    GroupCancelled,
}

impl WithdrawalCause {
    /// Whether the forfeit rule made this withdrawal (and recomputes it).
    pub fn is_automatic(&self) -> bool {
        matches!(self, WithdrawalCause::Forfeits { .. })
    }
}

/// [`PlayerStatus`] as read from a state file of any supported schema version: schema 1
/// stored a withdrawal as free text, with the forfeit rule's withdrawals prefixed
/// `[auto]` and a voluntary one worded in the event's language (`voluntary`, 自愿退赛).
#[derive(Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
enum StoredStatus {
    Active,
    Withdrawn {
        from_round: u32,
        #[serde(default)]
        cause: Option<WithdrawalCause>,
        /// Schema 1.
        #[serde(default)]
        reason: Option<String>,
    },
    Disqualified {
        from_round: u32,
        reason: String,
    },
}

impl From<StoredStatus> for PlayerStatus {
    fn from(s: StoredStatus) -> Self {
        match s {
            StoredStatus::Active => PlayerStatus::Active,
            StoredStatus::Disqualified { from_round, reason } => {
                PlayerStatus::Disqualified { from_round, reason }
            }
            StoredStatus::Withdrawn {
                from_round,
                cause,
                reason,
            } => PlayerStatus::Withdrawn {
                from_round,
                cause: cause.unwrap_or_else(|| schema1_cause(reason.as_deref().unwrap_or(""))),
            },
        }
    }
}

/// The cause of a schema-1 withdrawal from its reason text.
fn schema1_cause(reason: &str) -> WithdrawalCause {
    if let Some(rest) = reason.strip_prefix("[auto]") {
        // `[auto] 连续2轮弃权 (forfeited rounds 1, 2)`
        let rounds = rest
            .split_once("forfeited rounds")
            .map(|(_, list)| {
                list.split(|c: char| !c.is_ascii_digit())
                    .filter_map(|n| n.parse().ok())
                    .collect()
            })
            .unwrap_or_default();
        return WithdrawalCause::Forfeits {
            rounds,
            consecutive: !rest.contains("累计"),
        };
    }
    let reason = reason.trim();
    let note = match reason {
        "" | "voluntary" | "自愿退赛" => None,
        other => Some(other.to_string()),
    };
    WithdrawalCause::Manual { note }
}

/// The highest rating (等级分) a player may have: ratings have at most four digits, and
/// TRF's rating field holds four. Registration refuses a higher one, TRF export too.
pub const MAX_RATING: i32 = 9999;

/// A registered player and everything the regulations judge them by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The player's id, fixed at registration (never reused).
    pub id: PlayerId,
    /// The name as registered (cleaned of stray spaces).
    pub name: String,
    /// Gender, from the sheet or the ID card; `None` when neither gives it.
    #[serde(default)]
    pub gender: Option<Gender>,
    /// The unit (单位: club, school, city) the player represents; empty for none.
    #[serde(default)]
    pub unit: String,
    /// The pool the player is paired in (a group without `pairs_with`).
    pub group: GroupId,
    /// The group label the player registered under when it differs from the pool,
    /// e.g. 残疾人组 for a disabled player paired in 成人组.
    #[serde(default)]
    pub section: Option<GroupId>,
    /// Date of birth, from the sheet or the ID card.
    #[serde(default)]
    pub birth_date: Option<NaiveDate>,
    /// 18-digit resident ID (private: masked in every view unless asked for).
    #[serde(default)]
    pub id_number: Option<String>,
    /// School grade, 1 = first year of primary school … 12 = last year of senior school;
    /// kindergarten 大班 0, 中班 −1, 小班 −2 (see [`super::GradeScale`]).
    #[serde(default)]
    pub grade: Option<i8>,
    /// Rating (等级分), when the sheet gives one; orders the round-1 draw if the rulebook says so.
    /// Registration keeps it within 0..=[`MAX_RATING`].
    #[serde(default)]
    pub rating: Option<i32>,
    /// Title held (称号), the canonical name of a [`super::Title`] (e.g. 棋协大师); checked
    /// against a group's `below_title` / `max_title`.
    #[serde(default)]
    pub title: Option<String>,
    /// Holds a disability certificate (残疾证).
    #[serde(default)]
    pub disabled: bool,
    /// A local resident, for groups open to locals only (本地组).
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
    /// Active, withdrawn or disqualified.
    #[serde(default)]
    pub status: PlayerStatus,
    /// Results count but the player takes no place (补充参赛, 计成绩不计名次).
    #[serde(default)]
    pub unranked: bool,
    /// First round the player can be paired in (late entry); 1 for everyone else.
    #[serde(default = "one")]
    pub joined_round: u32,
    /// Set by `player reinstate`: forfeits before this round no longer count toward the
    /// rulebook's forfeit withdrawal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reinstated_from: Option<u32>,
    /// Rounds `from..to` a withdrawal or disqualification kept the player out of before
    /// `player reinstate` (or `player disqualify --undo`) made them active again: they were
    /// not to be paired there, so `check` does not miss them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absences: Vec<(u32, u32)>,
    /// The registration sheet's 序号 for this player, when it was a whole number: the
    /// pairing number under `seeding = "sheet"` (docs/rules.md §2.2, §14.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet_number: Option<u32>,
}

fn one() -> u32 {
    1
}

impl Player {
    /// The name as a message or confirmation prints it: masked where it holds an ID or
    /// phone number ([`crate::privacy::typed`], as a name typed by hand is quoted back:
    /// kept by an older qiwang or a hand edit of the state; the import and `player
    /// add/edit` refuse one), else as stored. The reports mask it the same way
    /// (`views::mask_names_and_units`).
    pub fn shown_name(&self) -> std::borrow::Cow<'_, str> {
        crate::privacy::typed(&self.name)
    }

    /// An active player `id` named `name` in pool `group`, with nothing else known.
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
            reinstated_from: None,
            absences: Vec::new(),
            sheet_number: None,
        }
    }

    /// Whether the player may be paired in `round`.
    pub fn pairable_in(&self, round: u32) -> bool {
        let active = match &self.status {
            PlayerStatus::Active => true,
            PlayerStatus::Withdrawn { from_round, .. }
            | PlayerStatus::Disqualified { from_round, .. } => round < *from_round,
        };
        active
            && self.joined_round <= round
            && !self
                .absences
                .iter()
                .any(|&(from, to)| (from..to).contains(&round))
    }

    /// The round from which a withdrawal or disqualification keeps the player out.
    pub fn out_from(&self) -> Option<u32> {
        match &self.status {
            PlayerStatus::Active => None,
            PlayerStatus::Withdrawn { from_round, .. }
            | PlayerStatus::Disqualified { from_round, .. } => Some(*from_round),
        }
    }

    /// Makes the player active again from round `from`, recording the rounds their
    /// withdrawal or disqualification kept them out of.
    pub fn reactivate(&mut self, from: u32) {
        if let Some(out) = self.out_from()
            && out < from
        {
            self.absences.push((out, from));
        }
        self.status = PlayerStatus::Active;
    }

    /// Whether the player withdrew (not a disqualification).
    pub fn is_withdrawn(&self) -> bool {
        matches!(self.status, PlayerStatus::Withdrawn { .. })
    }

    /// Whether the player takes part in round `round` or later: registered by then and
    /// neither withdrawn nor disqualified before it. The one count of "players in a
    /// group" (`group sizes`, the minimum-size check, the pairing) uses it.
    pub fn takes_part_from(&self, round: u32) -> bool {
        match &self.status {
            PlayerStatus::Active => true,
            PlayerStatus::Withdrawn { from_round, .. }
            | PlayerStatus::Disqualified { from_round, .. } => round < *from_round,
        }
    }

    /// Whether the player was disqualified (取消比赛资格): never ranked or awarded.
    pub fn is_disqualified(&self) -> bool {
        matches!(self.status, PlayerStatus::Disqualified { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Schema 1 stored a withdrawal's cause as text (`results::record` wrote the `[auto]`
    /// line, `player withdraw` the rest); this is the one place that text is read back.
    #[test]
    fn a_schema_1_withdrawal_reason_becomes_a_typed_cause() {
        let forfeits = |rounds: Vec<u32>, consecutive| WithdrawalCause::Forfeits {
            rounds,
            consecutive,
        };
        let manual = |note: Option<&str>| WithdrawalCause::Manual {
            note: note.map(str::to_string),
        };
        let cases = [
            (
                "[auto] 连续2轮弃权 (forfeited rounds 1, 2)",
                forfeits(vec![1, 2], true),
            ),
            (
                "[auto] 累计3轮弃权 (forfeited rounds 2, 5, 7)",
                forfeits(vec![2, 5, 7], false),
            ),
            ("[auto] 连续2轮弃权", forfeits(vec![], true)),
            ("voluntary", manual(None)),
            ("自愿退赛", manual(None)),
            ("", manual(None)),
            ("  身体不适 ", manual(Some("身体不适"))),
            (
                "left for school [auto]",
                manual(Some("left for school [auto]")),
            ),
        ];
        for (reason, expected) in cases {
            let json = serde_json::json!({
                "status": "withdrawn", "from_round": 3, "reason": reason,
            });
            let status: PlayerStatus = serde_json::from_value(json).unwrap();
            assert_eq!(
                status,
                PlayerStatus::Withdrawn {
                    from_round: 3,
                    cause: expected
                },
                "{reason:?}"
            );
        }
        // A schema-2 cause wins over any text beside it; no reason at all is voluntary.
        let json = serde_json::json!({
            "status": "withdrawn", "from_round": 2, "reason": "[auto] x",
            "cause": { "kind": "group_cancelled" },
        });
        let status: PlayerStatus = serde_json::from_value(json).unwrap();
        assert!(matches!(
            status,
            PlayerStatus::Withdrawn {
                cause: WithdrawalCause::GroupCancelled,
                ..
            }
        ));
        let json = serde_json::json!({ "status": "withdrawn", "from_round": 2 });
        let status: PlayerStatus = serde_json::from_value(json).unwrap();
        assert_eq!(
            status,
            PlayerStatus::Withdrawn {
                from_round: 2,
                cause: manual(None)
            }
        );
    }
}
