//! NDJSON streams (the bot API's game and event streams): one JSON line
//! per event from a broadcast channel, kept alive by empty lines.

use axum::body::Body;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use play::protocol::ServerMsg;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// Lines of NDJSON from a broadcast receiver, with an empty keep-alive line
/// every 20 s; ends when the source closes, after an `end` event, or when
/// the server shuts down.
///
/// `guard` lives as long as the stream and is dropped after the receiver
/// (a [`lobby::Presence`] for the event stream).
pub fn ndjson<T, F, G>(
    first: Option<String>,
    rx: tokio::sync::broadcast::Receiver<T>,
    shutdown: tokio::sync::watch::Receiver<bool>,
    line: F,
    guard: G,
) -> Body
where
    T: Clone + Send + 'static,
    F: Fn(&T) -> (String, bool) + Send + 'static,
    G: Send + 'static,
{
    let rx = Guarded { rx, _guard: guard };
    let stream = futures_util::stream::unfold(
        (first, rx, shutdown, false, line),
        |(first, mut rx, mut shutdown, done, line)| async move {
            if let Some(f) = first {
                return Some((
                    Ok::<_, std::io::Error>(f + "\n"),
                    (None, rx, shutdown, done, line),
                ));
            }
            if done || *shutdown.borrow() {
                return None;
            }
            let got = tokio::select! {
                r = tokio::time::timeout(Duration::from_secs(20), rx.rx.recv()) => r,
                _ = shutdown.changed() => return None,
            };
            match got {
                Err(_) => Some((Ok("\n".to_string()), (None, rx, shutdown, false, line))),
                Ok(Ok(ev)) => {
                    let (text, last) = line(&ev);
                    Some((Ok(text + "\n"), (None, rx, shutdown, last, line)))
                }
                // Too slow to keep up: say so and end the stream, so the
                // client reconnects and starts from the whole state instead
                // of missing events without knowing.
                Ok(Err(RecvError::Lagged(n))) => {
                    let msg = ServerMsg::error(
                        "lagged",
                        &format!("{n} events were missed: reconnect for the whole state"),
                    );
                    Some((Ok(msg.to_json() + "\n"), (None, rx, shutdown, true, line)))
                }
                Ok(Err(RecvError::Closed)) => None,
            }
        },
    );
    Body::from_stream(stream)
}

/// A receiver with something that must outlive it (fields drop in order).
struct Guarded<T, G> {
    rx: tokio::sync::broadcast::Receiver<T>,
    _guard: G,
}

pub fn ndjson_response(body: Body) -> Response {
    ([(CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream that falls behind its source says so and ends, so that the
    /// bot reconnects for the whole state; before, it went on past the
    /// missed events as if nothing had happened (issue 12).
    #[tokio::test]
    async fn a_stream_that_falls_behind_says_so_and_ends() {
        let (tx, rx) = tokio::sync::broadcast::channel::<String>(2);
        let (_stop, shutdown) = tokio::sync::watch::channel(false);
        let body = ndjson(
            Some("first".into()),
            rx,
            shutdown,
            |s: &String| (s.clone(), false),
            (),
        );
        for i in 0..5 {
            tx.send(format!("event {i}")).unwrap();
        }
        let bytes = tokio::time::timeout(Duration::from_secs(5), axum::body::to_bytes(body, 1 << 16))
            .await
            .expect("the stream ends by itself")
            .unwrap();
        let lines: Vec<serde_json::Value> = std::str::from_utf8(&bytes)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(
            (lines[0]["t"].as_str(), lines[0]["code"].as_str()),
            (Some("error"), Some("lagged"))
        );
        assert!(
            lines[0]["message"].as_str().unwrap().starts_with("3 events"),
            "{lines:?}"
        );
    }

    /// Events in step reach the stream in order, and an `end` closes it.
    #[tokio::test]
    async fn a_stream_in_step_carries_every_event_up_to_the_end() {
        let (tx, rx) = tokio::sync::broadcast::channel::<String>(8);
        let (_stop, shutdown) = tokio::sync::watch::channel(false);
        let body = ndjson(None, rx, shutdown, |s: &String| (s.clone(), s == "end"), ());
        for e in ["a", "b", "end", "after"] {
            tx.send(e.to_string()).unwrap();
        }
        let bytes = tokio::time::timeout(Duration::from_secs(5), axum::body::to_bytes(body, 1 << 16))
            .await
            .expect("the stream ends at end")
            .unwrap();
        assert_eq!(std::str::from_utf8(&bytes).unwrap(), "a\nb\nend\n");
    }
}
