//! The running clock: two sides' time under one [`TimeControl`].
//!
//! The clock never reads the wall clock. Every call that depends on time
//! takes the caller's timestamp in milliseconds (the server's monotonic time,
//! or a recorded one), which makes the clock exact to test, and lets a server
//! store it (it is `serde`) and resume it after a crash. Time may never go
//! backwards between calls.
//!
//! Only the side to move has a running clock. Its state is stored as of the
//! start of its turn, plus the time spent on this turn so far; everything
//! "now" (remaining time, byo-yomi period, oversteps, the flag) is computed
//! from that, so nothing is lost or double-counted however often it is read.

use crate::control::{Delay, Millis, Overtime, TimeControl, TimeControlError};
use game::Side;
use serde::{Deserialize, Serialize};

/// Where a side stands once its main time is used up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum OvertimeState {
    Byoyomi { periods_left: u32 },
    Canadian { left_ms: Millis, moves_left: u32 },
    FoulPerMove,
}

/// One side's clock as of the start of its current or next turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct SideState {
    main_ms: Millis,
    /// Index into the control's stages.
    stage: usize,
    /// Moves made in the current stage.
    stage_moves: u32,
    moves: u32,
    used_ms: Millis,
    oversteps: u32,
    overtime: Option<OvertimeState>,
    /// Went berserk (an arena's choice, lichess's rule): half the main
    /// time, and no increment from then on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    berserk: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
enum Run {
    NotStarted,
    /// The side to move's clock runs since `since`; `before_ms` of this turn
    /// were spent before a pause. `reported` oversteps of this turn have
    /// been handed out by [`Clock::poll`].
    Running {
        since: Millis,
        before_ms: Millis,
        reported: u32,
    },
    Paused {
        turn_ms: Millis,
        reported: u32,
    },
    Stopped,
    Flagged {
        side: Side,
        at: Millis,
    },
}

/// Something the passing of time did, with the exact moment it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ClockEvent {
    /// `side` spent another full per-move period of the seed-001 mode; the
    /// `count`-th overstep of the game for that side.
    Overstep { side: Side, at: Millis, count: u32 },
    /// `side`'s time ran out (落旗, CXA 22.2).
    Flag { side: Side, at: Millis },
}

impl ClockEvent {
    #[must_use]
    pub fn at(self) -> Millis {
        match self {
            ClockEvent::Overstep { at, .. } | ClockEvent::Flag { at, .. } => at,
        }
    }
}

/// What one press of the clock recorded about the move just made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveTiming {
    pub side: Side,
    /// Time the move took on the clock (pauses excluded): `[%emt]`.
    pub spent_ms: Millis,
    /// Main time left after the press, increments and new stages included:
    /// `[%clk]`.
    pub main_ms: Millis,
    /// Oversteps (seed-001 mode) this move made.
    pub oversteps: u32,
    /// The stage (index) this move completed the quota of and so entered,
    /// if any.
    pub entered_stage: Option<usize>,
    /// Moves this side has made, this one included.
    pub moves: u32,
}

/// What a side's clock shows, for display and for the server's timers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideView {
    /// Main time left.
    pub main_ms: Millis,
    /// Simple delay still to run before main time counts down.
    pub delay_left_ms: Millis,
    /// The current stage, counted from 1 (0 when untimed).
    pub stage: usize,
    /// Moves still to make in the current stage before its time control,
    /// `None` in sudden death.
    pub moves_to_control: Option<u32>,
    pub moves: u32,
    /// Total clock time used so far, this turn included.
    pub used_ms: Millis,
    /// Overtime state when main time is gone, with the time left in the
    /// current period.
    pub overtime: Option<OvertimeState>,
    pub period_left_ms: Option<Millis>,
    /// Time left under the per-move limit, on the running side.
    pub move_limit_left_ms: Option<Millis>,
    pub oversteps: u32,
    pub running: bool,
    pub flagged: bool,
}

/// Why the clock refused a command; the clock is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    #[error("the clock has not been started")]
    NotStarted,
    #[error("the clock has already been started")]
    AlreadyStarted,
    #[error("the clock is paused")]
    Paused,
    #[error("the clock is not paused")]
    NotPaused,
    #[error("the clock has been stopped")]
    Stopped,
    #[error("it is not {side}'s turn on the clock")]
    NotYourTurn { side: Side },
    #[error("time went backwards: {at} ms is before {last} ms")]
    TimeWentBackwards { at: Millis, last: Millis },
    #[error("{side}'s time ran out at {at} ms")]
    Flagged { side: Side, at: Millis },
    #[error("{side} is in overtime; time can only be given in main time")]
    InOvertime { side: Side },
    #[error("{side} cannot go berserk: {why}")]
    Berserk { side: Side, why: &'static str },
    #[error(transparent)]
    Control(#[from] TimeControlError),
}

/// A two-sided game clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    control: TimeControl,
    sides: [SideState; 2],
    turn: Side,
    run: Run,
    last_at: Millis,
}

impl Clock {
    /// A stopped clock, `Side::First` to move, not yet started.
    pub fn new(control: TimeControl) -> Result<Clock, TimeControlError> {
        control.validate()?;
        let main_ms = control.stages.first().map_or(0, |s| s.time_ms);
        let side = SideState {
            main_ms,
            stage: 0,
            stage_moves: 0,
            moves: 0,
            used_ms: 0,
            oversteps: 0,
            overtime: None,
            berserk: false,
        };
        Ok(Clock {
            control,
            sides: [side.clone(), side],
            turn: Side::First,
            run: Run::NotStarted,
            last_at: 0,
        })
    }

    #[must_use]
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The side whose turn it is on the clock.
    #[must_use]
    pub fn turn(&self) -> Side {
        self.turn
    }

    #[must_use]
    pub fn is_running(&self) -> bool {
        matches!(self.run, Run::Running { .. })
    }

    /// The time of the latest call that moved the clock on; earlier times
    /// are refused.
    #[must_use]
    pub fn last_at(&self) -> Millis {
        self.last_at
    }

    /// Whether the clock has stopped for good (stopped or flagged).
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        matches!(self.run, Run::Stopped | Run::Flagged { .. })
    }

    #[must_use]
    pub fn is_started(&self) -> bool {
        !matches!(self.run, Run::NotStarted)
    }

    /// The side that ran out of time, and when, once a flag has been seen.
    #[must_use]
    pub fn flagged(&self) -> Option<(Side, Millis)> {
        match self.run {
            Run::Flagged { side, at } => Some((side, at)),
            _ => None,
        }
    }

    /// Starts `first`'s clock at `at`.
    pub fn start(&mut self, first: Side, at: Millis) -> Result<(), ClockError> {
        if !matches!(self.run, Run::NotStarted) {
            return Err(ClockError::AlreadyStarted);
        }
        self.turn = first;
        self.run = Run::Running {
            since: at,
            before_ms: 0,
            reported: 0,
        };
        self.last_at = at;
        Ok(())
    }

    fn check_time(&self, at: Millis) -> Result<(), ClockError> {
        if at < self.last_at {
            return Err(ClockError::TimeWentBackwards {
                at,
                last: self.last_at,
            });
        }
        Ok(())
    }

    /// Time spent on the current turn as of `at`.
    fn turn_elapsed(&self, at: Millis) -> Millis {
        match self.run {
            Run::Running { since, before_ms, .. } => before_ms + at.saturating_sub(since),
            Run::Paused { turn_ms, .. } => turn_ms,
            _ => 0,
        }
    }

    /// The absolute time at which turn-elapsed `e` is (or was) reached.
    fn absolute(&self, e: Millis) -> Millis {
        match self.run {
            Run::Running { since, before_ms, .. } => since + e.saturating_sub(before_ms),
            _ => self.last_at,
        }
    }

    fn simple_delay(&self, s: &SideState) -> Millis {
        match self.control.delay {
            Some(Delay::Simple { ms }) if s.overtime.is_none() => ms,
            _ => 0,
        }
    }

    /// Turn-elapsed time at which main time is gone (`None`: untimed).
    fn main_end(&self, s: &SideState) -> Option<Millis> {
        if !self.control.is_timed() {
            return None;
        }
        Some(if s.overtime.is_none() {
            self.simple_delay(s) + s.main_ms
        } else {
            0
        })
    }

    /// The overtime a side is in (or enters when main time goes) at the
    /// start of its turn; `None` when running out of main time loses.
    fn overtime_at_start(&self, s: &SideState) -> Option<OvertimeState> {
        if let Some(o) = s.overtime {
            return Some(o);
        }
        // Running out inside a stage with a quota is failing to complete
        // the moves in time (CXA 4.1.4), whatever overtime follows later.
        let stage = self.control.stages.get(s.stage)?;
        if !stage.is_sudden_death() {
            return None;
        }
        Some(match self.control.overtime? {
            Overtime::Byoyomi { periods, .. } => OvertimeState::Byoyomi {
                periods_left: periods,
            },
            Overtime::Canadian { period_ms, moves } => OvertimeState::Canadian {
                left_ms: period_ms,
                moves_left: moves,
            },
            Overtime::FoulPerMove { .. } => OvertimeState::FoulPerMove,
        })
    }

    /// Turn-elapsed time at which `s` flags, if it can.
    fn flag_after(&self, s: &SideState) -> Option<Millis> {
        let limit = self.control.move_limit_ms;
        let Some(main_end) = self.main_end(s) else {
            return limit;
        };
        let by_clock = match (self.overtime_at_start(s), self.control.overtime) {
            (None, _) | (_, None) => Some(main_end),
            (Some(OvertimeState::Byoyomi { periods_left }), Some(Overtime::Byoyomi { period_ms, .. })) => {
                Some(main_end + Millis::from(periods_left) * period_ms)
            }
            (Some(OvertimeState::Canadian { left_ms, .. }), _) => Some(main_end + left_ms),
            _ => None,
        };
        match (limit, by_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Oversteps (seed-001 mode) of this turn by turn-elapsed `e`.
    fn oversteps_by(&self, s: &SideState, e: Millis) -> u32 {
        match (self.control.overtime, self.main_end(s), self.overtime_at_start(s)) {
            (Some(Overtime::FoulPerMove { limit_ms }), Some(end), Some(_)) if e > end => {
                u32::try_from((e - end) / limit_ms).unwrap_or(u32::MAX)
            }
            _ => 0,
        }
    }

    fn running_side_flag(&self, at: Millis) -> Option<(Side, Millis)> {
        if !matches!(self.run, Run::Running { .. }) {
            return None;
        }
        let s = &self.sides[self.turn.index()];
        let f = self.flag_after(s)?;
        (self.turn_elapsed(at) >= f).then(|| (self.turn, self.absolute(f)))
    }

    /// When the running side will flag (or flagged), as an absolute time:
    /// what a server schedules its timer for.
    #[must_use]
    pub fn flag_time(&self) -> Option<(Side, Millis)> {
        if !matches!(self.run, Run::Running { .. }) {
            return None;
        }
        let f = self.flag_after(&self.sides[self.turn.index()])?;
        Some((self.turn, self.absolute(f)))
    }

    /// The next moment the passing of time changes anything (a flag or an
    /// overstep): when [`Clock::poll`] next has something to say.
    #[must_use]
    pub fn next_event_at(&self) -> Option<Millis> {
        let Run::Running { reported, .. } = self.run else {
            return None;
        };
        let s = &self.sides[self.turn.index()];
        let flag = self.flag_after(s).map(|f| self.absolute(f));
        let over = match (self.control.overtime, self.main_end(s), self.overtime_at_start(s)) {
            (Some(Overtime::FoulPerMove { limit_ms }), Some(end), Some(_)) => {
                Some(self.absolute(end + (Millis::from(reported) + 1) * limit_ms))
            }
            _ => None,
        };
        match (flag, over) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Brings the clock up to `at`: reports every overstep and the flag that
    /// happened by then, each with its own time, in order. After a flag the
    /// clock stands still.
    pub fn poll(&mut self, at: Millis) -> Result<Vec<ClockEvent>, ClockError> {
        self.check_time(at)?;
        let mut events = Vec::new();
        let Run::Running { reported, .. } = self.run else {
            return Ok(events);
        };
        let side = self.turn;
        let s = &self.sides[side.index()];
        let flag = self.flag_after(s);
        let e = self.turn_elapsed(at);
        let seen = flag.map_or(e, |f| e.min(f));
        let n = self.oversteps_by(s, seen);
        if let Some(Overtime::FoulPerMove { limit_ms }) = self.control.overtime {
            let end = self.main_end(s).unwrap_or(0);
            for k in reported + 1..=n {
                events.push(ClockEvent::Overstep {
                    side,
                    at: self.absolute(end + Millis::from(k) * limit_ms),
                    count: s.oversteps + k,
                });
            }
        }
        if let Run::Running { reported, .. } = &mut self.run {
            *reported = n.max(*reported);
        }
        if let Some(f) = flag.filter(|&f| e >= f) {
            let flag_at = self.absolute(f);
            events.push(ClockEvent::Flag { side, at: flag_at });
            let s = &mut self.sides[side.index()];
            s.used_ms += f;
            s.oversteps += n;
            s.main_ms = 0;
            self.run = Run::Flagged { side, at: flag_at };
        }
        self.last_at = at;
        Ok(events)
    }

    /// `side` completes its move at `at` and presses the clock. Refused
    /// (and nothing changes) when `side`'s time had already run out by
    /// then: the caller then polls and rules on the flag (CXA 22.5).
    pub fn press(&mut self, side: Side, at: Millis) -> Result<MoveTiming, ClockError> {
        self.press_then(side, side.other(), at)
    }

    /// As [`Clock::press`], and `next` moves after: the opponent, or
    /// `side` again where a rule gives one player several moves in a row
    /// (renju's and gomoku's opening rules: three opening stones, a choice
    /// then a stone). Each move is one move for the clock — its increment,
    /// its stage count — and a fresh turn starts for `next`.
    pub fn press_then(&mut self, side: Side, next: Side, at: Millis) -> Result<MoveTiming, ClockError> {
        self.end_turn(side, next, at, true)
    }

    /// The turn passes to `next` without a move (a takeback): the side on
    /// turn is charged the time it has used, as for a move, but earns no
    /// increment, counts no move toward a stage's quota and keeps its
    /// Canadian period's count. `next` starts a fresh turn (a fresh
    /// byo-yomi period, as after a move). Refused as a press is: before the
    /// start, while paused, after a flag.
    pub fn hand_over(&mut self, next: Side, at: Millis) -> Result<(), ClockError> {
        self.end_turn(self.turn, next, at, false).map(|_| ())
    }

    fn end_turn(
        &mut self,
        side: Side,
        next: Side,
        at: Millis,
        as_move: bool,
    ) -> Result<MoveTiming, ClockError> {
        self.check_time(at)?;
        match self.run {
            Run::Running { .. } => {}
            Run::NotStarted => return Err(ClockError::NotStarted),
            Run::Paused { .. } => return Err(ClockError::Paused),
            Run::Stopped => return Err(ClockError::Stopped),
            Run::Flagged { side, at } => return Err(ClockError::Flagged { side, at }),
        }
        if side != self.turn {
            return Err(ClockError::NotYourTurn { side });
        }
        if let Some((side, at)) = self.running_side_flag(at) {
            return Err(ClockError::Flagged { side, at });
        }
        let e = self.turn_elapsed(at);
        let oversteps = self.oversteps_by(&self.sides[side.index()], e);
        let main_end = self.main_end(&self.sides[side.index()]);
        let ot_start = self.overtime_at_start(&self.sides[side.index()]);
        let delay = self.simple_delay(&self.sides[side.index()]);
        let control = &self.control;
        let s = &mut self.sides[side.index()];
        match main_end {
            Some(end) if e < end || (s.overtime.is_none() && ot_start.is_none()) => {
                // Still in main time (or untimed-by-stage cases that the
                // flag check has already excluded).
                s.main_ms -= e.saturating_sub(delay).min(s.main_ms);
                if as_move {
                    if let Some(Delay::Bronstein { ms }) = control.delay {
                        s.main_ms += e.min(ms);
                    }
                    if !s.berserk {
                        s.main_ms += control.increment_ms;
                    }
                }
            }
            Some(end) => {
                let o = e - end.min(e);
                s.main_ms = 0;
                s.oversteps += oversteps;
                s.overtime = match (ot_start, control.overtime) {
                    (
                        Some(OvertimeState::Byoyomi { periods_left }),
                        Some(Overtime::Byoyomi { period_ms, .. }),
                    ) => {
                        let lost = u32::try_from(o / period_ms).unwrap_or(u32::MAX);
                        Some(OvertimeState::Byoyomi {
                            periods_left: periods_left - lost.min(periods_left),
                        })
                    }
                    (
                        Some(OvertimeState::Canadian { left_ms, moves_left }),
                        Some(Overtime::Canadian { period_ms, moves }),
                    ) => Some(if as_move && moves_left <= 1 {
                        OvertimeState::Canadian {
                            left_ms: period_ms,
                            moves_left: moves,
                        }
                    } else {
                        OvertimeState::Canadian {
                            left_ms: left_ms - o.min(left_ms),
                            moves_left: moves_left - u32::from(as_move),
                        }
                    }),
                    (other, _) => other,
                };
            }
            None => {}
        }
        s.used_ms += e;
        if as_move {
            s.moves += 1;
            s.stage_moves += 1;
        }
        let mut entered_stage = None;
        if let Some(stage) = control.stages.get(s.stage).filter(|_| as_move) {
            if stage.moves > 0 && s.stage_moves == stage.moves {
                let next = (s.stage + 1).min(control.stages.len() - 1);
                s.main_ms += control.stages[next].time_ms;
                s.stage = next;
                s.stage_moves = 0;
                entered_stage = Some(next);
            }
        }
        let timing = MoveTiming {
            side,
            spent_ms: e,
            main_ms: s.main_ms,
            oversteps,
            entered_stage,
            moves: s.moves,
        };
        self.turn = next;
        self.run = Run::Running {
            since: at,
            before_ms: 0,
            reported: 0,
        };
        self.last_at = at;
        Ok(timing)
    }

    fn refuse_if_flagged(&self, at: Millis) -> Result<(), ClockError> {
        self.check_time(at)?;
        if let Run::Flagged { side, at } = self.run {
            return Err(ClockError::Flagged { side, at });
        }
        if let Some((side, at)) = self.running_side_flag(at) {
            return Err(ClockError::Flagged { side, at });
        }
        Ok(())
    }

    /// Stops both clocks (an arbiter checking a claim, CXA 23.3 停钟审核).
    pub fn pause(&mut self, at: Millis) -> Result<(), ClockError> {
        self.refuse_if_flagged(at)?;
        match self.run {
            Run::Running { reported, .. } => {
                self.run = Run::Paused {
                    turn_ms: self.turn_elapsed(at),
                    reported,
                };
                self.last_at = at;
                Ok(())
            }
            Run::NotStarted => Err(ClockError::NotStarted),
            Run::Paused { .. } => Err(ClockError::Paused),
            Run::Stopped | Run::Flagged { .. } => Err(ClockError::Stopped),
        }
    }

    pub fn resume(&mut self, at: Millis) -> Result<(), ClockError> {
        self.check_time(at)?;
        match self.run {
            Run::Paused { turn_ms, reported } => {
                self.run = Run::Running {
                    since: at,
                    before_ms: turn_ms,
                    reported,
                };
                self.last_at = at;
                Ok(())
            }
            _ => Err(ClockError::NotPaused),
        }
    }

    /// Stops the clock for good (the game ended at `at`); returns the time
    /// the side to move had spent on its unfinished turn, which is added to
    /// its total.
    pub fn stop(&mut self, at: Millis) -> Result<Millis, ClockError> {
        self.refuse_if_flagged(at)?;
        let e = self.turn_elapsed(at);
        match self.run {
            Run::Running { .. } | Run::Paused { .. } => {
                let side = self.turn;
                let s = &self.sides[side.index()];
                let e = match self.flag_after(s) {
                    Some(f) => e.min(f),
                    None => e,
                };
                let oversteps = self.oversteps_by(s, e);
                let in_main = self.main_end(s).is_some_and(|end| e < end) && s.overtime.is_none();
                let delay = self.simple_delay(s);
                let s = &mut self.sides[side.index()];
                s.used_ms += e;
                s.oversteps += oversteps;
                if in_main {
                    s.main_ms -= e.saturating_sub(delay).min(s.main_ms);
                } else if self.control.is_timed() {
                    s.main_ms = 0;
                }
                self.run = Run::Stopped;
                self.last_at = at;
                Ok(e)
            }
            Run::NotStarted => {
                self.run = Run::Stopped;
                self.last_at = at;
                Ok(0)
            }
            Run::Stopped | Run::Flagged { .. } => Err(ClockError::Stopped),
        }
    }

    /// Takes `ms` off `side`'s main time as a penalty (a false claim costs
    /// 5 minutes, CXA 23.3). When main time cannot pay it, the side's time
    /// has run out ("若因此而超时，即判负"): the clock flags it at `at` and
    /// returns the flag. An untimed clock has nothing to take.
    pub fn charge(&mut self, side: Side, ms: Millis, at: Millis) -> Result<Option<ClockEvent>, ClockError> {
        self.refuse_if_flagged(at)?;
        if matches!(self.run, Run::Stopped) {
            return Err(ClockError::Stopped);
        }
        if !self.control.is_timed() || ms == 0 {
            self.last_at = at;
            return Ok(None);
        }
        let left = self.view(side, at).main_ms;
        if left > ms {
            self.sides[side.index()].main_ms -= ms;
            self.last_at = at;
            return Ok(None);
        }
        let e = if side == self.turn {
            self.turn_elapsed(at)
        } else {
            0
        };
        let s = &mut self.sides[side.index()];
        s.used_ms += e;
        s.main_ms = 0;
        self.run = Run::Flagged { side, at };
        self.last_at = at;
        Ok(Some(ClockEvent::Flag { side, at }))
    }

    /// `side` goes berserk (an arena's rule, as lichess plays it): its main
    /// time is halved and it earns no increment from then on. Only before
    /// its first move, once, and not in overtime. Returns the time taken.
    pub fn berserk(&mut self, side: Side, at: Millis) -> Result<Millis, ClockError> {
        self.refuse_if_flagged(at)?;
        if matches!(self.run, Run::Stopped) {
            return Err(ClockError::Stopped);
        }
        let s = &self.sides[side.index()];
        if s.berserk {
            return Err(ClockError::Berserk {
                side,
                why: "already berserk",
            });
        }
        if s.moves > 0 {
            return Err(ClockError::Berserk {
                side,
                why: "only before one's first move",
            });
        }
        if !self.control.is_timed() || s.overtime.is_some() {
            return Err(ClockError::Berserk {
                side,
                why: "only with main time on the clock",
            });
        }
        let s = &mut self.sides[side.index()];
        let taken = s.main_ms / 2;
        s.main_ms -= taken;
        s.berserk = true;
        self.last_at = at;
        Ok(taken)
    }

    /// Whether `side` went berserk.
    #[must_use]
    pub fn is_berserk(&self, side: Side) -> bool {
        self.sides[side.index()].berserk
    }

    /// Gives `side` `ms` more main time (an arbiter's correction, or an
    /// opponent's bonus).
    pub fn give(&mut self, side: Side, ms: Millis, at: Millis) -> Result<(), ClockError> {
        self.refuse_if_flagged(at)?;
        if matches!(self.run, Run::Stopped) {
            return Err(ClockError::Stopped);
        }
        if !self.control.is_timed() {
            self.last_at = at;
            return Ok(());
        }
        if self.view(side, at).overtime.is_some() {
            return Err(ClockError::InOvertime { side });
        }
        self.sides[side.index()].main_ms += ms;
        self.last_at = at;
        Ok(())
    }

    /// What `side`'s clock shows at `at` (which may lie ahead of the last
    /// call; reading never changes the clock).
    #[must_use]
    pub fn view(&self, side: Side, at: Millis) -> SideView {
        let s = &self.sides[side.index()];
        let running = side == self.turn && matches!(self.run, Run::Running { .. });
        let on_turn = side == self.turn && matches!(self.run, Run::Running { .. } | Run::Paused { .. });
        let flagged = matches!(self.run, Run::Flagged { side: f, .. } if f == side);
        let stage_info = self.control.stages.get(s.stage);
        let mut v = SideView {
            main_ms: s.main_ms,
            delay_left_ms: 0,
            stage: if stage_info.is_some() { s.stage + 1 } else { 0 },
            moves_to_control: stage_info
                .filter(|st| st.moves > 0)
                .map(|st| st.moves - s.stage_moves),
            moves: s.moves,
            used_ms: s.used_ms,
            overtime: s.overtime,
            period_left_ms: self.period_left(s),
            move_limit_left_ms: None,
            oversteps: s.oversteps,
            running,
            flagged,
        };
        if !on_turn {
            return v;
        }
        let mut e = self.turn_elapsed(at.max(self.last_at));
        if let Some(f) = self.flag_after(s) {
            e = e.min(f);
        }
        v.used_ms += e;
        v.move_limit_left_ms = self.control.move_limit_ms.map(|l| l - e.min(l));
        let Some(end) = self.main_end(s) else {
            return v;
        };
        let delay = self.simple_delay(s);
        if s.overtime.is_none() && e < end {
            v.delay_left_ms = delay - e.min(delay);
            v.main_ms = s.main_ms - e.saturating_sub(delay).min(s.main_ms);
            return v;
        }
        v.main_ms = 0;
        let o = e - end.min(e);
        v.oversteps += self.oversteps_by(s, e);
        v.overtime = match (self.overtime_at_start(s), self.control.overtime) {
            (Some(OvertimeState::Byoyomi { periods_left }), Some(Overtime::Byoyomi { period_ms, .. })) => {
                let lost = u32::try_from(o / period_ms).unwrap_or(u32::MAX);
                Some(OvertimeState::Byoyomi {
                    periods_left: periods_left - lost.min(periods_left),
                })
            }
            (other, _) => other,
        };
        v.period_left_ms = match (self.overtime_at_start(s), self.control.overtime) {
            (Some(ot), Some(cfg)) => Some(match (ot, cfg) {
                (OvertimeState::Canadian { left_ms, .. }, _) => left_ms - o.min(left_ms),
                (OvertimeState::Byoyomi { periods_left }, Overtime::Byoyomi { period_ms, .. }) => {
                    if o >= Millis::from(periods_left) * period_ms {
                        0
                    } else {
                        period_ms - o % period_ms
                    }
                }
                (_, Overtime::FoulPerMove { limit_ms }) => limit_ms - o % limit_ms,
                _ => 0,
            }),
            _ => None,
        };
        v
    }

    /// The full period a side in overtime starts its next move with.
    fn period_left(&self, s: &SideState) -> Option<Millis> {
        match (s.overtime?, self.control.overtime?) {
            (OvertimeState::Canadian { left_ms, .. }, _) => Some(left_ms),
            (_, Overtime::Byoyomi { period_ms, .. }) => Some(period_ms),
            (_, Overtime::FoulPerMove { limit_ms }) => Some(limit_ms),
            _ => None,
        }
    }

    /// Both sides' views at `at`.
    #[must_use]
    pub fn views(&self, at: Millis) -> [SideView; 2] {
        [self.view(Side::First, at), self.view(Side::Second, at)]
    }
}

/// Formats milliseconds as `H:MM:SS`, the form of PGN's `[%clk]` and
/// `[%emt]` (rounded down to the second).
#[must_use]
pub fn hms(ms: Millis) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Reads `H:MM:SS` or `M:SS`, with optional fractional seconds, back into
/// milliseconds.
#[must_use]
pub fn parse_hms(text: &str) -> Option<Millis> {
    let parts: Vec<&str> = text.trim().split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let (sec_part, rest) = parts.split_last()?;
    let (whole, frac) = sec_part.split_once('.').unwrap_or((sec_part, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || whole.len() > 6 {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 3 {
        return None;
    }
    let mut ms: Millis = whole.parse::<Millis>().ok()? * 1000;
    if !frac.is_empty() {
        ms += frac.parse::<Millis>().ok()? * 10u64.pow(3 - frac.len() as u32);
    }
    let mut unit = 60_000;
    for p in rest.iter().rev() {
        if p.is_empty() || p.len() > 4 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        ms += p.parse::<Millis>().ok()? * unit;
        unit *= 60;
    }
    Some(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(text: &str) -> Clock {
        let mut c = Clock::new(text.parse().unwrap()).unwrap();
        c.start(Side::First, 0).unwrap();
        c
    }

    const R: Side = Side::First;
    const B: Side = Side::Second;

    #[test]
    fn fischer_increment_is_added_after_each_move() {
        let mut c = clock("1+2");
        let t = c.press(R, 10_000).unwrap();
        assert_eq!((t.spent_ms, t.main_ms), (10_000, 52_000));
        assert_eq!(c.view(B, 10_000).main_ms, 60_000);
        assert_eq!(c.view(B, 15_000).main_ms, 55_000);
        assert_eq!(c.flag_time(), Some((B, 70_000)));
        assert_eq!(c.press(R, 20_000), Err(ClockError::NotYourTurn { side: R }));
        assert_eq!(
            c.press(B, 70_000),
            Err(ClockError::Flagged { side: B, at: 70_000 })
        );
        assert_eq!(
            c.poll(80_000).unwrap(),
            vec![ClockEvent::Flag { side: B, at: 70_000 }]
        );
        assert_eq!(c.flagged(), Some((B, 70_000)));
        assert!(c.poll(90_000).unwrap().is_empty(), "a flag is reported once");
    }

    /// lichess's berserk: half the main time, no increment, before one's
    /// first move only, once.
    #[test]
    fn berserk_halves_the_time_and_drops_the_increment() {
        let mut c = clock("1+2");
        assert_eq!(c.berserk(B, 0), Ok(30_000));
        assert!(matches!(c.berserk(B, 0), Err(ClockError::Berserk { .. })), "once");
        let t = c.press(R, 10_000).unwrap();
        assert_eq!(t.main_ms, 52_000, "the other side keeps its increment");
        let t = c.press(B, 15_000).unwrap();
        assert_eq!(t.main_ms, 25_000, "half the time, no increment");
        assert!(c.is_berserk(B) && !c.is_berserk(R));
        assert!(
            matches!(c.berserk(R, 16_000), Err(ClockError::Berserk { .. })),
            "not after one's first move"
        );
    }

    #[test]
    fn cxa_6_1_adds_the_second_stage_at_move_40_and_repeats_it() {
        let mut c = clock("90/40+15/10");
        let mut now = 0;
        for n in 1..=60u32 {
            for side in [R, B] {
                now += 60_000;
                let t = c.press(side, now).unwrap();
                let expect = (n == 40 || n == 50 || n == 60).then_some(1);
                assert_eq!(t.entered_stage, expect, "move {n}");
            }
        }
        // 90 + 15 + 15 + 15 minutes granted, 60 used.
        assert_eq!(c.view(R, now).main_ms, 75 * 60_000);
        assert_eq!(c.view(R, now).moves_to_control, Some(10));
    }

    #[test]
    fn running_out_inside_a_quota_stage_loses_4_1_4() {
        // 1 minute for 2 moves: the second move is not made in time.
        let mut c = clock("1/2+1/2");
        c.press(R, 30_000).unwrap();
        c.press(B, 31_000).unwrap();
        assert_eq!(c.flag_time(), Some((R, 61_000)));
        assert!(c.press(R, 61_000).is_err());
        c.press(R, 60_999).unwrap();
        assert_eq!(c.view(R, 60_999).main_ms, 60_000 + 1);
    }

    #[test]
    fn japanese_byoyomi_keeps_a_period_used_in_time_and_loses_an_expired_one() {
        let mut c = clock("1|10s x3");
        // Red spends 65 s: main time gone, 5 s into the first period.
        let t = c.press(R, 65_000).unwrap();
        assert_eq!(t.main_ms, 0);
        assert_eq!(
            c.view(R, 65_000).overtime,
            Some(OvertimeState::Byoyomi { periods_left: 3 })
        );
        c.press(B, 66_000).unwrap();
        // 25 s: two periods lost, one left.
        c.press(R, 91_000).unwrap();
        assert_eq!(
            c.view(R, 91_000).overtime,
            Some(OvertimeState::Byoyomi { periods_left: 1 })
        );
        c.press(B, 92_000).unwrap();
        let v = c.view(R, 96_000);
        assert_eq!(v.period_left_ms, Some(6_000));
        assert_eq!(c.flag_time(), Some((R, 102_000)));
        assert_eq!(
            c.poll(102_000).unwrap(),
            vec![ClockEvent::Flag { side: R, at: 102_000 }]
        );
    }

    #[test]
    fn shogi_controls_ten_minutes_and_30_s_byoyomi_and_10_s_a_move() {
        // 10 min + 30 s 秒読み: one period, renewed by every move made in
        // it, its countdown visible; the first move that takes over 30 s
        // loses.
        let mut c = clock("10|30s");
        c.press(R, 9 * 60_000).unwrap();
        c.press(B, 9 * 60_000 + 1_000).unwrap();
        // Sente runs out of main time at 10:01 and moves 29 s into byo-yomi.
        let at = 10 * 60_000 + 1_000 + 29_000;
        assert_eq!(c.view(R, at).period_left_ms, Some(1_000));
        c.press(R, at).unwrap();
        assert_eq!(
            c.view(R, at).overtime,
            Some(OvertimeState::Byoyomi { periods_left: 1 })
        );
        c.press(B, at + 1_000).unwrap();
        // The period is whole again: 30 s from now.
        assert_eq!(c.view(R, at + 1_000).period_left_ms, Some(30_000));
        assert_eq!(c.flag_time(), Some((R, at + 31_000)));

        // 0 + 10 s: byo-yomi from the first move, 10 s each.
        let mut c = clock("0|10s");
        assert_eq!(c.view(R, 0).period_left_ms, Some(10_000));
        c.press(R, 9_999).unwrap();
        c.press(B, 19_000).unwrap();
        assert_eq!(c.view(R, 25_000).period_left_ms, Some(4_000));
        assert_eq!(c.flag_time(), Some((R, 29_000)));
        assert!(c.press(R, 29_000).is_err());

        // Fischer, as Shogi Wars and lishogi also offer: 10 min + 5 s.
        let mut c = clock("10+5");
        let t = c.press(R, 60_000).unwrap();
        assert_eq!(t.main_ms, 9 * 60_000 + 5_000);
    }

    #[test]
    fn seed_000_sixty_seconds_a_move_after_thirty_minutes() {
        let mut c = clock("30|60s");
        c.press(R, 30 * 60_000 + 59_000).unwrap();
        c.press(B, 30 * 60_000 + 60_000).unwrap();
        // Red is in byo-yomi from now on: 60 s a move.
        assert_eq!(c.flag_time(), Some((R, 30 * 60_000 + 120_000)));
    }

    #[test]
    fn canadian_byoyomi_renews_after_the_quota() {
        let mut c = clock("0|1m/3");
        let mut now = 0;
        for think in [20_000, 20_000] {
            now += think;
            c.press(R, now).unwrap();
            now += 1;
            c.press(B, now).unwrap();
        }
        assert_eq!(
            c.view(R, now).overtime,
            Some(OvertimeState::Canadian {
                left_ms: 20_000,
                moves_left: 1
            })
        );
        assert_eq!(c.flag_time(), Some((R, now + 20_000)));
        now += 19_000;
        c.press(R, now).unwrap();
        assert_eq!(
            c.view(R, now).overtime,
            Some(OvertimeState::Canadian {
                left_ms: 60_000,
                moves_left: 3
            })
        );
    }

    #[test]
    fn seed_001_each_overstep_is_reported_once_with_its_time() {
        let mut c = clock("30|30s foul");
        let free = 30 * 60_000;
        c.press(R, free - 1_000).unwrap();
        c.press(B, free).unwrap();
        // Red now has 1 s of main time, then 30 s a move.
        assert_eq!(c.next_event_at(), Some(free + 31_000));
        assert!(c.poll(free + 30_000).unwrap().is_empty());
        assert_eq!(
            c.poll(free + 65_000).unwrap(),
            vec![
                ClockEvent::Overstep {
                    side: R,
                    at: free + 31_000,
                    count: 1
                },
                ClockEvent::Overstep {
                    side: R,
                    at: free + 61_000,
                    count: 2
                },
            ]
        );
        assert!(c.poll(free + 70_000).unwrap().is_empty());
        let t = c.press(R, free + 70_000).unwrap();
        assert_eq!(t.oversteps, 2);
        assert_eq!(c.view(R, free + 70_000).oversteps, 2);
        assert_eq!(c.flag_time(), None, "oversteps are fouls, not flags");
    }

    #[test]
    fn per_move_limit_loses_on_the_first_slow_move() {
        let mut c = clock("limit 15s");
        c.press(R, 14_999).unwrap();
        assert_eq!(c.flag_time(), Some((B, 29_999)));
        assert_eq!(c.view(B, 20_000).move_limit_left_ms, Some(9_999));
        assert_eq!(
            c.poll(40_000).unwrap(),
            vec![ClockEvent::Flag { side: B, at: 29_999 }]
        );
    }

    #[test]
    fn delays() {
        let mut c = clock("1;d5");
        let v = c.view(R, 3_000);
        assert_eq!((v.main_ms, v.delay_left_ms), (60_000, 2_000));
        assert_eq!(c.press(R, 8_000).unwrap().main_ms, 57_000);
        assert_eq!(c.flag_time(), Some((B, 8_000 + 65_000)));
        let mut b = clock("1;b5");
        assert_eq!(b.press(R, 3_000).unwrap().main_ms, 60_000);
        assert_eq!(b.press(B, 13_000).unwrap().main_ms, 55_000);
    }

    #[test]
    fn pauses_do_not_count_and_are_validated() {
        let mut c = clock("1");
        c.pause(10_000).unwrap();
        assert_eq!(c.pause(11_000), Err(ClockError::Paused));
        assert_eq!(c.press(R, 11_000), Err(ClockError::Paused));
        assert_eq!(c.view(R, 500_000).main_ms, 50_000);
        c.resume(500_000).unwrap();
        assert_eq!(c.resume(500_001), Err(ClockError::NotPaused));
        assert_eq!(c.flag_time(), Some((R, 550_000)));
        assert_eq!(
            c.press(R, 400_000),
            Err(ClockError::TimeWentBackwards {
                at: 400_000,
                last: 500_000
            })
        );
    }

    #[test]
    fn a_penalty_that_main_time_cannot_pay_flags_at_once_23_3() {
        let mut c = clock("10");
        assert_eq!(c.charge(R, 300_000, 60_000).unwrap(), None);
        assert_eq!(c.view(R, 60_000).main_ms, 240_000);
        assert_eq!(c.flag_time(), Some((R, 300_000)));
        assert_eq!(
            c.charge(R, 300_000, 61_000).unwrap(),
            Some(ClockEvent::Flag { side: R, at: 61_000 })
        );
        assert_eq!(c.flagged(), Some((R, 61_000)));
        assert_eq!(
            c.press(R, 62_000),
            Err(ClockError::Flagged { side: R, at: 61_000 })
        );
    }

    #[test]
    fn stop_counts_the_unfinished_turn_and_freezes() {
        let mut c = clock("5+0");
        c.press(R, 1_000).unwrap();
        assert_eq!(c.stop(4_000), Ok(3_000));
        assert_eq!(c.view(B, 100_000).main_ms, 297_000);
        assert_eq!(c.view(B, 100_000).used_ms, 3_000);
        assert_eq!(c.press(B, 100_000), Err(ClockError::Stopped));
        assert!(!c.view(B, 100_000).running);
    }

    #[test]
    fn serde_round_trip_resumes_exactly() {
        let mut c = clock("3|10s x2");
        c.press(R, 190_000).unwrap();
        let json = serde_json::to_string(&c).unwrap();
        let back: Clock = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
        assert_eq!(back.views(200_000), c.views(200_000));
        assert_eq!(back.flag_time(), c.flag_time());
    }

    #[test]
    fn hms_round_trips() {
        assert_eq!(hms(3_723_000), "1:02:03");
        assert_eq!(parse_hms("1:02:03"), Some(3_723_000));
        assert_eq!(parse_hms("9:58"), Some(598_000));
        assert_eq!(parse_hms("0:00:01.5"), Some(1_500));
        assert_eq!(parse_hms("1:x:03"), None);
        assert_eq!(parse_hms(""), None);
    }

    /// A takeback hands the turn over: the side on turn pays for the time
    /// it used but earns no increment and counts no move; the next side
    /// starts a fresh turn. Byo-yomi: a fresh period, as after a move.
    #[test]
    fn hand_over_charges_time_without_increment_or_move() {
        let mut c = Clock::new(TimeControl::fischer(60_000, 5_000)).unwrap();
        c.start(Side::First, 0).unwrap();
        c.press(Side::First, 10_000).unwrap();
        assert_eq!(c.view(Side::First, 10_000).main_ms, 55_000);
        c.hand_over(Side::First, 13_000).unwrap();
        let [first, second] = c.views(13_000);
        assert_eq!((second.main_ms, second.moves, second.used_ms), (57_000, 0, 3_000));
        assert_eq!((first.main_ms, first.moves), (55_000, 1));
        assert_eq!(c.turn(), Side::First);
        assert!(first.running);
        // First's clock runs from the hand-over.
        assert_eq!(c.view(Side::First, 15_000).main_ms, 53_000);

        let byo = TimeControl {
            overtime: Some(Overtime::Byoyomi {
                period_ms: 10_000,
                periods: 1,
            }),
            ..TimeControl::fischer(1_000, 0)
        };
        let mut c = Clock::new(byo).unwrap();
        c.start(Side::First, 0).unwrap();
        // 1 s of main time, then 8 s of the period: handed back with 2 s
        // left in it; the next turn is a whole period again.
        c.hand_over(Side::First, 9_000).unwrap();
        assert_eq!(c.view(Side::First, 9_000).period_left_ms, Some(10_000));
        assert_eq!(c.view(Side::First, 18_999).period_left_ms, Some(1));
        // Its period ran out at 19 s: the flag fell, no hand-over.
        c.hand_over(Side::Second, 19_000).unwrap_err();
    }
}
