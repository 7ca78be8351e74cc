//! Debugging aid: random sparse positions with a two-move shuttle for each
//! side, judged under the CXA rules; prints the cycles ruled other than a
//! draw by both-allowed moves, for building test positions by hand.
//! `cargo run -p referee --release --example gen -- SEED COUNT`

use referee::{judge, Config, RuleSet};
use xiangqi::{Color, Piece, Position, Role, Setup, Square};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() as usize) % n
    }
}

fn random_position(rng: &mut Rng) -> Option<Position> {
    let mut setup = Setup {
        board: [None; 90],
        turn: Color::Red,
        halfmove_clock: 0,
        fullmoves: 1,
    };
    let put = |setup: &mut Setup, rng: &mut Rng, color: Color, role: Role| {
        for _ in 0..50 {
            let sq = Square::from_index(rng.below(90));
            if setup.board[sq.index()].is_some() {
                continue;
            }
            let ok = match role {
                Role::King | Role::Advisor => sq.in_palace(color),
                Role::Elephant => {
                    sq.on_own_half(color) && sq.file().is_multiple_of(2) && {
                        let r = if color == Color::Red {
                            sq.rank()
                        } else {
                            9 - sq.rank()
                        };
                        r.is_multiple_of(2) && (sq.file() + r) % 4 == 2
                    }
                }
                Role::Pawn => !sq.on_own_half(color),
                _ => true,
            };
            if ok {
                setup.board[sq.index()] = Some(Piece { color, role });
                return;
            }
        }
    };
    for color in [Color::Red, Color::Black] {
        put(&mut setup, rng, color, Role::King);
        let n = 2 + rng.below(4);
        for _ in 0..n {
            let role = [
                Role::Rook,
                Role::Rook,
                Role::Horse,
                Role::Cannon,
                Role::Cannon,
                Role::Advisor,
                Role::Elephant,
                Role::Pawn,
                Role::Horse,
            ][rng.below(9)];
            put(&mut setup, rng, color, role);
        }
    }
    let pos = Position::from_setup(&setup).ok()?;
    (!pos.is_check() && pos.legal_moves().len() > 3).then_some(pos)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut rng = Rng(args[1].parse().unwrap());
    let count: usize = args[2].parse().unwrap();
    let config = Config::new(RuleSet::Cxa);
    let mut found = 0;
    while found < count {
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        let quiet = |p: &Position| -> Vec<xiangqi::Move> {
            p.legal_moves()
                .into_iter()
                .filter(|&m| p.piece_at(m.to()).is_none())
                .collect()
        };
        let r = quiet(&pos);
        if r.is_empty() {
            continue;
        }
        let m1 = r[rng.below(r.len())];
        let mut p1 = pos.clone();
        p1.play_unchecked(m1);
        let b = quiet(&p1);
        if b.is_empty() {
            continue;
        }
        let m2 = b[rng.below(b.len())];
        let mut p2 = p1.clone();
        p2.play_unchecked(m2);
        let m3 = xiangqi::Move::new(m1.to(), m1.from());
        if !p2.is_legal(m3) {
            continue;
        }
        let mut p3 = p2.clone();
        p3.play_unchecked(m3);
        let m4 = xiangqi::Move::new(m2.to(), m2.from());
        if !p3.is_legal(m4) {
            continue;
        }
        let cycle = [m1, m2, m3, m4];
        let moves: Vec<_> = cycle.iter().chain(cycle.iter()).copied().collect();
        let Ok(j) = judge(&pos, &moves, &config) else {
            continue;
        };
        if j.sides.is_none() || j.reason == "repetition_both_allowed" {
            continue;
        }
        let marks: String = j.moves.iter().map(|r| r.class.chinese()).collect();
        let c: Vec<String> = cycle.iter().map(|m| m.iccs()).collect();
        println!("{}\t{}\t{:?}\t{}", pos.fen(), c.join(" "), j.decision, marks);
        found += 1;
    }
}
