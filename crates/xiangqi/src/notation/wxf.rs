//! WXF notation (World Xiangqi Federation): `C2=5`, `H8+7`, `R1-2`.
//!
//! Piece letter, from-file (counted from the mover's right, 1–9), operator
//! (`+` forward, `-` back, `=` along the rank), then the to-file — or, for a
//! piece moving along its file, the number of steps. Advisors and elephants
//! always give the file (`A4+5`, `E3+5`): whether they go forward or back
//! already tells two of them on one file apart.
//!
//! Several like pieces on one file are written as Fairy-Stockfish writes them
//! (`SAN::piece` and `SAN::disambiguation_level` in its `apiutil.h`), which
//! the differential test checks move by move:
//! * two on a file (and no other file with two): `+` for the front one, `-`
//!   for the rear one, in place of the file — `C+=5`, `P-+1` — unless the
//!   other piece could not even stand on the square the same displacement
//!   would take it to, in which case the file is given as usual;
//! * three or more on a file, or two files with two or more each (pawns
//!   only): the letter is replaced by the piece's rank on its file counted
//!   from the front, and the file follows — `15=4` is the front pawn on file
//!   5 moving to file 4.
//!
//! Read: those forms, the marker before the letter (`+C=5`), `.` for `=`,
//! `B`/`N` for elephant/horse, lower case; any text that names exactly one
//! legal move.

use super::{
    file_stack, resolve, tandem_files, target_number, Description, Notation, NotationError, Slot, Verb,
};
use crate::{Move, Piece, Position, Role, Square};

fn digit(n: u8) -> char {
    char::from(b'0' + n)
}

/// Where Fairy-Stockfish lets a piece stand (its `mobilityRegion`): the
/// palace for king and advisors, the own half for elephants, anywhere else.
fn region(piece: Piece, sq: Square) -> bool {
    match piece.role {
        Role::King | Role::Advisor => sq.in_palace(piece.color),
        Role::Elephant => sq.on_own_half(piece.color),
        _ => true,
    }
}

pub(super) fn format(pos: &Position, m: Move, piece: Piece) -> String {
    let us = piece.color;
    let (from, to) = (m.from(), m.to());
    let stack = file_stack(pos, piece, from.file());
    let count = stack.len();
    let index = stack.iter().position(|&s| s == from).unwrap_or(0);
    let multi = tandem_files(pos, piece) >= 2;

    let mut s = String::with_capacity(4);
    if count >= 3 || (count == 2 && multi) {
        s.push(digit(index as u8 + 1));
    } else {
        s.push(piece.role.wxf_char());
    }

    let mut by_rank = false;
    if count == 2 && !multi {
        let other = stack[1 - index];
        let df = i32::from(to.file()) - i32::from(from.file());
        let dr = i32::from(to.rank()) - i32::from(from.rank());
        let other_to = Square::try_new(i32::from(other.file()) + df, i32::from(other.rank()) + dr);
        if other_to.is_some_and(|sq| region(piece, sq)) {
            by_rank = true;
            s.push(if index == 0 { '+' } else { '-' });
        }
    }
    if !by_rank {
        s.push(digit(from.file_number(us)));
    }

    s.push(match Verb::of(us, from, to) {
        Verb::Advance => '+',
        Verb::Retreat => '-',
        Verb::Traverse => '=',
    });
    s.push(digit(target_number(us, piece.role, from, to)));
    s
}

fn role_of(c: char) -> Option<Role> {
    Some(match c {
        'K' | 'G' => Role::King,
        'A' => Role::Advisor,
        'E' | 'B' => Role::Elephant,
        'H' | 'N' => Role::Horse,
        'R' => Role::Rook,
        'C' => Role::Cannon,
        'P' => Role::Pawn,
        _ => return None,
    })
}

fn verb_of(c: char) -> Option<Verb> {
    match c {
        '+' => Some(Verb::Advance),
        '-' => Some(Verb::Retreat),
        '=' | '.' => Some(Verb::Traverse),
        _ => None,
    }
}

fn num_of(c: char) -> Option<u8> {
    c.to_digit(10).filter(|&d| (1..=9).contains(&d)).map(|d| d as u8)
}

/// Reads the text into a description without looking at the board.
fn describe(text: &str) -> Result<Description, &'static str> {
    let chars: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let [a, b, c, d] = chars[..] else {
        return Err("a WXF move has four characters, e.g. C2=5");
    };
    let verb = verb_of(c).ok_or("the third character must be +, - or =")?;
    let target = num_of(d).ok_or("the last character must be a digit 1-9")?;
    let (role, file, slot) = if let Some(role) = role_of(a) {
        match (num_of(b), b) {
            (Some(f), _) => (Some(role), Some(f), None),
            (None, '+') => (Some(role), None, Some(Slot::Front)),
            (None, '-') => (Some(role), None, Some(Slot::Rear)),
            _ => return Err("the piece letter must be followed by a file 1-9, + or -"),
        }
    } else if a == '+' || a == '-' {
        let role = role_of(b).ok_or("a leading + or - must be followed by a piece letter")?;
        let slot = if a == '+' { Slot::Front } else { Slot::Rear };
        (Some(role), None, Some(slot))
    } else if let Some(n) = num_of(a).filter(|&n| n <= 5) {
        let f = num_of(b).ok_or("a leading pawn number must be followed by a file 1-9")?;
        (None, Some(f), Some(Slot::Nth(n)))
    } else {
        return Err("a WXF move starts with a piece letter (K A E H R C P), + or -, or a pawn number");
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
        style: Notation::Wxf,
        detail: detail.to_owned(),
    })?;
    resolve(pos, &d, text)
}
