//! Move notations: UCI, the coordinate form that travels over the wire
//! and into the database (`e2e4`, `e7e8q`), and SAN, the algebraic
//! notation players read and PGN records (FIDE Laws, Appendix C).
//!
//! Castling is where the variants differ. In standard chess UCI writes the
//! king's two-square step (`e1g1`) and, as lichess does, we also accept the
//! king taking its own rook (`e1h1`). In Chess960 only the king-takes-rook
//! form is accepted (UCI_Chess960), because there the king may start on
//! g1 or next to its rook, and a two-square step would be ambiguous.

use crate::Variant;
use game::GameError;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

/// A move in UCI for `variant` (`e1g1` castles in standard chess, `e1h1`
/// in Chess960).
#[must_use]
pub fn uci(m: Move, variant: Variant) -> String {
    m.to_uci(variant.castling_mode()).to_string()
}

/// The legal moves of `pos` in UCI, sorted.
#[must_use]
pub fn legal_uci_moves(pos: &Chess, variant: Variant) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|&m| uci(m, variant)).collect();
    moves.sort();
    moves
}

/// The SAN of the legal move `m` in `pos`, with `+` or `#`.
#[must_use]
pub fn san(pos: &Chess, m: Move) -> String {
    SanPlus::from_move(pos.clone(), m).to_string()
}

/// Reads a UCI move and checks that it is legal in `pos`.
///
/// # Errors
/// [`GameError::BadMove`] when the text is not UCI, [`GameError::IllegalMove`]
/// when it is, but not a legal move here.
pub fn parse_uci(pos: &Chess, variant: Variant, text: &str) -> Result<Move, GameError> {
    let normalised = text.trim().to_ascii_lowercase();
    let parsed = UciMove::from_ascii(normalised.as_bytes()).map_err(|_| GameError::BadMove {
        text: text.to_string(),
        reason: "expected UCI coordinates such as e2e4, or e7e8q for a promotion".to_string(),
    })?;
    let illegal = |reason: &str| GameError::IllegalMove {
        text: text.to_string(),
        reason: reason.to_string(),
    };
    let m = match parsed {
        UciMove::Normal { .. } => parsed,
        UciMove::Put { .. } => return Err(illegal("pieces are never dropped in chess")),
        UciMove::Null => return Err(illegal("a null move is not a move in chess")),
    }
    .to_move(pos)
    .map_err(|_| illegal("not a legal move in this position"))?;
    if let (Move::Castle { rook, .. }, UciMove::Normal { to, .. }) = (m, parsed) {
        if variant == Variant::Chess960 && to != rook {
            return Err(illegal(
                "in Chess960 castling is written as the king taking its own rook (e.g. e1h1)",
            ));
        }
    }
    Ok(m)
}

/// Reads a move in SAN and finds it among the legal moves of `pos`.
/// Accepts what PGN files contain: a `+`/`#` suffix, annotation marks
/// (`!`, `?`, `!?`), castling written with zeros (`0-0`), and a leading `P`
/// for pawns.
///
/// # Errors
/// [`GameError::BadMove`] when the text is not SAN; [`GameError::IllegalMove`]
/// when no legal move, or more than one, matches it.
pub fn parse_san(pos: &Chess, text: &str) -> Result<Move, GameError> {
    let trimmed = text.trim().trim_end_matches(['!', '?']);
    let cleaned = match trimmed.trim_end_matches(['+', '#']) {
        "0-0" => "O-O",
        "0-0-0" => "O-O-O",
        other => other,
    };
    let san = San::from_ascii(cleaned.as_bytes()).map_err(|_| GameError::BadMove {
        text: text.to_string(),
        reason: "expected SAN such as e4, Nf3, exd5, O-O or e8=Q".to_string(),
    })?;
    if matches!(san, San::Put { .. } | San::Null) {
        return Err(GameError::IllegalMove {
            text: text.to_string(),
            reason: "drops and null moves are not moves in chess".to_string(),
        });
    }
    san.to_move(pos).map_err(|e| GameError::IllegalMove {
        text: text.to_string(),
        reason: match e {
            shakmaty::san::SanError::IllegalSan => "no legal move in this position matches it",
            shakmaty::san::SanError::AmbiguousSan => "more than one legal move matches it",
        }
        .to_string(),
    })
}

/// The UCI of the SAN move `text` in the position `fen` of `variant`.
///
/// # Errors
/// [`GameError::BadPosition`] for a bad FEN, otherwise as [`parse_san`].
pub fn san_to_uci(fen: &str, variant: Variant, text: &str) -> Result<String, GameError> {
    let pos = crate::parse_fen(fen, variant)?;
    parse_san(&pos, text).map(|m| uci(m, variant))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_fen;

    #[test]
    fn castling_forms() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let pos = parse_fen(fen, Variant::Standard).unwrap();
        let short = parse_uci(&pos, Variant::Standard, "e1g1").unwrap();
        assert_eq!(parse_uci(&pos, Variant::Standard, "e1h1").unwrap(), short);
        assert_eq!(uci(short, Variant::Standard), "e1g1");
        assert_eq!(san(&pos, short), "O-O");
        let pos960 = parse_fen(fen, Variant::Chess960).unwrap();
        let short960 = parse_uci(&pos960, Variant::Chess960, "e1h1").unwrap();
        assert_eq!(uci(short960, Variant::Chess960), "e1h1");
        assert!(matches!(
            parse_uci(&pos960, Variant::Chess960, "e1g1"),
            Err(GameError::IllegalMove { .. })
        ));
        assert_eq!(san_to_uci(fen, Variant::Standard, "0-0-0").unwrap(), "e1c1");
        assert_eq!(san_to_uci(fen, Variant::Chess960, "O-O-O+").unwrap(), "e1a1");
    }

    #[test]
    fn san_reading() {
        let start = crate::STANDARD_START_FEN;
        assert_eq!(san_to_uci(start, Variant::Standard, "Nf3!?").unwrap(), "g1f3");
        assert_eq!(san_to_uci(start, Variant::Standard, "Pe4").unwrap(), "e2e4");
        assert!(matches!(
            san_to_uci(start, Variant::Standard, "e5"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(matches!(
            san_to_uci(start, Variant::Standard, "xyz"),
            Err(GameError::BadMove { .. })
        ));
        assert!(matches!(
            san_to_uci(start, Variant::Standard, "N@f3"),
            Err(GameError::IllegalMove { .. })
        ));
        // Two knights can reach d2: the bare SAN is ambiguous.
        let fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert!(matches!(
            san_to_uci(fen, Variant::Standard, "Nd2"),
            Err(GameError::IllegalMove { .. })
        ));
        assert_eq!(san_to_uci(fen, Variant::Standard, "Nbd2").unwrap(), "b1d2");
    }

    #[test]
    fn uci_reading() {
        let pos = Chess::default();
        assert!(matches!(
            parse_uci(&pos, Variant::Standard, "e2"),
            Err(GameError::BadMove { .. })
        ));
        assert!(matches!(
            parse_uci(&pos, Variant::Standard, "0000"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(matches!(
            parse_uci(&pos, Variant::Standard, "e2e5"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(matches!(
            parse_uci(&pos, Variant::Standard, "e2e4q"),
            Err(GameError::IllegalMove { .. })
        ));
        assert_eq!(
            uci(
                parse_uci(&pos, Variant::Standard, " E2E4 ").unwrap(),
                Variant::Standard
            ),
            "e2e4"
        );
        assert_eq!(legal_uci_moves(&pos, Variant::Standard).len(), 20);
    }
}
