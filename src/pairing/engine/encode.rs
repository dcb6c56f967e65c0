//! Packing the criteria into one integer weight (docs/rules.md §2.3, §2.5).
//!
//! Owns the units of each level (relaxed-rule breaks above score-group boundaries above
//! squared score differences above colour misses above repeated floats above the order)
//! and the bounds that make comparing packed sums the same as comparing the criteria
//! lexicographically. It never merges two levels: a field whose levels do not fit the
//! weight type gets no encoder, and the caller tries a wider type.

use super::field::Field;
use crate::model::Relax;
use crate::pairing::wide::{Weight, narrow};

/// The cost parts of one pair (or of a player and a sink).
#[derive(Debug, Clone, Copy)]
pub(super) struct Terms {
    /// Boundaries `top..bottom` are crossed (boundary g lies below score group g).
    pub(super) top: usize,
    pub(super) bottom: usize,
    pub(super) sq: i128,
    pub(super) misses: i128,
    /// Repeated floats (docs/rules.md §2.3 criterion 5), between colours and order.
    pub(super) floats: i128,
    pub(super) order: i128,
    /// Relaxed-rule breaks in `pairing.relax` order, above every other level, the last
    /// rule highest (docs/rules.md §2.5).
    pub(super) broken: [i128; RELAX_LEVELS],
}

/// At most this many rules can be relaxed (colour limits, team avoidance, rematch).
pub(super) const RELAX_LEVELS: usize = 3;

/// Packs the criteria into one integer: every level's unit exceeds the largest total the
/// levels below it can reach in one round, so comparing packed sums is comparing the
/// criteria lexicographically. Levels are never merged: [`Encoder::exact`] returns
/// `None` when they do not fit in `W`.
pub(super) struct Encoder<W: Weight> {
    /// One unit per relaxed rule, in `pairing.relax` order; empty for a strict solve.
    pub(super) unit_broken: Vec<W>,
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
    pub(super) fn in_group<V: Weight>(&self) -> Option<Encoder<V>> {
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

    pub(super) fn cost(&self, t: &Terms) -> W {
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

/// The encoder for a whole-field solve, from bounds that hold for every pair (so pricing
/// can weigh pairs the first solve never saw).
pub(super) fn field_encoder<W: Weight>(field: &Field) -> Option<Encoder<W>> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::wide::I512;

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
