//! Every room's errors as the API sends them: an HTTP status and the one
//! JSON shape `{"error", "message"}` ([`common::ErrorBody`]).

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use common::{Error, ErrorBody};

/// A room's error on its way out as a response.
#[derive(Debug)]
pub struct ApiError(pub Error);

impl<E: Into<Error>> From<E> for ApiError {
    fn from(e: E) -> ApiError {
        ApiError(e.into())
    }
}

/// The status of each kind of error.
pub(crate) fn status_of(e: &Error) -> StatusCode {
    match e {
        Error::BadRequest { .. } => StatusCode::BAD_REQUEST,
        Error::Unauthorized => StatusCode::UNAUTHORIZED,
        Error::Forbidden(_) | Error::Banned => StatusCode::FORBIDDEN,
        Error::NotFound(_) => StatusCode::NOT_FOUND,
        Error::Conflict { .. } => StatusCode::CONFLICT,
        Error::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
        Error::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        // The record exists but can no longer be read: gone for good.
        Error::Damaged(_) => StatusCode::GONE,
        Error::Storage(_) | Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let e = self.0;
        let status = status_of(&e);
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(error = %e, detail = ?e, "request failed");
        }
        let mut resp = (status, Json(e.body())).into_response();
        if let Error::TooManyRequests { retry_after_s } = e {
            if let Ok(v) = HeaderValue::from_str(&retry_after_s.to_string()) {
                resp.headers_mut().insert("retry-after", v);
            }
        }
        resp
    }
}

/// axum's own refusals — a body over the limit, not JSON, or not of the
/// shape asked; a method the path does not take — come as plain text or
/// with no body at all; here they take the API's one error shape,
/// `{"error", "message"}`, so a client words each by its code like any
/// other. A 405 keeps its `Allow` header and names those methods in its
/// message. A body over the limit was not read, so the connection ends
/// after the answer: `Connection: close` says so, and a client does not
/// send its next request down a connection that is closing.
pub async fn plain_refusals_as_json(resp: Response) -> Response {
    use axum::http::header::{ALLOW, CONNECTION, CONTENT_TYPE};
    let status = resp.status();
    let code = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "bad_content_type",
        StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => "bad_request",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        _ => return resp,
    };
    let json = resp
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json {
        return resp;
    }
    let allow = resp.headers().get(ALLOW).cloned();
    let text = axum::body::to_bytes(resp.into_body(), 4096)
        .await
        .unwrap_or_default();
    let message = match &allow {
        Some(methods) if status == StatusCode::METHOD_NOT_ALLOWED => format!(
            "this path takes {} only",
            methods.to_str().unwrap_or("other methods")
        ),
        None if status == StatusCode::METHOD_NOT_ALLOWED => "this path does not take that method".into(),
        _ => String::from_utf8_lossy(&text).trim().to_string(),
    };
    let mut out = (
        status,
        Json(ErrorBody {
            error: code.to_string(),
            message,
        }),
    )
        .into_response();
    if let Some(methods) = allow {
        out.headers_mut().insert(ALLOW, methods);
    }
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        out.headers_mut()
            .insert(CONNECTION, HeaderValue::from_static("close"));
    }
    out
}
