//! Xiangqi game records: PGN in and out.
//!
//! - [`Record`]: tags, the moves (as legal [`xiangqi::Move`]s, replayed from
//!   the start position), each with its clock comment, and the result.
//! - [`write_pgn`]: PGN with `[Game "Chinese Chess"]`, `[Variant "xiangqi"]`,
//!   `[FEN]` when the game did not start from the opening position, and
//!   `[Format]` naming the move notation: ICCS (`h2e2`), WXF (`C2=5`) or
//!   Chinese (`炮二平五`). Clock readings go into comments as `[%clk
//!   H:MM:SS]` and `[%emt H:MM:SS]`.
//! - [`read_pgn`]: every game of a file, each either a [`Record`] or a
//!   [`RecordError`] that names the game, the move and the reason. It reads
//!   what [`write_pgn`] writes (export → import → export is identical), the
//!   xqbase-style archives (Chinese or dashed ICCS `H2-E2` move text, tags
//!   such as `[红方 "…"]`, full-width digits and punctuation, comments,
//!   variations in parentheses — skipped —, NAGs, several games per file),
//!   and the WXF file format (`FORMAT WXF` headers and a `START{ 1. C2.5
//!   H8+7 … }END` block).
//!
//! Text must be UTF-8: GBK-encoded archives (common among old Chinese
//! files) are out of scope and must be converted first (e.g. `iconv -f GBK
//! -t UTF-8`).

mod read;
mod write;

pub use read::{read_one, read_pgn, Parsed};
pub use write::{write_games, write_pgn};

use clock::Millis;
use game::{Outcome, Side};
use xiangqi::notation::Notation;
use xiangqi::{Move, Position};

/// A PGN result token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnResult {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished, unknown or aborted.
    Unknown,
}

impl PgnResult {
    #[must_use]
    pub fn token(self) -> &'static str {
        match self {
            PgnResult::RedWins => "1-0",
            PgnResult::BlackWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unknown => "*",
        }
    }

    /// Reads a result token, also in the forms seen in Chinese archives
    /// (full-width, `½-½`, `红胜`, `黑胜`, `和棋`).
    #[must_use]
    pub fn from_token(text: &str) -> Option<PgnResult> {
        let t: String = text.trim().chars().map(read::narrow).collect();
        match t.as_str() {
            "1-0" | "红胜" | "紅勝" => Some(PgnResult::RedWins),
            "0-1" | "黑胜" | "黑勝" => Some(PgnResult::BlackWins),
            "1/2-1/2" | "½-½" | "和棋" | "和局" => Some(PgnResult::Draw),
            "*" => Some(PgnResult::Unknown),
            _ => None,
        }
    }

    #[must_use]
    pub fn from_outcome(outcome: Option<Outcome>) -> PgnResult {
        match outcome {
            Some(Outcome::Win { winner: Side::First }) => PgnResult::RedWins,
            Some(Outcome::Win { winner: Side::Second }) => PgnResult::BlackWins,
            Some(Outcome::Draw) => PgnResult::Draw,
            None => PgnResult::Unknown,
        }
    }
}

/// One move of a record, with what its comment said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub mv: Move,
    /// Time left after the move, `[%clk]`.
    pub clock_ms: Option<Millis>,
    /// Time the move took, `[%emt]`.
    pub emt_ms: Option<Millis>,
    /// The rest of the comment after the move, whitespace collapsed.
    pub comment: Option<String>,
}

impl RecordMove {
    #[must_use]
    pub fn new(mv: Move) -> RecordMove {
        RecordMove {
            mv,
            clock_ms: None,
            emt_ms: None,
            comment: None,
        }
    }
}

/// A game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tag pairs in file order. `Result` and `Format` are rewritten on
    /// export from [`Record::result`] and the chosen notation.
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    pub comment: Option<String>,
    pub moves: Vec<RecordMove>,
    pub result: PgnResult,
}

impl Default for Record {
    fn default() -> Self {
        Record::new()
    }
}

impl Record {
    /// An empty record from the opening position with the usual tags, in
    /// the xqbase order.
    #[must_use]
    pub fn new() -> Record {
        let tags = [
            ("Game", "Chinese Chess"),
            ("Event", "?"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "?"),
            ("Red", "?"),
            ("Black", "?"),
            ("Result", "*"),
            ("Variant", "xiangqi"),
        ];
        Record {
            tags: tags
                .iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect(),
            comment: None,
            moves: Vec::new(),
            result: PgnResult::Unknown,
        }
    }

    /// The value of a tag (names compare case-insensitively).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, in place if it exists, else at the end.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The position the game starts from: the `[FEN]` tag, or the opening.
    pub fn start_position(&self) -> Result<Position, xiangqi::FenError> {
        match self.tag("FEN") {
            Some(fen) => Position::from_fen(fen),
            None => Ok(Position::startpos()),
        }
    }

    /// The notation the `[Format]` tag names, if it names one.
    #[must_use]
    pub fn format(&self) -> Option<Notation> {
        self.tag("Format").and_then(|f| f.parse().ok())
    }

    /// A record of a game from `start_fen` whose moves are given in ICCS,
    /// each with the mover's main time left after it (`[%clk]`) and the time
    /// it took (`[%emt]`) where known. The tags are the defaults, with
    /// `[FEN]` when the game did not start from the usual position.
    ///
    /// # Errors
    /// [`RecordError::BadFen`] or [`RecordError::IllegalMove`]: the game does
    /// not replay.
    pub fn from_iccs<'a>(
        start_fen: &str,
        moves: impl IntoIterator<Item = (&'a str, Option<Millis>, Option<Millis>)>,
    ) -> Result<Record, RecordError> {
        let mut r = Record::new();
        let mut pos = Position::from_fen(start_fen).map_err(|e| RecordError::BadFen {
            game: 1,
            fen: start_fen.to_string(),
            detail: e.to_string(),
        })?;
        if pos != Position::startpos() {
            r.set_tag("FEN", pos.fen());
        }
        for (i, (coord, clock_ms, emt_ms)) in moves.into_iter().enumerate() {
            let mv = read::legal_iccs(&pos, coord).ok_or_else(|| RecordError::IllegalMove {
                game: 1,
                ply: i + 1,
                number: read::move_number(pos.fullmoves(), pos.turn()),
                text: coord.to_string(),
                line: 0,
                detail: "not a legal Xiangqi move in the replayed position".into(),
            })?;
            pos.play_unchecked(mv);
            r.moves.push(RecordMove {
                mv,
                clock_ms,
                emt_ms,
                comment: None,
            });
        }
        Ok(r)
    }

    /// A record of a session's game: its start position, its moves with
    /// `[%clk]` (main time left, when the game was timed) and `[%emt]`, and
    /// its result. `tags` (Event, Red, Black, …) are set on top of the
    /// defaults.
    ///
    /// # Errors
    /// As [`Record::from_iccs`].
    pub fn from_session(session: &session::Session, tags: &[(&str, &str)]) -> Result<Record, RecordError> {
        let mut r = Record::from_iccs(
            &session.game().initial_fen(),
            session
                .moves()
                .map(|m| (m.played.coord.as_str(), m.times.clock_ms, Some(m.times.spent_ms))),
        )?;
        for (k, v) in tags {
            r.set_tag(k, *v);
        }
        r.result = PgnResult::from_outcome(session.result().and_then(|x| x.outcome));
        if let Some(res) = session.result() {
            r.set_tag("Termination", res.reason.clone());
        }
        r.set_tag("Result", r.result.token());
        Ok(r)
    }
}

/// A PGN `Date` value, `YYYY.MM.DD` in UTC, from milliseconds since 1970.
#[must_use]
pub fn pgn_date(unix_ms: i64) -> String {
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let days = unix_ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Why a game of a file could not be read. Game numbers count from 1 in
/// file order; move numbers are PGN's (`12.` red, `12...` black).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("game {game}, line {line}: {detail}")]
    Syntax {
        game: usize,
        line: usize,
        detail: String,
    },
    #[error("game {game}: bad FEN {fen:?}: {detail}")]
    BadFen {
        game: usize,
        fen: String,
        detail: String,
    },
    #[error("game {game}, move {number} {text:?} (line {line}): cannot read it: {detail}")]
    UnreadableMove {
        game: usize,
        /// 1 for the first move of the game.
        ply: usize,
        number: String,
        text: String,
        line: usize,
        detail: String,
    },
    #[error("game {game}, move {number} {text:?} (line {line}): illegal: {detail}")]
    IllegalMove {
        game: usize,
        ply: usize,
        number: String,
        text: String,
        line: usize,
        detail: String,
    },
    #[error("game {game}, line {line}: the moves end without a result (1-0, 0-1, 1/2-1/2 or *)")]
    MissingResult { game: usize, line: usize },
    #[error("game {game}: the Result tag says {tag:?} but the moves end with {token}")]
    ResultMismatch { game: usize, tag: String, token: String },
    #[error("expected one game, found {found}")]
    GameCount { found: usize },
}

impl RecordError {
    /// The game the error is about (0 when it is about the file).
    #[must_use]
    pub fn game(&self) -> usize {
        match self {
            RecordError::Syntax { game, .. }
            | RecordError::BadFen { game, .. }
            | RecordError::UnreadableMove { game, .. }
            | RecordError::IllegalMove { game, .. }
            | RecordError::MissingResult { game, .. }
            | RecordError::ResultMismatch { game, .. } => *game,
            RecordError::GameCount { .. } => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_767_225_600_000), "2026.01.01");
        assert_eq!(pgn_date(-86_400_000), "1969.12.31");
    }

    #[test]
    fn from_iccs_replays_and_names_the_bad_move() {
        let start = Position::startpos().fen();
        let r = Record::from_iccs(&start, [("h2e2", Some(1000), None), ("h9g7", None, Some(20))]).unwrap();
        assert_eq!(r.moves.len(), 2);
        assert_eq!(r.moves[0].clock_ms, Some(1000));
        assert_eq!(r.moves[1].emt_ms, Some(20));
        assert!(r.tag("FEN").is_none());
        let e = Record::from_iccs(&start, [("h2e2", None, None), ("h2e2", None, None)]).unwrap_err();
        assert!(
            matches!(&e, RecordError::IllegalMove { ply: 2, number, .. } if number == "1..."),
            "{e}"
        );
    }
}
