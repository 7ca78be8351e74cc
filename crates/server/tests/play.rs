//! Whole games over real HTTP and WebSocket on loopback: checkmate, flag
//! fall, draw by agreement, a repetition ruled under CXA, a game against the
//! computer, spectators, the bot API, ratings and PGN.

mod common;

use common::{Client, TestServer, MATE_GAME};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Red's and black's clients for a paired game.
async fn paired(s: &TestServer, time: &str, rated: bool) -> (String, Client, Client) {
    let a = Client::register(s, "a").await;
    let b = Client::register(s, "b").await;
    let (game, a_color) = a.pair(&b, time, rated).await;
    if a_color == "first" {
        (game, a, b)
    } else {
        (game, b, a)
    }
}

async fn two_accounts_play_to_checkmate_and_spectators_see_every_move() {
    let mut s = common::start().await;
    let (game, red, black) = paired(&s, "10+5", true).await;
    let (mut rws, full) = red.ws(&game).await;
    assert_eq!(full["you"], "first");
    assert_eq!(full["game"]["state"], "live");
    let (mut bws, full) = black.ws(&game).await;
    assert_eq!(full["you"], "second");
    let watcher = Client::anonymous(&s);
    let (mut sws, full) = watcher.ws(&game).await;
    assert_eq!(full["you"], Value::Null);

    let moves: Vec<&str> = MATE_GAME.split(' ').collect();
    for (i, mv) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut rws, &mut bws)
        } else {
            (&mut bws, &mut rws)
        };
        let echo = mover.play(mv).await;
        assert_eq!(echo["ply"], i + 1);
        let seen = other.expect("move").await;
        assert_eq!(seen["move"], *mv);
        let watched = sws.expect("move").await;
        assert_eq!(watched["move"], *mv, "spectator sees ply {}", i + 1);
        assert_eq!(watched["ply"], i + 1);
    }
    for ws in [&mut rws, &mut bws, &mut sws] {
        let end = ws.expect("end").await;
        assert_eq!(end["result"], "1-0", "{end}");
        assert_eq!(end["winner"], "first");
        assert_eq!(end["reason"], "checkmate");
    }
    // The archive, the PGN and the ratings.
    let view = red.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(view["state"], "over");
    assert_eq!(view["moves"].as_array().unwrap().len(), moves.len());
    let pgn = red
        .get(&format!("/api/games/{game}/pgn"))
        .await
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[Red \"{}\"]", red.name)));
    assert!(pgn.contains("[Variant \"xiangqi\"]"), "{pgn}");
    // The archive reads back with the platform's PGN reader: the same moves,
    // each with the mover's clock, and the result.
    let back = record::read_one(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    let coords: Vec<String> = back.moves.iter().map(|m| m.mv.iccs()).collect();
    assert_eq!(coords, moves, "{pgn}");
    assert!(back.moves.iter().all(|m| m.clock_ms.is_some()), "{pgn}");
    assert_eq!(back.result.token(), "1-0");
    assert!(pgn.contains("is checkmated"), "the ruling's words: {pgn}");
    // The second download: the same game in Chinese notation (炮二平六 is
    // h2d2), named apart from the first; a notation it has not, refused.
    let r = red.get(&format!("/api/games/{game}/pgn?notation=chinese")).await;
    assert_eq!(r.status(), 200);
    let disposition = r.headers()["content-disposition"].to_str().unwrap().to_string();
    assert!(
        disposition.contains(&format!("qiju-{game}-chinese.pgn")),
        "{disposition}"
    );
    let zh = r.text().await.unwrap();
    assert!(
        zh.contains("[Format \"Chinese\"]") && zh.contains("1. 炮二平六"),
        "{zh}"
    );
    let back = record::read_one(&zh).unwrap_or_else(|e| panic!("{e}\n{zh}"));
    let again: Vec<String> = back.moves.iter().map(|m| m.mv.iccs()).collect();
    assert_eq!(again, moves);
    let r = red.get(&format!("/api/games/{game}/pgn?notation=wxf")).await;
    assert_eq!(r.status(), 400);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"], "bad_notation", "{body}");
    assert_eq!(
        body["message"],
        "xiangqi/cxa records are written in iccs or chinese, not \"wxf\""
    );
    let r = red.get_json(&format!("/api/users/{}", red.name)).await;
    let b = red.get_json(&format!("/api/users/{}", black.name)).await;
    // Elo, K = 40 for new players, equal ratings: ±20.
    assert_eq!(r["rating"], 1420.0);
    assert_eq!(b["rating"], 1380.0);
    assert_eq!(
        r["title"],
        Value::Null,
        "no title before 20 games against titled players"
    );
    let hist = red
        .get_json(&format!("/api/users/{}/rating-history", red.name))
        .await;
    assert_eq!(hist.as_array().unwrap().len(), 1);
    assert_eq!(hist[0]["game_id"], game.as_str());
    assert_eq!(hist[0]["before"], 1400.0);
    let games = red.get_json(&format!("/api/users/{}/games", black.name)).await;
    assert_eq!(games[0]["id"], game.as_str());
    s.stop().await;
}

async fn the_server_flags_a_player_whose_time_runs_out() {
    let mut s = common::start().await;
    // 3 seconds each, no increment.
    let (game, red, black) = paired(&s, "0.05+0", false).await;
    let (mut rws, _) = red.ws(&game).await;
    let (mut bws, _) = black.ws(&game).await;
    rws.play("h2e2").await;
    bws.expect("move").await;
    let started = Instant::now();
    let m = bws.play("h9g7").await;
    assert_eq!(m["clocks"]["running"], true);
    // Red does nothing: the server must end the game by itself.
    let end = rws.expect("end").await;
    let waited = started.elapsed();
    assert_eq!(end["reason"], "time_forfeit", "{end}");
    assert_eq!(end["winner"], "second");
    assert_eq!(end["clocks"]["first_ms"], 0);
    // Never before the time is up; how soon after it is the machine's (the
    // flag's own arithmetic is the clock crate's, with injected times).
    assert!(waited >= Duration::from_millis(2900), "flagged after {waited:?}");
    let end_b = bws.expect("end").await;
    assert_eq!(end_b["result"], "0-1");
    // A move after the flag is refused.
    rws.send(&json!({"t": "move", "move": "h0g2"})).await;
    let err = rws.expect("error").await;
    assert!(err["code"] == "game_over" || err["code"] == "gone", "{err}");
    s.stop().await;
}

async fn a_draw_by_agreement() {
    let mut s = common::start().await;
    let (game, red, black) = paired(&s, "10+0", false).await;
    let (mut rws, _) = red.ws(&game).await;
    let (mut bws, _) = black.ws(&game).await;
    // Black may not offer on red's move: only right after one's own move.
    bws.send(&json!({"t": "draw_offer"})).await;
    assert_eq!(bws.expect("error").await["code"], "cannot_offer");
    rws.play("h2e2").await;
    rws.send(&json!({"t": "draw_offer"})).await;
    let offer = bws.expect("draw_offer").await;
    assert_eq!(offer["by"], "first");
    bws.send(&json!({"t": "draw_accept"})).await;
    let end = rws.expect("end").await;
    assert_eq!(end["result"], "1/2-1/2");
    assert_eq!(end["reason"], "agreement");
    assert_eq!(bws.expect("end").await["result"], "1/2-1/2");
    s.stop().await;
}

async fn a_refused_offer_may_not_be_repeated_until_the_opponent_offers() {
    let mut s = common::start().await;
    let (game, red, black) = paired(&s, "10+0", false).await;
    let (mut rws, _) = red.ws(&game).await;
    let (mut bws, _) = black.ws(&game).await;
    rws.play("h2e2").await;
    rws.send(&json!({"t": "draw_offer"})).await;
    bws.expect("draw_offer").await;
    bws.send(&json!({"t": "draw_decline"})).await;
    rws.expect("draw_declined").await;
    bws.play("h9g7").await;
    rws.play("h0g2").await;
    // Online, offering again after a refusal (a foul over the board,
    // 9.1.3) is refused, and the view says who may not offer yet.
    let view = red.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(
        (view["offer_refused"].as_str(), view["rules_profile"].as_str()),
        (Some("first"), Some("online"))
    );
    rws.send(&json!({"t": "draw_offer"})).await;
    assert_eq!(rws.expect("error").await["code"], "cannot_offer");
    let view = red.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(view["draw_offer"], Value::Null);
    // A claim that does not hold is refused too (a foul and 5 minutes over
    // the board, 9.1.4, 23.3); nothing is charged.
    assert_eq!(view["claimable"], false);
    bws.send(&json!({"t": "claim_draw"})).await;
    assert_eq!(bws.expect("error").await["code"], "claim_does_not_hold");
    // Black may offer; then red may again.
    bws.play("h7h0").await;
    bws.send(&json!({"t": "draw_offer"})).await;
    assert_eq!(rws.expect("draw_offer").await["by"], "second");
    s.stop().await;
}

/// A game set up for an event over the board (`"rules": "arbiter"`):
/// the rule book's fouls apply — a repeated offer after a refusal is a
/// foul (9.1.3), a false claim a foul and 5 minutes (9.1.4, 23.3).
async fn an_arbiter_game_keeps_the_books_fouls() {
    let mut s = common::start().await;
    let red = Client::register(&s, "ar").await;
    let black = Client::register(&s, "ab").await;
    let (ch, game, _) = red
        .challenge(
            &black,
            json!({"time": "10+0", "color": "first", "rules": "arbiter"}),
        )
        .await;
    assert_eq!(ch["rules"], "arbiter");
    let view = red.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(view["rules_profile"], "arbiter");
    let (mut rws, _) = red.ws(&game).await;
    let (mut bws, _) = black.ws(&game).await;
    rws.play("h2e2").await;
    rws.send(&json!({"t": "draw_offer"})).await;
    bws.expect("draw_offer").await;
    bws.send(&json!({"t": "draw_decline"})).await;
    rws.expect("draw_declined").await;
    bws.play("h9g7").await;
    rws.play("h0g2").await;
    rws.send(&json!({"t": "draw_offer"})).await;
    let foul = bws.expect("foul").await;
    assert_eq!(
        (
            foul["kind"].as_str(),
            foul["article"].as_str(),
            foul["count"].as_u64()
        ),
        (Some("repeated_draw_offer"), Some("9.1.3"), Some(1))
    );
    assert_eq!(rws.expect("foul").await["kind"], "repeated_draw_offer");
    bws.send(&json!({"t": "claim_draw"})).await;
    let foul = rws.expect("foul").await;
    assert_eq!(
        (foul["kind"].as_str(), foul["side"].as_str()),
        (Some("false_claim"), Some("second"))
    );
    assert_eq!(rws.expect("time_penalty").await["ms"], 300_000);
    // An unknown profile is refused.
    let r = red
        .post(
            "/api/challenges",
            &json!({"to": black.name, "time": "10+0", "rules": "lenient"}),
        )
        .await;
    assert_eq!(r.status(), 422);
    s.stop().await;
}

async fn a_repetition_is_ruled_under_cxa() {
    let mut s = common::start().await;
    // Idle shuffling by both sides: both allowed, a draw (CXA 26.2).
    let (game, red, black) = paired(&s, "10+0", false).await;
    let view = red.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(view["variant"], "xiangqi/cxa");
    let (mut rws, _) = red.ws(&game).await;
    let (mut bws, _) = black.ws(&game).await;
    let cycle = ["b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "c2b0", "c7b9"];
    for (i, mv) in cycle.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut rws, &mut bws)
        } else {
            (&mut bws, &mut rws)
        };
        mover.play(mv).await;
        other.expect("move").await;
    }
    let end = rws.expect("end").await;
    assert_eq!(end["result"], "1/2-1/2", "{end}");
    println!("idle cycle ruled: {end}");

    // One-sided perpetual check loses (CXA 26.1), from a set-up position
    // reached by a direct challenge.
    let a = Client::register(&s, "pc").await;
    let b = Client::register(&s, "pd").await;
    let (_, game, color) = a
        .challenge(
            &b,
            json!({"time": "10+0", "color": "first", "variant": "xiangqi/cxa",
                    "fen": "3k5/9/9/9/9/9/9/9/9/R4K3 w"}),
        )
        .await;
    assert_eq!(color, "second");
    let (mut rws, full) = a.ws(&game).await;
    assert_eq!(
        full["game"]["initial_fen"].as_str().unwrap().split(' ').next(),
        Some("3k5/9/9/9/9/9/9/9/9/R4K3")
    );
    let (mut bws, _) = b.ws(&game).await;
    let checks = [
        "a0d0", "d9e9", "d0e0", "e9d9", "e0d0", "d9e9", "d0e0", "e9d9", "e0d0",
    ];
    for (i, mv) in checks.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut rws, &mut bws)
        } else {
            (&mut bws, &mut rws)
        };
        mover.play(mv).await;
        other.expect("move").await;
    }
    let end = bws.expect("end").await;
    assert_eq!(end["winner"], "second", "{end}");
    assert_eq!(end["reason"], "perpetual_check");
    assert!(
        end["article"].as_str().is_some_and(|a| a.starts_with("2")),
        "{end}"
    );
    s.stop().await;
}

async fn a_game_against_the_computer() {
    let mut s = common::start().await;
    let me = Client::register(&s, "h").await;
    let r = me
        .post(
            "/api/computer",
            &json!({"level": 3, "time": "5+2", "color": "first"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let started: Value = r.json().await.unwrap();
    assert_eq!(started["color"], "first");
    let game = started["game"].as_str().unwrap().to_string();
    let (mut ws, full) = me.ws(&game).await;
    assert_eq!(full["game"]["second"]["computer"], "level:3");
    let mut fen = full["game"]["fen"].as_str().unwrap().to_string();
    for ply in (1..=9).step_by(2) {
        // Play the first legal move the rules library gives.
        let pos = xiangqi::Position::from_fen(&fen).unwrap();
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[0].iccs();
        let echo = ws.play(&mv).await;
        assert_eq!(echo["ply"], ply);
        let reply = ws.reply().await;
        if reply["t"] == "end" {
            break;
        }
        assert_eq!(reply["ply"], ply + 1, "{reply}");
        // The computer's move is legal where it was played.
        let after_mine = pos.clone();
        let mut p = after_mine;
        p.play(legal[0]).unwrap();
        let theirs = reply["move"].as_str().unwrap();
        assert!(
            p.legal_moves().iter().any(|m| m.iccs() == theirs),
            "{theirs} legal"
        );
        fen = reply["fen"].as_str().unwrap().to_string();
    }
    ws.send(&json!({"t": "resign"})).await;
    let end = ws.expect("end").await;
    assert_eq!(end["winner"], "second");
    s.stop().await;
}

async fn a_bot_plays_over_the_rest_api_with_an_event_stream() {
    let mut s = common::start().await;
    let (game, red, black) = paired(&s, "10+0", false).await;
    // The bot (black) uses a bearer token and the NDJSON stream, no cookie.
    let token: Value = black
        .post("/api/account/token", &json!({}))
        .await
        .json()
        .await
        .unwrap();
    let token = token["token"].as_str().unwrap().to_string();
    let bot = reqwest::Client::new();
    let mut stream = bot
        .get(format!("{}/api/games/{game}/stream", s.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let mut buf = String::new();
    let mut lines = Vec::<Value>::new();
    async fn more(stream: &mut reqwest::Response, buf: &mut String, lines: &mut Vec<Value>) {
        while !buf.contains('\n') {
            let chunk = tokio::time::timeout(Duration::from_secs(10), stream.chunk())
                .await
                .expect("stream line in time")
                .unwrap()
                .expect("stream open");
            buf.push_str(std::str::from_utf8(&chunk).unwrap());
        }
        while let Some(i) = buf.find('\n') {
            let line: String = buf.drain(..=i).collect();
            if !line.trim().is_empty() {
                lines.push(serde_json::from_str(&line).unwrap());
            }
        }
    }
    more(&mut stream, &mut buf, &mut lines).await;
    assert_eq!(lines[0]["t"], "full");
    let (mut rws, _) = red.ws(&game).await;
    rws.play("h2e2").await;
    while lines.len() < 2 {
        more(&mut stream, &mut buf, &mut lines).await;
    }
    assert_eq!(lines[1]["move"], "h2e2");
    let r = bot
        .post(format!("{}/api/games/{game}/move/h9g7?ply=2", s.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // Resending the same move with its ply is harmless.
    let r = bot
        .post(format!("{}/api/games/{game}/move/h9g7?ply=2", s.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(rws.expect("move").await["move"], "h9g7");
    let view = red.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(view["ply"], 2);
    let r = bot
        .post(format!("{}/api/games/{game}/resign", s.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    loop {
        more(&mut stream, &mut buf, &mut lines).await;
        if lines.last().unwrap()["t"] == "end" {
            break;
        }
    }
    assert_eq!(lines.last().unwrap()["winner"], "first");
    s.stop().await;
}

async fn lobby_socket_announces_pairing_and_guests_play_casual() {
    let mut s = common::start().await;
    let g1 = Client::guest(&s).await;
    let g2 = Client::guest(&s).await;
    // Guests may not seek rated games.
    let r = g1
        .post("/api/seeks", &json!({"time": "5+0", "rated": true}))
        .await;
    assert_eq!(r.status(), 403);
    let mut req = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
        "{}/api/lobby/ws",
        s.ws_base
    ))
    .unwrap();
    req.headers_mut()
        .insert("cookie", g1.cookie.clone().unwrap().parse().unwrap());
    let (stream, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let mut lobby = common::Ws { stream };
    assert_eq!(lobby.expect("seeks").await["t"], "seeks");
    let a: Value = g1
        .post("/api/seeks", &json!({"time": "5+0"}))
        .await
        .json()
        .await
        .unwrap();
    let seek_id = a["seek"].as_str().unwrap().to_string();
    assert_eq!(lobby.expect("seek_added").await["seek"]["id"], seek_id.as_str());
    let list = g2.get_json("/api/seeks").await;
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["id"] == seek_id.as_str()));
    let b: Value = g2
        .post("/api/seeks", &json!({"time": "5+0"}))
        .await
        .json()
        .await
        .unwrap();
    let game = b["game"].as_str().unwrap();
    let started = lobby.expect("game_start").await;
    assert_eq!(started["game"], game);
    s.stop().await;
}

async fn openapi_document_lists_the_api() {
    let mut s = common::start().await;
    let c = Client::anonymous(&s);
    let doc = c.get_json("/api/openapi.json").await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    for p in [
        "/api/auth/login",
        "/api/seeks",
        "/api/games/{id}/move/{mv}",
        "/api/games/{id}/stream",
    ] {
        assert!(doc["paths"].get(p).is_some(), "{p} documented");
    }
    let index = c.get("/").await;
    assert_eq!(index.status(), 200);
    assert!(index.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    s.stop().await;
}

async fn a_player_who_leaves_can_be_claimed_against_after_the_wait() {
    let mut s = common::start_with(|c| c.claim_after_ms = Some(1000)).await;
    let a = Client::register(&s, "stay").await;
    let b = Client::register(&s, "leave").await;
    let (_, game, _) = a.challenge(&b, json!({"time": "10+0", "color": "first"})).await;
    let (mut aws, _) = a.ws(&game).await;
    let (mut bws, _) = b.ws(&game).await;
    aws.play("h2e2").await;
    bws.play("h9g7").await;
    // b closes the tab: a hears it at once, with the wait.
    drop(bws);
    let gone = aws.expect("player_gone").await;
    assert_eq!(
        (gone["side"].as_str(), gone["claim_in_ms"].as_i64()),
        (Some("second"), Some(1000)),
        "{gone}"
    );
    aws.send(&json!({"t": "claim_victory"})).await;
    assert_eq!(aws.expect("error").await["code"], "claim_too_early");
    // A reconnecting spectator or player sees who is away.
    let (_, full) = Client::anonymous(&s).ws(&game).await;
    assert_eq!(full["game"]["away"]["side"], "second", "{full}");
    // b comes back: no claim.
    let (bws, _) = b.ws(&game).await;
    assert_eq!(aws.expect("player_back").await["side"], "second");
    aws.send(&json!({"t": "claim_victory"})).await;
    assert_eq!(aws.expect("error").await["code"], "opponent_present");
    // b leaves for good: after the wait (1 s from when the server saw b
    // go, which a slow machine may see late), a claims the win.
    drop(bws);
    let gone_at = Instant::now();
    aws.expect("player_gone").await;
    let end = loop {
        aws.send(&json!({"t": "claim_victory"})).await;
        let m = aws.next().await.expect("an answer to the claim");
        match m["t"].as_str() {
            Some("end") => break m,
            Some("error") if m["code"] == "claim_too_early" => {
                assert!(gone_at.elapsed() < Duration::from_secs(30), "{m}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            _ => panic!("unexpected answer to the claim: {m}"),
        }
    };
    assert!(
        gone_at.elapsed() >= Duration::from_secs(1),
        "claimed before the wait"
    );
    assert_eq!(
        (end["winner"].as_str(), end["state"].as_str()),
        (Some("first"), Some("over")),
        "{end}"
    );
    assert!(end["detail"].as_str().unwrap().contains("left the game"), "{end}");
    s.stop().await;
}

async fn chat_rooms_keep_players_and_spectators_apart_and_muted_lines_reach_nobody() {
    let mut s = common::start().await;
    let a = Client::register(&s, "ca").await;
    let b = Client::register(&s, "cb").await;
    let c = Client::register(&s, "cc").await;
    let (_, game, _) = a.challenge(&b, json!({"time": "10+0", "color": "first"})).await;
    let (mut aws, _) = a.ws(&game).await;
    let (mut bws, _) = b.ws(&game).await;
    let (mut cws, _) = c.ws(&game).await;
    // What a socket receives before its pong: anything sent before the ping.
    async fn until_pong(ws: &mut common::Ws) -> Vec<Value> {
        ws.send(&json!({"t": "ping"})).await;
        let mut got = Vec::new();
        loop {
            let m = ws.next().await.expect("a message");
            if m["t"] == "pong" {
                return got;
            }
            got.push(m);
        }
    }
    aws.send(&json!({"t": "chat", "text": "你好"})).await;
    let line = bws.expect("chat").await;
    assert_eq!(
        (line["room"].as_str(), line["text"].as_str()),
        (Some("players"), Some("你好"))
    );
    assert_eq!(line["from"], a.name.as_str());
    assert!(
        until_pong(&mut cws).await.iter().all(|m| m["t"] != "chat"),
        "a spectator read the players"
    );
    cws.send(&json!({"t": "chat", "text": "good move"})).await;
    assert_eq!(cws.expect("chat").await["room"], "spectators");
    assert!(
        until_pong(&mut aws)
            .await
            .iter()
            .all(|m| m["room"] != "spectators"),
        "a player read the spectators"
    );
    // Refused: too long, control characters, anonymous, too often.
    aws.send(&json!({"t": "chat", "text": "x".repeat(201)})).await;
    assert_eq!(aws.expect("error").await["code"], "bad_chat");
    let (mut anon, _) = Client::anonymous(&s).ws(&game).await;
    anon.send(&json!({"t": "chat", "text": "hi"})).await;
    assert_eq!(anon.expect("error").await["code"], "unauthorized");
    for i in 0..4 {
        aws.send(&json!({"t": "chat", "text": format!("{i}")})).await;
    }
    aws.send(&json!({"t": "chat", "text": "sixth"})).await;
    assert_eq!(aws.expect("error").await["code"], "rate_limited");
    // Muted: b's lines come back to b only.
    let u = s.user(&b.name).await;
    s.server
        .as_ref()
        .unwrap()
        .state
        .play()
        .store()
        .set_muted(&u.id, true)
        .await
        .unwrap();
    // The mute holds on the socket b had open before it, and on a new one.
    until_pong(&mut bws).await;
    bws.send(&json!({"t": "chat", "text": "spam"})).await;
    assert_eq!(bws.expect("chat").await["text"], "spam");
    let (mut bws2, _) = b.ws(&game).await;
    bws2.send(&json!({"t": "chat", "text": "spam2"})).await;
    assert_eq!(bws2.expect("chat").await["text"], "spam2");
    assert!(
        until_pong(&mut aws)
            .await
            .iter()
            .all(|m| m["text"] != "spam" && m["text"] != "spam2"),
        "a muted line reached the opponent"
    );
    drop(bws);
    s.stop().await;
}

crate::on_both_databases!(
    two_accounts_play_to_checkmate_and_spectators_see_every_move,
    the_server_flags_a_player_whose_time_runs_out,
    a_draw_by_agreement,
    a_refused_offer_may_not_be_repeated_until_the_opponent_offers,
    an_arbiter_game_keeps_the_books_fouls,
    a_repetition_is_ruled_under_cxa,
    a_game_against_the_computer,
    a_bot_plays_over_the_rest_api_with_an_event_stream,
    lobby_socket_announces_pairing_and_guests_play_casual,
    openapi_document_lists_the_api,
    a_player_who_leaves_can_be_claimed_against_after_the_wait,
    chat_rooms_keep_players_and_spectators_apart_and_muted_lines_reach_nobody,
);
