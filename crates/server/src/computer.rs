//! Computer opponents: the built-in engine at levels 1–8, and external
//! UCI/UCCI engines the operator configures. Searches are CPU-bound, so they
//! run on the blocking pool, at most as many at once as there are cores;
//! the game task is never blocked while the computer thinks, and gets the
//! move back as a message like any player's.

use crate::live::Cmd;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, Semaphore};

/// What a game asks the computer.
#[derive(Clone, Debug)]
pub struct Request {
    /// `level:N` or `engine:NAME`.
    pub spec: String,
    pub fen: String,
    /// The game so far in ICCS.
    pub moves: Vec<String>,
    pub ply: u32,
    /// The computer's remaining time and increment.
    pub my_ms: i64,
    pub increment_ms: i64,
}

/// The computer's answer: `coord == None` means it has no move (or failed)
/// and resigns.
#[derive(Clone, Debug)]
pub struct ComputerMove {
    /// The ply the game was at when the computer started thinking: a move
    /// for a position that has moved on is dropped.
    pub ply: u32,
    pub coord: Option<String>,
}

/// Something that picks moves.
pub trait Player: Send + Sync {
    /// Chooses a move for the position after `req.moves`.
    fn choose(&self, req: &Request) -> Result<String, String>;
}

/// The built-in engine; `level:N` in the spec picks the strength.
#[derive(Debug, Default)]
pub struct Builtin;

fn parse_iccs(s: &str) -> Option<xiangqi::Move> {
    if s.len() != 4 || !s.is_ascii() {
        return None;
    }
    Some(xiangqi::Move::new(
        xiangqi::Square::from_iccs(&s[..2])?,
        xiangqi::Square::from_iccs(&s[2..])?,
    ))
}

/// How long the computer may think: a fortieth of its time plus most of the
/// increment, between 50 ms and 5 s.
fn budget(req: &Request) -> Duration {
    let ms = (req.my_ms / 40 + req.increment_ms * 3 / 4).clamp(50, 5000);
    Duration::from_millis(u64::try_from(ms).unwrap_or(50))
}

impl Player for Builtin {
    fn choose(&self, req: &Request) -> Result<String, String> {
        let level = req
            .spec
            .strip_prefix("level:")
            .and_then(|n| n.parse::<u8>().ok())
            .and_then(engine::Level::new)
            .ok_or_else(|| format!("bad computer level {:?}", req.spec))?;
        let start = xiangqi::Position::from_fen(&req.fen).map_err(|e| e.to_string())?;
        let moves = req
            .moves
            .iter()
            .map(|m| parse_iccs(m).ok_or_else(|| format!("bad move {m:?}")))
            .collect::<Result<Vec<_>, _>>()?;
        let limits = engine::Limits {
            level: Some(level),
            movetime: Some(budget(req)),
            ..engine::Limits::default()
        };
        // A small table: levels are capped in depth and nodes anyway.
        let mut e = engine::Engine::new(4);
        let r = e
            .search(&start, &moves, &limits, &engine::Control::default(), &mut |_| {})
            .map_err(|e| e.to_string())?;
        Ok(r.best.iccs())
    }
}

/// The computer players and the limit on concurrent searches.
pub struct Computers {
    builtin: Arc<dyn Player>,
    external: Mutex<HashMap<String, Arc<dyn Player>>>,
    slots: Arc<Semaphore>,
}

impl std::fmt::Debug for Computers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Computers").finish_non_exhaustive()
    }
}

impl Computers {
    #[must_use]
    pub fn new() -> Computers {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        Computers {
            builtin: Arc::new(Builtin),
            external: Mutex::new(HashMap::new()),
            slots: Arc::new(Semaphore::new(cores)),
        }
    }

    /// Registers an external engine under `name` (used as `engine:NAME`).
    pub fn add_external(&self, name: &str, player: Arc<dyn Player>) {
        self.external
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(name.to_string(), player);
    }

    /// The names of the external engines.
    #[must_use]
    pub fn external_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .external
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keys()
            .cloned()
            .collect();
        v.sort();
        v
    }

    /// Whether `spec` names a computer we have.
    #[must_use]
    pub fn knows(&self, spec: &str) -> bool {
        if let Some(n) = spec.strip_prefix("level:") {
            return n.parse::<u8>().ok().and_then(engine::Level::new).is_some();
        }
        spec.strip_prefix("engine:").is_some_and(|n| {
            self.external
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .contains_key(n)
        })
    }

    fn player(&self, spec: &str) -> Option<Arc<dyn Player>> {
        if spec.starts_with("level:") {
            return Some(self.builtin.clone());
        }
        let name = spec.strip_prefix("engine:")?;
        self.external
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .cloned()
    }

    /// Starts thinking; the move arrives at `reply` as [`Cmd::Computer`].
    pub fn think(&self, req: Request, reply: mpsc::Sender<Cmd>) {
        let player = self.player(&req.spec);
        let slots = self.slots.clone();
        tokio::spawn(async move {
            let ply = req.ply;
            let coord = match player {
                None => None,
                Some(p) => {
                    let _permit = slots.acquire_owned().await;
                    let r = tokio::task::spawn_blocking(move || p.choose(&req)).await;
                    match r {
                        Ok(Ok(m)) => Some(m),
                        Ok(Err(e)) => {
                            tracing::warn!(error = %e, "computer failed to move");
                            None
                        }
                        Err(e) => {
                            tracing::error!(error = %e, "computer search panicked");
                            None
                        }
                    }
                }
            };
            let _ = reply.send(Cmd::Computer(ComputerMove { ply, coord })).await;
        });
    }
}

impl Default for Computers {
    fn default() -> Self {
        Computers::new()
    }
}

/// An external engine speaking UCI (Pikafish, Fairy-Stockfish) or UCCI
/// (ElephantEye), started once and kept running; one search at a time.
pub struct External {
    io: Mutex<ExternalIo>,
    /// `uci` or `ucci`.
    protocol: &'static str,
}

struct ExternalIo {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Drop for ExternalIo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl ExternalIo {
    fn send(&mut self, line: &str) -> Result<(), String> {
        use std::io::Write;
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("engine stdin: {e}"))
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn until(&mut self, prefix: &str, max_lines: usize) -> Result<String, String> {
        use std::io::BufRead;
        for _ in 0..max_lines {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|e| format!("engine stdout: {e}"))?;
            if n == 0 {
                return Err("the engine exited".into());
            }
            if line.trim_start().starts_with(prefix) {
                return Ok(line.trim().to_string());
            }
        }
        Err(format!("no {prefix:?} from the engine"))
    }
}

impl External {
    /// Starts `command` (split on whitespace) and shakes hands: UCCI first
    /// when the command line mentions it, else UCI.
    pub fn spawn(command: &str) -> Result<External, String> {
        let mut parts = command.split_whitespace();
        let program = parts.next().ok_or("empty engine command")?;
        let mut child = std::process::Command::new(program)
            .args(parts)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = std::io::BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut io = ExternalIo { child, stdin, stdout };
        let protocol = if command.to_ascii_lowercase().contains("ucci")
            || command.to_ascii_lowercase().contains("eleeye")
        {
            "ucci"
        } else {
            "uci"
        };
        io.send(protocol)?;
        io.until(&format!("{protocol}ok"), 10_000)?;
        Ok(External {
            io: Mutex::new(io),
            protocol,
        })
    }
}

impl Player for External {
    fn choose(&self, req: &Request) -> Result<String, String> {
        let mut io = self.io.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let moves = if req.moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", req.moves.join(" "))
        };
        io.send(&format!("position fen {}{moves}", req.fen))?;
        let ms = budget(req).as_millis();
        io.send(&format!("go movetime {ms}"))?;
        let line = io.until("bestmove", 1_000_000)?;
        let mv = line
            .split_whitespace()
            .nth(1)
            .ok_or_else(|| format!("bad bestmove line {line:?} ({})", self.protocol))?;
        Ok(mv.to_ascii_lowercase())
    }
}
