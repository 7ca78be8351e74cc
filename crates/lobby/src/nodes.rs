//! The lobby across nodes (issue 29): what one node's lobby tells players
//! reaches every node's, over the bus's `lobby` channel — a player's
//! personal events (a game started for them, a challenge, a notice) reach
//! them on whichever node their sockets are, the public announcements
//! (seek list changes, lobby chat) every lobby connection. Challenges live
//! with the node that made them; every other node keeps a copy, so the
//! challenged player sees it wherever they are, and their answer (accept,
//! decline) is sent to the challenge's node, which alone changes it — two
//! nodes never both start its game.
//!
//! Who is in the lobby is each node's, told to the others as it changes
//! and every [`PRESENT_EVERY`] whole; a node not heard of for
//! [`PRESENT_FOR`] is taken for gone, and so are its players.
//!
//! A copy carries everything it needs (the player too), so taking it in
//! asks nothing of the database: the listener keeps up with the bus. If it
//! falls behind anyway and messages are dropped, it asks every node for
//! all its offers again ([`Shared::Resync`]), and each answers with the
//! whole of them ([`Shared::Offers`]), which replaces its copies — lost
//! challenges come back and lost withdrawals take effect.

use crate::challenges::Challenge;
use crate::protocol::{ChallengeView, DeclineReason, LobbyLine, SeekView};
use crate::seeks::{Seek, SeekResult};
use crate::start::GameStarted;
use crate::{lock, Lobby};
use common::{Error, Refusal};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use store::User;

/// The bus channel every node's lobby listens to.
const CHANNEL: &str = "lobby";
/// The topic of requests to a challenge's node.
const TOPIC: &str = "lobby";

/// What a lobby publishes for the others.
#[derive(Serialize, Deserialize)]
#[serde(tag = "s", rename_all = "snake_case")]
enum Shared {
    /// A player's personal event, already serialised.
    Notify { user: String, json: String },
    /// A public announcement.
    Public { json: String },
    /// A line of the lobby chat, which every node keeps for newcomers.
    Said(LobbyLine),
    /// A challenge made on the publishing node.
    Challenge(ChallengeCopy),
    /// A challenge answered, withdrawn or expired.
    ChallengeGone { id: String },
    /// A seek open on the publishing node.
    Seek(SeekCopy),
    /// A seek paired, withdrawn or dropped.
    SeekGone { id: String },
    /// A player's first lobby connection on the publishing node opened.
    Came { id: String, name: String },
    /// A player's last lobby connection there closed.
    Went { id: String },
    /// Everyone in the publishing node's lobby, every few seconds: heals
    /// a lost message, and a node that stops saying it is gone.
    Present { users: Vec<(String, String)> },
    /// The publisher missed messages: every node, say all your offers.
    Resync,
    /// Every challenge and seek open on the publishing node: the others'
    /// copies of its offers become exactly these.
    Offers {
        challenges: Vec<ChallengeCopy>,
        seeks: Vec<SeekCopy>,
    },
}

/// Another node's challenge as this node keeps it.
#[derive(Serialize, Deserialize)]
struct ChallengeCopy {
    view: ChallengeView,
    from: User,
    to_id: String,
    expires_ms: i64,
}

impl ChallengeCopy {
    fn of(c: &Challenge) -> ChallengeCopy {
        ChallengeCopy {
            view: c.view.clone(),
            from: c.from.clone(),
            to_id: c.to_id.clone(),
            expires_ms: c.expires_ms,
        }
    }

    /// The copy, held for node `node`; `None` if its time control does not
    /// read (a node of another version).
    fn held_for(self, node: &str) -> Option<Challenge> {
        let tc = crate::start::parse_tc(&self.view.time).ok()?;
        Some(Challenge {
            view: self.view,
            from: self.from,
            to_id: self.to_id,
            tc,
            expires_ms: self.expires_ms,
            node: Some(node.to_string()),
        })
    }
}

/// Another node's seek as this node keeps it.
#[derive(Serialize, Deserialize)]
struct SeekCopy {
    view: SeekView,
    user: User,
    expires_ms: i64,
}

impl SeekCopy {
    fn of(s: &Seek) -> SeekCopy {
        SeekCopy {
            view: s.view.clone(),
            user: s.user.clone(),
            expires_ms: s.expires_ms,
        }
    }

    fn held_for(self, node: &str) -> Option<Seek> {
        let tc = crate::start::parse_tc(&self.view.time).ok()?;
        Some(Seek {
            view: self.view,
            user: self.user,
            tc,
            expires_ms: self.expires_ms,
            node: Some(node.to_string()),
        })
    }
}

#[derive(Serialize, Deserialize)]
struct Envelope {
    /// The node that published it, which has already told its own.
    node: String,
    #[serde(flatten)]
    what: Shared,
}

/// An answer to a challenge, for the node that holds it.
#[derive(Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
enum Call {
    Accept {
        id: String,
        user: String,
    },
    Decline {
        id: String,
        user: String,
        reason: Option<DeclineReason>,
    },
    /// Pair seek `id` with the caller's player's seek `view`.
    TakeSeek {
        id: String,
        view: SeekView,
        user: String,
    },
}

/// The conflict codes a challenge's answer may be refused with (`start`
/// and `challenges`), read back as the same errors.
const CONFLICTS: [&str; 3] = [
    "too_many_untimed_games",
    "too_many_computer_games",
    "recipient_busy",
];

/// How often a node tells the others everyone in its lobby.
pub(crate) const PRESENT_EVERY: Duration = Duration::from_secs(3);
/// How long what a node said of its lobby holds without another word.
const PRESENT_FOR: i64 = 10_000;

/// Who is in the other nodes' lobbies: by node, when it was last heard
/// and its players (id → name).
#[derive(Debug, Default)]
pub(crate) struct Elsewhere(HashMap<String, (i64, HashMap<String, String>)>);

impl Elsewhere {
    fn node(&mut self, node: String, now: i64) -> &mut HashMap<String, String> {
        let e = self.0.entry(node).or_default();
        e.0 = now;
        &mut e.1
    }

    /// Every player of the nodes heard of lately.
    pub(crate) fn users(&self, now: i64) -> HashMap<String, String> {
        self.0
            .values()
            .filter(|(at, _)| now - at <= PRESENT_FOR)
            .flat_map(|(_, u)| u.iter().map(|(i, n)| (i.clone(), n.clone())))
            .collect()
    }

    pub(crate) fn has(&self, id: &str, now: i64) -> bool {
        self.0
            .values()
            .any(|(at, u)| now - at <= PRESENT_FOR && u.contains_key(id))
    }
}

/// How long the challenge's node may take to answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);
/// The least time between two requests for everyone's offers from one
/// node that keeps falling behind: each answer is every offer.
const RESYNC_EVERY: i64 = 1_000;

impl Lobby {
    /// Links this node's lobby to the others' (once, at start, after the
    /// play room's bus is attached).
    ///
    /// # Errors
    /// The bus did not confirm the subscription.
    pub async fn attach_bus(&self) -> Result<(), bus::BusError> {
        let Some(bus) = self.0.play.bus().cloned() else {
            return Ok(());
        };
        let mut heard = bus.subscribe(CHANNEL).await?;
        let lobby = self.clone();
        let me = bus.node().to_string();
        tokio::spawn(async move {
            let mut resynced = i64::MIN;
            loop {
                match heard.recv().await {
                    Ok(body) => match serde_json::from_str::<Envelope>(&body) {
                        Ok(e) if e.node != me => lobby.heard(&e.node, e.what),
                        Ok(_) => {}
                        Err(e) => tracing::warn!(error = %e, "an unreadable lobby message on the bus"),
                    },
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                        tracing::warn!(missed = n, "the lobby fell behind the bus");
                        let now = common::now_ms();
                        if now.saturating_sub(resynced) >= RESYNC_EVERY {
                            resynced = now;
                            lobby.share(Shared::Resync);
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        // Everyone in this lobby, every few seconds, for the others.
        let lobby = self.clone();
        let mut shutdown = self.0.play.shutdown_signal();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(PRESENT_EVERY);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = shutdown.changed() => break,
                }
                lobby.share_present();
            }
        });
        let lobby = self.clone();
        bus.serve(
            TOPIC,
            Arc::new(move |body: String| {
                let lobby = lobby.clone();
                Box::pin(async move { lobby.answer(&body).await })
            }),
        );
        Ok(())
    }

    /// Publishes for the other nodes' lobbies, if there are any.
    fn share(&self, what: Shared) {
        if let Some(bus) = self.0.play.bus() {
            let e = Envelope {
                node: bus.node().to_string(),
                what,
            };
            if let Ok(body) = serde_json::to_string(&e) {
                bus.publish(CHANNEL, body);
            }
        }
    }

    pub(crate) fn share_notify(&self, user: &str, json: &str) {
        self.share(Shared::Notify {
            user: user.to_string(),
            json: json.to_string(),
        });
    }

    pub(crate) fn share_public(&self, json: &str) {
        self.share(Shared::Public {
            json: json.to_string(),
        });
    }

    pub(crate) fn share_said(&self, line: &LobbyLine) {
        self.share(Shared::Said(line.clone()));
    }

    pub(crate) fn share_challenge(&self, c: &Challenge) {
        self.share(Shared::Challenge(ChallengeCopy::of(c)));
    }

    pub(crate) fn share_challenge_gone(&self, id: &str) {
        self.share(Shared::ChallengeGone { id: id.to_string() });
    }

    pub(crate) fn share_came(&self, id: &str, name: &str) {
        self.share(Shared::Came {
            id: id.to_string(),
            name: name.to_string(),
        });
    }

    pub(crate) fn share_went(&self, id: &str) {
        self.share(Shared::Went { id: id.to_string() });
    }

    pub(crate) fn share_seek(&self, s: &Seek) {
        self.share(Shared::Seek(SeekCopy::of(s)));
    }

    /// Every offer open on this node, for a node that missed some.
    fn share_offers(&self) {
        let challenges = lock(&self.0.challenges)
            .values()
            .filter(|c| c.node.is_none())
            .map(ChallengeCopy::of)
            .collect();
        let seeks = lock(&self.0.seeks)
            .iter()
            .filter(|s| s.node.is_none())
            .map(SeekCopy::of)
            .collect();
        self.share(Shared::Offers { challenges, seeks });
        self.share_present();
    }

    /// Everyone in this lobby, as (id, name), for the other nodes.
    fn share_present(&self) {
        let users = lock(&self.0.present)
            .iter()
            .map(|(id, (name, _))| (id.clone(), name.clone()))
            .collect();
        self.share(Shared::Present { users });
    }

    pub(crate) fn share_seek_gone(&self, id: &str) {
        self.share(Shared::SeekGone { id: id.to_string() });
    }

    /// Drops this node's copy of another node's seek.
    pub(crate) fn forget_seek(&self, id: &str) {
        lock(&self.0.seeks).retain(|s| s.view.id != id);
    }

    /// Asks node `node` to pair its seek `id` with `seek`: `None` when it
    /// is no longer open there.
    pub(crate) async fn take_seek_at(
        &self,
        node: &str,
        id: &str,
        seek: &Seek,
    ) -> Result<Option<SeekResult>, Error> {
        let c = Call::TakeSeek {
            id: id.to_string(),
            view: seek.view.clone(),
            user: seek.user.id.clone(),
        };
        let answer = self.ask(node, &c).await?;
        serde_json::from_str::<Result<Option<SeekResult>, Refusal>>(&answer)
            .map_err(|_| Error::Unavailable)?
            .map_err(|r| r.into_error(&CONFLICTS))
    }

    /// What another node's lobby published: taken in at once, with
    /// nothing awaited, so that the listener keeps up with the bus.
    fn heard(&self, node: &str, what: Shared) {
        match what {
            Shared::Notify { user, json } => self.deliver(&user, Arc::from(json)),
            Shared::Public { json } => {
                let _ = self.0.public.send(Arc::from(json));
            }
            Shared::Said(line) => self.keep_and_show(line),
            Shared::Challenge(copy) => {
                if let Some(c) = copy.held_for(node) {
                    lock(&self.0.challenges).insert(c.view.id.clone(), c);
                }
            }
            Shared::ChallengeGone { id } => {
                lock(&self.0.challenges).remove(&id);
            }
            Shared::Seek(copy) => {
                if let Some(seek) = copy.held_for(node) {
                    let mut seeks = lock(&self.0.seeks);
                    seeks.retain(|s| s.view.id != seek.view.id);
                    seeks.push(seek);
                }
            }
            Shared::SeekGone { id } => self.forget_seek(&id),
            Shared::Came { id, name } => {
                lock(&self.0.elsewhere)
                    .node(node.to_string(), common::now_ms())
                    .insert(id, name);
            }
            Shared::Went { id } => {
                lock(&self.0.elsewhere)
                    .node(node.to_string(), common::now_ms())
                    .remove(&id);
            }
            Shared::Present { users } => {
                *lock(&self.0.elsewhere).node(node.to_string(), common::now_ms()) =
                    users.into_iter().collect();
            }
            Shared::Resync => self.share_offers(),
            Shared::Offers { challenges, seeks } => {
                let from = Some(node);
                let mut held = lock(&self.0.challenges);
                held.retain(|_, c| c.node.as_deref() != from);
                held.extend(
                    challenges
                        .into_iter()
                        .filter_map(|c| c.held_for(node))
                        .map(|c| (c.view.id.clone(), c)),
                );
                drop(held);
                let mut held = lock(&self.0.seeks);
                held.retain(|s| s.node.as_deref() != from);
                held.extend(seeks.into_iter().filter_map(|s| s.held_for(node)));
            }
        }
    }

    /// Accepts, at its node, a challenge made on another node.
    pub(crate) async fn accept_at(&self, node: &str, user: &str, id: &str) -> Result<GameStarted, Error> {
        let c = Call::Accept {
            id: id.to_string(),
            user: user.to_string(),
        };
        let answer = self.ask(node, &c).await?;
        serde_json::from_str::<Result<GameStarted, Refusal>>(&answer)
            .map_err(|_| Error::Unavailable)?
            .map_err(|r| r.into_error(&CONFLICTS))
    }

    /// Declines, at its node, a challenge made on another node.
    pub(crate) async fn decline_at(
        &self,
        node: &str,
        user: &str,
        id: &str,
        reason: Option<DeclineReason>,
    ) -> Result<(), Error> {
        let c = Call::Decline {
            id: id.to_string(),
            user: user.to_string(),
            reason,
        };
        let answer = self.ask(node, &c).await?;
        serde_json::from_str::<Result<(), Refusal>>(&answer)
            .map_err(|_| Error::Unavailable)?
            .map_err(|r| r.into_error(&CONFLICTS))
    }

    async fn ask(&self, node: &str, c: &Call) -> Result<String, Error> {
        let bus = self.0.play.bus().ok_or(Error::Unavailable)?;
        let body = serde_json::to_string(c).map_err(|e| Error::Internal(e.to_string()))?;
        bus.request(node, TOPIC, body, ANSWER_WITHIN).await.map_err(|e| {
            tracing::warn!(error = %e, %node, "a challenge's node did not answer");
            Error::Unavailable
        })
    }

    /// Another node's player answers one of this node's challenges.
    async fn answer(&self, body: &str) -> String {
        let Ok(c) = serde_json::from_str::<Call>(body) else {
            return String::new();
        };
        let user = |id: String| async move {
            self.0
                .store
                .user_by_id(&id)
                .await?
                .ok_or_else(|| Error::NotFound(format!("player {id}")))
        };
        let json = match c {
            Call::Accept { id, user: u } => {
                let r = match user(u).await {
                    Ok(u) => self.accept(u, &id).await,
                    Err(e) => Err(e),
                };
                serde_json::to_string(&r.map_err(|e| Refusal::from(&e)))
            }
            Call::Decline { id, user: u, reason } => {
                let r = match user(u).await {
                    Ok(u) => self.decline(&u, id, reason).await,
                    Err(e) => Err(e),
                };
                serde_json::to_string(&r.map_err(|e| Refusal::from(&e)))
            }
            Call::TakeSeek { id, view, user: u } => {
                let r = match (user(u).await, crate::start::parse_tc(&view.time)) {
                    (Ok(user), Ok(tc)) => {
                        let seek = Seek {
                            view,
                            user,
                            tc,
                            expires_ms: i64::MAX,
                            node: None,
                        };
                        self.take_seek(&id, seek).await
                    }
                    (Err(e), _) | (_, Err(e)) => Err(e),
                };
                serde_json::to_string(&r.map_err(|e| Refusal::from(&e)))
            }
        };
        json.unwrap_or_default()
    }
}
