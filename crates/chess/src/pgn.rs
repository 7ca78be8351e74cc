//! PGN, the Portable Game Notation every chess site exports and imports:
//! [`read_pgn`] reads every game of a file, [`write_pgn`] writes one.
//!
//! The reader takes what lichess and chess.com export: tag pairs, SAN move
//! text with move numbers (`1.`, `1...`), comments in braces (lichess puts
//! clock times in them, `{ [%clk 0:03:00] }`) or after `;`, NAGs (`$1`) and
//! annotation marks (`!?`), variations in parentheses (skipped: a record
//! keeps the main line), and the result. Clock comments are kept with their
//! move; other comment text too. A game whose move text cannot be read
//! becomes a [`PgnError`] naming the game, the ply and the reason, and the
//! reader goes on with the next game.
//!
//! The writer puts the Seven Tag Roster first, then `Variant` (for Chess960
//! only), `SetUp` and `FEN` where the game needs them, then the other tags,
//! and wraps the move text at 80 columns, never between a move and its
//! number, so that write → read → write gives the same text. NAGs,
//! annotation marks and variations are not written: a record keeps the
//! main line, its clocks and its comments.

use crate::fen::{write_fen, STANDARD_START_FEN};
use crate::notation::{parse_san, san, uci};
use crate::{parse_fen, ChessGame, Variant};
use game::{Game, GameError};
use shakmaty::{Chess, Position};
use std::fmt;

/// One game as PGN records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessRecord {
    /// Tag pairs in the order read (or to write after the Seven Tag Roster).
    pub tags: Vec<(String, String)>,
    /// Where the game starts, as a full FEN.
    pub start_fen: String,
    pub variant: Variant,
    pub moves: Vec<RecordedMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// UCI for the record's variant.
    pub uci: String,
    /// SAN with `+`/`#`, as this crate writes it.
    pub san: String,
    /// The clock after the move, from a `[%clk 0:03:00]` comment.
    pub clock: Option<String>,
    /// Any other comment text after the move.
    pub comment: Option<String>,
}

/// A game of a PGN file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PgnError {
    /// The game's position in the file, from 0 (its index in
    /// [`read_pgn`]'s answer).
    pub index: usize,
    /// The ply (half-move, from 1) where reading stopped, if in the moves.
    pub ply: Option<usize>,
    /// The text that could not be read, if any.
    pub text: Option<String>,
    pub reason: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.index + 1)?;
        if let Some(ply) = self.ply {
            write!(f, ", ply {ply}")?;
        }
        if let Some(text) = &self.text {
            write!(f, " ({text:?})")?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl ChessRecord {
    /// The record of a game played so far, with `tags` (the Seven Tag
    /// Roster is filled in by [`write_pgn`] where missing) and `result`.
    #[must_use]
    pub fn from_game(game: &ChessGame, tags: Vec<(String, String)>, result: &str) -> ChessRecord {
        ChessRecord {
            tags,
            start_fen: game.initial_fen(),
            variant: game.chess_variant(),
            moves: game
                .history()
                .iter()
                .map(|m| RecordedMove {
                    uci: m.coord.clone(),
                    san: m.display.clone(),
                    clock: None,
                    comment: None,
                })
                .collect(),
            result: result.to_string(),
        }
    }

    /// The value of tag `name`, if present.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Replays the record as a refereed game.
    ///
    /// # Errors
    /// As [`ChessGame::new`] and [`Game::play`]: a move after the game
    /// ended by the FIDE Laws (say, past a fivefold repetition in a game
    /// played before 2014) is [`GameError::GameOver`].
    pub fn replay(&self) -> Result<ChessGame, GameError> {
        let mut game = ChessGame::new(&self.start_fen, self.variant)?;
        for m in &self.moves {
            game.play(&m.uci)?;
        }
        Ok(game)
    }
}

/// Reads every game of a PGN text, in order.
#[must_use]
pub fn read_pgn(text: &str) -> Vec<Result<ChessRecord, PgnError>> {
    let mut reader = Reader::default();
    let mut lexer = Lexer::new(text);
    while let Some(token) = lexer.next_token() {
        reader.token(token);
    }
    reader.finish_game();
    reader.games
}

/// The tags every PGN game has, in their order (PGN standard 8.1.1).
const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Writes one game as PGN, ending with a newline. Games of a file are
/// separated by an empty line: join several with `"\n"`.
#[must_use]
pub fn write_pgn(record: &ChessRecord) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!(
            "[{name} \"{}\"]\n",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    };
    for name in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => Some(record.result.as_str()),
            _ => record.tag(name),
        };
        let default = if name == "Date" { "????.??.??" } else { "?" };
        tag(name, value.unwrap_or(default));
    }
    if record.variant == Variant::Chess960 {
        tag("Variant", "Chess960");
    }
    if record.variant == Variant::Chess960 || record.start_fen != STANDARD_START_FEN {
        tag("SetUp", "1");
        tag("FEN", &record.start_fen);
    }
    for (name, value) in &record.tags {
        let written =
            SEVEN_TAG_ROSTER.contains(&name.as_str()) || ["Variant", "SetUp", "FEN"].contains(&name.as_str());
        if !written {
            tag(name, value);
        }
    }
    out.push('\n');

    let (mut white_to_move, mut number) = match shakmaty::fen::Fen::from_ascii(record.start_fen.as_bytes()) {
        Ok(fen) => (fen.as_setup().turn.is_white(), fen.as_setup().fullmoves.get()),
        Err(_) => (true, 1),
    };
    // Units that a line break never splits: a move with its number, the
    // a clock command, the first and last word of a comment with their
    // braces.
    let mut units: Vec<String> = Vec::new();
    let mut after_comment = true;
    for m in &record.moves {
        units.push(if white_to_move {
            format!("{number}. {}", m.san)
        } else if after_comment {
            format!("{number}... {}", m.san)
        } else {
            m.san.clone()
        });
        let mut comment: Vec<String> = m
            .comment
            .iter()
            .flat_map(|c| c.split_whitespace().map(str::to_string))
            .collect();
        if let Some(clock) = &m.clock {
            comment.push(format!("[%clk {clock}]"));
        }
        after_comment = !comment.is_empty();
        if !comment.is_empty() {
            comment[0].insert_str(0, "{ ");
            let last = comment.len() - 1;
            comment[last].push_str(" }");
            units.append(&mut comment);
        }
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    units.push(record.result.clone());
    let mut line = String::new();
    for word in units {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// What the lexer finds in PGN text.
#[derive(Debug)]
enum Token<'a> {
    Tag(String, String),
    /// A tag pair that could not be read.
    BadTag(String),
    Comment(&'a str),
    Nag,
    Open,
    Close,
    Result(&'a str),
    /// A move in SAN, perhaps with annotation marks.
    San(&'a str),
}

struct Lexer<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        // A byte-order mark, as some Windows tools write.
        Lexer {
            text: text.strip_prefix('\u{feff}').unwrap_or(text),
            at: 0,
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn skip_line(&mut self) -> &'a str {
        let rest = self.rest();
        let end = rest.find('\n').unwrap_or(rest.len());
        self.at += end;
        &rest[..end]
    }

    fn next_token(&mut self) -> Option<Token<'a>> {
        loop {
            let rest = self.rest();
            let c = rest.chars().next()?;
            if c.is_whitespace() {
                self.at += c.len_utf8();
                continue;
            }
            let line_start = self.at == 0 || self.text[..self.at].ends_with('\n');
            match c {
                // Escape lines (PGN standard 6) are for other software.
                '%' if line_start => {
                    self.skip_line();
                }
                ';' => {
                    self.at += 1;
                    return Some(Token::Comment(self.skip_line()));
                }
                '{' => {
                    let end = rest.find('}').unwrap_or(rest.len());
                    self.at += (end + 1).min(rest.len());
                    return Some(Token::Comment(&rest[1..end]));
                }
                '[' => return Some(self.tag()),
                '(' => {
                    self.at += 1;
                    return Some(Token::Open);
                }
                ')' => {
                    self.at += 1;
                    return Some(Token::Close);
                }
                '$' => {
                    self.at += 1;
                    let digits = self
                        .rest()
                        .find(|c: char| !c.is_ascii_digit())
                        .unwrap_or(self.rest().len());
                    self.at += digits;
                    return Some(Token::Nag);
                }
                _ => {
                    let end = rest
                        .find(|c: char| c.is_whitespace() || "{}()[];$".contains(c))
                        .unwrap_or(rest.len());
                    let end = end.max(c.len_utf8());
                    self.at += end;
                    if let Some(token) = symbol(&rest[..end]) {
                        return Some(token);
                    }
                }
            }
        }
    }

    /// `[Name "value"]`, with `\"` and `\\` escapes in the value.
    fn tag(&mut self) -> Token<'a> {
        let rest = self.rest();
        let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
        let parsed = (|| {
            let inner = line.strip_prefix('[')?.trim_start();
            let name_end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            let (name, after) = inner.split_at(name_end);
            let after = after.trim_start().strip_prefix('"')?;
            let mut value = String::new();
            let mut chars = after.char_indices();
            while let Some((i, ch)) = chars.next() {
                match ch {
                    '\\' => value.push(chars.next()?.1),
                    '"' => {
                        let close = after[i + 1..].trim_start().strip_prefix(']')?;
                        let used = line.len() - close.len();
                        return Some((name.to_string(), value, used));
                    }
                    _ => value.push(ch),
                }
            }
            None
        })();
        match parsed {
            Some((name, value, used)) if !name.is_empty() => {
                self.at += used;
                Token::Tag(name, value)
            }
            _ => {
                self.at += line.len();
                Token::BadTag(line.trim().to_string())
            }
        }
    }
}

/// A run of symbol characters: a move number (skipped), a result, an
/// annotation (skipped) or a move.
fn symbol(word: &str) -> Option<Token<'_>> {
    if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
        return Some(Token::Result(word));
    }
    // "12." and "12..." are move numbers; "12.e4" a number glued to a move.
    let digits = word.find(|c: char| !c.is_ascii_digit()).unwrap_or(word.len());
    let after_number = if digits > 0 && word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else if digits == word.len() {
        ""
    } else {
        word
    };
    let rest = after_number.trim_start_matches('.');
    if rest.is_empty() || rest.chars().all(|c| c == '!' || c == '?') || rest == "e.p." {
        return None;
    }
    Some(Token::San(rest))
}

/// Puts tokens together into games.
#[derive(Default)]
struct Reader {
    games: Vec<Result<ChessRecord, PgnError>>,
    current: Option<GameBuilder>,
}

#[derive(Default)]
struct GameBuilder {
    tags: Vec<(String, String)>,
    /// The first tag pair that could not be read: the game's error.
    bad_tag: Option<PgnError>,
    /// Set up on the first move-text token, from the tags.
    play: Option<Result<Playing, PgnError>>,
    /// How deep in variations the move text is (0: the main line).
    depth: usize,
    result: Option<String>,
}

impl GameBuilder {
    /// The game being played, set up from the tags on first use.
    fn start(&mut self, index: usize) -> &mut Result<Playing, PgnError> {
        let (tags, bad_tag) = (&self.tags, &mut self.bad_tag);
        self.play.get_or_insert_with(|| match bad_tag.take() {
            Some(e) => Err(e),
            None => Playing::start(tags, index),
        })
    }
}

struct Playing {
    variant: Variant,
    start_fen: String,
    pos: Chess,
    moves: Vec<RecordedMove>,
}

impl Reader {
    fn index(&self) -> usize {
        self.games.len()
    }

    fn token(&mut self, token: Token<'_>) {
        if let Token::Tag(..) | Token::BadTag(_) = token {
            // Tags after move text, or a tag named twice, begin the next game.
            let new_game = self.current.as_ref().is_some_and(|g| {
                g.play.is_some()
                    || matches!(&token, Token::Tag(name, _) if g.tags.iter().any(|(n, _)| n == name))
            });
            if new_game {
                self.finish_game();
            }
            let index = self.index();
            let game = self.current.get_or_insert_with(GameBuilder::default);
            match token {
                Token::Tag(name, value) => game.tags.push((name, value)),
                Token::BadTag(line) => {
                    game.bad_tag.get_or_insert(PgnError {
                        index,
                        ply: None,
                        text: Some(line),
                        reason: "cannot read this tag pair; expected [Name \"value\"]".to_string(),
                    });
                }
                _ => {}
            }
            return;
        }
        if self.current.is_none() && matches!(token, Token::Comment(_)) {
            // A comment before a game's tags (a file header) is nobody's.
            return;
        }
        let index = self.index();
        let game = self.current.get_or_insert_with(GameBuilder::default);
        let depth = game.depth;
        let play = game.start(index);
        match token {
            Token::Open => game.depth += 1,
            Token::Close => game.depth = game.depth.saturating_sub(1),
            Token::Nag | Token::Tag(..) | Token::BadTag(_) => {}
            Token::Comment(text) => {
                if let (0, Ok(p)) = (depth, play) {
                    p.comment(text);
                }
            }
            Token::San(text) => {
                if let (0, Ok(p)) = (depth, &mut *play) {
                    if let Err(e) = p.play(text, index) {
                        *play = Err(e);
                    }
                }
            }
            Token::Result(r) => {
                if game.depth == 0 {
                    game.result = Some(r.to_string());
                    self.finish_game();
                }
            }
        }
    }

    fn finish_game(&mut self) {
        let Some(game) = self.current.take() else {
            return;
        };
        let index = self.index();
        let mut game = game;
        game.start(index);
        let tags = game.tags;
        let played = game.play.expect("started above");
        let result = game
            .result
            .or_else(|| tags.iter().find(|(n, _)| n == "Result").map(|(_, v)| v.clone()))
            .unwrap_or_else(|| "*".to_string());
        self.games.push(played.map(|p| ChessRecord {
            tags,
            start_fen: p.start_fen,
            variant: p.variant,
            moves: p.moves,
            result,
        }));
    }
}

impl Playing {
    /// The start of a game from its `Variant` and `FEN` tags.
    fn start(tags: &[(String, String)], index: usize) -> Result<Playing, PgnError> {
        let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        let error = |text: &str, reason: String| PgnError {
            index,
            ply: None,
            text: Some(text.to_string()),
            reason,
        };
        let variant = match tag("Variant") {
            None => Variant::Standard,
            Some(v) => variant_of_tag(v)
                .ok_or_else(|| error(v, "only standard chess and Chess960 are supported".to_string()))?,
        };
        let fen = tag("FEN").unwrap_or(STANDARD_START_FEN);
        let pos = parse_fen(fen, variant).map_err(|e| error(fen, format!("bad FEN tag: {e}")))?;
        Ok(Playing {
            variant,
            start_fen: write_fen(&pos),
            pos,
            moves: Vec::new(),
        })
    }

    fn play(&mut self, text: &str, index: usize) -> Result<(), PgnError> {
        let m = parse_san(&self.pos, text).map_err(|e| PgnError {
            index,
            ply: Some(self.moves.len() + 1),
            text: Some(text.to_string()),
            reason: match e {
                GameError::BadMove { reason, .. } | GameError::IllegalMove { reason, .. } => reason,
                other => other.to_string(),
            },
        })?;
        self.moves.push(RecordedMove {
            uci: uci(m, self.variant),
            san: san(&self.pos, m),
            clock: None,
            comment: None,
        });
        self.pos.play_unchecked(m);
        Ok(())
    }

    /// A comment after a move: its clock, and the rest as text.
    fn comment(&mut self, text: &str) {
        let Some(last) = self.moves.last_mut() else {
            return;
        };
        let mut rest = text.to_string();
        if let Some(start) = rest.find("[%clk") {
            if let Some(len) = rest[start..].find(']') {
                last.clock = Some(rest[start + 5..start + len].trim().to_string());
                rest.replace_range(start..=start + len, " ");
            }
        }
        let words: Vec<&str> = rest.split_whitespace().collect();
        if !words.is_empty() {
            let joined = words.join(" ");
            last.comment = Some(match last.comment.take() {
                Some(before) => format!("{before} {joined}"),
                None => joined,
            });
        }
    }
}

/// The variant a `Variant` tag names, as lichess, chess.com and older
/// software write it.
fn variant_of_tag(value: &str) -> Option<Variant> {
    let key: String = value
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    match key.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" => Some(Variant::Standard),
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "frc" => Some(Variant::Chess960),
        _ => None,
    }
}
