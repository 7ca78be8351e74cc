//! Events across nodes (issue 29): one node runs an event — it pairs its
//! rounds and scores its games under the event's lock (`Events::lock`),
//! which holds within one process only. A change asked of another node
//! (a player joins there, the arbiter's button is pressed there) is sent
//! over the bus to the event's node and made there, through the same
//! functions a request to that node calls, so that two nodes never pair
//! the same round or rule on the same board at once. Reads need no
//! forwarding: everything an event knows is in the database.

use crate::{
    ArbiterRequest, Events, FoulRequest, JoinRequest, PlayerAction, ResultRequest, TeamForfeitRequest,
    TeamReadmitRequest, TeamWithdrawRequest,
};
use common::{Error, Refusal};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use store::User;

/// The topic of requests to an event's node.
const TOPIC: &str = "events";
/// How long the event's node may take: pairing a large Swiss round and
/// starting its games is the slowest change.
const ANSWER_WITHIN: Duration = Duration::from_secs(30);

/// A change to an event, asked of the node that runs it.
#[derive(Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
pub(crate) enum Call {
    Join {
        id: String,
        by: User,
        req: JoinRequest,
    },
    Withdraw {
        id: String,
        by: User,
    },
    Player {
        id: String,
        by: User,
        player: User,
        action: PlayerAction,
    },
    SetResult {
        id: String,
        by: User,
        req: ResultRequest,
    },
    Arbiter {
        id: String,
        by: User,
        req: ArbiterRequest,
    },
    PairNext {
        id: String,
        by: User,
    },
    RegisterTeam {
        id: String,
        by: User,
        name: String,
        code: Option<String>,
        players: Vec<User>,
    },
    Lineup {
        id: String,
        by: User,
        round: u32,
        players: Vec<String>,
    },
    Foul {
        id: String,
        by: User,
        req: FoulRequest,
    },
    TeamForfeit {
        id: String,
        by: User,
        req: TeamForfeitRequest,
    },
    TeamWithdraw {
        id: String,
        by: User,
        req: TeamWithdrawRequest,
    },
    Armageddon {
        id: String,
        by: User,
        req: crate::ArmageddonRequest,
    },
    TeamReadmit {
        id: String,
        by: User,
        req: TeamReadmitRequest,
    },
}

/// The codes of this room's bad requests and conflicts, read back as
/// themselves when a refusal comes from the event's node
/// (`every_code_crosses_the_bus` keeps the list whole).
const CODES: [&str; 62] = [
    "all_rounds_paired",
    "already_arbiter",
    "already_captain",
    "already_entered",
    "already_withdrawn",
    "arena_started",
    "bad_boards",
    "bad_duration",
    "bad_event_name",
    "bad_forfeit_time",
    "bad_invitation_code",
    "bad_lineup",
    "bad_lineups",
    "bad_match_format",
    "bad_min_rated_games",
    "bad_player",
    "bad_rating_range",
    "bad_reason",
    "bad_result",
    "bad_roster",
    "bad_round",
    "bad_round_starts",
    "bad_round_interval",
    "bad_rounds",
    "bad_scoring",
    "bad_side",
    "bad_stages",
    "bad_state",
    "bad_team_match",
    "bad_team_name",
    "bad_team_terms",
    "bad_time_control",
    "bad_variant",
    "bye",
    "event_finished",
    "event_full",
    "event_not_finished",
    "event_not_started",
    "event_paused",
    "event_started",
    "late_entry_round_robin",
    "lineup_deadline",
    "no_berserk",
    "no_choice_pending",
    "no_game",
    "no_lineups",
    "no_pairing",
    "no_winner",
    "not_a_team_event",
    "not_an_arbiter",
    "not_your_choice",
    "not_withdrawn",
    "nothing_to_repair",
    "round_not_finished",
    "round_started",
    "team_event",
    "team_name_taken",
    "team_roster",
    "too_few_players",
    "too_few_teams",
    "too_many_events",
    "wrong_players",
];

fn reply<T: Serialize>(r: Result<T, Error>) -> String {
    serde_json::to_string(&r.map_err(|e| Refusal::from(&e))).unwrap_or_default()
}

impl Events {
    /// Answers the other nodes' calls (at start, when there is a bus).
    pub(crate) fn serve_bus(&self) {
        let Some(bus) = self.play().bus() else { return };
        let me = self.clone();
        bus.serve(
            TOPIC,
            Arc::new(move |body: String| {
                let me = me.clone();
                Box::pin(async move { me.answer(&body).await })
            }),
        );
    }

    /// The node that runs event `id`, when it is another and a bus links
    /// them; `None`: the change is made here.
    async fn runs_at(&self, id: &str) -> Result<Option<String>, Error> {
        if self.play().bus().is_none() {
            return Ok(None);
        }
        self.other_node(id).await
    }

    /// The node that runs event `id` when it is not this one.
    pub(crate) async fn other_node(&self, id: &str) -> Result<Option<String>, Error> {
        Ok(self
            .store()
            .event(id)
            .await?
            .filter(|e| !self.runs_here(e))
            .map(|e| e.node))
    }

    /// Whether this node runs the event: its row's `node`, which a
    /// takeover moves. Only that node pairs the event and scores its games.
    pub(crate) fn runs_here(&self, ev: &store::EventRow) -> bool {
        ev.node == self.play().config().node_id
    }

    /// Makes the change `call` at event `id`'s node if that is another:
    /// `Some` with its answer, or `None` to make it here.
    pub(crate) async fn forwarded<T: DeserializeOwned>(
        &self,
        id: &str,
        call: impl FnOnce() -> Call,
    ) -> Result<Option<T>, Error> {
        let Some(node) = self.runs_at(id).await? else {
            return Ok(None);
        };
        let bus = self.play().bus().ok_or(Error::Unavailable)?;
        // What this node's readers kept of the event is forgotten, so that
        // whoever asked reads the change here at once.
        let _forget = Forget(self, id);
        let body = serde_json::to_string(&call()).map_err(|e| Error::Internal(e.to_string()))?;
        let answer = bus
            .request(&node, TOPIC, body, ANSWER_WITHIN)
            .await
            .map_err(|e| {
                // Its node stopped: another takes the event over within a
                // lease, and the change can be asked again.
                tracing::warn!(error = %e, event = %id, %node, "an event's node did not answer");
                Error::Unavailable
            })?;
        serde_json::from_str::<Result<T, Refusal>>(&answer)
            .map_err(|_| Error::Unavailable)?
            .map(Some)
            .map_err(|r| r.into_error(&CODES))
    }

    /// Another node's call, made here as a request to this node would.
    async fn answer(&self, body: &str) -> String {
        let Ok(call) = serde_json::from_str::<Call>(body) else {
            return String::new();
        };
        match call {
            Call::Join { id, by, req } => reply(self.join(&id, &by, req).await),
            Call::Withdraw { id, by } => reply(self.withdraw(&id, &by).await),
            Call::Player {
                id,
                by,
                player,
                action,
            } => reply(self.player_action(&id, &by, &player, action).await),
            Call::SetResult { id, by, req } => reply(self.set_result(&id, &by, req).await),
            Call::Arbiter { id, by, req } => reply(self.arbiter_action(&id, &by, req).await),
            Call::PairNext { id, by } => reply(self.pair_next(&id, &by).await),
            Call::RegisterTeam {
                id,
                by,
                name,
                code,
                players,
            } => reply(
                self.register_team(&id, &by, &name, code.as_deref(), &players)
                    .await,
            ),
            Call::Lineup {
                id,
                by,
                round,
                players,
            } => reply(self.submit_lineup(&id, &by, round, &players).await),
            Call::Foul { id, by, req } => reply(self.record_foul(&id, &by, req).await),
            Call::TeamForfeit { id, by, req } => reply(self.team_forfeit(&id, &by, req).await),
            Call::TeamWithdraw { id, by, req } => reply(self.withdraw_team(&id, &by, req).await),
            Call::Armageddon { id, by, req } => reply(self.choose_armageddon(&id, &by, req).await),
            Call::TeamReadmit { id, by, req } => reply(self.readmit_team(&id, &by, req).await),
        }
    }
}

/// Forgets what this node's readers kept of an event when dropped: after
/// a change asked of its node, answered or not.
struct Forget<'a>(&'a Events, &'a str);

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        self.0.changed(self.1);
    }
}

#[cfg(test)]
mod tests {
    use super::CODES;

    /// Every code a refusal of this room can carry is one the other node
    /// reads back: a code added without being listed here fails this.
    #[test]
    fn every_code_crosses_the_bus() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![src];
        let mut found = std::collections::BTreeSet::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for start in ["Error::bad(", "Error::conflict("] {
                for (at, _) in text.match_indices(start) {
                    let rest = text[at + start.len()..].trim_start();
                    let code = rest.strip_prefix('"').and_then(|r| r.split('"').next());
                    if let Some(code) = code
                        .filter(|c| !c.is_empty() && c.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
                    {
                        found.insert(code.to_string());
                    }
                }
            }
        }
        assert!(found.len() > 30, "the scan finds the room's codes: {found:?}");
        let missing: Vec<_> = found.iter().filter(|c| !CODES.contains(&c.as_str())).collect();
        assert!(
            missing.is_empty(),
            "codes missing from remote::CODES: {missing:?}"
        );
    }
}
