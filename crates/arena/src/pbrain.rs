//! Runs a gomoku or renju engine that speaks the Gomocup protocol (Piskvork's
//! "pbrain" protocol, as at Gomocup: <https://plastovicka.github.io/protocl2en.htm>)
//! as a player: `START 15`, `INFO key value`, `RESTART`, `BEGIN`, `TURN x,y`,
//! `BOARD` … `DONE`, `ABOUT`, `END`. Coordinates are `x,y` from 0, x from
//! the left, y from the top. The engine may write `MESSAGE`, `DEBUG` and
//! `SUGGEST` lines at any time; they are skipped. `ERROR` or `UNKNOWN`
//! where a move or `OK` was due is garbage.
//!
//! As for the UCI adapter, every wait has a deadline and
//! [`GomocupPlayer`] restarts a process that hung, crashed or garbled; a
//! restarted engine is given the whole position with `BOARD`.

use crate::adapter::{AdapterError, EngineSpec, PlayerFailure, HANDSHAKE_TIMEOUT};
use crate::process::EngineProcess;
use renju::{Point, SIZE};
use std::time::{Duration, Instant};

/// The game settings an engine is told before each game (`INFO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// `INFO rule`: bit 0 exactly five, bit 2 renju (0 freestyle).
    pub rule: u32,
    /// `INFO timeout_turn`: the time for one move.
    pub turn_time: Duration,
    /// `INFO timeout_match`: the time for the whole game (0 = none).
    pub match_time: Duration,
}

impl GameInfo {
    /// The protocol's rule number for a rule set (`INFO rule`).
    #[must_use]
    pub fn rule_of(set: renju::RuleSet) -> u32 {
        match set {
            renju::RuleSet::Freestyle => 0,
            renju::RuleSet::Standard => 1,
            renju::RuleSet::Renju => 4,
        }
    }
}

/// A point in the protocol's coordinates: `x,y`, y from the top.
#[must_use]
pub fn point_text(p: Point) -> String {
    renju::game::gomocup(p)
}

/// Reads an engine's `x,y` (spaces allowed); `None` for anything else.
#[must_use]
pub fn parse_point(text: &str) -> Option<Point> {
    let (x, y) = text.trim().split_once(',')?;
    let x: usize = x.trim().parse().ok()?;
    let y: usize = y.trim().parse().ok()?;
    if y >= SIZE {
        return None;
    }
    Point::new(x, SIZE - 1 - y)
}

/// A running Gomocup engine process.
pub struct PbrainEngine {
    spec: EngineSpec,
    process: EngineProcess,
    /// From `ABOUT` (`name`, `version`), or the spec's name.
    pub name: String,
}

/// Whether a line is one the protocol lets the engine write at any time.
fn is_chatter(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    line.is_empty()
        || ["MESSAGE", "DEBUG", "SUGGEST"]
            .iter()
            .any(|w| word.eq_ignore_ascii_case(w))
}

/// The value of `key="…"` in an `ABOUT` answer.
fn about_field(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!("{key}=\""))? + key.len() + 2;
    let len = line[start..].find('"')?;
    Some(line[start..start + len].to_string())
}

impl PbrainEngine {
    /// Starts the engine: `START 15`, then `ABOUT` for its name. The spec's
    /// `protocol` and `ranks` are not used; its options are sent as `INFO
    /// key value` before each game.
    ///
    /// # Errors
    /// The program cannot be started, refuses the board, or does not answer
    /// in time.
    pub async fn start(spec: &EngineSpec) -> Result<PbrainEngine, AdapterError> {
        let process = EngineProcess::spawn(&spec.program, &spec.args)?;
        let mut e = PbrainEngine {
            spec: spec.clone(),
            process,
            name: spec.name.clone(),
        };
        e.process.send(&format!("START {SIZE}")).await?;
        e.expect_ok("START").await?;
        e.process.send("ABOUT").await?;
        let about = e.answer("ABOUT", Instant::now() + HANDSHAKE_TIMEOUT).await?;
        if e.name.is_empty() {
            e.name = match (about_field(&about, "name"), about_field(&about, "version")) {
                (Some(n), Some(v)) => format!("{n} {v}"),
                (Some(n), None) => n,
                _ => spec.program.clone(),
            };
        }
        Ok(e)
    }

    /// The next line that is not chatter; `ERROR` and `UNKNOWN` are
    /// garbage.
    async fn answer(&mut self, what: &str, deadline: Instant) -> Result<String, AdapterError> {
        loop {
            let l = self
                .process
                .line(deadline, &format!("waiting for the answer to {what}"))
                .await?;
            if is_chatter(&l) {
                continue;
            }
            let word = l.split_whitespace().next().unwrap_or("");
            if word.eq_ignore_ascii_case("ERROR") || word.eq_ignore_ascii_case("UNKNOWN") {
                return Err(AdapterError::Garbage { line: l });
            }
            return Ok(l);
        }
    }

    async fn expect_ok(&mut self, what: &str) -> Result<(), AdapterError> {
        let l = self.answer(what, Instant::now() + HANDSHAKE_TIMEOUT).await?;
        if l.eq_ignore_ascii_case("OK") {
            Ok(())
        } else {
            Err(AdapterError::Garbage { line: l })
        }
    }

    /// Starts a new game (`RESTART`) and sends its settings.
    ///
    /// # Errors
    /// The engine does not acknowledge the restart.
    pub async fn new_game(&mut self, info: GameInfo) -> Result<(), AdapterError> {
        self.process.drain();
        self.process.send("RESTART").await?;
        self.expect_ok("RESTART").await?;
        self.send_info(info).await
    }

    async fn send_info(&mut self, info: GameInfo) -> Result<(), AdapterError> {
        self.process
            .send(&format!("INFO timeout_turn {}", info.turn_time.as_millis()))
            .await?;
        self.process
            .send(&format!("INFO timeout_match {}", info.match_time.as_millis()))
            .await?;
        self.process.send(&format!("INFO rule {}", info.rule)).await?;
        for (k, v) in self.spec.options.clone() {
            self.process.send(&format!("INFO {k} {v}")).await?;
        }
        Ok(())
    }

    /// Asks for a move: `command` is `BEGIN`, `TURN x,y` or a whole
    /// `BOARD` … `DONE` block. Returns the point and the time the engine
    /// took.
    ///
    /// # Errors
    /// Timeout, crash, or an answer that is not a point.
    pub async fn go(&mut self, command: &str, timeout: Duration) -> Result<(Point, Duration), AdapterError> {
        self.process.drain();
        let started = Instant::now();
        for line in command.lines() {
            self.process.send(line).await?;
        }
        let l = self.answer("a move", started + timeout).await?;
        let p = parse_point(&l).ok_or(AdapterError::Garbage { line: l })?;
        Ok((p, started.elapsed()))
    }

    /// `END`, then a kill if the engine has not exited within a second.
    pub async fn quit(self) {
        self.process.quit("END").await;
    }

    /// Kills the process at once.
    pub async fn kill(self) {
        self.process.kill().await;
    }
}

/// The `BOARD` block for `stones` (in the order played, black first) with
/// the side to move as "own" (`1`) and the other as `2`.
#[must_use]
pub fn board_command(stones: &[Point]) -> String {
    let mut text = String::from("BOARD\n");
    let ours = stones.len() % 2;
    for (i, &p) in stones.iter().enumerate() {
        let who = if i % 2 == ours { 1 } else { 2 };
        text.push_str(&format!("{},{who}\n", point_text(p)));
    }
    text.push_str("DONE");
    text
}

/// A Gomocup engine that restarts itself after a fault, and keeps track of
/// what its process knows of the game so that it is told only the
/// opponent's last move (`TURN`) where it can.
pub struct GomocupPlayer {
    spec: EngineSpec,
    engine: Option<PbrainEngine>,
    name: String,
    info: Option<GameInfo>,
    /// How many stones of the current game the process has seen (its own
    /// answers included); `None` before its first move of the game.
    known: Option<usize>,
    /// How many times the process was restarted.
    pub restarts: u32,
}

impl GomocupPlayer {
    /// Starts the engine once, so that a broken command fails early.
    ///
    /// # Errors
    /// As [`PbrainEngine::start`].
    pub async fn start(spec: EngineSpec) -> Result<GomocupPlayer, AdapterError> {
        let e = PbrainEngine::start(&spec).await?;
        Ok(GomocupPlayer {
            name: e.name.clone(),
            spec,
            engine: Some(e),
            info: None,
            known: None,
            restarts: 0,
        })
    }

    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    async fn engine(&mut self) -> Result<&mut PbrainEngine, AdapterError> {
        if self.engine.is_none() {
            self.restarts += 1;
            let mut e = PbrainEngine::start(&self.spec).await?;
            if let Some(info) = self.info {
                e.send_info(info).await?;
            }
            self.engine = Some(e);
            self.known = None;
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// Throws the process away; the next request starts a fresh one.
    pub async fn reset(&mut self) {
        self.known = None;
        if let Some(e) = self.engine.take() {
            e.kill().await;
        }
    }

    /// Prepares for a new game with these settings (restarting a dead or
    /// unwilling engine).
    ///
    /// # Errors
    /// The engine cannot be (re)started.
    pub async fn new_game(&mut self, info: GameInfo) -> Result<(), AdapterError> {
        self.info = Some(info);
        self.known = None;
        if self.engine().await?.new_game(info).await.is_err() {
            // A fresh process is a new game; `engine()` sends the settings.
            self.reset().await;
            self.engine().await?;
        }
        Ok(())
    }

    /// The engine's move after `stones` (the game so far, black first).
    ///
    /// # Errors
    /// The engine timed out, died or answered garbage; it is then killed and
    /// the next request starts a fresh process.
    pub async fn best_move(
        &mut self,
        stones: &[Point],
        timeout: Duration,
    ) -> Result<(Point, Duration), PlayerFailure> {
        let name = self.name.clone();
        let known = self.known;
        let e = match self.engine().await {
            Ok(e) => e,
            Err(source) => return Err(PlayerFailure::Failed { name, source }),
        };
        let command = match (known, stones.last()) {
            (Some(n), Some(&last)) if n + 1 == stones.len() => format!("TURN {}", point_text(last)),
            (_, None) => "BEGIN".to_string(),
            _ => board_command(stones),
        };
        match e.go(&command, timeout).await {
            Ok(answer) => {
                self.known = Some(stones.len() + 1);
                Ok(answer)
            }
            Err(source) => {
                self.reset().await;
                Err(if source.is_timeout() {
                    PlayerFailure::Timeout { name, source }
                } else {
                    PlayerFailure::Failed { name, source }
                })
            }
        }
    }

    /// Shuts the engine down.
    pub async fn quit(mut self) {
        if let Some(e) = self.engine.take() {
            e.quit().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_in_the_protocols_coordinates() {
        let h8: Point = "h8".parse().unwrap();
        assert_eq!(point_text(h8), "7,7");
        assert_eq!(parse_point(" 0 , 14"), Some("a1".parse().unwrap()));
        assert_eq!(parse_point("0,0"), Some("a15".parse().unwrap()));
        assert_eq!(parse_point("15,0"), None);
        assert_eq!(parse_point("OK"), None);
    }

    #[test]
    fn a_board_command_marks_the_side_to_move_as_own() {
        let stones: Vec<Point> = ["h8", "h9", "i9"].iter().map(|s| s.parse().unwrap()).collect();
        // White is to move after three stones: the white stone is its own.
        assert_eq!(board_command(&stones), "BOARD\n7,7,2\n7,6,1\n8,6,2\nDONE");
    }

    #[test]
    fn chatter_and_about() {
        assert!(is_chatter("MESSAGE depth 7"));
        assert!(is_chatter("DEBUG x"));
        assert!(!is_chatter("7,7"));
        let about = r#"name="figrid", version="1.2.0", author="H", country="KR""#;
        assert_eq!(about_field(about, "name").as_deref(), Some("figrid"));
        assert_eq!(about_field(about, "version").as_deref(), Some("1.2.0"));
        assert_eq!(about_field(about, "www"), None);
    }
}
