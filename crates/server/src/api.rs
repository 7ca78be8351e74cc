//! The REST side of games and players: game state, PGN download, the bot
//! API (an NDJSON event stream per game and per player, and one POST per
//! action), player profiles and rating history.

use crate::auth::{Auth, UserView};
use crate::error::ApiError;
use crate::live::{self, ActError, Action, GameView};
use crate::store::{PlayerResult, RatingPoint};
use crate::AppState;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use utoipa::{IntoParams, ToSchema};

fn act_status(e: &ActError) -> ApiError {
    match e {
        ActError::NotAPlayer => ApiError::Forbidden(e.to_string()),
        ActError::Gone => ApiError::NotFound("live game".into()),
        ActError::Damaged => ApiError::Damaged(e.to_string()),
        ActError::Storage => ApiError::Unavailable,
        ActError::Table(_) if e.code() == "illegal_move" => ApiError::bad(e.code(), e.to_string()),
        ActError::Table(_) => ApiError::conflict(e.code(), e.to_string()),
    }
}

/// The answer to an action: the game's ply after it.
#[derive(Serialize, ToSchema)]
pub struct Acted {
    pub ply: u32,
}

async fn act(
    state: &AppState,
    id: &str,
    user: &crate::store::User,
    action: Action,
) -> Result<Json<Acted>, ApiError> {
    live::act_on(state, id, &user.id, action)
        .await
        .map(|ply| Json(Acted { ply }))
        .map_err(|e| act_status(&e))
}

/// A game's full state, live or archived.
#[utoipa::path(get, path = "/api/games/{id}", tag = "games", params(("id" = String, Path)),
    responses((status = 200, body = GameView), (status = 404, body = crate::error::ErrorBody)))]
pub async fn get_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    live::view(&state, &id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("game {id}")))
}

/// Download a game as PGN (in its variant's notation: ICCS for Xiangqi, SAN for chess).
#[utoipa::path(get, path = "/api/games/{id}/pgn", tag = "games", params(("id" = String, Path)),
    responses((status = 200, description = "PGN text", content_type = "application/x-chess-pgn"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn get_pgn(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let view = live::view(&state, &id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("game {id}")))?;
    let pgn = crate::pgn::write(&view)
        .map_err(|e| ApiError::Internal(format!("game {id} does not replay: {e}")))?;
    Ok((
        [
            (CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8".to_string()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"qiju-{id}.pgn\""),
            ),
        ],
        pgn,
    )
        .into_response())
}

#[derive(Deserialize, IntoParams)]
pub struct MoveQuery {
    /// The number the move will have (1 = red's first): makes a resent move
    /// harmless.
    pub ply: Option<u32>,
}

/// Play a move (bots and scripts; browsers use the WebSocket). Answers once
/// the move is stored.
#[utoipa::path(post, path = "/api/games/{id}/move/{mv}", tag = "games",
    params(("id" = String, Path), ("mv" = String, Path, description = "ICCS move, e.g. h2e2"), MoveQuery),
    responses((status = 200, body = Acted), (status = 400, description = "Illegal move", body = crate::error::ErrorBody),
              (status = 403, description = "Not your game", body = crate::error::ErrorBody), (status = 409, description = "Not your turn, game over", body = crate::error::ErrorBody)))]
pub async fn post_move(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path((id, mv)): Path<(String, String)>,
    Query(q): Query<MoveQuery>,
) -> Result<Json<Acted>, ApiError> {
    act(
        &state,
        &id,
        &user,
        Action::Move {
            coord: mv,
            ply: q.ply,
        },
    )
    .await
}

macro_rules! simple_action {
    ($name:ident, $path:literal, $action:expr, $doc:literal) => {
        #[doc = $doc]
        #[utoipa::path(post, path = $path, tag = "games", params(("id" = String, Path)),
            responses((status = 200, body = Acted), (status = 403, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
        pub async fn $name(
            State(state): State<AppState>,
            Auth(user): Auth,
            Path(id): Path<String>,
        ) -> Result<Json<Acted>, ApiError> {
            act(&state, &id, &user, $action).await
        }
    };
}

simple_action!(post_resign, "/api/games/{id}/resign", Action::Resign, "Resign.");
simple_action!(
    post_draw_offer,
    "/api/games/{id}/draw/offer",
    Action::OfferDraw,
    "Offer a draw (right after your own move, CXA 23.1)."
);
simple_action!(
    post_draw_accept,
    "/api/games/{id}/draw/accept",
    Action::AcceptDraw,
    "Accept the opponent's draw offer."
);
simple_action!(
    post_draw_decline,
    "/api/games/{id}/draw/decline",
    Action::DeclineDraw,
    "Decline the opponent's draw offer."
);
simple_action!(
    post_claim_draw,
    "/api/games/{id}/claim-draw",
    Action::ClaimDraw,
    "Claim a draw the rules allow (e.g. the natural move limit)."
);
simple_action!(
    post_abort,
    "/api/games/{id}/abort",
    Action::Abort,
    "Abort the game before both sides have moved."
);

/// Lines of NDJSON from a broadcast receiver, with an empty keep-alive line
/// every 20 s; ends when the source closes, after an `end` event, or when
/// the server shuts down.
///
/// `guard` lives as long as the stream and is dropped after the receiver
/// (a [`crate::lobby::Presence`] for the event stream).
fn ndjson<T, F, G>(
    first: Option<String>,
    rx: tokio::sync::broadcast::Receiver<T>,
    shutdown: tokio::sync::watch::Receiver<bool>,
    line: F,
    guard: G,
) -> Body
where
    T: Clone + Send + 'static,
    F: Fn(&T) -> (String, bool) + Send + 'static,
    G: Send + 'static,
{
    let rx = Guarded { rx, _guard: guard };
    let stream = futures_util::stream::unfold(
        (first, rx, shutdown, false, line),
        |(first, mut rx, mut shutdown, done, line)| async move {
            if let Some(f) = first {
                return Some((
                    Ok::<_, std::io::Error>(f + "\n"),
                    (None, rx, shutdown, done, line),
                ));
            }
            if done || *shutdown.borrow() {
                return None;
            }
            let got = tokio::select! {
                r = tokio::time::timeout(Duration::from_secs(20), rx.rx.recv()) => r,
                _ = shutdown.changed() => return None,
            };
            match got {
                Err(_) => Some((Ok("\n".to_string()), (None, rx, shutdown, false, line))),
                Ok(Ok(ev)) => {
                    let (text, last) = line(&ev);
                    Some((Ok(text + "\n"), (None, rx, shutdown, last, line)))
                }
                // Too slow to keep up: say so and end the stream, so the
                // client reconnects and starts from the whole state instead
                // of missing events without knowing.
                Ok(Err(RecvError::Lagged(n))) => {
                    let msg = crate::protocol::ServerMsg::error(
                        "lagged",
                        &format!("{n} events were missed: reconnect for the whole state"),
                    );
                    Some((Ok(msg.to_json() + "\n"), (None, rx, shutdown, true, line)))
                }
                Ok(Err(RecvError::Closed)) => None,
            }
        },
    );
    Body::from_stream(stream)
}

/// A receiver with something that must outlive it (fields drop in order).
struct Guarded<T, G> {
    rx: tokio::sync::broadcast::Receiver<T>,
    _guard: G,
}

fn ndjson_response(body: Body) -> Response {
    ([(CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

/// Stream a game's events as NDJSON: first the full state, then one line per
/// event (`move`, `draw_offer`, `end` …, as on the WebSocket); the stream
/// ends after `end`.
#[utoipa::path(get, path = "/api/games/{id}/stream", tag = "games", params(("id" = String, Path)),
    responses((status = 200, description = "NDJSON event stream", content_type = "application/x-ndjson"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn stream_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    if let Some((view, rx)) = live::join(&state, &id).await {
        let ended = view.state != "live";
        let first = crate::protocol::ServerMsg::Full {
            game: Box::new(view),
            you: None,
        }
        .to_json();
        let body = if ended {
            Body::from(first + "\n")
        } else {
            ndjson(
                Some(first),
                rx,
                state.shutdown_signal(),
                |ev: &std::sync::Arc<live::Event>| (ev.json.clone(), ev.kind == "end"),
                (),
            )
        };
        return Ok(ndjson_response(body));
    }
    let view = live::stored_view(&state, &id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("game {id}")))?;
    let first = crate::protocol::ServerMsg::Full {
        game: Box::new(view),
        you: None,
    }
    .to_json();
    Ok(ndjson_response(Body::from(first + "\n")))
}

/// Stream your own events as NDJSON (`game_start`, `challenge`,
/// `challenge_declined`); empty lines keep the connection alive.
#[utoipa::path(get, path = "/api/stream/event", tag = "lobby",
    responses((status = 200, description = "NDJSON event stream", content_type = "application/x-ndjson"), (status = 401, body = crate::error::ErrorBody)))]
pub async fn stream_events(State(state): State<AppState>, Auth(user): Auth) -> Response {
    let rx = state.lobby().subscribe(&user.id);
    ndjson_response(ndjson(
        None,
        rx,
        state.shutdown_signal(),
        |s: &std::sync::Arc<str>| (s.to_string(), false),
        crate::lobby::Presence::new(&state, &user),
    ))
}

/// A player's public profile: rating, title, real-world title.
#[utoipa::path(get, path = "/api/users/{name}", tag = "players", params(("name" = String, Path)),
    responses((status = 200, body = UserView), (status = 404, body = crate::error::ErrorBody)))]
pub async fn get_user(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<UserView>, ApiError> {
    let u = named(&state, &name).await?;
    Ok(Json(UserView::load(&state, &u).await?))
}

/// A game in a player's list.
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
    fn of(g: crate::store::GameRow) -> GameSummary {
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

/// Who to look for.
#[derive(Deserialize, IntoParams)]
pub struct SearchQuery {
    /// The start of a name (compared as names are: NFKC + case folding).
    pub q: String,
}

/// Registered players whose name starts with `q` (at most 20).
#[utoipa::path(get, path = "/api/users", tag = "players", params(SearchQuery),
    responses((status = 200, body = [UserView])))]
pub async fn search_users(
    State(state): State<AppState>,
    Query(q): Query<SearchQuery>,
) -> Result<Json<Vec<UserView>>, ApiError> {
    let q = q.q.trim();
    if q.is_empty() || q.chars().count() > 20 {
        return Ok(Json(Vec::new()));
    }
    let mut out = Vec::new();
    for u in state.store().search_users(q, 20).await? {
        out.push(UserView::load(&state, &u).await?);
    }
    Ok(Json(out))
}

/// One row of a leaderboard.
#[derive(Serialize, ToSchema)]
pub struct LeaderRow {
    pub rank: u32,
    pub name: String,
    pub rating: f64,
    pub rated_games: u32,
    /// The rating title (seed 003), in pools that have titles.
    pub title: Option<String>,
}

/// Rows on one page of a leaderboard.
const LEADERBOARD_PAGE: u32 = 50;
/// Pages a leaderboard goes to: deeper than this a rank is better read on
/// the player's profile, and the query stays cheap.
const LEADERBOARD_PAGES: u32 = 20;

/// Which page of a leaderboard.
#[derive(Deserialize, IntoParams)]
pub struct LeaderQuery {
    /// 1 (the default) to 20, 50 players a page.
    pub page: Option<u32>,
}

/// The best-rated players of a rating pool (`xiangqi`, `chess`,
/// `chess960`), 50 a page, with their titles where the pool has them.
/// Players of equal rating are ranked by name, so pages do not overlap.
#[utoipa::path(get, path = "/api/leaderboard/{pool}", tag = "players", params(("pool" = String, Path), LeaderQuery),
    responses((status = 200, body = [LeaderRow]), (status = 400, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(pool): Path<String>,
    Query(q): Query<LeaderQuery>,
) -> Result<Json<Vec<LeaderRow>>, ApiError> {
    let Some(v) = registry::all().iter().find(|v| v.rating_pool == pool) else {
        return Err(ApiError::NotFound(format!("rating pool {pool}")));
    };
    let page = q.page.unwrap_or(1);
    if !(1..=LEADERBOARD_PAGES).contains(&page) {
        return Err(ApiError::bad(
            "bad_page",
            format!("page must be 1 to {LEADERBOARD_PAGES}"),
        ));
    }
    let skip = (page - 1) * LEADERBOARD_PAGE;
    let rows = state
        .store()
        .leaderboard(&pool, i64::from(skip), i64::from(LEADERBOARD_PAGE))
        .await?;
    Ok(Json(
        rows.into_iter()
            .zip(skip + 1..)
            .map(|((u, r), rank)| LeaderRow {
                rank,
                title: if v.titles {
                    crate::auth::title_of(&u, &r)
                } else {
                    None
                },
                name: u.name,
                rating: r.rating.rating.round(),
                rated_games: r.rating.games,
            })
            .collect(),
    ))
}

/// Wins, draws and losses.
#[derive(Serialize, ToSchema, Default, Clone, Copy)]
pub struct Score {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Score {
    fn add(&mut self, result: PlayerResult) {
        match result {
            PlayerResult::Win => self.wins += 1,
            PlayerResult::Draw => self.draws += 1,
            PlayerResult::Loss => self.losses += 1,
        }
    }
}

/// A player's finished games counted.
#[derive(Serialize, ToSchema)]
pub struct Record {
    /// Per rating pool, rated and casual games together.
    pub pools: Vec<PoolScore>,
    /// Against the player named in `vs`, all games.
    pub vs: Option<Score>,
}

#[derive(Serialize, ToSchema)]
pub struct PoolScore {
    pub pool: String,
    #[serde(flatten)]
    pub score: Score,
}

/// Against whom to count.
#[derive(Deserialize, IntoParams)]
pub struct VsQuery {
    pub vs: Option<String>,
}

/// The player of that name, or "not found".
async fn named(state: &AppState, name: &str) -> Result<crate::store::User, ApiError> {
    state
        .store()
        .user_by_name(name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("player {name}")))
}

/// A player's wins, draws and losses per rating pool, and against one
/// other player (head to head).
#[utoipa::path(get, path = "/api/users/{name}/record", tag = "players", params(("name" = String, Path), VsQuery),
    responses((status = 200, body = Record), (status = 404, body = crate::error::ErrorBody)))]
pub async fn record(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<VsQuery>,
) -> Result<Json<Record>, ApiError> {
    let u = named(&state, &name).await?;
    let other = match q.vs {
        Some(n) => Some(named(&state, &n).await?),
        None => None,
    };
    let mut pools: std::collections::BTreeMap<String, Score> = std::collections::BTreeMap::new();
    let mut vs = other.as_ref().map(|_| Score::default());
    for g in state.store().games_of(&u.id, i64::MAX).await? {
        let Some(result) = g.result_for(&u.id) else {
            continue;
        };
        let pool =
            registry::get(Some(&g.variant)).map_or_else(|_| g.variant.clone(), |v| v.rating_pool.to_string());
        pools.entry(pool).or_default().add(result);
        if let (Some(o), Some(score)) = (&other, vs.as_mut()) {
            if g.opponent_of(&u.id) == Some(o.id.as_str()) {
                score.add(result);
            }
        }
    }
    Ok(Json(Record {
        pools: pools
            .into_iter()
            .map(|(pool, score)| PoolScore { pool, score })
            .collect(),
        vs,
    }))
}

/// What is being played now, for the lobby and "TV".
#[derive(Serialize, ToSchema)]
pub struct LiveGames {
    /// Players with the lobby open (a socket or an event stream).
    pub online: usize,
    /// Their names, in name order (at most 100).
    pub players: Vec<String>,
    /// Live games, the strongest pairing first (the sum of the two
    /// ratings; the computer counts nothing), at most 50.
    pub games: Vec<GameSummary>,
}

/// The games being played now, strongest first, and how many players are
/// in the lobby; the first game is the platform's "TV".
#[utoipa::path(get, path = "/api/games/live", tag = "games",
    responses((status = 200, body = LiveGames)))]
pub async fn live_games(State(state): State<AppState>) -> Result<Json<LiveGames>, ApiError> {
    let games = state.store().live_games(50).await?;
    Ok(Json(LiveGames {
        online: state.lobby().online(),
        players: state.lobby().online_names(100),
        games: games.into_iter().map(GameSummary::of).collect(),
    }))
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

/// The player's games that pass `q`, newest first.
async fn games_matching(
    state: &AppState,
    name: &str,
    q: &GamesQuery,
) -> Result<Vec<crate::store::GameRow>, ApiError> {
    let u = named(state, name).await?;
    let limit = q.limit.unwrap_or(100).clamp(1, 1000) as usize;
    let opponent = match &q.opponent {
        Some(n) if !n.trim().is_empty() => Some(named(state, n.trim()).await?.id),
        _ => None,
    };
    let result = match q.result.as_deref() {
        None | Some("") => None,
        Some("win") => Some(PlayerResult::Win),
        Some("draw") => Some(PlayerResult::Draw),
        Some("loss") => Some(PlayerResult::Loss),
        Some(other) => {
            return Err(ApiError::bad(
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
        return Err(ApiError::bad(
            "bad_filter",
            format!("an opening is at most {OPENING_PLIES} moves in coordinate notation"),
        ));
    }
    let games = state.store().games_of(&u.id, 5000).await?;
    let games: Vec<crate::store::GameRow> = games
        .into_iter()
        .filter(|g| {
            opponent
                .as_deref()
                .is_none_or(|o| g.opponent_of(&u.id) == Some(o))
                && result.is_none_or(|r| g.result_for(&u.id) == Some(r))
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
/// filtered by opponent, result, game and opening; each with its first
/// moves.
#[utoipa::path(get, path = "/api/users/{name}/games", tag = "players", params(("name" = String, Path), GamesQuery),
    responses((status = 200, body = [GameSummary]), (status = 400, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_games(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<GamesQuery>,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    let games = games_matching(&state, &name, &q).await?;
    let ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
    let mut openings = state.store().openings(&ids, OPENING_SHOWN as i64).await?;
    Ok(Json(
        games
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
            .collect(),
    ))
}

/// A player's finished games (with the same filters, at most 1,000) as one
/// PGN file, newest first: the archive to take elsewhere.
#[utoipa::path(get, path = "/api/users/{name}/games.pgn", tag = "players", params(("name" = String, Path), GamesQuery),
    responses((status = 200, description = "PGN text", content_type = "application/x-chess-pgn"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn user_games_pgn(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(mut q): Query<GamesQuery>,
) -> Result<Response, ApiError> {
    q.limit = Some(q.limit.unwrap_or(1000));
    let mut out = String::new();
    for g in games_matching(&state, &name, &q).await? {
        if g.state != "over" {
            continue;
        }
        // A game that no longer replays is left out, not the whole file.
        let Ok(Some(view)) = live::stored_view(&state, &g.id).await else {
            continue;
        };
        if let Ok(text) = crate::pgn::write(&view) {
            out.push_str(text.trim_end());
            out.push_str("\n\n");
        }
    }
    Ok((
        [
            (CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8".to_string()),
            (
                CONTENT_DISPOSITION,
                "attachment; filename=\"qiju-games.pgn\"".to_string(),
            ),
        ],
        out,
    )
        .into_response())
}

/// A player's rating history, one point per rated game.
#[utoipa::path(get, path = "/api/users/{name}/rating-history", tag = "players", params(("name" = String, Path)),
    responses((status = 200, body = [RatingPoint]), (status = 404, body = crate::error::ErrorBody)))]
pub async fn rating_history(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Vec<RatingPoint>>, ApiError> {
    let u = named(&state, &name).await?;
    Ok(Json(state.store().rating_history(&u.id).await?))
}

/// Server facts a client needs: rating system, games, computer players.
#[derive(Serialize, ToSchema)]
pub struct ServerInfo {
    pub version: String,
    /// The game protocol's version (docs/websocket.md).
    pub protocol: u32,
    pub rating_system: String,
    /// Operator-configured engines (`engine:NAME`).
    pub engines: Vec<String>,
    /// Every game and variant as the registry describes it (id, sides,
    /// board, move kinds, notations, rating pool, …), with
    /// `computer_levels`: the levels this server's computer plays it at
    /// (0 when its engine is not installed).
    #[schema(value_type = Vec<Object>)]
    pub variants: Vec<serde_json::Value>,
}

#[utoipa::path(get, path = "/api/info", tag = "players", responses((status = 200, body = ServerInfo)))]
pub async fn info(State(state): State<AppState>) -> Json<ServerInfo> {
    Json(ServerInfo {
        version: env!("CARGO_PKG_VERSION").to_string(),
        protocol: crate::protocol::PROTOCOL_VERSION,
        rating_system: format!("{:?}", state.config().rating_system).to_lowercase(),
        engines: state.computers().external_names(),
        variants: registry::all()
            .iter()
            .map(|v| {
                let mut json = serde_json::to_value(v).unwrap_or_default();
                json["computer_levels"] = state.computers().levels(v).into();
                json["can_analyse"] = state.computers().can_analyse(v).into();
                json
            })
            .collect(),
    })
}

/// Liveness probe.
pub async fn health() -> StatusCode {
    StatusCode::NO_CONTENT
}

/// A chat line reported to the operators.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// Who said it.
    pub name: String,
    /// What they said (as shown; at most 200 characters).
    pub text: String,
    /// `lobby`, or the id of the game it was said in.
    pub context: String,
}

/// Reports held per reporter in an hour.
pub const REPORTS_PER_HOUR: i64 = 10;

/// Reports a chat line; the operators read reports with `qiju admin
/// reports` and mute (`qiju admin mute`) or ban (`qiju admin ban`).
#[utoipa::path(post, path = "/api/reports", tag = "players", request_body = ReportRequest,
    responses((status = 204, description = "Filed"), (status = 400, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn report(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(r): Json<ReportRequest>,
) -> Result<StatusCode, ApiError> {
    if r.text.chars().count() > 200 || r.context.chars().count() > 64 || r.text.trim().is_empty() {
        return Err(ApiError::bad(
            "bad_report",
            "a report holds the line (1-200 characters) and where it was said",
        ));
    }
    let reported = state
        .store()
        .user_by_name(&r.name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("player {}", r.name)))?;
    if reported.id == user.id {
        return Err(ApiError::bad("bad_report", "you cannot report yourself"));
    }
    let now = crate::now_ms();
    if state
        .store()
        .reports_filed_since(&user.id, now - 3_600_000)
        .await?
        >= REPORTS_PER_HOUR
    {
        return Err(ApiError::TooManyRequests { retry_after_s: 3600 });
    }
    let id = crate::auth::random_id(16)?;
    state
        .store()
        .add_report(&id, &user.id, &reported.id, r.context.trim(), r.text.trim(), now)
        .await?;
    tracing::info!(reporter = %user.name, reported = %reported.name, context = %r.context, "chat line reported");
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream that falls behind its source says so and ends, so that the
    /// bot reconnects for the whole state; before, it went on past the
    /// missed events as if nothing had happened (issue 12).
    #[tokio::test]
    async fn a_stream_that_falls_behind_says_so_and_ends() {
        let (tx, rx) = tokio::sync::broadcast::channel::<String>(2);
        let (_stop, shutdown) = tokio::sync::watch::channel(false);
        let body = ndjson(
            Some("first".into()),
            rx,
            shutdown,
            |s: &String| (s.clone(), false),
            (),
        );
        for i in 0..5 {
            tx.send(format!("event {i}")).unwrap();
        }
        let bytes = tokio::time::timeout(Duration::from_secs(5), axum::body::to_bytes(body, 1 << 16))
            .await
            .expect("the stream ends by itself")
            .unwrap();
        let lines: Vec<serde_json::Value> = std::str::from_utf8(&bytes)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(
            (lines[0]["t"].as_str(), lines[0]["code"].as_str()),
            (Some("error"), Some("lagged"))
        );
        assert!(
            lines[0]["message"].as_str().unwrap().starts_with("3 events"),
            "{lines:?}"
        );
    }

    /// Events in step reach the stream in order, and an `end` closes it.
    #[tokio::test]
    async fn a_stream_in_step_carries_every_event_up_to_the_end() {
        let (tx, rx) = tokio::sync::broadcast::channel::<String>(8);
        let (_stop, shutdown) = tokio::sync::watch::channel(false);
        let body = ndjson(None, rx, shutdown, |s: &String| (s.clone(), s == "end"), ());
        for e in ["a", "b", "end", "after"] {
            tx.send(e.to_string()).unwrap();
        }
        let bytes = tokio::time::timeout(Duration::from_secs(5), axum::body::to_bytes(body, 1 << 16))
            .await
            .expect("the stream ends at end")
            .unwrap();
        assert_eq!(std::str::from_utf8(&bytes).unwrap(), "a\nb\nend\n");
    }
}
