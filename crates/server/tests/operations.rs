//! What an operator reads of a node (issue 29, item 5): the readiness
//! probe a load balancer asks, and the numbers Prometheus scrapes at
//! `/metrics` — only with the operator's token, and counting what happened.

mod common;

use common::Client;
use serde_json::{json, Value};

/// The value of one sample line (`name{labels} value`) of a scrape.
fn sample(text: &str, line_start: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(line_start))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

async fn metrics_are_scraped_with_the_token_and_count_moves() {
    let mut s = common::start_with(|c| c.metrics_token = Some("scrape-me".into())).await;
    let http = reqwest::Client::new();
    let url = format!("{}/metrics", s.base);
    assert_eq!(http.get(&url).send().await.unwrap().status(), 401, "no token");
    assert_eq!(
        http.get(&url)
            .bearer_auth("scrape-mf")
            .send()
            .await
            .unwrap()
            .status(),
        401,
        "a wrong token"
    );
    let scrape = || async {
        let r = http.get(&url).bearer_auth("scrape-me").send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert!(r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text"));
        r.text().await.unwrap()
    };
    let before = scrape().await;
    assert_eq!(sample(&before, "qiju_live_games "), Some(0.0), "{before}");
    let node = format!("qiju_node{{node=\"{}\"}} 1", s.config.node_id);
    assert!(before.contains(&node), "{before}");
    assert!(before.ends_with("# EOF\n"), "OpenMetrics ends with # EOF");

    let a = Client::register(&s, "opa").await;
    let b = Client::register(&s, "opb").await;
    let (_, game, _) = a.challenge(&b, json!({"time": "5+0", "color": "first"})).await;
    let during = scrape().await;
    assert_eq!(sample(&during, "qiju_live_games "), Some(1.0), "{during}");
    // Two moves taken, one refused (not b's turn), then a resignation.
    for (who, mv) in [(&a, "h2e2"), (&b, "h9g7")] {
        let r = who
            .post(&format!("/api/games/{game}/move/{mv}"), &json!({}))
            .await;
        assert_eq!(r.status(), 200);
    }
    let r = b.post(&format!("/api/games/{game}/move/h7h0"), &json!({})).await;
    assert_ne!(r.status(), 200);
    let r = a.post(&format!("/api/games/{game}/resign"), &json!({})).await;
    assert_eq!(r.status(), 200);
    let after = scrape().await;
    let accepted = "qiju_game_actions_total{action=\"move\",outcome=\"accepted\"}";
    let refused = "qiju_game_actions_total{action=\"move\",outcome=\"refused\"}";
    let other = "qiju_game_actions_total{action=\"other\",outcome=\"accepted\"}";
    assert_eq!(sample(&after, accepted), Some(2.0), "{after}");
    assert_eq!(sample(&after, refused), Some(1.0), "{after}");
    assert_eq!(sample(&after, other), Some(1.0), "{after}");
    assert_eq!(sample(&after, "qiju_move_seconds_count "), Some(2.0), "{after}");
    let sum = sample(&after, "qiju_move_seconds_sum ").unwrap();
    assert!(sum > 0.0 && sum < 10.0, "two moves' seconds: {sum}");
    s.stop().await;

    // Without a token configured there is no /metrics at all.
    let mut s = common::start().await;
    let r = reqwest::get(format!("{}/metrics", s.base)).await.unwrap();
    assert_eq!(r.status(), 404);
    s.stop().await;
}

async fn the_readiness_probe_names_the_node_and_its_database() {
    let mut s = common::start_with(|c| c.node_id = "node-7".into()).await;
    let r = reqwest::get(format!("{}/api/health/ready", s.base))
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    assert_eq!(
        v,
        json!({"node": "node-7", "live_games": 0, "database": "ok", "stopping": false})
    );
    s.stop().await;
}

on_both_databases!(
    metrics_are_scraped_with_the_token_and_count_moves,
    the_readiness_probe_names_the_node_and_its_database,
);
