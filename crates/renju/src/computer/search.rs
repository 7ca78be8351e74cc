//! The search state and alpha-beta: a board the search plays on, shape
//! lookups for either colour under the rule set, move ordering, the
//! evaluation, negamax with a transposition table, and the root.

use super::{Limits, Why};
use crate::board::{Board, DIRECTIONS};
use crate::forbidden::{self, Verdict};
use crate::point::{Color, Point, POINTS};
use crate::rules::{RuleSet, Rules};
use crate::shape::{self, LineShape};
use std::collections::HashMap;
use std::sync::LazyLock;
use std::time::Instant;

/// A won game, less the plies it takes.
pub(super) const WIN: i32 = 1_000_000;
const WIN_SEEN: i32 = WIN - 1_000;

/// Zobrist keys per point and colour.
static KEYS: LazyLock<[[u64; POINTS]; 2]> = LazyLock::new(|| {
    let mut state = 0x2026_1204_u64;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut k = [[0u64; POINTS]; 2];
    for side in &mut k {
        for key in side.iter_mut() {
            *key = next();
        }
    }
    k
});

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    score: i32,
    bound: Bound,
    best: Option<Point>,
}

/// The board a search plays on, with its counters.
pub(super) struct Node {
    pub(super) board: Board,
    rules: Rules,
    hash: u64,
    nodes: u64,
    budget: u64,
    /// The level's node budget, before a deadline cut it short.
    limit: u64,
    /// When to stop, where a clock sets one (the Gomocup protocol's
    /// `timeout_turn`): passing it spends the budget at once.
    pub(super) deadline: Option<Instant>,
    /// Whether the deadline (not the node count) spent the budget.
    timed_out: bool,
    table: HashMap<(u64, Color), Entry>,
}

impl Node {
    pub(super) fn new(board: Board, rules: Rules, budget: u64) -> Node {
        let mut hash = 0;
        for p in Point::all() {
            if let Some(c) = board.get(p) {
                hash ^= KEYS[c.index()][p.index()];
            }
        }
        Node {
            board,
            rules,
            hash,
            nodes: 0,
            budget,
            limit: budget,
            deadline: None,
            timed_out: false,
            table: HashMap::new(),
        }
    }

    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Counts a node; false once the budget is spent.
    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        // The clock is read every 256 nodes (well under a millisecond).
        if self.nodes.is_multiple_of(256) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.budget = self.budget.min(self.nodes - 1);
            self.timed_out = true;
        }
        self.nodes <= self.budget
    }

    pub(super) fn out_of_nodes(&self) -> bool {
        self.nodes > self.budget
    }

    pub(super) fn place(&mut self, p: Point, c: Color) {
        self.board.set(p, c);
        self.hash ^= KEYS[c.index()][p.index()];
    }

    pub(super) fn remove(&mut self, p: Point, c: Color) {
        self.board.clear(p);
        self.hash ^= KEYS[c.index()][p.index()];
    }

    /// Whether exactly five wins for `c` (else five or more).
    fn exact(&self, c: Color) -> bool {
        match self.rules.set {
            RuleSet::Standard => true,
            RuleSet::Freestyle => false,
            RuleSet::Renju => c == Color::Black,
        }
    }

    /// What a stone of `c` on `p` makes along each line.
    pub(super) fn lines(&self, p: Point, c: Color) -> [LineShape; 4] {
        let exact = self.exact(c);
        std::array::from_fn(|d| {
            let w = self.board.window(p, d, c);
            if exact {
                shape::lookup(w)
            } else {
                shape::lookup_free(w)
            }
        })
    }

    /// Whether `c` wins by playing the empty point `p`.
    pub(super) fn wins_at(&self, p: Point, c: Color) -> bool {
        self.lines(p, c).iter().any(|s| s.five())
    }

    /// Whether `c` may play the empty point `p` without losing by it: not a
    /// forbidden point for black in renju.
    pub(super) fn legal_for(&mut self, p: Point, c: Color) -> bool {
        if self.rules.set != RuleSet::Renju || c == Color::White {
            return true;
        }
        !matches!(forbidden::verdict(&mut self.board, p), Verdict::Forbidden(_))
    }

    /// Empty points with a stone within two along a line; the centre on an
    /// empty board.
    pub(super) fn candidates(&self) -> Vec<Point> {
        if self.board.stones() == 0 {
            return vec![Point::CENTRE];
        }
        Point::all()
            .filter(|&p| self.board.is_empty_at(p) && self.board.has_neighbour(p))
            .collect()
    }

    /// The points where `c` would then win along a line through `p`, from
    /// the shapes of a stone of `c` on `p`.
    pub(super) fn win_points_from(p: Point, lines: &[LineShape; 4]) -> Vec<Point> {
        let mut out = Vec::new();
        for (d, s) in lines.iter().enumerate() {
            let m = s.win_points();
            let (dc, dr) = DIRECTIONS[d];
            for b in 0..9 {
                if m >> b & 1 == 1 {
                    let k = b as isize - 4;
                    if let Some(q) = p.offset(k * dc, k * dr) {
                        if !out.contains(&q) {
                            out.push(q);
                        }
                    }
                }
            }
        }
        out
    }

    /// How good a stone of `c` on `p` is for `c` (ordering and evaluation).
    pub(super) fn point_score(&self, p: Point, c: Color) -> i32 {
        let lines = self.lines(p, c);
        if lines.iter().any(|s| s.five()) {
            return 1_000_000;
        }
        let fours: u32 = lines.iter().map(|s| s.fours()).sum();
        let threes = lines.iter().filter(|s| s.three_points() != 0).count() as i32;
        let renju_black = self.rules.set == RuleSet::Renju && c == Color::Black;
        if renju_black && (lines.iter().any(|s| s.overline()) || fours >= 2 || threes >= 2) {
            // Very likely forbidden: worth nothing to black.
            return 0;
        }
        let straight_four = lines
            .iter()
            .any(|s| s.fours() >= 1 && s.win_points().count_ones() >= 2);
        if fours >= 2 || straight_four {
            return 100_000;
        }
        if fours >= 1 && threes >= 1 {
            return 50_000;
        }
        if threes >= 2 {
            return 20_000;
        }
        const ROOM: [i32; 5] = [0, 2, 12, 40, 60];
        let room: i32 = lines.iter().map(|s| ROOM[s.room() as usize]).sum();
        fours as i32 * 1_500 + threes * 700 + room
    }

    /// The position from `c`'s side: the best and the sum of the points'
    /// worth for each side, the side to move counting more.
    fn evaluate(&self, c: Color, cands: &[Point]) -> i32 {
        let (mut mine, mut theirs) = (0i64, 0i64);
        let (mut best_mine, mut best_theirs) = (0i32, 0i32);
        for &p in cands {
            let a = self.point_score(p, c);
            let b = self.point_score(p, c.other());
            mine += i64::from(a.min(100_000));
            theirs += i64::from(b.min(100_000));
            best_mine = best_mine.max(a);
            best_theirs = best_theirs.max(b);
        }
        let spread = ((mine - theirs) / 4).clamp(-200_000, 200_000) as i32;
        spread + best_mine.min(100_000) - best_theirs.min(100_000) / 2
    }

    /// Points ordered for `c`: own worth plus most of the opponent's.
    pub(super) fn ordered(&mut self, c: Color, cands: &[Point], width: usize) -> Vec<Point> {
        let mut scored: Vec<(i32, Point)> = cands
            .iter()
            .map(|&p| {
                (
                    self.point_score(p, c) + self.point_score(p, c.other()) * 9 / 10,
                    p,
                )
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut out = Vec::with_capacity(width);
        for (_, p) in scored {
            if out.len() >= width {
                break;
            }
            if self.legal_for(p, c) {
                out.push(p);
            }
        }
        out
    }

    /// Negamax with alpha-beta from `c`'s side.
    fn negamax(&mut self, c: Color, depth: u32, mut alpha: i32, beta: i32, ply: u32, width: usize) -> i32 {
        if !self.tick() {
            return 0;
        }
        let cands = self.candidates();
        if cands.is_empty() {
            return 0; // full board
        }
        if cands.iter().any(|&p| self.wins_at(p, c)) {
            return WIN - ply as i32;
        }
        let opp = c.other();
        let threats: Vec<Point> = cands.iter().copied().filter(|&p| self.wins_at(p, opp)).collect();
        let moves = if !threats.is_empty() {
            // Block, or lose: two fives cannot both be blocked.
            let blocks: Vec<Point> = threats
                .iter()
                .copied()
                .filter(|&p| self.legal_for(p, c))
                .collect();
            if threats.len() >= 2 || blocks.is_empty() || ply >= 60 {
                return -(WIN - ply as i32 - 1);
            }
            blocks
        } else {
            if depth == 0 {
                return self.evaluate(c, &cands);
            }
            let m = self.ordered(c, &cands, width);
            if m.is_empty() {
                // Only forbidden points left for black.
                return -(WIN - ply as i32 - 1);
            }
            m
        };
        let key = (self.hash, c);
        let mut first = None;
        if let Some(e) = self.table.get(&key).copied() {
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
            first = e.best;
        }
        let mut moves = moves;
        if let Some(b) = first {
            if let Some(i) = moves.iter().position(|&m| m == b) {
                moves.swap(0, i);
            }
        }
        let forced = !threats.is_empty();
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        for m in moves {
            self.place(m, c);
            // A forced block does not use up depth.
            let next = if forced { depth } else { depth - 1 };
            let score = -self.negamax(opp, next, -beta, -alpha, ply + 1, width);
            self.remove(m, c);
            if self.out_of_nodes() {
                return best.max(alpha0);
            }
            if score > best {
                best = score;
                best_move = Some(m);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(
            key,
            Entry {
                depth,
                score: best,
                bound,
                best: best_move,
            },
        );
        best
    }

    /// The root: five, block, VCF, VCT, then iterative deepening over the
    /// allowed points. Returns the move, why, its score and the depth.
    pub(super) fn root(&mut self, me: Color, allowed: &[Point], limits: Limits) -> (Point, Why, i32, u32) {
        let opp = me.other();
        if self.board.stones() == 0 && allowed.contains(&Point::CENTRE) {
            return (Point::CENTRE, Why::Forced, 0, 0);
        }
        if let Some(&p) = allowed.iter().find(|&&p| self.wins_at(p, me)) {
            return (p, Why::Five, WIN, 0);
        }
        let threats: Vec<Point> = allowed
            .iter()
            .copied()
            .filter(|&p| self.wins_at(p, opp))
            .collect();
        if let Some(&p) = threats.first() {
            // Block the five (the best-ordered point if there are two).
            let best = self
                .ordered(me, &threats, threats.len())
                .first()
                .copied()
                .unwrap_or(p);
            return (best, Why::Block, 0, 0);
        }
        // Under a deadline the threat searches get the first half of the
        // time, so that alpha-beta always has some.
        let deadline = self.deadline;
        if let Some(d) = deadline {
            let now = Instant::now();
            self.deadline = Some(now + d.saturating_duration_since(now) / 2);
        }
        if limits.vcf_depth > 0 {
            if let Some(p) = self.vcf(me, limits.vcf_depth).filter(|p| allowed.contains(p)) {
                return (p, Why::Vcf, WIN, 0);
            }
        }
        if limits.vct_depth > 0 {
            if let Some(p) = self
                .vct(me, limits.vct_depth, limits.vcf_depth.min(8))
                .filter(|p| allowed.contains(p))
            {
                return (p, Why::Vct, WIN, 0);
            }
        }
        self.deadline = deadline;
        if self.timed_out {
            self.timed_out = false;
            self.budget = self.limit;
        }
        // Alpha-beta over the allowed points, best-ordered first.
        let restricted: Vec<Point> = self
            .candidates()
            .into_iter()
            .filter(|p| allowed.contains(p))
            .collect();
        let pool = if restricted.is_empty() {
            allowed.to_vec()
        } else {
            restricted
        };
        let mut moves = self.ordered(me, &pool, limits.width.max(12));
        if moves.is_empty() {
            moves = pool.clone();
        }
        let root_hash = self.hash;
        let noise = move |p: Point| -> i32 {
            if limits.noise == 0 {
                return 0;
            }
            let mut z = (root_hash ^ (p.index() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_add(7);
            z = (z ^ (z >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            (z % (2 * limits.noise as u64 + 1)) as i32 - limits.noise
        };
        let mut best = (moves[0], i32::MIN);
        let mut done_depth = 0;
        for depth in 1..=limits.depth {
            let mut iteration_best = (moves[0], i32::MIN);
            let mut scores = Vec::with_capacity(moves.len());
            let mut alpha = -WIN - 1;
            for &m in &moves {
                self.place(m, me);
                let score = -self.negamax(opp, depth - 1, -WIN - 1, -alpha + limits.noise, 1, limits.width);
                self.remove(m, me);
                if self.out_of_nodes() {
                    break;
                }
                let noisy = score.saturating_add(noise(m));
                scores.push((noisy, m));
                if noisy > iteration_best.1 {
                    iteration_best = (m, noisy);
                }
                alpha = alpha.max(score);
            }
            if self.out_of_nodes() {
                // Keep the last whole iteration's answer, unless this one
                // found a win.
                if iteration_best.1 >= WIN_SEEN {
                    best = iteration_best;
                }
                break;
            }
            best = iteration_best;
            done_depth = depth;
            // Best first for the next iteration.
            scores.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            moves = scores.into_iter().map(|(_, m)| m).collect();
            if best.1 >= WIN_SEEN || best.1 <= -WIN_SEEN {
                break;
            }
        }
        if best.1 == i32::MIN {
            best.1 = 0;
        }
        (best.0, Why::Search, best.1, done_depth)
    }
}
