//! Differential test against python-chess (`pip install chess`), a chess
//! library written independently of shakmaty and of this crate.
//!
//! `oracle.py` plays seeded random playouts — from the start and from
//! perft middlegames, from sparse endgames (mate, stalemate, dead
//! positions, and clocks close to the 50- and 75-move rules), with both
//! sides shuffling back and forth (threefold and fivefold repetition), and
//! from Chess960 starts — and prints every position it reaches. We replay
//! the same moves through [`ChessGame`] and compare, position by position:
//! the FEN, the legal moves in UCI, the SAN of every legal move, check, the
//! automatic ending, the threefold and fifty-move claims, and FIDE 6.9's
//! "cannot win" for each side. The first mismatch fails with the FEN.
//! Where python-chess plays on (it knows dead positions by material only)
//! and we call a locked pawn wall dead, the expectation is not our verdict
//! but an exhaustive walk of every reachable position (`tests/walk`, with
//! shakmaty's move generator): dead only where no pawn move, capture or
//! mate is reachable. Such a game is over for us; python-chess's further
//! moves in it are not compared.
//! It also numbers the 960 Chess960 start positions (Scharnagl), which
//! must match [`chess960_start_fen`].
//!
//! Without python3 or the `chess` module the test says so and passes,
//! unless `QIJU_REQUIRE_ORACLES=1` (as in CI), where it fails.

use chess::shakmaty::Position;
use chess::{chess960_start_fen, legal_uci_moves, parse_uci, san, ChessGame, Variant};
use game::{Game, Side, Status};
use std::collections::BTreeMap;
use std::process::Command;

mod walk;

fn oracle_output() -> Option<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle.py");
    let require = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
    let skip = |why: String| {
        assert!(!require, "QIJU_REQUIRE_ORACLES=1 but {why}");
        eprintln!("SKIPPED chess oracle test: {why} (install with: python3 -m pip install chess)");
        None
    };
    let probe = Command::new("python3").args(["-c", "import chess"]).output();
    match probe {
        Err(e) => return skip(format!("python3 cannot be run: {e}")),
        Ok(o) if !o.status.success() => {
            return skip("the python-chess module `chess` is missing".to_string())
        }
        Ok(_) => {}
    }
    let out = Command::new("python3")
        .arg(script)
        .output()
        .expect("python3 ran a moment ago");
    assert!(
        out.status.success(),
        "oracle.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("oracle output is UTF-8"))
}

/// One position as python-chess describes it.
struct Described<'a> {
    fen: &'a str,
    /// (UCI, SAN), sorted by UCI.
    moves: Vec<(&'a str, &'a str)>,
    check: bool,
    ending: &'a str,
    threefold: bool,
    fifty: bool,
    insufficient: [bool; 2],
}

fn parse_position(line: &str) -> Described<'_> {
    let f: Vec<&str> = line.split('\t').collect();
    assert_eq!(f.len(), 9, "bad oracle line {line:?}");
    let flag = |s: &str| s == "1";
    Described {
        fen: f[1],
        moves: f[2]
            .split_whitespace()
            .map(|pair| pair.split_once(':').expect("uci:san"))
            .collect(),
        check: flag(f[3]),
        ending: f[4],
        threefold: flag(f[5]),
        fifty: flag(f[6]),
        insufficient: [flag(f[7]), flag(f[8])],
    }
}

#[derive(Default)]
struct Tally {
    positions: usize,
    games: usize,
    /// Chess960 start positions compared.
    starts: usize,
    endings: BTreeMap<String, usize>,
    claims: BTreeMap<String, usize>,
    /// Positions python-chess plays on that we call dead, each confirmed
    /// dead by the walk.
    walked_dead: usize,
}

/// Compares our game with python-chess's description of the same position.
/// Returns whether the game is over for us while python-chess plays on (a
/// dead position the walk confirmed).
fn compare(g: &ChessGame, variant: Variant, d: &Described<'_>, tally: &mut Tally) -> bool {
    let fen = d.fen;
    assert_eq!(g.fen(), fen, "FEN differs after {:?}", moves_so_far(g));
    let pos = g.position();
    let ours = legal_uci_moves(pos, variant);
    let theirs: Vec<&str> = d.moves.iter().map(|(u, _)| *u).collect();
    assert_eq!(ours, theirs, "legal moves differ at {fen}");
    for (uci, their_san) in &d.moves {
        let m = parse_uci(pos, variant, uci).unwrap_or_else(|e| panic!("{uci} at {fen}: {e}"));
        assert_eq!(san(pos, m), *their_san, "SAN of {uci} at {fen}");
    }
    assert_eq!(pos.is_check(), d.check, "check at {fen}");

    // python-chess names a dead position before stalemate when both hold
    // (K+B v K, stalemated); we name stalemate first, as shakmaty does —
    // a draw either way (FIDE Laws 5.2.1, 5.2.2).
    let stalemated = ours.is_empty() && !d.check;
    // python-chess knows dead positions by material only; a locked pawn
    // wall (5.2.2) it plays on. Where we call the board dead and it plays
    // on, the exhaustive walk decides: dead only if nothing can happen.
    // (Where we play on too, nothing is claimed: `tests/dead.rs` bounds the
    // dead positions we leave to the players.)
    let ours_dead = matches!(&g.status(), Status::Over(e) if e.reason == "dead_position");
    let walked_dead = (ours_dead || chess::locked_pawns_dead(pos)) && !walk::something_happens(pos);
    let expected = if d.ending == "insufficient_material" && stalemated {
        "stalemate"
    } else if walked_dead && d.ending == "-" {
        "dead_position"
    } else {
        d.ending
    };
    let status = g.status();
    let ending = match &status {
        Status::Over(e) => e.reason.as_str(),
        Status::Ongoing => "-",
        Status::MustChange { .. } => panic!("chess has no must-change rulings: {status:?}"),
    };
    assert_eq!(ending, expected, "ending at {fen}");
    if ending != "-" {
        *tally.endings.entry(ending.to_string()).or_default() += 1;
        assert!(g.legal_moves().is_empty(), "no moves after the end at {fen}");
    } else {
        assert_eq!(g.legal_moves(), ours, "legal moves of an ongoing game at {fen}");
    }

    assert_eq!(g.repetitions() >= 3, d.threefold, "threefold repetition at {fen}");
    let halfmoves = pos.halfmoves();
    assert_eq!(
        halfmoves >= 100 && !ours.is_empty(),
        d.fifty,
        "fifty-move rule at {fen}"
    );
    let claim = g.claimable_draw().map(|e| e.reason);
    let expected_claim = match (ending, d.threefold, d.fifty) {
        ("-", true, _) => Some("threefold_repetition"),
        ("-", false, true) => Some("fifty_moves"),
        _ => None,
    };
    assert_eq!(claim.as_deref(), expected_claim, "claimable draw at {fen}");
    for c in [d.threefold.then_some("threefold"), d.fifty.then_some("fifty")]
        .into_iter()
        .flatten()
    {
        *tally.claims.entry(c.to_string()).or_default() += 1;
    }
    for side in Side::BOTH {
        assert_eq!(
            g.can_win(side),
            !d.insufficient[side.index()] && !walked_dead,
            "can_win({side}) at {fen}"
        );
    }
    tally.positions += 1;
    let over_for_us_only = walked_dead && d.ending == "-";
    tally.walked_dead += usize::from(over_for_us_only);
    over_for_us_only
}

fn moves_so_far(g: &ChessGame) -> Vec<String> {
    g.history().iter().map(|m| m.coord.clone()).collect()
}

#[test]
fn agrees_with_python_chess() {
    let started = std::time::Instant::now();
    let Some(output) = oracle_output() else {
        return;
    };
    let mut tally = Tally::default();
    let mut current: Option<(ChessGame, Variant)> = None;
    let mut last_sans: Vec<(String, String)> = Vec::new();
    // Our game is over at a dead position python-chess plays on: the rest
    // of that playout is python-chess's alone.
    let mut over_for_us = false;
    for line in output.lines() {
        let (kind, rest) = line.split_once('\t').unwrap_or((line, ""));
        if over_for_us && (kind == "P" || kind == "M") {
            continue;
        }
        match kind {
            "G" => {
                let (variant, fen) = rest.split_once('\t').expect("G variant fen");
                let variant = match variant {
                    "standard" => Variant::Standard,
                    "chess960" => Variant::Chess960,
                    v => panic!("unknown variant {v}"),
                };
                let g = ChessGame::new(fen, variant).unwrap_or_else(|e| panic!("{fen}: {e}"));
                current = Some((g, variant));
                over_for_us = false;
                tally.games += 1;
            }
            "P" => {
                let (g, variant) = current.as_ref().expect("a game before its positions");
                let d = parse_position(line);
                over_for_us = compare(g, *variant, &d, &mut tally);
                last_sans = d
                    .moves
                    .iter()
                    .map(|(u, s)| (u.to_string(), s.to_string()))
                    .collect();
            }
            "S" => {
                let (n, fen) = rest.split_once('\t').expect("S number fen");
                let n: u32 = n.parse().expect("a start position number");
                assert_eq!(
                    chess960_start_fen(n).as_deref(),
                    Some(fen),
                    "Chess960 start position {n}"
                );
                tally.starts += 1;
            }
            "M" => {
                let (g, _) = current.as_mut().expect("a game before its moves");
                let fen = g.fen();
                let played = g.play(rest).unwrap_or_else(|e| panic!("{rest} at {fen}: {e}"));
                assert_eq!(played.coord, rest, "normalised UCI at {fen}");
                assert_eq!(played.alt, rest);
                let their_san = last_sans.iter().find(|(u, _)| u == rest).map(|(_, s)| s.as_str());
                assert_eq!(
                    Some(played.display.as_str()),
                    their_san,
                    "SAN of the played {rest} at {fen}"
                );
                assert_eq!(
                    played.check,
                    played.display.ends_with(['+', '#']),
                    "check flag of {rest} at {fen}"
                );
            }
            _ => panic!("bad oracle line {line:?}"),
        }
    }
    println!(
        "compared {} positions of {} games and {} Chess960 starts with python-chess in {:.1?}; endings {:?}; claims {:?}; {} dead positions python-chess plays on, confirmed by the walk",
        tally.positions,
        tally.games,
        tally.starts,
        started.elapsed(),
        tally.endings,
        tally.claims,
        tally.walked_dead
    );
    assert!(
        tally.positions >= 2000,
        "only {} positions compared",
        tally.positions
    );
    for reason in [
        "checkmate",
        "stalemate",
        "insufficient_material",
        "fivefold_repetition",
        "seventy_five_moves",
    ] {
        assert!(tally.endings.contains_key(reason), "no playout ended by {reason}");
    }
    for claim in ["threefold", "fifty"] {
        assert!(
            tally.claims.contains_key(claim),
            "no position with a {claim} claim"
        );
    }
    // The locked-wall playouts (oracle.py) reach dead positions that
    // python-chess plays on; each was checked against the walk.
    assert!(
        tally.walked_dead >= 3,
        "only {} dead positions python-chess plays on were walked",
        tally.walked_dead
    );
}
