//! The group commit of moves (see [`Store::append`]): a game's accepted
//! commands and moves, and the writers that commit many games' at once.

use crate::{Fence, Store, StoreError};
use sqlx::AnyPool;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// One game's commands and moves waiting to be committed.
pub(crate) struct AppendJob {
    pub(crate) game_id: String,
    pub(crate) first_seq: u64,
    pub(crate) commands: Vec<String>,
    /// The writing node's lease: the write is refused when it is no longer
    /// the game's (on PostgreSQL, where several nodes may write; a SQLite
    /// file has one node, whose writer does not check).
    pub(crate) fence: Option<Fence>,
    pub(crate) reply: oneshot::Sender<Result<(), StoreError>>,
}

/// What the move writer is asked.
pub(crate) enum WriterMsg {
    Append(AppendJob),
    /// Copy the rest of the write-ahead log into the database file (a
    /// SQLite file's writer; the others have no log to copy), then answer
    /// if asked to.
    Checkpoint(Option<oneshot::Sender<()>>),
    /// Commit what is queued, close, then answer.
    Stop(oneshot::Sender<()>),
}

/// Most jobs committed in one transaction.
pub(crate) const GROUP_COMMIT_MAX: usize = 256;

impl Store {
    /// Stores accepted session commands (JSON, numbered from `first_seq`)
    /// durably before returning. The primary key (game, seq) refuses a
    /// second write at the same place, so two writers can never fork a
    /// game. The command log is a live game's whole record: its moves
    /// (the `moves` table, what the archive reads) are written once, when
    /// it ends ([`Store::finish_game`]) — a move is one row in one table,
    /// not two (issue 29 item 6, docs/PERFORMANCE.md).
    ///
    /// Group commit: the writes of all games that arrive while one
    /// transaction commits go into the next one, so a thousand games moving
    /// at once cost a few transactions, not a thousand. On a SQLite file
    /// one thread with its own connection commits them (writer.rs):
    /// a move is one channel send there and one answer back, not a round
    /// trip to sqlx's worker thread per statement.
    pub async fn append(&self, game_id: &str, first_seq: u64, commands: &[String]) -> Result<(), StoreError> {
        self.append_fenced(None, game_id, first_seq, commands).await
    }

    /// As [`Store::append`], by the holder of `fence`: refused with
    /// [`StoreError::Fenced`], writing nothing, when another node has taken
    /// the game's lease since.
    pub async fn append_fenced(
        &self,
        fence: Option<&Fence>,
        game_id: &str,
        first_seq: u64,
        commands: &[String],
    ) -> Result<(), StoreError> {
        if commands.is_empty() {
            return Ok(());
        }
        let (reply, answer) = oneshot::channel();
        let job = AppendJob {
            game_id: game_id.to_string(),
            first_seq,
            commands: commands.to_vec(),
            fence: fence.cloned(),
            reply,
        };
        self.appends
            .send(WriterMsg::Append(job))
            .await
            .map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }
}

/// Copies the SQLite write-ahead log into the database file every second,
/// in two steps. First on a pool connection, beside the move writer: that
/// copies nearly all of the log without holding up a move. But beside a
/// busy writer a checkpoint never reaches the log's end, so SQLite never
/// starts the log over and the file grows without bound (1 GB in 40 s at
/// 2,800 moves a second, each frame written to a new block that the kernel
/// zeroes first). So the writer then copies the rest itself, between two
/// of its commits (writer.rs): only the frames of the last moment,
/// and then its next commit starts the log over. Never inside a commit, as
/// SQLite's automatic checkpoint would: that would stall whichever move
/// crossed the threshold. Ends when the writer is gone.
pub(crate) async fn checkpointer(pool: AnyPool, writer: mpsc::Sender<WriterMsg>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.tick().await;
    loop {
        tick.tick().await;
        if pool.is_closed() {
            break;
        }
        match checkpoint_once(&pool, &writer, false).await {
            Ok(()) => {}
            Err(StoreError::Closed) => break,
            Err(e) => tracing::warn!(error = %e, "WAL checkpoint failed"),
        }
    }
}

/// One round of [`checkpointer`]. `wait`: until the writer has copied the
/// rest; otherwise a writer whose queue is full is not asked (the next
/// round will do).
pub(crate) async fn checkpoint_once(
    pool: &AnyPool,
    writer: &mpsc::Sender<WriterMsg>,
    wait: bool,
) -> Result<(), StoreError> {
    if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").execute(pool).await {
        return Err(if pool.is_closed() {
            StoreError::Closed
        } else {
            e.into()
        });
    }
    if !wait {
        return match writer.try_send(WriterMsg::Checkpoint(None)) {
            Ok(()) | Err(mpsc::error::TrySendError::Full(_)) => Ok(()),
            Err(mpsc::error::TrySendError::Closed(_)) => Err(StoreError::Closed),
        };
    }
    let (ack, done) = oneshot::channel();
    writer
        .send(WriterMsg::Checkpoint(Some(ack)))
        .await
        .map_err(|_| StoreError::Closed)?;
    done.await.map_err(|_| StoreError::Closed)
}

/// Rows per multi-row `INSERT`: well under both databases' limits on
/// bound parameters (7 a move row).
pub(crate) const ROWS_PER_INSERT: usize = 128;

/// `INSERT INTO {table} ({columns}) VALUES ($1,…),($k,…),…` for `rows`
/// rows of `width` values each.
pub(crate) fn insert_sql(table: &str, columns: &str, width: usize, rows: usize) -> String {
    let mut sql = format!("INSERT INTO {table} ({columns}) VALUES ");
    for r in 0..rows {
        sql.push_str(if r == 0 { "(" } else { ",(" });
        for c in 0..width {
            if c > 0 {
                sql.push(',');
            }
            sql.push('$');
            sql.push_str(&(r * width + c + 1).to_string());
        }
        sql.push(')');
    }
    sql
}

/// Writes the jobs' commands with one multi-row `INSERT` (per
/// [`ROWS_PER_INSERT`] rows): each statement is a round trip to the
/// database's worker, so a group costs a handful of them, not one per move.
async fn write_jobs(tx: &mut sqlx::Transaction<'_, sqlx::Any>, jobs: &[AppendJob]) -> Result<(), StoreError> {
    check_fences(tx, jobs).await?;
    let commands: Vec<(&str, i64, &str)> = jobs
        .iter()
        .flat_map(|job| {
            job.commands.iter().enumerate().map(move |(i, body)| {
                let seq = i64::try_from(job.first_seq + i as u64).unwrap_or(i64::MAX);
                (job.game_id.as_str(), seq, body.as_str())
            })
        })
        .collect();
    for chunk in commands.chunks(ROWS_PER_INSERT) {
        let sql = insert_sql("commands", "game_id, seq, body", 3, chunk.len());
        let mut q = sqlx::query(&sql);
        for &(game, seq, body) in chunk {
            q = q.bind(game).bind(seq).bind(body);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Refuses the group when one of its fenced jobs' nodes no longer holds
/// the game's lease: one statement for the group, which on PostgreSQL also
/// locks the games' rows until the commit, so a node taking a lease over
/// waits for this commit, and this commit sees a taking that came first.
async fn check_fences(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    jobs: &[AppendJob],
) -> Result<(), StoreError> {
    let fenced: Vec<(&str, &Fence)> = jobs
        .iter()
        .filter_map(|j| j.fence.as_ref().map(|f| (j.game_id.as_str(), f)))
        .collect();
    for chunk in fenced.chunks(ROWS_PER_INSERT) {
        let mut sql = String::from("UPDATE games SET lease_gen = lease_gen WHERE ");
        for i in 0..chunk.len() {
            if i > 0 {
                sql.push_str(" OR ");
            }
            let k = 3 * i;
            sql.push_str(&format!(
                "(id = ${} AND node = ${} AND lease_gen = ${})",
                k + 1,
                k + 2,
                k + 3
            ));
        }
        sql.push_str(" RETURNING id");
        let mut q = sqlx::query(&sql);
        for &(game, f) in chunk {
            q = q.bind(game).bind(f.node.as_str()).bind(f.generation);
        }
        let held: std::collections::HashSet<String> = q
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(|r| sqlx::Row::try_get::<String, _>(r, "id"))
            .collect::<Result<_, _>>()?;
        if let Some(&(game, _)) = chunk.iter().find(|(g, _)| !held.contains(*g)) {
            return Err(StoreError::Fenced {
                game: game.to_string(),
            });
        }
    }
    Ok(())
}

async fn commit(writer: &AnyPool, postgres: bool, jobs: &[AppendJob]) -> Result<(), StoreError> {
    if postgres {
        return commit_in_one_statement(writer, jobs).await;
    }
    let mut tx = writer.begin().await?;
    write_jobs(&mut tx, jobs).await?;
    Ok(tx.commit().await?)
}

/// A group on PostgreSQL as one statement: the fence check and the
/// `INSERT` in one round trip, where the transaction of [`write_jobs`]
/// took four (`BEGIN`, the fence's `UPDATE`, the `INSERT`, `COMMIT`), each
/// a send, a wake-up and a reply for this process (issue 29 item 6,
/// docs/PERFORMANCE.md). The rows travel as JSON (the `Any` driver binds
/// no arrays) and the statement's text never changes, so it is prepared
/// once. One statement is one transaction: the `UPDATE` locks the fenced
/// games' rows as [`check_fences`] does, and when a fence no longer holds
/// the `INSERT` writes nothing (PostgreSQL runs a data-modifying `WITH`
/// whether or not the query reads its rows).
async fn commit_in_one_statement(writer: &AnyPool, jobs: &[AppendJob]) -> Result<(), StoreError> {
    const SQL: &str = "WITH f AS (\
            UPDATE games g SET lease_gen = g.lease_gen \
            FROM json_to_recordset($1::json) AS x(id text, node text, gen bigint) \
            WHERE g.id = x.id AND g.node = x.node AND g.lease_gen = x.gen RETURNING g.id), \
        ok AS (SELECT count(*) = $2 AS ok FROM f), \
        c AS (INSERT INTO commands (game_id, seq, body) \
            SELECT x.g, x.s, x.b FROM json_to_recordset($3::json) AS x(g text, s bigint, b text) \
            WHERE (SELECT ok FROM ok) RETURNING 1) \
        SELECT (SELECT ok FROM ok) AS ok, \
            COALESCE((SELECT string_agg(id, ' ') FROM f), '') AS held";
    use serde_json::json;
    // A game once, should a group ever hold two of its jobs.
    let mut fenced: Vec<(&str, &Fence)> = jobs
        .iter()
        .filter_map(|j| j.fence.as_ref().map(|f| (j.game_id.as_str(), f)))
        .collect();
    fenced.sort_unstable_by_key(|(g, _)| *g);
    fenced.dedup_by_key(|(g, _)| *g);
    let fences: Vec<_> = fenced
        .iter()
        .map(|(g, f)| json!({"id": g, "node": f.node, "gen": f.generation}))
        .collect();
    let commands: Vec<_> = jobs
        .iter()
        .flat_map(|job| {
            job.commands.iter().enumerate().map(move |(i, body)| {
                let seq = i64::try_from(job.first_seq + i as u64).unwrap_or(i64::MAX);
                json!({"g": job.game_id, "s": seq, "b": body})
            })
        })
        .collect();
    let row = sqlx::query(SQL)
        .bind(serde_json::Value::Array(fences).to_string())
        .bind(i64::try_from(fenced.len()).unwrap_or(i64::MAX))
        .bind(serde_json::Value::Array(commands).to_string())
        .fetch_one(writer)
        .await?;
    if sqlx::Row::try_get::<bool, _>(&row, "ok")? {
        return Ok(());
    }
    let held: String = sqlx::Row::try_get(&row, "held")?;
    let held: std::collections::HashSet<&str> = held.split(' ').collect();
    let game = fenced
        .iter()
        .find(|(g, _)| !held.contains(*g))
        .map_or_else(String::new, |(g, _)| (*g).to_string());
    Err(StoreError::Fenced { game })
}

/// The writer task on PostgreSQL (and an in-memory SQLite database; a
/// SQLite file has its own thread, writer.rs): takes every job waiting, commits them in one
/// transaction and answers each. If the group fails (one bad job, e.g. a
/// duplicate ply), each job is retried alone so only the bad one fails.
pub(crate) async fn group_commit(writer: AnyPool, postgres: bool, mut queue: mpsc::Receiver<WriterMsg>) {
    let mut jobs = Vec::with_capacity(GROUP_COMMIT_MAX);
    let mut stopped = None;
    while stopped.is_none() {
        match queue.recv().await {
            None => break,
            Some(WriterMsg::Stop(ack)) => stopped = Some(ack),
            Some(WriterMsg::Append(j)) => jobs.push(j),
            Some(WriterMsg::Checkpoint(ack)) => drop(ack.map(|a| a.send(()))),
        }
        while stopped.is_none() && jobs.len() < GROUP_COMMIT_MAX {
            match queue.try_recv() {
                Ok(WriterMsg::Append(j)) => jobs.push(j),
                Ok(WriterMsg::Stop(ack)) => stopped = Some(ack),
                Ok(WriterMsg::Checkpoint(ack)) => drop(ack.map(|a| a.send(()))),
                Err(_) => break,
            }
        }
        if jobs.is_empty() {
            continue;
        }
        if jobs.len() > 1 && commit(&writer, postgres, &jobs).await.is_ok() {
            for j in jobs.drain(..) {
                let _ = j.reply.send(Ok(()));
            }
            continue;
        }
        for j in jobs.drain(..) {
            let r = commit(&writer, postgres, std::slice::from_ref(&j)).await;
            let _ = j.reply.send(r);
        }
    }
    if let Some(ack) = stopped {
        let _ = ack.send(());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multi_row_inserts_number_their_parameters_in_order() {
        assert_eq!(
            insert_sql("t", "a, b", 2, 1),
            "INSERT INTO t (a, b) VALUES ($1,$2)"
        );
        assert_eq!(
            insert_sql("t", "a, b", 2, 3),
            "INSERT INTO t (a, b) VALUES ($1,$2),($3,$4),($5,$6)"
        );
    }
}
