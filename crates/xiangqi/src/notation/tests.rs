//! Unit tests for the three notations. Expected WXF strings were taken from
//! Fairy-Stockfish (`pyffish.get_san(..., NOTATION_XIANGQI_WXF)`), the oracle
//! the differential test also uses; its ranks are 1–10, so its `e8` is our
//! `e7`.

use super::*;
use crate::{Move, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(s: &str) -> Move {
    s.parse::<Move>().unwrap()
}

/// Checks that `iccs` is written `text` and that `text` reads back as it.
fn both_ways(p: &Position, iccs: &str, style: Notation, text: &str) {
    let m = mv(iccs);
    assert!(p.is_legal(m), "{iccs} is not legal in {}", p.fen());
    assert_eq!(format_move(p, m, style), text, "writing {iccs} in {style}");
    assert_eq!(parse_move(p, text, style), Ok(m), "reading {text:?} as {style}");
    assert_eq!(parse_any(p, text), Ok(m), "reading {text:?} as any");
}

fn reads(p: &Position, text: &str, style: Notation, iccs: &str) {
    assert_eq!(
        parse_move(p, text, style),
        Ok(mv(iccs)),
        "reading {text:?} as {style}"
    );
}

fn ambiguous(p: &Position, text: &str, style: Notation) {
    match parse_move(p, text, style) {
        Err(NotationError::Ambiguous { candidates, .. }) => assert!(candidates.len() >= 2),
        other => panic!("{text:?} should be ambiguous, got {other:?}"),
    }
}

const START: &str = "startpos";
const START_BLACK: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";

// ---------------------------------------------------------------- styles

#[test]
fn style_names() {
    for s in Notation::ALL {
        assert_eq!(s.to_string().parse::<Notation>(), Ok(s));
    }
    assert_eq!("WXF".parse::<Notation>(), Ok(Notation::Wxf));
    assert!(matches!(
        "san".parse::<Notation>(),
        Err(NotationError::UnknownStyle(_))
    ));
}

// ---------------------------------------------------------------- ICCS

#[test]
fn iccs_basics() {
    let p = pos(START);
    both_ways(&p, "h2e2", Notation::Iccs, "h2e2");
    reads(&p, "H2-E2", Notation::Iccs, "h2e2");
    reads(&p, " h2e2 ", Notation::Iccs, "h2e2");
    assert!(matches!(
        parse_move(&p, "a0a5", Notation::Iccs),
        Err(NotationError::Illegal { .. })
    ));
    assert!(matches!(
        parse_move(&p, "h7e7", Notation::Iccs),
        Err(NotationError::Illegal { .. })
    ));
    for bad in ["j2e2", "h2e", "h2h2", "h10e2", "h2—e2", "炮二平五"] {
        assert!(
            matches!(
                parse_move(&p, bad, Notation::Iccs),
                Err(NotationError::Unreadable { .. })
            ),
            "{bad}"
        );
    }
    assert_eq!(parse_move(&p, "  ", Notation::Iccs), Err(NotationError::Empty));
}

// ---------------------------------------------------------------- WXF

#[test]
fn wxf_single_pieces() {
    let p = pos(START);
    for (iccs, wxf) in [
        ("h2e2", "C2=5"),
        ("h0g2", "H2+3"),
        ("g0e2", "E3+5"),
        ("f0e1", "A4+5"),
        ("i0i1", "R1+1"),
        ("c3c4", "P7+1"),
        ("e0e1", "K5+1"),
        ("b2b9", "C8+7"),
    ] {
        both_ways(&p, iccs, Notation::Wxf, wxf);
    }
    let p = pos(START_BLACK);
    for (iccs, wxf) in [
        ("h9g7", "H8+7"),
        ("b9c7", "H2+3"),
        ("a9a8", "R1+1"),
        ("c6c5", "P3+1"),
        ("h7e7", "C8=5"),
        ("g9e7", "E7+5"),
        ("d9e8", "A4+5"),
    ] {
        both_ways(&p, iccs, Notation::Wxf, wxf);
    }
}

#[test]
fn wxf_retreats_and_lenient_reading() {
    // A rook that has advanced retreats with '-' and a step count.
    let p = pos("3k5/9/9/9/9/7R1/9/9/9/4K4 w - - 0 1");
    both_ways(&p, "h4h1", Notation::Wxf, "R2-3");
    both_ways(&p, "h4c4", Notation::Wxf, "R2=7");
    reads(&p, "r2.7", Notation::Wxf, "h4c4");
    reads(&p, "R2 = 7", Notation::Wxf, "h4c4");
    let p = pos(START);
    reads(&p, "N2+3", Notation::Wxf, "h0g2");
    reads(&p, "B3+5", Notation::Wxf, "g0e2");
}

#[test]
fn wxf_tandem_cannons() {
    let p = pos("4k4/9/9/9/C8/9/C8/9/9/3K5 w - - 0 1");
    for (iccs, wxf) in [
        ("a3a0", "C--3"),
        ("a3e3", "C-=5"),
        ("a3a4", "C-+1"),
        ("a5a4", "C+-1"),
        ("a5e5", "C+=5"),
        ("a5a6", "C++1"),
        ("a5a9", "C++4"),
    ] {
        both_ways(&p, iccs, Notation::Wxf, wxf);
    }
    // The marker may also come before the letter.
    reads(&p, "+C=5", Notation::Wxf, "a5e5");
    reads(&p, "-C=5", Notation::Wxf, "a3e3");
    // Both cannons can go to file 5 along their ranks.
    ambiguous(&p, "C9=5", Notation::Wxf);
}

#[test]
fn wxf_advisors_elephants_horses_keep_the_file() {
    // Two advisors on file 6: the other could never make the same step, so
    // Fairy-Stockfish gives the file and the direction tells them apart.
    let p = pos("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
    both_ways(&p, "d0e1", Notation::Wxf, "A6+5");
    both_ways(&p, "d2e1", Notation::Wxf, "A6-5");
    let p = pos("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1");
    both_ways(&p, "c0a2", Notation::Wxf, "E7+9");
    both_ways(&p, "c0e2", Notation::Wxf, "E7+5");
    both_ways(&p, "c4a2", Notation::Wxf, "E7-9");
    both_ways(&p, "c4e2", Notation::Wxf, "E7-5");
    // Horses: '+'/'-' where the other horse could make the same jump on the
    // board, the file where it would fall off.
    let p = pos("3k5/9/9/9/9/9/9/4N4/9/4NK3 w - - 0 1");
    for (iccs, wxf) in [
        ("e0c1", "H-+7"),
        ("e0d2", "H-+6"),
        ("e2d0", "H5-6"),
        ("e2c1", "H5-7"),
        ("e2c3", "H++7"),
        ("e2f4", "H++4"),
    ] {
        both_ways(&p, iccs, Notation::Wxf, wxf);
    }
}

#[test]
fn wxf_pawns() {
    // Two pawns on one file: + and -.
    let p = pos("3k5/9/9/P8/P8/9/9/9/9/4K4 w - - 0 1");
    both_ways(&p, "a5b5", Notation::Wxf, "P-=8");
    both_ways(&p, "a6b6", Notation::Wxf, "P+=8");
    both_ways(&p, "a6a7", Notation::Wxf, "P++1");
    // The front pawn on the last rank: the rear one's forward step keeps the
    // file, since the same step would take the front one off the board.
    let p = pos("P2k5/9/P8/9/9/9/9/9/9/4K4 w - - 0 1");
    both_ways(&p, "a7a8", Notation::Wxf, "P9+1");
    both_ways(&p, "a7b7", Notation::Wxf, "P-=8");
    // Black, two on a file.
    let p = pos("3k5/9/9/9/9/4p4/4p4/9/9/5K3 b - - 0 1");
    both_ways(&p, "e3d3", Notation::Wxf, "P+=4");
    both_ways(&p, "e4d4", Notation::Wxf, "P-=4");
    // Three, four and five on a file: numbered from the front.
    for fen in [
        "3k5/9/9/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1",
        "3k5/9/4P4/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1",
        "3k5/9/4P4/4P4/4P4/4P4/4P4/9/9/5K3 w - - 0 1",
    ] {
        let p = pos(fen);
        let front = if fen.starts_with("3k5/9/9/") { 6 } else { 7 };
        let sq = |r: u8| format!("e{r}");
        both_ways(&p, &format!("{}d{front}", sq(front)), Notation::Wxf, "15=6");
        both_ways(
            &p,
            &format!("{}f{}", sq(front - 1), front - 1),
            Notation::Wxf,
            "25=4",
        );
        both_ways(
            &p,
            &format!("{}{}", sq(front), sq(front + 1)),
            Notation::Wxf,
            "15+1",
        );
    }
    let p = pos("3k5/9/4P4/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1");
    both_ways(&p, "e5d5", Notation::Wxf, "35=6");
    // Two files with two pawns each: numbered, with the file.
    let p = pos("5k3/9/9/9/2p1p4/2p1p4/9/9/9/3K5 b - - 0 1");
    for (iccs, wxf) in [("c4c3", "13+1"), ("c4b4", "13=2"), ("e4f4", "15=6")] {
        both_ways(&p, iccs, Notation::Wxf, wxf);
    }
    let p = pos("3k5/9/9/2P1P4/2P1P4/9/9/9/9/4K4 w - - 0 1");
    both_ways(&p, "c5d5", Notation::Wxf, "27=6");
    both_ways(&p, "e6d6", Notation::Wxf, "15=6");
    // "The front pawn goes to file 6" fits both fronts.
    ambiguous(&p, "P+=6", Notation::Wxf);
}

#[test]
fn wxf_errors() {
    let p = pos(START);
    assert!(matches!(
        parse_move(&p, "C3=5", Notation::Wxf),
        Err(NotationError::NoSuchPiece { .. })
    ));
    assert!(matches!(
        parse_move(&p, "R1+3", Notation::Wxf),
        Err(NotationError::Illegal { .. })
    ));
    for bad in ["C2=0", "C2=", "X2=5", "C2*5", "C2=55", "62=5", "+X=5", "C"] {
        assert!(
            matches!(
                parse_move(&p, bad, Notation::Wxf),
                Err(NotationError::Unreadable { .. })
            ),
            "{bad}"
        );
    }
}

// ---------------------------------------------------------------- Chinese

#[test]
fn chinese_single_pieces() {
    let p = pos(START);
    for (iccs, text) in [
        ("h2e2", "炮二平五"),
        ("h0g2", "马二进三"),
        ("g0e2", "相三进五"),
        ("f0e1", "仕四进五"),
        ("i0i1", "车一进一"),
        ("c3c4", "兵七进一"),
        ("e0e1", "帅五进一"),
        ("b2b9", "炮八进七"),
    ] {
        both_ways(&p, iccs, Notation::Chinese, text);
    }
    let p = pos(START_BLACK);
    for (iccs, text) in [
        ("h9g7", "马８进７"),
        ("b9c7", "马２进３"),
        ("a9a8", "车１进１"),
        ("c6c5", "卒３进１"),
        ("h7e7", "炮８平５"),
        ("g9e7", "象７进５"),
        ("d9e8", "士４进５"),
        ("e9e8", "将５进１"),
    ] {
        both_ways(&p, iccs, Notation::Chinese, text);
    }
}

#[test]
fn chinese_retreats() {
    let p = pos("3k5/9/9/9/9/7R1/9/9/9/4K4 w - - 0 1");
    both_ways(&p, "h4h1", Notation::Chinese, "车二退三");
    both_ways(&p, "h4c4", Notation::Chinese, "车二平七");
    let p = pos("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
    both_ways(&p, "e1f2", Notation::Chinese, "仕五进四");
    both_ways(&p, "e1f0", Notation::Chinese, "仕五退四");
    let p = pos("4k4/4a4/9/9/9/9/9/9/9/3K5 b - - 0 1");
    both_ways(&p, "e8d9", Notation::Chinese, "士５退４");
}

#[test]
fn chinese_variant_glyphs_and_digits() {
    let p = pos(START);
    for text in [
        "炮二平五",
        "砲二平五",
        "包二平五",
        "炮2平5",
        "炮２平５",
        "炮 二 平 五",
        "炮25",
        "炮2.5",
        "炮2=5",
    ] {
        reads(&p, text, Notation::Chinese, "h2e2");
    }
    reads(&p, "傌二進三", Notation::Chinese, "h0g2");
    reads(&p, "馬2+3", Notation::Chinese, "h0g2");
    reads(&p, "俥一進一", Notation::Chinese, "i0i1");
    reads(&p, "車1+1", Notation::Chinese, "i0i1");
    reads(&p, "帥五進一", Notation::Chinese, "e0e1");
    reads(&p, "象三进五", Notation::Chinese, "g0e2");
    reads(&p, "士四进五", Notation::Chinese, "f0e1");
    reads(&p, "卒七进一", Notation::Chinese, "c3c4");
    let p = pos(START_BLACK);
    for text in ["马８进７", "马8进7", "馬8進7", "马八进七", "马8+7", "马８＋７"] {
        reads(&p, text, Notation::Chinese, "h9g7");
    }
    reads(&p, "將5進1", Notation::Chinese, "e9e8");
    reads(&p, "砲8平5", Notation::Chinese, "h7e7");
    reads(&p, "炮85", Notation::Chinese, "h7e7");
}

#[test]
fn chinese_short_form() {
    let p = pos(START);
    assert_eq!(format_chinese_short(&p, mv("h2e2")), "炮25");
    assert_eq!(format_chinese_short(&p, mv("h0g2")), "马2+3");
    let p = pos(START_BLACK);
    assert_eq!(format_chinese_short(&p, mv("h9g7")), "马8+7");
    let p = pos("4k4/9/9/9/C8/9/C8/9/9/3K5 w - - 0 1");
    assert_eq!(format_chinese_short(&p, mv("a3a2")), "后炮-1");
    assert_eq!(format_chinese_short(&p, mv("a5e5")), "前炮5");
    for m in p.legal_moves() {
        let short = format_chinese_short(&p, m);
        assert_eq!(parse_move(&p, &short, Notation::Chinese), Ok(m), "{short}");
    }
}

#[test]
fn chinese_tandem_pieces() {
    let p = pos("4k4/9/9/9/C8/9/C8/9/9/3K5 w - - 0 1");
    both_ways(&p, "a5e5", Notation::Chinese, "前炮平五");
    both_ways(&p, "a5a4", Notation::Chinese, "前炮退一");
    both_ways(&p, "a3a2", Notation::Chinese, "后炮退一");
    both_ways(&p, "a3e3", Notation::Chinese, "后炮平五");
    reads(&p, "前砲平五", Notation::Chinese, "a5e5");
    reads(&p, "後炮平五", Notation::Chinese, "a3e3");
    reads(&p, "炮前平五", Notation::Chinese, "a5e5");
    reads(&p, "前炮九平五", Notation::Chinese, "a5e5");
    // Without 前/后 both cannons fit.
    ambiguous(&p, "炮九平五", Notation::Chinese);
    // ...unless only one of them can make the move.
    reads(&p, "炮九进四", Notation::Chinese, "a5a9");
    // Black horses on one file.
    let p = pos("4k4/9/2n6/9/2n6/9/9/9/9/3K5 b - - 0 1");
    both_ways(&p, "c7b9", Notation::Chinese, "后马退２");
    both_ways(&p, "c5d3", Notation::Chinese, "前马进４");
    both_ways(&p, "c7d5", Notation::Chinese, "后马进４");
    // Black rooks on one file.
    let p = pos("4k4/9/9/r8/9/9/r8/9/9/3K5 b - - 0 1");
    both_ways(&p, "a3a0", Notation::Chinese, "前车进３");
    both_ways(&p, "a6a8", Notation::Chinese, "后车退２");
}

#[test]
fn chinese_advisors_and_elephants_keep_the_file() {
    let p = pos("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1");
    both_ways(&p, "c0e2", Notation::Chinese, "相七进五");
    both_ways(&p, "c4e2", Notation::Chinese, "相七退五");
    reads(&p, "前相退五", Notation::Chinese, "c4e2");
    let p = pos("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
    both_ways(&p, "d0e1", Notation::Chinese, "仕六进五");
    both_ways(&p, "d2e1", Notation::Chinese, "仕六退五");
}

#[test]
fn chinese_pawns_on_one_file() {
    // Two.
    let p = pos("3k5/9/9/P8/P8/9/9/9/9/4K4 w - - 0 1");
    both_ways(&p, "a6a7", Notation::Chinese, "前兵进一");
    both_ways(&p, "a6b6", Notation::Chinese, "前兵平八");
    both_ways(&p, "a5b5", Notation::Chinese, "后兵平八");
    ambiguous(&p, "兵九平八", Notation::Chinese);
    // Three: 前 中 后.
    let p = pos("3k5/9/9/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1");
    both_ways(&p, "e6d6", Notation::Chinese, "前兵平六");
    both_ways(&p, "e6e7", Notation::Chinese, "前兵进一");
    both_ways(&p, "e5f5", Notation::Chinese, "中兵平四");
    // Four: 一 二 三 四.
    let p = pos("3k5/9/4P4/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1");
    both_ways(&p, "e7e8", Notation::Chinese, "一兵进一");
    both_ways(&p, "e6d6", Notation::Chinese, "二兵平六");
    both_ways(&p, "e5f5", Notation::Chinese, "三兵平四");
    // Five.
    let p = pos("3k5/9/4P4/4P4/4P4/4P4/4P4/9/9/5K3 w - - 0 1");
    both_ways(&p, "e7d7", Notation::Chinese, "一兵平六");
    both_ways(&p, "e5f5", Notation::Chinese, "三兵平四");
    reads(&p, "三兵五平四", Notation::Chinese, "e5f5");
    // Black, three on a file.
    let p = pos("5k3/9/9/9/9/4p4/4p4/4p4/9/3K5 b - - 0 1");
    both_ways(&p, "e2d2", Notation::Chinese, "前卒平４");
    both_ways(&p, "e3f3", Notation::Chinese, "中卒平６");
    both_ways(&p, "e2e1", Notation::Chinese, "前卒进１");
}

#[test]
fn chinese_pawns_on_two_files() {
    // Two files with two pawns each: the file replaces the piece name.
    let p = pos("3k5/9/9/2P1P4/2P1P4/9/9/9/9/4K4 w - - 0 1");
    both_ways(&p, "c6d6", Notation::Chinese, "前七平六");
    both_ways(&p, "c5d5", Notation::Chinese, "后七平六");
    both_ways(&p, "e6d6", Notation::Chinese, "前五平六");
    both_ways(&p, "e6e7", Notation::Chinese, "前五进一");
    reads(&p, "前兵七平六", Notation::Chinese, "c6d6");
    ambiguous(&p, "前兵平六", Notation::Chinese);
    // Three on one file and two on another.
    let p = pos("3k5/9/9/2P1P4/2P1P4/4P4/9/9/9/5K3 w - - 0 1");
    both_ways(&p, "e5d5", Notation::Chinese, "中五平六");
    both_ways(&p, "c5b5", Notation::Chinese, "后七平八");
    // Black.
    let p = pos("5k3/9/9/9/2p1p4/2p1p4/9/9/9/3K5 b - - 0 1");
    both_ways(&p, "c4c3", Notation::Chinese, "前３进１");
    both_ways(&p, "e4d4", Notation::Chinese, "前５平４");
}

#[test]
fn chinese_errors() {
    let p = pos(START);
    assert!(matches!(
        parse_move(&p, "炮三平五", Notation::Chinese),
        Err(NotationError::NoSuchPiece { .. })
    ));
    assert!(matches!(
        parse_move(&p, "车一进三", Notation::Chinese),
        Err(NotationError::Illegal { .. })
    ));
    assert!(matches!(
        parse_move(&p, "前炮平五", Notation::Chinese),
        Err(NotationError::NoSuchPiece { .. })
    ));
    for bad in [
        "炮二平",
        "炮二平十",
        "hello",
        "炮",
        "二平五",
        "炮二平五五",
        "六兵平五",
    ] {
        assert!(
            matches!(
                parse_move(&p, bad, Notation::Chinese),
                Err(NotationError::Unreadable { .. })
            ),
            "{bad}: {:?}",
            parse_move(&p, bad, Notation::Chinese)
        );
    }
    let e = parse_move(&p, "炮三平五", Notation::Chinese).unwrap_err();
    assert!(e.to_string().contains("cannon on file 3"), "{e}");
}

// ---------------------------------------------------------------- any

#[test]
fn any_style() {
    let p = pos(START);
    for text in ["h2e2", "H2-E2", "C2=5", "c2.5", "炮二平五", "炮25"] {
        assert_eq!(parse_any(&p, text), Ok(mv("h2e2")), "{text}");
    }
    assert!(matches!(
        parse_any(&p, "h2h8"),
        Err(NotationError::Illegal { .. })
    ));
    assert!(matches!(
        parse_any(&p, "zz"),
        Err(NotationError::Unreadable { .. })
    ));
    assert_eq!(parse_any(&p, ""), Err(NotationError::Empty));
}

/// Every legal move of a few busy positions reads back in every style.
#[test]
fn round_trip_every_legal_move() {
    for fen in [
        START,
        START_BLACK,
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 4",
        "3k5/9/9/2P1P4/2P1P4/4P4/9/9/9/5K3 w - - 0 1",
        "4k4/9/2n6/9/2n6/9/9/9/9/3K5 b - - 0 1",
    ] {
        let p = pos(fen);
        for m in p.legal_moves() {
            for style in Notation::ALL {
                let text = format_move(&p, m, style);
                assert_eq!(parse_move(&p, &text, style), Ok(m), "{fen}: {text}");
                assert_eq!(parse_any(&p, &text), Ok(m), "{fen}: {text}");
            }
        }
    }
}
