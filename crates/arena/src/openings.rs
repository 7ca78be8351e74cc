//! Opening positions for matches.
//!
//! A file holds one opening per line: a FEN, a FEN followed by `moves …`,
//! `startpos moves …`, or just ICCS moves from the start position. `#` starts
//! a comment. Every move is checked: a bad line is an error naming the line.

use xiangqi::{Move, Position};

/// The openings shipped with qiju (`openings/basic.txt`).
pub const BASIC: &str = include_str!("../openings/basic.txt");

/// One opening: a start position and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start position with no moves.
    #[must_use]
    pub fn startpos() -> Opening {
        Opening {
            start: Position::startpos(),
            moves: Vec::new(),
        }
    }

    /// The position after the opening moves.
    #[must_use]
    pub fn position(&self) -> Position {
        let mut p = self.start.clone();
        for &m in &self.moves {
            p.play_unchecked(m);
        }
        p
    }
}

/// A line of an openings file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("openings line {line}: {reason}")]
pub struct OpeningError {
    pub line: usize,
    pub reason: String,
}

fn parse_iccs(s: &str) -> Option<Move> {
    s.parse().ok()
}

/// Parses an openings file.
///
/// # Errors
/// A line with a bad FEN or an illegal move.
pub fn parse(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |reason: String| OpeningError { line: i + 1, reason };
        let (head, moves) = match line.split_once(" moves") {
            Some((h, m)) => (h.trim(), m.split_whitespace().collect::<Vec<_>>()),
            None => (line, Vec::new()),
        };
        let first = head.split_whitespace().next().unwrap_or("");
        let (start, moves) = if head == "startpos" {
            (Position::startpos(), moves)
        } else if parse_iccs(first).is_some() && moves.is_empty() {
            (Position::startpos(), head.split_whitespace().collect())
        } else {
            (
                Position::from_fen(head).map_err(|e| err(format!("bad FEN: {e}")))?,
                moves,
            )
        };
        let mut pos = start.clone();
        let mut list = Vec::new();
        for m in moves {
            let mv = parse_iccs(m).ok_or_else(|| err(format!("{m:?} is not an ICCS move")))?;
            pos.play(mv).map_err(|e| err(format!("{m} is illegal: {e}")))?;
            list.push(mv);
        }
        if pos.legal_moves().is_empty() {
            return Err(err("the game is already over".into()));
        }
        out.push(Opening { start, moves: list });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_openings_are_legal_and_distinct() {
        let o = parse(BASIC).unwrap();
        assert_eq!(o.len(), 20);
        let keys: std::collections::HashSet<u64> = o.iter().map(|x| x.position().key()).collect();
        assert_eq!(keys.len(), o.len());
    }

    #[test]
    fn formats_and_errors() {
        let o = parse("startpos moves h2e2\n# comment\n\n4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1 moves e0f0\n")
            .unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1].moves.len(), 1);
        assert_eq!(parse("h2e2 h2e3").unwrap_err().line, 1);
        assert_eq!(parse("\nnot a fen").unwrap_err().line, 2);
    }
}
