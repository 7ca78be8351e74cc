//! The chase (捉) under the Asian (AXF) rules, as Fairy-Stockfish rules it.
//!
//! The AXF cases are Fairy-Stockfish's own tests, so the chase is read the
//! way that program reads it (its `Position::chased`), in our terms:
//! after a move, an opponent piece is chased when
//! - the moved piece, or a piece whose line, leg or eye the move opened, or
//!   a cannon the move gave a new screen, now attacks it (for a rook or
//!   cannon moving along a line, only attacks off that line are new);
//! - and the attack wins it: the victim is worth more than the attacker (a
//!   rook attacked by a horse or cannon; a rook, horse or cannon by an
//!   advisor or elephant), or nothing but pinned pieces guards it once the
//!   attacker has left its square (the king guards, unless taking back
//!   would face the other king);
//! - pieces of the attacker's own kind that could take it back are offered
//!   an exchange, not chased (a lame horse facing a free one still chases;
//!   so does an attack on a pinned piece);
//! - the king, and uncrossed pawns, are never chased; kings and pawns do not
//!   chase.
//!
//! Two indirect threats count too: pinning a piece that guarded another
//! (the guarded piece, if attacked, is chased: its root is false now), and
//! standing in front of one's own rook or cannon on the opponent's king (a
//! discovered check lets that piece take whatever it attacks — uncrossed
//! pawns included — the king's neighbours only where the king could not
//! take back).

use crate::classify::guards;
use xiangqi::{Bitboard, Color, Move, Position, Role, Square};

/// The opponent pieces (where they stand in `after`) chased by `mv`, played
/// from `before` into `after`.
#[must_use]
pub fn chased(before: &Position, mv: Move, after: &Position) -> Vec<Square> {
    let us = before.turn();
    let them = us.other();
    let from = mv.from();
    let to = mv.to();
    let Some(moved) = after.piece_at(to) else {
        return Vec::new();
    };
    let occ = after.occupied().0;
    let pins = blockers(after, them) & after.by_color(them).0;
    let mut chased = 0u128;
    let add = |attacker: Square, role: Role, attacks: u128, chased: &mut u128| {
        let attacks = attacks & !*chased & victims(after, them);
        if attacks == 0 {
            return;
        }
        let mut attacks = attacks;
        // Stronger victims are chased whatever guards them.
        let stronger: &[Role] = match role {
            Role::Horse | Role::Cannon => &[Role::Rook],
            Role::Elephant | Role::Advisor => &[Role::Rook, Role::Cannon, Role::Horse],
            _ => &[],
        };
        for t in Bitboard(attacks) {
            if after.piece_at(t).is_some_and(|p| stronger.contains(&p.role)) {
                *chased |= bit(t);
            }
        }
        // Pieces of the attacker's kind that could take back are offered
        // an exchange.
        for t in Bitboard(attacks) {
            let Some(victim) = after.piece_at(t) else { continue };
            if victim.role != role {
                continue;
            }
            // A horse with all four diagonal neighbours free is attacked
            // back by any horse it attacks; a lame one only by some.
            let lame = Square::all().any(|d| diagonal_neighbour(d, attacker) && occ & bit(d) != 0);
            let mutual = if role == Role::Horse && lame {
                attacks_with(after, t, attacker, occ)
            } else {
                pins & bit(t) == 0
            };
            if mutual {
                attacks &= !bit(t);
            }
        }
        for t in Bitboard(attacks) {
            let without = occ & !bit(attacker);
            let roots = attackers_to(after, t, them, without) & !pins;
            let king_only = roots == bit(after.king(them)) && {
                // The king taking back would face ours.
                let k = after.king(us);
                k.file() == t.file() && {
                    let between = xiangqi::between(k, t).0 & without;
                    between == 0
                }
            };
            if roots == 0 || king_only {
                *chased |= bit(t);
            }
        }
    };
    // Direct attacks of the moved piece.
    if !matches!(moved.role, Role::King | Role::Pawn) {
        let mut direct = attacks_of(after, to, occ) & after.by_color(them).0;
        if matches!(moved.role, Role::Rook | Role::Cannon) {
            direct &= !line_through(from, to);
        }
        add(to, moved.role, direct, &mut chased);
    }
    // Attacks the move discovered: a horse's leg or an elephant's eye on
    // `from`, a rook or cannon line through `from`, a cannon's new screen
    // on `to`.
    let before_occ = if before.piece_at(to).is_some() {
        occ | bit(from)
    } else {
        (occ & !bit(to)) | bit(from)
    };
    for s in after.by_color(us) {
        // The moved rook or cannon itself is a candidate too: what it now
        // reaches past the square it left counts as discovered (Fairy-
        // Stockfish's reading, kept for agreement with its rulings).
        let Some(p) = after.piece_at(s) else { continue };
        let candidate = match p.role {
            Role::Horse => orthogonal_neighbour(s, from),
            Role::Elephant => diagonal_neighbour(s, from),
            Role::Rook => same_line(s, from),
            Role::Cannon => same_line(s, from) || same_line(s, to),
            _ => false,
        };
        if !candidate {
            continue;
        }
        let now = attacks_of(after, s, occ) & after.by_color(them).0;
        let then = attacks_of(after, s, before_occ) & after.by_color(them).0;
        add(s, p.role, now & !then, &mut chased);
    }
    let before_blockers = blockers(before, them);
    let after_blockers = blockers(after, them);
    let new_blockers = after_blockers & !before_blockers;
    // False roots: a piece of theirs newly pinned no longer guards what it
    // guarded; what we attack among that is chased.
    for s in Bitboard(new_blockers & after.by_color(them).0) {
        let guarded = attacks_of(after, s, occ) & victims(after, them);
        for t in Bitboard(guarded) {
            if attackers_to(after, t, us, occ) & !blockers(after, us) != 0 {
                chased |= bit(t);
            }
        }
    }
    // Discovered checks: a piece of ours newly standing in front of our
    // rook or cannon on their king may take what it attacks.
    let their_king = after.king(them);
    let king_reach = king_neighbours(after, their_king);
    for s in Bitboard(new_blockers & after.by_color(us).0) {
        let attacks = attacks_of(after, s, occ) & after.by_color(them).0 & !bit(their_king);
        chased |= attacks & !king_reach;
        for t in Bitboard(attacks & king_reach) {
            let occ2 = occ & !bit(s) & !bit(their_king);
            if attackers_to(after, t, us, occ2) & !bit(s) != 0 {
                chased |= bit(t);
            }
        }
    }
    chased &= !bit(their_king);
    Bitboard(chased).collect()
}

fn bit(sq: Square) -> u128 {
    1u128 << sq.index()
}

/// Pieces that can be chased: all but the king and uncrossed pawns.
fn victims(pos: &Position, side: Color) -> u128 {
    let mut v = pos.by_color(side).0 & !bit(pos.king(side));
    for p in pos.pieces(side, Role::Pawn) {
        if p.on_own_half(side) {
            v &= !bit(p);
        }
    }
    v
}

fn transpose(occ: u128) -> u128 {
    let mut t = 0u128;
    for s in Bitboard(occ) {
        t |= 1u128 << (usize::from(s.file()) * 10 + usize::from(s.rank()));
    }
    t
}

/// Pieces of `by` attacking `sq` with the occupancy `occ` (pieces not in
/// `occ` do not attack): sliders, cannons, horses, pawns as the board has
/// them; advisors and elephants by their steps; the king only by a step.
fn attackers_to(pos: &Position, sq: Square, by: Color, occ: u128) -> u128 {
    let mut a = pos.attackers_with(sq, by, occ, transpose(occ)).0;
    let king = pos.king(by);
    // Kings count along files in `attackers_with` (facing kings); as a
    // guard the king only steps.
    a &= !bit(king);
    let g = guards(pos, sq, by).0 & occ;
    let steppers = pos.pieces(by, Role::Advisor).0 | pos.pieces(by, Role::Elephant).0 | bit(king);
    a |= g & steppers;
    // Elephant eyes under the given occupancy.
    for e in pos.pieces(by, Role::Elephant) {
        if a & bit(e) != 0 {
            let eye = Square::new((e.file() + sq.file()) / 2, (e.rank() + sq.rank()) / 2);
            if occ & bit(eye) != 0 {
                a &= !bit(e);
            }
        }
    }
    a
}

/// The squares the piece on `s` attacks with the occupancy `occ`.
fn attacks_of(pos: &Position, s: Square, occ: u128) -> u128 {
    let Some(p) = pos.piece_at(s) else { return 0 };
    let mut out = 0u128;
    for t in Bitboard(pos.occupied().0 & !bit(s)) {
        if attackers_to(pos, t, p.color, occ | bit(s)) & bit(s) != 0 {
            out |= bit(t);
        }
    }
    out
}

/// Whether the piece on `s` attacks `target` with the occupancy `occ`.
fn attacks_with(pos: &Position, s: Square, target: Square, occ: u128) -> bool {
    let Some(p) = pos.piece_at(s) else { return false };
    attackers_to(pos, target, p.color, occ) & bit(s) != 0
}

/// Pieces (of either side) standing alone between `side`'s king and an
/// attack on it: lifted off the board, the king would stand attacked.
fn blockers(pos: &Position, side: Color) -> u128 {
    let king = pos.king(side);
    let occ = pos.occupied().0;
    let mut out = 0u128;
    for s in Bitboard(occ & !bit(king)) {
        let lifted = occ & !bit(s);
        if pos
            .attackers_with(king, side.other(), lifted, transpose(lifted))
            .any()
        {
            out |= bit(s);
        }
    }
    out
}

fn line_through(a: Square, b: Square) -> u128 {
    let mut out = 0u128;
    for s in Square::all() {
        if (a.rank() == b.rank() && s.rank() == a.rank()) || (a.file() == b.file() && s.file() == a.file()) {
            out |= bit(s);
        }
    }
    out
}

fn same_line(a: Square, b: Square) -> bool {
    a != b && (a.rank() == b.rank() || a.file() == b.file())
}

fn orthogonal_neighbour(a: Square, b: Square) -> bool {
    let (df, dr) = (
        (i32::from(a.file()) - i32::from(b.file())).abs(),
        (i32::from(a.rank()) - i32::from(b.rank())).abs(),
    );
    df + dr == 1
}

fn diagonal_neighbour(a: Square, b: Square) -> bool {
    let (df, dr) = (
        (i32::from(a.file()) - i32::from(b.file())).abs(),
        (i32::from(a.rank()) - i32::from(b.rank())).abs(),
    );
    df == 1 && dr == 1
}

/// The squares next to the king inside its palace (where it could take).
fn king_neighbours(pos: &Position, king: Square) -> u128 {
    let color = pos.piece_at(king).map_or(Color::Red, |p| p.color);
    let mut out = 0u128;
    for s in Square::all() {
        if orthogonal_neighbour(s, king) && s.in_palace(color) {
            out |= bit(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_iccs;

    #[test]
    fn discovered_check_threat_chases() {
        // Fairy-Stockfish's "discovered check capture threat by rook": the
        // black rook steps in front of its cannon on the red king; moving it
        // would check, so whatever it attacks (the horse on c2) is chased.
        let mut before = Position::from_fen("5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w").unwrap();
        before.play(parse_iccs("b4c2").unwrap()).unwrap();
        let mv = parse_iccs("b0c0").unwrap();
        let mut after = before.clone();
        after.play(mv).unwrap();
        assert!(chased(&before, mv, &after).contains(&Square::from_iccs("c2").unwrap()));
    }

    #[test]
    fn direct_chase_by_cannon() {
        // Fairy-Stockfish's first xiangqi chasing test: the cannon steps to
        // a2 and attacks the unprotected rook on a7 over the pawn on a5.
        let before =
            Position::from_fen("2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w").unwrap();
        let mv = parse_iccs("c2a2").unwrap();
        let mut after = before.clone();
        after.play(mv).unwrap();
        assert_eq!(
            chased(&before, mv, &after),
            vec![Square::from_iccs("a7").unwrap()]
        );
    }
}
