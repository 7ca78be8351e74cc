//! PGN output of match games: the chess PGN format with `[Variant
//! "xiangqi"]` and ICCS moves, which Xiangqi tools read.

use std::fmt::Write as _;
use xiangqi::{Move, Position};

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// A finished match game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based game number in the match.
    pub round: u32,
    pub red: String,
    pub black: String,
    pub start: Position,
    /// All moves from `start`, the opening's included.
    pub moves: Vec<Move>,
    /// How many of `moves` came from the opening book.
    pub book_plies: usize,
    pub result: GameResult,
    /// Why it ended, e.g. `checkmate`, `time forfeit`, `perpetual_check`.
    pub reason: String,
}

/// Renders one game.
#[must_use]
pub fn write_game(g: &GameRecord, event: &str, date: &str, time_control: &str) -> String {
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(s, "[{k} \"{v}\"]");
    };
    tag(&mut s, "Event", event);
    tag(&mut s, "Site", "qiju match");
    tag(&mut s, "Date", date);
    tag(&mut s, "Round", &g.round.to_string());
    tag(&mut s, "White", &g.red);
    tag(&mut s, "Black", &g.black);
    tag(&mut s, "Result", g.result.pgn());
    tag(&mut s, "Variant", "xiangqi");
    let fen = g.start.fen();
    if fen != xiangqi::STARTPOS {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &fen);
    }
    tag(&mut s, "TimeControl", time_control);
    tag(&mut s, "PlyCount", &g.moves.len().to_string());
    tag(&mut s, "Termination", &g.reason);
    s.push('\n');
    let mut line = String::new();
    let mut number = g.start.fullmoves();
    let mut red = g.start.turn() == xiangqi::Color::Red;
    for (i, m) in g.moves.iter().enumerate() {
        let mut tok = String::new();
        if red {
            let _ = write!(tok, "{number}. ");
        } else if i == 0 {
            let _ = write!(tok, "{number}... ");
        }
        let _ = write!(tok, "{m}");
        if i + 1 == g.book_plies {
            tok.push_str(" {book}");
        }
        if line.len() + tok.len() + 1 > 79 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(&tok);
        line.push(' ');
        if !red {
            number += 1;
        }
        red = !red;
    }
    let end = format!("{{{}}} {}", g.reason, g.result.pgn());
    if line.len() + end.len() > 79 {
        s.push_str(line.trim_end());
        s.push('\n');
        line.clear();
    }
    line.push_str(&end);
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Square;

    #[test]
    fn a_short_game() {
        let mv = |s: &str| {
            Move::new(
                Square::from_iccs(&s[..2]).unwrap(),
                Square::from_iccs(&s[2..]).unwrap(),
            )
        };
        let g = GameRecord {
            round: 3,
            red: "qiju".into(),
            black: "other \"x\"".into(),
            start: Position::startpos(),
            moves: vec![mv("h2e2"), mv("h9g7"), mv("h0g2")],
            book_plies: 2,
            result: GameResult::Draw,
            reason: "adjudication".into(),
        };
        let p = write_game(&g, "test", "2026.12.02", "10+0.1");
        assert!(p.contains("[Variant \"xiangqi\"]"));
        assert!(p.contains("[Black \"other \\\"x\\\"\"]"));
        assert!(
            p.contains("1. h2e2 h9g7 {book} 2. h0g2 {adjudication} 1/2-1/2"),
            "{p}"
        );
        assert!(!p.contains("[FEN"));
    }
}
