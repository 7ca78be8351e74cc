//! Xiangqi as data (`data/xiangqi.toml`) on the generic engine against our
//! core (`crates/xiangqi`) and the published counts in `data/perft.json`.
//!
//! Every position of the file, at every depth whose count stays under 5
//! million leaves, counted by both engines and compared with the published
//! count where there is one; the whole test runs in seconds in release.
//! `perft_speed` (ignored) times the start position's perft(4) and perft(5) on both.

use std::sync::Arc;
use std::time::Instant;

mod common;

use common::{perft_cases, Rng};
use variants::{perft, Position, Variant, XIANGQI_TOML};

fn xiangqi() -> Arc<Variant> {
    Arc::new(Variant::from_toml(XIANGQI_TOML).unwrap())
}

#[test]
fn perft_equals_core_and_published_counts() {
    let variant = xiangqi();
    let mut checked = 0;
    for (fen, published) in perft_cases() {
        let mut ours = Position::from_fen(variant.clone(), &fen).unwrap();
        let mut core = xiangqi::Position::from_fen(&fen).unwrap();
        let deepest = published.iter().map(|&(d, _)| d).max().unwrap();
        for depth in 1..=deepest {
            let want = published.iter().find(|&&(d, _)| d == depth).map(|&(_, n)| n);
            if want.is_some_and(|n| n > 5_000_000) {
                break;
            }
            let core_count = xiangqi::perft::perft(&mut core, depth);
            if core_count > 5_000_000 {
                break;
            }
            let got = perft(&mut ours, depth);
            assert_eq!(
                got, core_count,
                "perft({depth}) of {fen}: variants vs crates/xiangqi"
            );
            if let Some(want) = want {
                assert_eq!(got, want, "perft({depth}) of {fen}: published");
            }
            checked += 1;
        }
        assert_eq!(ours.to_fen(), core.fen(), "the board is restored after perft");
    }
    eprintln!("{checked} perft counts compared");
    assert!(checked >= 10, "only {checked} counts checked");
}

/// Random playouts of Xiangqi (up to 150 plies, until the game ends): in
/// every position the legal moves, the check and the ending equal the core's.
/// Perft covers the opening and two middlegames; these reach endgames,
/// lone kings facing each other and stalemates.
#[test]
fn random_playouts_equal_the_core() {
    let variant = xiangqi();
    let mut rng = Rng(0x27);
    let (mut positions, mut ends) = (0, 0);
    for _ in 0..40 {
        let mut ours = Position::start(variant.clone());
        let mut core = xiangqi::Position::startpos();
        for _ in 0..150 {
            let mut a: Vec<String> = ours.legal_moves().iter().map(ToString::to_string).collect();
            let mut b: Vec<String> = core.legal_moves().iter().map(ToString::to_string).collect();
            a.sort();
            b.sort();
            let fen = core.fen();
            assert_eq!(a, b, "legal moves of {fen}");
            assert_eq!(ours.is_check(), core.is_check(), "check in {fen}");
            assert_eq!(ours.end().map(|(_, o)| o), core.outcome(), "ending of {fen}");
            positions += 1;
            if a.is_empty() {
                ends += 1;
                break;
            }
            // Captures half the time, so that playouts reach endgames.
            let captures: Vec<&String> = a
                .iter()
                .filter(|m| ours.piece_at(variants::Move::parse(m).unwrap().to).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.next().is_multiple_of(2) {
                captures[rng.below(captures.len())].clone()
            } else {
                a[rng.below(a.len())].clone()
            };
            ours.play_iccs(&m).unwrap();
            core.play(m.parse::<xiangqi::Move>().unwrap()).unwrap();
            assert_eq!(ours.to_fen(), core.fen());
        }
    }
    eprintln!("{positions} positions of random playouts, {ends} games ended: equal to crates/xiangqi");
    assert!(positions > 2000 && ends > 0);
}

/// `cargo test --release -p variants --test perft -- --ignored --nocapture`
/// prints both engines' time for perft(4) and perft(5) of the start position
/// (docs/PERFORMANCE.md).
#[test]
#[ignore = "timing, not a check"]
fn perft_speed() {
    let variant = xiangqi();
    let mut ours = Position::start(variant);
    let mut core = xiangqi::Position::startpos();
    for depth in [4u32, 5] {
        let t = Instant::now();
        let a = xiangqi::perft::perft(&mut core, depth);
        let core_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let b = perft(&mut ours, depth);
        let ours_s = t.elapsed().as_secs_f64();
        assert_eq!(a, b);
        println!(
            "perft({depth}) = {a}: crates/xiangqi {core_s:.3} s ({:.1} Mnps), variants {ours_s:.3} s ({:.1} Mnps), ratio {:.1}×",
            a as f64 / core_s / 1e6,
            b as f64 / ours_s / 1e6,
            ours_s / core_s
        );
    }
}
