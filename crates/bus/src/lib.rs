//! The bus between server nodes (issue 29): what one `qiju serve` process
//! must tell another when several serve the same players on one
//! PostgreSQL. It is Redis publish/subscribe, as lichess links lila and its
//! WebSocket servers, and it carries two things:
//!
//! - **Channels** anyone may publish to and any node subscribe to: a live
//!   game's events (`game:ID`), the lobby's public announcements and every
//!   player's personal events. A subscription is confirmed by Redis before
//!   [`Bus::subscribe`] returns, so whatever is published after it is
//!   heard: a node joining a game owned elsewhere subscribes first and asks
//!   for the game's view second, and drops the events the view already
//!   holds (by their version).
//! - **Requests to one node** and their replies: a move for a game owned by
//!   another node is sent to that node's own channel (`node:ID`), handled
//!   there by the room that registered the request's topic
//!   ([`Bus::serve`]), and answered on the asking node's channel. Redis
//!   says how many subscribers a publish reached, so a request to a node
//!   that is not there fails at once ([`BusError::NoNode`]) rather than
//!   at its timeout.
//!
//! Publishing never waits: messages go to one task that sends whatever
//! has queued as one pipeline, in order, so a game's events reach other
//! nodes in the order the game made them. Pub/sub delivers at most once:
//! a node that loses its Redis connection misses what was published
//! meanwhile, and its listeners resynchronise by the events' versions as
//! after any reconnect. What must survive is in PostgreSQL, never only on
//! the bus.
//!
//! Every message carries the moment it was published, so each node
//! measures the bus's lag for `/metrics` ([`Bus::register`]).

use futures_util::StreamExt;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};

/// Why the bus could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    #[error("the bus (Redis) is unreachable: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("node {0} is not on the bus")]
    NoNode(String),
    #[error("node {0} did not answer in time")]
    Timeout(String),
    #[error("`{0}` is not a bus address: give redis://HOST[:PORT][/DB]")]
    BadUrl(String),
}

/// What a room answers a request with: the reply's body.
pub type Reply = Pin<Box<dyn Future<Output = String> + Send>>;

/// A room's handler of one topic of requests.
pub type Handler = Arc<dyn Fn(String) -> Reply + Send + Sync>;

/// Messages on a node's own channel.
#[derive(Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "lowercase")]
enum NodeMsg {
    /// A request; `id` 0 wants no reply (a notice, e.g. a socket closed).
    Req {
        id: u64,
        from: String,
        topic: String,
        body: String,
    },
    Rep {
        id: u64,
        body: String,
    },
}

/// The lag buckets, in seconds: a message from publish to the subscriber's
/// hand. On loopback it is well under a millisecond; the buckets go up to
/// a second for a loaded Redis.
const LAG_BUCKETS: [f64; 10] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.05, 0.25, 1.0,
];

/// The bus, cheap to clone.
#[derive(Clone)]
pub struct Bus(Arc<Inner>);

impl std::fmt::Debug for Bus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bus")
            .field("node", &self.0.node)
            .field("namespace", &self.0.ns)
            .finish_non_exhaustive()
    }
}

struct Inner {
    node: String,
    /// Every channel's name starts with it: several platforms (or test
    /// runs) may share one Redis, whose pub/sub ignores its databases.
    ns: String,
    client: redis::Client,
    out: mpsc::UnboundedSender<(String, String)>,
    conn: ConnectionManager,
    /// The subscribing connection's sink, replaced when it reconnects.
    sink: tokio::sync::Mutex<Option<redis::aio::PubSubSink>>,
    subs: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    pending: Mutex<HashMap<u64, oneshot::Sender<String>>>,
    handlers: RwLock<HashMap<String, Handler>>,
    next: AtomicU64,
    published: Counter,
    received: Counter,
    lag: Histogram,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Milliseconds since the epoch, with a fraction: the publish stamp.
fn now_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
}

impl Bus {
    /// Connects node `node` to the Redis at `url`, its channels under
    /// `namespace`, and listens on its own channel.
    ///
    /// # Errors
    /// The URL is not Redis's, or Redis does not answer.
    pub async fn connect(url: &str, node: &str, namespace: &str) -> Result<Bus, BusError> {
        if !url.starts_with("redis://") && !url.starts_with("rediss://") && !url.starts_with("unix://") {
            return Err(BusError::BadUrl(url.to_string()));
        }
        let client = redis::Client::open(url)?;
        let conn = ConnectionManager::new(client.clone()).await?;
        let (out, rx) = mpsc::unbounded_channel();
        let bus = Bus(Arc::new(Inner {
            node: node.to_string(),
            ns: namespace.to_string(),
            client,
            out,
            conn,
            sink: tokio::sync::Mutex::new(None),
            subs: Mutex::new(HashMap::new()),
            pending: Mutex::new(HashMap::new()),
            handlers: RwLock::new(HashMap::new()),
            next: AtomicU64::new(1),
            published: Counter::default(),
            received: Counter::default(),
            lag: Histogram::new(LAG_BUCKETS),
        }));
        let stream = bus.listen().await?;
        tokio::spawn(publisher(bus.0.conn.clone(), rx));
        tokio::spawn(bus.clone().receive(stream));
        tokio::spawn(bus.clone().collect_unused());
        Ok(bus)
    }

    /// This node's id.
    #[must_use]
    pub fn node(&self) -> &str {
        &self.0.node
    }

    fn channel(&self, name: &str) -> String {
        format!("{}:{name}", self.0.ns)
    }

    /// A fresh subscribing connection, subscribed to this node's channel
    /// and every channel someone here listens to.
    async fn listen(&self) -> Result<redis::aio::PubSubStream, BusError> {
        let pubsub = self.0.client.get_async_pubsub().await?;
        let (mut sink, stream) = pubsub.split();
        sink.subscribe(self.channel(&format!("node:{}", self.0.node)))
            .await?;
        let names: Vec<String> = lock(&self.0.subs).keys().cloned().collect();
        for name in names {
            sink.subscribe(name).await?;
        }
        *self.0.sink.lock().await = Some(sink);
        Ok(stream)
    }

    /// Reads the subscribing connection until it drops, then connects
    /// again (every second until Redis is back).
    async fn receive(self, mut stream: redis::aio::PubSubStream) {
        let own = self.channel(&format!("node:{}", self.0.node));
        loop {
            while let Some(msg) = stream.next().await {
                let Ok(payload) = msg.get_payload::<String>() else {
                    continue;
                };
                let Some((stamp, body)) = payload.split_once('\n') else {
                    continue;
                };
                self.0.received.inc();
                if let Ok(at) = stamp.parse::<u64>() {
                    #[allow(clippy::cast_precision_loss)]
                    self.0.lag.observe(now_us().saturating_sub(at) as f64 / 1e6);
                }
                let channel = msg.get_channel_name();
                if channel == own {
                    self.on_node_message(body);
                } else if let Some(tx) = lock(&self.0.subs).get(channel) {
                    let _ = tx.send(Arc::from(body));
                }
            }
            tracing::warn!("lost the bus's subscribing connection; reconnecting");
            stream = loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                match self.listen().await {
                    Ok(s) => break s,
                    Err(e) => tracing::warn!(error = %e, "cannot reach the bus"),
                }
            };
            tracing::info!("the bus is back");
        }
    }

    fn on_node_message(&self, body: &str) {
        match serde_json::from_str::<NodeMsg>(body) {
            Ok(NodeMsg::Rep { id, body }) => {
                if let Some(tx) = lock(&self.0.pending).remove(&id) {
                    let _ = tx.send(body);
                }
            }
            Ok(NodeMsg::Req {
                id,
                from,
                topic,
                body,
            }) => {
                let handler = self
                    .0
                    .handlers
                    .read()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .get(&topic)
                    .cloned();
                let Some(handler) = handler else {
                    tracing::warn!(%topic, %from, "a request of a topic no room here serves");
                    return;
                };
                let bus = self.clone();
                tokio::spawn(async move {
                    let answer = handler(body).await;
                    if id != 0 {
                        let rep =
                            serde_json::to_string(&NodeMsg::Rep { id, body: answer }).unwrap_or_default();
                        bus.publish(&format!("node:{from}"), rep);
                    }
                });
            }
            Err(e) => tracing::warn!(error = %e, "an unreadable message on this node's channel"),
        }
    }

    /// Unsubscribes, every few seconds, from the channels no one here
    /// listens to any more (a game's last spectator left).
    async fn collect_unused(self) {
        let mut tick = tokio::time::interval(Duration::from_secs(5));
        loop {
            tick.tick().await;
            if Arc::strong_count(&self.0) <= 2 {
                // Only this task and the receiver hold the bus: the
                // server stopped.
                return;
            }
            let unused: Vec<String> = {
                let mut subs = lock(&self.0.subs);
                let names = subs
                    .iter()
                    .filter(|(_, tx)| tx.receiver_count() == 0)
                    .map(|(n, _)| n.clone())
                    .collect::<Vec<_>>();
                for n in &names {
                    subs.remove(n);
                }
                names
            };
            if unused.is_empty() {
                continue;
            }
            if let Some(sink) = self.0.sink.lock().await.as_mut() {
                for n in unused {
                    if let Err(e) = sink.unsubscribe(&n).await {
                        tracing::warn!(error = %e, channel = %n, "cannot unsubscribe");
                    }
                }
            }
        }
    }

    /// Publishes `body` on channel `name` (under the namespace); never
    /// waits. Messages of one node reach every subscriber in the order
    /// they were published.
    pub fn publish(&self, name: &str, body: impl AsRef<str>) {
        self.0.published.inc();
        let framed = format!("{}\n{}", now_us(), body.as_ref());
        let _ = self.0.out.send((self.channel(name), framed));
    }

    /// Listens to channel `name`. Whatever is published on it after this
    /// returns is heard.
    ///
    /// # Errors
    /// Redis did not confirm the subscription.
    pub async fn subscribe(&self, name: &str) -> Result<broadcast::Receiver<Arc<str>>, BusError> {
        let channel = self.channel(name);
        let (rx, new) = {
            let mut subs = lock(&self.0.subs);
            match subs.get(&channel) {
                Some(tx) => (tx.subscribe(), false),
                None => {
                    let tx = broadcast::channel(256).0;
                    let rx = tx.subscribe();
                    subs.insert(channel.clone(), tx);
                    (rx, true)
                }
            }
        };
        if new {
            let mut sink = self.0.sink.lock().await;
            let sink = sink
                .as_mut()
                .ok_or_else(|| BusError::NoNode(self.0.node.clone()))?;
            sink.subscribe(&channel).await?;
        }
        Ok(rx)
    }

    /// Serves requests of `topic` sent to this node with `handler`.
    pub fn serve(&self, topic: &str, handler: Handler) {
        self.0
            .handlers
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(topic.to_string(), handler);
    }

    /// Sends `body` to node `node`'s handler of `topic` and waits up to
    /// `timeout` for its answer.
    ///
    /// # Errors
    /// The node is not on the bus, or did not answer in time.
    pub async fn request(
        &self,
        node: &str,
        topic: &str,
        body: String,
        timeout: Duration,
    ) -> Result<String, BusError> {
        let id = self.0.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        lock(&self.0.pending).insert(id, tx);
        let sent = self.send(node, id, topic, body).await;
        let answer = match sent {
            Ok(()) => tokio::time::timeout(timeout, rx)
                .await
                .ok()
                .and_then(Result::ok)
                .ok_or_else(|| BusError::Timeout(node.to_string())),
            Err(e) => Err(e),
        };
        lock(&self.0.pending).remove(&id);
        answer
    }

    /// Sends `body` to node `node`'s handler of `topic`, wanting no answer.
    ///
    /// # Errors
    /// The node is not on the bus.
    pub async fn tell(&self, node: &str, topic: &str, body: String) -> Result<(), BusError> {
        self.send(node, 0, topic, body).await
    }

    /// Sends `body` to node `node`'s handler of `topic` without waiting,
    /// in order with everything this node publishes; lost if the node is
    /// not there (a socket's closing, which the node that took the game
    /// over does not need).
    pub fn cast(&self, node: &str, topic: &str, body: &str) {
        let msg = NodeMsg::Req {
            id: 0,
            from: self.0.node.clone(),
            topic: topic.to_string(),
            body: body.to_string(),
        };
        if let Ok(json) = serde_json::to_string(&msg) {
            self.publish(&format!("node:{node}"), json);
        }
    }

    async fn send(&self, node: &str, id: u64, topic: &str, body: String) -> Result<(), BusError> {
        let msg = NodeMsg::Req {
            id,
            from: self.0.node.clone(),
            topic: topic.to_string(),
            body,
        };
        let framed = format!(
            "{}\n{}",
            now_us(),
            serde_json::to_string(&msg).unwrap_or_default()
        );
        self.0.published.inc();
        let reached: i64 = redis::cmd("PUBLISH")
            .arg(self.channel(&format!("node:{node}")))
            .arg(framed)
            .query_async(&mut self.0.conn.clone())
            .await?;
        if reached == 0 {
            return Err(BusError::NoNode(node.to_string()));
        }
        Ok(())
    }

    /// Messages this node published and received since it started.
    #[must_use]
    pub fn counts(&self) -> (u64, u64) {
        (self.0.published.get(), self.0.received.get())
    }

    /// Registers the bus's numbers under `qiju_bus_…` names: messages out
    /// and in, and the lag of what came in (publish to this node's hand).
    pub fn register(&self, registry: &mut Registry) {
        registry.register(
            "qiju_bus_published",
            "Messages this node published on the bus",
            self.0.published.clone(),
        );
        registry.register(
            "qiju_bus_received",
            "Messages this node received from the bus",
            self.0.received.clone(),
        );
        registry.register(
            "qiju_bus_lag_seconds",
            "Time from a message's publish to its arrival at this node",
            self.0.lag.clone(),
        );
    }
}

/// Sends what is published, in order, each batch that queued meanwhile as
/// one pipeline.
async fn publisher(mut conn: ConnectionManager, mut rx: mpsc::UnboundedReceiver<(String, String)>) {
    let mut batch = Vec::with_capacity(256);
    while rx.recv_many(&mut batch, 256).await > 0 {
        let mut pipe = redis::pipe();
        for (channel, body) in batch.drain(..) {
            pipe.cmd("PUBLISH").arg(channel).arg(body).ignore();
        }
        if let Err(e) = pipe.query_async::<()>(&mut conn).await {
            tracing::warn!(error = %e, "lost messages to the bus");
        }
    }
}
