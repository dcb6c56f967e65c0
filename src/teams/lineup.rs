//! Who plays for a team in one round (docs/rules.md §17.3): the composition rules about
//! the players fielded — `min_women` women in the line-up, each board's
//! `[[team_competition.board_rules]]` — checked on every round's line-up, not only on the
//! registration. A `lineup` change that breaks one is refused; a new round's default
//! line-up brings a woman reserve in for the lowest-board man when it would field too
//! few women; `check` reports every stored line-up that breaks one.

use super::score;
use crate::i18n::Text;
use crate::model::{Colour, Event, Gender, GroupId, PlayerId, TeamId, TeamMatch};
use crate::registration::team_sheet::{Team, board_rule_check, teams_in};
use crate::rulebook::Rulebook;

/// The players `team` fields in match `m`, board 1 first.
pub fn lineup_of(m: &TeamMatch, team: TeamId) -> Vec<PlayerId> {
    m.boards
        .iter()
        .map(|b| match score::team_at(m, b.board, Colour::Red) == team {
            true => b.red,
            false => b.black,
        })
        .collect()
}

fn women(event: &Event, lineup: &[PlayerId]) -> u32 {
    lineup
        .iter()
        .filter(|&&p| {
            event
                .player(p)
                .is_some_and(|p| p.gender == Some(Gender::Female))
        })
        .count() as u32
}

/// Every composition rule `lineup` (board 1 first) breaks, in both languages: fewer women
/// than `min_women`, a player on a board whose rule they do not meet.
pub fn lineup_problems(event: &Event, rules: &Rulebook, lineup: &[PlayerId]) -> Vec<Text> {
    let Some(team) = &rules.team_competition else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let n = women(event, lineup);
    if n < team.min_women {
        let min = team.min_women;
        out.push(Text::new(
            format!("出场名单只有 {n} 名女棋手，规程要求每场至少 {min} 名"),
            format!(
                "the line-up fields {n} women; the rulebook asks for at least {min} in every match"
            ),
        ));
    }
    for (i, &id) in lineup.iter().enumerate() {
        if let Some(p) = event.player(id)
            && let Err((_, why)) = board_rule_check(p, i as u32 + 1, rules)
        {
            out.push(why);
        }
    }
    out
}

/// `lineup` (the default one of `team` for `round`) with a woman reserve able to play in
/// for the man on the lowest board she may take, one at a time, while it fields fewer
/// women than `min_women`. The others keep their boards (§17.3). Unchanged when there is
/// no such reserve: `check` then reports the line-up.
pub fn meet_min_women(
    event: &Event,
    rules: &Rulebook,
    team: &Team,
    mut lineup: Vec<PlayerId>,
    round: u32,
) -> Vec<PlayerId> {
    let Some(min) = rules.team_competition.as_ref().map(|t| t.min_women) else {
        return lineup;
    };
    let is_woman = |id: PlayerId| {
        event
            .player(id)
            .is_some_and(|p| p.gender == Some(Gender::Female))
    };
    let bench: Vec<PlayerId> = team
        .members
        .iter()
        .map(|m| m.player)
        .filter(|&p| !lineup.contains(&p) && is_woman(p))
        .filter(|&p| event.player(p).is_some_and(|x| x.pairable_in(round)))
        .collect();
    for woman in bench {
        if women(event, &lineup) >= min {
            break;
        }
        let Some(p) = event.player(woman) else {
            continue;
        };
        let slot = (0..lineup.len())
            .rev()
            .find(|&i| !is_woman(lineup[i]) && board_rule_check(p, i as u32 + 1, rules).is_ok());
        if let Some(i) = slot {
            lineup[i] = woman;
        }
    }
    lineup
}

/// Every stored line-up of `pool` that breaks a composition rule: (round, team, why).
pub fn pool_lineup_problems(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
) -> Vec<(u32, String, Text)> {
    let Some(state) = event.team_pools.get(pool) else {
        return Vec::new();
    };
    let teams = teams_in(&event.players, pool);
    let name = |t: TeamId| {
        teams
            .iter()
            .find(|x| x.id == t)
            .map_or_else(|| t.to_string(), |x| x.name.clone())
    };
    let mut out = Vec::new();
    for r in &state.rounds {
        for m in &r.matches {
            for t in [m.first, m.second] {
                // A match forfeited as a whole fielded nobody.
                if super::forfeited_whole(m, t, rules) {
                    continue;
                }
                for why in lineup_problems(event, rules, &lineup_of(m, t)) {
                    out.push((r.number, name(t), why));
                }
            }
        }
    }
    out
}
