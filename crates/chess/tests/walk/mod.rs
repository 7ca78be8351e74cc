//! An exhaustive walk of the positions a game can reach, with shakmaty's
//! own move generator — independent of this crate's dead-position test
//! ([`chess::locked_pawns_dead`]), which `tests/dead.rs` and
//! `tests/oracle.rs` check against it.

use chess::shakmaty::{Chess, Move, Position, Role};
use std::collections::{HashSet, VecDeque};

/// What an exhaustive walk from `pos` finds: `true` when some reachable
/// position has a pawn move, a capture, or a mated king. `false` proves the
/// position dead (FIDE Laws 5.2.2): material never changes on such a walk,
/// every reachable position is visited and none is mate. (`true` does not
/// prove it alive: something may happen in a dead position.)
pub fn something_happens(pos: &Chess) -> bool {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([pos.clone()]);
    seen.insert(pos.board().clone().to_string() + if pos.turn().is_white() { "w" } else { "b" });
    while let Some(p) = queue.pop_front() {
        let moves = p.legal_moves();
        if moves.is_empty() && p.is_check() {
            return true;
        }
        for m in &moves {
            let changes = m.is_capture() || m.role() == Role::Pawn || matches!(m, Move::EnPassant { .. });
            if changes {
                return true;
            }
            let mut next = p.clone();
            next.play_unchecked(*m);
            let key = next.board().clone().to_string() + if next.turn().is_white() { "w" } else { "b" };
            if seen.insert(key) {
                queue.push_back(next);
            }
        }
    }
    false
}
