//! KIF and CSA round trip with cshogi (`pip install cshogi`): records that
//! cshogi's exporters write — KIF in UTF-8 and in Shift_JIS, CSA — from the
//! even start, every handicap and two middlegames (a board diagram in KIF,
//! `P1`–`P9` in CSA) are read back move for move; then the same games as we
//! write them are read by cshogi's parsers, move for move.
//!
//! Without python3 or cshogi the test says so and passes, unless
//! `QIJU_REQUIRE_ORACLES=1` (as in CI), where it fails.

use shogi::csa::{read_csa, write_csa};
use shogi::kif::{read_kif, write_kif};
use shogi::record::{decode, ShogiRecord};
use shogi::{is_even_start, Handicap};
use std::path::Path;
use std::process::Command;

fn cshogi_present() -> bool {
    let require = std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1");
    let ok = Command::new("python3")
        .args(["-c", "import cshogi"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            !require,
            "QIJU_REQUIRE_ORACLES=1 but python3 with cshogi is missing"
        );
        eprintln!("SKIPPED shogi record round trip: python3 with cshogi is missing (install with: python3 -m pip install cshogi)");
    }
    ok
}

fn records_py(mode: &str, dir: &Path) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/records.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(mode)
        .arg(dir)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "records.py {mode}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The SFEN without its move number, as we write it (cshogi orders the
/// hands its own way).
fn head(sfen: &str) -> String {
    let (pos, _) = shogi::parse_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let s = shogi::write_sfen(&pos, 1);
    s.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

fn read(path: &Path) -> String {
    decode(&std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

#[test]
fn cshogi_records_read_back_move_for_move() {
    if !cshogi_present() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("qiju-shogi-records-{}", std::process::id()));
    let ours = dir.join("ours");
    std::fs::create_dir_all(&ours).unwrap();
    let manifest = records_py("write", &dir);
    let mut games = 0;
    let mut moves = 0;
    let mut written = Vec::new();
    for line in manifest.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (n, sfen) = (f[0], f[1]);
        let usi: Vec<String> = f[2].split_whitespace().map(str::to_string).collect();
        let mut seen: Vec<ShogiRecord> = Vec::new();
        for ext in ["kifu", "kif", "csa"] {
            let path = dir.join(format!("{n}.{ext}"));
            let text = read(&path);
            let r = if ext == "csa" {
                read_csa(&text)
            } else {
                read_kif(&text)
            }
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(head(&r.initial_sfen), head(sfen), "{}: start", path.display());
            assert_eq!(r.usi_moves(), usi, "{}: moves", path.display());
            if ext != "csa" {
                assert_eq!(r.black.as_deref(), Some("先手さん"), "{}", path.display());
                assert_eq!(r.end, Some(shogi::record::RecordEnd::Resign));
            }
            seen.push(r);
        }
        games += 1;
        moves += usi.len();
        // Written by us, for cshogi to read: CSA always; KIF where cshogi's
        // parser can follow it — it knows a start by 手合割 but not by a
        // board diagram, and its move pattern has neither 不成 nor the
        // two-character names 成香 成桂 成銀 that Kakinoki's KIF uses.
        let r = &seen[0];
        std::fs::write(ours.join(format!("{n}.csa")), write_csa(r)).unwrap();
        let kif = write_kif(r);
        let cshogi_reads = ["不成", "成香", "成桂", "成銀"]
            .iter()
            .all(|w| !kif.lines().any(|l| l.starts_with(' ') && l.contains(w)));
        if (is_even_start(sfen) || Handicap::of_start(sfen).is_some()) && cshogi_reads {
            std::fs::write(ours.join(format!("{n}.kifu")), &kif).unwrap();
            written.push(format!("{n}.kifu"));
        }
        written.push(format!("{n}.csa"));
        // Our own writers read back by our readers.
        assert_eq!(read_kif(&write_kif(r)).unwrap().usi_moves(), usi);
        assert_eq!(read_csa(&write_csa(r)).unwrap().usi_moves(), usi);
    }
    let back = records_py("read", &ours);
    let mut checked = 0;
    for line in back.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let n = f[0].split('.').next().unwrap();
        let row = manifest
            .lines()
            .find(|l| l.split('\t').next() == Some(n))
            .expect("a game of ours");
        let want: Vec<&str> = row.split('\t').collect();
        assert_eq!(head(f[1]), head(want[1]), "cshogi reads our {} start", f[0]);
        assert_eq!(
            f.get(2).copied().unwrap_or(""),
            want[2],
            "cshogi reads our {} moves",
            f[0]
        );
        checked += 1;
    }
    assert_eq!(checked, written.len(), "cshogi read every file we wrote");
    let kifs = written.iter().filter(|w| w.ends_with(".kifu")).count();
    eprintln!(
        "record round trip: {games} games, {moves} moves; cshogi read {checked} of our files ({kifs} KIF)"
    );
    assert!(games >= 25 && moves >= 1500);
    assert!(kifs >= 3, "too few of our KIF files were checked by cshogi");
    let _ = std::fs::remove_dir_all(&dir);
}
