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
    use session::{Command, Session, SessionConfig};
    let game = referee::XiangqiGame::new("startpos", referee::RuleSet::Cxa).unwrap();
    let mut s = Session::new(Box::new(game), SessionConfig::cxa("10+5".parse().unwrap())).unwrap();
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
