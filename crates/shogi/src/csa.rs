//! CSA (the Computer Shogi Association's record format, V2.2), which
//! computer shogi, Floodgate and most engines speak.
//!
//! Read: `V2.2`, the names (`N+…`, `N-…`), `$KEY:value` headers, the start
//! (`PI` with optional removed pieces such as `PI82HI22KA`, or the ranks
//! `P1`–`P9` and `P+`/`P-` placements and hands, `00AL` included), the side to
//! move (`+`/`-`), moves (`+7776FU`, `-0055KA`), times (`T12`) and the ending
//! (`%TORYO`, `%SENNICHITE` …). Comments (`'`) are skipped; statements may share
//! a line, separated by commas. Every move is checked legal; a malformed
//! statement is refused with its line number.

use crate::record::{csa_key, err, RecordEnd, RecordError, Replay, ShogiRecord};
use crate::sfen::{file_rank, parse_sfen, piece_sfen, square, write_sfen, HAND_ORDER, STARTPOS};
use crate::usi::parse_usi;
use rsshogi::board::Position;
use rsshogi::types::{Color, HandPiece, Piece, PieceType};
use std::fmt::Write as _;

const CODES: [(&str, PieceType); 14] = [
    ("FU", PieceType::PAWN),
    ("KY", PieceType::LANCE),
    ("KE", PieceType::KNIGHT),
    ("GI", PieceType::SILVER),
    ("KI", PieceType::GOLD),
    ("KA", PieceType::BISHOP),
    ("HI", PieceType::ROOK),
    ("OU", PieceType::KING),
    ("TO", PieceType::PRO_PAWN),
    ("NY", PieceType::PRO_LANCE),
    ("NK", PieceType::PRO_KNIGHT),
    ("NG", PieceType::PRO_SILVER),
    ("UM", PieceType::HORSE),
    ("RY", PieceType::DRAGON),
];

const ENDINGS: [(&str, RecordEnd); 9] = [
    ("%TORYO", RecordEnd::Resign),
    ("%CHUDAN", RecordEnd::Abort),
    ("%SENNICHITE", RecordEnd::Repetition),
    ("%JISHOGI", RecordEnd::Impasse),
    ("%KACHI", RecordEnd::Declaration),
    ("%TSUMI", RecordEnd::Checkmate),
    ("%TIME_UP", RecordEnd::Timeout),
    ("%ILLEGAL_MOVE", RecordEnd::IllegalMove),
    ("%HIKIWAKE", RecordEnd::Impasse),
];

fn code_type(code: &str) -> Option<PieceType> {
    CODES.iter().find(|(c, _)| *c == code).map(|(_, p)| *p)
}

fn type_code(pt: PieceType) -> &'static str {
    CODES.iter().find(|(_, p)| *p == pt).map_or("??", |(c, _)| c)
}

/// The start as the `P` lines build it.
struct Setup {
    board: [Option<Piece>; 81],
    hands: [Vec<PieceType>; 2],
    touched: bool,
    first_line: usize,
}

impl Setup {
    fn new() -> Setup {
        Setup {
            board: [None; 81],
            hands: [Vec::new(), Vec::new()],
            touched: false,
            first_line: 0,
        }
    }

    fn touch(&mut self, line: usize) {
        if !self.touched {
            self.touched = true;
            self.first_line = line;
        }
    }

    fn hirate(&mut self) {
        let (pos, _) = parse_sfen(STARTPOS).expect("the start is legal");
        for (sq, p) in pos.board_array().iter() {
            self.board[sq.to_index()] = (!p.is_empty()).then_some(p);
        }
    }

    fn sfen(&self, black_to_move: bool) -> String {
        let mut board = String::new();
        for rank in 1..=9 {
            let mut empty = 0;
            for file in (1..=9).rev() {
                match self.board[square(file, rank).to_index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            board.push_str(&empty.to_string());
                            empty = 0;
                        }
                        board.push_str(&piece_sfen(p));
                    }
                }
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
            if rank < 9 {
                board.push('/');
            }
        }
        let mut hands = String::new();
        for (c, hand) in self.hands.iter().enumerate() {
            let color = if c == 0 { Color::BLACK } else { Color::WHITE };
            for &pt in &HAND_ORDER {
                let n = hand.iter().filter(|&&p| p == pt).count();
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    hands.push_str(&piece_sfen(Piece::from_parts(color, pt)));
                }
            }
        }
        format!(
            "{board} {} {} 1",
            if black_to_move { "b" } else { "w" },
            if hands.is_empty() { "-" } else { &hands }
        )
    }
}

fn two_digits(s: &str) -> Option<(u8, u8)> {
    let b = s.as_bytes();
    if b.len() < 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return None;
    }
    Some((b[0] - b'0', b[1] - b'0'))
}

/// Reads a CSA record (the first game of the file).
///
/// # Errors
/// [`RecordError`] with the line of the first statement that is wrong.
pub fn read_csa(text: &str) -> Result<ShogiRecord, RecordError> {
    let mut record = ShogiRecord::default();
    let mut setup = Setup::new();
    let mut replay: Option<Replay> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim_start_matches('\u{feff}').trim_end();
        if raw.starts_with('\'') {
            continue;
        }
        if raw.trim() == "/" {
            break; // the next game of a multi-game file
        }
        for st in raw.split(',') {
            let st = st.trim_end();
            if st.is_empty() {
                continue;
            }
            if replay.is_none() {
                if st == "+" || st == "-" {
                    let sfen = if setup.touched {
                        setup.sfen(st == "+")
                    } else {
                        return Err(err(
                            line,
                            "the side to move comes before any position (PI or P1–P9)",
                        ));
                    };
                    replay = Some(
                        Replay::new(&sfen, setup.first_line.max(1))
                            .map_err(|e| err(setup.first_line.max(1), e.message))?,
                    );
                    continue;
                }
                read_header(st, line, &mut setup, &mut record)?;
                continue;
            }
            let r = replay.as_mut().expect("set above");
            if let Some(t) = st.strip_prefix('T') {
                let secs: u32 = t
                    .trim()
                    .parse()
                    .map_err(|_| err(line, format!("bad time {st:?}")))?;
                let last = r
                    .moves
                    .last_mut()
                    .ok_or_else(|| err(line, "a time before any move"))?;
                last.seconds = Some(secs);
                continue;
            }
            if st.starts_with('%') {
                let end = ENDINGS
                    .iter()
                    .find(|(w, _)| st == *w)
                    .map_or_else(|| RecordEnd::Other(st.to_string()), |(_, e)| e.clone());
                record.end = Some(end);
                continue;
            }
            if st.starts_with(['+', '-']) {
                if record.end.is_some() {
                    return Err(err(line, "a move after the game's end"));
                }
                let usi = read_move(&r.pos, st).map_err(|m| err(line, m))?;
                r.play(&usi, None, line)?;
                continue;
            }
            if st.starts_with(['N', '$', 'V']) {
                read_header(st, line, &mut setup, &mut record)?;
                continue;
            }
            return Err(err(line, format!("not a CSA statement: {st:?}")));
        }
    }
    let r = match replay {
        Some(r) => r,
        None => {
            return Err(err(
                text.lines().count().max(1),
                "no side to move (+ or -) after the position",
            ))
        }
    };
    record.initial_sfen = r.start_sfen;
    record.moves = r.moves;
    Ok(record)
}

fn read_header(
    st: &str,
    line: usize,
    setup: &mut Setup,
    record: &mut ShogiRecord,
) -> Result<(), RecordError> {
    if st.starts_with('V') {
        return Ok(());
    }
    if let Some(name) = st.strip_prefix("N+") {
        record.black = Some(name.to_string());
        return Ok(());
    }
    if let Some(name) = st.strip_prefix("N-") {
        record.white = Some(name.to_string());
        return Ok(());
    }
    if let Some(kv) = st.strip_prefix('$') {
        let (k, v) = kv
            .split_once(':')
            .ok_or_else(|| err(line, format!("a $ header needs a colon: {st:?}")))?;
        record.headers.push((k.to_string(), v.to_string()));
        return Ok(());
    }
    if let Some(rest) = st.strip_prefix("PI") {
        setup.touch(line);
        setup.hirate();
        for chunk in rest.as_bytes().chunks(4) {
            let chunk = std::str::from_utf8(chunk).unwrap_or_default();
            let Some((f, r)) =
                two_digits(chunk).filter(|&(f, r)| (1..=9).contains(&f) && (1..=9).contains(&r))
            else {
                return Err(err(line, format!("bad square in {st:?}")));
            };
            let sq = square(f, r).to_index();
            let want = code_type(chunk.get(2..4).unwrap_or_default());
            if want.is_none() || setup.board[sq].map(|p| p.piece_type()) != want {
                return Err(err(line, format!("{chunk:?} removes a piece that is not there")));
            }
            setup.board[sq] = None;
        }
        return Ok(());
    }
    if let Some(rest) = st.strip_prefix('P') {
        setup.touch(line);
        let mut cs = rest.chars();
        match cs.next() {
            Some(d @ '1'..='9') => {
                let rank = d as u8 - b'0';
                let cells: Vec<char> = cs.collect();
                if cells.len() < 27 - 2 || cells.len() > 27 {
                    return Err(err(line, format!("rank P{rank} needs 9 squares of 3 characters")));
                }
                let mut padded = cells.clone();
                padded.resize(27, ' ');
                for (i, cell) in padded.chunks(3).enumerate() {
                    let file = 9 - i as u8;
                    let text: String = cell.iter().collect();
                    let sq = square(file, rank).to_index();
                    if text.trim() == "*" || text.trim().is_empty() {
                        setup.board[sq] = None;
                        continue;
                    }
                    let color = match cell[0] {
                        '+' => Color::BLACK,
                        '-' => Color::WHITE,
                        _ => return Err(err(line, format!("square {file}{rank}: {text:?} is not a piece"))),
                    };
                    let pt = code_type(&text[1..])
                        .ok_or_else(|| err(line, format!("square {file}{rank}: {text:?} is not a piece")))?;
                    setup.board[sq] = Some(Piece::from_parts(color, pt));
                }
                Ok(())
            }
            Some(sign @ ('+' | '-')) => {
                let color = if sign == '+' { Color::BLACK } else { Color::WHITE };
                let body: String = cs.collect();
                for chunk in body.as_bytes().chunks(4) {
                    let chunk = std::str::from_utf8(chunk).unwrap_or_default();
                    let Some((f, r)) = two_digits(chunk) else {
                        return Err(err(line, format!("bad placement {chunk:?}")));
                    };
                    let code = chunk.get(2..4).unwrap_or_default();
                    if (f, r) == (0, 0) && code == "AL" {
                        fill_hand_with_rest(setup, color);
                        continue;
                    }
                    let pt = code_type(code).ok_or_else(|| err(line, format!("bad piece in {chunk:?}")))?;
                    if (f, r) == (0, 0) {
                        if !pt.is_hand_piece() {
                            return Err(err(line, format!("{chunk:?}: only unpromoted pieces go in hand")));
                        }
                        setup.hands[color.to_index()].push(pt);
                    } else if (1..=9).contains(&f) && (1..=9).contains(&r) {
                        setup.board[square(f, r).to_index()] = Some(Piece::from_parts(color, pt));
                    } else {
                        return Err(err(line, format!("bad square in {chunk:?}")));
                    }
                }
                Ok(())
            }
            _ => Err(err(line, format!("not a CSA position line: {st:?}"))),
        }
    } else {
        Err(err(line, format!("not a CSA header or position line: {st:?}")))
    }
}

/// `00AL`: every piece of the set not on the board or in a hand goes to
/// `color`'s hand.
fn fill_hand_with_rest(setup: &mut Setup, color: Color) {
    let set = [
        (PieceType::PAWN, 18),
        (PieceType::LANCE, 4),
        (PieceType::KNIGHT, 4),
        (PieceType::SILVER, 4),
        (PieceType::GOLD, 4),
        (PieceType::BISHOP, 2),
        (PieceType::ROOK, 2),
    ];
    for (pt, total) in set {
        let used = setup
            .board
            .iter()
            .flatten()
            .filter(|p| p.piece_type().demote() == pt)
            .count()
            + setup.hands.iter().flatten().filter(|&&p| p == pt).count();
        for _ in used..total {
            setup.hands[color.to_index()].push(pt);
        }
    }
}

/// One move, `+7776FU` or `-0055KA`, as USI.
fn read_move(pos: &Position, st: &str) -> Result<String, String> {
    let sign = st.as_bytes()[0];
    let us = pos.turn();
    if (sign == b'+') != (us == Color::BLACK) {
        return Err(format!(
            "{st:?} is {}'s move but {} is to move",
            if sign == b'+' { "sente" } else { "gote" },
            if us == Color::BLACK { "sente" } else { "gote" }
        ));
    }
    let body = &st[1..];
    let (Some((ff, fr)), Some((tf, tr)), Some(code)) = (
        two_digits(body),
        body.get(2..).and_then(two_digits),
        body.get(4..6),
    ) else {
        return Err(format!("cannot read the move {st:?}"));
    };
    if body.len() != 6 || !(1..=9).contains(&tf) || !(1..=9).contains(&tr) {
        return Err(format!("cannot read the move {st:?}"));
    }
    let pt = code_type(code).ok_or_else(|| format!("{st:?}: {code:?} is not a piece"))?;
    let to = format!("{tf}{}", (b'a' + tr - 1) as char);
    if (ff, fr) == (0, 0) {
        if !pt.is_hand_piece() {
            return Err(format!("{st:?}: a {code} cannot be dropped"));
        }
        return Ok(format!(
            "{}*{to}",
            piece_sfen(Piece::from_parts(Color::BLACK, pt))
        ));
    }
    if !(1..=9).contains(&ff) || !(1..=9).contains(&fr) {
        return Err(format!("cannot read the move {st:?}"));
    }
    let on = pos.piece_on(square(ff, fr));
    if on.is_empty() || on.color() != us {
        return Err(format!("{st:?}: no piece of the mover's on {ff}{fr}"));
    }
    let promote = if on.piece_type() == pt {
        false
    } else if on.piece_type().is_promotable() && on.piece_type().promote() == pt {
        true
    } else {
        return Err(format!(
            "{st:?}: the piece on {ff}{fr} is a {}, not a {code}",
            type_code(on.piece_type())
        ));
    };
    Ok(format!(
        "{ff}{}{to}{}",
        (b'a' + fr - 1) as char,
        if promote { "+" } else { "" }
    ))
}

/// Writes a record as CSA V2.2.
///
/// # Panics
/// When a move of the record is not legal (records read by this crate are
/// checked).
#[must_use]
pub fn write_csa(record: &ShogiRecord) -> String {
    let (mut pos, n) = parse_sfen(&record.initial_sfen).expect("a record's start is legal");
    let mut out = String::from("V2.2\n");
    if let Some(b) = &record.black {
        let _ = writeln!(out, "N+{b}");
    }
    if let Some(w) = &record.white {
        let _ = writeln!(out, "N-{w}");
    }
    for (k, v) in &record.headers {
        if let Some(k) = csa_key(k) {
            let _ = writeln!(out, "${k}:{v}");
        }
    }
    if crate::handicap::is_even_start(&write_sfen(&pos, n)) {
        out.push_str("PI\n");
    } else {
        out.push_str(&position_lines(&pos));
    }
    out.push_str(if pos.turn() == Color::BLACK { "+\n" } else { "-\n" });
    for rm in &record.moves {
        let m = parse_usi(&pos, &rm.usi).expect("a record's moves are legal");
        let sign = if pos.turn() == Color::BLACK { '+' } else { '-' };
        let (tf, tr) = file_rank(m.to_sq());
        let (from, pt) = match m.dropped_piece() {
            Some(pt) => ("00".to_string(), pt),
            None => {
                let (ff, fr) = file_rank(m.from_sq());
                let pt = pos.piece_on(m.from_sq()).piece_type();
                (
                    format!("{ff}{fr}"),
                    if m.is_promotion() { pt.promote() } else { pt },
                )
            }
        };
        let _ = writeln!(out, "{sign}{from}{tf}{tr}{}", type_code(pt));
        if let Some(s) = rm.seconds {
            let _ = writeln!(out, "T{s}");
        }
        pos.apply_move32(m);
    }
    if let Some(end) = &record.end {
        let word = match end {
            RecordEnd::Other(w) if w.starts_with('%') => w.clone(),
            RecordEnd::Other(_) => "%CHUDAN".to_string(),
            e => ENDINGS
                .iter()
                .find(|(_, x)| x == e)
                .map_or("%CHUDAN", |(w, _)| w)
                .to_string(),
        };
        let _ = writeln!(out, "{word}");
    }
    out
}

/// `P1`–`P9` and the hands (`P+00KA00FU`).
fn position_lines(pos: &Position) -> String {
    let mut out = String::new();
    for rank in 1..=9 {
        let _ = write!(out, "P{rank}");
        for file in (1..=9).rev() {
            let p = pos.piece_on(square(file, rank));
            if p.is_empty() {
                out.push_str(" * ");
            } else {
                out.push(if p.color() == Color::BLACK { '+' } else { '-' });
                out.push_str(type_code(p.piece_type()));
            }
        }
        out.push('\n');
    }
    for (c, sign) in [(Color::BLACK, '+'), (Color::WHITE, '-')] {
        let mut line = String::new();
        for &pt in &HAND_ORDER {
            let n = pos
                .hand(c)
                .count(HandPiece::from_piece_type(pt).expect("a hand piece"));
            for _ in 0..n {
                line.push_str("00");
                line.push_str(type_code(pt));
            }
        }
        if !line.is_empty() {
            let _ = writeln!(out, "P{sign}{line}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Handicap;

    const GAME: &str = "V2.2
N+Sente
N-Gote
$EVENT:test
'a comment
PI
+
+7776FU
T5
-3334FU,T3
+8822UM
-3122GI
+0045KA
%TORYO
";

    #[test]
    fn reads_and_writes_a_game() {
        let r = read_csa(GAME).unwrap();
        assert_eq!(r.black.as_deref(), Some("Sente"));
        assert_eq!(r.headers, [("EVENT".to_string(), "test".to_string())]);
        assert_eq!(r.usi_moves(), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        assert_eq!(
            (r.moves[0].seconds, r.moves[1].seconds, r.moves[2].seconds),
            (Some(5), Some(3), None)
        );
        assert_eq!(r.end, Some(RecordEnd::Resign));
        let w = write_csa(&r);
        assert!(w.contains("+8822UM\n-3122GI\n+0045KA\n%TORYO"), "{w}");
        assert_eq!(read_csa(&w).unwrap(), r);
        // KIF and back through CSA: the same game.
        let k = crate::kif::write_kif(&r);
        assert_eq!(crate::kif::read_kif(&k).unwrap().usi_moves(), r.usi_moves());
    }

    #[test]
    fn handicaps_and_positions() {
        // PI with the giver's rook and bishop removed: 二枚落ち, gote first.
        let r = read_csa("PI82HI22KA\n-\n-7162GI\n").unwrap();
        assert_eq!(r.initial_sfen, Handicap::TwoPieces.sfen());
        assert_eq!(r.usi_moves(), ["7a6b"]);
        // A position written as ranks and hands reads back the same.
        let sfen = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 1";
        let rec = ShogiRecord {
            initial_sfen: sfen.to_string(),
            ..ShogiRecord::default()
        };
        let w = write_csa(&rec);
        assert!(w.contains("P+00GI\nP-00KA00KI00KE00FU00FU00FU\n-\n"), "{w}");
        assert_eq!(read_csa(&w).unwrap().initial_sfen, sfen);
        // 00AL gives the rest to a hand.
        let empty = " *  *  *  *  *  *  *  *  * ";
        let mut text = String::from("P1 *  *  *  * -OU *  *  *  * \n");
        for rank in 2..=8 {
            text.push_str(&format!("P{rank}{empty}\n"));
        }
        text.push_str("P9 *  *  *  * +OU *  *  *  * \nP-00AL\n+\n");
        let r = read_csa(&text).unwrap();
        assert_eq!(r.initial_sfen, "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1");
    }

    #[test]
    fn malformed_records_name_their_line() {
        let bad = |text: &str, line: usize, what: &str| {
            let e = read_csa(text).unwrap_err();
            assert_eq!(e.line, line, "{e}");
            assert!(e.message.contains(what), "{e}");
        };
        bad("PI\n+\n+7776FU\n+3334FU\n", 4, "gote is to move");
        bad("PI\n+\n+7775FU\n", 3, "cannot move");
        bad("PI\n+\n+7776KI\n", 3, "is a FU, not a KI");
        bad("PI\n+\n+77X6FU\n", 3, "cannot read");
        bad("PI\n+\n+7776FU\nhello\n", 4, "not a CSA statement");
        bad("PI\n+\nT5\n", 3, "a time before any move");
        bad(
            "P1 *  *  *  *  * -OU *  *  * \nP9 *  *  *  *  *  *  *  *  * \n+\n",
            1,
            "sente has no king",
        );
        bad("+\n", 1, "before any position");
        bad("PI82HI82HI\n+\n", 1, "not there");
    }
}
