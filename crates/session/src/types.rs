//! The vocabulary of a session: its settings, the commands it accepts, the
//! events it reports, the moves it records and the result it ends with. All
//! of it is `serde`, because all of it travels to browsers and databases.

use clock::{Millis, OvertimeState, TimeControl};
use game::{GameError, Outcome, Side};
use serde::{Deserialize, Serialize};

/// Who pays for a false natural-limit claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimPenalty {
    /// CXA 23.3: "判提出方犯规一次，并在其棋钟上加计5分钟" — the time is
    /// charged to the claimant's own clock; if that runs it out, it loses.
    ChargeClaimant,
    /// The FIDE habit: the opponent's clock gets the time instead.
    CreditOpponent,
}

/// How a game's rule book runs a session beyond the moves themselves: fouls,
/// claims and the articles each ruling cites. The data comes from the game
/// registry (CXA for Xiangqi, the FIDE Laws for chess); this crate names no
/// rule book.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRules {
    /// Fouls (犯规) that lose the game: three in CXA 4.1.8, two in seed 001
    /// ("同一局棋技术犯规两次判负"). 0 means fouls never lose.
    pub foul_limit: u32,
    /// The time a false claim costs (5 minutes, CXA 23.3; 2 minutes to the
    /// opponent, FIDE 9.5.5).
    pub false_claim_penalty_ms: Millis,
    pub claim_penalty: ClaimPenalty,
    /// Whether offering a draw again after a refusal, before the opponent
    /// has offered, is a foul (CXA 9.1.3) or simply refused.
    pub repeated_offer_is_foul: bool,
    /// Whether a draw claim the rules do not allow is refused (online: the
    /// server tells the player and nothing happens) instead of ruled a
    /// foul with a time penalty (an arbiter over the board, CXA 9.1.4 and
    /// 23.3, FIDE 9.5.5).
    #[serde(default)]
    pub false_claim_is_refused: bool,
    pub articles: Articles,
}

/// The article a ruling cites, per kind of ruling; `None` where the rule
/// book has none.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Articles {
    pub resignation: Option<String>,
    pub agreement: Option<String>,
    pub time_forfeit: Option<String>,
    /// A flag against a side whose opponent cannot win (FIDE 6.9).
    pub time_forfeit_draw: Option<String>,
    pub fouls: Option<String>,
    pub repeated_offer: Option<String>,
    pub false_claim: Option<String>,
    pub overstep: Option<String>,
}

/// How a session is refereed: the time control and the rule book's
/// session rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionConfig {
    pub time_control: TimeControl,
    pub rules: SessionRules,
}

/// Something a player, the arbiter or the server's timer asks of the
/// session. Every command carries the server's time in milliseconds; the
/// session never reads the wall clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Command {
    /// Both players are there: the first side's clock starts.
    Start {
        at: Millis,
    },
    /// `side` plays `coord` at `at` and presses its clock at `pressed_at`
    /// (the same moment when absent, as online). A later press models
    /// CXA 22.5: a move made in time whose clock was pressed too late.
    Move {
        side: Side,
        coord: String,
        at: Millis,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pressed_at: Option<Millis>,
    },
    /// Propose a draw (提和), right after one's own move (23.1).
    OfferDraw {
        side: Side,
        at: Millis,
    },
    AcceptDraw {
        side: Side,
        at: Millis,
    },
    DeclineDraw {
        side: Side,
        at: Millis,
    },
    /// Always refused: "提和方不得撤回提议" (23.1).
    WithdrawDraw {
        side: Side,
        at: Millis,
    },
    /// Ask to take back one's last move (悔棋): only where the server
    /// allows it (casual games; the competition rules have no takebacks).
    OfferTakeback {
        side: Side,
        at: Millis,
    },
    /// The opponent agrees: the moves since `side.other()`'s last move,
    /// that one included, are taken back.
    AcceptTakeback {
        side: Side,
        at: Millis,
    },
    DeclineTakeback {
        side: Side,
        at: Millis,
    },
    /// Claim a draw the rules allow on request (natural limit 自然限着, 23.3).
    ClaimDraw {
        side: Side,
        at: Millis,
    },
    Resign {
        side: Side,
        at: Millis,
    },
    /// Call the game off before both sides have moved; no result.
    Abort {
        side: Side,
        at: Millis,
        /// Set when the arbiter (the server) calls it off because `side`
        /// did not make its first move in time; absent when `side` asked.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        no_show: bool,
        /// With `no_show`: neither player came, the first side's opponent
        /// no more than the first side (seed 000 21.3: 若双方均超过规定时限
        /// 即判双方弃权) — a double forfeit in an event. Only before any
        /// move.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        both: bool,
    },
    /// The arbiter rules a foul (犯规, CXA 9.1).
    Foul {
        side: Side,
        at: Millis,
        reason: String,
        #[serde(default)]
        article: Option<String>,
    },
    /// The arbiter decides the game (e.g. 4.2.1 a simple position neither
    /// side can win, 4.1.10 refusing to obey the rules).
    Adjudicate {
        at: Millis,
        outcome: Outcome,
        /// For people: what was ruled and why.
        reason: String,
        #[serde(default)]
        article: Option<String>,
        /// The machine-readable reason the result carries (`abandoned`,
        /// `untimed_idle`, …); `adjudication` when absent, as in records
        /// stored before it existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    },
    PauseClock {
        at: Millis,
    },
    ResumeClock {
        at: Millis,
    },
    GiveTime {
        side: Side,
        ms: Millis,
        at: Millis,
    },
    /// `side` goes berserk before its first move (an arena's rule, as
    /// lichess plays it): half its main time, no increment.
    Berserk {
        side: Side,
        at: Millis,
    },
    /// Only lets time pass: what the server sends when its timer fires at
    /// the clock's next deadline.
    Tick {
        at: Millis,
    },
}

impl Command {
    #[must_use]
    pub fn at(&self) -> Millis {
        match self {
            Command::Start { at }
            | Command::Move { at, .. }
            | Command::OfferDraw { at, .. }
            | Command::AcceptDraw { at, .. }
            | Command::DeclineDraw { at, .. }
            | Command::WithdrawDraw { at, .. }
            | Command::OfferTakeback { at, .. }
            | Command::AcceptTakeback { at, .. }
            | Command::DeclineTakeback { at, .. }
            | Command::ClaimDraw { at, .. }
            | Command::Resign { at, .. }
            | Command::Abort { at, .. }
            | Command::Foul { at, .. }
            | Command::Adjudicate { at, .. }
            | Command::PauseClock { at }
            | Command::ResumeClock { at }
            | Command::GiveTime { at, .. }
            | Command::Berserk { at, .. }
            | Command::Tick { at } => *at,
        }
    }
}

/// What the session keeps of a move beside the game's own record of it
/// ([`game::Game::history`]): who, when, and the clocks. The move's
/// notation lives once, in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTimes {
    pub side: Side,
    /// When the move was made, and when the clock was pressed.
    pub at: Millis,
    pub pressed_at: Millis,
    /// Clock time the move took (`[%emt]`).
    pub spent_ms: Millis,
    /// Main time left after the move (`[%clk]`); `None` when untimed.
    pub clock_ms: Option<Millis>,
    /// Both sides' main time right after the move, the first side's first.
    pub clocks_ms: [Millis; 2],
    /// Byo-yomi state after the move, when in overtime.
    pub overtime: Option<OvertimeState>,
}

/// A move of the session as read in place: the game's record of it and
/// the session's times.
#[derive(Clone, Copy, Debug)]
pub struct MoveRef<'a> {
    /// 1 for the first move of the game.
    pub ply: u32,
    pub played: &'a game::PlayedMove,
    pub times: &'a MoveTimes,
}

impl MoveRef<'_> {
    /// The move as one owned record (what [`Event::Moved`] carries).
    #[must_use]
    pub fn to_record(&self) -> MoveRecord {
        let (p, t) = (self.played, self.times);
        MoveRecord {
            ply: self.ply,
            side: t.side,
            coord: p.coord.clone(),
            display: p.display.clone(),
            alt: p.alt.clone(),
            capture: p.capture,
            check: p.check,
            at: t.at,
            pressed_at: t.pressed_at,
            spent_ms: t.spent_ms,
            clock_ms: t.clock_ms,
            clocks_ms: t.clocks_ms,
            overtime: t.overtime,
        }
    }
}

/// One move as the session recorded it, owned: the payload of
/// [`Event::Moved`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// 1 for the first move of the game.
    pub ply: u32,
    pub side: Side,
    /// Coordinate notation (ICCS for Xiangqi).
    pub coord: String,
    pub display: String,
    pub alt: String,
    pub capture: bool,
    pub check: bool,
    /// When the move was made, and when the clock was pressed.
    pub at: Millis,
    pub pressed_at: Millis,
    /// Clock time the move took (`[%emt]`).
    pub spent_ms: Millis,
    /// Main time left after the move (`[%clk]`); `None` when untimed.
    pub clock_ms: Option<Millis>,
    /// Both sides' main time right after the move, the first side's first
    /// (what a replay of the game shows under each move).
    #[serde(default)]
    pub clocks_ms: [Millis; 2],
    /// Byo-yomi state after the move, when in overtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overtime: Option<OvertimeState>,
}

/// What kind of foul (犯规) was ruled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FoulKind {
    /// Offering a draw again after a refusal (9.1.3, 23.1).
    RepeatedDrawOffer,
    /// A natural-limit claim that was not true (9.1.4, 23.3).
    FalseClaim,
    /// Overstepping the per-move time in seed 001's mode.
    Overstep,
    /// Anything else the arbiter rules (9.1.x).
    Arbiter,
}

/// One foul, as recorded (9.2: "凡判处犯规裁判员应当场明确宣布并及时记录").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoulRecord {
    pub side: Side,
    pub at: Millis,
    pub kind: FoulKind,
    pub detail: String,
    pub article: Option<String>,
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// The game's rules ended it on the board (mate, stalemate, repetition).
    Rules,
    Resignation,
    Agreement,
    /// A draw claimed and found true (natural limit).
    Claim,
    /// Time ran out (4.1.4, 22.x).
    TimeForfeit,
    /// The foul limit was reached (4.1.8).
    Fouls,
    Adjudication,
    /// Called off before both sides moved: no result.
    Aborted,
}

/// The final result with its reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// `None` for an aborted game.
    pub outcome: Option<Outcome>,
    pub termination: Termination,
    /// Machine-readable, e.g. `checkmate`, `resignation`, `time_forfeit`.
    pub reason: String,
    /// For people, with the rule where there is one.
    pub detail: String,
    pub article: Option<String>,
    pub at: Millis,
}

impl GameResult {
    /// The PGN result token: `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted
    /// game.
    #[must_use]
    pub fn pgn(&self) -> &'static str {
        match self.outcome {
            Some(Outcome::Win { winner: Side::First }) => "1-0",
            Some(Outcome::Win { winner: Side::Second }) => "0-1",
            Some(Outcome::Draw) => "1/2-1/2",
            None => "*",
        }
    }
}

/// What a command (or the passing of time it brought) did, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    Started {
        side: Side,
        at: Millis,
    },
    Moved(MoveRecord),
    DrawOffered {
        side: Side,
        at: Millis,
    },
    /// `side`'s offer was refused, by a word or by a move (23.1).
    DrawDeclined {
        side: Side,
        at: Millis,
        by_move: bool,
    },
    TakebackOffered {
        side: Side,
        at: Millis,
    },
    /// `side`'s takeback request was refused, by a word or by a move.
    TakebackDeclined {
        side: Side,
        at: Millis,
    },
    /// `side`'s request was granted: `plies` moves were taken back, and the
    /// game stands at ply `ply`.
    TakenBack {
        side: Side,
        plies: u32,
        ply: u32,
        at: Millis,
    },
    Foul {
        foul: FoulRecord,
        /// The side's fouls so far, this one included.
        count: u32,
    },
    TimePenalty {
        side: Side,
        ms: Millis,
        at: Millis,
    },
    TimeGiven {
        side: Side,
        ms: Millis,
        at: Millis,
    },
    /// `side` went berserk: `ms` were taken off its clock.
    Berserk {
        side: Side,
        ms: Millis,
        at: Millis,
    },
    /// The referee ruled a forbidden repetition: `side` must change (变着).
    MustChange {
        side: Side,
        detail: String,
        article: Option<String>,
    },
    ClockPaused {
        at: Millis,
    },
    ClockResumed {
        at: Millis,
    },
    Ended(GameResult),
    /// The game ended (by time) before the command could take effect.
    CommandDropped {
        reason: String,
    },
}

/// Why a command was refused. The session is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("the game has not started")]
    NotStarted,
    #[error("the game has already started")]
    AlreadyStarted,
    #[error("the game is over")]
    GameOver,
    #[error("time went backwards: {at} ms is before {last} ms")]
    TimeWentBackwards { at: Millis, last: Millis },
    /// The error goes back to the player who tried; `side` is theirs.
    #[error("it is not your turn")]
    NotYourTurn { side: Side },
    #[error("the clock cannot be pressed ({pressed_at} ms) before the move is made ({at} ms)")]
    PressBeforeMove { at: Millis, pressed_at: Millis },
    #[error(transparent)]
    Game(#[from] GameError),
    #[error("a draw may be offered only right after one's own move")]
    OfferOnlyAfterOwnMove { side: Side },
    #[error("your draw offer is already on the table")]
    OfferPending { side: Side },
    /// Offers alternate; where a second one is no foul it is refused.
    #[error("you may offer a draw again only after your opponent has offered one")]
    OfferAgainAfterRefusal { side: Side },
    #[error("there is no draw offer to answer")]
    NoOfferToAnswer { side: Side },
    #[error("a draw offer cannot be withdrawn")]
    CannotWithdrawOffer,
    #[error("you have no draw offer to withdraw")]
    NoOfferToWithdraw { side: Side },
    #[error("a claim may be made only in one's own time, when it is one's move")]
    ClaimOnlyOnOwnTurn { side: Side },
    /// Online, a claim that does not hold is refused rather than punished.
    #[error("the rules do not allow a draw claim in this position")]
    ClaimDoesNotHold { side: Side },
    #[error("you have no move to take back")]
    NothingToTakeBack { side: Side },
    #[error("your takeback request is already on the table")]
    TakebackPending { side: Side },
    #[error("there is no takeback request to answer")]
    NoTakebackToAnswer { side: Side },
    #[error("the game can no longer be aborted: both sides have moved")]
    TooLateToAbort,
    #[error("clock: {0}")]
    Clock(#[from] clock::ClockError),
    #[error("time control: {0}")]
    TimeControl(#[from] clock::TimeControlError),
}

/// A command of a stored log that could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("log entry {index}: {error}")]
pub struct ReplayError {
    pub index: usize,
    pub error: SessionError,
}
