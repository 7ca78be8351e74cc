//! USI moves (`7g7f`, `8h2b+`, `P*5e`) and the legal move list.
//!
//! Moves reach the game as USI text; a text that is not a USI move at all is
//! a [`GameError::BadMove`], one that is well formed but not legal here is a
//! [`GameError::IllegalMove`] whose reason names the rule it breaks (二歩,
//! 打ち歩詰め, 行き所のない駒, forced promotion, a king left in check).

use crate::sfen::{color_name, dead_ranks, file_rank, relative_rank};
use game::GameError;
use rsshogi::board::{generate_legal_all_move32, Move32List, Position};
use rsshogi::types::{Color, Move, Move32, PieceType, Square};

/// Every legal move, non-promotions included (rsshogi's `LegalAll`).
#[must_use]
pub fn legal_moves(pos: &Position) -> Vec<Move32> {
    let mut list = Move32List::new();
    generate_legal_all_move32(pos, &mut list);
    list.iter().copied().collect()
}

/// The legal moves in USI, sorted.
#[must_use]
pub fn legal_usi_moves(pos: &Position) -> Vec<String> {
    let mut moves: Vec<String> = legal_moves(pos).into_iter().map(usi).collect();
    moves.sort();
    moves
}

/// A move in USI.
#[must_use]
pub fn usi(m: Move32) -> String {
    m.to_usi()
}

/// The English name of a piece type, for messages.
#[must_use]
pub fn piece_name(pt: PieceType) -> &'static str {
    match pt {
        PieceType::PAWN => "pawn",
        PieceType::LANCE => "lance",
        PieceType::KNIGHT => "knight",
        PieceType::SILVER => "silver",
        PieceType::GOLD => "gold",
        PieceType::BISHOP => "bishop",
        PieceType::ROOK => "rook",
        PieceType::KING => "king",
        PieceType::PRO_PAWN => "tokin",
        PieceType::PRO_LANCE => "promoted lance",
        PieceType::PRO_KNIGHT => "promoted knight",
        PieceType::PRO_SILVER => "promoted silver",
        PieceType::HORSE => "horse",
        PieceType::DRAGON => "dragon",
        _ => "piece",
    }
}

/// Reads a USI move and checks it is legal in `pos`.
///
/// # Errors
/// [`GameError::BadMove`] when `text` is not USI, [`GameError::IllegalMove`]
/// with the rule it breaks when it is not legal here.
pub fn parse_usi(pos: &Position, text: &str) -> Result<Move32, GameError> {
    let m = Move::from_usi(text)
        .filter(|m| usi_shape_ok(*m, text))
        .ok_or_else(|| GameError::BadMove {
            text: text.to_string(),
            reason: "not a USI move (7g7f, 8h2b+, P*5e)".to_string(),
        })?;
    let legal = legal_moves(pos);
    if let Some(&found) = legal.iter().find(|l| l.to_move() == m) {
        return Ok(found);
    }
    Err(GameError::IllegalMove {
        text: text.to_string(),
        reason: why_illegal(pos, m, &legal),
    })
}

/// rsshogi reads a few shapes USI does not have (a king drop, say); they
/// are refused as unreadable rather than illegal.
fn usi_shape_ok(m: Move, text: &str) -> bool {
    if m.is_drop() {
        return m.dropped_piece().is_some_and(|p| p.is_hand_piece()) && text.len() == 4;
    }
    m.from_sq().is_on_board() && m.to_sq().is_on_board() && m.from_sq() != m.to_sq()
}

fn sq_name(sq: Square) -> String {
    let (file, rank) = file_rank(sq);
    format!("{file}{}", (b'a' + rank - 1) as char)
}

/// The rule a well-formed move that is not in the legal list breaks.
fn why_illegal(pos: &Position, m: Move, legal: &[Move32]) -> String {
    let us = pos.turn();
    let side = color_name(us);
    let to = m.to_sq();
    if let Some(pt) = m.dropped_piece() {
        let name = piece_name(pt);
        if !pos.hand(us).has(pt) {
            return format!("{side} has no {name} in hand");
        }
        if !pos.piece_on(to).is_empty() {
            return format!(
                "{} is occupied: a piece is dropped on an empty square",
                sq_name(to)
            );
        }
        if relative_rank(us, to) <= dead_ranks(pt) {
            return format!(
                "a {name} dropped on {} could never move (行き所のない駒)",
                sq_name(to)
            );
        }
        if pt == PieceType::PAWN {
            let (file, _) = file_rank(to);
            if pos.has_pawn_on_file(us, to.file()) {
                return format!("{side} already has an unpromoted pawn on file {file} (二歩)");
            }
            if gives_check_from_pawn(pos, us, to) {
                return "a pawn drop may not give checkmate (打ち歩詰め)".to_string();
            }
        }
        return format!("it leaves {side}'s king in check");
    }
    let from = m.from_sq();
    let piece = pos.piece_on(from);
    if piece.is_empty() || piece.color() != us {
        return format!("{side} has no piece on {}", sq_name(from));
    }
    let pt = piece.piece_type();
    let name = piece_name(pt);
    let same_path: Vec<&Move32> = legal
        .iter()
        .filter(|l| !l.is_drop() && l.from_sq() == from && l.to_sq() == to)
        .collect();
    if let Some(other) = same_path.first() {
        return if m.is_promotion() {
            if !pt.is_promotable() {
                format!("a {name} cannot promote")
            } else {
                format!("the {name} neither starts nor ends in the promotion zone: it cannot promote")
            }
        } else if other.is_promotion() {
            format!(
                "a {name} on {} could never move again: it must promote",
                sq_name(to)
            )
        } else {
            "not a legal move".to_string()
        };
    }
    if pos.is_pseudo_legal_move(Move::normal(from, to), true)
        || pos.is_pseudo_legal_move(Move::promotion(from, to), true)
    {
        return format!("it leaves {side}'s king in check");
    }
    format!("the {name} on {} cannot move to {}", sq_name(from), sq_name(to))
}

/// Whether a pawn of `us` on `to` would attack the opponent's king.
fn gives_check_from_pawn(pos: &Position, us: Color, to: Square) -> bool {
    let king = pos.king_square(us.flip());
    let (file, rank) = file_rank(to);
    let (kf, kr) = file_rank(king);
    kf == file
        && if us == Color::BLACK {
            kr + 1 == rank
        } else {
            kr == rank + 1
        }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;

    fn pos(s: &str) -> Position {
        parse_sfen(s).unwrap_or_else(|e| panic!("{s}: {e}")).0
    }

    fn reason(p: &Position, m: &str) -> String {
        match parse_usi(p, m) {
            Err(GameError::IllegalMove { reason, .. }) => reason,
            other => panic!("{m}: expected an illegal move, got {other:?}"),
        }
    }

    #[test]
    fn start_position() {
        let p = pos("startpos");
        let moves = legal_usi_moves(&p);
        assert_eq!(moves.len(), 30);
        assert!(moves.contains(&"7g7f".to_string()));
        assert_eq!(usi(parse_usi(&p, "7g7f").unwrap()), "7g7f");
        for bad in ["", "7g", "7g7g", "7j7f", "K*5e", "P*5", "e2e4"] {
            assert!(
                matches!(parse_usi(&p, bad), Err(GameError::BadMove { .. })),
                "{bad}"
            );
        }
        assert_eq!(reason(&p, "7f7e"), "sente has no piece on 7f");
        assert_eq!(reason(&p, "7g7e"), "the pawn on 7g cannot move to 7e");
        assert_eq!(reason(&p, "P*5e"), "sente has no pawn in hand");
        assert_eq!(
            reason(&p, "7g7f+"),
            "the pawn neither starts nor ends in the promotion zone: it cannot promote"
        );
    }

    #[test]
    fn drops_and_their_limits() {
        // Sente holds a pawn, a lance and a knight; a sente pawn stands on file 5.
        let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1");
        assert_eq!(
            reason(&p, "P*5e"),
            "sente already has an unpromoted pawn on file 5 (二歩)"
        );
        assert_eq!(
            reason(&p, "P*1a"),
            "a pawn dropped on 1a could never move (行き所のない駒)"
        );
        assert_eq!(
            reason(&p, "L*1a"),
            "a lance dropped on 1a could never move (行き所のない駒)"
        );
        assert_eq!(
            reason(&p, "N*1b"),
            "a knight dropped on 1b could never move (行き所のない駒)"
        );
        assert_eq!(
            reason(&p, "P*5g"),
            "5g is occupied: a piece is dropped on an empty square"
        );
        parse_usi(&p, "N*1c").unwrap();
        parse_usi(&p, "P*1b").unwrap();
        parse_usi(&p, "L*1b").unwrap();
        // Gote's dead ranks are at the bottom.
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 w pln 1");
        assert_eq!(
            reason(&p, "P*1i"),
            "a pawn dropped on 1i could never move (行き所のない駒)"
        );
        assert_eq!(
            reason(&p, "N*1h"),
            "a knight dropped on 1h could never move (行き所のない駒)"
        );
        parse_usi(&p, "N*1g").unwrap();
    }

    #[test]
    fn pawn_drop_mate_is_illegal_even_when_the_defender_is_pinned() {
        // Gote's king on 1a, its knight on 2a; sente's gold on 2c guards 1b
        // and 2b. P*1b would be mate: illegal (打ち歩詰め).
        let p2 = pos("7nk/9/7G1/9/9/9/9/9/K8 b P 1");
        assert_eq!(
            reason(&p2, "P*1b"),
            "a pawn drop may not give checkmate (打ち歩詰め)"
        );
        // A silver on 2a instead of the knight takes the pawn: legal.
        let p3 = pos("7sk/9/7G1/9/9/9/9/9/K8 b P 1");
        parse_usi(&p3, "P*1b").unwrap();
        let p4 = pos("7gk/9/7G1/9/9/9/9/9/K8 b P 1");
        parse_usi(&p4, "P*1b").unwrap();
        // The same gold, pinned by sente's rook on 9a: it may not take, so the
        // drop is mate again and illegal.
        let p5 = pos("R6gk/9/7G1/9/9/9/9/9/K8 b P 1");
        assert_eq!(
            reason(&p5, "P*1b"),
            "a pawn drop may not give checkmate (打ち歩詰め)"
        );
        // A pawn moved (not dropped) to give mate is fine.
        let p6 = pos("7nk/9/7GP/9/9/9/9/9/K8 b - 1");
        parse_usi(&p6, "1c1b").unwrap();
    }

    #[test]
    fn promotion_choice_and_forced_promotion() {
        // A sente pawn on 1d: into the zone it may promote or not.
        let p = pos("4k4/9/9/8P/9/9/9/9/4K4 b - 1");
        parse_usi(&p, "1d1c").unwrap();
        parse_usi(&p, "1d1c+").unwrap();
        // On 1b it must promote to go to 1a.
        let p = pos("4k4/8P/9/9/9/9/9/9/4K4 b - 1");
        parse_usi(&p, "1b1a+").unwrap();
        assert_eq!(
            reason(&p, "1b1a"),
            "a pawn on 1a could never move again: it must promote"
        );
        // A knight to the last two ranks must promote.
        let p = pos("4k4/9/9/8N/9/9/9/9/4K4 b - 1");
        assert_eq!(
            reason(&p, "1d2b"),
            "a knight on 2b could never move again: it must promote"
        );
        parse_usi(&p, "1d2b+").unwrap();
        // Moving out of the zone still lets a piece promote; a gold never can.
        let p = pos("4k4/9/7S1/9/9/9/9/9/G3K4 b - 1");
        parse_usi(&p, "2c3d+").unwrap();
        parse_usi(&p, "2c3d").unwrap();
        assert_eq!(reason(&p, "9i9h+"), "a gold cannot promote");
    }

    #[test]
    fn pinned_piece_and_king_in_check() {
        // Sente's gold on 5h is pinned by gote's rook on 5a.
        let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4 b - 1");
        assert_eq!(reason(&p, "5h4h"), "it leaves sente's king in check");
        parse_usi(&p, "5h5g").unwrap();
    }
}
