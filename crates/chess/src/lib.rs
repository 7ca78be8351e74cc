//! International chess under the FIDE Laws of Chess, standard and Chess960.
//!
//! The rules themselves (legal moves, check, castling, en passant,
//! promotion) come from [shakmaty], the library behind lichess's tooling;
//! this crate adds what the FIDE Laws decide on top of them — how a game
//! ends, what may be claimed, when a flag fall is a draw — and puts the
//! whole behind [`game::Game`], so the session, the server and the UI play
//! chess without knowing its rules. Moves cross that boundary in UCI
//! (`e2e4`, `e7e8q`; Chess960 castling as king-takes-rook `e1h1`), are shown
//! in SAN (`Nf3`, `exd6`, `e8=N+`), and games are read and written as PGN.
//!
//! One file per concept: [`Variant`] (`variant.rs`), FEN reading with errors
//! in words (`fen.rs`), UCI and SAN (`notation.rs`), endings and claims
//! (`ending.rs`), the refereed game (`game.rs`), Chess960 start positions
//! (`start960.rs`), perft (`perft.rs`) and PGN ([`pgn`]).

mod ending;
mod fen;
mod game;
mod notation;
mod perft;
pub mod pgn;
mod start960;
mod variant;

pub use crate::ending::locked_pawns_dead;
pub use crate::fen::{parse_fen, STANDARD_START_FEN};
pub use crate::game::ChessGame;
pub use crate::notation::{legal_uci_moves, parse_san, parse_uci, san, san_to_uci, uci};
pub use crate::perft::{perft, perft_divide};
pub use crate::start960::chess960_start_fen;
pub use crate::variant::Variant;

/// The shakmaty this crate is built on, so callers that need its types
/// (`Chess`, `Move`) use the same version.
pub use shakmaty;
