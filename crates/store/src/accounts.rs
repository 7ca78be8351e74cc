//! Accounts: players and guests, their names, settings and titles.

use crate::{Store, StoreError};
use rating::PlayerRating;
use serde::{Deserialize, Serialize};
use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};

/// A registered player or a guest. It crosses the bus (issue 29) without
/// its secrets and its sanctions, which only its own node's reads carry.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct User {
    pub id: String,
    pub name: String,
    #[serde(skip)]
    pub password_hash: Option<String>,
    pub guest: bool,
    pub created_ms: i64,
    pub awarded_title: Option<String>,
    pub real_title: Option<String>,
    /// Muted by an operator: their chat reaches nobody but themselves.
    #[serde(skip)]
    pub muted: bool,
    /// Banned by an operator: they cannot log in.
    #[serde(skip)]
    pub banned: bool,
    /// Upgraded to a bot account (lichess's Bot API, issue 32): for good.
    #[serde(default)]
    pub bot: bool,
}

const USER_COLS: &str =
    "id, name, password_hash, guest, created_ms, awarded_title, real_title, muted, banned, bot";

pub(crate) fn user_from(row: &AnyRow) -> Result<User, sqlx::Error> {
    Ok(User {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        guest: row.try_get::<i64, _>("guest")? != 0,
        created_ms: row.try_get("created_ms")?,
        awarded_title: row.try_get("awarded_title")?,
        real_title: row.try_get("real_title")?,
        muted: row.try_get::<i64, _>("muted")? != 0,
        banned: row.try_get::<i64, _>("banned")? != 0,
        bot: row.try_get::<i64, _>("bot")? != 0,
    })
}

impl Store {
    /// Inserts a user; `Ok(None)` when the name is taken.
    pub async fn create_user(
        &self,
        id: &str,
        name: &str,
        password_hash: Option<&str>,
        guest: bool,
        now_ms: i64,
    ) -> Result<Option<User>, StoreError> {
        let r = PlayerRating::default();
        let res = sqlx::query(
            "INSERT INTO users (id, name, name_key, name_skeleton, password_hash, guest, created_ms, rating, deviation, volatility, rated_games, titled_games)
             VALUES ($1, $2, $3, $10, $4, $5, $6, $7, $8, $9, 0, 0)",
        )
        .bind(id)
        .bind(name)
        .bind(common::names::key(name))
        .bind(password_hash.map(str::to_string))
        .bind(i64::from(guest))
        .bind(now_ms)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(common::names::skeleton(name))
        .execute(&self.writer)
        .await;
        match res {
            Ok(_) => self.user_by_id(id).await,
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// An account whose name reads like `name` (the same skeleton,
    /// [`common::names::skeleton`]), if any.
    pub async fn user_looking_like(&self, name: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLS} FROM users WHERE name_skeleton = $1 LIMIT 1"
        ))
        .bind(common::names::skeleton(name))
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(user_from).transpose()?)
    }

    /// Fills in the skeleton of the names written before migration 0011.
    pub(crate) async fn fill_name_skeletons(writer: &AnyPool) -> Result<(), StoreError> {
        let rows = sqlx::query("SELECT id, name FROM users WHERE name_skeleton IS NULL")
            .fetch_all(writer)
            .await?;
        for r in rows {
            let (id, name): (String, String) = (r.try_get("id")?, r.try_get("name")?);
            sqlx::query("UPDATE users SET name_skeleton = $1 WHERE id = $2")
                .bind(common::names::skeleton(&name))
                .bind(id)
                .execute(writer)
                .await?;
        }
        Ok(())
    }

    pub async fn user_by_id(&self, id: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(&format!("SELECT {USER_COLS} FROM users WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(user_from).transpose()?)
    }

    pub async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(&format!("SELECT {USER_COLS} FROM users WHERE name_key = $1"))
            .bind(common::names::key(name))
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(user_from).transpose()?)
    }

    /// A player's stored settings (JSON), if any.
    pub async fn settings(&self, user_id: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar::<_, Option<String>>("SELECT settings FROM users WHERE id = $1")
                .bind(user_id)
                .fetch_optional(&self.pool)
                .await?
                .flatten(),
        )
    }

    /// Stores a player's settings (JSON).
    pub async fn set_settings(&self, user_id: &str, json: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET settings = $1 WHERE id = $2")
            .bind(json.to_string())
            .bind(user_id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Sets or clears the awarded and real-world titles (operator action).
    pub async fn set_titles(
        &self,
        user_id: &str,
        awarded: Option<&str>,
        real: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET awarded_title = $1, real_title = $2 WHERE id = $3")
            .bind(awarded.map(str::to_string))
            .bind(real.map(str::to_string))
            .bind(user_id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Makes an account a bot account (for good); `false` when there is no
    /// such registered account (guests are never bots).
    pub async fn set_bot(&self, user_id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE users SET bot = 1 WHERE id = $1 AND guest = 0")
            .bind(user_id)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The bot accounts, newest first, at most `limit`.
    pub async fn bots(&self, limit: i64) -> Result<Vec<User>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {USER_COLS} FROM users WHERE bot = 1 ORDER BY created_ms DESC, id LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(user_from).collect::<Result<_, _>>()?)
    }

    /// Registered players whose name (compared by key) starts with
    /// `prefix`, by name, at most `limit`.
    pub async fn search_users(&self, prefix: &str, limit: i64) -> Result<Vec<User>, StoreError> {
        // LIKE's wildcards in a name (`_` is allowed) are matched as themselves.
        let pattern = format!(
            "{}%",
            common::names::key(prefix)
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        let rows = sqlx::query(&format!(
            "SELECT {USER_COLS} FROM users WHERE name_key LIKE $1 ESCAPE '\\' AND guest = 0 ORDER BY name_key LIMIT $2"
        ))
        .bind(pattern)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(user_from).collect::<Result<_, _>>()?)
    }
}
