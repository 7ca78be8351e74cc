//! Gomoku and renju (五子棋 / 连珠): the 15×15 board, black's forbidden points
//! under the RIF rules, positions, the rule sets `gomoku/freestyle`,
//! `gomoku/standard`, `renju/rif` and seed 001's `renju/office`, position
//! text and game records. Pure rules: no I/O.
//!
//! One file per concept: `point.rs` (points `a1` … `o15`, colours),
//! `board.rs` (stones and line masks), `shape.rs` (what a stone makes along
//! one line), `forbidden.rs` (overline, double-four, double-three, the
//! recursive three), `rules.rs` (the rule sets), `position.rs`, `fen.rs`,
//! `record.rs` (move lists, `.psq`), `opening.rs` (swap2, Soosõrv-8: the
//! opening's steps as moves, which side plays which colour), `game.rs` (the platform's `Game`
//! trait), `announce.rs` (the fours and open threes a move makes, for the
//! office event's announcement rule), `computer/` (the computer player: threat-space search, then
//! alpha-beta), and `reference.rs`, a slow second implementation of the
//! forbidden points straight from the definitions that tests and the
//! benchmark hold the fast one against.

pub mod announce;
pub mod board;
pub mod computer;
pub mod fen;
pub mod forbidden;
pub mod game;
pub mod opening;
pub mod point;
pub mod position;
pub mod record;
pub mod reference;
pub mod rules;
pub mod shape;

pub use board::Board;
pub use fen::{FenError, Setup};
pub use forbidden::{forbidden, Forbidden, ForbiddenPoints, Verdict};
pub use game::RenjuGame;
pub use opening::{Action, Phase, Seats};
pub use point::{Color, Point, PointError, POINTS, SIZE};
pub use position::{End, PlayError, Position, PositionError, Reason};
pub use rules::{FoulPolicy, Opening, RuleSet, Rules, UnknownRules};

/// Either error of reading a position text under a rule set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Position(#[from] PositionError),
}
