//! `qiju perft|moves|bench|kifu --game shogi`: the shogi side of the
//! command line, run as the built binary. Counts are the published ones.

mod common;

use common::qiju;

/// The "祭り" (matsuri) middlegame: drops, promotions and checks.
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The number on the last line of a perft answer.
fn last_count(out: &str) -> u64 {
    out.lines().last().unwrap().trim().parse().unwrap()
}

#[test]
fn perft_counts_match_the_published_ones() {
    let (rc, out, err) = qiju(&["perft", "--game", "shogi", "--fen", "startpos", "--depth", "4"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(last_count(&out), 719_731);
    let (rc, out, err) = qiju(&["perft", "--game", "shogi", "--fen", MATSURI, "--depth", "2"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(last_count(&out), 28_684);
    let (rc, out, err) = qiju(&[
        "perft", "--game", "shogi", "--fen", MATSURI, "--depth", "2", "--divide",
    ]);
    assert_eq!(rc, 0, "{err}");
    let (rows, total) = out.split_once("\n\n").expect("a blank line before the total");
    assert_eq!(rows.lines().count(), 207);
    let sum: u64 = rows
        .lines()
        .map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!((sum, total.trim().parse::<u64>().unwrap()), (28_684, 28_684));
    // A bad SFEN is refused in words, with exit code 2.
    let (rc, _, err) = qiju(&["perft", "--game", "shogi", "--fen", "9/9/9 b - 1", "--depth", "1"]);
    assert_eq!(rc, 2);
    assert!(err.contains("bad SFEN") && err.contains("3 ranks"), "{err}");
}

#[test]
fn moves_in_usi() {
    let (rc, out, err) = qiju(&["moves", "--game", "shogi", "--fen", "startpos"]);
    assert_eq!(rc, 0, "{err}");
    let moves: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(moves.len(), 30);
    assert!(moves.contains(&"7g7f") && moves.contains(&"5i5h"));
    // Drops and promotions: sente holds a pawn; the silver on 2d may
    // promote or not going into the zone.
    let (rc, out, err) = qiju(&[
        "moves",
        "--game",
        "shogi",
        "--fen",
        "4k4/9/9/7S1/9/9/9/9/4K4 b P 1",
    ]);
    assert_eq!(rc, 0, "{err}");
    let moves: Vec<&str> = out.split_whitespace().collect();
    assert!(moves.contains(&"P*5e") && !moves.contains(&"P*5a"), "{moves:?}");
    assert!(moves.contains(&"2d2c") && moves.contains(&"2d2c+"), "{moves:?}");
}

#[test]
fn kifu_check_and_convert() {
    let (rc, out, err) = qiju(&["kifu", "check", &data("shogi-game.kif")]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        out.contains("KIF, even game (平手), 5 moves, ended by resignation (投了)"),
        "{out}"
    );
    // Malformed: the file and line of the fault, exit 1.
    let (rc, _, err) = qiju(&["kifu", "check", &data("shogi-illegal.kif")]);
    assert_eq!(rc, 1);
    assert!(
        err.contains("shogi-illegal.kif:9:") && err.contains("2b is occupied"),
        "{err}"
    );
    // KIF → CSA → KIF keeps the game.
    let (rc, csa, err) = qiju(&["kifu", "convert", "--to", "csa", &data("shogi-game.kif")]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        csa.contains("N+先手さん\n") && csa.contains("$EVENT:qiju test\n"),
        "{csa}"
    );
    assert!(
        csa.contains("+8822UM\nT3\n-3122GI\nT1\n+0045KA\nT60\n%TORYO"),
        "{csa}"
    );
    let dir = std::env::temp_dir().join(format!("qiju-kifu-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.csa");
    std::fs::write(&path, &csa).unwrap();
    let (rc, kif, err) = qiju(&["kifu", "convert", "--to", "kif", path.to_str().unwrap()]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        kif.contains("   4 同　銀(31)") && kif.contains("   5 ４五角打"),
        "{kif}"
    );
    assert!(
        kif.contains("棋戦：qiju test\n") && kif.contains("( 1:00/00:01:08)"),
        "{kif}"
    );
    let (rc, usi, err) = qiju(&["kifu", "convert", "--to", "usi", path.to_str().unwrap()]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        usi.trim(),
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d 8h2b+ 3a2b B*4e"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_runs_with_or_without_the_anchor() {
    let (rc, out, err) = qiju(&["bench", "--game", "shogi", "--depth", "3"]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("perft(3)        25470 nodes"), "{out}");
    assert!(out.contains("4809015 nodes"), "{out}");
    // Fairy-Stockfish, when installed, counts the same 25,470.
    assert!(
        out.contains("ratio qiju/anchor") || out.contains("anchor   none"),
        "{out}"
    );
}
