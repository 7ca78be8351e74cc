//! Several `qiju serve` nodes on one PostgreSQL (issue 29): when the node
//! that owns a live game dies (`kill -9`), another takes the game over
//! within seconds and play goes on, with every acknowledged move stored
//! exactly once; and a node frozen past its lease (`SIGSTOP`) that wakes up
//! (`SIGCONT`) cannot write into the game another node took over — its
//! late move is refused by the lease's fence; and a node stopped with
//! `SIGTERM` gives its games up at once.
//!
//! PostgreSQL only (`QIJU_TEST_POSTGRES`): a SQLite file is one node's.
//! These nodes share no bus (`bus_nodes.rs` links three by Redis), so each
//! client talks to the node that runs its game.

mod common;

use common::{free_port, postgres, register, start_with, unique, Http};
use serde_json::Value;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// A running node, killed when dropped: a failed test leaves no node
/// behind to take the next run's games over.
struct Node(Child);

impl Drop for Node {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-CONT", &self.0.id().to_string()])
            .stderr(std::process::Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A node taking part in takeovers, with 3-second leases (its heartbeat
/// comes every second).
fn node(db: &str, name: &str) -> (Node, Http) {
    let port = free_port();
    let child = start_with(db, port, name, &["--take-over", "--lease-seconds", "3"]);
    (
        Node(child),
        Http {
            addr: format!("127.0.0.1:{port}"),
        },
    )
}

fn kill(child: &mut Child, signal: &str) {
    let ok = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "kill {signal}");
}

/// A game between two fresh accounts on `http`'s node: (id, red, black).
fn new_game(http: &Http) -> (String, String, String) {
    let a = register(http, "na");
    let b = register(http, "nb");
    let seek = r#"{"time":"10+0"}"#;
    assert!(http.json("POST", "/api/seeks", Some(&a), Some(seek))["seek"].is_string());
    let second = http.json("POST", "/api/seeks", Some(&b), Some(seek));
    let id = second["game"].as_str().unwrap().to_string();
    if second["color"] == "first" {
        (id, b, a)
    } else {
        (id, a, b)
    }
}

fn play(http: &Http, id: &str, who: &str, mv: &str) -> u16 {
    http.request(
        "POST",
        &format!("/api/games/{id}/move/{mv}"),
        Some(who),
        Some("{}"),
    )
    .status
}

/// The stored moves of a game, as any node reads them.
fn stored_moves(http: &Http, id: &str) -> Vec<String> {
    let g: Value = http.json("GET", &format!("/api/games/{id}"), None, None);
    g["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("a game view: {g}"))
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

/// Retries a move on `http`'s node until it is taken (the node took the
/// game over): how long that took.
fn play_once_taken_over(http: &Http, id: &str, who: &str, mv: &str) -> Duration {
    let t0 = Instant::now();
    loop {
        match play(http, id, who, mv) {
            200 => return t0.elapsed(),
            404 | 503 => {}
            other => panic!("move {mv} on the new node: {other}"),
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "no node took game {id} over within 20 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// One test, its nodes one after another: nodes taking over in parallel
/// tests would take each other's games.
#[test]
fn games_survive_a_killed_node_and_a_frozen_one() {
    let Some(db) = postgres() else { return };
    let (mut a, on_a) = node(&db, &unique("na-"));
    let (mut b, on_b) = node(&db, &unique("nb-"));
    a_killed_nodes_game_is_taken_over_and_finished_elsewhere(&mut a.0, &on_a, &on_b);
    let (mut c, on_c) = node(&db, &unique("nc-"));
    a_frozen_node_that_wakes_cannot_write_into_a_game_taken_over(&mut c.0, &on_c, &on_b);
    kill(&mut c.0, "-TERM");
    let _ = c.0.wait();
    // A node that drains gives its games up: with 60-second leases, its
    // game is taken over long before they would run out.
    let port = free_port();
    let e = start_with(
        &db,
        port,
        &unique("ne-"),
        &["--take-over", "--lease-seconds", "60"],
    );
    let mut e = Node(e);
    let on_e = Http {
        addr: format!("127.0.0.1:{port}"),
    };
    let (id, red, black) = new_game(&on_e);
    assert_eq!(play(&on_e, &id, &red, "h2e2"), 200);
    kill(&mut e.0, "-TERM");
    let _ = e.0.wait();
    let took = play_once_taken_over(&on_b, &id, &black, "h9g7");
    eprintln!(
        "node b took the drained node's game over {} ms after SIGTERM",
        took.as_millis()
    );
    assert!(
        took < Duration::from_secs(20),
        "taken over before the 60 s lease ran out"
    );
    assert_eq!(stored_moves(&on_b, &id), ["h2e2", "h9g7"]);
    kill(&mut b.0, "-TERM");
    let _ = b.0.wait();
}

fn a_killed_nodes_game_is_taken_over_and_finished_elsewhere(a: &mut Child, on_a: &Http, on_b: &Http) {
    let (id, red, black) = new_game(on_a);
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6"];
    for (i, mv) in moves[..3].iter().enumerate() {
        assert_eq!(play(on_a, &id, if i % 2 == 0 { &red } else { &black }, mv), 200);
    }
    // Node b does not run a's game while a holds it.
    assert_eq!(play(on_b, &id, &black, moves[3]), 404);
    kill(a, "-KILL");
    let _ = a.wait();
    let took = play_once_taken_over(on_b, &id, &black, moves[3]);
    eprintln!(
        "node b took the game over {} ms after node a was killed",
        took.as_millis()
    );
    for (i, mv) in moves.iter().enumerate().skip(4) {
        assert_eq!(
            play(on_b, &id, if i % 2 == 0 { &red } else { &black }, mv),
            200,
            "move {mv}"
        );
    }
    assert_eq!(stored_moves(on_b, &id), moves, "every acknowledged move, once");
    let r = on_b.request(
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&black),
        Some("{}"),
    );
    assert_eq!(r.status, 200);
    let g: Value = on_b.json("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(g["result"], "1-0");
}

fn a_frozen_node_that_wakes_cannot_write_into_a_game_taken_over(c: &mut Child, on_c: &Http, on_d: &Http) {
    let (id, red, black) = new_game(on_c);
    assert_eq!(play(on_c, &id, &red, "h2e2"), 200);
    // A second game of c's, to ask c about once it wakes.
    let (id2, red2, black2) = new_game(on_c);
    assert_eq!(play(on_c, &id2, &red2, "h2e2"), 200);
    // c freezes past its lease; d takes the games and a move is played in
    // each there.
    kill(c, "-STOP");
    let took = play_once_taken_over(on_d, &id, &black, "h9g7");
    eprintln!(
        "node d took the game over {} ms after node c froze",
        took.as_millis()
    );
    play_once_taken_over(on_d, &id2, &black2, "h9g7");
    kill(c, "-CONT");
    // c wakes still running the second game's task, where black is to
    // move: red's move is no longer out of turn, and c must not say it is
    // from what it holds. It finds the lease gone and lets the game go.
    assert_eq!(
        play(on_c, &id2, &red2, "h0g2"),
        404,
        "the woken node answered from a game it lost"
    );
    assert_eq!(play(on_d, &id2, &red2, "h0g2"), 200);
    // In the first game black's move is in turn by what c holds: c tries
    // to store it, and the fence refuses the late write.
    let late = play(on_c, &id, &black, "b9c7");
    assert_ne!(late, 200, "the woken node stored a move into a game it lost");
    // Play goes on at d; the record has each move once, c's late one never.
    assert_eq!(play(on_d, &id, &red, "h0g2"), 200);
    assert_eq!(stored_moves(on_d, &id), ["h2e2", "h9g7", "h0g2"]);
    // c let the game go: a move sent there now finds no game.
    assert_eq!(play(on_c, &id, &black, "i9h9"), 404);
}
