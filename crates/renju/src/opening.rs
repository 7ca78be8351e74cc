//! The opening rules: who places the first stones and how the players'
//! colours are settled. Each step is a move of the game in its own notation,
//! checked here like any stone:
//!
//! | move | meaning |
//! |---|---|
//! | `h8` | a stone of the colour to move |
//! | `choose:black`, `choose:white` | the player to move takes that colour |
//! | `more` | swap2's third option: place two more stones, the other chooses |
//! | `declare:N` | Soosõrv: the number of 5th moves black must offer |
//! | `offer:h10` | Soosõrv: black offers a 5th move |
//! | `select:h10` | Soosõrv: white picks the offered 5th move, which black plays |
//!
//! **Seats and colours.** The platform's sides are the two *players*: the
//! `first` side is the player who moves first — the tentative black (假先)
//! who places the opening stones — and the `second` the tentative white
//! (假后). A player keeps its side for the whole game (its clock, its
//! result, its rating); which colour each side plays is part of the game's
//! state ([`Seats`]), settled by the `choose:` moves. Without an opening
//! rule the first side plays black from the start.
//!
//! * **Swap2** (Gomocup; the Gomoku World Championships): the first player
//!   places three stones anywhere — black, white, black. The second then
//!   plays white (`choose:white`, and places the 4th stone), takes black
//!   (`choose:black`: the first player, now white, places the 4th), or
//!   places two more stones, a white and a black (`more`), after which the
//!   first player chooses a colour and white places the 6th stone.
//! * **Soosõrv-8** (the RIF's rule for the Renju World Championship since
//!   2017): the first player puts one of the 26 openings — black on h8, white
//!   in the central 3×3, black in the central 5×5; the second may swap
//!   (`choose:`); white places the 4th stone anywhere and declares how many
//!   5th moves black will offer, 1 to 8 (`declare:N`); the other player may
//!   swap; black offers that many 5th moves, no two of them symmetrical
//!   (`offer:`); white picks one (`select:`), black's stone goes there, and
//!   white plays the 6th. Soosõrv-8 rather than the RIF's older rules or
//!   Taraguchi-10: it is the rule the world championships play now, and
//!   with up to eight offers all 26 openings are playable.

use crate::board::Board;
use crate::point::{Color, Point, SIZE};
use crate::rules::Opening;
use game::Side;
use std::fmt;

/// The highest number of 5th moves Soosõrv lets white ask for, any N.
pub const MAX_OFFERS: u8 = 8;

/// A move of the game: a stone, or a step of the opening rule (or the
/// office rules' foul claim).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Stone(Point),
    /// The player to move takes this colour.
    Choose(Color),
    /// Swap2's third option.
    More,
    /// Soosõrv: the number of 5th moves black must offer.
    Declare(u8),
    /// Soosõrv: black offers a 5th move.
    Offer(Point),
    /// Soosõrv: white picks one of the offered 5th moves.
    Select(Point),
    /// Office rules: white points out black's forbidden stone.
    Foul,
}

/// A move text that is no move of this game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no move {text:?}: a move is a point (h8), choose:black, choose:white, more, declare:N, offer:POINT, \
     select:POINT or foul"
)]
pub struct ActionError {
    pub text: String,
}

impl std::str::FromStr for Action {
    type Err = ActionError;

    fn from_str(s: &str) -> Result<Action, ActionError> {
        let err = || ActionError { text: s.to_owned() };
        let s = s.trim();
        let point = |t: &str| t.parse::<Point>().map_err(|_| err());
        Ok(match s.split_once(':') {
            None => match s {
                "more" => Action::More,
                "foul" => Action::Foul,
                _ => Action::Stone(point(s)?),
            },
            Some(("choose", "black")) => Action::Choose(Color::Black),
            Some(("choose", "white")) => Action::Choose(Color::White),
            Some(("declare", n)) => {
                let n: u8 = n.parse().map_err(|_| err())?;
                Action::Declare(n)
            }
            Some(("offer", p)) => Action::Offer(point(p)?),
            Some(("select", p)) => Action::Select(point(p)?),
            _ => return Err(err()),
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Stone(p) => write!(f, "{p}"),
            Action::Choose(Color::Black) => f.write_str("choose:black"),
            Action::Choose(Color::White) => f.write_str("choose:white"),
            Action::More => f.write_str("more"),
            Action::Declare(n) => write!(f, "declare:{n}"),
            Action::Offer(p) => write!(f, "offer:{p}"),
            Action::Select(p) => write!(f, "select:{p}"),
            Action::Foul => f.write_str("foul"),
        }
    }
}

/// Which side plays black. Before the opening rule has settled it, the
/// first side is the tentative black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seats {
    pub black: Side,
    /// Whether the colours are settled (always, without an opening rule).
    pub settled: bool,
}

impl Seats {
    /// The side that plays `color`.
    #[must_use]
    pub fn side_of(self, color: Color) -> Side {
        match color {
            Color::Black => self.black,
            Color::White => self.black.other(),
        }
    }

    /// The colour `side` plays (tentatively, before it is settled).
    #[must_use]
    pub fn color_of(self, side: Side) -> Color {
        if side == self.black {
            Color::Black
        } else {
            Color::White
        }
    }
}

/// Where the opening stands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The first player places the opening's three stones.
    Opening,
    /// Swap2: the second player chooses white, black, or `more`.
    Swap2Choice,
    /// Swap2: the second player places the 4th (white) and 5th (black) stones.
    Swap2More,
    /// Swap2: the first player chooses a colour.
    Swap2Final,
    /// Soosõrv: the tentative white may swap.
    FirstSwap,
    /// Soosõrv: white places the 4th stone.
    Fourth,
    /// Soosõrv: white declares the number of 5th moves.
    Declare,
    /// Soosõrv: black's player may swap.
    SecondSwap { offers: u8 },
    /// Soosõrv: black offers 5th moves until there are `wanted`.
    Offering { wanted: u8, offered: Vec<Point> },
    /// Soosõrv: white picks one of the offers.
    Selecting { offered: Vec<Point> },
    /// The opening is over: stones alternate.
    Play,
}

/// The opening rule's state beside the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OpeningState {
    pub rule: Opening,
    pub phase: Phase,
    pub seats: Seats,
}

/// Why an opening move is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    #[error("{found} is not a move now: {expected}")]
    NotNow { found: String, expected: &'static str },
    #[error("the 2nd stone of a renju opening goes next to h8 (the central 3×3), not {point}")]
    Outside3x3 { point: Point },
    #[error("the 3rd stone of a renju opening goes in the central 5×5 (f6 to j10), not {point}")]
    Outside5x5 { point: Point },
    #[error("white may ask for 1 to {max} fifth moves, not {found}")]
    OfferCount { found: u8, max: u8 },
    #[error("{point} is taken")]
    Occupied { point: Point },
    #[error("{point} is offered already")]
    OfferedTwice { point: Point },
    #[error("{point} is symmetrical to the offer {other}: the 5th moves offered may not be")]
    Symmetrical { point: Point, other: Point },
    #[error("{point} is not one of the offered 5th moves ({offered})")]
    NotOffered { point: Point, offered: String },
}

impl OpeningState {
    /// The start of a game under `rule` from the empty board.
    #[must_use]
    pub fn new(rule: Opening) -> OpeningState {
        let (phase, settled) = match rule {
            Opening::Centre => (Phase::Play, true),
            _ => (Phase::Opening, false),
        };
        OpeningState {
            rule,
            phase,
            seats: Seats {
                black: Side::First,
                settled,
            },
        }
    }

    /// A game from a position with stones on it: the opening is over and
    /// the first side plays black.
    #[must_use]
    pub fn finished(rule: Opening) -> OpeningState {
        OpeningState {
            rule,
            phase: Phase::Play,
            seats: Seats {
                black: Side::First,
                settled: true,
            },
        }
    }

    /// Whether stones simply alternate now.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Play
    }

    /// The side to move, given the colour of the next stone.
    #[must_use]
    pub fn to_move(&self, next_stone: Color) -> Side {
        match &self.phase {
            Phase::Opening | Phase::Swap2Final => Side::First,
            Phase::Swap2Choice | Phase::Swap2More | Phase::FirstSwap => Side::Second,
            Phase::Fourth | Phase::Declare | Phase::Selecting { .. } => self.seats.side_of(Color::White),
            Phase::SecondSwap { .. } | Phase::Offering { .. } => self.seats.side_of(Color::Black),
            Phase::Play => self.seats.side_of(next_stone),
        }
    }

    /// The offered 5th moves on the board now (Soosõrv).
    #[must_use]
    pub fn offers(&self) -> &[Point] {
        match &self.phase {
            Phase::Offering { offered, .. } | Phase::Selecting { offered } => offered,
            _ => &[],
        }
    }

    /// The moves other than stones that may be made now, and whether a
    /// stone may be (subject to the board's own rules).
    #[must_use]
    pub fn choices(&self, board: &Board) -> (Vec<Action>, bool) {
        let colours = || vec![Action::Choose(Color::Black), Action::Choose(Color::White)];
        match &self.phase {
            Phase::Play | Phase::Opening | Phase::Swap2More | Phase::Fourth => (Vec::new(), true),
            Phase::Swap2Choice => {
                let mut v = colours();
                v.push(Action::More);
                (v, false)
            }
            Phase::Swap2Final | Phase::FirstSwap | Phase::SecondSwap { .. } => (colours(), false),
            Phase::Declare => {
                let max = self.max_offers();
                ((1..=max).map(Action::Declare).collect(), false)
            }
            Phase::Offering { offered, .. } => (
                board
                    .empty_points()
                    .filter(|&p| self.check_offer(board, offered, p).is_ok())
                    .map(Action::Offer)
                    .collect(),
                false,
            ),
            Phase::Selecting { offered } => (offered.iter().copied().map(Action::Select).collect(), false),
        }
    }

    fn max_offers(&self) -> u8 {
        match self.rule {
            Opening::Soosorv { max_offers } => max_offers.clamp(1, MAX_OFFERS),
            _ => 1,
        }
    }

    /// Whether a stone on `p` is allowed by the opening now (the board's
    /// own rules — taken points, black's first stone — are checked apart).
    pub fn check_stone(&self, board: &Board, p: Point) -> Result<(), OpeningError> {
        let placing = matches!(
            self.phase,
            Phase::Play | Phase::Opening | Phase::Swap2More | Phase::Fourth
        );
        if !placing {
            return Err(self.not_now(&Action::Stone(p)));
        }
        if self.phase == Phase::Opening && matches!(self.rule, Opening::Soosorv { .. }) {
            let reach = |q: Point| {
                q.col()
                    .abs_diff(Point::CENTRE.col())
                    .max(q.row().abs_diff(Point::CENTRE.row()))
            };
            match board.stones() {
                1 if reach(p) > 1 => return Err(OpeningError::Outside3x3 { point: p }),
                2 if reach(p) > 2 => return Err(OpeningError::Outside5x5 { point: p }),
                _ => {}
            }
        }
        Ok(())
    }

    fn not_now(&self, action: &Action) -> OpeningError {
        let expected = match &self.phase {
            Phase::Play | Phase::Opening | Phase::Swap2More | Phase::Fourth => "a stone is to be placed",
            Phase::Swap2Choice => "the second player chooses: choose:black, choose:white or more",
            Phase::Swap2Final | Phase::FirstSwap | Phase::SecondSwap { .. } => {
                "a colour is to be chosen: choose:black or choose:white"
            }
            Phase::Declare => "white declares the number of 5th moves: declare:N",
            Phase::Offering { .. } => "black offers 5th moves: offer:POINT",
            Phase::Selecting { .. } => "white selects an offered 5th move: select:POINT",
        };
        OpeningError::NotNow {
            found: action.to_string(),
            expected,
        }
    }

    fn check_offer(&self, board: &Board, offered: &[Point], p: Point) -> Result<(), OpeningError> {
        if !board.is_empty_at(p) {
            return Err(OpeningError::Occupied { point: p });
        }
        if offered.contains(&p) {
            return Err(OpeningError::OfferedTwice { point: p });
        }
        for t in symmetries_of(board) {
            if let Some(&other) = offered.iter().find(|&&q| transform(t, q) == p) {
                return Err(OpeningError::Symmetrical { point: p, other });
            }
        }
        Ok(())
    }

    /// Checks a move other than a stone (and the foul claim) and applies
    /// it. Returns the point of a black stone to put on the board (a
    /// selected 5th move).
    pub fn apply_choice(&mut self, board: &Board, action: Action) -> Result<Option<Point>, OpeningError> {
        let refuse = |s: &OpeningState| Err(s.not_now(&action));
        match (&mut self.phase, action) {
            (Phase::Swap2Choice, Action::Choose(c)) => {
                self.seats.black = if c == Color::Black {
                    Side::Second
                } else {
                    Side::First
                };
                self.settle(Phase::Play);
            }
            (Phase::Swap2Choice, Action::More) => self.phase = Phase::Swap2More,
            (Phase::Swap2Final, Action::Choose(c)) => {
                self.seats.black = if c == Color::Black {
                    Side::First
                } else {
                    Side::Second
                };
                self.settle(Phase::Play);
            }
            (Phase::FirstSwap, Action::Choose(c)) => {
                self.seats.black = if c == Color::Black {
                    Side::Second
                } else {
                    Side::First
                };
                self.phase = Phase::Fourth;
            }
            (Phase::Declare, Action::Declare(n)) => {
                let max = self.max_offers();
                if !(1..=max).contains(&n) {
                    return Err(OpeningError::OfferCount { found: n, max });
                }
                self.phase = Phase::SecondSwap { offers: n };
            }
            (Phase::SecondSwap { offers }, Action::Choose(c)) => {
                let wanted = *offers;
                let chooser = self.seats.black;
                self.seats.black = if c == Color::Black {
                    chooser
                } else {
                    chooser.other()
                };
                self.seats.settled = true;
                self.phase = Phase::Offering {
                    wanted,
                    offered: Vec::new(),
                };
            }
            (Phase::Offering { wanted, offered }, Action::Offer(p)) => {
                let (wanted, mut list) = (*wanted, offered.clone());
                self.check_offer(board, &list, p)?;
                list.push(p);
                self.phase = if list.len() >= usize::from(wanted) {
                    Phase::Selecting { offered: list }
                } else {
                    Phase::Offering {
                        wanted,
                        offered: list,
                    }
                };
            }
            (Phase::Selecting { offered }, Action::Select(p)) => {
                if !offered.contains(&p) {
                    let offered = offered
                        .iter()
                        .map(Point::to_string)
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(OpeningError::NotOffered { point: p, offered });
                }
                self.phase = Phase::Play;
                return Ok(Some(p));
            }
            _ => return refuse(self),
        }
        Ok(None)
    }

    fn settle(&mut self, phase: Phase) {
        self.seats.settled = true;
        self.phase = phase;
    }

    /// After a stone went on the board (now holding `stones`).
    pub fn after_stone(&mut self, stones: usize) {
        self.phase = match (&self.phase, self.rule, stones) {
            (Phase::Opening, Opening::Swap2, 3) => Phase::Swap2Choice,
            (Phase::Opening, Opening::Soosorv { .. }, 3) => Phase::FirstSwap,
            (Phase::Swap2More, _, 5) => Phase::Swap2Final,
            (Phase::Fourth, _, 4) => Phase::Declare,
            (phase, _, _) => phase.clone(),
        };
    }
}

/// The eight symmetries of the square board about its centre, as
/// (swap the axes, mirror columns, mirror rows).
const SYMMETRIES: [(bool, bool, bool); 8] = [
    (false, false, false),
    (false, true, false),
    (false, false, true),
    (false, true, true),
    (true, false, false),
    (true, true, false),
    (true, false, true),
    (true, true, true),
];

fn transform((swap, mc, mr): (bool, bool, bool), p: Point) -> Point {
    let (mut c, mut r) = (p.col(), p.row());
    if swap {
        std::mem::swap(&mut c, &mut r);
    }
    if mc {
        c = SIZE - 1 - c;
    }
    if mr {
        r = SIZE - 1 - r;
    }
    Point::new(c, r).expect("a symmetry keeps points on the board")
}

/// The symmetries that map the stones on `board` onto themselves, colour
/// for colour: two offers one of them maps onto the other are the same 5th
/// move.
fn symmetries_of(board: &Board) -> Vec<(bool, bool, bool)> {
    SYMMETRIES
        .iter()
        .copied()
        .filter(|&t| {
            [Color::Black, Color::White]
                .iter()
                .all(|&c| board.points_of(c).all(|p| board.get(transform(t, p)) == Some(c)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn actions_read_back() {
        for text in [
            "h8",
            "choose:black",
            "choose:white",
            "more",
            "declare:3",
            "offer:h10",
            "select:j7",
            "foul",
        ] {
            assert_eq!(text.parse::<Action>().unwrap().to_string(), text);
        }
        for bad in ["swap", "choose:red", "declare:x", "offer:z9", "h16", ""] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
    }

    #[test]
    fn symmetrical_offers_are_refused() {
        // h8 black, h9 white, h10 black: a column, symmetrical left to right.
        let mut board = Board::empty();
        board.set(pt("h8"), Color::Black);
        board.set(pt("h9"), Color::White);
        board.set(pt("h10"), Color::Black);
        board.set(pt("h6"), Color::White);
        let mut s = OpeningState {
            rule: Opening::Soosorv { max_offers: 8 },
            phase: Phase::Offering {
                wanted: 2,
                offered: Vec::new(),
            },
            seats: Seats {
                black: Side::First,
                settled: true,
            },
        };
        s.apply_choice(&board, Action::Offer(pt("g9"))).unwrap();
        assert_eq!(
            s.apply_choice(&board, Action::Offer(pt("i9"))),
            Err(OpeningError::Symmetrical {
                point: pt("i9"),
                other: pt("g9")
            })
        );
        let (choices, stones) = s.choices(&board);
        assert!(!stones);
        assert!(!choices.contains(&Action::Offer(pt("i9"))));
        assert!(choices.contains(&Action::Offer(pt("i10"))));
        s.apply_choice(&board, Action::Offer(pt("g7"))).unwrap();
        assert_eq!(
            s.phase,
            Phase::Selecting {
                offered: vec![pt("g9"), pt("g7")]
            }
        );
    }
}
