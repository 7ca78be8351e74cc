//! lichess's Bot API, spoken over qiju's rooms (issue 32): the shapes
//! lichess's clients (berserk, lichess-bot) read — field names, clock
//! fields in ms, status words, `{"error": "..."}` — made from qiju's views.
//! The handlers are in [`crate::api::bot`]; this module only translates.
//! Variants are named as pychess-variants names them (`xiangqi`, `chess`,
//! `chess960`, `shogi` …): the shortest of the registry's names without a
//! `/`. Sides: `white` is the first side (red in Xiangqi).

use crate::error::status_of;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use common::Error;
use game::Side;
use lobby::ChallengeView;
use play::protocol::GameView;
use serde_json::{json, Value};
use store::User;

/// An error as lichess words it: `{"error": "..."}` with the status the
/// error's kind has everywhere in qiju.
#[derive(Debug)]
pub struct LiError(pub Error);

impl<E: Into<Error>> From<E> for LiError {
    fn from(e: E) -> LiError {
        LiError(e.into())
    }
}

impl IntoResponse for LiError {
    fn into_response(self) -> Response {
        let status = status_of(&self.0);
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(error = %self.0, detail = ?self.0, "lichess API request failed");
        }
        (status, Json(json!({ "error": self.0.to_string() }))).into_response()
    }
}

/// `{"ok": true}`, lichess's answer to an action.
pub fn ok() -> Json<Value> {
    Json(json!({ "ok": true }))
}

/// A side as lichess names it.
#[must_use]
pub fn color(side: Side) -> &'static str {
    match side {
        Side::First => "white",
        Side::Second => "black",
    }
}

/// The side a lichess colour word names (`white` = first), or `random`.
#[must_use]
pub fn side_of(word: &str) -> Option<Option<Side>> {
    match word {
        "white" => Some(Some(Side::First)),
        "black" => Some(Some(Side::Second)),
        "random" => Some(None),
        _ => None,
    }
}

/// The pychess-variants key of a registry variant.
#[must_use]
pub fn variant_key(v: &registry::Variant) -> &'static str {
    std::iter::once(v.id)
        .chain(v.aliases.iter().copied())
        .filter(|n| !n.contains('/'))
        .min_by_key(|n| n.len())
        .unwrap_or(v.family)
}

/// The `variant` object of a game or challenge.
#[must_use]
pub fn variant_json(id: &str) -> Value {
    match registry::get(Some(id)) {
        Ok(v) => json!({ "key": variant_key(v), "name": v.name.en, "short": v.name.en }),
        Err(_) => json!({ "key": id, "name": id, "short": id }),
    }
}

/// lichess's speed of a clock: the estimated game length, limit + 40 ×
/// increment, in seconds.
#[must_use]
pub fn speed(initial_ms: i64, increment_ms: i64, correspondence: bool) -> &'static str {
    if correspondence {
        return "correspondence";
    }
    let estimate = (initial_ms + 40 * increment_ms) / 1000;
    match estimate {
        0 => "correspondence",
        1..=29 => "ultraBullet",
        30..=179 => "bullet",
        180..=479 => "blitz",
        480..=1499 => "rapid",
        _ => "classical",
    }
}

/// An account as lichess's `User` shows it (`GET /api/bot/online`), with
/// its ratings as lichess's `perfs`, keyed by qiju's rating pools
/// (`xiangqi`, `chess`, `chess960`, `shogi` …; lichess keys chess by speed).
#[must_use]
pub fn account_json(u: &User, perfs: &[accounts::Perf]) -> Value {
    let perfs: serde_json::Map<String, Value> = perfs
        .iter()
        .map(|p| {
            let mut v = json!({
                "games": p.games,
                "rating": p.rating.round() as i64,
                "rd": p.deviation.round() as i64,
                "prog": p.progress.round() as i64,
            });
            if p.provisional {
                v["prov"] = json!(true);
            }
            (p.pool.clone(), v)
        })
        .collect();
    let mut v = json!({
        "id": common::names::key(&u.name),
        "username": u.name,
        "createdAt": u.created_ms,
        "seenAt": common::now_ms(),
        "perfs": perfs,
        "disabled": u.banned,
        "tosViolation": false,
        "playTime": { "total": 0, "tv": 0 },
    });
    if u.bot {
        v["title"] = json!("BOT");
    }
    v
}

/// What lichess's `UserExtended` adds to a `User` (`GET /api/account`,
/// `GET /api/user/{username}`): the profile's address and the game counts.
/// qiju has no bookmarks or imported games, so those counts are 0.
#[must_use]
pub fn user_extended(u: &User, perfs: &[accounts::Perf], record: &accounts::Record, playing: usize) -> Value {
    let mut user = account_json(u, perfs);
    let (mut win, mut draw, mut loss) = (0, 0, 0);
    for p in &record.pools {
        win += p.score.wins;
        draw += p.score.draws;
        loss += p.score.losses;
    }
    let rated: u32 = perfs.iter().map(|p| p.games).sum();
    let me = record.vs.as_ref().map_or(0, |s| s.wins + s.draws + s.losses);
    user["url"] = json!(format!("/@/{}", percent_encode(&u.name)));
    user["count"] = json!({
        "all": u64::from(win + draw + loss) + playing as u64,
        "rated": rated,
        "win": win,
        "draw": draw,
        "loss": loss,
        "playing": playing,
        "bookmark": 0,
        "import": 0,
        "me": me,
    });
    user
}

/// A name as a path segment (names may be of any script).
fn percent_encode(name: &str) -> String {
    name.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// One player of `GET /api/users/status`.
#[must_use]
pub fn user_status(u: &User, online: bool, playing: bool) -> Value {
    let mut v = json!({
        "id": common::names::key(&u.name),
        "name": u.name,
        "online": online,
    });
    if playing {
        v["playing"] = json!(true);
    }
    if u.bot {
        v["title"] = json!("BOT");
    }
    v
}

fn player_json(name: &str, rating: Option<f64>, bot: bool) -> Value {
    let mut v = json!({
        "id": common::names::key(name),
        "name": name,
    });
    if let Some(r) = rating {
        v["rating"] = json!(r.round() as i64);
    }
    if bot {
        v["title"] = json!("BOT");
    }
    v
}

/// A player's rating in a pool, as a challenge shows it: the rating, and
/// whether it is still provisional (lichess's `provisional`).
pub type PoolStanding = Option<(f64, bool)>;

/// A challenge's player: lichess's `ChallengeUser`.
fn challenge_user(u: &User, standing: PoolStanding) -> Value {
    let mut v = player_json(&u.name, standing.map(|s| s.0), u.bot);
    if let Some((_, provisional)) = standing {
        v["provisional"] = json!(provisional);
    }
    v
}

/// The lichess status word of a game.
#[must_use]
pub fn status(view: &GameView) -> &'static str {
    match view.state.as_str() {
        "live" => "started",
        "aborted" => "aborted",
        _ => match view.reason.as_deref().unwrap_or("") {
            "checkmate" => "mate",
            "stalemate" if view.winner.is_none() => "stalemate",
            "resignation" => "resign",
            "time_forfeit" => "outoftime",
            "time_forfeit_draw" => "draw",
            "abandoned" | "untimed_idle" | "player_gone" => "timeout",
            _ if view.winner.is_none() => "draw",
            _ => "variantEnd",
        },
    }
}

/// lichess's number of a status word.
#[must_use]
pub fn status_id(word: &str) -> u32 {
    match word {
        "created" => 10,
        "started" => 20,
        "aborted" => 25,
        "mate" => 30,
        "resign" => 31,
        "stalemate" => 32,
        "timeout" => 33,
        "draw" => 34,
        "outoftime" => 35,
        "cheat" => 36,
        "noStart" => 37,
        "variantEnd" => 60,
        _ => 38, // unknownFinish
    }
}

/// The `gameState` of a game now.
#[must_use]
pub fn game_state(view: &GameView) -> Value {
    let moves: Vec<&str> = view.moves.iter().map(|m| m.coord.as_str()).collect();
    game_state_with(view, &moves.join(" "))
}

/// The `gameState` of `view` with `moves` (space-separated) for its moves:
/// a game stream keeps the moves itself and `view`'s other fields up to
/// date from the game's events.
#[must_use]
pub fn game_state_with(view: &GameView, moves: &str) -> Value {
    let mut v = json!({
        "type": "gameState",
        "moves": moves,
        "wtime": view.clocks.first_ms.max(0),
        "btime": view.clocks.second_ms.max(0),
        "winc": view.increment_ms,
        "binc": view.increment_ms,
        "status": status(view),
    });
    // lichess: `true` when offering, else omitted.
    for (key, on) in [
        ("wdraw", view.draw_offer == Some(Side::First)),
        ("bdraw", view.draw_offer == Some(Side::Second)),
        ("wtakeback", view.takeback_offer == Some(Side::First)),
        ("btakeback", view.takeback_offer == Some(Side::Second)),
    ] {
        if on {
            v[key] = json!(true);
        }
    }
    if let Some(w) = view.winner {
        v["winner"] = json!(color(w));
    }
    if let (Some(f), "live") = (view.first_move, view.state.as_str()) {
        v["expiration"] = json!({
            "idleMillis": (common::now_ms() - f.since_ms).max(0),
            "millisToMove": f.window_ms,
        });
    }
    v
}

/// Whether the game's clock is correspondence's (days a move).
fn correspondence(view: &GameView) -> bool {
    view.time_control.ends_with('d')
}

/// The `gameFull` line that opens a bot's game stream. `bots` says which
/// of the two players are bot accounts.
#[must_use]
pub fn game_full(view: &GameView, bots: [bool; 2]) -> Value {
    let corr = correspondence(view);
    let days: Option<i64> = corr
        .then(|| view.time_control.trim_end_matches('d').parse().ok())
        .flatten();
    let mut full = json!({
        "type": "gameFull",
        "id": view.id,
        "variant": variant_json(&view.variant),
        "clock": if corr { Value::Null } else {
            json!({ "initial": view.initial_ms, "increment": view.increment_ms })
        },
        "speed": speed(view.initial_ms, view.increment_ms, corr),
        "perf": { "name": registry::get(Some(&view.variant)).map_or("", |v| v.rating_pool) },
        "rated": view.rated,
        "createdAt": view.created_ms,
        "white": player_json(&view.first.name, view.first.rating, bots[0]),
        "black": player_json(&view.second.name, view.second.rating, bots[1]),
        "initialFen": view.initial_fen,
        "state": game_state(view),
    });
    if let Some(d) = days {
        full["daysPerTurn"] = json!(d);
    }
    full
}

/// The `gameStart` (or, with `kind` = `gameFinish`, the `gameFinish`)
/// event of the event stream, for the player on `me`.
#[must_use]
pub fn game_event(kind: &str, view: &GameView, me: Side) -> Value {
    let opponent = match me {
        Side::First => &view.second,
        Side::Second => &view.first,
    };
    let corr = correspondence(view);
    let left_ms = match me {
        Side::First => view.clocks.first_ms,
        Side::Second => view.clocks.second_ms,
    };
    let mut game = json!({
        "gameId": view.id,
        "fullId": view.id,
        "id": view.id,
        "color": color(me),
        "fen": view.fen,
        "hasMoved": view.moves.iter().any(|m| m.side == me),
        "isMyTurn": view.state == "live" && view.turn == me,
        "lastMove": view.moves.last().map_or("", |m| m.coord.as_str()),
        "opponent": {
            "id": common::names::key(&opponent.name),
            "username": opponent.name,
            "rating": opponent.rating.map(|r| r.round() as i64),
        },
        "perf": registry::get(Some(&view.variant)).map_or("", |v| v.rating_pool),
        "rated": view.rated,
        "secondsLeft": left_ms.max(0) / 1000,
        "source": "friend",
        "speed": speed(view.initial_ms, view.increment_ms, corr),
        "variant": variant_json(&view.variant),
        "status": { "id": status_id(status(view)), "name": status(view) },
        "compat": { "bot": true, "board": true },
    });
    if let Some(w) = view.winner {
        game["winner"] = json!(color(w));
    }
    json!({ "type": kind, "game": game })
}

/// A challenge as lichess shows it (`ChallengeJson`). `from` and `to` are
/// the two accounts; `direction` is `in` or `out` from the reader's side.
#[must_use]
pub fn challenge_json(
    c: &ChallengeView,
    from: (&User, PoolStanding),
    to: (&User, PoolStanding),
    status: &str,
    direction: &str,
) -> Value {
    let tc: Option<clock::TimeControl> = c.time.parse().ok();
    let ms = |m: u64| i64::try_from(m).unwrap_or(i64::MAX);
    let (limit_ms, inc_ms) = tc.as_ref().map_or((0, 0), |t| {
        (ms(t.stages.first().map_or(0, |s| s.time_ms)), ms(t.increment_ms))
    });
    let corr = c.time.ends_with('d');
    let time_control = if corr {
        json!({ "type": "correspondence", "daysPerTurn": c.time.trim_end_matches('d').parse::<i64>().ok() })
    } else if c.time == "-" {
        json!({ "type": "unlimited" })
    } else {
        json!({ "type": "clock", "limit": limit_ms / 1000, "increment": inc_ms / 1000, "show": c.time })
    };
    let color = match c.color {
        lobby::ColorChoice::First => "white",
        lobby::ColorChoice::Second => "black",
        _ => "random",
    };
    let mut v = json!({
        "id": c.id,
        "url": format!("/challenge/{}", c.id),
        "status": status,
        "challenger": challenge_user(from.0, from.1),
        "destUser": challenge_user(to.0, to.1),
        "variant": variant_json(&c.variant),
        "rated": c.rated,
        "speed": speed(limit_ms, inc_ms, corr),
        "timeControl": time_control,
        "color": color,
        "perf": { "icon": "", "name": registry::get(Some(&c.variant)).map_or("", |v| v.rating_pool) },
        "direction": direction,
    });
    // Known before the game only when the challenger chose a side.
    if color != "random" {
        v["finalColor"] = json!(color);
    }
    if let Some(fen) = &c.fen {
        v["initialFen"] = json!(fen);
    }
    if let Some(of) = &c.rematch_of {
        v["rematchOf"] = json!(of);
    }
    v
}

/// The time control a lichess challenge asks for, in qiju's words:
/// `clock.limit` and `clock.increment` in seconds, or `days`; neither is
/// correspondence's 3 days, as lichess's own default.
///
/// # Errors
/// `bad_request` for numbers out of range.
pub fn time_of(limit: Option<i64>, increment: Option<i64>, days: Option<i64>) -> Result<String, Error> {
    match (limit, days) {
        (Some(limit), _) => {
            let inc = increment.unwrap_or(0);
            if !(0..=10_800).contains(&limit) || !(0..=180).contains(&inc) || limit + inc == 0 {
                return Err(Error::bad(
                    "bad_request",
                    "clock.limit is 0 to 10800 seconds and clock.increment 0 to 180, not both 0",
                ));
            }
            Ok(format!("{}:{:02}+{inc}", limit / 60, limit % 60))
        }
        (None, Some(d)) => {
            if !(1..=14).contains(&d) {
                return Err(Error::bad("bad_request", "days is 1 to 14"));
            }
            Ok(format!("{d}d"))
        }
        (None, None) => Ok("3d".into()),
    }
}

/// One of a bot's games in progress, as lichess's `/api/account/playing`
/// lists it (`nowPlaying`).
#[must_use]
pub fn now_playing(g: &play::archive::Playing) -> Value {
    let corr = g.days.is_some();
    json!({
        "gameId": g.id,
        "fullId": g.id,
        "color": color(g.you),
        "fen": g.fen,
        "hasMoved": g.ply > u32::from(g.you == Side::Second),
        "isMyTurn": g.your_turn,
        "opponent": { "id": common::names::key(&g.opponent), "username": g.opponent },
        "rated": g.rated,
        "secondsLeft": g.time_left_ms.map(|ms| ms.max(0) / 1000),
        "source": "friend",
        "speed": if corr { "correspondence" } else { "" },
        "variant": variant_json(&g.variant),
        "compat": { "bot": true, "board": true },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_are_named_as_pychess_names_them() {
        let key = |id| variant_key(registry::get(Some(id)).unwrap());
        assert_eq!(key("xiangqi"), "xiangqi");
        assert_eq!(key("chess"), "chess");
        assert_eq!(key("chess960"), "chess960");
        assert_eq!(key("shogi"), "shogi");
        assert_eq!(variant_json("chess")["name"], "Chess");
    }

    #[test]
    fn clocks_are_asked_in_seconds_and_read_as_qiju_writes_them() {
        assert_eq!(time_of(Some(300), Some(2), None).unwrap(), "5:00+2");
        assert_eq!(time_of(Some(90), None, None).unwrap(), "1:30+0");
        assert_eq!(time_of(Some(15), Some(0), None).unwrap(), "0:15+0");
        assert_eq!(time_of(None, None, Some(3)).unwrap(), "3d");
        assert_eq!(time_of(None, None, None).unwrap(), "3d");
        for (limit, inc, days) in [
            (Some(-1), None, None),
            (Some(0), Some(0), None),
            (Some(60), Some(181), None),
            (None, None, Some(15)),
        ] {
            assert!(time_of(limit, inc, days).is_err(), "{limit:?} {inc:?} {days:?}");
        }
        for t in ["5:00+2", "1:30+0", "0:15+0", "3d"] {
            assert!(t.parse::<clock::TimeControl>().is_ok(), "{t}");
        }
    }

    #[test]
    fn speeds_and_statuses_are_lichess_words() {
        assert_eq!(speed(15_000, 0, false), "ultraBullet");
        assert_eq!(speed(60_000, 0, false), "bullet");
        assert_eq!(speed(180_000, 2_000, false), "blitz");
        assert_eq!(speed(600_000, 5_000, false), "rapid");
        assert_eq!(speed(1_800_000, 0, false), "classical");
        assert_eq!(speed(0, 0, true), "correspondence");
        for (word, id) in [
            ("started", 20),
            ("aborted", 25),
            ("mate", 30),
            ("resign", 31),
            ("outoftime", 35),
            ("draw", 34),
            ("variantEnd", 60),
        ] {
            assert_eq!(status_id(word), id);
        }
        assert_eq!(
            (
                side_of("white"),
                side_of("black"),
                side_of("random"),
                side_of("red")
            ),
            (
                Some(Some(Side::First)),
                Some(Some(Side::Second)),
                Some(None),
                None
            )
        );
    }
}
