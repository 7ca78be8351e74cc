//! `/api/seeks`, `/api/challenges`, `/api/computer`, `/api/follows` and
//! the personal event stream: the lobby room over HTTP.

use crate::auth::{Auth, SessionAuth};
use crate::error::ApiError;
use crate::sessions::either;
use crate::stream::{ndjson, ndjson_response};
use crate::AppState;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use common::ErrorBody;
use lobby::{
    ChallengeRequest, ChallengeView, ComputerRequest, FriendView, GameStarted, Presence, SeekRequest,
    SeekResult, SeekView,
};
use std::net::SocketAddr;

/// Create a seek; it is paired at once with a matching one when there is.
#[utoipa::path(post, path = "/api/seeks", tag = "lobby", request_body = SeekRequest,
    responses((status = 200, body = SeekResult), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn create_seek(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(req): Json<SeekRequest>,
) -> Result<Json<SeekResult>, ApiError> {
    Ok(Json(state.lobby().seek(user, req).await?))
}

/// The open seeks.
#[utoipa::path(get, path = "/api/seeks", tag = "lobby", responses((status = 200, body = [SeekView])))]
pub async fn list_seeks(State(state): State<AppState>) -> Json<Vec<SeekView>> {
    Json(state.lobby().seeks())
}

/// Withdraw one of your seeks.
#[utoipa::path(delete, path = "/api/seeks/{id}", tag = "lobby", params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_seek(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.lobby().withdraw_seek(&user, id)?;
    Ok(StatusCode::NO_CONTENT)
}

/// Challenge a player directly.
#[utoipa::path(post, path = "/api/challenges", tag = "lobby", request_body = ChallengeRequest,
    responses((status = 201, body = ChallengeView), (status = 404, body = ErrorBody)))]
pub async fn create_challenge(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(req): Json<ChallengeRequest>,
) -> Result<(StatusCode, Json<ChallengeView>), ApiError> {
    Ok((
        StatusCode::CREATED,
        Json(state.lobby().challenge(user, req).await?),
    ))
}

/// Challenges waiting for your answer, and yours waiting for others.
#[utoipa::path(get, path = "/api/challenges", tag = "lobby", responses((status = 200, body = [ChallengeView])))]
pub async fn list_challenges(State(state): State<AppState>, Auth(user): Auth) -> Json<Vec<ChallengeView>> {
    Json(state.lobby().challenges_of(&user))
}

/// Accept a challenge addressed to you: the game starts.
#[utoipa::path(post, path = "/api/challenges/{id}/accept", tag = "lobby", params(("id" = String, Path)),
    responses((status = 200, body = GameStarted), (status = 404, body = ErrorBody)))]
pub async fn accept_challenge(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<Json<GameStarted>, ApiError> {
    Ok(Json(state.lobby().accept(user, &id).await?))
}

/// Decline (or, as the challenger, withdraw) a challenge.
#[utoipa::path(post, path = "/api/challenges/{id}/decline", tag = "lobby", params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn decline_challenge(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.lobby().decline(&user, id, None).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Play the computer (built-in levels 1–8, or an operator-configured engine).
#[utoipa::path(post, path = "/api/computer", tag = "lobby", request_body = ComputerRequest,
    responses((status = 200, body = GameStarted), (status = 400, body = ErrorBody)))]
pub async fn play_computer(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Auth(user): Auth,
    Json(req): Json<ComputerRequest>,
) -> Result<Json<GameStarted>, ApiError> {
    Ok(Json(state.lobby().play_computer(user, peer.ip(), req).await?))
}

/// The players you follow, in name order: whether each has the site open,
/// and their newest live game (to watch).
#[utoipa::path(get, path = "/api/follows", tag = "lobby",
    responses((status = 200, body = [FriendView]), (status = 401, body = ErrorBody)))]
pub async fn list_follows(
    State(state): State<AppState>,
    Auth(user): Auth,
) -> Result<Json<Vec<FriendView>>, ApiError> {
    Ok(Json(state.lobby().friends(&user).await?))
}

/// Follow a player (at most 500; following again changes nothing).
#[utoipa::path(post, path = "/api/follows/{name}", tag = "lobby", params(("name" = String, Path)),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn follow(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.lobby().follow(&user, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Stop following a player.
#[utoipa::path(delete, path = "/api/follows/{name}", tag = "lobby", params(("name" = String, Path)),
    responses((status = 204), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn unfollow(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.lobby().unfollow(&user, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Stream your own events as NDJSON (`game_start`, `challenge`,
/// `challenge_declined`, `notice`); empty lines keep the connection alive.
#[utoipa::path(get, path = "/api/stream/event", tag = "lobby",
    responses((status = 200, description = "NDJSON event stream", content_type = "application/x-ndjson"), (status = 401, body = ErrorBody)))]
pub async fn stream_events(State(state): State<AppState>, SessionAuth(session): SessionAuth) -> Response {
    let user = &session.user;
    let rx = state.lobby().subscribe(&user.id);
    // The stream ends with the server or with the session that opened it.
    let held = state.sessions().hold(&session.token_hash);
    let stop = either(state.shutdown_signal(), held.ended.clone());
    ndjson_response(ndjson(
        None,
        rx,
        stop,
        |s: &std::sync::Arc<str>| (s.to_string(), false),
        (Presence::new(state.lobby(), user), held),
    ))
}
