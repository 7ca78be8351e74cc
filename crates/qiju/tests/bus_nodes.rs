//! Three `qiju serve` nodes on one PostgreSQL and one Redis bus (issue 29):
//! two players on different nodes play a game with a spectator on the
//! third; presence, the challenge, its answer and the game's start cross
//! the bus;
//! every move reaches the spectator; the node that owns the game is killed
//! (`kill -9`) mid-game, another takes it over, the players go on from the
//! nodes left, the spectator's stream ends and a new one resumes the game,
//! and the stored record has every acknowledged move exactly once.
//!
//! Needs PostgreSQL (`QIJU_TEST_POSTGRES`) and `redis-server` (started
//! here on a free port); without them it says so and passes, unless
//! `QIJU_REQUIRE_ORACLES=1` (CI).

mod common;

use common::{
    free_port, postgres, register, register_named, required, start_with, unique, until_taken, wait_until,
    Http, Reply,
};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A child process killed when dropped (a node, Redis), so that a failed
/// test leaves nothing behind.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn redis() -> Option<(Proc, u16)> {
    let port = free_port();
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(child) = child else {
        assert!(!required(), "QIJU_REQUIRE_ORACLES=1 requires redis-server");
        eprintln!("skipped: redis-server is not installed");
        return None;
    };
    let proc = Proc(child);
    wait_until(Duration::from_secs(10), "redis-server starts", || {
        TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    Some((proc, port))
}

/// An NDJSON stream read on its own thread: its JSON lines, then `None`
/// when the server closes it.
struct Stream(mpsc::Receiver<Option<Value>>);

fn stream(http: &Http, path: &str, cookie: Option<&str>) -> Stream {
    let (tx, rx) = mpsc::channel();
    let mut s = TcpStream::connect(&http.addr).expect("connect");
    // Closed by the server when the stream ends, not kept alive.
    let mut req = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
        http.addr
    );
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    std::thread::spawn(move || {
        let mut pending = String::new();
        let mut buf = [0u8; 8192];
        loop {
            let n = match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            pending.push_str(&String::from_utf8_lossy(&buf[..n]));
            while let Some(i) = pending.find('\n') {
                let line: String = pending.drain(..=i).collect();
                let line = line.trim();
                // The chunks' sizes and the headers are not JSON lines.
                if line.starts_with('{') {
                    if let Ok(v) = serde_json::from_str(line) {
                        if tx.send(Some(v)).is_err() {
                            return;
                        }
                    }
                }
            }
        }
        let _ = tx.send(None);
    });
    Stream(rx)
}

impl Stream {
    /// The next line of type `t`, skipping others; panics after `within`.
    fn next_of(&self, t: &str, within: Duration) -> Value {
        let until = Instant::now() + within;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.0.recv_timeout(left) {
                Ok(Some(v)) if v["t"] == t => return v,
                Ok(Some(_)) => {}
                Ok(None) => panic!("the stream closed before a {t:?} line"),
                Err(_) => panic!("no {t:?} line within {within:?}"),
            }
        }
    }

    /// Waits for the server to close the stream, skipping its lines.
    fn closes_within(&self, within: Duration) -> bool {
        let until = Instant::now() + within;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.0.recv_timeout(left) {
                Ok(Some(_)) => {}
                Ok(None) => return true,
                Err(_) => return false,
            }
        }
    }
}

/// nginx with docs/deploy/nginx.conf in front of the nodes at `ports`, on
/// a free port of its own; `None` without nginx (outside CI).
fn nginx(ports: [u16; 3]) -> Option<(Proc, Http, tempdir::Dir)> {
    // Debian puts it in /usr/sbin, which a user's PATH may lack.
    let bin = ["nginx", "/usr/sbin/nginx"]
        .into_iter()
        .find(|b| Command::new(b).arg("-v").stderr(Stdio::null()).status().is_ok());
    let Some(bin) = bin else {
        assert!(!required(), "QIJU_REQUIRE_ORACLES=1 requires nginx");
        eprintln!("skipped: nginx is not installed");
        return None;
    };
    let dir = tempdir::Dir::new("qiju-nginx");
    std::fs::create_dir_all(dir.0.join("logs")).unwrap();
    let port = free_port();
    let conf = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/deploy/nginx.conf"
    ))
    .unwrap()
    .replace("listen 8080;", &format!("listen 127.0.0.1:{port};"))
    .replace("127.0.0.1:8081", &format!("127.0.0.1:{}", ports[0]))
    .replace("127.0.0.1:8082", &format!("127.0.0.1:{}", ports[1]))
    .replace("127.0.0.1:8083", &format!("127.0.0.1:{}", ports[2]))
    .replace("worker_processes auto;", "worker_processes 1;");
    let path = dir.0.join("nginx.conf");
    std::fs::write(&path, conf).unwrap();
    let globals = format!(
        "daemon off; pid {0}/nginx.pid; error_log {0}/logs/error.log;",
        dir.0.display()
    );
    let child = Command::new(bin)
        .arg("-p")
        .arg(&dir.0)
        .arg("-c")
        .arg(&path)
        .args(["-g", &globals])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx starts");
    let proc = Proc(child);
    wait_until(Duration::from_secs(10), "nginx starts", || {
        TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    Some((
        proc,
        Http {
            addr: format!("127.0.0.1:{port}"),
        },
        dir,
    ))
}

mod tempdir {
    /// A directory removed when dropped.
    pub struct Dir(pub std::path::PathBuf);

    impl Dir {
        pub fn new(prefix: &str) -> Dir {
            let p = std::env::temp_dir().join(super::unique(prefix));
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A WebSocket opened through `http` as a browser on that address would,
/// reading the server's text frames on its own thread.
fn websocket(http: &Http, path: &str) -> Stream {
    websocket_as(http, path, None).0
}

/// A WebSocket as `cookie`'s player (or nobody), and its writing half.
fn websocket_as(http: &Http, path: &str, cookie: Option<&str>) -> (Stream, TcpStream) {
    let mut s = TcpStream::connect(&http.addr).expect("connect");
    let mut req = format!(
        "GET {path} HTTP/1.1\r\nHost: {0}\r\nOrigin: http://{0}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n",
        http.addr
    );
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    // The head, byte by byte up to its blank line: the frames follow.
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        s.read_exact(&mut byte).expect("the upgrade's answer");
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(
        head.starts_with("HTTP/1.1 101"),
        "upgraded through the proxy: {head}"
    );
    let (tx, rx) = mpsc::channel();
    let writer = s.try_clone().unwrap();
    std::thread::spawn(move || {
        let mut read = |n: usize| -> Option<Vec<u8>> {
            let mut b = vec![0u8; n];
            s.read_exact(&mut b).ok().map(|()| b)
        };
        while let Some(h) = read(2) {
            let opcode = h[0] & 0x0f;
            let len = match h[1] & 0x7f {
                126 => read(2).map(|b| usize::from(u16::from_be_bytes([b[0], b[1]]))),
                127 => read(8).map(|b| usize::try_from(u64::from_be_bytes(b.try_into().unwrap())).unwrap()),
                n => Some(usize::from(n)),
            };
            let Some(payload) = len.and_then(&mut read) else {
                break;
            };
            match opcode {
                1 => {
                    if let Ok(v) = serde_json::from_slice(&payload) {
                        if tx.send(Some(v)).is_err() {
                            return;
                        }
                    }
                }
                8 => break,
                _ => {} // pings and continuation frames: not needed here
            }
        }
        let _ = tx.send(None);
    });
    (Stream(rx), writer)
}

/// Sends one text frame, masked as a client's must be (RFC 6455 5.3).
fn send_text(socket: &mut TcpStream, text: &str) {
    let mask = [0x12u8, 0x34, 0x56, 0x78];
    let len = text.len();
    assert!(len < 126, "a short frame");
    let mut frame = vec![0x81, 0x80 | u8::try_from(len).unwrap()];
    frame.extend_from_slice(&mask);
    frame.extend(text.bytes().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    socket.write_all(&frame).unwrap();
}

/// A line said in the lobby on one node is in the chat history a
/// newcomer reads on another.
fn lobby_chat_is_one_room(on1: &Http, on3: &Http, alice: &str) {
    let line = unique("hello-from-node-1-");
    let (said, mut socket) = websocket_as(on1, "/api/lobby/ws", Some(alice));
    said.next_of("chat_history", Duration::from_secs(5));
    send_text(&mut socket, &format!(r#"{{"t":"chat","text":"{line}"}}"#));
    // Back to the speaker on node 1 once said.
    assert_eq!(
        said.next_of("chat", Duration::from_secs(5))["text"],
        line.as_str()
    );
    wait_until(Duration::from_secs(5), "node 3 keeps node 1's line", || {
        let (newcomer, _) = websocket_as(on3, "/api/lobby/ws", None);
        let history = newcomer.next_of("chat_history", Duration::from_secs(5));
        history["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["text"] == line.as_str())
    });
}

/// `POST /api/games/{id}/{what}` as `who`: the status.
fn post_game(http: &Http, id: &str, who: &str, what: &str) -> u16 {
    post_reply(http, id, who, what).status
}

/// `POST /api/games/{id}/{what}` as `who`: the whole answer.
fn post_reply(http: &Http, id: &str, who: &str, what: &str) -> Reply {
    http.request("POST", &format!("/api/games/{id}/{what}"), Some(who), Some("{}"))
}

fn play(http: &Http, id: &str, who: &str, mv: &str) -> u16 {
    play_reply(http, id, who, mv).status
}

fn play_reply(http: &Http, id: &str, who: &str, mv: &str) -> Reply {
    post_reply(http, id, who, &format!("move/{mv}"))
}

/// The moves of a game view (`GET /api/games/{id}`, or `full`'s `game`).
fn moves_of(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("a game view: {game}"))
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn three_nodes_on_one_bus_play_a_game_through_a_killed_owner() {
    let Some(db) = postgres() else { return };
    let Some((_redis, redis_port)) = redis() else {
        return;
    };
    let bus = format!("redis://127.0.0.1:{redis_port}");
    let namespace = unique("bus-");
    let node = |name: &str| {
        let port = free_port();
        // 5-second leases: under CI's load a node busy taking over the
        // other tests' orphaned games wrote its heartbeat late enough for
        // 3-second leases to run out while it was alive.
        let args = [
            "--bus",
            &bus,
            "--bus-namespace",
            &namespace,
            "--lease-seconds",
            "5",
        ];
        let child = Proc(start_with(&db, port, &unique(name), &args));
        (
            child,
            Http {
                addr: format!("127.0.0.1:{port}"),
            },
            port,
        )
    };
    let (mut n1, on1, p1) = node("b1-");
    let (mut n2, on2, p2) = node("b2-");
    let (mut n3, on3, p3) = node("b3-");
    // The deployment of docs/DEPLOY.md: nginx in front of the three, any
    // node answering any request.
    let proxy = nginx([p1, p2, p3]);
    if let Some((_, front, _)) = &proxy {
        let mut nodes = std::collections::BTreeSet::new();
        for _ in 0..6 {
            let ready = front.json("GET", "/api/health/ready", None, None);
            nodes.insert(ready["node"].as_str().unwrap().to_string());
        }
        assert_eq!(
            nodes.len(),
            3,
            "nginx spreads requests over the three nodes: {nodes:?}"
        );
    }

    // Alice is on node 1, Bob on node 2.
    let alice = register(&on1, "ba");
    let bob_name = unique("bb");
    let bob = register_named(&on2, &bob_name);
    let bobs_events = stream(&on2, "/api/stream/event", Some(&bob));
    // Bob's stream on node 2 makes him online on every node.
    wait_until(Duration::from_secs(5), "node 1 sees bob online", || {
        on1.json("GET", &format!("/api/users/status?ids={bob_name}"), None, None)[0]["online"] == true
    });
    let challenge = on1.json(
        "POST",
        "/api/challenges",
        Some(&alice),
        Some(&format!(r#"{{"to":"{bob_name}","time":"10+0","color":"first"}}"#)),
    );
    let cid = challenge["id"].as_str().unwrap().to_string();
    // Bob hears of it on node 2, and node 2 lists it.
    let heard = bobs_events.next_of("challenge", Duration::from_secs(5));
    assert_eq!(heard["challenge"]["id"], cid.as_str());
    let listed = on2.json("GET", "/api/challenges", Some(&bob), None);
    assert!(
        listed.as_array().unwrap().iter().any(|c| c["id"] == cid.as_str()),
        "node 2 lists node 1's challenge: {listed}"
    );
    lost_offers_come_back(redis_port, &namespace, &on1, &on2, &bob, &cid);
    lobby_chat_is_one_room(&on1, &on3, &alice);
    // Bob accepts on node 2; node 1, which holds the challenge, starts it.
    let started = on2.json(
        "POST",
        &format!("/api/challenges/{cid}/accept"),
        Some(&bob),
        Some("{}"),
    );
    let id = started["game"].as_str().unwrap().to_string();
    assert_eq!(started["color"], "second", "alice chose red");
    let told = bobs_events.next_of("game_start", Duration::from_secs(5));
    assert_eq!(told["game"], id.as_str());

    // A spectator on node 3, and one in a browser behind nginx (on any
    // node), by WebSocket.
    let watch = stream(&on3, &format!("/api/games/{id}/stream"), None);
    let full = watch.next_of("full", Duration::from_secs(5));
    assert_eq!(full["game"]["state"], "live");
    let socket = proxy
        .as_ref()
        .map(|(_, front, _)| websocket(front, &format!("/api/games/{id}/ws")));
    if let Some(ws) = &socket {
        assert_eq!(
            ws.next_of("full", Duration::from_secs(5))["game"]["id"],
            id.as_str()
        );
    }

    let moves = [
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6", "a9a8", "h0h6", "g6g5",
    ];
    let mut acknowledged = Vec::new();
    // Red (Alice) on node 1, the owner; Black (Bob) on node 2, forwarded.
    for (i, mv) in moves[..4].iter().enumerate() {
        let (http, who) = if i % 2 == 0 { (&on1, &alice) } else { (&on2, &bob) };
        assert_eq!(play(http, &id, who, mv), 200, "move {mv}");
        acknowledged.push(*mv);
        let seen = watch.next_of("move", Duration::from_secs(5));
        assert_eq!(seen["move"], *mv, "the spectator on node 3 sees {mv}");
        if let Some(ws) = &socket {
            let seen = ws.next_of("move", Duration::from_secs(5));
            assert_eq!(seen["move"], *mv, "the spectator behind nginx sees {mv}");
        }
    }
    // A refusal crosses the bus with its code: Bob moves out of turn.
    let r = on2.request(
        "POST",
        &format!("/api/games/{id}/move/b9c7"),
        Some(&bob),
        Some("{}"),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("not_your_turn"), "{}", r.body);

    // The owner dies.
    let _ = Command::new("kill")
        .args(["-KILL", &n1.0.id().to_string()])
        .status();
    let _ = n1.0.wait();
    let t0 = Instant::now();
    // The spectator's stream ends when another node takes the game over.
    assert!(
        watch.closes_within(Duration::from_secs(20)),
        "the spectator's stream ended when the game moved"
    );
    eprintln!(
        "the spectator's stream ended {} ms after the kill",
        t0.elapsed().as_millis()
    );
    // Alice goes on from node 3: her move is refused until a node holds
    // the game, then taken.
    let mv = moves[4];
    until_taken(
        Duration::from_secs(20),
        "a move after the takeover",
        &[404, 503],
        || play_reply(&on3, &id, &alice, mv),
    );
    eprintln!(
        "the game went on {} ms after its node was killed",
        t0.elapsed().as_millis()
    );
    acknowledged.push(mv);
    let watch = stream(&on3, &format!("/api/games/{id}/stream"), None);
    let full = watch.next_of("full", Duration::from_secs(5));
    assert_eq!(
        moves_of(&full["game"]),
        acknowledged,
        "the resumed game has every move, once"
    );
    for (i, mv) in moves.iter().enumerate().skip(5) {
        let (http, who) = if i % 2 == 0 { (&on3, &alice) } else { (&on2, &bob) };
        assert_eq!(play(http, &id, who, mv), 200, "move {mv}");
        acknowledged.push(*mv);
        assert_eq!(watch.next_of("move", Duration::from_secs(5))["move"], *mv);
    }
    assert_eq!(post_game(&on2, &id, &bob, "resign"), 200);
    let end = watch.next_of("end", Duration::from_secs(5));
    assert_eq!(end["result"], "1-0", "{end}");

    let g: Value = on2.json("GET", &format!("/api/games/{id}"), None, None);
    let stored: Vec<&str> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(
        stored, acknowledged,
        "every acknowledged move stored exactly once"
    );
    assert_eq!(g["result"], "1-0");

    split_brain(&mut n2.0, &on2, &on3, &alice, &bob, &bob_name);
    an_event_outlives_its_node(&mut n3.0, &on3, &on2, &alice, &bob);
}

/// Publishes a lobby message on the bus as a node would (the bus frames
/// every body with its publish time in microseconds), by speaking Redis's
/// protocol directly: the test plays a node that knows nothing but the
/// wire.
fn forge_lobby_message(redis_port: u16, namespace: &str, json: &str) {
    let channel = format!("{namespace}:lobby");
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_micros();
    let body = format!("{stamp}\n{json}");
    let mut redis = TcpStream::connect(("127.0.0.1", redis_port)).unwrap();
    let command = format!(
        "*3\r\n$7\r\nPUBLISH\r\n${}\r\n{channel}\r\n${}\r\n{body}\r\n",
        channel.len(),
        body.len()
    );
    redis.write_all(command.as_bytes()).unwrap();
    let mut reply = [0u8; 64];
    let n = redis.read(&mut reply).unwrap();
    let reply = String::from_utf8_lossy(&reply[..n]);
    assert!(reply.starts_with(':'), "PUBLISH answered {reply}");
}

/// A node's copies of another's offers heal after messages were lost (its
/// listener fell behind the bus): here a forged "node 1 has no offers"
/// drops node 2's copy of the challenge as a lost message would leave it
/// missing; a request for everyone's offers (what a node that fell behind
/// sends) brings it back from node 1, and Bob can still accept it there.
fn lost_offers_come_back(redis_port: u16, namespace: &str, on1: &Http, on2: &Http, bob: &str, cid: &str) {
    let node1 = on1.json("GET", "/api/health/ready", None, None)["node"]
        .as_str()
        .unwrap()
        .to_string();
    let lists = || {
        on2.json("GET", "/api/challenges", Some(bob), None)
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == cid)
    };
    forge_lobby_message(
        redis_port,
        namespace,
        &format!(r#"{{"node":"{node1}","s":"offers","challenges":[],"seeks":[]}}"#),
    );
    wait_until(Duration::from_secs(5), "node 2 loses its copy", || !lists());
    forge_lobby_message(
        redis_port,
        namespace,
        r#"{"node":"a-node-that-fell-behind","s":"resync"}"#,
    );
    wait_until(Duration::from_secs(5), "node 1 sends its offers again", lists);
}

/// An event run by a node that dies: its round's game and the event itself
/// are taken over by another node, the game's end is scored there, and the
/// next round is paired there.
fn an_event_outlives_its_node(runner: &mut Child, on_runner: &Http, other: &Http, alice: &str, bob: &str) {
    let ev = on_runner.json(
        "POST",
        "/api/events",
        Some(alice),
        Some(r#"{"name":"Bus cup","time_control":"10+0","system":"double-round-robin"}"#),
    );
    let event = ev["id"].as_str().unwrap().to_string();
    for who in [alice, bob] {
        other.json(
            "POST",
            &format!("/api/events/{event}/join"),
            Some(who),
            Some("{}"),
        );
    }
    // The arbiter presses the button on the other node: the round is
    // paired by the event's node, whose game it then is.
    let paired = other.request(
        "POST",
        &format!("/api/events/{event}/pair"),
        Some(alice),
        Some("{}"),
    );
    assert_eq!(paired.status, 200, "{}", paired.body);
    // A refusal comes back from the event's node with its code.
    let again = other.request(
        "POST",
        &format!("/api/events/{event}/pair"),
        Some(alice),
        Some("{}"),
    );
    assert_eq!(again.status, 409, "{}", again.body);
    assert!(again.body.contains("round_not_finished"), "{}", again.body);
    let view = other.json("GET", &format!("/api/events/{event}"), None, None);
    let board = &view["rounds_paired"][0]["boards"][0];
    let game = board["game"]
        .as_str()
        .unwrap_or_else(|| panic!("round 1's game: {view}"))
        .to_string();
    let _ = Command::new("kill")
        .args(["-KILL", &runner.id().to_string()])
        .status();
    let _ = runner.wait();
    // The game was the runner's, not the other node's: until its lease
    // runs out and the other takes it over, the other cannot end it.
    let t0 = Instant::now();
    let early = post_game(other, &game, bob, "resign");
    assert!(
        early == 404 || early == 503,
        "the round's game was started by the event's node, not where the button was pressed: {early}"
    );
    // The game goes on at the other node: a resignation there ends it.
    until_taken(
        Duration::from_secs(20),
        "resigning the event's game",
        &[404, 503],
        || post_reply(other, &game, bob, "resign"),
    );
    // The event, taken over too, scores it and pairs round 2 there.
    wait_until(Duration::from_secs(20), "round 1 scored", || {
        other.json("GET", &format!("/api/events/{event}"), None, None)["rounds_paired"][0]["boards"][0]
            ["result"]
            .is_string()
    });
    eprintln!(
        "the stopped node's event scored its game {} ms after the kill",
        t0.elapsed().as_millis()
    );
    let second = other.request(
        "POST",
        &format!("/api/events/{event}/pair"),
        Some(alice),
        Some("{}"),
    );
    assert_eq!(
        second.status, 200,
        "round 2 paired by the node that took over: {}",
        second.body
    );
}

/// The owner frozen (`SIGSTOP`) past its lease while the players play on
/// through another node: that node takes the game over; the frozen one
/// wakes (`SIGCONT`) with the game still in its memory and the commands it
/// was sent while frozen in its queue — its writes are refused by the
/// lease's fence, and nothing it does reaches the record.
fn split_brain(owner: &mut Child, on_owner: &Http, other: &Http, alice: &str, bob: &str, bob_name: &str) {
    let ch = on_owner.json(
        "POST",
        "/api/challenges",
        Some(alice),
        Some(&format!(r#"{{"to":"{bob_name}","time":"10+0","color":"first"}}"#)),
    );
    let cid = ch["id"].as_str().unwrap().to_string();
    // Bob answers from the other node; the game is the owner's.
    let mut id = String::new();
    until_taken(
        Duration::from_secs(5),
        "accepting on the other node",
        &[404],
        || {
            let r = other.request(
                "POST",
                &format!("/api/challenges/{cid}/accept"),
                Some(bob),
                Some("{}"),
            );
            if r.status == 200 {
                let v: Value = serde_json::from_str(&r.body).unwrap();
                id = v["game"].as_str().unwrap().to_string();
            }
            r
        },
    );
    // Both play through the other node: every move is forwarded.
    assert_eq!(play(other, &id, alice, "h2e2"), 200);
    assert_eq!(play(other, &id, bob, "h9g7"), 200);
    let _ = Command::new("kill")
        .args(["-STOP", &owner.id().to_string()])
        .status();
    // Refused (the owner does not answer) until the other node takes over.
    let took = until_taken(
        Duration::from_secs(30),
        "h0g2 while the owner is frozen",
        &[404, 503],
        || play_reply(other, &id, alice, "h0g2"),
    );
    eprintln!("the frozen owner's game went on {} ms later", took.as_millis());
    let _ = Command::new("kill")
        .args(["-CONT", &owner.id().to_string()])
        .status();
    // Woken, the old owner still holds the game in memory with the moves
    // it was sent while frozen queued for it: its first write is refused by
    // the fence and it lets the game go. A move sent to it now is either
    // that refused write or, once it let go, forwarded to the new owner;
    // the record below shows which moves were stored.
    until_taken(
        Duration::from_secs(20),
        "i9h9 on the woken node",
        &[404, 409, 503],
        || play_reply(on_owner, &id, bob, "i9h9"),
    );
    let g: Value = other.json("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(
        moves_of(&g),
        ["h2e2", "h9g7", "h0g2", "i9h9"],
        "each move once, none of the frozen node's"
    );
}
