//! The Arena (issue 28, item 3): lichess's timed event that pairs whoever
//! is free. Started at its start time (or the arbiter's button), it pairs
//! the players waiting every tick until its end time; the games then in
//! progress finish and count. Players join at any time, pause (withdraw)
//! and come back (join again). Each game is a row of
//! `store::events`' arena games, scored from those rows ([`rules`]); the
//! berserk of each side is read from the game's own command log (the game's
//! actor is the one that halved the clock), so a restart scores the same.

pub mod rules;

use crate::{Events, Loaded};
use common::Error;
use game::{Outcome, Side};
use play::GameEnded;
use rules::{Played, Res, Sheet, Waiting};
use std::collections::HashMap;
use store::{ArenaGameRow, User};

/// A finished game's result for (white, black); `None` while it is played
/// or when it was called off.
fn results(g: &ArenaGameRow) -> Option<(Res, Res)> {
    match g.result.as_deref()? {
        "1-0" => Some((Res::Win, Res::Loss)),
        "0-1" => Some((Res::Loss, Res::Win)),
        "1/2-1/2" => Some((Res::Draw, Res::Draw)),
        _ => None,
    }
}

/// Each player's sheet, by pairing number, from an arena's games.
pub(crate) fn sheets(games: &[ArenaGameRow]) -> HashMap<u32, Sheet> {
    let mut played: HashMap<u32, Vec<Played>> = HashMap::new();
    // A player plays one game at a time: the order paired is the order
    // played.
    for g in games {
        let Some((white, black)) = results(g) else {
            continue; // playing, or called off
        };
        for (n, res, first, berserk) in [
            (g.white, white, true, g.white_berserk),
            (g.black, black, false, g.black_berserk),
        ] {
            played.entry(n).or_default().push(Played {
                res,
                plies: g.plies,
                first,
                berserk,
            });
        }
    }
    played.into_iter().map(|(n, p)| (n, rules::sheet(&p))).collect()
}

/// Each player's performance (`rules::performance`), by pairing number,
/// from an arena's finished games and its entries' ratings.
pub(crate) fn performances(games: &[ArenaGameRow], ratings: &HashMap<u32, i64>) -> HashMap<u32, i64> {
    let mut played: HashMap<u32, Vec<(i64, Res)>> = HashMap::new();
    for g in games {
        let Some((white, black)) = results(g) else {
            continue;
        };
        for (me, them, res) in [(g.white, g.black, white), (g.black, g.white, black)] {
            let rating = ratings.get(&them).copied().unwrap_or_default();
            played.entry(me).or_default().push((rating, res));
        }
    }
    played
        .into_iter()
        .filter_map(|(n, p)| Some((n, rules::performance(p)?)))
        .collect()
}

impl Events {
    /// Starts an arena (its time, or the arbiter's button): it pairs from
    /// now until its end.
    pub(crate) async fn start_arena(&self, l: &Loaded, by: Option<&User>) -> Result<u32, Error> {
        if l.event.state != "open" {
            return Err(Error::conflict("arena_started", "the arena has started already"));
        }
        let now = common::now_ms();
        let ends = now + l.event.duration_ms;
        self.store().start_arena(&l.event.id, ends).await?;
        self.log(
            &l.event.id,
            by,
            "start",
            &format!(
                "the arena started with {} players; it pairs for {} s",
                l.entries.iter().filter(|e| !e.withdrawn).count(),
                l.event.duration_ms / 1000
            ),
        )
        .await?;
        let l = self.load(&l.event.id).await?;
        self.pair_arena(&l).await?;
        Ok(1)
    }

    /// The arena's tick (every second, and after each game): pairs the
    /// players waiting while it runs; past its end, finishes it once its
    /// last game is over.
    pub(crate) async fn tick_arena(&self, id: &str) -> Result<(), Error> {
        let _one = self.lock(id).await;
        let l = self.load(id).await?;
        if l.event.state != "running" {
            return Ok(());
        }
        let now = common::now_ms();
        if l.event.ends_ms.is_some_and(|end| now >= end) {
            if l.arena_games.iter().all(|g| g.result.is_some()) {
                self.store().set_event_state(id, "finished", Some(now)).await?;
                self.log(
                    id,
                    None,
                    "finish",
                    &format!(
                        "the arena's time is up and its last game is over: {} games",
                        l.arena_games
                            .iter()
                            .filter(|g| g.result.as_deref() != Some("*"))
                            .count()
                    ),
                )
                .await?;
            }
            return Ok(());
        }
        if !l.event.paused {
            self.pair_arena(&l).await?;
        }
        Ok(())
    }

    /// Pairs the players of a running arena who are free (lock held).
    async fn pair_arena(&self, l: &Loaded) -> Result<(), Error> {
        let playing: std::collections::HashSet<u32> = l
            .arena_games
            .iter()
            .filter(|g| g.result.is_none())
            .flat_map(|g| [g.white, g.black])
            .collect();
        let active: Vec<&store::EntryRow> = l.entries.iter().filter(|e| !e.withdrawn).collect();
        let sheets = sheets(&l.arena_games);
        // Each player's last opponent, colour balance and last side, in
        // one pass over the games (not one per player: a 500-player
        // arena has 20,000 games in a minute).
        let mut history: HashMap<u32, (Option<u32>, i32, Option<bool>)> = HashMap::new();
        for g in l.arena_games.iter().filter(|g| g.result.as_deref() != Some("*")) {
            for (me, them, first) in [(g.white, g.black, true), (g.black, g.white, false)] {
                let h = history.entry(me).or_default();
                *h = (Some(them), h.1 + if first { 1 } else { -1 }, Some(first));
            }
        }
        let waiting: Vec<Waiting> = active
            .iter()
            .filter(|e| !playing.contains(&e.number))
            .map(|e| {
                let (last_opponent, colour_balance, last_first) =
                    history.get(&e.number).copied().unwrap_or_default();
                Waiting {
                    number: e.number,
                    points: sheets.get(&e.number).map_or(0, |s| s.points),
                    rating: e.rating,
                    last_opponent,
                    colour_balance,
                    last_first,
                }
            })
            .collect();
        if waiting.len() < 2 {
            return Ok(());
        }
        let tc = play::table::parse_time_control(&l.event.time_control)
            .map_err(|e| Error::Internal(format!("event {}: {e}", l.event.id)))?;
        for (white, black) in rules::pair(&waiting, active.len() <= 2) {
            self.create_board_game(l, white, black, &tc, async |game| {
                let row = ArenaGameRow {
                    seq: 0,
                    white,
                    black,
                    game_id: game.to_string(),
                    paired_ms: common::now_ms(),
                    result: None,
                    plies: 0,
                    white_berserk: false,
                    black_berserk: false,
                    ended_ms: None,
                };
                self.store().insert_arena_game(&l.event.id, &row).await?;
                Ok(())
            })
            .await?;
        }
        Ok(())
    }

    /// An arena game ended: its result, its plies and who went berserk
    /// (from the game's own log). A game called off before both moved
    /// counts for no one, and the player who never moved is paused, as
    /// lila withdraws a player who does not start their game.
    pub(crate) async fn score_arena_game(
        &self,
        event: &str,
        g: &ArenaGameRow,
        e: &GameEnded,
    ) -> Result<(), Error> {
        if g.result.is_some() {
            return Ok(());
        }
        let (white_berserk, black_berserk) = self.berserks_of(&g.game_id).await?;
        let result = match e.outcome {
            Some(Outcome::Win { winner: Side::First }) => "1-0",
            Some(Outcome::Win { winner: Side::Second }) => "0-1",
            Some(Outcome::Draw) => "1/2-1/2",
            None => "*",
        };
        let changed = self
            .store()
            .set_arena_result(
                event,
                &ArenaGameRow {
                    result: Some(result.to_string()),
                    plies: e.plies,
                    white_berserk,
                    black_berserk,
                    ended_ms: Some(common::now_ms()),
                    ..g.clone()
                },
            )
            .await?;
        if changed && e.outcome.is_none() {
            let absent = if e.plies.is_multiple_of(2) {
                g.white
            } else {
                g.black
            };
            let l = self.load(event).await?;
            if let Some(entry) = l.entry_number(absent).filter(|x| !x.withdrawn) {
                self.store()
                    .set_withdrawn(event, &entry.user_id, Some(l.event.current_round))
                    .await?;
                self.log(
                    event,
                    None,
                    "pause",
                    &format!(
                        "{} did not start game {} ({}): paused until they join again",
                        entry.name, g.game_id, e.reason
                    ),
                )
                .await?;
            }
        }
        Ok(())
    }

    /// Which sides of a game went berserk, from its stored commands.
    async fn berserks_of(&self, game: &str) -> Result<(bool, bool), Error> {
        let mut out = (false, false);
        for body in self.store().commands(game).await? {
            if let Ok(session::Command::Berserk { side, .. }) = serde_json::from_str(&body) {
                match side {
                    Side::First => out.0 = true,
                    Side::Second => out.1 = true,
                }
            }
        }
        Ok(out)
    }

    /// Scores the arena's games that ended while nobody listened.
    pub(crate) async fn reconcile_arena(&self, l: &Loaded) -> Result<(), Error> {
        for g in l.arena_games.iter().filter(|g| g.result.is_none()) {
            let Some(ended) = self.stored_end(&g.game_id).await? else {
                continue;
            };
            self.score_arena_game(&l.event.id, g, &ended).await?;
        }
        Ok(())
    }

    /// `by` goes berserk in their arena game (lichess's Board API
    /// `POST /api/board/game/{id}/berserk`): half their clock, no
    /// increment, one more point for a win with 7 moves or more.
    ///
    /// # Errors
    /// Not an arena game, or not `by`'s; the arena allows no berserk; the
    /// game refuses (moved already, berserk already, over).
    pub async fn berserk(&self, game: &str, by: &User) -> Result<(), Error> {
        // Three rows, not the arena: a berserk neither waits for the
        // event's lock nor holds it (a 500-player arena's waves pair and
        // score under it). The game's task is the authority on whether
        // the berserk is allowed, and its command log on who went berserk
        // (`berserks_of`, when the game is scored); the flag written here
        // shows it on the arena's page meanwhile.
        let not_found = || Error::NotFound(format!("arena game {game}"));
        let (event, g) = self.store().arena_game_of(game).await?.ok_or_else(not_found)?;
        let ev = self.store().event(&event).await?.ok_or_else(not_found)?;
        if !ev.berserk {
            return Err(Error::conflict("no_berserk", "this arena does not allow berserk"));
        }
        let (row, _) = self.store().game(game).await?.ok_or_else(not_found)?;
        let white = if row.first_id.as_deref() == Some(by.id.as_str()) {
            true
        } else if row.second_id.as_deref() == Some(by.id.as_str()) {
            false
        } else {
            return Err(Error::Forbidden("only the game's players may go berserk".into()));
        };
        play::live::act_on(self.play(), game, &by.id, play::table::Action::Berserk).await?;
        self.store().set_arena_berserk(&event, g.seq, white).await?;
        self.changed(&event);
        Ok(())
    }
}
