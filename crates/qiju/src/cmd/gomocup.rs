//! `qiju gomocup`: the gomoku and renju computer player over the Gomocup
//! (Piskvork "pbrain") protocol on stdin/stdout, so that Piskvork, the
//! Gomocup manager or any match tool that speaks it can play against it.
//!
//! Commands: `START 15` (other sizes are refused), `RESTART`, `BEGIN`,
//! `TURN x,y`, `BOARD` … `DONE` (`x,y,1` own stone, `x,y,2` the
//! opponent's), `TAKEBACK x,y`, `INFO rule N` (bit 1 exactly five, bit 4
//! renju), `INFO timeout_turn MS` and `INFO time_left MS` (the clock: the
//! level's search stops in time, see [`Brain::deadline`]; other `INFO`
//! keys are read and ignored), `ABOUT`, `END`.
//! Coordinates are the protocol's: `x,y` from 0, x from the left, y from
//! the top. Black is whoever moved first: with an even number of stones on
//! the board the player to move is black.

use clap::Args as ClapArgs;
use renju::computer::{choose_within, Decision, Level};
use renju::{Board, Color, Point, Position, Rules, Setup, SIZE};
use std::io::{BufRead, Write};

#[derive(ClapArgs)]
pub struct Args {
    /// Playing strength, 1 (weakest) to 5.
    #[arg(long, default_value_t = 4)]
    level: u8,
}

/// The brain's state between commands.
struct Brain {
    /// Stones in the order they came: point and whether it is ours.
    stones: Vec<(Point, bool)>,
    rules: Rules,
    level: Level,
    /// Lines of a `BOARD` command until `DONE`.
    board: Option<Vec<(Point, bool)>>,
    /// `INFO timeout_turn`, milliseconds a move (0 or absent: none).
    turn_ms: u64,
    /// `INFO time_left`, milliseconds left in the game (absent: none).
    left_ms: Option<u64>,
}

fn parse_point(text: &str) -> Option<Point> {
    let (x, y) = text.trim().split_once(',')?;
    let x: usize = x.trim().parse().ok()?;
    let y: usize = y.trim().parse().ok()?;
    if y >= SIZE {
        return None;
    }
    Point::new(x, SIZE - 1 - y)
}

impl Brain {
    fn new(level: Level) -> Brain {
        Brain {
            stones: Vec::new(),
            rules: Rules::FREESTYLE,
            level,
            board: None,
            turn_ms: 0,
            left_ms: None,
        }
    }

    /// When the search must stop: four fifths of the time a move, less
    /// 20 ms for the answer to travel, and at most a twentieth of what is
    /// left of the game's time. `None` where the manager set no clock: the
    /// level alone decides.
    fn deadline(&self) -> Option<std::time::Instant> {
        let turn = (self.turn_ms > 0).then_some(self.turn_ms);
        let game = self.left_ms.map(|ms| ms / 20);
        let ms = match (turn, game) {
            (Some(t), Some(g)) => t.min(g),
            (Some(t), None) => t,
            (None, Some(g)) => g,
            (None, None) => return None,
        };
        let ms = (ms * 4 / 5).saturating_sub(20).max(10);
        Some(std::time::Instant::now() + std::time::Duration::from_millis(ms))
    }

    /// Our move in the position the stones make, placed and answered.
    fn think(&mut self) -> String {
        let deadline = self.deadline();
        let turn = if self.stones.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        let mut board = Board::empty();
        for &(p, own) in &self.stones {
            board.set(p, if own { turn } else { turn.other() });
        }
        // Positions come from outside: no opening restriction on them.
        let rules = Rules {
            centre_first: false,
            white_first_own_side: false,
            ..self.rules
        };
        let pos = match Position::from_setup(Setup { board, turn }, rules) {
            Ok(pos) => pos,
            Err(e) => return format!("ERROR {e}"),
        };
        match choose_within(&pos, self.level, deadline).map(|c| c.decision) {
            Some(Decision::Play(p)) => {
                self.stones.push((p, true));
                renju::game::gomocup(p)
            }
            _ => "ERROR the game is over".to_owned(),
        }
    }

    /// The answer to one line (empty when the protocol wants none), and
    /// whether to stop.
    fn handle(&mut self, line: &str) -> (Vec<String>, bool) {
        let line = line.trim();
        if let Some(lines) = &mut self.board {
            if line.eq_ignore_ascii_case("DONE") {
                self.stones = self.board.take().unwrap_or_default();
                return (vec![self.think()], false);
            }
            let mut fields = line.rsplitn(2, ',');
            let field = fields.next().unwrap_or("");
            let point = fields.next().and_then(parse_point);
            match (point, field.trim()) {
                (Some(p), "1") => lines.push((p, true)),
                (Some(p), "2") => lines.push((p, false)),
                _ => return (vec![format!("ERROR bad BOARD line {line:?}")], false),
            }
            return (Vec::new(), false);
        }
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let reply = match command.to_ascii_uppercase().as_str() {
            "START" => match rest.trim().parse::<usize>() {
                Ok(SIZE) => {
                    self.stones.clear();
                    "OK".to_owned()
                }
                _ => format!("ERROR qiju plays on {SIZE}x{SIZE} boards only"),
            },
            "RECTSTART" => format!("ERROR qiju plays on {SIZE}x{SIZE} boards only"),
            "RESTART" => {
                self.stones.clear();
                "OK".to_owned()
            }
            "BEGIN" => self.think(),
            "TURN" => match parse_point(rest) {
                Some(p) if self.stones.iter().all(|&(q, _)| q != p) => {
                    self.stones.push((p, false));
                    self.think()
                }
                Some(_) => format!("ERROR {rest} is taken"),
                None => format!("ERROR bad coordinates {rest:?}"),
            },
            "BOARD" => {
                self.board = Some(Vec::new());
                return (Vec::new(), false);
            }
            "TAKEBACK" => match parse_point(rest) {
                Some(p) => {
                    self.stones.retain(|&(q, _)| q != p);
                    "OK".to_owned()
                }
                None => format!("ERROR bad coordinates {rest:?}"),
            },
            "INFO" => {
                let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
                let ms = || value.trim().parse::<u64>().ok();
                if key.eq_ignore_ascii_case("timeout_turn") {
                    self.turn_ms = ms().unwrap_or(0);
                } else if key.eq_ignore_ascii_case("time_left") {
                    self.left_ms = ms();
                } else if key.eq_ignore_ascii_case("rule") {
                    let bits: u32 = value.trim().parse().unwrap_or(0);
                    self.rules = if bits & 4 != 0 {
                        Rules::RIF
                    } else if bits & 1 != 0 {
                        Rules::STANDARD
                    } else {
                        Rules::FREESTYLE
                    };
                }
                return (Vec::new(), false);
            }
            "ABOUT" => format!(
                "name=\"qiju\", version=\"{}\", author=\"qiju\", country=\"-\"",
                env!("CARGO_PKG_VERSION")
            ),
            "END" => return (Vec::new(), true),
            "" => return (Vec::new(), false),
            _ => format!("UNKNOWN {command}"),
        };
        (vec![reply], false)
    }
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let level = Level::new(a.level).ok_or_else(|| anyhow::anyhow!("--level is 1 to 5, not {}", a.level))?;
    let mut brain = Brain::new(level);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let (replies, stop) = brain.handle(&line?);
        for r in replies {
            writeln!(out, "{r}")?;
        }
        out.flush()?;
        if stop {
            break;
        }
    }
    Ok(())
}
