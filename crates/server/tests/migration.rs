//! A database written by the previous release (schema 0001–0002: red/black
//! columns; made by `tests/data/release-0.1.sh` with that release's binary:
//! two accounts, one finished rated game, one live game two moves in) is
//! migrated on start, keeps every game and rating, and plays on.

mod common;

use common::{Client, TestServer};
use serde_json::{json, Value};

const FINISHED: &str = "B3a5xFOj";
const LIVE: &str = "cK6pAHUl";

async fn start_on_copy() -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("qiju.db");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/release-0.1.sqlite");
    std::fs::copy(fixture, &db).unwrap();
    let url = format!("sqlite://{}", db.display());
    let s = common::start_with(|c| {
        c.database = url;
        // The node that owned the live game.
        c.node_id = "main".into();
    })
    .await;
    (s, dir)
}

async fn logged_in(s: &TestServer, name: &str) -> Client {
    let mut c = Client::anonymous(s);
    c.name = name.into();
    assert_eq!(c.login("correct horse").await.status(), 200, "{name} logs in");
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_of_the_previous_release_migrates_and_plays_on() {
    let (mut s, dir) = start_on_copy().await;
    let alice = logged_in(&s, "alice").await;
    let bob = logged_in(&s, "bob").await;

    // The finished game: alice had red (first), bob resigned.
    let done = alice.get_json(&format!("/api/games/{FINISHED}")).await;
    assert_eq!(done["state"], "over", "{done}");
    assert_eq!(done["winner"], "first");
    assert_eq!(done["result"], "1-0");
    assert_eq!(done["sides"], json!(["red", "black"]));
    assert_eq!(done["first"]["name"], "alice");
    assert_eq!(done["second"]["name"], "bob");
    assert_eq!(done["moves"].as_array().unwrap().len(), 6);
    assert!(done["moves"][0]["first_ms"].as_i64().unwrap() > 0, "{done}");
    let games = alice.get_json("/api/users/alice/games").await;
    assert_eq!(games.as_array().unwrap().len(), 2);
    let a: Value = alice.get_json("/api/users/alice").await;
    assert_eq!(a["rating"], 1420.0, "the rating the old release gave");
    // The old accounts' names got their skeletons (migration 0011): a
    // look-alike of bob, with a Cyrillic о, is refused.
    let r = Client::anonymous(&s)
        .post(
            "/api/auth/register",
            &json!({"name": "b\u{43e}b", "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status(), 409);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "name_confusable");

    // The live game was resumed: bob (red, first) to move at ply 3.
    let (mut bws, full) = bob.ws(LIVE).await;
    assert_eq!(full["you"], "first");
    assert_eq!(full["game"]["state"], "live");
    assert_eq!(full["game"]["ply"], 2);
    assert_eq!(full["game"]["turn"], "first");
    assert!(full["game"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m == "h0g2"));
    let (mut aws, full) = alice.ws(LIVE).await;
    assert_eq!(full["you"], "second");
    let echo = bws.play("h0g2").await;
    assert_eq!(echo["ply"], 3);
    assert_eq!(aws.expect("move").await["move"], "h0g2");
    aws.play("i9h9").await;
    bws.send(&json!({"t": "resign"})).await;
    let end = aws.expect("end").await;
    assert_eq!(end["winner"], "second", "{end}");
    assert_eq!(end["ratings"]["second"]["before"], 1420.0, "{end}");
    assert!(end["ratings"]["second"]["after"].as_f64().unwrap() > 1420.0);
    s.stop().await;

    // Migration 0010 rebuilt the moves and the command log WITHOUT ROWID,
    // every row kept (the old release's and those played since).
    let db = rusqlite::Connection::open(dir.path().join("qiju.db")).unwrap();
    for table in ["moves", "commands"] {
        let sql: String = db
            .query_row("SELECT sql FROM sqlite_master WHERE name = ?1", [table], |r| {
                r.get(0)
            })
            .unwrap();
        assert!(sql.contains("WITHOUT ROWID"), "{sql}");
    }
    let plies = |game: &str| -> Vec<i64> {
        let mut q = db
            .prepare("SELECT ply FROM moves WHERE game_id = ?1 ORDER BY ply")
            .unwrap();
        q.query_map([game], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(plies(FINISHED), [1, 2, 3, 4, 5, 6]);
    assert_eq!(plies(LIVE), [1, 2, 3, 4]);
    let seqs: Vec<i64> = db
        .prepare("SELECT seq FROM commands WHERE game_id = ?1 ORDER BY seq")
        .unwrap()
        .query_map([LIVE], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(seqs.len() > 4, "{seqs:?}");
    assert!(seqs.iter().enumerate().all(|(i, &s)| s == i as i64), "{seqs:?}");
}
