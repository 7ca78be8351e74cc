//! The search behind [`super::choose`]: negamax alpha-beta with iterative
//! deepening and a capture search, on any variant's `Position`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use game::{Outcome, Side};

use super::weights::{mvv_lva, next, Weights};
use super::{Choice, Limits, Score};
use crate::position::Position;
use crate::square::{Move, Square};

/// The deepest iteration (plies, before extensions).
pub(crate) const MAX_DEPTH: u32 = 48;
/// The deepest a line may go, extensions and capture search included.
const MAX_PLY: usize = 96;
/// A won ending at the root; a win `n` plies away scores `MATE - n`.
const MATE: i32 = 1_000_000;
const INFINITY: i32 = MATE + 1;
/// Scores beyond this are won or lost endings.
const MATE_BOUND: i32 = MATE - 1_000;
/// What a free point beside a royal piece is worth (a soldier is ~100).
const ROOM: i32 = 20;
/// What a point closer to the enemy royal piece is worth, per piece:
/// the pull that makes a winning side close in.
const TROPISM: i32 = 3;
/// Capture-search plies that may answer a check with every reply.
const CHECK_REPLIES: u32 = 4;

/// One search: its limits, counters and move-ordering memory.
struct Search {
    weights: Arc<Weights>,
    deadline: Instant,
    node_limit: u64,
    nodes: u64,
    stopped: bool,
    /// The current iteration's root depth (bounds the check extension).
    root_depth: u32,
    /// Two quiet moves per ply that last cut a search off.
    killers: Vec<[Option<Move>; 2]>,
    /// Quiet moves that cut searches off, by from and to square.
    history: Vec<i32>,
    /// The triangular table of principal variations.
    pv: Vec<Vec<Move>>,
    /// The last iteration's line, searched first.
    prev_pv: Vec<Move>,
    /// The keys of the game's positions and of the line searched, up to
    /// the node's parent: a position found among them is a repetition.
    keys: Vec<u64>,
}

pub(crate) fn run(pos: &Position, earlier: &[u64], limits: Limits, movetime: Duration) -> Option<Choice> {
    let started = Instant::now();
    let mut pos = pos.clone();
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut search = Search {
        weights: Weights::of(pos.variant()),
        deadline: started + movetime,
        node_limit: limits.nodes,
        nodes: 0,
        stopped: false,
        root_depth: 1,
        killers: vec![[None; 2]; MAX_PLY + 1],
        history: vec![0; 256 * 256],
        pv: vec![Vec::new(); MAX_PLY + 1],
        prev_pv: Vec::new(),
        keys: earlier.to_vec(),
    };
    search.keys.push(pos.key());
    // The noise a level adds, the same for the same position and move, so
    // a game replays alike.
    let key = fnv(pos.to_fen().as_bytes());
    let mut root: Vec<(Move, i32)> = moves
        .iter()
        .map(|&m| {
            let mut h = key ^ (u64::from(m.from.0) << 8 | u64::from(m.to.0));
            let noise = if limits.noise > 0 {
                (next(&mut h) % (2 * limits.noise as u64 + 1)) as i32 - limits.noise
            } else {
                0
            };
            (m, noise)
        })
        .collect();
    search.order(&pos, &mut root, 0, |r| r.0);
    let mut best: Option<(Move, i32, Vec<Move>, u32)> = None;
    for depth in 1..=limits.depth.max(1) {
        search.root_depth = depth;
        let mut iteration: Option<(usize, i32, i32)> = None;
        for (i, &(m, noise)) in root.iter().enumerate() {
            // A move is better when its noisy score beats the best's: only
            // that needs an exact score (alpha-beta's window at the root).
            let alpha = iteration.map_or(-INFINITY, |(_, _, noisy)| noisy - noise);
            let mover = pos.turn();
            let undo = pos.play_unchecked(m);
            // A turn of two moves (杀惊遁马) keeps the side to move: its
            // score is the mover's own.
            let score = if pos.turn() == mover {
                search.negamax(&mut pos, depth - 1, alpha, INFINITY, 1)
            } else {
                -search.negamax(&mut pos, depth - 1, -INFINITY, -alpha, 1)
            };
            pos.undo(m, undo);
            if search.stopped {
                break;
            }
            if iteration.is_none_or(|(_, _, noisy)| score + noise > noisy) {
                iteration = Some((i, score, score + noise));
                let mut line = vec![m];
                line.extend_from_slice(&search.pv[1]);
                search.pv[0] = line;
            }
        }
        if let Some((i, score, _)) = iteration {
            let m = root[i].0;
            best = Some((m, score, search.pv[0].clone(), depth));
            // The best first in the next iteration, the rest as they were.
            let entry = root.remove(i);
            root.insert(0, entry);
            search.prev_pv = search.pv[0].clone();
        }
        if search.stopped || score_is_decided(best.as_ref().map_or(0, |b| b.1), depth) {
            break;
        }
        // An iteration rarely takes less than the last one: stop rather
        // than begin one that cannot finish.
        if started.elapsed() * 2 > movetime && depth > 1 {
            break;
        }
    }
    let (m, score, pv, depth) = best.unwrap_or((root[0].0, 0, vec![root[0].0], 1));
    Some(Choice {
        best: m,
        score: to_score(score),
        pv,
        depth,
        nodes: search.nodes,
    })
}

/// A won or lost ending found closer than the depth searched: deeper
/// iterations cannot change it.
fn score_is_decided(score: i32, depth: u32) -> bool {
    score.abs() > MATE_BOUND && (MATE - score.abs()) < depth as i32
}

fn to_score(score: i32) -> Score {
    if score.abs() > MATE_BOUND {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if score > 0 { moves } else { -moves })
    } else {
        Score::Cp(score)
    }
}

/// FNV-1a, for the noise's seed.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Search {
    /// Counts a node; reads the clock every 256.
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.node_limit || (self.nodes & 255 == 0 && Instant::now() >= self.deadline) {
            self.stopped = true;
        }
    }

    fn negamax(&mut self, pos: &mut Position, depth: u32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        self.tick();
        if self.stopped {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return self.ending(pos, ply);
        }
        if self.repeats(pos) {
            return 0;
        }
        if ply >= MAX_PLY - 8 {
            return self.evaluate(pos);
        }
        let in_check = pos.is_check();
        // Look one ply further at a check, while the line is not already
        // twice the iteration's depth (a perpetual check would go on).
        let depth = if in_check && (ply as u32) < 2 * self.root_depth {
            depth + 1
        } else {
            depth
        };
        if depth == 0 {
            return self.quiesce(pos, alpha, beta, ply, &moves, in_check, 0);
        }
        let mut moves = moves;
        self.order(pos, &mut moves, ply, |m| *m);
        let mut best = -INFINITY;
        self.keys.push(pos.key());
        for m in moves {
            let quiet = !m.moves_a_piece() || pos.piece_at(m.to).is_none();
            let mover = pos.turn();
            let undo = pos.play_unchecked(m);
            let score = if pos.turn() == mover {
                self.negamax(pos, depth - 1, alpha, beta, ply + 1)
            } else {
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            };
            pos.undo(m, undo);
            if self.stopped {
                self.keys.pop();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                }
            }
            if alpha >= beta {
                if quiet {
                    let k = &mut self.killers[ply];
                    if k[0] != Some(m) {
                        k[1] = k[0];
                        k[0] = Some(m);
                    }
                    self.history[history_index(m)] += (depth * depth) as i32;
                }
                break;
            }
        }
        self.keys.pop();
        best
    }

    /// Whether the position occurred before, in the game or on the line
    /// searched: only positions since the last capture can be it.
    fn repeats(&self, pos: &Position) -> bool {
        let key = pos.key();
        let back = (pos.halfmoves() as usize).min(self.keys.len());
        self.keys[self.keys.len() - back..].contains(&key)
    }

    /// The capture search at the horizon: the side to move may stand on
    /// the evaluation or capture; in check it must answer, with every
    /// reply, for a few plies.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        moves: &[Move],
        in_check: bool,
        qply: u32,
    ) -> i32 {
        let stand = self.evaluate(pos);
        let replies = in_check && qply < CHECK_REPLIES;
        let mut best = if replies { -INFINITY } else { stand };
        if !replies {
            if stand >= beta || ply >= MAX_PLY - 1 {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let mut candidates: Vec<(i32, Move)> = moves
            .iter()
            .filter_map(|&m| match mvv_lva(&self.weights, pos, m) {
                Some(key) => Some((key, m)),
                None => replies.then_some((i32::MIN, m)),
            })
            .collect();
        candidates.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        for (_, m) in candidates {
            self.tick();
            if self.stopped {
                return 0;
            }
            let mover = pos.turn();
            let undo = pos.play_unchecked(m);
            let replies_there = pos.legal_moves();
            let sign = if pos.turn() == mover { -1 } else { 1 };
            let score = if replies_there.is_empty() {
                -sign * self.ending(pos, ply + 1)
            } else if sign < 0 {
                let check = pos.is_check();
                self.quiesce(pos, alpha, beta, ply + 1, &replies_there, check, qply + 1)
            } else {
                let check = pos.is_check();
                -self.quiesce(pos, -beta, -alpha, ply + 1, &replies_there, check, qply + 1)
            };
            pos.undo(m, undo);
            if score > best {
                best = score;
                alpha = alpha.max(score);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The score of a position with no legal move, from the side to
    /// move's view: the variant's ending, won or lost `ply` plies from the
    /// root (sooner is better), or a draw.
    fn ending(&self, pos: &Position, ply: usize) -> i32 {
        match pos.end() {
            Some((_, Outcome::Win { winner })) if winner == pos.turn() => MATE - ply as i32,
            Some((_, Outcome::Win { .. })) => -(MATE - ply as i32),
            Some((_, Outcome::Draw)) => 0,
            None => self.evaluate(pos),
        }
    }

    /// The pieces' worth where they stand, the side to move's minus the
    /// other's, and each royal piece's room: a point it could step to that
    /// no enemy attacks is worth [`ROOM`] — what drives a search that is
    /// far ahead towards mate, which it could not see otherwise.
    fn evaluate(&self, pos: &Position) -> i32 {
        let (files, ranks) = pos.variant().size();
        let me = pos.turn();
        let royals = [pos.royal_square(Side::First), pos.royal_square(Side::Second)];
        let reach = i32::from(files) + i32::from(ranks);
        let mut score = 0;
        for rank in 0..ranks {
            for file in 0..files {
                let sq = Square::new(file, rank);
                if let Some((piece, side)) = pos.piece_at(sq) {
                    let mut w = self.weights.at(piece, side, sq);
                    if let Some(k) = royals[side.other().index()] {
                        let distance = (i32::from(k.file()) - i32::from(file)).abs()
                            + (i32::from(k.rank()) - i32::from(rank)).abs();
                        w += TROPISM * (reach - distance);
                    }
                    score += if side == me { w } else { -w };
                }
            }
        }
        let mut steps = Vec::new();
        for side in Side::BOTH {
            let Some(royal) = pos.royal_square(side) else {
                continue;
            };
            steps.clear();
            pos.moves_from(royal, &mut steps);
            let room = steps
                .iter()
                .filter(|m| !pos.attacked(m.to.0, side.other()))
                .count() as i32
                * ROOM;
            score += if side == me { room } else { -room };
        }
        score
    }

    /// Orders moves best-first: the last iteration's line, captures by
    /// most valuable victim, killers, then by history; a pass last.
    fn order<T>(&self, pos: &Position, moves: &mut [T], ply: usize, mv: impl Fn(&T) -> Move) {
        let follow = self.prev_pv.get(ply).copied();
        let killers = self.killers[ply];
        moves.sort_by_cached_key(|t| {
            let m = mv(t);
            let key = if Some(m) == follow {
                i64::MAX
            } else if Position::is_pass(m) {
                i64::MIN
            } else if let Some(c) = mvv_lva(&self.weights, pos, m) {
                1 << 40 | i64::from(c)
            } else if killers.contains(&Some(m)) {
                1 << 36
            } else {
                i64::from(self.history[history_index(m)])
            };
            std::cmp::Reverse(key)
        });
    }
}

fn history_index(m: Move) -> usize {
    usize::from(m.from.0) * 256 + usize::from(m.to.0)
}
