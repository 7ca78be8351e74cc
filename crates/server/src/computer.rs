//! Computer opponents, as the game registry describes them: a built-in
//! engine in process (Xiangqi's), an external UCI program found on the
//! `PATH` at start (Stockfish for chess; without it the variant offers no
//! computer), and external engines the operator configures by name.
//! Searches are CPU-bound, so they run on the blocking pool, at most as many
//! at once as there are cores; the game task is never blocked while the
//! computer thinks, and gets the move back as a message like any player's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{oneshot, Semaphore};

/// What a game asks the computer.
#[derive(Clone, Debug)]
pub struct Request {
    pub variant: &'static registry::Variant,
    /// `level:N` or `engine:NAME`.
    pub spec: String,
    pub fen: String,
    /// The game so far in coordinate notation.
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
    /// Chooses a move for the position after `req.moves`, after setting the
    /// engine `options` (a level's strength).
    fn choose(&self, req: &Request, options: &[(String, String)]) -> Result<String, String>;
}

/// How long the computer may think: a fortieth of its time plus most of the
/// increment, between 50 ms and 5 s.
fn budget(req: &Request) -> Duration {
    let ms = (req.my_ms / 40 + req.increment_ms * 3 / 4).clamp(50, 5000);
    Duration::from_millis(u64::try_from(ms).unwrap_or(50))
}

/// `setoption` name/value pairs.
type EngineOptions = Vec<(String, String)>;

fn level_of(spec: &str) -> Option<u8> {
    spec.strip_prefix("level:")?.parse().ok()
}

/// Where `program` is on the `PATH`, or in `/usr/games` where Debian puts
/// its game engines (Stockfish) and which many `PATH`s leave out.
pub fn on_path(program: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([std::path::PathBuf::from("/usr/games")])
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// The computer players and the limit on concurrent searches.
pub struct Computers {
    /// The registry's UCI programs that were found, by program name.
    programs: HashMap<&'static str, Arc<dyn Player>>,
    external: Mutex<HashMap<String, Arc<dyn Player>>>,
    slots: Arc<Semaphore>,
}

impl std::fmt::Debug for Computers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Computers").finish_non_exhaustive()
    }
}

impl Computers {
    /// The computer players of every variant: each UCI program the
    /// registry names is looked for on the `PATH` and started; one that is
    /// missing or does not start leaves its variants without a computer (a
    /// line in the log says so).
    #[must_use]
    pub fn new() -> Computers {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        let mut programs: HashMap<&'static str, Arc<dyn Player>> = HashMap::new();
        for v in registry::all() {
            let registry::Computer::Uci { program, .. } = v.computer else {
                continue;
            };
            if programs.contains_key(program) {
                continue;
            }
            match on_path(program).map(|p| External::spawn(&p.to_string_lossy())) {
                Some(Ok(player)) => {
                    tracing::info!(program, "computer player found");
                    programs.insert(program, Arc::new(player));
                }
                Some(Err(e)) => {
                    tracing::warn!(program, error = %e, "computer player does not start; its variants have no computer")
                }
                None => tracing::info!(
                    program,
                    "computer player not installed; its variants have no computer"
                ),
            }
        }
        Computers {
            programs,
            external: Mutex::new(HashMap::new()),
            slots: Arc::new(Semaphore::new(cores)),
        }
    }

    /// The levels the computer plays `variant` at (none without a player).
    #[must_use]
    pub fn levels(&self, variant: &registry::Variant) -> u8 {
        match variant.computer {
            registry::Computer::BuiltIn { levels, .. } => levels,
            registry::Computer::Uci { program, levels, .. } if self.programs.contains_key(program) => levels,
            _ => 0,
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

    /// Whether `spec` names a computer we have for `variant`.
    #[must_use]
    pub fn knows(&self, variant: &registry::Variant, spec: &str) -> bool {
        if spec.starts_with("level:") {
            return level_of(spec).is_some_and(|n| (1..=self.levels(variant)).contains(&n));
        }
        spec.strip_prefix("engine:").is_some_and(|n| {
            self.external
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .contains_key(n)
        })
    }

    /// The player for a request and the options that set its level.
    fn player(&self, req: &Request) -> Option<(Arc<dyn Player>, EngineOptions)> {
        if let Some(level) = level_of(&req.spec) {
            return match req.variant.computer {
                registry::Computer::BuiltIn { choose, .. } => {
                    Some((Arc::new(BuiltIn { choose, level }), Vec::new()))
                }
                registry::Computer::Uci { program, options, .. } => {
                    Some((self.programs.get(program)?.clone(), options(level)))
                }
                registry::Computer::None => None,
            };
        }
        let name = req.spec.strip_prefix("engine:")?;
        let player = self
            .external
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .cloned()?;
        Some((player, Vec::new()))
    }

    /// Starts thinking; the answer comes on the returned channel (a
    /// failure or a missing player answers "no move").
    pub fn think(&self, req: Request) -> oneshot::Receiver<ComputerMove> {
        let (reply, answer) = oneshot::channel();
        let player = self.player(&req);
        let slots = self.slots.clone();
        tokio::spawn(async move {
            let ply = req.ply;
            let coord = match player {
                None => None,
                Some((p, options)) => {
                    let _permit = slots.acquire_owned().await;
                    let r = tokio::task::spawn_blocking(move || p.choose(&req, &options)).await;
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
            let _ = reply.send(ComputerMove { ply, coord });
        });
        answer
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

/// The registry's in-process engine at one level.
struct BuiltIn {
    choose: fn(&registry::ComputerRequest<'_>) -> Result<String, String>,
    level: u8,
}

impl Player for BuiltIn {
    fn choose(&self, req: &Request, _options: &[(String, String)]) -> Result<String, String> {
        (self.choose)(&registry::ComputerRequest {
            level: self.level,
            fen: &req.fen,
            moves: &req.moves,
            movetime: budget(req),
        })
    }
}

impl Player for External {
    fn choose(&self, req: &Request, options: &[(String, String)]) -> Result<String, String> {
        let mut io = self.io.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        for (name, value) in options {
            io.send(&format!("setoption name {name} value {value}"))?;
        }
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
