//! The lobby room: seeks (open offers to play), automatic pairing of
//! matching seeks, direct challenges, games against the computer, who is
//! in the lobby, the per-player event stream that tells a player a game
//! has started for them and brings them notices wherever they are on the
//! site, friends (following players, who of them is online and playing),
//! the lobby chat and the moderation of every chat line (game or lobby):
//! its checks and the reports of players.
//!
//! Seeks and challenges are short-lived and kept in this node's memory (as
//! lichess keeps its hooks); games are stored the moment they are created,
//! by the play room ([`play::live::create_game`]).
//!
//! What one player may leave lying about is bounded ([`LobbyLimits`]):
//! before, one account made 2,000 seeks (every lobby visitor then got a
//! 321 kB greeting, and seeks never went away) and 2,000 challenges to one
//! victim. Seeks are few per player, vanish when the player's last lobby
//! connection (socket or event stream) closes, and expire; challenges are
//! few per sender and per recipient and expire.

mod challenges;
pub mod chat;
mod computer;
mod friends;
mod nodes;
mod presence;
pub mod protocol;
mod seeks;
mod start;

pub use challenges::ChallengeRequest;
pub use computer::ComputerRequest;
pub use presence::Presence;
pub use protocol::{ChallengeView, ColorChoice, DeclineReason, FriendGame, FriendView, NoticeKind, SeekView};
pub use seeks::{SeekRequest, SeekResult};
pub use start::GameStarted;

use protocol::{LobbyLine, LobbyMsg};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use store::Store;
use tokio::sync::broadcast;

/// How much of the lobby one player may hold. See docs/SECURITY.md.
#[derive(Clone, Copy, Debug)]
pub struct LobbyLimits {
    /// Open seeks per player.
    pub seeks_per_user: usize,
    /// A seek's lifetime, even while its player stays connected.
    pub seek_ttl_ms: i64,
    /// Challenges a player has sent that are still unanswered.
    pub challenges_per_sender: usize,
    /// Unanswered challenges waiting for one player.
    pub challenges_per_recipient: usize,
    /// A challenge's lifetime.
    pub challenge_ttl_ms: i64,
    /// Live untimed games per player.
    pub untimed_games_per_user: usize,
    /// Games against the computer at a deep level (anything but the
    /// built-in engine's quick levels, `play::computer::QUICK_LEVELS`)
    /// started from one client address (an IPv6 /64) and still going; 0:
    /// no limit (behind a reverse proxy every player has its address).
    pub deep_computer_games_per_address: usize,
    /// Players one account may follow: the friends list is read whole,
    /// with everyone's live game, each time it is shown.
    pub follows_per_user: usize,
}

impl Default for LobbyLimits {
    fn default() -> Self {
        LobbyLimits {
            seeks_per_user: 5,
            seek_ttl_ms: 60 * 60_000,
            challenges_per_sender: 10,
            challenges_per_recipient: 20,
            challenge_ttl_ms: 10 * 60_000,
            untimed_games_per_user: 10,
            deep_computer_games_per_address: 8,
            follows_per_user: 500,
        }
    }
}

/// Lobby chat lines a newcomer is shown.
pub const CHAT_HISTORY: usize = 50;

/// The lobby, cheap to clone: seeks, challenges, the per-user event
/// channels, presence and the chat.
#[derive(Clone, Debug)]
pub struct Lobby(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    store: Store,
    play: play::Play,
    limits: LobbyLimits,
    seeks: Mutex<Vec<seeks::Seek>>,
    challenges: Mutex<HashMap<String, challenges::Challenge>>,
    users: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    /// Who is in the lobby, by id: their name and open lobby connections.
    present: Mutex<HashMap<String, (String, usize)>>,
    /// Who is in the other nodes' lobbies, as they last said (`nodes`).
    elsewhere: Mutex<nodes::Elsewhere>,
    /// The lobby chat's last lines, oldest first, for whoever comes in.
    chat: Mutex<VecDeque<LobbyLine>>,
    /// Chat lines per player, all rooms together: 5 per 10 s.
    chat_limiter: common::RateLimiter,
    /// Follows and unfollows per player: 30 a minute.
    follow_limiter: common::RateLimiter,
    /// Seek list changes and the lobby chat, for everyone in the lobby.
    public: broadcast::Sender<Arc<str>>,
    /// One account's game starts, one at a time (striped by account): the
    /// caps on computer and untimed games are counted in the database, so
    /// two starts at once would both count the same games and both go on.
    starts: [tokio::sync::Mutex<()>; 16],
    /// Deep computer games by the address (share) they were started from:
    /// this node's games, pruned when counted.
    deep_games: Mutex<HashMap<std::net::IpAddr, computer::DeepGames>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Lobby {
    /// An empty lobby whose games the play room starts.
    #[must_use]
    pub fn new(store: Store, play: play::Play, limits: LobbyLimits) -> Lobby {
        Lobby(Arc::new(Inner {
            store,
            play,
            limits,
            seeks: Mutex::new(Vec::new()),
            challenges: Mutex::new(HashMap::new()),
            users: Mutex::new(HashMap::new()),
            present: Mutex::new(HashMap::new()),
            elsewhere: Mutex::new(nodes::Elsewhere::default()),
            chat: Mutex::new(VecDeque::new()),
            chat_limiter: common::RateLimiter::new(5, 10_000),
            follow_limiter: common::RateLimiter::new(30, 60_000),
            public: broadcast::channel(256).0,
            starts: std::array::from_fn(|_| tokio::sync::Mutex::new(())),
            deep_games: Mutex::new(HashMap::new()),
        }))
    }

    /// Held while a game of these accounts is checked against the caps and
    /// made: their stripes, taken in one order so that two starts never
    /// wait for each other.
    async fn starting(&self, user_ids: &[&str]) -> Vec<tokio::sync::MutexGuard<'_, ()>> {
        use std::hash::{Hash, Hasher};
        let mut stripes: Vec<usize> = user_ids
            .iter()
            .map(|id| {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                id.hash(&mut h);
                (h.finish() % self.0.starts.len() as u64) as usize
            })
            .collect();
        stripes.sort_unstable();
        stripes.dedup();
        let mut held = Vec::with_capacity(stripes.len());
        for s in stripes {
            held.push(self.0.starts[s].lock().await);
        }
        held
    }

    /// Seek list changes and lobby chat lines, for a lobby connection.
    #[must_use]
    pub fn public(&self) -> broadcast::Receiver<Arc<str>> {
        self.0.public.subscribe()
    }

    /// Subscribes to a player's personal events (game started, challenged).
    pub fn subscribe(&self, user_id: &str) -> broadcast::Receiver<Arc<str>> {
        let mut users = lock(&self.0.users);
        users.retain(|_, tx| tx.receiver_count() > 0);
        users
            .entry(user_id.to_string())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// Sends a personal event to a player, if they listen, on whichever
    /// node they are.
    pub fn notify(&self, user_id: &str, event: &LobbyMsg) {
        let json = event.to_json();
        self.share_notify(user_id, &json);
        self.deliver(user_id, Arc::from(json));
    }

    /// A personal event for a player's connections to this node.
    fn deliver(&self, user_id: &str, json: Arc<str>) {
        if let Some(tx) = lock(&self.0.users).get(user_id) {
            let _ = tx.send(json);
        }
    }

    /// Drops expired seeks (announcing it) and challenges.
    ///
    /// An offer expires once its expiry millisecond has passed, not when it
    /// begins: `now` is truncated to whole milliseconds, so with `<=` an
    /// offer made late in a millisecond could live up to 1 ms less than
    /// its lifetime.
    fn prune(&self, now: i64) {
        let expired: Vec<String> = {
            let mut seeks = lock(&self.0.seeks);
            // Another node's seeks are announced gone by their node.
            let ids = seeks
                .iter()
                .filter(|s| s.expires_ms < now && s.node.is_none())
                .map(|s| s.view.id.clone())
                .collect();
            seeks.retain(|s| s.expires_ms >= now);
            ids
        };
        for id in expired {
            self.announce(&LobbyMsg::SeekRemoved { id });
        }
        lock(&self.0.challenges).retain(|_, c| c.expires_ms >= now);
    }

    /// Everyone with a lobby connection open, on this node or (with a
    /// bus) another: id → name.
    fn everyone(&self) -> HashMap<String, String> {
        let mut all: HashMap<String, String> = lock(&self.0.elsewhere).users(common::now_ms());
        for (id, (name, _)) in lock(&self.0.present).iter() {
            all.insert(id.clone(), name.clone());
        }
        all
    }

    /// Players with a lobby connection open, on any node.
    #[must_use]
    pub fn online(&self) -> usize {
        self.everyone().len()
    }

    /// Players with a lobby connection open on this node (its `/metrics`).
    #[must_use]
    pub fn online_here(&self) -> usize {
        lock(&self.0.present).len()
    }

    /// Whether the player has a lobby connection open (a socket or an
    /// event stream) on any node: lichess's `online`.
    #[must_use]
    pub fn is_online(&self, user_id: &str) -> bool {
        lock(&self.0.present).contains_key(user_id) || lock(&self.0.elsewhere).has(user_id, common::now_ms())
    }

    /// The names of the players in the lobby, in name order, at most `max`.
    #[must_use]
    pub fn online_names(&self, max: usize) -> Vec<String> {
        let mut names: Vec<String> = self.everyone().into_values().collect();
        names.sort_by_key(|n| common::names::key(n));
        names.truncate(max);
        names
    }

    /// A lobby connection of `user_id` (socket or event stream) ended:
    /// with it gone, a player who has none left is not there to play, so
    /// their seeks go. The connection's receiver must be dropped first.
    fn left(&self, user_id: &str) {
        let alone = lock(&self.0.users)
            .get(user_id)
            .is_none_or(|tx| tx.receiver_count() == 0);
        if alone {
            self.drop_seeks_of(user_id);
        }
    }

    fn announce(&self, event: &LobbyMsg) {
        let json = event.to_json();
        self.share_public(&json);
        let _ = self.0.public.send(Arc::from(json));
    }
}
