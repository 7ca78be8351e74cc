//! The locked-pawn dead positions (FIDE Laws 5.2.2) against an exhaustive
//! walk: for random boards of kings and head-to-head pawns, every position
//! the game can reach is visited with shakmaty's own move generator. A
//! position [`locked_pawns_dead`] calls dead must have no reachable
//! position where a pawn moves, anything is taken, or a king is mated —
//! that is what "no series of legal moves leads to mate" means on such a
//! board, where nothing but the kings can move until something is taken.
//! The walk also counts the dead positions the test leaves to the players
//! (it ignores the enemy king, so it may call a position live that the
//! enemy king alone keeps dead), and they must stay few.

mod walk;

use chess::{locked_pawns_dead, parse_fen, Variant};
use walk::something_happens;

/// A small deterministic generator (xorshift64*), so a failure names a
/// position that comes back on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

/// A board of kings and pairs of pawns standing head to head (white below
/// black), as FEN; `None` where the square drawn for a king is taken. Half
/// the boards have a few pairs anywhere; half a wall across the board,
/// each file's pair a rank or two from its neighbour's (a step of one seals
/// the wall, a step of two may leave a way through), a file now and then
/// left open.
fn random_locked(rng: &mut Rng) -> Option<String> {
    let mut board = [' '; 64]; // a1, b1, … h8
    let wall = rng.below(2) == 0;
    let mut rank = 1 + rng.below(5) as i64; // white's rank, 2nd–6th
    let mut pairs = 0;
    for file in 0..8 {
        let place = if wall {
            let step = [-2, -1, -1, 1, 1, 2][rng.below(6) as usize];
            rank = (rank + step).clamp(1, 5);
            rng.below(16) != 0
        } else {
            rank = 1 + rng.below(5) as i64;
            rng.below(3) == 0
        };
        if place {
            let sq = rank as usize * 8 + file;
            board[sq] = 'P';
            board[sq + 8] = 'p';
            pairs += 1;
        }
    }
    if pairs == 0 {
        return None;
    }
    for king in ['K', 'k'] {
        let sq = rng.below(64) as usize;
        if board[sq] != ' ' {
            return None;
        }
        board[sq] = king;
    }
    let ranks: Vec<String> = board
        .chunks(8)
        .rev()
        .map(|rank| {
            let mut s = String::new();
            let mut empty = 0;
            for &piece in rank {
                match piece {
                    ' ' => empty += 1,
                    c => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(c);
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    let turn = if rng.below(2) == 0 { 'w' } else { 'b' };
    Some(format!("{} {turn} - - 0 1", ranks.join("/")))
}

#[test]
fn a_locked_board_called_dead_has_no_reachable_change_or_mate() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut dead, mut live, mut missed, mut boards) = (0, 0, 0, 0);
    while boards < 6000 {
        let Some(fen) = random_locked(&mut rng) else {
            continue;
        };
        let Ok(pos) = parse_fen(&fen, Variant::Standard) else {
            continue; // kings touching, the side not to move in check
        };
        boards += 1;
        let happens = something_happens(&pos);
        if locked_pawns_dead(&pos) {
            assert!(!happens, "called dead, but something can happen: {fen}");
            dead += 1;
        } else {
            live += 1;
            if !happens {
                missed += 1;
            }
        }
    }
    println!("{boards} boards: {dead} called dead (all confirmed), {live} live, of which {missed} dead by the walk");
    assert!(dead >= 50 && live >= 1000, "dead {dead}, live {live}");
    assert!(
        missed * 10 <= dead,
        "{missed} dead positions missed against {dead} found"
    );
}
