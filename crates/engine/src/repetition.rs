//! Judging a repeated position inside the search (棋例, chapter 6).
//!
//! When a position recurs, the moves of the cycle between the two
//! occurrences decide the result, as the rule book does at the board:
//! - 26.1: a one-sided perpetual check (长将) loses;
//! - 26.4: under the Chinese rules, a side whose every move in the cycle is
//!   forbidden — a check (将) or a chase (捉, 28.3) — while the other side's
//!   are not, loses (长捉, 一将一捉 …);
//! - 26.2/26.3: both sides allowed, or both forbidden, is a draw.
//!
//! The chase test here is the cheap approximation a search can afford (a
//! rook, horse, cannon, advisor or elephant newly attacking an unprotected
//! piece of value, or a piece of higher value; 27.1 and 27.2 exempt the king
//! and the pawn as chasers). The referee crate holds the full ruling for
//! the game itself; this is only the engine's judgement of its own lines.

use xiangqi::{Color, Move, Position, Role};

/// Which repetition rules the engine plays by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// The CXA rules: perpetual check and perpetual chase lose.
    #[default]
    Chinese,
    /// The simple online rule: perpetual check loses, any other repetition
    /// is a draw.
    PerpetualCheck,
}

/// The result of a repetition from the point of view of the side to move at
/// the repeated position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Draw,
    Win,
    Loss,
}

/// What one move of a cycle did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CycleMove {
    /// It gave check (将).
    pub check: bool,
    /// It created a chase (捉); only computed under the Chinese rules.
    pub chase: bool,
}

/// Judges a cycle given the moves of the side to move (`ours`) and of the
/// opponent (`theirs`), each non-empty.
#[must_use]
pub fn judge(rule: RepetitionRule, ours: &[CycleMove], theirs: &[CycleMove]) -> Verdict {
    let all_check = |ms: &[CycleMove]| !ms.is_empty() && ms.iter().all(|m| m.check);
    // 26.1: one-sided perpetual check.
    match (all_check(ours), all_check(theirs)) {
        (true, false) => return Verdict::Loss,
        (false, true) => return Verdict::Win,
        (true, true) => return Verdict::Draw,
        (false, false) => {}
    }
    if rule == RepetitionRule::PerpetualCheck {
        return Verdict::Draw;
    }
    let forbidden = |ms: &[CycleMove]| !ms.is_empty() && ms.iter().all(|m| m.check || m.chase);
    match (forbidden(ours), forbidden(theirs)) {
        (true, false) => Verdict::Loss,
        (false, true) => Verdict::Win,
        _ => Verdict::Draw,
    }
}

/// Material value by 25.3 in horse units: rook 2, horse = cannon 1,
/// advisor = elephant = crossed pawn ½ (as 1 of 2).
fn value(role: Role) -> u8 {
    match role {
        Role::Rook => 4,
        Role::Horse | Role::Cannon => 2,
        Role::Advisor | Role::Elephant | Role::Pawn => 1,
        Role::King => 0,
    }
}

/// Whether `m` (legal in `before`) creates a chase (捉, 28.3): the moved
/// piece newly attacks an enemy piece of value (not the king, not an
/// uncrossed pawn) that is unprotected or worth more than the chaser, and
/// could legally take it next move. The king and pawns never chase (27.1,
/// 27.2).
#[must_use]
pub fn creates_chase(before: &Position, m: Move) -> bool {
    let Some(piece) = before.piece_at(m.from()) else {
        return false;
    };
    if matches!(piece.role, Role::King | Role::Pawn) {
        return false;
    }
    let us = piece.color;
    let them = us.other();
    let old_targets = before.pseudo_targets(m.from(), piece) & before.by_color(them);
    let mut after = before.clone();
    if after.play(m).is_err() {
        return false;
    }
    let new_targets = after.pseudo_targets(m.to(), piece) & after.by_color(them) & !old_targets;
    for t in new_targets {
        let Some(victim) = after.piece_at(t) else {
            continue;
        };
        let valuable = match victim.role {
            Role::King => false,
            Role::Pawn => !t.on_own_half(them),
            _ => true,
        };
        if !valuable {
            continue;
        }
        if value(victim.role) <= value(piece.role) && protected(&after, t, them) {
            continue;
        }
        // The chaser must be able to take it legally (were it its move).
        let undo = after.play_null();
        let legal = !after.is_check() && after.is_legal(Move::new(m.to(), t));
        after.undo_null(undo);
        if legal {
            return true;
        }
    }
    false
}

/// Whether a piece of `owner` on `sq` is defended by another of its pieces
/// (有根子): an attacker of the square other than the king's flying-general
/// line, or the own king next to it inside the palace.
fn protected(pos: &Position, sq: xiangqi::Square, owner: Color) -> bool {
    let kings = pos.by_role(Role::King);
    if (pos.attackers(sq, owner) & !kings).any() {
        return true;
    }
    let k = pos.king(owner);
    let (df, dr) = (
        (i32::from(k.file()) - i32::from(sq.file())).abs(),
        (i32::from(k.rank()) - i32::from(sq.rank())).abs(),
    );
    df + dr == 1 && sq.in_palace(owner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse::<Move>().unwrap()
    }

    const CHECK: CycleMove = CycleMove {
        check: true,
        chase: false,
    };
    const CHASE: CycleMove = CycleMove {
        check: false,
        chase: true,
    };
    const IDLE: CycleMove = CycleMove {
        check: false,
        chase: false,
    };

    #[test]
    fn rule_table() {
        use RepetitionRule::*;
        use Verdict::*;
        assert_eq!(judge(Chinese, &[CHECK, CHECK], &[IDLE, IDLE]), Loss);
        assert_eq!(judge(Chinese, &[IDLE, IDLE], &[CHECK, CHECK]), Win);
        assert_eq!(judge(Chinese, &[CHECK, CHECK], &[CHECK, CHECK]), Draw);
        assert_eq!(judge(Chinese, &[CHECK, CHASE], &[IDLE, IDLE]), Loss);
        assert_eq!(judge(Chinese, &[CHASE, CHASE], &[CHASE, CHASE]), Draw);
        assert_eq!(judge(Chinese, &[IDLE, CHECK], &[IDLE, IDLE]), Draw);
        // Perpetual check against a perpetual chase: the checker must change.
        assert_eq!(judge(Chinese, &[CHASE, CHASE], &[CHECK, CHECK]), Win);
        assert_eq!(judge(PerpetualCheck, &[CHASE, CHASE], &[IDLE, IDLE]), Draw);
        assert_eq!(judge(PerpetualCheck, &[CHECK, CHECK], &[CHASE, IDLE]), Loss);
    }

    #[test]
    fn chase_detection() {
        // The red rook a0-a5 newly attacks the lone black horse on f5.
        let pos = Position::from_fen("3k5/9/9/9/5n3/9/9/9/9/R3K4 w - - 0 1").unwrap();
        assert!(creates_chase(&pos, mv("a0a5")));
        // Moving along the back rank attacks nothing new.
        assert!(!creates_chase(&pos, mv("a0b0")));
        // A horse protected by a rook behind it is not chased by a rook.
        let pos = Position::from_fen("3k5/9/9/9/5n2r/9/9/9/9/R3K4 w - - 0 1").unwrap();
        assert!(!creates_chase(&pos, mv("a0a5")));
        // But a rook attacked by a horse is chased even when protected.
        let pos = Position::from_fen("3k5/9/9/9/9/3r4r/9/9/2N6/4K4 w - - 0 1").unwrap();
        assert!(creates_chase(&pos, mv("c1b3")));
        // The king never chases (27.1), even an unprotected horse.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/3n5/4K4/9 w - - 0 1").unwrap();
        assert!(!creates_chase(&pos, mv("e1e2")));
    }
}
