//! What the play room counts for the operator's Prometheus (issue 29, item
//! 5): the actions players send to live games and how long a move takes
//! from the server's hand to every listener. The server exposes them with
//! the other rooms' numbers at `/metrics` (`server::metrics`).

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::time::Duration;

/// The upper bounds of the move-latency buckets, in seconds: 0.5 ms to
/// 2.5 s. A move's time is mostly the commit that stores it (group commit,
/// `store::append`), so the buckets are fine below 10 ms, where the
/// issue's p99 target lies.
const MOVE_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 1.0, 2.5,
];

/// An action's kind and whether the game took it.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ActionLabels {
    /// `move`, or `other` (offers, claims, resignations …).
    pub action: &'static str,
    /// `accepted` or `refused` (illegal, not your turn, game over …).
    pub outcome: &'static str,
}

/// The play room's numbers. Cloning shares them.
#[derive(Clone, Debug)]
pub struct PlayMetrics {
    actions: Family<ActionLabels, Counter>,
    move_seconds: Histogram,
    /// Actions sent to the node that owns their game (issue 29), and how
    /// long a forwarded move took there and back.
    forwarded: Family<ActionLabels, Counter>,
    forwarded_move_seconds: Histogram,
    /// Games this node took over from a node whose lease ran out.
    takeovers: Counter,
}

impl Default for PlayMetrics {
    fn default() -> Self {
        PlayMetrics {
            actions: Family::default(),
            move_seconds: Histogram::new(MOVE_BUCKETS),
            forwarded: Family::default(),
            forwarded_move_seconds: Histogram::new(MOVE_BUCKETS),
            takeovers: Counter::default(),
        }
    }
}

impl PlayMetrics {
    /// An action's answer; for an accepted move, how long it took from
    /// the game's mailbox to stored and told to every listener.
    pub fn action(&self, is_move: bool, accepted: bool, took: Duration) {
        let labels = ActionLabels {
            action: if is_move { "move" } else { "other" },
            outcome: if accepted { "accepted" } else { "refused" },
        };
        self.actions.get_or_create(&labels).inc();
        if is_move && accepted {
            self.move_seconds.observe(took.as_secs_f64());
        }
    }

    /// An action forwarded over the bus to its game's owner node, and for
    /// a move the round trip (the owner's commit included).
    pub fn forwarded(&self, is_move: bool, took: Duration) {
        let labels = ActionLabels {
            action: if is_move { "move" } else { "other" },
            outcome: "forwarded",
        };
        self.forwarded.get_or_create(&labels).inc();
        if is_move {
            self.forwarded_move_seconds.observe(took.as_secs_f64());
        }
    }

    /// A game taken over from a node whose lease ran out.
    pub fn taken_over(&self) {
        self.takeovers.inc();
    }

    /// Registers the numbers under `qiju_…` names.
    pub fn register(&self, registry: &mut Registry) {
        registry.register(
            "qiju_game_actions",
            "Actions players sent to live games, by kind and answer",
            self.actions.clone(),
        );
        registry.register(
            "qiju_move_seconds",
            "Time from a move reaching its game to stored and sent to every listener",
            self.move_seconds.clone(),
        );
        registry.register(
            "qiju_forwarded_actions",
            "Actions sent over the bus to the node that owns their game",
            self.forwarded.clone(),
        );
        registry.register(
            "qiju_forwarded_move_seconds",
            "Time from a move sent to its game's owner node to its answer, across the bus",
            self.forwarded_move_seconds.clone(),
        );
        registry.register(
            "qiju_lease_takeovers",
            "Live games this node took over from a node whose lease ran out",
            self.takeovers.clone(),
        );
    }
}
