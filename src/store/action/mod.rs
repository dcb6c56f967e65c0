//! What a change did, in no language: every changing command stores an [`Action`] in its
//! audit line (`details.action`), and `log`, `undo` and `redo` word it in the output
//! language. The line's `summary` is the English wording, written once for people reading
//! `audit.log` itself (the file stays English); lines written before actions existed have
//! only that summary, which is shown as it is.
//!
//! Owns the actions' shapes as `audit.log` keeps them (old lines must keep reading) and
//! their making into a [`Change`]; `text.rs` words an action in either language,
//! `describe.rs` words a whole audit line (an undo or redo by the line it took back).
//! Must not print or read the event directory.

mod describe;
#[cfg(test)]
mod tests;
mod text;

pub use describe::describe;
pub use text::Names;

use super::{AuditEntry, Change};
use crate::model::{Event, GameResult, GroupId, Outcome, PlayerId, Relax, TeamRound};
use crate::pairing::Violation;
use crate::results::{RecordReport, ResultWarning};
use serde::{Deserialize, Serialize};

/// One change, with the values its wording needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Action {
    /// `import`: players registered from sheets.
    Imported {
        /// How many players.
        players: usize,
        /// The files, as the user named them.
        files: Vec<String>,
    },
    /// `group merge`: an under-size group's players moved into another pool.
    GroupMerged {
        /// The group merged.
        from: GroupId,
        /// The pool it was merged into.
        into: GroupId,
        /// How many players moved.
        moved: usize,
    },
    /// `group cancel`: a pool below its minimum cancelled, its players withdrawn.
    GroupCancelled {
        /// The pool cancelled.
        group: GroupId,
        /// How many players were withdrawn.
        withdrawn: usize,
    },
    /// `pair`: rounds paired.
    Paired {
        /// Each pool's round paired.
        rounds: Vec<PairedRound>,
        /// `pair --all`: the pools refused for want of a legal pairing in the same run.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        refused: Vec<RefusedRound>,
    },
    /// `pair --dry-run` of round 1, or a round-1 `pair` refused for want of a legal
    /// pairing, recorded the draw's seed.
    SeedsRecorded {
        /// Each pool's seed.
        seeds: Vec<(GroupId, u64)>,
    },
    /// `unpair`: a pool's newest round taken back.
    Unpaired {
        /// The pool.
        group: GroupId,
        /// The round taken back.
        round: u32,
    },
    /// `pairing swap|set`: a paired round edited by hand.
    RoundEdited {
        /// The pool.
        group: GroupId,
        /// The round edited.
        round: u32,
        /// The hard rules `--force` stored the round past.
        forced: Vec<Violation>,
    },
    /// `result`: results recorded.
    Results {
        /// Each pool's results.
        groups: Vec<GroupResults>,
    },
    /// `player add`: a late entry.
    PlayerAdded {
        /// The player's id.
        player: PlayerId,
        /// The name registered.
        name: String,
        /// The pool they play in.
        group: GroupId,
        /// The first round they can be paired in.
        from_round: u32,
        /// Entered after the rulebook's registration deadline with `--late`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        late: bool,
    },
    /// `player edit`: a player's details corrected.
    PlayerEdited {
        /// The player's id.
        player: PlayerId,
        /// The name after the edit.
        name: String,
    },
    /// `player withdraw`.
    PlayerWithdrawn {
        /// The player's id.
        player: PlayerId,
        /// The player's name.
        name: String,
        /// The first round they are not paired in.
        from_round: u32,
    },
    /// `player reinstate`: a withdrawal lifted.
    PlayerReinstated {
        /// The player's id.
        player: PlayerId,
        /// The player's name.
        name: String,
        /// The first round they are paired in again.
        from_round: u32,
    },
    /// `player disqualify` (取消比赛资格).
    PlayerDisqualified {
        /// The player's id.
        player: PlayerId,
        /// The player's name.
        name: String,
        /// The first round they are not paired in.
        from_round: u32,
        /// The arbiter's reason (masked in `audit.log`).
        reason: String,
    },
    /// `player disqualify --undo`.
    DisqualificationLifted {
        /// The player's id.
        player: PlayerId,
        /// The player's name.
        name: String,
    },
    /// `penalty`: points deducted.
    Penalty {
        /// The player's id.
        player: PlayerId,
        /// The player's name.
        name: String,
        /// The points deducted.
        points: i32,
        /// The round after which the deduction counts.
        after_round: u32,
        /// The arbiter's reason (masked in `audit.log`).
        reason: String,
    },
    /// `warn`: a warning without a point loss (警告).
    Warning {
        /// The player's id.
        player: PlayerId,
        /// The player's name.
        name: String,
        /// The round after which it was given.
        after_round: u32,
        /// The arbiter's reason (masked in `audit.log`).
        reason: String,
    },
    /// `playoff`: the playoff that settled a pool's tie for first.
    Playoff {
        /// The pool.
        group: GroupId,
        /// The players, first place first.
        order: Vec<PlayerId>,
    },
    /// `playoff --list`: the playoff that settled a prize list's tie.
    ListPlayoff {
        /// The prize list's id.
        list: String,
        /// The pool the list ranks.
        group: GroupId,
        /// The players, first place first.
        order: Vec<PlayerId>,
    },
    /// `result` in a team competition: boards of matches recorded (docs/rules.md §17.3).
    TeamResults {
        /// The pool.
        group: GroupId,
        /// The round.
        round: u32,
        /// The matches whose boards were recorded.
        matches: Vec<u32>,
        /// Tiebreak games (加赛) rather than the main boards.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        tiebreak: bool,
    },
    /// `lineup`: a team's line-up of one round changed (a reserve in on a board).
    LineupChanged {
        /// The pool.
        group: GroupId,
        /// The round.
        round: u32,
        /// The team's name.
        team: String,
        /// Each change, the player taken out and the one brought in.
        swaps: Vec<(String, String)>,
    },
    /// `player withdraw --team`: a whole team withdrawn (全队退赛).
    TeamWithdrawn {
        /// The pool.
        group: GroupId,
        /// The team's name.
        team: String,
        /// The first round the team is not paired in.
        from_round: u32,
    },
    /// `player reinstate --team`: a whole team's withdrawal lifted.
    TeamReinstated {
        /// The pool.
        group: GroupId,
        /// The team's name.
        team: String,
        /// The round it is paired again from.
        from_round: u32,
    },
    /// `rules update`: the rulebook changed mid-event.
    RulesUpdated {
        /// The new rulebook's file.
        file: String,
        /// How many lines of it changed.
        changed_lines: usize,
    },
}

/// One pool's paired round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedRound {
    /// The pool.
    pub group: GroupId,
    /// The round paired.
    pub round: u32,
    /// The seed given or drawn, when the command shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// How many games the round has, when the command counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<usize>,
    /// `pair --relax`: the rules this round alone could relax, in place of the rulebook's
    /// `pairing.relax`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relax: Option<Vec<Relax>>,
}

/// A pool's round `pair --all` found no legal pairing for, and the round-1 draw's seed
/// recorded for it then (none when it was recorded before, or given).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefusedRound {
    /// The pool.
    pub group: GroupId,
    /// The round that could not be paired.
    pub round: u32,
    /// The round-1 draw's seed recorded then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// The results recorded in one pool, with what the arbiter should know about them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupResults {
    /// The pool.
    pub group: GroupId,
    /// The rounds the results were stored in.
    pub rounds: Vec<u32>,
    /// How many results.
    pub count: usize,
    /// The results that replaced different ones.
    #[serde(default)]
    pub corrections: Vec<Correction>,
    /// What the arbiter should know about them.
    #[serde(default)]
    pub warnings: Vec<ResultWarning>,
}

/// A result that replaced a different one: the outcome, or only the fouls or lateness.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Correction {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The result replaced (`None` in lines that did not keep it).
    #[serde(deserialize_with = "old_result")]
    pub old: Option<GameResult>,
    /// The result stored.
    #[serde(deserialize_with = "new_result")]
    pub new: GameResult,
}

/// A result as an audit line holds it: whole, or (lines written before fouls were kept)
/// only its outcome.
#[derive(Deserialize)]
#[serde(untagged)]
enum StoredResult {
    Whole(GameResult),
    Outcome(Outcome),
}

impl From<StoredResult> for GameResult {
    fn from(r: StoredResult) -> GameResult {
        match r {
            StoredResult::Whole(r) => r,
            StoredResult::Outcome(o) => GameResult::new(o),
        }
    }
}

fn old_result<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<GameResult>, D::Error> {
    Ok(Option::<StoredResult>::deserialize(d)?.map(GameResult::from))
}

fn new_result<'de, D: serde::Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
    StoredResult::deserialize(d).map(GameResult::from)
}

impl GroupResults {
    /// What `record_results` reported for one pool.
    pub fn of(report: &crate::results::RecordReport) -> GroupResults {
        let rounds: std::collections::BTreeSet<u32> =
            report.results.iter().map(|r| r.round).collect();
        GroupResults {
            group: report.group.clone(),
            rounds: rounds.into_iter().collect(),
            count: report.results.len(),
            corrections: report
                .corrections()
                .map(|r| Correction {
                    round: r.round,
                    table: r.table,
                    old: r.previous,
                    new: r.result,
                })
                .collect(),
            warnings: report.warnings.clone(),
        }
    }
}

impl Action {
    /// The results `qiwang result` recorded, as one change: the action, and details that
    /// keep every result with the round it was actually stored in.
    pub fn results_change<T>(reports: &[RecordReport], value: T) -> Change<T> {
        let groups = reports
            .iter()
            .map(|r| {
                let rounds: std::collections::BTreeSet<u32> =
                    r.results.iter().map(|x| x.round).collect();
                serde_json::json!({
                    "group": r.group,
                    "round": if rounds.len() == 1 { rounds.first().copied() } else { None },
                    "rounds": rounds,
                    "entries": r.results.iter().map(|x| serde_json::json!({
                        "round": x.round,
                        "table": x.table,
                        "red": x.red,
                        "black": x.black,
                        "outcome": x.result.outcome.token(),
                        "red_fouls": x.result.red_fouls,
                        "black_fouls": x.result.black_fouls,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect::<Vec<_>>();
        let (group, round) = match reports {
            [one] => (serde_json::json!(one.group), groups[0]["round"].clone()),
            _ => (serde_json::Value::Null, serde_json::Value::Null),
        };
        let action = Action::Results {
            groups: reports.iter().map(GroupResults::of).collect(),
        };
        action.change(
            value,
            serde_json::json!({ "group": group, "round": round, "groups": groups }),
        )
    }

    /// Round `round` of `pool`, just paired on `event` by `pair` with draw seed `seed`
    /// (and `pair --relax`'s list `relax`), as one change: the action with the round's
    /// games counted, and details that keep its pairings and seed.
    pub fn paired_round_change<T>(
        event: &Event,
        pool: &GroupId,
        round: u32,
        seed: u64,
        relax: Option<Vec<Relax>>,
        value: T,
    ) -> Change<T> {
        let pairings = event
            .group(pool)
            .and_then(|g| g.round(round))
            .map(|r| r.pairings.clone())
            .unwrap_or_default();
        let games = pairings.iter().filter(|p| p.table().is_some()).count();
        let details = serde_json::json!({
            "group": pool,
            "round": round,
            "seed": seed,
            "pairings": pairings,
        });
        let paired = PairedRound {
            group: pool.clone(),
            round,
            seed: Some(seed),
            games: Some(games),
            relax,
        };
        Action::Paired {
            rounds: vec![paired],
            refused: Vec::new(),
        }
        .change(value, details)
    }

    /// Group `from` merged into pool `into` before round 1, `moved` players with it
    /// (`group merge`, and the demo's merge), as one change.
    pub fn group_merged_change<T>(
        from: &GroupId,
        into: &GroupId,
        moved: usize,
        value: T,
    ) -> Change<T> {
        Action::GroupMerged {
            from: from.clone(),
            into: into.clone(),
            moved,
        }
        .change(value, serde_json::json!({ "from": from, "into": into }))
    }

    /// Draw seed `seed` recorded as `pool`'s round-1 seed (a dry run's draw, or a draw
    /// refused for want of a legal pairing), as one change, so the next `pair` makes
    /// that draw.
    pub fn seed_recorded_change(pool: &GroupId, seed: u64) -> Change<()> {
        Action::SeedsRecorded {
            seeds: vec![(pool.clone(), seed)],
        }
        .change(
            (),
            serde_json::json!({ "group": pool, "round": 1, "seed": seed }),
        )
    }

    /// Team round `round` of `pool`, just paired by `pair` with draw seed `seed` (and `pair
    /// --relax`'s list `relax`), as one change: the action with its matches counted, and
    /// details that keep the matches, the bye and the seed.
    pub fn paired_team_round_change<T>(
        pool: &GroupId,
        round: &TeamRound,
        seed: u64,
        relax: Option<Vec<Relax>>,
        value: T,
    ) -> Change<T> {
        let details = serde_json::json!({
            "group": pool,
            "round": round.number,
            "seed": seed,
            "matches": round.matches,
            "bye": round.bye,
        });
        let paired = PairedRound {
            group: pool.clone(),
            round: round.number,
            seed: Some(seed),
            games: Some(round.matches.len()),
            relax,
        };
        Action::Paired {
            rounds: vec![paired],
            refused: Vec::new(),
        }
        .change(value, details)
    }

    /// The rounds `pair --all` paired on `event` (pool, round, seed), the rounds it
    /// `refused`, and the refused pools' new round-1 draw seeds `seeds`, as one change (one
    /// command, one `undo`): details keep each round's pairings and seed, and the seeds.
    pub fn paired_pools_change<T>(
        event: &Event,
        paired: &[(GroupId, u32, u64)],
        refused: Vec<RefusedRound>,
        seeds: &[(GroupId, u64)],
        relax: Option<&[Relax]>,
        value: T,
    ) -> Change<T> {
        let action = Action::Paired {
            rounds: paired
                .iter()
                .map(|(p, r, s)| PairedRound {
                    group: p.clone(),
                    round: *r,
                    seed: Some(*s),
                    games: None,
                    relax: relax.map(<[Relax]>::to_vec),
                })
                .collect(),
            refused,
        };
        let groups: Vec<serde_json::Value> = paired
            .iter()
            .map(|(p, r, s)| {
                let round = event.group(p).and_then(|g| g.round(*r));
                let pairings = round.map(|r| r.pairings.clone());
                serde_json::json!({
                    "group": p,
                    "round": r,
                    "seed": s,
                    "pairings": pairings,
                })
            })
            .collect();
        let mut details = serde_json::json!({ "groups": groups });
        if !seeds.is_empty() {
            details["seeds"] = seeds_details(seeds);
        }
        action.change(value, details)
    }

    /// Round-1 draw seeds `seeds` recorded as their pools' (`pair --all`: a dry run's
    /// draws, or the draws of pools all refused), as one change.
    pub fn seeds_recorded_change<T>(seeds: Vec<(GroupId, u64)>, value: T) -> Change<T> {
        let details = serde_json::json!({ "seeds": seeds_details(&seeds) });
        Action::SeedsRecorded { seeds }.change(value, details)
    }

    /// The action stored in an audit line, if the line has one, its text masked as
    /// `audit.log` is.
    pub fn of(entry: &AuditEntry) -> Option<Action> {
        // New lines are masked when written; a line written before that may hold an ID or
        // phone number in a reason or name, masked here (strings only: seeds stay).
        let action = entry.details.get("action")?.clone();
        serde_json::from_value(crate::privacy::mask_free_text_json(action)).ok()
    }

    /// The change `value` made, logged as this action: `details` gets the action, the
    /// summary its English wording.
    pub fn change<T>(self, value: T, details: serde_json::Value) -> Change<T> {
        let summary = self.text(&Names::ids());
        let action = serde_json::to_value(&self).unwrap_or_default();
        let details = match details {
            serde_json::Value::Object(mut map) => {
                map.insert("action".into(), action);
                serde_json::Value::Object(map)
            }
            serde_json::Value::Null => serde_json::json!({ "action": action }),
            other => serde_json::json!({ "action": action, "data": other }),
        };
        Change::changed(value, summary, details)
    }
}

/// Seeds as the log's details list them: `[{"group": …, "seed": …}, …]`.
fn seeds_details(seeds: &[(GroupId, u64)]) -> serde_json::Value {
    seeds
        .iter()
        .map(|(p, s)| serde_json::json!({ "group": p, "seed": s }))
        .collect()
}
