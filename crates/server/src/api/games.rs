//! `/api/games/{id}…`: a game's state and PGN, and the bot API — one POST
//! per action and an NDJSON stream of the game's events.

use crate::auth::Auth;
use crate::error::ApiError;
use crate::stream::{ndjson, ndjson_response};
use crate::AppState;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::Json;
use common::{Error, ErrorBody};
use play::live::{self, Action};
use play::protocol::{GameView, ServerMsg};
use serde::{Deserialize, Serialize};
use store::User;
use utoipa::{IntoParams, ToSchema};

/// The answer to an action: the game's ply after it.
#[derive(Serialize, ToSchema)]
pub struct Acted {
    pub ply: u32,
}

async fn act(state: &AppState, id: &str, user: &User, action: Action) -> Result<Json<Acted>, ApiError> {
    let ply = live::act_on(state.play(), id, &user.id, action).await?;
    Ok(Json(Acted { ply }))
}

/// A game's full state, live or archived.
#[utoipa::path(get, path = "/api/games/{id}", tag = "games", params(("id" = String, Path)),
    responses((status = 200, body = GameView), (status = 404, body = ErrorBody)))]
pub async fn get_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    live::view(state.play(), &id)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError(Error::NotFound(format!("game {id}"))))
}

/// The PGN download's headers.
pub(crate) fn pgn_response(file_name: &str, pgn: impl Into<Body>) -> Response {
    record_response(file_name, "application/x-chess-pgn; charset=utf-8", pgn.into())
}

/// A record download's headers: its media type and file name.
fn record_response(file_name: &str, media_type: &str, pgn: Body) -> Response {
    (
        [
            (CONTENT_TYPE, media_type.to_string()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file_name}\""),
            ),
        ],
        pgn,
    )
        .into_response()
}

/// Download a game in its variant's record format (the registry's: PGN in
/// its variant's notation, or KIF), with that format's media type and
/// file extension.
#[utoipa::path(get, path = "/api/games/{id}/pgn", tag = "games", params(("id" = String, Path), RecordQuery),
    responses((status = 200, description = "PGN text, or KIF (UTF-8) where the variant's record format is KIF", content_type = "application/x-chess-pgn"),
        (status = 400, description = "A notation the variant's records are not written in", body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_pgn(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<RecordQuery>,
) -> Result<Response, ApiError> {
    let view = live::view(state.play(), &id)
        .await?
        .ok_or_else(|| Error::NotFound(format!("game {id}")))?;
    let file = play::pgn::file(&view, q.notation.as_deref())?;
    Ok(record_response(
        &file.file_name,
        file.media_type,
        file.text.into(),
    ))
}

#[derive(Deserialize, IntoParams)]
pub struct RecordQuery {
    /// The moves' notation, one of the variant's `record.notations` in
    /// `/api/info` (Xiangqi: `iccs`, the default, or `chinese`).
    pub notation: Option<String>,
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
    responses((status = 200, body = Acted), (status = 400, description = "Illegal move", body = ErrorBody),
              (status = 403, description = "Not your game", body = ErrorBody), (status = 409, description = "Not your turn, game over", body = ErrorBody)))]
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
            responses((status = 200, body = Acted), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
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
    post_takeback_offer,
    "/api/games/{id}/takeback/offer",
    Action::OfferTakeback,
    "Ask to take back your last move (casual games only; the opponent must accept)."
);
simple_action!(
    post_takeback_accept,
    "/api/games/{id}/takeback/accept",
    Action::AcceptTakeback,
    "Grant the opponent's takeback request."
);
simple_action!(
    post_takeback_decline,
    "/api/games/{id}/takeback/decline",
    Action::DeclineTakeback,
    "Refuse the opponent's takeback request."
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

/// Stream a game's events as NDJSON: first the full state, then one line per
/// event (`move`, `draw_offer`, `end` …, as on the WebSocket); the stream
/// ends after `end`.
#[utoipa::path(get, path = "/api/games/{id}/stream", tag = "games", params(("id" = String, Path)),
    responses((status = 200, description = "NDJSON event stream", content_type = "application/x-ndjson"), (status = 404, body = ErrorBody)))]
pub async fn stream_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    if let Some((view, rx)) = live::join(state.play(), &id).await {
        let ended = view.state != "live";
        let first = ServerMsg::Full {
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
    let view = live::stored_view(state.play(), &id)
        .await?
        .ok_or_else(|| Error::NotFound(format!("game {id}")))?;
    let first = ServerMsg::Full {
        game: Box::new(view),
        you: None,
    }
    .to_json();
    Ok(ndjson_response(Body::from(first + "\n")))
}
