//! Authority that ends ends everywhere (issue 24, items 2 and "cookie as
//! bearer"): a session that is logged out, revoked or barred closes the
//! sockets and streams it opened — before, a socket opened with a token
//! later revoked went on playing moves — and each kind of session is taken
//! only the way it was given out.

mod common;

use common::{Client, TestServer, Ws};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The session token in a client's cookie (`qiju_session=…`).
fn token_of(c: &Client) -> String {
    c.cookie
        .as_deref()
        .unwrap()
        .trim_start_matches("qiju_session=")
        .to_string()
}

/// A bearer token of `c`'s account.
async fn bearer_token(c: &Client) -> String {
    let r = c.post("/api/account/token", &json!({})).await;
    assert_eq!(r.status(), 201);
    r.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A game's socket opened with a bearer token, and its `full` message.
async fn ws_with_bearer(s: &TestServer, game: &str, token: &str) -> (Ws, Value) {
    let mut req = format!("{}/api/games/{game}/ws", s.ws_base)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (stream, _) = tokio_tungstenite::connect_async(req).await.expect("ws connects");
    let mut ws = Ws { stream };
    let full = ws.expect("full").await;
    (ws, full)
}

/// The socket says its session ended, then closes; a move sent after it is
/// played nowhere.
async fn closed_for_its_session(ws: &mut Ws) {
    let m = ws.expect("error").await;
    assert_eq!(m["code"], "session_ended", "{m}");
    assert!(ws.next().await.is_none(), "the socket closes");
}

async fn a_session_cookie_is_no_bearer_token() {
    let mut s = common::start().await;
    let a = Client::register(&s, "cb").await;
    let http = reqwest::Client::new();
    // The cookie's value as a bearer token, with no CSRF header: refused.
    let r = http
        .post(format!("{}/api/seeks", s.base))
        .bearer_auth(token_of(&a))
        .json(&json!({"time": "5+0"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    // Nor is a bot's token a cookie.
    let t = bearer_token(&a).await;
    let as_cookie = Client {
        cookie: Some(format!("qiju_session={t}")),
        ..Client::anonymous(&s)
    };
    assert_eq!(as_cookie.get("/api/account").await.status(), 401);
    // Each the way it was given out still works.
    let r = http
        .get(format!("{}/api/account", s.base))
        .bearer_auth(&t)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(a.get("/api/account").await.status(), 200);
    s.stop().await;
}

async fn logging_out_closes_the_sessions_sockets_and_another_browser_plays_on() {
    let mut s = common::start().await;
    let a = Client::register(&s, "lo").await;
    let b = Client::register(&s, "lo").await;
    let (game, a_side) = a.pair(&b, "10+0", false).await;
    // a has the game open in two browsers: the same account, two sessions.
    let mut second = Client {
        name: a.name.clone(),
        ..Client::anonymous(&s)
    };
    assert_eq!(second.login("correct horse").await.status(), 200);
    let (mut ws1, _) = a.ws(&game).await;
    let (mut ws2, _) = second.ws(&game).await;
    // The first browser logs out: its socket closes at once, the other's stays.
    assert_eq!(a.post("/api/auth/logout", &json!({})).await.status(), 204);
    closed_for_its_session(&mut ws1).await;
    if a_side == "first" {
        ws2.play("h2e2").await;
    } else {
        b.ws(&game).await.0.play("h2e2").await;
        ws2.play("h9g7").await;
    }
    // Logging out everywhere closes the second one too.
    assert_eq!(
        second
            .post("/api/auth/logout-everywhere", &json!({}))
            .await
            .status(),
        200
    );
    closed_for_its_session(&mut ws2).await;
    s.stop().await;
}

async fn a_revoked_token_ends_its_socket_and_its_event_stream() {
    let mut s = common::start().await;
    let a = Client::register(&s, "rv").await;
    let b = Client::register(&s, "rv").await;
    let (game, _) = a.pair(&b, "10+0", false).await;
    let t = bearer_token(&a).await;
    let (mut ws, full) = ws_with_bearer(&s, &game, &t).await;
    assert!(full["you"].is_string(), "the token's socket plays: {full}");
    let events = reqwest::Client::new()
        .get(format!("{}/api/stream/event", s.base))
        .bearer_auth(&t)
        .send()
        .await
        .unwrap();
    assert_eq!(events.status(), 200);
    let r = a.post("/api/account/tokens/revoke", &json!({"token": t})).await;
    assert_eq!(r.json::<Value>().await.unwrap()["ended"], 1);
    closed_for_its_session(&mut ws).await;
    // The stream ends (its keep-alive lines aside) instead of streaming on.
    let mut body = events.bytes_stream();
    let end = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(chunk) = body.next().await {
            if chunk.is_err() {
                break;
            }
        }
    })
    .await;
    assert!(
        end.is_ok(),
        "the event stream went on after its token was revoked"
    );
    // The browser session of the same account is untouched.
    assert_eq!(a.get("/api/account").await.status(), 200);
    s.stop().await;
}

async fn an_operators_ban_closes_the_players_sockets() {
    let mut s = common::start().await;
    let a = Client::register(&s, "bn").await;
    let b = Client::register(&s, "bn").await;
    let (game, _) = a.pair(&b, "10+0", false).await;
    let (mut ws, _) = a.ws(&game).await;
    let (mut bws, _) = b.ws(&game).await;
    // What `qiju admin ban` does, from outside the server: it writes the
    // database, which the server does not hear of but by looking.
    let store = s.server.as_ref().unwrap().state.play().store();
    let ua = store.user_by_name(&a.name).await.unwrap().unwrap();
    store.set_banned(&ua.id, true).await.unwrap();
    closed_for_its_session(&mut ws).await;
    // The opponent's socket stays open.
    bws.send(&json!({"t": "ping"})).await;
    assert_eq!(bws.expect("pong").await["t"], "pong");
    s.stop().await;
}

crate::on_both_databases!(
    a_session_cookie_is_no_bearer_token,
    logging_out_closes_the_sessions_sockets_and_another_browser_plays_on,
    a_revoked_token_ends_its_socket_and_its_event_stream,
    an_operators_ban_closes_the_players_sockets,
);
