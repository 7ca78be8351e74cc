//! The one error a room answers with. Each variant is a kind the API knows
//! (the server gives each its HTTP status, `server::error`) and a stable
//! machine-readable code ([`Error::code`]); the text is for people. Rooms
//! with richer errors of their own (a refused move, a chat line) turn them
//! into this at their edge.

use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum Error {
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
    /// The database failed (`store::StoreError`, kept for the log).
    #[error("storage failed")]
    Storage(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error("internal error: {0}")]
    Internal(String),
    /// A game whose stored rows cannot be read (see `play::resume_all`).
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

impl Error {
    pub fn bad(code: &'static str, message: impl Into<String>) -> Error {
        Error::BadRequest {
            code,
            message: message.into(),
        }
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> Error {
        Error::Conflict {
            code,
            message: message.into(),
        }
    }

    /// The stable code clients word the error by.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Error::BadRequest { code, .. } | Error::Conflict { code, .. } => code,
            Error::Unauthorized => "unauthorized",
            Error::Forbidden(_) => "forbidden",
            Error::Banned => "banned",
            Error::NotFound(_) => "not_found",
            Error::TooManyRequests { .. } => "rate_limited",
            Error::Unavailable => "unavailable",
            Error::Damaged(_) => "game_damaged",
            Error::Storage(_) | Error::Internal(_) => "internal",
        }
    }

    /// The body the API sends for it.
    #[must_use]
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: self.code().to_string(),
            message: self.to_string(),
        }
    }
}
