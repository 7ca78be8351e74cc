//! Benchmark: every forbidden point of a whole board, as the platform marks
//! them after every move. Run with `cargo bench -p renju`.
//!
//! Boards: the position after every move of 40 seeded random games of 120
//! moves (stones placed near earlier ones, so shapes crowd as in play), and
//! 200 dense patches of stones around the centre (many threes and fours,
//! the recursive three rule often at work). The anchors, timed in the same
//! run: the plain implementation straight from the definitions
//! (`renju::reference`), and — when `python3 -c 'import renju'` works —
//! PyPI renju's port of the Piskvork judge on every 10th board, timed
//! inside Python (`tests/renju_oracle.py --bench`).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{patch, Rng};
use renju::{reference, shape, Board, Color, ForbiddenPoints, Point};
use std::hint::black_box;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

/// PyPI renju's mean microseconds per board, if it is installed.
fn piskvork_port(boards: &[Board]) -> Option<f64> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/renju_oracle.py");
    let mut child = Command::new("python3")
        .args([script, "--bench"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let input: String = boards.iter().map(|b| common::board_line(b) + "\n").collect();
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    String::from_utf8(out.stdout).ok()?.trim().parse().ok()
}

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
        let sample: Vec<Board> = boards.iter().step_by(10).cloned().collect();
        match piskvork_port(&sample) {
            Some(py) => println!(
                "    PyPI renju (Python)      {py:>10.0} µs   ratio {:.0}×   ({} boards)",
                py / fast,
                sample.len()
            ),
            None => println!("    PyPI renju: not installed (pip install renju==0.1.0)"),
        }
    }
}
