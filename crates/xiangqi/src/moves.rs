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

    /// ICCS coordinates, e.g. `h2e2`. Written byte by byte, not through
    /// `Display`: the server formats every legal move after every move.
    #[must_use]
    pub fn iccs(self) -> String {
        let (from, to) = (self.from(), self.to());
        let bytes = [
            b'a' + from.file(),
            b'0' + from.rank(),
            b'a' + to.file(),
            b'0' + to.rank(),
        ];
        bytes.iter().map(|&b| char::from(b)).collect()
    }

    /// A key that orders moves as their ICCS texts sort (file, then rank,
    /// of the origin, then of the target), so a list can be sorted before it
    /// is formatted.
    #[inline]
    #[must_use]
    pub const fn iccs_order(self) -> u16 {
        let (from, to) = (self.from(), self.to());
        (from.file() as u16) << 12 | (from.rank() as u16) << 8 | (to.file() as u16) << 4 | to.rank() as u16
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

/// Why a text is not an ICCS move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not an ICCS move (two squares a0–i9, e.g. h2e2)")]
pub struct ParseMoveError {
    pub text: String,
}

impl std::str::FromStr for Move {
    type Err = ParseMoveError;

    /// Reads ICCS coordinates (`h2e2`; capitals and an ICCS dash, `H2-E2`,
    /// are accepted too). Says nothing of legality: that is the position's
    /// business.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError {
            text: text.to_string(),
        };
        let s = text.trim();
        let s = if s.len() == 5 && s.as_bytes()[2] == b'-' {
            s.get(..2)
                .zip(s.get(3..))
                .map(|(a, b)| format!("{a}{b}"))
                .ok_or_else(err)?
        } else {
            s.to_string()
        };
        if s.len() != 4 || !s.is_ascii() {
            return Err(err());
        }
        let from = Square::from_iccs(&s[..2]).ok_or_else(err)?;
        let to = Square::from_iccs(&s[2..]).ok_or_else(err)?;
        if from == to {
            return Err(err());
        }
        Ok(Move::new(from, to))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_reads_back_what_it_writes() {
        for text in ["h2e2", "a0i9", "i9a0", "e1e2"] {
            let m: Move = text.parse().unwrap();
            assert_eq!(m.iccs(), text);
        }
        assert_eq!("H2-E2".parse::<Move>().unwrap().iccs(), "h2e2");
        for bad in [
            "",
            "h2",
            "h2e",
            "h2e22",
            "j2e2",
            "h2h2",
            "h2e:",
            "炮二平五",
            "h2-e",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn iccs_is_display_and_its_order_is_the_texts() {
        let all: Vec<Move> = (0..90)
            .flat_map(|f| (0..90).map(move |t| (f, t)))
            .filter(|(f, t)| f != t)
            .map(|(f, t)| Move::new(Square::from_index(f), Square::from_index(t)))
            .collect();
        for m in &all {
            assert_eq!(m.iccs(), m.to_string());
        }
        let mut by_key = all.clone();
        by_key.sort_unstable_by_key(|m| m.iccs_order());
        let mut by_text = all;
        by_text.sort_by_key(|m| m.iccs());
        assert_eq!(by_key, by_text);
    }
}
