//! `/api/events`: the events room over HTTP (issue 28, docs/EVENTS.md) —
//! list, create, an event with its pairings, standings, crosstable, the
//! arbiter's log, joining and withdrawing, the arbiter's tools, and the TRF
//! and PGN downloads. State changes are POSTs behind the CSRF guard and
//! the body limits every route has (`routes`).

use crate::auth::{Auth, MaybeSession};
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use common::ErrorBody;
use events::teams::{LineupRequest, LineupView, TeamRequest, TeamView, TeamsView};
use events::{
    ArbiterRequest, CrosstableView, EntryView, EventSummary, EventView, JoinRequest, LogView, NewEvent,
    PlayerRequest, ResultRequest, StandingsView,
};
use events::{
    ArmageddonRequest, Boards, FoulRequest, FoulView, TeamForfeitRequest, TeamReadmitRequest,
    TeamWithdrawRequest,
};
use serde::Deserialize;
use utoipa::IntoParams;

#[derive(Deserialize, IntoParams)]
pub struct EventQuery {
    /// Only this round's boards (a number, or `latest`); every round is
    /// listed with its board count either way. Left out: every board.
    pub round: Option<String>,
}

#[derive(Deserialize, IntoParams)]
pub struct ListQuery {
    /// `upcoming` (the default: taking entries), `running` or `finished`.
    pub state: Option<String>,
}

/// Events, the newest first (at most 100).
#[utoipa::path(get, path = "/api/events", tag = "events", params(ListQuery),
    responses((status = 200, body = [EventSummary]), (status = 400, body = ErrorBody)))]
pub async fn list_events(
    State(state): State<AppState>,
    Query(q): Query<ListQuery>,
) -> Result<Json<Vec<EventSummary>>, ApiError> {
    Ok(Json(
        state
            .events()
            .list(q.state.as_deref().unwrap_or("upcoming"))
            .await?,
    ))
}

/// Create an event; you are its organiser and arbiter. Rated events need
/// the operator's grant (`qiju admin organiser NAME`).
#[utoipa::path(post, path = "/api/events", tag = "events", request_body = NewEvent,
    responses((status = 201, body = EventView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub async fn create_event(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(req): Json<NewEvent>,
) -> Result<(StatusCode, Json<EventView>), ApiError> {
    Ok((
        StatusCode::CREATED,
        Json(state.events().create(&user, req).await?),
    ))
}

/// An event: its terms, entries and every round's pairings.
#[utoipa::path(get, path = "/api/events/{id}", tag = "events", params(("id" = String, Path), EventQuery),
    responses((status = 200, body = EventView), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_event(
    State(state): State<AppState>,
    MaybeSession(session): MaybeSession,
    Path(id): Path<String>,
    Query(q): Query<EventQuery>,
) -> Result<Json<EventView>, ApiError> {
    let viewer = session.map(|s| s.user);
    let boards = q.round.as_deref().map_or(Ok(Boards::All), Boards::parse)?;
    Ok(Json(
        state.events().get_boards(&id, viewer.as_ref(), boards).await?,
    ))
}

/// The standings with the event's tie-breaks.
#[utoipa::path(get, path = "/api/events/{id}/standings", tag = "events", params(("id" = String, Path)),
    responses((status = 200, body = StandingsView), (status = 404, body = ErrorBody)))]
pub async fn standings(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<StandingsView>, ApiError> {
    Ok(Json(state.events().standings(&id).await?))
}

/// The crosstable: per player, per round, opponent, colour and result.
#[utoipa::path(get, path = "/api/events/{id}/crosstable", tag = "events", params(("id" = String, Path)),
    responses((status = 200, body = CrosstableView), (status = 404, body = ErrorBody)))]
pub async fn crosstable(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<CrosstableView>, ApiError> {
    Ok(Json(state.events().crosstable(&id).await?))
}

#[derive(Deserialize, IntoParams)]
pub struct LogQuery {
    /// Only the last this many lines (still oldest first).
    pub last: Option<u32>,
}

/// The arbiter's log: every action, by whom and when.
#[utoipa::path(get, path = "/api/events/{id}/log", tag = "events", params(("id" = String, Path), LogQuery),
    responses((status = 200, body = [LogView]), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn log(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<LogQuery>,
) -> Result<Json<Vec<LogView>>, ApiError> {
    Ok(Json(state.events().log_of(&id, q.last).await?))
}

/// Enter the event (before round 1), with its invitation code if it has one.
#[utoipa::path(post, path = "/api/events/{id}/join", tag = "events", params(("id" = String, Path)),
    request_body = JoinRequest,
    responses((status = 200, body = EntryView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn join(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Json<EntryView>, ApiError> {
    // A bot's client posts an empty form; a browser the JSON body.
    let req = if body.iter().all(u8::is_ascii_whitespace) {
        JoinRequest::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| common::Error::bad("bad_request", e.to_string()))?
    };
    Ok(Json(state.events().join(&id, &user, req).await?))
}

/// Withdraw from the event: not paired from the next round on.
#[utoipa::path(post, path = "/api/events/{id}/withdraw", tag = "events", params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn withdraw(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.events().withdraw(&id, &user).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Paired {
    pub round: u32,
}

/// The arbiter pairs the next round (after the last game of the round
/// before has ended); its games start.
#[utoipa::path(post, path = "/api/events/{id}/pair", tag = "events", params(("id" = String, Path)),
    responses((status = 200, body = Paired), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn pair(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<Json<Paired>, ApiError> {
    Ok(Json(Paired {
        round: state.events().pair_next(&id, &user).await?,
    }))
}

/// The arbiter sets or corrects a board's result.
#[utoipa::path(post, path = "/api/events/{id}/result", tag = "events", params(("id" = String, Path)),
    request_body = ResultRequest,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn set_result(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    Json(req): Json<ResultRequest>,
) -> Result<StatusCode, ApiError> {
    state.events().set_result(&id, &user, req).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The arbiter withdraws, re-admits or adds (late entry) a player; the
/// organiser names an arbiter (`name_arbiter`) or takes one back
/// (`remove_arbiter`).
#[utoipa::path(post, path = "/api/events/{id}/players", tag = "events", params(("id" = String, Path)),
    request_body = PlayerRequest,
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn player_action(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    Json(req): Json<PlayerRequest>,
) -> Result<StatusCode, ApiError> {
    let player = state.accounts().named(&req.player).await?;
    state
        .events()
        .player_action(&id, &user, &player, req.action)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Go berserk in an arena game before your first move: half your clock,
/// no increment, a point more for a win of 7 moves or more (lichess's
/// Board API path; bots may use `/api/bot/game/{id}/berserk`).
#[utoipa::path(post, path = "/api/board/game/{id}/berserk", tag = "events", params(("id" = String, Path)),
    responses((status = 200, description = "`{\"ok\": true}`"), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn berserk(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    state.events().berserk(&id, &user).await?;
    Ok(Json(serde_json::json!({"ok": true})))
}

/// The arbiter's tools for the event itself: `pause`, `resume`,
/// `repair` (pair the current round again before its games start),
/// `publish` (the final results).
#[utoipa::path(post, path = "/api/events/{id}/arbiter", tag = "events", params(("id" = String, Path)),
    request_body = ArbiterRequest,
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn arbiter(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    Json(req): Json<ArbiterRequest>,
) -> Result<StatusCode, ApiError> {
    state.events().arbiter_action(&id, &user, req).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The player who had no choice at the lot chooses their knockout match's
/// armageddon colour (seed 001: 和棋黑胜): `{"side": "first"|"second"}` or
/// the game's names (`red`, `black`), before the wait the event shows
/// (`my_armageddon_choice.until_ms`) runs out — then the server chooses
/// black for them. The armageddon game starts at once.
#[utoipa::path(post, path = "/api/events/{id}/armageddon", tag = "events", params(("id" = String, Path)),
    request_body = ArmageddonRequest,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn armageddon(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    Json(req): Json<ArmageddonRequest>,
) -> Result<StatusCode, ApiError> {
    state.events().choose_armageddon(&id, &user, req).await?;
    Ok(StatusCode::NO_CONTENT)
}

fn download(name: &str, media_type: &str, text: String) -> Response {
    (
        [
            (CONTENT_TYPE, media_type.to_string()),
            (CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")),
        ],
        text,
    )
        .into_response()
}

/// The event as a TRF file (what `qiju tournament pair` reads).
#[utoipa::path(get, path = "/api/events/{id}/trf", tag = "events", params(("id" = String, Path)),
    responses((status = 200, description = "TRF text", content_type = "text/plain"), (status = 404, body = ErrorBody)))]
pub async fn trf(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = state.events().trf(&id).await?;
    Ok(download(&format!("{id}.trf"), "text/plain; charset=utf-8", text))
}

/// Every game of the event as one PGN file.
#[utoipa::path(get, path = "/api/events/{id}/pgn", tag = "events", params(("id" = String, Path)),
    responses((status = 200, description = "PGN text", content_type = "application/x-chess-pgn"), (status = 404, body = ErrorBody)))]
pub async fn pgn(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = state.events().pgn(&id).await?;
    Ok(download(&format!("{id}.pgn"), "application/x-chess-pgn", text))
}

/// A team event's teams with their rosters, every paired round's
/// matches (boards, board points, match points) and the team standings
/// (seed 000 14.2, 15.3).
#[utoipa::path(get, path = "/api/events/{id}/teams", tag = "events", params(("id" = String, Path)),
    responses((status = 200, body = TeamsView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn teams(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<TeamsView>, ApiError> {
    Ok(Json(state.events().teams(&id).await?))
}

/// Register a team as its captain (before round 1): its name and its
/// players in board order, substitutes last (seed 000 12.1–12.2).
#[utoipa::path(post, path = "/api/events/{id}/teams", tag = "events", params(("id" = String, Path)),
    request_body = TeamRequest,
    responses((status = 201, body = TeamView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn register_team(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    Json(req): Json<TeamRequest>,
) -> Result<(StatusCode, Json<TeamView>), ApiError> {
    let most = *events::spec::TEAM_BOARDS.end() + events::spec::MAX_SUBSTITUTES;
    if req.players.len() > most as usize {
        return Err(
            common::Error::bad("bad_roster", format!("a roster names at most {most} players")).into(),
        );
    }
    let mut players = Vec::with_capacity(req.players.len());
    for name in &req.players {
        players.push(state.accounts().named(name).await.map_err(|e| match e {
            common::Error::NotFound(_) => {
                common::Error::bad("bad_roster", format!("no account is called {name}"))
            }
            e => e,
        })?);
    }
    Ok((
        StatusCode::CREATED,
        Json(
            state
                .events()
                .register_team(&id, &user, &req.name, req.code.as_deref(), &players)
                .await?,
        ),
    ))
}

/// The captain hands in the team's line-up for a round, before the round
/// is paired (seed 000 12.3; in roster order, 12.2). A team without one
/// plays its roster's first boards in order.
#[utoipa::path(post, path = "/api/events/{id}/lineup", tag = "events", params(("id" = String, Path)),
    request_body = LineupRequest,
    responses((status = 200, body = LineupView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn lineup(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    Json(req): Json<LineupRequest>,
) -> Result<Json<LineupView>, ApiError> {
    Ok(Json(
        state
            .events()
            .submit_lineup(&id, &user, req.round, &req.players)
            .await?,
    ))
}

/// The arbiter records a foul (犯规, seed 000 9.2) against a player of a
/// paired round; it counts in the tie-breaks that name fouls (15.1–15.5).
/// With `kind` a penalty instead: a warning (18.1) or a disqualification
/// from the round's game (18.2, the game lost, `409 no_game` without
/// one); the penalised rank last among equal scores (18.4).
#[utoipa::path(post, path = "/api/events/{id}/fouls", tag = "events", params(("id" = String, Path)),
    request_body = FoulRequest,
    responses((status = 200, body = FoulView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn foul(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    Json(req): Json<FoulRequest>,
) -> Result<Json<FoulView>, ApiError> {
    Ok(Json(state.events().record_foul(&id, &user, req).await?))
}

/// The arbiter rules that a whole team forfeits its match of a round
/// (seed 000 21.4): every board of the match `+` for the other team.
#[utoipa::path(post, path = "/api/events/{id}/teams/forfeit", tag = "events", params(("id" = String, Path)),
    request_body = TeamForfeitRequest,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn team_forfeit(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    Json(req): Json<TeamForfeitRequest>,
) -> Result<StatusCode, ApiError> {
    state.events().team_forfeit(&id, &user, req).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The arbiter withdraws a whole team (seed 000 20.x): its players are
/// not paired from the next round on; a team Swiss pairs it no more, its
/// results standing (20.4); a team round robin forfeits its later matches
/// to its opponents and annuls its results if it played fewer than half
/// of its matches (20.3).
#[utoipa::path(post, path = "/api/events/{id}/teams/withdraw", tag = "events", params(("id" = String, Path)),
    request_body = TeamWithdrawRequest,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn team_withdraw(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    Json(req): Json<TeamWithdrawRequest>,
) -> Result<StatusCode, ApiError> {
    state.events().withdraw_team(&id, &user, req).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The arbiter re-admits a team withdrawn whole (seed 000 20.x): its
/// players are paired again from the next round on; what it missed stays
/// as stored — a team round robin's matches forfeited while it was out
/// stay its forfeits (20.3), a team Swiss's rounds unpaired stay blank.
#[utoipa::path(post, path = "/api/events/{id}/teams/readmit", tag = "events", params(("id" = String, Path)),
    request_body = TeamReadmitRequest,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn team_readmit(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
    Json(req): Json<TeamReadmitRequest>,
) -> Result<StatusCode, ApiError> {
    state.events().readmit_team(&id, &user, req).await?;
    Ok(StatusCode::NO_CONTENT)
}
