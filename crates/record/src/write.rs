//! PGN export.

use crate::{Record, RecordError};
use clock::Millis;
use xiangqi::notation::{format_move, Notation};
use xiangqi::Color;

/// Lines of move text are wrapped before this many columns, as PGN's
/// export format asks (80).
const WIDTH: usize = 80;

/// The `[Format]` value xqbase and ChessDB use for a notation.
fn format_name(n: Notation) -> &'static str {
    match n {
        Notation::Iccs => "ICCS",
        Notation::Wxf => "WXF",
        Notation::Chinese => "Chinese",
    }
}

/// Columns a character takes in a terminal or editor: CJK characters and
/// full-width forms take two, so Chinese move text wraps at the same
/// visual width as ASCII.
fn columns(c: char) -> usize {
    match c as u32 {
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 => 2,
        _ => 1,
    }
}

/// `H:MM:SS`, with milliseconds after a point only when there are any, so
/// that no clock reading is lost.
fn clock_text(ms: Millis) -> String {
    let mut s = clock::hms(ms);
    if !ms.is_multiple_of(1000) {
        s.push_str(&format!(".{:03}", ms % 1000));
    }
    s
}

/// A comment as written: braces inside it would end it early, so they
/// become parentheses; whitespace is collapsed (PGN may wrap comments, and
/// reading collapses it too).
fn comment_text(text: &str) -> String {
    text.replace('{', "(")
        .replace('}', ")")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes one game as PGN with its moves in `notation`.
///
/// # Errors
/// [`RecordError::BadFen`] or [`RecordError::IllegalMove`] when the record
/// does not replay (only possible for a record built by hand).
pub fn write_pgn(record: &Record, notation: Notation) -> Result<String, RecordError> {
    let mut out = String::new();
    let mut tags = record.tags.clone();
    let mut set = |name: &str, value: &str| match tags.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name))
    {
        Some((_, v)) => *v = value.to_string(),
        None => tags.push((name.to_string(), value.to_string())),
    };
    set("Result", record.result.token());
    set("Format", format_name(notation));
    if !tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("Game")) {
        tags.insert(0, ("Game".into(), "Chinese Chess".into()));
    }
    if !tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("Variant")) {
        tags.push(("Variant".into(), "xiangqi".into()));
    }
    for (k, v) in &tags {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    out.push('\n');

    let mut pos = record.start_position().map_err(|e| RecordError::BadFen {
        game: 1,
        fen: record.tag("FEN").unwrap_or_default().to_string(),
        detail: e.to_string(),
    })?;
    let mut tokens: Vec<String> = Vec::new();
    if let Some(c) = record.comment.as_deref().filter(|c| !c.trim().is_empty()) {
        tokens.push(format!("{{{}}}", comment_text(c)));
    }
    let mut number = pos.fullmoves();
    // A black move needs its number after a comment or at the start.
    let mut need_number = true;
    for (i, m) in record.moves.iter().enumerate() {
        if let Err(e) = pos.check_move(m.mv) {
            return Err(RecordError::IllegalMove {
                game: 1,
                ply: i + 1,
                number: crate::read::move_number(number, pos.turn()),
                text: m.mv.iccs(),
                line: 0,
                detail: e.to_string(),
            });
        }
        let text = format_move(&pos, m.mv, notation);
        match pos.turn() {
            Color::Red => tokens.push(format!("{number}.")),
            Color::Black if need_number => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(text);
        let mut parts = Vec::new();
        if let Some(c) = m.clock_ms {
            parts.push(format!("[%clk {}]", clock_text(c)));
        }
        if let Some(e) = m.emt_ms {
            parts.push(format!("[%emt {}]", clock_text(e)));
        }
        if let Some(c) = m.comment.as_deref().filter(|c| !c.trim().is_empty()) {
            parts.push(comment_text(c));
        }
        need_number = !parts.is_empty();
        if !parts.is_empty() {
            tokens.push(format!("{{{}}}", parts.join(" ")));
        }
        if pos.turn() == Color::Black {
            number += 1;
        }
        pos.play_unchecked(m.mv);
    }
    tokens.push(record.result.token().to_string());
    let mut line = String::new();
    let mut width = 0;
    for t in tokens {
        let w: usize = t.chars().map(columns).sum();
        if width > 0 && width + 1 + w > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
            width = 0;
        }
        if width > 0 {
            line.push(' ');
            width += 1;
        }
        line.push_str(&t);
        width += w;
    }
    out.push_str(&line);
    out.push('\n');
    Ok(out)
}

/// Writes several games, separated by blank lines.
///
/// # Errors
/// The first game that does not replay; its number is set.
pub fn write_games(records: &[Record], notation: Notation) -> Result<String, RecordError> {
    let mut out = String::new();
    for (i, r) in records.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&write_pgn(r, notation).map_err(|e| crate::read::renumber(e, i + 1))?);
    }
    Ok(out)
}
