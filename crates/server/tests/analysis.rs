//! Computer analysis (issue 16, feature 13) over real HTTP: a finished
//! game's review with its marks, the limits on asking for one, and the
//! analysis board's position, import and evaluation endpoints.

mod common;

use common::Client;
use serde_json::{json, Value};
use std::time::Duration;

/// Polls a game's review until it is done (or fails the test after 90 s).
async fn wait_review(c: &Client, game: &str) -> Value {
    let path = format!("/api/games/{game}/analysis");
    for _ in 0..900 {
        let v = c.get_json(&path).await;
        match v["state"].as_str() {
            Some("done") => return v,
            Some("queued" | "running") => tokio::time::sleep(Duration::from_millis(100)).await,
            other => panic!("review state {other:?}: {v}"),
        }
    }
    panic!("the review did not finish in 90 s");
}

/// Red gives a cannon away for a pawn on move 2 (炮五进四, answered by
/// 马7进5 taking it); the review marks that move and not Black's replies.
async fn a_review_marks_the_blunder_and_is_kept() {
    let mut s = common::start().await;
    let a = Client::register(&s, "an").await;
    let b = Client::register(&s, "bn").await;
    let (_, game, b_side) = a.challenge(&b, json!({"time": "10+0", "color": "first"})).await;
    assert_eq!(b_side, "second");
    let path = format!("/api/games/{game}/analysis");

    // Not while the game is on, and not for a visitor.
    let r = a.post(&path, &json!({})).await;
    assert_eq!(r.status(), 409);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "game_not_over");
    let r = Client::anonymous(&s).post(&path, &json!({})).await;
    assert_eq!(r.status(), 401);

    let moves = ["h2e2", "h9g7", "e2e6", "g7e6", "b0c2", "b9c7"];
    common::play_then_resign(&game, &a, &b, &moves, &a).await;

    let before = a.get_json(&path).await;
    assert_eq!(before["state"], "none");
    assert_eq!(before["available"], true);
    let r = b.post(&path, &json!({})).await;
    assert_eq!(r.status(), 202);
    // Asking again (a double click, or the other player) is no new review.
    let again = a.post(&path, &json!({})).await;
    assert_eq!(again.status(), 200);
    assert!(matches!(
        again.json::<Value>().await.unwrap()["state"].as_str(),
        Some("queued" | "running" | "done")
    ));

    let v = wait_review(&a, &game).await;
    let review = &v["review"];
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), moves.len() + 1);
    for (i, p) in plies.iter().enumerate() {
        assert_eq!(p["ply"], i);
        assert!(p["best"].is_string(), "ply {i} has a best move: {p}");
        assert!(p["best_display"].as_str().is_some_and(|d| !d.is_empty()));
        let c = p["chances"].as_f64().unwrap();
        assert!((-1.0..=1.0).contains(&c));
    }
    // After the cannon is lost, Black stands better.
    assert!(plies[4]["chances"].as_f64().unwrap() < -0.2, "{}", plies[4]);
    let marks = review["marks"].as_array().unwrap();
    let at = |ply: u64| marks.iter().find(|m| m["ply"] == ply);
    let blunder = at(3).unwrap_or_else(|| panic!("炮五进四 is marked: {marks:?}"));
    assert!(
        matches!(blunder["kind"].as_str(), Some("mistake" | "blunder")),
        "{blunder}"
    );
    assert!(at(4).is_none(), "taking the cannon is not a mistake: {marks:?}");
    // The summary counts the marks exactly, side by side (the first side
    // moves on the odd plies from the start position).
    for (side, summary) in review["summary"].as_array().unwrap().iter().enumerate() {
        let count = |kind: &str| {
            marks
                .iter()
                .filter(|m| m["kind"] == kind && (m["ply"].as_u64().unwrap() % 2 == 1) == (side == 0))
                .count() as u64
        };
        for (field, kind) in [
            ("inaccuracies", "inaccuracy"),
            ("mistakes", "mistake"),
            ("blunders", "blunder"),
        ] {
            assert_eq!(
                summary[field].as_u64(),
                Some(count(kind)),
                "side {side} {field}: {review}"
            );
        }
    }

    // Stored: the same review after a restart of the server's memory is
    // what the database gives (the running entry is gone once done).
    let stored = Client::anonymous(&s).get_json(&path).await;
    assert_eq!(stored["state"], "done");
    assert_eq!(stored["review"]["plies"].as_array().unwrap().len(), plies.len());
    assert_eq!(stored["review"]["marks"], review["marks"]);
    s.stop().await;
}

/// A player may have two reviews waiting; a third is refused with a code.
/// The server reviews nothing here (no review workers), so the two stay
/// waiting however slow or fast the machine: asked one after another on a
/// busy machine, or all at once with a worker, the first could finish
/// before the third was counted, and the third be rightly taken.
async fn a_player_has_at_most_two_reviews_waiting() {
    let mut s = common::start_with(|c| c.review_workers = 0).await;
    let a = Client::register(&s, "aq").await;
    let b = Client::register(&s, "bq").await;
    let mut games = Vec::new();
    for _ in 0..3 {
        let (_, game, _) = a.challenge(&b, json!({"time": "10+0", "color": "first"})).await;
        common::play_then_resign(&game, &a, &b, &["h2e2", "h9g7", "h0g2", "i9h9"], &b).await;
        games.push(game);
    }
    // Asked all at once: the check and the taking of a place are one step,
    // so one of the three is refused, whichever the server counted last.
    let empty = json!({});
    let paths: Vec<String> = games.iter().map(|g| format!("/api/games/{g}/analysis")).collect();
    let answers = futures_util::future::join_all(paths.iter().map(|p| a.post(p, &empty))).await;
    let mut accepted = Vec::new();
    let mut refused = Vec::new();
    for (g, r) in games.iter().zip(answers) {
        match r.status().as_u16() {
            202 => accepted.push(g.clone()),
            409 => refused.push(r.json::<Value>().await.unwrap()["error"].clone()),
            other => panic!("review request: {other}"),
        }
    }
    assert_eq!((accepted.len(), refused), (2, vec![json!("analysis_pending")]));
    let mut places = Vec::new();
    for g in &accepted {
        let view = a.get_json(&format!("/api/games/{g}/analysis")).await;
        assert_eq!(view["state"], "queued", "{view}");
        places.push(view["position"].as_u64().unwrap());
    }
    places.sort_unstable();
    assert_eq!(places, [1, 2]);
    // Another player's share is their own.
    let other = games.iter().find(|g| !accepted.contains(g)).unwrap();
    let r = b.post(&format!("/api/games/{other}/analysis"), &empty).await;
    assert_eq!(r.status().as_u16(), 202);
    s.stop().await;
}

async fn the_analysis_board_asks_the_rules_and_the_engine() {
    let mut s = common::start().await;
    let visitor = Client::anonymous(&s);

    // The rules of any line, for anyone.
    let r: Value = visitor
        .post(
            "/api/analysis/position",
            &json!({"variant": "xiangqi", "moves": []}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(r["legal"].as_array().unwrap().len(), 44);
    assert_eq!(r["turn"], "red");
    let r: Value = visitor
        .post(
            "/api/analysis/position",
            &json!({"variant": "xiangqi", "moves": ["h2e2", "h9g7"]}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(r["moves"][0]["display"], "炮二平五");
    assert_eq!(r["moves"][1]["display"], "马８进７");
    assert_eq!(r["turn"], "red");
    for (body, code) in [
        (
            json!({"variant": "xiangqi", "moves": ["h2e2", "h2e2"]}),
            "illegal_move",
        ),
        (json!({"variant": "xiangqi", "fen": "rnbakabnr/9 w"}), "bad_fen"),
        (json!({"variant": "go"}), "unknown_variant"),
        (
            json!({"variant": "xiangqi", "moves": vec!["h2e2"; 1001]}),
            "line_too_long",
        ),
    ] {
        let r = visitor.post("/api/analysis/position", &body).await;
        assert_eq!(r.status(), 400, "{code}");
        assert_eq!(r.json::<Value>().await.unwrap()["error"], code);
    }
    let r = visitor
        .post(
            "/api/analysis/position",
            &json!({"variant": "xiangqi", "extra": 1}),
        )
        .await;
    assert_eq!(r.status(), 422);
    // Chess: SAN from the rules; mate ends the line.
    let r: Value = visitor
        .post(
            "/api/analysis/position",
            &json!({"variant": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(r["moves"][3]["display"], "Qh4#");
    assert_eq!(r["legal"].as_array().unwrap().len(), 0);
    assert_eq!(r["status"]["state"], "over");

    // A pasted record becomes a line.
    let r: Value = visitor
        .post(
            "/api/analysis/import",
            &json!({"variant": "xiangqi", "text": "[Event \"x\"]\n1. 炮二平五 马8进7 2. 马二进三 车9平8"}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(r["moves"].as_array().map(Vec::len), Some(4), "{r}");
    assert_eq!(r["moves"][3]["coord"], "i9h9");
    let r = visitor
        .post(
            "/api/analysis/import",
            &json!({"variant": "chess", "text": "1. e4 e5 2. Ke3"}),
        )
        .await;
    assert_eq!(r.status(), 400);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "bad_record");
    // A long PGN (clock comments) is read; a paste over 64 KiB is not.
    let long = format!("[Event \"x\"]\n1. e4 {{{}}} e5 *", "c".repeat(20_000));
    let r = visitor
        .post("/api/analysis/import", &json!({"variant": "chess", "text": long}))
        .await;
    assert_eq!(r.status(), 200);
    // The server answers 413 without reading the body and closes that
    // connection, saying so (a CI run at c9c0fad, before it said so, saw
    // the pooled client send its next request down the closing one); the
    // refusal has the API's error shape, so the UI words it.
    let huge = "x".repeat(70_000);
    let r = visitor
        .post("/api/analysis/import", &json!({"variant": "chess", "text": huge}))
        .await;
    assert_eq!(r.status(), 413);
    assert_eq!(r.headers()["connection"], "close");
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "too_large");

    // The engine's view, for players (one at a time each).
    let r = visitor
        .post("/api/analysis/eval", &json!({"variant": "xiangqi", "moves": []}))
        .await;
    assert_eq!(r.status(), 401);
    let a = Client::register(&s, "ev").await;
    let e: Value = a
        .post(
            "/api/analysis/eval",
            &json!({"variant": "xiangqi", "fen": "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(e["best"], "a0d0", "{e}");
    assert_eq!(e["score"], json!({"mate": 1}));
    assert_eq!(e["chances"], 1.0);
    assert!(
        e["best_display"].as_str().is_some_and(|d| d.starts_with('车')),
        "{e}"
    );

    // Chess is analysed by Stockfish when the server found it.
    let info = visitor.get_json("/api/info").await;
    let chess = info["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "chess/standard")
        .unwrap()
        .clone();
    let r = a
        .post(
            "/api/analysis/eval",
            &json!({"variant": "chess", "moves": ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6"]}),
        )
        .await;
    if chess["can_analyse"] == true {
        let e: Value = r.json().await.unwrap();
        assert_eq!(e["best"], "h5f7", "Scholar's mate: {e}");
        assert_eq!(e["score"], json!({"mate": 1}));
    } else {
        assert_eq!(r.status(), 409);
        assert_eq!(r.json::<Value>().await.unwrap()["error"], "analysis_unavailable");
    }
    s.stop().await;
}

crate::on_both_databases!(
    a_review_marks_the_blunder_and_is_kept,
    a_player_has_at_most_two_reviews_waiting,
    the_analysis_board_asks_the_rules_and_the_engine,
);
