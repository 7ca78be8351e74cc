//! Helpers shared by the variants crate's tests, written once: a seeded
//! generator, the reader of `data/perft.json`, and the Fairy-Stockfish
//! differential (random playouts, the pyffish oracle `fsf_oracle.py`, the
//! comparison).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::process::Command;
use std::sync::Arc;

use variants::{perft, Move, Position, Variant};

/// splitmix64: seeded, so a failure can be replayed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (> 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The Xiangqi positions of `data/perft.json`, each with its published
/// counts as `(depth, leaves)`.
pub fn perft_cases() -> Vec<(String, Vec<(u32, u64)>)> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/perft.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["xiangqi"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let counts = match &c["counts"] {
                serde_json::Value::Array(a) => a
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (i as u32 + 1, n.as_u64().unwrap()))
                    .collect(),
                serde_json::Value::Object(o) => o
                    .iter()
                    .map(|(d, n)| (d.parse().unwrap(), n.as_u64().unwrap()))
                    .collect(),
                other => panic!("bad counts {other}"),
            };
            (c["fen"].as_str().unwrap().to_owned(), counts)
        })
        .collect()
}

fn python() -> String {
    std::env::var("QIJU_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Whether pyffish can be asked. Without it a test says so loudly and
/// passes, unless `QIJU_REQUIRE_ORACLES=1` (as in CI), where it fails — the
/// convention of `crates/xiangqi/tests/fsf_diff.rs`.
pub fn oracle_ready() -> bool {
    let ok = Command::new(python())
        .args(["-c", "import pyffish"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        let required = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "QIJU_REQUIRE_ORACLES=1 but `{} -c 'import pyffish'` fails: pip install pyffish",
            python()
        );
        eprintln!("\n*** SKIPPED fsf_diff: pyffish (Fairy-Stockfish) is not importable ***");
        eprintln!("*** install it with `pip install pyffish`, or set QIJU_PYTHON ***\n");
    }
    ok
}

/// Rewrites the ranks of a move: Fairy-Stockfish counts them from 1, ICCS
/// from 0 (`e2e2` there is `e1e1` here). `delta` is −1 to read theirs, +1
/// to write ours.
fn shift_ranks(m: &str, delta: i32) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if !digits.is_empty() {
            let r: i32 = digits.parse().unwrap();
            out.push_str(&(r + delta).to_string());
            digits.clear();
        }
    };
    for c in m.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out);
    out
}

/// A Fairy-Stockfish move (`a2a3`) in ICCS (`a1a2`).
pub fn from_fsf(m: &str) -> String {
    shift_ranks(m, -1)
}

/// An ICCS move in Fairy-Stockfish's coordinates.
pub fn to_fsf(m: &str) -> String {
    shift_ranks(m, 1)
}

/// A position reached by a random playout, with the moves (ICCS) that led
/// there from the start: the oracle replays them, so both engines know the
/// same past (Janggi's passes and bikjang depend on the last two plies).
pub struct Sample {
    pub pos: Position,
    pub moves: Vec<String>,
}

/// `target` distinct positions from seeded random playouts of up to 80
/// plies, each until the game ends. Captures are preferred a third of the
/// time so that games reach endings, and a pass, where there is one, a
/// sixth of the time so that passes meet passes and bikjang.
pub fn playouts(variant: &Arc<Variant>, target: usize) -> Vec<Sample> {
    let mut rng = Rng(0x5EED_0027);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < target {
        let mut pos = Position::start(variant.clone());
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..80 {
            if seen.insert((
                pos.to_fen(),
                moves.iter().rev().take(2).cloned().collect::<Vec<_>>(),
            )) {
                out.push(Sample {
                    pos: pos.clone(),
                    moves: moves.clone(),
                });
            }
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| !Position::is_pass(m) && pos.piece_at(m.to).is_some())
                .collect();
            let pass = legal.iter().copied().find(|&m| Position::is_pass(m));
            let m = match (pass, rng.below(6)) {
                (Some(p), 0) => p,
                _ if !captures.is_empty() && rng.below(3) == 0 => captures[rng.below(captures.len())],
                _ => legal[rng.below(legal.len())],
            };
            pos.play_unchecked(m);
            moves.push(m.to_string());
        }
    }
    out.truncate(target);
    out
}

/// What Fairy-Stockfish says of one position.
pub struct Answer {
    pub fen: String,
    /// In ICCS coordinates.
    pub legal: BTreeSet<String>,
    pub check: bool,
    /// The game value for the side to move, where it has no legal move.
    pub result: Option<i64>,
    pub perft: BTreeMap<u32, u64>,
}

/// Asks pyffish's variant `fsf_name` about every sample, each replayed
/// from `start`, with perft at `depths(i)` for sample `i`.
pub fn ask(
    fsf_name: &str,
    start: &str,
    samples: &[Sample],
    depths: impl Fn(usize) -> Vec<u32>,
) -> Vec<Answer> {
    // One directory per call: tests run in parallel threads of one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "qiju-variants-fsf-{fsf_name}-{}-{call}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("ask.jsonl");
    let text: String = samples
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let moves: Vec<String> = s.moves.iter().map(|m| to_fsf(m)).collect();
            serde_json::json!({ "fen": start, "moves": moves, "perft": depths(i) }).to_string() + "\n"
        })
        .collect();
    std::fs::write(&input, text).unwrap();
    let out = Command::new(python())
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fsf_oracle.py"))
        .arg(fsf_name)
        .arg(&input)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<Answer> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            Answer {
                fen: v["fen"].as_str().unwrap().to_owned(),
                legal: v["legal"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| from_fsf(m.as_str().unwrap()))
                    .collect(),
                check: v["check"].as_bool().unwrap(),
                result: v.get("result").and_then(serde_json::Value::as_i64),
                perft: v["perft"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(d, n)| (d.parse().unwrap(), n.as_u64().unwrap()))
                    .collect(),
            }
        })
        .collect();
    assert_eq!(answers.len(), samples.len());
    answers
}

/// The board and side to move of a FEN: the move counters are left out,
/// Fairy-Stockfish's rule-50 counter differing in what resets it.
fn placement(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// Compares `default` random-playout positions (or `QIJU_FSF_POSITIONS`) of
/// the variant in `toml` with Fairy-Stockfish's variant `fsf_name`: the
/// board, the set of legal moves, check, the result where no move is left,
/// and perft at `depths(i)` for position `i`.
pub fn compare(toml: &str, fsf_name: &str, default: usize, depths: impl Fn(usize) -> Vec<u32>) {
    if !oracle_ready() {
        return;
    }
    let target: usize = std::env::var("QIJU_FSF_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    let variant = Arc::new(Variant::from_toml(toml).unwrap());
    let samples = playouts(&variant, target);
    compare_samples(fsf_name, variant.start_fen(), &samples, depths);
    assert!(samples.len() >= 500);
}

/// Compares positions set up by hand (FEN, no past) of the variant in
/// `toml` with Fairy-Stockfish's `fsf_name`, with perft(2) and perft(3).
pub fn compare_fens(toml: &str, fsf_name: &str, fens: &[&str]) {
    if !oracle_ready() {
        return;
    }
    let variant = Arc::new(Variant::from_toml(toml).unwrap());
    for fen in fens {
        let pos = Position::from_fen(variant.clone(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let samples = [Sample {
            pos: pos.clone(),
            moves: Vec::new(),
        }];
        compare_samples(fsf_name, &pos.to_fen(), &samples, |_| vec![2, 3]);
    }
}

/// Compares each sample, replayed from `start`, with Fairy-Stockfish.
fn compare_samples(fsf_name: &str, start: &str, samples: &[Sample], depths: impl Fn(usize) -> Vec<u32>) {
    let answers = ask(fsf_name, start, samples, &depths);

    let (mut ends, mut checks, mut moves, mut leaves) = (0, 0, 0, 0u64);
    for (sample, answer) in samples.iter().zip(&answers) {
        let pos = &sample.pos;
        let fen = pos.to_fen();
        let at = format!("{fen} (moves {})", sample.moves.join(" "));
        assert_eq!(placement(&answer.fen), placement(&fen), "board after {at}");
        let ours: BTreeSet<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        let theirs = &answer.legal;
        assert_eq!(
            &ours,
            theirs,
            "legal moves of {at}: ours only {:?}, Fairy-Stockfish only {:?}",
            ours.difference(theirs).collect::<Vec<_>>(),
            theirs.difference(&ours).collect::<Vec<_>>()
        );
        moves += ours.len();
        assert_eq!(pos.is_check(), answer.check, "check in {at}");
        checks += usize::from(pos.is_check());
        if let Some(result) = answer.result {
            ends += 1;
            // Fairy-Stockfish scores the end for the side to move: negative
            // a loss, zero a draw.
            let (_, outcome) = pos.end().expect("Fairy-Stockfish sees no move left");
            let ours = match outcome.winner() {
                None => 0,
                Some(w) if w == pos.turn() => 1,
                Some(_) => -1,
            };
            assert_eq!(ours, result.signum(), "result of {at}");
        }
        for (&depth, &n) in &answer.perft {
            let mut scratch = pos.clone();
            assert_eq!(perft(&mut scratch, depth), n, "perft({depth}) of {at}");
            leaves += n;
        }
    }
    eprintln!(
        "{fsf_name}: {} positions, {moves} legal moves, {checks} in check, {ends} without a move, {leaves} perft leaves — all equal",
        samples.len()
    );
}
