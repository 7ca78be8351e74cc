//! The engine's protocol front-ends: UCI (as Pikafish and Fairy-Stockfish
//! speak it for Xiangqi: ICCS moves with ranks 0–9) and UCCI (ElephantEye's
//! Chinese Chess protocol).
//!
//! A thin edge over [`engine::Engine`]: the caller's thread reads commands;
//! a search runs on its own thread and writes `info` and `bestmove` lines, so
//! `stop`, `ponderhit` and `isready` are answered while it thinks. The first
//! `uci` or `ucci` line picks the dialect (UCI when neither comes). A line
//! that cannot be understood is answered with an `info string` and changes
//! nothing; the session never panics on input.

pub mod command;

pub use command::{parse, Command, Go};

use engine::{Clock, Control, Engine, Info, Level, Limits, RepetitionRule, Score};
use std::io::{self, BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use xiangqi::{Color, Move, Position};

/// Which protocol the GUI speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Ucci,
}

/// The engine's name as it introduces itself.
pub const NAME: &str = concat!("qiju ", env!("CARGO_PKG_VERSION"));
const AUTHOR: &str = "the qiju authors";
const DEFAULT_HASH_MB: usize = 16;

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn send(out: &Out, line: &str) {
    // A GUI that went away is not our error to report; the read side will
    // see EOF and end the session.
    let mut w = out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

struct Running {
    handle: JoinHandle<()>,
    control: Control,
}

/// One protocol session.
pub struct Session {
    out: Out,
    engine: Arc<Mutex<Engine>>,
    /// The engine's table, probed without waiting for a search.
    table: Arc<engine::tt::Table>,
    dialect: Dialect,
    start: Position,
    moves: Vec<Move>,
    banned: Vec<Move>,
    level: Level,
    ponder_option: bool,
    millisec: bool,
    running: Option<Running>,
}

/// Reads a move in ICCS coordinates (`h2e2`, ranks 0–9).
#[must_use]
pub fn parse_move(s: &str) -> Option<Move> {
    if s.len() == 4 {
        return s.parse().ok();
    }
    None
}

impl Session {
    #[must_use]
    pub fn new(out: Box<dyn Write + Send>) -> Session {
        let engine = Engine::new(DEFAULT_HASH_MB);
        Session {
            out: Arc::new(Mutex::new(out)),
            table: engine.table(),
            engine: Arc::new(Mutex::new(engine)),
            dialect: Dialect::Uci,
            start: Position::startpos(),
            moves: Vec::new(),
            banned: Vec::new(),
            level: Level::MAX,
            ponder_option: false,
            millisec: false,
            running: None,
        }
    }

    fn say(&self, line: &str) {
        send(&self.out, line);
    }

    fn info_string(&self, text: &str) {
        match self.dialect {
            Dialect::Uci => self.say(&format!("info string {text}")),
            // UCCI GUIs show unknown lines in their log; keep the same form.
            Dialect::Ucci => self.say(&format!("info string {text}")),
        }
    }

    fn searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.handle.is_finished())
    }

    /// Stops a running search and waits until its `bestmove` is out.
    fn stop_and_wait(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop.store(true, Ordering::Relaxed);
            r.control.pondering.store(false, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }

    /// Waits for a finished search's thread (its output is already out).
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.handle.is_finished()) {
            if let Some(r) = self.running.take() {
                let _ = r.handle.join();
            }
        }
    }

    fn engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Handles one line; `false` when the session should end.
    pub fn handle(&mut self, line: &str) -> bool {
        self.reap();
        match parse(line) {
            Command::Uci => {
                self.dialect = Dialect::Uci;
                self.say(&format!("id name {NAME}"));
                self.say(&format!("id author {AUTHOR}"));
                for o in [
                    format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 8192"),
                    "option name Threads type spin default 1 min 1 max 256".to_string(),
                    "option name Skill Level type spin default 8 min 1 max 8".to_string(),
                    "option name Move Overhead type spin default 30 min 0 max 5000".to_string(),
                    "option name Ponder type check default false".to_string(),
                    "option name Clear Hash type button".to_string(),
                    "option name RepetitionRule type combo default Chinese var Chinese var PerpetualCheck"
                        .to_string(),
                    "option name EvalWeights type combo default tuned var tuned var hand".to_string(),
                ] {
                    self.say(&o);
                }
                self.say("uciok");
            }
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                self.say(&format!("id name {NAME}"));
                self.say(&format!("id author {AUTHOR}"));
                for o in [
                    "option usemillisec type check default false",
                    "option ponder type check default false",
                    "option hashsize type spin min 1 max 8192 default 16",
                    "option threads type spin min 1 max 256 default 1",
                    "option level type spin min 1 max 8 default 8",
                    "option newgame type button",
                ] {
                    self.say(o);
                }
                self.say("ucciok");
            }
            Command::IsReady => self.say("readyok"),
            Command::NewGame => {
                self.stop_and_wait();
                self.engine().new_game();
                self.banned.clear();
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { fen, moves } => self.position(fen.as_deref(), &moves),
            Command::BanMoves(list) => {
                let pos = self.current();
                self.banned.clear();
                for m in &list {
                    match parse_move(m).filter(|&mv| pos.is_legal(mv)) {
                        Some(mv) => self.banned.push(mv),
                        None => self.info_string(&format!("banmoves: {m} is not a legal move here, ignored")),
                    }
                }
            }
            Command::Go(g) => self.go(&g),
            Command::Stop => self.stop_and_wait(),
            Command::PonderHit => {
                if let Some(r) = &self.running {
                    r.control.pondering.store(false, Ordering::Relaxed);
                }
            }
            Command::Probe => self.probe(),
            Command::Quit => {
                self.stop_and_wait();
                if self.dialect == Dialect::Ucci {
                    self.say("bye");
                }
                return false;
            }
            Command::Display => {
                let pos = self.current();
                self.say(&format!("info string fen {}", pos.fen()));
                self.say(&format!(
                    "info string {} to move, {} legal moves, check: {}",
                    pos.turn(),
                    pos.count_legal_moves(),
                    pos.is_check()
                ));
            }
            Command::Eval => {
                let pos = self.current();
                let v = self.engine().evaluate(&pos);
                self.info_string(&format!("static eval {v} (side to move)"));
            }
            Command::Empty => {}
            Command::Unknown(l) => self.info_string(&format!("unknown command: {l}")),
            Command::Invalid { line, reason } => self.info_string(&format!("ignored {line:?}: {reason}")),
        }
        true
    }

    fn current(&self) -> Position {
        let mut p = self.start.clone();
        for &m in &self.moves {
            p.play_unchecked(m);
        }
        p
    }

    fn position(&mut self, fen: Option<&str>, moves: &[String]) {
        let start = match fen {
            None => Position::startpos(),
            Some(f) => match Position::from_fen(f) {
                Ok(p) => p,
                Err(e) => {
                    self.info_string(&format!("bad FEN {f:?}: {e}; position unchanged"));
                    return;
                }
            },
        };
        let mut pos = start.clone();
        let mut list = Vec::with_capacity(moves.len());
        for (i, m) in moves.iter().enumerate() {
            match parse_move(m) {
                Some(mv) if pos.is_legal(mv) => {
                    pos.play_unchecked(mv);
                    list.push(mv);
                }
                _ => {
                    self.info_string(&format!(
                        "move {} ({m}) is illegal in {}; the moves after it are ignored",
                        i + 1,
                        pos.fen()
                    ));
                    break;
                }
            }
        }
        self.start = start;
        self.moves = list;
        self.banned.clear();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let key = name.trim().to_ascii_lowercase();
        let v = value.unwrap_or("").trim();
        let int = || v.parse::<i64>().ok();
        let flag = || matches!(v.to_ascii_lowercase().as_str(), "true" | "on" | "1");
        // Options that touch the engine wait for a search to end; a GUI
        // should not send them while searching, so say so instead.
        let needs_engine = matches!(
            key.as_str(),
            "hash"
                | "hashsize"
                | "threads"
                | "clear hash"
                | "newgame"
                | "repetition rule"
                | "repetitionrule"
                | "eval weights"
                | "evalweights"
                | "move overhead"
        );
        if needs_engine && self.searching() {
            self.info_string(&format!("option {name} ignored while searching"));
            return;
        }
        self.reap();
        match key.as_str() {
            "hash" | "hashsize" => match int() {
                Some(mb) if mb >= 1 => {
                    let mut e = self.engine();
                    e.set_hash(mb.min(8192) as usize);
                    let t = e.table();
                    drop(e);
                    self.table = t;
                }
                _ => self.info_string(&format!("{name}: {v:?} is not a size in MiB")),
            },
            "threads" => match int() {
                Some(n) if n >= 1 => self.engine().set_threads(n as usize),
                _ => self.info_string(&format!("{name}: {v:?} is not a thread count")),
            },
            "skill level" | "level" => match int() {
                Some(n) => self.level = Level::clamped(n),
                None => self.info_string(&format!("{name}: {v:?} is not a level 1-8")),
            },
            "move overhead" => match int() {
                Some(ms) if ms >= 0 => self.engine().set_move_overhead(Duration::from_millis(ms as u64)),
                _ => self.info_string(&format!("{name}: {v:?} is not milliseconds")),
            },
            "ponder" => self.ponder_option = flag(),
            "usemillisec" => self.millisec = flag(),
            "clear hash" | "newgame" => self.engine().new_game(),
            "repetitionrule" | "repetition rule" => match v.to_ascii_lowercase().as_str() {
                "chinese" => self.engine().set_rule(RepetitionRule::Chinese),
                "perpetualcheck" => self.engine().set_rule(RepetitionRule::PerpetualCheck),
                _ => self.info_string(&format!("{name}: {v:?} is not Chinese or PerpetualCheck")),
            },
            "evalweights" | "eval weights" => match v {
                "tuned" => self.engine().set_params(engine::eval::Params::tuned()),
                "hand" => self.engine().set_params(engine::eval::Params::hand()),
                _ => self.info_string(&format!("{name}: {v:?} is not tuned or hand")),
            },
            "uci_variant" => {
                if !v.eq_ignore_ascii_case("xiangqi") {
                    self.info_string(&format!("only xiangqi is played, not {v:?}"));
                }
            }
            // UCCI options that other engines have and we need not.
            "batch" | "debug" | "usebook" | "bookfiles" | "evalfile" | "idle" | "promotion"
            | "randomness" | "style" | "knowledge" | "pruning" | "loadbook" => {}
            _ => self.info_string(&format!("unknown option {name:?}")),
        }
    }

    fn time_ms(&self, v: f64, ucci_word: bool) -> Duration {
        let ms = if ucci_word && !self.millisec {
            v * 1000.0
        } else {
            v
        };
        Duration::from_secs_f64((ms.max(0.0) / 1000.0).min(1e7))
    }

    fn go(&mut self, g: &Go) {
        self.stop_and_wait();
        let pos = self.current();
        let turn = pos.turn();
        let mut limits = Limits {
            depth: g.depth,
            nodes: g.nodes,
            movetime: g.movetime.map(|t| self.time_ms(t, false)),
            infinite: g.infinite,
            level: Some(self.level),
            banned: std::mem::take(&mut self.banned),
            ..Limits::default()
        };
        let (own_time, own_inc) = match turn {
            Color::Red => (g.wtime, g.winc),
            Color::Black => (g.btime, g.binc),
        };
        if let Some(t) = own_time {
            limits.clock = Some(Clock {
                time: self.time_ms(t, false),
                increment: self.time_ms(own_inc.unwrap_or(0.0), false),
                moves_to_go: g.movestogo,
            });
        } else if let Some(t) = g.time {
            limits.clock = Some(Clock {
                time: self.time_ms(t, true),
                increment: self.time_ms(g.increment.unwrap_or(0.0), true),
                moves_to_go: g.movestogo,
            });
        }
        for m in &g.searchmoves {
            match parse_move(m).filter(|&mv| pos.is_legal(mv)) {
                Some(mv) => limits.only.push(mv),
                None => self.info_string(&format!("searchmoves: {m} is not legal here, ignored")),
            }
        }
        let control = Control::default();
        control.pondering.store(g.ponder, Ordering::Relaxed);
        let (engine, out, dialect) = (self.engine.clone(), self.out.clone(), self.dialect);
        let (start, moves) = (self.start.clone(), self.moves.clone());
        let c = control.clone();
        let handle = std::thread::spawn(move || {
            let result = {
                let mut e = engine.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                e.search(&start, &moves, &limits, &c, &mut |i| {
                    send(&out, &info_line(dialect, i))
                })
            };
            // UCI: during `go infinite` or `go ponder` the move may only be
            // sent after `stop` (or `ponderhit`).
            let hold = |c: &Control| {
                !c.stop.load(Ordering::Relaxed) && (limits.infinite || c.pondering.load(Ordering::Relaxed))
            };
            while hold(&c) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let line = match (result, dialect) {
                (Ok(r), _) => match r.ponder {
                    Some(p) => format!("bestmove {} ponder {p}", r.best),
                    None => format!("bestmove {}", r.best),
                },
                (Err(e), Dialect::Uci) => {
                    send(&out, &format!("info string {e}"));
                    "bestmove (none)".to_string()
                }
                (Err(_), Dialect::Ucci) => "nobestmove".to_string(),
            };
            send(&out, &line);
        });
        self.running = Some(Running { handle, control });
    }

    fn probe(&self) {
        let pos = self.current();
        let entry = self.table.probe(pos.key());
        let Some(e) = entry.filter(|e| pos.is_legal(e.mv)) else {
            self.say("pophash");
            return;
        };
        let mut line = format!("pophash bestmove {}", e.mv);
        let s = ucci_score(Score::from_internal(e.score));
        match e.bound {
            engine::tt::Bound::Lower => line += &format!(" lowerbound {s} depth {}", e.depth),
            engine::tt::Bound::Upper => line += &format!(" upperbound {s} depth {}", e.depth),
            engine::tt::Bound::Exact => {
                line += &format!(
                    " lowerbound {s} depth {} upperbound {s} depth {}",
                    e.depth, e.depth
                );
            }
        }
        self.say(&line);
    }

    /// Runs the session over a reader until `quit` or end of input.
    ///
    /// # Errors
    /// Reading the input failed.
    pub fn run<R: BufRead>(&mut self, input: R) -> io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    self.info_string("ignored a line that is not UTF-8");
                    continue;
                }
                Err(e) => {
                    self.stop_and_wait();
                    return Err(e);
                }
            };
            if !self.handle(&line) {
                return Ok(());
            }
        }
        self.stop_and_wait();
        Ok(())
    }
}

/// ElephantEye reports mates as ±(10000 − plies).
fn ucci_score(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 10_000 - (2 * n - 1),
        Score::Mate(n) => -10_000 + 2 * -n,
    }
}

fn info_line(dialect: Dialect, i: &Info) -> String {
    let pv: Vec<String> = i.pv.iter().map(ToString::to_string).collect();
    let ms = i.time.as_millis();
    match dialect {
        Dialect::Uci => format!(
            "info depth {} seldepth {} multipv 1 score {} nodes {} nps {} hashfull {} time {ms} pv {}",
            i.depth,
            i.seldepth,
            i.score,
            i.nodes,
            i.nps,
            i.hashfull,
            pv.join(" ")
        ),
        Dialect::Ucci => format!(
            "info depth {} score {} time {ms} nodes {} pv {}",
            i.depth,
            ucci_score(i.score),
            i.nodes,
            pv.join(" ")
        ),
    }
}

/// Runs a session on standard input and output (`qiju engine`).
///
/// # Errors
/// Reading standard input failed.
pub fn run_stdio() -> io::Result<()> {
    let mut s = Session::new(Box::new(io::stdout()));
    s.run(io::stdin().lock())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn run(lines: &str) -> String {
        let buf = Buf::default();
        let mut s = Session::new(Box::new(buf.clone()));
        s.run(lines.as_bytes()).unwrap();
        let out = buf.0.lock().unwrap().clone();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn uci_handshake_and_search() {
        let out = run("uci\nisready\nposition startpos moves h2e2\ngo depth 3\nquit\n");
        assert!(out.contains("uciok") && out.contains("readyok"), "{out}");
        let best = out.lines().find(|l| l.starts_with("bestmove")).unwrap();
        let mv = parse_move(best.split_whitespace().nth(1).unwrap()).unwrap();
        let mut p = Position::startpos();
        p.play(parse_move("h2e2").unwrap()).unwrap();
        assert!(p.is_legal(mv), "{best}");
    }

    #[test]
    fn ucci_handshake_banmoves_and_probe() {
        let buf = Buf::default();
        let mut s = Session::new(Box::new(buf.clone()));
        for l in [
            "ucci",
            "setoption hashsize 8",
            "position startpos",
            "banmoves h2e2 b2e2",
            "go depth 2",
        ] {
            assert!(s.handle(l));
        }
        while s.searching() {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(s.handle("probe"));
        assert!(!s.handle("quit"));
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(out.contains("ucciok") && out.contains("bye"), "{out}");
        let best = out.lines().find(|l| l.starts_with("bestmove")).unwrap();
        assert!(!best.contains("h2e2") && !best.contains("b2e2"), "{best}");
        assert!(out.lines().any(|l| l.starts_with("pophash bestmove")), "{out}");
    }

    #[test]
    fn bad_lines_change_nothing() {
        let out = run("position fen xx\nposition startpos moves h2e2 a0a5 h9g7\ngo depth x\nfoo\nd\nquit\n");
        assert!(out.contains("bad FEN"), "{out}");
        assert!(out.contains("move 2 (a0a5) is illegal"), "{out}");
        assert!(out.contains("unknown command: foo"), "{out}");
        // The legal prefix was kept: black to move after h2e2.
        assert!(out.contains("info string black to move"), "{out}");
    }

    #[test]
    fn no_legal_move() {
        let out =
            run("position fen 3k5/1R7/9/9/9/9/9/9/9/R3K4 b - - 0 1\ngo depth 1\nucci\ngo depth 1\nquit\n");
        assert!(
            out.contains("bestmove (none)") && out.contains("nobestmove"),
            "{out}"
        );
    }
}
