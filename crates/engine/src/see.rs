//! Static exchange evaluation: whether the captures and recaptures on one
//! square, least valuable attacker first, leave the side that starts them at
//! least `threshold` ahead. The search uses it to order captures and to skip
//! losing ones in quiescence, where "victim worth less than attacker and
//! defended" would throw away cannon captures that win because the
//! defender's recapture opens a line (or a cannon screen) for another piece.
//!
//! The attacker sets come from `Position::exchange_attackers`, recomputed
//! after every capture: taking a piece off the board can open a rook's line,
//! free a horse's leg or an elephant's eye, and make or break a cannon's
//! screen. Pins are ignored, as in every exchange evaluator.

use xiangqi::{Bitboard, Color, Move, Position, Role, Square};

/// Exchange values: a pawn that has crossed the river is worth two.
fn value(role: Role, color: Color, on: Square) -> i32 {
    match role {
        Role::King => 10_000,
        Role::Rook => 1000,
        Role::Cannon => 450,
        Role::Horse => 430,
        Role::Advisor | Role::Elephant => 200,
        Role::Pawn if on.on_own_half(color) => 100,
        Role::Pawn => 200,
    }
}

/// Roles from the least to the most valuable, for picking recapturers.
const CHEAPEST_FIRST: [Role; 7] = [
    Role::Pawn,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Cannon,
    Role::Rook,
    Role::King,
];

/// Whether the exchange `m` starts on its target square gains at least
/// `threshold` for the side to move (a quiet move gains nothing but may
/// still lose the moved piece).
#[must_use]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    let victim = pos.piece_at(to).map_or(0, |v| value(v.role, v.color, to));
    // What the mover is ahead by if the exchange stops now, less the
    // threshold; then what it is ahead by if the moved piece is lost too.
    let mut swap = victim - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(mover.role, mover.color, to) - swap;
    if swap <= 0 {
        return true;
    }
    let mut removed = Bitboard::from_square(from);
    let mut side = mover.color;
    // 1 while the mover is ahead of the threshold with the captures so far.
    let mut res = 1;
    loop {
        side = side.other();
        let attackers = pos.exchange_attackers(to, removed);
        let ours = attackers & pos.by_color(side);
        if ours.is_empty() {
            break;
        }
        res ^= 1;
        let Some((role, sq)) = CHEAPEST_FIRST
            .iter()
            .find_map(|&r| (ours & pos.pieces(side, r)).first().map(|sq| (r, sq)))
        else {
            break;
        };
        if role == Role::King {
            // The king may recapture only if nothing can take it back.
            return if (attackers & pos.by_color(side.other())).any() {
                res ^ 1 != 0
            } else {
                res != 0
            };
        }
        swap = value(role, side, to) - swap;
        if swap < res {
            break;
        }
        removed.set(sq);
    }
    res != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fen: &str, iccs: &str, gain: i32) {
        let pos = Position::from_fen(fen).unwrap();
        let m = iccs.parse::<Move>().unwrap();
        assert!(pos.is_legal(m), "{iccs} in {fen}");
        assert!(see_ge(&pos, m, gain), "{iccs} should gain {gain}");
        assert!(!see_ge(&pos, m, gain + 1), "{iccs} should gain only {gain}");
    }

    #[test]
    fn undefended_and_defended_captures() {
        // Rook takes an undefended horse.
        check("3k5/9/9/9/4n4/9/9/4R4/9/5K3 w", "e2e5", 430);
        // Rook takes a horse defended by a pawn.
        check("3k5/9/9/4p4/4n4/9/9/4R4/9/5K3 w", "e2e5", 430 - 1000);
        // Cannon takes an undefended rook over its screen.
        check("3k5/9/9/4r4/9/9/4P4/4C4/9/5K3 w", "e2e6", 1000);
    }

    #[test]
    fn the_second_rook_on_the_file_recaptures() {
        // Rook takes the horse, the black rook takes back, the rook behind
        // takes the black rook: horse won.
        check("3k5/4r4/9/9/4n4/9/9/4R4/4R4/5K3 w", "e2e5", 430);
    }

    #[test]
    fn a_capture_can_make_a_cannon_screen() {
        // Rook takes the horse on e6; the black cannon on e9 takes back over
        // the elephant; the rook gone, the pawn on e3 is now the only piece
        // between the red cannon on e1 and e6, so it takes the cannon:
        // 430 - 1000 + 450.
        check("4ck3/9/4b4/4n4/9/4R4/4P4/9/4C4/3K5 w", "e4e6", 430 - 1000 + 450);
    }
}
