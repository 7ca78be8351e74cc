//! Moderation: reported chat lines, mutes and bans.

use crate::{Store, StoreError};
use sqlx::Row;

/// A reported chat line, for the operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub reporter: String,
    pub reported: String,
    /// `lobby`, or the game the line was said in.
    pub context: String,
    /// The reporter's reason: `abuse`, `spam`, `cheating` or `other`.
    pub reason: String,
    pub text: String,
    pub created_ms: i64,
}

/// A report to file: who reports whom, where, why and what was said.
#[derive(Clone, Copy, Debug)]
pub struct NewReport<'a> {
    pub id: &'a str,
    pub reporter_id: &'a str,
    pub reported_id: &'a str,
    pub context: &'a str,
    pub reason: &'a str,
    pub text: &'a str,
    pub now_ms: i64,
}

impl Store {
    /// Mutes or unmutes a player's chat (operator action).
    pub async fn set_muted(&self, user_id: &str, muted: bool) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET muted = $1 WHERE id = $2")
            .bind(i64::from(muted))
            .bind(user_id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Bans or lets back a player (operator action); a ban ends their
    /// sessions and bot tokens too.
    pub async fn set_banned(&self, user_id: &str, banned: bool) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET banned = $1 WHERE id = $2")
            .bind(i64::from(banned))
            .bind(user_id)
            .execute(&self.writer)
            .await?;
        if banned {
            self.delete_sessions_of(user_id, None).await?;
        }
        Ok(())
    }

    /// Files a report of a chat line.
    pub async fn add_report(&self, r: &NewReport<'_>) -> Result<(), StoreError> {
        let NewReport {
            id,
            reporter_id,
            reported_id,
            context,
            reason,
            text,
            now_ms,
        } = *r;
        sqlx::query(
            "INSERT INTO reports (id, reporter_id, reported_id, context, reason, text, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(reporter_id)
        .bind(reported_id)
        .bind(context)
        .bind(reason)
        .bind(text)
        .bind(now_ms)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// How many reports a player filed since `since_ms`.
    pub async fn reports_filed_since(&self, reporter_id: &str, since_ms: i64) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM reports WHERE reporter_id = $1 AND created_ms >= $2",
        )
        .bind(reporter_id)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?)
    }

    /// The newest reports first, at most `limit`.
    pub async fn reports(&self, limit: i64) -> Result<Vec<Report>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name AS reporter, b.name AS reported, r.context, r.reason, r.text, r.created_ms FROM reports r \
             JOIN users a ON a.id = r.reporter_id JOIN users b ON b.id = r.reported_id \
             ORDER BY r.created_ms DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Report {
                    reporter: r.try_get("reporter")?,
                    reported: r.try_get("reported")?,
                    context: r.try_get("context")?,
                    reason: r.try_get("reason")?,
                    text: r.try_get("text")?,
                    created_ms: r.try_get("created_ms")?,
                })
            })
            .collect()
    }
}
