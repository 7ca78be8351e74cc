//! Benchmark: every forbidden point of a whole board, as the platform marks
//! them after every move. Run with `cargo bench -p renju`.
//!
//! Boards: the position after every move of 40 seeded random games of 120
//! moves (stones placed near earlier ones, so shapes crowd as in play), and
//! 200 dense patches of stones around the centre (many threes and fours,
//! the recursive three rule often at work). The anchor, timed in the same
//! run, is the plain implementation straight from the definitions
//! (`renju::reference`).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{patch, Rng};
use renju::{reference, shape, Board, Color, ForbiddenPoints, Point};
use std::hint::black_box;
use std::time::Instant;

/// The boards after each move of a random game near the centre.
fn game_boards(rng: &mut Rng, moves: usize) -> Vec<Board> {
    let mut b = Board::empty();
    let mut out = Vec::with_capacity(moves);
    let mut color = Color::Black;
    b.set(Point::CENTRE, color);
    out.push(b.clone());
    for _ in 1..moves {
        color = color.other();
        let near: Vec<Point> = b
            .empty_points()
            .filter(|p| {
                (-2..=2).any(|dc| (-2..=2).any(|dr| p.offset(dc, dr).is_some_and(|q| !b.is_empty_at(q))))
            })
            .collect();
        let p = near[rng.below(near.len())];
        b.set(p, color);
        out.push(b.clone());
    }
    out
}

/// Mean microseconds per board of `f` over `boards`, best of `rounds`.
fn time(boards: &[Board], rounds: usize, f: impl Fn(&Board) -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut found = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        found = 0;
        for b in boards {
            found += f(black_box(b));
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e6 / boards.len() as f64);
    }
    (best, found)
}

fn main() {
    shape::warm_up();
    let mut rng = Rng(0xbe_2026_1204);
    let games: Vec<Board> = (0..40).flat_map(|_| game_boards(&mut rng, 120)).collect();
    let patches: Vec<Board> = (0..200)
        .map(|_| {
            let side = 9 + rng.below(7);
            patch(&mut rng, side, 300, 150)
        })
        .collect();
    println!("renju forbidden points of a whole board (mean per board, best of 5 rounds)");
    for (name, boards) in [
        ("random games, after every move", &games),
        ("dense patches", &patches),
    ] {
        let stones: usize = boards.iter().map(Board::stones).sum();
        let (fast, n_fast) = time(boards, 5, |b| ForbiddenPoints::of(b).len());
        let (slow, n_slow) = time(boards, 1, |b| reference::forbidden_points(b).len());
        assert_eq!(n_fast, n_slow, "the two implementations disagree");
        println!(
            "  {name}: {} boards, {:.0} stones and {:.2} forbidden points on average",
            boards.len(),
            stones as f64 / boards.len() as f64,
            n_fast as f64 / boards.len() as f64
        );
        println!(
            "    ForbiddenPoints::of      {fast:>10.2} µs\n    reference (definitions)  {slow:>10.2} µs   ratio {:.0}×",
            slow / fast
        );
    }
}
