//! PGN import, lenient about what real archives contain and exact about
//! what is wrong.
//!
//! Reading goes in two steps. A lexer turns the text into tag pairs,
//! comments, words and result tokens (skipping variations, NAGs, move
//! numbers and `!?` marks, and reading full-width digits and punctuation as
//! their ASCII forms where they carry structure). Then each game's words
//! are replayed from its start position with
//! [`xiangqi::notation::parse_any`], which accepts ICCS, WXF and Chinese,
//! so the first unreadable or illegal move is reported with its number.

use crate::{PgnResult, Record, RecordError, RecordMove};
use clock::parse_hms;
use xiangqi::notation::{parse_any, NotationError};
use xiangqi::{Color, Move, Position, Square};

/// One game of a file: where it starts, and what came of reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// 1 for the first game of the file.
    pub index: usize,
    /// The line the game starts on.
    pub line: usize,
    pub record: Result<Record, RecordError>,
}

/// Full-width ASCII forms (Ｒ, １, ．, －, ／ …) and the ideographic space
/// as their ASCII selves; everything else unchanged.
#[must_use]
pub(crate) fn narrow(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        '…' => '.',
        '。' => '.',
        _ => c,
    }
}

/// `12.` for red's move, `12...` for black's.
#[must_use]
pub(crate) fn move_number(number: u32, turn: Color) -> String {
    match turn {
        Color::Red => format!("{number}."),
        Color::Black => format!("{number}..."),
    }
}

/// The legal move an ICCS text names in `pos`.
pub(crate) fn legal_iccs(pos: &Position, text: &str) -> Option<Move> {
    let t = text.trim();
    let (a, b) = (t.get(0..2)?, t.get(2..4)?);
    let m = Move::new(Square::from_iccs(a)?, Square::from_iccs(b)?);
    pos.is_legal(m).then_some(m)
}

/// The same error, about game `game`.
pub(crate) fn renumber(e: RecordError, game: usize) -> RecordError {
    match e {
        RecordError::Syntax { line, detail, .. } => RecordError::Syntax { game, line, detail },
        RecordError::BadFen { fen, detail, .. } => RecordError::BadFen { game, fen, detail },
        RecordError::UnreadableMove {
            ply,
            number,
            text,
            line,
            detail,
            ..
        } => RecordError::UnreadableMove {
            game,
            ply,
            number,
            text,
            line,
            detail,
        },
        RecordError::IllegalMove {
            ply,
            number,
            text,
            line,
            detail,
            ..
        } => RecordError::IllegalMove {
            game,
            ply,
            number,
            text,
            line,
            detail,
        },
        RecordError::MissingResult { line, .. } => RecordError::MissingResult { game, line },
        RecordError::ResultMismatch { tag, token, .. } => RecordError::ResultMismatch { game, tag, token },
        e @ RecordError::GameCount { .. } => e,
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Tag(String, String),
    Comment(String),
    Word(String),
    Result(PgnResult),
    /// Something that makes the game unreadable (a broken tag, an
    /// unclosed comment or variation).
    Broken(String),
}

/// Chinese tag names of Chinese archives, as the PGN names we write.
fn tag_name(name: &str) -> &str {
    match name {
        "红方" | "紅方" => "Red",
        "黑方" => "Black",
        "红队" | "红方队" | "紅隊" => "RedTeam",
        "黑队" | "黑方队" | "黑隊" => "BlackTeam",
        "赛事" | "比赛" | "賽事" => "Event",
        "日期" => "Date",
        "地点" | "地點" => "Site",
        "轮次" | "輪次" => "Round",
        "结果" | "結果" => "Result",
        "格式" => "Format",
        "开局" | "開局" => "Opening",
        _ => name,
    }
}

fn is_break(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '{' | '}' | '(' | ')' | '[' | ']' | ';' | '（' | '）' | '｛' | '｝' | '［' | '］'
        )
}

struct Lexer {
    cs: Vec<char>,
    i: usize,
    line: usize,
}

impl Lexer {
    fn new(text: &str) -> Lexer {
        Lexer {
            cs: text.chars().collect(),
            i: 0,
            line: 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.cs.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.i == 0 || self.cs[self.i - 1] == '\n'
    }

    /// The next token and the line it starts on.
    fn next(&mut self) -> Option<(Tok, usize)> {
        loop {
            let c = self.peek()?;
            if c.is_whitespace() || c == '\u{FEFF}' {
                self.bump();
                continue;
            }
            let line = self.line;
            if c == '%' && self.at_line_start() {
                // PGN escape line: ignored.
                while self.peek().is_some_and(|c| c != '\n') {
                    self.bump();
                }
                continue;
            }
            return Some((
                match c {
                    '[' | '［' => self.tag(),
                    '{' | '｛' => self.comment(),
                    ';' => {
                        let mut s = String::new();
                        self.bump();
                        while let Some(c) = self.peek().filter(|&c| c != '\n') {
                            s.push(c);
                            self.bump();
                        }
                        Tok::Comment(s)
                    }
                    '(' | '（' => match self.variation() {
                        Some(t) => t,
                        None => continue,
                    },
                    ')' | '）' | '}' | '｝' | ']' | '］' => {
                        self.bump();
                        Tok::Broken(format!("unexpected {c:?}"))
                    }
                    '$' => {
                        self.bump();
                        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                            self.bump();
                        }
                        continue;
                    }
                    _ => match self.word() {
                        Some(t) => t,
                        None => continue,
                    },
                },
                line,
            ));
        }
    }

    fn tag(&mut self) -> Tok {
        self.bump();
        let mut body = String::new();
        let mut in_quotes = false;
        loop {
            match self.peek() {
                None | Some('\n') => {
                    return Tok::Broken(format!("tag [{}] is not closed by `]` on its line", body.trim()))
                }
                Some('\\') if in_quotes => {
                    self.bump();
                    if let Some(c) = self.bump() {
                        body.push('\\');
                        body.push(c);
                    }
                }
                Some('"') => {
                    in_quotes = !in_quotes;
                    body.push('"');
                    self.bump();
                }
                Some(']' | '］') if !in_quotes => {
                    self.bump();
                    break;
                }
                Some(c) => {
                    body.push(c);
                    self.bump();
                }
            }
        }
        let body = body.trim();
        let Some((name, rest)) = body.split_once(|c: char| c.is_whitespace() || c == '"') else {
            return Tok::Broken(format!("tag [{body}] has no value"));
        };
        let rest = if body.as_bytes()[name.len()] == b'"' {
            &body[name.len()..]
        } else {
            rest.trim()
        };
        if name.is_empty() {
            return Tok::Broken(format!("tag [{body}] has no name"));
        }
        let Some(quoted) = rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else {
            return Tok::Broken(format!(
                "tag {name}: the value must be in double quotes, found {rest}"
            ));
        };
        let mut value = String::new();
        let mut chars = quoted.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => value.extend(chars.next()),
                '"' => {
                    return Tok::Broken(format!(
                        "tag {name}: a quote inside the value must be written \\\""
                    ))
                }
                _ => value.push(c),
            }
        }
        Tok::Tag(tag_name(name).to_string(), value)
    }

    fn comment(&mut self) -> Tok {
        let line = self.line;
        self.bump();
        let mut s = String::new();
        loop {
            match self.bump() {
                None => return Tok::Broken(format!("the comment opened on line {line} is never closed")),
                Some('}' | '｝') => return Tok::Comment(s),
                Some(c) => s.push(c),
            }
        }
    }

    /// Skips a variation (nested ones and comments inside included).
    fn variation(&mut self) -> Option<Tok> {
        let line = self.line;
        let mut depth = 0usize;
        loop {
            match self.bump() {
                None => {
                    return Some(Tok::Broken(format!(
                        "the variation opened on line {line} is never closed"
                    )))
                }
                Some('(' | '（') => depth += 1,
                Some(')' | '）') => {
                    depth -= 1;
                    if depth == 0 {
                        return None;
                    }
                }
                Some('{' | '｛') => while !matches!(self.bump(), None | Some('}' | '｝')) {},
                Some(_) => {}
            }
        }
    }

    fn word(&mut self) -> Option<Tok> {
        let mut w = String::new();
        while let Some(c) = self.peek().filter(|&c| !is_break(c)) {
            w.push(c);
            self.bump();
        }
        if w.is_empty() {
            // A character that breaks words but starts nothing.
            let c = self.bump()?;
            return Some(Tok::Broken(format!("unexpected {c:?}")));
        }
        if let Some(r) = PgnResult::from_token(&w) {
            return Some(Tok::Result(r));
        }
        // A move number (`12.`, `12...`, `１２．`), possibly glued to the
        // move (`1.h2e2`).
        let narrow: Vec<char> = w.chars().map(narrow).collect();
        let digits = narrow.iter().take_while(|c| c.is_ascii_digit()).count();
        let dots = narrow[digits..].iter().take_while(|&&c| c == '.').count();
        let rest: String = if digits > 0 && dots > 0 {
            w.chars().skip(digits + dots).collect()
        } else {
            w
        };
        // Annotation marks: `!`, `?`, and a check or mate sign.
        let rest = rest
            .trim_end_matches(['!', '?', '+', '#', '！', '？'])
            .to_string();
        if rest.is_empty() {
            return None;
        }
        if let Some(r) = PgnResult::from_token(&rest) {
            return Some(Tok::Result(r));
        }
        Some(Tok::Word(rest))
    }
}

struct RawMove {
    text: String,
    line: usize,
    comments: Vec<String>,
}

struct Builder {
    index: usize,
    line: usize,
    last_line: usize,
    tags: Vec<(String, String)>,
    comments: Vec<String>,
    moves: Vec<RawMove>,
    broken: Option<(usize, String)>,
    result: Option<PgnResult>,
    /// Whether a game without a result token is acceptable (a bare move
    /// list, or a WXF file whose result is a header).
    result_optional: bool,
}

impl Builder {
    fn new(index: usize, line: usize) -> Builder {
        Builder {
            index,
            line,
            last_line: line,
            tags: Vec::new(),
            comments: Vec::new(),
            moves: Vec::new(),
            broken: None,
            result: None,
            result_optional: false,
        }
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.comments.is_empty() && self.moves.is_empty() && self.broken.is_none()
    }

    fn has_movetext(&self) -> bool {
        !self.moves.is_empty() || !self.comments.is_empty()
    }

    fn take(&mut self, tok: Tok, line: usize) {
        self.last_line = line;
        match tok {
            Tok::Tag(k, v) => self.tags.push((k, v)),
            Tok::Comment(c) => match self.moves.last_mut() {
                Some(m) => m.comments.push(c),
                None => self.comments.push(c),
            },
            Tok::Word(text) => self.moves.push(RawMove {
                text,
                line,
                comments: Vec::new(),
            }),
            Tok::Result(r) => self.result = Some(r),
            Tok::Broken(detail) => {
                if self.broken.is_none() {
                    self.broken = Some((line, detail));
                }
            }
        }
    }

    fn finish(self) -> Parsed {
        let (index, line) = (self.index, self.line);
        Parsed {
            index,
            line,
            record: self.build(),
        }
    }

    fn build(self) -> Result<Record, RecordError> {
        let game = self.index;
        if let Some((line, detail)) = self.broken {
            return Err(RecordError::Syntax { game, line, detail });
        }
        let tag = |name: &str| {
            self.tags
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        if let Some(v) = tag("Variant").filter(|v| {
            !matches!(
                v.to_ascii_lowercase().as_str(),
                "xiangqi" | "chinese chess" | "chinese" | "象棋" | "中国象棋"
            )
        }) {
            return Err(RecordError::Syntax {
                game,
                line: self.line,
                detail: format!("not a Xiangqi game: [Variant \"{v}\"]"),
            });
        }
        let tag_result = tag("Result").and_then(|t| PgnResult::from_token(&t));
        let result = match (self.result, tag_result) {
            (Some(r), _) => r,
            (None, Some(r)) if self.result_optional => r,
            (None, _) if self.result_optional || self.tags.is_empty() => PgnResult::Unknown,
            (None, _) => {
                return Err(RecordError::MissingResult {
                    game,
                    line: self.last_line,
                })
            }
        };
        if let (Some(t), Some(token)) = (tag_result, self.result) {
            if t != token {
                return Err(RecordError::ResultMismatch {
                    game,
                    tag: tag("Result").unwrap_or_default(),
                    token: token.token().into(),
                });
            }
        }
        let mut pos = match tag("FEN") {
            Some(fen) => Position::from_fen(&fen).map_err(|e| RecordError::BadFen {
                game,
                fen: fen.clone(),
                detail: e.to_string(),
            })?,
            None => Position::startpos(),
        };
        let mut number = pos.fullmoves();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, raw) in self.moves.into_iter().enumerate() {
            let turn = pos.turn();
            let num = move_number(number, turn);
            let mv = parse_any(&pos, &raw.text).map_err(|e| {
                let (text, line, ply) = (raw.text.clone(), raw.line, i + 1);
                match e {
                    NotationError::NoSuchPiece { .. } | NotationError::Illegal { .. } => {
                        RecordError::IllegalMove {
                            game,
                            ply,
                            number: num.clone(),
                            text,
                            line,
                            detail: e.to_string(),
                        }
                    }
                    _ => RecordError::UnreadableMove {
                        game,
                        ply,
                        number: num.clone(),
                        text,
                        line,
                        detail: e.to_string(),
                    },
                }
            })?;
            pos.play_unchecked(mv);
            if turn == Color::Black {
                number += 1;
            }
            moves.push(comment_into(RecordMove::new(mv), &raw.comments));
        }
        let comment = clean(&self.comments.join(" "));
        let mut tags = self.tags;
        if let Some((_, v)) = tags.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case("Result")) {
            *v = result.token().to_string();
        }
        Ok(Record {
            tags,
            comment,
            moves,
            result,
        })
    }
}

/// Collapses whitespace; `None` for nothing.
fn clean(text: &str) -> Option<String> {
    let s = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!s.is_empty()).then_some(s)
}

/// Takes `[%clk …]` and `[%emt …]` out of the comments; the rest stays
/// text.
fn comment_into(mut m: RecordMove, comments: &[String]) -> RecordMove {
    let mut rest = String::new();
    for c in comments {
        let mut text = c.as_str();
        while let Some(start) = text.find("[%") {
            rest.push_str(&text[..start]);
            rest.push(' ');
            let Some(len) = text[start..].find(']') else {
                rest.push_str(&text[start..]);
                text = "";
                break;
            };
            let cmd = &text[start + 2..start + len];
            let (name, value) = cmd.split_once(char::is_whitespace).unwrap_or((cmd, ""));
            match (name, parse_hms(value)) {
                ("clk", Some(ms)) => m.clock_ms = Some(ms),
                ("emt", Some(ms)) => m.emt_ms = Some(ms),
                _ => rest.push_str(&text[start..=start + len]),
            }
            text = &text[start + len + 1..];
        }
        rest.push_str(text);
        rest.push(' ');
    }
    m.comment = clean(&rest);
    m
}

/// Reads every game of a PGN file, or of a file in the WXF format.
#[must_use]
pub fn read_pgn(text: &str) -> Vec<Parsed> {
    if is_wxf_file(text) {
        return read_wxf(text);
    }
    let mut lexer = Lexer::new(text);
    let mut games = Vec::new();
    let mut b = Builder::new(1, 1);
    while let Some((tok, line)) = lexer.next() {
        if b.is_empty() {
            b.line = line;
        }
        match tok {
            Tok::Tag(..) if b.has_movetext() => {
                // A new tag section: the previous game had no result.
                let index = b.index;
                games.push(b.finish());
                b = Builder::new(index + 1, line);
                b.take(tok, line);
            }
            Tok::Result(_) => {
                b.take(tok, line);
                let index = b.index;
                games.push(b.finish());
                b = Builder::new(index + 1, line);
            }
            _ => b.take(tok, line),
        }
    }
    if !b.is_empty() {
        games.push(b.finish());
    }
    games
}

/// Reads a text that must hold exactly one game.
///
/// # Errors
/// The game's error, or [`RecordError::GameCount`].
pub fn read_one(text: &str) -> Result<Record, RecordError> {
    let mut games = read_pgn(text);
    if games.len() != 1 {
        return Err(RecordError::GameCount { found: games.len() });
    }
    games.remove(0).record
}

/// The WXF file format starts with `KEY value` header lines and keeps the
/// moves between `START{` and `}END`.
fn is_wxf_file(text: &str) -> bool {
    let first = text
        .lines()
        .map(|l| l.trim_start_matches('\u{FEFF}').trim())
        .find(|l| !l.is_empty());
    first.is_some_and(|l| {
        let word = l.split_whitespace().next().unwrap_or("");
        !word.is_empty()
            && word.chars().all(|c| c.is_ascii_uppercase())
            && (l.len() > word.len() || word == "START")
    }) && text.contains("START{")
}

/// WXF header keys as PGN tag names.
fn wxf_tag(key: &str) -> String {
    match key {
        "FORMAT" => "Format".into(),
        "GAME" => "Event".into(),
        "RED" => "Red".into(),
        "BLACK" => "Black".into(),
        "DATE" => "Date".into(),
        "PLACE" => "Site".into(),
        "ROUND" => "Round".into(),
        "RESULT" => "Result".into(),
        "FEN" => "FEN".into(),
        "OPENING" => "Opening".into(),
        other => {
            let mut s = other.to_ascii_lowercase();
            if let Some(f) = s.get_mut(0..1) {
                f.make_ascii_uppercase();
            }
            s
        }
    }
}

fn read_wxf(text: &str) -> Vec<Parsed> {
    let mut games = Vec::new();
    let mut b = Builder::new(1, 1);
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, raw)) = lines.next() {
        let line = raw.trim_start_matches('\u{FEFF}').trim();
        if line.is_empty() {
            continue;
        }
        if b.is_empty() {
            b.line = n + 1;
        }
        if let Some(after) = line.strip_prefix("START{") {
            // Moves until `}END`.
            let mut body = String::from(after);
            let mut closed = body.contains("}END");
            let start_line = n + 1;
            while !closed {
                let Some((_, l)) = lines.next() else { break };
                body.push('\n');
                body.push_str(l);
                closed = l.contains("}END");
            }
            if !closed {
                b.take(
                    Tok::Broken(format!("START{{ on line {start_line} has no }}END")),
                    start_line,
                );
            }
            let body = body.split("}END").next().unwrap_or("");
            let mut lx = Lexer::new(body);
            while let Some((tok, l)) = lx.next() {
                b.take(tok, start_line + l - 1);
            }
            // The file format's AXF moves default to the ICCS piece letters,
            // G(uard) for the advisor and M(inister) for the elephant, where
            // WXF has A and E ("FORMAT AXF" without a symbol list).
            let format = b
                .tags
                .iter()
                .find(|(k, _)| k == "Format")
                .map(|(_, v)| v.trim().to_ascii_uppercase());
            if format.as_deref() == Some("AXF") {
                for m in &mut b.moves {
                    if let Some(rest) = m.text.strip_prefix('G') {
                        m.text = format!("A{rest}");
                    } else if let Some(rest) = m.text.strip_prefix('M') {
                        m.text = format!("E{rest}");
                    }
                }
            }
            b.result_optional = true;
            let index = b.index;
            games.push(b.finish());
            b = Builder::new(index + 1, n + 1);
            continue;
        }
        let (key, value) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if key.chars().all(|c| c.is_ascii_uppercase()) && !key.is_empty() {
            b.take(Tok::Tag(wxf_tag(key), value.trim().to_string()), n + 1);
        } else {
            b.take(
                Tok::Broken(format!(
                    "expected a `KEY value` header or START{{, found {line:?}"
                )),
                n + 1,
            );
        }
    }
    if !b.is_empty() {
        b.result_optional = false;
        b.take(
            Tok::Broken("the game has no START{ … }END block".into()),
            b.last_line,
        );
        games.push(b.finish());
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::notation::Notation;

    fn one(text: &str) -> Record {
        read_one(text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn iccs(r: &Record) -> Vec<String> {
        r.moves.iter().map(|m| m.mv.iccs()).collect()
    }

    #[test]
    fn reads_xqbase_style_chinese_games() {
        let text = "\u{FEFF}[Game \"Chinese Chess\"]\n[Event \"全国象棋个人赛\"]\n[红方 \"胡荣华\"]\n[黑方 \"杨官璘\"]\n[Result \"1-0\"]\n[Format \"Chinese\"]\n\n{开局}\n１．炮二平五　马８进７\n2. 马二进三 (2. 兵七进一 卒７进１) 车９平８ $1\n3. 车一平二! 马２进３?! {好棋}\n1-0\n";
        let r = one(text);
        assert_eq!(r.tag("Red"), Some("胡荣华"));
        assert_eq!(r.tag("Black"), Some("杨官璘"));
        assert_eq!(r.comment.as_deref(), Some("开局"));
        assert_eq!(iccs(&r), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]);
        assert_eq!(r.moves[5].comment.as_deref(), Some("好棋"));
        assert_eq!(r.result, PgnResult::RedWins);
    }

    #[test]
    fn reads_dashed_iccs_wxf_and_clock_comments() {
        let r = one("[Format \"ICCS\"]\n[Result \"*\"]\n1. H2-E2 {[%clk 0:09:58] [%emt 0:00:02]} H9-G7 {[%clk 0:09:57.5] ok} *");
        assert_eq!(iccs(&r), ["h2e2", "h9g7"]);
        assert_eq!(
            (r.moves[0].clock_ms, r.moves[0].emt_ms),
            (Some(598_000), Some(2_000))
        );
        assert_eq!(r.moves[1].clock_ms, Some(597_500));
        assert_eq!(r.moves[1].comment.as_deref(), Some("ok"));
        let w = one("[Format \"WXF\"]\n\n1. C2=5 H8+7 2. H2+3 R9=8 1/2-1/2");
        assert_eq!(iccs(&w), ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(w.result, PgnResult::Draw);
    }

    #[test]
    fn reads_the_wxf_file_format() {
        let text = "FORMAT\t\tWXF\nGAME\t\tTest match\nRED\t\tA\nBLACK\t\tB\nRESULT\t\t0-1\nSTART{\n 1. C2.5     H8+7\n 2. H2+3     R9.8\n}END\n";
        let r = one(text);
        assert_eq!(iccs(&r), ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(r.tag("Event"), Some("Test match"));
        assert_eq!(r.result, PgnResult::BlackWins);
    }

    #[test]
    fn axf_files_use_the_iccs_piece_letters() {
        let text = "FORMAT AXF\nRESULT *\nSTART{\n1. C2=5 C8=5\n2. G4+5 H2+3\n3. M3+1\n}END\n";
        let r = one(text);
        assert_eq!(iccs(&r), ["h2e2", "h7e7", "f0e1", "b9c7", "g0i2"]);
    }

    #[test]
    fn several_games_and_a_bare_move_list() {
        let games = read_pgn("[Event \"a\"]\n1. h2e2 h9g7 1-0\n[Event \"b\"]\n1. b2e2 0-1\n\n");
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(|g| g.record.is_ok()));
        assert_eq!(games[1].index, 2);
        assert_eq!(games[1].line, 3);
        let bare = one("1. C2.5 H8+7\n2. H2+3 R9.8\n");
        assert_eq!(bare.result, PgnResult::Unknown);
        assert_eq!(bare.moves.len(), 4);
    }

    #[test]
    fn black_to_move_from_a_fen() {
        let r = one("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]\n[Result \"*\"]\n1... h9g7 2. h0g2 *");
        assert_eq!(iccs(&r), ["h9g7", "h0g2"]);
        let out = crate::write_pgn(&r, Notation::Chinese).unwrap();
        assert!(out.contains("1... 马８进７ 2. 马二进三"), "{out}");
    }

    #[test]
    fn errors_name_the_game_the_move_and_the_reason() {
        let games = read_pgn(
            "[Event \"ok\"]\n1. h2e2 h9g7 1-0\n\n[Event \"illegal\"]\n1. h2e2 h9g7\n2. h0h9 1-0\n\n[Event \"unreadable\"]\n1. h2e2 zz9 0-1\n",
        );
        assert_eq!(games.len(), 3);
        assert!(games[0].record.is_ok());
        match &games[1].record {
            Err(RecordError::IllegalMove {
                game: 2,
                ply: 3,
                number,
                text,
                line: 6,
                ..
            }) => {
                assert_eq!((number.as_str(), text.as_str()), ("2.", "h0h9"));
            }
            other => panic!("{other:?}"),
        }
        match &games[2].record {
            Err(e @ RecordError::UnreadableMove { game: 3, ply: 2, .. }) => {
                assert!(e.to_string().contains("move 1... \"zz9\""), "{e}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn broken_tags_missing_results_and_bad_fens() {
        type Check = fn(&RecordError) -> bool;
        let cases: [(&str, Check); 7] = [
            ("[Event \"no closing bracket\n1. h2e2 1-0", |e| {
                matches!(e, RecordError::Syntax { line: 1, .. })
            }),
            ("[Event unquoted]\n1. h2e2 1-0", |e| {
                matches!(e, RecordError::Syntax { .. })
            }),
            ("[Event \"x\"]\n1. h2e2 h9g7\n", |e| {
                matches!(e, RecordError::MissingResult { line: 2, .. })
            }),
            ("[FEN \"rnbakabnr/9/9 w\"]\n1-0", |e| {
                matches!(e, RecordError::BadFen { .. })
            }),
            ("[Result \"1-0\"]\n1. h2e2 0-1", |e| {
                matches!(e, RecordError::ResultMismatch { .. })
            }),
            ("[Event \"x\"]\n1. h2e2 {never closed 1-0", |e| {
                matches!(e, RecordError::Syntax { .. })
            }),
            ("[Variant \"chess\"]\n1. e2e4 1-0", |e| {
                matches!(e, RecordError::Syntax { .. })
            }),
        ];
        for (text, ok) in cases {
            let g = read_pgn(text);
            assert_eq!(g.len(), 1, "{text}");
            let e = g[0].record.as_ref().expect_err(text);
            assert!(ok(e), "{text}: {e:?}");
            assert!(e.to_string().starts_with("game 1"), "{e}");
        }
    }
}
