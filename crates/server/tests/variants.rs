//! A data-defined variant (crates/variants; issue 27, items 2 and 7) on the
//! server, over real HTTP and WebSocket: `/api/info` lists the shipped ones;
//! a rated Janggi game by challenge ends when both sides pass in a row
//! (장기's pass, `e1e1`), scored by counting as Fairy-Stockfish scores it —
//! equal material, so Black's 1.5 points win — with its own rating pool
//! and a PGN that names the variant; a 升级象棋 game against the built-in
//! computer (the generic search), whose first capture promotes, and the
//! analysis board's engine on a data variant.

mod common;

use common::Client;
use serde_json::json;

async fn a_janggi_game_ends_after_two_passes_by_counting() {
    let mut s = common::start().await;
    let info = Client::anonymous(&s).get_json("/api/info").await;
    let variants = info["variants"].as_array().unwrap();
    let janggi = variants
        .iter()
        .find(|v| v["id"] == "variants/janggi")
        .unwrap_or_else(|| panic!("no janggi in {info}"));
    assert_eq!(janggi["rating_pool"], "janggi");
    assert_eq!(janggi["board"]["renderer"], "variants");

    let red = Client::register(&s, "r").await;
    let black = Client::register(&s, "b").await;
    let body = json!({"time": "10+5", "color": "red", "variant": "janggi", "rated": true});
    let (ch, game, color) = red.challenge(&black, body).await;
    assert_eq!(ch["variant"], "variants/janggi", "{ch}");
    assert_eq!(color, "second");
    let (mut rws, full) = red.ws(&game).await;
    assert_eq!(full["you"], "first");
    assert_eq!(full["game"]["variant"], "variants/janggi");
    let (mut bws, _) = black.ws(&game).await;

    // Janggi's cannon may not move without a screen: refused.
    rws.send(&json!({"t": "move", "move": "b2b5"})).await;
    assert_eq!(rws.expect("error").await["code"], "illegal_move");
    let moves = ["b0c2", "h9g7", "e1e1", "e8e8"];
    for (i, mv) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut rws, &mut bws)
        } else {
            (&mut bws, &mut rws)
        };
        let echo = mover.play(mv).await;
        assert_eq!(echo["ply"], i + 1, "{echo}");
        assert_eq!(other.expect("move").await["move"], *mv);
    }
    for ws in [&mut rws, &mut bws] {
        let end = ws.expect("end").await;
        assert_eq!(end["result"], "0-1", "{end}");
        assert_eq!(end["winner"], "second");
        assert_eq!(end["reason"], "passes");
        assert_eq!(end["ratings"]["second"]["before"], 1400.0, "{end}");
    }
    // Rated in Janggi's own pool, nowhere else.
    let b = red.get_json(&format!("/api/users/{}", black.name)).await;
    let pools: Vec<&str> = b["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["pool"].as_str().unwrap())
        .collect();
    assert_eq!(pools, ["janggi"], "{b}");
    let pgn = red
        .get(&format!("/api/games/{game}/pgn"))
        .await
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[Variant \"janggi\"]"), "{pgn}");
    assert!(pgn.contains("1. b0c2 h9g7 2. e1e1 e8e8"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    s.stop().await;
}

/// The descriptor of `id` in `/api/info`, which must offer the computer's
/// five levels and its own rating pool.
async fn descriptor(s: &common::TestServer, id: &str) -> serde_json::Value {
    let info = Client::anonymous(s).get_json("/api/info").await;
    let v = info["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {info}"))
        .clone();
    assert_eq!(v["computer_levels"], 5, "{v}");
    assert_eq!(v["can_analyse"], true, "{v}");
    v
}

/// A game against the computer at `level`, `me` playing first: its id
/// and socket.
async fn against_the_computer(me: &Client, variant: &str, level: u8) -> (String, common::Ws) {
    let r = me
        .post(
            "/api/computer",
            &json!({"level": level, "time": "5+3", "color": "first", "variant": variant}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let started: serde_json::Value = r.json().await.unwrap();
    let game = started["game"].as_str().unwrap().to_string();
    let (ws, full) = me.ws(&game).await;
    assert_eq!(full["you"], "first");
    assert_eq!(full["game"]["variant"], format!("variants/{variant}"));
    (game, ws)
}

/// Plays on until ply `plies` or the end, `me` choosing with `pick` from
/// the legal moves, the computer answering (its moves are checked by the
/// referee like anyone's); the game's view then.
async fn play_on(
    me: &Client,
    game: &str,
    ws: &mut common::Ws,
    plies: u64,
    pick: fn(&[serde_json::Value]) -> &serde_json::Value,
) -> serde_json::Value {
    loop {
        let view = me.get_json(&format!("/api/games/{game}")).await;
        if view["state"] != "live" || view["ply"].as_u64().unwrap() >= plies {
            return view;
        }
        if view["turn"] == "first" {
            let legal = view["legal"].as_array().unwrap();
            ws.play(pick(legal).as_str().unwrap()).await;
        } else if ws.reply().await["t"] == "end" {
            return me.get_json(&format!("/api/games/{game}")).await;
        }
    }
}

/// 升级象棋 against the built-in computer: its levels are offered, it
/// answers every move with a legal one of its own, the cannon's capture on
/// the first move promotes it (`+C` in the FEN), and the analysis board's
/// engine sees a mate in one on a data variant.
async fn a_shengji_game_against_the_generic_computer() {
    let mut s = common::start().await;
    descriptor(&s, "variants/shengji").await;
    let me = Client::register(&s, "h").await;
    let (game, mut ws) = against_the_computer(&me, "shengji", 1).await;

    // 炮二进七: the cannon takes the horse over the cannon on h7 and is
    // promoted by that capture (铁炮, `+C`).
    let echo = ws.play("h2h9").await;
    assert!(echo["fen"].as_str().unwrap().starts_with("rnbakab+C"), "{echo}");
    // The computer is to move: the move carries Red's premoves (Red's moves
    // by movement alone), since the browser has no rules of a data variant.
    let premoves: Vec<&str> = echo["premoves"]
        .as_array()
        .unwrap_or_else(|| panic!("no premoves: {echo}"))
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        premoves.contains(&"h0g2") && premoves.contains(&"h9h8"),
        "{premoves:?}"
    );
    assert!(
        !premoves.iter().any(|m| m.starts_with("b9")),
        "no Black move: {premoves:?}"
    );
    // Then a few moves more, the first legal one each time.
    let view = play_on(&me, &game, &mut ws, 12, |legal| &legal[0]).await;
    let moves: Vec<&str> = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves[0], "h2h9");
    // The computer moved (every second move), or won before ply 12.
    assert!(
        moves.len() >= 12 || view["state"] != "live",
        "{moves:?} {}",
        view["state"]
    );
    assert!(moves.len() >= 2, "the computer answered: {moves:?}");

    // The analysis board's engine is the same search, at full strength.
    let e: serde_json::Value = me
        .post(
            "/api/analysis/eval",
            &json!({"variant": "shengji", "fen": "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(e["score"], json!({"mate": 1}), "{e}");
    // The analysis board says who made each move: after 杀惊遁马's cannon
    // and horse Black is still to move, and `movers` shows Black's move
    // not followed by Red's.
    let r: serde_json::Value = me
        .post(
            "/api/analysis/position",
            &json!({"variant": "xiangqi-horse", "moves": ["h2h9", "b9c7"]}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&r["turn"], &r["movers"]),
        (&json!("black"), &json!(["first", "second"])),
        "{r}"
    );
    s.stop().await;
}

/// Xiangqi with two house rules on (龙战士 and 任务兵, seed 004) against
/// the computer: the set is a variant of its own, its rules answer over
/// HTTP (the advisor's diagonal step outside the palace once its side has
/// no cannon; not in the set without 龙战士), the computer plays it, and
/// the PGN names it.
async fn a_game_with_two_house_rules_against_the_computer() {
    let mut s = common::start().await;
    let set = descriptor(&s, "variants/xiangqi-dragon-mission").await;
    assert_eq!(set["rating_pool"], "xiangqi-dragon-mission");

    let me = Client::register(&s, "h").await;
    let fen = "4k4/9/9/9/9/9/9/3A5/9/3K5 w - - 0 1";
    for (variant, fires) in [("xiangqi-dragon-mission", true), ("xiangqi-mission", false)] {
        let r: serde_json::Value = me
            .post("/api/analysis/position", &json!({"variant": variant, "fen": fen}))
            .await
            .json()
            .await
            .unwrap();
        let legal: Vec<&str> = r["legal"]
            .as_array()
            .unwrap_or_else(|| panic!("{r}"))
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(legal.contains(&"d2c3"), fires, "{variant}: {legal:?}");
    }

    let (game, mut ws) = against_the_computer(&me, "xiangqi-dragon-mission", 2).await;
    let view = play_on(&me, &game, &mut ws, 10, |legal| &legal[legal.len() / 2]).await;
    assert!(
        view["ply"].as_u64().unwrap() >= 10 || view["state"] != "live",
        "{view}"
    );
    if view["state"] == "live" {
        ws.send(&json!({"t": "resign"})).await;
        ws.expect("end").await;
    }
    let pgn = me
        .get(&format!("/api/games/{game}/pgn"))
        .await
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[Variant \"xiangqi-dragon-mission\"]"), "{pgn}");
    s.stop().await;
}

/// The house rules that add moves (seed 004), over HTTP and WebSocket on
/// `xiangqi-house` (the eight that go together): 杀惊遁马 — after Red's
/// opening cannon takes a horse, Black moves twice, each move sent with
/// its side; 还魂卒's drop (`P@a3`) and 解将旗's flag step (`~`) among
/// the legal moves the analysis board answers for a position; the
/// reserves and flags in the FEN.
async fn a_game_with_the_house_rules_that_add_moves() {
    let mut s = common::start().await;
    let set = descriptor(&s, "variants/xiangqi-house").await;
    assert_eq!(set["board"]["flag_ring"], 42, "{set}");
    assert_eq!(set["board"]["revived"], json!(["p"]), "{set}");

    let me = Client::register(&s, "h").await;
    for (fen, mv) in [
        ("3k5/9/9/9/p8/9/2P6/9/R8/4K4[P]{0,21} w V - 0 1", "P@a3"),
        ("3r1k3/9/9/9/9/9/9/9/9/3K5{0,21} w - - 0 1", "~"),
    ] {
        let r: serde_json::Value = me
            .post(
                "/api/analysis/position",
                &json!({"variant": "xiangqi-house", "fen": fen}),
            )
            .await
            .json()
            .await
            .unwrap();
        let legal: Vec<&str> = r["legal"]
            .as_array()
            .unwrap_or_else(|| panic!("{r}"))
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(legal.contains(&mv), "{mv}: {legal:?}");
    }

    let red = Client::register(&s, "r").await;
    let black = Client::register(&s, "b").await;
    let body = json!({"time": "10+5", "color": "red", "variant": "xiangqi-house", "rated": false});
    let (_, game, _) = red.challenge(&black, body).await;
    let (mut rws, full) = red.ws(&game).await;
    assert!(
        full["game"]["fen"]
            .as_str()
            .unwrap()
            .contains("[]{0,21} w - - 0 1"),
        "{full}"
    );
    let (mut bws, _) = black.ws(&game).await;
    // 杀惊: 炮二进七 takes the horse; 遁马: the horse away, then the rook
    // takes the cannon — two moves of Black's in a row.
    let echo = rws.play("h2h9").await;
    // Red captured (还魂卒: `V`, it may revive next); Black is owed two (`d`).
    assert!(echo["fen"].as_str().unwrap().ends_with(" b Vd - 0 1"), "{echo}");
    bws.expect("move").await;
    let first = bws.play("b9c7").await;
    assert_eq!(first["side"], "second", "{first}");
    assert!(first["fen"].as_str().unwrap().contains(" b Vs - "), "{first}");
    let second = bws.play("i9h9").await;
    assert_eq!(second["side"], "second", "{second}");
    let view = red.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(view["turn"], "first", "{view}");
    assert_eq!(view["ply"], 3, "{view}");
    s.stop().await;
}

crate::on_both_databases!(
    a_janggi_game_ends_after_two_passes_by_counting,
    a_shengji_game_against_the_generic_computer,
    a_game_with_two_house_rules_against_the_computer,
    a_game_with_the_house_rules_that_add_moves,
);
