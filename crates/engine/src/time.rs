//! Time management: how long to think about one move, from the clock.
//!
//! Two budgets come out: the *optimum*, after which no new iteration is
//! started (scaled by how stable the best move has been), and the *maximum*,
//! at which the search is stopped mid-iteration. Both leave a safety margin
//! for the protocol round trip (`Move Overhead`).

use crate::{Clock, Limits};
use std::time::Duration;

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub optimum: Duration,
    pub maximum: Duration,
}

/// Default margin kept for the engine–GUI round trip.
pub const DEFAULT_OVERHEAD: Duration = Duration::from_millis(30);

/// The budget for a search under `limits`; `None` when there is no time
/// limit (depth, nodes or infinite only).
#[must_use]
pub fn budget(limits: &Limits, overhead: Duration) -> Option<Budget> {
    if limits.infinite {
        return None;
    }
    let from_clock = limits.clock.map(|c| clock_budget(c, overhead));
    let from_movetime = limits.movetime.map(|t| {
        let t = t
            .saturating_sub(overhead.min(t / 2))
            .max(Duration::from_millis(1));
        Budget {
            optimum: t,
            maximum: t,
        }
    });
    match (from_clock, from_movetime) {
        (Some(a), Some(b)) => Some(Budget {
            optimum: a.optimum.min(b.optimum),
            maximum: a.maximum.min(b.maximum),
        }),
        (a, b) => a.or(b),
    }
}

fn clock_budget(c: Clock, overhead: Duration) -> Budget {
    let time = c.time.as_secs_f64();
    let inc = c.increment.as_secs_f64();
    let overhead = overhead.as_secs_f64();
    // Spread the remaining time over the moves still to play; a game of
    // Xiangqi lasts about 60–80 moves a side, so assume ~30 more unless the
    // control says how many remain.
    let mtg = f64::from(c.moves_to_go.unwrap_or(30).clamp(1, 50));
    let usable = (time - overhead).max(0.0);
    let mut optimum = usable / mtg + inc * 0.75;
    // Never plan to use more than a fifth of what is left (half when the
    // control ends with this very move).
    let cap = if mtg <= 1.0 { usable * 0.8 } else { usable * 0.2 };
    optimum = optimum.min(cap);
    let maximum = (optimum * 4.0)
        .min(usable * if mtg <= 1.0 { 0.9 } else { 0.35 })
        .max(optimum);
    let floor = 0.001;
    Budget {
        optimum: Duration::from_secs_f64(optimum.max(floor)),
        maximum: Duration::from_secs_f64(maximum.max(floor)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn budgets_fit_in_the_clock() {
        for (ms, inc, mtg) in [
            (10_000, 100, None),
            (300, 100, None),
            (50, 0, None),
            (60_000, 0, Some(1)),
            (60_000, 0, Some(40)),
            (5, 0, None),
        ] {
            let b = budget(&clock(ms, inc, mtg), DEFAULT_OVERHEAD).unwrap();
            assert!(b.optimum <= b.maximum, "{ms} {inc} {mtg:?}: {b:?}");
            // Never more than the time left (increment arrives after the move).
            assert!(
                b.maximum <= Duration::from_millis(ms).max(Duration::from_millis(1)),
                "{ms}: {b:?}"
            );
        }
        let b = budget(&clock(10_000, 100, None), DEFAULT_OVERHEAD).unwrap();
        assert!(
            b.optimum > Duration::from_millis(200) && b.optimum < Duration::from_millis(600),
            "{b:?}"
        );
    }

    #[test]
    fn movetime_and_infinite() {
        let l = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        };
        let b = budget(&l, DEFAULT_OVERHEAD).unwrap();
        assert_eq!(b.maximum, Duration::from_millis(970));
        let l = Limits { infinite: true, ..l };
        assert_eq!(budget(&l, DEFAULT_OVERHEAD), None);
        assert_eq!(budget(&Limits::default(), DEFAULT_OVERHEAD), None);
    }
}
