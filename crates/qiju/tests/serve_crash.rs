//! Crash test of `qiju serve`: start the real binary, play moves in several
//! live games, `kill -9` it, restart it on the same database and check that
//! nothing was lost — every stored move, the clocks (the side to move is
//! charged up to the crash, not for the downtime), and that play goes on.
//!
//! Runs on SQLite in a temporary folder, or on PostgreSQL when
//! `QIJU_TEST_POSTGRES` is set. Talks plain HTTP/1.1 over loopback with the
//! standard library, as any client would.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Http {
    addr: String,
}

struct Reply {
    status: u16,
    headers: String,
    body: String,
}

impl Http {
    fn request(&self, method: &str, path: &str, cookie: Option<&str>, body: Option<&str>) -> Reply {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let body = body.unwrap_or("");
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nX-Qiju-Csrf: 1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if let Some(c) = cookie {
            req.push_str(&format!("Cookie: {c}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(body);
        s.write_all(req.as_bytes()).unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).unwrap();
        let text = String::from_utf8_lossy(&raw).to_string();
        let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
            dechunk(rest)
        } else {
            rest.to_string()
        };
        Reply {
            status,
            headers: head.to_string(),
            body,
        }
    }

    fn json(&self, method: &str, path: &str, cookie: Option<&str>, body: Option<&str>) -> serde_json::Value {
        let r = self.request(method, path, cookie, body);
        assert!(
            (200..300).contains(&r.status),
            "{method} {path}: {} {}",
            r.status,
            r.body
        );
        serde_json::from_str(&r.body).unwrap_or_else(|e| panic!("{path}: {e}: {}", r.body))
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n.min(rest.len())]);
        s = rest.get(n + 2..).unwrap_or("");
    }
    out
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts a server and returns it once it answers; the caller owns the child and
/// kills and waits for it (the crash test kills it with SIGKILL on purpose).
#[allow(clippy::zombie_processes)]
fn start(db: &str, port: u16, node: &str) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiju"))
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--database",
            db,
            "--node-id",
            node,
            "--abort-after",
            "600",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("qiju serve starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
            let _ = s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            let mut b = String::new();
            let _ = s.read_to_string(&mut b);
            if b.starts_with("HTTP/1.1 204") {
                return child;
            }
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("qiju serve did not come up");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn unique(prefix: &str) -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "{prefix}{:x}",
        (t ^ u128::from(std::process::id())) & 0x00ff_ffff_ffff
    )
}

fn register(http: &Http, prefix: &str) -> String {
    let name = unique(prefix);
    let r = http.request(
        "POST",
        "/api/auth/register",
        None,
        Some(&format!(r#"{{"name":"{name}","password":"correct horse"}}"#)),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    r.headers
        .lines()
        .find_map(|l| {
            let l = l
                .strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))?;
            l.starts_with("qiju_session=")
                .then(|| l.split(';').next().unwrap().to_string())
        })
        .expect("session cookie")
}

/// The moves each game gets before the crash (ICCS, alternating).
const OPENINGS: [&[&str]; 3] = [
    &["h2e2", "h9g7", "h0g2"],
    &["b2e2", "b9c7", "b0c2", "a9b9"],
    &["c3c4", "c6c5", "b0c2", "b9c7", "h2h4", "h9i7", "h0g2"],
];

#[test]
fn kill_dash_nine_during_live_games_loses_nothing() {
    let dir = std::env::temp_dir().join(unique("qiju-crash-"));
    std::fs::create_dir_all(&dir).unwrap();
    let db = match std::env::var("QIJU_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => format!("sqlite://{}", dir.join("qiju.db").display()),
    };
    let node = unique("crash");
    let port = free_port();
    let http = Http {
        addr: format!("127.0.0.1:{port}"),
    };
    let mut server = start(&db, port, &node);

    // Three games, each between two fresh accounts, paired through seeks.
    let mut games = Vec::new();
    for (i, moves) in OPENINGS.iter().enumerate() {
        let a = register(&http, "ca");
        let b = register(&http, "cb");
        let seek = format!(r#"{{"time":"{}+0"}}"#, 5 + i);
        let first = http.json("POST", "/api/seeks", Some(&a), Some(&seek));
        assert!(first["seek"].is_string());
        let second = http.json("POST", "/api/seeks", Some(&b), Some(&seek));
        let id = second["game"].as_str().unwrap().to_string();
        let (red, black) = if second["color"] == "red" { (b, a) } else { (a, b) };
        for (ply, mv) in moves.iter().enumerate() {
            let who = if ply % 2 == 0 { &red } else { &black };
            let r = http.json(
                "POST",
                &format!("/api/games/{id}/move/{mv}?ply={}", ply + 1),
                Some(who),
                Some("{}"),
            );
            assert_eq!(r["ply"], ply + 1);
        }
        games.push((id, red, black, *moves));
    }
    // Let a heartbeat pass, then read the state just before the crash.
    std::thread::sleep(Duration::from_millis(1500));
    let before: Vec<serde_json::Value> = games
        .iter()
        .map(|(id, ..)| http.json("GET", &format!("/api/games/{id}"), None, None))
        .collect();
    let read_at = Instant::now();
    server.kill().expect("kill -9"); // SIGKILL on Unix
    server.wait().unwrap();
    let killed_at = Instant::now();
    // The server stays down for 4 s: that time must not be charged.
    std::thread::sleep(Duration::from_secs(4));
    let mut server = start(&db, port, &node);
    let up_at = Instant::now();

    for ((id, red, black, moves), old) in games.iter().zip(&before) {
        let now = http.json("GET", &format!("/api/games/{id}"), None, None);
        let checked_at = Instant::now();
        assert_eq!(now["state"], "live", "{id} resumed");
        assert_eq!(now["ply"].as_u64().unwrap() as usize, moves.len());
        let coords: Vec<&str> = now["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        assert_eq!(coords, *moves, "{id}: the same moves");
        assert_eq!(now["moves"], old["moves"], "{id}: the same stored clocks");
        assert_eq!(now["fen"], old["fen"]);
        // The side not to move keeps its time exactly.
        let stm = now["turn"].as_str().unwrap();
        let other = if stm == "red" { "black" } else { "red" };
        let key = |s: &str| format!("{s}_ms");
        assert_eq!(now["clocks"][key(other)], old["clocks"][key(other)], "{id}");
        // The side to move: charged from the read until the crash (less up
        // to the 1 s heartbeat interval) and since the restart, not for the
        // 4 s downtime.
        let old_ms = old["clocks"][key(stm)].as_i64().unwrap();
        let new_ms = now["clocks"][key(stm)].as_i64().unwrap();
        let before_crash = (killed_at - read_at).as_millis() as i64;
        let since_up = (checked_at - up_at).as_millis() as i64;
        let expected = old_ms - before_crash - since_up;
        assert!(
            new_ms >= expected - 300 && new_ms <= expected + 1300,
            "{id}: {stm} has {new_ms} ms, expected about {expected} (was {old_ms})"
        );
        assert!(new_ms > old_ms - 3000, "{id}: the downtime was charged");
        // Play goes on: the side to move moves, and the game can finish.
        let who = if stm == "red" { red } else { black };
        let next = now["ply"].as_u64().unwrap() + 1;
        let mv = if stm == "red" { "i3i4" } else { "i6i5" };
        let r = http.json(
            "POST",
            &format!("/api/games/{id}/move/{mv}?ply={next}"),
            Some(who),
            Some("{}"),
        );
        assert_eq!(r["ply"], next);
    }
    // One game finishes after the restart and its PGN has every move.
    let (id, red, ..) = &games[0];
    http.json("POST", &format!("/api/games/{id}/resign"), Some(red), Some("{}"));
    let pgn = http.request("GET", &format!("/api/games/{id}/pgn"), None, None);
    assert_eq!(pgn.status, 200);
    assert!(pgn.body.contains("1. H2-E2 H9-G7"), "{}", pgn.body);
    assert!(pgn.body.contains("0-1"), "{}", pgn.body);
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
