//! Load benchmark for `qiju serve`: many concurrent live games over loopback
//! WebSockets, driven from this separate process.
//!
//! It starts the server (or uses a running one), makes two guests per game,
//! pairs them by a direct challenge, opens both players' sockets, and then
//! every player answers each opponent move after a think time with a random
//! legal move. It reports the move latency — from the moment a player sends
//! a move to the moment its opponent receives it, which includes the
//! server's validation, clock, database write and broadcast — and the
//! server's memory per live game.
//!
//! ```text
//! ulimit -n 16384
//! cargo run --release -p loadtest -- --server-bin target/release/qiju --games 1000 --seconds 60
//! ```

use anyhow::{bail, Context};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

#[derive(Parser)]
#[command(about = "Load benchmark for qiju serve: concurrent live games over loopback")]
struct Args {
    /// The qiju binary to start (`serve` on a fresh SQLite file); memory is
    /// measured only for a server started this way.
    #[arg(long)]
    server_bin: Option<String>,
    /// Database for the started server (default: a fresh SQLite file).
    #[arg(long)]
    database: Option<String>,
    /// `--sqlite-sync` for the started server.
    #[arg(long, default_value = "normal")]
    sqlite_sync: String,
    /// Or the URL of a running server.
    #[arg(long, default_value = "http://127.0.0.1:8090")]
    url: String,
    /// Concurrent live games.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// How long to play, after all games have started.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Mean think time per move in ms (uniform in [0.5, 1.5] × this).
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// Time control of the games.
    #[arg(long, default_value = "60+0")]
    time: String,
}

/// Resident memory of a process in KiB (Linux).
fn rss_kib(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// CPU time (user + system) a process has used, in seconds (Linux).
fn cpu_s(pid: u32) -> Option<f64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may contain spaces).
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

struct Server {
    child: Option<Child>,
    _dir: Option<std::path::PathBuf>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(c) = &mut self.child {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(d) = &self._dir {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

async fn wait_up(http: &reqwest::Client, url: &str) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(r) = http.get(format!("{url}/api/health")).send().await {
            if r.status().is_success() {
                return Ok(());
            }
        }
        if Instant::now() > deadline {
            bail!("the server at {url} did not answer");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[derive(Clone)]
struct Player {
    cookie: String,
    name: String,
}

async fn guest(http: &reqwest::Client, url: &str) -> anyhow::Result<Player> {
    let r = http
        .post(format!("{url}/api/auth/guest"))
        .header("x-qiju-csrf", "1")
        .send()
        .await?;
    if r.status() != 201 {
        bail!("guest: {}", r.status());
    }
    let cookie = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("qiju_session="))
        .and_then(|v| v.split(';').next())
        .context("no session cookie")?
        .to_string();
    let v: Value = r.json().await?;
    Ok(Player {
        cookie,
        name: v["name"].as_str().context("no name")?.to_string(),
    })
}

async fn post(
    http: &reqwest::Client,
    url: &str,
    p: &Player,
    path: &str,
    body: Value,
) -> anyhow::Result<Value> {
    let r = http
        .post(format!("{url}{path}"))
        .header("x-qiju-csrf", "1")
        .header("cookie", &p.cookie)
        .json(&body)
        .send()
        .await?;
    let status = r.status();
    let v: Value = r.json().await?;
    if !status.is_success() {
        bail!("POST {path}: {status} {v}");
    }
    Ok(v)
}

/// One game: red's and black's players and the send time of the last move.
struct Table {
    id: String,
    red: Player,
    black: Player,
    sent: Mutex<Option<(u64, Instant)>>,
}

#[derive(Default)]
struct Stats {
    latencies_us: Mutex<Vec<u32>>,
    moves: AtomicU64,
    ended: AtomicU64,
    errors: AtomicU64,
}

/// A tiny xorshift for think times and move choice (no need for a crate).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(ws_url: &str, game: &str, p: &Player) -> anyhow::Result<Socket> {
    let mut req = format!("{ws_url}/api/games/{game}/ws").into_client_request()?;
    req.headers_mut().insert("cookie", p.cookie.parse()?);
    let (s, _) = tokio_tungstenite::connect_async(req).await?;
    Ok(s)
}

/// Plays one side of a game until `stop`.
async fn play(
    mut socket: Socket,
    table: Arc<Table>,
    me: &'static str,
    stats: Arc<Stats>,
    think_ms: u64,
    stop: Instant,
    seed: u64,
) {
    let mut rng = Rng(seed | 1);
    loop {
        let remaining = stop.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            break;
        }
        let msg = match tokio::time::timeout(remaining, socket.next()).await {
            Err(_) => break,
            Ok(None | Some(Err(_))) => {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                break;
            }
            Ok(Some(Ok(Message::Text(t)))) => t,
            Ok(Some(Ok(_))) => continue,
        };
        let received = Instant::now();
        let Ok(v) = serde_json::from_str::<Value>(&msg) else {
            continue;
        };
        let (turn, fen, ply) = match v["t"].as_str() {
            Some("full") => (
                v["game"]["turn"].as_str().unwrap_or_default().to_string(),
                v["game"]["fen"].as_str().unwrap_or_default().to_string(),
                v["game"]["ply"].as_u64().unwrap_or(0),
            ),
            Some("move") => {
                let fen = v["fen"].as_str().unwrap_or_default().to_string();
                let ply = v["ply"].as_u64().unwrap_or(0);
                let turn = v["turn"].as_str().unwrap_or_default().to_string();
                if turn == me {
                    // The opponent's move reached us: its latency.
                    let sent = *table.sent.lock().unwrap();
                    if let Some((p, at)) = sent {
                        if p == ply {
                            let us = u32::try_from((received - at).as_micros()).unwrap_or(u32::MAX);
                            stats.latencies_us.lock().unwrap().push(us);
                            stats.moves.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
                (turn, fen, ply)
            }
            Some("end") => {
                if me == "first" {
                    stats.ended.fetch_add(1, Ordering::Relaxed);
                }
                break;
            }
            Some("error") => {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            _ => continue,
        };
        if turn != me {
            continue;
        }
        let think = think_ms / 2 + rng.next() % think_ms.max(1);
        tokio::time::sleep(Duration::from_millis(think)).await;
        let Ok(pos) = xiangqi::Position::from_fen(&fen) else {
            break;
        };
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[(rng.next() % legal.len() as u64) as usize].iccs();
        *table.sent.lock().unwrap() = Some((ply + 1, Instant::now()));
        let m = json!({"t": "move", "move": mv, "ply": ply + 1}).to_string();
        if socket.send(Message::Text(m.into())).await.is_err() {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            break;
        }
    }
    let _ = socket.close(None).await;
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let a = Args::parse();
    let http = reqwest::Client::builder().pool_max_idle_per_host(64).build()?;
    let mut server = Server {
        child: None,
        _dir: None,
    };
    let mut url = a.url.clone();
    let mut pid = None;
    if let Some(bin) = &a.server_bin {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let dir = std::env::temp_dir().join(format!("qiju-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let db = a
            .database
            .clone()
            .unwrap_or_else(|| format!("sqlite://{}", dir.join("qiju.db").display()));
        // Every simulated player comes from 127.0.0.1: the per-address
        // limits are turned off (on binaries that have them, so that an
        // older release can be measured beside this one).
        let help = Command::new(bin).args(["serve", "--help"]).output()?;
        let limits: &[&str] = if String::from_utf8_lossy(&help.stdout).contains("--max-connections-per-ip") {
            &[
                "--max-connections-per-ip",
                "0",
                "--guests-per-ip",
                "0",
                "--guests-per-minute",
                "0",
            ]
        } else {
            &[]
        };
        let child = Command::new(bin)
            .args([
                "serve",
                "--listen",
                &format!("127.0.0.1:{port}"),
                "--database",
                &db,
                "--abort-after",
                "600",
            ])
            .args(limits)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {bin}"))?;
        pid = Some(child.id());
        server.child = Some(child);
        server._dir = Some(dir);
        url = format!("http://127.0.0.1:{port}");
    }
    wait_up(&http, &url).await?;
    let ws_url = url.replacen("http://", "ws://", 1);
    let rss_start = pid.and_then(rss_kib);
    println!(
        "server {url}; {} games, {} s, think {} ms, time control {}",
        a.games, a.seconds, a.think_ms, a.time
    );

    // Guests and games, a few dozen requests at a time.
    let t0 = Instant::now();
    let mut tables = Vec::with_capacity(a.games);
    for chunk in (0..a.games).collect::<Vec<_>>().chunks(50) {
        let mut set = tokio::task::JoinSet::new();
        for _ in chunk {
            let (http, url, time) = (http.clone(), url.clone(), a.time.clone());
            set.spawn(async move {
                let red = guest(&http, &url).await?;
                let black = guest(&http, &url).await?;
                let ch = post(
                    &http,
                    &url,
                    &red,
                    "/api/challenges",
                    json!({"to": black.name, "time": time, "color": "first"}),
                )
                .await?;
                let id = ch["id"].as_str().context("challenge id")?.to_string();
                let acc = post(
                    &http,
                    &url,
                    &black,
                    &format!("/api/challenges/{id}/accept"),
                    json!({}),
                )
                .await?;
                let game = acc["game"].as_str().context("game id")?.to_string();
                anyhow::Ok(Table {
                    id: game,
                    red,
                    black,
                    sent: Mutex::new(None),
                })
            });
        }
        while let Some(r) = set.join_next().await {
            tables.push(Arc::new(r??));
        }
    }
    println!(
        "created {} games in {:.1} s",
        tables.len(),
        t0.elapsed().as_secs_f64()
    );
    let rss_games = pid.and_then(rss_kib);

    // Both players' sockets.
    let mut sockets = Vec::with_capacity(tables.len());
    for chunk in tables.chunks(100) {
        let mut set = tokio::task::JoinSet::new();
        for t in chunk {
            let (t, ws_url) = (t.clone(), ws_url.clone());
            set.spawn(async move {
                let r = connect(&ws_url, &t.id, &t.red).await?;
                let b = connect(&ws_url, &t.id, &t.black).await?;
                anyhow::Ok((t, r, b))
            });
        }
        while let Some(r) = set.join_next().await {
            sockets.push(r??);
        }
    }
    let rss_sockets = pid.and_then(rss_kib);
    println!("{} sockets open", sockets.len() * 2);

    let stats = Arc::new(Stats::default());
    let cpu_before = (pid.and_then(cpu_s), cpu_s(std::process::id()));
    let stop = Instant::now() + Duration::from_secs(a.seconds);
    let started = Instant::now();
    let mut set = tokio::task::JoinSet::new();
    for (i, (t, r, b)) in sockets.into_iter().enumerate() {
        let seed = 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(i as u64 + 1);
        set.spawn(play(r, t.clone(), "first", stats.clone(), a.think_ms, stop, seed));
        set.spawn(play(
            b,
            t,
            "second",
            stats.clone(),
            a.think_ms,
            stop,
            seed ^ 0xdead_beef,
        ));
    }
    // Sample the server's memory in the middle of play.
    tokio::time::sleep(Duration::from_secs(a.seconds / 2)).await;
    let rss_play = pid.and_then(rss_kib);
    while set.join_next().await.is_some() {}
    let elapsed = started.elapsed().as_secs_f64();
    let cpu_after = (pid.and_then(cpu_s), cpu_s(std::process::id()));

    let mut lat = stats.latencies_us.lock().unwrap().clone();
    lat.sort_unstable();
    let moves = stats.moves.load(Ordering::Relaxed);
    println!(
        "moves measured: {moves} in {elapsed:.1} s ({:.0} moves/s)",
        moves as f64 / elapsed
    );
    println!(
        "move latency send → opponent receives (ms): p50 {:.2}  p90 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.2}",
        percentile(&lat, 0.5),
        percentile(&lat, 0.9),
        percentile(&lat, 0.99),
        percentile(&lat, 0.999),
        percentile(&lat, 1.0)
    );
    println!(
        "games ended during the run: {}; client-side errors: {}",
        stats.ended.load(Ordering::Relaxed),
        stats.errors.load(Ordering::Relaxed)
    );
    if let ((Some(s0), Some(c0)), (Some(s1), Some(c1))) = (cpu_before, cpu_after) {
        println!(
            "CPU during play: server {:.1}% of one core, this client {:.0}%",
            (s1 - s0) / elapsed * 100.0,
            (c1 - c0) / elapsed * 100.0
        );
        // Every move measured is one move the server took, checked, stored
        // and broadcast (moves still on the way at the end are few).
        if moves > 0 {
            println!("server CPU per move: {:.0} µs", (s1 - s0) / moves as f64 * 1e6);
        }
    }
    if let (Some(s), Some(g), Some(k), Some(p)) = (rss_start, rss_games, rss_sockets, rss_play) {
        let n = tables.len().max(1) as f64;
        println!(
            "server RSS (MiB): start {:.1}, games created {:.1}, sockets open {:.1}, during play {:.1}",
            s as f64 / 1024.0,
            g as f64 / 1024.0,
            k as f64 / 1024.0,
            p as f64 / 1024.0
        );
        println!(
            "memory per live game: {:.1} KiB (game task only), {:.1} KiB (with its two player connections, during play)",
            (g.saturating_sub(s)) as f64 / n,
            (p.saturating_sub(s)) as f64 / n
        );
    }
    Ok(())
}
