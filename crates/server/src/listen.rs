//! The accept loop: what a connection may cost before it has proved to be a
//! real client. `axum::serve` has no header-read timeout, no idle timeout
//! and no per-address cap, and logs every failed accept; with it, 1,100
//! requests that never finish from one address used up the descriptors and
//! locked everyone out. Here:
//!
//! * a connection must finish its request headers within
//!   [`ConnLimits::header_read`] — hyper's timer, which also runs while a
//!   kept-alive connection waits for its next request, so it is the idle
//!   keep-alive limit too;
//! * a connection (a request body, an upgraded WebSocket) that moves no
//!   byte either way for [`ConnLimits::idle`] is closed ([`IdleIo`]); the
//!   sockets ping every 20 s, so only dead ones go quiet that long;
//! * one address holds at most [`ConnLimits::per_ip`] connections; more are
//!   closed at once, before any byte is read;
//! * when accepting fails (descriptors exhausted), the loop waits and says
//!   so once per episode, not once per try.

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::{Instant, Sleep};

/// Limits on one TCP connection. See docs/SECURITY.md for the numbers.
#[derive(Clone, Copy, Debug)]
pub struct ConnLimits {
    /// Time to send a request's headers, and to start the next request on a
    /// kept-alive connection.
    pub header_read: Duration,
    /// Longest silence (no byte read or written) of a connection.
    pub idle: Duration,
    /// Open connections per client address; 0 = no cap (behind a proxy
    /// that is the only client, see docs/SECURITY.md).
    pub per_ip: usize,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits {
            header_read: Duration::from_secs(10),
            idle: Duration::from_secs(60),
            per_ip: 64,
        }
    }
}

/// Open connections per address.
#[derive(Clone, Default)]
struct Counts(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One counted connection; uncounts itself when dropped.
struct Slot {
    counts: Counts,
    ip: IpAddr,
}

impl Counts {
    fn take(&self, ip: IpAddr, cap: usize) -> Option<Slot> {
        let mut m = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = m.entry(ip).or_insert(0);
        if cap != 0 && *n >= cap {
            return None;
        }
        *n += 1;
        Some(Slot {
            counts: self.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut m = self
            .counts
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = m.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

/// Serves `app` on `listener` until `stop` turns true, then waits for the
/// open connections to finish (the sockets close themselves on shutdown).
///
/// # Errors
/// Never for a client's fault; only if the runtime fails.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    mut stop: watch::Receiver<bool>,
) -> io::Result<()> {
    let counts = Counts::default();
    // Each connection task holds a sender; when all are dropped, every
    // connection has finished.
    let (open_tx, mut open_rx) = tokio::sync::mpsc::channel::<()>(1);
    // An episode of failed accepts: when it began, its last failure, and
    // how many; it is over after 5 s without a failure.
    let mut failing: Option<(tokio::time::Instant, tokio::time::Instant, u64)> = None;
    let mut refused_logged = false;
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.changed() => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => {
                if let Some((since, last, n)) = failing {
                    if last.elapsed() >= Duration::from_secs(5) {
                        tracing::info!(
                            failed = n,
                            seconds = since.elapsed().as_secs(),
                            "accepting connections again"
                        );
                        failing = None;
                    }
                }
                a
            }
            Err(e) => {
                // EMFILE and the like: the listener stays, the loop waits a
                // little so it does not spin, and the operator hears once
                // per episode.
                let now = tokio::time::Instant::now();
                failing = Some(match failing {
                    None => {
                        tracing::error!(error = %e, "cannot accept connections (retrying every 100 ms)");
                        (now, now, 1)
                    }
                    Some((since, _, n)) => (since, now, n + 1),
                });
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Some(slot) = counts.take(peer.ip(), limits.per_ip) else {
            if !refused_logged {
                tracing::warn!(ip = %peer.ip(), cap = limits.per_ip, "connection cap per address reached; closing new ones");
                refused_logged = true;
            }
            drop(stream);
            continue;
        };
        refused_logged = false;
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(IdleIo::new(stream, limits.idle));
        let svc = app.clone();
        let hyper_svc = hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            tower::ServiceExt::oneshot(svc.clone(), req)
        });
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_read)
            .keep_alive(true)
            .serve_connection(io, hyper_svc)
            .with_upgrades();
        let open = open_tx.clone();
        let mut stopping = stop.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let _open = open;
            let mut conn = std::pin::pin!(conn);
            // A client's error (a reset, a timeout, garbage) ends only its
            // own connection.
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = stopping.changed() => {}
            }
            // Shutting down: finish the request in flight, take no more.
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
    }
    drop(listener);
    drop(open_tx);
    let _ = open_rx.recv().await;
    Ok(())
}

/// A TCP stream that fails with `TimedOut` once no byte has moved either
/// way for a while. Checked whenever the connection is polled, which hyper
/// and the WebSocket tasks do while they wait for input.
pub struct IdleIo {
    inner: TcpStream,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl IdleIo {
    fn new(inner: TcpStream, idle: Duration) -> Self {
        IdleIo {
            inner,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
        }
    }

    fn moved(&mut self) {
        self.deadline.as_mut().reset(Instant::now() + self.idle);
    }

    fn check(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Err(io::Error::new(io::ErrorKind::TimedOut, "connection idle")),
            Poll::Pending => Ok(()),
        }
    }

    /// What a write came to: bytes out count as movement; waiting is
    /// checked against the idle limit.
    fn wrote(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<usize>>) -> Poll<io::Result<usize>> {
        match r {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    self.moved();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => match self.check(cx) {
                Ok(()) => Poll::Pending,
                Err(e) => Poll::Ready(Err(e)),
            },
        }
    }
}

impl AsyncRead for IdleIo {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let me = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut me.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    me.moved();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => match me.check(cx) {
                Ok(()) => Poll::Pending,
                Err(e) => Poll::Ready(Err(e)),
            },
        }
    }
}

impl AsyncWrite for IdleIo {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_write(cx, data);
        me.wrote(cx, r)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_write_vectored(cx, bufs);
        me.wrote(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
