//! Time controls as text: the strings players type and menus show.
//!
//! # Grammar
//!
//! ```text
//! time-control = "-"                                  ; no clock
//!              / "limit" SP duration                  ; only a per-move limit
//!              / main [ "|" overtime ] [ SP "limit" SP duration ]
//! main      = stage *( "+" stage ) [ "+" increment ] [ ";" delay ]
//! stage     = minutes [ "/" moves ]                   ; no "/moves": sudden death
//! increment = seconds [ "s" ]
//! delay     = "d" seconds [ "s" ]                     ; simple (US) delay
//!           / "b" seconds [ "s" ]                     ; Bronstein delay
//! overtime  = duration [ SP "x" periods ]             ; Japanese byo-yomi
//!           / duration SP "foul"                      ; each overstep a foul (seed 001)
//!           / duration "/" moves                      ; Canadian: moves in duration
//!              / days "d"                             ; correspondence
//! minutes   = number / digits ":" 2digit [ "." 1*3digit ]   ; 90, 0.5, 0:15
//! seconds   = number                                  ; 5, 2.5 (to the millisecond)
//! duration  = number ( "s" / "m" / "h" / "d" )        ; the unit is required
//! days      = 1*2digit                                ; 1 to 14
//! ```
//!
//! Spaces around `|`, `+` and `/` are allowed. A `+` term without `/` is
//! read as a stage when it follows a stage with a move quota, and as the
//! increment when it follows a sudden-death stage or carries an `s`: so
//! `10+5` is 10 minutes plus 5 s a move, `90/40+15/10` is CXA 6.1 (90
//! minutes for 40 moves, then 15 minutes for every 10), `90/40+30` adds a
//! 30-minute sudden-death stage and `90/40+30+30` then a 30 s increment;
//! `90/40+15/10+30s` puts a 30 s increment on the repeating stages.
//!
//! Examples: `-`, `10+5`, `3+2`, `90/40+15/10`, `5/30`, `30`, `5|30s x3`
//! (5 minutes, then three 30-second byo-yomi periods), `0|30s` (30 s a move
//! from the start), `10|5m/25` (Canadian, 25 moves in 5 minutes), `30|30s
//! foul` (seed 001), `30;d5` (simple delay), `limit 15s` (seed 000: every
//! move within 15 s), `3d` (correspondence: three days a move, the same as
//! `0|3d`).
//!
//! [`TimeControl`]'s `Display` prints this canonical form and `FromStr`
//! reads it back to the same value.

use crate::control::{Delay, Millis, Overtime, Stage, TimeControl, TimeControlError};
use std::fmt;
use std::str::FromStr;

/// Why a time-control string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("time control {text:?}: {reason}")]
    Syntax { text: String, reason: String },
    #[error("time control {text:?}: {source}")]
    Invalid { text: String, source: TimeControlError },
}

impl FromStr for TimeControl {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<TimeControl, ParseError> {
        let syntax = |reason: String| ParseError::Syntax {
            text: text.to_string(),
            reason,
        };
        let tc = parse(text).map_err(syntax)?;
        tc.validate().map_err(|source| ParseError::Invalid {
            text: text.to_string(),
            source,
        })?;
        Ok(tc)
    }
}

fn parse(text: &str) -> Result<TimeControl, String> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() {
        return Err("empty".into());
    }
    let mut tc = TimeControl::unlimited();
    if let Some(i) = words.iter().position(|w| w.eq_ignore_ascii_case("limit")) {
        if i + 2 != words.len() {
            return Err("`limit` must be followed by one duration, at the end".into());
        }
        tc.move_limit_ms = Some(duration(words[i + 1])?);
        words.truncate(i);
        if words.is_empty() {
            return Ok(tc);
        }
    }
    let rest = words.join(" ");
    if let Some(days) = rest
        .strip_suffix('d')
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    {
        if tc.move_limit_ms.is_some() {
            return Err("a correspondence game has no per-move limit beyond its days".into());
        }
        let days: u32 = days
            .parse()
            .map_err(|_| format!("{days:?} is not a number of days"))?;
        if days == 0 {
            return Err("a correspondence game needs at least 1 day a move".into());
        }
        return Ok(TimeControl::correspondence(days));
    }
    if rest == "-" {
        return if tc.move_limit_ms.is_some() {
            Err("`-` (no clock) cannot have a per-move limit; write `limit 15s`".into())
        } else {
            Ok(tc)
        };
    }
    let (main, over) = match rest.split_once('|') {
        Some((m, o)) => (m.trim(), Some(o.trim())),
        None => (rest.trim(), None),
    };
    parse_main(main, &mut tc)?;
    if let Some(o) = over {
        tc.overtime = Some(parse_overtime(o)?);
    }
    Ok(tc)
}

fn parse_main(main: &str, tc: &mut TimeControl) -> Result<(), String> {
    let (main, delay) = match main.split_once(';') {
        Some((m, d)) => (m.trim(), Some(d.trim())),
        None => (main, None),
    };
    if let Some(d) = delay {
        let (kind, value) = d.split_at(d.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(d.len()));
        let ms = seconds(value.trim().trim_end_matches('s'))?;
        tc.delay = Some(match kind {
            "d" => Delay::Simple { ms },
            "b" => Delay::Bronstein { ms },
            _ => {
                return Err(format!(
                    "delay {d:?} must start with `d` (simple) or `b` (Bronstein)"
                ))
            }
        });
    }
    let mut increment: Option<Millis> = None;
    for (i, raw) in main.split('+').enumerate() {
        let term: String = raw.split_whitespace().collect();
        if term.is_empty() {
            return Err(format!("term {} is empty", i + 1));
        }
        if increment.is_some() {
            return Err(format!("nothing may follow the increment, found {term:?}"));
        }
        if let Some((t, m)) = term.split_once('/') {
            let moves = m
                .parse::<u32>()
                .map_err(|_| format!("{m:?} is not a number of moves"))?;
            if moves == 0 {
                return Err(format!("stage {term:?}: write a sudden-death stage without `/0`"));
            }
            tc.stages.push(Stage {
                time_ms: minutes(t)?,
                moves,
            });
            continue;
        }
        let previous_has_quota = tc.stages.last().is_some_and(|s| s.moves > 0);
        if let Some(secs) = term.strip_suffix('s') {
            if i == 0 {
                return Err("the first term is main time in minutes; write `0:30` for 30 s".into());
            }
            increment = Some(seconds(secs)?);
        } else if i == 0 || previous_has_quota {
            tc.stages.push(Stage {
                time_ms: minutes(&term)?,
                moves: 0,
            });
        } else {
            increment = Some(seconds(&term)?);
        }
    }
    tc.increment_ms = increment.unwrap_or(0);
    Ok(())
}

fn parse_overtime(o: &str) -> Result<Overtime, String> {
    let words: Vec<&str> = o.split_whitespace().collect();
    match words.as_slice() {
        [d] if d.contains('/') => {
            let (t, m) = d.split_once('/').expect("checked");
            let moves = m
                .parse::<u32>()
                .map_err(|_| format!("{m:?} is not a number of moves"))?;
            Ok(Overtime::Canadian {
                period_ms: duration(t)?,
                moves,
            })
        }
        [d] => Ok(Overtime::Byoyomi {
            period_ms: duration(d)?,
            periods: 1,
        }),
        [d, f] if f.eq_ignore_ascii_case("foul") => Ok(Overtime::FoulPerMove {
            limit_ms: duration(d)?,
        }),
        [d, n] if n.starts_with(['x', 'X', '×']) => {
            let n = n.trim_start_matches(['x', 'X', '×']);
            Ok(Overtime::Byoyomi {
                period_ms: duration(d)?,
                periods: n
                    .parse()
                    .map_err(|_| format!("{n:?} is not a number of periods"))?,
            })
        }
        [d, x, n] if x.eq_ignore_ascii_case("x") || *x == "×" => Ok(Overtime::Byoyomi {
            period_ms: duration(d)?,
            periods: n
                .parse()
                .map_err(|_| format!("{n:?} is not a number of periods"))?,
        }),
        _ => Err(format!(
            "overtime {o:?} must be `30s`, `30s x3`, `30s foul` or `5m/25`"
        )),
    }
}

/// A decimal number scaled to milliseconds by `unit_ms`, exactly.
fn scaled(s: &str, unit_ms: u64) -> Result<Millis, String> {
    let bad = || format!("{s:?} is not a number");
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() && frac.is_empty() {
        return Err(bad());
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if int.len() > 9 || frac.len() > 6 {
        return Err(format!("{s:?} is out of range"));
    }
    let int: u64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| bad())?
    };
    let mut ms = int * unit_ms;
    if !frac.is_empty() {
        let den = 10u64.pow(frac.len() as u32);
        let num = frac.parse::<u64>().map_err(|_| bad())? * unit_ms;
        if !num.is_multiple_of(den) {
            return Err(format!("{s:?} is not a whole number of milliseconds"));
        }
        ms += num / den;
    }
    Ok(ms)
}

fn seconds(s: &str) -> Result<Millis, String> {
    scaled(s, 1000)
}

fn minutes(s: &str) -> Result<Millis, String> {
    if let Some((m, sec)) = s.split_once(':') {
        let m = scaled(m, 60_000)?;
        let (whole, _) = sec.split_once('.').unwrap_or((sec, ""));
        if whole.len() != 2 {
            return Err(format!("{s:?}: seconds after `:` take two digits"));
        }
        let sec = seconds(sec)?;
        if sec >= 60_000 {
            return Err(format!("{s:?}: seconds after `:` must be below 60"));
        }
        return Ok(m + sec);
    }
    scaled(s, 60_000)
}

fn duration(s: &str) -> Result<Millis, String> {
    let (num, unit) = s.split_at(s.len().saturating_sub(1));
    match unit {
        "s" => seconds(num),
        "m" => scaled(num, 60_000),
        "h" => scaled(num, 3_600_000),
        "d" => scaled(num, crate::control::DAY_MS),
        _ => Err(format!("{s:?} needs a unit: `30s`, `5m`, `1h` or `1d`")),
    }
}

struct Secs(Millis);

impl fmt::Display for Secs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 / 1000)?;
        let frac = self.0 % 1000;
        if frac != 0 {
            let digits = format!("{frac:03}");
            write!(f, ".{}", digits.trim_end_matches('0'))?;
        }
        Ok(())
    }
}

struct Mins(Millis);

impl fmt::Display for Mins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(60_000) {
            write!(f, "{}", self.0 / 60_000)
        } else {
            let sec = self.0 % 60_000;
            write!(f, "{}:{:02}", self.0 / 60_000, sec / 1000)?;
            if !sec.is_multiple_of(1000) {
                let digits = format!("{:03}", sec % 1000);
                write!(f, ".{}", digits.trim_end_matches('0'))?;
            }
            Ok(())
        }
    }
}

struct Dur(Millis);

impl fmt::Display for Dur {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= 300_000 && self.0.is_multiple_of(60_000) {
            write!(f, "{}m", self.0 / 60_000)
        } else {
            write!(f, "{}s", Secs(self.0))
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(days) = self.correspondence_days() {
            return write!(f, "{days}d");
        }
        if self.stages.is_empty() {
            return match self.move_limit_ms {
                Some(l) => write!(f, "limit {}", Dur(l)),
                None => f.write_str("-"),
            };
        }
        for (i, s) in self.stages.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{}", Mins(s.time_ms))?;
            if s.moves > 0 {
                write!(f, "/{}", s.moves)?;
            }
        }
        if self.increment_ms > 0 {
            let quota = self.stages.last().is_some_and(|s| s.moves > 0);
            write!(f, "+{}", Secs(self.increment_ms))?;
            if quota {
                f.write_str("s")?;
            }
        }
        match self.delay {
            Some(Delay::Simple { ms }) => write!(f, ";d{}", Secs(ms))?,
            Some(Delay::Bronstein { ms }) => write!(f, ";b{}", Secs(ms))?,
            None => {}
        }
        match self.overtime {
            Some(Overtime::Byoyomi { period_ms, periods }) => {
                write!(f, "|{}", Dur(period_ms))?;
                if periods != 1 {
                    write!(f, " x{periods}")?;
                }
            }
            Some(Overtime::Canadian { period_ms, moves }) => {
                write!(f, "|{}/{moves}", Dur(period_ms))?;
            }
            Some(Overtime::FoulPerMove { limit_ms }) => write!(f, "|{} foul", Dur(limit_ms))?,
            None => {}
        }
        if let Some(l) = self.move_limit_ms {
            write!(f, " limit {}", Dur(l))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::PRESETS;
    use proptest::prelude::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn the_usual_strings() {
        assert_eq!(tc("10+5"), TimeControl::fischer(600_000, 5_000));
        assert_eq!(
            tc("90/40+15/10").stages,
            vec![
                Stage {
                    time_ms: 5_400_000,
                    moves: 40
                },
                Stage {
                    time_ms: 900_000,
                    moves: 10
                }
            ]
        );
        let b = tc("5|30s x3");
        assert_eq!(
            b.stages,
            vec![Stage {
                time_ms: 300_000,
                moves: 0
            }]
        );
        assert_eq!(
            b.overtime,
            Some(Overtime::Byoyomi {
                period_ms: 30_000,
                periods: 3
            })
        );
        assert_eq!(tc("5 | 30s ×3"), b);
        assert_eq!(tc("5|30s x 3"), b);
        assert_eq!(
            tc("10|5m/25").overtime,
            Some(Overtime::Canadian {
                period_ms: 300_000,
                moves: 25
            })
        );
        assert_eq!(
            tc("30|30s foul"),
            TimeControl::free_then_foul_per_move(1_800_000, 30_000)
        );
        assert_eq!(tc("limit 15s").move_limit_ms, Some(15_000));
        assert!(tc("limit 15s").stages.is_empty());
        assert_eq!(tc("-"), TimeControl::unlimited());
        assert_eq!(tc("0:15+1").stages[0].time_ms, 15_000);
        assert_eq!(tc("0.5+0").stages[0].time_ms, 30_000);
        assert_eq!(tc("30;d5").delay, Some(Delay::Simple { ms: 5_000 }));
        assert_eq!(tc("30;b5s").delay, Some(Delay::Bronstein { ms: 5_000 }));
        // Correspondence: days a move, written short or as byo-yomi.
        assert_eq!(tc("3d"), TimeControl::correspondence(3));
        assert_eq!(tc("0|3d"), TimeControl::correspondence(3));
        assert_eq!(tc("3d").to_string(), "3d");
        assert_eq!(tc("3d").correspondence_days(), Some(3));
        assert_eq!(tc("0|30s").correspondence_days(), None);
        // Days a move only from the first move; a byo-yomi period of more
        // than an hour after main time is refused as before.
        for bad in ["0d", "15d", "3d limit 15s", "0|36h x2", "10|1d"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn plus_terms_are_stages_after_a_quota_and_increments_after_sudden_death() {
        let a = tc("90/40+30");
        assert_eq!(a.stages.len(), 2);
        assert_eq!(a.increment_ms, 0);
        let b = tc("90/40+30+30");
        assert_eq!(b.stages.len(), 2);
        assert_eq!(b.increment_ms, 30_000);
        let c = tc("90/40+15/10+30s");
        assert_eq!(c.stages.len(), 2);
        assert!(!c.stages[1].is_sudden_death());
        assert_eq!(c.increment_ms, 30_000);
        assert_eq!(c.to_string(), "90/40+15/10+30s");
    }

    #[test]
    fn bad_strings_say_what_is_wrong() {
        for bad in [
            "",
            "abc",
            "10+",
            "+5",
            "10+5+3",
            "10/0",
            "10|30",
            "10|30s y3",
            "10;x5",
            "10+5s+3",
            "30s",
            "0:5",
            "1:75",
            "limit",
            "limit 15",
            "- limit 5s",
            "10|0s",
            "90/40|30s",
            "0",
            "1.0000001",
        ] {
            let e = bad.parse::<TimeControl>();
            assert!(e.is_err(), "{bad:?} parsed as {e:?}");
            let msg = e.unwrap_err().to_string();
            assert!(msg.contains(&format!("{bad:?}")), "{msg}");
        }
    }

    #[test]
    fn presets_parse_and_print_back() {
        for p in PRESETS {
            let t = tc(p.text);
            assert_eq!(t.to_string(), p.text, "{}", p.source);
        }
    }

    fn arb_tc() -> impl Strategy<Value = TimeControl> {
        let stage = (1u64..=10_800, 0u32..60).prop_map(|(s, m)| Stage {
            time_ms: s * 1000,
            moves: m,
        });
        (
            prop::collection::vec(stage, 0..4),
            prop::option::of(1u64..300_000),
            0u64..60_000,
            prop::option::of((any::<bool>(), 1u64..30_000)),
            prop::option::of((0u8..3, 1u64..120_000, 1u32..30)),
        )
            .prop_filter_map("invalid", |(mut stages, limit, inc, delay, over)| {
                // Sudden death only last: give all but the last a quota.
                let n = stages.len();
                for s in stages.iter_mut().take(n.saturating_sub(1)) {
                    s.moves = s.moves.max(1);
                }
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
        #[test]
        fn print_then_parse_is_identity(t in arb_tc()) {
            let text = t.to_string();
            let back: TimeControl = text.parse().map_err(|e| TestCaseError::fail(format!("{e}")))?;
            prop_assert_eq!(back, t);
        }
    }
}
