//! `qiju serve`: runs the game server (HTTP API, WebSockets, browser UI)
//! until Ctrl-C or SIGTERM.

use anyhow::Context;
use std::net::SocketAddr;

#[derive(clap::Args)]
pub struct Args {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Database: an SQLite file (created and migrated automatically) or
    /// postgres://user:password@host/db.
    #[arg(long, default_value = "sqlite://qiju.db")]
    database: String,
    /// This node's name: it owns the games it creates.
    #[arg(long, default_value = "main")]
    node_id: String,
    /// Rating system: elo or glicko2.
    #[arg(long, default_value = "elo")]
    rating: String,
    /// An external UCI/UCCI engine players may choose, as NAME=COMMAND
    /// (repeatable), e.g. --engine pikafish=/usr/local/bin/pikafish.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    engines: Vec<String>,
    /// Seconds both sides have to make their first moves before the game
    /// is aborted.
    #[arg(long, default_value_t = 60)]
    abort_after: u64,
    /// SQLite durability: normal (fsync at checkpoints; an OS crash may lose
    /// the last moves), full (fsync every move) or off (never fsync). A
    /// killed server process loses nothing acknowledged in any mode.
    #[arg(long, default_value = "normal")]
    sqlite_sync: String,
    /// Mark the session cookie Secure (when served over HTTPS).
    #[arg(long)]
    secure_cookies: bool,
    /// Open connections one client address may hold (0 = no cap; behind
    /// a reverse proxy every client has the proxy's address).
    #[arg(long, default_value_t = 64)]
    max_connections_per_ip: usize,
    /// Account registrations per client address per hour (0 = no limit).
    #[arg(long, default_value_t = 10)]
    registrations_per_ip: usize,
    /// Account registrations per minute on the whole server (0 = no limit).
    #[arg(long, default_value_t = 120)]
    registrations_per_minute: usize,
    /// Guest identities per client address per hour (0 = no limit).
    #[arg(long, default_value_t = 30)]
    guests_per_ip: usize,
    /// Guest identities per minute on the whole server (0 = no limit).
    #[arg(long, default_value_t = 600)]
    guests_per_minute: usize,
    /// Seconds a player may be away from a game (every tab closed) before
    /// the opponent may claim the win; by default a twentieth of the main
    /// time, 15–60 s.
    #[arg(long)]
    claim_after: Option<u64>,
    /// Serve the node's numbers to Prometheus at /metrics, to requests
    /// bearing this token (`Authorization: Bearer TOKEN`); without one
    /// there is no /metrics. Better given in the environment than on the
    /// command line, where `ps` shows it.
    #[arg(long, env = "QIJU_METRICS_TOKEN", hide_env_values = true)]
    metrics_token: Option<String>,
    /// Several nodes on one PostgreSQL: take over the live games of a node
    /// whose heartbeat stopped (it died or froze), and give this node's
    /// games up when it stops.
    #[arg(long)]
    take_over: bool,
    /// How long a node's heartbeat (written every second) may be silent, in
    /// seconds, before another node takes its live games over.
    #[arg(long, default_value_t = 6)]
    lease_seconds: u64,
    /// Link this node to the others on one PostgreSQL through a Redis bus
    /// (redis://HOST[:PORT]): players and spectators of a game may be on
    /// any node; commands go to the game's node, its events come to all
    /// (docs/DEPLOY.md). Implies --take-over.
    #[arg(long, value_name = "redis://…")]
    bus: Option<String>,
    /// The prefix of this platform's bus channels, when several share one
    /// Redis.
    #[arg(long, default_value = "qiju")]
    bus_namespace: String,
    /// A variant file (TOML, docs/variants.md) to offer beside the built-in
    /// games, or a directory of them (its `*.toml`); repeatable. A bad file
    /// stops the server at start, naming its path, line and reason.
    #[arg(long = "variants", value_name = "FILE|DIR")]
    variants: Vec<std::path::PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    keep_the_c_heap();
    keep_the_rust_heap();
    // Before anything asks the registry: the table is built once.
    let loaded = super::load_variant_files(&a.variants)?;
    let names: Vec<String> = loaded.iter().map(|v| v.name().to_owned()).collect();
    registry::install(loaded).context("--variants")?;
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    for (given, flag) in [(a.take_over, "--take-over"), (a.bus.is_some(), "--bus")] {
        if given && !a.database.starts_with("postgres") {
            anyhow::bail!(
                "{flag} is for several nodes on one PostgreSQL database; {} is one node's own",
                a.database
            );
        }
    }
    let mut engines = Vec::new();
    for e in &a.engines {
        let (name, cmd) = e
            .split_once('=')
            .with_context(|| format!("--engine {e:?}: expected NAME=COMMAND"))?;
        engines.push((name.trim().to_string(), cmd.trim().to_string()));
    }
    if !names.is_empty() {
        eprintln!("variants loaded from files: {}", names.join(", "));
    }
    let config = server::Config {
        listen: a.listen,
        database: a.database,
        node_id: a.node_id,
        rating_system: a.rating.parse()?,
        abort_after_ms: i64::try_from(a.abort_after.saturating_mul(1000)).unwrap_or(i64::MAX),
        secure_cookies: a.secure_cookies,
        sqlite_sync: a.sqlite_sync.parse().map_err(anyhow::Error::msg)?,
        engines,
        account_limits: accounts::AccountLimits {
            registrations_per_ip: a.registrations_per_ip,
            registrations_global: a.registrations_per_minute,
            guests_per_ip: a.guests_per_ip,
            guests_global: a.guests_per_minute,
            ..accounts::AccountLimits::default()
        },
        claim_after_ms: a
            .claim_after
            .map(|s| i64::try_from(s.saturating_mul(1000)).unwrap_or(i64::MAX)),
        conn_limits: server::listen::ConnLimits {
            per_ip: a.max_connections_per_ip,
            ..server::listen::ConnLimits::default()
        },
        metrics_token: a.metrics_token.filter(|t| !t.is_empty()),
        lease_ms: i64::try_from(a.lease_seconds.clamp(1, 3600) * 1000).unwrap_or(6_000),
        take_over: a.take_over || a.bus.is_some(),
        bus: a.bus,
        bus_namespace: a.bus_namespace,
        ..server::Config::default()
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    rt.block_on(async move {
        let running = server::start(config).await?;
        println!("qiju serving on http://{}/", running.addr);
        let stop = running.stopper();
        tokio::spawn(async move {
            shutdown_signal().await;
            let _ = stop.send(true);
        });
        running.wait().await?;
        anyhow::Ok(())
    })
}

/// SQLite's C code allocates from glibc's malloc, not from Rust's
/// allocator. Left at its defaults glibc gives freed memory back to the
/// kernel as soon as the top of a thread's heap is free, and the next
/// allocation faults fresh zeroed pages in again: under 3,000 games the
/// WAL checkpoint's buffers did that every second, 72 % of the server's
/// page faults and ~5 % of its CPU zeroing pages (`perf record -e
/// page-faults`, docs/PERFORMANCE.md). A server keeps what it needed once.
fn keep_the_c_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets two of glibc's tuning parameters; it is
    // called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 512 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}

/// mimalloc's `purge_delay` option (its number in mimalloc 3's
/// `mi_option_e`; the crate names no constant for it). The test below
/// checks the number still reads the option's documented default.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// The same for Rust's heap: mimalloc gives memory that stayed free for a
/// second back to the kernel (`purge_delay`), and the moves of the next
/// second fault it in again — each fault a 2 MiB transparent huge page
/// zeroed, as mimalloc asks for them. Under 3,000 games that was 4,600
/// page faults per 10 s and ~10 % of the server's CPU per move; never
/// purging, 850 (docs/PERFORMANCE.md). The heap stays at its peak, as the
/// C heap does.
fn keep_the_rust_heap() {
    // SAFETY: sets one of mimalloc's options before any other thread exists
    // (`mi_option_set` is not thread-safe).
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

/// Ctrl-C, or SIGTERM on Unix.
async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = ctrl_c.await;
                return;
            }
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        // mimalloc 3's default purge delay is 1,000 ms; no neighbouring
        // option defaults to it, so a renumbered enum fails here.
        let delay = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert_eq!(delay, 1000);
    }
}
