//! Server nodes: each writes a heartbeat, so that after a crash it knows
//! when it stopped (and charges the clocks up to then only); and each holds
//! leases on the live games it owns (issue 29), so that several nodes on
//! one PostgreSQL never run the same game at once.
//!
//! A node's lease is its heartbeat: its live games are its own for as long
//! as its heartbeat is fresh (younger than the lease) and it has not
//! released them (a node that drains). After that any node may take a game
//! over, which raises the game's `lease_gen`. Renewing is the heartbeat a
//! node writes anyway — one row a second, however many games — so no game
//! row is locked to renew. The owner's writes carry its generation (a
//! [`Fence`]), and the move writer refuses a write whose generation is no
//! longer the row's: a frozen owner that wakes up after its game was taken
//! cannot write a move into it (Kleppmann's fencing tokens).

use crate::{Store, StoreError};
use sqlx::Row;

/// A node's right to write a game's moves: its name and the lease
/// generation it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    pub node: String,
    pub generation: i64,
}

impl Store {
    /// Takes a live game for `node`, if it is `node`'s already or its
    /// owner's lease has run out — a heartbeat older than `stale_before_ms`,
    /// none at all, or released — and raises its generation (a node that
    /// restarts is a new holder too). `None`: a live node holds it, or the
    /// game is not live.
    pub async fn take_lease(
        &self,
        game_id: &str,
        node: &str,
        stale_before_ms: i64,
    ) -> Result<Option<Fence>, StoreError> {
        let row = sqlx::query(
            "UPDATE games SET node = $1, lease_gen = lease_gen + 1 \
             WHERE id = $2 AND state = 'live' AND (node = $1 OR NOT EXISTS \
             (SELECT 1 FROM nodes n WHERE n.id = games.node AND n.heartbeat_ms >= $3 AND n.released = 0)) \
             RETURNING lease_gen",
        )
        .bind(node)
        .bind(game_id)
        .bind(stale_before_ms)
        .fetch_optional(&self.writer)
        .await?;
        Ok(row
            .map(|r| r.try_get::<i64, _>("lease_gen"))
            .transpose()?
            .map(|generation| Fence {
                node: node.to_string(),
                generation,
            }))
    }

    /// Whether `fence` is still the lease on live game `game_id`: a node
    /// that was slow (not frozen) may lose a game to another node while it
    /// still runs its task, and a refusal writes nothing for the fence to
    /// stop, so before refusing from what it holds the node asks. A game
    /// that ended here is still held (the task lingers after the end). A
    /// SQLite database has one node, whose leases nobody takes (its move
    /// writer checks no fence either): nothing to ask.
    pub async fn holds_lease(&self, game_id: &str, fence: &Fence) -> Result<bool, StoreError> {
        if self.backend == crate::Backend::Sqlite {
            return Ok(true);
        }
        let held: Option<i64> = sqlx::query_scalar("SELECT lease_gen FROM games WHERE id = $1 AND node = $2")
            .bind(game_id)
            .bind(&fence.node)
            .fetch_optional(&self.writer)
            .await?;
        Ok(held == Some(fence.generation))
    }

    /// Takes for `node` the unfinished events (tournaments) of nodes whose
    /// heartbeats went stale — older than `stale_before_ms`, none at all,
    /// or released — as [`Store::take_lease`] takes a game: the node that
    /// runs an event pairs its rounds and scores its games. Returns their
    /// ids.
    pub async fn take_orphaned_events(
        &self,
        node: &str,
        stale_before_ms: i64,
    ) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "UPDATE events SET node = $1 WHERE state <> 'finished' AND node <> $1 AND NOT EXISTS \
             (SELECT 1 FROM nodes n WHERE n.id = events.node AND n.heartbeat_ms >= $2 AND n.released = 0) \
             RETURNING id",
        )
        .bind(node)
        .bind(stale_before_ms)
        .fetch_all(&self.writer)
        .await?)
    }

    /// Live games of other nodes whose leases ran out (see
    /// [`Store::take_lease`]), the latest owner to stop first (at most
    /// `limit`): what a node takes over — a node that just died before
    /// games abandoned long ago.
    pub async fn orphaned_games(
        &self,
        node: &str,
        stale_before_ms: i64,
        limit: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.node FROM games g LEFT JOIN nodes n ON n.id = g.node \
             WHERE g.state = 'live' AND g.node <> $1 \
             AND (n.id IS NULL OR n.heartbeat_ms < $2 OR n.released <> 0) \
             ORDER BY COALESCE(n.heartbeat_ms, 0) DESC LIMIT $3",
        )
        .bind(node)
        .bind(stale_before_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("node")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Gives up `node`'s games at once (a node draining before it stops),
    /// so that the others take them without waiting for its heartbeat to
    /// go stale. Its next heartbeat (a restart) takes the release back.
    pub async fn release_leases(&self, node: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE nodes SET released = 1 WHERE id = $1")
            .bind(node)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Whether the database answers (a readiness probe's question).
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").fetch_one(&self.pool).await?;
        Ok(())
    }

    pub async fn heartbeat(&self, node: &str, now_ms: i64) -> Result<(), StoreError> {
        let updated = sqlx::query("UPDATE nodes SET heartbeat_ms = $1, released = 0 WHERE id = $2")
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
