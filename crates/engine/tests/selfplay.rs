//! The acceptance check: fast self-play games with no illegal move
//! and no crash. Every move is checked with `Position::is_legal` inside
//! `play_game`.

use engine::tune::{play_game, GameEnd, SelfPlay};
use engine::Engine;

#[test]
fn a_thousand_fast_games_without_an_illegal_move() {
    let games: u64 = std::env::var("QIJU_SELFPLAY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let mut engine = Engine::new(1);
    let opts = SelfPlay {
        nodes: 40,
        random_plies: 8,
        max_plies: 200,
        seed: 7,
    };
    let mut ends = std::collections::HashMap::new();
    let mut plies = 0;
    for g in 0..games {
        let game = play_game(&mut engine, &opts, g);
        plies += game.moves.len();
        // Replay the record independently.
        let mut pos = game.start.clone();
        for &m in &game.moves {
            pos.play(m).expect("recorded moves are legal");
        }
        if game.end == GameEnd::NoMoves {
            assert!(pos.legal_moves().is_empty());
        }
        *ends.entry(format!("{:?}", game.end)).or_insert(0) += 1;
    }
    eprintln!("{games} games, {plies} plies, endings {ends:?}");
    assert!(plies as u64 > games * 20);
}
