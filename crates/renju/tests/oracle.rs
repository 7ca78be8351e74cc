//! Differential test against PyPI `renju` (`pip install renju==0.1.0`), a
//! port of the Piskvork judge's forbidden-move check
//! (`renju.check_forbid.get_foul_type`), on seeded random boards.
//!
//! For every board, the forbidden points and their kinds must be the same.
//! The boards are dense patches of stones around the centre and random
//! games (see `common/mod.rs`); besides those, the series is topped up with
//! boards on which the recursive three rule decides at least one point
//! (a three whose straight-four points are all forbidden, or make five,
//! is no three) until at least 500 such boards are in, so that the rule is
//! compared where it changes the answer.
//!
//! Without the oracle the test says so loudly and passes, unless
//! `QIJU_REQUIRE_ORACLES=1` (as in CI), where it fails.

mod common;

use common::{board_line, position, recursive_cases, Rng};
use renju::{Board, ForbiddenPoints};
use std::io::Write;
use std::process::{Command, Stdio};

fn python() -> String {
    std::env::var("QIJU_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

fn oracle_available() -> bool {
    Command::new(python())
        .args(["-c", "import renju.check_forbid"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Our forbidden points of a board, in the oracle's output format.
fn ours(board: &Board) -> String {
    ForbiddenPoints::of(board)
        .iter()
        .map(|(p, f)| format!("{p}:{f}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn pypi_renju_agrees() {
    if !oracle_available() {
        let required = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "QIJU_REQUIRE_ORACLES=1 but `{} -c 'import renju.check_forbid'` fails: pip install renju==0.1.0",
            python()
        );
        eprintln!("\n*** SKIPPED renju oracle: PyPI renju is not importable ***");
        eprintln!("*** install it with `pip install renju==0.1.0`, or set QIJU_PYTHON ***\n");
        return;
    }
    // QIJU_RENJU_POSITIONS=N compares N random boards instead of 2,000.
    let target: usize = std::env::var("QIJU_RENJU_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let want_recursive = (target / 4).min(500);
    let mut rng = Rng(0x0000_05ee_d001);
    let mut boards: Vec<Board> = (0..target).map(|i| position(&mut rng, i)).collect();
    let mut recursive_boards = boards.iter().filter(|b| !recursive_cases(b).is_empty()).count();
    let mut i = target;
    while recursive_boards < want_recursive {
        let b = position(&mut rng, i);
        i += 1;
        if !recursive_cases(&b).is_empty() {
            recursive_boards += 1;
            boards.push(b);
        }
    }
    let recursive_points: usize = boards.iter().map(|b| recursive_cases(b).len()).sum();

    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/renju_oracle.py");
    let mut child = Command::new(python())
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the oracle");
    let input: String = boards.iter().map(|b| board_line(b) + "\n").collect();
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("oracle output");
    writer.join().expect("writer").expect("write boards");
    assert!(out.status.success(), "the oracle failed");
    let answers: Vec<&str> = std::str::from_utf8(&out.stdout).expect("utf-8").lines().collect();
    assert_eq!(answers.len(), boards.len(), "one answer per board");

    let mut kinds = [0usize; 3];
    let mut mismatches = Vec::new();
    for (i, (board, theirs)) in boards.iter().zip(&answers).enumerate() {
        let mine = ours(board);
        if mine != theirs.trim() {
            mismatches.push(format!("board {i}:{board:?}ours:   {mine}\npiskvork: {theirs}"));
        }
        for (_, f) in ForbiddenPoints::of(board).iter() {
            kinds[f as usize] += 1;
        }
    }
    eprintln!(
        "renju oracle: {} boards ({} on which the recursive three decides, {} such points); \
         forbidden points compared: {} overline, {} double-four, {} double-three; {} mismatches",
        boards.len(),
        recursive_boards,
        recursive_points,
        kinds[0],
        kinds[1],
        kinds[2],
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} boards differ; the first:\n{}",
        mismatches.len(),
        mismatches[0]
    );
    assert!(recursive_boards >= want_recursive);
}
