//! A round-robin pool's rounds (docs/rules.md §14): the players' numbers before round 1
//! (by lot, by rating or from the registration sheet), then each round as the Berger
//! table prints it. Nothing is optimised and nobody is re-paired: a player withdrawn or
//! disqualified keeps their place in the table, and their games are entered as forfeits
//! when the round is paired (what counts of them is the ranking's business, §14.4).

use super::explain::TableNote;
use super::{Explanation, PairingError, PairingPlan, Rule, Violation};
use crate::model::{Event, GameResult, GroupId, Outcome, Pairing, PlayerId, Round};
use crate::rulebook::Rulebook;
use crate::schedule::{TableBoard, round_robin_field, table_round, table_round_number};

/// Round `next` of the round-robin pool `group` (the caller has checked that the previous
/// round is complete and that `next` is within the schedule).
pub(super) fn pair(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    next: u32,
    seed: u64,
) -> Result<PairingPlan, PairingError> {
    let format = rules.format_of(group);
    let (field, numbers) = if next == 1 {
        let numbers = super::assign_numbers(event, rules, group, 1, seed)?;
        let mut field: Vec<(u32, PlayerId)> = event
            .players_in(group)
            .filter(|p| p.pairable_in(1))
            .filter_map(|p| numbers.get(&p.id).copied().or(p.number).map(|n| (n, p.id)))
            .collect();
        field.sort_unstable();
        let mut numbers: Vec<(PlayerId, u32)> = numbers.into_iter().collect();
        numbers.sort_by_key(|(id, n)| (*n, *id));
        (field.into_iter().map(|(_, id)| id).collect(), numbers)
    } else {
        (
            round_robin_field(event, group).unwrap_or_default(),
            Vec::new(),
        )
    };
    super::knockout::outside_field(event, group, next, &field)?;
    if field.len() < 2 {
        return Err(PairingError::NoPlayers {
            group: group.clone(),
            round: next,
        });
    }
    let Some(boards) = table_round(&field, format.cycles, next) else {
        return Err(PairingError::AllRoundsPlayed {
            group: group.clone(),
            rounds: crate::schedule::rounds_of(event, rules, group),
            round_robin: true,
        });
    };
    let pairings = table_pairings(event, boards, next);
    let players = u32::try_from(field.len()).unwrap_or(u32::MAX);
    let (table_round, cycle) = table_round_number(players, next);
    let seeding = format.seeding.unwrap_or(rules.pairing.seeding);
    let explanation = Explanation::printed(
        next,
        Some(TableNote {
            table_round,
            cycle,
            cycles: format.cycles,
            players,
            seeding: (next == 1).then_some((seeding, seed)),
            stage: false,
        }),
        None,
    );
    Ok(PairingPlan {
        round: Round {
            number: next,
            pairings,
        },
        numbers,
        explanation,
        relaxed: Vec::new(),
        stage_seeds: None,
    })
}

/// `check` for a round-robin round: every game and bye is the Berger table's, red first,
/// and no table number is used twice. Withdrawn players stay in the table (their games
/// are forfeits), so nothing else of the Swiss rules applies.
pub(super) fn check(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    round: &Round,
) -> Vec<Violation> {
    let cycles = rules.format_of(group).cycles;
    let field = round_robin_field(event, group).unwrap_or_default();
    let want: Vec<TableBoard> = table_round(&field, cycles, round.number).unwrap_or_default();
    against_table(round, &want)
}

/// The violations of `round` against the table round `want`: a game or bye not in it, a
/// board of it missing, a table number used twice (a round-robin final stage's check too).
pub(super) fn against_table(round: &Round, want: &[TableBoard]) -> Vec<Violation> {
    let off = |players: Vec<PlayerId>| Violation {
        round: round.number,
        players,
        rule: Rule::OffTable {
            table_round: round.number,
        },
    };
    let mut out = Vec::new();
    let mut tables = std::collections::BTreeSet::new();
    for p in &round.pairings {
        let stored = match *p {
            Pairing::Game {
                table, red, black, ..
            } => {
                if !tables.insert(table) {
                    out.push(Violation {
                        round: round.number,
                        players: Vec::new(),
                        rule: Rule::DuplicateTable { table },
                    });
                }
                TableBoard::Game { red, black }
            }
            Pairing::Bye { player } => TableBoard::Bye(player),
        };
        if !want.contains(&stored) {
            out.push(off(p.players().collect()));
        }
    }
    // A table's game or bye missing from the round.
    for board in want {
        let present = round.pairings.iter().any(|p| match (p, *board) {
            (Pairing::Game { red, black, .. }, TableBoard::Game { red: r, black: b }) => {
                *red == r && *black == b
            }
            (Pairing::Bye { player }, TableBoard::Bye(b)) => *player == b,
            _ => false,
        });
        if !present {
            let players = match *board {
                TableBoard::Game { red, black } => vec![red, black],
                TableBoard::Bye(p) => vec![p],
            };
            if !out.iter().any(|v| v.players == players) {
                out.push(off(players));
            }
        }
    }
    out
}

/// A round of the Berger tables as pairings: tables numbered 1, 2, … in the table's order,
/// the bye last. A player out of the event (withdrawn, disqualified) forfeits his table's
/// game, which is recorded at once. Shared by round-robin pools and round-robin stages.
pub(super) fn table_pairings(event: &Event, boards: Vec<TableBoard>, next: u32) -> Vec<Pairing> {
    let absent = |id: PlayerId| event.player(id).is_none_or(|p| !p.pairable_in(next));
    let mut pairings = Vec::with_capacity(boards.len());
    let mut byes = Vec::new();
    let mut table = 0;
    for board in boards {
        match board {
            TableBoard::Game { red, black } => {
                table += 1;
                let outcome = match (absent(red), absent(black)) {
                    (true, true) => Some(Outcome::DoubleForfeit),
                    (true, false) => Some(Outcome::RedForfeit),
                    (false, true) => Some(Outcome::BlackForfeit),
                    (false, false) => None,
                };
                pairings.push(Pairing::Game {
                    table,
                    red,
                    black,
                    result: outcome.map(GameResult::new),
                });
            }
            TableBoard::Bye(player) => byes.push(Pairing::Bye { player }),
        }
    }
    pairings.extend(byes);
    pairings
}
