//! The WebSocket protocol (documented in `docs/websocket.md`): one JSON
//! message enum from the client, one handler per message, and the room's
//! events forwarded as they happen.
//!
//! * `/api/games/{id}/ws` ([`game`]): play or watch one game. The first
//!   message is the full state (`full`); a reconnecting client simply
//!   connects again and gets it anew (resume). Players are recognised by
//!   their session cookie; everyone else is a spectator and may only listen.
//! * `/api/lobby/ws` ([`lobby`]): the seek list, the lobby chat and the
//!   player's own events (`game_start`, `challenge`).

pub mod game;
pub mod lobby;

use crate::AppState;
use axum::extract::ws::{Message, Utf8Bytes, WebSocketUpgrade};
use play::protocol::ServerMsg;
use serde::Deserialize;

/// A message from a client on a game socket. The variants without fields
/// are written `{}` so that `deny_unknown_fields` holds for them too (serde
/// lets a unit variant of a tagged enum carry anything): `{"t":"resign",
/// "side":"red"}` is refused, not read as a resignation.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Play a move in the game's coordinate notation; `ply` (optional) is the number the move will
    /// have, so a move resent after a reconnect is not played twice.
    Move {
        #[serde(rename = "move")]
        coord: String,
        ply: Option<u32>,
    },
    Resign {},
    DrawOffer {},
    DrawAccept {},
    DrawDecline {},
    /// Ask to take back one's last move; answer the opponent's request.
    TakebackOffer {},
    TakebackAccept {},
    TakebackDecline {},
    ClaimDraw {},
    Abort {},
    /// Claim the win over an opponent who left and did not come back in
    /// time (after `player_gone`'s `claim_in_ms`).
    ClaimVictory {},
    Ping {},
    /// Send the whole state again (a client that saw a gap in the event
    /// versions).
    Resync {},
    /// Say something: players to each other, spectators to spectators.
    Chat {
        text: String,
    },
}

/// Pings the peer three times per idle limit (every 20 s by default) and
/// tells a dead one: nothing heard (no message, no pong; browsers answer
/// pings by themselves) for `dead_after`, the connection's idle limit. A peer that
/// vanished without closing (a laptop lid, a cut cable) is noticed here:
/// the pings themselves still go into the kernel's buffer, so the
/// connection's own idle check would not see it. A peer that sent a
/// message since the last tick is not pinged: it is alive, and a ping and
/// its pong are two more packets each on 20,000 sockets, most of them
/// players moving every few seconds (docs/PERFORMANCE.md).
struct Heartbeat {
    tick: tokio::time::Interval,
    heard: tokio::time::Instant,
    /// A message other than a pong came since the last tick.
    spoke: bool,
    dead_after: std::time::Duration,
}

/// What a heartbeat's tick asks for.
enum Beat {
    /// Heard since the last tick.
    Alive,
    /// Quiet for a while: ask for a pong.
    Ping(Message),
    /// Quiet for the idle limit: the connection ends.
    Dead,
}

impl Heartbeat {
    fn new(state: &AppState) -> Heartbeat {
        let dead_after = state.config().conn_limits.idle;
        let mut tick = tokio::time::interval((dead_after / 3).max(std::time::Duration::from_millis(100)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.reset();
        Heartbeat {
            tick,
            heard: tokio::time::Instant::now(),
            spoke: false,
            dead_after,
        }
    }

    /// A frame came: a pong, or a message (anything else).
    fn heard(&mut self, frame: &Option<Result<Message, axum::Error>>) {
        self.heard = tokio::time::Instant::now();
        self.spoke |= !matches!(frame, Some(Ok(Message::Pong(_))));
    }

    /// At each tick: whether to ping, or the peer is dead.
    fn beat(&mut self) -> Beat {
        if self.heard.elapsed() >= self.dead_after {
            Beat::Dead
        } else if std::mem::take(&mut self.spoke) {
            Beat::Alive
        } else {
            Beat::Ping(Message::Ping(axum::body::Bytes::new()))
        }
    }
}

/// The upgrade with this server's message limit and small buffers:
/// thousands of sockets each send a few hundred bytes now and then; the
/// 128 KiB defaults would dominate memory.
fn sized(state: &AppState, ws: WebSocketUpgrade) -> WebSocketUpgrade {
    let limit = state.config().max_message_bytes;
    ws.max_message_size(limit)
        .max_frame_size(limit)
        .read_buffer_size(4096)
        .write_buffer_size(0)
}

fn error_msg(code: &str, message: &str) -> String {
    ServerMsg::error(code, message).to_json()
}

/// Resolves when the socket's session ends; never for a spectator.
async fn session_end(ended: &mut Option<tokio::sync::watch::Receiver<bool>>) {
    match ended {
        Some(rx) => {
            let _ = rx.wait_for(|v| *v).await;
        }
        None => std::future::pending().await,
    }
}

/// What a socket hears before it closes because its session ended.
fn session_ended() -> String {
    error_msg(
        "session_ended",
        "your session has ended (logged out, revoked or barred): log in again",
    )
}

fn text_msg(s: String) -> Message {
    Message::Text(Utf8Bytes::from(s))
}

#[cfg(test)]
mod tests {
    use super::ClientMsg;

    #[test]
    fn a_message_with_a_field_it_does_not_have_is_refused() {
        for ok in [
            r#"{"t":"resign"}"#,
            r#"{"t":"ping"}"#,
            r#"{"t":"resync"}"#,
            r#"{"t":"move","move":"h2e2","ply":1}"#,
        ] {
            assert!(serde_json::from_str::<ClientMsg>(ok).is_ok(), "{ok}");
        }
        for bad in [
            r#"{"t":"resign","side":"red"}"#,
            r#"{"t":"draw_offer","x":1}"#,
            r#"{"t":"move","move":"h2e2","side":"red"}"#,
            r#"{"t":"castle"}"#,
            r#"{"move":"h2e2"}"#,
        ] {
            assert!(serde_json::from_str::<ClientMsg>(bad).is_err(), "{bad}");
        }
    }
}
