//! A data-defined variant behind the one trait the session and the server
//! know ([`game::Game`]), so that putting a variant on the platform (issue 27,
//! item 7) is an entry in the registry, not code. Moves are ICCS-style
//! coordinates; there is no Chinese or WXF notation for a board the rule
//! book does not describe, so both notations of a played move repeat the
//! coordinates. Repetition is ruled by the file's rule ([`crate::Repetition`],
//! the simple rule set unless it says otherwise): a position on the board
//! for the third time ends the game — lost by a side that gave check with
//! every move since it was last there while the other did not (perpetual
//! check, 长将), drawn otherwise; 解将旗's file draws perpetual check too.

use std::sync::Arc;

use game::{Ending, Game, GameError, Outcome, PlayedMove, Side, Status};

use crate::{End, EndValue, Move, Position, Variant};

/// A game of a data-defined variant: its start, its position and its moves.
#[derive(Clone, Debug)]
pub struct VariantGame {
    initial: String,
    pos: Position,
    history: Vec<PlayedMove>,
    /// Who made each move of `history` (a turn of two moves, 杀惊遁马,
    /// has one side move twice in a row).
    movers: Vec<Side>,
    /// [`Position::key`] of the start and after each move.
    keys: Vec<u64>,
}

impl VariantGame {
    /// A game from the variant's start position.
    #[must_use]
    pub fn new(variant: Arc<Variant>) -> VariantGame {
        let pos = Position::start(variant);
        VariantGame {
            initial: pos.to_fen(),
            movers: Vec::new(),
            keys: vec![pos.key()],
            pos,
            history: Vec::new(),
        }
    }

    /// A game from `fen`.
    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<VariantGame, GameError> {
        let pos = Position::from_fen(variant, fen).map_err(|e| GameError::BadPosition(e.to_string()))?;
        Ok(VariantGame {
            initial: pos.to_fen(),
            movers: Vec::new(),
            keys: vec![pos.key()],
            pos,
            history: Vec::new(),
        })
    }

    /// The repetition rule's verdict on the position now, if it is on the
    /// board for the rule's `count`-th time: perpetual check (every move of
    /// one side since its last time here gave check, not every move of the
    /// other) is worth the rule's `perpetual_check` to the checker (the
    /// simple rule set: a loss), any other repetition draws.
    fn repetition(&self) -> Option<Ending> {
        let rule = self.pos.variant().repetition();
        let now = *self.keys.last()?;
        let seen: Vec<usize> = (0..self.keys.len()).filter(|&i| self.keys[i] == now).collect();
        if seen.len() < usize::from(rule.count) {
            return None;
        }
        // The moves since the position's last time before now.
        let from = seen[seen.len() - 2];
        let checks_all = |side: Side| {
            let mut moves = (from..self.history.len())
                .filter(|&i| self.movers[i] == side)
                .peekable();
            moves.peek().is_some() && moves.all(|i| self.history[i].check)
        };
        let (first, second) = (checks_all(Side::First), checks_all(Side::Second));
        if first != second && rule.perpetual_check == EndValue::Draw {
            let checker = if first { Side::First } else { Side::Second };
            return Some(Ending {
                outcome: Outcome::Draw,
                reason: repetition_reason(rule.count).to_owned(),
                detail: format!(
                    "{} checked with every move of a repetition, which this variant does not forbid (长将不犯规): drawn",
                    self.side_name(checker)
                ),
                article: None,
            });
        }
        Some(if first != second {
            let loser = if first { Side::First } else { Side::Second };
            Ending {
                outcome: Outcome::Win {
                    winner: loser.other(),
                },
                reason: "perpetual_check".to_owned(),
                detail: format!(
                    "{} checked with every move of a repetition (长将) and loses",
                    self.side_name(loser)
                ),
                article: None,
            }
        } else {
            Ending {
                outcome: Outcome::Draw,
                reason: repetition_reason(rule.count).to_owned(),
                detail: format!("the same position {} times: drawn", rule.count),
                article: None,
            }
        })
    }

    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

/// The ending's reason code for a repetition drawn at the `count`-th time
/// (the names the platform already gives: threefold, fivefold).
fn repetition_reason(count: u8) -> &'static str {
    match count {
        3 => "threefold_repetition",
        5 => "fivefold_repetition",
        _ => "repetition",
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
        if self.repetition().is_some() {
            return Vec::new();
        }
        let mut moves: Vec<String> = self.pos.legal_moves().iter().map(ToString::to_string).collect();
        moves.sort();
        moves
    }

    /// The side not to move's moves by movement alone (`Position::premoves`),
    /// none once the game is over: the browser has no rules of a data
    /// variant to find them.
    fn premoves(&self) -> Vec<String> {
        if matches!(self.status(), Status::Over(_)) {
            return Vec::new();
        }
        let mut moves: Vec<String> = self.pos.premoves().iter().map(ToString::to_string).collect();
        moves.sort();
        moves.dedup();
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
        let capture = m.moves_a_piece() && self.pos.piece_at(m.to).is_some();
        let mover = self.pos.turn();
        self.pos.play(m).map_err(|e| GameError::IllegalMove {
            text: coord.to_owned(),
            reason: e.to_string(),
        })?;
        let played = PlayedMove {
            coord: m.to_string(),
            display: m.to_string(),
            alt: m.to_string(),
            capture,
            // A move after which the mover moves again (a flag's step, the
            // first of two moves) gives no check: the mover is to move.
            check: self.pos.turn() != mover && self.pos.is_check(),
        };
        self.history.push(played.clone());
        self.movers.push(mover);
        self.keys.push(self.pos.key());
        Ok(played)
    }

    fn history(&self) -> &[PlayedMove] {
        &self.history
    }

    fn status(&self) -> Status {
        match self.pos.end() {
            None => self.repetition().map_or(Status::Ongoing, Status::Over),
            Some((end, outcome)) => {
                let (reason, detail) = match end {
                    End::Checkmate => ("checkmate", "checkmate (将死)"),
                    End::Stalemate => ("stalemate", "no legal move (困毙)"),
                    End::Bikjang => (
                        "bikjang",
                        "a pass with the kings facing (빅장), scored by counting",
                    ),
                    End::Passes => ("passes", "both sides passed, scored by counting"),
                    End::FlagTaken => ("flag_taken", "a flag taken on the ring (解将旗)"),
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

    /// The simple rule set: knights to and fro until the start is on the
    /// board a third time — a draw; a rook checking with every move while
    /// the king steps to and fro — the checker loses; a position twice is
    /// nothing yet.
    #[test]
    fn threefold_repetition_draws_and_perpetual_check_loses() {
        let variant = Arc::new(Variant::from_toml(crate::XIANGQI_TOML).unwrap());
        let mut g = VariantGame::new(variant.clone());
        for m in ["b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "c2b0"] {
            g.play(m).unwrap();
            assert_eq!(g.status(), Status::Ongoing, "after {m}");
        }
        g.play("c7b9").unwrap();
        let Status::Over(e) = g.status() else {
            panic!("not over")
        };
        assert_eq!(
            (e.outcome, e.reason.as_str()),
            (Outcome::Draw, "threefold_repetition")
        );
        assert!(g.legal_moves().is_empty());
        assert_eq!(g.play("b0c2"), Err(GameError::GameOver));

        let mut g = VariantGame::from_fen(variant, "3k5/9/9/9/9/9/9/9/9/R4K3 w").unwrap();
        for m in ["a0d0", "d9e9", "d0e0", "e9d9", "e0d0", "d9e9", "d0e0", "e9d9"] {
            g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            assert_eq!(g.status(), Status::Ongoing, "after {m}");
        }
        g.play("e0d0").unwrap();
        let Status::Over(e) = g.status() else {
            panic!("not over")
        };
        assert_eq!(e.reason, "perpetual_check");
        assert_eq!(e.outcome, Outcome::Win { winner: Side::Second });
    }

    /// The premoves a data variant's game sends (`Game::premoves`): the
    /// side not to move's moves by movement alone. At the start they are
    /// Black's legal moves (nothing is pinned or in check); a horse that the
    /// flying-general rule pins may still be premoved (check is
    /// ignored: the server tries the premove when its turn comes); none
    /// once the game is over.
    #[test]
    fn premoves_are_the_other_sides_moves_by_movement_alone() {
        let variant = Arc::new(Variant::from_toml(crate::XIANGQI_TOML).unwrap());
        let start = VariantGame::new(variant.clone());
        let black = VariantGame::from_fen(variant.clone(), &start.fen().replacen(" w ", " b ", 1)).unwrap();
        assert_eq!(start.premoves(), black.legal_moves());
        assert!(
            !start.premoves().contains(&"h0g2".to_owned()),
            "Red's move is no premove of Red's opponent"
        );

        let pinned = VariantGame::from_fen(variant.clone(), "4k4/9/9/9/4n4/9/9/9/9/4K4 w").unwrap();
        assert!(pinned.premoves().contains(&"e5d3".to_owned()));
        let black = VariantGame::from_fen(variant.clone(), "4k4/9/9/9/4n4/9/9/9/9/4K4 b").unwrap();
        assert!(
            !black.legal_moves().contains(&"e5d3".to_owned()),
            "the horse is pinned"
        );

        let mut mate = VariantGame::from_fen(variant, "3k5/8R/9/9/9/9/9/9/9/R3K4 w").unwrap();
        assert!(!mate.premoves().is_empty());
        mate.play("a0a9").unwrap();
        assert!(matches!(mate.status(), Status::Over(_)), "{}", mate.fen());
        assert!(mate.premoves().is_empty());
    }

    /// A file's own repetition rule: the second time ends the game where
    /// `count = 2` (and the first time again does not), drawn even for the
    /// perpetual checker where `perpetual_check = "draw"`.
    #[test]
    fn a_file_chooses_its_repetition_rule() {
        let text = format!(
            "{}\n[[rules.repetition]]\ncount = 2\nperpetual_check = \"draw\"\n",
            crate::XIANGQI_TOML
        );
        let variant = Arc::new(Variant::from_toml(&text).unwrap());
        let mut g = VariantGame::from_fen(variant, "3k5/9/9/9/9/9/9/9/9/R4K3 w").unwrap();
        for m in ["a0d0", "d9e9", "d0e0", "e9d9"] {
            g.play(m).unwrap();
            assert_eq!(g.status(), Status::Ongoing, "after {m}");
        }
        g.play("e0d0").unwrap();
        let Status::Over(e) = g.status() else {
            panic!("not over")
        };
        assert_eq!((e.outcome, e.reason.as_str()), (Outcome::Draw, "repetition"));
    }
}
