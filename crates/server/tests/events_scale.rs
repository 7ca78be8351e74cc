//! Events at scale (issue 28's measured goals, docs/PERFORMANCE.md): a
//! 1,000-player Swiss round paired and its 500 games started, and an arena
//! of 500 bots. Benchmarks, not CI tests — `#[ignore]`d, run by hand:
//!
//! ```text
//! cargo test --release -p server --test events_scale -- --ignored --nocapture --test-threads 1
//! ```
//!
//! The accounts (and the bots' tokens) are made directly in the store and
//! the accounts' service, as an operator's import would; everything the
//! event does goes through the real path: entries over HTTP, the
//! arbiter's `POST /pair`, games through `play::live::create_game`, moves
//! and resignations through the Bot API, an arena's pairing on its own
//! clock. `QIJU_TEST_POSTGRES` set: on PostgreSQL, else SQLite.

mod common;

use common::lichess::Bot;
use common::{Client, Db, TestServer};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn db() -> Db {
    if std::env::var("QIJU_TEST_POSTGRES").is_ok_and(|v| !v.is_empty()) {
        Db::Postgres
    } else {
        Db::Sqlite
    }
}

/// `n` bot accounts made in the store, each with a bearer token.
async fn bots(s: &TestServer, prefix: &str, n: usize) -> Vec<Bot> {
    let state = &s.server.as_ref().unwrap().state;
    let store = state.play().store();
    let tag = common::unique("");
    // One connection pool for them all, as a load generator has.
    let http = reqwest::Client::new();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let name = format!("{prefix}{i}x{tag}");
        let user = store
            .create_user(&format!("id-{name}"), &name, None, false, common_now())
            .await
            .unwrap()
            .unwrap();
        store.set_bot(&user.id).await.unwrap();
        let token = state.accounts().make_token(&user).await.unwrap();
        out.push(Bot {
            name,
            token,
            base: s.base.clone(),
            http: http.clone(),
        });
    }
    out
}

fn common_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

async fn post_ok(c: &Client, path: &str, body: &Value) -> (Duration, Value) {
    let t = Instant::now();
    let r = c.post(path, body).await;
    let status = r.status();
    let v: Value = r.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{path}: {status} {v}");
    (t.elapsed(), v)
}

/// Every bot enters, 16 at a time; returns how long it took.
async fn join_all(id: &str, bots: &Arc<Vec<Bot>>) -> Duration {
    let t = Instant::now();
    let mut tasks = Vec::new();
    for chunk in 0..16 {
        let bots = bots.clone();
        let id = id.to_string();
        tasks.push(tokio::spawn(async move {
            for b in bots.iter().skip(chunk).step_by(16) {
                let (status, body) = b.post_form(&format!("/api/events/{id}/join"), "").await;
                assert_eq!(status, 200, "{} joins: {body}", b.name);
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    t.elapsed()
}

/// Plays a game to its end through the Bot API: two moves, then a
/// resignation or an agreed draw by `kind`.
async fn finish(white: &Bot, black: &Bot, game: &str, kind: usize) {
    let ok = |(status, body): (u16, Value), what: &str| assert_eq!(status, 200, "{what} in {game}: {body}");
    ok(
        white
            .post_form(&format!("/api/bot/game/{game}/move/h2e2"), "")
            .await,
        "h2e2",
    );
    let q = if kind == 2 { "?offeringDraw=true" } else { "" };
    ok(
        black
            .post_form(&format!("/api/bot/game/{game}/move/h7e7{q}"), "")
            .await,
        "h7e7",
    );
    match kind {
        0 => ok(
            black.post_form(&format!("/api/bot/game/{game}/resign"), "").await,
            "resign",
        ),
        1 => ok(
            white.post_form(&format!("/api/bot/game/{game}/resign"), "").await,
            "resign",
        ),
        _ => {
            let (status, body) = white
                .post_form(&format!("/api/games/{game}/draw/accept"), "")
                .await;
            assert!(status < 300, "draw in {game}: {body}");
        }
    }
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}

/// A 1,000-player Swiss: round 1 paired by the arbiter's button and its
/// 500 games started; every game played out through the Bot API; round 2
/// (score groups now) paired the same way. The Dutch pairing alone is
/// timed again in-process from the event's own TRF.
async fn a_thousand_player_swiss() {
    let n: usize = std::env::var("QIJU_SCALE_PLAYERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    // No game is called off while the benchmark plays them.
    let mut s = common::start_with(|c| {
        c.abort_after_ms = 600_000;
        // Every client is 127.0.0.1: no cap per address (as behind a proxy);
        // and a slow pairing's request is not cut as an idle connection.
        c.conn_limits.per_ip = 0;
        c.conn_limits.idle = Duration::from_secs(600);
    })
    .await;
    let org = Client::register(&s, "org").await;
    let t = Instant::now();
    let bots = Arc::new(bots(&s, "sw", n).await);
    let made = t.elapsed();
    let (_, ev) = post_ok(
        &org,
        "/api/events",
        &json!({"name": "Open 1000", "time_control": "10+5", "system": "swiss", "rounds": 9}),
    )
    .await;
    let id = ev["id"].as_str().unwrap().to_string();
    let joined = join_all(&id, &bots).await;
    let by_name: HashMap<String, usize> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.name.clone(), i))
        .collect();
    let mut lines = vec![format!(
        "{n} accounts and tokens made in the store: {}; {n} entries over HTTP: {}",
        ms(made),
        ms(joined)
    )];
    for round in 1..=2usize {
        // The Dutch pairing alone, on the event's TRF as it stands.
        let trf = org
            .get(&format!("/api/events/{id}/trf"))
            .await
            .text()
            .await
            .unwrap();
        let t = tournament::trf::parse(&trf).unwrap();
        let t0 = Instant::now();
        let p = tournament::dutch::pair_next_round(&t.before_round(round as u32)).unwrap();
        let dutch = t0.elapsed();
        println!(
            "round {round}: the Dutch pairing alone, in-process: {}",
            ms(dutch)
        );
        assert_eq!(p.boards.len(), n / 2);
        let (took, _) = post_ok(&org, &format!("/api/events/{id}/pair"), &json!({})).await;
        let t1 = Instant::now();
        let ev = org.get_json(&format!("/api/events/{id}")).await;
        let read = t1.elapsed();
        let boards = ev["rounds_paired"][round - 1]["boards"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(boards.len(), n / 2);
        let games: Vec<&str> = boards
            .iter()
            .map(|b| b["game"].as_str().expect("every game started"))
            .collect();
        // Every game is live and told to its player's feed.
        let first = org.get_json(&format!("/api/games/{}", games[0])).await;
        let last = org
            .get_json(&format!("/api/games/{}", games[games.len() - 1]))
            .await;
        assert_eq!(
            (first["state"].as_str(), last["state"].as_str()),
            (Some("live"), Some("live"))
        );
        // Play them all out, 32 at a time.
        let t2 = Instant::now();
        let boards = Arc::new(boards);
        let mut tasks = Vec::new();
        for lane in 0..32 {
            let (bots, boards, by_name) = (bots.clone(), boards.clone(), by_name.clone());
            tasks.push(tokio::spawn(async move {
                for (i, b) in boards.iter().enumerate().skip(lane).step_by(32) {
                    let w = &bots[by_name[b["white"]["name"].as_str().unwrap()]];
                    let k = &bots[by_name[b["black"]["name"].as_str().unwrap()]];
                    finish(w, k, b["game"].as_str().unwrap(), i % 3).await;
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let played = t2.elapsed();
        let t3 = Instant::now();
        common::eventually("the round is complete", || async {
            org.get_json(&format!("/api/events/{id}")).await["rounds_paired"][round - 1]["complete"] == true
        })
        .await;
        let scored = t3.elapsed();
        lines.push(format!(
            "round {round}: POST /pair (pairing, storing, starting {} games) {}; Dutch alone {}; \
             GET the event {}; {} games played out over the Bot API in {}; last result scored {} later",
            n / 2,
            ms(took),
            ms(dutch),
            ms(read),
            n / 2,
            ms(played),
            ms(scored)
        ));
    }
    let t = Instant::now();
    let st = org.get_json(&format!("/api/events/{id}/standings")).await;
    assert_eq!(st["rows"].as_array().unwrap().len(), n);
    lines.push(format!(
        "GET standings ({n} rows with tie-breaks): {}",
        ms(t.elapsed())
    ));
    // The page's polls: every viewer re-reads the event and its standings
    // every 5 s, so 1,000 viewers make 200 of each a second. Readers at
    // once share one read of the database and one working out of the
    // tie-breaks (`events::seen`); each reader alone would pay the single
    // reads above.
    let whole = org
        .get(&format!("/api/events/{id}"))
        .await
        .bytes()
        .await
        .unwrap()
        .len();
    let readers = 200;
    let t = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..readers {
        let (bots, id) = (bots.clone(), id.clone());
        tasks.push(tokio::spawn(async move {
            let b = &bots[i % bots.len()];
            // As the page reads it: the shown round's boards only.
            let ev = b
                .get(&format!("/api/events/{id}?round=latest"))
                .await
                .bytes()
                .await
                .unwrap();
            let st = b
                .get(&format!("/api/events/{id}/standings"))
                .await
                .bytes()
                .await
                .unwrap();
            ev.len() + st.len()
        }));
    }
    let mut bytes = 0;
    for t in tasks {
        bytes += t.await.unwrap();
    }
    lines.push(format!(
        "{readers} viewers each GET the event (its latest round's boards) and its standings at once: {} in all \
         ({} KiB a viewer; the event with every round's boards is {} KiB)",
        ms(t.elapsed()),
        bytes / readers / 1024,
        whole / 1024
    ));
    println!("\n== a {n}-player Swiss ({:?}) ==\n{}", db(), lines.join("\n"));
    s.stop().await;
}

/// An arena of 500 bots for `QIJU_SCALE_ARENA_SECONDS` (default 60): each
/// bot hears of its games on its own event stream (lichess's `gameStart`)
/// and the white player's listener plays the game out for both (two
/// moves, then a resignation or a draw). Measured: games, games a second,
/// the wait from a game's end to the player's next pairing, the start.
async fn an_arena_of_500_bots() {
    let n: usize = std::env::var("QIJU_SCALE_BOTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let secs: u64 = std::env::var("QIJU_SCALE_ARENA_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let mut s = common::start_with(|c| {
        c.abort_after_ms = 30_000;
        // 500 event streams from 127.0.0.1: no cap per address.
        c.conn_limits.per_ip = 0;
    })
    .await;
    let org = Client::register(&s, "org").await;
    let bots = Arc::new(bots(&s, "ar", n).await);
    let by_name: Arc<HashMap<String, usize>> = Arc::new(
        bots.iter()
            .enumerate()
            .map(|(i, b)| (b.name.clone(), i))
            .collect(),
    );
    let (_, ev) = post_ok(
        &org,
        "/api/events",
        &json!({"name": "Arena 500", "time_control": "3+2", "system": "arena", "duration_s": secs}),
    )
    .await;
    let id = ev["id"].as_str().unwrap().to_string();
    let joined = join_all(&id, &bots).await;
    // Each bot listens; white's listener plays the game.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let played = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut listeners = Vec::new();
    for i in 0..n {
        let (bots, by_name, stop, played) = (bots.clone(), by_name.clone(), stop.clone(), played.clone());
        let mut lines = bots[i].lines("/api/stream/event").await;
        listeners.push(tokio::spawn(async move {
            let mut k = i;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let Some(v) = lines.next().await else { break };
                if v["type"] != "gameStart" || v["game"]["color"] != "white" {
                    continue;
                }
                let game = v["game"]["gameId"].as_str().unwrap().to_string();
                let opp = by_name[v["game"]["opponent"]["username"].as_str().unwrap()];
                let (bots, played) = (bots.clone(), played.clone());
                k += 1;
                let kind = k % 3;
                tokio::spawn(async move {
                    finish(&bots[i], &bots[opp], &game, kind).await;
                    played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                });
            }
        }));
    }
    let (started, _) = post_ok(&org, &format!("/api/events/{id}/pair"), &json!({})).await;
    let t0 = Instant::now();
    common::eventually("the first pairing", || async {
        org.get_json(&format!("/api/events/{id}")).await["arena"]["games"]
            .as_array()
            .is_some_and(|g| g.len() >= n / 2)
    })
    .await;
    let first_wave = t0.elapsed();
    tokio::time::sleep(Duration::from_secs(secs)).await;
    let finished_in = Instant::now();
    for _ in 0..600 {
        if org.get_json(&format!("/api/events/{id}")).await["state"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let tail = finished_in.elapsed();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let t = Instant::now();
    let ev = org.get_json(&format!("/api/events/{id}")).await;
    let read = t.elapsed();
    assert_eq!(ev["state"], "finished", "the arena ends");
    let games = ev["arena"]["games"].as_array().unwrap();
    // The wait between a player's game ending and their next pairing.
    let mut per: HashMap<u64, Vec<(i64, Option<i64>)>> = HashMap::new();
    for g in games {
        for side in ["white", "black"] {
            per.entry(g[side]["number"].as_u64().unwrap())
                .or_default()
                .push((g["paired_ms"].as_i64().unwrap(), g["ended_ms"].as_i64()));
        }
    }
    let mut waits: Vec<i64> = Vec::new();
    for gs in per.values_mut() {
        gs.sort_unstable();
        for w in gs.windows(2) {
            if let Some(end) = w[0].1 {
                waits.push(w[1].0 - end);
            }
        }
    }
    waits.sort_unstable();
    let pct = |p: f64| {
        waits
            .get(((waits.len() as f64 - 1.0) * p) as usize)
            .copied()
            .unwrap_or(0)
    };
    let decided = games
        .iter()
        .filter(|g| g["result"] == "1-0" || g["result"] == "0-1")
        .count();
    let t = Instant::now();
    let st = org.get_json(&format!("/api/events/{id}/standings")).await;
    let standings = t.elapsed();
    assert_eq!(st["rows"].as_array().unwrap().len(), n);
    let points: i64 = st["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_str().unwrap().parse::<f64>().unwrap() as i64)
        .sum();
    assert!(points > 0);
    println!(
        "\n== an arena of {n} bots, {secs} s ({:?}) ==\n{n} entries over HTTP: {}; start (POST /pair): {}; \
         first {} games paired within {}\n{} games ({} decided, {} played out by the bots), {:.1} games/s; \
         the last game over {} after the end\nwait from a game's end to the next pairing: median {} ms, \
         p90 {} ms, p99 {} ms, max {} ms ({} waits)\nGET the event ({} games): {}; GET standings: {}",
        db(),
        ms(joined),
        ms(started),
        n / 2,
        ms(first_wave),
        games.len(),
        decided,
        played.load(std::sync::atomic::Ordering::Relaxed),
        games.len() as f64 / secs as f64,
        ms(tail),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        waits.last().copied().unwrap_or(0),
        waits.len(),
        games.len(),
        ms(read),
        ms(standings)
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark (docs/PERFORMANCE.md): run with --ignored --nocapture"]
async fn swiss_of_a_thousand() {
    common::on(db(), a_thousand_player_swiss()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark (docs/PERFORMANCE.md): run with --ignored --nocapture"]
async fn arena_of_500_bots() {
    common::on(db(), an_arena_of_500_bots()).await;
}
