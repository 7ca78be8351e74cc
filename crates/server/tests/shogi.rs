//! Shogi (将棋) on the same server, over real HTTP and WebSocket, through
//! the registry's shogi entries: a game with a promotion choice (成/不成),
//! a drop and a byo-yomi flag, recorded as KIF; a handicap game in which
//! the giver (上手) moves first and ratings go to the handicap pool; the
//! impasse claimed where it holds; a game against Fairy-Stockfish over USI
//! where it is installed.

mod common;

use common::Client;
use game::Game;
use serde_json::{json, Value};

fn variant<'a>(info: &'a Value, id: &str) -> &'a Value {
    info["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == id)
        .unwrap_or_else(|| panic!("{id} in /api/info"))
}

async fn a_shogi_game_with_a_promotion_choice_a_drop_and_a_byo_yomi_flag() {
    let mut s = common::start().await;
    let info = Client::anonymous(&s).get_json("/api/info").await;
    let v = variant(&info, "shogi/standard");
    assert_eq!(v["sides"][0]["key"], "sente");
    assert_eq!(v["sides"][1]["key"], "gote");
    assert_eq!(v["board"]["renderer"], "shogi");
    assert_eq!(v["position_format"], "sfen");
    assert_eq!(v["notations"]["coord"], "usi");
    assert_eq!(v["notations"]["display"], "japanese");
    assert_eq!(v["record"]["format"], "kif");
    assert_eq!(v["rating_pool"], "shogi");
    let kinds: Vec<&str> = v["move_kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["move", "promotion", "drop"]);

    let sente = Client::register(&s, "se").await;
    let gote = Client::register(&s, "go").await;
    // 0 minutes, then 1 s a move (秒読み): every move must come within a
    // second, and the first that does not loses.
    let (ch, game, color) = sente
        .challenge(
            &gote,
            json!({"time": "0|1s", "color": "sente", "variant": "shogi"}),
        )
        .await;
    assert_eq!(ch["variant"], "shogi/standard", "{ch}");
    assert_eq!(color, "second");
    let (mut sws, full) = sente.ws(&game).await;
    assert_eq!(full["you"], "first");
    assert_eq!(full["game"]["sides"], json!(["sente", "gote"]));
    assert_eq!(full["game"]["initial_fen"], shogi::STARTPOS);
    let clocks = &full["game"]["clocks"];
    assert_eq!(clocks["first"]["periods_left"], 1, "{clocks}");
    assert_eq!(clocks["first"]["period_ms"], 1000, "{clocks}");
    let (mut gws, _) = gote.ws(&game).await;

    // Illegal: two pawns on a file (二歩) is refused with its rule's name.
    sws.play("7g7f").await;
    gws.play("3c3d").await;
    // The bishop takes on 2b: promoting and not promoting are both legal.
    let full = sente.get_json(&format!("/api/games/{game}")).await;
    let legal: Vec<&str> = full["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(legal.contains(&"8h2b") && legal.contains(&"8h2b+"), "{legal:?}");
    let promoted = sws.play("8h2b+").await;
    assert_eq!(promoted["display"], "▲２二角成");
    assert_eq!(promoted["alt"], "Bx2b+");
    assert_eq!(promoted["capture"], true);
    gws.play("3a2b").await;
    // Sente drops the captured bishop (打).
    let dropped = sws.play("B*4e").await;
    // JSA: 打 only where a piece on the board could also go there.
    assert_eq!(dropped["display"], "▲４五角");
    assert_eq!(dropped["alt"], "B*4e");
    assert!(
        dropped["fen"].as_str().unwrap().contains(" w b "),
        "gote holds a bishop: {dropped}"
    );
    gws.send(&json!({"t": "move", "move": "P*3c"})).await;
    let err = gws.expect("error").await;
    assert_eq!(err["code"], "illegal_move", "{err}");
    assert!(
        err["message"].as_str().unwrap().contains("no pawn in hand"),
        "{err}"
    );
    // Gote lets its second run out.
    let end = sws.expect("end").await;
    assert_eq!(end["reason"], "time_forfeit", "{end}");
    assert_eq!(end["winner"], "first");
    assert_eq!(end["result"], "1-0");

    // The archive as KIF (UTF-8), read back by the shogi crate.
    let r = sente.get(&format!("/api/games/{game}/pgn")).await;
    assert_eq!(r.status(), 200);
    let headers = r.headers().clone();
    assert_eq!(headers["content-type"], "text/plain; charset=utf-8");
    assert!(
        headers["content-disposition"]
            .to_str()
            .unwrap()
            .contains(&format!("qiju-{game}.kifu")),
        "{headers:?}"
    );
    let kif = r.text().await.unwrap();
    assert!(kif.contains(&format!("先手：{}", sente.name)), "{kif}");
    assert!(kif.contains(&format!("後手：{}", gote.name)), "{kif}");
    assert!(
        kif.contains("切れ負け") && kif.contains("まで5手で先手の勝ち"),
        "{kif}"
    );
    let back = shogi::kif::read_kif(&kif).unwrap_or_else(|e| panic!("{e}\n{kif}"));
    assert_eq!(back.usi_moves(), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    // Each move with the clock time it took (消費時間), from the game's own
    // clock: the first, which starts the clocks, took none.
    let spent: Vec<Option<u32>> = back.moves.iter().map(|m| m.seconds).collect();
    assert!(spent.iter().all(Option::is_some), "{kif}");
    assert_eq!(spent[0], Some(0), "{kif}");
    // A player's PGN export leaves KIF games out rather than mixing them in.
    let pgn = sente
        .get(&format!("/api/users/{}/games.pgn", sente.name))
        .await
        .text()
        .await
        .unwrap();
    assert!(!pgn.contains("B*4e") && !pgn.contains("角打"), "{pgn}");
    s.stop().await;
}

async fn a_handicap_game_starts_with_the_giver_and_rates_in_its_own_pool() {
    let mut s = common::start().await;
    let info = Client::anonymous(&s).get_json("/api/info").await;
    for id in [
        "shogi/lance",
        "shogi/bishop",
        "shogi/rook",
        "shogi/rook-lance",
        "shogi/two-pieces",
        "shogi/four-pieces",
        "shogi/six-pieces",
        "shogi/eight-pieces",
        "shogi/ten-pieces",
    ] {
        let v = variant(&info, id);
        assert_eq!(v["sides"][0]["key"], "uwate", "{id}: the giver is first");
        assert_eq!(v["sides"][1]["key"], "shitate");
        assert!(
            v["start"]["fen"].as_str().unwrap().contains(" w - 1"),
            "{id}: gote (the giver) to move"
        );
    }
    // Rated: the teacher gives two pieces (二枚落ち) and moves first.
    let teacher = Client::register(&s, "te").await;
    let pupil = Client::register(&s, "pu").await;
    let body = json!({"time": "10|30s", "rated": true, "variant": "二枚落ち", "color": "uwate"});
    let first: Value = teacher.post("/api/seeks", &body).await.json().await.unwrap();
    assert!(first["seek"].is_string(), "{first}");
    let body = json!({"time": "10|30s", "rated": true, "variant": "shogi/two-pieces", "color": "shitate"});
    let second: Value = pupil.post("/api/seeks", &body).await.json().await.unwrap();
    let game = second["game"]
        .as_str()
        .unwrap_or_else(|| panic!("paired: {second}"))
        .to_string();
    assert_eq!(second["color"], "second");
    let (mut tws, full) = teacher.ws(&game).await;
    assert_eq!(full["you"], "first");
    assert_eq!(full["game"]["variant"], "shogi/two-pieces");
    assert_eq!(full["game"]["sides"], json!(["uwate", "shitate"]));
    assert_eq!(full["game"]["turn"], "first");
    assert_eq!(
        full["game"]["fen"],
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    let (mut pws, _) = pupil.ws(&game).await;
    // The pupil (sente's pieces) may not move first.
    pws.send(&json!({"t": "move", "move": "7g7f"})).await;
    assert_eq!(pws.expect("error").await["code"], "not_your_turn");
    let m = tws.play("6a5b").await;
    assert_eq!(m["display"], "△５二金右", "the giver plays gote's pieces");
    pws.play("7g7f").await;
    pws.send(&json!({"t": "resign"})).await;
    let end = tws.expect("end").await;
    assert_eq!(end["winner"], "first", "{end}");
    let u = teacher.get_json(&format!("/api/users/{}", teacher.name)).await;
    let pools: Vec<&str> = u["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["pool"].as_str().unwrap())
        .collect();
    assert_eq!(pools, ["shogi-handicap"], "{u}");
    let kif = teacher
        .get(&format!("/api/games/{game}/pgn"))
        .await
        .text()
        .await
        .unwrap();
    assert!(kif.contains("手合割：二枚落ち"), "{kif}");
    assert!(kif.contains(&format!("上手：{}", teacher.name)), "{kif}");
    assert!(kif.contains(&format!("下手：{}", pupil.name)), "{kif}");
    assert!(kif.contains("まで2手で上手の勝ち"), "{kif}");
    s.stop().await;
}

async fn an_impasse_is_claimed_in_its_own_words_and_may_lose_for_the_claimant() {
    let mut s = common::start().await;
    let a = Client::register(&s, "a").await;
    let b = Client::register(&s, "b").await;
    // Both kings have entered; sente holds 34 points, gote 20. Either side
    // to move may have the pieces counted, and gote, short of 24, loses —
    // even when gote is the one who asks.
    let fen = "9/4K4/9/9/9/9/9/4k4/9 b 2R2B14P4g4s4n4l4p 1";
    let (_, game, _) = a
        .challenge(
            &b,
            json!({"time": "10+5", "color": "sente", "variant": "shogi", "fen": fen}),
        )
        .await;
    let (mut aws, full) = a.ws(&game).await;
    assert_eq!(full["game"]["claimable"], true, "{full}");
    assert_eq!(full["game"]["claim"], "impasse_points");
    aws.play("5b5a").await;
    let (mut bws, full) = b.ws(&game).await;
    // Gote may claim too, and the count says gote loses: the claim holds.
    assert_eq!(full["game"]["claim"], "impasse_points", "{full}");
    bws.send(&json!({"t": "claim_draw"})).await;
    let end = aws.expect("end").await;
    assert_eq!(end["reason"], "impasse_points", "{end}");
    assert_eq!(
        end["winner"], "first",
        "gote, short of 24 points, loses its own claim"
    );
    assert_eq!(end["article"], "持将棋");
    s.stop().await;
}

/// Where Debian's `fairy-stockfish` is installed, the computer plays shogi
/// over USI; the option is absent otherwise.
async fn a_shogi_game_against_fairy_stockfish_over_usi_where_it_is_installed() {
    let installed = play::computer::on_path("fairy-stockfish").is_some();
    let mut s = common::start().await;
    let info = Client::anonymous(&s).get_json("/api/info").await;
    let v = variant(&info, "shogi/standard").clone();
    let me = Client::register(&s, "h").await;
    let r = me
        .post(
            "/api/computer",
            &json!({"level": 1, "time": "0|1s", "color": "sente", "variant": "shogi"}),
        )
        .await;
    if !installed {
        if std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1") {
            panic!("fairy-stockfish is not installed (QIJU_REQUIRE_ORACLES=1)");
        }
        eprintln!("skipped: fairy-stockfish is not installed");
        assert_eq!(v["computer_levels"], 0);
        assert_eq!(r.status(), 400, "no computer offered without fairy-stockfish");
        s.stop().await;
        return;
    }
    assert_eq!(v["computer_levels"], 8);
    assert_eq!(v["can_analyse"], true);
    assert_eq!(r.status(), 200);
    let started: Value = r.json().await.unwrap();
    assert_eq!(started["color"], "first");
    let game = started["game"].as_str().unwrap().to_string();
    let (mut ws, full) = me.ws(&game).await;
    assert_eq!(full["game"]["second"]["computer"], "level:1");
    let mut local = shogi::ShogiGame::new("startpos", shogi::ImpasseRule::Points24).unwrap();
    // Our moves: a drop as soon as we hold a piece, else the first legal
    // move that is not a king's.
    for ply in (1..=11).step_by(2) {
        let legal = local.legal_moves();
        let mine = legal
            .iter()
            .find(|m| m.contains('*'))
            .or_else(|| legal.iter().find(|m| !m.starts_with("5i")))
            .unwrap()
            .clone();
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
        assert!(reply["display"].as_str().unwrap().starts_with('△'), "{reply}");
    }
    ws.send(&json!({"t": "resign"})).await;
    assert_eq!(ws.expect("end").await["winner"], "second");
    // The finished game is analysed as a chess game is: every position gets
    // the engine's score.
    let r = me.post(&format!("/api/games/{game}/analysis"), &json!({})).await;
    assert!(r.status().is_success(), "{}", r.status());
    let mut analysed = Value::Null;
    for _ in 0..100 {
        analysed = me.get_json(&format!("/api/games/{game}/analysis")).await;
        if analysed["state"] == "done" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(analysed["state"], "done", "{analysed}");
    s.stop().await;
}

/// A USI engine that declares the entering-king win (`bestmove win`) has
/// the declaration ruled on as a player's claim: where it holds, the
/// computer wins by it (the CSA's 27 points, 入玉宣言); where it does not, the
/// computer, having offered no move, resigns. The engine here is a script
/// that always declares, from positions where the computer moves first:
/// a claim may be the first thing a game sees.
async fn the_computer_declares_the_win_over_usi_and_the_game_rules_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("declarer.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in\n\
         usi) echo 'id name declarer'; echo usiok;;\n\
         isready) echo readyok;;\n\
         go*) echo 'bestmove win';;\n\
         quit) exit 0;;\n\
         esac; done\n",
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let engine = format!("cmd=\"{}\" proto=usi", script.display());
    let mut s = common::start_with(|c| c.engines = vec![("declarer".into(), engine)]).await;
    let me = Client::register(&s, "decl").await;
    // Sente's king has entered (5b) with 12 pieces in the camp worth 28
    // points — rooks and bishops 5, pawns 1 — and is not in check: sente,
    // the computer, to move, may declare.
    let holds = "9/1R1BKB1R1/PPPPPPPP1/9/9/9/9/9/4k4 b 4g4s4n4l10p 1";
    // The same with two pawns fewer in the camp: 26 points, too few.
    let short = "9/1R1BKB1R1/PPPPPP3/9/9/9/9/9/4k4 b 4g4s4n4l12p 1";
    for (fen, reason, winner) in [
        (holds, "impasse_declaration", "first"),
        // Refused, and the computer resigns — before any move, which calls
        // the game off as any resignation then does.
        (short, "aborted", ""),
    ] {
        let r = me
            .post(
                "/api/computer",
                &json!({"engine": "declarer", "variant": "shogi/declaration", "time": "10+5",
                        "color": "second", "fen": fen}),
            )
            .await;
        assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
        let started: Value = r.json().await.unwrap();
        let game = started["game"].as_str().unwrap().to_string();
        let (mut ws, full) = me.ws(&game).await;
        let end = if full["game"]["state"] == "live" {
            ws.expect("end").await
        } else {
            full["game"].clone()
        };
        assert_eq!(
            (end["reason"].as_str(), end["winner"].as_str().unwrap_or("")),
            (Some(reason), winner),
            "{end}"
        );
    }
    // A position that is not one is refused with its reason.
    let r = me
        .post(
            "/api/computer",
            &json!({"engine": "declarer", "variant": "shogi", "time": "10+5", "fen": "9/9 b - 1"}),
        )
        .await;
    assert_eq!(r.status(), 400);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "bad_fen");
    s.stop().await;
}

crate::on_both_databases!(
    a_shogi_game_with_a_promotion_choice_a_drop_and_a_byo_yomi_flag,
    a_handicap_game_starts_with_the_giver_and_rates_in_its_own_pool,
    an_impasse_is_claimed_in_its_own_words_and_may_lose_for_the_claimant,
    a_shogi_game_against_fairy_stockfish_over_usi_where_it_is_installed,
    the_computer_declares_the_win_over_usi_and_the_game_rules_on_it,
);
