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
//! pool; each engine process), served round-robin by *share* — the client
//! address the player asked from ([`share_of`]: an IPv4 address, an IPv6
//! /64) — and within a share by account, and one share's searches may hold
//! at most half the resource. Guests are free accounts, so a share per
//! account let 8 guests × 4 level-8 games from one address hold a fifth
//! player's level-1 reply for 24 s; a share per address makes the swarm one
//! player among the others. Quick levels (1 to [`QUICK_LEVELS`], a few
//! thousand nodes, milliseconds) of the built-in engine do not wait behind
//! deep searches at all: they have a lane of their own. How many computer
//! games one account may have open at once is the lobby's limit
//! ([`MAX_GAMES_PER_USER`]), and so is how many deep ones one address may
//! have (`lobby::LobbyLimits::deep_computer_games_per_address`), which
//! bounds what a swarm can queue.

use arena::adapter::AdapterError;
use arena::{EnginePlayer, GoLimit, PlayerFailure};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

/// Computer games one account may have going at once.
pub const MAX_GAMES_PER_USER: usize = 4;

/// The built-in engine's levels 1 to this search at most 60,000 nodes
/// (`engine::Level::limits`): tens of milliseconds, so they have a lane of
/// their own and never wait behind a deep search (up to 5 s each).
pub const QUICK_LEVELS: u8 = 5;

/// The share of the machine a client address belongs to: an IPv4 address
/// itself; an IPv6 address by its /64, which one host or home usually
/// holds whole (so a swarm cannot take a new share per address of its
/// prefix). An IPv4 address mapped into IPv6 counts as the IPv4 one.
#[must_use]
pub fn share_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
    }
}

/// Who asks for a search: the unit of fairness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asker {
    /// The account (the human player of the game, who asked for the
    /// review or the evaluation).
    pub account: String,
    /// Where they asked from; `None` when nobody knows (a game resumed
    /// after a restart, a review): the account is then a share of its own.
    pub address: Option<IpAddr>,
}

impl Asker {
    /// The key of the share its searches are counted in.
    fn share(&self) -> String {
        match self.address {
            Some(ip) => format!("ip {}", share_of(ip)),
            None => format!("account {}", self.account),
        }
    }
}

/// What a game asks the computer.
#[derive(Clone, Debug)]
pub struct Request {
    pub variant: &'static registry::Variant,
    /// Whose game it is (the human player, and where they started it
    /// from): the unit of fairness.
    pub asker: Asker,
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

/// The computer's answer for the position at `ply`.
#[derive(Clone, Debug)]
pub struct ComputerMove {
    /// The ply the game was at when the computer started thinking: a move
    /// for a position that has moved on is dropped.
    pub ply: u32,
    pub play: ComputerPlay,
}

/// What the computer does on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComputerPlay {
    /// A move in the game's coordinate notation.
    Move(String),
    /// It claims the win by declaration (USI `bestmove win`: shogi's
    /// entering-king declaration, 入玉宣言), which the game rules on as any
    /// player's claim.
    DeclareWin,
    /// It has no move, resigns, or failed: it resigns rather than hang the
    /// game.
    Resign,
}

/// How long the computer may think. What the clock allows — a fortieth of
/// its time plus most of the increment, or a third of a byo-yomi period if
/// that is more, between 50 ms and 5 s — is the top level's; a level `L`
/// of `N` takes `(L/N)²` of it (at least 50 ms), so a weak level answers
/// at once whatever the clock (chess level 3 of 8 at 5+3: 0.7 s, not 5 s),
/// and think time grows with the level. An operator's engine
/// (`engine:NAME`) has no level and takes the whole.
fn budget(req: &Request) -> Duration {
    let clock = (req.my_ms / 40 + req.increment_ms * 3 / 4)
        .max(req.period_ms / 3)
        .clamp(50, 5000);
    let levels = match req.variant.computer {
        registry::Computer::BuiltIn { levels, .. } | registry::Computer::Uci { levels, .. } => levels,
        registry::Computer::None => 0,
    };
    let ms = match level_of(&req.spec) {
        Some(level) if levels > 0 && level < levels => {
            let share = f64::from(level) / f64::from(levels);
            // At most 5,000 ms: the product fits.
            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
            let scaled = (clock as f64 * share * share) as i64;
            scaled.max(50)
        }
        _ => clock,
    };
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
    /// The built-in engine's quick levels, beside `slots`: half as many.
    quick: Arc<FairQueue>,
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
            quick: Arc::new(FairQueue::new(cores / 2)),
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

    /// Whether a game against `spec` is a quick one: the built-in engine
    /// at a level up to [`QUICK_LEVELS`], whose searches take their own
    /// lane. Everything else searches for its whole budget (up to 5 s).
    #[must_use]
    pub fn is_quick(variant: &registry::Variant, spec: &str) -> bool {
        matches!(variant.computer, registry::Computer::BuiltIn { .. })
            && level_of(spec).is_some_and(|l| l <= QUICK_LEVELS)
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
        let lane = if Computers::is_quick(req.variant, &req.spec) {
            self.quick.clone()
        } else {
            self.slots.clone()
        };
        tokio::spawn(async move {
            let ply = req.ply;
            let play = match player {
                None => ComputerPlay::Resign,
                Some(Player::BuiltIn { choose, level }) => {
                    let _turn = FairQueue::wait_turn(&lane, &req.asker).await;
                    let r = tokio::task::spawn_blocking(move || {
                        choose(&registry::ComputerRequest {
                            variant: req.variant,
                            level,
                            fen: &req.fen,
                            moves: &req.moves,
                            movetime: budget(&req),
                        })
                    })
                    .await;
                    match r {
                        Ok(Ok(m)) => ComputerPlay::Move(m),
                        Ok(Err(e)) => {
                            tracing::warn!(error = %e, "computer failed to move");
                            ComputerPlay::Resign
                        }
                        Err(e) => {
                            tracing::error!(error = %e, "computer search panicked");
                            ComputerPlay::Resign
                        }
                    }
                }
                Some(Player::Engine(engine, options)) => ask_engine(&engine, &options, &req).await,
            };
            let _ = reply.send(ComputerMove { ply, play });
        });
        answer
    }
}

/// A position to analyse, and for whom (the unit of fairness).
#[derive(Clone, Debug)]
pub struct EvalRequest {
    pub variant: &'static registry::Variant,
    pub asker: Asker,
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
                let _turn = FairQueue::wait_turn(&self.slots, &req.asker).await;
                tokio::task::spawn_blocking(move || {
                    analyse(&registry::AnalysisRequest {
                        variant: req.variant,
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
                let _turn = FairQueue::wait_turn(&engine.queue, &req.asker).await;
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
async fn ask_engine(engine: &Engine, options: &[(String, String)], req: &Request) -> ComputerPlay {
    let movetime = budget(req);
    let _turn = FairQueue::wait_turn(&engine.queue, &req.asker).await;
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
            Ok(r) => return ComputerPlay::Move(r.mv),
            // An answer, not a failure: not asked again.
            Err(PlayerFailure::Failed {
                source: AdapterError::NoMove { word },
                ..
            }) => {
                return if word == "win" {
                    ComputerPlay::DeclareWin
                } else {
                    ComputerPlay::Resign
                }
            }
            Err(e) => tracing::warn!(error = %e, attempt, "computer engine failed"),
        }
    }
    ComputerPlay::Resign
}

/// Slots of one computing resource, handed out round-robin: each free
/// slot goes to the next share (a client address, see [`Asker`]) in turn
/// that has a search waiting and holds fewer than `per_share` slots, and
/// within the share to its next account in turn. So a share with many
/// searches queued — one account's or a swarm's of guests — delays
/// another share by at most the searches already running, and — with
/// `per_share` half the slots — never holds them all.
pub struct FairQueue {
    capacity: usize,
    per_share: usize,
    state: Mutex<QueueState>,
}

#[derive(Default)]
struct QueueState {
    running: usize,
    /// Slots held, by share.
    held: HashMap<String, usize>,
    /// Shares with waiting searches, in turn order.
    turn: VecDeque<String>,
    /// Each such share's waiting searches.
    lines: HashMap<String, ShareLine>,
}

/// One share's waiting searches: its accounts in turn order, each with its
/// searches in the order asked.
#[derive(Default)]
struct ShareLine {
    turn: VecDeque<String>,
    waiting: HashMap<String, VecDeque<oneshot::Sender<()>>>,
}

/// A slot held; given back when dropped.
pub struct Turn {
    queue: Arc<FairQueue>,
    share: String,
}

/// A search waiting for its slot. Dropped before its turn came (the game
/// or the request went away), it leaves the line; dropped in the instant
/// between the slot being handed to it and its waking up, it gives the
/// slot back — else that slot would be lost for good.
struct Waiting {
    queue: Arc<FairQueue>,
    share: String,
    rx: oneshot::Receiver<()>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.rx.close();
        if self.rx.try_recv().is_ok() {
            self.queue.release(&self.share);
        }
    }
}

impl FairQueue {
    #[must_use]
    pub fn new(capacity: usize) -> FairQueue {
        let capacity = capacity.max(1);
        FairQueue {
            capacity,
            per_share: (capacity / 2).max(1),
            state: Mutex::new(QueueState::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until `asker` may run one search.
    pub async fn wait_turn(queue: &Arc<FairQueue>, asker: &Asker) -> Turn {
        let share = asker.share();
        let (tx, rx) = oneshot::channel();
        {
            let mut st = queue.lock();
            if !st.lines.contains_key(&share) {
                st.turn.push_back(share.clone());
            }
            let line = st.lines.entry(share.clone()).or_default();
            let q = line.waiting.entry(asker.account.clone()).or_default();
            if q.is_empty() {
                line.turn.push_back(asker.account.clone());
            }
            q.push_back(tx);
            queue.dispatch(&mut st);
        }
        let mut waiting = Waiting {
            queue: queue.clone(),
            share,
            rx,
        };
        // The sender is only dropped after it has been used, or with the
        // queue itself, which outlives every waiter. Once received, the
        // slot is the turn's: `Waiting` no longer gives it back.
        let _ = (&mut waiting.rx).await;
        Turn {
            queue: queue.clone(),
            share: std::mem::take(&mut waiting.share),
        }
    }

    /// Hands free slots to waiting shares in turn.
    fn dispatch(&self, st: &mut QueueState) {
        let mut passes = st.turn.len();
        while st.running < self.capacity && passes > 0 {
            let Some(share) = st.turn.pop_front() else { break };
            if st.held.get(&share).copied().unwrap_or(0) >= self.per_share {
                // Their turn passes; they stay in line.
                st.turn.push_back(share);
                passes -= 1;
                continue;
            }
            let Some(line) = st.lines.get_mut(&share) else {
                continue;
            };
            // The share's next account in turn whose search still waits
            // (a search given up on is skipped).
            let mut granted = false;
            while let Some(account) = line.turn.pop_front() {
                let Some(q) = line.waiting.get_mut(&account) else {
                    continue;
                };
                while let Some(tx) = q.pop_front() {
                    if tx.send(()).is_ok() {
                        granted = true;
                        break;
                    }
                }
                if q.is_empty() {
                    line.waiting.remove(&account);
                } else {
                    line.turn.push_back(account);
                }
                if granted {
                    break;
                }
            }
            let empty = line.turn.is_empty();
            if empty {
                st.lines.remove(&share);
            }
            if granted {
                st.running += 1;
                *st.held.entry(share.clone()).or_insert(0) += 1;
                passes = st.turn.len() + usize::from(!empty);
            }
            if !empty {
                st.turn.push_back(share);
            }
        }
    }

    /// Gives a slot of `share` back and hands it on.
    fn release(&self, share: &str) {
        let mut st = self.lock();
        st.running = st.running.saturating_sub(1);
        if let Some(n) = st.held.get_mut(share) {
            *n -= 1;
            if *n == 0 {
                st.held.remove(share);
            }
        }
        self.dispatch(&mut st);
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.queue.release(&self.share);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(variant: &str, spec: &str, my_ms: i64, increment_ms: i64, period_ms: i64) -> Request {
        Request {
            variant: registry::get(Some(variant)).unwrap(),
            asker: asker("a", None),
            spec: spec.into(),
            fen: String::new(),
            moves: Vec::new(),
            ply: 0,
            my_ms,
            increment_ms,
            period_ms,
        }
    }

    /// Think time grows with the level and follows the clock: a weak level
    /// answers at once, the top level (and an operator's engine) takes what
    /// the clock allows, and none takes more.
    #[test]
    fn think_time_grows_with_the_level_and_follows_the_clock() {
        let ms = |r: &Request| budget(r).as_millis();
        for (variant, levels) in [("chess", 8), ("xiangqi", 8), ("shogi", 8), ("renju", 5)] {
            for (my_ms, inc, period) in [(300_000, 3_000, 0), (60_000, 0, 0), (0, 0, 10_000), (3_000, 0, 0)] {
                let top = ms(&request(variant, &format!("level:{levels}"), my_ms, inc, period));
                let clock =
                    u128::try_from(((my_ms / 40 + inc * 3 / 4).max(period / 3)).clamp(50, 5000)).unwrap();
                assert_eq!(top, clock, "{variant} top level at {my_ms}+{inc}|{period}");
                assert_eq!(ms(&request(variant, "engine:x", my_ms, inc, period)), clock);
                let mut last = 0;
                for level in 1..=levels {
                    let t = ms(&request(variant, &format!("level:{level}"), my_ms, inc, period));
                    assert!(
                        t >= last && t <= clock && t >= 50,
                        "{variant} level {level}: {t} ms"
                    );
                    last = t;
                }
            }
        }
        // Chess at 5+3 (issue 30, defect 4): level 3 no longer thinks 5 s.
        assert_eq!(ms(&request("chess", "level:3", 300_000, 3_000, 0)), 703);
        assert_eq!(ms(&request("chess", "level:1", 300_000, 3_000, 0)), 78);
    }

    fn asker(account: &str, address: Option<[u8; 4]>) -> Asker {
        Asker {
            account: account.to_string(),
            address: address.map(IpAddr::from),
        }
    }

    /// Queues `n` searches of `who`, each taking 5 ms, recording the order
    /// they run in.
    async fn queue_up(
        q: &Arc<FairQueue>,
        order: &Arc<Mutex<Vec<String>>>,
        who: &Asker,
        n: usize,
    ) -> Vec<tokio::task::JoinHandle<()>> {
        let mut tasks = Vec::new();
        for i in 0..n {
            let (q, order, who) = (q.clone(), order.clone(), who.clone());
            tasks.push(tokio::spawn(async move {
                let _t = FairQueue::wait_turn(&q, &who).await;
                order.lock().unwrap().push(format!("{}{i}", who.account));
                tokio::time::sleep(Duration::from_millis(5)).await;
            }));
            tokio::task::yield_now().await;
        }
        tasks
    }

    fn assert_idle(q: &FairQueue) {
        let st = q.lock();
        assert_eq!(
            (st.running, st.turn.len(), st.lines.len(), st.held.len()),
            (0, 0, 0, 0)
        );
    }

    /// Owner "a" queues 16 searches, "b" one: b runs as soon as a slot
    /// frees, and a never holds more than half the slots.
    #[tokio::test]
    async fn turns_go_round_by_owner() {
        let q = Arc::new(FairQueue::new(2));
        let order = Arc::new(Mutex::new(Vec::new()));
        let tasks = queue_up(&q, &order, &asker("a", None), 16).await;
        let b = queue_up(&q, &order, &asker("b", None), 1).await;
        for t in b.into_iter().chain(tasks) {
            t.await.unwrap();
        }
        let order = order.lock().unwrap().clone();
        let b_at = order.iter().position(|x| x == "b0").unwrap();
        assert!(b_at <= 1, "b waited behind {b_at} of a's searches: {order:?}");
        assert_eq!(order.len(), 17);
        assert_idle(&q);
    }

    /// Eight accounts of one address queue four searches each; an account
    /// from another address runs at once beside them — the swarm is one
    /// share, not eight — and inside the swarm's share the accounts take
    /// turns.
    #[tokio::test]
    async fn turns_go_round_by_address_then_account() {
        let q = Arc::new(FairQueue::new(2));
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for g in 0..8 {
            tasks.extend(queue_up(&q, &order, &asker(&format!("g{g}-"), Some([10, 0, 0, 1])), 4).await);
        }
        let far = queue_up(&q, &order, &asker("far", Some([10, 0, 0, 2])), 1).await;
        for t in far.into_iter().chain(tasks) {
            t.await.unwrap();
        }
        let order = order.lock().unwrap().clone();
        let far_at = order.iter().position(|x| x == "far0").unwrap();
        assert!(far_at <= 1, "the other address waited behind {far_at}: {order:?}");
        // Once all have asked, the swarm's accounts take turns: its next
        // eight searches after the first (which ran before the others
        // asked) are its eight accounts', one each.
        let firsts: std::collections::HashSet<&str> = order
            .iter()
            .filter(|x| x.starts_with('g'))
            .skip(1)
            .take(8)
            .map(|x| &x[..3])
            .collect();
        assert_eq!(firsts.len(), 8, "{order:?}");
        assert_idle(&q);
    }

    /// A search given up on while it waits leaves the line, and one given
    /// up on just as its slot came gives the slot back: no slot is lost.
    #[tokio::test]
    async fn searches_given_up_lose_no_slot() {
        let q = Arc::new(FairQueue::new(1));
        let holder = FairQueue::wait_turn(&q, &asker("a", None)).await;
        // Waits, then is dropped while waiting.
        let waiting = tokio::time::timeout(
            Duration::from_millis(20),
            FairQueue::wait_turn(&q, &asker("b", None)),
        )
        .await;
        assert!(waiting.is_err());
        // Granted when the holder leaves, but dropped before it woke.
        let q2 = q.clone();
        let mut late = Box::pin(async move { FairQueue::wait_turn(&q2, &asker("c", None)).await });
        assert!(futures_poll_once(&mut late).await.is_none());
        drop(holder);
        assert_eq!(q.lock().running, 1, "the slot went to c");
        drop(late);
        // Nothing is held or waiting; the next asker runs at once.
        assert_idle(&q);
        let t = tokio::time::timeout(
            Duration::from_millis(100),
            FairQueue::wait_turn(&q, &asker("d", None)),
        )
        .await;
        assert!(t.is_ok(), "a slot was lost");
    }

    /// Polls a future once.
    async fn futures_poll_once<F: std::future::Future + Unpin>(f: &mut F) -> Option<F::Output> {
        std::future::poll_fn(|cx| {
            std::task::Poll::Ready(match std::pin::Pin::new(&mut *f).poll(cx) {
                std::task::Poll::Ready(v) => Some(v),
                std::task::Poll::Pending => None,
            })
        })
        .await
    }

    #[test]
    fn an_ipv6_host_is_one_share_by_its_slash_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(share_of(a), share_of(b));
        assert_ne!(share_of(a), share_of(c));
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(share_of(mapped), "10.0.0.1".parse::<IpAddr>().unwrap());
    }
}
