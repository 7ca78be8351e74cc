//! lichess's Bot API over qiju (issue 32): `/api/bot/*`, `/api/challenge/*`,
//! and lichess's form of `/api/account` and `/api/stream/event` for bot
//! accounts. Each handler parses, calls a room, and answers in lichess's
//! shapes ([`crate::lichess`]); docs/BOTS.md says what differs from lichess.

use crate::auth::{Auth, SessionAuth};
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
        return Ok(Json(lichess::account_json(&user)).into_response());
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

/// The bot accounts, newest first, as NDJSON (lichess's `/api/bot/online`;
/// qiju lists every bot account, online or not).
#[utoipa::path(get, path = "/api/bot/online", tag = "bot", params(OnlineQuery),
    responses((status = 200, description = "NDJSON, one `{id, username, title}` a line", content_type = "application/x-ndjson")))]
pub async fn online(
    State(state): State<AppState>,
    Query(q): Query<OnlineQuery>,
) -> Result<Response, LiError> {
    let bots = state.accounts().bots(q.nb.unwrap_or(50)).await?;
    let text: String = bots
        .iter()
        .map(|u| lichess::account_json(u).to_string() + "\n")
        .collect();
    Ok(ndjson_response(Body::from(text)))
}

/// A bot account, else lichess's refusal.
fn must_be_bot(user: &User) -> Result<(), LiError> {
    if user.bot {
        Ok(())
    } else {
        Err(LiError(Error::bad(
            "not_bot",
            "this endpoint is for bot accounts: upgrade with POST /api/bot/account/upgrade",
        )))
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
            ServerMsg::Move { coord, clocks, .. } => {
                self.moves.push(coord);
                v.clocks = clocks;
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
    must_be_bot(&user)?;
    live::act_on(state.play(), &id, &user.id, Action::Move { coord: mv, ply: None })
        .await
        .map_err(lichess_act)?;
    if q.offering_draw == Some(true) {
        // An offer standing from the opponent is accepted instead (the
        // table's own rule for `OfferDraw`); else one is made.
        let _ = live::act_on(state.play(), &id, &user.id, Action::OfferDraw).await;
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

macro_rules! bot_action {
    ($name:ident, $path:literal, $action:expr, $doc:literal) => {
        #[doc = $doc]
        #[utoipa::path(post, path = $path, tag = "bot", params(("gameId" = String, Path)),
            responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, description = "`{\"error\"}`")))]
        pub async fn $name(
            State(state): State<AppState>,
            Auth(user): Auth,
            Path(id): Path<String>,
        ) -> Result<Json<Value>, LiError> {
            must_be_bot(&user)?;
            live::act_on(state.play(), &id, &user.id, $action)
                .await
                .map_err(lichess_act)?;
            Ok(lichess::ok())
        }
    };
}

bot_action!(
    resign,
    "/api/bot/game/{gameId}/resign",
    Action::Resign,
    "Resign a game."
);
bot_action!(
    abort,
    "/api/bot/game/{gameId}/abort",
    Action::Abort,
    "Abort a game before both sides have moved."
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
    Ok(Json(lichess::challenge_json(&view, &user, &to, "created", "out")))
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

/// Decline a challenge addressed to you (a `reason` is read and not kept),
/// or cancel your own.
#[utoipa::path(post, path = "/api/challenge/{challengeId}/decline", tag = "bot", params(("challengeId" = String, Path)),
    responses((status = 200, description = "`{\"ok\": true}`"), (status = 404, description = "`{\"error\"}`")))]
pub async fn decline(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<Json<Value>, LiError> {
    state.lobby().decline(&user, id)?;
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
    state.lobby().decline(&user, id)?;
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

/// A bot's event stream as it goes: its personal events, and the games it
/// was told of, each watched for its end (lichess's `gameFinish`).
struct Events<G> {
    rx: tokio::sync::broadcast::Receiver<Arc<str>>,
    stop: tokio::sync::watch::Receiver<bool>,
    state: AppState,
    user: User,
    /// The challenges this stream was told of (for which a withdrawal is
    /// lichess's `challengeCanceled`).
    incoming: HashMap<String, Value>,
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
        incoming: HashMap::new(),
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
            let json = lichess::challenge_json(&c, &from, &ev.user, "created", "in");
            ev.incoming.insert(c.id.clone(), json.clone());
            Some(json!({ "type": "challenge", "challenge": json }))
        }
        "challenge_declined" => {
            let id = msg["id"].as_str()?.to_string();
            let by_me = msg["by"].as_str() == Some(ev.user.name.as_str());
            // The whole challenge when this stream announced it.
            let known = ev.incoming.remove(&id);
            let (kind, status) = if known.is_some() == by_me {
                ("challengeDeclined", "declined")
            } else {
                ("challengeCanceled", "canceled")
            };
            let mut challenge = known.unwrap_or_else(|| json!({ "id": id }));
            challenge["status"] = json!(status);
            Some(json!({ "type": kind, "challenge": challenge }))
        }
        _ => None,
    }
}

/// The event stream, in the form the account reads (see [`events`]).
pub async fn stream_events(State(state): State<AppState>, SessionAuth(session): SessionAuth) -> Response {
    if session.user.bot {
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
