//! Computer reviews of finished games: requested, queued, done or failed.

use crate::{Store, StoreError};
use sqlx::Row;

impl Store {
    /// A game's review: its state (`queued`, `done`, `failed`) and, when
    /// done, the review as JSON.
    pub async fn analysis(&self, game_id: &str) -> Result<Option<(String, Option<String>)>, StoreError> {
        let row = sqlx::query("SELECT state, result FROM analyses WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get(0)?, r.try_get(1)?)),
            None => None,
        })
    }

    /// Records a requested review (`queued`); a failed one is asked again.
    /// Returns false when the game already has one queued or done.
    pub async fn request_analysis(
        &self,
        game_id: &str,
        user_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        sqlx::query("DELETE FROM analyses WHERE game_id = $1 AND state = 'failed'")
            .bind(game_id)
            .execute(&self.writer)
            .await?;
        let r = sqlx::query(
            "INSERT INTO analyses (game_id, requested_by, state, created_ms) VALUES ($1, $2, 'queued', $3) \
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(user_id)
        .bind(now_ms)
        .execute(&self.writer)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Ends a review: `done` with its JSON, or `failed`.
    pub async fn finish_analysis(
        &self,
        game_id: &str,
        result: Option<&str>,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE analyses SET state = $1, result = $2, finished_ms = $3 WHERE game_id = $4")
            .bind(if result.is_some() { "done" } else { "failed" })
            .bind(result.map(str::to_string))
            .bind(now_ms)
            .bind(game_id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// How many reviews a player asked for since `since_ms`.
    pub async fn analyses_requested_since(&self, user_id: &str, since_ms: i64) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM analyses WHERE requested_by = $1 AND created_ms >= $2",
        )
        .bind(user_id)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?)
    }

    /// Reviews not finished when the server stopped, oldest first: (game,
    /// requester).
    pub async fn queued_analyses(&self) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, requested_by FROM analyses WHERE state = 'queued' ORDER BY created_ms",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).collect()
    }
}
