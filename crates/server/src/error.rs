//! The one error type of the HTTP API: each variant is a status code and a
//! stable machine-readable `error` code, sent as `{"error", "message"}`.

use crate::store::StoreError;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{message}")]
    BadRequest { code: &'static str, message: String },
    #[error("you are not logged in")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    #[error("this account is banned")]
    Banned,
    #[error("{0} not found")]
    NotFound(String),
    #[error("{message}")]
    Conflict { code: &'static str, message: String },
    #[error("too many attempts; try again in {retry_after_s} s")]
    TooManyRequests { retry_after_s: u64 },
    #[error("the server is busy; try again")]
    Unavailable,
    #[error("storage failed")]
    Store(#[from] StoreError),
    #[error("internal error: {0}")]
    Internal(String),
    /// A game whose stored rows cannot be read (see `live::resume_all`).
    #[error("{0}")]
    Damaged(String),
}

/// The JSON body of every error response.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// Stable code, e.g. `illegal_move`, `unauthorized`, `csrf`.
    pub error: String,
    /// What went wrong, for people.
    pub message: String,
}

impl ApiError {
    pub fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::BadRequest {
            code,
            message: message.into(),
        }
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Conflict {
            code,
            message: message.into(),
        }
    }

    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest { code, .. } => (StatusCode::BAD_REQUEST, code),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::Banned => (StatusCode::FORBIDDEN, "banned"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Conflict { code, .. } => (StatusCode::CONFLICT, code),
            ApiError::TooManyRequests { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            ApiError::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
            // The record exists but can no longer be read: gone for good.
            ApiError::Damaged(_) => (StatusCode::GONE, "game_damaged"),
            ApiError::Store(_) | ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(error = %self, detail = ?self, "request failed");
        }
        let mut resp = (
            status,
            Json(ErrorBody {
                error: code.to_string(),
                message: self.to_string(),
            }),
        )
            .into_response();
        if let ApiError::TooManyRequests { retry_after_s } = self {
            if let Ok(v) = HeaderValue::from_str(&retry_after_s.to_string()) {
                resp.headers_mut().insert("retry-after", v);
            }
        }
        resp
    }
}

/// axum's own refusals — a body over the limit, not JSON, or not of the
/// shape asked — come as plain text; here they take the API's one error
/// shape, `{"error", "message"}`, so a client words each by its code like
/// any other. A body over the limit was not read, so the connection ends
/// after the answer: `Connection: close` says so, and a client does not
/// send its next request down a connection that is closing.
pub async fn plain_refusals_as_json(resp: Response) -> Response {
    use axum::http::header::{CONNECTION, CONTENT_TYPE};
    let status = resp.status();
    let code = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "bad_content_type",
        StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => "bad_request",
        _ => return resp,
    };
    let json = resp
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json {
        return resp;
    }
    let text = axum::body::to_bytes(resp.into_body(), 4096)
        .await
        .unwrap_or_default();
    let message = String::from_utf8_lossy(&text).trim().to_string();
    let mut out = (
        status,
        Json(ErrorBody {
            error: code.to_string(),
            message,
        }),
    )
        .into_response();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        out.headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
    }
    out
}
