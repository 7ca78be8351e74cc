//! The computer's levels against each other: `cargo run --release -p renju
//! --example ladder [GAMES_PER_PAIR]`. Each pair of neighbouring levels
//! plays from the same seeded openings (three stones near the centre, the
//! first on h8), each opening once with either colour, under
//! `gomoku/freestyle` and `renju/rif`. Prints the higher level's score and
//! each level's mean time per move.

use renju::computer::{choose, Decision, Level};
use renju::{Color, Point, Position, Rules};
use std::time::Instant;

fn openings(n: usize) -> Vec<[Point; 3]> {
    let mut seed = 0x001a_dde2_2026_u64;
    let mut rnd = move |k: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % k) as isize
    };
    let mut out = Vec::new();
    while out.len() < n {
        let a = Point::CENTRE.offset(rnd(3) - 1, rnd(3) - 1).unwrap();
        let b = Point::CENTRE.offset(rnd(5) - 2, rnd(5) - 2).unwrap();
        if a != Point::CENTRE && b != Point::CENTRE && a != b {
            out.push([Point::CENTRE, a, b]);
        }
    }
    out
}

/// Plays one game; returns the winner and per-level (time, moves).
fn game(
    rules: Rules,
    black: Level,
    white: Level,
    opening: &[Point],
    time: &mut [(f64, u32); 6],
) -> Option<Color> {
    let mut pos = Position::new(rules);
    for &p in opening {
        pos.play(p).unwrap();
    }
    loop {
        let level = if pos.turn() == Color::Black { black } else { white };
        let t = Instant::now();
        let Decision::Play(p) = choose(&pos, level).unwrap().decision else {
            unreachable!("no foul claims under these rules")
        };
        let slot = &mut time[level.number() as usize];
        slot.0 += t.elapsed().as_secs_f64();
        slot.1 += 1;
        if let Some(end) = pos.play(p).unwrap() {
            return end.winner;
        }
    }
}

fn main() {
    let per_pair: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(8);
    let openings = openings(per_pair.div_ceil(2));
    let mut time = [(0.0, 0u32); 6];
    println!(
        "level pairs, {} games each (every opening with both colours)",
        openings.len() * 2
    );
    for rules in [Rules::FREESTYLE, Rules::RIF] {
        for low in 1..=4u8 {
            let (lo, hi) = (Level::new(low).unwrap(), Level::new(low + 1).unwrap());
            let (mut score, mut games) = (0.0, 0);
            let mut black_wins = 0;
            for o in &openings {
                for (black, white) in [(hi, lo), (lo, hi)] {
                    let w = game(rules, black, white, o, &mut time);
                    let high_colour = if black == hi { Color::Black } else { Color::White };
                    score += match w {
                        Some(c) if c == high_colour => 1.0,
                        None => 0.5,
                        _ => 0.0,
                    };
                    black_wins += usize::from(w == Some(Color::Black));
                    games += 1;
                }
            }
            println!(
                "  {rules}: level {} vs {low}: {score}/{games} for level {} ({black_wins} black wins)",
                low + 1,
                low + 1
            );
        }
    }
    for (level, (t, n)) in time.iter().enumerate().skip(1) {
        if *n > 0 {
            println!(
                "  level {level}: {:.1} ms per move over {n} moves",
                t * 1000.0 / f64::from(*n)
            );
        }
    }
}
