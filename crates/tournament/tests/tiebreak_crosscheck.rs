//! Buchholz, Buchholz Cut-1, Sonneborn–Berger, progressive score, WIN, WON
//! and AROC against a second implementation: tiebreak-core 1.2.0 (PyPI),
//! ruleset "fide-2024", on 16 random Swiss crosstables with forfeits,
//! requested byes, pairing-allocated byes and withdrawals, and on the 49
//! 1/½/0 tournaments of the Dutch replay corpus (`tests/data/dutch`, made by
//! bbpPairings; six of them with a half-point pairing bye) — the large `l*`
//! tournaments among them, but for `l02-p68-r6-310-x` (3/1/0 points, which
//! tiebreak-core cannot score: it counts C.07 16.3's virtual draw as ½
//! whatever the points system). The random TRF files and all expected values
//! are made by `tests/data/tiebreak/make_crosscheck.py`.

use tournament::tiebreak::standings::{standings, Rules};
use tournament::tiebreak::{System, Table, Tiebreak, Unplayed};

/// Said when a value differs: the Dutch corpus belongs to the pairing
/// tests, and a changed file needs its expected values made again.
const REGENERATE: &str = " (if a TRF file changed, run: pip install tiebreak-core==1.2.0 && \
python3 tests/data/tiebreak/make_crosscheck.py)";

const COLUMNS: [Tiebreak; 7] = [
    Tiebreak::Buchholz,
    Tiebreak::BuchholzCut1,
    Tiebreak::SonnebornBerger,
    Tiebreak::Progressive,
    Tiebreak::Wins,
    Tiebreak::GamesWon,
    Tiebreak::AverageRatingCut1,
];

/// Compares every line of `expected` (under tests/data/tiebreak) with the
/// values computed on the TRF files in `data` (under tests/data); returns
/// (files, players) checked.
fn check(expected: &str, data: &str) -> (usize, usize) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let dir = format!("{root}/{data}");
    let expected = std::fs::read_to_string(format!("{root}/tiebreak/{expected}")).unwrap();
    let mut files = std::collections::BTreeMap::new();
    let mut checked = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let t = files.entry(f[0].to_string()).or_insert_with(|| {
            let text = std::fs::read_to_string(format!("{dir}/{}", f[0])).unwrap();
            tournament::trf::parse(&text).unwrap()
        });
        let table = Table::with_rule(t, Unplayed::Dummy, System::Swiss).unwrap();
        let player: u32 = f[1].parse().unwrap();
        for (i, tb) in COLUMNS.iter().enumerate() {
            let want: i64 = f[2 + i].parse().unwrap();
            let got = table.value(player, *tb).unwrap().raw;
            assert_eq!(got, want, "{} player {player} {tb}{REGENERATE}", f[0]);
        }
        checked += 1;
    }
    (files.len(), checked)
}

#[test]
fn tiebreaks_match_tiebreak_core_on_random_crosstables() {
    let (files, players) = check("expected.tsv", "tiebreak");
    assert_eq!(files, 16);
    assert!(players > 250, "{players} players");
}

#[test]
fn tiebreaks_match_tiebreak_core_on_the_dutch_replays() {
    let (files, players) = check("expected_dutch.tsv", "dutch");
    assert_eq!(files, 49, "{files} files{REGENERATE}");
    assert!(players > 1400, "{players} players");
    // The large tournaments added after the first cross-check (141, 88 and
    // 71 players) are among them.
    let expected = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tiebreak/expected_dutch.tsv"
    ))
    .unwrap();
    for large in ["l00-p141-r6.trf", "l02-p88-r8.trf", "l04-p71-r8-x.trf"] {
        let rows = expected
            .lines()
            .filter(|l| l.split('\t').next() == Some(large))
            .count();
        let n: usize = large
            .split("-p")
            .nth(1)
            .unwrap()
            .split('-')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(
            rows, n,
            "{large}: {rows} players cross-checked of {n}{REGENERATE}"
        );
    }
}

/// Whole rankings — points, then the tie-breaks listed, direct encounter
/// (C.07 6.1–6.3) among them — equal to tiebreak-core's, ties in
/// pairing-number order on both sides.
#[test]
fn rankings_match_tiebreak_core() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let expected = std::fs::read_to_string(format!("{root}/tiebreak/expected_order.tsv")).unwrap();
    let mut checked = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let text = std::fs::read_to_string(format!("{root}/tiebreak/{}", f[0])).unwrap();
        let t = tournament::trf::parse(&text).unwrap();
        let tiebreaks = Tiebreak::parse_list(f[1]).unwrap();
        let s = standings(&t, &Rules::new(System::Swiss, tiebreaks)).unwrap();
        let got: Vec<String> = s.rows.iter().map(|r| r.id.to_string()).collect();
        assert_eq!(got.join(","), f[2], "{} by {}{REGENERATE}", f[0], f[1]);
        checked += 1;
    }
    assert!(checked >= 50, "{checked} rankings");
}
