//! Perft against published counts we did not compute.
//!
//! Standard chess: every position of the chessprogramming.org "Perft
//! Results" page (the initial position, Kiwipete = position 2, positions
//! 3, 4 and its mirror, 5 and 6), with the counts printed there, which also
//! appear in Albert Bertilsson's Sharper tables and many engines' tests.
//! Chess960: positions of the chessprogramming.org "Chess960 Perft Results"
//! page, as python-chess ships them in `examples/perft/chess960.perft`
//! (with their ids there). The depths run by default take a few seconds
//! in a release build; the deeper ones are `#[ignore]`d
//! (`cargo test -p chess --release -- --ignored`).

use chess::{perft, perft_divide, Variant};

struct Case {
    name: &'static str,
    fen: &'static str,
    /// Counts for depth 1, 2, 3, …
    counts: &'static [u64],
}

const STANDARD: &[Case] = &[
    Case {
        name: "initial position",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        counts: &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
    },
    Case {
        name: "position 2 (Kiwipete)",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        counts: &[48, 2_039, 97_862, 4_085_603, 193_690_690],
    },
    Case {
        name: "position 3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        counts: &[14, 191, 2_812, 43_238, 674_624, 11_030_083, 178_633_661],
    },
    Case {
        name: "position 4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        counts: &[6, 264, 9_467, 422_333, 15_833_292, 706_045_033],
    },
    Case {
        name: "position 4, mirrored",
        fen: "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        counts: &[6, 264, 9_467, 422_333, 15_833_292, 706_045_033],
    },
    Case {
        name: "position 5",
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        counts: &[44, 1_486, 62_379, 2_103_487, 89_941_194],
    },
    Case {
        name: "position 6",
        fen: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        counts: &[46, 2_079, 89_890, 3_894_594, 164_075_551],
    },
];

const CHESS960: &[Case] = &[
    Case {
        name: "960 id 0",
        fen: "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        counts: &[21, 528, 12_189, 326_672, 8_146_062, 227_689_589],
    },
    Case {
        name: "960 id 1",
        fen: "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        counts: &[21, 807, 18_002, 667_366, 16_253_601, 590_751_109],
    },
    Case {
        name: "960 id 2",
        fen: "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
        counts: &[20, 479, 10_471, 273_318, 6_417_013, 177_654_692],
    },
    Case {
        name: "960 id 3 (white king off its rank)",
        fen: "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
        counts: &[22, 593, 13_440, 382_958, 9_183_776, 274_103_539],
    },
    Case {
        name: "960 id 14",
        fen: "qn1rkrbb/pp1p1ppp/2p1p3/3n4/4P2P/2NP4/PPP2PP1/Q1NRKRBB w FDfd - 1 9",
        counts: &[24, 585, 14_769, 356_950, 9_482_310, 233_468_620],
    },
    Case {
        name: "960 id 17 (en passant)",
        fen: "bnqnrbkr/1pp2pp1/p7/3pP2p/4P1P1/8/PPPP3P/BNQNRBKR w HEhe d6 0 9",
        counts: &[31, 984, 28_677, 962_591, 29_032_175, 1_008_880_643],
    },
    Case {
        name: "960 id 46 (no castling)",
        fen: "1nqr1rbb/pppkp1pp/1n3p2/3p4/1P6/5P1P/P1PPPKP1/NNQR1RBB w - - 1 9",
        counts: &[24, 623, 15_921, 429_446, 11_594_634, 322_745_925],
    },
    Case {
        name: "960 id 75",
        fen: "nbkr1qbr/1pp1pppp/pn1p4/8/3P2P1/5R2/PPP1PP1P/NBN1KQBR w H - 2 9",
        counts: &[30, 627, 18_669, 423_329, 12_815_016, 312_798_696],
    },
];

/// Checks `cases` at every depth up to `max_leaves` leaves (so a test
/// stays within seconds), or at every depth when `max_leaves` is `None`.
fn check(cases: &[Case], variant: Variant, max_leaves: Option<u64>) -> usize {
    let mut checked = 0;
    for case in cases {
        for (i, &expected) in case.counts.iter().enumerate() {
            if max_leaves.is_some_and(|max| expected > max) {
                break;
            }
            let depth = i as u32 + 1;
            let got = perft(case.fen, variant, depth).unwrap_or_else(|e| panic!("{}: {e}", case.name));
            assert_eq!(got, expected, "{} at depth {depth} ({})", case.name, case.fen);
            checked += 1;
        }
    }
    checked
}

#[test]
fn standard_positions() {
    assert!(check(STANDARD, Variant::Standard, Some(120_000_000)) >= 25);
}

#[test]
fn chess960_positions() {
    assert!(check(CHESS960, Variant::Chess960, Some(40_000_000)) >= 30);
}

#[test]
#[ignore = "minutes: every published depth"]
fn standard_positions_deep() {
    check(STANDARD, Variant::Standard, None);
}

#[test]
#[ignore = "minutes: every published depth"]
fn chess960_positions_deep() {
    check(CHESS960, Variant::Chess960, None);
}

#[test]
fn divide_sums_to_perft() {
    let fen = STANDARD[1].fen;
    let divide = perft_divide(fen, Variant::Standard, 3).unwrap();
    assert_eq!(divide.len(), 48);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 97_862);
    assert!(divide.windows(2).all(|w| w[0].0 < w[1].0), "sorted by move");
    // Kiwipete's castling moves, in standard UCI.
    assert!(divide.iter().any(|(m, _)| m == "e1g1") && divide.iter().any(|(m, _)| m == "e1c1"));
    assert!(perft_divide(fen, Variant::Standard, 0).unwrap().is_empty());
    assert!(perft("not a fen", Variant::Standard, 1).is_err());
}
