//! One module per subcommand.

pub mod admin;
pub mod bench;
pub mod engine;
pub mod judge;
pub mod match_;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod serve;

use anyhow::Context;

/// Reads a FEN argument (`startpos` allowed) into a position.
pub fn position(fen: &str) -> anyhow::Result<xiangqi::Position> {
    xiangqi::Position::from_fen(fen).with_context(|| format!("bad FEN {fen:?}"))
}
