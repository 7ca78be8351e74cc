//! Moves and move lists.

use crate::Square;
use arrayvec::ArrayVec;
use std::fmt;

/// A move from one square to another, packed in 16 bits. Xiangqi has no
/// promotions, drops or castling, so that is the whole of it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// A value that is never a legal move, for "no move" slots in tables.
    pub const NONE: Move = Move(0);

    #[inline]
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 7)
    }

    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 0x7f) as usize)
    }

    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 7) as usize)
    }

    #[inline]
    #[must_use]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::raw`]; `None` when the bits do not name
    /// two distinct squares.
    #[must_use]
    pub fn from_raw(raw: u16) -> Option<Move> {
        let (f, t) = ((raw & 0x7f) as usize, (raw >> 7) as usize);
        (f < 90 && t < 90 && f != t && raw >> 14 == 0).then_some(Move(raw))
    }

    /// ICCS coordinates, e.g. `h2e2`.
    #[must_use]
    pub fn iccs(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

/// Room for every legal move of any position (the most pseudo-legal moves a
/// side can have is 119).
pub type MoveList = ArrayVec<Move, 128>;
