//! Squares and moves in ICCS-style coordinates: files `a`.., ranks `0`..
//! from the first side's edge (`h2e2`), as in Xiangqi's ICCS and the
//! repository's `data/` files. Ranks past 9 are written in decimal (`a11`).

use std::fmt;

/// Width of the internal board: squares are `rank * STRIDE + file`, so boards
/// up to 16×16 fit a byte and 256-bit region sets.
pub(crate) const STRIDE: u8 = 16;

/// A square: file and rank from the first side's left-hand corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub(crate) u8);

impl Square {
    /// The square at `file`, `rank` (both from 0; at most 15).
    #[must_use]
    pub fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < STRIDE && rank < STRIDE);
        Square(rank * STRIDE + file)
    }

    #[must_use]
    pub fn file(self) -> u8 {
        self.0 % STRIDE
    }

    #[must_use]
    pub fn rank(self) -> u8 {
        self.0 / STRIDE
    }

    /// Reads `e2`, `a11` (no bounds check against a board: the caller does it).
    #[must_use]
    pub fn parse(s: &str) -> Option<Square> {
        let (f, r) = split_square(s)?;
        if !r.is_empty() {
            return None;
        }
        Some(f)
    }
}

/// Reads one square from the front of `s`, returning it and the rest.
fn split_square(s: &str) -> Option<(Square, &str)> {
    let mut chars = s.char_indices();
    let (_, f) = chars.next()?;
    if !f.is_ascii_lowercase() || f > 'p' {
        return None;
    }
    let digits = s[1..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let rank: u8 = s[1..=digits].parse().ok()?;
    if rank >= STRIDE {
        return None;
    }
    Some((Square::new(f as u8 - b'a', rank), &s[1 + digits..]))
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A move from one square to another; what it captures is the position's
/// business. A drop (a piece put back from its side's reserve: 还魂卒's
/// revival) has `drop`, the piece's lower-case FEN letter, and `from ==
/// to`, the point it is put on; it is written as Fairy-Stockfish writes a
/// drop, the letter upper-case for either side: `P@e3`. A step of the
/// mover's flag round its ring (解将旗) has `flag`, the points it goes
/// (1: `~`, answering a check; 2: `~~`, running from the other flag), and
/// no square (`from` and `to` are `a0`, unread).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub drop: Option<u8>,
    pub flag: u8,
}

impl Move {
    /// A move from `from` to `to` (the pass: the royal square twice).
    #[must_use]
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            drop: None,
            flag: 0,
        }
    }

    /// The mover's flag going `points` round its ring (解将旗).
    #[must_use]
    pub fn flag(points: u8) -> Move {
        Move {
            from: Square(0),
            to: Square(0),
            drop: None,
            flag: points,
        }
    }

    /// Whether this moves a piece from one point to another (not a
    /// drop, a flag's step or a pass).
    #[must_use]
    pub fn moves_a_piece(self) -> bool {
        self.drop.is_none() && self.flag == 0 && self.from != self.to
    }

    /// A drop of the piece written `letter` (either case) on `to`.
    #[must_use]
    pub fn drop(letter: char, to: Square) -> Move {
        Move {
            from: to,
            to,
            drop: Some(letter.to_ascii_lowercase() as u8),
            flag: 0,
        }
    }

    /// Whether this puts a piece from a reserve on the board.
    #[must_use]
    pub fn is_drop(self) -> bool {
        self.drop.is_some()
    }

    /// Reads an ICCS-style move such as `h2e2` or `a10a11`, or a drop
    /// such as `P@e3`.
    #[must_use]
    pub fn parse(s: &str) -> Option<Move> {
        match s {
            "~" => return Some(Move::flag(1)),
            "~~" => return Some(Move::flag(2)),
            _ => {}
        }
        if let Some((letter, sq)) = s.split_once('@') {
            let mut c = letter.chars();
            let l = c.next().filter(char::is_ascii_alphabetic)?;
            return c
                .next()
                .is_none()
                .then(|| Some(Move::drop(l, Square::parse(sq)?)))?;
        }
        let (from, rest) = split_square(s)?;
        let (to, rest) = split_square(rest)?;
        rest.is_empty().then_some(Move::new(from, to))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.flag > 0 {
            return write!(f, "{}", "~".repeat(usize::from(self.flag)));
        }
        match self.drop {
            Some(l) => write!(f, "{}@{}", char::from(l).to_ascii_uppercase(), self.to),
            None => write!(f, "{}{}", self.from, self.to),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_round_trip() {
        for s in ["h2e2", "a0i9", "a10l11", "b9c7", "P@e3", "N@a11", "~", "~~"] {
            assert_eq!(Move::parse(s).unwrap().to_string(), s);
        }
        for s in [
            "", "h2", "h2e", "z2e2", "h2e2x", "h100e2", "H2e2", "@e3", "PP@e3", "P@", "P@e3x", "1@e3", "~~~",
            "~h2e2",
        ] {
            assert_eq!(Move::parse(s), None, "{s}");
        }
    }
}
