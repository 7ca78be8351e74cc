//! Differential test against Fairy-Stockfish (`pip install pyffish`).
//!
//! Positions come from seeded random playouts, from the start position and
//! from sparse middlegame and endgame positions chosen so that tandem pieces
//! and several pawns on one file (the hard cases of WXF) turn up often. All
//! FENs go to one Python process (`fsf_oracle.py`), which answers with
//! Fairy-Stockfish's legal moves, their WXF strings and the check status.
//! For every position we compare:
//! * the set of legal moves (Fairy-Stockfish counts ranks 1–10, we 0–9);
//! * the WXF string of every move whose piece shares its file with another
//!   piece of its kind (tandem pieces, pawn piles: the moves where WXF has
//!   rules to get wrong), and of two more moves of each position chosen
//!   at random — each pyffish call costs milliseconds, so naming every move
//!   of 2,000 positions would take minutes of CI time;
//! * whether the side to move is in check, and so, where no move is left,
//!   checkmate against stalemate (困毙) — both a loss, which is compared too.
//!
//! Without pyffish the test says so loudly and passes, unless
//! `QIJU_REQUIRE_ORACLES=1` (as in CI), where it fails.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::Write;
use std::process::Command;
use xiangqi::notation::{format_move, Notation};
use xiangqi::{Move, Position, Square};

/// Sparse positions where tandem rooks, horses, cannons, advisors and
/// elephants and piles of pawns arise.
const SEEDS: &[&str] = &[
    "startpos",
    // Middlegame with pawns across the river on both sides.
    "r1bakab1r/9/1cn3nc1/p3p3p/2p3p2/2P3P2/P3P3P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
    // Five pawns a side, few pieces: pawns pile up on files.
    "3k5/9/9/p1p1p1p1p/9/9/P1P1P1P1P/9/9/4K4 w - - 0 1",
    "4k4/4a4/4b4/2P1P1P2/2P1P4/2p6/2p1p1p2/4B4/4A4/4K4 w - - 0 1",
    // Rooks, cannons and horses with advanced pawns.
    "2bakab2/9/2n1c1n2/p1P1P1P1p/9/9/P1p1p1p1P/2N1C1N2/9/2BAKAB2 b - - 0 1",
    "3k5/4P4/3PPP3/4P4/9/9/4p4/3ppp3/4p4/5K3 w - - 0 1",
    // Endgames with doubled heavy pieces.
    "3ak4/4a4/4b4/9/2R6/2R6/9/2c6/2c6/3AKA3 w - - 0 1",
    "4k4/9/4n4/9/4n4/4N4/9/4N4/9/4K4 b - - 0 1",
    "2b1k4/4a4/9/9/2b6/2B6/9/9/4A4/2B1K4 w - - 0 1",
];

/// Positions without a legal move, so that checkmate and stalemate (困毙)
/// are compared even if the playouts rarely end in them.
const ENDS: &[&str] = &[
    // Checkmate by two rooks.
    "3k1R3/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1",
    // Checkmate on the third move of a game (cannon on g9, 闷宫-like).
    "rnb1kaCnr/4a4/1c5c1/p1p1p3p/6p2/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 3",
    // Stalemate: the black king is not in check but cannot move.
    "3k5/R8/4R4/9/9/9/9/9/9/4K4 b - - 0 1",
    // Stalemate with the flying-general rule taking the last square.
    "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1",
];

/// splitmix64: a seeded generator, so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every position visited by seeded random playouts, deduplicated.
fn positions(target: usize) -> Vec<Position> {
    let mut rng = Rng(0x51a0_2026);
    let mut seen = HashSet::new();
    let mut out: Vec<Position> = ENDS
        .iter()
        .map(|f| Position::from_fen(f).expect("end FEN is valid"))
        .collect();
    for p in &out {
        seen.insert(p.fen());
    }
    let mut game = 0usize;
    while out.len() < target {
        let mut pos = Position::from_fen(SEEDS[game % SEEDS.len()]).expect("seed FEN is valid");
        game += 1;
        for _ply in 0..120 {
            if seen.insert(pos.fen()) {
                out.push(pos.clone());
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer quiet moves a little, so that pieces stay on the board
            // long enough to pile up on files.
            let mut m = moves[rng.below(moves.len())];
            if pos.is_capture(m) && rng.below(3) == 0 {
                m = moves[rng.below(moves.len())];
            }
            pos.play(m).expect("generated move is legal");
        }
    }
    out
}

/// `h3e3` in Fairy-Stockfish's coordinates (ranks 1–10) to our move.
fn fsf_move(s: &str) -> Option<Move> {
    let b = s.as_bytes();
    let split = 1 + b[1..].iter().position(|c| c.is_ascii_alphabetic())?;
    let square = |t: &str| -> Option<Square> {
        let file = t.as_bytes()[0].checked_sub(b'a')?;
        let rank: u8 = t[1..].parse().ok()?;
        Square::try_new(i32::from(file), i32::from(rank) - 1)
    };
    Some(Move::new(square(&s[..split])?, square(&s[split..])?))
}

/// Fairy-Stockfish's coordinates: ranks 1–10.
fn to_fsf(m: Move) -> String {
    let sq = |s: Square| format!("{}{}", (b'a' + s.file()) as char, s.rank() + 1);
    format!("{}{}", sq(m.from()), sq(m.to()))
}

/// The moves whose WXF string we compare: every move of a piece that shares
/// its file with another piece of the same kind and colour, and up to two
/// others picked by `pick`.
fn wxf_sample(pos: &Position, pick: &mut impl FnMut() -> usize) -> Vec<Move> {
    let mut tandem = Vec::new();
    let mut plain = Vec::new();
    for m in pos.legal_moves() {
        let piece = pos.piece_at(m.from()).expect("a piece moves");
        let shares_file = Iterator::any(&mut pos.pieces(piece.color, piece.role), |s| {
            s != m.from() && s.file() == m.from().file()
        });
        if shares_file {
            tandem.push(m);
        } else {
            plain.push(m);
        }
    }
    for _ in 0..2 {
        if plain.is_empty() {
            break;
        }
        let i = pick() % plain.len();
        tandem.push(plain.swap_remove(i));
    }
    tandem
}

fn python() -> String {
    std::env::var("QIJU_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

fn oracle_available() -> bool {
    Command::new(python())
        .args(["-c", "import pyffish"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[test]
fn fairy_stockfish_agrees() {
    if !oracle_available() {
        let required = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "QIJU_REQUIRE_ORACLES=1 but `{} -c 'import pyffish'` fails: pip install pyffish",
            python()
        );
        eprintln!("\n*** SKIPPED fsf_diff: pyffish (Fairy-Stockfish) is not importable ***");
        eprintln!("*** install it with `pip install pyffish`, or set QIJU_PYTHON ***\n");
        return;
    }

    // QIJU_FSF_POSITIONS=N compares N positions instead (a quick local run or
    // a longer soak); the default meets the 2,000 the project asks for.
    let target: usize = std::env::var("QIJU_FSF_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2100);
    let positions = positions(target);
    let dir = std::env::temp_dir().join(format!("qiju-fsf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fens_path = dir.join("fens.txt");
    let mut f = std::fs::File::create(&fens_path).unwrap();
    let mut seed = 0x9E37_79B9_u64;
    let mut pick = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let mut wanted_total = 0;
    for p in &positions {
        let wanted: Vec<String> = wxf_sample(p, &mut pick).into_iter().map(to_fsf).collect();
        wanted_total += wanted.len();
        writeln!(f, "{}\t{}", p.fen(), wanted.join(" ")).unwrap();
    }
    drop(f);

    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fsf_oracle.py");
    let out = Command::new(python())
        .arg(script)
        .arg(&fens_path)
        .output()
        .expect("run the oracle");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("oracle JSON"))
        .collect();
    assert_eq!(answers.len(), positions.len(), "one answer per position");

    let (mut moves_compared, mut mates, mut stalemates) = (0usize, 0usize, 0usize);
    let mut tandem_or_numbered = 0usize;
    let mut failures = Vec::new();
    for (pos, ans) in positions.iter().zip(&answers) {
        let fen = pos.fen();
        assert_eq!(ans["fen"].as_str(), Some(fen.as_str()));
        let their_set: BTreeSet<Move> = ans["legal"]
            .as_array()
            .expect("legal array")
            .iter()
            .map(|k| {
                let k = k.as_str().unwrap();
                fsf_move(k).unwrap_or_else(|| panic!("odd FSF move {k}"))
            })
            .collect();
        let theirs: BTreeMap<Move, String> = ans["moves"]
            .as_object()
            .expect("moves object")
            .iter()
            .map(|(k, v)| {
                let m = fsf_move(k).unwrap_or_else(|| panic!("odd FSF move {k}"));
                (m, v.as_str().unwrap().to_owned())
            })
            .collect();
        let ours: BTreeSet<Move> = pos.legal_moves().into_iter().collect();
        if ours != their_set {
            failures.push(format!(
                "{fen}: moves differ; only ours {:?}, only theirs {:?}",
                ours.difference(&their_set).collect::<Vec<_>>(),
                their_set.difference(&ours).collect::<Vec<_>>()
            ));
            continue;
        }
        for (&m, wxf) in &theirs {
            let mine = format_move(pos, m, Notation::Wxf);
            if &mine != wxf {
                failures.push(format!("{fen}: {m} we write {mine}, FSF {wxf}"));
            }
            if !mine.starts_with(|c: char| c.is_ascii_alphabetic()) || mine[1..2].starts_with(['+', '-']) {
                tandem_or_numbered += 1;
            }
            moves_compared += 1;
        }
        let their_check = ans["check"].as_bool().unwrap();
        if pos.is_check() != their_check {
            failures.push(format!(
                "{fen}: in check: ours {}, FSF {their_check}",
                pos.is_check()
            ));
        }
        if ours.is_empty() {
            // Xiangqi scores mate and stalemate alike: the side to move loses.
            let result = ans["result"].as_i64().expect("result when no move");
            if result >= 0 {
                failures.push(format!("{fen}: FSF scores the end {result}, not a loss"));
            }
            let winner = pos.outcome().and_then(|o| o.winner());
            if winner != Some(pos.turn().other().into()) {
                failures.push(format!("{fen}: our outcome {:?}", pos.outcome()));
            }
            if pos.is_check() {
                mates += 1;
            } else {
                stalemates += 1;
            }
        }
    }
    assert_eq!(moves_compared, wanted_total, "a WXF string for every move asked");
    println!(
        "fsf_diff: {} positions, legal move sets compared, {moves_compared} WXF strings compared \
         ({tandem_or_numbered} with +/- or numbered pieces), {mates} checkmates, {stalemates} stalemates",
        positions.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements with Fairy-Stockfish, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert!(positions.len() >= target);
    assert!(
        mates >= 2 && stalemates >= 2,
        "the end positions must be compared"
    );
    assert!(
        tandem_or_numbered > target / 20,
        "the positions should exercise tandem pieces"
    );
}
