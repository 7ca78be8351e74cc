//! Differential test of `data/minixiangqi.toml` against Fairy-Stockfish's
//! `minixiangqi` (`pip install pyffish`), and of `data/xiangqi.toml` against
//! its `xiangqi` — a second opinion beside `crates/xiangqi` (tests/perft.rs).
//!
//! Positions come from seeded random playouts from the start position, each
//! played until the game ends or 80 plies; for each position the set of
//! legal moves, whether the side to move is in check, and, where no move is
//! left, the result (a loss for the side to move, checkmate or 困毙) are
//! compared. Fairy-Stockfish counts ranks from 1, ICCS from 0.
//!
//! Without pyffish the test says so loudly and passes, unless
//! `QIJU_REQUIRE_ORACLES=1` (as in CI), where it fails — the convention of
//! `crates/xiangqi/tests/fsf_diff.rs`. `QIJU_FSF_POSITIONS=N` compares N
//! positions instead of the default (1,000 of minixiangqi, 500 of Xiangqi).

use std::collections::{BTreeSet, HashSet};
use std::process::Command;
use std::sync::Arc;

use variants::{Move, Position, Variant, MINIXIANGQI_TOML, XIANGQI_TOML};

/// splitmix64: a seeded generator, so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn python() -> String {
    std::env::var("QIJU_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

fn oracle_available() -> bool {
    Command::new(python())
        .args(["-c", "import pyffish"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A Fairy-Stockfish move (`a2a3`, ranks from 1) in ICCS (`a1a2`, ranks from 0).
fn from_fsf(m: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if !digits.is_empty() {
            let r: u32 = digits.parse().unwrap();
            out.push_str(&(r - 1).to_string());
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

fn positions(variant: &Arc<Variant>, target: usize) -> Vec<Position> {
    let mut rng = Rng(0x5EED_0027);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < target {
        let mut pos = Position::start(variant.clone());
        for _ in 0..80 {
            if seen.insert(pos.to_fen()) {
                out.push(pos.clone());
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then, so that games reach endings.
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.next().is_multiple_of(3) {
                captures[(rng.next() % captures.len() as u64) as usize]
            } else {
                moves[(rng.next() % moves.len() as u64) as usize]
            };
            pos.play_unchecked(m);
        }
    }
    out.truncate(target);
    out
}

#[test]
fn fairy_stockfish_agrees_on_minixiangqi() {
    compare(MINIXIANGQI_TOML, "minixiangqi", 1000);
}

#[test]
fn fairy_stockfish_agrees_on_xiangqi() {
    compare(XIANGQI_TOML, "xiangqi", 500);
}

/// Compares `default` positions (or `QIJU_FSF_POSITIONS`) of the variant in
/// `toml` with Fairy-Stockfish's variant `fsf_name`.
fn compare(toml: &str, fsf_name: &str, default: usize) {
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
    let target: usize = std::env::var("QIJU_FSF_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    let variant = Arc::new(Variant::from_toml(toml).unwrap());
    let positions = positions(&variant, target);
    let dir = std::env::temp_dir().join(format!("qiju-variants-fsf-{fsf_name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fens = dir.join("fens.txt");
    let text: String = positions.iter().map(|p| p.to_fen() + "\n").collect();
    std::fs::write(&fens, text).unwrap();
    let out = Command::new(python())
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fsf_oracle.py"))
        .arg(fsf_name)
        .arg(&fens)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), positions.len());

    let (mut ends, mut checks, mut moves) = (0, 0, 0);
    for (pos, answer) in positions.iter().zip(&answers) {
        let fen = pos.to_fen();
        assert_eq!(answer["fen"].as_str().unwrap(), fen);
        let theirs: BTreeSet<String> = answer["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| from_fsf(m.as_str().unwrap()))
            .collect();
        let ours: BTreeSet<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        assert_eq!(
            ours,
            theirs,
            "legal moves of {fen}: ours only {:?}, Fairy-Stockfish only {:?}",
            ours.difference(&theirs).collect::<Vec<_>>(),
            theirs.difference(&ours).collect::<Vec<_>>()
        );
        moves += ours.len();
        assert_eq!(
            pos.is_check(),
            answer["check"].as_bool().unwrap(),
            "check in {fen}"
        );
        checks += usize::from(pos.is_check());
        if let Some(result) = answer.get("result") {
            ends += 1;
            // Fairy-Stockfish scores the end for the side to move: negative = loss.
            let (_, outcome) = pos.end().expect("Fairy-Stockfish sees no move left");
            let we_lose = outcome.winner() == Some(pos.turn().other());
            assert_eq!(we_lose, result.as_i64().unwrap() < 0, "result of {fen}");
        }
    }
    eprintln!(
        "{fsf_name}: {} positions, {moves} legal moves, {checks} in check, {ends} without a move — all equal",
        positions.len()
    );
    assert!(positions.len() >= 500);
}
