//! Chinese records (中文纵线记谱), CXA rules 7.5 (记录方式: 完整与简写两种).
//!
//! Full form, four characters: piece, from-file, direction, target —
//! `炮二平五`, `马８进７`. Files are counted from the mover's right: red
//! writes Chinese numerals (一…九), black full-width digits (１…９), as
//! printed records do. The target is the to-file after 平 and after 进/退 of
//! a diagonal piece (马相仕), else the number of steps (车炮兵帅).
//!
//! Like pieces on one file:
//! * two rooks, horses, cannons or pawns: 前/后 replaces the file — `前炮退二`;
//!   advisors and elephants keep the file, since 进 or 退 already tells which
//!   one moves (xqbase 着法表示规范 四.一);
//! * three pawns on a file: 前/中/后; four or five: 一二三四五 from the front
//!   (`二兵平四`);
//! * when two files each hold two or more pawns, the piece name gives way to
//!   the file: `前七进一`, `后３平４`.
//!
//! Short form (`炮25`, the rules' example of 简写): ASCII digits, `+` for
//! 进, `-` for 退, nothing for 平 — `炮25`, `马8+7`, `前炮-2`.
//!
//! Read: both forms; traditional and variant glyphs (車俥 馬傌 砲包 帥將 仕士
//! 相象 兵卒 進 後); ASCII, full-width or Chinese digits for either side;
//! `+ - = .` for the direction; 前/中/后 or 一…五 before the piece, optionally
//! with the file after it (`前兵三进一`); the glyph's colour is not checked.

use super::{
    resolve, slot_of, tandem_files, target_number, Description, Notation, NotationError, Slot, Verb,
};
use crate::{Color, Move, Piece, Position, Role};

const CHINESE_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_WIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

#[derive(Clone, Copy)]
enum Digits {
    Chinese,
    FullWidth,
    Ascii,
}

fn numeral(n: u8, digits: Digits) -> char {
    let i = usize::from(n.clamp(1, 9) - 1);
    match digits {
        Digits::Chinese => CHINESE_DIGITS[i],
        Digits::FullWidth => FULL_WIDTH_DIGITS[i],
        Digits::Ascii => char::from(b'1' + i as u8),
    }
}

/// 前/中/后 for two or three, 一二三四五 for four or five (front first).
fn slot_word(index: usize, count: usize) -> char {
    match (count, index) {
        (2 | 3, 0) => '前',
        (3, 1) => '中',
        (2 | 3, _) => '后',
        _ => CHINESE_DIGITS[index.min(8)],
    }
}

/// Everything before the direction: the piece and its file, or the
/// front/rear word that replaces one of them.
fn head(pos: &Position, m: Move, piece: Piece, digits: Digits) -> String {
    let from = m.from();
    let glyph = piece.chinese();
    let file = numeral(from.file_number(piece.color), digits);
    let (index, count) = slot_of(pos, piece, from);
    let tandem_role = matches!(piece.role, Role::Rook | Role::Horse | Role::Cannon | Role::Pawn);
    if count < 2 || !tandem_role {
        return format!("{glyph}{file}");
    }
    let word = slot_word(index, count);
    if piece.role == Role::Pawn && tandem_files(pos, piece) >= 2 {
        format!("{word}{file}")
    } else {
        format!("{word}{glyph}")
    }
}

pub(super) fn format_full(pos: &Position, m: Move, piece: Piece) -> String {
    let digits = match piece.color {
        Color::Red => Digits::Chinese,
        Color::Black => Digits::FullWidth,
    };
    let mut s = head(pos, m, piece, digits);
    s.push(match Verb::of(piece.color, m.from(), m.to()) {
        Verb::Advance => '进',
        Verb::Retreat => '退',
        Verb::Traverse => '平',
    });
    s.push(numeral(
        target_number(piece.color, piece.role, m.from(), m.to()),
        digits,
    ));
    s
}

/// The short form of CXA rules 7.5 (`炮25` for 炮二平五, `马8+7` for
/// 马８进７). `m` must be legal in `pos`; otherwise ICCS is returned.
#[must_use]
pub fn format_short(pos: &Position, m: Move) -> String {
    let Some(piece) = pos.piece_at(m.from()).filter(|p| p.color == pos.turn()) else {
        return m.iccs();
    };
    let mut s = head(pos, m, piece, Digits::Ascii);
    match Verb::of(piece.color, m.from(), m.to()) {
        Verb::Advance => s.push('+'),
        Verb::Retreat => s.push('-'),
        Verb::Traverse => {}
    }
    s.push(numeral(
        target_number(piece.color, piece.role, m.from(), m.to()),
        Digits::Ascii,
    ));
    s
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Piece(Role),
    Slot(Slot),
    Num(u8),
    Verb(Verb),
}

fn token(c: char) -> Option<Token> {
    Some(match c {
        '车' | '車' | '俥' | '伡' => Token::Piece(Role::Rook),
        '马' | '馬' | '傌' => Token::Piece(Role::Horse),
        '炮' | '砲' | '包' => Token::Piece(Role::Cannon),
        '相' | '象' => Token::Piece(Role::Elephant),
        '仕' | '士' => Token::Piece(Role::Advisor),
        '帅' | '帥' | '将' | '將' => Token::Piece(Role::King),
        '兵' | '卒' => Token::Piece(Role::Pawn),
        '前' => Token::Slot(Slot::Front),
        '中' => Token::Slot(Slot::Middle),
        '后' | '後' => Token::Slot(Slot::Rear),
        '进' | '進' | '+' | '＋' => Token::Verb(Verb::Advance),
        '退' | '-' | '－' => Token::Verb(Verb::Retreat),
        '平' | '=' | '＝' | '.' | '．' => Token::Verb(Verb::Traverse),
        '1'..='9' => Token::Num(c as u8 - b'0'),
        _ => {
            if let Some(i) = CHINESE_DIGITS.iter().position(|&d| d == c) {
                Token::Num(i as u8 + 1)
            } else if let Some(i) = FULL_WIDTH_DIGITS.iter().position(|&d| d == c) {
                Token::Num(i as u8 + 1)
            } else {
                return None;
            }
        }
    })
}

/// A 一…五 or 前/中/后 in front of the piece.
fn slot_token(t: Token) -> Option<Slot> {
    match t {
        Token::Slot(s) => Some(s),
        Token::Num(n @ 1..=5) => Some(Slot::Nth(n)),
        _ => None,
    }
}

fn describe(text: &str) -> Result<Description, String> {
    let mut tokens = Vec::with_capacity(6);
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        tokens.push(token(c).ok_or_else(|| format!("unexpected character {c:?}"))?);
    }
    let Some((&Token::Num(target), rest)) = tokens.split_last() else {
        return Err("a move ends with a file or a number of steps".to_owned());
    };
    let (verb, head, verb_given) = match rest.split_last() {
        Some((&Token::Verb(v), head)) => (v, head, true),
        // The short form writes 平 as nothing: 炮25.
        _ => (Verb::Traverse, rest, false),
    };
    use Token::{Num, Piece, Slot as S};
    let (role, file, slot) = match *head {
        [Piece(r), Num(f)] => (Some(r), Some(f), None),
        [Piece(r), S(s)] => (Some(r), None, Some(s)),
        [a, Piece(r)] if slot_token(a).is_some() => (Some(r), None, slot_token(a)),
        [S(s), Num(f)] => (Some(Role::Pawn), Some(f), Some(s)),
        [Num(n @ 1..=5), Num(f)] if verb_given => (Some(Role::Pawn), Some(f), Some(Slot::Nth(n))),
        [a, Piece(r), Num(f)] if slot_token(a).is_some() => (Some(r), Some(f), slot_token(a)),
        _ => return Err(
            "expected piece, file, direction and target (炮二平五), or 前/中/后 before the piece (前炮退二)"
                .to_owned(),
        ),
    };
    Ok(Description {
        role,
        file,
        slot,
        verb,
        target,
    })
}

pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let d = describe(text).map_err(|detail| NotationError::Unreadable {
        text: text.to_owned(),
        style: Notation::Chinese,
        detail,
    })?;
    resolve(pos, &d, text)
}
