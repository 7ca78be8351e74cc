//! Is the schema whole? Migrations record what they applied, not what is
//! still there: with the `moves` table dropped, a database passed every
//! check, the server started, and every game answered 410 and every move
//! 503. So after migrating, the tables, their columns and the indexes are
//! compared with what the migrations make — read off a fresh in-memory
//! database migrated with the same SQLite migrations (PostgreSQL's make the
//! same names) — and a database missing any is refused, in one line.

use crate::{Backend, StoreError, SQLITE_MIGRATIONS};
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Row};
use std::collections::{BTreeMap, BTreeSet};

/// Tables with their columns, and index names.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Schema {
    pub tables: BTreeMap<String, BTreeSet<String>>,
    pub indexes: BTreeSet<String>,
}

/// What the migrations make.
async fn expected() -> Result<Schema, StoreError> {
    let pool = AnyPoolOptions::new()
        .max_connections(1)
        .connect("sqlite::memory:")
        .await?;
    SQLITE_MIGRATIONS.run(&pool).await?;
    let schema = read(&pool, Backend::Sqlite).await;
    pool.close().await;
    schema
}

/// What a database has.
async fn read(pool: &AnyPool, backend: Backend) -> Result<Schema, StoreError> {
    let (tables_sql, columns_sql, indexes_sql) = match backend {
        Backend::Sqlite => (
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations'",
            "SELECT name FROM pragma_table_info($1)",
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
        ),
        // PostgreSQL's catalogue names are of type `name`, which sqlx's Any
        // driver does not read: cast to text.
        Backend::Postgres => (
            "SELECT CAST(table_name AS TEXT) AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations'",
            "SELECT CAST(column_name AS TEXT) AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
            "SELECT CAST(indexname AS TEXT) AS name FROM pg_indexes WHERE schemaname = current_schema()",
        ),
    };
    let mut schema = Schema::default();
    for r in sqlx::query(tables_sql).fetch_all(pool).await? {
        let table: String = r.try_get("name")?;
        let mut columns = BTreeSet::new();
        for c in sqlx::query(columns_sql)
            .bind(table.clone())
            .fetch_all(pool)
            .await?
        {
            columns.insert(c.try_get::<String, _>("name")?);
        }
        schema.tables.insert(table, columns);
    }
    for r in sqlx::query(indexes_sql).fetch_all(pool).await? {
        schema.indexes.insert(r.try_get("name")?);
    }
    Ok(schema)
}

/// What `have` lacks of `want`, in words; empty when nothing.
fn missing(want: &Schema, have: &Schema) -> Vec<String> {
    let mut out = Vec::new();
    for (table, columns) in &want.tables {
        match have.tables.get(table) {
            None => out.push(format!("table {table}")),
            Some(got) => out.extend(columns.difference(got).map(|c| format!("column {table}.{c}"))),
        }
    }
    out.extend(
        want.indexes
            .difference(&have.indexes)
            .map(|i| format!("index {i}")),
    );
    out
}

/// Refuses a database whose schema lacks any table, column or index the
/// migrations make; `shown` names it in the refusal.
///
/// # Errors
/// `Refused` with what is missing, or the schema cannot be read.
pub async fn check(pool: &AnyPool, backend: Backend, shown: &str) -> Result<(), StoreError> {
    let lacks = missing(&expected().await?, &read(pool, backend).await?);
    if lacks.is_empty() {
        return Ok(());
    }
    Err(StoreError::Refused {
        file: shown.to_string(),
        why: format!(
            "is missing {} that its migrations made: it was damaged or changed by hand; restore a backup",
            lacks.join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_missing_is_named() {
        let schema = |tables: &[(&str, &[&str])], indexes: &[&str]| Schema {
            tables: tables
                .iter()
                .map(|(t, cs)| (t.to_string(), cs.iter().map(|c| c.to_string()).collect()))
                .collect(),
            indexes: indexes.iter().map(|i| i.to_string()).collect(),
        };
        let want = schema(
            &[("games", &["id", "state"]), ("moves", &["ply"])],
            &["games_live"],
        );
        assert!(missing(&want, &want).is_empty());
        let have = schema(&[("games", &["id"]), ("extra", &["x"])], &[]);
        assert_eq!(
            missing(&want, &have),
            ["column games.state", "table moves", "index games_live"]
        );
    }
}
