//! Seeded random boards for the forbidden-point tests: dense patches of
//! stones around the centre (where forbidden shapes crowd), random games,
//! and a count of the points where the recursive three rule decides.

#![allow(dead_code)]

use renju::forbidden::Verdict;
use renju::{shape, Board, Color, Point, SIZE};

/// splitmix64: seeded, so a failure can be replayed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, per_mille: u64) -> bool {
        self.next() % 1000 < per_mille
    }
}

/// A square patch of `side` points centred on the board, each point black
/// with probability `black`‰, white with `white`‰.
pub fn patch(rng: &mut Rng, side: usize, black: u64, white: u64) -> Board {
    let mut b = Board::empty();
    let lo = (SIZE - side) / 2;
    for c in lo..lo + side {
        for r in lo..lo + side {
            let u = rng.next() % 1000;
            let p = Point::new(c, r).unwrap();
            if u < black {
                b.set(p, Color::Black);
            } else if u < black + white {
                b.set(p, Color::White);
            }
        }
    }
    b
}

/// A random game of `moves` stones from the centre, each stone next to
/// (within two points of) one already played; nothing ends it.
pub fn playout(rng: &mut Rng, moves: usize) -> Board {
    let mut b = Board::empty();
    b.set(Point::CENTRE, Color::Black);
    let mut color = Color::White;
    for _ in 1..moves {
        let near: Vec<Point> = b
            .empty_points()
            .filter(|p| {
                (-2..=2).any(|dc| (-2..=2).any(|dr| p.offset(dc, dr).is_some_and(|q| !b.is_empty_at(q))))
            })
            .collect();
        if near.is_empty() {
            break;
        }
        let p = near[rng.below(near.len())];
        b.set(p, color);
        color = color.other();
    }
    b
}

/// The board of the `i`-th test position of a seeded series: two thirds
/// patches of varied size and density, one third random games.
pub fn position(rng: &mut Rng, i: usize) -> Board {
    match i % 3 {
        0 | 1 => {
            let side = 7 + rng.below(9);
            let black = 180 + rng.below(250) as u64;
            let white = 40 + rng.below(220) as u64;
            patch(rng, side, black, white)
        }
        _ => {
            let moves = 10 + rng.below(90);
            playout(rng, moves)
        }
    }
}

/// Points of `board` where counting every three by its shape alone would
/// give another answer than the recursive rule (a three whose
/// straight-four points are all forbidden or make five is no three).
pub fn recursive_cases(board: &Board) -> Vec<Point> {
    let mut scratch = board.clone();
    board
        .empty_points()
        .filter(|&p| {
            let lines: Vec<_> = (0..4)
                .map(|d| shape::lookup(board.window(p, d, Color::Black)))
                .collect();
            let by_shape = !lines.iter().any(|s| s.five() || s.overline())
                && lines.iter().map(|s| s.fours()).sum::<u32>() < 2
                && lines.iter().filter(|s| s.three_points() != 0).count() >= 2;
            by_shape && renju::forbidden::verdict(&mut scratch, p) == Verdict::Free
        })
        .collect()
}

/// The board as 225 characters in point order: `x`, `o`, `.`.
pub fn board_line(board: &Board) -> String {
    Point::all()
        .map(|p| match board.get(p) {
            Some(Color::Black) => 'x',
            Some(Color::White) => 'o',
            None => '.',
        })
        .collect()
}
