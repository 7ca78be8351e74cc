//! qiju's game server: accounts, lobby, live games over WebSocket, the bot
//! API, ratings and persistence, over axum + tokio + sqlx.
//!
//! One node by default. It is laid out for several later: every game is
//! owned by exactly one node (`games.node`) and, inside it, by one task;
//! all state that must survive lives in the database; what crosses nodes
//! (lobby events, joins to a game owned elsewhere) would go through a
//! message bus in place of the in-process channels of [`lobby::Lobby`].
//!
//! Start it with [`start`]; `qiju serve` does that with command-line
//! options.

pub mod analysis;
pub mod api;
pub mod auth;
pub mod computer;
pub mod error;
pub mod integrity;
pub mod listen;
pub mod live;
pub mod lobby;
pub mod names;
pub mod openapi;
pub mod password;
pub mod pgn;
pub mod protocol;
pub mod store;
pub mod table;
pub mod ws;

pub use error::ApiError;

use axum::extract::{DefaultBodyLimit, Path};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use store::Store;
use tokio::sync::watch;

/// Milliseconds since the Unix epoch: the one time base of stored moves,
/// clocks and heartbeats.
#[must_use]
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    /// `sqlite://FILE`, a bare file name, or `postgres://…`.
    pub database: String,
    /// This node's name; it owns the games it creates.
    pub node_id: String,
    pub rating_system: rating::RatingSystem,
    pub login_limits: auth::LoginLimits,
    /// Registrations and guests per IP and in all.
    pub account_limits: auth::AccountLimits,
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
    /// What one player may hold in the lobby, and untimed games' limits.
    pub lobby_limits: lobby::LobbyLimits,
    /// How long a player may be away before the opponent may claim the
    /// win; `None`: by the time control (see `live::claim_wait_ms`).
    pub claim_after_ms: Option<i64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "sqlite://qiju.db".into(),
            node_id: "main".into(),
            rating_system: rating::RatingSystem::Elo,
            login_limits: auth::LoginLimits::default(),
            account_limits: auth::AccountLimits::default(),
            abort_after_ms: 60_000,
            finished_linger: Duration::from_secs(30),
            max_message_bytes: 4096,
            secure_cookies: false,
            engines: Vec::new(),
            sqlite_sync: store::SqliteSync::Normal,
            conn_limits: listen::ConnLimits::default(),
            lobby_limits: lobby::LobbyLimits::default(),
            claim_after_ms: None,
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
    #[error("external engine {name}: {reason}")]
    Engine { name: String, reason: String },
}

struct Inner {
    config: Config,
    store: Store,
    games: live::Registry,
    lobby: lobby::Lobby,
    computers: computer::Computers,
    reviews: analysis::Reviews,
    limiters: auth::Limiters,
    /// The threads that compute password hashes (see `auth::LoginLimits`).
    hashing: auth::HashPool,
    shutdown: watch::Receiver<bool>,
}

/// Shared state of a running server, cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

impl AppState {
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.0.config
    }
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.0.store
    }
    #[must_use]
    pub fn games(&self) -> &live::Registry {
        &self.0.games
    }
    #[must_use]
    pub fn lobby(&self) -> &lobby::Lobby {
        &self.0.lobby
    }
    #[must_use]
    pub fn computers(&self) -> &computer::Computers {
        &self.0.computers
    }
    /// The computer reviews waiting and running.
    #[must_use]
    pub fn reviews(&self) -> &analysis::Reviews {
        &self.0.reviews
    }
    /// The password-hashing threads.
    pub fn hashing(&self) -> &auth::HashPool {
        &self.0.hashing
    }

    /// The login, registration and guest limiters.
    #[must_use]
    pub fn limiters(&self) -> &auth::Limiters {
        &self.0.limiters
    }
    /// Changes to `true` when the server shuts down.
    #[must_use]
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.0.shutdown.clone()
    }
}

/// Serves the embedded browser UI. The UI's own routes (a path without a
/// file extension) get `index.html`, so a reload or a shared link works; a
/// file that is not there is "not found", never the app in its place.
async fn asset(path: Option<Path<String>>) -> Response {
    let p = path.map(|Path(p)| p).unwrap_or_default();
    match web::get(&p) {
        Some(a) => ([(CONTENT_TYPE, a.content_type)], a.bytes).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// An API path that does not exist: a JSON 404, not the UI.
async fn api_not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(format!("no API at {}", uri.path()))
}

/// What every response carries: the page may be framed by nobody, loads
/// scripts, styles and sockets from this server only, and no content type
/// is guessed (the UI sets inline style attributes in a few SVGs, hence
/// `'unsafe-inline'` for styles alone).
async fn security_headers(mut resp: Response) -> Response {
    use axum::http::header::{
        HeaderValue, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
    };
    let h = resp.headers_mut();
    h.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
             connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        ),
    );
    h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    resp
}

/// The largest body the analysis board sends (a pasted record, a line).
pub const IMPORT_LIMIT: usize = 64 * 1024;

/// All routes.
pub fn router(state: AppState) -> Router {
    let body_limit = state.config().max_message_bytes.max(4096);
    let api = Router::new()
        .route("/api/openapi.json", get(openapi::document))
        .route("/api/health", get(api::health))
        .route("/api/info", get(api::info))
        .route("/api/auth/register", post(auth::register))
        .route("/api/auth/login", post(auth::login))
        .route("/api/auth/logout", post(auth::logout))
        .route("/api/auth/logout-everywhere", post(auth::logout_everywhere))
        .route("/api/auth/guest", post(auth::guest))
        .route("/api/account", get(auth::account))
        .route("/api/account/token", post(auth::make_token))
        .route("/api/account/tokens/revoke", post(auth::revoke_tokens))
        .route(
            "/api/account/settings",
            get(auth::get_settings).put(auth::put_settings),
        )
        .route("/api/seeks", get(lobby::list_seeks).post(lobby::create_seek))
        .route("/api/seeks/{id}", axum::routing::delete(lobby::delete_seek))
        .route(
            "/api/challenges",
            get(lobby::list_challenges).post(lobby::create_challenge),
        )
        .route("/api/challenges/{id}/accept", post(lobby::accept_challenge))
        .route("/api/challenges/{id}/decline", post(lobby::decline_challenge))
        .route("/api/computer", post(lobby::play_computer))
        .route("/api/lobby/ws", get(ws::lobby_socket))
        .route("/api/stream/event", get(api::stream_events))
        .route("/api/games/live", get(api::live_games))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/pgn", get(api::get_pgn))
        .route("/api/games/{id}/ws", get(ws::game_socket))
        .route("/api/games/{id}/stream", get(api::stream_game))
        .route("/api/games/{id}/move/{mv}", post(api::post_move))
        .route("/api/games/{id}/resign", post(api::post_resign))
        .route("/api/games/{id}/draw/offer", post(api::post_draw_offer))
        .route("/api/games/{id}/draw/accept", post(api::post_draw_accept))
        .route("/api/games/{id}/draw/decline", post(api::post_draw_decline))
        .route("/api/games/{id}/claim-draw", post(api::post_claim_draw))
        .route("/api/games/{id}/abort", post(api::post_abort))
        .route(
            "/api/games/{id}/analysis",
            get(analysis::get_review).post(analysis::request_review),
        )
        .route("/api/reports", post(api::report))
        .route("/api/users", get(api::search_users))
        .route("/api/leaderboard/{pool}", get(api::leaderboard))
        .route("/api/users/{name}/record", get(api::record))
        .route("/api/users/{name}", get(api::get_user))
        .route("/api/users/{name}/games", get(api::user_games))
        .route("/api/users/{name}/games.pgn", get(api::user_games_pgn))
        .route("/api/users/{name}/rating-history", get(api::rating_history))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .layer(axum::middleware::from_fn(auth::csrf_guard))
        .layer(DefaultBodyLimit::max(body_limit))
        // Refuses a body whose Content-Length is over the limit before
        // reading any of it (the extractors' limit only stops reading at the
        // limit, so a client still writing would see the connection drop).
        .layer(tower_http::limit::RequestBodyLimitLayer::new(body_limit));
    // A pasted PGN with clock comments, or the line of a long game, is
    // larger than a message: the analysis board has its own limit,
    // checked the same two ways.
    let analysis_board = Router::new()
        .route("/api/analysis/import", post(analysis::import))
        .route("/api/analysis/position", post(analysis::position))
        .route("/api/analysis/eval", post(analysis::eval))
        .layer(axum::middleware::from_fn(auth::csrf_guard))
        .layer(DefaultBodyLimit::max(IMPORT_LIMIT))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(IMPORT_LIMIT));
    Router::new()
        .merge(api)
        .merge(analysis_board)
        .route("/", get(asset))
        .route("/{*path}", get(asset))
        .layer(axum::middleware::map_response(error::plain_refusals_as_json))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(state)
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
    let computers = computer::Computers::start().await;
    for (name, cmd) in &config.engines {
        computers
            .add_external(name, cmd)
            .await
            .map_err(|reason| ServerError::Engine {
                name: name.clone(),
                reason,
            })?;
    }
    let limits = config.login_limits;
    let state = AppState(Arc::new(Inner {
        store: store.clone(),
        games: live::Registry::default(),
        lobby: lobby::Lobby::default(),
        computers,
        reviews: analysis::Reviews::default(),
        hashing: auth::HashPool::new(limits.max_hashes),
        limiters: auth::Limiters::new(limits, config.account_limits),
        shutdown: shutdown.clone(),
        config,
    }));
    // When did this node stop last time? Its last heartbeat (a crash) or
    // the heartbeat written on shutdown.
    let node = state.config().node_id.clone();
    let stopped = store.last_heartbeat(&node).await?.unwrap_or_else(now_ms);
    let resumed = live::resume_all(&state, stopped).await?;
    analysis::start(&state).await?;
    store.heartbeat(&node, now_ms()).await?;
    tracing::info!(%addr, resumed, "qiju server listening");
    let app = router(state.clone());
    let hb_store = store.clone();
    let hb_node = node.clone();
    let mut hb_stop = shutdown.clone();
    let heartbeat = tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    if let Err(e) = hb_store.heartbeat(&hb_node, now_ms()).await {
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
            if task_state.games().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let _ = store.heartbeat(&node, now_ms()).await;
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
