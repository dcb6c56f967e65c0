//! One pricing pass: the legal pairs left out of the solve whose reduced cost under the
//! optimum's duals is negative, each of which could improve the matching.
//!
//! Owns the lower bounds pricing lists partners by (score groups, due colours, distance
//! from a pivot, fold order's tangent, colour bars and team classes in a relaxed round)
//! and the selection of the most improving few per player. A bound that is ever too high
//! hides an improving pair, so every bound here must stay a true lower bound of the
//! packed cost; and what a pass finds must not depend on threads or timing.

use super::candidates::PairSet;
use super::encode::{Encoder, RELAX_LEVELS, Terms};
use super::field::{Field, colour_class, limit_bars, team_classes};
use super::index::{BlockIndex, Laminar, Maxima};
use super::select::{
    ENDS_AFTER, ENOUGH, FOLD_PER_PLAYER, PER_PLAYER, priced_key, priced_players, select,
};
use super::solve::on_threads;
use crate::model::Relax;
use crate::pairing::blossom::Optimum;
use crate::pairing::wide::Weight;
use crate::threads::both_halves;

/// The legal pairs not yet an edge whose reduced cost under `opt` is below `margin`
/// (those below 0 could each improve the matching; `margin` is 0 but after a pass that
/// changed no pair, see [`super::solve::price_to_optimum`]): at most [`PER_PLAYER`] per
/// player, the most improving first.
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
pub(super) fn price<W: Weight>(
    field: &Field,
    enc: &Encoder<W>,
    opt: &Optimum<W>,
    seen: &PairSet,
    found: &mut Vec<(usize, usize, W)>,
    margin: W,
) -> Priced<W> {
    let n = field.players.len();
    let pass = Pass::new(field, enc, opt, margin);
    let units = work_units(&pass.family);
    let halves = both_halves(on_threads(n), |half| vec![pass.scan(&units, half, seen)]);
    let mut priced_in = Vec::new();
    let mut got = Priced {
        improving: 0,
        most: W::ZERO,
        crowded: false,
    };
    for half in halves {
        priced_in.extend(half.priced_in);
        got.improving += half.negative;
        got.most = got.most.min(half.most);
        got.crowded |= half.crowded;
    }
    // A pass that found few improving pairs (no more than the field has players) keeps
    // them all: near the optimum one player can hold most of them (a floater, whose many
    // pairs with a neighbouring group each improve the matching), and cut to
    // `per_player` it took one pass per `per_player` of them. (In a 10,000-player event
    // in fold order, `SimConfig::random(9500)` in a temporary release test, the whole
    // field's solve after its groups took 23 passes, ten of them adding 24 pairs each;
    // round 3 took 3.7 s, and 1.0 s keeping them all.)
    if priced_in.len() > n {
        select(&mut priced_in, n, pass.per_player);
    }
    for &key in &priced_in {
        let (x, y) = priced_players(key);
        found.push((x, y, -enc.cost(&field.pair_terms(x, y))));
    }
    found.sort_by_key(|&(x, y, _)| (x, field.group[y], pass.class[y], y));
    got
}

/// What a pricing pass found besides its pairs.
#[derive(Debug, Clone, Copy)]
pub(super) struct Priced<W> {
    /// How many pairs it examined whose reduced cost is negative (each could improve the
    /// matching); the other pairs it found lie within its margin.
    pub(super) improving: usize,
    /// The most negative reduced cost among them (0 when none).
    pub(super) most: W,
    /// Whether the pass ended early with a cut list ([`super::select::ENDS_AFTER`]): it
    /// then proves nothing about the pairs it did not examine.
    pub(super) crowded: bool,
}

/// One unit of pricing work: players `from..to` (places in the family's order) of child
/// `c` of blossom `a`, looking for partners elsewhere in `a`; `heavy` is `a`'s largest
/// child, whose players are met from this side only.
#[derive(Debug, Clone, Copy)]
struct Unit {
    a: usize,
    heavy: usize,
    c: usize,
    from: usize,
    to: usize,
}

/// The work of a pass: every (blossom, child but its largest), in runs of [`STRIDE`]
/// players, dealt in chunks of [`CHUNK`] to two halves, each priced by its own thread (on
/// scoped threads for large fields; a split into two runs left one half with most of the
/// work). The split depends only on the family, never on timing, so the pairs found are
/// the same on any machine, threads or not.
fn work_units<W: Weight>(family: &Laminar<W>) -> Vec<Unit> {
    let mut units = Vec::new();
    for a in family.inner_nodes() {
        let kids = &family.children[a];
        let Some(&heavy) = kids.iter().max_by_key(|&&c| family.size(c)) else {
            continue;
        };
        for &c in kids.iter().filter(|&&c| c != heavy) {
            let (c_lo, c_hi) = family.span[c];
            for from in (c_lo..c_hi).step_by(STRIDE) {
                units.push(Unit {
                    a,
                    heavy,
                    c,
                    from,
                    to: (from + STRIDE).min(c_hi),
                });
            }
        }
    }
    units
}

/// What a pass knows before it looks at any pair: the optimum's keys (`key[v] = −y[v]`)
/// and blossoms, the players' blocks (score group × due colour × barred colour × team
/// class) with a [`BlockIndex`] and [`Maxima`] per block, and the cost's lower bounds.
struct Pass<'p, 'r, W: Weight> {
    field: &'p Field<'r>,
    enc: &'p Encoder<W>,
    opt: &'p Optimum<W>,
    n: usize,
    keyv: Vec<W>,
    /// Twice the solver's scale: a power of two whose doublings the solver checked fit in
    /// `W`.
    f: u64,
    class: Vec<usize>,
    bar: Vec<usize>,
    /// `f` times one colour-limit break, when the round relaxes the limits.
    bar_break: Option<W>,
    team: Vec<usize>,
    teams: usize,
    /// `f` times one team-mate pairing, when the round relaxes team avoidance.
    team_break: Option<W>,
    groups: usize,
    family: Laminar<W>,
    /// Per block, its players' places in the family's order.
    places: Vec<Vec<usize>>,
    /// The blocks with players, the only ones visited.
    held: Vec<usize>,
    fold: bool,
    per_player: usize,
    /// Improving pairs after which a player is skipped once the list was cut ([`ENOUGH`]).
    enough: usize,
    trees: Vec<BlockIndex>,
    /// Below every floor: a floor is at least `−key[i] − f·n` (its cost bound and the
    /// blossoms' duals are never negative).
    never: W,
    every: Vec<Maxima<W>>,
    /// In fold order, `f·2C` for the tangent bound ([`FOLD_TANGENT`] = C) when the weight
    /// type holds `2C·f·n`.
    steep: Option<i128>,
    /// `f·C²`, the tangent's offset.
    square: W,
    never_steep: W,
    every_steep: Vec<Maxima<W>>,
    /// `f·(lower bound of the cost)` per pair of score groups ([`group_bounds`]).
    lbs: Vec<W>,
    /// Pairs whose reduced cost is below this, not only below 0, are listed (see
    /// [`super::solve::price_to_optimum`]).
    margin: W,
}

impl<'p, 'r, W: Weight> Pass<'p, 'r, W> {
    fn new(field: &'p Field<'r>, enc: &'p Encoder<W>, opt: &'p Optimum<W>, margin: W) -> Self {
        let n = field.players.len();
        let keyv: Vec<W> = opt.y.iter().map(|&y| -y).collect();
        let f = 2 * opt.scale();
        let class: Vec<usize> = field.players.iter().map(colour_class).collect();
        let bar = limit_bars(field);
        // Two players barred from the same colour: never a pair in a strict round, at
        // least one colour-limit break in a round that relaxes the limits.
        let unit_of = |rule: Relax| {
            let k = field.relax.iter().position(|&r| r == rule)?;
            Some(enc.unit_broken[k].scaled(f))
        };
        let bar_break = unit_of(Relax::Colour);
        let (team, teams) = team_classes(field);
        let team_break = unit_of(Relax::Team);
        let groups = field.scores.len();
        let family = Laminar::new(opt);
        // Blocks (score group, due class, barred colour, team class): their players'
        // places in the family's order; only the blocks with players are visited.
        let block_of = |v: usize| ((field.group[v] * 3 + class[v]) * 3 + bar[v]) * teams + team[v];
        let mut places: Vec<Vec<usize>> = vec![Vec::new(); groups * 9 * teams];
        for (place, &v) in family.order.iter().enumerate() {
            if v < n {
                places[block_of(v)].push(place);
            }
        }
        let held: Vec<usize> = (0..places.len())
            .filter(|&b| !places[b].is_empty())
            .collect();
        let fold = field.fold();
        let per_player = if fold { FOLD_PER_PLAYER } else { PER_PLAYER };
        let trees: Vec<BlockIndex> = places
            .iter()
            .map(|p| BlockIndex::new(p.iter().map(|&place| family.order[place])))
            .collect();
        let at_n = W::from_i128(i128::from(f) * n as i128);
        let never =
            -keyv.iter().copied().max().unwrap_or(W::ZERO) - at_n - margin - W::from_i128(1);
        // In fold order a pair of one score group at `t = |j − (i ± h)|` from its pivot
        // pays `t²` on the order level, at least the tangent `2Ct − C²` ([`FOLD_TANGENT`]
        // = C): its partners are listed under that steeper bound, on maxima built for it,
        // where the weight type holds `2C·f·n` (else under `t`, as other pairs).
        let tangent = FOLD_TANGENT;
        let steep = (fold
            && W::from_i128(i128::from(f))
                .mul_small(2 * tangent * (n as u64 + 1) + tangent * tangent)
                .is_some())
        .then_some(i128::from(f) * i128::from(2 * tangent));
        let square = W::from_i128(i128::from(f) * i128::from(tangent * tangent));
        let never_steep = never - W::from_i128(steep.unwrap_or(0) * n as i128) - square;
        let mut pass = Pass {
            field,
            enc,
            opt,
            n,
            keyv,
            f,
            class,
            bar,
            bar_break,
            team,
            teams,
            team_break,
            groups,
            family,
            places,
            held,
            fold,
            per_player,
            enough: ENOUGH * per_player,
            trees,
            never,
            every: Vec::new(),
            steep,
            square,
            never_steep,
            every_steep: Vec::new(),
            lbs: group_bounds(field, enc, f),
            margin,
        };
        let keyv = &pass.keyv;
        let every = pass.maxima(|v| Some(keyv[v]));
        let every_steep = pass.steep_maxima(|v| Some(keyv[v]));
        (pass.every, pass.every_steep) = (every, every_steep);
        pass
    }

    /// `f` times a cost.
    fn times(&self, w: W) -> W {
        w.scaled(self.f)
    }

    /// `f` times a distance in pairing order.
    fn at(&self, v: usize) -> W {
        W::from_i128(i128::from(self.f) * v as i128)
    }

    /// [`Pass::steep`] times a distance in pairing order (0 without the tangent bound).
    fn at_steep(&self, v: usize) -> W {
        W::from_i128(self.steep.unwrap_or(0) * v as i128)
    }

    fn block_group(&self, block: usize) -> usize {
        block / (9 * self.teams)
    }

    fn block_class(&self, block: usize) -> usize {
        (block / (3 * self.teams)) % 3
    }

    fn block_bar(&self, block: usize) -> usize {
        (block / self.teams) % 3
    }

    fn block_team(&self, block: usize) -> usize {
        block % self.teams
    }

    /// Each block's maxima for the keys `key` (`None`: never listed).
    fn maxima(&self, key: impl Fn(usize) -> Option<W>) -> Vec<Maxima<W>> {
        self.trees
            .iter()
            .map(|t| t.maxima(&key, |v| self.at(v), self.never))
            .collect()
    }

    /// [`Pass::maxima`] under the tangent bound; none without it.
    fn steep_maxima(&self, key: impl Fn(usize) -> Option<W>) -> Vec<Maxima<W>> {
        if self.steep.is_none() {
            return Vec::new();
        }
        self.trees
            .iter()
            .map(|t| t.maxima(&key, |v| self.at_steep(v), self.never_steep))
            .collect()
    }

    /// `f` times a lower bound of the cost of player `i` with any player of `block`: the
    /// score groups' part and a colour miss when both are due the same colour, plus in a
    /// relaxed round a colour-limit break for two players barred from the same colour and
    /// a team-mate pairing for two players of one team class.
    fn lb(&self, i: usize, block: usize) -> W {
        let (g, h) = (self.field.group[i], self.block_group(block));
        let class = self.class[i];
        let miss = usize::from(self.block_class(block) == class && class != 2);
        let mut lb = self.lbs[(g.min(h) * self.groups + g.max(h)) * 2 + miss];
        if let Some(unit) = self.bar_break
            && self.bar[i] != 0
            && self.bar[i] == self.block_bar(block)
        {
            lb = lb + unit;
        }
        if let Some(unit) = self.team_break
            && self.team[i] != 0
            && self.team[i] == self.block_team(block)
        {
            lb = lb + unit;
        }
        lb
    }

    /// How many of `block`'s players come before `place` in the family's order.
    fn index_of(&self, block: usize, place: usize) -> usize {
        self.places[block].partition_point(|&p| p < place)
    }

    /// The pairs that price in among half `half` of `units` ([`priced_key`]s), cut as
    /// [`select`] would whenever the list outgrows a few entries per player.
    fn scan(&self, units: &[Unit], half: usize, seen: &PairSet) -> Found<W> {
        let mut walk = Walk::new(self.n, self.per_player);
        for unit in units.chunks(CHUNK).skip(half).step_by(2).flatten() {
            if walk.node != unit.a {
                self.enter_blossom(&mut walk, unit);
            }
            if walk.child != unit.c {
                walk.child = unit.c;
                walk.ranges.clear();
                walk.ranges.resize(self.held.len(), None);
            }
            // A pass far from the optimum ends once it has plenty (see [`ENDS_AFTER`]).
            if walk.found.crowded && walk.found.skipped > ENDS_AFTER * self.n {
                break;
            }
            for &i in &self.family.order[unit.from..unit.to] {
                if i >= self.n {
                    continue;
                }
                self.price_player(&mut walk, unit, i, seen);
            }
        }
        walk.found
    }

    /// Takes up blossom `unit.a`: per block, its players and those of its largest child as
    /// index ranges (the same for every other child), and the best key of each block
    /// within it, so a player whose key cannot reach it skips the block at once.
    fn enter_blossom(&self, walk: &mut Walk<W>, unit: &Unit) {
        walk.node = unit.a;
        let (lo, hi) = self.family.span[unit.a];
        let (heavy_lo, heavy_hi) = self.family.span[unit.heavy];
        walk.outer = self
            .held
            .iter()
            .map(|&b| {
                let (a_lo, a_hi) = (self.index_of(b, lo), self.index_of(b, hi));
                let (h_lo, h_hi) = (self.index_of(b, heavy_lo), self.index_of(b, heavy_hi));
                (a_lo, a_hi, h_lo, h_hi)
            })
            .collect();
        let maxima = &self.every;
        walk.best = self
            .held
            .iter()
            .zip(&walk.outer)
            .map(|(&b, &(a_lo, a_hi, _, _))| maxima[b].best_key(a_lo, a_hi))
            .collect();
    }

    /// Player `i` of `unit`'s child against every block of the blossom: blocks it cannot
    /// meet or whose best key cannot reach its floor are skipped, the rest list their
    /// passing partners ([`Pass::list_partners`]) to be weighed ([`Pass::weigh`]).
    fn price_player(&self, walk: &mut Walk<W>, unit: &Unit, i: usize, seen: &PairSet) {
        let za = self.family.z_above[unit.a];
        let (maxima, maxima_steep) = (&self.every, &self.every_steep);
        for (bi, (&block, best)) in self.held.iter().zip(&walk.best).enumerate() {
            if self.bar_break.is_none() && self.bar[i] != 0 && self.bar[i] == self.block_bar(block)
            {
                continue;
            }
            let floor = self.lb(i, block) + za - self.keyv[i] - self.margin;
            if best.is_none_or(|m| m <= floor) {
                continue;
            }
            walk.passing.clear();
            let range = *walk.ranges[bi]
                .get_or_insert_with(|| self.runs_outside(unit, block, walk.outer[bi]));
            let maxima = (&maxima[block], maxima_steep.get(block));
            let lists = (&mut walk.passing, &mut walk.side);
            self.list_partners(i, block, floor, &range, maxima, lists);
            self.weigh(&mut walk.found, &walk.passing, unit, block, i, seen);
        }
    }

    /// The blossom's players outside `unit`'s child in `block`, as index ranges: those in
    /// the largest child (met from this side only, partners before and after i, marked
    /// `true`) and those outside it (met from both sides, so only partners after i are
    /// listed; listing both and dropping half was most of pricing's work at the root,
    /// whose children are thousands of single players). Found when a player of the child
    /// first looks into the block: most blocks are skipped on their best key.
    fn runs_outside(
        &self,
        unit: &Unit,
        block: usize,
        (a_lo, a_hi, h_lo, h_hi): (usize, usize, usize, usize),
    ) -> [(usize, usize, bool); 4] {
        let (c_lo, c_hi) = self.family.span[unit.c];
        let heavy_lo = self.family.span[unit.heavy].0;
        let (k_lo, k_hi) = (self.index_of(block, c_lo), self.index_of(block, c_hi));
        // The child and the heavy child are disjoint runs of the blossom (compared as
        // runs: in a block with none of their players the indices coincide).
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
    }

    /// Lists into `passing` `block`'s players in `range` whose key passes `floor` less
    /// the order term's bound: `f·|j − i|` around the pivot `i`, or in fold order, for a
    /// pair of one score group, around the pivots `i + h` (partners after i) and `i − h`
    /// (before it), under the tangent bound where it is built (see [`Pass::steep`]).
    fn list_partners(
        &self,
        i: usize,
        block: usize,
        floor: W,
        range: &[(usize, usize, bool); 4],
        (maxima, maxima_steep): (&Maxima<W>, Option<&Maxima<W>>),
        (passing, side): (&mut Vec<usize>, &mut Vec<usize>),
    ) {
        // Partners after the pivot in pairing order pay f·(j − q), before it f·(q − j).
        let floors = |q: usize| {
            let floors = (floor - self.at(q), floor + self.at(q));
            debug_assert!(
                floors.0 > self.never && floors.1 > self.never,
                "never passes"
            );
            floors
        };
        let half = self.field.group_size[self.field.group[i]] / 2;
        let folded = self.fold && self.block_group(block) == self.field.group[i];
        let tree = &self.trees[block];
        for &(from, to, earlier) in range {
            if from >= to {
                continue;
            }
            if !folded {
                tree.passing(maxima, from..to, i, floors(i), earlier, passing);
                continue;
            }
            // Each pivot's listing keeps the partners on its own side of i.
            let sides = [
                ((i + half).min(self.n), true),
                (i.saturating_sub(half), false),
            ];
            for &(q, later) in &sides[..1 + usize::from(earlier)] {
                side.clear();
                let (m, floors) = match maxima_steep {
                    Some(m) if self.steep.is_some() => {
                        let low = floor - self.square;
                        (m, (low - self.at_steep(q), low + self.at_steep(q)))
                    }
                    _ => (maxima, floors(q)),
                };
                tree.passing(m, from..to, q, floors, true, side);
                passing.extend(
                    side.iter()
                        .filter(|&&k| (self.family.order[self.places[block][k]] > i) == later),
                );
            }
        }
    }

    /// Weighs player `i` against each listed partner (indices into `block`): a pair whose
    /// reduced cost is below the margin, legal and not yet an edge prices in.
    fn weigh(
        &self,
        found: &mut Found<W>,
        passing: &[usize],
        unit: &Unit,
        block: usize,
        i: usize,
        seen: &PairSet,
    ) {
        let za = self.family.z_above[unit.a];
        for &k in passing {
            let j = self.family.order[self.places[block][k]];
            debug_assert!(
                j > i || {
                    let (heavy_lo, heavy_hi) = self.family.span[unit.heavy];
                    (heavy_lo..heavy_hi).contains(&self.family.at[j])
                }
            );
            let (x, y) = (i.min(j), i.max(j));
            // Far from the optimum most pairs improve: once a player has plenty, its
            // further pairs are left for the next pass.
            if found.crowded
                && (found.improving[x] >= self.enough || found.improving[y] >= self.enough)
            {
                found.skipped += 1;
                continue;
            }
            // A is the innermost blossom holding both: its `za` is their Σ z. (Weighed
            // before the pair's rules are read: the weight reads the field's colour facts,
            // the rules the players' opponents and teams behind pointers.)
            let cost = self.times(self.enc.cost(&self.field.pair_terms(x, y)));
            let slack = cost - self.keyv[x] - self.keyv[y] + za;
            debug_assert_eq!(
                slack,
                self.opt
                    .slack(x, y, -self.enc.cost(&self.field.pair_terms(x, y)))
            );
            if slack < self.margin && !seen.contains(x, y) && self.field.legal(x, y) {
                if slack < W::ZERO {
                    found.negative += 1;
                    found.most = found.most.min(slack);
                }
                found.improving[x] += 1;
                found.improving[y] += 1;
                found.priced_in.push(priced_key(slack.approx(), x, y));
                if found.priced_in.len() > found.limit {
                    select(&mut found.priced_in, self.n, self.per_player);
                    found.crowded = true;
                }
            }
        }
    }
}

/// `f·(lower bound of the cost)` for score groups (g, h), g ≤ h, with or without a colour
/// miss, at `(g·groups + h)·2 + miss`: repeated floats, the order and breaks at 0, their
/// least values.
fn group_bounds<W: Weight>(field: &Field, enc: &Encoder<W>, f: u64) -> Vec<W> {
    let groups = field.scores.len();
    let mut lbs = vec![W::ZERO; groups * groups * 2];
    for g in 0..groups {
        for h in g..groups {
            let d = i128::from((field.scores[g] - field.scores[h]).0);
            for miss in 0..2 {
                lbs[(g * groups + h) * 2 + miss] = enc
                    .cost(&Terms {
                        top: g,
                        bottom: h,
                        sq: d * d,
                        misses: miss as i128,
                        floats: 0,
                        order: 0,
                        broken: [0; RELAX_LEVELS],
                    })
                    .scaled(f);
            }
        }
    }
    lbs
}

/// The pairs one half of a pass has found ([`priced_key`]s), kept small: far from the
/// optimum there can be many millions, so whenever the list outgrows a few entries per
/// player it is cut to what the selection at the end would take from it (see [`select`]).
struct Found<W> {
    priced_in: Vec<u128>,
    /// How many of the pairs examined have a negative reduced cost, and the most negative.
    negative: usize,
    most: W,
    limit: usize,
    /// Improving pairs found per player.
    improving: Vec<usize>,
    /// Whether the list was cut yet.
    crowded: bool,
    /// Partners skipped for having plenty, counted once the list was cut.
    skipped: usize,
}

/// One half's walk over its units ([`Pass::scan`]): what it found and what it keeps at
/// hand between players.
struct Walk<W> {
    found: Found<W>,
    /// The partners one block lists, and one pivot's share of them in fold order.
    passing: Vec<usize>,
    side: Vec<usize>,
    /// Per block, the child's runs ([`Pass::runs_outside`]) once found (one buffer for
    /// all: the root alone has thousands of children).
    ranges: Vec<Option<[(usize, usize, bool); 4]>>,
    /// The blossom whose ranges and best keys are at hand, and the child whose ranges are
    /// (a child's players can span many units).
    node: usize,
    child: usize,
    /// Per block, the blossom's players and its largest child's, as index ranges.
    outer: Vec<(usize, usize, usize, usize)>,
    /// Per block, the best key within the blossom.
    best: Vec<Option<W>>,
}

impl<W: Weight> Walk<W> {
    fn new(n: usize, per_player: usize) -> Walk<W> {
        // Twice what the selection keeps per player: with four times, the lists of a
        // crowded pass were the peak of a fold-order round at 100,000 players (`--replay`
        // of round 8 of the chain: 24.8 CPU-s and 2,223 MiB, now 21.8 s and 1,793 MiB;
        // round 9: 21.6 -> 20.5 s, 1,907 -> 1,747 MiB; the CXA chain's rounds 3 and 7
        // unchanged at 11.1 and 11.4 s).
        let limit = 2 * per_player * n.max(1);
        Walk {
            found: Found {
                // The list is cut when it outgrows `limit`, so it never needs more. Grown by
                // doubling, each thread's list reached up to twice that, copied at each
                // growth: rounds 6 and 9 of the 100,000-player fold-order chain peaked at
                // 2,158 and 2,263 MiB, now 1,905 and 1,878 (`--replay`). Pages of the
                // capacity a pass never writes are never touched.
                priced_in: Vec::with_capacity(limit + 1),
                negative: 0,
                most: W::ZERO,
                limit,
                improving: vec![0; n],
                crowded: false,
                skipped: 0,
            },
            passing: Vec::new(),
            side: Vec::new(),
            ranges: Vec::new(),
            node: usize::MAX,
            child: usize::MAX,
            outer: Vec::new(),
            best: Vec::new(),
        }
    }
}

/// Units of pricing work dealt to each half at a time (see [`price`]).
const CHUNK: usize = 64;

/// Players of one blossom's child per unit of pricing work (a child can hold thousands).
const STRIDE: usize = 32;

/// The point `C` of fold order's tangent bound in [`price`]: partners `t` places from
/// the pivot are listed while `2Ct − C²` leaves room, rather than `t`. The slack a
/// pricing pass meets in fold order is worth hundreds of order units, so `t` listed
/// hundreds of partners per pivot, `2Ct − C²` a few dozen. Measured at commit cffed63
/// with a temporary release test (`SimConfig::random(9500..=9502)`, fold order, 10,000
/// players; slowest round):
/// C = 0 (plain `t`) 1.04 / 0.54 / 2.6 s, 32: 0.52 / 0.40 / 1.75 s, 64: 0.61 / 0.48 /
/// 1.53 s, 256: 1.16 / 0.78 / 1.66 s.
const FOLD_TANGENT: u64 = 64;

#[cfg(test)]
mod tests;
