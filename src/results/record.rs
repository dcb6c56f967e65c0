//! Recording results, withdrawals and playoffs into the event.
//!
//! Every function validates everything first and changes nothing on error.

use super::{ResultEntry, ResultError};
use crate::i18n::Localize;
use crate::model::{
    Colour, Event, GameResult, GroupId, GroupState, Outcome, Pairing, PlayerId, PlayerStatus,
    Playoff, Round, WithdrawalCause,
};
use crate::rulebook::{Lang, LateResult, Rulebook};
use crate::standings::compute_standings;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

/// A withdrawal's cause in `lang`: the arbiter's note (自愿退赛 / voluntary without one),
/// or the forfeits that reached the rulebook's limit.
pub fn withdrawal_cause_text(cause: &WithdrawalCause, lang: Lang) -> String {
    match cause {
        WithdrawalCause::Manual { note: Some(note) } => note.clone(),
        WithdrawalCause::Manual { note: None } => lang.pick("自愿退赛", "voluntary").to_string(),
        WithdrawalCause::GroupCancelled => lang
            .pick("组别人数不足，已取消", "group cancelled: too few players")
            .to_string(),
        WithdrawalCause::Forfeits {
            rounds,
            consecutive,
        } => {
            let n = rounds.len();
            match lang {
                Lang::Zh => {
                    let list = rounds
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join("、");
                    let kind = if *consecutive { "连续" } else { "累计" };
                    format!("{kind}{n}轮弃权（第 {list} 轮）")
                }
                Lang::En => {
                    let list = rounds
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ");
                    let kind = if *consecutive {
                        "consecutive"
                    } else {
                        "in total"
                    };
                    if *consecutive {
                        format!("{n} {kind} forfeits (rounds {list})")
                    } else {
                        format!("{n} forfeits {kind} (rounds {list})")
                    }
                }
            }
        }
    }
}

/// One result as stored, with what was there before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedResult {
    pub round: u32,
    pub table: u32,
    pub red: PlayerId,
    pub black: PlayerId,
    /// The outcome the arbiter entered (before a foul loss replaced it).
    pub entered: Outcome,
    /// The result stored before, if any.
    pub previous: Option<GameResult>,
    /// The result now stored.
    pub result: GameResult,
}

impl RecordedResult {
    /// A different result replaced an earlier one.
    pub fn is_correction(&self) -> bool {
        self.previous.is_some_and(|p| p != self.result)
    }

    /// The same result was entered again.
    pub fn is_unchanged(&self) -> bool {
        self.previous == Some(self.result)
    }
}

/// Something the arbiter should know about what was recorded. Serialisable so the audit
/// log keeps it as data and `qiwang log` words it in either language.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "warning")]
pub enum ResultWarning {
    /// A side reached the rulebook's foul limit: the game is recorded as their loss
    /// (Jinhua 补充规定 六 三次犯规判负; Dongguan 十五.7 二次犯规立即判负).
    LostOnFouls {
        round: u32,
        table: u32,
        player: PlayerId,
        colour: Colour,
        fouls: u32,
        entered: Outcome,
        recorded: Outcome,
    },
    /// The player reached the rulebook's number of forfeits and is no longer paired (or
    /// a correction moved the round that withdrawal starts from).
    Withdrawn {
        player: PlayerId,
        from_round: u32,
        cause: WithdrawalCause,
    },
    /// A correction removed the forfeits behind an automatic withdrawal.
    WithdrawalLifted { player: PlayerId, from_round: u32 },
    /// A withdrawn player already has a pairing in a round they should not play.
    WithdrawnButPaired { player: PlayerId, round: u32 },
    /// A result of an earlier round changed after later rounds were paired: standings
    /// follow, the later pairings stay as they are.
    EarlierRoundCorrected { round: u32, newest: u32 },
}

impl ResultWarning {
    /// The warning in `lang`, naming players with `name` (the CLI passes 张三(12), name and
    /// pairing number; `Display`, used by the audit log, passes the registration id).
    pub fn text(&self, lang: Lang, name: &dyn Fn(PlayerId) -> String) -> String {
        match (self, lang) {
            (
                ResultWarning::LostOnFouls {
                    round,
                    table,
                    player,
                    colour,
                    fouls,
                    entered,
                    recorded,
                },
                _,
            ) => {
                let who = name(*player);
                let mut text = match lang {
                    Lang::En => format!(
                        "round {round} table {table}: player {who} ({}) has {fouls} fouls and loses the game on fouls",
                        side(*colour)
                    ),
                    Lang::Zh => format!(
                        "第 {round} 轮第 {table} 台：棋手 {who}（{}）犯规 {fouls} 次，判负",
                        match colour {
                            Colour::Red => "红方",
                            Colour::Black => "黑方",
                        }
                    ),
                };
                if entered != recorded {
                    let (e, r) = (entered.token(), recorded.token());
                    text.push_str(&match lang {
                        Lang::En => format!("; `{e}` was recorded as `{r}`"),
                        Lang::Zh => format!("；录入的 `{e}` 记为 `{r}`"),
                    });
                }
                text
            }
            (
                ResultWarning::Withdrawn {
                    player,
                    from_round,
                    cause,
                },
                Lang::En,
            ) => format!(
                "player {} is withdrawn and not paired from round {from_round}: {}",
                name(*player),
                withdrawal_cause_text(cause, lang)
            ),
            (
                ResultWarning::Withdrawn {
                    player,
                    from_round,
                    cause,
                },
                Lang::Zh,
            ) => format!(
                "棋手 {} 已退赛，自第 {from_round} 轮起不再编排：{}",
                name(*player),
                withdrawal_cause_text(cause, lang)
            ),
            (ResultWarning::WithdrawalLifted { player, from_round }, Lang::En) => format!(
                "player {} no longer has the forfeits that withdrew them from round {from_round}: paired again",
                name(*player)
            ),
            (ResultWarning::WithdrawalLifted { player, from_round }, Lang::Zh) => format!(
                "棋手 {} 已不再有使其自第 {from_round} 轮起退赛的弃权：重新参加编排",
                name(*player)
            ),
            (ResultWarning::WithdrawnButPaired { player, round }, Lang::En) => format!(
                "player {} is withdrawn but already paired in round {round}: enter a forfeit for that game or unpair the round",
                name(*player)
            ),
            (ResultWarning::WithdrawnButPaired { player, round }, Lang::Zh) => format!(
                "棋手 {} 已退赛，但已编入第 {round} 轮：请为该局录入弃权，或撤销该轮编排",
                name(*player)
            ),
            (ResultWarning::EarlierRoundCorrected { round, newest }, Lang::En) => format!(
                "round {round} was corrected after round {newest} was paired: standings are recomputed, later pairings stay as they are"
            ),
            (ResultWarning::EarlierRoundCorrected { round, newest }, Lang::Zh) => format!(
                "第 {round} 轮在第 {newest} 轮编排之后被更正：成绩表已重新计算，之后各轮的编排保持不变"
            ),
        }
    }
}

impl fmt::Display for ResultWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En, &|p| p.to_string()))
    }
}

/// What [`record_results`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordReport {
    pub group: GroupId,
    /// In the order entered.
    pub results: Vec<RecordedResult>,
    pub warnings: Vec<ResultWarning>,
}

impl RecordReport {
    /// Results that replaced a different earlier result (old → new).
    pub fn corrections(&self) -> impl Iterator<Item = &RecordedResult> {
        self.results.iter().filter(|r| r.is_correction())
    }

    /// One line per correction and warning, in English with registration ids: what the
    /// audit log keeps.
    pub fn messages(&self) -> Vec<String> {
        self.messages_named(Lang::En, &|p| p.to_string())
    }

    /// One line per correction and warning in `lang`, players named by `name` (e.g.
    /// 张三(12), their name and pairing number), for the arbiter.
    pub fn messages_named(&self, lang: Lang, name: &dyn Fn(PlayerId) -> String) -> Vec<String> {
        let mut out: Vec<String> = self
            .corrections()
            .map(|r| {
                let (round, table) = (r.round, r.table);
                let old = r.previous.map(|p| p.outcome.token()).unwrap_or("");
                let new = r.result.outcome.token();
                match lang {
                    Lang::En => format!("round {round} table {table}: corrected `{old}` → `{new}`"),
                    Lang::Zh => format!("第 {round} 轮第 {table} 台：已将 `{old}` 更正为 `{new}`"),
                }
            })
            .collect();
        out.extend(self.warnings.iter().map(|w| w.text(lang, name)));
        out
    }
}

impl Localize for ResultWarning {
    fn localize(&self, lang: Lang) -> String {
        self.text(lang, &|p| p.to_string())
    }
}

fn side(colour: Colour) -> &'static str {
    match colour {
        Colour::Red => "red",
        Colour::Black => "black",
    }
}

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

fn check_group(rules: &Rulebook, group: &GroupId) -> Result<(), ResultError> {
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
            errors.push(ResultError::RoundMissing {
                group: group.clone(),
                round: round_no,
                last,
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
                tables: ranges(tables),
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

/// `1–8, 10` style list of table numbers.
fn ranges(mut numbers: Vec<u32>) -> String {
    numbers.sort_unstable();
    numbers.dedup();
    if numbers.is_empty() {
        return "none (the round has only a bye)".to_string();
    }
    let mut parts = Vec::new();
    let mut start = numbers[0];
    let mut prev = start;
    for &n in &numbers[1..] {
        if n != prev + 1 {
            parts.push(range_text(start, prev));
            start = n;
        }
        prev = n;
    }
    parts.push(range_text(start, prev));
    parts.join(", ")
}

fn range_text(a: u32, b: u32) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}–{b}")
    }
}

/// Each round's pairings of a group by player, in the group's round order. The forfeit
/// rule looks every player of the pool up in every round, and [`Round::pairing_of`] scans
/// the round, which made re-applying the rule quadratic in the pool's size. As with
/// `pairing_of`, the first pairing involving a player is theirs.
///
/// [`Round::pairing_of`]: crate::model::Round::pairing_of
struct PairingsByPlayer<'a> {
    /// The group's rounds (none when the group has none yet).
    played: &'a [Round],
    /// `rounds[i]` indexes `played[i]`.
    rounds: Vec<HashMap<PlayerId, &'a Pairing>>,
}

impl<'a> PairingsByPlayer<'a> {
    fn new(state: Option<&'a GroupState>) -> Self {
        let played = state.map_or(&[][..], |g| &g.rounds);
        let rounds = played
            .iter()
            .map(|round| {
                let mut by_player = HashMap::with_capacity(2 * round.pairings.len());
                for pairing in &round.pairings {
                    for id in pairing.players() {
                        by_player.entry(id).or_insert(pairing);
                    }
                }
                by_player
            })
            .collect();
        PairingsByPlayer { played, rounds }
    }

    /// `player`'s pairing in `played[i]`.
    fn at(&self, i: usize, player: PlayerId) -> Option<&'a Pairing> {
        self.rounds.get(i)?.get(&player).copied()
    }

    /// `player`'s pairing in round `number` (the first round so numbered, as
    /// `GroupState::round`).
    fn in_round(&self, number: u32, player: PlayerId) -> Option<&'a Pairing> {
        let i = self.played.iter().position(|r| r.number == number)?;
        self.at(i, player)
    }
}

/// `player`'s result in `pairing` and whether they forfeited it; `None` for a bye or a game
/// still without a result.
fn own_result(pairing: &Pairing, player: PlayerId) -> Option<(&GameResult, bool)> {
    let Pairing::Game {
        red,
        result: Some(result),
        ..
    } = pairing
    else {
        return None;
    };
    let colour = if *red == player {
        Colour::Red
    } else {
        Colour::Black
    };
    Some((result, result.outcome.forfeited_by(colour)))
}

/// The round in which a player reached the forfeit limit, and the forfeited rounds that
/// made it (Dalian/Wuwei 连续2轮弃权; Dongguan 十五.5 累计2轮不到; `docs/rules.md` §6).
/// Forfeits before the round a `player reinstate` lifted an earlier withdrawal from do
/// not count.
fn forfeit_trigger(
    event: &Event,
    pairings: &PairingsByPlayer,
    player: PlayerId,
    rules: &Rulebook,
) -> Option<(u32, Vec<u32>)> {
    let limit = rules.conduct.withdraw_after_forfeits?;
    if limit == 0 {
        return None;
    }
    let counted_from = event
        .player(player)
        .and_then(|p| p.reinstated_from)
        .unwrap_or(1);
    let mut rounds: Vec<_> = (pairings.played.iter().enumerate())
        .filter(|(_, r)| r.number >= counted_from)
        .collect();
    rounds.sort_by_key(|(_, r)| r.number);
    let mut counted: Vec<u32> = Vec::new();
    for (i, round) in rounds {
        let forfeited = match pairings.at(i, player).and_then(|p| own_result(p, player)) {
            // Dongguan 十五.5: 迟到15分钟将判负 is a loss, not one of the 累计2轮不到.
            Some((result, forfeited)) => {
                forfeited && !(result.late && rules.conduct.late_result == LateResult::Loss)
            }
            None => false,
        };
        if forfeited {
            counted.push(round.number);
            if counted.len() as u32 >= limit {
                return Some((round.number, counted));
            }
        } else if rules.conduct.withdraw_consecutive {
            counted.clear();
        }
    }
    None
}

/// The round an automatic withdrawal triggered in `trigger` starts from: the round after
/// it, or, when a correction created the forfeits after later rounds were played, the first
/// later round the player has not already played (a game they did not forfeit, or a bye).
/// Rounds already played stay played; a pairing still without a result stops the search
/// (the arbiter is warned about it). `docs/rules.md` §6 (Withdrawal after forfeits).
fn automatic_from_round(pairings: &PairingsByPlayer, player: PlayerId, trigger: u32) -> u32 {
    let mut round = trigger + 1;
    loop {
        let played = match pairings.in_round(round, player) {
            Some(Pairing::Bye { .. }) => true,
            Some(game) => own_result(game, player).is_some_and(|(_, forfeited)| !forfeited),
            None => false,
        };
        if !played {
            return round;
        }
        round += 1;
    }
}

/// The automatic withdrawal the results call for: from which round, and its cause.
fn automatic_withdrawal(
    event: &Event,
    rules: &Rulebook,
    pairings: &PairingsByPlayer,
    player: PlayerId,
) -> Option<(u32, WithdrawalCause)> {
    let (trigger, rounds) = forfeit_trigger(event, pairings, player, rules)?;
    Some((
        automatic_from_round(pairings, player, trigger),
        WithdrawalCause::Forfeits {
            rounds,
            consecutive: rules.conduct.withdraw_consecutive,
        },
    ))
}

/// Re-applies the forfeit-withdrawal rule to every player of the pool: an automatic
/// withdrawal is a function of the results, so it is made, moved or lifted to match them.
/// Manual withdrawals and disqualifications are never touched. The statuses are worked
/// out first and set after: a player's automatic withdrawal depends on the results and
/// their own reinstatement, never on another player's status.
pub(crate) fn apply_forfeit_withdrawals(
    event: &mut Event,
    rules: &Rulebook,
    group: &GroupId,
) -> Vec<ResultWarning> {
    let pairings = PairingsByPlayer::new(event.group(group));
    let mut changes = Vec::new();
    let mut warnings = Vec::new();
    for player in event.players_in(group) {
        let id = player.id;
        let current = match &player.status {
            PlayerStatus::Active => None,
            PlayerStatus::Disqualified { .. } => continue,
            PlayerStatus::Withdrawn { cause, .. } if !cause.is_automatic() => continue,
            PlayerStatus::Withdrawn { from_round, cause } => Some((*from_round, cause)),
        };
        match (current, automatic_withdrawal(event, rules, &pairings, id)) {
            (None, None) => {}
            (Some((from_round, _)), None) => {
                changes.push((id, PlayerStatus::Active));
                warnings.push(ResultWarning::WithdrawalLifted {
                    player: id,
                    from_round,
                });
            }
            (old, Some((from_round, cause))) => {
                if old == Some((from_round, &cause)) {
                    continue;
                }
                changes.push((
                    id,
                    PlayerStatus::Withdrawn {
                        from_round,
                        cause: cause.clone(),
                    },
                ));
                warnings.push(ResultWarning::Withdrawn {
                    player: id,
                    from_round,
                    cause,
                });
                let paired_later = pairings.played.iter().enumerate().filter(|(i, r)| {
                    r.number >= from_round
                        && matches!(
                            pairings.at(*i, id),
                            Some(Pairing::Game { result: None, .. })
                        )
                });
                warnings.extend(
                    paired_later.map(|(_, r)| ResultWarning::WithdrawnButPaired {
                        player: id,
                        round: r.number,
                    }),
                );
            }
        }
    }
    for (id, status) in changes {
        if let Some(player) = event.player_mut(id) {
            player.status = status;
        }
    }
    warnings
}

/// Withdraws a player from `from_round` on (voluntary withdrawal): they are no longer
/// paired; their played games stay and keep counting for their opponents. `reason` is
/// required. See [`withdraw`] for the checks.
pub fn withdraw_player(
    event: &mut Event,
    player: PlayerId,
    from_round: u32,
    reason: &str,
) -> Result<(), ResultError> {
    if reason.trim().is_empty() {
        let mut errors = vec![ResultError::EmptyReason];
        if let Err(e) = check_withdrawal(event, player, from_round) {
            errors.insert(0, e);
        }
        return ResultError::collect(errors);
    }
    withdraw(event, player, from_round, Some(reason))
}

/// `qiwang player withdraw`: the player is not paired from the round after the newest
/// round of their pool. Refused while their game of the newest round has no result (enter
/// a forfeit for it, or unpair the round, first), and once the group's `rounds` are all
/// paired. Returns the round the withdrawal starts.
pub fn withdraw_from_next_round(
    event: &mut Event,
    player: PlayerId,
    rounds: u32,
    note: Option<&str>,
) -> Result<u32, ResultError> {
    let p = event
        .player(player)
        .ok_or(ResultError::UnknownPlayer { player })?;
    let newest = event
        .group(&p.group)
        .and_then(|g| g.rounds.iter().max_by_key(|r| r.number));
    if let Some(round) = newest
        && let Some(Pairing::Game { result: None, .. }) = round.pairing_of(player)
    {
        return Err(ResultError::UnplayedGame {
            player,
            round: round.number,
        });
    }
    let from_round = newest.map_or(0, |r| r.number) + 1;
    // After the last round there is nothing left to withdraw from; under
    // `prizes.withdrawn = "unranked"` a withdrawal then would only take away a place.
    if from_round > rounds {
        return Err(ResultError::EventOver { player, rounds });
    }
    withdraw(event, player, from_round, note)?;
    Ok(from_round)
}

/// The checks of a manual withdrawal from `from_round`.
fn check_withdrawal(event: &Event, player: PlayerId, from_round: u32) -> Result<(), ResultError> {
    let p = event
        .player(player)
        .ok_or(ResultError::UnknownPlayer { player })?;
    let mut errors = Vec::new();
    if from_round == 0 {
        errors.push(ResultError::BadWithdrawalRound { from_round });
    }
    match &p.status {
        PlayerStatus::Withdrawn {
            from_round: already,
            cause,
        } if !cause.is_automatic() => errors.push(ResultError::AlreadyWithdrawn {
            player,
            from_round: *already,
        }),
        PlayerStatus::Disqualified {
            from_round: already,
            ..
        } => errors.push(ResultError::AlreadyWithdrawn {
            player,
            from_round: *already,
        }),
        _ => {}
    }
    if let Some(state) = event.group(&p.group) {
        let paired = state
            .rounds
            .iter()
            .filter(|r| r.number >= from_round && r.pairing_of(player).is_some())
            .map(|r| r.number)
            .max();
        if let Some(round) = paired {
            errors.push(ResultError::PairedAfterWithdrawal { player, round });
        }
    }
    ResultError::collect(errors)
}

/// Withdraws a player by hand from `from_round` on, with the arbiter's note if any.
/// Fails if the player is unknown, already withdrawn by hand or disqualified, or already
/// paired in `from_round` or later. An automatic withdrawal is replaced.
pub fn withdraw(
    event: &mut Event,
    player: PlayerId,
    from_round: u32,
    note: Option<&str>,
) -> Result<(), ResultError> {
    check_withdrawal(event, player, from_round)?;
    let note = note
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    if let Some(p) = event.player_mut(player) {
        p.status = PlayerStatus::Withdrawn {
            from_round,
            cause: WithdrawalCause::Manual { note },
        };
    }
    Ok(())
}

/// `qiwang player reinstate`: lifts a withdrawal, manual or automatic, from the round after
/// the newest round of the player's pool on. Played games are unchanged; rounds missed
/// meanwhile stay unplayed. Forfeits before that round no longer count toward the forfeit
/// rule, so an automatic withdrawal is not made again from the same forfeits. Returns the
/// round the player is paired again from.
pub fn reinstate_player(event: &mut Event, player: PlayerId) -> Result<u32, ResultError> {
    let p = event
        .player(player)
        .ok_or(ResultError::UnknownPlayer { player })?;
    if !p.is_withdrawn() {
        return Err(ResultError::NotWithdrawn { player });
    }
    let from_round = event
        .group(&p.group)
        .and_then(|g| g.rounds.iter().map(|r| r.number).max())
        .unwrap_or(0)
        + 1;
    if let Some(p) = event.player_mut(player) {
        p.status = PlayerStatus::Active;
        p.reinstated_from = Some(from_round);
    }
    Ok(from_round)
}

/// Records the playoff (加赛) that settled a tie for an unshareable place (冠军不并列):
/// `order` must list exactly the players the standings flag as `needs_playoff` for one
/// place, each once, winner first. A playoff recorded earlier for the same players is
/// replaced.
pub fn record_playoff(
    event: &mut Event,
    rules: &Rulebook,
    group: &GroupId,
    order: Vec<PlayerId>,
) -> Result<(), ResultError> {
    check_group(rules, group)?;
    let order_set: BTreeSet<PlayerId> = order.iter().copied().collect();
    // Rank without earlier playoffs over the same players, so a playoff can be re-entered.
    let mut without = event.clone();
    without.playoffs.retain(|p| {
        !(&p.group == group && p.order.iter().copied().collect::<BTreeSet<_>>() == order_set)
    });
    let standings = compute_standings(&without, rules, group, None);
    let mut tied: BTreeMap<u32, BTreeSet<PlayerId>> = BTreeMap::new();
    for row in standings.rows.iter().filter(|r| r.needs_playoff) {
        if let Some(rank) = row.rank {
            tied.entry(rank).or_default().insert(row.player);
        }
    }
    if tied.is_empty() {
        return Err(ResultError::NoPlayoffNeeded {
            group: group.clone(),
        });
    }
    let matches = order_set.len() == order.len() && tied.values().any(|set| *set == order_set);
    if !matches {
        let list = |ids: &mut dyn Iterator<Item = PlayerId>| {
            ids.map(|id| id.to_string()).collect::<Vec<_>>().join(", ")
        };
        let tied_text = tied
            .values()
            .map(|set| format!("[{}]", list(&mut set.iter().copied())))
            .collect::<Vec<_>>()
            .join(" or ");
        return Err(ResultError::PlayoffMismatch {
            group: group.clone(),
            given: format!("[{}]", list(&mut order.iter().copied())),
            tied: tied_text,
        });
    }
    event.playoffs = without.playoffs;
    event.playoffs.push(Playoff {
        group: group.clone(),
        order,
        note: String::new(),
        list: None,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Player, Round};

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

    #[test]
    fn table_lists_are_compact() {
        assert_eq!(ranges(vec![3, 1, 2, 5, 7, 6]), "1–3, 5–7");
        assert_eq!(ranges(vec![4]), "4");
        assert_eq!(ranges(vec![]), "none (the round has only a bye)");
    }

    fn event_with(outcomes: &[Option<Outcome>]) -> (Event, GroupId) {
        let group = GroupId::new("open");
        let mut event = Event::new(String::new());
        for id in 1..=2 {
            event
                .players
                .push(Player::new(PlayerId(id), format!("p{id}"), group.clone()));
        }
        let state = event.group_mut(&group);
        for (k, outcome) in outcomes.iter().enumerate() {
            let pairings = match outcome {
                Some(o) => vec![Pairing::Game {
                    table: 1,
                    red: PlayerId(1),
                    black: PlayerId(2),
                    result: Some(GameResult::new(*o)),
                }],
                None => vec![Pairing::Bye {
                    player: PlayerId(1),
                }],
            };
            state.rounds.push(Round {
                number: k as u32 + 1,
                pairings,
            });
        }
        (event, group)
    }

    #[test]
    fn forfeit_trigger_consecutive_or_total() {
        use Outcome::*;
        // (results of player 1 as red, or a bye; consecutive?; round that withdraws)
        type Case = (&'static [Option<Outcome>], bool, Option<u32>);
        let cases: [Case; 6] = [
            (&[Some(RedForfeit), Some(RedForfeit)], true, Some(2)),
            (
                &[Some(RedForfeit), Some(RedWin), Some(RedForfeit)],
                true,
                None,
            ),
            (
                &[Some(RedForfeit), Some(RedWin), Some(RedForfeit)],
                false,
                Some(3),
            ),
            (&[Some(RedForfeit), None, Some(DoubleForfeit)], true, None),
            (&[Some(DoubleForfeit), Some(DoubleForfeit)], true, Some(2)),
            (&[Some(BlackForfeit), Some(BlackForfeit)], true, None),
        ];
        for (outcomes, consecutive, want) in cases {
            let (event, group) = event_with(outcomes);
            let mut rules = Rulebook::cxa_2011("t", 5);
            rules.conduct.withdraw_consecutive = consecutive;
            let pairings = PairingsByPlayer::new(event.group(&group));
            let got = forfeit_trigger(&event, &pairings, PlayerId(1), &rules).map(|(r, _)| r);
            assert_eq!(got, want, "{outcomes:?} consecutive={consecutive}");
        }
        let (event, group) = event_with(&[Some(RedForfeit), Some(RedForfeit)]);
        let mut rules = Rulebook::cxa_2011("t", 5);
        rules.conduct.withdraw_after_forfeits = None;
        let pairings = PairingsByPlayer::new(event.group(&group));
        assert_eq!(
            forfeit_trigger(&event, &pairings, PlayerId(1), &rules),
            None
        );
    }

    /// The forfeit rule as it was before [`PairingsByPlayer`]: every lookup scans the
    /// round ([`Round::pairing_of`]) and statuses are set as the players are visited. Kept
    /// only as the oracle of `indexed_forfeit_withdrawals_match_the_scanning_rule`.
    mod scanning {
        use super::super::*;

        fn trigger(
            event: &Event,
            group: &GroupId,
            player: PlayerId,
            rules: &Rulebook,
        ) -> Option<(u32, Vec<u32>)> {
            let limit = rules.conduct.withdraw_after_forfeits?;
            if limit == 0 {
                return None;
            }
            let counted_from = event
                .player(player)
                .and_then(|p| p.reinstated_from)
                .unwrap_or(1);
            let mut rounds: Vec<_> = (event.group(group)?.rounds.iter())
                .filter(|r| r.number >= counted_from)
                .collect();
            rounds.sort_by_key(|r| r.number);
            let mut counted: Vec<u32> = Vec::new();
            for round in rounds {
                let forfeited = match round.pairing_of(player) {
                    Some(Pairing::Game {
                        red,
                        result: Some(result),
                        ..
                    }) => {
                        let colour = if *red == player {
                            Colour::Red
                        } else {
                            Colour::Black
                        };
                        let late_loss =
                            result.late && rules.conduct.late_result == LateResult::Loss;
                        result.outcome.forfeited_by(colour) && !late_loss
                    }
                    _ => false,
                };
                if forfeited {
                    counted.push(round.number);
                    if counted.len() as u32 >= limit {
                        return Some((round.number, counted));
                    }
                } else if rules.conduct.withdraw_consecutive {
                    counted.clear();
                }
            }
            None
        }

        fn from_round(state: &GroupState, player: PlayerId, trigger: u32) -> u32 {
            let mut round = trigger + 1;
            loop {
                let played = match state.round(round).and_then(|r| r.pairing_of(player)) {
                    Some(Pairing::Bye { .. }) => true,
                    Some(Pairing::Game {
                        red,
                        result: Some(result),
                        ..
                    }) => {
                        let colour = if *red == player {
                            Colour::Red
                        } else {
                            Colour::Black
                        };
                        !result.outcome.forfeited_by(colour)
                    }
                    _ => false,
                };
                if !played {
                    return round;
                }
                round += 1;
            }
        }

        pub fn apply(event: &mut Event, rules: &Rulebook, group: &GroupId) -> Vec<ResultWarning> {
            let ids: Vec<PlayerId> = event.players_in(group).map(|p| p.id).collect();
            let mut warnings = Vec::new();
            for id in ids {
                let wanted = trigger(event, group, id, rules).map(|(t, rounds)| {
                    let state = event.group(group).expect("a trigger needs rounds");
                    let cause = WithdrawalCause::Forfeits {
                        rounds,
                        consecutive: rules.conduct.withdraw_consecutive,
                    };
                    (from_round(state, id, t), cause)
                });
                let player = event.player_mut(id).expect("listed");
                let current = match &player.status {
                    PlayerStatus::Active => None,
                    PlayerStatus::Disqualified { .. } => continue,
                    PlayerStatus::Withdrawn { cause, .. } if !cause.is_automatic() => continue,
                    PlayerStatus::Withdrawn { from_round, cause } => {
                        Some((*from_round, cause.clone()))
                    }
                };
                match (current, wanted) {
                    (None, None) => {}
                    (Some((from_round, _)), None) => {
                        player.status = PlayerStatus::Active;
                        warnings.push(ResultWarning::WithdrawalLifted {
                            player: id,
                            from_round,
                        });
                    }
                    (old, Some((from_round, cause))) => {
                        if old.as_ref() == Some(&(from_round, cause.clone())) {
                            continue;
                        }
                        player.status = PlayerStatus::Withdrawn {
                            from_round,
                            cause: cause.clone(),
                        };
                        warnings.push(ResultWarning::Withdrawn {
                            player: id,
                            from_round,
                            cause,
                        });
                        let paired_later = (event.group(group).into_iter().flat_map(|g| &g.rounds))
                            .filter(|r| {
                                r.number >= from_round
                                    && matches!(
                                        r.pairing_of(id),
                                        Some(Pairing::Game { result: None, .. })
                                    )
                            });
                        warnings.extend(paired_later.map(|r| ResultWarning::WithdrawnButPaired {
                            player: id,
                            round: r.number,
                        }));
                    }
                }
            }
            warnings
        }
    }

    /// A random pool for the forfeit rule: players who sit out rounds, byes, forfeits
    /// (some late), games without a result, rounds stored out of order or twice, stale
    /// automatic withdrawals, manual ones, disqualifications and reinstatements.
    fn random_forfeit_pool(rng: &mut impl rand::Rng) -> (Event, GroupId, Rulebook) {
        use rand::seq::SliceRandom;
        let group = GroupId::new("open");
        let mut event = Event::new(String::new());
        let players = rng.gen_range(1..=10u32);
        let rounds = rng.gen_range(0..=6u32);
        for id in 1..=players {
            let mut p = Player::new(PlayerId(id), format!("p{id}"), group.clone());
            if rng.gen_bool(0.2) {
                p.reinstated_from = Some(rng.gen_range(1..=rounds + 1));
            }
            p.status = match rng.gen_range(0..8) {
                0 => PlayerStatus::Withdrawn {
                    from_round: rng.gen_range(1..=rounds + 2),
                    cause: WithdrawalCause::Forfeits {
                        rounds: vec![rng.gen_range(1..=rounds + 1); rng.gen_range(1..3)],
                        consecutive: rng.gen_bool(0.5),
                    },
                },
                1 => PlayerStatus::Withdrawn {
                    from_round: rng.gen_range(1..=rounds + 2),
                    cause: WithdrawalCause::Manual { note: None },
                },
                2 => PlayerStatus::Disqualified {
                    from_round: 1,
                    reason: String::new(),
                },
                _ => PlayerStatus::Active,
            };
            event.players.push(p);
        }
        let outcomes = [
            Outcome::RedWin,
            Outcome::Draw,
            Outcome::BlackWin,
            Outcome::RedForfeit,
            Outcome::BlackForfeit,
            Outcome::DoubleForfeit,
        ];
        let mut numbers: Vec<u32> = (1..=rounds).collect();
        if rounds > 1 && rng.gen_bool(0.2) {
            numbers.swap(0, 1);
        }
        if rounds > 0 && rng.gen_bool(0.1) {
            numbers.push(rounds);
        }
        for number in numbers {
            let mut ids: Vec<PlayerId> = (1..=players)
                .map(PlayerId)
                .filter(|_| rng.gen_bool(0.9))
                .collect();
            ids.shuffle(rng);
            let mut pairings = Vec::new();
            for (table, pair) in ids.chunks(2).enumerate() {
                pairings.push(match *pair {
                    [red, black] => Pairing::Game {
                        table: table as u32 + 1,
                        red,
                        black,
                        result: rng.gen_bool(0.9).then(|| GameResult {
                            outcome: outcomes[rng.gen_range(0..outcomes.len())],
                            red_fouls: 0,
                            black_fouls: 0,
                            late: rng.gen_bool(0.2),
                        }),
                    },
                    [player] => Pairing::Bye { player },
                    _ => unreachable!("chunks of two"),
                });
            }
            event
                .group_mut(&group)
                .rounds
                .push(Round { number, pairings });
        }
        let mut rules = Rulebook::cxa_2011("t", 9);
        rules.conduct.withdraw_after_forfeits =
            [None, Some(1), Some(2), Some(3)][rng.gen_range(0..4)];
        rules.conduct.withdraw_consecutive = rng.gen_bool(0.5);
        if rng.gen_bool(0.5) {
            rules.conduct.late_result = LateResult::Loss;
        }
        (event, group, rules)
    }

    #[test]
    fn indexed_forfeit_withdrawals_match_the_scanning_rule() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
        let mut withdrawn = 0;
        for case in 0..3000 {
            let (event, group, rules) = random_forfeit_pool(&mut rng);
            let (mut old, mut new) = (event.clone(), event);
            let want = scanning::apply(&mut old, &rules, &group);
            let got = apply_forfeit_withdrawals(&mut new, &rules, &group);
            assert_eq!(got, want, "case {case}: warnings");
            assert_eq!(new, old, "case {case}: statuses");
            withdrawn += want
                .iter()
                .filter(|w| matches!(w, ResultWarning::Withdrawn { .. }))
                .count();
        }
        // The cases reach the rule, not only its early exits.
        assert!(withdrawn > 300, "{withdrawn} withdrawals");
    }

    #[test]
    fn every_warning_has_chinese_with_the_same_values() {
        use crate::i18n::facts::assert_localized;
        let warnings = [
            ResultWarning::LostOnFouls {
                round: 3,
                table: 4,
                player: PlayerId(12),
                colour: Colour::Black,
                fouls: 2,
                entered: Outcome::Draw,
                recorded: Outcome::RedWin,
            },
            ResultWarning::Withdrawn {
                player: PlayerId(12),
                from_round: 5,
                cause: WithdrawalCause::Forfeits {
                    rounds: vec![3, 4],
                    consecutive: true,
                },
            },
            ResultWarning::WithdrawalLifted {
                player: PlayerId(12),
                from_round: 5,
            },
            ResultWarning::WithdrawnButPaired {
                player: PlayerId(12),
                round: 5,
            },
            ResultWarning::EarlierRoundCorrected {
                round: 2,
                newest: 4,
            },
        ];
        for w in &warnings {
            assert_localized(w);
        }
    }
}
