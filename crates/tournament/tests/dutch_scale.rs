//! The Dutch pairer at scale, without the server: an N-player Swiss (every
//! player the same rating, as in `crates/server/tests/events_scale.rs`)
//! whose first round ends white win, black win, draw by board in turn, then
//! round 2 paired — three scoregroups of about N/3. A benchmark, not a CI
//! test (docs/PERFORMANCE.md):
//!
//! cargo test --release -p tournament --test dutch_scale -- --ignored --nocapture
//!
//! `QIJU_SCALE_PLAYERS` changes N (default 1,000).

use std::time::Instant;

use tournament::dutch;
use tournament::model::{Colour, Outcome, Player, RoundEntry, Tournament};

/// Round 1 paired and played out: board i ends by i mod 3.
fn after_round_one(n: u32) -> Tournament {
    let mut t = Tournament {
        players: (1..=n).map(|i| Player::new(i, &format!("P{i:04}"), 1500)).collect(),
        total_rounds: Some(9),
        initial_colour: Some(Colour::White),
        ..Tournament::default()
    };
    let p = dutch::pair_next_round(&t).unwrap();
    for (i, &(w, b)) in p.boards.iter().enumerate() {
        let outcome = [Outcome::Win, Outcome::Loss, Outcome::Draw][i % 3];
        t.players[w as usize - 1].rounds.push(RoundEntry {
            opponent: Some(b),
            colour: Some(Colour::White),
            outcome,
        });
        t.players[b as usize - 1].rounds.push(RoundEntry {
            opponent: Some(w),
            colour: Some(Colour::Black),
            outcome: outcome.mirrored().unwrap(),
        });
    }
    if let Some(p) = p.bye {
        t.players[p as usize - 1].rounds.push(RoundEntry::bye(Outcome::PairingBye));
    }
    t
}

#[test]
#[ignore = "a benchmark (docs/PERFORMANCE.md): run with --ignored --nocapture"]
fn round_two_of_a_large_swiss() {
    let n: u32 = std::env::var("QIJU_SCALE_PLAYERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let t = after_round_one(n);
    if let Ok(path) = std::env::var("QIJU_SCALE_TRF") {
        std::fs::write(path, tournament::trf::write(&t)).unwrap();
    }
    let t0 = Instant::now();
    let p = dutch::pair_next_round(&t).unwrap();
    let took = t0.elapsed();
    println!("round 2 of {n} players: {:.3} s", took.as_secs_f64());
    assert_eq!(p.boards.len() as u32, n / 2);
    if let Ok(path) = std::env::var("QIJU_SCALE_OUT") {
        std::fs::write(path, p.to_bbp_text()).unwrap();
    }
}
