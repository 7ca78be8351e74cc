//! A refereed game session, written once for every game behind
//! [`game::Game`]: the moves with their times and clock readings, the clock,
//! draw offers and claims, fouls, resignation and abort, the flag, and the
//! final result with its reason and article.
//!
//! A [`Session`] is a state machine driven by [`Command`]s, each carrying
//! the server's time. Every command is validated: a refused one returns a
//! [`SessionError`] and leaves the session exactly as it was. An accepted
//! one returns the [`Event`]s it caused and is appended to the log, from
//! which [`Session::replay`] rebuilds the identical session (the server
//! stores the log, not the session, and replays it after a crash).
//!
//! Time-driven things — a flag falling, a per-move overstep in seed 001's
//! mode — happen at their own moment, not when someone notices: each
//! command first brings the clock up to its time and rules on everything
//! that happened in between, in order. That is CXA 22.5: a flag that fell
//! before the command still loses, unless the game had already ended.

#[cfg(test)]
mod tests;
mod types;

pub use types::{
    Articles, ClaimPenalty, Command, Event, FoulKind, FoulRecord, GameResult, MoveRecord, MoveRef, MoveTimes,
    ReplayError, SessionConfig, SessionError, SessionRules, Termination,
};

use clock::{Clock, ClockEvent, Millis, SideView};
use game::{Ending, Game, Outcome, Side, Status};
use serde::{Deserialize, Serialize};

/// Where the session stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Phase {
    NotStarted,
    Playing,
    Over(GameResult),
}

/// A snapshot for display: what a client needs to draw the game's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionView {
    pub phase: Phase,
    pub to_move: Side,
    pub moves: usize,
    pub clocks: [SideView; 2],
    pub fouls: [u32; 2],
    pub pending_offer: Option<Side>,
    pub must_change: Option<Side>,
    /// When the server should next send [`Command::Tick`].
    pub next_deadline: Option<Millis>,
}

/// What [`Session::apply`] puts back when it refuses a command: everything
/// but the game and the lists, which only grow (their lengths suffice).
struct Checkpoint {
    clock: Clock,
    phase: Phase,
    plies: usize,
    fouls: usize,
    pending_offer: Option<Side>,
    refused_offer_by: Option<Side>,
    takeback_offer: Option<Side>,
    must_change: Option<Side>,
    used_before: [Millis; 2],
    last_at: Millis,
}

/// A live game: the game itself, its clock and the referee's bookkeeping.
#[derive(Clone, Debug)]
pub struct Session {
    game: Box<dyn Game>,
    /// The game as it began: a takeback replays the moves kept onto a copy
    /// of it (a [`Game`] has no undo).
    start: Box<dyn Game>,
    config: SessionConfig,
    clock: Clock,
    phase: Phase,
    /// Each move's times; the moves themselves are the game's history,
    /// one to one.
    times: Vec<MoveTimes>,
    fouls: Vec<FoulRecord>,
    /// A draw offer on the table, by this side.
    pending_offer: Option<Side>,
    /// The side whose last offer was refused: it may not offer again until
    /// the other side has offered (23.1 "提和必须轮流进行", 9.1.3).
    refused_offer_by: Option<Side>,
    /// A takeback request on the table, by this side.
    takeback_offer: Option<Side>,
    must_change: Option<Side>,
    /// Each side's clock total at its last press, to time the next move.
    used_before: [Millis; 2],
    log: Vec<Command>,
    last_at: Millis,
}

impl Session {
    /// A session for `game` (fresh, or set up from a position) under
    /// `config`. Nothing runs until [`Command::Start`].
    pub fn new(game: Box<dyn Game>, config: SessionConfig) -> Result<Session, SessionError> {
        if matches!(game.status(), Status::Over(_)) {
            return Err(SessionError::Game(game::GameError::GameOver));
        }
        let clock = Clock::new(config.time_control.clone())?;
        Ok(Session {
            start: game.boxed_clone(),
            game,
            config,
            clock,
            phase: Phase::NotStarted,
            times: Vec::new(),
            fouls: Vec::new(),
            pending_offer: None,
            refused_offer_by: None,
            takeback_offer: None,
            must_change: None,
            used_before: [0; 2],
            log: Vec::new(),
            last_at: 0,
        })
    }

    /// Rebuilds a session from a fresh `game` and the log of a previous
    /// one: the same commands give the same session, event for event.
    pub fn replay(
        game: Box<dyn Game>,
        config: SessionConfig,
        log: &[Command],
    ) -> Result<Session, ReplayError> {
        let mut s = Session::new(game, config).map_err(|error| ReplayError { index: 0, error })?;
        for (index, cmd) in log.iter().enumerate() {
            s.apply(cmd.clone())
                .map_err(|error| ReplayError { index, error })?;
        }
        Ok(s)
    }

    /// Applies one command. On error nothing changes.
    ///
    /// Without copying the session: the little state a refused command may
    /// have touched on its way (the clock brought up to its time, a foul
    /// recorded, an offer) is put back from a [`Checkpoint`]. The game itself
    /// changes only by a move that its rules accepted, and every check that
    /// can refuse a move is made before it is played.
    pub fn apply(&mut self, cmd: Command) -> Result<Vec<Event>, SessionError> {
        let saved = self.checkpoint();
        match self.apply_inner(&cmd) {
            Ok(events) => {
                self.last_at = cmd.at().max(self.last_at);
                self.log.push(cmd);
                Ok(events)
            }
            Err(e) => {
                debug_assert_eq!(
                    self.game.history().len(),
                    saved.plies,
                    "a refused command played a move: {e}"
                );
                self.restore(saved);
                Err(e)
            }
        }
    }

    fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            clock: self.clock.clone(),
            phase: self.phase.clone(),
            plies: self.game.history().len(),
            fouls: self.fouls.len(),
            pending_offer: self.pending_offer,
            refused_offer_by: self.refused_offer_by,
            takeback_offer: self.takeback_offer,
            must_change: self.must_change,
            used_before: self.used_before,
            last_at: self.last_at,
        }
    }

    fn restore(&mut self, c: Checkpoint) {
        self.clock = c.clock;
        self.phase = c.phase;
        // The times are the game's moves', one to one.
        self.times.truncate(c.plies);
        self.fouls.truncate(c.fouls);
        self.pending_offer = c.pending_offer;
        self.refused_offer_by = c.refused_offer_by;
        self.takeback_offer = c.takeback_offer;
        self.must_change = c.must_change;
        self.used_before = c.used_before;
        self.last_at = c.last_at;
    }

    // ---- reading -------------------------------------------------------

    #[must_use]
    pub fn game(&self) -> &dyn Game {
        self.game.as_ref()
    }

    #[must_use]
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    #[must_use]
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    #[must_use]
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    #[must_use]
    pub fn result(&self) -> Option<&GameResult> {
        match &self.phase {
            Phase::Over(r) => Some(r),
            _ => None,
        }
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over(_))
    }

    /// The moves so far, first to last: the game's record of each with its
    /// times.
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = MoveRef<'_>> + ExactSizeIterator + '_ {
        self.game
            .history()
            .iter()
            .zip(&self.times)
            .enumerate()
            .map(|(i, (played, times))| MoveRef {
                ply: i as u32 + 1,
                played,
                times,
            })
    }

    /// The moves as owned records (to keep, or to compare two sessions).
    #[must_use]
    pub fn records(&self) -> Vec<MoveRecord> {
        self.moves().map(|m| m.to_record()).collect()
    }

    /// How many moves have been played.
    #[must_use]
    pub fn plies(&self) -> usize {
        self.times.len()
    }

    #[must_use]
    pub fn foul_records(&self) -> &[FoulRecord] {
        &self.fouls
    }

    #[must_use]
    pub fn fouls(&self, side: Side) -> u32 {
        self.fouls.iter().filter(|f| f.side == side).count() as u32
    }

    #[must_use]
    pub fn pending_offer(&self) -> Option<Side> {
        self.pending_offer
    }

    /// Whether `side` may offer a draw now (23.1: after its own move,
    /// before the opponent replies, with no offer standing, and not again
    /// after a refusal until the opponent has offered) — what the UI asks
    /// before it offers the button. Where a repeated offer is a foul the
    /// answer is the same: the button must not lead a player into one.
    #[must_use]
    pub fn may_offer_draw(&self, side: Side) -> bool {
        !self.is_over()
            && self.times.last().is_some_and(|m| m.side == side)
            && self.game.side_to_move() != side
            && self.pending_offer.is_none()
            && self.refused_offer_by != Some(side)
    }

    /// The side with a takeback request on the table.
    #[must_use]
    pub fn takeback_offer(&self) -> Option<Side> {
        self.takeback_offer
    }

    /// Whether `side` may ask to take back now: it has a move to take
    /// back and no request standing.
    #[must_use]
    pub fn may_offer_takeback(&self, side: Side) -> bool {
        !self.is_over()
            && self.phase == Phase::Playing
            && self.times.iter().any(|m| m.side == side)
            && self.takeback_offer.is_none()
    }

    /// Whether `side`'s last offer was refused and the opponent has not
    /// offered since (23.1: offers alternate).
    #[must_use]
    pub fn offer_refused(&self, side: Side) -> bool {
        self.refused_offer_by == Some(side)
    }

    /// Whether the side to move may claim a draw now, the claim holding
    /// (a natural limit, a threefold repetition where the rules draw it).
    #[must_use]
    pub fn claim_holds(&self) -> bool {
        !self.is_over() && self.game.claimable_draw().is_some()
    }

    /// The side the referee has told to change its moves (变着), if any.
    #[must_use]
    pub fn must_change(&self) -> Option<Side> {
        self.must_change
    }

    /// Every accepted command, in order: what the server stores.
    #[must_use]
    pub fn log(&self) -> &[Command] {
        &self.log
    }

    /// When the passing of time will next change something (a flag or an
    /// overstep): the server sends [`Command::Tick`] then.
    #[must_use]
    pub fn next_deadline(&self) -> Option<Millis> {
        match self.phase {
            Phase::Playing => self.clock.next_event_at(),
            _ => None,
        }
    }

    #[must_use]
    pub fn view(&self, at: Millis) -> SessionView {
        SessionView {
            phase: self.phase.clone(),
            to_move: self.game.side_to_move(),
            moves: self.times.len(),
            clocks: self.clock.views(at),
            fouls: [self.fouls(Side::First), self.fouls(Side::Second)],
            pending_offer: self.pending_offer,
            must_change: self.must_change,
            next_deadline: self.next_deadline(),
        }
    }

    // ---- the state machine ---------------------------------------------

    fn apply_inner(&mut self, cmd: &Command) -> Result<Vec<Event>, SessionError> {
        let at = cmd.at();
        if at < self.last_at {
            return Err(SessionError::TimeWentBackwards {
                at,
                last: self.last_at,
            });
        }
        if self.is_over() {
            return Err(SessionError::GameOver);
        }
        let mut events = Vec::new();
        if self.phase == Phase::NotStarted {
            return match cmd {
                Command::Start { at } => {
                    let side = self.game.side_to_move();
                    self.clock.start(side, *at)?;
                    self.phase = Phase::Playing;
                    events.push(Event::Started { side, at: *at });
                    Ok(events)
                }
                Command::Abort {
                    side,
                    at,
                    no_show,
                    both,
                } => {
                    self.abort(*side, *at, *no_show, *both, &mut events)?;
                    Ok(events)
                }
                Command::Berserk { side, at } => {
                    let ms = self.clock.berserk(*side, *at)?;
                    events.push(Event::Berserk {
                        side: *side,
                        ms,
                        at: *at,
                    });
                    Ok(events)
                }
                Command::Adjudicate {
                    at,
                    outcome,
                    reason,
                    article,
                    code,
                } => {
                    self.adjudicate(*at, *outcome, reason, article, code.as_deref(), &mut events);
                    Ok(events)
                }
                _ => Err(SessionError::NotStarted),
            };
        }
        self.run_time(at, &mut events)?;
        if self.is_over() {
            if !matches!(cmd, Command::Tick { .. }) {
                events.push(Event::CommandDropped {
                    reason: "the game ended before this command took effect".into(),
                });
            }
            return Ok(events);
        }
        match cmd {
            Command::Start { .. } => return Err(SessionError::AlreadyStarted),
            Command::Tick { .. } => {}
            Command::Move {
                side,
                coord,
                at,
                pressed_at,
            } => self.play(*side, coord, *at, pressed_at.unwrap_or(*at), &mut events)?,
            Command::OfferDraw { side, at } => self.offer_draw(*side, *at, &mut events)?,
            Command::AcceptDraw { side, at } => {
                self.answer_offer(*side)?;
                let ending = Ending {
                    outcome: Outcome::Draw,
                    reason: "agreement".into(),
                    detail: "drawn by agreement".into(),
                    article: self.config.rules.articles.agreement.clone(),
                };
                self.end_with(Termination::Agreement, ending, *at, &mut events);
            }
            Command::DeclineDraw { side, at } => {
                let offerer = self.answer_offer(*side)?;
                self.pending_offer = None;
                self.refused_offer_by = Some(offerer);
                events.push(Event::DrawDeclined {
                    side: offerer,
                    at: *at,
                    by_move: false,
                });
            }
            Command::WithdrawDraw { side, .. } => {
                return Err(if self.pending_offer == Some(*side) {
                    SessionError::CannotWithdrawOffer
                } else {
                    SessionError::NoOfferToWithdraw { side: *side }
                });
            }
            Command::OfferTakeback { side, at } => {
                if !self.times.iter().any(|m| m.side == *side) {
                    return Err(SessionError::NothingToTakeBack { side: *side });
                }
                if self.takeback_offer.is_some() {
                    return Err(SessionError::TakebackPending { side: *side });
                }
                self.takeback_offer = Some(*side);
                events.push(Event::TakebackOffered { side: *side, at: *at });
            }
            Command::AcceptTakeback { side, at } => self.take_back(*side, *at, &mut events)?,
            Command::DeclineTakeback { side, at } => {
                let asker = self.answer_takeback(*side)?;
                self.takeback_offer = None;
                events.push(Event::TakebackDeclined { side: asker, at: *at });
            }
            Command::ClaimDraw { side, at } => self.claim(*side, *at, &mut events)?,
            Command::Resign { side, at } => {
                let ending = Ending {
                    outcome: Outcome::Win { winner: side.other() },
                    reason: "resignation".into(),
                    detail: format!("{} resigned", self.game.side_name(*side)),
                    article: self.config.rules.articles.resignation.clone(),
                };
                self.end_with(Termination::Resignation, ending, *at, &mut events);
            }
            Command::Abort {
                side,
                at,
                no_show,
                both,
            } => self.abort(*side, *at, *no_show, *both, &mut events)?,
            Command::Foul {
                side,
                at,
                reason,
                article,
            } => self.foul(
                FoulRecord {
                    side: *side,
                    at: *at,
                    kind: FoulKind::Arbiter,
                    detail: reason.clone(),
                    article: article.clone(),
                },
                &mut events,
            ),
            Command::Adjudicate {
                at,
                outcome,
                reason,
                article,
                code,
            } => self.adjudicate(*at, *outcome, reason, article, code.as_deref(), &mut events),
            Command::PauseClock { at } => {
                self.clock.pause(*at)?;
                events.push(Event::ClockPaused { at: *at });
            }
            Command::ResumeClock { at } => {
                self.clock.resume(*at)?;
                events.push(Event::ClockResumed { at: *at });
            }
            Command::Berserk { side, at } => {
                // The clock knows the moves it was pressed for; a move made
                // without a press (none online) still counts here.
                if self.times.iter().any(|m| m.side == *side) {
                    return Err(clock::ClockError::Berserk {
                        side: *side,
                        why: "only before one's first move",
                    }
                    .into());
                }
                let ms = self.clock.berserk(*side, *at)?;
                events.push(Event::Berserk {
                    side: *side,
                    ms,
                    at: *at,
                });
            }
            Command::GiveTime { side, ms, at } => {
                self.clock.give(*side, *ms, *at)?;
                events.push(Event::TimeGiven {
                    side: *side,
                    ms: *ms,
                    at: *at,
                });
            }
        }
        Ok(events)
    }

    /// Lets time run to `at`, ruling on every overstep and flag on the way,
    /// each at the moment it happened.
    fn run_time(&mut self, at: Millis, events: &mut Vec<Event>) -> Result<(), SessionError> {
        while let Some(t) = self.clock.next_event_at() {
            if t > at || self.is_over() {
                break;
            }
            // Never before what the clock has already seen (a correction
            // can move a deadline into the past; it is ruled on now).
            let t = t.max(self.clock.last_at());
            for e in self.clock.poll(t)? {
                if self.is_over() {
                    break;
                }
                self.clock_event(e, events);
            }
            self.last_at = t;
        }
        if !self.is_over() {
            for e in self.clock.poll(at)? {
                if self.is_over() {
                    break;
                }
                self.clock_event(e, events);
            }
        }
        Ok(())
    }

    fn clock_event(&mut self, e: ClockEvent, events: &mut Vec<Event>) {
        match e {
            ClockEvent::Overstep { side, at, count } => self.foul(
                FoulRecord {
                    side,
                    at,
                    kind: FoulKind::Overstep,
                    detail: format!("overstep {count}: a move took longer than the per-move limit"),
                    article: self.config.rules.articles.overstep.clone(),
                },
                events,
            ),
            ClockEvent::Flag { side, at } => self.flag(side, at, events),
        }
    }

    /// `side`'s time ran out at `at`: it loses (CXA 4.1.4, 22.5) — unless
    /// its opponent could not win by any series of legal moves, which makes
    /// it a draw (FIDE 6.9; a game whose rules have no such case says every
    /// side can win).
    fn flag(&mut self, side: Side, at: Millis, events: &mut Vec<Event>) {
        let name = self.game.side_name(side);
        let ending = if self.game.can_win(side.other()) {
            Ending {
                outcome: Outcome::Win { winner: side.other() },
                reason: "time_forfeit".into(),
                detail: format!("{name}'s time ran out"),
                article: self.config.rules.articles.time_forfeit.clone(),
            }
        } else {
            Ending {
                outcome: Outcome::Draw,
                reason: "time_forfeit_draw".into(),
                detail: format!(
                    "{name}'s time ran out, but {} cannot win by any series of legal moves",
                    self.game.side_name(side.other())
                ),
                article: self.config.rules.articles.time_forfeit_draw.clone(),
            }
        };
        self.end_with(Termination::TimeForfeit, ending, at, events);
    }

    fn play(
        &mut self,
        side: Side,
        coord: &str,
        at: Millis,
        pressed_at: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), SessionError> {
        if pressed_at < at {
            return Err(SessionError::PressBeforeMove { at, pressed_at });
        }
        if side != self.game.side_to_move() {
            return Err(SessionError::NotYourTurn { side });
        }
        if !self.clock.is_running() {
            // Paused by the arbiter: no moves until the clock runs again.
            return Err(SessionError::Clock(clock::ClockError::Paused));
        }
        self.game.play(coord)?;
        let status = self.game.status();
        let mut times = MoveTimes {
            side,
            at,
            pressed_at,
            spent_ms: 0,
            clock_ms: None,
            clocks_ms: [0; 2],
            overtime: None,
        };
        // Moving refuses the opponent's offer (23.1 "走出轮走的一着棋，则为拒绝和棋").
        let declined = self.pending_offer == Some(side.other());
        self.pending_offer = None;
        // And any takeback request: the position it was about is gone.
        let takeback_asker = self.takeback_offer.take();
        let mut later = Vec::new();
        let board_ending = match status.clone() {
            Status::Over(ending) => {
                // The board decided at the moment of the move; a late press
                // does not matter (22.5 "除非已经出现将死、困毙…").
                self.clock.stop(at)?;
                Some(ending)
            }
            _ => {
                // A late press: whatever the clock did meanwhile counts, the
                // flag included (22.5), and the move stays in the record.
                if pressed_at > at {
                    self.run_time(pressed_at, &mut later)?;
                }
                if !self.is_over() {
                    // The game says who moves next: the opponent, or the
                    // same side again where its rules give it several moves.
                    self.clock
                        .press_then(side, self.game.side_to_move(), pressed_at)?;
                }
                None
            }
        };
        self.finish_times(&mut times);
        self.times.push(times);
        if let Some(m) = self.moves().next_back() {
            events.push(Event::Moved(m.to_record()));
        }
        if declined {
            self.refused_offer_by = Some(side.other());
            events.push(Event::DrawDeclined {
                side: side.other(),
                at,
                by_move: true,
            });
        }
        if let Some(asker) = takeback_asker {
            events.push(Event::TakebackDeclined { side: asker, at });
        }
        events.append(&mut later);
        if let Some(ending) = board_ending {
            self.end_with(Termination::Rules, ending, at, events);
            return Ok(());
        }
        if self.is_over() {
            return Ok(());
        }
        match status {
            Status::MustChange {
                side: culprit,
                detail,
                article,
            } => {
                self.must_change = Some(culprit);
                events.push(Event::MustChange {
                    side: culprit,
                    detail,
                    article,
                });
            }
            _ => self.must_change = None,
        }
        Ok(())
    }

    /// Fills in the clock's view of the move just played.
    /// The side whose takeback request `side` may answer.
    fn answer_takeback(&self, side: Side) -> Result<Side, SessionError> {
        match self.takeback_offer {
            Some(asker) if asker != side => Ok(asker),
            _ => Err(SessionError::NoTakebackToAnswer { side }),
        }
    }

    /// `side` grants the opponent's takeback request: every move since the
    /// asker's last one, that one included, is undone, so the asker is to
    /// move again. The game is rebuilt from its start with the moves kept
    /// (a [`Game`] has no undo; the repetition record is rebuilt with it).
    /// The clocks keep the time used — as lichess does, a takeback refunds
    /// nothing — and the turn passes to the side now to move.
    fn take_back(&mut self, side: Side, at: Millis, events: &mut Vec<Event>) -> Result<(), SessionError> {
        let asker = self.answer_takeback(side)?;
        let Some(last) = self.times.iter().rposition(|m| m.side == asker) else {
            return Err(SessionError::NothingToTakeBack { side: asker });
        };
        let mut game = self.start.boxed_clone();
        for m in &self.game.history()[..last] {
            game.play(&m.coord)?;
        }
        // The clock first: the only step that can still refuse (paused, or
        // a flag fell), and then nothing has changed.
        self.clock.hand_over(game.side_to_move(), at)?;
        let plies = (self.times.len() - last) as u32;
        self.game = game;
        self.times.truncate(last);
        self.takeback_offer = None;
        self.pending_offer = None;
        self.must_change = match self.game.status() {
            Status::MustChange { side, .. } => Some(side),
            _ => None,
        };
        events.push(Event::TakenBack {
            side: asker,
            plies,
            ply: last as u32,
            at,
        });
        Ok(())
    }

    fn finish_times(&mut self, record: &mut MoveTimes) {
        let both = self.clock.views(record.pressed_at);
        record.clocks_ms = [both[0].main_ms, both[1].main_ms];
        let v = &both[record.side.index()];
        record.spent_ms = v.used_ms - self.used_before[record.side.index()];
        self.used_before[record.side.index()] = v.used_ms;
        if self.config.time_control.is_timed() {
            record.clock_ms = Some(v.main_ms);
            record.overtime = v.overtime;
        }
    }

    fn offer_draw(&mut self, side: Side, at: Millis, events: &mut Vec<Event>) -> Result<(), SessionError> {
        // Only after one's own move, before the opponent replies (23.1
        // "提议作和必须在自己走棋后提出").
        let moved_last = self.times.last().is_some_and(|m| m.side == side);
        if !moved_last || self.game.side_to_move() == side {
            return Err(SessionError::OfferOnlyAfterOwnMove { side });
        }
        if self.pending_offer.is_some() {
            return Err(SessionError::OfferPending { side });
        }
        if self.refused_offer_by == Some(side) {
            // Offers alternate; where the rules say so, offering again after
            // a refusal is a foul (CXA 9.1.3 "提议作和经对方拒绝后连续提出").
            // Either way the offer is not made.
            if !self.config.rules.repeated_offer_is_foul {
                return Err(SessionError::OfferAgainAfterRefusal { side });
            }
            self.foul(
                FoulRecord {
                    side,
                    at,
                    kind: FoulKind::RepeatedDrawOffer,
                    detail: "offered a draw again after a refusal".into(),
                    article: self.config.rules.articles.repeated_offer.clone(),
                },
                events,
            );
            return Ok(());
        }
        if self.refused_offer_by == Some(side.other()) {
            self.refused_offer_by = None;
        }
        self.pending_offer = Some(side);
        events.push(Event::DrawOffered { side, at });
        Ok(())
    }

    /// Checks `side` has an offer to answer and returns the offerer.
    fn answer_offer(&self, side: Side) -> Result<Side, SessionError> {
        match self.pending_offer {
            Some(offerer) if offerer == side.other() => Ok(offerer),
            _ => Err(SessionError::NoOfferToAnswer { side }),
        }
    }

    fn claim(&mut self, side: Side, at: Millis, events: &mut Vec<Event>) -> Result<(), SessionError> {
        if side != self.game.side_to_move() {
            return Err(SessionError::ClaimOnlyOnOwnTurn { side });
        }
        if let Some(ending) = self.game.claimable_draw() {
            self.end_with(Termination::Claim, ending, at, events);
            return Ok(());
        }
        if self.config.rules.false_claim_is_refused {
            return Err(SessionError::ClaimDoesNotHold { side });
        }
        // A false claim: a foul (CXA 9.1.4), and time (CXA 23.3: 5 minutes
        // on the claimant's clock; FIDE 9.5.5: 2 minutes to the opponent).
        self.foul(
            FoulRecord {
                side,
                at,
                kind: FoulKind::FalseClaim,
                detail: "claimed a draw the rules do not allow".into(),
                article: self.config.rules.articles.false_claim.clone(),
            },
            events,
        );
        if self.is_over() {
            return Ok(());
        }
        let ms = self.config.rules.false_claim_penalty_ms;
        match self.config.rules.claim_penalty {
            ClaimPenalty::ChargeClaimant => {
                if !self.config.time_control.is_timed() {
                    return Ok(());
                }
                let flag = self.clock.charge(side, ms, at)?;
                events.push(Event::TimePenalty { side, ms, at });
                if let Some(ClockEvent::Flag { side, at }) = flag {
                    self.flag(side, at, events);
                }
            }
            ClaimPenalty::CreditOpponent => {
                if !self.config.time_control.is_timed() {
                    return Ok(());
                }
                self.clock.give(side.other(), ms, at)?;
                events.push(Event::TimeGiven {
                    side: side.other(),
                    ms,
                    at,
                });
            }
        }
        Ok(())
    }

    fn abort(
        &mut self,
        side: Side,
        at: Millis,
        no_show: bool,
        both: bool,
        events: &mut Vec<Event>,
    ) -> Result<(), SessionError> {
        let moved = |s: Side| self.times.iter().any(|m| m.side == s);
        if moved(Side::First) && moved(Side::Second) {
            return Err(SessionError::TooLateToAbort);
        }
        // Neither came: only while nobody has moved, as the server rules it.
        if both && (!no_show || !self.times.is_empty()) {
            return Err(SessionError::TooLateToAbort);
        }
        let name = self.game.side_name(side);
        let (reason, detail) = if both {
            (
                "double_no_show",
                "the game was called off: neither player came in time (21.3)".to_string(),
            )
        } else if no_show {
            (
                "no_show",
                format!("the game was called off: {name} did not make a first move in time"),
            )
        } else {
            (
                "aborted",
                format!("{name} aborted the game before both sides had moved"),
            )
        };
        let result = GameResult {
            outcome: None,
            termination: Termination::Aborted,
            reason: reason.into(),
            detail,
            article: None,
            at,
        };
        self.end(result, events);
        Ok(())
    }

    fn adjudicate(
        &mut self,
        at: Millis,
        outcome: Outcome,
        reason: &str,
        article: &Option<String>,
        code: Option<&str>,
        events: &mut Vec<Event>,
    ) {
        let ending = Ending {
            outcome,
            reason: code.unwrap_or("adjudication").into(),
            detail: reason.to_string(),
            article: article.clone(),
        };
        self.end_with(Termination::Adjudication, ending, at, events);
    }

    /// Records a foul; the side loses when it reaches the rules' limit
    /// (CXA 4.1.8 "在同一棋局中三次犯规").
    fn foul(&mut self, foul: FoulRecord, events: &mut Vec<Event>) {
        let (side, at) = (foul.side, foul.at);
        self.fouls.push(foul.clone());
        let count = self.fouls(side);
        events.push(Event::Foul { foul, count });
        let limit = self.config.rules.foul_limit;
        if limit > 0 && count >= limit {
            let ending = Ending {
                outcome: Outcome::Win { winner: side.other() },
                reason: "fouls".into(),
                detail: format!("{} committed {count} fouls", self.game.side_name(side)),
                article: self.config.rules.articles.fouls.clone(),
            };
            self.end_with(Termination::Fouls, ending, at, events);
        }
    }

    fn end_with(&mut self, termination: Termination, ending: Ending, at: Millis, events: &mut Vec<Event>) {
        let result = GameResult {
            outcome: Some(ending.outcome),
            termination,
            reason: ending.reason,
            detail: ending.detail,
            article: ending.article,
            at,
        };
        self.end(result, events);
    }

    fn end(&mut self, result: GameResult, events: &mut Vec<Event>) {
        // A flagged or stopped clock stands still already; otherwise stop
        // it now. Every caller has brought the clock up to `result.at`, so
        // stopping cannot fail.
        if !self.clock.is_stopped() {
            let stopped = self.clock.stop(result.at);
            debug_assert!(stopped.is_ok(), "{stopped:?}");
        }
        self.pending_offer = None;
        self.phase = Phase::Over(result.clone());
        events.push(Event::Ended(result));
    }
}
