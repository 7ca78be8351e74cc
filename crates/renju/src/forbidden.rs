//! Black's forbidden points (禁手) under the RIF rules: overline (长连),
//! double-four (四四) and double-three (三三), with the recursive definition
//! of a three.
//!
//! RIF article 3 defines the shapes: a *four* is a row of four stones that
//! one more stone makes five in a row; a *three* is a row of three stones
//! that one more stone makes a straight four — "without at the same time a
//! five in a row is made". A double-four or double-three is a move that makes
//! more than one four or three meeting at that point; an overline is six or
//! more in a row. Black must not make any of them, and a five made at the
//! same time beats every one of them. Whether a three is a three depends on
//! the point that makes it a straight four: if black may not play there
//! (it is itself forbidden) the three is no three. That point is judged with
//! the first stone on the board, by the same rules, recursively.

use crate::board::{Board, DIRECTIONS};
use crate::point::{Color, Point, POINTS};
use crate::shape::{self, LineShape};
use std::fmt;

/// Why black may not play a point. Where several apply, the first of
/// overline, double-four, double-three names it (the order of this enum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Forbidden {
    /// 长连: six or more in a row.
    Overline,
    /// 四四: two or more fours at once.
    DoubleFour,
    /// 三三: two or more (real) threes at once.
    DoubleThree,
}

impl Forbidden {
    /// `overline`, `double-four` or `double-three`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double-four",
            Forbidden::DoubleThree => "double-three",
        }
    }
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a black stone on an empty point would make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing forbidden and no five.
    Free,
    /// Exactly five in a row (on one line at least): a win, whatever else.
    Five,
    Forbidden(Forbidden),
}

/// The shapes a black stone on `p` makes along the four lines.
#[inline]
fn shapes(board: &Board, p: Point) -> [LineShape; 4] {
    std::array::from_fn(|d| shape::lookup(board.window(p, d, Color::Black)))
}

/// Judges a black stone on the empty point `p`. `board` is borrowed mutably
/// to put stones on it while judging threes; it is left as it was.
pub fn verdict(board: &mut Board, p: Point) -> Verdict {
    debug_assert!(board.is_empty_at(p));
    let lines = shapes(board, p);
    if lines.iter().any(|s| s.five()) {
        return Verdict::Five;
    }
    if lines.iter().any(|s| s.overline()) {
        return Verdict::Forbidden(Forbidden::Overline);
    }
    if lines.iter().map(|s| s.fours()).sum::<u32>() >= 2 {
        return Verdict::Forbidden(Forbidden::DoubleFour);
    }
    let with_three = lines.iter().filter(|s| s.three_points() != 0).count();
    if with_three < 2 {
        return Verdict::Free;
    }
    // Two or more lines hold a three: each is real only if one of its
    // straight-four points is free for black with `p` on the board.
    board.set(p, Color::Black);
    let mut real = 0;
    let mut left = with_three;
    for (d, s) in lines.iter().enumerate() {
        let points = s.three_points();
        if points == 0 {
            continue;
        }
        if real + left < 2 {
            break;
        }
        left -= 1;
        let (dc, dr) = DIRECTIONS[d];
        let is_real = (0..7).filter(|b| points >> b & 1 == 1).any(|b| {
            let k = b as isize - 3;
            let q = p
                .offset(k * dc, k * dr)
                .expect("a straight-four point lies on the board");
            verdict(board, q) == Verdict::Free
        });
        if is_real {
            real += 1;
            if real >= 2 {
                break;
            }
        }
    }
    board.clear(p);
    if real >= 2 {
        Verdict::Forbidden(Forbidden::DoubleThree)
    } else {
        Verdict::Free
    }
}

/// Why black may not play the empty point `p`, if black may not.
#[must_use]
pub fn forbidden(board: &Board, p: Point) -> Option<Forbidden> {
    if !board.is_empty_at(p) {
        return None;
    }
    match verdict(&mut board.clone(), p) {
        Verdict::Forbidden(f) => Some(f),
        _ => None,
    }
}

/// Every forbidden point of a board, for black, whoever is to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForbiddenPoints {
    kinds: [Option<Forbidden>; POINTS],
}

impl ForbiddenPoints {
    /// Judges every empty point of `board`.
    #[must_use]
    pub fn of(board: &Board) -> ForbiddenPoints {
        let mut kinds = [None; POINTS];
        // A point can only be forbidden with two black stones near it.
        if board.count(Color::Black) >= 2 {
            let mut scratch = board.clone();
            for p in Point::all() {
                if !board.is_empty_at(p) {
                    continue;
                }
                // Most points have nothing on any line: skip the call.
                let lines = shapes(board, p);
                if lines.iter().all(|s| s.is_quiet()) {
                    continue;
                }
                if let Verdict::Forbidden(f) = verdict(&mut scratch, p) {
                    kinds[p.index()] = Some(f);
                }
            }
        }
        ForbiddenPoints { kinds }
    }

    #[must_use]
    pub fn get(&self, p: Point) -> Option<Forbidden> {
        self.kinds[p.index()]
    }

    /// The forbidden points and why, in point order (column, then row).
    pub fn iter(&self) -> impl Iterator<Item = (Point, Forbidden)> + '_ {
        Point::all().filter_map(|p| self.get(p).map(|f| (p, f)))
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.kinds.iter().filter(|k| k.is_some()).count()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    fn board(black: &str, white: &str) -> Board {
        let mut b = Board::empty();
        for s in black.split_whitespace() {
            b.set(pt(s), Color::Black);
        }
        for s in white.split_whitespace() {
            b.set(pt(s), Color::White);
        }
        b
    }

    /// The fast search and the definitions agree on `p`; returns the answer.
    fn judged(b: &Board, p: &str) -> Verdict {
        let mut m = b.clone();
        let fast = verdict(&mut m, pt(p));
        assert_eq!(&m, b, "the board is left as it was");
        assert_eq!(fast, reference::verdict(&mut m, pt(p)), "{p}{b:?}");
        fast
    }

    #[test]
    fn plain_shapes() {
        // Threes f8-g8-h8 (o at d8 closes the left) and h8-h9-h10.
        let b = board("f8 g8 h9 h10", "d8");
        assert_eq!(judged(&b, "h8"), Verdict::Forbidden(Forbidden::DoubleThree));
        // a2 b2 . d2 e2 f2: c2 makes six.
        let b = board("a2 b2 d2 e2 f2", "");
        assert_eq!(judged(&b, "c2"), Verdict::Forbidden(Forbidden::Overline));
        // Two fours: column h (h9 h10 h11) and row 8 (e8 f8 g8, closed by d8).
        let b = board("h9 h10 h11 e8 f8 g8", "d8 h12");
        assert_eq!(judged(&b, "h8"), Verdict::Forbidden(Forbidden::DoubleFour));
        // Two fours on one line: x.xxx.x with the stone in the middle.
        let b = board("d8 f8 h8 j8", "");
        assert_eq!(judged(&b, "g8"), Verdict::Forbidden(Forbidden::DoubleFour));
        // Four and three: allowed, black's way to win.
        let b = board("h9 h10 h11 f8 g8", "h12 d8");
        assert_eq!(judged(&b, "h8"), Verdict::Free);
        // A straight four alone is one four.
        let b = board("e8 f8 g8", "");
        assert_eq!(judged(&b, "h8"), Verdict::Free);
    }

    #[test]
    fn a_five_beats_a_forbidden_shape() {
        // d8 makes five on row 8 (a8 b8 c8 d8 e8) and two fours in column d.
        let b = board("a8 b8 c8 e8 d9 d10 d11 d5 d6", "d12 d4");
        assert_eq!(judged(&b, "d8"), Verdict::Five);
        assert_eq!(forbidden(&b, pt("d8")), None);
        // Five and overline at once: the five wins too.
        let b = board("a8 b8 c8 e8 d9 d10 d11 d6 d5", "");
        assert_eq!(judged(&b, "d8"), Verdict::Five);
        // Overline alone.
        let b = board("a8 b8 c8 e8 f8", "");
        assert_eq!(judged(&b, "d8"), Verdict::Forbidden(Forbidden::Overline));
    }

    #[test]
    fn a_three_whose_straight_four_point_is_forbidden_is_no_three() {
        // As in plain_shapes, h8 would make threes on row 8 and in column h;
        // but the row's only straight-four point, i8, is a double-four
        // (column i8-i11 and diagonal i8-l11, and row f8-i8 with h8 on the
        // board), so the row's three is no three and h8 is allowed.
        let b = board("f8 g8 h9 h10 i9 i10 i11 j9 k10 l11", "d8");
        assert_eq!(judged(&b, "i8"), Verdict::Forbidden(Forbidden::DoubleFour));
        assert_eq!(judged(&b, "h8"), Verdict::Free);
    }

    #[test]
    fn a_three_whose_straight_four_point_makes_five_is_no_three() {
        // RIF 3: a three is made a straight four "without at the same time a
        // five in a row is made". Here i8 would also complete i8-i12.
        let b = board("f8 g8 h9 h10 i9 i10 i11 i12", "d8");
        assert_eq!(judged(&b, "i8"), Verdict::Five);
        assert_eq!(judged(&b, "h8"), Verdict::Free);
    }

    #[test]
    fn all_points_of_a_board() {
        let b = board("f8 g8 h9 h10 a2 b2 d2 e2 f2", "d8");
        let all: Vec<(Point, Forbidden)> = ForbiddenPoints::of(&b).iter().collect();
        assert_eq!(all, reference::forbidden_points(&b));
        assert!(all.contains(&(pt("h8"), Forbidden::DoubleThree)));
        assert!(all.contains(&(pt("c2"), Forbidden::Overline)));
        assert!(ForbiddenPoints::of(&Board::empty()).is_empty());
    }
}
