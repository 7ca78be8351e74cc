//! The sessions that have sockets and streams open, so that a session that
//! ends ends them too. A socket is authorised once, when it opens; without
//! this, a socket opened before a logout, a revoked token or an operator's
//! ban went on playing moves and streaming events.
//!
//! Each socket or stream of a logged-in player holds its session here
//! ([`OpenSessions::hold`]) and listens for the end of it. A session ends
//! for its sockets at once when this server ends it (logout, logout
//! everywhere, revoked tokens: the handler calls [`OpenSessions::sweep`]),
//! and within [`SWEEP_EVERY`] when anything else does — `qiju admin ban`
//! from another process, expiry — by a sweep that asks the database which
//! of the open sessions still stand. A timed sweep asks about at most
//! [`SWEEP_MOST`] sessions: with more open, each is asked about once every
//! `open / SWEEP_MOST` sweeps (10 s under 10,000 games), so that the
//! sweep's cost stays bounded — asking about all 20,000 of 10,000 games'
//! players every second was an eighth of the server's CPU
//! (docs/PERFORMANCE.md).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{watch, Notify};

/// How often the open sessions are checked against the database.
pub const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// Most open sessions one timed sweep asks the database about.
pub const SWEEP_MOST: usize = 2_000;

/// The open sessions by token hash: how many sockets and streams each has
/// open, and the signal that ends them.
#[derive(Debug, Default)]
pub struct OpenSessions {
    open: Mutex<HashMap<String, (usize, watch::Sender<bool>)>>,
    /// Wakes the sweeper before its time (a session ended here).
    wake: Notify,
}

/// One socket's or stream's hold on its session; `ended` turns `true` when
/// the session ends.
#[derive(Debug)]
pub struct Held {
    sessions: Arc<OpenSessions>,
    token_hash: String,
    pub ended: watch::Receiver<bool>,
}

impl OpenSessions {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (usize, watch::Sender<bool>)>> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Holds the session `token_hash` for as long as the returned guard lives.
    /// How many sessions have a socket or stream open.
    #[must_use]
    pub fn open(&self) -> usize {
        self.open.lock().map_or(0, |m| m.len())
    }

    pub fn hold(self: &Arc<Self>, token_hash: &str) -> Held {
        let mut open = self.lock();
        let entry = open
            .entry(token_hash.to_string())
            .or_insert_with(|| (0, watch::channel(false).0));
        entry.0 += 1;
        Held {
            sessions: self.clone(),
            token_hash: token_hash.to_string(),
            ended: entry.1.subscribe(),
        }
    }

    /// Asks for a sweep now (after this server ended sessions).
    pub fn sweep(&self) {
        self.wake.notify_one();
    }

    /// Ends, for their sockets, every session of `asked` (the open ones
    /// the database was asked about) that is not in `live`. A session
    /// opened while the database was being asked is not among them: it was
    /// not asked about, so it is not ended — before, a socket opened during
    /// a sweep was ended as if its session had been revoked.
    fn end_all_but(&self, asked: &[String], live: &std::collections::HashSet<String>) -> usize {
        let open = self.lock();
        let mut ended = 0;
        for hash in asked {
            let Some((_, signal)) = open.get(hash) else {
                continue;
            };
            if !live.contains(hash) && !*signal.borrow() {
                let _ = signal.send(true);
                ended += 1;
            }
        }
        ended
    }

    /// The open sessions a sweep asks about: all of them, or, for timed
    /// sweep number `tick` when more than [`SWEEP_MOST`] are open, the
    /// share of them that falls to that sweep (by their hash, so that every
    /// session's turn comes once in `ceil(open / SWEEP_MOST)` sweeps).
    fn hashes(&self, tick: Option<u64>) -> Vec<String> {
        let open = self.lock();
        let shares = open.len().div_ceil(SWEEP_MOST).max(1) as u64;
        match tick {
            Some(tick) if shares > 1 => open
                .keys()
                .filter(|h| share_of(h, shares) == tick % shares)
                .cloned()
                .collect(),
            _ => open.keys().cloned().collect(),
        }
    }
}

/// Which of `shares` a session's hash falls to (FNV-1a: the hashes are
/// random already; this only spreads them evenly and stably).
fn share_of(hash: &str, shares: u64) -> u64 {
    let h = hash.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    h % shares
}

/// Checks the open sessions every [`SWEEP_EVERY`] (a share of them when
/// many are open), or all of them when woken, until the server stops.
pub async fn sweeper(state: crate::AppState) {
    let sessions = state.sessions().clone();
    let mut stop = state.shutdown_signal();
    let mut tick = 0u64;
    loop {
        let timed = tokio::select! {
            () = tokio::time::sleep(SWEEP_EVERY) => true,
            () = sessions.wake.notified() => false,
            _ = stop.changed() => break,
        };
        tick += u64::from(timed);
        let hashes = sessions.hashes(timed.then_some(tick));
        if hashes.is_empty() {
            continue;
        }
        match state.accounts().live_sessions(&hashes).await {
            Ok(live) => {
                let ended = sessions.end_all_but(&hashes, &live);
                if ended > 0 {
                    tracing::info!(sessions = ended, "sessions ended: their sockets close");
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot check the open sessions"),
        }
    }
}

/// A signal that turns `true` when either `a` or `b` does (or its sender
/// goes): what a stream that must end on shutdown or with its session
/// waits on.
#[must_use]
pub fn either(mut a: watch::Receiver<bool>, mut b: watch::Receiver<bool>) -> watch::Receiver<bool> {
    let (tx, rx) = watch::channel(*a.borrow() || *b.borrow());
    tokio::spawn(async move {
        tokio::select! {
            _ = a.wait_for(|v| *v) => {}
            _ = b.wait_for(|v| *v) => {}
            () = tx.closed() => return,
        }
        let _ = tx.send(true);
    });
    rx
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.sessions.lock();
        if let Some(entry) = open.get_mut(&self.token_hash) {
            entry.0 -= 1;
            if entry.0 == 0 {
                open.remove(&self.token_hash);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sweep ends the sessions it asked about that the database no
    /// longer has, and leaves alone one that opened while it was asking.
    #[test]
    fn a_sweep_ends_only_the_sessions_it_asked_about() {
        let sessions = Arc::new(OpenSessions::default());
        let revoked = sessions.hold("revoked");
        let kept = sessions.hold("kept");
        let asked = sessions.hashes(Some(1));
        let newcomer = sessions.hold("newcomer");
        let live: std::collections::HashSet<String> = ["kept".to_string()].into();
        assert_eq!(sessions.end_all_but(&asked, &live), 1);
        assert!(*revoked.ended.borrow());
        assert!(!*kept.ended.borrow());
        assert!(!*newcomer.ended.borrow(), "opened during the sweep: not ended");
    }

    /// With more than `SWEEP_MOST` sessions open, the timed sweeps share
    /// them out: each session is asked about exactly once in every
    /// `ceil(open / SWEEP_MOST)` sweeps, none more than about its share;
    /// a woken sweep asks about all of them.
    #[test]
    fn timed_sweeps_share_out_many_open_sessions() {
        let sessions = Arc::new(OpenSessions::default());
        let open = 2 * SWEEP_MOST + 500;
        let held: Vec<Held> = (0..open).map(|i| sessions.hold(&format!("{i:064x}"))).collect();
        assert_eq!(sessions.hashes(None).len(), open);
        let mut seen = std::collections::HashMap::new();
        for tick in 7..10 {
            let share = sessions.hashes(Some(tick));
            assert!(
                share.len() < SWEEP_MOST + SWEEP_MOST / 5,
                "{} in one sweep",
                share.len()
            );
            for h in share {
                *seen.entry(h).or_insert(0) += 1;
            }
        }
        assert_eq!(seen.len(), open, "every session's turn came");
        assert!(seen.values().all(|&n| n == 1), "and came once");
        drop(held);
        let few: Vec<Held> = (0..10).map(|i| sessions.hold(&format!("few{i}"))).collect();
        assert_eq!(
            sessions.hashes(Some(3)).len(),
            few.len(),
            "few open: all, every sweep"
        );
    }
}
