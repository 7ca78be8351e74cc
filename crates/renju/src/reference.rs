//! A second implementation of black's forbidden points, written straight
//! from the definitions of RIF article 3 on the whole board, with no tables
//! and no windows: slow and plain. Tests compare the fast search
//! (`forbidden.rs`) with it on many boards, and the benchmark uses it as its
//! anchor.

use crate::board::{Board, DIRECTIONS};
use crate::forbidden::{Forbidden, Verdict};
use crate::point::{Color, Point};

/// The black stones of the unbroken row through `p` along `dir` (p black).
fn row_through(board: &Board, p: Point, dir: usize) -> Vec<Point> {
    let (dc, dr) = DIRECTIONS[dir];
    let mut row = vec![p];
    for sign in [-1, 1] {
        let mut q = p;
        while let Some(n) = q.offset(sign * dc, sign * dr) {
            if board.get(n) != Some(Color::Black) {
                break;
            }
            row.push(n);
            q = n;
        }
    }
    row.sort();
    row
}

/// The empty points of the whole line through `p` along `dir`.
fn empty_on_line(board: &Board, p: Point, dir: usize) -> Vec<Point> {
    let (dc, dr) = DIRECTIONS[dir];
    let mut out = Vec::new();
    for sign in [-1, 1] {
        let mut q = p;
        while let Some(n) = q.offset(sign * dc, sign * dr) {
            if board.is_empty_at(n) {
                out.push(n);
            }
            q = n;
        }
    }
    out
}

/// With `q` black too, is there exactly five through `p` that holds `q`?
fn five_with(board: &mut Board, p: Point, q: Point, dir: usize) -> Option<Vec<Point>> {
    board.set(q, Color::Black);
    let row = row_through(board, p, dir);
    board.clear(q);
    (row.len() == 5 && row.contains(&q)).then_some(row)
}

/// The fours through `p` (black) along `dir`: distinct sets of four stones.
fn fours(board: &mut Board, p: Point, dir: usize) -> Vec<Vec<Point>> {
    let mut found: Vec<Vec<Point>> = Vec::new();
    for q in empty_on_line(board, p, dir) {
        if let Some(mut row) = five_with(board, p, q, dir) {
            row.retain(|&s| s != q);
            if !found.contains(&row) {
                found.push(row);
            }
        }
    }
    found
}

/// The threes through `p` (black) along `dir`: each distinct set of three
/// stones with the points that make it a straight four.
fn threes(board: &mut Board, p: Point, dir: usize) -> Vec<(Vec<Point>, Vec<Point>)> {
    let (dc, dr) = DIRECTIONS[dir];
    let mut found: Vec<(Vec<Point>, Vec<Point>)> = Vec::new();
    for q in empty_on_line(board, p, dir) {
        board.set(q, Color::Black);
        let row = row_through(board, p, dir);
        let mut straight = false;
        if row.len() == 4 && row.contains(&q) {
            // The two ends of the unbroken four; each must be empty and
            // make exactly five.
            let first = row[0];
            let last = row[3];
            // The row is sorted by point index, which grows along every
            // direction's step, so `first` is the low end.
            let ends = [first.offset(-dc, -dr), last.offset(dc, dr)];
            straight = ends
                .iter()
                .all(|e| e.is_some_and(|e| board.is_empty_at(e) && five_with(board, p, e, dir).is_some()));
        }
        board.clear(q);
        if straight {
            let three: Vec<Point> = row.into_iter().filter(|&s| s != q).collect();
            match found.iter_mut().find(|(t, _)| *t == three) {
                Some((_, qs)) => qs.push(q),
                None => found.push((three, vec![q])),
            }
        }
    }
    found
}

/// Judges a black stone on the empty point `p`, from the definitions.
pub fn verdict(board: &mut Board, p: Point) -> Verdict {
    board.set(p, Color::Black);
    let v = judge_placed(board, p);
    board.clear(p);
    v
}

fn judge_placed(board: &mut Board, p: Point) -> Verdict {
    let lens: Vec<usize> = (0..4).map(|d| row_through(board, p, d).len()).collect();
    if lens.contains(&5) {
        return Verdict::Five;
    }
    if lens.iter().any(|&n| n >= 6) {
        return Verdict::Forbidden(Forbidden::Overline);
    }
    let four_count: usize = (0..4).map(|d| fours(board, p, d).len()).sum();
    if four_count >= 2 {
        return Verdict::Forbidden(Forbidden::DoubleFour);
    }
    let mut real = 0;
    for d in 0..4 {
        for (_, qs) in threes(board, p, d) {
            // A three is real if one of its straight-four points is free:
            // not forbidden, and not a five at the same time.
            if qs.iter().any(|&q| verdict(board, q) == Verdict::Free) {
                real += 1;
            }
        }
    }
    if real >= 2 {
        Verdict::Forbidden(Forbidden::DoubleThree)
    } else {
        Verdict::Free
    }
}

/// Every forbidden point of `board`, in point order.
#[must_use]
pub fn forbidden_points(board: &Board) -> Vec<(Point, Forbidden)> {
    let mut b = board.clone();
    board
        .empty_points()
        .filter_map(|p| match verdict(&mut b, p) {
            Verdict::Forbidden(f) => Some((p, f)),
            _ => None,
        })
        .collect()
}
