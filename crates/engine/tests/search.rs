//! Search behaviour on positions with a known answer.

use engine::{Control, Engine, Level, Limits, RepetitionRule, Score, SearchError};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use xiangqi::{Move, Position};

fn mv(s: &str) -> Move {
    s.parse::<Move>().unwrap()
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn finds_mate_in_one() {
    // Black king d9; the rook b8 holds rank 8, the kings face on the e-file.
    let pos = Position::from_fen("3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    let r = Engine::new(8).search_simple(&pos, &[], &depth(4)).unwrap();
    assert_eq!(r.score, Score::Mate(1));
    // a7a9 mates; a7a0 stalemates (困毙), which wins just the same.
    let mut after = pos.clone();
    after.play(r.best).unwrap();
    assert!(after.legal_moves().is_empty(), "{r:?}");
}

#[test]
fn stalemate_is_a_win_for_the_stalemater() {
    // After a7a0 black is not in check but has no move: 困毙, a loss.
    let pos = Position::from_fen("3k5/1R7/9/9/9/9/9/9/9/R3K4 b - - 0 1").unwrap();
    assert!(!pos.is_check());
    assert_eq!(
        Engine::new(1).search_simple(&pos, &[], &depth(1)),
        Err(SearchError::NoLegalMove)
    );
    // From red's side, the quiet rook move is scored as a win in one.
    let before = Position::from_fen("3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    let r = Engine::new(1)
        .search_simple(
            &before,
            &[],
            &Limits {
                only: vec![mv("a7a0")],
                ..depth(2)
            },
        )
        .unwrap();
    assert_eq!((r.best, r.score), (mv("a7a0"), Score::Mate(1)));
}

/// The cycle: red checks a8-a9 and a9-a8, black's king steps f9-f8-f9.
const PERPETUAL: &str = "5k3/R8/9/9/6rr1/9/9/9/9/4K4 w - - 0 1";

#[test]
fn never_repeats_a_perpetual_check() {
    let pos = Position::from_fen(PERPETUAL).unwrap();
    let history = [mv("a8a9"), mv("f9f8"), mv("a9a8"), mv("f8f9")];
    for rule in [RepetitionRule::Chinese, RepetitionRule::PerpetualCheck] {
        let mut e = Engine::new(8);
        e.set_rule(rule);
        let r = e.search_simple(&pos, &history, &depth(6)).unwrap();
        // Red is two rooks down: a naive "repetition = draw" engine would
        // check again (a9 recreates the position after the first check).
        assert_ne!(r.best, mv("a8a9"), "{rule:?}: {r:?}");
    }
}

#[test]
fn punishes_the_opponents_perpetual_check() {
    let pos = Position::from_fen(PERPETUAL).unwrap();
    let history = [mv("a8a9"), mv("f9f8"), mv("a9a8"), mv("f8f9"), mv("a8a9")];
    let r = Engine::new(8).search_simple(&pos, &history, &depth(4)).unwrap();
    // Stepping back to f8 repeats the position; red's side of the cycle is
    // all checks, so red loses at once.
    assert_eq!(r.best, mv("f9f8"), "{r:?}");
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn stops_on_request_with_a_legal_move() {
    let pos = Position::startpos();
    let control = Control::default();
    let stop = control.stop.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        stop.store(true, Ordering::Relaxed);
    });
    let started = Instant::now();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = Engine::new(8)
        .search(&pos, &[], &limits, &control, &mut |_| {})
        .unwrap();
    t.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(pos.is_legal(r.best));
}

#[test]
fn respects_node_and_time_limits() {
    let pos = Position::startpos();
    let mut e = Engine::new(8);
    let r = e
        .search_simple(
            &pos,
            &[],
            &Limits {
                nodes: Some(5_000),
                ..Limits::default()
            },
        )
        .unwrap();
    assert!(r.nodes <= 5_000 + 200, "{}", r.nodes);
    // A 200 ms search stops by itself: it uses no more than about 200 ms of
    // this thread's CPU (one search thread), however busy the machine — the
    // wall clock it stops by only runs faster than the thread's CPU time.
    // How punctually it stops is the engine benchmark's business.
    let cpu_before = thread_cpu();
    let r = e
        .search_simple(
            &pos,
            &[],
            &Limits {
                movetime: Some(Duration::from_millis(200)),
                ..Limits::default()
            },
        )
        .unwrap();
    if let (Some(before), Some(after)) = (cpu_before, thread_cpu()) {
        assert!(
            after - before < Duration::from_millis(1000),
            "the search used {:?} of CPU",
            after - before
        );
    }
    assert!(pos.is_legal(r.best));
}

/// This thread's CPU time so far (Linux: `/proc/thread-self/schedstat`).
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        stat.split_whitespace().next()?.parse().ok()?,
    ))
}

#[test]
fn reports_iterations_and_a_consistent_pv() {
    let pos = Position::startpos();
    let mut infos = Vec::new();
    let r = Engine::new(8)
        .search(&pos, &[], &depth(5), &Control::default(), &mut |i| {
            infos.push(i.clone())
        })
        .unwrap();
    assert_eq!(
        infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
    assert_eq!(r.depth, 5);
    // The principal variation is a legal line starting with the best move.
    assert_eq!(r.pv[0], r.best);
    let mut p = pos.clone();
    for &m in &r.pv {
        p.play(m).unwrap();
    }
}

#[test]
fn levels_and_threads_play_legal_moves() {
    let pos =
        Position::from_fen("1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1")
            .unwrap();
    for n in 1..=7 {
        let limits = Limits {
            level: Level::new(n),
            nodes: Some(20_000),
            ..Limits::default()
        };
        let r = Engine::new(4).search_simple(&pos, &[], &limits).unwrap();
        assert!(pos.is_legal(r.best), "level {n}");
    }
    let mut e = Engine::new(16);
    e.set_threads(2);
    let r = e.search_simple(&pos, &[], &depth(6)).unwrap();
    assert!(pos.is_legal(r.best));
}

#[test]
fn bad_input_is_an_error() {
    let pos = Position::startpos();
    let mut e = Engine::new(1);
    assert!(matches!(
        e.search_simple(&pos, &[mv("h2e2"), mv("e2e3")], &depth(1)),
        Err(SearchError::IllegalHistory { index: 1, .. })
    ));
    let all: Vec<Move> = pos.legal_moves().to_vec();
    let banned = Limits {
        banned: all,
        ..depth(2)
    };
    assert_eq!(
        e.search_simple(&pos, &[], &banned),
        Err(SearchError::AllMovesExcluded)
    );
    let lost = Position::from_fen("3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    assert_eq!(
        e.search_simple(&lost, &[mv("a7a9")], &depth(1)),
        Err(SearchError::NoLegalMove)
    );
    // A banned move is never played.
    let only_not = Limits {
        banned: vec![mv("h2e2")],
        ..depth(3)
    };
    assert_ne!(e.search_simple(&pos, &[], &only_not).unwrap().best, mv("h2e2"));
}

#[test]
fn the_referee_rules_out_a_third_perpetual_check() {
    let pos = Position::from_fen(PERPETUAL).unwrap();
    let cycle = ["a8a9", "f9f8", "a9a8", "f8f9"];
    let history: Vec<Move> = cycle.iter().chain(cycle.iter()).map(|s| mv(s)).collect();
    let mut e = Engine::new(8);
    // Checking again would be the third occurrence: 长将, ruled a loss.
    let two = Limits {
        only: vec![mv("a8a9"), mv("a8b8")],
        ..depth(1)
    };
    assert_eq!(e.search_simple(&pos, &history, &two).unwrap().best, mv("a8b8"));
    // When every move loses, one is still played.
    let one = Limits {
        only: vec![mv("a8a9")],
        ..depth(1)
    };
    assert_eq!(e.search_simple(&pos, &history, &one).unwrap().best, mv("a8a9"));
}

/// What a game teaches the engine (the table, the move-ordering histories)
/// carries over to its next move, and `new_game` forgets it: a search then
/// visits exactly the nodes a fresh engine's does.
#[test]
fn a_new_game_forgets_what_the_last_one_learnt() {
    let other =
        Position::from_fen("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1")
            .unwrap();
    let fresh = Engine::new(8)
        .search_simple(&other, &[], &depth(7))
        .unwrap()
        .nodes;
    let mut e = Engine::new(8);
    e.search_simple(&Position::startpos(), &[], &depth(7)).unwrap();
    let warm = e.search_simple(&other, &[], &depth(7)).unwrap().nodes;
    assert_ne!(warm, fresh, "the first search changes how the second one goes");
    e.new_game();
    assert_eq!(e.search_simple(&other, &[], &depth(7)).unwrap().nodes, fresh);
}
