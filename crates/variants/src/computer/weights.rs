//! What the computer player counts a piece worth, derived from the piece's
//! movements so that a variant file needs no numbers (a file may still
//! declare `value = N` for a piece).
//!
//! A piece is worth what it can do: its mobility, measured on trial boards
//! where a quarter of the points hold pieces of either side, drawn with a
//! fixed seed, so that a slider's blockers, a cannon's screens (炮架), a
//! horse's leg (马腿) and the regions a movement keeps to all count as they
//! do in play. A capture counts double a quiet move. The piece's worth is
//! its mean mobility over the points it can reach from where it starts;
//! where it stands adds half the difference between its mobility there
//! and that mean — a Xiangqi pawn across the river (three moves) is worth
//! more than one at home (one), a horse in the centre more than one at
//! the edge. Scaled so that a piece of mobility 1 is worth 100 (Xiangqi's
//! soldier at home); royal pieces are worth nothing here (losing one is
//! the end of the game, which the search sees).

use std::sync::Arc;

use game::Side;

use crate::position::Position;
use crate::square::{Move, Square};
use crate::variant::Variant;

/// Trial boards per point and piece.
const SAMPLES: u64 = 24;
/// One point in this many holds a piece on a trial board.
const DENSITY: u64 = 4;
/// Worth of one unit of mobility.
const UNIT: f64 = 100.0;

/// The evaluation tables of a variant: per side, per piece type and
/// point, what a piece standing there is worth.
#[derive(Debug)]
pub struct Weights {
    /// Each piece type's worth, by index in [`Variant::pieces`].
    pub value: Vec<i32>,
    /// `table[side][type * 256 + square]`: worth plus placement.
    table: [Vec<i32>; 2],
}

impl Weights {
    /// The tables of `variant`, computed the first time they are asked
    /// for and kept with the variant.
    #[must_use]
    pub fn of(variant: &Arc<Variant>) -> Arc<Weights> {
        variant
            .weights
            .get_or_init(|| Arc::new(Weights::derive(variant)))
            .clone()
    }

    /// What a piece of `piece` type and `side` standing on `sq` is worth.
    #[inline]
    #[must_use]
    pub fn at(&self, piece: usize, side: Side, sq: Square) -> i32 {
        self.table[side.index()][piece * 256 + usize::from(sq.0)]
    }

    fn derive(variant: &Arc<Variant>) -> Weights {
        let (files, ranks) = variant.size();
        let n = variant.pieces.len();
        let squares: Vec<Square> = (0..ranks)
            .flat_map(|r| (0..files).map(move |f| Square::new(f, r)))
            .collect();
        // Trial boards carry the variant's own non-royal pieces.
        let fillers: Vec<usize> = (0..n).filter(|&t| !variant.pieces[t].royal).collect();
        let mut mobility = vec![0f64; n * 256];
        let mut reach = vec![Vec::<u8>::new(); n * 256];
        let mut seed = 0x5EED_u64;
        for _ in 0..SAMPLES {
            let mut trial = Position::trial(variant.clone(), Side::First);
            for &sq in &squares {
                if !fillers.is_empty() && next(&mut seed).is_multiple_of(DENSITY) {
                    let t = fillers[(next(&mut seed) % fillers.len() as u64) as usize];
                    let side = if next(&mut seed).is_multiple_of(2) {
                        Side::First
                    } else {
                        Side::Second
                    };
                    trial.put(sq, Some((t, side)));
                }
            }
            let mut moves = Vec::new();
            for &sq in &squares {
                let kept = trial.piece_at(sq);
                for t in 0..n {
                    trial.put(sq, Some((t, Side::First)));
                    moves.clear();
                    trial.moves_from(sq, &mut moves);
                    let k = t * 256 + usize::from(sq.0);
                    for m in &moves {
                        let capture = trial.piece_at(m.to).is_some();
                        mobility[k] += if capture { 2.0 } else { 1.0 };
                        if !capture && !reach[k].contains(&m.to.0) {
                            reach[k].push(m.to.0);
                        }
                    }
                }
                trial.put(sq, kept);
            }
        }
        for m in &mut mobility {
            *m /= SAMPLES as f64;
        }
        // Where each type starts (a promoted form where its base does).
        let start = Position::start(variant.clone());
        let mut value = vec![0i32; n];
        let mut table = [vec![0i32; n * 256], vec![0i32; n * 256]];
        for t in 0..n {
            let piece = &variant.pieces[t];
            let base = piece.promoted_from.unwrap_or(t);
            // Both sides' start points, the second's mirrored to the first's view.
            let mut seen: Vec<u8> = Vec::new();
            for &sq in &squares {
                let mirror = Square::new(sq.file(), ranks - 1 - sq.rank());
                for (side, at) in [(Side::First, sq), (Side::Second, mirror)] {
                    if start.piece_at(at) == Some((base, side)) && !seen.contains(&sq.0) {
                        seen.push(sq.0);
                    }
                }
            }
            if seen.is_empty() {
                // Not on the start board: every point counts.
                seen = squares.iter().map(|sq| sq.0).collect();
            }
            let mut i = 0;
            while i < seen.len() {
                for &to in &reach[t * 256 + usize::from(seen[i])] {
                    if !seen.contains(&to) {
                        seen.push(to);
                    }
                }
                i += 1;
            }
            let mean = seen
                .iter()
                .map(|&s| mobility[t * 256 + usize::from(s)])
                .sum::<f64>()
                / seen.len() as f64;
            let worth = if piece.royal {
                0
            } else {
                piece.value.unwrap_or((UNIT * mean).round() as i32)
            };
            value[t] = worth;
            for &sq in &squares {
                let placement = if piece.royal {
                    0.0
                } else {
                    UNIT / 2.0 * (mobility[t * 256 + usize::from(sq.0)] - mean)
                };
                let w = worth + placement.round() as i32;
                table[0][t * 256 + usize::from(sq.0)] = w;
                // The second side's point is the first's mirrored rank-wise,
                // as its regions and directions are.
                let mirror = Square::new(sq.file(), ranks - 1 - sq.rank());
                table[1][t * 256 + usize::from(mirror.0)] = w;
            }
        }
        Weights { value, table }
    }
}

/// splitmix64: the trial boards' fixed sequence.
pub(crate) fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A move's mover and victim, for ordering captures (most valuable victim,
/// least valuable attacker first).
pub(crate) fn mvv_lva(weights: &Weights, pos: &Position, m: Move) -> Option<i32> {
    if !m.moves_a_piece() {
        return None;
    }
    let (victim, _) = pos.piece_at(m.to)?;
    let (attacker, _) = pos.piece_at(m.from)?;
    Some(weights.value[victim] * 16 - weights.value[attacker] / 16)
}
