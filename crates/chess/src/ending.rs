//! How a chess game ends by the board, and what a player may claim, under
//! the FIDE Laws of Chess (Articles 5 and 9). Each ending carries a
//! machine-readable reason, a sentence for players and the article.
//!
//! Order matters where two hold at once. Checkmate comes first: a mate on
//! the 75th move stands (9.6.2), as does one that repeats a position five
//! times. Stalemate (5.2.1) is named before a dead position (5.2.2) — both
//! draws, but "stalemate" says why nobody can move. The 75-move rule is
//! named before fivefold repetition, as python-chess and lichess do.
//!
//! A dead position (5.2.2) is recognised two ways. By material, with
//! shakmaty's (and lichess's) rule: bare kings, a lone minor piece, bishops
//! all on one colour. And by a locked board of kings and pawns
//! ([`locked_pawns_dead`]): no pawn can ever move or take, and neither king
//! can ever reach a pawn it could take — then nothing but the kings ever
//! moves, no check is ever given, and nobody can be mated. Other dead
//! positions (locked pawns with bishops, say) play on; the players can
//! agree a draw.

use game::{Ending, Outcome, Side};
use shakmaty::attacks::{king_attacks, pawn_attacks};
use shakmaty::{Bitboard, Chess, Color, Position};

fn ending(outcome: Outcome, reason: &str, detail: String, article: &str) -> Ending {
    Ending {
        outcome,
        reason: reason.to_string(),
        detail,
        article: Some(article.to_string()),
    }
}

pub(crate) fn side(color: Color) -> Side {
    color.fold_wb(Side::First, Side::Second)
}

pub(crate) fn color(side: Side) -> Color {
    match side {
        Side::First => Color::White,
        Side::Second => Color::Black,
    }
}

pub(crate) fn name(color: Color) -> &'static str {
    color.fold_wb("White", "Black")
}

/// The ending the board decides in `pos`, whose position has now appeared
/// `repetitions` times in the game.
pub(crate) fn automatic(pos: &Chess, repetitions: u32) -> Option<Ending> {
    let turn = pos.turn();
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            ending(
                Outcome::Win { winner: side(!turn) },
                "checkmate",
                format!(
                    "{} is checkmated: {} wins (FIDE Laws 5.1.1)",
                    name(turn),
                    name(!turn)
                ),
                "5.1.1",
            )
        } else {
            ending(
                Outcome::Draw,
                "stalemate",
                format!(
                    "{} has no legal move and is not in check: stalemate, a draw (FIDE Laws 5.2.1)",
                    name(turn)
                ),
                "5.2.1",
            )
        });
    }
    if pos.is_insufficient_material() {
        return Some(ending(
            Outcome::Draw,
            "insufficient_material",
            "neither side can checkmate by any series of legal moves: a dead position, drawn (FIDE Laws 5.2.2)".to_string(),
            "5.2.2",
        ));
    }
    if locked_pawns_dead(pos) {
        return Some(ending(
            Outcome::Draw,
            "dead_position",
            "the pawns are locked and neither king can reach a pawn it could take: neither side can checkmate by any series of legal moves, a dead position, drawn (FIDE Laws 5.2.2)".to_string(),
            "5.2.2",
        ));
    }
    if pos.halfmoves() >= 150 {
        return Some(ending(
            Outcome::Draw,
            "seventy_five_moves",
            "75 moves by each player without a pawn move or a capture: drawn (FIDE Laws 9.6.2)".to_string(),
            "9.6.2",
        ));
    }
    if repetitions >= 5 {
        return Some(ending(
            Outcome::Draw,
            "fivefold_repetition",
            "the same position has appeared five times: drawn (FIDE Laws 9.6.1)".to_string(),
            "9.6.1",
        ));
    }
    None
}

/// A draw the player to move may claim in a game that goes on: the
/// current position has appeared three times (9.2), or the last 50 moves
/// of each player had no pawn move and no capture (9.3). The Laws also let
/// a player claim with a move that is about to make the position appear a
/// third time (9.2.1.1); here that claim follows the move.
pub(crate) fn claimable(pos: &Chess, repetitions: u32) -> Option<Ending> {
    if repetitions >= 3 {
        return Some(ending(
            Outcome::Draw,
            "threefold_repetition",
            format!(
                "the same position has appeared three times with {} to move: a draw may be claimed (FIDE Laws 9.2)",
                name(pos.turn())
            ),
            "9.2",
        ));
    }
    if pos.halfmoves() >= 100 {
        return Some(ending(
            Outcome::Draw,
            "fifty_moves",
            "50 moves by each player without a pawn move or a capture: a draw may be claimed (FIDE Laws 9.3)"
                .to_string(),
            "9.3",
        ));
    }
    None
}

/// Whether `pos` is dead by a locked pawn wall (FIDE Laws 5.2.2): only
/// kings and pawns are left; every pawn stands head to head with an enemy
/// pawn and attacks none; and neither king can reach, by squares free of
/// pawns and of enemy pawns' attacks, a square next to an enemy pawn that
/// no enemy pawn defends.
///
/// Then no pawn ever moves (each is blocked by a pawn that is itself
/// blocked), no pawn ever takes (only kings move, and a king never steps
/// onto a square a pawn attacks), and no king ever takes a pawn — so the
/// board stays as it is, kings walking in their own regions, and no check
/// is ever given after the present one: nobody can be checkmated. The test
/// ignores the other king, which can only stop a king, never help it: a
/// position it calls dead is dead; some dead positions it leaves to the
/// players. Checked against an exhaustive walk of every reachable position
/// in `tests/dead.rs`.
#[must_use]
pub fn locked_pawns_dead(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    if pawns.is_empty() || board.occupied() != (pawns | board.kings()) {
        return false;
    }
    let pawn_attacks_of = |color: Color| {
        (pawns & board.by_color(color))
            .into_iter()
            .fold(Bitboard::EMPTY, |b, sq| b | pawn_attacks(color, sq))
    };
    for color in Color::ALL {
        let mine = pawns & board.by_color(color);
        let theirs = pawns & board.by_color(!color);
        let head_to_head = mine.into_iter().all(|sq| {
            sq.offset(color.fold_wb(8, -8))
                .is_some_and(|a| theirs.contains(a))
        });
        if !head_to_head || !(pawn_attacks_of(color) & theirs).is_empty() {
            return false;
        }
    }
    for color in Color::ALL {
        let Some(king) = board.king_of(color) else {
            return false;
        };
        let theirs = pawns & board.by_color(!color);
        let guarded = pawn_attacks_of(!color);
        let open = !(pawns | guarded);
        let mut reach = Bitboard::from_square(king);
        loop {
            let next = reach
                .into_iter()
                .fold(reach, |b, sq| b | (king_attacks(sq) & open));
            if next == reach {
                break;
            }
            reach = next;
        }
        let takeable = theirs & !guarded;
        if reach
            .into_iter()
            .any(|sq| !(king_attacks(sq) & takeable).is_empty())
        {
            return false;
        }
    }
    true
}
