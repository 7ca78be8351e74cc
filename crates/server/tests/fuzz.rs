//! Property tests of the message parsers over a real server (issue 15):
//! arbitrary WebSocket messages from the player to move, and arbitrary
//! bodies to the state-changing REST endpoints. Whatever comes, the server
//! answers (never a 5xx, never a dropped socket), and a refused message
//! changes nothing: the game, the seek list and the challenges are as
//! before. Deterministic (a fixed seed) and bounded (a few hundred cases),
//! so it runs in CI.

mod common;

use common::Client;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Map, Value};

/// What must not change when a message is refused.
async fn snapshot(c: &Client, game: &str) -> Value {
    let g = c.get_json(&format!("/api/games/{game}")).await;
    json!({
        "ply": g["ply"], "fen": g["fen"], "state": g["state"], "draw_offer": g["draw_offer"],
        "seeks": c.get_json("/api/seeks").await,
        "challenges": c.get_json("/api/challenges").await,
    })
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

/// Keys the parsers know, so generated objects reach past the first field.
const KEYS: &[&str] = &[
    "t",
    "move",
    "ply",
    "time",
    "to",
    "level",
    "engine",
    "variant",
    "rated",
    "color",
    "fen",
    "name",
    "password",
    "token",
    "rating_min",
    "rating_max",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        prop::sample::select(vec![
            "-",
            "5+0",
            "10+5",
            "h2e2",
            "first",
            "red",
            "xiangqi/cxa",
            "chess"
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        prop::sample::select(KEYS.to_vec()).prop_map(String::from),
                        "[a-z_]{1,8}"
                    ],
                    inner
                ),
                0..5
            )
            .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A game-socket message the server must refuse: not JSON, an unknown
/// kind, a known kind with a field it does not have or of the wrong type,
/// or a move that is not a coordinate move at all.
fn refused_ws_message() -> impl Strategy<Value = String> {
    let kinds = vec![
        "move",
        "resign",
        "draw_offer",
        "draw_accept",
        "draw_decline",
        "claim_draw",
        "abort",
        "ping",
        "resync",
    ];
    prop_oneof![
        ".{0,64}".prop_filter("not JSON", |s| serde_json::from_str::<Value>(s).is_err()),
        json_value()
            .prop_filter("not an object with a known kind", |v| {
                serde_json::from_value::<server::ws::ClientMsg>(v.clone()).is_err()
            })
            .prop_map(|v| v.to_string()),
        (prop::sample::select(kinds), "[a-z]{1,6}", json_value())
            .prop_filter("an extra field", |(_, k, _)| !["t", "move", "ply"]
                .contains(&k.as_str()))
            .prop_map(|(t, k, v)| {
                let mut o = Map::new();
                o.insert("t".into(), t.into());
                if t == "move" {
                    o.insert("move".into(), "h2e2".into());
                }
                o.insert(k, v);
                Value::Object(o).to_string()
            }),
        prop_oneof![
            "[a-z0-9]{0,3}",
            "[a-z0-9]{5,9}",
            "[j-z][0-9][a-i][0-9]",
            "[a-i][0-9][a-i][0-9]{2,3}"
        ]
        .prop_map(|m| json!({"t": "move", "move": m}).to_string()),
        json_value()
            .prop_map(|m| json!({"t": "move", "move": m}).to_string())
            .prop_filter("not a string move", |s| !s.contains("\"move\":\"")),
    ]
}

async fn refused_socket_messages_change_nothing() {
    let mut s = common::start().await;
    let a = Client::register(&s, "a").await;
    let b = Client::register(&s, "b").await;
    let (_, game, _) = a.challenge(&b, json!({"time": "10+0", "color": "first"})).await;
    let (ws, full) = a.ws(&game).await;
    assert_eq!(full["you"], "first");
    // The runner takes an `Fn`; the socket is used by one case at a time.
    let ws = tokio::sync::Mutex::new(ws);
    let handle = tokio::runtime::Handle::current();
    let mut runner = runner(300);
    let result = tokio::task::block_in_place(|| {
        runner.run(&refused_ws_message(), |text| {
            handle.block_on(async {
                let before = snapshot(&a, &game).await;
                let mut ws = ws.lock().await;
                ws.send_raw(text.clone()).await.expect("the socket is open");
                let reply = ws.expect("error").await;
                prop_assert!(reply["code"].is_string(), "{text} -> {reply}");
                prop_assert_eq!(snapshot(&a, &game).await, before, "{} changed the game", text);
                Ok(())
            })
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // Still a working connection and a working game.
    let mut ws = ws.into_inner();
    ws.send(&json!({"t": "ping"})).await;
    assert_eq!(ws.expect("pong").await["t"], "pong");
    assert_eq!(ws.play("h2e2").await["ply"], 1);
    s.stop().await;
}

async fn arbitrary_request_bodies_are_answered_and_refusals_change_nothing() {
    let mut s = common::start().await;
    let a = Client::register(&s, "a").await;
    let b = Client::register(&s, "b").await;
    let (_, game, _) = a.challenge(&b, json!({"time": "10+0", "color": "first"})).await;
    let paths = vec![
        "/api/seeks".to_string(),
        "/api/challenges".to_string(),
        "/api/computer".to_string(),
        "/api/auth/register".to_string(),
        "/api/auth/login".to_string(),
        "/api/account/tokens/revoke".to_string(),
        format!("/api/games/{game}/resign"),
        format!("/api/games/{game}/draw/offer"),
    ];
    let body = prop_oneof![
        json_value().prop_map(|v| v.to_string()),
        ".{0,80}".prop_map(String::from),
    ];
    let handle = tokio::runtime::Handle::current();
    let mut runner = runner(400);
    let result = tokio::task::block_in_place(|| {
        runner.run(&(prop::sample::select(paths), body), |(path, body)| {
            handle.block_on(async {
                let before = snapshot(&a, &game).await;
                let r = a
                    .http
                    .post(format!("{}{path}", a.base))
                    .header("x-qiju-csrf", "1")
                    .header("content-type", "application/json")
                    .header("cookie", a.cookie.clone().unwrap())
                    .body(body.clone())
                    .send()
                    .await
                    .expect("answered");
                let status = r.status();
                prop_assert!(!status.is_server_error(), "POST {} {} -> {}", path, body, status);
                if !status.is_success() {
                    let err: Value = r.json().await.unwrap_or(Value::Null);
                    prop_assert!(
                        err["error"].is_string()
                            || status == 415
                            || status == 413
                            || status.as_u16() == 422
                            || status == 400,
                        "POST {} {} -> {} {}",
                        path,
                        body,
                        status,
                        err
                    );
                    prop_assert_eq!(
                        snapshot(&a, &game).await,
                        before,
                        "refused POST {} {} changed state",
                        path,
                        body
                    );
                }
                Ok(())
            })
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    s.stop().await;
}

crate::on_both_databases!(
    refused_socket_messages_change_nothing,
    arbitrary_request_bodies_are_answered_and_refusals_change_nothing,
);
