//! Finding people (issue 16, feature 11): search by the start of a name,
//! the leaderboard of a rating pool, and a player's record per pool and
//! head to head.

mod common;

use common::{Client, TestServer};
use serde_json::{json, Value};

/// Plays h2e2 h9g7 in `game` (first side `first`), then `loser` resigns.
async fn play_and_resign(game: &str, first: &Client, second: &Client, loser: &Client) {
    common::play_then_resign(game, first, second, &["h2e2", "h9g7"], loser).await;
}

/// Whether any of `names` is on the first page of the Xiangqi leaderboard
/// a search by their start finds (other tests' players share the database).
async fn on_board(s: &TestServer, names: &[&str]) -> bool {
    for page in 1..=20 {
        let board = Client::anonymous(s)
            .get_json(&format!("/api/leaderboard/xiangqi?page={page}"))
            .await;
        let rows = board.as_array().unwrap();
        if rows.iter().any(|r| names.iter().any(|n| r["name"] == *n)) {
            return true;
        }
        if rows.len() < 50 {
            return false;
        }
    }
    false
}

async fn search_leaderboard_and_head_to_head() {
    let mut s = common::start().await;
    let tag = common::unique("");
    let register = |name: String| {
        let c = Client::anonymous(&s);
        async move {
            let r = c
                .post(
                    "/api/auth/register",
                    &json!({"name": name, "password": "correct horse"}),
                )
                .await;
            assert_eq!(r.status(), 201);
            let mut c = Client { name, ..c };
            assert_eq!(c.login("correct horse").await.status(), 200);
            c
        }
    };
    let a = register(format!("Zh_{}", &tag[..8])).await;
    let b = register(format!("zhx{}", &tag[..8])).await;
    // A rated game a wins, then a casual one a loses.
    let (game, a_side) = a.pair(&b, "10+0", true).await;
    let (first, second) = if a_side == "first" { (&a, &b) } else { (&b, &a) };
    play_and_resign(&game, first, second, &b).await;
    let (_, game2, _) = a.challenge(&b, json!({"time": "5+0", "color": "first"})).await;
    play_and_resign(&game2, &a, &b, &a).await;

    // Search: by the start of the name, any case; `_` is a letter, not a wildcard.
    let found = |q: String| {
        let c = Client::anonymous(&s);
        async move { c.get_json(&format!("/api/users?q={q}")).await }
    };
    let names = |v: Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|u| u["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        names(found(format!("zh_{}", &tag[..4])).await),
        vec![a.name.clone()]
    );
    assert_eq!(
        names(found(format!("ZHX{}", &tag[..4])).await),
        vec![b.name.clone()]
    );
    assert!(names(found("zz_nobody_zz".into()).await).is_empty());

    // One rated game each: provisional ratings (issue 30, defect 16),
    // marked on the profile with their pool and left off the leaderboard.
    for c in [&a, &b] {
        let u = Client::anonymous(&s)
            .get_json(&format!("/api/users/{}", c.name))
            .await;
        assert_eq!(
            (u["provisional"].as_bool(), u["pool"].as_str()),
            (Some(true), Some("xiangqi")),
            "{u}"
        );
        assert_eq!(u["ratings"][0]["provisional"], true, "{u}");
    }
    assert!(!on_board(&s, &[&a.name, &b.name]).await);
    for bad in ["0", "21", "x"] {
        assert_eq!(
            Client::anonymous(&s)
                .get(&format!("/api/leaderboard/xiangqi?page={bad}"))
                .await
                .status(),
            400,
            "page={bad}"
        );
    }
    assert_eq!(
        Client::anonymous(&s)
            .get("/api/leaderboard/checkers")
            .await
            .status(),
        404
    );

    // The record: per pool, and head to head.
    let rec = Client::anonymous(&s)
        .get_json(&format!("/api/users/{}/record?vs={}", a.name, b.name))
        .await;
    assert_eq!(
        rec["pools"],
        json!([{"pool": "xiangqi", "wins": 1, "draws": 0, "losses": 1}])
    );
    assert_eq!(rec["vs"], json!({"wins": 1, "draws": 0, "losses": 1}));
    let rec_b = Client::anonymous(&s)
        .get_json(&format!("/api/users/{}/record", b.name))
        .await;
    assert_eq!(rec_b["vs"], Value::Null);
    assert_eq!(
        Client::anonymous(&s)
            .get(&format!("/api/users/{}/record?vs=nobody_here", a.name))
            .await
            .status(),
        404
    );

    // The archive: filters, and the finished games as one PGN file.
    let list = |q: String| {
        let c = Client::anonymous(&s);
        let name = a.name.clone();
        async move { c.get(&format!("/api/users/{name}/games{q}")).await }
    };
    let count =
        |r: reqwest::Response| async move { r.json::<Value>().await.unwrap().as_array().unwrap().len() };
    assert_eq!(
        count(list(format!("?opponent={}", b.name.to_uppercase())).await).await,
        2
    );
    assert_eq!(count(list("?result=win".into()).await).await, 1);
    assert_eq!(count(list("?result=loss&variant=xiangqi".into()).await).await, 1);
    assert_eq!(count(list("?variant=chess".into()).await).await, 0);
    assert_eq!(count(list("?limit=1".into()).await).await, 1);
    assert_eq!(list("?result=maybe".into()).await.status(), 400);
    assert_eq!(list("?opponent=nobody_here".into()).await.status(), 404);
    let pgn = list(".pgn".into()).await.text().await.unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
    assert!(
        pgn.contains("[Result \"1-0\"]") || pgn.contains("[Result \"0-1\"]"),
        "{pgn}"
    );
    let wins = list(".pgn?result=win".into()).await.text().await.unwrap();
    assert_eq!(wins.matches("[Event ").count(), 1);

    // Enough rated games settle both ratings: now they are on the board.
    for _ in 1..rating::PROVISIONAL_GAMES {
        let (_, game, _) = a
            .challenge(&b, json!({"time": "5+0", "rated": true, "color": "first"}))
            .await;
        play_and_resign(&game, &a, &b, &b).await;
    }
    let u = Client::anonymous(&s)
        .get_json(&format!("/api/users/{}", a.name))
        .await;
    assert_eq!(u["provisional"], false, "{u}");
    // The leaderboard: the winner above the loser, ranks in order. Other
    // tests' players share the database, so read pages until both are seen.
    let mut rows: Vec<Value> = Vec::new();
    for page in 1..=20 {
        let board = Client::anonymous(&s)
            .get_json(&format!("/api/leaderboard/xiangqi?page={page}"))
            .await;
        let got = board.as_array().unwrap().clone();
        assert!(got.len() <= 50);
        assert!(got
            .windows(2)
            .all(|w| w[0]["rating"].as_f64() >= w[1]["rating"].as_f64()));
        let last = got.len() < 50;
        rows.extend(got);
        if last || rows.iter().any(|r| r["name"] == b.name.as_str()) {
            break;
        }
    }
    let pos = |n: &str| {
        rows.iter()
            .position(|r| r["name"] == n)
            .unwrap_or_else(|| panic!("{n} in {rows:?}"))
    };
    assert!(pos(&a.name) < pos(&b.name));
    assert_eq!(rows[pos(&a.name)]["rated_games"], rating::PROVISIONAL_GAMES);
    assert!(rows.iter().zip(1..).all(|(r, i)| r["rank"] == i));
    // A banned player is left off; the rest keep their order.
    let page_of = |i: usize| i / 50 + 1;
    let a_page = page_of(pos(&a.name));
    let state = &s.server.as_ref().unwrap().state;
    let ua = state.play().store().user_by_name(&a.name).await.unwrap().unwrap();
    state.play().store().set_banned(&ua.id, true).await.unwrap();
    let board = Client::anonymous(&s)
        .get_json(&format!("/api/leaderboard/xiangqi?page={a_page}"))
        .await;
    assert!(!board
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["name"] == a.name.as_str()));
    state.play().store().set_banned(&ua.id, false).await.unwrap();
    s.stop().await;
}

async fn board_settings_are_kept_with_the_account() {
    let mut s = common::start().await;
    let c = Client::register(&s, "look").await;
    let get = |c: &Client| {
        let c = Client {
            http: c.http.clone(),
            cookie: c.cookie.clone(),
            ..Client::anonymous(&s)
        };
        async move { c.get_json("/api/account/settings").await }
    };
    assert_eq!(
        get(&c).await,
        json!({"board_theme": "wood", "piece_set": "chinese", "coordinates": true,
               "board_size": "medium", "chess_pieces": "cburnett", "move_confirmation": "off",
               "takebacks": true})
    );
    let put = |c: &Client, body: Value| {
        let req = c
            .http
            .put(format!("{}/api/account/settings", c.base))
            .header("x-qiju-csrf", "1")
            .header("cookie", c.cookie.clone().unwrap_or_default())
            .json(&body);
        async move { req.send().await.unwrap().status() }
    };
    // A browser of the previous release sends no board size, chess pieces
    // or move confirmation: they take their defaults.
    let old = json!({"board_theme": "slate", "piece_set": "letters", "coordinates": false});
    assert_eq!(put(&c, old).await, 200);
    assert_eq!(get(&c).await["move_confirmation"], "off");
    let mine = json!({"board_theme": "paper", "piece_set": "traditional", "coordinates": false,
                      "board_size": "large", "chess_pieces": "letters", "move_confirmation": "phones",
                      "takebacks": false});
    assert_eq!(put(&c, mine.clone()).await, 200);
    // Another browser, the same account: the same settings.
    let mut other = Client {
        name: c.name.clone(),
        ..Client::anonymous(&s)
    };
    assert_eq!(other.login("correct horse").await.status(), 200);
    assert_eq!(get(&other).await, mine);
    // Unknown values and fields are refused and change nothing.
    assert_eq!(
        put(
            &c,
            json!({"board_theme": "neon", "piece_set": "letters", "coordinates": false})
        )
        .await,
        422
    );
    assert_eq!(
        put(
            &c,
            json!({"board_theme": "wood", "piece_set": "chinese", "coordinates": true, "x": 1})
        )
        .await,
        422
    );
    // An unknown value is named, with the values there are.
    let said = c
        .http
        .put(format!("{}/api/account/settings", c.base))
        .header("x-qiju-csrf", "1")
        .header("cookie", c.cookie.clone().unwrap_or_default())
        .json(&json!({"board_size": "huge"}))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        said.contains("unknown variant `huge`, expected one of `small`, `medium`, `large`"),
        "{said}"
    );
    assert_eq!(get(&c).await, mine);
    assert_eq!(put(&Client::anonymous(&s), mine).await, 401);
    // The API's description has the new fields' values.
    let api = c.get_json("/api/openapi.json").await;
    let schemas = &api["components"]["schemas"];
    assert_eq!(
        schemas["BoardSize"]["enum"],
        json!(["small", "medium", "large"]),
        "{}",
        schemas["Settings"]
    );
    assert_eq!(
        schemas["MoveConfirmation"]["enum"],
        json!(["off", "on", "phones"])
    );
    s.stop().await;
}

crate::on_both_databases!(
    search_leaderboard_and_head_to_head,
    board_settings_are_kept_with_the_account,
);
