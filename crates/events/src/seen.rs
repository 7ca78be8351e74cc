//! What the pages read, kept a moment. An event's page and its live
//! boards re-read the event and its standings every 5 s, each reader on
//! their own: a 1,000-player Swiss watched by its players read its 500
//! boards a round and worked out 1,000 players' tie-breaks 200 times a
//! second. Here the event as read from the database ([`Loaded`]) and its
//! standings are kept for [`FRESH_FOR`] and shared by every reader.
//!
//! A change is seen at once by whoever made it: every change to an event
//! is made under its lock ([`crate::Events::lock`]), and taking or
//! letting go of the lock forgets what was kept (`changed`). A read that
//! began before a change is not kept after it: each event has a
//! generation, bumped by every change, and what a reader loaded is kept
//! only if the generation did not move while it read. Another node's
//! readers see a change within [`FRESH_FOR`].

use crate::view::StandingsView;
use crate::Loaded;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long what was read is served again.
pub(crate) const FRESH_FOR: Duration = Duration::from_secs(1);

/// Kept events above this many are dropped when stale, at the next keep.
const SWEEP_ABOVE: usize = 64;

struct Kept {
    at: Instant,
    loaded: Arc<Loaded>,
    standings: Option<StandingsView>,
}

#[derive(Default)]
struct Inner {
    kept: HashMap<String, Kept>,
    /// Each changed event's generation, from one counter: a generation
    /// once seen is never seen again for the same event.
    generations: HashMap<String, u64>,
    counter: u64,
}

#[derive(Default)]
pub(crate) struct Seen(Mutex<Inner>);

impl Seen {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The event as last read, if fresh; else the generation to hand
    /// [`Seen::keep`] with what the caller reads.
    pub(crate) fn loaded(&self, id: &str) -> Result<Arc<Loaded>, u64> {
        let inner = self.inner();
        match inner.kept.get(id) {
            Some(k) if k.at.elapsed() < FRESH_FOR => Ok(k.loaded.clone()),
            _ => Err(inner.generations.get(id).copied().unwrap_or(0)),
        }
    }

    /// Keeps `loaded`, read at `generation`, unless the event changed
    /// since.
    pub(crate) fn keep(&self, id: &str, generation: u64, loaded: Arc<Loaded>) {
        let mut inner = self.inner();
        if inner.generations.get(id).copied().unwrap_or(0) != generation {
            return;
        }
        if inner.kept.len() > SWEEP_ABOVE {
            inner.kept.retain(|_, k| k.at.elapsed() < FRESH_FOR);
        }
        inner.kept.insert(
            id.to_string(),
            Kept {
                at: Instant::now(),
                loaded,
                standings: None,
            },
        );
    }

    /// The standings worked out from the kept `loaded`, if it is still
    /// what is kept.
    pub(crate) fn standings(&self, id: &str, loaded: &Arc<Loaded>) -> Option<StandingsView> {
        let inner = self.inner();
        let k = inner.kept.get(id)?;
        Arc::ptr_eq(&k.loaded, loaded)
            .then(|| k.standings.clone())
            .flatten()
    }

    /// Keeps the standings worked out from `loaded`, if it is still what
    /// is kept.
    pub(crate) fn keep_standings(&self, id: &str, loaded: &Arc<Loaded>, standings: &StandingsView) {
        let mut inner = self.inner();
        if let Some(k) = inner.kept.get_mut(id) {
            if Arc::ptr_eq(&k.loaded, loaded) {
                k.standings = Some(standings.clone());
            }
        }
    }

    /// Event `id` is changing or changed: what was kept is dropped, and
    /// reads begun before are not kept.
    pub(crate) fn changed(&self, id: &str) {
        let mut inner = self.inner();
        inner.counter += 1;
        let generation = inner.counter;
        inner.generations.insert(id.to_string(), generation);
        inner.kept.remove(id);
    }
}
