//! Recording game results into the event, all or nothing: every entry is checked first
//! (round, table, fouls against the outcome), then stored, then the forfeit rule is
//! re-applied to the pool.

use super::forfeits::apply_forfeit_withdrawals;
use super::recorded::{RecordReport, RecordedResult, ResultWarning, side};
use super::{ResultEntry, ResultError};
use crate::model::{Colour, Event, GameResult, GroupId, Outcome, Pairing, ReplacedResult};
use crate::rulebook::Rulebook;
use std::collections::BTreeSet;

/// Records results for one round of a pool (`round` defaults to the newest).
/// See [`record_results_in_rounds`].
pub fn record_results(
    event: &mut Event,
    rules: &Rulebook,
    group: &GroupId,
    round: Option<u32>,
    entries: &[ResultEntry],
) -> Result<RecordReport, ResultError> {
    let round = match round {
        Some(r) => r,
        None => newest_round(event, rules, group)?,
    };
    let entries: Vec<(u32, ResultEntry)> = entries.iter().map(|e| (round, *e)).collect();
    record_results_in_rounds(event, rules, group, &entries)
}

fn newest_round(event: &Event, rules: &Rulebook, group: &GroupId) -> Result<u32, ResultError> {
    check_group(rules, group)?;
    event
        .group(group)
        .and_then(|g| g.rounds.iter().map(|r| r.number).max())
        .ok_or_else(|| ResultError::NoRounds {
            group: group.clone(),
        })
}

pub(super) fn check_group(rules: &Rulebook, group: &GroupId) -> Result<(), ResultError> {
    if rules.pools().any(|g| &g.id == group) {
        Ok(())
    } else {
        let known = rules
            .pools()
            .map(|g| format!("`{}`", g.id))
            .collect::<Vec<_>>()
            .join(", ");
        Err(ResultError::UnknownGroup {
            group: group.clone(),
            known,
        })
    }
}

/// Records `(round, entry)` results of one pool, all or nothing (`result --from FILE`).
///
/// Checks every entry first: the round and table exist, no table twice, and the fouls
/// agree with the outcome (no fouls in an unplayed game; no side beyond the rulebook's
/// `conduct.fouls_to_lose_game`; a side at the limit is not the winner; not both sides at
/// the limit, since the game ended when the first reached it). Then stores them: a side at
/// the limit loses the game (recorded as the other side's win, with a warning); a
/// different earlier result is replaced and reported as a correction. Finally the
/// forfeit-withdrawal rule (`conduct.withdraw_after_forfeits`, consecutive or in total)
/// is re-applied to every player of the pool: a player reaching it is withdrawn from the
/// first round after the one where they reached it that they have not already played,
/// with a typed cause (`WithdrawalCause::Forfeits`); an automatic withdrawal whose
/// forfeits a correction removed is lifted. Manual withdrawals are never touched.
pub fn record_results_in_rounds(
    event: &mut Event,
    rules: &Rulebook,
    group: &GroupId,
    entries: &[(u32, ResultEntry)],
) -> Result<RecordReport, ResultError> {
    check_group(rules, group)?;
    if entries.is_empty() {
        return Err(ResultError::NoEntries);
    }
    let state = event
        .group(group)
        .filter(|g| !g.rounds.is_empty())
        .ok_or_else(|| ResultError::NoRounds {
            group: group.clone(),
        })?;
    let last = state.rounds.iter().map(|r| r.number).max().unwrap_or(0);
    let limit = rules.conduct.fouls_to_lose_game;

    let mut errors = Vec::new();
    let mut seen = BTreeSet::new();
    let mut planned = Vec::new();
    for (round_no, entry) in entries {
        let (round_no, table) = (*round_no, entry.table);
        let Some(round) = state.round(round_no) else {
            // A round the rulebook does not schedule says how many it does.
            errors.push(match crate::schedule::RoundLimit::of(event, rules, group) {
                Some(limit) if limit.excludes(round_no) => ResultError::RoundOutsideSchedule {
                    group: group.clone(),
                    round: round_no,
                    limit,
                },
                _ => ResultError::RoundMissing {
                    group: group.clone(),
                    round: round_no,
                    last,
                },
            });
            continue;
        };
        let Some(Pairing::Game {
            red, black, result, ..
        }) = round.game_at(table)
        else {
            let tables: Vec<u32> = round
                .pairings
                .iter()
                .filter_map(crate::model::Pairing::table)
                .collect();
            errors.push(ResultError::TableMissing {
                group: group.clone(),
                round: round_no,
                table,
                tables,
            });
            continue;
        };
        if !seen.insert((round_no, table)) {
            errors.push(ResultError::DuplicateTable {
                round: round_no,
                table,
            });
            continue;
        }
        match apply_fouls(entry, limit, round_no) {
            Ok((stored, loser)) => planned.push((
                RecordedResult {
                    round: round_no,
                    table,
                    red: *red,
                    black: *black,
                    entered: entry.outcome,
                    previous: *result,
                    result: stored,
                },
                loser,
            )),
            Err(e) => errors.push(e),
        }
    }
    ResultError::collect(errors)?;
    // A knockout's later games must stay the games due (docs/rules.md §16.3).
    // (A final stage only once it has begun: a Swiss stage's results are not copied.)
    if rules.is_knockout(group)
        || (rules.knockout_stage_after(group).is_some()
            && crate::schedule::bracket::stage_started(event, rules, group))
    {
        let mut after = event.clone();
        if let Some(state) = after.groups.get_mut(group) {
            for (r, _) in &planned {
                if let Some(round) = state.rounds.iter_mut().find(|x| x.number == r.round)
                    && let Some(Pairing::Game { result, .. }) = round.game_at_mut(r.table)
                {
                    *result = Some(r.result);
                }
            }
        }
        let before = crate::schedule::bracket::build(event, rules, group).strays;
        if let Some(stray) = crate::schedule::bracket::build(&after, rules, group)
            .strays
            .into_iter()
            .find(|s| !before.contains(s))
        {
            return Err(ResultError::KnockoutNotDue {
                group: group.clone(),
                round: stray.round,
                table: stray.table,
            });
        }
    }

    let mut warnings = Vec::new();
    let mut results = Vec::new();
    let state = event.group_mut(group);
    for (recorded, loser) in planned {
        if let Some(round) = state.rounds.iter_mut().find(|r| r.number == recorded.round)
            && let Some(Pairing::Game { result, .. }) = round.game_at_mut(recorded.table)
        {
            *result = Some(recorded.result);
        }
        if let Some(colour) = loser {
            warnings.push(ResultWarning::LostOnFouls {
                round: recorded.round,
                table: recorded.table,
                player: match colour {
                    Colour::Red => recorded.red,
                    Colour::Black => recorded.black,
                },
                colour,
                fouls: recorded.result.fouls(colour),
                entered: recorded.entered,
                recorded: recorded.result.outcome,
            });
        }
        results.push(recorded);
    }
    // The later rounds were paired with the result replaced: it is kept, so that
    // `check --optimal` proves them against it (docs/rules.md §2.6).
    state.replaced.extend(
        results
            .iter()
            .filter(|r| r.is_correction() && r.round < last)
            .filter_map(|r| {
                Some(ReplacedResult {
                    round: r.round,
                    table: r.table,
                    result: r.previous?,
                    newest: last,
                })
            }),
    );
    let mut corrected: Vec<u32> = results
        .iter()
        .filter(|r| r.is_correction() && r.round < last)
        .map(|r| r.round)
        .collect();
    corrected.sort_unstable();
    corrected.dedup();
    warnings.extend(
        corrected
            .into_iter()
            .map(|round| ResultWarning::EarlierRoundCorrected {
                round,
                newest: last,
            }),
    );
    warnings.extend(apply_forfeit_withdrawals(event, rules, group));
    // A corrected Swiss result may move the line of a final stage under way: the
    // finalists stay frozen, but the arbiter is told by name (docs/rules.md §16.6).
    if let Some(swiss) = rules.stage_after(group)
        && results
            .iter()
            .any(|r| r.is_correction() && r.round <= swiss)
        && let Some(drift) = crate::standings::qualification_drift(event, rules, group)
    {
        warnings.push(ResultWarning::from(drift));
    }
    Ok(RecordReport {
        group: group.clone(),
        results,
        warnings,
    })
}

/// The result to store for an entry and the side that lost on fouls, or why the fouls
/// contradict the outcome.
fn apply_fouls(
    entry: &ResultEntry,
    limit: u32,
    round: u32,
) -> Result<(GameResult, Option<Colour>), ResultError> {
    let table = entry.table;
    let (red, black) = (entry.red_fouls, entry.black_fouls);
    let stored = |outcome| GameResult {
        outcome,
        red_fouls: red,
        black_fouls: black,
        late: entry.late,
    };
    if !entry.outcome.is_played() && (red > 0 || black > 0) {
        return Err(ResultError::FoulsOnForfeit {
            round,
            table,
            outcome: entry.outcome,
            red,
            black,
        });
    }
    // A limit of 0 means the rulebook sets none.
    if limit == 0 {
        return Ok((stored(entry.outcome), None));
    }
    for (colour, fouls) in [(Colour::Red, red), (Colour::Black, black)] {
        if fouls > limit {
            return Err(ResultError::FoulsOverLimit {
                round,
                table,
                side: side(colour),
                fouls,
                limit,
            });
        }
    }
    if red == limit && black == limit {
        return Err(ResultError::BothAtFoulLimit {
            round,
            table,
            limit,
        });
    }
    for colour in [Colour::Red, Colour::Black] {
        let fouls = if colour == Colour::Red { red } else { black };
        if fouls == limit {
            if entry.outcome.winner() == Some(colour) {
                return Err(ResultError::FoulsContradictWinner {
                    round,
                    table,
                    side: side(colour),
                    limit,
                    outcome: entry.outcome,
                });
            }
            let outcome = match colour {
                Colour::Red => Outcome::BlackWin,
                Colour::Black => Outcome::RedWin,
            };
            return Ok((stored(outcome), Some(colour)));
        }
    }
    Ok((stored(entry.outcome), None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fouls_against_the_outcome() {
        use Outcome::*;
        // (outcome, red fouls, black fouls, limit) → stored outcome and loser, or an error.
        let ok = [
            (RedWin, 0, 0, 2, RedWin, None),
            (Draw, 1, 1, 2, Draw, None),
            (Draw, 2, 0, 2, BlackWin, Some(Colour::Red)),
            (Draw, 0, 2, 2, RedWin, Some(Colour::Black)),
            (BlackWin, 2, 1, 2, BlackWin, Some(Colour::Red)),
            (RedWin, 0, 3, 3, RedWin, Some(Colour::Black)),
            (Draw, 2, 2, 3, Draw, None),
            (Draw, 5, 5, 0, Draw, None),
            (RedForfeit, 0, 0, 2, RedForfeit, None),
        ];
        for (outcome, red, black, limit, want, loser) in ok {
            let entry = ResultEntry::new(1, outcome).with_fouls(red, black);
            let (stored, lost) = apply_fouls(&entry, limit, 1).unwrap();
            assert_eq!(
                (stored.outcome, lost),
                (want, loser),
                "{outcome:?} {red}:{black}/{limit}"
            );
            assert_eq!((stored.red_fouls, stored.black_fouls), (red, black));
        }
        let bad = [
            (BlackForfeit, 1, 0, 2, "cannot carry fouls"),
            (DoubleForfeit, 0, 1, 2, "cannot carry fouls"),
            (RedWin, 2, 0, 2, "red reached 2 fouls"),
            (BlackWin, 0, 3, 3, "black reached 3 fouls"),
            (Draw, 2, 2, 2, "both sides have 2 fouls"),
            (Draw, 0, 4, 3, "black has 4 fouls but the game ends at 3"),
        ];
        for (outcome, red, black, limit, needle) in bad {
            let entry = ResultEntry::new(7, outcome).with_fouls(red, black);
            let err = apply_fouls(&entry, limit, 4).unwrap_err().to_string();
            assert!(err.contains(needle), "{err}");
            assert!(err.starts_with("round 4 table 7"), "{err}");
        }
    }
}
