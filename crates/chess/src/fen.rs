//! Reading a FEN into a playable position, with errors that say what is
//! wrong and where ("FEN rank 6 has 9 files", "Black has no king").
//!
//! shakmaty's parser is relaxed and its errors are categories
//! (`InvalidBoard`, `PositionErrorKinds::MISSING_KING`); we check the
//! fields ourselves first so the message can name the field and the text,
//! then let shakmaty decide, and put its position error kinds into words.
//! Missing trailing fields take their defaults (`w - - 0 1`), so EPDs and
//! the short FENs people type are accepted.

use crate::Variant;
use game::GameError;
use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::{Bitboard, CastlingMode, Chess, Color, EnPassantMode, FromSetup, PositionErrorKinds, Setup};

/// The standard start position.
pub const STANDARD_START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Reads `text` (a FEN, or `startpos` for the standard start) as a legal
/// position of `variant`. In Chess960 the castling field may be X-FEN
/// (`KQkq`, with file letters for inner rooks) or Shredder-FEN (`HAha`).
///
/// # Errors
/// [`GameError::BadPosition`] saying which field is wrong and why.
pub fn parse_fen(text: &str, variant: Variant) -> Result<Chess, GameError> {
    let text = text.trim();
    let mode = variant.castling_mode();
    if text == "startpos" {
        return Chess::from_setup(Setup::initial(), mode)
            .map_err(|e| bad(position_error_words(e.kinds(), &Setup::initial(), "KQkq", mode)));
    }
    check_fields(text)?;
    let fen = Fen::from_ascii(text.as_bytes()).map_err(|e| bad(parse_error_words(e, text)))?;
    let setup = fen.into_setup();
    let castling_field = text.split_whitespace().nth(2).unwrap_or("-");
    Chess::from_setup(setup.clone(), mode)
        .map_err(|e| bad(position_error_words(e.kinds(), &setup, castling_field, mode)))
}

/// The FEN of a position as this crate writes it everywhere: en passant
/// square only when the capture is legal (as lichess and python-chess write
/// it), castling in X-FEN.
#[must_use]
pub fn write_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn bad(message: String) -> GameError {
    GameError::BadPosition(message)
}

/// Field-by-field checks that can name the offending text.
fn check_fields(text: &str) -> Result<(), GameError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let Some(board) = fields.first() else {
        return Err(bad("the FEN is empty".to_string()));
    };
    if fields.len() > 6 {
        return Err(bad(format!(
            "the FEN has {} fields; at most 6 expected (board, side to move, castling, en passant, halfmove clock, move number)",
            fields.len()
        )));
    }
    check_board(board)?;
    if let Some(turn) = fields.get(1) {
        if *turn != "w" && *turn != "b" {
            return Err(bad(format!("side to move {turn:?} is neither w nor b")));
        }
    }
    if let Some(castling) = fields.get(2) {
        let ok = *castling == "-"
            || castling
                .chars()
                .all(|c| matches!(c.to_ascii_lowercase(), 'a'..='h' | 'k' | 'q'));
        if !ok {
            return Err(bad(format!(
                "castling field {castling:?} is not - or letters from KQkq (or files A-H, a-h in Shredder-FEN)"
            )));
        }
    }
    if let Some(ep) = fields.get(3) {
        let ok = *ep == "-"
            || (ep.len() == 2
                && matches!(ep.as_bytes()[0], b'a'..=b'h')
                && matches!(ep.as_bytes()[1], b'1'..=b'8'));
        if !ok {
            return Err(bad(format!("en passant field {ep:?} is neither - nor a square")));
        }
    }
    for (i, name) in [(4, "halfmove clock"), (5, "move number")] {
        if let Some(n) = fields.get(i) {
            if n.parse::<u32>().is_err() {
                return Err(bad(format!("{name} {n:?} is not a number")));
            }
        }
    }
    Ok(())
}

/// The board field: eight ranks of eight files, from rank 8 down.
fn check_board(board: &str) -> Result<(), GameError> {
    if board.contains('[') || board.contains('~') {
        return Err(bad(
            "pieces in hand and promoted-piece marks belong to Crazyhouse, not chess".to_string(),
        ));
    }
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(bad(format!(
            "the FEN board has {} ranks, 8 expected",
            ranks.len()
        )));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let number = 8 - i;
        let mut files = 0u32;
        for c in rank.chars() {
            match c {
                '1'..='8' => files += c.to_digit(10).unwrap_or(0),
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => files += 1,
                _ => {
                    return Err(bad(format!(
                        "FEN rank {number} has {c:?}, which is neither a piece letter nor a digit 1-8"
                    )))
                }
            }
        }
        if files != 8 {
            return Err(bad(format!(
                "FEN rank {number} ({rank:?}) has {files} files, 8 expected"
            )));
        }
    }
    Ok(())
}

/// Words for the few parse errors the field checks above let through.
fn parse_error_words(e: ParseFenError, text: &str) -> String {
    let what = match e {
        ParseFenError::InvalidFen => "the FEN does not have the usual fields",
        ParseFenError::InvalidBoard => "the board field is not valid",
        ParseFenError::InvalidPocket => "the pocket field belongs to Crazyhouse, not chess",
        ParseFenError::InvalidTurn => "the side to move is neither w nor b",
        ParseFenError::InvalidCastling => {
            "the castling field names more than two castling rooks for one side"
        }
        ParseFenError::InvalidEpSquare => "the en passant field is not a square",
        ParseFenError::InvalidRemainingChecks => {
            "the remaining-checks field belongs to Three-check, not chess"
        }
        ParseFenError::InvalidHalfmoveClock => "the halfmove clock is not a number",
        ParseFenError::InvalidFullmoves => "the move number is not a number",
    };
    format!("{what} in {text:?}")
}

/// Each reason shakmaty found, in words naming the side or the square.
fn position_error_words(
    kinds: PositionErrorKinds,
    setup: &Setup,
    castling_field: &str,
    mode: CastlingMode,
) -> String {
    let board = &setup.board;
    let mut reasons = Vec::new();
    if kinds.contains(PositionErrorKinds::EMPTY_BOARD) {
        reasons.push("the board is empty".to_string());
    }
    if kinds.intersects(PositionErrorKinds::MISSING_KING | PositionErrorKinds::TOO_MANY_KINGS) {
        for color in Color::ALL {
            match (board.by_color(color) & board.kings()).count() {
                1 => {}
                0 => reasons.push(format!("{} has no king", side_name(color))),
                n => reasons.push(format!("{} has {n} kings", side_name(color))),
            }
        }
    }
    if kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
        let squares: Vec<String> = (board.pawns() & Bitboard::BACKRANKS)
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        reasons.push(format!(
            "pawn on {}: pawns never stand on the first or eighth rank (they promote on arrival, FIDE Laws 3.7.3.3)",
            squares.join(", ")
        ));
    }
    if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
        let rule = if mode.is_standard() {
            "in standard chess the king must stand on e1/e8 and the rook in the a- or h-file corner"
        } else {
            "in Chess960 the king and the rook must stand on their first rank, one rook on each side of the king"
        };
        reasons.push(format!(
            "castling rights {castling_field:?} do not match a king and rook on their home squares ({rule})"
        ));
    }
    if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
        let square = setup
            .ep_square
            .map_or_else(|| "-".to_string(), |sq| sq.to_string());
        reasons.push(format!(
            "en passant square {square} is not behind a pawn of {} that has just made a double step",
            side_name(!setup.turn)
        ));
    }
    if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) {
        reasons.push(format!(
            "{} is in check but it is {} to move",
            side_name(!setup.turn),
            side_name(setup.turn)
        ));
    }
    if kinds.contains(PositionErrorKinds::IMPOSSIBLE_CHECK) {
        reasons.push(format!(
            "the check on {}'s king could not have arisen from a legal move (too many or aligned checkers, or a check that contradicts the en passant square)",
            side_name(setup.turn)
        ));
    }
    if kinds.contains(PositionErrorKinds::TOO_MUCH_MATERIAL) {
        for color in Color::ALL {
            if !is_reachable_material(board, color) {
                reasons.push(format!(
                    "{} has more pieces than a game can produce (more promoted pieces than missing pawns)",
                    side_name(color)
                ));
            }
        }
    }
    if kinds.contains(PositionErrorKinds::VARIANT) {
        reasons.push("a rule of the variant is violated".to_string());
    }
    if reasons.is_empty() {
        reasons.push(format!("illegal position ({kinds:?})"));
    }
    reasons.join("; ")
}

fn side_name(color: Color) -> &'static str {
    color.fold_wb("White", "Black")
}

/// Whether `color`'s pieces could come from the eight pawns and the
/// pieces of the start: every piece beyond the start set (a second queen,
/// a third rook, a second bishop on one colour) costs a pawn.
fn is_reachable_material(board: &shakmaty::Board, color: Color) -> bool {
    let ours = board.by_color(color);
    let count = |bb: Bitboard| (bb & ours).count();
    let extra = count(board.queens()).saturating_sub(1)
        + count(board.rooks()).saturating_sub(2)
        + count(board.knights()).saturating_sub(2)
        + count(board.bishops() & Bitboard::LIGHT_SQUARES).saturating_sub(1)
        + count(board.bishops() & Bitboard::DARK_SQUARES).saturating_sub(1);
    count(board.pawns()) + extra <= 8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(fen: &str, variant: Variant) -> String {
        match parse_fen(fen, variant) {
            Err(GameError::BadPosition(m)) => m,
            other => panic!("{fen}: expected BadPosition, got {other:?}"),
        }
    }

    #[test]
    fn malformed_fens_say_what_is_wrong() {
        let std = Variant::Standard;
        for (fen, expect) in [
            ("", "empty"),
            ("8/8/8 w - - 0 1", "3 ranks"),
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "rank 7",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
                "rank 1",
            ),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "'X'"),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                "side to move",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
                "castling field",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                "en passant field",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                "halfmove clock",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
                "7 fields",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
                "Crazyhouse",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3",
                "halfmove clock \"3+3\"",
            ),
            ("8/8/8/8/8/8/8/8 w - - 0 1", "White has no king"),
            ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "White has 2 kings"),
            ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on a8"),
            (
                "rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "castling rights \"KQkq\"",
            ),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en passant square e6"),
            (
                "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
                "Black is in check but it is White to move",
            ),
            ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "Black has more pieces"),
        ] {
            let message = error(fen, std);
            assert!(
                message.contains(expect),
                "{fen:?}: {message:?} should mention {expect:?}"
            );
        }
        // A standard-chess FEN whose king is not on e1 cannot castle in
        // standard chess, but can in Chess960.
        let fen = "rkr5/8/8/8/8/8/8/RKR5 w KQkq - 0 1";
        assert!(error(fen, std).contains("standard chess"));
        assert!(parse_fen(fen, Variant::Chess960).is_ok());
    }

    #[test]
    fn short_fens_and_startpos() {
        let pos = parse_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            Variant::Standard,
        )
        .unwrap();
        assert_eq!(write_fen(&pos), STANDARD_START_FEN);
        assert_eq!(
            write_fen(&parse_fen("startpos", Variant::Chess960).unwrap()),
            STANDARD_START_FEN
        );
        assert_eq!(
            write_fen(&parse_fen("4k3/8/8/8/8/8/8/4K3", Variant::Standard).unwrap()),
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
        );
    }
}
