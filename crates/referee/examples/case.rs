//! Debugging aid: prints one repetition case with each move's class.
//! `cargo run -p referee --release --example case -- INDEX`

use referee::{classify, judge, parse_iccs, Config, RuleSet};
use xiangqi::Position;

fn main() {
    let idx: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("case index");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/xiangqi-repetition-cases.json"
    );
    let cases: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let case = &cases[idx];
    let rules: RuleSet = case["rules"].as_str().unwrap().parse().unwrap();
    let fen = case["fen"].as_str().unwrap().replace("[]", "");
    println!("{}", serde_json::to_string_pretty(case).unwrap());
    let mut pos = Position::from_fen(&fen).unwrap();
    println!("{pos}");
    let key = if case.get("moves_3fold").is_some() {
        "moves_3fold"
    } else {
        "moves"
    };
    let moves: Vec<_> = case[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| parse_iccs(m.as_str().unwrap()).unwrap())
        .collect();
    for &m in &moves {
        let r = classify(&pos, m, rules);
        println!("{} {:?} {:?} {:?}", m, r.side, r.class, r.targets);
        pos.play(m).unwrap();
    }
    let j = judge(&Position::from_fen(&fen).unwrap(), &moves, &Config::new(rules)).unwrap();
    println!("{:?} {} {:?} {}", j.decision, j.reason, j.article, j.detail);
    if let Some(s) = j.sides {
        println!("{:?}\n{:?}", s[0], s[1]);
    }
}
