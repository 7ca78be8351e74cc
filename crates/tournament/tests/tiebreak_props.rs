//! Arbitrary crosstables and arbitrary match histories never panic: the
//! standings answer or name the bad cell; knockout matches and brackets
//! answer every request with a next step or a typed error.

use proptest::prelude::*;
use tournament::knockout::{DoubleElimination, GameResult, Match, MatchFormat, Next, Player as Side};
use tournament::model::{Colour, Outcome, Player, RoundEntry, Tournament};
use tournament::tiebreak::standings::{standings, Penalty, Rules};
use tournament::tiebreak::{System, Tiebreak, Unplayed};

const OUTCOMES: [Outcome; 13] = [
    Outcome::Win,
    Outcome::Draw,
    Outcome::Loss,
    Outcome::ForfeitWin,
    Outcome::ForfeitLoss,
    Outcome::UnratedWin,
    Outcome::UnratedDraw,
    Outcome::UnratedLoss,
    Outcome::HalfBye,
    Outcome::FullBye,
    Outcome::PairingBye,
    Outcome::ZeroBye,
    Outcome::Absent,
];

fn crosstable() -> impl Strategy<Value = Tournament> {
    (1u32..9, 0u32..7).prop_flat_map(|(n, rounds)| {
        let cell = (0..=n + 1, any::<bool>(), 0..OUTCOMES.len()).prop_map(move |(o, white, k)| RoundEntry {
            opponent: (o > 0).then_some(o),
            colour: Some(if white { Colour::White } else { Colour::Black }),
            outcome: OUTCOMES[k],
        });
        (
            proptest::collection::vec(proptest::collection::vec(cell, 0..=rounds as usize), n as usize),
            proptest::collection::vec(0u32..3000, n as usize),
            proptest::option::of(0u32..9),
        )
            .prop_map(move |(rows, ratings, total)| Tournament {
                players: rows
                    .into_iter()
                    .zip(ratings)
                    .enumerate()
                    .map(|(i, (rounds, rating))| {
                        let mut p = Player::new(i as u32 + 1, "x", rating);
                        p.rounds = rounds;
                        p
                    })
                    .collect(),
                total_rounds: total,
                ..Tournament::default()
            })
    })
}

proptest! {
    #[test]
    fn standings_never_panic(t in crosstable(), fouls in proptest::collection::vec(0u32..3, 0..9), places in 0u32..4) {
        for system in [System::Swiss, System::RoundRobin] {
            for unplayed in [Unplayed::Dummy, Unplayed::VirtualOpponent] {
                let mut rules = Rules::new(system, Tiebreak::ALL.to_vec());
                rules.unplayed = unplayed;
                rules.playoff_places = places;
                for (i, f) in fouls.iter().enumerate() {
                    rules.fouls.insert(i as u32 + 1, *f);
                    if *f == 2 {
                        rules.penalties.insert(i as u32 + 1, Penalty { disqualifications: 0, warnings: 1 });
                    }
                }
                if let Ok(s) = standings(&t, &rules) {
                    prop_assert_eq!(s.rows.len(), t.players.len());
                    // Ranks never decrease and points never increase.
                    for w in s.rows.windows(2) {
                        prop_assert!(w[0].rank <= w[1].rank);
                        prop_assert!(w[0].points >= w[1].points);
                    }
                }
            }
        }
    }

    #[test]
    fn matches_take_any_sequence_of_requests(
        games in 0u32..4, playoff in 0u32..3, armageddon in any::<bool>(),
        steps in proptest::collection::vec((0u8..3, 0u8..3, any::<bool>()), 0..20),
    ) {
        let format = MatchFormat { games, playoff_games: playoff, armageddon, first_to: 0 };
        let Ok(mut m) = Match::new(1, format, Side::First, Side::Second) else {
            prop_assert_eq!(games, 0);
            return Ok(());
        };
        let mut won = None;
        for (kind, r, flag) in steps {
            let side = if flag { Side::First } else { Side::Second };
            let _ = match kind {
                0 => m.record([GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins][r as usize]),
                1 => m.choose_colour(side, r == 0),
                _ => m.decide_by_lot(side),
            };
            if let Some(w) = won {
                prop_assert_eq!(m.next(), Next::Winner(w));
            }
            won = m.winner();
            prop_assert!(m.games().len() as u32 <= games + playoff + 1);
        }
    }

    #[test]
    fn double_elimination_always_ends(n in 2u32..24, picks in proptest::collection::vec(any::<bool>(), 200)) {
        let mut de = DoubleElimination::seeded(n).unwrap();
        let mut k = 0;
        let mut rounds = 0;
        while de.champion().is_none() {
            let (games, _) = de.pair_round().unwrap();
            prop_assert!(!games.is_empty());
            for (a, b) in games {
                de.report(if picks[k % picks.len()] { a } else { b }).unwrap();
                k += 1;
            }
            rounds += 1;
            prop_assert!(rounds <= 2 * n + 2);
        }
    }
}
