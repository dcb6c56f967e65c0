//! A whole team's withdrawal (全队退赛, docs/rules.md §17.7), with its cause typed as a
//! player's withdrawal ([`WithdrawalCause`]): by the arbiter (`player withdraw --team`), or
//! by the rulebook's forfeit rule (`conduct.withdraw_after_forfeits`) counting matches the
//! team forfeited as a whole, re-applied after every team result; `player reinstate
//! --team` lifts either. A withdrawn team is not
//! paired from its withdrawal's round on; its played matches stay, except in a round robin
//! under `withdrawn_results` (the half rule by default), where they are annulled for
//! everyone as an individual round robin annuls a withdrawn player's games.

use super::TeamError;
use super::pair::{match_outcome, rounds_of, team_rules};
use crate::model::{
    Colour, Event, GroupId, TeamId, TeamMatch, TeamPool, TeamWithdrawal, WithdrawalCause,
};
use crate::registration::team_sheet::teams_in;
use crate::rulebook::{LateResult, Rulebook, TeamFormat, WithdrawnResults};

/// Whether `team` forfeited match `m` as a whole: every main board has a result, and each
/// was forfeited by the team's player on it (a double forfeit too).
pub fn forfeited_whole(m: &TeamMatch, team: TeamId, rules: &Rulebook) -> bool {
    if m.first != team && m.second != team || m.boards.is_empty() {
        return false;
    }
    m.boards.iter().all(|b| {
        let Some(r) = b.result else { return false };
        let colour = if super::score::team_at(m, b.board, Colour::Red) == team {
            Colour::Red
        } else {
            Colour::Black
        };
        // A late arrival judged a loss is not a forfeit (the individual rule's reading).
        r.outcome.forfeited_by(colour) && !(r.late && rules.conduct.late_result == LateResult::Loss)
    })
}

/// `player withdraw --team NAME`: the team is not paired from the round after the pool's
/// newest round. Refused while the team's match of that round has no result, once every
/// round is paired, and for a team already withdrawn by hand; an automatic withdrawal is
/// replaced (from the earlier round). Returns the team, its name and the first round it
/// is not paired in.
pub fn withdraw_team(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    name: &str,
    note: Option<&str>,
) -> Result<(TeamId, String, u32), TeamError> {
    let team_rules = team_rules(rules)?;
    let teams = teams_in(&event.players, pool);
    let team = super::find_team(&teams, name)?.clone();
    let state = event.team_pools.get(pool).cloned().unwrap_or_default();
    let newest = state.rounds.last();
    if let Some(r) = newest
        && let Some(m) = r
            .matches
            .iter()
            .find(|m| m.first == team.id || m.second == team.id)
        && match_outcome(&state, r.number, m, team_rules).is_none()
    {
        return Err(TeamError::TeamMatchOpen {
            team: team.name,
            round: r.number,
            table: m.table,
        });
    }
    let mut from_round = newest.map_or(0, |r| r.number) + 1;
    let rounds = rounds_of(event, rules, pool);
    if from_round > rounds {
        return Err(TeamError::TeamEventOver {
            team: team.name,
            rounds,
        });
    }
    if let Some(w) = state.withdrawal(team.id) {
        if !w.cause.is_automatic() {
            return Err(TeamError::TeamAlreadyWithdrawn {
                team: team.name,
                from_round: w.from_round,
            });
        }
        from_round = from_round.min(w.from_round);
    }
    let note = note
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    let stored = event.team_pools.entry(pool.clone()).or_default();
    stored.withdrawn.retain(|w| w.team != team.id);
    stored.withdrawn.push(TeamWithdrawal {
        team: team.id,
        from_round,
        cause: WithdrawalCause::Manual { note },
    });
    Ok((team.id, team.name, from_round))
}

/// `player reinstate --team NAME`: lifts a team's withdrawal, by hand or by the forfeit
/// rule, from the round after the pool's newest round; its forfeits before that round no
/// longer count toward the rule. Rounds missed meanwhile stay missed. Returns the team,
/// its name and the round it is paired again from.
pub fn reinstate_team(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    name: &str,
) -> Result<(TeamId, String, u32), TeamError> {
    team_rules(rules)?;
    let teams = teams_in(&event.players, pool);
    let team = super::find_team(&teams, name)?.clone();
    let state = event.team_pools.entry(pool.clone()).or_default();
    if state.withdrawal(team.id).is_none() {
        return Err(TeamError::TeamNotWithdrawn { team: team.name });
    }
    let from_round = state.rounds.last().map_or(0, |r| r.number) + 1;
    state.withdrawn.retain(|w| w.team != team.id);
    state.reinstated.retain(|(t, _)| *t != team.id);
    state.reinstated.push((team.id, from_round));
    Ok((team.id, team.name, from_round))
}

/// The automatic withdrawal pool `state`'s results call for on `team`: the forfeited
/// rounds that reached the limit, and the first round after them the team did not play.
fn automatic(state: &TeamPool, team: TeamId, rules: &Rulebook) -> Option<TeamWithdrawal> {
    let limit = rules.conduct.withdraw_after_forfeits.filter(|&l| l > 0)?;
    // Forfeits before a reinstatement no longer count.
    let counted_from = state
        .reinstated
        .iter()
        .filter(|(t, _)| *t == team)
        .map(|(_, r)| *r)
        .max()
        .unwrap_or(1);
    let mut counted = Vec::new();
    let mut trigger = None;
    for r in state.rounds.iter().filter(|r| r.number >= counted_from) {
        let forfeited = r.matches.iter().any(|m| forfeited_whole(m, team, rules));
        if forfeited {
            counted.push(r.number);
            if counted.len() as u32 >= limit {
                trigger = Some(r.number);
                break;
            }
        } else if rules.conduct.withdraw_consecutive {
            counted.clear();
        }
    }
    let trigger = trigger?;
    // Rounds already played after the trigger stay played (a correction made the forfeits).
    let mut from_round = trigger + 1;
    while let Some(r) = state.round(from_round) {
        let played = r.bye == Some(team)
            || r.matches.iter().any(|m| {
                (m.first == team || m.second == team)
                    && m.is_complete()
                    && !forfeited_whole(m, team, rules)
            });
        if !played {
            break;
        }
        from_round += 1;
    }
    Some(TeamWithdrawal {
        team,
        from_round,
        cause: WithdrawalCause::Forfeits {
            rounds: counted,
            consecutive: rules.conduct.withdraw_consecutive,
        },
    })
}

/// Re-applies the forfeit rule to every team of `pool`: an automatic withdrawal is made,
/// moved or lifted to match the results; a withdrawal by hand is never touched. Returns
/// the teams whose withdrawal changed, with the new one (`None`: lifted).
pub fn apply_team_forfeit_withdrawals(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
) -> Vec<(TeamId, Option<TeamWithdrawal>)> {
    let teams = teams_in(&event.players, pool);
    let Some(state) = event.team_pools.get_mut(pool) else {
        return Vec::new();
    };
    let mut changed = Vec::new();
    for t in &teams {
        let current = state.withdrawal(t.id).cloned();
        if current.as_ref().is_some_and(|w| !w.cause.is_automatic()) {
            continue;
        }
        let due = automatic(state, t.id, rules);
        if due != current {
            state.withdrawn.retain(|w| w.team != t.id);
            state.withdrawn.extend(due.clone());
            changed.push((t.id, due));
        }
    }
    changed
}

/// The teams of a round-robin pool whose matches are annulled for everyone: withdrawn
/// teams under `withdrawn_results = "annul"`, or under `"half_rule"` (the default) those
/// that played fewer than half of their scheduled matches over the board (CXA 1999
/// 裁判细则 §20.3, as the individual round robin, docs/rules.md §14.4). Empty for a Swiss.
pub fn annulled_teams(event: &Event, rules: &Rulebook, pool: &GroupId) -> Vec<TeamId> {
    let Some(team) = rules.team_competition.as_ref() else {
        return Vec::new();
    };
    if team.format != TeamFormat::RoundRobin || team.withdrawn_results == WithdrawnResults::Keep {
        return Vec::new();
    }
    let Some(state) = event.team_pools.get(pool) else {
        return Vec::new();
    };
    let n = teams_in(&event.players, pool).len() as u64;
    let scheduled = n.saturating_sub(1) * u64::from(team.cycles);
    state
        .withdrawn
        .iter()
        .map(|w| w.team)
        .filter(|&t| {
            team.withdrawn_results == WithdrawnResults::Annul || {
                let played = state
                    .rounds
                    .iter()
                    .flat_map(|r| &r.matches)
                    .filter(|m| {
                        (m.first == t || m.second == t)
                            && m.boards
                                .iter()
                                .any(|b| b.result.is_some_and(|r| r.outcome.is_played()))
                    })
                    .count() as u64;
                2 * played < scheduled
            }
        })
        .collect()
}

/// Pool `pool` as its standings read it: the stored rounds, less every match of a team
/// whose matches are annulled ([`annulled_teams`]).
pub fn ranked_pool(event: &Event, rules: &Rulebook, pool: &GroupId) -> TeamPool {
    let mut state = event.team_pools.get(pool).cloned().unwrap_or_default();
    let annulled = annulled_teams(event, rules, pool);
    if !annulled.is_empty() {
        for r in &mut state.rounds {
            r.matches
                .retain(|m| !annulled.contains(&m.first) && !annulled.contains(&m.second));
        }
    }
    state
}
