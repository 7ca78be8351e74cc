//! The fast forbidden-point search (`forbidden.rs`, table-driven) against
//! the slow one written straight from the definitions (`reference.rs`), on
//! seeded random boards, every empty point.

mod common;

use common::{position, recursive_cases, Rng};
use renju::{reference, ForbiddenPoints};

#[test]
fn fast_search_matches_the_definitions() {
    let n: usize = std::env::var("QIJU_RENJU_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500);
    let mut rng = Rng(0x0005_2026_1204);
    let (mut points, mut recursive) = (0, 0);
    for i in 0..n {
        let board = position(&mut rng, i);
        let fast: Vec<_> = ForbiddenPoints::of(&board).iter().collect();
        let slow = reference::forbidden_points(&board);
        assert_eq!(fast, slow, "position {i}:{board:?}");
        points += fast.len();
        recursive += recursive_cases(&board).len();
    }
    eprintln!("{n} boards, {points} forbidden points, {recursive} points decided by the recursive three");
    assert!(points > n, "the boards should be rich in forbidden points");
    assert!(
        recursive > 50,
        "the boards should exercise the recursive three rule"
    );
}
