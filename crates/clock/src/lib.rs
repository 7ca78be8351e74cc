//! Game clocks for qiju, written once for every game.
//!
//! - [`TimeControl`]: what the rules say — stages of main time (CXA 6.1–6.5:
//!   "T minutes for N moves, then T2 for every further N2", sudden death
//!   包干), Fischer increment, simple and Bronstein delay, Japanese and
//!   Canadian byo-yomi (读秒), a per-move limit, and seed 001's "30 minutes
//!   free, then 30 s a move, each overstep a technical foul". The seed-003
//!   online settings map onto it through [`TimeControl::two_limits`].
//! - Text: `10+5`, `90/40+15/10`, `5|30s x3`, … (grammar in [`parse`]).
//! - [`Clock`]: runs a control on explicit millisecond timestamps, never
//!   the wall clock, so it is exact under test and can be stored (`serde`)
//!   and resumed by a server.

mod clock;
mod control;
pub mod parse;

pub use clock::{hms, parse_hms, Clock, ClockError, ClockEvent, MoveTiming, OvertimeState, SideView};
pub use control::{
    Delay, Millis, Overtime, Preset, Stage, TimeControl, TimeControlError, MAX_MOVES, MAX_PERIODS,
    MAX_PER_MOVE_MS, MAX_STAGE_MS, PRESETS,
};
pub use parse::ParseError;
