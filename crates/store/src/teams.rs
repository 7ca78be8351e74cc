//! Team events (issue 28; seed 000 articles 12–15): the teams of an event
//! with their captains, each roster in board order, and the line-ups the
//! captains hand in per round. Every roster member is also an entry of
//! the event (`event_entries`), entered here in the same transaction, so
//! a team's boards are paired and scored as any event's boards are.

use crate::events::u32_of;
use crate::{EntryRow, Store, StoreError};
use sqlx::Row;

/// A team as registered: its roster is in board order (12.1), the first
/// `boards` the regular players, the rest substitutes (12.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamRow {
    pub number: u32,
    pub name: String,
    pub captain_id: String,
    pub registered_ms: i64,
    /// User ids, roster position 1 first.
    pub members: Vec<String>,
}

/// A foul (犯规) the arbiter recorded (9.1–9.2): it counts in the
/// tie-breaks that name fouls (15.1–15.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoulRow {
    pub round: u32,
    /// `foul` (犯规, 9.1), `warning` (警告, 18.1) or `disqualification`
    /// (取消当场比赛资格, 18.2).
    pub kind: String,
    pub user_id: String,
    pub reason: String,
    pub by_id: String,
    pub recorded_ms: i64,
}

/// A line-up handed in for one round (12.3): roster positions, board 1
/// first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineupRow {
    pub round: u32,
    pub team: u32,
    pub positions: Vec<u32>,
    pub submitted_ms: i64,
}

impl Store {
    /// Registers a team and enters its members (roster order, each with
    /// the next pairing number), in one transaction: the team is there
    /// whole or not at all. Returns the team's number.
    pub async fn add_team(
        &self,
        event_id: &str,
        name: &str,
        captain_id: &str,
        registered_ms: i64,
        members: &[EntryRow],
    ) -> Result<u32, StoreError> {
        let mut tx = self.writer.begin().await?;
        let number: i64 =
            sqlx::query_scalar("SELECT COALESCE(MAX(number), 0) + 1 FROM event_teams WHERE event_id = $1")
                .bind(event_id)
                .fetch_one(&mut *tx)
                .await?;
        sqlx::query(
            "INSERT INTO event_teams (event_id, number, name, captain_id, registered_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(event_id)
        .bind(number)
        .bind(name)
        .bind(captain_id)
        .bind(registered_ms)
        .execute(&mut *tx)
        .await?;
        for (i, e) in members.iter().enumerate() {
            sqlx::query(
                "INSERT INTO event_entries (event_id, user_id, number, name, rating, withdrawn, withdrawn_from, late, first_round, joined_ms) \
                 SELECT $1, $2, COALESCE(MAX(number), 0) + 1, $3, $4, 0, NULL, 0, $5, $6 FROM event_entries WHERE event_id = $1",
            )
            .bind(event_id)
            .bind(&e.user_id)
            .bind(&e.name)
            .bind(e.rating)
            .bind(i64::from(e.first_round))
            .bind(e.joined_ms)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO event_team_members (event_id, team, position, user_id) VALUES ($1, $2, $3, $4)",
            )
            .bind(event_id)
            .bind(number)
            .bind(i as i64 + 1)
            .bind(&e.user_id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        u32::try_from(number).map_err(|_| StoreError::Corrupt {
            table: "event_teams",
            detail: format!("number = {number}"),
        })
    }

    /// Takes team `number` out of an event before its start (seed 000
    /// 20.2, 新抽签: a new draw), in one transaction: its players' entries,
    /// its roster, its line-ups and the team go; the teams after it move
    /// up one number (the registration order is the draw: the Berger
    /// table is drawn for the teams left), and the entries are numbered
    /// again 1, 2, … in their order, as if the team had never registered.
    /// Returns whether the team was there.
    pub async fn remove_team(&self, event_id: &str, number: u32) -> Result<bool, StoreError> {
        let n = i64::from(number);
        let mut tx = self.writer.begin().await?;
        let members: Vec<String> =
            sqlx::query_scalar("SELECT user_id FROM event_team_members WHERE event_id = $1 AND team = $2")
                .bind(event_id)
                .bind(n)
                .fetch_all(&mut *tx)
                .await?;
        for user in &members {
            sqlx::query("DELETE FROM event_entries WHERE event_id = $1 AND user_id = $2")
                .bind(event_id)
                .bind(user)
                .execute(&mut *tx)
                .await?;
        }
        for table in ["event_team_members", "event_lineups"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE event_id = $1 AND team = $2"))
                .bind(event_id)
                .bind(n)
                .execute(&mut *tx)
                .await?;
        }
        let gone = sqlx::query("DELETE FROM event_teams WHERE event_id = $1 AND number = $2")
            .bind(event_id)
            .bind(n)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        // Out of the way first (the numbers are unique), then one less.
        for (table, column) in [
            ("event_teams", "number"),
            ("event_team_members", "team"),
            ("event_lineups", "team"),
        ] {
            sqlx::query(&format!(
                "UPDATE {table} SET {column} = -{column} WHERE event_id = $1 AND {column} > $2"
            ))
            .bind(event_id)
            .bind(n)
            .execute(&mut *tx)
            .await?;
            sqlx::query(&format!(
                "UPDATE {table} SET {column} = -{column} - 1 WHERE event_id = $1 AND {column} < 0"
            ))
            .bind(event_id)
            .execute(&mut *tx)
            .await?;
        }
        let left: Vec<String> =
            sqlx::query_scalar("SELECT user_id FROM event_entries WHERE event_id = $1 ORDER BY number")
                .bind(event_id)
                .fetch_all(&mut *tx)
                .await?;
        sqlx::query("UPDATE event_entries SET number = -number - 1 WHERE event_id = $1")
            .bind(event_id)
            .execute(&mut *tx)
            .await?;
        for (i, user) in left.iter().enumerate() {
            sqlx::query("UPDATE event_entries SET number = $1 WHERE event_id = $2 AND user_id = $3")
                .bind(i as i64 + 1)
                .bind(event_id)
                .bind(user)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(gone)
    }

    /// An event's teams by number, each with its roster in order.
    ///
    /// One statement, so that both tables are read at one moment: read as
    /// two, a withdrawal's renumbering (`remove_team`) or a registration
    /// committed between them showed members of a team the first read had
    /// not seen (a 500 on the team page, seen once in the browser test).
    pub async fn teams(&self, event_id: &str) -> Result<Vec<TeamRow>, StoreError> {
        let mut teams: Vec<TeamRow> = Vec::new();
        for row in sqlx::query(
            "SELECT t.number, t.name, t.captain_id, t.registered_ms, m.user_id FROM event_teams t \
             LEFT JOIN event_team_members m ON m.event_id = t.event_id AND m.team = t.number \
             WHERE t.event_id = $1 ORDER BY t.number, m.position",
        )
        .bind(event_id)
        .fetch_all(&self.writer)
        .await?
        {
            let number = u32_of(&row, "number", "event_teams")?;
            if teams.last().is_none_or(|t| t.number != number) {
                teams.push(TeamRow {
                    number,
                    name: row.try_get("name")?,
                    captain_id: row.try_get("captain_id")?,
                    registered_ms: row.try_get("registered_ms")?,
                    members: Vec::new(),
                });
            }
            let member: Option<String> = row.try_get("user_id")?;
            if let (Some(t), Some(m)) = (teams.last_mut(), member) {
                t.members.push(m);
            }
        }
        Ok(teams)
    }

    /// Stores (or replaces) a team's line-up for a round.
    pub async fn set_lineup(&self, event_id: &str, l: &LineupRow) -> Result<(), StoreError> {
        let positions = l
            .positions
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        sqlx::query(
            "INSERT INTO event_lineups (event_id, round, team, positions, submitted_ms) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (event_id, round, team) DO UPDATE SET positions = excluded.positions, submitted_ms = excluded.submitted_ms",
        )
        .bind(event_id)
        .bind(i64::from(l.round))
        .bind(i64::from(l.team))
        .bind(positions)
        .bind(l.submitted_ms)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Every line-up handed in for an event, by round then team.
    pub async fn lineups(&self, event_id: &str) -> Result<Vec<LineupRow>, StoreError> {
        sqlx::query(
            "SELECT round, team, positions, submitted_ms FROM event_lineups WHERE event_id = $1 ORDER BY round, team",
        )
        .bind(event_id)
        .fetch_all(&self.writer)
        .await?
        .iter()
        .map(|row| {
            let text: String = row.try_get("positions")?;
            Ok(LineupRow {
                round: u32_of(row, "round", "event_lineups")?,
                team: u32_of(row, "team", "event_lineups")?,
                positions: text
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .map_err(|e| StoreError::Corrupt {
                        table: "event_lineups",
                        detail: format!("positions {text:?}: {e}"),
                    })?,
                submitted_ms: row.try_get("submitted_ms")?,
            })
        })
        .collect()
    }

    /// Records a foul or a penalty; they are kept in the order recorded.
    pub async fn add_foul(&self, event_id: &str, f: &FoulRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO event_fouls (event_id, seq, round, user_id, reason, by_id, recorded_ms, kind) \
             SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6, $7 FROM event_fouls WHERE event_id = $1",
        )
        .bind(event_id)
        .bind(i64::from(f.round))
        .bind(&f.user_id)
        .bind(&f.reason)
        .bind(&f.by_id)
        .bind(f.recorded_ms)
        .bind(&f.kind)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// An event's fouls and penalties in the order recorded.
    pub async fn fouls(&self, event_id: &str) -> Result<Vec<FoulRow>, StoreError> {
        sqlx::query(
            "SELECT round, kind, user_id, reason, by_id, recorded_ms FROM event_fouls WHERE event_id = $1 ORDER BY seq",
        )
        .bind(event_id)
        .fetch_all(&self.writer)
        .await?
        .iter()
        .map(|row| {
            Ok(FoulRow {
                round: u32_of(row, "round", "event_fouls")?,
                kind: row.try_get("kind")?,
                user_id: row.try_get("user_id")?,
                reason: row.try_get("reason")?,
                by_id: row.try_get("by_id")?,
                recorded_ms: row.try_get("recorded_ms")?,
            })
        })
        .collect()
    }

    /// Sets several boards' results at once (a whole team's forfeit of a
    /// match, 21.4): all of them or none.
    pub async fn set_pairing_results(
        &self,
        event_id: &str,
        results: &[(u32, u32, &str, bool)],
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        for &(round, board, result, forfeit) in results {
            sqlx::query(
                "UPDATE event_pairings SET result = $1, forfeit = $2 WHERE event_id = $3 AND round = $4 AND board = $5",
            )
            .bind(result)
            .bind(i64::from(forfeit))
            .bind(event_id)
            .bind(i64::from(round))
            .bind(i64::from(board))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
