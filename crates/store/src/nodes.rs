//! Server nodes: each writes a heartbeat, so that after a crash it knows
//! when it stopped (and charges the clocks up to then only); and each holds
//! leases on the live games it owns (issue 29), so that several nodes on
//! one PostgreSQL never run the same game at once.
//!
//! A lease is the `node`, `lease_gen` and `lease_until_ms` of a live game's
//! row. The owner renews all of its leases at once; any node may take a
//! lease that has run out (the owner died, or froze), and taking raises
//! the generation. The owner's writes carry its generation (a [`Fence`]),
//! and the move writer refuses a write whose generation is no longer the
//! row's: a frozen owner that wakes up after its game was taken cannot
//! write a move into it (Kleppmann's fencing tokens).

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
    /// Takes the lease of a live game for `node` until `until_ms`, if it is
    /// `node`'s already or has run out by `now_ms`; raises its generation
    /// (a node that restarts is a new holder too). `None`: another node
    /// holds it, or the game is not live.
    pub async fn take_lease(
        &self,
        game_id: &str,
        node: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<Option<Fence>, StoreError> {
        let row = sqlx::query(
            "UPDATE games SET node = $1, lease_gen = lease_gen + 1, lease_until_ms = $2 \
             WHERE id = $3 AND state = 'live' AND (node = $1 OR lease_until_ms < $4) RETURNING lease_gen",
        )
        .bind(node)
        .bind(until_ms)
        .bind(game_id)
        .bind(now_ms)
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

    /// Renews every lease `node` holds until `until_ms`; how many. One that
    /// ran out but was not taken is renewed too: nobody else wrote the
    /// game meanwhile, and the row's lock orders a renewal and a taking,
    /// so one of them finds the row no longer as it asked.
    pub async fn renew_leases(&self, node: &str, until_ms: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("UPDATE games SET lease_until_ms = $1 WHERE node = $2 AND state = 'live'")
            .bind(until_ms)
            .bind(node)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected())
    }

    /// Live games of other nodes whose leases ran out by `now_ms`, the
    /// latest to run out first (at most `limit`): what a node takes over
    /// from a dead one — a node that just died before games abandoned
    /// long ago.
    pub async fn orphaned_games(
        &self,
        node: &str,
        now_ms: i64,
        limit: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, node FROM games WHERE state = 'live' AND node <> $1 AND lease_until_ms < $2 \
             ORDER BY lease_until_ms DESC LIMIT $3",
        )
        .bind(node)
        .bind(now_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("node")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Gives up `node`'s leases at once (a node draining before it
    /// stops), so that the others take its games without waiting for them
    /// to run out.
    pub async fn release_leases(&self, node: &str) -> Result<u64, StoreError> {
        let done = sqlx::query("UPDATE games SET lease_until_ms = 0 WHERE node = $1 AND state = 'live'")
            .bind(node)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected())
    }

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
