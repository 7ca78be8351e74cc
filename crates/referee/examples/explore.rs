//! Debugging aid: classifies each move of a line.
//! `cargo run -p referee --release --example explore -- RULES FEN MOVE...`

use referee::{classify, parse_iccs, RuleSet};
use xiangqi::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules: RuleSet = args[1].parse().unwrap();
    let mut pos = Position::from_fen(&args[2].replace("[]", "")).unwrap();
    println!("{pos}");
    for m in &args[3..] {
        let m = parse_iccs(m).unwrap();
        let t0 = std::time::Instant::now();
        let r = classify(&pos, m, rules);
        println!("   classify took {:?}", t0.elapsed());
        let mut t1 = pos.clone();
        t1.play_null();
        let th_b = referee::classify::mates_by_checks(&mut t1, 5);
        let mut t2 = pos.clone();
        t2.play(m).unwrap();
        let th_a = referee::classify::mates_by_checks(&mut t2, 5);
        println!("   opponent mate threat before {th_b} after {th_a}");
        let mut t3 = pos.clone();
        t3.play(m).unwrap();
        t3.play_null();
        let mm: Vec<String> = referee::classify::mating_moves(&mut t3, 5)
            .iter()
            .map(|m| m.iccs())
            .collect();
        println!("   mover's mating moves after {mm:?}");

        println!(
            "{} {:?} {:?} targets {:?} chased {:?}",
            m,
            r.side,
            r.class,
            r.targets.iter().map(|s| s.iccs()).collect::<Vec<_>>(),
            r.chased.iter().map(|s| s.iccs()).collect::<Vec<_>>()
        );
        pos.play(m).unwrap();
    }
    println!("{pos}");
}
