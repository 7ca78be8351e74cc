use super::*;
use crate::board::Board;
use crate::rules::Rules;
use crate::{forbidden, Position, Setup};

fn pt(s: &str) -> Point {
    s.parse().unwrap()
}

fn position(black: &str, white: &str, turn: Color, rules: Rules) -> Position {
    let mut board = Board::empty();
    for s in black.split_whitespace() {
        board.set(pt(s), Color::Black);
    }
    for s in white.split_whitespace() {
        board.set(pt(s), Color::White);
    }
    Position::from_setup(Setup { board, turn }, rules).unwrap()
}

fn play(pos: &Position, level: u8) -> (Point, Why) {
    let c = choose(pos, Level::new(level).unwrap()).unwrap();
    let Decision::Play(p) = c.decision else {
        panic!("{c:?}")
    };
    (p, c.why)
}

#[test]
fn opens_on_the_centre() {
    for rules in [Rules::FREESTYLE, Rules::RIF] {
        assert_eq!(play(&Position::new(rules), 3), (Point::CENTRE, Why::Forced));
    }
}

#[test]
fn makes_its_five_and_blocks_the_opponents() {
    let pos = position(
        "h8 i8 j8 k8 c3",
        "a1 a2 a3 a4 o15",
        Color::Black,
        Rules::FREESTYLE,
    );
    for level in 1..=5 {
        let (p, why) = play(&pos, level);
        assert!(p == pt("g8") || p == pt("l8"), "level {level}: {p}");
        assert_eq!(why, Why::Five);
    }
    let pos = position("h8 i8 j8 c3", "a1 a2 a3 a4", Color::Black, Rules::FREESTYLE);
    for level in 1..=5 {
        assert_eq!(play(&pos, level), (pt("a5"), Why::Block), "level {level}");
    }
}

#[test]
fn finds_a_win_by_fours() {
    // Black h9 h10 h11 (h12 white) and i8 j8 k8 (g8 white): h8 makes two
    // fours at once. The search's line is played out against the forced
    // answers.
    let pos = position(
        "h9 h10 h11 i8 j8 k8 d10 e10",
        "h12 g8 a1 c1 e1 a3 c3 e3",
        Color::Black,
        Rules::FREESTYLE,
    );
    let (p, why) = play(&pos, 3);
    assert_eq!(why, Why::Vcf, "{p}");
    // Play the VCF out against the forced answers: black wins.
    let mut game = pos.clone();
    for _ in 0..10 {
        let c = choose(&game, Level::new(3).unwrap()).unwrap();
        let Decision::Play(p) = c.decision else { panic!() };
        if let Some(end) = game.play(p).unwrap() {
            assert_eq!(end.winner, Some(Color::Black));
            return;
        }
        // White answers as the computer does (it must block).
        let c = choose(&game, Level::new(3).unwrap()).unwrap();
        let Decision::Play(q) = c.decision else { panic!() };
        assert!(game.play(q).unwrap().is_none());
    }
    panic!("no five after ten moves: {game:?}");
}

#[test]
fn black_avoids_forbidden_points_in_renju() {
    // h8 is a double-three; it is also the natural attacking point.
    let pos = position("f8 g8 h9 h10", "d8 a1 a15 o1", Color::Black, Rules::RIF);
    assert_eq!(
        forbidden::forbidden(pos.board(), pt("h8")),
        Some(crate::Forbidden::DoubleThree)
    );
    for level in 1..=5 {
        let (p, _) = play(&pos, level);
        assert_ne!(p, pt("h8"), "level {level}");
        assert!(forbidden::forbidden(pos.board(), p).is_none());
    }
    // In freestyle the same point is the best move (a double three).
    let pos = position("f8 g8 h9 h10", "d8 a1 a15 o1", Color::Black, Rules::FREESTYLE);
    assert_eq!(play(&pos, 4).0, pt("h8"));
}

#[test]
fn white_wins_with_a_four_black_may_not_block() {
    // White g3 h3 i3 (f3 black): j3 makes a four whose only completion,
    // k3, is a double-four for black (k4 k5 k6 closed by k7; h6 i5 j4
    // closed by g7). Black cannot block: white wins.
    let black = "f3 k4 k5 k6 h6 i5 j4";
    let white = "g3 h3 i3 k7 g7 a15";
    let pos = position(black, white, Color::White, Rules::RIF);
    assert!(
        forbidden::forbidden(pos.board(), pt("k3")).is_some(),
        "{:?}",
        pos.board()
    );
    let (p, why) = play(&pos, 3);
    assert_eq!((p, why), (pt("j3"), Why::Vcf));
}

#[test]
fn the_office_computer_points_out_fouls() {
    let start = "oo13/15/15/15/15/7x7/7x7/3o1xx8/15/15/15/15/15/15/14o b";
    let mut pos = Position::from_fen(start, Rules::OFFICE).unwrap();
    pos.play(pt("h8")).unwrap();
    let c = choose(&pos, Level::MIN).unwrap();
    assert_eq!((c.decision, c.why), (Decision::ClaimFoul, Why::Foul));
}

/// Plays a game between two levels; returns the winner.
fn game(rules: Rules, black: u8, white: u8, opening: &[&str]) -> Option<Color> {
    let mut pos = Position::new(rules);
    for m in opening {
        pos.play(pt(m)).unwrap();
    }
    loop {
        let level = if pos.turn() == Color::Black { black } else { white };
        let c = choose(&pos, Level::new(level).unwrap()).unwrap();
        let Decision::Play(p) = c.decision else { panic!() };
        if let Some(end) = pos.play(p).unwrap() {
            return end.winner;
        }
    }
}

#[test]
fn a_stronger_level_beats_a_weaker_one() {
    // Four short games, colours alternating, from two openings.
    let openings: [&[&str]; 2] = [&["h8", "i9"], &["h8", "h9"]];
    let mut strong = 0;
    for opening in openings {
        if game(Rules::FREESTYLE, 3, 1, opening) == Some(Color::Black) {
            strong += 1;
        }
        if game(Rules::FREESTYLE, 1, 3, opening) == Some(Color::White) {
            strong += 1;
        }
    }
    assert!(strong >= 3, "level 3 won {strong} of 4 against level 1");
}

#[test]
fn renju_games_end_without_black_fouls_by_choice() {
    // Level 2 against itself under RIF: black never loses by a forbidden
    // point while it had another point to play.
    for opening in [["h8", "i9"], ["h8", "h9"], ["h8", "j10"]] {
        let mut pos = Position::new(Rules::RIF);
        for m in opening {
            pos.play(pt(m)).unwrap();
        }
        loop {
            let c = choose(&pos, Level::new(2).unwrap()).unwrap();
            let Decision::Play(p) = c.decision else { panic!() };
            if pos.turn() == Color::Black {
                let free = pos
                    .legal_moves()
                    .iter()
                    .any(|&q| forbidden::forbidden(pos.board(), q).is_none());
                assert!(
                    !free || forbidden::forbidden(pos.board(), p).is_none(),
                    "{pos:?} {p}"
                );
            }
            if pos.play(p).unwrap().is_some() {
                break;
            }
        }
    }
}

/// Random positions from games between weak levels, with the side to move.
fn random_positions(rules: Rules, n: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut seed = 0x51de_2026_u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    while out.len() < n {
        let mut pos = Position::new(rules);
        pos.play(Point::CENTRE).unwrap();
        let plies = 6 + (rnd() % 24) as usize;
        for _ in 0..plies {
            // Random points near the stones, two thirds of the time; the
            // level-1 computer otherwise.
            let p = if rnd() % 3 != 0 {
                let near: Vec<Point> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|&p| pos.board().has_neighbour(p))
                    .collect();
                near[(rnd() % near.len() as u64) as usize]
            } else {
                let Decision::Play(p) = choose(&pos, Level::MIN).unwrap().decision else {
                    break;
                };
                p
            };
            if pos.play(p).unwrap().is_some() {
                break;
            }
        }
        if pos.end().is_none() {
            out.push(pos);
        }
    }
    out
}

/// Where the computer claims a forced win (VCF, VCT), playing on against
/// the strongest defender wins.
#[test]
fn claimed_threat_wins_are_won() {
    let mut claims = [0usize; 2];
    for rules in [Rules::FREESTYLE, Rules::RIF] {
        for start in random_positions(rules, 150) {
            let c = choose(&start, Level::new(4).unwrap()).unwrap();
            let i = match c.why {
                Why::Vcf => 0,
                Why::Vct => 1,
                _ => continue,
            };
            claims[i] += 1;
            let attacker = start.turn();
            let mut pos = start.clone();
            let mut end = None;
            for _ in 0..40 {
                let level = if pos.turn() == attacker { 4 } else { 5 };
                let Decision::Play(p) = choose(&pos, Level::new(level).unwrap()).unwrap().decision else {
                    panic!()
                };
                end = pos.play(p).unwrap();
                if end.is_some() {
                    break;
                }
            }
            assert_eq!(
                end.and_then(|e| e.winner),
                Some(attacker),
                "{rules}: {:?} claimed from {start:?}, ended {pos:?}",
                c.why
            );
        }
    }
    eprintln!("claimed wins: {} by fours, {} by threats", claims[0], claims[1]);
    assert!(claims[0] >= 5 && claims[1] >= 2, "{claims:?}");
}

/// Games between random levels under every rule set, to the end: every
/// decision is playable, and the office computer claims every foul.
#[test]
fn every_decision_is_playable() {
    use crate::game::RenjuGame;
    use game::{Game, Status};
    let mut seed = 7u64;
    for rules in [Rules::FREESTYLE, Rules::STANDARD, Rules::RIF, Rules::OFFICE] {
        for _ in 0..4 {
            let mut g = RenjuGame::new(rules);
            while g.status() == Status::Ongoing {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let level = Level::new(1 + (seed >> 60) as u8 % 3).unwrap();
                let c = choose(g.position(), level).expect("a move while the game goes on");
                if g.position().pending_foul().is_some() {
                    assert_eq!(c.decision, Decision::ClaimFoul);
                }
                g.play(&c.decision.coord())
                    .unwrap_or_else(|e| panic!("{rules}: {c:?}: {e}"));
            }
            assert!(choose(g.position(), Level::MIN).is_none());
        }
    }
}

/// Under a clock the search stops in time: level 5 in a busy middle game
/// (level 3 against itself from a three-stone opening), given 5 ms,
/// answers with a free point after searching fewer nodes than it does
/// unbounded; without a deadline it is the same deterministic search.
#[test]
fn a_deadline_stops_the_search_in_time() {
    let mut pos = Position::new(Rules::FREESTYLE);
    for p in ["h8", "i9", "j7"] {
        pos.play(pt(p)).unwrap();
    }
    for _ in 0..12 {
        let (p, _) = play(&pos, 3);
        if pos.play(p).unwrap().is_some() {
            break;
        }
    }
    assert!(pos.end().is_none(), "{:?}", pos.fen());
    let level = Level::new(5).unwrap();
    let t = std::time::Instant::now();
    let c = choose_within(&pos, level, Some(t + std::time::Duration::from_millis(5))).unwrap();
    let took = t.elapsed();
    let Decision::Play(p) = c.decision else {
        panic!("{c:?}")
    };
    assert!(pos.board().is_empty_at(p));
    assert!(took < std::time::Duration::from_millis(400), "{took:?}");
    let unbounded = choose(&pos, level).unwrap();
    assert_eq!(
        choose_within(&pos, level, None).unwrap().decision,
        unbounded.decision
    );
    assert!(
        unbounded.nodes > c.nodes,
        "the deadline cut the search: {} against {} nodes",
        c.nodes,
        unbounded.nodes
    );
}
