//! `/api/games/{id}/analysis` and `/api/analysis/*`: computer reviews of
//! finished games, and the analysis board.

use crate::auth::Auth;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::Json;
use common::ErrorBody;
use play::analysis::{self, AnalysisView, ImportRequest, LineRequest, PlyEval, PositionView};
use std::net::SocketAddr;

/// A game's computer review: where it stands, and the review.
#[utoipa::path(get, path = "/api/games/{id}/analysis", tag = "analysis",
    responses((status = 200, body = AnalysisView), (status = 404, body = ErrorBody)))]
pub async fn get_review(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<AnalysisView>, ApiError> {
    Ok(Json(analysis::review_of(state.play(), &id).await?))
}

/// Asks for a finished game's computer review. Asking again while it is
/// queued, running or done answers where it stands.
#[utoipa::path(post, path = "/api/games/{id}/analysis", tag = "analysis",
    responses((status = 202, body = AnalysisView), (status = 200, body = AnalysisView),
        (status = 409, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 503, body = ErrorBody)))]
pub async fn request_review(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<AnalysisView>), ApiError> {
    let (queued, view) = analysis::request(state.play(), &user, &id).await?;
    let status = if queued {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(view)))
}

/// What the rules say of a line: its moves' notation, the legal moves
/// after it, whether the game would be over.
#[utoipa::path(post, path = "/api/analysis/position", tag = "analysis", request_body = LineRequest,
    responses((status = 200, body = PositionView), (status = 400, body = ErrorBody)))]
pub async fn position(
    State(state): State<AppState>,
    Json(req): Json<LineRequest>,
) -> Result<Json<PositionView>, ApiError> {
    Ok(Json(analysis::position(state.play(), &req)?))
}

/// The engine's view of a line's last position (one at a time per player).
#[utoipa::path(post, path = "/api/analysis/eval", tag = "analysis", request_body = LineRequest,
    responses((status = 200, body = PlyEval), (status = 400, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn eval(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Auth(user): Auth,
    Json(req): Json<LineRequest>,
) -> Result<Json<PlyEval>, ApiError> {
    Ok(Json(
        analysis::eval(state.play(), &user, Some(peer.ip()), &req).await?,
    ))
}

/// Reads a pasted FEN or PGN into a line for the analysis board.
#[utoipa::path(post, path = "/api/analysis/import", tag = "analysis", request_body = ImportRequest,
    responses((status = 200, body = PositionView), (status = 400, body = ErrorBody)))]
pub async fn import(
    State(state): State<AppState>,
    Json(req): Json<ImportRequest>,
) -> Result<Json<PositionView>, ApiError> {
    Ok(Json(analysis::import(state.play(), &req)?))
}
