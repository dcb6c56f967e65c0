//! Rounds ≥ 2: one optimisation over the whole pool (docs/rules.md §2.3, §3, §4).
//!
//! Owns choosing who plays whom. Hard constraints (no rematch, colour limits, team
//! avoidance, one bye per player while anyone else can take it) are missing edges; the
//! soft criteria are integer weights of a maximum-weight matching, in strict priority:
//! (a) the bye to the lowest-scored eligible player, (b) from the top score group down
//! the fewest players crossing each score-group boundary, then the smallest squared score
//! differences (同分者编对，近分者编对), (c) the most players receiving the colour they are
//! due, (d) the fewest players floating the way they floated in the previous round, (e) the
//! rulebook's within-group order. The bye is a virtual vertex joined to the
//! eligible players of the first feasible tier of `pairing.bye` (see [`bye_tiers`]).
//!
//! The whole field is one minimum-cost perfect matching (everyone paired, the bye a
//! virtual vertex), solved exactly at every size: see [`solve::priced`]. The criteria are
//! packed into one integer without merging any level: `i128` when they fit, else the
//! narrowest of 192, 256, 384 and 512 bits that holds them ([`crate::pairing::wide`]; the solver's
//! time grows with the width: at 10,000 players, round 5 took 1.24 s CPU in 256 bits and
//! 0.99 s in 192, each from the bench binary's `--child 10000 5` run that `cargo bench
//! --bench pairing -- 10000 --rounds 5-5` starts). A large field's score groups are
//! first solved alone ([`pieces::piecewise_start`]); in a strict round only the colour,
//! float and order levels differ there, so those solves run in 64 or 128 bits whatever
//! the whole field needs.
//!
//! This file owns the entry points (which bye tier, strict or relaxed, which weight
//! width) and who blocks a field that cannot be paired. The rest, one concern a file:
//!
//! - [`field`]: the pool in pairing order and each pair's cost terms and legality;
//! - [`encode`]: packing the criteria into one integer weight, level by level;
//! - [`candidates`]: the sparse pairs the first solve starts from;
//! - [`solve`]: the whole-field solve and its column-generation loop;
//! - [`price`]: one pricing pass, finding the left-out pairs that could improve it;
//! - [`select`]: which of the pairs a pass finds enter the solve;
//! - [`index`]: the blossom family and block trees pricing searches;
//! - [`pieces`]: large fields' score groups solved alone, to start the whole solve;
//! - [`cuts`]: where a large score group is cut into pieces;
//! - [`mod@criteria`]: a given pairing's cost, criterion by criterion (`check --optimal`).
//!
//! Pure, like the rest of `pairing`: no files, clock, global RNG or printing. Nothing
//! here may change which pairing is optimal, only how fast it is found: every solve ends
//! at an optimum certified by its duals over every legal pair (docs/rules.md §2.6).

mod candidates;
mod criteria;
mod cuts;
mod encode;
mod field;
mod index;
mod pieces;
mod price;
mod select;
mod solve;

pub use criteria::{Criteria, Criterion, criteria};
pub use field::Field;

use super::context::PlayerState;
use super::feasible::{left_over, max_matching};
use super::wide::{I192, I256, I384, I512};
use crate::model::Relax;
use crate::rulebook::ByeChoice;
use encode::field_encoder;
use solve::priced;
use std::collections::BTreeMap;

/// Which matching strategy to run (tests compare them; `Priced` is what `pair` uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Solver {
    /// Sparse candidate pairs, priced out with the duals until optimal (see [`solve::priced`]).
    #[default]
    Priced,
    /// One matching over every legal pair (the reference the tests compare with).
    Dense,
}

/// The pairs and the bye chosen for a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matched {
    /// The tables, as indices into the field's players.
    pub pairs: Vec<(usize, usize)>,
    /// The player given the bye, if the field is odd.
    pub bye: Option<usize>,
    /// Players who could have taken the bye (criterion (a)'s eligible set).
    pub bye_candidates: Vec<usize>,
    /// The rules broken to pair the round (`pairing.relax`); empty when every hard rule
    /// holds.
    pub relaxed: Vec<Relax>,
}

/// Why no legal pairing exists, as indices into the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stuck {
    /// The players some maximum matching leaves over (not only those one matching does:
    /// three players who can only meet the same two opponents are all named).
    pub unmatched: Vec<usize>,
    /// The criteria need more than 480 bits (see [`crate::pairing::wide`]); nobody is blocked.
    pub too_wide: bool,
}

/// Whether the field can all be paired (with the bye sink open to `bye` when non-empty).
pub(crate) fn feasible(field: &Field, bye: &[usize]) -> bool {
    perfect_pairing(field, bye).is_ok()
}

/// Tiers of bye candidates in criterion (a) order, by `pairing.bye` (docs/rules.md §4.2).
/// `lowest_score_never_byed` (S15 mode 0, 未曾轮空过的最低分): fewest byes so far, then the
/// lowest score, so a second bye goes out only while nobody with fewer byes can take it.
/// `lowest_score_fewest_byes` (S15 mode 1, 最低分中轮空最少的): the lowest score, then the
/// fewest byes, so a low-scored player may take a second bye before a higher-scored player
/// takes a first. The first tier that still leaves a legal pairing for everyone else wins.
fn bye_tiers(field: &Field) -> Vec<Vec<usize>> {
    let key = bye_key(field.rules.rules.pairing.bye);
    let mut keys: Vec<(i64, i64)> = field.players.iter().map(key).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|k| {
            (0..field.players.len())
                .filter(|&i| key(&field.players[i]) == k)
                .collect()
        })
        .collect()
}

/// The bye tier key of a player under `choice`, lower first.
fn bye_key(choice: ByeChoice) -> fn(&PlayerState) -> (i64, i64) {
    match choice {
        ByeChoice::LowestScoreNeverByed => |p| (i64::from(p.byes), i64::from(p.score.0)),
        ByeChoice::LowestScoreFewestByes => |p| (i64::from(p.score.0), i64::from(p.byes)),
    }
}

/// Pairs the field; `Err` carries who is left over when no legal pairing exists.
///
/// Only when no pairing meets every hard rule, and the rulebook's `pairing.relax` names
/// rules to relax, the field is paired again with those rules' breaks as the highest
/// levels of the cost: the fewest breaks of the last-listed rule, then of the one before,
/// …, then every criterion as usual (docs/rules.md §2.5). The bye keeps its rule: the
/// first tier that allows a pairing under the relaxed rules. When even that fails, the
/// strict blockers are reported.
pub fn pair_field(field: &Field, solver: Solver) -> Result<Matched, Stuck> {
    let too_wide = || Stuck {
        unmatched: Vec::new(),
        too_wide: true,
    };
    match pair_exact(field, solver) {
        Ok(m) => return Ok(m),
        Err(Refused::TooWide) => return Err(too_wide()),
        Err(Refused::NoPairing) => {}
    }
    if field.relax.is_empty() && !field.rules.rules.pairing.relax.is_empty() {
        match pair_exact(&field.relaxed(), solver) {
            Ok(m) => return Ok(m),
            Err(Refused::TooWide) => return Err(too_wide()),
            Err(Refused::NoPairing) => {}
        }
    }
    // Who is left over is worked out only now: a relaxed solve that succeeds never
    // needs it, and in a field where most pairs are barred it is a search of its own.
    Err(stuck(field))
}

/// Whether one unit has more players than the rest of the field (and the bye seat of an
/// odd field) can pair them with, in a round that keeps team-mates apart (docs/rules.md
/// §4.1): then no legal pairing exists, and the search for one, which tests nearly every
/// pair of team-mates before it gives up, is skipped (at 10,000 players of one unit it
/// was half the round).
fn team_outnumbers(field: &Field) -> bool {
    if field.relax.contains(&Relax::Team) || !field.rules.team_avoidance_on() {
        return false;
    }
    let n = field.players.len();
    unit_sizes(field).values().any(|&k| k > n - k + n % 2)
}

/// Players per unit (个人 players, who have none, are left out).
fn unit_sizes<'f>(field: &'f Field) -> BTreeMap<&'f str, usize> {
    let mut count = BTreeMap::new();
    for t in field.players.iter().filter_map(|p| p.team.as_deref()) {
        *count.entry(t).or_default() += 1;
    }
    count
}

/// Why [`pair_exact`] did not pair the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refused {
    /// No legal pairing under the field's rules (with the bye open to some tier).
    NoPairing,
    /// The criteria need more than 480 bits.
    TooWide,
}

/// [`pair_field`] under the field's own rules (strict, or its `relax` list).
/// The players the bye may go to (empty for an even field) and a legal perfect pairing
/// with the bye sink open to them: it proves the round can be paired and seeds the
/// sparse solve (see [`solve::priced`]). The first tier of `pairing.bye` that allows one is used.
fn bye_and_hint(field: &Field) -> Result<(Vec<usize>, Vec<usize>), Refused> {
    if team_outnumbers(field) {
        return Err(Refused::NoPairing);
    }
    if field.players.len().is_multiple_of(2) {
        let mate = perfect_pairing(field, &[]).map_err(|_| Refused::NoPairing)?;
        return Ok((Vec::new(), mate));
    }
    for tier in bye_tiers(field) {
        match perfect_pairing(field, &tier) {
            Ok(mate) => return Ok((tier, mate)),
            // A maximum matching with the sink that leaves 4 or more over: without the
            // sink at least 3 players are left over, more than any bye can take, so no
            // other tier can help either.
            Err(left) if left >= 4 => break,
            Err(_) => {}
        }
    }
    Err(Refused::NoPairing)
}

fn pair_exact(field: &Field, solver: Solver) -> Result<Matched, Refused> {
    let n = field.players.len();
    let (bye_candidates, hint) = bye_and_hint(field)?;
    let all_edges = solver == Solver::Dense;
    let solved = if let Some(enc) = field_encoder::<i128>(field) {
        priced(field, &bye_candidates, &hint, all_edges, &enc)
    } else if let Some(enc) = field_encoder::<I192>(field) {
        priced(field, &bye_candidates, &hint, all_edges, &enc)
    } else if let Some(enc) = field_encoder::<I256>(field) {
        priced(field, &bye_candidates, &hint, all_edges, &enc)
    } else if let Some(enc) = field_encoder::<I384>(field) {
        priced(field, &bye_candidates, &hint, all_edges, &enc)
    } else if let Some(enc) = field_encoder::<I512>(field) {
        priced(field, &bye_candidates, &hint, all_edges, &enc)
    } else {
        return Err(Refused::TooWide);
    };
    debug_assert_eq!(
        n % 2 == 1,
        solved.bye.is_some(),
        "a perfect matching with the sink"
    );
    Ok(Matched {
        pairs: solved.pairs,
        bye: solved.bye,
        bye_candidates,
        relaxed: field.relax.clone(),
    })
}

/// A legal perfect pairing of the field as `mate[v]`, with the bye sink `n` open to the
/// players of `bye` when it is not empty; when no such pairing exists, how many
/// players (and the sink) a maximum matching leaves over.
fn perfect_pairing(field: &Field, bye: &[usize]) -> Result<Vec<usize>, usize> {
    let n = field.players.len();
    let total = n + usize::from(!bye.is_empty());
    if !total.is_multiple_of(2) {
        return Err(1);
    }
    let mut may_bye = vec![false; n];
    for &b in bye {
        may_bye[b] = true;
    }
    let adj = |a: usize, b: usize| {
        if a == n || b == n {
            return may_bye[a.min(b)];
        }
        field.legal(a, b)
    };
    let mate = max_matching(total, &adj);
    match mate.iter().filter(|&&m| m == usize::MAX).count() {
        0 => Ok(mate),
        left => Err(left),
    }
}

/// Who blocks a pairing of the field: every player some maximum matching leaves over.
fn stuck(field: &Field) -> Stuck {
    Stuck {
        unmatched: left_over(field.players.len(), &|a, b| field.legal(a, b)),
        too_wide: false,
    }
}

/// The field of round `next` of a simulated event (numbers drawn with `seed`), for the
/// tests of every part of the engine.
#[cfg(test)]
fn next_field(sim: &crate::pairing::simulate::SimulatedEvent, next: u32, seed: u64) -> Field<'_> {
    let (event, rules, group) = (&sim.event, &sim.rules, &sim.group);
    let numbers = super::assign_numbers(event, rules, group, next, seed).expect("numbers");
    let history = super::History::build(event, rules, group, next, &numbers);
    let pairable: Vec<_> = event
        .players_in(group)
        .filter(|p| p.pairable_in(next))
        .collect();
    let (states, ctx) = super::pairing_input(&pairable, rules, group, next, &history);
    Field::new(ctx, states)
}
