//! Is the database ours, whole, and of a schema this binary knows? Asked at
//! every start, before anything is written, and by `qiju admin check`.
//!
//! SQLite opens almost anything: a 0-byte file becomes a fresh empty
//! database (every player and game silently gone), a file with damaged
//! pages opens and fails later, one request at a time. So a SQLite file is
//! looked at before it is opened — it must be absent (a first start), or
//! start with SQLite's 16-byte header — and after opening, `PRAGMA
//! quick_check` must answer `ok` and the schema must be qiju's (its
//! migration table, no migration newer than this binary). Each refusal
//! names the file and says what to do; nothing is ever replaced.

use crate::{GameRow, StoreError};
use std::path::{Path, PathBuf};

/// What every SQLite 3 file starts with.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// The file an `sqlite://` URL (as `normalise_url` writes it) names, or
/// `None` for PostgreSQL and in-memory databases.
#[must_use]
pub fn sqlite_file(url: &str) -> Option<PathBuf> {
    let rest = url.strip_prefix("sqlite://")?;
    let path = rest.split('?').next().unwrap_or(rest);
    (!path.is_empty() && path != ":memory:").then(|| PathBuf::from(path))
}

/// Checks a SQLite file before it is opened.
///
/// # Errors
/// The folder is missing or not writable (a first start needs to create
/// the file; every start, SQLite's journal beside it); the file is empty,
/// not SQLite, or read-only.
pub fn before_open(file: &Path) -> Result<(), StoreError> {
    let shown = file.display().to_string();
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(StoreError::Refused {
            file: shown,
            why: format!("its folder {} does not exist; create it first", dir.display()),
        });
    }
    let meta = match std::fs::metadata(file) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A first start: the database will be created here.
            if std::fs::metadata(&dir).is_ok_and(|m| m.permissions().readonly()) || !writable(&dir) {
                return Err(StoreError::Refused {
                    file: shown,
                    why: format!(
                        "the folder {} is not writable, so the database cannot be created",
                        dir.display()
                    ),
                });
            }
            return Ok(());
        }
        Err(e) => {
            return Err(StoreError::Refused {
                file: shown,
                why: format!("cannot be read: {e}"),
            })
        }
    };
    if !meta.is_file() {
        return Err(StoreError::Refused {
            file: shown,
            why: "is not a file".into(),
        });
    }
    if meta.len() == 0 {
        return Err(StoreError::Refused {
            file: shown,
            why: "is empty (0 bytes), not a qiju database; restore a backup, or move it away to start a new database"
                .into(),
        });
    }
    let mut head = [0u8; 16];
    let read = std::fs::File::open(file).and_then(|mut f| {
        use std::io::Read;
        f.read(&mut head)
    });
    match read {
        Ok(16) if &head == SQLITE_MAGIC => {}
        Ok(_) => {
            return Err(StoreError::Refused {
                file: shown,
                why: "is not an SQLite database (its first bytes are not SQLite's header); restore a backup"
                    .into(),
            })
        }
        Err(e) => {
            return Err(StoreError::Refused {
                file: shown,
                why: format!("cannot be read: {e}"),
            })
        }
    }
    if meta.permissions().readonly() || std::fs::OpenOptions::new().append(true).open(file).is_err() {
        return Err(StoreError::Refused {
            file: shown,
            why: "is read-only; the server writes every move".into(),
        });
    }
    // SQLite keeps its write-ahead log and shared memory beside the file
    // (`-wal`, `-shm`) and makes them when it opens: in a folder it cannot
    // write, the open fails as "unable to open database file", which read
    // as damage and sent the operator to restore a backup of a whole file.
    if !writable(&dir) {
        return Err(StoreError::Refused {
            file: shown,
            why: format!(
                "is in the folder {}, which is not writable: the server keeps its journal ({name}-wal, \
                 {name}-shm) beside the database; make the folder writable (the file is fine)",
                dir.display(),
                name = file
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            ),
        });
    }
    Ok(())
}

/// Whether a file can be created in `dir`.
fn writable(dir: &Path) -> bool {
    let probe = dir.join(format!(".qiju-write-test-{}", std::process::id()));
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            true
        }
        Err(_) => false,
    }
}

/// What SQLite says about a database file.
#[derive(Debug, Default)]
pub struct Report {
    /// `quick_check` / `integrity_check` complaints; empty = whole.
    pub problems: Vec<String>,
    /// The file's tables when none is qiju's (another program's file).
    pub foreign_tables: Option<Vec<String>>,
}

impl Report {
    /// The refusal a server start gives for this report.
    ///
    /// # Errors
    /// The file is damaged or not qiju's.
    pub fn refuse_if_bad(&self, file: &Path) -> Result<(), StoreError> {
        let refused = |why: String| StoreError::Refused {
            file: file.display().to_string(),
            why,
        };
        if let Some(first) = self.problems.first() {
            return Err(refused(format!(
                "is damaged (PRAGMA quick_check: {first}); restore a backup — `qiju admin check` lists every problem"
            )));
        }
        if let Some(tables) = &self.foreign_tables {
            return Err(refused(format!(
                "is another program's SQLite database (tables {}, none of qiju's); give qiju a file of its own",
                tables.join(", ")
            )));
        }
        Ok(())
    }
}

/// Opens one plain connection (none of the pool's settings, which would
/// retry a broken file until the pool times out) and asks SQLite whether
/// the file is whole (`quick_check`, or the slower `integrity_check` when
/// `full`) and qiju's.
///
/// # Errors
/// The file cannot even be opened or checked.
pub async fn inspect(url: &str, file: &Path, full: bool) -> Result<Report, StoreError> {
    use sqlx::Connection;
    let refused = |why: String| StoreError::Refused {
        file: file.display().to_string(),
        why,
    };
    let mut conn = sqlx::AnyConnection::connect(url)
        .await
        .map_err(|e| refused(format!("cannot be opened: {e}")))?;
    let sql = if full {
        "PRAGMA integrity_check(100)"
    } else {
        "PRAGMA quick_check(20)"
    };
    let checked: Vec<String> = sqlx::query_scalar(sql)
        .fetch_all(&mut conn)
        .await
        .map_err(|e| refused(format!("is damaged ({e}); restore a backup")))?;
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .fetch_all(&mut conn)
    .await
    .map_err(|e| refused(format!("cannot be read: {e}")))?;
    let _ = conn.close().await;
    Ok(Report {
        problems: checked.into_iter().filter(|r| r != "ok").collect(),
        foreign_tables: (!tables.is_empty() && !tables.iter().any(|t| t == "_sqlx_migrations"))
            .then_some(tables),
    })
}

/// Copies a running server's SQLite database into `target` with `VACUUM
/// INTO`: a consistent snapshot taken inside one read transaction, so the
/// server goes on writing (WAL) while it is made. Returns the copy's size.
///
/// # Errors
/// PostgreSQL (use `pg_dump`), a target that exists, or SQLite's refusal.
pub async fn backup(url: &str, target: &Path) -> Result<u64, StoreError> {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let (url, _) = crate::normalise_url(url)?;
    let Some(file) = sqlite_file(&url) else {
        return Err(StoreError::Refused {
            file: "(PostgreSQL)".into(),
            why: "is backed up with PostgreSQL's own tools (pg_dump)".into(),
        });
    };
    let refused = |why: String| StoreError::Refused {
        file: file.display().to_string(),
        why,
    };
    if target.exists() {
        return Err(refused(format!(
            "was not copied: {} exists already",
            target.display()
        )));
    }
    before_open(&file)?;
    let mut conn = sqlx::AnyConnection::connect(&url.replace("mode=rwc", "mode=ro"))
        .await
        .map_err(|e| refused(format!("cannot be opened: {e}")))?;
    sqlx::query("VACUUM INTO $1")
        .bind(target.display().to_string())
        .execute(&mut conn)
        .await
        .map_err(|e| refused(format!("could not be copied to {}: {e}", target.display())))?;
    let _ = conn.close().await;
    Ok(std::fs::metadata(target).map(|m| m.len()).unwrap_or(0))
}

/// What `qiju admin check` found.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// Lines for the operator, in order.
    pub lines: Vec<String>,
    /// Whether anything is wrong.
    pub bad: bool,
}

/// Verifies a database without changing it: SQLite's full
/// `integrity_check`, the schema version against this binary's, and every
/// live or damaged game read and replayed. Replaying is the rules' business,
/// not the database's: `replays` says whether a game's row and command log
/// replay (`play::replays`).
///
/// # Errors
/// The database cannot be opened at all.
pub async fn check(
    url: &str,
    replays: impl Fn(&GameRow, &[String]) -> Result<(), String>,
) -> Result<CheckReport, StoreError> {
    sqlx::any::install_default_drivers();
    let (norm, _) = crate::normalise_url(url)?;
    let mut r = CheckReport::default();
    if let Some(file) = sqlite_file(&norm) {
        if !file.exists() {
            return Err(StoreError::Refused {
                file: file.display().to_string(),
                why: "does not exist".into(),
            });
        }
        before_open(&file)?;
        let report = inspect(&norm.replace("mode=rwc", "mode=ro"), &file, true).await?;
        if report.problems.is_empty() {
            r.lines.push("integrity_check: ok".into());
        } else {
            r.bad = true;
            r.lines
                .extend(report.problems.iter().map(|p| format!("integrity_check: {p}")));
        }
        if let Some(t) = report.foreign_tables {
            r.bad = true;
            r.lines
                .push(format!("not a qiju database: its tables are {}", t.join(", ")));
            return Ok(r);
        }
    }
    let store = crate::Store::open_read_only(url).await?;
    match store.schema_versions().await {
        Ok((applied, known)) => {
            let newer: Vec<_> = applied.iter().filter(|v| !known.contains(v)).collect();
            let pending = known.iter().filter(|v| !applied.contains(v)).count();
            if newer.is_empty() {
                r.lines.push(format!(
                    "schema: {} migrations applied{}",
                    applied.len(),
                    if pending > 0 {
                        format!(", {pending} to apply at the next start")
                    } else {
                        String::new()
                    }
                ));
            } else {
                r.bad = true;
                r.lines.push(format!(
                    "schema: written by a newer qiju (migrations {newer:?} unknown here)"
                ));
            }
        }
        Err(e) => {
            r.bad = true;
            r.lines
                .push(format!("schema: cannot read the migration table: {e}"));
        }
    }
    match crate::schema::check(&store.pool, store.backend(), url).await {
        Ok(()) => r
            .lines
            .push("schema: every table, column and index of the migrations".into()),
        Err(e) => {
            r.bad = true;
            r.lines.push(format!("schema: {e}"));
        }
    }
    match store.games_by_state().await {
        Ok(counts) => {
            let s: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
            r.lines.push(format!(
                "games: {}",
                if s.is_empty() { "none".into() } else { s.join(", ") }
            ));
        }
        Err(e) => {
            r.bad = true;
            r.lines.push(format!("games: cannot be counted: {e}"));
        }
    }
    for id in store.game_ids_in("damaged").await.unwrap_or_default() {
        r.bad = true;
        let why = store.game_detail(&id).await.ok().flatten().unwrap_or_default();
        r.lines.push(format!("game {id}: marked damaged: {why}"));
    }
    for id in store.game_ids_in("live").await.unwrap_or_default() {
        if let Err(why) = stored_game_replays(&store, &id, &replays).await {
            r.bad = true;
            r.lines
                .push(format!("game {id}: live but cannot be replayed: {why}"));
        }
    }
    store.close().await;
    Ok(r)
}

/// Whether a stored game reads and replays; `Err` says why not.
async fn stored_game_replays(
    store: &crate::Store,
    id: &str,
    replays: &impl Fn(&GameRow, &[String]) -> Result<(), String>,
) -> Result<(), String> {
    let Some((row, _)) = store.game(id).await.map_err(|e| e.to_string())? else {
        return Err("its row is missing".into());
    };
    let log = store.commands(id).await.map_err(|e| e.to_string())?;
    replays(&row, &log)
}
