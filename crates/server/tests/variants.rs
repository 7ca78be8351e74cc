//! A data-defined variant (crates/variants; issue 27, item 2) on the server,
//! over real HTTP and WebSocket: `/api/info` lists the shipped ones, and a
//! rated Janggi game by challenge ends when both sides pass in a row (장기's
//! pass, `e1e1`), scored by counting as Fairy-Stockfish scores it — equal
//! material, so Black's 1.5 points win — with its own rating pool and a PGN
//! that names the variant.

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

crate::on_both_databases!(a_janggi_game_ends_after_two_passes_by_counting);
