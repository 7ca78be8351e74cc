//! The session with the gomoku and renju entries: a turn of several moves
//! by one side (swap2's three opening stones, a choice and then a stone)
//! keeps that side's clock running, a swap changes no side's clock, and
//! the game replays from its log to the same seats.

use game::{Outcome, Side};
use session::{Command, Session};

const FIRST: Side = Side::First;
const SECOND: Side = Side::Second;

fn mv(s: &mut Session, side: Side, coord: &str, at: u64) {
    s.apply(Command::Move {
        side,
        coord: coord.into(),
        at,
        pressed_at: None,
    })
    .unwrap_or_else(|e| panic!("{coord}: {e}"));
}

#[test]
fn swap2_turns_of_several_moves_run_one_clock() {
    let v = registry::get(Some("gomoku/swap2")).unwrap();
    let mut s = Session::new(
        v.new_game(None, 0).unwrap(),
        v.session_config("5+0".parse().unwrap()),
    )
    .unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    mv(&mut s, FIRST, "h8", 1_000);
    mv(&mut s, FIRST, "h9", 2_000);
    mv(&mut s, FIRST, "i8", 10_000);
    assert_eq!(s.clock().turn(), SECOND, "the choice is the second player's");
    let clocks = s.clock().views(10_000);
    assert_eq!(
        clocks[0].main_ms,
        300_000 - 10_000,
        "the first player's three stones took 10 s"
    );
    assert_eq!(clocks[1].main_ms, 300_000);
    // A stone is not a choice: refused, nothing changes.
    assert!(s
        .apply(Command::Move {
            side: SECOND,
            coord: "i9".into(),
            at: 11_000,
            pressed_at: None
        })
        .is_err());
    mv(&mut s, SECOND, "choose:black", 15_000);
    assert_eq!(s.game().side_key(SECOND), Some("black"));
    assert_eq!(
        s.clock().turn(),
        FIRST,
        "the first player, now white, places the 4th"
    );
    mv(&mut s, FIRST, "j8", 16_000);
    assert_eq!(s.clock().turn(), SECOND);
    let clocks = s.clock().views(16_000);
    assert_eq!(
        clocks[1].main_ms,
        300_000 - 5_000,
        "the swap charged the chooser only"
    );

    let again = Session::replay(
        v.new_game(None, 0).unwrap(),
        v.session_config("5+0".parse().unwrap()),
        s.log(),
    )
    .unwrap();
    assert_eq!(again.game().fen(), s.game().fen());
    assert_eq!(again.game().side_key(FIRST), Some("white"));
}

#[test]
fn a_renju_game_where_black_plays_a_double_three_loses() {
    let v = registry::get(Some("renju")).unwrap();
    let mut s = Session::new(
        v.new_game(None, 0).unwrap(),
        v.session_config("-".parse().unwrap()),
    )
    .unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    // Black builds around h8 while white plays far off on the a file.
    let moves = ["h8", "a1", "i8", "a3", "h9", "a5", "i10", "a7"];
    let mut side = FIRST;
    for (i, m) in moves.iter().enumerate() {
        mv(&mut s, side, m, 1_000 * (i as u64 + 1));
        side = side.other();
    }
    // Black now has forbidden points (the renju crate names them); black
    // plays the first and loses at once.
    let forbidden: Vec<String> = {
        let fen = s.game().fen();
        let pos = renju::Position::from_fen(&fen, renju::Rules::RIF).unwrap();
        renju::ForbiddenPoints::of(pos.board())
            .iter()
            .map(|(p, _)| p.to_string())
            .collect()
    };
    let p = forbidden
        .first()
        .expect("a forbidden point in this position")
        .clone();
    mv(&mut s, FIRST, &p, 20_000);
    let r = s.result().expect("the forbidden stone ends the game");
    assert_eq!(r.outcome, Some(Outcome::Win { winner: SECOND }));
    assert!(r.reason.starts_with("forbidden_"), "{}", r.reason);
}
