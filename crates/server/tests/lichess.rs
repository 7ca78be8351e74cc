//! lichess's Bot API over qiju (issue 32): the shapes lichess's clients
//! read, field by field against lichess's published description
//! (lichess-org/api, `doc/specs/schemas`: GameFullEvent, GameStateEvent,
//! GameEventInfo, ChallengeJson), on both databases; and berserk itself
//! driving a running server (`tests/berserk_bot.py`).

mod common;
#[path = "lichess/schema.rs"]
mod schema;

use common::lichess::Bot;
use common::{Client, MATE_GAME};
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The keys of a JSON object, sorted.
fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

async fn the_account_is_lichess_shaped_once_a_bot() {
    let mut s = common::start().await;
    let a = Bot::new(&s, "acc", false).await;
    // Before the upgrade: qiju's own shape, no BOT title (lichess-bot then
    // asks for the upgrade).
    let before: Value = a.get("/api/account").await.json().await.unwrap();
    assert_eq!(before["name"], a.name.as_str());
    assert_eq!(
        before["username"],
        a.name.as_str(),
        "lichess-bot reads it before upgrading"
    );
    assert_ne!(before["title"], "BOT");
    let (status, ok) = a.post_form("/api/bot/account/upgrade", "").await;
    assert_eq!((status, ok), (200, json!({"ok": true})));
    let after: Value = a.get("/api/account").await.json().await.unwrap();
    assert_eq!(after["username"], a.name.as_str());
    assert_eq!(after["id"], a.name.to_lowercase());
    assert_eq!(after["title"], "BOT");
    assert!(after["createdAt"].as_i64().unwrap() > 0);
    // lichess-bot's token test: whose token, with the bot scope.
    let r = a
        .http
        .post(format!("{}/api/token/test", a.base))
        .bearer_auth(&a.token)
        .body(format!("{},not-a-token", a.token))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let t: Value = r.json().await.unwrap();
    assert_eq!(t[&a.token]["userId"], a.name.to_lowercase());
    assert!(t[&a.token]["scopes"]
        .as_str()
        .unwrap()
        .split(',')
        .any(|s| s == "bot:play"));
    assert_eq!(t["not-a-token"], Value::Null);
    // A bot plays through the Bot API: no seeks in the lobby.
    let seek = a
        .http
        .post(format!("{}/api/seeks", a.base))
        .bearer_auth(&a.token)
        .json(&json!({"time": "5+0"}))
        .send()
        .await
        .unwrap();
    assert_eq!(seek.status(), 403);
    // Upgrading again changes nothing.
    assert_eq!(a.post_form("/api/bot/account/upgrade", "").await.0, 200);
    // The OpenAPI document lists lichess's paths.
    let doc: Value = a.get("/api/openapi.json").await.json().await.unwrap();
    for path in [
        "/api/bot/account/upgrade",
        "/api/bot/game/stream/{gameId}",
        "/api/bot/game/{gameId}/move/{move}",
        "/api/bot/game/{gameId}/chat",
        "/api/bot/game/{gameId}/abort",
        "/api/bot/game/{gameId}/resign",
        "/api/bot/online",
        "/api/challenge/{username}",
        "/api/challenge/{challengeId}/accept",
        "/api/challenge/{challengeId}/decline",
        "/api/challenge/{challengeId}/cancel",
        "/api/token/test",
    ] {
        assert!(doc["paths"].get(path).is_some(), "OpenAPI has no {path}");
    }
    // A guest cannot be a bot: lichess's error shape.
    let g = Client::guest(&s).await;
    let r = g.post("/api/bot/account/upgrade", &json!({})).await;
    assert_eq!(r.status(), 400);
    let e: Value = r.json().await.unwrap();
    assert_eq!(keys(&e), ["error"]);
    assert!(e["error"].as_str().unwrap().contains("guest"), "{e}");
    // The bots online are listed, one a line: `a` once its event stream
    // is open.
    let _events = a.lines("/api/stream/event").await;
    let mut online = a.lines("/api/bot/online?nb=200").await;
    let mut found = false;
    while let Some(u) = online.next().await {
        assert_eq!(u["title"], "BOT");
        found |= u["username"] == a.name.as_str();
    }
    assert!(found);
    s.stop().await;
}

async fn a_xiangqi_game_through_the_bot_api() {
    let mut s = common::start().await;
    let red = Bot::new(&s, "red", true).await;
    let black = Bot::new(&s, "blk", true).await;
    let mut black_events = black.lines("/api/stream/event").await;
    let mut red_events = red.lines("/api/stream/event").await;
    // Bad input: lichess's errors, never a panic.
    for (form, word) in [
        ("clock.limit=-5", "clock.limit"),
        ("clock.limit=60&color=purple", "color"),
        ("clock.limit=abc", "clock.limit"),
        ("variant=tictactoe", "tictactoe"),
        ("rated=maybe", "rated"),
    ] {
        let (status, e) = red
            .post_form(&format!("/api/challenge/{}", black.name), form)
            .await;
        assert_eq!(status, 400, "{form}: {e}");
        assert!(e["error"].as_str().unwrap().contains(word), "{form}: {e}");
    }
    let (status, e) = red
        .post_form("/api/challenge/nobody-here-at-all", "clock.limit=60")
        .await;
    assert_eq!((status, keys(&e)), (404, vec!["error"]));
    let (status, ch) = red
        .post_form(
            &format!("/api/challenge/{}", black.name),
            "rated=false&clock.limit=300&clock.increment=2&color=white&variant=xiangqi",
        )
        .await;
    assert_eq!(status, 200, "{ch}");
    // ChallengeJson's required fields.
    for k in [
        "id",
        "url",
        "status",
        "challenger",
        "destUser",
        "variant",
        "rated",
        "speed",
        "timeControl",
        "color",
        "perf",
    ] {
        assert!(ch.get(k).is_some(), "ChallengeJson without {k}: {ch}");
    }
    assert_eq!(ch["status"], "created");
    assert_eq!(ch["direction"], "out");
    assert_eq!(ch["challenger"]["name"], red.name.as_str());
    assert_eq!(ch["challenger"]["title"], "BOT");
    assert_eq!(ch["destUser"]["name"], black.name.as_str());
    assert_eq!(
        ch["variant"],
        json!({"key": "xiangqi", "name": "Xiangqi", "short": "Xiangqi"})
    );
    assert_eq!(
        ch["timeControl"],
        json!({"type": "clock", "limit": 300, "increment": 2, "show": "5:00+2"})
    );
    assert_eq!(
        (
            ch["speed"].as_str(),
            ch["color"].as_str(),
            ch["finalColor"].as_str()
        ),
        (Some("blitz"), Some("white"), Some("white"))
    );
    let id = ch["id"].as_str().unwrap();
    let ev = black_events.expect("challenge").await;
    assert_eq!(keys(&ev), ["challenge", "type"]);
    assert_eq!(ev["challenge"]["id"], id);
    assert_eq!(ev["challenge"]["direction"], "in");
    assert_eq!(ev["challenge"]["challenger"]["title"], "BOT");
    let (status, ok) = black.post_form(&format!("/api/challenge/{id}/accept"), "").await;
    assert_eq!((status, ok), (200, json!({"ok": true})));
    // GameStartEvent: GameEventInfo.
    let start = red_events.expect("gameStart").await;
    let g = &start["game"];
    let game = g["gameId"].as_str().unwrap().to_string();
    assert_eq!(g["id"], game.as_str());
    assert_eq!(g["color"], "white");
    assert_eq!(g["isMyTurn"], true);
    assert_eq!(g["hasMoved"], false);
    assert_eq!(g["lastMove"], "");
    assert_eq!(g["source"], "friend");
    assert_eq!(g["status"], json!({"id": 20, "name": "started"}));
    assert_eq!(g["variant"]["key"], "xiangqi");
    assert_eq!(g["speed"], "blitz");
    assert_eq!(g["rated"], false);
    assert_eq!(g["secondsLeft"], 300);
    assert_eq!(g["opponent"]["username"], black.name.as_str());
    assert_eq!(g["compat"], json!({"bot": true, "board": true}));
    assert!(g["fen"].as_str().unwrap().starts_with("rnbakabnr/"));
    // lichess-bot's list of games in progress.
    let playing: Value = red.get("/api/account/playing").await.json().await.unwrap();
    let now = &playing["nowPlaying"][0];
    assert_eq!(
        (
            now["gameId"].as_str(),
            now["color"].as_str(),
            now["isMyTurn"].as_bool()
        ),
        (Some(game.as_str()), Some("white"), Some(true))
    );
    assert_eq!(now["opponent"]["username"], black.name.as_str());
    let bs = black_events.expect("gameStart").await;
    assert_eq!(
        (bs["game"]["color"].as_str(), bs["game"]["isMyTurn"].as_bool()),
        (Some("black"), Some(false))
    );

    // GameFullEvent.
    let mut red_game = red.lines(&format!("/api/bot/game/stream/{game}")).await;
    let full = red_game.next().await.unwrap();
    for k in [
        "type",
        "id",
        "variant",
        "speed",
        "perf",
        "rated",
        "createdAt",
        "white",
        "black",
        "initialFen",
        "state",
    ] {
        assert!(full.get(k).is_some(), "GameFullEvent without {k}: {full}");
    }
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["id"], game.as_str());
    assert_eq!(full["clock"], json!({"initial": 300_000, "increment": 2000}));
    assert_eq!(full["white"]["name"], red.name.as_str());
    assert_eq!(full["white"]["title"], "BOT");
    assert_eq!(full["black"]["name"], black.name.as_str());
    assert_eq!(
        full["initialFen"],
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    // Before the first move, lichess's `expiration` counts down to the
    // abort (its idle time varies).
    let mut state = full["state"].clone();
    let exp = state.as_object_mut().unwrap().remove("expiration").unwrap();
    assert_eq!(exp["millisToMove"], 60_000);
    assert_eq!(
        state,
        json!({"type": "gameState", "moves": "", "wtime": 300_000, "btime": 300_000, "winc": 2000, "binc": 2000, "status": "started"})
    );
    // The browser's game socket seats no bot: it watches.
    let mut req = format!("{}/api/games/{game}/ws", s.ws_base)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {}", red.token).parse().unwrap());
    let (stream, _) = tokio_tungstenite::connect_async(req).await.expect("ws connects");
    let mut ws = common::Ws { stream };
    let seen = ws.expect("full").await;
    assert_eq!(seen["you"], Value::Null, "a bot's socket is a spectator's");
    ws.send(&json!({"t": "move", "move": "h2e2"})).await;
    assert_eq!(ws.expect("error").await["code"], "bot_api_only");
    drop(ws);
    // Another's game is not found; an illegal move is a 400.
    let outsider = Bot::new(&s, "out", true).await;
    assert_eq!(
        outsider
            .get(&format!("/api/bot/game/stream/{game}"))
            .await
            .status(),
        404
    );
    let (status, e) = red
        .post_form(&format!("/api/bot/game/{game}/move/a0a5"), "")
        .await;
    assert_eq!((status, keys(&e)), (400, vec!["error"]));
    let (status, _) = black
        .post_form(&format!("/api/bot/game/{game}/move/h7h4"), "")
        .await;
    assert_eq!(status, 400, "not black's turn");
    // Chat, as lichess's form and as berserk's JSON.
    let (status, _) = red
        .post_form(
            &format!("/api/bot/game/{game}/chat"),
            "room=player&text=good+luck%21",
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        red_game.expect("chatLine").await,
        json!({"type": "chatLine", "room": "player", "username": red.name, "text": "good luck!"})
    );
    let (status, e) = red
        .post_json(
            &format!("/api/bot/game/{game}/chat"),
            &json!({"room": "lobby", "text": "x"}),
        )
        .await;
    assert_eq!(status, 400, "{e}");
    // The mate, move by move; a gameState after each.
    let moves: Vec<&str> = MATE_GAME.split(' ').collect();
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { &red } else { &black };
        let (status, ok) = who
            .post_form(&format!("/api/bot/game/{game}/move/{mv}"), "")
            .await;
        assert_eq!((status, &ok), (200, &json!({"ok": true})), "move {mv}");
        let st = red_game.expect("gameState").await;
        assert_eq!(st["moves"], moves[..=i].join(" "));
    }
    // The stream's last line: the mate, then the stream ends.
    let mut last = red_game.expect("gameState").await;
    if last["status"] == "started" {
        last = red_game.expect("gameState").await;
    }
    assert_eq!(last["status"], "mate", "{last}");
    assert_eq!(last["winner"], "white");
    assert!(last["wtime"].as_i64().unwrap() > 0 && last["btime"].as_i64().unwrap() > 0);
    // GameFinishEvent, on both event streams.
    let fin = red_events.expect("gameFinish").await;
    assert_eq!(fin["game"]["gameId"], game.as_str());
    assert_eq!(fin["game"]["status"], json!({"id": 30, "name": "mate"}));
    assert_eq!(fin["game"]["winner"], "white");
    assert_eq!(black_events.expect("gameFinish").await["game"]["color"], "black");
    // lichess's export path, which lichess-bot saves the record from.
    let pgn = red.get(&format!("/game/export/{game}")).await;
    assert_eq!(pgn.status(), 200);
    let pgn = pgn.text().await.unwrap();
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    s.stop().await;
}

async fn declined_and_canceled_challenges_and_resigning() {
    let mut s = common::start().await;
    let a = Bot::new(&s, "dca", true).await;
    let b = Bot::new(&s, "dcb", true).await;
    let mut a_events = a.lines("/api/stream/event").await;
    let mut b_events = b.lines("/api/stream/event").await;
    // b declines a's challenge: a hears challengeDeclined.
    let (_, ch) = a
        .post_json(
            &format!("/api/challenge/{}", b.name),
            &json!({"clock": {"limit": 60, "increment": 0}}),
        )
        .await;
    let id = ch["id"].as_str().unwrap();
    b_events.expect("challenge").await;
    assert_eq!(
        b.post_form(&format!("/api/challenge/{id}/decline"), "reason=later")
            .await
            .0,
        200
    );
    let d = a_events.expect("challengeDeclined").await;
    assert_eq!(d["challenge"]["id"], id);
    // a cancels the next one: b hears challengeCanceled.
    let (_, ch) = a
        .post_form(
            &format!("/api/challenge/{}", b.name),
            "days=2&variant=chess&color=black",
        )
        .await;
    assert_eq!(
        ch["timeControl"],
        json!({"type": "correspondence", "daysPerTurn": 2})
    );
    assert_eq!(ch["speed"], "correspondence");
    assert_eq!(ch["variant"]["key"], "chess");
    let id = ch["id"].as_str().unwrap();
    b_events.expect("challenge").await;
    assert_eq!(
        a.post_form(&format!("/api/challenge/{id}/cancel"), "").await.0,
        200
    );
    let c = b_events.expect("challengeCanceled").await;
    assert_eq!(c["challenge"]["id"], id);
    assert_eq!(c["challenge"]["status"], "canceled");
    assert_eq!(c["challenge"]["challenger"]["name"], a.name.as_str());
    // A chess game: a has black; b (white) resigns after one move each.
    let (_, ch) = a
        .post_form(
            &format!("/api/challenge/{}", b.name),
            "clock.limit=90&variant=chess&color=black",
        )
        .await;
    let id = ch["id"].as_str().unwrap();
    b.post_form(&format!("/api/challenge/{id}/accept"), "").await;
    let game = a_events.expect("gameStart").await["game"]["gameId"]
        .as_str()
        .unwrap()
        .to_string();
    let mut stream = a.lines(&format!("/api/bot/game/stream/{game}")).await;
    let full = stream.next().await.unwrap();
    assert_eq!(full["variant"]["key"], "chess");
    assert_eq!(full["white"]["name"], b.name.as_str());
    assert_eq!(full["clock"], json!({"initial": 90_000, "increment": 0}));
    assert_eq!(full["speed"], "bullet");
    assert_eq!(
        b.post_form(&format!("/api/bot/game/{game}/move/e2e4"), "")
            .await
            .0,
        200
    );
    assert_eq!(
        a.post_form(&format!("/api/bot/game/{game}/move/e7e5?offeringDraw=true"), "")
            .await
            .0,
        200
    );
    let st = stream.expect("gameState").await;
    assert_eq!(st["moves"], "e2e4");
    let mut st = stream.expect("gameState").await;
    while st.get("bdraw").is_none() && st["status"] == "started" {
        st = stream.expect("gameState").await;
    }
    assert_eq!(st["moves"], "e2e4 e7e5");
    assert_eq!(st["bdraw"], true, "black's draw offer: {st}");
    assert!(st.get("wdraw").is_none(), "omitted when not offering: {st}");
    assert_eq!(
        b.post_form(&format!("/api/bot/game/{game}/resign"), "").await.0,
        200
    );
    let mut st = stream.expect("gameState").await;
    while st["status"] == "started" {
        st = stream.expect("gameState").await;
    }
    assert_eq!(
        (st["status"].as_str(), st["winner"].as_str()),
        (Some("resign"), Some("black"))
    );
    assert!(stream.next().await.is_none(), "the stream ends with the game");
    // A finished game: abort and moves are refused in lichess's words.
    let (status, e) = a.post_form(&format!("/api/bot/game/{game}/abort"), "").await;
    assert_eq!((status, keys(&e)), (400, vec!["error"]));
    // An abort before both sides moved: `aborted`, no winner.
    let (_, ch) = a
        .post_form(
            &format!("/api/challenge/{}", b.name),
            "clock.limit=60&color=white",
        )
        .await;
    let id = ch["id"].as_str().unwrap();
    b.post_form(&format!("/api/challenge/{id}/accept"), "").await;
    let aborted = a_events.expect("gameStart").await["game"]["gameId"]
        .as_str()
        .unwrap()
        .to_string();
    let mut stream = a.lines(&format!("/api/bot/game/stream/{aborted}")).await;
    stream.expect("gameFull").await;
    let (status, ok) = a.post_form(&format!("/api/bot/game/{aborted}/abort"), "").await;
    assert_eq!((status, ok), (200, json!({"ok": true})));
    let st = stream.expect("gameState").await;
    assert_eq!(st["status"], "aborted");
    assert!(st.get("winner").is_none(), "{st}");
    let fin = a_events.expect("gameFinish").await;
    assert_eq!(fin["game"]["status"], json!({"id": 25, "name": "aborted"}));
    // A non-bot may not play through /api/bot.
    let human = Bot::new(&s, "hum", false).await;
    let (status, e) = human
        .post_form(&format!("/api/bot/game/{game}/move/e2e4"), "")
        .await;
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("upgrade"), "{e}");
    s.stop().await;
}

/// berserk (PyPI), lichess's Python client, plays through a running qiju:
/// `tests/berserk_bot.py`. Skipped, loudly, without python3 or berserk;
/// under `QIJU_REQUIRE_ORACLES=1` (as `.ci/run` sets) their absence fails.
async fn berserk_plays_through_qiju() {
    use std::process::Command;
    let required = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
    let probe = Command::new("python3").args(["-c", "import berserk"]).output();
    if !probe.is_ok_and(|o| o.status.success()) {
        assert!(
            !required,
            "berserk is missing (python3 -m pip install berserk), and QIJU_REQUIRE_ORACLES=1 requires it"
        );
        eprintln!("SKIPPED berserk test: python3 or berserk is missing (install with: python3 -m pip install berserk)");
        return;
    }
    let mut s = common::start().await;
    let white = Bot::new(&s, "bw", false).await;
    let black = Bot::new(&s, "bb", false).await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/berserk_bot.py");
    let mut cmd = Command::new("python3");
    cmd.arg(script)
        .env("QIJU_URL", &s.base)
        .env("WHITE_TOKEN", &white.token)
        .env("BLACK_TOKEN", &black.token)
        .env("MATE_GAME", MATE_GAME);
    let out = tokio::time::timeout(
        Duration::from_secs(120),
        tokio::task::spawn_blocking(move || cmd.output()),
    )
    .await
    .expect("berserk_bot.py within 120 s")
    .unwrap()
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "berserk_bot.py failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for done in ["xiangqi mate", "chess mate", "resigned"] {
        assert!(
            stdout.contains(done),
            "berserk_bot.py did not report {done:?}:\n{stdout}"
        );
    }
    s.stop().await;
}

/// Every answer qiju gives in lichess's form, read field by field against
/// lichess's OpenAPI description (`lichess/schema.rs`): a bot and a person
/// on the Board API play, offer and refuse draws and takebacks, chat, leave
/// and claim, challenge, decline, cancel, abort and resign; the account,
/// user, status, online-bots and token answers too.
async fn every_answer_is_as_lichess_describes_it() {
    let mut s = common::start_with(|c| c.claim_after_ms = Some(1000)).await;
    let mut seen = schema::Answers::default();
    let bot = Bot::new(&s, "sb", false).await;
    let (status, ok) = bot.post_form("/api/bot/account/upgrade", "").await;
    assert_eq!(status, 200);
    seen.add("POST /api/bot/account/upgrade 200", &ok);
    let idle = Bot::new(&s, "si", true).await;
    let human = Bot::new(&s, "sh", false).await;
    // Answers as they come, each kept under lichess's key.
    macro_rules! post {
        ($who:expr, $key:literal, $path:expr, $form:expr, $status:expr) => {{
            let path: String = $path;
            let (status, body) = $who.post_form(&path, $form).await;
            assert_eq!(status, $status, "{} {}: {body}", $key, $path);
            seen.add(concat!("POST ", $key, " ", stringify!($status)), &body);
            body
        }};
    }
    macro_rules! line {
        ($stream:expr, $key:literal, $kind:literal) => {{
            let v = $stream.expect($kind).await;
            seen.add(concat!("GET ", $key, " 200"), &v);
            v
        }};
    }
    let r = bot
        .http
        .post(format!("{}/api/token/test", bot.base))
        .bearer_auth(&bot.token)
        .body(format!("{},nope", bot.token))
        .send()
        .await
        .unwrap();
    seen.add("POST /api/token/test 200", &r.json().await.unwrap());

    let mut bot_events = bot.lines("/api/stream/event").await;
    // A person's client that asks for NDJSON reads lichess's events too.
    let mut human_events = human.lines("/api/stream/event").await;
    let account: Value = bot.get("/api/account").await.json().await.unwrap();
    assert_eq!(account["title"], "BOT");
    seen.add("GET /api/account 200", &account);
    // Online: the bot with a stream open, not the idle one.
    let online = bot.get("/api/bot/online").await.text().await.unwrap();
    let online: Vec<Value> = online.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(
        online.iter().any(|u| u["username"] == bot.name.as_str()),
        "{online:?}"
    );
    assert!(
        !online.iter().any(|u| u["username"] == idle.name.as_str()),
        "{online:?}"
    );
    for u in &online {
        seen.add("GET /api/bot/online 200", u);
    }

    // Game 1: the person (red, white) against the bot.
    let start = |seen: &mut schema::Answers, ch: Value| {
        seen.add("POST /api/challenge/{username} 200", &ch);
        ch["id"].as_str().unwrap().to_string()
    };
    let challenge = format!("/api/challenge/{}", bot.name);
    let (_, ch) = human
        .post_form(&challenge, "clock.limit=300&clock.increment=2&color=white")
        .await;
    let id = start(&mut seen, ch);
    line!(bot_events, "/api/stream/event", "challenge");
    post!(
        bot,
        "/api/challenge/{challengeId}/accept",
        format!("/api/challenge/{id}/accept"),
        "",
        200
    );
    let game = line!(bot_events, "/api/stream/event", "gameStart")["game"]["gameId"]
        .as_str()
        .unwrap()
        .to_string();
    line!(human_events, "/api/stream/event", "gameStart");
    let mut bot_game = bot.lines(&format!("/api/bot/game/stream/{game}")).await;
    let mut human_game = human.lines(&format!("/api/board/game/stream/{game}")).await;
    line!(bot_game, "/api/bot/game/stream/{gameId}", "gameFull");
    line!(human_game, "/api/board/game/stream/{gameId}", "gameFull");
    let g = format!("/api/bot/game/{game}");
    let b = format!("/api/board/game/{game}");
    post!(
        human,
        "/api/board/game/{gameId}/move/{move}",
        format!("{b}/move/h2e2"),
        "",
        200
    );
    line!(bot_game, "/api/bot/game/stream/{gameId}", "gameState");
    // A takeback asked and refused.
    post!(
        human,
        "/api/board/game/{gameId}/takeback/{accept}",
        format!("{b}/takeback/yes"),
        "",
        200
    );
    let asked = line!(bot_game, "/api/bot/game/stream/{gameId}", "gameState");
    assert_eq!(asked["wtakeback"], true, "{asked}");
    post!(
        bot,
        "/api/bot/game/{gameId}/takeback/{accept}",
        format!("{g}/takeback/no"),
        "",
        200
    );
    post!(
        bot,
        "/api/bot/game/{gameId}/move/{move}",
        format!("{g}/move/h9g7"),
        "",
        200
    );
    // Both sides have moved: no more expiration.
    let both: Value = human
        .get(&format!("/api/games/{game}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(both["first_move"], Value::Null, "{both}");
    post!(
        bot,
        "/api/bot/game/{gameId}/move/{move}",
        format!("{g}/move/h7h0"),
        "",
        400
    );
    // A draw offered right after one's own move (CXA 23.1), and declined.
    post!(
        bot,
        "/api/bot/game/{gameId}/draw/{accept}",
        format!("{g}/draw/yes"),
        "",
        200
    );
    loop {
        let st = line!(human_game, "/api/board/game/stream/{gameId}", "gameState");
        if st["bdraw"] == true {
            break;
        }
    }
    post!(
        human,
        "/api/board/game/{gameId}/draw/{accept}",
        format!("{b}/draw/no"),
        "",
        200
    );
    post!(
        human,
        "/api/board/game/{gameId}/move/{move}",
        format!("{b}/move/h0g2"),
        "",
        200
    );
    post!(
        bot,
        "/api/bot/game/{gameId}/chat",
        format!("{g}/chat"),
        "room=player&text=hello",
        200
    );
    post!(
        human,
        "/api/board/game/{gameId}/chat",
        format!("{b}/chat"),
        "room=player&text=hi",
        200
    );
    line!(bot_game, "/api/bot/game/stream/{gameId}", "chatLine");
    line!(human_game, "/api/board/game/stream/{gameId}", "chatLine");
    // The person's client goes: the bot hears it and claims the win.
    drop(human_game);
    let gone = line!(bot_game, "/api/bot/game/stream/{gameId}", "opponentGone");
    assert_eq!(gone["gone"], true, "{gone}");
    tokio::time::sleep(Duration::from_millis(1300)).await;
    post!(
        bot,
        "/api/bot/game/{gameId}/claim-victory",
        format!("{g}/claim-victory"),
        "",
        200
    );
    let mut end = line!(bot_game, "/api/bot/game/stream/{gameId}", "gameState");
    while end["status"] == "started" {
        end = line!(bot_game, "/api/bot/game/stream/{gameId}", "gameState");
    }
    assert_eq!(
        (end["status"].as_str(), end["winner"].as_str()),
        (Some("timeout"), Some("black"))
    );
    line!(bot_events, "/api/stream/event", "gameFinish");
    line!(human_events, "/api/stream/event", "gameFinish");

    // Challenges declined and canceled, both ways.
    let (_, ch) = bot
        .post_form(&format!("/api/challenge/{}", human.name), "clock.limit=60")
        .await;
    let id = start(&mut seen, ch);
    line!(human_events, "/api/stream/event", "challenge");
    post!(
        human,
        "/api/challenge/{challengeId}/decline",
        format!("/api/challenge/{id}/decline"),
        "reason=later",
        200
    );
    line!(bot_events, "/api/stream/event", "challengeDeclined");
    let (_, ch) = bot
        .post_form(&format!("/api/challenge/{}", human.name), "days=3&variant=chess")
        .await;
    let id = start(&mut seen, ch);
    line!(human_events, "/api/stream/event", "challenge");
    post!(
        bot,
        "/api/challenge/{challengeId}/cancel",
        format!("/api/challenge/{id}/cancel"),
        "",
        200
    );
    line!(human_events, "/api/stream/event", "challengeCanceled");
    post!(
        bot,
        "/api/challenge/{challengeId}/accept",
        "/api/challenge/nosuchid/accept".to_string(),
        "",
        404
    );

    // Aborted by each API, resigned by each API.
    let mut games = Vec::new();
    for _ in 0..4 {
        let (_, ch) = human
            .post_form(&challenge, "clock.limit=120&color=white&variant=chess")
            .await;
        let id = start(&mut seen, ch);
        post!(
            bot,
            "/api/challenge/{challengeId}/accept",
            format!("/api/challenge/{id}/accept"),
            "",
            200
        );
        games.push(
            line!(bot_events, "/api/stream/event", "gameStart")["game"]["gameId"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    post!(
        human,
        "/api/board/game/{gameId}/abort",
        format!("/api/board/game/{}/abort", games[0]),
        "",
        200
    );
    post!(
        bot,
        "/api/bot/game/{gameId}/abort",
        format!("/api/bot/game/{}/abort", games[1]),
        "",
        200
    );
    for (i, g) in games[2..].iter().enumerate() {
        post!(
            human,
            "/api/board/game/{gameId}/move/{move}",
            format!("/api/board/game/{g}/move/e2e4"),
            "",
            200
        );
        post!(
            bot,
            "/api/bot/game/{gameId}/move/{move}",
            format!("/api/bot/game/{g}/move/e7e5"),
            "",
            200
        );
        if i == 0 {
            post!(
                human,
                "/api/board/game/{gameId}/resign",
                format!("/api/board/game/{g}/resign"),
                "",
                200
            );
        } else {
            post!(
                bot,
                "/api/bot/game/{gameId}/resign",
                format!("/api/bot/game/{g}/resign"),
                "",
                200
            );
        }
    }
    for _ in 0..4 {
        line!(bot_events, "/api/stream/event", "gameFinish");
    }
    // Each API is for its own kind of account.
    let (status, _) = bot
        .post_form(&format!("/api/board/game/{}/resign", games[2]), "")
        .await;
    assert_eq!(status, 400, "a bot may not use the Board API");

    // The person's public account and everyone's status.
    let user: Value = bot
        .get(&format!("/api/user/{}", human.name))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(user["username"], human.name.as_str());
    assert_eq!(user["count"]["win"], 1, "{user}");
    assert_eq!(
        user["count"]["me"], 3,
        "three finished games against the bot: {user}"
    );
    seen.add("GET /api/user/{username} 200", &user);
    let r = bot
        .get(&format!(
            "/api/users/status?ids={},{},nobody-here",
            bot.name, idle.name
        ))
        .await;
    let status: Value = r.json().await.unwrap();
    assert_eq!(status.as_array().unwrap().len(), 2, "{status}");
    assert_eq!(status[0]["online"], true);
    assert_eq!(status[1]["online"], false);
    seen.add("GET /api/users/status 200", &status);

    let departures = [schema::Departure {
        at: "variant.key",
        breaks: "is not one of",
        allowed: |body| {
            // Wherever the variant object is in this body, its key is a
            // game of qiju's registry, named as pychess-variants names it.
            fn keys(v: &Value, out: &mut Vec<String>) {
                match v {
                    Value::Object(m) => {
                        if let Some(k) = m.get("variant").and_then(|v| v["key"].as_str()) {
                            out.push(k.to_string());
                        }
                        m.values().for_each(|v| keys(v, out));
                    }
                    Value::Array(a) => a.iter().for_each(|v| keys(v, out)),
                    _ => {}
                }
            }
            let mut found = Vec::new();
            keys(body, &mut found);
            found.iter().all(|k| registry::get(Some(k)).is_ok())
        },
        why: "variants are named as pychess-variants names them (xiangqi, chess, shogi …), not by lichess's chess-only list (issue 32, item 2)",
    }];
    let extras = seen.check_all(&departures);
    eprintln!("qiju's fields beyond lichess's description: {extras:?}");
    s.stop().await;
}

on_both_databases!(
    every_answer_is_as_lichess_describes_it,
    the_account_is_lichess_shaped_once_a_bot,
    a_xiangqi_game_through_the_bot_api,
    declined_and_canceled_challenges_and_resigning,
    berserk_plays_through_qiju,
);
