//! [`ShogiGame`]: a shogi game refereed move by move under the JSA's rules,
//! behind the game-agnostic [`game::Game`] trait.
//!
//! Sides: `first` is the side that moves first — sente in an even game,
//! the handicap giver (上手, gote in SFEN) in a handicap game. Each move
//! appends one repetition key (board, side to move and both hands) and
//! whether it gave check, so 千日手 and perpetual check are decided by
//! comparing keys, never by replaying the game.

use crate::impasse::{self, ImpasseRule};
use crate::notation::{japanese, western};
use crate::sfen::{color_name, parse_sfen, write_sfen};
use crate::usi::{legal_moves, legal_usi_moves, parse_usi, usi};
use crate::Handicap;
use game::{Ending, Game, GameError, Outcome, PlayedMove, Side, Status};
use rsshogi::board::Position;
use rsshogi::types::{Color, Move32};

/// What makes two positions the same for 千日手: the pieces on the board,
/// the side to move (both in rsshogi's board key) and both hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RepetitionKey {
    board: u64,
    hands: [u32; 2],
}

impl RepetitionKey {
    #[must_use]
    pub fn of(pos: &Position) -> RepetitionKey {
        RepetitionKey {
            board: pos.board_key().low_u64(),
            hands: [pos.hand(Color::BLACK).raw(), pos.hand(Color::WHITE).raw()],
        }
    }
}

/// A shogi game: the start, the moves, the position and what the rules
/// say about it now.
#[derive(Clone)]
pub struct ShogiGame {
    impasse: ImpasseRule,
    handicap: Option<Handicap>,
    /// The colour that moved first.
    first: Color,
    initial_sfen: String,
    initial_move_number: u32,
    pos: Position,
    moves: Vec<Move32>,
    played: Vec<PlayedMove>,
    /// The key of every position of the game, the start included.
    keys: Vec<RepetitionKey>,
    /// Whether the side to move was in check in each position.
    checks: Vec<bool>,
    /// How often the current position has appeared, this time included.
    repetitions: u32,
    ending: Option<Ending>,
}

impl ShogiGame {
    /// A game from an SFEN, or `startpos`. A handicap start position makes
    /// a handicap game (its giver, to move, is the first side).
    ///
    /// # Errors
    /// [`GameError::BadPosition`] saying what is wrong with the SFEN.
    pub fn new(sfen_or_startpos: &str, impasse: ImpasseRule) -> Result<ShogiGame, GameError> {
        let (pos, move_number) =
            parse_sfen(sfen_or_startpos).map_err(|e| GameError::BadPosition(e.to_string()))?;
        let initial_sfen = write_sfen(&pos, move_number);
        let handicap = Handicap::of_start(&initial_sfen);
        let key = RepetitionKey::of(&pos);
        let check = pos.is_in_check();
        let mut g = ShogiGame {
            impasse,
            handicap,
            first: pos.turn(),
            initial_sfen,
            initial_move_number: move_number,
            pos,
            moves: Vec::new(),
            played: Vec::new(),
            keys: vec![key],
            checks: vec![check],
            repetitions: 1,
            ending: None,
        };
        g.ending = g.automatic_ending();
        Ok(g)
    }

    /// A handicap game from its start position.
    #[must_use]
    pub fn with_handicap(handicap: Handicap, impasse: ImpasseRule) -> ShogiGame {
        ShogiGame::new(handicap.sfen(), impasse).expect("handicap start positions are legal")
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Move32] {
        &self.moves
    }

    #[must_use]
    pub fn handicap(&self) -> Option<Handicap> {
        self.handicap
    }

    #[must_use]
    pub fn impasse_rule(&self) -> ImpasseRule {
        self.impasse
    }

    /// How many times the current position (board, hands, side to move) has
    /// appeared, this time included.
    #[must_use]
    pub fn repetitions(&self) -> u32 {
        self.repetitions
    }

    /// The qiju side of a colour.
    #[must_use]
    pub fn side_of(&self, c: Color) -> Side {
        if c == self.first {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The colour of a qiju side.
    #[must_use]
    pub fn color_of(&self, side: Side) -> Color {
        match side {
            Side::First => self.first,
            Side::Second => self.first.flip(),
        }
    }

    fn color_display(&self, c: Color) -> &'static str {
        match (self.handicap.is_some(), c == Color::BLACK) {
            (false, true) => "Sente",
            (false, false) => "Gote",
            (true, true) => "Shitate",
            (true, false) => "Uwate",
        }
    }

    fn win(&self, winner: Color, reason: &str, detail: String, article: &str) -> Ending {
        Ending {
            outcome: Outcome::Win {
                winner: self.side_of(winner),
            },
            reason: reason.to_string(),
            detail,
            article: Some(article.to_string()),
        }
    }

    /// The ending the board decides now: no legal move (詰み), or the same
    /// position for the fourth time (千日手).
    fn automatic_ending(&self) -> Option<Ending> {
        let turn = self.pos.turn();
        if legal_moves(&self.pos).is_empty() {
            let (reason, what) = if self.pos.is_in_check() {
                ("checkmate", "is checkmated (詰み)")
            } else {
                ("no_legal_move", "has no legal move, which loses as a mate does")
            };
            return Some(self.win(
                turn.flip(),
                reason,
                format!(
                    "{} {what}: {} wins (JSA rules)",
                    color_name(turn),
                    color_name(turn.flip())
                ),
                "詰み",
            ));
        }
        if self.repetitions >= 4 {
            return Some(self.fourfold_ending());
        }
        None
    }

    /// 千日手: the fourth appearance of a position is a draw — unless one
    /// side gave check with every one of its moves since the position first
    /// appeared (連続王手の千日手), when that side loses.
    fn fourfold_ending(&self) -> Ending {
        let last = self.keys.len() - 1;
        let current = self.keys[last];
        let first_seen = self
            .keys
            .iter()
            .position(|k| *k == current)
            .expect("the current key is in the list");
        // Move j leads from position j-1 to position j; it gave check when
        // the side to move in position j is in check.
        let mut all_checks = [true, true];
        let mut moved = [false, false];
        for j in first_seen + 1..=last {
            let mover = if (j - 1) % 2 == 0 {
                self.first
            } else {
                self.first.flip()
            };
            moved[mover.to_index()] = true;
            if !self.checks[j] {
                all_checks[mover.to_index()] = false;
            }
        }
        let perpetual: Vec<Color> = [Color::BLACK, Color::WHITE]
            .into_iter()
            .filter(|c| moved[c.to_index()] && all_checks[c.to_index()])
            .collect();
        if let [checker] = perpetual[..] {
            return self.win(
                checker.flip(),
                "perpetual_check",
                format!(
                    "the same position has appeared four times and every move {} made since it first appeared gave check: perpetual check (連続王手の千日手), {} loses (JSA rules)",
                    color_name(checker),
                    color_name(checker)
                ),
                "千日手",
            );
        }
        Ending {
            outcome: Outcome::Draw,
            reason: "repetition".to_string(),
            detail: "the same position, with the same hands and the same side to move, has appeared four times: 千日手, a draw (JSA rules)".to_string(),
            article: Some("千日手".to_string()),
        }
    }
}

impl std::fmt::Debug for ShogiGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShogiGame")
            .field("variant", &self.variant())
            .field("initial_sfen", &self.initial_sfen)
            .field("moves", &self.moves.iter().map(|m| usi(*m)).collect::<Vec<_>>())
            .field("sfen", &self.fen())
            .field("ending", &self.ending)
            .finish_non_exhaustive()
    }
}

impl Game for ShogiGame {
    fn family(&self) -> &'static str {
        "shogi"
    }

    /// `shogi/standard` (the 24-point count) or `shogi/declaration` (the
    /// 27-point declaration); a handicap game played by the 24-point rule
    /// is its handicap's variant, `shogi/lance` … `shogi/ten-pieces`, as the
    /// registry names them.
    fn variant(&self) -> String {
        match (self.impasse, self.handicap) {
            (ImpasseRule::Points24, Some(h)) => format!("shogi/{}", h.id()),
            (ImpasseRule::Points24, None) => "shogi/standard".to_string(),
            (ImpasseRule::Declaration27, _) => "shogi/declaration".to_string(),
        }
    }

    fn initial_fen(&self) -> String {
        self.initial_sfen.clone()
    }

    fn fen(&self) -> String {
        write_sfen(&self.pos, self.initial_move_number + self.moves.len() as u32)
    }

    fn side_to_move(&self) -> Side {
        self.side_of(self.pos.turn())
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.ending.is_some() {
            return Vec::new();
        }
        legal_usi_moves(&self.pos)
    }

    fn play(&mut self, coord: &str) -> Result<PlayedMove, GameError> {
        if self.ending.is_some() {
            return Err(GameError::GameOver);
        }
        let m = parse_usi(&self.pos, coord)?;
        let display = japanese(&self.pos, m);
        let alt = western(&self.pos, m);
        let capture = !m.is_drop() && !self.pos.piece_on(m.to_sq()).is_empty();
        self.pos.apply_move32(m);
        self.moves.push(m);
        let key = RepetitionKey::of(&self.pos);
        self.repetitions = 1 + self.keys.iter().filter(|k| **k == key).count() as u32;
        self.keys.push(key);
        let check = self.pos.is_in_check();
        self.checks.push(check);
        self.ending = self.automatic_ending();
        let played = PlayedMove {
            coord: usi(m),
            display,
            alt,
            capture,
            check,
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

    /// The impasse (持将棋) the side to move may claim: the 24-point count
    /// once both kings have entered, or the 27-point declaration, whichever
    /// rule the game plays by.
    fn claimable_draw(&self) -> Option<Ending> {
        if self.ending.is_some() {
            return None;
        }
        let r = impasse::claim(&self.pos, self.impasse, self.handicap)?;
        Some(match r.winner {
            Some(w) => self.win(w, r.reason, r.detail, r.article),
            None => Ending {
                outcome: Outcome::Draw,
                reason: r.reason.to_string(),
                detail: r.detail,
                article: Some(r.article.to_string()),
            },
        })
    }

    fn side_name(&self, side: Side) -> &'static str {
        self.color_display(self.color_of(side))
    }

    fn boxed_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(sfen: &str) -> ShogiGame {
        ShogiGame::new(sfen, ImpasseRule::Points24).unwrap_or_else(|e| panic!("{sfen}: {e}"))
    }

    fn over(g: &ShogiGame) -> Ending {
        match g.status() {
            Status::Over(e) => e,
            s => panic!("expected the game to be over, got {s:?} at {}", g.fen()),
        }
    }

    fn play_all(g: &mut ShogiGame, moves: &[&str]) {
        for m in moves {
            g.play(m).unwrap_or_else(|e| panic!("{m} at {}: {e}", g.fen()));
        }
    }

    #[test]
    fn plays_and_refuses() {
        let mut g = game("startpos");
        assert_eq!((g.family(), g.variant().as_str()), ("shogi", "shogi/standard"));
        assert_eq!(g.side_name(Side::First), "Sente");
        assert_eq!(g.side_name(Side::Second), "Gote");
        assert_eq!(g.legal_moves().len(), 30);
        let pm = g.play("7g7f").unwrap();
        assert_eq!(
            pm,
            PlayedMove {
                coord: "7g7f".into(),
                display: "▲７六歩".into(),
                alt: "P-7f".into(),
                capture: false,
                check: false,
            }
        );
        assert_eq!(g.side_to_move(), Side::Second);
        assert_eq!(
            g.fen(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
        );
        let before = g.clone();
        for (bad, unreadable) in [("7g7f", false), ("P*5e", false), ("", true), ("z9", true)] {
            let err = g.play(bad).unwrap_err();
            assert_eq!(
                matches!(err, GameError::BadMove { .. }),
                unreadable,
                "{bad}: {err}"
            );
            assert_eq!(g.fen(), before.fen(), "a refused move changes nothing");
            assert_eq!(g.history(), before.history());
        }
        play_all(&mut g, &["3c3d"]);
        let pm = g.play("8h2b+").unwrap();
        assert_eq!(
            (pm.display.as_str(), pm.alt.as_str(), pm.capture),
            ("▲２二角成", "Bx2b+", true)
        );
        let pm = g.play("3a2b").unwrap();
        assert_eq!(pm.display, "△同　銀");
        let pm = g.play("B*4e").unwrap();
        assert_eq!((pm.display.as_str(), pm.capture), ("▲４五角", false));
        assert_eq!(
            g.fen(),
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
        );
        assert_eq!(g.status(), Status::Ongoing);
        assert_eq!(g.claimable_draw(), None);
        assert_eq!(g.boxed_clone().fen(), g.fen());
    }

    #[test]
    fn checkmate_ends_the_game() {
        // 頭金: gote's king on 5a, sente's pawn on 5c, a gold in hand.
        let mut g = game("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
        let pm = g.play("G*5b").unwrap();
        assert!(pm.check);
        let e = over(&g);
        assert_eq!(e.reason, "checkmate");
        assert_eq!(e.outcome, Outcome::Win { winner: Side::First });
        assert_eq!(g.play("5a4a"), Err(GameError::GameOver));
        assert!(g.legal_moves().is_empty());
    }

    #[test]
    fn fourfold_repetition_is_a_draw() {
        let mut g = game("startpos");
        let shuffle = ["2h3h", "8b7b", "3h2h", "7b8b"];
        for round in 1..=2 {
            play_all(&mut g, &shuffle);
            assert_eq!(g.repetitions(), round + 1);
            assert_eq!(g.status(), Status::Ongoing, "round {round}");
        }
        play_all(&mut g, &shuffle[..3]);
        assert_eq!(g.status(), Status::Ongoing);
        g.play(shuffle[3]).unwrap();
        // The start position has now appeared four times.
        assert_eq!(g.repetitions(), 4);
        let e = over(&g);
        assert_eq!((e.reason.as_str(), e.outcome), ("repetition", Outcome::Draw));
        assert_eq!(e.article.as_deref(), Some("千日手"));
    }

    #[test]
    fn the_same_board_with_other_hands_is_another_position() {
        // Sente's rook shuffles while a capture changes the hands once:
        // the board repeats, the hands do not.
        let mut g = game("4k4/9/9/9/9/9/9/1p7/R3K4 b - 1");
        play_all(&mut g, &["9i8i", "5a4a"]);
        // Gote's pawn on 8h is now attacked; take it and shuffle.
        play_all(&mut g, &["8i8h", "4a5a", "8h8i", "5a4a", "8i9i", "4a5a"]);
        // The board is the start's but sente holds a pawn now.
        assert_eq!(g.fen(), "4k4/9/9/9/9/9/9/9/R3K4 b P 9");
        assert_eq!(g.repetitions(), 1);
    }

    #[test]
    fn perpetual_check_loses() {
        // Gote's king on 5a is in check from sente's rook on 5i; it steps
        // 5a↔4a and the rook follows it, 5i↔4i, checking every time.
        let mut g = game("4k4/9/9/9/9/9/9/9/K3R4 w - 1");
        play_all(&mut g, &["5a4a", "5i4i", "4a5a", "4i5i"]);
        assert_eq!(g.repetitions(), 2);
        play_all(&mut g, &["5a4a", "5i4i", "4a5a", "4i5i"]);
        play_all(&mut g, &["5a4a", "5i4i", "4a5a"]);
        assert_eq!(g.status(), Status::Ongoing);
        g.play("4i5i").unwrap();
        let e = over(&g);
        assert_eq!(e.reason, "perpetual_check");
        // Gote moved first here, so gote is the first side, and wins.
        assert_eq!(g.side_of(Color::WHITE), Side::First);
        assert_eq!(e.outcome, Outcome::Win { winner: Side::First });
        assert!(e.detail.contains("sente loses"), "{}", e.detail);
    }

    #[test]
    fn perpetual_check_by_the_first_side_loses_too() {
        // Sente (first) checks with its rook from 5i and 4i, gote's king
        // steps 5a↔4a: sente loses at the fourth repetition.
        let mut g = game("4k4/9/9/9/9/9/9/9/K4R3 b - 1");
        let cycle = ["4i5i", "5a4a", "5i4i", "4a5a"];
        for _ in 0..2 {
            play_all(&mut g, &cycle);
        }
        play_all(&mut g, &cycle[..3]);
        assert_eq!(g.status(), Status::Ongoing);
        g.play(cycle[3]).unwrap();
        let e = over(&g);
        assert_eq!(e.reason, "perpetual_check");
        assert_eq!(e.outcome, Outcome::Win { winner: Side::Second });
    }

    #[test]
    fn impasse_claims_through_the_game() {
        // 24 points: sente 34, gote 20, both kings entered; the side to
        // move claims and gote loses.
        let g = game("9/4K4/9/9/9/9/9/4k4/9 b 2R2B14P4g4s4n4l4p 1");
        let e = g.claimable_draw().expect("both kings have entered");
        assert_eq!(
            (e.reason.as_str(), e.outcome),
            ("impasse_points", Outcome::Win { winner: Side::First })
        );
        assert_eq!(e.article.as_deref(), Some("持将棋"));
        // 24 against 30: a draw.
        let g = game("9/4K4/9/9/9/9/9/4k4/9 w 2R2B4P4g4s4n4l14p 1");
        let e = g.claimable_draw().unwrap();
        assert_eq!((e.reason.as_str(), e.outcome), ("impasse", Outcome::Draw));
        // The same position under the declaration rule: nobody has ten
        // pieces in the camp, so nothing to claim.
        let g = ShogiGame::new(
            "9/4K4/9/9/9/9/9/4k4/9 b 2R2B14P4g4s4n4l4p 1",
            ImpasseRule::Declaration27,
        )
        .unwrap();
        assert_eq!(g.variant(), "shogi/declaration");
        assert_eq!(g.claimable_draw(), None);
        // 27-point declaration: sente's king and ten tokins in the camp,
        // both rooks and bishops in hand — sente declares and wins.
        let sfen = "+P+P+P+P5/+P+P+P6/+P+P+P1K4/9/8k/9/9/9/9 b 2R2B4g4s4n4l8p 1";
        let mut g = ShogiGame::new(sfen, ImpasseRule::Declaration27).unwrap();
        let e = g.claimable_draw().expect("the declaration holds");
        assert_eq!(
            (e.reason.as_str(), e.outcome),
            ("impasse_declaration", Outcome::Win { winner: Side::First })
        );
        // After a move it is gote's turn: gote has nothing to declare.
        g.play("5c5b").unwrap();
        assert_eq!(g.claimable_draw(), None);
        // Over the 24-point rule the same position offers no claim (gote's
        // king has not entered).
        assert_eq!(game(sfen).claimable_draw(), None);
    }

    #[test]
    fn a_quiet_move_among_the_checks_makes_it_a_draw() {
        // As above, but the rook steps aside to 6i (no check) and comes
        // back to 5i (check): not every move of sente's gives check, so the
        // fourth repetition is a plain 千日手.
        let mut g = game("4k4/9/9/9/9/9/9/9/K3R4 w - 1");
        let cycle = ["5a4a", "5i6i", "4a5a", "6i5i"];
        play_all(&mut g, &cycle);
        play_all(&mut g, &cycle);
        play_all(&mut g, &cycle[..3]);
        assert_eq!(g.status(), Status::Ongoing);
        g.play(cycle[3]).unwrap();
        let e = over(&g);
        assert_eq!((e.reason.as_str(), e.outcome), ("repetition", Outcome::Draw));
    }

    #[test]
    fn a_long_game_plays_on() {
        // Two thousand plies of pseudo-random moves (a fixed LCG): the
        // position's move stack grows without limit, the keys with it, and
        // the game stays consistent with a fresh reading of its SFEN.
        let mut g = game("startpos");
        let mut seed: u64 = 2026;
        for _ in 0..2000 {
            if g.status() != Status::Ongoing {
                break;
            }
            let moves = g.legal_moves();
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let m = &moves[(seed >> 33) as usize % moves.len()];
            g.play(m).unwrap();
        }
        assert!(g.history().len() > 200, "{}", g.history().len());
        let again = game(&g.fen());
        assert_eq!(again.legal_moves(), g.legal_moves());
        assert_eq!(again.fen(), g.fen());
    }

    #[test]
    fn handicap_giver_moves_first() {
        let g = ShogiGame::with_handicap(Handicap::TwoPieces, ImpasseRule::Points24);
        assert_eq!(g.handicap(), Some(Handicap::TwoPieces));
        assert_eq!(g.side_to_move(), Side::First);
        assert_eq!(g.color_of(Side::First), Color::WHITE);
        assert_eq!(g.side_name(Side::First), "Uwate");
        assert_eq!(g.side_name(Side::Second), "Shitate");
        // The giver's moves are gote's.
        let mut g = g;
        let pm = g.play("3c3d").unwrap();
        assert_eq!(pm.display, "△３四歩");
        assert_eq!(g.side_to_move(), Side::Second);
        // The same start read from its SFEN is the same handicap game.
        let g2 = game(Handicap::TwoPieces.sfen());
        assert_eq!(g2.handicap(), Some(Handicap::TwoPieces));
    }
}
