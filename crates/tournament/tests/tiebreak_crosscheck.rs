//! Buchholz, Buchholz Cut-1, Sonneborn–Berger, progressive score, WIN, WON
//! and AROC against a second implementation: tiebreak-core 1.2.0 (PyPI),
//! ruleset "fide-2024", on 16 random Swiss crosstables with forfeits,
//! requested byes, pairing-allocated byes and withdrawals. The TRF files
//! and the expected values are made by `tests/data/tiebreak/make_crosscheck.py`.

use tournament::tiebreak::{System, Table, Tiebreak, Unplayed};

const COLUMNS: [Tiebreak; 7] = [
    Tiebreak::Buchholz,
    Tiebreak::BuchholzCut1,
    Tiebreak::SonnebornBerger,
    Tiebreak::Progressive,
    Tiebreak::Wins,
    Tiebreak::GamesWon,
    Tiebreak::AverageRatingCut1,
];

#[test]
fn tiebreaks_match_tiebreak_core_fide_2024() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiebreak");
    let expected = std::fs::read_to_string(format!("{dir}/expected.tsv")).unwrap();
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
            assert_eq!(got, want, "{} player {player} {tb}", f[0]);
        }
        checked += 1;
    }
    assert_eq!(files.len(), 16);
    assert!(checked > 250, "{checked} players");
}
