//! Login sessions and bot tokens, stored by the hash of their token.

use crate::{Store, StoreError, User};
use sqlx::Row;

impl Store {
    pub async fn create_session(
        &self,
        token_hash: &str,
        user_id: &str,
        kind: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, kind, created_ms, expires_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(kind)
        .bind(now_ms)
        .bind(expires_ms)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// The user a live session of `kind` (`cookie` or `token`) belongs to:
    /// a browser's session is no bearer token, nor a bot's token a cookie.
    pub async fn session_user(
        &self,
        token_hash: &str,
        kind: &str,
        now_ms: i64,
    ) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(
            "SELECT user_id FROM sessions WHERE token_hash = $1 AND kind = $2 AND expires_ms > $3",
        )
        .bind(token_hash)
        .bind(kind)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(r) => self.user_by_id(&r.try_get::<String, _>("user_id")?).await,
            None => Ok(None),
        }
    }

    /// The owner and kind (`cookie` or `token`) of a session.
    pub async fn session_of(&self, token_hash: &str) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query("SELECT user_id, kind FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get("user_id")?, r.try_get("kind")?)),
            None => None,
        })
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Ends every session of a user, or only their bearer tokens
    /// (`kind = "token"`); returns how many.
    pub async fn delete_sessions_of(&self, user_id: &str, kind: Option<&str>) -> Result<u64, StoreError> {
        let r = match kind {
            Some(k) => {
                sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND kind = $2")
                    .bind(user_id)
                    .bind(k.to_string())
                    .execute(&self.writer)
                    .await?
            }
            None => {
                sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                    .bind(user_id)
                    .execute(&self.writer)
                    .await?
            }
        };
        Ok(r.rows_affected())
    }

    /// Of `token_hashes`, those of sessions still live: not ended, not
    /// expired, their account not banned (what open sockets are checked
    /// against, see `server::sessions`).
    pub async fn live_sessions(
        &self,
        token_hashes: &[String],
        now_ms: i64,
    ) -> Result<std::collections::HashSet<String>, StoreError> {
        let mut live = std::collections::HashSet::new();
        // A few hundred a query keep every backend's bind limit.
        for chunk in token_hashes.chunks(400) {
            let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT s.token_hash FROM sessions s JOIN users u ON u.id = s.user_id \
                 WHERE s.expires_ms > $1 AND u.banned = 0 AND s.token_hash IN ({})",
                marks.join(", ")
            );
            let mut q = sqlx::query(&sql).bind(now_ms);
            for h in chunk {
                q = q.bind(h.clone());
            }
            for r in q.fetch_all(&self.pool).await? {
                live.insert(r.try_get::<String, _>("token_hash")?);
            }
        }
        Ok(live)
    }
}
