//! The node's numbers for Prometheus (issue 29, item 5), at `GET /metrics`
//! in the OpenMetrics text format Prometheus scrapes. Off unless the
//! operator sets a token (`qiju serve --metrics-token`, or
//! `QIJU_METRICS_TOKEN`): the scraper sends it as `Authorization: Bearer
//! …`. A token rather than "loopback only", because behind the nginx of
//! docs/DEPLOY.md every request comes from loopback.
//!
//! The rooms count what happens in them (`play::metrics`); this module
//! adds what is read at scrape time: live games, players online, open
//! sessions, and which node answers.

use crate::AppState;
use axum::extract::State;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct NodeLabels {
    node: String,
}

/// Every number the node exposes, registered once at start.
pub struct Metrics {
    registry: Registry,
    live_games: Gauge,
    online: Gauge,
    sessions: Gauge,
}

impl Metrics {
    /// The registry of this node: the rooms' numbers and the gauges read
    /// at scrape time.
    #[must_use]
    pub fn new(play: &play::Play, node: &str) -> Metrics {
        let mut registry = Registry::default();
        play.metrics().register(&mut registry);
        if let Some(bus) = play.bus() {
            bus.register(&mut registry);
        }
        let live_games = Gauge::default();
        let online = Gauge::default();
        let sessions = Gauge::default();
        let info: Family<NodeLabels, Gauge> = Family::default();
        info.get_or_create(&NodeLabels {
            node: node.to_string(),
        })
        .set(1);
        registry.register("qiju_live_games", "Live games this node owns", live_games.clone());
        registry.register(
            "qiju_players_online",
            "Players with a lobby socket or event stream open on this node",
            online.clone(),
        );
        registry.register(
            "qiju_open_sessions",
            "Sessions with a socket or stream open on this node",
            sessions.clone(),
        );
        registry.register("qiju_node", "This node's name (always 1)", info);
        Metrics {
            registry,
            live_games,
            online,
            sessions,
        }
    }

    /// The text a scrape reads, with the gauges read now.
    fn render(&self, state: &AppState) -> String {
        self.live_games.set(state.play().games().len() as i64);
        self.online.set(state.lobby().online_here() as i64);
        self.sessions.set(state.sessions().open() as i64);
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

/// `GET /metrics`: 404 without a configured token (the endpoint is not
/// there), 401 with a wrong or missing one.
pub async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(expected) = &state.config().metrics_token else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let given = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    // Compared as hashes: equal-length digests, so the time taken says
    // nothing about how much of the token was right.
    if accounts::token_hash(given) != accounts::token_hash(expected) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    (
        [(
            CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        state.metrics().render(&state),
    )
        .into_response()
}
