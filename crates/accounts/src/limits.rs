//! How often accounts may be made and logins tried.

use common::RateLimiter;

/// The login limits, each within a sliding window: all attempts per client
/// IP, and failed attempts per account *and* client IP. Keyed by both, so
/// that guessing from elsewhere never locks the owner out of their account
/// (a per-account lock would let anyone lock anyone out); an attacker with
/// many addresses is held by the per-IP limit of each and by the bounded
/// hashing pool, which caps the work and memory all attempts together can
/// cost.
#[derive(Clone, Copy, Debug)]
pub struct LoginLimits {
    pub per_ip: usize,
    /// Failed logins per (account, client IP).
    pub per_account: usize,
    pub window_ms: i64,
    /// Password hashes computed at once (threads of `HashPool`): each
    /// argon2id hash holds about 19 MiB, so this bounds the memory a flood
    /// of logins or registrations can take; the rest wait their turn.
    pub max_hashes: usize,
}

impl Default for LoginLimits {
    fn default() -> Self {
        LoginLimits {
            per_ip: 30,
            per_account: 10,
            window_ms: 5 * 60_000,
            max_hashes: 4,
        }
    }
}

/// How many accounts may be made: registrations and guests, each per
/// client IP and for the whole server, in sliding windows. Registrations
/// cost an argon2 hash and a row each, guests a row: without these one
/// address made 1,857 guests in 5 s. 0 = no limit (a load test, a server
/// behind a proxy that limits for it).
#[derive(Clone, Copy, Debug)]
pub struct AccountLimits {
    pub registrations_per_ip: usize,
    pub registrations_global: usize,
    pub guests_per_ip: usize,
    pub guests_global: usize,
    /// The window of the per-IP limits; the global ones count per minute.
    pub window_ms: i64,
}

impl Default for AccountLimits {
    fn default() -> Self {
        AccountLimits {
            registrations_per_ip: 10,
            registrations_global: 120,
            guests_per_ip: 30,
            guests_global: 600,
            window_ms: 3_600_000,
        }
    }
}

/// Every rate limiter of the accounts room.
#[derive(Debug)]
pub struct Limiters {
    pub login_ip: RateLimiter,
    pub login_account: RateLimiter,
    pub register_ip: RateLimiter,
    pub register_all: RateLimiter,
    pub guest_ip: RateLimiter,
    pub guest_all: RateLimiter,
}

impl Limiters {
    #[must_use]
    pub fn new(login: LoginLimits, accounts: AccountLimits) -> Limiters {
        Limiters {
            login_ip: RateLimiter::new(login.per_ip, login.window_ms),
            login_account: RateLimiter::new(login.per_account, login.window_ms),
            register_ip: RateLimiter::new(accounts.registrations_per_ip, accounts.window_ms),
            register_all: RateLimiter::new(accounts.registrations_global, 60_000),
            guest_ip: RateLimiter::new(accounts.guests_per_ip, accounts.window_ms),
            guest_all: RateLimiter::new(accounts.guests_global, 60_000),
        }
    }
}

/// Counts one attempt against a limiter, or says how long to wait.
pub(crate) fn count(limiter: &RateLimiter, key: &str) -> Result<(), common::Error> {
    limiter
        .try_hit(key, common::now_ms())
        .map_err(|s| common::Error::TooManyRequests { retry_after_s: s })
}
