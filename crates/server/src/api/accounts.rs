//! `/api/auth/*` and `/api/account/*`: the accounts room over HTTP, with the
//! session cookie set and cleared here.

use crate::auth::{request_token, session_cookie, Auth};
use crate::error::ApiError;
use crate::AppState;
use accounts::{Credentials, Revoked, Settings, SignedIn, UserView, SESSION_MAX_AGE_S};
use axum::extract::{ConnectInfo, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use common::ErrorBody;
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use utoipa::ToSchema;

/// The account's view, with the cookie of its new session.
async fn logged_in(state: &AppState, status: StatusCode, s: SignedIn) -> Result<Response, ApiError> {
    let mut resp = (status, Json(state.accounts().view(&s.user).await?)).into_response();
    resp.headers_mut()
        .insert(SET_COOKIE, session_cookie(state, &s.token, SESSION_MAX_AGE_S));
    Ok(resp)
}

/// Register an account and log in.
#[utoipa::path(post, path = "/api/auth/register", tag = "auth",
    request_body = Credentials,
    responses((status = 201, description = "Registered and logged in (sets the session cookie)", body = UserView),
              (status = 400, body = ErrorBody), (status = 409, description = "Name taken", body = ErrorBody)))]
pub async fn register(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Json(c): Json<Credentials>,
) -> Result<Response, ApiError> {
    let s = state.accounts().register(c, peer.ip()).await?;
    logged_in(&state, StatusCode::CREATED, s).await
}

/// Log in with a name and password.
#[utoipa::path(post, path = "/api/auth/login", tag = "auth",
    request_body = Credentials,
    responses((status = 200, description = "Logged in (sets the session cookie)", body = UserView),
              (status = 401, body = ErrorBody), (status = 429, description = "Too many attempts", body = ErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Json(c): Json<Credentials>,
) -> Result<Response, ApiError> {
    let s = state.accounts().login(c, peer.ip()).await?;
    logged_in(&state, StatusCode::OK, s).await
}

/// Play as a guest (casual games only): makes a guest identity and logs it in.
#[utoipa::path(post, path = "/api/auth/guest", tag = "auth",
    responses((status = 201, description = "Guest created (sets the session cookie)", body = UserView)))]
pub async fn guest(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Result<Response, ApiError> {
    let s = state.accounts().guest(peer.ip()).await?;
    logged_in(&state, StatusCode::CREATED, s).await
}

/// Log out: the session is deleted, the cookie cleared.
#[utoipa::path(post, path = "/api/auth/logout", tag = "auth",
    responses((status = 204, description = "Logged out")))]
pub async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some((token, _)) = request_token(&headers) {
        state.accounts().logout(token).await?;
        state.sessions().sweep();
    }
    let mut resp = StatusCode::NO_CONTENT.into_response();
    resp.headers_mut()
        .insert(SET_COOKIE, session_cookie(&state, "", 0));
    Ok(resp)
}

/// Log out on every device: all of the account's sessions and bearer
/// tokens end (e.g. after a password may have leaked).
#[utoipa::path(post, path = "/api/auth/logout-everywhere", tag = "auth",
    responses((status = 200, description = "Sessions and tokens ended", body = Revoked),
              (status = 401, body = ErrorBody)))]
pub async fn logout_everywhere(
    State(state): State<AppState>,
    Auth(user): Auth,
) -> Result<Response, ApiError> {
    let revoked = state.accounts().logout_everywhere(&user).await?;
    state.sessions().sweep();
    let mut resp = Json(revoked).into_response();
    resp.headers_mut()
        .insert(SET_COOKIE, session_cookie(&state, "", 0));
    Ok(resp)
}

/// Which bearer tokens to revoke.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct RevokeRequest {
    /// One token; when absent, every bearer token of the account. The
    /// browser session stays either way.
    #[serde(default)]
    pub token: Option<String>,
}

/// Revoke bearer tokens: one (given) or all of the account's. A revoked
/// token is refused from the next request on.
#[utoipa::path(post, path = "/api/account/tokens/revoke", tag = "auth",
    request_body = RevokeRequest,
    responses((status = 200, body = Revoked), (status = 401, body = ErrorBody)))]
pub async fn revoke_tokens(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(r): Json<RevokeRequest>,
) -> Result<Json<Revoked>, ApiError> {
    Ok(Json(
        state.accounts().revoke_tokens(&user, r.token.as_deref()).await?,
    ))
}

/// Your board settings (the defaults until you change them).
#[utoipa::path(get, path = "/api/account/settings", tag = "auth",
    responses((status = 200, body = Settings), (status = 401, body = ErrorBody)))]
pub async fn get_settings(
    State(state): State<AppState>,
    Auth(user): Auth,
) -> Result<Json<Settings>, ApiError> {
    Ok(Json(state.accounts().settings(&user).await?))
}

/// Keep your board settings with your account.
#[utoipa::path(put, path = "/api/account/settings", tag = "auth", request_body = Settings,
    responses((status = 200, body = Settings), (status = 401, body = ErrorBody)))]
pub async fn put_settings(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(settings): Json<Settings>,
) -> Result<Json<Settings>, ApiError> {
    Ok(Json(state.accounts().put_settings(&user, settings).await?))
}

#[derive(Serialize, ToSchema)]
pub struct TokenView {
    /// Send as `Authorization: Bearer <token>`; shown only once.
    pub token: String,
}

/// Make a bearer token for a bot or script (no cookie, no CSRF header needed).
#[utoipa::path(post, path = "/api/account/token", tag = "auth",
    responses((status = 201, body = TokenView), (status = 401, body = ErrorBody)))]
pub async fn make_token(
    State(state): State<AppState>,
    Auth(user): Auth,
) -> Result<(StatusCode, Json<TokenView>), ApiError> {
    let token = state.accounts().make_token(&user).await?;
    Ok((StatusCode::CREATED, Json(TokenView { token })))
}
