//! The HTTP API as an OpenAPI 3 document, served at `/api/openapi.json`.
//! Built from the handlers' annotations, so it cannot drift from the code.

use axum::Json;
use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "qiju API",
        description = "qiju (棋局) game server. State-changing requests authenticated by the session cookie need the header `X-Qiju-Csrf: 1`; bots may instead send `Authorization: Bearer <token>` (POST /api/account/token). The WebSocket protocol of /api/games/{id}/ws and /api/lobby/ws is described in docs/websocket.md."
    ),
    paths(
        crate::auth::register,
        crate::auth::login,
        crate::auth::logout,
        crate::auth::logout_everywhere,
        crate::auth::revoke_tokens,
        crate::auth::get_settings,
        crate::auth::put_settings,
        crate::auth::guest,
        crate::auth::account,
        crate::auth::make_token,
        crate::lobby::create_seek,
        crate::lobby::list_seeks,
        crate::lobby::delete_seek,
        crate::lobby::create_challenge,
        crate::lobby::list_challenges,
        crate::lobby::accept_challenge,
        crate::lobby::decline_challenge,
        crate::lobby::play_computer,
        crate::ws::lobby_socket,
        crate::ws::game_socket,
        crate::api::stream_events,
        crate::api::get_game,
        crate::api::get_pgn,
        crate::api::stream_game,
        crate::api::post_move,
        crate::api::post_resign,
        crate::api::post_draw_offer,
        crate::api::post_draw_accept,
        crate::api::post_draw_decline,
        crate::api::post_claim_draw,
        crate::api::post_abort,
        crate::api::get_user,
        crate::api::user_games,
        crate::api::live_games,
        crate::api::search_users,
        crate::api::leaderboard,
        crate::api::record,
        crate::api::user_games_pgn,
        crate::api::rating_history,
        crate::api::info,
        crate::api::report,
        crate::analysis::get_review,
        crate::analysis::request_review,
        crate::analysis::position,
        crate::analysis::eval,
        crate::analysis::import,
    ),
    tags(
        (name = "auth", description = "Accounts, sessions, guests, bot tokens"),
        (name = "lobby", description = "Seeks, challenges, computer games, personal events"),
        (name = "games", description = "Live and archived games; the bot API"),
        (name = "players", description = "Profiles, ratings, titles"),
        (name = "analysis", description = "Computer reviews of finished games; the analysis board"),
    )
)]
pub struct ApiDoc;

/// `GET /api/openapi.json`.
pub async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
