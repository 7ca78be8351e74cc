//! The search: iterative deepening over a principal-variation alpha-beta,
//! with the usual selectivity (null move, reverse futility, late move
//! reductions and pruning) and a capture-only quiescence search.
//!
//! Each search thread owns a [`Worker`] with its own position, move stack,
//! killers and history; the threads share only the transposition table and
//! the stop flag (Lazy SMP). The main thread reports progress and decides the
//! move; helpers only fill the table.

use crate::eval::{self, Params};
use crate::repetition::{self, CycleMove, RepetitionRule, Verdict};
use crate::see::see_ge;
use crate::time::{self, Budget};
use crate::tt::{Bound, Table};
use crate::{Control, Info, Limits, Score, SearchError, SearchResult};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi::{Move, MoveList, Position, Role, Undo};

/// The score of mating at the root; a mate found `ply` plies deep scores
/// `MATE - ply`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates (or repetition-rule wins, which end the game
/// the same way).
pub const MATE_BOUND: i32 = MATE - 512;
const INF: i32 = 31_000;
const MAX_PLY: usize = 120;
/// The natural limit (自然限着, 4.2): 60 rounds without a capture.
const NATURAL_LIMIT_PLIES: u32 = 120;

/// The engine: owns the transposition table and the settings; one search at
/// a time.
pub struct Engine {
    tt: Arc<Table>,
    /// Each thread's move-ordering histories, kept from one search to the
    /// next: the positions of a game follow each other, so what ordered
    /// well a move ago mostly still does.
    histories: Vec<Histories>,
    params: Arc<Params>,
    threads: usize,
    rule: RepetitionRule,
    overhead: Duration,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("hash_mb", &self.tt.mb())
            .field("threads", &self.threads)
            .field("rule", &self.rule)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine with a transposition table of about `hash_mb` MiB, one
    /// thread, the tuned evaluation and the Chinese repetition rules.
    #[must_use]
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: Arc::new(Table::new(hash_mb)),
            histories: Vec::new(),
            params: Arc::new(Params::tuned()),
            threads: 1,
            rule: RepetitionRule::Chinese,
            overhead: time::DEFAULT_OVERHEAD,
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Arc::new(Table::new(mb));
    }

    /// Number of search threads (Lazy SMP); at least 1.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, 256);
    }

    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn set_rule(&mut self, rule: RepetitionRule) {
        self.rule = rule;
    }

    /// Evaluation weights (the tuner and the before/after matches swap them).
    pub fn set_params(&mut self, params: Params) {
        self.params = Arc::new(params);
    }

    /// Margin kept on the clock for the protocol round trip.
    pub fn set_move_overhead(&mut self, d: Duration) {
        self.overhead = d;
    }

    /// Forgets everything learnt (UCI `ucinewgame`).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.histories.clear();
    }

    /// What the transposition table knows about a position (UCCI `probe`).
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<crate::tt::Entry> {
        self.tt.probe(pos.key())
    }

    /// The transposition table itself, to probe while a search runs.
    #[must_use]
    pub fn table(&self) -> Arc<Table> {
        self.tt.clone()
    }

    /// Static evaluation of a position from the side to move's view.
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        eval::evaluate(pos, &self.params)
    }

    /// Searches the position reached from `start` by `moves` (the game so
    /// far, which the repetition rules need) within `limits`.
    ///
    /// `on_info` is called after every completed iteration, on the calling
    /// thread. The result's move is always legal.
    ///
    /// # Errors
    /// An illegal move in `moves`, or no move to search.
    pub fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<SearchResult, SearchError> {
        let started = Instant::now();
        let mut pos = start.clone();
        let mut stack = Vec::with_capacity(moves.len() + MAX_PLY + 8);
        stack.push(Frame {
            key: pos.key(),
            in_check: pos.is_check(),
            mv: Move::NONE,
            undo: None,
            rev: 0,
            eval: -INF,
            cont: NO_CONT,
        });
        for (index, &mv) in moves.iter().enumerate() {
            let cont = piece_to(&pos, mv);
            let undo = pos
                .play(mv)
                .map_err(|reason| SearchError::IllegalHistory { index, mv, reason })?;
            let rev = if undo.captured().is_some() {
                0
            } else {
                stack.last().map_or(0, |f: &Frame| f.rev + 1)
            };
            stack.push(Frame {
                key: pos.key(),
                in_check: pos.is_check(),
                mv,
                undo: Some(undo),
                rev,
                eval: -INF,
                cont,
            });
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return Err(SearchError::NoLegalMove);
        }
        let mut root_moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !limits.banned.contains(m))
            .filter(|m| limits.only.is_empty() || limits.only.contains(m))
            .collect();
        if root_moves.is_empty() {
            return Err(SearchError::AllMovesExcluded);
        }
        self.drop_ruled_losses(start, moves, &pos, &stack, &mut root_moves);

        let level = limits.level.unwrap_or_default().limits();
        let depth_limit = [limits.depth, level.depth]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8) as i32;
        let node_limit = [limits.nodes, level.nodes].into_iter().flatten().min();
        let seed = if limits.seed != 0 {
            limits.seed
        } else {
            started.elapsed().as_nanos() as u64 ^ std::process::id() as u64 ^ pos.key()
        };
        self.tt.new_search();
        let done = AtomicBool::new(false);
        let total_nodes = AtomicU64::new(0);
        let shared = Shared {
            tt: &self.tt,
            params: &self.params,
            rule: self.rule,
            stop: &control.stop,
            pondering: &control.pondering,
            done: &done,
            nodes: &total_nodes,
            start: started,
            budget: time::budget(limits, self.overhead),
            node_limit,
            depth_limit,
            noise: level.noise,
            seed,
        };

        let mut histories = std::mem::take(&mut self.histories);
        histories.resize_with(self.threads, Histories::new);
        histories.iter_mut().for_each(Histories::age);
        let mut histories = histories.into_iter();
        let main_histories = histories.next().unwrap_or_else(Histories::new);
        let (result, kept) = std::thread::scope(|scope| {
            let helpers: Vec<_> = histories
                .enumerate()
                .map(|(i, h)| {
                    let (pos, stack, roots) = (pos.clone(), stack.clone(), root_moves.clone());
                    let shared = &shared;
                    scope.spawn(move || {
                        let mut w = Worker::new(shared, pos, stack, &roots, i + 1, h);
                        w.iterate(&mut |_| {});
                        w.hist
                    })
                })
                .collect();
            let mut w = Worker::new(&shared, pos.clone(), stack, &root_moves, 0, main_histories);
            let r = w.iterate(on_info);
            done.store(true, Ordering::Relaxed);
            let mut kept = vec![w.hist];
            // A helper that panicked loses only its histories.
            kept.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
            (r, kept)
        });
        self.histories = kept;
        Ok(result)
    }

    /// The game-level judgement: a root move after which the referee
    /// (`crates/referee`, the full 棋例 of the rule set) would rule a loss for
    /// the mover, or tell it to change (变着, 26.4), is dropped — unless every
    /// move is. The referee is asked only about moves that repeat an earlier
    /// position, so this costs nothing in ordinary positions.
    fn drop_ruled_losses(
        &self,
        start: &Position,
        moves: &[Move],
        pos: &Position,
        stack: &[Frame],
        roots: &mut Vec<Move>,
    ) {
        let us = pos.turn();
        let reach = stack.last().map_or(0, |f| f.rev as usize);
        let earlier: Vec<u64> = stack
            .iter()
            .rev()
            .skip(1)
            .take(reach)
            .step_by(2)
            .map(|f| f.key)
            .collect();
        let repeating: Vec<Move> = roots
            .iter()
            .copied()
            .filter(|&m| {
                let mut p = pos.clone();
                p.play_unchecked(m);
                earlier.contains(&p.key())
            })
            .collect();
        if repeating.is_empty() {
            return;
        }
        let rules = match self.rule {
            RepetitionRule::Chinese => referee::RuleSet::Cxa,
            RepetitionRule::PerpetualCheck => referee::RuleSet::Simple,
        };
        let config = referee::Config::new(rules);
        let mut history = referee::History::new(start.clone(), rules);
        for &m in moves {
            if history.play(m).is_err() {
                return;
            }
        }
        let ruled_out: Vec<Move> = repeating
            .into_iter()
            .filter(|&m| {
                let mut h = history.clone();
                if h.play(m).is_err() {
                    return false;
                }
                let j = referee::judge_history(&mut h, &config);
                j.decision.loser() == Some(us) || j.decision == (referee::Decision::MustChange { side: us })
            })
            .collect();
        if ruled_out.len() < roots.len() {
            roots.retain(|m| !ruled_out.contains(m));
        }
    }

    /// A search with no stop flag and no progress reports.
    ///
    /// # Errors
    /// As [`Engine::search`].
    pub fn search_simple(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &Limits,
    ) -> Result<SearchResult, SearchError> {
        self.search(start, moves, limits, &Control::default(), &mut |_| {})
    }
}

/// One position of the game or the search line.
#[derive(Clone, Copy, Debug)]
struct Frame {
    key: u64,
    /// The side to move here is in check (the move into it gave check).
    in_check: bool,
    /// The move that led here; `Move::NONE` for the start and null moves.
    mv: Move,
    undo: Option<Undo>,
    /// Plies since the last capture or null move: how far back a repetition
    /// can reach.
    rev: u32,
    eval: i32,
    /// Piece × destination of `mv` (the continuation-history row), or
    /// [`NO_CONT`].
    cont: u16,
}

/// Piece × destination slots of the history tables.
const PIECE_TO: usize = 14 * 90;
/// The continuation row of a position not reached by a move of the search
/// or the game (the root of a game, a null move).
const NO_CONT: u16 = PIECE_TO as u16;

/// What all threads of one search share.
struct Shared<'a> {
    tt: &'a Table,
    params: &'a Params,
    rule: RepetitionRule,
    stop: &'a AtomicBool,
    pondering: &'a AtomicBool,
    /// Set by the main thread when it has decided, to stop the helpers.
    done: &'a AtomicBool,
    nodes: &'a AtomicU64,
    start: Instant,
    budget: Option<Budget>,
    node_limit: Option<u64>,
    depth_limit: i32,
    noise: i32,
    seed: u64,
}

#[derive(Clone, Copy)]
struct RootMove {
    mv: Move,
    score: i32,
}

/// Move-ordering statistics of quiet moves that caused cutoffs.
struct Histories {
    /// By piece × destination.
    main: Vec<i32>,
    /// Continuation history: how well a quiet move did after a given move
    /// one ply (the opponent's reply) and two plies (our own previous move)
    /// before; rows by that move's piece × destination (plus [`NO_CONT`]).
    cont: Vec<i16>,
}

impl Histories {
    fn new() -> Histories {
        Histories {
            main: vec![0; PIECE_TO],
            cont: vec![0; (PIECE_TO + 1) * PIECE_TO],
        }
    }

    /// Shrinks what earlier searches learnt, so the new position's own
    /// cutoffs soon outweigh it.
    fn age(&mut self) {
        self.main.iter_mut().for_each(|h| *h /= 2);
        self.cont.iter_mut().for_each(|h| *h /= 2);
    }
}

struct Worker<'a> {
    sh: &'a Shared<'a>,
    pos: Position,
    stack: Vec<Frame>,
    root_moves: Vec<RootMove>,
    id: usize,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    root_depth: i32,
    stopped: bool,
    killers: Vec<[Move; 2]>,
    /// Per ply, the move left out by a singular-extension search.
    excluded: Vec<Move>,
    hist: Histories,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: Vec<[u8; 64]>,
}

/// Ordering values of captured and capturing pieces (MVV/LVA).
fn piece_value(role: Role) -> i32 {
    match role {
        Role::King => 2000,
        Role::Rook => 1000,
        Role::Cannon => 450,
        Role::Horse => 430,
        Role::Advisor | Role::Elephant => 200,
        Role::Pawn => 100,
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The piece × destination slot of `m` on `pos` (before it is played).
fn piece_to(pos: &Position, m: Move) -> u16 {
    let p = pos.piece_at(m.from()).map_or(0, |p| p.index());
    (p * 90 + m.to().index()) as u16
}

fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

impl<'a> Worker<'a> {
    fn new(
        sh: &'a Shared<'a>,
        pos: Position,
        stack: Vec<Frame>,
        roots: &[Move],
        id: usize,
        hist: Histories,
    ) -> Worker<'a> {
        let mut lmr = vec![[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.2) as u8;
            }
        }
        let mut w = Worker {
            sh,
            pos,
            stack,
            root_moves: roots.iter().map(|&mv| RootMove { mv, score: -INF }).collect(),
            id,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            root_depth: 0,
            stopped: false,
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            excluded: vec![Move::NONE; MAX_PLY + 2],
            hist,
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr,
        };
        // Initial root order: the table's move, then captures by MVV/LVA.
        let tt_move = sh.tt.probe(w.pos.key()).map_or(Move::NONE, |e| e.mv);
        let pos = &w.pos;
        let key = |m: &RootMove| -> i32 {
            if m.mv == tt_move {
                return -10_000_000;
            }
            match pos.piece_at(m.mv.to()) {
                Some(v) => {
                    -(piece_value(v.role) * 10
                        - piece_value(pos.piece_at(m.mv.from()).map_or(Role::Pawn, |p| p.role)) / 10)
                }
                None => 0,
            }
        };
        w.root_moves.sort_by_key(key);
        w
    }

    fn top(&self) -> &Frame {
        self.stack.last().expect("the stack holds the root")
    }

    fn make(&mut self, m: Move) {
        let cont = piece_to(&self.pos, m);
        let undo = self.pos.play_unchecked(m);
        let rev = if undo.captured().is_some() {
            0
        } else {
            self.top().rev + 1
        };
        self.stack.push(Frame {
            key: self.pos.key(),
            in_check: self.pos.is_check(),
            mv: m,
            undo: Some(undo),
            rev,
            eval: -INF,
            cont,
        });
    }

    fn unmake(&mut self) {
        let f = self.stack.pop().expect("a move to take back");
        self.pos.undo(f.mv, f.undo.expect("a real move"));
    }

    fn make_null(&mut self) {
        let undo = self.pos.play_null();
        self.stack.push(Frame {
            key: self.pos.key(),
            in_check: false,
            mv: Move::NONE,
            undo: Some(undo),
            rev: 0,
            eval: -INF,
            cont: NO_CONT,
        });
    }

    fn unmake_null(&mut self) {
        let f = self.stack.pop().expect("a null move to take back");
        self.pos.undo_null(f.undo.expect("null undo"));
    }

    fn evaluate(&self) -> i32 {
        let mut v = eval::evaluate(&self.pos, self.sh.params);
        if self.sh.noise > 0 {
            let n = self.sh.noise as u64;
            v += (splitmix(self.pos.key() ^ self.sh.seed) % (2 * n + 1)) as i32 - self.sh.noise;
        }
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Polls limits now and then; true once the search must unwind.
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.id == 0 {
            if let Some(limit) = self.sh.node_limit {
                if self.nodes >= limit {
                    self.stopped = true;
                    return true;
                }
            }
        }
        if self.nodes - self.flushed >= 1024 {
            self.sh
                .nodes
                .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
            if self.sh.stop.load(Ordering::Relaxed)
                || self.sh.done.load(Ordering::Relaxed)
                || (self.id == 0 && self.out_of_time())
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Whether the hard time limit has passed; never while pondering.
    fn out_of_time(&self) -> bool {
        match self.sh.budget {
            Some(b) if !self.sh.pondering.load(Ordering::Relaxed) => self.sh.start.elapsed() >= b.maximum,
            _ => false,
        }
    }

    /// The repetition verdict if the current position occurred before with
    /// the same side to move, judged by the cycle between.
    fn repetition(&self, ply: usize) -> Option<i32> {
        let n = self.stack.len() - 1;
        let f = &self.stack[n];
        let reach = (f.rev as usize).min(n);
        let mut d = 4;
        while d <= reach {
            if self.stack[n - d].key == f.key {
                let v = match self.judge(n - d, n) {
                    Verdict::Draw => 0,
                    Verdict::Win => MATE - ply as i32,
                    Verdict::Loss => -MATE + ply as i32,
                };
                return Some(v);
            }
            d += 2;
        }
        None
    }

    fn judge(&self, j: usize, n: usize) -> Verdict {
        let mut ours = Vec::with_capacity((n - j) / 2 + 1);
        let mut theirs = Vec::with_capacity((n - j) / 2 + 1);
        for k in j + 1..=n {
            let m = CycleMove {
                check: self.stack[k].in_check,
                chase: false,
            };
            if (n - k).is_multiple_of(2) {
                theirs.push(m);
            } else {
                ours.push(m);
            }
        }
        let plain = repetition::judge(RepetitionRule::PerpetualCheck, &ours, &theirs);
        if self.sh.rule == RepetitionRule::PerpetualCheck || plain != Verdict::Draw {
            return plain;
        }
        // Chase detection needs the positions of the cycle: walk back to the
        // first occurrence, then replay.
        let mut p = self.pos.clone();
        for k in (j + 1..=n).rev() {
            p.undo(
                self.stack[k].mv,
                self.stack[k].undo.expect("real moves in a cycle"),
            );
        }
        let (mut oi, mut ti) = (0, 0);
        for k in j + 1..=n {
            let m = self.stack[k].mv;
            let chase = !self.stack[k].in_check && repetition::creates_chase(&p, m);
            p.play_unchecked(m);
            if (n - k).is_multiple_of(2) {
                theirs[ti].chase = chase;
                ti += 1;
            } else {
                ours[oi].chase = chase;
                oi += 1;
            }
        }
        repetition::judge(self.sh.rule, &ours, &theirs)
    }

    /// Whether the side to move has a piece that makes null-move pruning
    /// safe (zugzwang is rare while rooks, horses or cannons are on).
    fn has_big_pieces(&self) -> bool {
        let us = self.pos.turn();
        (self.pos.pieces(us, Role::Rook)
            | self.pos.pieces(us, Role::Horse)
            | self.pos.pieces(us, Role::Cannon))
        .any()
    }

    /// The legal captures of the side to move.
    fn captures(&self) -> MoveList {
        let us = self.pos.turn();
        let enemy = self.pos.by_color(us.other());
        let mut list = MoveList::new();
        for (from, piece) in self.pos.pieces_iter() {
            if piece.color != us {
                continue;
            }
            for to in self.pos.pseudo_targets(from, piece) & enemy {
                let m = Move::new(from, to);
                if self.pos.is_legal(m) {
                    list.push(m);
                }
            }
        }
        list
    }

    fn order(&self, moves: &MoveList, tt_move: Move, ply: usize) -> Vec<(Move, i32)> {
        let killers = self.killers[ply];
        let rows = self.cont_rows();
        moves
            .iter()
            .map(|&m| {
                let s = if m == tt_move {
                    4_000_000
                } else if let Some(victim) = self.pos.piece_at(m.to()) {
                    let attacker = self.pos.piece_at(m.from()).map_or(Role::Pawn, |p| p.role);
                    let mvv = piece_value(victim.role) * 10 - piece_value(attacker) / 10;
                    if !see_ge(&self.pos, m, 0) {
                        -3_000_000 + mvv
                    } else {
                        2_000_000 + mvv
                    }
                } else if m == killers[0] {
                    1_900_000
                } else if m == killers[1] {
                    1_800_000
                } else {
                    self.quiet_score(m, rows)
                };
                (m, s)
            })
            .collect()
    }

    /// The rows of the continuation history for the current node: after
    /// the opponent's last move and after our own move before it.
    fn cont_rows(&self) -> [usize; 2] {
        let n = self.stack.len();
        let row = |k: usize| {
            usize::from(if n > k {
                self.stack[n - 1 - k].cont
            } else {
                NO_CONT
            }) * PIECE_TO
        };
        [row(0), row(1)]
    }

    /// Ordering score of a quiet move: its history plus both continuation
    /// histories (`rows` from [`Worker::cont_rows`], the same for every
    /// move of a node).
    fn quiet_score(&self, m: Move, [a, b]: [usize; 2]) -> i32 {
        let i = usize::from(piece_to(&self.pos, m));
        let h = &self.hist;
        h.main[i] + i32::from(h.cont[a + i]) + i32::from(h.cont[b + i])
    }

    fn update_history(&mut self, m: Move, bonus: i32, rows: [usize; 2]) {
        // Gravity: the closer an entry is to ±16,384, the less a bonus of
        // the same sign moves it, so entries stay bounded (and fit an i16).
        let gravity = |v: i32| v + bonus - v * bonus.abs() / 16_384;
        let i = usize::from(piece_to(&self.pos, m));
        let h = &mut self.hist.main[i];
        *h = gravity(*h);
        for row in rows {
            let c = &mut self.hist.cont[row + i];
            *c = gravity(i32::from(*c)) as i16;
        }
    }

    fn iterate(&mut self, on_info: &mut dyn FnMut(&Info)) -> SearchResult {
        let mut best = SearchResult {
            best: self.root_moves[0].mv,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: vec![self.root_moves[0].mv],
        };
        let mut last_score = 0;
        let mut stable = 0;
        let mut first_depth = 1;
        if self.id > 0 {
            first_depth += (self.id % 2) as i32;
        }
        for depth in first_depth..=self.sh.depth_limit {
            self.root_depth = depth;
            self.seldepth = 0;
            let v = self.aspiration(depth, last_score);
            if self.stopped && depth > 1 {
                break;
            }
            if self.pv_len[0] > 0 {
                let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
                if pv[0] == best.best {
                    stable += 1;
                } else {
                    stable = 0;
                }
                best.best = pv[0];
                best.ponder = pv.get(1).copied();
                best.pv = pv;
                best.score = Score::from_internal(v);
                last_score = v;
            }
            best.depth = depth as u32;
            best.seldepth = self.seldepth as u32;
            if self.stopped {
                break;
            }
            if self.id == 0 {
                let elapsed = self.sh.start.elapsed();
                let nodes = self.sh.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed;
                on_info(&Info {
                    depth: depth as u32,
                    seldepth: self.seldepth as u32,
                    score: best.score,
                    nodes,
                    time: elapsed,
                    nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                    hashfull: self.sh.tt.hashfull(),
                    pv: best.pv.clone(),
                });
                if let Some(b) = self.sh.budget {
                    if !self.sh.pondering.load(Ordering::Relaxed) {
                        if self.root_moves.len() == 1 {
                            break;
                        }
                        let factor = [1.5, 1.15, 0.95, 0.8, 0.65][stable.min(4)];
                        if elapsed.as_secs_f64() >= b.optimum.as_secs_f64() * factor * 0.8 {
                            break;
                        }
                    }
                }
                // A mate proven well within the depth will not change.
                if v.abs() >= MATE_BOUND && depth >= 2 * (MATE - v.abs()) + 4 && self.sh.budget.is_some() {
                    break;
                }
            }
        }
        self.sh
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        best.nodes = self.sh.nodes.load(Ordering::Relaxed);
        best.time = self.sh.start.elapsed();
        best
    }

    fn aspiration(&mut self, depth: i32, last: i32) -> i32 {
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 5 && last.abs() < MATE_BOUND {
            (last - delta, last + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let v = self.search_root(alpha, beta, depth);
            if self.stopped {
                return v;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INF);
            } else if v >= beta {
                beta = (v + delta).min(INF);
            } else {
                return v;
            }
            delta += delta / 2 + 10;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn search_root(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        self.pv_len[0] = 0;
        self.nodes += 1;
        let mut best = -INF;
        let mut best_index = None;
        for i in 0..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let quiet = !self.pos.is_capture(m);
            self.make(m);
            let gives_check = self.top().in_check;
            let mut v;
            if i == 0 {
                v = -self.search(-beta, -alpha, depth - 1, 1, false);
            } else {
                let r = i32::from(depth >= 3 && i >= 4 && quiet && !gives_check);
                v = -self.search(-alpha - 1, -alpha, depth - 1 - r, 1, true);
                if v > alpha && r > 0 {
                    v = -self.search(-alpha - 1, -alpha, depth - 1, 1, true);
                }
                if v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, depth - 1, 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                break;
            }
            self.root_moves[i].score = if v > alpha { v } else { -INF };
            if v > best {
                best = v;
            }
            if v > alpha {
                best_index = Some(i);
                self.pv[0][0] = m;
                let len = self.pv_len[1].max(1);
                for k in 1..len {
                    self.pv[0][k] = self.pv[1][k];
                }
                self.pv_len[0] = len;
                if v >= beta {
                    break;
                }
                alpha = v;
            }
        }
        if let Some(i) = best_index {
            let rm = self.root_moves.remove(i);
            self.root_moves.insert(0, rm);
            if !self.stopped {
                let bound = if best >= beta { Bound::Lower } else { Bound::Exact };
                self.sh
                    .tt
                    .store(self.pos.key(), rm.mv, to_tt(best, 0), 0, depth, bound);
            }
        }
        best
    }

    #[allow(clippy::too_many_lines)]
    fn search(&mut self, mut alpha: i32, mut beta: i32, mut depth: i32, ply: usize, cut: bool) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        if self.check_stop() {
            return 0;
        }
        if let Some(v) = self.repetition(ply) {
            return v;
        }
        if self.pos.halfmove_clock() >= NATURAL_LIMIT_PLIES {
            return 0;
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.top().in_check;
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { self.evaluate() };
        }
        // Check extension: answer every check a ply deeper.
        if in_check && (ply as i32) < 2 * self.root_depth + 6 {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        let key = self.pos.key();
        let entry = self.sh.tt.probe(key);
        let excluded = self.excluded[ply];
        let mut tt_move = Move::NONE;
        if let Some(e) = entry {
            if self.pos.is_legal(e.mv) {
                tt_move = e.mv;
            }
            let s = from_tt(e.score, ply);
            if !pv_node
                && excluded == Move::NONE
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }
        let static_eval = if in_check {
            -INF
        } else if let (Some(e), 0) = (entry, self.sh.noise) {
            e.eval
        } else {
            self.evaluate()
        };
        let n = self.stack.len();
        self.stack[n - 1].eval = static_eval;
        let improving =
            !in_check && ply >= 2 && self.stack[n - 3].eval != -INF && static_eval > self.stack[n - 3].eval;

        if !pv_node && !in_check && excluded == Move::NONE && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta at low depth.
            if depth <= 7 && static_eval - 85 * depth + 30 * i32::from(improving) >= beta {
                return static_eval;
            }
            // Null move: give a free move; if still above beta, cut.
            if depth >= 3 && static_eval >= beta && self.top().mv != Move::NONE && self.has_big_pieces() {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                self.make_null();
                let v = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, !cut);
                self.unmake_null();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
            // Razoring: hopeless at low depth, see whether captures help.
            if depth <= 2 && static_eval + 250 * depth < alpha {
                let v = self.qsearch(alpha, alpha + 1, ply);
                if v <= alpha {
                    return v;
                }
            }
        }
        // Internal iterative reduction: no table move, search shallower.
        if tt_move == Move::NONE && depth >= 6 && (pv_node || cut) {
            depth -= 1;
        }

        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            // Checkmate (将死) and stalemate (困毙) both lose.
            return -MATE + ply as i32;
        }
        // Singular extension: when the table's move is far better than every
        // other (a search without it fails low well below its score), it is
        // searched a ply deeper; when even the others beat beta, cut.
        let mut tt_ext = 0;
        if let Some(e) = entry {
            let s = from_tt(e.score, ply);
            if tt_move != Move::NONE
                && excluded == Move::NONE
                && ply > 0
                && depth >= 8
                && e.depth >= depth - 3
                && e.bound != Bound::Upper
                && s.abs() < MATE_BOUND
                && (ply as i32) < 2 * self.root_depth
            {
                let singular_beta = s - 2 * depth;
                self.excluded[ply] = tt_move;
                let v = self.search(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut);
                self.excluded[ply] = Move::NONE;
                if self.stopped {
                    return 0;
                }
                if v < singular_beta {
                    tt_ext = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }
        let mut scored = self.order(&moves, tt_move, ply);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let mut quiets: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut count = 0;
        let lmp_limit = 3 + depth * depth * if improving { 2 } else { 1 };
        for i in 0..scored.len() {
            let mut bi = i;
            for j in i + 1..scored.len() {
                if scored[j].1 > scored[bi].1 {
                    bi = j;
                }
            }
            scored.swap(i, bi);
            let (m, order_score) = scored[i];
            if m == excluded {
                continue;
            }
            let capture = self.pos.is_capture(m);
            let killer = m == self.killers[ply][0] || m == self.killers[ply][1];
            count += 1;
            let prunable = !pv_node && !in_check && !capture && !killer && m != tt_move && best > -MATE_BOUND;
            let hist = if capture { 0 } else { order_score };
            // Low in the tree, skip captures that lose material in the
            // exchange and quiet moves that put a piece where it is lost.
            if !pv_node
                && !in_check
                && depth <= 5
                && m != tt_move
                && best > -MATE_BOUND
                && (capture || prunable)
                && !self.pos.gives_check(m)
                && !see_ge(
                    &self.pos,
                    m,
                    if capture {
                        -120 * depth
                    } else {
                        -40 * depth * depth
                    },
                )
            {
                continue;
            }
            self.make(m);
            let gives_check = self.top().in_check;
            if prunable
                && !gives_check
                && (depth <= 5 && count > lmp_limit
                    || depth <= 6 && static_eval + 120 + 110 * depth <= alpha
                    || depth <= 3 && hist < -4000 * depth)
            {
                self.unmake();
                continue;
            }
            let new_depth = depth - 1 + if m == tt_move { tt_ext } else { 0 };
            let mut v;
            if count == 1 {
                v = -self.search(-beta, -alpha, new_depth, ply + 1, false);
            } else {
                let mut r = 0;
                if depth >= 3 && count > 2 && !gives_check && !in_check && (!capture || order_score < 0) {
                    r = i32::from(self.lmr[depth.min(63) as usize][count.min(63) as usize]);
                    r -= i32::from(pv_node);
                    r += i32::from(cut);
                    r -= i32::from(killer);
                    r += i32::from(!improving);
                    if !capture {
                        r -= (hist / 8000).clamp(-2, 2);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if v > alpha && r > 0 {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut);
                }
                if pv_node && v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.pv[ply][ply] = m;
                        let len = self.pv_len[ply + 1].max(ply + 1);
                        for k in ply + 1..len {
                            self.pv[ply][k] = self.pv[ply + 1][k];
                        }
                        self.pv_len[ply] = len;
                    }
                    if v >= beta {
                        if !capture {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            let bonus = (depth * depth * 16).min(1600);
                            let rows = self.cont_rows();
                            self.update_history(m, bonus, rows);
                            for &q in &quiets {
                                self.update_history(q, -bonus, rows);
                            }
                        }
                        break;
                    }
                    alpha = v;
                }
            }
            if !capture && quiets.len() < quiets.capacity() {
                quiets.push(m);
            }
        }
        if excluded != Move::NONE {
            // No move but the excluded one was searched (none other, or all
            // pruned): the others fail low.
            return if best == -INF { alpha } else { best };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if static_eval == -INF { 0 } else { static_eval };
        self.sh
            .tt
            .store(key, best_move, to_tt(best, ply), stored_eval, depth, bound);
        best
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.check_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.top().in_check;
        if ply >= MAX_PLY - 4 || (in_check && ply as i32 > 2 * self.root_depth + 24) {
            return if in_check { 0 } else { self.evaluate() };
        }
        let key = self.pos.key();
        let entry = self.sh.tt.probe(key);
        if let Some(e) = entry {
            let s = from_tt(e.score, ply);
            if match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            } {
                return s;
            }
        }
        // In check every evasion is tried (and none means mate); otherwise
        // only captures, generated directly (a stalemate this deep is missed).
        let moves = if in_check {
            let moves = self.pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            moves
        } else {
            self.captures()
        };
        let orig_alpha = alpha;
        let mut best;
        let stand_pat;
        if in_check {
            best = -INF;
            stand_pat = -INF;
        } else {
            stand_pat = self.evaluate();
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut scored: arrayvec::ArrayVec<(Move, i32), 128> = arrayvec::ArrayVec::new();
        for &m in &moves {
            match self.pos.piece_at(m.to()) {
                Some(victim) => {
                    let attacker = self.pos.piece_at(m.from()).map_or(Role::Pawn, |p| p.role);
                    let mut gain = piece_value(victim.role);
                    if victim.role == Role::Pawn && !m.to().on_own_half(victim.color) {
                        gain = 200;
                    }
                    if !in_check {
                        if stand_pat + gain + 150 <= alpha {
                            continue;
                        }
                        if !see_ge(&self.pos, m, 0) {
                            continue;
                        }
                    }
                    scored.push((m, gain * 10 - piece_value(attacker) / 10 + 100_000));
                }
                None if in_check => scored.push((m, 0)),
                None => {}
            }
        }
        let mut best_move = Move::NONE;
        for i in 0..scored.len() {
            let mut bi = i;
            for j in i + 1..scored.len() {
                if scored[j].1 > scored[bi].1 {
                    bi = j;
                }
            }
            scored.swap(i, bi);
            let m = scored[i].0;
            self.make(m);
            let v = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let e = if stand_pat == -INF { 0 } else { stand_pat };
        self.sh.tt.store(key, best_move, to_tt(best, ply), e, 0, bound);
        best
    }
}
