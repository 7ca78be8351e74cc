//! KIF (柿木形式), the record format of Kakinoki's program that 81Dojo,
//! Shogi Wars, Lishogi and most Japanese software read and write.
//!
//! Read: the header lines (`手合割：香落ち`, `先手：…`, `後手：…`, any other
//! `key：value`), an optional board diagram (BOD: `|v香v桂…|一`, the hands
//! `先手の持駒：…`, `後手番`), then numbered move lines — `７六歩(77)`,
//! `同　歩(23)`, `２二角成(88)`, `５五角打`, a move without its origin read
//! as KI2 — each with its optional `( 0:12/00:01:23)` time, and the closing
//! word (投了, 千日手, 持将棋, 詰み, 切れ負け …). Comments (`*`, `#`, `&`) are
//! skipped and the main line ends where variations (`変化：`) begin. Every
//! move is checked legal; a malformed line is refused with its number.

use crate::handicap::Handicap;
use crate::record::{
    err, kanji_count, kanji_digit, kanji_number, kif_key, wide_digit, RecordEnd, RecordError, Replay,
    ShogiRecord, KANJI_DIGITS, WIDE_DIGITS,
};
use crate::sfen::{file_rank, parse_sfen, square, HAND_ORDER, STARTPOS};
use crate::usi::{legal_moves, parse_usi};
use rsshogi::board::Position;
use rsshogi::types::{Color, HandPiece, PieceType};
use std::fmt::Write as _;

/// KIF's names of pieces; the first of a type is the one written.
const PIECE_NAMES: [(&str, PieceType); 19] = [
    ("成香", PieceType::PRO_LANCE),
    ("成桂", PieceType::PRO_KNIGHT),
    ("成銀", PieceType::PRO_SILVER),
    ("歩", PieceType::PAWN),
    ("香", PieceType::LANCE),
    ("桂", PieceType::KNIGHT),
    ("銀", PieceType::SILVER),
    ("金", PieceType::GOLD),
    ("角", PieceType::BISHOP),
    ("飛", PieceType::ROOK),
    ("玉", PieceType::KING),
    ("王", PieceType::KING),
    ("と", PieceType::PRO_PAWN),
    ("馬", PieceType::HORSE),
    ("龍", PieceType::DRAGON),
    ("竜", PieceType::DRAGON),
    ("杏", PieceType::PRO_LANCE),
    ("圭", PieceType::PRO_KNIGHT),
    ("全", PieceType::PRO_SILVER),
];

/// The one-character names a board diagram uses.
const BOD_NAMES: [(char, PieceType); 14] = [
    ('歩', PieceType::PAWN),
    ('香', PieceType::LANCE),
    ('桂', PieceType::KNIGHT),
    ('銀', PieceType::SILVER),
    ('金', PieceType::GOLD),
    ('角', PieceType::BISHOP),
    ('飛', PieceType::ROOK),
    ('玉', PieceType::KING),
    ('と', PieceType::PRO_PAWN),
    ('杏', PieceType::PRO_LANCE),
    ('圭', PieceType::PRO_KNIGHT),
    ('全', PieceType::PRO_SILVER),
    ('馬', PieceType::HORSE),
    ('龍', PieceType::DRAGON),
];

/// Handicaps KIF names beyond the JSA's nine (the giver, gote, moves first).
const OTHER_HANDICAPS: [(&str, &str); 4] = [
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// The closing words and what they mean.
const ENDINGS: [(&str, RecordEnd); 12] = [
    ("投了", RecordEnd::Resign),
    ("中断", RecordEnd::Abort),
    ("千日手", RecordEnd::Repetition),
    ("持将棋", RecordEnd::Impasse),
    ("入玉勝ち", RecordEnd::Declaration),
    ("入玉宣言", RecordEnd::Declaration),
    ("宣言勝ち", RecordEnd::Declaration),
    ("詰み", RecordEnd::Checkmate),
    ("切れ負け", RecordEnd::Timeout),
    ("時間切れ", RecordEnd::Timeout),
    ("反則負け", RecordEnd::IllegalMove),
    ("反則勝ち", RecordEnd::Other(String::new())),
];

fn piece_kif_name(pt: PieceType) -> &'static str {
    PIECE_NAMES.iter().find(|(_, p)| *p == pt).map_or("?", |(n, _)| n)
}

fn bod_char(pt: PieceType) -> char {
    BOD_NAMES.iter().find(|(_, p)| *p == pt).map_or('?', |(c, _)| *c)
}

/// What the header and diagram say about the start.
#[derive(Default)]
struct Start {
    /// The start a `手合割` line names, and its line.
    handicap: Option<(&'static str, usize)>,
    rows: Vec<(usize, String)>,
    hands: [Option<(usize, String)>; 2],
    gote_to_move: bool,
}

impl Start {
    /// The start position's SFEN, and the line to blame if it is wrong.
    fn sfen(&self, line: usize) -> Result<(String, usize), RecordError> {
        if self.rows.is_empty() {
            if self.hands.iter().any(Option::is_some) {
                return Err(err(line, "hands are given without a board diagram"));
            }
            return Ok(match self.handicap {
                Some((sfen, l)) => (sfen.to_string(), l),
                None => (STARTPOS.to_string(), line),
            });
        }
        let first = self.rows[0].0;
        if self.rows.len() != 9 {
            return Err(err(
                first,
                format!("the board diagram has {} ranks, not 9", self.rows.len()),
            ));
        }
        let mut board = String::new();
        for (i, (l, row)) in self.rows.iter().enumerate() {
            board.push_str(&bod_row(row).map_err(|m| err(*l, m))?);
            if i < 8 {
                board.push('/');
            }
        }
        let mut hands = String::new();
        for (c, hand) in self.hands.iter().enumerate() {
            if let Some((l, text)) = hand {
                hands.push_str(&bod_hand(text, c == 1).map_err(|m| err(*l, m))?);
            }
        }
        let side = if self.gote_to_move { "w" } else { "b" };
        let sfen = format!("{board} {side} {} 1", if hands.is_empty() { "-" } else { &hands });
        parse_sfen(&sfen).map_err(|e| err(first, e))?;
        Ok((sfen, first))
    }
}

/// One diagram rank, `|v香v桂 ・…|一`, as an SFEN rank.
fn bod_row(row: &str) -> Result<String, String> {
    let inner = row.trim_start_matches('|').split('|').next().unwrap_or_default();
    let cells: Vec<char> = inner.chars().collect();
    if cells.len() != 18 {
        return Err(format!("a board diagram rank needs 9 squares: {row:?}"));
    }
    let mut out = String::new();
    let mut empty = 0;
    for cell in cells.chunks(2) {
        let (mark, name) = (cell[0], cell[1]);
        if name == '・' {
            empty += 1;
            continue;
        }
        let pt = BOD_NAMES
            .iter()
            .find(|(c, _)| *c == name || (name == '王' && *c == '玉') || (name == '竜' && *c == '龍'))
            .map(|(_, p)| *p)
            .ok_or_else(|| format!("{name:?} is not a piece"))?;
        if empty > 0 {
            out.push_str(&empty.to_string());
            empty = 0;
        }
        let color = match mark {
            'v' | 'V' => Color::WHITE,
            ' ' | '^' | '　' => Color::BLACK,
            other => return Err(format!("{other:?} before {name} is neither ' ' nor 'v'")),
        };
        out.push_str(&crate::sfen::piece_sfen(rsshogi::types::Piece::from_parts(
            color, pt,
        )));
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    Ok(out)
}

/// A hand, `飛　角　金二　歩十八` or `なし`, as SFEN hand letters.
fn bod_hand(text: &str, gote: bool) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() || text == "なし" {
        return Ok(String::new());
    }
    let mut out = String::new();
    for item in text.split(|c: char| c.is_whitespace() || c == '　') {
        if item.is_empty() {
            continue;
        }
        let mut chars = item.chars();
        let name = chars.next().expect("not empty");
        let pt = BOD_NAMES
            .iter()
            .find(|(c, p)| *c == name && p.is_hand_piece())
            .map(|(_, p)| *p)
            .ok_or_else(|| format!("{name:?} cannot be in hand"))?;
        let n = kanji_count(chars.as_str()).ok_or_else(|| format!("bad count in {item:?}"))?;
        let letter = crate::sfen::piece_sfen(rsshogi::types::Piece::from_parts(
            if gote { Color::WHITE } else { Color::BLACK },
            pt,
        ));
        if n > 1 {
            out.push_str(&n.to_string());
        }
        out.push_str(&letter);
    }
    Ok(out)
}

/// Reads a KIF record (the main line).
///
/// # Errors
/// [`RecordError`] with the line of the first thing that is wrong: an
/// unknown header or handicap, a bad diagram, a move out of sequence, one
/// that cannot be read, or one that is illegal.
pub fn read_kif(text: &str) -> Result<ShogiRecord, RecordError> {
    let mut record = ShogiRecord::default();
    let mut start = Start::default();
    let mut replay: Option<Replay> = None;
    let mut last_to = None;
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        last_line = line;
        let t = raw.trim_start_matches('\u{feff}').trim();
        if t.is_empty() || t.starts_with(['#', '*', '&']) {
            continue;
        }
        if let Some(summary) = t.strip_prefix("まで") {
            // KI2 says how the game ended only here; KIF also has the word.
            if record.end.is_none() && replay.is_some() {
                record.end = ending_of_summary(summary);
            }
            continue;
        }
        if t.starts_with("変化") {
            break;
        }
        let is_ki2_line = t.starts_with(['▲', '△', '☗', '☖']);
        let is_move_line = is_ki2_line || t.starts_with(|c: char| c.is_ascii_digit());
        if replay.is_none() {
            if t.starts_with("手数") {
                let (sfen, l) = start.sfen(line)?;
                replay = Some(Replay::new(&sfen, l)?);
                continue;
            }
            if !is_move_line {
                read_header_line(raw, t, line, &mut start, &mut record)?;
                continue;
            }
            let (sfen, l) = start.sfen(line)?;
            replay = Some(Replay::new(&sfen, l)?);
        }
        let r = replay.as_mut().expect("set above");
        if record.end.is_some() {
            return Err(err(line, "a move after the game's end"));
        }
        if !is_move_line {
            return Err(err(line, format!("not a KIF move line: {t:?}")));
        }
        if is_ki2_line {
            // KI2: moves marked ▲/△, several to a line, no numbers.
            for token in split_ki2(t) {
                let m = crate::notation::parse_japanese(&r.pos, &token).map_err(|m| err(line, m))?;
                r.play(&m.to_usi(), None, line)?;
            }
            continue;
        }
        let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let number: usize = t[..digits].parse().map_err(|_| err(line, "bad move number"))?;
        let expected = r.moves.len() + 1;
        if number != expected {
            return Err(err(
                line,
                format!("move {number} where move {expected} was expected"),
            ));
        }
        let body = t[digits..].trim_start();
        if let Some((_, end)) = ENDINGS.iter().find(|(w, _)| body.starts_with(w)) {
            let word = body.split_whitespace().next().unwrap_or_default();
            record.end = Some(match end {
                RecordEnd::Other(_) => RecordEnd::Other(word.to_string()),
                e => e.clone(),
            });
            continue;
        }
        let (usi, rest) = read_move(&r.pos, body, last_to).map_err(|m| err(line, m))?;
        let seconds = read_time(rest);
        r.play(&usi, seconds, line)?;
        last_to = Some(r.pos.last_move().to_sq());
    }
    let replay = match replay {
        Some(r) => r,
        None => {
            let (sfen, l) = start.sfen(last_line.max(1))?;
            Replay::new(&sfen, l)?
        }
    };
    record.initial_sfen = replay.start_sfen;
    record.moves = replay.moves;
    Ok(record)
}

fn read_header_line(
    raw: &str,
    t: &str,
    line: usize,
    start: &mut Start,
    record: &mut ShogiRecord,
) -> Result<(), RecordError> {
    if t.starts_with('|') {
        start.rows.push((line, t.to_string()));
        return Ok(());
    }
    if t.starts_with("+-") || t.starts_with('９') || t.starts_with('9') {
        return Ok(()); // the diagram's frame and file numbers
    }
    match t {
        "後手番" | "上手番" => {
            start.gote_to_move = true;
            return Ok(());
        }
        "先手番" | "下手番" => {
            start.gote_to_move = false;
            return Ok(());
        }
        _ => {}
    }
    let Some((key, value)) = t.split_once('：').or_else(|| t.split_once(':')) else {
        return Err(err(
            line,
            format!("neither a header (key：value) nor a move: {raw:?}"),
        ));
    };
    let (key, value) = (key.trim(), value.trim());
    match key {
        "手合割" => match value {
            // その他: "another start", the board diagram that follows says which.
            "平手" | "その他" => {}
            _ => {
                let sfen = Handicap::from_name(value)
                    .map(Handicap::sfen)
                    .or_else(|| OTHER_HANDICAPS.iter().find(|(n, _)| *n == value).map(|(_, s)| *s))
                    .ok_or_else(|| err(line, format!("unknown handicap {value:?}")))?;
                start.handicap = Some((sfen, line));
            }
        },
        "先手" | "下手" => record.black = Some(value.to_string()),
        "後手" | "上手" => record.white = Some(value.to_string()),
        "先手の持駒" | "下手の持駒" => start.hands[0] = Some((line, value.to_string())),
        "後手の持駒" | "上手の持駒" => start.hands[1] = Some((line, value.to_string())),
        _ => record.headers.push((key.to_string(), value.to_string())),
    }
    Ok(())
}

/// Reads one move (`７六歩(77)`, `同　歩(23)`, `５五角打`, `２二角成(88)`,
/// or KI2's `７六歩`) and returns it in USI with the text after it.
fn read_move<'a>(
    pos: &Position,
    body: &'a str,
    last_to: Option<rsshogi::types::Square>,
) -> Result<(String, &'a str), String> {
    let mut rest = body;
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches([' ', '　']);
        last_to.ok_or("同 (the same square) with no move before it")?
    } else {
        let mut cs = rest.chars();
        let file = cs.next().and_then(wide_digit);
        let rank = cs.next().and_then(|c| kanji_digit(c).or_else(|| wide_digit(c)));
        let (Some(file), Some(rank)) = (file, rank) else {
            return Err(format!("cannot read the square of {body:?}"));
        };
        rest = cs.as_str();
        square(file, rank)
    };
    let (name, pt) = PIECE_NAMES
        .iter()
        .find(|(n, _)| rest.starts_with(n))
        .ok_or_else(|| format!("cannot read the piece of {body:?}"))?;
    rest = &rest[name.len()..];
    let mut promote = false;
    if let Some(r) = rest.strip_prefix("不成") {
        rest = r;
    } else if let Some(r) = rest.strip_prefix('成') {
        rest = r;
        promote = true;
    }
    let (file, rank) = file_rank(to);
    let to_usi = format!("{file}{}", (b'a' + rank - 1) as char);
    if let Some(r) = rest.strip_prefix('打') {
        let letter = crate::sfen::piece_sfen(rsshogi::types::Piece::from_parts(Color::BLACK, *pt));
        return Ok((format!("{letter}*{to_usi}"), r));
    }
    if let Some(r) = rest.strip_prefix('(') {
        let digits: Vec<u8> = r
            .chars()
            .take(2)
            .filter_map(|c| c.to_digit(10))
            .map(|d| d as u8)
            .collect();
        if digits.len() != 2 || !r[2..].starts_with(')') || digits.contains(&0) {
            return Err(format!("cannot read the origin square of {body:?}"));
        }
        let from = square(digits[0], digits[1]);
        let on = pos.piece_on(from);
        if on.is_empty() || on.piece_type() != *pt {
            return Err(format!(
                "{body:?}: there is no {name} on {}{}",
                digits[0], digits[1]
            ));
        }
        let usi = format!(
            "{}{}{to_usi}{}",
            digits[0],
            (b'a' + digits[1] - 1) as char,
            if promote { "+" } else { "" }
        );
        return Ok((usi, &r[3..]));
    }
    // No origin: KI2 (７六歩, ５八金右, ２二角成) resolved on the position.
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '(')
        .unwrap_or(rest.len());
    let mark = if pos.turn() == Color::BLACK { '▲' } else { '△' };
    let text = format!("{mark}{}", &body[..body.len() - rest.len() + end]);
    let m = crate::notation::parse_japanese(pos, &text)?;
    Ok((m.to_usi(), &rest[end..]))
}

/// The moves of a KI2 line, each with its mark.
fn split_ki2(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in line.chars() {
        if matches!(c, '▲' | '△' | '☗' | '☖') {
            out.push(String::new());
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out.into_iter()
        .map(|m| m.trim_end_matches(|c: char| c.is_whitespace()).to_string())
        .collect()
}

/// How a `まで64手で後手の勝ち` line says the game ended.
fn ending_of_summary(summary: &str) -> Option<RecordEnd> {
    [
        ("千日手", RecordEnd::Repetition),
        ("持将棋", RecordEnd::Impasse),
        ("中断", RecordEnd::Abort),
        ("入玉勝ち", RecordEnd::Declaration),
        ("反則負け", RecordEnd::IllegalMove),
        ("切れ負け", RecordEnd::Timeout),
        ("反則勝ち", RecordEnd::Other("反則勝ち".to_string())),
        ("勝ち", RecordEnd::Resign),
    ]
    .into_iter()
    .find(|(w, _)| summary.contains(w))
    .map(|(_, e)| e)
}

/// The move's own time in `( 0:12/00:01:23)`, in seconds.
fn read_time(rest: &str) -> Option<u32> {
    let inner = rest.trim().strip_prefix('(')?;
    let own = inner.split('/').next()?.trim();
    let (m, s) = own.split_once(':')?;
    Some(m.trim().parse::<u32>().ok()? * 60 + s.trim().parse::<u32>().ok()?)
}

/// Writes a record as KIF (UTF-8; save it as `.kifu`, or encode it to
/// Shift_JIS for `.kif`).
///
/// # Panics
/// When a move of the record is not legal (records read by this crate are
/// checked).
#[must_use]
pub fn write_kif(record: &ShogiRecord) -> String {
    let (mut pos, _) = parse_sfen(&record.initial_sfen).expect("a record's start is legal");
    let handicap = Handicap::of_start(&record.initial_sfen);
    let mut out = String::new();
    for (k, v) in &record.headers {
        let _ = writeln!(out, "{}：{v}", kif_key(k));
    }
    let (black, white) = if handicap.is_some() {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    if crate::handicap::is_even_start(&record.initial_sfen) {
        out.push_str("手合割：平手\n");
    } else if let Some(h) = handicap {
        let _ = writeln!(out, "手合割：{}", h.japanese());
    } else {
        out.push_str(&board_diagram(&pos));
    }
    let _ = writeln!(out, "{black}：{}", record.black.as_deref().unwrap_or(""));
    let _ = writeln!(out, "{white}：{}", record.white.as_deref().unwrap_or(""));
    out.push_str("手数----指手---------消費時間--\n");
    let mut totals = [0_u32; 2];
    let mut last_to = None;
    for (i, rm) in record.moves.iter().enumerate() {
        let m = parse_usi(&pos, &rm.usi).expect("a record's moves are legal");
        let mover = pos.turn().to_index();
        let text = move_text(&pos, m, last_to);
        match rm.seconds {
            Some(secs) => {
                totals[mover] += secs;
                let time = time_text(secs, totals[mover]);
                let _ = writeln!(out, "{:>4} {}   {time}", i + 1, pad(&text, 14));
            }
            None => {
                let _ = writeln!(out, "{:>4} {text}", i + 1);
            }
        }
        last_to = Some(m.to_sq());
        pos.apply_move32(m);
    }
    let n = record.moves.len();
    if let Some(end) = &record.end {
        let word = match end {
            RecordEnd::Resign => "投了",
            RecordEnd::Abort => "中断",
            RecordEnd::Repetition => "千日手",
            RecordEnd::Impasse => "持将棋",
            RecordEnd::Declaration => "入玉宣言",
            RecordEnd::Checkmate => "詰み",
            RecordEnd::Timeout => "切れ負け",
            RecordEnd::IllegalMove => "反則負け",
            RecordEnd::Other(w) => w.as_str(),
        };
        let _ = writeln!(out, "{:>4} {word}", n + 1);
        let mover = if pos.turn() == Color::BLACK { black } else { white };
        let other = if pos.turn() == Color::BLACK { white } else { black };
        let summary = match end {
            RecordEnd::Resign | RecordEnd::Checkmate | RecordEnd::Timeout | RecordEnd::IllegalMove => {
                Some(format!("まで{n}手で{other}の勝ち"))
            }
            RecordEnd::Declaration => Some(format!("まで{n}手で{mover}の入玉勝ち")),
            RecordEnd::Repetition => Some(format!("まで{n}手で千日手")),
            RecordEnd::Impasse => Some(format!("まで{n}手で持将棋")),
            RecordEnd::Abort => Some(format!("まで{n}手で中断")),
            RecordEnd::Other(_) => None,
        };
        if let Some(s) = summary {
            let _ = writeln!(out, "{s}");
        }
    }
    out
}

/// Pads to a display width (full-width characters count two).
fn pad(text: &str, width: usize) -> String {
    let w: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    format!("{text}{}", " ".repeat(width.saturating_sub(w)))
}

fn time_text(secs: u32, total: u32) -> String {
    format!(
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        secs / 60,
        secs % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}

/// One move as KIF writes it: `７六歩(77)`, `同　歩(23)`, `２二角成(88)`,
/// `２二角不成(88)`, `５五角打`.
fn move_text(pos: &Position, m: rsshogi::types::Move32, last_to: Option<rsshogi::types::Square>) -> String {
    let to = m.to_sq();
    let name;
    let mut out = if last_to == Some(to) {
        String::from("同")
    } else {
        let (f, r) = file_rank(to);
        format!("{}{}", WIDE_DIGITS[f as usize - 1], KANJI_DIGITS[r as usize - 1])
    };
    if let Some(pt) = m.dropped_piece() {
        name = piece_kif_name(pt);
        out.push_str(name);
        out.push('打');
        return out;
    }
    let from = m.from_sq();
    name = piece_kif_name(pos.piece_on(from).piece_type());
    if out == "同" && name.chars().count() == 1 {
        out.push('　');
    }
    out.push_str(name);
    if m.is_promotion() {
        out.push('成');
    } else if legal_moves(pos)
        .iter()
        .any(|o| o.is_promotion() && !o.is_drop() && o.from_sq() == from && o.to_sq() == to)
    {
        out.push_str("不成");
    }
    let (f, r) = file_rank(from);
    let _ = write!(out, "({f}{r})");
    out
}

/// A board diagram (BOD) of a position, hands and side to move included.
#[must_use]
pub fn board_diagram(pos: &Position) -> String {
    let hand = |c: Color| {
        let items: Vec<String> = HAND_ORDER
            .iter()
            .filter_map(|&pt| {
                let n = pos.hand(c).count(HandPiece::from_piece_type(pt)?);
                (n > 0).then(|| {
                    format!(
                        "{}{}",
                        bod_char(pt),
                        if n > 1 { kanji_number(n) } else { String::new() }
                    )
                })
            })
            .collect();
        if items.is_empty() {
            "なし".to_string()
        } else {
            items.join("　")
        }
    };
    let mut out = format!("後手の持駒：{}\n", hand(Color::WHITE));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9 {
        out.push('|');
        for file in (1..=9).rev() {
            let p = pos.piece_on(square(file, rank));
            if p.is_empty() {
                out.push_str(" ・");
            } else {
                out.push(if p.color() == Color::WHITE { 'v' } else { ' ' });
                out.push(bod_char(p.piece_type()));
            }
        }
        let _ = writeln!(out, "|{}", KANJI_DIGITS[rank as usize - 1]);
    }
    out.push_str("+---------------------------+\n");
    let _ = writeln!(out, "先手の持駒：{}", hand(Color::BLACK));
    if pos.turn() == Color::WHITE {
        out.push_str("後手番\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::RecordedMove;

    const GAME: &str = "開始日時：2026/12/04 10:00:00
手合割：平手
先手：羽生
後手：藤井
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:05/00:00:05)
   2 ３四歩(33)   ( 0:10/00:00:10)
*comment on the move
   3 ２二角成(88) ( 0:03/00:00:08)
   4 同　銀(31)   ( 0:01/00:00:11)
   5 ４五角打     ( 1:00/00:01:08)
   6 投了
まで5手で先手の勝ち
";

    #[test]
    fn reads_a_game() {
        let r = read_kif(GAME).unwrap();
        assert_eq!(r.black.as_deref(), Some("羽生"));
        assert_eq!(r.white.as_deref(), Some("藤井"));
        assert_eq!(r.usi_moves(), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        assert_eq!(r.moves[4].seconds, Some(60));
        assert_eq!(r.end, Some(RecordEnd::Resign));
        assert_eq!(
            r.headers,
            [("開始日時".to_string(), "2026/12/04 10:00:00".to_string())]
        );
        // Written and read back: the same record.
        let again = read_kif(&write_kif(&r)).unwrap();
        assert_eq!(again, r);
        let text = write_kif(&r);
        assert!(text.contains("   4 同　銀(31)"), "{text}");
        assert!(text.contains("   5 ４五角打"), "{text}");
        assert!(text.contains("まで5手で先手の勝ち"), "{text}");
    }

    #[test]
    fn malformed_records_name_their_line() {
        let bad = |text: &str, line: usize, what: &str| {
            let e = read_kif(text).unwrap_err();
            assert_eq!(e.line, line, "{e}");
            assert!(e.message.contains(what), "{e}");
        };
        bad(
            "手合割：平手\n   1 ７六歩(77)\n   2 ７六歩(77)\n",
            3,
            "no 歩 on 77",
        );
        bad(
            "手合割：平手\n   1 ７六歩(77)\n   3 ３四歩(33)\n",
            3,
            "move 3 where move 2",
        );
        bad("手合割：平手\n   1 ７五歩(77)\n", 2, "cannot move");
        bad("手合割：平手\n   1 Ｘ六歩(77)\n", 2, "cannot read the square");
        bad("手合割：九枚落ち\n", 1, "unknown handicap");
        bad("手合割：平手\nこれは何\n", 2, "neither a header");
        bad("   1 同　歩(77)\n", 1, "no move before it");
        bad(
            "   1 ７六歩(77)\n   2 投了\n   3 ３四歩(33)\n",
            3,
            "after the game's end",
        );
    }

    #[test]
    fn handicap_and_board_diagram() {
        let text = "手合割：二枚落ち\n下手：A\n上手：B\n手数----指手--\n   1 ６二銀(71)\n   2 ７六歩(77)\n";
        let r = read_kif(text).unwrap();
        assert_eq!(r.initial_sfen, Handicap::TwoPieces.sfen());
        assert_eq!(r.usi_moves(), ["7a6b", "7g7f"]);
        let w = write_kif(&r);
        assert!(w.contains("手合割：二枚落ち") && w.contains("上手：B"), "{w}");
        assert_eq!(read_kif(&w).unwrap(), r);

        // A position of its own: written as a diagram, read back the same.
        let sfen = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124";
        let (pos, _) = parse_sfen(sfen).unwrap();
        let rec = ShogiRecord {
            initial_sfen: crate::sfen::write_sfen(&pos, 1),
            moves: vec![RecordedMove {
                usi: "B*1e".into(),
                seconds: None,
            }],
            ..ShogiRecord::default()
        };
        let w = write_kif(&rec);
        assert!(w.contains("後手番") && w.contains("先手の持駒：銀"), "{w}");
        assert!(w.contains("後手の持駒：角　金　桂　歩三"), "{w}");
        let back = read_kif(&w).unwrap();
        assert_eq!(back.initial_sfen, rec.initial_sfen);
        assert_eq!(back.usi_moves(), ["B*1e"]);
    }

    #[test]
    fn ki2_records() {
        let text = "手合割：平手\n先手：A\n後手：B\n\n▲７六歩　　△３四歩　　▲２二角成\n△同　銀　　▲４五角打　△５二金右\n☗５八金右\nまで7手で先手の勝ち\n";
        let r = read_kif(text).unwrap();
        // Right and left are each player's own: gote's right gold is 6a's.
        assert_eq!(
            r.usi_moves(),
            ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "6a5b", "4i5h"]
        );
        assert_eq!(r.end, Some(RecordEnd::Resign));
        // A KI2 move that names no legal move, or the wrong side: its line.
        let e = read_kif("▲７六歩　△３四歩\n▲７六歩\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        let e = read_kif("▲７六歩　▲３四歩\n").unwrap_err();
        assert!(e.message.contains("not the move of the side to move"), "{e}");
        // Two golds could go to 5h: without 右/左 the move is ambiguous.
        let e = read_kif("▲５八金\n").unwrap_err();
        assert!(
            e.message.contains("ambiguous: ▲５八金右, ▲５八金左")
                || e.message.contains("ambiguous: ▲５八金左, ▲５八金右"),
            "{e}"
        );
        // What no other legal move needs may be left out; a redundant 打 is
        // forgiven.
        let r = read_kif("▲７六歩　△３四歩　▲２二角成　△同銀　▲４五角打\n").unwrap();
        assert_eq!(r.usi_moves()[4], "B*4e");
        let e = read_kif("▲７六歩　△３四歩　▲２二角\n").unwrap_err();
        assert!(
            e.message.contains("▲２二角成") && e.message.contains("▲２二角不成"),
            "{e}"
        );
    }

    #[test]
    fn other_handicaps_and_sites_headers() {
        // As lishogi and 81Dojo write them: a version comment, the site,
        // the time control, two-digit minutes in the times.
        let text = "#KIF version=2.0 encoding=UTF-8\n開始日時：2026/12/04\n場所：lishogi.org\n持ち時間：10分+10秒\n手合割：三枚落ち\n上手：U\n下手：S\n手数----指手---------消費時間--\n   1   ６二銀(71)   (00:05/00:00:05)\n   2   ７六歩(77)   (0:3/0:0:3)\n   3   投了   (00:01/00:00:06)\nまで2手で下手の勝ち\n";
        let r = read_kif(text).unwrap();
        assert_eq!(r.initial_sfen, OTHER_HANDICAPS[1].1);
        assert_eq!(r.usi_moves(), ["7a6b", "7g7f"]);
        assert_eq!((r.moves[0].seconds, r.moves[1].seconds), (Some(5), Some(3)));
        assert_eq!((r.black.as_deref(), r.white.as_deref()), (Some("S"), Some("U")));
        assert!(r
            .headers
            .contains(&("場所".to_string(), "lishogi.org".to_string())));
        // その他 with a diagram.
        let text = "手合割：その他\n後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金\n手数----指手---------消費時間--\n   1 ５二金打\n   2 詰み\n";
        let r = read_kif(text).unwrap();
        assert_eq!(r.initial_sfen, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
        assert_eq!(
            (r.usi_moves(), r.end),
            (vec!["G*5b".to_string()], Some(RecordEnd::Checkmate))
        );
        // A diagram rank with a bad piece: its own line.
        let bad = text.replace("| ・ ・ ・ ・ 歩", "| ・ ・ ・ ・ 象");
        let e = read_kif(&bad).unwrap_err();
        assert_eq!(e.line, 7, "{e}");
    }

    #[test]
    fn ki2_moves_and_promotion_refused() {
        let r = read_kif("   1 ７六歩\n   2 ３四歩\n   3 ２二角成\n   4 同銀\n").unwrap();
        assert_eq!(r.usi_moves(), ["7g7f", "3c3d", "8h2b+", "3a2b"]);
        let r = read_kif("   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角不成(88)\n").unwrap();
        assert_eq!(r.usi_moves()[2], "8h2b");
    }
}
