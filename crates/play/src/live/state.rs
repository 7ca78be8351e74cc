//! The state a game's task owns, and the one way an event leaves it.

use super::Event;
use crate::protocol::ServerMsg;
use crate::table::Table;
use std::sync::Arc;
use store::GameRow;
use tokio::sync::broadcast;

/// The game state a task owns.
pub(super) struct LiveGame {
    pub(super) variant: &'static registry::Variant,
    pub(super) row: GameRow,
    pub(super) table: Table,
    pub(super) events: broadcast::Sender<Arc<Event>>,
    /// Commands stored so far: the next one's number.
    pub(super) seq: u64,
    /// When the current abort window began (game start, or the first move).
    pub(super) abort_from_ms: i64,
    /// The version of the last event broadcast (protocol v2's `v`).
    pub(super) version: u64,
    pub(super) computer_thinking: bool,
    /// Where the person playing the computer started the game from: the
    /// share its searches wait in (see `computer::FairQueue`).
    pub(super) client: Option<std::net::IpAddr>,
    /// The last action a player took (or the game's start or resume): an
    /// untimed game ends after `untimed_idle_ms` without one.
    pub(super) last_action_ms: i64,
    /// Open game sockets of each side's player.
    pub(super) connections: [u32; 2],
    /// When each side's last socket closed, while it stays away.
    pub(super) away_since: [Option<i64>; 2],
    /// Each side's player had a socket open and has none now (the
    /// computer never leaves); when every human has left, the game is
    /// deserted and TV skips it.
    pub(super) left: [bool; 2],
    /// Each side's player came to the game while this task ran it: opened
    /// a socket to it or sent it a command (21.1: 以到达比赛座位为准; the
    /// computer is always there). When nobody has moved at the end of the
    /// first-move window and neither came, the game is called off for
    /// both (21.3). A game resumed here counts both as come: what the task
    /// before saw is not kept, and a double forfeit is ruled only on what
    /// was seen.
    pub(super) came: [bool; 2],
    /// This node's lease on the game: its writes carry it, and are refused
    /// once another node has taken the game over (issue 29).
    pub(super) fence: Option<store::Fence>,
    /// Another node took the game over: the task ends, and its listeners
    /// reconnect to find where the game is now.
    pub(super) lost: bool,
    /// The bus to the other nodes, where they follow this game (issue 29).
    pub(super) bus: Option<bus::Bus>,
    /// Whether another node has joined the game (its `view` with
    /// `follow`, asked after it subscribed to the game's channel): only
    /// then are the events published there, so that a game whose players
    /// and spectators are all on its own node costs the bus nothing. A
    /// node that joins gets the view first and every event after it; a
    /// takeover starts unfollowed, and the followers, told `moved`, join
    /// the new owner again.
    pub(super) followed_elsewhere: bool,
}

/// Sends a game event to every listener; its version is the next one.
pub(super) fn broadcast(g: &mut LiveGame, msg: &ServerMsg) {
    g.version += 1;
    let v = g.version;
    tell(g, msg, Some(v));
}

/// Sends what has no version (a chat line, the whole state again) to every
/// listener.
pub(super) fn tell(g: &LiveGame, msg: &ServerMsg, v: Option<u64>) {
    let event = Event::of(msg);
    if let Some(bus) = g.bus.as_ref().filter(|_| g.followed_elsewhere) {
        super::remote::publish(bus, &g.row.id, &event, v);
    }
    let _ = g.events.send(event);
}
