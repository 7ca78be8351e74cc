//! Shogi (将棋) under the Japan Shogi Association's rules.
//!
//! The board rules — legal moves with drops (打ち), the promotion zone with
//! its choice (成/不成) and forced promotion, no piece moved or dropped where
//! it could never move again (行き所のない駒), two pawns on a file (二歩),
//! mate by a pawn drop (打ち歩詰め, a pinned defender included) — come from
//! [rsshogi], a YaneuraOu-style move generator, as chess's come from
//! shakmaty. This crate adds what the rules decide on top of them and puts
//! the whole behind [`game::Game`]: how a game ends (詰み, 千日手 and
//! perpetual check), the impasse rules (持将棋: the JSA's 24 points and the
//! CSA's 27-point declaration), handicaps (駒落ち) in which the giver moves
//! first, and the formats players use.
//!
//! One file per concept: SFEN read with errors in words (`sfen.rs`), USI
//! moves and the legal move list (`usi.rs`), Japanese and western notation
//! (`notation.rs`), handicaps (`handicap.rs`), impasse (`impasse.rs`), the
//! refereed game (`game.rs`), perft (`perft.rs`), and KIF and CSA records
//! ([`kif`], [`csa`], on the shared [`record`]).

pub mod csa;
mod game;
mod handicap;
mod impasse;
pub mod kif;
mod notation;
mod perft;
pub mod record;
mod sfen;
mod usi;

pub use crate::game::{RepetitionKey, ShogiGame};
pub use crate::handicap::{is_even_start, Handicap};
pub use crate::impasse::{
    camp_count, claim as impasse_claim, declaration_threshold, king_entered, piece_points, total_points,
    ImpasseRule, ImpasseRuling,
};
pub use crate::notation::{japanese, parse_japanese, western, western_piece, western_square};
pub use crate::perft::{count as perft_position, perft, perft_divide};
pub use crate::sfen::{file_rank, parse_sfen, piece_sfen, square, write_sfen, SfenError, STARTPOS};
pub use crate::usi::{legal_moves, legal_usi_moves, parse_usi, piece_name, usi};

/// The rsshogi this crate is built on, so callers that need its types
/// (`Position`, `Move32`) use the same version.
pub use rsshogi;
