//! Time controls for engine matches: `[moves/]seconds[+increment]`, as
//! cutechess-cli writes them (`10+0.1`, `40/60`, `40/60+1`).

use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per stage; `None` = the whole game (sudden death plus increment).
    pub moves: Option<u32>,
    pub base: Duration,
    pub increment: Duration,
}

/// A time control that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad time control {text:?}: {reason} (expected e.g. 10+0.1 or 40/60)")]
pub struct TimeControlError {
    pub text: String,
    pub reason: &'static str,
}

fn secs(s: &str) -> Option<Duration> {
    let v: f64 = s.parse().ok()?;
    (v.is_finite() && (0.0..1e7).contains(&v)).then(|| Duration::from_secs_f64(v))
}

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let err = |reason| TimeControlError {
            text: text.to_string(),
            reason,
        };
        let t = text.trim();
        let (moves, rest) = match t.split_once('/') {
            Some((m, r)) => (
                Some(
                    m.parse::<u32>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or(err("moves must be a positive number"))?,
                ),
                r,
            ),
            None => (None, t),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = secs(base).ok_or(err("base time must be seconds"))?;
        let increment = match inc {
            Some(i) => secs(i).ok_or(err("increment must be seconds"))?,
            None => Duration::ZERO,
        };
        if base.is_zero() && increment.is_zero() {
            return Err(err("no time at all"));
        }
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

impl std::fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag form (`10+0.1`, `40/60`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    pub left: Duration,
    /// Own moves made in the current stage.
    pub stage_moves: u32,
}

impl SideClock {
    #[must_use]
    pub fn new(tc: &TimeControl) -> SideClock {
        SideClock {
            left: tc.base,
            stage_moves: 0,
        }
    }

    /// Moves left in the stage, for `movestogo`.
    #[must_use]
    pub fn moves_to_go(&self, tc: &TimeControl) -> Option<u32> {
        tc.moves.map(|m| m - self.stage_moves)
    }

    /// Charges a move that took `used`; `false` when the flag fell
    /// (beyond `margin`).
    pub fn charge(&mut self, tc: &TimeControl, used: Duration, margin: Duration) -> bool {
        if used > self.left + margin {
            self.left = Duration::ZERO;
            return false;
        }
        self.left = self.left.saturating_sub(used) + tc.increment;
        if let Some(m) = tc.moves {
            self.stage_moves += 1;
            if self.stage_moves == m {
                self.stage_moves = 0;
                self.left += tc.base;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (None, Duration::from_secs(10), Duration::from_millis(100))
        );
        assert_eq!(tc.to_string(), "10+0.1");
        let tc: TimeControl = "40/60".parse().unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.to_string(), "40/60");
        for bad in ["", "x", "0", "0/10", "10+", "-5", "10+y", "inf"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_charges_and_flags() {
        let tc: TimeControl = "2/1+0.5".parse().unwrap();
        let mut c = SideClock::new(&tc);
        assert_eq!(c.moves_to_go(&tc), Some(2));
        assert!(c.charge(&tc, Duration::from_millis(600), Duration::ZERO));
        assert_eq!(c.left, Duration::from_millis(900));
        assert!(c.charge(&tc, Duration::from_millis(400), Duration::ZERO));
        // Stage complete: a new second arrives.
        assert_eq!(c.left, Duration::from_millis(2000));
        assert!(!c.charge(&tc, Duration::from_millis(2100), Duration::from_millis(50)));
        let mut c = SideClock::new(&tc);
        assert!(c.charge(&tc, Duration::from_millis(1030), Duration::from_millis(50)));
    }
}
