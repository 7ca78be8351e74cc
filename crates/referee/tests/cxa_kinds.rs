//! Positions of the kinds of issue 14 — joint chases (联合捉), self-exposed
//! pieces (自己造成的被捉状态), counted outcomes, even exchanges, chases
//! through a forcing line (28.3), double-purpose moves (27.4) — with the
//! ruling the rules give and why (`tests/cxa_kinds.json`; `made` says
//! whether a position was built by hand from the rule text or found by a
//! random search, `old_code` what commit 9ef5a60 ruled). Each cycle is
//! played until the referee rules (the start position three times); where
//! a case gives `marks`, the marks of the last cycle (将 杀 捉, every idle
//! kind as 闲) must match too.
//!
//! Every position is ours (`made`), but not every expectation: `source`
//! says where each comes from — `book <articles, diagrams>` where the
//! book's words or a diagram of the same shape rule it, `ours: <why>` where
//! it rests on a reading or test of ours. The test requires one of the two
//! and shows it with a failure. An expectation changes only in a commit of
//! its own that gives the book's reason (docs/referee.md, "Where an
//! expectation comes from").

mod common;

use common::{load, moves_of, verdict};
use referee::{judge, Config, RuleSet};
use xiangqi::Position;

/// Where an expectation comes from: `book ` and a citation (an article such
/// as 28.16 or a diagram such as 参考图22), or `ours: ` and the reason.
fn source_of(i: usize, case: &serde_json::Value) -> &str {
    let source = case["source"]
        .as_str()
        .unwrap_or_else(|| panic!("case {i} has no \"source\" (book … or ours: …)"));
    let chars: Vec<char> = source.chars().collect();
    let cites = chars.windows(2).any(|w| w[0] == '图' && w[1].is_ascii_digit())
        || chars
            .windows(3)
            .any(|w| w[0].is_ascii_digit() && w[1] == '.' && w[2].is_ascii_digit());
    let ours = source
        .strip_prefix("ours: ")
        .is_some_and(|why| !why.trim().is_empty());
    assert!(
        (source.starts_with("book ") && cites) || ours,
        "case {i}: source {source:?} is neither \"book <article or diagram>\" nor \"ours: <reason>\""
    );
    source
}

#[test]
fn cxa_kinds() {
    let cases = load("tests/cxa_kinds.json");
    let config = Config::new(RuleSet::Cxa);
    let mut wrong = Vec::new();
    let (mut book, mut ours) = (0, 0);
    for (i, case) in cases.iter().enumerate() {
        let source = source_of(i, case);
        if source.starts_with("book ") {
            book += 1;
        } else {
            ours += 1;
        }
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
        let tag = if source.starts_with("book ") {
            "book"
        } else {
            "ours"
        };
        println!("{i:2} {kind:<16} {tag} expected {expected:<11} {want_marks} got {got} {marks}");
        if got != expected || want_marks != marks {
            wrong.push(format!(
                "case {i} ({kind}): expected {expected} {want_marks}, got {got} {marks} — source: {source}"
            ));
        }
    }
    println!("{} expectations: {book} from the book, {ours} ours", cases.len());
    assert!(wrong.is_empty(), "misjudged:\n{}", wrong.join("\n"));
}
