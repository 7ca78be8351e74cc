//! A position under a rule set: the board, the side to move, and whether the
//! game has ended. The only way from a [`Setup`] to a `Position` is
//! [`Position::from_setup`], which says what is wrong; [`Position::play`]
//! checks a move and [`Position::play_unchecked`] serves the search.

use crate::board::Board;
use crate::fen::{board_fen, Setup};
use crate::forbidden::Forbidden;
use crate::point::{Color, Point, POINTS, SIZE};
use crate::rules::{FoulPolicy, MoveEffect, Rules, WinLine};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Exactly five in a row.
    Five,
    /// Six or more in a row, where that wins.
    Overline,
    /// Black played a forbidden point and loses.
    Foul(Forbidden),
    /// The board is full and nobody has won.
    FullBoard,
}

impl Reason {
    /// Machine-readable name: `five`, `overline`, `forbidden_overline`,
    /// `forbidden_double_four`, `forbidden_double_three`, `full_board`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Overline => "overline",
            Reason::Foul(Forbidden::Overline) => "forbidden_overline",
            Reason::Foul(Forbidden::DoubleFour) => "forbidden_double_four",
            Reason::Foul(Forbidden::DoubleThree) => "forbidden_double_three",
            Reason::FullBoard => "full_board",
        }
    }
}

/// The end of a game: who won (none for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct End {
    pub winner: Option<Color>,
    pub reason: Reason,
}

/// What is wrong with a setup under a rule set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(
        "black has {black} and white {white} stones, but {turn} is to move: black moves first, so with black to move \
         the counts are equal and with white to move black has one more"
    )]
    StoneCounts { black: usize, white: usize, turn: Color },
    #[error("both black and white have a winning row on the board")]
    BothWon,
    #[error(
        "{color} has a winning row on the board but is to move: the game ended with {color}'s last move"
    )]
    WinnerToMove { color: Color },
    #[error(
        "black has an overline on the board, which lost the game (a forbidden move), yet black is to move"
    )]
    StandingOverline,
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the game is over")]
    GameOver,
    #[error("{point} is taken")]
    Occupied { point: Point },
    #[error("black's first stone goes on the centre, h8 (天元), not {point}")]
    CentreFirst { point: Point },
    #[error("white's first stone goes on white's side of the centre line (rows 9–15), not {point}")]
    WhiteFirstOwnSide { point: Point },
    #[error("there is no forbidden stone of black's to point out")]
    NoFoulToClaim,
}

/// A position: board, side to move, rule set, and the result once over.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: Board,
    turn: Color,
    rules: Rules,
    end: Option<End>,
    /// Under the office rules, black's last stone if it stands on a forbidden
    /// point that white has not (yet) pointed out.
    foul: Option<(Point, Forbidden)>,
}

impl Position {
    /// The empty board, black to move.
    #[must_use]
    pub fn new(rules: Rules) -> Position {
        Position {
            board: Board::empty(),
            turn: Color::Black,
            rules,
            end: None,
            foul: None,
        }
    }

    /// Checks a setup under `rules`: the stone counts must fit the side to
    /// move (black moves first), and a winning row on the board must belong
    /// to the side that moved last (the game is then over).
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Position, PositionError> {
        let Setup { board, turn } = setup;
        let black = board.count(Color::Black);
        let white = board.count(Color::White);
        let fits = match turn {
            Color::Black => black == white,
            Color::White => black == white + 1,
        };
        if !fits {
            return Err(PositionError::StoneCounts { black, white, turn });
        }
        let won = |c: Color| rules.has_winning_row(&board, c);
        let (black_won, white_won) = (won(Color::Black), won(Color::White));
        if black_won && white_won {
            return Err(PositionError::BothWon);
        }
        let mut end = None;
        for (color, has) in [(Color::Black, black_won), (Color::White, white_won)] {
            if has {
                if color == turn {
                    return Err(PositionError::WinnerToMove { color });
                }
                end = Some(End {
                    winner: Some(color),
                    reason: Reason::Five,
                });
            }
        }
        let black_overline = rules.has_forbidden_points()
            && rules.fouls == FoulPolicy::Lose
            && board
                .points_of(Color::Black)
                .any(|p| (0..4).any(|d| board.run_through(p, d, Color::Black) >= 6));
        if end.is_none() && black_overline {
            if turn == Color::Black {
                return Err(PositionError::StandingOverline);
            }
            end = Some(End {
                winner: Some(Color::White),
                reason: Reason::Foul(Forbidden::Overline),
            });
        }
        if end.is_none() && board.is_full() {
            end = Some(End {
                winner: None,
                reason: Reason::FullBoard,
            });
        }
        Ok(Position {
            board,
            turn,
            rules,
            end,
            foul: None,
        })
    }

    /// Reads a position text under `rules`.
    pub fn from_fen(text: &str, rules: Rules) -> Result<Position, crate::Error> {
        Ok(Position::from_setup(Setup::from_fen(text)?, rules)?)
    }

    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// Under the office rules: black's last stone, if it stands on a
    /// forbidden point that white may still point out.
    #[must_use]
    pub fn pending_foul(&self) -> Option<(Point, Forbidden)> {
        self.foul
    }

    #[must_use]
    pub fn fen(&self) -> String {
        board_fen(&self.board, self.turn)
    }

    #[must_use]
    pub fn setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
        }
    }

    /// Why `p` cannot be played now, if it cannot.
    pub fn check(&self, p: Point) -> Result<(), PlayError> {
        if self.end.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.board.is_empty_at(p) {
            return Err(PlayError::Occupied { point: p });
        }
        if self.rules.centre_first && self.board.stones() == 0 && p != Point::CENTRE {
            return Err(PlayError::CentreFirst { point: p });
        }
        if self.rules.white_first_own_side
            && self.turn == Color::White
            && self.board.count(Color::White) == 0
            && p.row() < SIZE / 2 + 1
        {
            return Err(PlayError::WhiteFirstOwnSide { point: p });
        }
        Ok(())
    }

    /// The points the side to move may play, in point order. A forbidden
    /// point is among them: black may play it, and loses (RIF), or has it
    /// pointed out (office rules).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Point> {
        if self.end.is_some() {
            return Vec::new();
        }
        let mut v = Vec::with_capacity(POINTS - self.board.stones());
        v.extend(Point::all().filter(|&p| self.check(p).is_ok()));
        v
    }

    /// Plays `p` after checking it; returns the result if the game ends.
    pub fn play(&mut self, p: Point) -> Result<Option<End>, PlayError> {
        self.check(p)?;
        Ok(self.play_unchecked(p))
    }

    /// Plays `p`, which must be an empty point of a game still going on.
    pub fn play_unchecked(&mut self, p: Point) -> Option<End> {
        let color = self.turn;
        let effect = self.rules.judge(&self.board, color, p);
        self.board.set(p, color);
        self.turn = color.other();
        self.foul = None;
        self.end = match effect {
            MoveEffect::Wins(line) => Some(End {
                winner: Some(color),
                reason: match line {
                    WinLine::Five => Reason::Five,
                    WinLine::Overline => Reason::Overline,
                },
            }),
            MoveEffect::Foul(f) => match self.rules.fouls {
                FoulPolicy::Lose => Some(End {
                    winner: Some(Color::White),
                    reason: Reason::Foul(f),
                }),
                FoulPolicy::Replay => {
                    self.foul = Some((p, f));
                    None
                }
            },
            MoveEffect::Nothing => None,
        };
        if self.end.is_none() && self.board.is_full() {
            self.end = Some(End {
                winner: None,
                reason: Reason::FullBoard,
            });
        }
        self.end
    }

    /// Office rules: white points out black's forbidden stone; it is taken
    /// back and black moves again. Returns the point and why it was
    /// forbidden.
    pub fn claim_foul(&mut self) -> Result<(Point, Forbidden), PlayError> {
        let (p, f) = self.foul.take().ok_or(PlayError::NoFoulToClaim)?;
        self.board.clear(p);
        self.turn = Color::Black;
        // A full board cannot follow a forbidden stone that is taken back.
        self.end = None;
        Ok((p, f))
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {}, {:?})", self.fen(), self.rules, self.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn counts_must_fit_the_side_to_move() {
        let e =
            Position::from_fen("15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 b", Rules::RIF).unwrap_err();
        assert!(e.to_string().contains("black has 1 and white 0 stones"), "{e}");
        assert!(Position::from_fen("15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w", Rules::RIF).is_ok());
    }

    #[test]
    fn first_moves() {
        let mut pos = Position::new(Rules::RIF);
        assert_eq!(pos.legal_moves(), vec![Point::CENTRE]);
        assert_eq!(
            pos.play(pt("a1")),
            Err(PlayError::CentreFirst { point: pt("a1") })
        );
        pos.play(Point::CENTRE).unwrap();
        assert_eq!(pos.legal_moves().len(), 224);

        let mut office = Position::new(Rules::OFFICE);
        office.play(Point::CENTRE).unwrap();
        assert_eq!(
            office.play(pt("h7")),
            Err(PlayError::WhiteFirstOwnSide { point: pt("h7") })
        );
        assert_eq!(
            office.play(pt("i8")),
            Err(PlayError::WhiteFirstOwnSide { point: pt("i8") })
        );
        assert_eq!(office.legal_moves().len(), 15 * 7);
        office.play(pt("i9")).unwrap();
        assert!(office.play(pt("a1")).is_ok(), "later stones go anywhere");
    }

    #[test]
    fn a_finished_setup_is_over() {
        // Black five on row 8, white to move: black won.
        let pos = Position::from_fen(
            "15/15/15/15/15/15/15/5xxxxx5/oooo11/15/15/15/15/15/15 w",
            Rules::RIF,
        )
        .unwrap();
        assert_eq!(
            pos.end(),
            Some(End {
                winner: Some(Color::Black),
                reason: Reason::Five
            })
        );
        assert!(pos.legal_moves().is_empty());
        let e = Position::from_fen(
            "15/15/15/15/15/15/15/5xxxxx5/ooooo10/15/15/15/15/15/15 b",
            Rules::RIF,
        )
        .unwrap_err();
        assert_eq!(e, crate::Error::Position(PositionError::BothWon));
    }
}
