//! The game-agnostic core of qiju.
//!
//! Every game (Xiangqi, and later chess, shogi, gomoku) implements [`Game`]: a
//! position with its history, the legal moves, playing a move, and the outcome.
//! The clock, the session, the server and the UI are written once against this
//! trait, so they never learn the rules of a particular game. Moves cross this
//! boundary as text in the game's coordinate notation (ICCS `h2e2` for
//! Xiangqi, UCI `e2e4` for chess), because that is what travels over the wire
//! and into the database anyway; the games keep their fast `Copy` move types
//! inside.

use serde::{Deserialize, Serialize};
use std::fmt;

mod level;

pub use level::Level;

/// The two sides of a two-player game. Xiangqi calls them red and black,
/// chess white and black, shogi sente and gote; the first side moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first side, 1 for the second: handy for indexing pairs.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a game ended, from the point of view of the result table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Outcome {
    Win { winner: Side },
    Draw,
}

impl Outcome {
    #[must_use]
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win { winner } => Some(winner),
            Outcome::Draw => None,
        }
    }

    /// Score of `side` on the usual 1 / ½ / 0 scale, in half points.
    #[must_use]
    pub fn half_points(self, side: Side) -> u32 {
        match self {
            Outcome::Win { winner } if winner == side => 2,
            Outcome::Win { .. } => 0,
            Outcome::Draw => 1,
        }
    }
}

/// An ending decided by the board itself (as opposed to the clock, a
/// resignation or an agreement, which the session decides).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub outcome: Outcome,
    /// Machine-readable reason, e.g. `checkmate`, `stalemate`, `perpetual_check`.
    pub reason: String,
    /// Human-readable explanation, possibly with a rule-book article.
    pub detail: String,
    /// Rule-book article, when there is one (e.g. `26.4`).
    pub article: Option<String>,
}

/// The state of a game after the last move, as its rules see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// A repetition was ruled in which `side` plays a forbidden sequence: it
    /// must vary its moves (变着) or lose when it repeats once more.
    MustChange {
        side: Side,
        detail: String,
        article: Option<String>,
    },
    /// The game is over.
    Over(Ending),
}

/// A move as it is recorded: coordinate notation plus human notations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedMove {
    /// Coordinate notation (ICCS for Xiangqi, UCI for chess).
    pub coord: String,
    /// The notation players read (Chinese for Xiangqi, SAN for chess).
    pub display: String,
    /// A second, international notation (WXF for Xiangqi).
    pub alt: String,
    pub capture: bool,
    pub check: bool,
}

/// Errors a [`Game`] reports when asked to do something its rules forbid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("cannot read move {text:?}: {reason}")]
    BadMove { text: String, reason: String },
    #[error("illegal move {text:?}: {reason}")]
    IllegalMove { text: String, reason: String },
    #[error("the game is already over")]
    GameOver,
    #[error("bad position: {0}")]
    BadPosition(String),
    #[error("unknown variant or rule set {0:?}")]
    UnknownVariant(String),
}

/// A game with its history, refereed by its rules.
///
/// This is the one trait the session, the server and the UI know. It is
/// object-safe so the server can hold `Box<dyn Game>` for whatever game a
/// table plays.
pub trait Game: Send + fmt::Debug {
    /// Game family, e.g. `xiangqi`.
    fn family(&self) -> &'static str;
    /// Variant and rule set, e.g. `xiangqi/cxa`.
    fn variant(&self) -> String;
    /// The position the game started from.
    fn initial_fen(&self) -> String;
    /// The current position.
    fn fen(&self) -> String;
    fn side_to_move(&self) -> Side;
    /// Legal moves in coordinate notation, sorted.
    fn legal_moves(&self) -> Vec<String>;
    /// Validates and plays a move given in coordinate notation; on error
    /// nothing changes.
    fn play(&mut self, coord: &str) -> Result<PlayedMove, GameError>;
    /// The moves played so far.
    fn history(&self) -> &[PlayedMove];
    /// What the rules say about the game now.
    fn status(&self) -> Status;
    /// Whether the side to move may claim a draw (e.g. by a move-count limit)
    /// right now, and on what ground.
    fn claimable_draw(&self) -> Option<Ending> {
        None
    }
    /// The name players know a side by, capitalised for the start of a
    /// sentence shown to them ("Red", "Black"; "White" in chess, "Sente" in
    /// shogi). The generic words are a fallback only.
    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "First",
            Side::Second => "Second",
        }
    }
    /// The data word (`black`, `white` …) for what `side` plays as now,
    /// where the game's own moves decide it: under renju's and gomoku's
    /// opening rules a player chooses its colour during the game (the first
    /// side, the tentative black, may end up white). `None`, the default:
    /// the variant's fixed word for the side, from the registry. The sides
    /// themselves never change: `first` is the player who moved first.
    fn side_key(&self, side: Side) -> Option<&'static str> {
        let _ = side;
        None
    }
    /// Whether `side` could still win by some series of legal moves. A
    /// flag that falls against a player whose opponent cannot win is a
    /// draw in chess (FIDE Laws 6.9); Xiangqi's time forfeit always loses
    /// (CXA 4.1.4), so the default says yes.
    fn can_win(&self, side: Side) -> bool {
        let _ = side;
        true
    }
    /// What the last move made that a player announces under rules that
    /// ask for it, as data words (renju's `four` and `open_three`, seed
    /// 001's office rule: 如出现活三或四的情况，需向对方作一下提示). Empty by
    /// default, after a move that made nothing, and once the game is over.
    /// The registry's `Variant::announcements` says whether a variant's
    /// games tell them.
    fn announcements(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// The moves the side *not* to move could make now by its pieces'
    /// movement alone (blockers and own pieces respected, check ignored),
    /// sorted: what a player may premove while the other thinks. Empty
    /// where the browser finds them itself from the position (Xiangqi's,
    /// chess's and shogi's rules modules do), or has none; a data-defined
    /// variant's rules live only on the server, so it sends them.
    fn premoves(&self) -> Vec<String> {
        Vec::new()
    }
    /// Clones into a box (the trait is object-safe, so no `Clone` bound).
    fn boxed_clone(&self) -> Box<dyn Game>;
}

impl Clone for Box<dyn Game> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first",
            Side::Second => "second",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_points_sum_to_two() {
        for o in [
            Outcome::Draw,
            Outcome::Win { winner: Side::First },
            Outcome::Win { winner: Side::Second },
        ] {
            assert_eq!(o.half_points(Side::First) + o.half_points(Side::Second), 2);
        }
        assert_eq!(Outcome::Win { winner: Side::Second }.winner(), Some(Side::Second));
        assert_eq!(Side::First.other(), Side::Second);
    }
}
