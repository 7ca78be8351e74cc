//! Conformance of `qiju engine` to UCI and UCCI, driving the built binary as
//! a GUI would: over pipes, line by line, with deadlines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    log: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qiju"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("qiju starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            log: Vec::new(),
        }
    }

    /// The CPU time (user and system) the engine process has used, from
    /// `/proc` (Linux; clock ticks of 10 ms).
    fn cpu(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        Some(Duration::from_millis(ticks * 10))
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`, within `secs` seconds.
    fn until(&mut self, prefix: &str, secs: u64) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.log.push(l.clone());
                    if l.starts_with(prefix) {
                        return l;
                    }
                }
                Err(_) => panic!("no {prefix:?} within {secs}s; got {:#?}", self.log),
            }
        }
    }

    /// No line starting with `prefix` arrives within `ms`.
    fn silent(&mut self, prefix: &str, ms: u64) {
        let deadline = Instant::now() + Duration::from_millis(ms);
        while let Ok(l) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            assert!(!l.starts_with(prefix), "unexpected {l:?}");
            self.log.push(l);
        }
    }

    fn quit(mut self) -> std::process::ExitStatus {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            assert!(Instant::now() < deadline, "engine did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

fn legal_after(moves: &[&str], mv: &str) -> bool {
    let mut pos = xiangqi::Position::startpos();
    for m in moves {
        let m = m.parse::<xiangqi::Move>().unwrap();
        pos.play(m).unwrap();
    }
    let Some(from) = mv.get(..2).and_then(xiangqi::Square::from_iccs) else {
        return false;
    };
    let Some(to) = mv.get(2..4).and_then(xiangqi::Square::from_iccs) else {
        return false;
    };
    mv.len() == 4 && pos.is_legal(xiangqi::Move::new(from, to))
}

fn bestmove(line: &str) -> &str {
    line.split_whitespace().nth(1).expect("bestmove has a move")
}

#[test]
fn uci_session() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("id name", 10);
    e.until("uciok", 10);
    assert!(e.log.iter().any(|l| l.starts_with("option name Hash type spin")));
    assert!(e
        .log
        .iter()
        .any(|l| l.starts_with("option name Threads type spin")));
    assert!(e
        .log
        .iter()
        .any(|l| l.starts_with("option name Skill Level type spin")));
    e.send("setoption name Hash value 32");
    e.send("setoption name Threads value 1");
    e.send("setoption name Skill Level value 8");
    e.send("isready");
    e.until("readyok", 10);
    e.send("ucinewgame");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 4");
    let info = e.until("info depth 4", 30);
    for w in ["score", "nodes", "nps", "time", "pv"] {
        assert!(info.split_whitespace().any(|x| x == w), "{info}");
    }
    let b = e.until("bestmove", 30);
    assert!(legal_after(&["h2e2", "h9g7"], bestmove(&b)), "{b}");

    // Clock-driven search: answers well within the clock. With 2 s left and
    // 0.1 s a move, the engine plans about 0.14 s and never more than 0.56 s
    // (`engine::time`: a thirtieth of the time plus most of the increment,
    // at most four times that), so two things stay under 1 s:
    // - the search's own clock, the `time` of its last `info` line — what
    //   it stops by, so load slows its depth but not this;
    // - the engine process's CPU time (one search thread), which bounds an
    //   engine that would misreport its clock, and which a busy machine or
    //   slow pipes cannot inflate as they do the test's wall clock.
    // An engine that spends the whole clock (its own clock reads 1.5 s or
    // more), or reads the milliseconds as seconds (no answer in 10 s),
    // fails here.
    e.send("position startpos");
    let cpu = e.cpu();
    let from = e.log.len();
    e.send("go wtime 2000 btime 2000 winc 100 binc 100");
    let b = e.until("bestmove", 10);
    let searched_ms = e.log[from..]
        .iter()
        .rev()
        .find_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let at = w.iter().position(|x| *x == "time")?;
            w.get(at + 1)?.parse::<u64>().ok()
        })
        .expect("an info line with the search's time");
    assert!(
        searched_ms < 1000,
        "searched for {searched_ms} ms by its own clock"
    );
    if let (Some(before), Some(after)) = (cpu, e.cpu()) {
        assert!(
            after - before < Duration::from_millis(1000),
            "thought for {:?} of CPU",
            after - before
        );
    }
    assert!(legal_after(&[], bestmove(&b)));
    e.send("go movetime 200");
    e.until("bestmove", 10);
    e.send("go nodes 3000");
    e.until("bestmove", 10);

    // `go infinite` does not answer until `stop`.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2");
    e.send("go infinite");
    e.silent("bestmove", 500);
    e.send("isready");
    e.until("readyok", 5);
    e.send("stop");
    let b = e.until("bestmove", 5);
    assert!(legal_after(&["b2e2"], bestmove(&b)), "{b}");

    // Pondering: no move before `ponderhit`, then a timed answer.
    e.send("position startpos moves h2e2");
    e.send("go ponder wtime 1000 btime 1000");
    e.silent("bestmove", 400);
    e.send("ponderhit");
    let b = e.until("bestmove", 10);
    assert!(legal_after(&["h2e2"], bestmove(&b)));
    assert!(e.quit().success());
}

#[test]
fn malformed_input_is_ignored_or_answered() {
    let mut e = Engine::start();
    for junk in [
        "",
        "   ",
        "hello engine",
        "position",
        "position fen not/a/fen w",
        "position startpos moves h2e2 zz99 b0c2",
        "go depth banana",
        "go wtime -5",
        "setoption name",
        "setoption name Hash value lots",
        "setoption name Nonexistent value 3",
        "banmoves x",
        "\u{7f}\u{1b}[A",
        "position startpos moves e0e1 e9e8 a0a0",
    ] {
        e.send(junk);
    }
    // `go wtime -5` is a real search with no time left: it answers at once;
    // `stop` makes sure its move is out before the checks below.
    e.send("stop");
    e.send("isready");
    e.until("readyok", 10);
    // Still plays from a sane position.
    e.send("position startpos");
    e.send("go depth 2");
    let b = e.until("bestmove", 20);
    assert!(legal_after(&[], bestmove(&b)), "{b}");
    // A position with no legal move answers (none) rather than hanging.
    e.send("position fen 3k5/1R7/9/9/9/9/9/9/9/R3K4 b - - 0 1");
    e.send("go depth 3");
    assert_eq!(e.until("bestmove", 10), "bestmove (none)");
    assert!(e.quit().success());
}

#[test]
fn ucci_session() {
    let mut e = Engine::start();
    e.send("ucci");
    e.until("ucciok", 10);
    e.send("setoption hashsize 16");
    e.send("setoption usemillisec true");
    e.send("setoption newgame");
    e.send("isready");
    e.until("readyok", 10);
    e.send(
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7",
    );
    e.send("banmoves h0g2 b0c2");
    e.send("go time 3000 increment 0 opptime 3000 oppincrement 0");
    let b = e.until("bestmove", 10);
    let m = bestmove(&b);
    assert!(legal_after(&["h2e2", "h9g7"], m), "{b}");
    assert!(m != "h0g2" && m != "b0c2", "{b}");
    e.send("go depth 3");
    e.until("info depth 3", 20);
    e.until("bestmove", 20);
    e.send("probe");
    assert!(e.until("pophash", 5).starts_with("pophash bestmove"));
    e.send("go infinite");
    e.silent("bestmove", 300);
    e.send("stop");
    e.until("bestmove", 5);
    e.send("position fen 3k5/1R7/9/9/9/9/9/9/9/R3K4 b - - 0 1");
    e.send("go depth 2");
    e.until("nobestmove", 10);
    e.send("quit");
    e.until("bye", 5);
}

#[test]
fn end_of_input_ends_the_session() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok", 10);
    e.send("position startpos");
    e.send("go depth 3");
    drop(e.stdin);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(s) = e.child.try_wait().unwrap() {
            assert!(s.success());
            break;
        }
        assert!(Instant::now() < deadline, "engine did not exit at end of input");
        std::thread::sleep(Duration::from_millis(10));
    }
}
