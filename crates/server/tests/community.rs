//! The lobby as a place (issue 16, features 10 and 12): who is there by
//! name, the lobby chat with its history and limits, the report button's
//! endpoint, and an operator's ban.

mod common;

use common::{Client, TestServer};
use serde_json::{json, Value};

async fn lobby_chat_presence_reports_and_bans() {
    let mut s = common::start().await;
    let a = Client::register(&s, "la").await;
    let b = Client::register(&s, "lb").await;
    let mut aws = a.lobby_ws().await;
    assert_eq!(aws.expect("chat_history").await["lines"], json!([]));
    let mut bws = b.lobby_ws().await;
    bws.expect("chat_history").await;

    // Who is in the lobby, by name; a visitor's socket is nobody.
    let mut visitor = Client::anonymous(&s).lobby_ws().await;
    visitor.expect("chat_history").await;
    let live = Client::anonymous(&s).get_json("/api/games/live").await;
    let players: Vec<&str> = live["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        players.contains(&a.name.as_str()) && players.contains(&b.name.as_str()),
        "{live}"
    );
    assert_eq!(live["online"], players.len());

    // A line reaches everyone in the lobby, visitors too, and is kept for
    // whoever comes later.
    aws.send(&json!({"t": "chat", "text": "有人下一盘吗？"})).await;
    let line = bws.expect("chat").await;
    assert_eq!(
        (line["room"].as_str(), line["from"].as_str()),
        (Some("lobby"), Some(a.name.as_str()))
    );
    assert_eq!(visitor.expect("chat").await["text"], "有人下一盘吗？");
    let c = Client::register(&s, "lc").await;
    let mut cws = c.lobby_ws().await;
    let history = cws.expect("chat_history").await;
    assert_eq!(history["lines"][0]["text"], "有人下一盘吗？");
    // Visitors read but do not write; lines are checked as in games.
    visitor.send(&json!({"t": "chat", "text": "hi"})).await;
    assert_eq!(visitor.expect("error").await["code"], "unauthorized");
    aws.send(&json!({"t": "chat", "text": "\u{7}bell"})).await;
    assert_eq!(aws.expect("error").await["code"], "bad_chat");

    // The report button: filed once per line, never against oneself.
    let report = json!({"name": a.name, "text": "有人下一盘吗？", "context": "lobby"});
    assert_eq!(b.post("/api/reports", &report).await.status(), 204);
    let own = json!({"name": b.name, "text": "x", "context": "lobby"});
    assert_eq!(b.post("/api/reports", &own).await.status(), 400);
    let nobody = json!({"name": "no_such_player_zz", "text": "x", "context": "lobby"});
    assert_eq!(b.post("/api/reports", &nobody).await.status(), 404);
    assert_eq!(
        Client::anonymous(&s).post("/api/reports", &report).await.status(),
        401
    );
    let state = &s.server.as_ref().unwrap().state;
    let filed = state.play().store().reports(10).await.unwrap();
    assert!(filed.iter().any(|r| r.reporter == b.name
        && r.reported == a.name
        && r.context == "lobby"
        && r.reason == "other"));
    // With the reporter's reason (the page asks for one); a reason the
    // server does not know is refused, and nothing is filed.
    let why = json!({"name": a.name, "text": "有人下一盘吗？", "context": "lobby", "reason": "spam"});
    assert_eq!(b.post("/api/reports", &why).await.status(), 204);
    let odd = json!({"name": a.name, "text": "x", "context": "lobby", "reason": "boring"});
    assert!(b.post("/api/reports", &odd).await.status().is_client_error());
    // (PostgreSQL's test database holds other runs' reports too.)
    let filed: Vec<_> = state
        .play()
        .store()
        .reports(100)
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.reporter == b.name)
        .collect();
    let reasons: Vec<&str> = filed.iter().map(|r| r.reason.as_str()).collect();
    assert_eq!(reasons, ["spam", "other"]);
    for _ in 2..lobby::chat::REPORTS_PER_HOUR {
        assert_eq!(b.post("/api/reports", &report).await.status(), 204);
    }
    assert_eq!(b.post("/api/reports", &report).await.status(), 429);

    // A ban ends the player's sessions at once and refuses a new login;
    // the lobby socket a had open may no longer chat.
    let ua = state.play().store().user_by_name(&a.name).await.unwrap().unwrap();
    state.play().store().set_banned(&ua.id, true).await.unwrap();
    aws.send(&json!({"t": "chat", "text": "still here"})).await;
    assert_eq!(aws.expect("error").await["code"], "banned");
    assert_eq!(a.get("/api/account").await.status(), 401);
    let mut again = Client { cookie: None, ..a };
    let r = again.login("correct horse").await;
    assert_eq!(r.status(), 403);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "banned");
    state.play().store().set_banned(&ua.id, false).await.unwrap();
    assert_eq!(again.login("correct horse").await.status(), 200);
    drop((aws, bws, cws, visitor));
    s.stop().await;
}

/// The archive by opening: each game lists its first moves, and the
/// filter keeps the games that opened so.
async fn the_archive_is_searched_by_opening() {
    let mut s = common::start().await;
    let a = Client::register(&s, "oa").await;
    let b = Client::register(&s, "ob").await;
    for line in [["h2e2", "h9g7"], ["c3c4", "h9g7"], ["h2e2", "b9c7"]] {
        let (_, game, _) = a.challenge(&b, json!({"time": "10+0", "color": "first"})).await;
        common::play_then_resign(&game, &a, &b, &line, &b).await;
    }
    let all = a.get_json(&format!("/api/users/{}/games", a.name)).await;
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), 3);
    // Newest first: 炮二平五 马８进３.
    assert_eq!(all[0]["opening"][0]["display"], "炮二平五");
    assert_eq!(all[0]["opening"][1]["coord"], "b9c7");
    let count = |q: &'static str| {
        let a = &a;
        async move {
            a.get_json(&format!("/api/users/{}/games?opening={q}", a.name))
                .await
                .as_array()
                .unwrap()
                .len()
        }
    };
    assert_eq!(count("h2e2").await, 2);
    assert_eq!(count("h2e2,h9g7").await, 1);
    assert_eq!(count("c3c4").await, 1);
    assert_eq!(count("a0a1").await, 0);
    let r = a
        .get(&format!("/api/users/{}/games?opening=a,b,c,d,e,f,g,h,i", a.name))
        .await;
    assert_eq!(r.status(), 400);
    s.stop().await;
}

/// The ids of `/api/games/live` among `of`, in its order (a PostgreSQL
/// test database holds the live games of other tests too).
async fn live_ids(s: &TestServer, of: &[&str]) -> Vec<String> {
    let live = Client::anonymous(s).get_json("/api/games/live").await;
    live["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["id"].as_str())
        .filter(|id| of.contains(id))
        .map(String::from)
        .collect()
}

/// TV (issue 30, defect 13): games between people come before games
/// against the computer, and a game every player has left (each one's
/// last socket closed) is not offered until someone comes back.
async fn tv_shows_games_people_are_playing() {
    let s = common::start().await;
    let g = Client::guest(&s).await;
    let r: Value = g
        .post("/api/computer", &json!({"level": 1, "time": "10+5"}))
        .await
        .json()
        .await
        .unwrap();
    let cpu = r["game"].as_str().unwrap_or_else(|| panic!("{r}")).to_string();
    let a = Client::register(&s, "tva").await;
    let b = Client::register(&s, "tvb").await;
    let (_, people, _) = a.challenge(&b, json!({"time": "10+5"})).await;
    let both = [people.as_str(), cpu.as_str()];
    let shown = live_ids(&s, &both).await;
    assert_eq!(shown.first(), Some(&people), "people first: {shown:?}");
    if common::database().1.is_some() {
        // SQLite: this server's games alone.
        assert_eq!(shown, [people.clone(), cpu.clone()]);
    }

    // The guest leaves the computer game: nobody is playing it.
    let (gws, _) = g.ws(&cpu).await;
    drop(gws);
    common::eventually("the deserted computer game leaves TV", || async {
        live_ids(&s, &both).await == [people.clone()]
    })
    .await;
    // Both people leave theirs: TV has nothing of theirs to show.
    let (aws, _) = a.ws(&people).await;
    let (bws, _) = b.ws(&people).await;
    drop(aws);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(
        live_ids(&s, &both).await,
        std::slice::from_ref(&people),
        "one player is still there"
    );
    drop(bws);
    common::eventually("the deserted game leaves TV", || async {
        live_ids(&s, &both).await.is_empty()
    })
    .await;
    // One comes back: the game is on again.
    let (_aws, _) = a.ws(&people).await;
    common::eventually("a game with a player back returns to TV", || async {
        live_ids(&s, &both).await == [people.clone()]
    })
    .await;
}

crate::on_both_databases!(
    lobby_chat_presence_reports_and_bans,
    the_archive_is_searched_by_opening,
    tv_shows_games_people_are_playing,
);
