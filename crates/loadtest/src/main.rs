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
//! ulimit -n 16384   # or --clients N: N client processes share the sockets
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
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
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
    /// Server nodes to start on `--database` (PostgreSQL) linked by
    /// `--bus`: each game's two players are on different nodes, so every
    /// move crosses the bus once (issue 29).
    #[arg(long, default_value_t = 1)]
    nodes: usize,
    /// The Redis bus of the started nodes (redis://HOST:PORT).
    #[arg(long)]
    bus: Option<String>,
    /// The pid of the bus's redis-server, whose CPU is then measured too.
    #[arg(long)]
    bus_pid: Option<u32>,
    /// Client processes sharing the games (this one starts the servers,
    /// then as many processes of itself): one process may hold only so
    /// many sockets (`ulimit -n`), and 10,000 games are 20,000.
    #[arg(long, default_value_t = 1)]
    clients: usize,
    /// A client process of `--clients`: plays games `offset..offset +
    /// games` on the comma-separated `--urls`, says `created` and `ready`
    /// on stdout, starts on a line on stdin, and writes what it measured
    /// to this file.
    #[arg(long, hide = true)]
    child: Option<std::path::PathBuf>,
    #[arg(long, hide = true, default_value_t = 0)]
    offset: usize,
    #[arg(long, hide = true)]
    urls: Option<String>,
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
    cpu_split_s(pid).map(|(user, kernel)| user + kernel)
}

/// CPU time a process has used in user space and in the kernel, in
/// seconds (Linux's `/proc/PID/stat`). The kernel's share of a server's
/// move is mostly its sockets' sends, which carry the loopback's receive
/// path too (docs/PERFORMANCE.md).
fn cpu_split_s(pid: u32) -> Option<(f64, f64)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may contain spaces).
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let user: f64 = f.get(11)?.parse().ok()?;
    let kernel: f64 = f.get(12)?.parse().ok()?;
    Some((user / 100.0, kernel / 100.0))
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
    /// The nodes each player's socket goes to.
    red_ws: String,
    black_ws: String,
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
    // Small buffers, as the server's: tungstenite zeroes its read buffer's
    // free space before each read, and at the default 128 KiB that was a
    // third of the client's CPU.
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (s, _) = tokio_tungstenite::connect_async_with_config(req, Some(config), false).await?;
    Ok(s)
}

/// What a player reads of a server message: the rest (the legal moves,
/// the clocks, the notation) is skipped unread, so that the client's own
/// CPU — which shares the machine with the server — stays small. A `full`
/// message's `game` carries the same three fields, read by the same type.
#[derive(serde::Deserialize)]
struct Incoming<'a> {
    #[serde(default, borrow)]
    t: std::borrow::Cow<'a, str>,
    #[serde(default, borrow)]
    turn: std::borrow::Cow<'a, str>,
    #[serde(default, borrow)]
    fen: std::borrow::Cow<'a, str>,
    #[serde(default)]
    ply: u64,
    #[serde(default, borrow)]
    game: Option<Box<Incoming<'a>>>,
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
                if stats.errors.fetch_add(1, Ordering::Relaxed) < 3 {
                    eprintln!("socket closed ({me}, game {})", table.id);
                }
                break;
            }
            Ok(Some(Ok(Message::Text(t)))) => t,
            Ok(Some(Ok(_))) => continue,
        };
        let received = Instant::now();
        let Ok(m) = serde_json::from_str::<Incoming>(&msg) else {
            continue;
        };
        let (turn, fen, ply) = match m.t.as_ref() {
            "full" => {
                let Some(g) = m.game else { continue };
                (g.turn, g.fen, g.ply)
            }
            "move" => {
                if m.turn == me {
                    // The opponent's move reached us: its latency.
                    let sent = *table.sent.lock().unwrap();
                    if let Some((p, at)) = sent {
                        if p == m.ply {
                            let us = u32::try_from((received - at).as_micros()).unwrap_or(u32::MAX);
                            stats.latencies_us.lock().unwrap().push(us);
                            stats.moves.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
                (m.turn, m.fen, m.ply)
            }
            "end" => {
                if me == "first" {
                    stats.ended.fetch_add(1, Ordering::Relaxed);
                }
                break;
            }
            "error" => {
                if stats.errors.fetch_add(1, Ordering::Relaxed) < 3 {
                    eprintln!("server error: {msg}");
                }
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

/// The resident memory of every node together, KiB.
fn rss_all(pids: &[u32]) -> Option<u64> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|p| rss_kib(*p)).sum()
}

/// Each node's CPU seconds so far, in user space and in the kernel.
fn cpu_each(pids: &[u32]) -> Option<Vec<(f64, f64)>> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|p| cpu_split_s(*p)).collect()
}

/// Starts node `k` of the benchmark: its server, URL and pid.
fn start_server(bin: &str, a: &Args, k: usize) -> anyhow::Result<(Server, String, u32)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let dir = std::env::temp_dir().join(format!("qiju-load-{}-{k}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = a
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("qiju.db").display()));
    // Every simulated player comes from 127.0.0.1: the per-address
    // limits are turned off (on binaries that have them, so that an
    // older release can be measured beside this one).
    let help = Command::new(bin).args(["serve", "--help"]).output()?;
    let help = String::from_utf8_lossy(&help.stdout).to_string();
    let mut extra: Vec<String> = Vec::new();
    if help.contains("--max-connections-per-ip") {
        for f in [
            "--max-connections-per-ip",
            "--guests-per-ip",
            "--guests-per-minute",
        ] {
            extra.extend([f.to_string(), "0".to_string()]);
        }
    }
    // One node on a bus too: what the bus costs a node whose games are
    // all its own.
    if a.nodes > 1 || a.bus.is_some() {
        let bus = a.bus.clone().unwrap_or_default();
        extra.extend([
            "--node-id".into(),
            format!("n{}", k + 1),
            "--bus".into(),
            bus,
            "--bus-namespace".into(),
            format!("load-{}", std::process::id()),
        ]);
    }
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
        .args(&extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {bin}"))?;
    let pid = child.id();
    Ok((
        Server {
            child: Some(child),
            _dir: Some(dir),
        },
        format!("http://127.0.0.1:{port}"),
        pid,
    ))
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

/// Makes games `range` (their global numbers decide their nodes): two
/// guests each, paired by a direct challenge, a few dozen at a time.
async fn make_games(
    http: &reqwest::Client,
    urls: &[String],
    range: std::ops::Range<usize>,
    time: &str,
) -> anyhow::Result<Vec<Arc<Table>>> {
    let mut tables = Vec::with_capacity(range.len());
    for chunk in range.collect::<Vec<_>>().chunks(50) {
        let mut set = tokio::task::JoinSet::new();
        for &i in chunk {
            // Red on one node, black on the next: the game is red's node's
            // (where the challenge is), and black's moves go over the bus.
            let red_url = urls[i % urls.len()].clone();
            let black_url = urls[(i + 1) % urls.len()].clone();
            let (http, time) = (http.clone(), time.to_string());
            set.spawn(async move {
                let red = guest(&http, &red_url).await?;
                let black = guest(&http, &black_url).await?;
                let ch = post(
                    &http,
                    &red_url,
                    &red,
                    "/api/challenges",
                    json!({"to": black.name, "time": time, "color": "first"}),
                )
                .await?;
                let id = ch["id"].as_str().context("challenge id")?.to_string();
                // The challenge reaches black's node over the bus; a copy
                // that never arrives is an error of the run, not a hang.
                let deadline = Instant::now() + Duration::from_secs(30);
                let acc = loop {
                    match post(
                        &http,
                        &black_url,
                        &black,
                        &format!("/api/challenges/{id}/accept"),
                        json!({}),
                    )
                    .await
                    {
                        Ok(v) => break v,
                        Err(e) if red_url != black_url && e.to_string().contains("404") => {
                            anyhow::ensure!(
                                Instant::now() < deadline,
                                "challenge {id} never reached {black_url}: {e}"
                            );
                            tokio::time::sleep(Duration::from_millis(20)).await;
                        }
                        Err(e) => return Err(e),
                    }
                };
                let game = acc["game"].as_str().context("game id")?.to_string();
                anyhow::Ok(Table {
                    id: game,
                    red,
                    black,
                    red_ws: red_url.replacen("http://", "ws://", 1),
                    black_ws: black_url.replacen("http://", "ws://", 1),
                    sent: Mutex::new(None),
                })
            });
        }
        while let Some(r) = set.join_next().await {
            tables.push(Arc::new(r??));
        }
    }
    Ok(tables)
}

type Seated = (Arc<Table>, Socket, Socket);

/// Both players' sockets of every game.
async fn open_sockets(tables: &[Arc<Table>]) -> anyhow::Result<Vec<Seated>> {
    let mut sockets = Vec::with_capacity(tables.len());
    for chunk in tables.chunks(100) {
        let mut set = tokio::task::JoinSet::new();
        for t in chunk {
            let t = t.clone();
            set.spawn(async move {
                let r = connect(&t.red_ws, &t.id, &t.red).await?;
                let b = connect(&t.black_ws, &t.id, &t.black).await?;
                anyhow::Ok((t, r, b))
            });
        }
        while let Some(r) = set.join_next().await {
            sockets.push(r??);
        }
    }
    Ok(sockets)
}

/// Plays every seated game until `seconds` have passed.
fn start_play(
    sockets: Vec<Seated>,
    offset: usize,
    stats: &Arc<Stats>,
    think_ms: u64,
    seconds: u64,
) -> tokio::task::JoinSet<()> {
    let stop = Instant::now() + Duration::from_secs(seconds);
    let mut set = tokio::task::JoinSet::new();
    for (i, (t, r, b)) in sockets.into_iter().enumerate() {
        let seed = 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul((offset + i) as u64 + 1);
        set.spawn(play(r, t.clone(), "first", stats.clone(), think_ms, stop, seed));
        set.spawn(play(
            b,
            t,
            "second",
            stats.clone(),
            think_ms,
            stop,
            seed ^ 0xdead_beef,
        ));
    }
    set
}

/// A client process of `--clients` (see [`Args::child`]).
async fn child(a: &Args, out: &std::path::Path) -> anyhow::Result<()> {
    use std::io::{BufRead, Write};
    let http = reqwest::Client::builder().pool_max_idle_per_host(64).build()?;
    let urls: Vec<String> = a
        .urls
        .as_deref()
        .context("--urls")?
        .split(',')
        .map(str::to_string)
        .collect();
    let tables = make_games(&http, &urls, a.offset..a.offset + a.games, &a.time).await?;
    println!("created");
    std::io::stdout().flush()?;
    let sockets = open_sockets(&tables).await?;
    println!("ready");
    std::io::stdout().flush()?;
    let mut go = String::new();
    tokio::task::spawn_blocking(move || std::io::stdin().lock().read_line(&mut go)).await??;
    let stats = Arc::new(Stats::default());
    let cpu0 = cpu_s(std::process::id()).unwrap_or(0.0);
    let mut set = start_play(sockets, a.offset, &stats, a.think_ms, a.seconds);
    while set.join_next().await.is_some() {}
    let cpu1 = cpu_s(std::process::id()).unwrap_or(0.0);
    let lat = stats.latencies_us.lock().unwrap().clone();
    let mut text = format!(
        "{} {} {} {}\n",
        stats.moves.load(Ordering::Relaxed),
        stats.ended.load(Ordering::Relaxed),
        stats.errors.load(Ordering::Relaxed),
        cpu1 - cpu0
    );
    for l in lat {
        text.push_str(&l.to_string());
        text.push('\n');
    }
    std::fs::write(out, text)?;
    Ok(())
}

/// What the clients measured while the games were played.
struct Played {
    stats: Stats,
    /// The client processes' CPU seconds during play.
    client_cpu_s: f64,
    elapsed_s: f64,
    rss_games: Option<u64>,
    rss_sockets: Option<u64>,
    rss_play: Option<u64>,
    /// Each node's user and kernel CPU seconds.
    cpu_before: Option<Vec<(f64, f64)>>,
    cpu_after: Option<Vec<(f64, f64)>>,
    bus_cpu_s: Option<f64>,
}

/// Plays the games from this process.
async fn play_here(
    a: &Args,
    http: &reqwest::Client,
    urls: &[String],
    pids: &[u32],
) -> anyhow::Result<Played> {
    let t0 = Instant::now();
    let tables = make_games(http, urls, 0..a.games, &a.time).await?;
    println!(
        "created {} games in {:.1} s",
        tables.len(),
        t0.elapsed().as_secs_f64()
    );
    let rss_games = rss_all(pids);
    let sockets = open_sockets(&tables).await?;
    let rss_sockets = rss_all(pids);
    println!("{} sockets open", sockets.len() * 2);
    let stats = Arc::new(Stats::default());
    let cpu_before = cpu_each(pids);
    let client0 = cpu_s(std::process::id()).unwrap_or(0.0);
    let bus_before = a.bus_pid.and_then(cpu_s);
    let started = Instant::now();
    let mut set = start_play(sockets, 0, &stats, a.think_ms, a.seconds);
    // Sample the server's memory in the middle of play.
    tokio::time::sleep(Duration::from_secs(a.seconds / 2)).await;
    let rss_play = rss_all(pids);
    while set.join_next().await.is_some() {}
    let elapsed_s = started.elapsed().as_secs_f64();
    let cpu_after = cpu_each(pids);
    let client_cpu_s = cpu_s(std::process::id()).unwrap_or(0.0) - client0;
    let bus_cpu_s = a.bus_pid.and_then(cpu_s).zip(bus_before).map(|(b1, b0)| b1 - b0);
    drop(set);
    let stats = Arc::try_unwrap(stats).map_err(|_| anyhow::anyhow!("a player still runs"))?;
    Ok(Played {
        stats,
        client_cpu_s,
        elapsed_s,
        rss_games,
        rss_sockets,
        rss_play,
        cpu_before,
        cpu_after,
        bus_cpu_s,
    })
}

type Kid = (
    tokio::process::Child,
    tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
    std::path::PathBuf,
);

/// Waits until every client process has said `word`.
async fn said(kids: &mut [Kid], word: &str) -> anyhow::Result<()> {
    for (kid, lines, _) in kids.iter_mut() {
        match lines.next_line().await? {
            Some(l) if l == word => {}
            other => bail!("client {:?} said {other:?}, not {word}", kid.id()),
        }
    }
    Ok(())
}

/// Plays the games from `--clients` processes of this program, started
/// together once all are seated.
async fn play_in_processes(a: &Args, urls: &[String], pids: &[u32]) -> anyhow::Result<Played> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let exe = std::env::current_exe()?;
    let dir = std::env::temp_dir().join(format!("qiju-load-clients-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let n = a.clients;
    let t0 = Instant::now();
    let mut kids: Vec<Kid> = Vec::new();
    for k in 0..n {
        let (from, to) = (a.games * k / n, a.games * (k + 1) / n);
        let out = dir.join(format!("client-{k}"));
        let mut kid = tokio::process::Command::new(&exe)
            .args(["--games", &(to - from).to_string(), "--offset", &from.to_string()])
            .args([
                "--seconds",
                &a.seconds.to_string(),
                "--think-ms",
                &a.think_ms.to_string(),
            ])
            .args(["--time", &a.time, "--urls", &urls.join(",")])
            .arg("--child")
            .arg(&out)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let lines = tokio::io::BufReader::new(kid.stdout.take().context("stdout")?).lines();
        kids.push((kid, lines, out));
    }
    said(&mut kids, "created").await?;
    println!(
        "created {} games in {:.1} s ({n} client processes)",
        a.games,
        t0.elapsed().as_secs_f64()
    );
    let rss_games = rss_all(pids);
    said(&mut kids, "ready").await?;
    let rss_sockets = rss_all(pids);
    println!("{} sockets open", a.games * 2);
    let cpu_before = cpu_each(pids);
    let bus_before = a.bus_pid.and_then(cpu_s);
    for (kid, _, _) in &mut kids {
        kid.stdin.as_mut().context("stdin")?.write_all(b"go\n").await?;
    }
    tokio::time::sleep(Duration::from_secs(a.seconds / 2)).await;
    let rss_play = rss_all(pids);
    let stats = Stats::default();
    let mut client_cpu_s = 0.0;
    let mut cpu_after = None;
    let mut bus_cpu_s = None;
    for (i, (kid, _, out)) in kids.iter_mut().enumerate() {
        let status = kid.wait().await?;
        if i == 0 {
            // The servers' CPU when the first client is done: the others
            // finish within moments.
            cpu_after = cpu_each(pids);
            bus_cpu_s = a.bus_pid.and_then(cpu_s).zip(bus_before).map(|(b1, b0)| b1 - b0);
        }
        if !status.success() {
            bail!("a client process failed: {status}");
        }
        let text = std::fs::read_to_string(&out)?;
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().context("empty client report")?.split(' ').collect();
        stats.moves.fetch_add(head[0].parse()?, Ordering::Relaxed);
        stats.ended.fetch_add(head[1].parse()?, Ordering::Relaxed);
        stats.errors.fetch_add(head[2].parse()?, Ordering::Relaxed);
        client_cpu_s += head[3].parse::<f64>()?;
        let mut lat = stats.latencies_us.lock().unwrap();
        for l in lines {
            lat.push(l.parse()?);
        }
    }
    // Each client played for exactly this long from the word go.
    let elapsed_s = a.seconds as f64;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(Played {
        stats,
        client_cpu_s,
        elapsed_s,
        rss_games,
        rss_sockets,
        rss_play,
        cpu_before,
        cpu_after,
        bus_cpu_s,
    })
}

/// Each process runs its players on one thread: a wake-up between threads
/// (a futex, a context switch) costs more than the work of a move here, and
/// the client shares the machine with the server it measures. `--clients`
/// spreads the players over processes.
fn main() -> anyhow::Result<()> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(run())
}

async fn run() -> anyhow::Result<()> {
    let a = Args::parse();
    if let Some(out) = &a.child {
        return child(&a, out).await;
    }
    let http = reqwest::Client::builder().pool_max_idle_per_host(64).build()?;
    let mut servers = Vec::new();
    let mut urls = vec![a.url.clone()];
    let mut pids = Vec::new();
    if let Some(bin) = &a.server_bin {
        urls.clear();
        if a.nodes > 1
            && (a.bus.is_none() || !a.database.as_deref().is_some_and(|d| d.starts_with("postgres")))
        {
            bail!(
                "--nodes {} needs --database postgres://… and --bus redis://…",
                a.nodes
            );
        }
        for k in 0..a.nodes.max(1) {
            let (server, url, pid) = start_server(bin, &a, k)?;
            servers.push(server);
            urls.push(url);
            pids.push(pid);
        }
    }
    for url in &urls {
        wait_up(&http, url).await?;
    }
    let rss_start = rss_all(&pids);
    println!(
        "server {}; {} games, {} s, think {} ms, time control {}",
        urls.join(" "),
        a.games,
        a.seconds,
        a.think_ms,
        a.time
    );
    let p = if a.clients > 1 {
        play_in_processes(&a, &urls, &pids).await?
    } else {
        play_here(&a, &http, &urls, &pids).await?
    };
    let elapsed = p.elapsed_s;
    let mut lat = p.stats.latencies_us.lock().unwrap().clone();
    lat.sort_unstable();
    let moves = p.stats.moves.load(Ordering::Relaxed);
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
        p.stats.ended.load(Ordering::Relaxed),
        p.stats.errors.load(Ordering::Relaxed)
    );
    if let (Some(s0), Some(s1)) = (&p.cpu_before, &p.cpu_after) {
        let used: Vec<f64> = s0
            .iter()
            .zip(s1)
            .map(|(a, b)| (b.0 + b.1) - (a.0 + a.1))
            .collect();
        let total: f64 = used.iter().sum();
        let kernel: f64 = s0.iter().zip(s1).map(|(a, b)| b.1 - a.1).sum();
        let each: Vec<String> = used
            .iter()
            .map(|u| format!("{:.1}%", u / elapsed * 100.0))
            .collect();
        println!(
            "CPU during play: server {:.1}% of one core (nodes: {}), clients {:.0}%",
            total / elapsed * 100.0,
            each.join(" "),
            p.client_cpu_s / elapsed * 100.0
        );
        // Every move measured is one move the server took, checked, stored
        // and broadcast (moves still on the way at the end are few); with
        // several nodes, the CPU of all of them.
        if moves > 0 {
            println!(
                "server CPU per move: {:.0} µs (all nodes together; {:.0} µs of it in the kernel)",
                total / moves as f64 * 1e6,
                kernel / moves as f64 * 1e6
            );
        }
    }
    if let Some(b) = p.bus_cpu_s {
        println!(
            "bus (redis-server) CPU during play: {:.1}% of one core, {:.0} µs per move",
            b / elapsed * 100.0,
            b / (moves.max(1) as f64) * 1e6
        );
    }
    if let (Some(s), Some(g), Some(k), Some(pl)) = (rss_start, p.rss_games, p.rss_sockets, p.rss_play) {
        let n = a.games.max(1) as f64;
        println!(
            "server RSS (MiB): start {:.1}, games created {:.1}, sockets open {:.1}, during play {:.1}",
            s as f64 / 1024.0,
            g as f64 / 1024.0,
            k as f64 / 1024.0,
            pl as f64 / 1024.0
        );
        println!(
            "memory per live game: {:.1} KiB (game task only), {:.1} KiB (with its two player connections, during play)",
            (g.saturating_sub(s)) as f64 / n,
            (pl.saturating_sub(s)) as f64 / n
        );
    }
    drop(servers);
    Ok(())
}
