//! Debugging aid: full-width alpha-beta with material values, to check lines.
//! `ab DEPTH FEN [MOVE...]` prints each root move's score for the side to move.
use referee::{classify::value, parse_iccs};
use xiangqi::{Color, Position};

fn eval(p: &Position) -> i32 {
    let mut s = 0;
    for (sq, pc) in p.pieces_iter() {
        let v = value(pc, sq) * 10 + i32::from(pc.role == xiangqi::Role::Pawn);
        if pc.color == p.turn() {
            s += v
        } else {
            s -= v
        }
    }
    s
}

fn ab(p: &mut Position, d: u32, mut a: i32, b: i32) -> i32 {
    let moves = p.legal_moves();
    if moves.is_empty() {
        return -10000 - d as i32;
    }
    if d == 0 {
        return eval(p);
    }
    for m in moves {
        let u = p.play_unchecked(m);
        let v = -ab(p, d - 1, -b, -a);
        p.undo(m, u);
        if v > a {
            a = v;
        }
        if a >= b {
            break;
        }
    }
    a
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let d: u32 = args[1].parse().unwrap();
    let mut p = Position::from_fen(&args[2]).unwrap();
    for m in &args[3..] {
        if m == "null" {
            p.play_null();
        } else {
            p.play(parse_iccs(m).unwrap()).unwrap();
        }
    }
    let _ = Color::Red;
    println!("{p}");
    let mut res = Vec::new();
    for m in p.legal_moves() {
        let u = p.play_unchecked(m);
        let v = -ab(&mut p, d - 1, -100000, 100000);
        p.undo(m, u);
        res.push((v, m.iccs()));
    }
    res.sort();
    res.reverse();
    for (v, m) in res.iter() {
        println!("{m} {v}");
    }
}
