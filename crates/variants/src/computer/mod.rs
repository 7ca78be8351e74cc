//! The computer player of every data-defined variant: one generic search
//! on the variant engine, so a variant file an operator writes has an
//! opponent without a line of code (issue 27, item 7).
//!
//! Alpha-beta (negamax, fail-soft) with iterative deepening, a check
//! extension, a capture search at the horizon (all replies when in check),
//! and move ordering by the last iteration's line, most valuable victim
//! first, killer moves and the history heuristic; a position that comes
//! back (in the game or the line searched) scores as a draw. The evaluation is the
//! pieces' worth where they stand ([`Weights`]: derived from each piece's
//! mobility, or declared in the file). Endings are the variant's own
//! (`Position::end`): checkmate, 困毙 at the value the file gives it,
//! Janggi's bikjang and passes scored by counting.
//!
//! It keeps to its time: the clock is read every 256 nodes, and a search
//! stopped mid-iteration answers the best move it has finished looking at
//! (the previous iteration's best is searched first). Levels 1–5 cap the
//! depth and the nodes and add a little deterministic noise to the root's
//! scores at the lower levels; level 5 searches as deep as its time allows.
//!
//! It is weaker than `crates/engine` on standard Xiangqi (no transposition
//! table, no pruning beyond alpha-beta, a slower move generator) and is
//! not meant to replace it there.

mod search;
mod weights;

use std::time::Duration;

pub use weights::Weights;

use crate::position::Position;
use crate::square::Move;

/// The playing strength, 1 (weakest) to 5: one type for every built-in
/// computer (renju's too); what a level does here is [`limits`].
pub use game::Level;

/// What one level does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies (before extensions).
    pub depth: u32,
    /// Nodes for the whole move.
    pub nodes: u64,
    /// Noise added to each root move's score, up to ± this (a soldier is
    /// about 100), the same for the same position and move.
    pub noise: i32,
}

/// What `level` does in this search: levels 1–4 are node-bound (so their
/// games replay alike on any machine), level 5 as deep as its time allows.
#[must_use]
pub fn limits(level: Level) -> Limits {
    let (depth, nodes, noise) = match level.number() {
        1 => (2, 3_000, 40),
        2 => (3, 12_000, 20),
        3 => (4, 60_000, 8),
        4 => (6, 400_000, 0),
        _ => (search::MAX_DEPTH, u64::MAX, 0),
    };
    Limits { depth, nodes, noise }
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The evaluation's units: a soldier at home is about 100.
    Cp(i32),
    /// Mate (or another won ending) in this many moves; negative when the
    /// side to move loses.
    Mate(i32),
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub best: Move,
    pub score: Score,
    /// The line it expects, the best move first.
    pub pv: Vec<Move>,
    /// The deepest iteration finished (or begun, if stopped in its first).
    pub depth: u32,
    pub nodes: u64,
}

/// The move the computer plays at `level` in `pos`, thinking at most
/// `movetime`. `earlier` are the keys ([`Position::key`]) of the game's
/// positions before `pos`, oldest first: the search counts a position that
/// comes back as a draw, so that a side ahead makes progress instead of
/// going round (these variants have no repetition rule that would stop it).
/// `None` when the game is over (no legal move).
#[must_use]
pub fn choose(pos: &Position, earlier: &[u64], level: Level, movetime: Duration) -> Option<Choice> {
    search::run(pos, earlier, limits(level), movetime)
}

/// The position judged at full strength to `depth` plies, or as deep as
/// `movetime` allows; `earlier` as for [`choose`]. `None` when the game is
/// over.
#[must_use]
pub fn analyse(pos: &Position, earlier: &[u64], depth: u32, movetime: Duration) -> Option<Choice> {
    let limits = Limits {
        depth: depth.clamp(1, search::MAX_DEPTH),
        nodes: u64::MAX,
        noise: 0,
    };
    search::run(pos, earlier, limits, movetime)
}
