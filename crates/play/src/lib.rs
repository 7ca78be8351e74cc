//! The play room: everything that happens to a game once it starts.
//!
//! * [`live`]: each live game is one task (an actor, as lichess's round
//!   actors) that serialises its moves, clock and flag; the only code that
//!   changes a live game. [`table`] is the pure adapter from players'
//!   actions to the refereed `session::Session`.
//! * [`computer`]: the computer players (built-in, Stockfish, operator
//!   engines) and the fair queue their searches wait in.
//! * [`analysis`]: computer reviews of finished games and the analysis
//!   board.
//! * [`archive`] and [`pgn`]: finished games as lists and records.
//! * [`protocol`]: the game socket's messages.
//!
//! Games are created here ([`live::create_game`]) by whoever agreed on them
//! — the lobby today, a tournament round next — and the server only passes
//! players' commands in and events out.

pub mod analysis;
pub mod archive;
pub mod computer;
pub mod live;
pub mod metrics;
pub mod pgn;
pub mod protocol;
pub mod table;

use std::sync::Arc;
use std::time::Duration;
use store::Store;
use tokio::sync::watch;

/// How this node plays games.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// This node's name; it owns the games it creates.
    pub node_id: String,
    pub rating_system: rating::RatingSystem,
    /// A game whose first moves do not come within this window is aborted.
    pub abort_after_ms: i64,
    /// How long a finished game's task stays up for late listeners.
    pub finished_linger: Duration,
    /// How long a player may be away before the opponent may claim the
    /// win; `None`: by the time control (see `live::claim_wait_ms`).
    pub claim_after_ms: Option<i64>,
    /// An untimed game with no move for this long ends (aborted before
    /// both sides moved, else lost by the side to move).
    pub untimed_idle_ms: i64,
    /// How many tasks review finished games (`analysis::start`); 0: this
    /// node keeps the requests queued and reviews none.
    pub review_workers: usize,
    /// How long a node's heartbeat may be silent before its live games may
    /// be taken over (issue 29, `store::nodes`).
    pub lease_ms: i64,
    /// Take over the live games of nodes whose leases ran out (several
    /// nodes on one PostgreSQL); off for a node alone.
    pub take_over: bool,
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            node_id: "main".into(),
            rating_system: rating::RatingSystem::Elo,
            abort_after_ms: 60_000,
            finished_linger: Duration::from_secs(30),
            claim_after_ms: None,
            untimed_idle_ms: 7 * 86_400_000,
            // Half the cores, at least one: reviews never take the machine
            // from play.
            review_workers: (std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get) / 2)
                .max(1),
            lease_ms: 6_000,
            take_over: false,
        }
    }
}

/// An operator's engine that would not start.
#[derive(Debug, thiserror::Error)]
#[error("external engine {name}: {reason}")]
pub struct EngineError {
    pub name: String,
    pub reason: String,
}

/// The bus channel of games as they end, on any node.
const ENDED: &str = "games:ended";

/// The play room, cheap to clone: the live games of this node, the
/// computers, the reviews, and what they all need.
#[derive(Clone, Debug)]
pub struct Play(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    config: PlayConfig,
    store: Store,
    games: live::Registry,
    computers: computer::Computers,
    reviews: analysis::Reviews,
    shutdown: watch::Receiver<bool>,
    your_turn: tokio::sync::broadcast::Sender<YourTurn>,
    metrics: metrics::PlayMetrics,
    ended: tokio::sync::broadcast::Sender<GameEnded>,
    /// Other nodes' ended games were lost: the bus's listener fell
    /// behind (see [`Play::missed_ended_games`]).
    ended_missed: Arc<std::sync::atomic::AtomicBool>,
    /// The bus to the other nodes (issue 29); unset on a node alone.
    bus: std::sync::OnceLock<bus::Bus>,
    remote_owners: live::RemoteOwners,
}

/// A game that ended, as [`live`]'s finisher archived it: for a room that
/// waits on the results of the games it started (the events room scores a
/// round from them). A subscription, not a poll; a subscriber that falls
/// behind is told how many it missed and reads the stored games instead.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameEnded {
    pub game: String,
    /// `None`: called off (aborted), no result.
    pub outcome: Option<game::Outcome>,
    /// The stored reason code (`resign`, `flag`, `no_show`, `aborted`, …).
    pub reason: String,
    /// Moves played; with `reason` it says who did not show (the side to
    /// move when a game was called off).
    pub plies: u32,
}

/// A move in a correspondence game, for the player now to move, who may be
/// anywhere on the site or away for days: the lobby tells them (its
/// `notice`), as `server::start` wires it.
#[derive(Clone, Debug)]
pub struct YourTurn {
    pub game: String,
    /// Who is to move now, and the name of who moved.
    pub user_id: String,
    pub from: String,
}

impl Play {
    /// The room with its computer players: the registry's programs found
    /// on this machine and the operator's `engines` (name, command line).
    /// Games are resumed by [`live::resume_all`] and reviews by
    /// [`analysis::start`], once the rest of the server stands.
    ///
    /// # Errors
    /// An operator's engine does not start.
    pub async fn new(
        store: Store,
        config: PlayConfig,
        engines: &[(String, String)],
        shutdown: watch::Receiver<bool>,
    ) -> Result<Play, EngineError> {
        let computers = computer::Computers::start().await;
        for (name, cmd) in engines {
            computers
                .add_external(name, cmd)
                .await
                .map_err(|reason| EngineError {
                    name: name.clone(),
                    reason,
                })?;
        }
        Ok(Play(Arc::new(Inner {
            config,
            store,
            games: live::Registry::default(),
            computers,
            reviews: analysis::Reviews::default(),
            shutdown,
            // A subscriber that falls behind loses the oldest: a notice is
            // a courtesy, the game itself is in the player's list anyway.
            your_turn: tokio::sync::broadcast::channel(256).0,
            metrics: metrics::PlayMetrics::default(),
            // A lagging subscriber re-reads the stored games (see GameEnded).
            ended: tokio::sync::broadcast::channel(1024).0,
            ended_missed: Arc::default(),
            bus: std::sync::OnceLock::new(),
            remote_owners: live::RemoteOwners::default(),
        })))
    }

    /// Links this node to the others (issue 29): commands for games owned
    /// elsewhere go to their owners, this node's games answer theirs, and
    /// every game event is published for their listeners. Once, before
    /// any game starts or resumes.
    ///
    /// # Errors
    /// The bus did not confirm the subscription to ended games.
    pub async fn attach_bus(&self, bus: bus::Bus) -> Result<(), bus::BusError> {
        live::serve_bus(self, &bus);
        // Other nodes' ended games, for the rooms that wait on results.
        let mut heard = bus.subscribe(ENDED).await?;
        let me = bus.node().to_string();
        let ended = self.0.ended.clone();
        let missed = self.0.ended_missed.clone();
        tokio::spawn(async move {
            loop {
                match heard.recv().await {
                    Ok(body) => {
                        if let Ok((node, e)) = serde_json::from_str::<(String, GameEnded)>(&body) {
                            if node != me {
                                let _ = ended.send(e);
                            }
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                        tracing::warn!(missed = n, "fell behind the other nodes' ended games");
                        missed.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        let _ = self.0.bus.set(bus);
        Ok(())
    }

    /// The bus to the other nodes, if there are any.
    #[must_use]
    pub fn bus(&self) -> Option<&bus::Bus> {
        self.0.bus.get()
    }

    pub(crate) fn remote_owners(&self) -> &live::RemoteOwners {
        &self.0.remote_owners
    }

    /// Moves in correspondence games as they are stored (see [`YourTurn`]).
    #[must_use]
    pub fn your_turns(&self) -> tokio::sync::broadcast::Receiver<YourTurn> {
        self.0.your_turn.subscribe()
    }

    /// Games as they end, on this node or — with a bus — on any (a game
    /// taken over by another node ends there; see [`GameEnded`]).
    #[must_use]
    pub fn ended_games(&self) -> tokio::sync::broadcast::Receiver<GameEnded> {
        self.0.ended.subscribe()
    }

    /// Whether other nodes' ended games were lost since last asked: a
    /// room waiting on results then reads the stored games, as it does
    /// when it falls behind [`Play::ended_games`] itself.
    #[must_use]
    pub fn missed_ended_games(&self) -> bool {
        self.0
            .ended_missed
            .swap(false, std::sync::atomic::Ordering::Relaxed)
    }

    pub(crate) fn tell_ended(&self, ended: GameEnded) {
        if let Some(bus) = self.bus() {
            if let Ok(json) = serde_json::to_string(&(bus.node(), &ended)) {
                bus.publish(ENDED, json);
            }
        }
        let _ = self.0.ended.send(ended);
    }

    pub(crate) fn tell_your_turn(&self, turn: YourTurn) {
        let _ = self.0.your_turn.send(turn);
    }

    /// What the room counts, for `/metrics`.
    #[must_use]
    pub fn metrics(&self) -> &metrics::PlayMetrics {
        &self.0.metrics
    }

    #[must_use]
    pub fn config(&self) -> &PlayConfig {
        &self.0.config
    }

    #[must_use]
    pub fn store(&self) -> &Store {
        &self.0.store
    }

    /// The live games this node owns.
    #[must_use]
    pub fn games(&self) -> &live::Registry {
        &self.0.games
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

    /// Changes to `true` when the server shuts down.
    #[must_use]
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.0.shutdown.clone()
    }
}
