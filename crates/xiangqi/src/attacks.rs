//! Attack tables, computed at compile time.
//!
//! Sliders (rook, cannon) are looked up by the occupancy of the rank or file
//! they stand on, the bit-rank / bit-file method of ElephantEye: a rank has 9
//! squares (512 patterns), a file 10 (1024 patterns). Ranks are read straight
//! from the rank-major occupancy; files from a second, file-major copy of the
//! occupancy that the position keeps in step. Leapers (horse, elephant) are a
//! short list of (blocking square, targets) steps per square.

use crate::{Bitboard, Color, Square};

/// One leaper step: the targets are reachable when `block` is empty.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub block: u8,
    pub targets: u128,
}

const NO_STEP: Step = Step { block: 0, targets: 0 };

/// Up to four steps; unused ones have no targets.
pub type Steps = [Step; 4];

/// Slide (rook) and screen-jump (cannon capture) masks along one line.
const fn line(pos: u32, occ: u32, len: u32) -> (u16, u16) {
    let mut slide: u16 = 0;
    let mut jump: u16 = 0;
    // Towards higher indices.
    let mut i = pos + 1;
    let mut screened = false;
    while i < len {
        let occupied = (occ >> i) & 1 != 0;
        if !screened {
            slide |= 1 << i;
            if occupied {
                screened = true;
            }
        } else if occupied {
            jump |= 1 << i;
            break;
        }
        i += 1;
    }
    // Towards lower indices.
    let mut i = pos as i32 - 1;
    screened = false;
    while i >= 0 {
        let occupied = (occ >> i) & 1 != 0;
        if !screened {
            slide |= 1 << i;
            if occupied {
                screened = true;
            }
        } else if occupied {
            jump |= 1 << i;
            break;
        }
        i -= 1;
    }
    (slide, jump)
}

const fn rank_tables(jump: bool) -> [[u16; 512]; 9] {
    let mut t = [[0u16; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            let (s, j) = line(f as u32, occ as u32, 9);
            t[f][occ] = if jump { j } else { s };
            occ += 1;
        }
        f += 1;
    }
    t
}

const fn file_tables(jump: bool) -> [[u16; 1024]; 10] {
    let mut t = [[0u16; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            let (s, j) = line(r as u32, occ as u32, 10);
            t[r][occ] = if jump { j } else { s };
            occ += 1;
        }
        r += 1;
    }
    t
}

const fn file_spread() -> [u128; 1024] {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if (m >> r) & 1 != 0 {
                t[m] |= 1u128 << (r * 9);
            }
            r += 1;
        }
        m += 1;
    }
    t
}

static RANK_SLIDE: [[u16; 512]; 9] = rank_tables(false);
static RANK_JUMP: [[u16; 512]; 9] = rank_tables(true);
static FILE_SLIDE: [[u16; 1024]; 10] = file_tables(false);
static FILE_JUMP: [[u16; 1024]; 10] = file_tables(true);
static FILE_SPREAD: [u128; 1024] = file_spread();

/// Index of `sq` in the file-major occupancy.
#[inline]
#[must_use]
pub const fn transposed_index(sq: Square) -> u32 {
    sq.file() as u32 * 10 + sq.rank() as u32
}

#[inline]
fn rank_occ(sq: Square, occ: u128) -> usize {
    ((occ >> (sq.rank() as u32 * 9)) & 0x1ff) as usize
}

#[inline]
fn file_occ(sq: Square, occ_t: u128) -> usize {
    ((occ_t >> (sq.file() as u32 * 10)) & 0x3ff) as usize
}

/// Rook moves from `sq`: empty squares along its lines plus the first
/// occupied square in each direction (whoever owns it).
#[inline]
#[must_use]
pub fn rook_attacks(sq: Square, occ: u128, occ_t: u128) -> u128 {
    let (f, r) = (sq.file() as usize, sq.rank() as usize);
    let rank = (RANK_SLIDE[f][rank_occ(sq, occ)] as u128) << (r * 9);
    let file = FILE_SPREAD[FILE_SLIDE[r][file_occ(sq, occ_t)] as usize] << f;
    rank | file
}

/// Cannon captures from `sq`: the first occupied square beyond exactly one
/// screen in each direction (炮打隔子).
#[inline]
#[must_use]
pub fn cannon_captures(sq: Square, occ: u128, occ_t: u128) -> u128 {
    let (f, r) = (sq.file() as usize, sq.rank() as usize);
    let rank = (RANK_JUMP[f][rank_occ(sq, occ)] as u128) << (r * 9);
    let file = FILE_SPREAD[FILE_JUMP[r][file_occ(sq, occ_t)] as usize] << f;
    rank | file
}

/// Rook moves and cannon captures from `sq` at once, sharing the occupancy
/// lookups (a cannon needs both; so does a check test).
#[inline]
#[must_use]
pub fn slide_and_jump(sq: Square, occ: u128, occ_t: u128) -> (u128, u128) {
    let (f, r) = (sq.file() as usize, sq.rank() as usize);
    let (ro, fo) = (rank_occ(sq, occ), file_occ(sq, occ_t));
    let slide = (RANK_SLIDE[f][ro] as u128) << (r * 9) | FILE_SPREAD[FILE_SLIDE[r][fo] as usize] << f;
    let jump = (RANK_JUMP[f][ro] as u128) << (r * 9) | FILE_SPREAD[FILE_JUMP[r][fo] as usize] << f;
    (slide, jump)
}

/// Targets of the steps whose blocking square is empty.
#[inline]
#[must_use]
pub fn leaper_targets(steps: &Steps, occ: u128) -> u128 {
    let mut t = 0;
    for s in steps {
        if (occ >> s.block) & 1 == 0 {
            t |= s.targets;
        }
    }
    t
}

const fn sq_bit(file: i32, rank: i32) -> u128 {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        1u128 << (rank * 9 + file)
    } else {
        0
    }
}

const fn in_any_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7) && rank >= 0 && rank <= 9
}

const fn same_half(r1: i32, r2: i32) -> bool {
    (r1 <= 4) == (r2 <= 4)
}

const fn step_table(kind: u8) -> [Steps; 90] {
    // kind 0: horse moves (block = orthogonal leg), 1: elephant moves (block =
    // eye), 2: horse attackers of a square (block = diagonal neighbour of the
    // target, targets = squares a horse attacks from through it).
    let mut t = [[NO_STEP; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let dirs: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        let diags: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
        let mut n = 0;
        let mut d = 0;
        while d < 4 {
            let (block, targets) = match kind {
                0 => {
                    let (df, dr) = dirs[d];
                    let (lf, lr) = (f + df, r + dr);
                    let t = if df == 0 {
                        sq_bit(f - 1, r + 2 * dr) | sq_bit(f + 1, r + 2 * dr)
                    } else {
                        sq_bit(f + 2 * df, r - 1) | sq_bit(f + 2 * df, r + 1)
                    };
                    (sq_bit(lf, lr), t)
                }
                1 => {
                    let (df, dr) = diags[d];
                    let (tf, tr) = (f + 2 * df, r + 2 * dr);
                    let t = if same_half(r, tr) { sq_bit(tf, tr) } else { 0 };
                    (sq_bit(f + df, r + dr), t)
                }
                _ => {
                    let (df, dr) = diags[d];
                    // A horse reaching (f, r) through the leg (f+df, r+dr)
                    // stands one more step out along either axis.
                    let t = sq_bit(f + df, r + 2 * dr) | sq_bit(f + 2 * df, r + dr);
                    (sq_bit(f + df, r + dr), t)
                }
            };
            if block != 0 && targets != 0 {
                t[sq][n] = Step {
                    block: block.trailing_zeros() as u8,
                    targets,
                };
                n += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

static HORSE_STEPS: [Steps; 90] = step_table(0);
static ELEPHANT_STEPS: [Steps; 90] = step_table(1);
static HORSE_ATTACKER_STEPS: [Steps; 90] = step_table(2);

#[inline]
#[must_use]
pub fn horse_steps(sq: Square) -> &'static Steps {
    &HORSE_STEPS[sq.index()]
}

#[inline]
#[must_use]
pub fn elephant_steps(sq: Square) -> &'static Steps {
    &ELEPHANT_STEPS[sq.index()]
}

/// Steps whose targets are the squares a horse attacks `sq` from, blocked by
/// the diagonal neighbour of `sq` that is that horse's leg.
#[inline]
#[must_use]
pub fn horse_attacker_steps(sq: Square) -> &'static Steps {
    &HORSE_ATTACKER_STEPS[sq.index()]
}

const fn simple_table(kind: u8) -> [u128; 90] {
    // kind 0: king, 1: advisor, 2: red pawn, 3: black pawn.
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut bits = 0u128;
        match kind {
            0 | 1 => {
                let deltas: [(i32, i32); 4] = if kind == 0 {
                    [(0, 1), (1, 0), (0, -1), (-1, 0)]
                } else {
                    [(1, 1), (1, -1), (-1, -1), (-1, 1)]
                };
                if in_any_palace(f, r) {
                    let mut d = 0;
                    while d < 4 {
                        let (tf, tr) = (f + deltas[d].0, r + deltas[d].1);
                        // Stay within the same palace.
                        if in_any_palace(tf, tr) && same_half(r, tr) {
                            bits |= sq_bit(tf, tr);
                        }
                        d += 1;
                    }
                }
            }
            _ => {
                let (fwd, crossed) = if kind == 2 { (1, r >= 5) } else { (-1, r <= 4) };
                bits |= sq_bit(f, r + fwd);
                if crossed {
                    bits |= sq_bit(f - 1, r) | sq_bit(f + 1, r);
                }
            }
        }
        t[sq] = bits;
        sq += 1;
    }
    t
}

const fn invert(table: &[u128; 90]) -> [u128; 90] {
    let mut inv = [0u128; 90];
    let mut from = 0;
    while from < 90 {
        let mut to = 0;
        while to < 90 {
            if (table[from] >> to) & 1 != 0 {
                inv[to] |= 1u128 << from;
            }
            to += 1;
        }
        from += 1;
    }
    inv
}

static KING_MOVES: [u128; 90] = simple_table(0);
static ADVISOR_MOVES: [u128; 90] = simple_table(1);
static PAWN_MOVES: [[u128; 90]; 2] = [simple_table(2), simple_table(3)];
static PAWN_ATTACKERS: [[u128; 90]; 2] = [invert(&simple_table(2)), invert(&simple_table(3))];

#[inline]
#[must_use]
pub fn king_moves(sq: Square) -> u128 {
    KING_MOVES[sq.index()]
}

#[inline]
#[must_use]
pub fn advisor_moves(sq: Square) -> u128 {
    ADVISOR_MOVES[sq.index()]
}

#[inline]
#[must_use]
pub fn pawn_moves(color: Color, sq: Square) -> u128 {
    PAWN_MOVES[color.index()][sq.index()]
}

/// Squares from which a pawn of `color` attacks `sq`.
#[inline]
#[must_use]
pub fn pawn_attackers(color: Color, sq: Square) -> u128 {
    PAWN_ATTACKERS[color.index()][sq.index()]
}

/// The four rays from a square: up (towards rank 9), right, down, left.
const fn ray_table() -> [[u128; 90]; 4] {
    let mut t = [[0u128; 90]; 4];
    let dirs: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 90 {
            let (mut f, mut r) = ((sq % 9) as i32, (sq / 9) as i32);
            loop {
                f += dirs[d].0;
                r += dirs[d].1;
                let b = sq_bit(f, r);
                if b == 0 {
                    break;
                }
                t[d][sq] |= b;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

static RAYS: [[u128; 90]; 4] = ray_table();

/// Ray from `sq` in direction `dir` (0 up, 1 right, 2 down, 3 left), `sq`
/// itself excluded.
#[inline]
#[must_use]
pub fn ray(dir: usize, sq: Square) -> u128 {
    RAYS[dir][sq.index()]
}

/// The square nearest to the ray's origin among `bits` (which must lie on a
/// ray in direction `dir`). Up and right rays grow in index, the others
/// shrink.
#[inline]
#[must_use]
pub fn nearest(dir: usize, bits: u128) -> Option<Square> {
    if bits == 0 {
        None
    } else if dir < 2 {
        Some(Square::from_index(bits.trailing_zeros() as usize))
    } else {
        Some(Square::from_index(127 - bits.leading_zeros() as usize))
    }
}

/// Squares strictly between `a` and `b` when they share a rank or file.
#[must_use]
pub fn between(a: Square, b: Square) -> Bitboard {
    for dir in 0..4 {
        let r = ray(dir, a);
        if (r >> b.index()) & 1 != 0 {
            return Bitboard(r & !ray(dir, b) & !(1u128 << b.index()));
        }
    }
    Bitboard::EMPTY
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bb(squares: &[&str]) -> u128 {
        squares
            .iter()
            .map(|s| 1u128 << Square::from_iccs(s).unwrap().index())
            .fold(0, |a, b| a | b)
    }

    fn sq(s: &str) -> Square {
        Square::from_iccs(s).unwrap()
    }

    #[test]
    fn horse_is_blocked_at_the_leg() {
        let h = sq("b0");
        assert_eq!(leaper_targets(horse_steps(h), 0), bb(&["a2", "c2", "d1"]));
        // A piece on c0 blocks d1; one on b1 blocks a2 and c2.
        assert_eq!(leaper_targets(horse_steps(h), bb(&["c0"])), bb(&["a2", "c2"]));
        assert_eq!(leaper_targets(horse_steps(h), bb(&["b1"])), bb(&["d1"]));
    }

    #[test]
    fn elephant_stays_home_and_respects_the_eye() {
        let e = sq("c4");
        assert_eq!(leaper_targets(elephant_steps(e), 0), bb(&["a2", "e2"]));
        assert_eq!(leaper_targets(elephant_steps(e), bb(&["d3"])), bb(&["a2"]));
        assert_eq!(leaper_targets(elephant_steps(sq("g5")), 0), bb(&["e7", "i7"]));
    }

    #[test]
    fn palace_pieces() {
        assert_eq!(king_moves(sq("e0")), bb(&["d0", "f0", "e1"]));
        assert_eq!(king_moves(sq("d2")), bb(&["d1", "e2"]));
        assert_eq!(advisor_moves(sq("e1")), bb(&["d0", "f0", "d2", "f2"]));
        assert_eq!(advisor_moves(sq("e8")), bb(&["d9", "f9", "d7", "f7"]));
    }

    #[test]
    fn pawns() {
        assert_eq!(pawn_moves(Color::Red, sq("c3")), bb(&["c4"]));
        assert_eq!(pawn_moves(Color::Red, sq("c5")), bb(&["c6", "b5", "d5"]));
        assert_eq!(pawn_moves(Color::Red, sq("a9")), bb(&["b9"]));
        assert_eq!(pawn_moves(Color::Black, sq("c6")), bb(&["c5"]));
        assert_eq!(pawn_attackers(Color::Black, sq("e1")), bb(&["e2", "d1", "f1"]));
    }

    #[test]
    fn sliders() {
        let occ = bb(&["b2", "b5", "b7", "e2"]);
        let occ_t = Square::all()
            .filter(|s| occ >> s.index() & 1 != 0)
            .fold(0u128, |a, s| a | 1u128 << transposed_index(s));
        assert_eq!(
            rook_attacks(sq("b2"), occ, occ_t),
            bb(&["a2", "c2", "d2", "e2", "b0", "b1", "b3", "b4", "b5"])
        );
        assert_eq!(cannon_captures(sq("b2"), occ, occ_t), bb(&["b7"]));
        assert_eq!(between(sq("b2"), sq("b7")).0, bb(&["b3", "b4", "b5", "b6"]));
    }

    #[test]
    fn horse_attackers_mirror_horse_moves() {
        for target in Square::all() {
            for from in Square::all() {
                let moves = horse_steps(from)
                    .iter()
                    .any(|s| s.targets >> target.index() & 1 != 0);
                let attacks = horse_attacker_steps(target)
                    .iter()
                    .any(|s| s.targets >> from.index() & 1 != 0);
                assert_eq!(moves, attacks, "{from} -> {target}");
            }
        }
    }
}
