//! `/api/games/{id}/ws`: play or watch one game.

use super::{error_msg, sized, text_msg, Beat, ClientMsg, Heartbeat};
use crate::auth::{same_origin, MaybeSession};
use crate::error::ApiError;
use crate::listen::ConnSlot;
use crate::sessions::Held;
use crate::AppState;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;
use common::{Error, ErrorBody};
use futures_util::SinkExt;
use game::Side;
use play::live::{self, Action};
use play::protocol::{ChatRoom, GameView, ServerMsg};
use store::User;
use tokio::sync::broadcast::error::RecvError;

/// The side the user plays, or `None` for a spectator.
fn you(view: &GameView, user: Option<&User>) -> Option<Side> {
    // A bot account plays through the Bot API only (docs/BOTS.md): its
    // socket watches, as a spectator's does.
    let uid = user.filter(|u| !u.bot).map(|u| u.id.as_str())?;
    if view.first.id.as_deref() == Some(uid) {
        Some(Side::First)
    } else if view.second.id.as_deref() == Some(uid) {
        Some(Side::Second)
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

/// Play or watch a game over WebSocket.
#[utoipa::path(get, path = "/api/games/{id}/ws", tag = "games", params(("id" = String, Path)),
    responses((status = 101, description = "WebSocket; see docs/websocket.md"), (status = 404, body = ErrorBody)))]
pub async fn game_socket(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    MaybeSession(session): MaybeSession,
    conn: Option<Extension<ConnSlot>>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if !same_origin(&headers) {
        return Err(ApiError(Error::Forbidden(
            "cross-origin WebSocket refused".into(),
        )));
    }
    let held = session.as_ref().map(|s| state.sessions().hold(&s.token_hash));
    let user = session.map(|s| s.user);
    let joined = live::join(state.play(), &id).await;
    let stored = if joined.is_none() {
        Some(
            live::stored_view(state.play(), &id)
                .await?
                .ok_or_else(|| Error::NotFound(format!("game {id}")))?,
        )
    } else {
        None
    };
    Ok(sized(&state, ws).on_upgrade(move |socket| async move {
        // The connection counts under the caps while the socket lives.
        let _conn = conn;
        match (joined, stored) {
            (Some((view, rx)), _) => serve(state, id, user, held, socket, view, rx).await,
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

/// Serves one connection to a live game until either side closes, or the
/// session it was opened with ends (the player is then told, and the
/// socket closes: a logged-out or banned player's socket plays no more).
async fn serve(
    state: AppState,
    id: String,
    user: Option<User>,
    held: Option<Held>,
    socket: WebSocket,
    view: GameView,
    mut rx: tokio::sync::broadcast::Receiver<std::sync::Arc<live::Event>>,
) {
    let play = state.play();
    // A player's socket counts toward their presence in the game; the
    // guard says when it closes, however the loop ends.
    let seat = you(&view, user.as_ref());
    let _present = seat.map(|side| live::Present::new(play, &id, side));
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
    let mut ended = held.as_ref().map(|h| h.ended.clone());
    // Made once, not at each turn of the loop: a watch's `changed` joins
    // the list of the channel's waiters under its lock when first polled
    // and leaves it when dropped, and every socket waits on the same
    // shutdown channel.
    let shutting_down = shutdown.changed();
    let session_ended = super::session_end(&mut ended);
    tokio::pin!(shutting_down, session_ended);
    let mut hb = Heartbeat::new(&state);
    loop {
        tokio::select! {
            _ = hb.tick.tick() => match hb.beat() {
                Beat::Alive => {}
                Beat::Ping(ping) => if socket.send(ping).await.is_err() { break },
                Beat::Dead => break,
            },
            () = &mut session_ended => {
                let _ = socket.send(text_msg(super::session_ended())).await;
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
            msg = socket.recv() => {
                hb.heard(&msg);
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
                    Ok(ev) if ev.kind == "full" => match live::view(play, &id).await {
                        Ok(Some(v)) => full_msg(&v, user.as_ref()),
                        _ => break,
                    },
                    // A chat line of the other room is not for this connection.
                    Ok(ev) if ev.room.is_some_and(|r| r != my_room) => continue,
                    Ok(ev) => ev.json.clone(),
                    // Too slow to keep up: send the whole state again.
                    Err(RecvError::Lagged(_)) => match live::view(play, &id).await {
                        Ok(Some(v)) => full_msg(&v, user.as_ref()),
                        _ => break,
                    },
                    Err(RecvError::Closed) => break,
                };
                if socket.send(text_msg(out)).await.is_err() {
                    break;
                }
            }
            _ = &mut shutting_down => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
}

/// The chat room of a connection: the players', or the spectators'.
fn room_of(seat: Option<Side>) -> ChatRoom {
    if seat.is_some() {
        ChatRoom::Players
    } else {
        ChatRoom::Spectators
    }
}

/// A chat line from `user` in a game, checked by the lobby's moderation,
/// to the players' or the spectators' room. A muted player's line goes
/// back to them alone, so they are not told; nobody else reads it.
async fn say(
    state: &AppState,
    id: &str,
    user: Option<&User>,
    seat: Option<Side>,
    text: &str,
) -> Option<String> {
    let (user, text) = match state.lobby().check_line(user, text).await {
        Ok(ok) => ok,
        Err(refusal) => return Some(error_msg(refusal.code(), &refusal.to_string())),
    };
    let line = ServerMsg::Chat {
        room: room_of(seat),
        from: user.name.clone(),
        text: text.to_string(),
    };
    if user.muted {
        return Some(line.to_json());
    }
    match live::chat(state.play(), id, line).await {
        Ok(()) => None,
        Err(e) => Some(error_msg(e.code(), &e.to_string())),
    }
}

/// Handles one client message; returns what to send back to this client
/// only (events for everyone come through the game's broadcast).
async fn handle(
    state: &AppState,
    id: &str,
    user: Option<&User>,
    seat: Option<Side>,
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
            return match live::view(state.play(), id).await {
                Ok(Some(v)) => Some(full_msg(&v, user)),
                _ => Some(error_msg("gone", "the game is not running on this server")),
            }
        }
        ClientMsg::Move { coord, ply } => Action::Move { coord, ply },
        ClientMsg::Resign {} => Action::Resign,
        ClientMsg::DrawOffer {} => Action::OfferDraw,
        ClientMsg::DrawAccept {} => Action::AcceptDraw,
        ClientMsg::DrawDecline {} => Action::DeclineDraw,
        ClientMsg::TakebackOffer {} => Action::OfferTakeback,
        ClientMsg::TakebackAccept {} => Action::AcceptTakeback,
        ClientMsg::TakebackDecline {} => Action::DeclineTakeback,
        ClientMsg::ClaimDraw {} => Action::ClaimDraw,
        ClientMsg::Abort {} => Action::Abort,
        ClientMsg::ClaimVictory {} => Action::ClaimVictory,
    };
    let Some(user) = user else {
        return Some(error_msg("not_a_player", "spectators cannot act; log in to play"));
    };
    if user.bot {
        return Some(error_msg(
            "bot_api_only",
            "a bot account plays through the Bot API (POST /api/bot/game/{id}/move/{move})",
        ));
    }
    match live::act_on(state.play(), id, &user.id, action).await {
        Ok(_) => None,
        Err(e) => Some(error_msg(e.code(), &e.to_string())),
    }
}
