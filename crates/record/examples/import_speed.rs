//! How fast PGN is read and written: the 1,000-game collection, read, then
//! written in each notation.
//!
//! `cargo run --release -p record --example import_speed [FILE]`

use std::time::Instant;
use xiangqi::notation::Notation;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/selfplay-1000.pgn").to_string());
    let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
    let t = Instant::now();
    let games = record::read_pgn(&text);
    let read = t.elapsed();
    let records: Vec<_> = games.into_iter().filter_map(|g| g.record.ok()).collect();
    let plies: usize = records.iter().map(|r| r.moves.len()).sum();
    println!(
        "read  {} games, {plies} plies, {:.1} MB in {:.3} s: {:.0} plies/s",
        records.len(),
        text.len() as f64 / 1e6,
        read.as_secs_f64(),
        plies as f64 / read.as_secs_f64()
    );
    for n in Notation::ALL {
        let t = Instant::now();
        let out = record::write_games(&records, n).expect("replays");
        let w = t.elapsed();
        println!(
            "write {:<7} {:.1} MB in {:.3} s: {:.0} plies/s",
            n.name(),
            out.len() as f64 / 1e6,
            w.as_secs_f64(),
            plies as f64 / w.as_secs_f64()
        );
    }
}
