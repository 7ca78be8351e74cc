//! What a time control says, as data: the stages of main time, the
//! increment or delay added per move, what happens when main time is gone
//! (byo-yomi 读秒 of several kinds), and an optional limit on every move.
//!
//! A [`TimeControl`] is only a description; [`crate::Clock`] runs one. All
//! durations are milliseconds.

use serde::{Deserialize, Serialize};

/// Milliseconds, the one unit of time in this crate.
pub type Millis = u64;

/// The longest main-time stage we accept (100 hours): large enough for any
/// real event, small enough that sums never overflow.
pub const MAX_STAGE_MS: Millis = 100 * 3_600_000;
/// The longest increment, delay, byo-yomi period or per-move limit (1 hour).
pub const MAX_PER_MOVE_MS: Millis = 3_600_000;
/// The largest move quota of a stage or Canadian period.
pub const MAX_MOVES: u32 = 10_000;
/// A day, the unit of correspondence games.
pub const DAY_MS: Millis = 86_400_000;
/// The longest time per move of a correspondence game (lichess offers 1
/// to 14 days).
pub const MAX_CORRESPONDENCE_DAYS: u32 = 14;
/// The most byo-yomi periods.
pub const MAX_PERIODS: u32 = 1_000;

/// One stage of main time (时限): `time_ms` is added when the stage begins
/// and the player must complete `moves` moves before it runs out (CXA 6.1:
/// "第一时限，每方在90分钟内必须走满40着"). `moves == 0` means the stage lasts
/// for the rest of the game: sudden death (包干, CXA 6.5). When the last
/// stage has a quota it repeats ("以后每15分钟内必须走满10着，直至对局结束").
/// Unused time carries over from one stage to the next, as on every
/// mechanical and digital clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stage {
    pub time_ms: Millis,
    pub moves: u32,
}

impl Stage {
    #[must_use]
    pub fn is_sudden_death(self) -> bool {
        self.moves == 0
    }
}

/// A delay before the clock starts to count down on each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Delay {
    /// Simple (US) delay: the clock waits `ms` before it counts down.
    Simple { ms: Millis },
    /// Bronstein delay: after the move, the time used is given back, up to
    /// `ms`.
    Bronstein { ms: Millis },
}

impl Delay {
    #[must_use]
    pub fn ms(self) -> Millis {
        match self {
            Delay::Simple { ms } | Delay::Bronstein { ms } => ms,
        }
    }
}

/// What happens once main time is used up (only after a sudden-death last
/// stage: a player who runs out inside a stage with a quota has failed to
/// complete the moves in time, which loses, CXA 4.1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Overtime {
    /// Japanese byo-yomi (读秒): `periods` periods of `period_ms`. A move
    /// made within the current period keeps it; a period that runs out is
    /// lost and the next begins; losing the last one loses on time. With one
    /// period this is the "then 60 s a move, an overstep loses" of seed 000.
    Byoyomi { period_ms: Millis, periods: u32 },
    /// Canadian byo-yomi: `moves` moves in `period_ms`; after the last of
    /// them a fresh period begins.
    Canadian { period_ms: Millis, moves: u32 },
    /// Seed 001: "超过30分钟后，每方走一着棋的时间不得超过30秒，如超出30秒，
    /// 判技术犯规一次，两次技术犯规后判负". Every full `limit_ms` spent on one
    /// move is an overstep, which the session records as a technical foul
    /// (犯规); the clock itself never flags.
    FoulPerMove { limit_ms: Millis },
}

/// A complete time control. Build one with the constructors, parse one from
/// text (see [`crate::parse`] for the grammar), or fill the fields and call
/// [`TimeControl::validate`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    /// Main time. Empty: no main time limit at all (only `move_limit_ms`
    /// can then limit the players).
    pub stages: Vec<Stage>,
    /// Fischer increment, added to main time after every move made in main
    /// time.
    pub increment_ms: Millis,
    pub delay: Option<Delay>,
    pub overtime: Option<Overtime>,
    /// A hard limit on every single move, from the first (seed 000's office
    /// rules: "每方走一着棋的时间不得超过十五秒，如有一着棋超过时间，判负").
    pub move_limit_ms: Option<Millis>,
}

/// Why a time control is not usable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("stage {stage} is sudden death (no move quota) but is not the last stage")]
    SuddenDeathNotLast { stage: usize },
    #[error("stage {stage} asks for {moves} moves in no time")]
    EmptyStage { stage: usize, moves: u32 },
    #[error("the main time is zero and there is no increment or overtime to move in")]
    NoTimeToMove,
    #[error("overtime (byo-yomi) needs a sudden-death last stage, e.g. `10|30s`")]
    OvertimeNeedsSuddenDeath,
    #[error("an increment, delay or overtime needs main time; write `0|30s` for byo-yomi only")]
    NeedsMainTime,
    #[error("{what} must be greater than zero")]
    Zero { what: &'static str },
    #[error("{what} is too large ({value}, at most {max})")]
    TooLarge {
        what: &'static str,
        value: u64,
        max: u64,
    },
    #[error("seed-003 setting out of range: {0}")]
    OutOfRange(String),
}

impl TimeControl {
    /// No clock at all (casual games).
    #[must_use]
    pub fn unlimited() -> TimeControl {
        TimeControl {
            stages: Vec::new(),
            increment_ms: 0,
            delay: None,
            overtime: None,
            move_limit_ms: None,
        }
    }

    /// Sudden death (包干, CXA 6.5) with a Fischer increment: `10+5` is
    /// `fischer(600_000, 5_000)`.
    #[must_use]
    pub fn fischer(main_ms: Millis, increment_ms: Millis) -> TimeControl {
        TimeControl {
            stages: vec![Stage {
                time_ms: main_ms,
                moves: 0,
            }],
            increment_ms,
            ..TimeControl::unlimited()
        }
    }

    /// A correspondence (daily) game: `days` for every move, from the
    /// first; a move made in time gives the next move the whole period
    /// again, and a period that runs out loses. In the clock's terms: no
    /// main time and one byo-yomi period of `days`.
    #[must_use]
    pub fn correspondence(days: u32) -> TimeControl {
        TimeControl {
            stages: vec![Stage { time_ms: 0, moves: 0 }],
            overtime: Some(Overtime::Byoyomi {
                period_ms: u64::from(days) * DAY_MS,
                periods: 1,
            }),
            ..TimeControl::unlimited()
        }
    }

    /// The PGN `TimeControl` tag (PGN standard 9.6.1): seconds, not
    /// minutes — `120+1`, `40/7200:3600`, `-` without a clock. A
    /// correspondence game is `-` (as lichess writes it: no tag value says
    /// "days per move"), and a delay or byo-yomi, which the tag cannot
    /// say, is left out.
    #[must_use]
    pub fn pgn_tag(&self) -> String {
        if self.stages.is_empty() || self.correspondence_days().is_some() {
            return "-".into();
        }
        let secs = |ms: Millis| {
            if ms.is_multiple_of(1000) {
                (ms / 1000).to_string()
            } else {
                format!("{:.1}", ms as f64 / 1000.0)
            }
        };
        let mut parts: Vec<String> = self
            .stages
            .iter()
            .map(|s| {
                if s.is_sudden_death() {
                    secs(s.time_ms)
                } else {
                    format!("{}/{}", s.moves, secs(s.time_ms))
                }
            })
            .collect();
        if self.increment_ms > 0 {
            if let Some(last) = parts.last_mut() {
                last.push_str(&format!("+{}", secs(self.increment_ms)));
            }
        }
        parts.join(":")
    }

    /// The days per move, for a correspondence game.
    #[must_use]
    pub fn correspondence_days(&self) -> Option<u32> {
        let shape = self.stages == [Stage { time_ms: 0, moves: 0 }]
            && self.increment_ms == 0
            && self.delay.is_none()
            && self.move_limit_ms.is_none();
        match self.overtime {
            Some(Overtime::Byoyomi {
                period_ms,
                periods: 1,
            }) if shape && period_ms >= DAY_MS && period_ms.is_multiple_of(DAY_MS) => {
                u32::try_from(period_ms / DAY_MS).ok()
            }
            _ => None,
        }
    }

    /// Stages as given, nothing else.
    #[must_use]
    pub fn stages(stages: Vec<Stage>) -> TimeControl {
        TimeControl {
            stages,
            ..TimeControl::unlimited()
        }
    }

    /// The seed-001 office rule: `free_ms` of free play, then every move
    /// within `per_move_ms`, each overstep a technical foul (the session's
    /// foul limit, 2 in that rule book, decides when the game is lost).
    #[must_use]
    pub fn free_then_foul_per_move(free_ms: Millis, per_move_ms: Millis) -> TimeControl {
        TimeControl {
            overtime: Some(Overtime::FoulPerMove {
                limit_ms: per_move_ms,
            }),
            ..TimeControl::fischer(free_ms, 0)
        }
    }

    /// The online settings of seed 003: "第一时限 / 第一时限的步数 / 第二时限 /
    /// 第二时限的步数 … 第二时限以后均按第二时限的要求进行", minutes 0–180 and
    /// moves 0–999. Mapping:
    /// - a limit of 0 minutes is no stage (so `0,0,0,0` is an unlimited game);
    /// - 0 moves in a limit means it lasts for the rest of the game (包干), and
    ///   then no later limit may follow;
    /// - the last limit given repeats when it has a move quota;
    /// - minutes > 0 with moves given but 0 minutes in the first limit is
    ///   refused (moves with no time cannot be played).
    pub fn two_limits(
        first_min: u32,
        first_moves: u32,
        second_min: u32,
        second_moves: u32,
    ) -> Result<TimeControl, TimeControlError> {
        for (what, v, max) in [
            ("first limit minutes", first_min, 180),
            ("first limit moves", first_moves, 999),
            ("second limit minutes", second_min, 180),
            ("second limit moves", second_moves, 999),
        ] {
            if v > max {
                return Err(TimeControlError::OutOfRange(format!(
                    "{what} is {v}, allowed 0-{max}"
                )));
            }
        }
        let mut stages = Vec::new();
        for (i, (min, moves)) in [(first_min, first_moves), (second_min, second_moves)]
            .into_iter()
            .enumerate()
        {
            if min == 0 {
                if moves != 0 {
                    return Err(TimeControlError::OutOfRange(format!(
                        "limit {} asks for {moves} moves in 0 minutes",
                        i + 1
                    )));
                }
                continue;
            }
            stages.push(Stage {
                time_ms: u64::from(min) * 60_000,
                moves,
            });
        }
        if stages.len() == 2 && stages[0].is_sudden_death() {
            return Err(TimeControlError::OutOfRange(
                "the first limit has 0 moves (the rest of the game), so there can be no second limit".into(),
            ));
        }
        let tc = TimeControl::stages(stages);
        tc.validate()?;
        Ok(tc)
    }

    /// Whether the main time is limited at all.
    #[must_use]
    pub fn is_timed(&self) -> bool {
        !self.stages.is_empty()
    }

    /// Whether there is no limit of any kind.
    #[must_use]
    pub fn is_unlimited(&self) -> bool {
        self.stages.is_empty() && self.move_limit_ms.is_none()
    }

    /// The stage a player is in after `moves_done` moves, and how many moves
    /// of it are done: the answer every property test checks the clock
    /// against.
    #[must_use]
    pub fn stage_after(&self, moves_done: u32) -> Option<(usize, u32)> {
        if self.stages.is_empty() {
            return None;
        }
        let mut left = moves_done;
        let last = self.stages.len() - 1;
        for (i, s) in self.stages.iter().enumerate() {
            if s.moves == 0 {
                return Some((i, left));
            }
            if i == last {
                return Some((i, left % s.moves));
            }
            if left < s.moves {
                return Some((i, left));
            }
            left -= s.moves;
        }
        unreachable!("the loop returns at the last stage")
    }

    /// Total main time granted after `moves_done` moves (the initial stage
    /// plus every stage entered), before increments.
    #[must_use]
    pub fn granted_after(&self, moves_done: u32) -> Millis {
        let Some((stage, _)) = self.stage_after(moves_done) else {
            return 0;
        };
        let mut total: Millis = self.stages.iter().take(stage + 1).map(|s| s.time_ms).sum();
        let last = self.stages.len() - 1;
        if stage == last && !self.stages[last].is_sudden_death() {
            let before: u32 = self.stages[..last].iter().map(|s| s.moves).sum();
            let repeats = (moves_done - before) / self.stages[last].moves;
            total += Millis::from(repeats) * self.stages[last].time_ms;
        }
        total
    }

    /// Checks the control is playable; every constructor that takes numbers
    /// from outside goes through here.
    pub fn validate(&self) -> Result<(), TimeControlError> {
        let too_large = |what, value: u64, max: u64| {
            if value > max {
                Err(TimeControlError::TooLarge { what, value, max })
            } else {
                Ok(())
            }
        };
        let last = self.stages.len().wrapping_sub(1);
        for (i, s) in self.stages.iter().enumerate() {
            too_large("stage time", s.time_ms, MAX_STAGE_MS)?;
            too_large("stage moves", u64::from(s.moves), u64::from(MAX_MOVES))?;
            if s.is_sudden_death() && i != last {
                return Err(TimeControlError::SuddenDeathNotLast { stage: i + 1 });
            }
            if s.time_ms == 0 && s.moves > 0 {
                return Err(TimeControlError::EmptyStage {
                    stage: i + 1,
                    moves: s.moves,
                });
            }
        }
        too_large("increment", self.increment_ms, MAX_PER_MOVE_MS)?;
        if let Some(d) = self.delay {
            too_large("delay", d.ms(), MAX_PER_MOVE_MS)?;
            if d.ms() == 0 {
                return Err(TimeControlError::Zero { what: "delay" });
            }
        }
        if let Some(l) = self.move_limit_ms {
            too_large("per-move limit", l, MAX_PER_MOVE_MS)?;
            if l == 0 {
                return Err(TimeControlError::Zero {
                    what: "per-move limit",
                });
            }
        }
        match self.overtime {
            None => {}
            Some(Overtime::Byoyomi { period_ms, periods }) => {
                if self.correspondence_days().is_some() {
                    too_large(
                        "days per move",
                        period_ms / DAY_MS,
                        u64::from(MAX_CORRESPONDENCE_DAYS),
                    )?;
                } else {
                    too_large("byo-yomi period", period_ms, MAX_PER_MOVE_MS)?;
                }
                too_large("byo-yomi periods", u64::from(periods), u64::from(MAX_PERIODS))?;
                if period_ms == 0 {
                    return Err(TimeControlError::Zero {
                        what: "byo-yomi period",
                    });
                }
                if periods == 0 {
                    return Err(TimeControlError::Zero {
                        what: "number of byo-yomi periods",
                    });
                }
            }
            Some(Overtime::Canadian { period_ms, moves }) => {
                too_large("Canadian period", period_ms, MAX_STAGE_MS)?;
                too_large("Canadian moves", u64::from(moves), u64::from(MAX_MOVES))?;
                if period_ms == 0 {
                    return Err(TimeControlError::Zero {
                        what: "Canadian period",
                    });
                }
                if moves == 0 {
                    return Err(TimeControlError::Zero {
                        what: "moves of a Canadian period",
                    });
                }
            }
            Some(Overtime::FoulPerMove { limit_ms }) => {
                too_large("per-move foul limit", limit_ms, MAX_PER_MOVE_MS)?;
                if limit_ms == 0 {
                    return Err(TimeControlError::Zero {
                        what: "per-move foul limit",
                    });
                }
            }
        }
        if self.stages.is_empty() {
            if self.increment_ms > 0 || self.delay.is_some() || self.overtime.is_some() {
                return Err(TimeControlError::NeedsMainTime);
            }
            return Ok(());
        }
        if self.overtime.is_some() && !self.stages[last].is_sudden_death() {
            return Err(TimeControlError::OvertimeNeedsSuddenDeath);
        }
        if self.stages[0].time_ms == 0
            && self.overtime.is_none()
            && self.delay.is_none()
            && self.move_limit_ms.is_none()
        {
            return Err(TimeControlError::NoTimeToMove);
        }
        Ok(())
    }
}

/// A named time control from the rule books, for menus and tests.
#[derive(Clone, Debug)]
pub struct Preset {
    pub name: &'static str,
    /// Where it comes from, e.g. `CXA 6.1`.
    pub source: &'static str,
    /// In the grammar of [`crate::parse`].
    pub text: &'static str,
}

/// The time controls the seeds name, in our grammar.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "standard 90/40 then 15/10",
        source: "CXA 6.1",
        text: "90/40+15/10",
    },
    Preset {
        name: "standard 60/30 then 10/10",
        source: "CXA 6.2",
        text: "60/30+10/10",
    },
    Preset {
        name: "rapid 10/40 then 5/30",
        source: "CXA 6.3",
        text: "10/40+5/30",
    },
    Preset {
        name: "rapid 5/30 throughout",
        source: "CXA 6.4",
        text: "5/30",
    },
    Preset {
        name: "sudden death 30 minutes (包干)",
        source: "CXA 6.5",
        text: "30",
    },
    Preset {
        name: "15 s a move, an overstep loses",
        source: "seed 000 office rules",
        text: "limit 15s",
    },
    Preset {
        name: "30 minutes, then 60 s a move, an overstep loses",
        source: "seed 000 office rules",
        text: "30|60s",
    },
    Preset {
        name: "30 minutes free, then 30 s a move, each overstep a technical foul",
        source: "seed 001 office rules",
        text: "30|30s foul",
    },
    Preset {
        name: "blitz 5+3",
        source: "online",
        text: "5+3",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// PGN's `TimeControl` in seconds, as the PGN standard (9.6.1) and
    /// lichess write it.
    #[test]
    fn the_pgn_tag_counts_seconds() {
        let tag = |s: &str| s.parse::<TimeControl>().unwrap().pgn_tag();
        assert_eq!(tag("2+1"), "120+1");
        assert_eq!(tag("10+0"), "600");
        assert_eq!(tag("0:30+0"), "30");
        assert_eq!(
            TimeControl::two_limits(60, 30, 10, 10).unwrap().pgn_tag(),
            "30/3600:10/600"
        );
        assert_eq!(TimeControl::correspondence(3).pgn_tag(), "-");
        assert_eq!(TimeControl::unlimited().pgn_tag(), "-");
    }

    #[test]
    fn seed_003_two_limits_map_onto_stages() {
        let tc = TimeControl::two_limits(60, 30, 10, 10).unwrap();
        assert_eq!(
            tc.stages,
            vec![
                Stage {
                    time_ms: 3_600_000,
                    moves: 30
                },
                Stage {
                    time_ms: 600_000,
                    moves: 10
                }
            ]
        );
        assert!(TimeControl::two_limits(0, 0, 0, 0).unwrap().is_unlimited());
        assert_eq!(
            TimeControl::two_limits(20, 0, 0, 0).unwrap(),
            TimeControl::fischer(1_200_000, 0)
        );
        assert!(TimeControl::two_limits(181, 0, 0, 0).is_err());
        assert!(TimeControl::two_limits(10, 1000, 0, 0).is_err());
        assert!(TimeControl::two_limits(0, 40, 0, 0).is_err());
        assert!(TimeControl::two_limits(20, 0, 5, 10).is_err());
        // 180 minutes and 999 moves are the top of the allowed range.
        assert!(TimeControl::two_limits(180, 999, 180, 999).is_ok());
    }

    #[test]
    fn stage_after_counts_repeating_last_stage() {
        let tc = TimeControl::stages(vec![
            Stage {
                time_ms: 90,
                moves: 40,
            },
            Stage {
                time_ms: 15,
                moves: 10,
            },
        ]);
        assert_eq!(tc.stage_after(0), Some((0, 0)));
        assert_eq!(tc.stage_after(39), Some((0, 39)));
        assert_eq!(tc.stage_after(40), Some((1, 0)));
        assert_eq!(tc.stage_after(49), Some((1, 9)));
        assert_eq!(tc.stage_after(50), Some((1, 0)));
        assert_eq!(tc.granted_after(0), 90);
        assert_eq!(tc.granted_after(40), 105);
        assert_eq!(tc.granted_after(50), 120);
        assert_eq!(tc.granted_after(59), 120);
    }

    #[test]
    fn validation_names_the_problem() {
        let bad = TimeControl::stages(vec![
            Stage {
                time_ms: 10,
                moves: 0,
            },
            Stage {
                time_ms: 10,
                moves: 5,
            },
        ]);
        assert_eq!(
            bad.validate(),
            Err(TimeControlError::SuddenDeathNotLast { stage: 1 })
        );
        let mut t = TimeControl::stages(vec![Stage {
            time_ms: 60_000,
            moves: 40,
        }]);
        t.overtime = Some(Overtime::Byoyomi {
            period_ms: 30_000,
            periods: 1,
        });
        assert_eq!(t.validate(), Err(TimeControlError::OvertimeNeedsSuddenDeath));
        assert_eq!(
            TimeControl::fischer(0, 0).validate(),
            Err(TimeControlError::NoTimeToMove)
        );
        let mut u = TimeControl::unlimited();
        u.increment_ms = 5;
        assert_eq!(u.validate(), Err(TimeControlError::NeedsMainTime));
    }
}
