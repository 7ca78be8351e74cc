//! Running an event: pairing the next round (the arbiter's button, or by
//! itself at its scheduled time), starting each board's game, and scoring
//! the games as they end — a game called off because a side never moved
//! is that side's forfeit (seed 000 21.1: the late player's clock runs,
//! and past the limit the game is lost; 21.4: `+`/`-`, no game played).

use crate::crosstable;
use crate::knockout;
use crate::remote::Call;
use crate::spec::{BoardResult, System};
use crate::{Events, Loaded};
use common::Error;
use game::{Outcome, Side};
use play::GameEnded;
use store::{PairingRow, User};

/// The reason of a game called off because neither player came (the
/// session's `double_no_show`, seed 000 21.3).
const DOUBLE_NO_SHOW: &str = "double_no_show";

impl Events {
    /// Pairs the next round and starts its games: the arbiter's button.
    /// The round before must be complete (its last game ended).
    ///
    /// # Errors
    /// Not the event's arbiter; the event finished; a game of the current
    /// round still playing; too few players; no pairing possible.
    pub async fn pair_next(&self, id: &str, by: &User) -> Result<u32, Error> {
        if let Some(done) = self
            .forwarded(id, || Call::PairNext {
                id: id.into(),
                by: by.clone(),
            })
            .await?
        {
            return Ok(done);
        }
        let _one = self.lock(id).await;
        let l = self.load(id).await?;
        if !self.is_arbiter(&l, &by.id).await? {
            return Err(Error::Forbidden(
                "only the event's arbiter pairs its rounds".into(),
            ));
        }
        self.pair_locked(l, Some(by)).await
    }

    /// Among several nodes (`--take-over`, `--bus`): runs here the events
    /// of nodes whose heartbeats went stale, as their games are taken over
    /// (`play::live::take_over_games`), and reads the results of their
    /// games that ended meanwhile. Looked for every third of a lease.
    pub(crate) async fn take_over_events(&self) {
        let config = self.play().config();
        if !config.take_over {
            return;
        }
        let now = common::now_ms();
        let every = (config.lease_ms / 3).max(1000);
        let last = self.0.last_takeover.load(std::sync::atomic::Ordering::Relaxed);
        if now - last < every {
            return;
        }
        self.0
            .last_takeover
            .store(now, std::sync::atomic::Ordering::Relaxed);
        match self
            .store()
            .take_orphaned_events(&config.node_id, now - config.lease_ms)
            .await
        {
            Ok(ids) if ids.is_empty() => {}
            Ok(ids) => {
                tracing::info!(events = %ids.join(" "), "took over events whose node stopped");
                if let Err(err) = self.reconcile_all().await {
                    tracing::error!(error = %err, "cannot read the events taken over");
                }
            }
            Err(err) => tracing::warn!(error = %err, "cannot look for events to take over"),
        }
    }

    /// Pairs the rounds whose scheduled time has come (ticked every second).
    pub(crate) async fn pair_scheduled(&self) -> Result<(), Error> {
        let now = common::now_ms();
        let node = self.play().config().node_id.clone();
        for e in self.store().unfinished_events(&node).await? {
            if e.system == System::Arena.as_str() && e.state == "running" {
                self.tick_arena(&e.id).await?;
                continue;
            }
            if e.paused {
                continue;
            }
            let next = e.current_round + 1;
            let starts: Vec<i64> = serde_json::from_str(&e.starts).unwrap_or_default();
            let due = starts.get(next as usize - 1).is_some_and(|&t| t <= now);
            if !due || self.scheduled_failed(&e.id, next) {
                continue;
            }
            let _one = self.lock(&e.id).await;
            let l = self.load(&e.id).await?;
            if l.event.current_round + 1 != next || !l.round_complete() {
                continue;
            }
            if let Err(err) = self.pair_locked(l, None).await {
                // Said once, in the log the arbiter reads; the button
                // still pairs it when the arbiter has fixed the cause.
                self.mark_scheduled_failed(&e.id, next);
                self.log(
                    &e.id,
                    None,
                    "pair_failed",
                    &format!("round {next} was due but not paired: {err}"),
                )
                .await?;
            }
        }
        Ok(())
    }

    /// Pairs round `current + 1` of a loaded event (its lock held).
    async fn pair_locked(&self, mut l: Loaded, by: Option<&User>) -> Result<u32, Error> {
        let id = l.event.id.clone();
        if l.event.state == "finished" {
            return Err(Error::conflict("event_finished", "the event is over"));
        }
        if l.event.paused {
            return Err(Error::conflict(
                "event_paused",
                "the event is paused: the arbiter resumes it first",
            ));
        }
        if l.event.current_round > 0 && !l.round_complete() {
            return Err(Error::conflict(
                "round_not_finished",
                format!(
                    "round {} still has games being played: the next round is paired after the last one ends",
                    l.event.current_round
                ),
            ));
        }
        if l.system == System::Arena {
            return self.start_arena(&l, by).await;
        }
        let round = l.event.current_round + 1;
        // A double elimination's rounds are known only as its results come
        // in: its end is its own (`double_elimination::boards`).
        if l.event.rounds > 0 && round > l.event.rounds && l.system != System::DoubleElimination {
            return Err(Error::conflict(
                "all_rounds_paired",
                format!("all {} rounds are paired", l.event.rounds),
            ));
        }
        if round == 1 {
            self.seed(&mut l).await?;
        }
        let (boards, stage_note) = if l.system == System::GroupsKnockout {
            crate::staged::boards(&l, round)?
        } else {
            (self.boards(&l, round)?, None)
        };
        if l.system == System::DoubleElimination {
            // Its rounds so far: the crosstable, the TRF and the page count
            // them; written before the round, so a round is never beyond it.
            self.store().set_event_rounds(&id, round).await?;
        }
        let rows: Vec<PairingRow> = boards
            .iter()
            .enumerate()
            .map(|(i, &(white, black))| forfeits_of(&l, round, i as u32 + 1, white, black))
            .collect();
        self.store()
            .insert_round(&id, round, common::now_ms(), &rows)
            .await?;
        let games = rows.iter().filter(|r| r.result.is_none()).count();
        self.log(
            &id,
            by,
            "pair",
            &format!("round {round} paired: {} boards, {games} games", rows.len()),
        )
        .await?;
        if let Some(note) = stage_note {
            self.log(&id, by, "stage", &note).await?;
        }
        let l = self.load(&id).await?;
        self.start_games(&l).await?;
        Box::pin(self.after_result_locked(&id)).await?;
        Ok(round)
    }

    /// Before round 1: the initial ranking (by rating, then name; C.04.2
    /// A.2 with no titles) becomes the pairing numbers, and a round robin
    /// learns its number of rounds from its players.
    async fn seed(&self, l: &mut Loaded) -> Result<(), Error> {
        let id = l.event.id.clone();
        if l.system.is_team() {
            // The teams' numbers are their registration order and the
            // players' numbers their rosters' order: nothing to seed.
            if l.teams.len() < 2 {
                return Err(Error::conflict(
                    "too_few_teams",
                    format!(
                        "{} teams registered: a team event needs at least 2",
                        l.teams.len()
                    ),
                ));
            }
            // A team Swiss has its rounds from its terms.
            if l.system == System::TeamRoundRobin {
                let rounds = crate::teams::rounds_for(l.teams.len(), crate::teams::parts(l));
                self.store().set_event_rounds(&id, rounds).await?;
                *l = self.load(&id).await?;
            }
            return Ok(());
        }
        let mut active: Vec<&store::EntryRow> = l.entries.iter().filter(|e| !e.withdrawn).collect();
        if active.len() < 2 {
            return Err(Error::conflict(
                "too_few_players",
                format!("{} players entered: an event needs at least 2", active.len()),
            ));
        }
        if let Some(stages) = crate::staged::stages(l) {
            // The groups take the players before anything is numbered:
            // two a group at least, and as many as go on from it.
            stages
                .check_players(active.len() as u32)
                .map_err(|e| Error::conflict("wrong_players", e.to_string()))?;
        }
        active.sort_by(|a, b| b.rating.cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
        let numbers: Vec<(String, u32)> = active
            .iter()
            .enumerate()
            .map(|(i, e)| (e.user_id.clone(), i as u32 + 1))
            .collect();
        // Entries withdrawn before the start leave the event.
        for e in l.entries.iter().filter(|e| e.withdrawn) {
            self.store().remove_entry(&id, &e.user_id).await?;
        }
        self.store().renumber_entries(&id, &numbers).await?;
        if l.system.is_round_robin() {
            let rounds = crosstable::schedule(l.system, numbers.len() as u32).len() as u32;
            self.store().set_event_rounds(&id, rounds).await?;
        }
        if let Some(stages) = crate::staged::stages(l) {
            self.store().set_event_rounds(&id, stages.total_rounds()).await?;
        }
        if l.system == System::Knockout {
            // log2 of the bracket: 8 players, 3 rounds.
            let rounds = (numbers.len() as u32).next_power_of_two().trailing_zeros();
            self.store().set_event_rounds(&id, rounds).await?;
        }
        *l = self.load(&id).await?;
        Ok(())
    }

    /// Round `round`'s boards: (white, black), black `None` for the bye.
    fn boards(&self, l: &Loaded, round: u32) -> Result<Vec<(u32, Option<u32>)>, Error> {
        if l.system == System::Knockout {
            return knockout::boards(l, round);
        }
        if l.system == System::DoubleElimination {
            return crate::double_elimination::boards(l, round);
        }
        if l.system.is_team() {
            return crate::teams::round_boards(l, round);
        }
        if l.system == System::Swiss {
            let t = crosstable::model(
                &l.event.name,
                l.event.rounds,
                l.system,
                l.scoring.points(),
                &l.entries,
                &l.pairings,
                round - 1,
            );
            let t = crosstable::for_pairing(t, round, &l.entries);
            if t.players.len() - t.unavailable_in(round).len() < 2 {
                return Err(Error::conflict(
                    "too_few_players",
                    "fewer than 2 players are left to pair",
                ));
            }
            let p = tournament::dutch::pair_next_round(&t)
                .map_err(|e| Error::conflict("no_pairing", e.to_string()))?;
            let mut out: Vec<(u32, Option<u32>)> = p.boards.iter().map(|&(w, b)| (w, Some(b))).collect();
            out.extend(p.bye.map(|b| (b, None)));
            return Ok(out);
        }
        let table = crosstable::schedule(l.system, l.entries.len() as u32);
        let r = table.get(round as usize - 1).ok_or_else(|| {
            Error::conflict("all_rounds_paired", "the round-robin table has no more rounds")
        })?;
        Ok(r.iter()
            .map(|b| match *b {
                tournament::roundrobin::Board::Game { white, black } => (white, Some(black)),
                tournament::roundrobin::Board::Bye { player } => (player, None),
            })
            .collect())
    }

    /// Starts the game of every board of the current round that has
    /// neither a game nor a result (after a pairing, or after a crash
    /// between the two).
    async fn start_games(&self, l: &Loaded) -> Result<(), Error> {
        let tc = play::table::parse_time_control(&l.event.time_control)
            .map_err(|e| Error::Internal(format!("event {}: {e}", l.event.id)))?;
        for p in l
            .pairings
            .iter()
            .filter(|p| p.round == l.event.current_round && p.game_id.is_none() && p.result.is_none())
        {
            let Some(black) = p.black else { continue };
            if l.is_match_round(p.round) {
                self.advance_match(l, p).await?;
                continue;
            }
            self.create_board_game(l, p.white, black, &tc, async |game| {
                Ok(self
                    .store()
                    .set_pairing_game(&l.event.id, p.round, p.board, game)
                    .await?)
            })
            .await?;
        }
        Ok(())
    }

    /// The row of `event` when this node runs it (issue 29): another
    /// node scores its own events' games and pairs them.
    async fn event_here(&self, event: &str) -> Result<Option<store::EventRow>, Error> {
        Ok(self.store().event(event).await?.filter(|ev| self.runs_here(ev)))
    }

    /// Games that ended, heard together (those queued when the room got
    /// to them): each is scored as it comes, and each arena among them
    /// then pairs its freed players once for the lot. Pairing reads the
    /// arena whole under its lock, so pairing once per game let a
    /// 500-player arena's 60 game ends a second outrun the room: its
    /// last games were scored, and it finished, 15.7 s after its end
    /// (docs/PERFORMANCE.md). A game that cannot be scored is logged and
    /// does not stop the others.
    pub(crate) async fn games_ended(&self, ended: &[GameEnded]) {
        let (mut arenas, mut rounds): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
        for e in ended {
            match self.game_ended(e).await {
                Ok(Some(Scored::Arena(id))) if !arenas.contains(&id) => arenas.push(id),
                Ok(Some(Scored::Round(id))) if !rounds.contains(&id) => rounds.push(id),
                Ok(_) => {}
                Err(err) => tracing::error!(game = %e.game, error = %err, "cannot score an event game"),
            }
        }
        // A round whose last result came in closes, once for the lot.
        for id in rounds {
            let _one = self.lock(&id).await;
            if let Err(err) = self.after_result_locked(&id).await {
                tracing::error!(event = %id, error = %err, "cannot close a round");
            }
        }
        // The players are free again: pair them now.
        for arena in arenas {
            if let Err(err) = self.tick_arena(&arena).await {
                tracing::error!(event = %arena, error = %err, "cannot pair an arena");
            }
        }
    }

    /// A game ended (on this node, or on another that told the bus): if
    /// it is an event's that this node runs, score it. Another node's
    /// event is that node's to score and pair. Returns the event it
    /// scored, for the caller to pair (an arena) or close its round.
    async fn game_ended(&self, e: &GameEnded) -> Result<Option<Scored>, Error> {
        if let Some(event) = self.made_for(&e.game) {
            // Made by a wave that may still hold the event's lock and not
            // have written the game's row yet: let it finish.
            drop(self.lock(&event).await);
        }
        let Some((event, _)) = self.store().pairing_of_game(&e.game).await? else {
            if let Some((event, _)) = self.store().arena_game_of(&e.game).await? {
                if self.event_here(&event).await?.is_none() {
                    return Ok(None);
                }
                let _one = self.lock(&event).await;
                if let Some((_, g)) = self.store().arena_game_of(&e.game).await? {
                    self.score_arena_game(&event, &g, e).await?;
                }
                return Ok(Some(Scored::Arena(event)));
            }
            return Ok(None);
        };
        let Some(ev) = self.event_here(&event).await? else {
            return Ok(None);
        };
        let _one = self.lock(&event).await;
        // Read again under the lock: the arbiter may have ruled meanwhile.
        let Some((_, p)) = self.store().pairing_of_game(&e.game).await? else {
            return Ok(None);
        };
        self.score(&event, System::parse(&ev.system), &p, e).await?;
        Ok(Some(Scored::Round(event)))
    }

    /// Records a board's result from its game's end; a result the arbiter
    /// set stands.
    async fn score(
        &self,
        event: &str,
        system: Option<System>,
        p: &PairingRow,
        e: &GameEnded,
    ) -> Result<(), Error> {
        if p.result.is_some() {
            return Ok(());
        }
        let matches = match system {
            Some(s) if s.is_knockout() => true,
            Some(System::GroupsKnockout) => self.load(event).await?.is_match_round(p.round),
            _ => false,
        };
        if matches {
            return self.score_match_game(event, p, e).await;
        }
        let result = match e.outcome {
            Some(Outcome::Win { winner: Side::First }) => BoardResult::WhiteWins,
            Some(Outcome::Win { winner: Side::Second }) => BoardResult::BlackWins,
            Some(Outcome::Draw) => BoardResult::Draw,
            // Neither player came (21.3): both forfeit.
            None if e.reason == DOUBLE_NO_SHOW => BoardResult::DoubleForfeit,
            // Called off before both had moved: the side to move never
            // came (21.1), whoever pressed abort. The arbiter corrects an
            // impatient opponent's abort.
            None if e.plies.is_multiple_of(2) => BoardResult::BlackForfeitWin,
            None => BoardResult::WhiteForfeitWin,
        };
        let changed = self
            .store()
            .set_pairing_result(
                event,
                p.round,
                p.board,
                result.as_str(),
                result.is_forfeit(),
                true,
            )
            .await?;
        if changed && result.is_forfeit() {
            self.log(
                event,
                None,
                "forfeit",
                &format!(
                    "round {} board {}: the game was called off ({}){}: {}",
                    p.round,
                    p.board,
                    e.reason,
                    if result == BoardResult::DoubleForfeit {
                        ": neither player came"
                    } else if e.plies.is_multiple_of(2) {
                        " with the first side to move"
                    } else {
                        " with the second side to move"
                    },
                    result.as_str()
                ),
            )
            .await?;
        }
        Ok(())
    }

    /// After a result: closes the round when its last result is in, and
    /// the event after its last round.
    pub(crate) async fn after_result_locked(&self, id: &str) -> Result<(), Error> {
        // Most results leave boards open: known from a count, without
        // reading the event whole — a 1,000-player round's 500 results
        // each read it, and the last was scored seconds late.
        if let Some(ev) = self.store().event(id).await? {
            if ev.current_round == 0 || self.store().open_boards(id, ev.current_round).await? > 0 {
                return Ok(());
            }
        }
        let l = self.load(id).await?;
        let round = l.event.current_round;
        if round == 0 || !l.round_complete() || l.system == System::Arena {
            return Ok(());
        }
        // A double elimination ends when one player is left with fewer
        // than two losses, in whichever round that is.
        let last = if l.system == System::DoubleElimination {
            crate::double_elimination::progress(&l)?.1.is_some()
        } else {
            round >= l.event.rounds
        };
        let now = common::now_ms();
        if !last {
            self.schedule_next_round(&l, now).await?;
        }
        if self.store().finish_round(id, round, now).await? {
            self.log(id, None, "round_complete", &format!("round {round} complete"))
                .await?;
        }
        if l.system == System::GroupsKnockout && round < l.event.rounds && !l.event.paused {
            // The stages run by themselves: the next round (the next
            // stage's first, when this one was its last) is paired as
            // soon as this one is over.
            if let Err(err) = Box::pin(self.pair_locked(l, None)).await {
                self.log(
                    id,
                    None,
                    "pair_failed",
                    &format!("round {} was due but not paired: {err}", round + 1),
                )
                .await?;
            }
            return Ok(());
        }
        if last && l.event.state != "finished" {
            self.store()
                .set_event_state(id, "finished", Some(common::now_ms()))
                .await?;
            self.log(
                id,
                None,
                "finish",
                "the last round is complete: the event is over",
            )
            .await?;
        }
        Ok(())
    }

    /// A scheduled event's next round (the round just complete was not the
    /// last), when it has no start of its own:
    /// its start is `round_interval_ms` after `ended`, the end of the
    /// round just complete, written into the event's starts so that it
    /// is paired (`pair_scheduled`) and shown as any other start. Before
    /// the round is marked closed, and only once: a closing cut short and
    /// done again keeps the start first written.
    async fn schedule_next_round(&self, l: &Loaded, ended: i64) -> Result<(), Error> {
        let Some(interval) = l.event.round_interval_ms else {
            return Ok(());
        };
        let round = l.event.current_round;
        let mut starts: Vec<i64> = serde_json::from_str(&l.event.starts).unwrap_or_default();
        if starts.len() > round as usize {
            return Ok(());
        }
        // Starts stay increasing: a start given for an earlier round may
        // lie after this one's end (the arbiter paired that round early).
        let at = (ended + interval).max(starts.last().map_or(i64::MIN, |&s| s + 1));
        // Earlier rounds the arbiter paired with no start of their own
        // are 0: no round waits for them, they are paired already.
        starts.resize(round as usize, 0);
        starts.push(at);
        let json = serde_json::to_string(&starts).map_err(|e| Error::Internal(e.to_string()))?;
        self.store().set_event_starts(&l.event.id, &json).await?;
        self.log(
            &l.event.id,
            None,
            "schedule",
            &format!("round {} at {} (ms since the epoch)", round + 1, at),
        )
        .await
    }

    /// Closes the rounds whose last result came in but that were not
    /// closed — the closing after a result was cut short (a database that
    /// did not answer in time, an error after the result was written) —
    /// so that no round waits for nothing: the next round of a staged
    /// event is paired, a last round finishes its event. Run every second;
    /// one query when there is nothing to do.
    pub(crate) async fn close_unclosed_rounds(&self) {
        let node = self.play().config().node_id.clone();
        let ids = match self.store().unclosed_rounds(&node).await {
            Ok(ids) => ids,
            Err(err) => {
                tracing::warn!(error = %err, "cannot look for rounds left open");
                return;
            }
        };
        for id in ids {
            let _one = self.lock(&id).await;
            tracing::warn!(event = %id, "a round had every result but was not closed; closing it now");
            if let Err(err) = self.after_result_locked(&id).await {
                tracing::error!(event = %id, error = %err, "cannot close a round");
            }
        }
    }

    /// Reads every unfinished event of this node again: results of games
    /// that ended unheard (while the server was down, or when the room
    /// fell behind), games of the current round not yet started. Returns
    /// how many events it went through.
    pub(crate) async fn reconcile_all(&self) -> Result<usize, Error> {
        let node = self.play().config().node_id.clone();
        let events = self.store().unfinished_events(&node).await?;
        for e in &events {
            let _one = self.lock(&e.id).await;
            let l = self.load(&e.id).await?;
            self.call_off_unlinked_games(&l).await?;
            if l.system == System::Arena {
                self.reconcile_arena(&l).await?;
                continue;
            }
            for p in l
                .pairings
                .iter()
                .filter(|p| p.result.is_none() && p.round == l.event.current_round)
            {
                let Some(game) = &p.game_id else { continue };
                let Some(ended) = self.stored_end(game).await? else {
                    continue;
                };
                self.score(&e.id, Some(l.system), p, &ended).await?;
            }
            let l = self.load(&e.id).await?;
            self.start_games(&l).await?;
            self.after_result_locked(&e.id).await?;
        }
        Ok(events.len())
    }

    /// How a stored game ended, as `Play::ended_games` would have told it;
    /// `None` while it is live (or damaged: the arbiter rules).
    pub(crate) async fn stored_end(&self, game: &str) -> Result<Option<GameEnded>, Error> {
        let Some((row, moves)) = self.store().game(game).await? else {
            return Ok(None);
        };
        let outcome = match (row.state.as_str(), row.winner.as_deref()) {
            ("over", Some("first")) => Some(Outcome::Win { winner: Side::First }),
            ("over", Some("second")) => Some(Outcome::Win { winner: Side::Second }),
            ("over", _) => Some(Outcome::Draw),
            ("aborted", _) => None,
            _ => return Ok(None),
        };
        Ok(Some(GameEnded {
            game: game.to_string(),
            outcome,
            reason: row.reason.clone().unwrap_or_default(),
            plies: moves.len() as u32,
        }))
    }
}

/// A board as stored when paired: a bye is scored at once; in a round
/// robin a withdrawn player's game is not played but forfeited to the
/// opponent (seed 000 20.3; the annulment of 20.3's first case is applied
/// to the standings, `crosstable::apply_round_robin_withdrawals`).
fn forfeits_of(l: &Loaded, round: u32, board: u32, white: u32, black: Option<u32>) -> PairingRow {
    let gone = |n: u32| l.entry_number(n).is_none_or(|e| !crosstable::available(e, round));
    let result = match black {
        None => Some("bye".to_string()),
        Some(b) => match (gone(white), gone(b)) {
            (true, true) => Some(BoardResult::DoubleForfeit),
            (true, false) => Some(BoardResult::BlackForfeitWin),
            (false, true) => Some(BoardResult::WhiteForfeitWin),
            (false, false) => None,
        }
        .map(|r| r.as_str().to_string()),
    };
    PairingRow {
        round,
        board,
        white,
        black,
        game_id: None,
        forfeit: black.is_some() && result.is_some(),
        result,
    }
}

/// What a game's end was scored for.
enum Scored {
    /// An arena's game: its players are free to be paired.
    Arena(String),
    /// A round's board: the round may be complete.
    Round(String),
}
