//! The transposition table, shared by all search threads without locks.
//!
//! Each slot is two `AtomicU64`s: the data word and the key xored with the
//! data (the "lockless hashing" of Hyatt and Mann). A torn write by two
//! threads leaves a slot whose key check fails, so it reads as a miss rather
//! than as wrong data; a move read from the table is still checked for
//! legality before it is played.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use xiangqi::Move;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (no move beat alpha).
    Upper = 1,
    /// The true value is at least the score (a move beat beta).
    Lower = 2,
    Exact = 3,
}

/// One probe's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct Table {
    slots: Box<[Slot]>,
    mask: usize,
    age: AtomicU8,
}

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    u64::from(mv.raw())
        | u64::from(score as i16 as u16) << 16
        | u64::from(eval as i16 as u16) << 32
        | u64::from(depth.clamp(-1, 126) as i8 as u8) << 48
        | u64::from(bound as u8) << 56
        | u64::from(age & 0x3f) << 58
}

impl Table {
    /// A table of about `mb` mebibytes (rounded down to a power of two
    /// number of slots, at least 1024 slots).
    #[must_use]
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<Slot>()).max(1024);
        let n = 1usize << (usize::BITS - 1 - want.leading_zeros());
        let slots = (0..n)
            .map(|_| Slot {
                check: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        Table {
            slots,
            mask: n - 1,
            age: AtomicU8::new(0),
        }
    }

    /// Size in mebibytes.
    #[must_use]
    pub fn mb(&self) -> usize {
        (self.slots.len() * std::mem::size_of::<Slot>()) >> 20
    }

    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Called once per search so that old entries get replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & self.mask & !1
    }

    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let i = self.index(key);
        for s in &self.slots[i..i + 2] {
            let data = s.data.load(Ordering::Relaxed);
            if data != 0 && s.check.load(Ordering::Relaxed) ^ data == key {
                let bound = match (data >> 56) & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => return None,
                };
                return Some(Entry {
                    mv: Move::from_raw(data as u16).unwrap_or(Move::NONE),
                    score: i32::from((data >> 16) as u16 as i16),
                    eval: i32::from((data >> 32) as u16 as i16),
                    depth: i32::from((data >> 48) as u8 as i8),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result; of the two slots of the bucket it replaces the one
    /// holding the same position, else the shallower or older one.
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed) & 0x3f;
        let i = self.index(key);
        let mut victim = i;
        let mut worst = i32::MAX;
        for j in i..i + 2 {
            let s = &self.slots[j];
            let data = s.data.load(Ordering::Relaxed);
            if data == 0 || s.check.load(Ordering::Relaxed) ^ data == key {
                // Keep a deeper result of the same position unless this one is exact.
                if data != 0 && bound != Bound::Exact {
                    let old_depth = i32::from((data >> 48) as u8 as i8);
                    if old_depth > depth + 2 && ((data >> 58) as u8) == age {
                        return;
                    }
                }
                let mut mv = mv;
                if mv == Move::NONE && data != 0 {
                    mv = Move::from_raw(data as u16).unwrap_or(Move::NONE);
                }
                let d = pack(mv, score, eval, depth, bound, age);
                s.data.store(d, Ordering::Relaxed);
                s.check.store(key ^ d, Ordering::Relaxed);
                return;
            }
            let old_depth = i32::from((data >> 48) as u8 as i8);
            let old_age = (data >> 58) as u8;
            let value = old_depth - if old_age == age { 0 } else { 64 };
            if value < worst {
                worst = value;
                victim = j;
            }
        }
        let d = pack(mv, score, eval, depth, bound, age);
        let s = &self.slots[victim];
        s.data.store(d, Ordering::Relaxed);
        s.check.store(key ^ d, Ordering::Relaxed);
    }

    /// Permille of sampled slots written by the current search (UCI `hashfull`).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 0x3f;
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 58) as u8 == age
            })
            .count();
        (used * 1000 / n) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Square;

    #[test]
    fn store_and_probe_round_trip() {
        let t = Table::new(1);
        let m = Move::new(Square::from_iccs("h2").unwrap(), Square::from_iccs("e2").unwrap());
        t.store(0xDEAD_BEEF_1234, m, -29_000, 37, 7, Bound::Lower);
        let e = t.probe(0xDEAD_BEEF_1234).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (m, -29_000, 37, 7, Bound::Lower)
        );
        assert!(t.probe(0xDEAD_BEEF_1235).is_none());
        t.clear();
        assert!(t.probe(0xDEAD_BEEF_1234).is_none());
    }

    #[test]
    fn size_is_a_power_of_two() {
        let t = Table::new(16);
        assert!(t.slots.len().is_power_of_two());
        assert_eq!(t.mb(), 16);
    }
}
