//! Property tests of the clock (issue 4, "must show"): time never goes
//! negative or jumps, the total time used is the sum of the moves' times,
//! and every stage transition happens at the exact move count.

use clock::{Clock, ClockError, Delay, Millis, Overtime, Stage, TimeControl};
use game::Side;
use proptest::prelude::*;

fn arb_stages() -> impl Strategy<Value = Vec<Stage>> {
    prop::collection::vec((1u64..600, 1u32..8), 1..4).prop_flat_map(|quota_stages| {
        // Optionally end in sudden death; otherwise the last stage repeats.
        (Just(quota_stages), prop::option::of(1u64..600)).prop_map(|(q, sd)| {
            let mut stages: Vec<Stage> = q
                .into_iter()
                .map(|(s, moves)| Stage {
                    time_ms: s * 1000,
                    moves,
                })
                .collect();
            if let Some(s) = sd {
                stages.push(Stage {
                    time_ms: s * 1000,
                    moves: 0,
                });
            }
            stages
        })
    })
}

fn arb_control() -> impl Strategy<Value = TimeControl> {
    (
        arb_stages(),
        prop_oneof![Just(0u64), 1u64..20_000],
        prop::option::of((any::<bool>(), 1u64..10_000)),
        prop::option::of((0u8..3, 1_000u64..60_000, 1u32..5)),
        prop::option::of(10_000u64..400_000),
    )
        .prop_filter_map("invalid control", |(stages, inc, delay, over, limit)| {
            let tc = TimeControl {
                stages,
                increment_ms: inc,
                delay: delay.map(|(simple, ms)| {
                    if simple {
                        Delay::Simple { ms }
                    } else {
                        Delay::Bronstein { ms }
                    }
                }),
                overtime: over.map(|(k, ms, n)| match k {
                    0 => Overtime::Byoyomi {
                        period_ms: ms,
                        periods: n,
                    },
                    1 => Overtime::Canadian {
                        period_ms: ms,
                        moves: n,
                    },
                    _ => Overtime::FoulPerMove { limit_ms: ms },
                }),
                move_limit_ms: limit,
            };
            tc.validate().is_ok().then_some(tc)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Within a turn the running side's main time falls no faster than real
    /// time and never rises; the waiting side's clock stands still; a press
    /// changes main time by exactly what the control promises (increment,
    /// Bronstein refund, a new stage) and nothing else; nothing is ever
    /// negative (all values are unsigned and no subtraction underflows, which
    /// overflow checks in the test profile would catch).
    #[test]
    fn time_never_goes_negative_or_jumps(
        tc in arb_control(),
        thinks in prop::collection::vec(0u64..250_000, 1..60),
        probes in prop::collection::vec(0u64..1000, 60),
    ) {
        let mut clock = Clock::new(tc.clone()).unwrap();
        let mut now: Millis = 1_000;
        clock.start(Side::First, now).unwrap();
        for (i, &think) in thinks.iter().enumerate() {
            let side = clock.turn();
            let other = side.other();
            let waiting_before = clock.view(other, now);
            // Probe the running clock at a few instants inside the turn.
            let mut last = clock.view(side, now);
            let mut last_t = now;
            for p in [probes[i] * think / 1000, think] {
                let t = now + p;
                let v = clock.view(side, t);
                prop_assert!(v.main_ms <= last.main_ms, "main time rose within a turn");
                prop_assert!(last.main_ms - v.main_ms <= t - last_t, "main time fell faster than real time");
                prop_assert_eq!(clock.view(other, t).main_ms, waiting_before.main_ms);
                last = v;
                last_t = t;
            }
            let at = now + think;
            let before = clock.view(side, at);
            match clock.press(side, at) {
                Ok(timing) => {
                    prop_assert_eq!(timing.spent_ms, think);
                    let after = clock.view(side, at);
                    if before.overtime.is_none() {
                        let refund = match tc.delay {
                            Some(Delay::Bronstein { ms }) => think.min(ms),
                            _ => 0,
                        };
                        let stage = timing.entered_stage.map_or(0, |s| tc.stages[s].time_ms);
                        prop_assert_eq!(after.main_ms, before.main_ms + tc.increment_ms + refund + stage);
                    } else {
                        // In overtime main time only grows by a new stage,
                        // which cannot happen after a sudden-death stage.
                        prop_assert_eq!(after.main_ms, 0);
                    }
                    prop_assert_eq!(clock.view(other, at).main_ms, waiting_before.main_ms);
                    now = at;
                }
                Err(ClockError::Flagged { side: f, at: flag_at }) => {
                    prop_assert_eq!(f, side);
                    prop_assert!(flag_at <= at);
                    let events = clock.poll(at).unwrap();
                    let flagged = events.iter().any(|e| matches!(e, clock::ClockEvent::Flag { .. }));
                    prop_assert!(flagged);
                    prop_assert_eq!(clock.view(side, at).main_ms, 0);
                    break;
                }
                Err(e) => return Err(TestCaseError::fail(format!("unexpected {e}"))),
            }
        }
    }

    /// The clock's total for each side equals the sum of the times of that
    /// side's moves (plus the unfinished turn when the game stops or flags).
    #[test]
    fn total_time_used_is_the_sum_of_move_times(
        tc in arb_control(),
        thinks in prop::collection::vec(0u64..250_000, 1..80),
        pauses in prop::collection::vec(prop::option::of(1u64..50_000), 80),
    ) {
        let mut clock = Clock::new(tc).unwrap();
        let mut now: Millis = 0;
        clock.start(Side::First, now).unwrap();
        let mut sums = [0u64; 2];
        let mut ended = false;
        for (i, &think) in thinks.iter().enumerate() {
            let side = clock.turn();
            let turn_start = now;
            // Sometimes an arbiter pauses the clock mid-turn; paused time is
            // not the player's.
            let mut paused = 0;
            if let Some(p) = pauses[i] {
                if clock.pause(now + think / 2).is_ok() {
                    clock.resume(now + think / 2 + p).unwrap();
                    paused = p;
                }
            }
            let at = turn_start + paused + think;
            match clock.press(side, at) {
                Ok(t) => {
                    prop_assert_eq!(t.spent_ms, think);
                    sums[side.index()] += t.spent_ms;
                    now = at;
                }
                Err(ClockError::Flagged { at: flag_at, .. }) => {
                    let events = clock.poll(at).unwrap();
                    prop_assert!(!events.is_empty());
                    sums[side.index()] += flag_at - turn_start - paused;
                    ended = true;
                    break;
                }
                Err(e) => return Err(TestCaseError::fail(format!("unexpected {e}"))),
            }
        }
        if !ended {
            let side = clock.turn();
            if let Ok(spent) = clock.stop(now + 777) {
                sums[side.index()] += spent;
            }
        }
        for s in Side::BOTH {
            prop_assert_eq!(clock.view(s, now + 1_000_000).used_ms, sums[s.index()]);
        }
    }

    /// After every press the side is in exactly the stage its move count
    /// says, a stage's time is added at the very move that completes the
    /// previous quota and at no other, and (without increment or delay) the
    /// main time is the time granted so far minus the time used.
    #[test]
    fn stage_transitions_at_the_exact_move_count(
        stages in arb_stages(),
        thinks in prop::collection::vec(0u64..20_000, 1..120),
    ) {
        let tc = TimeControl::stages(stages);
        let mut clock = Clock::new(tc.clone()).unwrap();
        let mut now = 0;
        clock.start(Side::First, now).unwrap();
        for think in thinks {
            let side = clock.turn();
            let at = now + think;
            let Ok(t) = clock.press(side, at) else { break };
            now = at;
            let (stage, done) = tc.stage_after(t.moves).unwrap();
            let v = clock.view(side, now);
            prop_assert_eq!(v.stage, stage + 1);
            prop_assert_eq!(v.moves_to_control, (tc.stages[stage].moves > 0).then(|| tc.stages[stage].moves - done));
            let (prev_stage, _) = tc.stage_after(t.moves - 1).unwrap();
            let should_enter = done == 0 && !tc.stages[prev_stage].is_sudden_death();
            prop_assert_eq!(t.entered_stage.is_some(), should_enter);
            prop_assert_eq!(v.main_ms + v.used_ms, tc.granted_after(t.moves));
        }
    }
}
