//! The rule sets and what a move does under them.
//!
//! * `gomoku/freestyle` — five or more in a row wins, for both sides.
//! * `gomoku/standard` — exactly five wins; an overline wins nothing and
//!   play goes on.
//! * `renju/rif` — the RIF rules: black wins with exactly five and loses by
//!   playing a forbidden point (overline, double-four, double-three; see
//!   `forbidden.rs`), a five made together with a forbidden shape winning;
//!   white has no forbidden points and its overline counts as five.
//! * `renju/office` — seed 001's office event: the RIF rules, with white's
//!   first stone on its own side of the centre line and a forbidden point
//!   replayed when white points it out (one white lets pass stands).
//!
//! In every rule set a full board with no five is a draw. Black's first
//! stone goes on the centre (天元) unless an opening rule says otherwise.
//! The opening rules (`opening.rs`) make three more rule sets:
//!
//! * `gomoku/swap2` and `gomoku/standard-swap2` — freestyle and standard
//!   gomoku opened by swap2 (Gomocup, the Gomoku World Championships);
//! * `renju/soosorv8` — the RIF rules opened by Soosõrv-8 (the Renju World
//!   Championship's rule since 2017).

use crate::board::Board;
use crate::forbidden::{self, Forbidden, Verdict};
use crate::point::{Color, Point};
use std::fmt;

/// Which family of rules decides the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five in a row wins.
    Standard,
    /// RIF renju: forbidden points for black.
    Renju,
}

/// What happens when black plays a forbidden point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FoulPolicy {
    /// Black loses at once (RIF).
    Lose,
    /// The office event (seed 001): white may point the foul out, and black
    /// then plays that move again; if white plays on instead, the stone
    /// stands (如果黑方在禁手处落子，白方可以向黑方提出，则黑方这手棋可以重下，
    /// 白方如果不向黑方提出则视作认同).
    Replay,
}

/// A complete rule set: the family and its switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub set: RuleSet,
    /// Black's first stone goes on the centre, h8 (天元).
    pub centre_first: bool,
    /// White's first stone goes on white's own side of the centre line
    /// (白棋第一手应在天元为界自己一侧布子): rows 9–15, white sitting at the
    /// top of the diagram as printed, black at the bottom.
    pub white_first_own_side: bool,
    pub fouls: FoulPolicy,
    /// How the first stones are placed and the colours settled.
    pub opening: Opening,
}

/// The opening rule: who places the first stones and how the players'
/// colours are settled (`opening.rs` runs it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// Black starts on the centre; the players' colours are fixed from the
    /// start (casual play).
    Centre,
    /// Swap2: the first player places two black stones and a white one; the
    /// second plays white, takes black, or places two more stones and lets
    /// the first choose.
    Swap2,
    /// Soosõrv-N (here N = 8): one of the 26 openings, a swap, the 4th
    /// stone with the number of 5th moves to offer, a swap, the offers,
    /// white's pick.
    Soosorv { max_offers: u8 },
}

/// A rule-set name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no rule set {name:?}; known: gomoku (gomoku/freestyle), gomoku/standard, gomoku/swap2, gomoku/standard-swap2, \
     renju (renju/rif), renju/office, renju/soosorv8"
)]
pub struct UnknownRules {
    pub name: String,
}

impl Rules {
    pub const FREESTYLE: Rules = Rules::plain(RuleSet::Freestyle);
    pub const STANDARD: Rules = Rules::plain(RuleSet::Standard);
    pub const RIF: Rules = Rules::plain(RuleSet::Renju);
    pub const OFFICE: Rules = Rules {
        set: RuleSet::Renju,
        centre_first: true,
        white_first_own_side: true,
        fouls: FoulPolicy::Replay,
        opening: Opening::Centre,
    };
    /// Freestyle gomoku opened by swap2 (anywhere on the board).
    pub const SWAP2: Rules = Rules::swap2(RuleSet::Freestyle);
    /// Standard gomoku (exactly five) opened by swap2.
    pub const STANDARD_SWAP2: Rules = Rules::swap2(RuleSet::Standard);
    /// RIF renju opened by Soosõrv-8.
    pub const SOOSORV8: Rules = Rules {
        opening: Opening::Soosorv { max_offers: 8 },
        ..Rules::RIF
    };

    const fn plain(set: RuleSet) -> Rules {
        Rules {
            set,
            centre_first: true,
            white_first_own_side: false,
            fouls: FoulPolicy::Lose,
            opening: Opening::Centre,
        }
    }

    const fn swap2(set: RuleSet) -> Rules {
        Rules {
            set,
            centre_first: false,
            white_first_own_side: false,
            fouls: FoulPolicy::Lose,
            opening: Opening::Swap2,
        }
    }

    /// Every rule set with an id, the casual ones first.
    pub const ALL: [Rules; 7] = [
        Rules::FREESTYLE,
        Rules::STANDARD,
        Rules::RIF,
        Rules::OFFICE,
        Rules::SWAP2,
        Rules::STANDARD_SWAP2,
        Rules::SOOSORV8,
    ];

    /// The same rules with colours fixed from the start: what a position
    /// given in the middle of a game is played under (its opening is over).
    #[must_use]
    pub fn without_opening(self) -> Rules {
        match self.opening {
            Opening::Centre => self,
            _ => Rules {
                opening: Opening::Centre,
                centre_first: false,
                ..self
            },
        }
    }

    /// Reads a rule-set id or alias: `gomoku` (= `gomoku/freestyle`),
    /// `gomoku/standard`, `renju` (= `renju/rif`), `renju/office`,
    /// `gomoku/swap2`, `gomoku/standard-swap2`, `renju/soosorv8`.
    pub fn from_id(name: &str) -> Result<Rules, UnknownRules> {
        Ok(match name.trim().to_ascii_lowercase().as_str() {
            "gomoku" | "gomoku/freestyle" => Rules::FREESTYLE,
            "gomoku/standard" => Rules::STANDARD,
            "renju" | "renju/rif" => Rules::RIF,
            "renju/office" => Rules::OFFICE,
            "gomoku/swap2" => Rules::SWAP2,
            "gomoku/standard-swap2" => Rules::STANDARD_SWAP2,
            "renju/soosorv8" | "renju/soosorv-8" => Rules::SOOSORV8,
            _ => {
                return Err(UnknownRules {
                    name: name.to_owned(),
                })
            }
        })
    }

    /// The id: `family/name`.
    #[must_use]
    pub fn id(&self) -> &'static str {
        match (
            self.set,
            self.opening,
            self.white_first_own_side || self.fouls == FoulPolicy::Replay,
        ) {
            (RuleSet::Freestyle, Opening::Centre, _) => "gomoku/freestyle",
            (RuleSet::Standard, Opening::Centre, _) => "gomoku/standard",
            (RuleSet::Freestyle, _, _) => "gomoku/swap2",
            (RuleSet::Standard, _, _) => "gomoku/standard-swap2",
            (RuleSet::Renju, Opening::Centre, false) => "renju/rif",
            (RuleSet::Renju, Opening::Centre, true) => "renju/office",
            (RuleSet::Renju, _, _) => "renju/soosorv8",
        }
    }

    /// `gomoku` or `renju`.
    #[must_use]
    pub fn family(&self) -> &'static str {
        match self.set {
            RuleSet::Freestyle | RuleSet::Standard => "gomoku",
            RuleSet::Renju => "renju",
        }
    }

    /// Whether black has forbidden points.
    #[must_use]
    pub fn has_forbidden_points(&self) -> bool {
        self.set == RuleSet::Renju
    }

    /// What a stone of `color` on the empty point `p` of `board` does.
    #[must_use]
    pub fn judge(&self, board: &Board, color: Color, p: Point) -> MoveEffect {
        debug_assert!(board.is_empty_at(p));
        let longest = |exact: bool| {
            (0..4).any(|d| {
                let n = board.run_through(p, d, color);
                if exact {
                    n == 5
                } else {
                    n >= 5
                }
            })
        };
        match (self.set, color) {
            (RuleSet::Standard, _) => {
                if longest(true) {
                    MoveEffect::Wins(WinLine::Five)
                } else {
                    MoveEffect::Nothing
                }
            }
            (RuleSet::Freestyle, _) | (RuleSet::Renju, Color::White) => {
                if longest(true) {
                    MoveEffect::Wins(WinLine::Five)
                } else if longest(false) {
                    MoveEffect::Wins(WinLine::Overline)
                } else {
                    MoveEffect::Nothing
                }
            }
            (RuleSet::Renju, Color::Black) => match forbidden::verdict(&mut board.clone(), p) {
                Verdict::Five => MoveEffect::Wins(WinLine::Five),
                Verdict::Forbidden(f) => MoveEffect::Foul(f),
                Verdict::Free => MoveEffect::Nothing,
            },
        }
    }

    /// Whether `color` has a winning row anywhere on `board` under these
    /// rules (for reading a position).
    #[must_use]
    pub fn has_winning_row(&self, board: &Board, color: Color) -> bool {
        let exact = match (self.set, color) {
            (RuleSet::Standard, _) | (RuleSet::Renju, Color::Black) => true,
            (RuleSet::Freestyle, _) | (RuleSet::Renju, Color::White) => false,
        };
        board.points_of(color).any(|p| {
            (0..4).any(|d| {
                let n = board.run_through(p, d, color);
                if exact {
                    n == 5
                } else {
                    n >= 5
                }
            })
        })
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The row a winning move makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinLine {
    /// Exactly five in a row.
    Five,
    /// Six or more, where that wins (freestyle; white in renju).
    Overline,
}

/// What one move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveEffect {
    Nothing,
    Wins(WinLine),
    /// Black played a forbidden point.
    Foul(Forbidden),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for r in Rules::ALL {
            assert_eq!(Rules::from_id(r.id()), Ok(r));
        }
        assert_eq!(Rules::from_id("gomoku"), Ok(Rules::FREESTYLE));
        assert_eq!(Rules::from_id("Renju"), Ok(Rules::RIF));
        assert!(Rules::from_id("connect6")
            .unwrap_err()
            .to_string()
            .contains("connect6"));
    }
}
