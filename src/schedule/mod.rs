//! How many rounds a pool plays and, for a round robin, which Berger-table round each
//! round is (docs/rules.md §14); for a knockout, its bracket ([`bracket`], §16).
//!
//! Owns the link between a pool's players and the schedule `formats::round_robin` makes
//! for numbers 1..=n: who the n players are (their pairing numbers, given before round 1)
//! and what a table round is in players. A Swiss pool's rounds are the rulebook's, and a
//! round outside them is named by its [`RoundLimit`]. Pure:
//! reads the event and the rulebook, never files or a random number.

pub mod bracket;
pub mod stage;

use crate::formats::round_robin::{Board, berger_round, rounds_per_cycle};
use crate::i18n::{bi, plural};
use crate::model::{Event, GroupId, PlayerId};
use crate::rulebook::{Lang, Rulebook};

/// One table of a round-robin round in players: a game (red first) or a bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableBoard {
    /// The players at a table, red (先走) first.
    Game {
        /// The player with red.
        red: PlayerId,
        /// The player with black.
        black: PlayerId,
    },
    /// The player with no opponent this round (odd field).
    Bye(PlayerId),
}

/// The players of a round robin, by pairing number (index 0 is number 1): once round 1 is
/// paired, the players it holds; before it, `None` (their numbers are not given yet).
pub fn round_robin_field(event: &Event, group: &GroupId) -> Option<Vec<PlayerId>> {
    let first = event.group(group)?.round(1)?;
    let mut field: Vec<(u32, PlayerId)> = first
        .pairings
        .iter()
        .flat_map(crate::model::Pairing::players)
        .map(|id| {
            (
                event.player(id).and_then(|p| p.number).unwrap_or(u32::MAX),
                id,
            )
        })
        .collect();
    field.sort_unstable();
    Some(field.into_iter().map(|(_, id)| id).collect())
}

/// The size of a round robin's field: round 1's players once it is paired, else the
/// players who can play round 1.
pub fn round_robin_size(event: &Event, group: &GroupId) -> u32 {
    match round_robin_field(event, group) {
        Some(field) => u32::try_from(field.len()).unwrap_or(u32::MAX),
        None => u32::try_from(event.players_in(group).filter(|p| p.pairable_in(1)).count())
            .unwrap_or(u32::MAX),
    }
}

/// Rounds pool `group` plays: a round robin's cycles times the rounds of one cycle of its
/// field (n − 1 for even n, n for odd), a Swiss pool's `rounds` (and its final stage's).
pub fn rounds_of(event: &Event, rules: &Rulebook, group: &GroupId) -> u32 {
    let format = rules.format_of(group);
    if format.plays_knockout() {
        return bracket::rounds_estimate(event, rules, group);
    }
    if let Some(s) = rules.round_robin_stage(group) {
        return rules
            .rounds_for(group)
            .saturating_add(stage::stage_rounds(event, rules, group, s));
    }
    if format.is_round_robin() {
        rounds_per_cycle(round_robin_size(event, group)).saturating_mul(format.cycles)
    } else {
        rules.rounds_for(group)
    }
}

/// The rounds the rulebook schedules for an individual pool, as a refusal of a round
/// outside them names them: "本赛事共 9 轮" / "the event has 9 rounds", or the pool's own
/// count where it plays another number (its own `rounds`, a round robin's field).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundLimit {
    /// Rounds the pool plays ([`rounds_of`]).
    pub rounds: u32,
    /// Whether that is the event's `rounds` (the pool sets none of its own and is Swiss).
    pub event_wide: bool,
}

impl RoundLimit {
    /// The limit of pool `group`: `None` where the number of rounds is not fixed by the
    /// rulebook and the field (a knockout's depend on its results) or the pool belongs to a
    /// team competition (whose rounds are the team schedule's).
    pub fn of(event: &Event, rules: &Rulebook, group: &GroupId) -> Option<RoundLimit> {
        let format = rules.format_of(group);
        if format.plays_knockout() || rules.team_competition.is_some() {
            return None;
        }
        let own = rules.group(group).and_then(|g| g.rounds).is_some();
        Some(RoundLimit {
            rounds: rounds_of(event, rules, group),
            event_wide: !own && !format.is_round_robin() && format.final_stage.is_none(),
        })
    }

    /// Whether `round` lies outside the schedule: round 0, or past the last round.
    pub fn excludes(self, round: u32) -> bool {
        round == 0 || round > self.rounds
    }

    /// Why `round` is not a round of the pool, in `lang`: rounds count from 1, or the
    /// number of rounds (`本赛事共 9 轮`).
    pub fn reason(self, round: u32, lang: Lang) -> String {
        let n = self.rounds;
        match (round, self.event_wide) {
            (0, _) => lang
                .pick("轮次从 1 开始", "rounds count from 1")
                .to_string(),
            (_, true) => bi!(
                lang,
                zh("本赛事共 {n} 轮"),
                en("the event has {}", plural(n, "round", "rounds"))
            ),
            (_, false) => bi!(
                lang,
                zh("该组别共 {n} 轮"),
                en("the group plays {}", plural(n, "round", "rounds"))
            ),
        }
    }
}

/// Round `round` of a round robin as the tables print it, the players put in by their
/// numbers (`field[k − 1]` is number k). `None` outside the schedule.
pub fn table_round(field: &[PlayerId], cycles: u32, round: u32) -> Option<Vec<TableBoard>> {
    let n = u32::try_from(field.len()).ok()?;
    let player = |k: u32| field[(k - 1) as usize];
    let boards = berger_round(n, cycles, round)?;
    Some(
        boards
            .into_iter()
            .map(|b| match b {
                Board::Game { red, black } => TableBoard::Game {
                    red: player(red),
                    black: player(black),
                },
                Board::Bye(k) => TableBoard::Bye(player(k)),
            })
            .collect(),
    )
}

/// The Berger-table round `round` is in its cycle (1-based) and the cycle (1-based).
pub fn table_round_number(players: u32, round: u32) -> (u32, u32) {
    let per = rounds_per_cycle(players).max(1);
    let r = round.saturating_sub(1);
    (r % per + 1, r / per + 1)
}
