//! Issue 30, second round, features 3 and 5: quick pairing within a rating
//! range (both seekers' ranges hold), friends (follow, unfollow, the list
//! with who is online and playing, the limits) and the notices that reach
//! a player on their event channel.

mod common;

use common::Client;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;

/// `b` loses a rated game to `a`: their ratings part (Glicko-2 moves a
/// newcomer by about 160 points a game).
async fn rated_loss(a: &Client, b: &Client) {
    let (game, a_side) = a.pair(b, "10+0", true).await;
    let (first, second) = if a_side == "first" { (a, b) } else { (b, a) };
    common::play_then_resign(&game, first, second, &["h2e2", "h9g7"], b).await;
}

async fn seek(c: &Client, range: Option<f64>) -> Value {
    let mut body = json!({"time": "10+0", "rated": true, "variant": "xiangqi/cxa"});
    if let Some(r) = range {
        body["rating_range"] = r.into();
    }
    let r = c.post("/api/seeks", &body).await;
    assert_eq!(r.status(), 200);
    r.json().await.unwrap()
}

async fn withdraw(c: &Client, seek: &Value) {
    let id = seek["seek"]
        .as_str()
        .unwrap_or_else(|| panic!("a waiting seek: {seek}"));
    let r = c
        .http
        .delete(format!("{}/api/seeks/{id}", c.base))
        .header("x-qiju-csrf", "1")
        .header("cookie", c.cookie.clone().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
}

async fn quick_pairing_honours_both_rating_ranges() {
    let mut s = common::start().await;
    let high = Client::register(&s, "qh").await;
    let low = Client::register(&s, "ql").await;
    rated_loss(&high, &low).await;
    // Every seek shows its player's rating in the pool; the ranges below
    // are set from the gap the game made.
    let rating_of = |c: &Client| {
        let name = c.name.clone();
        let anon = Client::anonymous(&s);
        async move {
            let seeks = anon.get_json("/api/seeks").await;
            let shown = seeks
                .as_array()
                .unwrap()
                .iter()
                .find(|v| v["player"] == json!(name))
                .cloned()
                .expect("the seek is listed");
            (shown["rating"].as_f64().unwrap(), shown)
        }
    };
    let waiting = seek(&low, Some(1.0)).await;
    let (low_rating, shown) = rating_of(&low).await;
    // The range travels as bounds around the seeker's rating.
    assert_eq!(shown["rating_min"].as_f64(), Some(low_rating - 1.0));
    assert_eq!(shown["rating_max"].as_f64(), Some(low_rating + 1.0));
    withdraw(&low, &waiting).await;
    let probe = seek(&high, Some(1.0)).await;
    let (high_rating, _) = rating_of(&high).await;
    withdraw(&high, &probe).await;
    let gap = high_rating - low_rating;
    assert!(
        gap >= 4.0,
        "the lost game parts their ratings: {high_rating} {low_rating}"
    );
    let (narrow, wide) = (gap / 2.0, gap * 2.0);

    // `high` is outside `low`'s narrow range (though `low` is inside
    // high's wide one): no game, high's seek waits beside low's.
    let first = seek(&low, Some(narrow)).await;
    let second = seek(&high, Some(wide)).await;
    assert!(
        second["game"].is_null(),
        "paired outside the waiting seek's range: {second}"
    );
    withdraw(&low, &first).await;
    withdraw(&high, &second).await;

    // The other way round: `low` waits with the wide range, `high` asks
    // for the narrow one.
    let first = seek(&low, Some(wide)).await;
    let second = seek(&high, Some(narrow)).await;
    assert!(
        second["game"].is_null(),
        "paired outside the new seek's range: {second}"
    );
    withdraw(&low, &first).await;
    withdraw(&high, &second).await;

    // Each within the other's range: a game.
    let first = seek(&low, Some(wide)).await;
    assert!(first["seek"].is_string());
    let second = seek(&high, Some(wide)).await;
    let game = second["game"].as_str().expect("paired within both ranges");
    let view = Client::anonymous(&s)
        .get_json(&format!("/api/games/{game}"))
        .await;
    let players = [&view["first"]["name"], &view["second"]["name"]];
    assert!(players.contains(&&json!(low.name)) && players.contains(&&json!(high.name)));
    let a = high;

    // Bad ranges are refused, with the reason.
    for body in [
        json!({"time": "10+0", "rating_range": -5}),
        json!({"time": "10+0", "rating_range": 0}),
        json!({"time": "10+0", "rating_range": 100_000}),
        json!({"time": "10+0", "rating_range": 300, "rating_min": 1000}),
    ] {
        let r = a.post("/api/seeks", &body).await;
        assert_eq!(r.status(), 400, "{body}");
        assert_eq!(r.json::<Value>().await.unwrap()["error"], "bad_rating_range");
    }
    // Each game lists its quick pairings in /api/info.
    let info = Client::anonymous(&s).get_json("/api/info").await;
    let xiangqi = info["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "xiangqi/cxa")
        .unwrap();
    assert!(xiangqi["quick_pairings"]
        .as_array()
        .unwrap()
        .contains(&json!("3+2")));
    s.stop().await;
}

async fn friends(c: &Client) -> Vec<Value> {
    c.get_json("/api/follows").await.as_array().unwrap().clone()
}

async fn follows_list_who_is_online_and_playing() {
    let mut s = common::start_with(|c| c.lobby_limits.follows_per_user = 3).await;
    let a = Client::register(&s, "fa").await;
    let b = Client::register(&s, "fb").await;
    let c = Client::register(&s, "fc").await;
    assert!(friends(&a).await.is_empty());
    assert_eq!(follow(&a, &b.name).await.status(), 204);
    // Again: no error, no second row.
    assert_eq!(follow(&a, &b.name.to_uppercase()).await.status(), 204);
    let list = friends(&a).await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0], json!({"name": b.name, "online": false, "playing": null}));

    // b opens the site (every page holds the lobby feed): online.
    let bws = b.lobby_ws().await;
    assert_eq!(friends(&a).await[0]["online"], true);
    // b plays c: the list says where, to watch.
    let (game, _) = b.pair(&c, "5+3", false).await;
    let playing = &friends(&a).await[0]["playing"];
    assert_eq!(
        *playing,
        json!({"id": game, "variant": "xiangqi/cxa", "time_control": "5+3", "opponent": c.name})
    );
    drop(bws);
    common::eventually("b is offline once the feed closes", || async {
        friends(&a).await[0]["online"] == false
    })
    .await;
    // Following is one-sided: b follows nobody.
    assert!(friends(&b).await.is_empty());

    // Bad input, each with its reason.
    let code = |r: reqwest::Response| async move {
        let status = r.status().as_u16();
        (status, r.json::<Value>().await.unwrap()["error"].clone())
    };
    assert_eq!(code(follow(&a, &a.name).await).await, (400, json!("self_follow")));
    assert_eq!(
        code(follow(&a, "no_such_player_zz").await).await,
        (404, json!("not_found"))
    );
    assert_eq!(
        code(follow(&a, &"x".repeat(65)).await).await,
        (400, json!("bad_name"))
    );
    let anon = Client::anonymous(&s);
    assert_eq!(follow(&anon, &b.name).await.status(), 401);
    assert_eq!(anon.get("/api/follows").await.status(), 401);
    let guest = Client::guest(&s).await;
    assert_eq!(
        code(follow(&guest, &b.name).await).await,
        (403, json!("forbidden"))
    );

    // The cap (3 here; 500 by default).
    let d = Client::register(&s, "fd").await;
    let e = Client::register(&s, "fe").await;
    assert_eq!(follow(&a, &c.name).await.status(), 204);
    assert_eq!(follow(&a, &d.name).await.status(), 204);
    assert_eq!(
        code(follow(&a, &e.name).await).await,
        (409, json!("too_many_follows"))
    );

    // Unfollow; a second time there is nothing to stop.
    let unfollow = |name: &str| {
        let path = format!("{}/api/follows/{}", a.base, urlencode(name));
        let req = a
            .http
            .delete(path)
            .header("x-qiju-csrf", "1")
            .header("cookie", a.cookie.clone().unwrap());
        async move { req.send().await.unwrap() }
    };
    assert_eq!(unfollow(&b.name).await.status(), 204);
    assert_eq!(code(unfollow(&b.name).await).await, (404, json!("not_found")));
    let names: Vec<Value> = friends(&a).await.iter().map(|f| f["name"].clone()).collect();
    assert_eq!(names.len(), 2);
    assert!(!names.contains(&json!(b.name)));

    // Documented in the OpenAPI document.
    let doc = Client::anonymous(&s).get_json("/api/openapi.json").await;
    for p in ["/api/follows", "/api/follows/{name}"] {
        assert!(doc["paths"].get(p).is_some(), "{p} documented");
    }
    assert!(doc["components"]["schemas"].get("FriendView").is_some());

    // 30 changes a minute, then a pause.
    let f = Client::register(&s, "ff").await;
    for _ in 0..30 {
        assert_ne!(follow(&f, "no_such_player_zz").await.status(), 429);
    }
    let r = follow(&f, &b.name).await;
    assert_eq!(code(r).await, (429, json!("rate_limited")));
    s.stop().await;
}

async fn follow(who: &Client, name: &str) -> reqwest::Response {
    who.post(&format!("/api/follows/{}", urlencode(name)), &json!({}))
        .await
}

fn urlencode(name: &str) -> String {
    name.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The next event of `t` on a player's NDJSON event stream.
async fn next_event<S, B>(events: &mut S, buf: &mut String, t: &str) -> Value
where
    S: futures_util::Stream<Item = reqwest::Result<B>> + Unpin,
    B: AsRef<[u8]>,
{
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            while let Some(end) = buf.find('\n') {
                let line: String = buf.drain(..=end).collect();
                if line.trim().is_empty() {
                    continue;
                }
                let v: Value = serde_json::from_str(&line).unwrap();
                if v["t"] == t {
                    return v;
                }
            }
            let chunk = events.next().await.expect("the stream goes on").unwrap();
            buf.push_str(std::str::from_utf8(chunk.as_ref()).unwrap());
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no {t} event within 10 s"))
}

async fn notices_reach_the_players_event_channel() {
    let mut s = common::start().await;
    let a = Client::register(&s, "na").await;
    let b = Client::register(&s, "nb").await;
    let c = Client::register(&s, "nc").await;
    let mut bws = b.lobby_ws().await;
    let stream = b.get("/api/stream/event").await;
    assert_eq!(stream.status(), 200);
    let mut events = stream.bytes_stream();
    let mut buf = String::new();

    // A challenge reaches b on both channels.
    let ch: Value = a
        .post("/api/challenges", &json!({"to": b.name, "time": "5+0"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(bws.expect("challenge").await["challenge"]["id"], ch["id"]);
    let ev = next_event(&mut events, &mut buf, "challenge").await;
    assert_eq!(ev["challenge"]["from"], json!(a.name));
    assert!(ev["challenge"]["rematch_of"].is_null());
    let id = ch["id"].as_str().unwrap();
    let started: Value = b
        .post(&format!("/api/challenges/{id}/accept"), &json!({}))
        .await
        .json()
        .await
        .unwrap();
    let game = started["game"].as_str().unwrap();
    let (first, second) = if started["color"] == "first" {
        (&b, &a)
    } else {
        (&a, &b)
    };
    common::play_then_resign(game, first, second, &["h2e2", "h9g7"], &a).await;

    // A rematch offer says which game it repeats.
    let r = a
        .post(
            "/api/challenges",
            &json!({"to": b.name, "time": "5+0", "rematch_of": game}),
        )
        .await;
    assert_eq!(r.status(), 201);
    let ev = next_event(&mut events, &mut buf, "challenge").await;
    assert_eq!(ev["challenge"]["rematch_of"], json!(game));
    assert_eq!(
        bws.expect("challenge").await["challenge"]["rematch_of"],
        json!(game)
    );
    // Only of a finished game between the two.
    for bad in [json!(game), json!("nosuchgame"), json!("x".repeat(100))] {
        let r = c
            .post(
                "/api/challenges",
                &json!({"to": b.name, "time": "5+0", "rematch_of": bad}),
            )
            .await;
        assert_eq!(r.status(), 400, "{bad}");
        assert_eq!(r.json::<Value>().await.unwrap()["error"], "bad_rematch");
    }

    // A notice (a correspondence move) reaches b alone.
    let mut cws = c.lobby_ws().await;
    let lobby = s.server.as_ref().unwrap().state.lobby().clone();
    let ub = s.user(&b.name).await;
    lobby.notice(&ub.id, lobby::NoticeKind::Move, &a.name, Some(game));
    let want = json!({"t": "notice", "kind": "move", "from": a.name, "game": game});
    assert_eq!(bws.expect("notice").await, want);
    assert_eq!(next_event(&mut events, &mut buf, "notice").await, want);
    cws.send(&json!({"t": "ping"})).await;
    loop {
        let m = cws.next().await.expect("pong");
        assert_ne!(m["t"], "notice", "c heard what was meant for b: {m}");
        if m["t"] == "pong" {
            break;
        }
    }
    s.stop().await;
}

crate::on_both_databases!(
    quick_pairing_honours_both_rating_ranges,
    follows_list_who_is_online_and_playing,
    notices_reach_the_players_event_channel,
);
