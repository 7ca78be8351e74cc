//! Live games. Each game is owned by one tokio task (an actor, as lichess's
//! round actors): every move, offer, flag and resignation for that game goes
//! through its channel, so nothing else ever mutates it. A move takes one
//! straight path:
//!
//! client message → game task → [`Table`] (the refereed `session::Session`:
//! rules + clock) → database write → broadcast to players and spectators →
//! reply to the sender.
//!
//! The move is broadcast (and so acknowledged) only after the database has
//! stored it (the session's command and the move row, in one transaction).
//! If the write fails the task reloads the game from the database and the
//! move is refused, so memory never runs ahead of storage.
//!
//! Crash recovery: on start the node resumes every live game it owns by
//! replaying its stored command log. If a clock was running, the session's
//! clock is paused at the node's last heartbeat (written every second: the
//! moment of the crash, to within a second) and resumed at the restart, so
//! the side to move is charged its thinking time up to the crash but not the
//! time the server was down. Both commands are stored like any other.

mod actor;
mod finish;
mod remote;
mod state;
mod view;

use crate::computer::ComputerMove;
use crate::protocol::{GameView, ServerMsg};
pub use crate::table::Action;
use crate::table::{Applied, Table, TableError};
use crate::Play;
use actor::{bodies, spawn, Log};
use game::Side;
pub(crate) use remote::serve as serve_bus;
pub use remote::RemoteOwners;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use store::{GameRow, User};
use tokio::sync::{broadcast, mpsc, oneshot};
pub use view::stored_view;

/// One seat at a game: a person or the computer.
#[derive(Clone, Debug)]
pub struct Seat {
    pub user: Option<User>,
    pub name: String,
    /// `level:N` or `engine:NAME` when the computer sits here.
    pub computer: Option<String>,
}

impl Seat {
    #[must_use]
    pub fn person(u: &User) -> Seat {
        Seat {
            user: Some(u.clone()),
            name: u.name.clone(),
            computer: None,
        }
    }
}

/// Everything needed to start a game.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub variant: String,
    /// Online (the default) or, for an event over the board, the arbiter's
    /// rules with their fouls.
    pub profile: registry::Profile,
    pub fen: Option<String>,
    pub time_control: clock::TimeControl,
    pub rated: bool,
    pub first: Seat,
    pub second: Seat,
    /// The window for each side's first move, if not the node's (an
    /// event's forfeit time, seed 000 21.1).
    pub first_move_ms: Option<i64>,
    /// The event the game is made for, recorded with the game's row in
    /// one write (`Store::insert_event_game`): the event links the game to
    /// its board only after it exists, and a restart finds a game made
    /// for it that no board names.
    pub event: Option<String>,
}

/// Why an action was refused.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ActError {
    #[error("you are not a player in this game")]
    NotAPlayer,
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("the move could not be stored; it was not played")]
    Storage,
    #[error("the game is not running on this server")]
    Gone,
    #[error("this game's stored record is damaged; it cannot go on")]
    Damaged,
    /// A refusal by the node that owns the game (issue 29), read back
    /// from the bus: one of the table's codes, in the owner's words.
    #[error("{message}")]
    Remote { code: &'static str, message: String },
}

impl ActError {
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            ActError::NotAPlayer => "not_a_player",
            ActError::Table(e) => e.code(),
            ActError::Storage => "storage",
            ActError::Gone => "gone",
            ActError::Damaged => "game_damaged",
            ActError::Remote { code, .. } => code,
        }
    }
}

/// A refused action as the REST API answers it (the sockets send its code
/// and words in an `error` message instead).
impl From<ActError> for common::Error {
    fn from(e: ActError) -> common::Error {
        match e {
            ActError::NotAPlayer => common::Error::Forbidden(e.to_string()),
            ActError::Gone => common::Error::NotFound("live game".into()),
            ActError::Damaged => common::Error::Damaged(e.to_string()),
            ActError::Storage => common::Error::Unavailable,
            ActError::Table(_) | ActError::Remote { .. } if e.code() == "illegal_move" => {
                common::Error::bad(e.code(), e.to_string())
            }
            ActError::Table(_) | ActError::Remote { .. } => common::Error::conflict(e.code(), e.to_string()),
        }
    }
}

/// Messages to a game task.
pub enum Cmd {
    Act {
        user_id: String,
        action: Action,
        reply: oneshot::Sender<Result<u32, ActError>>,
    },
    /// Subscribe to the game: the current view and, atomically with it, the
    /// stream of what happens next (so no event falls in between).
    Join {
        reply: oneshot::Sender<(GameView, broadcast::Receiver<Arc<Event>>)>,
    },
    View {
        reply: oneshot::Sender<GameView>,
        /// Asked by another node that follows the game's events from now
        /// on ([`remote::join`]).
        follow: bool,
    },
    Computer(ComputerMove),
    /// A player's game socket opened (`true`) or closed.
    Presence {
        side: Side,
        connected: bool,
    },
    /// A chat line to pass on (not a game event: no version).
    Chat(Box<ServerMsg>),
    /// Another node says it took the game over: the task checks the lease
    /// and, if it is gone, stops (`actor::still_owned`).
    Release,
}

/// Passes a chat line to a game's listeners.
///
/// # Errors
/// The game is not running here (`gone`).
pub async fn chat(state: &Play, game_id: &str, msg: ServerMsg) -> Result<(), ActError> {
    if state.games().get(game_id).is_none() {
        if let Some(r) = remote::chat(state, game_id, msg.clone()).await {
            return r;
        }
    }
    chat_here(state, game_id, msg).await
}

/// A chat line for a game of this node's.
async fn chat_here(state: &Play, game_id: &str, msg: ServerMsg) -> Result<(), ActError> {
    let h = state.games().get(game_id).ok_or(ActError::Gone)?;
    h.tx.send(Cmd::Chat(Box::new(msg)))
        .await
        .map_err(|_| ActError::Gone)
}

/// One player's open connection to a game (the browser's socket, a lichess
/// client's game stream), held for as long as it is open: when a player's
/// last one closes they have left, and the opponent may claim the win after
/// a while (see [`presence`]).
pub struct Present {
    play: Play,
    game: String,
    side: Side,
}

impl Present {
    #[must_use]
    pub fn new(play: &Play, game: &str, side: Side) -> Present {
        presence(play, game, side, true);
        Present {
            play: play.clone(),
            game: game.to_string(),
            side,
        }
    }
}

impl Drop for Present {
    fn drop(&mut self) {
        presence(&self.play, &self.game, self.side, false);
    }
}

/// Tells the game a player's socket opened or closed; the game says when
/// a player has left (all sockets closed) and when they are back.
pub fn presence(state: &Play, game_id: &str, side: Side, connected: bool) {
    if state.games().get(game_id).is_none() {
        remote::presence(state, game_id, side, connected);
        return;
    }
    presence_here(state, game_id, side, connected);
}

fn presence_here(state: &Play, game_id: &str, side: Side, connected: bool) {
    if let Some(h) = state.games().get(game_id) {
        // From a socket's drop, which cannot wait: a full mailbox (64
        // commands) only loses the notice, never blocks.
        let _ = h.tx.try_send(Cmd::Presence { side, connected });
    }
}

/// A running game task's mailbox.
#[derive(Clone, Debug)]
pub struct GameHandle {
    pub tx: mpsc::Sender<Cmd>,
}

/// The live games this node owns.
#[derive(Default, Debug)]
pub struct Registry {
    games: Mutex<HashMap<String, GameHandle>>,
    /// The games every player has left (each human's last socket closed):
    /// still running on the clock, but nothing to show on TV.
    deserted: Mutex<std::collections::HashSet<String>>,
}

impl Registry {
    #[must_use]
    pub fn get(&self, id: &str) -> Option<GameHandle> {
        self.lock().get(id).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, GameHandle>> {
        self.games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn insert(&self, id: String, h: GameHandle) {
        self.lock().insert(id, h);
    }

    fn remove(&self, id: &str) {
        self.lock().remove(id);
        self.set_deserted(id, false);
    }

    /// Whether every player of game `id` has left it (see [`Registry`]).
    #[must_use]
    pub fn is_deserted(&self, id: &str) -> bool {
        self.deserted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(id)
    }

    fn set_deserted(&self, id: &str, deserted: bool) {
        let mut set = self
            .deserted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if deserted {
            set.insert(id.to_string());
        } else {
            set.remove(id);
        }
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The registry entry of a stored game's variant.
/// The side `user_id` plays in the game of `row`; `None` for anyone else.
#[must_use]
pub fn side_of(row: &GameRow, user_id: &str) -> Option<Side> {
    if row.first_id.as_deref() == Some(user_id) {
        Some(Side::First)
    } else if row.second_id.as_deref() == Some(user_id) {
        Some(Side::Second)
    } else {
        None
    }
}

fn variant_of(row: &GameRow) -> Result<&'static registry::Variant, String> {
    registry::get(Some(&row.variant)).map_err(|e| e.to_string())
}

/// Replays a stored game (see [`Table::restore`]).
fn rebuild(row: &GameRow, log: &[String], stopped_ms: i64, now_ms: i64) -> Result<(Table, Applied), String> {
    let v = variant_of(row)?;
    let game = v.new_game(Some(&row.initial_fen), 0).map_err(|e| e.to_string())?;
    let profile: registry::Profile = row.rules_profile.parse()?;
    let config = v.session_config_for(crate::table::parse_time_control(&row.time_control)?, profile);
    let log = log
        .iter()
        .map(|c| {
            serde_json::from_str::<session::Command>(c).map_err(|e| format!("bad stored command {c:?}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Table::restore(game, config, &log, stopped_ms, now_ms)
}

/// Something that happened in a game, serialised once for every listener.
#[derive(Debug)]
pub struct Event {
    /// The message type (`move`, `end`, …), the `t` field of `json`.
    pub kind: std::borrow::Cow<'static, str>,
    pub json: String,
    /// For a chat line: who may read it (game events are for everyone).
    pub room: Option<crate::protocol::ChatRoom>,
}

impl Event {
    fn of(msg: &ServerMsg) -> Arc<Event> {
        Arc::new(Event {
            kind: std::borrow::Cow::Borrowed(msg.kind()),
            json: msg.to_json(),
            room: match msg {
                ServerMsg::Chat { room, .. } => Some(*room),
                _ => None,
            },
        })
    }
}

/// Creates a game: stores it, starts its task, and returns its id.
pub async fn create_game(state: &Play, setup: GameSetup) -> Result<String, common::Error> {
    create(state, setup, None).await
}

/// As [`create_game`], for a game against the computer that a person
/// started from `client` (their address): the computer's searches in it
/// take their turns in that address's share of the machine (see
/// `computer::FairQueue`). Kept in the game's memory only; a game resumed
/// after a restart is its player's share alone.
pub async fn create_game_from(
    state: &Play,
    setup: GameSetup,
    client: std::net::IpAddr,
) -> Result<String, common::Error> {
    create(state, setup, Some(client)).await
}

async fn create(
    state: &Play,
    setup: GameSetup,
    client: Option<std::net::IpAddr>,
) -> Result<String, common::Error> {
    let bad_game = |e: String| common::Error::bad("bad_game", e);
    let v = registry::get(Some(&setup.variant)).map_err(|e| bad_game(e.to_string()))?;
    // A numbered family of start positions (Chess960) draws one.
    let pick = common::random_u32()?;
    let game = v
        .new_game(setup.fen.as_deref(), pick)
        .map_err(|e| bad_game(e.to_string()))?;
    let initial_fen = game.initial_fen();
    let table = Table::new(
        game,
        v.session_config_for(setup.time_control.clone(), setup.profile),
    )
    .map_err(|e| bad_game(e.to_string()))?;
    let id = common::random_id(8)?;
    let now = common::now_ms();
    // Each player's rating in the variant's pool as the game begins.
    let mut seat_ratings = [None, None];
    for (i, seat) in [&setup.first, &setup.second].into_iter().enumerate() {
        if let Some(u) = &seat.user {
            seat_ratings[i] = Some(state.store().rating(&u.id, v.rating_pool).await?.rating.rating);
        }
    }
    let (main_ms, increment_ms) = crate::table::headline(&setup.time_control);
    let row = GameRow {
        id: id.clone(),
        node: state.config().node_id.clone(),
        variant: v.id.to_string(),
        initial_fen,
        time_control: setup.time_control.to_string(),
        initial_ms: main_ms,
        increment_ms,
        rated: setup.rated,
        first_id: setup.first.user.as_ref().map(|u| u.id.clone()),
        second_id: setup.second.user.as_ref().map(|u| u.id.clone()),
        first_name: setup.first.name.clone(),
        second_name: setup.second.name.clone(),
        first_rating: seat_ratings[0],
        second_rating: seat_ratings[1],
        computer: setup
            .first
            .computer
            .clone()
            .or_else(|| setup.second.computer.clone()),
        state: "live".into(),
        rules_profile: setup.profile.as_str().to_string(),
        result: None,
        winner: None,
        reason: None,
        detail: None,
        article: None,
        created_ms: now,
        ended_ms: None,
        first_ms: main_ms,
        second_ms: main_ms,
        first_move_ms: setup.first_move_ms.unwrap_or(0).max(0),
    };
    match &setup.event {
        Some(event) => state.store().insert_event_game(&row, event).await?,
        None => state.store().insert_game(&row).await?,
    }
    // A new row is this node's at generation 0 (the column's default):
    // no other node can have taken it, so no taking is written. Were this
    // node stale and the game taken over, the generation would be 1 and
    // this fence stale, as it should.
    let fence = store::Fence {
        node: state.config().node_id.clone(),
        generation: 0,
    };
    spawn(
        state,
        v,
        row,
        table,
        Log {
            seq: 0,
            fence: Some(fence),
        },
        now,
        client,
        true,
    );
    Ok(id)
}

/// Resumes every live game this node owns (after a restart or crash). A
/// game whose rows cannot be read or replayed (a garbled command, a
/// missing move) is marked `damaged`, named in the log, and left alone:
/// the other games and the server start, and the damaged one answers
/// `game_damaged` instead of staying "live" forever.
pub async fn resume_all(state: &Play, stopped_ms: i64) -> Result<usize, store::StoreError> {
    let ids = state.store().live_game_ids(&state.config().node_id).await?;
    let now = common::now_ms();
    let mut n = 0;
    let mut damaged = Vec::new();
    for id in ids {
        match resume(state, &id, stopped_ms, now).await {
            Ok(true) => n += 1,
            Ok(false) => {}
            Err(why) => {
                tracing::error!(game = %id, error = %why, "game is damaged; marked so and not resumed");
                state.store().mark_damaged(&id, &why).await?;
                damaged.push(id);
            }
        }
    }
    if !damaged.is_empty() {
        tracing::error!(
            count = damaged.len(),
            games = %damaged.join(" "),
            "damaged games were not resumed; `qiju admin check` lists them"
        );
    }
    Ok(n)
}

/// Whether a stored game replays: its row and command log (what `qiju
/// admin check` asks of every live game, through
/// `store::integrity::check`); `Err` says why not.
///
/// # Errors
/// Why the game's rows cannot be replayed.
pub fn replays(row: &GameRow, log: &[String]) -> Result<(), String> {
    variant_of(row)?;
    let now = common::now_ms();
    rebuild(row, log, now, now).map(|_| ())
}

/// Resumes one game: `Ok(false)` when it is not there, `Err` (why) when
/// its rows cannot be read or replayed.
async fn resume(state: &Play, id: &str, stopped_ms: i64, now: i64) -> Result<bool, String> {
    // This node's own game, or one whose lease ran out; another node's
    // that it still holds is not ours to run.
    let Some(fence) = state
        .store()
        .take_lease(id, &state.config().node_id, now - state.config().lease_ms)
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(false);
    };
    let Some((row, _)) = state.store().game(id).await.map_err(|e| e.to_string())? else {
        return Ok(false);
    };
    let log = state.store().commands(id).await.map_err(|e| e.to_string())?;
    let seq = log.len() as u64;
    let v = variant_of(&row)?;
    let (table, extra) = rebuild(&row, &log, stopped_ms, now)?;
    // The pause at the crash and the resume now are stored like any other
    // commands, so a second crash replays them too.
    let bodies = bodies(&extra);
    state
        .store()
        .append_fenced(Some(&fence), id, seq, &bodies)
        .await
        .map_err(|e| e.to_string())?;
    let log = Log {
        seq: seq + bodies.len() as u64,
        fence: Some(fence),
    };
    spawn(state, v, row, table, log, now, None, false);
    // Whoever follows the game from another node reconnects to it here.
    remote::moved(state, id);
    Ok(true)
}

/// With `take_over` (issue 29), until shutdown: every third of `lease_ms`,
/// resumes here the live games of nodes whose leases ran out — a node that
/// died (`kill -9`), froze, or drained. Their clocks are charged up to the
/// dead node's last heartbeat, as after a crash of this node
/// (`resume_all`). A node's own leases need no renewing: its heartbeat is
/// their renewal (`store::nodes`).
pub async fn take_over_games(state: Play) {
    if !state.config().take_over {
        return;
    }
    let lease = state.config().lease_ms;
    let mut tick = tokio::time::interval(std::time::Duration::from_millis(
        u64::try_from(lease / 3).unwrap_or(1000).max(100),
    ));
    let mut shutdown = state.shutdown_signal();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.changed() => break,
        }
        take_over(&state, common::now_ms()).await;
    }
}

/// Resumes here the games whose owners' leases ran out.
async fn take_over(state: &Play, now: i64) {
    let node = &state.config().node_id;
    let stale_before = now - state.config().lease_ms;
    let orphans = match state.store().orphaned_games(node, stale_before, 20).await {
        Ok(o) => o,
        Err(e) => {
            tracing::warn!(error = %e, "cannot look for games to take over");
            return;
        }
    };
    for (id, owner) in orphans {
        let stopped = match state.store().last_heartbeat(&owner).await {
            Ok(Some(t)) => t.min(now),
            _ => now,
        };
        match resume(state, &id, stopped, now).await {
            Ok(true) => {
                state.metrics().taken_over();
                // A slow owner may still run the game's task: it lets it go
                // now rather than answer from what it holds.
                remote::release(state, &owner, &id);
                tracing::info!(game = %id, from = %owner, "took over a game whose node stopped renewing its lease");
            }
            Ok(false) => {}
            Err(why) => {
                tracing::error!(game = %id, error = %why, "game is damaged; marked so and not taken over");
                let _ = state.store().mark_damaged(&id, &why).await;
            }
        }
    }
}

/// Sends an action to a game's task and waits for the answer.
pub async fn act_on(state: &Play, game_id: &str, user_id: &str, action: Action) -> Result<u32, ActError> {
    let Some(h) = state.games().get(game_id) else {
        let t0 = std::time::Instant::now();
        let is_move = matches!(action, Action::Move { .. });
        if let Some(answer) = remote::act(state, game_id, user_id, action).await {
            state.metrics().forwarded(is_move, t0.elapsed());
            return answer;
        }
        return Err(not_running(state, game_id).await);
    };
    act_with(state, &h, user_id, action).await
}

/// An action on a game of this node's (sent by another node).
async fn act_here(state: &Play, game_id: &str, user_id: &str, action: Action) -> Result<u32, ActError> {
    let Some(h) = state.games().get(game_id) else {
        return Err(not_running(state, game_id).await);
    };
    act_with(state, &h, user_id, action).await
}

/// Why a game runs on no node reachable from here: damaged, or gone.
async fn not_running(state: &Play, game_id: &str) -> ActError {
    match state.store().game_state(game_id).await {
        Ok(Some(s)) if s == "damaged" => ActError::Damaged,
        _ => ActError::Gone,
    }
}

/// Sends an action to a game task's mailbox and waits for its answer.
async fn act_with(state: &Play, h: &GameHandle, user_id: &str, action: Action) -> Result<u32, ActError> {
    let (reply, rx) = oneshot::channel();
    let is_move = matches!(action, Action::Move { .. });
    let t0 = std::time::Instant::now();
    h.tx.send(Cmd::Act {
        user_id: user_id.to_string(),
        action,
        reply,
    })
    .await
    .map_err(|_| ActError::Gone)?;
    let answer = rx.await.map_err(|_| ActError::Gone)?;
    state.metrics().action(is_move, answer.is_ok(), t0.elapsed());
    answer
}

/// Joins a live game: its view and its event stream.
pub async fn join(state: &Play, game_id: &str) -> Option<(GameView, broadcast::Receiver<Arc<Event>>)> {
    let Some(h) = state.games().get(game_id) else {
        return remote::join(state, game_id).await;
    };
    let (reply, rx) = oneshot::channel();
    h.tx.send(Cmd::Join { reply }).await.ok()?;
    rx.await.ok()
}

/// The current view of a game, live or stored.
pub async fn view(state: &Play, game_id: &str) -> Result<Option<GameView>, common::Error> {
    if let Some(v) = view_here(state, game_id, false).await {
        return Ok(Some(v));
    }
    if state.games().get(game_id).is_none() {
        if let Some(v) = remote::view(state, game_id).await {
            return Ok(Some(v));
        }
    }
    stored_view(state, game_id).await
}

/// The view of a game of this node's, from its task; `follow`: for
/// another node that follows its events from now on.
async fn view_here(state: &Play, game_id: &str, follow: bool) -> Option<GameView> {
    let h = state.games().get(game_id)?;
    let (reply, rx) = oneshot::channel();
    h.tx.send(Cmd::View { reply, follow }).await.ok()?;
    rx.await.ok()
}
