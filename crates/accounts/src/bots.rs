//! Bot accounts (issue 32, lichess's Bot API): an account is upgraded once
//! and for good, as lichess's `POST /api/bot/account/upgrade` does; the
//! server then serves it lichess's form of the paths both APIs share.

use crate::Accounts;
use common::Error;
use store::User;

/// How many bots `GET /api/bot/online` lists at most.
pub const BOTS_LISTED: i64 = 200;

/// How many of its last rated games a pool's progress looks back over
/// (lichess's `prog`: the rating change over the last 12 games).
pub const PROGRESS_GAMES: usize = 12;

/// A player's standing in one rating pool, as lichess's `perfs` say it.
#[derive(Clone, Debug, PartialEq)]
pub struct Perf {
    pub pool: String,
    pub rating: f64,
    /// The rating's deviation (Glicko-2's RD; the initial one under Elo).
    pub deviation: f64,
    pub games: u32,
    /// The rating change over the last [`PROGRESS_GAMES`] rated games.
    pub progress: f64,
    /// Too few games for the rating to be trusted yet.
    pub provisional: bool,
}

impl Accounts {
    /// Makes `user` a bot account. Upgrading a bot again changes nothing.
    ///
    /// # Errors
    /// `guest` for a guest (a bot is a registered account), or storage.
    pub async fn upgrade_to_bot(&self, user: &User) -> Result<(), Error> {
        if user.guest {
            return Err(Error::bad(
                "guest",
                "a guest cannot become a bot: register an account first",
            ));
        }
        if user.bot {
            return Ok(());
        }
        if self.store.set_bot(&user.id).await? {
            Ok(())
        } else {
            Err(Error::NotFound(format!("account {}", user.name)))
        }
    }

    /// The player's rating in every pool they have played rated games in,
    /// with the progress over their last games there.
    ///
    /// # Errors
    /// Storage.
    pub async fn perfs(&self, user: &User) -> Result<Vec<Perf>, Error> {
        let history = self.store.rating_history(&user.id).await?;
        Ok(self
            .store
            .ratings_of(&user.id)
            .await?
            .into_iter()
            .map(|r| {
                let points: Vec<_> = history.iter().filter(|h| h.pool == r.pool).collect();
                let since = points.len().saturating_sub(PROGRESS_GAMES);
                let progress = match (points.get(since), points.last()) {
                    (Some(first), Some(last)) => last.after - first.before,
                    _ => 0.0,
                };
                Perf {
                    provisional: self.rating_system.is_provisional(&r.rating),
                    pool: r.pool,
                    rating: r.rating.rating,
                    deviation: r.rating.deviation,
                    games: r.rating.games,
                    progress,
                }
            })
            .collect())
    }

    /// The player's rating in one pool and whether it is still
    /// provisional (a new player's where they have played no rated game
    /// there): what a challenge shows of its players.
    ///
    /// # Errors
    /// Storage.
    pub async fn pool_standing(&self, user: &User, pool: &str) -> Result<(f64, bool), Error> {
        let r = self.store.rating(&user.id, pool).await?;
        Ok((r.rating.rating, self.rating_system.is_provisional(&r.rating)))
    }

    /// The bot accounts, newest first (at most `limit`, capped at
    /// [`BOTS_LISTED`]), banned ones left out.
    ///
    /// # Errors
    /// Storage.
    pub async fn bots(&self, limit: i64) -> Result<Vec<User>, Error> {
        let mut bots = self.store.bots(limit.clamp(1, BOTS_LISTED)).await?;
        bots.retain(|u| !u.banned);
        Ok(bots)
    }
}
