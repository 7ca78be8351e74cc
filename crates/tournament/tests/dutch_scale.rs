//! The Dutch pairer at scale, without the server: an N-player Swiss (every
//! player the same rating, as in `crates/server/tests/events_scale.rs`)
//! whose first round ends white win, black win, draw by board in turn, then
//! the next round paired — in round 2 three scoregroups of about N/3. A
//! benchmark, not a CI test (docs/PERFORMANCE.md):
//!
//! cargo test --release -p tournament --test dutch_scale -- --ignored --nocapture
//!
//! `QIJU_SCALE_PLAYERS` changes N (default 1,000), `QIJU_SCALE_ROUNDS`
//! the rounds played (default 3).

use std::time::{Duration, Instant};

use tournament::dutch;
use tournament::model::{Colour, Outcome, Player, RoundEntry, Tournament};

/// Pair the next round and play it out: board i ends by i mod 3 (white
/// wins, black wins, a draw), as the server benchmark plays them.
fn play_round(t: &mut Tournament) -> Duration {
    let t0 = Instant::now();
    let p = dutch::pair_next_round(t).unwrap();
    let took = t0.elapsed();
    assert_eq!(p.boards.len(), t.players.len() / 2);
    if let Ok(dir) = std::env::var("QIJU_SCALE_OUT") {
        let round = t.rounds_paired() + 1;
        std::fs::write(format!("{dir}/round{round}.txt"), p.to_bbp_text()).unwrap();
    }
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
        t.players[p as usize - 1]
            .rounds
            .push(RoundEntry::bye(Outcome::PairingBye));
    }
    took
}

fn env(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Rounds 1 to `QIJU_SCALE_ROUNDS` (default 3) of an N-player Swiss,
/// each pairing timed; `QIJU_SCALE_OUT` names a folder for each round's
/// pairing in bbpPairings' `-p` form.
#[test]
#[ignore = "a benchmark (docs/PERFORMANCE.md): run with --ignored --nocapture"]
fn rounds_of_a_large_swiss() {
    let n = env("QIJU_SCALE_PLAYERS", 1000);
    let rounds = env("QIJU_SCALE_ROUNDS", 3);
    let mut t = Tournament {
        players: (1..=n)
            .map(|i| Player::new(i, &format!("P{i:04}"), 1500))
            .collect(),
        total_rounds: Some(9),
        initial_colour: Some(Colour::White),
        ..Tournament::default()
    };
    for round in 1..=rounds {
        let took = play_round(&mut t);
        println!("round {round} of {n} players: {:.3} s", took.as_secs_f64());
    }
}
