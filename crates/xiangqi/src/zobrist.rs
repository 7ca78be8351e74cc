//! Zobrist hashing: one random key per (piece, square) plus one for the side
//! to move, generated at compile time from a fixed seed so keys are stable
//! across runs (opening books and stored positions depend on that).

use crate::{Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn piece_keys() -> [[u64; 90]; 14] {
    let mut t = [[0u64; 90]; 14];
    let mut state = 0x5149_4A55_u64; // "QIJU"
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 90 {
            let (s, k) = splitmix(state);
            state = s;
            t[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    t
}

static PIECE_KEYS: [[u64; 90]; 14] = piece_keys();

/// Xored in when black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0xB1AC_u64).1;

#[inline]
#[must_use]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.index()][sq.index()]
}
