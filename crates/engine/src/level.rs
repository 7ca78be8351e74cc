//! Strength levels for casual players (人机对弈 at several strengths).
//!
//! A level caps the search depth and node count and adds deliberate noise to
//! the evaluation, so a weak level plays plausible moves that are not always
//! the best, rather than random blunders. Level 8 is full strength.

/// A strength level, 1 (beginner) to 8 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// Depth cap, node cap and evaluation noise amplitude (± centipawns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub noise: i32,
}

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(8);

    /// `None` outside 1..=8.
    #[must_use]
    pub fn new(n: u8) -> Option<Level> {
        (1..=8).contains(&n).then_some(Level(n))
    }

    /// Clamps any number into 1..=8 (for protocol options sent out of range).
    #[must_use]
    pub fn clamped(n: i64) -> Level {
        Level(n.clamp(1, 8) as u8)
    }

    #[must_use]
    pub fn get(self) -> u8 {
        self.0
    }

    #[must_use]
    pub fn is_full_strength(self) -> bool {
        self.0 == 8
    }

    /// The limits that make this level.
    #[must_use]
    pub fn limits(self) -> LevelLimits {
        let (depth, nodes, noise) = match self.0 {
            1 => (Some(1), Some(200), 250),
            2 => (Some(2), Some(1_000), 160),
            3 => (Some(3), Some(4_000), 100),
            4 => (Some(4), Some(15_000), 60),
            5 => (Some(6), Some(60_000), 35),
            6 => (Some(8), Some(250_000), 20),
            7 => (Some(12), Some(1_500_000), 8),
            _ => (None, None, 0),
        };
        LevelLimits { depth, nodes, noise }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::MAX
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_get_stronger() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(9), None);
        assert_eq!(Level::clamped(20), Level::MAX);
        assert_eq!(Level::clamped(-3), Level::MIN);
        let mut last = Level::MIN.limits();
        for n in 2..=8 {
            let l = Level::new(n).unwrap().limits();
            assert!(l.noise <= last.noise);
            assert!(l.depth.unwrap_or(u32::MAX) >= last.depth.unwrap_or(u32::MAX));
            assert!(l.nodes.unwrap_or(u64::MAX) > last.nodes.unwrap_or(u64::MAX) || l.nodes.is_none());
            last = l;
        }
        assert_eq!(Level::MAX.limits().noise, 0);
    }
}
