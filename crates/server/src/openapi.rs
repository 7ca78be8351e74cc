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
        crate::api::accounts::register,
        crate::api::accounts::login,
        crate::api::accounts::logout,
        crate::api::accounts::logout_everywhere,
        crate::api::accounts::revoke_tokens,
        crate::api::accounts::get_settings,
        crate::api::accounts::put_settings,
        crate::api::accounts::guest,
        crate::api::bot::account,
        crate::api::accounts::make_token,
        crate::api::lobby::create_seek,
        crate::api::lobby::list_seeks,
        crate::api::lobby::delete_seek,
        crate::api::lobby::create_challenge,
        crate::api::lobby::list_challenges,
        crate::api::lobby::accept_challenge,
        crate::api::lobby::decline_challenge,
        crate::api::lobby::play_computer,
        crate::api::lobby::list_follows,
        crate::api::lobby::follow,
        crate::api::lobby::unfollow,
        crate::ws::lobby::lobby_socket,
        crate::ws::game::game_socket,
        crate::api::lobby::stream_events,
        crate::api::games::get_game,
        crate::api::games::get_pgn,
        crate::api::games::stream_game,
        crate::api::games::post_move,
        crate::api::games::post_resign,
        crate::api::games::post_draw_offer,
        crate::api::games::post_draw_accept,
        crate::api::games::post_draw_decline,
        crate::api::games::post_takeback_offer,
        crate::api::games::post_takeback_accept,
        crate::api::games::post_takeback_decline,
        crate::api::games::post_claim_draw,
        crate::api::games::post_abort,
        crate::api::players::get_user,
        crate::api::players::user_games,
        crate::api::players::live_games,
        crate::api::bot::playing,
        crate::api::players::search_users,
        crate::api::players::leaderboard,
        crate::api::players::record,
        crate::api::players::user_games_pgn,
        crate::api::players::rating_history,
        crate::api::players::info,
        crate::api::players::report,
        crate::api::analysis::get_review,
        crate::api::analysis::request_review,
        crate::api::analysis::position,
        crate::api::analysis::eval,
        crate::api::analysis::import,
        crate::api::bot::upgrade,
        crate::api::bot::token_test,
        crate::api::bot::online,
        crate::api::bot::game_stream,
        crate::api::bot::make_move,
        crate::api::bot::chat,
        crate::api::bot::abort,
        crate::api::bot::resign,
        crate::api::bot::challenge,
        crate::api::bot::accept,
        crate::api::bot::decline,
        crate::api::bot::cancel,
    ),
    tags(
        (name = "auth", description = "Accounts, sessions, guests, bot tokens"),
        (name = "lobby", description = "Seeks, challenges, computer games, follows, personal events"),
        (name = "games", description = "Live and archived games; the bot API"),
        (name = "players", description = "Profiles, ratings, titles"),
        (name = "analysis", description = "Computer reviews of finished games; the analysis board"),
        (name = "bot", description = "lichess's Bot API, for berserk and lichess-bot (docs/BOTS.md)"),
    )
)]
pub struct ApiDoc;

/// `GET /api/openapi.json`.
pub async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
