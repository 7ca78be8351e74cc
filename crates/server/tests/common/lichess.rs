//! A client of lichess's API over qiju (docs/BOTS.md), as lichess's own
//! clients talk: a bearer token, forms or JSON, NDJSON streams asked for
//! with `Accept: application/x-ndjson`. Shared by the Bot API's tests and
//! the events' (whose games bots play).

use super::{Client, TestServer};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;

/// A bearer-token client of one account.
pub struct Bot {
    pub name: String,
    pub token: String,
    pub base: String,
    pub http: reqwest::Client,
}

impl Bot {
    /// A fresh account with a bot token, upgraded to a bot when `upgrade`.
    pub async fn new(s: &TestServer, prefix: &str, upgrade: bool) -> Bot {
        let c = Client::register(s, prefix).await;
        let token: Value = c
            .post("/api/account/token", &json!({}))
            .await
            .json()
            .await
            .unwrap();
        let bot = Bot {
            name: c.name.clone(),
            token: token["token"].as_str().unwrap().to_string(),
            base: s.base.clone(),
            http: reqwest::Client::new(),
        };
        if upgrade {
            let (status, body) = bot.post_form("/api/bot/account/upgrade", "").await;
            assert_eq!((status, body), (200, json!({"ok": true})));
        }
        bot
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap()
    }

    pub async fn post_form(&self, path: &str, form: &str) -> (u16, Value) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form.to_string())
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .json(body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// An NDJSON stream, asked for as lichess's clients ask
    /// (`Accept: application/x-ndjson`, as berserk sends).
    pub async fn lines(&self, path: &str) -> Lines {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .header("accept", "application/x-ndjson")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "GET {path}");
        assert_eq!(r.headers()["content-type"], "application/x-ndjson");
        Lines {
            body: Box::pin(r.bytes_stream()),
            buf: Vec::new(),
        }
    }
}

/// The JSON lines of an NDJSON response (keep-alive empty lines skipped).
pub struct Lines {
    body: std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<axum::body::Bytes>> + Send>>,
    buf: Vec<u8>,
}

impl Lines {
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                if line.len() > 1 {
                    return Some(serde_json::from_slice(&line).unwrap());
                }
                continue;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(30), self.body.next())
                .await
                .expect("a line within 30 s")?;
            self.buf.extend_from_slice(&chunk.unwrap());
        }
    }

    /// The next line of `kind` (its `type`), skipping others.
    pub async fn expect(&mut self, kind: &str) -> Value {
        loop {
            let v = self
                .next()
                .await
                .unwrap_or_else(|| panic!("the stream ended before {kind}"));
            if v["type"] == kind {
                return v;
            }
        }
    }
}
