//! The 960 start positions of Chess960, numbered 0 to 959 by Reinhard
//! Scharnagl's scheme (the numbering FIDE, lichess and engines use; 518
//! is the classical start). White's back rank is built piece by piece
//! from the digits of the number; Black mirrors it (FIDE Laws, Guidelines
//! II.2).

use crate::fen::write_fen;
use shakmaty::{Bitboard, Board, Chess, Color, File, FromSetup, Piece, Rank, Role, Setup, Square};

/// Where the two knights go among the five squares left after the bishops
/// and the queen, for the number's last digit (0..10), in Scharnagl's order.
const KNIGHTS: [[usize; 2]; 10] = [
    [0, 1],
    [0, 2],
    [0, 3],
    [0, 4],
    [1, 2],
    [1, 3],
    [1, 4],
    [2, 3],
    [2, 4],
    [3, 4],
];

/// White's back rank of start position `n`, from the a-file to the h-file.
fn back_rank(n: u32) -> Option<[Role; 8]> {
    if n >= 960 {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let n = n as usize;
    // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    let n = n / 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    let n = n / 4;
    // The queen on one of the six free squares, then the knights on two of
    // the five left.
    let free = |rank: &[Option<Role>; 8]| -> Vec<usize> { (0..8).filter(|&f| rank[f].is_none()).collect() };
    let queen = free(&rank)[n % 6];
    rank[queen] = Some(Role::Queen);
    let knights = KNIGHTS[n / 6];
    let left = free(&rank);
    for k in knights {
        rank[left[k]] = Some(Role::Knight);
    }
    // Rook, king, rook on the last three, so the king stands between them.
    let left = free(&rank);
    for (f, role) in left.into_iter().zip([Role::Rook, Role::King, Role::Rook]) {
        rank[f] = Some(role);
    }
    Some(rank.map(|r| r.expect("every square is filled")))
}

/// The FEN of Chess960 start position `n` (0..=959), castling rights as
/// shakmaty writes them for Chess960 (`KQkq`: the rooks start outermost);
/// `None` for larger numbers. 518 is the classical start.
#[must_use]
pub fn chess960_start_fen(n: u32) -> Option<String> {
    let roles = back_rank(n)?;
    let mut board = Board::empty();
    for (file, role) in File::ALL.into_iter().zip(roles) {
        for (color, rank, pawn_rank) in [
            (Color::White, Rank::First, Rank::Second),
            (Color::Black, Rank::Eighth, Rank::Seventh),
        ] {
            board.set_piece_at(Square::from_coords(file, rank), Piece { color, role });
            board.set_piece_at(
                Square::from_coords(file, pawn_rank),
                Piece {
                    color,
                    role: Role::Pawn,
                },
            );
        }
    }
    let mut setup = Setup::empty();
    setup.castling_rights = board.rooks() & Bitboard::BACKRANKS;
    setup.board = board;
    let pos = Chess::from_setup(setup, shakmaty::CastlingMode::Chess960).ok()?;
    Some(write_fen(&pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_rank(n: u32) -> String {
        let fen = chess960_start_fen(n).unwrap();
        fen.split('/').next().unwrap().to_string()
    }

    #[test]
    fn known_numbers() {
        // Scharnagl's table (as printed on the Chess960 pages of Wikipedia
        // and chessprogramming.org).
        assert_eq!(first_rank(0), "bbqnnrkr");
        assert_eq!(first_rank(1), "bqnbnrkr");
        assert_eq!(first_rank(518), "rnbqkbnr");
        assert_eq!(first_rank(959), "rkrnnqbb");
        assert_eq!(
            chess960_start_fen(518).unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(
            chess960_start_fen(0).unwrap(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
        );
        assert_eq!(chess960_start_fen(960), None);
    }

    #[test]
    fn agrees_with_shakmaty_everywhere() {
        // shakmaty has its own, differently written, Scharnagl decoder.
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let ours = first_rank(n);
            let board = shakmaty::Board::chess960(n).to_string();
            let theirs = board.split('/').next().unwrap();
            assert_eq!(ours, theirs, "start position {n}");
            assert!(seen.insert(ours), "start position {n} repeats an earlier one");
        }
    }
}
