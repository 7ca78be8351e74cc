//! `qiju serve --engine NAME=COMMAND`: an operator's UCI engine (here qiju's
//! own, `qiju engine`) is driven by the match runner's adapter and answers
//! a player's moves over the HTTP API.

mod common;

use common::{free_port, register, start_with, unique, Http};
use std::time::{Duration, Instant};

#[test]
fn an_operators_engine_plays_a_game() {
    let dir = std::env::temp_dir().join(unique("qiju-engine-"));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("qiju.db").display());
    let port = free_port();
    let http = Http {
        addr: format!("127.0.0.1:{port}"),
    };
    let engine = format!("self=cmd={} arg=engine name=self", env!("CARGO_BIN_EXE_qiju"));
    let mut server = start_with(&db, port, "engine-test", &["--engine", &engine]);
    let info = http.json("GET", "/api/info", None, None);
    assert_eq!(info["engines"], serde_json::json!(["self"]), "{info}");
    let me = register(&http, "h");
    let started = http.json(
        "POST",
        "/api/computer",
        Some(&me),
        Some(r#"{"engine":"self","time":"0.5+0","color":"first"}"#),
    );
    let game = started["game"].as_str().expect("a game").to_string();
    let mut position = referee::XiangqiGame::new("startpos", referee::RuleSet::Cxa).unwrap();
    use game::Game;
    for (ply, mine) in [(1, "h2e2"), (3, "h0g2")] {
        let r = http.request(
            "POST",
            &format!("/api/games/{game}/move/{mine}?ply={ply}"),
            Some(&me),
            None,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        position.play(mine).unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        let reply = loop {
            let v = http.json("GET", &format!("/api/games/{game}"), Some(&me), None);
            if v["ply"] == ply + 1 {
                break v["moves"][ply]["move"].as_str().unwrap().to_string();
            }
            assert!(Instant::now() < deadline, "the engine answers: {v}");
            std::thread::sleep(Duration::from_millis(50));
        };
        position.play(&reply).expect("the engine's move is legal");
    }
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
