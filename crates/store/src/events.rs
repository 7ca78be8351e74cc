//! Events (issue 28, tournaments on the platform): an event's terms, its
//! entries, the pairings of each round with their games and results, and
//! the arbiter's log. The events room keeps all it knows of a running event
//! here, so that a restart resumes it with the same pairings and results;
//! it knows the rules, this module only the rows.

use crate::{Store, StoreError};
use sqlx::any::AnyRow;
use sqlx::Row;

/// An event as its row stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    pub id: String,
    /// The node that runs it: it pairs the rounds and hears the games end.
    pub node: String,
    pub name: String,
    pub organiser_id: String,
    pub variant: String,
    pub time_control: String,
    pub rated: bool,
    /// `swiss`, `round-robin` or `double-round-robin`.
    pub system: String,
    pub rounds: u32,
    /// `1-0.5-0`, `2-1-0` or `3-1-0`.
    pub scoring: String,
    /// `fide` or `cxa`.
    pub tiebreaks: String,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    pub invitation: Option<String>,
    /// Each round's scheduled start (ms since the epoch) as a JSON array;
    /// `[]` when the arbiter pairs every round by hand.
    pub starts: String,
    /// A knockout's match format: games of the match proper, rapid
    /// play-off games after a tie, then an armageddon game or not.
    pub match_games: u32,
    pub playoff_games: u32,
    pub armageddon: bool,
    /// The clock of a knockout's play-off and armageddon games.
    pub playoff_time_control: String,
    /// `open`, `running` or `finished`.
    pub state: String,
    /// The last round paired (0 before the first).
    pub current_round: u32,
    pub created_ms: i64,
    pub finished_ms: Option<i64>,
    /// An arena's length (0 for other systems).
    pub duration_ms: i64,
    /// An arena lets its players go berserk.
    pub berserk: bool,
    /// When a started arena stops pairing.
    pub ends_ms: Option<i64>,
    /// The arbiter paused the event: nothing is paired while set.
    pub paused: bool,
    /// When the arbiter published the final results.
    pub published_ms: Option<i64>,
    /// A team event's boards per match (0: not a team event) and the
    /// most substitutes a roster may add (seed 000 12.2).
    pub boards: u32,
    pub substitutes: u32,
    /// A knockout's race: a match is won by the first to win this many
    /// games (0: the match is `match_games` games).
    pub first_to: u32,
    /// Entry only with at least this many rated games in the variant's
    /// rating pool (0: no minimum).
    pub min_rated_games: u32,
    /// The window for each game's first move, after which a player who
    /// has not moved loses (seed 000 21.1); 0: the node's window.
    pub forfeit_after_ms: i64,
    /// The rounds after those with a start of their own are paired this
    /// long after the round before closed (`None`: by the arbiter). Each
    /// such start is written into `starts` as the round before closes.
    pub round_interval_ms: Option<i64>,
    /// A staged event's plan (seed 001's office event; 0 for the other
    /// systems): groups, players per group, how many of each go on, and
    /// the size of the final round robin.
    pub group_count: u32,
    pub group_size: u32,
    pub advance_per_group: u32,
    pub final_size: u32,
    /// A staged event's groups drawn by lot (seed 001), not seeded.
    pub groups_by_lot: bool,
    /// A team event's line-ups in any order (12.3 临时定台制) rather than
    /// in roster order (12.2).
    pub lineups_any_order: bool,
    /// A team event's matches played 全队轮赛制 (12.4: every player of a
    /// team against every player of the other, a part a round) rather
    /// than board against board.
    pub team_all_play_all: bool,
    /// A team event's teams ranked 队员总分制 (15.5: by their players'
    /// individual places) rather than by match points.
    pub team_ranking_places: bool,
    /// How long a knockout match waits for its armageddon colour to be
    /// chosen before the server chooses black for the chooser.
    pub armageddon_choice_ms: i64,
}

/// One entry: a player in an event, by pairing number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRow {
    pub user_id: String,
    pub number: u32,
    pub name: String,
    pub rating: i64,
    pub withdrawn: bool,
    /// The first round the withdrawn player is not paired in.
    pub withdrawn_from: Option<u32>,
    /// Added by the arbiter after the first round was paired.
    pub late: bool,
    /// The first round the entry may be paired in.
    pub first_round: u32,
    pub joined_ms: i64,
}

/// One board of one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRow {
    pub round: u32,
    pub board: u32,
    /// Pairing number of the first side (white, red).
    pub white: u32,
    /// `None`: `white` has the bye.
    pub black: Option<u32>,
    pub game_id: Option<String>,
    /// `None` while the game is played; `1-0`, `0-1`, `1/2-1/2`, `+-`,
    /// `-+`, `--` (both forfeit) or `bye`.
    pub result: Option<String>,
    /// Scored without play (seed 000 21.4: `+`/`-`).
    pub forfeit: bool,
}

/// One line of an event's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    pub seq: i64,
    pub at_ms: i64,
    /// `None`: the server did it (a round paired at its time, a no-show).
    pub actor_id: Option<String>,
    pub actor: String,
    pub action: String,
    pub detail: String,
}

const EVENT_COLS: &str =
    "id, node, name, organiser_id, variant, time_control, rated, system, rounds, scoring, \
     tiebreaks, min_rating, max_rating, invitation, starts, match_games, playoff_games, armageddon, playoff_time_control, \
     state, current_round, created_ms, finished_ms, duration_ms, berserk, ends_ms, paused, published_ms, boards, substitutes, first_to, min_rated_games, forfeit_after_ms, \
     group_count, group_size, advance_per_group, final_size, lineups_any_order, groups_by_lot, \
     team_all_play_all, team_ranking_places, round_interval_ms, armageddon_choice_ms";

pub(crate) fn u32_of(row: &AnyRow, col: &'static str, table: &'static str) -> Result<u32, StoreError> {
    let v: i64 = row.try_get(col)?;
    u32::try_from(v).map_err(|_| StoreError::Corrupt {
        table,
        detail: format!("{col} = {v}"),
    })
}

fn event_from(row: &AnyRow) -> Result<EventRow, StoreError> {
    Ok(EventRow {
        id: row.try_get("id")?,
        node: row.try_get("node")?,
        name: row.try_get("name")?,
        organiser_id: row.try_get("organiser_id")?,
        variant: row.try_get("variant")?,
        time_control: row.try_get("time_control")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        system: row.try_get("system")?,
        rounds: u32_of(row, "rounds", "events")?,
        scoring: row.try_get("scoring")?,
        tiebreaks: row.try_get("tiebreaks")?,
        min_rating: row.try_get("min_rating")?,
        max_rating: row.try_get("max_rating")?,
        invitation: row.try_get("invitation")?,
        starts: row.try_get("starts")?,
        match_games: u32_of(row, "match_games", "events")?,
        playoff_games: u32_of(row, "playoff_games", "events")?,
        armageddon: row.try_get::<i64, _>("armageddon")? != 0,
        playoff_time_control: row.try_get("playoff_time_control")?,
        state: row.try_get("state")?,
        current_round: u32_of(row, "current_round", "events")?,
        created_ms: row.try_get("created_ms")?,
        finished_ms: row.try_get("finished_ms")?,
        duration_ms: row.try_get("duration_ms")?,
        berserk: row.try_get::<i64, _>("berserk")? != 0,
        ends_ms: row.try_get("ends_ms")?,
        paused: row.try_get::<i64, _>("paused")? != 0,
        published_ms: row.try_get("published_ms")?,
        boards: u32_of(row, "boards", "events")?,
        substitutes: u32_of(row, "substitutes", "events")?,
        first_to: u32_of(row, "first_to", "events")?,
        min_rated_games: u32_of(row, "min_rated_games", "events")?,
        forfeit_after_ms: row.try_get("forfeit_after_ms")?,
        group_count: u32_of(row, "group_count", "events")?,
        group_size: u32_of(row, "group_size", "events")?,
        advance_per_group: u32_of(row, "advance_per_group", "events")?,
        final_size: u32_of(row, "final_size", "events")?,
        lineups_any_order: row.try_get::<i64, _>("lineups_any_order")? != 0,
        groups_by_lot: row.try_get::<i64, _>("groups_by_lot")? != 0,
        team_all_play_all: row.try_get::<i64, _>("team_all_play_all")? != 0,
        team_ranking_places: row.try_get::<i64, _>("team_ranking_places")? != 0,
        round_interval_ms: row.try_get("round_interval_ms")?,
        armageddon_choice_ms: row.try_get("armageddon_choice_ms")?,
    })
}

fn entry_from(row: &AnyRow) -> Result<EntryRow, StoreError> {
    let from: Option<i64> = row.try_get("withdrawn_from")?;
    Ok(EntryRow {
        user_id: row.try_get("user_id")?,
        number: u32_of(row, "number", "event_entries")?,
        name: row.try_get("name")?,
        rating: row.try_get("rating")?,
        withdrawn: row.try_get::<i64, _>("withdrawn")? != 0,
        withdrawn_from: from.and_then(|f| u32::try_from(f).ok()),
        late: row.try_get::<i64, _>("late")? != 0,
        first_round: u32_of(row, "first_round", "event_entries")?,
        joined_ms: row.try_get("joined_ms")?,
    })
}

fn pairing_from(row: &AnyRow) -> Result<PairingRow, StoreError> {
    let black: Option<i64> = row.try_get("black")?;
    Ok(PairingRow {
        round: u32_of(row, "round", "event_pairings")?,
        board: u32_of(row, "board", "event_pairings")?,
        white: u32_of(row, "white", "event_pairings")?,
        black: black.and_then(|b| u32::try_from(b).ok()),
        game_id: row.try_get("game_id")?,
        result: row.try_get("result")?,
        forfeit: row.try_get::<i64, _>("forfeit")? != 0,
    })
}

const PAIRING_COLS: &str = "round, board, white, black, game_id, result, forfeit";

/// One game of a knockout match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchGameRow {
    pub round: u32,
    pub board: u32,
    /// 1, 2, … over the whole match.
    pub game_no: u32,
    /// `regular`, `playoff` or `armageddon`.
    pub phase: String,
    /// The pairing number with the first side in this game.
    pub white: u32,
    pub game_id: String,
    /// `None` while playing; `1-0`, `0-1` or `1/2-1/2` as the game went.
    pub result: Option<String>,
}

/// A knockout match's armageddon colour: who chooses it and until when,
/// and, once chosen, the side they took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmageddonChoiceRow {
    pub round: u32,
    pub board: u32,
    /// The pairing number of the player who chooses.
    pub chooser: u32,
    /// The wait's end (ms since the epoch).
    pub due_ms: i64,
    /// `first` or `second`: the side the chooser takes; `None` while the
    /// match waits.
    pub side: Option<String>,
    pub chosen_ms: Option<i64>,
    /// The wait ran out and the server chose.
    pub by_server: bool,
}

const CHOICE_COLS: &str = "round, board, chooser, due_ms, side, chosen_ms, by_server";

fn choice_from(row: &AnyRow) -> Result<ArmageddonChoiceRow, StoreError> {
    let t = "event_armageddon_choices";
    Ok(ArmageddonChoiceRow {
        round: u32_of(row, "round", t)?,
        board: u32_of(row, "board", t)?,
        chooser: u32_of(row, "chooser", t)?,
        due_ms: row.try_get("due_ms")?,
        side: row.try_get("side")?,
        chosen_ms: row.try_get("chosen_ms")?,
        by_server: row.try_get::<i64, _>("by_server")? != 0,
    })
}

/// One game of an arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaGameRow {
    /// 1, 2, … in the order paired.
    pub seq: u32,
    /// Pairing numbers: the first side (white, red) and the second.
    pub white: u32,
    pub black: u32,
    pub game_id: String,
    pub paired_ms: i64,
    /// `None` while playing; `1-0`, `0-1`, `1/2-1/2`, or `*` (called off).
    pub result: Option<String>,
    pub plies: u32,
    pub white_berserk: bool,
    pub black_berserk: bool,
    pub ended_ms: Option<i64>,
}

const ARENA_COLS: &str =
    "seq, white, black, game_id, paired_ms, result, plies, white_berserk, black_berserk, ended_ms";

fn arena_game_from(row: &AnyRow) -> Result<ArenaGameRow, StoreError> {
    let t = "event_arena_games";
    Ok(ArenaGameRow {
        seq: u32_of(row, "seq", t)?,
        white: u32_of(row, "white", t)?,
        black: u32_of(row, "black", t)?,
        game_id: row.try_get("game_id")?,
        paired_ms: row.try_get("paired_ms")?,
        result: row.try_get("result")?,
        plies: u32_of(row, "plies", t)?,
        white_berserk: row.try_get::<i64, _>("white_berserk")? != 0,
        black_berserk: row.try_get::<i64, _>("black_berserk")? != 0,
        ended_ms: row.try_get("ended_ms")?,
    })
}

const MATCH_GAME_COLS: &str = "round, board, game_no, phase, white, game_id, result";

fn match_game_from(row: &AnyRow) -> Result<MatchGameRow, StoreError> {
    Ok(MatchGameRow {
        round: u32_of(row, "round", "event_match_games")?,
        board: u32_of(row, "board", "event_match_games")?,
        game_no: u32_of(row, "game_no", "event_match_games")?,
        phase: row.try_get("phase")?,
        white: u32_of(row, "white", "event_match_games")?,
        game_id: row.try_get("game_id")?,
        result: row.try_get("result")?,
    })
}

impl Store {
    /// Stores a new event.
    pub async fn insert_event(&self, e: &EventRow) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO events ({EVENT_COLS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31,$32,$33,$34,$35,$36,$37,$38,$39,$40,$41,$42,$43)"
        ))
        .bind(&e.id)
        .bind(&e.node)
        .bind(&e.name)
        .bind(&e.organiser_id)
        .bind(&e.variant)
        .bind(&e.time_control)
        .bind(i64::from(e.rated))
        .bind(&e.system)
        .bind(i64::from(e.rounds))
        .bind(&e.scoring)
        .bind(&e.tiebreaks)
        .bind(e.min_rating)
        .bind(e.max_rating)
        .bind(e.invitation.clone())
        .bind(&e.starts)
        .bind(i64::from(e.match_games))
        .bind(i64::from(e.playoff_games))
        .bind(i64::from(e.armageddon))
        .bind(&e.playoff_time_control)
        .bind(&e.state)
        .bind(i64::from(e.current_round))
        .bind(e.created_ms)
        .bind(e.finished_ms)
        .bind(e.duration_ms)
        .bind(i64::from(e.berserk))
        .bind(e.ends_ms)
        .bind(i64::from(e.paused))
        .bind(e.published_ms)
        .bind(i64::from(e.boards))
        .bind(i64::from(e.substitutes))
        .bind(i64::from(e.first_to))
        .bind(i64::from(e.min_rated_games))
        .bind(e.forfeit_after_ms)
        .bind(i64::from(e.group_count))
        .bind(i64::from(e.group_size))
        .bind(i64::from(e.advance_per_group))
        .bind(i64::from(e.final_size))
        .bind(i64::from(e.lineups_any_order))
        .bind(i64::from(e.groups_by_lot))
        .bind(i64::from(e.team_all_play_all))
        .bind(i64::from(e.team_ranking_places))
        .bind(e.round_interval_ms)
        .bind(e.armageddon_choice_ms)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    pub async fn event(&self, id: &str) -> Result<Option<EventRow>, StoreError> {
        sqlx::query(&format!("SELECT {EVENT_COLS} FROM events WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.writer)
            .await?
            .as_ref()
            .map(event_from)
            .transpose()
    }

    /// Events in `state`, the newest first, at most `limit`.
    pub async fn events_in(&self, state: &str, limit: i64) -> Result<Vec<EventRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {EVENT_COLS} FROM events WHERE state = $1 ORDER BY created_ms DESC LIMIT $2"
        ))
        .bind(state)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(event_from)
        .collect()
    }

    /// The events `node` runs that are not finished (resumed at start).
    pub async fn unfinished_events(&self, node: &str) -> Result<Vec<EventRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {EVENT_COLS} FROM events WHERE node = $1 AND state <> 'finished' ORDER BY created_ms"
        ))
        .bind(node)
        .fetch_all(&self.writer)
        .await?
        .iter()
        .map(event_from)
        .collect()
    }

    /// How many unfinished events `organiser_id` runs.
    pub async fn unfinished_events_of(&self, organiser_id: &str) -> Result<i64, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) FROM events WHERE organiser_id = $1 AND state <> 'finished'")
                .bind(organiser_id)
                .fetch_one(&self.writer)
                .await?,
        )
    }

    /// Sets an event's state (and when it finished).
    pub async fn set_event_state(
        &self,
        id: &str,
        state: &str,
        finished_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE events SET state = $1, finished_ms = $2 WHERE id = $3")
            .bind(state)
            .bind(finished_ms)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Sets the number of rounds (a round robin's, once its players are known).
    pub async fn set_event_rounds(&self, id: &str, rounds: u32) -> Result<(), StoreError> {
        sqlx::query("UPDATE events SET rounds = $1 WHERE id = $2")
            .bind(i64::from(rounds))
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Enters a player with the next free pairing number; `Ok(None)` when
    /// they are entered already.
    pub async fn add_entry(&self, event_id: &str, e: &EntryRow) -> Result<Option<u32>, StoreError> {
        let added = sqlx::query(
            "INSERT INTO event_entries (event_id, user_id, number, name, rating, withdrawn, withdrawn_from, late, first_round, joined_ms) \
             SELECT $1, $2, COALESCE(MAX(number), 0) + 1, $3, $4, 0, NULL, $5, $6, $7 FROM event_entries WHERE event_id = $1 \
             ON CONFLICT DO NOTHING",
        )
        .bind(event_id)
        .bind(&e.user_id)
        .bind(&e.name)
        .bind(e.rating)
        .bind(i64::from(e.late))
        .bind(i64::from(e.first_round))
        .bind(e.joined_ms)
        .execute(&self.writer)
        .await?
        .rows_affected();
        if added == 0 {
            return Ok(None);
        }
        Ok(self
            .entries(event_id)
            .await?
            .into_iter()
            .find(|x| x.user_id == e.user_id)
            .map(|x| x.number))
    }

    /// Takes an entry out before the event starts; whether there was one.
    pub async fn remove_entry(&self, event_id: &str, user_id: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("DELETE FROM event_entries WHERE event_id = $1 AND user_id = $2")
                .bind(event_id)
                .bind(user_id)
                .execute(&self.writer)
                .await?
                .rows_affected()
                == 1,
        )
    }

    /// An event's entries by pairing number.
    pub async fn entries(&self, event_id: &str) -> Result<Vec<EntryRow>, StoreError> {
        sqlx::query(
            "SELECT user_id, number, name, rating, withdrawn, withdrawn_from, late, first_round, joined_ms \
             FROM event_entries WHERE event_id = $1 ORDER BY number",
        )
        .bind(event_id)
        .fetch_all(&self.writer)
        .await?
        .iter()
        .map(entry_from)
        .collect()
    }

    /// Withdraws a player from round `from` on, or (`None`) re-admits them.
    pub async fn set_withdrawn(
        &self,
        event_id: &str,
        user_id: &str,
        from: Option<u32>,
    ) -> Result<bool, StoreError> {
        Ok(sqlx::query(
            "UPDATE event_entries SET withdrawn = $1, withdrawn_from = $2 WHERE event_id = $3 AND user_id = $4",
        )
        .bind(i64::from(from.is_some()))
        .bind(from.map(i64::from))
        .bind(event_id)
        .bind(user_id)
        .execute(&self.writer)
        .await?
        .rows_affected()
            == 1)
    }

    /// Withdraws several entries at once, not paired from round `from` on
    /// (a whole team, seed 000 20.x), in one transaction: all of them or
    /// none. Entries withdrawn already keep their round.
    pub async fn withdraw_entries(
        &self,
        event_id: &str,
        user_ids: &[String],
        from: u32,
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        for user in user_ids {
            sqlx::query(
                "UPDATE event_entries SET withdrawn = 1, withdrawn_from = $1 \
                 WHERE event_id = $2 AND user_id = $3 AND withdrawn = 0",
            )
            .bind(i64::from(from))
            .bind(event_id)
            .bind(user)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Re-admits several entries at once, paired again (a whole team the
    /// arbiter re-admits, seed 000 20.x), in one transaction: all of them
    /// or none.
    pub async fn readmit_entries(&self, event_id: &str, user_ids: &[String]) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        for user in user_ids {
            sqlx::query(
                "UPDATE event_entries SET withdrawn = 0, withdrawn_from = NULL \
                 WHERE event_id = $1 AND user_id = $2",
            )
            .bind(event_id)
            .bind(user)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Gives the entries new pairing numbers (`(user id, number)`), in one
    /// transaction: the initial ranking made when the first round is paired.
    pub async fn renumber_entries(
        &self,
        event_id: &str,
        numbers: &[(String, u32)],
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        // Out of the way first: the numbers are unique within the event.
        sqlx::query("UPDATE event_entries SET number = -number - 1 WHERE event_id = $1")
            .bind(event_id)
            .execute(&mut *tx)
            .await?;
        for (user, n) in numbers {
            sqlx::query("UPDATE event_entries SET number = $1 WHERE event_id = $2 AND user_id = $3")
                .bind(i64::from(*n))
                .bind(event_id)
                .bind(user)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Stores round `round`'s pairings and makes it the event's current
    /// round, in one transaction: a round is paired entirely or not at all.
    pub async fn insert_round(
        &self,
        event_id: &str,
        round: u32,
        paired_ms: i64,
        boards: &[PairingRow],
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        sqlx::query(
            "INSERT INTO event_rounds (event_id, round, paired_ms, finished_ms) VALUES ($1, $2, $3, NULL)",
        )
        .bind(event_id)
        .bind(i64::from(round))
        .bind(paired_ms)
        .execute(&mut *tx)
        .await?;
        for b in boards {
            sqlx::query(&format!(
                "INSERT INTO event_pairings (event_id, {PAIRING_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            ))
            .bind(event_id)
            .bind(i64::from(b.round))
            .bind(i64::from(b.board))
            .bind(i64::from(b.white))
            .bind(b.black.map(i64::from))
            .bind(b.game_id.clone())
            .bind(b.result.clone())
            .bind(i64::from(b.forfeit))
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("UPDATE events SET current_round = $1, state = 'running' WHERE id = $2")
            .bind(i64::from(round))
            .bind(event_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records the game a board is played in.
    pub async fn set_pairing_game(
        &self,
        event_id: &str,
        round: u32,
        board: u32,
        game_id: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE event_pairings SET game_id = $1 WHERE event_id = $2 AND round = $3 AND board = $4",
        )
        .bind(game_id)
        .bind(event_id)
        .bind(i64::from(round))
        .bind(i64::from(board))
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Records (or corrects) a board's result. With `only_if_open`, only
    /// while it has none: a game's end never overwrites the arbiter's
    /// ruling. Whether a row changed.
    pub async fn set_pairing_result(
        &self,
        event_id: &str,
        round: u32,
        board: u32,
        result: &str,
        forfeit: bool,
        only_if_open: bool,
    ) -> Result<bool, StoreError> {
        let cond = if only_if_open { " AND result IS NULL" } else { "" };
        Ok(sqlx::query(&format!(
            "UPDATE event_pairings SET result = $1, forfeit = $2 WHERE event_id = $3 AND round = $4 AND board = $5{cond}"
        ))
        .bind(result)
        .bind(i64::from(forfeit))
        .bind(event_id)
        .bind(i64::from(round))
        .bind(i64::from(board))
        .execute(&self.writer)
        .await?
        .rows_affected()
            == 1)
    }

    /// How many boards of `round` have no result yet: whether the round
    /// is complete, asked without reading the event whole.
    pub async fn open_boards(&self, event_id: &str, round: u32) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM event_pairings WHERE event_id = $1 AND round = $2 AND result IS NULL",
        )
        .bind(event_id)
        .bind(i64::from(round))
        .fetch_one(&self.writer)
        .await?;
        Ok(n.max(0) as u64)
    }

    /// This node's events whose current round has every result but was
    /// not closed (its `finished_ms` unset): what closing it after its last
    /// result would have done, had it not been cut short.
    pub async fn unclosed_rounds(&self, node: &str) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT e.id FROM events e JOIN event_rounds r ON r.event_id = e.id AND r.round = e.current_round \
             WHERE e.node = $1 AND e.state <> 'finished' AND e.system <> 'arena' AND r.finished_ms IS NULL \
             AND NOT EXISTS (SELECT 1 FROM event_pairings p \
                 WHERE p.event_id = e.id AND p.round = e.current_round AND p.result IS NULL)",
        )
        .bind(node)
        .fetch_all(&self.writer)
        .await?)
    }

    /// The event and board a game is played for, if any.
    pub async fn pairing_of_game(&self, game_id: &str) -> Result<Option<(String, PairingRow)>, StoreError> {
        let Some(row) = sqlx::query(&format!(
            "SELECT event_id, {PAIRING_COLS} FROM event_pairings WHERE game_id = $1"
        ))
        .bind(game_id)
        .fetch_optional(&self.writer)
        .await?
        else {
            return Ok(None);
        };
        Ok(Some((row.try_get("event_id")?, pairing_from(&row)?)))
    }

    /// Every board of every round, by round and board.
    pub async fn pairings(&self, event_id: &str) -> Result<Vec<PairingRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {PAIRING_COLS} FROM event_pairings WHERE event_id = $1 ORDER BY round, board"
        ))
        .bind(event_id)
        .fetch_all(&self.writer)
        .await?
        .iter()
        .map(pairing_from)
        .collect()
    }

    /// Records a knockout match's next game and makes it the board's game,
    /// in one transaction.
    pub async fn insert_match_game(&self, event_id: &str, g: &MatchGameRow) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        sqlx::query(&format!(
            "INSERT INTO event_match_games (event_id, {MATCH_GAME_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        ))
        .bind(event_id)
        .bind(i64::from(g.round))
        .bind(i64::from(g.board))
        .bind(i64::from(g.game_no))
        .bind(&g.phase)
        .bind(i64::from(g.white))
        .bind(&g.game_id)
        .bind(g.result.clone())
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE event_pairings SET game_id = $1 WHERE event_id = $2 AND round = $3 AND board = $4",
        )
        .bind(&g.game_id)
        .bind(event_id)
        .bind(i64::from(g.round))
        .bind(i64::from(g.board))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records how a match game went, once; whether it had no result.
    pub async fn set_match_game_result(&self, game_id: &str, result: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("UPDATE event_match_games SET result = $1 WHERE game_id = $2 AND result IS NULL")
                .bind(result)
                .bind(game_id)
                .execute(&self.writer)
                .await?
                .rows_affected()
                == 1,
        )
    }

    /// Every knockout game of an event, by round, board and number.
    pub async fn match_games(&self, event_id: &str) -> Result<Vec<MatchGameRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {MATCH_GAME_COLS} FROM event_match_games WHERE event_id = $1 ORDER BY round, board, game_no"
        ))
        .bind(event_id)
        .fetch_all(&self.writer)
        .await?
        .iter()
        .map(match_game_from)
        .collect()
    }

    /// Opens the wait for a match's armageddon colour, once: whether it
    /// was not open already (a wait opened before a restart keeps its end).
    pub async fn open_armageddon_choice(
        &self,
        event_id: &str,
        round: u32,
        board: u32,
        chooser: u32,
        due_ms: i64,
    ) -> Result<bool, StoreError> {
        Ok(sqlx::query(
            "INSERT INTO event_armageddon_choices (event_id, round, board, chooser, due_ms, by_server) \
             VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT DO NOTHING",
        )
        .bind(event_id)
        .bind(i64::from(round))
        .bind(i64::from(board))
        .bind(i64::from(chooser))
        .bind(due_ms)
        .execute(&self.writer)
        .await?
        .rows_affected()
            == 1)
    }

    /// Records the armageddon colour of a match whose wait is open, once:
    /// whether it was still open (`side` is `first` or `second`, the
    /// chooser's).
    pub async fn choose_armageddon(
        &self,
        event_id: &str,
        round: u32,
        board: u32,
        side: &str,
        at_ms: i64,
        by_server: bool,
    ) -> Result<bool, StoreError> {
        Ok(sqlx::query(
            "UPDATE event_armageddon_choices SET side = $1, chosen_ms = $2, by_server = $3 \
             WHERE event_id = $4 AND round = $5 AND board = $6 AND side IS NULL",
        )
        .bind(side)
        .bind(at_ms)
        .bind(i64::from(by_server))
        .bind(event_id)
        .bind(i64::from(round))
        .bind(i64::from(board))
        .execute(&self.writer)
        .await?
        .rows_affected()
            == 1)
    }

    /// Every armageddon colour of an event, waited for or chosen.
    pub async fn armageddon_choices(&self, event_id: &str) -> Result<Vec<ArmageddonChoiceRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {CHOICE_COLS} FROM event_armageddon_choices WHERE event_id = $1 ORDER BY round, board"
        ))
        .bind(event_id)
        .fetch_all(&self.writer)
        .await?
        .iter()
        .map(choice_from)
        .collect()
    }

    /// The unfinished events of `node` with an armageddon colour whose
    /// wait ran out by `now_ms` and was not chosen, its match undecided: the room's tick
    /// chooses for the player. One query when there are none.
    pub async fn armageddon_choices_due(&self, node: &str, now_ms: i64) -> Result<Vec<String>, StoreError> {
        sqlx::query_scalar(
            "SELECT DISTINCT c.event_id FROM event_armageddon_choices c JOIN events e ON e.id = c.event_id \
             JOIN event_pairings p ON p.event_id = c.event_id AND p.round = c.round AND p.board = c.board \
             WHERE c.side IS NULL AND c.due_ms <= $1 AND e.node = $2 AND e.state <> 'finished' \
             AND p.result IS NULL",
        )
        .bind(now_ms)
        .bind(node)
        .fetch_all(&self.writer)
        .await
        .map_err(StoreError::from)
    }

    /// Sets an event's round starts (a JSON array of ms since the epoch):
    /// a start found when the round before closed.
    pub async fn set_event_starts(&self, event_id: &str, starts: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE events SET starts = $1 WHERE id = $2")
            .bind(starts)
            .bind(event_id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Marks a round complete (its last result is in); whether it was not
    /// marked before.
    pub async fn finish_round(&self, event_id: &str, round: u32, at_ms: i64) -> Result<bool, StoreError> {
        Ok(sqlx::query(
            "UPDATE event_rounds SET finished_ms = $1 WHERE event_id = $2 AND round = $3 AND finished_ms IS NULL",
        )
        .bind(at_ms)
        .bind(event_id)
        .bind(i64::from(round))
        .execute(&self.writer)
        .await?
        .rows_affected()
            == 1)
    }

    /// Appends to an event's log; its number.
    pub async fn log_event_action(
        &self,
        event_id: &str,
        at_ms: i64,
        actor_id: Option<&str>,
        actor: &str,
        action: &str,
        detail: &str,
    ) -> Result<i64, StoreError> {
        // One statement, a write from its start (see insert_arena_game).
        let seq: i64 = sqlx::query_scalar(
            "INSERT INTO event_log (event_id, seq, at_ms, actor_id, actor, action, detail) \
             SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6 FROM event_log WHERE event_id = $1 \
             RETURNING seq",
        )
        .bind(event_id)
        .bind(at_ms)
        .bind(actor_id.map(str::to_string))
        .bind(actor)
        .bind(action)
        .bind(detail)
        .fetch_one(&self.writer)
        .await?;
        Ok(seq)
    }

    /// Names (`true`) or unnames an arbiter of an event besides its
    /// organiser; whether anything changed.
    pub async fn set_event_arbiter(
        &self,
        event_id: &str,
        user_id: &str,
        arbiter: bool,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let q = if arbiter {
            sqlx::query(
                "INSERT INTO event_arbiters (event_id, user_id, added_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            )
            .bind(event_id)
            .bind(user_id)
            .bind(now_ms)
        } else {
            sqlx::query("DELETE FROM event_arbiters WHERE event_id = $1 AND user_id = $2")
                .bind(event_id)
                .bind(user_id)
        };
        Ok(q.execute(&self.writer).await?.rows_affected() == 1)
    }

    /// The arbiters an organiser named for an event (user ids), in the
    /// order named.
    pub async fn event_arbiters(&self, event_id: &str) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT user_id FROM event_arbiters WHERE event_id = $1 ORDER BY added_ms, user_id",
        )
        .bind(event_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// An event's log, oldest first.
    pub async fn event_log(&self, event_id: &str, last: Option<u32>) -> Result<Vec<LogRow>, StoreError> {
        // The last lines, newest first, turned round below.
        let rows = sqlx::query(
            "SELECT seq, at_ms, actor_id, actor, action, detail FROM event_log WHERE event_id = $1 \
             ORDER BY seq DESC LIMIT $2",
        )
        .bind(event_id)
        .bind(last.map_or(i64::MAX, i64::from))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .rev()
            .map(|r| {
                Ok(LogRow {
                    seq: r.try_get("seq")?,
                    at_ms: r.try_get("at_ms")?,
                    actor_id: r.try_get("actor_id")?,
                    actor: r.try_get("actor")?,
                    action: r.try_get("action")?,
                    detail: r.try_get("detail")?,
                })
            })
            .collect()
    }

    /// Starts an arena: running, pairing until `ends_ms`.
    pub async fn start_arena(&self, id: &str, ends_ms: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE events SET state = 'running', current_round = 1, ends_ms = $1 WHERE id = $2")
            .bind(ends_ms)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Records an arena's new game with the next number; the number.
    pub async fn insert_arena_game(&self, event_id: &str, g: &ArenaGameRow) -> Result<u32, StoreError> {
        // One statement: a write from its start, so SQLite's busy wait
        // applies (a transaction that reads first cannot wait for the
        // write lock, and fails "database is locked").
        let seq: i64 = sqlx::query_scalar(&format!(
            "INSERT INTO event_arena_games (event_id, {ARENA_COLS}) \
             SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9, $10 \
             FROM event_arena_games WHERE event_id = $1 RETURNING seq"
        ))
        .bind(event_id)
        .bind(i64::from(g.white))
        .bind(i64::from(g.black))
        .bind(&g.game_id)
        .bind(g.paired_ms)
        .bind(g.result.clone())
        .bind(i64::from(g.plies))
        .bind(i64::from(g.white_berserk))
        .bind(i64::from(g.black_berserk))
        .bind(g.ended_ms)
        .fetch_one(&self.writer)
        .await?;
        u32::try_from(seq).map_err(|_| StoreError::Corrupt {
            table: "event_arena_games",
            detail: format!("seq = {seq}"),
        })
    }

    /// An arena's games in the order paired.
    pub async fn arena_games(&self, event_id: &str) -> Result<Vec<ArenaGameRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {ARENA_COLS} FROM event_arena_games WHERE event_id = $1 ORDER BY seq"
        ))
        .bind(event_id)
        .fetch_all(&self.writer)
        .await?
        .iter()
        .map(arena_game_from)
        .collect()
    }

    /// The arena and its game row a game is played for, if any.
    pub async fn arena_game_of(&self, game_id: &str) -> Result<Option<(String, ArenaGameRow)>, StoreError> {
        let Some(row) = sqlx::query(&format!(
            "SELECT event_id, {ARENA_COLS} FROM event_arena_games WHERE game_id = $1"
        ))
        .bind(game_id)
        .fetch_optional(&self.writer)
        .await?
        else {
            return Ok(None);
        };
        Ok(Some((row.try_get("event_id")?, arena_game_from(&row)?)))
    }

    /// Records how an arena game ended, once; whether it had no result.
    pub async fn set_arena_result(&self, event_id: &str, g: &ArenaGameRow) -> Result<bool, StoreError> {
        Ok(sqlx::query(
            "UPDATE event_arena_games SET result = $1, plies = $2, white_berserk = $3, black_berserk = $4, ended_ms = $5 \
             WHERE event_id = $6 AND seq = $7 AND result IS NULL",
        )
        .bind(g.result.clone())
        .bind(i64::from(g.plies))
        .bind(i64::from(g.white_berserk))
        .bind(i64::from(g.black_berserk))
        .bind(g.ended_ms)
        .bind(event_id)
        .bind(i64::from(g.seq))
        .execute(&self.writer)
        .await?
        .rows_affected()
            == 1)
    }

    /// Marks a side of an arena game berserk (shown while it is played).
    pub async fn set_arena_berserk(&self, event_id: &str, seq: u32, white: bool) -> Result<(), StoreError> {
        let col = if white { "white_berserk" } else { "black_berserk" };
        sqlx::query(&format!(
            "UPDATE event_arena_games SET {col} = 1 WHERE event_id = $1 AND seq = $2"
        ))
        .bind(event_id)
        .bind(i64::from(seq))
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// The arbiter pauses (`true`) or resumes an event.
    pub async fn set_event_paused(&self, id: &str, paused: bool) -> Result<(), StoreError> {
        sqlx::query("UPDATE events SET paused = $1 WHERE id = $2")
            .bind(i64::from(paused))
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// The arbiter publishes the final results.
    pub async fn set_event_published(&self, id: &str, at_ms: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE events SET published_ms = $1 WHERE id = $2")
            .bind(at_ms)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Takes back round `round`'s pairings (the caller saw none of its games begin), in
    /// one transaction: the round before becomes the current one again.
    /// Whether the round was there to take back.
    pub async fn unpair_round(&self, event_id: &str, round: u32) -> Result<bool, StoreError> {
        // The transaction writes first (see insert_arena_game); the
        // events room holds the event's lock, so nothing starts a game of
        // the round in between.
        let mut tx = self.writer.begin().await?;
        sqlx::query("DELETE FROM event_pairings WHERE event_id = $1 AND round = $2")
            .bind(event_id)
            .bind(i64::from(round))
            .execute(&mut *tx)
            .await?;
        let gone = sqlx::query("DELETE FROM event_rounds WHERE event_id = $1 AND round = $2")
            .bind(event_id)
            .bind(i64::from(round))
            .execute(&mut *tx)
            .await?
            .rows_affected();
        sqlx::query("UPDATE events SET current_round = $1 WHERE id = $2 AND current_round = $3")
            .bind(i64::from(round - 1))
            .bind(event_id)
            .bind(i64::from(round))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(gone == 1)
    }

    /// Records a title the operator awarded (`None`: cleared) and the
    /// event whose results justified it, if any.
    pub async fn record_title_award(
        &self,
        user_id: &str,
        title: Option<&str>,
        event_id: Option<&str>,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO title_awards (user_id, awarded_ms, title, event_id) VALUES ($1, $2, $3, $4)",
        )
        .bind(user_id)
        .bind(at_ms)
        .bind(title.map(str::to_string))
        .bind(event_id.map(str::to_string))
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// A player's title awards, oldest first: (when, title, event).
    pub async fn title_awards(
        &self,
        user_id: &str,
    ) -> Result<Vec<(i64, Option<String>, Option<String>)>, StoreError> {
        sqlx::query(
            "SELECT awarded_ms, title, event_id FROM title_awards WHERE user_id = $1 ORDER BY awarded_ms",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok((
                r.try_get("awarded_ms")?,
                r.try_get("title")?,
                r.try_get("event_id")?,
            ))
        })
        .collect()
    }

    /// Grants (or with `granted = false` revokes) the right to create
    /// rated events: an operator's decision (`qiju admin organiser`).
    pub async fn set_organiser(&self, user_id: &str, granted: bool, now_ms: i64) -> Result<(), StoreError> {
        if granted {
            sqlx::query(
                "INSERT INTO organisers (user_id, granted_ms) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            )
            .bind(user_id)
            .bind(now_ms)
            .execute(&self.writer)
            .await?;
        } else {
            sqlx::query("DELETE FROM organisers WHERE user_id = $1")
                .bind(user_id)
                .execute(&self.writer)
                .await?;
        }
        Ok(())
    }

    /// Whether the operator granted `user_id` rated events.
    pub async fn is_organiser(&self, user_id: &str) -> Result<bool, StoreError> {
        Ok(sqlx::query("SELECT 1 FROM organisers WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&self.writer)
            .await?
            .is_some())
    }
}
