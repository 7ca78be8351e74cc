//! A fixed search benchmark: nodes per second and time to depth on a set of
//! positions (the start, typical middlegames and an endgame). `qiju engine
//! bench` prints it; docs/PERFORMANCE.md records a run.

use crate::{Engine, Limits};
use std::time::Duration;
use xiangqi::Position;

/// The benchmark positions (FEN).
pub const POSITIONS: &[&str] = &[
    xiangqi::STARTPOS,
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    "r1bakabr1/9/1cn4c1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "2bakab2/9/2n1c1n2/p3p3p/2p6/6P2/P1P1P3P/2N1C1N2/9/2BAKAB2 w - - 0 1",
    "3k5/4a4/4b4/9/9/4R4/9/4B4/4A4/3AK1B2 w - - 0 1",
];

/// One position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub fen: &'static str,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    /// Time at which each depth completed (index 0 = depth 1).
    pub time_to_depth: Vec<Duration>,
}

/// Searches every benchmark position to `depth` with a fresh table.
#[must_use]
pub fn run(depth: u32, hash_mb: usize, threads: usize) -> Vec<BenchLine> {
    let mut engine = Engine::new(hash_mb);
    engine.set_threads(threads);
    POSITIONS
        .iter()
        .map(|&fen| {
            let pos = Position::from_fen(fen).expect("benchmark FENs are valid");
            engine.new_game();
            let mut ttd = Vec::new();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let r = engine
                .search(&pos, &[], &limits, &crate::Control::default(), &mut |i| {
                    ttd.push(i.time)
                })
                .expect("benchmark positions have moves");
            BenchLine {
                fen,
                depth: r.depth,
                nodes: r.nodes,
                time: r.time,
                time_to_depth: ttd,
            }
        })
        .collect()
}
