//! FEN in and out.
//!
//! A FEN is read in two steps, as shakmaty does: [`Setup::from_fen`] parses
//! the text into an unvalidated placement (syntax errors), and
//! [`Position::from_setup`] checks that the placement could occur in a game
//! (rule errors). Both letter families are accepted — `rnbakcp` (Pikafish,
//! Fairy-Stockfish) and `rheakcp` (the Chinese tradition) — and `w`/`r` both
//! mean red to move. FENs are written with `rnbakcp` and `w`.

use crate::{Color, Piece, Position, Role, Square};
use std::fmt;

/// The standard start position.
pub const STARTPOS: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A placement as a FEN describes it, not yet checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: [Option<Piece>; 90],
    pub turn: Color,
    pub halfmove_clock: u32,
    pub fullmoves: u32,
}

/// Why a FEN could not be read. Ranks are numbered as in the FEN's own
/// order (rank 1 is the first one written, black's back rank) and also by
/// ICCS rank, files by letter, so the message points at the character.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN has {found} ranks, expected 10")]
    RankCount { found: usize },
    #[error("FEN rank {fen_rank} (ICCS rank {iccs_rank}) has {files} files, expected 9")]
    RankLength {
        fen_rank: usize,
        iccs_rank: u8,
        files: usize,
    },
    #[error("FEN rank {fen_rank} (ICCS rank {iccs_rank}): unknown piece letter {letter:?}")]
    UnknownPiece {
        fen_rank: usize,
        iccs_rank: u8,
        letter: char,
    },
    #[error("side to move must be w, r or b, found {0:?}")]
    BadTurn(String),
    #[error("bad {field} counter {value:?}")]
    BadCounter { field: &'static str, value: String },
    #[error("too many FEN fields ({0})")]
    TooManyFields(usize),
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Why a placement cannot be a Xiangqi position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{color} has no king")]
    MissingKing { color: Color },
    #[error("{color} has {count} kings")]
    TooManyKings { color: Color, count: u32 },
    #[error("{color} has {count} {role}s, at most {max} are possible")]
    TooManyPieces {
        color: Color,
        role: &'static str,
        count: u32,
        max: u32,
    },
    #[error("{piece} on {square} is on a square it can never reach")]
    ImpossibleSquare { piece: Piece, square: Square },
    #[error("{color} is in check but it is {turn}'s move")]
    OppositeCheck { color: Color, turn: Color },
}

/// Whether a piece may ever stand on a square in a legal game: kings and
/// advisors stay in their palace, elephants on their seven points, pawns never
/// step back and move sideways only after crossing the river.
#[must_use]
pub fn reachable(piece: Piece, sq: Square) -> bool {
    let own = |r: u8| match piece.color {
        Color::Red => r,
        Color::Black => 9 - r,
    };
    let (f, r) = (sq.file(), own(sq.rank()));
    match piece.role {
        Role::King => sq.in_palace(piece.color),
        Role::Advisor => sq.in_palace(piece.color) && (f + r) % 2 == 1,
        Role::Elephant => {
            matches!((f, r), (2 | 6, 0) | (0 | 4 | 8, 2) | (2 | 6, 4))
        }
        Role::Pawn => r >= 5 || ((r == 3 || r == 4) && f % 2 == 0),
        Role::Horse | Role::Rook | Role::Cannon => true,
    }
}

impl Setup {
    /// Parses FEN text. Missing fields after the placement default to red to
    /// move, counters 0 and 1.
    ///
    /// # Errors
    /// Says what is wrong and where.
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount { found: ranks.len() });
        }
        let mut board = [None; 90];
        for (i, text) in ranks.iter().enumerate() {
            let iccs_rank = 9 - i as u8;
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::UnknownPiece {
                            fen_rank: i + 1,
                            iccs_rank,
                            letter: ch,
                        });
                    }
                    file += d as usize;
                } else {
                    let role = Role::from_char(ch).filter(|_| ch.is_ascii_alphabetic()).ok_or(
                        FenError::UnknownPiece {
                            fen_rank: i + 1,
                            iccs_rank,
                            letter: ch,
                        },
                    )?;
                    let color = if ch.is_ascii_uppercase() {
                        Color::Red
                    } else {
                        Color::Black
                    };
                    if file < 9 {
                        board[Square::new(file as u8, iccs_rank).index()] = Some(Piece::new(color, role));
                    }
                    file += 1;
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                return Err(FenError::RankLength {
                    fen_rank: i + 1,
                    iccs_rank,
                    files: file,
                });
            }
        }
        let turn = match fields.next() {
            None | Some("w" | "r" | "W" | "R") => Color::Red,
            Some("b" | "B") => Color::Black,
            Some(other) => return Err(FenError::BadTurn(other.to_owned())),
        };
        // Castling and en passant fields, always "-" in Xiangqi; tolerate
        // anything there as other tools write odd placeholders.
        let rest: Vec<&str> = fields.collect();
        let (half, full) = match rest.len() {
            0 | 1 => (None, None),
            2 => (None, None),
            3 => (Some(rest[2]), None),
            4 => (Some(rest[2]), Some(rest[3])),
            n => return Err(FenError::TooManyFields(n + 2)),
        };
        let counter = |field: &'static str, v: Option<&str>, default: u32| -> Result<u32, FenError> {
            match v {
                None => Ok(default),
                Some(s) => s
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n < 100_000)
                    .ok_or(FenError::BadCounter {
                        field,
                        value: s.to_owned(),
                    }),
            }
        };
        Ok(Setup {
            board,
            turn,
            halfmove_clock: counter("halfmove", half, 0)?,
            fullmoves: counter("fullmove", full, 1)?,
        })
    }
}

impl Position {
    /// Checks a setup against the rules.
    ///
    /// # Errors
    /// The first rule the placement breaks.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut counts = [[0u32; 7]; 2];
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                counts[p.color.index()][p.role.index()] += 1;
            }
        }
        for color in Color::ALL {
            match counts[color.index()][Role::King.index()] {
                0 => return Err(PositionError::MissingKing { color }),
                1 => {}
                count => return Err(PositionError::TooManyKings { color, count }),
            }
            for role in Role::ALL {
                let count = counts[color.index()][role.index()];
                if count > role.initial_count() {
                    return Err(PositionError::TooManyPieces {
                        color,
                        role: role.name(),
                        count,
                        max: role.initial_count(),
                    });
                }
            }
        }
        let mut pos = Position::empty(setup.turn);
        for sq in Square::all() {
            if let Some(piece) = setup.board[sq.index()] {
                if !reachable(piece, sq) {
                    return Err(PositionError::ImpossibleSquare { piece, square: sq });
                }
                pos.put(piece, sq);
            }
        }
        pos.set_counters(setup.halfmove_clock, setup.fullmoves);
        let other = setup.turn.other();
        if pos.is_attacked_king(other) {
            return Err(PositionError::OppositeCheck {
                color: other,
                turn: setup.turn,
            });
        }
        Ok(pos)
    }

    /// Parses and validates a FEN; `startpos` is accepted too.
    ///
    /// # Errors
    /// See [`FenError`].
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fen = fen.trim();
        let fen = if fen == "startpos" { STARTPOS } else { fen };
        let setup = Setup::from_fen(fen)?;
        Ok(Position::from_setup(&setup)?)
    }

    /// The placement field of the FEN.
    #[must_use]
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match self.piece_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    /// The full FEN, e.g. `rnbakabnr/9/1c5c1/... w - - 0 1`.
    #[must_use]
    pub fn fen(&self) -> String {
        format!(
            "{} {} - - {} {}",
            self.board_fen(),
            self.turn().fen_char(),
            self.halfmove_clock(),
            self.fullmoves()
        )
    }
}

impl fmt::Display for Position {
    /// A text diagram, black at the top, for terminals and test failures.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9u8 {
                let c = self
                    .piece_at(Square::new(file, rank))
                    .map_or('.', Piece::fen_char);
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  a b c d e f g h i   ({} to move)", self.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let p = Position::from_fen(STARTPOS).unwrap();
        assert_eq!(p.fen(), STARTPOS);
        assert_eq!(Position::from_fen("startpos").unwrap(), p);
        // The other letter family and `r` for red read the same.
        let q = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r").unwrap();
        assert_eq!(q, p);
    }

    #[test]
    fn errors_say_what_and_where() {
        use FenError as E;
        let cases: &[(&str, FenError)] = &[
            ("", E::Empty),
            ("rnbakabnr/9/1c5c1 w", E::RankCount { found: 3 }),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
                E::RankLength {
                    fen_rank: 10,
                    iccs_rank: 0,
                    files: 10,
                },
            ),
            (
                "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                E::RankLength {
                    fen_rank: 2,
                    iccs_rank: 8,
                    files: 8,
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
                E::UnknownPiece {
                    fen_rank: 10,
                    iccs_rank: 0,
                    letter: 'X',
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                E::BadTurn("x".into()),
            ),
        ];
        for (fen, want) in cases {
            assert_eq!(Position::from_fen(fen).unwrap_err(), *want, "{fen}");
        }
    }

    #[test]
    fn rule_errors() {
        let err = |fen: &str| Position::from_fen(fen).unwrap_err();
        assert_eq!(
            err("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::Position(PositionError::MissingKing { color: Color::Black })
        );
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/4A4/3AKA3 w"),
            FenError::Position(PositionError::TooManyPieces {
                color: Color::Red,
                ..
            })
        ));
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/3A5/4K4 w"),
            FenError::Position(PositionError::ImpossibleSquare { .. })
        ));
        assert!(matches!(
            err("3k5/9/9/9/9/9/9/9/P8/4K4 w"),
            FenError::Position(PositionError::ImpossibleSquare { .. })
        ));
        // Kings facing with red to move: black "is in check" by the flying general.
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/9/4K4 w"),
            FenError::Position(PositionError::OppositeCheck {
                color: Color::Black,
                turn: Color::Red
            })
        );
        // Facing kings check each other, so no side to move makes it legal.
        assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 b").is_err());
        // Black in check by a rook with black to move is an ordinary position.
        assert!(Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b").is_ok());
        assert!(Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 w").is_err());
    }
}
