//! The chess variants this crate referees. They differ only in where the
//! pieces start and how castling is written, so a variant is data: an id
//! for the registry and the wire, and shakmaty's castling mode.

use game::GameError;
use shakmaty::CastlingMode;
use std::fmt;

/// Standard chess, or Chess960 (Fischer Random), whose rules are the
/// standard ones apart from the start position and castling (FIDE Laws,
/// Guidelines II).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Standard,
    Chess960,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Standard, Variant::Chess960];

    /// The id the registry, the wire and the database use.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Variant::Standard => "chess/standard",
            Variant::Chess960 => "chess/chess960",
        }
    }

    /// The variant named by `id` (as [`Variant::id`] writes it).
    ///
    /// # Errors
    /// [`GameError::UnknownVariant`] for any other text.
    pub fn from_id(id: &str) -> Result<Variant, GameError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.id() == id)
            .ok_or_else(|| GameError::UnknownVariant(id.to_string()))
    }

    /// How castling rights are read and castling moves written: the king's
    /// two-square step (`e1g1`) in standard chess, the king taking its own
    /// rook (`e1h1`) in Chess960, where the king may start next to the rook
    /// and the two-square form would be ambiguous.
    #[must_use]
    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_id(v.id()), Ok(v));
        }
        assert_eq!(Variant::Chess960.id(), "chess/chess960");
        assert!(matches!(
            Variant::from_id("chess/atomic"),
            Err(GameError::UnknownVariant(_))
        ));
    }
}
