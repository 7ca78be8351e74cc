//! The chase (捉) as the WXF rules judge it in a repeated cycle.
//!
//! Under the WXF rules a move chases a piece when it leaves the piece
//! threatened and the opponent has to do something about it: a chase is
//! judged together with the reply. After each quiet move the mover's
//! threats are listed; those the opponent's reply removes (the piece steps
//! away, is protected, the line is blocked) were chased. A threat the
//! opponent ignores was no chase (WXF diagrams 39–41: the rook pinned by the
//! horse "attacks" it, but the opponent need not care), and a threat it
//! answers is one even where it stood before the move.
//!
//! A threat is a legal capture by a rook, horse, cannon, advisor or
//! elephant (the king and the pawns may chase: diagrams 67–70) of a piece
//! that is not an uncrossed pawn, where the victim is worth more than the
//! capturer or the opponent cannot take back; a capture of a piece of the
//! same kind that could take the capturer back is an offer to exchange, not
//! a threat (rook facing rook; a lame horse facing a free one still
//! threatens).

use crate::classify::value;
use xiangqi::{Move, Position, Role, Square};

/// One threat: the capturer's and the victim's squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threat {
    pub from: Square,
    pub to: Square,
}

/// The threats of the side that just moved into `after` (the opponent is to
/// move there); `moved` is where the moved piece stands.
///
/// A piece pinned to its own king (lifted, the king would stand attacked —
/// by a horse whose leg it blocks, too) threatens nothing: it is tied to
/// its king (diagrams 39–41: the rook pinned by the horse does not chase
/// it). The piece that just moved is the exception: stepping into the pin
/// to attack the pinning piece is the move's own threat (diagrams 37 and
/// 50: the rook blocks the check and attacks the checking piece).
#[must_use]
pub fn threats(after: &Position, moved: Square) -> Vec<Threat> {
    if after.is_check() {
        return Vec::new();
    }
    let mut p = after.clone();
    p.play_null();
    let mut out = Vec::new();
    for m in p.legal_moves() {
        if m.from() != moved && crate::classify::pinned(&p, m.from()) {
            continue;
        }
        if is_threat(&mut p, m, after) {
            out.push(Threat {
                from: m.from(),
                to: m.to(),
            });
        }
    }
    out
}

/// The pieces chased by the move that led to `after` (the moved piece now
/// on `moved`): the victims of its threats that `reply` (the opponent's
/// next move, legal in `after`) took out of danger. Named where they stood
/// after the move.
#[must_use]
pub fn chased(after: &Position, moved: Square, reply: Move) -> Vec<Square> {
    let list = threats(after, moved);
    if list.is_empty() {
        return Vec::new();
    }
    let mut next = after.clone();
    if !next.is_legal(reply) {
        return Vec::new();
    }
    next.play_unchecked(reply);
    let mut out: Vec<Square> = Vec::new();
    for t in list {
        // A victim that stepped away is followed to its new square.
        let to = if reply.from() == t.to { reply.to() } else { t.to };
        let m = Move::new(t.from, to);
        let still = next.piece_at(t.from).is_some_and(|p| p.color == next.turn())
            && next.piece_at(to).is_some_and(|p| p.color != next.turn())
            && next.is_legal(m)
            && unprotected(&mut next, m);
        if !still && !out.contains(&t.to) {
            out.push(t.to);
        }
    }
    out
}

/// Whether the capture `m` (legal for the side to move in `p`) is a threat.
/// `after` is the same position with the opponent to move.
fn is_threat(p: &mut Position, m: Move, after: &Position) -> bool {
    let (Some(attacker), Some(victim)) = (p.piece_at(m.from()), p.piece_at(m.to())) else {
        return false;
    };
    if matches!(attacker.role, Role::King | Role::Pawn) || victim.role == Role::King {
        return false;
    }
    if victim.role == Role::Pawn && value(victim, m.to()) == 0 {
        return false;
    }
    // An offer to exchange: the victim, of the same kind, could take the
    // capturer back.
    if victim.role == attacker.role && after.is_legal(Move::new(m.to(), m.from())) {
        return false;
    }
    unprotected(p, m)
}

/// Whether the capture `m` (legal for the side to move) wins the victim:
/// it is worth more than the capturer, or nothing takes back. Protection
/// is judged on the board as it stands: a piece that could take back only
/// through the square the capturer leaves (a cannon finding its screen, a
/// rook its line, a horse its leg there) does not protect. So the red
/// cannon of diagram 61 does not guard the cannon the black rook attacks
/// (it would take back only over the rook's vacated square), and in the
/// mutual chase of the two rooks and two cannons (the rule book's further
/// illustrations) an advisor step does not make a rook's victim guarded.
fn unprotected(p: &mut Position, m: Move) -> bool {
    let (Some(attacker), Some(victim)) = (p.piece_at(m.from()), p.piece_at(m.to())) else {
        return false;
    };
    if value(victim, m.to()) > value(attacker, m.from()) {
        return true;
    }
    let them = victim.color;
    let u = p.play_unchecked(m);
    // The capturer's square still counts as occupied.
    let occ = p.occupied().0 | (1u128 << m.from().index());
    let mut occ_t = 0u128;
    for s in xiangqi::Bitboard(occ) {
        occ_t |= 1u128 << (usize::from(s.file()) * 10 + usize::from(s.rank()));
    }
    let sliders = p.attackers_with(m.to(), them, occ, occ_t);
    let steppers = crate::classify::guards(p, m.to(), them);
    let retake = p.legal_moves().iter().any(|r| {
        r.to() == m.to() && (sliders.contains(r.from()) || steppers.contains(r.from())) && {
            // A guard counted by `guards` through the vacated square (a
            // rook's line, a cannon's screen) must also pass the test above.
            let role = p.piece_at(r.from()).map(|q| q.role);
            !matches!(role, Some(Role::Rook | Role::Cannon | Role::Horse)) || sliders.contains(r.from())
        }
    });
    p.undo(m, u);
    !retake
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_iccs;

    fn played(fen: &str, line: &[&str]) -> Position {
        let mut p = Position::from_fen(fen).unwrap();
        for m in line {
            p.play(parse_iccs(m).unwrap()).unwrap();
        }
        p
    }

    fn sq(s: &str) -> Square {
        Square::from_iccs(s).unwrap()
    }

    #[test]
    fn stepping_into_a_pin_to_attack_the_pinner_chases() {
        // WXF diagram 37: the rook steps back to b0 between the checking
        // cannon's screen and the king, attacking the cannon; the cannon
        // steps away: a chase.
        let fen = "3ak4/4a4/4b4/p8/2p3n2/9/P1P3r2/3AB4/c3N3N/1RB1KA3 w";
        let after = played(fen, &["b0b1", "a1a0", "b1b0"]);
        assert_eq!(
            chased(&after, sq("b0"), parse_iccs("a0a1").unwrap()),
            vec![sq("a0")]
        );
    }

    #[test]
    fn a_pinned_piece_does_not_chase() {
        // WXF diagrams 39–41: black's rook, pinned by the horse whose leg it
        // blocks, "attacks" the horse when the advisor steps away; red may
        // ignore it or not, it is no chase.
        let fen = "2bak4/RC2arN2/4b1n2/2p5p/6p2/2P6/4p1P1c/4B4/4A4/4KAB2 b";
        let after = played(fen, &["e8f9"]);
        assert!(chased(&after, sq("f9"), parse_iccs("b8b9").unwrap()).is_empty());
    }

    #[test]
    fn no_root_through_the_capturers_square() {
        // WXF diagram 61: the black rook on c2 attacks the cannon b2; the red
        // cannon h2 could take back only over the square the rook leaves.
        let fen = "3akabC1/9/4b4/r3p4/p1p6/4P4/P1P5n/NCr1B4/4A4/R2AK1B2 w";
        let after = played(fen, &["h9h2", "i3g2", "e2g4", "g2h4"]);
        // After the horse's step the rook's threat on b2 stands whether or
        // not the elephant returns: it is never answered, so never a chase.
        assert!(!chased(&after, sq("h4"), parse_iccs("g4e2").unwrap()).contains(&sq("b2")));
    }
}
