//! Perft: the number of legal move paths of a given length, the standard
//! check of a move generator against published counts.

use crate::notation::uci;
use crate::{parse_fen, Variant};
use game::GameError;
use shakmaty::{Chess, Position};

/// The number of legal move sequences of `depth` plies from `fen`.
///
/// # Errors
/// [`GameError::BadPosition`] for a bad FEN.
pub fn perft(fen: &str, variant: Variant, depth: u32) -> Result<u64, GameError> {
    let pos = parse_fen(fen, variant)?;
    Ok(shakmaty::perft(&pos, depth))
}

/// Perft split by first move ("divide"): each legal move in UCI with the
/// count below it, sorted by move — what one compares against another
/// engine to find the move where two generators disagree. Empty at depth 0.
///
/// # Errors
/// [`GameError::BadPosition`] for a bad FEN.
pub fn perft_divide(fen: &str, variant: Variant, depth: u32) -> Result<Vec<(String, u64)>, GameError> {
    let pos = parse_fen(fen, variant)?;
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut out: Vec<(String, u64)> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut child: Chess = pos.clone();
            child.play_unchecked(m);
            (uci(m, variant), shakmaty::perft(&child, depth - 1))
        })
        .collect();
    out.sort();
    Ok(out)
}
