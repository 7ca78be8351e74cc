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
//! A second test plays seeded random games under `gomoku/freestyle`,
//! `gomoku/standard` and `renju/rif` and has PyPI renju's `RenjuBoard`
//! replay them: the game must end after the same move, with the same winner
//! and reason.
//!
//! Without the oracle the tests say so loudly and pass, unless
//! `QIJU_REQUIRE_ORACLES=1` (as in CI), where they fail.

mod common;

use common::{board_line, position, recursive_cases, Rng};
use renju::{Board, Color, End, Forbidden, ForbiddenPoints, Point, Position, Reason, Rules};
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

/// Whether to run: false (after saying so) when the oracle is missing and
/// not required.
fn oracle_here() -> bool {
    if !oracle_available() {
        let required = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "QIJU_REQUIRE_ORACLES=1 but `{} -c 'import renju.check_forbid'` fails: pip install renju==0.1.0",
            python()
        );
        eprintln!("\n*** SKIPPED renju oracle: PyPI renju is not importable ***");
        eprintln!("*** install it with `pip install renju==0.1.0`, or set QIJU_PYTHON ***\n");
        return false;
    }
    true
}

/// Runs an oracle script on `input`, one answer line per input line.
fn ask(script: &str, input: String) -> Vec<String> {
    let script = format!("{}/tests/{script}", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new(python())
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the oracle");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("oracle output");
    writer.join().expect("writer").expect("write to the oracle");
    assert!(out.status.success(), "the oracle failed");
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn pypi_renju_agrees() {
    if !oracle_here() {
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

    let input: String = boards.iter().map(|b| board_line(b) + "\n").collect();
    let answers = ask("renju_oracle.py", input);
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

/// A random game under `rules` to its end (or 120 moves): each stone near
/// the earlier ones, so rows and forbidden shapes form often.
fn random_game(rng: &mut Rng, rules: Rules) -> (Vec<Point>, Option<End>) {
    let mut pos = Position::new(rules);
    let mut moves = Vec::new();
    let mut end = None;
    while end.is_none() && moves.len() < 120 {
        let legal = pos.legal_moves();
        let near: Vec<Point> = legal
            .iter()
            .copied()
            .filter(|p| {
                (-2..=2).any(|dc| {
                    (-2..=2).any(|dr| p.offset(dc, dr).is_some_and(|q| !pos.board().is_empty_at(q)))
                })
            })
            .collect();
        let from = if near.is_empty() { &legal } else { &near };
        let p = from[rng.below(from.len())];
        end = pos.play(p).expect("a legal point");
        moves.push(p);
    }
    (moves, end)
}

/// The oracle's words for an ending.
fn their_words(end: Option<End>) -> String {
    let Some(end) = end else {
        return "ONGOING normal".to_owned();
    };
    let status = match end.winner {
        Some(Color::Black) => "BLACK_WIN",
        Some(Color::White) => "WHITE_WIN",
        None => "DRAW",
    };
    let reason = match end.reason {
        Reason::Five | Reason::Overline => "five_in_a_row",
        Reason::Foul(Forbidden::Overline) => "overline",
        Reason::Foul(Forbidden::DoubleFour) => "double_four",
        Reason::Foul(Forbidden::DoubleThree) => "double_three",
        Reason::FullBoard => "draw",
    };
    format!("{status} {reason}")
}

#[test]
fn pypi_renju_ends_games_alike() {
    if !oracle_here() {
        return;
    }
    let mut rng = Rng(0x0000_9a3e_2026);
    let mut games = Vec::new();
    for (name, rules) in [
        ("freestyle", Rules::FREESTYLE),
        ("standard", Rules::STANDARD),
        ("renju", Rules::RIF),
    ] {
        for _ in 0..200 {
            let (moves, end) = random_game(&mut rng, rules);
            games.push((name, moves, end));
        }
    }
    let input: String = games
        .iter()
        .map(|(name, moves, _)| format!("{name} {}\n", renju::record::format_moves(moves)))
        .collect();
    let answers = ask("renju_games.py", input);
    assert_eq!(answers.len(), games.len());
    let mut reasons = std::collections::BTreeMap::new();
    for ((name, moves, end), theirs) in games.iter().zip(&answers) {
        let ended = if end.is_some() { moves.len() } else { 0 };
        let ours = format!("{ended} {}", their_words(*end));
        assert_eq!(&ours, theirs, "{name}: {}", renju::record::format_moves(moves));
        *reasons
            .entry(format!("{name} {}", their_words(*end)))
            .or_insert(0) += 1;
    }
    eprintln!(
        "renju oracle, game endings: {} games agree: {reasons:?}",
        games.len()
    );
    assert!(reasons.keys().any(|k| k.contains("double_three")));
    assert!(reasons.keys().any(|k| k.contains("double_four")));
}
