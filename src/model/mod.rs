//! The event's data: players, groups, rounds, games and outcomes.
//!
//! Owns the plain domain types every other module shares. It decides nothing about
//! pairing, ranking or prizes and never touches files; points are integers in the
//! rulebook's own units (2/1/0 by default, CXA 2011 §13.1).

mod event;
mod game;
mod grade;
mod player;
mod team;
mod title;

pub use event::{
    Event, GroupState, PairedUnder, Penalty, Playoff, Relax, RelaxGiven, Relaxation,
    ReplacedResult, SCHEMA_VERSION, Warning,
};
pub use game::{Colour, GameResult, Outcome, Pairing, Round, colour_label};
pub use grade::{GradeScale, MAX_GRADE, MIN_GRADE, grade_label, grade_words};
pub use player::{Gender, MAX_RATING, Player, PlayerId, PlayerStatus, WithdrawalCause};
pub use team::{BoardGame, TeamId, TeamMatch, TeamPool, TeamRound, TeamWithdrawal};
pub use title::{TOP_RUNG, Title};

use serde::{Deserialize, Serialize};
use std::fmt;

/// Points in the rulebook's own integer units (2/1/0 under CXA 2011 §13.1). Sums and
/// differences saturate instead of wrapping, so no penalty or hand-edited value can turn
/// a total around (`rules check` bounds every point value well inside `i32`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Points(pub i32);

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, rhs: Points) -> Points {
        Points(self.0.saturating_add(rhs.0))
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, rhs: Points) {
        self.0 = self.0.saturating_add(rhs.0);
    }
}

impl std::ops::Sub for Points {
    type Output = Points;
    fn sub(self, rhs: Points) -> Points {
        Points(self.0.saturating_sub(rhs.0))
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        Points(iter.fold(0i32, |a, p| a.saturating_add(p.0)))
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A group's id as written in the rulebook (`adult`, `u16`, …).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GroupId(pub String);

impl GroupId {
    /// The group id `s`, as the rulebook spells it.
    pub fn new(s: impl Into<String>) -> Self {
        GroupId(s.into())
    }
    /// The id as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GroupId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Points;
    use crate::i18n::plural;

    /// Points print as the bare count, so `plural` writes `1 point` for one point.
    #[test]
    fn points_print_as_a_count_for_plural() {
        assert_eq!(plural(Points(1), "point", "points"), "1 point");
        assert_eq!(plural(Points(10), "point", "points"), "10 points");
    }
}
