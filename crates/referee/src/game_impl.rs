//! [`XiangqiGame`]: a Xiangqi game refereed move by move, behind the
//! game-agnostic [`game::Game`] trait that the session and the server use.

use crate::{ending, judge_history, parse_iccs, Config, Decision, History, Judgement, RuleSet};
use game::{Ending, Game, GameError, Outcome, PlayedMove, Side, Status};
use xiangqi::notation::{format_move, Notation};
use xiangqi::{Color, Position};

/// A Xiangqi game under a rule set: the start position, the moves, and the
/// referee's ruling after the last one.
#[derive(Clone, Debug)]
pub struct XiangqiGame {
    config: Config,
    initial_fen: String,
    history: History,
    played: Vec<PlayedMove>,
    judgement: Judgement,
}

impl XiangqiGame {
    /// A game from a FEN (or `startpos`) under `rules` with the book's
    /// numbers (60-round natural limit, three fouls, threefold repetition).
    ///
    /// # Errors
    /// [`GameError::BadPosition`] for a FEN that is not a legal position.
    pub fn new(fen_or_startpos: &str, rules: RuleSet) -> Result<Self, GameError> {
        Self::with_config(fen_or_startpos, Config::new(rules))
    }

    /// Like [`XiangqiGame::new`] with the organiser's numbers.
    ///
    /// # Errors
    /// [`GameError::BadPosition`] for a FEN that is not a legal position.
    pub fn with_config(fen_or_startpos: &str, config: Config) -> Result<Self, GameError> {
        let start = Position::from_fen(fen_or_startpos).map_err(|e| GameError::BadPosition(e.to_string()))?;
        let mut history = History::new(start.clone(), config.rules);
        let judgement = judge_history(&mut history, &config);
        Ok(XiangqiGame {
            config,
            initial_fen: start.fen(),
            history,
            played: Vec::new(),
            judgement,
        })
    }

    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    #[must_use]
    pub fn rules(&self) -> RuleSet {
        self.config.rules
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.history.position()
    }

    /// The referee's full ruling after the last move, with the classified
    /// cycle when a repetition was ruled.
    #[must_use]
    pub fn judgement(&self) -> &Judgement {
        &self.judgement
    }
}

fn ending_of(j: &Judgement, outcome: Outcome) -> Ending {
    Ending {
        outcome,
        reason: j.reason.clone(),
        detail: j.detail.clone(),
        article: j.article.clone(),
    }
}

fn win(c: Color) -> Outcome {
    Outcome::Win { winner: c.into() }
}

impl Game for XiangqiGame {
    fn family(&self) -> &'static str {
        "xiangqi"
    }

    fn side_name(&self, side: Side) -> &'static str {
        Color::from(side).name()
    }

    fn variant(&self) -> String {
        format!("xiangqi/{}", self.config.rules)
    }

    fn initial_fen(&self) -> String {
        self.initial_fen.clone()
    }

    fn fen(&self) -> String {
        self.position().fen()
    }

    fn side_to_move(&self) -> Side {
        self.position().turn().into()
    }

    fn legal_moves(&self) -> Vec<String> {
        if matches!(self.status(), Status::Over(_)) {
            return Vec::new();
        }
        // Sorted as moves, then formatted: no string comparisons.
        let mut moves = self.position().legal_moves();
        moves.sort_unstable_by_key(|m| m.iccs_order());
        moves.iter().map(|m| m.iccs()).collect()
    }

    fn play(&mut self, coord: &str) -> Result<PlayedMove, GameError> {
        if matches!(self.status(), Status::Over(_)) {
            return Err(GameError::GameOver);
        }
        let m = parse_iccs(coord).ok_or_else(|| GameError::BadMove {
            text: coord.to_string(),
            reason: "expected ICCS coordinates such as h2e2".to_string(),
        })?;
        let before = self.position();
        let capture = before.is_capture(m);
        before.check_move(m).map_err(|e| GameError::IllegalMove {
            text: coord.to_string(),
            reason: e.to_string(),
        })?;
        let iccs = m.iccs();
        let display = format_move(before, m, Notation::Chinese);
        let alt = format_move(before, m, Notation::Wxf);
        self.history.play(m).map_err(|e| GameError::IllegalMove {
            text: coord.to_string(),
            reason: e.to_string(),
        })?;
        let check = self.position().is_check();
        let played = PlayedMove {
            coord: iccs,
            display,
            alt,
            capture,
            check,
        };
        self.played.push(played.clone());
        self.judgement = judge_history(&mut self.history, &self.config);
        Ok(played)
    }

    fn history(&self) -> &[PlayedMove] {
        &self.played
    }

    fn status(&self) -> Status {
        let j = &self.judgement;
        match j.decision {
            Decision::Ongoing => Status::Ongoing,
            Decision::Draw => Status::Over(ending_of(j, Outcome::Draw)),
            Decision::RedWins => Status::Over(ending_of(j, win(Color::Red))),
            Decision::BlackWins => Status::Over(ending_of(j, win(Color::Black))),
            Decision::MustChange { side } => Status::MustChange {
                side: side.into(),
                detail: j.detail.clone(),
                article: j.article.clone(),
            },
        }
    }

    fn claimable_draw(&self) -> Option<Ending> {
        if matches!(self.status(), Status::Over(_)) {
            return None;
        }
        let pos = self.position();
        let plies = pos.halfmove_clock();
        let claimant = pos.turn();
        // The claimant's checks among the plies since the last capture
        // (those before the game's start position are unknown: none).
        let n = self.played.len();
        let window = (plies as usize).min(n);
        let checks = (n - window..n)
            .filter(|&i| self.played[i].check && self.history.position_before(i).turn() == claimant)
            .count() as u32;
        ending::natural_limit(plies, checks, &self.config)
    }

    fn boxed_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_and_refuses() {
        let mut g = XiangqiGame::new("startpos", RuleSet::Cxa).unwrap();
        assert_eq!(g.family(), "xiangqi");
        assert_eq!(g.variant(), "xiangqi/cxa");
        assert_eq!(g.legal_moves().len(), 44);
        let pm = g.play("h2e2").unwrap();
        assert_eq!(pm.coord, "h2e2");
        assert_eq!(pm.display, "炮二平五");
        assert_eq!(pm.alt, "C2=5");
        assert!(!pm.capture && !pm.check);
        assert_eq!(g.side_to_move(), Side::Second);
        let fen = g.fen();
        assert!(matches!(g.play("h2e2"), Err(GameError::IllegalMove { .. })));
        assert!(matches!(g.play("zz"), Err(GameError::BadMove { .. })));
        assert_eq!(g.fen(), fen, "a refused move changes nothing");
        assert_eq!(g.history().len(), 1);
        assert_eq!(g.status(), Status::Ongoing);
        assert!(XiangqiGame::new("not a fen", RuleSet::Cxa).is_err());
    }

    #[test]
    fn checkmate_ends_the_game() {
        let mut g = XiangqiGame::new("4k4/8R/9/9/9/9/9/9/9/R2K5 w", RuleSet::Simple).unwrap();
        g.play("a0a9").unwrap();
        match g.status() {
            Status::Over(e) => {
                assert_eq!(e.reason, "checkmate");
                assert_eq!(e.outcome.winner(), Some(Side::First));
            }
            s => panic!("{s:?}"),
        }
        assert_eq!(g.play("e9e8"), Err(GameError::GameOver));
        assert!(g.legal_moves().is_empty());
    }

    #[test]
    fn simple_threefold_draws_and_perpetual_check_loses() {
        // Both sides shuffle: threefold repetition, a draw.
        let mut g = XiangqiGame::new("startpos", RuleSet::Simple).unwrap();
        for m in ["b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "c2b0", "c7b9"] {
            assert!(!matches!(g.status(), Status::Over(_)));
            g.play(m).unwrap();
        }
        match g.status() {
            Status::Over(e) => assert_eq!(e.outcome, Outcome::Draw),
            s => panic!("{s:?}"),
        }
        // Red checks on every move, black steps to and fro: red loses.
        let mut g = XiangqiGame::new("3k5/9/9/9/9/9/9/9/9/R4K3 w", RuleSet::Simple).unwrap();
        for m in ["a0d0", "d9e9", "d0e0", "e9d9", "e0d0", "d9e9", "d0e0", "e9d9"] {
            g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        g.play("e0d0").unwrap();
        match g.status() {
            Status::Over(e) => {
                assert_eq!(e.reason, "perpetual_check");
                assert_eq!(e.outcome.winner(), Some(Side::Second));
            }
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn natural_limit_is_claimable() {
        let g = XiangqiGame::new("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 120 70", RuleSet::Cxa).unwrap();
        assert_eq!(
            g.claimable_draw().map(|e| e.reason),
            Some("natural_limit".to_string())
        );
        let g = XiangqiGame::new("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 100 60", RuleSet::Cxa).unwrap();
        assert!(g.claimable_draw().is_none());
    }

    #[test]
    fn cxa_told_to_change_then_loses() {
        // 图22: red's rook chases the pawn back and forth (长捉), black's
        // pawn moves are idle. The threefold position makes red change;
        // red repeating its chase once more loses.
        let mut g =
            XiangqiGame::new("2b1kr3/1r2a4/4ba3/1N1R5/9/4p4/9/4B4/4A4/3AK1B2 w", RuleSet::Cxa).unwrap();
        let cycle = ["d6e6", "e4d4", "e6d6", "d4e4"];
        for m in cycle.iter().chain(cycle.iter()) {
            assert!(!matches!(g.status(), Status::Over(_)), "{m}");
            g.play(m).unwrap();
        }
        match g.status() {
            Status::MustChange { side, .. } => assert_eq!(side, Side::First),
            s => panic!("{s:?}"),
        }
        g.play("d6e6").unwrap();
        match g.status() {
            Status::Over(e) => {
                assert_eq!(e.outcome.winner(), Some(Side::Second));
                assert_eq!(e.article.as_deref(), Some("26.4"));
            }
            s => panic!("{s:?}"),
        }
    }
}
