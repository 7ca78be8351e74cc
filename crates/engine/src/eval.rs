//! The hand-made evaluation: material, piece-square tables, mobility, king
//! safety and a few structural terms.
//!
//! The evaluation is *linear in its weights*: every term is "weight × count",
//! tapered between a middlegame and an endgame weight by the material left on
//! the board. One function, [`features`], walks the position once and reports
//! each (term, count) pair to a [`Sink`]. The search uses a sink that
//! multiplies by the weights on the fly; the tuner (see [`crate::tune`])
//! uses a sink that records the counts, so that tuning is plain logistic
//! regression and the tuned evaluation is by construction the one the search
//! runs. All terms are counted from red's point of view (black's counts are
//! negated).

use xiangqi::{Bitboard, Color, Piece, Position, Role, Square};

/// Game phase: 0 = bare endgame, [`PHASE_MAX`] = all attacking pieces on.
pub const PHASE_MAX: i32 = 48;

/// Where each group of terms starts in the weight vector.
pub mod term {
    /// Material, one per role (the king's stays 0).
    pub const MATERIAL: usize = 0;
    /// Piece-square tables: `role * 50 + half_square` (files folded left-right,
    /// ranks counted from the owner's back rank).
    pub const PST: usize = 7;
    /// Pseudo-legal move counts of rooks, horses and cannons.
    pub const MOBILITY: usize = PST + 7 * 50;
    /// A horse with at most one move (a "dead horse", 死马).
    pub const HORSE_TRAPPED: usize = MOBILITY + 3;
    /// An enemy cannon on the king's file with nothing between (空头炮).
    pub const HOLLOW_CANNON: usize = HORSE_TRAPPED + 1;
    /// An enemy cannon on the king's file with exactly one screen (炮镇中路).
    pub const SCREENED_CANNON: usize = HOLLOW_CANNON + 1;
    /// An enemy cannon on the king's back rank with one screen (沉底炮).
    pub const BOTTOM_CANNON: usize = SCREENED_CANNON + 1;
    /// Enemy rooks, horses, cannons and pawns bearing on the palace.
    pub const ATTACKERS: usize = BOTTOM_CANNON + 1;
    /// The square of the number of palace attackers (attacks gang up).
    pub const ATTACKERS_SQUARED: usize = ATTACKERS + 4;
    /// Missing advisors times enemy attacking pieces (缺仕怕双车).
    pub const MISSING_ADVISOR: usize = ATTACKERS_SQUARED + 1;
    /// Missing elephants times enemy cannons (缺相怕炮).
    pub const MISSING_ELEPHANT: usize = MISSING_ADVISOR + 1;
    /// Both advisors / both elephants still on (士象全).
    pub const ADVISOR_PAIR: usize = MISSING_ELEPHANT + 1;
    pub const ELEPHANT_PAIR: usize = ADVISOR_PAIR + 1;
    /// Two crossed pawns side by side (连兵).
    pub const CONNECTED_PAWNS: usize = ELEPHANT_PAIR + 1;
    /// A rook on a file with no own pawn in front (an open file for rooks).
    pub const ROOK_OPEN_FILE: usize = CONNECTED_PAWNS + 1;
    /// The side to move.
    pub const TEMPO: usize = ROOK_OPEN_FILE + 1;
    /// Pieces of the side to move that are attacked by a cheaper piece, or
    /// attacked and not defended: pawns/advisors/elephants, horses/cannons,
    /// rooks. (The terms from here on were added after the first tuning
    /// runs; older weight tables are a prefix of the new ones.)
    pub const THREAT_STM: usize = TEMPO + 1;
    /// The same for the side that has just moved (the side to move may
    /// take them).
    pub const THREAT_OTHER: usize = THREAT_STM + 3;
    /// Attacks by enemy rooks, horses, cannons and pawns on palace squares.
    pub const PALACE_CONTROL: usize = THREAT_OTHER + 3;
    /// King steps to squares the enemy does not attack.
    pub const KING_FLIGHT: usize = PALACE_CONTROL + 1;
    /// Mobility by move count (0..=17), added to the linear term: the first
    /// few moves of a piece matter more than the last.
    pub const MOBILITY_ROOK: usize = KING_FLIGHT + 1;
    pub const MOBILITY_HORSE: usize = MOBILITY_ROOK + 18;
    pub const MOBILITY_CANNON: usize = MOBILITY_HORSE + 9;
    /// Checks the enemy rooks, horses and cannons can give next move on a
    /// square the defender does not attack (safe checks, the raw material
    /// of mating attacks).
    pub const SAFE_CHECK: usize = MOBILITY_CANNON + 18;
    /// Number of weights.
    pub const COUNT: usize = SAFE_CHECK + 3;
}

/// Receives the terms of one evaluation.
pub trait Sink {
    /// Term `index` counted `count` times (negative counts are black's).
    fn add(&mut self, index: usize, count: i32);
}

/// Evaluation weights: a middlegame and an endgame value per term, in
/// centipawns-ish units (an uncrossed pawn is about 80–100).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    pub weights: Vec<[i32; 2]>,
}

impl Params {
    /// The tuned weights the engine plays with.
    #[must_use]
    pub fn tuned() -> Params {
        // Terms are only ever appended, so a table tuned before a term
        // existed is a prefix: the new terms start from their hand weights.
        let mut p = Params::hand();
        for (w, t) in p.weights.iter_mut().zip(crate::tuned::WEIGHTS) {
            *w = [i32::from(t[0]), i32::from(t[1])];
        }
        p
    }

    /// The hand-set starting weights, before tuning (kept to measure what
    /// tuning gained, see docs/ENGINE.md).
    #[must_use]
    pub fn hand() -> Params {
        let mut w = vec![[0i32; 2]; term::COUNT];
        let material = [
            (Role::King, 0, 0),
            (Role::Advisor, 200, 200),
            (Role::Elephant, 200, 200),
            (Role::Horse, 420, 480),
            (Role::Rook, 1000, 1080),
            (Role::Cannon, 460, 420),
            (Role::Pawn, 80, 100),
        ];
        for (role, mg, eg) in material {
            w[term::MATERIAL + role.index()] = [mg, eg];
        }
        for role in Role::ALL {
            for rank in 0..10i32 {
                for file in 0..5i32 {
                    let centre = 4 - file; // 0 on the edge, 4 in the middle
                    let (mg, eg) = match role {
                        Role::King => {
                            let v = -12 * rank - 8 * (4 - centre);
                            (v, v / 2)
                        }
                        Role::Advisor => {
                            let v = if file == 4 && rank == 1 { 10 } else { 0 };
                            (v, v)
                        }
                        Role::Elephant => {
                            let v = match (file, rank) {
                                (4, 2) => 12,
                                (2, 0) => 2,
                                (0, 2) | (2, 4) => -6,
                                _ => 0,
                            };
                            (v, v)
                        }
                        Role::Horse => {
                            let fwd = match rank {
                                0 => -10,
                                1 => -4,
                                2 => 0,
                                3..=5 => 8,
                                6 | 7 => 18,
                                8 => 10,
                                _ => -6,
                            };
                            (fwd + 4 * centre, fwd / 2 + 4 * centre)
                        }
                        Role::Rook => {
                            let fwd = match rank {
                                0 => -6,
                                1..=4 => 0,
                                5 => 6,
                                6 => 14,
                                7 => 10,
                                _ => 6,
                            };
                            (fwd + 2 * centre, fwd / 2 + centre)
                        }
                        Role::Cannon => {
                            let v = match rank {
                                0 | 1 => 0,
                                2 => 4,
                                3 | 4 => 2,
                                5..=7 => 4,
                                _ => 6,
                            } + if file == 4 { 12 } else { 2 * centre };
                            (v, v / 2)
                        }
                        Role::Pawn => {
                            if rank <= 4 {
                                (if rank == 4 { 4 } else { 0 }, 0)
                            } else {
                                let deep = match rank {
                                    5 => 50,
                                    6 | 7 => 70,
                                    8 => 60,
                                    _ => 10,
                                };
                                (deep + 5 * centre, deep + 15 + 5 * centre)
                            }
                        }
                    };
                    w[term::PST + role.index() * 50 + (rank * 5 + file) as usize] = [mg, eg];
                }
            }
        }
        w[term::MOBILITY] = [4, 5];
        w[term::MOBILITY + 1] = [8, 8];
        w[term::MOBILITY + 2] = [3, 2];
        w[term::HORSE_TRAPPED] = [-30, -30];
        w[term::HOLLOW_CANNON] = [-60, -20];
        w[term::SCREENED_CANNON] = [-20, -5];
        w[term::BOTTOM_CANNON] = [-25, -10];
        w[term::ATTACKERS] = [-10, -5];
        w[term::ATTACKERS + 1] = [-10, -5];
        w[term::ATTACKERS + 2] = [-8, -4];
        w[term::ATTACKERS + 3] = [-10, -10];
        w[term::ATTACKERS_SQUARED] = [-4, -2];
        w[term::MISSING_ADVISOR] = [-8, -8];
        w[term::MISSING_ELEPHANT] = [-10, -5];
        w[term::ADVISOR_PAIR] = [10, 15];
        w[term::ELEPHANT_PAIR] = [10, 15];
        w[term::CONNECTED_PAWNS] = [10, 20];
        w[term::ROOK_OPEN_FILE] = [10, 5];
        w[term::TEMPO] = [10, 10];
        for (k, v) in [[-10, -15], [-25, -35], [-40, -50]].into_iter().enumerate() {
            w[term::THREAT_STM + k] = v;
            w[term::THREAT_OTHER + k] = [v[0] / 2, v[1] / 2];
        }
        w[term::PALACE_CONTROL] = [-3, -2];
        w[term::KING_FLIGHT] = [3, 3];
        w[term::SAFE_CHECK] = [-20, -10];
        w[term::SAFE_CHECK + 1] = [-20, -10];
        w[term::SAFE_CHECK + 2] = [-15, -5];
        Params { weights: w }
    }
}

/// The piece-square index of `sq` for a piece of `color`: files folded to
/// 0..5 (edge to centre), ranks counted from the owner's back rank.
#[inline]
#[must_use]
pub fn half_square(color: Color, sq: Square) -> usize {
    let rank = match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    } as usize;
    let f = sq.file() as usize;
    rank * 5 + f.min(8 - f)
}

/// How much material a side has on for the phase: rooks 6, horses and
/// cannons 3 each; both sides full = [`PHASE_MAX`].
#[inline]
#[must_use]
pub fn phase(pos: &Position) -> i32 {
    let r = pos.by_role(Role::Rook).count() as i32;
    let hc = (pos.by_role(Role::Horse) | pos.by_role(Role::Cannon)).count() as i32;
    (6 * r + 3 * hc).min(PHASE_MAX)
}

/// Value class of a piece for threats: 0 pawns, advisors and elephants,
/// 1 horses and cannons, 2 rooks; the king has none.
fn class(role: Role) -> Option<usize> {
    match role {
        Role::King => None,
        Role::Pawn | Role::Advisor | Role::Elephant => Some(0),
        Role::Horse | Role::Cannon => Some(1),
        Role::Rook => Some(2),
    }
}

fn crossed(color: Color, sq: Square) -> bool {
    !sq.on_own_half(color)
}

/// The palace squares (九宫) of each colour: files d–f, ranks 0–2 and 7–9.
const PALACES: [Bitboard; 2] = {
    let mut red = 0u128;
    let mut black = 0u128;
    let mut f = 3;
    while f <= 5 {
        let mut r = 0;
        while r <= 2 {
            red |= 1u128 << (r * 9 + f);
            black |= 1u128 << ((9 - r) * 9 + f);
            r += 1;
        }
        f += 1;
    }
    [Bitboard(red), Bitboard(black)]
};

/// Reports every term of `pos` to `sink`, from red's point of view.
pub fn features<S: Sink>(pos: &Position, sink: &mut S) {
    let palaces = PALACES;
    let occ = pos.occupied();
    // Attackers bearing on each side's palace.
    let mut attackers = [0i32; 2];
    // What each side bears on, by the class of the piece that does (see
    // `class`), and all together with the king; hits on each palace.
    let mut att = [[0u128; 3]; 2];
    let mut att_all = [0u128; 2];
    let mut palace_hits = [0i32; 2];
    // Where each side's rooks, horses and cannons can move.
    let mut reach = [[0u128; 3]; 2];
    for color in Color::ALL {
        let sign = if color == Color::Red { 1 } else { -1 };
        let them = color.other();
        let their_palace = palaces[them.index()];
        let their_king = pos.king(them);
        let own_pawns = pos.pieces(color, Role::Pawn);
        let own = pos.by_color(color).0;
        for role in Role::ALL {
            let bb = pos.pieces(color, role);
            let n = bb.count() as i32;
            if n == 0 {
                continue;
            }
            sink.add(term::MATERIAL + role.index(), sign * n);
            let piece = Piece::new(color, role);
            for sq in bb {
                sink.add(term::PST + role.index() * 50 + half_square(color, sq), sign);
                let a = pos.attacks_from(sq, piece).0;
                att_all[color.index()] |= a;
                if let Some(c) = class(role) {
                    att[color.index()][c] |= a;
                }
                if matches!(role, Role::Rook | Role::Horse | Role::Cannon)
                    || role == Role::Pawn && crossed(color, sq)
                {
                    palace_hits[them.index()] += (a & their_palace.0).count_ones() as i32;
                }
                match role {
                    Role::Rook => {
                        let t = Bitboard(a & !own);
                        reach[color.index()][0] |= t.0;
                        let c = t.count() as i32;
                        sink.add(term::MOBILITY, sign * c);
                        sink.add(term::MOBILITY_ROOK + c.min(17) as usize, sign);
                        if (t & their_palace).any() {
                            sink.add(term::ATTACKERS, -sign);
                            attackers[them.index()] += 1;
                        }
                        let ahead = own_pawns
                            .filter(|p| {
                                p.file() == sq.file()
                                    && match color {
                                        Color::Red => p.rank() > sq.rank(),
                                        Color::Black => p.rank() < sq.rank(),
                                    }
                            })
                            .count();
                        if ahead == 0 {
                            sink.add(term::ROOK_OPEN_FILE, sign);
                        }
                    }
                    Role::Horse => {
                        let t = Bitboard(a & !own);
                        reach[color.index()][1] |= t.0;
                        let c = t.count() as i32;
                        sink.add(term::MOBILITY + 1, sign * c);
                        sink.add(term::MOBILITY_HORSE + c.min(8) as usize, sign);
                        if c <= 1 {
                            sink.add(term::HORSE_TRAPPED, sign);
                        }
                        if (t & their_palace).any() {
                            attackers[them.index()] += 1;
                            sink.add(term::ATTACKERS + 1, -sign);
                        }
                    }
                    Role::Cannon => {
                        let t = pos.pseudo_targets(sq, piece);
                        reach[color.index()][2] |= t.0;
                        let c = t.count() as i32;
                        sink.add(term::MOBILITY + 2, sign * c);
                        sink.add(term::MOBILITY_CANNON + c.min(17) as usize, sign);
                        if sq.file() == their_king.file() || sq.rank() == their_king.rank() {
                            attackers[them.index()] += 1;
                            sink.add(term::ATTACKERS + 2, -sign);
                            let screens = (xiangqi::between(sq, their_king) & occ).count();
                            let on_file = sq.file() == their_king.file();
                            match (on_file, screens) {
                                (true, 0) => sink.add(term::HOLLOW_CANNON, -sign),
                                (true, 1) => sink.add(term::SCREENED_CANNON, -sign),
                                (false, 1) if their_king.rank() == sq.rank() => {
                                    let back = match them {
                                        Color::Red => 0,
                                        Color::Black => 9,
                                    };
                                    if sq.rank() == back {
                                        sink.add(term::BOTTOM_CANNON, -sign);
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    Role::Pawn if crossed(color, sq) => {
                        let t = pos.pseudo_targets(sq, piece);
                        if (t & their_palace).any() || their_palace.contains(sq) {
                            attackers[them.index()] += 1;
                            sink.add(term::ATTACKERS + 3, -sign);
                        }
                        if sq.file() < 8 {
                            let right = Square::new(sq.file() + 1, sq.rank());
                            if own_pawns.contains(right) {
                                sink.add(term::CONNECTED_PAWNS, sign);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        if pos.pieces(color, Role::Advisor).count() == 2 {
            sink.add(term::ADVISOR_PAIR, sign);
        }
        if pos.pieces(color, Role::Elephant).count() == 2 {
            sink.add(term::ELEPHANT_PAIR, sign);
        }
    }
    // King safety of each side, counted against the side that is attacked:
    // the weights are negative (bad for the defender), so a black attacker
    // adds to red's woes with the defender's sign.
    for color in Color::ALL {
        let sign = if color == Color::Red { 1 } else { -1 };
        let them = color.other();
        let a = attackers[color.index()];
        sink.add(term::ATTACKERS_SQUARED, sign * a * a);
        let missing_adv = 2 - pos.pieces(color, Role::Advisor).count() as i32;
        let missing_ele = 2 - pos.pieces(color, Role::Elephant).count() as i32;
        let enemy_attack =
            (pos.pieces(them, Role::Rook) | pos.pieces(them, Role::Horse) | pos.pieces(them, Role::Cannon))
                .count() as i32
                + pos.pieces(them, Role::Pawn).filter(|&s| crossed(them, s)).count() as i32;
        sink.add(term::MISSING_ADVISOR, sign * missing_adv * enemy_attack);
        let enemy_cannons = pos.pieces(them, Role::Cannon).count() as i32;
        sink.add(term::MISSING_ELEPHANT, sign * missing_ele * enemy_cannons);
        sink.add(term::PALACE_CONTROL, sign * palace_hits[color.index()]);
        let king = pos.king(color);
        let flight = pos.attacks_from(king, Piece::new(color, Role::King)).0
            & !pos.by_color(color).0
            & !att_all[them.index()];
        sink.add(term::KING_FLIGHT, sign * flight.count_ones() as i32);
        for (k, role) in [Role::Rook, Role::Horse, Role::Cannon].into_iter().enumerate() {
            let r = reach[them.index()][k];
            if r != 0 {
                let safe = pos.attack_squares_to(king, role).0 & r & !att_all[color.index()];
                sink.add(term::SAFE_CHECK + k, sign * safe.count_ones() as i32);
            }
        }
        // Threats: a piece attacked by a cheaper one is as good as lost
        // unless it moves; one attacked and not defended likewise.
        let (us, en) = (color.index(), them.index());
        let threat = if color == pos.turn() {
            term::THREAT_STM
        } else {
            term::THREAT_OTHER
        };
        for role in Role::ALL {
            let Some(c) = class(role) else { continue };
            let cheaper = att[en][..c].iter().fold(0u128, |x, y| x | y);
            let bb = pos.pieces(color, role).0 & att_all[en];
            let hit = bb & (cheaper | !att_all[us]);
            if hit != 0 {
                sink.add(threat + c, sign * hit.count_ones() as i32);
            }
        }
    }
    sink.add(term::TEMPO, if pos.turn() == Color::Red { 1 } else { -1 });
}

/// The sink the search uses: multiplies by the weights as it goes.
struct Score<'a> {
    w: &'a [[i32; 2]],
    mg: i32,
    eg: i32,
}

impl Sink for Score<'_> {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        let w = self.w[index];
        self.mg += w[0] * count;
        self.eg += w[1] * count;
    }
}

/// Tapers a (middlegame, endgame) pair by the phase.
#[inline]
#[must_use]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The evaluation from red's point of view.
#[must_use]
pub fn evaluate_red(pos: &Position, params: &Params) -> i32 {
    let mut s = Score {
        w: &params.weights,
        mg: 0,
        eg: 0,
    };
    features(pos, &mut s);
    taper(s.mg, s.eg, phase(pos))
}

/// The evaluation from the side to move's point of view, as negamax wants.
#[must_use]
pub fn evaluate(pos: &Position, params: &Params) -> i32 {
    let v = evaluate_red(pos, params);
    if pos.turn() == Color::Red {
        v
    } else {
        -v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mirror a FEN left-right and swap colours (rotate 180°): the
    /// evaluation must be exactly antisymmetric.
    fn flip_colors(pos: &Position) -> Position {
        let mut setup = xiangqi::Setup::from_fen(&pos.fen()).unwrap();
        let old = setup.board;
        for sq in Square::all() {
            setup.board[sq.flip().index()] = old[sq.index()].map(|p| Piece::new(p.color.other(), p.role));
        }
        setup.turn = setup.turn.other();
        Position::from_setup(&setup).unwrap()
    }

    fn mirror(pos: &Position) -> Position {
        let mut setup = xiangqi::Setup::from_fen(&pos.fen()).unwrap();
        let old = setup.board;
        for sq in Square::all() {
            setup.board[sq.mirror().index()] = old[sq.index()];
        }
        Position::from_setup(&setup).unwrap()
    }

    const FENS: &[&str] = &[
        xiangqi::STARTPOS,
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    ];

    #[test]
    fn symmetric() {
        let p = Params::hand();
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let e = evaluate(&pos, &p);
            assert_eq!(e, evaluate(&flip_colors(&pos), &p), "{fen}");
            assert_eq!(e, evaluate(&mirror(&pos), &p), "{fen}");
            let t = Params::tuned();
            assert_eq!(evaluate(&pos, &t), evaluate(&flip_colors(&pos), &t), "{fen}");
        }
    }

    #[test]
    fn start_position_is_balanced_and_material_counts() {
        let p = Params::tuned();
        let start = Position::startpos();
        // Only the tempo term separates the sides at the start.
        assert_eq!(
            evaluate_red(&start, &p),
            taper(p.weights[term::TEMPO][0], p.weights[term::TEMPO][1], PHASE_MAX)
        );
        // Red without a rook is clearly worse.
        let no_rook =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1")
                .unwrap();
        assert!(evaluate_red(&no_rook, &p) < -500);
    }

    /// The counts of the terms of a position.
    fn counts(fen: &str) -> std::collections::HashMap<usize, i32> {
        struct Counts(std::collections::HashMap<usize, i32>);
        impl Sink for Counts {
            fn add(&mut self, index: usize, count: i32) {
                *self.0.entry(index).or_insert(0) += count;
            }
        }
        let mut c = Counts(std::collections::HashMap::new());
        features(&Position::from_fen(fen).unwrap(), &mut c);
        c.0.retain(|_, n| *n != 0);
        c.0
    }

    #[test]
    fn threats_are_counted_for_the_side_they_hurt() {
        // A red rook attacked by a black horse: a threat against red, which
        // red (to move) can still answer, or black (to move) can take.
        let red_to_move = counts("5k3/9/2n6/9/3R5/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(red_to_move.get(&(term::THREAT_STM + 2)), Some(&1));
        assert_eq!(red_to_move.get(&(term::THREAT_OTHER + 2)), None);
        let black_to_move = counts("5k3/9/2n6/9/3R5/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(black_to_move.get(&(term::THREAT_OTHER + 2)), Some(&1));
        assert_eq!(black_to_move.get(&(term::THREAT_STM + 2)), None);
        // A black pawn attacked by the rook: hanging while undefended
        // (black's count is negative), safe once a black rook guards it.
        let hanging = counts("5k3/9/9/9/3Rp4/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(hanging.get(&term::THREAT_STM), Some(&-1));
        let guarded = counts("5k3/9/9/4r4/3Rp4/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(guarded.get(&term::THREAT_STM), None);
        // Flight squares: red's king has d0, e1, f0; black's has e9 and f8
        // — until the red rook takes f8 away.
        assert_eq!(hanging.get(&term::KING_FLIGHT), Some(&(3 - 2)));
        let cut_off = counts("5k3/4R4/9/9/4p4/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(cut_off.get(&term::KING_FLIGHT), Some(&3));
        // A black rook on a5 can check the red king from a0 and e5, neither
        // of which red guards; a red cannon on e2 closes the file, leaving a0.
        let checks = counts("5k3/9/9/9/r8/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(checks.get(&term::SAFE_CHECK), Some(&2));
        let guarded = counts("5k3/9/9/9/r8/9/9/4C4/9/4K4 w - - 0 1");
        assert_eq!(guarded.get(&term::SAFE_CHECK), Some(&1));
    }

    #[test]
    fn tuned_table_matches_the_terms() {
        assert_eq!(crate::tuned::WEIGHTS.len(), term::COUNT);
    }
}
