//! The session with the shogi rules, as the registry's shogi entries set it
//! up: a claim (持将棋, 入玉宣言) may end the game as a draw, a win for the
//! claimant or a loss for it; a claim that does not hold is refused; the
//! board's own endings (千日手, perpetual check) need no claim; a handicap
//! game's first side is the giver.

use game::{Outcome, Side};
use session::{Command, Event, Session, SessionError, Termination};

const FIRST: Side = Side::First;
const SECOND: Side = Side::Second;

fn start(variant: &str, fen: Option<&str>, tc: &str) -> Session {
    let v = registry::get(Some(variant)).unwrap();
    let mut s = Session::new(v.new_game(fen, 0).unwrap(), v.session_config(tc.parse().unwrap())).unwrap();
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

fn claim(s: &mut Session, side: Side, at: u64) -> Result<Vec<Event>, SessionError> {
    s.apply(Command::ClaimDraw { side, at })
}

#[test]
fn a_24_point_count_that_the_claimant_is_short_of_loses_for_the_claimant() {
    // Both kings have entered; sente (to move) holds 23 points, gote 31.
    let fen = "9/4K4/9/9/9/9/9/4k4/9 b 2R2B3P4g4s4n4l15p 1";
    let mut s = start("shogi/standard", Some(fen), "10|30s");
    assert!(s.claim_holds());
    claim(&mut s, FIRST, 2_000).unwrap();
    let r = s.result().expect("the count ends the game");
    assert_eq!(r.outcome, Some(Outcome::Win { winner: SECOND }));
    assert_eq!(r.termination, Termination::Claim);
    assert_eq!(r.reason, "impasse_points");
    assert_eq!(r.article.as_deref(), Some("持将棋"));
    assert!(r.detail.contains("sente has 23 points, gote 31"), "{}", r.detail);
}

#[test]
fn a_24_point_count_with_both_at_24_or_more_is_a_draw() {
    let fen = "9/4K4/9/9/9/9/9/4k4/9 b 2R2B4P4g4s4n4l14p 1";
    let mut s = start("shogi", Some(fen), "10+5");
    claim(&mut s, FIRST, 1_000).unwrap();
    let r = s.result().unwrap();
    assert_eq!((r.outcome, r.reason.as_str()), (Some(Outcome::Draw), "impasse"));
}

#[test]
fn a_27_point_declaration_wins_for_the_declarer() {
    let fen = "+P+P+P+P5/+P+P+P6/+P+P+P1K4/9/8k/9/9/9/9 b 2R2B4g4s4n4l8p 1";
    let mut s = start("shogi/declaration", Some(fen), "10|30s");
    assert!(s.claim_holds());
    claim(&mut s, FIRST, 1_000).unwrap();
    let r = s.result().unwrap();
    assert_eq!(r.outcome, Some(Outcome::Win { winner: FIRST }));
    assert_eq!(
        (r.termination, r.reason.as_str()),
        (Termination::Claim, "impasse_declaration")
    );
    // The same position under the 24-point rule: gote's king has not
    // entered, so there is nothing to claim, and the claim is refused
    // (online: no foul, no time).
    let mut s = start("shogi/standard", Some(fen), "10|30s");
    assert!(!s.claim_holds());
    let log = s.log().len();
    assert!(matches!(
        claim(&mut s, FIRST, 1_000),
        Err(SessionError::ClaimDoesNotHold { .. })
    ));
    assert!(s.result().is_none());
    assert_eq!(s.log().len(), log);
}

#[test]
fn only_the_side_to_move_may_claim() {
    let fen = "9/4K4/9/9/9/9/9/4k4/9 b 2R2B3P4g4s4n4l15p 1";
    let mut s = start("shogi", Some(fen), "10|30s");
    assert!(matches!(
        claim(&mut s, SECOND, 1_000),
        Err(SessionError::ClaimOnlyOnOwnTurn { .. })
    ));
}

#[test]
fn fourfold_repetition_draws_without_a_claim() {
    let mut s = start("shogi", None, "10|30s");
    let cycle = ["5i5h", "5a5b", "5h5i", "5b5a"];
    let mut at = 0;
    for _ in 0..3 {
        for (i, m) in cycle.iter().enumerate() {
            at += 1_000;
            mv(&mut s, if i % 2 == 0 { FIRST } else { SECOND }, m, at);
        }
    }
    let r = s.result().expect("千日手");
    assert_eq!(
        (r.outcome, r.reason.as_str()),
        (Some(Outcome::Draw), "repetition")
    );
    assert_eq!(r.termination, Termination::Rules);
}

#[test]
fn a_handicap_game_starts_with_the_giver_and_byo_yomi_flags_it() {
    let v = registry::get(Some("shogi/rook")).unwrap();
    assert_eq!(v.side_keys(), ["uwate", "shitate"]);
    // 0 minutes, 10 s a move: the giver (first) moves, then the receiver
    // lets 10 s pass.
    let mut s = start("shogi/rook", None, "0|10s");
    assert_eq!(s.game().side_to_move(), FIRST);
    assert!(s
        .apply(Command::Move {
            side: SECOND,
            coord: "7g7f".into(),
            at: 500,
            pressed_at: None,
        })
        .is_err());
    mv(&mut s, FIRST, "3c3d", 9_000);
    mv(&mut s, SECOND, "7g7f", 18_000);
    s.apply(Command::Tick { at: 28_001 }).unwrap();
    let r = s.result().expect("the giver's byo-yomi ran out");
    assert_eq!(r.outcome, Some(Outcome::Win { winner: SECOND }));
    assert_eq!(r.reason, "time_forfeit");
}
