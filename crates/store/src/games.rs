//! Games and their moves: the rows of live and finished games, the
//! command log a live game replays from, and the archive's reads.

use crate::{RatingUpdate, Store, StoreError};
use serde::Serialize;
use sqlx::any::AnyRow;
use sqlx::Row;
use std::collections::HashMap;

/// A game as its row stores it.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    pub node: String,
    pub variant: String,
    pub initial_fen: String,
    pub time_control: String,
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub rated: bool,
    pub first_id: Option<String>,
    pub second_id: Option<String>,
    pub first_name: String,
    pub second_name: String,
    pub first_rating: Option<f64>,
    pub second_rating: Option<f64>,
    pub computer: Option<String>,
    pub state: String,
    pub result: Option<String>,
    pub winner: Option<String>,
    pub reason: Option<String>,
    pub detail: Option<String>,
    pub article: Option<String>,
    pub created_ms: i64,
    pub ended_ms: Option<i64>,
    pub first_ms: i64,
    pub second_ms: i64,
    /// `online` or `arbiter` (registry::Profile).
    pub rules_profile: String,
    /// How long each side has for its first move before the game is
    /// aborted (an event's forfeit time, seed 000 21.1); 0: the node's
    /// window.
    pub first_move_ms: i64,
}

/// How a finished game went for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerResult {
    Win,
    Draw,
    Loss,
}

impl GameRow {
    /// Whether `user_id` plays the first side (`Some(true)`), the second,
    /// or is not in this game.
    fn plays_first(&self, user_id: &str) -> Option<bool> {
        if self.first_id.as_deref() == Some(user_id) {
            Some(true)
        } else if self.second_id.as_deref() == Some(user_id) {
            Some(false)
        } else {
            None
        }
    }

    /// The other player's id (`None` for the computer or an outsider).
    #[must_use]
    pub fn opponent_of(&self, user_id: &str) -> Option<&str> {
        match self.plays_first(user_id)? {
            true => self.second_id.as_deref(),
            false => self.first_id.as_deref(),
        }
    }

    /// How the game went for `user_id`; `None` while it is live, when it
    /// was aborted, or when they are not in it.
    #[must_use]
    pub fn result_for(&self, user_id: &str) -> Option<PlayerResult> {
        let first = self.plays_first(user_id)?;
        if self.state != "over" {
            return None;
        }
        Some(match self.winner.as_deref() {
            None => PlayerResult::Draw,
            Some(w) if (w == "first") == first => PlayerResult::Win,
            Some(_) => PlayerResult::Loss,
        })
    }
}

/// A stored move with the clocks right after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveRow {
    pub ply: u32,
    pub coord: String,
    pub display: String,
    pub played_ms: i64,
    pub first_ms: i64,
    pub second_ms: i64,
}

/// How a game ended, as stored.
#[derive(Clone, Debug)]
pub struct GameEnd {
    pub state: &'static str,
    pub result: Option<String>,
    pub winner: Option<String>,
    pub reason: String,
    pub detail: String,
    pub article: Option<String>,
    pub ended_ms: i64,
    pub first_ms: i64,
    pub second_ms: i64,
}

pub(crate) const GAME_COLS: &str = "id, node, variant, initial_fen, time_control, initial_ms, increment_ms, rated, first_id, second_id, first_name, second_name, first_rating, second_rating, computer, state, result, winner, reason, detail, article, created_ms, ended_ms, first_ms, second_ms, rules_profile, first_move_ms";

pub(crate) fn game_from(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get("id")?,
        node: row.try_get("node")?,
        variant: row.try_get("variant")?,
        initial_fen: row.try_get("initial_fen")?,
        time_control: row.try_get("time_control")?,
        initial_ms: row.try_get("initial_ms")?,
        increment_ms: row.try_get("increment_ms")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        first_id: row.try_get("first_id")?,
        second_id: row.try_get("second_id")?,
        first_name: row.try_get("first_name")?,
        second_name: row.try_get("second_name")?,
        first_rating: row.try_get("first_rating")?,
        second_rating: row.try_get("second_rating")?,
        computer: row.try_get("computer")?,
        state: row.try_get("state")?,
        result: row.try_get("result")?,
        winner: row.try_get("winner")?,
        reason: row.try_get("reason")?,
        detail: row.try_get("detail")?,
        article: row.try_get("article")?,
        created_ms: row.try_get("created_ms")?,
        ended_ms: row.try_get("ended_ms")?,
        first_ms: row.try_get("first_ms")?,
        second_ms: row.try_get("second_ms")?,
        rules_profile: row.try_get("rules_profile")?,
        first_move_ms: row.try_get("first_move_ms")?,
    })
}

fn move_from(row: &AnyRow) -> Result<MoveRow, sqlx::Error> {
    Ok(MoveRow {
        ply: u32::try_from(row.try_get::<i64, _>("ply")?).unwrap_or(0),
        coord: row.try_get("coord")?,
        display: row.try_get("display")?,
        played_ms: row.try_get("played_ms")?,
        first_ms: row.try_get("first_ms")?,
        second_ms: row.try_get("second_ms")?,
    })
}

impl Store {
    /// Games by state, e.g. `[("live", 3), ("over", 120)]`.
    ///
    /// # Errors
    /// The games table cannot be read.
    pub async fn games_by_state(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query("SELECT state, COUNT(*) AS n FROM games GROUP BY state ORDER BY state")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("state")?, r.try_get("n")?)))
            .collect()
    }

    /// The ids of the games in `state`.
    ///
    /// # Errors
    /// The games table cannot be read.
    pub async fn game_ids_in(&self, state: &str) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT id FROM games WHERE state = $1 ORDER BY id")
                .bind(state.to_string())
                .fetch_all(&self.pool)
                .await?,
        )
    }

    /// The first `plies` moves of each game, in order: `(coord, display)`
    /// by game id (the archive's opening column and filter).
    pub async fn openings(
        &self,
        game_ids: &[String],
        plies: i64,
    ) -> Result<HashMap<String, Vec<(String, String)>>, StoreError> {
        let mut out: HashMap<String, Vec<(String, String)>> = HashMap::new();
        // A few hundred ids a query keep every backend's bind limit.
        for chunk in game_ids.chunks(400) {
            let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT game_id, coord, display FROM moves WHERE ply <= $1 AND game_id IN ({}) ORDER BY game_id, ply",
                marks.join(", ")
            );
            let mut q = sqlx::query(&sql).bind(plies);
            for id in chunk {
                q = q.bind(id.clone());
            }
            for r in q.fetch_all(&self.pool).await? {
                out.entry(r.try_get("game_id")?)
                    .or_default()
                    .push((r.try_get("coord")?, r.try_get("display")?));
            }
        }
        Ok(out)
    }

    /// Marks a game whose rows cannot be read: it is no longer resumed,
    /// and `detail` says why.
    pub async fn mark_damaged(&self, id: &str, why: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET state = 'damaged', detail = $1 WHERE id = $2")
            .bind(why.to_string())
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// The node that owns live game `id` (the holder of its lease); `None`
    /// when the game is not live.
    pub async fn live_game_node(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT node FROM games WHERE id = $1 AND state = 'live'")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// A game's state column alone (`live`, `over`, `aborted`, `damaged`),
    /// readable even when the rest of its row is not.
    pub async fn game_state(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT state FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// A game's detail column (for a damaged game: why).
    pub async fn game_detail(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar::<_, Option<String>>("SELECT detail FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?
                .flatten(),
        )
    }

    /// Live games, the highest sum of ratings first (the computer's
    /// missing rating counts 0).
    pub async fn live_games(&self, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLS} FROM games WHERE state = 'live' \
             ORDER BY COALESCE(first_rating, 0) + COALESCE(second_rating, 0) DESC, created_ms DESC LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_from).collect::<Result<_, _>>()?)
    }

    /// The time controls of the live games `user_id` plays.
    pub async fn live_time_controls(&self, user_id: &str) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT time_control FROM games WHERE state = 'live' AND (first_id = $1 OR second_id = $1)",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// How many live games `user_id` plays against the computer.
    pub async fn live_computer_games(&self, user_id: &str) -> Result<usize, StoreError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM games WHERE state = 'live' AND computer IS NOT NULL AND (first_id = $1 OR second_id = $1)",
        )
        .bind(user_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// The ratings travel as text, cast in SQL: sqlx 0.8's `Any` driver
    /// binds a missing `f64` as a PostgreSQL `float4` null, and a
    /// connection whose cached statement took that type then failed the
    /// next game's 8-byte rating ("incorrect binary data format in bind
    /// parameter 13"): a challenge after a game against the computer
    /// answered 500 now and then. Text has one type either way, and Rust
    /// prints an `f64` so that it reads back exactly.
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        insert_game_on(&self.writer, g).await
    }

    /// As [`Store::insert_game`], for a game made for event `event_id`:
    /// the game's row and which event it is for are one write, so that a
    /// node that dies before the event links the game leaves a game the
    /// restart can find ([`Store::live_event_games`]).
    pub async fn insert_event_game(&self, g: &GameRow, event_id: &str) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        insert_game_on(&mut *tx, g).await?;
        sqlx::query("INSERT INTO event_games (game_id, event_id) VALUES ($1, $2)")
            .bind(&g.id)
            .bind(event_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The live games made for `event_id`.
    pub async fn live_event_games(&self, event_id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT e.game_id FROM event_games e JOIN games g ON g.id = e.game_id \
             WHERE e.event_id = $1 AND g.state = 'live' ORDER BY e.game_id",
        )
        .bind(event_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("game_id"))
            .collect::<Result<_, _>>()?)
    }
}

async fn insert_game_on<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    ex: E,
    g: &GameRow,
) -> Result<(), StoreError> {
    {
        sqlx::query(&format!(
            "INSERT INTO games ({GAME_COLS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,\
             CAST($13 AS DOUBLE PRECISION),CAST($14 AS DOUBLE PRECISION),$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27)"
        ))
        .bind(&g.id)
        .bind(&g.node)
        .bind(&g.variant)
        .bind(&g.initial_fen)
        .bind(&g.time_control)
        .bind(g.initial_ms)
        .bind(g.increment_ms)
        .bind(i64::from(g.rated))
        .bind(g.first_id.clone())
        .bind(g.second_id.clone())
        .bind(&g.first_name)
        .bind(&g.second_name)
        .bind(g.first_rating.map(|r| r.to_string()))
        .bind(g.second_rating.map(|r| r.to_string()))
        .bind(g.computer.clone())
        .bind(&g.state)
        .bind(g.result.clone())
        .bind(g.winner.clone())
        .bind(g.reason.clone())
        .bind(g.detail.clone())
        .bind(g.article.clone())
        .bind(g.created_ms)
        .bind(g.ended_ms)
        .bind(g.first_ms)
        .bind(g.second_ms)
        .bind(&g.rules_profile)
        .bind(g.first_move_ms)
        .execute(ex)
        .await?;
    }
    Ok(())
}

impl Store {
    /// A game's command log, in order.
    pub async fn commands(&self, game_id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT seq, body FROM commands WHERE game_id = $1 ORDER BY seq")
            .bind(game_id)
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let seq: i64 = r.try_get("seq")?;
            if seq != i as i64 {
                return Err(StoreError::Corrupt {
                    table: "commands",
                    detail: format!("game {game_id} is missing command {i}"),
                });
            }
            out.push(r.try_get::<String, _>("body")?);
        }
        Ok(out)
    }

    /// Archives a finished game with its moves (`record`: the game's
    /// record, which its command log held while it was live; see
    /// [`Store::append`]) and, in the same transaction, applies the rating
    /// changes it caused. A game archived already is left as it is.
    pub async fn finish_game(
        &self,
        game_id: &str,
        end: &GameEnd,
        system: &str,
        ratings: &[RatingUpdate],
        record: &[MoveRow],
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        let archived = sqlx::query(
            "UPDATE games SET state=$1, result=$2, winner=$3, reason=$4, detail=$5, article=$6, ended_ms=$7, first_ms=$8, second_ms=$9 WHERE id=$10 AND state='live'",
        )
        .bind(end.state)
        .bind(end.result.clone())
        .bind(end.winner.clone())
        .bind(&end.reason)
        .bind(&end.detail)
        .bind(end.article.clone())
        .bind(end.ended_ms)
        .bind(end.first_ms)
        .bind(end.second_ms)
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
        if archived.rows_affected() == 0 {
            return Ok(());
        }
        // Rows an older qiju wrote move by move while the game was live go;
        // the record is the game's now.
        sqlx::query("DELETE FROM moves WHERE game_id = $1")
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        for chunk in record.chunks(crate::append::ROWS_PER_INSERT) {
            let sql = crate::append::insert_sql(
                "moves",
                "game_id, ply, coord, display, played_ms, first_ms, second_ms",
                7,
                chunk.len(),
            );
            let mut q = sqlx::query(&sql);
            for m in chunk {
                q = q
                    .bind(game_id)
                    .bind(i64::from(m.ply))
                    .bind(m.coord.as_str())
                    .bind(m.display.as_str())
                    .bind(m.played_ms)
                    .bind(m.first_ms)
                    .bind(m.second_ms);
            }
            q.execute(&mut *tx).await?;
        }
        for u in ratings {
            sqlx::query(
                "INSERT INTO ratings (user_id, pool, rating, deviation, volatility, rated_games, titled_games)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (user_id, pool) DO UPDATE SET rating = excluded.rating,
                     deviation = excluded.deviation, volatility = excluded.volatility,
                     rated_games = excluded.rated_games,
                     titled_games = ratings.titled_games + excluded.titled_games",
            )
            .bind(&u.user_id)
            .bind(u.pool)
            .bind(u.after.rating)
            .bind(u.after.deviation)
            .bind(u.after.volatility)
            .bind(i64::from(u.after.games))
            .bind(i64::from(u.against_titled))
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history (game_id, user_id, pool, system, rating_before, rating_after, at_ms) VALUES ($1,$2,$3,$4,$5,$6,$7)",
            )
            .bind(game_id)
            .bind(&u.user_id)
            .bind(u.pool)
            .bind(system)
            .bind(u.before.rating)
            .bind(u.after.rating)
            .bind(end.ended_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn game(&self, id: &str) -> Result<Option<(GameRow, Vec<MoveRow>)>, StoreError> {
        let row = sqlx::query(&format!("SELECT {GAME_COLS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let g = game_from(&row)?;
        let moves = self.moves(id).await?;
        Ok(Some((g, moves)))
    }

    pub async fn moves(&self, game_id: &str) -> Result<Vec<MoveRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT ply, coord, display, played_ms, first_ms, second_ms FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        let moves = rows.iter().map(move_from).collect::<Result<Vec<_>, _>>()?;
        for (i, m) in moves.iter().enumerate() {
            if m.ply as usize != i + 1 {
                return Err(StoreError::Corrupt {
                    table: "moves",
                    detail: format!("game {game_id} is missing ply {}", i + 1),
                });
            }
        }
        Ok(moves)
    }

    /// Ids of the live games a node owns (to resume after a restart).
    pub async fn live_game_ids(&self, node: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE state = 'live' AND node = $1")
            .bind(node)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get::<String, _>("id"))
            .collect::<Result<_, _>>()?)
    }

    /// The live games `user_id` plays, newest first, at most `limit`.
    pub async fn live_games_of(&self, user_id: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLS} FROM games WHERE state = 'live' AND (first_id = $1 OR second_id = $1) \
             ORDER BY created_ms DESC LIMIT $2"
        ))
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_from).collect::<Result<_, _>>()?)
    }

    /// A player's games, newest first.
    pub async fn games_of(&self, user_id: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLS} FROM games WHERE first_id = $1 OR second_id = $1 ORDER BY created_ms DESC LIMIT $2"
        ))
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_from).collect::<Result<_, _>>()?)
    }
}
