//! The WebSocket protocol (documented in `docs/websocket.md`): one JSON
//! message enum from the client, one handler per message, and the game's
//! events forwarded as they happen.
//!
//! * `/api/games/{id}/ws`: play or watch one game. The first message is the
//!   full state (`full`); a reconnecting client simply connects again and
//!   gets it anew (resume). Players are recognised by their session cookie;
//!   everyone else is a spectator and may only listen.
//! * `/api/lobby/ws`: the seek list and the player's own events
//!   (`game_start`, `challenge`).

use crate::auth::{same_origin, MaybeAuth};
use crate::error::ApiError;
use crate::live::{self, ActError, Action, GameView};
use crate::protocol::{ChatRoom, LobbyLine, LobbyMsg, ServerMsg};
use crate::store::User;
use crate::AppState;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::SinkExt;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

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

/// Longest chat line, in characters.
const CHAT_MAX_CHARS: usize = 200;

/// Pings the peer three times per idle limit (every 20 s by default) and
/// tells a dead one: nothing heard (no message, no pong; browsers answer
/// pings by themselves) for `dead_after`, the connection's idle limit. A peer that
/// vanished without closing (a laptop lid, a cut cable) is noticed here:
/// the pings themselves still go into the kernel's buffer, so the
/// connection's own idle check would not see it.
struct Heartbeat {
    tick: tokio::time::Interval,
    heard: tokio::time::Instant,
    dead_after: std::time::Duration,
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
            dead_after,
        }
    }

    fn heard(&mut self) {
        self.heard = tokio::time::Instant::now();
    }

    /// At each tick: the ping to send, or `None` when the peer is dead.
    fn beat(&self) -> Option<Message> {
        (self.heard.elapsed() < self.dead_after).then(|| Message::Ping(axum::body::Bytes::new()))
    }
}

/// One player's open game socket (see `live::presence`).
struct Presence {
    state: AppState,
    game: String,
    side: game::Side,
}

impl Presence {
    fn new(state: &AppState, game: &str, side: game::Side) -> Presence {
        live::presence(state, game, side, true);
        Presence {
            state: state.clone(),
            game: game.to_string(),
            side,
        }
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        live::presence(&self.state, &self.game, self.side, false);
    }
}

/// The side the user plays, or `None` for a spectator.
fn you(view: &GameView, user: Option<&User>) -> Option<game::Side> {
    let uid = user.map(|u| u.id.as_str())?;
    if view.first.id.as_deref() == Some(uid) {
        Some(game::Side::First)
    } else if view.second.id.as_deref() == Some(uid) {
        Some(game::Side::Second)
    } else {
        None
    }
}

fn full_msg(view: &GameView, user: Option<&User>) -> String {
    ServerMsg::Full {
        game: Box::new(view.clone()),
        you: you(view, user),
    }
    .to_json()
}

fn error_msg(code: &str, message: &str) -> String {
    ServerMsg::error(code, message).to_json()
}

/// Play or watch a game over WebSocket.
#[utoipa::path(get, path = "/api/games/{id}/ws", tag = "games", params(("id" = String, Path)),
    responses((status = 101, description = "WebSocket; see docs/websocket.md"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn game_socket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    MaybeAuth(user): MaybeAuth,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if !same_origin(&headers) {
        return Err(ApiError::Forbidden("cross-origin WebSocket refused".into()));
    }
    let joined = live::join(&state, &id).await;
    let stored = if joined.is_none() {
        Some(
            live::stored_view(&state, &id)
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("game {id}")))?,
        )
    } else {
        None
    };
    let limit = state.config().max_message_bytes;
    Ok(ws
        .max_message_size(limit)
        .max_frame_size(limit)
        // Small buffers: thousands of sockets each send a few hundred
        // bytes now and then; the 128 KiB defaults would dominate memory.
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .on_upgrade(move |socket| async move {
            match (joined, stored) {
                (Some((view, rx)), _) => play(state, id, user, socket, view, rx).await,
                (None, Some(view)) => {
                    let mut socket = socket;
                    let _ = socket
                        .send(Message::Text(full_msg(&view, user.as_ref()).into()))
                        .await;
                    let _ = socket.close().await;
                }
                (None, None) => {}
            }
        }))
}

/// Serves one connection to a live game until either side closes.
async fn play(
    state: AppState,
    id: String,
    user: Option<User>,
    socket: WebSocket,
    view: GameView,
    mut rx: tokio::sync::broadcast::Receiver<std::sync::Arc<live::Event>>,
) {
    // A player's socket counts toward their presence in the game; the
    // guard says when it closes, however the loop ends.
    let seat = you(&view, user.as_ref());
    let _present = seat.map(|side| Presence::new(&state, &id, side));
    let my_room = room_of(seat);
    // One socket, read and written from this one task: no split halves
    // and the lock between them (1–2 % of the server's CPU under load).
    let mut socket = socket;
    if socket
        .send(Message::Text(full_msg(&view, user.as_ref()).into()))
        .await
        .is_err()
    {
        return;
    }
    let mut shutdown = state.shutdown_signal();
    let mut hb = Heartbeat::new(&state);
    loop {
        tokio::select! {
            _ = hb.tick.tick() => match hb.beat() {
                Some(ping) => if socket.send(ping).await.is_err() { break },
                None => break,
            },
            msg = socket.recv() => {
                hb.heard();
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Binary(_))) => {
                        let _ = socket.send(text_msg(error_msg("bad_message", "binary messages are not part of the protocol"))).await;
                        continue;
                    }
                    // Closed, or a protocol error such as an oversized
                    // message: the connection ends, the game is untouched.
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                let reply = handle(&state, &id, user.as_ref(), seat, &text).await;
                if let Some(r) = reply {
                    if socket.send(text_msg(r)).await.is_err() {
                        break;
                    }
                }
            }
            ev = rx.recv() => {
                let out = match ev {
                    // The whole state again (after the game reloaded from
                    // storage): rebuilt for this connection, so that a
                    // player is still told which side is theirs.
                    Ok(ev) if ev.kind == "full" => match live::view(&state, &id).await {
                        Ok(Some(v)) => full_msg(&v, user.as_ref()),
                        _ => break,
                    },
                    // A chat line of the other room is not for this connection.
                    Ok(ev) if ev.room.is_some_and(|r| r != my_room) => continue,
                    Ok(ev) => ev.json.clone(),
                    // Too slow to keep up: send the whole state again.
                    Err(RecvError::Lagged(_)) => match live::view(&state, &id).await {
                        Ok(Some(v)) => full_msg(&v, user.as_ref()),
                        _ => break,
                    },
                    Err(RecvError::Closed) => break,
                };
                if socket.send(text_msg(out)).await.is_err() {
                    break;
                }
            }
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
}

/// The chat room of a connection: the players', or the spectators'.
fn room_of(seat: Option<game::Side>) -> ChatRoom {
    if seat.is_some() {
        ChatRoom::Players
    } else {
        ChatRoom::Spectators
    }
}

/// A chat line checked, game's or lobby's: from a player logged in, 1 to
/// 200 characters without control characters, not too often (5 lines per
/// 10 s, all rooms together). `Err` is the refusal to send back.
async fn chat_line<'a>(
    state: &AppState,
    user: Option<&User>,
    text: &'a str,
) -> Result<(User, &'a str), String> {
    let Some(user) = user else {
        return Err(error_msg("unauthorized", "log in to chat"));
    };
    let text = text.trim();
    if text.is_empty() || text.chars().count() > CHAT_MAX_CHARS || text.chars().any(char::is_control) {
        return Err(error_msg(
            "bad_chat",
            &format!("a chat line has 1-{CHAT_MAX_CHARS} characters and no control characters"),
        ));
    }
    if let Err(s) = state.limiters().chat.try_hit(&user.id, crate::now_ms()) {
        return Err(error_msg("rate_limited", &format!("too many lines; wait {s} s")));
    }
    // The account as it is now, not as it was when the socket opened: an
    // operator's mute or ban (`qiju admin`) holds from the next line on.
    // One read a line at most, as lines are rate-limited above.
    let user = match state.store().user_by_id(&user.id).await {
        Ok(Some(u)) if !u.banned => u,
        Ok(_) => return Err(error_msg("banned", "this account may no longer chat")),
        Err(e) => {
            tracing::warn!(error = %e, "chat: cannot read the account");
            return Err(error_msg("unavailable", "chat is unavailable; try again"));
        }
    };
    Ok((user, text))
}

/// A chat line from `user` in a game: to the players' or the spectators'
/// room. A muted player's line goes back to them alone, so they are not
/// told; nobody else reads it.
async fn say(
    state: &AppState,
    id: &str,
    user: Option<&User>,
    seat: Option<game::Side>,
    text: &str,
) -> Option<String> {
    let (user, text) = match chat_line(state, user, text).await {
        Ok(ok) => ok,
        Err(refusal) => return Some(refusal),
    };
    let line = ServerMsg::Chat {
        room: room_of(seat),
        from: user.name.clone(),
        text: text.to_string(),
    };
    if user.muted {
        return Some(line.to_json());
    }
    match live::chat(state, id, line).await {
        Ok(()) => None,
        Err(e) => Some(error_msg(e.code(), &e.to_string())),
    }
}

fn text_msg(s: String) -> Message {
    Message::Text(Utf8Bytes::from(s))
}

/// Handles one client message; returns what to send back to this client
/// only (events for everyone come through the game's broadcast).
async fn handle(
    state: &AppState,
    id: &str,
    user: Option<&User>,
    seat: Option<game::Side>,
    text: &str,
) -> Option<String> {
    let msg: ClientMsg = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => return Some(error_msg("bad_message", &format!("cannot read message: {e}"))),
    };
    let action = match msg {
        ClientMsg::Ping {} => return Some(ServerMsg::Pong.to_json()),
        ClientMsg::Chat { text } => return say(state, id, user, seat, &text).await,
        ClientMsg::Resync {} => {
            return match live::view(state, id).await {
                Ok(Some(v)) => Some(full_msg(&v, user)),
                _ => Some(error_msg("gone", "the game is not running on this server")),
            }
        }
        ClientMsg::Move { coord, ply } => Action::Move { coord, ply },
        ClientMsg::Resign {} => Action::Resign,
        ClientMsg::DrawOffer {} => Action::OfferDraw,
        ClientMsg::DrawAccept {} => Action::AcceptDraw,
        ClientMsg::DrawDecline {} => Action::DeclineDraw,
        ClientMsg::ClaimDraw {} => Action::ClaimDraw,
        ClientMsg::Abort {} => Action::Abort,
        ClientMsg::ClaimVictory {} => Action::ClaimVictory,
    };
    let Some(user) = user else {
        return Some(error_msg("not_a_player", "spectators cannot act; log in to play"));
    };
    match live::act_on(state, id, &user.id, action).await {
        Ok(_) => None,
        Err(e) => Some(act_error(&e)),
    }
}

fn act_error(e: &ActError) -> String {
    error_msg(e.code(), &e.to_string())
}

/// The lobby: seek list changes and your own events.
#[utoipa::path(get, path = "/api/lobby/ws", tag = "lobby",
    responses((status = 101, description = "WebSocket; see docs/websocket.md")))]
pub async fn lobby_socket(
    State(state): State<AppState>,
    headers: HeaderMap,
    MaybeAuth(user): MaybeAuth,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if !same_origin(&headers) {
        return Err(ApiError::Forbidden("cross-origin WebSocket refused".into()));
    }
    let limit = state.config().max_message_bytes;
    Ok(ws
        .max_message_size(limit)
        .max_frame_size(limit)
        // Small buffers: thousands of sockets each send a few hundred
        // bytes now and then; the 128 KiB defaults would dominate memory.
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .on_upgrade(move |socket| lobby(state, user, socket)))
}

async fn lobby(state: AppState, user: Option<User>, socket: WebSocket) {
    // Declared before the receiver, so dropped after it.
    let _presence = user.as_ref().map(|u| crate::lobby::Presence::new(&state, u));
    let mut socket = socket;
    let mut public = state.lobby().public.subscribe();
    // A spectator gets a personal channel that stays silent (its sender
    // lives as long as the connection).
    let (_silent, mut personal) = match &user {
        Some(u) => (None, state.lobby().subscribe(&u.id)),
        None => {
            let (t, r) = tokio::sync::broadcast::channel(1);
            (Some(t), r)
        }
    };
    let hello = LobbyMsg::Seeks {
        seeks: state.lobby().seeks(),
    }
    .to_json();
    if socket.send(text_msg(hello)).await.is_err() {
        return;
    }
    let history = LobbyMsg::ChatHistory {
        lines: state.lobby().chat_history(),
    }
    .to_json();
    if socket.send(text_msg(history)).await.is_err() {
        return;
    }
    let mut shutdown = state.shutdown_signal();
    let mut hb = Heartbeat::new(&state);
    loop {
        let out = tokio::select! {
            _ = hb.tick.tick() => match hb.beat() {
                Some(ping) => if socket.send(ping).await.is_err() { break } else { continue },
                None => break,
            },
            msg = socket.recv() => {
                hb.heard();
                match msg {
                    Some(Ok(Message::Text(t))) => match serde_json::from_str::<ClientMsg>(&t) {
                        Ok(ClientMsg::Ping {}) => ServerMsg::Pong.to_json(),
                        Ok(ClientMsg::Chat { text }) => match chat_line(&state, user.as_ref(), &text).await {
                            // A muted player's line goes back to them alone.
                            Ok((u, text)) if u.muted => LobbyMsg::Chat(LobbyLine::now(&u.name, text)).to_json(),
                            Ok((u, text)) => {
                                state.lobby().say(&u.name, text);
                                continue;
                            }
                            Err(refusal) => refusal,
                        },
                        _ => error_msg("bad_message", "the lobby socket answers ping and chat; use the HTTP API to seek or challenge"),
                    },
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                }
            },
            ev = public.recv() => match ev {
                Ok(s) => s.to_string(),
                Err(RecvError::Lagged(_)) => LobbyMsg::Seeks { seeks: state.lobby().seeks() }.to_json(),
                Err(RecvError::Closed) => break,
            },
            ev = personal.recv() => match ev {
                Ok(s) => s.to_string(),
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => break,
            },
            _ = shutdown.changed() => break,
        };
        if socket.send(text_msg(out)).await.is_err() {
            break;
        }
    }
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
