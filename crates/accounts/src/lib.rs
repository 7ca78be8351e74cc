//! The accounts room: who a player is and how they prove it. Registration
//! with look-alike names refused, login, logout, guests, bot tokens, the
//! password-hashing pool and the account limiters; a player's settings;
//! the public side of an account (profile, search, leaderboards, head to
//! head, rating history).
//!
//! * Passwords are hashed with argon2id (the `argon2` crate's defaults:
//!   19 MiB, 2 passes) on a few threads of their own ([`HashPool`]).
//! * A session is a random 256-bit token; the database stores only its
//!   SHA-256 ([`token_hash`]), so a leaked database does not leak sessions.
//!   Logout deletes the row: the same token replayed afterwards is refused.
//! * Login attempts are limited per client address and per account name
//!   ([`LoginLimits`]); registrations and guests per address and in all
//!   ([`AccountLimits`]).
//!
//! How a token travels (cookie or bearer header) and CSRF are HTTP's and
//! live in the server crate; this room sees tokens and addresses only.

mod bots;
mod hashing;
mod limits;
mod password;
mod profiles;
mod settings;
mod sign_in;

pub use bots::{Perf, BOTS_LISTED, PROGRESS_GAMES};
pub use hashing::HashPool;
pub use limits::{AccountLimits, Limiters, LoginLimits};
pub use profiles::{
    title_of, LeaderRow, PoolRatingView, PoolScore, Record, Score, UserView, LEADERBOARD_PAGES,
};
pub use settings::{BoardSize, BoardTheme, ChessPieces, MoveConfirmation, PieceSet, Settings};
pub use sign_in::{token_hash, Credentials, Revoked, SignedIn, TokenKind, SESSION_MAX_AGE_S};

use store::Store;

/// The accounts room: the database, the hashing threads and the limiters.
#[derive(Debug)]
pub struct Accounts {
    store: Store,
    hashing: HashPool,
    limiters: Limiters,
    /// Says when a rating is still provisional (profiles, leaderboards).
    rating_system: rating::RatingSystem,
}

impl Accounts {
    /// The room over `store`, with `login.max_hashes` hashing threads.
    #[must_use]
    pub fn new(store: Store, login: LoginLimits, accounts: AccountLimits) -> Accounts {
        Accounts {
            store,
            hashing: HashPool::new(login.max_hashes),
            limiters: Limiters::new(login, accounts),
            rating_system: rating::RatingSystem::default(),
        }
    }

    /// The same room, with the server's rating system.
    #[must_use]
    pub fn with_rating_system(mut self, system: rating::RatingSystem) -> Accounts {
        self.rating_system = system;
        self
    }
}
