//! Property tests (proptest) for the text parsers: FEN and the three move
//! notations. Arbitrary and mutated input must never panic, and whatever is
//! accepted must be sound; written text must read back as what was written.

use proptest::prelude::*;
use xiangqi::notation::{format_chinese_short, format_move, parse_any, parse_move, Notation};
use xiangqi::{Position, Setup};

/// Starting points for random playouts: the opening, and sparse positions
/// with tandem pieces and piles of pawns.
const SEEDS: &[&str] = &[
    "startpos",
    "3k5/9/9/p1p1p1p1p/9/9/P1P1P1P1P/9/9/4K4 w - - 0 1",
    "4k4/4a4/4b4/2P1P1P2/2P1P4/2p6/2p1p1p2/4B4/4A4/4K4 w - - 0 1",
    "3ak4/4a4/4b4/9/2R6/2R6/9/2c6/2c6/3AKA3 w - - 0 1",
    "4k4/9/4n4/9/4n4/4N4/9/4N4/9/4K4 b - - 0 1",
    "2b1k4/4a4/9/9/2b6/2B6/9/9/4A4/2B1K4 w - - 0 1",
];

/// Characters the parsers care about, so that random text gets past the
/// first character often enough to reach the deeper paths.
const MOVE_CHARS: &str = "车車俥马馬傌炮砲包相象仕士帅帥将將兵卒前中后後进進退平\
一二三四五六七八九１２３４５６７８９123456789 0+-=.．＋－abcdefghiKAEBHNRCPGkaebhnrcp";
const FEN_CHARS: &str = "rnbakcphRNBAKCPHE0123456789/ wrb-";

/// A position reached by a seeded random playout.
fn playout(seed: usize, rng_seed: u64, plies: usize) -> Position {
    let mut pos = Position::from_fen(SEEDS[seed % SEEDS.len()]).unwrap();
    let mut x = rng_seed | 1;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = moves[(x % moves.len() as u64) as usize];
        pos.play(m).unwrap();
    }
    pos
}

fn position() -> impl Strategy<Value = Position> {
    (0..SEEDS.len(), any::<u64>(), 0usize..160).prop_map(|(s, r, n)| playout(s, r, n))
}

fn text_from(chars: &'static str, max: usize) -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = chars.chars().collect();
    proptest::collection::vec(proptest::sample::select(alphabet), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

/// Edits: (kind, where, what). Kind 0 deletes, 1 inserts, 2 replaces.
fn edits() -> impl Strategy<Value = Vec<(u8, usize, char)>> {
    proptest::collection::vec((0u8..3, any::<usize>(), any::<char>()), 1..4)
}

fn mutate(text: &str, edits: &[(u8, usize, char)], alphabet: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let pool: Vec<char> = alphabet.chars().collect();
    for &(kind, at, c) in edits {
        // Half the time pick from the alphabet, half any char at all.
        let c = if (c as u32).is_multiple_of(2) {
            pool[(c as usize) % pool.len()]
        } else {
            c
        };
        let i = if chars.is_empty() { 0 } else { at % chars.len() };
        match kind {
            0 if !chars.is_empty() => {
                chars.remove(i);
            }
            2 if !chars.is_empty() => chars[i] = c,
            _ => chars.insert(i, c),
        }
    }
    chars.into_iter().collect()
}

/// Whatever a parser accepts must be a legal move of the position.
fn check_all_parsers(pos: &Position, text: &str) {
    for style in Notation::ALL {
        if let Ok(m) = parse_move(pos, text, style) {
            assert!(pos.is_legal(m), "{style} accepted illegal {m} for {text:?}");
        }
    }
    if let Ok(m) = parse_any(pos, text) {
        assert!(pos.is_legal(m), "parse_any accepted illegal {m} for {text:?}");
    }
}

fn check_fen(text: &str) {
    let _ = Setup::from_fen(text);
    if let Ok(pos) = Position::from_fen(text) {
        let again = Position::from_fen(&pos.fen()).expect("our own FEN reads back");
        assert!(again == pos, "{text:?} -> {} changed on re-reading", pos.fen());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn fen_parsers_survive_any_text(text in "\\PC{0,120}") {
        check_fen(&text);
    }

    #[test]
    fn fen_parsers_survive_fen_like_text(text in text_from(FEN_CHARS, 120)) {
        check_fen(&text);
    }

    #[test]
    fn fen_parsers_survive_mutated_fens(pos in position(), e in edits()) {
        let text = mutate(&pos.fen(), &e, FEN_CHARS);
        check_fen(&text);
    }

    #[test]
    fn fen_round_trip(pos in position()) {
        let again = Position::from_fen(&pos.fen()).unwrap();
        prop_assert!(again == pos);
        prop_assert_eq!(again.key(), pos.key());
        let setup = Setup::from_fen(&pos.fen()).unwrap();
        prop_assert!(Position::from_setup(&setup).unwrap() == pos);
    }

    #[test]
    fn move_parsers_survive_any_text(pos in position(), text in "\\PC{0,12}") {
        check_all_parsers(&pos, &text);
    }

    #[test]
    fn move_parsers_survive_move_like_text(pos in position(), text in text_from(MOVE_CHARS, 8)) {
        check_all_parsers(&pos, &text);
    }

    #[test]
    fn move_parsers_survive_mutated_moves(pos in position(), pick in any::<usize>(), e in edits()) {
        let moves = pos.legal_moves();
        prop_assume!(!moves.is_empty());
        let m = moves[pick % moves.len()];
        for style in Notation::ALL {
            let text = mutate(&format_move(&pos, m, style), &e, MOVE_CHARS);
            check_all_parsers(&pos, &text);
        }
    }

    /// parse(format(m)) == m for every legal move, in every style.
    #[test]
    fn notation_round_trip(pos in position()) {
        for m in pos.legal_moves() {
            for style in Notation::ALL {
                let text = format_move(&pos, m, style);
                prop_assert_eq!(parse_move(&pos, &text, style), Ok(m), "{} {}", pos.fen(), text);
                prop_assert_eq!(parse_any(&pos, &text), Ok(m), "{} {}", pos.fen(), text);
            }
            let short = format_chinese_short(&pos, m);
            prop_assert_eq!(parse_move(&pos, &short, Notation::Chinese), Ok(m), "{} {}", pos.fen(), short);
        }
    }
}
