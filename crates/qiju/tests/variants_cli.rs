//! `qiju perft|moves --game minixiangqi|manchu|janggi` and `qiju serve
//! --variants` (issue 27, items 2 and 8), run as the built binary. The FENs
//! are the ones Fairy-Stockfish writes, and the counts its (pyffish 0.0.90,
//! counted by walking `legal_moves`; crates/variants/tests/fsf_diff.rs does
//! the same on 500 positions of each).

mod common;

use common::{free_port, qiju, start_with, unique, Http};

/// The number on the last line of a perft answer.
fn last_count(out: &str) -> u64 {
    out.lines().last().unwrap().trim().parse().unwrap()
}

fn perft(game: &str, fen: &str, depth: u32) -> u64 {
    let (rc, out, err) = qiju(&[
        "perft",
        "--game",
        game,
        "--fen",
        fen,
        "--depth",
        &depth.to_string(),
    ]);
    assert_eq!(rc, 0, "{err}");
    last_count(&out)
}

#[test]
fn perft_counts_are_fairy_stockfishs() {
    let janggi = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    assert_eq!(perft("janggi", janggi, 3), 33_000);
    assert_eq!(perft("janggi", "startpos", 3), 33_000);
    // After b1c3 h10g8 e4f4 c7c6 c1e4 e9e9 (a pass), as pyffish's get_fen writes it.
    let middle = "rnba1ab1r/4k4/1c4nc1/p3p1p1p/2p6/9/P1P1BPP1P/1CN4C1/4K4/R2A1ABNR w - - 6 4";
    assert_eq!(perft("variants/janggi", middle, 2), 1359);
    assert_eq!(perft("manchu", "startpos", 3), 17_648);
    // After a1a7 b10c8 a7a10: the banner took a pawn as a cannon and a rook as a rook.
    assert_eq!(
        perft(
            "manchu",
            "M1bakabnr/9/1cn4c1/2p1p1p1p/9/9/P1P1P1P1P/9/9/2BAKAB2 b - - 0 2",
            2
        ),
        799
    );
    assert_eq!(perft("minixiangqi", "startpos", 3), 6664);
    // --divide: one row per legal move, then the total.
    let (rc, out, err) = qiju(&["perft", "--game", "manchu", "--depth", "2", "--divide"]);
    assert_eq!(rc, 0, "{err}");
    let (rows, total) = out.split_once("\n\n").expect("a blank line before the total");
    assert_eq!((rows.lines().count(), last_count(total)), (18, 860));
    // A bad FEN is refused in words, with exit code 2.
    let (rc, _, err) = qiju(&["perft", "--game", "janggi", "--fen", "9/9/9 w", "--depth", "1"]);
    assert_eq!(rc, 2, "{err}");
    assert!(
        err.contains("bad FEN") && err.contains("the board has 10"),
        "{err}"
    );
}

#[test]
fn moves_are_iccs_with_janggis_pass() {
    let (rc, out, err) = qiju(&["moves", "--game", "janggi", "--fen", "startpos"]);
    assert_eq!(rc, 0, "{err}");
    let moves: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(moves.len(), 32);
    assert!(moves.contains(&"e1e1") && moves.contains(&"b0c2"), "{moves:?}");
    // Kings facing (bikjang): break it or pass; the rook may not move.
    let (rc, out, err) = qiju(&[
        "moves",
        "--game",
        "janggi",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/4K3R w - - 0 1",
    ]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        out.split_whitespace().collect::<Vec<_>>(),
        ["e0d0", "e0e0", "e0f0"]
    );
    let (rc, out, err) = qiju(&["moves", "--game", "manchu", "--fen", "startpos"]);
    assert_eq!(rc, 0, "{err}");
    let banner: Vec<&str> = out.split_whitespace().filter(|m| m.starts_with("a0")).collect();
    assert_eq!(banner, ["a0a1", "a0a2", "a0a6", "a0b0", "a0b2", "a0c1"]);
    // 升级象棋's FEN extension: `+P`, a pawn promoted by a capture, steps
    // sideways before the river.
    let (rc, out, err) = qiju(&[
        "moves",
        "--game",
        "shengji",
        "--fen",
        "3k5/9/9/9/9/9/6+P2/9/9/5K3 w - - 0 1",
    ]);
    assert_eq!(rc, 0, "{err}");
    let pawn: Vec<&str> = out.split_whitespace().filter(|m| m.starts_with("g3")).collect();
    assert_eq!(pawn, ["g3f3", "g3g4", "g3h3"]);
}

/// A variant an operator wrote: minixiangqi renamed, its rooks turned into
/// one-step kings' men — any change shows that the server plays the file.
const OPERATORS_FILE: &str = r#"
name = "tinyxiangqi"
description = "An operator's variant: minixiangqi whose rooks step."
start = "rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1"
[board]
files = 7
ranks = 7
[regions]
palace = { files = "c-e", ranks = "0-2" }
[rules]
flying_general = true
[[pieces]]
name = "king"
letter = "k"
royal = true
moves = [{ kind = "step", dirs = ["orthogonal"], to = "palace" }]
[[pieces]]
name = "horse"
letter = "n"
moves = [{ kind = "leap", dirs = [[1, 2]], symmetry = "all", lame = true }]
[[pieces]]
name = "rook"
letter = "r"
moves = [{ kind = "step", dirs = ["orthogonal", "diagonal"] }]
[[pieces]]
name = "cannon"
letter = "c"
moves = [
  { kind = "slide", dirs = ["orthogonal"], mode = "move" },
  { kind = "hop", dirs = ["orthogonal"], mode = "capture" },
]
[[pieces]]
name = "pawn"
letter = "p"
moves = [{ kind = "step", dirs = ["forward", "sideways"] }]
"#;

#[test]
fn serve_loads_variant_files_and_refuses_a_bad_one() {
    let dir = std::env::temp_dir().join(unique("qiju-variants-"));
    std::fs::create_dir_all(dir.join("more")).unwrap();
    let good = dir.join("more/tiny.toml");
    std::fs::write(&good, OPERATORS_FILE).unwrap();
    // A misspelt region: refused at start with the path, the line and the reason.
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, OPERATORS_FILE.replace("to = \"palace\"", "to = \"palce\"")).unwrap();
    let db = format!("sqlite://{}", dir.join("qiju.db").display());
    let (rc, _, err) = qiju(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--database",
        &db,
        "--variants",
        bad.to_str().unwrap(),
    ]);
    assert_ne!(rc, 0);
    assert!(
        err.contains(&format!(
            "{}: line 16: unknown region `palce` (the file defines: palace)",
            bad.display()
        )),
        "{err}"
    );
    // A name already taken is refused too.
    let janggi = dir.join("janggi.toml");
    std::fs::write(&janggi, variants::JANGGI_TOML).unwrap();
    let (rc, _, err) = qiju(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--database",
        &db,
        "--variants",
        janggi.to_str().unwrap(),
    ]);
    assert_ne!(rc, 0);
    assert!(
        err.contains("variant `janggi` is already a game or variant"),
        "{err}"
    );

    // perft and moves know the operator's file too, under its name.
    let (rc, out, err) = qiju(&[
        "moves",
        "--variants",
        good.to_str().unwrap(),
        "--game",
        "tinyxiangqi",
    ]);
    assert_eq!(rc, 0, "{err}");
    assert!(
        out.split_whitespace().any(|m| m == "a0b1"),
        "its rook steps diagonally: {out}"
    );
    let count = out.split_whitespace().count() as u64;
    let (rc, out, err) = qiju(&[
        "perft",
        "--variants",
        good.to_str().unwrap(),
        "--game",
        "tinyxiangqi",
        "--depth",
        "1",
    ]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(last_count(&out), count);
    let (rc, _, err) = qiju(&[
        "perft",
        "--variants",
        bad.to_str().unwrap(),
        "--game",
        "tinyxiangqi",
        "--depth",
        "1",
    ]);
    assert_eq!(rc, 2);
    assert!(err.contains("line 16: unknown region"), "{err}");

    // A directory of files: served beside the built-in games.
    let port = free_port();
    let mut child = start_with(
        &db,
        port,
        "main",
        &["--variants", dir.join("more").to_str().unwrap()],
    );
    let http = Http {
        addr: format!("127.0.0.1:{port}"),
    };
    let r = http.request("GET", "/api/info", None, None);
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(r.status, 200, "{}", r.body);
    let info: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    let variants = info["variants"].as_array().unwrap();
    let find = |id: &str| {
        variants
            .iter()
            .find(|v| v["id"] == id)
            .unwrap_or_else(|| panic!("no {id} in {info}"))
    };
    let tiny = find("variants/tinyxiangqi");
    assert_eq!(tiny["aliases"][0], "tinyxiangqi");
    assert_eq!(tiny["board"]["files"], 7);
    assert_eq!(tiny["rating_pool"], "tinyxiangqi");
    assert_eq!(
        tiny["start"]["fen"],
        "rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1"
    );
    for shipped in [
        "variants/minixiangqi",
        "variants/manchu",
        "variants/janggi",
        "xiangqi/cxa",
    ] {
        find(shipped);
    }
}
