//! Move notation: ICCS coordinates, WXF, and the Chinese four-character
//! records (中文纵线记谱).
//!
//! * [`Notation::Iccs`] — `h2e2`: from-square and to-square, files `a`–`i`
//!   from red's left, ranks `0`–`9` from red's back rank. Needs no board.
//! * [`Notation::Wxf`] — `C2=5`, `H8+7`, `C+=5`: piece letter, file, `+`/`-`/`=`,
//!   then a file or a number of steps. We print exactly what Fairy-Stockfish
//!   prints (the differential test in `tests/fsf_diff.rs` holds us to it).
//! * [`Notation::Chinese`] — `炮二平五`, `马８进７`, `前炮退二`, `中兵平四`,
//!   `前七进一`: the four-character form of the CXA rules (中国象棋竞赛规则,
//!   7.5 记录方式 "完整与简写两种": full `炮二平五`, short `炮25`).
//!
//! Writing needs only the position. Reading WXF and Chinese is done the other
//! way round: the text is broken into a description (piece, file, front/rear,
//! direction, target) and matched against every legal move, so anything that
//! names exactly one legal move is accepted, and text that fits two moves is
//! rejected as ambiguous rather than guessed.

mod chinese;
mod iccs;
mod wxf;

pub use chinese::format_short as format_chinese_short;

use crate::{Color, Move, Piece, Position, Role, Square};
use arrayvec::ArrayVec;
use std::fmt;
use std::str::FromStr;

/// A move notation style.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// ICCS coordinates, `h2e2`.
    Iccs,
    /// World Xiangqi Federation notation, `C2=5`.
    Wxf,
    /// Chinese records, `炮二平五` / `马８进７`.
    Chinese,
}

impl Notation {
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Notation {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Notation, NotationError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "zh" => Ok(Notation::Chinese),
            _ => Err(NotationError::UnknownStyle(s.to_owned())),
        }
    }
}

/// Why a move text could not be turned into a legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("empty move text")]
    Empty,
    #[error("unknown notation style {0:?} (expected iccs, wxf or chinese)")]
    UnknownStyle(String),
    /// The text does not have the shape of a move in this notation.
    #[error("cannot read {text:?} as {style}: {detail}")]
    Unreadable {
        text: String,
        style: Notation,
        detail: String,
    },
    /// The text is well formed, but the side to move has no such piece
    /// (e.g. `炮三平五` with no cannon on file three).
    #[error("{text:?}: {color} has no {what}")]
    NoSuchPiece {
        text: String,
        color: Color,
        what: String,
    },
    /// The piece exists but cannot make the move described.
    #[error("{text:?} is not a legal move here: {reason}")]
    Illegal { text: String, reason: String },
    /// The text fits more than one legal move.
    #[error("{text:?} is ambiguous: it fits {}", candidates.join(", "))]
    Ambiguous {
        text: String,
        /// The fitting moves, in ICCS.
        candidates: Vec<String>,
    },
}

/// Writes `m` in the given style. `m` must be legal in `pos`; a move whose
/// from-square does not hold a piece of the side to move is written in ICCS,
/// as the only style that needs no board.
#[must_use]
pub fn format_move(pos: &Position, m: Move, style: Notation) -> String {
    let Some(piece) = pos.piece_at(m.from()).filter(|p| p.color == pos.turn()) else {
        return m.iccs();
    };
    match style {
        Notation::Iccs => iccs::format(m),
        Notation::Wxf => wxf::format(pos, m, piece),
        Notation::Chinese => chinese::format_full(pos, m, piece),
    }
}

/// Reads a move in the given style; only legal moves are returned.
///
/// # Errors
/// Says whether the text is unreadable, names no piece, names an illegal
/// move, or fits several moves.
pub fn parse_move(pos: &Position, text: &str, style: Notation) -> Result<Move, NotationError> {
    if text.trim().is_empty() {
        return Err(NotationError::Empty);
    }
    match style {
        Notation::Iccs => iccs::parse(pos, text),
        Notation::Wxf => wxf::parse(pos, text),
        Notation::Chinese => chinese::parse(pos, text),
    }
}

/// Reads a move in whichever style it is written: ICCS, WXF or Chinese.
///
/// The styles cannot be confused: ICCS is letter-digit-letter-digit, WXF is
/// ASCII with a `+`, `-`, `=` or `.` operator, and Chinese uses CJK
/// characters (its short form `炮25` included).
///
/// # Errors
/// The error of the style the text looks most like.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    if !t.is_ascii() {
        return chinese::parse(pos, t);
    }
    match iccs::parse(pos, t) {
        Err(NotationError::Unreadable { .. }) => {}
        done => return done,
    }
    match wxf::parse(pos, t) {
        Err(NotationError::Unreadable { text, detail, .. }) => Err(NotationError::Unreadable {
            text,
            style: Notation::Wxf,
            detail: format!("{detail} (nor is it ICCS such as h2e2)"),
        }),
        done => done,
    }
}

// ---------------------------------------------------------------------------
// What the styles share: directions, file numbers, pieces stacked on a file,
// and matching a parsed description against the legal moves.

/// The direction word of a move: 进 (towards the opponent), 退 (back), 平
/// (along the rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verb {
    Advance,
    Retreat,
    Traverse,
}

impl Verb {
    pub(crate) fn of(color: Color, from: Square, to: Square) -> Verb {
        let (f, t) = (from.rank(), to.rank());
        if f == t {
            Verb::Traverse
        } else if (t > f) == (color == Color::Red) {
            Verb::Advance
        } else {
            Verb::Retreat
        }
    }
}

/// Which of several like pieces on one file is meant, counted from the
/// front (the end nearer the opponent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// 前, WXF `+`.
    Front,
    /// 中 (the middle one of three).
    Middle,
    /// 后, WXF `-`.
    Rear,
    /// 一二三四五 (Chinese) or a leading digit (WXF): 1 is the front one.
    Nth(u8),
}

impl Slot {
    fn fits(self, index: usize, count: usize) -> bool {
        count >= 2
            && match self {
                Slot::Front => index == 0,
                Slot::Rear => index + 1 == count,
                Slot::Middle => count == 3 && index == 1,
                Slot::Nth(n) => usize::from(n) == index + 1,
            }
    }
}

/// What a WXF or Chinese text says about a move. `None` means "not said".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Description {
    pub role: Option<Role>,
    /// The from-file as the mover counts it (1 on his right).
    pub file: Option<u8>,
    pub slot: Option<Slot>,
    pub verb: Verb,
    /// For 平 the to-file; for 进/退 the number of steps of a straight-moving
    /// piece (车炮兵帅) or the to-file of a diagonal one (马相仕).
    pub target: u8,
}

/// Whether the role moves along files and ranks, so that 进/退 count steps.
pub(crate) const fn moves_straight(role: Role) -> bool {
    matches!(role, Role::King | Role::Rook | Role::Cannon | Role::Pawn)
}

/// The number written after the direction: to-file for 平 and for diagonal
/// pieces, otherwise the number of ranks moved.
pub(crate) fn target_number(color: Color, role: Role, from: Square, to: Square) -> u8 {
    if from.rank() == to.rank() || !moves_straight(role) {
        to.file_number(color)
    } else {
        from.rank().abs_diff(to.rank())
    }
}

/// Pieces `piece` on `file` (0 = file a), front to back as `piece.color`
/// sees it.
pub(crate) fn file_stack(pos: &Position, piece: Piece, file: u8) -> ArrayVec<Square, 10> {
    let mut out = ArrayVec::new();
    for i in 0..10u8 {
        let rank = match piece.color {
            Color::Red => 9 - i,
            Color::Black => i,
        };
        let sq = Square::new(file, rank);
        if pos.piece_at(sq) == Some(piece) {
            out.push(sq);
        }
    }
    out
}

/// How many files hold two or more of `piece`.
pub(crate) fn tandem_files(pos: &Position, piece: Piece) -> usize {
    (0..9u8).filter(|&f| file_stack(pos, piece, f).len() >= 2).count()
}

/// Index (0 = front) of `sq` among the like pieces on its file, and how many
/// there are.
pub(crate) fn slot_of(pos: &Position, piece: Piece, sq: Square) -> (usize, usize) {
    let stack = file_stack(pos, piece, sq.file());
    let index = stack.iter().position(|&s| s == sq).unwrap_or(0);
    (index, stack.len())
}

/// The one legal move that fits `d`, or why there is none or more than one.
pub(crate) fn resolve(pos: &Position, d: &Description, text: &str) -> Result<Move, NotationError> {
    let us = pos.turn();
    let piece_fits = |sq: Square, p: Piece| {
        p.color == us
            && d.role.is_none_or(|r| r == p.role)
            && d.file.is_none_or(|f| sq.file_number(us) == f)
            && d.slot.is_none_or(|s| {
                let (i, n) = slot_of(pos, p, sq);
                s.fits(i, n)
            })
    };
    let mut found: ArrayVec<Move, 128> = ArrayVec::new();
    for m in pos.legal_moves() {
        let Some(p) = pos.piece_at(m.from()) else {
            continue;
        };
        if piece_fits(m.from(), p)
            && Verb::of(us, m.from(), m.to()) == d.verb
            && target_number(us, p.role, m.from(), m.to()) == d.target
        {
            found.push(m);
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => {
            let any_piece = pos.pieces_iter().any(|(sq, p)| piece_fits(sq, p));
            if any_piece {
                Err(NotationError::Illegal {
                    text: text.to_owned(),
                    reason: "no piece so described can make that move".to_owned(),
                })
            } else {
                Err(NotationError::NoSuchPiece {
                    text: text.to_owned(),
                    color: us,
                    what: describe_piece(d),
                })
            }
        }
        _ => Err(NotationError::Ambiguous {
            text: text.to_owned(),
            candidates: found.iter().map(|m| m.iccs()).collect(),
        }),
    }
}

fn describe_piece(d: &Description) -> String {
    let mut s = String::new();
    match d.slot {
        Some(Slot::Front) => s.push_str("front "),
        Some(Slot::Middle) => s.push_str("middle "),
        Some(Slot::Rear) => s.push_str("rear "),
        Some(Slot::Nth(n)) => s.push_str(&format!("number {n} ")),
        None => {}
    }
    s.push_str(d.role.map_or("piece", Role::name));
    if let Some(f) = d.file {
        s.push_str(&format!(" on file {f}"));
    }
    s
}

#[cfg(test)]
mod tests;
