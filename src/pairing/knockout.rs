//! A knockout pool's rounds (docs/rules.md §16): the seeds' numbers before round 1, then
//! each round as the next game of every open match, from the bracket its stored rounds
//! make (`schedule::bracket`). Nothing is optimised; a withdrawn player's games are
//! entered as forfeits when their round is paired, so the opponent goes through.

use super::{Explanation, PairingError, PairingPlan, Rule, Violation};
use crate::formats::knockout::{NextGame, TiebreakStage};
use crate::i18n::{Lang, bi};
use crate::model::{Event, GameResult, GroupId, Outcome, Pairing, PlayerId, Round};
use crate::rulebook::Rulebook;
use crate::schedule::bracket::{self, Bracket};

/// What `pair --explain` says of a knockout round: the bracket round and, per table, the
/// game of the match it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutNote {
    /// The bracket round (1-based) and the players it started with (8 = 1/4 决赛).
    pub bracket_round: u32,
    /// Players the bracket round started with.
    pub players: u32,
    /// Per table: the game of its match.
    pub games: Vec<(u32, NextGame)>,
    /// Seeds with a bye into the next bracket round (round 1 only).
    pub byes: Vec<PlayerId>,
}

/// Round `next` of the knockout pool `group` (the caller has checked that the previous
/// round is complete).
pub(super) fn pair(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    next: u32,
    seed: u64,
) -> Result<PairingPlan, PairingError> {
    let after = rules.stage_after(group);
    let mut stage_seeds = None;
    let (seeds, numbers) = match after {
        // A final stage: the finalists drawn when it began, or now from the Swiss
        // ranking, which must not leave a tie across the line (docs/rules.md §16.6).
        Some(swiss) => {
            if bracket::stage_started(event, rules, group) {
                let stored = event
                    .group(group)
                    .map(|g| g.stage_seeds.clone())
                    .unwrap_or_default();
                (stored, Vec::new())
            } else {
                let finalists =
                    crate::standings::finalists(event, rules, group, swiss).map_err(|tied| {
                        PairingError::QualificationTie {
                            group: group.clone(),
                            players: tied.iter().map(|p| event.player_label(*p)).collect(),
                        }
                    })?;
                stage_seeds = Some(finalists.clone());
                (finalists, Vec::new())
            }
        }
        None if next == 1 => {
            let numbers = super::assign_numbers(event, rules, group, 1, seed)?;
            let mut seeds: Vec<(u32, PlayerId)> = numbers.iter().map(|(id, n)| (*n, *id)).collect();
            seeds.sort_unstable();
            let mut numbers: Vec<(PlayerId, u32)> = numbers.into_iter().collect();
            numbers.sort_by_key(|(id, n)| (*n, *id));
            (seeds.into_iter().map(|(_, id)| id).collect(), numbers)
        }
        None => (bracket::seeds(event, group), Vec::new()),
    };
    if after.is_none() && next > 1 {
        outside_field(event, group, next, &seeds)?;
    }
    if seeds.len() < 2 {
        return Err(PairingError::NoPlayers {
            group: group.clone(),
            round: next,
        });
    }
    // Round 1 is paired before the pool's seed is stored: the bracket draws its lots
    // (first colours) from the seed it will be stored with.
    let mut seeded;
    let event = if next == 1 {
        seeded = event.clone();
        seeded.group_mut(group).seed = Some(seed);
        &seeded
    } else {
        event
    };
    let b = bracket::build_with(event, rules, group, seeds, after.unwrap_or(0));
    if let Some(stray) = b.strays.first() {
        return Err(PairingError::KnockoutStray {
            group: group.clone(),
            round: stray.round,
            table: stray.table,
        });
    }
    if b.finished() {
        return Err(PairingError::KnockoutFinished {
            group: group.clone(),
            champion: b
                .champion()
                .map(|p| event.player_label(p))
                .unwrap_or_default(),
        });
    }
    let tables = b.next_tables();
    if tables.is_empty() {
        return Err(PairingError::NoPlayers {
            group: group.clone(),
            round: next,
        });
    }
    let absent = |id: PlayerId| event.player(id).is_none_or(|p| !p.pairable_in(next));
    let pairings = tables
        .iter()
        .map(|&(table, red, black, _)| {
            let outcome = match (absent(red), absent(black)) {
                (true, true) => Some(Outcome::DoubleForfeit),
                (true, false) => Some(Outcome::RedForfeit),
                (false, true) => Some(Outcome::BlackForfeit),
                (false, false) => None,
            };
            Pairing::Game {
                table,
                red,
                black,
                result: outcome.map(GameResult::new),
            }
        })
        .collect();
    let note = note(&b, &tables, next);
    Ok(PairingPlan {
        round: Round {
            number: next,
            pairings,
        },
        numbers,
        stage_seeds,
        explanation: Explanation::printed(next, None, Some(note)),
        relaxed: Vec::new(),
    })
}

fn note(b: &Bracket, tables: &bracket::NextTables, next: u32) -> KnockoutNote {
    // The tables belong to the newest bracket round, or (when it is decided) to the one
    // `next_tables` begins.
    let current = b.rounds.last();
    let (bracket_round, players) = current.map_or((1, 0), |r| (r.number, r.players));
    let byes = if next == 1 {
        current
            .map(|r| {
                r.matches
                    .iter()
                    .filter(|m| m.b.is_none())
                    .map(|m| m.a)
                    .collect()
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    KnockoutNote {
        bracket_round,
        players,
        games: tables.iter().map(|&(t, _, _, g)| (t, g)).collect(),
        byes,
    }
}

/// Refuses a round of a round robin or knockout while a player who could play it is not
/// in its table or bracket (registered after round 1).
pub(super) fn outside_field(
    event: &Event,
    group: &GroupId,
    next: u32,
    field: &[PlayerId],
) -> Result<(), PairingError> {
    if next == 1 {
        return Ok(());
    }
    let outside: Vec<String> = event
        .players_in(group)
        .filter(|p| p.pairable_in(next) && !field.contains(&p.id))
        .map(|p| event.player_label(p.id))
        .collect();
    if outside.is_empty() {
        Ok(())
    } else {
        Err(PairingError::NotInField {
            group: group.clone(),
            players: outside,
        })
    }
}

/// A bracket round's name: 决赛, 半决赛, 1/4 决赛, 1/8 决赛 … (final, semi-final, …).
pub fn round_name(players: u32, lang: Lang) -> String {
    match players {
        2 => lang.pick("决赛", "final").into(),
        4 => lang.pick("半决赛", "semi-final").into(),
        n => bi!(lang, zh("1/{} 决赛", n / 2), en("1/{} final", n / 2)),
    }
}

/// A game of a match as the sheets name it: 第 2 局, 快棋加赛第 1 局, 和棋判黑胜加赛.
pub fn game_name(game: NextGame, lang: Lang) -> String {
    match game {
        NextGame::Regular { game } => bi!(lang, zh("第 {game} 局"), en("game {game}")),
        NextGame::Tiebreak { kind, game, .. } => match kind {
            TiebreakStage::Rapid => {
                bi!(
                    lang,
                    zh("快棋加赛第 {game} 局"),
                    en("rapid tiebreak game {game}")
                )
            }
            TiebreakStage::Blitz => {
                bi!(
                    lang,
                    zh("超快棋加赛第 {game} 局"),
                    en("blitz tiebreak game {game}")
                )
            }
            TiebreakStage::Armageddon => lang
                .pick(
                    "加赛（和棋判黑胜）",
                    "deciding game (a draw is a win for black)",
                )
                .into(),
            TiebreakStage::Lot => lang.pick("抽签", "lot").into(),
        },
    }
}

impl KnockoutNote {
    /// The note's lines in `lang`, naming players with `names`.
    pub fn lines(&self, lang: Lang, names: &dyn Fn(PlayerId) -> String) -> Vec<String> {
        let round = round_name(self.players, lang);
        let bracket_round = self.bracket_round;
        let mut out = vec![bi!(
            lang,
            zh("淘汰赛 {round}（第 {bracket_round} 轮淘汰）：按对阵表编排，不作优化。"),
            en(
                "Knockout, {round} (bracket round {bracket_round}): the bracket's games, not optimised."
            )
        )];
        for (table, game) in &self.games {
            let g = game_name(*game, lang);
            out.push(bi!(
                lang,
                zh("第 {table} 台：{g}"),
                en("table {table}: {g}")
            ));
        }
        if !self.byes.is_empty() {
            let who: Vec<String> = self.byes.iter().map(|p| names(*p)).collect();
            out.push(bi!(
                lang,
                zh("首轮轮空直接晋级（种子在前）：{}", who.join("、")),
                en("byes into the next round (top seeds): {}", who.join(", "))
            ));
        }
        out
    }
}

/// `check` for a knockout round: every game is the game its match was due.
pub(super) fn check(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    round: &Round,
) -> Vec<Violation> {
    let b = bracket::build(event, rules, group);
    b.strays
        .iter()
        .filter(|s| s.round == round.number)
        .map(|s| Violation {
            round: round.number,
            players: round
                .game_at(s.table)
                .map(|p| p.players().collect())
                .unwrap_or_default(),
            rule: Rule::NotDue { table: s.table },
        })
        .collect()
}
