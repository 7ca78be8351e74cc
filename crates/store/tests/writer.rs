//! The moves' writer (writer.rs on a SQLite file, the sqlx group commit on
//! PostgreSQL), on both databases: many games appending at once are all
//! stored, in order; a second write at the same place fails alone, the
//! others of its group go in; what was acknowledged is there after a close
//! and a reopen.

use store::{GameRow, MoveRow, SqliteSync, Store};

fn game(id: &str) -> GameRow {
    GameRow {
        id: id.into(),
        node: "writer-test".into(),
        variant: "xiangqi/cxa".into(),
        initial_fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
        time_control: "10+0".into(),
        initial_ms: 600_000,
        increment_ms: 0,
        rated: false,
        first_id: None,
        second_id: None,
        first_name: "a".into(),
        second_name: "b".into(),
        first_rating: None,
        second_rating: None,
        computer: None,
        state: "live".into(),
        result: None,
        winner: None,
        reason: None,
        detail: None,
        article: None,
        created_ms: 1,
        ended_ms: None,
        first_ms: 600_000,
        second_ms: 600_000,
        rules_profile: "online".into(),
        first_move_ms: 0,
    }
}

fn mv(ply: u32) -> MoveRow {
    MoveRow {
        ply,
        coord: format!("m{ply}"),
        display: format!("move {ply}"),
        played_ms: i64::from(ply),
        first_ms: 600_000 - i64::from(ply),
        second_ms: 600_000,
    }
}

/// Where a test writes: a fresh SQLite file in `dir`, or PostgreSQL.
#[derive(Clone, Copy)]
enum Db {
    Sqlite,
    Postgres,
}

/// A fresh database (its URL) and ids unique to this run, or `None` when
/// PostgreSQL is asked for and `QIJU_TEST_POSTGRES` is not set: skipped,
/// unless `QIJU_REQUIRE_ORACLES=1` (CI), where that fails.
fn database(db: Db, dir: &tempfile::TempDir) -> Option<(String, String)> {
    let tag = format!(
        "w{}x{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    let url = match db {
        Db::Sqlite => format!("sqlite://{}", dir.path().join("qiju.db").display()),
        Db::Postgres => match std::env::var("QIJU_TEST_POSTGRES") {
            Ok(url) if !url.is_empty() => url,
            _ => {
                let required = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
                assert!(!required, "QIJU_REQUIRE_ORACLES=1 requires QIJU_TEST_POSTGRES");
                eprintln!("skipped: QIJU_TEST_POSTGRES is not set");
                return None;
            }
        },
    };
    Some((url, tag))
}

async fn concurrent_appends_are_all_stored(db: Db, sync: SqliteSync) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, tag)) = database(db, &dir) else {
        return;
    };
    let store = Store::connect_with(&url, sync).await.unwrap();
    let ids: Vec<String> = (0..40).map(|i| format!("{tag}-{i}")).collect();
    for id in &ids {
        store.insert_game(&game(id)).await.unwrap();
    }
    let dup = format!("{tag}-dup");
    store.insert_game(&game(&dup)).await.unwrap();
    store.append(&dup, 0, &["{\"ply\":1}".to_string()]).await.unwrap();
    // 40 games, 10 moves each, all appending at once.
    let mut tasks = tokio::task::JoinSet::new();
    for id in ids.clone() {
        let store = store.clone();
        tasks.spawn(async move {
            for ply in 1..=10u32 {
                let body = format!("{{\"ply\":{ply}}}");
                store.append(&id, u64::from(ply - 1), &[body]).await.unwrap();
            }
        });
    }
    // Meanwhile a write at a place already taken fails, alone.
    tokio::task::yield_now().await;
    let taken = store.append(&dup, 0, &["{\"again\":true}".to_string()]).await;
    assert!(taken.is_err(), "a second command 0 was stored");
    while let Some(r) = tasks.join_next().await {
        r.unwrap();
    }
    store.close().await;

    let store = Store::connect_with(&url, sync).await.unwrap();
    assert_eq!(
        store.commands(&dup).await.unwrap(),
        vec!["{\"ply\":1}".to_string()]
    );
    for id in &ids {
        let commands = store.commands(id).await.unwrap();
        let expected: Vec<String> = (1..=10).map(|p| format!("{{\"ply\":{p}}}")).collect();
        assert_eq!(commands, expected, "game {id}");
    }
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_appends_are_all_stored_sync_normal() {
    concurrent_appends_are_all_stored(Db::Sqlite, SqliteSync::Normal).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_appends_are_all_stored_sync_full() {
    concurrent_appends_are_all_stored(Db::Sqlite, SqliteSync::Full).await;
}

/// PostgreSQL has no `synchronous` setting of ours: one run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_appends_are_all_stored_postgres() {
    concurrent_appends_are_all_stored(Db::Postgres, SqliteSync::Normal).await;
}

async fn appends_after_close_fail(db: Db) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, tag)) = database(db, &dir) else {
        return;
    };
    let store = Store::connect(&url).await.unwrap();
    let id = format!("{tag}-closed");
    store.insert_game(&game(&id)).await.unwrap();
    store.close().await;
    assert!(store.append(&id, 0, &["{}".to_string()]).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_after_close_fail_sqlite() {
    appends_after_close_fail(Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_after_close_fail_postgres() {
    appends_after_close_fail(Db::Postgres).await;
}

/// The checkpoint sequence number in a SQLite write-ahead log's header
/// (bytes 12–15, big-endian): SQLite adds one each time the log starts over
/// from its first frame.
fn wal_restarts(db: &std::path::Path) -> u32 {
    let wal = std::fs::read(db.with_extension("db-wal")).unwrap();
    u32::from_be_bytes(wal[12..16].try_into().unwrap())
}

/// Under a steady stream of moves the write-ahead log still starts over
/// after each checkpoint. Beside a busy writer a checkpoint never reaches
/// the log's end, and a log that never starts over grows without bound (it
/// did: 1 GB in 40 s of a load test); so the writer copies the rest itself
/// between two commits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_starts_over_under_a_steady_stream_of_moves() {
    // SQLite alone: PostgreSQL has no such log file.
    let dir = tempfile::tempdir().unwrap();
    let (url, tag) = database(Db::Sqlite, &dir).expect("SQLite is always there");
    let db = dir.path().join("qiju.db");
    let store = Store::connect(&url).await.unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut tasks = tokio::task::JoinSet::new();
    for g in 0..8 {
        let (store, stop, id) = (store.clone(), stop.clone(), format!("{tag}-{g}"));
        store.insert_game(&game(&id)).await.unwrap();
        tasks.spawn(async move {
            let mut ply = 0u32;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                ply += 1;
                let body = format!("{{\"ply\":{ply}}}");
                store.append(&id, u64::from(ply - 1), &[body]).await.unwrap();
            }
            ply
        });
    }
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let before = wal_restarts(&db);
    let rounds = 4;
    for _ in 0..rounds {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        store.checkpoint().await.unwrap();
    }
    // The last checkpoint's restart happens at the next commit.
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut moves = 0;
    while let Some(r) = tasks.join_next().await {
        moves += r.unwrap();
    }
    let restarts = wal_restarts(&db) - before;
    assert!(
        restarts >= rounds,
        "the log started over {restarts} times in {rounds} checkpoints ({moves} moves)"
    );
    store.close().await;
}

/// Games with ratings missing (the computer's) and present, mixed, read
/// back exactly now that ratings travel as text (see `insert_game`). The
/// failure that change fixed — a 500 on a challenge after a computer game
/// on PostgreSQL — showed in `server/tests/community.rs`'s TV test in 2 of
/// 6 runs and in none of 8 after; this sequence alone did not bring it
/// out, so it holds the round trip, not the failure.
async fn ratings_present_and_missing_insert_alike(db: Db) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, tag)) = database(db, &dir) else {
        return;
    };
    let store = Store::connect(&url).await.unwrap();
    // The pool hands out its idle connections in turn: enough games that
    // every connection meets a missing rating, then present ones.
    let kinds = [
        (None, Some(1500.0)),
        (Some(1_412.345_678_9), Some(-0.5)),
        (None, None),
        (Some(1e-9), None),
    ];
    for (i, ratings) in kinds.into_iter().cycle().take(64).enumerate() {
        let id = format!("{tag}-r{i}");
        let mut g = game(&id);
        (g.first_rating, g.second_rating) = ratings;
        store
            .insert_game(&g)
            .await
            .unwrap_or_else(|e| panic!("game {i} {ratings:?}: {e}"));
        let (back, _) = store.game(&id).await.unwrap().unwrap();
        assert_eq!(
            (back.first_rating, back.second_rating),
            ratings,
            "read back exactly"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_present_and_missing_insert_alike_sqlite() {
    ratings_present_and_missing_insert_alike(Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_present_and_missing_insert_alike_postgres() {
    ratings_present_and_missing_insert_alike(Db::Postgres).await;
}

/// Leases (issue 29): a node holds its live games while its heartbeat is
/// fresh; another may take one only once it is stale (or the node released
/// its games), which raises the generation; on PostgreSQL the old holder's
/// writes are then refused by the fence and the new holder's go in, while
/// other games of the same group commit are untouched.
async fn a_lease_taken_over_fences_the_old_holder(db: Db) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, tag)) = database(db, &dir) else {
        return;
    };
    let store = Store::connect_with(&url, SqliteSync::Normal).await.unwrap();
    let (a, b) = (format!("{tag}-node-a"), format!("{tag}-node-b"));
    let id = format!("{tag}-leased");
    let other = format!("{tag}-other");
    store.insert_game(&game(&id)).await.unwrap();
    store.insert_game(&game(&other)).await.unwrap();
    // Leases of 10 s: a node is stale once its heartbeat is older.
    let stale = |now: i64| now - 10_000;
    store.heartbeat(&a, 1_000).await.unwrap();
    let fa = store
        .take_lease(&id, &a, stale(1_000))
        .await
        .unwrap()
        .expect("a game of no live node is taken");
    let fo = store.take_lease(&other, &a, stale(1_000)).await.unwrap().unwrap();
    assert_eq!(fa.node, a);
    // a's heartbeat is fresh: b cannot take the game, nor sees it orphaned.
    store.heartbeat(&a, 9_000).await.unwrap();
    assert_eq!(store.take_lease(&id, &b, stale(15_000)).await.unwrap(), None);
    let orphans = store.orphaned_games(&b, stale(15_000), 1_000_000).await.unwrap();
    assert!(!orphans.iter().any(|(g, _)| *g == id), "{orphans:?}");
    let cmd = |p: u32| vec![format!("{{\"ply\":{p}}}")];
    store.append_fenced(Some(&fa), &id, 0, &cmd(1)).await.unwrap();
    // a froze: at 21 s its heartbeat (9 s) is stale, and b takes the game.
    let orphans = store.orphaned_games(&b, stale(21_000), 1_000_000).await.unwrap();
    assert!(orphans.contains(&(id.clone(), a.clone())), "{orphans:?}");
    let fb = store
        .take_lease(&id, &b, stale(21_000))
        .await
        .unwrap()
        .expect("a stale node's game is taken");
    assert!(fb.generation > fa.generation);
    // a wakes, beats again, and writes with its old generation.
    store.heartbeat(&a, 22_000).await.unwrap();
    let late = store.append_fenced(Some(&fa), &id, 1, &cmd(2)).await;
    let other_write = store.append_fenced(Some(&fo), &other, 0, &cmd(1)).await;
    match db {
        // Several nodes write only to PostgreSQL: there the fence holds.
        Db::Postgres => assert!(
            matches!(late, Err(store::StoreError::Fenced { ref game }) if *game == id),
            "a's late write: {late:?}"
        ),
        // A SQLite file has one node and one writer, which checks no fence.
        Db::Sqlite => assert!(late.is_ok()),
    }
    other_write.unwrap();
    if matches!(db, Db::Postgres) {
        store.append_fenced(Some(&fb), &id, 1, &cmd(2)).await.unwrap();
        assert_eq!(store.commands(&id).await.unwrap(), [cmd(1), cmd(2)].concat());
    }
    // b is alive; when it drains, a may take the game back at once.
    store.heartbeat(&b, 22_000).await.unwrap();
    assert_eq!(store.take_lease(&id, &a, stale(22_500)).await.unwrap(), None);
    store.release_leases(&b).await.unwrap();
    assert!(store.take_lease(&id, &a, stale(22_500)).await.unwrap().is_some());
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_taken_over_fences_the_old_holder_sqlite() {
    a_lease_taken_over_fences_the_old_holder(Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_taken_over_fences_the_old_holder_postgres() {
    a_lease_taken_over_fences_the_old_holder(Db::Postgres).await;
}

/// A live game's record is its command log; its moves reach the archive's
/// table once, with its end, and a second archiving (a game ended twice,
/// say by two nodes) changes nothing.
async fn a_game_s_moves_are_archived_with_its_end(db: Db) {
    let dir = tempfile::tempdir().unwrap();
    let Some((url, tag)) = database(db, &dir) else {
        return;
    };
    let store = Store::connect_with(&url, SqliteSync::Normal).await.unwrap();
    let id = format!("{tag}-archived");
    store.insert_game(&game(&id)).await.unwrap();
    for ply in 1..=3u32 {
        store
            .append(&id, u64::from(ply - 1), &[format!("{{\"ply\":{ply}}}")])
            .await
            .unwrap();
    }
    assert_eq!(
        store.moves(&id).await.unwrap(),
        [],
        "live: the log holds the moves"
    );
    assert_eq!(store.commands(&id).await.unwrap().len(), 3);
    let end = |ended_ms| store::GameEnd {
        state: "over",
        result: Some("1-0".into()),
        winner: Some("first".into()),
        reason: "resign".into(),
        detail: String::new(),
        article: None,
        ended_ms,
        first_ms: 1,
        second_ms: 2,
    };
    let record: Vec<MoveRow> = (1..=3).map(mv).collect();
    store
        .finish_game(&id, &end(10), "elo", &[], &record)
        .await
        .unwrap();
    assert_eq!(store.moves(&id).await.unwrap(), record);
    // Archived already: neither the end nor the moves change.
    store
        .finish_game(&id, &end(20), "elo", &[], &record[..1])
        .await
        .unwrap();
    let (row, moves) = store.game(&id).await.unwrap().unwrap();
    assert_eq!((row.ended_ms, moves), (Some(10), record));
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_s_moves_are_archived_with_its_end_sqlite() {
    a_game_s_moves_are_archived_with_its_end(Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_s_moves_are_archived_with_its_end_postgres() {
    a_game_s_moves_are_archived_with_its_end(Db::Postgres).await;
}
