//! The session with the real Xiangqi referee, as the registry's
//! `xiangqi/cxa` entry sets it up (CXA session rules).

use game::{Outcome, Side};
use session::{Command, Event, FoulKind, Session, Termination};

const R: Side = Side::First;
const B: Side = Side::Second;

fn start(fen: &str, tc: &str) -> Session {
    start_as(fen, tc, registry::Profile::Online)
}

fn start_as(fen: &str, tc: &str, profile: registry::Profile) -> Session {
    let v = registry::get(Some("xiangqi/cxa")).unwrap();
    let mut s = Session::new(
        v.new_game(Some(fen), 0).unwrap(),
        v.session_config_for(tc.parse().unwrap(), profile),
    )
    .unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    s
}

fn mv(s: &mut Session, side: Side, coord: &str, at: u64) -> Vec<Event> {
    s.apply(Command::Move {
        side,
        coord: coord.into(),
        at,
        pressed_at: None,
    })
    .unwrap_or_else(|e| panic!("{coord}: {e}"))
}

#[test]
fn checkmate_ends_the_game_4_1_1() {
    // Two red rooks: b7-b9 mates the bare black king on e9.
    let mut s = start("4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1", "10+0");
    mv(&mut s, R, "b7b9", 3_000);
    let r = s.result().expect("mate");
    assert_eq!(r.outcome, Some(Outcome::Win { winner: R }));
    assert_eq!(r.termination, Termination::Rules);
    let first = s.moves().next().unwrap();
    assert_eq!(first.played.coord, "b7b9");
    assert!(first.played.check);
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut s = start("startpos", "10+0");
    let log = s.log().len();
    let e = s.apply(Command::Move {
        side: R,
        coord: "a0a5".into(),
        at: 1_000,
        pressed_at: None,
    });
    assert!(e.is_err());
    assert_eq!(s.log().len(), log);
    assert_eq!(s.game().history().len(), 0);
    mv(&mut s, R, "h2e2", 1_000);
    mv(&mut s, B, "h9g7", 2_000);
    assert_eq!(s.moves().len(), 2);
}

#[test]
fn natural_limit_claim_true_and_false_23_3() {
    // 119 plies without a capture; one more quiet move makes 60 rounds.
    let fen = "3k5/9/9/9/9/9/9/9/4A4/R2AK4 w - - 119 80";
    // Online, a claim too early is refused and costs nothing.
    let mut s = start(fen, "10+0");
    assert!(!s.claim_holds());
    assert_eq!(
        s.apply(Command::ClaimDraw { side: R, at: 1_000 }).unwrap_err(),
        session::SessionError::ClaimDoesNotHold { side: R }
    );
    assert_eq!(
        (s.fouls(R), s.clock().view(R, 1_000).main_ms),
        (0, 10 * 60_000 - 1_000)
    );
    mv(&mut s, R, "e1f2", 2_000);
    assert!(s.claim_holds());
    // Over the board (the arbiter profile), Red's early claim is a foul,
    // and 5 minutes off Red's clock.
    let mut s = start_as(fen, "10+0", registry::Profile::Arbiter);
    let ev = s.apply(Command::ClaimDraw { side: R, at: 1_000 }).unwrap();
    assert!(matches!(&ev[0], Event::Foul { foul, .. } if foul.kind == FoulKind::FalseClaim));
    assert_eq!(s.clock().view(R, 1_000).main_ms, 10 * 60_000 - 1_000 - 5 * 60_000);
    mv(&mut s, R, "e1f2", 2_000);
    s.apply(Command::ClaimDraw { side: B, at: 3_000 }).unwrap();
    let r = s.result().expect("drawn");
    assert_eq!(
        (r.outcome, r.termination),
        (Some(Outcome::Draw), Termination::Claim)
    );
    assert_eq!(r.reason, "natural_limit");
}

#[test]
fn a_full_game_replays_from_its_log() {
    let mut s = start("startpos", "5|30s x2");
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6", "c6c5"];
    for (i, m) in moves.iter().enumerate() {
        let side = if i % 2 == 0 { R } else { B };
        mv(&mut s, side, m, 10_000 * (i as u64 + 1));
    }
    s.apply(Command::OfferDraw { side: B, at: 80_500 }).unwrap();
    s.apply(Command::AcceptDraw { side: R, at: 90_000 }).unwrap();
    let game = registry::get(Some("xiangqi/cxa"))
        .unwrap()
        .new_game(None, 0)
        .unwrap();
    let back = Session::replay(game, s.config().clone(), s.log()).unwrap();
    assert_eq!(back.records(), s.records());
    assert_eq!(back.result(), s.result());
    assert_eq!(back.clock(), s.clock());
}
