//! `qiju perft|moves|bench|pgn --game chess`: the chess side of the command
//! line, run as the built binary. Counts are the chessprogramming.org
//! perft tables'.

mod common;

use common::qiju;

/// Kiwipete, position 2 of the chessprogramming.org perft tables.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The number on the last line of a perft answer.
fn last_count(out: &str) -> u64 {
    out.lines().last().unwrap().trim().parse().unwrap()
}

#[test]
fn perft_counts_match_the_published_tables() {
    let (rc, out, err) = qiju(&["perft", "--game", "chess", "--fen", "startpos", "--depth", "3"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(last_count(&out), 8902);
    let (rc, out, err) = qiju(&["perft", "--game", "chess", "--fen", KIWIPETE, "--depth", "2"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(last_count(&out), 2039);
    // Chess960 counts the same moves; aliases resolve through the registry.
    let (rc, out, err) = qiju(&[
        "perft",
        "--game",
        "fischerandom",
        "--fen",
        KIWIPETE,
        "--depth",
        "2",
    ]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(last_count(&out), 2039);
}

#[test]
fn divide_lines_sum_to_the_total() {
    let (rc, out, err) = qiju(&[
        "perft", "--game", "chess", "--fen", KIWIPETE, "--depth", "2", "--divide",
    ]);
    assert_eq!(rc, 0, "{err}");
    let (rows, total) = out.split_once("\n\n").expect("a blank line before the total");
    let mut moves = Vec::new();
    let mut sum = 0;
    for line in rows.lines() {
        let (m, n) = line.split_once(": ").unwrap();
        moves.push(m);
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(moves.len(), 48);
    assert!(moves.windows(2).all(|w| w[0] < w[1]), "sorted: {moves:?}");
    assert!(
        moves.contains(&"e1g1") && moves.contains(&"e1c1"),
        "castling in UCI"
    );
    assert_eq!(sum, 2039);
    assert_eq!(total.trim().parse::<u64>().unwrap(), 2039);
}

#[test]
fn moves_of_the_start_position_are_the_twenty_in_uci() {
    let (rc, out, err) = qiju(&["moves", "--game", "chess", "--fen", "startpos"]);
    assert_eq!(rc, 0, "{err}");
    let expected = "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 \
                    f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4";
    assert_eq!(out.split_whitespace().collect::<Vec<_>>().join(" "), expected);
    assert_eq!(out.lines().count(), 20);
    // Chess960 castles king-takes-rook.
    let fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
    let (rc, out, err) = qiju(&["moves", "--game", "chess960", "--fen", fen]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        out.lines().any(|m| m == "e1g1") && out.lines().any(|m| m == "e1b1"),
        "{out}"
    );
}

#[test]
fn a_bad_fen_exits_2_saying_what_is_wrong() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1";
    for cmd in [&["perft", "--depth", "1"][..], &["moves"]] {
        let (rc, out, err) = qiju(&[cmd, &["--game", "chess", "--fen", fen]].concat());
        assert_eq!(rc, 2, "{cmd:?}: {out}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("bad FEN") && err.contains("FEN rank 1"), "{err}");
    }
}

#[test]
fn an_unknown_game_is_refused() {
    let (rc, out, err) = qiju(&["perft", "--game", "go", "--depth", "1"]);
    assert_eq!(rc, 2, "{out}");
    assert!(err.contains("no game \"go\""), "{err}");
    let (rc, _, err) = qiju(&["moves", "--game", "go"]);
    assert_eq!(rc, 2, "{err}");
    let (rc, _, err) = qiju(&["pgn", "check", "--game", "go", &data("chess-games.pgn")]);
    assert_eq!(rc, 2, "{err}");
}

#[test]
fn xiangqi_stays_the_default() {
    let (rc, out, err) = qiju(&["perft", "--depth", "2"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(last_count(&out), 1920);
    let (_, with_flag, _) = qiju(&["perft", "--game", "xiangqi", "--depth", "2"]);
    assert_eq!(with_flag, out);
    let (_, moves, _) = qiju(&["moves"]);
    assert_eq!(moves.lines().count(), 44);
}

#[test]
fn pgn_check_of_chess_games() {
    // Told by --game, or by the tags (White/Black players, a Chess960 variant).
    for args in [
        &["pgn", "check", "--game", "chess"][..],
        &["pgn", "--game", "chess", "check"],
        &["pgn", "check"],
    ] {
        let file = data("chess-games.pgn");
        let (rc, out, err) = qiju(&[args, &[file.as_str()]].concat());
        assert_eq!(rc, 0, "{args:?}: {out}{err}");
        assert!(
            out.contains("2 games, 2 replay cleanly, 0 with problems"),
            "{out}"
        );
    }
    // As for Xiangqi: problems on stdout naming the game and the ply, exit 1.
    let (rc, out, _) = qiju(&["pgn", "check", &data("chess-illegal.pgn")]);
    assert_eq!(rc, 1, "{out}");
    assert!(out.contains("game 2, ply 5 (\"Bc1\"): "), "{out}");
    assert!(
        out.contains("2 games, 1 replay cleanly, 1 with problems"),
        "{out}"
    );
}

#[test]
fn pgn_convert_of_chess_games_is_normalised_pgn() {
    let (rc, out, err) = qiju(&["pgn", "convert", &data("chess-games.pgn")]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.starts_with("[Event \"Casual game\"]\n"), "{out}");
    assert!(out.contains("[Variant \"Chess960\"]"), "{out}");
    assert!(out.contains("1. O-O O-O-O 2. d4 d5 *"), "{out}");
    // Converting the converted file gives it back.
    let path = std::env::temp_dir().join(format!("qiju-chess-{}.pgn", std::process::id()));
    std::fs::write(&path, &out).unwrap();
    let (rc, again, err) = qiju(&["pgn", "convert", "--to", "san", path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert_eq!(rc, 0, "{err}");
    assert_eq!(again, out);
    // A game that does not replay is left out, with exit 1.
    let (rc, out, err) = qiju(&["pgn", "convert", &data("chess-illegal.pgn")]);
    assert_eq!(rc, 1);
    assert!(
        err.contains("game 2, ply 5") && err.contains("(left out)"),
        "{err}"
    );
    assert_eq!(out.matches("[Event ").count(), 1, "{out}");
}

#[test]
fn xiangqi_notations_are_refused_for_chess() {
    let (rc, out, err) = qiju(&["pgn", "convert", "--to", "chinese", &data("chess-games.pgn")]);
    assert_eq!(rc, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("--to chinese is a Xiangqi notation"), "{err}");
}

#[test]
fn bench_checks_kiwipete_against_the_published_count() {
    let (rc, out, err) = qiju(&["bench", "--game", "chess", "--depth", "3"]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.starts_with("qiju     perft(3)        97862 nodes"), "{out}");
    assert!(out.contains(KIWIPETE), "{out}");
}
