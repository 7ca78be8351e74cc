//! Live games owned by another node (issue 29): the same five paths into a
//! game — act, join, view, chat, presence — when the game's task runs
//! elsewhere. The owner is the game row's `node` (the holder of its lease,
//! `store::nodes`); a command goes to it over the bus ([`bus::Bus::request`])
//! and is handled there by the very functions a local socket calls, and
//! the game's events reach this node's sockets on the game's bus channel
//! (`game:ID`), which the owner's task publishes every event to.
//!
//! A join subscribes to the channel first and asks for the view second,
//! then drops the events the view already holds (by version), so that no
//! event falls between the two. When another node takes the game over it
//! says so on the channel (`moved`): the forwarded streams end, and their
//! sockets reconnect and find the game where it is now, resynchronising by
//! the events' versions — as a client does after any reconnect.

use super::{ActError, Event, Play};
use crate::protocol::{ChatRoom, GameView, ServerMsg};
use crate::table::{Action, TABLE_CODES};
use game::Side;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;

/// The bus topic of live games' commands.
const TOPIC: &str = "game";

/// How long a command may wait for the owner node's answer: a move's is a
/// commit away; past this the owner is taken for gone and the client
/// retries (by then another node may have taken the game over).
const ANSWER_WITHIN: Duration = Duration::from_secs(5);

/// A command for a game owned by the node it is sent to.
#[derive(Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
enum Call {
    Act {
        game: String,
        user: String,
        action: Action,
    },
    View {
        game: String,
        /// The asking node follows the game's events from now on (a join):
        /// the owner publishes them on the game's channel only once some
        /// node does (`LiveGame::followed_elsewhere`).
        #[serde(default)]
        follow: bool,
    },
    Chat {
        game: String,
        msg: Box<ServerMsg>,
    },
    Presence {
        game: String,
        side: Side,
        connected: bool,
    },
    /// The sender took the game over from the node it is sent to.
    Release {
        game: String,
    },
}

/// A refused command as it comes back: its code (one of the room's stable
/// codes) and words.
#[derive(Serialize, Deserialize)]
struct Refusal {
    code: String,
    message: String,
}

impl From<&ActError> for Refusal {
    fn from(e: &ActError) -> Refusal {
        Refusal {
            code: e.code().to_string(),
            message: e.to_string(),
        }
    }
}

impl From<Refusal> for ActError {
    fn from(r: Refusal) -> ActError {
        match r.code.as_str() {
            "not_a_player" => ActError::NotAPlayer,
            "storage" => ActError::Storage,
            "gone" => ActError::Gone,
            "game_damaged" => ActError::Damaged,
            code => ActError::Remote {
                code: TABLE_CODES
                    .iter()
                    .find(|c| **c == code)
                    .copied()
                    .unwrap_or("refused"),
                message: r.message,
            },
        }
    }
}

/// A game event on the game's bus channel.
#[derive(Serialize, Deserialize)]
struct Wire<'a> {
    /// The event's version; `None` for what has none (a chat line, the
    /// whole state again).
    #[serde(default)]
    v: Option<u64>,
    k: Cow<'a, str>,
    #[serde(default)]
    r: Option<ChatRoom>,
    j: Cow<'a, str>,
}

/// The kind of the notice that the game has moved to another node.
const MOVED: &str = "moved";

fn channel(game: &str) -> String {
    format!("game:{game}")
}

/// Publishes a game event for the other nodes' listeners (`v`: the event's
/// version, if it has one).
pub(super) fn publish(bus: &bus::Bus, game: &str, event: &Event, v: Option<u64>) {
    let wire = Wire {
        v,
        k: Cow::Borrowed(&event.kind),
        r: event.room,
        j: Cow::Borrowed(&event.json),
    };
    send(bus, game, &wire);
}

/// Puts `wire` on `game`'s channel.
fn send(bus: &bus::Bus, game: &str, wire: &Wire) {
    if let Ok(body) = serde_json::to_string(wire) {
        bus.publish(&channel(game), body);
    }
}

/// Tells the other nodes' listeners that `game` now runs here: their
/// streams end and their clients reconnect.
pub(super) fn moved(state: &Play, game: &str) {
    if let Some(bus) = state.bus() {
        let wire = Wire {
            v: None,
            k: Cow::Borrowed(MOVED),
            r: None,
            j: Cow::Borrowed(""),
        };
        send(bus, game, &wire);
    }
}

/// The node that owns live game `game`, if it is another one and there is
/// a bus to reach it by.
async fn owner<'a>(state: &'a Play, game: &str) -> Option<(&'a bus::Bus, String)> {
    let bus = state.bus()?;
    let node = state.store().live_game_node(game).await.ok()??;
    (node != state.config().node_id).then_some((bus, node))
}

async fn call(bus: &bus::Bus, node: &str, call: &Call) -> Result<String, ActError> {
    let body = serde_json::to_string(call).map_err(|_| ActError::Gone)?;
    bus.request(node, TOPIC, body, ANSWER_WITHIN).await.map_err(|e| {
        tracing::debug!(error = %e, %node, "a game's owner did not answer");
        ActError::Gone
    })
}

/// Sends `c` to `node` with no answer awaited, in order with this node's
/// other messages.
fn cast(bus: &bus::Bus, node: &str, c: &Call) {
    if let Ok(body) = serde_json::to_string(c) {
        bus.cast(node, TOPIC, &body);
    }
}

/// An action on a game owned by another node: `None` when the game is not
/// another node's.
pub(super) async fn act(
    state: &Play,
    game: &str,
    user: &str,
    action: Action,
) -> Option<Result<u32, ActError>> {
    // The node this node joined the game at, while someone here follows
    // it: a player's moves need no lookup each. If the game has moved, that
    // node answers `gone` (or is gone), and the database says where it is.
    if let (Some(bus), Some(node)) = (state.bus(), state.remote_owners().get(game)) {
        let r = act_at(bus, &node, game, user, action.clone()).await;
        if !matches!(r, Err(ActError::Gone)) {
            return Some(r);
        }
    }
    let (bus, node) = owner(state, game).await?;
    Some(act_at(bus, &node, game, user, action).await)
}

async fn act_at(bus: &bus::Bus, node: &str, game: &str, user: &str, action: Action) -> Result<u32, ActError> {
    let c = Call::Act {
        game: game.to_string(),
        user: user.to_string(),
        action,
    };
    call(bus, node, &c).await.and_then(|answer| {
        serde_json::from_str::<Result<u32, Refusal>>(&answer)
            .map_err(|_| ActError::Gone)?
            .map_err(ActError::from)
    })
}

/// The live view of a game owned by another node.
pub(super) async fn view(state: &Play, game: &str) -> Option<GameView> {
    let (bus, node) = owner(state, game).await?;
    view_at(bus, &node, game, false).await
}

async fn view_at(bus: &bus::Bus, node: &str, game: &str, follow: bool) -> Option<GameView> {
    let answer = call(
        bus,
        node,
        &Call::View {
            game: game.to_string(),
            follow,
        },
    )
    .await
    .ok()?;
    serde_json::from_str::<Option<GameView>>(&answer).ok()?
}

/// Joins a game owned by another node: its view and, from then on, its
/// events as the owner publishes them.
pub(super) async fn join(state: &Play, game: &str) -> Option<(GameView, broadcast::Receiver<Arc<Event>>)> {
    let (bus, node) = owner(state, game).await?;
    let mut heard = bus.subscribe(&channel(game)).await.ok()?;
    let view = view_at(bus, &node, game, true).await?;
    state.remote_owners().insert(game, &node);
    let (tx, rx) = broadcast::channel(256);
    let seen = view.v;
    let owners = state.clone();
    let id = game.to_string();
    tokio::spawn(async move {
        let mut idle = tokio::time::interval(Duration::from_secs(5));
        loop {
            tokio::select! {
                got = heard.recv() => {
                    let body = match got {
                        Ok(b) => b,
                        // Fell behind: the listeners' own lag handling
                        // (the whole state again) needs them to lag too.
                        Err(broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(broadcast::error::RecvError::Closed) => break,
                    };
                    let Ok(w) = serde_json::from_str::<Wire>(&body) else { continue };
                    if w.k == MOVED {
                        break;
                    }
                    if w.v.is_some_and(|v| v <= seen) {
                        continue;
                    }
                    let event = Arc::new(Event {
                        kind: Cow::Owned(w.k.into_owned()),
                        json: w.j.into_owned(),
                        room: w.r,
                    });
                    if tx.send(event).is_err() {
                        break;
                    }
                }
                _ = idle.tick() => if tx.receiver_count() == 0 { break },
            }
        }
        owners.remote_owners().forget(&id);
    });
    Some((view, rx))
}

/// A chat line for a game owned by another node.
pub(super) async fn chat(state: &Play, game: &str, msg: ServerMsg) -> Option<Result<(), ActError>> {
    let (bus, node) = owner(state, game).await?;
    let c = Call::Chat {
        game: game.to_string(),
        msg: Box::new(msg),
    };
    Some(call(bus, &node, &c).await.and_then(|answer| {
        serde_json::from_str::<Result<(), Refusal>>(&answer)
            .map_err(|_| ActError::Gone)?
            .map_err(ActError::from)
    }))
}

/// A player's socket to a game owned by another node opened or closed: told
/// to the owner this node joined it at, in the order the sockets did it.
pub(super) fn presence(state: &Play, game: &str, side: Side, connected: bool) {
    let (Some(bus), Some(node)) = (state.bus(), state.remote_owners().get(game)) else {
        return;
    };
    let c = Call::Presence {
        game: game.to_string(),
        side,
        connected,
    };
    cast(bus, &node, &c);
}

/// Tells `node`, from which this node just took `game` over, to let the
/// game's task go if it still runs one (a node that was slow, not dead).
pub(super) fn release(state: &Play, node: &str, game: &str) {
    let Some(bus) = state.bus() else { return };
    let c = Call::Release {
        game: game.to_string(),
    };
    cast(bus, node, &c);
}

/// Serves the other nodes' commands for this node's games.
pub(crate) fn serve(state: &Play, bus: &bus::Bus) {
    let play = state.clone();
    bus.serve(
        TOPIC,
        Arc::new(move |body: String| {
            let play = play.clone();
            Box::pin(async move { answer(&play, &body).await })
        }),
    );
}

async fn answer(play: &Play, body: &str) -> String {
    let Ok(c) = serde_json::from_str::<Call>(body) else {
        return String::new();
    };
    let json = match c {
        Call::Act { game, user, action } => {
            let r = super::act_here(play, &game, &user, action).await;
            serde_json::to_string(&r.map_err(|e| Refusal::from(&e)))
        }
        Call::View { game, follow } => serde_json::to_string(&super::view_here(play, &game, follow).await),
        Call::Chat { game, msg } => {
            let r = super::chat_here(play, &game, *msg).await;
            serde_json::to_string(&r.map_err(|e| Refusal::from(&e)))
        }
        Call::Presence {
            game,
            side,
            connected,
        } => {
            super::presence_here(play, &game, side, connected);
            Ok(String::new())
        }
        Call::Release { game } => {
            if let Some(h) = play.games().get(&game) {
                let _ = h.tx.send(super::Cmd::Release).await;
            }
            Ok(String::new())
        }
    };
    json.unwrap_or_default()
}

/// Which node each game joined from here over the bus is owned by, while
/// someone here listens: where its players' presence goes.
#[derive(Debug, Default)]
pub struct RemoteOwners(std::sync::Mutex<std::collections::HashMap<String, (String, usize)>>);

impl RemoteOwners {
    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, (String, usize)>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn insert(&self, game: &str, node: &str) {
        let mut m = self.lock();
        let e = m.entry(game.to_string()).or_insert_with(|| (node.to_string(), 0));
        node.clone_into(&mut e.0);
        e.1 += 1;
    }

    fn get(&self, game: &str) -> Option<String> {
        self.lock().get(game).map(|(n, _)| n.clone())
    }

    /// One join's stream ended; the entry goes with the last.
    fn forget(&self, game: &str) {
        let mut m = self.lock();
        if let Some(e) = m.get_mut(game) {
            e.1 = e.1.saturating_sub(1);
            if e.1 == 0 {
                m.remove(game);
            }
        }
    }
}
