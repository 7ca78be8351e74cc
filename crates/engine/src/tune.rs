//! Self-play and Texel tuning of the evaluation weights.
//!
//! The method (Texel's, after Peter Österlund): play many fast games against
//! itself, keep quiet positions labelled with the final result (1, ½, 0 for
//! red), and fit the weights so that `sigmoid(K · eval / 400)` predicts the
//! labels, minimising the mean squared error. Because the evaluation is linear
//! in its weights ([`crate::eval`]), each position is reduced once to its
//! sparse term counts and the fit is a few hundred epochs of gradient descent
//! (Adam), seconds on a laptop. `qiju engine selfplay` and `qiju engine tune`
//! drive this; docs/ENGINE.md records a run.

use crate::eval::{self, Params, Sink, PHASE_MAX};
use crate::{Engine, Limits, MATE_BOUND};
use std::collections::HashMap;
use std::fmt::Write as _;
use xiangqi::{Color, Move, Position};

/// How a self-play game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The side to move had no legal move (将死 or 困毙).
    NoMoves,
    /// Threefold repetition, judged by the engine's repetition rules.
    Repetition,
    /// 60 rounds without capture (自然限着).
    NaturalLimit,
    /// Move cap reached.
    MoveCap,
    /// Both searches agreed the game was decided.
    Adjudicated,
}

/// A finished self-play game.
#[derive(Clone, Debug)]
pub struct SelfPlayGame {
    pub start: Position,
    pub moves: Vec<Move>,
    /// 1.0 red won, 0.5 draw, 0.0 black won.
    pub result: f64,
    pub end: GameEnd,
    /// Plies whose position was quiet (not in check, best move not a capture).
    pub quiet: Vec<bool>,
}

/// Options of a self-play run.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Node limit per move.
    pub nodes: u64,
    /// Random plies at the start, for variety.
    pub random_plies: usize,
    /// Ply cap (draw).
    pub max_plies: usize,
    /// Seed of the random openings.
    pub seed: u64,
}

impl Default for SelfPlay {
    fn default() -> SelfPlay {
        SelfPlay {
            nodes: 2_000,
            random_plies: 6,
            max_plies: 300,
            seed: 1,
        }
    }
}

fn rng(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays one game of the engine against itself. Every move played is checked
/// with [`Position::is_legal`]; an illegal one is a bug and panics.
///
/// # Panics
/// If the engine ever returns an illegal move.
#[must_use]
pub fn play_game(engine: &mut Engine, opts: &SelfPlay, game_index: u64) -> SelfPlayGame {
    let mut seed = opts.seed ^ game_index.wrapping_mul(0x2545_F491_4F6C_DD1D);
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut quiet = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    seen.insert(pos.key(), 1);
    let mut decided = [0i32; 2];
    let limits = Limits {
        nodes: Some(opts.nodes),
        seed: seed | 1,
        ..Limits::default()
    };
    engine.new_game();
    loop {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            let result = if pos.turn() == Color::Red { 0.0 } else { 1.0 };
            return SelfPlayGame {
                start,
                moves,
                result,
                end: GameEnd::NoMoves,
                quiet,
            };
        }
        if pos.halfmove_clock() >= 120 {
            return SelfPlayGame {
                start,
                moves,
                result: 0.5,
                end: GameEnd::NaturalLimit,
                quiet,
            };
        }
        if moves.len() >= opts.max_plies {
            return SelfPlayGame {
                start,
                moves,
                result: 0.5,
                end: GameEnd::MoveCap,
                quiet,
            };
        }
        let (mv, score, was_quiet) = if moves.len() < opts.random_plies {
            (legal[(rng(&mut seed) % legal.len() as u64) as usize], 0, false)
        } else {
            let r = engine
                .search_simple(&start, &moves, &limits)
                .expect("a legal game has something to search");
            let v = match r.score {
                crate::Score::Cp(v) => v,
                crate::Score::Mate(n) if n > 0 => MATE_BOUND,
                crate::Score::Mate(_) => -MATE_BOUND,
            };
            (r.best, v, !pos.is_check() && !pos.is_capture(r.best))
        };
        assert!(pos.is_legal(mv), "engine played illegal {mv} in {}", pos.fen());
        // Adjudicate when the side to move has been sure of winning (or
        // losing) for four of its own moves.
        let side = pos.turn().index();
        decided[side] = if score.abs() >= 1200 {
            decided[side] + score.signum()
        } else {
            0
        };
        quiet.push(was_quiet);
        pos.play_unchecked(mv);
        moves.push(mv);
        if decided[side].abs() >= 4 {
            let red_wins = (decided[side] > 0) == (side == 0);
            let result = if red_wins { 1.0 } else { 0.0 };
            return SelfPlayGame {
                start,
                moves,
                result,
                end: GameEnd::Adjudicated,
                quiet,
            };
        }
        let n = seen.entry(pos.key()).or_insert(0);
        *n += 1;
        if *n >= 3 {
            // The engine judges its own repetitions by the rule set; for the
            // labels a plain verdict is enough: the last mover repeated.
            return SelfPlayGame {
                start,
                moves,
                result: 0.5,
                end: GameEnd::Repetition,
                quiet,
            };
        }
    }
}

/// One labelled position reduced to its term counts.
#[derive(Clone, Debug)]
pub struct Sample {
    pub terms: Vec<(u16, i16)>,
    /// Middlegame share: phase / PHASE_MAX.
    pub phase: f32,
    /// Result for red.
    pub result: f32,
}

struct Collect(HashMap<u16, i32>);

impl Sink for Collect {
    fn add(&mut self, index: usize, count: i32) {
        *self.0.entry(index as u16).or_insert(0) += count;
    }
}

/// Reduces a position to its sample.
#[must_use]
pub fn sample(pos: &Position, result: f64) -> Sample {
    let mut c = Collect(HashMap::new());
    eval::features(pos, &mut c);
    let mut terms: Vec<(u16, i16)> =
        c.0.into_iter()
            .filter(|&(_, n)| n != 0)
            .map(|(i, n)| (i, n as i16))
            .collect();
    terms.sort_unstable();
    Sample {
        terms,
        phase: eval::phase(pos) as f32 / PHASE_MAX as f32,
        result: result as f32,
    }
}

fn predict(s: &Sample, w: &[[f64; 2]]) -> f64 {
    let ph = f64::from(s.phase);
    s.terms
        .iter()
        .map(|&(i, n)| f64::from(n) * (w[i as usize][0] * ph + w[i as usize][1] * (1.0 - ph)))
        .sum()
}

fn sigmoid(v: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-k * v / 400.0).exp())
}

/// Mean squared error of the weights on the samples.
#[must_use]
pub fn error(samples: &[Sample], w: &[[f64; 2]], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| (f64::from(s.result) - sigmoid(predict(s, w), k)).powi(2))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

fn as_f64(p: &Params) -> Vec<[f64; 2]> {
    p.weights
        .iter()
        .map(|x| [f64::from(x[0]), f64::from(x[1])])
        .collect()
}

/// Mean squared error of integer weights (as the engine plays them) on the
/// samples: the held-out check of a tuning run.
#[must_use]
pub fn params_error(samples: &[Sample], params: &Params, k: f64) -> f64 {
    error(samples, &as_f64(params), k)
}

/// The scaling constant K that best fits the current weights.
#[must_use]
pub fn fit_k(samples: &[Sample], w: &[[f64; 2]]) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 5.0f64);
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// What a tuning run did.
#[derive(Clone, Debug)]
pub struct TuneReport {
    pub k: f64,
    pub error_before: f64,
    pub error_after: f64,
    pub epochs: usize,
}

/// Fits the weights to the samples by full-batch Adam on the squared error
/// plus an L2 pull of strength `l2` towards the starting weights (per 100
/// units of change), which keeps rarely seen terms near their hand values
/// instead of letting noise in a small data set carry them off.
#[must_use]
pub fn tune(
    samples: &[Sample],
    start: &Params,
    epochs: usize,
    learning_rate: f64,
    l2: f64,
) -> (Params, TuneReport) {
    let n = start.weights.len();
    let mut w = as_f64(start);
    let w0 = w.clone();
    let k = fit_k(samples, &w);
    let error_before = error(samples, &w, k);
    let (mut m, mut v) = (vec![[0f64; 2]; n], vec![[0f64; 2]; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    for epoch in 1..=epochs {
        let mut grad = vec![[0f64; 2]; n];
        for s in samples {
            let p = sigmoid(predict(s, &w), k);
            // d/dw of (r - p)^2 = -2 (r - p) p (1 - p) k/400 * count * share
            let g = -2.0 * (f64::from(s.result) - p) * p * (1.0 - p) * k / 400.0;
            let ph = f64::from(s.phase);
            for &(i, c) in &s.terms {
                let c = f64::from(c) * g;
                grad[i as usize][0] += c * ph;
                grad[i as usize][1] += c * (1.0 - ph);
            }
        }
        let scale = 1.0 / samples.len().max(1) as f64;
        for i in 0..n {
            for j in 0..2 {
                let g = grad[i][j] * scale + 2.0 * l2 * (w[i][j] - w0[i][j]) / 10_000.0;
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * g;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * g * g;
                let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                w[i][j] -= learning_rate * mh / (vh.sqrt() + eps);
            }
        }
    }
    // The king is never captured: its material weight means nothing.
    w[eval::term::MATERIAL][0] = 0.0;
    w[eval::term::MATERIAL][1] = 0.0;
    let error_after = error(samples, &w, k);
    let params = Params {
        weights: w
            .iter()
            .map(|x| [x[0].round() as i32, x[1].round() as i32])
            .collect(),
    };
    (
        params,
        TuneReport {
            k,
            error_before,
            error_after,
            epochs,
        },
    )
}

/// Renders weights as the Rust source of `tuned.rs`.
#[must_use]
pub fn to_rust(params: &Params, note: &str) -> String {
    let mut s = String::new();
    s.push_str("//! Tuned evaluation weights, written by `qiju engine tune` (see\n");
    s.push_str("//! docs/ENGINE.md). Each row is `[middlegame, endgame]` for one term of\n");
    s.push_str("//! [`crate::eval::term`].\n");
    for line in note.lines() {
        let _ = writeln!(s, "//! {line}");
    }
    s.push_str("\n#[rustfmt::skip]\npub static WEIGHTS: &[[i16; 2]] = &[\n");
    for (i, w) in params.weights.iter().enumerate() {
        let _ = writeln!(
            s,
            "    [{}, {}], // {i}",
            w[0].clamp(-32_000, 32_000),
            w[1].clamp(-32_000, 32_000)
        );
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_reproduce_the_evaluation() {
        let params = Params::tuned();
        let w: Vec<[f64; 2]> = params
            .weights
            .iter()
            .map(|x| [f64::from(x[0]), f64::from(x[1])])
            .collect();
        for fen in [
            xiangqi::STARTPOS,
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let s = sample(&pos, 0.5);
            let exact = eval::evaluate_red(&pos, &params);
            assert!((predict(&s, &w) - f64::from(exact)).abs() <= 1.0, "{fen}");
        }
    }

    #[test]
    fn tuning_lowers_the_error() {
        let mut engine = Engine::new(4);
        let opts = SelfPlay {
            nodes: 300,
            max_plies: 120,
            ..SelfPlay::default()
        };
        let mut samples = Vec::new();
        for g in 0..6 {
            let game = play_game(&mut engine, &opts, g);
            let mut pos = game.start.clone();
            for &m in &game.moves {
                pos.play_unchecked(m);
                samples.push(sample(&pos, game.result));
            }
        }
        let (_, report) = tune(&samples, &Params::hand(), 30, 2.0, 0.0);
        assert!(report.error_after <= report.error_before, "{report:?}");
    }
}
