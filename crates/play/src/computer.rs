//! Computer opponents, as the game registry describes them: a built-in
//! engine in process (Xiangqi's), an external UCI or USI program found on
//! the `PATH` at start (the registry names it and its protocol; without it
//! the variant offers no computer), and external engines the operator
//! configures by name.
//!
//! Every external engine is driven by one client, the match runner's
//! [`arena::EnginePlayer`]: every wait has a deadline, a hung or crashed
//! engine is killed and restarted, and a failure comes back as an error
//! rather than a game that never moves. Built-in searches are CPU-bound, so
//! they run on the blocking pool, at most as many at once as there are
//! cores. Either way the game task is never blocked: the answer comes back
//! on a channel and joins its mailbox like any player's move.
//!
//! Fairness: searches wait in a [`FairQueue`] per resource (the built-in
//! pool; each engine process), served round-robin by the player who asked,
//! and one player's searches may hold at most half the resource. Before,
//! one account with 16 strong games pushed everyone else's level-1 reply
//! from 0.11 s to 36.7 s; now another player's reply waits for at most one
//! search. How many computer games one account may have open at once is
//! the lobby's limit ([`MAX_GAMES_PER_USER`]).

use arena::{EnginePlayer, GoLimit};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

/// Computer games one account may have going at once.
pub const MAX_GAMES_PER_USER: usize = 4;

/// What a game asks the computer.
#[derive(Clone, Debug)]
pub struct Request {
    pub variant: &'static registry::Variant,
    /// Whose game it is (the human player's id): the unit of fairness.
    pub owner: String,
    /// `level:N` or `engine:NAME`.
    pub spec: String,
    pub fen: String,
    /// The game so far in coordinate notation.
    pub moves: Vec<String>,
    pub ply: u32,
    /// The computer's remaining time and increment.
    pub my_ms: i64,
    pub increment_ms: i64,
    /// The byo-yomi period (秒読み, 读秒) it may move in once main time is
    /// gone; 0 without byo-yomi.
    pub period_ms: i64,
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

/// How long the computer may think: a fortieth of its time plus most of the
/// increment, or a third of a byo-yomi period if that is more, between
/// 50 ms and 5 s.
fn budget(req: &Request) -> Duration {
    let ms = (req.my_ms / 40 + req.increment_ms * 3 / 4)
        .max(req.period_ms / 3)
        .clamp(50, 5000);
    Duration::from_millis(u64::try_from(ms).unwrap_or(50))
}

/// How long past its budget an external engine may take before it counts as
/// hung (process start-up after a restart included).
const GRACE: Duration = Duration::from_secs(10);

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

/// An external engine process shared by the games that use it; one search
/// at a time, taken in turn from its queue.
#[derive(Clone)]
struct Engine {
    player: Arc<tokio::sync::Mutex<EnginePlayer>>,
    queue: Arc<FairQueue>,
}

/// `setoption` name/value pairs.
type EngineOptions = Vec<(String, String)>;

/// Who answers a request.
enum Player {
    BuiltIn {
        choose: fn(&registry::ComputerRequest<'_>) -> Result<String, String>,
        level: u8,
    },
    Engine(Engine, EngineOptions),
}

/// The computer players and the limit on concurrent built-in searches.
pub struct Computers {
    /// The registry's external programs that were found, by program name
    /// and the protocol they are spoken to in (one process each).
    programs: HashMap<(&'static str, registry::EngineProtocol), Engine>,
    /// Operator-configured engines, by the name players choose them by.
    external: Mutex<HashMap<String, Engine>>,
    /// The built-in engine's searches: as many at once as there are cores.
    slots: Arc<FairQueue>,
}

impl std::fmt::Debug for Computers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Computers").finish_non_exhaustive()
    }
}

/// Starts an engine from a command line or a fastchess-style description.
async fn start_engine(description: &str) -> Result<Engine, String> {
    let spec = arena::parse_engine_spec(description)?;
    let player = EnginePlayer::start(spec).await.map_err(|e| e.to_string())?;
    Ok(Engine {
        player: Arc::new(tokio::sync::Mutex::new(player)),
        queue: Arc::new(FairQueue::new(1)),
    })
}

impl Computers {
    /// The computer players of every variant: each UCI program the
    /// registry names is looked for on the `PATH` and started; one that is
    /// missing or does not start leaves its variants without a computer (a
    /// line in the log says so).
    pub async fn start() -> Computers {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        let mut programs = HashMap::new();
        for v in registry::all() {
            let registry::Computer::Uci {
                program, protocol, ..
            } = v.computer
            else {
                continue;
            };
            if programs.contains_key(&(program, protocol)) {
                continue;
            }
            let Some(path) = on_path(program) else {
                tracing::info!(
                    program,
                    "computer player not installed; its variants have no computer"
                );
                continue;
            };
            // Quoted: a path may hold blanks.
            let description = format!("cmd=\"{}\" proto={}", path.display(), protocol.as_str());
            match start_engine(&description).await {
                Ok(engine) => {
                    tracing::info!(program, protocol = protocol.as_str(), "computer player found");
                    programs.insert((program, protocol), engine);
                }
                Err(e) => {
                    tracing::warn!(program, error = %e, "computer player does not start; its variants have no computer");
                }
            }
        }
        Computers {
            programs,
            external: Mutex::new(HashMap::new()),
            slots: Arc::new(FairQueue::new(cores)),
        }
    }

    /// Starts an operator's engine (a command line, or key=value words as
    /// `qiju match` reads them) and offers it as `engine:NAME`.
    ///
    /// # Errors
    /// The engine cannot be started or does not complete its handshake.
    pub async fn add_external(&self, name: &str, description: &str) -> Result<(), String> {
        let engine = start_engine(description).await?;
        self.external
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(name.to_string(), engine);
        Ok(())
    }

    /// The levels the computer plays `variant` at (none without a player).
    #[must_use]
    pub fn levels(&self, variant: &registry::Variant) -> u8 {
        match variant.computer {
            registry::Computer::BuiltIn { levels, .. } => levels,
            registry::Computer::Uci {
                program,
                protocol,
                levels,
                ..
            } if self.programs.contains_key(&(program, protocol)) => levels,
            _ => 0,
        }
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

    /// The player for a request.
    fn player(&self, req: &Request) -> Option<Player> {
        if let Some(level) = level_of(&req.spec) {
            return match req.variant.computer {
                registry::Computer::BuiltIn { choose, .. } => Some(Player::BuiltIn { choose, level }),
                registry::Computer::Uci {
                    program,
                    protocol,
                    options,
                    ..
                } => Some(Player::Engine(
                    self.programs.get(&(program, protocol))?.clone(),
                    options(level),
                )),
                registry::Computer::None => None,
            };
        }
        let name = req.spec.strip_prefix("engine:")?;
        let engine = self
            .external
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .cloned()?;
        Some(Player::Engine(engine, Vec::new()))
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
                Some(Player::BuiltIn { choose, level }) => {
                    let _turn = FairQueue::wait_turn(&slots, &req.owner).await;
                    let r = tokio::task::spawn_blocking(move || {
                        choose(&registry::ComputerRequest {
                            level,
                            fen: &req.fen,
                            moves: &req.moves,
                            movetime: budget(&req),
                        })
                    })
                    .await;
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
                Some(Player::Engine(engine, options)) => ask_engine(&engine, &options, &req).await,
            };
            let _ = reply.send(ComputerMove { ply, coord });
        });
        answer
    }
}

/// A position to analyse, and for whom (the unit of fairness).
#[derive(Clone, Debug)]
pub struct EvalRequest {
    pub variant: &'static registry::Variant,
    pub owner: String,
    pub fen: String,
    pub moves: Vec<String>,
    pub depth: u32,
    /// A cap on the time, whatever the depth.
    pub movetime: Duration,
}

impl Computers {
    /// Whether `variant` can be analysed here: its analyser is built in, or
    /// its UCI program was found at start.
    #[must_use]
    pub fn can_analyse(&self, variant: &registry::Variant) -> bool {
        match variant.computer {
            registry::Computer::BuiltIn { .. } => true,
            registry::Computer::Uci {
                program, protocol, ..
            } => self.programs.contains_key(&(program, protocol)),
            registry::Computer::None => false,
        }
    }

    /// Analyses a position at full strength. It waits for a turn in the
    /// same queues as the computer's moves, so reviews and games share the
    /// machine by the same round-robin.
    ///
    /// # Errors
    /// No analyser for the variant, or the search failed.
    pub async fn evaluate(&self, req: EvalRequest) -> Result<registry::Evaluation, String> {
        match req.variant.computer {
            registry::Computer::BuiltIn { analyse, .. } => {
                let _turn = FairQueue::wait_turn(&self.slots, &req.owner).await;
                tokio::task::spawn_blocking(move || {
                    analyse(&registry::AnalysisRequest {
                        fen: &req.fen,
                        moves: &req.moves,
                        depth: req.depth,
                        movetime: req.movetime,
                    })
                })
                .await
                .map_err(|e| format!("analysis panicked: {e}"))?
            }
            registry::Computer::Uci {
                program,
                protocol,
                analysis_options,
                ..
            } => {
                let engine = self
                    .programs
                    .get(&(program, protocol))
                    .ok_or_else(|| format!("{program} is not installed"))?;
                let _turn = FairQueue::wait_turn(&engine.queue, &req.owner).await;
                let mut player = engine.player.lock().await;
                let r = player
                    .best_move_text(
                        &req.fen,
                        &req.moves,
                        &analysis_options(),
                        GoLimit::Depth(req.depth),
                        req.movetime + GRACE,
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                Ok(registry::Evaluation {
                    score: uci_score(r.score.unwrap_or(0)),
                    pv: std::iter::once(r.mv.clone()).chain(r.ponder).collect(),
                    best: Some(r.mv),
                    depth: r.depth.unwrap_or(req.depth),
                    nodes: 0,
                })
            }
            registry::Computer::None => Err("this game has no analyser".into()),
        }
    }
}

/// The adapter's score (mates as ±(30000 − plies)) as the registry's.
fn uci_score(v: i32) -> registry::Score {
    const MATE: i32 = 30_000;
    if v.abs() >= MATE - 1000 {
        let plies = MATE - v.abs();
        let moves = (plies + 1) / 2;
        registry::Score::Mate(if v > 0 { moves } else { -moves })
    } else {
        registry::Score::Cp(v)
    }
}

/// Asks an external engine, once more after a failure (the adapter has
/// restarted the process by then).
async fn ask_engine(engine: &Engine, options: &[(String, String)], req: &Request) -> Option<String> {
    let movetime = budget(req);
    let _turn = FairQueue::wait_turn(&engine.queue, &req.owner).await;
    let mut player = engine.player.lock().await;
    for attempt in 1..=2 {
        match player
            .best_move_text(
                &req.fen,
                &req.moves,
                options,
                GoLimit::MoveTime(movetime),
                movetime + GRACE,
            )
            .await
        {
            Ok(r) => return Some(r.mv),
            Err(e) => tracing::warn!(error = %e, attempt, "computer engine failed"),
        }
    }
    None
}

/// Slots of one computing resource, handed out round-robin by owner: each
/// free slot goes to the next owner in turn that has a search waiting and
/// holds fewer than `per_owner` slots. So an owner with many searches
/// queued delays another owner by at most the searches already running,
/// and — with `per_owner` half the slots — never holds them all.
pub struct FairQueue {
    capacity: usize,
    per_owner: usize,
    state: Mutex<QueueState>,
}

#[derive(Default)]
struct QueueState {
    running: usize,
    by_owner: HashMap<String, usize>,
    waiting: HashMap<String, std::collections::VecDeque<oneshot::Sender<()>>>,
    /// Owners with waiting searches, in turn order.
    turn: std::collections::VecDeque<String>,
}

/// A slot held; given back when dropped.
pub struct Turn {
    queue: Arc<FairQueue>,
    owner: String,
}

impl FairQueue {
    #[must_use]
    pub fn new(capacity: usize) -> FairQueue {
        let capacity = capacity.max(1);
        FairQueue {
            capacity,
            per_owner: (capacity / 2).max(1),
            state: Mutex::new(QueueState::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until `owner` may run one search.
    pub async fn wait_turn(queue: &Arc<FairQueue>, owner: &str) -> Turn {
        let (tx, rx) = oneshot::channel();
        {
            let mut st = queue.lock();
            let q = st.waiting.entry(owner.to_string()).or_default();
            let first = q.is_empty();
            q.push_back(tx);
            if first {
                st.turn.push_back(owner.to_string());
            }
            queue.dispatch(&mut st);
        }
        // The sender is only dropped after it has been used, or with the
        // queue itself, which outlives every waiter.
        let _ = rx.await;
        Turn {
            queue: queue.clone(),
            owner: owner.to_string(),
        }
    }

    /// Hands free slots to waiting owners in turn.
    fn dispatch(&self, st: &mut QueueState) {
        let mut passes = st.turn.len();
        while st.running < self.capacity && passes > 0 {
            let Some(owner) = st.turn.pop_front() else { break };
            let held = st.by_owner.get(&owner).copied().unwrap_or(0);
            let Some(q) = st.waiting.get_mut(&owner) else {
                continue;
            };
            if held >= self.per_owner {
                // Their turn passes; they stay in line.
                st.turn.push_back(owner);
                passes -= 1;
                continue;
            }
            let Some(tx) = q.pop_front() else { continue };
            let empty = q.is_empty();
            if empty {
                st.waiting.remove(&owner);
            }
            if tx.send(()).is_ok() {
                st.running += 1;
                *st.by_owner.entry(owner.clone()).or_insert(0) += 1;
                passes = st.turn.len() + usize::from(!empty);
            }
            if !empty {
                st.turn.push_back(owner);
            }
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut st = self.queue.lock();
        st.running -= 1;
        if let Some(n) = st.by_owner.get_mut(&self.owner) {
            *n -= 1;
            if *n == 0 {
                st.by_owner.remove(&self.owner);
            }
        }
        self.queue.dispatch(&mut st);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Owner "a" queues 16 searches, "b" one: b runs as soon as a slot
    /// frees, and a never holds more than half the slots.
    #[tokio::test]
    async fn turns_go_round_by_owner() {
        let q = Arc::new(FairQueue::new(2));
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for i in 0..16 {
            let (q, order) = (q.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let _t = FairQueue::wait_turn(&q, "a").await;
                order.lock().unwrap().push(format!("a{i}"));
                tokio::time::sleep(Duration::from_millis(5)).await;
            }));
            tokio::task::yield_now().await;
        }
        let (q2, order2) = (q.clone(), order.clone());
        let b = tokio::spawn(async move {
            let _t = FairQueue::wait_turn(&q2, "b").await;
            order2.lock().unwrap().push("b".to_string());
        });
        b.await.unwrap();
        for t in tasks {
            t.await.unwrap();
        }
        let order = order.lock().unwrap().clone();
        let b_at = order.iter().position(|x| x == "b").unwrap();
        assert!(b_at <= 1, "b waited behind {b_at} of a's searches: {order:?}");
        assert_eq!(order.len(), 17);
        let st = q.lock();
        assert_eq!((st.running, st.turn.len(), st.waiting.len()), (0, 0, 0));
    }
}
