//! Hostile clients: moving for the opponent, moving in someone else's game,
//! oversized and malformed messages, a session cookie replayed after logout,
//! cross-site requests and password guessing. Every one is refused and
//! changes nothing. Unknown paths are "not found", and every answer carries
//! the security headers (CSP, frame and content-type options).

mod common;

use common::{Client, TestServer};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn paired(s: &TestServer) -> (String, Client, Client) {
    let a = Client::register(s, "a").await;
    let b = Client::register(s, "b").await;
    let (game, a_color) = a.pair(&b, "10+0", false).await;
    if a_color == "first" {
        (game, a, b)
    } else {
        (game, b, a)
    }
}

async fn ply(c: &Client, game: &str) -> (u64, String) {
    let v = c.get_json(&format!("/api/games/{game}")).await;
    (v["ply"].as_u64().unwrap(), v["fen"].as_str().unwrap().to_string())
}

async fn nobody_moves_for_the_opponent() {
    let mut s = common::start().await;
    let (game, red, black) = paired(&s).await;
    let (mut rws, _) = red.ws(&game).await;
    let (mut bws, _) = black.ws(&game).await;
    let before = ply(&red, &game).await;
    // Black tries to move on red's turn, with a red move and a black move.
    for mv in ["h2e2", "h9g7"] {
        bws.send(&json!({"t": "move", "move": mv})).await;
        assert_eq!(bws.expect("error").await["code"], "not_your_turn");
    }
    // Red tries to move a black piece.
    rws.send(&json!({"t": "move", "move": "h9g7"})).await;
    assert_eq!(rws.expect("error").await["code"], "illegal_move");
    // And over the REST API.
    let r = black
        .post(&format!("/api/games/{game}/move/h2e2"), &json!({}))
        .await;
    assert_eq!(r.status(), 409);
    assert_eq!(ply(&red, &game).await, before, "nothing changed");
    // Red plays; now red may not play again.
    rws.play("h2e2").await;
    rws.send(&json!({"t": "move", "move": "h0g2"})).await;
    assert_eq!(rws.expect("error").await["code"], "not_your_turn");
    // Black may not accept a draw nobody offered, nor resign for red.
    bws.send(&json!({"t": "draw_accept"})).await;
    assert_eq!(bws.expect("error").await["code"], "no_offer");
    assert_eq!(ply(&red, &game).await.0, 1);
    s.stop().await;
}

async fn outsiders_cannot_act_in_someone_elses_game() {
    let mut s = common::start().await;
    let (game, red, _black) = paired(&s).await;
    let intruder = Client::register(&s, "x").await;
    let before = ply(&red, &game).await;
    let (mut iws, full) = intruder.ws(&game).await;
    assert_eq!(full["you"], Value::Null, "an outsider only watches");
    for msg in [
        json!({"t": "move", "move": "h2e2"}),
        json!({"t": "resign"}),
        json!({"t": "abort"}),
        json!({"t": "draw_offer"}),
    ] {
        iws.send(&msg).await;
        assert_eq!(iws.expect("error").await["code"], "not_a_player", "{msg}");
    }
    for path in ["move/h2e2", "resign", "abort", "draw/offer"] {
        let r = intruder
            .post(&format!("/api/games/{game}/{path}"), &json!({}))
            .await;
        assert_eq!(r.status(), 403, "{path}");
    }
    // Anonymous spectators cannot act either.
    let anon = Client::anonymous(&s);
    let (mut aws, _) = anon.ws(&game).await;
    aws.send(&json!({"t": "move", "move": "h2e2"})).await;
    assert_eq!(aws.expect("error").await["code"], "not_a_player");
    let r = anon
        .post(&format!("/api/games/{game}/move/h2e2"), &json!({}))
        .await;
    assert_eq!(r.status(), 401);
    assert_eq!(ply(&red, &game).await, before);
    assert_eq!(red.get_json(&format!("/api/games/{game}")).await["state"], "live");
    s.stop().await;
}

async fn oversized_and_malformed_messages_are_refused() {
    let mut s = common::start().await;
    let (game, red, _black) = paired(&s).await;
    let before = ply(&red, &game).await;
    let (mut rws, _) = red.ws(&game).await;
    for bad in [
        "{not json".to_string(),
        "[]".to_string(),
        r#"{"t":"move"}"#.to_string(),
        r#"{"t":"move","move":42}"#.to_string(),
        r#"{"t":"launch_missiles"}"#.to_string(),
        r#"{"t":"move","move":"h2e2","extra":"field"}"#.to_string(),
        r#"{"t":"move","move":"zz99"}"#.to_string(),
    ] {
        rws.send_raw(bad.clone()).await.unwrap();
        let err = rws.expect("error").await;
        assert!(
            err["code"] == "bad_message" || err["code"] == "illegal_move",
            "{bad}: {err}"
        );
    }
    assert_eq!(ply(&red, &game).await, before);
    // A 100 KB message: the server closes the connection.
    let huge = format!(r#"{{"t":"move","move":"{}"}}"#, "h".repeat(100_000));
    let _ = rws.send_raw(huge).await;
    let mut closed = false;
    for _ in 0..10 {
        match rws.next().await {
            None => {
                closed = true;
                break;
            }
            Some(m) => assert_ne!(m["t"], "move"),
        }
    }
    assert!(closed, "the connection is closed after an oversized message");
    assert_eq!(ply(&red, &game).await, before);
    // The player reconnects and plays on.
    let (mut rws, full) = red.ws(&game).await;
    assert_eq!(full["you"], "first");
    rws.play("h2e2").await;
    // Oversized and malformed HTTP bodies are refused too.
    // A body announced as 1 MB is refused from its headers alone: the server
    // answers 413 before reading it (a client still writing the body may see
    // the connection close instead, so the test sends only the headers).
    let seeks_before = red.get_json("/api/seeks").await;
    let head = format!(
        "POST /api/seeks HTTP/1.1\r\nHost: x\r\nX-Qiju-Csrf: 1\r\nCookie: {}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{{\"time\":\"",
        red.cookie.clone().unwrap()
    );
    let mut tcp = tokio::net::TcpStream::connect(red.base.trim_start_matches("http://"))
        .await
        .unwrap();
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut reply = vec![0u8; 4096];
    let n = tokio::time::timeout(std::time::Duration::from_secs(10), tcp.read(&mut reply))
        .await
        .expect("the server answers without waiting for the body")
        .unwrap();
    let reply = String::from_utf8_lossy(&reply[..n]);
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert_eq!(red.get_json("/api/seeks").await, seeks_before, "nothing changed");
    let r = red
        .http
        .post(format!("{}/api/seeks", red.base))
        .header("x-qiju-csrf", "1")
        .header("cookie", red.cookie.clone().unwrap())
        .header("content-type", "application/json")
        .body("{\"time\":")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    s.stop().await;
}

async fn a_session_cookie_replayed_after_logout_is_refused() {
    let mut s = common::start().await;
    let (game, red, _black) = paired(&s).await;
    let old = red.cookie.clone().unwrap();
    assert_eq!(red.get("/api/account").await.status(), 200);
    let r = red.post("/api/auth/logout", &json!({})).await;
    assert_eq!(r.status(), 204);
    let cleared = r.headers()["set-cookie"].to_str().unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    // Replay the old cookie.
    let replay = Client {
        cookie: Some(old),
        ..Client::anonymous(&s)
    };
    assert_eq!(replay.get("/api/account").await.status(), 401);
    let r = replay.post("/api/seeks", &json!({"time": "5+0"})).await;
    assert_eq!(r.status(), 401);
    let r = replay
        .post(&format!("/api/games/{game}/move/h2e2"), &json!({}))
        .await;
    assert_eq!(r.status(), 401);
    let (mut ws, full) = replay.ws(&game).await;
    assert_eq!(full["you"], Value::Null);
    ws.send(&json!({"t": "move", "move": "h2e2"})).await;
    assert_eq!(ws.expect("error").await["code"], "not_a_player");
    assert_eq!(ply(&replay, &game).await.0, 0, "nothing changed");
    // Logging in again gives a new session that works.
    let mut again = Client {
        name: red.name.clone(),
        ..Client::anonymous(&s)
    };
    assert_eq!(again.login("correct horse").await.status(), 200);
    assert_eq!(again.get("/api/account").await.status(), 200);
    assert_ne!(again.cookie, replay.cookie);
    s.stop().await;
}

async fn cross_site_requests_are_refused() {
    let mut s = common::start().await;
    let c = Client::register(&s, "c").await;
    // No CSRF header: refused even with a valid cookie.
    let r = c
        .http
        .post(format!("{}/api/seeks", c.base))
        .header("cookie", c.cookie.clone().unwrap())
        .json(&json!({"time": "5+0"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "csrf");
    // A foreign Origin: refused even with the header.
    let r = c
        .http
        .post(format!("{}/api/seeks", c.base))
        .header("cookie", c.cookie.clone().unwrap())
        .header("x-qiju-csrf", "1")
        .header("origin", "http://evil.example")
        .json(&json!({"time": "5+0"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert!(c.get_json("/api/seeks").await.as_array().unwrap().is_empty());
    // The cookie is HttpOnly and SameSite.
    let r = Client::anonymous(&s).post("/api/auth/guest", &json!({})).await;
    let set = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"), "{set}");
    s.stop().await;
}

async fn password_guessing_is_rate_limited() {
    let mut s = common::start_with(|c| {
        c.login_limits = accounts::LoginLimits {
            per_ip: 100,
            per_account: 3,
            window_ms: 60_000,
            max_hashes: 2,
        };
    })
    .await;
    let mut c = Client::register(&s, "v").await;
    // Twelve wrong passwords at once from one address: exactly three are
    // tried (each attempt is counted before its hash, atomically).
    let tries = (0..12).map(|_| {
        let c = Client {
            http: reqwest::Client::new(),
            base: c.base.clone(),
            ws_base: c.ws_base.clone(),
            name: c.name.clone(),
            cookie: None,
        };
        async move {
            c.post(
                "/api/auth/login",
                &json!({"name": c.name, "password": "wrong password"}),
            )
            .await
            .status()
        }
    });
    let statuses = futures_util::future::join_all(tries).await;
    let tried = statuses.iter().filter(|s| s.as_u16() == 401).count();
    let refused = statuses.iter().filter(|s| s.as_u16() == 429).count();
    assert_eq!((tried, refused), (3, 9), "{statuses:?}");
    // The next try is refused before the password is even checked, and so
    // is the right password from this address while the limit lasts.
    let r = c.login("wrong password").await;
    assert_eq!(r.status(), 429);
    assert!(r.headers().contains_key("retry-after"));
    assert_eq!(c.login("correct horse").await.status(), 429);
    // The owner, elsewhere, is not locked out by the guessing.
    let mut owner = Client {
        http: reqwest::Client::builder()
            .local_address(std::net::IpAddr::from([127, 0, 0, 2]))
            .build()
            .unwrap(),
        base: c.base.clone(),
        ws_base: c.ws_base.clone(),
        name: c.name.clone(),
        cookie: None,
    };
    assert_eq!(owner.login("correct horse").await.status(), 200);
    // Bad registrations are refused with clear errors.
    let anon = Client::anonymous(&s);
    let r = anon
        .post(
            "/api/auth/register",
            &json!({"name": c.name, "password": "long enough"}),
        )
        .await;
    assert_eq!(r.status(), 409);
    let r = anon
        .post(
            "/api/auth/register",
            &json!({"name": "ok_name", "password": "short"}),
        )
        .await;
    assert_eq!(r.status(), 400);
    s.stop().await;
}

async fn unknown_paths_are_not_found_and_every_answer_carries_the_security_headers() {
    let mut s = common::start().await;
    let c = Client::anonymous(&s);
    // An API path that does not exist, and a missing file: 404, not the app.
    for (path, json) in [
        ("/api/nope", true),
        ("/api/games/x/nope", true),
        ("/js/nope.js", false),
        ("/favicon.ico", false),
    ] {
        let r = c.get(path).await;
        assert_eq!(r.status(), 404, "{path}");
        if json {
            let body: Value = r.json().await.unwrap();
            assert_eq!(body["error"], "not_found", "{path}: {body}");
        }
    }
    let r = c.post("/api/nope", &json!({})).await;
    assert_eq!(r.status(), 404);
    // The UI's own routes still get the app.
    for path in ["/", "/game/abc", "/@/someone"] {
        let r = c.get(path).await;
        assert_eq!(r.status(), 200, "{path}");
        let h = r.headers().clone();
        assert!(r.text().await.unwrap().contains("<html"), "{path}");
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"),
            "{csp}"
        );
        assert_eq!(h["x-frame-options"], "DENY");
        assert_eq!(h["x-content-type-options"], "nosniff");
    }
    let r = c.get("/api/info").await;
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    s.stop().await;
}

crate::on_both_databases!(
    nobody_moves_for_the_opponent,
    outsiders_cannot_act_in_someone_elses_game,
    oversized_and_malformed_messages_are_refused,
    a_session_cookie_replayed_after_logout_is_refused,
    cross_site_requests_are_refused,
    password_guessing_is_rate_limited,
    unknown_paths_are_not_found_and_every_answer_carries_the_security_headers,
);
