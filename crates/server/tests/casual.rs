//! Casual play over real HTTP and WebSocket on loopback (issue 30):
//! takebacks (悔棋) asked, refused and granted, by a person and by the
//! computer, never in rated games nor against a player who turned them
//! off, and a game taken back and played on that survives a restart.

mod common;

use common::Client;
use serde_json::{json, Value};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Red's and black's clients for a challenge game.
async fn challenged(s: &common::TestServer, time: &str, rated: bool) -> (String, Client, Client) {
    let red = Client::register(s, "r").await;
    let black = Client::register(s, "b").await;
    let (_, game, color) = red
        .challenge(&black, json!({"time": time, "color": "first", "rated": rated}))
        .await;
    assert_eq!(color, "second", "black got the second side");
    (game, red, black)
}

async fn takebacks_are_asked_refused_and_granted() {
    let mut s = common::start().await;
    let (game, red, black) = challenged(&s, "10+5", false).await;
    let (mut rws, full) = red.ws(&game).await;
    assert_eq!(full["game"]["takebacks"], true, "a casual game allows them");
    let (mut bws, _) = black.ws(&game).await;
    // Nothing to take back before one's own move.
    rws.send(&json!({"t": "takeback_offer"})).await;
    assert_eq!(rws.expect("error").await["code"], "cannot_offer");
    rws.play("h2e2").await;
    bws.expect("move").await;
    bws.play("h9g7").await;
    rws.expect("move").await;

    // Red asks on its own turn; black refuses over HTTP.
    rws.send(&json!({"t": "takeback_offer"})).await;
    assert_eq!(bws.expect("takeback_offer").await["by"], "first");
    let r = black
        .post(&format!("/api/games/{game}/takeback/decline"), &json!({}))
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(rws.expect("takeback_declined").await["offer_by"], "first");
    // Red may not answer its own request; there is none standing now.
    let r = red
        .post(&format!("/api/games/{game}/takeback/accept"), &json!({}))
        .await;
    assert_eq!(r.status(), 409, "no request to answer");

    // Asked again and granted over the socket: black's reply and red's
    // move both go, red is to move at the start again.
    let r = red
        .post(&format!("/api/games/{game}/takeback/offer"), &json!({}))
        .await;
    assert_eq!(r.status(), 200);
    bws.expect("takeback_offer").await;
    bws.send(&json!({"t": "takeback_accept"})).await;
    let back = rws.expect("taken_back").await;
    assert_eq!(
        (back["by"].as_str(), back["plies"].as_u64(), back["ply"].as_u64()),
        (Some("first"), Some(2), Some(0))
    );
    bws.expect("taken_back").await;
    rws.send(&json!({"t": "resync"})).await;
    let full = rws.expect("full").await;
    let g = &full["game"];
    assert_eq!(
        (g["ply"].as_u64(), g["fen"].as_str(), g["turn"].as_str()),
        (Some(0), Some(START), Some("first"))
    );
    assert_eq!(g["moves"], json!([]));
    assert_eq!(g["takeback_offer"], Value::Null);
    assert!(g["legal"].as_array().unwrap().iter().any(|m| m == "b2e2"));
    // Xiangqi's premoves are the browser's own (its rules module): none sent.
    assert!(g.get("premoves").is_none(), "{g}");
    // The clocks refund nothing: black's time is what it was.
    assert!(g["clocks"]["second_ms"].as_i64().unwrap() <= 605_000);

    // Play goes on with other moves; the taken-back plies are stored anew.
    rws.play("b2e2").await;
    bws.expect("move").await;
    // A move declines a standing request: black asks, red moves instead.
    bws.play("b9c7").await;
    bws.send(&json!({"t": "takeback_offer"})).await;
    rws.expect("takeback_offer").await;
    rws.play("b0c2").await;
    assert_eq!(bws.expect("takeback_declined").await["offer_by"], "second");

    // A player who turned takebacks off is never asked.
    let r = black
        .http
        .put(format!("{}/api/account/settings", black.base))
        .header("x-qiju-csrf", "1")
        .header("cookie", black.cookie.clone().unwrap())
        .json(
            &json!({"board_theme": "wood", "piece_set": "chinese", "coordinates": true, "takebacks": false}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    bws.play("h9i7").await;
    rws.expect("move").await;
    let r = black.get_json("/api/account/settings").await;
    assert_eq!(r["takebacks"], false, "{r}");
    rws.send(&json!({"t": "takeback_offer"})).await;
    assert_eq!(rws.expect("error").await["code"], "takebacks_refused");
    // Black may still ask red, who did not.
    bws.send(&json!({"t": "takeback_offer"})).await;
    rws.expect("takeback_offer").await;
    rws.send(&json!({"t": "takeback_accept"})).await;
    assert_eq!(bws.expect("taken_back").await["ply"], 3);
    drop((rws, bws));

    // After a restart the game is where the takebacks left it.
    s.restart().await;
    let v = red.get_json(&format!("/api/games/{game}")).await;
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["b2e2", "b9c7", "b0c2"], "{v}");
    assert_eq!(v["turn"], "second");
    let (mut bws, _) = black.ws(&game).await;
    bws.play("h9g7").await;
    let r = red.post(&format!("/api/games/{game}/resign"), &json!({})).await;
    assert_eq!(r.status(), 200);
    bws.expect("end").await;
    // The record holds the moves played, none of those taken back.
    let pgn = red
        .get(&format!("/api/games/{game}/pgn"))
        .await
        .text()
        .await
        .unwrap();
    let back = record::read_one(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    let coords: Vec<String> = back.moves.iter().map(|m| m.mv.iccs()).collect();
    assert_eq!(coords, ["b2e2", "b9c7", "b0c2", "h9g7"], "{pgn}");
    s.stop().await;
}

async fn no_takebacks_in_rated_games() {
    let mut s = common::start().await;
    let (game, red, black) = challenged(&s, "10+5", true).await;
    let (mut rws, full) = red.ws(&game).await;
    assert_eq!(full["game"]["takebacks"], false);
    let (mut bws, _) = black.ws(&game).await;
    rws.play("h2e2").await;
    bws.expect("move").await;
    rws.send(&json!({"t": "takeback_offer"})).await;
    assert_eq!(rws.expect("error").await["code"], "takebacks_not_allowed");
    let r = red
        .post(&format!("/api/games/{game}/takeback/offer"), &json!({}))
        .await;
    assert_eq!(r.status(), 409);
    let v = red.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(v["ply"], 1, "nothing changed: {v}");
    s.stop().await;
}

async fn the_computer_grants_a_takeback_on_your_turn() {
    let mut s = common::start().await;
    let me = Client::register(&s, "h").await;
    let started: Value = me
        .post(
            "/api/computer",
            &json!({"level": 1, "time": "5+2", "color": "first"}),
        )
        .await
        .json()
        .await
        .unwrap();
    let game = started["game"].as_str().unwrap().to_string();
    let (mut ws, full) = me.ws(&game).await;
    assert_eq!(full["game"]["takebacks"], true);
    ws.play("h2e2").await;
    let reply = ws.reply().await;
    assert_eq!(reply["ply"], 2, "{reply}");
    ws.send(&json!({"t": "takeback_offer"})).await;
    let back = ws.expect("taken_back").await;
    assert_eq!((back["plies"].as_u64(), back["ply"].as_u64()), (Some(2), Some(0)));
    ws.send(&json!({"t": "resync"})).await;
    let full = ws.expect("full").await;
    assert_eq!(
        (full["game"]["ply"].as_u64(), full["game"]["fen"].as_str()),
        (Some(0), Some(START))
    );
    // And the game goes on: the computer answers the new move.
    ws.play("b2e2").await;
    assert_eq!(ws.reply().await["ply"], 2);
    s.stop().await;
}

const DAY: i64 = 86_400_000;

/// The games `c` is playing, as the list of games waiting for them says.
async fn playing(c: &Client) -> Vec<Value> {
    c.get_json("/api/account/playing")
        .await
        .as_array()
        .expect("a list")
        .clone()
}

/// A correspondence (daily) game: three days a move, moves made while the
/// opponent is away (no socket at all), no claim of the win over an
/// absent player, the lists of games waiting for each player, and a
/// restart in the middle that loses nothing and charges no time.
async fn a_correspondence_game_is_played_over_days_and_survives_a_restart() {
    let mut s = common::start().await;
    let (game, red, black) = challenged(&s, "3d", false).await;
    let v = red.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(v["time_control"], "3d", "{v}");
    assert_eq!(v["clocks"]["first"]["period_ms"], 3 * DAY, "{v}");
    // Red moves over HTTP; black has never opened the game, and hears of
    // the move in the lobby (the notice any page shows).
    let mut black_lobby = black.lobby_ws().await;
    let r = red
        .post(&format!("/api/games/{game}/move/h2e2"), &json!({}))
        .await;
    assert_eq!(r.status(), 200);
    let notice = black_lobby.expect("notice").await;
    assert_eq!(
        notice,
        json!({"t": "notice", "kind": "move", "from": red.name, "game": game})
    );
    drop(black_lobby);
    let mine = playing(&black).await;
    assert_eq!(mine.len(), 1, "{mine:?}");
    let g = &mine[0];
    assert_eq!(
        (g["id"].as_str(), g["your_turn"].as_bool(), g["days"].as_u64()),
        (Some(game.as_str()), Some(true), Some(3))
    );
    assert_eq!(
        (g["you"].as_str(), g["opponent"].as_str(), g["ply"].as_u64()),
        (Some("second"), Some(red.name.as_str()), Some(1))
    );
    let left = g["time_left_ms"].as_i64().unwrap();
    assert!(
        (3 * DAY - 60_000..=3 * DAY).contains(&left),
        "black has 3 days: {left}"
    );
    assert_eq!(playing(&red).await[0]["your_turn"], false);
    // Black is away: red may not claim the win — the clock decides.
    let (mut rws, full) = red.ws(&game).await;
    assert_eq!(full["game"]["away"], Value::Null, "no countdown in a daily game");
    rws.send(&json!({"t": "claim_victory"})).await;
    assert_eq!(rws.expect("error").await["code"], "clock_decides");
    drop(rws);

    // A restart in the middle: the game, its clocks and the lists are back.
    s.restart().await;
    let mine = playing(&black).await;
    assert_eq!(
        (mine[0]["your_turn"].as_bool(), mine[0]["ply"].as_u64()),
        (Some(true), Some(1)),
        "{mine:?}"
    );
    assert!(
        mine[0]["time_left_ms"].as_i64().unwrap() > 3 * DAY - 60_000,
        "the downtime is not charged"
    );
    let r = black
        .post(&format!("/api/games/{game}/move/h9g7"), &json!({}))
        .await;
    assert_eq!(r.status(), 200);
    let theirs = playing(&red).await;
    assert_eq!(
        (theirs[0]["your_turn"].as_bool(), theirs[0]["ply"].as_u64()),
        (Some(true), Some(2))
    );
    // A move in time gives the next move the whole period again.
    let v = red.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(v["moves"].as_array().unwrap().len(), 2, "{v}");
    assert_eq!(v["clocks"]["second"]["periods_left"], 1, "{v}");
    let r = red.post(&format!("/api/games/{game}/resign"), &json!({})).await;
    assert_eq!(r.status(), 200);
    assert!(playing(&red).await.is_empty(), "a finished game leaves the list");
    s.stop().await;
}

crate::on_both_databases!(
    a_correspondence_game_is_played_over_days_and_survives_a_restart,
    takebacks_are_asked_refused_and_granted,
    no_takebacks_in_rated_games,
    the_computer_grants_a_takeback_on_your_turn,
);
