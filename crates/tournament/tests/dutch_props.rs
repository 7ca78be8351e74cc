//! The Dutch pairer on arbitrary consistent tournaments: it never panics,
//! and whatever it returns obeys the absolute criteria — every player to
//! be paired appears exactly once, nobody meets a previous opponent or a
//! forbidden partner [C1], and the bye goes to someone eligible [C2].

use proptest::prelude::*;
use tournament::dutch::{self, DutchError};
use tournament::model::{Colour, Outcome, Player, PointSystem, RoundEntry, Tournament};

/// n players, r rounds each a random partial matching; the rest get byes
/// (H, Z, F, U or absent). Results are random, forfeits included.
fn tournament() -> impl Strategy<Value = Tournament> {
    (2usize..24, 0usize..8, any::<u64>(), any::<bool>(), any::<bool>()).prop_map(
        |(n, r, seed, three, black)| {
            let mut s = seed | 1;
            let mut next = move || {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s
            };
            let mut players: Vec<Player> = (1..=n as u32)
                .map(|i| Player::new(i, &format!("P{i}"), 2400 - 10 * i))
                .collect();
            let games = [
                Outcome::Win,
                Outcome::Draw,
                Outcome::Loss,
                Outcome::ForfeitWin,
                Outcome::ForfeitLoss,
            ];
            let byes = [
                Outcome::HalfBye,
                Outcome::ZeroBye,
                Outcome::FullBye,
                Outcome::PairingBye,
                Outcome::Absent,
            ];
            for _ in 0..r {
                let mut order: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    order.swap(i, next() as usize % (i + 1));
                }
                let mut i = 0;
                while i < n {
                    if i + 1 < n && next() % 5 != 0 {
                        let (a, b) = (order[i], order[i + 1]);
                        let g = games[next() as usize % games.len()];
                        let (ca, cb) = if next() % 2 == 0 {
                            (Colour::White, Colour::Black)
                        } else {
                            (Colour::Black, Colour::White)
                        };
                        players[a].rounds.push(RoundEntry {
                            opponent: Some(b as u32 + 1),
                            colour: Some(ca),
                            outcome: g,
                        });
                        players[b].rounds.push(RoundEntry {
                            opponent: Some(a as u32 + 1),
                            colour: Some(cb),
                            outcome: g.mirrored().unwrap(),
                        });
                        i += 2;
                    } else {
                        let o = byes[next() as usize % byes.len()];
                        players[order[i]].rounds.push(RoundEntry::bye(o));
                        i += 1;
                    }
                }
            }
            // Some players ask for a bye in the next round.
            for p in players.iter_mut() {
                if p.rounds.len() == r && next() % 7 == 0 {
                    p.rounds.push(RoundEntry::bye(Outcome::HalfBye));
                }
            }
            let forbidden = if n > 3 {
                vec![vec![1, 2], vec![3, n as u32]]
            } else {
                vec![]
            };
            Tournament {
                name: "Prop".into(),
                players,
                total_rounds: Some(r as u32 + 1 + (seed % 3) as u32),
                initial_colour: Some(if black { Colour::Black } else { Colour::White }),
                points: if three {
                    PointSystem::three_one_zero()
                } else {
                    PointSystem::default()
                },
                forbidden,
                other_lines: vec![],
            }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn pairings_obey_the_absolute_criteria(t in tournament()) {
        let round = t.rounds_paired() + 1;
        let to_pair: Vec<u32> = t
            .players
            .iter()
            .filter(|p| p.rounds.len() < round as usize)
            .map(|p| p.id)
            .collect();
        match dutch::pair_next_round(&t) {
            Ok(p) => {
                let mut seen: Vec<u32> = p.boards.iter().flat_map(|&(w, b)| [w, b]).collect();
                seen.extend(p.bye);
                seen.sort_unstable();
                let mut want = to_pair.clone();
                want.sort_unstable();
                prop_assert_eq!(seen, want);
                for &(w, b) in &p.boards {
                    let pw = t.player(w).unwrap();
                    let met = (1..round).any(|k| pw.round(k).played_opponent() == Some(b));
                    prop_assert!(!met, "{} and {} met before", w, b);
                    prop_assert!(!t.is_forbidden(w, b), "{} and {} may not meet", w, b);
                }
                if let Some(x) = p.bye {
                    let px = t.player(x).unwrap();
                    let had = (1..round).any(|k| {
                        let e = px.round(k);
                        e.outcome == Outcome::PairingBye
                            || (!e.outcome.is_played() && t.points.points(e.outcome) >= t.points.win)
                    });
                    prop_assert!(!had, "{} may not get the bye again", x);
                }
            }
            Err(DutchError::NoPairing { .. }) | Err(DutchError::Finished { .. }) => {}
            Err(e @ DutchError::TooLarge { .. }) => prop_assert!(false, "{e}"),
        }
    }
}
