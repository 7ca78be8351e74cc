//! `/api/lobby/ws`: the seek list, the lobby chat and your own events.

use super::{error_msg, sized, text_msg, Beat, ClientMsg, Heartbeat};
use crate::auth::{same_origin, MaybeSession};
use crate::error::ApiError;
use crate::listen::ConnSlot;
use crate::sessions::Held;
use crate::AppState;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Extension;
use common::Error;
use lobby::protocol::{LobbyLine, LobbyMsg};
use lobby::Presence;
use play::protocol::ServerMsg;
use store::User;
use tokio::sync::broadcast::error::RecvError;

/// The lobby: seek list changes and your own events.
#[utoipa::path(get, path = "/api/lobby/ws", tag = "lobby",
    responses((status = 101, description = "WebSocket; see docs/websocket.md")))]
pub async fn lobby_socket(
    State(state): State<AppState>,
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
    Ok(sized(&state, ws).on_upgrade(move |socket| async move {
        // The connection counts under the caps while the socket lives.
        let _conn = conn;
        serve(state, user, held, socket).await;
    }))
}

/// Serves one lobby connection until either side closes or its session
/// ends (see `game::serve`).
async fn serve(state: AppState, user: Option<User>, held: Option<Held>, socket: WebSocket) {
    let lobby = state.lobby();
    // Declared before the receiver, so dropped after it.
    let _presence = user.as_ref().map(|u| Presence::new(lobby, u));
    let mut socket = socket;
    let mut public = lobby.public();
    // A spectator gets a personal channel that stays silent (its sender
    // lives as long as the connection).
    let (_silent, mut personal) = match &user {
        Some(u) => (None, lobby.subscribe(&u.id)),
        None => {
            let (t, r) = tokio::sync::broadcast::channel(1);
            (Some(t), r)
        }
    };
    let hello = LobbyMsg::Seeks { seeks: lobby.seeks() }.to_json();
    if socket.send(text_msg(hello)).await.is_err() {
        return;
    }
    let history = LobbyMsg::ChatHistory {
        lines: lobby.chat_history(),
    }
    .to_json();
    if socket.send(text_msg(history)).await.is_err() {
        return;
    }
    let mut shutdown = state.shutdown_signal();
    let mut ended = held.as_ref().map(|h| h.ended.clone());
    // Made once, as game.rs's: not a waiter list's lock at each message.
    let shutting_down = shutdown.changed();
    let session_ended = super::session_end(&mut ended);
    tokio::pin!(shutting_down, session_ended);
    let mut hb = Heartbeat::new(&state);
    loop {
        let out = tokio::select! {
            () = &mut session_ended => {
                let _ = socket.send(text_msg(super::session_ended())).await;
                break;
            }
            _ = hb.tick.tick() => match hb.beat() {
                Beat::Alive => continue,
                Beat::Ping(ping) => if socket.send(ping).await.is_err() { break } else { continue },
                Beat::Dead => break,
            },
            msg = socket.recv() => {
                hb.heard(&msg);
                match msg {
                    Some(Ok(Message::Text(t))) => match serde_json::from_str::<ClientMsg>(&t) {
                        Ok(ClientMsg::Ping {}) => ServerMsg::Pong.to_json(),
                        Ok(ClientMsg::Chat { text }) => match lobby.check_line(user.as_ref(), &text).await {
                            // A muted player's line goes back to them alone.
                            Ok((u, text)) if u.muted => LobbyMsg::Chat(LobbyLine::now(&u.name, text)).to_json(),
                            Ok((u, text)) => {
                                lobby.say(&u.name, text);
                                continue;
                            }
                            Err(refusal) => error_msg(refusal.code(), &refusal.to_string()),
                        },
                        _ => error_msg("bad_message", "the lobby socket answers ping and chat; use the HTTP API to seek or challenge"),
                    },
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                }
            },
            ev = public.recv() => match ev {
                Ok(s) => s.to_string(),
                Err(RecvError::Lagged(_)) => LobbyMsg::Seeks { seeks: lobby.seeks() }.to_json(),
                Err(RecvError::Closed) => break,
            },
            ev = personal.recv() => match ev {
                Ok(s) => s.to_string(),
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => break,
            },
            _ = &mut shutting_down => break,
        };
        if socket.send(text_msg(out)).await.is_err() {
            break;
        }
    }
}
