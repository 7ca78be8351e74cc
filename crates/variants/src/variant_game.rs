//! A data-defined variant behind the one trait the session and the server
//! know ([`game::Game`]), so that putting a variant on the platform (issue 27,
//! item 7) is an entry in the registry, not code. Moves are ICCS-style
//! coordinates; there is no Chinese or WXF notation for a board the rule
//! book does not describe, so both notations of a played move repeat the
//! coordinates. Repetition (棋例) is not ruled here.

use std::sync::Arc;

use game::{Ending, Game, GameError, PlayedMove, Side, Status};

use crate::{End, Move, Position, Variant};

/// A game of a data-defined variant: its start, its position and its moves.
#[derive(Clone, Debug)]
pub struct VariantGame {
    initial: String,
    pos: Position,
    history: Vec<PlayedMove>,
}

impl VariantGame {
    /// A game from the variant's start position.
    #[must_use]
    pub fn new(variant: Arc<Variant>) -> VariantGame {
        let pos = Position::start(variant);
        VariantGame {
            initial: pos.to_fen(),
            pos,
            history: Vec::new(),
        }
    }

    /// A game from `fen`.
    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<VariantGame, GameError> {
        let pos = Position::from_fen(variant, fen).map_err(|e| GameError::BadPosition(e.to_string()))?;
        Ok(VariantGame {
            initial: pos.to_fen(),
            pos,
            history: Vec::new(),
        })
    }

    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

impl Game for VariantGame {
    /// The data-defined variants' family: one board renderer will draw
    /// any board and piece set a file defines, so they are not Xiangqi's
    /// (whose renderer draws 9×10 and its seven pieces).
    fn family(&self) -> &'static str {
        "variants"
    }

    /// The registry's id, `variants/NAME`.
    fn variant(&self) -> String {
        format!("variants/{}", self.pos.variant().name())
    }

    fn initial_fen(&self) -> String {
        self.initial.clone()
    }

    fn fen(&self) -> String {
        self.pos.to_fen()
    }

    fn side_to_move(&self) -> Side {
        self.pos.turn()
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves: Vec<String> = self.pos.legal_moves().iter().map(ToString::to_string).collect();
        moves.sort();
        moves
    }

    fn play(&mut self, coord: &str) -> Result<PlayedMove, GameError> {
        if matches!(self.status(), Status::Over(_)) {
            return Err(GameError::GameOver);
        }
        let m = Move::parse(coord).ok_or_else(|| GameError::BadMove {
            text: coord.to_owned(),
            reason: "not two squares in ICCS coordinates (e.g. h2e2)".to_owned(),
        })?;
        let capture = !Position::is_pass(m) && self.pos.piece_at(m.to).is_some();
        self.pos.play(m).map_err(|e| GameError::IllegalMove {
            text: coord.to_owned(),
            reason: e.to_string(),
        })?;
        let played = PlayedMove {
            coord: m.to_string(),
            display: m.to_string(),
            alt: m.to_string(),
            capture,
            check: self.pos.is_check(),
        };
        self.history.push(played.clone());
        Ok(played)
    }

    fn history(&self) -> &[PlayedMove] {
        &self.history
    }

    fn status(&self) -> Status {
        match self.pos.end() {
            None => Status::Ongoing,
            Some((end, outcome)) => {
                let (reason, detail) = match end {
                    End::Checkmate => ("checkmate", "checkmate (将死)"),
                    End::Stalemate => ("stalemate", "no legal move (困毙)"),
                    End::Bikjang => (
                        "bikjang",
                        "a pass with the kings facing (빅장), scored by counting",
                    ),
                    End::Passes => ("passes", "both sides passed, scored by counting"),
                };
                Status::Over(Ending {
                    outcome,
                    reason: reason.to_owned(),
                    detail: detail.to_owned(),
                    article: None,
                })
            }
        }
    }

    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "Red",
            Side::Second => "Black",
        }
    }

    fn boxed_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Outcome;

    #[test]
    fn a_short_game_through_the_trait() {
        let variant = Arc::new(Variant::from_toml(crate::XIANGQI_TOML).unwrap());
        let mut g: Box<dyn Game> = Box::new(VariantGame::new(variant.clone()));
        assert_eq!(g.legal_moves().len(), 44);
        assert!(matches!(g.play("h2e3"), Err(GameError::IllegalMove { .. })));
        assert!(matches!(g.play("h2"), Err(GameError::BadMove { .. })));
        // 炮二平五, 马8进7, 炮五进四: the cannon takes the central pawn over
        // the e3 pawn; with nothing between e6 and e9 it gives no check.
        for m in ["h2e2", "h9g7", "e2e6"] {
            g.play(m).unwrap();
        }
        let last = g.history().last().unwrap();
        assert!(last.capture && !last.check, "{last:?}");
        assert_eq!(g.side_to_move(), Side::Second);
        assert_eq!(g.status(), Status::Ongoing);

        let mut mate = VariantGame::from_fen(variant, "3k5/4R4/9/9/9/9/9/9/5R3/4K4 w").unwrap();
        mate.play("f1f9").unwrap();
        let Status::Over(ending) = mate.status() else {
            panic!("not over")
        };
        assert_eq!(ending.reason, "checkmate");
        assert_eq!(ending.outcome, Outcome::Win { winner: Side::First });
        assert_eq!(mate.play("d9d8"), Err(GameError::GameOver));
    }
}
