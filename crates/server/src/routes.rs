//! Every route of the server, and what every response carries. A route
//! names its handler in [`crate::api`] or [`crate::ws`]; the UI's files
//! come from the `web` crate.

use crate::api::{accounts, analysis, bot, events, games, lobby, players};
use crate::auth::csrf_guard;
use crate::error::ApiError;
use crate::{openapi, ws, AppState};
use axum::extract::{DefaultBodyLimit, Path};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use common::Error;

/// Serves the embedded browser UI. The UI's own routes (a path without a
/// file extension) get `index.html`, so a reload or a shared link works; a
/// file that is not there is "not found", never the app in its place.
async fn asset(path: Option<Path<String>>) -> Response {
    let p = path.map(|Path(p)| p).unwrap_or_default();
    match web::get(&p) {
        Some(a) => ([(CONTENT_TYPE, a.content_type)], a.bytes).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// An API path that does not exist: a JSON 404, not the UI.
async fn api_not_found(uri: axum::http::Uri) -> ApiError {
    ApiError(Error::NotFound(format!("no API at {}", uri.path())))
}

/// What every response carries: the page may be framed by nobody, loads
/// scripts, styles and sockets from this server only, and no content type
/// is guessed (the UI sets inline style attributes in a few SVGs, hence
/// `'unsafe-inline'` for styles alone).
async fn security_headers(mut resp: Response) -> Response {
    use axum::http::header::{
        HeaderValue, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
    };
    let h = resp.headers_mut();
    h.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
             connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        ),
    );
    h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    resp
}

/// The largest body the analysis board sends (a pasted record, a line).
pub const IMPORT_LIMIT: usize = 64 * 1024;

/// How deep a request body's JSON may nest. The deepest body the API
/// takes is 2 (a line's moves: an array in an object); every request type
/// refuses unknown fields, but a parser meets the nesting before the
/// field's name is judged, and a 2,000-deep array in an unknown field was
/// read (and skipped) before. Refused before any parsing.
pub const MAX_JSON_DEPTH: usize = 8;

/// The deepest nesting of arrays and objects in a JSON text (strings and
/// their escapes skipped), stopping early past `limit`.
fn json_depth(text: &[u8], limit: usize) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
                if deepest > limit {
                    break;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Refuses a request body nested deeper than [`MAX_JSON_DEPTH`] in the
/// API's error shape. It sits inside the body limits, so what it reads is
/// already bounded (4 KiB; 64 KiB on the analysis board).
async fn bounded_nesting(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    use axum::http::Method;
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        // Over the limit as it arrived (no Content-Length) or cut off.
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            [(axum::http::header::CONNECTION, "close")],
            axum::Json(common::ErrorBody {
                error: "too_large".into(),
                message: "the request body is too large or was cut off".into(),
            }),
        )
            .into_response();
    };
    if json_depth(&bytes, MAX_JSON_DEPTH) > MAX_JSON_DEPTH {
        return ApiError(Error::bad(
            "bad_request",
            format!("the JSON body is nested deeper than {MAX_JSON_DEPTH} levels"),
        ))
        .into_response();
    }
    next.run(axum::extract::Request::from_parts(
        parts,
        axum::body::Body::from(bytes),
    ))
    .await
}

/// All routes.
pub fn router(state: AppState) -> Router {
    let body_limit = state.config().max_message_bytes.max(4096);
    let api = Router::new()
        .route("/api/openapi.json", get(openapi::document))
        .route("/api/health", get(players::health))
        .route("/api/health/ready", get(players::ready))
        .route("/metrics", get(crate::metrics::metrics))
        .route("/api/info", get(players::info))
        .route("/api/auth/register", post(accounts::register))
        .route("/api/auth/login", post(accounts::login))
        .route("/api/auth/logout", post(accounts::logout))
        .route("/api/auth/logout-everywhere", post(accounts::logout_everywhere))
        .route("/api/auth/guest", post(accounts::guest))
        .route("/api/account", get(bot::account))
        .route("/api/account/token", post(accounts::make_token))
        .route("/api/account/tokens/revoke", post(accounts::revoke_tokens))
        .route(
            "/api/account/settings",
            get(accounts::get_settings).put(accounts::put_settings),
        )
        .route("/api/seeks", get(lobby::list_seeks).post(lobby::create_seek))
        .route("/api/seeks/{id}", axum::routing::delete(lobby::delete_seek))
        .route(
            "/api/challenges",
            get(lobby::list_challenges).post(lobby::create_challenge),
        )
        .route("/api/challenges/{id}/accept", post(lobby::accept_challenge))
        .route("/api/challenges/{id}/decline", post(lobby::decline_challenge))
        .route("/api/computer", post(lobby::play_computer))
        .route("/api/follows", get(lobby::list_follows))
        .route("/api/follows/{name}", post(lobby::follow).delete(lobby::unfollow))
        .route("/api/lobby/ws", get(ws::lobby::lobby_socket))
        .route("/api/stream/event", get(bot::stream_events))
        // lichess's Bot API (issue 32, docs/BOTS.md).
        .route("/api/bot/account/upgrade", post(bot::upgrade))
        .route("/api/token/test", post(bot::token_test))
        // lichess's game export, which lichess-bot reads for the PGN.
        .route("/game/export/{id}", get(games::get_pgn))
        .route("/api/bot/online", get(bot::online))
        .route("/api/bot/game/stream/{id}", get(bot::game_stream))
        .route("/api/bot/game/{id}/move/{mv}", post(bot::make_move))
        .route("/api/bot/game/{id}/chat", post(bot::chat))
        .route("/api/bot/game/{id}/abort", post(bot::abort))
        .route("/api/bot/game/{id}/resign", post(bot::resign))
        .route("/api/bot/game/{id}/claim-victory", post(bot::claim_victory))
        .route("/api/bot/game/{id}/claim-draw", post(bot::claim_draw))
        .route("/api/bot/game/{id}/draw/{accept}", post(bot::draw))
        .route("/api/bot/game/{id}/takeback/{accept}", post(bot::takeback))
        // lichess's Board API: the same game, for accounts that are not bots.
        .route("/api/board/game/stream/{id}", get(bot::board_game_stream))
        .route("/api/board/game/{id}/move/{mv}", post(bot::board_move))
        .route("/api/board/game/{id}/chat", post(bot::board_chat))
        .route("/api/board/game/{id}/abort", post(bot::board_abort))
        .route("/api/board/game/{id}/resign", post(bot::board_resign))
        .route(
            "/api/board/game/{id}/claim-victory",
            post(bot::board_claim_victory),
        )
        .route("/api/board/game/{id}/claim-draw", post(bot::board_claim_draw))
        .route("/api/board/game/{id}/draw/{accept}", post(bot::board_draw))
        .route(
            "/api/board/game/{id}/takeback/{accept}",
            post(bot::board_takeback),
        )
        .route("/api/user/{name}", get(bot::user))
        .route("/api/users/status", get(bot::users_status))
        .route("/api/challenge/{name}", post(bot::challenge))
        .route("/api/challenge/{id}/accept", post(bot::accept))
        .route("/api/challenge/{id}/decline", post(bot::decline))
        .route("/api/challenge/{id}/cancel", post(bot::cancel))
        .route("/api/games/live", get(players::live_games))
        .route("/api/account/playing", get(bot::playing))
        .route("/api/games/{id}", get(games::get_game))
        .route("/api/games/{id}/pgn", get(games::get_pgn))
        .route("/api/games/{id}/ws", get(ws::game::game_socket))
        .route("/api/games/{id}/stream", get(games::stream_game))
        .route("/api/games/{id}/move/{mv}", post(games::post_move))
        .route("/api/games/{id}/resign", post(games::post_resign))
        .route("/api/games/{id}/draw/offer", post(games::post_draw_offer))
        .route("/api/games/{id}/draw/accept", post(games::post_draw_accept))
        .route("/api/games/{id}/draw/decline", post(games::post_draw_decline))
        .route("/api/games/{id}/takeback/offer", post(games::post_takeback_offer))
        .route(
            "/api/games/{id}/takeback/accept",
            post(games::post_takeback_accept),
        )
        .route(
            "/api/games/{id}/takeback/decline",
            post(games::post_takeback_decline),
        )
        .route("/api/games/{id}/claim-draw", post(games::post_claim_draw))
        .route("/api/games/{id}/abort", post(games::post_abort))
        .route(
            "/api/games/{id}/analysis",
            get(analysis::get_review).post(analysis::request_review),
        )
        .route("/api/events", get(events::list_events).post(events::create_event))
        .route("/api/events/{id}", get(events::get_event))
        .route("/api/events/{id}/standings", get(events::standings))
        .route("/api/events/{id}/crosstable", get(events::crosstable))
        .route("/api/events/{id}/log", get(events::log))
        .route("/api/events/{id}/trf", get(events::trf))
        .route("/api/events/{id}/pgn", get(events::pgn))
        .route("/api/events/{id}/join", post(events::join))
        .route("/api/events/{id}/withdraw", post(events::withdraw))
        .route("/api/events/{id}/pair", post(events::pair))
        .route("/api/events/{id}/result", post(events::set_result))
        .route("/api/events/{id}/players", post(events::player_action))
        .route("/api/events/{id}/arbiter", post(events::arbiter))
        .route("/api/events/{id}/armageddon", post(events::armageddon))
        .route(
            "/api/events/{id}/teams",
            get(events::teams).post(events::register_team),
        )
        .route("/api/events/{id}/lineup", post(events::lineup))
        .route("/api/events/{id}/fouls", post(events::foul))
        .route("/api/events/{id}/teams/forfeit", post(events::team_forfeit))
        .route("/api/events/{id}/teams/withdraw", post(events::team_withdraw))
        .route("/api/events/{id}/teams/readmit", post(events::team_readmit))
        // An arena game's berserk, at lichess's Board API path (bots too).
        .route("/api/board/game/{id}/berserk", post(events::berserk))
        .route("/api/bot/game/{id}/berserk", post(events::berserk))
        .route("/api/reports", post(players::report))
        .route("/api/users", get(players::search_users))
        .route("/api/leaderboard/{pool}", get(players::leaderboard))
        .route("/api/users/{name}/record", get(players::record))
        .route("/api/users/{name}", get(players::get_user))
        .route("/api/users/{name}/games", get(players::user_games))
        .route("/api/users/{name}/games.pgn", get(players::user_games_pgn))
        .route("/api/users/{name}/rating-history", get(players::rating_history))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .layer(axum::middleware::from_fn(bounded_nesting))
        .layer(axum::middleware::from_fn(csrf_guard))
        .layer(DefaultBodyLimit::max(body_limit))
        // Refuses a body whose Content-Length is over the limit before
        // reading any of it (the extractors' limit only stops reading at the
        // limit, so a client still writing would see the connection drop).
        .layer(tower_http::limit::RequestBodyLimitLayer::new(body_limit));
    // A pasted PGN with clock comments, or the line of a long game, is
    // larger than a message: the analysis board has its own limit,
    // checked the same two ways.
    let analysis_board = Router::new()
        .route("/api/analysis/import", post(analysis::import))
        .route("/api/analysis/position", post(analysis::position))
        .route("/api/analysis/eval", post(analysis::eval))
        .layer(axum::middleware::from_fn(bounded_nesting))
        .layer(axum::middleware::from_fn(csrf_guard))
        .layer(DefaultBodyLimit::max(IMPORT_LIMIT))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(IMPORT_LIMIT));
    let app = Router::new()
        .merge(api)
        .merge(analysis_board)
        .route("/", get(asset))
        .route("/{*path}", get(asset))
        .with_state(state);
    // Around the whole app, not each route: a route's own layers answer
    // before its method router adds `Allow` to a 405.
    Router::new()
        .fallback_service(app)
        .layer(axum::middleware::map_response(
            crate::error::plain_refusals_as_json,
        ))
        .layer(axum::middleware::map_response(security_headers))
}

#[cfg(test)]
mod tests {
    use super::json_depth;

    #[test]
    fn nesting_is_counted_outside_strings() {
        assert_eq!(json_depth(br#"{"moves": ["h2e2"]}"#, 8), 2);
        assert_eq!(json_depth(br#"{"text": "a \" [[[[ {{{{ \\", "b": "]]"}"#, 8), 1);
        assert_eq!(json_depth(b"1", 8), 0);
        assert_eq!(
            json_depth("[".repeat(2000).as_bytes(), 8),
            9,
            "stops past the limit"
        );
    }
}
