//! The loader's errors, FEN, moves and endings of data-defined variants.

use std::sync::Arc;

use variants::{
    perft, End, EndValue, FenError, IllegalMove, Position, Repetition, Side, Variant, VariantError,
};
use variants::{JANGGI_TOML, MANCHU_TOML, MINIXIANGQI_TOML, XIANGQI_TOML};

fn xiangqi() -> Arc<Variant> {
    Arc::new(Variant::from_toml(XIANGQI_TOML).unwrap())
}

fn line_of(err: &VariantError) -> usize {
    match err {
        VariantError::Syntax { line, .. } | VariantError::Invalid { line, .. } => *line,
    }
}

/// A small valid file; tests replace one line of it with a mistake.
const SMALL: &str = r#"name = "small"
start = "4k4/9/9/9/4K4 w"

[board]
files = 9
ranks = 5

[regions]
palace = { files = "d-f", ranks = "0-1" }

[[pieces]]
name = "king"
letter = "k"
royal = true
moves = [{ kind = "step", dirs = ["orthogonal"], to = "palace" }]
"#;

fn with_line(n: usize, text: &str) -> String {
    SMALL
        .lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == n { text } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rules tables of the house rules (revivals, turns of two moves,
/// royal screens, flags) refuse what makes no sense, with their line.
#[test]
fn rule_tables_say_what_is_wrong() {
    let cases: &[(&str, &str)] = &[
        (
            "[[rules.revivals]]\npieces = [\"king\"]\nto = \"palace\"",
            "`king` is royal",
        ),
        (
            "[[rules.double_moves]]\nafter = { mover = \"kinh\", captures = [\"king\"] }\nfirst = [\"king\"]",
            "unknown piece `kinh`",
        ),
        (
            "[[rules.double_moves]]\nafter = { mover = \"king\", captures = [] }\nfirst = [\"king\"]",
            "name at least one piece",
        ),
        (
            "[[rules.royal_screens]]\npieces = [\"king\"]",
            "need flying_general",
        ),
        (
            "[[rules.flags]]\npoints = 42\nstart = [3, 3]",
            "two different starts",
        ),
        (
            "[[rules.flags]]\npoints = 42\nstart = [0, 21]\n[[rules.flags]]\npoints = 42\nstart = [0, 21]",
            "only one ring",
        ),
        ("[[rules.repetition]]\ncount = 1", "count 1 is not 2 … 10"),
        (
            "[[rules.repetition]]\nperpetual_check = \"win\"",
            "perpetual_check is loss or draw",
        ),
        (
            "[[rules.repetition]]\ncount = 3\n[[rules.repetition]]\ncount = 4",
            "only one repetition rule",
        ),
        (
            "[[rules.repetition]]\nperpetual = \"draw\"",
            "unknown field `perpetual`",
        ),
    ];
    for &(table, reason) in cases {
        let text = format!("{SMALL}\n{table}\n");
        let err = Variant::from_toml(&text).expect_err(table);
        assert!(err.to_string().contains(reason), "{table}: {err}");
        assert!(line_of(&err) > 15, "{table}: {err}");
    }
    // A house rule switched on must be some rule's or movement's (the file's
    // first line: no one table is at fault).
    let text = format!("{SMALL}\n[[rules.flags]]\npoints = 42\nstart = [0, 21]\nhouse_rule = \"x\"\n[rules]\nhouse_rules = [\"y\"]\n");
    let err = Variant::from_toml(&text).unwrap_err();
    assert!(err.to_string().contains("house rule `y`"), "{err}");
    // The same tables, well made, load.
    let flags = format!("{SMALL}\n[[rules.flags]]\npoints = 24\nstart = [0, 12]\n");
    assert_eq!(Variant::from_toml(&flags).unwrap().flags().unwrap().points, 24);
    // The repetition rule: the simple rule set unless a table in force
    // says otherwise; one tagged with a house rule that is off is not.
    assert_eq!(
        Variant::from_toml(SMALL).unwrap().repetition(),
        Repetition::default()
    );
    let drawn = format!("{SMALL}\n[[rules.repetition]]\ncount = 4\nperpetual_check = \"draw\"\n");
    assert_eq!(
        Variant::from_toml(&drawn).unwrap().repetition(),
        Repetition {
            count: 4,
            perpetual_check: EndValue::Draw
        }
    );
    let tagged = format!("{SMALL}\n[[rules.repetition]]\nperpetual_check = \"draw\"\nhouse_rule = \"x\"\n");
    assert_eq!(
        Variant::from_toml(&tagged).unwrap().repetition(),
        Repetition::default()
    );
    // Xiangqi's file: 解将旗 (check_flag) draws perpetual check, nothing else does.
    let flag = Variant::with_house_rules(variants::XIANGQI_TOML, "xiangqi-flag", &["check_flag"]).unwrap();
    assert_eq!(flag.repetition().perpetual_check, EndValue::Draw);
    let horse =
        Variant::with_house_rules(variants::XIANGQI_TOML, "xiangqi-horse", &["fleeing_horse"]).unwrap();
    assert_eq!(horse.repetition(), Repetition::default());
    assert_eq!(xiangqi().repetition(), Repetition::default());
}

#[test]
fn the_small_file_loads() {
    let v = Arc::new(Variant::from_toml(SMALL).unwrap());
    assert_eq!(v.size(), (9, 5));
    let pos = Position::start(v);
    // The king on e0: d0, f0, e1 — all in the palace.
    assert_eq!(pos.legal_moves().len(), 3);
}

#[test]
fn a_bad_file_names_its_line_and_reason() {
    let cases: &[(usize, &str, &str)] = &[
        // An unknown region, on the move that names it.
        (
            15,
            r#"moves = [{ kind = "step", dirs = ["orthogonal"], to = "palce" }]"#,
            "unknown region `palce`",
        ),
        // A misspelt field is refused, not ignored.
        (14, "royall = true", "royall"),
        // Not TOML at all.
        (6, "ranks = = 5", ""),
        // A direction that does not exist.
        (
            15,
            r#"moves = [{ kind = "step", dirs = ["orthogonall"] }]"#,
            "unknown direction `orthogonall`",
        ),
        // A step is one square.
        (
            15,
            r#"moves = [{ kind = "step", dirs = [[1, 2]] }]"#,
            "a step goes to a neighbouring square",
        ),
        // Regions must fit the board.
        (
            9,
            r#"palace = { files = "d-k", ranks = "0-1" }"#,
            "region `palace`: files `d-k`",
        ),
        // The start position is checked against the board.
        (
            2,
            r#"start = "4k4/9/9/4K4 w""#,
            "FEN has 4 ranks, the board has 5",
        ),
        (2, r#"start = "4k4/9/9/10/4K4 w""#, "FEN rank 1 has 10 files"),
        (2, r#"start = "4k4/9/9/9/4Q4 w""#, "`Q` is no piece"),
        (2, r#"start = "9/9/9/9/4K4 w""#, "second side 0 royal pieces"),
        (5, "files = 17", "board 17×5"),
        (1, r#"name = " ""#, "name is empty"),
        // Screens and captures name pieces the file defines; only hops have screens.
        (
            15,
            r#"moves = [{ kind = "hop", dirs = ["orthogonal"], not_over = ["kinh"] }]"#,
            "unknown piece `kinh` (the file defines: king)",
        ),
        (
            15,
            r#"moves = [{ kind = "slide", dirs = ["orthogonal"], not_over = ["king"] }]"#,
            "only a hop has screens",
        ), // A leg is a lame leap's; a power by the royal's point names a region.
        (
            15,
            r#"moves = [{ kind = "leap", dirs = [[2, 3]], leg = "diagonal" }]"#,
            "only a lame leap has a leg",
        ),
        (
            15,
            r#"moves = [{ kind = "step", dirs = ["orthogonal"], while_royal_on = "palce" }]"#,
            "unknown region `palce`",
        ),
    ];
    for &(line, text, reason) in cases {
        let err = Variant::from_toml(&with_line(line, text)).expect_err(text);
        assert_eq!(line_of(&err), line, "{text}: {err}");
        assert!(err.to_string().contains(reason), "{text}: {err}");
        assert!(err.to_string().starts_with(&format!("line {line}")), "{err}");
    }
}

#[test]
fn fen_round_trips_and_says_what_is_wrong() {
    let v = xiangqi();
    let start = Position::start(v.clone());
    assert_eq!(
        start.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    let fen = "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1";
    assert_eq!(Position::from_fen(v.clone(), fen).unwrap().to_fen(), fen);
    // Only the board and the side are needed.
    let short = Position::from_fen(v.clone(), "4k4/9/9/9/9/9/9/9/9/3K5 b").unwrap();
    assert_eq!(short.turn(), Side::Second);
    assert_eq!(short.to_fen(), "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
    let err = |fen: &str| Position::from_fen(v.clone(), fen).unwrap_err();
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3K5/9 w"),
        FenError::RankCount {
            found: 11,
            expected: 10
        }
    );
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/3K5 x"), FenError::BadTurn("x".into()));
    assert_eq!(
        err("4k5/9/9/9/9/9/9/9/9/3K5 w").to_string(),
        "FEN rank 9 has 10 files, the board has 9"
    );
    // Kings facing on an open file with red to move: black's last move was illegal.
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::OppositeCheck);
}

#[test]
fn play_takes_legal_moves_only() {
    let mut pos = Position::start(xiangqi());
    let start = pos.to_fen();
    // 炮二平五, the central cannon.
    let undo = pos.play_iccs("h2e2").unwrap();
    assert_eq!(pos.turn(), Side::Second);
    assert_eq!(
        pos.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
    // Black is to move now: a red pawn's move is refused, as is nonsense.
    assert!(matches!(pos.play_iccs("e3e4"), Err(IllegalMove::Illegal(_))));
    assert!(matches!(pos.play_iccs("e3"), Err(IllegalMove::Unreadable(_))));
    pos.undo(variants::Move::parse("h2e2").unwrap(), undo);
    assert_eq!(pos.to_fen(), start);
    // The horse on b0 is not blocked; on h0 neither; the elephant c0 may go to a2 or e2.
    let moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    for m in [
        "b0c2", "b0a2", "c0e2", "c0a2", "h2h9", "b2b9", "e3e4", "e0e1", "d0e1",
    ] {
        assert!(moves.contains(&m.to_owned()), "{m} missing from {moves:?}");
    }
    // The cannon captures only over a screen; the king never leaves the palace.
    assert!(!moves.contains(&"h2h7".to_owned()) && !moves.contains(&"e0e2".to_owned()));
    assert_eq!(moves.len(), 44);
}

#[test]
fn lame_leaps_and_the_river() {
    let v = xiangqi();
    // Red horse e4 with a piece on its forward leg (e5): no e4d6/e4f6.
    let pos = Position::from_fen(v.clone(), "3k5/9/9/9/4p4/4N4/9/9/9/4K4 w").unwrap();
    let moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    assert!(!moves.contains(&"e4d6".to_owned()) && !moves.contains(&"e4f6".to_owned()));
    assert!(moves.contains(&"e4g5".to_owned()) && moves.contains(&"e4c3".to_owned()));
    // A red elephant on its side of the river may not cross; its eye blocks it.
    let pos = Position::from_fen(v.clone(), "3k5/9/9/9/9/9/9/9/9/2B1K4 w").unwrap();
    let moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    assert!(moves.contains(&"c0a2".to_owned()) && moves.contains(&"c0e2".to_owned()));
    let pos = Position::from_fen(v.clone(), "3k5/9/9/9/9/4B4/9/9/9/4K4 w").unwrap();
    let moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    assert!(
        !moves.iter().any(|m| m.starts_with("e4") && m.ends_with('6')),
        "{moves:?}"
    );
    // A pawn before the river goes forward only; across it, sideways too.
    let pos = Position::from_fen(v, "3k5/9/9/9/4P4/9/P8/9/9/4K4 w").unwrap();
    let mut pawn: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .filter(|m| m.starts_with("a3") || m.starts_with("e5"))
        .collect();
    pawn.sort();
    assert_eq!(pawn, ["a3a4", "e5d5", "e5e6", "e5f5"]);
}

#[test]
fn checkmate_and_stalemate_lose_in_xiangqi() {
    let v = xiangqi();
    let win_red = game::Outcome::Win { winner: Side::First };
    // Two rooks: checkmate (将死).
    let pos = Position::from_fen(v.clone(), "3k1R3/4R4/9/9/9/9/9/9/9/4K4 b").unwrap();
    assert!(pos.is_check());
    assert_eq!(pos.end(), Some((End::Checkmate, win_red)));
    // No move and no check: 困毙, a loss too (rule 3.2).
    let pos = Position::from_fen(v.clone(), "3k5/R8/4R4/9/9/9/9/9/9/4K4 b").unwrap();
    assert!(!pos.is_check());
    assert_eq!(pos.end(), Some((End::Stalemate, win_red)));
    // The flying-general rule takes e9: stalemate again.
    let pos = Position::from_fen(v.clone(), "3k5/R8/9/9/9/9/9/9/9/4K4 b").unwrap();
    assert_eq!(pos.end(), Some((End::Stalemate, win_red)));
    assert_eq!(Position::start(v).end(), None);
    // The value of stalemate is data: a house rule may make it a draw.
    let draw = XIANGQI_TOML.replace(r#"stalemate = "loss""#, r#"stalemate = "draw""#);
    let pos = Position::from_fen(
        Arc::new(Variant::from_toml(&draw).unwrap()),
        "3k5/R8/9/9/9/9/9/9/9/4K4 b",
    )
    .unwrap();
    assert_eq!(pos.end(), Some((End::Stalemate, game::Outcome::Draw)));
}

/// A 12×12 board: two-digit runs in FEN and two-digit ranks in moves.
#[test]
fn boards_up_to_twelve_by_twelve_and_more() {
    let text = r#"
name = "big"
start = "6k5/12/12/12/12/12/12/12/12/12/12/R4K6 w"
[board]
files = 12
ranks = 12
[rules]
flying_general = true
[[pieces]]
name = "king"
letter = "k"
royal = true
moves = [{ kind = "step", dirs = ["orthogonal"] }]
[[pieces]]
name = "rook"
letter = "r"
moves = [{ kind = "slide", dirs = ["orthogonal"] }]
"#;
    let v = Arc::new(Variant::from_toml(text).unwrap());
    let mut pos = Position::start(v);
    assert_eq!(pos.to_fen(), "6k5/12/12/12/12/12/12/12/12/12/12/R4K6 w - - 0 1");
    let moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    // Rook: b0–e0 and a1–a11 (15); king: e0, f1 (g0 would face the other king).
    assert_eq!(moves.len(), 17, "{moves:?}");
    assert!(moves.contains(&"a0a11".to_owned()) && !moves.contains(&"f0g0".to_owned()));
    pos.play_iccs("a0a11").unwrap();
    assert!(pos.is_check());
    assert!(perft(&mut pos, 2) > 0);
}

#[test]
fn minixiangqi_loads_and_its_start_has_nineteen_moves() {
    let v = Arc::new(Variant::from_toml(MINIXIANGQI_TOML).unwrap());
    assert_eq!(v.size(), (7, 7));
    let mut pos = Position::start(v);
    // Fairy-Stockfish lists 19 moves from the start (see tests/fsf_diff.rs).
    assert_eq!(pos.legal_moves().len(), 19);
    assert!(perft(&mut pos, 3) > 0);
}

/// Garbage in gives an error, never a panic: mangled FENs, moves and files.
#[test]
fn garbage_is_refused_without_panicking() {
    let v = xiangqi();
    let mut state = 0x27_u64;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let z = (state ^ (state >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z ^ (z >> 31)
    };
    let alphabet: Vec<char> = "rnbakcpRNBAKCP0123456789/ -wbx9九\n=[]{}\"".chars().collect();
    let start = v.start_fen().to_owned();
    for _ in 0..20_000 {
        // Mutate the start FEN or the Xiangqi file a few characters at a time.
        let base: Vec<char> = if next() % 4 == 0 {
            XIANGQI_TOML.chars().collect()
        } else {
            start.chars().collect()
        };
        let mut text = base.clone();
        for _ in 0..1 + next() % 4 {
            let i = (next() % text.len() as u64) as usize;
            let c = alphabet[(next() % alphabet.len() as u64) as usize];
            match next() % 3 {
                0 => text[i] = c,
                1 => text.insert(i, c),
                _ => {
                    text.remove(i);
                }
            }
        }
        let text: String = text.into_iter().collect();
        if base.len() > 200 {
            if let Ok(variant) = Variant::from_toml(&text) {
                let mut pos = Position::start(Arc::new(variant));
                let _ = perft(&mut pos, 2);
            }
        } else if let Ok(mut pos) = Position::from_fen(v.clone(), &text) {
            let _ = perft(&mut pos, 2);
            let _ = pos.end();
            assert!(Position::from_fen(v.clone(), &pos.to_fen()).is_ok(), "{text}");
        }
        let _ = variants::Move::parse(&text.chars().take(6).collect::<String>());
    }
    // Long runs of digits do not overflow.
    assert!(Position::from_fen(v.clone(), "99999999999999999999999/9/9/9/9/9/9/9/9/9 w").is_err());
}

fn janggi() -> Arc<Variant> {
    Arc::new(Variant::from_toml(JANGGI_TOML).unwrap())
}

fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .filter(|m| m.starts_with(from) && m.len() == 4)
        .collect();
    out.sort();
    out
}

/// Fairy-Stockfish's counts: janggi's start has 32 moves with the pass
/// (`e1e1`), manchu's 18 (the banner's rook, cannon and horse moves).
#[test]
fn manchu_and_janggi_start_as_fairy_stockfish_says() {
    let mut pos = Position::start(janggi());
    assert_eq!(pos.legal_moves().len(), 32);
    assert!(pos.legal_moves().iter().any(|&m| m.to_string() == "e1e1"));
    assert_eq!(perft(&mut pos, 3), 33_000);
    let manchu = Arc::new(Variant::from_toml(MANCHU_TOML).unwrap());
    let pos = Position::start(manchu);
    assert_eq!(pos.legal_moves().len(), 18);
    assert_eq!(
        moves_from(&pos, "a0"),
        ["a0a1", "a0a2", "a0a6", "a0b0", "a0b2", "a0c1"]
    );
}

/// Janggi's cannon jumps one piece that is not a cannon, to move or to
/// capture: on e1 its only screens are cannons (e6) or nothing, so it
/// cannot move; on d0 it jumps the horse on d3 and its own king on e0,
/// but not the cannon on e1 along the palace's diagonal.
#[test]
fn janggi_cannons_need_a_screen_that_is_no_cannon() {
    let pos = Position::from_fen(janggi(), "5k3/9/9/4c4/9/9/3n5/9/4C4/3CK4 w - - 0 1").unwrap();
    assert!(moves_from(&pos, "e1").is_empty());
    assert_eq!(
        moves_from(&pos, "d0"),
        ["d0d4", "d0d5", "d0d6", "d0d7", "d0d8", "d0d9", "d0f0", "d0g0", "d0h0", "d0i0"]
    );
}

/// Two passes in a row end the game, scored by counting: with equal
/// material the second side's 1.5 points win (Fairy-Stockfish: −32000 for red).
#[test]
fn janggi_two_passes_end_the_game_by_counting() {
    let mut pos = Position::start(janggi());
    pos.play_iccs("e1e1").unwrap();
    assert_eq!(pos.legal_moves().len(), 32);
    pos.play_iccs("e8e8").unwrap();
    assert!(pos.legal_moves().is_empty());
    let (end, outcome) = pos.end().unwrap();
    assert_eq!(end, End::Passes);
    assert_eq!(outcome.winner(), Some(Side::Second));
    // A position read from FEN has no past: the same board plays on.
    let again = Position::from_fen(janggi(), &pos.to_fen()).unwrap();
    assert_eq!(again.legal_moves().len(), 32);
}

/// Bikjang: with the kings facing, a move must break it (the rook may not
/// move) or be a pass, and a pass ends the game by counting — here red's
/// rook (13 points) beats black's 1.5.
#[test]
fn janggi_bikjang_must_be_broken_or_ends_the_game() {
    let mut pos = Position::from_fen(janggi(), "4k4/9/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap();
    let mut legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    legal.sort();
    assert_eq!(legal, ["e0d0", "e0e0", "e0f0"]);
    pos.play_iccs("e0e0").unwrap();
    let (end, outcome) = pos.end().unwrap();
    assert_eq!(end, End::Bikjang);
    assert_eq!(outcome.winner(), Some(Side::First));
    assert!(pos.legal_moves().is_empty());
    // In check, no pass (unless in bikjang).
    let pos = Position::from_fen(janggi(), "3k5/9/9/9/9/4r4/9/9/9/4K4 w - - 0 1").unwrap();
    let mut legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    legal.sort();
    assert_eq!(legal, ["e0d0", "e0f0"]);
}

fn shengji() -> Arc<Variant> {
    Arc::new(Variant::from_toml(variants::SHENGJI_TOML).unwrap())
}

/// 升级象棋 before any capture is Xiangqi: the start's perft(2) is Xiangqi's.
#[test]
fn shengji_starts_as_xiangqi() {
    let mut pos = Position::start(shengji());
    assert_eq!(pos.legal_moves().len(), 44);
    assert_eq!(perft(&mut pos, 2), 1920);
}

/// A pawn is promoted by its first capture, not by a move: the FEN then
/// writes it `+P`, and the 上等兵 steps sideways before the river and back
/// after it, never back across it.
#[test]
fn shengji_pawns_are_promoted_by_a_capture() {
    // Red pawns on c4 (before the river) and g5 (across), black pawns on c5 and g6.
    let fen = "3k5/9/9/6p2/2p3P2/2P6/9/9/9/5K3 w - - 0 1";
    let mut pos = Position::from_fen(shengji(), fen).unwrap();
    // A move that takes nothing promotes nothing.
    let undo = pos.play_iccs("g5f5").unwrap();
    assert!(!pos.to_fen().contains('+'), "{}", pos.to_fen());
    pos.undo(variants::Move::parse("g5f5").unwrap(), undo);
    assert_eq!(pos.to_fen(), fen);
    // c4 takes c5: a 上等兵 on c5, across the river.
    pos.play_iccs("c4c5").unwrap();
    assert!(
        pos.to_fen().starts_with("3k5/9/9/6p2/2+P3P2/9/9/9/9/5K3 b"),
        "{}",
        pos.to_fen()
    );
    pos.play_iccs("d9d8").unwrap();
    // Across the river: forward, sideways, and back while it stays across.
    assert_eq!(moves_from(&pos, "c5"), ["c5b5", "c5c6", "c5d5"]);
    pos.play_iccs("c5c6").unwrap();
    pos.play_iccs("d8d9").unwrap();
    assert_eq!(moves_from(&pos, "c6"), ["c6b6", "c6c5", "c6c7", "c6d6"]);
    // An ordinary pawn before the river only goes forward; a promoted one
    // there also sideways (`+P` read from FEN).
    let pos = Position::from_fen(shengji(), "3k5/9/9/9/9/9/2P3+P2/9/9/5K3 w - - 0 1").unwrap();
    assert_eq!(moves_from(&pos, "c3"), ["c3c4"]);
    assert_eq!(moves_from(&pos, "g3"), ["g3f3", "g3g4", "g3h3"]);
}

/// 悍马 jumps its own piece on its leg, not the enemy's; 铁炮 takes
/// diagonally over an adjacent screen of its own only; 飞车 moves beyond one
/// piece of its own but takes nothing there; 骑象 leaps three points
/// diagonally, never across the river. Each beside its unpromoted self.
#[test]
fn shengji_promoted_pieces_have_the_seeds_powers() {
    let v = shengji();
    // Horse on e2: its own pawn on e3 (the leg to d4, f4), a black pawn on
    // d2 (the leg to c3, c1).
    let horse = |letter: &str| {
        let fen = format!("3k5/9/9/9/9/9/4P4/3p{letter}4/9/5K3 w - - 0 1");
        moves_from(&Position::from_fen(v.clone(), &fen).unwrap(), "e2")
    };
    assert_eq!(horse("N"), ["e2d0", "e2g1", "e2g3"]);
    assert_eq!(horse("+N"), ["e2d0", "e2d4", "e2f4", "e2g1", "e2g3"]);
    // Cannon on e2: its own pawn on f3, a black horse on g4 behind it; a
    // black pawn on d3 (a screen of the other side), a black horse on c4.
    let cannon = |letter: &str| {
        let fen = format!("3k5/9/9/9/9/2n3n2/3p1P3/4{letter}4/9/5K3 w - - 0 1");
        let pos = Position::from_fen(v.clone(), &fen).unwrap();
        moves_from(&pos, "e2")
            .into_iter()
            .filter(|m| !m.starts_with("e2e"))
            .collect::<Vec<_>>()
    };
    assert!(!cannon("C").contains(&"e2g4".to_owned()));
    assert!(cannon("+C").contains(&"e2g4".to_owned()));
    assert!(
        !cannon("+C").contains(&"e2c4".to_owned()),
        "an enemy screen does not serve"
    );
    // Rook on a0: its own pawn on a3, a black horse on a7.
    let rook = |letter: &str| {
        let fen = format!("3k5/9/n8/9/9/9/P8/9/9/{letter}4K3 w - - 0 1");
        let pos = Position::from_fen(v.clone(), &fen).unwrap();
        moves_from(&pos, "a0")
            .into_iter()
            .filter(|m| m.starts_with("a0a"))
            .collect::<Vec<_>>()
    };
    assert_eq!(rook("R"), ["a0a1", "a0a2"]);
    assert_eq!(rook("+R"), ["a0a1", "a0a2", "a0a4", "a0a5", "a0a6"]);
    // Elephant on c0: f3 three points away, i6 beyond the river never.
    let elephant = |letter: &str| {
        let fen = format!("3k5/9/9/9/9/9/9/9/9/2{letter}2K3 w - - 0 1");
        moves_from(&Position::from_fen(v.clone(), &fen).unwrap(), "c0")
    };
    assert_eq!(elephant("B"), ["c0a2", "c0e2"]);
    assert_eq!(elephant("+B"), ["c0a2", "c0e2", "c0f3"]);
    // A king has no promoted face.
    assert!(matches!(
        Position::from_fen(v, "3+k5/9/9/9/9/9/9/9/9/4K4 w"),
        Err(FenError::NotPromotable { letter: 'k', .. })
    ));
}
