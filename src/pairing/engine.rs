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
//! virtual vertex), solved exactly at every size: see [`priced`]. The criteria are packed
//! into one integer without merging any level: `i128` when they fit, else the narrowest
//! of 192, 256, 384 and 512 bits that holds them ([`super::wide`]; the solver's time
//! grows with the width: at 10,000 players, round 5 took 1.24 s CPU in 256 bits and
//! 0.99 s in 192, each from the bench binary's `--child 10000 5` run that `cargo bench
//! --bench pairing -- 10000 --rounds 5-5` starts). A large field's score groups are
//! first solved alone ([`piecewise_start`]); in a strict round only the colour, float
//! and order levels differ there, so those solves run in 64 or 128 bits whatever the
//! whole field needs.

use super::blossom::{Parts, PerfectMatcher, Snapshot};
use super::context::{ColourFacts, Float, PlayerState, Rules};
use super::feasible::{left_over, max_matching};
use super::wide::{I192, I256, I384, I512, Weight, narrow, widen};
use crate::model::{Colour, Points, Relax};
use crate::rulebook::{ByeChoice, WithinGroup};
use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

/// Which matching strategy to run (tests compare them; `Priced` is what `pair` uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Solver {
    /// Sparse candidate pairs, priced out with the duals until optimal (see [`priced`]).
    #[default]
    Priced,
    /// One matching over every legal pair (the reference the tests compare with).
    Dense,
}

/// The pool, ready to pair: pairable players in pairing order and their score groups.
pub struct Field<'a> {
    /// The rulebook's pairing rules and the round being paired.
    pub rules: Rules<'a>,
    /// The pairable players, in pairing order (score ↓, then the within-group key).
    pub players: Vec<PlayerState>,
    /// Score group of each player, 0 = top.
    pub group: Vec<usize>,
    /// Distinct scores, highest first.
    pub scores: Vec<Points>,
    /// Index of each player within its score group.
    in_group: Vec<usize>,
    /// Players per score group.
    pub group_size: Vec<usize>,
    /// Each player's colour facts this round, in the same order.
    facts: Vec<ColourFacts>,
    /// The hard rules this solve may break, in `pairing.relax` order (docs/rules.md §2.5);
    /// empty (the strict solve) unless no pairing meets them all.
    pub relax: Vec<Relax>,
}

impl<'a> Field<'a> {
    /// Sorts the players into pairing order (docs/rules.md §2.3: score ↓, then the rulebook's
    /// within-group key, then 序号).
    pub fn new(rules: Rules<'a>, mut players: Vec<PlayerState>) -> Field<'a> {
        let odd_round = rules.round % 2 == 1;
        let rows = rules.rules.pairing.within_group == WithinGroup::AdjacentColourRows;
        players.sort_by(|a, b| {
            b.score.cmp(&a.score).then_with(|| {
                if rows {
                    // S15 fenzupaixu: larger |imbalance| first, then 序号 ascending in odd
                    // rounds and descending in even rounds.
                    let k = b.colour_diff().abs().cmp(&a.colour_diff().abs());
                    let num = (a.number, a.id).cmp(&(b.number, b.id));
                    k.then(if odd_round { num } else { num.reverse() })
                } else {
                    (a.number, a.id).cmp(&(b.number, b.id))
                }
            })
        });
        let mut scores: Vec<Points> = players.iter().map(|p| p.score).collect();
        scores.dedup();
        let group: Vec<usize> = players
            .iter()
            .map(|p| scores.iter().position(|s| *s == p.score).unwrap_or(0))
            .collect();
        let mut group_size = vec![0; scores.len()];
        let mut in_group = Vec::with_capacity(players.len());
        for &g in &group {
            in_group.push(group_size[g]);
            group_size[g] += 1;
        }
        let facts = players.iter().map(|p| rules.facts(p)).collect();
        Field {
            rules,
            players,
            group,
            scores,
            in_group,
            group_size,
            facts,
            relax: Vec::new(),
        }
    }

    /// The same field with the rulebook's `pairing.relax` rules allowed to be broken.
    fn relaxed(&self) -> Field<'a> {
        self.with_relax(self.rules.rules.pairing.relax.clone())
    }

    /// The same field with the rules in `relax` allowed to be broken, weighed in that
    /// order (docs/rules.md §2.5).
    pub fn with_relax(&self, relax: Vec<Relax>) -> Field<'a> {
        Field {
            rules: self.rules,
            players: self.players.clone(),
            group: self.group.clone(),
            scores: self.scores.clone(),
            in_group: self.in_group.clone(),
            group_size: self.group_size.clone(),
            facts: self.facts.clone(),
            relax,
        }
    }

    /// Whether players `i` and `j` may meet: no rematch, colour limits and team avoidance
    /// hold, except for the rules this field relaxes.
    pub fn legal(&self, i: usize, j: usize) -> bool {
        self.rules.legal_of(self.seat(i), self.seat(j), &self.relax)
    }

    /// Player `i` with its colour facts, as the pair rules take them.
    fn seat(&self, i: usize) -> (&PlayerState, &ColourFacts) {
        (&self.players[i], &self.facts[i])
    }

    /// Whether the within-group order is fold order (`fold_top_bottom`, docs/rules.md
    /// §2.3): the top half of a score group meets its bottom half, 1 against h+1.
    fn fold(&self) -> bool {
        self.rules.rules.pairing.within_group == WithinGroup::FoldTopBottom
    }

    /// Criterion (e): how far the pair is from the rulebook's within-group order.
    fn order_cost(&self, i: usize, j: usize) -> i128 {
        let (a, b) = (i.min(j), i.max(j));
        if self.fold() && self.group[a] == self.group[b] {
            // FIDE-like: the top half meets the bottom half, 1 against h+1.
            let h = (self.group_size[self.group[a]] / 2) as i128;
            let d = (self.in_group[b] - self.in_group[a]) as i128;
            return (d - h) * (d - h);
        }
        (b - a) as i128
    }

    /// Criterion (d'): players floating the way they floated in the previous round, 0–2.
    /// The higher score of a pair floats down and the lower one up; equal scores float
    /// nobody. Never negative, so pricing's lower bounds (which leave it at 0) stay valid.
    fn repeat_floats(&self, i: usize, j: usize) -> i128 {
        let (a, b) = (&self.players[i], &self.players[j]);
        let (hi, lo) = match a.score.cmp(&b.score) {
            std::cmp::Ordering::Equal => return 0,
            std::cmp::Ordering::Greater => (a, b),
            std::cmp::Ordering::Less => (b, a),
        };
        i128::from(hi.last_float == Some(Float::Down))
            + i128::from(lo.last_float == Some(Float::Up))
    }

    fn pair_terms(&self, i: usize, j: usize) -> Terms {
        let (gi, gj) = (self.group[i], self.group[j]);
        let d = i128::from((self.players[i].score - self.players[j].score).0);
        Terms {
            top: gi.min(gj),
            bottom: gi.max(gj),
            sq: d * d,
            misses: i128::from(self.rules.colour_misses_of(self.seat(i), self.seat(j))),
            floats: self.repeat_floats(i, j),
            order: self.order_cost(i, j),
            broken: self.broken(i, j),
        }
    }

    /// How often the pair breaks each relaxed rule, in `relax` order (all zero when strict).
    fn broken(&self, i: usize, j: usize) -> [i128; RELAX_LEVELS] {
        let mut out = [0; RELAX_LEVELS];
        for (k, &rule) in self.relax.iter().enumerate() {
            out[k] = i128::from(self.rules.breaks_of(self.seat(i), self.seat(j), rule));
        }
        out
    }
}

/// The cost parts of one pair (or of a player and a sink).
#[derive(Debug, Clone, Copy)]
struct Terms {
    /// Boundaries `top..bottom` are crossed (boundary g lies below score group g).
    top: usize,
    bottom: usize,
    sq: i128,
    misses: i128,
    /// Repeated floats (docs/rules.md §2.3 criterion 5), between colours and order.
    floats: i128,
    order: i128,
    /// Relaxed-rule breaks in `pairing.relax` order, above every other level, the last
    /// rule highest (docs/rules.md §2.5).
    broken: [i128; RELAX_LEVELS],
}

/// At most this many rules can be relaxed (colour limits, team avoidance, rematch).
const RELAX_LEVELS: usize = 3;

/// Packs the criteria into one integer: every level's unit exceeds the largest total the
/// levels below it can reach in one round, so comparing packed sums is comparing the
/// criteria lexicographically. Levels are never merged: [`Encoder::exact`] returns
/// `None` when they do not fit in `W`.
struct Encoder<W: Weight> {
    /// One unit per relaxed rule, in `pairing.relax` order; empty for a strict solve.
    unit_broken: Vec<W>,
    unit_boundary: Vec<W>,
    unit_sq: W,
    unit_miss: W,
    unit_float: W,
    /// Made by [`Encoder::in_group`]: only for pairs inside one score group.
    in_group_only: bool,
}

impl<W: Weight> Encoder<W> {
    /// `bound` holds the largest `sq`, `misses`, `floats` and `order` of any single term; `items`
    /// bounds how many terms one solution sums (pairs plus the bye); `caps[k]` bounds how
    /// many of them cross boundary `k`; `broken_caps[k]` bounds the total breaks of the
    /// k-th relaxed rule, whose level sits above every boundary.
    fn exact(
        bound: &Terms,
        caps: &[i128],
        broken_caps: &[i128],
        items: usize,
    ) -> Option<Encoder<W>> {
        let p = items as u64 + 1;
        let small = |x: i128| u64::try_from(x.max(0)).ok();
        let unit_float =
            W::from_i128(1).mul_small(p.checked_mul(small(bound.order)?)?.checked_add(1)?)?;
        let unit_miss =
            unit_float.mul_small(p.checked_mul(small(bound.floats)?)?.checked_add(1)?)?;
        let unit_sq = unit_miss.mul_small(p.checked_mul(small(bound.misses)?)?.checked_add(1)?)?;
        let base = unit_sq.mul_small(p.checked_mul(small(bound.sq)?)?.checked_add(1)?)?;
        let mut unit_boundary = vec![W::ZERO; caps.len()];
        let mut unit = base;
        for k in (0..caps.len()).rev() {
            unit_boundary[k] = unit;
            unit = unit.mul_small(small(caps[k])?.checked_add(1)?)?;
        }
        // The relaxed rules sit above every other level, the first relaxed the lowest.
        let mut unit_broken = Vec::with_capacity(broken_caps.len());
        for &cap in broken_caps {
            unit_broken.push(unit);
            unit = unit.mul_small(small(cap)?.checked_add(1)?)?;
        }
        // `unit` now exceeds any solution's total cost; it must fit too.
        Some(Encoder {
            unit_broken,
            unit_boundary,
            unit_sq,
            unit_miss,
            unit_float,
            in_group_only: false,
        })
    }

    /// The same costs in `V` for pairs inside one score group, in a strict solve: such a
    /// pair crosses no boundary, has no score difference and breaks no rule, so its
    /// cost is made of the colour, float and order levels alone and is the same number
    /// in `V` as here. At most 2 misses, 2 floats and an order below `unit_float` (see
    /// [`Encoder::exact`]), and `unit_miss` is at least 3 `unit_float`: every such cost
    /// is below 3 `unit_miss`. `None` when relaxed rules are weighed, or when that
    /// needs more bits than `V` holds for the solver.
    fn in_group<V: Weight>(&self) -> Option<Encoder<V>> {
        let most = self.unit_miss.mul_small(3)?;
        if !self.unit_broken.is_empty() || most.bits() > V::WEIGHT_BITS {
            return None;
        }
        Some(Encoder {
            unit_broken: Vec::new(),
            unit_boundary: Vec::new(),
            unit_sq: V::ZERO,
            unit_miss: narrow(self.unit_miss)?,
            unit_float: narrow(self.unit_float)?,
            in_group_only: true,
        })
    }

    fn cost(&self, t: &Terms) -> W {
        debug_assert!(
            !self.in_group_only
                || (t.top == t.bottom && t.sq == 0 && t.broken == [0; RELAX_LEVELS]),
            "an in-group encoder weighs only pairs inside one score group"
        );
        let m = |w: W, k: i128| w.mul_small(k as u64).expect("bounded by the encoder");
        let mut c = m(self.unit_sq, t.sq)
            + m(self.unit_miss, t.misses)
            + m(self.unit_float, t.floats)
            + W::from_i128(t.order);
        for b in t.top..t.bottom {
            c = c + self.unit_boundary[b];
        }
        for (unit, &k) in self.unit_broken.iter().zip(&t.broken) {
            c = c + m(*unit, k);
        }
        c
    }
}

/// What the whole-field matching produced.
#[derive(Debug, Default)]
struct Solved {
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
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
    /// The criteria need more than 480 bits (see [`super::wide`]); nobody is blocked.
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
/// sparse solve (see [`priced`]). The first tier of `pairing.bye` that allows one is used.
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

/// Candidate pairs per player in the first sparse solve: this many legal players after it
/// in pairing order, and this many around its place in each due-colour row.
const NEAR: usize = 6;

/// Candidate pairs per player, as [`NEAR`], that the whole field's solve of a large field
/// starts with, added once its score groups are solved ([`piecewise_start`], which
/// keeps to [`NEAR`]: in the bench binary's `--child 100000 9` the groups' solves took
/// 21.9 s with the wider window against 16.3 s). Measured with temporary
/// instrumentation in `--child 100000 3`: with only the groups' pairs, the whole-field
/// solve's pricing found 10,722, 6,904 and 168 improving pairs in three passes and the
/// solve and pricing after the join took 8.6–10.8 s; with these 910,088 pairs added
/// first, 16 and then none, 1.7–2.4 s (listing them took 0.4–0.6 s, adding them 0.13 s).
const JOINED_NEAR: usize = 10;

/// The whole field as one maximum-weight matching, exact at every size.
///
/// Every legal pair is a potential edge, but the blossom solver only sees a sparse
/// candidate set (neighbours in pairing order and in the due-colour rows). After each
/// solve the matching's dual variables *price* every legal pair left out: a pair whose
/// reduced cost `y[i] + y[j] + 2·Σz − 2w` is negative could improve the matching, so it
/// is added and the problem solved again. When no left-out pair has a negative reduced
/// cost, the duals are feasible for the complete graph and satisfy complementary
/// slackness with the matching, so by LP duality the matching is optimal over every
/// legal pair — the same optimum as one dense solve, proven per round rather than hoped
/// for. Pricing lists pairs by a lower bound on their reduced cost (score groups,
/// due-colour rows, distance in pairing order and the blossoms both players share; see
/// [`price`]), so it touches only pairs that could possibly price in. `all_edges` gives
/// the blossom solver every legal pair at once (the dense reference). In debug builds
/// (every test) the certificate is also checked over every legal pair.
fn priced<W: Weight>(
    field: &Field,
    bye: &[usize],
    hint: &[usize],
    all_edges: bool,
    enc: &Encoder<W>,
) -> Solved {
    let n = field.players.len();
    let with_sink = !bye.is_empty();
    let total = n + usize::from(with_sink);
    // Everyone is paired (and the bye sink taken when the field is odd): a perfect
    // matching of minimum cost, so a pair weighs minus its cost.
    let mut seen = PairSet::default();
    let mut edges: Vec<(usize, usize, W)> = Vec::new();
    let weight = |i: usize, j: usize| -enc.cost(&field.pair_terms(i, j));
    let push = |i: usize, j: usize, edges: &mut Vec<(usize, usize, W)>, seen: &mut PairSet| {
        if i != j && seen.insert(i, j) && field.legal(i, j) {
            edges.push((i.min(j), i.max(j), weight(i, j)));
        }
    };
    if all_edges {
        for i in 0..n {
            for j in i + 1..n {
                push(i, j, &mut edges, &mut seen);
            }
        }
    } else {
        initial_candidates(field, NEAR, &mut |i, j| push(i, j, &mut edges, &mut seen));
        // A legal perfect pairing among the candidates guarantees the sparse solve pairs
        // everyone.
        for (i, &j) in hint.iter().enumerate() {
            if j < n && i < j {
                push(i, j, &mut edges, &mut seen);
            }
        }
    }
    if with_sink {
        let last_pos = n as i128;
        for &i in bye {
            let g = field.group[i];
            let order = last_pos - i as i128;
            // The bye counts as a down-float (docs/rules.md §2.3 criterion 5).
            let floats = i128::from(field.players[i].last_float == Some(Float::Down));
            let t = Terms {
                top: g,
                bottom: g,
                sq: 0,
                misses: 0,
                floats,
                order,
                broken: [0; RELAX_LEVELS],
            };
            edges.push((i, n, -enc.cost(&t)));
        }
    }
    let mut solver = if !all_edges && n > PIECEWISE_FROM {
        let (groups, added) = piecewise_start(field, enc, &edges);
        for &(u, v, w) in &added {
            seen.insert(u, v);
            edges.push((u, v, w));
        }
        // Should one scale for every group need more bits than `W` has: start cold
        // (slower, the same optimum).
        let mut joined = PerfectMatcher::join(total, &edges, groups)
            .unwrap_or_else(|| PerfectMatcher::cold(total, &edges));
        // The whole field's solve also sees the pairs of a wider window ([`JOINED_NEAR`]).
        let first = edges.len();
        initial_candidates(field, JOINED_NEAR, &mut |i, j| {
            push(i, j, &mut edges, &mut seen);
        });
        if !joined.add_edges(&edges[first..]) {
            joined = PerfectMatcher::cold(total, &edges);
        }
        joined
    } else {
        PerfectMatcher::cold(total, &edges)
    };
    let opt = if all_edges {
        let opt = solver
            .solve()
            .expect("the legal pairs hold a perfect pairing");
        debug_assert_eq!(opt.certify(&edges), Ok(()), "optimality certificate");
        opt
    } else {
        let opt = price_to_optimum(field, enc, &mut solver, total, &mut edges, &mut seen);
        assert!(opt.perfect(), "the candidate pairs hold a perfect pairing");
        opt
    };
    // Where the tests run, check the proof over every legal pair rather than trust the
    // bounds `price` skips pairs by (docs/rules.md §2.6).
    #[cfg(debug_assertions)]
    if !all_edges {
        let mut every = edges.clone();
        for i in 0..n {
            for j in i + 1..n {
                if !seen.contains(i, j) && field.legal(i, j) {
                    every.push((i, j, weight(i, j)));
                }
            }
        }
        debug_assert_eq!(
            opt.certify(&every),
            Ok(()),
            "certificate over every legal pair"
        );
    }
    let mut out = Solved::default();
    for a in 0..n {
        match opt.mate[a] {
            Some(b) if b < n => {
                if a < b {
                    out.pairs.push((a, b));
                }
            }
            Some(_) => out.bye = Some(a),
            None => unreachable!("the matching is perfect"),
        }
    }
    out
}

/// Players per piece of a score group in [`piecewise_start`] (measured at 10,000 players:
/// pieces of 250 or 1,000 leave more to settle across their borders than whole score
/// groups do; with pieces priced, the bench binary's `--child 100000 R` took 48.0/47.0 s
/// for rounds 3/9 with pieces of 2,000, 39–45/44–50 s with 4,000, 44.8/66.6 s with 8,000).
const PIECE: usize = 4000;

/// Fields above this size start the first solve from [`piecewise_start`].
const PIECEWISE_FROM: usize = 400;

#[cfg(test)]
thread_local! {
    /// Tests cut score groups into pieces of this many players instead of [`PIECE`], so
    /// fields small enough for the dense reference go through the pieces.
    static PIECE_LEN: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Players per piece of a score group (see [`solve_stretch`]).
fn piece_len() -> usize {
    #[cfg(test)]
    if let Some(len) = PIECE_LEN.with(std::cell::Cell::get) {
        return len;
    }
    PIECE
}

/// A starting point for the first whole-field solve of a large field: each score group is
/// solved alone to its own optimum ([`solve_stretch`]: its candidate pairs, then priced
/// against every legal pair inside it), and the groups' optima, put side by side, start
/// the whole-field solve, which then only has to settle what the groups could not
/// decide alone (the floaters between them and what they change). A group of more than
/// [`PIECE`] players is cut into pieces of about that many ([`piece_cuts`]), each solved
/// so, and the pieces' optima side by side start the group's solve. Pieces and groups
/// are jobs for two threads ([`crate::threads::pool`], see [`PARALLEL_FROM`]): whichever
/// thread is free takes a group whose pieces are all solved, else the next piece of the
/// largest group left. (Whole groups dealt to the threads in advance, the largest first,
/// left one thread idle for up to a third of the phase: in the bench binary's `--child
/// 100000 3`, 31.6 s for 46 s of work.) The whole-field solve and pricing after it are
/// unchanged, so the result is as exact as ever: a start changes how much work the
/// solver does, never what it proves. A group without a perfect pairing of its own
/// (players barred from one colour can crowd a score group) gives what its solve stopped
/// at: as many pairs as it can hold, under duals that keep them tight.
///
/// (Before, pieces of the groups, solved over their candidate pairs only, were put side
/// by side for the whole-field solve directly. In the bench binary's `--child 100000 9`
/// run its first solve then had 10,288 players to settle and took 48.6 s of the round's
/// 97.6 s, and in `--child 100000 3` the first pricing pass added 112,312 pairs, whose
/// solve took 23.7 s; from groups solved and priced first, the whole-field solve and
/// pricing after it took 7 s in round 9 and 17 s in round 3, the groups 38 and 23 s on
/// two threads, measured with temporary instrumentation.)
fn piecewise_start<W: Weight>(
    field: &Field,
    enc: &Encoder<W>,
    edges: &[(usize, usize, W)],
) -> (Parts<W>, Vec<(usize, usize, W)>) {
    let (ranges, local) = group_edges(field, edges);
    // The groups' solves weigh pairs inside a group only, which need fewer bits than the
    // whole field's weights: solved in 64 or 128 bits where those are narrower, with
    // the same numbers, and carried over exactly. (In the bench binary's `--child
    // 100000 9`, whose weights are 384 bits wide, the round took 37.0 s with the groups
    // in 384 bits, 23.2 s in 128 and 21.8 s in 64; `--child 100000 3`, 192 bits: 28.5 s
    // in 128, 27.7 s in 64, run back to back in one slow hour.)
    let starts: Vec<Start<W>> =
        if let Some(starts) = narrow_groups::<i64, W>(field, enc, &ranges, &local) {
            starts
        } else if W::BITS > <i128 as Weight>::BITS
            && let Some(starts) = narrow_groups::<i128, W>(field, enc, &ranges, &local)
        {
            starts
        } else {
            score_groups(field, enc, &ranges, &local)
        };
    let mut groups = Vec::with_capacity(ranges.len());
    let mut added = Vec::new();
    for (part, &(lo, _)) in starts.into_iter().zip(&ranges) {
        added.extend(part.added.into_iter().map(|(u, v, w)| (u + lo, v + lo, w)));
        groups.push((lo, part.snap));
    }
    (groups, added)
}

/// Each score group's players as a range, and its own candidate pairs out of `edges`,
/// numbered from its first player.
#[allow(clippy::type_complexity)]
fn group_edges<W: Weight>(
    field: &Field,
    edges: &[(usize, usize, W)],
) -> (Vec<(usize, usize)>, Vec<Vec<(usize, usize, W)>>) {
    let n = field.players.len();
    let mut ranges = Vec::with_capacity(field.group_size.len());
    let mut start = 0;
    for &size in &field.group_size {
        ranges.push((start, start + size));
        start += size;
    }
    let mut local: Vec<Vec<(usize, usize, W)>> = vec![Vec::new(); ranges.len()];
    for &(u, v, w) in edges {
        if v < n && field.group[u] == field.group[v] {
            let lo = ranges[field.group[u]].0;
            local[field.group[u]].push((u - lo, v - lo, w));
        }
    }
    (ranges, local)
}

/// [`score_groups`] in weights of the narrower type `V`, carried over to `W`; `None`
/// when the groups' weights need more bits than `V` holds.
fn narrow_groups<V: Weight, W: Weight>(
    field: &Field,
    enc: &Encoder<W>,
    ranges: &[(usize, usize)],
    local: &[Vec<(usize, usize, W)>],
) -> Option<Vec<Start<W>>> {
    let in_group = enc.in_group::<V>()?;
    let local = local
        .iter()
        .map(|edges| {
            edges
                .iter()
                .map(|&(u, v, w)| Some((u, v, narrow(w)?)))
                .collect::<Option<Vec<_>>>()
        })
        .collect::<Option<Vec<_>>>()?;
    Some(
        score_groups(field, &in_group, ranges, &local)
            .into_iter()
            .map(Start::widen)
            .collect(),
    )
}

/// Each score group of `field` (players `ranges`, candidate pairs `local` numbered from
/// each group's first player) solved alone, in pieces where it is large, on two threads:
/// the work of [`piecewise_start`], in weights of type `V`.
fn score_groups<V: Weight>(
    field: &Field,
    enc: &Encoder<V>,
    ranges: &[(usize, usize)],
    local: &[Vec<(usize, usize, V)>],
) -> Vec<Start<V>> {
    let n = field.players.len();
    let bar = colour_bars(field);
    // Each group's pieces (one when it is small): cut here, where a test's piece length
    // is seen.
    let cuts: Vec<Vec<usize>> = ranges
        .iter()
        .map(|&(lo, hi)| {
            // In fold order a group's pairs join its top half to its bottom half, so a
            // piece (a run of the group) holds few of them: at 30,000 players, round 2
            // took 145.6 s cut into pieces and 83.8 s whole (`SimConfig::random(9500, …)`
            // in fold order, a temporary release test).
            let parts = if field.fold() {
                1
            } else {
                (hi - lo).div_ceil(piece_len()).max(1)
            };
            if parts == 1 {
                vec![0, hi - lo]
            } else {
                let classes: Vec<usize> = field.players[lo..hi].iter().map(colour_class).collect();
                piece_cuts(&classes, &bar[lo..hi], parts)
            }
        })
        .collect();
    // Each piece's own candidate pairs, numbered from its first player, split once (a
    // group of one piece uses the group's).
    let piece_edges: Vec<Vec<Vec<(usize, usize, V)>>> = cuts
        .iter()
        .zip(local)
        .map(|(c, edges)| {
            if c.len() == 2 {
                return Vec::new();
            }
            let mut own = vec![Vec::new(); c.len() - 1];
            for &(u, v, w) in edges {
                let k = c.partition_point(|&x| x <= u) - 1;
                if (c[k]..c[k + 1]).contains(&v) {
                    own[k].push((u - c[k], v - c[k], w));
                }
            }
            own
        })
        .collect();
    let pieces: Vec<Mutex<Vec<Option<Start<V>>>>> = cuts
        .iter()
        .map(|c| Mutex::new((1..c.len()).map(|_| None).collect()))
        .collect();
    let solved: Vec<Mutex<Option<Start<V>>>> = ranges.iter().map(|_| Mutex::new(None)).collect();
    // A group of one piece is solved by its one piece's job.
    let mut jobs = Vec::new();
    for (g, c) in cuts.iter().enumerate() {
        jobs.extend((0..c.len() - 1).map(|k| Job {
            merge: false,
            size: field.group_size[g],
            group: Reverse(g),
            piece: Reverse(k),
        }));
    }
    crate::threads::pool(on_threads(n), jobs, |job| {
        let g = job.group.0;
        let (lo, hi) = ranges[g];
        let c = &cuts[g];
        if c.len() == 2 || job.merge {
            let parts = (c.len() > 2).then(|| {
                let mut list = crate::threads::lock(&pieces[g]);
                list.iter_mut()
                    .map(|p| p.take().expect("every piece is solved before its group"))
                    .collect()
            });
            let whole = solve_stretch(field, (lo, hi), enc, &local[g], &bar[lo..hi], parts);
            *crate::threads::lock(&solved[g]) = Some(whole);
            return Vec::new();
        }
        let k = job.piece.0;
        let (a, b) = (c[k], c[k + 1]);
        let part = solve_stretch(
            field,
            (lo + a, lo + b),
            enc,
            &piece_edges[g][k],
            &bar[lo + a..lo + b],
            None,
        );
        let mut list = crate::threads::lock(&pieces[g]);
        list[k] = Some(part);
        if list.iter().all(Option::is_some) {
            vec![Job {
                merge: true,
                piece: Reverse(0),
                ..job
            }]
        } else {
            Vec::new()
        }
    });
    solved
        .into_iter()
        .map(|whole| {
            whole
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .expect("every group is solved")
        })
        .collect()
}

/// A stretch's solved state ([`solve_stretch`]), to start a larger solve from, and the
/// pairs pricing added to its candidates (its partners may use them).
struct Start<W> {
    snap: Snapshot<W>,
    added: Vec<(usize, usize, W)>,
}

impl<V: Weight> Start<V> {
    /// The same start in a wider weight type, every value carried over exactly.
    fn widen<W: Weight>(self) -> Start<W> {
        Start {
            snap: self.snap.widen(),
            added: self
                .added
                .into_iter()
                .map(|(u, v, w)| (u, v, widen(w)))
                .collect(),
        }
    }
}

/// How many players of a stretch with colour bars `bar` ([`colour_bars`]) no pairing of
/// the stretch can pair: two players barred from the same colour never meet, so with
/// more players barred from black than those barred from red and the free ones
/// together, the rest stay unpaired (and likewise the other way).
fn unpairable(bar: &[usize]) -> usize {
    let mut count = [0usize; 3];
    for &b in bar {
        count[b] += 1;
    }
    unpaired_of(count)
}

/// [`unpairable`] from the counts of players free of bars, barred from black and barred
/// from red.
fn unpaired_of([free, black, red]: [usize; 3]) -> usize {
    black
        .saturating_sub(red + free)
        .max(red.saturating_sub(black + free))
}

/// Work for the two threads of [`piecewise_start`], the greatest first: a group's solve
/// from its pieces as soon as they are all solved, else the largest group's pieces
/// first (so that solve can start early), in order. A group of one piece is solved by
/// that piece's job; a group's solve from its pieces carries piece 0.
#[derive(PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
struct Job {
    merge: bool,
    size: usize,
    group: Reverse<usize>,
    piece: Reverse<usize>,
}

/// Players `lo..hi` of one score group solved alone (see [`piecewise_start`]) over their
/// candidate pairs `edges` (numbered from `lo`), `bar` their [`colour_bars`]: their
/// duals, their partners (numbered from `lo`) and the pairs pricing added. With
/// `pieces`, the optima of consecutive pieces of the stretch (each solved so), side by
/// side, are the warm start; without, the solve starts cold. A stretch that pairs
/// everyone (one player may take a sink when it is odd) is priced as the whole field
/// is, against every legal pair inside it, so its start is its own optimum, proven,
/// and the solve around it prices only what changes across its borders. A stretch that
/// cannot pair everyone stops as soon as only the players [`unpairable`] counts are left
/// (proving that no more can be paired would be most of its work) and is not priced.
fn solve_stretch<W: Weight>(
    field: &Field,
    (lo, hi): (usize, usize),
    enc: &Encoder<W>,
    edges: &[(usize, usize, W)],
    bar: &[usize],
    pieces: Option<Vec<Start<W>>>,
) -> Start<W> {
    let size = hi - lo;
    let mut local = edges.to_vec();
    if size % 2 == 1 {
        // A sink any player may take, as light as the lightest pair: the same weight for
        // everyone, so the optimum is the same as with any other, but a sink heavier
        // than every pair (pairs weigh minus their cost) is every player's heaviest edge,
        // and the cold start's greedy pass then paired nobody (in the bench binary's
        // `--child 100000 9`, 4,186 of a piece's 4,188 players were left to the solve,
        // against about a quarter in even pieces).
        let floor = edges.iter().map(|e| e.2).min().unwrap_or(W::ZERO);
        local.extend((0..size).map(|a| (a, size, floor)));
    }
    let total = size + size % 2;
    let mut added = Vec::new();
    let mut solver = match pieces {
        None => PerfectMatcher::cold(total, &local),
        Some(pieces) => {
            let mut parts = Vec::with_capacity(pieces.len());
            let mut a = 0;
            for part in pieces {
                let len = part.snap.vertices();
                added.extend(part.added.into_iter().map(|(u, v, w)| (u + a, v + a, w)));
                parts.push((a, part.snap));
                a += len;
            }
            debug_assert_eq!(a, size, "the pieces cover the stretch");
            local.extend_from_slice(&added);
            PerfectMatcher::join(total, &local, parts)
                .unwrap_or_else(|| PerfectMatcher::cold(total, &local))
        }
    };
    solver.stop_at_free(unpairable(bar).saturating_sub(size % 2));
    let sub = stretch_field(field, lo, hi);
    let mut seen = PairSet::default();
    for &(u, v, _) in edges.iter().chain(&added) {
        seen.insert(u, v);
    }
    let before = local.len();
    price_to_optimum(&sub, enc, &mut solver, total, &mut local, &mut seen);
    added.extend_from_slice(&local[before..]);
    Start {
        snap: solver.snapshot(size),
        added,
    }
}

/// Where to cut a score group of [`colour_class`] `classes` and [`colour_bars`] `bar`
/// into `parts` pieces of about equal length (see [`piecewise_start`]): the cuts, from 0
/// to the group's size. Each cut is looked for within a quarter of a piece of the even
/// cut, where the piece before it can pair everyone, then where pairing the two sides
/// apart costs the fewest extra colour misses ([`Tally::extra_misses`]), then where
/// the fewest bracket pairs are split ([`bracket_crossings`]), then nearest the even cut.
/// A piece that still cannot pair everyone (S15 orders the players with the largest
/// colour imbalance first, so a group can open with thousands barred from one colour)
/// takes in the players after it up to where it can, if that is within twice a piece's
/// length, else as many as it lacks while that helps: it then pairs them where the
/// group's optimum would, with the nearest players who can, and the group's solve has
/// little to undo. (In the bench binary's `--child 100000 3`, two groups' first pieces
/// had left 550 and 622 players unpaired, whom the groups' solves then paired across
/// the cut; cut so, the score groups' solves took 29 s of CPU instead of 39–46 s (two
/// runs), and in `--child 100000 9` 55 s instead of 62 s, measured with temporary
/// instrumentation.)
fn piece_cuts(classes: &[usize], bar: &[usize], parts: usize) -> Vec<usize> {
    let size = classes.len();
    let length = size.div_ceil(parts);
    let crossing = bracket_crossings(classes);
    let tally = Tally::new(classes, bar);
    let mut cuts = vec![0];
    let mut a = 0;
    while a < size {
        let target = a + length;
        let mut b = if target >= size {
            size
        } else {
            let from = (a + length * 3 / 4).max(a + 1);
            let to = (a + length * 5 / 4).min(size);
            (from..=to)
                .min_by_key(|&c| {
                    (
                        tally.unpairable(a, c),
                        tally.extra_misses(a, c, size),
                        crossing[c],
                        c.abs_diff(target),
                    )
                })
                .unwrap_or(target)
        };
        if tally.unpairable(a, b) > 0
            && let Some(c) = (b..=(a + 2 * length).min(size)).find(|&c| tally.unpairable(a, c) == 0)
        {
            b = c;
        }
        loop {
            let short = tally.unpairable(a, b);
            let next = (b + short).min(size);
            if short == 0 || next == b || tally.unpairable(a, next) >= short {
                break;
            }
            b = next;
        }
        if size - b < length / 4 {
            b = size;
        }
        cuts.push(b);
        a = b;
    }
    cuts
}

/// Running counts over a score group's players in pairing order, to weigh a cut in O(1):
/// [`colour_bars`] and due colours (+1 red, −1 black) of the players before each place.
struct Tally {
    bars: Vec<[usize; 3]>,
    /// Due red minus due black, and players without a due colour.
    dues: Vec<(i64, i64)>,
}

impl Tally {
    fn new(classes: &[usize], bar: &[usize]) -> Tally {
        let mut bars = Vec::with_capacity(classes.len() + 1);
        let mut dues = Vec::with_capacity(classes.len() + 1);
        let (mut count, mut due) = ([0usize; 3], (0i64, 0i64));
        bars.push(count);
        dues.push(due);
        for (&c, &b) in classes.iter().zip(bar) {
            count[b] += 1;
            match c {
                0 => due.0 += 1,
                1 => due.0 -= 1,
                _ => due.1 += 1,
            }
            bars.push(count);
            dues.push(due);
        }
        Tally { bars, dues }
    }

    /// [`unpairable`] for players `a..c`.
    fn unpairable(&self, a: usize, c: usize) -> usize {
        let count: [usize; 3] = std::array::from_fn(|k| self.bars[c][k] - self.bars[a][k]);
        unpaired_of(count)
    }

    /// Players `a..c` due one colour beyond those due the other and those due neither: at
    /// least this many of them miss their due colour when they are paired alone.
    fn excess(&self, a: usize, c: usize) -> i64 {
        let (d, f) = (
            self.dues[c].0 - self.dues[a].0,
            self.dues[c].1 - self.dues[a].1,
        );
        (d.abs() - f).max(0)
    }

    /// How many more players, at least, miss their due colour when players `a..c` and
    /// `c..end` are paired apart than when `a..end` are paired together.
    fn extra_misses(&self, a: usize, c: usize, end: usize) -> i64 {
        self.excess(a, c) + self.excess(c, end) - self.excess(a, end)
    }
}

/// Due-red against due-black in pairing order, as brackets match, over players of
/// [`colour_class`] `classes`: `close(open, i)` for each player `i` who meets the nearest
/// unmatched player of the other due colour before it (`open`'s last; `open` lists every
/// unmatched one, in order) and takes it out. Players without a due colour take no part.
fn brackets(classes: &[usize], mut close: impl FnMut(&[usize], usize)) {
    let mut open: Vec<usize> = Vec::new();
    for (i, &c) in classes.iter().enumerate() {
        if c == 2 {
            continue;
        }
        match open.last() {
            Some(&top) if classes[top] != c => {
                close(&open, i);
                open.pop();
            }
            _ => open.push(i),
        }
    }
}

/// For each cut `c` of a score group's players, of [`colour_class`] `classes` (before
/// player `c`, `0..=len`), how
/// many pairs of the bracket matching of due-red against due-black in pairing order (as
/// [`initial_candidates`] offers them) have one player before it and one after. The
/// group's optimum keeps many of those pairs (it meets the most due colours, then stays
/// nearest the pairing order), and pieces cut across them cannot. (When this was the
/// only key of [`piece_cuts`], in the bench binary's `--child 100000 9`, cutting where
/// the fewest are split took the score groups' solves from 48.3 to 38.7 s; round 3: 32.2
/// and 34.9 s, within the noise. It now breaks ties after pairability and extra misses.)
fn bracket_crossings(classes: &[usize]) -> Vec<u32> {
    let mut change = vec![0i64; classes.len() + 1];
    brackets(classes, |open, i| {
        // Cuts top + 1 ..= i split the pair (top, i).
        let top = open[open.len() - 1];
        change[top + 1] += 1;
        change[i + 1] -= 1;
    });
    let mut out = Vec::with_capacity(classes.len() + 1);
    let mut now = 0i64;
    for d in &change {
        now += d;
        out.push(u32::try_from(now).unwrap_or(u32::MAX));
    }
    out
}

/// Column generation from `solver`'s state over `field`'s players (and a sink `total − 1`
/// when `total` exceeds them): solve, price the legal pairs not yet in `edges` (and
/// `seen`) against the optimum's duals, add those that could lower the cost, and solve
/// again from that optimum, until a pass finds none — the optimum over every legal pair,
/// certified by its duals (docs/rules.md §2.6). A solve that cannot pair everyone is
/// returned as it is, unpriced.
fn price_to_optimum<W: Weight>(
    field: &Field,
    enc: &Encoder<W>,
    solver: &mut PerfectMatcher<W>,
    total: usize,
    edges: &mut Vec<(usize, usize, W)>,
    seen: &mut PairSet,
) -> super::blossom::Optimum<W> {
    // The last pass's optimum, proven over the edges it had.
    let mut proven: Option<super::blossom::Optimum<W>> = None;
    loop {
        let mut opt = solver.solve_partial();
        if !opt.perfect() {
            return opt;
        }
        balance_duals(&mut opt, total, edges);
        if opt.certify(edges).is_err() {
            // The safety net: every pass is checked, in every build, and a pass its
            // certificate refuses is solved again from the last proven optimum's duals
            // (or cold), which is proven in its turn. It caught the warm continuation's
            // stale best edge (`Matcher::retire`, fixed; docs/rules.md §2.6); the bench
            // reports how often it fires (`blossom::refused_solves`; the target is never).
            super::blossom::note_refused_solve();
            let stop = solver.stops_at_free();
            *solver = match &proven {
                Some(last) => PerfectMatcher::warm(total, edges, &last.warm_duals(), &last.mate),
                None => PerfectMatcher::cold(total, edges),
            };
            solver.stop_at_free(stop);
            opt = solver.solve_partial();
            if !opt.perfect() {
                return opt;
            }
            balance_duals(&mut opt, total, edges);
            assert_eq!(opt.certify(edges), Ok(()), "optimality certificate");
        }
        let mut found = Vec::new();
        price(field, enc, &opt, seen, &mut found);
        if found.is_empty() {
            return opt;
        }
        let first_new = edges.len();
        for (i, j, w) in found {
            seen.insert(i, j);
            edges.push((i, j, w));
        }
        // The next pass goes on from this optimum with the solver's blossoms kept: only
        // what the new pairs unsettle is undone. Should keeping the duals whole need more
        // bits than the weight type has, it restarts from this optimum's duals with the
        // blossoms dissolved.
        if !solver.add_edges(&edges[first_new..]) {
            *solver = PerfectMatcher::warm(total, edges, &opt.warm_duals(), &opt.mate);
        }
        proven = Some(opt);
    }
}

/// Players `lo..hi` of one score group as a field of their own (the same players in the
/// same order, the same places and size of their group), for pricing their solve.
fn stretch_field<'a>(field: &Field<'a>, lo: usize, hi: usize) -> Field<'a> {
    let g = field.group[lo];
    Field {
        rules: field.rules,
        players: field.players[lo..hi].to_vec(),
        group: vec![0; hi - lo],
        scores: vec![field.scores[g]],
        in_group: field.in_group[lo..hi].to_vec(),
        group_size: vec![field.group_size[g]],
        facts: field.facts[lo..hi].to_vec(),
        relax: field.relax.clone(),
    }
}

/// Spreads each matched pair's dual sum evenly between its two players where the other
/// candidate edges allow it (raise the lower dual, lower the higher one by the same amount,
/// never below any candidate edge's slack). The matching stays tight and the duals stay
/// feasible, so the certificate still holds; but the stage-based solver leaves players
/// matched late with very low duals and their partners with very high ones, which would
/// make pricing look at almost every pair. Balanced duals let its bounds skip them.
fn balance_duals<W: Weight>(
    opt: &mut super::blossom::Optimum<W>,
    total: usize,
    edges: &[(usize, usize, W)],
) {
    // Each vertex's edges as indices into `edges`, one flat list (a list per vertex of
    // (neighbour, weight) copies was rebuilt on every pricing pass: 3.2 million wide
    // weights at 100,000 players).
    let mut start = vec![0usize; total + 1];
    for &(u, v, _) in edges {
        start[u + 1] += 1;
        start[v + 1] += 1;
    }
    for x in 0..total {
        start[x + 1] += start[x];
    }
    let mut fill = start.clone();
    let mut incident = vec![0u32; start[total]];
    for (k, &(u, v, _)) in edges.iter().enumerate() {
        let k = u32::try_from(k).expect("fewer than 2^32 candidate pairs");
        for end in [u, v] {
            incident[fill[end]] = k;
            fill[end] += 1;
        }
    }
    for a in 0..total {
        let Some(b) = opt.mate[a] else { continue };
        if b < a {
            continue;
        }
        let (hi, lo) = if opt.y[a] < opt.y[b] { (a, b) } else { (b, a) };
        // Move d from y[lo] to y[hi]; lo's other edges lose d of slack.
        let gap = (opt.y[lo] - opt.y[hi]).half();
        let mut d = gap;
        for &k in &incident[start[lo]..start[lo + 1]] {
            let (u, v, w) = edges[k as usize];
            let x = if u == lo { v } else { u };
            if x != hi {
                d = d.min(opt.slack(lo, x, w));
            }
        }
        if d > W::ZERO {
            opt.y[hi] = opt.y[hi] + d;
            opt.y[lo] = opt.y[lo] - d;
        }
    }
}

/// The encoder for a whole-field solve, from bounds that hold for every pair (so pricing
/// can weigh pairs the first solve never saw).
fn field_encoder<W: Weight>(field: &Field) -> Option<Encoder<W>> {
    let n = field.players.len();
    let spread = match (field.scores.first(), field.scores.last()) {
        (Some(hi), Some(lo)) => i128::from((*hi - *lo).0),
        _ => 0,
    };
    let fold = field.fold();
    let biggest = field.group_size.iter().copied().max().unwrap_or(0) as i128;
    let max_order = if fold {
        (n as i128).max(biggest * biggest)
    } else {
        n as i128
    };
    let bound = Terms {
        top: 0,
        bottom: 0,
        sq: spread * spread,
        misses: 2,
        floats: 2,
        order: max_order,
        broken: [0; RELAX_LEVELS],
    };
    let groups = field.scores.len();
    let mut caps = Vec::with_capacity(groups.saturating_sub(1));
    let mut above = 0i128;
    for g in 0..groups.saturating_sub(1) {
        above += field.group_size[g] as i128;
        caps.push(above.min(n as i128 - above));
    }
    // Per table at most 4 colour-limit breaks (two limits for each player), one team-mate
    // pairing, one rematch.
    let tables = (n / 2) as i128;
    let broken_caps: Vec<i128> = field
        .relax
        .iter()
        .map(|r| match r {
            Relax::Colour => 4 * tables,
            Relax::Team | Relax::Rematch => tables,
        })
        .collect();
    Encoder::exact(&bound, &caps, &broken_caps, n / 2 + 1)
}

/// First candidate pairs: for each player the next `near` legal players in pairing
/// order, and within each score group the players at about the same place of the other
/// due-colour rows (S15 异行配对 pairs the k-th due-red player with the k-th due-black),
/// and in fold order those about half the group below it in each row and those
/// [`super::fold::candidates`] guesses.
fn initial_candidates(field: &Field, near: usize, add: &mut dyn FnMut(usize, usize)) {
    let n = field.players.len();
    let fold = field.fold();
    for i in 0..n {
        let mut found = 0;
        for j in i + 1..n.min(i + 1 + 8 * near) {
            if field.legal(i, j) {
                add(i, j);
                found += 1;
                if found == near {
                    break;
                }
            }
        }
    }
    let mut start = 0;
    for &size in &field.group_size {
        let classes: Vec<usize> = field.players[start..start + size]
            .iter()
            .map(colour_class)
            .collect();
        let mut rows: [Vec<usize>; 3] = Default::default();
        for (k, &c) in classes.iter().enumerate() {
            rows[c].push(start + k);
        }
        for a in 0..3 {
            for b in a..3 {
                let (ra, rb) = (&rows[a], &rows[b]);
                for (k, &i) in ra.iter().enumerate() {
                    // Same place in the other row, scaled to its length.
                    let at = if ra.is_empty() {
                        0
                    } else {
                        k * rb.len() / ra.len()
                    };
                    let lo = at.saturating_sub(near);
                    for &j in &rb[lo.min(rb.len())..(at + near + 1).min(rb.len())] {
                        add(i, j);
                    }
                }
            }
        }
        // Due-red against due-black in pairing order, as brackets match: each player meets
        // the nearest unmatched players of the other row before it. With more of one row
        // than the other, the optimum pairs some of them far apart (the order criterion is
        // a matching on a line), which the nearest neighbours above would not offer.
        brackets(&classes, |open, i| {
            for &j in open.iter().rev().take(BRACKETS) {
                add(start + j, start + i);
            }
        });
        // In fold order the pair the order prefers is half the group apart: for each
        // player, the players of every row about half the group below it. (Adding also
        // those at the same place of each row of the bottom half, scaled to the rows'
        // lengths, was slower: 1.26 against 1.15 s for the slowest round of one
        // 10,000-player event, 4.7 against 4.4 s of another.)
        if fold {
            // Measured at commit cffed63 with a temporary release test
            // (`SimConfig::random(9500..=9502)`, fold order, 10,000 players; slowest
            // round): 4.1 → 1.4 s, 1.5 → 0.7 s, 0.58 → 0.51 s; with it, dropping the
            // pivots below was slower (1.4 → 2.3 s, 0.58 → 1.8 s).
            super::fold::candidates(&classes, FOLD_NEAR, |a, b| add(start + a, start + b));
            for ra in &rows {
                for rb in &rows {
                    for &i in ra {
                        let at = rb.partition_point(|&j| j < i + size / 2);
                        for &j in &rb[at.saturating_sub(near)..(at + near).min(rb.len())] {
                            if j > i {
                                add(i, j);
                            }
                        }
                    }
                }
            }
        }
        start += size;
    }
    // Floaters between neighbouring score groups: the criterion against floating twice
    // the same way ranks above the order, so the optimum's floater is the lowest player
    // of the higher group who did not float down last round, of a colour that suits, and
    // its partner the highest of the lower group who did not float up. Offer every pair
    // of such players (a few per colour class on each side).
    let mut start = 0;
    for pair in field.group_size.windows(2) {
        let (upper, lower) = (
            start..start + pair[0],
            start + pair[0]..start + pair[0] + pair[1],
        );
        let pick = |range: std::ops::Range<usize>, avoid: Float, from_bottom: bool| {
            let mut taken = [0usize; 3];
            let mut out = Vec::new();
            let order: Vec<usize> = if from_bottom {
                range.rev().collect()
            } else {
                range.collect()
            };
            for i in order {
                let p = &field.players[i];
                let c = colour_class(p);
                if p.last_float != Some(avoid) && taken[c] < near {
                    taken[c] += 1;
                    out.push(i);
                }
            }
            out
        };
        let ups = pick(upper.clone(), Float::Down, true);
        let downs = pick(lower, Float::Up, false);
        for &i in &ups {
            for &j in &downs {
                add(i, j);
            }
        }
        start = upper.end;
    }
}

/// Players of the other row each player meets in the bracket candidates.
const BRACKETS: usize = 3;

/// Black players on either side of each red player's place that fold order's role
/// candidates offer ([`super::fold::candidates`]): ±3 held 4,936 of the 4,945 optimal
/// pairs of a 9,891-player score group, ±6 was no faster at 10,000 players.
const FOLD_NEAR: usize = 3;

fn colour_class(p: &PlayerState) -> usize {
    match p.due() {
        Some(Colour::Red) => 0,
        Some(Colour::Black) => 1,
        None => 2,
    }
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

/// The colour each player cannot take at all under the hard colour limits (docs/rules.md
/// §3.2; 1: black, 2: red, 0: either), unless the round relaxes them (§2.5): two players
/// barred from the same colour never meet.
fn colour_bars(field: &Field) -> Vec<usize> {
    let mut bar = limit_bars(field);
    if field.relax.contains(&Relax::Colour) {
        bar.fill(0);
    }
    bar
}

/// The colour each player cannot take without breaking a colour limit (docs/rules.md
/// §3.2; 1: black, 2: red, 0: either), whether or not the round relaxes the limits (§2.5):
/// two players barred from the same colour cannot meet without at least one break.
fn limit_bars(field: &Field) -> Vec<usize> {
    let rules = &field.rules;
    let bar = |p: &PlayerState| match (
        rules.colour_allowed(p, Colour::Red),
        rules.colour_allowed(p, Colour::Black),
    ) {
        (true, false) => 1,
        (false, true) => 2,
        _ => 0,
    };
    field.players.iter().map(bar).collect()
}

/// Pricing's team classes ([`price`], docs/rules.md §2.6): in a round that relaxes team
/// avoidance (§2.5, §4.1), each unit holding at least 1/[`TEAM_CLASSES`] of the field is
/// a class of its own (1, 2, …) and everyone else is class 0; otherwise everyone is
/// class 0. Two players of one class other than 0 are team-mates, so their pair costs at
/// least one team-mate pairing.
fn team_classes(field: &Field) -> (Vec<usize>, usize) {
    let n = field.players.len();
    if !field.relax.contains(&Relax::Team) || !field.rules.team_avoidance_on() {
        return (vec![0; n], 1);
    }
    let mut class: BTreeMap<&str, usize> = BTreeMap::new();
    for (team, k) in unit_sizes(field) {
        if k * TEAM_CLASSES >= n {
            let next = class.len() + 1;
            class.insert(team, next);
        }
    }
    let of = |p: &PlayerState| p.team.as_deref().and_then(|t| class.get(t)).copied();
    (
        field.players.iter().map(|p| of(p).unwrap_or(0)).collect(),
        class.len() + 1,
    )
}

/// A unit needs at least 1/this of the field to be a team class of its own in pricing
/// ([`team_classes`]): so at most this many classes besides 0, and the team-mates pricing
/// cannot tell apart (those of smaller units) are at most 1/this of the field per
/// player. A round needs team avoidance relaxed when no pairing keeps team-mates apart,
/// which in a large field takes a unit holding about half of it.
const TEAM_CLASSES: usize = 8;

/// The legal pairs not yet an edge whose reduced cost under `opt` is negative (each could
/// improve the matching): at most [`PER_PLAYER`] per player, the most improving first.
///
/// Pair `(i, j)` weighs `−cost(i, j)`; its reduced cost is `f·cost(i, j) − key[i] −
/// key[j] + Z(A)` with `key[v] = −y[v]`, `f` the solver's scale and `Z(A)` the (doubled)
/// duals of the blossoms holding both players: the innermost such blossom `A` and every
/// blossom around it. The cost is at least its score-group part for the two groups plus
/// one colour miss when both are due the same colour, plus the distance `|i − j|` in
/// pairing order (in fold order, for a pair of one score group of `2h` or `2h + 1`
/// players, `||i − j| − h|`, as `(|i − j| − h)² ≥ ||i − j| − h|`), plus in a relaxed
/// round one break for two players barred from the same colour and one for two
/// team-mates of a large unit ([`team_classes`]); repeated floats and other breaks are
/// left at 0, their least value. So a pair can price in only if `key[i] + key[j] > f·lb
/// + f·dist + Z(A)`.
///
/// The solver's duals nest deep (blossoms of thousands of players whose members' own duals
/// are correspondingly low), so the bound is only useful with `Z(A)`: pairs are taken by
/// their innermost common blossom `A` (a pair of different children of `A`). Players are
/// laid out so that every blossom is one run ([`Laminar`]); for each child of `A` but the
/// largest, each of its players looks for partners elsewhere in `A` with a maximum tree
/// per block (score group × due colour × the colour a player cannot take at all) over
/// the keys, which lists exactly the partners that pass; blocks whose players cannot
/// meet i (both barred from the same colour, unless the round relaxes colour limits) are
/// skipped whole (late in a round they were most of what each pass listed). A player is outside the largest child at most log₂ n times, so pricing
/// touches O(n log n) queries plus the pairs that could improve the matching, not the
/// whole field. Pairs come out in the same order as a plain scan would give (first
/// player, then the other's group, colour class and place), so the solve does not depend
/// on how they were found.
fn price<W: Weight>(
    field: &Field,
    enc: &Encoder<W>,
    opt: &super::blossom::Optimum<W>,
    seen: &PairSet,
    found: &mut Vec<(usize, usize, W)>,
) {
    let n = field.players.len();
    let keyv: Vec<W> = opt.y.iter().map(|&y| -y).collect();
    let f = 2 * opt.scale();
    // f is a power of two; the solver checked its doublings fit in W.
    let times = |w: W| w.scaled(f);
    let class: Vec<usize> = field.players.iter().map(colour_class).collect();
    let bar = limit_bars(field);
    // Two players barred from the same colour: never a pair in a strict round, at least
    // one colour-limit break in a round that relaxes the limits.
    let unit_of = |rule: Relax| {
        let k = field.relax.iter().position(|&r| r == rule)?;
        Some(times(enc.unit_broken[k]))
    };
    let bar_break = unit_of(Relax::Colour);
    let (team, teams) = team_classes(field);
    let team_break = unit_of(Relax::Team);
    let groups = field.scores.len();
    let family = Laminar::new(opt);
    // Blocks (score group, due class, barred colour, team class): their players' places in
    // the family's order; only the blocks with players are visited.
    let block_of = |v: usize| ((field.group[v] * 3 + class[v]) * 3 + bar[v]) * teams + team[v];
    let block_group = |block: usize| block / (9 * teams);
    let block_class = |block: usize| (block / (3 * teams)) % 3;
    let block_bar = |block: usize| (block / teams) % 3;
    let block_team = |block: usize| block % teams;
    let mut places: Vec<Vec<usize>> = vec![Vec::new(); groups * 9 * teams];
    for (place, &v) in family.order.iter().enumerate() {
        if v < n {
            places[block_of(v)].push(place);
        }
    }
    let held: Vec<usize> = (0..places.len())
        .filter(|&b| !places[b].is_empty())
        .collect();
    // Partners `j` are found by `key[j] − f·|j − q| > floor` around a pivot `q`: `q = i`
    // (the order term is at least `|i − j|`), except for a pair of one score group in fold
    // order, whose order term `(|i − j| − h)²` (`h` half the group) is at least
    // `|j − (i ± h)|`: there the pivots are `i + h` for partners after `i` and `i − h`
    // for those before it (clamped to the field, which only lowers the bound).
    let fold = field.fold();
    let at = |v: usize| W::from_i128(i128::from(f) * v as i128);
    let per_player = if fold { FOLD_PER_PLAYER } else { PER_PLAYER };
    let enough = ENOUGH * per_player;
    let trees: Vec<BlockIndex> = places
        .iter()
        .map(|p| BlockIndex::new(p.iter().map(|&place| family.order[place])))
        .collect();
    // Below every floor: a floor is at least `−key[i] − f·n` (its cost bound and the
    // blossoms' duals are never negative).
    let never = -keyv.iter().copied().max().unwrap_or(W::ZERO) - at(n) - W::from_i128(1);
    let every: Vec<Maxima<W>> = trees
        .iter()
        .map(|t| t.maxima(|v| Some(keyv[v]), at, never))
        .collect();
    // In fold order a pair of one score group at `t = |j − (i ± h)|` from its pivot pays
    // `t²` on the order level, at least the tangent `2Ct − C²` ([`FOLD_TANGENT`] = C):
    // its partners are listed under that steeper bound, on maxima built for it, where
    // the weight type holds `2C·f·n` (else under `t`, as other pairs).
    let tangent = FOLD_TANGENT;
    let steep = (fold
        && W::from_i128(i128::from(f))
            .mul_small(2 * tangent * (n as u64 + 1) + tangent * tangent)
            .is_some())
    .then_some(i128::from(f) * i128::from(2 * tangent));
    let at_steep = |v: usize| W::from_i128(steep.unwrap_or(0) * v as i128);
    let square = W::from_i128(i128::from(f) * i128::from(tangent * tangent));
    let never_steep = never - at_steep(n) - square;
    let steep_maxima = |key: &dyn Fn(usize) -> Option<W>| -> Vec<Maxima<W>> {
        if steep.is_none() {
            return Vec::new();
        }
        trees
            .iter()
            .map(|t| t.maxima(key, at_steep, never_steep))
            .collect()
    };
    let every_steep = steep_maxima(&|v| Some(keyv[v]));
    // f·(lower bound of the cost) for groups (g, h), g ≤ h, with or without a colour miss.
    let mut lbs = vec![W::ZERO; groups * groups * 2];
    for g in 0..groups {
        for h in g..groups {
            let d = i128::from((field.scores[g] - field.scores[h]).0);
            for miss in 0..2 {
                lbs[(g * groups + h) * 2 + miss] = times(enc.cost(&Terms {
                    top: g,
                    bottom: h,
                    sq: d * d,
                    misses: miss as i128,
                    floats: 0,
                    order: 0,
                    broken: [0; RELAX_LEVELS],
                }));
            }
        }
    }
    let lb = |i: usize, block: usize| {
        let (g, h) = (field.group[i], block_group(block));
        let miss = usize::from(block_class(block) == class[i] && class[i] != 2);
        let mut lb = lbs[(g.min(h) * groups + g.max(h)) * 2 + miss];
        if let Some(unit) = bar_break
            && bar[i] != 0
            && bar[i] == block_bar(block)
        {
            lb = lb + unit;
        }
        if let Some(unit) = team_break
            && team[i] != 0
            && team[i] == block_team(block)
        {
            lb = lb + unit;
        }
        lb
    };
    let index_of = |block: usize, place: usize| places[block].partition_point(|&p| p < place);
    // The work: every (blossom, child but its largest), dealt in chunks of [`CHUNK`] to
    // two halves, each priced by its own thread (on scoped threads for large fields; a
    // split into two runs left one half with most of the work). The split depends only
    // on the family, never on timing, so the pairs found are the same on any machine,
    // threads or not.
    let mut units: Vec<(usize, usize, usize, usize, usize)> = Vec::new();
    for a in family.inner_nodes() {
        let kids = &family.children[a];
        let Some(&heavy) = kids.iter().max_by_key(|&&c| family.size(c)) else {
            continue;
        };
        for &c in kids.iter().filter(|&&c| c != heavy) {
            let (c_lo, c_hi) = family.span[c];
            for from in (c_lo..c_hi).step_by(STRIDE) {
                units.push((a, heavy, c, from, (from + STRIDE).min(c_hi)));
            }
        }
    }
    let scan = |half: usize| -> Vec<u128> {
        let mut passing = Vec::new();
        let mut side = Vec::new();
        // The pairs that price in ([`priced_key`]: slack rounded to f64, players), kept
        // small: far from the optimum there can be many millions, so whenever the list
        // outgrows a few entries per player it is cut to what the selection below would
        // take from it (see `select`).
        let mut priced_in: Vec<u128> = Vec::new();
        let limit = 4 * per_player * n.max(1);
        // Improving pairs found per player, and whether the list was cut yet.
        let mut improving = vec![0usize; n];
        let mut crowded = false;
        // Per child of a blossom, its ranges in each block once found (one buffer for all:
        // the root alone has thousands of children).
        let mut ranges: Vec<Option<[(usize, usize, bool); 4]>> = Vec::new();
        // The blossom whose ranges and best keys are at hand, and the child whose ranges
        // are (a child's players can span many units).
        let mut node = usize::MAX;
        let mut child = usize::MAX;
        let mut outer: Vec<(usize, usize, usize, usize)> = Vec::new();
        let mut best: Vec<Option<W>> = Vec::new();
        // Once the list is cut, players with plenty of improving pairs are skipped as
        // partners for the rest of the pass: after every [`REBUILT_AFTER`] such skips (per
        // player of the field) the maxima are rebuilt without them, so the walks stop
        // listing them. The pairs found are the same, with less walking. (The best keys
        // kept for the blossom at hand may still count them: a bound, never too low.)
        let mut own: Option<Vec<Maxima<W>>> = None;
        let mut own_steep: Option<Vec<Maxima<W>>> = None;
        let mut skipped = 0usize;
        for &(a, heavy, c, from, to) in units.chunks(CHUNK).skip(half).step_by(2).flatten() {
            let (lo, hi) = family.span[a];
            let (heavy_lo, heavy_hi) = family.span[heavy];
            let za = family.z_above[a];
            if node != a {
                node = a;
                // Per block, A's players and those of its largest child as index ranges
                // (the same for every other child).
                outer = held
                    .iter()
                    .map(|&b| {
                        let (a_lo, a_hi) = (index_of(b, lo), index_of(b, hi));
                        let (h_lo, h_hi) = (index_of(b, heavy_lo), index_of(b, heavy_hi));
                        (a_lo, a_hi, h_lo, h_hi)
                    })
                    .collect();
                // The best key of each block within A: a player whose key cannot reach
                // it skips the block at once.
                let maxima = own.as_deref().unwrap_or(&every);
                best = held
                    .iter()
                    .zip(&outer)
                    .map(|(&b, &(a_lo, a_hi, _, _))| maxima[b].best_key(a_lo, a_hi))
                    .collect();
            }
            let (c_lo, c_hi) = family.span[c];
            // A's players outside C in block `held[bi]`, as index ranges: those in the
            // largest child (met from this side only, partners before and after i) and
            // those outside it (met from both sides, so only partners after i are listed;
            // listing both and dropping half was most of pricing's work at the root, whose
            // children are thousands of single players). Found when a player of C first
            // looks into the block: most blocks are skipped on their best key.
            let range_of = |bi: usize| {
                let b = held[bi];
                let (a_lo, a_hi, h_lo, h_hi) = outer[bi];
                let (k_lo, k_hi) = (index_of(b, c_lo), index_of(b, c_hi));
                // C and the heavy child are disjoint runs of A (compared as runs: in a
                // block with none of their players the indices coincide).
                if c_lo < heavy_lo {
                    [
                        (a_lo, k_lo, false),
                        (k_hi, h_lo, false),
                        (h_lo, h_hi, true),
                        (h_hi, a_hi, false),
                    ]
                } else {
                    [
                        (a_lo, h_lo, false),
                        (h_lo, h_hi, true),
                        (h_hi, k_lo, false),
                        (k_hi, a_hi, false),
                    ]
                }
            };
            if child != c {
                child = c;
                ranges.clear();
                ranges.resize(held.len(), None);
            }
            for &i in &family.order[from..to] {
                if i >= n {
                    continue;
                }
                if crowded && skipped > REBUILT_AFTER * n {
                    own = Some(
                        trees
                            .iter()
                            .map(|t| {
                                t.maxima(|v| (improving[v] < enough).then(|| keyv[v]), at, never)
                            })
                            .collect(),
                    );
                    own_steep = Some(steep_maxima(&|v| (improving[v] < enough).then(|| keyv[v])));
                    skipped = 0;
                }
                let maxima = own.as_deref().unwrap_or(&every);
                let maxima_steep = own_steep.as_deref().unwrap_or(&every_steep);
                for (bi, (&block, best)) in held.iter().zip(&best).enumerate() {
                    if bar_break.is_none() && bar[i] != 0 && bar[i] == block_bar(block) {
                        continue;
                    }
                    let floor = lb(i, block) + za - keyv[i];
                    if best.is_none_or(|m| m <= floor) {
                        continue;
                    }
                    passing.clear();
                    // Partners after the pivot in pairing order pay f·(j − q), before it
                    // f·(q − j).
                    let floors = |q: usize| {
                        let floors = (floor - at(q), floor + at(q));
                        debug_assert!(floors.0 > never && floors.1 > never, "never passes");
                        floors
                    };
                    let range = *ranges[bi].get_or_insert_with(|| range_of(bi));
                    let half = field.group_size[field.group[i]] / 2;
                    let folded = fold && block_group(block) == field.group[i];
                    for &(from, to, earlier) in &range {
                        if from >= to {
                            continue;
                        }
                        let tree = &trees[block];
                        if !folded {
                            tree.passing(
                                &maxima[block],
                                from..to,
                                i,
                                floors(i),
                                earlier,
                                &mut passing,
                            );
                            continue;
                        }
                        // Each pivot's listing keeps the partners on its own side of i.
                        let sides = [((i + half).min(n), true), (i.saturating_sub(half), false)];
                        for &(q, later) in &sides[..1 + usize::from(earlier)] {
                            side.clear();
                            let (m, floors) = if steep.is_some() {
                                let low = floor - square;
                                let m = &maxima_steep[block];
                                (m, (low - at_steep(q), low + at_steep(q)))
                            } else {
                                (&maxima[block], floors(q))
                            };
                            tree.passing(m, from..to, q, floors, true, &mut side);
                            passing.extend(
                                side.iter()
                                    .filter(|&&k| (family.order[places[block][k]] > i) == later),
                            );
                        }
                    }
                    for &k in &passing {
                        let j = family.order[places[block][k]];
                        debug_assert!(j > i || (heavy_lo..heavy_hi).contains(&family.at[j]));
                        let (x, y) = (i.min(j), i.max(j));
                        // Far from the optimum most pairs improve: once a player has
                        // plenty, its further pairs are left for the next pass.
                        if crowded && (improving[x] >= enough || improving[y] >= enough) {
                            skipped += 1;
                            continue;
                        }
                        // A is the innermost blossom holding both: its `za` is their Σ z.
                        // (Weighed before the pair's rules are read: the weight reads the
                        // field's colour facts, the rules the players' opponents and
                        // teams behind pointers.)
                        let cost = times(enc.cost(&field.pair_terms(x, y)));
                        let slack = cost - keyv[x] - keyv[y] + za;
                        debug_assert_eq!(
                            slack,
                            opt.slack(x, y, -enc.cost(&field.pair_terms(x, y)))
                        );
                        if slack < W::ZERO && !seen.contains(x, y) && field.legal(x, y) {
                            improving[x] += 1;
                            improving[y] += 1;
                            priced_in.push(priced_key(slack.approx(), x, y));
                            if priced_in.len() > limit {
                                select(&mut priced_in, n, per_player);
                                crowded = true;
                            }
                        }
                    }
                }
            }
        }
        priced_in
    };
    let mut priced_in = both_halves(on_threads(n), scan);
    // A pass that found few improving pairs (no more than the field has players) keeps
    // them all: near the optimum one player can hold most of them (a floater, whose many
    // pairs with a neighbouring group each improve the matching), and cut to
    // `per_player` it took one pass per `per_player` of them. (In a 10,000-player event
    // in fold order, `SimConfig::random(9500)` in a temporary release test, the whole
    // field's solve after its groups took 23 passes, ten of them adding 24 pairs each;
    // round 3 took 3.7 s, and 1.0 s keeping them all.)
    if priced_in.len() > n {
        select(&mut priced_in, n, per_player);
    }
    for &key in &priced_in {
        let (x, y) = priced_players(key);
        found.push((x, y, -enc.cost(&field.pair_terms(x, y))));
    }
    found.sort_by_key(|&(x, y, _)| (x, field.group[y], class[y], y));
}

/// Fields from this size solve their score groups ([`piecewise_start`]) and price
/// ([`price`]) on two threads; the result is the same either way. Chosen, not measured:
/// below it a whole round takes hundredths of a second, where starting a thread per
/// pass would be most of the gain.
const PARALLEL_FROM: usize = 2000;

#[cfg(test)]
thread_local! {
    /// Tests force the threaded or the single-threaded path whatever the field's size.
    static THREADS: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Whether a field of `n` players runs its halves on two threads.
fn on_threads(n: usize) -> bool {
    #[cfg(test)]
    if let Some(forced) = THREADS.with(std::cell::Cell::get) {
        return forced;
    }
    n >= PARALLEL_FROM
}

/// `half(0)` then `half(1)`, the second on its own thread when `threads`: the same list
/// either way.
fn both_halves<T: Send>(threads: bool, half: impl Fn(usize) -> Vec<T> + Sync) -> Vec<T> {
    let (mut first, second) = if threads {
        std::thread::scope(|scope| match crate::threads::spawn(scope, || half(1)) {
            Ok(other) => {
                let mine = half(0);
                // A panic in the second half is raised again here with its own message.
                (mine, crate::threads::join(other))
            }
            Err(other) => (half(0), other()),
        })
    } else {
        (half(0), half(1))
    };
    first.extend(second);
    first
}

/// Units of pricing work dealt to each half at a time (see [`price`]).
const CHUNK: usize = 64;

/// Players of one blossom's child per unit of pricing work (a child can hold thousands).
const STRIDE: usize = 32;

/// Far from the optimum (a first sparse solve whose duals are poor) millions of pairs can
/// price in: keeps each player's most improving few, as column generation does — in order
/// of slack (then players), a pair is kept while both its players have fewer than
/// `per_player` ([`PER_PLAYER`], or [`FOLD_PER_PLAYER`] in fold order). The most
/// improving pair is always kept, so every pass adds one while any pair prices in, and
/// the last pass finds none. Applied again to a list it already
/// cut plus new pairs, it never drops the most improving pair either.
fn select(priced_in: &mut Vec<u128>, n: usize, per_player: usize) {
    priced_in.sort_unstable();
    let mut taken = vec![0usize; n];
    priced_in.retain(|&key| {
        let (x, y) = priced_players(key);
        let keep = taken[x] < per_player && taken[y] < per_player;
        if keep {
            taken[x] += 1;
            taken[y] += 1;
        }
        keep
    });
}

/// A pair that prices in as one number whose order is that of its slack (rounded to
/// `f64`, in [`f64::total_cmp`] order), then of its players `x < y`: [`select`] sorts
/// millions of them (as `(f64, u32, u32)` tuples with a comparator the sort took 7% of
/// the bench binary's `--child 100000 3`).
fn priced_key(slack: f64, x: usize, y: usize) -> u128 {
    let bits = slack.to_bits() as i64;
    // `total_cmp` compares these as signed integers, the sign bit flipped into the top
    // place makes them compare alike unsigned.
    let ordered = ((bits ^ (((bits >> 63) as u64) >> 1) as i64) as u64) ^ (1 << 63);
    let player = |v: usize| u128::from(u32::try_from(v).expect("fewer than 2^32 players"));
    (u128::from(ordered) << 64) | (player(x) << 32) | player(y)
}

/// The players of a [`priced_key`].
fn priced_players(key: u128) -> (usize, usize) {
    ((key >> 32) as u32 as usize, key as u32 as usize)
}

/// Once a pricing pass has more improving pairs than it keeps (the list was cut: far
/// from the optimum millions of pairs improve and only [`PER_PLAYER`] each are kept), it
/// stops examining a player's pairs once this many times that number of them improve
/// (16 of them outside fold order). A pass that finds none is never cut, so the last pass still examines every pair. Measured with the
/// bench binary's `--child 10000 R` runs (`cargo bench --bench pairing -- 10000`), CPU:
/// round 3 1.52 -> 1.35 s, round 9 1.64 -> 1.55 s, round 5 unchanged (its passes are never
/// cut; capping them too cost it two more passes, +20%).
const ENOUGH: usize = 2;

/// How many partners per player of the field a pass whose list was cut skips for having
/// plenty of improving pairs before [`price`] rebuilds its maxima without them. (In the
/// bench binary's `--child 100000 3` the first two whole-field passes listed 33.6 and
/// 15.8 million partners, 27.2 and 9.4 million of them only to skip them; rebuilt so,
/// 7.2 million each, and the same pairs were found.)
const REBUILT_AFTER: usize = 4;

/// At most this many pairs per player enter the solve from one pricing pass.
const PER_PLAYER: usize = 8;

/// [`PER_PLAYER`] in fold order, where a score group's solve takes ten or more passes
/// (its optimum pairs players far from the first candidates). With 24 instead of 8, the
/// slowest round of three 10,000-player events in fold order (`SimConfig::random(9500..=
/// 9502, …)`, a temporary release test) went from 3.7, 1.2 and 4.4 s to 1.5, 0.87 and
/// 4.1 s. In the bench's adjacent-colour-rows event it made no difference to time
/// (`--child 100000 3`: 8.3 against 7.6 s) but took 120 MiB more memory.
const FOLD_PER_PLAYER: usize = 24;

/// The point `C` of fold order's tangent bound in [`price`]: partners `t` places from
/// the pivot are listed while `2Ct − C²` leaves room, rather than `t`. The slack a
/// pricing pass meets in fold order is worth hundreds of order units, so `t` listed
/// hundreds of partners per pivot, `2Ct − C²` a few dozen. Measured at commit cffed63
/// with a temporary release test (`SimConfig::random(9500..=9502)`, fold order, 10,000
/// players; slowest round):
/// C = 0 (plain `t`) 1.04 / 0.54 / 2.6 s, 32: 0.52 / 0.40 / 1.75 s, 64: 0.61 / 0.48 /
/// 1.53 s, 256: 1.16 / 0.78 / 1.66 s.
const FOLD_TANGENT: u64 = 64;

/// The optimum's blossoms (those with a non-zero dual) as a tree over the players, laid
/// out so that each blossom's players are one run of [`Laminar::order`]. Nodes: vertex
/// `v` is `v`, blossom `b` is `vertices + b`, and the root (no blossom) comes last.
struct Laminar<W> {
    /// Every vertex, depth first through the family.
    order: Vec<usize>,
    /// Each vertex's place in `order`.
    at: Vec<usize>,
    /// Each node's run of `order`.
    span: Vec<(usize, usize)>,
    children: Vec<Vec<usize>>,
    /// The doubled duals of each node's blossom and every blossom around it (0 at the root).
    z_above: Vec<W>,
    vertices: usize,
}

impl<W: Weight> Laminar<W> {
    fn new(opt: &super::blossom::Optimum<W>) -> Laminar<W> {
        let (parent, innermost, z) = opt.laminar();
        let vertices = innermost.len();
        let root = vertices + parent.len();
        let mut children = vec![Vec::new(); root + 1];
        for (v, b) in innermost.iter().enumerate() {
            children[b.map_or(root, |b| vertices + b)].push(v);
        }
        for (b, p) in parent.iter().enumerate() {
            children[p.map_or(root, |p| vertices + p)].push(vertices + b);
        }
        let mut order = Vec::with_capacity(vertices);
        let mut span = vec![(0, 0); root + 1];
        let mut z_above = vec![W::ZERO; root + 1];
        // Depth first without recursion (blossoms nest hundreds deep).
        let mut stack = vec![(root, 0usize)];
        span[root].0 = 0;
        while let Some(top) = stack.last_mut() {
            let (node, next) = *top;
            if let Some(&child) = children[node].get(next) {
                top.1 += 1;
                span[child].0 = order.len();
                if child < vertices {
                    order.push(child);
                    span[child].1 = order.len();
                } else {
                    z_above[child] = z_above[node] + z[child - vertices];
                    stack.push((child, 0));
                }
            } else {
                span[node].1 = order.len();
                stack.pop();
            }
        }
        let mut at = vec![0; vertices];
        for (place, &v) in order.iter().enumerate() {
            at[v] = place;
        }
        Laminar {
            order,
            at,
            span,
            children,
            z_above,
            vertices,
        }
    }

    /// The blossoms and the root: the nodes whose children can be paired across.
    fn inner_nodes(&self) -> std::ops::Range<usize> {
        self.vertices..self.children.len()
    }

    /// Vertices in a node.
    fn size(&self, node: usize) -> usize {
        self.span[node].1 - self.span[node].0
    }
}

/// One block's players (in the family's order) as a segment tree whose every node keeps
/// its players sorted by pairing place; with a [`Maxima`] over it (the best `key −
/// f·place` among a node's players after any place, the best `key + f·place` among those
/// before it), the partners of player `i` in a run of the block that pass `key[j] − f·|j
/// − i| > floor` are listed in time proportional to their number times the tree's
/// depth: `i`'s place among a node's players is searched for at the root only and
/// carried down to each child through `left`, not searched for again (fractional
/// cascading).
struct BlockIndex {
    leaves: usize,
    /// Per node: its players' pairing places, ascending.
    place: Vec<Vec<usize>>,
    /// Per inner node: how many of its first `k` players (`k` = 0..=len) are its left
    /// child's.
    left: Vec<Vec<u32>>,
}

/// The best values over a [`BlockIndex`] for one set of keys (see
/// [`BlockIndex::maxima`]).
struct Maxima<W> {
    /// Per node: the largest `key − f·place` from each entry to the end.
    after: Vec<Vec<W>>,
    /// Per node: the largest `key + f·place` from the start to each entry.
    before: Vec<Vec<W>>,
    /// Per leaf: its player's key.
    key: Vec<W>,
}

impl<W: Weight> Maxima<W> {
    /// The largest key at leaves `from..to`.
    fn best_key(&self, from: usize, to: usize) -> Option<W> {
        self.key[from.min(to)..to].iter().copied().max()
    }
}

impl BlockIndex {
    fn new(players: impl ExactSizeIterator<Item = usize>) -> BlockIndex {
        let leaves = players.len().next_power_of_two();
        let mut place = vec![Vec::new(); 2 * leaves];
        let mut left = vec![Vec::new(); leaves];
        for (k, v) in players.enumerate() {
            place[leaves + k].push(v);
        }
        for node in (1..leaves).rev() {
            let (a, b) = (&place[2 * node], &place[2 * node + 1]);
            let mut merged = Vec::with_capacity(a.len() + b.len());
            let mut from_left = Vec::with_capacity(a.len() + b.len() + 1);
            from_left.push(0u32);
            let (mut x, mut y) = (0, 0);
            while x < a.len() || y < b.len() {
                if y == b.len() || (x < a.len() && a[x] < b[y]) {
                    merged.push(a[x]);
                    x += 1;
                } else {
                    merged.push(b[y]);
                    y += 1;
                }
                from_left.push(u32::try_from(x).expect("fewer than 2^32 players"));
            }
            place[node] = merged;
            left[node] = from_left;
        }
        BlockIndex {
            leaves,
            place,
            left,
        }
    }

    /// The maxima for keys `key` (`None`: the player is never listed) and places weighed
    /// by `at`; `never` must lie below every floor [`BlockIndex::passing`] is given.
    fn maxima<W: Weight>(
        &self,
        key: impl Fn(usize) -> Option<W>,
        at: impl Fn(usize) -> W,
        never: W,
    ) -> Maxima<W> {
        let mut after = vec![Vec::new(); 2 * self.leaves];
        let mut before = vec![Vec::new(); 2 * self.leaves];
        for node in 1..2 * self.leaves {
            let ps = &self.place[node];
            let mut suffix = vec![never; ps.len()];
            let mut best = never;
            for (k, &v) in ps.iter().enumerate().rev() {
                if let Some(x) = key(v) {
                    best = best.max(x - at(v));
                }
                suffix[k] = best;
            }
            let mut prefix = Vec::with_capacity(ps.len());
            let mut best = never;
            for &v in ps {
                if let Some(x) = key(v) {
                    best = best.max(x + at(v));
                }
                prefix.push(best);
            }
            after[node] = suffix;
            before[node] = prefix;
        }
        let key = (0..self.leaves)
            .filter_map(|k| self.place[self.leaves + k].first())
            .map(|&v| key(v).unwrap_or(never))
            .collect();
        Maxima { after, before, key }
    }

    /// Appends, ascending, every leaf in `range` whose player `j` passes under `m`:
    /// `key[j] − f·j > floors.0` when `j` comes after `i` in pairing order, `key[j] +
    /// f·j > floors.1` when before (only if `earlier`).
    fn passing<W: Weight>(
        &self,
        m: &Maxima<W>,
        range: std::ops::Range<usize>,
        i: usize,
        floors: (W, W),
        earlier: bool,
        out: &mut Vec<usize>,
    ) {
        // Depth first from the root, left child first, skipping nodes outside the range
        // or none of whose players can pass. `s` counts the node's players before i.
        let s = self.place[1].partition_point(|&v| v < i);
        let mut stack = vec![(1usize, 0usize, self.leaves, s)];
        while let Some((node, lo, hi, s)) = stack.pop() {
            if hi <= range.start || lo >= range.end {
                continue;
            }
            let len = self.place[node].len();
            let later = s < len && m.after[node][s] > floors.0;
            let before = earlier && s > 0 && m.before[node][s - 1] > floors.1;
            if !later && !before {
                continue;
            }
            if node >= self.leaves {
                out.push(node - self.leaves);
                continue;
            }
            let mid = (lo + hi) / 2;
            let in_left = self.left[node][s] as usize;
            stack.push((2 * node + 1, mid, hi, s - in_left));
            stack.push((2 * node, lo, mid, in_left));
        }
    }
}

/// The pairs already among the solver's edges, `i < j` packed into one `u64`.
#[derive(Default)]
struct PairSet(std::collections::HashSet<u64, std::hash::BuildHasherDefault<PairHasher>>);

impl PairSet {
    fn key(a: usize, b: usize) -> u64 {
        ((a.min(b) as u64) << 32) | a.max(b) as u64
    }

    /// Adds the pair; false when it was there already.
    fn insert(&mut self, a: usize, b: usize) -> bool {
        self.0.insert(Self::key(a, b))
    }

    fn contains(&self, a: usize, b: usize) -> bool {
        self.0.contains(&Self::key(a, b))
    }
}

/// A multiplicative hash for packed pair keys: the set is probed for every pair pricing
/// considers, and the keys are not attacker-chosen (player indices of one pool).
#[derive(Default)]
struct PairHasher(u64);

impl std::hash::Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, k: u64) {
        self.0 = (k ^ (k >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 ^= self.0 >> 32;
    }
}

/// One pairing's cost criterion by criterion (docs/rules.md §2.3), highest priority first,
/// so a stored round can be compared with the optimum level by level (`check --optimal`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Criteria {
    /// Tables breaking a hard rule (rematch, colour limits, team avoidance) the field does
    /// not relax: 0 when legal.
    pub illegal: u32,
    /// Breaks of each rule the field relaxes, the rule weighed most first (the last of
    /// its `relax` list, docs/rules.md §2.5); colour-limit breaks as the colours are
    /// seated. Empty for a strict field.
    pub broken: Vec<(Relax, i128)>,
    /// The bye's tier in `pairing.bye`'s order (0 = the first); `None` in an even field.
    pub bye_tier: Option<usize>,
    /// Players crossing each score-group boundary, from the top (boundary k lies below
    /// score group k).
    pub crossings: Vec<u32>,
    /// Sum over tables of the squared score difference (近分者编对).
    pub score_diff_sq: i128,
    /// Players not given the colour they are due.
    pub colour_misses: i128,
    /// Players floating the same way as in the previous round (the bye counts as down).
    pub repeat_floats: i128,
    /// Distance from the rulebook's within-group order, summed over tables.
    pub order: i128,
}

/// A criterion of [`Criteria`], named where a stored round first does worse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// Tables breaking a hard rule (rematch, colour limits, team avoidance) not relaxed.
    HardRules,
    /// Breaks of a rule relaxed for want of a legal pairing.
    Relaxed(Relax),
    /// The bye's tier in `pairing.bye`'s order.
    Bye,
    /// Crossings of the boundary below score group `k`.
    ScoreGroup(usize),
    /// Squared score differences of the tables.
    ScoreDiff,
    /// Players not given their due colour.
    Colours,
    /// Players floating the same way twice in a row.
    RepeatFloats,
    /// Distance from the within-group order.
    Order,
}

impl Criteria {
    /// The first criterion, highest priority first, on which `self` is worse than `best`
    /// (`None` when it is no worse on any).
    pub fn first_worse(&self, best: &Criteria) -> Option<Criterion> {
        let levels = self.levels();
        let theirs = best.levels();
        levels
            .iter()
            .zip(&theirs)
            .find(|(a, b)| a.1 != b.1)
            .filter(|(a, b)| a.1 > b.1)
            .map(|(a, _)| a.0)
    }

    /// Every level with its value as one comparable number, in priority order.
    pub fn levels(&self) -> Vec<(Criterion, i128)> {
        let mut out = vec![(Criterion::HardRules, i128::from(self.illegal))];
        out.extend(
            self.broken
                .iter()
                .map(|&(rule, n)| (Criterion::Relaxed(rule), n)),
        );
        out.push((Criterion::Bye, self.bye_tier.map_or(0, |t| t as i128)));
        out.extend(
            self.crossings
                .iter()
                .enumerate()
                .map(|(k, &c)| (Criterion::ScoreGroup(k), i128::from(c))),
        );
        out.extend([
            (Criterion::ScoreDiff, self.score_diff_sq),
            (Criterion::Colours, self.colour_misses),
            (Criterion::RepeatFloats, self.repeat_floats),
            (Criterion::Order, self.order),
        ]);
        out
    }
}

/// The [`Criteria`] of a pairing of `field`: `tables` as (red, black) indices, `bye` the
/// index taking the bye. Colour misses count the colours as given, not as §3.3 would
/// give them, so a hand-swapped colour shows.
pub fn criteria(field: &Field, tables: &[(usize, usize)], bye: Option<usize>) -> Criteria {
    let mut out = Criteria {
        illegal: 0,
        broken: field.relax.iter().rev().map(|&rule| (rule, 0)).collect(),
        bye_tier: None,
        crossings: vec![0; field.scores.len().saturating_sub(1)],
        score_diff_sq: 0,
        colour_misses: 0,
        repeat_floats: 0,
        order: 0,
    };
    let miss = |p: &PlayerState, c: Colour| i128::from(p.due().is_some_and(|d| d != c));
    for &(r, b) in tables {
        let t = field.pair_terms(r, b);
        // Colour limits as the table is seated: colours turned round can break them at a
        // pair that could be seated legally.
        let seated = field.rules.colour_breaks(&field.players[r], Colour::Red)
            + field.rules.colour_breaks(&field.players[b], Colour::Black);
        let colour_hard = seated > 0 && !field.relax.contains(&Relax::Colour);
        out.illegal += u32::from(!field.legal(r, b) || colour_hard);
        for (rule, n) in &mut out.broken {
            *n += i128::from(match rule {
                Relax::Colour => seated,
                _ => field.rules.breaks_of(field.seat(r), field.seat(b), *rule),
            });
        }
        for c in &mut out.crossings[t.top..t.bottom] {
            *c += 1;
        }
        out.score_diff_sq += t.sq;
        out.colour_misses +=
            miss(&field.players[r], Colour::Red) + miss(&field.players[b], Colour::Black);
        out.repeat_floats += t.floats;
        out.order += t.order;
    }
    if let Some(i) = bye {
        out.bye_tier = bye_tiers(field).iter().position(|t| t.contains(&i));
        out.repeat_floats += i128::from(field.players[i].last_float == Some(Float::Down));
        out.order += field.players.len() as i128 - i as i128;
    }
    out
}

/// Who blocks a pairing of the field: every player some maximum matching leaves over.
fn stuck(field: &Field) -> Stuck {
    Stuck {
        unmatched: left_over(field.players.len(), &|a, b| field.legal(a, b)),
        too_wide: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(top: usize, bottom: usize, sq: i128, misses: i128, order: i128) -> Terms {
        Terms {
            top,
            bottom,
            sq,
            misses,
            floats: 2,
            order,
            broken: [0; RELAX_LEVELS],
        }
    }

    /// A term of exactly one repeated float and nothing else.
    fn one_float(last: usize) -> Terms {
        Terms {
            floats: 1,
            ..t(last, last, 0, 0, 0)
        }
    }

    /// (one unit of a criterion, the largest term of everything below it); `items` of
    /// the latter (the most one solution can sum) must still cost less.
    fn assert_lexicographic<W: Weight>(enc: &Encoder<W>, items: u64, last: usize, b: &Terms) {
        let low_of = |high: &Terms| {
            let mut low = *b;
            if high.bottom > high.top {
                low.top = high.bottom;
                low.bottom = last;
                return low;
            }
            low.top = last;
            low.bottom = last;
            low.sq = 0;
            if high.sq == 0 {
                low.misses = 0;
                if high.misses == 0 {
                    low.floats = 0;
                }
            }
            low
        };
        let zero = |x: Terms| Terms { floats: 0, ..x };
        let mut highs: Vec<Terms> = (0..last).map(|k| zero(t(k, k + 1, 0, 0, 0))).collect();
        highs.push(zero(t(last, last, 1, 0, 0)));
        highs.push(zero(t(last, last, 0, 1, 0)));
        highs.push(one_float(last));
        for high in highs {
            let low = low_of(&high);
            let sum = enc.cost(&low).mul_small(items).expect("fits");
            assert!(enc.cost(&high) > sum, "{high:?} vs {items} × {low:?}");
        }
    }

    #[test]
    fn weights_are_lexicographic() {
        let b = t(0, 0, 64, 2, 40);
        let enc = Encoder::<i128>::exact(&b, &[6, 6, 6], &[], 6).unwrap();
        assert_lexicographic(&enc, 6, 3, &b);
    }

    /// docs/rules.md §2.5: one break of a relaxed rule outweighs everything below it in one
    /// solution (every lower relaxed level at its cap, every boundary at its cap, and the
    /// largest score, colour and order terms on every item); a strict encoder has no such
    /// level and weighs a pair exactly as before.
    #[test]
    fn relaxed_rules_outweigh_every_criterion() {
        let b = t(0, 0, 64, 2, 40);
        let caps = [6, 6, 6];
        let broken_caps = [24, 6, 6];
        let items = 7u64;
        let enc = Encoder::<i128>::exact(&b, &caps, &broken_caps, items as usize).unwrap();
        let strict = Encoder::<i128>::exact(&b, &caps, &[], items as usize).unwrap();
        assert!(strict.unit_broken.is_empty());
        let mut below = enc.cost(&b) * i128::from(items);
        for (k, &cap) in caps.iter().enumerate() {
            below += enc.unit_boundary[k] * cap;
        }
        for (k, &cap) in broken_caps.iter().enumerate() {
            assert!(enc.unit_broken[k] > below, "relaxed level {k}");
            below += enc.unit_broken[k] * cap;
        }
        let pair = t(1, 3, 16, 1, 5);
        assert_eq!(enc.cost(&pair), strict.cost(&pair), "no break, same weight");
    }

    /// The field of round `next` of a simulated event (numbers drawn with `seed`).
    fn next_field(
        sim: &crate::pairing::simulate::SimulatedEvent,
        next: u32,
        seed: u64,
    ) -> Field<'_> {
        let (event, rules, group) = (&sim.event, &sim.rules, &sim.group);
        let numbers = super::super::assign_numbers(event, rules, group, next, seed);
        let history = super::super::History::build(event, rules, group, next, &numbers);
        let pairable: Vec<_> = event
            .players_in(group)
            .filter(|p| p.pairable_in(next))
            .collect();
        let (states, ctx) = super::super::pairing_input(&pairable, rules, group, next, &history);
        Field::new(ctx, states)
    }

    /// Pricing lists partners under lower bounds of their cost (score groups, due
    /// colours, distance from the pivot, fold order's tangent): a bound that is ever too
    /// high hides an improving pair. From a deliberately poor start (each player's nearest
    /// legal pairs and a legal pairing of everyone), every pass is checked against every
    /// legal pair: what it adds improves, it adds something while anything improves, and
    /// once no more improve than the field has players, it adds exactly those (all
    /// kept, see [`price`]).
    #[test]
    fn every_pricing_pass_finds_what_improves() {
        use crate::pairing::simulate::synthetic_mid_event;
        let orders = [
            WithinGroup::FoldTopBottom,
            WithinGroup::AdjacentColourRows,
            WithinGroup::Adjacent,
        ];
        let mut complete = 0;
        for order in orders {
            for seed in 0..3u64 {
                let mut sim = synthetic_mid_event(240, 2 + seed as u32, 9, 40 + seed);
                sim.rules.pairing.within_group = order;
                let field = next_field(&sim, 3 + seed as u32, seed);
                let n = field.players.len();
                if n % 2 == 1 {
                    continue;
                }
                let (_, hint) = bye_and_hint(&field).expect("pairable");
                let enc = field_encoder::<i128>(&field).expect("wide enough");
                let weight = |i: usize, j: usize| -enc.cost(&field.pair_terms(i, j));
                let mut seen = PairSet::default();
                let mut edges = Vec::new();
                let mut push = |i: usize, j: usize, edges: &mut Vec<_>| {
                    if i != j && seen.insert(i, j) && field.legal(i, j) {
                        edges.push((i.min(j), i.max(j), weight(i, j)));
                    }
                };
                for (i, &j) in hint.iter().enumerate() {
                    push(i, j, &mut edges);
                }
                for i in 0..n {
                    for j in (i + 1..n).filter(|&j| field.legal(i, j)).take(2) {
                        push(i, j, &mut edges);
                    }
                }
                let mut solver = PerfectMatcher::cold(n, &edges);
                for pass in 0.. {
                    let mut opt = solver.solve_partial();
                    assert!(opt.perfect(), "the hint pairs everyone");
                    balance_duals(&mut opt, n, &edges);
                    assert_eq!(opt.certify(&edges), Ok(()), "certified pass {pass}");
                    let mut improving = std::collections::BTreeSet::new();
                    for i in 0..n {
                        for j in i + 1..n {
                            if !seen.contains(i, j)
                                && field.legal(i, j)
                                && opt.slack(i, j, weight(i, j)) < 0
                            {
                                improving.insert((i, j));
                            }
                        }
                    }
                    let mut found = Vec::new();
                    price(&field, &enc, &opt, &seen, &mut found);
                    let listed: std::collections::BTreeSet<_> =
                        found.iter().map(|&(i, j, _)| (i, j)).collect();
                    let what = format!("{order:?} seed {seed} pass {pass}");
                    assert!(listed.is_subset(&improving), "{what}: adds what improves");
                    assert_eq!(listed.is_empty(), improving.is_empty(), "{what}");
                    if improving.len() <= n {
                        assert_eq!(listed, improving, "{what}: every improving pair");
                        complete += usize::from(!improving.is_empty());
                    }
                    if found.is_empty() {
                        break;
                    }
                    for (i, j, w) in found {
                        seen.insert(i, j);
                        edges.push((i, j, w));
                    }
                    // From this optimum's duals (the warm continuation's fault on large
                    // batches is `price_to_optimum`'s to catch, not this test's).
                    solver = PerfectMatcher::warm(n, &edges, &opt.warm_duals(), &opt.mate);
                }
            }
        }
        assert!(complete >= 6, "passes compared in full: {complete}");
    }

    /// Score groups' pieces and solves are jobs whichever thread is free takes, and
    /// pricing splits its work into two halves fixed by the field alone, all on two
    /// threads for large fields: a 900-player field (solved from pieces of 100, then
    /// priced) pairs the same, table for table, on two threads and on one.
    #[test]
    fn threads_do_not_change_the_pairing() {
        use crate::pairing::simulate::synthetic_mid_event;
        let sim = synthetic_mid_event(900, 3, 9, 11);
        let field = next_field(&sim, 4, 11);
        let (bye, hint) = bye_and_hint(&field).expect("pairable");
        let enc = field_encoder::<I256>(&field).expect("wide enough");
        let runs = [true, false].map(|threads| {
            THREADS.with(|t| t.set(Some(threads)));
            // Pieces of 100 players, so pieces and the groups' solves from them are
            // jobs for both threads.
            PIECE_LEN.with(|p| p.set(Some(100)));
            let solved = priced(&field, &bye, &hint, false, &enc);
            PIECE_LEN.with(|p| p.set(None));
            THREADS.with(|t| t.set(None));
            (solved.pairs, solved.bye)
        });
        assert_eq!(runs[0].0.len(), 450, "everyone paired");
        assert_eq!(runs[0], runs[1]);
    }

    /// Score groups cut into pieces (pieces of 40 players here, of 4,000 in real use),
    /// including pieces that take in players for those barred from one colour and pieces
    /// that cannot pair everyone, under each within-group order (fold order prices a
    /// piece by its places in the whole group), start a solve that ends at the dense
    /// optimum: the same packed cost (every criterion, level by level) as every legal
    /// pair solved at once (and, as in every debug solve, a certificate over every legal
    /// pair).
    #[test]
    fn pieces_of_score_groups_reach_the_dense_optimum() {
        use crate::pairing::simulate::synthetic_mid_event;
        let mut cut = 0;
        // Every within-group order: a stretch priced alone keeps its group's places.
        let orders = [
            WithinGroup::AdjacentColourRows,
            WithinGroup::FoldTopBottom,
            WithinGroup::Adjacent,
        ];
        for ((seed, round), order) in [(3, 3), (5, 5), (7, 9)].into_iter().zip(orders) {
            let mut sim = synthetic_mid_event(480, round - 1, 9, seed);
            sim.rules.pairing.within_group = order;
            let field = next_field(&sim, round, seed);
            let bars = colour_bars(&field);
            let mut at = 0;
            for &size in &field.group_size {
                cut += usize::from(size > 40 && unpairable(&bars[at..at + 40]) > 0);
                at += size;
            }
            let (bye, hint) = bye_and_hint(&field).expect("pairable");
            let enc = field_encoder::<i128>(&field).expect("wide enough");
            THREADS.with(|t| t.set(Some(false)));
            PIECE_LEN.with(|p| p.set(Some(40)));
            let pieces = priced(&field, &bye, &hint, false, &enc);
            PIECE_LEN.with(|p| p.set(None));
            THREADS.with(|t| t.set(None));
            let dense = priced(&field, &bye, &hint, true, &enc);
            // The packed cost of a solution, as the solver weighs it (colours by due
            // colour: the pairs are not oriented yet).
            let cost = |s: &Solved| {
                let pairs: i128 = s
                    .pairs
                    .iter()
                    .map(|&(a, b)| enc.cost(&field.pair_terms(a, b)))
                    .sum();
                let bye = s.bye.map_or(0, |i| {
                    let g = field.group[i];
                    enc.cost(&Terms {
                        top: g,
                        bottom: g,
                        sq: 0,
                        misses: 0,
                        floats: i128::from(field.players[i].last_float == Some(Float::Down)),
                        order: field.players.len() as i128 - i as i128,
                        broken: [0; RELAX_LEVELS],
                    })
                });
                pairs + bye
            };
            assert_eq!(cost(&pieces), cost(&dense), "seed {seed}, round {round}");
        }
        assert!(
            cut > 0,
            "a first piece lacks partners for its barred players"
        );
    }

    /// Each cut counts the bracket pairs with one player on each side of it; players due
    /// neither colour and the unmatched surplus of one colour split nothing.
    #[test]
    fn bracket_crossings_count_the_pairs_each_cut_splits() {
        // Due red, red, black, black, none, red, black: brackets (1, 2), (0, 3), (5, 6).
        let classes = [0, 0, 1, 1, 2, 0, 1];
        assert_eq!(bracket_crossings(&classes), vec![0, 1, 2, 1, 0, 0, 1, 0]);
        // More of one colour: the unmatched ones split nothing.
        assert_eq!(bracket_crossings(&[0, 0, 0, 1]), vec![0, 0, 0, 1, 0]);
        assert_eq!(bracket_crossings(&[]), vec![0]);
    }

    /// A score group opening with players barred from one colour beyond what the rest of
    /// its first piece can pair: that piece takes in the free players after them, up to
    /// where it can pair everyone, and the group's other pieces follow.
    #[test]
    fn pieces_take_in_the_players_their_barred_block_needs() {
        // 30 barred players (two barred from red, due black, for each one barred from
        // black, due red), then 30 free ones due red and black in turn.
        let mut classes = Vec::new();
        let mut bar = Vec::new();
        for _ in 0..10 {
            classes.extend([1, 1, 0]);
            bar.extend([2, 2, 1]);
        }
        for k in 0..30 {
            classes.push(k % 2);
            bar.push(0);
        }
        assert_eq!(unpairable(&bar[..30]), 10);
        // Pieces of 20: no cut within a quarter of 20 can pair its first piece; 10 free
        // players after the block can.
        assert_eq!(piece_cuts(&classes, &bar, 3), vec![0, 40, 60]);
        // Without bars the even cuts stand (the due colours balance there).
        let free = vec![0; 60];
        let cuts = piece_cuts(&classes, &free, 3);
        assert_eq!(cuts.len(), 4);
        assert_eq!((cuts[0], cuts[3]), (0, 60));
    }

    /// Cutting where the sides' due colours balance costs no extra miss; elsewhere each
    /// side's excess beyond its players without a due colour does.
    #[test]
    fn extra_misses_count_what_pairing_apart_costs() {
        // 12 due red, 12 due black, 8 due red, 8 due black, then 2 without a due colour.
        let mut classes = vec![0; 12];
        classes.extend([1; 12]);
        classes.extend([0; 8]);
        classes.extend([1; 8]);
        classes.extend([2; 2]);
        let tally = Tally::new(&classes, &vec![0; classes.len()]);
        assert_eq!(tally.extra_misses(0, 24, 42), 0);
        // Left 4 due red over; right 4 due black over, less the 2 without a due colour.
        assert_eq!(tally.extra_misses(0, 20, 42), 4 + 2);
        // The two without a due colour absorb part of the right side's excess.
        assert_eq!(tally.excess(32, 42), 6);
        assert_eq!(tally.extra_misses(0, 36, 42), 4 + 2);
        assert_eq!(tally.unpairable(0, 42), 0);
        // Pieces of 21 are cut where the colours balance, not at the even cut.
        assert_eq!(piece_cuts(&classes, &vec![0; classes.len()], 2)[1], 24);
    }

    /// A block's walk lists exactly the leaves a brute-force filter keeps, ascending,
    /// with every player's key and with some players masked out of the maxima.
    #[test]
    fn block_walks_list_exactly_the_passing_partners() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        for case in 0..300 {
            let n = rng.gen_range(1..=70);
            // A block: some players of a field of n, in a shuffled (family) order.
            let mut players: Vec<usize> = (0..n).filter(|_| rng.gen_bool(0.6)).collect();
            for k in (1..players.len()).rev() {
                players.swap(k, rng.gen_range(0..=k));
            }
            let keys: Vec<i64> = (0..n).map(|_| rng.gen_range(-200..200)).collect();
            let masked: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.3)).collect();
            let step = rng.gen_range(0..4i64);
            let at = |v: usize| step * v as i64;
            let never = -keys.iter().copied().max().unwrap_or(0) - at(n) - 1;
            let tree = BlockIndex::new(players.iter().copied());
            let full = tree.maxima(|v| Some(keys[v]), at, never);
            let part = tree.maxima(|v| (!masked[v]).then(|| keys[v]), at, never);
            for _ in 0..20 {
                let i = rng.gen_range(0..n);
                // As in `price`: a cost bound and blossom duals (never negative) less
                // i's key.
                let floor = rng.gen_range(0..250) - keys[i];
                let floors = (floor - at(i), floor + at(i));
                let earlier = rng.gen_bool(0.5);
                let from = rng.gen_range(0..=players.len());
                let to = rng.gen_range(from..=players.len());
                for (m, skip) in [(&full, false), (&part, true)] {
                    let mut got = Vec::new();
                    tree.passing(m, from..to, i, floors, earlier, &mut got);
                    let want: Vec<usize> = (from..to)
                        .filter(|&k| {
                            let j = players[k];
                            !(skip && masked[j])
                                && if j >= i {
                                    keys[j] - at(j) > floors.0
                                } else {
                                    earlier && keys[j] + at(j) > floors.1
                                }
                        })
                        .collect();
                    assert_eq!(got, want, "case {case}: player {i}, leaves {from}..{to}");
                }
            }
        }
    }

    /// The halves come back first half first, whichever thread finishes first (the
    /// first half here is the slow one), so timing never reorders what is found.
    #[test]
    fn priced_keys_sort_by_slack_then_players() {
        let slacks = [
            -3.5e40,
            -2.0,
            -1.0,
            -0.0,
            0.0,
            f64::MIN_POSITIVE,
            1.0,
            7.25e30,
            f64::NEG_INFINITY,
            f64::INFINITY,
        ];
        let mut tuples = Vec::new();
        for (k, &s) in slacks.iter().enumerate() {
            for (x, y) in [(0, 1), (3, 9), (0, u32::MAX as usize - 1), (k, k + 2)] {
                tuples.push((s, x, y));
            }
        }
        let mut keys: Vec<u128> = tuples
            .iter()
            .map(|&(s, x, y)| priced_key(s, x, y))
            .collect();
        keys.sort_unstable();
        tuples.sort_by(|a, b| a.0.total_cmp(&b.0).then((a.1, a.2).cmp(&(b.1, b.2))));
        let back: Vec<(usize, usize)> = keys.iter().map(|&k| priced_players(k)).collect();
        let want: Vec<(usize, usize)> = tuples.iter().map(|&(_, x, y)| (x, y)).collect();
        assert_eq!(back, want);
        assert!(priced_key(-0.0, 5, 6) < priced_key(0.0, 5, 6));
    }

    #[test]
    fn both_halves_keep_their_order() {
        let half = |h: usize| {
            if h == 0 {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            vec![h; 3]
        };
        assert_eq!(both_halves(true, half), vec![0, 0, 0, 1, 1, 1]);
        assert_eq!(both_halves(false, half), vec![0, 0, 0, 1, 1, 1]);
    }

    /// The solver is generic over the weight type and each field takes the narrowest
    /// that holds its criteria, so most types would only meet huge fields: here one
    /// field that needs more than `i128` (301 players, round 16) is paired in every wider
    /// type, with the same tables and bye.
    #[test]
    fn every_wide_type_pairs_a_field_alike() {
        use crate::pairing::simulate::synthetic_mid_event;
        let sim = synthetic_mid_event(301, 15, 16, 7);
        let field = next_field(&sim, 16, 7);
        assert!(
            field_encoder::<i128>(&field).is_none(),
            "needs more than i128"
        );
        let (bye, hint) = bye_and_hint(&field).expect("pairable");
        fn solve<W: Weight>(
            field: &Field,
            bye: &[usize],
            hint: &[usize],
        ) -> (Vec<(usize, usize)>, Option<usize>) {
            let enc = field_encoder::<W>(field).expect("wide enough");
            let solved = priced(field, bye, hint, false, &enc);
            (solved.pairs, solved.bye)
        }
        let narrow = solve::<I192>(&field, &bye, &hint);
        assert!(narrow.1.is_some(), "an odd field: the bye is compared too");
        assert_eq!(solve::<I256>(&field, &bye, &hint), narrow);
        assert_eq!(solve::<I384>(&field, &bye, &hint), narrow);
        assert_eq!(solve::<I512>(&field, &bye, &hint), narrow);
    }

    /// Score groups solved in 64 or 128 bits start the whole field's solve from exactly
    /// the state they reach in its own wider weights: the same duals, pairs, blossoms
    /// and priced pairs, pieces and all.
    #[test]
    fn score_groups_solve_alike_in_every_width() {
        use crate::pairing::simulate::synthetic_mid_event;
        let sim = synthetic_mid_event(700, 4, 9, 11);
        let field = next_field(&sim, 5, 11);
        let enc = field_encoder::<I192>(&field).expect("wide enough");
        let mut edges = Vec::new();
        let mut seen = PairSet::default();
        initial_candidates(&field, NEAR, &mut |i, j| {
            if i != j && seen.insert(i, j) && field.legal(i, j) {
                let w = -enc.cost(&field.pair_terms(i, j));
                edges.push((i.min(j), i.max(j), w));
            }
        });
        let (ranges, local) = group_edges(&field, &edges);
        assert!(
            ranges.iter().any(|&(lo, hi)| hi - lo > 100),
            "a group of pieces"
        );
        THREADS.with(|t| t.set(Some(false)));
        PIECE_LEN.with(|p| p.set(Some(50)));
        let wide = score_groups(&field, &enc, &ranges, &local);
        let by_i64 = narrow_groups::<i64, I192>(&field, &enc, &ranges, &local).expect("fits");
        let by_i128 = narrow_groups::<i128, I192>(&field, &enc, &ranges, &local).expect("fits");
        PIECE_LEN.with(|p| p.set(None));
        THREADS.with(|t| t.set(None));
        for narrow in [by_i64, by_i128] {
            assert_eq!(narrow.len(), wide.len());
            for (a, b) in narrow.iter().zip(&wide) {
                assert_eq!(a.snap, b.snap);
                assert_eq!(a.added, b.added);
            }
        }
    }

    #[test]
    fn levels_never_merge_at_the_extremes() {
        // 100,000 players, 40 rounds of 3/1/0 (121 score groups would be absurd; take the
        // 19 groups of 9 rounds at 2/1/0 and the widest caps a boundary can have).
        let n: i128 = 100_000;
        let groups = 19;
        let caps = vec![n / 2; groups - 1];
        let b = t(0, 0, 18 * 18, 2, n);
        assert!(Encoder::<i128>::exact(&b, &caps, &[], 50_001).is_none());
        let enc = Encoder::<I512>::exact(&b, &caps, &[], 50_001).expect("fits in 512 bits");
        assert_lexicographic(&enc, 50_000, groups - 1, &b);
        // Past 480 bits the encoder refuses rather than merging levels.
        let caps = vec![n / 2; 40];
        assert!(Encoder::<I512>::exact(&b, &caps, &[], 50_001).is_none());
        // A 300-player round 9 already needs more than i128 (every level kept).
        let caps: Vec<i128> = (1..19).map(|k| (k * 16).min(300 - k * 16).max(1)).collect();
        let b = t(0, 0, 18 * 18, 2, 300);
        let wide = Encoder::<i128>::exact(&b, &caps, &[], 151).is_none();
        let enc = Encoder::<I512>::exact(&b, &caps, &[], 151).unwrap();
        assert_lexicographic(&enc, 1, 18, &b);
        assert!(wide, "i128 would have merged levels here");
    }
}
