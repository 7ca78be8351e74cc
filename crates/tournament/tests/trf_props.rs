//! TRF reading never panics, and what we write we read back unchanged.

use proptest::prelude::*;
use tournament::model::{Colour, Outcome, Player, PointSystem, Points, RoundEntry, Tournament};
use tournament::trf;

fn outcome_bye() -> impl Strategy<Value = Outcome> {
    prop::sample::select(vec![
        Outcome::HalfBye,
        Outcome::FullBye,
        Outcome::PairingBye,
        Outcome::ZeroBye,
        Outcome::Absent,
    ])
}

fn game() -> impl Strategy<Value = Outcome> {
    prop::sample::select(vec![
        Outcome::Win,
        Outcome::Draw,
        Outcome::Loss,
        Outcome::ForfeitWin,
        Outcome::ForfeitLoss,
        Outcome::UnratedWin,
        Outcome::UnratedDraw,
        Outcome::UnratedLoss,
    ])
}

/// A consistent tournament: n players, r rounds, each round a random
/// matching of some players (the rest get byes).
fn tournament() -> impl Strategy<Value = Tournament> {
    (
        2usize..12,
        0usize..6,
        any::<u64>(),
        prop::collection::vec((game(), outcome_bye(), any::<bool>()), 80),
        any::<bool>(),
    )
        .prop_map(|(n, r, seed, choices, three)| {
            let mut players: Vec<Player> = (1..=n as u32)
                .map(|i| {
                    let mut p = Player::new(i, &format!("Player {i}"), 1500 + i * 7);
                    p.title = if i % 3 == 0 { "GM".into() } else { String::new() };
                    p.federation = "CHN".into();
                    p
                })
                .collect();
            let mut k = 0usize;
            let mut s = seed;
            for _ in 0..r {
                let mut order: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    order.swap(i, (s >> 33) as usize % (i + 1));
                }
                let mut i = 0;
                while i < n {
                    let (g, b, flip) = choices[k % choices.len()];
                    k += 1;
                    if i + 1 < n && (flip || !k.is_multiple_of(3)) {
                        let (a, c) = (order[i], order[i + 1]);
                        let (ca, cb) = if flip {
                            (Colour::White, Colour::Black)
                        } else {
                            (Colour::Black, Colour::White)
                        };
                        players[a].rounds.push(RoundEntry {
                            opponent: Some(c as u32 + 1),
                            colour: Some(ca),
                            outcome: g,
                        });
                        players[c].rounds.push(RoundEntry {
                            opponent: Some(a as u32 + 1),
                            colour: Some(cb),
                            outcome: g.mirrored().unwrap(),
                        });
                        i += 2;
                    } else {
                        players[order[i]].rounds.push(RoundEntry::bye(b));
                        i += 1;
                    }
                }
            }
            let points = if three {
                PointSystem::three_one_zero()
            } else {
                PointSystem::default()
            };
            for p in &mut players {
                p.declared_points = Some(
                    p.rounds
                        .iter()
                        .map(|e| points.points(e.outcome))
                        .fold(Points::ZERO, |a, b| a + b),
                );
            }
            Tournament {
                name: "Prop".into(),
                players,
                total_rounds: Some(r as u32 + 1),
                initial_colour: Some(if three { Colour::White } else { Colour::Black }),
                points,
                forbidden: if three { vec![vec![1, 2]] } else { vec![] },
                other_lines: vec!["022 Beijing".into()],
            }
        })
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,300}") {
        let _ = trf::parse(&s);
    }

    #[test]
    fn arbitrary_player_lines_never_panic(lines in prop::collection::vec("(001|XXR|XXC|162|240|260|XXS|BBW|XXP)[ 0-9a-zA-Z.=+-]{0,140}", 0..6)) {
        let _ = trf::parse(&lines.join("\n"));
    }

    #[test]
    fn arbitrary_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = trf::parse(&String::from_utf8_lossy(&b));
    }

    #[test]
    fn write_then_parse_round_trips(t in tournament()) {
        let text = trf::write(&t);
        let back = trf::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back, t);
    }
}
