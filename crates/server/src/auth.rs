//! Who is asking, as HTTP carries it: the session cookie or a bearer
//! token, read into an account by the accounts room; and CSRF protection.
//!
//! * The browser holds its session token in an `HttpOnly; SameSite=Lax`
//!   cookie; bots send `Authorization: Bearer …` (a token made by
//!   `POST /api/account/token`).
//! * CSRF: every state-changing request authenticated by the cookie must
//!   carry the header `X-Qiju-Csrf` (a page on another site cannot add a
//!   custom header without a CORS preflight, which we never grant), and an
//!   `Origin` header, when present, must name this server's host.

use crate::error::ApiError;
use crate::AppState;
use accounts::TokenKind;
use axum::extract::{FromRequestParts, Request};
use axum::http::header::{AUTHORIZATION, COOKIE, HOST, ORIGIN};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use common::{Error, ErrorBody};
use store::User;

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "qiju_session";
/// The header every cookie-authenticated state change must carry.
pub const CSRF_HEADER: &str = "x-qiju-csrf";

/// Reads one cookie's value from the `Cookie` headers.
#[must_use]
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The session token of a request and how it came: a bearer header, else
/// the session cookie.
#[must_use]
pub fn request_token(headers: &HeaderMap) -> Option<(&str, TokenKind)> {
    if let Some(v) = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        if let Some(t) = v.strip_prefix("Bearer ") {
            return Some((t.trim(), TokenKind::Bearer));
        }
    }
    cookie(headers, SESSION_COOKIE).map(|t| (t, TokenKind::Cookie))
}

/// Who a request is authenticated as, and by which session.
#[derive(Clone, Debug)]
pub struct Session {
    pub user: User,
    /// What the database stores of the token (its SHA-256), by which the
    /// session's open sockets are told when it ends.
    pub token_hash: String,
}

/// Finds the session a request is authenticated by, if any.
///
/// # Errors
/// The database cannot be read.
pub async fn session_of(state: &AppState, headers: &HeaderMap) -> Result<Option<Session>, Error> {
    let Some((token, kind)) = request_token(headers) else {
        return Ok(None);
    };
    Ok(state
        .accounts()
        .user_of_token(token, kind)
        .await?
        .map(|user| Session {
            user,
            token_hash: accounts::token_hash(token),
        }))
}

/// Extractor: the logged-in user (or guest), else 401.
pub struct Auth(pub User);

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let s = SessionAuth::from_request_parts(parts, state).await?;
        Ok(Auth(s.0.user))
    }
}

/// Extractor: the logged-in session, else 401 (for what stays open: a
/// stream ends with its session).
pub struct SessionAuth(pub Session);

impl FromRequestParts<AppState> for SessionAuth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        session_of(state, &parts.headers)
            .await?
            .map(SessionAuth)
            .ok_or(ApiError(Error::Unauthorized))
    }
}

/// Extractor: the session if logged in; spectators need not be.
pub struct MaybeSession(pub Option<Session>);

impl FromRequestParts<AppState> for MaybeSession {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        Ok(MaybeSession(session_of(state, &parts.headers).await?))
    }
}

/// Whether an `Origin` header (when there is one) names this server.
#[must_use]
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true; // not a browser request (curl, a bot)
    };
    let Some(host) = headers.get(HOST).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    origin_host == host
}

/// Middleware refusing cross-site state changes (see the module doc).
pub async fn csrf_guard(req: Request, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe {
        let h = req.headers();
        if !same_origin(h) {
            return ApiError(Error::Forbidden("cross-origin request refused".into())).into_response();
        }
        let bearer = h
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("Bearer "));
        if !bearer && !h.contains_key(CSRF_HEADER) {
            return (
                StatusCode::FORBIDDEN,
                Json(ErrorBody {
                    error: "csrf".into(),
                    message: format!("state-changing requests need the {CSRF_HEADER} header"),
                }),
            )
                .into_response();
        }
    }
    next.run(req).await
}

/// The session cookie holding `token` for `max_age_s` seconds (0: cleared).
#[must_use]
pub fn session_cookie(state: &AppState, token: &str, max_age_s: i64) -> HeaderValue {
    let secure = if state.config().secure_cookies {
        "; Secure"
    } else {
        ""
    };
    let v = format!("{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_s}{secure}");
    HeaderValue::from_str(&v).unwrap_or_else(|_| HeaderValue::from_static(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_parse() {
        let mut h = HeaderMap::new();
        h.insert(COOKIE, HeaderValue::from_static("a=1; qiju_session=abc; b=2"));
        assert_eq!(cookie(&h, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(&h, "c"), None);
    }

    #[test]
    fn origin_must_match_host() {
        let mut h = HeaderMap::new();
        assert!(same_origin(&h));
        h.insert(HOST, HeaderValue::from_static("127.0.0.1:8080"));
        h.insert(ORIGIN, HeaderValue::from_static("http://127.0.0.1:8080"));
        assert!(same_origin(&h));
        h.insert(ORIGIN, HeaderValue::from_static("http://evil.example"));
        assert!(!same_origin(&h));
    }
}
