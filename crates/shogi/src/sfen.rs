//! SFEN (the USI protocol's position notation) read with errors in words,
//! and written back.
//!
//! As shakmaty separates what a FEN says from a legal position, reading
//! happens in two steps: the text is parsed into a board, hands, side to move
//! and move number (any malformed field is an error naming the rank, the
//! character or the field), then the setup is checked against the rules — both
//! kings present, no more pieces of a kind than a set holds, no piece on a
//! square it could never leave (行き所のない駒), no two unpromoted pawns of a
//! side on one file (二歩), and the side that has just moved not left in
//! check. Only then is it handed to rsshogi as a [`Position`].

use rsshogi::board::{position_from_position_state, BoardArray, Position, PositionState};
use rsshogi::types::{Color, File, Hand, HandPiece, Piece, PieceType, Rank, Square};

/// The even-game (平手) start position.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// What is wrong with an SFEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    #[error("SFEN is empty")]
    Empty,
    #[error("SFEN has {found} fields; it needs the board, the side to move and the hands (and optionally the move number)")]
    FieldCount { found: usize },
    #[error("SFEN board has {found} ranks, not 9")]
    RankCount { found: usize },
    #[error("SFEN rank {rank} has {files} files, not 9")]
    RankWidth { rank: usize, files: usize },
    #[error("SFEN rank {rank}: {ch:?} is not a piece")]
    BadPiece { rank: usize, ch: char },
    #[error("SFEN rank {rank}: '+' must stand before a piece that can promote")]
    BadPromotion { rank: usize },
    #[error("SFEN side to move is {0:?}, not \"b\" or \"w\"")]
    BadTurn(String),
    #[error("SFEN hands {0:?}: {1}")]
    BadHand(String, &'static str),
    #[error("SFEN move number {0:?} is not a positive number")]
    BadMoveNumber(String),
    #[error("{side} has no king")]
    NoKing { side: &'static str },
    #[error("{side} has more than one king")]
    TooManyKings { side: &'static str },
    #[error("{count} {kind} on the board and in the hands; a set has {max}")]
    TooManyPieces {
        kind: &'static str,
        count: u32,
        max: u32,
    },
    #[error("{piece} on {square} could never move again (行き所のない駒)")]
    DeadPiece { piece: String, square: String },
    #[error("{side} has two unpromoted pawns on file {file} (二歩)")]
    TwoPawns { side: &'static str, file: u8 },
    #[error("{side} is in check but it is not {side}'s turn")]
    OppositeCheck { side: &'static str },
}

/// Sente (black, `b`, moves up the board) or gote (white, `w`).
pub(crate) fn color_name(c: Color) -> &'static str {
    if c == Color::BLACK {
        "sente"
    } else {
        "gote"
    }
}

/// The square on file 1–9 (right to left as sente sees it) and rank 1–9
/// (top to bottom).
#[must_use]
pub fn square(file: u8, rank: u8) -> Square {
    debug_assert!((1..=9).contains(&file) && (1..=9).contains(&rank));
    Square::from_file_rank(File::new(file as i8 - 1), Rank::new(rank as i8 - 1))
}

/// The file (1–9) and rank (1–9) of a square.
#[must_use]
pub fn file_rank(sq: Square) -> (u8, u8) {
    (sq.file().raw() as u8 + 1, sq.rank().raw() as u8 + 1)
}

/// How far a square lies into `c`'s advance: 1 on `c`'s last rank (the
/// opponent's back rank), 9 on its own back rank.
pub(crate) fn relative_rank(c: Color, sq: Square) -> u8 {
    let (_, rank) = file_rank(sq);
    if c == Color::BLACK {
        rank
    } else {
        10 - rank
    }
}

/// SFEN letter of an unpromoted piece type.
fn letter(pt: PieceType) -> char {
    match pt {
        PieceType::PAWN => 'P',
        PieceType::LANCE => 'L',
        PieceType::KNIGHT => 'N',
        PieceType::SILVER => 'S',
        PieceType::GOLD => 'G',
        PieceType::BISHOP => 'B',
        PieceType::ROOK => 'R',
        _ => 'K',
    }
}

fn piece_type_of_letter(ch: char) -> Option<PieceType> {
    Some(match ch.to_ascii_uppercase() {
        'P' => PieceType::PAWN,
        'L' => PieceType::LANCE,
        'N' => PieceType::KNIGHT,
        'S' => PieceType::SILVER,
        'G' => PieceType::GOLD,
        'B' => PieceType::BISHOP,
        'R' => PieceType::ROOK,
        'K' => PieceType::KING,
        _ => return None,
    })
}

/// A piece as SFEN writes it (`P`, `+r`, `k`).
#[must_use]
pub fn piece_sfen(p: Piece) -> String {
    let base = letter(p.piece_type().demote());
    let ch = if p.color() == Color::BLACK {
        base
    } else {
        base.to_ascii_lowercase()
    };
    if p.piece_type().is_promoted() {
        format!("+{ch}")
    } else {
        ch.to_string()
    }
}

/// The number of each kind a set holds.
const SET: [(PieceType, &str, u32); 8] = [
    (PieceType::PAWN, "pawns", 18),
    (PieceType::LANCE, "lances", 4),
    (PieceType::KNIGHT, "knights", 4),
    (PieceType::SILVER, "silvers", 4),
    (PieceType::GOLD, "golds", 4),
    (PieceType::BISHOP, "bishops", 2),
    (PieceType::ROOK, "rooks", 2),
    (PieceType::KING, "kings", 2),
];

/// The ranks (counted from `c`'s far end) where an unpromoted piece of type
/// `pt` could never move again: pawn and lance on the last rank, knight on
/// the last two (JSA rules: 行き所のない駒).
#[must_use]
pub fn dead_ranks(pt: PieceType) -> u8 {
    match pt {
        PieceType::PAWN | PieceType::LANCE => 1,
        PieceType::KNIGHT => 2,
        _ => 0,
    }
}

/// Reads an SFEN (or `startpos`) into a position that obeys the rules.
///
/// The move number is returned beside it (1 when the SFEN leaves it out).
///
/// # Errors
/// [`SfenError`] naming the first thing wrong.
pub fn parse_sfen(text: &str) -> Result<(Position, u32), SfenError> {
    let text = text.trim();
    let text = text.strip_prefix("sfen ").unwrap_or(text).trim();
    let text = if text == "startpos" { STARTPOS } else { text };
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(SfenError::Empty);
    }
    if !(3..=4).contains(&fields.len()) {
        return Err(SfenError::FieldCount { found: fields.len() });
    }
    let board = parse_board(fields[0])?;
    let side_to_move = match fields[1] {
        "b" => Color::BLACK,
        "w" => Color::WHITE,
        other => return Err(SfenError::BadTurn(other.to_string())),
    };
    let hands = parse_hands(fields[2])?;
    let move_number = match fields.get(3) {
        None => 1,
        Some(n) => n
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| SfenError::BadMoveNumber((*n).to_string()))?,
    };
    validate(&board, &hands)?;
    let state = PositionState {
        board,
        hands,
        side_to_move,
        ply: move_number.min(u32::from(u16::MAX)) as _,
    };
    let mut pos = position_from_position_state(&state);
    pos.init_stack();
    let them = side_to_move.flip();
    if pos.is_attacked_by(pos.king_square(them), side_to_move) {
        return Err(SfenError::OppositeCheck {
            side: color_name(them),
        });
    }
    Ok((pos, move_number))
}

fn parse_board(field: &str) -> Result<BoardArray, SfenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount { found: ranks.len() });
    }
    let mut board = BoardArray::empty();
    for (i, row) in ranks.iter().enumerate() {
        let rank = i + 1;
        let mut file = 9_i32;
        let mut promoted = false;
        let mut width = 0_usize;
        for ch in row.chars() {
            if promoted && !ch.is_ascii_alphabetic() {
                return Err(SfenError::BadPromotion { rank });
            }
            if let Some(n) = ch.to_digit(10).filter(|&n| n >= 1) {
                width += n as usize;
                file -= n as i32;
                continue;
            }
            if ch == '+' {
                promoted = true;
                continue;
            }
            let pt = piece_type_of_letter(ch).ok_or(SfenError::BadPiece { rank, ch })?;
            if promoted && !pt.is_promotable() {
                return Err(SfenError::BadPromotion { rank });
            }
            width += 1;
            if file >= 1 {
                let color = if ch.is_ascii_uppercase() {
                    Color::BLACK
                } else {
                    Color::WHITE
                };
                let pt = if promoted { pt.promote() } else { pt };
                board.set(square(file as u8, rank as u8), Piece::from_parts(color, pt));
            }
            file -= 1;
            promoted = false;
        }
        if promoted {
            return Err(SfenError::BadPromotion { rank });
        }
        if width != 9 {
            return Err(SfenError::RankWidth { rank, files: width });
        }
    }
    Ok(board)
}

fn parse_hands(field: &str) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::ZERO; 2];
    if field == "-" {
        return Ok(hands);
    }
    let bad = |why| SfenError::BadHand(field.to_string(), why);
    let mut count: Option<u32> = None;
    for ch in field.chars() {
        if let Some(d) = ch.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 18 {
                return Err(bad("a count is larger than a set holds"));
            }
            count = Some(n);
            continue;
        }
        let pt = piece_type_of_letter(ch).ok_or(bad("a letter is not a piece"))?;
        let hp = HandPiece::from_piece_type(pt).ok_or(bad("a king cannot be in hand"))?;
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(bad("a count of zero"));
        }
        let side = usize::from(ch.is_ascii_lowercase());
        hands[side] = hands[side]
            .checked_add(hp, n)
            .filter(|h| !h.has_overflow())
            .ok_or(bad("more pieces than a set holds"))?;
    }
    if count.is_some() {
        return Err(bad("a count stands without a piece"));
    }
    Ok(hands)
}

fn validate(board: &BoardArray, hands: &[Hand; 2]) -> Result<(), SfenError> {
    for c in [Color::BLACK, Color::WHITE] {
        let kings = board
            .iter()
            .filter(|(_, p)| *p == Piece::from_parts(c, PieceType::KING))
            .count();
        match kings {
            0 => return Err(SfenError::NoKing { side: color_name(c) }),
            1 => {}
            _ => return Err(SfenError::TooManyKings { side: color_name(c) }),
        }
        let mut pawn_files = [false; 9];
        for (sq, p) in board.iter() {
            if p.is_empty() || p.color() != c {
                continue;
            }
            let pt = p.piece_type();
            if relative_rank(c, sq) <= dead_ranks(pt) {
                let (file, rank) = file_rank(sq);
                return Err(SfenError::DeadPiece {
                    piece: piece_sfen(p),
                    square: format!("{file}{}", (b'a' + rank - 1) as char),
                });
            }
            if pt == PieceType::PAWN {
                let (file, _) = file_rank(sq);
                if std::mem::replace(&mut pawn_files[file as usize - 1], true) {
                    return Err(SfenError::TwoPawns {
                        side: color_name(c),
                        file,
                    });
                }
            }
        }
    }
    for &(pt, kind, max) in &SET {
        let on_board = board
            .iter()
            .filter(|(_, p)| !p.is_empty() && p.piece_type().demote() == pt)
            .count() as u32;
        let in_hand = HandPiece::from_piece_type(pt).map_or(0, |hp| hands[0].count(hp) + hands[1].count(hp));
        let count = on_board + in_hand;
        if count > max {
            return Err(SfenError::TooManyPieces { kind, count, max });
        }
    }
    Ok(())
}

/// The SFEN of a position, with `move_number` as its fourth field.
#[must_use]
pub fn write_sfen(pos: &Position, move_number: u32) -> String {
    let mut out = String::with_capacity(96);
    for rank in 1..=9 {
        let mut empty = 0;
        for file in (1..=9).rev() {
            let p = pos.piece_on(square(file, rank));
            if p.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
                empty = 0;
            }
            out.push_str(&piece_sfen(p));
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank < 9 {
            out.push('/');
        }
    }
    out.push_str(if pos.turn() == Color::BLACK { " b " } else { " w " });
    let hands = hands_sfen(pos);
    out.push_str(if hands.is_empty() { "-" } else { &hands });
    out.push(' ');
    out.push_str(&move_number.to_string());
    out
}

/// Hand pieces in SFEN's order: rook, bishop, gold, silver, knight, lance,
/// pawn; sente's (upper case) before gote's.
fn hands_sfen(pos: &Position) -> String {
    let mut out = String::new();
    for c in [Color::BLACK, Color::WHITE] {
        for pt in HAND_ORDER {
            let n = pos
                .hand(c)
                .count(HandPiece::from_piece_type(pt).expect("a hand piece"));
            if n == 0 {
                continue;
            }
            if n > 1 {
                out.push_str(&n.to_string());
            }
            let l = letter(pt);
            out.push(if c == Color::BLACK {
                l
            } else {
                l.to_ascii_lowercase()
            });
        }
    }
    out
}

/// Hand pieces from the most valuable down, the order SFEN, KIF and CSA
/// list them in.
pub(crate) const HAND_ORDER: [PieceType; 7] = [
    PieceType::ROOK,
    PieceType::BISHOP,
    PieceType::GOLD,
    PieceType::SILVER,
    PieceType::KNIGHT,
    PieceType::LANCE,
    PieceType::PAWN,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> String {
        parse_sfen(s).map(|_| ()).unwrap_err().to_string()
    }

    #[test]
    fn round_trips() {
        for s in [
            STARTPOS,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ] {
            let (pos, n) = parse_sfen(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(write_sfen(&pos, n), s);
        }
        let (pos, n) = parse_sfen("startpos").unwrap();
        assert_eq!(write_sfen(&pos, n), STARTPOS);
        let (_, n) = parse_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P").unwrap();
        assert_eq!(n, 1);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert_eq!(err(""), "SFEN is empty");
        assert!(err("9/9 b").contains("2 fields"));
        assert_eq!(err("9/9/9 b - 1"), "SFEN board has 3 ranks, not 9");
        assert_eq!(
            err("4k4/9/55/9/9/9/9/9/4K4 b - 1"),
            "SFEN rank 3 has 10 files, not 9"
        );
        assert_eq!(
            err("4k4/9/9/9/4x4/9/9/9/4K4 b - 1"),
            "SFEN rank 5: 'x' is not a piece"
        );
        assert!(err("4k4/9/9/9/4+G4/9/9/9/4K4 b - 1").contains("'+'"));
        assert!(err("4k4/9/9/9/9/9/9/9/4K4 x - 1").contains("\"x\""));
        assert!(err("4k4/9/9/9/9/9/9/9/4K4 b 19P 1").contains("larger"));
        assert!(err("4k4/9/9/9/9/9/9/9/4K4 b 3K 1").contains("king"));
        assert!(err("4k4/9/9/9/9/9/9/9/4K4 b - 0").contains("move number"));
        assert_eq!(err("9/9/9/9/9/9/9/9/4K4 b - 1"), "gote has no king");
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
            "sente has more than one king"
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/4K4 b 3B 1"),
            "3 bishops on the board and in the hands; a set has 2"
        );
        assert_eq!(
            err("P3k4/9/9/9/9/9/9/9/4K4 b - 1"),
            "P on 9a could never move again (行き所のない駒)"
        );
        assert_eq!(
            err("4k4/9/9/9/9/9/9/n8/4K4 b - 1"),
            "n on 9h could never move again (行き所のない駒)"
        );
        // A promoted knight may stand anywhere.
        parse_sfen("+N3k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
        assert_eq!(
            err("4k4/9/9/P8/9/P8/9/9/4K4 b - 1"),
            "sente has two unpromoted pawns on file 9 (二歩)"
        );
        parse_sfen("4k4/9/9/+P8/9/P8/9/9/4K4 b - 1").unwrap();
        assert_eq!(
            err("4k4/9/9/9/9/9/9/4r4/4K4 w - 1"),
            "sente is in check but it is not sente's turn"
        );
    }
}
