//! [`ChessGame`]: a chess game refereed move by move under the FIDE Laws,
//! behind the game-agnostic [`game::Game`] trait.
//!
//! The position is a shakmaty [`Chess`]; each move appends one Zobrist key
//! to the game's list of keys, so a repetition (FIDE Laws 9.2.3: same
//! pieces on the same squares, same side to move, same castling rights,
//! and an en passant capture only when one is actually legal) is counted
//! by comparing keys, never by copying or replaying the history.

use crate::ending::{self, color, name, side};
use crate::fen::{parse_fen, write_fen};
use crate::notation::{legal_uci_moves, parse_uci, uci};
use crate::Variant;
use game::{Ending, Game, GameError, PlayedMove, Side, Status};
use shakmaty::san::SanPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position};

/// A chess game: the start, the moves, the position and what the Laws say
/// about it now.
#[derive(Clone, Debug)]
pub struct ChessGame {
    variant: Variant,
    initial_fen: String,
    pos: Chess,
    played: Vec<PlayedMove>,
    /// The key of every position of the game, the start included.
    keys: Vec<Zobrist64>,
    /// How often the current position has appeared, this time included.
    repetitions: u32,
    /// The board's verdict on the current position.
    ending: Option<Ending>,
}

/// The key under which two positions are "the same" (FIDE Laws 9.2.3):
/// en passant counts only when the capture is legal.
const REPETITION_EP: EnPassantMode = EnPassantMode::Legal;

impl ChessGame {
    /// A game from a FEN, or `startpos` for the standard start (in Chess960
    /// too, where it is start position 518).
    ///
    /// # Errors
    /// [`GameError::BadPosition`] saying what is wrong with the FEN.
    pub fn new(fen_or_startpos: &str, variant: Variant) -> Result<ChessGame, GameError> {
        let pos = parse_fen(fen_or_startpos, variant)?;
        Ok(Self::from_position(pos, variant))
    }

    /// A game from a position set up for `variant`'s castling mode.
    fn from_position(pos: Chess, variant: Variant) -> ChessGame {
        let key = pos.zobrist_hash(REPETITION_EP);
        let ending = ending::automatic(&pos, 1);
        ChessGame {
            variant,
            initial_fen: write_fen(&pos),
            pos,
            played: Vec::new(),
            keys: vec![key],
            repetitions: 1,
            ending,
        }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    #[must_use]
    pub fn chess_variant(&self) -> Variant {
        self.variant
    }

    /// How many times the current position has appeared in the game, this
    /// time included (FIDE Laws 9.2.3).
    #[must_use]
    pub fn repetitions(&self) -> u32 {
        self.repetitions
    }

    /// Counts the earlier appearances of the current position. Only the
    /// positions since the last capture or pawn move can equal it (those
    /// moves cannot be undone), and only every second one has the same
    /// side to move.
    fn count_repetitions(&self) -> u32 {
        let last = self.keys.len() - 1;
        let current = self.keys[last];
        let window = (self.pos.halfmoves() as usize).min(last);
        let earlier = (2..=window)
            .step_by(2)
            .filter(|&back| self.keys[last - back] == current)
            .count();
        1 + earlier as u32
    }
}

impl Game for ChessGame {
    fn family(&self) -> &'static str {
        "chess"
    }

    fn variant(&self) -> String {
        self.variant.id().to_string()
    }

    fn initial_fen(&self) -> String {
        self.initial_fen.clone()
    }

    fn fen(&self) -> String {
        write_fen(&self.pos)
    }

    fn side_to_move(&self) -> Side {
        side(self.pos.turn())
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.ending.is_some() {
            return Vec::new();
        }
        legal_uci_moves(&self.pos, self.variant)
    }

    fn play(&mut self, coord: &str) -> Result<PlayedMove, GameError> {
        if self.ending.is_some() {
            return Err(GameError::GameOver);
        }
        let m = parse_uci(&self.pos, self.variant, coord)?;
        // Nothing has changed yet; from here on the move is legal.
        let current = *self.keys.last().expect("the start position has a key");
        let next_key = self.pos.update_zobrist_hash(current, m, REPETITION_EP);
        let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, m);
        self.keys
            .push(next_key.unwrap_or_else(|| self.pos.zobrist_hash(REPETITION_EP)));
        self.repetitions = self.count_repetitions();
        self.ending = ending::automatic(&self.pos, self.repetitions);
        let coord = uci(m, self.variant);
        let played = PlayedMove {
            alt: coord.clone(),
            coord,
            display: san.to_string(),
            capture: m.is_capture(),
            check: self.pos.is_check(),
        };
        self.played.push(played.clone());
        Ok(played)
    }

    fn history(&self) -> &[PlayedMove] {
        &self.played
    }

    fn status(&self) -> Status {
        match &self.ending {
            Some(e) => Status::Over(e.clone()),
            None => Status::Ongoing,
        }
    }

    fn claimable_draw(&self) -> Option<Ending> {
        if self.ending.is_some() {
            return None;
        }
        ending::claimable(&self.pos, self.repetitions)
    }

    fn side_name(&self, side: Side) -> &'static str {
        name(color(side))
    }

    /// FIDE Laws 6.9: a flag fall is a draw when the opponent cannot
    /// checkmate by any possible series of legal moves. shakmaty's material
    /// test (lichess's) answers "cannot" only when that is certain: a lone
    /// king, a lone minor piece where no selfmate help exists, or bishops
    /// all on one colour. Nor can anyone mate in a dead position of locked
    /// pawns ([`crate::locked_pawns_dead`]).
    fn can_win(&self, side: Side) -> bool {
        !self.pos.has_insufficient_material(color(side)) && !ending::locked_pawns_dead(&self.pos)
    }

    fn boxed_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Outcome;

    fn game(fen: &str) -> ChessGame {
        ChessGame::new(fen, Variant::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn over(g: &ChessGame) -> Ending {
        match g.status() {
            Status::Over(e) => e,
            s => panic!("expected the game to be over, got {s:?} at {}", g.fen()),
        }
    }

    fn play_all(g: &mut ChessGame, moves: &[&str]) {
        for m in moves {
            g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    #[test]
    fn plays_and_refuses() {
        let mut g = game("startpos");
        assert_eq!(g.family(), "chess");
        assert_eq!(g.variant(), "chess/standard");
        assert_eq!(g.side_name(Side::First), "White");
        assert_eq!(g.side_name(Side::Second), "Black");
        assert_eq!(g.initial_fen(), crate::STANDARD_START_FEN);
        assert_eq!(g.legal_moves().len(), 20);
        let pm = g.play("e2e4").unwrap();
        assert_eq!(
            pm,
            PlayedMove {
                coord: "e2e4".into(),
                display: "e4".into(),
                alt: "e2e4".into(),
                capture: false,
                check: false,
            }
        );
        assert_eq!(g.side_to_move(), Side::Second);
        // No legal en passant: the FEN leaves the square out (as lichess does).
        assert_eq!(
            g.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        let before = g.clone();
        for (bad, bad_move) in [
            ("e2e4", false),
            ("e7e5q", false),
            ("e7", true),
            ("", true),
            ("z9z9", true),
        ] {
            let err = g.play(bad).unwrap_err();
            assert_eq!(matches!(err, GameError::BadMove { .. }), bad_move, "{bad}: {err}");
            assert_eq!(
                matches!(err, GameError::IllegalMove { .. }),
                !bad_move,
                "{bad}: {err}"
            );
            assert_eq!(g.fen(), before.fen(), "a refused move changes nothing");
            assert_eq!(g.history(), before.history());
            assert_eq!(g.repetitions(), before.repetitions());
        }
        assert_eq!(g.status(), Status::Ongoing);
        assert_eq!(g.claimable_draw(), None);
        let boxed = g.boxed_clone();
        assert_eq!(boxed.fen(), g.fen());
    }

    #[test]
    fn castling_both_sides_and_not_through_check() {
        let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let moves = g.legal_moves();
        assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
        assert!(
            !moves.contains(&"e1h1".to_string()),
            "standard UCI lists the king's step"
        );
        let pm = g.play("e1g1").unwrap();
        assert_eq!((pm.coord.as_str(), pm.display.as_str()), ("e1g1", "O-O"));
        let pm = g.play("e8a8").unwrap(); // king takes rook, as lichess accepts
        assert_eq!((pm.coord.as_str(), pm.display.as_str()), ("e8c8", "O-O-O"));
        assert_eq!(g.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");

        // A rook on f8 attacks f1, which the king must cross: no short
        // castling (FIDE Laws 3.8.2.2). b1 is attacked too, but only the
        // rook crosses it: long castling stands.
        let g = game("1r2kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        let moves = g.legal_moves();
        assert!(!moves.contains(&"e1g1".to_string()));
        assert!(moves.contains(&"e1c1".to_string()));
        // Not out of check either.
        let g = game("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(!g.legal_moves().iter().any(|m| m == "e1g1" || m == "e1c1"));
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        // Start position 0 (bbqnnrkr): Shredder-FEN in, X-FEN out (the
        // rooks stand outermost).
        let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
        let g = ChessGame::new(fen, Variant::Chess960).unwrap();
        assert_eq!(g.variant(), "chess/chess960");
        assert_eq!(
            g.fen(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
        );

        // King on g1: short castling leaves it there and brings the rook
        // to f1; long castling takes it to c1 (FIDE Laws, Guidelines II.3).
        let fen = "4k3/8/8/8/8/8/8/R5KR w HA - 0 1";
        let mut g = ChessGame::new(fen, Variant::Chess960).unwrap();
        let moves = g.legal_moves();
        assert!(
            moves.contains(&"g1h1".to_string()) && moves.contains(&"g1a1".to_string()),
            "{moves:?}"
        );
        assert!(matches!(
            g.clone().play("g1c1"),
            Err(GameError::IllegalMove { .. })
        ));
        let mut long = g.clone();
        let pm = long.play("g1a1").unwrap();
        assert_eq!(pm.display, "O-O-O");
        assert_eq!(long.fen(), "4k3/8/8/8/8/8/8/2KR3R b - - 1 1");
        let pm = g.play("g1h1").unwrap();
        assert_eq!((pm.coord.as_str(), pm.display.as_str()), ("g1h1", "O-O"));
        assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1");
    }

    #[test]
    fn en_passant() {
        let mut g = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        assert!(
            g.fen().contains(" d6 "),
            "the capture is legal, so the FEN keeps d6"
        );
        let pm = g.play("e5d6").unwrap();
        assert_eq!(pm.display, "exd6");
        assert!(pm.capture, "en passant is a capture");
        assert_eq!(g.fen(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");

        // Taking en passant would open the fifth rank to the rook.
        let g = game("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2");
        assert!(!g.legal_moves().contains(&"e5d6".to_string()));
        assert!(
            !g.fen().contains("d6"),
            "no legal capture, no en passant square in the FEN"
        );
        let mut g2 = g.clone();
        assert!(matches!(g2.play("e5d6"), Err(GameError::IllegalMove { .. })));
    }

    #[test]
    fn under_promotion_san() {
        let mut g = game("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1");
        let moves = g.legal_moves();
        for promo in ["e7e8q", "e7e8r", "e7e8b", "e7e8n"] {
            assert!(moves.contains(&promo.to_string()));
        }
        assert!(matches!(
            g.clone().play("e7e8"),
            Err(GameError::IllegalMove { .. })
        ));
        let pm = g.play("e7e8n").unwrap();
        assert_eq!(pm.display, "e8=N+");
        assert!(pm.check && !pm.capture);
    }

    #[test]
    fn checkmate_and_stalemate() {
        let mut g = game("startpos");
        play_all(&mut g, &["f2f3", "e7e5", "g2g4"]);
        let pm = g.play("d8h4").unwrap();
        assert_eq!(pm.display, "Qh4#");
        let e = over(&g);
        assert_eq!(
            (e.reason.as_str(), e.article.as_deref()),
            ("checkmate", Some("5.1.1"))
        );
        assert_eq!(e.outcome, Outcome::Win { winner: Side::Second });
        assert!(
            e.detail.contains("White is checkmated") && e.detail.contains("5.1.1"),
            "{}",
            e.detail
        );
        assert_eq!(g.play("e1f2"), Err(GameError::GameOver));
        assert!(g.legal_moves().is_empty());
        assert_eq!(g.claimable_draw(), None);

        let g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        let e = over(&g);
        assert_eq!(
            (e.reason.as_str(), e.article.as_deref()),
            ("stalemate", Some("5.2.1"))
        );
        assert_eq!(e.outcome, Outcome::Draw);
    }

    #[test]
    fn dead_position_by_material() {
        let mut g = game("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
        let pm = g.play("e1d2").unwrap();
        assert!(pm.capture);
        let e = over(&g);
        assert_eq!(
            (e.reason.as_str(), e.article.as_deref()),
            ("insufficient_material", Some("5.2.2"))
        );
        assert_eq!(e.outcome, Outcome::Draw);
    }

    #[test]
    fn dead_position_by_a_locked_pawn_wall() {
        // Eight pawns a side locked in a wall across the board: the kings
        // can never cross it, nobody can ever be mated (5.2.2).
        let wall = "4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3";
        let g = game(&format!("{wall} w - - 0 1"));
        let e = over(&g);
        assert_eq!(
            (e.reason.as_str(), e.article.as_deref(), &e.outcome),
            ("dead_position", Some("5.2.2"), &Outcome::Draw)
        );
        assert!(!g.can_win(Side::First) && !g.can_win(Side::Second));
        // The same wall reached by a move: the game ends with it.
        let mut g = game("4k3/8/1p1p1p1p/pPpPpPp1/P1P1P1P1/8/7P/4K3 w - - 0 1");
        assert_eq!(g.status(), Status::Ongoing);
        g.play("h2h4").unwrap();
        g.play("e8d8").unwrap();
        g.play("h4h5").unwrap();
        assert_eq!(over(&g).reason, "dead_position");
        // Not dead: a pawn that can still move (h6 gone), a pawn that can
        // take (d4 against e5), a king that can reach an unguarded
        // pawn (the lone d-pawns), an en-passant capture on the board.
        for fen in [
            "4k3/8/1p1p1p2/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1",
            "4k3/8/8/3pp3/3PP3/8/8/4K3 w - - 0 1",
            "8/8/4k3/3p4/3P4/8/8/4K3 w - - 0 1",
            "4k3/8/1p1p1p2/pPpPpPp1/P1P1P1Pp/8/8/4K3 b - g3 0 1",
        ] {
            let g = game(fen);
            assert_eq!(g.status(), Status::Ongoing, "{fen}");
            assert!(g.can_win(Side::First) || g.can_win(Side::Second), "{fen}");
        }
    }

    #[test]
    fn can_win_fide_6_9() {
        // A lone king can never mate: its opponent's flag falling is a draw.
        let g = game("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        assert!(g.can_win(Side::First));
        assert!(!g.can_win(Side::Second));
        // K+N against a bare king: neither side can mate (and the game is dead).
        let g = game("4k3/8/8/8/8/8/8/4KN2 w - - 0 1");
        assert!(!g.can_win(Side::First) && !g.can_win(Side::Second));
        assert_eq!(over(&g).reason, "insufficient_material");
        // K+N against K+R: the rook can block its own king in, so the knight
        // can still mate (a helpmate exists).
        let g = game("4k2r/8/8/8/8/8/8/4KN2 w - - 0 1");
        assert!(g.can_win(Side::First) && g.can_win(Side::Second));
        // K+B against K+B with both bishops on light squares: dead.
        let g = game("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1");
        assert!(!g.can_win(Side::First) && !g.can_win(Side::Second));
        assert_eq!(over(&g).reason, "insufficient_material");
        // Bishops on opposite colours: a mate can be helped into being.
        let g = game("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        assert!(g.can_win(Side::First) && g.can_win(Side::Second));
        assert_eq!(g.status(), Status::Ongoing);
    }

    #[test]
    fn threefold_claim_then_fivefold_ends() {
        let mut g = game("startpos");
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        play_all(&mut g, &shuffle);
        assert_eq!(g.repetitions(), 2);
        assert_eq!(g.claimable_draw(), None);
        play_all(&mut g, &shuffle);
        assert_eq!(g.repetitions(), 3);
        let claim = g.claimable_draw().expect("threefold repetition");
        assert_eq!(
            (claim.reason.as_str(), claim.article.as_deref()),
            ("threefold_repetition", Some("9.2"))
        );
        assert_eq!(g.status(), Status::Ongoing, "threefold must be claimed");
        play_all(&mut g, &shuffle);
        assert_eq!(g.repetitions(), 4);
        play_all(&mut g, &shuffle[..3]);
        assert_eq!(g.status(), Status::Ongoing);
        g.play(shuffle[3]).unwrap();
        let e = over(&g);
        assert_eq!(
            (e.reason.as_str(), e.article.as_deref()),
            ("fivefold_repetition", Some("9.6.1"))
        );
        assert_eq!(g.claimable_draw(), None);
    }

    #[test]
    fn lost_castling_rights_make_a_different_position() {
        // FIDE Laws 9.2.3.2: after the king steps out and back, the pieces
        // stand as before but castling is gone — not a repetition.
        let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        play_all(&mut g, &["e1f1", "e8f8", "f1e1", "f8e8"]);
        assert_eq!(g.repetitions(), 1);
        play_all(&mut g, &["e1f1", "e8f8", "f1e1", "f8e8"]);
        assert_eq!(g.repetitions(), 2);
    }

    #[test]
    fn en_passant_right_only_counts_when_legal() {
        // After d7d5 the d6 square is an en passant target, but no white
        // pawn can take: the position equals the one after the knights
        // shuffle back (FIDE Laws 9.2.3.1 speaks of a possible capture).
        let mut g = game("4k3/3p4/8/8/8/8/8/1N2K1n1 b - - 0 1");
        play_all(&mut g, &["d7d5", "b1c3", "g1h3", "c3b1", "h3g1"]);
        assert_eq!(g.repetitions(), 2);
    }

    #[test]
    fn fifty_move_claim_and_seventy_five_move_end() {
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
        assert_eq!(g.claimable_draw(), None);
        g.play("a1a2").unwrap();
        let claim = g.claimable_draw().expect("fifty moves");
        assert_eq!(
            (claim.reason.as_str(), claim.article.as_deref()),
            ("fifty_moves", Some("9.3"))
        );

        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 149 100");
        g.play("a1a2").unwrap();
        let e = over(&g);
        assert_eq!(
            (e.reason.as_str(), e.article.as_deref()),
            ("seventy_five_moves", Some("9.6.2"))
        );
        assert_eq!(e.outcome, Outcome::Draw);
    }

    #[test]
    fn mate_on_the_seventy_fifth_move_stands() {
        // FIDE Laws 9.6.2: "If the last move resulted in checkmate, that
        // shall take precedence."
        let mut g = game("7k/8/6K1/8/8/8/8/R7 w - - 149 100");
        let pm = g.play("a1a8").unwrap();
        assert_eq!(pm.display, "Ra8#");
        assert!(g.fen().contains(" 150 "));
        let e = over(&g);
        assert_eq!(e.reason, "checkmate");
        assert_eq!(e.outcome, Outcome::Win { winner: Side::First });
    }

    #[test]
    fn a_finished_start_position_is_over() {
        let g = game("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert_eq!(over(&g).reason, "checkmate");
        assert!(g.legal_moves().is_empty());
    }
}
