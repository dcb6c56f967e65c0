//! The pool ready to pair: players in pairing order, their score groups and colour facts,
//! and what one pair costs on each criterion and whether it is legal.
//!
//! Owns the order the players are paired in (docs/rules.md §2.3) and the per-pair terms
//! every solve weighs: score-group boundaries, squared score difference, colour misses,
//! repeated floats, within-group order and relaxed-rule breaks. It must not pack those
//! terms into weights ([`super::encode`]) nor choose pairs.

use super::encode::{RELAX_LEVELS, Terms};
use super::unit_sizes;
use crate::model::{Colour, Points, Relax};
use crate::pairing::context::{ColourFacts, Float, PlayerState, Rules};
use crate::rulebook::WithinGroup;
use std::collections::BTreeMap;

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
    pub(super) in_group: Vec<usize>,
    /// Players per score group.
    pub group_size: Vec<usize>,
    /// Each player's colour facts this round, in the same order.
    pub(super) facts: Vec<ColourFacts>,
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
    pub(super) fn relaxed(&self) -> Field<'a> {
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
    pub(super) fn seat(&self, i: usize) -> (&PlayerState, &ColourFacts) {
        (&self.players[i], &self.facts[i])
    }

    /// Whether the within-group order is fold order (`fold_top_bottom`, docs/rules.md
    /// §2.3): the top half of a score group meets its bottom half, 1 against h+1.
    pub(super) fn fold(&self) -> bool {
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

    pub(super) fn pair_terms(&self, i: usize, j: usize) -> Terms {
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

    /// The terms of player `i` leaving its score group downwards, `to_end` places from
    /// the end of the order it leaves in: the bye (docs/rules.md §4.2), which counts as a
    /// down-float (§2.3 criterion 5) and so repeats one when `i` floated down last round,
    /// or the part of a pair down out of its group that depends on `i` alone (its
    /// partner, and so the boundaries crossed, the score difference and the colours, are
    /// not known).
    pub(super) fn leaving_terms(&self, i: usize, to_end: usize) -> Terms {
        Terms {
            top: 0,
            bottom: 0,
            sq: 0,
            misses: 0,
            floats: i128::from(self.players[i].last_float == Some(Float::Down)),
            order: to_end as i128,
            broken: [0; RELAX_LEVELS],
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

pub(super) fn colour_class(p: &PlayerState) -> usize {
    match p.due() {
        Some(Colour::Red) => 0,
        Some(Colour::Black) => 1,
        None => 2,
    }
}

/// The colour each player cannot take at all under the hard colour limits (docs/rules.md
/// §3.2; 1: black, 2: red, 0: either), unless the round relaxes them (§2.5): two players
/// barred from the same colour never meet.
pub(super) fn colour_bars(field: &Field) -> Vec<usize> {
    let mut bar = limit_bars(field);
    if field.relax.contains(&Relax::Colour) {
        bar.fill(0);
    }
    bar
}

/// The colour each player cannot take without breaking a colour limit (docs/rules.md
/// §3.2; 1: black, 2: red, 0: either), whether or not the round relaxes the limits (§2.5):
/// two players barred from the same colour cannot meet without at least one break.
pub(super) fn limit_bars(field: &Field) -> Vec<usize> {
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

/// Pricing's team classes ([`super::price::price`], docs/rules.md §2.6): in a round that relaxes team
/// avoidance (§2.5, §4.1), each unit holding at least 1/[`TEAM_CLASSES`] of the field is
/// a class of its own (1, 2, …) and everyone else is class 0; otherwise everyone is
/// class 0. Two players of one class other than 0 are team-mates, so their pair costs at
/// least one team-mate pairing.
pub(super) fn team_classes(field: &Field) -> (Vec<usize>, usize) {
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
