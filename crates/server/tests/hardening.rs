//! Hardening, second round (issue 24, items 4, 5, 6, 8 and "Tighten"): what
//! a guest swarm, a cancelled request or a crafted body still got away
//! with, each probed over real HTTP/WebSocket on loopback.
//!
//! A second client address is 127.0.0.2: Linux routes all of 127/8 to the
//! loopback device, so a socket bound there is "another IP" to the server.

mod common;

use common::{Client, TestServer, Ws};
use serde_json::{json, Value};
use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const OTHER_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

/// A client whose requests come from `ip`.
fn from(s: &TestServer, ip: IpAddr) -> Client {
    Client {
        http: reqwest::Client::builder().local_address(ip).build().unwrap(),
        ..Client::anonymous(s)
    }
}

async fn send(c: &Client, method: reqwest::Method, path: &str) -> reqwest::Response {
    let mut req = c
        .http
        .request(method, format!("{}{path}", c.base))
        .header("x-qiju-csrf", "1");
    if let Some(cookie) = &c.cookie {
        req = req.header("cookie", cookie);
    }
    req.send().await.unwrap()
}

/// Item 8: a method a path does not take is refused in the API's one
/// error shape, with the methods it does take.
async fn a_wrong_method_is_refused_in_json() {
    let mut s = common::start().await;
    let c = Client::register(&s, "m").await;
    for (method, path) in [
        (reqwest::Method::PUT, "/api/seeks"),
        (reqwest::Method::DELETE, "/api/health"),
        (reqwest::Method::OPTIONS, "/api/seeks"),
        (reqwest::Method::OPTIONS, "/api/health"),
        (reqwest::Method::PATCH, "/api/computer"),
    ] {
        let r = send(&c, method.clone(), path).await;
        assert_eq!(r.status(), 405, "{method} {path}");
        let allow = r
            .headers()
            .get("allow")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let ctype = r
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        assert!(
            ctype.starts_with("application/json"),
            "{method} {path}: content type {ctype:?}"
        );
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"], "method_not_allowed", "{method} {path}: {body}");
        let message = body["message"].as_str().unwrap();
        assert!(
            !allow.is_empty() && message.contains(allow.split(',').next().unwrap().trim()),
            "{method} {path}: {message:?} names none of {allow:?}"
        );
    }
    s.stop().await;
}

/// Posts an evaluation of the start position over a bare TCP connection
/// and hangs up after `after`, before the answer.
async fn eval_then_hang_up(s: &TestServer, c: &Client, after: Duration) {
    let addr = s.server.as_ref().unwrap().addr;
    let body = json!({"variant": "xiangqi", "moves": []}).to_string();
    let request = format!(
        "POST /api/analysis/eval HTTP/1.1\r\nHost: {addr}\r\nCookie: {}\r\nX-Qiju-Csrf: 1\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        c.cookie.as_deref().unwrap(),
        body.len()
    );
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut buf = [0u8; 64];
    let answered = tokio::time::timeout(after, tcp.read(&mut buf)).await;
    assert!(
        answered.is_err(),
        "the evaluation answered within {after:?}; it must still run when the client hangs up"
    );
    drop(tcp);
}

/// Item 5: a client that gives up on an evaluation does not keep its
/// player's "one at a time" mark: the next evaluation is served.
async fn a_cancelled_evaluation_leaves_its_player_free() {
    let mut s = common::start().await;
    let c = Client::register(&s, "ev").await;
    // Keep both search slots busy for a while, so that the evaluation is
    // sure to be waiting or running when its client hangs up: two
    // level-8 games from two addresses.
    let mut busy = Vec::new();
    for ip in [IpAddr::V4(Ipv4Addr::LOCALHOST), OTHER_IP] {
        let mut g = from(&s, ip);
        let r = g.post("/api/auth/guest", &json!({})).await;
        assert_eq!(r.status(), 201);
        g.cookie = r
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("qiju_session="))
            .map(|v| v.split(';').next().unwrap().to_string());
        let r = g
            .post(
                "/api/computer",
                &json!({"level": 8, "time": "60+30", "color": "second"}),
            )
            .await;
        assert_eq!(r.status(), 200);
        busy.push(g);
    }
    eval_then_hang_up(&s, &c, Duration::from_millis(300)).await;
    // Hung up while its search waited for a slot: the mark is gone at
    // once, so the next evaluation is taken (it waits for a slot in its
    // turn) — not refused as "one already running", which it was for ever
    // before. (The server notices the hang-up within a moment.)
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let r = c
        .post("/api/analysis/eval", &json!({"variant": "xiangqi", "moves": []}))
        .await;
    let status = r.status();
    let body = r.text().await.unwrap_or_default();
    eprintln!(
        "the evaluation after the hang-up: {status} after {:?}",
        started.elapsed()
    );
    assert_eq!(status, 200, "{body}");
    s.stop().await;
}

/// Item 6: a report is refused at the door when it holds control
/// characters (an escape sequence would retitle or clear the operator's
/// terminal; a newline would forge a report line).
async fn reports_refuse_control_characters() {
    let mut s = common::start().await;
    let a = Client::register(&s, "ra").await;
    let b = Client::register(&s, "rb").await;
    for (text, context) in [
        ("hello\u{1b}]0;owned\u{7}", "lobby"),
        ("\u{1b}[2J\u{1b}[H", "lobby"),
        (
            "fine\n2024-01-01 00:00:00  admin reported nobody (lobby): forged",
            "lobby",
        ),
        ("a\u{9b}31m", "lobby"),
        ("plain", "lobby\r\nforged"),
        ("\u{202e}dlrow olleh", "lobby"),
    ] {
        let r = b
            .post(
                "/api/reports",
                &json!({"name": a.name, "text": text, "context": context}),
            )
            .await;
        let status = r.status();
        let body: Value = r.json().await.unwrap_or(Value::Null);
        assert_eq!(status, 400, "{text:?} / {context:?}: {body}");
        assert_eq!(body["error"], "bad_report", "{body}");
    }
    let ok = json!({"name": a.name, "text": "你好 — fine", "context": "lobby"});
    assert_eq!(b.post("/api/reports", &ok).await.status(), 204);
    let state = &s.server.as_ref().unwrap().state;
    let filed = state.play().store().reports(1000).await.unwrap();
    let mine = filed.iter().filter(|r| r.reporter == b.name).count();
    assert_eq!(mine, 1, "only the clean report is stored");
    s.stop().await;
}

/// "Tighten": every JSON body is as strict as a socket message — an
/// unknown field is refused, and so is a body nested deeper than any
/// request needs.
async fn request_bodies_are_strict() {
    let mut s = common::start().await;
    let c = Client::register(&s, "st").await;
    let other = Client::register(&s, "so").await;
    let deep = format!("{}{}", "[".repeat(2000), "]".repeat(2000));
    let deep_value: Value =
        serde_json::from_str(&format!("{}1{}", "[".repeat(100), "]".repeat(100))).unwrap_or(Value::Null);
    let anonymous = Client::anonymous(&s);
    let cases: Vec<(&Client, &str, String)> = vec![
        (
            &anonymous,
            "/api/auth/register",
            json!({"name": common::unique("x"), "password": "correct horse", "admin": true}).to_string(),
        ),
        (
            &anonymous,
            "/api/auth/login",
            json!({"name": c.name, "password": "correct horse", "remember": 1}).to_string(),
        ),
        (&c, "/api/seeks", format!(r#"{{"time": "5+3", "junk": {deep}}}"#)),
        (
            &c,
            "/api/seeks",
            json!({"time": "5+3", "side": "red"}).to_string(),
        ),
        (
            &c,
            "/api/challenges",
            json!({"to": other.name, "time": "5+3", "colour": "first"}).to_string(),
        ),
        (
            &c,
            "/api/computer",
            json!({"level": 1, "time": "5+3", "strength": 8}).to_string(),
        ),
        (
            &c,
            "/api/computer",
            json!({"level": 1, "time": "5+3", "x": deep_value}).to_string(),
        ),
    ];
    for (client, path, body) in &cases {
        let mut req = client
            .http
            .post(format!("{}{path}", client.base))
            .header("x-qiju-csrf", "1")
            .header("content-type", "application/json")
            .body(body.clone());
        if let Some(cookie) = &client.cookie {
            req = req.header("cookie", cookie);
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        let answer: Value = r.json().await.unwrap_or(Value::Null);
        let shown: String = body.chars().take(80).collect();
        assert!(
            status == 400 || status == 422,
            "POST {path} {shown}: {status} {answer}"
        );
        assert!(answer["error"].is_string(), "POST {path}: {answer}");
    }
    // Nesting: bounded before the body is parsed, whatever the shape.
    let r = c
        .http
        .post(format!("{}/api/analysis/position", c.base))
        .header("x-qiju-csrf", "1")
        .header("cookie", c.cookie.as_deref().unwrap())
        .header("content-type", "application/json")
        .body(format!(
            r#"{{"moves": {}"e3e4"{}}}"#,
            "[".repeat(40),
            "]".repeat(40)
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let answer: Value = r.json().await.unwrap();
    assert!(
        answer["message"].as_str().unwrap_or("").contains("nested"),
        "{answer}"
    );
    // What the strict types still take.
    let r = c.post("/api/seeks", &json!({"time": "5+3"})).await;
    assert_eq!(r.status(), 200);
    s.stop().await;
}

/// Lifts `chattr +i` and restores the mode of a folder made unwritable
/// for a test, whatever happens.
struct Unwritable<'a>(&'a Path, bool);

impl Drop for Unwritable<'_> {
    fn drop(&mut self) {
        if self.1 {
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(self.0)
                .status();
        }
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(self.0, std::fs::Permissions::from_mode(0o755));
    }
}

/// Whether a file can be made in `dir`.
fn can_write_in(dir: &Path) -> bool {
    let probe = dir.join(".probe");
    let ok = std::fs::write(&probe, b"x").is_ok();
    let _ = std::fs::remove_file(&probe);
    ok
}

/// "Tighten": a database in a folder the server cannot write is refused
/// as that — not as "damaged … restore a backup", which would send the
/// operator to restore a whole file. Always SQLite files of the test's own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_folder_is_refused_as_unwritable_not_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("qiju.db");
    let url = format!("sqlite://{}", file.display());
    let config = || server::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: url.clone(),
        ..server::Config::default()
    };
    let running = server::start(config()).await.expect("a fresh database");
    running.shutdown().await.unwrap();
    assert!(file.exists());
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root writes anyway: an immutable folder holds against root too.
    let immutable = can_write_in(dir.path())
        && std::process::Command::new("chattr")
            .arg("+i")
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
    let _restore = Unwritable(dir.path(), immutable);
    if can_write_in(dir.path()) {
        eprintln!("skipped: cannot make a folder unwritable here (root without chattr)");
        return;
    }
    let before = std::fs::read(&file).unwrap();
    let msg = match server::start(config()).await {
        Ok(running) => {
            running.shutdown().await.unwrap();
            panic!("the server started in a folder it cannot write");
        }
        Err(e) => e.to_string(),
    };
    assert!(msg.contains(&file.display().to_string()), "{msg}");
    assert!(msg.contains("not writable"), "{msg}");
    assert!(!msg.contains("damaged") && !msg.contains("restore"), "{msg}");
    assert_eq!(std::fs::read(&file).unwrap(), before, "the file was changed");
}

/// The next chat line or error on a lobby socket.
async fn chat_answer(ws: &mut Ws) -> Value {
    loop {
        let m = ws.next().await.expect("an answer");
        if m["t"] == "chat" || m["t"] == "error" {
            return m;
        }
    }
}

/// "Tighten": chat lines refuse what reorders or hides text —
/// bidirectional overrides, zero-width and other invisible characters —
/// and a pile of combining marks; ordinary text of any script passes.
async fn chat_refuses_invisible_and_reordering_characters() {
    let mut s = common::start().await;
    let a = Client::register(&s, "ca").await;
    let mut ws = a.lobby_ws().await;
    ws.expect("chat_history").await;
    let zalgo = format!("e{}", "\u{301}".repeat(150));
    for text in [
        "\u{202e}dlrow olleh",
        "pay\u{2066}lap",
        "in\u{200b}visible",
        "word\u{2060}joiner",
        "\u{feff}bom",
        "\u{3164}",
        "tag\u{e0041}",
        zalgo.as_str(),
    ] {
        ws.send(&json!({"t": "chat", "text": text})).await;
        let m = chat_answer(&mut ws).await;
        assert_eq!(
            (m["t"].as_str(), m["code"].as_str()),
            (Some("error"), Some("bad_chat")),
            "{text:?}: {m}"
        );
    }
    // Ordinary text passes: a tone mark on a letter (Vietnamese, in
    // decomposed form), Persian with its zero-width non-joiner, an emoji
    // family joined by zero-width joiners, a flag of emoji presentation.
    for text in [
        "Vie\u{323}\u{302}t Nam",
        "می\u{200c}خواهم",
        "👨\u{200d}👩\u{200d}👧",
        "❤\u{fe0f} 王天一",
    ] {
        ws.send(&json!({"t": "chat", "text": text})).await;
        let m = chat_answer(&mut ws).await;
        assert_eq!(m["t"], "chat", "{text:?}: {m}");
        assert_eq!(m["text"], text);
    }
    s.stop().await;
}

/// "Tighten": names refuse the same characters, and joiners too (a name
/// is a word, and UTS 39 keeps joiners out of identifiers).
async fn names_refuse_invisible_and_reordering_characters() {
    let mut s = common::start().await;
    for name in [
        "ab\u{202e}cd",
        "ab\u{200d}cd",
        "ab\u{3164}cd",
        "\u{115f}abc",
        &format!("क{}", "\u{93f}".repeat(12)),
        &format!("a{}", "\u{345}".repeat(12)),
    ] {
        let r = Client::anonymous(&s)
            .post(
                "/api/auth/register",
                &json!({"name": name, "password": "correct horse"}),
            )
            .await;
        assert_eq!(r.status(), 400, "{name:?}");
    }
    let r = Client::anonymous(&s)
        .post(
            "/api/auth/register",
            &json!({"name": common::unique("विजय"), "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status(), 201, "a Devanagari name with its vowel signs");
    s.stop().await;
}

/// How long until the computer's first move on `ws` (which it plays
/// first), at most `limit`.
async fn first_move(ws: &mut Ws, since: Instant, limit: Duration) -> Option<Duration> {
    while since.elapsed() < limit {
        let m = tokio::time::timeout(Duration::from_secs(1), ws.next()).await;
        match m {
            Ok(Some(m)) if m["t"] == "move" => return Some(since.elapsed()),
            Ok(Some(_)) | Err(_) => {}
            Ok(None) => {}
        }
    }
    None
}

/// Starts a game against the computer at `level`, the computer moving
/// first (60+30: a level-8 search takes its longest, 5 s), and times its
/// first move.
async fn time_first_reply(c: &Client, level: u8) -> Result<Duration, String> {
    let since = Instant::now();
    let r = c
        .post(
            "/api/computer",
            &json!({"level": level, "time": "60+30", "color": "second"}),
        )
        .await;
    if r.status() != 200 {
        return Err(format!("refused: {}", r.status()));
    }
    let game = r.json::<Value>().await.unwrap()["game"]
        .as_str()
        .unwrap()
        .to_string();
    let (mut ws, full) = c.ws(&game).await;
    if full["game"]["ply"] != 0 {
        return Ok(since.elapsed());
    }
    first_move(&mut ws, since, Duration::from_secs(60))
        .await
        .ok_or_else(|| "no move within 60 s".into())
}

/// Item 4: 8 guests × 4 level-8 games from one address (guests are free
/// accounts) cannot make another player's level-1 reply wait: quick
/// levels have their own lane, the deep searches one address may queue
/// are bounded, and the deep lane is shared by address, so a player from
/// elsewhere waits for at most one search.
async fn a_guest_swarm_cannot_hold_up_another_players_reply() {
    let mut s = common::start().await;
    let mut swarm = Vec::new();
    for _ in 0..8 {
        swarm.push(Client::guest(&s).await);
    }
    let deep = json!({"level": 8, "time": "60+30", "color": "second"});
    let asks = swarm
        .iter()
        .flat_map(|g| (0..4).map(|_| g.post("/api/computer", &deep)));
    let answers = futures_util::future::join_all(asks).await;
    let mut started = 0;
    let mut refused = 0;
    for r in answers {
        match r.status().as_u16() {
            200 => started += 1,
            409 | 429 | 503 => refused += 1,
            other => panic!("computer game: {other}"),
        }
    }
    // Another player from the swarm's own address at level 1, and one
    // from elsewhere at level 8, both while the swarm's searches queue.
    let near = Client::register(&s, "near").await;
    let mut far = from(&s, OTHER_IP);
    far.name = common::unique("far");
    let r = far
        .post(
            "/api/auth/register",
            &json!({"name": far.name, "password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status(), 201);
    far.cookie = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("qiju_session="))
        .map(|v| v.split(';').next().unwrap().to_string());
    let (quick, deep) = tokio::join!(time_first_reply(&near, 1), time_first_reply(&far, 8));
    eprintln!(
        "swarm: {started} level-8 games started, {refused} refused; \
         level-1 reply from the swarm's address: {quick:?}; level-8 reply from another address: {deep:?}"
    );
    let quick = quick.expect("a level-1 reply");
    let deep = deep.expect("a level-8 reply");
    assert!(quick < Duration::from_secs(2), "level-1 reply took {quick:?}");
    // One 5 s search of its own, and at most one of the swarm's ahead.
    assert!(deep < Duration::from_secs(11), "level-8 reply took {deep:?}");
    let cap = lobby::LobbyLimits::default().deep_computer_games_per_address;
    assert_eq!((started, refused), (cap, 32 - cap), "deep games from one address");
    s.stop().await;
}

crate::on_both_databases!(
    a_wrong_method_is_refused_in_json,
    a_cancelled_evaluation_leaves_its_player_free,
    reports_refuse_control_characters,
    request_bodies_are_strict,
    chat_refuses_invisible_and_reordering_characters,
    names_refuse_invisible_and_reordering_characters,
    a_guest_swarm_cannot_hold_up_another_players_reply,
);
