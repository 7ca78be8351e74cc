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

mod finish;
mod view;

use crate::computer::ComputerMove;
use crate::protocol::ServerMsg;
pub use crate::protocol::{ClockView, GameView, MoveView, PlayerView};
use crate::store::{GameRow, User};
pub use crate::table::Action;
use crate::table::{Applied, Table, TableError};
use crate::AppState;
use finish::{already_archived, finish};
use game::Side;
use session::Event as SessionEvent;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};
pub use view::stored_view;
use view::{legal_moves, view_of};

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
    },
    Computer(ComputerMove),
    /// A player's game socket opened (`true`) or closed.
    Presence {
        side: Side,
        connected: bool,
    },
    /// A chat line to pass on (not a game event: no version).
    Chat(ServerMsg),
}

/// Passes a chat line to a game's listeners.
///
/// # Errors
/// The game is not running here (`gone`).
pub async fn chat(state: &AppState, game_id: &str, msg: ServerMsg) -> Result<(), ActError> {
    let h = state.games().get(game_id).ok_or(ActError::Gone)?;
    h.tx.send(Cmd::Chat(msg)).await.map_err(|_| ActError::Gone)
}

/// How long a player may be away before the opponent may claim the win: a
/// twentieth of the main time, between 15 s and 60 s (60 s untimed). Long
/// enough for a reload or a phone switching networks, short enough that
/// nobody waits out a 90-minute clock — lichess waits 10–30 s by time
/// control. `Config::claim_after_ms` sets it outright.
fn claim_wait_ms(state: &AppState, row: &GameRow) -> i64 {
    if let Some(ms) = state.config().claim_after_ms {
        return ms;
    }
    if row.initial_ms <= 0 {
        return 60_000;
    }
    (row.initial_ms / 20).clamp(15_000, 60_000)
}

/// Who is away now, for a view.
fn away_view(state: &AppState, g: &LiveGame, now: i64) -> Option<crate::protocol::Away> {
    let wait = claim_wait_ms(state, &g.row);
    [Side::First, Side::Second].into_iter().find_map(|side| {
        g.away_since[side.index()].map(|t| crate::protocol::Away {
            side,
            claim_in_ms: (t + wait - now).max(0),
        })
    })
}

/// Tells the game a player's socket opened or closed; the game says when
/// a player has left (all sockets closed) and when they are back.
pub fn presence(state: &AppState, game_id: &str, side: Side, connected: bool) {
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
fn variant_of(row: &GameRow) -> Result<&'static registry::Variant, String> {
    registry::get(Some(&row.variant)).map_err(|e| e.to_string())
}

/// The game state a task owns.
struct LiveGame {
    variant: &'static registry::Variant,
    row: GameRow,
    table: Table,
    events: broadcast::Sender<Arc<Event>>,
    /// Commands stored so far: the next one's number.
    seq: u64,
    /// When the current abort window began (game start, or the first move).
    abort_from_ms: i64,
    /// The version of the last event broadcast (protocol v2's `v`).
    version: u64,
    computer_thinking: bool,
    /// The last action a player took (or the game's start or resume): an
    /// untimed game ends after `untimed_idle_ms` without one.
    last_action_ms: i64,
    /// Open game sockets of each side's player.
    connections: [u32; 2],
    /// When each side's last socket closed, while it stays away.
    away_since: [Option<i64>; 2],
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
    pub kind: &'static str,
    pub json: String,
    /// For a chat line: who may read it (game events are for everyone).
    pub room: Option<crate::protocol::ChatRoom>,
}

impl Event {
    fn of(msg: &ServerMsg) -> Arc<Event> {
        Arc::new(Event {
            kind: msg.kind(),
            json: msg.to_json(),
            room: match msg {
                ServerMsg::Chat { room, .. } => Some(*room),
                _ => None,
            },
        })
    }
}

/// Creates a game: stores it, starts its task, and returns its id.
pub async fn create_game(state: &AppState, setup: GameSetup) -> Result<String, crate::ApiError> {
    let bad_game = |e: String| crate::ApiError::bad("bad_game", e);
    let v = registry::get(Some(&setup.variant)).map_err(|e| bad_game(e.to_string()))?;
    // A numbered family of start positions (Chess960) draws one.
    let pick = crate::auth::random_u32()?;
    let game = v
        .new_game(setup.fen.as_deref(), pick)
        .map_err(|e| bad_game(e.to_string()))?;
    let initial_fen = game.initial_fen();
    let table = Table::new(
        game,
        v.session_config_for(setup.time_control.clone(), setup.profile),
    )
    .map_err(|e| bad_game(e.to_string()))?;
    let id = crate::auth::random_id(8)?;
    let now = crate::now_ms();
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
    };
    state.store().insert_game(&row).await?;
    spawn(state, v, row, table, 0, now);
    Ok(id)
}

/// Resumes every live game this node owns (after a restart or crash). A
/// game whose rows cannot be read or replayed (a garbled command, a
/// missing move) is marked `damaged`, named in the log, and left alone:
/// the other games and the server start, and the damaged one answers
/// `game_damaged` instead of staying "live" forever.
pub async fn resume_all(state: &AppState, stopped_ms: i64) -> Result<usize, crate::store::StoreError> {
    let ids = state.store().live_game_ids(&state.config().node_id).await?;
    let now = crate::now_ms();
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

/// Refuses a new untimed game to a player who has
/// `lobby_limits.untimed_games_per_user` of them going: they never end by
/// the clock, so without a cap one account kept 5,000 open.
///
/// # Errors
/// `too_many_untimed_games`, or the database cannot be read.
pub async fn check_untimed_cap(
    state: &AppState,
    user: &crate::store::User,
    tc: &clock::TimeControl,
) -> Result<(), crate::ApiError> {
    if !tc.is_unlimited() {
        return Ok(());
    }
    let cap = state.config().lobby_limits.untimed_games_per_user;
    let open = state
        .store()
        .live_time_controls(&user.id)
        .await?
        .iter()
        .filter(|t| crate::table::parse_time_control(t).is_ok_and(|t| t.is_unlimited()))
        .count();
    if open >= cap {
        return Err(crate::ApiError::conflict(
            "too_many_untimed_games",
            format!("you have {open} untimed games going; finish one first (at most {cap})"),
        ));
    }
    Ok(())
}

/// Whether a stored game reads and replays (what `qiju admin check` asks
/// of every live game); `Err` says why not.
///
/// # Errors
/// Why the game's rows cannot be read or replayed.
pub async fn check_stored(store: &crate::store::Store, id: &str) -> Result<(), String> {
    let Some((row, _)) = store.game(id).await.map_err(|e| e.to_string())? else {
        return Err("its row is missing".into());
    };
    let log = store.commands(id).await.map_err(|e| e.to_string())?;
    variant_of(&row)?;
    let now = crate::now_ms();
    rebuild(&row, &log, now, now).map(|_| ())
}

/// Resumes one game: `Ok(false)` when it is not there, `Err` (why) when
/// its rows cannot be read or replayed.
async fn resume(state: &AppState, id: &str, stopped_ms: i64, now: i64) -> Result<bool, String> {
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
        .append(id, seq, &bodies, &extra.moves)
        .await
        .map_err(|e| e.to_string())?;
    spawn(state, v, row, table, seq + bodies.len() as u64, now);
    Ok(true)
}

fn bodies(a: &Applied) -> Vec<String> {
    a.commands
        .iter()
        .map(|c| serde_json::to_string(c).unwrap_or_default())
        .collect()
}

fn spawn(
    state: &AppState,
    variant: &'static registry::Variant,
    row: GameRow,
    table: Table,
    seq: u64,
    now_ms: i64,
) {
    let (tx, rx) = mpsc::channel(64);
    let (events, _) = broadcast::channel(256);
    let id = row.id.clone();
    state.games().insert(id.clone(), GameHandle { tx: tx.clone() });
    let live = LiveGame {
        variant,
        row,
        table,
        events,
        seq,
        abort_from_ms: now_ms,
        version: 0,
        computer_thinking: false,
        last_action_ms: now_ms,
        connections: [0; 2],
        away_since: [None; 2],
    };
    let st = state.clone();
    tokio::spawn(async move {
        run(st.clone(), live, rx, tx).await;
        st.games().remove(&id);
    });
}

/// The game task.
async fn run(state: AppState, mut g: LiveGame, mut rx: mpsc::Receiver<Cmd>, me: mpsc::Sender<Cmd>) {
    let linger = state.config().finished_linger;
    let abort_after = state.config().abort_after_ms;
    let untimed_idle = state.config().lobby_limits.untimed_idle_ms;
    // A game resumed already over (e.g. its flag fell before the crash) is
    // archived now.
    if g.table.is_over() {
        finish(&state, &mut g).await;
    }
    maybe_computer(&state, &mut g, &me);
    let mut shutdown = state.shutdown_signal();
    loop {
        let now = crate::now_ms();
        let over = g.table.is_over();
        // The clock's next event (a flag), or the end of the abort window
        // while a side has not made its first move.
        let abort_at = (g.table.ply() < 2).then_some(g.abort_from_ms + abort_after);
        let idle_at = g
            .table
            .untimed()
            .then_some(g.last_action_ms.saturating_add(untimed_idle));
        let deadline = [g.table.deadline(), abort_at, idle_at]
            .into_iter()
            .flatten()
            .min();
        let sleep_for = match (over, deadline) {
            (true, _) => linger,
            (false, Some(d)) => Duration::from_millis(u64::try_from((d - now).max(0)).unwrap_or(0)),
            (false, None) => Duration::from_secs(3600),
        };
        tokio::select! {
            cmd = rx.recv() => {
                let Some(cmd) = cmd else { break };
                handle(&state, &mut g, cmd, &me).await;
            }
            () = tokio::time::sleep(sleep_for) => {
                if over {
                    break; // lingered long enough after the end
                }
                let now = crate::now_ms();
                let mut applied = g.table.tick(now);
                if !g.table.is_over() && g.table.ply() < 2 && now >= g.abort_from_ms + abort_after {
                    if let Ok(a) = g.table.abort_idle(now) {
                        applied.commands.extend(a.commands);
                        applied.events.extend(a.events);
                    }
                }
                if !g.table.is_over() && g.table.untimed() && now >= g.last_action_ms.saturating_add(untimed_idle) {
                    if let Ok(a) = g.table.abandon_idle(now, untimed_idle) {
                        applied.commands.extend(a.commands);
                        applied.events.extend(a.events);
                    }
                }
                if !applied.commands.is_empty() {
                    if let Err(e) = store_and_broadcast(&state, &mut g, &applied).await {
                        tracing::error!(game = %g.row.id, error = %e, "cannot store timer event");
                    }
                }
            }
            _ = shutdown.changed() => break,
        }
    }
}

async fn handle(state: &AppState, g: &mut LiveGame, cmd: Cmd, me: &mpsc::Sender<Cmd>) {
    match cmd {
        Cmd::Join { reply } => {
            let rx = g.events.subscribe();
            let now = crate::now_ms();
            let mut v = view_of(g.variant, &g.row, &g.table, g.version, now);
            v.away = away_view(state, g, now);
            let _ = reply.send((v, rx));
        }
        Cmd::View { reply } => {
            let now = crate::now_ms();
            let mut v = view_of(g.variant, &g.row, &g.table, g.version, now);
            v.away = away_view(state, g, now);
            let _ = reply.send(v);
        }
        Cmd::Chat(msg) => {
            let _ = g.events.send(Event::of(&msg));
        }
        Cmd::Presence { side, connected } => {
            let i = side.index();
            let human_opponent = match side {
                Side::First => g.row.second_id.is_some(),
                Side::Second => g.row.first_id.is_some(),
            };
            if connected {
                g.connections[i] += 1;
                if g.away_since[i].take().is_some() && !g.table.is_over() {
                    broadcast(
                        g,
                        &ServerMsg::PlayerBack {
                            v: g.version + 1,
                            side,
                        },
                    );
                }
            } else {
                g.connections[i] = g.connections[i].saturating_sub(1);
                if g.connections[i] == 0 && !g.table.is_over() && human_opponent {
                    let now = crate::now_ms();
                    g.away_since[i] = Some(now);
                    let claim_in_ms = claim_wait_ms(state, &g.row);
                    broadcast(
                        g,
                        &ServerMsg::PlayerGone {
                            v: g.version + 1,
                            side,
                            claim_in_ms,
                        },
                    );
                }
            }
        }
        Cmd::Act {
            user_id,
            action,
            reply,
        } => {
            let side = if g.row.first_id.as_deref() == Some(&user_id) {
                Some(Side::First)
            } else if g.row.second_id.as_deref() == Some(&user_id) {
                Some(Side::Second)
            } else {
                None
            };
            let result = match side {
                None => Err(ActError::NotAPlayer),
                Some(side) => act(state, g, side, action).await,
            };
            let _ = reply.send(result);
            maybe_computer(state, g, me);
        }
        Cmd::Computer(cm) => {
            g.computer_thinking = false;
            let side = computer_side(&g.row);
            match (side, cm.coord) {
                (Some(side), Some(coord)) if cm.ply == g.table.ply() => {
                    let action = Action::Move {
                        coord,
                        ply: Some(cm.ply + 1),
                    };
                    if let Err(e) = act(state, g, side, action).await {
                        tracing::warn!(game = %g.row.id, error = %e, "computer move refused");
                    }
                }
                (Some(side), None) if !g.table.is_over() => {
                    // The computer found no move or failed: it resigns
                    // rather than hanging the game.
                    let _ = act(state, g, side, Action::Resign).await;
                }
                _ => {}
            }
            maybe_computer(state, g, me);
        }
    }
}

fn computer_side(row: &GameRow) -> Option<Side> {
    row.computer.as_ref()?;
    if row.first_id.is_none() {
        Some(Side::First)
    } else if row.second_id.is_none() {
        Some(Side::Second)
    } else {
        None
    }
}

fn maybe_computer(state: &AppState, g: &mut LiveGame, me: &mpsc::Sender<Cmd>) {
    if g.computer_thinking || g.table.is_over() {
        return;
    }
    let (Some(side), Some(spec)) = (computer_side(&g.row), g.row.computer.clone()) else {
        return;
    };
    if g.table.side_to_move() != side {
        return;
    }
    g.computer_thinking = true;
    let now = crate::now_ms();
    let clocks = g.table.clocks_at(now);
    let owner = match side {
        Side::First => g.row.second_id.clone(),
        Side::Second => g.row.first_id.clone(),
    };
    let request = crate::computer::Request {
        variant: g.variant,
        owner: owner.unwrap_or_else(|| g.row.id.clone()),
        spec,
        fen: g.row.initial_fen.clone(),
        moves: g.table.moves().map(|m| m.played.coord.clone()).collect(),
        ply: g.table.ply(),
        my_ms: clocks[side.index()],
        increment_ms: g.row.increment_ms,
    };
    // The answer joins the game's mailbox like any player's move.
    let answer = state.computers().think(request);
    let me = me.clone();
    tokio::spawn(async move {
        if let Ok(m) = answer.await {
            let _ = me.send(Cmd::Computer(m)).await;
        }
    });
}

async fn act(state: &AppState, g: &mut LiveGame, side: Side, action: Action) -> Result<u32, ActError> {
    // A resent move (after a reconnect) that is already stored is
    // acknowledged again instead of refused.
    if let Action::Move { coord, ply: Some(p) } = &action {
        if *p >= 1 && *p == g.table.ply() {
            if let Some(m) = g.table.moves().next_back() {
                if &m.played.coord == coord && side_of_ply(*p) == side {
                    return Ok(*p);
                }
            }
        }
    }
    let now = crate::now_ms();
    let applied = if matches!(action, Action::ClaimVictory) {
        let Some(left) = g.away_since[side.other().index()] else {
            return Err(TableError::OpponentPresent.into());
        };
        let wait = claim_wait_ms(state, &g.row);
        if now < left + wait {
            return Err(TableError::ClaimTooEarly {
                wait_ms: left + wait - now,
            }
            .into());
        }
        g.table.claim_victory(side, now, now - left)?
    } else {
        g.table.act(side, action, now)?
    };
    store_and_broadcast(state, g, &applied).await?;
    g.last_action_ms = crate::now_ms();
    Ok(g.table.ply())
}

/// Stores what an accepted command did, then tells everyone; archives the
/// game if it ended.
async fn store_and_broadcast(state: &AppState, g: &mut LiveGame, applied: &Applied) -> Result<(), ActError> {
    let bodies = bodies(applied);
    if let Err(e) = state
        .store()
        .append(&g.row.id, g.seq, &bodies, &applied.moves)
        .await
    {
        tracing::error!(game = %g.row.id, error = %e, "command not stored; reloading");
        reload(state, g).await;
        return Err(ActError::Storage);
    }
    g.seq += bodies.len() as u64;
    let running = g.table.clock_running();
    let now = crate::now_ms();
    let clocks_now = |g: &LiveGame| {
        let c = g.table.clocks_at(now);
        ClockView {
            first_ms: c[0],
            second_ms: c[1],
            running,
        }
    };
    for e in &applied.events {
        let v = g.version + 1;
        let msg = match e {
            SessionEvent::Moved(m) => {
                if m.ply == 1 {
                    g.abort_from_ms = now;
                }
                let row = applied.moves.iter().find(|r| r.ply == m.ply);
                let (first_ms, second_ms) = row.map_or((0, 0), |r| (r.first_ms, r.second_ms));
                // The position after the last move: what follows this one
                // in the same batch is told by its own event.
                let last = applied.moves.last().is_some_and(|r| r.ply == m.ply);
                Some(ServerMsg::Move {
                    v,
                    ply: m.ply,
                    coord: m.coord.clone(),
                    display: m.display.clone(),
                    check: m.check,
                    capture: m.capture,
                    fen: g.table.game().fen(),
                    turn: g.table.side_to_move(),
                    clocks: ClockView {
                        first_ms,
                        second_ms,
                        running,
                    },
                    legal: if last { legal_moves(&g.table) } else { Vec::new() },
                    claimable: last && g.table.claim_holds(),
                })
            }
            SessionEvent::DrawOffered { side, .. } => Some(ServerMsg::DrawOffer { v, by: *side }),
            SessionEvent::DrawDeclined { side, by_move, .. } => (!by_move).then(|| ServerMsg::DrawDeclined {
                v,
                by: side.other(),
                offer_by: *side,
            }),
            SessionEvent::Foul { foul, count } => Some(ServerMsg::Foul {
                v,
                side: foul.side,
                kind: foul.kind,
                detail: foul.detail.clone(),
                article: foul.article.clone(),
                count: *count,
            }),
            SessionEvent::TimePenalty { side, ms, .. } => Some(ServerMsg::TimePenalty {
                v,
                side: *side,
                ms: *ms,
                clocks: clocks_now(g),
            }),
            SessionEvent::TimeGiven { side, ms, .. } => Some(ServerMsg::TimeGiven {
                v,
                side: *side,
                ms: *ms,
                clocks: clocks_now(g),
            }),
            SessionEvent::MustChange {
                side,
                detail,
                article,
            } => Some(ServerMsg::MustChange {
                v,
                side: *side,
                detail: detail.clone(),
                article: article.clone(),
            }),
            SessionEvent::ClockPaused { .. } | SessionEvent::ClockResumed { .. } => Some(ServerMsg::Clock {
                v,
                clocks: clocks_now(g),
            }),
            SessionEvent::Started { .. } | SessionEvent::Ended(_) | SessionEvent::CommandDropped { .. } => {
                None
            }
        };
        if let Some(msg) = msg {
            broadcast(g, &msg);
        }
    }
    if g.table.is_over() && !already_archived(g) {
        finish(state, g).await;
    }
    Ok(())
}

/// Sends a game event to every listener; its version is the next one.
fn broadcast(g: &mut LiveGame, msg: &ServerMsg) {
    g.version += 1;
    let _ = g.events.send(Event::of(msg));
}

fn side_of_ply(ply: u32) -> Side {
    if ply % 2 == 1 {
        Side::First
    } else {
        Side::Second
    }
}

/// Reloads the game from the database after a failed write.
async fn reload(state: &AppState, g: &mut LiveGame) {
    let now = crate::now_ms();
    let Ok(Some((row, _))) = state.store().game(&g.row.id).await else {
        return;
    };
    let Ok(log) = state.store().commands(&g.row.id).await else {
        return;
    };
    if let Ok((t, _)) = rebuild(&row, &log, now, now) {
        g.seq = log.len() as u64;
        g.table = t;
        g.row = row;
        // Not a game event (no version): each connection answers it with
        // its own `full`, so players stay players.
        let view = view_of(g.variant, &g.row, &g.table, g.version, now);
        let _ = g.events.send(Event::of(&ServerMsg::Full {
            game: Box::new(view),
            you: None,
        }));
    }
}

/// Sends an action to a game's task and waits for the answer.
pub async fn act_on(state: &AppState, game_id: &str, user_id: &str, action: Action) -> Result<u32, ActError> {
    let Some(h) = state.games().get(game_id) else {
        return Err(match state.store().game_state(game_id).await {
            Ok(Some(s)) if s == "damaged" => ActError::Damaged,
            _ => ActError::Gone,
        });
    };
    let (reply, rx) = oneshot::channel();
    h.tx.send(Cmd::Act {
        user_id: user_id.to_string(),
        action,
        reply,
    })
    .await
    .map_err(|_| ActError::Gone)?;
    rx.await.map_err(|_| ActError::Gone)?
}

/// Joins a live game: its view and its event stream.
pub async fn join(state: &AppState, game_id: &str) -> Option<(GameView, broadcast::Receiver<Arc<Event>>)> {
    let h = state.games().get(game_id)?;
    let (reply, rx) = oneshot::channel();
    h.tx.send(Cmd::Join { reply }).await.ok()?;
    rx.await.ok()
}

/// The current view of a game, live or stored.
pub async fn view(state: &AppState, game_id: &str) -> Result<Option<GameView>, crate::ApiError> {
    if let Some(h) = state.games().get(game_id) {
        let (reply, rx) = oneshot::channel();
        if h.tx.send(Cmd::View { reply }).await.is_ok() {
            if let Ok(v) = rx.await {
                return Ok(Some(v));
            }
        }
    }
    stored_view(state, game_id).await
}
