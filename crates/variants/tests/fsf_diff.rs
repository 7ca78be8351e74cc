//! Differential tests of the shipped variant files against Fairy-Stockfish
//! (`pip install pyffish`): `data/minixiangqi.toml`, `data/manchu.toml` and
//! `data/janggi.toml` against its variants of the same names, and
//! `data/xiangqi.toml` against its `xiangqi` — a second opinion beside
//! `crates/xiangqi` (tests/perft.rs).
//!
//! Positions come from seeded random playouts from the start position
//! (tests/common: `playouts`); for each position the board, the set of
//! legal moves, whether the side to move is in check and, where no move is
//! left, the result are compared, and for manchu and janggi perft(2) of
//! every position and perft(3) of every 50th. The oracle replays each
//! playout's moves, so Janggi's passes and bikjang see the same past.
//!
//! Without pyffish the test says so loudly and passes, unless
//! `QIJU_REQUIRE_ORACLES=1` (as in CI). `QIJU_FSF_POSITIONS=N` compares N
//! positions instead of the defaults.

mod common;

use variants::{JANGGI_TOML, MANCHU_TOML, MINIXIANGQI_TOML, XIANGQI_TOML};

/// perft(2) everywhere, perft(3) of every 50th position.
fn two_and_some_three(i: usize) -> Vec<u32> {
    if i.is_multiple_of(50) {
        vec![2, 3]
    } else {
        vec![2]
    }
}

#[test]
fn fairy_stockfish_agrees_on_minixiangqi() {
    common::compare(MINIXIANGQI_TOML, "minixiangqi", 1000, |_| Vec::new());
}

#[test]
fn fairy_stockfish_agrees_on_xiangqi() {
    common::compare(XIANGQI_TOML, "xiangqi", 500, |_| Vec::new());
}

#[test]
fn fairy_stockfish_agrees_on_manchu() {
    common::compare(MANCHU_TOML, "manchu", 500, two_and_some_three);
}

#[test]
fn fairy_stockfish_agrees_on_janggi() {
    common::compare(JANGGI_TOML, "janggi", 500, two_and_some_three);
}

/// Janggi's rules one by one, on positions set up for them: the cannon
/// over a cannon (refused) and over another piece, along the palace's
/// diagonals; the rook and the soldier on the diagonals; the elephant
/// blocked on either point of its path; kings facing (bikjang) with and
/// without check; a king in check that may not pass.
#[test]
fn fairy_stockfish_agrees_on_janggi_rules() {
    common::compare_fens(
        JANGGI_TOML,
        "janggi",
        &[
            // Cannons: e-file screen is a cannon (no move), d-file screen a horse.
            "5k3/9/9/4c4/9/9/3n5/9/4C4/3CK4 w - - 0 1",
            // Cannon in the palace corner jumping the centre along the diagonal.
            "5k3/9/9/9/9/9/9/9/4A4/3CK4 w - - 0 1",
            "3ak4/4n4/5C3/9/9/9/9/9/9/4K4 w - - 0 1",
            // Rook on the palace diagonals, both palaces.
            "4ka3/4p4/3R5/9/9/9/9/9/4K4/3R5 w - - 0 1",
            // Soldiers in the enemy palace (black in check from the centre).
            "4k4/4P4/3P1P3/9/9/9/9/9/9/4K4 b - - 0 1",
            // Elephants blocked on the first and on the second point.
            "4k4/9/9/9/9/9/2p1p4/2B6/9/4K4 w - - 0 1",
            "3k5/9/9/9/9/9/1pB6/9/9/4K4 w - - 0 1",
            // Kings facing: bikjang, with and without a check.
            "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "4k4/9/9/9/9/9/9/9/9/r3K4 w - - 0 1",
            "4k4/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1",
            // In check: no pass.
            "3k5/9/9/9/9/4r4/9/9/9/4K4 w - - 0 1",
        ],
    );
}
