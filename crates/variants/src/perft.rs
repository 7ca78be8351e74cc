//! Perft: the leaves of the legal-move tree, the standard check of a move
//! generator against published counts and against other implementations.

use crate::{Move, Position};

/// Leaf count at `depth`, the last ply counted in bulk.
#[must_use]
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            for m in pos.legal_moves() {
                let undo = pos.play_unchecked(m);
                nodes += perft(pos, depth - 1);
                pos.undo(m, undo);
            }
            nodes
        }
    }
}

/// Per-move leaf counts at `depth` (≥ 1): where two generators disagree.
#[must_use]
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        let undo = pos.play_unchecked(m);
        out.push((m, perft(pos, depth.saturating_sub(1))));
        pos.undo(m, undo);
    }
    out
}
