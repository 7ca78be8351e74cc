//! The vocabulary every room of the server shares, and nothing else: the
//! one clock reading ([`now_ms`]), random ids, the [`Error`] a room answers
//! with (the server turns it into HTTP), the sliding-window
//! [`RateLimiter`], and what makes two account names one ([`names`]).
//!
//! It names no room and depends on none: `store`, `accounts`, `play`,
//! `lobby` and `server` all sit above it.

mod error;
mod limit;
pub mod names;
mod random;

pub use error::{Error, ErrorBody, Refusal};
pub use limit::RateLimiter;
pub use random::{random_bit, random_bytes, random_id, random_u32};

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch: the one time base of stored moves,
/// clocks and heartbeats.
#[must_use]
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
