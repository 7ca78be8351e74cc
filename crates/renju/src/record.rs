//! Game records: move lists in our notation (`h8 i9 j10 …`) and the
//! Piskvork / Gomocup `.psq` text format.
//!
//! A `.psq` file, as Piskvork (the Gomocup manager) writes it:
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0
//! 8,8,0
//! 9,7,1250
//! …
//! ```
//!
//! The first line names the board size (`W`x`H`); the two fields after it
//! (a window position and a flag) carry nothing about the game. Then one
//! line per move, `x,y,ms`: x is the column counted from 1 at the left
//! (a = 1), y the row counted from 1 at the **top** (our row 15 = 1), and ms
//! the thinking time in milliseconds (optional here). Moves alternate from
//! black. The move lines end at the first line that is not one (Piskvork
//! writes the engines' names and a result code there); that tail is
//! ignored when reading. We write `0` for the time and `-1` as the tail.

use crate::point::{Point, PointError, SIZE};

/// A move list that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("move {number}: {source}")]
    Point { number: usize, source: PointError },
    #[error("move {number}: {point} is played twice")]
    Repeated { number: usize, point: Point },
    #[error("not a .psq file: the first line should start \"Piskvorky 15x15,\", found {found:?}")]
    PsqHeader { found: String },
    #[error("the .psq board is {width}x{height}; gomoku and renju here are 15x15")]
    PsqSize { width: usize, height: usize },
    #[error(".psq line {line}: the point {x},{y} is off the 15x15 board (x and y count from 1)")]
    PsqOffBoard { line: usize, x: i64, y: i64 },
}

/// Reads a move list: points separated by spaces, commas or semicolons,
/// optionally numbered (`1. h8 2. i9`), or run together (`h8i9j10`).
pub fn parse_moves(text: &str) -> Result<Vec<Point>, RecordError> {
    let mut out: Vec<Point> = Vec::new();
    for token in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        // Strip a move number such as "12." in front.
        let token = token
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches('.');
        if token.is_empty() {
            continue;
        }
        // Split run-together points: a letter starts each.
        let mut start = 0;
        let bytes = token.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_alphabetic() {
                let piece = &token[start..i];
                let number = out.len() + 1;
                let p: Point = piece
                    .parse()
                    .map_err(|source| RecordError::Point { number, source })?;
                if out.contains(&p) {
                    return Err(RecordError::Repeated { number, point: p });
                }
                out.push(p);
                start = i;
            }
        }
    }
    Ok(out)
}

/// Writes a move list, points separated by single spaces.
#[must_use]
pub fn format_moves(moves: &[Point]) -> String {
    moves.iter().map(Point::to_string).collect::<Vec<_>>().join(" ")
}

/// Reads the moves of a `.psq` file.
pub fn read_psq(text: &str) -> Result<Vec<Point>, RecordError> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("").trim();
    let size = header
        .strip_prefix("Piskvorky ")
        .and_then(|rest| rest.split(',').next())
        .and_then(|wh| wh.trim().split_once(['x', 'X']))
        .and_then(|(w, h)| Some((w.trim().parse::<usize>().ok()?, h.trim().parse::<usize>().ok()?)));
    let Some((width, height)) = size else {
        return Err(RecordError::PsqHeader {
            found: header.chars().take(40).collect(),
        });
    };
    if width != SIZE || height != SIZE {
        return Err(RecordError::PsqSize { width, height });
    }
    let mut moves = Vec::new();
    for (i, line) in lines.enumerate() {
        let fields: Vec<&str> = line.trim().split(',').map(str::trim).collect();
        let numbers: Option<Vec<i64>> = fields.iter().map(|f| f.parse().ok()).collect();
        let Some(numbers) = numbers.filter(|n| n.len() == 2 || n.len() == 3) else {
            break;
        };
        let (x, y) = (numbers[0], numbers[1]);
        let line_no = i + 2;
        let on_board = |v: i64| (1..=SIZE as i64).contains(&v);
        if !on_board(x) || !on_board(y) {
            return Err(RecordError::PsqOffBoard { line: line_no, x, y });
        }
        let p = Point::new(x as usize - 1, SIZE - y as usize).expect("checked");
        if moves.contains(&p) {
            return Err(RecordError::Repeated {
                number: moves.len() + 1,
                point: p,
            });
        }
        moves.push(p);
    }
    Ok(moves)
}

/// Writes moves as a `.psq` file.
#[must_use]
pub fn write_psq(moves: &[Point]) -> String {
    let mut s = format!("Piskvorky {SIZE}x{SIZE}, 11:11, 0\n");
    for p in moves {
        s.push_str(&format!("{},{},0\n", p.col() + 1, SIZE - p.row()));
    }
    s.push_str("-1\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(s: &str) -> Vec<Point> {
        parse_moves(s).unwrap()
    }

    #[test]
    fn move_lists() {
        let want = pts("h8 i9 j10");
        assert_eq!(format_moves(&want), "h8 i9 j10");
        assert_eq!(pts("h8i9j10"), want);
        assert_eq!(pts("1. h8 2. i9, 3. J10"), want);
        assert_eq!(pts("h8,i9;j10\n"), want);
        assert!(parse_moves("h8 z9")
            .unwrap_err()
            .to_string()
            .starts_with("move 2: no point \"z9\""));
        assert_eq!(
            parse_moves("h8 i9 h8").unwrap_err().to_string(),
            "move 3: h8 is played twice"
        );
    }

    #[test]
    fn psq_round_trip() {
        let moves = pts("h8 i9 a1 o15 a15");
        let text = write_psq(&moves);
        assert!(text.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\n1,15,0\n15,1,0\n1,1,0\n"));
        assert_eq!(read_psq(&text).unwrap(), moves);
        // Piskvork's tail: engine names and a result code.
        let tail =
            "Piskvorky 15x15, 11:11, 0\r\n8,8,1000\r\n9,9,234\r\npbrain-a.exe\r\npbrain-b.exe\r\n-1\r\n";
        assert_eq!(format_moves(&read_psq(tail).unwrap()), "h8 i7");
        assert!(matches!(
            read_psq("Piskvorky 20x20, 11:11, 0\n"),
            Err(RecordError::PsqSize {
                width: 20,
                height: 20
            })
        ));
        assert!(read_psq("hello")
            .unwrap_err()
            .to_string()
            .starts_with("not a .psq file"));
        assert!(read_psq("Piskvorky 15x15, 11:11, 0\n16,1,0\n").is_err());
    }
}
