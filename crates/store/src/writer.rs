//! The SQLite move writer: one thread that owns one connection of its own
//! and commits the appends of all games in groups (see `Store::append`).
//!
//! Through sqlx every statement is a round trip to the connection's worker
//! thread (a channel send and two thread wake-ups), so a group commit of
//! four statements cost eight hand-offs between threads on top of the
//! group-commit task's own. Here a move costs one channel send to this
//! thread and one reply; the statements are prepared once and run in place.
//!
//! The connection has the same settings as sqlx's (WAL, the operator's
//! `synchronous`, no automatic checkpoint, foreign keys), so a move is
//! exactly as durable as before: the reply is sent after `COMMIT` returned.

use crate::append::{AppendJob, WriterMsg, GROUP_COMMIT_MAX};
use crate::{SqliteSync, StoreError};
use rusqlite::{params, Connection, OpenFlags, TransactionBehavior};
use std::path::Path;
use std::time::Duration;
use tokio::sync::mpsc;

/// The size the write-ahead log is cut back to when it starts over (a
/// second of a busy server's moves is about 25 MB).
const JOURNAL_LIMIT: u64 = 64 << 20;

/// The move writer's page cache, KiB.
const WRITER_CACHE_KIB: u32 = 64 << 10;

/// How long the writer waits for another writer (sqlx's connection, which
/// writes games, players and results) before a commit fails: as sqlx's
/// `busy_timeout`.
const BUSY_WAIT: Duration = Duration::from_secs(10);

/// Between two tries at a lock another connection holds. SQLite's own busy
/// handler sleeps 1, 2, 5, 10 … ms; the other writer's transactions are
/// short, so a move does not wait milliseconds for one.
const BUSY_STEP: Duration = Duration::from_micros(100);

fn busy(tries: i32) -> bool {
    let waited = BUSY_STEP * u32::try_from(tries).unwrap_or(u32::MAX);
    if waited >= BUSY_WAIT {
        return false;
    }
    std::thread::sleep(BUSY_STEP);
    true
}

/// Runs a pragma, ignoring the row some of them answer with.
fn pragma(conn: &Connection, pragma: &str) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare(&format!("PRAGMA {pragma}"))?;
    let mut rows = stmt.query([])?;
    while rows.next()?.is_some() {}
    Ok(())
}

/// Opens the writer's connection to a migrated database `file`.
pub(super) fn open(file: &Path, sync: SqliteSync) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(
        file,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    pragma(&conn, "journal_mode=WAL")?;
    pragma(
        &conn,
        match sync {
            SqliteSync::Off => "synchronous=OFF",
            SqliteSync::Normal => "synchronous=NORMAL",
            SqliteSync::Full => "synchronous=FULL",
        },
    )?;
    // Checkpoints run in this thread between commits (`run`), when
    // append.rs's `checkpointer` asks.
    pragma(&conn, "wal_autocheckpoint=0")?;
    pragma(&conn, &format!("journal_size_limit={JOURNAL_LIMIT}"))?;

    // Every live game appends to its own leaf page of `commands`: 10,000
    // games keep ~10,000 pages hot, 40 MB. SQLite's default
    // cache of 2 MB re-read them from the file at every commit (4 reads a
    // move under 3,000 games); this cache holds them. It grows only as
    // pages are used.
    pragma(&conn, &format!("cache_size=-{}", WRITER_CACHE_KIB))?;
    pragma(&conn, "foreign_keys=ON")?;
    conn.busy_handler(Some(busy))?;
    Ok(conn)
}

/// Starts the writer thread on `conn`; it ends on [`WriterMsg::Stop`] or
/// when every sender is gone.
pub(super) fn spawn(conn: Connection, queue: mpsc::Receiver<WriterMsg>) -> Result<(), StoreError> {
    std::thread::Builder::new()
        .name("qiju-sqlite-writer".into())
        .spawn(move || run(conn, queue))
        .map(|_| ())
        .map_err(|_| StoreError::Closed)
}

/// Takes every job waiting, commits them in one transaction and answers
/// each. If the group fails (one bad job, e.g. a duplicate ply), each job
/// is retried alone so only the bad one fails.
fn run(mut conn: Connection, mut queue: mpsc::Receiver<WriterMsg>) {
    let mut jobs = Vec::with_capacity(GROUP_COMMIT_MAX);
    let mut stopped = None;
    while stopped.is_none() {
        let mut checkpoint = false;
        let mut acks = Vec::new();
        match queue.blocking_recv() {
            None => break,
            Some(WriterMsg::Stop(ack)) => stopped = Some(ack),
            Some(WriterMsg::Append(j)) => jobs.push(j),
            Some(WriterMsg::Checkpoint(ack)) => {
                checkpoint = true;
                acks.extend(ack);
            }
        }
        while stopped.is_none() && jobs.len() < GROUP_COMMIT_MAX {
            match queue.try_recv() {
                Ok(WriterMsg::Append(j)) => jobs.push(j),
                Ok(WriterMsg::Stop(ack)) => stopped = Some(ack),
                Ok(WriterMsg::Checkpoint(ack)) => {
                    checkpoint = true;
                    acks.extend(ack);
                }
                Err(_) => break,
            }
        }
        if jobs.len() > 1 && commit(&mut conn, &jobs).is_ok() {
            for j in jobs.drain(..) {
                let _ = j.reply.send(Ok(()));
            }
        }
        for j in jobs.drain(..) {
            let r = commit(&mut conn, std::slice::from_ref(&j)).map_err(StoreError::from);
            let _ = j.reply.send(r);
        }
        // After the group's replies, so that no move waits for it. The
        // checkpointer has just copied most of the log; this copies what
        // was committed meanwhile, reaching the log's end as no commit of
        // this thread runs beside it, so that the next commit starts the
        // log over from its first frame (reusing the file's blocks, cut to
        // JOURNAL_LIMIT).
        if checkpoint {
            if let Err(e) = pragma(&conn, "wal_checkpoint(PASSIVE)") {
                tracing::warn!(error = %e, "WAL checkpoint failed");
            }
            for a in acks {
                let _ = a.send(());
            }
        }
    }
    // The whole log copied into the database file and the log emptied
    // before the answer: a stopped server leaves one complete file, whoever
    // of its connections happens to close last (SQLite copies the log on
    // the last close only, which the pool's connections may do after this
    // answer — a copy of the file taken then missed whole tables).
    if stopped.is_some() {
        if let Err(e) = pragma(&conn, "wal_checkpoint(TRUNCATE)") {
            tracing::warn!(error = %e, "final WAL checkpoint failed");
        }
    }
    // Closed before the answer, so that whoever stopped the store may open
    // the file again at once.
    drop(conn);
    if let Some(ack) = stopped {
        let _ = ack.send(());
    }
}

/// Writes the jobs' commands in one transaction.
fn commit(conn: &mut Connection, jobs: &[AppendJob]) -> rusqlite::Result<()> {
    // IMMEDIATE: the write lock is taken (or waited for) at BEGIN, never
    // refused half-way through.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    {
        let mut insert =
            tx.prepare_cached("INSERT INTO commands (game_id, seq, body) VALUES (?1, ?2, ?3)")?;
        for job in jobs {
            for (i, body) in job.commands.iter().enumerate() {
                let seq = i64::try_from(job.first_seq + i as u64).unwrap_or(i64::MAX);
                insert.execute(params![job.game_id, seq, body])?;
            }
        }
    }
    tx.commit()
}
