//! qiju's Xiangqi engine.
//!
//! Iterative deepening alpha-beta with principal variation search, a shared
//! lock-free transposition table, quiescence search, null-move pruning, late
//! move reductions, killer/history/MVV-LVA ordering, static exchange
//! evaluation ([`see`]) and check extensions over a tuned, hand-made
//! evaluation ([`eval`]). Repetitions are judged inside the
//! search by the Chinese rules (a side that only checks, or only checks and
//! chases, in a repeated cycle loses; see [`repetition`]), so the engine
//! neither walks into a perpetual-check loss nor lets an opponent's perpetual
//! go unpunished.
//!
//! The engine is synchronous: call [`Engine::search`] from a thread (the
//! server uses `spawn_blocking`) and stop it with the `Arc<AtomicBool>` in
//! [`Control`]. Eight strength [`Level`]s limit depth and nodes and add
//! deliberate noise for casual players; level 8 is full strength.

pub mod bench;
pub mod eval;
mod level;
pub mod repetition;
mod search;
pub mod see;
pub mod time;
pub mod tt;
pub mod tune;
mod tuned;

pub use level::Level;
pub use repetition::RepetitionRule;
pub use search::{Engine, MATE, MATE_BOUND};

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use xiangqi::Move;

/// The clock as the side to move sees it (UCI `wtime/btime/winc/binc`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the own clock.
    pub time: Duration,
    /// Added after each own move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has stages.
    pub moves_to_go: Option<u32>,
}

/// What bounds one search. Everything `None` and `infinite == false` means
/// "search until stopped" as well, but the protocols always set something.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until stopped (UCI `go infinite`).
    pub infinite: bool,
    /// Strength level; `None` = full strength.
    pub level: Option<Level>,
    /// Root moves not to play (UCCI `banmoves`).
    pub banned: Vec<Move>,
    /// Only these root moves (UCI `searchmoves`); empty = all.
    pub only: Vec<Move>,
    /// Seed for the deliberate randomness of weak levels; 0 = pick one.
    pub seed: u64,
}

/// How the search is controlled from outside while it runs.
#[derive(Clone, Debug, Default)]
pub struct Control {
    /// Set to stop as soon as possible; the best move so far is returned.
    pub stop: Arc<AtomicBool>,
    /// While set, time limits are not applied (UCI `go ponder` until
    /// `ponderhit`); node and depth limits still are.
    pub pondering: Arc<AtomicBool>,
}

/// A score as the protocols report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many moves (negative: being mated). Also used for wins
    /// and losses by the repetition rules, which end a game like a mate.
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    #[must_use]
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

impl std::fmt::Display for Score {
    /// UCI form: `cp 35` or `mate -3`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Progress of a search: one per completed iteration (UCI `info`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    pub nps: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Always a legal move of the searched position.
    pub best: Move,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// Why a search could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("move {index} ({mv}) of the game is illegal: {reason}")]
    IllegalHistory {
        index: usize,
        mv: Move,
        reason: xiangqi::IllegalMove,
    },
    #[error("the side to move has no legal move: the game is over")]
    NoLegalMove,
    #[error("every legal move is banned or excluded")]
    AllMovesExcluded,
}
