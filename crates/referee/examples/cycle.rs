//! Debugging aid: plays a cycle from a position until the referee rules,
//! printing each move's class and the ruling.
//! `cargo run -p referee --release --example cycle -- RULES FEN MOVE...`

use referee::{judge, parse_iccs, Config, RuleSet};
use xiangqi::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules: RuleSet = args[1].parse().expect("rule set");
    let start = Position::from_fen(&args[2]).expect("FEN");
    let cycle: Vec<_> = args[3..].iter().map(|m| parse_iccs(m).expect("move")).collect();
    let config = Config::new(rules);
    let mut moves = Vec::new();
    for _ in 0..3 {
        moves.extend_from_slice(&cycle);
        let t = std::time::Instant::now();
        let j = match judge(&start, &moves, &config) {
            Ok(j) => j,
            Err(e) => {
                println!("error: {e}");
                return;
            }
        };
        if j.sides.is_some() {
            for r in &j.moves {
                let t: Vec<String> = r.targets.iter().map(|s| s.iccs()).collect();
                println!("{} {:?} {} {:?} {:?}", r.mv, r.side, r.class.chinese(), t, r.kind);
            }
            println!(
                "{:?} {} {:?} {} ({:?})",
                j.decision,
                j.reason,
                j.article,
                j.detail,
                t.elapsed()
            );
            return;
        }
    }
    println!("no ruling");
}
