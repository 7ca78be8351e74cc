//! `qiju pgn check` and `qiju pgn convert` on the record crate's files.

mod common;

use common::qiju;

fn data(name: &str) -> String {
    format!("{}/../record/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn check_exit_codes() {
    let (rc, out, _) = qiju(&["pgn", "check", &data("selfplay-1000.pgn")]);
    assert_eq!(rc, 0, "{out}");
    assert!(
        out.contains("1000 games, 1000 replay cleanly, 0 with problems"),
        "{out}"
    );
    let (rc, out, _) = qiju(&["pgn", "check", &data("malformed/illegal-move.pgn")]);
    assert_eq!(rc, 1);
    assert!(
        out.contains("game 2, move 2. \"a0a5\" (line 13): illegal"),
        "{out}"
    );
    let (rc, _, err) = qiju(&["pgn", "check", &data("no-such-file.pgn")]);
    assert_eq!(rc, 2, "{err}");
}

#[test]
fn convert_then_check_is_clean_and_keeps_the_moves() {
    let dir = std::env::temp_dir().join(format!("qiju-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut previous = None;
    for to in ["chinese", "wxf", "iccs"] {
        let (rc, out, err) = qiju(&["pgn", "convert", "--to", to, &data("selfplay-1000.pgn")]);
        assert_eq!(rc, 0, "{err}");
        let path = dir.join(format!("{to}.pgn"));
        std::fs::write(&path, &out).unwrap();
        let (rc, check, _) = qiju(&["pgn", "check", path.to_str().unwrap()]);
        assert_eq!(rc, 0, "{check}");
        // Converting the converted file back to ICCS gives the same ICCS file.
        let (_, iccs, _) = qiju(&["pgn", "convert", "--to", "iccs", path.to_str().unwrap()]);
        if let Some(p) = &previous {
            assert_eq!(&iccs, p);
        }
        previous = Some(iccs);
    }
    std::fs::remove_dir_all(&dir).ok();
}
