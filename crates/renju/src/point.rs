//! Points of the 15×15 board, named `a1` … `o15`: the column letter (a at the
//! left) then the row number counted from the bottom, as renju records and
//! the Gomocup tools write them.

use std::fmt;
use std::str::FromStr;

/// The board is 15 points a side (RIF rules, article 2).
pub const SIZE: usize = 15;
/// Number of points on the board.
pub const POINTS: usize = SIZE * SIZE;

/// One of the 225 points. The index is `column * 15 + row`, so the natural
/// order of points is column by column, bottom to top within a column
/// (a1, a2 … a15, b1 …): the order in which the CLI lists points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// The centre, h8 (天元), where black's first stone goes.
    pub const CENTRE: Point = Point(7 * SIZE as u8 + 7);

    /// The point at `col` (0 = a) and `row` (0 = row 1), if on the board.
    #[must_use]
    pub const fn new(col: usize, row: usize) -> Option<Point> {
        if col < SIZE && row < SIZE {
            Some(Point((col * SIZE + row) as u8))
        } else {
            None
        }
    }

    /// The point with this index (`column * 15 + row`), if below 225.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Point> {
        if index < POINTS {
            Some(Point(index as u8))
        } else {
            None
        }
    }

    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column, 0 for a … 14 for o.
    #[must_use]
    pub const fn col(self) -> usize {
        self.0 as usize / SIZE
    }

    /// Row, 0 for row 1 (the bottom) … 14 for row 15.
    #[must_use]
    pub const fn row(self) -> usize {
        self.0 as usize % SIZE
    }

    /// The point `dc` columns right and `dr` rows up, if on the board.
    #[must_use]
    pub fn offset(self, dc: isize, dr: isize) -> Option<Point> {
        let c = self.col() as isize + dc;
        let r = self.row() as isize + dr;
        if (0..SIZE as isize).contains(&c) && (0..SIZE as isize).contains(&r) {
            Point::new(c as usize, r as usize)
        } else {
            None
        }
    }

    /// Every point, in index order (column by column).
    pub fn all() -> impl Iterator<Item = Point> {
        (0..POINTS as u8).map(Point)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col() as u8) as char, self.row() + 1)
    }
}

/// A point name that is not `a1` … `o15`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no point {text:?}: a point is a column a–o and a row 1–15, e.g. h8")]
pub struct PointError {
    pub text: String,
}

impl FromStr for Point {
    type Err = PointError;

    /// Reads `h8`, `a15`; capital letters are accepted.
    fn from_str(s: &str) -> Result<Point, PointError> {
        let err = || PointError { text: s.to_owned() };
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(err)?.to_ascii_lowercase();
        if !('a'..='o').contains(&letter) {
            return Err(err());
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return Err(err());
        }
        let row: usize = digits.parse().map_err(|_| err())?;
        Point::new(letter as usize - 'a' as usize, row.wrapping_sub(1)).ok_or_else(err)
    }
}

/// The colour of a stone. Black moves first (the first side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Black is the first side in storage and on the wire.
    #[must_use]
    pub const fn side(self) -> game::Side {
        match self {
            Color::Black => game::Side::First,
            Color::White => game::Side::Second,
        }
    }

    #[must_use]
    pub const fn from_side(side: game::Side) -> Color {
        match side {
            game::Side::First => Color::Black,
            game::Side::Second => Color::White,
        }
    }

    /// "black" or "white".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Point::all() {
            assert_eq!(p.to_string().parse::<Point>(), Ok(p));
        }
        assert_eq!("h8".parse::<Point>(), Ok(Point::CENTRE));
        assert_eq!("A1".parse::<Point>().unwrap().index(), 0);
        assert_eq!("o15".parse::<Point>().unwrap().index(), POINTS - 1);
        for bad in ["", "h", "h0", "h16", "p1", "h08", "8h", "h8 ", "hh"] {
            assert!(bad.parse::<Point>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn order_is_column_then_row() {
        let a15: Point = "a15".parse().unwrap();
        let b1: Point = "b1".parse().unwrap();
        let a2: Point = "a2".parse().unwrap();
        assert!(a2 < a15 && a15 < b1);
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let a1: Point = "a1".parse().unwrap();
        assert_eq!(a1.offset(-1, 0), None);
        assert_eq!(a1.offset(1, 1).unwrap().to_string(), "b2");
        assert_eq!(Point::CENTRE.offset(7, -7).unwrap().to_string(), "o1");
    }
}
