//! Gomoku and renju behind the platform's `game::Game` trait. Moves cross it
//! as point names (`h8`); under the office rules white may also play
//! `foul`, pointing out black's forbidden stone so that black plays again.
//! A played move's `alt` is the point in Gomocup protocol coordinates.

use crate::fen::Setup;
use crate::point::{Color, Point};
use crate::position::{End, PlayError, Position, Reason};
use crate::rules::Rules;
use game::{Ending, Game, GameError, Outcome, PlayedMove, Side, Status};

/// The move text with which white points out a forbidden stone (office rules).
pub const CLAIM_FOUL: &str = "foul";

/// A game of gomoku or renju with its history.
#[derive(Clone, Debug)]
pub struct RenjuGame {
    start: Position,
    pos: Position,
    history: Vec<PlayedMove>,
}

impl RenjuGame {
    /// A game from the empty board.
    #[must_use]
    pub fn new(rules: Rules) -> RenjuGame {
        RenjuGame::from_position(Position::new(rules))
    }

    #[must_use]
    pub fn from_position(pos: Position) -> RenjuGame {
        RenjuGame {
            start: pos.clone(),
            pos,
            history: Vec::new(),
        }
    }

    /// A game from a position text.
    pub fn from_fen(text: &str, rules: Rules) -> Result<RenjuGame, GameError> {
        let setup = Setup::from_fen(text).map_err(|e| GameError::BadPosition(e.to_string()))?;
        let pos = Position::from_setup(setup, rules).map_err(|e| GameError::BadPosition(e.to_string()))?;
        Ok(RenjuGame::from_position(pos))
    }

    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

fn played(coord: String, alt: String) -> PlayedMove {
    PlayedMove {
        display: coord.clone(),
        alt,
        coord,
        capture: false,
        check: false,
    }
}

/// A point in the Gomocup (Piskvork) protocol's coordinates: `x,y` from 0,
/// x from the left, y from the top (h8 is `7,7`, a1 is `0,14`).
#[must_use]
pub fn gomocup(p: Point) -> String {
    format!("{},{}", p.col(), crate::SIZE - 1 - p.row())
}

/// The platform's ending for a result.
#[must_use]
pub fn ending(end: End) -> Ending {
    let outcome = match end.winner {
        Some(c) => Outcome::Win { winner: c.side() },
        None => Outcome::Draw,
    };
    let who = |c: Option<Color>| match c {
        Some(Color::Black) => "Black",
        Some(Color::White) => "White",
        None => "Nobody",
    };
    let detail = match end.reason {
        Reason::Five => format!("{} made five in a row", who(end.winner)),
        Reason::Overline => format!("{} made six or more in a row, which wins", who(end.winner)),
        Reason::Foul(f) => format!("Black played a forbidden point ({f}) and loses"),
        Reason::FullBoard => "The board is full with no five in a row: a draw".to_owned(),
    };
    Ending {
        outcome,
        reason: end.reason.code().to_owned(),
        detail,
        article: None,
    }
}

impl Game for RenjuGame {
    fn family(&self) -> &'static str {
        self.pos.rules().family()
    }

    fn variant(&self) -> String {
        self.pos.rules().id().to_owned()
    }

    fn initial_fen(&self) -> String {
        self.start.fen()
    }

    fn fen(&self) -> String {
        self.pos.fen()
    }

    fn side_to_move(&self) -> Side {
        self.pos.turn().side()
    }

    /// The legal points in point order (column, then row), then `foul` when
    /// white may point one out.
    fn legal_moves(&self) -> Vec<String> {
        let mut v: Vec<String> = self.pos.legal_moves().iter().map(Point::to_string).collect();
        if self.pos.pending_foul().is_some() {
            v.push(CLAIM_FOUL.to_owned());
        }
        v
    }

    fn play(&mut self, coord: &str) -> Result<PlayedMove, GameError> {
        let illegal = |e: PlayError| GameError::IllegalMove {
            text: coord.to_owned(),
            reason: e.to_string(),
        };
        if coord.trim() == CLAIM_FOUL {
            let (p, f) = self.pos.claim_foul().map_err(illegal)?;
            let mut m = played(CLAIM_FOUL.to_owned(), String::new());
            m.display = format!("{CLAIM_FOUL} {p} ({f})");
            self.history.push(m);
            return Ok(self.history.last().expect("just pushed").clone());
        }
        let p: Point = coord
            .trim()
            .parse()
            .map_err(|e: crate::PointError| GameError::BadMove {
                text: coord.to_owned(),
                reason: e.to_string(),
            })?;
        if self.pos.end().is_some() {
            return Err(GameError::GameOver);
        }
        self.pos.play(p).map_err(illegal)?;
        self.history.push(played(p.to_string(), gomocup(p)));
        Ok(self.history.last().expect("just pushed").clone())
    }

    fn history(&self) -> &[PlayedMove] {
        &self.history
    }

    fn status(&self) -> Status {
        match self.pos.end() {
            Some(end) => Status::Over(ending(end)),
            None => Status::Ongoing,
        }
    }

    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "Black",
            Side::Second => "White",
        }
    }

    fn boxed_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_through_the_trait() {
        let mut g: Box<dyn Game> = Box::new(RenjuGame::new(Rules::RIF));
        assert_eq!(g.variant(), "renju/rif");
        assert_eq!(g.legal_moves(), vec!["h8"]);
        assert!(matches!(g.play("a1"), Err(GameError::IllegalMove { .. })));
        assert!(matches!(g.play("z1"), Err(GameError::BadMove { .. })));
        for m in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"] {
            g.play(m).unwrap();
            assert_eq!(g.status(), Status::Ongoing);
        }
        g.play("l8").unwrap();
        let Status::Over(e) = g.status() else { panic!() };
        assert_eq!(e.outcome, Outcome::Win { winner: Side::First });
        assert_eq!(e.reason, "five");
        assert_eq!(g.play("b1"), Err(GameError::GameOver));
        let copy = g.clone();
        assert_eq!(copy.history().len(), 9);
        assert_eq!(copy.history()[0].alt, "7,7");
        assert_eq!(gomocup("a1".parse().unwrap()), "0,14");
    }
}
