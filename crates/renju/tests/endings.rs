//! How games end under each rule set: five; overline (black loses by it in
//! renju, white wins with it, anyone wins with it in freestyle, nobody in
//! standard gomoku); a five made together with a forbidden shape; black's
//! forbidden points; the full board; and the office event's replay of a
//! forbidden point that white points out.

use game::{Game, Outcome, Side, Status};
use renju::{Color, End, Forbidden, Point, Position, Reason, RenjuGame, Rules};

fn pt(s: &str) -> Point {
    s.parse().unwrap()
}

/// Plays `moves` (alternating from black, first on h8) and returns the
/// position and the result of the last move.
fn play(rules: Rules, moves: &str) -> (Position, Option<End>) {
    let mut pos = Position::new(rules);
    let mut end = None;
    let moves: Vec<&str> = moves.split_whitespace().collect();
    for (i, m) in moves.iter().enumerate() {
        end = pos
            .play(pt(m))
            .unwrap_or_else(|e| panic!("move {} {m}: {e}", i + 1));
        if i + 1 < moves.len() {
            assert_eq!(end, None, "the game ended early, at move {} {m}", i + 1);
        }
    }
    (pos, end)
}

fn win(color: Color, reason: Reason) -> Option<End> {
    Some(End {
        winner: Some(color),
        reason,
    })
}

const ALL: [Rules; 4] = [Rules::FREESTYLE, Rules::STANDARD, Rules::RIF, Rules::OFFICE];

// Black builds row 8 from h8 rightwards, white row 15 from a15.
const BLACK_FIVE: &str = "h8 a15 i8 b15 j8 c15 k8 d15 l8";
const WHITE_FIVE: &str = "h8 a15 i8 b15 j8 c15 k8 d15 h10 e15";

#[test]
fn five_wins_under_every_rule_set() {
    for rules in ALL {
        let (mut pos, end) = play(rules, BLACK_FIVE);
        assert_eq!(end, win(Color::Black, Reason::Five), "{rules}");
        assert!(pos.legal_moves().is_empty());
        assert_eq!(pos.play(pt("a5")).unwrap_err(), renju::PlayError::GameOver);
        let (_, end) = play(rules, WHITE_FIVE);
        assert_eq!(end, win(Color::White, Reason::Five), "{rules}");
    }
}

/// Black: h8 i8 j8 l8 m8 on row 8, then k8 joins them into six.
const BLACK_SIX: &str = "h8 a1 i8 a3 j8 a5 l8 a7 m8 a9 k8";
/// White: b1 c1 d1 f1 g1 on row 1 (black elsewhere, harmlessly), then e1.
const WHITE_SIX: &str = "h8 b1 h10 c1 j8 d1 j10 f1 l12 g1 b14 e1";

#[test]
fn overline() {
    // Renju: black's overline is forbidden and loses.
    let (_, end) = play(Rules::RIF, BLACK_SIX);
    assert_eq!(end, win(Color::White, Reason::Foul(Forbidden::Overline)));
    // Renju: white's overline counts as five.
    let (_, end) = play(Rules::RIF, WHITE_SIX);
    assert_eq!(end, win(Color::White, Reason::Overline));
    // Freestyle: anyone's overline wins.
    let (_, end) = play(Rules::FREESTYLE, BLACK_SIX);
    assert_eq!(end, win(Color::Black, Reason::Overline));
    let (_, end) = play(Rules::FREESTYLE, WHITE_SIX);
    assert_eq!(end, win(Color::White, Reason::Overline));
    // Standard gomoku: an overline is no win, for either side; play goes on.
    let (pos, end) = play(Rules::STANDARD, BLACK_SIX);
    assert_eq!(end, None);
    assert_eq!(pos.turn(), Color::White);
    let (pos, end) = play(Rules::STANDARD, WHITE_SIX);
    assert_eq!(end, None);
    assert_eq!(pos.legal_moves().len(), 225 - 12);
}

#[test]
fn a_five_made_with_a_forbidden_shape_wins() {
    // Black d8 completes a8-e8 and at the same time two more fours: d8-d11
    // (d12 white, d7 completes) and the diagonal d8-g11. The five wins.
    let moves = "h8 d12 a8 o15 b8 m15 c8 k15 e8 o13 d9 m13 d10 k13 d11 o11 e9 m11 f10 k11 g11 o9 d8";
    let (_, end) = play(Rules::RIF, moves);
    assert_eq!(end, win(Color::Black, Reason::Five));
    // Without e8 the row is a four too: d8 makes three fours and loses.
    let moves = "h8 d12 a8 o15 b8 m15 c8 k15 d9 o13 d10 m13 d11 k13 e9 o11 f10 m11 g11 k11 d8";
    let (_, end) = play(Rules::RIF, moves);
    assert_eq!(end, win(Color::White, Reason::Foul(Forbidden::DoubleFour)));
    // Freestyle knows no forbidden points: the same stone is just a stone.
    let (_, end) = play(Rules::FREESTYLE, moves);
    assert_eq!(end, None);
}

#[test]
fn double_three_loses_in_renju_only() {
    // f8 g8 (closed at d8) and h9 h10: h8 last makes two threes.
    let moves = "g8 d8 f8 a1 h9 a3 h10 a5 h8";
    let start = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b";
    let rules_and_result = [
        (
            Rules::RIF,
            win(Color::White, Reason::Foul(Forbidden::DoubleThree)),
        ),
        (Rules::FREESTYLE, None),
        (Rules::STANDARD, None),
    ];
    for (rules, want) in rules_and_result {
        // The first stone is not the centre here: switch that rule off.
        let mut pos = Position::from_fen(
            start,
            Rules {
                centre_first: false,
                ..rules
            },
        )
        .unwrap();
        let mut end = None;
        for m in moves.split_whitespace() {
            end = pos.play(pt(m)).unwrap();
        }
        assert_eq!(end, want, "{rules}");
    }
}

/// A full board with no five: black where (column + 2 × row) mod 4 < 2.
/// Every row, column and diagonal then alternates two and two, so no
/// position on the way has a five, a four or a three (and h8 is black).
fn full_board_order() -> Vec<Point> {
    let colour = |p: Point| (p.col() + 2 * p.row()) % 4 < 2;
    let mut black: Vec<Point> = Point::all()
        .filter(|&p| colour(p) && p != Point::CENTRE)
        .collect();
    let mut white: Vec<Point> = Point::all().filter(|&p| !colour(p)).collect();
    // White's first stone on its own side (office rules): rows 9–15 first.
    white.sort_by_key(|p| std::cmp::Reverse(p.row()));
    black.insert(0, Point::CENTRE);
    assert_eq!((black.len(), white.len()), (113, 112));
    let mut order = Vec::new();
    for i in 0..113 {
        order.push(black[i]);
        if i < 112 {
            order.push(white[i]);
        }
    }
    order
}

#[test]
fn a_full_board_is_a_draw() {
    for rules in ALL {
        let mut pos = Position::new(rules);
        let order = full_board_order();
        for (i, &p) in order.iter().enumerate() {
            let end = pos.play(p).unwrap();
            if i + 1 < order.len() {
                assert_eq!(end, None, "{rules}: move {} {p}", i + 1);
            } else {
                assert_eq!(
                    end,
                    Some(End {
                        winner: None,
                        reason: Reason::FullBoard
                    }),
                    "{rules}"
                );
            }
        }
        // Through the platform's trait as well.
        let mut g = RenjuGame::new(rules);
        for p in &order {
            g.play(&p.to_string()).unwrap();
        }
        let Status::Over(e) = g.status() else {
            panic!("not over")
        };
        assert_eq!((e.outcome, e.reason.as_str()), (Outcome::Draw, "full_board"));
    }
}

#[test]
fn the_game_trait_reports_endings() {
    let mut g = RenjuGame::new(Rules::RIF);
    for m in BLACK_SIX.split_whitespace() {
        g.play(m).unwrap();
    }
    let Status::Over(e) = g.status() else {
        panic!("not over")
    };
    assert_eq!(e.outcome, Outcome::Win { winner: Side::Second });
    assert_eq!(e.reason, "forbidden_overline");
    assert!(e.detail.contains("forbidden point (overline)"), "{}", e.detail);
    assert_eq!(g.side_name(Side::First), "Black");
}

#[test]
fn office_rules_replay_a_forbidden_point_white_points_out() {
    // Black f8 g8 (d8 white) and h9 h10: h8 is a double-three.
    let start = "oo13/15/15/15/15/7x7/7x7/3o1xx8/15/15/15/15/15/15/14o b";
    let mut g = RenjuGame::from_fen(start, Rules::OFFICE).unwrap();
    assert!(g.position().pending_foul().is_none());
    g.play("h8").unwrap();
    // Not over: white may point it out.
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(
        g.position().pending_foul(),
        Some((pt("h8"), Forbidden::DoubleThree))
    );
    assert!(g.legal_moves().contains(&"foul".to_owned()));
    g.play("foul").unwrap();
    assert_eq!(g.fen(), start, "the stone is taken back, black to move");
    assert_eq!(g.side_to_move(), Side::First);
    assert!(g.play("foul").is_err(), "nothing left to point out");
    assert_eq!(g.history().len(), 2);
    // Black plays it again; this time white plays on and the stone stands.
    g.play("h8").unwrap();
    g.play("o2").unwrap();
    assert!(g.position().pending_foul().is_none());
    assert!(!g.legal_moves().contains(&"foul".to_owned()));
    assert_eq!(g.position().board().get(pt("h8")), Some(Color::Black));
    assert_eq!(g.status(), Status::Ongoing);
    // Under RIF the same stone loses at once.
    let mut g = RenjuGame::from_fen(start, Rules::RIF).unwrap();
    g.play("h8").unwrap();
    assert!(matches!(g.status(), Status::Over(e) if e.reason == "forbidden_double_three"));
    // Office rules: white's first stone on its own side of the centre line.
    let mut g = RenjuGame::new(Rules::OFFICE);
    g.play("h8").unwrap();
    assert!(g.play("h7").is_err());
    assert!(g
        .legal_moves()
        .iter()
        .all(|m| m[1..].parse::<usize>().unwrap() >= 9));
    g.play("h9").unwrap();
}
