//! One game at the table: a thin adapter from what players ask (an
//! [`Action`] by a side at a time) to the commands of the refereed
//! [`session::Session`] (rules, clock, draw offers 23.1, claims 23.3, fouls,
//! flag 22.5), and from the session's events back to what the server
//! stores and broadcasts. Pure and synchronous: the game task (`live`)
//! owns the only clock reading and passes it in.
//!
//! Every accepted command is returned so the caller can store it: the
//! stored command log replays to the identical session after a restart.
//!
//! Clock policy: the first side's clock is started at the moment it makes its first
//! move (so that move is free, and a player who has not arrived yet loses
//! no time); from then on the side to move's clock runs. Until both sides
//! have moved either player may abort, and the server aborts a game whose
//! first moves do not come in time.

use crate::protocol::{ClockView, SideClockView};
use clock::{Millis, TimeControl};
use game::{Game, Outcome, Side};
use serde::Serialize;
use session::{Command, Event, GameResult, MoveRef, Session, SessionConfig, SessionError};
use store::MoveRow;

/// What a player asks of a game (also as it crosses the bus to the node
/// that owns the game).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(tag = "a", rename_all = "snake_case")]
pub enum Action {
    Move {
        coord: String,
        ply: Option<u32>,
    },
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    ClaimDraw,
    /// Ask to take back one's last move (悔棋), answer such a request. The
    /// live game allows them only in casual games (see `live::actor`).
    OfferTakeback,
    AcceptTakeback,
    DeclineTakeback,
    Abort,
    /// Claim the win over an opponent who left (all their connections
    /// closed) and did not come back in time. Only the live game knows who
    /// is connected: it rules on the claim ([`Table::claim_victory`]); here
    /// alone the claim has nothing to stand on.
    ClaimVictory,
    /// Half one's time, no increment, before one's first move: an arena's
    /// rule. Only the events room asks it, for its arenas' games.
    Berserk,
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
    fn of(r: &GameResult) -> End {
        End {
            outcome: r.outcome,
            reason: r.reason.clone(),
            detail: r.detail.clone(),
            article: r.article.clone(),
        }
    }

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

/// Why a command was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("the move is for ply {got} but the game is at ply {expected}")]
    WrongPly { expected: u32, got: u32 },
    #[error("{0}")]
    Session(#[from] SessionError),
    #[error("cannot offer a draw before the game has started: offer right after your own move (23.1)")]
    OfferBeforeStart,
    #[error("there is no draw offer to answer")]
    NoOfferBeforeStart,
    #[error("takebacks are not allowed in rated games or events (the competition rules have none)")]
    TakebacksNotAllowed,
    #[error("your opponent does not accept takebacks")]
    TakebacksRefused,
    #[error("wait for the computer's move before asking to take back")]
    ComputerThinking,
    #[error("a correspondence game is decided by its clock: your opponent has {days} days for each move")]
    ClockDecides { days: u32 },
    #[error("your opponent is connected")]
    OpponentPresent,
    #[error("your opponent may still come back: claim in {wait_ms} ms")]
    ClaimTooEarly { wait_ms: i64 },
}

/// Every code [`TableError::code`] gives: a refusal that crossed the bus
/// between nodes is read back as one of them (`live::remote`).
pub const TABLE_CODES: [&str; 16] = [
    "wrong_ply",
    "cannot_offer",
    "no_offer",
    "opponent_present",
    "clock_decides",
    "takebacks_not_allowed",
    "takebacks_refused",
    "computer_thinking",
    "claim_too_early",
    "game_over",
    "not_your_turn",
    "claim_does_not_hold",
    "illegal_move",
    "cannot_abort",
    "not_started",
    "refused",
];

impl TableError {
    /// A stable machine-readable code for clients.
    #[must_use]
    pub fn code(&self) -> &'static str {
        use game::GameError;
        match self {
            TableError::WrongPly { .. } => "wrong_ply",
            TableError::OfferBeforeStart => "cannot_offer",
            TableError::NoOfferBeforeStart => "no_offer",
            TableError::OpponentPresent => "opponent_present",
            TableError::ClockDecides { .. } => "clock_decides",
            TableError::TakebacksNotAllowed => "takebacks_not_allowed",
            TableError::TakebacksRefused => "takebacks_refused",
            TableError::ComputerThinking => "computer_thinking",
            TableError::ClaimTooEarly { .. } => "claim_too_early",
            TableError::Session(e) => match e {
                SessionError::GameOver => "game_over",
                SessionError::NotYourTurn { .. } | SessionError::ClaimOnlyOnOwnTurn { .. } => "not_your_turn",
                SessionError::ClaimDoesNotHold { .. } => "claim_does_not_hold",
                SessionError::Game(GameError::IllegalMove { .. } | GameError::BadMove { .. }) => {
                    "illegal_move"
                }
                SessionError::Game(GameError::GameOver) => "game_over",
                SessionError::OfferOnlyAfterOwnMove { .. }
                | SessionError::OfferPending { .. }
                | SessionError::OfferAgainAfterRefusal { .. } => "cannot_offer",
                SessionError::NoOfferToAnswer { .. } | SessionError::NoTakebackToAnswer { .. } => "no_offer",
                SessionError::NothingToTakeBack { .. } | SessionError::TakebackPending { .. } => {
                    "cannot_offer"
                }
                SessionError::TooLateToAbort => "cannot_abort",
                SessionError::Clock(clock::ClockError::Berserk { .. }) => "cannot_berserk",
                SessionError::NotStarted => "not_started",
                _ => "refused",
            },
        }
    }
}

/// What an accepted action did: the commands to store (in order), the
/// session's events, and the moves to record.
#[derive(Debug, Default)]
pub struct Applied {
    pub commands: Vec<Command>,
    pub events: Vec<Event>,
    pub moves: Vec<MoveRow>,
    /// After a takeback: the plies kept.
    pub retract: Option<u32>,
}

/// A game with its session (which owns the moves).
#[derive(Debug)]
pub struct Table {
    session: Session,
    must_change: Option<MustChange>,
}

/// Reads a time control as players write it (`10+5`, `90/40+15/10`,
/// `5|30s x3`, `-` …; see `clock::parse`).
pub fn parse_time_control(text: &str) -> Result<TimeControl, String> {
    text.trim().parse::<TimeControl>().map_err(|e| e.to_string())
}

/// The first stage's main time and the increment, for display.
#[must_use]
pub fn headline(tc: &TimeControl) -> (i64, i64) {
    let main = tc.stages.first().map_or(0, |s| s.time_ms);
    (
        i64::try_from(main).unwrap_or(i64::MAX),
        i64::try_from(tc.increment_ms).unwrap_or(i64::MAX),
    )
}

fn ms(t: i64) -> Millis {
    Millis::try_from(t.max(0)).unwrap_or(0)
}

fn signed(t: Millis) -> i64 {
    i64::try_from(t).unwrap_or(i64::MAX)
}

/// A move as the archive stores it.
fn move_row(m: &session::MoveRecord) -> MoveRow {
    MoveRow {
        ply: m.ply,
        coord: m.coord.clone(),
        display: m.display.clone(),
        played_ms: signed(m.at),
        first_ms: signed(m.clocks_ms[0]),
        second_ms: signed(m.clocks_ms[1]),
    }
}

impl Table {
    /// A new game refereed under `config` (the registry's session rules for
    /// its variant, with the game's time control).
    pub fn new(game: Box<dyn Game>, config: SessionConfig) -> Result<Table, TableError> {
        Ok(Table {
            session: Session::new(game, config)?,
            must_change: None,
        })
    }

    /// Rebuilds a game from its stored command log after a restart. If the
    /// clock was running, the time from the crash (`stopped_ms`, the node's
    /// last heartbeat) to `now_ms` is not charged: the clock is paused at
    /// the crash and resumed now. Returns the table and those two extra
    /// commands (to store).
    pub fn restore(
        game: Box<dyn Game>,
        config: SessionConfig,
        log: &[Command],
        stopped_ms: i64,
        now_ms: i64,
    ) -> Result<(Table, Applied), String> {
        let session = Session::replay(game, config, log).map_err(|e| e.to_string())?;
        let mut t = Table {
            session,
            must_change: None,
        };
        t.must_change = t.session.must_change().map(|side| MustChange {
            side,
            detail: "a repetition ruling is in force".into(),
            article: None,
        });
        let mut applied = Applied::default();
        if t.session.clock().is_running() && !t.session.is_over() {
            let pause_at = t.at(stopped_ms);
            t.apply(Command::PauseClock { at: pause_at }, &mut applied)
                .map_err(|e| e.to_string())?;
            if !t.session.is_over() {
                let resume_at = t.at(now_ms).max(pause_at);
                t.apply(Command::ResumeClock { at: resume_at }, &mut applied)
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok((t, applied))
    }

    /// A session time not before the last command's.
    fn at(&self, now_ms: i64) -> Millis {
        let last = self.session.log().last().map_or(0, Command::at);
        ms(now_ms).max(last)
    }

    fn apply(&mut self, cmd: Command, out: &mut Applied) -> Result<(), TableError> {
        let events = self.session.apply(cmd.clone())?;
        out.commands.push(cmd);
        for e in &events {
            match e {
                Event::Moved(m) => {
                    out.moves.push(move_row(m));
                    self.must_change = None;
                }
                Event::MustChange {
                    side,
                    detail,
                    article,
                } => {
                    self.must_change = Some(MustChange {
                        side: *side,
                        detail: detail.clone(),
                        article: article.clone(),
                    });
                }
                Event::TakenBack { ply, .. } => {
                    out.retract = Some(*ply);
                    // The ruling in force is the one of the position now
                    // on the board, if any.
                    self.must_change = match self.session.game().status() {
                        game::Status::MustChange {
                            side,
                            detail,
                            article,
                        } => Some(MustChange {
                            side,
                            detail,
                            article,
                        }),
                        _ => None,
                    };
                }
                _ => {}
            }
        }
        out.events.extend(events);
        Ok(())
    }

    #[must_use]
    pub fn game(&self) -> &dyn Game {
        self.session.game()
    }

    #[must_use]
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The game's moves as the archive stores them (`store::finish_game`).
    #[must_use]
    pub fn record(&self) -> Vec<MoveRow> {
        self.session.moves().map(|m| move_row(&m.to_record())).collect()
    }

    /// The moves so far, with their times and clocks.
    #[must_use]
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = MoveRef<'_>> + ExactSizeIterator + '_ {
        self.session.moves()
    }

    #[must_use]
    pub fn ply(&self) -> u32 {
        self.session.plies() as u32
    }

    #[must_use]
    pub fn end(&self) -> Option<End> {
        self.session.result().map(End::of)
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.session.is_over()
    }

    #[must_use]
    pub fn draw_offer(&self) -> Option<Side> {
        self.session.pending_offer()
    }

    /// The side whose refused offer may not be repeated yet (23.1).
    #[must_use]
    pub fn offer_refused(&self) -> Option<Side> {
        Side::BOTH.into_iter().find(|&s| self.session.offer_refused(s))
    }

    /// Whether the side to move may claim a draw now, the claim holding.
    #[must_use]
    pub fn claim_holds(&self) -> bool {
        self.session.claim_holds()
    }

    /// The reason the game would end with if the side to move claimed now
    /// (a draw, or where the game's rules say so a win or a loss), when a
    /// claim holds.
    #[must_use]
    pub fn claim_reason(&self) -> Option<String> {
        if !self.session.claim_holds() {
            return None;
        }
        self.session.game().claimable_draw().map(|e| e.reason)
    }

    /// Both clocks at `now_ms`, with each side's stage and byo-yomi when
    /// the time control has them.
    #[must_use]
    pub fn clock_view(&self, now_ms: i64) -> ClockView {
        let views = self.session.clock().views(self.at(now_ms));
        let tc = &self.session.config().time_control;
        let byoyomi = match tc.overtime {
            Some(clock::Overtime::Byoyomi { period_ms, periods }) => Some((period_ms, periods)),
            _ => None,
        };
        let staged = tc.stages.len() > 1 || tc.stages.iter().any(|s| s.moves > 0);
        let detail = |v: &clock::SideView| {
            (byoyomi.is_some() || staged).then(|| SideClockView {
                stage: v.stage,
                moves_to_control: v.moves_to_control,
                periods_left: match v.overtime {
                    Some(clock::OvertimeState::Byoyomi { periods_left }) => Some(periods_left),
                    _ => byoyomi.map(|(_, n)| n),
                },
                period_ms: byoyomi.map(|(ms, _)| ms),
                period_left_ms: v.period_left_ms.filter(|_| v.overtime.is_some()).map(signed),
            })
        };
        ClockView {
            first_ms: signed(views[0].main_ms),
            second_ms: signed(views[1].main_ms),
            running: self.clock_running(),
            first: detail(&views[0]),
            second: detail(&views[1]),
        }
    }

    /// `online` or `arbiter`: whose tool the session rules are.
    #[must_use]
    pub fn rules_profile(&self) -> &'static str {
        if self.session.config().rules.false_claim_is_refused {
            "online"
        } else {
            "arbiter"
        }
    }

    #[must_use]
    pub fn must_change(&self) -> Option<&MustChange> {
        self.must_change.as_ref()
    }

    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.session.game().side_to_move()
    }

    /// Whether a clock is running.
    #[must_use]
    pub fn clock_running(&self) -> bool {
        self.session.clock().is_running() && !self.session.is_over()
    }

    /// Both sides' main time as it reads at `now_ms` (red, black).
    #[must_use]
    pub fn clocks_at(&self, now_ms: i64) -> [i64; 2] {
        let v = self.session.clock().views(self.at(now_ms));
        [signed(v[0].main_ms), signed(v[1].main_ms)]
    }

    /// When the passing of time will next change something (a flag, an
    /// overstep): the game task ticks the session then.
    #[must_use]
    pub fn deadline(&self) -> Option<i64> {
        self.session.next_deadline().map(signed)
    }

    /// Lets time pass to `now_ms` (the timer fired): a flag falls, an
    /// overstep is ruled. Only a tick that changed something is kept.
    pub fn tick(&mut self, now_ms: i64) -> Applied {
        let mut out = Applied::default();
        if self.session.is_over() || self.session.phase() == &session::Phase::NotStarted {
            return out;
        }
        let at = self.at(now_ms);
        if self.apply(Command::Tick { at }, &mut out).is_err() || out.events.is_empty() {
            // Nothing happened: nothing to store (the clock reaches the
            // same state when the next command brings it to its time).
            return Applied::default();
        }
        out
    }

    /// Aborts a game whose first moves did not come in time: the side to
    /// move did not come, or, with `neither_came` before any move, both
    /// players (21.3, a double forfeit in an event).
    pub fn abort_idle(&mut self, now_ms: i64, neither_came: bool) -> Result<Applied, TableError> {
        let mut out = Applied::default();
        let side = self.side_to_move();
        let at = self.at(now_ms);
        self.apply(
            Command::Abort {
                side,
                at,
                no_show: true,
                both: neither_came && self.ply() == 0,
            },
            &mut out,
        )?;
        Ok(out)
    }

    /// Ends an untimed game nobody has moved in for `idle_ms`: called off
    /// when a side has not yet moved, else lost by the side to move (an
    /// untimed game has no clock to fall, so without this it never ends).
    pub fn abandon_idle(&mut self, now_ms: i64, idle_ms: i64) -> Result<Applied, TableError> {
        if self.ply() < 2 {
            return self.abort_idle(now_ms, false);
        }
        let side = self.side_to_move();
        let days = idle_ms as f64 / 86_400_000.0;
        let reason = format!(
            "no move from the side to move ({side}) for {days:.1} days: untimed games end after that long without a move"
        );
        self.rule_win(side.other(), now_ms, reason, "untimed_idle")
    }

    /// The server rules the game won by `winner` (an adjudication with a
    /// reason `code` of its own, and `reason` for people).
    fn rule_win(
        &mut self,
        winner: Side,
        now_ms: i64,
        reason: String,
        code: &str,
    ) -> Result<Applied, TableError> {
        let mut out = Applied::default();
        let at = self.at(now_ms);
        self.apply(
            Command::Adjudicate {
                at,
                outcome: Outcome::Win { winner },
                reason,
                article: None,
                code: Some(code.into()),
            },
            &mut out,
        )?;
        Ok(out)
    }

    /// Whether the game has no clock.
    #[must_use]
    pub fn untimed(&self) -> bool {
        self.session.config().time_control.is_unlimited()
    }

    /// Plays `side`'s action at `now_ms`.
    pub fn act(&mut self, side: Side, action: Action, now_ms: i64) -> Result<Applied, TableError> {
        let at = self.at(now_ms);
        let not_started = self.session.phase() == &session::Phase::NotStarted;
        let mut out = Applied::default();
        match action {
            Action::Move { coord, ply } => {
                let next = self.ply() + 1;
                if let Some(p) = ply {
                    if p != next {
                        return Err(TableError::WrongPly {
                            expected: next,
                            got: p,
                        });
                    }
                }
                let cmd = Command::Move {
                    side,
                    coord,
                    at,
                    pressed_at: None,
                };
                if not_started {
                    self.first_action(side, at, cmd, &mut out)?;
                } else {
                    self.apply(cmd, &mut out)?;
                }
            }
            Action::Resign if !not_started => self.apply(Command::Resign { side, at }, &mut out)?,
            // Resigning before the first move calls the game off (no
            // result), as aborting does.
            Action::Resign | Action::Abort => self.apply(
                Command::Abort {
                    side,
                    at,
                    no_show: false,
                    both: false,
                },
                &mut out,
            )?,
            Action::OfferDraw if not_started => return Err(TableError::OfferBeforeStart),
            Action::OfferDraw => {
                // A standing offer from the opponent is accepted instead.
                if self.session.pending_offer() == Some(side.other()) {
                    self.apply(Command::AcceptDraw { side, at }, &mut out)?;
                } else {
                    self.apply(Command::OfferDraw { side, at }, &mut out)?;
                }
            }
            Action::AcceptDraw | Action::DeclineDraw if not_started => {
                return Err(TableError::NoOfferBeforeStart)
            }
            Action::AcceptDraw => self.apply(Command::AcceptDraw { side, at }, &mut out)?,
            Action::DeclineDraw => self.apply(Command::DeclineDraw { side, at }, &mut out)?,
            // A position may be claimable before anyone moved (a game from
            // a position where the side to move may declare, 入玉宣言).
            Action::ClaimDraw if not_started => {
                self.first_action(side, at, Command::ClaimDraw { side, at }, &mut out)?;
            }
            Action::ClaimDraw => self.apply(Command::ClaimDraw { side, at }, &mut out)?,
            Action::OfferTakeback | Action::AcceptTakeback | Action::DeclineTakeback if not_started => {
                return Err(SessionError::NothingToTakeBack { side }.into())
            }
            Action::OfferTakeback => {
                // A standing request from the opponent is granted instead,
                // as a draw offer is accepted (lichess's `takeback/yes`).
                if self.session.takeback_offer() == Some(side.other()) {
                    self.apply(Command::AcceptTakeback { side, at }, &mut out)?;
                } else {
                    self.apply(Command::OfferTakeback { side, at }, &mut out)?;
                }
            }
            Action::AcceptTakeback => self.apply(Command::AcceptTakeback { side, at }, &mut out)?,
            Action::DeclineTakeback => self.apply(Command::DeclineTakeback { side, at }, &mut out)?,
            Action::ClaimVictory => return Err(TableError::OpponentPresent),
            Action::Berserk => self.apply(Command::Berserk { side, at }, &mut out)?,
        }
        Ok(out)
    }

    /// The side to move's first move or claim: it starts the clocks, and
    /// if it is refused the start is undone with it.
    fn first_action(
        &mut self,
        side: Side,
        at: Millis,
        cmd: Command,
        out: &mut Applied,
    ) -> Result<(), TableError> {
        if side != self.side_to_move() {
            return Err(SessionError::NotYourTurn { side }.into());
        }
        let saved = (self.session.clone(), self.must_change.clone());
        self.apply(Command::Start { at }, out)?;
        if let Err(e) = self.apply(cmd, out) {
            (self.session, self.must_change) = saved;
            return Err(e);
        }
        Ok(())
    }

    /// `side` claims the win because the opponent left `away_ms` ago and
    /// did not come back (the live game checks the wait). An arbiter's
    /// ruling, as over the board when a player leaves the hall and does
    /// not return: the game is lost by the side that left. Before both
    /// sides have moved it is called off instead.
    pub fn claim_victory(&mut self, side: Side, now_ms: i64, away_ms: i64) -> Result<Applied, TableError> {
        if self.ply() < 2 {
            return self.abort_idle(now_ms, false);
        }
        let reason = format!(
            "the {} player left the game and did not come back within {} s",
            side.other(),
            away_ms / 1000
        );
        self.rule_win(side, now_ms, reason, "abandoned")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cxa() -> &'static registry::Variant {
        registry::get(Some("xiangqi/cxa")).unwrap()
    }

    fn table(tc: &str) -> Table {
        let v = cxa();
        Table::new(
            v.new_game(None, 0).unwrap(),
            v.session_config(parse_time_control(tc).unwrap()),
        )
        .unwrap()
    }

    #[test]
    fn first_move_starts_the_clock_and_refusals_change_nothing() {
        let mut t = table("0.05+0");
        assert!(!t.clock_running());
        let err = t.act(
            Side::First,
            Action::Move {
                coord: "h2e9".into(),
                ply: None,
            },
            1000,
        );
        assert_eq!(err.unwrap_err().code(), "illegal_move");
        assert!(
            t.session().log().is_empty(),
            "a refused first move does not start the clock"
        );
        let err = t.act(
            Side::Second,
            Action::Move {
                coord: "h9g7".into(),
                ply: None,
            },
            1000,
        );
        assert_eq!(err.unwrap_err().code(), "not_your_turn");
        let a = t
            .act(
                Side::First,
                Action::Move {
                    coord: "h2e2".into(),
                    ply: Some(1),
                },
                1000,
            )
            .unwrap();
        assert_eq!(a.commands.len(), 2, "start + move");
        assert_eq!(a.moves.len(), 1);
        assert_eq!(a.moves[0].first_ms, 3000, "red's first move is free");
        assert!(t.clock_running());
        assert_eq!(t.deadline(), Some(4000));
        let a = t
            .act(
                Side::Second,
                Action::Move {
                    coord: "h9g7".into(),
                    ply: Some(2),
                },
                1500,
            )
            .unwrap();
        assert_eq!(a.moves[0].second_ms, 2500);
        assert_eq!(t.clocks_at(2000), [2500, 2500]);
        // Wrong ply numbers are refused.
        let err = t.act(
            Side::First,
            Action::Move {
                coord: "h0g2".into(),
                ply: Some(2),
            },
            1600,
        );
        assert_eq!(err.unwrap_err().code(), "wrong_ply");
    }

    #[test]
    fn the_flag_falls_by_the_timer() {
        let mut t = table("0.05+0");
        t.act(
            Side::First,
            Action::Move {
                coord: "h2e2".into(),
                ply: None,
            },
            0,
        )
        .unwrap();
        assert!(t.tick(2000).events.is_empty(), "nothing yet");
        let a = t.tick(3000);
        assert!(t.is_over());
        assert!(a.events.iter().any(|e| matches!(e, Event::Ended(_))));
        let end = t.end().unwrap();
        assert_eq!(end.reason, "time_forfeit");
        assert_eq!(end.outcome.and_then(Outcome::winner), Some(Side::First));
    }

    #[test]
    fn restore_replays_and_does_not_charge_the_downtime() {
        let mut t = table("10+0");
        let mut log = Vec::new();
        for (i, (side, mv)) in [
            (Side::First, "h2e2"),
            (Side::Second, "h9g7"),
            (Side::First, "h0g2"),
        ]
        .into_iter()
        .enumerate()
        {
            let a = t
                .act(
                    side,
                    Action::Move {
                        coord: mv.into(),
                        ply: None,
                    },
                    1000 * (i as i64 + 1),
                )
                .unwrap();
            log.extend(a.commands);
        }
        // Black thinks 1.5 s, the server crashes (last heartbeat 4500),
        // comes back at 60 000.
        let v = cxa();
        let config = v.session_config(parse_time_control("10+0").unwrap());
        let (r, extra) = Table::restore(v.new_game(None, 0).unwrap(), config, &log, 4500, 60_000).unwrap();
        assert_eq!(extra.commands.len(), 2, "pause + resume");
        assert_eq!(r.ply(), 3);
        assert_eq!(r.game().fen(), t.game().fen());
        let black_before = t.clocks_at(3000)[1];
        assert_eq!(r.clocks_at(60_000)[1], black_before - 1500);
        assert_eq!(r.clocks_at(61_000)[1], black_before - 2500);
    }

    #[test]
    fn offers_follow_23_1() {
        let mut t = table("10+0");
        assert_eq!(
            t.act(Side::Second, Action::OfferDraw, 0).unwrap_err().code(),
            "cannot_offer"
        );
        t.act(
            Side::First,
            Action::Move {
                coord: "h2e2".into(),
                ply: None,
            },
            0,
        )
        .unwrap();
        assert_eq!(
            t.act(Side::Second, Action::OfferDraw, 10).unwrap_err().code(),
            "cannot_offer"
        );
        t.act(Side::First, Action::OfferDraw, 20).unwrap();
        assert_eq!(t.draw_offer(), Some(Side::First));
        t.act(Side::Second, Action::AcceptDraw, 30).unwrap();
        let end = t.end().unwrap();
        assert_eq!(end.outcome, Some(Outcome::Draw));
        assert_eq!(end.reason, "agreement");
    }
}
