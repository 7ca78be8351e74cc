//! Crash safety of the events room (issue 28, must-show): a real `qiju
//! serve` runs a Swiss whose games players play over HTTP; it is killed
//! with `kill -9` in the middle of a round — one game over and scored, one
//! under way, one not begun — and started again on the same database. The
//! event resumes with the same pairings, games and results; the game under
//! way goes on and its result flows into the event; and the next round is
//! paired as `qiju tournament pair` pairs the event's TRF.
//!
//! A knockout match waiting for its armageddon colour (seed 001: chosen by
//! the player who had no choice at the lot) is killed the same way: the
//! wait comes back with the same end, and the chooser's choice starts the
//! game.
//!
//! On SQLite in a temporary folder, and on PostgreSQL when
//! `QIJU_TEST_POSTGRES` is set.

mod common;

use common::{free_port, qiju, register, start, unique, Http};
use serde_json::Value;
use std::process::Child;
use std::time::{Duration, Instant};

#[test]
fn kill_dash_nine_mid_round_resumes_the_event_on_sqlite() {
    let dir = std::env::temp_dir().join(unique("qiju-events-crash-"));
    std::fs::create_dir_all(&dir).unwrap();
    kill_dash_nine_mid_round_resumes_the_event(&format!("sqlite://{}", dir.join("qiju.db").display()), &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kill_dash_nine_mid_round_resumes_the_event_on_postgres() {
    match std::env::var("QIJU_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => {
            let dir = std::env::temp_dir().join(unique("qiju-events-crash-"));
            std::fs::create_dir_all(&dir).unwrap();
            kill_dash_nine_mid_round_resumes_the_event(&url, &dir);
            let _ = std::fs::remove_dir_all(&dir);
        }
        _ => {
            let required = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
            assert!(!required, "QIJU_REQUIRE_ORACLES=1 requires QIJU_TEST_POSTGRES");
            eprintln!("skipped: QIJU_TEST_POSTGRES is not set");
        }
    }
}

#[test]
fn kill_dash_nine_during_the_armageddon_wait_keeps_it_on_sqlite() {
    let dir = std::env::temp_dir().join(unique("qiju-events-crash-"));
    std::fs::create_dir_all(&dir).unwrap();
    kill_dash_nine_during_the_armageddon_wait_keeps_it(&format!(
        "sqlite://{}",
        dir.join("qiju.db").display()
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kill_dash_nine_during_the_armageddon_wait_keeps_it_on_postgres() {
    match std::env::var("QIJU_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => kill_dash_nine_during_the_armageddon_wait_keeps_it(&url),
        _ => {
            let required = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
            assert!(!required, "QIJU_REQUIRE_ORACLES=1 requires QIJU_TEST_POSTGRES");
            eprintln!("skipped: QIJU_TEST_POSTGRES is not set");
        }
    }
}

/// The server, killed when dropped (a failed test leaves none behind).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn event(http: &Http, id: &str) -> Value {
    http.json("GET", &format!("/api/events/{id}"), None, None)
}

/// Waits until `holds` on the event, failing after 30 s.
fn until(http: &Http, id: &str, what: &str, holds: impl Fn(&Value) -> bool) -> Value {
    let t0 = Instant::now();
    loop {
        let ev = event(http, id);
        if holds(&ev) {
            return ev;
        }
        assert!(t0.elapsed() < Duration::from_secs(30), "{what}: {ev:#}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn act(http: &Http, game: &str, who: &str, what: &str) {
    let r = http.request(
        "POST",
        &format!("/api/games/{game}/{what}"),
        Some(who),
        Some("{}"),
    );
    assert_eq!(r.status, 200, "{what} in {game}: {}", r.body);
}

/// Board `b` of round `r`: (game, white's cookie, black's cookie).
fn board<'a>(ev: &Value, r: usize, b: usize, cookies: &'a [(String, String)]) -> (String, &'a str, &'a str) {
    let bd = &ev["rounds_paired"][r - 1]["boards"][b];
    let cookie = |side: &str| {
        let name = bd[side]["name"].as_str().unwrap();
        cookies
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| c.as_str())
            .unwrap()
    };
    (
        bd["game"].as_str().unwrap().to_string(),
        cookie("white"),
        cookie("black"),
    )
}

/// Round `r`'s boards by pairing number, as the server paired them.
fn boards(ev: &Value, r: usize) -> Vec<(u64, u64)> {
    ev["rounds_paired"][r - 1]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["white"]["number"].as_u64().unwrap(),
                b["black"]["number"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

fn kill_dash_nine_mid_round_resumes_the_event(db: &str, dir: &std::path::Path) {
    let node = unique("evcrash");
    let port = free_port();
    let http = Http {
        addr: format!("127.0.0.1:{port}"),
    };
    let mut server = Server(start(db, port, &node));
    let org = register(&http, "eo");
    let ev = http.json(
        "POST",
        "/api/events",
        Some(&org),
        Some(r#"{"name":"Crash Open","time_control":"10+0","system":"swiss","rounds":3}"#),
    );
    let id = ev["id"].as_str().unwrap().to_string();
    let mut cookies = Vec::new();
    for _ in 0..6 {
        let name = unique("ep");
        let cookie = common::register_named(&http, &name);
        http.json(
            "POST",
            &format!("/api/events/{id}/join"),
            Some(&cookie),
            Some("{}"),
        );
        cookies.push((name, cookie));
    }
    http.json("POST", &format!("/api/events/{id}/pair"), Some(&org), Some("{}"));
    let ev = event(&http, &id);
    assert_eq!(boards(&ev, 1).len(), 3);
    // Board 1 is over before the crash, board 2 under way, board 3 not begun.
    let (g1, w1, b1) = board(&ev, 1, 0, &cookies);
    act(&http, &g1, w1, "move/h2e2");
    act(&http, &g1, b1, "move/h7e7");
    act(&http, &g1, b1, "resign");
    let (g2, w2, b2) = board(&ev, 1, 1, &cookies);
    act(&http, &g2, w2, "move/h2e2");
    act(&http, &g2, b2, "move/h9g7");
    let before = until(&http, &id, "board 1 scored", |ev| {
        ev["rounds_paired"][0]["boards"][0]["result"] == "1-0"
    });
    let standings_before = http.json("GET", &format!("/api/events/{id}/standings"), None, None);

    // kill -9 in the middle of the round, and up again on the same database.
    server.0.kill().expect("kill -9");
    server.0.wait().unwrap();
    let mut server = Server(start(db, port, &node));
    let after = event(&http, &id);
    assert_eq!(
        after["rounds_paired"], before["rounds_paired"],
        "the same pairings, games and results"
    );
    assert_eq!(after["state"], "running");
    assert_eq!(
        http.json("GET", &format!("/api/events/{id}/standings"), None, None),
        standings_before
    );
    // The game under way goes on from where it was.
    let g2_view = http.json("GET", &format!("/api/games/{g2}"), None, None);
    assert_eq!(g2_view["moves"].as_array().unwrap().len(), 2);
    act(&http, &g2, w2, "move/h0g2");
    act(&http, &g2, w2, "resign");
    let (g3, w3, b3) = board(&after, 1, 2, &cookies);
    act(&http, &g3, w3, "move/c3c4");
    act(&http, &g3, b3, "move/c6c5");
    act(&http, &g3, w3, "resign");
    let done = until(&http, &id, "round 1 complete", |ev| {
        ev["rounds_paired"][0]["complete"] == true
    });
    let results: Vec<&str> = done["rounds_paired"][0]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["1-0", "0-1", "0-1"]);
    let log = http.json("GET", &format!("/api/events/{id}/log"), None, None);
    assert_eq!(
        log.as_array()
            .unwrap()
            .iter()
            .filter(|l| l["action"] == "pair")
            .count(),
        1,
        "round 1 was paired once: {log}"
    );

    // Round 2, paired after the restart, is what `qiju tournament pair`
    // makes of the event's TRF.
    let trf = http.request("GET", &format!("/api/events/{id}/trf"), None, None);
    assert_eq!(trf.status, 200);
    let path = dir.join("before-round-2.trf");
    std::fs::write(&path, &trf.body).unwrap();
    let (rc, out, err) = qiju(&["tournament", "pair", "--system", "dutch", path.to_str().unwrap()]);
    assert_eq!(rc, 0, "{err}\n{}", trf.body);
    http.json("POST", &format!("/api/events/{id}/pair"), Some(&org), Some("{}"));
    let ev = event(&http, &id);
    let expected: Vec<(u64, u64)> = out
        .lines()
        .skip(1)
        .map(|l| {
            let mut it = l.split_whitespace().map(|x| x.parse::<u64>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    assert_eq!(boards(&ev, 2), expected, "{out}");
    // Round 2's games run: a move is taken.
    let (g, w, _) = board(&ev, 2, 0, &cookies);
    act(&http, &g, w, "move/h2e2");
    server.0.kill().unwrap();
}

/// A POST that must succeed (200 or 204).
fn ok(http: &Http, path: &str, who: &str, body: &str) {
    let r = http.request("POST", path, Some(who), Some(body));
    assert!(r.status < 300, "{path}: {} {}", r.status, r.body);
}

/// Two players' knockout match (1 game, 1 play-off game, then
/// armageddon), drawn into its armageddon wait; `kill -9` during the wait;
/// after the restart the wait is the same, the other player is refused,
/// the chooser takes red, and the armageddon game's draw is black's win.
fn kill_dash_nine_during_the_armageddon_wait_keeps_it(db: &str) {
    let node = unique("evcrash");
    let port = free_port();
    let http = Http {
        addr: format!("127.0.0.1:{port}"),
    };
    let mut server = Server(start(db, port, &node));
    let org = register(&http, "eo");
    let ev = http.json(
        "POST",
        "/api/events",
        Some(&org),
        Some(r#"{"name":"Crash Cup","time_control":"10+0","system":"knockout","armageddon_choice_s":600}"#),
    );
    let id = ev["id"].as_str().unwrap().to_string();
    let mut cookies = Vec::new();
    for _ in 0..2 {
        let name = unique("ek");
        let cookie = common::register_named(&http, &name);
        ok(&http, &format!("/api/events/{id}/join"), &cookie, "{}");
        cookies.push((name, cookie));
    }
    ok(&http, &format!("/api/events/{id}/pair"), &org, "{}");
    let cookie_of = |ev: &Value, n: &Value| -> String {
        let name = ev["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["number"] == *n)
            .unwrap()["name"]
            .as_str()
            .unwrap()
            .to_string();
        cookies.iter().find(|(c, _)| *c == name).unwrap().1.clone()
    };
    // Game 1 and the play-off game drawn.
    for n in 1..=2usize {
        let ev = until(&http, &id, "the next game", |ev| {
            ev["rounds_paired"][0]["boards"][0]["games"]
                .as_array()
                .is_some_and(|g| g.len() == n && g[n - 1]["result"].is_null())
        });
        let b = &ev["rounds_paired"][0]["boards"][0];
        let g = &b["games"][n - 1];
        let white_no = &g["white"];
        let black_no = if *white_no == b["white"]["number"] {
            &b["black"]["number"]
        } else {
            &b["white"]["number"]
        };
        let (w, k) = (cookie_of(&ev, white_no), cookie_of(&ev, black_no));
        let game = g["game"].as_str().unwrap();
        ok(&http, &format!("/api/games/{game}/move/h2e2"), &w, "{}");
        ok(&http, &format!("/api/games/{game}/move/h7e7"), &k, "{}");
        ok(&http, &format!("/api/games/{game}/draw/offer"), &k, "{}");
        ok(&http, &format!("/api/games/{game}/draw/accept"), &w, "{}");
    }
    let before = until(&http, &id, "the armageddon wait", |ev| {
        !ev["rounds_paired"][0]["boards"][0]["armageddon_choice"].is_null()
    });
    let waiting = before["rounds_paired"][0]["boards"][0]["armageddon_choice"].clone();
    assert!(waiting["side"].is_null(), "{waiting}");

    server.0.kill().expect("kill -9");
    server.0.wait().unwrap();
    let mut server = Server(start(db, port, &node));
    let after = event(&http, &id);
    assert_eq!(after["rounds_paired"], before["rounds_paired"], "the same wait");
    let chooser_no = &waiting["chooser"]["number"];
    let chooser = cookie_of(&after, chooser_no);
    let b = &after["rounds_paired"][0]["boards"][0];
    let other_no = if *chooser_no == b["white"]["number"] {
        &b["black"]["number"]
    } else {
        &b["white"]["number"]
    };
    let other = cookie_of(&after, other_no);
    let refused = http.request(
        "POST",
        &format!("/api/events/{id}/armageddon"),
        Some(&other),
        Some(r#"{"side":"black"}"#),
    );
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(refused.body.contains("not_your_choice"), "{}", refused.body);
    ok(
        &http,
        &format!("/api/events/{id}/armageddon"),
        &chooser,
        r#"{"side":"red"}"#,
    );
    let ev = until(&http, &id, "the armageddon game", |ev| {
        ev["rounds_paired"][0]["boards"][0]["games"]
            .as_array()
            .is_some_and(|g| g.len() == 3)
    });
    let g = &ev["rounds_paired"][0]["boards"][0]["games"][2];
    assert_eq!(
        (&g["phase"], &g["white"]),
        (&Value::from("armageddon"), chooser_no)
    );
    let game = g["game"].as_str().unwrap();
    ok(&http, &format!("/api/games/{game}/move/h2e2"), &chooser, "{}");
    ok(&http, &format!("/api/games/{game}/move/h7e7"), &other, "{}");
    ok(&http, &format!("/api/games/{game}/draw/offer"), &other, "{}");
    ok(&http, &format!("/api/games/{game}/draw/accept"), &chooser, "{}");
    let done = until(&http, &id, "the event over", |ev| ev["state"] == "finished");
    let b = &done["rounds_paired"][0]["boards"][0];
    let through = if b["result"] == "1-0" {
        &b["white"]["number"]
    } else {
        &b["black"]["number"]
    };
    assert_eq!(through, other_no, "the draw is black's win: {b}");
    server.0.kill().unwrap();
}
