//! Ratings per pool and their history.

use crate::{user_from, Store, StoreError, User};
use rating::PlayerRating;
use serde::Serialize;
use sqlx::any::AnyRow;
use sqlx::Row;

/// A player's rating in one pool, with the rated games against title
/// holders that count toward a title (seed 003).
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRating {
    pub pool: String,
    pub rating: PlayerRating,
    pub titled_games: u32,
}

/// A rating change to store with the game that caused it.
#[derive(Clone, Debug)]
pub struct RatingUpdate {
    pub user_id: String,
    pub pool: &'static str,
    pub before: PlayerRating,
    pub after: PlayerRating,
    /// Whether the opponent held a title: counts toward the 20 games.
    pub against_titled: bool,
}

/// One point of a player's rating history.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct RatingPoint {
    pub game_id: String,
    pub pool: String,
    pub system: String,
    pub before: f64,
    pub after: f64,
    pub at_ms: i64,
}

fn pool_rating_from(row: &AnyRow) -> Result<PoolRating, sqlx::Error> {
    let count = |c: &str| -> Result<u32, sqlx::Error> {
        Ok(u32::try_from(row.try_get::<i64, _>(c)?).unwrap_or(u32::MAX))
    };
    Ok(PoolRating {
        pool: row.try_get("pool")?,
        rating: PlayerRating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
            games: count("rated_games")?,
        },
        titled_games: count("titled_games")?,
    })
}

impl Store {
    /// A player's rating in `pool`: the stored one, or the starting rating
    /// for one who has not played a rated game there.
    pub async fn rating(&self, user_id: &str, pool: &str) -> Result<PoolRating, StoreError> {
        let row = sqlx::query(
            "SELECT pool, rating, deviation, volatility, rated_games, titled_games FROM ratings WHERE user_id = $1 AND pool = $2",
        )
        .bind(user_id)
        .bind(pool)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => pool_rating_from(&r)?,
            None => PoolRating {
                pool: pool.to_string(),
                rating: PlayerRating::default(),
                titled_games: 0,
            },
        })
    }

    /// Every pool a player has a rating in.
    pub async fn ratings_of(&self, user_id: &str) -> Result<Vec<PoolRating>, StoreError> {
        let rows = sqlx::query(
            "SELECT pool, rating, deviation, volatility, rated_games, titled_games FROM ratings WHERE user_id = $1 ORDER BY pool",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(pool_rating_from)
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The best-rated players of a pool who have played rated games there
    /// (guests never have): (user, their rating in the pool), best first,
    /// the first `skip` left out.
    pub async fn leaderboard(
        &self,
        pool: &str,
        skip: i64,
        limit: i64,
        established: (u32, f64),
    ) -> Result<Vec<(User, PoolRating)>, StoreError> {
        let rows = sqlx::query(
            "SELECT u.id, u.name, u.password_hash, u.guest, u.created_ms, u.awarded_title, u.real_title, u.muted, u.banned, u.bot, \
                    r.pool, r.rating, r.deviation, r.volatility, r.rated_games, r.titled_games \
             FROM ratings r JOIN users u ON u.id = r.user_id \
             WHERE r.pool = $1 AND r.rated_games > 0 AND r.rated_games >= $4 AND r.deviation <= $5 AND u.banned = 0 \
             ORDER BY r.rating DESC, u.name_key LIMIT $2 OFFSET $3",
        )
        .bind(pool.to_string())
        .bind(limit)
        .bind(skip)
        .bind(i64::from(established.0))
        .bind(established.1)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((user_from(r)?, pool_rating_from(r)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    pub async fn rating_history(&self, user_id: &str) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, pool, system, rating_before, rating_after, at_ms FROM rating_history WHERE user_id = $1 ORDER BY at_ms",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingPoint {
                    game_id: r.try_get("game_id")?,
                    pool: r.try_get("pool")?,
                    system: r.try_get("system")?,
                    before: r.try_get("rating_before")?,
                    after: r.try_get("rating_after")?,
                    at_ms: r.try_get("at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}
