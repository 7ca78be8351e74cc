//! Gomoku and renju behind the platform's `game::Game` trait. Moves cross it
//! as point names (`h8`); under the office rules white may also play
//! `foul`, pointing out black's forbidden stone so that black plays again;
//! under an opening rule the steps of the opening are moves too
//! (`choose:black`, `more`, `declare:3`, `offer:h10`, `select:h10`; see
//! `opening.rs`). A stone's `alt` is the point in Gomocup protocol
//! coordinates.
//!
//! The game's sides are its players: `first` moves first. Which colour
//! each plays is the game's state ([`Seats`]): black for the first side
//! without an opening rule; settled by the players' choices under one.

use crate::fen::Setup;
use crate::opening::{Action, OpeningState, Phase, Seats};
use crate::point::{Color, Point};
use crate::position::{End, PlayError, Position, Reason};
use crate::rules::{Opening, Rules};
use game::{Ending, Game, GameError, Outcome, PlayedMove, Side, Status};

/// The move text with which white points out a forbidden stone (office rules).
pub const CLAIM_FOUL: &str = "foul";

/// A game of gomoku or renju with its history.
#[derive(Clone, Debug)]
pub struct RenjuGame {
    /// The rule set the game was asked for (with its opening rule).
    rules: Rules,
    start: Position,
    pos: Position,
    opening: OpeningState,
    history: Vec<PlayedMove>,
}

impl RenjuGame {
    /// A game from the empty board.
    #[must_use]
    pub fn new(rules: Rules) -> RenjuGame {
        RenjuGame::from_position(Position::new(rules))
    }

    /// A game from a position. On the empty board the rule set's opening
    /// rule runs; with stones on the board the opening is over and the
    /// first side plays black.
    #[must_use]
    pub fn from_position(pos: Position) -> RenjuGame {
        let rules = pos.rules();
        let (pos, opening) = if pos.board().stones() == 0 {
            (pos, OpeningState::new(rules.opening))
        } else {
            let setup = pos.setup();
            let plain = Position::from_setup(setup, rules.without_opening()).unwrap_or(pos);
            (plain, OpeningState::finished(rules.opening))
        };
        RenjuGame {
            rules,
            start: pos.clone(),
            pos,
            opening,
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

    /// The rule set the game is played under, its opening rule included.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Which side plays black, and whether that is settled.
    #[must_use]
    pub fn seats(&self) -> Seats {
        self.opening.seats
    }

    /// Where the opening stands.
    #[must_use]
    pub fn phase(&self) -> &Phase {
        &self.opening.phase
    }

    /// The stones in the order they went on the board (a selected 5th move
    /// at its place; offers and choices left out; a foul pointed out taken
    /// back).
    #[must_use]
    pub fn stones(&self) -> Vec<Point> {
        let mut out = Vec::new();
        for m in &self.history {
            match m.coord.parse::<Action>() {
                Ok(Action::Stone(p) | Action::Select(p)) => out.push(p),
                Ok(Action::Foul) => {
                    out.pop();
                }
                _ => {}
            }
        }
        out
    }

    /// A game's moves from its stones alone (a `.psq` record, a move
    /// list): under an opening rule, the opening played with no swap and,
    /// under Soosõrv, one 5th move offered and picked.
    #[must_use]
    pub fn moves_of_stones(rules: Rules, stones: &[Point]) -> Vec<String> {
        let mut out: Vec<String> = Vec::with_capacity(stones.len() + 6);
        for (i, p) in stones.iter().enumerate() {
            match (rules.opening, i) {
                (Opening::Swap2, 3) | (Opening::Soosorv { .. }, 3) => out.push("choose:white".into()),
                (Opening::Soosorv { .. }, 4) => {
                    out.extend(["declare:1".into(), "choose:black".into(), format!("offer:{p}")]);
                    out.push(format!("select:{p}"));
                    continue;
                }
                _ => {}
            }
            out.push(p.to_string());
        }
        out
    }

    /// The threats the last stone made (fours first), for the office
    /// rule's announcements (seed 001; `announce::threats`): none when the
    /// last move placed no stone or the game is over.
    #[must_use]
    pub fn last_threats(&self) -> Vec<crate::announce::Threat> {
        if self.pos.end().is_some() {
            return Vec::new();
        }
        let last = self.history.last().and_then(|m| m.coord.parse::<Action>().ok());
        let Some(Action::Stone(p) | Action::Select(p)) = last else {
            return Vec::new();
        };
        let Some(color) = self.pos.board().get(p) else {
            return Vec::new();
        };
        let mut before = self.pos.board().clone();
        before.clear(p);
        crate::announce::threats(&before, self.pos.rules(), color, p)
    }

    /// The moves that may be made now, as actions.
    #[must_use]
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.pos.end().is_some() {
            return Vec::new();
        }
        let (mut v, stones) = self.opening.choices(self.pos.board());
        if stones {
            let board = self.pos.board();
            let mut points: Vec<Action> = self
                .pos
                .legal_moves()
                .into_iter()
                .filter(|&p| self.opening.check_stone(board, p).is_ok())
                .map(Action::Stone)
                .collect();
            points.append(&mut v);
            v = points;
        }
        if self.pos.pending_foul().is_some() {
            v.push(Action::Foul);
        }
        v
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

/// The platform's ending for a result, the first side playing black.
#[must_use]
pub fn ending(end: End) -> Ending {
    ending_for(
        end,
        Seats {
            black: Side::First,
            settled: true,
        },
    )
}

/// The platform's ending for a result, with the sides seated as `seats`.
#[must_use]
pub fn ending_for(end: End, seats: Seats) -> Ending {
    let outcome = match end.winner {
        Some(c) => Outcome::Win {
            winner: seats.side_of(c),
        },
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
        self.rules.id().to_owned()
    }

    fn initial_fen(&self) -> String {
        self.start.fen()
    }

    /// The position text; while 5th moves are offered (Soosõrv), the
    /// offered points follow the side to move (`… b h10,j7`), for display
    /// only: a game does not start from such a text.
    fn fen(&self) -> String {
        let offers = self.opening.offers();
        if offers.is_empty() {
            self.pos.fen()
        } else {
            let list: Vec<String> = offers.iter().map(Point::to_string).collect();
            format!("{} {}", self.pos.fen(), list.join(","))
        }
    }

    fn side_to_move(&self) -> Side {
        if self.pos.pending_foul().is_some() {
            return self.opening.seats.side_of(Color::White);
        }
        self.opening.to_move(self.pos.turn())
    }

    /// The legal points in point order (column, then row), then the
    /// opening's choices, then `foul` when white may point one out.
    fn legal_moves(&self) -> Vec<String> {
        self.legal_actions().iter().map(Action::to_string).collect()
    }

    fn play(&mut self, coord: &str) -> Result<PlayedMove, GameError> {
        let illegal = |reason: String| GameError::IllegalMove {
            text: coord.to_owned(),
            reason,
        };
        let action: Action = coord
            .parse()
            .map_err(|e: crate::opening::ActionError| GameError::BadMove {
                text: coord.to_owned(),
                reason: e.to_string(),
            })?;
        if self.pos.end().is_some() {
            return Err(GameError::GameOver);
        }
        let m = match action {
            Action::Foul => {
                let (p, f) = self
                    .pos
                    .claim_foul()
                    .map_err(|e: PlayError| illegal(e.to_string()))?;
                let mut m = played(CLAIM_FOUL.to_owned(), String::new());
                m.display = format!("{CLAIM_FOUL} {p} ({f})");
                m
            }
            Action::Stone(p) => {
                self.pos.check(p).map_err(|e| illegal(e.to_string()))?;
                self.opening
                    .check_stone(self.pos.board(), p)
                    .map_err(|e| illegal(e.to_string()))?;
                self.pos.play_unchecked(p);
                self.opening.after_stone(self.pos.board().stones());
                played(p.to_string(), gomocup(p))
            }
            other => {
                let mut opening = self.opening.clone();
                let stone = opening
                    .apply_choice(self.pos.board(), other)
                    .map_err(|e| illegal(e.to_string()))?;
                if let Some(p) = stone {
                    self.pos.play(p).map_err(|e| illegal(e.to_string()))?;
                }
                self.opening = opening;
                played(other.to_string(), stone.map(gomocup).unwrap_or_default())
            }
        };
        self.history.push(m);
        Ok(self.history.last().expect("just pushed").clone())
    }

    fn history(&self) -> &[PlayedMove] {
        &self.history
    }

    fn status(&self) -> Status {
        match self.pos.end() {
            Some(end) => Status::Over(ending_for(end, self.opening.seats)),
            None => Status::Ongoing,
        }
    }

    /// "Black", "White"; before an opening rule has settled the colours,
    /// "Tentative Black" and "Tentative White".
    fn side_name(&self, side: Side) -> &'static str {
        side_word(self.opening.seats, side)
    }

    fn side_key(&self, side: Side) -> Option<&'static str> {
        if self.rules.opening == Opening::Centre {
            return None;
        }
        let seats = self.opening.seats;
        Some(match (seats.settled, seats.color_of(side)) {
            (true, Color::Black) => "black",
            (true, Color::White) => "white",
            (false, Color::Black) => "tentative_black",
            (false, Color::White) => "tentative_white",
        })
    }

    /// One word per threat of the last stone: a double four is `four`
    /// twice, a four-three `four`, `open_three`.
    fn announcements(&self) -> Vec<&'static str> {
        self.last_threats()
            .into_iter()
            .map(crate::announce::Threat::code)
            .collect()
    }

    fn boxed_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
}

fn side_word(seats: Seats, side: Side) -> &'static str {
    match (seats.settled, seats.color_of(side)) {
        (true, Color::Black) => "Black",
        (true, Color::White) => "White",
        (false, Color::Black) => "Tentative Black",
        (false, Color::White) => "Tentative White",
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

    /// The office rule's announcements come from the last stone alone:
    /// black's i8 makes an open three (h8 i8 j8), white's reply nothing,
    /// black's k8 a four; a choice places no stone; the game's end none.
    #[test]
    fn announcements_of_the_last_stone() {
        let mut g: Box<dyn Game> = Box::new(RenjuGame::new(Rules::OFFICE));
        assert!(g.announcements().is_empty());
        let said = |g: &mut Box<dyn Game>, m: &str| {
            g.play(m).unwrap();
            g.announcements()
        };
        assert!(said(&mut g, "h8").is_empty());
        assert!(said(&mut g, "h10").is_empty());
        assert!(said(&mut g, "i8").is_empty(), "two in a row");
        assert!(said(&mut g, "a15").is_empty());
        assert_eq!(said(&mut g, "j8"), ["open_three"]);
        assert!(said(&mut g, "a14").is_empty(), "white's stone makes nothing");
        assert_eq!(said(&mut g, "k8"), ["four"]);
        assert!(said(&mut g, "g8").is_empty(), "white blocks: white makes nothing");
        assert!(said(&mut g, "l8").is_empty(), "five ends the game");
        assert!(g.status() != Status::Ongoing);

        // The office game of tests/e2e/renju.mjs: black's j8 is a
        // double-three, which stands until white points it out; the page
        // announces its two threes. Pointing it out places no stone.
        let mut g: Box<dyn Game> = Box::new(RenjuGame::new(Rules::OFFICE));
        for m in ["h8", "a15", "i8", "a13", "j9", "a11", "j10", "a9"] {
            g.play(m).unwrap();
        }
        assert_eq!(said(&mut g, "j8"), ["open_three", "open_three"]);
        assert!(said(&mut g, "foul").is_empty());

        // Under swap2 the choice is no stone.
        let mut g: Box<dyn Game> = Box::new(RenjuGame::new(Rules::SWAP2));
        for m in ["h8", "i9", "i8"] {
            g.play(m).unwrap();
        }
        g.play("choose:white").unwrap();
        assert!(g.announcements().is_empty());
        assert_eq!(said(&mut g, "j9"), Vec::<&str>::new(), "white's two: nothing");
        assert_eq!(said(&mut g, "j8"), ["open_three"]);
    }
}

#[cfg(test)]
mod opening_tests {
    use super::*;

    fn play_all(g: &mut RenjuGame, moves: &str) {
        for m in moves.split_whitespace() {
            g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    fn keys(g: &RenjuGame) -> [Option<&'static str>; 2] {
        [g.side_key(Side::First), g.side_key(Side::Second)]
    }

    #[test]
    fn swap2_first_player_places_three_then_the_second_chooses() {
        let mut g = RenjuGame::new(Rules::SWAP2);
        assert_eq!(g.legal_moves().len(), 225, "anywhere");
        assert_eq!(keys(&g), [Some("tentative_black"), Some("tentative_white")]);
        for m in ["a1", "b1", "c1"] {
            assert_eq!(g.side_to_move(), Side::First);
            g.play(m).unwrap();
        }
        assert_eq!(g.side_to_move(), Side::Second);
        assert_eq!(g.legal_moves(), ["choose:black", "choose:white", "more"]);
        assert!(matches!(g.play("h8"), Err(GameError::IllegalMove { .. })));
        assert_eq!(g.fen(), "15/15/15/15/15/15/15/15/15/15/15/15/15/15/xox12 w");
    }

    #[test]
    fn swap2_second_takes_white_and_places_the_fourth() {
        let mut g = RenjuGame::new(Rules::SWAP2);
        play_all(&mut g, "h8 h9 i8 choose:white");
        assert_eq!(g.side_to_move(), Side::Second, "white places the 4th");
        assert_eq!(keys(&g), [Some("black"), Some("white")]);
        play_all(&mut g, "i9");
        assert_eq!(g.side_to_move(), Side::First);
        assert_eq!(g.side_name(Side::First), "Black");
    }

    #[test]
    fn swap2_second_takes_black_and_the_first_plays_white() {
        let mut g = RenjuGame::new(Rules::SWAP2);
        play_all(&mut g, "h8 h9 i8 choose:black");
        assert_eq!(keys(&g), [Some("white"), Some("black")]);
        assert_eq!(
            g.side_to_move(),
            Side::First,
            "the first player, now white, places the 4th"
        );
        // Black (the second side) makes five and wins: the winner is the second side.
        play_all(&mut g, "a1 j8 a2 k8 a3");
        g.play("l8").unwrap();
        let Status::Over(e) = g.status() else {
            panic!("{:?}", g.status())
        };
        assert_eq!(e.outcome, Outcome::Win { winner: Side::Second });
        assert_eq!(e.reason, "five");
    }

    #[test]
    fn swap2_two_more_stones_and_the_first_chooses() {
        for (choice, black, to_move) in [
            ("choose:black", Side::First, Side::Second),
            ("choose:white", Side::Second, Side::First),
        ] {
            let mut g = RenjuGame::new(Rules::SWAP2);
            play_all(&mut g, "h8 h9 i8 more");
            assert_eq!(g.side_to_move(), Side::Second);
            play_all(&mut g, "i9 j7");
            assert_eq!(g.side_to_move(), Side::First);
            assert_eq!(g.legal_moves(), ["choose:black", "choose:white"]);
            g.play(choice).unwrap();
            assert_eq!(g.seats().black, black);
            assert_eq!(g.side_to_move(), to_move, "white places the 6th");
            assert_eq!(g.position().turn(), Color::White);
            assert_eq!(g.stones().len(), 5);
        }
    }

    #[test]
    fn soosorv8_runs_its_steps() {
        let mut g = RenjuGame::new(Rules::SOOSORV8);
        assert_eq!(g.legal_moves(), ["h8"]);
        g.play("h8").unwrap();
        assert_eq!(g.legal_moves().len(), 8, "the 3×3");
        assert!(g.play("h10").is_err());
        g.play("h9").unwrap();
        assert_eq!(g.legal_moves().len(), 23, "the 5×5");
        assert!(g.play("h11").is_err());
        g.play("h10").unwrap();
        assert_eq!(g.side_to_move(), Side::Second);
        assert_eq!(g.legal_moves(), ["choose:black", "choose:white"]);
        // The second player swaps: it is black now; the first places the 4th.
        g.play("choose:black").unwrap();
        assert_eq!(g.side_to_move(), Side::First);
        assert_eq!(keys(&g), [Some("tentative_white"), Some("tentative_black")]);
        g.play("g9").unwrap();
        assert_eq!(g.side_to_move(), Side::First, "white declares");
        assert_eq!(g.legal_moves().len(), 8);
        assert!(g.play("declare:9").is_err());
        g.play("declare:2").unwrap();
        // Black's player (the second) may swap: it stays black.
        assert_eq!(g.side_to_move(), Side::Second);
        g.play("choose:black").unwrap();
        assert_eq!(keys(&g), [Some("white"), Some("black")]);
        assert_eq!(g.side_to_move(), Side::Second);
        g.play("offer:j9").unwrap();
        assert!(g.fen().ends_with(" b j9"), "{}", g.fen());
        assert!(g.play("offer:j9").is_err());
        g.play("offer:i11").unwrap();
        assert_eq!(g.side_to_move(), Side::First, "white selects");
        assert_eq!(g.legal_moves(), ["select:j9", "select:i11"]);
        assert!(g.play("select:a1").is_err());
        g.play("select:i11").unwrap();
        assert_eq!(g.stones().len(), 5);
        assert_eq!(
            g.position().board().get("i11".parse().unwrap()),
            Some(Color::Black)
        );
        assert_eq!(g.side_to_move(), Side::First, "white plays the 6th");
        assert!(!g.fen().contains(','));
        assert_eq!(g.legal_moves().len(), 220);
    }

    #[test]
    fn a_position_with_stones_starts_after_the_opening() {
        let g = RenjuGame::from_fen("15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w", Rules::SWAP2).unwrap();
        assert_eq!(g.side_to_move(), Side::Second);
        assert_eq!(keys(&g), [Some("black"), Some("white")]);
        assert_eq!(g.variant(), "gomoku/swap2");
    }

    #[test]
    fn the_computer_plays_through_each_opening() {
        use crate::computer::{choose_in_game, Level};
        for rules in [Rules::SWAP2, Rules::STANDARD_SWAP2, Rules::SOOSORV8, Rules::RIF] {
            for level in [1, 3] {
                let mut g = RenjuGame::new(rules);
                for _ in 0..14 {
                    let Some(m) = choose_in_game(&g, Level::new(level).unwrap()) else {
                        break;
                    };
                    assert!(
                        g.legal_moves().contains(&m),
                        "{rules} level {level}: {m} not legal"
                    );
                    g.play(&m).unwrap();
                }
                assert_eq!(g.phase(), &Phase::Play, "{rules} level {level}");
            }
        }
    }
}
