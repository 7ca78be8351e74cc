//! What the server tells clients about a game (protocol version 2): the
//! views (a player, a move, the clocks, the whole game) and [`ServerMsg`],
//! the one enum of every message on a game's socket and stream (the lobby
//! socket's are `lobby::protocol::LobbyMsg`).
//!
//! Sides are `first` and `second` in every game; the variant's words for
//! them (`red`/`black`, `white`/`black`) travel in [`GameView::sides`] for
//! display. Each game event carries a version `v` (1, 2, 3 … per game, as
//! lila's round versions): a client that sees a gap asks for the whole state
//! again (`resync`) instead of drawing a game it only half knows.
//! docs/websocket.md describes these messages; the server's tests check
//! it against both enums.

use game::Side;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// The protocol version `GET /api/info` announces.
pub const PROTOCOL_VERSION: u32 = 2;

/// A player as a game shows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayerView {
    /// User id; `null` for the computer.
    pub id: Option<String>,
    pub name: String,
    /// Rating when the game began (rated or not).
    pub rating: Option<f64>,
    /// `level:N` or `engine:NAME` for a computer player.
    pub computer: Option<String>,
}

/// A move as clients see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MoveView {
    pub ply: u32,
    /// Who made it: sides alternate in most games, but a rule may give one
    /// side several moves in a row (renju's and gomoku's opening rules).
    #[schema(value_type = String)]
    pub side: Side,
    /// Coordinate notation: ICCS (`h2e2`) or UCI (`e7e8q`).
    #[serde(rename = "move")]
    pub coord: String,
    /// What players read: Chinese notation, SAN, Japanese notation.
    pub display: String,
    /// The variant's second notation (the registry's `alt`: WXF, UCI …).
    #[serde(default)]
    pub alt: String,
    /// Clocks right after the move, in ms.
    pub first_ms: i64,
    pub second_ms: i64,
    /// The clock time the move took, in ms (the first move, which starts
    /// the clocks, takes none).
    #[serde(default)]
    pub spent_ms: i64,
}

/// Both clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ClockView {
    /// Main time left.
    pub first_ms: i64,
    pub second_ms: i64,
    /// Whether the clock of the side to move is running.
    pub running: bool,
    /// Each side's clock beyond its main time, for a time control with
    /// stages or byo-yomi; absent for a plain one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<SideClockView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<SideClockView>,
}

impl ClockView {
    /// Main times only.
    #[must_use]
    pub fn main(first_ms: i64, second_ms: i64, running: bool) -> ClockView {
        ClockView {
            first_ms,
            second_ms,
            running,
            first: None,
            second: None,
        }
    }
}

/// A side's clock beyond its main time: the stage of a staged control and
/// the byo-yomi (秒読み, 读秒) it is in or will enter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SideClockView {
    /// The current stage, from 1.
    pub stage: usize,
    /// Moves still to make before the stage's time control; `null` in
    /// sudden death.
    pub moves_to_control: Option<u32>,
    /// Byo-yomi periods left (all of them until main time runs out).
    pub periods_left: Option<u32>,
    /// The length of one byo-yomi period, ms.
    pub period_ms: Option<u64>,
    /// Once main time is gone: the time left in the current period, ms.
    pub period_left_ms: Option<i64>,
}

/// The full state of a game: what a client gets on (re)connecting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameView {
    pub id: String,
    pub variant: String,
    pub rated: bool,
    pub time_control: String,
    pub initial_ms: i64,
    pub increment_ms: i64,
    /// The words for what the first and second side play as (`red`/`black`,
    /// `white`/`black`): what a client shows; the data says `first`/`second`.
    /// The variant's words, or the game's where its moves decide them (a
    /// colour chosen under renju's opening rules: `tentative_black` until
    /// then, `white` after).
    pub sides: [String; 2],
    pub first: PlayerView,
    pub second: PlayerView,
    pub initial_fen: String,
    pub fen: String,
    #[schema(value_type = String)]
    pub turn: Side,
    pub ply: u32,
    pub moves: Vec<MoveView>,
    /// Clocks as they read when this view was made.
    pub clocks: ClockView,
    /// The side to move's legal moves in coordinate notation, sorted; empty
    /// unless the game is live.
    pub legal: Vec<String>,
    /// The other side's moves by movement alone, for its premoves, where
    /// the browser cannot find them itself (`Game::premoves`: a variant
    /// defined as data); absent otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub premoves: Vec<String>,
    /// `live`, `over` or `aborted`.
    pub state: String,
    /// `1-0`, `0-1`, `1/2-1/2`; `null` while live or when aborted.
    pub result: Option<String>,
    #[schema(value_type = Option<String>)]
    pub winner: Option<Side>,
    pub reason: Option<String>,
    pub detail: Option<String>,
    pub article: Option<String>,
    /// Side with a draw offer on the table.
    #[schema(value_type = Option<String>)]
    pub draw_offer: Option<Side>,
    /// A repetition ruling in force: this side must change its moves.
    #[schema(value_type = Option<String>)]
    pub must_change: Option<Side>,
    /// The side whose draw offer was refused and who may not offer again
    /// until the opponent has offered (23.1).
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub offer_refused: Option<Side>,
    /// Whether this game allows takebacks (casual games played online).
    #[serde(default)]
    pub takebacks: bool,
    /// The side with a takeback request on the table.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub takeback_offer: Option<Side>,
    /// The side to move may claim a draw now, and the claim holds.
    #[serde(default)]
    pub claimable: bool,
    /// What the claim would end the game with (`natural_limit`, `impasse`,
    /// `impasse_points`, `impasse_declaration` …: the reason the game's
    /// rules give), so the claim is offered in its own words; `null` when
    /// there is none.
    #[serde(default)]
    pub claim: Option<String>,
    /// `online` (what would be a foul is refused) or `arbiter` (the rule
    /// book's fouls and penalties, for events over the board).
    #[serde(default = "online")]
    pub rules_profile: String,
    pub created_ms: i64,
    /// The version of the last game event this view includes (0: none).
    pub v: u64,
    /// A player whose connections all closed, and in how many ms the
    /// opponent may claim the win (`player_gone`); `null` when both are
    /// there.
    #[serde(default)]
    pub away: Option<Away>,
    /// While a side has not made its first move: the game is aborted
    /// unless the side to move moves by `since_ms + window_ms`; `null`
    /// once both sides have moved (lichess's `expiration`).
    #[serde(default)]
    pub first_move: Option<FirstMove>,
}

/// The window for a side's first move (see [`GameView::first_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FirstMove {
    /// When the window opened: the game's start, or the first side's first
    /// move for the second side's.
    pub since_ms: i64,
    /// How long it is, ms.
    pub window_ms: i64,
}

fn online() -> String {
    "online".into()
}

/// Who a chat line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatRoom {
    Players,
    Spectators,
    /// The lobby's one room, for everyone there.
    Lobby,
}

/// A player who left (see [`ServerMsg::PlayerGone`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Away {
    #[schema(value_type = String)]
    pub side: Side,
    pub claim_in_ms: i64,
}

/// A player's rating before and after a rated game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    pub before: f64,
    pub after: f64,
}

/// Every message the server sends on a game's socket and stream. Game
/// events carry their version `v`; `full`, `error` and `pong` are for one
/// client and carry none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMsg {
    /// The whole game: the first message after connecting, and the answer
    /// to `resync`. `you` is the side the connection plays, `null` for a
    /// spectator.
    Full {
        game: Box<GameView>,
        you: Option<Side>,
    },
    /// A move was stored.
    Move {
        v: u64,
        ply: u32,
        /// Who made the move (sides need not alternate: see [`MoveView::side`]).
        side: Side,
        /// The sides' words after the move, for a game whose moves decide
        /// them (see [`GameView::sides`]); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sides: Option<[String; 2]>,
        #[serde(rename = "move")]
        coord: String,
        display: String,
        check: bool,
        capture: bool,
        fen: String,
        turn: Side,
        clocks: ClockView,
        legal: Vec<String>,
        /// The side not to move's premoves, as [`GameView::premoves`].
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        premoves: Vec<String>,
        /// The side to move may claim a draw now, and the claim holds
        /// (online the UI offers the claim only then).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        claimable: bool,
        /// The claim's reason when `claimable` (`impasse_declaration` …).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        claim: Option<String>,
        /// The variant's second notation of the move (WXF, UCI, western).
        #[serde(default)]
        alt: String,
        /// What the move made that the rules ask a player to announce
        /// (`four`, `open_three`: renju's office rule, seed 001), for a
        /// variant whose registry entry says `announcements`; absent when
        /// empty.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        announce: Vec<String>,
    },
    /// The referee ruled a repetition in which `side` plays a forbidden
    /// sequence: it must vary or lose (CXA 24, 26.4).
    MustChange {
        v: u64,
        side: Side,
        detail: String,
        article: Option<String>,
    },
    DrawOffer {
        v: u64,
        by: Side,
    },
    /// `by` declined `offer_by`'s offer (moving declines it silently).
    DrawDeclined {
        v: u64,
        by: Side,
        offer_by: Side,
    },
    /// `by` asks to take back its last move (casual games only).
    TakebackOffer {
        v: u64,
        by: Side,
    },
    /// `offer_by`'s takeback request was refused, by a word or a move.
    TakebackDeclined {
        v: u64,
        offer_by: Side,
    },
    /// `by`'s request was granted: `plies` moves were taken back and the
    /// game stands at ply `ply`. Clients ask for the whole state again
    /// (`resync`): the board, the clocks and the legal moves all changed.
    TakenBack {
        v: u64,
        by: Side,
        plies: u32,
        ply: u32,
    },
    Foul {
        v: u64,
        side: Side,
        kind: session::FoulKind,
        detail: String,
        article: Option<String>,
        count: u32,
    },
    TimePenalty {
        v: u64,
        side: Side,
        ms: u64,
        clocks: ClockView,
    },
    TimeGiven {
        v: u64,
        side: Side,
        ms: u64,
        clocks: ClockView,
    },
    /// The clock was paused or resumed.
    Clock {
        v: u64,
        clocks: ClockView,
    },
    End {
        v: u64,
        /// `over` or `aborted`.
        state: String,
        result: Option<String>,
        winner: Option<Side>,
        reason: String,
        detail: String,
        article: Option<String>,
        clocks: ClockView,
        /// For rated games: each side's rating before and after.
        ratings: BTreeMap<Side, RatingChange>,
    },
    /// All of `side`'s connections closed: the opponent may claim the win
    /// in `claim_in_ms` unless `side` comes back.
    PlayerGone {
        v: u64,
        side: Side,
        claim_in_ms: i64,
    },
    /// `side` is connected again: no claim.
    PlayerBack {
        v: u64,
        side: Side,
    },
    /// A chat line. `players`: between the two players only;
    /// `spectators`: among the watchers only (players do not see it).
    Chat {
        room: ChatRoom,
        from: String,
        text: String,
    },
    /// Your last message was refused; nothing changed.
    Error {
        code: String,
        message: String,
    },
    Pong,
}

impl ServerMsg {
    /// The message's type, its `t` field.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            ServerMsg::Full { .. } => "full",
            ServerMsg::Move { .. } => "move",
            ServerMsg::MustChange { .. } => "must_change",
            ServerMsg::DrawOffer { .. } => "draw_offer",
            ServerMsg::DrawDeclined { .. } => "draw_declined",
            ServerMsg::TakebackOffer { .. } => "takeback_offer",
            ServerMsg::TakebackDeclined { .. } => "takeback_declined",
            ServerMsg::TakenBack { .. } => "taken_back",
            ServerMsg::Foul { .. } => "foul",
            ServerMsg::TimePenalty { .. } => "time_penalty",
            ServerMsg::TimeGiven { .. } => "time_given",
            ServerMsg::Clock { .. } => "clock",
            ServerMsg::End { .. } => "end",
            ServerMsg::PlayerGone { .. } => "player_gone",
            ServerMsg::PlayerBack { .. } => "player_back",
            ServerMsg::Chat { .. } => "chat",
            ServerMsg::Error { .. } => "error",
            ServerMsg::Pong => "pong",
        }
    }

    /// The message as one JSON text.
    #[must_use]
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// An `error` message.
    #[must_use]
    pub fn error(code: &str, message: &str) -> ServerMsg {
        ServerMsg::Error {
            code: code.to_string(),
            message: message.to_string(),
        }
    }
}
