//! Engine-vs-engine matches for Xiangqi and for gomoku and renju, and
//! external engines as players.
//!
//! - [`adapter`]: runs any UCI/UCCI engine as a child process, with deadlines
//!   on every answer and restarts after a hang, crash or garbage;
//! - [`runner`]: the match (`qiju match`): colour alternation over an opening
//!   set, the referee's adjudication, clocks, concurrency;
//! - [`pbrain`], [`gomocup`]: the same for gomoku and renju engines over
//!   the Gomocup protocol (`qiju match --game gomoku`);
//! - `pool`: the workers and the tally both runners share;
//! - [`stats`]: Elo with error bars, LOS, SPRT;
//! - [`pgn`], [`openings`], [`tc`]: the file formats and time controls.

pub mod adapter;
pub mod gomocup;
pub mod openings;
pub mod pbrain;
pub mod pgn;
mod pool;
mod process;
pub mod runner;
pub mod stats;
pub mod tc;

pub use adapter::{
    parse_engine_spec, EngineAnswer, EnginePlayer, EngineReply, EngineSpec, ExternalEngine, GoLimit,
    PlayerFailure, Protocol, Ranks,
};
pub use gomocup::{
    canonical_openings, parse_openings, run_gomocup_match, GomocupConfig, GomocupGame, GomocupReport,
};
pub use pbrain::{GameInfo, GomocupPlayer, PbrainEngine};
pub use runner::{run_match, GameReport, MatchConfig, MatchError, MatchReport, SprtOutcome};
pub use stats::{Sprt, SprtState, Tally};
pub use tc::TimeControl;
