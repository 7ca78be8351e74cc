//! Server nodes: each writes a heartbeat, so that after a crash it knows
//! when it stopped (and charges the clocks up to then only).

use crate::{Store, StoreError};
use sqlx::Row;

impl Store {
    /// Whether the database answers (a readiness probe's question).
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").fetch_one(&self.pool).await?;
        Ok(())
    }

    pub async fn heartbeat(&self, node: &str, now_ms: i64) -> Result<(), StoreError> {
        let updated = sqlx::query("UPDATE nodes SET heartbeat_ms = $1 WHERE id = $2")
            .bind(now_ms)
            .bind(node)
            .execute(&self.writer)
            .await?;
        if updated.rows_affected() == 0 {
            sqlx::query("INSERT INTO nodes (id, heartbeat_ms) VALUES ($1, $2)")
                .bind(node)
                .bind(now_ms)
                .execute(&self.writer)
                .await?;
        }
        Ok(())
    }

    /// The node's last heartbeat: when it was last known to be running.
    pub async fn last_heartbeat(&self, node: &str) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT heartbeat_ms FROM nodes WHERE id = $1")
            .bind(node)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get::<i64, _>("heartbeat_ms")).transpose()?)
    }
}
