//! The position format: rows 15 (top) down to 1 separated by `/`, each row
//! read from column a to o with `x` a black stone, `o` a white stone and a
//! number for a run of empty points; then a space and the side to move, `b`
//! or `w`. The empty board with black to move is
//! `15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b`.
//!
//! A [`Setup`] is what the text says, unchecked; `Position::from_setup`
//! checks it against the rules.

use crate::board::Board;
use crate::point::{Color, Point, SIZE};
use std::fmt;
use std::str::FromStr;

/// A board and a side to move, as read: nothing about them is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
}

/// What is wrong with a position text. Rows are named as on the board
/// (15 at the top, 1 at the bottom).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("the position is empty")]
    Empty,
    #[error("the position has {found} rows; a renju board has 15 (rows 15 down to 1, separated by '/')")]
    RowCount { found: usize },
    #[error("row {row} has {columns} columns; a row has 15 (a to o)")]
    RowWidth { row: usize, columns: usize },
    #[error("row {row} has {found:?}, which is not x (black), o (white) or a number of empty points")]
    BadChar { row: usize, found: char },
    #[error("row {row} has an empty run of 0 points")]
    ZeroRun { row: usize },
    #[error("the side to move is missing: add ' b' (black) or ' w' (white) after the rows")]
    MissingTurn,
    #[error("the side to move is {found:?}; it is b (black) or w (white)")]
    BadTurn { found: String },
    #[error("unexpected text after the side to move: {found:?}")]
    Trailing { found: String },
}

impl Setup {
    /// The empty board, black to move.
    #[must_use]
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::Black,
        }
    }

    /// Reads a position text.
    pub fn from_fen(text: &str) -> Result<Setup, FenError> {
        let mut fields = text.split_whitespace();
        let rows_text = fields.next().ok_or(FenError::Empty)?;
        let rows: Vec<&str> = rows_text.split('/').collect();
        if rows.len() != SIZE {
            return Err(FenError::RowCount { found: rows.len() });
        }
        let mut board = Board::empty();
        for (i, text) in rows.iter().enumerate() {
            let row = SIZE - i; // named 15 … 1
            let mut col = 0usize;
            let mut run: Option<usize> = None;
            let mut stones: Vec<(usize, Color)> = Vec::new();
            let flush = |run: &mut Option<usize>, col: &mut usize| -> Result<(), FenError> {
                if let Some(n) = run.take() {
                    if n == 0 {
                        return Err(FenError::ZeroRun { row });
                    }
                    *col += n;
                }
                Ok(())
            };
            for ch in text.chars() {
                match ch {
                    '0'..='9' => {
                        let d = ch as usize - '0' as usize;
                        // Cap to avoid overflow on absurd input; the width
                        // check reports it.
                        run = Some((run.unwrap_or(0) * 10 + d).min(10_000));
                    }
                    'x' | 'X' | 'o' | 'O' => {
                        flush(&mut run, &mut col)?;
                        let color = if ch.eq_ignore_ascii_case(&'x') {
                            Color::Black
                        } else {
                            Color::White
                        };
                        stones.push((col, color));
                        col += 1;
                    }
                    other => return Err(FenError::BadChar { row, found: other }),
                }
            }
            flush(&mut run, &mut col)?;
            if col != SIZE {
                return Err(FenError::RowWidth { row, columns: col });
            }
            for (c, color) in stones {
                board.set(Point::new(c, row - 1).expect("width checked"), color);
            }
        }
        let turn = match fields.next() {
            None => return Err(FenError::MissingTurn),
            Some("b" | "B") => Color::Black,
            Some("w" | "W") => Color::White,
            Some(other) => {
                return Err(FenError::BadTurn {
                    found: other.to_owned(),
                })
            }
        };
        let rest: Vec<&str> = fields.collect();
        if !rest.is_empty() {
            return Err(FenError::Trailing {
                found: rest.join(" "),
            });
        }
        Ok(Setup { board, turn })
    }

    /// Writes the position text.
    #[must_use]
    pub fn to_fen(&self) -> String {
        board_fen(&self.board, self.turn)
    }
}

/// The position text of a board with `turn` to move.
#[must_use]
pub fn board_fen(board: &Board, turn: Color) -> String {
    let mut s = String::with_capacity(64);
    for row in (0..SIZE).rev() {
        let mut empty = 0;
        for col in 0..SIZE {
            match board.get(Point::new(col, row).expect("on the board")) {
                None => empty += 1,
                Some(color) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(if color == Color::Black { 'x' } else { 'o' });
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if row > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(if turn == Color::Black { 'b' } else { 'w' });
    s
}

impl FromStr for Setup {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Setup, FenError> {
        Setup::from_fen(s)
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b";

    #[test]
    fn round_trip() {
        let s = Setup::from_fen(EMPTY).unwrap();
        assert_eq!(s, Setup::empty());
        assert_eq!(s.to_fen(), EMPTY);
        let fen = "x14/15/15/15/15/15/15/7x1o5/15/15/15/15/15/15/14o w";
        let s = Setup::from_fen(fen).unwrap();
        assert_eq!(s.to_fen(), fen);
        assert_eq!(s.board.get("a15".parse().unwrap()), Some(Color::Black));
        assert_eq!(s.board.get("h8".parse().unwrap()), Some(Color::Black));
        assert_eq!(s.board.get("j8".parse().unwrap()), Some(Color::White));
        assert_eq!(s.board.get("o1".parse().unwrap()), Some(Color::White));
        assert_eq!(s.turn, Color::White);
    }

    #[test]
    fn errors_name_the_row() {
        let e = |t: &str| Setup::from_fen(t).unwrap_err().to_string();
        assert_eq!(
            e("15/15/16/15/15/15/15/15/15/15/15/15/15/15/15 b"),
            "row 13 has 16 columns; a row has 15 (a to o)"
        );
        assert_eq!(
            e("15/15/15/15/15/15/15/15/15/15/15/15/x15/15/15 b"),
            "row 3 has 16 columns; a row has 15 (a to o)"
        );
        assert!(e("15/15/15 b").starts_with("the position has 3 rows"));
        assert!(e("15/15/15/15/15/15/15/15/15/15/15/15/15/15/14q b").starts_with("row 1 has 'q'"));
        assert!(e("15/15/15/15/15/15/15/15/15/15/15/15/15/15/0x14 b").contains("run of 0"));
        assert!(e("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15").contains("side to move is missing"));
        assert!(e("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 r").contains("\"r\""));
        assert!(e("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b 1").contains("after the side"));
        assert_eq!(e(""), "the position is empty");
        assert!(
            e("99999999999999999999x/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b").contains("row 15 has")
        );
    }
}
