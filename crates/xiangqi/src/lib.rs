//! Xiangqi (中国象棋) rules: the board, legal moves, FEN, notation, perft.
//!
//! Pure and synchronous: no I/O, so the engine, the referee, the server and
//! the tests all share it. The layout follows shakmaty: an unvalidated
//! [`Setup`] becomes a [`Position`] only through a constructor that names what
//! is wrong; moves, squares and pieces are small `Copy` types.

mod attacks;
mod bitboard;
pub mod fen;
mod moves;
pub mod notation;
pub mod perft;
mod position;
mod square;
mod types;
pub mod zobrist;

pub use attacks::between;
pub use bitboard::Bitboard;
pub use fen::{FenError, PositionError, Setup, STARTPOS};
pub use moves::{Move, MoveList, ParseMoveError};
pub use position::{IllegalMove, Position, Undo};
pub use square::Square;
pub use types::{Color, Piece, Role};
