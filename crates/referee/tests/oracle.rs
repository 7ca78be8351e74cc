//! Differential test against Fairy-Stockfish: random repetition cycles
//! ruled by the PyPI package `pyffish` under its Asian (AXF) chasing rule
//! (tests/oracle/axf_cycles.json, made by tests/oracle/gen_axf.py), judged
//! here under [`RuleSet::Asian`]. The positions come from random playouts,
//! so nothing here was written with the referee in mind.

mod common;

use common::{load, moves_of, verdict};
use referee::{judge, Config, RuleSet};
use xiangqi::Position;

#[test]
fn axf_cycles_agree_with_fairy_stockfish() {
    let cases = load("tests/oracle/axf_cycles.json");
    let config = Config::new(RuleSet::Asian);
    let mut wrong = Vec::new();
    let mut kinds = std::collections::BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        let start = Position::from_fen(c["fen"].as_str().unwrap()).expect("oracle FEN");
        let moves = moves_of(&c["moves"]);
        let expected = c["expected"].as_str().unwrap();
        *kinds.entry(expected).or_insert(0) += 1;
        let j = judge(&start, &moves, &config).expect("legal oracle moves");
        if verdict(j.decision) != expected {
            let classes: Vec<String> = j
                .moves
                .iter()
                .map(|r| format!("{}{}{:?}", r.mv, r.class.chinese(), r.chased))
                .collect();
            wrong.push(format!(
                "{i}: {} {} expected {expected}, got {} [{}]",
                c["fen"].as_str().unwrap(),
                c["moves"],
                verdict(j.decision),
                classes.join(" ")
            ));
        }
    }
    println!(
        "AXF oracle: {}/{} cycles agree with Fairy-Stockfish ({kinds:?})",
        cases.len() - wrong.len(),
        cases.len()
    );
    for w in &wrong {
        println!("  {w}");
    }
    assert!(cases.len() >= 150, "the oracle file holds enough cycles");
    assert!(wrong.is_empty(), "{} cycles disagree", wrong.len());
}
