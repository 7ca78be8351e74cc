//! lichess's Bot API over qiju (issue 32): `/api/bot/*`, `/api/challenge/*`,
//! and lichess's form of `/api/account` and `/api/stream/event` for bot
//! accounts. Each handler parses, calls a room, and answers in lichess's
//! shapes ([`crate::lichess`]); docs/BOTS.md says what differs from lichess.

use crate::auth::{Auth, MaybeSession, SessionAuth};
use crate::error::ApiError;
use crate::lichess::{self, LiError};
use crate::sessions::either;
use crate::stream::ndjson_response;
use crate::AppState;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use common::Error;
use futures_util::stream::SelectAll;
use futures_util::StreamExt;
use game::Side;
use lobby::{ChallengeRequest, ColorChoice, Presence};
use play::live::{self, Action};
use play::protocol::{ChatRoom, GameView, ServerMsg};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use store::User;
use tokio::sync::broadcast::error::RecvError;
use utoipa::IntoParams;

/// How often a lichess stream sends an empty keep-alive line (lichess: 7 s).
pub const KEEP_ALIVE: Duration = Duration::from_secs(7);

/// The account: lichess's shape for a bot account, qiju's for the others
/// (so `title` is `BOT` exactly when the account was upgraded), with
/// lichess's `username` beside qiju's `name`.
#[utoipa::path(get, path = "/api/account", tag = "auth",
    responses((status = 200, description = "qiju's `UserView`; lichess's `UserExtended` (id, username, title `BOT`, createdAt …) for a bot account", body = accounts::UserView),
        (status = 401, body = common::ErrorBody)))]
pub async fn account(State(state): State<AppState>, Auth(user): Auth) -> Result<Response, ApiError> {
    if user.bot {
        return Ok(Json(user_extended(&state, &user, None).await?).into_response());
    }
    // With lichess's `username` too: lichess-bot reads it before it asks
    // for the upgrade.
    let mut view = serde_json::to_value(state.accounts().view(&user).await?)
        .map_err(|e| Error::Internal(format!("account view: {e}")))?;
    view["username"] = json!(user.name);
    Ok(Json(view).into_response())
}

/// Make this account a bot account, for good (lichess's upgrade).
#[utoipa::path(post, path = "/api/bot/account/upgrade", tag = "bot",
    responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`: a guest")))]
pub async fn upgrade(State(state): State<AppState>, Auth(user): Auth) -> Result<Json<Value>, LiError> {
    state.accounts().upgrade_to_bot(&user).await?;
    Ok(lichess::ok())
}

#[derive(Deserialize, IntoParams)]
pub struct OnlineQuery {
    /// How many bots at most (1–200; default 50).
    pub nb: Option<i64>,
}

/// lichess's `UserExtended` of an account: ratings, game counts (`me`:
/// the games against `viewer`).
async fn user_extended(state: &AppState, u: &User, viewer: Option<&User>) -> Result<Value, Error> {
    let perfs = state.accounts().perfs(u).await?;
    let record = state
        .accounts()
        .record(&u.name, viewer.map(|v| v.name.as_str()))
        .await?;
    let playing = play::archive::playing(state.play(), u).await?.len();
    Ok(lichess::user_extended(u, &perfs, &record, playing))
}

/// The bot accounts online now (with an event stream or lobby socket
/// open), newest first, as NDJSON (lichess's `/api/bot/online`).
#[utoipa::path(get, path = "/api/bot/online", tag = "bot", params(OnlineQuery),
    responses((status = 200, description = "NDJSON, one lichess `User` a line", content_type = "application/x-ndjson")))]
pub async fn online(
    State(state): State<AppState>,
    Query(q): Query<OnlineQuery>,
) -> Result<Response, LiError> {
    let nb = q.nb.unwrap_or(50).clamp(1, accounts::BOTS_LISTED);
    let mut text = String::new();
    let online = state.accounts().bots(accounts::BOTS_LISTED).await?;
    for u in online
        .iter()
        .filter(|u| state.lobby().is_online(&u.id))
        .take(nb as usize)
    {
        let perfs = state.accounts().perfs(u).await?;
        text += &(lichess::account_json(u, &perfs).to_string() + "\n");
    }
    Ok(ndjson_response(Body::from(text)))
}

/// A player's public account (lichess's `GET /api/user/{username}`).
#[utoipa::path(get, path = "/api/user/{username}", tag = "bot", params(("username" = String, Path)),
    responses((status = 200, description = "lichess's `UserExtended`"), (status = 404, description = "`{\"error\"}`: no such player")))]
pub async fn user(
    State(state): State<AppState>,
    MaybeSession(viewer): MaybeSession,
    Path(name): Path<String>,
) -> Result<Json<Value>, LiError> {
    let u = state.accounts().named(&name).await?;
    if u.banned {
        return Err(LiError(Error::NotFound(format!("player {name}"))));
    }
    let viewer = viewer.map(|s| s.user).filter(|v| v.id != u.id);
    Ok(Json(user_extended(&state, &u, viewer.as_ref()).await?))
}

/// The most names one `GET /api/users/status` asks about (lichess: 100).
pub const STATUS_NAMES: usize = 100;

#[derive(Deserialize, IntoParams)]
pub struct StatusQuery {
    /// Names, comma-separated (at most 100).
    pub ids: String,
}

/// Whether players are online and playing (lichess's
/// `GET /api/users/status`); unknown names are left out, as lichess does.
#[utoipa::path(get, path = "/api/users/status", tag = "bot", params(StatusQuery),
    responses((status = 200, description = "`[{id, name, online, playing?, title?}]`"), (status = 400, description = "`{\"error\"}`: too many names")))]
pub async fn users_status(
    State(state): State<AppState>,
    Query(q): Query<StatusQuery>,
) -> Result<Json<Value>, LiError> {
    let names: Vec<&str> = q
        .ids
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if names.len() > STATUS_NAMES {
        return Err(LiError(Error::bad(
            "bad_request",
            format!("at most {STATUS_NAMES} names at once"),
        )));
    }
    let mut out = Vec::new();
    for name in names {
        let Ok(u) = state.accounts().named(name).await else {
            continue;
        };
        if u.banned {
            continue;
        }
        let playing = !play::archive::playing(state.play(), &u).await?.is_empty();
        out.push(lichess::user_status(&u, state.lobby().is_online(&u.id), playing));
    }
    Ok(Json(Value::Array(out)))
}

/// Which of lichess's two APIs a path belongs to. lichess keeps them
/// apart by account: the Bot API is for bot accounts, the Board API (people
/// playing through an app) for the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    Bot,
    Board,
}

impl Face {
    /// The account may use this API, else lichess's refusal (400).
    fn admits(self, user: &User) -> Result<(), LiError> {
        match (self, user.bot) {
            (Face::Bot, true) | (Face::Board, false) => Ok(()),
            (Face::Bot, false) => Err(LiError(Error::bad(
                "not_bot",
                "this endpoint is for bot accounts: upgrade with POST /api/bot/account/upgrade, or play through /api/board/",
            ))),
            (Face::Board, true) => Err(LiError(Error::bad(
                "bot_account",
                "the Board API is not for bot accounts: use /api/bot/",
            ))),
        }
    }
}

/// The side `user` plays in `view`, or "not found" (lichess answers 404 for
/// a game that is not yours).
fn seat(view: &GameView, user: &User) -> Result<Side, LiError> {
    if view.first.id.as_deref() == Some(user.id.as_str()) {
        Ok(Side::First)
    } else if view.second.id.as_deref() == Some(user.id.as_str()) {
        Ok(Side::Second)
    } else {
        Err(LiError(Error::NotFound(format!("game {} of yours", view.id))))
    }
}

/// Whether each player of a game is a bot account.
async fn bots_of(state: &AppState, view: &GameView) -> [bool; 2] {
    let mut out = [false, false];
    for (i, p) in [&view.first, &view.second].into_iter().enumerate() {
        if p.computer.is_none() {
            out[i] = state.accounts().named(&p.name).await.is_ok_and(|u| u.bot);
        }
    }
    out
}

/// Stream one of your games: `gameFull`, then a `gameState` after every
/// move or change, `chatLine`, `opponentGone`; ends with the game.
#[utoipa::path(get, path = "/api/bot/game/stream/{gameId}", tag = "bot", params(("gameId" = String, Path)),
    responses((status = 200, description = "NDJSON: gameFull, gameState, chatLine, opponentGone", content_type = "application/x-ndjson"),
        (status = 404, description = "`{\"error\"}`: no such game of yours")))]
pub async fn game_stream(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<Response, LiError> {
    stream_game(Face::Bot, state, user, id).await
}

/// The Board API's game stream: the same lines as the Bot API's.
#[utoipa::path(get, path = "/api/board/game/stream/{gameId}", tag = "bot", params(("gameId" = String, Path)),
    responses((status = 200, description = "NDJSON: gameFull, gameState, chatLine, opponentGone", content_type = "application/x-ndjson"),
        (status = 404, description = "`{\"error\"}`: no such game of yours")))]
pub async fn board_game_stream(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<Response, LiError> {
    stream_game(Face::Board, state, user, id).await
}

async fn stream_game(face: Face, state: AppState, user: User, id: String) -> Result<Response, LiError> {
    face.admits(&user)?;
    let Some((view, rx)) = live::join(state.play(), &id).await else {
        let view = live::stored_view(state.play(), &id)
            .await?
            .ok_or_else(|| Error::NotFound(format!("game {id}")))?;
        seat(&view, &user)?;
        let full = lichess::game_full(&view, bots_of(&state, &view).await);
        return Ok(ndjson_response(Body::from(full.to_string() + "\n")));
    };
    let me = seat(&view, &user)?;
    let full = lichess::game_full(&view, bots_of(&state, &view).await);
    if view.state != "live" {
        return Ok(ndjson_response(Body::from(full.to_string() + "\n")));
    }
    let moves: Vec<String> = view.moves.iter().map(|m| m.coord.clone()).collect();
    let track = Track {
        _present: live::Present::new(state.play(), &view.id, me),
        first: Some(full.to_string()),
        rx,
        shutdown: state.shutdown_signal(),
        done: false,
        state,
        me,
        view,
        moves,
    };
    let stream = futures_util::stream::unfold(track, |mut t| async move {
        if let Some(f) = t.first.take() {
            return Some((Ok::<_, std::io::Error>(f + "\n"), t));
        }
        loop {
            if t.done || *t.shutdown.borrow() {
                return None;
            }
            let got = tokio::select! {
                r = tokio::time::timeout(KEEP_ALIVE, t.rx.recv()) => r,
                _ = t.shutdown.changed() => return None,
            };
            let ev = match got {
                Err(_) => return Some((Ok("\n".into()), t)),
                // Behind, or the game's task ended: the stream ends, and a
                // client reconnects for the whole state.
                Ok(Err(RecvError::Lagged(_) | RecvError::Closed)) => return None,
                Ok(Ok(ev)) => ev,
            };
            t.done = ev.kind == "end";
            if let Some(line) = t.line(&ev).await {
                return Some((Ok(line.to_string() + "\n"), t));
            }
        }
    });
    Ok(ndjson_response(Body::from_stream(stream)))
}

/// A bot's game stream as it goes: the game as its events have changed it
/// (each `gameState` is the state right after its event, not a later one).
struct Track {
    /// The player is there while their stream is open (lichess's
    /// `opponentGone` is this for the other side).
    _present: live::Present,
    first: Option<String>,
    rx: tokio::sync::broadcast::Receiver<Arc<live::Event>>,
    shutdown: tokio::sync::watch::Receiver<bool>,
    done: bool,
    state: AppState,
    me: Side,
    view: GameView,
    moves: Vec<String>,
}

impl Track {
    /// The lichess line for one event of the game, if it has one.
    async fn line(&mut self, ev: &live::Event) -> Option<Value> {
        let msg: ServerMsg = serde_json::from_str(&ev.json).ok()?;
        let v = &mut self.view;
        match msg {
            ServerMsg::Chat { room, from, text } => {
                return Some(json!({
                    "type": "chatLine",
                    "room": if room == ChatRoom::Players { "player" } else { "spectator" },
                    "username": from,
                    "text": text,
                }))
            }
            ServerMsg::PlayerGone {
                side, claim_in_ms, ..
            } if side != self.me => {
                return Some(json!({
                    "type": "opponentGone",
                    "gone": true,
                    "claimWinInSeconds": claim_in_ms.max(0) / 1000,
                }))
            }
            ServerMsg::PlayerBack { side, .. } if side != self.me => {
                return Some(json!({ "type": "opponentGone", "gone": false }))
            }
            ServerMsg::Move {
                coord, clocks, ply, ..
            } => {
                self.moves.push(coord);
                v.clocks = clocks;
                // The second side's first-move window opens with the first
                // move; both moved, none is open.
                v.first_move = match (ply, v.first_move) {
                    (1, Some(f)) => Some(play::protocol::FirstMove {
                        since_ms: common::now_ms(),
                        ..f
                    }),
                    _ => None,
                };
                // A move declines the offers standing (CXA 23.1).
                v.draw_offer = None;
                v.takeback_offer = None;
            }
            ServerMsg::DrawOffer { by, .. } => v.draw_offer = Some(by),
            ServerMsg::DrawDeclined { .. } => v.draw_offer = None,
            ServerMsg::TakebackOffer { by, .. } => v.takeback_offer = Some(by),
            ServerMsg::TakebackDeclined { .. } => v.takeback_offer = None,
            ServerMsg::TakenBack { .. } => {
                *v = live::view(self.state.play(), &v.id).await.ok()??;
                self.moves = v.moves.iter().map(|m| m.coord.clone()).collect();
            }
            ServerMsg::TimePenalty { clocks, .. }
            | ServerMsg::TimeGiven { clocks, .. }
            | ServerMsg::Clock { clocks, .. } => v.clocks = clocks,
            ServerMsg::End {
                state,
                winner,
                reason,
                clocks,
                ..
            } => {
                v.state = state;
                v.winner = winner;
                v.reason = Some(reason);
                v.clocks = clocks;
                v.first_move = None;
                v.draw_offer = None;
                v.takeback_offer = None;
            }
            _ => return None,
        }
        Some(lichess::game_state_with(v, &self.moves.join(" ")))
    }
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct BotMoveQuery {
    /// Offer (or accept) a draw with the move.
    pub offering_draw: Option<bool>,
}

/// Play a move in the game's coordinate notation (ICCS for Xiangqi, UCI
/// for chess, USI for shogi).
#[utoipa::path(post, path = "/api/bot/game/{gameId}/move/{move}", tag = "bot",
    params(("gameId" = String, Path), ("move" = String, Path), BotMoveQuery),
    responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`: illegal move, not your turn"),
        (status = 404, description = "`{\"error\"}`: no such game of yours")))]
pub async fn make_move(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path((id, mv)): Path<(String, String)>,
    Query(q): Query<BotMoveQuery>,
) -> Result<Json<Value>, LiError> {
    play_move(Face::Bot, &state, &user, &id, mv, q).await
}

/// The Board API's move: as the Bot API's, for an account that is not a bot.
#[utoipa::path(post, path = "/api/board/game/{gameId}/move/{move}", tag = "bot",
    params(("gameId" = String, Path), ("move" = String, Path), BotMoveQuery),
    responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`: illegal move, not your turn"),
        (status = 404, description = "`{\"error\"}`: no such game of yours")))]
pub async fn board_move(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path((id, mv)): Path<(String, String)>,
    Query(q): Query<BotMoveQuery>,
) -> Result<Json<Value>, LiError> {
    play_move(Face::Board, &state, &user, &id, mv, q).await
}

async fn play_move(
    face: Face,
    state: &AppState,
    user: &User,
    id: &str,
    mv: String,
    q: BotMoveQuery,
) -> Result<Json<Value>, LiError> {
    face.admits(user)?;
    live::act_on(state.play(), id, &user.id, Action::Move { coord: mv, ply: None })
        .await
        .map_err(lichess_act)?;
    if q.offering_draw == Some(true) {
        // An offer standing from the opponent is accepted instead (the
        // table's own rule for `OfferDraw`); else one is made.
        let _ = live::act_on(state.play(), id, &user.id, Action::OfferDraw).await;
    }
    Ok(lichess::ok())
}

/// lichess answers a refused move or action with 400 (404 for a game that
/// is not there).
fn lichess_act(e: live::ActError) -> LiError {
    match Error::from(e) {
        e @ Error::NotFound(_) => LiError(e),
        Error::Conflict { code, message } => LiError(Error::bad(code, message)),
        e => LiError(e),
    }
}

/// One action on a game, served under both APIs: `$bot` at
/// `/api/bot/game/{gameId}/…` and `$board` at `/api/board/game/{gameId}/…`.
macro_rules! game_action {
    ($bot:ident, $board:ident, $tail:literal, $action:expr, $doc:literal) => {
        #[doc = $doc]
        #[utoipa::path(post, path = concat!("/api/bot/game/{gameId}/", $tail), tag = "bot", params(("gameId" = String, Path)),
            responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`")))]
        pub async fn $bot(
            State(state): State<AppState>,
            Auth(user): Auth,
            Path(id): Path<String>,
        ) -> Result<Json<Value>, LiError> {
            act(Face::Bot, &state, &user, &id, $action).await
        }

        #[doc = $doc]
        #[utoipa::path(post, path = concat!("/api/board/game/{gameId}/", $tail), tag = "bot", params(("gameId" = String, Path)),
            responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`")))]
        pub async fn $board(
            State(state): State<AppState>,
            Auth(user): Auth,
            Path(id): Path<String>,
        ) -> Result<Json<Value>, LiError> {
            act(Face::Board, &state, &user, &id, $action).await
        }
    };
}

async fn act(
    face: Face,
    state: &AppState,
    user: &User,
    id: &str,
    action: Action,
) -> Result<Json<Value>, LiError> {
    face.admits(user)?;
    live::act_on(state.play(), id, &user.id, action)
        .await
        .map_err(lichess_act)?;
    Ok(lichess::ok())
}

game_action!(resign, board_resign, "resign", Action::Resign, "Resign a game.");
game_action!(
    abort,
    board_abort,
    "abort",
    Action::Abort,
    "Abort a game before both sides have moved."
);
game_action!(
    claim_victory,
    board_claim_victory,
    "claim-victory",
    Action::ClaimVictory,
    "Claim the win over an opponent who left and did not come back in time (`opponentGone`'s `claimWinInSeconds` reached 0)."
);
game_action!(
    claim_draw,
    board_claim_draw,
    "claim-draw",
    Action::ClaimDraw,
    "Claim a draw the rules give (a threefold repetition in chess, a repetition Xiangqi's rules call a draw); qiju has no draw for a gone opponent."
);

/// `yes`/`true` or `no`/`false`, as lichess's `{accept}` path segment.
fn yes_no(word: &str) -> Result<bool, LiError> {
    match word {
        "yes" | "true" => Ok(true),
        "no" | "false" => Ok(false),
        other => Err(LiError(Error::bad(
            "bad_request",
            format!("the answer is yes or no, not {other:?}"),
        ))),
    }
}

/// One answer to an offer, served under both APIs: `yes` makes (or
/// accepts) the offer, `no` declines the opponent's.
macro_rules! answer {
    ($bot:ident, $board:ident, $what:literal, $offer:expr, $decline:expr, $doc:literal) => {
        #[doc = $doc]
        #[utoipa::path(post, path = concat!("/api/bot/game/{gameId}/", $what, "/{accept}"), tag = "bot",
            params(("gameId" = String, Path), ("accept" = String, Path, description = "yes or no")),
            responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`")))]
        pub async fn $bot(
            State(state): State<AppState>,
            Auth(user): Auth,
            Path((id, accept)): Path<(String, String)>,
        ) -> Result<Json<Value>, LiError> {
            let action = if yes_no(&accept)? { $offer } else { $decline };
            act(Face::Bot, &state, &user, &id, action).await
        }

        #[doc = $doc]
        #[utoipa::path(post, path = concat!("/api/board/game/{gameId}/", $what, "/{accept}"), tag = "bot",
            params(("gameId" = String, Path), ("accept" = String, Path, description = "yes or no")),
            responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`")))]
        pub async fn $board(
            State(state): State<AppState>,
            Auth(user): Auth,
            Path((id, accept)): Path<(String, String)>,
        ) -> Result<Json<Value>, LiError> {
            let action = if yes_no(&accept)? { $offer } else { $decline };
            act(Face::Board, &state, &user, &id, action).await
        }
    };
}

answer!(
    draw,
    board_draw,
    "draw",
    Action::OfferDraw,
    Action::DeclineDraw,
    "Offer a draw, or accept the opponent's (`yes`); decline it (`no`). Xiangqi's rule holds: an offer is made right after one's own move (CXA 23.1)."
);
answer!(
    takeback,
    board_takeback,
    "takeback",
    Action::OfferTakeback,
    Action::DeclineTakeback,
    "Ask to take back your last move, or grant the opponent's request (`yes`); refuse it (`no`). Casual games only."
);

/// A request body as lichess takes it: a form (`application/x-www-form-
/// urlencoded`) or JSON, read as flat `key → text` (JSON's nested objects
/// as dotted keys: `{"clock": {"limit": 60}}` is `clock.limit`).
fn fields(headers: &HeaderMap, body: &Bytes) -> Result<HashMap<String, String>, LiError> {
    let json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let mut out = HashMap::new();
    if json {
        let v: Value = serde_json::from_slice(body)
            .map_err(|e| Error::bad("bad_request", format!("the JSON body cannot be read: {e}")))?;
        flatten("", &v, &mut out);
    } else {
        let text =
            std::str::from_utf8(body).map_err(|_| Error::bad("bad_request", "the form is not UTF-8"))?;
        for pair in text.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            out.insert(form_decode(k)?, form_decode(v)?);
        }
    }
    Ok(out)
}

fn flatten(prefix: &str, v: &Value, out: &mut HashMap<String, String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        Value::String(s) => {
            out.insert(prefix.to_string(), s.clone());
        }
        Value::Null => {}
        other => {
            out.insert(prefix.to_string(), other.to_string());
        }
    }
}

/// `application/x-www-form-urlencoded` decoding: `+` is a space, `%XX` a byte.
fn form_decode(s: &str) -> Result<String, LiError> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s
                    .get(i + 1..i + 3)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| Error::bad("bad_request", "the form has a bad %-escape"))?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| LiError(Error::bad("bad_request", "the form is not UTF-8")))
}

fn number(f: &HashMap<String, String>, key: &str) -> Result<Option<i64>, LiError> {
    f.get(key)
        .map(|v| {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite() && n.fract() == 0.0 && n.abs() < 1e9)
                .map(|n| n as i64)
                .ok_or_else(|| {
                    LiError(Error::bad(
                        "bad_request",
                        format!("{key} is a whole number, not {v:?}"),
                    ))
                })
        })
        .transpose()
}

/// Challenge a player (lichess's `POST /api/challenge/{username}`): `rated`,
/// `clock.limit` and `clock.increment` (seconds) or `days`, `color`
/// (`white` = the first side, `black`, `random`), `variant` (`xiangqi`,
/// `chess`, `chess960`, `shogi` …; default `xiangqi`), `fen`.
#[utoipa::path(post, path = "/api/challenge/{username}", tag = "bot", params(("username" = String, Path)),
    request_body(content = String, description = "form or JSON: rated, clock.limit, clock.increment, days, color, variant, fen", content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "lichess's `ChallengeJson`"), (status = 400, description = "`{\"error\"}`"), (status = 404, description = "`{\"error\"}`: no such player")))]
pub async fn challenge(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(username): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, LiError> {
    let f = fields(&headers, &body)?;
    let rated = match f.get("rated").map(String::as_str) {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            return Err(LiError(Error::bad(
                "bad_request",
                format!("rated is true or false, not {other:?}"),
            )))
        }
    };
    let time = lichess::time_of(
        number(&f, "clock.limit")?,
        number(&f, "clock.increment")?,
        number(&f, "days")?,
    )?;
    let color = match f.get("color").map(String::as_str) {
        None => ColorChoice::Random,
        Some(word) => match lichess::side_of(word) {
            Some(Some(Side::First)) => ColorChoice::First,
            Some(Some(Side::Second)) => ColorChoice::Second,
            Some(None) => ColorChoice::Random,
            None => {
                return Err(LiError(Error::bad(
                    "bad_request",
                    format!("color is white, black or random, not {word:?}"),
                )))
            }
        },
    };
    let variant = f.get("variant").cloned();
    if let Some(v) = &variant {
        registry::get(Some(v)).map_err(|e| Error::bad("bad_variant", e.to_string()))?;
    }
    let to = state.accounts().named(&username).await?;
    let req = ChallengeRequest {
        to: to.name.clone(),
        variant,
        time,
        rated,
        color,
        fen: f.get("fen").cloned(),
        rules: registry::Profile::default(),
        rematch_of: None,
    };
    let view = state.lobby().challenge(user.clone(), req).await?;
    let (from_standing, to_standing) = (
        standing(&state, &user, &view.variant).await,
        standing(&state, &to, &view.variant).await,
    );
    Ok(Json(lichess::challenge_json(
        &view,
        (&user, from_standing),
        (&to, to_standing),
        "created",
        "out",
    )))
}

/// A player's rating in the pool of `variant` (a new player's, provisional,
/// where they have played no rated game there yet).
async fn standing(state: &AppState, u: &User, variant: &str) -> lichess::PoolStanding {
    let pool = registry::get(Some(variant)).ok()?.rating_pool;
    state.accounts().pool_standing(u, pool).await.ok()
}

/// Accept a challenge addressed to you.
#[utoipa::path(post, path = "/api/challenge/{challengeId}/accept", tag = "bot", params(("challengeId" = String, Path)),
    responses((status = 200, description = "`{\"ok\": true}`"), (status = 404, description = "`{\"error\"}`")))]
pub async fn accept(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<Json<Value>, LiError> {
    state.lobby().accept(user, &id).await?;
    Ok(lichess::ok())
}

/// Decline a challenge addressed to you, with lichess's `reason` (`generic`,
/// `later`, `tooFast`, `tooSlow`, `timeControl`, `rated`, `casual`,
/// `standard`, `variant`, `noBot`, `onlyBot`) as a form or JSON; or cancel
/// your own.
#[utoipa::path(post, path = "/api/challenge/{challengeId}/decline", tag = "bot", params(("challengeId" = String, Path)),
    request_body(content = String, description = "form or JSON: reason", content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`: an unknown reason"), (status = 404, description = "`{\"error\"}`")))]
pub async fn decline(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, LiError> {
    let f = fields(&headers, &body)?;
    let reason = match f.get("reason") {
        None => None,
        Some(r) => Some(
            serde_json::from_value::<lobby::DeclineReason>(json!(r)).map_err(|_| {
                Error::bad(
                    "bad_request",
                    format!("reason is one of generic, later, tooFast, tooSlow, timeControl, rated, casual, standard, variant, noBot, onlyBot, not {r:?}"),
                )
            })?,
        ),
    };
    state.lobby().decline(&user, id, reason).await?;
    Ok(lichess::ok())
}

/// Cancel a challenge you made.
#[utoipa::path(post, path = "/api/challenge/{challengeId}/cancel", tag = "bot", params(("challengeId" = String, Path)),
    responses((status = 200, description = "`{\"ok\": true}`"), (status = 404, description = "`{\"error\"}`")))]
pub async fn cancel(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<Json<Value>, LiError> {
    state.lobby().decline(&user, id, None).await?;
    Ok(lichess::ok())
}

/// Say something in a game's chat: `room` (`player` or `spectator`) and
/// `text`, as a form or JSON.
#[utoipa::path(post, path = "/api/bot/game/{gameId}/chat", tag = "bot", params(("gameId" = String, Path)),
    request_body(content = String, description = "form or JSON: room, text", content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`")))]
pub async fn chat(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, LiError> {
    let f = fields(&headers, &body)?;
    let room = match f.get("room").map(String::as_str) {
        Some("player") => ChatRoom::Players,
        Some("spectator") => ChatRoom::Spectators,
        other => {
            return Err(LiError(Error::bad(
                "bad_request",
                format!("room is player or spectator, not {other:?}"),
            )))
        }
    };
    let text = f.get("text").map_or("", String::as_str);
    let view = live::view(state.play(), &id)
        .await?
        .ok_or_else(|| Error::NotFound(format!("game {id}")))?;
    seat(&view, &user)?;
    let (user, text) = state
        .lobby()
        .check_line(Some(&user), text)
        .await
        .map_err(|r| match r {
            lobby::chat::ChatRefusal::TooFast { wait_s } => Error::TooManyRequests {
                retry_after_s: wait_s,
            },
            lobby::chat::ChatRefusal::Barred => Error::Forbidden(r.to_string()),
            r => Error::bad(r.code(), r.to_string()),
        })?;
    let line = ServerMsg::Chat {
        room,
        from: user.name.clone(),
        text: text.to_string(),
    };
    // A muted player's line reaches nobody; they are not told.
    if !user.muted {
        live::chat(state.play(), &id, line).await.map_err(lichess_act)?;
    }
    Ok(lichess::ok())
}

/// The Board API's chat: as the Bot API's.
#[utoipa::path(post, path = "/api/board/game/{gameId}/chat", tag = "bot", params(("gameId" = String, Path)),
    request_body(content = String, description = "form or JSON: room, text", content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`")))]
pub async fn board_chat(
    state: State<AppState>,
    auth: Auth,
    id: Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, LiError> {
    chat(state, auth, id, headers, body).await
}

/// A bot's event stream as it goes: its personal events, and the games it
/// was told of, each watched for its end (lichess's `gameFinish`).
struct Events<G> {
    rx: tokio::sync::broadcast::Receiver<Arc<str>>,
    stop: tokio::sync::watch::Receiver<bool>,
    state: AppState,
    user: User,
    /// The games announced with `gameStart` (each once).
    started: HashSet<String>,
    /// What this stream says first, as qiju's messages: the challenges
    /// waiting for the account and its games in progress (as lichess does
    /// on connecting).
    pending: std::collections::VecDeque<String>,
    /// One stream per game started, yielding its id once it ends.
    ends: SelectAll<Ends>,
    _guard: G,
}

/// The id of a game once its `end` event (or the end of its task) comes.
fn end_of(id: String, rx: tokio::sync::broadcast::Receiver<Arc<live::Event>>) -> Ends {
    Box::pin(futures_util::stream::unfold(Some((id, rx)), |st| async move {
        let (id, mut rx) = st?;
        loop {
            match rx.recv().await {
                Ok(ev) if ev.kind == "end" => return Some((id, None)),
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return Some((id, None)),
            }
        }
    }))
}

/// A game's end, as a stream of its id (`Sync`, as a response body is).
type Ends = Pin<Box<dyn futures_util::Stream<Item = String> + Send + Sync>>;

/// `/api/stream/event`: lichess's events for a bot account, qiju's
/// messages for the others (see docs/BOTS.md).
pub async fn events(state: AppState, session: crate::auth::Session) -> Response {
    let user = session.user.clone();
    let rx = state.lobby().subscribe(&user.id);
    let held = state.sessions().hold(&session.token_hash);
    let stop = either(state.shutdown_signal(), held.ended.clone());
    let guard = (Presence::new(state.lobby(), &user), held);
    // After subscribing, so that nothing falls between; a game in both is
    // announced once.
    let mut pending: std::collections::VecDeque<String> = state
        .lobby()
        .challenges_of(&user)
        .into_iter()
        .filter(|c| c.to == user.name)
        .map(|c| json!({ "t": "challenge", "challenge": c }).to_string())
        .collect();
    if let Ok(games) = play::archive::playing(state.play(), &user).await {
        pending.extend(
            games
                .iter()
                .map(|g| json!({ "t": "game_start", "game": g.id }).to_string()),
        );
    }
    let start = Events {
        rx,
        stop,
        state,
        user,
        started: HashSet::new(),
        pending,
        ends: SelectAll::new(),
        _guard: guard,
    };
    let stream = futures_util::stream::unfold(start, |mut ev| async move {
        loop {
            if *ev.stop.borrow() {
                return None;
            }
            if let Some(text) = ev.pending.pop_front() {
                if let Some(v) = event_line(&mut ev, &text).await {
                    return Some((Ok(v.to_string() + "\n"), ev));
                }
                continue;
            }
            let watching = !ev.ends.is_empty();
            let line = tokio::select! {
                r = tokio::time::timeout(KEEP_ALIVE, ev.rx.recv()) => match r {
                    Err(_) => Some(Value::Null),
                    Ok(Err(RecvError::Lagged(_) | RecvError::Closed)) => return None,
                    Ok(Ok(text)) => event_line(&mut ev, &text).await,
                },
                Some(id) = ev.ends.next(), if watching => finish_line(&ev, &id).await,
                _ = ev.stop.changed() => return None,
            };
            match line {
                Some(Value::Null) => return Some((Ok::<_, std::io::Error>("\n".to_string()), ev)),
                Some(v) => return Some((Ok(v.to_string() + "\n"), ev)),
                None => {}
            }
        }
    });
    ndjson_response(Body::from_stream(stream))
}

/// The `gameFinish` of a game that ended.
async fn finish_line<G>(ev: &Events<G>, id: &str) -> Option<Value> {
    let view = live::view(ev.state.play(), id).await.ok()??;
    if view.state == "live" {
        return None;
    }
    let me = seat(&view, &ev.user).ok()?;
    Some(lichess::game_event("gameFinish", &view, me))
}

/// The lichess event for one of qiju's personal events, if it has one.
async fn event_line<G>(ev: &mut Events<G>, text: &str) -> Option<Value> {
    let msg: Value = serde_json::from_str(text).ok()?;
    match msg["t"].as_str()? {
        "game_start" => {
            let id = msg["game"].as_str()?;
            if !ev.started.insert(id.to_string()) {
                return None;
            }
            let (view, rx) = live::join(ev.state.play(), id).await?;
            let me = seat(&view, &ev.user).ok()?;
            ev.ends.push(end_of(id.to_string(), rx));
            Some(lichess::game_event("gameStart", &view, me))
        }
        "challenge" => {
            let c: lobby::ChallengeView = serde_json::from_value(msg["challenge"].clone()).ok()?;
            let from = ev.state.accounts().named(&c.from).await.ok()?;
            let json = lichess::challenge_json(
                &c,
                (&from, standing(&ev.state, &from, &c.variant).await),
                (&ev.user, standing(&ev.state, &ev.user, &c.variant).await),
                "created",
                "in",
            );
            Some(json!({ "type": "challenge", "challenge": json }))
        }
        "challenge_declined" => {
            let c: lobby::ChallengeView = serde_json::from_value(msg["challenge"].clone()).ok()?;
            let reason: Option<lobby::DeclineReason> = serde_json::from_value(msg["reason"].clone()).ok()?;
            let by_challenger = msg["by"].as_str() == Some(c.from.as_str());
            let from = ev.state.accounts().named(&c.from).await.ok()?;
            let to = ev.state.accounts().named(&c.to).await.ok()?;
            let direction = if from.id == ev.user.id { "out" } else { "in" };
            // Withdrawn by the challenger: the recipient hears it canceled;
            // declined by the recipient: the challenger hears why.
            let (kind, status) = match (by_challenger, direction) {
                (true, "in") => ("challengeCanceled", "canceled"),
                (false, "out") => ("challengeDeclined", "declined"),
                _ => return None,
            };
            let mut challenge = lichess::challenge_json(
                &c,
                (&from, standing(&ev.state, &from, &c.variant).await),
                (&to, standing(&ev.state, &to, &c.variant).await),
                status,
                direction,
            );
            if kind == "challengeDeclined" {
                let reason = reason.unwrap_or(lobby::DeclineReason::Generic);
                challenge["declineReason"] = json!(reason.words());
                challenge["declineReasonKey"] = json!(reason.key());
            }
            Some(json!({ "type": kind, "challenge": challenge }))
        }
        _ => None,
    }
}

/// The event stream, in the form the client reads: lichess's for a bot
/// account, and for any account whose client asks for
/// `Accept: application/x-ndjson` (berserk and the lichess clients of the
/// Board API do; qiju's browser and qiju's own bots do not); qiju's
/// otherwise (see docs/BOTS.md).
pub async fn stream_events(
    State(state): State<AppState>,
    headers: HeaderMap,
    SessionAuth(session): SessionAuth,
) -> Response {
    let ndjson = headers
        .get(axum::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|m| m.trim().starts_with("application/x-ndjson")));
    if session.user.bot || ndjson {
        return events(state, session).await;
    }
    crate::api::lobby::stream_events(State(state), SessionAuth(session)).await
}

/// Your games in progress: lichess's `{"nowPlaying": [...]}` for a bot
/// account, qiju's list for the others.
#[utoipa::path(get, path = "/api/account/playing", tag = "games",
    responses((status = 200, description = "qiju's `[Playing]`; lichess's `{\"nowPlaying\": [...]}` for a bot account", body = [play::archive::Playing]),
        (status = 401, body = common::ErrorBody)))]
pub async fn playing(State(state): State<AppState>, Auth(user): Auth) -> Result<Response, ApiError> {
    let games = play::archive::playing(state.play(), &user).await?;
    if user.bot {
        let now: Vec<Value> = games.iter().map(lichess::now_playing).collect();
        return Ok(Json(json!({ "nowPlaying": now })).into_response());
    }
    Ok(Json(games).into_response())
}

/// The most tokens one `POST /api/token/test` asks about.
pub const TOKENS_TESTED: usize = 100;

/// Which of the tokens in the body (comma-separated, at most 100) are
/// live bearer tokens, and whose (lichess's token test, which lichess-bot
/// asks before it starts): `{token: {userId, scopes, expires} | null}`.
#[utoipa::path(post, path = "/api/token/test", tag = "bot",
    request_body(content = String, description = "tokens, comma-separated", content_type = "text/plain"),
    responses((status = 200, description = "`{token: {userId, scopes, expires} | null}`"), (status = 400, description = "`{\"error\"}`")))]
pub async fn token_test(State(state): State<AppState>, body: Bytes) -> Result<Json<Value>, LiError> {
    let text =
        std::str::from_utf8(&body).map_err(|_| Error::bad("bad_request", "the tokens are not UTF-8"))?;
    let tokens: Vec<&str> = text.split(',').map(str::trim).filter(|t| !t.is_empty()).collect();
    if tokens.len() > TOKENS_TESTED {
        return Err(LiError(Error::bad(
            "bad_request",
            format!("at most {TOKENS_TESTED} tokens at once"),
        )));
    }
    let mut out = serde_json::Map::new();
    for t in tokens {
        let user = state
            .accounts()
            .user_of_token(t, accounts::TokenKind::Bearer)
            .await?;
        let info = user.map_or(Value::Null, |u| {
            json!({
                "userId": common::names::key(&u.name),
                "scopes": "bot:play,challenge:read,challenge:write,board:play",
                "expires": null,
            })
        });
        out.insert(t.to_string(), info);
    }
    Ok(Json(Value::Object(out)))
}
