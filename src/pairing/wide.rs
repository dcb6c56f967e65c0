//! Integer types for matching weights: `i64` (score groups' own solves), `i128`, and
//! 192-, 256-, 384- and 512-bit two's-complement integers for fields whose lexicographic
//! criteria need more than 118 bits (many score groups times many players). The pairing
//! engine packs its criteria into one weight and picks the narrowest type that holds them
//! all, so no level is ever merged or truncated (and the solver's arithmetic is no wider
//! than the field needs).

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// What the blossom solver and the criteria encoder need from a weight.
pub trait Weight:
    Copy + Ord + Send + Sync + fmt::Debug + Add<Output = Self> + Sub<Output = Self> + Neg<Output = Self>
{
    /// Zero: a free vertex's dual, a zero slack (an edge the matching may use).
    const ZERO: Self;
    /// Largest magnitude (in bits) a packed *edge weight* may use, leaving headroom for
    /// the solver's doubling and for sums of duals over a whole field.
    const WEIGHT_BITS: u32;
    /// Largest magnitude (in bits) the type holds at all.
    const BITS: u32;
    /// Bits the magnitude of `self` needs.
    fn bits(self) -> u32;
    /// A small constant (a unit of one criterion level, the 1 that keeps a dual even).
    fn from_i128(v: i128) -> Self;
    /// `self · k`, or `None` past [`Weight::WEIGHT_BITS`].
    fn mul_small(self, k: u64) -> Option<Self>;
    /// Exact halving of an even value (arithmetic shift).
    fn half(self) -> Self;
    /// Whether the lowest bit is set: the solver keeps every dual even, so halving it
    /// stays exact.
    fn is_odd(self) -> bool;
    /// The nearest `f64` (for ranking many values compactly; never for arithmetic).
    fn approx(self) -> f64;
    /// The value as an `i128`, when it fits.
    fn to_i128(self) -> Option<i128>;
    /// `self · 2`: the solver doubles every edge weight once (twice for the dual
    /// certificate) so that its dual values stay whole numbers.
    fn double(self) -> Self {
        self + self
    }
    /// `self · factor` for a power of two `factor` (the solver's scales), by doubling.
    fn scaled(self, factor: u64) -> Self {
        debug_assert!(factor.is_power_of_two());
        (0..factor.trailing_zeros()).fold(self, |x, _| x.double())
    }
}

/// The primitive weights, each with 9 bits of headroom above its weights (the solver
/// doubles them and adds up to four values in a slack). `from_i128` takes only values
/// that fit (the engine checks its weights' bits before it picks a type).
macro_rules! native_weight {
    ($t:ty, $unsigned:ty) => {
        impl Weight for $t {
            const ZERO: $t = 0;
            const WEIGHT_BITS: u32 = <$t>::BITS - 10;
            const BITS: u32 = <$t>::BITS - 1;
            fn bits(self) -> u32 {
                <$t>::BITS - self.unsigned_abs().leading_zeros()
            }
            #[allow(clippy::useless_conversion, clippy::unnecessary_fallible_conversions)]
            fn from_i128(v: i128) -> $t {
                <$t>::try_from(v).expect("a weight type is only used when its values fit")
            }
            fn mul_small(self, k: u64) -> Option<$t> {
                let r = self.checked_mul(<$t>::try_from(k).ok()?)?;
                (r.unsigned_abs() < (1 as $unsigned) << Self::WEIGHT_BITS).then_some(r)
            }
            fn half(self) -> $t {
                self >> 1
            }
            fn is_odd(self) -> bool {
                self & 1 == 1
            }
            #[allow(clippy::cast_precision_loss)]
            fn approx(self) -> f64 {
                self as f64
            }
            #[allow(clippy::useless_conversion)]
            fn to_i128(self) -> Option<i128> {
                Some(i128::from(self))
            }
        }
    };
}

// `i64` serves score groups' own solves at large sizes, whose weights often fit it: half
// the memory of `i128` for every weight and dual.
native_weight!(i64, u64);
native_weight!(i128, u128);

/// `w` in the wider type `W`, exactly (a narrow type's values fit `i128`).
pub fn widen<V: Weight, W: Weight>(w: V) -> W {
    W::from_i128(w.to_i128().expect("a narrow weight fits i128"))
}

/// `w` in the narrower type `V`, when it fits `V`'s weight bits.
pub fn narrow<W: Weight, V: Weight>(w: W) -> Option<V> {
    let x = w.to_i128()?;
    (x.unsigned_abs() < 1 << V::WEIGHT_BITS).then(|| V::from_i128(x))
}

/// A signed integer of `L` 64-bit limbs (little-endian, two's complement).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const L: usize>([u64; L]);

/// A signed 192-bit integer.
pub type I192 = Wide<3>;

/// A signed 256-bit integer.
pub type I256 = Wide<4>;

/// A signed 384-bit integer.
pub type I384 = Wide<6>;

/// A signed 512-bit integer.
pub type I512 = Wide<8>;

impl<const L: usize> Wide<L> {
    fn is_negative(&self) -> bool {
        self.0[L - 1] >> 63 == 1
    }

    /// Bits needed for the magnitude.
    fn magnitude_bits(&self) -> u32 {
        let m = if self.is_negative() { -*self } else { *self };
        for k in (0..L).rev() {
            if m.0[k] != 0 {
                return 64 * k as u32 + 64 - m.0[k].leading_zeros();
            }
        }
        0
    }
}

impl<const L: usize> fmt::Debug for Wide<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let neg = self.is_negative();
        let m = if neg { -*self } else { *self };
        write!(f, "{}0x", if neg { "-" } else { "" })?;
        for k in (0..L).rev() {
            write!(f, "{:016x}", m.0[k])?;
        }
        Ok(())
    }
}

impl<const L: usize> Add for Wide<L> {
    type Output = Wide<L>;
    fn add(self, rhs: Wide<L>) -> Wide<L> {
        let mut out = [0u64; L];
        let mut carry = 0u64;
        for (k, o) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[k].overflowing_add(rhs.0[k]);
            let (s2, c2) = s1.overflowing_add(carry);
            *o = s2;
            carry = u64::from(c1) + u64::from(c2);
        }
        Wide(out)
    }
}

impl<const L: usize> Neg for Wide<L> {
    type Output = Wide<L>;
    fn neg(self) -> Wide<L> {
        let mut inv = [0u64; L];
        for (o, x) in inv.iter_mut().zip(self.0) {
            *o = !x;
        }
        Wide(inv) + Wide::from_i128(1)
    }
}

impl<const L: usize> Sub for Wide<L> {
    type Output = Wide<L>;
    fn sub(self, rhs: Wide<L>) -> Wide<L> {
        let mut out = [0u64; L];
        let mut borrow = 0u64;
        for (k, o) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[k].overflowing_sub(rhs.0[k]);
            let (d2, b2) = d1.overflowing_sub(borrow);
            *o = d2;
            borrow = u64::from(b1 || b2);
        }
        Wide(out)
    }
}

impl<const L: usize> Ord for Wide<L> {
    fn cmp(&self, other: &Wide<L>) -> Ordering {
        // Two's complement: the top limb compares signed, the others unsigned (the
        // solver's heaps and slack tests compare weights more than anything else).
        #[allow(clippy::cast_possible_wrap)]
        let (a, b) = (self.0[L - 1] as i64, other.0[L - 1] as i64);
        if a != b {
            return a.cmp(&b);
        }
        for k in (0..L - 1).rev() {
            if self.0[k] != other.0[k] {
                return self.0[k].cmp(&other.0[k]);
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    fn partial_cmp(&self, other: &Wide<L>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> Weight for Wide<L> {
    const ZERO: Wide<L> = Wide([0; L]);
    // 32 bits of headroom, as i128 keeps 9 of 127 (L is 3 to 8).
    #[allow(clippy::cast_possible_truncation)]
    const WEIGHT_BITS: u32 = 64 * L as u32 - 32;
    #[allow(clippy::cast_possible_truncation)]
    const BITS: u32 = 64 * L as u32 - 1;
    fn bits(self) -> u32 {
        self.magnitude_bits()
    }
    fn from_i128(v: i128) -> Wide<L> {
        let fill = if v < 0 { u64::MAX } else { 0 };
        let mut out = [fill; L];
        out[0] = v as u64;
        out[1] = (v >> 64) as u64;
        Wide(out)
    }
    fn mul_small(self, k: u64) -> Option<Wide<L>> {
        let neg = self.is_negative();
        let m = if neg { -self } else { self };
        let mut out = [0u64; L];
        let mut carry = 0u128;
        for (o, x) in out.iter_mut().zip(m.0) {
            let p = u128::from(x) * u128::from(k) + carry;
            *o = p as u64;
            carry = p >> 64;
        }
        let r = Wide(out);
        if carry != 0 || r.magnitude_bits() >= Self::WEIGHT_BITS {
            return None;
        }
        Some(if neg { -r } else { r })
    }
    fn half(self) -> Wide<L> {
        let mut out = [0u64; L];
        for (k, o) in out.iter_mut().enumerate() {
            let hi = if k == L - 1 {
                // Arithmetic shift keeps the sign.
                if self.is_negative() { 1u64 << 63 } else { 0 }
            } else {
                self.0[k + 1] << 63
            };
            *o = (self.0[k] >> 1) | hi;
        }
        Wide(out)
    }
    fn is_odd(self) -> bool {
        self.0[0] & 1 == 1
    }
    #[allow(clippy::cast_precision_loss)]
    fn approx(self) -> f64 {
        let neg = self.is_negative();
        let m = if neg { -self } else { self };
        let v = m.0.iter().rev().fold(0.0, |acc, &limb| {
            acc * 18_446_744_073_709_551_616.0 + limb as f64
        });
        if neg { -v } else { v }
    }
    fn to_i128(self) -> Option<i128> {
        // Fits when every limb above the low two repeats the sign of the second.
        let fill = if self.0[1] >> 63 == 1 { u64::MAX } else { 0 };
        self.0[2..]
            .iter()
            .all(|&limb| limb == fill)
            .then(|| i128::from(self.0[1]) << 64 | i128::from(self.0[0]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn agrees_with_i128<const L: usize>() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..20_000 {
            let a: i128 = rng.gen_range(-(1i128 << 100)..(1i128 << 100));
            let b: i128 = rng.gen_range(-(1i128 << 100)..(1i128 << 100));
            let k: u64 = rng.gen_range(0..1000);
            let w = Wide::<L>::from_i128;
            let (wa, wb) = (w(a), w(b));
            assert_eq!(wa + wb, w(a + b));
            assert_eq!(wa - wb, w(a - b));
            assert_eq!(-wa, w(-a));
            assert_eq!(wa.cmp(&wb), a.cmp(&b));
            assert_eq!(wa.mul_small(k), Some(w(a * i128::from(k))));
            assert_eq!((wa + wa).half(), wa);
            assert_eq!(wa.half(), w(a >> 1));
            assert_eq!(wa.is_odd(), a & 1 == 1);
            assert_eq!(wa.approx(), a.approx());
            assert_eq!(wa.bits(), a.bits());
            assert_eq!(wa.to_i128(), Some(a));
            assert_eq!(narrow::<_, i128>(wa), Some(a));
            assert_eq!(widen::<i128, Wide<L>>(a), wa);
        }
        for edge in [i128::MAX, i128::MIN, -1, 0] {
            assert_eq!(Wide::<L>::from_i128(edge).to_i128(), Some(edge));
        }
    }

    /// Narrowing keeps every value within the narrow type's weight bits and refuses the
    /// first one past them, on either sign.
    #[test]
    fn narrowing_stops_at_the_weight_bits() {
        let top = (1i128 << i64::WEIGHT_BITS) - 1;
        for x in [0, 1, -1, top, -top] {
            assert_eq!(narrow::<i128, i64>(x).map(i128::from), Some(x));
            assert_eq!(
                widen::<i64, I256>(i64::try_from(x).unwrap()),
                I256::from_i128(x)
            );
        }
        assert_eq!(narrow::<i128, i64>(top + 1), None);
        assert_eq!(narrow::<i128, i64>(-top - 1), None);
        assert_eq!(narrow::<I192, i64>(I192::from_i128(top + 1)), None);
    }

    #[test]
    fn wide_integers_agree_with_i128() {
        agrees_with_i128::<3>();
        agrees_with_i128::<4>();
        agrees_with_i128::<6>();
        agrees_with_i128::<8>();
    }

    /// Doubling up to the type's weight bits works, carries across every limb, and one
    /// step past it is refused.
    fn holds_what_i128_cannot<const L: usize>() {
        let mut x = Wide::<L>::from_i128(1);
        for _ in 0..Wide::<L>::WEIGHT_BITS - 2 {
            x = x.mul_small(2).unwrap();
        }
        let one = Wide::<L>::from_i128(1);
        assert!(x > Wide::from_i128(i128::MAX));
        assert!(-x < Wide::from_i128(i128::MIN));
        assert_eq!(x.to_i128(), None);
        assert_eq!((-x).to_i128(), None);
        let just_over = Wide::<L>::from_i128(i128::MAX) + one;
        assert_eq!(just_over.to_i128(), None);
        assert_eq!((-just_over).to_i128(), Some(i128::MIN));
        assert_eq!((x + x).half(), x);
        assert_eq!(x - one + one, x);
        assert_eq!((-x) - x, -(x + x));
        assert!(x - one < x && x - one > x.half());
        assert_eq!(x.mul_small(2), None);
    }

    #[test]
    fn wide_integers_hold_what_i128_cannot_and_refuse_overflow() {
        holds_what_i128_cannot::<3>();
        holds_what_i128_cannot::<4>();
        holds_what_i128_cannot::<6>();
        holds_what_i128_cannot::<8>();
        assert_eq!((1i128 << 117).mul_small(2), None);
    }
}
