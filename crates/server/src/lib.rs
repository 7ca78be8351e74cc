//! qiju's game server over HTTP and WebSocket: thin. A route parses the
//! request, calls one room, and answers with its view or its error; the
//! rooms are crates of their own — [`accounts`], [`lobby`], [`play`] — over
//! the one database crate [`store`] (docs/ARCHITECTURE.md draws the map).
//! Here live only what is HTTP's: the routes ([`routes`]) and their
//! handlers ([`api`]), WebSocket framing ([`ws`]), NDJSON streams
//! ([`stream`]), cookies and CSRF ([`auth`]), the connection limits
//! ([`listen`]), OpenAPI ([`openapi`]), every room's errors as JSON
//! ([`error`]), and [`start`], which wires the rooms together.
//!
//! One node by default. It is laid out for several later: every game is
//! owned by exactly one node (`games.node`) and, inside it, by one task;
//! all state that must survive lives in the database; what crosses nodes
//! (lobby events, joins to a game owned elsewhere) would go through a
//! message bus in place of the in-process channels of [`lobby::Lobby`] and
//! [`play::live`].

pub mod api;
pub mod auth;
pub mod error;
pub mod lichess;
pub mod listen;
pub mod metrics;
pub mod openapi;
pub mod routes;
pub mod sessions;
pub mod stream;
pub mod ws;

pub use error::ApiError;
pub use routes::router;

use accounts::Accounts;
use events::Events;
use lobby::Lobby;
use play::{Play, PlayConfig};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use store::Store;
use tokio::sync::watch;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    /// `sqlite://FILE`, a bare file name, or `postgres://…`.
    pub database: String,
    /// This node's name; it owns the games it creates.
    pub node_id: String,
    pub rating_system: rating::RatingSystem,
    pub login_limits: accounts::LoginLimits,
    /// Registrations and guests per IP and in all.
    pub account_limits: accounts::AccountLimits,
    /// A game whose first moves do not come within this window is aborted.
    pub abort_after_ms: i64,
    /// How long a finished game's task stays up for late listeners.
    pub finished_linger: Duration,
    /// Largest WebSocket message (and JSON body) accepted.
    pub max_message_bytes: usize,
    /// Add `Secure` to the session cookie (behind HTTPS).
    pub secure_cookies: bool,
    /// External UCI/UCCI engines: (name, command line).
    pub engines: Vec<(String, String)>,
    /// SQLite durability (ignored for PostgreSQL).
    pub sqlite_sync: store::SqliteSync,
    /// Timeouts and the per-address cap of TCP connections.
    pub conn_limits: listen::ConnLimits,
    /// What one player may hold in the lobby, and how many untimed games.
    pub lobby_limits: lobby::LobbyLimits,
    /// An untimed game with no move for this long ends (aborted before
    /// both sides moved, else lost by the side to move).
    pub untimed_idle_ms: i64,
    /// How long a player may be away before the opponent may claim the
    /// win; `None`: by the time control (see `play::live`).
    pub claim_after_ms: Option<i64>,
    /// How many tasks review finished games; 0: none on this node.
    pub review_workers: usize,
    /// The bearer token Prometheus scrapes `/metrics` with; `None`: no
    /// `/metrics` (see `metrics`).
    pub metrics_token: Option<String>,
    /// How long a node's heartbeat may be silent before another node may
    /// take its live games over.
    pub lease_ms: i64,
    /// Take over the games of nodes whose leases ran out, and give this
    /// node's up when it stops (several nodes on one PostgreSQL).
    pub take_over: bool,
    /// The bus to the other nodes (`redis://…`); `None`: this node alone.
    pub bus: Option<String>,
    /// The prefix of every bus channel: the nodes of one platform share
    /// it, another platform on the same Redis has its own.
    pub bus_namespace: String,
}

impl Default for Config {
    fn default() -> Self {
        let play = PlayConfig::default();
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "sqlite://qiju.db".into(),
            node_id: play.node_id,
            rating_system: play.rating_system,
            login_limits: accounts::LoginLimits::default(),
            account_limits: accounts::AccountLimits::default(),
            abort_after_ms: play.abort_after_ms,
            finished_linger: play.finished_linger,
            max_message_bytes: 4096,
            secure_cookies: false,
            engines: Vec::new(),
            sqlite_sync: store::SqliteSync::Normal,
            conn_limits: listen::ConnLimits::default(),
            lobby_limits: lobby::LobbyLimits::default(),
            untimed_idle_ms: play.untimed_idle_ms,
            claim_after_ms: play.claim_after_ms,
            review_workers: play.review_workers,
            metrics_token: None,
            lease_ms: play.lease_ms,
            take_over: play.take_over,
            bus: None,
            bus_namespace: "qiju".into(),
        }
    }
}

impl Config {
    /// What the play room needs of it.
    fn play(&self) -> PlayConfig {
        PlayConfig {
            node_id: self.node_id.clone(),
            rating_system: self.rating_system,
            abort_after_ms: self.abort_after_ms,
            finished_linger: self.finished_linger,
            claim_after_ms: self.claim_after_ms,
            untimed_idle_ms: self.untimed_idle_ms,
            review_workers: self.review_workers,
            lease_ms: self.lease_ms,
            take_over: self.take_over,
        }
    }
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("server failed: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Engine(#[from] play::EngineError),
    #[error("cannot resume the events: {0}")]
    Events(String),
    #[error(transparent)]
    Bus(#[from] bus::BusError),
}

struct Inner {
    config: Config,
    accounts: Accounts,
    lobby: Lobby,
    play: Play,
    events: Events,
    sessions: Arc<sessions::OpenSessions>,
    exports: api::players::Exports,
    metrics: metrics::Metrics,
    shutdown: watch::Receiver<bool>,
}

/// Shared state of a running server, cheap to clone: the rooms.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

impl AppState {
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.0.config
    }
    #[must_use]
    pub fn accounts(&self) -> &Accounts {
        &self.0.accounts
    }
    #[must_use]
    pub fn lobby(&self) -> &Lobby {
        &self.0.lobby
    }
    #[must_use]
    pub fn play(&self) -> &Play {
        &self.0.play
    }
    /// The node's numbers for `/metrics`.
    #[must_use]
    pub fn metrics(&self) -> &metrics::Metrics {
        &self.0.metrics
    }
    #[must_use]
    pub fn events(&self) -> &Events {
        &self.0.events
    }
    /// The limits on archive files.
    #[must_use]
    pub fn exports(&self) -> &api::players::Exports {
        &self.0.exports
    }
    /// The sessions with sockets or streams open.
    #[must_use]
    pub fn sessions(&self) -> &Arc<sessions::OpenSessions> {
        &self.0.sessions
    }
    /// Changes to `true` when the server shuts down.
    #[must_use]
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.0.shutdown.clone()
    }
}

/// A started server.
pub struct RunningServer {
    /// The address it listens on (useful with port 0).
    pub addr: SocketAddr,
    pub state: AppState,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<Result<(), ServerError>>,
}

impl RunningServer {
    /// Stops accepting, closes the sockets, lets games save, and waits.
    pub async fn shutdown(self) -> Result<(), ServerError> {
        let _ = self.stop.send(true);
        self.wait().await
    }

    /// Waits until the server stops (after [`RunningServer::shutdown`] or a
    /// failure).
    pub async fn wait(self) -> Result<(), ServerError> {
        match self.task.await {
            Ok(r) => r,
            Err(e) => Err(ServerError::Io(std::io::Error::other(e.to_string()))),
        }
    }

    /// A handle that stops the server when sent `true`.
    #[must_use]
    pub fn stopper(&self) -> watch::Sender<bool> {
        self.stop.clone()
    }
}

/// Connects to the database (migrating it), resumes the live games this
/// node owns, and starts serving.
pub async fn start(config: Config) -> Result<RunningServer, ServerError> {
    let store = Store::connect_with(&config.database, config.sqlite_sync).await?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| ServerError::Bind {
            addr: config.listen,
            source,
        })?;
    let addr = listener.local_addr()?;
    let (stop, shutdown) = watch::channel(false);
    let play = Play::new(store.clone(), config.play(), &config.engines, shutdown.clone()).await?;
    // Before any game starts or resumes here: every event of this node's
    // games is published for the other nodes' listeners.
    if let Some(url) = &config.bus {
        let bus = bus::Bus::connect(url, &config.node_id, &config.bus_namespace).await?;
        tracing::info!(node = %config.node_id, "linked to the other nodes by the bus");
        play.attach_bus(bus).await?;
    }
    let lobby = Lobby::new(store.clone(), play.clone(), config.lobby_limits);
    lobby.attach_bus().await?;
    // A move in a correspondence game is told to the player now to move,
    // wherever they are on the site.
    let mut turns = play.your_turns();
    let told = lobby.clone();
    tokio::spawn(async move {
        loop {
            match turns.recv().await {
                Ok(t) => told.notice(&t.user_id, lobby::NoticeKind::Move, &t.from, Some(&t.game)),
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
            }
        }
    });
    // Tournaments: an event's game is told to its players as the lobby
    // tells of any game that starts.
    let events = Events::new(store.clone(), play.clone());
    if let Some(mut event_games) = events.started_games() {
        let told = lobby.clone();
        tokio::spawn(async move {
            while let Some(g) = event_games.recv().await {
                told.notify(
                    &g.user_id,
                    &lobby::protocol::LobbyMsg::GameStart {
                        game: g.game,
                        color: g.side,
                    },
                );
            }
        });
    }
    let accounts = Accounts::new(store.clone(), config.login_limits, config.account_limits)
        .with_rating_system(config.rating_system);
    let state = AppState(Arc::new(Inner {
        accounts,
        lobby,
        play: play.clone(),
        events: events.clone(),
        sessions: Arc::default(),
        exports: api::players::Exports::default(),
        metrics: metrics::Metrics::new(&play, &config.node_id),
        shutdown: shutdown.clone(),
        config,
    }));
    // When did this node stop last time? Its last heartbeat (a crash) or
    // the heartbeat written on shutdown.
    let node = state.config().node_id.clone();
    let stopped = store.last_heartbeat(&node).await?.unwrap_or_else(common::now_ms);
    let resumed = play::live::resume_all(&play, stopped).await?;
    // After the games: an event reads which of its games are still live.
    let events_resumed = events
        .start()
        .await
        .map_err(|e| ServerError::Events(e.to_string()))?;
    play::analysis::start(&play).await?;
    store.heartbeat(&node, common::now_ms()).await?;
    tokio::spawn(sessions::sweeper(state.clone()));
    tokio::spawn(play::live::take_over_games(play.clone()));
    tracing::info!(%addr, resumed, events_resumed, "qiju server listening");
    let app = router(state.clone());
    let hb_store = store.clone();
    let hb_node = node.clone();
    let mut hb_stop = shutdown.clone();
    let heartbeat = tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    if let Err(e) = hb_store.heartbeat(&hb_node, common::now_ms()).await {
                        tracing::warn!(error = %e, "heartbeat failed");
                    }
                }
                _ = hb_stop.changed() => break,
            }
        }
    });
    let stop_rx = shutdown.clone();
    let task_state = state.clone();
    let task = tokio::spawn(async move {
        let limits = task_state.config().conn_limits;
        let r = listen::serve(listener, app, limits, stop_rx).await;
        let _ = heartbeat.await;
        // Give game tasks a moment to finish their last write, then mark
        // the moment we stopped.
        for _ in 0..50 {
            if task_state.play().games().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let _ = store.heartbeat(&node, common::now_ms()).await;
        // Among other nodes, this one's games are theirs at once, not when
        // the leases run out.
        if task_state.config().take_over {
            if let Err(e) = store.release_leases(&node).await {
                tracing::warn!(error = %e, "cannot give this node's leases up");
            }
        }
        store.close().await;
        tracing::info!("qiju server stopped");
        r.map_err(ServerError::Io)
    });
    Ok(RunningServer {
        addr,
        state,
        stop,
        task,
    })
}
