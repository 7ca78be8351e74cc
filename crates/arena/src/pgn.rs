//! PGN output of match games: the chess PGN format with `[Variant
//! "xiangqi"]` and ICCS moves, which Xiangqi tools read.

use record::{PgnResult, Record, RecordMove};
use xiangqi::notation::Notation;
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
        PgnResult::from(self).token()
    }
}

impl From<GameResult> for PgnResult {
    fn from(r: GameResult) -> PgnResult {
        match r {
            GameResult::RedWins => PgnResult::RedWins,
            GameResult::BlackWins => PgnResult::BlackWins,
            GameResult::Draw => PgnResult::Draw,
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

/// Renders one game, through the record crate's PGN writer (the one the
/// server's archive and `qiju pgn` use, so every tool reads it back): the
/// last book move carries a `{book}` comment and the last move the reason
/// the game ended, which is also the `[Termination]` tag.
#[must_use]
pub fn write_game(g: &GameRecord, event: &str, date: &str, time_control: &str) -> String {
    let mut r = Record::new();
    r.set_tag("Event", event);
    r.set_tag("Site", "qiju match");
    r.set_tag("Date", date);
    r.set_tag("Round", g.round.to_string());
    r.set_tag("Red", g.red.clone());
    r.set_tag("Black", g.black.clone());
    if g.start != Position::startpos() {
        r.set_tag("FEN", g.start.fen());
    }
    r.set_tag("TimeControl", time_control);
    r.set_tag("PlyCount", g.moves.len().to_string());
    r.set_tag("Termination", g.reason.clone());
    r.moves = g.moves.iter().map(|&m| RecordMove::new(m)).collect();
    if let Some(m) = g.book_plies.checked_sub(1).and_then(|i| r.moves.get_mut(i)) {
        m.comment = Some("book".into());
    }
    if let Some(m) = r.moves.last_mut() {
        let c = m.comment.take().map_or(String::new(), |c| c + " ");
        m.comment = Some(c + &g.reason);
    }
    r.result = g.result.into();
    // The runner replays every move through the referee before it records
    // the game, so a record that does not replay is a bug in the runner.
    let mut text = record::write_pgn(&r, Notation::Iccs).expect("match games are legal");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_game() {
        let mv = |s: &str| s.parse::<Move>().unwrap();
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
        let back = record::read_one(&p).unwrap();
        assert_eq!(back.moves.len(), 3);
        assert_eq!(back.tag("Round"), Some("3"));
    }
}
