//! Test helpers: a server started in-process on a loopback port, on SQLite
//! in a temporary folder or on PostgreSQL (`QIJU_TEST_POSTGRES`), and HTTP +
//! WebSocket clients that talk to it as a browser or bot would.
//!
//! A test of the server runs on both databases ([`on_both_databases!`]):
//! SQLite is what `qiju serve` runs on by default, PostgreSQL what a larger
//! site runs on, and either may break where the other holds.

#![allow(dead_code)]

pub mod lichess;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

pub struct TestServer {
    pub server: Option<server::RunningServer>,
    pub base: String,
    pub ws_base: String,
    pub database: String,
    /// The configuration it started with: [`TestServer::restart`] starts
    /// the same node on the same database again.
    pub config: server::Config,
    pub _dir: Option<tempfile::TempDir>,
}

/// Which database a test's servers run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

tokio::task_local! {
    /// The database of the test running in this task (see [`on`]).
    static DB: Db;
}

/// PostgreSQL for the tests (`QIJU_TEST_POSTGRES`), or `None`: the test is
/// skipped, with a word on stderr. Never under `QIJU_REQUIRE_ORACLES=1` (as
/// `.ci/run` sets): there a missing PostgreSQL fails, as a missing oracle
/// does, rather than the suite passing on SQLite alone.
pub fn postgres_url() -> Option<String> {
    match std::env::var("QIJU_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            let required = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
            assert!(
                !required,
                "QIJU_TEST_POSTGRES is not set, and QIJU_REQUIRE_ORACLES=1 requires PostgreSQL"
            );
            eprintln!("skipped: QIJU_TEST_POSTGRES is not set, so this test has no PostgreSQL to run on");
            None
        }
    }
}

/// Runs a test with its servers on `db` (skipped on PostgreSQL when there
/// is none, see [`postgres_url`]).
pub async fn on(db: Db, test: impl std::future::Future<Output = ()>) {
    if db == Db::Postgres && postgres_url().is_none() {
        return;
    }
    DB.scope(db, test).await;
}

/// Makes each named `async fn` a test twice, `NAME::sqlite` and
/// `NAME::postgres`: the same body, each of its servers on that database.
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                $crate::common::on($crate::common::Db::Sqlite, super::$name()).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                $crate::common::on($crate::common::Db::Postgres, super::$name()).await;
            }
        }
    )*};
}

/// Waits until `holds` (polled every 50 ms), failing after 30 s: for what
/// the server does on its own time (expiry, idle limits, timers), so that
/// a slow machine waits longer instead of failing.
pub async fn eventually<F, Fut>(what: &str, mut holds: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !holds().await {
        assert!(tokio::time::Instant::now() < deadline, "{what}: not within 30 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The database for a server of this test: the one [`on`] chose, else an
/// SQLite file in a fresh temporary folder.
pub fn database() -> (String, Option<tempfile::TempDir>) {
    match DB.try_with(|db| *db).unwrap_or(Db::Sqlite) {
        Db::Postgres => (postgres_url().expect("PostgreSQL, checked by `on`"), None),
        Db::Sqlite => {
            let dir = tempfile::tempdir().expect("tempdir");
            let url = format!("sqlite://{}", dir.path().join("qiju.db").display());
            (url, Some(dir))
        }
    }
}

pub async fn start() -> TestServer {
    start_with(|_| {}).await
}

pub async fn start_with(tweak: impl FnOnce(&mut server::Config)) -> TestServer {
    // The server's warnings and errors go to the test's captured output:
    // shown with a failure (a 500's cause is only in the log).
    let _ = tracing_subscriber::fmt()
        .with_test_writer()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .try_init();
    let (database, dir) = database();
    let mut config = server::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: database.clone(),
        // Each test server is its own node, so tests sharing one PostgreSQL
        // database never resume each other's games.
        node_id: format!("test-{}", unique("")),
        // Every test client comes from 127.0.0.1; the tests of the limits
        // set them.
        account_limits: accounts::AccountLimits {
            registrations_per_ip: 0,
            registrations_global: 0,
            guests_per_ip: 0,
            guests_global: 0,
            ..accounts::AccountLimits::default()
        },
        ..server::Config::default()
    };
    tweak(&mut config);
    let running = server::start(config.clone()).await.expect("server starts");
    let addr = running.addr;
    TestServer {
        server: Some(running),
        base: format!("http://{addr}"),
        ws_base: format!("ws://{addr}"),
        database,
        config,
        _dir: dir,
    }
}

impl TestServer {
    pub async fn stop(&mut self) {
        if let Some(s) = self.server.take() {
            s.shutdown().await.expect("clean shutdown");
        }
    }

    /// The stored account named `name` (for what only the rooms can do:
    /// mute, notices).
    pub async fn user(&self, name: &str) -> store::User {
        let state = &self.server.as_ref().expect("running").state;
        state
            .play()
            .store()
            .user_by_name(name)
            .await
            .unwrap()
            .expect("such a user")
    }

    /// The server's database, for a test that must leave it as only a
    /// failure would (a write the rooms did not follow up).
    pub fn store(&self) -> &store::Store {
        self.server.as_ref().expect("running").state.play().store()
    }

    /// The server's games, for a test that must start one as only a
    /// failure would (made for an event that never linked it).
    pub fn play(&self) -> &play::Play {
        self.server.as_ref().expect("running").state.play()
    }

    /// Stops the server and starts the same node again on the same
    /// database and address (clients keep their cookies and URLs): its
    /// live games resume from the stored commands.
    pub async fn restart(&mut self) {
        self.stop().await;
        let mut config = self.config.clone();
        config.listen = self.base.trim_start_matches("http://").parse().unwrap();
        let running = server::start(config).await.expect("server restarts");
        self.server = Some(running);
    }
}

/// A name unique across test runs (tests may share a PostgreSQL database).
pub fn unique(prefix: &str) -> String {
    let mut b = [0u8; 5];
    getrandom::fill(&mut b).unwrap();
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{prefix}{hex}")
}

pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub ws_base: String,
    pub name: String,
    pub cookie: Option<String>,
}

fn session_cookie(resp: &reqwest::Response) -> Option<String> {
    resp.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("qiju_session="))
        .map(|v| v.split(';').next().unwrap_or("").to_string())
}

impl Client {
    pub fn anonymous(s: &TestServer) -> Client {
        Client {
            http: reqwest::Client::new(),
            base: s.base.clone(),
            ws_base: s.ws_base.clone(),
            name: String::new(),
            cookie: None,
        }
    }

    /// Registers a fresh account (name `prefix` + random) and logs it in.
    pub async fn register(s: &TestServer, prefix: &str) -> Client {
        let mut c = Client::anonymous(s);
        c.name = unique(prefix);
        let resp = c
            .post(
                "/api/auth/register",
                &serde_json::json!({"name": c.name, "password": "correct horse"}),
            )
            .await;
        assert_eq!(resp.status(), 201, "register {}", c.name);
        c.cookie = session_cookie(&resp);
        assert!(c.cookie.is_some());
        c
    }

    pub async fn guest(s: &TestServer) -> Client {
        let mut c = Client::anonymous(s);
        let resp = c.post("/api/auth/guest", &serde_json::json!({})).await;
        assert_eq!(resp.status(), 201);
        c.cookie = session_cookie(&resp);
        let v: Value = resp.json().await.unwrap();
        c.name = v["name"].as_str().unwrap().to_string();
        c
    }

    pub async fn login(&mut self, password: &str) -> reqwest::Response {
        let resp = self
            .post(
                "/api/auth/login",
                &serde_json::json!({"name": self.name, "password": password}),
            )
            .await;
        if let Some(c) = session_cookie(&resp) {
            self.cookie = Some(c);
        }
        resp
    }

    pub async fn post(&self, path: &str, body: &Value) -> reqwest::Response {
        let mut req = self
            .http
            .post(format!("{}{path}", self.base))
            .header("x-qiju-csrf", "1")
            .json(body);
        if let Some(c) = &self.cookie {
            req = req.header("cookie", c);
        }
        req.send().await.expect("request")
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            req = req.header("cookie", c);
        }
        req.send().await.expect("request")
    }

    pub async fn get_json(&self, path: &str) -> Value {
        let r = self.get(path).await;
        assert!(r.status().is_success(), "GET {path}: {}", r.status());
        r.json().await.unwrap()
    }

    /// A WebSocket on `path`, with this client's cookie.
    async fn socket(&self, path: &str) -> Ws {
        let mut req = format!("{}{path}", self.ws_base).into_client_request().unwrap();
        if let Some(c) = &self.cookie {
            req.headers_mut().insert("cookie", c.parse().unwrap());
        }
        let (stream, _) = tokio_tungstenite::connect_async(req).await.expect("ws connects");
        Ws { stream }
    }

    /// Opens a game's WebSocket and reads the `full` message.
    pub async fn ws(&self, game: &str) -> (Ws, Value) {
        let mut ws = self.socket(&format!("/api/games/{game}/ws")).await;
        let full = ws.expect("full").await;
        (ws, full)
    }

    /// The lobby socket, once its first message (the open seeks) is read.
    pub async fn lobby_ws(&self) -> Ws {
        let mut ws = self.socket("/api/lobby/ws").await;
        ws.expect("seeks").await;
        ws
    }

    /// Challenges `other` with `body` (`time`, `color`, `variant`, `fen` …;
    /// `to` is filled in) and has them accept; returns (the challenge as
    /// made, the game id, the side `other` got).
    pub async fn challenge(&self, other: &Client, mut body: Value) -> (Value, String, String) {
        body["to"] = other.name.clone().into();
        let ch: Value = self.post("/api/challenges", &body).await.json().await.unwrap();
        let id = ch["id"].as_str().unwrap_or_else(|| panic!("a challenge: {ch}"));
        let acc: Value = other
            .post(&format!("/api/challenges/{id}/accept"), &serde_json::json!({}))
            .await
            .json()
            .await
            .unwrap();
        let game = acc["game"]
            .as_str()
            .unwrap_or_else(|| panic!("a game: {acc}"))
            .to_string();
        let color = acc["color"].as_str().unwrap_or_default().to_string();
        (ch, game, color)
    }

    /// Seeks a game against another client (who must seek second); returns
    /// (game id, this client's colour).
    pub async fn pair(&self, other: &Client, time: &str, rated: bool) -> (String, String) {
        let body = serde_json::json!({"time": time, "rated": rated});
        let a: Value = self.post("/api/seeks", &body).await.json().await.unwrap();
        assert!(a["seek"].is_string(), "{a}");
        let b: Value = other.post("/api/seeks", &body).await.json().await.unwrap();
        let game = b["game"].as_str().expect("paired").to_string();
        let other_color = b["color"].as_str().unwrap();
        let mine = if other_color == "first" { "second" } else { "first" };
        (game, mine.to_string())
    }
}

/// Plays `moves` in `game` over HTTP, `first` and `second` in turn from
/// the first side's move, then `loser` resigns.
pub async fn play_then_resign(game: &str, first: &Client, second: &Client, moves: &[&str], loser: &Client) {
    for (i, m) in moves.iter().enumerate() {
        let c = if i % 2 == 0 { first } else { second };
        let r = c
            .post(&format!("/api/games/{game}/move/{m}"), &serde_json::json!({}))
            .await;
        assert_eq!(r.status(), 200, "move {m}");
    }
    let r = loser
        .post(&format!("/api/games/{game}/resign"), &serde_json::json!({}))
        .await;
    assert_eq!(r.status(), 200, "resign");
}

pub struct Ws {
    pub stream: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
}

impl Ws {
    pub async fn send(&mut self, v: &Value) {
        self.stream
            .send(Message::Text(v.to_string().into()))
            .await
            .expect("ws send");
    }

    pub async fn send_raw(&mut self, text: String) -> Result<(), tokio_tungstenite::tungstenite::Error> {
        self.stream.send(Message::Text(text.into())).await
    }

    /// The next JSON message, or `None` if the socket closed or 10 s passed.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(10), self.stream.next())
                .await
                .ok()??;
            match m {
                Ok(Message::Text(t)) => return Some(serde_json::from_str(&t).expect("json")),
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => continue,
            }
        }
    }

    /// The opponent's next move, or the end of the game, whichever comes
    /// first (what a player waits for after moving against the computer).
    pub async fn reply(&mut self) -> Value {
        loop {
            let m = self.next().await.expect("a reply");
            if m["t"] == "move" || m["t"] == "end" {
                return m;
            }
        }
    }

    /// Reads until a message of type `t`, panicking on timeout.
    pub async fn expect(&mut self, t: &str) -> Value {
        loop {
            let m = self.next().await.unwrap_or_else(|| panic!("no {t} message"));
            if m["t"] == t {
                return m;
            }
        }
    }

    /// Plays a move and waits for its broadcast.
    pub async fn play(&mut self, mv: &str) -> Value {
        self.send(&serde_json::json!({"t": "move", "move": mv})).await;
        loop {
            let m = self.next().await.expect("move echo");
            if m["t"] == "move" && m["move"] == mv {
                return m;
            }
            assert_ne!(m["t"], "error", "move {mv} refused: {m}");
        }
    }
}

/// A 27-ply game from the start position that ends in checkmate (found by
/// random play with Fairy-Stockfish, ranks converted to ICCS).
pub const MATE_GAME: &str = "h2d2 h7h4 d2d7 h4h2 b2g2 a9a7 d7d5 b7b3 d5e5 a7e7 d0e1 b3e3 g2e2 h2h3 a0a2 e7e8 a2a1 g9i7 e5i5 h3h4 i5a5 i9i8 e0d0 e3e4 e2e6 e8b8 a5e5";
