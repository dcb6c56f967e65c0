//! A round-robin final stage's rounds (前六名单循环, docs/rules.md §16.7): the finalists
//! drawn from the Swiss ranking when the stage's first round is paired (a tie across the
//! line must be settled by a playoff first), numbered 1..N by their Swiss places, then
//! each round as the Berger table prints it. Nothing is optimised; a withdrawn finalist's
//! games are entered as forfeits.

use super::explain::TableNote;
use super::{Explanation, PairingError, PairingPlan, Violation};
use crate::model::{Event, GroupId, Round};
use crate::rulebook::Rulebook;
use crate::schedule::stage::{stage_field, stage_rounds};
use crate::schedule::{table_round, table_round_number};

/// Round `next` of pool `group`, a round of its round-robin final stage (the caller has
/// checked that the previous round is complete and that `next` is after the Swiss rounds).
pub(super) fn pair(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    next: u32,
) -> Result<PairingPlan, PairingError> {
    let (Some(stage), Some(swiss)) = (rules.round_robin_stage(group), rules.stage_after(group))
    else {
        return Err(PairingError::NoPlayers {
            group: group.clone(),
            round: next,
        });
    };
    let (field, stage_seeds) = match stage_field(event, rules, group) {
        Some(field) => (field, None),
        None => {
            let field =
                crate::standings::finalists(event, rules, group, swiss).map_err(|tied| {
                    PairingError::QualificationTie {
                        group: group.clone(),
                        players: tied.iter().map(|p| event.player_label(*p)).collect(),
                    }
                })?;
            (field.clone(), Some(field))
        }
    };
    if field.len() < 2 {
        return Err(PairingError::NoPlayers {
            group: group.clone(),
            round: next,
        });
    }
    let k = next - swiss;
    let Some(boards) = table_round(&field, stage.cycles, k) else {
        return Err(PairingError::AllRoundsPlayed {
            group: group.clone(),
            // The stage's own rounds: "all N rounds of the round robin are paired".
            rounds: stage_rounds(event, rules, group, stage),
            round_robin: true,
        });
    };
    // A finalist out of the event (withdrawn, disqualified) forfeits the table's game.
    let pairings = super::berger::table_pairings(event, boards, next);
    let players = u32::try_from(field.len()).unwrap_or(u32::MAX);
    let (table_round, cycle) = table_round_number(players, k);
    Ok(PairingPlan {
        round: Round {
            number: next,
            pairings,
        },
        numbers: Vec::new(),
        explanation: Explanation::printed(
            next,
            Some(TableNote {
                table_round,
                cycle,
                cycles: stage.cycles,
                players,
                seeding: None,
                stage: true,
            }),
            None,
        ),
        relaxed: Vec::new(),
        stage_seeds,
    })
}

/// `check` for a round of a round-robin final stage: every game and bye is the Berger
/// table's for the finalists drawn, red first.
pub(super) fn check(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    round: &Round,
) -> Vec<Violation> {
    let (Some(stage), Some(swiss)) = (rules.round_robin_stage(group), rules.stage_after(group))
    else {
        return Vec::new();
    };
    let field = stage_field(event, rules, group).unwrap_or_default();
    let want =
        table_round(&field, stage.cycles, round.number.saturating_sub(swiss)).unwrap_or_default();
    super::berger::against_table(round, &want)
}
