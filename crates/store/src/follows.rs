//! Follows (issue 30, friends): who follows whom, and what the people a
//! player follows are playing. A follow is one-sided, as on lichess: no
//! one is asked, so the list says nothing the followed player did not
//! already show everyone (the lobby's names, the live games).

use crate::games::{game_from, GAME_COLS};
use crate::{GameRow, Store, StoreError};
use sqlx::Row;

/// What asking to follow did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Followed {
    /// A new follow.
    Now,
    /// Already followed: nothing changed (a double click is no error).
    Already,
    /// The follower follows `cap` players already.
    Full,
}

impl Store {
    /// `follower` follows `followed`, unless they follow `cap` players
    /// already. The cap is checked in the insert itself, so two follows at
    /// once cannot both pass it.
    pub async fn follow(
        &self,
        follower: &str,
        followed: &str,
        cap: usize,
        now_ms: i64,
    ) -> Result<Followed, StoreError> {
        if self.follows(follower, followed).await? {
            return Ok(Followed::Already);
        }
        let added = sqlx::query(
            "INSERT INTO follows (follower_id, followed_id, created_ms) \
             SELECT $1, $2, $3 WHERE (SELECT COUNT(*) FROM follows WHERE follower_id = $1) < $4 \
             ON CONFLICT DO NOTHING",
        )
        .bind(follower)
        .bind(followed)
        .bind(now_ms)
        .bind(i64::try_from(cap).unwrap_or(i64::MAX))
        .execute(&self.writer)
        .await?
        .rows_affected();
        Ok(if added == 1 {
            Followed::Now
        } else if self.follows(follower, followed).await? {
            Followed::Already
        } else {
            Followed::Full
        })
    }

    /// Whether `follower` follows `followed`.
    pub async fn follows(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("SELECT 1 FROM follows WHERE follower_id = $1 AND followed_id = $2")
                .bind(follower)
                .bind(followed)
                .fetch_optional(&self.writer)
                .await?
                .is_some(),
        )
    }

    /// Stops following; whether there was a follow to stop.
    pub async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("DELETE FROM follows WHERE follower_id = $1 AND followed_id = $2")
                .bind(follower)
                .bind(followed)
                .execute(&self.writer)
                .await?
                .rows_affected()
                == 1,
        )
    }

    /// The players `follower` follows, as (id, name), in name order.
    pub async fn following(&self, follower: &str) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT u.id AS id, u.name AS name FROM follows f JOIN users u ON u.id = f.followed_id \
             WHERE f.follower_id = $1 ORDER BY u.name_key",
        )
        .bind(follower)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("name")?)))
            .collect::<Result<_, sqlx::Error>>()?)
    }

    /// The live games of the players `follower` follows, the newest first:
    /// one query for the whole friends list.
    pub async fn live_games_of_followed(&self, follower: &str) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLS} FROM games WHERE state = 'live' AND \
             (first_id IN (SELECT followed_id FROM follows WHERE follower_id = $1) \
              OR second_id IN (SELECT followed_id FROM follows WHERE follower_id = $1)) \
             ORDER BY created_ms DESC"
        ))
        .bind(follower)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_from).collect::<Result<_, _>>()?)
    }
}
