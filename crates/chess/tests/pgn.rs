//! PGN reading and writing, on a hand-written file shaped like lichess's
//! and chess.com's exports (clock and eval comments, NAGs, `?!` marks,
//! variations, `;` comments, a Chess960 game, a set-up position, an illegal
//! move). The expected moves are python-chess's reading of the same file
//! (`chess.pgn.read_game`), written down here.

use chess::pgn::{read_pgn, write_pgn, ChessRecord, PgnError};
use chess::{ChessGame, Variant};
use game::{Game, Status};

const FIXTURE: &str = include_str!("fixtures/lichess.pgn");

fn ucis(r: &ChessRecord) -> Vec<&str> {
    r.moves.iter().map(|m| m.uci.as_str()).collect()
}

fn sans(r: &ChessRecord) -> Vec<&str> {
    r.moves.iter().map(|m| m.san.as_str()).collect()
}

fn games() -> Vec<Result<ChessRecord, PgnError>> {
    let games = read_pgn(FIXTURE);
    assert_eq!(games.len(), 6, "{games:#?}");
    games
}

#[test]
fn reads_a_lichess_game_with_clocks_evals_nags_and_variations() {
    let g = games().remove(0).unwrap();
    assert_eq!(g.tags.len(), 18);
    assert_eq!(g.tag("Opening"), Some("Philidor Defense"));
    assert_eq!(g.variant, Variant::Standard);
    assert_eq!(g.start_fen, chess::STANDARD_START_FEN);
    assert_eq!(
        ucis(&g),
        [
            "e2e4", "e7e5", "g1f3", "d7d6", "f1c4", "c8g4", "b1c3", "g7g6", "f3e5", "g4d1", "c4f7", "e8e7",
            "c3d5"
        ]
    );
    assert_eq!(
        sans(&g),
        ["e4", "e5", "Nf3", "d6", "Bc4", "Bg4", "Nc3", "g6", "Nxe5", "Bxd1", "Bxf7+", "Ke7", "Nd5#"]
    );
    assert_eq!(g.moves[0].clock.as_deref(), Some("0:03:00"));
    assert_eq!(g.moves[0].comment.as_deref(), Some("[%eval 0.17]"));
    assert_eq!(g.moves[5].clock.as_deref(), Some("0:02:55"));
    assert_eq!(
        g.moves[5].comment.as_deref(),
        Some("(0.36 → 0.95) Inaccuracy. Nf6 was best. [%eval 0.95]")
    );
    assert_eq!(g.moves[12].clock.as_deref(), Some("0:02:48"));
    assert_eq!(g.moves[12].comment.as_deref(), Some("White wins by checkmate."));
    assert_eq!(g.result, "1-0");
    let game = g.replay().unwrap();
    assert!(matches!(game.status(), Status::Over(e) if e.reason == "checkmate"));
}

#[test]
fn reads_repetitions_chess960_and_set_up_positions() {
    let mut games = games();
    let bullet = games.remove(1).unwrap();
    assert_eq!(
        ucis(&bullet),
        ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]
    );
    assert_eq!(bullet.result, "1/2-1/2");
    let game = bullet.replay().unwrap();
    assert_eq!(
        game.claimable_draw().map(|e| e.reason).as_deref(),
        Some("threefold_repetition")
    );

    let c960 = games.remove(1).unwrap();
    assert_eq!(c960.variant, Variant::Chess960);
    assert_eq!(
        c960.start_fen,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    assert_eq!(
        ucis(&c960),
        [
            "g2g3", "g7g6", "d1e3", "d8e6", "e1f3", "e8f6", "c2c3", "c7c6", "c1c2", "c8c7", "g1f1", "g8f8",
            "d2d4", "d7d5", "h2h4", "h7h5", "f3g5", "f6g4", "e3g4", "h5g4", "g5e6", "f7e6", "c2g6", "c7g3"
        ]
    );
    assert_eq!(c960.moves[10].san, "O-O-O");
    assert_eq!(c960.result, "0-1");
    assert_eq!(
        c960.replay().unwrap().fen(),
        "bbkr3r/pp2p3/2p1p1Q1/3p4/3P2pP/2P3q1/PP2PP2/BBKR3R w - - 0 13"
    );

    let study = games.remove(1).unwrap();
    assert_eq!(study.start_fen, "4k3/1P6/8/3pP3/8/8/7P/4K3 w - d6 0 41");
    assert_eq!(sans(&study), ["exd6", "Kd7", "b8=N+", "Kxd6", "Nc6", "Kxc6"]);
    assert_eq!(ucis(&study)[2], "b7b8n");
    assert_eq!(study.result, "*");
    assert_eq!(study.replay().unwrap().fen(), "8/8/2k5/8/8/8/7P/4K3 w - - 0 44");
    // Without the h-pawn, 42... Kxd6 leaves a dead position (K+N v K): PGN
    // reads on, but a refereed replay stops there (FIDE Laws 5.2.2).
    let dead = read_pgn(&write_pgn(&study).replace("7P/4K3", "8/4K3"))
        .remove(0)
        .unwrap();
    assert_eq!(dead.moves.len(), 6);
    assert_eq!(dead.replay().unwrap_err(), game::GameError::GameOver);

    let last = games.remove(2).unwrap();
    assert_eq!(last.tag("Event"), Some("After the broken one"));
    assert_eq!(sans(&last), ["e4", "f5", "exf5", "g5", "Qh5#"]);
    assert_eq!(
        last.moves[0].clock.as_deref(),
        Some("0:00:59.9"),
        "chess.com writes {{[%clk …]}}"
    );
}

#[test]
fn an_illegal_move_names_the_game_and_ply_and_reading_goes_on() {
    let games = games();
    let err = games[4].clone().unwrap_err();
    assert_eq!(err.index, 4);
    assert_eq!(err.ply, Some(9));
    assert_eq!(err.text.as_deref(), Some("Ke3"));
    assert_eq!(
        err.to_string(),
        "game 5, ply 9 (\"Ke3\"): no legal move in this position matches it"
    );
    assert!(games[5].is_ok(), "the next game is read");

    let bad = |pgn: &str| read_pgn(pgn).remove(0).unwrap_err();
    let e = bad("[Variant \"Crazyhouse\"]\n\n1. e4 *\n");
    assert!(e.reason.contains("only standard chess and Chess960"), "{e}");
    let e = bad("[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n");
    assert!(
        e.reason.contains("bad FEN tag") && e.reason.contains("no king"),
        "{e}"
    );
    let e = bad("1. e4 e5 2. Zz9 *");
    assert_eq!((e.ply, e.text.as_deref()), (Some(3), Some("Zz9")));
    assert!(e.reason.contains("expected SAN"), "{e}");
    let e = bad("[Event \"unterminated]\n1. e4 *");
    assert!(e.reason.contains("tag pair"), "{e}");
    // A file header comment is not a game.
    assert_eq!(
        read_pgn("; exported by qiju\n{ header }\n[Event \"x\"]\n\n1. e4 *\n").len(),
        1
    );
    // A bad tag among good ones spoils its game only.
    let games = read_pgn("[Event \"a\"]\n[Site b]\n[Date \"c\"]\n\n1. e4 *\n\n[Event \"d\"]\n\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].as_ref().unwrap_err().text.as_deref(), Some("[Site b]"));
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("d"));
}

#[test]
fn writes_the_seven_tag_roster_and_wraps_at_80_columns() {
    let last = read_pgn(FIXTURE).remove(5).unwrap();
    assert_eq!(
        write_pgn(&last),
        "[Event \"After the broken one\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n\
         1. e4 { [%clk 0:00:59.9] } 1... f5 2. exf5 g5 3. Qh5# 1-0\n"
    );
    let study = read_pgn(FIXTURE).remove(3).unwrap();
    let text = write_pgn(&study);
    assert!(
        text.contains(
            "[SetUp \"1\"]\n[FEN \"4k3/1P6/8/3pP3/8/8/7P/4K3 w - d6 0 41\"]\n\n41. exd6 Kd7 42. b8=N+"
        ),
        "{text}"
    );
    let c960 = read_pgn(FIXTURE).remove(2).unwrap();
    assert!(write_pgn(&c960).contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/"));
    for record in read_pgn(FIXTURE).into_iter().flatten() {
        for line in write_pgn(&record).lines() {
            assert!(line.chars().count() <= 80, "{line:?} is longer than 80 columns");
        }
    }
}

#[test]
fn write_read_write_is_identical() {
    let records: Vec<ChessRecord> = read_pgn(FIXTURE).into_iter().flatten().collect();
    assert_eq!(records.len(), 5);
    for record in &records {
        let first = write_pgn(record);
        let again = read_pgn(&first);
        assert_eq!(again.len(), 1, "{first}");
        let again = again
            .into_iter()
            .next()
            .unwrap()
            .unwrap_or_else(|e| panic!("{e}\n{first}"));
        assert_eq!(again.moves, record.moves);
        assert_eq!(
            (&again.start_fen, again.variant, &again.result),
            (&record.start_fen, record.variant, &record.result)
        );
        assert_eq!(write_pgn(&again), first);
    }
    // A whole file: games joined by empty lines.
    let file: Vec<String> = records.iter().map(write_pgn).collect();
    let file = file.join("\n");
    let back: Vec<ChessRecord> = read_pgn(&file).into_iter().map(Result::unwrap).collect();
    assert_eq!(back.iter().map(write_pgn).collect::<Vec<_>>().join("\n"), file);
}

#[test]
fn records_a_played_game_from_black_to_move() {
    let mut game = ChessGame::new("4k3/8/8/8/8/8/4p3/R3K3 b Q - 3 30", Variant::Standard).unwrap();
    for m in ["e8d7", "e1e2", "d7c6", "e1c1"] {
        let _ = game.play(m);
    }
    assert_eq!(
        game.history().len(),
        3,
        "castling is gone once the king has moved"
    );
    let record = ChessRecord::from_game(&game, vec![("White".into(), "Ann".into())], "*");
    let text = write_pgn(&record);
    assert!(text.contains("[White \"Ann\"]"));
    assert!(text.ends_with("\n\n30... Kd7 31. Kxe2 Kc6 *\n"), "{text}");
    let back = read_pgn(&text).remove(0).unwrap();
    assert_eq!(back.replay().unwrap().fen(), game.fen());
}
