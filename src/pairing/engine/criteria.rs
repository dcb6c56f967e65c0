//! A given pairing's cost, criterion by criterion (docs/rules.md §2.3), so a stored or
//! hand-edited round can be compared with the optimum level by level (`check --optimal`).
//!
//! Owns counting each level for tables as seated (colours as given, not as §3.3 would
//! give them). It must not pair anyone: it weighs what it is given.

use super::bye_tiers;
use super::field::Field;
use crate::model::{Colour, Relax};
use crate::pairing::context::{Float, PlayerState};

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
