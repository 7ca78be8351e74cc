//! `/api/users…`, `/api/leaderboard`, `/api/games/live`, `/api/reports`,
//! `/api/info`: players' public pages, the archive, what is played now.

use crate::auth::Auth;
use crate::error::ApiError;
use crate::AppState;
use accounts::{LeaderRow, Record, UserView};
use axum::body::Body;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use common::{Error, ErrorBody};
use lobby::chat::ReportRequest;
use play::archive::{GameSummary, GamesQuery};
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use store::{RatingPoint, User};
use utoipa::{IntoParams, ToSchema};

/// A player's public profile: rating, title, real-world title.
#[utoipa::path(get, path = "/api/users/{name}", tag = "players", params(("name" = String, Path)),
    responses((status = 200, body = UserView), (status = 404, body = ErrorBody)))]
pub async fn get_user(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<UserView>, ApiError> {
    let u = state.accounts().named(&name).await?;
    Ok(Json(state.accounts().view(&u).await?))
}

/// Who to look for.
#[derive(Deserialize, IntoParams)]
pub struct SearchQuery {
    /// The start of a name (compared as names are: NFKC + case folding).
    pub q: String,
}

/// Registered players whose name starts with `q` (at most 20).
#[utoipa::path(get, path = "/api/users", tag = "players", params(SearchQuery),
    responses((status = 200, body = [UserView])))]
pub async fn search_users(
    State(state): State<AppState>,
    Query(q): Query<SearchQuery>,
) -> Result<Json<Vec<UserView>>, ApiError> {
    Ok(Json(state.accounts().search(&q.q).await?))
}

/// Which page of a leaderboard.
#[derive(Deserialize, IntoParams)]
pub struct LeaderQuery {
    /// 1 (the default) to 20, 50 players a page.
    pub page: Option<u32>,
}

/// The best-rated players with an established (not provisional) rating
/// in a rating pool (`xiangqi`, `chess`,
/// `chess960`), 50 a page, with their titles where the pool has them.
/// Players of equal rating are ranked by name, so pages do not overlap.
#[utoipa::path(get, path = "/api/leaderboard/{pool}", tag = "players", params(("pool" = String, Path), LeaderQuery),
    responses((status = 200, body = [LeaderRow]), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(pool): Path<String>,
    Query(q): Query<LeaderQuery>,
) -> Result<Json<Vec<LeaderRow>>, ApiError> {
    Ok(Json(state.accounts().leaderboard(&pool, q.page).await?))
}

/// Against whom to count.
#[derive(Deserialize, IntoParams)]
pub struct VsQuery {
    pub vs: Option<String>,
}

/// A player's wins, draws and losses per rating pool, and against one
/// other player (head to head).
#[utoipa::path(get, path = "/api/users/{name}/record", tag = "players", params(("name" = String, Path), VsQuery),
    responses((status = 200, body = Record), (status = 404, body = ErrorBody)))]
pub async fn record(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<VsQuery>,
) -> Result<Json<Record>, ApiError> {
    Ok(Json(state.accounts().record(&name, q.vs.as_deref()).await?))
}

/// The player of the archive query and the opponent it filters by.
async fn players_of(state: &AppState, name: &str, q: &GamesQuery) -> Result<(User, Option<User>), ApiError> {
    let u = state.accounts().named(name).await?;
    let opponent = match &q.opponent {
        Some(n) if !n.trim().is_empty() => Some(state.accounts().named(n.trim()).await?),
        _ => None,
    };
    Ok((u, opponent))
}

/// A player's games, newest first (100 unless `limit` says otherwise),
/// filtered by opponent, result, game and opening; each with its first
/// moves.
#[utoipa::path(get, path = "/api/users/{name}/games", tag = "players", params(("name" = String, Path), GamesQuery),
    responses((status = 200, body = [GameSummary]), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn user_games(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<GamesQuery>,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    let (u, opponent) = players_of(&state, &name, &q).await?;
    Ok(Json(
        play::archive::games(state.play(), &u, opponent.as_ref(), &q).await?,
    ))
}

/// A player's finished games (with the same filters, at most 1,000) as one
/// PGN file, newest first: the archive to take elsewhere. Each game costs
/// about 2 ms to write, so the file is streamed as it is written, an
/// address may ask for [`EXPORTS_PER_HOUR`], and [`EXPORTS_AT_ONCE`] run
/// at a time in all (busy: 503).
#[utoipa::path(get, path = "/api/users/{name}/games.pgn", tag = "players", params(("name" = String, Path), GamesQuery),
    responses((status = 200, description = "PGN text", content_type = "application/x-chess-pgn"), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn user_games_pgn(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(name): Path<String>,
    Query(mut q): Query<GamesQuery>,
) -> Result<Response, ApiError> {
    state
        .exports()
        .per_address
        .try_hit(&peer.ip().to_string(), common::now_ms())
        .map_err(|s| Error::TooManyRequests { retry_after_s: s })?;
    let turn = state
        .exports()
        .at_once
        .clone()
        .try_acquire_owned()
        .map_err(|_| Error::Unavailable)?;
    q.limit = Some(q.limit.unwrap_or(1000));
    let (u, opponent) = players_of(&state, &name, &q).await?;
    let ids = play::archive::pgn_games(state.play(), &u, opponent.as_ref(), &q).await?;
    // The turn is held until the last game is written.
    let games = (ids.into_iter(), state.play().clone(), turn);
    let body = futures_util::stream::unfold(games, |(mut ids, play, turn)| async move {
        loop {
            let id = ids.next()?;
            if let Some(text) = play::archive::pgn_of(&play, &id).await {
                return Some((Ok::<_, std::io::Error>(text), (ids, play, turn)));
            }
        }
    });
    Ok(super::games::pgn_response(
        "qiju-games.pgn",
        Body::from_stream(body),
    ))
}

/// Archive files one address may ask for in an hour.
pub const EXPORTS_PER_HOUR: usize = 10;
/// Archive files written at once, in all.
pub const EXPORTS_AT_ONCE: usize = 2;

/// The limits on archive files.
#[derive(Debug)]
pub struct Exports {
    pub per_address: common::RateLimiter,
    pub at_once: std::sync::Arc<tokio::sync::Semaphore>,
}

impl Default for Exports {
    fn default() -> Self {
        Exports {
            per_address: common::RateLimiter::new(EXPORTS_PER_HOUR, 3_600_000),
            at_once: std::sync::Arc::new(tokio::sync::Semaphore::new(EXPORTS_AT_ONCE)),
        }
    }
}

/// A player's rating history, one point per rated game.
#[utoipa::path(get, path = "/api/users/{name}/rating-history", tag = "players", params(("name" = String, Path)),
    responses((status = 200, body = [RatingPoint]), (status = 404, body = ErrorBody)))]
pub async fn rating_history(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Vec<RatingPoint>>, ApiError> {
    Ok(Json(state.accounts().rating_history(&name).await?))
}

/// What is being played now, for the lobby and "TV".
#[derive(Serialize, ToSchema)]
pub struct LiveGames {
    /// Players with the lobby open (a socket or an event stream).
    pub online: usize,
    /// Their names, in name order (at most 100).
    pub players: Vec<String>,
    /// Live games, at most 50: games between people before games against
    /// the computer, each the strongest pairing first (the sum of the two
    /// ratings; the computer counts nothing); none that every player has
    /// left.
    pub games: Vec<GameSummary>,
}

/// The games being played now, strongest first, and how many players are
/// in the lobby; the first game is the platform's "TV".
#[utoipa::path(get, path = "/api/games/live", tag = "games",
    responses((status = 200, body = LiveGames)))]
pub async fn live_games(State(state): State<AppState>) -> Result<Json<LiveGames>, ApiError> {
    Ok(Json(LiveGames {
        online: state.lobby().online(),
        players: state.lobby().online_names(100),
        games: play::archive::live(state.play(), 50).await?,
    }))
}

/// Server facts a client needs: rating system, games, computer players.
#[derive(Serialize, ToSchema)]
pub struct ServerInfo {
    pub version: String,
    /// The game protocol's version (docs/websocket.md).
    pub protocol: u32,
    pub rating_system: String,
    /// Operator-configured engines (`engine:NAME`).
    pub engines: Vec<String>,
    /// Every game and variant as the registry describes it (id, sides,
    /// board, move kinds, notations, rating pool, …), with
    /// `computer_levels`: the levels this server's computer plays it at
    /// (0 when its engine is not installed).
    #[schema(value_type = Vec<Object>)]
    pub variants: Vec<serde_json::Value>,
}

#[utoipa::path(get, path = "/api/info", tag = "players", responses((status = 200, body = ServerInfo)))]
pub async fn info(State(state): State<AppState>) -> Json<ServerInfo> {
    let computers = state.play().computers();
    Json(ServerInfo {
        version: env!("CARGO_PKG_VERSION").to_string(),
        protocol: play::protocol::PROTOCOL_VERSION,
        rating_system: format!("{:?}", state.config().rating_system).to_lowercase(),
        engines: computers.external_names(),
        variants: registry::all()
            .iter()
            .map(|v| {
                let mut json = serde_json::to_value(v).unwrap_or_default();
                json["computer_levels"] = computers.levels(v).into();
                json["can_analyse"] = computers.can_analyse(v).into();
                json
            })
            .collect(),
    })
}

/// Liveness probe: the process answers.
pub async fn health() -> StatusCode {
    StatusCode::NO_CONTENT
}

/// Readiness probe, for a load balancer choosing a node: this node's name,
/// its live games, and whether its database answers within 2 s (503 when
/// it does not, or while the node shuts down).
#[utoipa::path(get, path = "/api/health/ready", tag = "players",
    responses((status = 200, description = "`{node, live_games, database: \"ok\"}`"),
        (status = 503, description = "`{node, live_games, database}`: the database does not answer, or the node is stopping")))]
pub async fn ready(State(state): State<AppState>) -> (StatusCode, Json<serde_json::Value>) {
    let db = tokio::time::timeout(std::time::Duration::from_secs(2), state.play().store().ping()).await;
    let database = match db {
        Ok(Ok(())) => "ok".to_string(),
        Ok(Err(e)) => format!("error: {e}"),
        Err(_) => "no answer within 2 s".to_string(),
    };
    let stopping = *state.shutdown_signal().borrow();
    let status = if database == "ok" && !stopping {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(serde_json::json!({
            "node": state.config().node_id,
            "live_games": state.play().games().len(),
            "database": database,
            "stopping": stopping,
        })),
    )
}

/// Reports a chat line; the operators read reports with `qiju admin
/// reports` and mute (`qiju admin mute`) or ban (`qiju admin ban`).
#[utoipa::path(post, path = "/api/reports", tag = "players", request_body = ReportRequest,
    responses((status = 204, description = "Filed"), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn report(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(r): Json<ReportRequest>,
) -> Result<StatusCode, ApiError> {
    state.lobby().report(&user, r).await?;
    Ok(StatusCode::NO_CONTENT)
}
