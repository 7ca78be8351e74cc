//! Perft against published counts: the start position to depth 5
//! (30 / 900 / 25,470 / 719,731 / 19,861,490, non-promotions counted), the
//! "祭り" (matsuri) middlegame of rsshogi's and YaneuraOu's benches, full of
//! drops, promotions and checks, an opening (rsshogi's bench), and the
//! position with the most legal moves known (593, nearly all drops). Every
//! count here was also given by Fairy-Stockfish 11.1's `go perft` (Debian's
//! `fairy-stockfish`) on 2026-12-04.

use shogi::{perft, perft_divide, STARTPOS};

#[test]
fn start_position_to_depth_5() {
    let expected = [1, 30, 900, 25_470, 719_731, 19_861_490];
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(STARTPOS, depth as u32).unwrap(), n, "depth {depth}");
    }
}

#[test]
fn matsuri() {
    let sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    assert_eq!(perft(sfen, 1).unwrap(), 207);
    assert_eq!(perft(sfen, 2).unwrap(), 28_684);
    assert_eq!(perft(sfen, 3).unwrap(), 4_809_015);
}

#[test]
fn most_legal_moves() {
    let sfen = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";
    assert_eq!(perft(sfen, 1).unwrap(), 593);
    assert_eq!(perft(sfen, 2).unwrap(), 105_677);
}

#[test]
fn an_opening() {
    let sfen = "lnsgkgsnl/1r7/p1ppp1bpp/1p3pp2/7P1/2P6/PP1PPPP1P/1B3S1R1/LNSGKG1NL b - 9";
    assert_eq!(perft(sfen, 4).unwrap(), 1_307_221);
}

#[test]
fn divide_adds_up() {
    let rows = perft_divide(STARTPOS, 3).unwrap();
    assert_eq!(rows.len(), 30);
    assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), 25_470);
    assert!(rows.windows(2).all(|w| w[0].0 < w[1].0), "sorted by move");
}
