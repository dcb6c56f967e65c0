//! What a standings computation produces (consumed by prizes, teams and reports).

use crate::model::{GroupId, PlayerId, Points};
use crate::rulebook::Tiebreak;
use serde::{Deserialize, Serialize};

/// One player's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingRow {
    /// The player's registration id.
    pub player: PlayerId,
    /// Place (1-based). Players with equal `rank` are tied (shown "3="). `None` for
    /// players who take no place (unranked entries, withdrawn players when the rulebook
    /// does not rank them).
    pub rank: Option<u32>,
    /// Whether the place is shared with another player.
    pub shared: bool,
    /// Total after penalties.
    pub score: Points,
    /// Points deducted by penalties.
    pub penalty: Points,
    /// Values of the rulebook's tiebreaks, in its order (same order as
    /// [`Standings::tiebreaks`]); `None` where a key does not apply (直胜 with more than
    /// two tied players).
    pub tiebreaks: Vec<Option<i64>>,
    /// Set on players tied for first that no key separated, when the rulebook says first
    /// place is never shared and no playoff has been recorded yet.
    pub needs_playoff: bool,
    /// How the last tie was settled, if by fallback, lot, number or playoff.
    pub decided_by: Option<DecidedBy>,
    /// Withdrawn or disqualified before the round after `after_round`: marked on every
    /// list, and ranked only as `conduct.withdrawn_ranked` says (docs/rules.md §6, §7.3).
    pub withdrawn: bool,
}

/// A pool's standings after a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// The pool ranked.
    pub group: GroupId,
    /// The round the standings are after: by default the newest round with every result
    /// in, so a half-entered round never reorders the table.
    pub after_round: u32,
    /// Games of round `after_round` still without a result: 0 unless no round is complete
    /// yet and the standings show round 1 as it stands.
    #[serde(default)]
    pub open_tables: u32,
    /// The rulebook's tiebreak keys in order (docs/rules.md §5.1–§5.3); each row's
    /// `tiebreaks` values follow this order.
    pub tiebreaks: Vec<Tiebreak>,
    /// Ranked players first (by rank), then unranked ones.
    pub rows: Vec<StandingRow>,
}

/// How a tie the rulebook's keys left was settled; the views word it in each language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "by")]
pub enum DecidedBy {
    /// CXA 2011 §14.3.1 比较前一轮成绩: the score after `round`.
    PrevRoundScore {
        /// The earlier round k whose cumulative score S_k separated the players (higher
        /// first), docs/rules.md §5.5.
        round: u32,
    },
    /// CXA 2011 §14.3.2 去除第N轮得分: the score of `round` dropped.
    RoundDropped {
        /// The round k whose points p_k separated the players (the lower ranks higher;
        /// rounds 1 … k−1 were equal), docs/rules.md §5.5.
        round: u32,
    },
    /// 比较前一轮名次: the rank after `round`.
    PrevRoundRank {
        /// The earlier round whose standings separated the players (docs/rules.md §5.5).
        round: u32,
    },
    /// A recorded playoff (加赛).
    Playoff,
    /// A seeded lot (抽签).
    Lot,
    /// Pairing-number order (序号).
    Number,
}
