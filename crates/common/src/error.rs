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

/// An error as it crosses from one node to another (issue 29): what the
/// API's body would say, and whether it is a bad request or a conflict,
/// the two kinds whose codes vary.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Refusal {
    /// `bad_request`, `conflict`, or the error's own code.
    kind: String,
    code: String,
    message: String,
}

impl From<&Error> for Refusal {
    fn from(e: &Error) -> Refusal {
        let kind = match e {
            Error::BadRequest { .. } => "bad_request",
            Error::Conflict { .. } => "conflict",
            other => other.code(),
        };
        Refusal {
            kind: kind.to_string(),
            code: e.code().to_string(),
            message: e.to_string(),
        }
    }
}

impl Refusal {
    /// The error it was. A bad request's or conflict's code is read back
    /// only if it is one of `known` (the API's codes are static strings;
    /// a node of another version may send one this node does not know,
    /// which then reads as `bad_request` or `refused`, its message kept).
    #[must_use]
    pub fn into_error(self, known: &[&'static str]) -> Error {
        let code = |fallback: &'static str| {
            known
                .iter()
                .find(|c| **c == self.code)
                .copied()
                .unwrap_or(fallback)
        };
        match self.kind.as_str() {
            "bad_request" => Error::bad(code("bad_request"), self.message),
            "conflict" => Error::conflict(code("refused"), self.message),
            "unauthorized" => Error::Unauthorized,
            "forbidden" => Error::Forbidden(self.message),
            "banned" => Error::Banned,
            "not_found" => Error::NotFound(
                self.message
                    .strip_suffix(" not found")
                    .unwrap_or(&self.message)
                    .to_string(),
            ),
            "rate_limited" => Error::TooManyRequests { retry_after_s: 1 },
            "unavailable" => Error::Unavailable,
            "game_damaged" => Error::Damaged(self.message),
            _ => Error::Internal(
                self.message
                    .strip_prefix("internal error: ")
                    .unwrap_or(&self.message)
                    .to_string(),
            ),
        }
    }
}

#[cfg(test)]
mod refusal_tests {
    use super::{Error, Refusal};

    fn across(e: &Error, known: &[&'static str]) -> Error {
        let wire = serde_json::to_string(&Refusal::from(e)).unwrap();
        serde_json::from_str::<Refusal>(&wire).unwrap().into_error(known)
    }

    #[test]
    fn an_error_reads_back_as_itself_across_nodes() {
        let cases = [
            Error::bad("bad_time", "no such time control"),
            Error::conflict("recipient_busy", "they are playing"),
            Error::Unauthorized,
            Error::Forbidden("only the arbiter".into()),
            Error::Banned,
            Error::NotFound("event x".into()),
            Error::Unavailable,
            Error::Damaged("game g".into()),
            Error::Internal("boom".into()),
        ];
        for e in &cases {
            let back = across(e, &["bad_time", "recipient_busy"]);
            assert_eq!(back.code(), e.code(), "{e:?}");
            assert_eq!(back.to_string(), e.to_string(), "{e:?}");
        }
    }

    #[test]
    fn an_unknown_code_keeps_its_kind_and_message() {
        let back = across(&Error::conflict("round_running", "a game still plays"), &[]);
        assert!(
            matches!(back, Error::Conflict { code: "refused", .. }),
            "{back:?}"
        );
        assert_eq!(back.to_string(), "a game still plays");
        let back = across(&Error::bad("bad_round", "no round 9"), &[]);
        assert!(
            matches!(
                back,
                Error::BadRequest {
                    code: "bad_request",
                    ..
                }
            ),
            "{back:?}"
        );
    }
}
