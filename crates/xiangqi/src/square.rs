//! Squares of the 9×10 board.
//!
//! Files `a`–`i` run from red's left to red's right, ranks `0`–`9` from red's
//! back rank to black's (the ICCS convention). A square's index is
//! `rank * 9 + file`.

use crate::Color;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 90;

    /// # Panics
    /// Panics if `file > 8` or `rank > 9`.
    #[inline]
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < 9 && rank < 10);
        Square(rank * 9 + file)
    }

    #[inline]
    #[must_use]
    pub const fn try_new(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    /// # Safety-free precondition
    /// `index < 90`; checked in debug builds.
    #[inline]
    #[must_use]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < 90);
        Square(index as u8)
    }

    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// Same square seen from the other side (rotated 180°).
    #[must_use]
    pub const fn flip(self) -> Square {
        Square(89 - self.0)
    }

    /// Mirror left-right.
    #[must_use]
    pub const fn mirror(self) -> Square {
        Square::new(8 - self.file(), self.rank())
    }

    /// Whether the square lies on `color`'s own half (before the river).
    #[inline]
    #[must_use]
    pub const fn on_own_half(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Whether the square lies in `color`'s palace (九宫).
    #[must_use]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        if f < 3 || f > 5 {
            return false;
        }
        match color {
            Color::Red => self.rank() <= 2,
            Color::Black => self.rank() >= 7,
        }
    }

    /// The file number as the player of `color` counts it: 1 on his right,
    /// 9 on his left (一…九 for red, 1…9 for black).
    #[must_use]
    pub const fn file_number(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self.file(),
            Color::Black => self.file() + 1,
        }
    }

    /// ICCS name such as `h2`.
    #[must_use]
    pub fn iccs(self) -> String {
        self.to_string()
    }

    /// Parses an ICCS square such as `h2` (file letter, rank digit 0–9).
    #[must_use]
    pub fn from_iccs(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        if file < 9 && rank < 10 {
            Some(Square::new(file, rank))
        } else {
            None
        }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_iccs(&sq.iccs()), Some(sq));
        }
        assert_eq!(Square::from_iccs("j0"), None);
        assert_eq!(Square::from_iccs("a"), None);
        assert_eq!(
            Square::from_iccs("h2").map(|s| (s.file(), s.rank())),
            Some((7, 2))
        );
    }

    #[test]
    fn file_numbers() {
        let h2 = Square::from_iccs("h2").unwrap();
        assert_eq!(h2.file_number(Color::Red), 2);
        let h7 = Square::from_iccs("h7").unwrap();
        assert_eq!(h7.file_number(Color::Black), 8);
    }
}
