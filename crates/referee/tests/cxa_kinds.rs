//! Positions of the kinds of issue 14 — joint chases (联合捉), self-exposed
//! pieces (自己造成的被捉状态), counted outcomes, even exchanges, chases
//! through a forcing line (28.3), double-purpose moves (27.4) — with the
//! ruling the rules give and why (`tests/cxa_kinds.json`; `made` says
//! whether a position was built by hand from the rule text or found by a
//! random search, `old_code` what commit 9ef5a60 ruled). Each cycle is
//! played until the referee rules (the start position three times); where
//! a case gives `marks`, the marks of the last cycle (将 杀 捉, every idle
//! kind as 闲) must match too.

mod common;

use common::{load, moves_of, verdict};
use referee::{judge, Config, RuleSet};
use xiangqi::Position;

#[test]
fn cxa_kinds() {
    let cases = load("tests/cxa_kinds.json");
    let config = Config::new(RuleSet::Cxa);
    let mut wrong = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let start = Position::from_fen(case["fen"].as_str().unwrap()).expect("FEN");
        let cycle = moves_of(&case["cycle"]);
        let mut moves = Vec::new();
        let mut got = "no ruling";
        let mut marks = String::new();
        for _ in 0..3 {
            moves.extend_from_slice(&cycle);
            let j = judge(&start, &moves, &config).expect("legal cycle");
            if j.sides.is_some() {
                got = verdict(j.decision);
                marks = j
                    .moves
                    .iter()
                    .map(|r| {
                        if r.class.is_attack() {
                            r.class.chinese()
                        } else {
                            '闲'
                        }
                    })
                    .collect();
                break;
            }
        }
        let expected = case["expected"].as_str().unwrap();
        let kind = case["kind"].as_str().unwrap();
        let want_marks = case["marks"].as_str().unwrap_or(&marks);
        println!("{i:2} {kind:<16} expected {expected:<11} {want_marks} got {got} {marks}");
        if got != expected || want_marks != marks {
            wrong.push(i);
        }
    }
    assert!(wrong.is_empty(), "misjudged: {wrong:?}");
}
