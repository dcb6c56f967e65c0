//! The simulated event of `qiwang demo`: each step of a whole event — registration, the
//! rulebook's merges of under-size groups, then every pool paired and played round by
//! round with simulated results (one forfeit and one withdrawal in the largest pool) —
//! as a change to the event and the audit action that records it, exactly as the real
//! commands make them.
//!
//! Owns which pools the demo plays, their seeds, the incidents and each step's tally.
//! Must not print or touch the event directory: the caller runs each step in one store
//! transaction and prints what it returns.

use crate::i18n::bi;
use crate::model::{Event, GroupId, Outcome, Pairing, PlayerId, PlayerStatus, WithdrawalCause};
use crate::pairing::PairingError;
use crate::registration::MergeError;
use crate::registration::{ImportErrors, ImportOptions, read_registrations};
use crate::results::{RecordReport, ResultError};
use crate::rulebook::{Lang, Rulebook};
use crate::store::Change;
use crate::store::action::{Action, GroupResults, PairedRound};

/// The round in which the largest pool's last black player does not turn up (a forfeit).
const FORFEIT_ROUND: u32 = 3;
/// The round after which the largest pool's lowest-placed player withdraws.
const WITHDRAWAL_ROUND: u32 = 5;

/// Registers the players of a registration sheet, as `qiwang import` does.
pub fn register(
    event: &mut Event,
    rules: &Rulebook,
    sheet: &[u8],
    source: &str,
) -> Result<Change<usize>, ImportErrors> {
    let players = read_registrations(
        sheet,
        source,
        &ImportOptions::default(),
        rules,
        &event.players,
        event.next_player_id(),
    )?;
    let n = players.len();
    event.players.extend(players);
    Ok(Action::Imported {
        players: n,
        files: vec![source.to_string()],
    }
    .change(n, serde_json::json!({ "file": source })))
}

/// Merges under-size group `from` into `into`, as the rulebook's `merge_into` says
/// (Dongguan 九), as `qiwang group merge` does.
pub fn merge(
    event: &mut Event,
    rules: &Rulebook,
    from: &GroupId,
    into: &GroupId,
) -> Result<Change<()>, MergeError> {
    let report = crate::registration::merge_group(event, rules, from, into, false)?;
    Ok(Action::group_merged_change(
        from,
        into,
        report.moved.len(),
        (),
    ))
}

/// The pools the demo plays, in rulebook order: those with players
/// ([`Shown::Players`](crate::lookup::Shown)), less the groups the rulebook's
/// minimum cancelled.
pub fn pools_to_play(event: &Event, rules: &Rulebook, cancelled: &[GroupId]) -> Vec<GroupId> {
    crate::lookup::pools_shown(rules, event, crate::lookup::Shown::Players)
        .into_iter()
        .map(|g| g.id.clone())
        .filter(|g| !cancelled.contains(g))
        .collect()
}

/// The pool with the most players, where the demo's forfeit and withdrawal happen.
pub fn largest_pool(event: &Event, pools: &[GroupId]) -> Option<GroupId> {
    pools
        .iter()
        .max_by_key(|g| event.players_in(g).count())
        .cloned()
}

/// Pool `pool`'s seed, drawn from the demo's `seed`: each pool plays differently.
pub fn pool_seed(seed: u64, pool: &GroupId) -> u64 {
    seed ^ pool
        .as_str()
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
}

/// Pairs `round` of `pool`, as `qiwang pair --group` does; a pool that cannot be paired
/// any further is left unchanged, with the reason.
pub fn pair(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
    seed: u64,
) -> Change<Option<PairingError>> {
    match crate::pairing::pair_next_round(event, rules, pool, seed) {
        Ok(plan) => {
            plan.apply(event, pool, seed);
            Action::Paired {
                rounds: vec![PairedRound {
                    group: pool.clone(),
                    round,
                    seed: None,
                    games: None,
                    relax: None,
                }],
                refused: Vec::new(),
            }
            .change(None, serde_json::json!({ "group": pool, "round": round }))
        }
        Err(e) => Change::Unchanged(Some(e)),
    }
}

/// One round played: what recording its results reported, and the tally.
#[derive(Debug, Clone)]
pub struct Played {
    /// What `record_results` reported (corrections, warnings).
    pub report: RecordReport,
    /// The round's games by outcome.
    pub tally: Tally,
}

/// Records simulated results for every game of `round` in `pool`, as `qiwang result`
/// does. With `incidents`, a player misses round 3 (a forfeit) and the lowest-placed
/// player withdraws after round 5.
pub fn play(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
    seed: u64,
    incidents: bool,
) -> Result<Change<Played>, ResultError> {
    let absent = match incidents && round == FORFEIT_ROUND {
        true => last_black_player(event, pool, round),
        false => Vec::new(),
    };
    let entries = crate::simulate::round_results(event, pool, round, seed, &absent);
    let report = crate::results::record_results(event, rules, pool, Some(round), &entries)?;
    if incidents && round == WITHDRAWAL_ROUND {
        withdraw_lowest(event, pool, round);
    }
    let action = Action::Results {
        groups: vec![GroupResults::of(&report)],
    };
    let details = serde_json::json!({
        "group": pool,
        "round": round,
        "notes": report.messages(),
    });
    let tally = Tally::of(event, pool, round);
    Ok(action.change(Played { report, tally }, details))
}

/// A round's games by outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Red wins.
    pub red: usize,
    /// Draws.
    pub draws: usize,
    /// Black wins.
    pub black: usize,
    /// Games decided by a forfeit.
    pub forfeits: usize,
    /// Byes.
    pub byes: usize,
}

impl Tally {
    /// The games of `round` in `pool` that have a result, and its byes.
    pub fn of(event: &Event, pool: &GroupId, round: u32) -> Tally {
        let mut t = Tally::default();
        let Some(r) = event.group(pool).and_then(|g| g.round(round)) else {
            return t;
        };
        for p in &r.pairings {
            match p {
                Pairing::Bye { .. } => t.byes += 1,
                Pairing::Game {
                    result: Some(res), ..
                } => match res.outcome {
                    Outcome::RedWin => t.red += 1,
                    Outcome::Draw => t.draws += 1,
                    Outcome::BlackWin => t.black += 1,
                    _ => t.forfeits += 1,
                },
                Pairing::Game { .. } => {}
            }
        }
        t
    }

    /// `35 games: red 12, draws 11, black 10, forfeits 1, byes 1`, or its Chinese.
    pub fn text(&self, lang: Lang) -> String {
        let Tally {
            red,
            draws,
            black,
            forfeits,
            byes,
        } = *self;
        let games = red + draws + black + forfeits;
        bi!(
            lang,
            zh("{games}台：红胜{red} 和{draws} 黑胜{black} 弃权{forfeits} 轮空{byes}"),
            en(
                "{}: red {red}, draws {draws}, black {black}, forfeits {forfeits}, byes {byes}",
                crate::i18n::plural(games, "game", "games")
            )
        )
    }
}

/// The black player of the last table of `round`, who misses it.
fn last_black_player(event: &Event, pool: &GroupId, round: u32) -> Vec<PlayerId> {
    event
        .group(pool)
        .and_then(|g| g.round(round))
        .and_then(|r| {
            r.pairings.iter().rev().find_map(|p| match p {
                Pairing::Game { black, .. } => Some(*black),
                Pairing::Bye { .. } => None,
            })
        })
        .into_iter()
        .collect()
}

/// The active player with the highest pairing number withdraws after `round`.
fn withdraw_lowest(event: &mut Event, pool: &GroupId, round: u32) {
    let candidate = event
        .players
        .iter()
        .filter(|p| &p.group == pool && !p.is_withdrawn())
        .max_by_key(|p| p.number)
        .map(|p| p.id);
    if let Some(id) = candidate
        && let Some(p) = event.player_mut(id)
    {
        p.status = PlayerStatus::Withdrawn {
            from_round: round + 1,
            cause: WithdrawalCause::Manual { note: None },
        };
    }
}

/// Pairs round `round` of team pool `pool`, as `qiwang pair` does in a team competition
/// (docs/rules.md §17).
pub fn pair_team_round(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
    seed: u64,
) -> Result<Change<usize>, crate::teams::TeamError> {
    let plan = crate::teams::pair_team_round(event, rules, pool, seed, None)?;
    plan.apply(event, pool, seed);
    let matches = plan.round.matches.len();
    Ok(Action::Paired {
        rounds: vec![PairedRound {
            group: pool.clone(),
            round,
            seed: Some(seed),
            games: Some(matches),
            relax: None,
        }],
        refused: Vec::new(),
    }
    .change(
        matches,
        serde_json::json!({ "group": pool, "round": round }),
    ))
}

/// Records simulated board results for every match of team round `round` (tiebreak games
/// too, where the rulebook plays them and a match is level), as `qiwang result` does.
/// Returns the matches won by the team with 先, drawn, and won by the other team.
pub fn play_team_round(
    event: &mut Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
    seed: u64,
) -> Result<Change<(u32, u32, u32)>, crate::teams::TeamError> {
    use crate::model::GameResult;
    use crate::teams::{self, MatchEntry};
    use rand::{Rng, SeedableRng};
    let team = teams::team_rules(rules)?.clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ (u64::from(round) << 20));
    let mut outcome = || match rng.gen_range(0..10) {
        0..=3 => Outcome::RedWin,
        4..=6 => Outcome::Draw,
        _ => Outcome::BlackWin,
    };
    let boards =
        |tiebreak: bool, m: &crate::model::TeamMatch, o: &mut dyn FnMut() -> Outcome| MatchEntry {
            table: m.table,
            tiebreak,
            absent: None,
            results: m.boards.iter().map(|_| GameResult::new(o())).collect(),
        };
    let round_of = |ev: &Event| {
        ev.team_pools
            .get(pool)
            .and_then(|s| s.round(round))
            .cloned()
    };
    let Some(paired) = round_of(event) else {
        return Err(teams::TeamError::NoRound { round });
    };
    let entries: Vec<MatchEntry> = paired
        .matches
        .iter()
        .map(|m| boards(false, m, &mut outcome))
        .collect();
    let mut matches: Vec<u32> = entries.iter().map(|e| e.table).collect();
    teams::record_team_results(event, rules, pool, Some(round), &entries)?;
    let level: Vec<MatchEntry> = round_of(event)
        .map(|r| {
            r.matches
                .iter()
                .filter(|m| teams::needs_tiebreak(m, &team))
                .map(|m| boards(true, m, &mut outcome))
                .collect()
        })
        .unwrap_or_default();
    if !level.is_empty() {
        teams::record_team_results(event, rules, pool, Some(round), &level)?;
    }
    matches.sort_unstable();
    let stored = event.team_pools.get(pool).cloned().unwrap_or_default();
    let mut tally = (0, 0, 0);
    if let Some(r) = stored.round(round) {
        for m in &r.matches {
            match teams::match_outcome(&stored, round, m, &team).map(|o| teams::winner(o, m)) {
                Some(Some(w)) if w == m.first => tally.0 += 1,
                Some(Some(_)) => tally.2 += 1,
                _ => tally.1 += 1,
            }
        }
    }
    Ok(Action::TeamResults {
        group: pool.clone(),
        round,
        matches,
        tiebreak: false,
    }
    .change(tally, serde_json::json!({ "group": pool, "round": round })))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = include_str!("../rules/jinhua-2018.toml");
    const SHEET: &[u8] = include_bytes!("../examples/jinhua-2018/registrations.csv");

    /// Drives the bundled event as `qiwang demo` does, without a store.
    fn driven(seed: u64) -> (Event, Rulebook, Vec<GroupId>) {
        let rules = Rulebook::from_toml(RULES, "jinhua-2018.toml").unwrap();
        let mut event = Event::new(RULES.to_string());
        assert!(matches!(
            register(&mut event, &rules, SHEET, "reg.csv").unwrap(),
            Change::Changed { .. }
        ));
        let pools = pools_to_play(&event, &rules, &[]);
        let largest = largest_pool(&event, &pools);
        for pool in &pools {
            let seed = pool_seed(seed, pool);
            for round in 1..=rules.rounds_for(pool) {
                if let Change::Unchanged(Some(e)) = pair(&mut event, &rules, pool, round, seed) {
                    panic!("{pool} round {round}: {e}");
                }
                play(
                    &mut event,
                    &rules,
                    pool,
                    round,
                    seed,
                    largest.as_ref() == Some(pool),
                )
                .unwrap();
            }
        }
        (event, rules, pools)
    }

    #[test]
    fn the_bundled_event_plays_to_the_end_with_one_forfeit_and_one_withdrawal() {
        let (event, rules, pools) = driven(7);
        assert!(pools.len() > 1, "{pools:?}");
        let largest = largest_pool(&event, &pools).unwrap();
        let rounds = rules.rounds_for(&largest);
        let state = event.group(&largest).unwrap();
        assert_eq!(state.rounds.len(), rounds as usize);
        assert!(state.rounds.iter().all(crate::model::Round::is_complete));
        let third = Tally::of(&event, &largest, FORFEIT_ROUND);
        assert!(third.forfeits >= 1, "{third:?}");
        let withdrawn: Vec<_> = event
            .players_in(&largest)
            .filter(|p| p.is_withdrawn())
            .collect();
        assert_eq!(withdrawn.len(), 1);
        assert_eq!(withdrawn[0].out_from(), Some(WITHDRAWAL_ROUND + 1));
        for other in pools.iter().filter(|p| **p != largest) {
            assert!(
                event.players_in(other).all(|p| !p.is_withdrawn()),
                "{other}"
            );
        }
        // The same seed plays the same event; another seed another one.
        assert_eq!(driven(7).0, event);
        assert_ne!(driven(8).0, event);
    }

    #[test]
    fn a_tally_counts_every_game_and_bye_in_both_languages() {
        let t = Tally {
            red: 12,
            draws: 11,
            black: 10,
            forfeits: 1,
            byes: 1,
        };
        assert_eq!(
            t.text(Lang::En),
            "34 games: red 12, draws 11, black 10, forfeits 1, byes 1"
        );
        assert_eq!(t.text(Lang::Zh), "34台：红胜12 和11 黑胜10 弃权1 轮空1");
        let none = Tally::of(&Event::new(String::new()), &GroupId::new("x"), 1);
        assert_eq!(none, Tally::default());
    }
}
