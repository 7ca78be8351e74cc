//! The database: one [`Store`] over SQLite (the default, an embedded file)
//! or PostgreSQL, through sqlx's `Any` driver so every query is written once.
//!
//! The SQL sticks to what both understand: `$1` placeholders, BIGINT,
//! DOUBLE PRECISION and TEXT columns, ids made by the server (no
//! auto-increment). Migrations live in `migrations/sqlite` and
//! `migrations/postgres` and run on every start.

use rating::PlayerRating;
use serde::Serialize;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::Migrator;
use sqlx::{AnyPool, Row};
use std::collections::HashMap;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

mod writer;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

/// What can go wrong talking to the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("unsupported database URL {0:?} (expected sqlite://FILE or postgres://...)")]
    BadUrl(String),
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// From the SQLite move writer's own connection (store/writer.rs).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("the database writer has stopped")]
    Closed,
    #[error("corrupt row in {table}: {detail}")]
    Corrupt { table: &'static str, detail: String },
    /// The database is not one this server may open (see `integrity`).
    #[error("the database {file} {why}")]
    Refused { file: String, why: String },
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

/// A registered player or a guest.
#[derive(Clone, Debug, Serialize)]
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
}

/// A reported chat line, for the operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub reporter: String,
    pub reported: String,
    /// `lobby`, or the game the line was said in.
    pub context: String,
    pub text: String,
    pub created_ms: i64,
}

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

/// A player's rating in one pool, with the rated games against title
/// holders that count toward a title (seed 003).
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRating {
    pub pool: String,
    pub rating: PlayerRating,
    pub titled_games: u32,
}

/// A rating change to store with the game that caused it.
#[derive(Clone, Debug)]
pub struct RatingUpdate {
    pub user_id: String,
    pub pool: &'static str,
    pub before: PlayerRating,
    pub after: PlayerRating,
    /// Whether the opponent held a title: counts toward the 20 games.
    pub against_titled: bool,
}

/// One point of a player's rating history.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct RatingPoint {
    pub game_id: String,
    pub pool: String,
    pub system: String,
    pub before: f64,
    pub after: f64,
    pub at_ms: i64,
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
    /// SQLite file a thread with its own connection (store/writer.rs), on
    /// PostgreSQL a task over `writer`.
    appends: mpsc::Sender<WriterMsg>,
    backend: Backend,
}

/// One game's commands and moves waiting to be committed.
struct AppendJob {
    game_id: String,
    first_seq: u64,
    commands: Vec<String>,
    moves: Vec<MoveRow>,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// What the move writer is asked.
enum WriterMsg {
    Append(AppendJob),
    /// Copy the rest of the write-ahead log into the database file (a
    /// SQLite file's writer; the others have no log to copy), then answer
    /// if asked to.
    Checkpoint(Option<oneshot::Sender<()>>),
    /// Commit what is queued, close, then answer.
    Stop(oneshot::Sender<()>),
}

/// Most jobs committed in one transaction.
const GROUP_COMMIT_MAX: usize = 256;

const USER_COLS: &str =
    "id, name, password_hash, guest, created_ms, awarded_title, real_title, muted, banned";
const GAME_COLS: &str = "id, node, variant, initial_fen, time_control, initial_ms, increment_ms, rated, first_id, second_id, first_name, second_name, first_rating, second_rating, computer, state, result, winner, reason, detail, article, created_ms, ended_ms, first_ms, second_ms, rules_profile";

fn user_from(row: &AnyRow) -> Result<User, sqlx::Error> {
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
    })
}

fn pool_rating_from(row: &AnyRow) -> Result<PoolRating, sqlx::Error> {
    let count = |c: &str| -> Result<u32, sqlx::Error> {
        Ok(u32::try_from(row.try_get::<i64, _>(c)?).unwrap_or(u32::MAX))
    };
    Ok(PoolRating {
        pool: row.try_get("pool")?,
        rating: PlayerRating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
            games: count("rated_games")?,
        },
        titled_games: count("titled_games")?,
    })
}

fn game_from(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
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
    /// Connects, creating the SQLite file if needed, and migrates.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, SqliteSync::Normal).await
    }

    /// Like [`Store::connect`], choosing SQLite's durability.
    pub async fn connect_with(url: &str, sync: SqliteSync) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let (url, backend) = normalise_url(url)?;
        let file = crate::integrity::sqlite_file(&url);
        if let Some(f) = &file {
            crate::integrity::before_open(f)?;
            crate::integrity::inspect(&url, f, false)
                .await?
                .refuse_if_bad(f)?;
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
                    // writer's (store/writer.rs).
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
        let (appends, queue) = mpsc::channel(4096);
        match &file {
            Some(f) => {
                writer::spawn(writer::open(f, sync)?, queue)?;
                tokio::spawn(checkpointer(pool.clone(), appends.clone()));
            }
            // An in-memory SQLite database or PostgreSQL.
            None => {
                tokio::spawn(group_commit(writer.clone(), queue));
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

    // ----- users -----

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
        .bind(crate::names::key(name))
        .bind(password_hash.map(str::to_string))
        .bind(i64::from(guest))
        .bind(now_ms)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(crate::names::skeleton(name))
        .execute(&self.writer)
        .await;
        match res {
            Ok(_) => self.user_by_id(id).await,
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// An account whose name reads like `name` (the same skeleton,
    /// [`crate::names::skeleton`]), if any.
    pub async fn user_looking_like(&self, name: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLS} FROM users WHERE name_skeleton = $1 LIMIT 1"
        ))
        .bind(crate::names::skeleton(name))
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(user_from).transpose()?)
    }

    /// Fills in the skeleton of the names written before migration 0011.
    async fn fill_name_skeletons(writer: &AnyPool) -> Result<(), StoreError> {
        let rows = sqlx::query("SELECT id, name FROM users WHERE name_skeleton IS NULL")
            .fetch_all(writer)
            .await?;
        for r in rows {
            let (id, name): (String, String) = (r.try_get("id")?, r.try_get("name")?);
            sqlx::query("UPDATE users SET name_skeleton = $1 WHERE id = $2")
                .bind(crate::names::skeleton(&name))
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
            .bind(crate::names::key(name))
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(user_from).transpose()?)
    }

    /// Mutes or unmutes a player's chat (operator action).
    pub async fn set_muted(&self, user_id: &str, muted: bool) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET muted = $1 WHERE id = $2")
            .bind(i64::from(muted))
            .bind(user_id)
            .execute(&self.writer)
            .await?;
        Ok(())
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
    pub async fn add_report(
        &self,
        id: &str,
        reporter_id: &str,
        reported_id: &str,
        context: &str,
        text: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO reports (id, reporter_id, reported_id, context, text, created_ms) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(reporter_id)
        .bind(reported_id)
        .bind(context)
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
            "SELECT a.name AS reporter, b.name AS reported, r.context, r.text, r.created_ms FROM reports r \
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
                    text: r.try_get("text")?,
                    created_ms: r.try_get("created_ms")?,
                })
            })
            .collect()
    }

    /// A game's review: its state (`queued`, `done`, `failed`) and, when
    /// done, the review as JSON.
    pub async fn analysis(&self, game_id: &str) -> Result<Option<(String, Option<String>)>, StoreError> {
        let row = sqlx::query("SELECT state, result FROM analyses WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get(0)?, r.try_get(1)?)),
            None => None,
        })
    }

    /// Records a requested review (`queued`); a failed one is asked again.
    /// Returns false when the game already has one queued or done.
    pub async fn request_analysis(
        &self,
        game_id: &str,
        user_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        sqlx::query("DELETE FROM analyses WHERE game_id = $1 AND state = 'failed'")
            .bind(game_id)
            .execute(&self.writer)
            .await?;
        let r = sqlx::query(
            "INSERT INTO analyses (game_id, requested_by, state, created_ms) VALUES ($1, $2, 'queued', $3) \
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(user_id)
        .bind(now_ms)
        .execute(&self.writer)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Ends a review: `done` with its JSON, or `failed`.
    pub async fn finish_analysis(
        &self,
        game_id: &str,
        result: Option<&str>,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE analyses SET state = $1, result = $2, finished_ms = $3 WHERE game_id = $4")
            .bind(if result.is_some() { "done" } else { "failed" })
            .bind(result.map(str::to_string))
            .bind(now_ms)
            .bind(game_id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// How many reviews a player asked for since `since_ms`.
    pub async fn analyses_requested_since(&self, user_id: &str, since_ms: i64) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM analyses WHERE requested_by = $1 AND created_ms >= $2",
        )
        .bind(user_id)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?)
    }

    /// Reviews not finished when the server stopped, oldest first: (game,
    /// requester).
    pub async fn queued_analyses(&self) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, requested_by FROM analyses WHERE state = 'queued' ORDER BY created_ms",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).collect()
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

    // ----- sessions -----

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

    /// The user a live session token belongs to.
    pub async fn session_user(&self, token_hash: &str, now_ms: i64) -> Result<Option<User>, StoreError> {
        let row = sqlx::query("SELECT user_id FROM sessions WHERE token_hash = $1 AND expires_ms > $2")
            .bind(token_hash)
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

    // ----- games -----

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

    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO games ({GAME_COLS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26)"
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
        .bind(g.first_rating)
        .bind(g.second_rating)
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
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Stores accepted session commands (JSON, numbered from `first_seq`)
    /// and the moves they made, durably, before returning. The primary keys
    /// (game, seq) and (game, ply) refuse a second write at the same place,
    /// so two writers can never fork a game.
    ///
    /// Group commit: the writes of all games that arrive while one
    /// transaction commits go into the next one, so a thousand games moving
    /// at once cost a few transactions, not a thousand. On a SQLite file
    /// one thread with its own connection commits them (store/writer.rs):
    /// a move is one channel send there and one answer back, not a round
    /// trip to sqlx's worker thread per statement.
    pub async fn append(
        &self,
        game_id: &str,
        first_seq: u64,
        commands: &[String],
        moves: &[MoveRow],
    ) -> Result<(), StoreError> {
        if commands.is_empty() && moves.is_empty() {
            return Ok(());
        }
        let (reply, answer) = oneshot::channel();
        let job = AppendJob {
            game_id: game_id.to_string(),
            first_seq,
            commands: commands.to_vec(),
            moves: moves.to_vec(),
            reply,
        };
        self.appends
            .send(WriterMsg::Append(job))
            .await
            .map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }

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

    /// Archives a finished game and, in the same transaction, applies the
    /// rating changes it caused.
    pub async fn finish_game(
        &self,
        game_id: &str,
        end: &GameEnd,
        system: &str,
        ratings: &[RatingUpdate],
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        sqlx::query(
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

    /// A player's rating in `pool`: the stored one, or the starting rating
    /// for one who has not played a rated game there.
    pub async fn rating(&self, user_id: &str, pool: &str) -> Result<PoolRating, StoreError> {
        let row = sqlx::query(
            "SELECT pool, rating, deviation, volatility, rated_games, titled_games FROM ratings WHERE user_id = $1 AND pool = $2",
        )
        .bind(user_id)
        .bind(pool)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => pool_rating_from(&r)?,
            None => PoolRating {
                pool: pool.to_string(),
                rating: PlayerRating::default(),
                titled_games: 0,
            },
        })
    }

    /// Every pool a player has a rating in.
    pub async fn ratings_of(&self, user_id: &str) -> Result<Vec<PoolRating>, StoreError> {
        let rows = sqlx::query(
            "SELECT pool, rating, deviation, volatility, rated_games, titled_games FROM ratings WHERE user_id = $1 ORDER BY pool",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(pool_rating_from)
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The best-rated players of a pool who have played rated games there
    /// (guests never have): (user, their rating in the pool), best first,
    /// the first `skip` left out.
    pub async fn leaderboard(
        &self,
        pool: &str,
        skip: i64,
        limit: i64,
    ) -> Result<Vec<(User, PoolRating)>, StoreError> {
        let rows = sqlx::query(
            "SELECT u.id, u.name, u.password_hash, u.guest, u.created_ms, u.awarded_title, u.real_title, u.muted, u.banned, \
                    r.pool, r.rating, r.deviation, r.volatility, r.rated_games, r.titled_games \
             FROM ratings r JOIN users u ON u.id = r.user_id \
             WHERE r.pool = $1 AND r.rated_games > 0 AND u.banned = 0 ORDER BY r.rating DESC, u.name_key LIMIT $2 OFFSET $3",
        )
        .bind(pool.to_string())
        .bind(limit)
        .bind(skip)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((user_from(r)?, pool_rating_from(r)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Registered players whose name (compared by key) starts with
    /// `prefix`, by name, at most `limit`.
    pub async fn search_users(&self, prefix: &str, limit: i64) -> Result<Vec<User>, StoreError> {
        // LIKE's wildcards in a name (`_` is allowed) are matched as themselves.
        let pattern = format!(
            "{}%",
            crate::names::key(prefix)
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

    pub async fn rating_history(&self, user_id: &str) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, pool, system, rating_before, rating_after, at_ms FROM rating_history WHERE user_id = $1 ORDER BY at_ms",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingPoint {
                    game_id: r.try_get("game_id")?,
                    pool: r.try_get("pool")?,
                    system: r.try_get("system")?,
                    before: r.try_get("rating_before")?,
                    after: r.try_get("rating_after")?,
                    at_ms: r.try_get("at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    // ----- nodes -----

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

/// Copies the SQLite write-ahead log into the database file every second,
/// in two steps. First on a pool connection, beside the move writer: that
/// copies nearly all of the log without holding up a move. But beside a
/// busy writer a checkpoint never reaches the log's end, so SQLite never
/// starts the log over and the file grows without bound (1 GB in 40 s at
/// 2,800 moves a second, each frame written to a new block that the kernel
/// zeroes first). So the writer then copies the rest itself, between two
/// of its commits (store/writer.rs): only the frames of the last moment,
/// and then its next commit starts the log over. Never inside a commit, as
/// SQLite's automatic checkpoint would: that would stall whichever move
/// crossed the threshold. Ends when the writer is gone.
async fn checkpointer(pool: AnyPool, writer: mpsc::Sender<WriterMsg>) {
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
async fn checkpoint_once(
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
const ROWS_PER_INSERT: usize = 128;

/// `INSERT INTO {table} ({columns}) VALUES ($1,…),($k,…),…` for `rows`
/// rows of `width` values each.
fn insert_sql(table: &str, columns: &str, width: usize, rows: usize) -> String {
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

/// Writes the jobs' commands and moves with one multi-row `INSERT` per
/// table (per [`ROWS_PER_INSERT`] rows): each statement is a round trip to
/// the database's worker, so a group costs a handful of them, not two per
/// move.
async fn write_jobs(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    jobs: &[AppendJob],
) -> Result<(), sqlx::Error> {
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
    let moves: Vec<(&str, &MoveRow)> = jobs
        .iter()
        .flat_map(|job| job.moves.iter().map(move |m| (job.game_id.as_str(), m)))
        .collect();
    for chunk in moves.chunks(ROWS_PER_INSERT) {
        let sql = insert_sql(
            "moves",
            "game_id, ply, coord, display, played_ms, first_ms, second_ms",
            7,
            chunk.len(),
        );
        let mut q = sqlx::query(&sql);
        for &(game, m) in chunk {
            q = q
                .bind(game)
                .bind(i64::from(m.ply))
                .bind(m.coord.as_str())
                .bind(m.display.as_str())
                .bind(m.played_ms)
                .bind(m.first_ms)
                .bind(m.second_ms);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

async fn commit(writer: &AnyPool, jobs: &[AppendJob]) -> Result<(), sqlx::Error> {
    let mut tx = writer.begin().await?;
    write_jobs(&mut tx, jobs).await?;
    tx.commit().await
}

/// The writer task on PostgreSQL (and an in-memory SQLite database; a
/// SQLite file has its own thread, store/writer.rs): takes every job waiting, commits them in one
/// transaction and answers each. If the group fails (one bad job, e.g. a
/// duplicate ply), each job is retried alone so only the bad one fails.
async fn group_commit(writer: AnyPool, mut queue: mpsc::Receiver<WriterMsg>) {
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
        if jobs.len() > 1 && commit(&writer, &jobs).await.is_ok() {
            for j in jobs.drain(..) {
                let _ = j.reply.send(Ok(()));
            }
            continue;
        }
        for j in jobs.drain(..) {
            let r = commit(&writer, std::slice::from_ref(&j))
                .await
                .map_err(StoreError::from);
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
