//! Session rules, one test per rule, each naming the article it implements.
//! A tiny game stands in for Xiangqi here so that every ending can be
//! produced on demand; `tests/xiangqi.rs` runs the real one.

use super::*;
use clock::TimeControl;
use game::{GameError, PlayedMove};
use proptest::prelude::*;

/// The CXA session rules (the registry's `xiangqi/cxa` entry holds the
/// same numbers; this crate's tests must not depend on it): three fouls
/// lose, a false claim costs the claimant 5 minutes.
fn cxa_rules() -> SessionRules {
    let a = |s: &str| Some(s.to_string());
    SessionRules {
        foul_limit: 3,
        false_claim_penalty_ms: 5 * 60_000,
        claim_penalty: ClaimPenalty::ChargeClaimant,
        repeated_offer_is_foul: true,
        false_claim_is_refused: false,
        articles: Articles {
            resignation: a("4.1.9"),
            agreement: a("4.2.2"),
            time_forfeit: a("4.1.4"),
            time_forfeit_draw: None,
            fouls: a("4.1.8"),
            repeated_offer: a("9.1.3"),
            false_claim: a("9.1.4, 23.3"),
            overstep: a("seed 001"),
        },
    }
}

fn cxa(time_control: TimeControl) -> SessionConfig {
    SessionConfig {
        time_control,
        rules: cxa_rules(),
    }
}

/// Seed 001's office rules: 30 minutes free, then 30 s a move, each
/// overstep a technical foul, two fouls lose.
fn seed_001() -> SessionConfig {
    let mut c = cxa(TimeControl::free_then_foul_per_move(30 * 60_000, 30_000));
    c.rules.foul_limit = 2;
    c
}

/// A toy game. Moves: `m` (quiet), `x` (a capture), `mate` (the mover wins
/// on the board), `stale` (a draw on the board), `rep` (the referee rules
/// that the mover must change, 变着). A draw may be claimed once the last
/// four moves had no capture (a stand-in for the natural limit). After
/// `bare` the mover can no longer win (a lone king, for FIDE 6.9).
#[derive(Clone, Debug)]
struct Toy {
    history: Vec<PlayedMove>,
    first_to_move: Side,
}

impl Toy {
    fn boxed() -> Box<dyn Game> {
        Box::new(Toy {
            history: Vec::new(),
            first_to_move: Side::First,
        })
    }

    fn mover_of(&self, ply: usize) -> Side {
        if ply.is_multiple_of(2) {
            self.first_to_move
        } else {
            self.first_to_move.other()
        }
    }
}

impl Game for Toy {
    fn family(&self) -> &'static str {
        "toy"
    }
    fn variant(&self) -> String {
        "toy".into()
    }
    fn initial_fen(&self) -> String {
        String::new()
    }
    fn fen(&self) -> String {
        self.history.len().to_string()
    }
    fn side_to_move(&self) -> Side {
        self.mover_of(self.history.len())
    }
    fn legal_moves(&self) -> Vec<String> {
        ["bare", "m", "mate", "rep", "stale", "x"]
            .map(String::from)
            .to_vec()
    }
    fn play(&mut self, coord: &str) -> Result<PlayedMove, GameError> {
        if matches!(self.status(), Status::Over(_)) {
            return Err(GameError::GameOver);
        }
        if !self.legal_moves().iter().any(|m| m == coord) {
            return Err(GameError::IllegalMove {
                text: coord.into(),
                reason: "not a toy move".into(),
            });
        }
        let pm = PlayedMove {
            coord: coord.into(),
            display: coord.to_uppercase(),
            alt: coord.into(),
            capture: coord == "x",
            check: coord == "mate",
        };
        self.history.push(pm.clone());
        Ok(pm)
    }
    fn history(&self) -> &[PlayedMove] {
        &self.history
    }
    fn status(&self) -> Status {
        let n = self.history.len();
        let Some(last) = self.history.last() else {
            return Status::Ongoing;
        };
        let mover = self.mover_of(n - 1);
        match last.coord.as_str() {
            "mate" => Status::Over(Ending {
                outcome: Outcome::Win { winner: mover },
                reason: "checkmate".into(),
                detail: "mated".into(),
                article: Some("4.1.1".into()),
            }),
            "stale" => Status::Over(Ending {
                outcome: Outcome::Draw,
                reason: "toy_draw".into(),
                detail: "drawn".into(),
                article: None,
            }),
            "rep" => Status::MustChange {
                side: mover,
                detail: "perpetual chase".into(),
                article: Some("26.4".into()),
            },
            _ => Status::Ongoing,
        }
    }
    fn claimable_draw(&self) -> Option<Ending> {
        let n = self.history.len();
        (n >= 4 && self.history[n - 4..].iter().all(|m| !m.capture)).then(|| Ending {
            outcome: Outcome::Draw,
            reason: "natural_limit".into(),
            detail: "no capture for a while".into(),
            article: Some("4.2.4".into()),
        })
    }
    fn can_win(&self, side: Side) -> bool {
        !(0..self.history.len()).any(|i| self.history[i].coord == "bare" && self.mover_of(i) == side)
    }
    fn boxed_clone(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
}

const R: Side = Side::First;
const B: Side = Side::Second;
const MIN: Millis = 60_000;

fn session(tc: &str) -> Session {
    let mut s = Session::new(Toy::boxed(), cxa(tc.parse().unwrap())).unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    s
}

fn mv(s: &mut Session, side: Side, coord: &str, at: Millis) -> Vec<Event> {
    s.apply(Command::Move {
        side,
        coord: coord.into(),
        at,
        pressed_at: None,
    })
    .unwrap_or_else(|e| panic!("{side} {coord} at {at}: {e}"))
}

/// What must not change when a command is refused.
fn fingerprint(s: &Session) -> String {
    format!(
        "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
        s.log(),
        s.records(),
        s.phase(),
        s.foul_records(),
        s.pending_offer(),
        s.takeback_offer(),
        s.clock(),
        s.game().fen()
    )
}

/// Applies a command that must be refused, and checks nothing changed.
fn refused(s: &mut Session, cmd: Command) -> SessionError {
    let before = fingerprint(s);
    let e = s.apply(cmd.clone()).expect_err(&format!("{cmd:?} was accepted"));
    assert_eq!(fingerprint(s), before, "{cmd:?} changed the session");
    e
}

fn result(s: &Session) -> &GameResult {
    s.result().expect("the game is over")
}

#[test]
fn commands_before_the_start_are_refused_and_change_nothing() {
    let mut s = Session::new(Toy::boxed(), cxa("5+3".parse().unwrap())).unwrap();
    assert_eq!(
        refused(
            &mut s,
            Command::Move {
                side: R,
                coord: "m".into(),
                at: 0,
                pressed_at: None
            }
        ),
        SessionError::NotStarted
    );
    assert_eq!(
        refused(&mut s, Command::Resign { side: R, at: 0 }),
        SessionError::NotStarted
    );
    s.apply(Command::Start { at: 10 }).unwrap();
    assert_eq!(
        refused(&mut s, Command::Start { at: 11 }),
        SessionError::AlreadyStarted
    );
    assert_eq!(
        refused(
            &mut s,
            Command::Move {
                side: B,
                coord: "m".into(),
                at: 20,
                pressed_at: None
            }
        ),
        SessionError::NotYourTurn { side: B }
    );
    assert!(matches!(
        refused(
            &mut s,
            Command::Move {
                side: R,
                coord: "zz".into(),
                at: 20,
                pressed_at: None
            }
        ),
        SessionError::Game(GameError::IllegalMove { .. })
    ));
    assert_eq!(
        refused(
            &mut s,
            Command::Move {
                side: R,
                coord: "m".into(),
                at: 5,
                pressed_at: None
            }
        ),
        SessionError::TimeWentBackwards { at: 5, last: 10 }
    );
    assert_eq!(
        refused(
            &mut s,
            Command::Move {
                side: R,
                coord: "m".into(),
                at: 30,
                pressed_at: Some(29)
            }
        ),
        SessionError::PressBeforeMove {
            at: 30,
            pressed_at: 29
        }
    );
}

#[test]
fn moves_are_recorded_with_times_and_clock_readings() {
    let mut s = session("5+3");
    mv(&mut s, R, "m", 10_000);
    mv(&mut s, B, "x", 12_500);
    let m = s.moves().nth(1).unwrap().to_record();
    assert_eq!(
        (m.ply, m.side, m.coord.as_str(), m.display.as_str()),
        (2, B, "x", "X")
    );
    assert!(m.capture);
    assert_eq!(m.spent_ms, 2_500);
    assert_eq!(m.clock_ms, Some(5 * MIN - 2_500 + 3_000));
    assert_eq!(
        s.moves().next().unwrap().times.clock_ms,
        Some(5 * MIN - 10_000 + 3_000)
    );
}

#[test]
fn board_endings_come_from_the_game_4_1_1() {
    let mut s = session("5+0");
    mv(&mut s, R, "m", 1_000);
    let ev = mv(&mut s, B, "mate", 2_000);
    assert!(matches!(ev.last(), Some(Event::Ended(_))));
    let r = result(&s);
    assert_eq!(r.outcome, Some(Outcome::Win { winner: B }));
    assert_eq!(
        (r.termination, r.reason.as_str(), r.at),
        (Termination::Rules, "checkmate", 2_000)
    );
    assert_eq!(r.pgn(), "0-1");
    assert!(!s.clock().is_running());
    assert_eq!(
        refused(&mut s, Command::Resign { side: R, at: 3_000 }),
        SessionError::GameOver
    );
    assert_eq!(
        refused(&mut s, Command::Tick { at: 999_999 }),
        SessionError::GameOver
    );
}

#[test]
fn must_change_is_passed_on_26_4() {
    let mut s = session("5+0");
    let ev = mv(&mut s, R, "rep", 1_000);
    assert!(ev.iter().any(|e| matches!(e, Event::MustChange { side: R, .. })));
    assert_eq!(s.must_change(), Some(R));
    mv(&mut s, B, "m", 2_000);
    assert_eq!(s.must_change(), None);
}

#[test]
fn resignation_4_1_9() {
    let mut s = session("5+0");
    mv(&mut s, R, "m", 1_000);
    // Either side may resign, whoever is to move.
    s.apply(Command::Resign { side: R, at: 2_000 }).unwrap();
    let r = result(&s);
    assert_eq!(r.outcome, Some(Outcome::Win { winner: B }));
    assert_eq!(
        (r.termination, r.article.as_deref()),
        (Termination::Resignation, Some("4.1.9"))
    );
}

#[test]
fn abort_only_before_both_sides_moved() {
    let mut s = session("5+0");
    mv(&mut s, R, "m", 1_000);
    s.apply(Command::Abort {
        side: B,
        at: 2_000,
        no_show: false,
        both: false,
    })
    .unwrap();
    assert_eq!(result(&s).outcome, None);
    assert_eq!(result(&s).termination, Termination::Aborted);
    assert_eq!(result(&s).pgn(), "*");

    let mut s = session("5+0");
    mv(&mut s, R, "m", 1_000);
    mv(&mut s, B, "m", 2_000);
    assert_eq!(
        refused(
            &mut s,
            Command::Abort {
                side: R,
                at: 3_000,
                no_show: false,
                both: false,
            }
        ),
        SessionError::TooLateToAbort
    );

    let mut s = Session::new(Toy::boxed(), cxa(TimeControl::unlimited())).unwrap();
    s.apply(Command::Abort {
        side: R,
        at: 0,
        no_show: false,
        both: false,
    })
    .unwrap();
    assert!(s.is_over());
}

/// 21.3: when neither player came the game is called off for both
/// (`double_no_show`), but only while nobody has moved: once the first
/// side has moved, only its opponent can be the one who did not come.
#[test]
fn neither_player_came_only_before_any_move_21_3() {
    let both = |side, at| Command::Abort {
        side,
        at,
        no_show: true,
        both: true,
    };
    let mut s = session("5+0");
    s.apply(both(R, 60_000)).unwrap();
    let r = result(&s);
    assert_eq!((r.outcome, r.termination), (None, Termination::Aborted));
    assert_eq!(r.reason, "double_no_show");

    let mut s = session("5+0");
    mv(&mut s, R, "m", 1_000);
    assert_eq!(refused(&mut s, both(B, 61_000)), SessionError::TooLateToAbort);
    // Not the arbiter's ruling: a player cannot call it off for both.
    let mut s = session("5+0");
    assert_eq!(
        refused(
            &mut s,
            Command::Abort {
                side: R,
                at: 1_000,
                no_show: false,
                both: true,
            }
        ),
        SessionError::TooLateToAbort
    );
    s.apply(Command::Abort {
        side: R,
        at: 60_000,
        no_show: true,
        both: false,
    })
    .unwrap();
    assert_eq!(result(&s).reason, "no_show");
}

#[test]
fn draw_offer_only_right_after_ones_own_move_23_1() {
    let mut s = session("5+0");
    // Before any move, and in one's own time, an offer is refused.
    assert_eq!(
        refused(&mut s, Command::OfferDraw { side: R, at: 500 }),
        SessionError::OfferOnlyAfterOwnMove { side: R }
    );
    assert_eq!(
        refused(&mut s, Command::OfferDraw { side: B, at: 500 }),
        SessionError::OfferOnlyAfterOwnMove { side: B }
    );
    mv(&mut s, R, "m", 1_000);
    assert_eq!(
        refused(&mut s, Command::OfferDraw { side: B, at: 1_500 }),
        SessionError::OfferOnlyAfterOwnMove { side: B }
    );
    s.apply(Command::OfferDraw { side: R, at: 1_200 }).unwrap();
    assert_eq!(s.pending_offer(), Some(R));
    assert_eq!(
        refused(&mut s, Command::OfferDraw { side: R, at: 1_300 }),
        SessionError::OfferPending { side: R }
    );
    // The offerer cannot answer its own offer.
    assert_eq!(
        refused(&mut s, Command::AcceptDraw { side: R, at: 1_300 }),
        SessionError::NoOfferToAnswer { side: R }
    );
    s.apply(Command::AcceptDraw { side: B, at: 4_000 }).unwrap();
    let r = result(&s);
    assert_eq!(r.outcome, Some(Outcome::Draw));
    assert_eq!(
        (r.termination, r.article.as_deref()),
        (Termination::Agreement, Some("4.2.2"))
    );
}

/// Takebacks (悔棋): the asker's last move and everything after it go;
/// the board, the repetition record and the turn are as they were then;
/// the clocks refund nothing; a move declines a standing request.
#[test]
fn a_takeback_undoes_the_askers_last_move_and_what_followed() {
    let mut s = session("5+2");
    assert_eq!(
        refused(&mut s, Command::OfferTakeback { side: R, at: 100 }),
        SessionError::NothingToTakeBack { side: R }
    );
    mv(&mut s, R, "m", 1_000);
    mv(&mut s, B, "x", 3_000);
    let after_two = s.game().fen();
    mv(&mut s, R, "rep", 4_000);
    assert_eq!(s.must_change(), Some(R));
    // R asks right after its move: that one move goes.
    assert!(s.may_offer_takeback(R));
    s.apply(Command::OfferTakeback { side: R, at: 4_500 }).unwrap();
    assert!(
        !s.may_offer_takeback(R) && !s.may_offer_takeback(B),
        "one request at a time"
    );
    assert_eq!(
        refused(&mut s, Command::AcceptTakeback { side: R, at: 4_600 }),
        SessionError::NoTakebackToAnswer { side: R }
    );
    let clock_b = s.clock().view(B, 5_000).main_ms;
    let ev = s.apply(Command::AcceptTakeback { side: B, at: 5_000 }).unwrap();
    assert_eq!(
        ev,
        vec![Event::TakenBack {
            side: R,
            plies: 1,
            ply: 2,
            at: 5_000
        }]
    );
    assert_eq!(
        (s.plies(), s.game().fen(), s.game().side_to_move()),
        (2, after_two, R)
    );
    assert_eq!(s.must_change(), None, "the ruled move is gone");
    // B's clock was running for 1 s: charged, no increment; R's runs now.
    assert_eq!(s.clock().view(B, 5_000).main_ms, clock_b);
    assert_eq!(s.clock().turn(), R);
    // B asks while R is to move: B's move and R's reply would both go —
    // but R moves instead, which declines it.
    s.apply(Command::OfferTakeback { side: B, at: 5_100 }).unwrap();
    let ev = mv(&mut s, R, "m", 6_000);
    assert!(ev.contains(&Event::TakebackDeclined { side: B, at: 6_000 }));
    assert_eq!(s.takeback_offer(), None);
    // Now B asks on its own turn: R's reply and B's own move go (2 plies).
    s.apply(Command::OfferTakeback { side: B, at: 6_500 }).unwrap();
    s.apply(Command::DeclineTakeback { side: R, at: 6_600 }).unwrap();
    s.apply(Command::OfferTakeback { side: B, at: 6_700 }).unwrap();
    let ev = s.apply(Command::AcceptTakeback { side: R, at: 7_000 }).unwrap();
    assert_eq!(
        ev,
        vec![Event::TakenBack {
            side: B,
            plies: 2,
            ply: 1,
            at: 7_000
        }]
    );
    assert_eq!((s.plies(), s.game().side_to_move()), (1, B));
    // The log replays to the same session.
    let back = Session::replay(Toy::boxed(), cxa("5+2".parse().unwrap()), s.log()).unwrap();
    assert_eq!(fingerprint(&back), fingerprint(&s));
}

/// A correspondence game: each move has the days whole again; a move
/// that does not come in them loses on time, at its own moment.
#[test]
fn a_correspondence_move_has_its_days_and_no_more() {
    const DAY: Millis = 86_400_000;
    let mut s = session("2d");
    mv(&mut s, R, "m", DAY);
    mv(&mut s, B, "m", 2 * DAY + 3);
    // R's move may come up to two days after B's, not later.
    mv(&mut s, R, "m", 4 * DAY);
    let ev = s.apply(Command::Tick { at: 6 * DAY + 5 }).unwrap();
    let r = result(&s);
    assert_eq!(
        (r.outcome, r.termination),
        (Some(Outcome::Win { winner: R }), Termination::TimeForfeit),
        "{ev:?}"
    );
    assert_eq!(r.at, 6 * DAY, "B's two days ran out at the end of day 6");
}

#[test]
fn a_draw_offer_cannot_be_withdrawn_23_1() {
    let mut s = session("5+0");
    mv(&mut s, R, "m", 1_000);
    assert_eq!(
        refused(&mut s, Command::WithdrawDraw { side: R, at: 1_100 }),
        SessionError::NoOfferToWithdraw { side: R }
    );
    s.apply(Command::OfferDraw { side: R, at: 1_200 }).unwrap();
    assert_eq!(
        refused(&mut s, Command::WithdrawDraw { side: R, at: 1_300 }),
        SessionError::CannotWithdrawOffer
    );
    assert_eq!(s.pending_offer(), Some(R));
}

#[test]
fn a_flag_against_a_side_whose_opponent_cannot_win_is_a_draw_fide_6_9() {
    let mut config = cxa("1+0".parse().unwrap());
    config.rules.articles.time_forfeit_draw = Some("6.9".into());
    let mut s = Session::new(Toy::boxed(), config.clone()).unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    mv(&mut s, R, "bare", 1_000);
    // Black's flag falls, but Red has nothing left to win with.
    s.apply(Command::Tick { at: 70_000 }).unwrap();
    let r = s.result().unwrap();
    assert_eq!(
        (r.outcome, r.termination, r.reason.as_str(), r.article.as_deref()),
        (
            Some(Outcome::Draw),
            Termination::TimeForfeit,
            "time_forfeit_draw",
            Some("6.9")
        )
    );
    // Red's flag, by contrast, loses: Black can still win.
    let mut s = Session::new(Toy::boxed(), config).unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    mv(&mut s, R, "bare", 1_000);
    mv(&mut s, B, "m", 2_000);
    s.apply(Command::Tick { at: 200_000 }).unwrap();
    let r = s.result().unwrap();
    assert_eq!(
        (r.outcome, r.reason.as_str()),
        (Some(Outcome::Win { winner: B }), "time_forfeit")
    );
}

#[test]
fn where_a_second_offer_is_no_foul_it_is_refused_and_nothing_changes() {
    let mut config = cxa("5+0".parse().unwrap());
    config.rules.repeated_offer_is_foul = false;
    let mut s = Session::new(Toy::boxed(), config).unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    mv(&mut s, R, "m", 1_000);
    s.apply(Command::OfferDraw { side: R, at: 1_100 }).unwrap();
    s.apply(Command::DeclineDraw { side: B, at: 1_200 }).unwrap();
    mv(&mut s, B, "m", 2_000);
    mv(&mut s, R, "m", 3_000);
    let before = fingerprint(&s);
    assert_eq!(
        s.apply(Command::OfferDraw { side: R, at: 3_100 }),
        Err(SessionError::OfferAgainAfterRefusal { side: R })
    );
    assert_eq!(fingerprint(&s), before);
    assert_eq!(s.fouls(R), 0);
    // Once Black has offered, Red may offer again.
    mv(&mut s, B, "m", 4_000);
    s.apply(Command::OfferDraw { side: B, at: 4_100 }).unwrap();
    s.apply(Command::DeclineDraw { side: R, at: 4_200 }).unwrap();
    mv(&mut s, R, "m", 5_000);
    s.apply(Command::OfferDraw { side: R, at: 5_100 }).unwrap();
    assert_eq!(s.pending_offer(), Some(R));
}

#[test]
fn moving_refuses_an_offer_and_repeating_it_is_a_foul_23_1_9_1_3() {
    let mut s = session("5+0");
    mv(&mut s, R, "m", 1_000);
    s.apply(Command::OfferDraw { side: R, at: 1_100 }).unwrap();
    let ev = mv(&mut s, B, "m", 2_000);
    assert!(ev.contains(&Event::DrawDeclined {
        side: R,
        at: 2_000,
        by_move: true
    }));
    assert_eq!(s.pending_offer(), None);
    mv(&mut s, R, "m", 3_000);
    let ev = s.apply(Command::OfferDraw { side: R, at: 3_100 }).unwrap();
    match &ev[..] {
        [Event::Foul { foul, count: 1 }] => {
            assert_eq!(foul.kind, FoulKind::RepeatedDrawOffer);
            assert_eq!(foul.article.as_deref(), Some("9.1.3"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s.pending_offer(), None, "the repeated offer is not made");
    assert_eq!(s.fouls(R), 1);
}

#[test]
fn offers_alternate_after_explicit_refusals_23_1() {
    let mut s = session("5+0");
    mv(&mut s, R, "m", 1_000);
    s.apply(Command::OfferDraw { side: R, at: 1_100 }).unwrap();
    let ev = s.apply(Command::DeclineDraw { side: B, at: 1_500 }).unwrap();
    assert_eq!(
        ev,
        vec![Event::DrawDeclined {
            side: R,
            at: 1_500,
            by_move: false
        }]
    );
    // Offering again at once, after the refusal, is a foul.
    let ev = s.apply(Command::OfferDraw { side: R, at: 1_600 }).unwrap();
    assert!(matches!(ev[..], [Event::Foul { .. }]));
    mv(&mut s, B, "m", 2_000);
    // Black's turn to offer: allowed, and it lifts Red's ban.
    s.apply(Command::OfferDraw { side: B, at: 2_100 }).unwrap();
    s.apply(Command::DeclineDraw { side: R, at: 2_200 }).unwrap();
    mv(&mut s, R, "m", 3_000);
    let ev = s.apply(Command::OfferDraw { side: R, at: 3_100 }).unwrap();
    assert_eq!(ev, vec![Event::DrawOffered { side: R, at: 3_100 }]);
    assert_eq!(s.fouls(R), 1);
}

#[test]
fn a_true_claim_draws_4_2_4() {
    let mut s = session("5+0");
    for (i, side) in [R, B, R, B].into_iter().enumerate() {
        mv(&mut s, side, "m", 1_000 * (i as u64 + 1));
    }
    assert_eq!(
        refused(&mut s, Command::ClaimDraw { side: B, at: 5_000 }),
        SessionError::ClaimOnlyOnOwnTurn { side: B }
    );
    s.apply(Command::ClaimDraw { side: R, at: 5_000 }).unwrap();
    let r = result(&s);
    assert_eq!(
        (r.outcome, r.termination),
        (Some(Outcome::Draw), Termination::Claim)
    );
    assert_eq!(
        (r.reason.as_str(), r.article.as_deref()),
        ("natural_limit", Some("4.2.4"))
    );
}

#[test]
fn a_false_claim_is_a_foul_and_costs_the_claimant_5_minutes_23_3() {
    let mut s = session("10+0");
    mv(&mut s, R, "x", 1_000);
    let ev = s.apply(Command::ClaimDraw { side: B, at: 2_000 }).unwrap();
    assert!(
        matches!(&ev[0], Event::Foul { foul, count: 1 } if foul.kind == FoulKind::FalseClaim && foul.article.as_deref() == Some("9.1.4, 23.3"))
    );
    assert_eq!(
        ev[1],
        Event::TimePenalty {
            side: B,
            ms: 5 * MIN,
            at: 2_000
        }
    );
    assert!(!s.is_over());
    assert_eq!(s.clock().view(B, 2_000).main_ms, 10 * MIN - 1_000 - 5 * MIN);
    assert_eq!(s.clock().view(R, 2_000).main_ms, 10 * MIN - 1_000);
}

#[test]
fn a_false_claim_that_runs_the_clock_out_loses_on_time_23_3() {
    let mut s = session("6+0");
    mv(&mut s, R, "x", 1_000);
    // Black has 6 minutes less 2 s when it claims; 5 minutes go...
    s.apply(Command::ClaimDraw { side: B, at: 3_000 }).unwrap();
    assert!(!s.is_over());
    mv(&mut s, B, "m", 4_000);
    mv(&mut s, R, "x", 5_000);
    // ...and the second false claim cannot be paid: lost on time at once.
    s.apply(Command::ClaimDraw { side: B, at: 6_000 }).unwrap();
    let r = result(&s);
    assert_eq!(r.outcome, Some(Outcome::Win { winner: R }));
    assert_eq!((r.termination, r.at), (Termination::TimeForfeit, 6_000));
}

#[test]
fn the_fide_habit_credits_the_opponent_instead() {
    let mut cfg = cxa("10+0".parse().unwrap());
    cfg.rules.claim_penalty = ClaimPenalty::CreditOpponent;
    let mut s = Session::new(Toy::boxed(), cfg).unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    mv(&mut s, R, "x", 1_000);
    s.apply(Command::ClaimDraw { side: B, at: 2_000 }).unwrap();
    assert_eq!(s.clock().view(R, 2_000).main_ms, 15 * MIN - 1_000);
    assert_eq!(s.fouls(B), 1);
}

#[test]
fn three_fouls_lose_4_1_8() {
    let mut s = session("10+0");
    for i in 0..2 {
        s.apply(Command::Foul {
            side: R,
            at: 100 + i,
            reason: "touched a piece it could not move".into(),
            article: Some("9.1.5".into()),
        })
        .unwrap();
    }
    assert!(!s.is_over());
    s.apply(Command::Foul {
        side: R,
        at: 200,
        reason: "disturbing".into(),
        article: Some("9.1.1".into()),
    })
    .unwrap();
    let r = result(&s);
    assert_eq!(r.outcome, Some(Outcome::Win { winner: B }));
    assert_eq!(
        (r.termination, r.article.as_deref(), r.at),
        (Termination::Fouls, Some("4.1.8"), 200)
    );
}

#[test]
fn the_flag_falls_at_its_own_moment_4_1_4() {
    let mut s = session("1+0");
    mv(&mut s, R, "m", 10_000);
    assert_eq!(s.next_deadline(), Some(70_000));
    // The server's timer fires late; the flag is dated when it fell.
    let ev = s.apply(Command::Tick { at: 70_450 }).unwrap();
    assert!(matches!(ev[..], [Event::Ended(_)]));
    let r = result(&s);
    assert_eq!(r.outcome, Some(Outcome::Win { winner: R }));
    assert_eq!(
        (r.termination, r.reason.as_str(), r.at),
        (Termination::TimeForfeit, "time_forfeit", 70_000)
    );
}

#[test]
fn a_move_that_arrives_after_the_flag_is_dropped_4_1_4() {
    let mut s = session("1+0");
    mv(&mut s, R, "m", 10_000);
    let ev = mv(&mut s, B, "mate", 70_001);
    assert!(matches!(ev[..], [Event::Ended(_), Event::CommandDropped { .. }]));
    assert_eq!(s.moves().len(), 1);
    assert_eq!(result(&s).termination, Termination::TimeForfeit);
    assert_eq!(result(&s).at, 70_000);
    // One millisecond earlier it would have been in time.
    let mut s = session("1+0");
    mv(&mut s, R, "m", 10_000);
    mv(&mut s, B, "m", 69_999);
    assert!(!s.is_over());
}

#[test]
fn a_move_in_time_with_a_late_press_still_loses_on_time_22_5() {
    let mut s = session("1+0");
    let ev = s
        .apply(Command::Move {
            side: R,
            coord: "m".into(),
            at: 59_000,
            pressed_at: Some(61_000),
        })
        .unwrap();
    assert!(matches!(&ev[..], [Event::Moved(m), Event::Ended(_)] if m.coord == "m"));
    let r = result(&s);
    assert_eq!(r.outcome, Some(Outcome::Win { winner: B }));
    assert_eq!((r.termination, r.at), (Termination::TimeForfeit, 60_000));
    assert_eq!(s.moves().len(), 1, "the move stands in the record");
    assert_eq!(s.moves().next().unwrap().times.spent_ms, 60_000);
}

#[test]
fn unless_the_move_had_already_ended_the_game_22_5() {
    let mut s = session("1+0");
    s.apply(Command::Move {
        side: R,
        coord: "mate".into(),
        at: 59_000,
        pressed_at: Some(61_000),
    })
    .unwrap();
    let r = result(&s);
    assert_eq!(
        (r.termination, r.reason.as_str(), r.at),
        (Termination::Rules, "checkmate", 59_000)
    );
    assert_eq!(r.outcome, Some(Outcome::Win { winner: R }));
}

#[test]
fn unless_the_game_had_already_ended_by_resignation_or_agreement_22_5() {
    let mut s = session("1+0");
    mv(&mut s, R, "m", 1_000);
    s.apply(Command::OfferDraw { side: R, at: 1_100 }).unwrap();
    s.apply(Command::AcceptDraw { side: B, at: 60_000 }).unwrap();
    // The timer for Black's flag (61 s) fires afterwards: too late.
    assert_eq!(
        refused(&mut s, Command::Tick { at: 100_000 }),
        SessionError::GameOver
    );
    assert_eq!(result(&s).termination, Termination::Agreement);

    let mut s = session("1+0");
    mv(&mut s, R, "m", 1_000);
    s.apply(Command::Resign { side: R, at: 60_500 }).unwrap();
    assert_eq!(result(&s).termination, Termination::Resignation);
    // But a resignation after the flag fell comes too late.
    let mut s = session("1+0");
    mv(&mut s, R, "m", 1_000);
    let ev = s.apply(Command::Resign { side: R, at: 62_000 }).unwrap();
    assert!(matches!(ev[..], [Event::Ended(_), Event::CommandDropped { .. }]));
    assert_eq!(result(&s).outcome, Some(Outcome::Win { winner: R }));
}

#[test]
fn seed_001_oversteps_are_fouls_and_two_lose() {
    let mut s = Session::new(Toy::boxed(), seed_001()).unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    let free = 30 * MIN;
    mv(&mut s, R, "m", free - 1_000);
    mv(&mut s, B, "m", free);
    // Red has 1 s of main time, then 30 s a move. 40 s: one overstep.
    let ev = mv(&mut s, R, "m", free + 41_000);
    assert!(
        matches!(&ev[0], Event::Foul { foul, count: 1 } if foul.kind == FoulKind::Overstep && foul.at == free + 31_000)
    );
    assert!(!s.is_over());
    assert_eq!(s.moves().next_back().unwrap().times.spent_ms, 41_000);
    mv(&mut s, B, "m", free + 42_000);
    // The next red move overstepping: the second foul loses, at its time.
    assert_eq!(s.next_deadline(), Some(free + 72_000));
    s.apply(Command::Tick { at: free + 80_000 }).unwrap();
    let r = result(&s);
    assert_eq!(r.outcome, Some(Outcome::Win { winner: B }));
    assert_eq!((r.termination, r.at), (Termination::Fouls, free + 72_000));
}

#[test]
fn a_paused_clock_refuses_moves_and_does_not_count() {
    let mut s = session("1+0");
    s.apply(Command::PauseClock { at: 10_000 }).unwrap();
    assert_eq!(
        refused(
            &mut s,
            Command::Move {
                side: R,
                coord: "m".into(),
                at: 11_000,
                pressed_at: None
            }
        ),
        SessionError::Clock(clock::ClockError::Paused)
    );
    s.apply(Command::Tick { at: 500_000 }).unwrap();
    assert!(!s.is_over());
    s.apply(Command::ResumeClock { at: 500_000 }).unwrap();
    assert_eq!(s.next_deadline(), Some(550_000));
}

#[test]
fn adjudication_4_2_1() {
    let mut s = session("5+0");
    mv(&mut s, R, "m", 1_000);
    s.apply(Command::Adjudicate {
        at: 2_000,
        outcome: Outcome::Draw,
        reason: "a simple position neither side can win".into(),
        article: Some("4.2.1".into()),
        code: None,
    })
    .unwrap();
    assert_eq!(result(&s).termination, Termination::Adjudication);
}

fn arb_command() -> impl Strategy<Value = (u8, u64, bool)> {
    (0u8..19, 0u64..40_000, any::<bool>())
}

fn command(kind: u8, at: Millis, first: bool) -> Command {
    let side = if first { R } else { B };
    match kind {
        0..=5 => Command::Move {
            side,
            coord: ["m", "x", "rep", "m", "mate", "stale"][kind as usize].into(),
            at,
            pressed_at: None,
        },
        6 => Command::OfferDraw { side, at },
        7 => Command::AcceptDraw { side, at },
        8 => Command::DeclineDraw { side, at },
        9 => Command::ClaimDraw { side, at },
        10 => Command::Foul {
            side,
            at,
            reason: "x".into(),
            article: None,
        },
        11 => Command::Tick { at },
        12 => Command::WithdrawDraw { side, at },
        13 => Command::Abort {
            side,
            at,
            no_show: false,
            both: false,
        },
        14 => Command::PauseClock { at },
        15 => Command::ResumeClock { at },
        16 => Command::OfferTakeback { side, at },
        17 => Command::AcceptTakeback { side, at },
        _ => Command::DeclineTakeback { side, at },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever is thrown at it: a refused command changes nothing, the
    /// clock never shows negative time, the moves' times add up to the
    /// clock's totals, and replaying the log (through JSON, as the server
    /// stores it) rebuilds the same session.
    #[test]
    fn refused_commands_change_nothing_and_the_log_replays_exactly(
        tc in prop::sample::select(vec!["1+2", "3|10s x2", "2|20s foul", "1/3+1/2", "-", "limit 20s"]),
        cmds in prop::collection::vec(arb_command(), 1..80),
        resign_at_end in any::<bool>(),
    ) {
        let mut config = cxa(tc.parse().unwrap());
        config.rules.foul_limit = 4;
        let mut s = Session::new(Toy::boxed(), config.clone()).unwrap();
        s.apply(Command::Start { at: 0 }).unwrap();
        let mut now: Millis = 0;
        for (kind, dt, first) in cmds {
            // Mostly forwards, sometimes backwards in time.
            let at = if dt > 38_000 { now.saturating_sub(dt - 38_000) } else { now + dt };
            let cmd = command(kind, at, first);
            let before = fingerprint(&s);
            match s.apply(cmd) {
                Ok(_) => now = now.max(at),
                Err(_) => prop_assert_eq!(fingerprint(&s), before),
            }
            if s.is_over() { break; }
        }
        if resign_at_end && !s.is_over() {
            s.apply(Command::Resign { side: R, at: now }).unwrap();
        }
        // Time spent on moves taken back stays used (a takeback refunds
        // nothing), so then the moves kept account for less.
        let took_back = s.log().iter().any(|c| matches!(c, Command::AcceptTakeback { .. }));
        for side in Side::BOTH {
            let used: Millis = s.moves().filter(|m| m.times.side == side).map(|m| m.times.spent_ms).sum();
            let v = s.clock().view(side, now);
            // The side whose turn it is on the clock may have spent time on
            // an unfinished move; the other's total is exactly its moves'.
            if side == s.clock().turn() || took_back {
                prop_assert!(v.used_ms >= used);
            } else {
                prop_assert_eq!(v.used_ms, used);
            }
        }
        let json = serde_json::to_string(s.log()).unwrap();
        let log: Vec<Command> = serde_json::from_str(&json).unwrap();
        let back = Session::replay(Toy::boxed(), config, &log).unwrap();
        prop_assert_eq!(fingerprint(&back), fingerprint(&s));
        prop_assert_eq!(back.result(), s.result());
    }
}

/// The online profile: what would be a foul is refused, with a reason,
/// and changes nothing; the checks the UI asks before it offers a button
/// say the same as the refusals.
#[test]
fn online_a_false_claim_and_a_repeated_offer_are_refused_not_punished() {
    let mut rules = cxa_rules();
    rules.false_claim_is_refused = true;
    rules.repeated_offer_is_foul = false;
    let config = SessionConfig {
        time_control: "10+0".parse().unwrap(),
        rules,
    };
    let mut s = Session::new(Toy::boxed(), config).unwrap();
    s.apply(Command::Start { at: 0 }).unwrap();
    assert!(!s.may_offer_draw(R) && !s.may_offer_draw(B), "no move yet");
    mv(&mut s, R, "x", 1_000);
    // A claim that does not hold: refused, no foul, no time.
    assert!(!s.claim_holds());
    assert_eq!(
        refused(&mut s, Command::ClaimDraw { side: B, at: 2_000 }),
        SessionError::ClaimDoesNotHold { side: B }
    );
    assert_eq!(s.fouls(B), 0);
    // Offers alternate (23.1): R offers, B declines, R may not offer again
    // until B has offered.
    assert!(s.may_offer_draw(R) && !s.may_offer_draw(B));
    s.apply(Command::OfferDraw { side: R, at: 1_100 }).unwrap();
    assert!(!s.may_offer_draw(R), "an offer stands");
    s.apply(Command::DeclineDraw { side: B, at: 1_500 }).unwrap();
    mv(&mut s, B, "m", 2_500);
    mv(&mut s, R, "m", 3_000);
    assert!(!s.may_offer_draw(R));
    assert_eq!(
        refused(&mut s, Command::OfferDraw { side: R, at: 3_100 }),
        SessionError::OfferAgainAfterRefusal { side: R }
    );
    assert_eq!(s.fouls(R), 0);
    mv(&mut s, B, "m", 3_500);
    assert!(s.may_offer_draw(B));
    s.apply(Command::OfferDraw { side: B, at: 3_600 }).unwrap();
    s.apply(Command::DeclineDraw { side: R, at: 3_700 }).unwrap();
    mv(&mut s, R, "m", 4_000);
    assert!(s.may_offer_draw(R), "B offered since: R's turn to offer again");
    // Four moves without a capture: the toy's natural limit; the claim holds.
    mv(&mut s, B, "m", 4_500);
    assert!(s.claim_holds());
    s.apply(Command::ClaimDraw { side: R, at: 5_000 }).unwrap();
    assert_eq!(result(&s).outcome, Some(Outcome::Draw));
    assert!(!s.claim_holds() && !s.may_offer_draw(R) && !s.may_offer_draw(B));
}

/// An arena's berserk (lichess's rule): before one's first move — the first
/// side before the game starts, the second after the first move — half the
/// main time and no increment; refused after one's first move and a second
/// time, changing nothing; the log replays to the same clock.
#[test]
fn berserk_before_ones_first_move_only() {
    let mut s = Session::new(Toy::boxed(), cxa("1+2".parse().unwrap())).unwrap();
    let ev = s.apply(Command::Berserk { side: R, at: 0 }).unwrap();
    assert!(
        matches!(
            ev[..],
            [Event::Berserk {
                side: R,
                ms: 30_000,
                ..
            }]
        ),
        "{ev:?}"
    );
    s.apply(Command::Start { at: 0 }).unwrap();
    mv(&mut s, R, "m", 1_000);
    refused(&mut s, Command::Berserk { side: R, at: 1_500 });
    s.apply(Command::Berserk { side: B, at: 2_000 }).unwrap();
    refused(&mut s, Command::Berserk { side: B, at: 2_500 });
    mv(&mut s, B, "m", 3_000);
    // Red: 30 s − 1 s, no increment; black: 30 s − 2 s, no increment.
    assert_eq!(s.clock().view(R, 3_000).main_ms, 29_000);
    assert_eq!(s.clock().view(B, 3_000).main_ms, 28_000);
    let again = Session::replay(Toy::boxed(), cxa("1+2".parse().unwrap()), s.log()).unwrap();
    assert_eq!(fingerprint(&again), fingerprint(&s));
}
