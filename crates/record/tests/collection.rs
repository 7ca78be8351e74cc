//! Importing a collection of 1,000 games whose moves and WXF text were
//! written by Fairy-Stockfish (see `data/make_selfplay.py`), exporting each
//! game in every notation and reading it back.

use record::{read_pgn, write_pgn, PgnResult, Record};
use xiangqi::notation::Notation;

fn collection() -> Vec<Record> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/selfplay-1000.pgn"
    ))
    .unwrap();
    let games = read_pgn(&text);
    assert_eq!(games.len(), 1000);
    games
        .into_iter()
        .map(|g| g.record.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

#[test]
fn a_thousand_games_import_without_an_illegal_move() {
    let games = collection();
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    assert!(plies > 80_000, "{plies} plies");
    // What the file holds besides moves came through too.
    assert!(games.iter().filter(|g| g.tag("FEN").is_some()).count() > 50);
    assert!(
        games
            .iter()
            .filter(|g| g.moves.iter().any(|m| m.clock_ms.is_some()))
            .count()
            > 200
    );
    assert!(
        games
            .iter()
            .filter(|g| g.moves.iter().any(|m| m.emt_ms.is_some()))
            .count()
            > 100
    );
    assert!(games.iter().any(|g| g.comment.is_some()));
    assert!(games
        .iter()
        .any(|g| g.tag("Red").is_some_and(|r| r.starts_with("随机"))));
    // Every game that ended with no legal move has the matching result.
    for g in &games {
        let mut pos = g.start_position().unwrap();
        for m in &g.moves {
            pos.play(m.mv).unwrap();
        }
        if let Some(o) = pos.outcome() {
            assert_eq!(PgnResult::from_outcome(Some(o)), g.result, "{:?}", g.tags);
        }
    }
}

#[test]
fn every_game_round_trips_exactly_in_every_notation() {
    for (i, g) in collection().iter().enumerate() {
        for n in Notation::ALL {
            let first = write_pgn(g, n).unwrap();
            let back = record::read_one(&first).unwrap_or_else(|e| panic!("game {}: {e}\n{first}", i + 1));
            assert_eq!(back.moves, g.moves, "game {} in {n}", i + 1);
            assert_eq!(back.result, g.result);
            assert_eq!(back.comment, g.comment);
            let second = write_pgn(&back, n).unwrap();
            assert_eq!(second, first, "game {} in {n}", i + 1);
        }
    }
}

#[test]
fn many_games_in_one_file_convert_and_read_back() {
    let games = collection();
    let text = record::write_games(&games[..200], Notation::Chinese).unwrap();
    let back: Vec<Record> = read_pgn(&text).into_iter().map(|g| g.record.unwrap()).collect();
    assert_eq!(back.len(), 200);
    for (a, b) in games.iter().zip(&back) {
        assert_eq!(a.moves, b.moves);
    }
}

#[test]
fn a_session_exports_with_its_clock_comments_and_reads_back() {
    use session::{Command, Session};
    let v = registry::get(Some("xiangqi/cxa")).unwrap();
    let mut s = Session::new(
        v.new_game(None, 0).unwrap(),
        v.session_config("10+5".parse().unwrap()),
    )
    .unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];
    for (i, m) in moves.iter().enumerate() {
        let side = if i % 2 == 0 {
            game::Side::First
        } else {
            game::Side::Second
        };
        s.apply(Command::Move {
            side,
            coord: (*m).into(),
            at: 1_234 * (i as u64 + 1),
            pressed_at: None,
        })
        .unwrap();
    }
    s.apply(Command::Resign {
        side: game::Side::Second,
        at: 20_000,
    })
    .unwrap();
    let r = Record::from_session(&s, &[("Red", "甲"), ("Black", "乙")]).unwrap();
    assert_eq!(r.result, PgnResult::RedWins);
    assert_eq!(r.tag("Termination"), Some("resignation"));
    let text = write_pgn(&r, Notation::Chinese).unwrap();
    assert!(
        text.contains("1. 炮二平五 {[%clk 0:10:03.766] [%emt 0:00:01.234]}"),
        "{text}"
    );
    let back = record::read_one(&text).unwrap();
    assert_eq!(back, {
        let mut r = r.clone();
        r.set_tag("Format", "Chinese");
        r
    });
    let iccs: Vec<String> = back.moves.iter().map(|m| m.mv.iccs()).collect();
    assert_eq!(iccs, moves);
}

/// A real game, 柳大华–杨官璘 of the 1982 national championship, as the
/// xiangqi.js README prints it; that independent implementation reports the
/// final position below, and we must reach the same one.
#[test]
fn a_real_game_reaches_the_position_another_implementation_reports() {
    let pgn = r#"[Game "Chinese Chess"]
[Event "1982年全国赛"]
[Date "1982.12.11"]
[Red "柳大华"]
[Black "杨官璘"]
[Result "1/2-1/2"]
[Format "ICCS"]

1. b2e2 b9c7 2. b0c2 a9b9 3. a0b0 h9g7
4. g3g4 c6c5 5. b0b6 b7a7 6. b6c6 a7a8
7. h0g2 f9e8 8. h2i2 a8c8 9. c6d6 c7b5
10. i0h0 i9h9 11. c2e1 c5c4 12. d6d5 c8c3
13. h0h6 b5d4 14. e2c2 b9b7 15. c2c4 b7d7
16. g2f4 h7i7 17. h6g6 h9h2 18. g4g5 c3b3
19. g5f5 b3b0 20. e1g2 d4f5 21. f0e1 h2h6
22. d5c5 c9a7 23. g6h6 a7c5 24. h6h3 b0b3
25. e3e4 b3b4 26. g0e2 b4e4 27. i2i1 i7i8
28. i1g1 i8g8 29. c4c2 d7f7 30. c2b2 c5a7
31. h3c3 f7b7 32. b2c2 b7f7 33. c2b2 f7b7
34. b2a2 b7f7 35. a2a6 f5h4 36. a6b6 g9e7
37. g1f1 h4f3 38. b6b3 f3g1 39. e0f0 g7f5
40. c3e3 e6e5 41. b3b1 f7f6 42. e3g3 g8f8
43. f1f2 g1i0 44. g3h3 f8f9 45. b1b5 i0g1
46. h3h5 a7c5 47. b5e5 e4b4 48. a3a4 b4b3
49. f2f3 b3b2 50. e1d2 b2b0 51. f0f1 b0d0
52. a4a5 d0g0 53. f1e1 g0g2 54. f3f5 f9f5
55. f4g2 f6b6 56. e1f1 f5f9 57. h5h1 b6e6
58. e5d5 e8f7 59. f1e1 e6b6 60. a5b5 b6a6
61. b5a5 a6b6 62. a5b5 b6a6 63. b5a5 1/2-1/2
"#;
    let r = record::read_one(pgn).unwrap();
    assert_eq!(r.moves.len(), 125);
    let mut pos = r.start_position().unwrap();
    for m in &r.moves {
        pos.play(m.mv).unwrap();
    }
    let fen = pos.fen();
    let reported = "3akc3/9/4ba3/r7p/P1bC5/9/8P/3AB1N2/4K1nR1/2B6 b";
    assert_eq!(&fen[..reported.len()], reported, "{fen}");
    // The same game in Chinese, written by us and read back.
    let zh = write_pgn(&r, Notation::Chinese).unwrap();
    assert_eq!(record::read_one(&zh).unwrap().moves, r.moves);
}

/// Forms seen in Chinese archives: traditional characters (馬, 進, 車),
/// ASCII digits for black's files, variations with comments inside.
#[test]
fn traditional_characters_and_ascii_black_files() {
    let r = record::read_one(
        "[Game \"Chinese Chess\"]\n[Result \"1/2-1/2\"]\n\n1. 炮二平五 馬8進7 (1... 炮8平5 {順手炮} 2. 馬二進三) 2. 馬二進三 車9平8 1/2-1/2",
    )
    .unwrap();
    let iccs: Vec<String> = r.moves.iter().map(|m| m.mv.iccs()).collect();
    assert_eq!(iccs, ["h2e2", "h9g7", "h0g2", "i9h9"]);
}
