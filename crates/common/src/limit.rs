//! A sliding-window counter of attempts per key: logins, registrations,
//! guests, chat lines.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// A sliding-window counter of attempts per key.
#[derive(Debug)]
pub struct RateLimiter {
    max: usize,
    window_ms: i64,
    hits: Mutex<HashMap<String, VecDeque<i64>>>,
}

impl RateLimiter {
    #[must_use]
    pub fn new(max: usize, window_ms: i64) -> RateLimiter {
        RateLimiter {
            max,
            window_ms,
            hits: Mutex::new(HashMap::new()),
        }
    }

    /// Checks and counts an attempt in one step: of any number of
    /// attempts arriving together, exactly the allowed ones pass. A
    /// limiter made with `max` 0 lets everything through.
    ///
    /// # Errors
    /// The seconds to wait when `key` has used up its attempts.
    pub fn try_hit(&self, key: &str, now_ms: i64) -> Result<(), u64> {
        if self.max == 0 {
            return Ok(());
        }
        let mut map = self
            .hits
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() > 100_000 {
            // Bound memory under a flood of distinct keys.
            let cutoff = now_ms - self.window_ms;
            map.retain(|_, q| q.back().is_some_and(|&t| t > cutoff));
        }
        let q = map.entry(key.to_string()).or_default();
        while q.front().is_some_and(|&t| t <= now_ms - self.window_ms) {
            q.pop_front();
        }
        if q.len() >= self.max {
            let oldest = q.front().copied().unwrap_or(now_ms);
            let wait = (oldest + self.window_ms - now_ms).max(1000) / 1000;
            return Err(u64::try_from(wait).unwrap_or(1));
        }
        q.push_back(now_ms);
        Ok(())
    }

    pub fn clear(&self, key: &str) {
        let mut map = self
            .hits
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limiter_blocks_then_frees() {
        let r = RateLimiter::new(2, 1000);
        assert!(r.try_hit("k", 0).is_ok());
        assert!(r.try_hit("k", 10).is_ok());
        assert_eq!(r.try_hit("k", 20), Err(1), "the third within the window waits");
        assert!(r.try_hit("other", 20).is_ok());
        assert!(r.try_hit("k", 999).is_err());
        // The first attempt has left the window; a refused one never counted.
        assert!(r.try_hit("k", 1001).is_ok());
        assert!(r.try_hit("k", 1005).is_err());
        r.clear("k");
        assert!(r.try_hit("k", 1006).is_ok());
    }
}
