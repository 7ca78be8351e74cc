//! What a move threatens, for the office event's announcement rule (seed
//! 001: 如出现活三或四的情况，需向对方作一下提示；如果没有作提示，而照成对手漏判的，对手可以
//! 提出悔棋 — a player who makes an open three or a four says so; one who
//! does not, and whose opponent misses it, may be asked to take the move
//! back). Online the platform can make the announcement itself from this,
//! so the take-back never has to be asked for.
//!
//! A *four* is a row of four that one more stone makes a winning row; an
//! *open three* (活三) a row of three that one more stone makes a straight
//! four. For black in renju both follow RIF article 3: exactly five wins,
//! and a three counts only if a point that makes it a straight four is
//! free for black (not forbidden, not a five at the same time).

use crate::board::{Board, DIRECTIONS};
use crate::forbidden::{self, Verdict};
use crate::point::{Color, Point};
use crate::rules::{RuleSet, Rules};
use crate::shape;
use std::fmt;

/// One threat a move makes along one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Threat {
    /// 四: one more stone wins.
    Four,
    /// 活三: one more stone makes a straight four.
    OpenThree,
}

impl Threat {
    /// The data word on the wire: `four`, `open_three`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Threat::Four => "four",
            Threat::OpenThree => "open_three",
        }
    }
}

impl fmt::Display for Threat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Threat::Four => "four",
            Threat::OpenThree => "open three",
        })
    }
}

/// The threats a stone of `color` on the empty point `p` of `board` makes,
/// one per four (two for `x.xxx.x`) and one per open three, fours first.
#[must_use]
pub fn threats(board: &Board, rules: Rules, color: Color, p: Point) -> Vec<Threat> {
    let exact = match rules.set {
        RuleSet::Standard => true,
        RuleSet::Freestyle => false,
        RuleSet::Renju => color == Color::Black,
    };
    let renju_black = rules.set == RuleSet::Renju && color == Color::Black;
    let mut scratch = board.clone();
    let mut out = Vec::new();
    let mut threes = 0;
    for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
        let w = board.window(p, d, color);
        let s = if exact {
            shape::lookup(w)
        } else {
            shape::lookup_free(w)
        };
        for _ in 0..s.fours() {
            out.push(Threat::Four);
        }
        let points = s.three_points();
        if points == 0 {
            continue;
        }
        let real = !renju_black || {
            scratch.set(p, color);
            let free = (0..7).filter(|b| points >> b & 1 == 1).any(|b| {
                let k = b as isize - 3;
                let q = p.offset(k * dc, k * dr).expect("on the board");
                forbidden::verdict(&mut scratch, q) == Verdict::Free
            });
            scratch.clear(p);
            free
        };
        if real {
            threes += 1;
        }
    }
    out.extend(std::iter::repeat_n(Threat::OpenThree, threes));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(black: &str, white: &str) -> Board {
        let mut b = Board::empty();
        for s in black.split_whitespace() {
            b.set(s.parse().unwrap(), Color::Black);
        }
        for s in white.split_whitespace() {
            b.set(s.parse().unwrap(), Color::White);
        }
        b
    }

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn fours_and_threes() {
        let b = board("f8 g8 h9 h10 h11", "d8");
        // h8: a four in column h (h8-h11) and an open three on row 8.
        assert_eq!(
            threats(&b, Rules::RIF, Color::Black, pt("h8")),
            [Threat::Four, Threat::OpenThree]
        );
        assert_eq!(threats(&b, Rules::RIF, Color::Black, pt("a1")), []);
        // White's stones make white's threats: e8 for white is nothing here.
        assert_eq!(threats(&b, Rules::RIF, Color::White, pt("e8")), []);
        let b = board("d8 f8 h8 j8", "");
        assert_eq!(
            threats(&b, Rules::FREESTYLE, Color::Black, pt("g8")),
            [Threat::Four, Threat::Four]
        );
    }

    #[test]
    fn a_three_black_cannot_extend_is_not_announced() {
        // As in forbidden.rs: the row's straight-four point i8 is a
        // double-four for black, so h8's row three is no three in renju.
        let b = board("f8 g8 h9 h10 i9 i10 i11 j9 k10 l11", "d8");
        assert_eq!(
            threats(&b, Rules::RIF, Color::Black, pt("h8")),
            [Threat::OpenThree]
        );
        // In freestyle both threes are threes.
        assert_eq!(
            threats(&b, Rules::FREESTYLE, Color::Black, pt("h8")),
            [Threat::OpenThree, Threat::OpenThree]
        );
    }
}
