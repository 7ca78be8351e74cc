//! International chess on the same server, over real HTTP and WebSocket:
//! a game to mate with castling on both wings, en passant and an
//! under-promotion; a flag against a lone king drawn (FIDE 6.9); the bot
//! API and spectators; a game against Stockfish where it is installed.

mod common;

use common::Client;
use game::Game;
use serde_json::{json, Value};

/// A challenge from `a` (White) to `b`, accepted; returns the game id.
async fn challenge(a: &Client, b: &Client, variant: &str, time: &str, fen: Option<&str>) -> String {
    let mut body = json!({"time": time, "color": "white", "variant": variant});
    if let Some(fen) = fen {
        body["fen"] = fen.into();
    }
    let (ch, game, color) = a.challenge(b, body).await;
    assert!(ch["variant"].as_str().unwrap().starts_with("chess/"), "{ch}");
    assert_eq!(color, "second");
    game
}

/// 1. e4 d5 2. e5 f5 3. exf6 (en passant) Nc6 4. fxg7 Bf5 5. Nf3 Qd6
/// 6. Bc4 O-O-O 7. O-O e5 8. gxh8=N (under-promotion) Nh6 9. Nxe5 Ng4
/// 10. Nf7 Qxh2#.
const GAME: &str =
    "e2e4 d7d5 e4e5 f7f5 e5f6 b8c6 f6g7 c8f5 g1f3 d8d6 f1c4 e8c8 e1g1 e7e5 g7h8n g8h6 f3e5 h6g4 e5f7 d6h2";

async fn a_chess_game_to_mate_with_castling_en_passant_and_an_under_promotion() {
    let mut s = common::start().await;
    let info = Client::anonymous(&s).get_json("/api/info").await;
    let ids: Vec<&str> = info["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"chess/standard") && ids.contains(&"chess/chess960"),
        "{ids:?}"
    );

    let white = Client::register(&s, "w").await;
    let black = Client::register(&s, "k").await;
    let game = challenge(&white, &black, "chess", "10+5", None).await;
    let (mut wws, full) = white.ws(&game).await;
    assert_eq!(full["you"], "first");
    assert_eq!(full["game"]["variant"], "chess/standard");
    assert_eq!(full["game"]["turn"], "first");
    let (mut bws, full) = black.ws(&game).await;
    assert_eq!(full["you"], "second");
    let watcher = Client::anonymous(&s);
    let (mut sws, _) = watcher.ws(&game).await;

    // An illegal move (a pawn three squares) and an unreadable one change nothing.
    wws.send(&json!({"t": "move", "move": "e2e5"})).await;
    assert_eq!(wws.expect("error").await["code"], "illegal_move");
    wws.send(&json!({"t": "move", "move": "e2"})).await;
    assert_eq!(wws.expect("error").await["code"], "illegal_move");

    let moves: Vec<&str> = GAME.split(' ').collect();
    let mut sans = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut wws, &mut bws)
        } else {
            (&mut bws, &mut wws)
        };
        let echo = mover.play(mv).await;
        assert_eq!(echo["ply"], i + 1, "{echo}");
        assert_eq!(other.expect("move").await["move"], *mv);
        let watched = sws.expect("move").await;
        assert_eq!(watched["move"], *mv, "the spectator sees ply {}", i + 1);
        assert_eq!(watched["v"], i + 1, "events are numbered without gaps");
        assert!(!watched["legal"].as_array().unwrap().is_empty() || i + 1 == moves.len());
        sans.push(watched["display"].as_str().unwrap().to_string());
    }
    assert_eq!(sans[4], "exf6", "en passant");
    assert_eq!(sans[11], "O-O-O");
    assert_eq!(sans[12], "O-O");
    assert_eq!(sans[14], "gxh8=N");
    assert_eq!(sans[19], "Qxh2#");
    for ws in [&mut wws, &mut bws, &mut sws] {
        let end = ws.expect("end").await;
        assert_eq!(end["result"], "0-1", "{end}");
        assert_eq!(end["winner"], "second");
        assert_eq!(end["reason"], "checkmate");
    }
    // A client that saw a gap asks for the whole state again.
    sws.send(&json!({"t": "resync"})).await;
    let again = sws.expect("full").await;
    assert_eq!(again["game"]["v"], moves.len() + 1, "the moves and the end");
    assert_eq!(again["you"], Value::Null);
    // The archive as chess PGN, read back by the chess crate's reader.
    let pgn = white
        .get(&format!("/api/games/{game}/pgn"))
        .await
        .text()
        .await
        .unwrap();
    assert!(pgn.contains(&format!("[White \"{}\"]", white.name)), "{pgn}");
    assert!(pgn.contains(&format!("[Black \"{}\"]", black.name)), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("gxh8=N") && pgn.contains("Qxh2#"), "{pgn}");
    let back = chess::pgn::read_pgn(&pgn);
    let back = back[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{pgn}"));
    let ucis: Vec<&str> = back.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, moves);
    assert!(back.moves.iter().all(|m| m.clock.is_some()), "clocks: {pgn}");
    assert_eq!(back.result, "0-1");
    s.stop().await;
}

async fn a_flag_against_a_lone_king_is_a_draw_and_a_bot_moves_over_rest() {
    let mut s = common::start().await;
    let white = Client::register(&s, "w").await;
    let black = Client::register(&s, "k").await;
    // White has a queen; Black has only its king and so can never mate.
    let game = challenge(
        &white,
        &black,
        "chess/standard",
        "0.05+0",
        Some("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"),
    )
    .await;
    let token: Value = black
        .post("/api/account/token", &json!({}))
        .await
        .json()
        .await
        .unwrap();
    let token = token["token"].as_str().unwrap().to_string();
    let (mut wws, _) = white.ws(&game).await;
    wws.play("d1d2").await;
    // Black, as a bot, answers over the REST API.
    let bot = reqwest::Client::new();
    let r = bot
        .post(format!("{}/api/games/{game}/move/e8f7?ply=2", s.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(wws.expect("move").await["move"], "e8f7");
    // White does nothing; its flag falls, but Black cannot win.
    let end = wws.expect("end").await;
    assert_eq!(end["result"], "1/2-1/2", "{end}");
    assert_eq!(end["reason"], "time_forfeit_draw");
    assert_eq!(end["article"], "6.9");
    s.stop().await;
}

async fn rated_chess_moves_the_chess_rating_only_and_chess960_starts_from_one_of_960() {
    let mut s = common::start().await;
    let a = Client::register(&s, "a").await;
    let b = Client::register(&s, "b").await;
    let body = json!({"time": "5+0", "rated": true, "variant": "chess"});
    let first: Value = a.post("/api/seeks", &body).await.json().await.unwrap();
    assert!(first["seek"].is_string(), "{first}");
    let second: Value = b.post("/api/seeks", &body).await.json().await.unwrap();
    let game = second["game"].as_str().expect("paired").to_string();
    let (winner, loser) = if second["color"] == "first" {
        (&b, &a)
    } else {
        (&a, &b)
    };
    let (mut wws, _) = winner.ws(&game).await;
    let (mut lws, _) = loser.ws(&game).await;
    // Both sides move, then the second side resigns.
    wws.play("e2e4").await;
    lws.play("e7e5").await;
    lws.send(&json!({"t": "resign"})).await;
    let end = wws.expect("end").await;
    assert_eq!(end["winner"], "first", "{end}");
    assert_eq!(end["ratings"]["first"]["before"], 1400.0, "{end}");
    assert_eq!(end["ratings"]["first"]["after"], 1420.0, "{end}");
    let w = a.get_json(&format!("/api/users/{}", winner.name)).await;
    let pools: Vec<(&str, f64)> = w["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["pool"].as_str().unwrap(), r["rating"].as_f64().unwrap()))
        .collect();
    assert_eq!(pools, [("chess", 1420.0)], "{w}");
    assert_eq!(w["rating"], 1400.0, "the Xiangqi rating is untouched");
    let hist = a
        .get_json(&format!("/api/users/{}/rating-history", winner.name))
        .await;
    assert_eq!(hist[0]["pool"], "chess");

    let game = challenge(&a, &b, "chess960", "5+0", None).await;
    let (_, full) = a.ws(&game).await;
    assert_eq!(full["game"]["variant"], "chess/chess960");
    let fen = full["game"]["initial_fen"].as_str().unwrap();
    let numbered = (0..960).any(|n| chess::chess960_start_fen(n).as_deref() == Some(fen));
    assert!(numbered, "{fen} is a Chess960 start position");
    s.stop().await;
}

/// Where Debian's `stockfish` is installed, the computer plays chess; the
/// option is absent otherwise.
async fn a_chess_game_against_stockfish_where_it_is_installed() {
    let installed = play::computer::on_path("stockfish").is_some();
    let mut s = common::start().await;
    let info = Client::anonymous(&s).get_json("/api/info").await;
    let chess = info["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "chess/standard")
        .unwrap()
        .clone();
    let me = Client::register(&s, "h").await;
    let r = me
        .post(
            "/api/computer",
            &json!({"level": 1, "time": "0.2+0", "color": "white", "variant": "chess"}),
        )
        .await;
    if !installed {
        if std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1") {
            panic!("stockfish is not installed (QIJU_REQUIRE_ORACLES=1)");
        }
        eprintln!("skipped: stockfish is not installed");
        assert_eq!(chess["computer_levels"], 0);
        assert_eq!(r.status(), 400, "no computer offered without stockfish");
        s.stop().await;
        return;
    }
    assert_eq!(chess["computer_levels"], 8);
    assert_eq!(r.status(), 200);
    let started: Value = r.json().await.unwrap();
    assert_eq!(started["color"], "first");
    let game = started["game"].as_str().unwrap().to_string();
    let (mut ws, full) = me.ws(&game).await;
    assert_eq!(full["game"]["second"]["computer"], "level:1");
    let mut local = chess::ChessGame::new("startpos", chess::Variant::Standard).unwrap();
    for ply in (1..=9).step_by(2) {
        let mine = local.legal_moves()[0].clone();
        assert_eq!(ws.play(&mine).await["ply"], ply);
        local.play(&mine).unwrap();
        let reply = ws.reply().await;
        if reply["t"] == "end" {
            break;
        }
        assert_eq!(reply["ply"], ply + 1, "{reply}");
        local
            .play(reply["move"].as_str().unwrap())
            .expect("the computer's move is legal");
    }
    ws.send(&json!({"t": "resign"})).await;
    assert_eq!(ws.expect("end").await["winner"], "second");
    s.stop().await;
}

crate::on_both_databases!(
    a_chess_game_to_mate_with_castling_en_passant_and_an_under_promotion,
    a_flag_against_a_lone_king_is_a_draw_and_a_bot_moves_over_rest,
    rated_chess_moves_the_chess_rating_only_and_chess960_starts_from_one_of_960,
    a_chess_game_against_stockfish_where_it_is_installed,
);
