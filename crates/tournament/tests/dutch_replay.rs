//! The Dutch pairer replayed round by round against bbpPairings v6 on the
//! tournaments in `tests/data/dutch`: bbpPairings' own random tournaments
//! (`--dutch -g`, 7–40 players, 5–11 rounds, forfeits, H/Z byes, 3/1/0)
//! and tournaments played here round by round, each round paired by
//! bbpPairings, with permanent withdrawals, late entries and requested
//! H/Z byes (`s*`), plus forbidden pairs (`XXP`), black as the initial
//! colour and other point systems (2/1/0, 3/2/1, a half-point PAB) (`x*`;
//! two of them reach a round that cannot be paired: exit 1), and four
//! larger ones, 68–141 players (`l*`). For every round the file is cut back to what the arbiter had
//! before pairing it, and our pairing must equal bbpPairings' `-p` output
//! (pairs, colours, board order and bye).

use std::fs;
use std::path::Path;

use tournament::dutch;
use tournament::trf;

struct Round {
    round: u32,
    exit: i32,
    text: String,
}

fn expected(path: &Path) -> Vec<Round> {
    let text = fs::read_to_string(path).unwrap();
    let mut out: Vec<Round> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("round ") {
            let mut it = rest.split_whitespace();
            let round = it.next().unwrap().parse().unwrap();
            let exit = it.nth(1).unwrap().parse().unwrap();
            out.push(Round {
                round,
                exit,
                text: String::new(),
            });
        } else {
            let r = out.last_mut().unwrap();
            r.text.push_str(line);
            r.text.push('\n');
        }
    }
    out
}

/// Replays every round; returns (rounds equal, rounds in all, failures).
fn replay() -> (usize, usize, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
    let mut names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    names.sort();
    let (mut ok, mut all) = (0, 0);
    let mut failures = Vec::new();
    for path in names {
        let t = trf::parse(&fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for r in expected(&path.with_extension("pairings")) {
            all += 1;
            let before = t.before_round(r.round);
            let ours = dutch::pair_next_round(&before);
            let same = match (&ours, r.exit) {
                (Ok(p), 0) => p.to_bbp_text() == r.text,
                (Err(dutch::DutchError::NoPairing { .. }), 1) => true,
                _ => false,
            };
            if same {
                ok += 1;
            } else {
                let name = path.file_stem().unwrap().to_string_lossy().to_string();
                let got = match ours {
                    Ok(p) => p.to_bbp_text().replace('\n', " "),
                    Err(e) => e.to_string(),
                };
                failures.push(format!(
                    "{name} round {}: expected [{}] got [{}]",
                    r.round,
                    r.text.replace('\n', " "),
                    got
                ));
            }
        }
    }
    (ok, all, failures)
}

#[test]
fn dutch_pairings_equal_bbpairings_round_by_round() {
    let (ok, all, failures) = replay();
    for f in failures.iter().take(40) {
        eprintln!("{f}");
    }
    eprintln!("{ok}/{all} rounds equal to bbpPairings");
    assert!(all >= 300, "the corpus has {all} rounds");
    assert_eq!(ok, all, "{ok}/{all} rounds equal to bbpPairings");
}
