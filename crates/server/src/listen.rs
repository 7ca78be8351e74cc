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
//! * one address holds at most [`ConnLimits::per_ip`] connections, and all
//!   together at most what the process's descriptors allow less a reserve
//!   (the database, files; [`Caps`], sized from `RLIMIT_NOFILE` at start);
//!   more are closed at once, before any byte is read. A connection that
//!   becomes a WebSocket counts for as long as the socket lives ([`ConnSlot`]):
//!   before, its count was released at the upgrade, and 1,100 lobby sockets
//!   from one address took every descriptor;
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

/// Descriptors kept back from client connections for everything else: the
/// database's connections and files, the listener, engines' pipes.
const RESERVED_DESCRIPTORS: usize = 96;

/// The caps the accept loop applies: per address and in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// 0: no cap.
    pub per_ip: usize,
    /// `usize::MAX`: no cap.
    pub total: usize,
}

impl Caps {
    /// The caps for a process that may open `descriptors` files (its soft
    /// `RLIMIT_NOFILE`; `None` when unknown): all connections together
    /// leave [`RESERVED_DESCRIPTORS`] free, and one address takes at most a
    /// sixteenth of them, so that others always find room.
    #[must_use]
    pub fn sized(limits: &ConnLimits, descriptors: Option<usize>) -> Caps {
        let Some(d) = descriptors else {
            return Caps {
                per_ip: limits.per_ip,
                total: usize::MAX,
            };
        };
        let total = d.saturating_sub(RESERVED_DESCRIPTORS).max(16);
        let share = (total / 16).max(1);
        Caps {
            per_ip: if limits.per_ip == 0 {
                0
            } else {
                limits.per_ip.min(share)
            },
            total,
        }
    }
}

/// The soft limit on open files of this process (Linux: `/proc/self/limits`).
#[must_use]
pub fn descriptor_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Open connections per address, and in all.
#[derive(Clone, Default)]
struct Counts(Arc<Mutex<(HashMap<IpAddr, usize>, usize)>>);

/// One counted connection; uncounts itself when dropped.
struct Slot {
    counts: Counts,
    ip: IpAddr,
}

/// A connection's place under the caps, shared with the WebSocket it may
/// become (a request extension): the connection counts until the last
/// holder is gone.
#[derive(Clone)]
pub struct ConnSlot(#[allow(dead_code)] Arc<Slot>);

impl Counts {
    fn take(&self, ip: IpAddr, caps: Caps) -> Option<Slot> {
        let mut guard = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (by_ip, total) = &mut *guard;
        if *total >= caps.total {
            return None;
        }
        let n = by_ip.entry(ip).or_insert(0);
        if caps.per_ip != 0 && *n >= caps.per_ip {
            return None;
        }
        *n += 1;
        *total += 1;
        Some(Slot {
            counts: self.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut guard = self
            .counts
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (by_ip, total) = &mut *guard;
        *total -= 1;
        if let Some(n) = by_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                by_ip.remove(&self.ip);
            }
        }
    }
}

/// A run of like events told to the operator once: when it began, its last
/// event and how many; over after [`Episode::QUIET`] without one.
#[derive(Default)]
struct Episode(Option<(tokio::time::Instant, tokio::time::Instant, u64)>);

impl Episode {
    const QUIET: Duration = Duration::from_secs(5);

    /// Counts an event; true if it opens an episode (the one to log).
    fn note(&mut self) -> bool {
        let now = tokio::time::Instant::now();
        match &mut self.0 {
            Some((_, last, n)) => {
                *last = now;
                *n += 1;
                false
            }
            None => {
                self.0 = Some((now, now, 1));
                true
            }
        }
    }

    /// Ends the episode if it has been quiet long enough: its count and
    /// length in seconds.
    fn over(&mut self) -> Option<(u64, u64)> {
        let (since, last, n) = self.0?;
        (last.elapsed() >= Self::QUIET).then(|| {
            self.0 = None;
            (n, since.elapsed().as_secs())
        })
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
    let caps = Caps::sized(&limits, descriptor_limit());
    tracing::info!(per_address = caps.per_ip, in_all = caps.total, "connection caps");
    // Each connection task holds a sender; when all are dropped, every
    // connection has finished.
    let (open_tx, mut open_rx) = tokio::sync::mpsc::channel::<()>(1);
    // Failed accepts, and connections closed for a cap, each said once per
    // episode: a freed slot in the middle of a flood must not start a new
    // one, so an episode ends only after 5 s without a further case.
    let mut failing = Episode::default();
    let mut refusing = Episode::default();
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.changed() => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => {
                if let Some((n, seconds)) = failing.over() {
                    tracing::info!(failed = n, seconds, "accepting connections again");
                }
                a
            }
            Err(e) => {
                // EMFILE and the like: the listener stays, the loop waits a
                // little so it does not spin, and the operator hears once
                // per episode.
                if failing.note() {
                    tracing::error!(error = %e, "cannot accept connections (retrying every 100 ms)");
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Some(slot) = counts.take(peer.ip(), caps) else {
            if refusing.note() {
                tracing::warn!(ip = %peer.ip(), per_address = caps.per_ip, in_all = caps.total, "connection cap reached; closing new ones");
            }
            drop(stream);
            continue;
        };
        if let Some((n, seconds)) = refusing.over() {
            tracing::info!(closed = n, seconds, "connection caps no longer reached");
        }
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(IdleIo::new(stream, limits.idle));
        let svc = app.clone();
        let slot = ConnSlot(Arc::new(slot));
        let held = slot.clone();
        let hyper_svc = hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(held.clone());
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
    /// When a byte last moved either way.
    moved: Instant,
    /// Armed for `idle` after some moment no later than `moved`: moving
    /// the timer at every read and write cost a timer-wheel removal and
    /// insertion each (three a move, under a lock the workers share), so
    /// it is moved on only when it fires (`check`).
    deadline: Pin<Box<Sleep>>,
}

impl IdleIo {
    fn new(inner: TcpStream, idle: Duration) -> Self {
        IdleIo {
            inner,
            idle,
            moved: Instant::now(),
            deadline: Box::pin(tokio::time::sleep(idle)),
        }
    }

    fn moved(&mut self) {
        self.moved = Instant::now();
    }

    fn check(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        loop {
            match self.deadline.as_mut().poll(cx) {
                Poll::Pending => return Ok(()),
                Poll::Ready(()) => {
                    let due = self.moved + self.idle;
                    if due <= Instant::now() {
                        return Err(io::Error::new(io::ErrorKind::TimedOut, "connection idle"));
                    }
                    // Something moved since it was armed: the idle time
                    // counts from then. Polled again to register the waker.
                    self.deadline.as_mut().reset(due);
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A freed slot in the middle of a flood (a refusal, an accept, a
    /// refusal) is one episode, said once; only quiet ends it.
    #[tokio::test(start_paused = true)]
    async fn an_episode_is_said_once_and_ends_after_quiet() {
        let mut e = Episode::default();
        assert!(e.note(), "the first event opens the episode");
        tokio::time::advance(Duration::from_millis(14)).await;
        assert_eq!(e.over(), None, "14 ms later it is not over");
        assert!(!e.note(), "nor does a second event open another");
        tokio::time::advance(Duration::from_millis(4_990)).await;
        assert_eq!(e.over(), None, "4.99 s after the last event: still on");
        tokio::time::advance(Duration::from_millis(10)).await;
        assert_eq!(e.over(), Some((2, 5)), "5 s quiet: over, two events in 5 s");
        assert_eq!(e.over(), None, "and said only once");
        assert!(e.note(), "the next event opens a new one");
    }

    #[test]
    fn caps_leave_a_reserve_and_room_for_other_addresses() {
        let limits = ConnLimits::default();
        let caps = Caps::sized(&limits, Some(1024));
        assert_eq!(caps.total, 1024 - RESERVED_DESCRIPTORS);
        assert_eq!(caps.per_ip, (1024 - RESERVED_DESCRIPTORS) / 16);
        // Plenty of descriptors: the configured cap per address holds.
        assert_eq!(Caps::sized(&limits, Some(100_000)).per_ip, 64);
        // No cap per address asked for (behind a proxy): none, but a total.
        let open = ConnLimits { per_ip: 0, ..limits };
        assert_eq!(Caps::sized(&open, Some(1024)).per_ip, 0);
        assert_eq!(Caps::sized(&limits, None).total, usize::MAX);
        let counts = Counts::default();
        let caps = Caps { per_ip: 2, total: 3 };
        let (a, b) = (IpAddr::from([127, 0, 0, 1]), IpAddr::from([127, 0, 0, 2]));
        let held: Vec<_> = [a, a].iter().filter_map(|ip| counts.take(*ip, caps)).collect();
        assert_eq!(held.len(), 2);
        assert!(counts.take(a, caps).is_none(), "a third from one address");
        let third = counts.take(b, caps).expect("another address");
        assert!(counts.take(b, caps).is_none(), "over the total");
        drop(third);
        assert!(counts.take(b, caps).is_some(), "room again");
    }
}
