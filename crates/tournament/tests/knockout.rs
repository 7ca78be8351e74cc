//! Seed 000's knockout redrawn by cards every round: round 1 from two sets of
//! 1–6 and one king (13 players, the king's holder has the bye), round 2 the
//! six winners and the bye from two sets of 1–3 and a king (the 7-player
//! round), round 3 (the semi-finals) from two sets of 1–2, then the final.
//! The red card of each number moves first.

use tournament::knockout::{deal, deck, Card, KnockoutError};

fn red(number: u32) -> Card {
    Card::Number { number, red: true }
}
fn black(number: u32) -> Card {
    Card::Number { number, red: false }
}

#[test]
fn seed_000_knockout_with_a_bye_redrawn_every_round() {
    assert_eq!(deck(13).len(), 13);
    assert_eq!(
        deck(7),
        vec![red(1), black(1), red(2), black(2), red(3), black(3), Card::King]
    );
    let players: Vec<&str> = "A B C D E F G H I J K L M".split(' ').collect();
    let cards = [
        red(3),
        black(1),
        Card::King,
        red(6),
        black(5),
        red(2),
        black(6),
        red(1),
        black(2),
        red(4),
        black(3),
        red(5),
        black(4),
    ];
    let (games, bye) = deal(&players, &cards).unwrap();
    assert_eq!(bye, Some("C"));
    assert_eq!(
        games,
        vec![
            ("H", "B"),
            ("F", "I"),
            ("A", "K"),
            ("J", "M"),
            ("L", "E"),
            ("D", "G")
        ]
    );
    // The red player wins every game: six winners and the bye go on.
    let mut next: Vec<&str> = games.iter().map(|g| g.0).collect();
    next.push(bye.unwrap());
    assert_eq!(next.len(), 7);
    let cards = [black(2), Card::King, red(1), black(3), red(2), red(3), black(1)];
    let (games, bye) = deal(&next, &cards).unwrap();
    assert_eq!(bye, Some("F"));
    assert_eq!(games, vec![("A", "C"), ("L", "H"), ("D", "J")]);
    let semi: Vec<&str> = vec!["C", "H", "J", "F"];
    let (games, bye) = deal(&semi, &[red(2), black(1), red(1), black(2)]).unwrap();
    assert_eq!((games, bye), (vec![("J", "H"), ("C", "F")], None));
    let (games, _) = deal(&["H", "C"], &[black(1), red(1)]).unwrap();
    assert_eq!(games, vec![("C", "H")]);
}

#[test]
fn a_wrong_draw_is_an_error() {
    let players = ["A", "B", "C"];
    assert_eq!(
        deal(&players, &[red(1), red(1), Card::King]),
        Err(KnockoutError::BadCard {
            card: "red 1".into(),
            players: 3
        })
    );
    assert!(matches!(
        deal(&players, &[red(1), black(1)]),
        Err(KnockoutError::CardCount { .. })
    ));
    assert!(matches!(
        deal(&["A", "B"], &[red(1), Card::King]),
        Err(KnockoutError::BadCard { .. })
    ));
}
