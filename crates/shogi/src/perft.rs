//! Perft: the number of legal move paths of a given length, the standard
//! check of a move generator against published counts (non-promotions
//! included, as the published shogi counts include them).

use crate::sfen::{parse_sfen, SfenError};
use crate::usi::{legal_moves, usi};
use rsshogi::board::Position;

/// The number of legal move sequences of `depth` plies from `sfen`.
///
/// # Errors
/// [`SfenError`] for a bad SFEN.
pub fn perft(sfen: &str, depth: u32) -> Result<u64, SfenError> {
    let (mut pos, _) = parse_sfen(sfen)?;
    Ok(count(&mut pos, depth))
}

/// Perft of a position (its move stack ready, as [`parse_sfen`] leaves it).
#[must_use]
pub fn count(pos: &mut Position, depth: u32) -> u64 {
    let Ok(depth) = u8::try_from(depth) else {
        return 0;
    };
    rsshogi::board::perft::compute_perft(pos, depth)
}

/// Perft split by first move: each legal move in USI with the count below
/// it, sorted by move. Empty at depth 0.
///
/// # Errors
/// [`SfenError`] for a bad SFEN.
pub fn perft_divide(sfen: &str, depth: u32) -> Result<Vec<(String, u64)>, SfenError> {
    let (mut pos, _) = parse_sfen(sfen)?;
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut out: Vec<(String, u64)> = legal_moves(&pos)
        .into_iter()
        .map(|m| {
            pos.apply_move32(m);
            let n = count(&mut pos, depth - 1);
            pos.undo_move32(m).expect("undoing the move just played");
            (usi(m), n)
        })
        .collect();
    out.sort();
    Ok(out)
}
