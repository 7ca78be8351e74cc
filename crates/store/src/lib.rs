//! The database: the only crate of qiju that speaks SQL. One [`Store`] over
//! SQLite (the default, an embedded file) or PostgreSQL, through sqlx's
//! `Any` driver so every query is written once; one module per concept
//! (accounts, sessions, games and moves, ratings, moderation, analyses,
//! follows, events, nodes), each returning typed rows. No other crate writes a query.
//!
//! The SQL sticks to what both understand: `$1` placeholders, BIGINT,
//! DOUBLE PRECISION and TEXT columns, ids made by the server (no
//! auto-increment). Migrations live in `migrations/sqlite` and
//! `migrations/postgres` and run on every start; [`integrity`] decides
//! before that whether a database may be opened at all.

mod accounts;
mod analyses;
mod append;
mod events;
mod follows;
mod games;
pub mod integrity;
mod moderation;
mod nodes;
mod ratings;
mod schema;
mod sessions;
mod teams;
mod writer;

use accounts::user_from;
pub use accounts::User;
use append::{checkpoint_once, checkpointer, group_commit, WriterMsg};
pub use events::{ArenaGameRow, ArmageddonChoiceRow, EntryRow, EventRow, LogRow, MatchGameRow, PairingRow};
pub use follows::Followed;
pub use games::{GameEnd, GameRow, MoveRow, PlayerResult};
pub use moderation::{NewReport, Report};
pub use nodes::Fence;
pub use ratings::{PoolRating, RatingPoint, RatingUpdate};
pub use teams::{FoulRow, LineupRow, TeamRow};

use sqlx::any::AnyPoolOptions;
use sqlx::migrate::Migrator;
use sqlx::AnyPool;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

/// What can go wrong talking to the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("unsupported database URL {0:?} (expected sqlite://FILE or postgres://...)")]
    BadUrl(String),
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// From the SQLite move writer's own connection (writer.rs).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("the database writer has stopped")]
    Closed,
    #[error("corrupt row in {table}: {detail}")]
    Corrupt { table: &'static str, detail: String },
    /// A write refused because the writing node no longer holds the
    /// game's lease: another node took it (see `nodes`).
    #[error("game {game}: this node no longer holds its lease (another node took it over)")]
    Fenced { game: String },
    /// The database is not one this server may open (see `integrity`).
    #[error("the database {file} {why}")]
    Refused { file: String, why: String },
}

/// The database failing under a room: the API's `internal` error, the
/// cause kept for the log.
impl From<StoreError> for common::Error {
    fn from(e: StoreError) -> common::Error {
        common::Error::Storage(Box::new(e))
    }
}

/// Which database the store talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Turns what the operator typed into a sqlx URL: a bare file name means an
/// SQLite file, created when missing.
pub fn normalise_url(url: &str) -> Result<(String, Backend), StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok((url.to_string(), Backend::Postgres));
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    if path.is_empty() || path.contains("://") {
        return Err(StoreError::BadUrl(url.to_string()));
    }
    let sep = if path.contains('?') { '&' } else { '?' };
    let with_mode = if path.contains("mode=") {
        path.to_string()
    } else {
        format!("{path}{sep}mode=rwc")
    };
    Ok((format!("sqlite://{with_mode}"), Backend::Sqlite))
}

/// SQLite's `synchronous` setting (the server runs SQLite in WAL mode).
/// Every setting keeps every acknowledged move through a crash of the
/// server process (kill -9): the commit has written it to the log file.
/// They differ when the operating system itself crashes or power fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SqliteSync {
    /// Never fsync: fastest; an OS crash may lose recent moves or, rarely,
    /// corrupt the file.
    Off,
    /// fsync at checkpoints only (the default): an OS crash may lose the
    /// last moves, never corrupts.
    #[default]
    Normal,
    /// fsync every commit: nothing acknowledged is ever lost.
    Full,
}

impl std::str::FromStr for SqliteSync {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "off" => Ok(SqliteSync::Off),
            "normal" => Ok(SqliteSync::Normal),
            "full" => Ok(SqliteSync::Full),
            _ => Err(format!(
                "unknown SQLite sync mode {s:?} (expected off, normal or full)"
            )),
        }
    }
}

/// The database handle, cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    /// Reads.
    pool: AnyPool,
    /// Writes. On SQLite one connection: SQLite has one writer anyway, and
    /// queueing here (fairly, without sleeping) beats SQLite's busy-wait
    /// back-off, which sleeps for milliseconds under contention.
    writer: AnyPool,
    /// The group-commit queue for moves (see [`Store::append`]): on a
    /// SQLite file a thread with its own connection (writer.rs), on
    /// PostgreSQL a task over `writer`.
    appends: mpsc::Sender<WriterMsg>,
    backend: Backend,
}

impl Store {
    /// Connects, creating the SQLite file if needed, and migrates.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, SqliteSync::Normal).await
    }

    /// Like [`Store::connect`], choosing SQLite's durability.
    pub async fn connect_with(url: &str, sync: SqliteSync) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let (url, backend) = normalise_url(url)?;
        let file = integrity::sqlite_file(&url);
        if let Some(f) = &file {
            integrity::before_open(f)?;
            integrity::inspect(&url, f, false).await?.refuse_if_bad(f)?;
        }
        let sync_pragma = match sync {
            SqliteSync::Off => "PRAGMA synchronous=OFF",
            SqliteSync::Normal => "PRAGMA synchronous=NORMAL",
            SqliteSync::Full => "PRAGMA synchronous=FULL",
        };
        let options = AnyPoolOptions::new()
            .acquire_timeout(Duration::from_secs(10))
            // SQLite has one writer anyway; a few connections serve reads.
            .max_connections(match backend {
                Backend::Sqlite => 4,
                Backend::Postgres => 16,
            });
        let options = if backend == Backend::Sqlite {
            options.after_connect(move |conn, _| {
                Box::pin(async move {
                    // WAL: a committed move is in the log file the moment
                    // the commit returns, so it survives a killed process
                    // with any `synchronous` setting; the setting decides
                    // what survives an operating-system crash or power cut
                    // (see SqliteSync). busy_timeout waits for the single
                    // writer instead of failing.
                    sqlx::query("PRAGMA journal_mode=WAL").execute(&mut *conn).await?;
                    sqlx::query(sync_pragma).execute(&mut *conn).await?;
                    // Checkpoints (which fsync) run in a background task,
                    // not in the middle of a move's commit: see connect().
                    sqlx::query("PRAGMA wal_autocheckpoint=0")
                        .execute(&mut *conn)
                        .await?;
                    // The log cut back when it starts over, as the move
                    // writer's (writer.rs).
                    sqlx::query("PRAGMA journal_size_limit=67108864")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("PRAGMA busy_timeout=10000")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("PRAGMA foreign_keys=ON").execute(&mut *conn).await?;
                    Ok(())
                })
            })
        } else {
            options
        };
        let pool = options.clone().connect(&url).await?;
        let writer = match backend {
            Backend::Sqlite => options.max_connections(1).connect(&url).await?,
            Backend::Postgres => pool.clone(),
        };
        let migrated = match backend {
            Backend::Sqlite => SQLITE_MIGRATIONS.run(&writer).await,
            Backend::Postgres => POSTGRES_MIGRATIONS.run(&writer).await,
        };
        match migrated {
            Ok(()) => {}
            Err(sqlx::migrate::MigrateError::VersionMissing(v)) => {
                return Err(StoreError::Refused {
                    file: file.map_or_else(|| "(PostgreSQL)".into(), |f| f.display().to_string()),
                    why: format!(
                        "was written by a newer qiju (its schema has migration {v}, which this binary does not know); run the newer binary or restore a backup"
                    ),
                })
            }
            Err(e) => return Err(e.into()),
        }
        Store::fill_name_skeletons(&writer).await?;
        let shown = match (&file, backend) {
            (Some(f), _) => f.display().to_string(),
            (None, Backend::Sqlite) => "(in memory)".into(),
            (None, Backend::Postgres) => "(PostgreSQL)".into(),
        };
        schema::check(&writer, backend, &shown).await?;
        let (appends, queue) = mpsc::channel(4096);
        match &file {
            Some(f) => {
                writer::spawn(writer::open(f, sync)?, queue)?;
                tokio::spawn(checkpointer(pool.clone(), appends.clone()));
            }
            // An in-memory SQLite database or PostgreSQL.
            None => {
                tokio::spawn(group_commit(writer.clone(), backend == Backend::Postgres, queue));
            }
        }
        Ok(Store {
            pool,
            writer,
            appends,
            backend,
        })
    }

    /// Opens a database to look at it only (`qiju admin check`): no
    /// migration, no writer; SQLite files are opened read-only.
    ///
    /// # Errors
    /// The database cannot be opened.
    pub async fn open_read_only(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let (url, backend) = normalise_url(url)?;
        let url = match backend {
            Backend::Sqlite => url.replace("mode=rwc", "mode=ro"),
            Backend::Postgres => url,
        };
        let pool = AnyPoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(10))
            .connect(&url)
            .await?;
        // Nothing is ever appended: the receiver is dropped at once.
        let (appends, _) = mpsc::channel(1);
        Ok(Store {
            writer: pool.clone(),
            pool,
            appends,
            backend,
        })
    }

    /// The migrations applied to this database, and those this binary
    /// knows, by version.
    ///
    /// # Errors
    /// The migration table cannot be read.
    pub async fn schema_versions(&self) -> Result<(Vec<i64>, Vec<i64>), StoreError> {
        let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
            .fetch_all(&self.pool)
            .await?;
        let known = match self.backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        };
        Ok((applied, known.iter().map(|m| m.version).collect()))
    }

    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Copies a SQLite file's write-ahead log into the database file now,
    /// as the background checkpointer does every second, and returns when
    /// the log will start over at the next commit. Nothing to do on
    /// PostgreSQL or in memory.
    pub async fn checkpoint(&self) -> Result<(), StoreError> {
        match self.backend {
            Backend::Sqlite => checkpoint_once(&self.pool, &self.appends, true).await,
            Backend::Postgres => Ok(()),
        }
    }

    pub async fn close(&self) {
        let (ack, stopped) = oneshot::channel();
        if self.appends.send(WriterMsg::Stop(ack)).await.is_ok() {
            let _ = stopped.await;
        }
        self.pool.close().await;
        self.writer.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_normalise() {
        assert_eq!(
            normalise_url("qiju.db").unwrap(),
            ("sqlite://qiju.db?mode=rwc".to_string(), Backend::Sqlite)
        );
        assert_eq!(
            normalise_url("sqlite://x.db?mode=ro").unwrap().0,
            "sqlite://x.db?mode=ro"
        );
        assert_eq!(normalise_url("postgres://u@h/db").unwrap().1, Backend::Postgres);
        assert!(normalise_url("mysql://h/db").is_err());
    }
}
