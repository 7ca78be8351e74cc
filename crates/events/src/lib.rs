//! The events room: tournaments on the platform (issue 28). An organiser
//! creates an event, players join, each round is paired by the pure
//! `tournament` crate (FIDE Dutch as `qiju tournament pair` pairs it, or
//! the Berger tables) from the crosstable this room keeps in `store`, and
//! every board's game starts through `play::live::create_game` as the
//! lobby starts a game. Results come back from the one place a game ends
//! (`play::Play::ended_games`), a game nobody started is a forfeit (seed
//! 000 21.1–21.4), and every arbiter action is logged.
//!
//! * [`spec`]: the terms an organiser asks for, checked.
//! * [`crosstable`]: the stored rows as the tournament crate's model.
//! * `rounds`: pairing a round, starting its games, scoring what ends.
//! * [`arena`]: the Arena, pairing whoever is free until its end time.
//! * [`teams`]: team round robins and Swisses — rosters, line-ups, match
//!   points, all-play-all matches, the ranking by places, a team withdrawn.
//! * `staged`: groups → knockout → final as one event (seed 001).
//! * [`armageddon`]: a knockout match's armageddon colour, chosen by the
//!   player who had no choice at the lot within the event's wait.
//! * `double_elimination`: 双败淘汰, out after a second lost match, each
//!   round paired again from the stored rounds.
//! * `arbiter`: entries, withdrawals, late entries, corrected results, the log.
//! * `remote`: changes asked of a node that does not run the event, made
//!   at the node that does (issue 29).
//! * [`view`]: what the API shows.
//!
//! Crash safety: all an event knows is in the database. At start the room
//! resumes this node's unfinished events ([`Events::start`]): results of
//! games that ended while it was down are read from the stored games,
//! boards whose games were never started are started, and the schedule
//! goes on.

mod arbiter;
pub mod arena;
pub mod armageddon;
pub mod crosstable;
mod double_elimination;
pub mod fouls;
mod knockout;
mod remote;
mod rounds;
mod seen;
pub mod spec;
mod staged;
pub mod teams;
pub mod view;

pub use arbiter::{ArbiterRequest, EventAction, JoinRequest, PlayerAction, PlayerRequest, ResultRequest};
pub use armageddon::{ArmageddonRequest, ChoiceRefusal};
pub use fouls::{FoulRequest, FoulView, Ruling, TeamForfeitRequest, TeamReadmitRequest, TeamWithdrawRequest};
pub use spec::{
    BoardResult, LineupOrder, NewEvent, Scoring, System, TeamMatchKind, TeamRanking, TiebreakOrder,
};
pub use teams::{LineupRequest, TeamRequest, TeamsView};
pub use view::{
    ArenaGameView, ArenaLine, ArenaScoreView, ArenaView, ArmageddonChoiceView, BoardPlayer, Boards,
    CrosstableRow, CrosstableView, EliminationLine, EntryView, EventSummary, EventView, LogView,
    MatchGameView, MyArmageddonChoice, PairingView, RoundView, StagesView, StandingRow, StandingsView,
};

use play::Play;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use store::Store;
use tokio::sync::broadcast;

/// A game an event started, for the player's notices (`server::start` hands
/// these to the lobby, which tells the player as it tells of any game).
#[derive(Clone, Debug)]
pub struct EventGame {
    pub event: String,
    pub game: String,
    pub user_id: String,
    pub side: game::Side,
}

/// The events room, cheap to clone.
#[derive(Clone)]
pub struct Events(Arc<Inner>);

struct Inner {
    store: Store,
    play: Play,
    /// One lock per event: its changes (a pairing, a result, an arbiter's
    /// ruling) are made one at a time.
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Every game an event starts, for its players' notices: unbounded,
    /// since a round of a large Swiss starts a thousand at once and a
    /// notice lost leaves a bot that never hears of its game.
    started: tokio::sync::mpsc::UnboundedSender<EventGame>,
    started_rx: Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<EventGame>>>,
    /// Scheduled rounds that could not be paired, (event, round): tried
    /// once by the clock, then left to the arbiter's button.
    failed: Mutex<std::collections::HashSet<(String, u32)>>,
    /// When this node last looked for events of stopped nodes (ms).
    last_takeover: std::sync::atomic::AtomicI64,
    /// Games this node made for an event whose end it has not heard yet,
    /// with their event: a game may end before the wave that made it has
    /// written its row (a bot can resign at once), so its end waits for
    /// that wave's lock before looking the game up.
    made: Mutex<HashMap<String, String>>,
    /// What the pages read, kept a moment (`seen`).
    seen: seen::Seen,
}

/// One event's lock, held while it changes: taking it and letting it go
/// both forget what the pages' reads kept of the event (`seen`), so that
/// the change is read at once.
pub(crate) struct EventLock {
    _guard: tokio::sync::OwnedMutexGuard<()>,
    events: Events,
    id: String,
}

impl Drop for EventLock {
    fn drop(&mut self) {
        self.events.0.seen.changed(&self.id);
    }
}

impl Events {
    #[must_use]
    pub fn new(store: Store, play: Play) -> Events {
        let (started, started_rx) = tokio::sync::mpsc::unbounded_channel();
        Events(Arc::new(Inner {
            store,
            play,
            locks: Mutex::default(),
            started,
            started_rx: Mutex::new(Some(started_rx)),
            failed: Mutex::default(),
            last_takeover: std::sync::atomic::AtomicI64::new(0),
            made: Mutex::default(),
            seen: seen::Seen::default(),
        }))
    }

    fn store(&self) -> &Store {
        &self.0.store
    }

    fn play(&self) -> &Play {
        &self.0.play
    }

    /// The games events start, as they start: for the one listener that
    /// tells their players (`server::start`), so taken once — `None`
    /// after.
    #[must_use]
    pub fn started_games(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<EventGame>> {
        self.0
            .started_rx
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }

    fn scheduled_failed(&self, event: &str, round: u32) -> bool {
        self.0
            .failed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(&(event.to_string(), round))
    }

    fn mark_scheduled_failed(&self, event: &str, round: u32) {
        self.0
            .failed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert((event.to_string(), round));
    }

    /// The lock of one event.
    async fn lock(&self, event: &str) -> EventLock {
        let m = {
            let mut map = self
                .0
                .locks
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            map.entry(event.to_string()).or_default().clone()
        };
        let guard = m.lock_owned().await;
        self.0.seen.changed(event);
        EventLock {
            _guard: guard,
            events: self.clone(),
            id: event.to_string(),
        }
    }

    /// The event as the pages read it: as last loaded, if that was less
    /// than `seen::FRESH_FOR` ago and nothing changed since; shared by
    /// every reader. Never for a change: changes read the event under its
    /// lock ([`Events::load`]).
    pub(crate) async fn load_seen(&self, id: &str) -> Result<Arc<Loaded>, common::Error> {
        match self.0.seen.loaded(id) {
            Ok(l) => Ok(l),
            Err(generation) => {
                let l = Arc::new(self.load(id).await?);
                self.0.seen.keep(id, generation, l.clone());
                Ok(l)
            }
        }
    }

    /// Something outside the event's lock changed what its pages show (a
    /// berserk's mark): forget what was kept.
    pub(crate) fn changed(&self, id: &str) {
        self.0.seen.changed(id);
    }

    /// Resumes this node's unfinished events and starts listening: to the
    /// games that end (subscribed before anything is read, so no end falls
    /// in between) and to the clock, for rounds paired at their time. Call
    /// once the play room has resumed its games.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn start(&self) -> Result<usize, common::Error> {
        /// At most this many ended games are taken together (a lagging
        /// receiver is read again from the store instead).
        const ENDED_BATCH: usize = 256;
        self.serve_bus();
        let mut ended = self.play().ended_games();
        let resumed = self.reconcile_all().await?;
        let me = self.clone();
        let mut shutdown = self.play().shutdown_signal();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
            loop {
                tokio::select! {
                    e = ended.recv() => match e {
                        Ok(e) => {
                            // With the others already waiting (a busy
                            // arena ends dozens a second).
                            let mut batch = vec![e];
                            let mut behind = false;
                            while batch.len() < ENDED_BATCH {
                                match ended.try_recv() {
                                    Ok(e) => batch.push(e),
                                    Err(broadcast::error::TryRecvError::Lagged(_)) => {
                                        behind = true;
                                        break;
                                    }
                                    Err(_) => break,
                                }
                            }
                            me.games_ended(&batch).await;
                            if behind {
                                tracing::warn!("events fell behind the ended games; re-reading them");
                                if let Err(err) = me.reconcile_all().await {
                                    tracing::error!(error = %err, "cannot re-read the events");
                                }
                            }
                        }
                        // Fell behind: read the stored games instead.
                        Err(broadcast::error::RecvError::Lagged(n)) => {
                            tracing::warn!(missed = n, "events fell behind the ended games; re-reading them");
                            if let Err(err) = me.reconcile_all().await {
                                tracing::error!(error = %err, "cannot re-read the events");
                            }
                        }
                        Err(broadcast::error::RecvError::Closed) => break,
                    },
                    _ = tick.tick() => {
                        if me.play().missed_ended_games() {
                            if let Err(err) = me.reconcile_all().await {
                                tracing::error!(error = %err, "cannot re-read the events");
                            }
                        }
                        me.take_over_events().await;
                        me.close_unclosed_rounds().await;
                        me.choose_when_due().await;
                        if let Err(err) = me.pair_scheduled().await {
                            tracing::error!(error = %err, "cannot pair a scheduled round");
                        }
                    }
                    _ = shutdown.changed() => break,
                }
            }
        });
        Ok(resumed)
    }
}

/// An event as stored, read whole: what every action starts from.
pub(crate) struct Loaded {
    pub event: store::EventRow,
    pub system: System,
    pub scoring: Scoring,
    pub tiebreaks: TiebreakOrder,
    pub entries: Vec<store::EntryRow>,
    pub pairings: Vec<store::PairingRow>,
    /// A knockout's match games (empty otherwise).
    pub match_games: Vec<store::MatchGameRow>,
    /// Its matches' armageddon colours, waited for or chosen (empty
    /// otherwise).
    pub armageddon_choices: Vec<store::ArmageddonChoiceRow>,
    /// An arena's games (empty otherwise).
    pub arena_games: Vec<store::ArenaGameRow>,
    /// A team event's teams and the line-ups handed in (empty otherwise).
    pub teams: Vec<store::TeamRow>,
    pub lineups: Vec<store::LineupRow>,
    /// The fouls the arbiter recorded (`fouls`).
    pub fouls: Vec<store::FoulRow>,
}

impl Loaded {
    /// The crosstable after every round paired so far.
    pub fn model(&self) -> tournament::model::Tournament {
        let mut t = crosstable::model(
            &self.event.name,
            self.event.rounds,
            self.system,
            self.scoring.points(),
            &self.entries,
            &self.pairings,
            self.event.current_round,
        );
        crosstable::apply_round_robin_withdrawals(&mut t, self.system, &self.entries);
        teams::annul_withdrawn_players(&mut t, self);
        staged::round_robin_byes(&mut t, self);
        t
    }

    /// How many rounds from the first are complete, every board with its
    /// result: the standings are "after round N".
    pub fn rounds_complete(&self) -> u32 {
        (1..=self.event.current_round)
            .take_while(|&r| {
                self.pairings
                    .iter()
                    .filter(|p| p.round == r)
                    .all(|p| p.result.is_some())
            })
            .count() as u32
    }

    /// Whether every board of the current round has its result.
    pub fn round_complete(&self) -> bool {
        self.pairings
            .iter()
            .filter(|p| p.round == self.event.current_round)
            .all(|p| p.result.is_some())
    }

    /// Whether round `round`'s boards are knockout matches (`knockout`).
    pub fn is_match_round(&self, round: u32) -> bool {
        self.system.is_knockout() || staged::is_knockout_round(self, round)
    }

    pub fn entry_of(&self, user_id: &str) -> Option<&store::EntryRow> {
        self.entries.iter().find(|e| e.user_id == user_id)
    }

    pub fn entry_number(&self, n: u32) -> Option<&store::EntryRow> {
        self.entries.iter().find(|e| e.number == n)
    }
}

impl Events {
    /// Reads an event whole; `not found` when there is none.
    pub(crate) async fn load(&self, id: &str) -> Result<Loaded, common::Error> {
        let event = self
            .store()
            .event(id)
            .await?
            .ok_or_else(|| common::Error::NotFound(format!("event {id}")))?;
        let bad = |what: &str| common::Error::Internal(format!("event {id} has a bad {what}"));
        let system = System::parse(&event.system).ok_or_else(|| bad("system"))?;
        let scoring = Scoring::parse(&event.scoring).ok_or_else(|| bad("scoring"))?;
        let tiebreaks = TiebreakOrder::parse(&event.tiebreaks).ok_or_else(|| bad("tie-break order"))?;
        let entries = self.store().entries(id).await?;
        let pairings = self.store().pairings(id).await?;
        let (match_games, armageddon_choices) = if system.plays_matches() {
            (
                self.store().match_games(id).await?,
                self.store().armageddon_choices(id).await?,
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let arena_games = if system == System::Arena {
            self.store().arena_games(id).await?
        } else {
            Vec::new()
        };
        let (teams, lineups) = if system.is_team() {
            (self.store().teams(id).await?, self.store().lineups(id).await?)
        } else {
            (Vec::new(), Vec::new())
        };
        let fouls = self.store().fouls(id).await?;
        Ok(Loaded {
            fouls,
            teams,
            lineups,
            arena_games,
            match_games,
            armageddon_choices,
            event,
            system,
            scoring,
            tiebreaks,
            entries,
            pairings,
        })
    }

    /// Starts one game of the event between pairing numbers `white` and
    /// `black` (first and second side) through `play::live::create_game`,
    /// as the lobby starts a game, links it where the event keeps it
    /// (`link`: its board, its match, its arena row) and tells both
    /// players. `None` when a player's account is gone.
    ///
    /// The game is created before it is linked, so that no reader of the
    /// event sees a game that does not exist yet; the game's row records
    /// the event in the same write, so that a node that dies between the
    /// two leaves a game the restart finds and calls off
    /// ([`Events::call_off_unlinked_games`]) — never one played beside the
    /// game paired again.
    pub(crate) async fn create_board_game(
        &self,
        l: &Loaded,
        white: u32,
        black: u32,
        tc: &clock::TimeControl,
        link: impl AsyncFnOnce(&str) -> Result<(), common::Error>,
    ) -> Result<Option<String>, common::Error> {
        let (Some(w), Some(b)) = (l.entry_number(white), l.entry_number(black)) else {
            return Ok(None);
        };
        let (Some(white_user), Some(black_user)) = (
            self.store().user_by_id(&w.user_id).await?,
            self.store().user_by_id(&b.user_id).await?,
        ) else {
            return Ok(None);
        };
        let game = play::live::create_game(
            self.play(),
            play::live::GameSetup {
                variant: l.event.variant.clone(),
                profile: registry::Profile::default(),
                fen: None,
                time_control: tc.clone(),
                rated: l.event.rated,
                first: play::live::Seat::person(&white_user),
                second: play::live::Seat::person(&black_user),
                first_move_ms: (l.event.forfeit_after_ms > 0).then_some(l.event.forfeit_after_ms),
                event: Some(l.event.id.clone()),
            },
        )
        .await?;
        self.0
            .made
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(game.clone(), l.event.id.clone());
        link(&game).await?;
        for (user, side) in [
            (&white_user, game::Side::First),
            (&black_user, game::Side::Second),
        ] {
            let _ = self.0.started.send(EventGame {
                event: l.event.id.clone(),
                game: game.clone(),
                user_id: user.id.clone(),
                side,
            });
        }
        Ok(Some(game))
    }

    /// Calls off the live games made for the event that none of its
    /// boards, matches or arena rows names: the node died between creating
    /// one and linking it ([`Events::create_board_game`]). Run at the
    /// restart, before the event's games are scored and paired; the board
    /// is then played again (its game started anew, or its players paired
    /// again). The game's record says it was called off by its first
    /// player, as a re-paired round's old games say.
    pub(crate) async fn call_off_unlinked_games(&self, l: &Loaded) -> Result<usize, common::Error> {
        let linked: std::collections::HashSet<&str> = l
            .pairings
            .iter()
            .filter_map(|p| p.game_id.as_deref())
            .chain(l.match_games.iter().map(|g| g.game_id.as_str()))
            .chain(l.arena_games.iter().map(|g| g.game_id.as_str()))
            .collect();
        let mut called_off = 0;
        for game in self.store().live_event_games(&l.event.id).await? {
            if linked.contains(game.as_str()) {
                continue;
            }
            let Some((row, _)) = self.store().game(&game).await? else {
                continue;
            };
            let Some(first) = row.first_id else { continue };
            tracing::warn!(event = %l.event.id, game, "a game made for the event was never linked to it; calling it off");
            let _ = play::live::act_on(self.play(), &game, &first, play::table::Action::Abort).await;
            self.log(
                &l.event.id,
                None,
                "call_off",
                &format!(
                    "game {game} ({} – {}) was started as the node stopped, before it was recorded: called off, to be played again",
                    row.first_name, row.second_name
                ),
            )
            .await?;
            called_off += 1;
        }
        Ok(called_off)
    }

    /// The event this node made `game` for, if its end was not heard yet;
    /// forgotten now that it is.
    fn made_for(&self, game: &str) -> Option<String> {
        self.0
            .made
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(game)
    }

    /// Whether `user_id` holds the event's arbiter tools (`arbiter_among`);
    /// the named arbiters are read from the database only for someone
    /// other than the organiser.
    /// The event's lock and the event read under it, for its arbiter
    /// `by`: anyone else is refused (`forbidden` says with what). Every
    /// arbiter's ruling starts so.
    pub(crate) async fn as_arbiter(
        &self,
        id: &str,
        by: &store::User,
        forbidden: &str,
    ) -> Result<(EventLock, Loaded), common::Error> {
        let lock = self.lock(id).await;
        let l = self.load(id).await?;
        if !self.is_arbiter(&l, &by.id).await? {
            return Err(common::Error::Forbidden(forbidden.into()));
        }
        Ok((lock, l))
    }

    pub(crate) async fn is_arbiter(&self, l: &Loaded, user_id: &str) -> Result<bool, common::Error> {
        if l.event.organiser_id == user_id {
            return Ok(true);
        }
        let named = self.store().event_arbiters(&l.event.id).await?;
        Ok(arbiter_among(l, &named, user_id))
    }

    /// Logs what was done to an event: by whom (`None`: the server) and when.
    pub(crate) async fn log(
        &self,
        event: &str,
        by: Option<&store::User>,
        action: &str,
        detail: &str,
    ) -> Result<(), common::Error> {
        self.store()
            .log_event_action(
                event,
                common::now_ms(),
                by.map(|u| u.id.as_str()),
                by.map_or("server", |u| u.name.as_str()),
                action,
                detail,
            )
            .await?;
        Ok(())
    }
}

/// Whether `user_id` may use the arbiter's tools on the event: its
/// organiser (the chief arbiter) or one of the arbiters they `named`.
pub(crate) fn arbiter_among(l: &Loaded, named: &[String], user_id: &str) -> bool {
    l.event.organiser_id == user_id || named.iter().any(|a| a == user_id)
}
