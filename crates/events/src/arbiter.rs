//! Who may do what to an event: creating one (casual: any registered
//! account; rated: an organiser the operator named), joining and
//! withdrawing (seed 000 20.1–20.4), and the arbiter's tools — withdraw or
//! re-admit a player, add a late entry, set or correct a result. Every
//! change is logged with who and when.

use crate::remote::Call;
use crate::spec::{BoardResult, NewEvent};
use crate::view::{EntryView, EventView};
use crate::Events;
use common::Error;
use serde::{Deserialize, Serialize};
use store::{EntryRow, EventRow, User};
use utoipa::ToSchema;

/// Joining: the invitation code, where the event has one.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    pub code: Option<String>,
}

/// What the arbiter does to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayerAction {
    /// Not paired from the next round on (20.4); a game in progress is
    /// played out.
    Withdraw,
    /// Paired again from the next round on.
    Readmit,
    /// A late entry (Swiss only): paired from the next round, the rounds
    /// missed blank.
    LateEntry,
    /// The organiser names the player an arbiter of the event: they hold
    /// every arbiter's tool here, as the organiser does.
    NameArbiter,
    /// The organiser takes a named arbiter's tools back.
    RemoveArbiter,
}

#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerRequest {
    pub action: PlayerAction,
    /// The player's account name.
    pub player: String,
}

/// Setting or correcting a board's result.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultRequest {
    pub round: u32,
    pub board: u32,
    /// `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+` or `--`.
    pub result: String,
    /// Why (an adjudication, a penalty, a correction): kept in the log.
    #[serde(default)]
    pub reason: String,
}

/// An entry as the API shows it.
pub(crate) fn entry_view(e: &EntryRow, withdrawn: bool) -> EntryView {
    EntryView {
        number: e.number,
        name: e.name.clone(),
        rating: e.rating,
        withdrawn,
        withdrawn_from: if withdrawn { e.withdrawn_from } else { None },
        late: e.late,
        first_round: e.first_round,
    }
}

fn registered(u: &User, what: &str) -> Result<(), Error> {
    if u.guest {
        return Err(Error::Forbidden(format!(
            "guests cannot {what}: register an account"
        )));
    }
    Ok(())
}

impl Events {
    /// Creates an event with `by` as its organiser and arbiter.
    ///
    /// # Errors
    /// A guest; a rated event by an account the operator has not made an
    /// organiser; bad terms.
    pub async fn create(&self, by: &User, req: NewEvent) -> Result<EventView, Error> {
        registered(by, "organise events")?;
        let terms = req.check()?;
        if terms.rated && !self.store().is_organiser(&by.id).await? {
            return Err(Error::Forbidden(
                "rated events are organised by accounts the operator names (`qiju admin organiser NAME`); \
                 this one may organise casual events"
                    .into(),
            ));
        }
        let open = self.store().unfinished_events_of(&by.id).await?;
        if open >= crate::spec::MAX_OPEN_EVENTS {
            return Err(Error::conflict(
                "too_many_events",
                format!(
                    "you organise {open} events that are not finished; finish one first (at most {})",
                    crate::spec::MAX_OPEN_EVENTS
                ),
            ));
        }
        let id = common::random_id(8)?;
        let row = EventRow {
            id: id.clone(),
            node: self.play().config().node_id.clone(),
            name: terms.name.clone(),
            organiser_id: by.id.clone(),
            variant: terms.variant.id.to_string(),
            time_control: terms.time_control.to_string(),
            rated: terms.rated,
            system: terms.system.as_str().to_string(),
            rounds: terms.rounds,
            scoring: terms.scoring.as_str().to_string(),
            tiebreaks: terms.tiebreaks.as_str().to_string(),
            min_rating: terms.min_rating,
            max_rating: terms.max_rating,
            invitation: terms.invitation.clone(),
            starts: serde_json::to_string(&terms.starts).unwrap_or_else(|_| "[]".into()),
            match_games: terms.match_format.games,
            playoff_games: terms.match_format.playoff_games,
            armageddon: terms.match_format.armageddon,
            playoff_time_control: terms.playoff_time_control.to_string(),
            state: "open".into(),
            current_round: 0,
            created_ms: common::now_ms(),
            finished_ms: None,
            duration_ms: terms.duration_ms,
            berserk: terms.berserk,
            ends_ms: None,
            paused: false,
            published_ms: None,
            boards: terms.boards,
            substitutes: terms.substitutes,
            first_to: terms.match_format.first_to,
            min_rated_games: terms.min_rated_games,
            forfeit_after_ms: terms.forfeit_after_ms,
            round_interval_ms: terms.round_interval_ms,
            armageddon_choice_ms: terms.armageddon_choice_ms,
            group_count: terms.stages.map_or(0, |s| s.groups),
            group_size: terms.stages.map_or(0, |s| s.group_size),
            advance_per_group: terms.stages.map_or(0, |s| s.advance),
            final_size: terms.stages.map_or(0, |s| s.final_size),
            groups_by_lot: terms.groups_by_lot,
            lineups_any_order: terms.lineups_any_order,
            team_all_play_all: terms.team_all_play_all,
            team_ranking_places: terms.team_ranking_places,
        };
        self.store().insert_event(&row).await?;
        self.log(
            &id,
            Some(by),
            "create",
            &format!(
                "{} {}, {} rounds, {} {}",
                terms.system.as_str(),
                terms.variant.id,
                terms.rounds,
                row.time_control,
                if terms.rated { "rated" } else { "casual" }
            ),
        )
        .await?;
        self.get(&id, Some(by)).await
    }

    /// `by` enters the event (before its first round is paired).
    ///
    /// # Errors
    /// A guest; the event started; a wrong invitation code; a rating
    /// outside the event's range; entered already.
    pub async fn join(&self, id: &str, by: &User, req: JoinRequest) -> Result<EntryView, Error> {
        if let Some(done) = self
            .forwarded(id, || Call::Join {
                id: id.into(),
                by: by.clone(),
                req: req.clone(),
            })
            .await?
        {
            return Ok(done);
        }
        registered(by, "enter events")?;
        let _one = self.lock(id).await;
        let l = self.load(id).await?;
        let arena = l.system == crate::System::Arena;
        if arena && l.event.state == "running" {
            // An arena takes players until its end, and a paused player
            // comes back by joining again.
            if l.event.ends_ms.is_some_and(|end| common::now_ms() >= end) {
                return Err(Error::conflict("event_finished", "the arena's time is up"));
            }
            if let Some(entry) = l.entry_of(&by.id) {
                if !entry.withdrawn {
                    return Err(Error::conflict(
                        "already_entered",
                        format!("{} is in the arena already", by.name),
                    ));
                }
                self.store().set_withdrawn(id, &by.id, None).await?;
                self.log(
                    id,
                    Some(by),
                    "rejoin",
                    &format!("{} is back in the arena", by.name),
                )
                .await?;
                return Ok(entry_view(entry, false));
            }
        }
        if l.system.is_team() {
            return Err(Error::conflict(
                "team_event",
                "a team event is entered by a team: its captain registers the roster (POST /api/events/{id}/teams)",
            ));
        }
        if l.event.state != "open" && !(arena && l.event.state == "running") {
            return Err(Error::conflict(
                "event_started",
                "the event has started: only its arbiter may add a late entry",
            ));
        }
        if let Some(code) = &l.event.invitation {
            if req.code.as_deref().map(str::trim) != Some(code.as_str()) {
                return Err(Error::Forbidden("this event needs its invitation code".into()));
            }
        }
        let entry = self.entry_for(&l.event, by, false, 1).await?;
        self.enter(id, &entry, Some(by), "join").await
    }

    /// The entry `user` would have; refused outside the rating range.
    pub(crate) async fn entry_for(
        &self,
        e: &EventRow,
        user: &User,
        late: bool,
        first_round: u32,
    ) -> Result<EntryRow, Error> {
        let variant = registry::get(Some(&e.variant))
            .map_err(|err| Error::Internal(format!("event {}: {err}", e.id)))?;
        let pool = self.store().rating(&user.id, variant.rating_pool).await?;
        let rating = pool.rating.rating.round() as i64;
        if pool.rating.games < e.min_rated_games {
            return Err(Error::Forbidden(format!(
                "{} has {} rated games in the {} pool; this event takes players with at least {}",
                user.name, pool.rating.games, variant.rating_pool, e.min_rated_games
            )));
        }
        let low = e.min_rating.is_some_and(|m| rating < m);
        let high = e.max_rating.is_some_and(|m| rating > m);
        if low || high {
            return Err(Error::Forbidden(format!(
                "{}'s rating {rating} is outside this event's range {}–{}",
                user.name,
                e.min_rating.map_or_else(String::new, |m| m.to_string()),
                e.max_rating.map_or_else(String::new, |m| m.to_string()),
            )));
        }
        Ok(EntryRow {
            user_id: user.id.clone(),
            number: 0,
            name: user.name.clone(),
            rating,
            withdrawn: false,
            withdrawn_from: None,
            late,
            first_round,
            joined_ms: common::now_ms(),
        })
    }

    async fn enter(
        &self,
        id: &str,
        entry: &EntryRow,
        by: Option<&User>,
        action: &str,
    ) -> Result<EntryView, Error> {
        let l = self.load(id).await?;
        let cap = match l.system {
            crate::System::Swiss => crate::spec::MAX_SWISS_ENTRIES,
            crate::System::Arena => crate::spec::MAX_ARENA_ENTRIES,
            crate::System::Knockout | crate::System::DoubleElimination => crate::spec::MAX_KNOCKOUT_ENTRIES,
            crate::System::GroupsKnockout => (l.event.group_count * l.event.group_size) as usize,
            _ => crate::spec::MAX_ROUND_ROBIN_ENTRIES,
        };
        if l.entries.len() >= cap {
            return Err(Error::conflict(
                "event_full",
                format!("the event is full ({cap} entries)"),
            ));
        }
        let number = self.store().add_entry(id, entry).await?.ok_or_else(|| {
            Error::conflict("already_entered", format!("{} is entered already", entry.name))
        })?;
        self.log(
            id,
            by,
            action,
            &format!(
                "{} (rating {}) entered as number {number}",
                entry.name, entry.rating
            ),
        )
        .await?;
        Ok(entry_view(
            &EntryRow {
                number,
                ..entry.clone()
            },
            false,
        ))
    }

    /// `by` leaves the event: before the start the entry goes; after it,
    /// the player is not paired from the next round on (seed 000 20.4:
    /// results so far stand; 20.3 in a round robin).
    ///
    /// # Errors
    /// Not entered, or withdrawn already.
    pub async fn withdraw(&self, id: &str, by: &User) -> Result<(), Error> {
        if let Some(done) = self
            .forwarded(id, || Call::Withdraw {
                id: id.into(),
                by: by.clone(),
            })
            .await?
        {
            return Ok(done);
        }
        let _one = self.lock(id).await;
        self.withdraw_locked(id, by, by).await
    }

    async fn withdraw_locked(&self, id: &str, player: &User, by: &User) -> Result<(), Error> {
        let l = self.load(id).await?;
        let entry = l
            .entry_of(&player.id)
            .ok_or_else(|| Error::NotFound(format!("{}'s entry", player.name)))?;
        if entry.withdrawn {
            return Err(Error::conflict(
                "already_withdrawn",
                format!("{} has withdrawn already", player.name),
            ));
        }
        if l.event.state == "finished" {
            return Err(Error::conflict("event_finished", "the event is over"));
        }
        let action = if by.id == player.id {
            "withdraw"
        } else {
            "arbiter_withdraw"
        };
        if l.event.state == "open" && l.system.is_team() {
            return Err(Error::conflict(
                "team_roster",
                format!(
                    "{} is on a team's roster: before the start the roster is its captain's; after it, a withdrawn player's boards are forfeited",
                    player.name
                ),
            ));
        }
        if l.event.state == "open" {
            self.store().remove_entry(id, &player.id).await?;
            return self
                .log(
                    id,
                    Some(by),
                    action,
                    &format!("{} left before the start", player.name),
                )
                .await;
        }
        if l.system == crate::System::Arena {
            // Paused: not paired again until they join again; a game in
            // progress is played out and counts.
            self.store()
                .set_withdrawn(id, &player.id, Some(l.event.current_round))
                .await?;
            return self
                .log(
                    id,
                    Some(by),
                    if action == "withdraw" { "pause" } else { action },
                    &format!("{} left the arena (paused)", player.name),
                )
                .await;
        }
        let from = l.event.current_round + 1;
        self.store().set_withdrawn(id, &player.id, Some(from)).await?;
        self.log(
            id,
            Some(by),
            action,
            &format!(
                "{} (number {}) withdrawn: not paired from round {from} on",
                player.name, entry.number
            ),
        )
        .await
    }

    /// The arbiter's tools for a player: withdraw, re-admit, late entry.
    ///
    /// # Errors
    /// Not the arbiter; no such player; the action does not fit the
    /// player's entry or the event.
    pub async fn player_action(
        &self,
        id: &str,
        by: &User,
        player: &User,
        action: PlayerAction,
    ) -> Result<(), Error> {
        if let Some(done) = self
            .forwarded(id, || Call::Player {
                id: id.into(),
                by: by.clone(),
                player: player.clone(),
                action,
            })
            .await?
        {
            return Ok(done);
        }
        let (_one, l) = self
            .as_arbiter(id, by, "only the event's arbiter may do that")
            .await?;
        match action {
            PlayerAction::Withdraw => self.withdraw_locked(id, player, by).await,
            PlayerAction::NameArbiter | PlayerAction::RemoveArbiter => {
                if l.event.organiser_id != by.id {
                    return Err(Error::Forbidden(
                        "only the event's organiser names its arbiters".into(),
                    ));
                }
                registered(player, "arbitrate events")?;
                let name = action == PlayerAction::NameArbiter;
                if player.id == l.event.organiser_id
                    || !self
                        .store()
                        .set_event_arbiter(id, &player.id, name, common::now_ms())
                        .await?
                {
                    return Err(if name {
                        Error::conflict(
                            "already_arbiter",
                            format!("{} is an arbiter here already", player.name),
                        )
                    } else {
                        Error::conflict(
                            "not_an_arbiter",
                            format!("{} is not a named arbiter here", player.name),
                        )
                    });
                }
                let (what, detail) = if name {
                    ("arbiter_named", format!("{} named an arbiter", player.name))
                } else {
                    ("arbiter_removed", format!("{} no longer an arbiter", player.name))
                };
                self.log(id, Some(by), what, &detail).await
            }
            PlayerAction::Readmit => {
                // No round is left to pair them in (as a team's).
                if l.event.state == "finished" {
                    return Err(Error::conflict("event_finished", "the event is over"));
                }
                let entry = l
                    .entry_of(&player.id)
                    .ok_or_else(|| Error::NotFound(format!("{}'s entry", player.name)))?;
                if !entry.withdrawn {
                    return Err(Error::conflict(
                        "not_withdrawn",
                        format!("{} has not withdrawn", player.name),
                    ));
                }
                self.store().set_withdrawn(id, &player.id, None).await?;
                self.log(
                    id,
                    Some(by),
                    "readmit",
                    &format!(
                        "{} (number {}) re-admitted: paired from round {} on",
                        player.name,
                        entry.number,
                        l.event.current_round + 1
                    ),
                )
                .await
            }
            PlayerAction::LateEntry => {
                registered(player, "enter events")?;
                if l.system.is_team() {
                    return Err(Error::conflict(
                        "team_event",
                        "a team event's players come on their team's roster (POST /api/events/{id}/teams)",
                    ));
                }
                if l.event.state == "finished" {
                    return Err(Error::conflict("event_finished", "the event is over"));
                }
                if l.system != crate::System::Swiss && l.event.state != "open" {
                    return Err(Error::conflict(
                        "late_entry_round_robin",
                        "a round robin's table and a knockout's bracket are fixed once they start: no late entries",
                    ));
                }
                let late = l.event.state != "open";
                let entry = self
                    .entry_for(&l.event, player, late, l.event.current_round + 1)
                    .await?;
                self.enter(id, &entry, Some(by), "late_entry").await.map(|_| ())
            }
        }
    }

    /// The arbiter sets or corrects a board's result (+/−, adjudication, a
    /// penalty, a mistake put right). A ruling on a game still being played
    /// stands when the game ends.
    ///
    /// # Errors
    /// Not the arbiter; no such board; a bye; a bad result.
    pub async fn set_result(&self, id: &str, by: &User, req: ResultRequest) -> Result<(), Error> {
        if let Some(done) = self
            .forwarded(id, || Call::SetResult {
                id: id.into(),
                by: by.clone(),
                req: req.clone(),
            })
            .await?
        {
            return Ok(done);
        }
        let result = BoardResult::parse(&req.result).ok_or_else(|| {
            Error::bad(
                "bad_result",
                format!("{:?} is not 1-0, 0-1, 1/2-1/2, +-, -+ or --", req.result),
            )
        })?;
        if req.reason.chars().count() > 200 {
            return Err(Error::bad("bad_reason", "a reason has at most 200 characters"));
        }
        let (_one, l) = self
            .as_arbiter(id, by, "only the event's arbiter may set results")
            .await?;
        let p = l
            .pairings
            .iter()
            .find(|p| p.round == req.round && p.board == req.board)
            .ok_or_else(|| Error::NotFound(format!("round {} board {}", req.round, req.board)))?;
        if p.black.is_none() {
            return Err(Error::conflict("bye", "a bye has no result to set"));
        }
        if l.is_match_round(p.round) && matches!(result, BoardResult::Draw | BoardResult::DoubleForfeit) {
            return Err(Error::bad(
                "bad_result",
                "a knockout match's result names who goes through: 1-0, 0-1, +- or -+",
            ));
        }
        self.store()
            .set_pairing_result(id, p.round, p.board, result.as_str(), result.is_forfeit(), false)
            .await?;
        let name = |n: u32| l.entry_number(n).map_or_else(String::new, |e| e.name.clone());
        self.log(
            id,
            Some(by),
            "result",
            &format!(
                "round {} board {} ({} v {}): {} → {}{}",
                p.round,
                p.board,
                name(p.white),
                p.black.map_or_else(String::new, name),
                p.result.as_deref().unwrap_or("no result"),
                result.as_str(),
                if req.reason.trim().is_empty() {
                    String::new()
                } else {
                    format!(" ({})", req.reason.trim())
                }
            ),
        )
        .await?;
        self.after_result_locked(id).await
    }
}

/// The arbiter's tools for the event itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventAction {
    /// Nothing is paired while paused (no scheduled round, no arena
    /// pairing, no button); games in progress are played out.
    Pause,
    Resume,
    /// Pair the current round again, before any of its games has a move:
    /// its games are called off and the round paired anew from the same
    /// crosstable (a correction to an entry, a withdrawal made just before).
    Repair,
    /// Publish the final results once the event is over.
    Publish,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArbiterRequest {
    pub action: EventAction,
    /// Why: kept in the log.
    #[serde(default)]
    pub reason: String,
}

impl Events {
    /// Pause, resume, re-pair the current round, publish: each logged.
    ///
    /// # Errors
    /// Not the arbiter; the action does not fit the event's state.
    pub async fn arbiter_action(&self, id: &str, by: &User, req: ArbiterRequest) -> Result<(), Error> {
        if let Some(done) = self
            .forwarded(id, || Call::Arbiter {
                id: id.into(),
                by: by.clone(),
                req: req.clone(),
            })
            .await?
        {
            return Ok(done);
        }
        if req.reason.chars().count() > 200 {
            return Err(Error::bad("bad_reason", "a reason has at most 200 characters"));
        }
        let reason = if req.reason.trim().is_empty() {
            String::new()
        } else {
            format!(" ({})", req.reason.trim())
        };
        let (guard, l) = self
            .as_arbiter(id, by, "only the event's arbiter may do that")
            .await?;
        let over = || Error::conflict("event_finished", "the event is over");
        match req.action {
            EventAction::Pause | EventAction::Resume => {
                let pause = req.action == EventAction::Pause;
                if l.event.state == "finished" {
                    return Err(over());
                }
                if l.event.paused == pause {
                    return Err(Error::conflict(
                        if pause { "already_paused" } else { "not_paused" },
                        if pause {
                            "the event is paused already"
                        } else {
                            "the event is not paused"
                        },
                    ));
                }
                self.store().set_event_paused(id, pause).await?;
                let what = if pause {
                    "the event is paused: nothing is paired until it resumes"
                } else {
                    "the event resumes"
                };
                self.log(
                    id,
                    Some(by),
                    if pause { "pause_event" } else { "resume_event" },
                    &format!("{what}{reason}"),
                )
                .await
            }
            EventAction::Publish => {
                if l.event.state != "finished" {
                    return Err(Error::conflict(
                        "event_not_finished",
                        "the results are published once the event is over",
                    ));
                }
                self.store().set_event_published(id, common::now_ms()).await?;
                self.log(
                    id,
                    Some(by),
                    "publish",
                    &format!("the final results are published{reason}"),
                )
                .await
            }
            EventAction::Repair => {
                let round = l.event.current_round;
                if l.event.state != "running" || round == 0 || l.system == crate::System::Arena {
                    return Err(Error::conflict("nothing_to_repair", "no round is being played"));
                }
                if l.system.plays_matches() {
                    return Err(Error::conflict(
                        "nothing_to_repair",
                        "a knockout's bracket is fixed by its seeding: correct a result instead",
                    ));
                }
                let boards: Vec<&store::PairingRow> =
                    l.pairings.iter().filter(|p| p.round == round).collect();
                for p in &boards {
                    if let Some(game) = &p.game_id {
                        // A live game's moves are in its command log, not
                        // yet in the archive's table: its view says.
                        let played = play::live::view(self.play(), game).await?.map_or(0, |v| v.ply);
                        if played > 0 || p.result.is_some() {
                            return Err(Error::conflict(
                                "round_started",
                                format!("round {round} board {} has begun: a round is re-paired before its first move", p.board),
                            ));
                        }
                    }
                }
                if !self.store().unpair_round(id, round).await? {
                    return Err(Error::conflict(
                        "round_started",
                        format!("round {round} cannot be taken back"),
                    ));
                }
                // The old games are called off; their ends find no board.
                for p in &boards {
                    let (Some(game), Some(w)) = (&p.game_id, l.entry_number(p.white)) else {
                        continue;
                    };
                    let _ =
                        play::live::act_on(self.play(), game, &w.user_id, play::table::Action::Abort).await;
                }
                self.log(
                    id,
                    Some(by),
                    "repair",
                    &format!("round {round}'s pairings taken back{reason}"),
                )
                .await?;
                drop(guard);
                self.pair_next(id, by).await.map(|_| ())
            }
        }
    }
}
