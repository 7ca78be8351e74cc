//! The playing strength a built-in computer player is asked for: levels
//! 1 to 5, as the lobby offers them for every game whose computer lives in
//! its rules crate (renju and gomoku, every data-defined variant). What a
//! level does — depth, nodes, noise, threat searches — is each computer's
//! own (`renju::computer::limits`, `variants::computer::limits`); the
//! levels themselves are one type, so the registry and the server handle
//! them alike. (`crates/engine`, Xiangqi's own engine, has eight.)

/// A playing strength, 1 (weakest) to 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(5);

    /// Level `n`, 1 to 5; `None` outside.
    #[must_use]
    pub fn new(n: u8) -> Option<Level> {
        (Level::MIN.0..=Level::MAX.0).contains(&n).then_some(Level(n))
    }

    #[must_use]
    pub fn number(self) -> u8 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::Level;

    #[test]
    fn levels_are_one_to_five() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(6), None);
        assert_eq!(Level::new(1), Some(Level::MIN));
        assert_eq!(Level::new(5), Some(Level::MAX));
        assert_eq!(Level::new(3).map(Level::number), Some(3));
        assert!(Level::MIN < Level::MAX);
    }
}
