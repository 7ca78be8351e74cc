//! One game at the table: the rules (a `Box<dyn Game>`), the two clocks,
//! draw offers, claims, resignation and abort. Pure and synchronous: every
//! command carries the server time in milliseconds, so the game task (see
//! `live.rs`) owns the only clock reading and tests can drive time by hand.
//! A command that is refused returns an error and changes nothing.
//!
//! Clock policy: the clocks start once both sides have made their first move
//! (before that either player may abort, and a game whose first moves do not
//! come within the abort window is aborted). After that the clock of the
//! side to move runs; a move adds the Fischer increment. The server flags a
//! player whose clock reaches zero (loss on time, CXA 4.1 / 22.5).

use crate::store::MoveRow;
use game::{Game, GameError, Outcome, Side, Status};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// A Fischer time control: `M+S` = M minutes (decimals allowed, e.g. `0.5`)
/// plus S seconds per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TimeControl {
    pub initial_ms: i64,
    pub increment_ms: i64,
}

/// A time control that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad time control {text:?}: {reason} (expected minutes+seconds, e.g. 10+5)")]
pub struct BadTimeControl {
    pub text: String,
    pub reason: &'static str,
}

impl FromStr for TimeControl {
    type Err = BadTimeControl;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |reason| BadTimeControl {
            text: text.to_string(),
            reason,
        };
        let (m, s) = text.trim().split_once('+').ok_or_else(|| bad("no '+'"))?;
        let minutes: f64 = m.trim().parse().map_err(|_| bad("minutes are not a number"))?;
        let seconds: f64 = s.trim().parse().map_err(|_| bad("seconds are not a number"))?;
        if !(0.0..=180.0).contains(&minutes) || !minutes.is_finite() {
            return Err(bad("minutes must be between 0 and 180"));
        }
        if !(0.0..=180.0).contains(&seconds) || !seconds.is_finite() {
            return Err(bad("increment must be between 0 and 180 seconds"));
        }
        #[allow(clippy::cast_possible_truncation)]
        let tc = TimeControl {
            initial_ms: (minutes * 60_000.0).round() as i64,
            increment_ms: (seconds * 1000.0).round() as i64,
        };
        if tc.initial_ms < 1000 && tc.increment_ms == 0 {
            return Err(bad("less than one second to play"));
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.initial_ms as f64 / 60_000.0;
        let s = self.increment_ms as f64 / 1000.0;
        write!(f, "{m}+{s}")
    }
}

/// How a game ended. `outcome == None` means aborted (no result).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct End {
    pub outcome: Option<Outcome>,
    pub reason: String,
    pub detail: String,
    pub article: Option<String>,
}

impl End {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` when aborted.
    #[must_use]
    pub fn result(&self) -> &'static str {
        match self.outcome {
            Some(Outcome::Win { winner: Side::First }) => "1-0",
            Some(Outcome::Win { winner: Side::Second }) => "0-1",
            Some(Outcome::Draw) => "1/2-1/2",
            None => "*",
        }
    }
}

/// A repetition ruling in force: `side` must change its moves (变着).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MustChange {
    pub side: Side,
    pub detail: String,
    pub article: Option<String>,
}

/// Why a command was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("the move is for ply {got} but the game is at ply {expected}")]
    WrongPly { expected: u32, got: u32 },
    #[error(transparent)]
    Rules(#[from] GameError),
    #[error("cannot offer a draw: {0}")]
    CannotOffer(&'static str),
    #[error("there is no draw offer from your opponent")]
    NoOffer,
    #[error("no draw can be claimed now")]
    NoClaim,
    #[error("the game can be aborted only before both sides have moved")]
    CannotAbort,
}

impl TableError {
    /// A stable machine-readable code for clients.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            TableError::GameOver => "game_over",
            TableError::NotYourTurn => "not_your_turn",
            TableError::WrongPly { .. } => "wrong_ply",
            TableError::Rules(GameError::IllegalMove { .. } | GameError::BadMove { .. }) => "illegal_move",
            TableError::Rules(_) => "rules",
            TableError::CannotOffer(_) => "cannot_offer",
            TableError::NoOffer => "no_offer",
            TableError::NoClaim => "no_claim",
            TableError::CannotAbort => "cannot_abort",
        }
    }
}

/// A game with its clocks and offers.
#[derive(Debug)]
pub struct Table {
    game: Box<dyn Game>,
    tc: TimeControl,
    /// Remaining time of each side when its clock last stopped.
    clocks: [i64; 2],
    /// When the clock of the side to move started; `None` while the clocks
    /// do not run (before both first moves, and after the end).
    turn_started: Option<i64>,
    moves: Vec<MoveRow>,
    draw_offer: Option<Side>,
    /// A side whose offer was refused may not offer again until the
    /// opponent has offered: offers alternate (CXA 23.1, 9.1.3).
    refused: [bool; 2],
    must_change: Option<MustChange>,
    end: Option<End>,
}

impl Table {
    #[must_use]
    pub fn new(game: Box<dyn Game>, tc: TimeControl) -> Table {
        Table {
            game,
            tc,
            clocks: [tc.initial_ms; 2],
            turn_started: None,
            moves: Vec::new(),
            draw_offer: None,
            refused: [false; 2],
            must_change: None,
            end: None,
        }
    }

    /// Rebuilds a game from its stored moves after a restart. The stored
    /// clocks are those right after the last move, at `last.played_ms`; the
    /// side to move is charged the time from then until `stopped_ms` (when
    /// the server was last known alive), not the time the server was down.
    /// Its clock resumes at `now_ms`.
    pub fn restore(
        game: Box<dyn Game>,
        tc: TimeControl,
        moves: &[MoveRow],
        stopped_ms: i64,
        now_ms: i64,
    ) -> Result<Table, GameError> {
        let mut t = Table::new(game, tc);
        for m in moves {
            t.game.play(&m.coord)?;
            t.status_after_move();
        }
        t.moves = moves.to_vec();
        if let Some(last) = moves.last() {
            t.clocks = [last.red_ms, last.black_ms];
            if moves.len() >= 2 && t.end.is_none() {
                let stm = t.game.side_to_move().index();
                let used = (stopped_ms - last.played_ms).max(0);
                t.clocks[stm] -= used;
                t.turn_started = Some(now_ms);
            }
        }
        Ok(t)
    }

    #[must_use]
    pub fn game(&self) -> &dyn Game {
        self.game.as_ref()
    }

    #[must_use]
    pub fn moves(&self) -> &[MoveRow] {
        &self.moves
    }

    #[must_use]
    pub fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    #[must_use]
    pub fn end(&self) -> Option<&End> {
        self.end.as_ref()
    }

    #[must_use]
    pub fn draw_offer(&self) -> Option<Side> {
        self.draw_offer
    }

    #[must_use]
    pub fn must_change(&self) -> Option<&MustChange> {
        self.must_change.as_ref()
    }

    #[must_use]
    pub fn time_control(&self) -> TimeControl {
        self.tc
    }

    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }

    /// Whether the clock of the side to move is running.
    #[must_use]
    pub fn clock_running(&self) -> bool {
        self.turn_started.is_some()
    }

    /// Both clocks as they read at `now_ms` (red, black).
    #[must_use]
    pub fn clocks_at(&self, now_ms: i64) -> [i64; 2] {
        let mut c = self.clocks;
        if let Some(start) = self.turn_started {
            let stm = self.side_to_move().index();
            c[stm] = (c[stm] - (now_ms - start)).max(0);
        }
        c
    }

    /// When the side to move's flag falls, if its clock runs.
    #[must_use]
    pub fn flag_deadline(&self) -> Option<i64> {
        let start = self.turn_started?;
        Some(start + self.clocks[self.side_to_move().index()])
    }

    /// Ends the game on time if the side to move's flag has fallen by
    /// `now_ms`; returns whether it did. Loss on time: CXA 4.1, 22.5.
    pub fn check_flag(&mut self, now_ms: i64) -> bool {
        if self.end.is_some() {
            return false;
        }
        match self.flag_deadline() {
            Some(deadline) if now_ms >= deadline => {
                let side = self.side_to_move();
                self.clocks[side.index()] = 0;
                self.finish(End {
                    outcome: Some(Outcome::Win { winner: side.other() }),
                    reason: "timeout".into(),
                    detail: format!("{} ran out of time", side_name(side)),
                    article: Some("22.5".into()),
                });
                true
            }
            _ => false,
        }
    }

    fn finish(&mut self, end: End) {
        self.turn_started = None;
        self.draw_offer = None;
        self.end = Some(end);
    }

    /// Clock stop on the side to move at `now_ms` (charging its time).
    fn stop_clock(&mut self, now_ms: i64) {
        if let Some(start) = self.turn_started {
            let stm = self.side_to_move().index();
            self.clocks[stm] = (self.clocks[stm] - (now_ms - start)).max(0);
            self.turn_started = None;
        }
    }

    fn status_after_move(&mut self) {
        match self.game.status() {
            Status::Ongoing => self.must_change = None,
            Status::MustChange {
                side,
                detail,
                article,
            } => {
                self.must_change = Some(MustChange {
                    side,
                    detail,
                    article,
                });
            }
            Status::Over(e) => {
                self.must_change = None;
                self.turn_started = None;
                self.draw_offer = None;
                self.end = Some(End {
                    outcome: Some(e.outcome),
                    reason: e.reason,
                    detail: e.detail,
                    article: e.article,
                });
            }
        }
    }

    /// Plays `side`'s move at `now_ms`. `ply`, when given, is the number the
    /// move will have (1 for red's first): a client that resends a move after
    /// a reconnect cannot play it twice.
    pub fn play(
        &mut self,
        side: Side,
        coord: &str,
        ply: Option<u32>,
        now_ms: i64,
    ) -> Result<MoveRow, TableError> {
        if self.end.is_some() || self.check_flag(now_ms) {
            return Err(TableError::GameOver);
        }
        if side != self.side_to_move() {
            return Err(TableError::NotYourTurn);
        }
        let next = self.ply() + 1;
        if let Some(p) = ply {
            if p != next {
                return Err(TableError::WrongPly {
                    expected: next,
                    got: p,
                });
            }
        }
        let played = self.game.play(coord)?;
        if let Some(start) = self.turn_started {
            let i = side.index();
            self.clocks[i] = self.clocks[i] - (now_ms - start) + self.tc.increment_ms;
        }
        // The opponent's standing offer is refused by moving (23.1).
        if self.draw_offer == Some(side.other()) {
            self.draw_offer = None;
            self.refused[side.other().index()] = true;
        }
        self.turn_started = (next >= 2).then_some(now_ms);
        let row = MoveRow {
            ply: next,
            coord: played.coord,
            display: played.display,
            played_ms: now_ms,
            red_ms: self.clocks[0],
            black_ms: self.clocks[1],
        };
        self.moves.push(row.clone());
        self.status_after_move();
        Ok(row)
    }

    pub fn resign(&mut self, side: Side, now_ms: i64) -> Result<(), TableError> {
        if self.end.is_some() || self.check_flag(now_ms) {
            return Err(TableError::GameOver);
        }
        self.stop_clock(now_ms);
        self.finish(End {
            outcome: Some(Outcome::Win { winner: side.other() }),
            reason: "resign".into(),
            detail: format!("{} resigned", side_name(side)),
            article: Some("4.1".into()),
        });
        Ok(())
    }

    /// A draw offer (提和, CXA 23.1): only right after one's own move (while
    /// the opponent is to move), and offers alternate: a side whose offer was
    /// refused must wait for an offer from the opponent before offering
    /// again (a repeated offer is a foul, 9.1.3).
    pub fn offer_draw(&mut self, side: Side, now_ms: i64) -> Result<(), TableError> {
        if self.end.is_some() || self.check_flag(now_ms) {
            return Err(TableError::GameOver);
        }
        if self.draw_offer == Some(side.other()) {
            return self.accept_draw(side, now_ms);
        }
        if self.draw_offer == Some(side) {
            return Err(TableError::CannotOffer("your offer is already on the table"));
        }
        if side == self.side_to_move() || self.moves.is_empty() {
            return Err(TableError::CannotOffer(
                "a draw may be offered only right after your own move (23.1)",
            ));
        }
        if self.refused[side.index()] {
            return Err(TableError::CannotOffer(
                "your last offer was refused; offers alternate (23.1, 9.1.3)",
            ));
        }
        self.draw_offer = Some(side);
        self.refused[side.other().index()] = false;
        Ok(())
    }

    pub fn accept_draw(&mut self, side: Side, now_ms: i64) -> Result<(), TableError> {
        if self.end.is_some() || self.check_flag(now_ms) {
            return Err(TableError::GameOver);
        }
        if self.draw_offer != Some(side.other()) {
            return Err(TableError::NoOffer);
        }
        self.stop_clock(now_ms);
        self.finish(End {
            outcome: Some(Outcome::Draw),
            reason: "agreement".into(),
            detail: "draw agreed".into(),
            article: Some("4.2".into()),
        });
        Ok(())
    }

    pub fn decline_draw(&mut self, side: Side, now_ms: i64) -> Result<(), TableError> {
        if self.end.is_some() || self.check_flag(now_ms) {
            return Err(TableError::GameOver);
        }
        if self.draw_offer != Some(side.other()) {
            return Err(TableError::NoOffer);
        }
        self.draw_offer = None;
        self.refused[side.other().index()] = true;
        Ok(())
    }

    /// A draw claim by the side to move on a ground the rules recognise
    /// (e.g. the natural move limit, 自然限着).
    pub fn claim_draw(&mut self, side: Side, now_ms: i64) -> Result<(), TableError> {
        if self.end.is_some() || self.check_flag(now_ms) {
            return Err(TableError::GameOver);
        }
        if side != self.side_to_move() {
            return Err(TableError::NotYourTurn);
        }
        let ending = self.game.claimable_draw().ok_or(TableError::NoClaim)?;
        self.stop_clock(now_ms);
        self.finish(End {
            outcome: Some(ending.outcome),
            reason: ending.reason,
            detail: ending.detail,
            article: ending.article,
        });
        Ok(())
    }

    /// Aborts a game before both sides have moved: no result, no rating.
    pub fn abort(&mut self, side: Option<Side>, reason: &str) -> Result<(), TableError> {
        if self.end.is_some() {
            return Err(TableError::GameOver);
        }
        if self.moves.len() >= 2 {
            return Err(TableError::CannotAbort);
        }
        self.finish(End {
            outcome: None,
            reason: "aborted".into(),
            detail: match side {
                Some(s) => format!("{} aborted the game", side_name(s)),
                None => reason.to_string(),
            },
            article: None,
        });
        Ok(())
    }
}

/// Red and black, as Xiangqi players say.
#[must_use]
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "red",
        Side::Second => "black",
    }
}
