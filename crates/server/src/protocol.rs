//! What the server tells clients about a game (protocol version 2): the
//! views (a player, a move, the clocks, the whole game) and [`ServerMsg`],
//! the one enum of every message on a game's socket and stream; and
//! [`LobbyMsg`], the lobby socket's.
//!
//! Sides are `first` and `second` in every game; the variant's words for
//! them (`red`/`black`, `white`/`black`) travel in [`GameView::sides`] for
//! display. Each game event carries a version `v` (1, 2, 3 … per game, as
//! lila's round versions): a client that sees a gap asks for the whole state
//! again (`resync`) instead of drawing a game it only half knows.
//! docs/websocket.md describes these messages; tests check it against
//! both enums.

use crate::lobby::{ChallengeView, SeekView};
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
    /// Coordinate notation: ICCS (`h2e2`) or UCI (`e7e8q`).
    #[serde(rename = "move")]
    pub coord: String,
    /// What players read: Chinese notation or SAN.
    pub display: String,
    /// Clocks right after the move, in ms.
    pub first_ms: i64,
    pub second_ms: i64,
}

/// Both clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ClockView {
    pub first_ms: i64,
    pub second_ms: i64,
    /// Whether the clock of the side to move is running.
    pub running: bool,
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
    /// The variant's words for the first and second side (`red`/`black`,
    /// `white`/`black`): what a client shows; the data says `first`/`second`.
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
    /// The side to move may claim a draw now, and the claim holds.
    #[serde(default)]
    pub claimable: bool,
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
        #[serde(rename = "move")]
        coord: String,
        display: String,
        check: bool,
        capture: bool,
        fen: String,
        turn: Side,
        clocks: ClockView,
        legal: Vec<String>,
        /// The side to move may claim a draw now, and the claim holds
        /// (online the UI offers the claim only then).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        claimable: bool,
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

/// A line of the lobby chat, as sent and as kept for newcomers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LobbyLine {
    /// Always [`ChatRoom::Lobby`]: a client tells it from a game's lines.
    pub room: ChatRoom,
    pub from: String,
    pub text: String,
    pub at_ms: i64,
}

impl LobbyLine {
    /// A line `from` says now.
    #[must_use]
    pub fn now(from: &str, text: &str) -> LobbyLine {
        LobbyLine {
            room: ChatRoom::Lobby,
            from: from.to_string(),
            text: text.to_string(),
            at_ms: crate::now_ms(),
        }
    }
}

/// Every message the server sends on the lobby socket. The personal ones
/// (`game_start`, `challenge`, `challenge_declined`) also go, one a line,
/// to the bot event stream. A refusal is the game protocol's
/// [`ServerMsg::Error`], and `pong` its [`ServerMsg::Pong`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum LobbyMsg {
    /// The open seeks: the first message, and again after falling behind.
    Seeks {
        seeks: Vec<SeekView>,
    },
    SeekAdded {
        seek: SeekView,
    },
    /// Paired, withdrawn, expired, or its player left the lobby.
    SeekRemoved {
        id: String,
    },
    /// A game started for you: open `/api/games/{game}/ws`.
    GameStart {
        game: String,
        color: Side,
    },
    /// Someone challenged you.
    Challenge {
        challenge: ChallengeView,
    },
    ChallengeDeclined {
        id: String,
        by: String,
    },
    /// The lobby chat's last lines, oldest first: the second message.
    ChatHistory {
        lines: Vec<LobbyLine>,
    },
    Chat(LobbyLine),
}

impl LobbyMsg {
    /// The message's type, its `t` field.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            LobbyMsg::Seeks { .. } => "seeks",
            LobbyMsg::SeekAdded { .. } => "seek_added",
            LobbyMsg::SeekRemoved { .. } => "seek_removed",
            LobbyMsg::GameStart { .. } => "game_start",
            LobbyMsg::Challenge { .. } => "challenge",
            LobbyMsg::ChallengeDeclined { .. } => "challenge_declined",
            LobbyMsg::ChatHistory { .. } => "chat_history",
            LobbyMsg::Chat(_) => "chat",
        }
    }

    /// The message as sent.
    #[must_use]
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clocks() -> ClockView {
        ClockView {
            first_ms: 1,
            second_ms: 2,
            running: true,
        }
    }

    /// One message of every kind (the match in `kind` makes a new variant a
    /// compile error until it is added here too).
    fn one_of_each() -> Vec<ServerMsg> {
        let game = GameView {
            id: "g".into(),
            variant: "chess/standard".into(),
            rated: false,
            time_control: "5+3".into(),
            initial_ms: 300_000,
            increment_ms: 3000,
            sides: ["white".into(), "black".into()],
            first: PlayerView {
                id: Some("u".into()),
                name: "a".into(),
                rating: Some(1500.0),
                computer: None,
            },
            second: PlayerView {
                id: None,
                name: "Computer".into(),
                rating: None,
                computer: Some("level:1".into()),
            },
            initial_fen: "startpos".into(),
            fen: "startpos".into(),
            turn: Side::First,
            ply: 0,
            moves: vec![],
            clocks: clocks(),
            legal: vec!["e2e4".into()],
            state: "live".into(),
            result: None,
            winner: None,
            reason: None,
            detail: None,
            article: None,
            draw_offer: None,
            must_change: None,
            offer_refused: None,
            claimable: false,
            rules_profile: "online".into(),
            created_ms: 0,
            v: 0,
            away: Some(Away {
                side: Side::Second,
                claim_in_ms: 3,
            }),
        };
        let s = Side::Second;
        vec![
            ServerMsg::Full {
                game: Box::new(game),
                you: Some(Side::First),
            },
            ServerMsg::Move {
                v: 1,
                ply: 1,
                coord: "e2e4".into(),
                display: "e4".into(),
                check: false,
                capture: false,
                fen: "f".into(),
                turn: s,
                clocks: clocks(),
                legal: vec![],
                claimable: false,
            },
            ServerMsg::MustChange {
                v: 2,
                side: s,
                detail: "d".into(),
                article: None,
            },
            ServerMsg::DrawOffer { v: 3, by: s },
            ServerMsg::DrawDeclined {
                v: 4,
                by: s,
                offer_by: s.other(),
            },
            ServerMsg::Foul {
                v: 5,
                side: s,
                kind: session::FoulKind::FalseClaim,
                detail: "d".into(),
                article: None,
                count: 1,
            },
            ServerMsg::TimePenalty {
                v: 6,
                side: s,
                ms: 1,
                clocks: clocks(),
            },
            ServerMsg::TimeGiven {
                v: 7,
                side: s,
                ms: 1,
                clocks: clocks(),
            },
            ServerMsg::Clock {
                v: 8,
                clocks: clocks(),
            },
            ServerMsg::End {
                v: 9,
                state: "over".into(),
                result: Some("0-1".into()),
                winner: Some(s),
                reason: "checkmate".into(),
                detail: "d".into(),
                article: None,
                clocks: clocks(),
                ratings: BTreeMap::from([(
                    s,
                    RatingChange {
                        before: 1.0,
                        after: 2.0,
                    },
                )]),
            },
            ServerMsg::PlayerGone {
                v: 10,
                side: s,
                claim_in_ms: 15_000,
            },
            ServerMsg::PlayerBack { v: 11, side: s },
            ServerMsg::Chat {
                room: ChatRoom::Spectators,
                from: "kibitzer".into(),
                text: "好棋".into(),
            },
            ServerMsg::error("c", "m"),
            ServerMsg::Pong,
        ]
    }

    #[test]
    fn every_message_reads_back_as_written_with_its_kind() {
        for m in one_of_each() {
            let json = m.to_json();
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["t"], m.kind(), "{json}");
            let back: ServerMsg = serde_json::from_str(&json).unwrap();
            assert_eq!(back, m);
        }
    }

    fn lobby_one_of_each() -> Vec<LobbyMsg> {
        let seek = SeekView {
            id: "s1".into(),
            player: "张三".into(),
            rating: 1500.0,
            variant: "xiangqi/cxa".into(),
            time: "10+5".into(),
            rated: true,
            rating_min: Some(1400.0),
            rating_max: None,
            color: crate::lobby::ColorChoice::Random,
        };
        let line = LobbyLine {
            room: ChatRoom::Lobby,
            from: "李四".into(),
            text: "有人下一盘吗？".into(),
            at_ms: 1,
        };
        vec![
            LobbyMsg::Seeks {
                seeks: vec![seek.clone()],
            },
            LobbyMsg::SeekAdded { seek },
            LobbyMsg::SeekRemoved { id: "s1".into() },
            LobbyMsg::GameStart {
                game: "g1".into(),
                color: Side::Second,
            },
            LobbyMsg::Challenge {
                challenge: ChallengeView {
                    id: "c1".into(),
                    from: "a".into(),
                    to: "b".into(),
                    variant: "chess/standard".into(),
                    time: "3+2".into(),
                    rated: false,
                    color: crate::lobby::ColorChoice::First,
                    fen: None,
                    rules: registry::Profile::Online,
                },
            },
            LobbyMsg::ChallengeDeclined {
                id: "c1".into(),
                by: "b".into(),
            },
            LobbyMsg::ChatHistory {
                lines: vec![line.clone()],
            },
            LobbyMsg::Chat(line),
        ]
    }

    #[test]
    fn every_lobby_message_reads_back_as_written_with_its_kind() {
        for m in lobby_one_of_each() {
            let json = m.to_json();
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["t"], m.kind(), "{json}");
            let back: LobbyMsg = serde_json::from_str(&json).unwrap();
            assert_eq!(back, m);
        }
    }

    const WEBSOCKET_MD: &str = include_str!("../../../docs/websocket.md");

    /// The `t` of each row of the first table after `heading` in
    /// docs/websocket.md.
    fn documented_kinds(heading: &str) -> std::collections::BTreeSet<String> {
        let table = WEBSOCKET_MD
            .split(heading)
            .nth(1)
            .and_then(|rest| rest.split("\n\n").find(|b| b.trim_start().starts_with('|')))
            .unwrap_or_else(|| panic!("a table after {heading}"));
        table
            .lines()
            .skip(2) // the header and its rule
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| l.split('`').next())
            .map(String::from)
            .collect()
    }

    /// The lobby socket's table in docs/websocket.md lists exactly the
    /// messages of [`LobbyMsg`], and the game protocol's `error`.
    #[test]
    fn docs_websocket_md_describes_the_lobby_enum() {
        let documented = documented_kinds("## `/api/lobby/ws`");
        let mut ours: std::collections::BTreeSet<String> =
            lobby_one_of_each().iter().map(|m| m.kind().to_string()).collect();
        ours.insert(ServerMsg::error("c", "m").kind().to_string());
        assert_eq!(documented, ours);
    }

    /// docs/websocket.md lists exactly the messages of [`ServerMsg`] in the
    /// game socket's server → client table, and its example lines read as
    /// messages of this protocol.
    #[test]
    fn docs_websocket_md_describes_this_enum() {
        let documented = documented_kinds("### Server → client");
        let ours: std::collections::BTreeSet<String> =
            one_of_each().iter().map(|m| m.kind().to_string()).collect();
        assert_eq!(documented, ours);
        let examples: Vec<&str> = WEBSOCKET_MD
            .lines()
            .filter_map(|l| l.strip_prefix("← "))
            .filter(|l| l.contains("\"v\"") || l.contains("\"t\":\"full\"") || l.contains("\"t\":\"error\""))
            .collect();
        assert!(examples.len() >= 3, "examples: {examples:?}");
        for e in examples {
            serde_json::from_str::<ServerMsg>(e).unwrap_or_else(|err| panic!("{e}: {err}"));
        }
    }
}
