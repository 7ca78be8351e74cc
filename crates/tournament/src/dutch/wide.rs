//! Wide signed integers for matching weights. The Dutch criteria are a
//! lexicographic order (C5 before C6 … before C21); we write each criterion
//! into its own bit field of one weight, highest priority highest, so that
//! one maximum-weight matching optimises them all in order. That takes
//! hundreds of bits for a large bracket, hence a fixed number of 64-bit
//! limbs in two's complement, chosen per bracket.

use std::cmp::Ordering;
use std::ops::{Add, Sub};

/// The arithmetic the blossom algorithm needs from a weight.
pub trait Weight: Copy + Ord + Add<Output = Self> + Sub<Output = Self> + std::fmt::Debug {
    fn zero() -> Self;
    fn one() -> Self;
    /// Exact half of an even value (the algorithm only halves even slacks).
    fn half(self) -> Self;
    /// Whether `a` and `b` agree in every bit from `bit` up.
    fn high_eq(a: Self, b: Self, bit: u32) -> bool;
}

impl Weight for i64 {
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn half(self) -> Self {
        self >> 1
    }
    fn high_eq(a: Self, b: Self, bit: u32) -> bool {
        bit >= 64 || (a >> bit) == (b >> bit)
    }
}

/// A signed integer of `64 * N` bits, limbs least significant first.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Wide<N> {
    pub const ZERO: Self = Wide([0; N]);

    /// `v << shift`; bits shifted past the top are lost (callers size
    /// `N` so that they never are).
    pub fn shifted(v: u64, shift: u32) -> Self {
        let mut r = [0u64; N];
        let limb = (shift / 64) as usize;
        let bit = shift % 64;
        if limb < N {
            r[limb] = v << bit;
            if bit != 0 && limb + 1 < N {
                r[limb + 1] = v >> (64 - bit);
            }
        }
        Wide(r)
    }

    #[inline]
    fn negative(&self) -> bool {
        N > 0 && (self.0[N - 1] >> 63) == 1
    }

    /// Bits that are set, most significant first (for debugging and
    /// for reading fields back).
    pub fn field(&self, shift: u32, bits: u32) -> u64 {
        let mut out = 0u64;
        for i in 0..bits.min(64) {
            let b = shift + i;
            let limb = (b / 64) as usize;
            if limb < N && (self.0[limb] >> (b % 64)) & 1 == 1 {
                out |= 1 << i;
            }
        }
        out
    }
}

/// One limb of an addition: sum and carry out.
#[inline]
fn add_carry(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let (s1, c1) = a.overflowing_add(b);
    let (s2, c2) = s1.overflowing_add(carry);
    (s2, u64::from(c1 || c2))
}

/// One limb of a subtraction: difference and borrow out.
#[inline]
fn sub_borrow(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let (s1, b1) = a.overflowing_sub(b);
    let (s2, b2) = s1.overflowing_sub(borrow);
    (s2, u64::from(b1 || b2))
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        let mut r = [0u64; N];
        let mut carry = 0u64;
        for (i, slot) in r.iter_mut().enumerate() {
            (*slot, carry) = add_carry(self.0[i], o.0[i], carry);
        }
        Wide(r)
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        let mut r = [0u64; N];
        let mut borrow = 0u64;
        for (i, slot) in r.iter_mut().enumerate() {
            (*slot, borrow) = sub_borrow(self.0[i], o.0[i], borrow);
        }
        Wide(r)
    }
}

impl<const N: usize> Ord for Wide<N> {
    #[inline]
    fn cmp(&self, o: &Self) -> Ordering {
        match (self.negative(), o.negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..N).rev() {
            match self.0[i].cmp(&o.0[i]) {
                Ordering::Equal => continue,
                c => return c,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    #[inline]
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        for l in self.0.iter().rev() {
            write!(f, "{l:016x}")?;
        }
        Ok(())
    }
}

impl<const N: usize> Weight for Wide<N> {
    fn zero() -> Self {
        Self::ZERO
    }
    fn one() -> Self {
        Self::shifted(1, 0)
    }
    #[inline]
    fn high_eq(a: Self, b: Self, bit: u32) -> bool {
        let limb = (bit / 64) as usize;
        let rest = bit % 64;
        for i in (limb..N).rev() {
            let (x, y) = if i == limb && rest > 0 {
                (a.0[i] >> rest, b.0[i] >> rest)
            } else {
                (a.0[i], b.0[i])
            };
            if x != y {
                return false;
            }
        }
        true
    }
    #[inline]
    fn half(self) -> Self {
        let neg = self.negative();
        let mut r = [0u64; N];
        for (i, slot) in r.iter_mut().enumerate() {
            let hi = if i + 1 < N {
                self.0[i + 1] << 63
            } else if neg {
                1 << 63
            } else {
                0
            };
            *slot = (self.0[i] >> 1) | hi;
        }
        Wide(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_across_limbs() {
        let a = Wide::<3>::shifted(1, 100);
        let b = Wide::<3>::shifted(3, 63);
        let s = a + b;
        assert_eq!(s - b, a);
        assert!(s > a);
        let neg = Wide::<3>::ZERO - a;
        assert!(neg < Wide::ZERO);
        assert_eq!(neg.half().half(), Wide::ZERO - Wide::shifted(1, 98));
        assert_eq!((a + a).half(), a);
        assert_eq!(s.field(63, 2), 3);
        assert_eq!(s.field(100, 1), 1);
        assert!(Wide::high_eq(s, a, 65));
        assert!(!Wide::high_eq(s, a, 64));
    }
}
