//! A knockout pool's bracket as its stored rounds make it (docs/rules.md §16): which match
//! each game belongs to, where every match stands, who goes through, what the next round
//! must pair, and the places.
//!
//! Owns the replay of a knockout's rounds against `formats::knockout`: bracket round 1
//! from the players' numbers (seeds), every stored round read as the next game of each
//! match still open, then the next bracket round from the winners (and a third-place
//! match beside the final when the rulebook asks for one). A stored game that is not the
//! game due (a tiebreak game while the match is not level, a game of a decided match) is
//! a problem the replay reports, never silently accepts. Pure: reads the event and the
//! rulebook; a lot's outcome comes from the group's recorded seed.

use crate::formats::knockout::{
    GameScore, MatchState, NextGame, TiebreakStage, bracket_size, first_round, match_state,
};
use crate::model::{Colour, Event, GroupId, Outcome, Pairing, PlayerId};
use crate::rulebook::{FirstColour, KnockoutRules, Rulebook};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One game of a match as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchGame {
    /// The qiwang round the game is in.
    pub round: u32,
    /// The table it was paired at: the match's own number moved on past the tables of the
    /// pools before it in its hall (docs/rules.md §12), which the sheets show.
    pub table: u32,
    /// The game it is for the match.
    pub kind: NextGame,
    /// Red (先走).
    pub red: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// The outcome, once entered (a deciding game's draw is stored as a draw).
    pub outcome: Option<Outcome>,
}

/// One match of a bracket round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// The table its games are played at (1-based within the bracket round; 0 for a bye).
    pub table: u32,
    /// The higher seed.
    pub a: PlayerId,
    /// The lower seed; `None` for a bye (A goes through).
    pub b: Option<PlayerId>,
    /// A match for a place: the winner takes it, the loser the next (3 between the
    /// semi-final losers, 5 and 7 in a play-off of places 5–8); `None` for a match of the
    /// main bracket or a 5–8 semi-final.
    pub place: Option<u32>,
    /// A semi-final of the play-off for places 5–8 between quarter-final losers.
    pub classify: bool,
    /// The games so far, in order.
    pub games: Vec<MatchGame>,
    /// The winner, once decided.
    pub winner: Option<PlayerId>,
    /// Decided by a lot (the stages exhausted, or `lot` in `tiebreak_games`).
    pub by_lot: bool,
    /// The game due next, while the match is open and its last game has a result.
    pub due: Option<NextGame>,
    /// A takes red in the match's first game (colours then alternate).
    pub first_red: bool,
}

impl Match {
    /// Whether the match belongs to the main bracket (not a place match or a 5–8 one).
    pub fn is_main(&self) -> bool {
        self.place.is_none() && !self.classify
    }

    /// The loser, once decided (none for a bye).
    pub fn loser(&self) -> Option<PlayerId> {
        let w = self.winner?;
        let b = self.b?;
        Some(if w == self.a { b } else { self.a })
    }

    /// Whether a game of the match still has no result.
    pub fn waiting(&self) -> bool {
        self.games.iter().any(|g| g.outcome.is_none())
    }
}

/// One bracket round (1/4 决赛, 半决赛, 决赛 …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BracketRound {
    /// 1-based.
    pub number: u32,
    /// Players left when the round starts (8 = 1/4 决赛).
    pub players: u32,
    /// The matches in bracket order (byes included, the third-place match last).
    pub matches: Vec<Match>,
}

/// A stored game that is not the one the bracket expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stray {
    /// The qiwang round.
    pub round: u32,
    /// The table.
    pub table: u32,
}

/// The whole bracket of a knockout pool.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bracket {
    /// Seeds in order: `seeds[0]` is seed 1.
    pub seeds: Vec<PlayerId>,
    /// The bracket rounds begun so far.
    pub rounds: Vec<BracketRound>,
    /// Stored games the bracket does not expect.
    pub strays: Vec<Stray>,
    /// The qiwang rounds read.
    pub played_rounds: u32,
}

/// The games the next qiwang round of a knockout pool holds: (table, red, black).
pub type NextTables = Vec<(u32, PlayerId, PlayerId, NextGame)>;

impl Bracket {
    /// The champion, once the final is decided.
    pub fn champion(&self) -> Option<PlayerId> {
        let last = self.rounds.last()?;
        (last.players == 2)
            .then(|| last.matches.iter().find(|m| m.is_main())?.winner)
            .flatten()
    }

    /// Whether every match is decided and nothing is left to play.
    pub fn finished(&self) -> bool {
        self.rounds
            .last()
            .is_some_and(|r| r.players <= 2 && r.matches.iter().all(|m| m.winner.is_some()))
            || (self.seeds.len() == 1)
    }

    /// The games of the next round: each open match's due game, or, when the current
    /// bracket round is decided, the first games of the next one. Empty when the bracket
    /// is finished or a result is still missing.
    pub fn next_tables(&self) -> NextTables {
        let Some(current) = self.rounds.last() else {
            return Vec::new();
        };
        if current.matches.iter().any(Match::waiting) {
            return Vec::new();
        }
        current
            .matches
            .iter()
            .filter_map(|m| {
                let b = m.b?;
                let due = m.due?;
                let (red, black) = colours(m.a, b, m.games.len(), m.first_red);
                Some((m.table, red, black, due))
            })
            .collect()
    }
}

/// Red for game `index` (0-based over the match) between A and B, A red first when
/// `a_first`: colours alternate game by game.
fn colours(a: PlayerId, b: PlayerId, index: usize, a_first: bool) -> (PlayerId, PlayerId) {
    if index.is_multiple_of(2) == a_first {
        (a, b)
    } else {
        (b, a)
    }
}

/// The seeds of a knockout pool: its numbered players in number order.
pub fn seeds(event: &Event, group: &GroupId) -> Vec<PlayerId> {
    let mut numbered: Vec<(u32, PlayerId)> = event
        .players_in(group)
        .filter_map(|p| p.number.map(|n| (n, p.id)))
        .collect();
    numbered.sort_unstable();
    numbered.into_iter().map(|(_, id)| id).collect()
}

/// A lot for the match at `table` of bracket round `round`: `true` with about even odds,
/// the same every time for the same seed.
fn lot(seed: u64, round: u32, table: u32, what: u64) -> bool {
    let mix = seed
        ^ (u64::from(round) << 40)
        ^ (u64::from(table) << 20)
        ^ what.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ChaCha8Rng::seed_from_u64(mix).gen_bool(0.5)
}

/// The bracket of knockout pool `group` with `seeds` (from the stored numbers, or the
/// numbers about to be given in round 1; a final stage's finalists), read from its stored
/// rounds after round `after` (0 for a knockout group, the last Swiss round for a final
/// stage).
pub fn build_with(
    event: &Event,
    rules: &Rulebook,
    group: &GroupId,
    seeds: Vec<PlayerId>,
    after: u32,
) -> Bracket {
    let k = rules.format_of(group).knockout;
    let seed = event.group(group).and_then(|g| g.seed).unwrap_or(0);
    let mut bracket = Bracket {
        seeds,
        ..Bracket::default()
    };
    let n = u32::try_from(bracket.seeds.len()).unwrap_or(u32::MAX);
    if n < 2 {
        return bracket;
    }
    let mut current = first_bracket_round(&bracket.seeds, &k, seed);
    let stored = event
        .group(group)
        .map(|g| g.rounds.clone())
        .unwrap_or_default();
    let mut stored: Vec<_> = stored.into_iter().filter(|r| r.number > after).collect();
    stored.sort_by_key(|r| r.number);
    for round in &stored {
        bracket.played_rounds = round.number;
        if current.matches.iter().all(|m| m.winner.is_some()) && current.players > 2 {
            let next = next_bracket_round(&current, &bracket.seeds, &k, seed);
            bracket.rounds.push(std::mem::replace(&mut current, next));
        }
        let mut expected: Vec<(usize, NextGame, PlayerId, PlayerId)> = current
            .matches
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let b = m.b?;
                let due = m.due?;
                let (red, black) = colours(m.a, b, m.games.len(), m.first_red);
                Some((i, due, red, black))
            })
            .collect();
        for pairing in &round.pairings {
            let Pairing::Game {
                table,
                red,
                black,
                result,
            } = pairing
            else {
                bracket.strays.push(Stray {
                    round: round.number,
                    table: 0,
                });
                continue;
            };
            // A game is its match's by its two players (each plays one match a bracket
            // round), not by its table: the hall numbers a knockout's tables on after the
            // pools before it (docs/rules.md §12), so its match 1 may sit at table 3.
            let at = expected
                .iter()
                .position(|&(_, _, r, b)| (r, b) == (*red, *black) || (b, r) == (*red, *black));
            let Some(at) = at else {
                bracket.strays.push(Stray {
                    round: round.number,
                    table: *table,
                });
                continue;
            };
            let (i, due, _, _) = expected.remove(at);
            current.matches[i].games.push(MatchGame {
                round: round.number,
                table: *table,
                kind: due,
                red: *red,
                black: *black,
                outcome: result.map(|r| r.outcome),
            });
        }
        for m in &mut current.matches {
            settle(m, &k, seed, current.number);
        }
    }
    if current.matches.iter().all(|m| m.winner.is_some()) && current.players > 2 {
        let next = next_bracket_round(&current, &bracket.seeds, &k, seed);
        bracket.rounds.push(std::mem::replace(&mut current, next));
    }
    bracket.rounds.push(current);
    bracket
}

/// The bracket of knockout pool `group` as stored: a knockout group's from its numbers, a
/// final stage's from the finalists drawn when it began (none before).
pub fn build(event: &Event, rules: &Rulebook, group: &GroupId) -> Bracket {
    match rules.stage_after(group) {
        Some(after) => {
            let seeds = if stage_started(event, rules, group) {
                event
                    .group(group)
                    .map(|g| g.stage_seeds.clone())
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            build_with(event, rules, group, seeds, after)
        }
        None => build_with(event, rules, group, seeds(event, group), 0),
    }
}

/// Whether a pool's final stage has begun: some round after its Swiss rounds is stored.
pub fn stage_started(event: &Event, rules: &Rulebook, group: &GroupId) -> bool {
    rules.stage_after(group).is_some_and(|after| {
        event
            .group(group)
            .is_some_and(|g| g.rounds.iter().any(|r| r.number > after))
    })
}

fn new_match(
    table: u32,
    a: PlayerId,
    b: Option<PlayerId>,
    kind: (Option<u32>, bool),
    k: &KnockoutRules,
    seed: u64,
    round: u32,
) -> Match {
    let first_red = match k.first_colour {
        FirstColour::Seed => true,
        FirstColour::Draw => lot(seed, round, table, 1),
    };
    let mut m = Match {
        table,
        a,
        b,
        place: kind.0,
        classify: kind.1,
        games: Vec::new(),
        winner: None,
        by_lot: false,
        due: None,
        first_red,
    };
    settle(&mut m, k, seed, round);
    m
}

fn first_bracket_round(seeds: &[PlayerId], k: &KnockoutRules, seed: u64) -> BracketRound {
    let n = u32::try_from(seeds.len()).unwrap_or(u32::MAX);
    let mut table = 0;
    let matches = first_round(n)
        .into_iter()
        .map(|(a, b)| {
            let pa = seeds[(a - 1) as usize];
            let pb = b.map(|b| seeds[(b - 1) as usize]);
            let t = if pb.is_some() {
                table += 1;
                table
            } else {
                0
            };
            new_match(t, pa, pb, (None, false), k, seed, 1)
        })
        .collect();
    BracketRound {
        number: 1,
        players: bracket_size(n),
        matches,
    }
}

fn next_bracket_round(
    prev: &BracketRound,
    seeds: &[PlayerId],
    k: &KnockoutRules,
    seed: u64,
) -> BracketRound {
    // A is the better seed of the two.
    let rank = |p: PlayerId| seeds.iter().position(|s| *s == p).unwrap_or(usize::MAX);
    let ordered = |x: PlayerId, y: PlayerId| if rank(x) <= rank(y) { (x, y) } else { (y, x) };
    let number = prev.number + 1;
    let main: Vec<&Match> = prev.matches.iter().filter(|m| m.is_main()).collect();
    let mut matches = Vec::new();
    let mut table = 0;
    for pair in main.chunks(2) {
        let (Some(x), Some(y)) = (pair[0].winner, pair.get(1).and_then(|m| m.winner)) else {
            continue;
        };
        table += 1;
        let (a, b) = ordered(x, y);
        matches.push(new_match(table, a, Some(b), (None, false), k, seed, number));
    }
    let mut add = |x: PlayerId, y: PlayerId, kind: (Option<u32>, bool)| {
        table += 1;
        let (a, b) = ordered(x, y);
        matches.push(new_match(table, a, Some(b), kind, k, seed, number));
    };
    if k.third_place && prev.players == 4 {
        let losers: Vec<PlayerId> = main.iter().filter_map(|m| m.loser()).collect();
        if let [x, y] = losers[..] {
            add(x, y, (Some(3), false));
        }
    }
    // The play-off for places 5–8 (docs/rules.md §16.4): the quarter-final losers, two
    // semi-finals then the matches for 5th and 7th (two losers: one match for 5th; three:
    // the best seed waits with a bye while the other two play, its winner meets the best
    // seed for 5th and its loser is 7th; one: 5th alone).
    let mut waits = None;
    if k.play_off_5_8 && prev.players == 8 {
        let losers: Vec<PlayerId> = main.iter().filter_map(|m| m.loser()).collect();
        match losers[..] {
            [w, x, y, z] => {
                add(w, x, (None, true));
                add(y, z, (None, true));
            }
            [_, _, _] => {
                let mut by_seed = losers.clone();
                by_seed.sort_by_key(|p| rank(*p));
                add(by_seed[1], by_seed[2], (None, true));
                waits = Some(by_seed[0]);
            }
            [x, y] => add(x, y, (Some(5), false)),
            _ => {}
        }
    }
    if k.play_off_5_8 && prev.players == 4 {
        let semis: Vec<&Match> = prev.matches.iter().filter(|m| m.classify).collect();
        let winners: Vec<PlayerId> = semis.iter().filter_map(|m| m.winner).collect();
        let losers: Vec<PlayerId> = semis.iter().filter_map(|m| m.loser()).collect();
        match (&winners[..], &losers[..]) {
            ([a, b], [c, d]) => {
                add(*a, *b, (Some(5), false));
                add(*c, *d, (Some(7), false));
            }
            // Three quarter-final losers: the seed that waited meets the 5–8 semi-final's
            // winner (the bye's match holds it); the loser is 7th alone.
            ([a, b], [_]) => add(*a, *b, (Some(5), false)),
            _ => {}
        }
    }
    if let Some(x) = waits {
        matches.push(new_match(0, x, None, (None, true), k, seed, number));
    }
    BracketRound {
        number,
        players: prev.players / 2,
        matches,
    }
}

/// Decides a match from its games: the game due, the winner, or a lot.
fn settle(m: &mut Match, k: &KnockoutRules, seed: u64, round: u32) {
    let Some(b) = m.b else {
        m.winner = Some(m.a);
        m.due = None;
        return;
    };
    if m.waiting() {
        m.due = None;
        return;
    }
    let scores: Vec<GameScore> = m
        .games
        .iter()
        .filter_map(|g| {
            let outcome = g.outcome?;
            // 和棋判黑胜: a deciding game's draw is black's win.
            let outcome = match (g.kind, outcome) {
                (
                    NextGame::Tiebreak {
                        kind: TiebreakStage::Armageddon,
                        ..
                    },
                    Outcome::Draw,
                ) => Outcome::BlackWin,
                (_, o) => o,
            };
            let a_colour = if g.red == m.a {
                Colour::Red
            } else {
                Colour::Black
            };
            Some(match (outcome.winner(), outcome) {
                (Some(c), _) if c == a_colour => GameScore::AWins,
                (Some(_), _) => GameScore::BWins,
                (None, Outcome::DoubleForfeit) => GameScore::Neither,
                (None, _) => GameScore::Draw,
            })
        })
        .collect();
    match match_state(k.games, &k.tiebreak, &scores) {
        Ok(MatchState::Due(next)) => {
            m.due = Some(next);
            m.winner = None;
        }
        Ok(MatchState::Won { a, .. }) => {
            m.due = None;
            m.winner = Some(if a { m.a } else { b });
        }
        Ok(MatchState::Lot) | Err(_) => {
            m.due = None;
            m.by_lot = true;
            m.winner = Some(if lot(seed, round, m.table, 2) { m.a } else { b });
        }
    }
}

/// Each player's place in a knockout pool: the champion 1, the final's loser 2, the
/// third-place match 3 and 4 (without it the semi-final losers share 3), the matches of a
/// 5–8 play-off 5 to 8, the losers of an earlier bracket round share the places below
/// those still in; a player still in shares
/// the best place they can no longer beat. `(player, place, shared)` best first.
pub fn places(bracket: &Bracket) -> Vec<(PlayerId, u32, bool)> {
    let mut out: Vec<(PlayerId, u32)> = Vec::new();
    // Rounds from the last backwards: who left where.
    for round in bracket.rounds.iter().rev() {
        for m in &round.matches {
            match (m.winner, m.loser(), m.place) {
                (Some(w), Some(l), None) if round.players == 2 && m.is_main() => {
                    out.push((w, 1));
                    out.push((l, 2));
                }
                (Some(w), Some(l), Some(p)) => {
                    out.push((w, p));
                    out.push((l, p + 1));
                }
                _ => {}
            }
        }
        // A 5–8 semi-final decided before its place matches are: its loser can be 7th at
        // best, its winner 5th (and the loser of three quarter-final losers' semi-final
        // plays no more: 7th alone).
        for m in round.matches.iter().filter(|m| m.classify) {
            if let (Some(w), Some(l)) = (m.winner, m.loser()) {
                for (p, place) in [(w, 5), (l, 7)] {
                    if !out.iter().any(|(q, _)| *q == p) {
                        out.push((p, place));
                    }
                }
            }
        }
        // Everyone of the round not placed yet: still in (open match) shares the round's
        // best open place; a loser shares the places below the round's survivors.
        let survivors = round.players / 2;
        for m in round.matches.iter().filter(|m| m.is_main()) {
            for p in std::iter::once(m.a).chain(m.b) {
                if out.iter().any(|(q, _)| *q == p) {
                    continue;
                }
                let place = match m.winner {
                    Some(w) if w == p => 1,
                    Some(_) => survivors + 1,
                    None => 1,
                };
                out.push((p, place));
            }
        }
    }
    out.sort_by_key(|&(p, place)| (place, bracket.seeds.iter().position(|s| *s == p)));
    let count = |place: u32| out.iter().filter(|(_, q)| *q == place).count();
    out.iter()
        .map(|&(p, place)| (p, place, count(place) > 1))
        .collect()
}

/// The rounds a knockout pool plays: those stored once the bracket is finished, else at
/// least one more than stored and at least one game per remaining bracket round.
pub fn rounds_estimate(event: &Event, rules: &Rulebook, group: &GroupId) -> u32 {
    let bracket = build(event, rules, group);
    let after = rules.stage_after(group).unwrap_or(0);
    let stored = event.group(group).map_or(0, |g| {
        g.rounds.iter().filter(|r| r.number > after).count() as u32
    });
    if bracket.finished() && stored > 0 {
        return after + stored;
    }
    let k = rules.format_of(group).knockout.games.max(1);
    let finalists = rules.final_stage(group).map(|f| f.finalists);
    let n = match (bracket.seeds.is_empty(), finalists) {
        (false, _) => u32::try_from(bracket.seeds.len()).unwrap_or(0),
        (true, Some(f)) => f,
        (true, None) => {
            u32::try_from(event.players_in(group).filter(|p| p.pairable_in(1)).count()).unwrap_or(0)
        }
    };
    let total = bracket_size(n).trailing_zeros();
    let done = bracket.rounds.len().saturating_sub(1) as u32;
    after
        + (stored + 1)
            .max(stored + total.saturating_sub(done) * k)
            .max(total * k)
}
