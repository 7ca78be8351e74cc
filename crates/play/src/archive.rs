//! Games as lists: a player's archive (filtered by opponent, result, game
//! and opening) as summaries or as one PGN file, and the live games the
//! lobby and "TV" show.

use crate::Play;
use common::Error;
use serde::{Deserialize, Serialize};
use store::{GameRow, PlayerResult, User};
use utoipa::{IntoParams, ToSchema};

/// A game in a list.
#[derive(Serialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    pub variant: String,
    pub rated: bool,
    pub time_control: String,
    /// The variant's words for the first and second side.
    pub sides: [String; 2],
    /// The players' names, first side first.
    pub first: String,
    pub second: String,
    pub state: String,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub created_ms: i64,
    /// The players' ratings when the game began (`null`: the computer).
    pub first_rating: Option<f64>,
    pub second_rating: Option<f64>,
    /// The first moves (a player's archive only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opening: Vec<OpeningMove>,
}

impl GameSummary {
    fn of(g: GameRow) -> GameSummary {
        GameSummary {
            sides: registry::get(Some(&g.variant))
                .map_or(["first", "second"], registry::Variant::side_keys)
                .map(String::from),
            id: g.id,
            variant: g.variant,
            rated: g.rated,
            time_control: g.time_control,
            first: g.first_name,
            second: g.second_name,
            state: g.state,
            result: g.result,
            reason: g.reason,
            created_ms: g.created_ms,
            first_rating: g.first_rating.map(f64::round),
            second_rating: g.second_rating.map(f64::round),
            opening: Vec::new(),
        }
    }
}

/// Which of a player's games to list (all given filters hold).
#[derive(Deserialize, IntoParams, Default)]
pub struct GamesQuery {
    /// The opponent's name (compared as names are).
    pub opponent: Option<String>,
    /// `win`, `draw` or `loss`, from the player's side (finished games).
    pub result: Option<String>,
    /// A variant id (`xiangqi/cxa`) or a family (`xiangqi`, `chess`).
    pub variant: Option<String>,
    /// The first moves, in coordinate notation separated by commas
    /// (`h2e2,h9g7`): games that opened so (at most 8 moves).
    pub opening: Option<String>,
    /// At most this many (default 100, at most 1,000).
    pub limit: Option<u32>,
}

/// Plies of the opening the archive shows and filters by.
const OPENING_PLIES: usize = 8;
/// Plies of the opening shown with each game.
const OPENING_SHOWN: usize = 4;

/// One move of a game's opening.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct OpeningMove {
    pub coord: String,
    pub display: String,
}

/// `user`'s games that pass `q` (its opponent already read into
/// `opponent`), newest first.
async fn matching(
    state: &Play,
    user: &User,
    opponent: Option<&User>,
    q: &GamesQuery,
) -> Result<Vec<GameRow>, Error> {
    let limit = q.limit.unwrap_or(100).clamp(1, 1000) as usize;
    let result = match q.result.as_deref() {
        None | Some("") => None,
        Some("win") => Some(PlayerResult::Win),
        Some("draw") => Some(PlayerResult::Draw),
        Some("loss") => Some(PlayerResult::Loss),
        Some(other) => {
            return Err(Error::bad(
                "bad_filter",
                format!("result is win, draw or loss, not {other:?}"),
            ))
        }
    };
    let opening: Vec<String> = q
        .opening
        .as_deref()
        .unwrap_or("")
        .split([',', ' '])
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect();
    if opening.len() > OPENING_PLIES || opening.iter().any(|m| m.len() > 8) {
        return Err(Error::bad(
            "bad_filter",
            format!("an opening is at most {OPENING_PLIES} moves in coordinate notation"),
        ));
    }
    let games = state.store().games_of(&user.id, 5000).await?;
    let games: Vec<GameRow> = games
        .into_iter()
        .filter(|g| {
            opponent.is_none_or(|o| g.opponent_of(&user.id) == Some(o.id.as_str()))
                && result.is_none_or(|r| g.result_for(&user.id) == Some(r))
                && q.variant
                    .as_deref()
                    .is_none_or(|v| v.is_empty() || g.variant == v || g.variant.split('/').next() == Some(v))
        })
        .collect();
    if opening.is_empty() {
        return Ok(games.into_iter().take(limit).collect());
    }
    let ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
    let firsts = state.store().openings(&ids, opening.len() as i64).await?;
    Ok(games
        .into_iter()
        .filter(|g| {
            firsts
                .get(&g.id)
                .is_some_and(|m| m.len() == opening.len() && m.iter().zip(&opening).all(|((c, _), o)| c == o))
        })
        .take(limit)
        .collect())
}

/// A player's games, newest first (100 unless `limit` says otherwise),
/// filtered by `q`; each with its first moves.
///
/// # Errors
/// A filter out of shape, or storage.
pub async fn games(
    state: &Play,
    user: &User,
    opponent: Option<&User>,
    q: &GamesQuery,
) -> Result<Vec<GameSummary>, Error> {
    let games = matching(state, user, opponent, q).await?;
    let ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
    let mut openings = state.store().openings(&ids, OPENING_SHOWN as i64).await?;
    Ok(games
        .into_iter()
        .map(|g| {
            let opening = openings.remove(&g.id).unwrap_or_default();
            GameSummary {
                opening: opening
                    .into_iter()
                    .map(|(coord, display)| OpeningMove { coord, display })
                    .collect(),
                ..GameSummary::of(g)
            }
        })
        .collect())
}

/// The games of a player's PGN file that pass `q`: finished ones recorded
/// in PGN (a game kept in another format, KIF, is left out), newest first.
///
/// # Errors
/// A filter out of shape, or storage.
pub async fn pgn_games(
    state: &Play,
    user: &User,
    opponent: Option<&User>,
    q: &GamesQuery,
) -> Result<Vec<String>, Error> {
    Ok(matching(state, user, opponent, q)
        .await?
        .into_iter()
        .filter(|g| g.state == "over")
        .filter(|g| registry::get(Some(&g.variant)).is_ok_and(|v| v.record.format == "pgn"))
        .map(|g| g.id)
        .collect())
}

/// One game of [`pgn_games`] as PGN text, ending in a blank line; `None`
/// for a game that no longer replays (left out, not the whole file).
pub async fn pgn_of(state: &Play, id: &str) -> Option<String> {
    let view = crate::live::stored_view(state, id).await.ok()??;
    let text = crate::pgn::write(&view, None).ok()?;
    Some(format!("{}\n\n", text.trim_end()))
}

/// One of the games a player is playing now, as their list of games shows
/// it: whose turn it is, and how long the side to move has.
#[derive(Serialize, ToSchema)]
pub struct Playing {
    pub id: String,
    pub variant: String,
    pub rated: bool,
    pub time_control: String,
    /// For a correspondence game, the days a move has.
    pub days: Option<u32>,
    /// The side this player plays, and the variant's words for the sides.
    #[schema(value_type = String)]
    pub you: game::Side,
    pub sides: [String; 2],
    /// The opponent's name (`level:N`, `engine:NAME` for the computer).
    pub opponent: String,
    pub ply: u32,
    pub fen: String,
    /// It is this player's move.
    pub your_turn: bool,
    /// The side to move's time now: main time, or once it is spent (and
    /// always in a correspondence game) what is left of the period, ms;
    /// `null` when untimed.
    pub time_left_ms: Option<i64>,
}

/// Most games listed in [`playing`]: the cap on long games is 10, and a
/// player plays few quick games at once.
const PLAYING_MAX: i64 = 50;

/// The games `user` is playing now, those where it is their move first
/// (the one with the least time left first), then the others, newest
/// first: the lobby's and the header's "your games".
///
/// # Errors
/// Storage.
pub async fn playing(state: &Play, user: &User) -> Result<Vec<Playing>, Error> {
    let rows = state.store().live_games_of(&user.id, PLAYING_MAX).await?;
    let mut list = Vec::with_capacity(rows.len());
    for row in rows {
        let Some(you) = crate::live::side_of(&row, &user.id) else {
            continue;
        };
        // A game that ended or broke meanwhile is left out, not an error.
        let Ok(Some(v)) = crate::live::view(state, &row.id).await else {
            continue;
        };
        if v.state != "live" {
            continue;
        }
        let turn_clock = match v.turn {
            game::Side::First => (v.clocks.first_ms, v.clocks.first),
            game::Side::Second => (v.clocks.second_ms, v.clocks.second),
        };
        let tc = crate::table::parse_time_control(&row.time_control).ok();
        let time_left_ms = tc
            .as_ref()
            .filter(|t| !t.is_unlimited())
            .map(|_| match turn_clock {
                (main, Some(x)) if main <= 0 => x
                    .period_left_ms
                    .unwrap_or_else(|| x.period_ms.map_or(0, |p| i64::try_from(p).unwrap_or(i64::MAX))),
                (main, _) => main,
            });
        let opponent = match you {
            game::Side::First => &v.second,
            game::Side::Second => &v.first,
        };
        list.push(Playing {
            id: row.id.clone(),
            variant: row.variant.clone(),
            rated: row.rated,
            time_control: row.time_control.clone(),
            days: tc.and_then(|t| t.correspondence_days()),
            you,
            sides: v.sides.clone(),
            opponent: opponent.computer.clone().unwrap_or_else(|| opponent.name.clone()),
            ply: v.ply,
            fen: v.fen.clone(),
            your_turn: v.turn == you,
            time_left_ms,
        });
    }
    list.sort_by_key(|p| {
        (
            !p.your_turn,
            if p.your_turn {
                p.time_left_ms.unwrap_or(i64::MAX)
            } else {
                0
            },
        )
    });
    Ok(list)
}

/// The live games for the lobby and TV, at most `limit`: games between
/// people first, then games against the computer, each the strongest
/// pairing first (the sum of the two ratings; the computer counts
/// nothing); a game every player has left (this node's games) is left out.
///
/// # Errors
/// Storage.
pub async fn live(state: &Play, limit: i64) -> Result<Vec<GameSummary>, Error> {
    // Games between people first (each kind strongest first), and none
    // that every player has left: TV shows a game someone is playing.
    let mut games: Vec<GameRow> = state
        .store()
        .live_games(limit.saturating_mul(2))
        .await?
        .into_iter()
        .filter(|g| !state.games().is_deserted(&g.id))
        .collect();
    games.sort_by_key(|g| g.computer.is_some());
    games.truncate(usize::try_from(limit).unwrap_or(0));
    Ok(games.into_iter().map(GameSummary::of).collect())
}
